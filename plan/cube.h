/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * Unicast-based multicast on all-port binary n-cubes (Robinson (1994),
 * chapter 3: U-cube, Maxport, Combine and W-sort over E-cube routing).
 *
 *   cube.c       addresses, E-cube paths, S-cubes, the orders: the
 *                source-relative dimension-ordered chain, cube order
 *                (Def 3.5), WeightedSort and CubeCenter (Fig 3.8);
 *   cubecast.c   the generalized algorithm (Fig 3.5) and the step model;
 *   cubecheck.c  the checkers.
 *
 * A node is its n-bit address, sigma_0 the least significant bit, written
 * highest bit first as the dissertation does ("0101").  E-cube routing
 * corrects the HIGHEST differing bit first (Def 3.1), so the dimension
 * order <_d is integer order and delta(u, v), the highest differing bit,
 * is the channel u sends on (Def 3.2).  A directed arc is (node, dim): the
 * channel from node to node ^ (1 << dim).
 *
 * Every algorithm works on a chain of absolute addresses in source-relative
 * order (sorted by address ^ source; delta is XOR-invariant), the source
 * first.  Each holder owns a contiguous piece of it and runs Fig 3.5:
 *
 *   k = delta(d_left, d_right); highdim = the first i with
 *   delta(d_left, d_i) = k; center = left + ceil((right - left) / 2);
 *   next = center (U-cube), highdim (Maxport), max of both (Combine);
 *   send d_next..d_right to d_next; right = next - 1; until left = right.
 *
 * W-sort is Maxport over the chain permuted by WeightedSort, so that in
 * every S-cube the more populated half comes first.
 *
 * Steps (notes 3.7, all-port): a node that received in step r issues its
 * sends in the order above; send j goes in step
 *   t_j = max(r + 1, t_{j-1}, last step on the same channel + 1):
 * sends on different channels share a step, sends on one channel take one
 * step each, and no send is injected before one issued earlier (U-cube and
 * Combine need that for depth-contention freedom).  One-port: t_j = r+j+1.
 */
#ifndef MC_CUBE_H
#define MC_CUBE_H

#include "chain.h"

#define MC_CUBE_MAX_DIM		20

enum mc_cube_algo {
	MC_CUBE_UCUBE = 0,
	MC_CUBE_MAXPORT = 1,
	MC_CUBE_COMBINE = 2,
	MC_CUBE_WSORT = 3,
	MC_CUBE_HANDMADE = 4,	/* a caller's schedule: no algorithm's rules */
};

enum mc_cube_port {
	MC_CUBE_ALL_PORT = 0,
	MC_CUBE_ONE_PORT = 1,
};

/* The channel from @node in dimension @dim. */
struct mc_cube_arc {
	u32 node;
	u32 dim;
};

static inline u32 mc_cube_nodes(u32 n)
{
	return 1u << n;
}

/* delta(u, v) (Def 3.2): the highest differing bit; u != v. */
static inline u32 mc_cube_delta(u32 u, u32 v)
{
	return 31 - __builtin_clz(u ^ v);
}

/* Hops of the E-cube path: the bits in which @u and @v differ. */
static inline u32 mc_cube_hops(u32 u, u32 v)
{
	return mc_popcount32(u ^ v);
}

/* Whether @v lies in the S-cube <@prefix> of dimension @ns (Def 3.3). */
static inline bool mc_cube_in_scube(u32 v, u32 prefix, u32 ns)
{
	return (ns >= 32 ? 0 : v >> ns) == prefix;
}

/* 0, or -EINVAL with *@why unless 1 <= @n <= MC_CUBE_MAX_DIM. */
int mc_cube_check_dim(u32 n, const char **why);

/*
 * The E-cube path from @u to @v (Def 3.1) as arcs, highest dimension
 * first, into @arc (room for @max); their number, or -EINVAL (a node
 * outside the n-cube) or -ENOSPC.  u = v is the empty path.
 */
int mc_cube_path(u32 n, u32 u, u32 v, struct mc_cube_arc *arc, u32 max);

/*
 * The chain @algo sorts by: @src, then @dst sorted by address ^ src (the
 * src-relative dimension-ordered chain), for W-sort then WeightedSort;
 * ndst + 1 entries into @chain.  -EINVAL with *@why on a bad dimension, a
 * node outside the cube, the source among the destinations, a repeat.
 */
int mc_cube_order(u32 n, enum mc_cube_algo algo, u32 src, const u32 *dst,
		  u32 ndst, u32 *chain, const char **why);

/*
 * Cube order (Def 3.5): the members of every S-cube are contiguous; also
 * every node inside the n-cube and none twice (in a cube-ordered chain a
 * repeat would be adjacent).  XOR-invariant, so relative and absolute
 * chains alike.  O(len * n).
 */
bool mc_cube_is_cube_ordered(u32 n, const u32 *chain, u32 len);

/*
 * CubeCenter (Fig 3.8): @chain[first..last] lies in one S-cube of
 * dimension @ns; the index where its second half (bit ns-1 unlike
 * chain[first]'s) starts, or last + 1 if that half is empty.  O(log).
 */
u32 mc_cube_center(const u32 *chain, u32 first, u32 last, u32 ns);

/*
 * WeightedSort(D, 0, len-1, n) in place over a cube-ordered @chain whose
 * chain[0] stays first: in every S-cube the half with more members goes
 * first (a tie keeps the order).  Thm 3.5: the result is a cube-ordered
 * permutation.  Recursion depth n, O(len * n) moves.
 */
void mc_cube_weighted_sort(u32 n, u32 *chain, u32 len);

/*
 * Fig 3.5 at the holder @chain[left] of chain[left..right], left < right:
 * the index it sends chain[next..right] to (then right = next - 1).  The
 * piece must be cube-ordered (delta from chain[left] then never falls, so
 * highdim is a binary search).  W-sort forwards as Maxport.
 */
u32 mc_cube_split(const u32 *chain, u32 left, u32 right,
		  enum mc_cube_algo algo);

/*
 * The data path's side: one holder's sends, and what a receiver checks of
 * a piece from the network.
 *
 * mc_cube_chain_order: @chain[0..m-1] with @chain[0] the source (the rest
 * in any order) into the chain @algo sorts by, in place: what
 * mc_cube_order makes.  -EINVAL with *@why as mc_cube_order's.
 */
int mc_cube_chain_order(u32 n, enum mc_cube_algo algo, u32 *chain, u32 m,
			const char **why);

/*
 * A piece from the network: its holder first, cube-ordered (Def 3.5),
 * every node inside the n-cube and none twice.  Every algorithm's pieces
 * are (a slice of a cube-ordered chain is one), and Fig 3.5 terminates on
 * any: 0, or -EINVAL with *@why.  O(len * n).
 */
int mc_cube_piece_verify(u32 n, const u32 *nodes, u32 len, const char **why);

/* Whether @id is in the piece @nodes (O(len): pieces hold <= 2^n nodes). */
bool mc_cube_piece_has(const u32 *nodes, u32 len, u32 id);

/*
 * One holder running Fig 3.5 over its piece @chain[0..len-1] (itself
 * first), having received in step @r: each call yields its next send
 * (chain[to..to+len-1] to chain[to]) in the step the port model gives.
 * No allocation; the channel table lives in the struct.
 */
struct mc_cube_holder {
	const u32 *chain;
	enum mc_cube_algo algo;
	enum mc_cube_port port;
	u32 right;		/* what is left to send: chain[1..right] */
	u32 r;
	u32 t;			/* the last send's step */
	u32 seq;
	u32 last[MC_CUBE_MAX_DIM];	/* a channel's last step */
};

void mc_cube_holder_init(struct mc_cube_holder *h, const u32 *chain, u32 len,
			 enum mc_cube_algo algo, enum mc_cube_port port,
			 u32 r);

/* The next send into *@to, *@len, *@step; false when the holder is done. */
bool mc_cube_holder_next(struct mc_cube_holder *h, u32 *to, u32 *len,
			 u32 *step);

/* One unicast of a schedule. */
struct mc_cube_send {
	u32 step;	/* 1-based; the source holds the message at step 0 */
	u32 from;	/* chain position of the sender */
	u32 to;		/* chain position of the receiver */
	u32 len;	/* the receiver is responsible for chain[to..to+len-1] */
	u32 seq;	/* issue order among its sender's sends, from 0 */
};

/*
 * A schedule over chain[0..m-1], chain[0] the source.  The caller provides
 * chain (m) and send (m - 1, at least 1) entries.  Sends are grouped by
 * sender, each sender's in issue order, every sender after the send that
 * reached it.
 */
struct mc_cube_schedule {
	u32 n;			/* dimension */
	enum mc_cube_algo algo;
	enum mc_cube_port port;
	u32 m;			/* nodes including the source */
	u32 *chain;
	struct mc_cube_send *send;
	u32 nsend;
	u32 steps;
};

/* The channel send @i leaves on. */
static inline u32 mc_cube_send_dim(const struct mc_cube_schedule *s, u32 i)
{
	return mc_cube_delta(s->chain[s->send[i].from],
			     s->chain[s->send[i].to]);
}

/*
 * Plan a multicast from @src to @dst[0..ndst-1]: the chain by
 * mc_cube_order into s->chain (s->m = ndst + 1), Fig 3.5 at every holder,
 * steps by the @port model.  Errors as mc_cube_order's, and -EINVAL on
 * MC_CUBE_HANDMADE or an unknown algorithm or port.
 */
int mc_cube_plan(struct mc_cube_schedule *s, u32 n, enum mc_cube_algo algo,
		 enum mc_cube_port port, u32 src, const u32 *dst, u32 ndst,
		 const char **why);

/*
 * Fig 3.5 by @algo over the caller's s->chain[0..s->m-1] as it is (W-sort:
 * the chain taken as already weighted).  -EINVAL with *@why unless it is
 * a cube-ordered chain (Maxport is contention-free on any: Thm 3.6).
 */
int mc_cube_plan_chain(struct mc_cube_schedule *s, u32 n,
		       enum mc_cube_algo algo, enum mc_cube_port port,
		       const char **why);

/* Total hops of all sends. */
u64 mc_cube_total_hops(const struct mc_cube_schedule *s);

/*
 * Checkers.  Each takes any schedule, however it was made, and reports the
 * first violation with a static reason and the sends, node and arc
 * involved (MC_NO_NODE where none):
 *
 *   mc_cube_check_cover       the chain: nodes of the n-cube, none twice;
 *                             one send per destination, never to the
 *                             source; a sender is the source or received
 *                             in an earlier step; each sender's issue
 *                             order 0..k-1, its steps never falling in
 *                             that order (in-order injection); one send
 *                             per channel and step (all-port), one per
 *                             step (one-port); each receiver's piece is
 *                             exactly what its subtree reaches;
 *   mc_cube_check_steps       the cover check, and: steps is the last
 *                             send's; at least the lower bound, with d
 *                             = m - 1 destinations, ceil(log_{n+1}(d+1))
 *                             all-port, ceil(log2(d+1)) one-port; for an
 *                             algorithm's schedule every send in the
 *                             step the port model gives, and the
 *                             algorithm's bound: U-cube ceil(log2(d+1))
 *                             (one-port exactly, [19]), Maxport
 *                             and W-sort distinct channels per sender
 *                             and all-port at most n steps;
 *   mc_cube_check_arcs        the cover check, and the E-cube paths of
 *                             the sends of one step pairwise
 *                             arc-disjoint (Thms 3.1, 3.2);
 *   mc_cube_check_contention  the cover check, and depth-contention
 *                             freedom (Thm 3.3): two sends a, b on a
 *                             common arc, a not later than b, must be
 *                             causally ordered: b's sender is a's (2),
 *                             or in the subtree of a's receiver (3), or
 *                             in the subtree of a node a's sender serves
 *                             later in issue order (4; notes 6.3).  Pairs
 *                             of one step are checked both ways.
 */
struct mc_cube_check_result {
	const char *what;	/* NULL when the schedule passed */
	u32 send_a;
	u32 send_b;
	u32 node;
	struct mc_cube_arc arc;	/* node MC_NO_NODE when none */
};

/* A pair of sends on one arc that are not causally ordered. */
struct mc_cube_conflict {
	struct mc_cube_arc arc;
	u32 send_a;	/* the one of the earlier (or the same) step */
	u32 send_b;
};

/*
 * u32 words of scratch each checker and mc_cube_conflicts take in @ws,
 * which must be 8-byte aligned (it holds u64 arc keys).
 */
u64 mc_cube_check_ws_words(const struct mc_cube_schedule *s);

int mc_cube_check_cover(const struct mc_cube_schedule *s, u32 *ws,
			struct mc_cube_check_result *res);
int mc_cube_check_steps(const struct mc_cube_schedule *s, u32 *ws,
			struct mc_cube_check_result *res);
int mc_cube_check_arcs(const struct mc_cube_schedule *s, u32 *ws,
		       struct mc_cube_check_result *res);
int mc_cube_check_contention(const struct mc_cube_schedule *s, u32 *ws,
			     struct mc_cube_check_result *res);

/*
 * Every conflicting pair (mc_cube_check_contention's sense), by arc then
 * send: the first @max into @out, their number into *@count.  For a
 * schedule that passes the cover check (else -EINVAL and @res says why).
 */
int mc_cube_conflicts(const struct mc_cube_schedule *s, u32 *ws,
		      struct mc_cube_conflict *out, u64 max, u64 *count,
		      struct mc_cube_check_result *res);

#endif /* MC_CUBE_H */
