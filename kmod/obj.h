/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * Live objects of each kind, over all nodes: every allocation of a message,
 * job, transfer or stream is counted here, and at module unload every count
 * must be back to 0 (main.c reports a leak in the kernel log).
 */
#ifndef MCAST_OBJ_H
#define MCAST_OBJ_H

#include <linux/atomic.h>
#include <linux/gfp.h>
#include <linux/types.h>

/*
 * The data path's allocations (what traffic makes: messages, jobs,
 * transfers, streams, queues): charged to a memory cgroup (the sender's,
 * or the node's: mcast_data_set_memcg()), and failing rather than calling
 * the OOM killer when that cgroup or the machine is full, so that a flood
 * from the network meets BUSY or a reported failure, and never kills the
 * processes of the container that runs the node.  No warning either: the
 * network can make it happen at will.
 */
#define MCAST_GFP	(GFP_KERNEL_ACCOUNT | __GFP_RETRY_MAYFAIL | __GFP_NOWARN)

enum mcast_obj {
	MCAST_OBJ_MSG,		/* struct mcast_msg */
	MCAST_OBJ_JOB,		/* a node's part in one message */
	MCAST_OBJ_TX,		/* one transfer to a child */
	MCAST_OBJ_STREAM,	/* FIFO state of a (sender, group) stream */
	MCAST_OBJ_KINDS
};

extern atomic_long_t mcast_live[MCAST_OBJ_KINDS];

/* kzalloc()/kfree() of one object of @kind, counted. */
void *mcast_obj_zalloc(size_t size, enum mcast_obj kind);
void mcast_obj_free(void *p, enum mcast_obj kind);

#endif /* MCAST_OBJ_H */
