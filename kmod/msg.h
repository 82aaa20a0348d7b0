/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * Messages, and their local delivery: queueing to the node's open files,
 * each file's receive queue bounded, an overflow counted and reported.
 */
#ifndef MCAST_MSG_H
#define MCAST_MSG_H

#include <linux/list.h>
#include <linux/refcount.h>
#include <linux/types.h>

struct timer_list;

struct mcast_net;
struct mcast_group;
struct mcast_file;

#define MCAST_RXQ_LIMIT		256	/* messages queued per file */
#define MCAST_RXQ_BYTES		(64u << 20)	/* and their bytes */

/* A message, shared by every file it is queued to. */
struct mcast_msg {
	refcount_t ref;
	u32 group;
	u32 src_node;
	u32 len;
	u64 seq;
	u32 step;		/* U-torus step in which this node got it */
	u32 from_node;		/* the node that sent it here */
	u32 vlat_ns;		/* virtual clock only: its last worm's */
	u64 vtime_ns;		/* ... and when it was whole here */
	u8 data[];
};

/* A message queued to one file. */
struct mcast_rxent {
	struct list_head link;
	struct mcast_msg *msg;
};

struct mcast_msg *mcast_msg_alloc(u32 len);
void mcast_msg_put(struct mcast_msg *msg);

enum {
	MCAST_DELIVERED,	/* queued, or dropped where that was asked for */
	MCAST_BLOCKED,		/* nothing queued: a lossless file is full */
	MCAST_CUT,		/* a cut-off lossless file lost it */
};

/*
 * Local delivery of @msg, under mn->lock: to every file that joined
 * msg->group (@g), or with @all_files to every open file of the node;
 * @skip (the sender, unless it asked for loopback) is left out.  Returns
 * MCAST_DELIVERED, MCAST_BLOCKED or MCAST_CUT; only a group's delivery
 * blocks.
 */
int mcast_deliver_local(struct mcast_net *mn, struct mcast_msg *msg,
			struct mcast_group *g, bool all_files,
			struct mcast_file *skip);
/* A delivery of @len bytes to @g would block now (files marked wanted). */
bool mcast_deliver_blocked(struct mcast_net *mn, struct mcast_group *g,
			   u32 len, struct mcast_file *skip);
/* Takes the next message off @f's queue, or returns NULL; *dropped out. */
struct mcast_rxent *mcast_file_dequeue(struct mcast_file *f, u32 *dropped);
void mcast_rxent_free(struct mcast_rxent *e);
bool mcast_file_readable(struct mcast_file *f);

/*
 * A lossless file that held a delivery up has room (it read, or left the
 * group): senders on this node waiting for it look again.  Deliveries
 * held for it on the network side are retried by the node's tick.
 */
void mcast_room_made(struct mcast_net *mn);
void mcast_room_timer(struct timer_list *t);

/* Frees what is still queued to @f, which nobody can queue to any more. */
void mcast_file_purge(struct mcast_file *f);

#endif /* MCAST_MSG_H */
