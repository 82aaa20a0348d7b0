// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Recursion-based broadcast (Zhuang and Liberatore, plan/rb.h):
 *   (a) shapes accepted and refused, with their reasons;
 *   (b) the notes' golden schedules (4.7): 4x4 from the corner and from
 *       (2,1), 8x2, 2x2x2, unit for unit, in the paper's stage-1 order;
 *       the per-step sizes for n = 3 and the directed-transfer counts
 *       (3.1.3, 3.3); the receive-count identity and the n = 3 totals
 *       (4.8);
 *   (c) the closed-form tables (4.1-4.3, 3.5, 3.6.3) from the formulas
 *       and from the plans; the paper-parameter tables of 4.5 (sample
 *       latencies, the best algorithm by length against the notes'
 *       baselines, RB's crossovers) and the choice against U-torus;
 *   (d) the 2D per-node closed form of notes 3.1.3, written here from
 *       the notes, against mc_rb_node for every node, and the single
 *       range per transfer of 3.1.4;
 *   (e) properties over shapes (2D square, rects, 3D, 4D, 5D), random
 *       sources, one-port and all-port, mesh and torus, both orders,
 *       lengths that divide and that do not: every checker passes under
 *       both dimension orders, mc_rb_node equals the plan for every node,
 *       ranges per message, Thm 2 (source independence); the torus
 *       negative control (a tie that wraps) contends at the first shift;
 *   (f) hand-made plans each checker must refuse.
 *
 * Node names, units and layouts are decoded here from the notes, not
 * from plan/, so a test never checks the core against itself.
 */
#include <string.h>

#include "tap.h"
#include "rb.h"

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

/* ---------------- set-up ---------------- */

struct tb {
	struct mc_torus t;
	struct mc_rb rb;
	struct mc_rb_plan p;
	u64 *ws;
	u32 *cws;
};

static int tb_init(struct tb *b, unsigned int d, const u16 *k, bool mesh,
		   enum mc_rb_ports ports, enum mc_rb_order order,
		   const char **why)
{
	int rc;

	memset(b, 0, sizeof(*b));
	rc = mc_torus_init(&b->t, d, k, MC_LINKS_BI, why);
	if (rc)
		return rc;
	return mc_rb_init(&b->rb, &b->t, mesh, ports, order, why);
}

static void tb_must(struct tb *b, unsigned int d, const u16 *k, bool mesh,
		    enum mc_rb_ports ports, enum mc_rb_order order)
{
	const char *why = NULL;

	if (tb_init(b, d, k, mesh, ports, order, &why)) {
		printf("Bail out! mc_rb_init: %s\n", why ? why : "?");
		exit(2);
	}
	b->ws = xcalloc(mc_rb_plan_ws_words(&b->rb), sizeof(u64));
	b->cws = xcalloc(mc_rb_check_ws_words(&b->rb), sizeof(u32));
}

/* Plan with the count protocol: size, allocate, plan. */
static void tb_plan(struct tb *b, u32 src, u64 len)
{
	int rc;

	free(b->p.x);
	b->p.x = NULL;
	b->p.cap = 0;
	rc = mc_rb_plan(&b->p, &b->rb, src, len, b->ws);
	if (rc != -ENOSPC && rc) {
		printf("Bail out! mc_rb_plan sizing = %d\n", rc);
		exit(2);
	}
	b->p.cap = b->p.n;
	b->p.x = xcalloc(b->p.cap, sizeof(*b->p.x));
	rc = mc_rb_plan(&b->p, &b->rb, src, len, b->ws);
	if (rc) {
		printf("Bail out! mc_rb_plan = %d\n", rc);
		exit(2);
	}
}

static void tb_free(struct tb *b)
{
	free(b->p.x);
	free(b->ws);
	free(b->cws);
	b->p.x = NULL;
}

static void k2(u16 *k, unsigned int x, unsigned int y)
{
	k[0] = (u16)x;
	k[1] = (u16)y;
}

static void kcube(u16 *k, unsigned int d, unsigned int side)
{
	unsigned int i;

	for (i = 0; i < d; i++)
		k[i] = (u16)side;
}

/* Own node arithmetic: every side a power of two, sigma_0 lowest. */
static u32 node_of(const struct tb *b, const unsigned int *c)
{
	u32 v = 0, sh = 0, i;

	for (i = 0; i < b->t.n; i++) {
		v |= c[i] << sh;
		sh += (u32)__builtin_ctz(b->t.k[i]);
	}
	return v;
}

static unsigned int coord_of(const struct tb *b, u32 v, unsigned int dim)
{
	u32 sh = 0, i;

	for (i = 0; i < dim; i++)
		sh += (u32)__builtin_ctz(b->t.k[i]);
	return v >> sh & (b->t.k[dim] - 1u);
}

/* ---------------- golden schedules ---------------- */

/*
 * A step as the notes write it: "00>22:2,3; 22>33:3", each node its
 * digits (x first), each unit a number of the notes' numbering.
 */
struct gx {
	u32 from;
	u32 to;
	u64 units;
};

static int parse_step(const struct tb *b, const char *s, struct gx *g)
{
	unsigned int c[MC_MAX_DIMS], i, n = 0;
	char *e;

	while (*s) {
		while (*s == ' ' || *s == ';')
			s++;
		if (!*s)
			break;
		for (i = 0; i < b->t.n; i++)
			c[i] = (unsigned int)(*s++ - '0');
		g[n].from = node_of(b, c);
		if (*s++ != '>')
			return -1;
		for (i = 0; i < b->t.n; i++)
			c[i] = (unsigned int)(*s++ - '0');
		g[n].to = node_of(b, c);
		if (*s++ != ':')
			return -1;
		g[n].units = 0;
		do {
			g[n].units |= 1ull << strtoul(s, &e, 10);
			s = e;
		} while (*s == ',' && s++);
		n++;
	}
	return (int)n;
}

/* The plan's messages of step @t, as unit sets (@pos maps unit -> pos). */
static int plan_step(const struct tb *b, u32 t, const u32 *pos, u32 units,
		     struct gx *g)
{
	u64 i, bb;
	int n = 0;
	u32 z;

	for (i = 0; i < b->p.n; i++) {
		const struct mc_rb_xfer *x = &b->p.x[i];

		if (x->step != t)
			continue;
		if (!n || g[n - 1].from != x->from || g[n - 1].to != x->to) {
			g[n].from = x->from;
			g[n].to = x->to;
			g[n].units = 0;
			n++;
		}
		for (bb = x->off; bb < x->off + x->len; bb++)
			for (z = 0; z < units; z++)
				if (pos[z] == bb)
					g[n - 1].units |= 1ull << z;
	}
	return n;
}

static int gx_cmp(const void *a, const void *b)
{
	const struct gx *x = a, *y = b;

	if (x->from != y->from)
		return x->from < y->from ? -1 : 1;
	if (x->to != y->to)
		return x->to < y->to ? -1 : 1;
	return x->units < y->units ? -1 : x->units > y->units;
}

static bool same_step(struct gx *a, int na, struct gx *b, int nb)
{
	if (na != nb)
		return false;
	qsort(a, (size_t)na, sizeof(*a), gx_cmp);
	qsort(b, (size_t)nb, sizeof(*b), gx_cmp);
	return !memcmp(a, b, (size_t)na * sizeof(*a));
}

static void golden(const char *name, struct tb *b, u32 src, const u32 *pos,
		   u32 units, const char *const *steps, u32 nsteps)
{
	struct gx *want = xcalloc(4096, sizeof(*want));
	struct gx *got = xcalloc(4096, sizeof(*got));
	int nw, ng;
	u32 t;

	tb_plan(b, src, units);
	is_int(b->rb.steps, nsteps, "%s: %u steps", name, nsteps);
	for (t = 0; t < nsteps; t++) {
		nw = parse_step(b, steps[t], want);
		ng = plan_step(b, t, pos, units, got);
		ok(nw > 0 && same_step(want, nw, got, ng),
		   "%s: step %u is the notes' (%d transfers)", name, t, nw);
	}
	free(want);
	free(got);
}

/* H_1 of a 4 x 4: even x sends {0,2}, odd x {1,3}, in every row. */
#define H1_4X4							\
	"00>10:0,2; 10>00:1,3; 20>30:0,2; 30>20:1,3;"			\
	"01>11:0,2; 11>01:1,3; 21>31:0,2; 31>21:1,3;"			\
	"02>12:0,2; 12>02:1,3; 22>32:0,2; 32>22:1,3;"			\
	"03>13:0,2; 13>03:1,3; 23>33:0,2; 33>23:1,3"

static void test_golden_2d(void)
{
	static const u32 natural[64] = {
		0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15,
	};
	static const char *const corner[] = {
		"00>22:2,3",
		"00>11:1; 22>33:3",
		"00>03:0; 11>12:1; 22>21:2; 33>30:3",
		"00>20:0; 03>23:0; 11>31:1; 12>32:1; 21>01:2; 22>02:2;"
		"30>10:3; 33>13:3",
		"00>01:0; 01>00:2; 02>03:2; 03>02:0; 10>11:3; 11>10:1;"
		"12>13:1; 13>12:3; 20>21:0; 21>20:2; 22>23:2; 23>22:0;"
		"30>31:3; 31>30:1; 32>33:1; 33>32:3",
		H1_4X4,
	};
	static const char *const off[] = {
		"21>03:2,3",
		"03>12:3; 21>30:1",
		"03>00:2; 12>11:3; 21>22:0; 30>33:1",
		"00>20:2; 03>23:2; 11>31:3; 12>32:3; 21>01:0; 22>02:0;"
		"30>10:1; 33>13:1",
		"00>01:2; 01>00:0; 02>03:0; 03>02:2; 10>11:1; 11>10:3;"
		"12>13:3; 13>12:1; 20>21:2; 21>20:0; 22>23:0; 23>22:2;"
		"30>31:1; 31>30:3; 32>33:3; 33>32:1",
		H1_4X4,
	};
	static const char *const rect[] = {
		"00>40:4,5,6,7",
		"00>20:2,3; 40>60:6,7",
		"00>11:1; 20>31:3; 40>51:5; 60>71:7",
		"00>40:0; 40>00:4; 11>51:1; 51>11:5",
		"20>60:2; 60>20:6; 31>71:3; 71>31:7",
		"00>20:0,4; 20>00:2,6; 11>31:1,5; 31>11:3,7;"
		"40>60:0,4; 60>40:2,6; 51>71:1,5; 71>51:3,7",
		"00>01:0,2,4,6; 20>21:0,2,4,6; 40>41:0,2,4,6; 60>61:0,2,4,6;"
		"11>10:1,3,5,7; 31>30:1,3,5,7; 51>50:1,3,5,7; 71>70:1,3,5,7",
		"00>10:0,2,4,6; 10>00:1,3,5,7; 20>30:0,2,4,6; 30>20:1,3,5,7;"
		"40>50:0,2,4,6; 50>40:1,3,5,7; 60>70:0,2,4,6; 70>60:1,3,5,7;"
		"01>11:0,2,4,6; 11>01:1,3,5,7; 21>31:0,2,4,6; 31>21:1,3,5,7;"
		"41>51:0,2,4,6; 51>41:1,3,5,7; 61>71:0,2,4,6; 71>61:1,3,5,7",
	};
	unsigned int c[2];
	struct tb b;
	u16 k[2];

	k2(k, 4, 4);
	tb_must(&b, 2, k, true, MC_RB_ONE_PORT, MC_RB_ORDER_PAPER);
	golden("4x4 from (0,0)", &b, 0, natural, 4, corner, 6);
	c[0] = 2;
	c[1] = 1;
	golden("4x4 from (2,1)", &b, node_of(&b, c), natural, 4, off, 6);
	tb_free(&b);
	k2(k, 8, 2);
	tb_must(&b, 2, k, true, MC_RB_ONE_PORT, MC_RB_ORDER_PAPER);
	golden("8x2 from (0,0)", &b, 0, natural, 8, rect, 8);
	tb_free(&b);
}

static void test_golden_3d(void)
{
	/* split order: the diagonal bit first, so unit (zs,zd) is at zd zs */
	static const u32 pos[4] = { 0, 2, 1, 3 };
	static const char *const cube[] = {
		"000>111:1,3",
		"000>010:2; 111>101:3",
		"000>100:0; 010>110:2; 101>001:3; 111>011:1",
		"000>001:0; 001>000:3; 010>011:2; 011>010:1;"
		"100>101:0; 101>100:3; 110>111:2; 111>110:1",
		"000>010:0,3; 010>000:1,2; 001>011:0,3; 011>001:1,2;"
		"100>110:0,3; 110>100:1,2; 101>111:0,3; 111>101:1,2",
	};
	struct tb b;
	u16 k[3];

	kcube(k, 3, 2);
	tb_must(&b, 3, k, true, MC_RB_ONE_PORT, MC_RB_ORDER_PAPER);
	golden("2x2x2 from (0,0,0)", &b, 0, pos, 4, cube, 5);
	tb_free(&b);
}

/* Directed messages and the largest message (in bytes) of each step. */
static void step_profile(const struct tb *b, u32 *count, u64 *big)
{
	u64 i, msg = 0;
	u32 t;

	for (t = 0; t < b->rb.steps; t++) {
		count[t] = 0;
		big[t] = 0;
	}
	for (i = 0; i < b->p.n; i++) {
		const struct mc_rb_xfer *x = &b->p.x[i];
		bool first = !i || x[-1].step != x->step ||
			     x[-1].from != x->from || x[-1].to != x->to;

		if (first) {
			count[x->step]++;
			msg = 0;
		}
		msg += x->len;
		if (msg > big[x->step])
			big[x->step] = msg;
	}
}

static void test_profiles(void)
{
	static const u32 c2[] = { 1, 2, 4, 8, 16, 32, 32, 64, 64 };
	static const u64 s2[] = { 4, 2, 1, 1, 1, 1, 2, 2, 4 };	/* L/8 */
	static const u32 c3a[] = { 1, 2, 4, 8, 16, 32, 64, 64, 64 };
	static const u32 c3b[] = { 1, 2, 4, 8, 16, 32, 64, 128, 128, 256,
				   512, 512, 512 };
	u32 count[MC_RB_MAX_STEPS];
	u64 big[MC_RB_MAX_STEPS];
	struct tb b;
	u16 k[3];
	int o;

	for (o = 0; o < 2; o++) {
		kcube(k, 2, 8);
		tb_must(&b, 2, k, true, MC_RB_ONE_PORT, (enum mc_rb_order)o);
		tb_plan(&b, 0, 8);
		step_profile(&b, count, big);
		ok(!memcmp(count, c2, sizeof(c2)),
		   "8x8 (order %d): directed transfers per step 1,2,4,8,16,32,32,64,64", o);
		ok(!memcmp(big, s2, sizeof(s2)),
		   "8x8 (order %d): step sizes 1/2,1/4,1/8,1/8,1/8,1/8,1/4,1/4,1/2", o);
		tb_free(&b);
	}
	kcube(k, 3, 4);
	tb_must(&b, 3, k, true, MC_RB_ONE_PORT, MC_RB_ORDER_PAPER);
	tb_plan(&b, 0, 8);
	step_profile(&b, count, big);
	ok(!memcmp(count, c3a, sizeof(c3a)),
	   "4x4x4: directed transfers 1,2,4,8,16,32,64,64,64");
	tb_free(&b);
	kcube(k, 3, 8);
	tb_must(&b, 3, k, true, MC_RB_ONE_PORT, MC_RB_ORDER_PAPER);
	tb_plan(&b, 0, 16);
	step_profile(&b, count, big);
	ok(!memcmp(count, c3b, sizeof(c3b)),
	   "8x8x8: directed transfers 1,2,4,...,512,512,512");
	tb_free(&b);
}

/*
 * Notes 4.8: with F(u) the units u forwarded in stage 1, u receives z
 * once, twice if it forwarded z, and the source only what it forwarded.
 * One byte per unit, natural positions (2D paper order).
 */
static void test_receipts(void)
{
	u32 recv[64][64], fwd[64][64], total[64], u, z, i, bad = 0;
	struct tb b;
	unsigned int c[2];
	u16 k[2];

	kcube(k, 2, 8);
	tb_must(&b, 2, k, true, MC_RB_ONE_PORT, MC_RB_ORDER_PAPER);
	tb_plan(&b, 0, 8);
	memset(recv, 0, sizeof(recv));
	memset(fwd, 0, sizeof(fwd));
	memset(total, 0, sizeof(total));
	for (i = 0; i < b.p.n; i++) {
		const struct mc_rb_xfer *x = &b.p.x[i];

		for (z = (u32)x->off; z < x->off + x->len; z++) {
			recv[x->to][z]++;
			total[x->to]++;
			if (x->step < b.rb.splits)
				fwd[x->from][z] = 1;
		}
	}
	for (u = 0; u < 64; u++)
		for (z = 0; z < 8; z++)
			bad += recv[u][z] != (u ? 1 + fwd[u][z] : fwd[u][z]);
	is_int(bad, 0, "8x8: receipts follow notes 4.8 for every node and unit");
	c[0] = c[1] = 0;
	is_int(total[node_of(&b, c)], 7, "8x8: (0,0) receives 7 units");
	c[0] = c[1] = 4;
	is_int(total[node_of(&b, c)], 11, "8x8: (4,4) receives 11");
	c[0] = c[1] = 2;
	is_int(total[node_of(&b, c)], 9, "8x8: (2,2) receives 9");
	c[0] = c[1] = 6;
	is_int(total[node_of(&b, c)], 9, "8x8: (6,6) receives 9");
	c[0] = 1;
	c[1] = 5;
	is_int(total[node_of(&b, c)], 8, "8x8: (1,5) receives 8");
	tb_free(&b);
}

/* ---------------- tables ---------------- */

static bool frac_is(const struct mc_rb_cost *c, u32 alpha, u64 num, u64 den)
{
	return c->alpha == alpha && c->beta_num * den == num * c->beta_den;
}

/* The formula, and the plan of that shape (L = positions * 2). */
static void row(unsigned int d, const u16 *k, enum mc_rb_ports ports,
		enum mc_rb_order order, u32 alpha, u64 num, u64 den, bool plan)
{
	struct mc_rb_cost c;
	struct tb b;
	u32 a;
	u64 bytes, len;

	tb_must(&b, d, k, true, ports, order);
	mc_rb_formula(&b.rb, &c);
	ok(frac_is(&c, alpha, num, den),
	   "%ux%u%s%s: closed form %u, %llu/%llu", k[0], k[1],
	   d > 2 ? "x.." : "", ports ? " all-port" : "", alpha,
	   (unsigned long long)num, (unsigned long long)den);
	if (!frac_is(&c, alpha, num, den))
		diag("got %u, %llu/%llu", c.alpha,
		     (unsigned long long)c.beta_num,
		     (unsigned long long)c.beta_den);
	if (plan) {
		len = 2ull * mc_rb_positions(&b.rb) * den;
		tb_plan(&b, b.rb.nodes / 3, len);
		mc_rb_plan_cost(&b.p, &a, &bytes);
		ok(a == alpha && bytes * den == num * len,
		   "    its plan: %u steps, %llu bytes of %llu", a,
		   (unsigned long long)bytes, (unsigned long long)len);
	}
	tb_free(&b);
}

static void test_tables(void)
{
	/* notes 4.1 */
	static const u32 a2[] = { 3, 6, 9, 12, 15, 18 };
	static const u64 b2[][2] = { { 3, 2 }, { 2, 1 }, { 9, 4 },
				     { 19, 8 }, { 39, 16 }, { 79, 32 } };
	/* notes 4.2, [m][k] */
	static const u32 ar[3][3] = { { 5, 8, 13 }, { 8, 11, 16 },
				      { 11, 14, 19 } };
	static const u64 br[3][3][2] = {
		{ { 2, 1 }, { 19, 8 }, { 43, 16 } },
		{ { 9, 4 }, { 39, 16 }, { 83, 32 } },
		{ { 19, 8 }, { 79, 32 }, { 163, 64 } },
	};
	/* notes 4.3 */
	static const u32 a3[] = { 5, 9, 13, 17, 21 };
	static const u64 b3[][2] = { { 7, 4 }, { 17, 8 }, { 37, 16 },
				     { 77, 32 }, { 157, 64 } };
	/* notes 3.5 (d = 4, 5) and 3.6.3 (all-port, paper order) */
	static const struct { u32 d, n, a; u64 num, den; bool ap; } dd[] = {
		{ 4, 1, 7, 15, 8, false }, { 4, 2, 12, 17, 8, false },
		{ 4, 3, 17, 9, 4, false }, { 5, 1, 9, 31, 16, false },
		{ 5, 2, 15, 67, 32, false },
		{ 2, 1, 3, 1, 1, true }, { 2, 2, 6, 11, 8, true },
		{ 2, 3, 9, 25, 16, true }, { 3, 1, 5, 11, 12, true },
		{ 3, 2, 9, 29, 24, true }, { 3, 3, 13, 65, 48, true },
		{ 4, 1, 7, 27, 32, true }, { 4, 2, 12, 35, 32, true },
	};
	u16 k[MC_MAX_DIMS];
	u32 n, m, kk, i;

	for (n = 1; n <= 6; n++) {
		kcube(k, 2, 1u << n);
		row(2, k, MC_RB_ONE_PORT, MC_RB_ORDER_RANGES, a2[n - 1],
		    b2[n - 1][0], b2[n - 1][1], n <= 5);
	}
	for (m = 1; m <= 3; m++) {
		for (kk = 1; kk <= 3; kk++) {
			k2(k, 1u << (m + kk), 1u << m);
			row(2, k, MC_RB_ONE_PORT, MC_RB_ORDER_PAPER,
			    ar[m - 1][kk - 1], br[m - 1][kk - 1][0],
			    br[m - 1][kk - 1][1], m + kk + m <= 9);
		}
	}
	for (n = 1; n <= 5; n++) {
		kcube(k, 3, 1u << n);
		row(3, k, MC_RB_ONE_PORT, MC_RB_ORDER_RANGES, a3[n - 1],
		    b3[n - 1][0], b3[n - 1][1], n <= 3);
	}
	for (i = 0; i < ARRAY_SIZE(dd); i++) {
		kcube(k, dd[i].d, 1u << dd[i].n);
		row(dd[i].d, k, dd[i].ap ? MC_RB_ALL_PORT : MC_RB_ONE_PORT,
		    MC_RB_ORDER_PAPER, dd[i].a, dd[i].num, dd[i].den,
		    dd[i].d * dd[i].n <= 10);
	}
	/* 2D all-port: 1.75 - 1.5/2^n, n = 5 -> 1.703125 = 109/64 */
	kcube(k, 2, 32);
	row(2, k, MC_RB_ALL_PORT, MC_RB_ORDER_RANGES, 15, 109, 64, false);
	/* 3D all-port: 1.5 - (7/6)/2^n, n = 2 -> 29/24 (paper order) */
	kcube(k, 3, 4);
	row(3, k, MC_RB_ALL_PORT, MC_RB_ORDER_PAPER, 9, 29, 24, true);
}

/* ---- the notes' baselines (4.4), only to place RB in the 4.5 tables ---- */

struct alg {
	const char *name;
	struct mc_rb_cost c;
};

static void set_cost(struct alg *a, const char *name, u32 alpha, s64 num,
		     u64 den)
{
	a->name = name;
	a->c.alpha = alpha;
	a->c.beta_num = (u64)num;
	a->c.beta_den = den;
}

/* 2D: RD = NP-RD d=0, NP-RD d, NP-SC d (d = 0 is SC), and RB. */
static u32 baselines_2d(struct alg *a, u32 n, const struct mc_rb *rb)
{
	static const char *const rd[] = { "RD", "NP-RD1", "NP-RD2", "NP-RD3",
					  "NP-RD4", "NP-5" };
	static const char *const sc[] = { "SC", "NP-SC1", "NP-SC2", "NP-SC3",
					  "NP-SC4", "NP-5" };
	u32 na = 0, d;
	u64 D = 1ull << (2 * n);

	for (d = 0; d <= n; d++) {
		set_cost(&a[na++], rd[d], 2 * n + (1u << d) - 1,
			 (s64)(2 * D + (2 * n - d - 2) * (D >> d)), D);
		set_cost(&a[na++], sc[d],
			 2 * n + (1u << (n - d + 1)) + (1u << d) - 3,
			 (s64)(2 * D + d * (D >> d) - 2 * (1ull << d)), D);
	}
	a[na].name = "RB";
	mc_rb_formula(rb, &a[na].c);
	return na + 1;
}

static u32 baselines_3d(struct alg *a, u32 n, const struct mc_rb *rb)
{
	static const char *const rd[] = { "RD3", "NP-RD3-1", "NP-RD3-2",
					  "NP-RD3-3", "NP-RD3-4", "NP3-5" };
	static const char *const sc[] = { "SC3", "NP-SC3-1", "NP-SC3-2",
					  "NP-SC3-3", "NP-SC3-4", "NP3-5" };
	u32 na = 0, d;
	u64 D = 1ull << (3 * n);

	for (d = 0; d <= n; d++) {
		set_cost(&a[na++], rd[d], 3 * n + (1u << d) - 1,
			 (s64)(2 * D + (3 * n - d - 2) * (D >> d)), D);
		set_cost(&a[na++], sc[d],
			 3 * n + 3 * (1u << (n - d)) + (1u << d) - 4,
			 (s64)(2 * D + 2 * d * (D >> d) - 2 * (1ull << (2 * d))),
			 D);
	}
	a[na].name = "RB3";
	mc_rb_formula(rb, &a[na].c);
	return na + 1;
}

/* The fastest at @len with Ts = 150, Tc = 0.5, scaled by 2^16: exact. */
static const char *best(const struct alg *a, u32 na, u64 len)
{
	u64 tb = U64_MAX, t;
	u32 i, bi = 0;

	for (i = 0; i < na; i++) {
		t = mc_rb_time(&a[i].c, len, 300u << 15, 1u << 15);
		if (t < tb) {
			tb = t;
			bi = i;
		}
	}
	return a[bi].name;
}

static void test_paper_numbers(void)
{
	static const struct { u64 l, rd, rb; } t2[] = {
		{ 0, 1500, 2250 }, { 1024, 6620, 3498 }, { 4096, 21980, 7242 },
		{ 10240, 52700, 14730 }, { 32768, 165340, 42186 },
		{ 102400, 513500, 127050 },
	};
	static const struct { u64 at; const char *lo, *hi; } w2[] = {
		{ 67, "RD", "NP-RD1" }, { 301, "NP-RD1", "NP-RD2" },
		{ 565, "NP-RD2", "RB" }, { 16000, "RB", "NP-RD4" },
		{ 19201, "NP-RD4", "NP-SC4" }, { 33600, "NP-SC4", "NP-5" },
		{ 97176, "NP-5", "SC" },
	};
	static const struct { u64 at; const char *lo, *hi; } w3[] = {
		{ 43, "RD3", "NP-RD3-1" }, { 185, "NP-RD3-1", "NP-RD3-2" },
		{ 392, "NP-RD3-2", "RB3" }, { 36924, "RB3", "NP3-5" },
		{ 74382, "NP3-5", "SC3" },
	};
	struct mc_rb_cost rb, ut;
	struct alg a[16];
	struct tb b2, b3;
	u32 na, i;
	u16 k[3];

	kcube(k, 2, 32);
	tb_must(&b2, 2, k, true, MC_RB_ONE_PORT, MC_RB_ORDER_RANGES);
	mc_rb_formula(&b2.rb, &rb);
	mc_rb_utorus_cost(&b2.rb, &ut);
	for (i = 0; i < ARRAY_SIZE(t2); i++) {
		is_int(mc_rb_time(&rb, t2[i].l, 300, 1), 2 * t2[i].rb,
		       "32x32: T_RB(%llu) = %llu", (unsigned long long)t2[i].l,
		       (unsigned long long)t2[i].rb);
		is_int(mc_rb_time(&ut, t2[i].l, 300, 1), 2 * t2[i].rd,
		       "32x32: T_RD = T_U-torus(%llu) = %llu",
		       (unsigned long long)t2[i].l,
		       (unsigned long long)t2[i].rd);
	}
	na = baselines_2d(a, 5, &b2.rb);
	for (i = 0; i < ARRAY_SIZE(w2); i++) {
		ok(!strcmp(best(a, na, w2[i].at - 1), w2[i].lo) &&
		   !strcmp(best(a, na, w2[i].at + 1), w2[i].hi),
		   "32x32 best by L: %s below %llu, %s above", w2[i].lo,
		   (unsigned long long)w2[i].at, w2[i].hi);
	}
	/* the rule against U-torus: RD's crossover 24000/121 = 198.3 */
	is_int(mc_rb_crossover(&b2.rb, 300, 1), 199,
	       "32x32: RB beats U-torus from 199 bytes");
	ok(!mc_rb_pick(&b2.rb, 100, 300, 1) && !mc_rb_pick(&b2.rb, 198, 300, 1),
	   "32x32: 100 and 198 bytes stay on U-torus");
	ok(mc_rb_pick(&b2.rb, 199, 300, 1) && mc_rb_pick(&b2.rb, 1000, 300, 1) &&
	   mc_rb_pick(&b2.rb, 15999, 300, 1) &&
	   mc_rb_pick(&b2.rb, 16001, 300, 1),
	   "32x32: 199, 1000, 15999, 16001 bytes pick RB");
	ok(!mc_rb_pick(&b2.rb, 1000, 300, 0) && !mc_rb_pick(&b2.rb, 1000000, 1u << 31, 1),
	   "no RB when Tc = 0 or Ts dwarfs the message");
	kcube(k, 3, 32);
	tb_must(&b3, 3, k, true, MC_RB_ONE_PORT, MC_RB_ORDER_RANGES);
	na = baselines_3d(a, 5, &b3.rb);
	for (i = 0; i < ARRAY_SIZE(w3); i++) {
		ok(!strcmp(best(a, na, w3[i].at - 1), w3[i].lo) &&
		   !strcmp(best(a, na, w3[i].at + 1), w3[i].hi),
		   "32^3 best by L: %s below %llu, %s above", w3[i].lo,
		   (unsigned long long)w3[i].at, w3[i].hi);
	}
	is_int(mc_rb_crossover(&b3.rb, 300, 1), 144,
	       "32^3: RB beats U-torus from 144 bytes (115200/803)");
	kcube(k, 2, 2);
	tb_free(&b2);
	tb_must(&b2, 2, k, true, MC_RB_ONE_PORT, MC_RB_ORDER_RANGES);
	is_int(mc_rb_crossover(&b2.rb, 1, 1), 3,
	       "2x2: (3, 3/2) against (2, 2): RB from L > 2 Ts / Tc");
	is_int(mc_rb_crossover(&b2.rb, 0, 1), 2,
	       "2x2, Ts = 0: RB from one byte per position");
	tb_free(&b2);
	tb_free(&b3);
}

/* ---------------- shapes ---------------- */

static void refuse(const char *name, unsigned int d, const u16 *k, bool mesh,
		   enum mc_links links, int ports, int order, int err,
		   const char *reason)
{
	struct mc_torus t;
	struct mc_rb rb;
	const char *why = NULL;
	int rc;

	if (mc_torus_init(&t, d, k, links, NULL)) {
		ok(0, "%s: torus", name);
		return;
	}
	rc = mc_rb_init(&rb, &t, mesh, (enum mc_rb_ports)ports,
			(enum mc_rb_order)order, &why);
	ok(rc == err && why && strstr(why, reason), "%s: %d (%s)", name, rc,
	   why ? why : "-");
}

static void test_shapes(void)
{
	struct mc_torus t;
	struct mc_rb rb;
	const char *why;
	u16 k[4];
	u32 rank[4] = { 0, 1, 2, 3 }, unrank[4];

	k2(k, 6, 4);
	refuse("6x4", 2, k, true, MC_LINKS_BI, 0, 0, -EINVAL, "power of two");
	k[0] = 8;
	refuse("8 (1D)", 1, k, true, MC_LINKS_BI, 0, 0, -EINVAL,
	       "two dimensions");
	k2(k, 4, 4);
	refuse("4x4 torus, one-way links", 2, k, false, MC_LINKS_UNI, 0, 0,
	       -EINVAL, "both ways");
	refuse("4x4, port model 2", 2, k, true, MC_LINKS_BI, 2, 0, -EINVAL,
	       "port model");
	refuse("4x4, order 2", 2, k, true, MC_LINKS_BI, 0, 2, -EINVAL,
	       "order");
	k[0] = 4;
	k[1] = 4;
	k[2] = 8;
	refuse("4x4x8", 3, k, true, MC_LINKS_BI, 0, 0, -EINVAL,
	       "only in 2D");
	k2(k, 16, 4);
	refuse("16x4 all-port", 2, k, true, MC_LINKS_BI, 1, 0, -EINVAL,
	       "all-port");
	k2(k, 128, 2);
	refuse("128x2 (k = 6)", 2, k, true, MC_LINKS_BI, 0, 0, -E2BIG,
	       "reduce");
	mc_torus_init_switch(&t, 4, rank, unrank, NULL);
	why = NULL;
	ok(mc_rb_init(&rb, &t, false, MC_RB_ONE_PORT, MC_RB_ORDER_RANGES,
		      &why) == -EINVAL && why && strstr(why, "switched"),
	   "a switched cluster: refused (%s)", why ? why : "-");
	/* accepted: the long side in either dimension, one-way mesh links */
	k2(k, 4, 64);
	ok(!mc_torus_init(&t, 2, k, MC_LINKS_UNI, NULL) &&
	   !mc_rb_init(&rb, &t, true, MC_RB_ONE_PORT, MC_RB_ORDER_RANGES,
		       NULL) && rb.shape == MC_RB_RECT && rb.ldim == 1 &&
	   rb.steps == 3 * 2 + 4 + 15,
	   "4x64 mesh: a rect, long side sigma_1, 25 steps");
	kcube(k, 2, 4096);
	ok(!mc_torus_init(&t, 2, k, MC_LINKS_BI, NULL) &&
	   !mc_rb_init(&rb, &t, false, MC_RB_ALL_PORT, MC_RB_ORDER_RANGES,
		       NULL) && rb.steps == 36 && mc_rb_positions(&rb) == 8192,
	   "4096x4096 torus all-port: 36 steps, 2 x 4096 positions");
}

/* ---------------- the 2D closed form of notes 3.1.3 ---------------- */

/* R_k(c) as a unit set of U = 2^n units. */
static u64 rset(u32 n, u32 k, u32 c)
{
	u64 s = 0;
	u32 z;

	for (z = 0; z < 1u << n; z++)
		if ((z & ((1u << k) - 1)) == (c & ((1u << k) - 1)))
			s |= 1ull << z;
	return s;
}

static bool eqk(u32 a, u32 b, u32 j)
{
	return ((a ^ b) & ((1u << j) - 1)) == 0;
}

/* D_j(X,Y) and A_j(X,Y) of notes 3.1.3. */
static bool dj(u32 x, u32 y, u32 j)
{
	return eqk(x, y, j);
}

static bool aj(u32 x, u32 y, u32 j)
{
	return eqk(x, ~y, j);
}

static u32 ck(u32 x, u32 y, u32 k)
{
	return (dj(x, y, k - 1) ? y : ~y) & ((1u << k) - 1);
}

/* One expected transfer of node (X,Y): partner offset, units, direction. */
struct cf {
	u32 dx;
	u32 dy;
	u64 send;
	u64 recv;
};

/*
 * Step @t of notes 3.1.3 for relative (X,Y), stage 1 small-first
 * (3.1.4 (b)): at step j holder Phi(w), w < 2^(j-1), sends R_j(w+2^(j-1)).
 */
static void closed_form(u32 n, u32 X, u32 Y, u32 t, struct cf *e)
{
	u32 k, h, m;

	memset(e, 0, sizeof(*e));
	if (t < n) {
		h = 1u << t;
		e->dx = e->dy = h;
		if (X == Y && X < h)
			e->send = rset(n, t + 1, X + h);
		if (X == Y && X >= h && X < 2 * h)
			e->recv = rset(n, t + 1, X);
		return;
	}
	k = n - (t - n) / 2;
	m = (1u << k) - 1;
	h = 1u << (k - 1);
	if ((t - n) % 2 == 0) {
		e->dy = m;
		if (k == n) {
			if (dj(X, Y, n))
				e->send = rset(n, n, X);
			else if (aj(X, Y, n))
				e->recv = rset(n, n, X);
		} else if (dj(X, Y, k) || aj(X, Y, k)) {
			e->send = rset(n, k + 1, ck(X, Y, k + 1));
			e->recv = rset(n, k + 1, ck(X, Y, k + 1) ^ (1u << k));
		}
		return;
	}
	e->dx = h;
	if (k == 1) {
		e->send = rset(n, 1, X & 1);
		e->recv = rset(n, 1, (X & 1) ^ 1);
	} else if (dj(X, Y, k) || aj(X, Y, k)) {
		e->send = rset(n, k, X);
	} else if (dj(X ^ h, Y, k) || aj(X ^ h, Y, k)) {
		e->recv = rset(n, k, X ^ h);
	}
}

static u32 rev(u32 v, u32 bits)
{
	u32 r = 0, i;

	for (i = 0; i < bits; i++)
		r |= (v >> i & 1) << (bits - 1 - i);
	return r;
}

/* Node @u's records of step @t as unit sets; counts a wrong peer. */
static u32 node_step_units(const struct tb *b, const struct mc_rb_xfer *x,
			   u64 cnt, u32 u, u32 t, u32 peer, u64 *snd,
			   u64 *rcv, u32 *multi)
{
	u32 n = b->rb.n, bad = 0, z;
	u64 i, *set;

	*snd = *rcv = 0;
	for (i = 0; i < cnt; i++) {
		if (x[i].step != t)
			continue;
		bad += (x[i].from == u ? x[i].to : x[i].from) != peer;
		set = x[i].from == u ? snd : rcv;
		for (z = (u32)x[i].off; z < x[i].off + x[i].len; z++)
			*set |= 1ull << rev(z, n);
		*multi += i && x[i - 1].step == t &&
			  x[i - 1].from == x[i].from && x[i - 1].to == x[i].to;
	}
	return bad;
}

/* Every step of node @u against notes 3.1.3. */
static u32 node_vs_closed_form(const struct tb *b, u32 src, u32 u,
			       const struct mc_rb_xfer *x, u64 cnt,
			       u32 *multi)
{
	u32 n = b->rb.n, X = coord_of(b, u ^ src, 0), Y = coord_of(b, u ^ src, 1);
	u32 bad = 0, t;
	unsigned int c[2];
	u64 snd, rcv;
	struct cf e;

	for (t = 0; t < b->rb.steps; t++) {
		closed_form(n, X, Y, t, &e);
		c[0] = coord_of(b, u, 0) ^ e.dx;
		c[1] = coord_of(b, u, 1) ^ e.dy;
		bad += node_step_units(b, x, cnt, u, t, node_of(b, c), &snd,
				       &rcv, multi);
		bad += snd != e.send || rcv != e.recv;
	}
	return bad;
}

static void test_closed_form_2d(void)
{
	struct mc_rb_xfer *x = xcalloc(4096, sizeof(*x));
	u32 n, src, u, bad, multi;
	struct tb b;
	u64 cnt;
	u8 *ws;
	u16 k[2];

	for (n = 1; n <= 4; n++) {
		kcube(k, 2, 1u << n);
		tb_must(&b, 2, k, n % 2, MC_RB_ONE_PORT, MC_RB_ORDER_RANGES);
		ws = xcalloc(mc_rb_node_ws_bytes(&b.rb), 1);
		bad = multi = 0;
		for (src = 0; src < b.rb.nodes; src += 1 + (n > 2) * 5) {
			for (u = 0; u < b.rb.nodes; u++) {
				mc_rb_node(&b.rb, src, u, 1u << n, ws, x, 4096,
					   &cnt);
				bad += node_vs_closed_form(&b, src, u, x, cnt,
							   &multi);
			}
		}
		is_int(bad, 0, "%ux%u: mc_rb_node = notes 3.1.3 closed form, every node",
		       1u << n, 1u << n);
		is_int(multi, 0, "%ux%u: every transfer one byte range (3.1.4)",
		       1u << n, 1u << n);
		free(ws);
		tb_free(&b);
	}
	free(x);
}

/* ---------------- properties ---------------- */

struct shape {
	unsigned int d;
	u16 k[MC_MAX_DIMS];
	bool allport;	/* all-port allowed */
	u32 ranges;	/* most ranges per message: one-port, RANGES, S*U | L */
};

static u32 nshapes;
static struct shape shapes[64];

static void add_shape(unsigned int d, const u16 *k, u32 ranges)
{
	struct shape *s = &shapes[nshapes++];
	unsigned int i;
	bool eq = true;

	s->d = d;
	for (i = 0; i < d; i++) {
		s->k[i] = k[i];
		eq &= k[i] == k[0];
	}
	s->allport = eq;
	s->ranges = ranges;
}

static void make_shapes(void)
{
	u16 k[MC_MAX_DIMS];
	u32 n, m, kk;

	for (n = 1; n <= 4; n++) {
		kcube(k, 2, 1u << n);
		add_shape(2, k, 1);
	}
	for (m = 1; m <= 3; m++) {
		for (kk = 1; kk <= 3 && 2 * m + kk <= 8; kk++) {
			k2(k, 1u << (m + kk), 1u << m);
			add_shape(2, k, 1u << (kk - 1));
			k2(k, 1u << m, 1u << (m + kk));
			add_shape(2, k, 1u << (kk - 1));
		}
	}
	for (n = 1; n <= 3; n++) {
		kcube(k, 3, 1u << n);
		add_shape(3, k, 2);
	}
	for (n = 1; n <= 2; n++) {
		kcube(k, 4, 1u << n);
		add_shape(4, k, 2);
	}
	kcube(k, 5, 2);
	add_shape(5, k, 2);
}

static u64 most_ranges(const struct mc_rb_plan *p)
{
	u64 i, run = 0, most = 0;

	for (i = 0; i < p->n; i++) {
		const struct mc_rb_xfer *x = &p->x[i];

		if (i && x[-1].step == x->step && x[-1].from == x->from &&
		    x[-1].to == x->to)
			run++;
		else
			run = 1;
		if (run > most)
			most = run;
	}
	return most;
}

struct tally {
	u32 plans;
	u32 fail_cover, fail_ports, fail_cont, fail_l6, fail_cost;
	u32 fail_node, fail_ranges, fail_neg, negs;
	u64 nodes;
};

static bool run_checks(struct tb *b, struct tally *ty, const char *tag)
{
	struct mc_rb_check_result res;
	enum mc_rb_route r;
	bool good = true;

	if (mc_rb_check_cover(&b->p, b->cws, &res)) {
		ty->fail_cover++;
		diag("%s: cover: %s (step %u node %u)", tag, res.what,
		     res.step, res.node);
		good = false;
	}
	for (r = MC_RB_ROUTE_DOR; r <= MC_RB_ROUTE_XY; r++) {
		if (mc_rb_check_ports(&b->p, r, b->cws, &res)) {
			ty->fail_ports++;
			diag("%s: ports(%d): %s (step %u)", tag, r, res.what,
			     res.step);
			good = false;
		}
		if (mc_rb_check_contention(&b->p, r, b->cws, &res)) {
			ty->fail_cont++;
			diag("%s: contention(%d): %s (step %u)", tag, r,
			     res.what, res.step);
			good = false;
		}
	}
	if (b->rb.shape == MC_RB_CUBE && b->rb.d == 2 &&
	    b->rb.ports == MC_RB_ONE_PORT &&
	    mc_rb_check_lemma6(&b->p, b->cws, &res)) {
		ty->fail_l6++;
		diag("%s: lemma6: %s (step %u)", tag, res.what, res.step);
		good = false;
	}
	if (mc_rb_check_cost(&b->p, &res)) {
		ty->fail_cost++;
		diag("%s: cost: %s", tag, res.what);
		good = false;
	}
	return good;
}

/* mc_rb_node for @u equals the plan's records of @u, in the same order. */
static bool node_matches(struct tb *b, u32 u, u8 *ws, struct mc_rb_xfer *x,
			 u64 cap)
{
	u64 cnt = 0, i, j = 0;

	if (mc_rb_node(&b->rb, b->p.src, u, b->p.len, ws, x, cap, &cnt))
		return false;
	for (i = 0; i < b->p.n; i++) {
		const struct mc_rb_xfer *y = &b->p.x[i];

		if (y->from != u && y->to != u)
			continue;
		if (j >= cnt || x[j].step != y->step || x[j].from != y->from ||
		    x[j].to != y->to || x[j].off != y->off ||
		    x[j].len != y->len)
			return false;
		j++;
	}
	return j == cnt;
}

static void one_case(struct rng *r, const struct shape *s, bool mesh,
		     enum mc_rb_ports ports, enum mc_rb_order order,
		     struct tally *ty, struct mc_rb_xfer *x, u64 cap)
{
	struct mc_rb_check_result res;
	char tag[96];
	struct tb b;
	u32 src, u, stride, rep;
	u64 len;
	u8 *ws;

	tb_must(&b, s->d, s->k, mesh, ports, order);
	ws = xcalloc(mc_rb_node_ws_bytes(&b.rb), 1);
	for (rep = 0; rep < 3; rep++) {
		src = rep ? rng_below(r, b.rb.nodes) : 0;
		if (rep < 2)
			len = mc_rb_positions(&b.rb) * (1 + rng_below(r, 4));
		else
			len = 1 + rng_below(r, 3 * mc_rb_positions(&b.rb));
		tb_plan(&b, src, len);
		snprintf(tag, sizeof(tag), "%ux%u%s d%u %s %s %s src %u L %llu",
			 s->k[0], s->k[1], s->d > 2 ? "x.." : "", s->d,
			 mesh ? "mesh" : "torus", ports ? "all" : "one",
			 order ? "paper" : "ranges", src,
			 (unsigned long long)len);
		ty->plans++;
		run_checks(&b, ty, tag);
		stride = b.rb.nodes > 256 ? 1 + rng_below(r, 13) : 1;
		for (u = rng_below(r, stride); u < b.rb.nodes; u += stride) {
			ty->nodes++;
			if (!node_matches(&b, u, ws, x, cap)) {
				ty->fail_node++;
				diag("%s: mc_rb_node(%u) differs", tag, u);
				break;
			}
		}
		if (ports == MC_RB_ONE_PORT && order == MC_RB_ORDER_RANGES &&
		    len % mc_rb_positions(&b.rb) == 0 &&
		    most_ranges(&b.p) > s->ranges) {
			ty->fail_ranges++;
			diag("%s: %llu ranges in a message", tag,
			     (unsigned long long)most_ranges(&b.p));
		}
		/* notes 3.7: a tie that wraps contends in the first shift */
		if (!mesh && b.rb.shape == MC_RB_CUBE && b.rb.n >= 2 &&
		    ports == MC_RB_ONE_PORT && len % mc_rb_positions(&b.rb) == 0) {
			ty->negs++;
			if (!mc_rb_check_contention(&b.p, MC_RB_ROUTE_TIE_PLUS,
						    b.cws, &res) ||
			    res.step > b.rb.splits + 1u ||
			    (order == MC_RB_ORDER_PAPER &&
			     res.step != b.rb.splits + 1u)) {
				ty->fail_neg++;
				diag("%s: '+' ties: %s at step %u", tag,
				     res.what ? res.what : "no contention",
				     res.step);
			}
		}
	}
	free(ws);
	tb_free(&b);
}

static void test_properties(void)
{
	struct mc_rb_xfer *x = xcalloc(1u << 16, sizeof(*x));
	struct tally ty;
	struct rng r = { 20250603 };
	u32 i;
	int mesh, ports, order;

	memset(&ty, 0, sizeof(ty));
	make_shapes();
	for (i = 0; i < nshapes; i++)
		for (mesh = 0; mesh < 2; mesh++)
			for (ports = 0; ports < 2; ports++)
				for (order = 0; order < 2; order++)
					if (!ports || shapes[i].allport)
						one_case(&r, &shapes[i], mesh,
							 (enum mc_rb_ports)ports,
							 (enum mc_rb_order)order,
							 &ty, x, 1u << 16);
	diag("%u plans over %u shapes, %llu nodes compared", ty.plans, nshapes,
	     (unsigned long long)ty.nodes);
	is_int(ty.fail_cover, 0, "every plan covers (%u plans)", ty.plans);
	is_int(ty.fail_ports, 0, "port limits hold (one-port and all-port, both DORs)");
	is_int(ty.fail_cont, 0, "no two messages of a step share a channel (DOR and XY, mesh and torus)");
	is_int(ty.fail_l6, 0, "the sharper Lemma 6 holds on every 2D square one-port plan");
	is_int(ty.fail_cost, 0, "alpha and beta * L equal the closed forms");
	is_int(ty.fail_node, 0, "mc_rb_node equals the plan (%llu nodes)",
	       (unsigned long long)ty.nodes);
	is_int(ty.fail_ranges, 0, "ranges per message: 1 in 2D and k = 1 rects, 2 in 3D to 5D, 2^(k-1) in rects");
	ok(ty.negs > 0 && !ty.fail_neg,
	   "torus with '+' ties: contention in the first shift (paper order), by then (ranges order; %u plans)",
	   ty.negs);
	free(x);
}

/* Thm 2: per-step message counts and sizes do not depend on the source. */
static void test_source_independence(void)
{
	u32 c0[MC_RB_MAX_STEPS], c1[MC_RB_MAX_STEPS], src, bad, i;
	u64 b0[MC_RB_MAX_STEPS], b1[MC_RB_MAX_STEPS];
	static const struct { unsigned int d, x, y; } sh[] = {
		{ 2, 8, 8 }, { 2, 16, 4 }, { 3, 4, 4 },
	};
	struct tb b;
	u16 k[3];

	for (i = 0; i < 3; i++) {
		k[0] = (u16)sh[i].x;
		k[1] = (u16)sh[i].y;
		k[2] = 4;
		tb_must(&b, sh[i].d, k, true, MC_RB_ONE_PORT,
			MC_RB_ORDER_RANGES);
		tb_plan(&b, 0, mc_rb_positions(&b.rb));
		step_profile(&b, c0, b0);
		bad = 0;
		for (src = 1; src < b.rb.nodes; src++) {
			tb_plan(&b, src, mc_rb_positions(&b.rb));
			step_profile(&b, c1, b1);
			bad += memcmp(c0, c1, b.rb.steps * sizeof(u32)) ||
			       memcmp(b0, b1, b.rb.steps * sizeof(u64));
		}
		is_int(bad, 0, "%ux%u%s: same counts and sizes from all %u sources",
		       sh[i].x, sh[i].y, sh[i].d > 2 ? "x4" : "", b.rb.nodes);
		tb_free(&b);
	}
}

/* ---------------- the API's edges ---------------- */

static void test_api(void)
{
	struct mc_rb_xfer x[64];
	struct tb b;
	u64 cnt;
	u8 *ws;
	u32 chan[16];
	u16 k[2];
	int n;

	kcube(k, 2, 4);
	tb_must(&b, 2, k, false, MC_RB_ONE_PORT, MC_RB_ORDER_RANGES);
	ws = xcalloc(mc_rb_node_ws_bytes(&b.rb), 1);
	ok(mc_rb_node(&b.rb, 0, 5, 64, ws, x, 0, &cnt) == -ENOSPC && cnt > 0,
	   "mc_rb_node with no room: -ENOSPC and the count (%llu)",
	   (unsigned long long)cnt);
	ok(mc_rb_node(&b.rb, 0, 16, 64, ws, x, 64, &cnt) == -EINVAL &&
	   mc_rb_node(&b.rb, 16, 0, 64, ws, x, 64, &cnt) == -EINVAL,
	   "mc_rb_node: node or source out of range");
	ok(mc_rb_node(&b.rb, 0, 5, 3, ws, x, 64, &cnt) == 0,
	   "a 3-byte message on 4 positions plans (empty units skipped)");
	b.p.x = NULL;
	b.p.cap = 0;
	ok(mc_rb_plan(&b.p, &b.rb, 16, 64, b.ws) == -EINVAL,
	   "mc_rb_plan: source out of range");
	/* routes: torus DOR is BTR (a tie at 2 of 4 does not wrap) */
	n = mc_rb_route(&b.rb, MC_RB_ROUTE_DOR, 0, 2, chan, 16);
	ok(n == 2 && chan[0] == MC_RB_CHAN(&b.rb, 0, 0, 1),
	   "torus DOR 0 -> 2: two hops up, no wrap");
	n = mc_rb_route(&b.rb, MC_RB_ROUTE_DOR, 0, 3, chan, 16);
	ok(n == 1 && chan[0] == MC_RB_CHAN(&b.rb, 0, 0, -1),
	   "torus DOR 0 -> 3: one hop down the wrap");
	n = mc_rb_route(&b.rb, MC_RB_ROUTE_TIE_PLUS, 2, 0, chan, 16);
	ok(n == 2 && chan[0] == MC_RB_CHAN(&b.rb, 2, 0, 1),
	   "torus TIE_PLUS 2 -> 0: up, through the wrap");
	ok(mc_rb_route(&b.rb, MC_RB_ROUTE_DOR, 0, 15, chan, 1) == -ENOSPC,
	   "route with no room: -ENOSPC");
	n = mc_rb_route(&b.rb, MC_RB_ROUTE_XY, 0, 5, chan, 16);
	ok(n == 2 && chan[0] == MC_RB_CHAN(&b.rb, 0, 0, 1) &&
	   chan[1] == MC_RB_CHAN(&b.rb, 1, 1, 1),
	   "XY 0 -> (1,1): x first");
	n = mc_rb_route(&b.rb, MC_RB_ROUTE_DOR, 0, 5, chan, 16);
	ok(n == 2 && chan[0] == MC_RB_CHAN(&b.rb, 0, 1, 1),
	   "DOR 0 -> (1,1): y first");
	free(ws);
	tb_free(&b);
	tb_must(&b, 2, k, true, MC_RB_ONE_PORT, MC_RB_ORDER_RANGES);
	ok(mc_rb_route(&b.rb, MC_RB_ROUTE_TIE_PLUS, 0, 2, chan, 16) == -EINVAL,
	   "TIE_PLUS on a mesh: -EINVAL");
	n = mc_rb_route(&b.rb, MC_RB_ROUTE_DOR, 0, 3, chan, 16);
	ok(n == 3, "mesh DOR 0 -> 3: three hops, no wrap");
	tb_free(&b);
}

/* ---------------- hand-made plans ---------------- */

static struct mc_rb_xfer X(u32 step, u32 from, u32 to, u64 off, u64 len)
{
	struct mc_rb_xfer x = { step, from, to, off, len };

	return x;
}

static void check_fails(struct tb *b, const struct mc_rb_xfer *x, u64 n,
			u64 len, int which, const char *reason,
			const char *name)
{
	struct mc_rb_check_result res;
	struct mc_rb_plan p = { &b->rb, 0, len, (struct mc_rb_xfer *)x, n, n };
	int rc = -1;

	switch (which) {
	case 0:
		rc = mc_rb_check_cover(&p, b->cws, &res);
		break;
	case 1:
		rc = mc_rb_check_ports(&p, MC_RB_ROUTE_DOR, b->cws, &res);
		break;
	case 2:
		rc = mc_rb_check_contention(&p, MC_RB_ROUTE_DOR, b->cws, &res);
		break;
	case 3:
		rc = mc_rb_check_lemma6(&p, b->cws, &res);
		break;
	case 4:
		rc = mc_rb_check_cost(&p, &res);
		break;
	}
	ok(rc == -EINVAL && res.what && strstr(res.what, reason),
	   "refused: %s (%s)", name, res.what ? res.what : "passed");
}

/* 2x2 nodes: 0 = (0,0), 1 = (1,0), 2 = (0,1), 3 = (1,1). */
static void test_bad_plans(void)
{
	struct mc_rb_xfer good[] = {
		X(0, 0, 3, 1, 1),
		X(1, 0, 2, 0, 1), X(1, 3, 1, 1, 1),
		X(2, 0, 1, 0, 1), X(2, 1, 0, 1, 1),
		X(2, 2, 3, 0, 1), X(2, 3, 2, 1, 1),
	};
	struct mc_rb_xfer v[16];
	struct mc_rb_check_result res;
	struct mc_rb_plan p;
	struct tb b, b4;
	u16 k[2];

	kcube(k, 2, 2);
	tb_must(&b, 2, k, true, MC_RB_ONE_PORT, MC_RB_ORDER_RANGES);
	p.rb = &b.rb;
	p.src = 0;
	p.len = 2;
	p.x = good;
	p.n = p.cap = 7;
	ok(!mc_rb_check_cover(&p, b.cws, &res) &&
	   !mc_rb_check_ports(&p, MC_RB_ROUTE_DOR, b.cws, &res) &&
	   !mc_rb_check_contention(&p, MC_RB_ROUTE_DOR, b.cws, &res) &&
	   !mc_rb_check_lemma6(&p, b.cws, &res) &&
	   !mc_rb_check_cost(&p, &res),
	   "the hand-made 2x2 plan passes every checker");

	check_fails(&b, good, 6, 2, 0, "misses", "the last record dropped");
	memcpy(v, good, sizeof(good));
	v[2] = X(1, 3, 1, 0, 1);
	check_fails(&b, v, 7, 2, 0, "does not hold", "a relay sends what it lacks");
	memcpy(v, good, sizeof(good));
	v[5] = X(2, 2, 3, 0, 1);
	v[6] = X(2, 3, 0, 1, 1);
	v[7] = X(2, 3, 2, 1, 1);
	check_fails(&b, v, 8, 2, 0, "twice",
		    "(0,0) gets byte 1 from (1,0) and (1,1) in one step");
	memcpy(v, good, sizeof(good));
	v[0].off = 0;
	v[0].len = 2;
	check_fails(&b, v, 7, 4, 0, "boundaries", "a range off the position grid");
	memcpy(v, good, sizeof(good));
	v[1] = good[2];
	v[2] = good[1];
	check_fails(&b, v, 7, 2, 0, "order", "records out of order");
	memcpy(v, good, sizeof(good));
	v[6].to = 9;
	check_fails(&b, v, 7, 2, 0, "range", "a node out of range");
	memcpy(v, good, sizeof(good));
	v[6].step = 3;
	check_fails(&b, v, 7, 2, 0, "more steps", "a fourth step on a 2x2");
	v[0] = X(0, 0, 1, 0, 1);
	v[1] = X(0, 2, 1, 1, 1);
	check_fails(&b, v, 2, 2, 1, "receives two",
		    "one-port: two messages into one node");
	v[0] = X(0, 0, 1, 0, 1);
	v[1] = X(0, 0, 3, 1, 1);
	check_fails(&b, v, 2, 2, 1, "sends two",
		    "one-port: two messages out of one node");
	check_fails(&b, good, 3, 2, 4, "step count", "cost: the last step missing");
	check_fails(&b, good, 7, 4, 4, "beta", "cost: twice the bytes claimed");

	kcube(k, 2, 4);
	tb_must(&b4, 2, k, true, MC_RB_ONE_PORT, MC_RB_ORDER_RANGES);
	/* 4x4: node (x,y) is x + 4y */
	v[0] = X(0, 0, 3, 0, 1);
	v[1] = X(0, 1, 2, 1, 1);
	check_fails(&b4, v, 2, 4, 2, "share a channel",
		    "(0,0)->(3,0) and (1,0)->(2,0) in one step");
	v[0] = X(0, 0, 5, 0, 1);
	v[1] = X(0, 2, 7, 1, 1);
	check_fails(&b4, v, 2, 4, 3, "senders in one row",
		    "Lemma 6: two diagonal senders in row 0");
	v[0] = X(0, 0, 12, 0, 1);
	v[1] = X(0, 4, 8, 1, 1);
	check_fails(&b4, v, 2, 4, 3, "two vertical pairs",
		    "Lemma 6: two mirror pairs in column 0");
	v[0] = X(0, 0, 2, 0, 1);
	v[1] = X(0, 1, 3, 1, 1);
	check_fails(&b4, v, 2, 4, 3, "one way",
		    "Lemma 6: two shifts the same way in one row block");
	v[0] = X(0, 0, 1, 0, 1);
	v[1] = X(0, 2, 6, 1, 1);
	check_fails(&b4, v, 2, 4, 3, "mixes",
		    "Lemma 6: a shift and a mirror in one step");
	v[0] = X(0, 0, 6, 0, 1);
	check_fails(&b4, v, 1, 4, 3, "neither",
		    "Lemma 6: a knight's move");
	tb_free(&b4);
	tb_free(&b);
}

int main(void)
{
	test_shapes();
	test_golden_2d();
	test_golden_3d();
	test_profiles();
	test_receipts();
	test_tables();
	test_paper_numbers();
	test_closed_form_2d();
	test_source_independence();
	test_api();
	test_bad_plans();
	test_properties();
	return done_testing();
}
