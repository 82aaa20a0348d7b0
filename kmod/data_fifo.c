// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Local delivery of network messages exactly once and in order per stream
 * (sender, group): each message names the previous one its sender sent to
 * this node, so a message waits only for one that was sent here.  Idle
 * streams are forgotten, their last seq kept as the sender's floor.
 */
#include <linux/jiffies.h>
#include <linux/moduleparam.h>
#include <linux/slab.h>

#include "data.h"
#include "msg.h"

/*
 * A stream idle this long is forgotten at both ends.  It must outlast
 * every transfer of the stream (a parent gives up on a child after a few
 * seconds, a receiver remembers a finished transfer for
 * MCAST_DONE_KEEP_MS), so that nothing of it can still arrive; shorter
 * values are for tests.
 */
static unsigned int stream_idle_ms = 60000;
module_param(stream_idle_ms, uint, 0644);
MODULE_PARM_DESC(stream_idle_ms,
		 "forget a (sender, group) stream's FIFO state after it was idle this many ms (default 60000)");

static void mcast_deliver_now(struct mcast_net *mn, struct mcast_msg *msg)
{
	struct mcast_group *g = NULL;

	if (msg->group != MCAST_NO_GROUP) {
		g = xa_load(&mn->groups, msg->group);
		if (!g)
			return;
	}
	mcast_deliver_local(mn, msg, g, !g, NULL);
}

void mcast_stream_drain(struct mcast_net *mn, struct mcast_rstream *st,
			bool force)
{
	struct mcast_held *hd;

	while ((hd = list_first_entry_or_null(&st->held, struct mcast_held,
					      link))) {
		if (!force && hd->prev > st->last)
			break;
		force = false;
		list_del(&hd->link);
		mcast_deliver_now(mn, hd->msg);
		st->last = hd->msg->seq;
		mcast_msg_put(hd->msg);
		kfree(hd);
		st->since = jiffies;
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
	return xa_err(xa_store(&mn->rx_floor, src, xa_mk_value(seq),
			       GFP_KERNEL));
}

/* Forgets idle streams, so their state does not grow without bound. */
void mcast_streams_expire(struct mcast_net *mn)
{
	unsigned long idle = msecs_to_jiffies(READ_ONCE(stream_idle_ms));
	struct mcast_rstream *st;
	struct mcast_tstream *ts;
	unsigned long id;

	if (time_before(jiffies, mn->streams_checked + HZ))
		return;		/* once a second is enough */
	mn->streams_checked = jiffies;
	xa_for_each(&mn->rx_streams, id, st) {
		if (!list_empty(&st->held) ||
		    time_before(jiffies, st->used + idle) ||
		    mcast_rx_floor_raise(mn, id >> 32, st->last))
			continue;
		xa_erase(&mn->rx_streams, id);
		mcast_obj_free(st, MCAST_OBJ_STREAM);
	}
	xa_for_each(&mn->tx_streams, id, ts) {
		if (time_before(jiffies, ts->used + idle))
			continue;
		xa_erase(&mn->tx_streams, id);
		xa_destroy(&ts->last);
		mcast_obj_free(ts, MCAST_OBJ_STREAM);
	}
}

/* FIFO per (sender, group): deliver @msg after its @prev, exactly once. */
void mcast_rx_deliver(struct mcast_net *mn, struct mcast_msg *msg,
		      u64 prev)
{
	unsigned long key = mcast_key2(msg->src_node, msg->group);
	struct mcast_rstream *st = xa_load(&mn->rx_streams, key);
	struct mcast_held *hd, *pos;

	if (!st) {
		st = mcast_obj_zalloc(sizeof(*st), MCAST_OBJ_STREAM);
		if (!st || xa_err(xa_store(&mn->rx_streams, key, st,
					   GFP_KERNEL))) {
			mcast_obj_free(st, MCAST_OBJ_STREAM);
			mcast_deliver_now(mn, msg);	/* no order, no loss */
			return;
		}
		INIT_LIST_HEAD(&st->held);
		st->last = mcast_rx_floor(mn, msg->src_node);
	}
	st->used = jiffies;
	if (msg->seq <= st->last)
		goto dup;
	list_for_each_entry(pos, &st->held, link)
		if (pos->msg->seq == msg->seq)
			goto dup;
	if (prev <= st->last) {
		mcast_deliver_now(mn, msg);
		st->last = msg->seq;
		mcast_stream_drain(mn, st, false);
		return;
	}
	hd = kmalloc(sizeof(*hd), GFP_KERNEL);
	if (!hd) {
		mcast_deliver_now(mn, msg);
		return;
	}
	refcount_inc(&msg->ref);
	hd->msg = msg;
	hd->prev = prev;
	if (list_empty(&st->held))
		st->since = jiffies;
	list_for_each_entry(pos, &st->held, link)
		if (pos->msg->seq > msg->seq)
			break;
	list_add_tail(&hd->link, &pos->link);
	mcast_arm(mn);
	return;
dup:
	atomic64_inc(&mn->stats.dups);
}
