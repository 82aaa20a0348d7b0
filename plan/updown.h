/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * Multicast on switched clusters (Libeskind-Hadas, Mazzoni and
 * Rajagopalan (1998), "Optimal Contention-Free Unicast-Based Multicasting
 * in Switch-Based Networks of Workstations", IPPS/SPDP 1998).  Up*-down*
 * routing over a BFS spanning tree whose vertices are numbered in postorder;
 * the members sorted cyclically by that number from the source; recursive
 * halving over that list.  With every unicast on a relaxed up-first path this
 * takes the optimal ceil(log2(d+1)) steps and is depth-contention-free
 * (Thm 2).
 *
 *   swgraph.c  the graph, its tree, postorder IDs, orientation, routes
 *              (swgraph.h);
 *   updown.c   the member order and the schedule;
 *   swcheck.c  the checkers.
 */
#ifndef MC_UPDOWN_H
#define MC_UPDOWN_H

#include "chain.h"
#include "swgraph.h"

/*
 * The member order L = s, v1..vd: the destinations sorted by postorder ID
 * cyclically, starting just after ID(s) (M1 then M2, Sec. 2.9).
 *
 * A group keeps its members sorted by ID once (mc_sw_sort_members), and a
 * source sees them rotated to itself (mc_sw_chain): L(p) is
 * mc_chain_at(c, p).  The kernel's U-torus holder rule on that chain
 * ("keep ceil(len/2), send the rest to its first node", next_utorus in
 * schedule.c) is exactly the seed's recursive halving: the holder of
 * L[lo..hi] sends to L[lo + ceil((hi-lo+1)/2)], which takes the upper
 * part.  So mc_sender_init(.., MC_ALGO_UTORUS, ..) over that chain sends
 * what mc_sw_plan schedules.
 */

/*
 * Sort member vertices by postorder ID in place; -EINVAL on a vertex out
 * of range or repeated (then the array's order is unspecified).
 */
int mc_sw_sort_members(const struct mc_sw_graph *g, u32 *v, u32 n,
		       const char **why);

/* @members sorted by ID, rotated so @src comes first.  -ENOENT if absent. */
int mc_sw_chain(const struct mc_sw_graph *g, const u32 *members, u32 n,
		u32 src, struct mc_chain *c);

/*
 * The hosts' ranks: @rank[h] is host h's place among the hosts in
 * postorder (0..nhosts-1).  With them a node's 1-D id space sorts as L
 * does (mc_torus_init_switch): all the kernel needs of the graph.
 */
void mc_sw_host_ranks(const struct mc_sw_graph *g, u32 *rank);

/*
 * Write L into @order (ndst+1 entries).  -EINVAL with *@why on a vertex out
 * of range, the source among the destinations, a repeated destination.
 */
int mc_sw_order(const struct mc_sw_graph *g, u32 src, const u32 *dst,
		u32 ndst, u32 *order, const char **why);

/*
 * The order a topology-blind library's binomial tree uses: the source,
 * then the destinations by increasing vertex number (host number, for
 * hosts) cyclically after the source's.  Same errors as mc_sw_order.
 */
int mc_sw_rank_order(const struct mc_sw_graph *g, u32 src, const u32 *dst,
		     u32 ndst, u32 *order, const char **why);

/* One unicast of a schedule. */
struct mc_sw_send {
	u32 step;	/* 1-based; the source holds the message at step 0 */
	u32 from;	/* order position of the sender */
	u32 to;		/* order position of the receiver */
	u32 len;	/* the receiver is responsible for order[to..to+len-1] */
	u32 first;	/* its route: route[first..first+hops-1] */
	u32 hops;
};

/*
 * A holder that received in step t sends its j-th unicast (j from 0) in
 * step t+j+1, to the farthest midpoint first.  The caller provides order
 * (m), send (m-1) and route (route_cap, mc_sw_route_words).
 */
struct mc_sw_schedule {
	const struct mc_sw_graph *g;
	u32 m;			/* members including the source */
	u32 *order;		/* m vertices, order[0] the source */
	struct mc_sw_send *send;
	u32 nsend;
	u32 steps;
	u32 *route;		/* channels of every send, back to back */
	u32 nroute;
	u32 route_cap;
};

/* Room for the routes of a schedule of @m members (at least m words). */
static inline u64 mc_sw_route_words(const struct mc_sw_graph *g, u32 m)
{
	u64 w = m ? (u64)(m - 1) * mc_sw_route_max(g) : 0;

	return w > m ? w : m;
}

/*
 * The seed's schedule: L by mc_sw_order into s->order (so s->m = ndst+1),
 * recursive halving, a route by @pol for every send.  Errors as
 * mc_sw_order's; -ENOSPC if route_cap is short.
 */
int mc_sw_plan(struct mc_sw_schedule *s, const struct mc_sw_graph *g,
	       enum mc_sw_policy pol, u32 src, const u32 *dst, u32 ndst,
	       const char **why);

/*
 * Recursive halving over the caller's s->order[0..s->m-1], as it is (for
 * orders of other algorithms, mc_sw_rank_order's).  -EINVAL with *@why on
 * an empty order or a vertex out of range or repeated; -ENOSPC if
 * route_cap is short (the route array is also the scratch of the repeat
 * check, hence at least m words).
 */
int mc_sw_plan_order(struct mc_sw_schedule *s, const struct mc_sw_graph *g,
		     enum mc_sw_policy pol, const char **why);

/*
 * Checkers.  Each takes any schedule, however it was made, and reports the
 * first violation with a static reason and the sends, vertex and channel
 * involved (MC_NO_NODE where none):
 *
 *   mc_sw_check_cover       the order is vertices of the graph, none twice;
 *                           one send per destination, never to the source;
 *                           a sender is the source or received in an
 *                           earlier step (Def 1 with the source exempt); a
 *                           node sends at most once per step (one port);
 *                           each receiver's piece is exactly what its
 *                           subtree reaches; steps = ceil(log2(d+1));
 *   mc_sw_check_routes      every route a relaxed up-first path, so a legal
 *                           up*-down* route, from its sender to its
 *                           receiver;
 *   mc_sw_check_contention  depth-contention freedom (Thm 1, McKinley et
 *                           al.): two sends that share a directed channel
 *                           must be causally ordered: with a not later
 *                           than b, b's sender is a's sender (3), or in the
 *                           subtree of a's receiver (1), or in the subtree
 *                           of a node a's sender serves later (4).  Pairs
 *                           of one step are checked both ways.
 */
struct mc_sw_check_result {
	const char *what;	/* NULL when the schedule passed */
	u32 send_a;
	u32 send_b;
	u32 vertex;
	u32 chan;
};

/* A pair of sends on one channel that are not causally ordered. */
struct mc_sw_conflict {
	u32 chan;
	u32 send_a;	/* the one of the earlier (or the same) step */
	u32 send_b;
};

/* u32 words of scratch each checker and mc_sw_conflicts take in @ws. */
u64 mc_sw_check_ws_words(const struct mc_sw_schedule *s);

int mc_sw_check_cover(const struct mc_sw_schedule *s, u32 *ws,
		      struct mc_sw_check_result *res);
int mc_sw_check_routes(const struct mc_sw_schedule *s,
		       struct mc_sw_check_result *res);
int mc_sw_check_contention(const struct mc_sw_schedule *s, u32 *ws,
			   struct mc_sw_check_result *res);

/*
 * Every conflicting pair, by channel then send: the first @max into @out,
 * their number into *@count.  For a schedule that passes the cover check
 * (else -EINVAL and @res says why); 0 conflicts means contention-free.
 */
int mc_sw_conflicts(const struct mc_sw_schedule *s, u32 *ws,
		    struct mc_sw_conflict *out, u64 max, u64 *count,
		    struct mc_sw_check_result *res);

#endif /* MC_UPDOWN_H */
