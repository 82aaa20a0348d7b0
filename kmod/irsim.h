/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mcast_irsim.ko: a simulated fabric with intermediate reception, as a
 * transport ("irsim") the nodes of this kernel attach to at their node id.
 *
 * One fabric per kernel, created and destroyed at run time through
 * debugfs (irsim_debugfs.c), in the manner of netdevsim: the model is
 * plan/fabric.c, run by a kernel thread (the fabric's "hardware"), as fast
 * as it can or paced to the wall clock.  Each datagram a node sends is a worm to its
 * peer's node id, and each worm of the offload path (->xmit_worm) visits
 * its destinations in order; a destination host gets its datagram when
 * the model says the last flit reached it (its IR copy).
 */
#ifndef MCAST_IRSIM_H
#define MCAST_IRSIM_H

#include <linux/ktime.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/spinlock.h>
#include <linux/wait.h>

#include "fabric.h"

struct mcast_net;

#define IRSIM_PAYLOAD		1452	/* bytes per datagram, as UDP's */
#define IRSIM_RXQ_MAX		1024	/* datagrams waiting at a host */
#define IRSIM_WORM_DESTS	64	/* destinations one worm visits */
#define IRSIM_WORM_HDR		4096	/* bytes of its compound header */
#define IRSIM_TRACE_WORMS	256	/* worms a trace records */
#define IRSIM_TRACE_HOPS	256	/* hops it keeps of each */

/* A finished worm, as the trace (debugfs "trace") shows it. */
struct irsim_trace_ent {
	u32 src, ndest, nhops;
	int err;
	u64 t_submit, t_end;		/* handover, end (virtual ns) */
	u64 blocked_ns;			/* its header waited for channels */
	u32 dest[IRSIM_WORM_DESTS];
	u32 chan[IRSIM_TRACE_HOPS];
};

/*
 * A node attached to the fabric.  Its transport opens before the node
 * knows its id (mcast_node_set opens first), so the fabric finds a host
 * by the node id it has when a worm arrives, and caches it in by_id[].
 */
struct irsim_host {
	struct mcast_net *mn;
	struct list_head link;		/* irsim.hosts */
	u32 cached_id;			/* its slot in by_id[], or NONE */
	spinlock_t lock;		/* rxq */
	struct list_head rxq;		/* struct irsim_pkt.link */
	u32 qlen;
};

/* Under irsim.lock but rx and rx_no_peer (a node's receive work). */
struct irsim_counters {
	u64 tx;			/* worms handed to the fabric */
	u64 tx_dests;		/* the destinations they visit */
	u64 tx_busy;		/* refused: worm pool full */
	u64 rx_no_host;		/* arrived where nobody is attached */
	u64 rx_overflow;	/* the host's queue was full */
	u64 lost;		/* worms that ended short */
	u64 completions;	/* short worms reported to their sender */
	u64 vlat_sum_ns;	/* deliveries' virtual latency: handover */
	u64 vlat_max_ns;	/* ... to the host's copy */
	atomic64_t rx;		/* handed to a host's data path */
	atomic64_t rx_no_peer;	/* from a node the host has no peer for */
};

struct irsim {
	struct mutex lock;		/* everything below */
	bool up;			/* a fabric exists */
	struct mc_fabric f;
	struct mc_fab_cfg cfg;
	u32 flit_bytes;
	u32 pace;			/* virtual ns per wall us; 0: flat out */
	ktime_t wall0;			/* wall time of virtual time 0 */
	struct list_head hosts;		/* every open node */
	struct irsim_host **by_id;	/* f.t.nodes entries, a cache */
	struct irsim_counters c;
	struct irsim_trace_ent *trace;	/* recording, or NULL */
	u32 ntrace;			/* entries in it */
	wait_queue_head_t wq;		/* the thread waits for work */
	bool work;
	struct task_struct *thread;
};

extern struct irsim irsim;

/* irsim.c: the thread and the transport; stop frees any fabric */
int irsim_start(void);
void irsim_stop(void);
int irsim_fabric_create(const struct mc_torus *t,
			const struct mc_fab_cfg *cfg, u32 flit_bytes,
			u32 pace, const char **why);
int irsim_fabric_destroy(void);
/* Starts (clearing it) or stops the trace of the worms that end. */
int irsim_trace_set(bool on);
/* The worm limits the transport declares (tests lower them). */
int irsim_set_worm_limits(u32 dests, u32 hdr);
void irsim_worm_limits(u32 *dests, u32 *hdr);

/* irsim_debugfs.c */
int irsim_debugfs_init(void);
void irsim_debugfs_exit(void);

#endif /* MCAST_IRSIM_H */
