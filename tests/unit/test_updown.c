// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Multicast on switched clusters (Libeskind-Hadas et al. (1998),
 * plan/updown.h):
 *   (a) the paper's Figure 1 as the notes reconstruct it: postorder IDs,
 *       levels, tree and cross edges, up channels, the postorder circuit,
 *       strict and relaxed paths (every monotone one, and the paper's
 *       invalid one, N3), broadcast from every source: L, the sends of
 *       each step, P1 and the closest-ID paths (notes 4.4, 4.5); the
 *       same IDs with its leaves as hosts; the relaxed policies apart;
 *   (b) position-level schedules (m = 8, 13) and the step table (4.6);
 *   (c) the notes' negative vectors N1 (a literal Def 4 path) and N2
 *       (non-postorder IDs) fail the contention checker; hand-made faults
 *       fail the cover and route checkers;
 *   (d) build and order errors;
 *   (e) a rank-order binomial tree on graphs that force a shared channel
 *       is caught, and its conflicts listed;
 *   (f) properties over 1500 random general and lattice graphs (parallel
 *       links, several hosts per switch, random and central roots) and 6
 *       large ones (up to every limit, broadcast to all 4095 others):
 *       the tree against a reference built here, routes legal and
 *       monotone, deadlock freedom, and for random multicasts: optimal
 *       steps, all three checkers pass, an independent Thm 1 checker
 *       with reach sets and the notes' range test agree, the kernel's
 *       U-torus holder rule over mc_sw_chain gives the same sends;
 *       random IDs and rank orders do contend, and are caught.
 *
 * The references here decode channels from the link arrays and walk
 * parents themselves, so a test never checks the core against itself.
 */
#include <string.h>

#include "tap.h"
#include "updown.h"
#include "schedule.h"

#define NONE MC_NO_NODE
#define MAXS	MC_SW_MAX_SWITCHES
#define MAXL	MC_SW_MAX_LINKS
#define MAXH	MC_SW_MAX_HOSTS

/* ok() whose message shows what the condition's calls set: evaluated first. */
#define OKV(cond, ...) do {						\
		bool _c = (cond);					\
									\
		ok(_c, __VA_ARGS__);					\
	} while (0)

/* ---------------- graphs ---------------- */

struct tg {
	struct mc_sw_graph g;
	struct mc_sw_link *link;
	u32 *hs;
	u32 *mem;
};

static int tg_build(struct tg *t, u32 ns, u32 nh, u32 nl,
		    const struct mc_sw_link *link, const u32 *hs, u32 root,
		    const char **why)
{
	memset(t, 0, sizeof(*t));
	t->link = xcalloc(nl, sizeof(*link));
	t->hs = xcalloc(nh, sizeof(u32));
	if (nl)
		memcpy(t->link, link, nl * sizeof(*link));
	if (nh)
		memcpy(t->hs, hs, nh * sizeof(u32));
	t->g.nswitches = ns;
	t->g.nhosts = nh;
	t->g.nlinks = nl;
	t->g.link = t->link;
	t->g.host_switch = t->hs;
	t->g.root = root;
	t->mem = xcalloc(mc_sw_graph_words(ns, nh, nl), sizeof(u32));
	return mc_sw_build(&t->g, t->mem, why);
}

static void tg_must(struct tg *t, u32 ns, u32 nh, u32 nl,
		    const struct mc_sw_link *link, const u32 *hs, u32 root)
{
	const char *why = NULL;

	if (tg_build(t, ns, nh, nl, link, hs, root, &why)) {
		printf("Bail out! mc_sw_build: %s\n", why ? why : "?");
		exit(2);
	}
}

static void tg_free(struct tg *t)
{
	free(t->link);
	free(t->hs);
	free(t->mem);
}

/* Own decoding of edges and channels (header comment of updown.h). */
static u32 r_end(const struct tg *t, u32 e, u32 end)
{
	if (e < t->g.nlinks)
		return end ? t->link[e].b : t->link[e].a;
	return end ? t->hs[e - t->g.nlinks] : t->g.nswitches + e - t->g.nlinks;
}

static u32 r_from(const struct tg *t, u32 c)
{
	return r_end(t, c / 2, c % 2);
}

static u32 r_to(const struct tg *t, u32 c)
{
	return r_end(t, c / 2, 1 - c % 2);
}

static bool r_up(const struct tg *t, u32 a, u32 b)
{
	const struct mc_sw_graph *g = &t->g;

	return g->level[a] > g->level[b] ||
	       (g->level[a] == g->level[b] && g->id[a] > g->id[b]);
}

/* Route to vertex list; returns the count (hops + 1). */
static u32 route_vertices(const struct tg *t, u32 u, const u32 *chan, u32 n,
			  u32 *out)
{
	u32 i;

	out[0] = u;
	for (i = 0; i < n; i++)
		out[i + 1] = r_to(t, chan[i]);
	return n + 1;
}

/* The channel from @a to @b: the tree link if there is one, else the
 * lowest link, else the host attachment; NONE if not adjacent. */
static u32 chan_between(const struct tg *t, u32 a, u32 b)
{
	u32 e, best = NONE;

	for (e = 0; e < mc_sw_nedges(&t->g); e++) {
		u32 c;

		if (r_end(t, e, 0) == a && r_end(t, e, 1) == b)
			c = 2 * e;
		else if (r_end(t, e, 1) == a && r_end(t, e, 0) == b)
			c = 2 * e + 1;
		else
			continue;
		if (t->g.up_edge[a] == e || t->g.up_edge[b] == e)
			return c;
		if (best == NONE)
			best = c;
	}
	return best;
}

/* Reference P1: parent walks. */
static u32 ref_p1(const struct tg *t, u32 u, u32 v, u32 *out)
{
	u32 up[MAXS + 2], dn[MAXS + 2], nu = 0, nd = 0, i, j, a;

	for (a = u; a != NONE; a = t->g.parent[a])
		up[nu++] = a;
	for (a = v; a != NONE; a = t->g.parent[a])
		dn[nd++] = a;
	/* strip the common top */
	while (nu > 1 && nd > 1 && up[nu - 2] == dn[nd - 2]) {
		nu--;
		nd--;
	}
	for (i = 0; i < nu; i++)
		out[i] = up[i];
	for (j = nd - 1; j-- > 0;)
		out[i++] = dn[j];
	return i;
}

/* ---------------- schedules ---------------- */

struct ts {
	struct mc_sw_schedule s;
	u32 *ws;
};

static void ts_alloc(struct ts *t, const struct mc_sw_graph *g, u32 m)
{
	memset(t, 0, sizeof(*t));
	t->s.order = xcalloc(m + 1, sizeof(u32));
	t->s.send = xcalloc(m + 1, sizeof(struct mc_sw_send));
	t->s.route_cap = (u32)mc_sw_route_words(g, m);
	t->s.route = xcalloc(t->s.route_cap + 1, sizeof(u32));
	t->s.g = g;
}

static u32 *ts_ws(struct ts *t)
{
	free(t->ws);
	t->ws = xcalloc(mc_sw_check_ws_words(&t->s) + 1, sizeof(u32));
	return t->ws;
}

static void ts_free(struct ts *t)
{
	free(t->s.order);
	free(t->s.send);
	free(t->s.route);
	free(t->ws);
}

/* The three checkers; returns the first reason or NULL. */
static const char *check_all(struct ts *t, struct mc_sw_check_result *res)
{
	if (mc_sw_check_cover(&t->s, ts_ws(t), res))
		return res->what ? res->what : "cover: error without reason";
	if (mc_sw_check_routes(&t->s, res))
		return res->what ? res->what : "routes: error without reason";
	if (mc_sw_check_contention(&t->s, ts_ws(t), res))
		return res->what ? res->what : "contention: error without reason";
	return NULL;
}

static u32 parse_list(const char *s, u32 *out)
{
	u32 n = 0;
	char *e;

	while (*s) {
		out[n++] = (u32)strtoul(s, &e, 10);
		s = *e == ',' ? e + 1 : e;
	}
	return n;
}

static bool same_list(const u32 *a, u32 na, const u32 *b, u32 nb)
{
	return na == nb && !memcmp(a, b, na * sizeof(u32));
}

static const char *list_str(const u32 *a, u32 n)
{
	static char buf[4][256];
	static unsigned int slot;
	char *b = buf[slot++ & 3];
	size_t o = 0;
	u32 i;

	b[0] = 0;
	for (i = 0; i < n && o < 240; i++)
		o += snprintf(b + o, 256 - o, "%s%u", i ? "," : "", a[i]);
	return b;
}

/* ---------------- (a) Figure 1 ---------------- */

/*
 * Switch k-1 is the paper's vertex k.  Tree edges first, in the child
 * order of the postorder circuit; the cross links 2-5 and 3-7 last, so 5's
 * lowest link one level up is 7-5 (the paper's tree), not 2-5.
 */
static const struct mc_sw_link fig1_links[] = {
	{ 7, 1 }, { 7, 2 }, { 7, 6 }, { 1, 0 }, { 6, 4 }, { 6, 5 }, { 4, 3 },
	{ 1, 4 }, { 2, 6 },
};

#define FIG1_CROSS_FIRST 7

static void fig1(struct tg *t)
{
	tg_must(t, 8, 0, 9, fig1_links, NULL, 7);
}

static u32 lab(u32 v)
{
	return v + 1;
}

static void fig1_structure(void)
{
	static const u32 want_level[8] = { 2, 1, 1, 3, 2, 2, 1, 0 };
	static const u32 up[][2] = {
		{ 1, 2 }, { 2, 8 }, { 3, 8 }, { 4, 5 }, { 5, 2 }, { 5, 7 },
		{ 6, 7 }, { 7, 3 }, { 7, 8 },
	};
	struct tg t;
	u32 v, i, bad_id = 0, bad_lvl = 0, bad_up = 0, e;

	fig1(&t);
	for (v = 0; v < 8; v++) {
		bad_id += t.g.id[v] != lab(v);
		bad_lvl += t.g.level[v] != want_level[v];
	}
	ok(bad_id == 0, "Fig 1: postorder IDs are the paper's labels");
	ok(bad_lvl == 0, "Fig 1: levels 8:0; 2,3,7:1; 1,5,6:2; 4:3");
	ok(t.g.root == 7 && t.g.parent[4] == 6 && t.g.parent[3] == 4 &&
	   t.g.parent[0] == 1 && t.g.height == 3,
	   "Fig 1: root 8, parent(5) = 7 (not 2), parent(4) = 5, height 3");
	for (e = 0; e < 9; e++)
		bad_up += mc_sw_edge_is_tree(&t.g, e) != (e < FIG1_CROSS_FIRST);
	ok(bad_up == 0, "Fig 1: 7 tree edges, cross edges 2-5 and 3-7");
	bad_up = 0;
	for (e = 0; e < 9; e++) {
		for (i = 0; i < 2; i++) {
			u32 c = 2 * e + i, a = lab(r_from(&t, c)),
			    b = lab(r_to(&t, c)), k;
			bool want = false;

			for (k = 0; k < 9; k++)
				want |= up[k][0] == a && up[k][1] == b;
			if (mc_sw_chan_up(&t.g, c) != want) {
				diag("channel %u->%u: up %d", a, b, !want);
				bad_up++;
			}
		}
	}
	ok(bad_up == 0, "Fig 1: up channels (1,2) (2,8) (3,8) (4,5) (5,2) (5,7) (6,7) (7,3) (7,8), the rest down");
	ok(mc_sw_lca(&t.g, 0, 3) == 7 && mc_sw_lca(&t.g, 3, 5) == 6 &&
	   mc_sw_lca(&t.g, 4, 3) == 4,
	   "Fig 1: LCA(1,4) = 8, LCA(4,6) = 7, LCA(5,4) = 5");
	tg_free(&t);
}

/* The postorder circuit, children in ID order (= child order). */
static void circuit(const struct tg *t, u32 x, u32 *out, u32 *n)
{
	u32 k, c;

	out[(*n)++] = x;
	for (k = 1; k <= t->g.nverts; k++) {
		c = t->g.by_id[k - 1];
		if (t->g.parent[c] == x) {
			circuit(t, c, out, n);
			out[(*n)++] = x;
		}
	}
}

static void fig1_circuit(void)
{
	u32 want[15], got[64], n = 0, nw, i, exitp[9], bad = 0;
	struct tg t;

	fig1(&t);
	nw = parse_list("8,2,1,2,8,3,8,7,5,4,5,7,6,7,8", want);
	circuit(&t, t.g.root, got, &n);
	for (i = 0; i < n; i++)
		got[i] = lab(got[i]);
	ok(same_list(got, n, want, nw),
	   "Fig 1: postorder circuit 8,2,1,2,8,3,8,7,5,4,5,7,6,7,8 (got %s)",
	   list_str(got, n));
	for (i = 0; i < n; i++)
		exitp[got[i]] = i;
	for (i = 2; i <= 8; i++)
		bad += exitp[i] <= exitp[i - 1];
	ok(bad == 0 && exitp[1] == 2 && exitp[4] == 9 && exitp[8] == 14 &&
	   n - 1 == 2 * (8 - 1),
	   "Fig 1: exit points 2,3,5,9,10,12,13,14 rise with ID; 14 edges");
	tg_free(&t);
}

/* Labels along a route of @t from label @u by @pol. */
static u32 route_labels(const struct tg *t, enum mc_sw_policy pol, u32 u,
			u32 v, u32 *out)
{
	u32 chan[32], n, i;
	int k = mc_sw_route(&t->g, pol, u - 1, v - 1, chan, 32);

	if (k < 0)
		return 0;
	n = route_vertices(t, u - 1, chan, (u32)k, out);
	for (i = 0; i < n; i++)
		out[i] = lab(out[i]);
	return n;
}

/* Channels through labels, or 0 if two consecutive are not adjacent. */
static u32 labels_to_chans(const struct tg *t, const u32 *lb, u32 n, u32 *chan)
{
	u32 i;

	for (i = 0; i + 1 < n; i++) {
		chan[i] = chan_between(t, lb[i] - 1, lb[i + 1] - 1);
		if (chan[i] == NONE)
			return 0;
	}
	return n - 1;
}

/*
 * Every subsequence of P1(u,v) keeping both ends whose consecutive
 * vertices are adjacent: as a bitmask set, the ones mc_sw_route_relaxed
 * accepts.  Returns them as sorted strings joined by ' '.
 */
static const char *monotone_paths(const struct tg *t, u32 u, u32 v)
{
	static char buf[512];
	u32 p1[32], n = route_labels(t, MC_SW_ROUTE_STRICT, u, v, p1), mask;
	size_t o = 0;

	buf[0] = 0;
	for (mask = 0; mask < 1u << (n - 2); mask++) {
		u32 sub[32], chan[32], k = 0, i, nc;
		const char *why;

		sub[k++] = p1[0];
		for (i = 1; i + 1 < n; i++)
			if (!(mask & 1u << (i - 1)))
				sub[k++] = p1[i];
		sub[k++] = p1[n - 1];
		nc = labels_to_chans(t, sub, k, chan);
		if (!nc || mc_sw_route_relaxed(&t->g, u - 1, v - 1, chan, nc, &why))
			continue;
		o += snprintf(buf + o, sizeof(buf) - o, "%s%s", o ? " " : "",
			      list_str(sub, k));
	}
	return buf;
}

static void fig1_paths(void)
{
	static const enum mc_sw_policy rel[] = {
		MC_SW_ROUTE_CLOSEST, MC_SW_ROUTE_FARTHEST,
	};
	u32 got[32], want[32], n, nw, chan[32], nc, i;
	const char *why = NULL;
	struct tg t;

	fig1(&t);
	n = route_labels(&t, MC_SW_ROUTE_STRICT, 1, 4, got);
	nw = parse_list("1,2,8,7,5,4", want);
	ok(same_list(got, n, want, nw), "Fig 1: P1(1,4) = 1,2,8,7,5,4 (got %s)",
	   list_str(got, n));
	n = route_labels(&t, MC_SW_ROUTE_STRICT, 3, 7, got);
	nw = parse_list("3,8,7", want);
	ok(same_list(got, n, want, nw), "Fig 1: P1(3,7) = 3,8,7 (got %s)",
	   list_str(got, n));
	for (i = 0; i < 2; i++) {
		n = route_labels(&t, rel[i], 1, 4, got);
		nw = parse_list("1,2,5,4", want);
		ok(same_list(got, n, want, nw),
		   "Fig 1: relaxed route %u (1,4) = 1,2,5,4 (got %s)", rel[i],
		   list_str(got, n));
		n = route_labels(&t, rel[i], 3, 7, got);
		nw = parse_list("3,7", want);
		ok(same_list(got, n, want, nw),
		   "Fig 1: relaxed route %u (3,7) = 3,7 (got %s)", rel[i],
		   list_str(got, n));
	}
	ok(!strcmp(monotone_paths(&t, 1, 4), "1,2,8,7,5,4 1,2,5,4"),
	   "Fig 1: the monotone relaxed paths 1->4 are exactly 1,2,8,7,5,4 and 1,2,5,4 (got %s)",
	   monotone_paths(&t, 1, 4));
	ok(!strcmp(monotone_paths(&t, 3, 7), "3,8,7 3,7"),
	   "Fig 1: the monotone relaxed paths 3->7 are exactly 3,8,7 and 3,7 (got %s)",
	   monotone_paths(&t, 3, 7));
	/* N3: the paper's own invalid path is a legal up*-down* route, but
	 * not a relaxed up-first path: 3 is not on P1(1,4). */
	nw = parse_list("1,2,8,3,7,5,4", want);
	nc = labels_to_chans(&t, want, nw, chan);
	ok(nc == 6 && mc_sw_route_legal(&t.g, 0, 3, chan, nc, &why) == 0,
	   "N3: 1,2,8,3,7,5,4 is a legal up*-down* route");
	why = NULL;
	OKV(mc_sw_route_relaxed(&t.g, 0, 3, chan, nc, &why) == -EINVAL && why &&
	   !strcmp(why, "route leaves the strict up-first path (Def 4)"),
	   "N3: rejected as a relaxed up-first path (%s)", why ? why : "accepted");
	/* Illegal: down then up (8->7 down, 7->3 up); and broken chains. */
	nw = parse_list("8,7,3", want);
	nc = labels_to_chans(&t, want, nw, chan);
	why = NULL;
	OKV(mc_sw_route_legal(&t.g, 7, 2, chan, nc, &why) == -EINVAL && why &&
	   !strcmp(why, "route goes up after going down"),
	   "8,7,3 goes up after down: illegal (%s)", why ? why : "accepted");
	nw = parse_list("1,2,5,4", want);
	nc = labels_to_chans(&t, want, nw, chan);
	why = NULL;
	OKV(mc_sw_route_legal(&t.g, 0, 4, chan, nc, &why) == -EINVAL && why &&
	   !strcmp(why, "route does not end at its destination"),
	   "a route to 4 given as one to 5 is refused (%s)", why ? why : "accepted");
	chan[1] ^= 1;
	why = NULL;
	OKV(mc_sw_route_legal(&t.g, 0, 3, chan, nc, &why) == -EINVAL && why &&
	   !strcmp(why, "route channel does not leave where the previous one arrived"),
	   "a reversed channel breaks the chain (%s)", why ? why : "accepted");
	chan[1] = mc_sw_nchans(&t.g);
	why = NULL;
	OKV(mc_sw_route_legal(&t.g, 0, 3, chan, nc, &why) == -EINVAL && why &&
	   !strcmp(why, "route on a channel that does not exist"),
	   "a channel out of range is refused (%s)", why ? why : "accepted");
	/* 2->5 over the cross link, back 5->2 over the same link: legal
	 * directions (up then down) but a vertex twice. */
	nw = parse_list("5,2,5", want);
	nc = labels_to_chans(&t, want, nw, chan);
	why = NULL;
	OKV(mc_sw_route_legal(&t.g, 4, 4, chan, nc, &why) == -EINVAL && why &&
	   !strcmp(why, "route visits a vertex twice"),
	   "5,2,5 visits a vertex twice (%s)", why ? why : "accepted");
	ok(mc_sw_route(&t.g, MC_SW_ROUTE_STRICT, 0, 3, chan, 4) == -ENOSPC &&
	   mc_sw_route(&t.g, MC_SW_ROUTE_STRICT, 0, 8, chan, 32) == -EINVAL &&
	   mc_sw_route(&t.g, 3, 0, 3, chan, 32) == -EINVAL,
	   "mc_sw_route: -ENOSPC when short, -EINVAL on a bad vertex or policy");
	tg_free(&t);
}

struct gsend {
	u32 step, u, v;
	const char *p1, *closest;	/* NULL: same as P1 */
};

struct gsrc {
	u32 src;
	const char *L;
	struct gsend s[7];
};

/*
 * Notes 4.4 and 4.5.  Paths the notes leave out ("1->2", "4->5", ...) are
 * single tree edges or follow from the tree; those I derived from P1 and
 * the closest-ID rule by hand (marked d).
 */
static const struct gsrc fig1_gold[8] = {
	{ 1, "1,2,3,4,5,6,7,8", {
		{ 1, 1, 5, "1,2,8,7,5", "1,2,5" },
		{ 2, 1, 3, "1,2,8,3", NULL },
		{ 2, 5, 7, "5,7", NULL },
		{ 3, 1, 2, "1,2", NULL },			/* d */
		{ 3, 3, 4, "3,8,7,5,4", "3,7,5,4" },
		{ 3, 5, 6, "5,7,6", NULL },
		{ 3, 7, 8, "7,8", NULL } } },			/* d */
	{ 2, "2,3,4,5,6,7,8,1", {
		{ 1, 2, 6, "2,8,7,6", NULL },
		{ 2, 2, 4, "2,8,7,5,4", "2,5,4" },
		{ 2, 6, 8, "6,7,8", NULL },
		{ 3, 2, 3, "2,8,3", NULL },
		{ 3, 4, 5, "4,5", NULL },			/* d */
		{ 3, 6, 7, "6,7", NULL },			/* d */
		{ 3, 8, 1, "8,2,1", NULL } } },
	{ 3, "3,4,5,6,7,8,1,2", {
		{ 1, 3, 7, "3,8,7", "3,7" },
		{ 2, 3, 5, "3,8,7,5", "3,7,5" },
		{ 2, 7, 1, "7,8,2,1", NULL },
		{ 3, 3, 4, "3,8,7,5,4", "3,7,5,4" },
		{ 3, 5, 6, "5,7,6", NULL },
		{ 3, 7, 8, "7,8", NULL },
		{ 3, 1, 2, "1,2", NULL } } },
	{ 4, "4,5,6,7,8,1,2,3", {
		{ 1, 4, 8, "4,5,7,8", NULL },
		{ 2, 4, 6, "4,5,7,6", NULL },
		{ 2, 8, 2, "8,2", NULL },			/* d */
		{ 3, 2, 3, "2,8,3", NULL },
		{ 3, 4, 5, "4,5", NULL },			/* d */
		{ 3, 6, 7, "6,7", NULL },			/* d */
		{ 3, 8, 1, "8,2,1", NULL } } },
	{ 5, "5,6,7,8,1,2,3,4", {
		{ 1, 5, 1, "5,7,8,2,1", "5,2,1" },
		{ 2, 1, 3, "1,2,8,3", NULL },
		{ 2, 5, 7, "5,7", NULL },			/* d */
		{ 3, 1, 2, "1,2", NULL },			/* d */
		{ 3, 3, 4, "3,8,7,5,4", "3,7,5,4" },
		{ 3, 5, 6, "5,7,6", NULL },
		{ 3, 7, 8, "7,8", NULL } } },			/* d */
	{ 6, "6,7,8,1,2,3,4,5", {
		{ 1, 6, 2, "6,7,8,2", NULL },
		{ 2, 2, 4, "2,8,7,5,4", "2,5,4" },
		{ 2, 6, 8, "6,7,8", NULL },
		{ 3, 2, 3, "2,8,3", NULL },			/* d */
		{ 3, 4, 5, "4,5", NULL },			/* d */
		{ 3, 6, 7, "6,7", NULL },			/* d */
		{ 3, 8, 1, "8,2,1", NULL } } },			/* d */
	{ 7, "7,8,1,2,3,4,5,6", {
		{ 1, 7, 3, "7,8,3", "7,3" },
		{ 2, 3, 5, "3,8,7,5", "3,7,5" },
		{ 2, 7, 1, "7,8,2,1", NULL },
		{ 3, 1, 2, "1,2", NULL },			/* d */
		{ 3, 3, 4, "3,8,7,5,4", "3,7,5,4" },
		{ 3, 5, 6, "5,7,6", NULL },			/* d */
		{ 3, 7, 8, "7,8", NULL } } },			/* d */
	{ 8, "8,1,2,3,4,5,6,7", {
		{ 1, 8, 4, "8,7,5,4", NULL },
		{ 2, 4, 6, "4,5,7,6", NULL },
		{ 2, 8, 2, "8,2", NULL },			/* d */
		{ 3, 2, 3, "2,8,3", NULL },
		{ 3, 4, 5, "4,5", NULL },			/* d */
		{ 3, 6, 7, "6,7", NULL },			/* d */
		{ 3, 8, 1, "8,2,1", NULL } } },
};

/* The send of @s from label @u to label @v, or NONE. */
static u32 find_send(const struct mc_sw_schedule *s, u32 u, u32 v)
{
	u32 i;

	for (i = 0; i < s->nsend; i++)
		if (s->order[s->send[i].from] == u - 1 &&
		    s->order[s->send[i].to] == v - 1)
			return i;
	return NONE;
}

static bool send_path_is(const struct tg *t, const struct mc_sw_schedule *s,
			 u32 i, const char *want)
{
	u32 w[32], got[32], nw = parse_list(want, w), n, k;

	n = route_vertices(t, s->order[s->send[i].from],
			   s->route + s->send[i].first, s->send[i].hops, got);
	for (k = 0; k < n; k++)
		got[k] = lab(got[k]);
	if (!same_list(got, n, w, nw)) {
		diag("send %u: path %s, want %s", i, list_str(got, n), want);
		return false;
	}
	return true;
}

static void fig1_broadcasts(void)
{
	static const enum mc_sw_policy pols[] = {
		MC_SW_ROUTE_STRICT, MC_SW_ROUTE_CLOSEST, MC_SW_ROUTE_FARTHEST,
	};
	struct mc_sw_check_result res;
	struct tg t;
	u32 k, p, i;

	fig1(&t);
	for (k = 0; k < 8; k++) {
		const struct gsrc *gs = &fig1_gold[k];
		u32 dst[7], nd = 0, L[8], nl = parse_list(gs->L, L), got[8];
		bool steps_ok = true, p1_ok = true, rel_ok = true, chk_ok = true;
		const char *why = NULL, *bad = NULL;

		for (i = 0; i < 8; i++)
			if (i != gs->src - 1)
				dst[nd++] = i;
		for (p = 0; p < 3; p++) {
			struct ts ts;

			ts_alloc(&ts, &t.g, 8);
			if (mc_sw_plan(&ts.s, &t.g, pols[p], gs->src - 1, dst, nd,
				       &why)) {
				ok(0, "Fig 1 broadcast from %u: plan fails (%s)",
				   gs->src, why);
				ts_free(&ts);
				continue;
			}
			if (p == 0) {
				for (i = 0; i < 8; i++)
					got[i] = lab(ts.s.order[i]);
				ok(same_list(got, 8, L, nl),
				   "Fig 1 broadcast from %u: L = %s (got %s)",
				   gs->src, gs->L, list_str(got, 8));
			}
			for (i = 0; i < 7; i++) {
				const struct gsend *g = &gs->s[i];
				u32 x = find_send(&ts.s, g->u, g->v);

				if (x == NONE || ts.s.send[x].step != g->step) {
					diag("src %u: %u->%u in step %u missing",
					     gs->src, g->u, g->v, g->step);
					steps_ok = false;
					continue;
				}
				if (p == 0)
					p1_ok &= send_path_is(&t, &ts.s, x, g->p1);
				else
					rel_ok &= send_path_is(&t, &ts.s, x,
							       g->closest ? g->closest : g->p1);
			}
			steps_ok &= ts.s.nsend == 7 && ts.s.steps == 3;
			bad = check_all(&ts, &res);
			if (bad) {
				diag("src %u policy %u: %s", gs->src, pols[p], bad);
				chk_ok = false;
			}
			ts_free(&ts);
		}
		ok(steps_ok, "Fig 1 broadcast from %u: the 7 sends of each step, 3 steps, every policy",
		   gs->src);
		ok(p1_ok, "Fig 1 broadcast from %u: strict routes are P1", gs->src);
		ok(rel_ok, "Fig 1 broadcast from %u: closest-ID and farthest routes are the notes' closest-ID paths",
		   gs->src);
		ok(chk_ok, "Fig 1 broadcast from %u: cover, routes and contention checkers pass for every policy",
		   gs->src);
	}
	tg_free(&t);
}

/* Broadcast from 3: the pieces each receiver takes over (notes 4.4). */
static void fig1_handoff(void)
{
	static const struct {
		u32 u, v;
		const char *piece;
	} want[] = {
		{ 3, 7, "7,8,1,2" }, { 3, 5, "5,6" }, { 7, 1, "1,2" },
		{ 3, 4, "4" }, { 5, 6, "6" }, { 7, 8, "8" }, { 1, 2, "2" },
	};
	u32 dst[7] = { 0, 1, 3, 4, 5, 6, 7 }, i, k, bad = 0;
	struct tg t;
	struct ts ts;

	fig1(&t);
	ts_alloc(&ts, &t.g, 8);
	mc_sw_plan(&ts.s, &t.g, MC_SW_ROUTE_CLOSEST, 2, dst, 7, NULL);
	for (i = 0; i < 7; i++) {
		u32 x = find_send(&ts.s, want[i].u, want[i].v), w[8], got[8];
		u32 nw = parse_list(want[i].piece, w);

		if (x == NONE) {
			bad++;
			continue;
		}
		for (k = 0; k < ts.s.send[x].len; k++)
			got[k] = lab(ts.s.order[ts.s.send[x].to + k]);
		bad += !same_list(got, ts.s.send[x].len, w, nw);
	}
	ok(bad == 0, "Fig 1 from 3: hand-offs 3->7 [7,8,1,2], 3->5 [5,6], 7->1 [1,2], then one node each");
	ts_free(&ts);
	tg_free(&t);
}

/*
 * Figure 1 with its degree-1 vertices 1, 4 and 6 as hosts 0, 1, 2 of
 * switches 2, 5 and 7: switch children come before hosts, so the IDs are
 * the same, and the host vertices get 1, 4 and 6.
 */
static void fig1_hosts(void)
{
	static const struct mc_sw_link links[] = {
		/* switches: 0=v2 1=v3 2=v5 3=v7 4=v8 */
		{ 4, 0 }, { 4, 1 }, { 4, 3 }, { 3, 2 }, { 0, 2 }, { 1, 3 },
	};
	static const u32 hs[3] = { 0, 2, 3 };
	static const u32 want[8] = { 2, 3, 5, 7, 8, 1, 4, 6 };
	u32 v, bad = 0, dst[2] = { 6, 7 };
	struct tg t;
	struct ts ts;

	tg_must(&t, 5, 3, 6, links, hs, 4);
	for (v = 0; v < 8; v++)
		bad += t.g.id[v] != want[v];
	ok(bad == 0, "Fig 1 with hosts 1, 4, 6: the same postorder IDs");
	ts_alloc(&ts, &t.g, 3);
	ok(mc_sw_plan(&ts.s, &t.g, MC_SW_ROUTE_CLOSEST, 5, dst, 2, NULL) == 0 &&
	   ts.s.order[1] == 6 && ts.s.order[2] == 7 && ts.s.steps == 2 &&
	   !check_all(&ts, &(struct mc_sw_check_result){ 0 }),
	   "Fig 1 with hosts: host 0 (ID 1) to hosts 1, 2 (IDs 4, 6): L = 1,4,6, 2 steps, checkers pass");
	ts_free(&ts);
	tg_free(&t);
}

/*
 * The relaxed policies apart.  Root R; A, B under it; X under A with a
 * cross link X-B; host u on X, host v (and w) on B.  P1(u,v) = u,X,A,R,B,v.
 * With v alone on B, IDs u=1 X=2 A=3 v=4 B=5 R=6: from X, A and B are both
 * 1 from ID(v), and the tie goes to B, the farther.  With w on B too, B's
 * ID is 6: A is closer, so closest-ID climbs the tree and farthest jumps.
 */
static void test_policies(void)
{
	static const struct mc_sw_link links[] = {
		{ 0, 1 }, { 0, 2 }, { 1, 3 }, { 3, 2 },
	};
	static const u32 hs[3] = { 3, 2, 2 };
	static const char *const want[2][3] = {
		{ "u,X,A,R,B,v", "u,X,B,v", "u,X,B,v" },
		{ "u,X,A,R,B,v", "u,X,A,R,B,v", "u,X,B,v" },
	};
	static const char name[] = "RABXuvw";
	u32 chan[16], vs[16], k, p, i;
	struct tg t;

	for (k = 0; k < 2; k++) {
		tg_must(&t, 4, 2 + k, 4, links, hs, 0);
		for (p = 0; p < 3; p++) {
			char got[32];
			int n = mc_sw_route(&t.g, p, 4, 5, chan, 16);
			const char *why = "bad route";
			u32 nv;

			if (n < 0 || mc_sw_route_relaxed(&t.g, 4, 5, chan, n, &why)) {
				ok(0, "policies: route %u (%s)", p, why);
				continue;
			}
			nv = route_vertices(&t, 4, chan, n, vs);
			for (i = 0; i < nv; i++) {
				got[2 * i] = name[vs[i]];
				got[2 * i + 1] = ',';
			}
			got[2 * nv - 1] = 0;
			ok(!strcmp(got, want[k][p]),
			   "policies, %s: policy %u routes u->v as %s (got %s)",
			   k ? "B has 2 hosts" : "ID tie at X", p, want[k][p], got);
		}
		tg_free(&t);
	}
}

/* ---------------- (b) position-level schedules ---------------- */

static int cmp_send(const void *pa, const void *pb)
{
	const struct mc_sw_send *a = pa, *b = pb;

	if (a->step != b->step)
		return a->step < b->step ? -1 : 1;
	return a->from < b->from ? -1 : a->from > b->from;
}

static const char *pos_schedule(const struct mc_sw_schedule *s)
{
	static char buf[1024];
	struct mc_sw_send *c = xcalloc(s->nsend + 1, sizeof(*c));
	size_t o = 0;
	u32 i;

	memcpy(c, s->send, s->nsend * sizeof(*c));
	qsort(c, s->nsend, sizeof(*c), cmp_send);
	buf[0] = 0;
	for (i = 0; i < s->nsend; i++)
		o += snprintf(buf + o, sizeof(buf) - o, "%s%u:%u>%u-%u",
			      i ? " " : "", c[i].step, c[i].from, c[i].to,
			      c[i].to + c[i].len - 1);
	free(c);
	return buf;
}

/* One switch with @n hosts: vertex 0 the switch, 1..n the hosts. */
static void star(struct tg *t, u32 n)
{
	u32 *hs = xcalloc(n, sizeof(u32));

	tg_must(t, 1, n, 0, NULL, hs, MC_SW_ROOT_CENTER);
	free(hs);
}

static void positions(void)
{
	static const struct {
		u32 m;
		const char *want;
	} gold[] = {
		{ 8, "1:0>4-7 2:0>2-3 2:4>6-7 3:0>1-1 3:2>3-3 3:4>5-5 3:6>7-7" },
		{ 13, "1:0>7-12 2:0>4-6 2:7>10-12 3:0>2-3 3:4>6-6 3:7>9-9 "
		      "3:10>12-12 4:0>1-1 4:2>3-3 4:4>5-5 4:7>8-8 4:10>11-11" },
	};
	static const u32 dsteps[][2] = {
		{ 0, 0 }, { 1, 1 }, { 2, 2 }, { 3, 2 }, { 4, 3 }, { 7, 3 },
		{ 8, 4 }, { 15, 4 }, { 16, 5 }, { 31, 5 }, { 63, 6 }, { 64, 7 },
		{ 255, 8 }, { 256, 9 },
	};
	struct mc_sw_check_result res;
	struct tg t;
	u32 i, k, bad = 0;

	star(&t, 300);
	for (i = 0; i < 2; i++) {
		struct ts ts;

		ts_alloc(&ts, &t.g, gold[i].m);
		ts.s.m = gold[i].m;
		for (k = 0; k < gold[i].m; k++)
			ts.s.order[k] = k + 1;
		mc_sw_plan_order(&ts.s, &t.g, MC_SW_ROUTE_STRICT, NULL);
		ok(!strcmp(pos_schedule(&ts.s), gold[i].want),
		   "positions m = %u: %s", gold[i].m, pos_schedule(&ts.s));
		ts_free(&ts);
	}
	for (i = 0; i < sizeof(dsteps) / sizeof(dsteps[0]); i++) {
		u32 d = dsteps[i][0], *dst = xcalloc(d + 1, sizeof(u32));
		struct ts ts;

		for (k = 0; k < d; k++)
			dst[k] = k + 2;
		ts_alloc(&ts, &t.g, d + 1);
		if (mc_sw_plan(&ts.s, &t.g, MC_SW_ROUTE_STRICT, 1, dst, d, NULL) ||
		    ts.s.steps != dsteps[i][1] || ts.s.nsend != d ||
		    check_all(&ts, &res)) {
			diag("d = %u: steps %u sends %u", d, ts.s.steps, ts.s.nsend);
			bad++;
		}
		ts_free(&ts);
		free(dst);
	}
	ok(bad == 0, "step table: d = 0,1,2,3,4,7,8,15,16,31,63,64,255,256 take 0,1,2,2,3,3,4,4,5,5,6,7,8,9 steps, d sends");
	tg_free(&t);
}

/* ---------------- (c) negative vectors and faults ---------------- */

/*
 * N1 (notes 2.8): root r; tree r-a, r-b, a-u, b-v; cross u-b, a-v; w a
 * host on u.  Switches r=0 a=1 b=2 u=3 v=4; w = vertex 5.
 */
static const struct mc_sw_link n1_links[] = {
	{ 0, 1 }, { 0, 2 }, { 1, 3 }, { 2, 4 }, { 3, 2 }, { 1, 4 },
};

static void test_n1(void)
{
	static const u32 want_id[6] = { 6, 3, 5, 2, 4, 1 };
	static const u32 hs[1] = { 3 };
	u32 dst[3] = { 5, 3, 4 }, v, bad = 0, uv, rw, lit[4], i;
	struct mc_sw_conflict cf[4];
	struct mc_sw_check_result res;
	const char *why;
	struct tg t;
	struct ts ts;
	u64 cnt = 0;

	tg_must(&t, 5, 1, 6, n1_links, hs, 0);
	for (v = 0; v < 6; v++)
		bad += t.g.id[v] != want_id[v];
	ok(bad == 0, "N1: IDs w=1 u=2 a=3 v=4 b=5 r=6");
	ts_alloc(&ts, &t.g, 4);
	mc_sw_plan(&ts.s, &t.g, MC_SW_ROUTE_STRICT, 0, dst, 3, NULL);
	ok(ts.s.order[1] == 5 && ts.s.order[2] == 3 && ts.s.order[3] == 4,
	   "N1: L = r, w, u, v");
	ok(!check_all(&ts, &res), "N1: with monotone routes every checker passes");
	/* u->v on the literal Def 4 path u, b, r, a, v */
	uv = NONE;
	rw = NONE;
	for (i = 0; i < ts.s.nsend; i++) {
		if (ts.s.order[ts.s.send[i].from] == 3)
			uv = i;
		if (ts.s.order[ts.s.send[i].to] == 5)
			rw = i;
	}
	lit[0] = 2 * 4 + 0;	/* u->b, link 4 a->b */
	lit[1] = 2 * 1 + 1;	/* b->r, link 1 backwards */
	lit[2] = 2 * 0 + 0;	/* r->a */
	lit[3] = 2 * 5 + 0;	/* a->v */
	ok(mc_sw_route_legal(&t.g, 3, 4, lit, 4, &why) == 0,
	   "N1: u,b,r,a,v is a legal up*-down* route");
	memcpy(ts.s.route + ts.s.nroute, lit, sizeof(lit));
	ts.s.send[uv].first = ts.s.nroute;
	ts.s.send[uv].hops = 4;
	ts.s.nroute += 4;
	OKV(mc_sw_check_routes(&ts.s, &res) == -EINVAL && res.send_a == uv &&
	   !strcmp(res.what, "route goes back along the strict up-first path"),
	   "N1: the route checker refuses it (%s)", res.what ? res.what : "passed");
	OKV(mc_sw_check_contention(&ts.s, ts_ws(&ts), &res) == -EINVAL &&
	   res.chan == lit[2] && res.what &&
	   !strcmp(res.what, "step contention: two sends of one step share a channel") &&
	   ((res.send_a == uv && res.send_b == rw) ||
	    (res.send_a == rw && res.send_b == uv)),
	   "N1: step contention on (r,a) between r->w and u->v in step 2 (%s)",
	   res.what ? res.what : "passed");
	OKV(mc_sw_conflicts(&ts.s, ts_ws(&ts), cf, 4, &cnt, &res) == 0 &&
	   cnt == 1 && cf[0].chan == lit[2] &&
	   ts.s.send[cf[0].send_a].step == 2 && ts.s.send[cf[0].send_b].step == 2,
	   "N1: mc_sw_conflicts lists exactly that channel, steps 2 and 2 (%llu)",
	   (unsigned long long)cnt);
	ts_free(&ts);
	tg_free(&t);
}

/*
 * N2 (notes 2.18): root r with children a, b; c under a.  BFS-order IDs
 * r=1 a=2 b=3 c=4 give L = r, a, b, c and b->c shares (r,a) with r->a.
 */
static void test_n2(void)
{
	static const struct mc_sw_link links[] = { { 0, 1 }, { 0, 2 }, { 1, 3 } };
	struct mc_sw_check_result res;
	u32 dst[3] = { 1, 2, 3 }, ra = 0;
	struct tg t;
	struct ts ts;

	tg_must(&t, 4, 0, 3, links, NULL, 0);
	ts_alloc(&ts, &t.g, 4);
	ts.s.m = 4;
	ts.s.order[0] = 0;
	ts.s.order[1] = 1;
	ts.s.order[2] = 2;
	ts.s.order[3] = 3;
	mc_sw_plan_order(&ts.s, &t.g, MC_SW_ROUTE_STRICT, NULL);
	ok(mc_sw_check_cover(&ts.s, ts_ws(&ts), &res) == 0 &&
	   mc_sw_check_routes(&ts.s, &res) == 0,
	   "N2: BFS-order L = r,a,b,c: cover and routes pass");
	OKV(mc_sw_check_contention(&ts.s, ts_ws(&ts), &res) == -EINVAL &&
	   res.chan == ra,
	   "N2: contention on (r,a) (%s, channel %u)", res.what ? res.what : "passed",
	   res.chan);
	mc_sw_plan(&ts.s, &t.g, MC_SW_ROUTE_STRICT, 0, dst, 3, NULL);
	OKV(ts.s.order[1] == 3 && ts.s.order[2] == 1 && ts.s.order[3] == 2 &&
	   !check_all(&ts, &res),
	   "N2: postorder L = r,c,a,b passes (%s)", res.what ? res.what : "-");
	ts_free(&ts);
	tg_free(&t);
}

/* Hand-made faults on the Fig 1 broadcast from 3. */
static void test_faults(void)
{
	u32 dst[7] = { 0, 1, 3, 4, 5, 6, 7 }, i, a = NONE, b = NONE;
	struct mc_sw_check_result res;
	struct tg t;
	struct ts ts;
	int rc;

#define FRESH() mc_sw_plan(&ts.s, &t.g, MC_SW_ROUTE_CLOSEST, 2, dst, 7, NULL)
#define COVER_FAILS(reason, ...) do {					\
		res.what = NULL;					\
		rc = mc_sw_check_cover(&ts.s, ts_ws(&ts), &res);	\
		ok(rc == -EINVAL && res.what && !strcmp(res.what, reason), \
		   __VA_ARGS__);					\
		if (res.what && strcmp(res.what, reason))		\
			diag("got: %s", res.what);			\
		FRESH();						\
	} while (0)

	fig1(&t);
	ts_alloc(&ts, &t.g, 8);
	FRESH();
	for (i = 0; i < ts.s.nsend; i++) {
		if (ts.s.send[i].step == 3 && ts.s.send[i].from == 0)
			a = i;		/* 3->4 */
		if (ts.s.send[i].step == 3 && ts.s.send[i].from == 2)
			b = i;		/* 5->6 */
	}
	ok(a != NONE && b != NONE && ts.s.send[b].to == 3,
	   "faults: 3->4 and 5->6 found in step 3");
	ts.s.send[a].to = 3;
	COVER_FAILS("destination reached twice", "faults: a destination reached twice");
	ts.s.send[a].to = 0;
	COVER_FAILS("the source receives", "faults: a send to the source");
	ts.s.nsend--;
	COVER_FAILS("not one send per destination", "faults: a send missing");
	ts.s.send[b].step = 2;
	COVER_FAILS("a node sends before it has received",
		    "faults: 5 sends in the step it receives");
	ts.s.send[a].step = 2;
	COVER_FAILS("a node sends twice in one step", "faults: 3 sends twice in step 2");
	ts.s.send[a].len = 8;
	COVER_FAILS("piece outside the order", "faults: a piece past the end of L");
	ts.s.send[b].to = 1;	/* 5 serves 4, which 3 keeps */
	ts.s.send[a].to = 3;
	COVER_FAILS("a node is reached outside its sender's piece",
		    "faults: swapped receivers leave a sender's piece");
	ts.s.order[5] = 2;
	COVER_FAILS("vertex repeated in the order", "faults: a vertex twice in L");
	ts.s.order[5] = 8;
	COVER_FAILS("order holds a vertex outside the graph",
		    "faults: a vertex outside the graph");
	ts.s.steps = 4;
	COVER_FAILS("step count differs from the sends' last step",
		    "faults: a wrong step count");
	ts.s.send[b].len = 2;	/* 6 claims 7 too, which 7 serves */
	COVER_FAILS("a piece differs from what its subtree reaches",
		    "faults: a piece larger than its subtree");
	/* separate addressing: valid pieces, but 7 steps */
	for (i = 0; i < 7; i++) {
		ts.s.send[i].step = i + 1;
		ts.s.send[i].from = 0;
		ts.s.send[i].to = i + 1;
		ts.s.send[i].len = 1;
	}
	ts.s.steps = 7;
	COVER_FAILS("not the optimal ceil(log2(d+1)) steps",
		    "faults: separate addressing is not optimal");
	/* a chain: each node hands all but itself on */
	for (i = 0; i < 7; i++) {
		ts.s.send[i].step = i + 1;
		ts.s.send[i].from = i;
		ts.s.send[i].to = i + 1;
		ts.s.send[i].len = 7 - i;
	}
	ts.s.steps = 7;
	COVER_FAILS("not the optimal ceil(log2(d+1)) steps",
		    "faults: a chain is not optimal");
	ok(mc_sw_check_cover(&ts.s, ts_ws(&ts), &res) == 0 && !res.what,
	   "faults: the fresh plan passes again");
	ts.s.send[a].first = ts.s.nroute;
	ts.s.send[a].hops = 1;
	ok(mc_sw_check_routes(&ts.s, &res) == -EINVAL && res.send_a == a &&
	   !strcmp(res.what, "route outside the route array"),
	   "faults: a route past the route array");
	for (i = 0; i < ts.s.nsend; i++) {
		ts.s.send[i].first = 0;
		ts.s.send[i].hops = ts.s.nroute;
	}
	res.what = NULL;
	rc = mc_sw_check_contention(&ts.s, ts_ws(&ts), &res);
	ok(rc == -EINVAL && res.what &&
	   !strcmp(res.what, "routes overlap in the route array"),
	   "faults: every send on the whole route array (no overrun of the scratch)");
	ts_free(&ts);
	tg_free(&t);
#undef FRESH
#undef COVER_FAILS
}

/* ---------------- (d) build and order errors ---------------- */

static void build_err(u32 ns, u32 nh, u32 nl, const struct mc_sw_link *l,
		      const u32 *hs, u32 root, const char *want, u32 bad,
		      const char *name)
{
	const char *why = NULL;
	struct tg t;
	int rc = tg_build(&t, ns, nh, nl, l, hs, root, &why);

	ok(rc == -EINVAL && why && !strcmp(why, want) && t.g.bad == bad,
	   "build refuses %s: %s (bad %u)", name, why ? why : "built", t.g.bad);
	tg_free(&t);
}

static void test_build_errors(void)
{
	static const struct mc_sw_link l3[] = { { 0, 1 }, { 1, 2 }, { 2, 7 } };
	static const struct mc_sw_link loop[] = { { 0, 1 }, { 1, 1 } };
	static const struct mc_sw_link split[] = { { 0, 1 }, { 2, 3 }, { 4, 2 } };
	static const u32 hs[3] = { 0, 1, 9 };
	struct mc_sw_link *many = xcalloc(MC_SW_MAX_LINKS + 1, sizeof(*many));
	u32 i;

	build_err(0, 0, 0, NULL, NULL, MC_SW_ROOT_CENTER, "no switch", NONE,
		  "an empty graph");
	build_err(3, 0, 3, l3, NULL, 0, "link to a switch that does not exist",
		  2, "a link to switch 7 of 3");
	build_err(2, 0, 2, loop, NULL, 0, "link from a switch to itself", 1,
		  "a self-loop");
	build_err(2, 3, 1, l3, hs, 0, "host on a switch that does not exist", 2,
		  "host 2 on switch 9");
	build_err(2, 0, 1, l3, NULL, 2, "root is not a switch", 2, "root 2 of 2");
	build_err(5, 0, 3, split, NULL, 0, "switches not connected", 2,
		  "two components (first unreached: 2)");
	build_err(5, 0, 3, split, NULL, 3, "switches not connected", 0,
		  "two components from root 3 (first unreached: 0)");
	build_err(MC_SW_MAX_SWITCHES + 1, 0, 0, NULL, NULL, 0, "too many switches",
		  NONE, "1025 switches");
	for (i = 0; i <= MC_SW_MAX_LINKS; i++)
		many[i] = (struct mc_sw_link){ 0, 1 };
	build_err(2, 0, MC_SW_MAX_LINKS + 1, many, NULL, 0, "too many links",
		  NONE, "8193 links");
	build_err(2, MC_SW_MAX_HOSTS + 1, 0, NULL, (u32 *)many, 0,
		  "too many hosts", NONE, "4097 hosts");
	free(many);
}

static void test_order_errors(void)
{
	struct tg t;
	u32 order[8], dst[3], mem[8];
	const char *why;
	struct mc_chain c;

#define ORDER_FAILS(src, nd, reason) do {				\
		why = NULL;						\
		OKV(mc_sw_order(&t.g, src, dst, nd, order, &why) == -EINVAL && \
		   why && !strcmp(why, reason), "order refuses: %s (%s)", \
		   reason, why ? why : "accepted");			\
	} while (0)

	fig1(&t);
	dst[0] = 1;
	dst[1] = 8;
	ORDER_FAILS(0, 2, "destination is not a vertex of the graph");
	ORDER_FAILS(9, 1, "source is not a vertex of the graph");
	dst[1] = 0;
	ORDER_FAILS(0, 2, "the source is among the destinations");
	dst[1] = 3;
	dst[2] = 1;
	ORDER_FAILS(0, 3, "destination repeated");
	why = NULL;
	ok(mc_sw_rank_order(&t.g, 4, dst, 2, order, &why) == 0 &&
	   order[0] == 4 && order[1] == 1 && order[2] == 3,
	   "rank order from 4 over {1,3}: 4, 1, 3 (wraps past the last vertex)");
	mem[0] = 6;
	mem[1] = 0;
	mem[2] = 2;
	mem[3] = 4;
	ok(mc_sw_sort_members(&t.g, mem, 4, &why) == 0 && mem[0] == 0 &&
	   mem[1] == 2 && mem[2] == 4 && mem[3] == 6,
	   "sort members by ID: labels 7,1,3,5 -> 1,3,5,7");
	ok(mc_sw_chain(&t.g, mem, 4, 4, &c) == 0 && mc_chain_at(&c, 0) == 4 &&
	   mc_chain_at(&c, 1) == 6 && mc_chain_at(&c, 2) == 0 &&
	   mc_sw_chain(&t.g, mem, 4, 5, &c) == -ENOENT,
	   "mc_sw_chain: rotated to the source (5,7,1,3), -ENOENT when absent");
	mem[3] = 2;
	why = NULL;
	ok(mc_sw_sort_members(&t.g, mem, 4, &why) == -EINVAL && why &&
	   !strcmp(why, "member repeated"), "sort members refuses a repeat");
	tg_free(&t);
#undef ORDER_FAILS
}

/* ---------------- (e) rank-order binomial trees ---------------- */

static bool route_has(const struct mc_sw_schedule *s, u32 i, u32 c)
{
	u32 h;

	for (h = 0; h < s->send[i].hops; h++)
		if (s->route[s->send[i].first + h] == c)
			return true;
	return false;
}

static void test_binomial(void)
{
	/* Two switches, one link; hosts 0,2 on A and 1,3 on B. */
	static const struct mc_sw_link ab[] = { { 0, 1 } };
	static const u32 hs2[4] = { 0, 1, 0, 1 };
	struct mc_sw_link ft[8];
	u32 hs16[16], dst[15], i, j, bad = 0;
	struct mc_sw_conflict cf[64];
	struct mc_sw_check_result res;
	struct tg t;
	struct ts ts;
	u64 cnt = 0;

	tg_must(&t, 2, 4, 1, ab, hs2, 0);
	for (i = 0; i < 3; i++)
		dst[i] = 2 + 1 + i;
	ts_alloc(&ts, &t.g, 4);
	mc_sw_rank_order(&t.g, 2, dst, 3, ts.s.order, NULL);
	ts.s.m = 4;
	mc_sw_plan_order(&ts.s, &t.g, MC_SW_ROUTE_CLOSEST, NULL);
	ok(mc_sw_check_cover(&ts.s, ts_ws(&ts), &res) == 0 &&
	   mc_sw_check_routes(&ts.s, &res) == 0,
	   "binomial, 2 switches: rank order 0,1,2,3 is a valid optimal schedule");
	OKV(mc_sw_check_contention(&ts.s, ts_ws(&ts), &res) == -EINVAL &&
	   res.chan == MC_SW_CHAN(0u, 0u),
	   "binomial, 2 switches: 0->1 and 2->3 share A->B in step 2 (%s)",
	   res.what ? res.what : "passed");
	ok(mc_sw_conflicts(&ts.s, ts_ws(&ts), cf, 64, &cnt, &res) == 0 &&
	   cnt == 1 && cf[0].chan == 0 &&
	   ts.s.send[cf[0].send_a].step == 2 && ts.s.send[cf[0].send_b].step == 2,
	   "binomial, 2 switches: the conflict list is that channel, steps 2 and 2");
	mc_sw_plan(&ts.s, &t.g, MC_SW_ROUTE_CLOSEST, 2, dst, 3, NULL);
	ok(!check_all(&ts, &res) &&
	   mc_sw_conflicts(&ts.s, ts_ws(&ts), cf, 64, &cnt, &res) == 0 && cnt == 0,
	   "binomial, 2 switches: the postorder order passes, no conflicts");
	ts_free(&ts);
	tg_free(&t);

	/*
	 * Fat tree: spines 0, 1; leaves 2..5, each linked to both spines;
	 * host h on leaf 2 + h % 4.  From host 0 the rank order's step 3 has
	 * hosts 0, 4, 8, 12 (leaf 2) all send to leaf 4: four sends over
	 * two uplinks, so two share one whatever the routes.
	 */
	for (i = 0; i < 4; i++) {
		ft[2 * i] = (struct mc_sw_link){ 2 + i, 0 };
		ft[2 * i + 1] = (struct mc_sw_link){ 2 + i, 1 };
	}
	for (i = 0; i < 16; i++)
		hs16[i] = 2 + i % 4;
	tg_must(&t, 6, 16, 8, ft, hs16, MC_SW_ROOT_CENTER);
	for (i = 0; i < 15; i++)
		dst[i] = 6 + 1 + i;
	ts_alloc(&ts, &t.g, 16);
	for (j = 0; j < 3; j++) {
		mc_sw_rank_order(&t.g, 6, dst, 15, ts.s.order, NULL);
		ts.s.m = 16;
		mc_sw_plan_order(&ts.s, &t.g, j, NULL);
		if (mc_sw_check_contention(&ts.s, ts_ws(&ts), &res) != -EINVAL ||
		    mc_sw_conflicts(&ts.s, ts_ws(&ts), cf, 64, &cnt, &res) ||
		    cnt == 0)
			bad++;
		for (i = 0; i < cnt && i < 64; i++)
			bad += !route_has(&ts.s, cf[i].send_a, cf[i].chan) ||
			       !route_has(&ts.s, cf[i].send_b, cf[i].chan) ||
			       ts.s.send[cf[i].send_a].step >
			       ts.s.send[cf[i].send_b].step;
		diag("fat tree, round-robin hosts, policy %u: %llu conflicting pairs",
		     j, (unsigned long long)cnt);
		mc_sw_plan(&ts.s, &t.g, j, 6, dst, 15, NULL);
		bad += check_all(&ts, &res) != NULL;
	}
	ok(bad == 0, "binomial, fat tree with hosts round-robin over leaves: contention found under every policy, every listed conflict on both routes; the postorder schedule passes");
	ts_free(&ts);
	tg_free(&t);
}

/* ---------------- (f) properties ---------------- */


struct gen {
	u32 ns, nh, nl, root;
	struct mc_sw_link link[MAXL];
	u32 hs[MAXH];
};

static void add_link(struct gen *g, struct rng *r, u32 a, u32 b)
{
	if (g->nl == MAXL)
		return;
	g->link[g->nl++] = rng_below(r, 2) ? (struct mc_sw_link){ a, b } :
					     (struct mc_sw_link){ b, a };
}

static void shuffle_links(struct gen *g, struct rng *r)
{
	u32 i, j;

	for (i = g->nl; i > 1; i--) {
		struct mc_sw_link x;

		j = rng_below(r, i);
		x = g->link[i - 1];
		g->link[i - 1] = g->link[j];
		g->link[j] = x;
	}
}

static void add_hosts(struct gen *g, struct rng *r, u32 per_max, bool each)
{
	u32 s, k, n;

	g->nh = 0;
	for (s = 0; s < g->ns; s++) {
		n = each ? 1 + rng_below(r, per_max) : rng_below(r, per_max + 1);
		for (k = 0; k < n && g->nh < MAXH; k++)
			g->hs[g->nh++] = s;
	}
	/* host numbers in random order, not switch by switch */
	for (k = g->nh; k > 1; k--) {
		u32 j = rng_below(r, k), x = g->hs[k - 1];

		g->hs[k - 1] = g->hs[j];
		g->hs[j] = x;
	}
}

/* A random tree, extra links, some of them parallel. */
static void gen_general(struct gen *g, struct rng *r)
{
	u32 i, extra;

	g->ns = 1 + rng_below(r, 40);
	g->nl = 0;
	for (i = 1; i < g->ns; i++)
		add_link(g, r, i, rng_below(r, i));
	extra = g->ns > 1 ? rng_below(r, 2 * g->ns) : 0;
	for (i = 0; i < extra; i++) {
		u32 a = rng_below(r, g->ns), b = rng_below(r, g->ns);

		if (rng_below(r, 4) == 0 && g->nl) {
			struct mc_sw_link x = g->link[rng_below(r, g->nl)];

			add_link(g, r, x.a, x.b);	/* parallel */
		} else if (a != b) {
			add_link(g, r, a, b);
		}
	}
	shuffle_links(g, r);
	add_hosts(g, r, 3, false);
	if (g->nh < 2) {
		g->hs[g->nh++] = 0;
		g->hs[g->nh++] = g->ns - 1;
	}
}

/*
 * Large: a random tree over up to 1024 switches, extra and parallel links,
 * up to 4 hosts a switch; with @full, exactly at every limit.
 */
static void gen_big(struct gen *g, struct rng *r, bool full)
{
	u32 i;

	g->ns = full ? MAXS : 200 + rng_below(r, MAXS - 199);
	g->nl = 0;
	for (i = 1; i < g->ns; i++)
		add_link(g, r, i, rng_below(r, i));
	while (g->nl < (full ? MAXL : 2 * g->ns)) {
		u32 a = rng_below(r, g->ns), b = rng_below(r, g->ns);

		if (rng_below(r, 8) == 0) {
			struct mc_sw_link x = g->link[rng_below(r, g->nl)];

			add_link(g, r, x.a, x.b);	/* parallel */
		} else if (a != b) {
			add_link(g, r, a, b);
		}
	}
	shuffle_links(g, r);
	add_hosts(g, r, full ? 4 : 3, full);
	for (i = 0; full && g->nh < MAXH; i++)
		g->hs[g->nh++] = i % g->ns;
}

/* The paper's: random points of a lattice grown from one, joined to
 * lattice neighbours; one host per switch, or a few. */
static void gen_lattice(struct gen *g, struct rng *r)
{
	enum { W = 12 };
	int at[W][W], x, y, d;
	u32 px[MAXS], py[MAXS], i, target = 2 + rng_below(r, 38);
	static const int dx[4] = { 1, -1, 0, 0 }, dy[4] = { 0, 0, 1, -1 };

	memset(at, -1, sizeof(at));
	g->ns = 0;
	px[0] = W / 2;
	py[0] = W / 2;
	at[W / 2][W / 2] = 0;
	g->ns = 1;
	while (g->ns < target) {
		i = rng_below(r, g->ns);
		d = (int)rng_below(r, 4);
		x = (int)px[i] + dx[d];
		y = (int)py[i] + dy[d];
		if (x < 0 || y < 0 || x >= W || y >= W || at[x][y] >= 0)
			continue;
		at[x][y] = (int)g->ns;
		px[g->ns] = x;
		py[g->ns] = y;
		g->ns++;
	}
	g->nl = 0;
	for (i = 0; i < g->ns; i++) {
		x = (int)px[i];
		y = (int)py[i];
		if (x + 1 < W && at[x + 1][y] >= 0)
			add_link(g, r, i, at[x + 1][y]);
		if (y + 1 < W && at[x][y + 1] >= 0)
			add_link(g, r, i, at[x][y + 1]);
	}
	shuffle_links(g, r);
	add_hosts(g, r, rng_below(r, 2) ? 1 : 3, true);
}

/* Own BFS levels of the switches from @root. */
static void ref_levels(const struct tg *t, u32 root, u32 *lvl)
{
	u32 q[MAXS], head = 0, tail = 0, x, e, y;

	for (x = 0; x < t->g.nswitches; x++)
		lvl[x] = NONE;
	lvl[root] = 0;
	q[tail++] = root;
	while (head < tail) {
		x = q[head++];
		for (e = 0; e < t->g.nlinks; e++) {
			if (t->link[e].a == x)
				y = t->link[e].b;
			else if (t->link[e].b == x)
				y = t->link[e].a;
			else
				continue;
			if (lvl[y] == NONE) {
				lvl[y] = lvl[x] + 1;
				q[tail++] = y;
			}
		}
	}
}

static u32 ref_center(const struct tg *t)
{
	u32 lvl[MAXS], r, x, ecc, best = 0, best_ecc = NONE;

	for (r = 0; r < t->g.nswitches; r++) {
		ref_levels(t, r, lvl);
		for (x = 0, ecc = 0; x < t->g.nswitches; x++)
			if (lvl[x] > ecc)
				ecc = lvl[x];
		if (ecc < best_ecc) {
			best_ecc = ecc;
			best = r;
		}
	}
	return best;
}

/* Own postorder: children over links by index, then hosts by number. */
static void ref_post(const struct tg *t, u32 x, u32 *id, u32 *lo, u32 *next)
{
	u32 e, c, first = *next + 1;

	for (e = 0; x < t->g.nswitches && e < mc_sw_nedges(&t->g); e++) {
		if (r_end(t, e, 0) == x)
			c = r_end(t, e, 1);
		else if (r_end(t, e, 1) == x)
			c = r_end(t, e, 0);
		else
			continue;
		if (t->g.up_edge[c] == e && t->g.parent[c] == x)
			ref_post(t, c, id, lo, next);
	}
	id[x] = ++*next;
	lo[x] = first;
}

/* The tree against one built here.  NULL or what differs. */
static const char *ref_tree(const struct tg *t, u32 want_root)
{
	const struct mc_sw_graph *g = &t->g;
	u32 lvl[MAXS], id[MAXS + MAXH], lo[MAXS + MAXH], next = 0, x, e, h;
	u32 tour[2 * (MAXS + MAXH)], n = 0, exitp[MAXS + MAXH + 1], height = 0;

	if (g->root != want_root)
		return "root";
	ref_levels(t, g->root, lvl);
	for (x = 0; x < g->nswitches; x++) {
		if (g->level[x] != lvl[x])
			return "switch level is not the BFS distance";
		if (lvl[x] > height)
			height = lvl[x];
		if (x == g->root) {
			if (g->parent[x] != NONE || g->up_edge[x] != NONE)
				return "root has a parent";
			continue;
		}
		for (e = 0; e < g->nlinks; e++) {
			u32 y = t->link[e].a == x ? t->link[e].b :
				t->link[e].b == x ? t->link[e].a : NONE;

			if (y != NONE && lvl[y] + 1 == lvl[x])
				break;
		}
		if (e == g->nlinks)
			return "no link one level up";
		if (g->up_edge[x] != e || g->parent[x] != r_end(t, e, 0) + r_end(t, e, 1) - x)
			return "parent is not over the lowest link one level up";
	}
	for (h = 0; h < g->nhosts; h++) {
		x = g->nswitches + h;
		if (g->parent[x] != t->hs[h] || g->up_edge[x] != g->nlinks + h ||
		    g->level[x] != lvl[t->hs[h]] + 1)
			return "host not a child of its switch";
		if (g->level[x] > height)
			height = g->level[x];
	}
	if (g->height != height)
		return "height";
	for (e = 0; e < g->nlinks; e++)
		if (lvl[t->link[e].a] > lvl[t->link[e].b] + 1 ||
		    lvl[t->link[e].b] > lvl[t->link[e].a] + 1)
			return "a link spans two levels";
	ref_post(t, g->root, id, lo, &next);
	if (next != g->nverts)
		return "tree does not span";
	for (x = 0; x < g->nverts; x++) {
		if (g->id[x] != id[x] || g->lo[x] != lo[x])
			return "postorder IDs or subtree ranges differ";
		if (g->by_id[id[x] - 1] != x)
			return "by_id is not the inverse";
	}
	circuit(t, g->root, tour, &n);
	if (n != 2 * (g->nverts - 1) + 1)
		return "postorder circuit length";
	for (x = 0; x < n; x++)
		exitp[g->id[tour[x]]] = x;
	for (x = 2; x <= g->nverts; x++)
		if (exitp[x] <= exitp[x - 1])
			return "exit points do not rise with ID";
	for (x = 0; x < mc_sw_nchans(g); x++)
		if (mc_sw_chan_up(g, x) != r_up(t, r_from(t, x), r_to(t, x)))
			return "channel orientation";
	return NULL;
}

/* A route's vertices are a subsequence of ref P1, legal up*-down*. */
static const char *ref_route(const struct tg *t, u32 u, u32 v, const u32 *chan,
			     u32 n, bool strict)
{
	u32 p1[2 * MAXS + 4], np = ref_p1(t, u, v, p1), vs[2 * MAXS + 4], i, j;
	bool down = false;

	if (n + 1 > np)
		return "longer than P1";
	route_vertices(t, u, chan, n, vs);
	if (vs[n] != v)
		return "does not reach v";
	for (i = 0, j = 0; i <= n; i++, j++) {
		while (j < np && p1[j] != vs[i])
			j++;
		if (j == np)
			return "not a subsequence of P1";
	}
	if (strict && np != n + 1)
		return "strict route is not P1";
	for (i = 0; i < n; i++) {
		bool up = r_up(t, r_from(t, chan[i]), r_to(t, chan[i]));

		if (up && down)
			return "up after down";
		down |= !up;
	}
	return NULL;
}

/*
 * Deadlock freedom: the channel dependency graph of every route between
 * every two hosts, by @pol, has no cycle (Kahn).
 */
static bool cdg_acyclic(const struct tg *t, enum mc_sw_policy pol)
{
	u32 nc = mc_sw_nchans(&t->g), nh = t->g.nhosts, a, b, i, k;
	u32 *indeg = xcalloc(nc, sizeof(u32)), *q = xcalloc(nc, sizeof(u32));
	u32 rmax = mc_sw_route_max(&t->g);
	u32 *from = xcalloc((size_t)nh * nh * rmax + 1, sizeof(u32));
	u32 *to = xcalloc((size_t)nh * nh * rmax + 1, sizeof(u32));
	u32 *off = xcalloc(nc + 1, sizeof(u32)), *out;
	u32 ne = 0, head = 0, tail = 0, done = 0, chan[2 * MAXS + 4];
	bool acyclic;

	for (a = 0; a < nh; a++) {
		for (b = 0; b < nh; b++) {
			int n = mc_sw_route(&t->g, pol, t->g.nswitches + a,
					    t->g.nswitches + b, chan, rmax);

			for (i = 1; (int)i < n; i++) {
				from[ne] = chan[i - 1];
				to[ne++] = chan[i];
				indeg[chan[i]]++;
			}
		}
	}
	/* successors by channel (a counting sort) */
	out = xcalloc(ne + 1, sizeof(u32));
	for (k = 0; k < ne; k++)
		off[from[k] + 1]++;
	for (i = 0; i < nc; i++)
		off[i + 1] += off[i];
	for (k = 0; k < ne; k++)
		out[off[from[k]]++] = to[k];
	for (i = nc; i > 0; i--)
		off[i] = off[i - 1];
	off[0] = 0;
	for (i = 0; i < nc; i++)
		if (!indeg[i])
			q[tail++] = i;
	while (head < tail) {
		u32 c = q[head++];

		done++;
		for (k = off[c]; k < off[c + 1]; k++)
			if (--indeg[out[k]] == 0)
				q[tail++] = out[k];
	}
	acyclic = done == nc;
	free(off);
	free(out);
	free(indeg);
	free(q);
	free(from);
	free(to);
	return acyclic;
}

/* Reach sets: R[x*m+y] = y in R_x (positions). */
static u8 *reach_sets(const struct mc_sw_schedule *s)
{
	u32 m = s->m, i, y, st, maxst = 0;
	u8 *R = xcalloc((size_t)m * m, 1);

	for (i = 0; i < m; i++)
		R[(size_t)i * m + i] = 1;
	for (i = 0; i < s->nsend; i++)
		if (s->send[i].step > maxst)
			maxst = s->send[i].step;
	/* a receiver's sends come after it receives: latest steps first */
	for (st = maxst; st >= 1; st--)
		for (i = 0; i < s->nsend; i++)
			if (s->send[i].step == st)
				for (y = 0; y < m; y++)
					R[(size_t)s->send[i].from * m + y] |=
						R[(size_t)s->send[i].to * m + y];
	return R;
}

/* Thm 1 conditions 1, 3, 4 for (a, b), t_a <= t_b, literally. */
static bool ref_cond(const struct mc_sw_schedule *s, const u8 *R, u32 a, u32 b)
{
	u32 m = s->m, u = s->send[a].from, x = s->send[b].from, c;

	if (x == u || R[(size_t)s->send[a].to * m + x])
		return true;
	for (c = 0; c < s->nsend; c++)
		if (s->send[c].from == u && s->send[c].step > s->send[a].step &&
		    R[(size_t)s->send[c].to * m + x])
			return true;
	return false;
}

/*
 * Independent Thm 1 checker: conflicting pairs (sharing a channel without
 * the conditions).  Also compares conditions 1/3/4 with the notes' range
 * test pos(u) <= pos(x) <= hi_a on every pair; *@range_bad counts
 * disagreements.
 */
static u64 ref_conflicts(const struct mc_sw_schedule *s, u32 nchans,
			 u32 *range_bad)
{
	u8 *R = reach_sets(s);
	u32 *mark = xcalloc(nchans, sizeof(u32)), a, b, h;
	u64 n = 0;

	for (a = 0; a < s->nsend; a++) {
		const struct mc_sw_send *sa = &s->send[a];

		for (h = 0; h < sa->hops; h++)
			mark[s->route[sa->first + h]] = a + 1;
		for (b = 0; b < s->nsend; b++) {
			const struct mc_sw_send *sb = &s->send[b];
			u32 shared = 0;
			bool cond;

			if (b == a || sb->step < sa->step)
				continue;
			cond = ref_cond(s, R, a, b);
			if (cond != (sa->from <= sb->from &&
				     sb->from <= sa->to + sa->len - 1))
				(*range_bad)++;
			if (b < a && sb->step == sa->step)
				continue;	/* pair seen from b */
			for (h = 0; h < sb->hops; h++)
				shared += mark[s->route[sb->first + h]] == a + 1;
			if (sb->step == sa->step)
				cond = cond && ref_cond(s, R, b, a);
			n += cond ? 0 : shared;	/* per channel, as the core */
		}
	}
	free(R);
	free(mark);
	return n;
}

/*
 * The kernel's holder rule (next_utorus) over mc_sw_chain: same sends.
 * mc_sender reads only the torus' dimension count (level check) for it.
 */
static const struct mc_torus no_torus;

/* The kernel's holder rule (next_utorus) over mc_sw_chain: same sends. */
static bool sender_agrees(const struct mc_sw_graph *g,
			  const struct mc_sw_schedule *s)
{
	u32 m = s->m, *mem = xcalloc(m, sizeof(u32)), *qp, *ql, *qs;
	u32 head = 0, tail = 0, n = 0, i, j;
	struct mc_chain c;
	bool same = true;

	qp = xcalloc(m, sizeof(u32));
	ql = xcalloc(m, sizeof(u32));
	qs = xcalloc(m, sizeof(u32));
	memcpy(mem, s->order, m * sizeof(u32));
	if (mc_sw_sort_members(g, mem, m, NULL) ||
	    mc_sw_chain(g, mem, m, s->order[0], &c))
		same = false;
	for (i = 0; same && i < m; i++)
		same = mc_chain_at(&c, i) == s->order[i];
	qp[tail] = 0;
	ql[tail] = m;
	qs[tail++] = 0;
	while (same && head < tail) {
		struct mc_sender snd;
		struct mc_dest d;
		u32 step = qs[head];

		mc_sender_init(&snd, &no_torus, &c, MC_ALGO_UTORUS, 0, qp[head],
			       ql[head], 0);
		head++;
		while (mc_sender_next(&snd, &d, 1) == 1) {
			step++;
			for (j = 0; j < s->nsend; j++)
				if (s->send[j].to == d.pos)
					break;
			if (j == s->nsend || s->send[j].len != d.len ||
			    s->send[j].step != step ||
			    s->send[j].from != qp[head - 1])
				same = false;
			qp[tail] = d.pos;
			ql[tail] = d.len;
			qs[tail++] = step;
			n++;
		}
	}
	same = same && n == s->nsend;
	free(mem);
	free(qp);
	free(ql);
	free(qs);
	return same;
}

struct agg {
	u32 cases, fail;
	const char *first;
	u64 seed;
};

static void agg_note(struct agg *a, const char *why, u64 seed)
{
	a->cases++;
	if (!why)
		return;
	if (!a->fail++) {
		a->first = why;
		a->seed = seed;
	}
}

enum {
	P_TREE, P_ROUTE, P_CDG, P_PLAN, P_STEPS, P_CHECK, P_REF, P_RANGE,
	P_SENDER, P_RANDID, P_RANK, P_BIG, P_N
};

static const char *const pname[P_N] = {
	"the tree equals the reference (levels, parents by lowest link, postorder IDs and ranges, circuit exit points, orientation)",
	"strict routes are P1, relaxed routes monotone subsequences of it, all legal up*-down*, mc_sw_route_relaxed accepts them",
	"channel dependency graph of all host-to-host routes is acyclic (deadlock freedom), every policy",
	"random multicasts plan without error",
	"steps = ceil(log2(d+1)) and d sends",
	"cover, routes and contention checkers pass; mc_sw_conflicts lists none",
	"the independent reach-set Thm 1 checker finds no conflicting pair",
	"Thm 1 conditions 1, 3, 4 agree with the notes' range test pos(u) <= pos(x) <= hi on every pair",
	"the kernel's U-torus holder rule over mc_sw_chain sends exactly the schedule's sends",
	"random-ID orders: the core and the reference checker agree on every case",
	"rank-order binomial trees: the core and the reference checker agree on every case",
	"large graphs (200..1024 switches, one at every limit): broadcast to every host is optimal, checkers pass",
};

static void one_multicast(const struct tg *t, struct rng *r, u64 seed,
			  struct agg *agg, u32 *randid_hit, u32 *rank_hit)
{
	const struct mc_sw_graph *g = &t->g;
	bool any = rng_below(r, 4) == 0;
	u32 pool = any ? g->nverts : g->nhosts, base = any ? 0 : g->nswitches;
	u32 m = 2 + rng_below(r, (pool < 40 ? pool : 40) - 1), *pick, p, i;
	struct mc_sw_check_result res;
	struct ts ts;
	const char *why;

	pick = xcalloc(m, sizeof(u32));
	rng_subset(r, pool, m, pick);
	for (i = 0; i < m; i++)
		pick[i] += base;
	ts_alloc(&ts, g, m);
	for (p = 0; p < 3; p++) {
		u32 range_bad = 0, opt = 0;
		u64 cnt = 1, refc;

		why = NULL;
		if (mc_sw_plan(&ts.s, g, p, pick[0], pick + 1, m - 1, &why)) {
			agg_note(&agg[P_PLAN], why ? why : "plan failed", seed);
			continue;
		}
		agg_note(&agg[P_PLAN], NULL, seed);
		while ((1u << opt) < m)
			opt++;
		agg_note(&agg[P_STEPS], ts.s.steps == opt && ts.s.nsend == m - 1 ?
			 NULL : "not optimal", seed);
		why = check_all(&ts, &res);
		if (!why && (mc_sw_conflicts(&ts.s, ts_ws(&ts), NULL, 0, &cnt, &res) ||
			     cnt))
			why = "mc_sw_conflicts lists conflicts";
		agg_note(&agg[P_CHECK], why, seed);
		refc = ref_conflicts(&ts.s, mc_sw_nchans(g), &range_bad);
		agg_note(&agg[P_REF], refc ? "reference finds conflicts" : NULL, seed);
		agg_note(&agg[P_RANGE], range_bad ? "range test disagrees" : NULL,
			 seed);
		if (p == 0)
			agg_note(&agg[P_SENDER], sender_agrees(g, &ts.s) ? NULL :
				 "U-torus holder rule differs", seed);
	}
	/* random IDs: the members in random order, strict routes */
	if (m >= 4) {
		u64 cnt = 0, refc;
		u32 range_bad = 0;
		int rc;

		rng_subset(r, m, m, ts.s.order);
		for (i = 0; i < m; i++)
			ts.s.order[i] = pick[ts.s.order[i]];
		ts.s.m = m;
		mc_sw_plan_order(&ts.s, g, MC_SW_ROUTE_STRICT, NULL);
		rc = mc_sw_check_contention(&ts.s, ts_ws(&ts), &res);
		mc_sw_conflicts(&ts.s, ts_ws(&ts), NULL, 0, &cnt, &res);
		refc = ref_conflicts(&ts.s, mc_sw_nchans(g), &range_bad);
		agg_note(&agg[P_RANDID], (rc != 0) == (refc != 0) && cnt == refc &&
			 !range_bad ? NULL : "core and reference disagree", seed);
		*randid_hit += rc != 0;
	}
	/* rank-order binomial over the same members, closest-ID routes */
	{
		u64 cnt = 0, refc;
		u32 range_bad = 0;
		int rc;

		mc_sw_rank_order(g, pick[0], pick + 1, m - 1, ts.s.order, NULL);
		ts.s.m = m;
		mc_sw_plan_order(&ts.s, g, MC_SW_ROUTE_CLOSEST, NULL);
		rc = mc_sw_check_contention(&ts.s, ts_ws(&ts), &res);
		mc_sw_conflicts(&ts.s, ts_ws(&ts), NULL, 0, &cnt, &res);
		refc = ref_conflicts(&ts.s, mc_sw_nchans(g), &range_bad);
		agg_note(&agg[P_RANK], (rc != 0) == (refc != 0) && cnt == refc &&
			 !range_bad ? NULL : "core and reference disagree", seed);
		*rank_hit += rc != 0;
	}
	ts_free(&ts);
	free(pick);
}

/* Broadcast to every host of a large graph: the core's checkers only. */
static void big_broadcast(const struct tg *t, struct rng *r, u64 seed,
			  struct agg *agg)
{
	const struct mc_sw_graph *g = &t->g;
	u32 src = rng_below(r, g->nhosts), *dst, i, n = 0, opt = 0;
	struct mc_sw_check_result res;
	struct ts ts;

	dst = xcalloc(g->nhosts, sizeof(u32));
	for (i = 0; i < g->nhosts; i++)
		if (i != src)
			dst[n++] = g->nswitches + i;
	ts_alloc(&ts, g, n + 1);
	while ((1u << opt) < n + 1)
		opt++;
	if (mc_sw_plan(&ts.s, g, MC_SW_ROUTE_CLOSEST, g->nswitches + src, dst,
		       n, NULL) || ts.s.steps != opt)
		agg_note(&agg[P_BIG], "plan failed or not optimal", seed);
	else
		agg_note(&agg[P_BIG], check_all(&ts, &res), seed);
	diag("large graph: %u switches, %u hosts, %u links, height %u: broadcast to %u hosts in %u steps",
	     g->nswitches, g->nhosts, g->nlinks, g->height, n, ts.s.steps);
	agg_note(&agg[P_SENDER], sender_agrees(g, &ts.s) ? NULL :
		 "U-torus holder rule differs", seed);
	ts_free(&ts);
	free(dst);
}

static void one_graph(struct gen *gen, struct rng *r, u64 seed,
		      struct agg *agg, u32 *randid_hit, u32 *rank_hit,
		      u32 *mc, bool big)
{
	u32 root = rng_below(r, 3) || big ? rng_below(r, gen->ns) :
		   MC_SW_ROOT_CENTER;
	u32 chan[2 * MAXS + 4], u, v, k, p, want_root;
	const char *why = NULL;
	struct tg t;

	if (tg_build(&t, gen->ns, gen->nh, gen->nl, gen->link, gen->hs, root,
		     &why)) {
		agg_note(&agg[P_TREE], why, seed);
		tg_free(&t);
		return;
	}
	want_root = root == MC_SW_ROOT_CENTER ? ref_center(&t) : root;
	agg_note(&agg[P_TREE], ref_tree(&t, want_root), seed);
	for (k = 0; k < 30; k++) {
		u = rng_below(r, t.g.nverts);
		v = rng_below(r, t.g.nverts);
		for (p = 0; p < 3; p++) {
			int n = mc_sw_route(&t.g, p, u, v, chan, mc_sw_route_max(&t.g));

			why = n < 0 ? "mc_sw_route failed" :
			      ref_route(&t, u, v, chan, n, p == 0);
			if (!why && mc_sw_route_relaxed(&t.g, u, v, chan, n, &why) == 0)
				why = NULL;
			agg_note(&agg[P_ROUTE], why, seed);
		}
	}
	if (t.g.nhosts <= 24)
		for (p = 0; p < 3; p++)
			agg_note(&agg[P_CDG], cdg_acyclic(&t, p) ? NULL :
				 "cycle in the channel dependency graph", seed);
	for (k = 0; k < 4; k++, (*mc)++)
		one_multicast(&t, r, seed, agg, randid_hit, rank_hit);
	if (big)
		big_broadcast(&t, r, seed, agg);
	tg_free(&t);
}

static void test_properties(void)
{
	struct agg agg[P_N];
	struct gen *gen = xcalloc(1, sizeof(*gen));
	u32 i, randid_hit = 0, rank_hit = 0, mc = 0, graphs = 0, p;

	memset(agg, 0, sizeof(agg));
	for (i = 0; i < 1500; i++) {
		u64 seed = 0x5eed0010000ull + i;
		struct rng r = { seed };

		if (i % 3 == 2)
			gen_lattice(gen, &r);
		else
			gen_general(gen, &r);
		one_graph(gen, &r, seed, agg, &randid_hit, &rank_hit, &mc,
			  false);
		graphs++;
	}
	for (i = 0; i < 6; i++) {
		u64 seed = 0x5eed001b000ull + i;
		struct rng r = { seed };

		gen_big(gen, &r, i == 0);
		one_graph(gen, &r, seed, agg, &randid_hit, &rank_hit, &mc,
			  true);
		graphs++;
	}
	for (p = 0; p < P_N; p++) {
		ok(agg[p].fail == 0, "properties: %s (%u cases)", pname[p],
		   agg[p].cases);
		if (agg[p].fail)
			diag("%u failures, first: %s (seed %#llx)", agg[p].fail,
			     agg[p].first, (unsigned long long)agg[p].seed);
	}
	diag("%u graphs, %u multicasts x 3 route policies", graphs, mc);
	diag("contention found: random-ID orders %u of %u, rank-order binomial %u of %u",
	     randid_hit, agg[P_RANDID].cases, rank_hit, agg[P_RANK].cases);
	ok(randid_hit * 10 > agg[P_RANDID].cases,
	   "random IDs instead of postorder contend in a large share of cases (%u of %u)",
	   randid_hit, agg[P_RANDID].cases);
	ok(rank_hit > 0, "rank-order binomial trees contend on some random graphs (%u of %u)",
	   rank_hit, agg[P_RANK].cases);
	free(gen);
}

int main(void)
{
	fig1_structure();
	fig1_circuit();
	fig1_paths();
	fig1_broadcasts();
	fig1_handoff();
	fig1_hosts();
	test_policies();
	positions();
	test_n1();
	test_n2();
	test_faults();
	test_build_errors();
	test_order_errors();
	test_binomial();
	test_properties();
	return done_testing();
}
