// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Multicast on all-port n-cubes (Robinson (1994), chapter 3; plan/cube.h):
 *   (a) the notes' chapter 3 golden vectors: E-cube path and delta,
 *       dimension order (high->low, and low->high by mirroring), S-cube
 *       members, cube order (Fig 3.7), WeightedSort, the relative chains
 *       and every hc.tree (Figs 3.1/3.2/3.9, 3.4, 3.6; four algorithms,
 *       one-port and all-port: chains, sends, pieces, steps), R_1110, the
 *       Fig 3.2(d) fact (1011 in step 3), and hc.neg.allport_out_of_order
 *       replayed in a timed model: contention out of order, none in order;
 *   (b) Theorems 3.1 and 3.2 exhaustively for n <= 5;
 *   (c) hand-made schedules the checkers must reject (and two they must
 *       accept: Thm 3.3 condition 4 by issue order);
 *   (d) errors of the planner;
 *   (e) properties over random sources and destination sets on cubes of
 *       dimension 1..10: the chain against a sort done here, cube order,
 *       WeightedSort a permutation with the source first, the sends
 *       against a reference Fig 3.5 written here (linear highdim scan,
 *       the notes' C), every checker passes, the step counts (U-cube
 *       one-port exactly ceil(log2(m+1)), all-port never later than
 *       one-port, Maxport/W-sort at most n all-port and distinct channels,
 *       broadcast n for all; Combine all-port within ceil(log2(m+1)),
 *       which the chapter does not prove: pinned here, and exhaustively
 *       for every set of the 1- to 4-cubes), an independent Thm 3.3 checker with explicit
 *       reachable sets agrees with the core's on the plans and on plans
 *       with shuffled issue orders, and a timed model with in-order
 *       injection finds no two sends on one arc at once.
 *
 * Paths, chains and reach sets here are computed independently of plan/.
 */
#include <string.h>

#include "tap.h"
#include "cube.h"

#define NONE MC_NO_NODE

/* ok() whose message shows what the condition's calls set: evaluated first. */
#define OKV(cond, ...) do {						\
		bool _c = (cond);					\
									\
		ok(_c, __VA_ARGS__);					\
	} while (0)

static const char *const alg_names[] = { "ucube", "maxport", "combine", "wsort" };

/* ---------------- helpers ---------------- */

static u32 bits(const char *s)
{
	return (u32)strtoul(s, NULL, 2);
}

static const char *bstr(u32 n, u32 v)
{
	static char buf[16][24];
	static unsigned int slot;
	char *b = buf[slot++ & 15];
	u32 i;

	for (i = 0; i < n; i++)
		b[i] = (v >> (n - 1 - i)) & 1 ? '1' : '0';
	b[n] = '\0';
	return b;
}

static u32 ref_delta(u32 u, u32 v)
{
	int i;

	for (i = 31; i >= 0; i--)
		if (((u ^ v) >> i) & 1)
			return (u32)i;
	return NONE;
}

/* Own E-cube: the nodes of P(u, v) (Def 3.1), into @out; their number. */
static u32 ref_path_nodes(u32 n, u32 u, u32 v, u32 *out)
{
	u32 k = 0;
	int i;

	out[k++] = u;
	for (i = (int)n - 1; i >= 0; i--) {
		if (((u ^ v) >> i) & 1) {
			u ^= 1u << i;
			out[k++] = u;
		}
	}
	return k;
}

/* Own arcs as ids node*32+dim. */
static u32 ref_arcs(u32 n, u32 u, u32 v, u32 *out)
{
	u32 nodes[33], k = ref_path_nodes(n, u, v, nodes), i;

	for (i = 0; i + 1 < k; i++)
		out[i] = nodes[i] * 32 + ref_delta(nodes[i], nodes[i + 1]);
	return k - 1;
}

static bool arc_disjoint(u32 n, u32 u, u32 v, u32 x, u32 y)
{
	u32 a[32], b[32], na = ref_arcs(n, u, v, a), nb = ref_arcs(n, x, y, b);
	u32 i, j;

	for (i = 0; i < na; i++)
		for (j = 0; j < nb; j++)
			if (a[i] == b[j])
				return false;
	return true;
}

/* A schedule with room for @m members, and the checkers' scratch. */
struct cs {
	struct mc_cube_schedule s;
	u64 *ws;
	u32 cap;
};

static void cs_alloc(struct cs *c, u32 n, u32 m)
{
	memset(c, 0, sizeof(*c));
	c->cap = m;
	c->s.n = n;
	c->s.chain = xcalloc(m, sizeof(u32));
	c->s.send = xcalloc(m, sizeof(struct mc_cube_send));
}

static u32 *cs_ws(struct cs *c)
{
	u64 w = mc_cube_check_ws_words(&c->s);

	free(c->ws);
	c->ws = xcalloc((w + 1) / 2 + 1, sizeof(u64));
	return (u32 *)c->ws;
}

static void cs_free(struct cs *c)
{
	free(c->s.chain);
	free(c->s.send);
	free(c->ws);
}

/* Every checker; the first failure's reason, or NULL. */
static const char *check_all(struct cs *c, struct mc_cube_check_result *res)
{
	u32 *ws = cs_ws(c);

	if (mc_cube_check_cover(&c->s, ws, res) ||
	    mc_cube_check_steps(&c->s, ws, res) ||
	    mc_cube_check_arcs(&c->s, ws, res) ||
	    mc_cube_check_contention(&c->s, ws, res))
		return res->what ? res->what : "?";
	return NULL;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Words of @s (space separated), sorted and joined: a canonical set. */
static char *canon(const char *s)
{
	char *copy = strdup(s), *w[4096], *out, *tok, *save = NULL;
	size_t nw = 0, i, len = strlen(s) + 2;

	for (tok = strtok_r(copy, " ", &save); tok;
	     tok = strtok_r(NULL, " ", &save))
		w[nw++] = tok;
	qsort(w, nw, sizeof(*w), cmp_str);
	out = xcalloc(len, 1);
	for (i = 0; i < nw; i++) {
		strcat(out, w[i]);
		if (i + 1 < nw)
			strcat(out, " ");
	}
	free(copy);
	return out;
}

/* The sends as the notes write them: from>to:D@step, sorted. */
static char *sends_str(const struct mc_cube_schedule *s)
{
	size_t cap = 64 + (size_t)s->nsend * (size_t)(s->n + 2) * (s->m + 4);
	char *b = xcalloc(cap, 1), *r;
	size_t o = 0;
	u32 i, k;

	for (i = 0; i < s->nsend; i++) {
		const struct mc_cube_send *d = &s->send[i];

		o += (size_t)snprintf(b + o, cap - o, "%s%s>%s:", i ? " " : "",
				      bstr(s->n, s->chain[d->from]),
				      bstr(s->n, s->chain[d->to]));
		for (k = 0; k < d->len; k++)
			o += (size_t)snprintf(b + o, cap - o, "%s%s", k ? "," : "",
					      bstr(s->n, s->chain[d->to + k]));
		o += (size_t)snprintf(b + o, cap - o, "@%u", d->step);
	}
	r = canon(b);
	free(b);
	return r;
}

static char *chain_str(const struct mc_cube_schedule *s)
{
	char *b = xcalloc((size_t)s->m * (s->n + 1) + 1, 1);
	u32 i;

	for (i = 0; i < s->m; i++) {
		strcat(b, bstr(s->n, s->chain[i]));
		if (i + 1 < s->m)
			strcat(b, " ");
	}
	return b;
}

static u32 find_pos(const struct mc_cube_schedule *s, u32 node)
{
	u32 i;

	for (i = 0; i < s->m; i++)
		if (s->chain[i] == node)
			return i;
	return NONE;
}

static u32 recv_step_of(const struct mc_cube_schedule *s, u32 node)
{
	u32 p = find_pos(s, node), i;

	for (i = 0; i < s->nsend; i++)
		if (s->send[i].to == p)
			return s->send[i].step;
	return p == 0 ? 0 : NONE;
}

/* ---------------- (a) golden vectors ---------------- */

struct gtree {
	const char *fig, *alg, *port, *src, *chain;
	u32 steps;
	const char *sends;
};

static const struct gtree gold[] = {
	/* the notes' section 5 hc.tree lines: from>to:D@step */
	{ "fig3.1/3.2/3.9", "ucube", "one", "0000", "0000 0001 0011 0101 0111 1011 1100 1110 1111", 4,
	  "0000>0111:0111,1011,1100,1110,1111@1 0111>1100:1100,1110,1111@2 1100>1110:1110,1111@3 1110>1111:1111@4 0111>1011:1011@3 0000>0011:0011,0101@2 0011>0101:0101@3 0000>0001:0001@3" },
	{ "fig3.1/3.2/3.9", "ucube", "all", "0000", "0000 0001 0011 0101 0111 1011 1100 1110 1111", 4,
	  "0000>0111:0111,1011,1100,1110,1111@1 0111>1100:1100,1110,1111@2 1100>1110:1110,1111@3 1110>1111:1111@4 0111>1011:1011@3 0000>0011:0011,0101@1 0011>0101:0101@2 0000>0001:0001@1" },
	{ "fig3.1/3.2/3.9", "maxport", "one", "0000", "0000 0001 0011 0101 0111 1011 1100 1110 1111", 4,
	  "0000>1011:1011,1100,1110,1111@1 1011>1100:1100,1110,1111@2 1100>1110:1110,1111@3 1110>1111:1111@4 0000>0101:0101,0111@2 0101>0111:0111@3 0000>0011:0011@3 0000>0001:0001@4" },
	{ "fig3.1/3.2/3.9", "maxport", "all", "0000", "0000 0001 0011 0101 0111 1011 1100 1110 1111", 4,
	  "0000>1011:1011,1100,1110,1111@1 1011>1100:1100,1110,1111@2 1100>1110:1110,1111@3 1110>1111:1111@4 0000>0101:0101,0111@1 0101>0111:0111@2 0000>0011:0011@1 0000>0001:0001@1" },
	{ "fig3.1/3.2/3.9", "combine", "one", "0000", "0000 0001 0011 0101 0111 1011 1100 1110 1111", 4,
	  "0000>1011:1011,1100,1110,1111@1 1011>1110:1110,1111@2 1110>1111:1111@3 1011>1100:1100@3 0000>0101:0101,0111@2 0101>0111:0111@3 0000>0011:0011@3 0000>0001:0001@4" },
	{ "fig3.1/3.2/3.9", "combine", "all", "0000", "0000 0001 0011 0101 0111 1011 1100 1110 1111", 3,
	  "0000>1011:1011,1100,1110,1111@1 1011>1110:1110,1111@2 1110>1111:1111@3 1011>1100:1100@3 0000>0101:0101,0111@1 0101>0111:0111@2 0000>0011:0011@1 0000>0001:0001@1" },
	{ "fig3.1/3.2/3.9", "wsort", "one", "0000", "0000 0001 0011 0101 0111 1110 1111 1100 1011", 4,
	  "0000>1110:1110,1111,1100,1011@1 1110>1011:1011@2 1110>1100:1100@3 1110>1111:1111@4 0000>0101:0101,0111@2 0101>0111:0111@3 0000>0011:0011@3 0000>0001:0001@4" },
	{ "fig3.1/3.2/3.9", "wsort", "all", "0000", "0000 0001 0011 0101 0111 1110 1111 1100 1011", 2,
	  "0000>1110:1110,1111,1100,1011@1 1110>1011:1011@2 1110>1100:1100@2 1110>1111:1111@2 0000>0101:0101,0111@1 0101>0111:0111@2 0000>0011:0011@1 0000>0001:0001@1" },
	{ "fig3.4", "ucube", "one", "0100", "0100 0101 0111 0001 0011 1111 1000 1010 1011", 4,
	  "0100>0011:0011,1111,1000,1010,1011@1 0011>1000:1000,1010,1011@2 1000>1010:1010,1011@3 1010>1011:1011@4 0011>1111:1111@3 0100>0111:0111,0001@2 0111>0001:0001@3 0100>0101:0101@3" },
	{ "fig3.4", "ucube", "all", "0100", "0100 0101 0111 0001 0011 1111 1000 1010 1011", 4,
	  "0100>0011:0011,1111,1000,1010,1011@1 0011>1000:1000,1010,1011@2 1000>1010:1010,1011@3 1010>1011:1011@4 0011>1111:1111@3 0100>0111:0111,0001@1 0111>0001:0001@2 0100>0101:0101@1" },
	{ "fig3.4", "maxport", "one", "0100", "0100 0101 0111 0001 0011 1111 1000 1010 1011", 4,
	  "0100>1111:1111,1000,1010,1011@1 1111>1000:1000,1010,1011@2 1000>1010:1010,1011@3 1010>1011:1011@4 0100>0001:0001,0011@2 0001>0011:0011@3 0100>0111:0111@3 0100>0101:0101@4" },
	{ "fig3.4", "maxport", "all", "0100", "0100 0101 0111 0001 0011 1111 1000 1010 1011", 4,
	  "0100>1111:1111,1000,1010,1011@1 1111>1000:1000,1010,1011@2 1000>1010:1010,1011@3 1010>1011:1011@4 0100>0001:0001,0011@1 0001>0011:0011@2 0100>0111:0111@1 0100>0101:0101@1" },
	{ "fig3.4", "combine", "one", "0100", "0100 0101 0111 0001 0011 1111 1000 1010 1011", 4,
	  "0100>1111:1111,1000,1010,1011@1 1111>1010:1010,1011@2 1010>1011:1011@3 1111>1000:1000@3 0100>0001:0001,0011@2 0001>0011:0011@3 0100>0111:0111@3 0100>0101:0101@4" },
	{ "fig3.4", "combine", "all", "0100", "0100 0101 0111 0001 0011 1111 1000 1010 1011", 3,
	  "0100>1111:1111,1000,1010,1011@1 1111>1010:1010,1011@2 1010>1011:1011@3 1111>1000:1000@3 0100>0001:0001,0011@1 0001>0011:0011@2 0100>0111:0111@1 0100>0101:0101@1" },
	{ "fig3.4", "wsort", "one", "0100", "0100 0101 0111 0001 0011 1010 1011 1000 1111", 4,
	  "0100>1010:1010,1011,1000,1111@1 1010>1111:1111@2 1010>1000:1000@3 1010>1011:1011@4 0100>0001:0001,0011@2 0001>0011:0011@3 0100>0111:0111@3 0100>0101:0101@4" },
	{ "fig3.4", "wsort", "all", "0100", "0100 0101 0111 0001 0011 1010 1011 1000 1111", 2,
	  "0100>1010:1010,1011,1000,1111@1 1010>1111:1111@2 1010>1000:1000@2 1010>1011:1011@2 0100>0001:0001,0011@1 0001>0011:0011@2 0100>0111:0111@1 0100>0101:0101@1" },
	{ "fig3.6", "ucube", "one", "0000", "0000 1001 1010 1011", 2,
	  "0000>1010:1010,1011@1 1010>1011:1011@2 0000>1001:1001@2" },
	{ "fig3.6", "ucube", "all", "0000", "0000 1001 1010 1011", 2,
	  "0000>1010:1010,1011@1 1010>1011:1011@2 0000>1001:1001@2" },
	{ "fig3.6", "maxport", "one", "0000", "0000 1001 1010 1011", 3,
	  "0000>1001:1001,1010,1011@1 1001>1010:1010,1011@2 1010>1011:1011@3" },
	{ "fig3.6", "maxport", "all", "0000", "0000 1001 1010 1011", 3,
	  "0000>1001:1001,1010,1011@1 1001>1010:1010,1011@2 1010>1011:1011@3" },
	{ "fig3.6", "combine", "one", "0000", "0000 1001 1010 1011", 2,
	  "0000>1010:1010,1011@1 1010>1011:1011@2 0000>1001:1001@2" },
	{ "fig3.6", "combine", "all", "0000", "0000 1001 1010 1011", 2,
	  "0000>1010:1010,1011@1 1010>1011:1011@2 0000>1001:1001@2" },
	{ "fig3.6", "wsort", "one", "0000", "0000 1010 1011 1001", 3,
	  "0000>1010:1010,1011,1001@1 1010>1001:1001@2 1010>1011:1011@3" },
	{ "fig3.6", "wsort", "all", "0000", "0000 1010 1011 1001", 2,
	  "0000>1010:1010,1011,1001@1 1010>1001:1001@2 1010>1011:1011@2" },
};

static enum mc_cube_algo alg_of(const char *a)
{
	u32 i;

	for (i = 0; i < 4; i++)
		if (!strcmp(a, alg_names[i]))
			return (enum mc_cube_algo)i;
	return MC_CUBE_HANDMADE;
}

/* Split "0000 0001 ..." into nodes; their number. */
static u32 parse_nodes(const char *s, u32 *out)
{
	u32 k = 0;

	while (*s) {
		while (*s == ' ')
			s++;
		if (!*s)
			break;
		out[k++] = bits(s);
		while (*s && *s != ' ')
			s++;
	}
	return k;
}

static void golden_trees(void)
{
	struct mc_cube_check_result res;
	const char *why = NULL;
	u32 i, chain[64], dst[64], m, k;

	for (i = 0; i < sizeof(gold) / sizeof(gold[0]); i++) {
		const struct gtree *g = &gold[i];
		enum mc_cube_port port = strcmp(g->port, "one") ?
			MC_CUBE_ALL_PORT : MC_CUBE_ONE_PORT;
		char *got_s, *want_s, *got_c;
		const char *bad;
		struct cs c;
		int rc;

		m = parse_nodes(g->chain, chain);
		/* destinations given backwards: the planner must sort */
		for (k = 1; k < m; k++)
			dst[k - 1] = chain[m - k];
		cs_alloc(&c, 4, m);
		rc = mc_cube_plan(&c.s, 4, alg_of(g->alg), port, bits(g->src),
				  dst, m - 1, &why);
		if (rc) {
			ok(0, "%s %s %s-port: plan fails (%s)", g->fig, g->alg,
			   g->port, why);
			cs_free(&c);
			continue;
		}
		got_c = chain_str(&c.s);
		got_s = sends_str(&c.s);
		want_s = canon(g->sends);
		ok(!strcmp(got_c, g->chain), "%s %s %s-port: chain %s", g->fig,
		   g->alg, g->port, g->chain);
		ok(!strcmp(got_s, want_s) && c.s.steps == g->steps,
		   "%s %s %s-port: the %u sends, pieces and steps; %u steps",
		   g->fig, g->alg, g->port, m - 1, g->steps);
		if (strcmp(got_s, want_s) || c.s.steps != g->steps)
			diag("got %u steps: %s\n# want %s", c.s.steps, got_s,
			     want_s);
		bad = check_all(&c, &res);
		ok(!bad, "%s %s %s-port: every checker passes%s%s", g->fig,
		   g->alg, g->port, bad ? ": " : "", bad ? bad : "");
		free(got_c);
		free(got_s);
		free(want_s);
		cs_free(&c);
	}
}

/* @v with its n bits in reverse order. */
static u32 mirror(u32 n, u32 v)
{
	u32 r = 0, i;

	for (i = 0; i < n; i++)
		r |= ((v >> i) & 1) << (n - 1 - i);
	return r;
}

/* Fig 3.1's problem: source 0000 and its eight destinations. */
static const u32 fig31_dst[] = { 1, 3, 5, 7, 11, 12, 14, 15 };

static void golden_facts(void)
{
	struct mc_cube_arc arc[8];
	struct cs c;
	u32 nodes[8], i, k, bad;
	u32 in[3] = { bits("10100"), bits("00010"), bits("10010") }, ch[4];
	u32 ch9[9];
	const char *why;
	int h;

	h = mc_cube_path(4, bits("0101"), bits("1110"), arc, 8);
	k = h > 0 ? (u32)h : 0;
	for (i = 0; i < k; i++)
		nodes[i] = arc[i].node;
	nodes[k] = bits("1110");
	ok(h == 3 && nodes[0] == bits("0101") && nodes[1] == bits("1101") &&
	   nodes[2] == bits("1111") && nodes[3] == bits("1110") &&
	   arc[0].dim == 3 && arc[1].dim == 1 && arc[2].dim == 0,
	   "hc.ecube_path: P(0101,1110) = (0101; 1101; 1111; 1110), dims 3,1,0");
	ok(mc_cube_delta(bits("0101"), bits("1110")) == 3,
	   "hc.delta: delta(0101,1110) = 3");
	ok(mc_cube_path(4, 5, 5, arc, 0) == 0 &&
	   mc_cube_path(4, 5, 14, arc, 2) == -ENOSPC &&
	   mc_cube_path(4, 16, 1, arc, 8) == -EINVAL,
	   "E-cube path: empty for u = v, -ENOSPC, -EINVAL outside the cube");

	/* dimension order: the chain from 00000 is sorted by address */
	why = NULL;
	mc_cube_order(5, MC_CUBE_UCUBE, 0, in, 3, ch, &why);
	ok(ch[1] == bits("00010") && ch[2] == bits("10010") &&
	   ch[3] == bits("10100"),
	   "hc.dimorder.high_to_low: {10100,00010,10010} -> {00010,10010,10100}");
	/* low->high routing mirrors the bits (notes 0): sort the mirrors */
	for (i = 0; i < 3; i++)
		in[i] = mirror(5, in[i]);
	mc_cube_order(5, MC_CUBE_UCUBE, 0, in, 3, ch, &why);
	ok(mirror(5, ch[1]) == bits("10100") && mirror(5, ch[2]) == bits("00010") &&
	   mirror(5, ch[3]) == bits("10010"),
	   "hc.dimorder.low_to_high: by mirrored bits, {10100,00010,10010}");

	bad = 0;
	for (i = 0; i < 16; i++)
		bad += mc_cube_in_scube(i, bits("01"), 2) != (i >= 4 && i <= 7);
	for (i = 0; i < 64; i++)
		bad += mc_cube_in_scube(i, bits("110"), 3) != (i >= 48 && i <= 55);
	ok(bad == 0, "hc.scube: <01> in a 4-cube = 0100..0111, <110> in a 6-cube = 110000..110111");

	{
		static const u32 co[5][9] = {
			{ 0, 1, 3, 5, 7, 11, 12, 14, 15 },
			{ 0, 1, 3, 5, 7, 12, 14, 15, 11 },
			{ 0, 1, 3, 5, 7, 14, 15, 12, 11 },
			{ 0, 1, 3, 5, 7, 14, 12, 15, 11 },
			{ 0, 3, 1, 5, 7, 11, 12, 14, 15 },
		};
		static const bool want[5] = { true, true, true, false, false };

		bad = 0;
		for (i = 0; i < 5; i++)
			bad += mc_cube_is_cube_ordered(4, co[i], 9) != want[i];
		ok(bad == 0, "hc.is_cube_ordered: Fig 3.7's three chains are, the two derived ones are not");
	}
	{
		u32 d[9] = { 0, 1, 3, 5, 7, 11, 12, 14, 15 };
		static const u32 w[9] = { 0, 1, 3, 5, 7, 14, 15, 12, 11 };

		mc_cube_weighted_sort(4, d, 9);
		ok(!memcmp(d, w, sizeof(w)),
		   "hc.weighted_sort: {0,1,3,5,7,11,12,14,15} -> {0,1,3,5,7,14,15,12,11}");
		ok(mc_cube_center(w, 0, 8, 4) == 5 && mc_cube_center(w, 5, 8, 3) == 8 &&
		   mc_cube_center(w, 5, 7, 2) == 7 && mc_cube_center(w, 5, 6, 1) == 6 &&
		   mc_cube_center(w, 0, 4, 3) == 3 && mc_cube_center(w, 8, 8, 3) == 9,
		   "CubeCenter on the weighted chain: the cube at 5 (14), <1> at 8 (11), <11> at 7 (12), <111> at 6, <0> at 3; an empty half: last+1");
	}

	/* hc.rel_chain Fig 3.4: source 0100 */
	{
		static const u32 d34[] = { 1, 3, 5, 7, 8, 10, 11, 15 };
		static const char *want = "0100 0101 0111 0001 0011 1111 1000 1010 1011";
		static const char *rel = "0000 0001 0011 0101 0111 1011 1100 1110 1111";
		u32 rc[9];
		char got[64] = "", grel[64] = "";

		mc_cube_order(4, MC_CUBE_UCUBE, 4, d34, 8, ch9, &why);
		for (i = 0; i < 9; i++) {
			strcat(got, bstr(4, ch9[i]));
			strcat(grel, bstr(4, ch9[i] ^ 4));
			if (i < 8) {
				strcat(got, " ");
				strcat(grel, " ");
			}
			rc[i] = ch9[i] ^ 4;
		}
		ok(!strcmp(got, want) && !strcmp(grel, rel) &&
		   mc_cube_is_cube_ordered(4, rc, 9),
		   "hc.rel_chain Fig 3.4: Phi = {0000,0001,0011,0101,0111,1011,1100,1110,1111}, absolute %s",
		   want);
	}

	/* Fig 3.2(d): U-cube all-port reaches 1011 in step 3; R_1110 of 3.2(e) */
	cs_alloc(&c, 4, 9);
	mc_cube_plan(&c.s, 4, MC_CUBE_UCUBE, MC_CUBE_ALL_PORT, 0, fig31_dst, 8,
		     &why);
	ok(recv_step_of(&c.s, bits("1011")) == 3 && c.s.steps == 4,
	   "Fig 3.2(d): U-cube all-port takes 4 steps, 1011 reached in step 3");
	mc_cube_plan(&c.s, 4, MC_CUBE_WSORT, MC_CUBE_ALL_PORT, 0, fig31_dst, 8,
		     &why);
	{
		u32 p = find_pos(&c.s, bits("1110")), len = 0;
		char got[64] = "";

		for (i = 0; i < c.s.nsend; i++)
			if (c.s.send[i].to == p)
				len = c.s.send[i].len;
		for (i = 0; i < len; i++) {
			strcat(got, bstr(4, c.s.chain[p + i]));
			if (i + 1 < len)
				strcat(got, " ");
		}
		ok(!strcmp(got, "1110 1111 1100 1011") && c.s.steps == 2,
		   "Fig 3.2(e)/3.9(c): W-sort takes 2 steps, R_1110 = {1110,1011,1100,1111} (got %s)",
		   got);
	}
	cs_free(&c);
}

/* ---------------- the timed model (notes 6.3 item 7) ---------------- */

struct occ {
	u32 arc;
	u64 start, end;
	u32 send;
};

static int cmp_occ(const void *pa, const void *pb)
{
	const struct occ *a = pa, *b = pb;

	if (a->arc != b->arc)
		return a->arc < b->arc ? -1 : 1;
	if (a->start != b->start)
		return a->start < b->start ? -1 : 1;
	return 0;
}

/*
 * Node u, having received at T_u, injects its j-th send (issue order) at
 * max(T_u + (j+1) tS, its channel free, the previous injection if
 * @in_order); the worm holds every arc of its path for [inject, inject +
 * tN) and arrives at inject + tN + tR.  Senders are taken in send-array
 * order, which reaches each before its sends.  @inj gets the injections.
 * Whether no two sends hold one arc at once; else *@a, *@b a pair.
 */
static bool timed_ok(const struct mc_cube_schedule *s, u64 ts, u64 tr, u64 tn,
		     bool in_order, u64 *inj, u32 *a, u32 *b)
{
	u64 *t = xcalloc(s->m, sizeof(u64)), chfree[32], prev, maxend;
	u32 *idx = xcalloc(s->m, sizeof(u32)), nidx, i, j, p, k, q, arcs[32];
	struct occ *o = xcalloc((size_t)s->nsend * (s->n + 1) + 1, sizeof(*o));
	bool *done = xcalloc(s->m, sizeof(bool)), good = true;
	size_t no = 0;

	for (q = 0; q <= s->nsend; q++) {
		p = q == 0 ? 0 : s->send[q - 1].to;
		if (done[p])
			continue;
		done[p] = true;
		nidx = 0;
		for (i = 0; i < s->nsend; i++)
			if (s->send[i].from == p)
				idx[s->send[i].seq] = i, nidx++;
		memset(chfree, 0, sizeof(chfree));
		prev = 0;
		for (j = 0; j < nidx; j++) {
			u64 x = t[p] + (j + 1) * ts;
			u32 d = ref_delta(s->chain[p], s->chain[s->send[idx[j]].to]);

			if (chfree[d] > x)
				x = chfree[d];
			if (in_order && prev > x)
				x = prev;
			prev = x;
			chfree[d] = x + tn;
			inj[idx[j]] = x;
			t[s->send[idx[j]].to] = x + tn + tr;
		}
	}
	for (i = 0; i < s->nsend; i++) {
		k = ref_arcs(s->n, s->chain[s->send[i].from],
			     s->chain[s->send[i].to], arcs);
		for (j = 0; j < k; j++)
			o[no++] = (struct occ){ arcs[j], inj[i], inj[i] + tn, i };
	}
	qsort(o, no, sizeof(*o), cmp_occ);
	for (i = 1, maxend = o[0].end, p = 0; no && i < no; i++) {
		if (o[i].arc != o[i - 1].arc) {
			maxend = o[i].end;
			p = i;
			continue;
		}
		if (o[i].start < maxend) {
			*a = o[p].send;
			*b = o[i].send;
			good = false;
			break;
		}
		if (o[i].end > maxend) {
			maxend = o[i].end;
			p = i;
		}
	}
	free(t);
	free(idx);
	free(o);
	free(done);
	return good;
}

static void golden_out_of_order(void)
{
	static const u32 d[] = { 4, 10, 11, 12, 13, 15, 16, 22, 23, 25, 29, 30 };
	static const char *chain = "00000 00100 01010 01011 01100 01101 01111 10000 10110 10111 11001 11101 11110";
	struct mc_cube_check_result res;
	const char *why = NULL, *bad;
	u64 inj[16];
	u32 a = NONE, b = NONE, s0[3], i;
	struct cs c;
	char *got;
	bool okk;

	cs_alloc(&c, 5, 13);
	mc_cube_plan(&c.s, 5, MC_CUBE_UCUBE, MC_CUBE_ALL_PORT, 0, d, 12, &why);
	got = chain_str(&c.s);
	ok(!strcmp(got, chain), "hc.neg.allport_out_of_order: the chain");
	free(got);
	for (i = 0; i < 3; i++)
		s0[i] = c.s.chain[c.s.send[i].to];
	ok(c.s.send[0].from == 0 && c.s.send[1].from == 0 &&
	   c.s.send[2].from == 0 && s0[0] == bits("01111") &&
	   s0[1] == bits("01011") && s0[2] == bits("00100") &&
	   mc_cube_send_dim(&c.s, 0) == 3 && mc_cube_send_dim(&c.s, 1) == 3 &&
	   mc_cube_send_dim(&c.s, 2) == 2,
	   "hc.neg.allport_out_of_order: the source issues 01111 (ch 3), 01011 (ch 3), 00100 (ch 2)");
	okk = timed_ok(&c.s, 1, 0, 10, false, inj, &a, &b);
	ok(!okk && inj[2] == 3 && inj[1] == 11 &&
	   ((a == 1 && b < c.s.nsend && c.s.chain[c.s.send[b].from] == bits("00100")) ||
	    (b == 1 && a < c.s.nsend && c.s.chain[c.s.send[a].from] == bits("00100"))),
	   "hc.neg.allport_out_of_order: out of order (tS=1 tR=0 tN=10) 00100 injected at 3, 01011 at 11: 00100's send contends with 00000->01011");
	for (i = 0; i < c.s.nsend; i++)
		if (c.s.chain[c.s.send[i].from] == bits("00100"))
			break;
	ok(i < c.s.nsend && inj[i] == 14 &&
	   c.s.chain[c.s.send[i].to] == bits("01010"),
	   "hc.neg.allport_out_of_order: 00100->01010 injected at 14 (holds [14,24) against [11,21))");
	ok(timed_ok(&c.s, 1, 0, 10, true, inj, &a, &b) && inj[2] == 11,
	   "hc.neg.allport_out_of_order: in order, 00100 waits for 11 and nothing contends");
	bad = check_all(&c, &res);
	ok(!bad, "hc.neg.allport_out_of_order: the in-order plan passes every checker");
	/* the same out-of-order injection as step labels: 00100 in step 1 */
	c.s.send[2].step = 1;
	for (i = 3; i < c.s.nsend; i++)
		if (c.s.chain[c.s.send[i].from] == bits("00100"))
			c.s.send[i].step = 2;
	OKV(mc_cube_check_cover(&c.s, cs_ws(&c), &res) == -EINVAL &&
	    res.send_a == 1 && res.send_b == 2,
	    "hc.neg.allport_out_of_order as steps: the cover checker says \"%s\"",
	    res.what);
	/* ... and issued in that order instead: step contention on (01000, 1) */
	c.s.send[1].seq = 2;
	c.s.send[2].seq = 1;
	OKV(mc_cube_check_cover(&c.s, cs_ws(&c), &res) == 0 &&
	    mc_cube_check_arcs(&c.s, cs_ws(&c), &res) == -EINVAL &&
	    res.arc.node == bits("01000") && res.arc.dim == 1,
	    "hc.neg.allport_out_of_order issued 01111, 00100, 01011: the arcs checker says \"%s\" on (%s, %u)",
	    res.what, bstr(5, res.arc.node), res.arc.dim);
	cs_free(&c);
}

/* ---------------- (b) Theorems 3.1 and 3.2 ---------------- */

static void theorems(void)
{
	u32 n, u, v, x, y, ns, bad1, bad2, cnt1, cnt2;

	for (n = 1; n <= 5; n++) {
		u32 N = 1u << n;

		bad1 = cnt1 = 0;
		for (u = 0; u < N; u++)
			for (v = 0; v < N; v++)
				for (y = 0; y < N; y++) {
					if (v == u || y == u ||
					    ref_delta(u, v) == ref_delta(u, y))
						continue;
					cnt1++;
					bad1 += !arc_disjoint(n, u, v, u, y);
				}
		ok(bad1 == 0, "Thm 3.1, %u-cube: delta(u,v) != delta(u,y) => P(u,v), P(u,y) arc-disjoint (%u pairs)",
		   n, cnt1);
		if (n < 4)
			continue;
		/* the smallest S-cube holding u and v is the one to test */
		bad2 = cnt2 = 0;
		for (u = 0; u < N; u++)
			for (v = 0; v < N; v++) {
				ns = u == v ? 0 : ref_delta(u, v) + 1;
				for (x = 0; x < N; x++) {
					if ((x >> ns) == (u >> ns))
						continue;
					for (y = 0; y < N; y++) {
						if ((y >> ns) == (u >> ns))
							continue;
						cnt2++;
						bad2 += !arc_disjoint(n, u, v, x, y);
					}
				}
			}
		ok(bad2 == 0, "Thm 3.2, %u-cube: u, v inside an S-cube, x, y outside => arc-disjoint (%u quadruples)",
		   n, cnt2);
	}
}

/* ---------------- (c) hand-made schedules ---------------- */

static void set_send(struct mc_cube_send *d, u32 step, u32 from, u32 to,
		     u32 len, u32 seq)
{
	d->step = step;
	d->from = from;
	d->to = to;
	d->len = len;
	d->seq = seq;
}

/* Fig 3.1's W-sort all-port plan, to break by hand. */
static void wsort_fig31(struct cs *c)
{
	const char *why;

	cs_alloc(c, 4, 9);
	mc_cube_plan(&c->s, 4, MC_CUBE_WSORT, MC_CUBE_ALL_PORT, 0, fig31_dst,
		     8, &why);
}

static u32 send_to(const struct mc_cube_schedule *s, u32 node)
{
	u32 p = find_pos(s, node), i;

	for (i = 0; i < s->nsend; i++)
		if (s->send[i].to == p)
			return i;
	return NONE;
}

static void handmade(void)
{
	struct mc_cube_check_result res;
	struct cs c;
	u32 i, j;

	/* two sends of one step share an arc: 0 -> 011 and 100 -> 010 */
	cs_alloc(&c, 3, 4);
	c.s.algo = MC_CUBE_HANDMADE;
	c.s.m = 4;
	c.s.chain[0] = 0;
	c.s.chain[1] = 4;
	c.s.chain[2] = 2;
	c.s.chain[3] = 3;
	c.s.nsend = 3;
	c.s.steps = 2;
	set_send(&c.s.send[0], 1, 0, 1, 2, 0);	/* 000 -> 100 [100 010] */
	set_send(&c.s.send[1], 2, 0, 3, 1, 1);	/* 000 -> 011 */
	set_send(&c.s.send[2], 2, 1, 2, 1, 0);	/* 100 -> 010 via 000 */
	OKV(mc_cube_check_cover(&c.s, cs_ws(&c), &res) == 0 &&
	    mc_cube_check_steps(&c.s, cs_ws(&c), &res) == 0,
	    "hand-made 3-cube: cover and steps pass");
	OKV(mc_cube_check_arcs(&c.s, cs_ws(&c), &res) == -EINVAL &&
	    res.arc.node == 0 && res.arc.dim == 1 &&
	    ((res.send_a == 1 && res.send_b == 2) ||
	     (res.send_a == 2 && res.send_b == 1)) &&
	    !strncmp(res.what, "step contention", 15),
	    "two sends of one step share arc (000, 1): arcs checker says \"%s\"",
	    res.what);
	OKV(mc_cube_check_contention(&c.s, cs_ws(&c), &res) == -EINVAL &&
	    res.arc.node == 0 && res.arc.dim == 1,
	    "... and so does the contention checker: \"%s\"", res.what);
	/* the same two in steps 1 and 2, 011 issued last: depth contention */
	c.s.send[1].step = 1;
	OKV(mc_cube_check_arcs(&c.s, cs_ws(&c), &res) == 0,
	    "000 -> 011 moved to step 1: every step arc-disjoint");
	OKV(mc_cube_check_contention(&c.s, cs_ws(&c), &res) == -EINVAL &&
	    res.send_a == 1 && res.send_b == 2 && res.node == 4 &&
	    !strncmp(res.what, "depth contention", 16),
	    "000 -> 011 issued after 000 -> 100: depth contention (Thm 3.3 fails): \"%s\"",
	    res.what);
	/* issued first, 100 is served later: condition 4 by issue order */
	c.s.send[0].seq = 1;
	c.s.send[1].seq = 0;
	OKV(mc_cube_check_contention(&c.s, cs_ws(&c), &res) == 0,
	    "000 -> 011 issued before 000 -> 100 in the same step: Thm 3.3 (4) by issue order holds");
	cs_free(&c);

	/* faults on Fig 3.1's W-sort plan */
	wsort_fig31(&c);
	i = send_to(&c.s, bits("1011"));
	c.s.send[i].to = find_pos(&c.s, bits("1100"));
	OKV(mc_cube_check_cover(&c.s, cs_ws(&c), &res) == -EINVAL &&
	    res.node == bits("1100") &&
	    !strcmp(res.what, "destination reached twice"),
	    "1110 sends to 1100 twice: \"%s\"", res.what);
	cs_free(&c);

	wsort_fig31(&c);
	c.s.nsend--;
	OKV(mc_cube_check_cover(&c.s, cs_ws(&c), &res) == -EINVAL &&
	    !strcmp(res.what, "not one send per destination"),
	    "a destination missed: \"%s\"", res.what);
	cs_free(&c);

	wsort_fig31(&c);
	i = send_to(&c.s, bits("0111"));	/* 0101 -> 0111 in step 2 */
	c.s.send[i].step = 1;
	OKV(mc_cube_check_cover(&c.s, cs_ws(&c), &res) == -EINVAL &&
	    res.node == bits("0101") && res.send_a == i &&
	    !strcmp(res.what, "a node sends before it has received"),
	    "0101 -> 0111 a step too early: \"%s\"", res.what);
	cs_free(&c);

	wsort_fig31(&c);
	i = send_to(&c.s, bits("1111"));	/* 1110 -> 1111 in step 2 */
	c.s.send[i].step = 3;
	c.s.steps = 3;
	OKV(mc_cube_check_cover(&c.s, cs_ws(&c), &res) == 0 &&
	    mc_cube_check_steps(&c.s, cs_ws(&c), &res) == -EINVAL &&
	    res.send_a == i,
	    "1110 -> 1111 a step late: cover passes, steps says \"%s\"",
	    res.what);
	c.s.algo = MC_CUBE_HANDMADE;
	OKV(mc_cube_check_steps(&c.s, cs_ws(&c), &res) == 0,
	    "... which a hand-made schedule may do");
	c.s.steps = 4;
	OKV(mc_cube_check_steps(&c.s, cs_ws(&c), &res) == -EINVAL &&
	    !strcmp(res.what, "step count differs from the sends' last step"),
	    "a wrong step count: \"%s\"", res.what);
	cs_free(&c);

	/* pieces: one too long, one short of its subtree */
	wsort_fig31(&c);
	i = send_to(&c.s, bits("1011"));	/* last in the chain */
	c.s.send[i].len = 2;
	OKV(mc_cube_check_cover(&c.s, cs_ws(&c), &res) == -EINVAL &&
	    res.send_a == i && !strcmp(res.what, "piece outside the chain"),
	    "1110 -> 1011 covering two: \"%s\"", res.what);
	cs_free(&c);

	wsort_fig31(&c);
	i = send_to(&c.s, bits("0101"));	/* covers 0101 0111 */
	c.s.send[i].len = 1;
	j = send_to(&c.s, bits("0111"));
	OKV(mc_cube_check_cover(&c.s, cs_ws(&c), &res) == -EINVAL &&
	    res.send_a == j && res.node == bits("0111") &&
	    !strcmp(res.what, "a node is reached outside its sender's piece"),
	    "0000 -> 0101 covering only 0101: \"%s\"", res.what);
	cs_free(&c);

	/* 00 -> 10 and 00 -> 11 */
	cs_alloc(&c, 2, 3);
	c.s.algo = MC_CUBE_HANDMADE;
	c.s.m = 3;
	c.s.chain[0] = 0;
	c.s.chain[1] = 2;
	c.s.chain[2] = 3;
	c.s.nsend = 2;
	c.s.steps = 1;
	set_send(&c.s.send[0], 1, 0, 1, 1, 0);
	set_send(&c.s.send[1], 1, 0, 2, 1, 1);
	OKV(mc_cube_check_cover(&c.s, cs_ws(&c), &res) == -EINVAL &&
	    !strcmp(res.what, "a node sends twice on one channel in one step"),
	    "00 -> 10 and 00 -> 11 both on channel 1 in step 1: \"%s\"",
	    res.what);
	c.s.send[1].step = 2;
	c.s.steps = 2;
	OKV(!check_all(&c, &res), "... in steps 1 and 2: every checker passes");
	c.s.port = MC_CUBE_ONE_PORT;
	OKV(!check_all(&c, &res), "... also one-port");
	c.s.send[0].step = 2;
	c.s.send[1].step = 1;
	OKV(mc_cube_check_cover(&c.s, cs_ws(&c), &res) == -EINVAL &&
	    !strcmp(res.what, "a send overtakes one its sender issued before it"),
	    "the second issued in step 1, the first in step 2: \"%s\"",
	    res.what);
	c.s.send[1].seq = 0;
	OKV(mc_cube_check_cover(&c.s, cs_ws(&c), &res) == -EINVAL &&
	    !strcmp(res.what, "a sender's issue order is not 0, 1, 2, ..."),
	    "two sends issued 0th: \"%s\"", res.what);
	c.s.send[1].seq = 1;
	c.s.chain[2] = 2;
	OKV(mc_cube_check_cover(&c.s, cs_ws(&c), &res) == -EINVAL &&
	    !strcmp(res.what, "node repeated in the chain"),
	    "a node twice in the chain: \"%s\"", res.what);
	c.s.chain[2] = 4;
	OKV(mc_cube_check_cover(&c.s, cs_ws(&c), &res) == -EINVAL &&
	    !strcmp(res.what, "chain holds a node outside the cube"),
	    "a node outside the 2-cube: \"%s\"", res.what);
	c.s.chain[2] = 3;
	c.s.send[1].to = 0;
	OKV(mc_cube_check_cover(&c.s, cs_ws(&c), &res) == -EINVAL &&
	    !strcmp(res.what, "the source receives"),
	    "a send to the source: \"%s\"", res.what);
	cs_free(&c);

	/* Maxport's Fig 3.6 plan held to U-cube's bound */
	cs_alloc(&c, 4, 4);
	{
		static const u32 d[] = { 9, 10, 11 };
		const char *why;

		mc_cube_plan(&c.s, 4, MC_CUBE_MAXPORT, MC_CUBE_ALL_PORT, 0, d,
			     3, &why);
		ok(c.s.steps == 3 && !check_all(&c, &res),
		   "Fig 3.6: Maxport's chain 0000 -> 1001 -> 1010 -> 1011, 3 steps");
		c.s.algo = MC_CUBE_UCUBE;
		OKV(mc_cube_check_steps(&c.s, cs_ws(&c), &res) == -EINVAL,
		    "... held to U-cube's rules it fails: \"%s\"", res.what);
	}
	cs_free(&c);
}

/* ---------------- (d) planner errors ---------------- */

static void errors(void)
{
	struct cs c;
	const char *why;
	u32 d[4] = { 1, 2, 2, 3 };

	cs_alloc(&c, 2, 8);
#define PLAN_ERR(n, algo, src, dst, nd, want) do {				\
		why = NULL;							\
		OKV(mc_cube_plan(&c.s, n, algo, MC_CUBE_ALL_PORT, src, dst, nd,	\
				 &why) == -EINVAL && why && !strcmp(why, want),	\
		    "plan error: %s (got %s)", want, why ? why : "none");	\
	} while (0)
	PLAN_ERR(0, MC_CUBE_UCUBE, 0, d, 1, "cube dimension out of range (1..20)");
	PLAN_ERR(21, MC_CUBE_UCUBE, 0, d, 1, "cube dimension out of range (1..20)");
	PLAN_ERR(2, MC_CUBE_UCUBE, 4, d, 1, "source is not a node of the cube");
	PLAN_ERR(2, MC_CUBE_UCUBE, 1, d, 1, "the source is among the destinations");
	PLAN_ERR(2, MC_CUBE_UCUBE, 0, d, 3, "destination repeated");
	PLAN_ERR(2, MC_CUBE_UCUBE, 0, d, 4, "more destinations than other nodes");
	d[3] = 4;
	PLAN_ERR(2, MC_CUBE_UCUBE, 0, d + 3, 1, "destination is not a node of the cube");
	PLAN_ERR(2, MC_CUBE_HANDMADE, 0, d, 1, "not an algorithm that plans (u-cube, maxport, combine, w-sort)");
	why = NULL;
	ok(mc_cube_plan(&c.s, 2, MC_CUBE_UCUBE, MC_CUBE_ALL_PORT, 3, d, 0,
			&why) == 0 && c.s.m == 1 && c.s.nsend == 0 &&
	   c.s.steps == 0, "no destinations: an empty schedule");
	c.s.m = 3;
	c.s.chain[0] = 0;
	c.s.chain[1] = 3;
	c.s.chain[2] = 1;
	why = NULL;
	ok(mc_cube_plan_chain(&c.s, 2, MC_CUBE_MAXPORT, MC_CUBE_ALL_PORT,
			      &why) == -EINVAL && why,
	   "plan_chain: {00, 11, 01} is not cube-ordered");
	c.s.chain[1] = 1;
	c.s.chain[2] = 1;
	ok(mc_cube_plan_chain(&c.s, 2, MC_CUBE_MAXPORT, MC_CUBE_ALL_PORT,
			      &why) == -EINVAL,
	   "plan_chain: a node twice");
	c.s.chain[2] = 3;
	ok(mc_cube_plan_chain(&c.s, 2, MC_CUBE_MAXPORT, MC_CUBE_ALL_PORT,
			      &why) == 0 && c.s.nsend == 2 && c.s.steps == 1,
	   "plan_chain: Maxport over {00, 01, 11} sends both in step 1");
	cs_free(&c);
}

/* ---------------- (e) properties ---------------- */

static int cmp_rel_src;

static int cmp_rel(const void *pa, const void *pb)
{
	u32 a = *(const u32 *)pa ^ (u32)cmp_rel_src;
	u32 b = *(const u32 *)pb ^ (u32)cmp_rel_src;

	return a < b ? -1 : a > b;
}

/* Per position: who sent to it, in which step, its piece, its issue slot. */
struct tree {
	u32 *from, *step, *len, *seq;
};

static void tree_alloc(struct tree *t, u32 m)
{
	t->from = xcalloc(m, sizeof(u32));
	t->step = xcalloc(m, sizeof(u32));
	t->len = xcalloc(m, sizeof(u32));
	t->seq = xcalloc(m, sizeof(u32));
}

static void tree_free(struct tree *t)
{
	free(t->from);
	free(t->step);
	free(t->len);
	free(t->seq);
}

/* The notes' C of Fig 3.5, highdim by a linear scan; steps below. */
static void ref_forward(const u32 *ch, u32 left, u32 right, int var,
			struct tree *t)
{
	u32 k, hd, center, next, seq = 0, r = right;

	while (left < r) {
		k = ref_delta(ch[left], ch[r]);
		hd = left + 1;
		while (ref_delta(ch[left], ch[hd]) != k)
			hd++;
		center = left + (r - left + 1) / 2;
		next = var == 0 ? center : var == 2 ? (hd > center ? hd : center) : hd;
		t->from[next] = left;
		t->len[next] = r - next + 1;
		t->seq[next] = seq++;
		ref_forward(ch, next, r, var, t);
		r = next - 1;
	}
}

/*
 * Steps by the model, holder by holder from the source: all-port
 * t_j = max(r+1, t_{j-1}, last on the channel + 1), one-port r+j+1.
 * @order[0..m-1] lists the positions so that each comes after its sender.
 */
static void ref_steps(const u32 *ch, u32 m, struct tree *t, bool one,
		      u32 *slot, u32 *order)
{
	u32 q, p, j, i, cnt, tt, last[32], d, head = 0, tail = 0;

	order[tail++] = 0;
	t->step[0] = 0;
	while (head < tail) {
		p = order[head++];
		cnt = 0;
		for (i = p + 1; i < m; i++)
			if (t->from[i] == p)
				slot[t->seq[i]] = i, cnt++;
		memset(last, 0, sizeof(last));
		tt = t->step[p] + 1;
		for (j = 0; j < cnt; j++) {
			q = slot[j];
			d = ref_delta(ch[p], ch[q]);
			if (one)
				tt = t->step[p] + 1 + j;
			else if (last[d] + 1 > tt)
				tt = last[d] + 1;
			last[d] = tt;
			t->step[q] = tt;
			order[tail++] = q;
		}
	}
}

/*
 * Thm 3.3 with explicit reachable sets (bitmaps): the violating pairs,
 * each counted once per arc they share.
 */
static u64 ref_contention(const struct mc_cube_schedule *s, const struct tree *t)
{
	u32 m = s->m, words = (m + 63) / 64, i, j, a, b, x, y, u, v, w;
	u64 *R = xcalloc((size_t)m * words, sizeof(u64)), bad = 0;
	u32 *arcs = xcalloc((size_t)m * 32, sizeof(u32)), *na = xcalloc(m, sizeof(u32));
	u32 nshared;
	bool okp;

	/* R_v: v and everything below it; walk up from every node */
	for (x = 0; x < m; x++)
		for (v = x;; v = t->from[v]) {
			R[(size_t)v * words + x / 64] |= 1ull << (x % 64);
			if (v == 0)
				break;
		}
#define IN_R(v, x) ((R[(size_t)(v) * words + (x) / 64] >> ((x) % 64)) & 1)
	for (i = 1; i < m; i++)
		na[i] = ref_arcs(s->n, s->chain[t->from[i]], s->chain[i],
				 arcs + (size_t)i * 32);
	for (a = 1; a < m; a++) {
		for (b = 1; b < m; b++) {
			if (a == b || t->step[a] > t->step[b] ||
			    (t->step[a] == t->step[b] && a > b))
				continue;
			nshared = 0;
			for (i = 0; i < na[a]; i++)
				for (j = 0; j < na[b]; j++)
					nshared += arcs[(size_t)a * 32 + i] == arcs[(size_t)b * 32 + j];
			if (!nshared)
				continue;
			/* a = (u, v, t), b = (x, y, tau); same step: both ways */
			okp = true;
			for (int way = 0; way < 2 && okp; way++) {
				u32 aa = way ? b : a, bb = way ? a : b;
				bool c = false;

				if (way && t->step[a] != t->step[b])
					break;
				u = t->from[aa];
				v = aa;
				x = t->from[bb];
				y = bb;
				(void)y;
				c = x == u || IN_R(v, x);
				for (w = 1; w < m && !c; w++)
					if (t->from[w] == u && t->seq[w] > t->seq[aa] &&
					    IN_R(w, x))
						c = true;
				okp = c;
			}
			bad += okp ? 0 : nshared;
		}
	}
#undef IN_R
	free(R);
	free(arcs);
	free(na);
	return bad;
}

/* The core's schedule as per-position arrays. */
static bool to_tree(const struct mc_cube_schedule *s, struct tree *t)
{
	u32 i, q;

	for (i = 0; i < s->m; i++)
		t->from[i] = NONE;
	for (i = 0; i < s->nsend; i++) {
		q = s->send[i].to;
		if (q >= s->m || t->from[q] != NONE)
			return false;
		t->from[q] = s->send[i].from;
		t->step[q] = s->send[i].step;
		t->len[q] = s->send[i].len;
		t->seq[q] = s->send[i].seq;
	}
	t->step[0] = 0;
	return true;
}

/* The tree's positions as the core's send array (sender by sender). */
static void from_tree(struct mc_cube_schedule *s, const struct tree *t,
		      const u32 *order)
{
	u32 i, q;

	s->nsend = 0;
	s->steps = 0;
	for (i = 1; i < s->m; i++) {
		q = order[i];
		s->send[s->nsend++] = (struct mc_cube_send){
			t->step[q], t->from[q], q, t->len[q], t->seq[q] };
		if (t->step[q] > s->steps)
			s->steps = t->step[q];
	}
}

struct pstats {
	u32 cases, plans, chain_bad, wsort_bad, tree_bad, check_bad, step_bad,
	    late_bad, ref_bad, timed_bad, slice_bad;
	u32 combine_over, combine1_over, mutated, mutated_bad, disagree;
	u64 steps_sum[4];
	u32 maxport_cases;
};

static void one_case(struct rng *r, u32 n, u32 md, struct pstats *ps)
{
	static const u64 lat[4][3] = { { 1, 0, 10 }, { 10, 1, 1 }, { 2, 1, 1 }, { 3, 1, 5 } };
	u32 N = 1u << n, m = md + 1, src = rng_below(r, N), *dst, *want, *slot,
	    *order, a, p, i, j, L;
	u32 log2m = 0, ab, bb;
	struct mc_cube_check_result res;
	struct tree ref, got, one_t;
	const char *why = NULL, *bad;
	u64 *inj;
	struct cs c;

	while ((1u << log2m) < m)
		log2m++;
	dst = xcalloc(m, sizeof(u32));
	want = xcalloc(m, sizeof(u32));
	slot = xcalloc(m, sizeof(u32));
	order = xcalloc(m, sizeof(u32));
	inj = xcalloc(m, sizeof(u64));
	tree_alloc(&ref, m);
	tree_alloc(&got, m);
	tree_alloc(&one_t, m);
	/* md random destinations besides the source */
	{
		u32 *sub = xcalloc(N, sizeof(u32));

		rng_subset(r, N - 1, md, sub);
		for (i = 0; i < md; i++)
			dst[i] = sub[i] + (sub[i] >= src);
		free(sub);
	}
	want[0] = src;
	memcpy(want + 1, dst, md * sizeof(u32));
	cmp_rel_src = (int)src;
	qsort(want + 1, md, sizeof(u32), cmp_rel);
	cs_alloc(&c, n, m);
	ps->cases++;
	for (a = 0; a < 4; a++) {
		for (int port = 0; port < 2; port++) {
			bool one = port == 1;

			ps->plans++;
			if (mc_cube_plan(&c.s, n, (enum mc_cube_algo)a,
					 one ? MC_CUBE_ONE_PORT : MC_CUBE_ALL_PORT,
					 src, dst, md, &why)) {
				ps->check_bad++;
				continue;
			}
			/* the chain: sorted relative order, or its weighted sort */
			if (a != MC_CUBE_WSORT) {
				ps->chain_bad += memcmp(c.s.chain, want, m * sizeof(u32)) != 0;
			} else {
				u32 *x = xcalloc(m, sizeof(u32)), *y = xcalloc(m, sizeof(u32));

				memcpy(x, c.s.chain, m * sizeof(u32));
				memcpy(y, want, m * sizeof(u32));
				cmp_rel_src = (int)src;
				qsort(x + 1, md, sizeof(u32), cmp_rel);
				ps->wsort_bad += c.s.chain[0] != src ||
					memcmp(x, y, m * sizeof(u32)) != 0 ||
					!mc_cube_is_cube_ordered(n, c.s.chain, m);
				free(x);
				free(y);
			}
			ps->chain_bad += !mc_cube_is_cube_ordered(n, c.s.chain, m);
			/* the sends against the reference Fig 3.5 */
			for (i = 0; i < m; i++)
				ref.from[i] = NONE;
			ref_forward(c.s.chain, 0, m - 1, a == 3 ? 1 : (int)a, &ref);
			ref_steps(c.s.chain, m, &ref, one, slot, order);
			if (!to_tree(&c.s, &got) ||
			    memcmp(got.from + 1, ref.from + 1, md * sizeof(u32)) ||
			    memcmp(got.step + 1, ref.step + 1, md * sizeof(u32)) ||
			    memcmp(got.len + 1, ref.len + 1, md * sizeof(u32)) ||
			    memcmp(got.seq + 1, ref.seq + 1, md * sizeof(u32))) {
				if (!ps->tree_bad)
					diag("tree differs: n=%u src=%u m=%u %s %s-port",
					     n, src, m, alg_names[a], one ? "one" : "all");
				ps->tree_bad++;
				continue;
			}
			/* in every piece delta from its holder never falls */
			for (p = 1; p < m; p++)
				for (L = p + 2; L < p + got.len[p]; L++)
					ps->slice_bad += ref_delta(c.s.chain[p], c.s.chain[L]) <
						ref_delta(c.s.chain[p], c.s.chain[L - 1]);
			bad = check_all(&c, &res);
			if (bad) {
				if (!ps->check_bad)
					diag("checker: %s (n=%u src=%u m=%u %s %s-port)",
					     bad, n, src, m, alg_names[a], one ? "one" : "all");
				ps->check_bad++;
			}
			/* steps */
			if (one) {
				for (i = 1; i < m; i++)
					ps->late_bad += got.step[i] < one_t.step[i];
				if (a == MC_CUBE_UCUBE)
					ps->step_bad += c.s.steps != log2m;
				if (a == MC_CUBE_COMBINE)
					ps->combine1_over += c.s.steps > log2m;
				continue;
			}
			memcpy(one_t.step, got.step, m * sizeof(u32));
			ps->steps_sum[a] += c.s.steps;
			if (a == MC_CUBE_UCUBE)
				ps->step_bad += c.s.steps > log2m;
			if (a == MC_CUBE_MAXPORT || a == MC_CUBE_WSORT)
				ps->step_bad += c.s.steps > n;
			if (a == MC_CUBE_COMBINE)
				ps->combine_over += c.s.steps > log2m;
			if (md == N - 1)
				ps->step_bad += c.s.steps != n;
			/* the independent Thm 3.3 checker, small cubes */
			if (n <= 7)
				ps->ref_bad += ref_contention(&c.s, &got) != 0;
			/* the timed model, in-order injection */
			for (i = 0; i < 4; i++)
				ps->timed_bad += !timed_ok(&c.s, lat[i][0], lat[i][1],
							   lat[i][2], true, inj, &ab, &bb);
			/* issue orders shuffled: the two Thm 3.3 checkers agree */
			if (n <= 7 && a != MC_CUBE_MAXPORT && a != MC_CUBE_WSORT) {
				u64 nref;
				int rc;

				for (p = 0; p < m; p++) {
					u32 cnt = 0;

					for (i = p + 1; i < m; i++)
						if (got.from[i] == p)
							slot[cnt++] = i;
					for (i = cnt; i > 1; i--) {
						j = rng_below(r, i);
						L = slot[i - 1];
						slot[i - 1] = slot[j];
						slot[j] = L;
					}
					for (i = 0; i < cnt; i++)
						got.seq[slot[i]] = i;
				}
				ref_steps(c.s.chain, m, &got, false, slot, order);
				from_tree(&c.s, &got, order);
				c.s.algo = MC_CUBE_HANDMADE;
				nref = ref_contention(&c.s, &got);
				rc = mc_cube_check_contention(&c.s, cs_ws(&c), &res);
				ps->mutated++;
				ps->mutated_bad += nref != 0;
				ps->disagree += (nref != 0) != (rc != 0) ||
					(rc && strncmp(res.what, "step", 4) &&
					 strncmp(res.what, "depth", 5));
				{
					u64 cnt;
					struct mc_cube_conflict cx[1];

					mc_cube_conflicts(&c.s, cs_ws(&c), cx, 1, &cnt, &res);
					ps->disagree += cnt != nref;
				}
			}
		}
	}
	cs_free(&c);
	tree_free(&ref);
	tree_free(&got);
	tree_free(&one_t);
	free(dst);
	free(want);
	free(slot);
	free(order);
	free(inj);
}

static void properties(void)
{
	struct pstats ps = { 0 };
	struct rng r = { 20240601 };
	u32 n, k, N, md, per;

	for (n = 1; n <= 10; n++) {
		N = 1u << n;
		per = n <= 3 ? 60 : n <= 7 ? 250 : n <= 9 ? 120 : 60;
		for (k = 0; k < per; k++) {
			u32 pick = rng_below(&r, 10);

			if (pick == 0)
				md = N - 1;			/* broadcast */
			else if (pick < 5)
				md = 1 + rng_below(&r, N - 1 < 16 ? N - 1 : 16);
			else
				md = 1 + rng_below(&r, N - 1);
			one_case(&r, n, md, &ps);
		}
	}
	ok(ps.chain_bad == 0, "%u cases, %u plans (dims 1..10): chains are the source-relative sorted order, cube-ordered",
	   ps.cases, ps.plans);
	ok(ps.wsort_bad == 0, "W-sort chains: a permutation, the source first, cube-ordered (Thm 3.5)");
	ok(ps.tree_bad == 0, "every plan's sends, pieces, issue order and steps equal the reference Fig 3.5 and step model");
	ok(ps.slice_bad == 0, "in every piece delta from its holder never falls");
	ok(ps.check_bad == 0, "every plan passes the cover, steps, arcs and contention checkers (all four algorithms, both port models)");
	ok(ps.step_bad == 0, "steps: U-cube one-port = ceil(log2(m+1)), all-port <= it; Maxport, W-sort all-port <= n; broadcast n for all");
	ok(ps.late_bad == 0, "all-port never reaches a node later than one-port");
	ok(ps.ref_bad == 0, "an independent Thm 3.3 checker (explicit reach sets) finds no violation, n <= 7");
	ok(ps.timed_bad == 0, "timed model, in-order injection, 4 latency ratios: no two sends on one arc at once");
	ok(ps.disagree == 0 && ps.mutated_bad > 0,
	   "issue orders shuffled (U-cube, Combine; %u plans, %u violate Thm 3.3): the core's checker and count agree with the reference",
	   ps.mutated, ps.mutated_bad);
	ok(ps.steps_sum[3] <= ps.steps_sum[1] && ps.steps_sum[1] <= ps.steps_sum[0],
	   "all-port steps summed: W-sort %llu <= Maxport %llu <= U-cube %llu (Combine %llu)",
	   (unsigned long long)ps.steps_sum[3], (unsigned long long)ps.steps_sum[1],
	   (unsigned long long)ps.steps_sum[0], (unsigned long long)ps.steps_sum[2]);
	ok(ps.combine_over == 0,
	   "Combine all-port never above ceil(log2(m+1)) steps [empirical]; one-port it is in %u of %u cases (it may keep more than half)",
	   ps.combine1_over, ps.cases);
}

/* Every destination set of cubes up to 4 from source 0 (symmetry), all-port. */
static void exhaustive(void)
{
	struct mc_cube_check_result res;
	u32 n, set, i, md, a, dst[16], bad = 0, over = 0, total = 0, log2m;
	const char *why;
	struct cs c;

	for (n = 1; n <= 4; n++) {
		cs_alloc(&c, n, 1u << n);
		for (set = 1; set < (1u << ((1u << n) - 1)); set++) {
			for (i = 0, md = 0; i < (1u << n) - 1; i++)
				if ((set >> i) & 1)
					dst[md++] = i + 1;
			for (log2m = 0; (1u << log2m) < md + 1; log2m++)
				;
			for (a = 0; a < 4; a++) {
				total++;
				if (mc_cube_plan(&c.s, n, (enum mc_cube_algo)a,
						 MC_CUBE_ALL_PORT, 0, dst, md, &why) ||
				    mc_cube_check_steps(&c.s, cs_ws(&c), &res) ||
				    mc_cube_check_contention(&c.s, cs_ws(&c), &res))
					bad++;
				if (a == MC_CUBE_COMBINE)
					over += c.s.steps > log2m;
			}
		}
		cs_free(&c);
	}
	ok(bad == 0, "every destination set of the 1- to 4-cubes, all four algorithms all-port (%u plans): steps and contention checkers pass",
	   total);
	ok(over == 0, "... and Combine all-port never takes more than ceil(log2(m+1)) steps [empirical: the chapter proves no bound for Combine]");
}

int main(void)
{
	golden_trees();
	golden_facts();
	golden_out_of_order();
	theorems();
	handmade();
	errors();
	exhaustive();
	properties();
	return done_testing();
}
