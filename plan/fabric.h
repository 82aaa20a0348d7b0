/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * A simulated wormhole fabric with intermediate reception (IR): the model
 * the IR-fabric transport runs in the kernel and the evaluation simulator
 * runs in userspace (Robinson (1994), Sec. 5.1-5.6).
 *
 * The fabric is a regular unidirectional torus.  Every router has one
 * outgoing physical link per dimension, multiplexed over @vc_sets virtual
 * channels (2: the p and h sets of R_UTPR; 1: one set, which the theory
 * says can deadlock), each with a buffer of @buffer_flits flits at its
 * downstream end, and @ports consumption channels.  A worm
 * is an ordered destination list and a length in flits; it follows R_UTPR
 * from each destination to the next, and every destination's host gets a
 * copy of the flits that pass (IR, Fig 5.10).
 *
 * Time is virtual, in nanoseconds, advanced one flit time (@tau_n) per
 * cycle.  A node sends its worms one after another, in the order handed
 * over: a worm's start-up (@tau_s) begins when it was handed over and the
 * node's previous worm has left the node (its tail injected), as the proof
 * of Thm 6.1 assumes (a phase's worm precedes the holder's later ones).  A
 * worm moves at most one flit per physical link per cycle, and a host has
 * the message @tau_r after the last flit reached its router.  A worm alone on the fabric
 * therefore reaches a destination h hops away, L flits long, at
 *	tau_s + (h + L) * tau_n + tau_r.
 *
 * Every copy a host takes, at a destination on the way or at the last one,
 * holds a consumption channel while the worm passes.  With one per
 * incoming virtual channel (the default, the all-port node of Sec. 5.1) a
 * copy always finds one; with fewer, a copy that finds none is missed (the
 * flits go on, or drain at the last destination) and reported, never
 * waited for: a worm waiting for consumption while holding channels is the
 * deadlock through consumption channels the theory excludes.
 *
 * The model checks the dissertation's theorems as it runs: every channel a
 * worm acquires must come later than its previous one in the three-tier
 * order of the notes (p-channels by (label, dim) < boundary channels <
 * h-channels by (label, dim); Thm 5.1 as corrected), a worm crosses at
 * most one boundary, and the wait-for graph of blocked worms (each waits
 * on one channel's owner) has no cycle.  Violations are counted and
 * reported; a deadlock is broken by aborting one worm of the cycle.
 *
 * The caller owns all memory (no allocation here): arrays sized by
 * mc_fab_channels() and the worm pool, and one path array per worm sized
 * by mc_fab_path_len().
 */
#ifndef MC_FABRIC_H
#define MC_FABRIC_H
#include "routing.h"

#define MC_FAB_NONE	0xffffffffu
#define MC_FAB_MAX_BUF	4096
#define MC_FAB_MAX_PORTS 16

struct mc_fab_cfg {
	u8 vc_sets;		/* 1 or 2 */
	u8 ports;		/* consumption channels per node, 0: n*vcs */
	u16 buffer_flits;	/* B, flits per virtual channel buffer */
	u32 tau_s;		/* start-up at the sender, ns */
	u32 tau_r;		/* reception at the host, ns */
	u32 tau_n;		/* one flit over one link, ns (> 0) */
	u32 max_worms;		/* worm pool size */
};

/* One hop of a worm's path: the channel it takes, and what is there. */
struct mc_fab_hop {
	u32 chan;		/* channel index, see mc_fab_chan_of() */
	u32 dest;		/* the destination it reaches, or NONE */
	u16 flits;		/* flits now in this channel's buffer */
	bool port;		/* its IR copy holds a consumption channel */
	bool missed;		/* its host takes no copy of this worm */
	bool reached;		/* the header got here */
};

enum mc_fab_state {
	MC_FAB_FREE = 0,
	MC_FAB_STARTUP,		/* queued at its source, or in start-up */
	MC_FAB_ACTIVE,
	MC_FAB_SINK,		/* cut at a failed link: draining into nothing */
};

struct mc_fab_worm {
	u8 state;
	u8 alpha;		/* class of the channel last taken (UTPR) */
	u8 boundaries;
	bool injecting;		/* its tail has not left the source yet */
	bool consuming;		/* holds the last destination's consumption */
	u32 src;
	u32 ndest;
	const u32 *dest;	/* caller's list, valid until done */
	struct mc_fab_hop *path;/* caller's array of mc_fab_path_len() hops */
	u32 npath;
	u32 head;		/* hops acquired: path[0..head-1] */
	u32 tail;		/* first hop still held */
	u32 flits;		/* L */
	u32 to_inject;		/* flits still at the source */
	u32 delivered;		/* destinations whose copy is complete */
	u32 wait_chan;		/* channel the header waits for, or NONE */
	u64 rank;		/* three-tier rank of the last channel taken */
	u64 t_start;		/* when it may inject (after start-up) */
	u64 t_submit;
	u64 blocked_ns;		/* time its header spent waiting */
	u64 cookie;
	u32 seen;		/* deadlock search stamp */
	u32 q_next;		/* next worm of the same source */
};

/*
 * Per virtual channel.  The physical link's state (failed, last cycle it
 * carried a flit) lives in its first virtual channel's entry.
 */
struct mc_fab_chan {
	u32 owner;		/* worm index + 1, 0 when free */
	u16 peak;		/* peak buffer occupancy, flits */
	bool failed;		/* physical link down (entry of vc 0) */
	u64 used_cycle;		/* last cycle + 1 the link carried a flit */
	u64 flits;		/* flits carried */
	u64 blocked_ns;		/* time headers waited for this channel */
};

struct mc_fab_node {
	u8 cons_free;
	bool stalled;		/* router forwards nothing, host takes nothing */
	bool no_ir;		/* host does not take IR copies */
	u32 q_head, q_tail;	/* its worms not yet injected, in order */
};

struct mc_fab_stats {
	u64 worms;		/* handed over */
	u64 done;		/* completed every destination */
	u64 failed;		/* ended short of its last destination */
	u64 flit_hops;		/* flits moved over a link */
	u64 deliveries;
	u64 ir_copies;		/* deliveries at a destination not the last */
	u64 ir_missed;		/* copies a host did not take */
	u64 blocked_ns;		/* header waiting time, all worms */
	u64 deadlocks;
	u64 lambda_violations;	/* an acquisition out of the three-tier order */
	u64 boundary_violations;/* a worm's second boundary */
	u64 drops;		/* worms lost to the drop knob */
};

/* A destination's copy is complete, or its host missed it. */
enum mc_fab_copy {
	MC_FAB_COPY_OK = 0,
	MC_FAB_COPY_MISSED,	/* host took no IR copy (no_ir, no port) */
};

struct mc_fabric;

struct mc_fab_ops {
	/* The host of @w's destination @i has the message at @t_ns. */
	void (*deliver)(void *ctx, struct mc_fabric *f, u32 w, u32 i,
			enum mc_fab_copy copy, u64 t_ns);
	/*
	 * @w is over: @err 0 when its last destination got it, else why it
	 * stopped (-ENOLINK failed link, -EDEADLK broken deadlock, -EIO
	 * dropped, -ECANCELED aborted).  Its destination list and path may
	 * be reused after this returns; the slot is free.
	 */
	void (*done)(void *ctx, struct mc_fabric *f, u32 w, int err, u64 t_ns);
	/* Optional: @w took channel @chan (trace). */
	void (*hop)(void *ctx, struct mc_fabric *f, u32 w, u32 chan, u64 t_ns);
	/*
	 * Optional: a check failed on worm @w: -EDEADLK (it is on a cycle of
	 * the wait-for graph) or -EPROTO (a channel out of the three-tier
	 * order, a second boundary); @what says which.
	 */
	void (*alarm)(void *ctx, struct mc_fabric *f, u32 w, int err,
		      const char *what);
};

struct mc_fabric {
	struct mc_torus t;
	struct mc_fab_cfg cfg;
	const struct mc_fab_ops *ops;
	void *ctx;
	struct mc_fab_chan *chan;	/* mc_fab_channels() entries */
	struct mc_fab_node *node;	/* t.nodes entries */
	struct mc_fab_worm *worm;	/* cfg.max_worms entries */
	u64 now;			/* virtual time, ns (cycle boundary) */
	u64 cycle;
	u32 active;			/* worms not free */
	u32 drop_every;			/* knob: lose every Nth worm (0: none) */
	u32 drop_count;
	u32 stamp;		/* deadlock search */
	u32 hi;			/* worm slots in use are below this */
	struct mc_fab_stats st;
};

/* Number of virtual channels of a fabric of @t with @vc_sets sets. */
static inline u32 mc_fab_channels(const struct mc_torus *t, u8 vc_sets)
{
	return t->nodes * t->n * vc_sets;
}

static inline u32 mc_fab_chan_of(const struct mc_fabric *f, u32 node,
				 unsigned int dim, unsigned int vc)
{
	return (node * f->t.n + dim) * f->cfg.vc_sets + vc;
}

/* The node a channel leaves, its dimension and virtual channel. */
void mc_fab_chan_split(const struct mc_fabric *f, u32 chan, u32 *node,
		       unsigned int *dim, unsigned int *vc);

/*
 * Set up @f on torus @t (regular, unidirectional: -EINVAL otherwise, with
 * a reason in *@why) over the caller's zeroed arrays.
 */
int mc_fab_init(struct mc_fabric *f, const struct mc_torus *t,
		const struct mc_fab_cfg *cfg, struct mc_fab_chan *chan,
		struct mc_fab_node *node, struct mc_fab_worm *worm,
		const struct mc_fab_ops *ops, void *ctx, const char **why);

/*
 * Hops of the R_UTPR path from @src through @dest[0..ndest-1], or 0 with
 * *@why on a node outside the torus or a destination equal to the one
 * before it (the source first).
 */
u32 mc_fab_path_len(const struct mc_torus *t, u32 src, const u32 *dest,
		    u32 ndest, const char **why);

/*
 * Hand a worm to @src's interface at virtual time @t_submit (>= now):
 * @flits long, through @dest in order, with @path of mc_fab_path_len()
 * hops.  Returns the worm's index, -ENOSPC when the pool is full, -EINVAL
 * with *@why on a bad list.  @dest and @path stay the caller's until done.
 */
int mc_fab_send(struct mc_fabric *f, u32 src, const u32 *dest, u32 ndest,
		u32 flits, struct mc_fab_hop *path, u32 npath, u64 t_submit,
		u64 cookie, const char **why);

/* Release everything @w holds and end it with @err (its done() runs). */
void mc_fab_abort(struct mc_fabric *f, u32 w, int err);

/*
 * Run the fabric up to virtual time @until (or until nothing is left to
 * do, whichever is first; an idle fabric jumps to the next start).
 * Returns the number of cycles simulated.
 */
u64 mc_fab_run(struct mc_fabric *f, u64 until);

/* When the next thing happens: now if worms move, else the next start. */
u64 mc_fab_next_event(const struct mc_fabric *f);

/* Fault knobs. */
int mc_fab_set_link(struct mc_fabric *f, u32 node, unsigned int dim,
		    bool failed);
int mc_fab_set_node(struct mc_fabric *f, u32 node, bool stalled, bool no_ir);

/* Search the wait-for graph now; returns the deadlocks found and broken. */
u32 mc_fab_check_deadlock(struct mc_fabric *f);

#endif /* MC_FABRIC_H */
