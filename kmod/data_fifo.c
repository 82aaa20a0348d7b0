// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Local delivery of network messages exactly once and in order per stream
 * (sender, group): each message names the previous one its sender sent to
 * this node, so a message waits only for one that was sent here.  Idle
 * streams are forgotten, their last seq kept as the sender's floor.  A
 * message that a lossless receiver has no room for waits at the head of
 * its stream (the stream is blocked) and keeps its job from reporting
 * DONE until it is delivered.
 */
#include <linux/jiffies.h>
#include <linux/math64.h>
#include <linux/moduleparam.h>
#include <linux/slab.h>
#include <linux/timekeeping.h>

#include "data.h"
#include "msg.h"
#include "trace.h"

/*
 * A stream idle this long is forgotten at both ends.  It must outlast
 * every transfer of the stream (transfer_lifetime_ms, plus the network's
 * delay), so that nothing of it can still arrive; shorter values are for
 * tests.
 */
static unsigned int stream_idle_ms = 90000;
module_param(stream_idle_ms, uint, 0644);
MODULE_PARM_DESC(stream_idle_ms,
		 "forget a (sender, group) stream's FIFO state after it was idle this many ms (default 90000)");

/*
 * A message held for a missing predecessor this long is delivered without
 * it; the predecessor, should it come after all, is refused as late and
 * reported failed to its sender.  A choice between waiting longer and
 * failing sooner, not a bet on delays: longer suits a slower network (or
 * kernel: make debugcheck stretches it).
 */
static unsigned int fifo_gap_ms = 10000;
module_param(fifo_gap_ms, uint, 0644);
MODULE_PARM_DESC(fifo_gap_ms,
		 "deliver a message held for FIFO order without its missing predecessors after this many ms; they are refused as late if they come (default 10000, at least 100)");

/*
 * How far ahead of this node's clock a sender's may be: a seq beyond the
 * clock's reach plus this is no real message's (mcast_seq_plausible()),
 * and a forged one within it holds a stream up no longer than this.
 */
static unsigned int seq_skew_ms = 10000;
module_param(seq_skew_ms, uint, 0644);
MODULE_PARM_DESC(seq_skew_ms,
		 "refuse DATA whose seq is beyond the wall clock plus this many ms: the clocks of the nodes must agree this well (default 10000)");

/* Seq units per second: seqs are the wall clock's seconds << 20. */
#define MCAST_SEQ_HZ	(1ULL << 20)

u64 mcast_seq_clock(void)
{
	struct timespec64 ts;

	ktime_get_real_ts64(&ts);
	if (ts.tv_sec < 0)
		return 0;
	return (u64)ts.tv_sec * MCAST_SEQ_HZ +
	       div_u64((u64)ts.tv_nsec * MCAST_SEQ_HZ, NSEC_PER_SEC);
}

/*
 * Under mn->lock.  Following the clock (not only starting from it) bounds
 * what a forged seq can do: one within the skew is overtaken by the real
 * sender's own seqs once that much time has passed.
 */
u64 mcast_seq_next(struct mcast_net *mn)
{
	u64 seq = max_t(u64, atomic64_read(&mn->seq) + 1, mcast_seq_clock());

	atomic64_set(&mn->seq, seq);
	return seq;
}

bool mcast_seq_plausible(u64 seq)
{
	u64 skew = div_u64((u64)READ_ONCE(seq_skew_ms) * MCAST_SEQ_HZ, 1000);

	/* far below LONG_MAX: an xarray value holds any that passes */
	return seq && seq <= mcast_seq_clock() + skew;
}

static int mcast_deliver_now(struct mcast_net *mn, struct mcast_msg *msg)
{
	struct mcast_group *g = NULL;
	int how;

	if (msg->group != MCAST_NO_GROUP) {
		g = xa_load(&mn->groups, msg->group);
		if (!g)
			return MCAST_DELIVERED;	/* no group, no members */
	}
	how = mcast_deliver_local(mn, msg, g, !g, NULL);
	trace_mcast_deliver(mn, msg, how);
	return how;
}

/*
 * How @job's message went (mcast_deliver_local()'s answer): not to a file
 * that waited for it (cut off, or not at all), so the sender hears this
 * node failed.
 */
static void mcast_job_delivered(struct mcast_net *mn, struct mcast_job *job,
				int how)
{
	if (job && how != MCAST_DELIVERED)
		mcast_job_add_failed(job, mn->node_id);
}

/* @job's answer waits for @hd's delivery (mcast_held_free()). */
static void mcast_held_wait(struct mcast_held *hd, struct mcast_job *job)
{
	job->held = hd;
	list_add_tail(&job->held_link, &hd->jobs);
	job->pending++;
}

/*
 * @hd leaves its stream, delivered as @how; the jobs that waited for it,
 * its own and its copies', may complete now.  One at a time, @hd still
 * theirs: completing one may free another (mcast_held_orphan()).
 */
static void mcast_held_free(struct mcast_net *mn, struct mcast_held *hd,
			    int how)
{
	struct mcast_peer *p = xa_load(&mn->peers, hd->parent);
	struct mcast_job *job;

	if (p && p->held)
		p->held--;
	mn->nheld--;
	mn->held_mem -= hd->msg->len;
	while ((job = list_first_entry_or_null(&hd->jobs, struct mcast_job,
					       held_link))) {
		list_del(&job->held_link);
		job->held = NULL;
		mcast_job_delivered(mn, job, how);
		job->pending--;
		mcast_job_check(mn, job);
	}
	mcast_msg_put(hd->msg);
	kfree(hd);
}

static void mcast_stream_block(struct mcast_net *mn,
			       struct mcast_rstream *st, bool on)
{
	if (st->blocked == on)
		return;
	st->blocked = on;
	if (on)
		mn->nblocked++;
	else
		mn->nblocked--;
}

/* The stream goes past lo..hi without them (fifo_gap_ms is over). */
static void mcast_gap_add(struct mcast_rstream *st, u64 lo, u64 hi)
{
	if (st->ngaps == MCAST_STREAM_GAPS) {
		st->gaps_lost = max(st->gaps_lost, st->gaps[0].hi);
		st->ngaps--;
		memmove(st->gaps, st->gaps + 1,
			st->ngaps * sizeof(st->gaps[0]));
	}
	st->gaps[st->ngaps++] = (struct mcast_gap){ lo, hi };
}

/*
 * @seq, at or below the last delivered, is one the stream went past
 * without it; or may be, below a forgotten gap (then a duplicate is
 * reported failed too: a sender told of a failure that was none can send
 * again, one told of a delivery that was none cannot).
 */
static bool mcast_gap_has(const struct mcast_rstream *st, u64 seq)
{
	u32 i;

	for (i = 0; i < st->ngaps; i++)
		if (seq >= st->gaps[i].lo && seq <= st->gaps[i].hi)
			return true;
	return seq <= st->gaps_lost;
}

/* @st delivered @seq (to every file it went to: a copy may say so). */
static void mcast_stream_note(struct mcast_rstream *st, u64 seq, int how)
{
	if (how == MCAST_DELIVERED)
		st->known[st->nknown++ % MCAST_STREAM_KNOWN] = seq;
}

/*
 * @seq, at or below the last delivered, is one @st remembers delivering.
 * Anything else there was skipped, delivered too long ago to tell, not
 * delivered to every file, or never sent here at all (a forgery that
 * moved the stream): a copy of it must not be answered as delivered.
 */
static bool mcast_stream_knows(const struct mcast_rstream *st, u64 seq)
{
	u32 i;

	for (i = 0; i < min_t(u32, st->nknown, MCAST_STREAM_KNOWN); i++)
		if (st->known[i] == seq)
			return true;
	return false;
}

/*
 * Delivers what the stream holds in order, while the next one's prev has
 * been delivered (or, with @force, the first one in any case); stops, the
 * stream blocked, at one a lossless receiver has no room for.
 */
static void mcast_stream_drain(struct mcast_net *mn,
			       struct mcast_rstream *st, bool force)
{
	struct mcast_held *hd;
	int how;

	while ((hd = list_first_entry_or_null(&st->held, struct mcast_held,
					      link))) {
		if (!force && hd->prev > st->last)
			break;
		how = mcast_deliver_now(mn, hd->msg);
		if (how == MCAST_BLOCKED) {
			mcast_stream_block(mn, st, true);
			return;
		}
		if (force && hd->prev > st->last)
			mcast_gap_add(st, st->last + 1, hd->prev);
		force = false;
		list_del(&hd->link);
		/* never back: a lying sender's chains need not agree */
		st->last = max(st->last, hd->msg->seq);
		mcast_stream_note(st, hd->msg->seq, how);
		mcast_held_free(mn, hd, how);
	}
	mcast_stream_block(mn, st, false);
	if (list_empty(&st->held))
		list_del_init(&st->held_link);
}

/*
 * The timer's look at held messages: only streams that hold any, so its
 * cost follows the work due, not the streams remembered.  A blocked one
 * tries again (its receiver may have read, or stalled long enough to be
 * cut off).  A message held longer than fifo_gap_ms is delivered with
 * every one before it: what it waits for will not come (the sender gave
 * up on this node, or lied).
 */
void mcast_streams_skip_gaps(struct mcast_net *mn)
{
	unsigned long gap = msecs_to_jiffies(max(READ_ONCE(fifo_gap_ms), 100U));
	struct mcast_rstream *st, *tmp;
	struct mcast_held *hd;
	u64 upto;

	list_for_each_entry_safe(st, tmp, &mn->held_streams, held_link) {
		if (st->blocked)
			mcast_stream_drain(mn, st, false);
		if (st->blocked)
			continue;
		upto = 0;
		list_for_each_entry(hd, &st->held, link)
			if (time_after(jiffies, hd->at + gap))
				upto = hd->msg->seq;
		while (!st->blocked &&
		       (hd = list_first_entry_or_null(&st->held,
						      struct mcast_held, link)) &&
		       hd->msg->seq <= upto)
			mcast_stream_drain(mn, st, true);
	}
}

/*
 * What a new stream from @src may take as delivered: the last seq of any
 * stream of @src that was forgotten.  That message is older than
 * stream_idle_ms, so every message sent before it has arrived or never
 * will; a new stream's first message may name one of them as its prev.
 */
static u64 mcast_rx_floor(struct mcast_net *mn, u32 src)
{
	void *e = xa_load(&mn->rx_floor, src);

	return e ? xa_to_value(e) : 0;
}

static int mcast_rx_floor_raise(struct mcast_net *mn, u32 src, u64 seq)
{
	if (seq <= mcast_rx_floor(mn, src))
		return 0;
	/* an xarray value is a long: a seq is, once mcast_seq_plausible() */
	if (seq > LONG_MAX)
		return -ERANGE;
	return xa_err(xa_store(&mn->rx_floor, src, xa_mk_value(seq),
			       MCAST_GFP));
}

/* The share of the peer that made @st (it may have been deleted since). */
static void mcast_stream_charge(struct mcast_net *mn,
				struct mcast_rstream *st, int d)
{
	struct mcast_peer *p = xa_load(&mn->peers, st->peer);

	if (p && (d > 0 || p->streams))
		p->streams += d;
}

static void mcast_rstream_free(struct mcast_net *mn, struct mcast_rstream *st)
{
	struct mcast_held *hd, *tmp;

	list_for_each_entry_safe(hd, tmp, &st->held, link)
		mcast_held_free(mn, hd, MCAST_BLOCKED);
	mcast_stream_block(mn, st, false);
	list_del(&st->held_link);
	list_del(&st->lru);
	xa_erase(&mn->rx_streams, st->key);
	mn->nstreams--;
	mcast_stream_charge(mn, st, -1);
	mcast_obj_free(st, MCAST_OBJ_STREAM);
}

static void mcast_tstream_free(struct mcast_net *mn, struct mcast_tstream *ts)
{
	list_del(&ts->lru);
	xa_erase(&mn->tx_streams, ts->group);
	xa_destroy(&ts->last);
	mcast_obj_free(ts, MCAST_OBJ_STREAM);
}

/*
 * Forgets idle streams, so their state does not grow without bound: the
 * least recently used first, stopping at the first one still in use, so
 * a look costs the streams it forgets, not the streams there are.
 */
void mcast_streams_expire(struct mcast_net *mn)
{
	unsigned long idle = msecs_to_jiffies(READ_ONCE(stream_idle_ms));
	struct mcast_rstream *st, *stmp;
	struct mcast_tstream *ts, *ttmp;

	if (time_before(jiffies, mn->streams_checked + HZ))
		return;		/* once a second is enough */
	mn->streams_checked = jiffies;
	list_for_each_entry_safe(st, stmp, &mn->rx_lru, lru) {
		if (time_before(jiffies, st->used + idle))
			break;
		if (!list_empty(&st->held) ||
		    mcast_rx_floor_raise(mn, st->key >> 32, st->last) ==
		    -ENOMEM) {
			st->used = jiffies;	/* look again later */
			list_move_tail(&st->lru, &mn->rx_lru);
			continue;
		}
		mcast_rstream_free(mn, st);
	}
	list_for_each_entry_safe(ts, ttmp, &mn->tx_lru, lru) {
		if (time_before(jiffies, ts->used + idle))
			break;
		mcast_tstream_free(mn, ts);
	}
}

/* All of them, as the node's data path stops. */
void mcast_streams_free(struct mcast_net *mn)
{
	struct mcast_rstream *st, *stmp;
	struct mcast_tstream *ts, *ttmp;

	list_for_each_entry_safe(st, stmp, &mn->rx_lru, lru)
		mcast_rstream_free(mn, st);
	list_for_each_entry_safe(ts, ttmp, &mn->tx_lru, lru)
		mcast_tstream_free(mn, ts);
}

/*
 * Younger than the idle time, the node may still get DATA of transfers
 * that began before it, with a previous life of its own (mcast_rx_refuse()).
 */
bool mcast_node_young(const struct mcast_net *mn)
{
	return time_before(jiffies, mn->born +
			   msecs_to_jiffies(READ_ONCE(stream_idle_ms)));
}

/* A message of @group has no file here to go to, and so no order to keep. */
static bool mcast_group_absent(struct mcast_net *mn, u32 group)
{
	return group != MCAST_NO_GROUP && !xa_load(&mn->groups, group);
}

bool mcast_stream_room(struct mcast_net *mn, const struct mcast_peer *p,
		       u32 src, u32 group)
{
	if (mcast_group_absent(mn, group) ||
	    xa_load(&mn->rx_streams, mcast_key2(src, group)))
		return true;
	return mn->nstreams < MCAST_STREAMS_MAX &&
	       p->streams < MCAST_STREAMS_PER_PEER;
}

u32 mcast_streams_of(struct mcast_net *mn, u32 id)
{
	struct mcast_rstream *st;
	u32 n = 0;

	list_for_each_entry(st, &mn->rx_lru, lru)
		n += st->peer == id;
	return n;
}

/* A new stream, charged to @peer, whose datagram made it. */
static struct mcast_rstream *mcast_rstream_new(struct mcast_net *mn,
					       unsigned long key, u32 src,
					       u32 peer)
{
	struct mcast_rstream *st;

	st = mcast_obj_zalloc(sizeof(*st), MCAST_OBJ_STREAM);
	if (!st)
		return NULL;
	if (xa_err(xa_store(&mn->rx_streams, key, st, MCAST_GFP))) {
		mcast_obj_free(st, MCAST_OBJ_STREAM);
		return NULL;
	}
	st->key = key;
	st->peer = peer;
	mcast_stream_charge(mn, st, 1);
	INIT_LIST_HEAD(&st->held);
	INIT_LIST_HEAD(&st->held_link);
	list_add_tail(&st->lru, &mn->rx_lru);
	mn->nstreams++;
	/*
	 * Whatever is at or below the floor is older than stream_idle_ms:
	 * its transfer has outlived its lifetime, and whether its stream
	 * got it is forgotten.  Refused and reported then, as below a
	 * forgotten gap.
	 */
	st->last = mcast_rx_floor(mn, src);
	st->gaps_lost = st->last;
	return st;
}

/*
 * Holds @job's message in @st until its turn (and room) comes; false when
 * there is no memory for that.
 */
static bool mcast_hold(struct mcast_net *mn, struct mcast_rstream *st,
		       struct mcast_job *job, u64 prev)
{
	struct mcast_msg *msg = job->msg;
	struct mcast_held *hd, *pos;
	struct mcast_peer *p;

	hd = kmalloc(sizeof(*hd), MCAST_GFP);
	if (!hd)
		return false;
	refcount_inc(&msg->ref);
	hd->msg = msg;
	hd->prev = prev;
	hd->parent = job->parent;	/* charged to the peer that sent it */
	hd->at = jiffies;
	INIT_LIST_HEAD(&hd->jobs);
	mcast_held_wait(hd, job);
	p = xa_load(&mn->peers, hd->parent);
	if (p)
		p->held++;
	mn->nheld++;
	mn->held_mem += msg->len;
	if (list_empty(&st->held))
		list_add_tail(&st->held_link, &mn->held_streams);
	list_for_each_entry(pos, &st->held, link)
		if (pos->msg->seq > msg->seq)
			break;
	list_add_tail(&hd->link, &pos->link);
	mcast_arm(mn);
	return true;
}

/* FIFO per (sender, group): deliver @job's message after its @prev. */
void mcast_rx_deliver(struct mcast_net *mn, struct mcast_job *job, u64 prev)
{
	struct mcast_msg *msg = job->msg;
	unsigned long key = mcast_key2(msg->src_node, msg->group);
	struct mcast_rstream *st = xa_load(&mn->rx_streams, key);
	struct mcast_held *pos;
	int how;

	if (!st && mcast_group_absent(mn, msg->group))
		return;		/* no member: nothing to order or deliver */
	if (!st) {
		st = mcast_rstream_new(mn, key, msg->src_node, job->parent);
		if (!st) {	/* no order, no loss */
			mcast_job_delivered(mn, job, mcast_deliver_now(mn, msg));
			return;
		}
	}
	st->used = jiffies;
	list_move_tail(&st->lru, &mn->rx_lru);
	if (msg->seq <= st->last) {
		if (!mcast_gap_has(st, msg->seq) &&
		    mcast_stream_knows(st, msg->seq))
			goto dup;
		/*
		 * Too late (delivered now it would break FIFO), or not known
		 * to have been delivered: the sender hears this node failed.
		 * Never "delivered" for a seq the stream only lies above:
		 * a forged seq ahead of the sender's would otherwise turn its
		 * real messages into silent losses reported as successes.
		 */
		atomic64_inc(&mn->stats.late);
		trace_mcast_deliver(mn, msg, MCAST_TRACE_LATE);
		mcast_job_add_failed(job, mn->node_id);
		return;
	}
	list_for_each_entry(pos, &st->held, link)
		if (pos->msg->seq == msg->seq) {
			/* its sender hears what becomes of the held one */
			mcast_held_wait(pos, job);
			goto dup;
		}
	/* behind a blocked one, it waits its turn */
	if (prev <= st->last && !st->blocked) {
		how = mcast_deliver_now(mn, msg);
		if (how != MCAST_BLOCKED) {
			mcast_job_delivered(mn, job, how);
			st->last = max(st->last, msg->seq);
			mcast_stream_note(st, msg->seq, how);
			mcast_stream_drain(mn, st, false);
			return;
		}
		if (!mcast_hold(mn, st, job, prev)) {
			mcast_job_delivered(mn, job, how);	/* lost */
			return;
		}
		mcast_stream_block(mn, st, true);
		return;
	}
	if (!mcast_hold(mn, st, job, prev))	/* out of order, or lost */
		mcast_job_delivered(mn, job, mcast_deliver_now(mn, msg));
	return;
dup:
	atomic64_inc(&mn->stats.dups);
	trace_mcast_deliver(mn, msg, MCAST_TRACE_DUP);
}
