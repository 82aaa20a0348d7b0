// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The switch graph of Libeskind-Hadas et al. (1998): validation, the BFS
 * spanning tree, its postorder IDs, and routes (strict and relaxed up-first
 * paths, Def 3/4).
 */
#include "swgraph.h"

#define NONE MC_NO_NODE

static int build_fail(struct mc_sw_graph *g, const char **why,
		      const char *msg, u32 what)
{
	g->bad = what;
	if (why)
		*why = msg;
	return -EINVAL;
}

u64 mc_sw_graph_words(u32 nswitches, u32 nhosts, u32 nlinks)
{
	u64 v = (u64)nswitches + nhosts;

	return 6 * v + nswitches + 1 + 2 * (u64)nlinks + nhosts;
}

static int check_input(struct mc_sw_graph *g, const char **why)
{
	u32 i;

	if (g->nswitches == 0)
		return build_fail(g, why, "no switch", NONE);
	if (g->nswitches > MC_SW_MAX_SWITCHES)
		return build_fail(g, why, "too many switches", NONE);
	if (g->nhosts > MC_SW_MAX_HOSTS)
		return build_fail(g, why, "too many hosts", NONE);
	if (g->nlinks > MC_SW_MAX_LINKS)
		return build_fail(g, why, "too many links", NONE);
	for (i = 0; i < g->nlinks; i++) {
		if (g->link[i].a >= g->nswitches || g->link[i].b >= g->nswitches)
			return build_fail(g, why, "link to a switch that does not exist",
					  i);
		if (g->link[i].a == g->link[i].b)
			return build_fail(g, why, "link from a switch to itself",
					  i);
	}
	for (i = 0; i < g->nhosts; i++)
		if (g->host_switch[i] >= g->nswitches)
			return build_fail(g, why, "host on a switch that does not exist",
					  i);
	if (g->root != MC_SW_ROOT_CENTER && g->root >= g->nswitches)
		return build_fail(g, why, "root is not a switch", g->root);
	return 0;
}

static void carve(struct mc_sw_graph *g, u32 *mem)
{
	u32 v = g->nswitches + g->nhosts;

	g->nverts = v;
	g->level = mem;
	g->parent = mem + v;
	g->up_edge = mem + 2 * v;
	g->id = mem + 3 * v;
	g->lo = mem + 4 * v;
	g->by_id = mem + 5 * v;
	g->adj_off = mem + 6 * v;
	g->adj = g->adj_off + g->nswitches + 1;
}

/* The other end of edge @e from vertex @x. */
static u32 other(const struct mc_sw_graph *g, u32 e, u32 x)
{
	u32 a = mc_sw_edge_end(g, e, 0);

	return a == x ? mc_sw_edge_end(g, e, 1) : a;
}

/* Each switch's edges in increasing edge order: links, then its hosts. */
static void build_adj(struct mc_sw_graph *g)
{
	u32 s = g->nswitches, *cur = g->lo, i, e;

	for (i = 0; i <= s; i++)
		g->adj_off[i] = 0;
	for (e = 0; e < mc_sw_nedges(g); e++) {
		g->adj_off[mc_sw_edge_end(g, e, 1) + 1]++;
		if (e < g->nlinks)
			g->adj_off[g->link[e].a + 1]++;
	}
	for (i = 0; i < s; i++) {
		g->adj_off[i + 1] += g->adj_off[i];
		cur[i] = g->adj_off[i];
	}
	for (e = 0; e < mc_sw_nedges(g); e++) {
		g->adj[cur[mc_sw_edge_end(g, e, 1)]++] = e;
		if (e < g->nlinks)
			g->adj[cur[g->link[e].a]++] = e;
	}
}

/*
 * Levels of the switches from @root over the links into @level (NONE if
 * not reached), the switches in BFS order into @q; returns how many.
 */
static u32 bfs(const struct mc_sw_graph *g, u32 root, u32 *level, u32 *q)
{
	u32 head = 0, tail = 0, i, x, y;

	for (i = 0; i < g->nswitches; i++)
		level[i] = NONE;
	level[root] = 0;
	q[tail++] = root;
	while (head < tail) {
		x = q[head++];
		for (i = g->adj_off[x]; i < g->adj_off[x + 1]; i++) {
			if (g->adj[i] >= g->nlinks)
				break;	/* hosts come last */
			y = other(g, g->adj[i], x);
			if (level[y] == NONE) {
				level[y] = level[x] + 1;
				q[tail++] = y;
			}
		}
	}
	return tail;
}

static int check_connected(struct mc_sw_graph *g, u32 root, const char **why)
{
	u32 i;

	if (bfs(g, root, g->level, g->by_id) == g->nswitches)
		return 0;
	for (i = 0; g->level[i] != NONE; i++)
		;
	return build_fail(g, why, "switches not connected", i);
}

/*
 * Least eccentricity, lowest number first: the shallowest tree.  One BFS
 * per switch, O(S * (S + L)): some 17M steps at the limits, once a build.
 */
static u32 center(const struct mc_sw_graph *g)
{
	u32 best = 0, ecc = NONE, r, n;

	for (r = 0; r < g->nswitches; r++) {
		n = bfs(g, r, g->level, g->by_id);
		if (g->level[g->by_id[n - 1]] < ecc) {
			ecc = g->level[g->by_id[n - 1]];
			best = r;
		}
	}
	return best;
}

/*
 * The lowest link from switch @x to a switch one level up: adj order, links
 * only (hosts come last and have no level yet).
 */
static u32 parent_link(const struct mc_sw_graph *g, u32 x)
{
	u32 i;

	for (i = g->adj_off[x]; i < g->adj_off[x + 1]; i++) {
		if (g->adj[i] >= g->nlinks)
			break;
		if (g->level[other(g, g->adj[i], x)] + 1 == g->level[x])
			return g->adj[i];
	}
	return NONE;
}

static void choose_parents(struct mc_sw_graph *g)
{
	u32 x, h, v, e;

	g->height = 0;
	for (x = 0; x < g->nswitches; x++) {
		e = x == g->root ? NONE : parent_link(g, x);
		g->up_edge[x] = e;
		g->parent[x] = e == NONE ? NONE : other(g, e, x);
	}
	for (h = 0; h < g->nhosts; h++) {
		v = g->nswitches + h;
		g->parent[v] = g->host_switch[h];
		g->up_edge[v] = g->nlinks + h;
		g->level[v] = g->level[g->host_switch[h]] + 1;
		if (g->level[v] > g->height)
			g->height = g->level[v];
	}
	for (x = 0; x < g->nswitches; x++)
		if (g->level[x] > g->height)
			g->height = g->level[x];
}

/*
 * Postorder IDs without a stack: subtree sizes bottom up (reverse BFS
 * order @q), then each switch hands consecutive ID ranges to its children
 * in child order (adj order: parent links by index, then hosts); a
 * subtree's root gets the top of its range.  lo[] holds a vertex's size
 * until its parent gives it its range.
 */
static void number(struct mc_sw_graph *g, const u32 *q)
{
	u32 *size = g->lo, i, j, v, x, next;

	for (v = 0; v < g->nverts; v++)
		size[v] = 1;
	for (i = 0; i < g->nhosts; i++)
		size[g->host_switch[i]]++;
	for (i = g->nswitches; i-- > 1;)
		size[g->parent[q[i]]] += size[q[i]];
	g->lo[g->root] = 1;
	g->id[g->root] = g->nverts;
	for (i = 0; i < g->nswitches; i++) {
		x = q[i];
		next = g->lo[x];
		for (j = g->adj_off[x]; j < g->adj_off[x + 1]; j++) {
			u32 e = g->adj[j], c = other(g, e, x), sz;

			if (g->up_edge[c] != e)
				continue;	/* not a child over e */
			sz = size[c];
			g->lo[c] = next;
			g->id[c] = next + sz - 1;
			next += sz;
		}
	}
}

int mc_sw_build(struct mc_sw_graph *g, u32 *mem, const char **why)
{
	u32 v;
	int err;

	g->bad = NONE;
	err = check_input(g, why);
	if (err)
		return err;
	carve(g, mem);
	build_adj(g);
	err = check_connected(g, g->root == MC_SW_ROOT_CENTER ? 0 : g->root,
			      why);
	if (err)
		return err;
	if (g->root == MC_SW_ROOT_CENTER) {
		g->root = center(g);
		bfs(g, g->root, g->level, g->by_id);
	}
	choose_parents(g);
	number(g, g->by_id);
	for (v = 0; v < g->nverts; v++)
		g->by_id[g->id[v] - 1] = v;
	return 0;
}

u32 mc_sw_lca(const struct mc_sw_graph *g, u32 u, u32 v)
{
	while (!mc_sw_is_ancestor(g, u, v))
		u = g->parent[u];
	return u;
}

/* The channel over edge @e that leaves vertex @x. */
static u32 chan_leaving(const struct mc_sw_graph *g, u32 e, u32 x)
{
	return MC_SW_CHAN(e, mc_sw_edge_end(g, e, 0) == x ? 0u : 1u);
}

/* P1(u,v) and where its vertices are: up to the LCA w, then down. */
struct p1 {
	u32 u, v, w;
	u32 up;		/* hops up */
	u32 len;	/* hops */
};

static void p1_init(const struct mc_sw_graph *g, struct p1 *p, u32 u, u32 v)
{
	p->u = u;
	p->v = v;
	p->w = mc_sw_lca(g, u, v);
	p->up = g->level[u] - g->level[p->w];
	p->len = p->up + g->level[v] - g->level[p->w];
}

/* Position of @y on P1, or NONE: O(1) on levels and ID ranges. */
static u32 p1_pos(const struct mc_sw_graph *g, const struct p1 *p, u32 y)
{
	if (!mc_sw_is_ancestor(g, p->w, y))
		return NONE;
	if (mc_sw_is_ancestor(g, y, p->u))
		return g->level[p->u] - g->level[y];
	if (mc_sw_is_ancestor(g, y, p->v))
		return p->up + g->level[y] - g->level[p->w];
	return NONE;
}

/* Def 3: the tree path, channels up from u, then down to v. */
static void strict_route(const struct mc_sw_graph *g, const struct p1 *p,
			 u32 *chan)
{
	u32 x = p->u, i;

	for (i = 0; i < p->up; i++, x = g->parent[x])
		chan[i] = chan_leaving(g, g->up_edge[x], x);
	for (i = p->len, x = p->v; i > p->up; i--, x = g->parent[x])
		chan[i - 1] = chan_leaving(g, g->up_edge[x], g->parent[x]);
}

/* Vertex @i of P1, read off the strict route still in @chan[i..]. */
static u32 p1_at(const struct mc_sw_graph *g, const struct p1 *p,
		 const u32 *chan, u32 i)
{
	return i == p->len ? p->v : mc_sw_chan_from(g, chan[i]);
}

static u32 id_gap(const struct mc_sw_graph *g, u32 a, u32 b)
{
	return g->id[a] > g->id[b] ? g->id[a] - g->id[b] : g->id[b] - g->id[a];
}

/* Whether an arc to position @j beats the best so far, at @best. */
static bool better(const struct mc_sw_graph *g, enum mc_sw_policy pol,
		   const struct p1 *p, const u32 *chan, u32 j, u32 best)
{
	u32 dj, db;

	if (j == best || pol == MC_SW_ROUTE_FARTHEST)
		return j > best;
	dj = id_gap(g, p1_at(g, p, chan, j), p->v);
	db = id_gap(g, p1_at(g, p, chan, best), p->v);
	return dj < db || (dj == db && j > best);
}

/*
 * The hop from position @i: the tree edge to i+1 unless a cross link from
 * P1[i] to a later vertex of P1 wins.  Writes the channel to *@out (which
 * may be chan[k], k <= i: every read of chan[] here is at i or beyond)
 * and returns the position it reaches.
 */
static u32 next_hop(const struct mc_sw_graph *g, enum mc_sw_policy pol,
		    const struct p1 *p, u32 *chan, u32 i, u32 *out)
{
	u32 x = p1_at(g, p, chan, i), best = i + 1, c = chan[i], k, e, j;

	for (k = 0; x < g->nswitches && k < g->adj_off[x + 1] - g->adj_off[x];
	     k++) {
		e = g->adj[g->adj_off[x] + k];
		if (e >= g->nlinks)
			break;
		if (mc_sw_edge_is_tree(g, e))
			continue;
		j = p1_pos(g, p, other(g, e, x));
		if (j != NONE && j > i && better(g, pol, p, chan, j, best)) {
			best = j;
			c = chan_leaving(g, e, x);
		}
	}
	*out = c;
	return best;
}

int mc_sw_route(const struct mc_sw_graph *g, enum mc_sw_policy pol, u32 u,
		u32 v, u32 *chan, u32 max)
{
	struct p1 p;
	u32 i, k;

	if (u >= g->nverts || v >= g->nverts || pol > MC_SW_ROUTE_FARTHEST)
		return -EINVAL;
	p1_init(g, &p, u, v);
	if (p.len > max)
		return -ENOSPC;
	strict_route(g, &p, chan);
	if (pol == MC_SW_ROUTE_STRICT)
		return p.len;
	for (i = 0, k = 0; i < p.len; k++)
		i = next_hop(g, pol, &p, chan, i, &chan[k]);
	return k;
}

static int route_fail(const char **why, const char *msg)
{
	if (why)
		*why = msg;
	return -EINVAL;
}

/* Orders vertices so that up channels descend and down ones ascend. */
static u64 updown_key(const struct mc_sw_graph *g, u32 x)
{
	return (u64)g->level[x] * (g->nverts + 1) + g->id[x];
}

/* Vertex @t of a connected route: the start, then each channel's head. */
static u32 route_at(const struct mc_sw_graph *g, u32 u, const u32 *chan,
		    u32 t)
{
	return t == 0 ? u : mc_sw_chan_to(g, chan[t - 1]);
}

/*
 * A vertex twice: keys fall strictly along the up part (vertices 0..turn)
 * and rise along the down part, so a repeat is one vertex in both; a
 * merge of the two ascending runs finds it in O(n).
 */
static bool repeats(const struct mc_sw_graph *g, u32 u, const u32 *chan,
		    u32 n, u32 turn)
{
	u32 i = turn, j = turn + 1;

	while (i > 0 && j <= n) {
		u64 a = updown_key(g, route_at(g, u, chan, i - 1));
		u64 b = updown_key(g, route_at(g, u, chan, j));

		if (a == b)
			return true;
		if (a < b)
			i--;
		else
			j++;
	}
	return false;
}

int mc_sw_route_legal(const struct mc_sw_graph *g, u32 u, u32 v,
		      const u32 *chan, u32 n, const char **why)
{
	u32 i, at = u, turn = n;
	bool up;

	if (u >= g->nverts || v >= g->nverts)
		return route_fail(why, "route between vertices that do not exist");
	for (i = 0; i < n; i++) {
		if (chan[i] >= mc_sw_nchans(g))
			return route_fail(why, "route on a channel that does not exist");
		if (mc_sw_chan_from(g, chan[i]) != at)
			return route_fail(why, "route channel does not leave where the previous one arrived");
		up = mc_sw_chan_up(g, chan[i]);
		if (up && turn < i)
			return route_fail(why, "route goes up after going down");
		if (!up && turn == n)
			turn = i;
		at = mc_sw_chan_to(g, chan[i]);
	}
	if (at != v)
		return route_fail(why, "route does not end at its destination");
	if (repeats(g, u, chan, n, turn))
		return route_fail(why, "route visits a vertex twice");
	return 0;
}

int mc_sw_route_relaxed(const struct mc_sw_graph *g, u32 u, u32 v,
			const u32 *chan, u32 n, const char **why)
{
	struct p1 p;
	u32 i, j, last = 0;
	int err;

	err = mc_sw_route_legal(g, u, v, chan, n, why);
	if (err)
		return err;
	p1_init(g, &p, u, v);
	for (i = 0; i < n; i++) {
		j = p1_pos(g, &p, mc_sw_chan_to(g, chan[i]));
		if (j == NONE)
			return route_fail(why, "route leaves the strict up-first path (Def 4)");
		if (j <= last)
			return route_fail(why, "route goes back along the strict up-first path");
		last = j;
	}
	return 0;
}
