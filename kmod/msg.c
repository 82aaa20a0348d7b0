// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Messages (shared by every file they are queued to) and local delivery:
 * queueing to the node's open files, each file's queue bounded.  A full
 * queue drops for a lossy member; for a lossless one (the default) the
 * delivery waits until the file has room, or until the file has been
 * full for rx_stall_ms and is cut off (include/uapi/linux/mcast.h).
 */
#include <linux/jiffies.h>
#include <linux/mm.h>
#include <linux/moduleparam.h>
#include <linux/poll.h>
#include <linux/slab.h>

#include "net.h"
#include "msg.h"
#include "notify.h"
#include "obj.h"

/*
 * Below transfer_lifetime_ms (data_hop.c), so that a cut-off comes before
 * the parents of a node holding messages for a stalled reader give up on
 * its whole subtree.
 */
static unsigned int rx_stall_ms = 20000;
module_param(rx_stall_ms, uint, 0644);
MODULE_PARM_DESC(rx_stall_ms,
		 "cut off a lossless receiver whose queue stayed full this many ms (default 20000)");

struct mcast_msg *mcast_msg_alloc(u32 len)
{
	struct mcast_msg *msg;

	msg = kvmalloc(struct_size(msg, data, len), MCAST_GFP);
	if (!msg)
		return NULL;
	refcount_set(&msg->ref, 1);
	msg->len = len;
	msg->vlat_ns = 0;
	msg->vtime_ns = 0;
	atomic_long_inc(&mcast_live[MCAST_OBJ_MSG]);
	return msg;
}

void mcast_msg_put(struct mcast_msg *msg)
{
	if (refcount_dec_and_test(&msg->ref)) {
		atomic_long_dec(&mcast_live[MCAST_OBJ_MSG]);
		kvfree(msg);
	}
}

static void mcast_stats_rx(struct mcast_stats *s, u32 len)
{
	atomic64_inc(&s->rx_msgs);
	atomic64_add(len, &s->rx_bytes);
}

/* @f's queue takes @len bytes more (its rx_lock held). */
static bool mcast_file_room(const struct mcast_file *f, u32 len)
{
	return f->rxq_len < MCAST_RXQ_LIMIT &&
	       f->rxq_bytes + len <= MCAST_RXQ_BYTES;
}

/*
 * Lossless member @f cannot take @len bytes now: its queue is full and
 * has not stayed so for rx_stall_ms.  One that has is cut off here (and
 * takes the message, to lose it).
 */
static bool mcast_file_blocks(struct mcast_net *mn, struct mcast_file *f,
			      u32 len, u32 group)
{
	unsigned long stall = msecs_to_jiffies(READ_ONCE(rx_stall_ms));
	bool block = false, cut = false;

	spin_lock_bh(&f->rx_lock);
	if (!f->cutoff && !mcast_file_room(f, len)) {
		if (!f->stall_since)
			f->stall_since = jiffies | 1;
		cut = time_after(jiffies, f->stall_since + stall);
		f->cutoff = cut;
		block = !cut;
		f->wanted |= block;
	}
	spin_unlock_bh(&f->rx_lock);
	if (cut) {
		atomic64_inc(&mn->stats.cutoffs);
		mcast_notify_cutoff(mn, group, f->tgid);
	}
	return block;
}

/*
 * Queue @msg to @f, or, when its queue is full (MCAST_RXQ_LIMIT messages
 * or MCAST_RXQ_BYTES of them), drop it for @f: the file counts it
 * (reported by its next receive), the node and group count it, and the
 * first drop since the file's last receive sends an overflow event.
 * Returns whether @msg was queued.
 */
static bool mcast_file_queue(struct mcast_net *mn, struct mcast_file *f,
			     struct mcast_msg *msg, struct mcast_group *g)
{
	struct mcast_rxent *e;
	bool queued = false, first = false;
	u32 drops = 0;

	e = kmalloc(sizeof(*e), MCAST_GFP);
	spin_lock_bh(&f->rx_lock);
	if (e && mcast_file_room(f, msg->len)) {
		refcount_inc(&msg->ref);
		e->msg = msg;
		list_add_tail(&e->link, &f->rxq);
		f->rxq_len++;
		f->rxq_bytes += msg->len;
		queued = true;
	} else {
		if (f->dropped < U32_MAX)
			f->dropped++;
		first = f->dropped == 1;
		drops = f->dropped;
	}
	spin_unlock_bh(&f->rx_lock);

	if (queued) {
		wake_up_interruptible_poll(&f->wq, EPOLLIN | EPOLLRDNORM);
		mcast_stats_rx(&mn->stats, msg->len);
		if (g)
			mcast_stats_rx(&g->stats, msg->len);
		return true;
	}
	kfree(e);
	atomic64_inc(&mn->stats.rx_drops);
	if (g)
		atomic64_inc(&g->stats.rx_drops);
	if (first)
		mcast_notify_overflow(mn, msg->group, f->tgid, drops);
	return false;
}

bool mcast_deliver_blocked(struct mcast_net *mn, struct mcast_group *g,
			   u32 len, struct mcast_file *skip)
{
	struct mcast_member *m;
	bool blocked = false;

	lockdep_assert_held(&mn->lock);
	/* every full file is looked at: each is marked as wanted */
	list_for_each_entry(m, &g->local, group_link)
		if (m->file != skip && !m->lossy &&
		    mcast_file_blocks(mn, m->file, len, g->id))
			blocked = true;
	return blocked;
}

int mcast_deliver_local(struct mcast_net *mn, struct mcast_msg *msg,
			struct mcast_group *g, bool all_files,
			struct mcast_file *skip)
{
	struct mcast_member *m;
	struct mcast_file *f;
	bool lost = false;

	lockdep_assert_held(&mn->lock);
	if (all_files) {
		list_for_each_entry(f, &mn->files, node_link)
			if (f != skip)
				mcast_file_queue(mn, f, msg, NULL);
		return MCAST_DELIVERED;
	}
	if (mcast_deliver_blocked(mn, g, msg->len, skip))
		return MCAST_BLOCKED;
	list_for_each_entry(m, &g->local, group_link)
		if (m->file != skip && !mcast_file_queue(mn, m->file, msg, g))
			lost |= !m->lossy;
	return lost ? MCAST_CUT : MCAST_DELIVERED;
}

void mcast_room_made(struct mcast_net *mn)
{
	WRITE_ONCE(mn->room_gen, READ_ONCE(mn->room_gen) + 1);
	wake_up_interruptible(&mn->send_wq);
}

/* A second after a refused non-blocking send: pollers look again. */
void mcast_room_timer(struct timer_list *t)
{
	struct mcast_net *mn = from_timer(mn, t, room_timer);

	mcast_room_made(mn);
}

/*
 * A read is progress: the file is no longer stalled, and one that read
 * its queue empty is no longer cut off.  What waited for its room is
 * woken, once per refusal (mcast_file_blocks() sets wanted again).
 */
struct mcast_rxent *mcast_file_dequeue(struct mcast_file *f, u32 *dropped)
{
	struct mcast_rxent *e;
	bool kick = false;

	spin_lock_bh(&f->rx_lock);
	e = list_first_entry_or_null(&f->rxq, struct mcast_rxent, link);
	if (e) {
		list_del(&e->link);
		f->rxq_len--;
		f->rxq_bytes -= e->msg->len;
		*dropped = f->dropped;
		f->dropped = 0;
		f->stall_since = 0;
		if (!f->rxq_len)
			f->cutoff = false;
		kick = f->wanted;
		f->wanted = false;
	}
	spin_unlock_bh(&f->rx_lock);
	if (kick)
		mcast_room_made(f->mn);
	return e;
}

bool mcast_file_readable(struct mcast_file *f)
{
	bool r;

	spin_lock_bh(&f->rx_lock);
	r = !list_empty(&f->rxq);
	spin_unlock_bh(&f->rx_lock);
	return r;
}

void mcast_rxent_free(struct mcast_rxent *e)
{
	mcast_msg_put(e->msg);
	kfree(e);
}

void mcast_file_purge(struct mcast_file *f)
{
	struct mcast_rxent *e, *tmp;

	list_for_each_entry_safe(e, tmp, &f->rxq, link)
		mcast_rxent_free(e);
	INIT_LIST_HEAD(&f->rxq);
	f->rxq_len = 0;
	f->rxq_bytes = 0;
}
