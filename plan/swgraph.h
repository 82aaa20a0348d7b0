/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * Switch graphs for switched clusters (Libeskind-Hadas et al.
 * (1998); updown.h has the multicast): switches, hosts and links; the
 * up*-down* tree, its postorder IDs and orientation; strict and relaxed
 * up-first routes (swgraph.c).
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
#ifndef MC_SWGRAPH_H
#define MC_SWGRAPH_H

#include "topology.h"

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

#endif /* MC_SWGRAPH_H */
