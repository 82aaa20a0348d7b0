/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * Recursion-based broadcast (Zhuang and Liberatore, "A Recursion-based
 * Broadcast Paradigm in Wormhole Routed Mesh/Torus Networks").  A broadcast
 * to every node of a mesh or torus whose sides are powers of two: the
 * message is scattered over an XOR-diagonal (stage 1), then recursive
 * rounds of mirror and shift shares re-assemble it in every sub-block until
 * the blocks are single nodes.
 *
 *   rb.c       the shapes, the program (which partner in which step), the
 *              per-node schedule and the whole-broadcast planner;
 *   rbroute.c  dimension-ordered unicast routes on the mesh or torus;
 *   rbcheck.c  the checkers;
 *   rbcost.c   the notes' closed forms, latency, and the choice against
 *              the U-torus tree.
 *
 * Shapes (sigma_i is dimension i, sigma_0 least significant in the node
 * index; every side 2^lg_i, so the index is the coordinates' bits side by
 * side and an XOR of indices is an XOR of coordinates):
 *   - cube: d >= 2 dimensions of 2^n each (notes 3.1, 3.3-3.5);
 *   - rect: 2D, 2^(m+k) x 2^m, either side the long one, 1 <= k <= 5
 *     (notes 3.2; the reduce takes 2^k - 1 steps).
 * Any source: every partner map is an XOR on coordinates relative to the
 * source (Thm 2, notes 3.4).
 *
 * Roles in a cube: d = 2, mirror sigma_1 and shift sigma_0 (the paper's
 * V_k and H_k: y and x); d >= 3, mirror sigma_0, split sigma_1..sigma_(d-2),
 * shifts sigma_(d-1) down to sigma_1 (notes 3.5; 3.3 for d = 3).  A rect
 * mirrors in its short dimension and shifts in its long one.
 *
 * Program.  A step is either a split (stage 1: every holder sends to
 * node ^ mask the units of its logical content whose unit bit @bit is 1,
 * and no longer holds them) or a share (every holder whose relative
 * coordinates pass the step's filter sends all its logical content to
 * node ^ mask; the rect's reduce is the only filtered share).  Logical
 * content is the notes' accounting (3.0): a stage-1 relay keeps its bytes
 * but never sends them again, so every transfer is what the closed forms
 * count.  All-port (notes 3.6.3, "dimension-pipelined RB"): d streams of
 * the message, stream i running the one-port roles with dimension
 * j -> (j + i) mod d, so that each step's streams use d distinct
 * dimensions; one-port has one stream.
 *
 * Units and bytes.  A stream has U = 2^ubits units (cube 2^(n+d-2), rect
 * 2^(m+k)); unit z of the notes' numbering (2D: home (xs^z, ys^z); splits
 * above the diagonal bits) lies at position pos(z) in its stream: the unit
 * bit split first is the most significant bit of the position, and so on.
 * Position g = stream * U + pos covers bytes [g*L/(S*U), (g+1)*L/(S*U))
 * (floors, so L need not divide; a unit may be empty when L < S*U).  The
 * stage-1 order decides how contiguous the transfers are:
 *   MC_RB_ORDER_RANGES  cube: the first split, the diagonal's smallest
 *                       bit, the other splits, the diagonal's other bits
 *                       smallest first (all-port: every split, then the
 *                       diagonal smallest first, which costs least);
 *                       rect: the diagonal smallest first, then the long
 *                       dimension largest first.  2D square and k = 1
 *                       rects: every transfer is one range (notes 3.1.4:
 *                       the bit-reversed layout); d >= 3: at most 2
 *                       (seen up to d = 6); rect: at most 2^(k-1) (a
 *                       small-first long stage 1 would contend); all-port
 *                       messages up to one range per stream;
 *   MC_RB_ORDER_PAPER   the paper's: diagonal largest first, then the
 *                       splits (rect: long dimension largest first, then
 *                       the diagonal).  Natural unit order in 2D, so the
 *                       notes' golden vectors read directly; all-port then
 *                       costs exactly notes 3.6.3.
 * One-port costs do not depend on the order; all-port with RANGES halves
 * per stream before the shared diagonal steps, a smaller beta (rbcost.c).
 *
 * Mesh or torus (notes 3.7): the same schedule.  Every partner pair lies
 * in an aligned block, so mesh routes are contention-free; on a torus,
 * minimal routes whose half-ring ties do not wrap (BTR) are too: the only
 * longer-than-half distances are the first mirror's, one pair per line.
 * A torus needs links both ways (every exchange uses both directions).
 */
#ifndef MC_RB_H
#define MC_RB_H

#include "topology.h"

#define MC_RB_MAX_STEPS		64
#define MC_RB_MAX_STREAMS	MC_MAX_DIMS
#define MC_RB_MAX_RECT_K	5
#define MC_RB_HOME		0xfe	/* mc_rb_node ws: held since stage 1 */

enum mc_rb_ports {
	MC_RB_ONE_PORT = 0,
	MC_RB_ALL_PORT = 1,
};

enum mc_rb_order {
	MC_RB_ORDER_RANGES = 0,
	MC_RB_ORDER_PAPER = 1,
};

enum mc_rb_shape {
	MC_RB_CUBE = 0,
	MC_RB_RECT = 1,
};

enum mc_rb_kind {
	MC_RB_SPLIT = 0,
	MC_RB_SHARE = 1,
};

struct mc_rb_op {
	u8 kind;			/* enum mc_rb_kind */
	u8 bit;				/* split: the unit bit */
	u32 mask[MC_RB_MAX_STREAMS];	/* partner = node ^ mask[stream] */
	u32 fmask;			/* share: ((node ^ src) & fmask) */
	u32 fval;			/*        must equal fval */
};

struct mc_rb {
	u8 d;
	u8 lg[MC_MAX_DIMS];	/* side of dimension i is 2^lg[i] */
	u8 off[MC_MAX_DIMS];	/* its first bit in a node index */
	u8 shape;		/* enum mc_rb_shape */
	u8 n;			/* cube: lg of a side; rect: of the long one */
	u8 m;			/* rect: lg of the short side (cube: n) */
	u8 ldim;		/* rect: long and short dimension */
	u8 sdim;
	bool mesh;
	u8 ports;		/* enum mc_rb_ports */
	u8 order;		/* enum mc_rb_order */
	u8 streams;		/* S: 1, or d all-port */
	u8 ubits;		/* U = 2^ubits units per stream */
	u8 splits;		/* stage-1 steps (= ubits) */
	u8 steps;		/* alpha */
	u8 pos_bit[32];		/* unit bit -> position bit */
	u32 nodes;
	struct mc_rb_op op[MC_RB_MAX_STEPS];
};

/*
 * Set up @rb for a broadcast on @t: the torus, or when @mesh the same grid
 * without its wrap links (t->links is then not read: mesh links are full
 * duplex, notes 1.1).
 * -EINVAL with *@why: a switched cluster, one dimension, a side not a power
 * of two, a torus of one-way links, unequal sides in 3D or more, all-port
 * on a rect, an unknown port model or order; -E2BIG: a rect with k > 5.
 */
int mc_rb_init(struct mc_rb *rb, const struct mc_torus *t, bool mesh,
	       enum mc_rb_ports ports, enum mc_rb_order order,
	       const char **why);

static inline u32 mc_rb_units(const struct mc_rb *rb)
{
	return 1u << rb->ubits;
}

/* Positions in all streams: S * U. */
static inline u32 mc_rb_positions(const struct mc_rb *rb)
{
	return (u32)rb->streams << rb->ubits;
}

/* Position of unit @z in its stream, and the inverse. */
u32 mc_rb_pos(const struct mc_rb *rb, u32 z);
u32 mc_rb_unit(const struct mc_rb *rb, u32 pos);

/* First byte of position @g (0..S*U) of a message of @len bytes. */
u64 mc_rb_byte(const struct mc_rb *rb, u32 g, u64 len);

/*
 * Where unit @z of stream @stream lies when stage 1 ends, relative to the
 * source (XOR it with the source): the notes' Phi.
 */
u32 mc_rb_home(const struct mc_rb *rb, u32 stream, u32 z);

/*
 * One contiguous byte range of one message.  A message is the records of
 * one (step, from, to), back to back; steps count from 0.  Records are
 * ordered by step, from, to, off, in every array this file fills.
 */
struct mc_rb_xfer {
	u32 step;
	u32 from;
	u32 to;
	u64 off;
	u64 len;
};

/*
 * The per-node schedule: the records @node sends and receives when @src
 * broadcasts @len bytes, without the rest of the broadcast:
 * O(S * U * steps) and a workspace of mc_rb_node_ws_bytes(); what a node
 * computes for itself.  Writes up to @max records to @out and their number
 * to *@count; -ENOSPC if more than @max (*@count then says how many; call
 * with @max 0 to size @out).  -EINVAL on a node out of range.  After the
 * call, @ws[stream * U + pos] is the step in which @node receives that
 * position in stage 2, MC_RB_HOME if it holds it since stage 1.
 */
u64 mc_rb_node_ws_bytes(const struct mc_rb *rb);
int mc_rb_node(const struct mc_rb *rb, u32 src, u32 node, u64 len, u8 *ws,
	       struct mc_rb_xfer *out, u64 max, u64 *count);

/*
 * The whole broadcast, by simulating every node's logical content (notes
 * 3.0), independently of mc_rb_node's algebra: for tests and tools.
 * Records go to @x (room for @cap); @n is their number, or the number
 * needed when -ENOSPC.  @ws: mc_rb_plan_ws_words() u64s.
 */
struct mc_rb_plan {
	const struct mc_rb *rb;
	u32 src;
	u64 len;
	struct mc_rb_xfer *x;
	u64 cap;
	u64 n;
};

u64 mc_rb_plan_ws_words(const struct mc_rb *rb);
int mc_rb_plan(struct mc_rb_plan *p, const struct mc_rb *rb, u32 src,
	       u64 len, u64 *ws);

/*
 * Routes (rbroute.c).  A channel is the link out of a node in one
 * dimension and direction: MC_RB_CHAN.
 *   DOR       highest dimension first, as the torus' BTR (routing.h);
 *             mesh: never wraps; torus: mc_route_next(BTR): minimal, a
 *             tie at half the ring does not wrap (notes 3.7 (b));
 *   XY        lowest dimension first (the paper's XY), else as DOR;
 *   TIE_PLUS  torus only: highest first, minimal, a tie wraps (+1): the
 *             notes' negative control, which contends in the first shift.
 */
enum mc_rb_route {
	MC_RB_ROUTE_DOR = 0,
	MC_RB_ROUTE_XY = 1,
	MC_RB_ROUTE_TIE_PLUS = 2,
};

#define MC_RB_CHAN(rb, node, dim, dir) \
	(((node) * (u32)(rb)->d + (dim)) * 2 + ((dir) > 0))

static inline u64 mc_rb_nchans(const struct mc_rb *rb)
{
	return (u64)rb->nodes * rb->d * 2;
}

/* Hops of the longest route. */
u32 mc_rb_route_max(const struct mc_rb *rb);

/*
 * The channels from @from to @to into @chan (room for @max); returns their
 * number, -EINVAL (a node out of range, TIE_PLUS on a mesh, an unknown
 * policy) or -ENOSPC.
 */
int mc_rb_route(const struct mc_rb *rb, enum mc_rb_route r, u32 from, u32 to,
		u32 *chan, u32 max);

/*
 * Checkers (rbcheck.c).  Each takes any plan, however it was made, and
 * reports the first violation with a static reason, the step, the records
 * and the node or channel involved (MC_NO_NODE / U64_MAX where none).
 *
 *   mc_rb_check_cover       records in order, nodes in range, no record
 *                           to itself, ranges non-empty, inside the message
 *                           and on position boundaries, steps below
 *                           rb->steps; a sender holds every byte it sends
 *                           (the source from the start, the others from a
 *                           step before); nobody gets a byte twice in one
 *                           step; at the end every node holds every byte;
 *   mc_rb_check_ports       one-port: at most one message out and one in
 *                           per node and step; all-port: at most one per
 *                           output and per input direction (its first and
 *                           last hop under @r);
 *   mc_rb_check_contention  Lemma 6: no two messages of one step share a
 *                           directed channel under @r;
 *   mc_rb_check_lemma6      2D square only, the notes' sharper statement
 *                           (2.10), without routes: a step is all diagonal
 *                           moves (senders in distinct rows, receivers in
 *                           distinct columns), all vertical (per column and
 *                           aligned block of the pair, one pair) or all
 *                           horizontal (per row and aligned block, at most
 *                           two flows, opposite ways);
 *   mc_rb_check_cost        alpha = the closed form's and beta * L = the
 *                           sum over steps of the largest message: exact
 *                           when S*U divides L; else, with W = beta * S*U
 *                           and q = floor(L / (S*U)) (a position has q or
 *                           q + 1 bytes), between W q and W (q + 1).
 */
struct mc_rb_check_result {
	const char *what;	/* NULL when the plan passed */
	u32 step;
	u64 xfer_a;
	u64 xfer_b;
	u32 node;
	u32 chan;
};

/* u32 words of scratch the checkers take in @ws. */
u64 mc_rb_check_ws_words(const struct mc_rb *rb);

int mc_rb_check_cover(const struct mc_rb_plan *p, u32 *ws,
		      struct mc_rb_check_result *res);
int mc_rb_check_ports(const struct mc_rb_plan *p, enum mc_rb_route r,
		      u32 *ws, struct mc_rb_check_result *res);
int mc_rb_check_contention(const struct mc_rb_plan *p, enum mc_rb_route r,
			   u32 *ws, struct mc_rb_check_result *res);
int mc_rb_check_lemma6(const struct mc_rb_plan *p, u32 *ws,
		       struct mc_rb_check_result *res);
int mc_rb_check_cost(const struct mc_rb_plan *p,
		     struct mc_rb_check_result *res);

/*
 * Costs (rbcost.c): T = alpha * Ts + beta * L * Tc (notes 1.4), beta a
 * fraction of L.
 */
struct mc_rb_cost {
	u32 alpha;
	u64 beta_num;
	u64 beta_den;
};

/*
 * The closed forms (notes 4.1-4.3, 3.5, 3.6.3), from the shape alone:
 *   2D square     3n, 5/2 - 1/2^(n-1);
 *   rect          3m + k + 2^k - 1, 5/2 + (k-2)/2^(m+1) - 1/2^(m+k);
 *   cube, d dims  (d+1)n + d - 2, 2 + (d-1)/2^(d-1) - d/2^(n+d-2);
 *   all-port      alpha as one-port; PAPER order: (1 - 2^-n) +
 *                 (beta_1 - (1 - 2^-n))/d (notes 3.6.3); RANGES order:
 *                 (1 - 2^-(d-2))/d + (1 - 2^-n)/2^(d-2) +
 *                 (beta_1 - 1 + 2^-(n+d-2))/d (ours: the splits per stream
 *                 first; the same for d = 2).
 */
void mc_rb_formula(const struct mc_rb *rb, struct mc_rb_cost *c);

/*
 * Model cost of a plan: its steps and the sum of each step's largest
 * message in bytes.
 */
void mc_rb_plan_cost(const struct mc_rb_plan *p, u32 *alpha, u64 *bytes);

/*
 * The U-torus tree on the same nodes (recursive halving, the whole
 * message every step): log2 N, log2 N; the notes' RD.
 */
void mc_rb_utorus_cost(const struct mc_rb *rb, struct mc_rb_cost *c);

/* floor(alpha * ts + beta * len * tc), saturating at U64_MAX. */
u64 mc_rb_time(const struct mc_rb_cost *c, u64 len, u64 ts, u64 tc);

/*
 * The rule for a send to every node of a shape mc_rb_init accepts: RB
 * instead of the U-torus tree when it is strictly faster in the model,
 * alpha_rb * Ts + beta_rb * L * Tc < log2 N * (Ts + L * Tc), and every
 * position has a byte (L >= S * U).  Since alpha_rb > log2 N and beta_rb <
 * log2 N on every shape, that is L >= the crossover
 *   floor(Ts (alpha_rb - log2 N) / (Tc (log2 N - beta_rb))) + 1.
 * Ts and Tc in any one time unit, integers below 2^32 (scale both: the
 * paper's 150 and 0.5 are 300 and 1).  U64_MAX when RB never wins (Tc 0).
 */
u64 mc_rb_crossover(const struct mc_rb *rb, u64 ts, u64 tc);
bool mc_rb_pick(const struct mc_rb *rb, u64 len, u64 ts, u64 tc);

#endif /* MC_RB_H */
