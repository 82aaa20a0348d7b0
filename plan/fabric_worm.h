/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * The IR fabric of fabric.h at the level of worms: the same torus, the
 * same struct mc_fab_cfg, R_UTPR paths built by the same routing
 * functions, the same start-up, reception and flit-time semantics, and
 * bit-identical results (every delivery time, every worm's end, the
 * stats fabric_mcast.c and the evaluation read), but advanced by events
 * instead of one flit time per cycle.
 *
 * Why a worm can be described by its header alone.  In fabric.c a flit f
 * (0 the header, L-1 the tail) enters hop j at the first cycle where it
 * is in hop j-1, flit f-1 entered hop j a cycle before, and the buffer of
 * hop j has room, which, the worm being moved front to back, is when
 * flit f-B left it in that same cycle.  The last destination consumes one
 * flit a cycle, like a hop P = npath whose buffer never fills.  So
 *
 *	E(f, j) = max(E(f, j-1) + 1, E(f-1, j) + 1, E(f-B, j+1))
 *
 * with the header's E(0, j) the cycle it acquired hop j (E(0, P) =
 * E(0, P-1) + 1).  The longest path through this lattice gives
 *
 *	E(f, j) = f + jB + max { E(0, i) - iB : j <= i <= j + f/B }
 *
 * (the i = P term never wins for j < P: it is E(0, P-1) + 1 - PB).  The
 * tail (f = L-1) thus enters hop j once the header has acquired hop
 * j + (L-1)/B, or the last one: a worm blocked with finite buffers keeps
 * compressing until L flits fill B per hop behind the header, and its
 * channels are released as its tail passes, no sooner.  The model keeps
 * the cycle the header took each hop and a sliding window maximum over
 * them; a worm has an event when its header tries a channel (every cycle
 * while it advances, at a release while it waits), when its tail enters
 * the next hop (the hop behind is released, a destination on the way has
 * its copy, the source sends its next worm) and when the last destination
 * starts and ends consuming.
 *
 * Ties within a cycle.  fabric.c steps the worms in the order
 * (k + cycle) % hi of their slots, hi fixed at the cycle's start; a
 * channel released by one worm goes to a waiting header stepped later in
 * the same cycle, else the next cycle to the first in that cycle's order;
 * the consumption channels likewise; a send from inside deliver() takes
 * the lowest free slot.  This model counts cycles as fabric.c does (busy
 * cycles only: an idle fabric jumps to the next start), allocates slots
 * the same way and runs each cycle's events in that same order, worm by
 * worm in the order of fabric.c's step: the header or the consumption,
 * the header's arrival, then the tail.
 *
 * Two worms on one link.  With two channel sets a physical link carries
 * the p and the h channel, one flit per cycle between them: two worms
 * holding both take turns flit by flit in the rotating order, which is
 * no function of the header times.  When a worm takes a channel whose
 * sibling on the same link is held (by another worm or by itself), both
 * leave the closed form: their flits are laid out in the buffers as
 * fabric.c has them at that point of the cycle (from the same formula),
 * and from then on they are stepped every cycle exactly as fabric.c
 * steps them (flit mode), until they end.  The other worms stay events;
 * ownership, waiting and consumption channels are shared.  It costs
 * flit-level time for the worms concerned only; the 4096-node U-torus
 * broadcasts of make bench-worm never share a link.
 *
 * Refused at init: one channel set (it can deadlock, and fabric.c breaks
 * deadlocks on a 32-cycle clock this model does not keep; err is
 * -EDEADLK should every worm wait).  Not modelled: the fault knobs
 * (failed links, stalled nodes, no_ir hosts, drop_every, abort), which
 * the flit level keeps.
 *
 * The caller owns all memory (no allocation, no floating point): arrays
 * sized below, and one path of mc_fab_path_len() struct mc_fw_hop per
 * worm.  64-bit divisions: as fabric.c's.
 */
#ifndef MC_FABRIC_WORM_H
#define MC_FABRIC_WORM_H
#include "fabric_mcast.h"

struct mc_fw_hop {
	u32 chan;
	u32 dest;		/* destination reached here, or MC_FAB_NONE */
	u32 dq;			/* window maximum: a hop index (deque slot) */
	u16 flits;		/* flit mode: flits in this buffer */
	bool reached;		/* flit mode: the header got here */
	bool port;		/* its IR copy holds a consumption channel */
	bool missed;		/* its host takes no copy */
	u64 hc;			/* cycle the header entered this hop */
};

struct mc_fw_worm {
	u8 state;		/* enum mc_fab_state: FREE, STARTUP, ACTIVE */
	u8 heap;		/* which heap holds it (0: none) */
	u8 boundaries;
	bool injecting;
	bool consuming;		/* the last destination's channel */
	bool eating;		/* the last destination consumes */
	bool waiting;		/* its header waits for wait_chan */
	bool linked;		/* on wait_chan's list of waiters */
	bool fm;		/* flit mode: stepped every cycle, as fabric.c */
	u32 src;
	u32 ndest;
	const u32 *dest;
	struct mc_fw_hop *path;
	u32 npath;
	u32 head;		/* hops acquired */
	u32 tj;			/* the tail enters hop tj next (npath: eaten) */
	u32 flits;
	u32 to_inject;		/* flit mode: flits still at the source */
	u32 win;		/* (flits - 1) / B: hops the worm spans packed */
	u32 dq_lo, dq_hi;	/* window deque: path[dq_lo..dq_hi-1].dq */
	u32 pushed;		/* hops entered into the window */
	u32 delivered;
	u32 wait_chan;
	u32 wait_next;		/* next worm waiting for the same channel */
	u32 hpos;
	u32 q_next;
	u64 hkey;
	u64 t_tail;		/* cycle of the tail's next hop, U64_MAX: unknown */
	u64 wait_from;		/* cycle of its first failed try */
	u64 rank;
	u64 t_start;
	u64 t_submit;
	u64 blocked_ns;
	u64 cookie;
};

struct mc_fw_chan {
	u32 owner;		/* worm index + 1, 0 when free */
	u32 waiters;		/* first waiting worm + 1, 0: none */
	/* vc 0's entry: last cycle + 1 the link moved a flit-mode worm's flit */
	u64 used_cycle;
	u64 blocked_ns;
};

struct mc_fw;

struct mc_fw_ops {
	void (*deliver)(void *ctx, struct mc_fw *f, u32 w, u32 i,
			enum mc_fab_copy copy, u64 t_ns);
	void (*done)(void *ctx, struct mc_fw *f, u32 w, int err, u64 t_ns);
	void (*hop)(void *ctx, struct mc_fw *f, u32 w, u32 chan, u64 t_ns);
	void (*alarm)(void *ctx, struct mc_fw *f, u32 w, int err,
		      const char *what);
};

struct mc_fw_heap {
	u32 *a;
	u32 n;
};

struct mc_fw {
	struct mc_torus t;
	struct mc_fab_cfg cfg;
	const struct mc_fw_ops *ops;
	void *ctx;
	struct mc_fw_chan *chan;	/* mc_fab_channels() entries */
	struct mc_fab_node *node;	/* t.nodes entries */
	struct mc_fw_worm *worm;	/* cfg.max_worms entries */
	struct mc_fw_heap ev;		/* active worms by next event cycle */
	struct mc_fw_heap start;	/* queue heads by t_start */
	struct mc_fw_heap cur;		/* this cycle's, in fabric.c's order */
	u64 now;			/* as mc_fabric.now */
	u64 cycle;			/* as mc_fabric.cycle */
	u64 cur_cycle;			/* the cycle being run */
	u32 cur_hi;			/* its hi */
	u32 cur_key;			/* key of the worm being stepped */
	u32 active;			/* worms not free */
	u32 running;			/* worms past their start-up */
	u32 hi;
	u32 flit_worms;			/* worms that went to flit mode */
	int err;			/* -EDEADLK: every worm waits */
	struct mc_fab_stats st;
};

/* The three heaps' arrays: 3 * max_worms u32, carved by mc_fw_init. */
static inline u32 mc_fw_heap_words(const struct mc_fab_cfg *cfg)
{
	return 3 * cfg->max_worms;
}

/*
 * Set up @f like mc_fab_init (and -EINVAL with *@why on what this model
 * does not cover: one channel set).  @heap: mc_fw_heap_words() u32.
 */
int mc_fw_init(struct mc_fw *f, const struct mc_torus *t,
	       const struct mc_fab_cfg *cfg, struct mc_fw_chan *chan,
	       struct mc_fab_node *node, struct mc_fw_worm *worm, u32 *heap,
	       const struct mc_fw_ops *ops, void *ctx, const char **why);

/* As mc_fab_send, with a path of struct mc_fw_hop. */
int mc_fw_send(struct mc_fw *f, u32 src, const u32 *dest, u32 ndest,
	       u32 flits, struct mc_fw_hop *path, u32 npath, u64 t_submit,
	       u64 cookie, const char **why);

/* As mc_fab_run: the same cycles, the same stopping point. */
u64 mc_fw_run(struct mc_fw *f, u64 until);

/* ------------------------------------------------------------------ */
/*
 * Either model behind one interface, with planned multicasts (the
 * fabric_mcast.h bookkeeping; many at once, told apart by tag) driven on
 * it.  The caller gives one block of mc_fsim_mem() bytes.
 */

enum mc_fsim_model {
	MC_FSIM_FLIT = 0,
	MC_FSIM_WORM,
};

struct mc_fsim;

/* Optional observers, called after the multicast bookkeeping. */
struct mc_fsim_ops {
	void (*deliver)(void *ctx, struct mc_fsim *s, u32 w, u64 cookie,
			u32 i, enum mc_fab_copy copy, u64 t_ns);
	void (*done)(void *ctx, struct mc_fsim *s, u32 w, u64 cookie, int err,
		     u64 t_ns);
};

/*
 * Runs in the table at once.  A continuous workload (mcastsim load) keeps
 * hundreds in flight on a 16x16 torus near saturation and retires each
 * when it is over, so the table holds the ones in flight only.
 */
#define MC_FSIM_MAX_RUNS	1024

/* A tag no run may have: the cookie of worms sent by mc_fsim_send(). */
#define MC_FSIM_TAG_NONE	0xffffffffu

/* A planned multicast: fabric_mcast.h's, and the worm model's paths. */
struct mc_fsim_run {
	struct mc_fab_mcast *mm;
	struct mc_fw_hop *whops;	/* mc_fab_mcast_hops() entries */
};

struct mc_fsim {
	enum mc_fsim_model model;
	struct mc_fabric flit;
	struct mc_fw worm;
	const struct mc_fsim_ops *ops;
	void *ctx;
	struct mc_fsim_run run[MC_FSIM_MAX_RUNS];
	u32 nruns;
};

/* Bytes of memory mc_fsim_init() needs for @model on @t with @cfg. */
u64 mc_fsim_mem(enum mc_fsim_model model, const struct mc_torus *t,
		const struct mc_fab_cfg *cfg);

/* Set up @s over @mem (mc_fsim_mem() bytes, 8-byte aligned, any content). */
int mc_fsim_init(struct mc_fsim *s, enum mc_fsim_model model,
		 const struct mc_torus *t, const struct mc_fab_cfg *cfg,
		 void *mem, const struct mc_fsim_ops *ops, void *ctx,
		 const char **why);

/*
 * Add a multicast laid out by mc_fab_mcast_init() (mm->hops for the flit
 * model, @whops for the worm model; the other may be NULL) whose source
 * sends at @t0.  Its tag must be unique.  -ENOSPC past MC_FSIM_MAX_RUNS.
 */
int mc_fsim_mcast(struct mc_fsim *s, struct mc_fab_mcast *mm,
		  struct mc_fw_hop *whops, u64 t0);

/*
 * Take @mm's run out of the table (-ENOENT if it is not there): its slot
 * and its tag are free again.  Worms of it still in the fabric go on, but
 * their copies and ends are no longer booked in @mm (the observers still
 * see them).  Retire a run once its last worm is done.
 */
int mc_fsim_retire(struct mc_fsim *s, const struct mc_fab_mcast *mm);

/*
 * One worm outside any run (background traffic): as mc_fab_send or
 * mc_fw_send, with @fpath (flit level) or @wpath (worm level) of @npath =
 * mc_fab_path_len() hops; the other may be NULL.  @cookie >> 32 must be no
 * run's tag (MC_FSIM_TAG_NONE).  Returns the worm's slot or -errno.
 */
int mc_fsim_send(struct mc_fsim *s, u32 src, const u32 *dest, u32 ndest,
		 u32 flits, struct mc_fab_hop *fpath, struct mc_fw_hop *wpath,
		 u32 npath, u64 t, u64 cookie, const char **why);

/* Run to @until; returns cycles simulated. */
u64 mc_fsim_run(struct mc_fsim *s, u64 until);

/* The model's counters, virtual time, cycles, worms not done, error. */
const struct mc_fab_stats *mc_fsim_stats(const struct mc_fsim *s);
u64 mc_fsim_now(const struct mc_fsim *s);
u64 mc_fsim_cycles(const struct mc_fsim *s);
u32 mc_fsim_active(const struct mc_fsim *s);
int mc_fsim_err(const struct mc_fsim *s);

#endif /* MC_FABRIC_WORM_H */
