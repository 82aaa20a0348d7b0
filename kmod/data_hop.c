// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Transfers once sent: acknowledgements (the RTT, congestion control, fast
 * retransmission), retransmission with a doubling timeout, DONE
 * collection, and what ends a transfer early: its child dead (taken over,
 * data_spread.c), restarted, or outliving its lifetime.
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
#include "trace.h"

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

/*
 * The round trip to a peer, estimated as RFC 6298 does from one timed
 * fragment per transfer at a time, never a retransmitted one (Karn): under
 * load a TCG guest's round trips reach seconds, and a fixed RTO would
 * resend whole windows that are still on their way.
 */
static void mcast_rtt_sample(struct mcast_peer *p, u32 us)
{
	u32 dev;

	p->rto_held_ms = 0;	/* the estimate speaks for itself again */
	if (!p->srtt_us) {
		p->srtt_us = max(us, 1U);
		p->rttvar_us = us / 2;
		return;
	}
	dev = us > p->srtt_us ? us - p->srtt_us : p->srtt_us - us;
	p->rttvar_us = (3 * p->rttvar_us + dev) / 4;
	p->srtt_us = max((7 * p->srtt_us + us) / 8, 1U);
}

/*
 * @tx is over: freed, and its job told (a broadcast's next step may
 * start) before the job's pending count drops, so it cannot finish first.
 */
static void mcast_tx_end(struct mcast_net *mn, struct mcast_tx *tx)
{
	struct mcast_job *job = tx->job;

	mcast_tx_free(mn, tx);
	if (job->ops)
		job->ops->tx_ended(mn, job);
}

/* The child of @tx stopped answering: fail it, take over its piece. */
static void mcast_tx_fail(struct mcast_net *mn, struct mcast_tx *tx)
{
	struct mcast_job *job = tx->job;
	struct mcast_peer *p = xa_load(&mn->peers, tx->to);

	if (p)
		p->down = true;
	trace_mcast_peer_down(mn, tx);
	atomic64_inc(&mn->stats.peer_fails);
	atomic64_inc(&mn->stats.unreached);
	mcast_job_add_failed(job, tx->to);
	mcast_notify_data(mn, MCAST_CMD_PEER_DOWN, tx->to, job->group,
			  job->seq, EHOSTUNREACH);
	if (tx->rb)	/* ranges: the broadcast's root takes over */
		job->ops->tx_failed(mn, job);
	else		/* a tree's piece, an RB root's fallback's too */
		mcast_takeover(mn, job, tx->nodes, tx->prevs, tx->len,
			       tx->level);
	mcast_tx_end(mn, tx);
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
	if (tx->rb)
		job->ops->tx_failed(mn, job);
	mcast_tx_end(mn, tx);
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
	u32 inc = be32_to_cpu(h->step);	/* never 0: mcast_rx_body() */

	if (!tx->child_inc)
		tx->child_inc = inc;	/* the first word from it */
	if (inc == tx->child_inc)
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

/*
 * The timeouts @tx may take: one if its child was marked down when @tx
 * was made and still is (a send to a dead node fails fast), all of them
 * once the child has said anything since (mcast_data_rx() clears down).
 * Read at every timeout, not fixed when @tx was made: a false "down" (a
 * stall that outlasted the retries) must not keep failing the child's
 * later transfers after it answered.  Transfers under way when the child
 * was marked down keep their own count: they have their own evidence.
 */
static u32 mcast_tx_budget(const struct mcast_peer *p,
			   const struct mcast_tx *tx)
{
	return tx->born_down && p && p->down ? 1 : tx->max_tries;
}

/* The first fragment sent and not acknowledged (the last if none is). */
static u32 mcast_tx_first_unacked(const struct mcast_tx *tx)
{
	u32 i = tx->cum;

	while (i < tx->next && test_bit(i, tx->acked))
		i++;
	return min(i, tx->nfrags - 1);
}

void mcast_tx_timer(struct mcast_net *mn, struct mcast_tx *tx)
{
	u32 i, n = 0, again = U32_MAX;
	struct mcast_peer *p;
	bool alive;

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
	alive = mcast_peer_seems_alive(mn, p, tx);
	if (!tx->busy)
		tx->tries += alive ? 1 : 4;
	tx->busy = false;
	if (tx->tries > 4 * mcast_tx_budget(p, tx)) {
		mcast_tx_fail(mn, tx);
		return;
	}
	if (tx->nacked == tx->nfrags) {
		/*
		 * Waiting for DONE: probe with the last fragment.  Its answer
		 * says it was held (expected): no word on the RTO.
		 */
		tx->again_ms = 0;
		mcast_tx_send_frag(mn, tx, tx->nfrags - 1);
		atomic64_inc(&mn->stats.done_probes);
		n = 1;
	} else if ((mn->tp->caps & MCAST_TP_CAP_RELIABLE) && !tx->lost) {
		/*
		 * The transport delivers all it took: the rest is late, not
		 * lost.  Probe with the first unacknowledged fragment (its ACK
		 * tells what arrived) and keep the window.
		 */
		again = mcast_tx_first_unacked(tx);
		mcast_tx_send_frag(mn, tx, again);
		n = 1;
	} else if (mn->tp->caps & MCAST_TP_CAP_RELIABLE) {
		/* it lost what it had taken (a new connection): all again */
		tx->lost = false;
		mcast_cwnd_cut(mn, tx);
		tx->rtt_frag = U32_MAX;		/* Karn: no sample from these */
		again = mcast_tx_first_unacked(tx);
		for (i = tx->cum; i < tx->next && n < MCAST_WIN; i++) {
			if (test_bit(i, tx->acked))
				continue;
			mcast_tx_send_frag(mn, tx, i);
			n++;
		}
	} else {
		/*
		 * Lost, or late behind a slow child: probe with the first
		 * fragment not acknowledged, and resend the others only when
		 * the child says it saw the probe (mcast_tx_probe_answered()).
		 * A late window then costs a datagram per timeout, not itself
		 * again, which on a starved host only made it later.
		 */
		tx->lost = false;
		mcast_cwnd_cut(mn, tx);
		i = mcast_tx_first_unacked(tx);
		if (i == tx->rtt_frag)
			tx->rtt_frag = U32_MAX;	/* Karn */
		tx->probing = true;
		tx->probe_next = tx->next;
		mcast_tx_send_probe(mn, tx, i);
		again = i;
		n = 1;
	}
	atomic64_add(n, &mn->stats.retrans);
	trace_mcast_retransmit(mn, tx, again, n, MCAST_RTX_TIMEOUT);
	tx->rto = min(tx->rto * 2, max(msecs_to_jiffies(MCAST_RTO_MAX_MS),
				       2 * mcast_rto_base(mn, tx->to)));
	tx->deadline = jiffies + tx->rto;
	/* whether this timeout was early, the child's answer tells */
	if (again != U32_MAX) {
		tx->again_frag = again;
		tx->again_ms = jiffies_to_msecs(tx->rto);
	}
}

/*
 * The child already held the fragment our last timeout sent again
 * (MCW_F_DUP): the timeout was early, the child slower than our RTO (or
 * its answer lost), not a loss.  Karn: the peer's later transfers start
 * from the backed-off RTO until a fragment sent once is timed (one sent
 * again gives no sample, so without this the estimate could never learn a
 * round trip past the RTO).  A timeout whose copy filled a hole was a
 * loss and leaves the RTO alone: when every timeout while the child was
 * talking raised it, random loss alone drove peers' first RTO to its 4 s
 * cap (net_loss.t's 5 % torus: srtt 37 ms, RTO 4 s), and a fragment lost
 * twice then outlasted the FIFO gap.
 */
static void mcast_tx_early(struct mcast_net *mn, struct mcast_tx *tx)
{
	struct mcast_peer *p = xa_load(&mn->peers, tx->to);

	if (p)
		p->rto_held_ms = max(p->rto_held_ms, tx->again_ms);
	tx->again_ms = 0;
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
	trace_mcast_retransmit(mn, tx, tx->fast - 1, n, MCAST_RTX_FAST);
}

/*
 * The child answered our probe: it has seen what we sent before it (a hop
 * does not reorder), so what it does not acknowledge of that was lost.
 * Each goes again once; a lost one again is the next timeout's.
 */
static void mcast_tx_probe_answered(struct mcast_net *mn, struct mcast_tx *tx)
{
	u32 end = min(tx->probe_next, tx->cum + MCAST_WIN), i, n = 0;

	tx->probing = false;
	for (i = tx->cum; i < end; i++) {
		if (test_bit(i, tx->acked))
			continue;
		if (i == tx->rtt_frag)
			tx->rtt_frag = U32_MAX;	/* Karn */
		mcast_tx_send_frag(mn, tx, i);
		n++;
	}
	tx->fast = max(tx->fast, end);
	atomic64_add(n, &mn->stats.retrans);
	trace_mcast_retransmit(mn, tx, tx->cum, n, MCAST_RTX_LOST);
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

	trace_mcast_rewind(mn, tx, cum);
	mn->tx_out -= tx->next - tx->nacked;
	bitmap_clear(tx->acked, cum, tx->nfrags - cum);
	tx->cum = cum;
	tx->nacked = cum;
	tx->next = cum;
	tx->fast = cum;
	tx->done_parts = 0;
	tx->done_got = 0;
	tx->rtt_frag = U32_MAX;
	tx->again_ms = 0;
	tx->lost = false;
	tx->probing = false;
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

/*
 * The child, young, asks whether @tx began before it did (MCW_F_YOUNG,
 * mcast_rx_refuse()).  If it may have, the child's previous life may have
 * had the message: @tx is given up, its piece reported failed, as for a
 * child known to have restarted.  If not, the child gets it all again,
 * now named by its incarnation.  The ages are compared at our now, so the
 * child's birth is placed no earlier than it was: a transfer that began
 * within a one-way delay after the child's birth is given up too.
 */
static void mcast_tx_young(struct mcast_net *mn, struct mcast_tx *tx,
			   const struct mcw_hdr *h)
{
	u32 inc = be32_to_cpu(h->step);
	u32 age = jiffies_to_msecs(jiffies - tx->born);

	if (tx->child_inc) {		/* answered already */
		if (inc != tx->child_inc)
			mcast_tx_give_up(mn, tx, ECONNRESET);
		return;
	}
	/* ages in ms, not jiffies: any count is compared without wrapping */
	if (!inc || be32_to_cpu(h->count) < age) {
		mcast_tx_give_up(mn, tx, ECONNRESET);
		return;
	}
	tx->child_inc = inc;
	tx->child_epoch = 0;	/* its new life numbers its jobs anew */
	mcast_tx_rewind(mn, tx, 0);
}

/*
 * Which of the child's receiving jobs for @tx an ACK speaks for, by the
 * @epoch it carries (a child numbers its jobs as it makes them): 1 for a
 * newer one than before (the child lost the transfer and took it up
 * again: its lower cum is where it is), -1 for an older one (an ACK
 * reordered or duplicated on the way, from before that: it says nothing),
 * 0 for the same job.  Only the first may rewind (after a timeout): a
 * late ACK of the same job, reordered past the timeout, did before.
 */
static int mcast_tx_child_job(struct mcast_tx *tx, u32 epoch)
{
	s32 d = epoch - tx->child_epoch;

	if (!epoch)	/* a peer that does not number them: as before */
		return 1;
	if (!tx->child_epoch || d > 0) {
		bool newer = tx->child_epoch;

		tx->child_epoch = epoch;
		return newer;
	}
	return d < 0 ? -1 : 0;
}

void mcast_rx_ack(struct mcast_net *mn, const struct mcw_hdr *h,
		  const void *body, size_t blen, u32 from)
{
	struct mcast_tx *tx = xa_load(&mn->txs, be32_to_cpu(h->xid));
	u64 sack = blen ? get_unaligned_be64(body) : 0;	/* 0 or 8 bytes */
	u32 cum, i, nacked;
	int job;

	/* a queued transfer has sent nothing: an ACK for it is no answer */
	if (!tx || tx->to != from || tx->queued)
		return;
	if (h->flags & MCW_F_YOUNG) {
		mcast_tx_young(mn, tx, h);
		return;
	}
	if (!mcast_tx_same_child(mn, tx, h))
		return;
	if (h->flags & MCW_F_BUSY) {
		/*
		 * Alive: back-pressure, not failure.  Try again later: the
		 * timeout probes as ever, and what the child dropped goes
		 * again once it takes something (on a reliable transport
		 * nothing else would send it: "late, not lost").
		 */
		trace_mcast_busy(mn, h, from, false);
		tx->busy = true;
		tx->refused = true;
		return;
	}
	job = mcast_tx_child_job(tx, be32_to_cpu(h->count));
	if (job < 0) {		/* from a job the child has replaced */
		atomic64_inc(&mn->stats.acks_old);
		return;
	}
	if ((h->flags & MCW_F_DUP) && tx->again_ms &&
	    be32_to_cpu(h->frag) == tx->again_frag)
		mcast_tx_early(mn, tx);
	cum = min(be32_to_cpu(h->cum), tx->nfrags);
	cum = min(cum, tx->next);
	if (cum < tx->cum) {
		if (job > 0 && tx->tries)
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
	if (tx->refused) {	/* taken now: the window again, once */
		tx->refused = false;
		tx->probe_next = tx->next;
		mcast_tx_probe_answered(mn, tx);
	} else if ((h->flags & MCW_F_PROBE) && tx->probing) {
		mcast_tx_probe_answered(mn, tx);
	}
	mcast_tx_fast_retrans(mn, tx);
	/*
	 * News restarts the timeout.  A child that holds it all and answers
	 * our probe for DONE is alive and busy with its subtree: its tries
	 * start again, but the probes keep backing off, so a deep or slow
	 * subtree is asked once per backed-off RTO, not every base RTO.
	 */
	if (tx->nacked != nacked)
		mcast_tx_progress(mn, tx);
	else if (tx->nacked == tx->nfrags)
		tx->tries = 0;
	mcast_tx_pump(mn, tx);
	if (tx->nacked == tx->nfrags) {
		mcast_tx_inactive(mn, tx);	/* now only waits for DONE */
		if (tx->job->ops && nacked != tx->nacked)
			tx->job->ops->tx_ended(mn, tx->job);
	}
}

/*
 * A node the child reports failed: only one of the piece it was given
 * (the child cannot speak for nodes it was never sent to; the rest of its
 * word is taken, as a peer is trusted to forward what it got).
 */
static void mcast_done_failed(struct mcast_net *mn, struct mcast_tx *tx,
			      u32 id)
{
	if (!mc_algo_piece_has(&mn->torus, tx->job->algo, tx->nodes, tx->len,
			       id)) {
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
	n = min(count - first, room);	/* the body holds them all */
	for (i = 0; i < n; i++)
		mcast_done_failed(mn, tx, get_unaligned_be32(body + i * 4));
	if (h->flags & MCW_F_TRUNC)
		job->trunc = true;
	if (tx->done_got != GENMASK_ULL(parts - 1, 0)) {
		mcast_tx_progress(mn, tx);	/* alive: the rest is coming */
		return;
	}
	/* DONE acknowledges every fragment (a leaf sends it instead of an ACK) */
	for (i = tx->cum; i < tx->next; i++)
		mcast_tx_mark(mn, tx, i);
	mcast_tx_rtt(mn, tx);
	mcast_tx_end(mn, tx);
	job->pending--;
	mcast_job_check(mn, job);
}
