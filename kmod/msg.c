// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Messages (shared by every file they are queued to) and local delivery:
 * queueing to the node's open files, each file's queue bounded.
 */
#include <linux/mm.h>
#include <linux/poll.h>
#include <linux/slab.h>

#include "net.h"
#include "msg.h"
#include "notify.h"
#include "obj.h"

struct mcast_msg *mcast_msg_alloc(u32 len)
{
	struct mcast_msg *msg;

	msg = kvmalloc(struct_size(msg, data, len), GFP_KERNEL_ACCOUNT);
	if (!msg)
		return NULL;
	refcount_set(&msg->ref, 1);
	msg->len = len;
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

/*
 * Queue @msg to @f.  A full queue (MCAST_RXQ_LIMIT messages or
 * MCAST_RXQ_BYTES of them) drops the new message: the file counts
 * it (reported by its next receive), the node and group count it, and the
 * first drop since the file's last receive sends an overflow event.
 */
static void mcast_file_queue(struct mcast_net *mn, struct mcast_file *f,
			     struct mcast_msg *msg, struct mcast_group *g)
{
	struct mcast_rxent *e;
	bool queued = false, first = false;
	u32 drops = 0;

	e = kmalloc(sizeof(*e), GFP_KERNEL_ACCOUNT);
	spin_lock_bh(&f->rx_lock);
	if (e && f->rxq_len < MCAST_RXQ_LIMIT &&
	    f->rxq_bytes + msg->len <= MCAST_RXQ_BYTES) {
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
		return;
	}
	kfree(e);
	atomic64_inc(&mn->stats.rx_drops);
	if (g)
		atomic64_inc(&g->stats.rx_drops);
	if (first)
		mcast_notify_overflow(mn, msg->group, f->tgid, drops);
}

void mcast_deliver_local(struct mcast_net *mn, struct mcast_msg *msg,
			 struct mcast_group *g, bool all_files,
			 struct mcast_file *skip)
{
	struct mcast_member *m;
	struct mcast_file *f;

	lockdep_assert_held(&mn->lock);
	if (all_files) {
		list_for_each_entry(f, &mn->files, node_link)
			if (f != skip)
				mcast_file_queue(mn, f, msg, NULL);
		return;
	}
	list_for_each_entry(m, &g->local, group_link)
		if (m->file != skip)
			mcast_file_queue(mn, m->file, msg, g);
}

struct mcast_rxent *mcast_file_dequeue(struct mcast_file *f, u32 *dropped)
{
	struct mcast_rxent *e;

	spin_lock_bh(&f->rx_lock);
	e = list_first_entry_or_null(&f->rxq, struct mcast_rxent, link);
	if (e) {
		list_del(&e->link);
		f->rxq_len--;
		f->rxq_bytes -= e->msg->len;
		*dropped = f->dropped;
		f->dropped = 0;
	}
	spin_unlock_bh(&f->rx_lock);
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
