/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * Multicast on switched clusters (seed 001: Libeskind-Hadas, Mazzoni and
 * Rajagopalan 1998).  Up*-down* routing over a BFS spanning tree whose
 * vertices are numbered in postorder; the members sorted cyclically by
 * that number from the source; recursive halving over that list.  With
 * every unicast on a relaxed up-first path this takes the optimal
 * ceil(log2(d+1)) steps and is depth-contention-free (Thm 2).
 *
 *   swgraph.c  the graph, its tree, postorder IDs, orientation, routes;
 *   updown.c   the member order and the schedule;
 *   swcheck.c  the checkers.
 *
 * Vertices: switch i is vertex i (0..S-1), host h is vertex S+h.
 * Edges:    link i is edge i; host h's attachment is edge nlinks+h.
 * Channels: edge e in one direction is 2e+dir; dir 0 goes from the link's
 *           a to its b, or from the host to its switch; dir 1 comes back.
 *           The two directions of a link, and parallel links, are
 *           separate channels.
 *
 * The tree (deterministic; every node that computes it gets the same):
 *   - root: the one given, or MC_SW_ROOT_CENTER: the switch of least
 *     eccentricity over the links, the lowest-numbered of those;
 *   - levels: BFS distance from the root (hosts one below their switch);
 *   - parent of a switch: the neighbour one level up over the link of
 *     lowest index (not the FIFO order of a BFS queue: the paper's
 *     Figure 1 has a vertex whose BFS-first neighbour is not its parent);
 *   - children: switches in the order of their links to the parent, then
 *     the hosts by increasing host number; that order defines the IDs.
 * Parallel links: the one of lowest index between a child and its parent
 * is the tree edge; every other link is a cross edge, which a relaxed
 * route may take (a parallel link to the next vertex of P1 is a cross
 * edge that jumps one position forward).
 *
 * Members may be any vertices: the paper's model has hosts only, but its
 * examples use every vertex, and nothing here depends on it.
 */
#ifndef MC_UPDOWN_H
#define MC_UPDOWN_H

#include "chain.h"

#define MC_SW_MAX_SWITCHES	1024
#define MC_SW_MAX_HOSTS		4096
#define MC_SW_MAX_LINKS		8192
#define MC_SW_ROOT_CENTER	0xffffffffu

#define MC_SW_CHAN(e, dir)	((e) << 1 | (dir))

struct mc_sw_link {
	u32 a;		/* switches */
	u32 b;
};

struct mc_sw_graph {
	/* Set by the caller before mc_sw_build; kept, not copied. */
	u32 nswitches;
	u32 nhosts;
	u32 nlinks;
	const struct mc_sw_link *link;	/* nlinks */
	const u32 *host_switch;		/* nhosts: the switch of host h */
	u32 root;		/* a switch or MC_SW_ROOT_CENTER; then the root */
	/* Built by mc_sw_build, in the caller's memory. */
	u32 nverts;
	u32 height;		/* the deepest level */
	u32 *level;		/* vertex -> depth in the tree, root 0 */
	u32 *parent;		/* vertex -> parent, MC_NO_NODE for the root */
	u32 *up_edge;		/* vertex -> edge to its parent, or MC_NO_NODE */
	u32 *id;		/* vertex -> postorder ID, 1..nverts */
	u32 *lo;		/* vertex -> lowest ID in its subtree */
	u32 *by_id;		/* ID - 1 -> vertex */
	u32 *adj_off;		/* switch -> its first entry in adj, S+1 */
	u32 *adj;		/* edges at each switch: links by index, hosts */
	/* After a failed build: the link, host or switch its reason names. */
	u32 bad;
};

/* u32 words of memory mc_sw_build needs for a graph of that size. */
u64 mc_sw_graph_words(u32 nswitches, u32 nhosts, u32 nlinks);

/*
 * Validate the caller's fields of @g and build the tree in @mem.  -EINVAL
 * with *@why (and g->bad) on: no switch, a limit exceeded, a link to a
 * switch that does not exist or to itself, a host on a switch that does
 * not exist, a root that is not a switch, switches not connected (bad: the
 * lowest-numbered switch the root does not reach).
 */
int mc_sw_build(struct mc_sw_graph *g, u32 *mem, const char **why);

static inline u32 mc_sw_host_vertex(const struct mc_sw_graph *g, u32 h)
{
	return g->nswitches + h;
}

static inline u32 mc_sw_nedges(const struct mc_sw_graph *g)
{
	return g->nlinks + g->nhosts;
}

static inline u32 mc_sw_nchans(const struct mc_sw_graph *g)
{
	return 2 * mc_sw_nedges(g);
}

/* End 0 (link's a, or the host) or end 1 (link's b, or the switch). */
static inline u32 mc_sw_edge_end(const struct mc_sw_graph *g, u32 e, u32 end)
{
	if (e < g->nlinks)
		return end ? g->link[e].b : g->link[e].a;
	return end ? g->host_switch[e - g->nlinks] :
		     g->nswitches + e - g->nlinks;
}

static inline u32 mc_sw_chan_from(const struct mc_sw_graph *g, u32 c)
{
	return mc_sw_edge_end(g, c >> 1, c & 1);
}

static inline u32 mc_sw_chan_to(const struct mc_sw_graph *g, u32 c)
{
	return mc_sw_edge_end(g, c >> 1, !(c & 1));
}

/* Whether @a is @b or above it in the tree: O(1) on the ID ranges. */
static inline bool mc_sw_is_ancestor(const struct mc_sw_graph *g, u32 a,
				     u32 b)
{
	return g->lo[a] <= g->id[b] && g->id[b] <= g->id[a];
}

static inline bool mc_sw_edge_is_tree(const struct mc_sw_graph *g, u32 e)
{
	return g->up_edge[mc_sw_edge_end(g, e, 0)] == e ||
	       g->up_edge[mc_sw_edge_end(g, e, 1)] == e;
}

/*
 * The paper's orientation: up towards a lower level, or along a level
 * towards a lower ID.  Parallel links share their endpoints' orientation.
 */
static inline bool mc_sw_chan_up(const struct mc_sw_graph *g, u32 c)
{
	u32 a = mc_sw_chan_from(g, c), b = mc_sw_chan_to(g, c);

	return g->level[a] > g->level[b] ||
	       (g->level[a] == g->level[b] && g->id[a] > g->id[b]);
}

/* The lowest common ancestor of @u and @v in the tree. */
u32 mc_sw_lca(const struct mc_sw_graph *g, u32 u, u32 v);

/*
 * Routes.  All of them are relaxed up-first paths (Def 4 as the notes fix
 * it: a subsequence of the vertices of P1(u,v) keeping u and v, each
 * consecutive pair joined by the tree edge or by a cross link), hence
 * legal up*-down* routes:
 *
 *   STRICT    P1(u,v), tree edges only (Def 3);
 *   CLOSEST   the paper's simulator: the next vertex of ID closest to the
 *             destination's; a tie goes to the one farther along P1;
 *   FARTHEST  the cross link that jumps farthest along P1.
 */
enum mc_sw_policy {
	MC_SW_ROUTE_STRICT = 0,
	MC_SW_ROUTE_CLOSEST = 1,
	MC_SW_ROUTE_FARTHEST = 2,
};

/*
 * Among arcs to the same vertex of P1 both relaxed policies take the tree
 * edge, then the link of lowest index.  Each choice depends only on the
 * current vertex and the destination (the rest of P1(u,v) is P1(x,v)), so
 * both fit per-destination forwarding tables.
 */

/* Hops of the longest route: room a caller gives mc_sw_route. */
static inline u32 mc_sw_route_max(const struct mc_sw_graph *g)
{
	return 2 * g->height;
}

/*
 * Write the channels of the route from @u to @v by @pol into @chan (room
 * for @max) and return their number, or -EINVAL (a vertex or policy out
 * of range) or -ENOSPC.
 */
int mc_sw_route(const struct mc_sw_graph *g, enum mc_sw_policy pol, u32 u,
		u32 v, u32 *chan, u32 max);

/*
 * Whether @chan[0..n-1] is a legal up*-down* route from @u to @v: every
 * channel exists, each leaves where the previous one arrived, no up
 * channel after a down one, no vertex twice.  0 or -EINVAL with *@why.
 */
int mc_sw_route_legal(const struct mc_sw_graph *g, u32 u, u32 v,
		      const u32 *chan, u32 n, const char **why);

/*
 * mc_sw_route_legal, and a relaxed up-first path (Def 4, monotone): every
 * vertex lies on P1(u,v), each strictly after the previous one.
 */
int mc_sw_route_relaxed(const struct mc_sw_graph *g, u32 u, u32 v,
			const u32 *chan, u32 n, const char **why);

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
