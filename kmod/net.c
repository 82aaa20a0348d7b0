// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Per-network-namespace node state: each netns is one node of the cluster,
 * with its topology, peers, groups, open files and statistics.  Also the
 * local half of the data path: membership and queueing to open files.
 */
#include <linux/slab.h>
#include <linux/mm.h>
#include <linux/poll.h>
#include <net/netns/generic.h>
#include <net/net_namespace.h>
#include <linux/rtnetlink.h>

#include "mcast.h"

static unsigned int mcast_net_id __read_mostly;

struct mcast_net *mcast_net(const struct net *net)
{
	return net_generic(net, mcast_net_id);
}

void mcast_group_free(struct mcast_group *g)
{
	if (!g)
		return;
	kvfree(g->members);
	kvfree(g->rchain);
	kvfree(g->hcycle);
	kfree(g);
}

static void mcast_member_drop(struct mcast_net *mn, struct mcast_member *m)
{
	struct mcast_group *g = m->group;

	list_del(&m->group_link);
	list_del(&m->file_link);
	g->nlocal--;
	mcast_notify_member(mn, MCAST_CMD_MEMBER_LEAVE, g->id, m->file->tgid);
	kfree(m);
}

void mcast_group_drop_members(struct mcast_net *mn, struct mcast_group *g)
{
	struct mcast_member *m, *tmp;

	lockdep_assert_held(&mn->lock);
	list_for_each_entry_safe(m, tmp, &g->local, group_link)
		mcast_member_drop(mn, m);
}

void mcast_group_destroy(struct mcast_net *mn, struct mcast_group *g)
{
	mcast_group_drop_members(mn, g);
	xa_erase(&mn->groups, g->id);
	mn->ngroups--;
	mcast_group_free(g);
}

void mcast_file_attach(struct mcast_file *f, struct net *net)
{
	struct mcast_net *mn = mcast_net(net);

	f->net = net;
	f->mn = mn;
	INIT_LIST_HEAD(&f->groups);
	INIT_LIST_HEAD(&f->rxq);
	spin_lock_init(&f->rx_lock);
	init_waitqueue_head(&f->wq);
	mutex_lock(&mn->lock);
	list_add_tail(&f->node_link, &mn->files);
	mn->nfiles++;
	mutex_unlock(&mn->lock);
}

void mcast_rxent_free(struct mcast_rxent *e)
{
	mcast_msg_put(e->msg);
	kfree(e);
}

void mcast_file_detach(struct mcast_file *f)
{
	struct mcast_net *mn = f->mn;
	struct mcast_member *m, *tmp;
	struct mcast_rxent *e, *etmp;

	mutex_lock(&mn->lock);
	list_for_each_entry_safe(m, tmp, &f->groups, file_link)
		mcast_member_drop(mn, m);
	list_del(&f->node_link);
	mn->nfiles--;
	mutex_unlock(&mn->lock);

	/* No one can queue to @f any more. */
	list_for_each_entry_safe(e, etmp, &f->rxq, link)
		mcast_rxent_free(e);
	INIT_LIST_HEAD(&f->rxq);
	f->rxq_len = 0;
	f->rxq_bytes = 0;
}

static struct mcast_member *mcast_file_member(struct mcast_file *f,
					      const struct mcast_group *g)
{
	struct mcast_member *m;

	list_for_each_entry(m, &f->groups, file_link)
		if (m->group == g)
			return m;
	return NULL;
}

int mcast_group_join(struct mcast_file *f, u32 group)
{
	struct mcast_net *mn = f->mn;
	struct mcast_group *g;
	struct mcast_member *m;
	int err = 0;

	m = kzalloc(sizeof(*m), GFP_KERNEL_ACCOUNT);
	if (!m)
		return -ENOMEM;
	mutex_lock(&mn->lock);
	g = xa_load(&mn->groups, group);
	if (!g) {
		err = -ENOENT;
		goto out;
	}
	if (mcast_file_member(f, g)) {
		err = -EALREADY;
		goto out;
	}
	m->file = f;
	m->group = g;
	list_add_tail(&m->group_link, &g->local);
	list_add_tail(&m->file_link, &f->groups);
	g->nlocal++;
	mcast_notify_member(mn, MCAST_CMD_MEMBER_JOIN, g->id, f->tgid);
	m = NULL;
out:
	mutex_unlock(&mn->lock);
	kfree(m);
	return err;
}

int mcast_group_leave(struct mcast_file *f, u32 group)
{
	struct mcast_net *mn = f->mn;
	struct mcast_group *g;
	struct mcast_member *m;
	int err = 0;

	mutex_lock(&mn->lock);
	g = xa_load(&mn->groups, group);
	if (!g) {
		err = -ENOENT;
		goto out;
	}
	m = mcast_file_member(f, g);
	if (!m) {
		err = -ENOTCONN;
		goto out;
	}
	mcast_member_drop(mn, m);
out:
	mutex_unlock(&mn->lock);
	return err;
}

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

static int __net_init mcast_net_init_ns(struct net *net)
{
	struct mcast_net *mn = mcast_net(net);

	mn->net = net;
	mutex_init(&mn->lock);
	mn->node_id = MCAST_NO_NODE;
	xa_init(&mn->peers);
	xa_init(&mn->groups);
	INIT_LIST_HEAD(&mn->files);
	mcast_data_init_net(mn);
	return 0;
}

/* Files hold a reference on their netns, so none is open here. */
static void __net_exit mcast_net_exit_ns(struct net *net)
{
	struct mcast_net *mn = mcast_net(net);
	struct mcast_group *g;
	struct mcast_peer *p;
	unsigned long id;

	WARN_ON_ONCE(!list_empty(&mn->files));
	mcast_data_exit_net(mn);
	mutex_lock(&mn->lock);
	xa_for_each(&mn->groups, id, g)
		mcast_group_destroy(mn, g);
	xa_for_each(&mn->peers, id, p) {
		xa_erase(&mn->peers, id);
		kfree(p);
	}
	mn->npeers = 0;
	mutex_unlock(&mn->lock);
	xa_destroy(&mn->groups);
	xa_destroy(&mn->peers);
	mutex_destroy(&mn->lock);
}

static struct pernet_operations mcast_net_ops = {
	.init = mcast_net_init_ns,
	.exit = mcast_net_exit_ns,
	.id = &mcast_net_id,
	.size = sizeof(struct mcast_net),
};

int mcast_net_init(void)
{
	return register_pernet_subsys(&mcast_net_ops);
}

/* Module unload: stop every node's data path while netlink still works. */
void mcast_net_quiesce(void)
{
	struct net *net;

	down_read(&net_rwsem);
	for_each_net(net)
		mcast_data_exit_net(mcast_net(net));
	up_read(&net_rwsem);
}

void mcast_net_exit(void)
{
	unregister_pernet_subsys(&mcast_net_ops);
}
