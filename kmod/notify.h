/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * Events on the "mcast" family's events multicast group, in the node's
 * netns.  The data path and the local half of the node call down into
 * these; genl.c owns the family and lends it here while it is registered
 * (before that, and after, nothing is sent).
 */
#ifndef MCAST_NOTIFY_H
#define MCAST_NOTIFY_H

#include <linux/types.h>
#include <net/genetlink.h>

struct pid;
struct pid_namespace;

struct mcast_net;
struct mcast_group;

enum {
	MCAST_MCGRP_EVENTS_ID,
};

void mcast_notify_attach(const struct genl_family *family);
void mcast_notify_detach(void);

/* Someone in @mn's netns listens to the events group. */
bool mcast_listening(struct mcast_net *mn);
/* A new event message of @cmd, its header in *@hdr; NULL when out of memory. */
struct sk_buff *mcast_event_new(size_t size, u8 cmd, void **hdr);
/* Ends and sends an event mcast_event_new() began. */
void mcast_event_send(struct mcast_net *mn, struct sk_buff *skb, void *hdr);

/*
 * A group's attributes (MCAST_A_GROUP; @full: with its member arrays),
 * for replies and events, and the room they take; GROUP_NEW, GROUP_SET
 * (the whole group) or GROUP_DEL (id, epoch) of @g to the listeners.
 */
size_t mcast_group_size(const struct mcast_group *g);
int mcast_put_group(struct sk_buff *skb, const struct mcast_group *g,
		    bool full);
void mcast_notify_group(struct mcast_net *mn, u8 cmd,
			const struct mcast_group *g);

/* The pid namespace events give pids in (see notify.c); NULL: none. */
void mcast_notify_set_pidns(struct mcast_net *mn, struct pid_namespace *ns);
/* A local member joined or left @group (MEMBER_JOIN, MEMBER_LEAVE). */
void mcast_notify_member(struct mcast_net *mn, u8 cmd, u32 group,
			 struct pid *tgid);
/* A file of process @tgid dropped its first message since its last read. */
void mcast_notify_overflow(struct mcast_net *mn, u32 group, struct pid *tgid,
			   u32 drops);
/* A lossless file of process @tgid stalled on @group and was cut off. */
void mcast_notify_cutoff(struct mcast_net *mn, u32 group, struct pid *tgid);
/*
 * FABRIC_ALARM: the simulated fabric's check @err (EDEADLK, EPROTO) fired
 * on a worm @node (this node) sent; for mcast_irsim.ko.
 */
void mcast_notify_fabric(struct mcast_net *mn, u32 node, int err,
			 const char *what);
/* A data path event (PEER_DOWN, ERROR) about @node and message @seq. */
void mcast_notify_data(struct mcast_net *mn, u8 cmd, u32 node, u32 group,
		       u64 seq, int err);

/*
 * SEND_FAILED: message @seq to @group (0: a node list) ended with @n
 * destinations failed, @ids (sorted; @trunc: not all of them).
 */
void mcast_notify_send_failed(struct mcast_net *mn, u32 group, u64 seq,
			      const u32 *ids, u32 n, bool trunc);

#endif /* MCAST_NOTIFY_H */
