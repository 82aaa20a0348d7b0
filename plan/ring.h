/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * Contention-free group-multicast rings on binary n-cubes (Lin and
 * Chen (1996), "Configuring Group-Multicast Rings with Randomly Selected
 * Nodes on Binary n-Cubes", ICS'96): m selected nodes linked into a ring
 * whose m e-cube paths are pairwise link-disjoint, so that every member's
 * message can circulate once around the ring with no two ring paths on one
 * directed link.
 *
 *   ring.c       the operators of Defs 1-5, Theorem 1's closed form, the
 *                bottom-up merge (notes 3.2), the ring as an order, the
 *                pipelined group multicast's counts, the RGC ring;
 *   ringcheck.c  the checker, the Corollary 1 conflict count of any ring,
 *                and a brute-force pair counter for the tests.
 *
 * Routing is cube.h's E-cube (the highest differing bit first), the
 * paper's "descending dimension order"; a directed link is cube.h's arc
 * (node, dim).  Addresses are written highest bit first ("0101").
 *
 * A {0,1,*} sequence is a (val, mask) pair: bit i of mask set when symbol
 * i is 0 or 1 (then it is bit i of val), clear when it is '*' (then bit i
 * of val is 0).  Bits at and above n are '*'-free and 0 in both.
 *
 * The merge (notes 3.2): sort the members; for k = 1..n, in every
 * k-subcube {x_{n-1}..x_k y..y} whose two halves (bit k-1 = 0 and 1) both
 * hold members, pick A in the lower half and C in the upper half with the
 * longest common suffix (the largest ctz(A ^ C), i.e. the smallest
 * Asterisk(A down C); ties: the smallest A, then the smallest C) and swap
 * succ[A] and succ[C].  A lone node is a ring of one (succ = itself), so
 * this one operation is the paper's three cases (Thms 3, 4, 5).  Exactly
 * m - 1 merges and m (m - 1) / 2 pair evaluations: O(m^2) time, no memory
 * beyond the caller's arrays.
 *
 * The ring as an order starts at the smallest address and follows succ.
 * Never reverse a ring: Path(B, A) is not Path(A, B) backwards, and the
 * reversed ring may contend (notes 4.11(b)); check it (mc_ring_check).
 */
#ifndef MC_RING_H
#define MC_RING_H

#include "cube.h"

/* A {0,1,*}^n sequence (Defs 1-5). */
struct mc_tern {
	u32 val;	/* the defined symbols' values; 0 under '*' */
	u32 mask;	/* bit i set: symbol i is defined */
};

/* The n low bits. */
static inline u32 mc_ring_full(u32 n)
{
	return n >= 32 ? ~0u : (1u << n) - 1;
}

/*
 * X down Y (Def 1), the longest common suffix: the bits below the lowest
 * differing bit, all n if X = Y.
 */
static inline struct mc_tern mc_tern_suffix(u32 n, u32 x, u32 y)
{
	u32 d = x ^ y;
	struct mc_tern z;

	z.mask = d ? (d & -d) - 1 : mc_ring_full(n);
	z.val = x & z.mask;
	return z;
}

/*
 * X up Y (Def 2), the longest common prefix: the bits of the n above the
 * highest differing bit, all n if X = Y.
 */
static inline struct mc_tern mc_tern_prefix(u32 n, u32 x, u32 y)
{
	u32 d = x ^ y;
	struct mc_tern z;

	z.mask = mc_ring_full(n);
	if (d)
		z.mask &= ~(u32)((2ULL << mc_cube_delta(x, y)) - 1);
	z.val = x & z.mask;
	return z;
}

/* U (x) V (Def 3): exclusive or where both are defined, '*' elsewhere. */
static inline struct mc_tern mc_tern_xor(struct mc_tern u, struct mc_tern v)
{
	struct mc_tern z;

	z.mask = u.mask & v.mask;
	z.val = (u.val ^ v.val) & z.mask;
	return z;
}

/* One(Z) (Def 4): the 1s. */
static inline u32 mc_tern_one(struct mc_tern z)
{
	return mc_popcount32(z.val & z.mask);
}

/* Asterisk(Z) (Def 4): the '*'s among the n symbols. */
static inline u32 mc_tern_asterisk(u32 n, struct mc_tern z)
{
	return n - mc_popcount32(z.mask & mc_ring_full(n));
}

/*
 * U <. V (Def 5): every symbol of U equals V's, or is '*' where V's is
 * not (U is V with some defined symbols made '*').
 */
static inline bool mc_tern_le(struct mc_tern u, struct mc_tern v)
{
	return (u.mask & ~v.mask) == 0 && ((u.val ^ v.val) & u.mask) == 0;
}

/*
 * Theorem 1 / Corollary 1: the dimensions of the directed links that
 * Path(@a, @b) and Path(@c, @d) share, as a bit mask: the 1s of
 * (A down C) (x) (B up D).  Each path has at most one link per dimension,
 * and only links of one dimension can coincide, so popcount is the number
 * of shared links.  Equal to (a ^ b) & below(lowest bit of a ^ c) &
 * above(highest bit of b ^ d) (notes 2.6).
 */
static inline u32 mc_ring_conflict_dims(u32 n, u32 a, u32 b, u32 c, u32 d)
{
	struct mc_tern z = mc_tern_xor(mc_tern_suffix(n, a, c),
				       mc_tern_prefix(n, b, d));

	return z.val & z.mask;
}

/*
 * The node Path(@a, @b) leaves in dimension @dim, a bit where they
 * differ: b's bits above dim, a's at and below it.
 */
static inline u32 mc_ring_path_node(u32 a, u32 b, u32 dim)
{
	u32 low = (u32)((2ULL << dim) - 1);

	return (b & ~low) | (a & low);
}

/*
 * The number of directed links Path(@a, @b) and Path(@c, @d) share
 * (Corollary 1), or -EINVAL for a bad dimension or a node outside the
 * n-cube.  0 means link-disjoint (Theorem 1).
 */
int mc_ring_path_conflicts(u32 n, u32 a, u32 b, u32 c, u32 d);

/*
 * The same by brute force: both paths' arcs from mc_cube_path compared
 * pairwise.  For the tests.
 */
int mc_ring_path_conflicts_slow(u32 n, u32 a, u32 b, u32 c, u32 d);

/* One merge of the bottom-up construction: the notes' table columns. */
struct mc_ring_merge {
	u32 k;		/* the k-subcube; its halves differ in bit k - 1 */
	u32 a;		/* A, in the lower half (bit k - 1 clear) */
	u32 c;		/* C, in the upper half */
	u32 old_succ_a;	/* succ[A] before the swap (then succ[C]'s) */
	u32 old_succ_c;
	u32 asterisk;	/* Asterisk(A down C) = n - ctz(A ^ C) */
};

/*
 * A ring over m members.  The caller provides addr and succ (m entries
 * each) and, if it wants the merge log, merge (room for m - 1).
 */
struct mc_ring {
	u32 n;
	u32 m;
	u32 *addr;			/* the members, ascending */
	u32 *succ;			/* addr[succ[i]] follows addr[i] */
	struct mc_ring_merge *merge;	/* NULL, or the merges in the
					 * paper's order: by k, then subcube
					 */
	u32 nmerge;
	u64 pairs;			/* ctz evaluations: m (m - 1) / 2 */
};

/*
 * Build the ring over @set[0..m-1] (any order; it may be r->addr itself)
 * into @r.  m = 0 is no ring, m = 1 a single node with no path (succ to
 * itself), m = 2 the two paths of Theorem 4.  -EINVAL with *@why on a bad
 * dimension, more members than nodes, a node outside the cube, a node
 * given twice.
 */
int mc_ring_build(struct mc_ring *r, u32 n, const u32 *set, u32 m,
		  const char **why);

/*
 * The ring as an order: from the smallest address (addr[0]) along succ,
 * m addresses into @order.  -EINVAL unless succ is one cycle through all
 * m members.
 */
int mc_ring_order(const struct mc_ring *r, u32 *order);

/*
 * The pipelined group multicast over a ring (notes 3.4(7)): every member
 * sends its message to its successor, then passes on what it receives
 * unless its successor is the message's origin.  In round t = 1..m-1
 * every ring path carries one message at once, so the paths' disjointness
 * is all the contention freedom there is to have; each message makes
 * m - 1 ring hops, each member receives m - 1 messages.
 */
struct mc_ring_stats {
	u32 m;
	u32 paths;		/* m, or 0 when m < 2 */
	u64 hops;		/* links of all ring paths: one trip around */
	u32 max_hop;		/* the longest ring path, at most n */
	u32 rounds;		/* m - 1 */
	u64 transfers;		/* path transfers: m (m - 1) */
	u64 link_transfers;	/* link traversals: (m - 1) hops */
};

/* The counts above for the ring @order[0..m-1] (nodes of the n-cube). */
void mc_ring_stats(const u32 *order, u32 m, struct mc_ring_stats *st);

/*
 * The ring position whose message the member at @pos forwards in round
 * @round (1..m-1): the one @round - 1 places upstream.
 */
static inline u32 mc_ring_round_origin(u32 m, u32 pos, u32 round)
{
	return (pos + m - (round - 1)) % m;
}

/*
 * The reflected-Gray-code (RGC) ring the paper compares with (Kumar et
 * al.): the Hamiltonian cycle gray(0), gray(1), ..., gray(2^n - 1) of the
 * n-cube, gray(g) = g ^ (g >> 1); a sub-ring visits the members in that
 * order and its messages follow the Gray cycle (one link per step, the
 * dimensions in no single order), so its paths are disjoint but add up to
 * 2^n links, and a gap can be O(2^n).
 */
static inline u32 mc_ring_gray(u32 g)
{
	return g ^ (g >> 1);
}

/* The position of @x on the Gray cycle: gray^-1. */
static inline u32 mc_ring_gray_rank(u32 x)
{
	x ^= x >> 16;
	x ^= x >> 8;
	x ^= x >> 4;
	x ^= x >> 2;
	x ^= x >> 1;
	return x;
}

/* Links along the Gray cycle from @u to @v (0 if u = v). */
static inline u32 mc_ring_rgc_gap(u32 n, u32 u, u32 v)
{
	return (mc_ring_gray_rank(v) - mc_ring_gray_rank(u)) &
	       mc_ring_full(n);
}

/*
 * The members @set[0..m-1] in RGC ring order, from the smallest address,
 * into @order.  Errors as mc_ring_build's.
 */
int mc_ring_rgc_order(u32 n, const u32 *set, u32 m, u32 *order,
		      const char **why);

/*
 * The RGC sub-ring's path from @u to @v along the Gray cycle as arcs
 * into @arc (room for @max): their number, or -EINVAL (a node outside
 * the cube) or -ENOSPC.
 */
int mc_ring_rgc_path(u32 n, u32 u, u32 v, struct mc_cube_arc *arc, u32 max);

/*
 * Checkers.  The ring is @order[0..m-1], cyclic: path i runs from
 * order[i] to order[(i + 1) % m] (m = 2: there and back; m < 2: none).
 *
 * mc_ring_check: the nodes lie in the n-cube, none twice, and (when @set
 * is not NULL) they are exactly @set[0..m-1]; then every e-cube path's
 * arcs (mc_cube_path) are collected and any arc two paths share fails it.
 * The result names the first failure: the conflicting pair (i, j), i < j,
 * with the smallest i, then j, and their shared link of the highest
 * dimension (the first on path i); res->conflicts counts every shared
 * (pair, link), which Corollary 1 gives too (mc_ring_conflicts).
 * Scratch: mc_ring_check_ws_words(n, m) u64 words at @ws.
 */
struct mc_ring_check_result {
	const char *what;	/* NULL when the ring passed */
	u32 path_a;		/* ring positions of the paths, or MC_NO_NODE */
	u32 path_b;
	u32 node;		/* the node involved, or MC_NO_NODE */
	struct mc_cube_arc arc;	/* the shared link; node MC_NO_NODE if none */
	u64 conflicts;		/* shared (pair, link)s; 0 unless the nodes
				 * passed
				 */
};

u64 mc_ring_check_ws_words(u32 n, u32 m);

int mc_ring_check(u32 n, const u32 *set, const u32 *order, u32 m, u64 *ws,
		  struct mc_ring_check_result *res);

/*
 * Corollary 1 over a whole ring: the sum over the m (m - 1) / 2 pairs of
 * its paths of the links they share, into *@count.  O(m^2), no scratch;
 * repeats are allowed (an empty path shares nothing).  -EINVAL with
 * *@why on a bad dimension or a node outside the cube.
 */
int mc_ring_conflicts(u32 n, const u32 *order, u32 m, u64 *count,
		      const char **why);

#endif /* MC_RING_H */
