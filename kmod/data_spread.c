// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Spreading a holder's piece into transfers by the job's algorithm:
 * U-torus (Fig 4.9) or separate addressing, one transfer per message;
 * path-based (S-, Md-, Mu-torus, Robinson (1994), ch. 6), one transfer per
 * destination of each worm, sent together (data_tx.c); and the takeover
 * of a dead child's piece, which spreads again.
 *
 * A worm with more destinations than the transport lets one visit (its
 * limits on destinations and compound header bytes) goes as several
 * worms, each a run of the destinations in visiting order: a shorter path
 * in the same order, so still deadlock-free under UTPR.
 *
 * Without IR (UDP, TCP) a worm is done in software: one transfer to its
 * first destination carries every piece (MCW_F_CHAIN), and each
 * destination passes the rest on to the next as the fragments arrive
 * (cut-through), so the worm's path becomes a pipelined chain: S-torus a
 * chain through the whole H-cycle, Mu-torus(r) a tree of chains.
 */
#include <linux/mm.h>
#include <linux/slab.h>

#include "compat.h"
#include "data.h"
#include "notify.h"
#include "schedule.h"
#include "cube.h"
#include "trace.h"

/* Destinations one worm may visit: the transport's limits. */
static u32 mcast_worm_room(struct mcast_net *mn)
{
	u32 per = sizeof(struct mcw_hdr) + mcast_auth_room(&mn->auth);
	u32 n = min(mn->tp->max_worm_dests, mn->tp->max_worm_hdr / per);

	return max(n, 1U);
}

/*
 * Takes over the piece of @tx minus its head: the job's algorithm again,
 * from this node (the piece stays a run of the same order with this node
 * in front: it came before the piece in that order).
 */
void mcast_takeover(struct mcast_net *mn, struct mcast_job *job,
		    const u32 *nodes, const u64 *prevs, u32 len, u8 level)
{
	u32 *tn;
	u64 *tp;
	u32 i;

	if (len < 2)
		return;
	trace_mcast_takeover(mn, job, nodes, len);
	tn = kvmalloc_array(len, sizeof(u32), MCAST_GFP);
	tp = kvmalloc_array(len, sizeof(u64), MCAST_GFP);
	if (!tn || !tp) {
		for (i = 1; i < len; i++)
			mcast_job_add_failed(job, nodes[i]);
		goto out;
	}
	tn[0] = mn->node_id;
	tp[0] = 0;
	memcpy(tn + 1, nodes + 1, (len - 1) * sizeof(u32));
	memcpy(tp + 1, prevs + 1, (len - 1) * sizeof(u64));
	mcast_job_spread(mn, job, tn, tp, len, level);
out:
	kvfree(tn);
	kvfree(tp);
}

/*
 * A transfer of @job to @nodes[0] with its piece, not sent yet; or, when
 * @nodes[0] is no peer, it is failed (reported) and its piece taken over.
 */
static struct mcast_tx *mcast_tx_to(struct mcast_net *mn,
				    struct mcast_job *job, const u32 *nodes,
				    const u64 *prevs, u32 len, u8 level,
				    u32 step, struct mcast_worm *worm)
{
	struct mcast_peer *p = xa_load(&mn->peers, nodes[0]);

	if (p)
		return mcast_tx_new(mn, job, p, nodes, prevs, len, level, step,
				    worm);
	atomic64_inc(&mn->stats.unreached);
	mcast_job_add_failed(job, nodes[0]);
	mcast_notify_data(mn, MCAST_CMD_ERROR, nodes[0], job->group, job->seq,
			  EHOSTUNREACH);
	mcast_takeover(mn, job, nodes, prevs, len, level);
	return NULL;
}

static void mcast_tx_start(struct mcast_net *mn, struct mcast_job *job,
			   const u32 *nodes, const u64 *prevs, u32 len)
{
	struct mcast_tx *tx = mcast_tx_to(mn, job, nodes, prevs, len, 0,
					  mcast_job_next_step(job), NULL);

	if (!tx)
		return;
	job->nsent++;
	mcast_tx_go(mn, tx, true);
}

/*
 * One worm of @job to the destinations @d[0..k-1] (pieces of @nodes):
 * the compound table, a transfer each, all started before any sends, so
 * the first fragment already goes to all of them at once.
 */
static void mcast_worm_start(struct mcast_net *mn, struct mcast_job *job,
			     const u32 *nodes, const u64 *prevs,
			     const struct mc_dest *d, u32 k)
{
	u32 step = mcast_job_next_step(job);
	struct mcast_worm *w;
	u32 plen = 0, off = 0, i;

	for (i = 0; i < k; i++)
		plen += d[i].len * MCW_ENTRY;
	w = mcast_worm_alloc(k, plen);
	for (i = 0; w && i < k; i++) {
		mcast_piece_put(w->pbuf + off, nodes + d[i].pos,
				prevs + d[i].pos, d[i].len, true, d[i].level);
		off += d[i].len * MCW_ENTRY;
	}
	for (i = 0; i < k; i++) {
		struct mcast_tx *tx = mcast_tx_to(mn, job, nodes + d[i].pos,
						   prevs + d[i].pos, d[i].len,
						   d[i].level, step, w);

		if (tx && w) {
			tx->worm_idx = i;
			w->tx[i] = tx;
			w->live++;
		}
		/* without a worm, each its own transfer: slower, not lost */
		if (tx && !w)
			mcast_tx_go(mn, tx, true);
	}
	if (!w)
		return;
	if (!w->live) {
		mcast_worm_free(w);
		return;
	}
	for (i = 0; i < k; i++)
		if (w->tx[i])
			mcast_tx_go(mn, w->tx[i], false);
	for (i = 0; i < k; i++)
		if (w->tx[i] && w->tx[i]->active)
			mcast_tx_pump(mn, w->tx[i]);
}

/* A transfer of @n entries whose table is @table, passed on (chain). */
static void mcast_chain_tx(struct mcast_net *mn, struct mcast_job *job,
			   const u32 *nodes, const u64 *prevs, u32 n, u8 level,
			   u32 step, const u8 *table)
{
	struct mcast_tx *tx = mcast_tx_to(mn, job, nodes, prevs, n, level,
					   step, NULL);

	if (!tx)
		return;
	memcpy(tx->pbuf, table, n * MCW_ENTRY);
	tx->chain = true;
	mcast_tx_go(mn, tx, true);
}

/*
 * No IR: the worm to @d[0..k-1] as one transfer to its first destination
 * with every piece, which are consecutive in the order (uniform and
 * dimensional partitions cut a run into runs).
 */
static void mcast_chain_start(struct mcast_net *mn, struct mcast_job *job,
			      const u32 *nodes, const u64 *prevs,
			      const struct mc_dest *d, u32 k)
{
	u32 first = d[0].pos, n = 0, i;
	u8 *table;

	for (i = 0; i < k; i++) {
		if (d[i].pos != first + n)
			break;
		n += d[i].len;
	}
	table = i == k ? kvmalloc_array(n, MCW_ENTRY, MCAST_GFP) : NULL;
	if (!table) {
		/* not a run (never, for these partitions), or no memory:
		 * the worm's destinations each by itself
		 */
		mcast_worm_start(mn, job, nodes, prevs, d, 1);
		if (k > 1)
			mcast_chain_start(mn, job, nodes, prevs, d + 1, k - 1);
		return;
	}
	for (i = 0; i < k; i++)
		mcast_piece_put(table + (d[i].pos - first) * MCW_ENTRY,
				nodes + d[i].pos, prevs + d[i].pos, d[i].len,
				true, d[i].level);
	mcast_chain_tx(mn, job, nodes + first, prevs + first, n, d[0].level,
		       mcast_job_next_step(job), table);
	kvfree(table);
}

void mcast_chain_pass(struct mcast_net *mn, struct mcast_job *job,
		      const u8 *rest, u32 n)
{
	u32 *nodes = kvmalloc_array(n, sizeof(u32), MCAST_GFP);
	u64 *prevs = kvmalloc_array(n, sizeof(u64), MCAST_GFP);
	u32 i, e;

	for (i = 0; nodes && prevs && i < n; i++) {
		nodes[i] = get_unaligned_be32(rest + i * MCW_ENTRY) & MCW_E_ID;
		prevs[i] = get_unaligned_be64(rest + i * MCW_ENTRY + 4);
	}
	if (nodes && prevs) {
		e = get_unaligned_be32(rest);
		/* the same phase: the worm reaches them all in one */
		mcast_chain_tx(mn, job, nodes, prevs, n,
			       (e & MCW_E_LEVEL_MASK) >> MCW_E_LEVEL_SHIFT,
			       job->step, rest);
	} else {
		for (i = 0; i < n; i++)
			mcast_job_add_failed(job, get_unaligned_be32(rest +
						i * MCW_ENTRY) & MCW_E_ID);
		atomic64_add(n, &mn->stats.unreached);
	}
	kvfree(nodes);
	kvfree(prevs);
}

static void mcast_worm_spread(struct mcast_net *mn, struct mcast_job *job,
			      const u32 *nodes, const u64 *prevs, u32 n, u8 level)
{
	u32 room = mcast_worm_room(mn), i;
	/* a ring's paths are E-cube's, not UTPR's: software on any transport */
	bool hw = mn->tp->xmit_worm && job->algo != MC_ALGO_RING;
	struct mc_chain c;
	struct mc_sender s;
	struct mc_dest *d;
	int k;

	if (n < 2)
		return;
	mc_chain_piece(&c, nodes, n);
	d = kvmalloc_array(n, sizeof(*d), MCAST_GFP);
	if (!d) {
		for (i = 1; i < n; i++)
			mcast_job_add_failed(job, nodes[i]);
		atomic64_add(n - 1, &mn->stats.unreached);
		return;
	}
	mc_sender_init(&s, &mn->torus, &c, job->algo, job->r, 0, n, level);
	while ((k = mc_sender_next(&s, d, n)) > 0) {
		if (!hw)
			mcast_chain_start(mn, job, nodes, prevs, d, k);
		else if (k > room)
			atomic64_inc(&mn->stats.worm_splits);
		for (i = 0; hw && i < k; i += room)
			mcast_worm_start(mn, job, nodes, prevs, d + i,
					 min_t(u32, room, k - i));
		job->nsent++;	/* one step, however many worms */
	}
	kvfree(d);
}

/*
 * A hypercube algorithm (Robinson (1994), ch. 3) at this holder of
 * @nodes[0..n-1]: its sends by Fig 3.5, each labelled with the all-port step
 * it goes in (sends on distinct channels share one).  All are started at
 * once, as every other holder's are: a channel is a peer, whose transfers
 * queue.
 */
static void mcast_cube_spread(struct mcast_net *mn, struct mcast_job *job,
			      const u32 *nodes, const u64 *prevs, u32 n)
{
	u32 first = mcast_job_next_step(job) - 1, to, len, step;
	struct mc_cube_holder h;
	struct mcast_tx *tx;

	mc_cube_holder_init(&h, nodes, n, job->r, MC_CUBE_ALL_PORT, first);
	while (mc_cube_holder_next(&h, &to, &len, &step)) {
		/* first: a dead child's piece is taken over after it */
		job->nsent = max(job->nsent, step - job->step);
		tx = mcast_tx_to(mn, job, nodes + to, prevs + to, len, 0, step,
				 NULL);
		if (tx)
			mcast_tx_go(mn, tx, true);
	}
}

/*
 * Runs U-torus (Fig 4.9) over @nodes[0..n-1], @nodes[0] being this node;
 * or, for a separate-addressing root, one transfer to each node in turn
 * (every piece is then one node, so nothing is forwarded or taken over);
 * or a path-based algorithm's worms.
 */
void mcast_job_spread(struct mcast_net *mn, struct mcast_job *job,
		      const u32 *nodes, const u64 *prevs, u32 n, u8 level)
{
	struct mc_chain c;
	struct mc_sender s;
	struct mc_dest d;

	if (mc_algo_is_path_based(job->algo)) {
		mcast_worm_spread(mn, job, nodes, prevs, n, level);
		return;
	}
	if (job->algo == MC_ALGO_CUBE && !job->separate) {
		mcast_cube_spread(mn, job, nodes, prevs, n);
		return;
	}
	mc_chain_piece(&c, nodes, n);
	mc_sender_init(&s, &mn->torus, &c,
		       job->separate ? MC_ALGO_SEPARATE : MC_ALGO_UTORUS,
		       0, 0, n, 0);
	while (mc_sender_next(&s, &d, 1) == 1)
		mcast_tx_start(mn, job, nodes + d.pos, prevs + d.pos, d.len);
}
