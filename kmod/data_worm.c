// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Worms (seed 000 ch. 6): on a transport with intermediate reception, each
 * message of a path-based schedule (S-, Md-, Mu-torus) goes to all its
 * destinations as one worm per fragment, every destination taking its
 * copy as the worm passes.
 *
 * Each destination still has a transfer of its own (window,
 * acknowledgements, retransmission, DONE, takeover), exactly as in a
 * unicast tree: a fragment that all of them have due goes out once, as a
 * worm; one that only some need (a loss, a full window) goes to each of
 * those by itself.  So a worm cut short by a failed link, or a copy a host
 * missed, costs a retransmission, never a message.  The piece table is
 * compound (Fig 6.2): every destination's piece, its head marked, so all
 * copies carry the same bytes and each receiver finds its own piece.
 *
 * A message with more destinations than one worm may visit (the
 * transport's limits on destinations and compound header bytes) goes as
 * several worms, each a run of the destinations in visiting order: a
 * shorter path in the same order, so still deadlock-free under UTPR.
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
#include "msg.h"
#include "schedule.h"

/* Destinations one worm may visit: the transport's limits. */
static u32 mcast_worm_room(struct mcast_net *mn)
{
	u32 per = sizeof(struct mcw_hdr) + mcast_auth_room(&mn->auth);
	u32 n = min(mn->tp->max_worm_dests, mn->tp->max_worm_hdr / per);

	return max(n, 1U);
}

static void mcast_worm_free(struct mcast_worm *w)
{
	kvfree(w->pbuf);
	kvfree(w->tx);
	kvfree(w->hdr);
	kvfree(w->trailer);
	kvfree(w->head);
	kvfree(w->tail);
	kvfree(w->to);
	kvfree(w->sel);
	kfree(w);
}

static struct mcast_worm *mcast_worm_alloc(u32 n, u32 plen)
{
	struct mcast_worm *w = kzalloc(sizeof(*w), GFP_KERNEL);

	if (!w)
		return NULL;
	w->n = n;
	w->plen = plen;
	w->pbuf = kvmalloc(plen, GFP_KERNEL);
	w->tx = kvcalloc(n, sizeof(*w->tx), GFP_KERNEL);
	w->hdr = kvmalloc_array(n, sizeof(*w->hdr), GFP_KERNEL);
	w->trailer = kvmalloc_array(n, sizeof(*w->trailer), GFP_KERNEL);
	w->head = kvmalloc_array(n, sizeof(*w->head), GFP_KERNEL);
	w->tail = kvmalloc_array(n, sizeof(*w->tail), GFP_KERNEL);
	w->to = kvmalloc_array(n, sizeof(*w->to), GFP_KERNEL);
	w->sel = kvmalloc_array(n, sizeof(*w->sel), GFP_KERNEL);
	if (!w->pbuf || !w->tx || !w->hdr || !w->trailer || !w->head ||
	    !w->tail || !w->to || !w->sel) {
		mcast_worm_free(w);
		return NULL;
	}
	return w;
}

void mcast_worm_leave(struct mcast_tx *tx)
{
	struct mcast_worm *w = tx->worm;

	w->tx[tx->worm_idx] = NULL;
	tx->worm = NULL;
	tx->pbuf = NULL;
	if (!--w->live)
		mcast_worm_free(w);
}

/*
 * Fragment @j to the @k transfers in w->sel (in visiting order), as one
 * worm: the body is the same for all, each gets its own header (its xid,
 * the child's incarnation) and, with a cluster key, its own trailer.
 */
static void mcast_worm_send(struct mcast_net *mn, struct mcast_worm *w,
			    u32 k, u32 j)
{
	struct mcast_tx *t0 = w->sel[0];
	u32 off = j * mcast_frag_size(mn);
	u32 end = off + mcast_tx_frag_hdr(mn, t0, j, &w->hdr[0]);
	struct mcast_worm_desc desc = {
		.n = k, .to = w->to, .head = w->head, .tail = w->tail,
		.blen = end - off,
	};
	struct kvec body[2], v[4];
	size_t nb = 0, nv, i;

	if (off < w->plen)
		body[nb++] = (struct kvec){ w->pbuf + off,
					    min(end, w->plen) - off };
	if (end > w->plen) {
		u32 d0 = max(off, w->plen) - w->plen;

		body[nb++] = (struct kvec){ t0->job->msg->data + d0,
					    end - w->plen - d0 };
	}
	desc.body = body;
	desc.nbody = nb;
	for (i = 0; i < k; i++) {
		mcast_tx_frag_hdr(mn, w->sel[i], j, &w->hdr[i]);
		w->to[i] = w->sel[i]->to;
		w->head[i] = (struct kvec){ &w->hdr[i], sizeof(w->hdr[i]) };
		w->tail[i] = (struct kvec){ NULL, 0 };
		v[0] = w->head[i];
		memcpy(v + 1, body, nb * sizeof(*body));
		nv = 1 + nb;
		if (mcast_seal(mn, v, &nv, w->trailer[i]))
			w->tail[i] = v[nv - 1];
	}
	if (mn->tp->xmit_worm(mn, &desc)) {
		for (i = 0; i < k; i++)
			w->sel[i]->lost = true;	/* a timeout resends */
		return;
	}
	atomic64_inc(&mn->stats.worms);
	atomic64_add(k, &mn->stats.worm_dests);
	atomic64_add(k, &mn->stats.tx_packets);
}

/*
 * The transfers of @tx's worm that may send fragment @j now, @tx first
 * among equals: in visiting order, into w->sel.
 */
static u32 mcast_worm_select(struct mcast_net *mn, struct mcast_tx *tx,
			     u32 j)
{
	struct mcast_worm *w = tx->worm;
	u32 i, k = 0;

	if (!mn->tp->xmit_worm) {
		w->sel[k++] = tx;
		return k;
	}
	for (i = 0; i < w->n; i++) {
		struct mcast_tx *s = w->tx[i];

		if (s && (s == tx || (s->active && s->next == j &&
				      mcast_tx_ready(mn, s) > j &&
				      mcast_tx_may_send(mn, s))))
			w->sel[k++] = s;
	}
	return k;
}

void mcast_worm_pump(struct mcast_net *mn, struct mcast_tx *tx)
{
	u32 ready = mcast_tx_ready(mn, tx);

	while (tx->next < ready && mcast_tx_may_send(mn, tx)) {
		u32 j = tx->next, k = mcast_worm_select(mn, tx, j), i;

		for (i = 0; i < k; i++) {
			struct mcast_tx *s = tx->worm->sel[i];

			if (s->rtt_frag == U32_MAX) {
				s->rtt_frag = j;
				s->rtt_sent = ktime_get();
			}
			mn->tx_out++;
			s->next++;
		}
		if (k == 1)
			mcast_tx_send_frag(mn, tx, j);
		else
			mcast_worm_send(mn, tx->worm, k, j);
	}
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
		struct mcast_tx *tx = mcast_tx_new(mn, job, nodes + d[i].pos,
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
	struct mcast_tx *tx = mcast_tx_new(mn, job, nodes, prevs, n, level,
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
	table = i == k ? kvmalloc_array(n, MCW_ENTRY, GFP_KERNEL) : NULL;
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
	u32 *nodes = kvmalloc_array(n, sizeof(u32), GFP_KERNEL);
	u64 *prevs = kvmalloc_array(n, sizeof(u64), GFP_KERNEL);
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

void mcast_worm_spread(struct mcast_net *mn, struct mcast_job *job,
		       const u32 *nodes, const u64 *prevs, u32 n, u8 level)
{
	struct mc_chain c = { .node = nodes, .len = n, .rot = 0 };
	u32 room = mcast_worm_room(mn), i;
	struct mc_sender s;
	struct mc_dest *d;
	int k;

	if (n < 2)
		return;
	d = kvmalloc_array(n, sizeof(*d), GFP_KERNEL);
	if (!d) {
		for (i = 1; i < n; i++)
			mcast_job_add_failed(job, nodes[i]);
		atomic64_add(n - 1, &mn->stats.unreached);
		return;
	}
	mc_sender_init(&s, &mn->torus, &c, job->algo, job->r, 0, n, level);
	while ((k = mc_sender_next(&s, d, n)) > 0) {
		if (!mn->tp->xmit_worm)
			mcast_chain_start(mn, job, nodes, prevs, d, k);
		else if (k > room)
			atomic64_inc(&mn->stats.worm_splits);
		for (i = 0; mn->tp->xmit_worm && i < k; i += room)
			mcast_worm_start(mn, job, nodes, prevs, d + i,
					 min_t(u32, room, k - i));
		job->nsent++;	/* one step, however many worms */
	}
	kvfree(d);
}
