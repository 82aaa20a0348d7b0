// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Per-network-namespace node state: each netns is one node of the cluster,
 * with its topology, peers, groups, open files and statistics; the local
 * members of each group.
 */
#include <linux/slab.h>
#include <linux/mm.h>
#include <net/ipv6.h>
#include <net/netns/generic.h>
#include <net/net_namespace.h>

#include "net.h"
#include "msg.h"
#include "notify.h"

unsigned int mcast_net_id __read_mostly;

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
	if (!m->lossy)
		mcast_room_made(mn);	/* it may have held deliveries up */
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

void mcast_file_detach(struct mcast_file *f)
{
	struct mcast_net *mn = f->mn;
	struct mcast_member *m, *tmp;

	mutex_lock(&mn->lock);
	list_for_each_entry_safe(m, tmp, &f->groups, file_link)
		mcast_member_drop(mn, m);
	list_del(&f->node_link);
	mn->nfiles--;
	mutex_unlock(&mn->lock);

	mcast_file_purge(f);
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

/* A one-element node array of @id, or NULL. */
static u32 *mcast_u32_one(u32 id)
{
	u32 *a = kvmalloc(sizeof(u32), GFP_KERNEL_ACCOUNT);

	if (a)
		*a = id;
	return a;
}

/*
 * The group a join names when the node does not have it yet: this node
 * its only member (a valid chain of one), until mcastd, told by the
 * GROUP_NEW notification, installs its members across the cluster.
 */
static struct mcast_group *mcast_group_create(struct mcast_net *mn, u32 id,
					      int *err)
{
	bool ham = mn->torus.regular && mn->torus.links == MC_LINKS_UNI;
	struct mcast_group *g;

	lockdep_assert_held(&mn->lock);
	*err = -ENETDOWN;
	if (!mn->configured)
		return NULL;
	*err = -ENOSPC;
	if (mn->ngroups >= MCAST_MAX_GROUPS)
		return NULL;
	*err = -ENOMEM;
	g = kzalloc(sizeof(*g), GFP_KERNEL_ACCOUNT);
	if (!g)
		return NULL;
	g->id = id;
	g->epoch = 1;
	INIT_LIST_HEAD(&g->local);
	g->nmembers = 1;
	g->members = mcast_u32_one(mn->node_id);
	g->rchain = mcast_u32_one(mn->node_id);
	if (ham)
		g->hcycle = mcast_u32_one(mn->node_id);
	if (!g->members || !g->rchain || (ham && !g->hcycle))
		goto fail;
	*err = xa_insert(&mn->groups, id, g, GFP_KERNEL_ACCOUNT);
	if (*err)
		goto fail;
	mn->ngroups++;
	mcast_notify_group(mn, MCAST_CMD_GROUP_NEW, g);
	return g;
fail:
	mcast_group_free(g);
	return NULL;
}

int mcast_group_join(struct mcast_file *f, u32 group, u32 flags)
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
	if (!g)
		g = mcast_group_create(mn, group, &err);
	if (!g)
		goto out;
	if (mcast_file_member(f, g)) {
		err = -EALREADY;
		goto out;
	}
	m->file = f;
	m->group = g;
	m->lossy = flags & MCAST_JOIN_LOSSY;
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

static bool mcast_peer_ip_is(const struct mcast_peer *p,
			     const struct in6_addr *a)
{
	if (p->ipv6)
		return ipv6_addr_equal(&p->addr.v6, a);
	return ipv6_addr_v4mapped(a) && a->s6_addr32[3] == p->addr.v4;
}

bool mcast_peer_addr_is(const struct mcast_peer *p,
			const struct sockaddr_in6 *sa)
{
	return mcast_peer_ip_is(p, &sa->sin6_addr) &&
	       (!sa->sin6_port || ntohs(sa->sin6_port) == p->port);
}

u32 mcast_addr_peers(struct mcast_net *mn, const struct sockaddr_in6 *sa)
{
	struct mcast_peer *p;
	unsigned long id;
	u32 n = 0;

	lockdep_assert_held(&mn->lock);
	xa_for_each(&mn->peers, id, p)
		if (mcast_peer_ip_is(p, &sa->sin6_addr))
			n++;
	return n;
}

void mcast_net_setup(struct mcast_net *mn, struct net *net)
{
	mn->net = net;
	mutex_init(&mn->lock);
	mn->node_id = MCAST_NO_NODE;
	xa_init(&mn->peers);
	xa_init(&mn->groups);
	INIT_LIST_HEAD(&mn->files);
}

/* Files hold a reference on their netns, so none is open here. */
void mcast_net_teardown(struct mcast_net *mn)
{
	struct mcast_group *g;
	struct mcast_peer *p;
	unsigned long id;

	WARN_ON_ONCE(!list_empty(&mn->files));
	mutex_lock(&mn->lock);
	xa_for_each(&mn->groups, id, g)
		mcast_group_destroy(mn, g);
	xa_for_each(&mn->peers, id, p) {
		xa_erase(&mn->peers, id);
		kfree(p);
	}
	mn->npeers = 0;
	mn->torus.rank = NULL;
	mn->torus.unrank = NULL;
	kvfree(mn->sw_rank);
	kvfree(mn->sw_unrank);
	mcast_notify_set_pidns(mn, NULL);
	mutex_unlock(&mn->lock);
	xa_destroy(&mn->groups);
	xa_destroy(&mn->peers);
	mutex_destroy(&mn->lock);
}
