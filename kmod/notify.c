// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Events on the "mcast" family's events multicast group (notify.h): the
 * node's own (member joins and leaves, groups made, set and deleted,
 * receive queue overflows) and the data path's (a peer stopped answering,
 * a destination is unreachable).
 * Each is built only when someone in the node's netns listens.
 */
#include <linux/pid_namespace.h>
#include <linux/rcupdate.h>
#include <net/genetlink.h>

#include "net.h"
#include "notify.h"

/* genl.c's family while it is registered, else NULL: nothing is sent. */
static const struct genl_family *mcast_notify_family;

void mcast_notify_attach(const struct genl_family *family)
{
	WRITE_ONCE(mcast_notify_family, family);
}

void mcast_notify_detach(void)
{
	WRITE_ONCE(mcast_notify_family, NULL);
}

bool mcast_listening(struct mcast_net *mn)
{
	const struct genl_family *family = READ_ONCE(mcast_notify_family);

	return family && genl_has_listeners(family, mn->net,
					    MCAST_MCGRP_EVENTS_ID);
}

struct sk_buff *mcast_event_new(size_t size, u8 cmd, void **hdr)
{
	const struct genl_family *family = READ_ONCE(mcast_notify_family);
	struct sk_buff *skb;

	if (!family)
		return NULL;
	skb = genlmsg_new(size, GFP_KERNEL);
	if (!skb)
		return NULL;
	*hdr = genlmsg_put(skb, 0, 0, family, 0, cmd);
	if (!*hdr) {
		nlmsg_free(skb);
		return NULL;
	}
	return skb;
}

void mcast_event_send(struct mcast_net *mn, struct sk_buff *skb, void *hdr)
{
	const struct genl_family *family = READ_ONCE(mcast_notify_family);

	genlmsg_end(skb, hdr);
	if (!family) {
		nlmsg_free(skb);
		return;
	}
	genlmsg_multicast_netns(family, mn->net, skb, 0,
				MCAST_MCGRP_EVENTS_ID, GFP_KERNEL);
}

/*
 * Events name a file's process by its pid as the process that configured
 * the node sees it (mcastd, or an admin inside the container), so that a
 * container's tools get the container's numbers, not the host's: 0 for
 * a process that namespace cannot see.  Before any configuration, the
 * initial namespace's.  @ns NULL: the node goes.
 */
void mcast_notify_set_pidns(struct mcast_net *mn, struct pid_namespace *ns)
{
	struct pid_namespace *old;

	lockdep_assert_held(&mn->lock);
	old = rcu_replace_pointer(mn->pidns, ns ? get_pid_ns(ns) : NULL,
				  lockdep_is_held(&mn->lock));
	/* 6.1's put_pid_ns() takes no NULL; it frees after a grace period */
	if (old)
		put_pid_ns(old);
}

static pid_t mcast_notify_pid(struct mcast_net *mn, struct pid *pid)
{
	struct pid_namespace *ns;
	pid_t nr;

	rcu_read_lock();
	ns = rcu_dereference(mn->pidns);
	nr = pid_nr_ns(pid, ns ? ns : &init_pid_ns);
	rcu_read_unlock();
	return nr;
}

static void mcast_notify_event(struct mcast_net *mn, u8 cmd, u32 group,
			       struct pid *tgid, u32 drops)
{
	struct sk_buff *skb;
	struct nlattr *nest;
	void *hdr;

	if (!mcast_listening(mn))
		return;
	skb = mcast_event_new(NLMSG_GOODSIZE, cmd, &hdr);
	if (!skb)
		return;
	nest = nla_nest_start(skb, MCAST_A_EVENT);
	if (!nest ||
	    (group && nla_put_u32(skb, MCAST_EVENT_A_GROUP, group)) ||
	    nla_put_u32(skb, MCAST_EVENT_A_PID, mcast_notify_pid(mn, tgid)) ||
	    (cmd == MCAST_CMD_OVERFLOW &&
	     nla_put_u32(skb, MCAST_EVENT_A_DROPS, drops))) {
		nlmsg_free(skb);
		return;
	}
	nla_nest_end(skb, nest);
	mcast_event_send(mn, skb, hdr);
}

/*
 * The room an event of the data path takes: sized, not NLMSG_GOODSIZE, so
 * that a burst of them (a send to many unreachable nodes) fits a
 * listener's receive buffer.
 */
static size_t mcast_data_event_size(const char *msg, u32 nodes)
{
	return nla_total_size(0) + 3 * nla_total_size(sizeof(u32)) +
	       nla_total_size_64bit(sizeof(u64)) + nla_total_size(0) +
	       nla_total_size(nodes * sizeof(u32)) +
	       nla_total_size(strlen(msg) + 1);
}

void mcast_notify_data(struct mcast_net *mn, u8 cmd, u32 node, u32 group,
		       u64 seq, int err)
{
	const char *msg = cmd == MCAST_CMD_PEER_DOWN ?
		"peer stopped answering, its piece taken over" :
		"destination unreachable";
	struct sk_buff *skb;
	struct nlattr *nest;
	void *hdr;

	if (!mcast_listening(mn))
		return;
	skb = mcast_event_new(mcast_data_event_size(msg, 0), cmd, &hdr);
	if (!skb)
		return;
	nest = nla_nest_start(skb, MCAST_A_EVENT);
	if (!nest ||
	    (group && nla_put_u32(skb, MCAST_EVENT_A_GROUP, group)) ||
	    nla_put_u32(skb, MCAST_EVENT_A_NODE, node) ||
	    nla_put_u64_64bit(skb, MCAST_EVENT_A_SEQ, seq, MCAST_EVENT_A_PAD) ||
	    nla_put_u32(skb, MCAST_EVENT_A_ERRNO, err) ||
	    nla_put_string(skb, MCAST_EVENT_A_MSG, msg)) {
		nlmsg_free(skb);
		return;
	}
	nla_nest_end(skb, nest);
	mcast_event_send(mn, skb, hdr);
}

void mcast_notify_send_failed(struct mcast_net *mn, u32 group, u64 seq,
			      const u32 *ids, u32 n, bool trunc)
{
	static const char msg[] = "message not delivered at these destinations";
	struct sk_buff *skb;
	struct nlattr *nest;
	void *hdr;

	if (!mcast_listening(mn))
		return;
	if (n > MCAST_EVENT_NODES_MAX) {
		n = MCAST_EVENT_NODES_MAX;
		trunc = true;
	}
	skb = mcast_event_new(mcast_data_event_size(msg, n),
			      MCAST_CMD_SEND_FAILED, &hdr);
	if (!skb)
		return;
	nest = nla_nest_start(skb, MCAST_A_EVENT);
	if (!nest ||
	    (group && nla_put_u32(skb, MCAST_EVENT_A_GROUP, group)) ||
	    nla_put_u64_64bit(skb, MCAST_EVENT_A_SEQ, seq, MCAST_EVENT_A_PAD) ||
	    nla_put(skb, MCAST_EVENT_A_NODES, n * sizeof(u32), ids) ||
	    (trunc && nla_put_flag(skb, MCAST_EVENT_A_TRUNC)) ||
	    nla_put_string(skb, MCAST_EVENT_A_MSG, msg)) {
		nlmsg_free(skb);
		return;
	}
	nla_nest_end(skb, nest);
	mcast_event_send(mn, skb, hdr);
}

void mcast_notify_fabric(struct mcast_net *mn, u32 node, int err,
			 const char *what)
{
	struct sk_buff *skb;
	struct nlattr *nest;
	void *hdr;

	if (!mcast_listening(mn))
		return;
	skb = mcast_event_new(NLMSG_GOODSIZE, MCAST_CMD_FABRIC_ALARM, &hdr);
	if (!skb)
		return;
	nest = nla_nest_start(skb, MCAST_A_EVENT);
	if (!nest || nla_put_u32(skb, MCAST_EVENT_A_NODE, node) ||
	    nla_put_u32(skb, MCAST_EVENT_A_ERRNO, err) ||
	    nla_put_string(skb, MCAST_EVENT_A_MSG, what)) {
		nlmsg_free(skb);
		return;
	}
	nla_nest_end(skb, nest);
	mcast_event_send(mn, skb, hdr);
}
EXPORT_SYMBOL_GPL(mcast_notify_fabric);

void mcast_notify_member(struct mcast_net *mn, u8 cmd, u32 group,
			 struct pid *tgid)
{
	mcast_notify_event(mn, cmd, group, tgid, 0);
}

void mcast_notify_overflow(struct mcast_net *mn, u32 group, struct pid *tgid,
			   u32 drops)
{
	mcast_notify_event(mn, MCAST_CMD_OVERFLOW, group, tgid, drops);
}

void mcast_notify_cutoff(struct mcast_net *mn, u32 group, struct pid *tgid)
{
	mcast_notify_event(mn, MCAST_CMD_CUTOFF, group, tgid, 0);
}

size_t mcast_group_size(const struct mcast_group *g)
{
	size_t arr = nla_total_size(g ? g->nmembers * sizeof(u32) : 0);

	return nla_total_size(0) + 4 * nla_total_size(sizeof(u32)) +
	       nla_total_size(sizeof(u8)) + 3 * arr;
}

/* @full: with the member arrays (replies, set notifications). */
int mcast_put_group(struct sk_buff *skb, const struct mcast_group *g,
		    bool full)
{
	size_t bytes = g->nmembers * sizeof(u32);
	struct nlattr *nest;

	nest = nla_nest_start(skb, MCAST_A_GROUP);
	if (!nest)
		return -EMSGSIZE;
	if (nla_put_u32(skb, MCAST_GROUP_A_ID, g->id) ||
	    nla_put_u32(skb, MCAST_GROUP_A_EPOCH, g->epoch) ||
	    nla_put_u32(skb, MCAST_GROUP_A_LOCAL, g->nlocal) ||
	    (g->managed && nla_put_u8(skb, MCAST_GROUP_A_MANAGED, 1)))
		goto cancel;
	if (full && g->members &&
	    (nla_put(skb, MCAST_GROUP_A_MEMBERS, bytes, g->members) ||
	     nla_put(skb, MCAST_GROUP_A_RCHAIN, bytes, g->rchain) ||
	     (g->hcycle &&
	      nla_put(skb, MCAST_GROUP_A_HCYCLE, bytes, g->hcycle))))
		goto cancel;
	nla_nest_end(skb, nest);
	return 0;
cancel:
	nla_nest_cancel(skb, nest);
	return -EMSGSIZE;
}

void mcast_notify_group(struct mcast_net *mn, u8 cmd,
			const struct mcast_group *g)
{
	bool full = cmd != MCAST_CMD_GROUP_DEL;
	struct sk_buff *skb;
	void *hdr;

	if (!mcast_listening(mn))
		return;
	skb = mcast_event_new(mcast_group_size(full ? g : NULL), cmd, &hdr);
	if (!skb)
		return;
	if (mcast_put_group(skb, g, full)) {
		nlmsg_free(skb);
		return;
	}
	mcast_event_send(mn, skb, hdr);
}

