/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * Routing functions (Robinson (1994): Expression 4.1 UTR, Expression 4.2 BTR,
 * Eq 5.3 / Fig 5.11 UTPR), channel existence sets, Hamiltonian labels
 * (Eq 5.2), boundaries (Def 5.1 / Lemma 5.7).
 *
 * Every expectation comes from the notes' golden vectors or from a
 * reference implementation written here from the formulas.
 */
#include "tref.h"

#define MAXHOPS 256

/* ---------------- golden vectors ---------------- */

struct groute {
	unsigned int n, k;
	enum mc_routing r;
	int from[3], to[3];
	unsigned int narcs;
	const char *arcs[20];
};

static const struct groute golden[] = {
	{ 3, 10, MC_ROUTE_UTR, { 8, 4, 5 }, { 1, 9, 7 }, 10, {
		"c2p(8,4,5)", "c2p(9,4,5)", "c2h(0,4,5)", "c1h(1,4,5)", "c1h(1,5,5)",
		"c1h(1,6,5)", "c1h(1,7,5)", "c1h(1,8,5)", "c0h(1,9,5)", "c0h(1,9,6)",
	} },
	{ 3, 10, MC_ROUTE_UTR, { 1, 9, 7 }, { 4, 9, 3 }, 9, {
		"c2h(1,9,7)", "c2h(2,9,7)", "c2h(3,9,7)", "c0p(4,9,7)", "c0p(4,9,8)",
		"c0p(4,9,9)", "c0h(4,9,0)", "c0h(4,9,1)", "c0h(4,9,2)",
	} },
	{ 3, 10, MC_ROUTE_UTR, { 4, 9, 3 }, { 8, 0, 5 }, 7, {
		"c2h(4,9,3)", "c2h(5,9,3)", "c2h(6,9,3)", "c2h(7,9,3)", "c1p(8,9,3)",
		"c0h(8,0,3)", "c0h(8,0,4)",
	} },
	{ 3, 10, MC_ROUTE_UTR, { 1, 9, 7 }, { 4, 8, 9 }, 14, {
		"c2h(1,9,7)", "c2h(2,9,7)", "c2h(3,9,7)", "c1p(4,9,7)", "c1h(4,0,7)",
		"c1h(4,1,7)", "c1h(4,2,7)", "c1h(4,3,7)", "c1h(4,4,7)", "c1h(4,5,7)",
		"c1h(4,6,7)", "c1h(4,7,7)", "c0h(4,8,7)", "c0h(4,8,8)",
	} },
	{ 3, 10, MC_ROUTE_UTR, { 1, 9, 7 }, { 3, 5, 5 }, 16, {
		"c2h(1,9,7)", "c2h(2,9,7)", "c1p(3,9,7)", "c1h(3,0,7)", "c1h(3,1,7)",
		"c1h(3,2,7)", "c1h(3,3,7)", "c1h(3,4,7)", "c0p(3,5,7)", "c0p(3,5,8)",
		"c0p(3,5,9)", "c0h(3,5,0)", "c0h(3,5,1)", "c0h(3,5,2)", "c0h(3,5,3)",
		"c0h(3,5,4)",
	} },
	{ 3, 10, MC_ROUTE_UTR, { 8, 4, 5 }, { 9, 0, 5 }, 7, {
		"c2h(8,4,5)", "c1p(9,4,5)", "c1p(9,5,5)", "c1p(9,6,5)", "c1p(9,7,5)",
		"c1p(9,8,5)", "c1p(9,9,5)",
	} },
	{ 3, 10, MC_ROUTE_UTR, { 9, 0, 5 }, { 1, 6, 4 }, 17, {
		"c2p(9,0,5)", "c2h(0,0,5)", "c1h(1,0,5)", "c1h(1,1,5)", "c1h(1,2,5)",
		"c1h(1,3,5)", "c1h(1,4,5)", "c1h(1,5,5)", "c0p(1,6,5)", "c0p(1,6,6)",
		"c0p(1,6,7)", "c0p(1,6,8)", "c0p(1,6,9)", "c0h(1,6,0)", "c0h(1,6,1)",
		"c0h(1,6,2)", "c0h(1,6,3)",
	} },
	{ 3, 10, MC_ROUTE_UTR, { 9, 0, 5 }, { 1, 0, 2 }, 9, {
		"c2p(9,0,5)", "c2h(0,0,5)", "c0p(1,0,5)", "c0p(1,0,6)", "c0p(1,0,7)",
		"c0p(1,0,8)", "c0p(1,0,9)", "c0h(1,0,0)", "c0h(1,0,1)",
	} },
	{ 3, 10, MC_ROUTE_UTR, { 8, 4, 5 }, { 9, 0, 1 }, 13, {
		"c2h(8,4,5)", "c1p(9,4,5)", "c1p(9,5,5)", "c1p(9,6,5)", "c1p(9,7,5)",
		"c1p(9,8,5)", "c1p(9,9,5)", "c0p(9,0,5)", "c0p(9,0,6)", "c0p(9,0,7)",
		"c0p(9,0,8)", "c0p(9,0,9)", "c0h(9,0,0)",
	} },
	{ 3, 10, MC_ROUTE_UTR, { 8, 4, 5 }, { 8, 5, 4 }, 10, {
		"c1h(8,4,5)", "c0p(8,5,5)", "c0p(8,5,6)", "c0p(8,5,7)", "c0p(8,5,8)",
		"c0p(8,5,9)", "c0h(8,5,0)", "c0h(8,5,1)", "c0h(8,5,2)", "c0h(8,5,3)",
	} },
	{ 3, 10, MC_ROUTE_BTR, { 8, 4, 5 }, { 1, 9, 7 }, 10, {
		"c2p(8,4,5)", "c2p(9,4,5)", "c2h(0,4,5)", "c1h(1,4,5)", "c1h(1,5,5)",
		"c1h(1,6,5)", "c1h(1,7,5)", "c1h(1,8,5)", "c0h(1,9,5)", "c0h(1,9,6)",
	} },
	{ 3, 10, MC_ROUTE_BTR, { 1, 9, 7 }, { 4, 9, 3 }, 7, {
		"c2h(1,9,7)", "c2h(2,9,7)", "c2h(3,9,7)", "c0l(4,9,7)", "c0l(4,9,6)",
		"c0l(4,9,5)", "c0l(4,9,4)",
	} },
	{ 3, 10, MC_ROUTE_BTR, { 4, 9, 3 }, { 8, 0, 5 }, 7, {
		"c2h(4,9,3)", "c2h(5,9,3)", "c2h(6,9,3)", "c2h(7,9,3)", "c1p(8,9,3)",
		"c0h(8,0,3)", "c0h(8,0,4)",
	} },
	{ 3, 10, MC_ROUTE_BTR, { 1, 9, 7 }, { 4, 8, 9 }, 6, {
		"c2h(1,9,7)", "c2h(2,9,7)", "c2h(3,9,7)", "c1l(4,9,7)", "c0h(4,8,7)",
		"c0h(4,8,8)",
	} },
	{ 3, 10, MC_ROUTE_BTR, { 1, 9, 7 }, { 3, 5, 5 }, 8, {
		"c2h(1,9,7)", "c2h(2,9,7)", "c1l(3,9,7)", "c1l(3,8,7)", "c1l(3,7,7)",
		"c1l(3,6,7)", "c0l(3,5,7)", "c0l(3,5,6)",
	} },
	{ 3, 10, MC_ROUTE_BTR, { 8, 4, 5 }, { 9, 0, 5 }, 5, {
		"c2h(8,4,5)", "c1l(9,4,5)", "c1l(9,3,5)", "c1l(9,2,5)", "c1l(9,1,5)",
	} },
	{ 3, 10, MC_ROUTE_BTR, { 9, 0, 5 }, { 1, 6, 4 }, 7, {
		"c2p(9,0,5)", "c2h(0,0,5)", "c1p(1,0,5)", "c1l(1,9,5)", "c1l(1,8,5)",
		"c1l(1,7,5)", "c0l(1,6,5)",
	} },
	{ 3, 10, MC_ROUTE_BTR, { 9, 0, 5 }, { 1, 0, 2 }, 5, {
		"c2p(9,0,5)", "c2h(0,0,5)", "c0l(1,0,5)", "c0l(1,0,4)", "c0l(1,0,3)",
	} },
	{ 3, 10, MC_ROUTE_BTR, { 8, 4, 5 }, { 9, 0, 1 }, 9, {
		"c2h(8,4,5)", "c1l(9,4,5)", "c1l(9,3,5)", "c1l(9,2,5)", "c1l(9,1,5)",
		"c0l(9,0,5)", "c0l(9,0,4)", "c0l(9,0,3)", "c0l(9,0,2)",
	} },
	{ 3, 10, MC_ROUTE_BTR, { 8, 4, 5 }, { 8, 5, 4 }, 2, {
		"c1h(8,4,5)", "c0l(8,5,5)",
	} },
	{ 2, 4, MC_ROUTE_UTR, { 0, 0 }, { 2, 1 }, 3, {
		"c1h(0,0)", "c1h(1,0)", "c0h(2,0)" } },
	{ 2, 4, MC_ROUTE_UTR, { 0, 2 }, { 3, 1 }, 6, {
		"c1h(0,2)", "c1h(1,2)", "c1h(2,2)", "c0p(3,2)", "c0p(3,3)", "c0h(3,0)" } },
	{ 2, 4, MC_ROUTE_BTR, { 0, 2 }, { 3, 1 }, 2, {
		"c1p(0,2)", "c0l(3,2)" } },
	{ 2, 5, MC_ROUTE_UTR, { 0, 3 }, { 1, 1 }, 4, {
		"c1h(0,3)", "c0p(1,3)", "c0p(1,4)", "c0h(1,0)" } },
	{ 2, 5, MC_ROUTE_UTR, { 4, 3 }, { 1, 3 }, 2, {
		"c1p(4,3)", "c1h(0,3)" } },
	{ 2, 5, MC_ROUTE_UTR, { 4, 3 }, { 0, 3 }, 1, {
		"c1p(4,3)" } },
};

/* Walk mc_route_next from @src to @dst; returns hops or -1 on a loop. */
static int walk(const struct mc_torus *t, enum mc_routing r, u32 src, u32 dst,
		u8 *alpha, struct mc_hop *hops, int max)
{
	u32 cur = src;
	int n = 0;

	while (n < max) {
		struct mc_hop h;

		memset(&h, 0, sizeof(h));
		if (!mc_route_next(t, r, cur, dst, alpha, &h))
			return cur == dst ? n : -1;
		hops[n++] = h;
		cur = h.to;
	}
	return -1;
}

static void test_golden(void)
{
	unsigned int gi;

	for (gi = 0; gi < sizeof(golden) / sizeof(golden[0]); gi++) {
		const struct groute *g = &golden[gi];
		struct mc_torus t;
		struct mc_hop hops[MAXHOPS];
		u32 src, dst;
		u8 alpha = MC_VC_P;
		int nh, i, bad = -1;

		mk_regular(&t, g->n, g->k,
			   g->r == MC_ROUTE_BTR ? MC_LINKS_BI : MC_LINKS_UNI);
		src = tup(&t, g->from);
		dst = tup(&t, g->to);
		nh = walk(&t, g->r, src, dst, &alpha, hops, MAXHOPS);
		for (i = 0; nh == (int)g->narcs && i < nh; i++) {
			struct garc a;
			u32 next_from = i + 1 < nh ? hops[i + 1].from : dst;

			if (parse_arc(&t, g->arcs[i], &a)) {
				printf("Bail out! bad golden arc %s\n", g->arcs[i]);
				exit(2);
			}
			if (hops[i].from != a.node || hops[i].dim != a.dim ||
			    hops[i].vc != a.vc || hops[i].to != next_from ||
			    hops[i].to != ref_neigh(&t, a.node, a.dim, hops[i].dir) ||
			    (hops[i].dir != 1 && hops[i].dir != -1)) {
				bad = i;
				break;
			}
			if (i + 1 < nh) {
				struct garc b;

				parse_arc(&t, g->arcs[i + 1], &b);
				if (hops[i].to != b.node) {
					bad = i;
					break;
				}
			}
		}
		if (!ok(nh == (int)g->narcs && bad < 0,
			"golden %s k=%u %s -> %s: %u arcs exactly as the notes",
			g->r == MC_ROUTE_UTR ? "UTR" : "BTR", g->k,
			nstr(&t, src), nstr(&t, dst), g->narcs)) {
			diag("hops %d (want %u), first bad %d", nh, g->narcs, bad);
			if (bad >= 0)
				diag("got %s -> %s, want %s", hstr(&t, hops[bad].from,
				     hops[bad].dim, hops[bad].dir, hops[bad].vc),
				     nstr(&t, hops[bad].to), g->arcs[bad]);
		}
		is_int(nh, mc_distance(&t, src, dst),
		       "golden %s -> %s: minimal (hops = mc_distance)",
		       nstr(&t, src), nstr(&t, dst));
	}
}

/* All pairs: hop-by-hop equal to the reference, minimal, used VCs = set. */
static void test_unicast_all_pairs(unsigned int n, const u16 *k, bool bi)
{
	enum mc_routing r = bi ? MC_ROUTE_BTR : MC_ROUTE_UTR;
	struct mc_torus t;
	unsigned int bad_hop = 0, bad_min = 0, bad_end = 0;
	unsigned int used_not_exist = 0, exist_not_used = 0, bad_exist = 0;
	char shape[64];
	size_t o = 0, nch;
	unsigned char *used;
	u32 a, b;
	unsigned int i;

	mk_torus(&t, n, k, bi ? MC_LINKS_BI : MC_LINKS_UNI);
	for (i = n; i-- > 0;)
		o += (size_t)snprintf(shape + o, sizeof(shape) - o, "%u%s",
				      k[i], i ? "x" : "");
	snprintf(shape + o, sizeof(shape) - o, " %s", bi ? "bi/BTR" : "uni/UTR");
	nch = (size_t)t.nodes * n * 2 * 3;
	used = xcalloc(nch, 1);

	for (a = 0; a < t.nodes; a++)
		for (b = 0; b < t.nodes; b++) {
			struct mc_hop hops[MAXHOPS];
			u8 alpha = MC_VC_P;
			u32 cur = a;
			int nh = walk(&t, r, a, b, &alpha, hops, MAXHOPS), j;

			if (nh < 0) {
				if (!bad_end++)
					diag("%s: %s -> %s does not arrive", shape,
					     nstr(&t, a), nstr(&t, b));
				continue;
			}
			for (j = 0; j < nh; j++) {
				struct rhop rh;
				const struct mc_hop *h = &hops[j];

				if (!ref_unicast_next(&t, bi, cur, b, &rh) ||
				    h->from != cur || h->dim != rh.dim ||
				    h->dir != rh.dir || h->vc != rh.vc ||
				    h->to != rh.to) {
					if (!bad_hop++)
						diag("%s: %s -> %s hop %d: got %s want %s", shape,
						     nstr(&t, a), nstr(&t, b), j,
						     hstr(&t, h->from, h->dim, h->dir, h->vc),
						     hstr(&t, cur, rh.dim, rh.dir, rh.vc));
					break;
				}
				used[(((size_t)cur * n + h->dim) * 2 + (h->dir > 0)) * 3 +
				     h->vc] = 1;
				cur = h->to;
			}
			if ((u32)nh != mc_distance(&t, a, b))
				bad_min++;
		}

	for (a = 0; a < t.nodes; a++)
		for (i = 0; i < n; i++) {
			int dir;
			unsigned int vc;

			for (dir = -1; dir <= 1; dir += 2)
				for (vc = 0; vc < 3; vc++) {
					bool ex = mc_channel_exists(&t, r, a, i, dir, vc);
					bool u = used[(((size_t)a * n + i) * 2 + (dir > 0)) * 3 + vc];

					if (ex != ref_exists(&t, r, a, i, dir, vc)) {
						if (!bad_exist++)
							diag("%s: mc_channel_exists(%s) = %d, the set says %d",
							     shape, hstr(&t, a, i, dir, vc), ex, !ex);
					}
					if (u && !ex) {
						if (!used_not_exist++)
							diag("%s: %s used but not in the set", shape,
							     hstr(&t, a, i, dir, vc));
					}
					if (ex && !u) {
						if (!exist_not_used++)
							diag("%s: %s in the set but never used", shape,
							     hstr(&t, a, i, dir, vc));
					}
				}
		}
	free(used);

	ok(!bad_end && !bad_hop, "%s: every route arrives, hop by hop = Expression %s (%u bad)",
	   shape, bi ? "4.2" : "4.1", bad_hop + bad_end);
	is_int(bad_min, 0, "%s: every route minimal (hops = mc_distance)", shape);
	is_int(bad_exist, 0, "%s: mc_channel_exists = the Sec. %s sets", shape,
	       bi ? "4.2.2" : "4.2.1");
	is_int(used_not_exist, 0, "%s: VCs used by all routes are in the existence set", shape);
	is_int(exist_not_used, 0, "%s: every existing VC is used by some route", shape);
}

static void test_unicast(void)
{
	unsigned int k;

	for (k = 3; k <= 10; k++) {
		u16 kk[2] = { (u16)k, (u16)k };

		test_unicast_all_pairs(2, kk, false);
		test_unicast_all_pairs(2, kk, true);
	}
	{
		static const struct {
			unsigned int n;
			u16 k[3];
		} more[] = {
			{ 1, { 2 } }, { 1, { 7 } }, { 1, { 8 } }, { 2, { 2, 2 } },
			{ 2, { 3, 6 } }, { 2, { 7, 4 } }, { 3, { 5, 4, 2 } },
			{ 3, { 3, 3, 3 } }, { 3, { 4, 5, 6 } },
		};

		for (k = 0; k < sizeof(more) / sizeof(more[0]); k++) {
			test_unicast_all_pairs(more[k].n, more[k].k, false);
			test_unicast_all_pairs(more[k].n, more[k].k, true);
		}
	}
}

/* BTR: a tie at k/2 never wraps; odd k has no tie. */
static void expect_ring(unsigned int k, u32 a, u32 b, const char *want)
{
	struct mc_torus t;
	struct mc_hop hops[MAXHOPS];
	char got[256];
	size_t o = 0;
	u8 alpha = MC_VC_P;
	u16 kk[1] = { (u16)k };
	int nh, i;

	mk_torus(&t, 1, kk, MC_LINKS_BI);
	nh = walk(&t, MC_ROUTE_BTR, a, b, &alpha, hops, MAXHOPS);
	got[0] = 0;
	for (i = 0; i < nh; i++)
		o += (size_t)snprintf(got + o, sizeof(got) - o, "%s%u%c%c%u",
				      i ? " " : "", hops[i].from,
				      mc_vc_letter(hops[i].vc),
				      hops[i].dir > 0 ? '>' : '<', hops[i].to);
	if (!ok(nh >= 0 && !strcmp(got, want), "BTR ring k=%u %u->%u: %s", k, a,
		b, want))
		diag("got \"%s\" (%d hops)", got, nh);
}

static void test_btr_ties(void)
{
	/* Even k: |delta| = k/2 goes h upward / l downward, no wrap. */
	expect_ring(6, 0, 3, "0h>1 1h>2 2h>3");
	expect_ring(6, 3, 0, "3l<2 2l<1 1l<0");
	expect_ring(6, 1, 4, "1h>2 2h>3 3h>4");
	expect_ring(6, 5, 2, "5l<4 4l<3 3l<2");
	expect_ring(6, 0, 4, "0p<5 5l<4");
	expect_ring(6, 4, 0, "4p>5 5p>0");
	expect_ring(6, 5, 1, "5p>0 0h>1");
	expect_ring(6, 1, 5, "1p<0 0p<5");
	expect_ring(4, 0, 2, "0h>1 1h>2");
	expect_ring(4, 2, 0, "2l<1 1l<0");
	expect_ring(4, 3, 1, "3l<2 2l<1");
	expect_ring(4, 3, 0, "3p>0");
	expect_ring(10, 0, 5, "0h>1 1h>2 2h>3 3h>4 4h>5");
	expect_ring(10, 7, 2, "7l<6 6l<5 5l<4 4l<3 3l<2");
	expect_ring(10, 8, 2, "8p>9 9p>0 0h>1 1h>2");
	/* Odd k: no tie. */
	expect_ring(5, 0, 2, "0h>1 1h>2");
	expect_ring(5, 2, 0, "2l<1 1l<0");
	expect_ring(5, 0, 3, "0p<4 4l<3");
	expect_ring(5, 3, 0, "3p>4 4p>0");
	expect_ring(5, 4, 1, "4p>0 0h>1");
	expect_ring(7, 1, 5, "1p<0 0p<6 6l<5");
	expect_ring(7, 5, 1, "5p>6 6p>0 0h>1");
	expect_ring(7, 0, 3, "0h>1 1h>2 2h>3");
	expect_ring(3, 0, 2, "0p<2");
	expect_ring(3, 2, 0, "2p>0");
	expect_ring(3, 0, 1, "0h>1");
	expect_ring(2, 0, 1, "0h>1");
	expect_ring(2, 1, 0, "1l<0");

	/* 2D tie in the higher dimension, k = 8: (0,1) -> (4,5) stays h. */
	{
		struct mc_torus t;
		struct mc_hop hops[MAXHOPS];
		u8 alpha = MC_VC_P;
		int nh, i, wraps = 0, ls = 0;

		mk_regular(&t, 2, 8, MC_LINKS_BI);
		nh = walk(&t, MC_ROUTE_BTR, T2(&t, 0, 1), T2(&t, 4, 5), &alpha,
			  hops, MAXHOPS);
		for (i = 0; i < nh; i++) {
			if (hops[i].vc == MC_VC_P)
				wraps++;
			if (hops[i].vc == MC_VC_L)
				ls++;
		}
		ok(nh == 8 && !wraps && !ls,
		   "8x8 bi: (0,1)->(4,5) is 8 hops on h-channels only (ties do not wrap)");
	}
}

/* ---------------- Hamiltonian labels ---------------- */

static void test_labels(void)
{
	static const int check[][3] = {
		{ 0, 0, 0 }, { 0, 1, 1 }, { 1, 0, 7 }, { 3, 2, 23 }, { 0, 5, 5 },
		{ 4, 5, 27 }, { 3, 4, 19 }, { 5, 4, 33 }, { 4, 3, 25 },
		{ 1, 2, 9 }, { 2, 1, 15 }, { 5, 1, 30 },
	};
	struct mc_torus t;
	unsigned int i, n, k;

	mk_regular(&t, 2, 6, MC_LINKS_UNI);
	for (i = 0; i < sizeof(check) / sizeof(check[0]); i++) {
		u32 u = T2(&t, check[i][0], check[i][1]);

		is_int(mc_hlabel(&t, u), check[i][2], "6x6: l(%d,%d) = %d",
		       check[i][0], check[i][1], check[i][2]);
		is_int(mc_hlabel_node(&t, (u32)check[i][2]), u,
		       "6x6: mc_hlabel_node(%d) = (%d,%d)", check[i][2],
		       check[i][0], check[i][1]);
	}

	for (n = 1; n <= 4; n++)
		for (k = 2; k <= 7; k++) {
			unsigned int bad_eq = 0, bad_inv = 0, bad_bij = 0;
			unsigned int bad_ham = 0, bad_bnd = 0, nbound = 0;
			unsigned char *seen;
			u32 u, l, d;

			mk_regular(&t, n, k, MC_LINKS_UNI);
			seen = xcalloc(t.nodes, 1);
			for (u = 0; u < t.nodes; u++) {
				u32 lab = mc_hlabel(&t, u);

				if (lab != ref_label(&t, u))
					bad_eq++;
				if (lab >= t.nodes || seen[lab]++)
					bad_bij++;
				else if (mc_hlabel_node(&t, lab) != u)
					bad_inv++;
				for (d = 0; d < n; d++) {
					bool def51 = ref_label(&t, u) >
						     ref_label(&t, ref_neigh(&t, u, d, +1));
					bool def51c = mc_hlabel(&t, u) >
						      mc_hlabel(&t, mc_neighbour(&t, u, d, +1));

					if (mc_is_boundary(&t, u, d) != def51 ||
					    def51c != def51) {
						if (!bad_bnd++)
							diag("%ux..(n=%u): node %s dim %u: mc_is_boundary %d, Def 5.1 %d",
							     k, n, nstr(&t, u), d,
							     mc_is_boundary(&t, u, d), def51);
					}
					nbound += def51;
				}
			}
			for (l = 0; l < t.nodes; l++) {
				u32 a = mc_hlabel_node(&t, l);
				u32 b = mc_hlabel_node(&t, (l + 1) % t.nodes);
				bool adj = false;

				for (d = 0; d < n && a < t.nodes; d++)
					if (ref_neigh(&t, a, d, +1) == b)
						adj = true;
				if (!adj) {
					if (!bad_ham++)
						diag("k=%u n=%u: label %u -> %u not joined by a +1 link",
						     k, n, l, (l + 1) % t.nodes);
				}
			}
			free(seen);
			is_int(bad_eq, 0, "k=%u n=%u: mc_hlabel = Eq 5.2", k, n);
			is_int(bad_bij, 0, "k=%u n=%u: labels are a bijection onto [0,N)", k, n);
			is_int(bad_inv, 0, "k=%u n=%u: mc_hlabel_node inverts mc_hlabel", k, n);
			is_int(bad_ham, 0, "k=%u n=%u: consecutive labels (and last->first) are +1 neighbours",
			       k, n);
			is_int(bad_bnd, 0, "k=%u n=%u: Lemma 5.7 (mc_is_boundary) = Def 5.1 (%u boundaries)",
			       k, n, nbound);
		}
}

/* ---------------- UTPR ---------------- */

/* Three-tier lambda of a channel: p < boundary < other h; then l(u), d. */
static u64 lambda3(const struct mc_torus *t, u32 u, unsigned int d,
		   unsigned int vc)
{
	u64 tier = vc == MC_VC_P ? 0 : ref_boundary(t, u, d) ? 1 : 2;

	return (tier * t->nodes + ref_label(t, u)) * MC_MAX_DIMS + d;
}

struct worm_stats {
	int hops;
	int boundaries;
	int bad_ref;		/* first hop differing from the reference, or -1 */
	int bad_min;		/* segments not minimal */
	int bad_lambda;		/* lambda not strictly increasing */
	int bad_phys;		/* physical channel used twice */
	int bad_class;		/* class not p before boundary / h after */
	int bad_exist;		/* channel not in the UTPR set */
	u32 bnd_from, bnd_dim;
};

/* Route a worm through @seq[0..len-1] (seq[0] = source) with mc_route_next. */
static void route_worm(const struct mc_torus *t, const u32 *seq, u32 len,
		       struct mc_hop *hops, int maxh, struct worm_stats *st)
{
	u8 alpha = MC_VC_P;
	unsigned int ralpha = MC_VC_P;
	u64 last = 0;
	unsigned char *phys = xcalloc((size_t)t->nodes * t->n, 1);
	u32 i;

	memset(st, 0, sizeof(*st));
	st->bad_ref = -1;
	for (i = 1; i < len; i++) {
		u32 cur = seq[i - 1];
		int seg = 0;

		while (st->hops < maxh) {
			struct mc_hop *h = &hops[st->hops];
			struct rhop rh;
			bool more = mc_route_next(t, MC_ROUTE_UTPR, cur, seq[i],
						  &alpha, h);
			bool rmore = ref_utpr_next(t, cur, seq[i], &ralpha, &rh);

			if (more != rmore) {
				if (st->bad_ref < 0)
					st->bad_ref = st->hops;
				break;
			}
			if (!more)
				break;
			if (h->from != cur || h->dim != rh.dim || h->dir != +1 ||
			    h->vc != rh.vc || h->to != rh.to || alpha != h->vc) {
				if (st->bad_ref < 0)
					st->bad_ref = st->hops;
			}
			if (!mc_channel_exists(t, MC_ROUTE_UTPR, cur, h->dim, +1, h->vc))
				st->bad_exist++;
			if (ref_boundary(t, cur, h->dim)) {
				st->boundaries++;
				st->bnd_from = cur;
				st->bnd_dim = h->dim;
			}
			if ((h->vc == MC_VC_H) != (st->boundaries > 0))
				st->bad_class++;
			{
				u64 lam = lambda3(t, cur, h->dim, h->vc);

				if (st->hops && lam <= last)
					st->bad_lambda++;
				last = lam;
			}
			if (phys[(size_t)cur * t->n + h->dim]++)
				st->bad_phys++;
			st->hops++;
			seg++;
			cur = rh.to;
		}
		if ((u32)seg != mc_distance(t, seq[i - 1], seq[i]) || cur != seq[i])
			st->bad_min++;
	}
	free(phys);
}

static void test_utpr_fig56(void)
{
	/* Fig 5.6 by hand from Eq 5.3 (6x6, tuples (s1,s0)):
	 * (3,2): dim 0 is a boundary (3+2 = 5), dim 1 not -> (4,2);
	 * (4,2) -> (4,3); (4,3) -> (4,4) -> (4,5);
	 * (4,5) -> (5,1): dims 0 and 1 useful, neither a boundary, lowest
	 * is 0 -> (4,0) -> (4,1), then dim 1 -> (5,1);
	 * (5,1) -> (5,2) -> (5,3) -> (5,4).  All p-channels. */
	static const int path[][3] = {	/* from s1, from s0, dim */
		{ 3, 2, 1 }, { 4, 2, 0 }, { 4, 3, 0 }, { 4, 4, 0 }, { 4, 5, 0 },
		{ 4, 0, 0 }, { 4, 1, 1 }, { 5, 1, 0 }, { 5, 2, 0 }, { 5, 3, 0 },
	};
	struct mc_torus t;
	struct mc_hop hops[MAXHOPS];
	struct worm_stats st;
	u32 seq[5];
	int i, bad = -1;

	mk_regular(&t, 2, 6, MC_LINKS_UNI);
	seq[0] = T2(&t, 3, 2);
	seq[1] = T2(&t, 4, 3);
	seq[2] = T2(&t, 4, 5);
	seq[3] = T2(&t, 5, 1);
	seq[4] = T2(&t, 5, 4);
	route_worm(&t, seq, 5, hops, MAXHOPS, &st);
	for (i = 0; i < st.hops && i < 10; i++)
		if (hops[i].from != T2(&t, path[i][0], path[i][1]) ||
		    hops[i].dim != (unsigned int)path[i][2] ||
		    hops[i].vc != MC_VC_P || hops[i].dir != 1) {
			bad = i;
			break;
		}
	if (!ok(st.hops == 10 && bad < 0 && hops[9].to == seq[4],
		"Fig 5.6: (3,2)->(4,3)->(4,5)->(5,1)->(5,4) is the 10 p-hops computed by hand"))
		diag("hops %d, first bad %d (%s)", st.hops, bad,
		     bad >= 0 ? hstr(&t, hops[bad].from, hops[bad].dim,
				     hops[bad].dir, hops[bad].vc) : "-");
	is_int(st.boundaries, 0, "Fig 5.6: restrictive worm crosses no boundary");
	is_int(st.bad_ref, -1, "Fig 5.6: equals the reference R_UTPR");
}

static void test_utpr_sec54(void)
{
	static const int cyc[][2] = {
		{ 3, 2 }, { 4, 3 }, { 4, 5 }, { 5, 1 }, { 5, 4 },
		{ 0, 5 }, { 1, 0 }, { 1, 2 }, { 2, 1 }, { 3, 4 },
	};
	struct mc_torus t;
	struct mc_hop hops[MAXHOPS];
	struct worm_stats st;
	u32 seq[10], total = 0;
	int i;

	mk_regular(&t, 2, 6, MC_LINKS_UNI);
	for (i = 0; i < 10; i++) {
		seq[i] = T2(&t, cyc[i][0], cyc[i][1]);
		if (i)
			total += mc_distance(&t, seq[i - 1], seq[i]);
	}
	route_worm(&t, seq, 10, hops, MAXHOPS, &st);
	is_int(st.boundaries, 1, "Sec 5.4 H-cycle worm crosses exactly one boundary");
	ok(st.boundaries == 1 && st.bnd_from == T2(&t, 5, 5) && st.bnd_dim == 1,
	   "Sec 5.4: the boundary is (5,5)->(0,5) in dimension 1 (got %s dim %u)",
	   nstr(&t, st.bnd_from), st.bnd_dim);
	is_int(st.hops, total, "Sec 5.4: total hops = sum of minimal distances");
	is_int(st.bad_ref, -1, "Sec 5.4: every hop equals the reference R_UTPR");
	is_int(st.bad_class, 0, "Sec 5.4: p before the boundary, h from it on");
	is_int(st.bad_lambda, 0, "Sec 5.4: channels in strictly increasing three-tier lambda order");
	is_int(st.bad_phys, 0, "Sec 5.4: no physical channel used twice");
	/* The note's lambda slip: boundary (h,34,1) then (0,5)->(1,5) (h,5,1). */
	for (i = 0; i + 1 < st.hops; i++)
		if (hops[i].from == T2(&t, 5, 5) && hops[i].dim == 1)
			break;
	ok(i + 1 < st.hops && hops[i].vc == MC_VC_H &&
	   hops[i + 1].from == T2(&t, 0, 5) && hops[i + 1].dim == 1 &&
	   hops[i + 1].vc == MC_VC_H && mc_hlabel(&t, hops[i].from) == 34 &&
	   mc_hlabel(&t, hops[i + 1].from) == 5,
	   "Sec 5.4: boundary c1h(5,5) [l=34] is followed by c1h(0,5) [l=5]");
}

/* Random H-cycle worms on regular tori. */
static void test_utpr_random(void)
{
	static const struct {
		unsigned int n, k;
	} shapes[] = {
		{ 1, 2 }, { 1, 9 }, { 2, 2 }, { 2, 3 }, { 2, 4 }, { 2, 6 },
		{ 2, 7 }, { 2, 10 }, { 3, 3 }, { 3, 4 }, { 3, 5 }, { 4, 3 },
		{ 3, 8 }, { 2, 16 },
	};
	struct rng rng = { 0x5eed0001u };
	unsigned int si;

	for (si = 0; si < sizeof(shapes) / sizeof(shapes[0]); si++) {
		struct mc_torus t;
		unsigned int trial, bad = 0, badb = 0;
		u32 *set, *lab, maxm;
		struct mc_hop *hops;
		int maxh;

		mk_regular(&t, shapes[si].n, shapes[si].k, MC_LINKS_UNI);
		maxm = t.nodes < 40 ? t.nodes : 40;
		set = xmalloc(t.nodes * sizeof(u32));
		lab = xmalloc(t.nodes * sizeof(u32));
		maxh = (int)(maxm * t.n * shapes[si].k + 4);
		hops = xmalloc((size_t)maxh * sizeof(*hops));
		for (trial = 0; trial < 150; trial++) {
			u32 m = 2 + rng_below(&rng, maxm - 1), i, j, rot;
			u32 *seq = xmalloc(m * sizeof(u32));
			struct worm_stats st;

			rng_subset(&rng, t.nodes, m, set);
			/* sort by our own label (insertion sort) */
			for (i = 0; i < m; i++)
				lab[i] = ref_label(&t, set[i]);
			for (i = 1; i < m; i++)
				for (j = i; j > 0 && lab[j - 1] > lab[j]; j--) {
					u32 x = lab[j]; lab[j] = lab[j - 1]; lab[j - 1] = x;
					x = set[j]; set[j] = set[j - 1]; set[j - 1] = x;
				}
			rot = rng_below(&rng, m);
			for (i = 0; i < m; i++)
				seq[i] = set[(rot + i) % m];
			route_worm(&t, seq, m, hops, maxh, &st);
			if (st.bad_ref >= 0 || st.bad_min || st.bad_lambda ||
			    st.bad_phys || st.bad_class || st.bad_exist) {
				if (!bad++)
					diag("n=%u k=%u trial %u m=%u src %s: ref %d min %d lambda %d phys %d class %d exist %d",
					     t.n, shapes[si].k, trial, m, nstr(&t, seq[0]),
					     st.bad_ref, st.bad_min, st.bad_lambda,
					     st.bad_phys, st.bad_class, st.bad_exist);
			}
			if (st.boundaries != (rot ? 1 : 0)) {
				if (!badb++)
					diag("n=%u k=%u trial %u m=%u rot %u: %d boundaries",
					     t.n, shapes[si].k, trial, m, rot, st.boundaries);
			}
			free(seq);
		}
		is_int(bad, 0, "UTPR n=%u k=%u: 150 random H-cycle worms: reference hops, minimal, lambda order, distinct links",
		       t.n, shapes[si].k);
		is_int(badb, 0, "UTPR n=%u k=%u: boundaries = 1 for a rotated H-cycle, 0 for an H-chain",
		       t.n, shapes[si].k);
		free(set);
		free(lab);
		free(hops);
	}
}

/* UTPR channel set, and the VCs its routes use (both start classes). */
static void test_utpr_channels(void)
{
	unsigned int n, k;

	for (n = 1; n <= 3; n++)
		for (k = 2; k <= 7; k++) {
			struct mc_torus t;
			unsigned int bad_ex = 0, bad_hop = 0, bad_min = 0;
			unsigned int unused = 0, unexist = 0;
			unsigned char *used;
			u32 a, b, i;

			if (n == 3 && k > 5)
				continue;
			mk_regular(&t, n, k, MC_LINKS_UNI);
			used = xcalloc((size_t)t.nodes * n * 2, 1);
			for (a = 0; a < t.nodes; a++)
				for (b = 0; b < t.nodes; b++) {
					unsigned int a0;

					for (a0 = MC_VC_P; a0 <= MC_VC_H; a0++) {
						u8 alpha = (u8)a0;
						unsigned int ralpha = a0;
						u32 cur = a, hops = 0;
						struct mc_hop h;
						struct rhop rh;

						while (hops <= t.nodes &&
						       mc_route_next(&t, MC_ROUTE_UTPR, cur, b, &alpha, &h)) {
							if (!ref_utpr_next(&t, cur, b, &ralpha, &rh) ||
							    h.from != cur || h.dim != rh.dim ||
							    h.vc != rh.vc || h.to != rh.to || h.dir != 1)
								bad_hop++;
							used[((size_t)cur * n + h.dim) * 2 + h.vc] = 1;
							cur = h.to;
							hops++;
						}
						if (cur != b || hops != mc_distance(&t, a, b))
							bad_min++;
					}
				}
			for (a = 0; a < t.nodes; a++)
				for (i = 0; i < n; i++) {
					unsigned int vc;
					int dir;

					for (dir = -1; dir <= 1; dir += 2)
						for (vc = 0; vc < 3; vc++) {
							bool ex = mc_channel_exists(&t, MC_ROUTE_UTPR, a, i, dir, vc);

							if (ex != ref_exists(&t, MC_ROUTE_UTPR, a, i, dir, vc))
								bad_ex++;
							if (dir < 0 || vc == MC_VC_L)
								continue;
							if (ex && !used[((size_t)a * n + i) * 2 + vc])
								unused++;
							if (!ex && used[((size_t)a * n + i) * 2 + vc])
								unexist++;
						}
				}
			free(used);
			is_int(bad_ex, 0, "UTPR n=%u k=%u: mc_channel_exists = Sec 5.3.2 set (p off boundaries, h everywhere, +1 only)",
			       n, k);
			is_int(bad_hop + bad_min, 0, "UTPR n=%u k=%u: all pairs, both start classes: reference hops, minimal",
			       n, k);
			ok(!unused && !unexist, "UTPR n=%u k=%u: used VCs = existence set (%u unused, %u outside)",
			   n, k, unused, unexist);
		}
}

int main(void)
{
	test_golden();
	test_unicast();
	test_btr_ties();
	test_labels();
	test_utpr_fig56();
	test_utpr_sec54();
	test_utpr_random();
	test_utpr_channels();
	return done_testing();
}
