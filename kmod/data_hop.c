// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Transfers: one hop of a tree, this node sending a job's message to the
 * head of a piece.  A window of unacknowledged fragments fed as the
 * message arrives (cut-through), retransmission with a doubling timeout,
 * DONE collection, and the takeover of a dead child's piece.
 */
#include <linux/bitmap.h>
#include <linux/jiffies.h>
#include <linux/ktime.h>
#include <linux/mm.h>
#include <linux/moduleparam.h>
#include <linux/slab.h>

#include "chain.h"
#include "data.h"
#include "notify.h"
#include "msg.h"
#include "compat.h"
#include "schedule.h"

/*
 * Every transfer ends within this time: a child that keeps answering but
 * never finishes (BUSY for ever, or holding the message without a DONE)
 * gets its whole piece reported failed rather than holding the send, its
 * in-flight slot and its memory for ever.  stream_idle_ms must be longer
 * (docs/data-path.md: exactly once).
 */
static unsigned int transfer_lifetime_ms = 60000;
module_param(transfer_lifetime_ms, uint, 0644);
MODULE_PARM_DESC(transfer_lifetime_ms,
		 "give up a transfer (one hop of a tree, with its subtree) this many ms after it started and report its destinations failed (default 60000)");

unsigned long mcast_tx_lifetime(void)
{
	return msecs_to_jiffies(max(READ_ONCE(transfer_lifetime_ms), 1000U));
}

u32 mcast_tx_frag_hdr(struct mcast_net *mn, struct mcast_tx *tx, u32 i,
		      struct mcw_hdr *h)
{
	struct mcast_job *job = tx->job;
	u32 fs = mcast_frag_size(mn);
	u32 off = i * fs, end = min(tx->total, off + fs);

	mcw_init(h, mn, MCW_DATA, job->src, tx->xid, job->seq);
	h->flags |= job->algo << MCW_F_ALGO_SHIFT | (tx->chain ? MCW_F_CHAIN : 0);
	h->pad = job->algo == MC_ALGO_MUTORUS ? job->r : 0;
	h->group = cpu_to_be32(job->group);
	h->step = cpu_to_be32(tx->step);
	h->msg_len = cpu_to_be32(job->msg_len);
	h->count = cpu_to_be32(tx->plen / MCW_ENTRY);
	h->frag = cpu_to_be32(i);
	h->cum = cpu_to_be32(tx->child_inc);
	return end - off;
}

/*
 * Fills @h, @v (*@nv of them so far: up to 4 more) and @trailer for
 * fragment @i of @tx, sealed; returns the datagram's bytes.
 */
static size_t mcast_tx_frag_vec(struct mcast_net *mn, struct mcast_tx *tx,
				u32 i, struct mcw_hdr *h, struct kvec *v,
				size_t *nv, u8 *trailer)
{
	u32 off = i * mcast_frag_size(mn);
	u32 end = off + mcast_tx_frag_hdr(mn, tx, i, h);
	size_t first = *nv, n;

	v[(*nv)++] = (struct kvec){ h, sizeof(*h) };
	if (off < tx->plen)
		v[(*nv)++] = (struct kvec){ tx->pbuf + off,
					    min(end, tx->plen) - off };
	if (end > tx->plen) {
		u32 d0 = max(off, tx->plen) - tx->plen;

		v[(*nv)++] = (struct kvec){ tx->job->msg->data + d0,
					    end - tx->plen - d0 };
	}
	n = *nv - first;
	end += mcast_seal(mn, v + first, &n, trailer);
	*nv = first + n;
	return sizeof(*h) + end - off;
}

void mcast_tx_send_frag(struct mcast_net *mn, struct mcast_tx *tx, u32 i)
{
	u8 trailer[MCW_AUTH_LEN];
	struct mcw_hdr h;
	struct kvec v[4];
	size_t nv = 0;
	size_t len = mcast_tx_frag_vec(mn, tx, i, &h, v, &nv, trailer);

	if (mcast_xmit_sealed(mn, tx->to, v, nv, len))
		tx->lost = true;
}

/*
 * Fragments @first to @first + @n - 1 of @tx in one ->xmit(): all but the
 * last of the message are max_payload datagrams, so a transport with
 * bursts (UDP GSO) sends them in one trip down the stack.
 */
static void mcast_tx_send_burst(struct mcast_net *mn, struct mcast_tx *tx,
				u32 first, u32 n)
{
	struct mcast_burst *b = mn->burst;
	size_t nv = 0, len = 0;
	u32 k;

	if (n == 1 || !b) {
		for (k = 0; k < n; k++)
			mcast_tx_send_frag(mn, tx, first + k);
		return;
	}
	for (k = 0; k < n; k++)
		len += mcast_tx_frag_vec(mn, tx, first + k, &b->hdr[k],
					 b->vec, &nv, b->trailer[k]);
	if (mcast_xmit_sealed(mn, tx->to, b->vec, nv, len))
		tx->lost = true;
}

/*
 * The transport dropped what it had taken for @peer (a broken TCP
 * connection): the next timeout of every transfer to it resends.
 */
void mcast_data_peer_lost(struct mcast_net *mn, u32 peer)
{
	struct mcast_tx *tx;
	unsigned long id;

	lockdep_assert_held(&mn->lock);
	xa_for_each(&mn->txs, id, tx)
		if (tx->to == peer)
			tx->lost = true;
}
EXPORT_SYMBOL_GPL(mcast_data_peer_lost);

/* Message bytes this node holds from the start: all once it has them all. */
static u32 mcast_job_held(struct mcast_net *mn, const struct mcast_job *job)
{
	u64 got, piece = (u64)job->count * MCW_ENTRY;	/* as received */

	if (job->state != JOB_RX)
		return job->msg_len;
	got = min_t(u64, (u64)job->cum * mcast_frag_size(mn), job->total);
	return got > piece ? got - piece : 0;
}

/*
 * Fragments of @tx this node can send now.  A forwarder relays while it
 * still receives (cut-through): a child fragment goes out once every byte
 * in it has arrived here, so the tree pipelines a long message instead of
 * costing one message time per level.
 */
u32 mcast_tx_ready(struct mcast_net *mn, const struct mcast_tx *tx)
{
	u32 held = mcast_job_held(mn, tx->job);

	if (held == tx->job->msg_len)
		return tx->nfrags;
	return (tx->plen + held) / mcast_frag_size(mn);
}

/*
 * Congestion control, node-wide: all transfers of the node together keep
 * at most cwnd fragments unacknowledged (a burst to many children at once
 * must not overrun the links and queues it shares), growing it per
 * acknowledged fragment (doubling per round trip up to ssthresh, then one
 * per window) and halving it on a timeout or a fast retransmission.
 * Every transfer may keep MCAST_TX_FLOOR fragments out whatever the
 * window, so none waits for another's acknowledgements (which could
 * depend on it).
 */
bool mcast_tx_may_send(struct mcast_net *mn, const struct mcast_tx *tx)
{
	u32 out = tx->next - tx->nacked;

	/*
	 * Nothing past cum + MCAST_WIN: an ACK reports the 64 fragments from
	 * cum on, so what went further could not be acknowledged until the
	 * gap closed, and a timeout would resend what arrived.
	 */
	return tx->next - tx->cum < MCAST_WIN &&
	       (out < MCAST_TX_FLOOR || mn->tx_out < mn->cwnd);
}

static void mcast_cwnd_grow(struct mcast_net *mn)
{
	if (mn->cwnd >= MCAST_CWND_MAX)
		return;
	if (mn->cwnd < mn->ssthresh) {
		mn->cwnd++;
		return;
	}
	if (++mn->cwnd_acc >= mn->cwnd) {
		mn->cwnd_acc = 0;
		mn->cwnd++;
	}
}

/* A loss on @tx: halve the window, at most once per @tx's RTO. */
static void mcast_cwnd_cut(struct mcast_net *mn, const struct mcast_tx *tx)
{
	if (time_before(jiffies, mn->cwnd_cut + tx->rto))
		return;
	mn->cwnd_cut = jiffies;
	mn->ssthresh = max_t(u32, mn->cwnd / 2, MCAST_CWND_MIN);
	mn->cwnd = mn->ssthresh;
	mn->cwnd_acc = 0;
}

/* Fragments one ->xmit() may carry; the scratch for them on first use. */
static u32 mcast_burst_max(struct mcast_net *mn)
{
	if (mn->tp->max_burst <= 1)
		return 1;
	if (!mn->burst)
		mn->burst = kmalloc(sizeof(*mn->burst),
				    GFP_KERNEL | __GFP_NOWARN);
	return mn->burst ? min_t(u32, mn->tp->max_burst, MCAST_BURST_MAX) : 1;
}

void mcast_tx_pump(struct mcast_net *mn, struct mcast_tx *tx)
{
	u32 ready, max;

	if (tx->worm) {
		mcast_worm_pump(mn, tx);
		return;
	}
	ready = mcast_tx_ready(mn, tx);
	max = mcast_burst_max(mn);
	while (tx->next < ready && mcast_tx_may_send(mn, tx)) {
		u32 first = tx->next;

		if (tx->rtt_frag == U32_MAX) {
			tx->rtt_frag = tx->next;
			tx->rtt_sent = ktime_get();
		}
		do {
			mn->tx_out++;
			tx->next++;
		} while (tx->next - first < max && tx->next < ready &&
			 mcast_tx_may_send(mn, tx));
		mcast_tx_send_burst(mn, tx, first, tx->next - first);
	}
}

/*
 * The round trip to a peer, estimated as RFC 6298 does from one timed
 * fragment per transfer at a time, never a retransmitted one (Karn): under
 * load a TCG guest's round trips reach seconds, and a fixed RTO would
 * resend whole windows that are still on their way.
 */
static void mcast_rtt_sample(struct mcast_peer *p, u32 us)
{
	u32 dev;

	if (!p->srtt_us) {
		p->srtt_us = max(us, 1U);
		p->rttvar_us = us / 2;
		return;
	}
	dev = us > p->srtt_us ? us - p->srtt_us : p->srtt_us - us;
	p->rttvar_us = (3 * p->rttvar_us + dev) / 4;
	p->srtt_us = max((7 * p->srtt_us + us) / 8, 1U);
}

/* The first RTO of a transfer to @to: srtt + 4 rttvar, at least rto_ms. */
static unsigned long mcast_rto_base(struct mcast_net *mn, u32 to)
{
	struct mcast_peer *p = xa_load(&mn->peers, to);
	u32 ms = mn->rto_ms;

	if (p && p->srtt_us)
		ms = max(ms, (p->srtt_us + 4 * p->rttvar_us) / 1000 + 1);
	return msecs_to_jiffies(min_t(u32, ms, MCAST_RTO_BASE_MAX_MS));
}

static void mcast_tx_progress(struct mcast_net *mn, struct mcast_tx *tx)
{
	tx->tries = 0;
	tx->rto = mcast_rto_base(mn, tx->to);
	tx->deadline = jiffies + tx->rto;
}

/*
 * Takes over the piece of @tx minus its head: the job's algorithm again,
 * from this node (the piece stays a run of the same order with this node
 * in front: it came before the piece in that order).
 */
static void mcast_takeover(struct mcast_net *mn, struct mcast_job *job,
			   const u32 *nodes, const u64 *prevs, u32 len,
			   u8 level)
{
	u32 *tn;
	u64 *tp;
	u32 i;

	if (len < 2)
		return;
	tn = kvmalloc_array(len, sizeof(u32), GFP_KERNEL);
	tp = kvmalloc_array(len, sizeof(u64), GFP_KERNEL);
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

void mcast_piece_put(u8 *buf, const u32 *nodes, const u64 *prevs, u32 len,
		     bool head, u8 level)
{
	u32 i, id;

	for (i = 0; i < len; i++) {
		id = nodes[i];
		if (!i && head)
			id |= MCW_E_HEAD | (u32)level << MCW_E_LEVEL_SHIFT;
		put_unaligned_be32(id, buf + i * MCW_ENTRY);
		put_unaligned_be64(prevs[i], buf + i * MCW_ENTRY + 4);
	}
}

/* @tx's own piece table, for a transfer that is not part of a worm. */
static int mcast_tx_own_pbuf(struct mcast_tx *tx)
{
	u8 algo = tx->job->algo;

	tx->plen = tx->len * MCW_ENTRY;
	tx->pbuf = kvmalloc(tx->plen, GFP_KERNEL);
	if (!tx->pbuf)
		return -ENOMEM;
	mcast_piece_put(tx->pbuf, tx->nodes, tx->prevs, tx->len,
			mc_algo_is_path_based(algo), tx->level);
	return 0;
}

/* Sizes @tx by its piece table; 0 or -ENOMEM. */
static int mcast_tx_size(struct mcast_net *mn, struct mcast_tx *tx)
{
	tx->total = tx->plen + tx->job->msg_len;
	tx->nfrags = max(1U, DIV_ROUND_UP(tx->total, mcast_frag_size(mn)));
	tx->acked = kvcalloc(BITS_TO_LONGS(tx->nfrags), sizeof(long),
			     GFP_KERNEL);
	return tx->acked ? 0 : -ENOMEM;
}

struct mcast_tx *mcast_tx_new(struct mcast_net *mn, struct mcast_job *job,
			      const u32 *nodes, const u64 *prevs, u32 len,
			      u8 level, u32 step, struct mcast_worm *worm)
{
	struct mcast_peer *p = xa_load(&mn->peers, nodes[0]);
	struct mcast_tx *tx;
	u32 i;
	int err;

	if (!p) {
		atomic64_inc(&mn->stats.unreached);
		mcast_job_add_failed(job, nodes[0]);
		mcast_notify_data(mn, MCAST_CMD_ERROR, nodes[0], job->group,
				  job->seq, EHOSTUNREACH);
		mcast_takeover(mn, job, nodes, prevs, len, level);
		return NULL;
	}
	tx = mcast_obj_zalloc(sizeof(*tx), MCAST_OBJ_TX);
	if (!tx)
		goto nomem;
	tx->job = job;
	tx->to = nodes[0];
	tx->len = len;
	tx->level = level;
	tx->step = step;
	tx->rtt_frag = U32_MAX;
	tx->born = jiffies;
	tx->nodes = kvmalloc_array(len, sizeof(u32), GFP_KERNEL);
	tx->prevs = kvmalloc_array(len, sizeof(u64), GFP_KERNEL);
	if (!tx->nodes || !tx->prevs)
		goto nomem_tx;
	memcpy(tx->nodes, nodes, len * sizeof(u32));
	memcpy(tx->prevs, prevs, len * sizeof(u64));
	if (worm) {
		tx->pbuf = worm->pbuf;
		tx->plen = worm->plen;
	} else if (mcast_tx_own_pbuf(tx)) {
		goto nomem_tx;
	}
	if (mcast_tx_size(mn, tx))
		goto nomem_tx;
	tx->max_tries = p->down ? 1 : mn->retries;
	err = xa_alloc_cyclic(&mn->txs, &tx->xid, tx, XA_LIMIT(1, U32_MAX),
			      &mn->next_xid, GFP_KERNEL);
	if (err < 0)
		goto nomem_tx;
	tx->worm = worm;
	list_add_tail(&tx->link, &job->txs);
	job->pending++;
	if (!job->root)
		atomic64_inc(&mn->stats.fwd_msgs);
	return tx;

nomem_tx:
	kvfree(tx->nodes);
	kvfree(tx->prevs);
	if (!worm)
		kvfree(tx->pbuf);
	kvfree(tx->acked);
	mcast_obj_free(tx, MCAST_OBJ_TX);
nomem:
	/* Reported, not lost silently: every node of the piece failed. */
	for (i = 0; i < len; i++)
		mcast_job_add_failed(job, nodes[i]);
	atomic64_add(len, &mn->stats.unreached);
	mcast_notify_data(mn, MCAST_CMD_ERROR, nodes[0], job->group, job->seq,
			  ENOMEM);
	return NULL;
}

void mcast_tx_go(struct mcast_net *mn, struct mcast_tx *tx, bool pump)
{
	struct mcast_peer *p = xa_load(&mn->peers, tx->to);

	if (!p || p->tx_active >= MCAST_PEER_TXS) {
		tx->queued = true;	/* the timer starts it when there is room */
	} else {
		p->tx_active++;
		tx->active = true;
		mcast_tx_progress(mn, tx);
		if (pump)
			mcast_tx_pump(mn, tx);
	}
	mcast_arm(mn);
}

static void mcast_tx_start(struct mcast_net *mn, struct mcast_job *job,
			   const u32 *nodes, const u64 *prevs, u32 len)
{
	struct mcast_tx *tx = mcast_tx_new(mn, job, nodes, prevs, len, 0,
					   mcast_job_next_step(job), NULL);

	if (!tx)
		return;
	job->nsent++;
	mcast_tx_go(mn, tx, true);
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
	struct mc_chain c = { .node = nodes, .len = n, .rot = 0 };
	struct mc_sender s;
	struct mc_dest d;

	if (mc_algo_is_path_based(job->algo)) {
		mcast_worm_spread(mn, job, nodes, prevs, n, level);
		return;
	}
	mc_sender_init(&s, &mn->torus, &c,
		       job->separate ? MC_ALGO_SEPARATE : MC_ALGO_UTORUS,
		       0, 0, n, 0);
	while (mc_sender_next(&s, &d, 1) == 1)
		mcast_tx_start(mn, job, nodes + d.pos, prevs + d.pos, d.len);
}

/* The child of @tx stopped answering: fail it, take over its piece. */
static void mcast_tx_fail(struct mcast_net *mn, struct mcast_tx *tx)
{
	struct mcast_job *job = tx->job;
	struct mcast_peer *p = xa_load(&mn->peers, tx->to);

	if (p)
		p->down = true;
	atomic64_inc(&mn->stats.peer_fails);
	atomic64_inc(&mn->stats.unreached);
	mcast_job_add_failed(job, tx->to);
	mcast_notify_data(mn, MCAST_CMD_PEER_DOWN, tx->to, job->group,
			  job->seq, EHOSTUNREACH);
	mcast_takeover(mn, job, tx->nodes, tx->prevs, tx->len, tx->level);
	mcast_tx_free(mn, tx);
	job->pending--;
	mcast_job_check(mn, job);
}

/*
 * @tx ends unfinished with its child alive: its whole piece is reported
 * failed (some of it may have the message: failed means "not
 * confirmed"), with no takeover, which could only repeat what the child
 * is doing, or deliver again what its previous life had delivered.
 */
static void mcast_tx_give_up(struct mcast_net *mn, struct mcast_tx *tx,
			     int err)
{
	struct mcast_job *job = tx->job;
	u32 i;

	atomic64_add(tx->len, &mn->stats.unreached);
	for (i = 0; i < tx->len; i++)
		mcast_job_add_failed(job, tx->nodes[i]);
	mcast_notify_data(mn, MCAST_CMD_ERROR, tx->to, job->group, job->seq,
			  err);
	mcast_tx_free(mn, tx);
	job->pending--;
	mcast_job_check(mn, job);
}

/* @tx outlived its lifetime: its child answers but did not finish. */
static void mcast_tx_expire(struct mcast_net *mn, struct mcast_tx *tx)
{
	atomic64_inc(&mn->stats.tx_expired);
	mcast_tx_give_up(mn, tx, ETIMEDOUT);
}

/*
 * The child's answer comes from the life of the child that @tx has been
 * talking to; false (and @tx given up) when the child has restarted since:
 * its new life has none of the transfer, and sending it again could
 * deliver twice what the old one delivered.
 */
static bool mcast_tx_same_child(struct mcast_net *mn, struct mcast_tx *tx,
				const struct mcw_hdr *h)
{
	u32 inc = be32_to_cpu(h->step);

	if (!tx->child_inc)
		tx->child_inc = inc;	/* the first word from it */
	if (!inc || inc == tx->child_inc)
		return true;
	mcast_tx_give_up(mn, tx, ECONNRESET);
	return false;
}

/*
 * A child that spoke during this timeout (for other transfers) is alive
 * but overloaded, and one whose transport heard from it (TCP's ACKs while
 * TCP retransmits our probe on a lossy link) is alive but late: either
 * counts a quarter of a silent timeout, so load and loss do not pass for
 * death, and a child that answers everything but this transfer still
 * ends (a bug, not a hang).
 */
static bool mcast_peer_seems_alive(struct mcast_net *mn,
				   const struct mcast_peer *p,
				   const struct mcast_tx *tx)
{
	unsigned long since = jiffies - tx->rto;

	if (!p)
		return false;
	if (time_in_range(p->heard, since, jiffies))
		return true;
	return mn->tp->peer_heard && mn->tp->peer_heard(mn, p, since);
}

void mcast_tx_timer(struct mcast_net *mn, struct mcast_tx *tx)
{
	struct mcast_peer *p;
	u32 i, n = 0;

	if (time_after(jiffies, tx->born + mcast_tx_lifetime())) {
		mcast_tx_expire(mn, tx);
		return;
	}
	if (tx->queued) {
		p = xa_load(&mn->peers, tx->to);
		if (p && p->tx_active >= MCAST_PEER_TXS)
			return;
		tx->queued = false;
		if (p) {
			p->tx_active++;
			tx->active = true;
		}
		mcast_tx_progress(mn, tx);
		mcast_tx_pump(mn, tx);
		return;
	}
	if (tx->active)
		mcast_tx_pump(mn, tx);	/* room in the node's window now? */
	if (time_before(jiffies, tx->deadline))
		return;
	if (tx->nacked == tx->next && tx->next < tx->nfrags) {
		/* All sent is acknowledged; the rest has not reached us yet. */
		mcast_tx_progress(mn, tx);
		return;
	}
	p = xa_load(&mn->peers, tx->to);
	/*
	 * BUSY (no room for it yet) is neither progress nor silence: it
	 * leaves tries as they are, and the lifetime bounds the wait.
	 */
	if (!tx->busy)
		tx->tries += mcast_peer_seems_alive(mn, p, tx) ? 1 : 4;
	tx->busy = false;
	if (tx->tries > 4 * tx->max_tries) {
		mcast_tx_fail(mn, tx);
		return;
	}
	if (tx->nacked == tx->nfrags) {
		/* Waiting for DONE: probe with the last fragment. */
		mcast_tx_send_frag(mn, tx, tx->nfrags - 1);
		n = 1;
	} else if ((mn->tp->caps & MCAST_TP_CAP_RELIABLE) && !tx->lost) {
		/*
		 * The transport delivers all it took: the rest is late, not
		 * lost.  Probe with the first unacknowledged fragment (its ACK
		 * tells what arrived) and keep the window.
		 */
		i = tx->cum;
		while (i < tx->next && test_bit(i, tx->acked))
			i++;
		mcast_tx_send_frag(mn, tx, min(i, tx->nfrags - 1));
		n = 1;
	} else {
		tx->lost = false;
		mcast_cwnd_cut(mn, tx);
		tx->rtt_frag = U32_MAX;		/* Karn: no sample from these */
		for (i = tx->cum; i < tx->next && n < MCAST_WIN; i++) {
			if (test_bit(i, tx->acked))
				continue;
			mcast_tx_send_frag(mn, tx, i);
			n++;
		}
	}
	atomic64_add(n, &mn->stats.retrans);
	tx->rto = min(tx->rto * 2, max(msecs_to_jiffies(MCAST_RTO_MAX_MS),
				       2 * mcast_rto_base(mn, tx->to)));
	tx->deadline = jiffies + tx->rto;
}

static void mcast_tx_mark(struct mcast_net *mn, struct mcast_tx *tx, u32 i)
{
	if (i >= tx->nfrags || test_and_set_bit(i, tx->acked))
		return;
	tx->nacked++;
	mn->tx_out--;
	mcast_cwnd_grow(mn);
}

/* The timed fragment is acknowledged: a round trip sample for the peer. */
static void mcast_tx_rtt(struct mcast_net *mn, struct mcast_tx *tx)
{
	struct mcast_peer *p;

	if (tx->rtt_frag == U32_MAX || !test_bit(tx->rtt_frag, tx->acked))
		return;
	p = xa_load(&mn->peers, tx->to);
	/* capped at a minute, so the estimator's sums cannot overflow */
	if (p)
		mcast_rtt_sample(p, min_t(s64, ktime_us_delta(ktime_get(),
							      tx->rtt_sent),
					  60 * USEC_PER_SEC));
	tx->rtt_frag = U32_MAX;
}

/*
 * Fast retransmission (after RFC 6675): a fragment that MCAST_DUPTHRESH
 * later fragments overtook is lost, not late (links reorder a little, not
 * by three), so it goes again now rather than after a timeout.  Once each:
 * the timer covers a lost retransmission.  The window halves, as on a
 * timeout.
 */
static void mcast_tx_fast_retrans(struct mcast_net *mn, struct mcast_tx *tx)
{
	u32 lo = max(tx->cum, tx->fast), i, above = 0, n = 0;

	for (i = min(tx->next, tx->cum + 2 * MCAST_WIN); i-- > lo;) {
		if (test_bit(i, tx->acked)) {
			above++;
			continue;
		}
		if (above < MCAST_DUPTHRESH)
			continue;
		if (!n++)
			tx->fast = i + 1;
		if (i == tx->rtt_frag)
			tx->rtt_frag = U32_MAX;	/* Karn */
		mcast_tx_send_frag(mn, tx, i);
	}
	if (!n)
		return;
	mcast_cwnd_cut(mn, tx);
	atomic64_add(n, &mn->stats.retrans);
	atomic64_add(n, &mn->stats.fast_retrans);
}

/*
 * The child acknowledges less than it did, in answer to our timeout (not
 * a late ACK overtaken by a newer one): it lost the transfer (its memory
 * of it expired while its DONE was lost, or it restarted).  Send again
 * from where it is, as a new transfer would, or the probe would be
 * answered by the same ACK for ever.
 */
static void mcast_tx_rewind(struct mcast_net *mn, struct mcast_tx *tx,
			    u32 cum)
{
	struct mcast_peer *p = xa_load(&mn->peers, tx->to);

	mn->tx_out -= tx->next - tx->nacked;
	bitmap_clear(tx->acked, cum, tx->nfrags - cum);
	tx->cum = cum;
	tx->nacked = cum;
	tx->next = cum;
	tx->fast = cum;
	tx->done_parts = 0;
	tx->done_got = 0;
	tx->rtt_frag = U32_MAX;
	tx->lost = false;
	if (!tx->active && !tx->queued) {
		if (p && p->tx_active < MCAST_PEER_TXS) {
			p->tx_active++;
			tx->active = true;
		} else {
			tx->queued = true;	/* the timer starts it */
		}
	}
	atomic64_inc(&mn->stats.rewinds);
	mcast_tx_progress(mn, tx);
	if (tx->active)
		mcast_tx_pump(mn, tx);
}

void mcast_rx_ack(struct mcast_net *mn, const struct mcw_hdr *h,
		  const void *body, size_t blen, u32 from)
{
	struct mcast_tx *tx = xa_load(&mn->txs, be32_to_cpu(h->xid));
	u64 sack = blen >= 8 ? get_unaligned_be64(body) : 0;
	u32 cum, i, nacked;

	/* a queued transfer has sent nothing: an ACK for it is no answer */
	if (!tx || tx->to != from || tx->queued ||
	    !mcast_tx_same_child(mn, tx, h))
		return;
	if (h->flags & MCW_F_BUSY) {
		/* Alive: back-pressure, not failure.  Try again later. */
		tx->busy = true;
		return;
	}
	cum = min(be32_to_cpu(h->cum), tx->nfrags);
	cum = min(cum, tx->next);
	if (cum < tx->cum) {
		if (tx->tries)
			mcast_tx_rewind(mn, tx, cum);
		return;		/* else a late ACK: it says nothing new */
	}
	nacked = tx->nacked;
	for (; tx->cum < cum; tx->cum++)
		mcast_tx_mark(mn, tx, tx->cum);
	if (be32_to_cpu(h->frag) < tx->next)
		mcast_tx_mark(mn, tx, be32_to_cpu(h->frag));
	/* bit i: fragment cum + i is held too (beyond a gap) */
	for (i = 0; sack && i < 64; i++, sack >>= 1)
		if ((sack & 1) && cum + i < tx->next)
			mcast_tx_mark(mn, tx, cum + i);
	mcast_tx_rtt(mn, tx);
	mcast_tx_fast_retrans(mn, tx);
	/*
	 * Progress restarts the timeout: news, or a child holding it all
	 * and busy with its subtree (its answer to our probe for DONE).
	 */
	if (tx->nacked != nacked || tx->nacked == tx->nfrags)
		mcast_tx_progress(mn, tx);
	mcast_tx_pump(mn, tx);
	if (tx->nacked == tx->nfrags)
		mcast_tx_inactive(mn, tx);	/* now only waits for DONE */
}

/*
 * A node the child reports failed: only one of the piece it was given
 * (the child cannot speak for nodes it was never sent to; the rest of its
 * word is taken, as a peer is trusted to forward what it got).
 */
static void mcast_done_failed(struct mcast_net *mn, struct mcast_tx *tx,
			      u32 id)
{
	if (!mc_piece_has(&mn->torus, mc_algo_order(tx->job->algo), tx->nodes,
			  tx->len, id)) {
		atomic64_inc(&mn->stats.rx_malformed);
		return;
	}
	mcast_job_add_failed(tx->job, id);
}

/*
 * A DONE part: the child's subtree is finished; the failed list comes in
 * DIV_ROUND_UP(count, room) parts (at least one), each taken once.
 */
void mcast_rx_done(struct mcast_net *mn, const struct mcw_hdr *h,
		   const void *body, size_t blen, u32 from)
{
	struct mcast_tx *tx = xa_load(&mn->txs, be32_to_cpu(h->xid));
	u32 count = be32_to_cpu(h->count), part = be32_to_cpu(h->frag);
	u32 room = mcast_done_room(mn), parts, first, n, i;
	struct mcast_job *job;

	if (!tx || tx->to != from || !mcast_tx_same_child(mn, tx, h))
		return;
	job = tx->job;
	parts = max(1U, DIV_ROUND_UP(count, room));
	if (parts > 64) {
		parts = 64;	/* more than a tree can fail: keep what fits */
		job->trunc = true;
	}
	if (tx->done_parts && tx->done_parts != parts)
		return;		/* not the list the earlier parts began */
	if (part >= parts || tx->done_got & BIT_ULL(part))
		return;
	tx->done_parts = parts;
	tx->done_got |= BIT_ULL(part);
	first = part * room;
	n = min(count - first, room);
	for (i = 0; i < n && (i + 1) * 4 <= blen; i++)
		mcast_done_failed(mn, tx, get_unaligned_be32(body + i * 4));
	if (i < n || h->flags & MCW_F_TRUNC)
		job->trunc = true;
	if (tx->done_got != GENMASK_ULL(parts - 1, 0)) {
		mcast_tx_progress(mn, tx);	/* alive: the rest is coming */
		return;
	}
	/* DONE acknowledges every fragment (a leaf sends it instead of an ACK) */
	for (i = tx->cum; i < tx->next; i++)
		mcast_tx_mark(mn, tx, i);
	mcast_tx_rtt(mn, tx);
	mcast_tx_free(mn, tx);
	job->pending--;
	mcast_job_check(mn, job);
}
