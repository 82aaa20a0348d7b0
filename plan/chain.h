/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * Node orders: dimension-ordered chains and R-chains (Def 4.3, 4.4),
 * H-chains and H-cycles (Def 5.2, 5.3, Fig 5.8).
 *
 * A group keeps one sorted array; a source uses it rotated to itself
 * (struct mc_chain), so planning a send needs no per-source sort.
 */
#ifndef MC_CHAIN_H
#define MC_CHAIN_H

#include "topology.h"

enum mc_order {
	MC_ORDER_DIM = 0,	/* <_d: R-chains, for U-torus */
	MC_ORDER_HAM = 1,	/* Hamiltonian labels: H-cycles, for worms */
	MC_ORDER_ID = 2,	/* node ids, whatever the topology's order:
				 * a topology-blind binomial tree's
				 */
};

/* A rotated view of a sorted node array: element i is node[(rot+i)%len]. */
struct mc_chain {
	const u32 *node;
	u32 len;
	u32 rot;
};

/*
 * @nodes[0..len-1] as a holder has them: a run of an order already
 * rotated to some node (a sender's chain copied out in visiting order, or
 * a piece from the network), so position i is @nodes[i].  Where the run
 * crosses the order's wrap point is not @c's to say; what needs it finds
 * it from the nodes (mc_sender's dimensional runs do).
 */
static inline void mc_chain_piece(struct mc_chain *c, const u32 *nodes,
				  u32 len)
{
	c->node = nodes;
	c->len = len;
	c->rot = 0;
}

static inline u32 mc_chain_at(const struct mc_chain *c, u32 i)
{
	u32 j = c->rot + i;

	return c->node[j >= c->len ? j - c->len : j];
}

/*
 * Sort @nodes (all < t->nodes) into a dimension-ordered chain or an
 * H-chain, in place.  Fails with -EINVAL (and *@why) on an out-of-range
 * or repeated node; on failure the array's order is unspecified.
 */
int mc_chain_sort(const struct mc_torus *t, enum mc_order order, u32 *nodes,
		  u32 len, const char **why);

/* Verify that @nodes is a sorted chain of @order (what mc_chain_sort makes). */
int mc_chain_verify(const struct mc_torus *t, enum mc_order order,
		    const u32 *nodes, u32 len, const char **why);

/*
 * Verify that @nodes could be a piece of a chain of @order: a run of it
 * rotated to some node, i.e. nodes inside the torus, each strictly after
 * the previous one in @order but for at most one wrap, and after a wrap
 * still before the first (so no node repeats).  What a receiver checks
 * of a piece it got from the network before it forwards along it.
 */
int mc_piece_verify(const struct mc_torus *t, enum mc_order order,
		    const u32 *nodes, u32 len, const char **why);

/* Whether @id is in @nodes, a piece of @order (mc_piece_verify). */
bool mc_piece_has(const struct mc_torus *t, enum mc_order order,
		  const u32 *nodes, u32 len, u32 id);

/*
 * Point @c at sorted chain @nodes rotated so @src comes first (an R-chain
 * or H-cycle with respect to @src).  O(log len).  -ENOENT if @src is absent.
 */
int mc_chain_rotate(const struct mc_torus *t, enum mc_order order,
		    const u32 *nodes, u32 len, u32 src, struct mc_chain *c);

/* In-place ascending sort of u32 values (heapsort: no allocation). */
void mc_sort_u32(u32 *a, u32 n);

#endif /* MC_CHAIN_H */
