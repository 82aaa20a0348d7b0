/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * The checkers must catch bad schedules.  Schedules are built by hand
 * (struct mc_schedule filled here), then:
 *   (a) Fig 4.5(a) stepwise and Fig 4.5(b) depth contention trees fail
 *       mc_check_contention; U-torus for the same set passes; small
 *       positive cases for Thm 4.1 conditions 1, 3 and 4;
 *   (b) U-mesh (McKinley et al. '92) on a torus: contention found in some
 *       random sets, never for U-torus; the core and the independent
 *       checker agree on every set;
 *   (c) worms out of H order fail mc_check_routes; the core's verdict
 *       equals the reference one on random worm orders;
 *   (d) coverage faults fail mc_check_cover.
 */
#include <sys/wait.h>
#include <unistd.h>

#include "tsched.h"

/* ---------------- building schedules by hand ---------------- */

struct hsend {
	u32 step, from, count;
	u32 pos[12], len[12];
};

#define U1(st, fr, p, l) { (st), (fr), 1, { (p) }, { (l) } }

/* Fill @b from @order / @sends (messages and dests in listed order). */
static void build(struct sbuf *b, const struct mc_torus *t, enum mc_algo algo,
		  const u32 *order, u32 m, const struct hsend *sends, u32 ns)
{
	struct mc_schedule *s = &b->s;
	u32 i, j, cap = m + 8;

	sbuf_init(b, cap > ns + 8 ? cap : ns + 8);
	/* dest capacity: sum of counts */
	{
		u32 nd = 0;

		for (i = 0; i < ns; i++)
			nd += sends[i].count;
		free(s->dest);
		s->dest = xcalloc(nd + 1, sizeof(*s->dest));
	}
	s->t = t;
	s->algo = algo;
	s->routing = mc_algo_routing(t, algo);
	s->r = 0;
	s->m = m;
	memcpy(s->order, order, m * sizeof(u32));
	s->steps = 0;
	for (i = 0; i < ns; i++) {
		struct mc_msg *mm = &s->msg[s->nmsg];

		mm->step = sends[i].step;
		mm->from = sends[i].from;
		mm->first = s->ndest;
		mm->count = sends[i].count;
		for (j = 0; j < sends[i].count; j++) {
			struct mc_dest *d = &s->dest[s->ndest++];

			d->pos = sends[i].pos[j];
			d->len = sends[i].len[j];
			d->step = sends[i].step;
			d->msg = s->nmsg;
			d->level = 0;
		}
		if (sends[i].step > s->steps)
			s->steps = sends[i].step;
		s->nmsg++;
	}
}

static void nodes_of(const struct mc_torus *t, const int (*tp)[3], u32 m,
		     u32 *out)
{
	u32 i;

	for (i = 0; i < m; i++)
		out[i] = tup(t, tp[i]);
}

static bool pair_is(const struct mc_check_result *r, u32 a, u32 b)
{
	return (r->msg_a == a && r->msg_b == b) || (r->msg_a == b && r->msg_b == a);
}

/* ---------------- (a) Fig 4.5 ---------------- */

static void test_fig45(void)
{
	struct mc_torus t;
	struct sbuf b;
	struct core_check cc;
	u32 order[7], fa, fb;

	mk_regular(&t, 2, 5, MC_LINKS_UNI);

	/* (a): R_(0,3) = {(0,3),(1,1),(2,1),(0,0)}; step 2 has (0,3)->(1,1)
	 * and (4,3)->(1,3), both on c1h(0,3). */
	{
		static const int o[][3] = {
			{ 4, 3 }, { 0, 3 }, { 1, 1 }, { 2, 1 }, { 0, 0 }, { 1, 3 }, { 4, 4 },
		};
		static const struct hsend sends[] = {
			U1(1, 0, 1, 4),		/* 0: (4,3)->(0,3) */
			U1(2, 0, 5, 1),		/* 1: (4,3)->(1,3) */
			U1(3, 0, 6, 1),		/* 2: (4,3)->(4,4) */
			U1(2, 1, 2, 2),		/* 3: (0,3)->(1,1) */
			U1(3, 1, 4, 1),		/* 4: (0,3)->(0,0) */
			U1(3, 2, 3, 1),		/* 5: (1,1)->(2,1) */
		};

		nodes_of(&t, o, 7, order);
		build(&b, &t, MC_ALGO_UTORUS, order, 7, sends, 6);
		core_checks(&b.s, 7, &cc);
		ok(core_passed(cc.rc_cover, &cc.cover), "Fig 4.5(a) tree: cover passes (%s)",
		   cc.cover.what ? cc.cover.what : "-");
		ok(core_passed(cc.rc_routes, &cc.routes), "Fig 4.5(a) tree: routes pass (%s)",
		   cc.routes.what ? cc.routes.what : "-");
		ok(core_failed(cc.rc_cont, &cc.cont),
		   "Fig 4.5(a) stepwise contention: mc_check_contention fails (%s)",
		   cc.cont.what ? cc.cont.what : "PASSED");
		ok(pair_is(&cc.cont, 1, 3),
		   "Fig 4.5(a): offending pair is (0,3)->(1,1) and (4,3)->(1,3) (got msgs %u, %u)",
		   cc.cont.msg_a, cc.cont.msg_b);
		ok(ref_contention(&b.s, &fa, &fb) == 1 && (fa + fb == 4),
		   "Fig 4.5(a): the independent checker finds exactly that pair");
		sbuf_free(&b);
	}
	/* (b): no stepwise contention; (0,3)->(1,1) in step 2 and (4,3)->(1,3)
	 * in step 3 share c1h(0,3): depth contention. */
	{
		static const int o[][3] = {
			{ 4, 3 }, { 0, 3 }, { 1, 1 }, { 2, 1 }, { 0, 0 }, { 4, 4 }, { 1, 3 },
		};
		static const struct hsend sends[] = {
			U1(1, 0, 1, 4),		/* 0: (4,3)->(0,3) */
			U1(2, 0, 5, 1),		/* 1: (4,3)->(4,4) */
			U1(3, 0, 6, 1),		/* 2: (4,3)->(1,3) */
			U1(2, 1, 2, 2),		/* 3: (0,3)->(1,1) */
			U1(3, 1, 4, 1),		/* 4: (0,3)->(0,0) */
			U1(3, 2, 3, 1),		/* 5: (1,1)->(2,1) */
		};

		nodes_of(&t, o, 7, order);
		build(&b, &t, MC_ALGO_UTORUS, order, 7, sends, 6);
		core_checks(&b.s, 7, &cc);
		ok(core_passed(cc.rc_cover, &cc.cover) && core_passed(cc.rc_routes, &cc.routes),
		   "Fig 4.5(b) tree: cover and routes pass");
		ok(core_failed(cc.rc_cont, &cc.cont),
		   "Fig 4.5(b) depth contention: mc_check_contention fails (%s)",
		   cc.cont.what ? cc.cont.what : "PASSED");
		ok(pair_is(&cc.cont, 2, 3),
		   "Fig 4.5(b): offending pair is (0,3)->(1,1) [step 2] and (4,3)->(1,3) [step 3] (got %u, %u)",
		   cc.cont.msg_a, cc.cont.msg_b);
		ok(ref_contention(&b.s, &fa, &fb) == 1 && fa + fb == 5,
		   "Fig 4.5(b): the independent checker finds exactly that pair");
		sbuf_free(&b);
	}
	/* U-torus and separate addressing for the same set pass. */
	{
		static const int dl[][3] = {
			{ 0, 0 }, { 1, 1 }, { 2, 1 }, { 0, 3 }, { 1, 3 }, { 4, 4 },
		};
		u32 dst[6];
		enum mc_algo al[2] = { MC_ALGO_UTORUS, MC_ALGO_SEPARATE };
		unsigned int i;

		nodes_of(&t, dl, 6, dst);
		for (i = 0; i < 2; i++) {
			const char *why = NULL;

			sbuf_init(&b, 7);
			if (!is_int(mc_plan(&b.s, &t, al[i], 0, T2(&t, 4, 3), dst, 6, &why), 0,
				    "Fig 4.4 set, %s: planned", algo_name(al[i]))) {
				sbuf_free(&b);
				continue;
			}
			core_checks(&b.s, 7, &cc);
			ok(core_passed(cc.rc_cover, &cc.cover) &&
			   core_passed(cc.rc_routes, &cc.routes) &&
			   core_passed(cc.rc_cont, &cc.cont),
			   "Fig 4.4 set, %s: all three checkers pass", algo_name(al[i]));
			sbuf_free(&b);
		}
	}
}

/* Thm 4.1's conditions, one at a time, on an 8-ring (uni). */
static void test_thm41_conditions(void)
{
	struct mc_torus t;
	struct sbuf b;
	struct core_check cc;
	u16 k8[1] = { 8 }, k5[1] = { 5 };

	/* Condition 1: 0->3 (step 1) and 3->1 (step 2) share c0h(0);
	 * the second sender is in R_3. */
	{
		u32 order[3] = { 0, 3, 1 };
		static const struct hsend s[] = { U1(1, 0, 1, 2), U1(2, 1, 2, 1) };

		mk_torus(&t, 1, k5, MC_LINKS_UNI);
		build(&b, &t, MC_ALGO_UTORUS, order, 3, s, 2);
		core_checks(&b.s, 7, &cc);
		ok(core_passed(cc.rc_cont, &cc.cont) && core_passed(cc.rc_cover, &cc.cover),
		   "condition 1 (x in R_v): 5-ring 0->3 then 3->1 share c0h(0) and pass (%s)",
		   cc.cont.what ? cc.cont.what : cc.cover.what ? cc.cover.what : "-");
		sbuf_free(&b);
	}
	mk_torus(&t, 1, k8, MC_LINKS_UNI);
	/* Condition 4: 0->4 (step 1), 0->2 (step 2), 2->3 (step 3) share c0h(2)
	 * with 0->4; 2 is in R_2, sent by 0 after 0->4. */
	{
		u32 order[4] = { 0, 2, 3, 4 };
		static const struct hsend s[] = {
			U1(1, 0, 3, 1), U1(2, 0, 1, 2), U1(3, 1, 2, 1),
		};

		build(&b, &t, MC_ALGO_UTORUS, order, 4, s, 3);
		core_checks(&b.s, 7, &cc);
		ok(core_passed(cc.rc_cont, &cc.cont) && core_passed(cc.rc_cover, &cc.cover),
		   "condition 4 (x in R_w, w sent later by u): 8-ring passes (%s)",
		   cc.cont.what ? cc.cont.what : cc.cover.what ? cc.cover.what : "-");
		sbuf_free(&b);
	}
	/* The same nodes, the source's sends swapped: 0->2 (1), 0->4 (2),
	 * 2->3 (2) share c0h(2) in step 2: contention. */
	{
		u32 order[4] = { 0, 2, 3, 4 };
		static const struct hsend s[] = {
			U1(1, 0, 1, 2), U1(2, 0, 3, 1), U1(2, 1, 2, 1),
		};

		build(&b, &t, MC_ALGO_UTORUS, order, 4, s, 3);
		core_checks(&b.s, 7, &cc);
		ok(core_passed(cc.rc_cover, &cc.cover) && core_failed(cc.rc_cont, &cc.cont),
		   "8-ring 0->2, then 0->4 and 2->3 in one step: contention found (%s)",
		   cc.cont.what ? cc.cont.what : "PASSED");
		ok(pair_is(&cc.cont, 1, 2), "8-ring: offending pair 0->4 / 2->3 (got %u, %u)",
		   cc.cont.msg_a, cc.cont.msg_b);
		sbuf_free(&b);
	}
}

/* ---------------- (b) U-mesh on a torus ---------------- */

/*
 * U-mesh [19]: recursive halving on the dimension-ordered chain NOT
 * rotated to the source; a holder in the lower half sends the upper half
 * to its first node, a holder in the upper half sends the lower half to
 * its first node (U-cube split, Fig 3.5a).  Positions are given in the
 * R-chain (the chain rotated to the source), where every received piece
 * is contiguous because it never contains the source.
 */
static void build_umesh(struct sbuf *b, const struct mc_torus *t, u32 src,
			const u32 *dst, u32 nd)
{
	u32 m = nd + 1, *chain = xmalloc(m * sizeof(u32)), s = 0, i;
	u32 *L = xmalloc(m * sizeof(u32)), *R = xmalloc(m * sizeof(u32));
	u32 *S = xmalloc(m * sizeof(u32)), *T = xmalloc(m * sizeof(u32));
	struct hsend *sends = xcalloc(m, sizeof(*sends));
	u32 *order = xmalloc(m * sizeof(u32)), nh = 1, h, ns = 0;

	chain[0] = src;
	memcpy(chain + 1, dst, nd * sizeof(u32));
	/* own <_d sort: index order is <_d (checked in test_topology) */
	for (i = 1; i < m; i++)
		for (u32 j = i; j > 0 && chain[j - 1] > chain[j]; j--) {
			u32 x = chain[j];

			chain[j] = chain[j - 1];
			chain[j - 1] = x;
		}
	for (i = 0; i < m; i++)
		if (chain[i] == src)
			s = i;
	for (i = 0; i < m; i++)
		order[i] = chain[(s + i) % m];
#define POS(ci) (((ci) + m - s) % m)
	L[0] = 0;
	R[0] = m - 1;
	S[0] = s;
	T[0] = 0;
	for (h = 0; h < nh; h++) {
		u32 left = L[h], right = R[h], me = S[h], j = 0;

		while (left < right) {
			u32 center = left + (right - left + 1) / 2;
			u32 lo, hi;

			if (me < center) {
				lo = center;
				hi = right;
				right = center - 1;
			} else {
				lo = left;
				hi = center - 1;
				left = center;
			}
			sends[ns].step = T[h] + j + 1;
			sends[ns].from = POS(me);
			sends[ns].count = 1;
			sends[ns].pos[0] = POS(lo);
			sends[ns].len[0] = hi - lo + 1;
			ns++;
			L[nh] = lo;
			R[nh] = hi;
			S[nh] = lo;
			T[nh] = T[h] + j + 1;
			nh++;
			j++;
		}
	}
#undef POS
	build(b, t, MC_ALGO_UTORUS, order, m, sends, ns);
	free(chain);
	free(L);
	free(R);
	free(S);
	free(T);
	free(sends);
	free(order);
}

static void test_umesh(void)
{
	static const struct {
		unsigned int n, k;
		enum mc_links l;
		unsigned int trials;
	} shapes[] = {
		{ 2, 8, MC_LINKS_UNI, 150 },
		{ 2, 6, MC_LINKS_UNI, 150 },
		{ 3, 6, MC_LINKS_UNI, 80 },
		{ 2, 8, MC_LINKS_BI, 150 },
	};
	unsigned int si;

	for (si = 0; si < sizeof(shapes) / sizeof(shapes[0]); si++) {
		struct mc_torus t;
		unsigned int trial, found = 0, ref_found = 0, disagree = 0;
		unsigned int bad_valid = 0, ut_fail = 0, steps_bad = 0;
		u64 seed0 = 0x0e5e0000ull + si;
		struct rng rng = { seed0 };

		mk_regular(&t, shapes[si].n, shapes[si].k, shapes[si].l);
		for (trial = 0; trial < shapes[si].trials; trial++) {
			u32 m = 4 + rng_below(&rng, 29), *set = xmalloc(m * sizeof(u32));
			struct sbuf b;
			struct core_check cc;
			u32 fa, fb;
			bool core_bad, ref_bad;

			rng_subset(&rng, t.nodes, m, set);
			build_umesh(&b, &t, set[0], set + 1, m - 1);
			core_checks(&b.s, 7, &cc);
			if (!core_passed(cc.rc_cover, &cc.cover) ||
			    !core_passed(cc.rc_routes, &cc.routes) || ref_cover(&b.s)) {
				if (!bad_valid++)
					diag("U-mesh tree invalid (trial %u): %s / %s", trial,
					     cc.cover.what ? cc.cover.what : "-",
					     cc.routes.what ? cc.routes.what : "-");
			}
			if (b.s.steps != ceil_log(2, m))
				steps_bad++;
			core_bad = core_failed(cc.rc_cont, &cc.cont);
			ref_bad = ref_contention(&b.s, &fa, &fb) > 0;
			found += core_bad;
			ref_found += ref_bad;
			if (core_bad != ref_bad) {
				if (!disagree++)
					diag("%ux.. trial %u m=%u src %s: core says %s, reference %s",
					     shapes[si].k, trial, m, nstr(&t, set[0]),
					     core_bad ? "contention" : "free",
					     ref_bad ? "contention" : "free");
			}
			sbuf_free(&b);

			/* U-torus on the same set */
			sbuf_init(&b, m);
			if (mc_plan(&b.s, &t, MC_ALGO_UTORUS, 0, set[0], set + 1, m - 1, NULL)) {
				ut_fail++;
			} else {
				core_checks(&b.s, 7, &cc);
				if (!core_passed(cc.rc_cont, &cc.cont) ||
				    ref_contention(&b.s, &fa, &fb))
					ut_fail++;
			}
			sbuf_free(&b);
			free(set);
		}
		diag("U-mesh on %u-ary %u-cube %s: contention in %u of %u random sets (reference: %u)",
		     shapes[si].k, shapes[si].n,
		     shapes[si].l == MC_LINKS_BI ? "bi" : "uni", found,
		     shapes[si].trials, ref_found);
		is_int(bad_valid, 0, "U-mesh %u^%u: every tree passes cover and routes (valid, only contention at stake)",
		       shapes[si].k, shapes[si].n);
		is_int(steps_bad, 0, "U-mesh %u^%u: ceil(log2 m) steps", shapes[si].k, shapes[si].n);
		ok(found >= 1, "U-mesh %u^%u %s: mc_check_contention finds contention in >= 1 set (%u of %u)",
		   shapes[si].k, shapes[si].n, shapes[si].l == MC_LINKS_BI ? "bi" : "uni",
		   found, shapes[si].trials);
		is_int(disagree, 0, "U-mesh %u^%u: core and reference Thm 4.1 checkers agree on every set",
		       shapes[si].k, shapes[si].n);
		is_int(ut_fail, 0, "U-torus %u^%u on the same sets: never contention",
		       shapes[si].k, shapes[si].n);
	}
}

/* ---------------- (c) worms out of H order ---------------- */

static void test_worm_order(void)
{
	static const int cyc[][3] = {
		{ 3, 2 }, { 4, 3 }, { 4, 5 }, { 5, 1 }, { 5, 4 },
		{ 0, 5 }, { 1, 0 }, { 1, 2 }, { 2, 1 }, { 3, 4 },
	};
	struct mc_torus t;
	struct sbuf b;
	struct core_check cc;
	u32 order[10], i;
	struct hsend w = { 1, 0, 9, { 0 }, { 0 } };

	mk_regular(&t, 2, 6, MC_LINKS_UNI);
	for (i = 0; i < 9; i++) {
		w.pos[i] = i + 1;
		w.len[i] = 1;
	}
	/* the H-cycle itself: passes */
	nodes_of(&t, cyc, 10, order);
	build(&b, &t, MC_ALGO_STORUS, order, 10, &w, 1);
	core_checks(&b.s, 7, &cc);
	ok(core_passed(cc.rc_cover, &cc.cover) && core_passed(cc.rc_routes, &cc.routes) &&
	   core_passed(cc.rc_cont, &cc.cont), "hand-built Sec 5.4 S-torus worm passes all three");
	sbuf_free(&b);

	/* reversed: (3,2) (3,4) (2,1) (1,2) (1,0) (0,5) (5,4) (5,1) (4,5) (4,3) */
	order[0] = T2(&t, 3, 2);
	for (i = 1; i < 10; i++)
		order[i] = tup(&t, cyc[10 - i]);
	build(&b, &t, MC_ALGO_STORUS, order, 10, &w, 1);
	core_checks(&b.s, 3, &cc);
	ok(core_passed(cc.rc_cover, &cc.cover), "reversed H-cycle worm: cover passes");
	ok(core_failed(cc.rc_routes, &cc.routes),
	   "reversed H-cycle worm: mc_check_routes fails (%s)",
	   cc.routes.what ? cc.routes.what : "PASSED");
	sbuf_free(&b);

	/* two destinations swapped: (4,5) before (4,3) */
	nodes_of(&t, cyc, 10, order);
	order[1] = T2(&t, 4, 5);
	order[2] = T2(&t, 4, 3);
	build(&b, &t, MC_ALGO_STORUS, order, 10, &w, 1);
	core_checks(&b.s, 3, &cc);
	ok(core_failed(cc.rc_routes, &cc.routes),
	   "H-cycle with (4,3),(4,5) swapped: mc_check_routes fails (%s)",
	   cc.routes.what ? cc.routes.what : "PASSED");
	sbuf_free(&b);

	/* Random worm orders: the core's route verdict equals the reference
	 * (one boundary at most, p then h, lambda order); count how many
	 * non-H-cycle orders are accepted. */
	{
		static const unsigned int ks[][2] = { { 2, 6 }, { 2, 8 }, { 3, 4 }, { 2, 5 } };
		struct rng rng = { 0xbadc0ffeull };
		unsigned int si;

		for (si = 0; si < 4; si++) {
			unsigned int trial, disagree = 0, accepted_nonh = 0, nonh = 0;
			unsigned int hcyc_fail = 0, accepted_phys = 0;

			mk_regular(&t, ks[si][0], ks[si][1], MC_LINKS_UNI);
			for (trial = 0; trial < 300; trial++) {
				u32 m = 3 + rng_below(&rng, 10), *set = xmalloc(m * sizeof(u32));
				struct hsend ws = { 1, 0, m - 1, { 0 }, { 0 } };
				bool hc, core_bad, ref_bad;
				u64 hops;
				u32 j, desc = 0;

				rng_subset(&rng, t.nodes, m, set);
				if (trial % 3 == 0) {	/* a true H-cycle */
					u32 *o = xmalloc(m * sizeof(u32));

					for (j = 1; j < m; j++)
						for (u32 q = j; q > 1 &&
						     ref_label(&t, set[q - 1]) > ref_label(&t, set[q]); q--) {
							u32 x = set[q];

							set[q] = set[q - 1];
							set[q - 1] = x;
						}
					/* rotate set[1..] so it continues after the source */
					{
						u32 l0 = ref_label(&t, set[0]), c = 0, p;

						for (p = 1; p < m && ref_label(&t, set[p]) < l0; p++)
							c++;
						o[0] = set[0];
						for (p = 0; p < m - 1; p++)
							o[1 + p] = set[1 + (c + p) % (m - 1)];
						memcpy(set, o, m * sizeof(u32));
					}
					free(o);
				}
				for (j = 0; j < m - 1; j++) {
					ws.pos[j] = j + 1;
					ws.len[j] = 1;
				}
				/* is it an H-cycle? labels rise with one descent at most,
				 * and the last is below the source if there is one */
				for (j = 0; j + 1 < m; j++)
					if (ref_label(&t, set[j]) > ref_label(&t, set[j + 1]))
						desc++;
				hc = desc == 0 ||
				     (desc == 1 && ref_label(&t, set[m - 1]) < ref_label(&t, set[0]));
				build(&b, &t, MC_ALGO_STORUS, set, m, &ws, 1);
				core_checks(&b.s, 2, &cc);
				core_bad = core_failed(cc.rc_routes, &cc.routes);
				ref_bad = ref_routes_opt(&b.s, &hops, false) != NULL;
				if (core_bad != ref_bad || (!core_bad && !core_passed(cc.rc_routes, &cc.routes))) {
					if (!disagree++)
						diag("%u^%u trial %u m=%u: core %s, reference %s", ks[si][1],
						     ks[si][0], trial, m, cc.routes.what ? cc.routes.what : "pass",
						     ref_bad ? "fail" : "pass");
				}
				if (hc && core_bad)
					hcyc_fail++;
				if (!hc) {
					nonh++;
					if (!core_bad) {
						const char *e2 = ref_routes_opt(&b.s, &hops, true);

						accepted_nonh++;
						if (e2 && strstr(e2, "physical"))
							accepted_phys++;
					}
				}
				sbuf_free(&b);
				free(set);
			}
			is_int(disagree, 0, "%u^%u: mc_check_routes verdict = reference (<= 1 boundary, p/h, lambda) on 300 worms",
			       ks[si][1], ks[si][0]);
			is_int(hcyc_fail, 0, "%u^%u: every H-cycle worm passes mc_check_routes",
			       ks[si][1], ks[si][0]);
			if (accepted_phys)
				diag("%u^%u: %u accepted worms out of H order use a physical link twice (p then h)",
				     ks[si][1], ks[si][0], accepted_phys);
			ok(nonh == 0 || accepted_nonh < nonh,
			   "%u^%u: worms out of H order are rejected (%u of %u accepted: deadlock-free by lambda)",
			   ks[si][1], ks[si][0], accepted_nonh, nonh);
		}
	}
}

/* ---------------- (d) coverage faults ---------------- */

static void expect_cover_fail(const struct mc_torus *t, const u32 *order, u32 m,
			      const struct hsend *s, u32 ns, int steps_override,
			      const char *what, void (*tweak)(struct mc_schedule *))
{
	struct sbuf b;
	struct core_check cc;
	const char *r;

	build(&b, t, MC_ALGO_UTORUS, order, m, s, ns);
	if (steps_override >= 0)
		b.s.steps = (u32)steps_override;
	if (tweak)
		tweak(&b.s);
	core_checks(&b.s, 1, &cc);
	r = ref_cover(&b.s);
	ok(core_failed(cc.rc_cover, &cc.cover), "cover fault \"%s\": mc_check_cover fails (%s)",
	   what, cc.cover.what ? cc.cover.what : "PASSED");
	ok(r != NULL, "cover fault \"%s\": the independent check fails too (%s)", what,
	   r ? r : "PASSED");
	sbuf_free(&b);
}

static void tw_dest_step(struct mc_schedule *s) { s->dest[2].step++; }
static void tw_dest_msg(struct mc_schedule *s) { s->dest[2].msg = 0; }
static void tw_order_dup(struct mc_schedule *s) { s->order[3] = s->order[5]; }
static void tw_order_range(struct mc_schedule *s) { s->order[4] = s->t->nodes; }
static void tw_count0(struct mc_schedule *s) { s->msg[5].count = 0; }
static void tw_from_range(struct mc_schedule *s) { s->msg[3].from = s->m; }
static void tw_pos_range(struct mc_schedule *s) { s->dest[5].pos = s->m; }

static void test_cover_faults(void)
{
	static const int rc[][3] = {
		{ 4, 3 }, { 4, 4 }, { 0, 0 }, { 0, 3 }, { 1, 1 }, { 1, 3 }, { 2, 1 },
	};
	/* the U-torus tree of tor.utorus (positions in the R-chain) */
	static const struct hsend good[] = {
		U1(1, 0, 4, 3),		/* (4,3)->(1,1) {(1,1),(1,3),(2,1)} */
		U1(2, 4, 6, 1),		/* (1,1)->(2,1) */
		U1(2, 0, 2, 2),		/* (4,3)->(0,0) {(0,0),(0,3)} */
		U1(3, 2, 3, 1),		/* (0,0)->(0,3) */
		U1(3, 4, 5, 1),		/* (1,1)->(1,3) */
		U1(3, 0, 1, 1),		/* (4,3)->(4,4) */
	};
	struct mc_torus t;
	struct hsend s[8];
	struct sbuf b;
	struct core_check cc;
	u32 order[7];

	mk_regular(&t, 2, 5, MC_LINKS_UNI);
	nodes_of(&t, rc, 7, order);
	build(&b, &t, MC_ALGO_UTORUS, order, 7, good, 6);
	core_checks(&b.s, 7, &cc);
	ok(core_passed(cc.rc_cover, &cc.cover) && core_passed(cc.rc_routes, &cc.routes) &&
	   core_passed(cc.rc_cont, &cc.cont) && !ref_cover(&b.s),
	   "hand-built tor.utorus tree passes all checkers");
	sbuf_free(&b);

	/* a destination reached twice: the source also sends to (1,3) */
	memcpy(s, good, sizeof(good));
	s[6] = (struct hsend)U1(4, 0, 5, 1);
	expect_cover_fail(&t, order, 7, s, 7, -1, "(1,3) reached twice", NULL);
	/* one missed: drop (1,1)->(1,3) */
	memcpy(s, good, sizeof(good));
	s[4] = s[5];
	expect_cover_fail(&t, order, 7, s, 5, -1, "(1,3) never reached", NULL);
	/* one missed, pieces shrunk to match: (1,1) covers only itself + (2,1)?
	 * not contiguous, so use the last: drop (4,3)->(4,4) */
	memcpy(s, good, sizeof(good));
	expect_cover_fail(&t, order, 7, s, 5, -1, "(4,4) never reached", NULL);
	/* the source reached */
	memcpy(s, good, sizeof(good));
	s[6] = (struct hsend)U1(4, 4, 0, 1);
	expect_cover_fail(&t, order, 7, s, 7, 4, "source (4,3) reached by (1,1)", NULL);
	/* wrong covers len */
	memcpy(s, good, sizeof(good));
	s[0].len[0] = 2;
	expect_cover_fail(&t, order, 7, s, 6, -1, "(1,1) covers 2 instead of 3", NULL);
	memcpy(s, good, sizeof(good));
	s[0].len[0] = 4;
	expect_cover_fail(&t, order, 7, s, 6, -1, "(1,1) covers 4 (past the order)", NULL);
	memcpy(s, good, sizeof(good));
	s[2].len[0] = 1;
	s[5].len[0] = 2;
	expect_cover_fail(&t, order, 7, s, 6, -1, "(0,0) covers 1, (4,4) covers 2", NULL);
	memcpy(s, good, sizeof(good));
	s[1].len[0] = 0;
	expect_cover_fail(&t, order, 7, s, 6, -1, "(2,1) covers 0", NULL);
	/* step rule t+j+1 */
	memcpy(s, good, sizeof(good));
	s[1].step = 3;		/* (1,1): steps 3, 3 */
	expect_cover_fail(&t, order, 7, s, 6, -1, "(1,1) sends twice in step 3", NULL);
	memcpy(s, good, sizeof(good));
	s[1].step = 1;		/* before it has the data */
	expect_cover_fail(&t, order, 7, s, 6, -1, "(1,1) sends in step 1, receiving in 1", NULL);
	memcpy(s, good, sizeof(good));
	s[5].step = 4;		/* source: 1, 2, 4 */
	expect_cover_fail(&t, order, 7, s, 6, 4, "source skips step 3", NULL);
	memcpy(s, good, sizeof(good));
	s[3].step = 4;		/* (0,0) recv 2: first send must be 3 */
	expect_cover_fail(&t, order, 7, s, 6, 4, "(0,0) first sends in step 4", NULL);
	/* step count */
	expect_cover_fail(&t, order, 7, good, 6, 4, "steps = 4 (last message in 3)", NULL);
	expect_cover_fail(&t, order, 7, good, 6, 2, "steps = 2 (last message in 3)", NULL);
	/* inconsistent entries */
	expect_cover_fail(&t, order, 7, good, 6, -1, "dest step differs from its message", tw_dest_step);
	expect_cover_fail(&t, order, 7, good, 6, -1, "dest names another message", tw_dest_msg);
	expect_cover_fail(&t, order, 7, good, 6, -1, "order repeats a node", tw_order_dup);
	expect_cover_fail(&t, order, 7, good, 6, -1, "order node outside the torus", tw_order_range);
	expect_cover_fail(&t, order, 7, good, 6, -1, "a message with no destination", tw_count0);
	expect_cover_fail(&t, order, 7, good, 6, -1, "sender position outside the order", tw_from_range);
	expect_cover_fail(&t, order, 7, good, 6, -1, "destination position outside the order", tw_pos_range);
	/* a reach outside the sender's piece: (0,0) sends to (1,3) */
	memcpy(s, good, sizeof(good));
	s[4] = (struct hsend)U1(4, 2, 5, 1);	/* (0,0) 2nd send (step 4) */
	expect_cover_fail(&t, order, 7, s, 6, 4, "(0,0) reaches (1,3) outside its piece", NULL);

	/* a worm that visits a destination twice */
	{
		static const int cyc[][3] = {
			{ 3, 2 }, { 4, 3 }, { 4, 5 }, { 5, 1 }, { 5, 4 },
		};
		struct hsend w = { 1, 0, 5, { 1, 2, 3, 4, 2 }, { 1, 1, 1, 1, 1 } };
		struct mc_torus t6;
		u32 o6[5];

		mk_regular(&t6, 2, 6, MC_LINKS_UNI);
		nodes_of(&t6, cyc, 5, o6);
		build(&b, &t6, MC_ALGO_STORUS, o6, 5, &w, 1);
		core_checks(&b.s, 1, &cc);
		ok(core_failed(cc.rc_cover, &cc.cover) && ref_cover(&b.s),
		   "worm visiting (4,5) twice: mc_check_cover fails (%s)",
		   cc.cover.what ? cc.cover.what : "PASSED");
		sbuf_free(&b);
	}
}

/*
 * check.h asks for a workspace of "u32 words": a u32 array is only 4-byte
 * aligned.  The contention checker must work with one that is not 8-byte
 * aligned (run in a child: under UBSan a misaligned u64 access aborts).
 */
static void test_ws_alignment(void)
{
	static const int dl[][3] = {
		{ 0, 0 }, { 1, 1 }, { 2, 1 }, { 0, 3 }, { 1, 3 }, { 4, 4 },
	};
	struct mc_torus t;
	struct sbuf b;
	u32 dst[6];
	pid_t pid;
	int st = 0;

	mk_regular(&t, 2, 5, MC_LINKS_UNI);
	nodes_of(&t, dl, 6, dst);
	sbuf_init(&b, 7);
	if (mc_plan(&b.s, &t, MC_ALGO_UTORUS, 0, T2(&t, 4, 3), dst, 6, NULL)) {
		ok(0, "plan for the alignment test");
		sbuf_free(&b);
		return;
	}
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		u64 words = mc_check_ws_words(&b.s, true);
		u32 *raw = xmalloc((size_t)(words + 2) * sizeof(u32));
		struct mc_check_result r;
		int rc;

		/* cover: any u32 alignment; contention: the same claim */
		rc = mc_check_contention(&b.s, raw + 1, &r);
		_exit(rc == 0 && !r.what ? 0 : 1);
	}
	if (pid > 0)
		waitpid(pid, &st, 0);
	ok(pid > 0 && WIFEXITED(st) && WEXITSTATUS(st) == 0,
	   "mc_check_contention with a u32 workspace 4- but not 8-byte aligned (%s %d)",
	   pid > 0 && WIFEXITED(st) ? "exit" : "signal",
	   pid > 0 && WIFEXITED(st) ? WEXITSTATUS(st) : WTERMSIG(st));
	sbuf_free(&b);
}

/*
 * check.h: the checkers take "any schedule, however it was made".  A
 * malformed one (positions, message ranges or senders out of range) must
 * be reported, not read past the caller's arrays: the arrays here have
 * exactly the stated sizes, and each case runs in a child so an ASan
 * report shows as a failed test.
 */
enum { BAD_POS, BAD_COUNT, BAD_FROM, BAD_FIRST, BAD_N };

static int malformed_child(int which)
{
	static const int rc7[][3] = {
		{ 4, 3 }, { 4, 4 }, { 0, 0 }, { 0, 3 }, { 1, 1 }, { 1, 3 }, { 2, 1 },
	};
	static const struct hsend good[] = {
		U1(1, 0, 4, 3), U1(2, 4, 6, 1), U1(2, 0, 2, 2),
		U1(3, 2, 3, 1), U1(3, 4, 5, 1), U1(3, 0, 1, 1),
	};
	struct mc_torus t;
	struct mc_schedule s;
	struct mc_check_result r1, r2, r3;
	u32 i, *ws;
	u64 words;
	int c1, c2, c3;

	mk_regular(&t, 2, 5, MC_LINKS_UNI);
	memset(&s, 0, sizeof(s));
	s.t = &t;
	s.algo = MC_ALGO_UTORUS;
	s.routing = MC_ROUTE_UTR;
	s.m = 7;
	s.order = xmalloc(7 * sizeof(u32));
	s.msg = xmalloc(6 * sizeof(struct mc_msg));
	s.dest = xmalloc(6 * sizeof(struct mc_dest));
	nodes_of(&t, rc7, 7, s.order);
	for (i = 0; i < 6; i++) {
		s.msg[i] = (struct mc_msg){ good[i].step, good[i].from, i, 1 };
		s.dest[i] = (struct mc_dest){ good[i].pos[0], good[i].len[0],
					      good[i].step, i, 0 };
	}
	s.nmsg = 6;
	s.ndest = 6;
	s.steps = 3;
	switch (which) {
	case BAD_POS: s.dest[5].pos = 7; break;
	case BAD_COUNT: s.msg[5].count = 2; break;
	case BAD_FROM: s.msg[3].from = 7; break;
	case BAD_FIRST: s.msg[5].first = 6; break;
	}
	c2 = mc_check_routes(&s, &r2);
	words = mc_check_ws_words(&s, true);
	if (words > (1u << 22))
		words = 1u << 22;
	ws = xmalloc((size_t)(words + 2) * sizeof(u32));
	c1 = mc_check_cover(&s, ws, &r1);
	c3 = mc_check_contention(&s, ws, &r3);
	return c1 && r1.what && c3 && r3.what && c2 && r2.what ? 0 : 1;
}

static void test_malformed(void)
{
	static const char *const what[BAD_N] = {
		"a destination position = m", "a message's count past ndest",
		"a sender position = m", "a message's first = ndest",
	};
	int w;

	for (w = 0; w < BAD_N; w++) {
		pid_t pid;
		int st = 0;

		fflush(stdout);
		pid = fork();
		if (pid == 0)
			_exit(malformed_child(w));
		if (pid > 0)
			waitpid(pid, &st, 0);
		ok(pid > 0 && WIFEXITED(st) && WEXITSTATUS(st) == 0,
		   "malformed schedule (%s): all three checkers fail cleanly, nothing read past the arrays (%s %d)",
		   what[w], pid > 0 && WIFEXITED(st) ? "exit" : "signal",
		   pid > 0 && WIFEXITED(st) ? WEXITSTATUS(st) : WTERMSIG(st));
	}
}

int main(void)
{
	test_malformed();
	test_ws_alignment();
	test_fig45();
	test_thm41_conditions();
	test_umesh();
	test_worm_order();
	test_cover_faults();
	return done_testing();
}
