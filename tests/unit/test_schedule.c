/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * Schedules: U-torus (Fig 4.9), separate addressing, S-torus, Md-torus,
 * Mu-torus(r).  Golden examples from the notes, then property tests over
 * random destination sets on many torus shapes, checked by the core's
 * checkers AND by the independent checks of tsched.h, plus an
 * mc_sender_next-driven simulation compared with mc_plan.
 */
#include "tsched.h"

/* ---------------- golden examples ---------------- */

struct gsend {
	u32 step;
	int from[3], to[3];
	u32 nd;
	int D[6][3];
};

/* Compare the plan with golden sends (from, to, step, D = covers). */
static void expect_sends(const struct mc_torus *t, const struct mc_schedule *s,
			 const struct gsend *g, u32 ng, const char *name)
{
	struct canon want, got;
	u32 i, j, badD = 0;
	long d;

	want.n = ng;
	want.msg = xcalloc(ng, sizeof(u32 *));
	for (i = 0; i < ng; i++) {
		want.msg[i] = canon_msg(g[i].step, tup(t, g[i].from), 1);
		want.msg[i][3] = tup(t, g[i].to);
		want.msg[i][4] = g[i].nd;
	}
	canon_sort(&want);
	canon_of(s, &got);
	d = canon_diff(&want, &got);
	if (!ok(d < 0, "%s: the %u sends (step, from, to, |D|) exactly as the notes", name, ng)) {
		canon_diag(t, "want", &want, (u32)d);
		canon_diag(t, "got ", &got, (u32)d);
	}
	/* D itself: order[pos .. pos+len-1] */
	for (i = 0; i < ng; i++) {
		for (j = 0; j < s->ndest; j++)
			if (s->order[s->dest[j].pos] == tup(t, g[i].to))
				break;
		if (j == s->ndest || s->dest[j].len != g[i].nd) {
			badD++;
			continue;
		}
		for (u32 q = 0; q < g[i].nd; q++)
			if (s->dest[j].pos + q >= s->m ||
			    s->order[s->dest[j].pos + q] != tup(t, g[i].D[q]))
				badD++;
	}
	is_int(badD, 0, "%s: every address field D is the notes' list", name);
	canon_free(&want);
	canon_free(&got);
}

static void expect_checkers_pass(const struct mc_schedule *s, const char *name)
{
	struct core_check cc;
	u32 fa = 0, fb = 0;
	const char *rc_err, *rr_err;
	u64 hops;

	core_checks(s, 7, &cc);
	if (!ok(core_passed(cc.rc_cover, &cc.cover), "%s: mc_check_cover passes", name))
		diag("%s", cc.cover.what);
	if (!ok(core_passed(cc.rc_routes, &cc.routes), "%s: mc_check_routes passes", name))
		diag("%s", cc.routes.what);
	if (!ok(core_passed(cc.rc_cont, &cc.cont), "%s: mc_check_contention passes", name))
		diag("%s", cc.cont.what);
	rc_err = ref_cover(s);
	rr_err = ref_routes(s, &hops);
	ok(!rc_err && !rr_err && !ref_contention(s, &fa, &fb),
	   "%s: independent cover/routes/Thm 4.1 checks pass (%s, %s)", name,
	   rc_err ? rc_err : "-", rr_err ? rr_err : "-");
}

static void test_golden_845(void)
{
	static const int in[][3] = {
		{ 8, 4, 5 }, { 4, 9, 3 }, { 1, 9, 7 }, { 1, 0, 2 }, { 8, 5, 4 },
		{ 4, 8, 9 }, { 9, 0, 5 }, { 3, 5, 5 }, { 9, 0, 1 }, { 8, 0, 5 },
		{ 1, 6, 4 },
	};
	static const struct gsend g[] = {
		{ 1, { 8, 4, 5 }, { 1, 9, 7 }, 5, { { 1, 9, 7 }, { 3, 5, 5 }, { 4, 8, 9 }, { 4, 9, 3 }, { 8, 0, 5 } } },
		{ 2, { 1, 9, 7 }, { 4, 9, 3 }, 2, { { 4, 9, 3 }, { 8, 0, 5 } } },
		{ 2, { 8, 4, 5 }, { 9, 0, 5 }, 3, { { 9, 0, 5 }, { 1, 0, 2 }, { 1, 6, 4 } } },
		{ 3, { 1, 9, 7 }, { 4, 8, 9 }, 1, { { 4, 8, 9 } } },
		{ 3, { 4, 9, 3 }, { 8, 0, 5 }, 1, { { 8, 0, 5 } } },
		{ 3, { 8, 4, 5 }, { 9, 0, 1 }, 1, { { 9, 0, 1 } } },
		{ 3, { 9, 0, 5 }, { 1, 6, 4 }, 1, { { 1, 6, 4 } } },
		{ 4, { 1, 9, 7 }, { 3, 5, 5 }, 1, { { 3, 5, 5 } } },
		{ 4, { 8, 4, 5 }, { 8, 5, 4 }, 1, { { 8, 5, 4 } } },
		{ 4, { 9, 0, 5 }, { 1, 0, 2 }, 1, { { 1, 0, 2 } } },
	};
	static const struct {
		unsigned int k;
		enum mc_links l;
	} var[] = {
		{ 10, MC_LINKS_UNI }, { 10, MC_LINKS_BI }, { 12, MC_LINKS_UNI },
		{ 12, MC_LINKS_BI }, { 16, MC_LINKS_UNI }, { 16, MC_LINKS_BI },
	};
	unsigned int v;

	for (v = 0; v < sizeof(var) / sizeof(var[0]); v++) {
		struct mc_torus t;
		struct sbuf b;
		u32 dst[10], i;
		const char *why = NULL;
		char name[96];
		int rc;

		mk_regular(&t, 3, var[v].k, var[v].l);
		for (i = 0; i < 10; i++)
			dst[i] = tup(&t, in[i + 1]);
		sbuf_init(&b, 11);
		snprintf(name, sizeof(name), "u-torus (8,4,5) k=%u %s", var[v].k,
			 var[v].l == MC_LINKS_BI ? "bi" : "uni");
		rc = mc_plan(&b.s, &t, MC_ALGO_UTORUS, 0, tup(&t, in[0]), dst, 10, &why);
		if (!is_int(rc, 0, "%s: mc_plan ok", name)) {
			diag("%s", why ? why : "?");
			sbuf_free(&b);
			continue;
		}
		is_int(b.s.steps, 4, "%s: 4 steps (ceil log2 11)", name);
		is_int(b.s.nmsg, 10, "%s: 10 unicasts", name);
		is_int(b.s.routing, var[v].l == MC_LINKS_BI ? MC_ROUTE_BTR : MC_ROUTE_UTR,
		       "%s: routed by %s", name, var[v].l == MC_LINKS_BI ? "BTR" : "UTR");
		expect_sends(&t, &b.s, g, 10, name);
		expect_checkers_pass(&b.s, name);
		sbuf_free(&b);
	}
}

static void test_golden_5x5(void)
{
	static const int rchain[][3] = {
		{ 4, 3 }, { 4, 4 }, { 0, 0 }, { 0, 3 }, { 1, 1 }, { 1, 3 }, { 2, 1 },
	};
	static const struct gsend g[] = {
		{ 1, { 4, 3 }, { 1, 1 }, 3, { { 1, 1 }, { 1, 3 }, { 2, 1 } } },
		{ 2, { 1, 1 }, { 2, 1 }, 1, { { 2, 1 } } },
		{ 2, { 4, 3 }, { 0, 0 }, 2, { { 0, 0 }, { 0, 3 } } },
		{ 3, { 0, 0 }, { 0, 3 }, 1, { { 0, 3 } } },
		{ 3, { 1, 1 }, { 1, 3 }, 1, { { 1, 3 } } },
		{ 3, { 4, 3 }, { 4, 4 }, 1, { { 4, 4 } } },
	};
	/* destinations in the text's order (Fig 4.4) */
	static const int dl[][3] = {
		{ 0, 0 }, { 1, 1 }, { 2, 1 }, { 0, 3 }, { 1, 3 }, { 4, 4 },
	};
	struct mc_torus t;
	struct sbuf b;
	u32 dst[6], i, bad = 0;
	const char *why = NULL;
	int rc;

	mk_regular(&t, 2, 5, MC_LINKS_UNI);
	for (i = 0; i < 6; i++)
		dst[i] = tup(&t, dl[i]);
	sbuf_init(&b, 7);
	rc = mc_plan(&b.s, &t, MC_ALGO_UTORUS, 0, T2(&t, 4, 3), dst, 6, &why);
	if (!is_int(rc, 0, "u-torus 5x5 (4,3): mc_plan ok")) {
		sbuf_free(&b);
		return;
	}
	for (i = 0; i < 7; i++)
		if (b.s.order[i] != tup(&t, rchain[i]))
			bad++;
	is_int(bad, 0, "u-torus 5x5 (4,3): order is the R-chain (4,3) (4,4) (0,0) (0,3) (1,1) (1,3) (2,1)");
	is_int(b.s.steps, 3, "u-torus 5x5 (4,3): 3 steps");
	expect_sends(&t, &b.s, g, 6, "u-torus 5x5 (4,3)");
	expect_checkers_pass(&b.s, "u-torus 5x5 (4,3)");
	sbuf_free(&b);
}

static void test_golden_6x6(void)
{
	static const int cyc[][3] = {
		{ 3, 2 }, { 4, 3 }, { 4, 5 }, { 5, 1 }, { 5, 4 },
		{ 0, 5 }, { 1, 0 }, { 1, 2 }, { 2, 1 }, { 3, 4 },
	};
	static const int dl[][3] = {	/* the text's arbitrary order */
		{ 0, 5 }, { 4, 5 }, { 3, 4 }, { 5, 4 }, { 4, 3 },
		{ 1, 2 }, { 2, 1 }, { 5, 1 }, { 1, 0 },
	};
	struct mc_torus t;
	struct sbuf b;
	u32 dst[9], i, bad = 0;
	const char *why = NULL;
	int rc;

	mk_regular(&t, 2, 6, MC_LINKS_UNI);
	for (i = 0; i < 9; i++)
		dst[i] = tup(&t, dl[i]);

	/* S-torus: one worm through the H-cycle. */
	sbuf_init(&b, 10);
	rc = mc_plan(&b.s, &t, MC_ALGO_STORUS, 0, T2(&t, 3, 2), dst, 9, &why);
	if (!is_int(rc, 0, "s-torus 6x6 (3,2): mc_plan ok")) {
		sbuf_free(&b);
		goto md;
	}
	for (i = 0; i < 10; i++)
		if (b.s.order[i] != tup(&t, cyc[i]))
			bad++;
	is_int(bad, 0, "s-torus 6x6 (3,2): order is the Sec 5.4 H-cycle");
	ok(b.s.nmsg == 1 && b.s.steps == 1 && b.s.msg[0].count == 9 &&
	   b.s.msg[0].from == 0 && b.s.msg[0].step == 1,
	   "s-torus 6x6 (3,2): one worm, one phase, 9 destinations");
	bad = 0;
	for (i = 0; b.s.nmsg == 1 && i < 9; i++) {
		const struct mc_dest *d = &b.s.dest[b.s.msg[0].first + i];

		if (b.s.order[d->pos] != tup(&t, cyc[i + 1]) || d->len != 1)
			bad++;
	}
	is_int(bad, 0, "s-torus 6x6 (3,2): the worm visits (4,3) (4,5) (5,1) (5,4) (0,5) (1,0) (1,2) (2,1) (3,4)");
	is_int(b.s.routing, MC_ROUTE_UTPR, "s-torus routes by UTPR");
	expect_checkers_pass(&b.s, "s-torus 6x6 (3,2)");
	sbuf_free(&b);

md:
	/* Md-torus: rows (dimension 1) first; (3,4) is the source row's tail
	 * past the wrap, so it is its own piece. */
	{
		static const struct gsend g[] = {
			{ 2, { 4, 3 }, { 4, 5 }, 1, { { 4, 5 } } },
			{ 2, { 5, 1 }, { 5, 4 }, 1, { { 5, 4 } } },
			{ 2, { 1, 0 }, { 1, 2 }, 1, { { 1, 2 } } },
		};
		static const int w1[][3] = {
			{ 4, 3 }, { 5, 1 }, { 0, 5 }, { 1, 0 }, { 2, 1 }, { 3, 4 },
		};
		static const u32 l1[] = { 2, 2, 1, 2, 1, 1 };
		struct canon got;
		u32 found = 0;

		sbuf_init(&b, 10);
		rc = mc_plan(&b.s, &t, MC_ALGO_MDTORUS, 0, T2(&t, 3, 2), dst, 9, &why);
		if (!is_int(rc, 0, "md-torus 6x6 (3,2): mc_plan ok")) {
			sbuf_free(&b);
			return;
		}
		is_int(b.s.steps, 2, "md-torus 6x6 (3,2): 2 phases");
		is_int(b.s.nmsg, 4, "md-torus 6x6 (3,2): 4 worms");
		canon_of(&b.s, &got);
		for (i = 0; i < got.n; i++) {
			u32 *w = got.msg[i], j;

			if (w[0] == 1 && w[1] == T2(&t, 3, 2) && w[2] == 6) {
				for (j = 0; j < 6; j++)
					if (w[3 + 2 * j] != tup(&t, w1[j]) || w[4 + 2 * j] != l1[j])
						break;
				if (j == 6)
					found++;
			}
			for (j = 0; j < 3; j++)
				if (w[0] == g[j].step && w[1] == tup(&t, g[j].from) &&
				    w[2] == 1 && w[3] == tup(&t, g[j].to) && w[4] == 1)
					found++;
		}
		if (!ok(found == 4, "md-torus 6x6 (3,2): phase 1 worm (4,3)[2] (5,1)[2] (0,5) (1,0)[2] (2,1) (3,4); phase 2 (4,3)->(4,5), (5,1)->(5,4), (1,0)->(1,2)"))
			for (i = 0; i < got.n; i++)
				canon_diag(&t, "got", &got, i);
		canon_free(&got);
		expect_checkers_pass(&b.s, "md-torus 6x6 (3,2)");
		sbuf_free(&b);
	}
}

/* ---------------- reference U-torus (Fig 4.9) ---------------- */

static const struct mc_torus *cmp_t;

static int cmp_dim(const void *pa, const void *pb)
{
	u32 a = *(const u32 *)pa, b = *(const u32 *)pb;
	u16 sa[MC_MAX_DIMS], sb[MC_MAX_DIMS];
	int i;

	ref_coords(cmp_t->n, cmp_t->k, a, sa);
	ref_coords(cmp_t->n, cmp_t->k, b, sb);
	for (i = (int)cmp_t->n - 1; i >= 0; i--)
		if (sa[i] != sb[i])
			return sa[i] < sb[i] ? -1 : 1;
	return 0;
}

static int cmp_ham(const void *pa, const void *pb)
{
	u32 a = ref_label(cmp_t, *(const u32 *)pa);
	u32 b = ref_label(cmp_t, *(const u32 *)pb);

	return a < b ? -1 : a > b;
}

/* Our own R-chain / H-cycle: sort, rotate to the source. */
static void ref_order(const struct mc_torus *t, bool ham, u32 src,
		      const u32 *dst, u32 nd, u32 *out)
{
	u32 m = nd + 1, *tmp = xmalloc(m * sizeof(u32)), i, s = 0;

	tmp[0] = src;
	memcpy(tmp + 1, dst, nd * sizeof(u32));
	cmp_t = t;
	qsort(tmp, m, sizeof(u32), ham ? cmp_ham : cmp_dim);
	for (i = 0; i < m; i++)
		if (tmp[i] == src)
			s = i;
	for (i = 0; i < m; i++)
		out[i] = tmp[(s + i) % m];
	free(tmp);
}

static void ref_utorus(const u32 *chain, u32 m, struct canon *c)
{
	u32 *L = xmalloc(m * sizeof(u32)), *R = xmalloc(m * sizeof(u32));
	u32 *T = xmalloc(m * sizeof(u32)), nh = 1, h;

	c->n = 0;
	c->msg = xcalloc(m, sizeof(u32 *));
	L[0] = 0;
	R[0] = m - 1;
	T[0] = 0;
	for (h = 0; h < nh; h++) {
		u32 left = L[h], right = R[h], j = 0;

		while (left < right) {
			u32 center = left + (right - left + 2) / 2;
			u32 *w = canon_msg(T[h] + j + 1, chain[left], 1);

			w[3] = chain[center];
			w[4] = right - center + 1;
			c->msg[c->n++] = w;
			L[nh] = center;
			R[nh] = right;
			T[nh] = T[h] + j + 1;
			nh++;
			right = center - 1;
			j++;
		}
	}
	free(L);
	free(R);
	free(T);
	canon_sort(c);
}

/* ---------------- mc_sender simulation ---------------- */

/*
 * Drive mc_sender from the source and from every receiver, over our own
 * chain view, and return the schedule's messages in canonical form.
 */
static const char *simulate(const struct mc_torus *t, enum mc_algo algo, u32 r,
			    u32 src, const u32 *dst, u32 nd, struct canon *c)
{
	u32 m = nd + 1, *nodes = xmalloc(m * sizeof(u32));
	u32 *hp = xmalloc(m * sizeof(u32)), *hl = xmalloc(m * sizeof(u32));
	u32 *hs = xmalloc(m * sizeof(u32));
	u8 *hv = xmalloc(m);
	struct mc_dest *out = xcalloc(m, sizeof(*out));
	struct mc_chain ch;
	const char *err = NULL;
	u32 nh = 1, h;

	c->n = 0;
	c->msg = xcalloc(m, sizeof(u32 *));
	nodes[0] = src;
	memcpy(nodes + 1, dst, nd * sizeof(u32));
	if (algo == MC_ALGO_SEPARATE) {
		ch.node = nodes;
		ch.len = m;
		ch.rot = 0;
	} else if (mc_chain_sort(t, mc_algo_order(algo), nodes, m, NULL) ||
		   mc_chain_rotate(t, mc_algo_order(algo), nodes, m, src, &ch)) {
		err = "chain sort/rotate failed";
		goto out;
	}
	hp[0] = 0;
	hl[0] = m;
	hs[0] = 0;
	hv[0] = t->n;
	for (h = 0; h < nh && !err; h++) {
		struct mc_sender snd;
		u32 j;

		mc_sender_init(&snd, t, &ch, algo, r, hp[h], hl[h], hv[h]);
		for (j = 0;; j++) {
			int cnt = mc_sender_next(&snd, out, m), i;
			u32 *w;

			if (cnt < 0) {
				err = "mc_sender_next failed";
				break;
			}
			if (cnt == 0)
				break;
			if (c->n >= m - 1 || nh + (u32)cnt > m) {
				err = "mc_sender_next made too many messages";
				break;
			}
			w = canon_msg(hs[h] + j + 1, mc_chain_at(&ch, hp[h]), (u32)cnt);
			for (i = 0; i < cnt; i++) {
				if (out[i].pos >= m) {
					err = "mc_sender_next position out of range";
					break;
				}
				w[3 + 2 * i] = mc_chain_at(&ch, out[i].pos);
				w[4 + 2 * i] = out[i].len;
				hp[nh] = out[i].pos;
				hl[nh] = out[i].len;
				hs[nh] = hs[h] + j + 1;
				hv[nh] = out[i].level;
				nh++;
			}
			c->msg[c->n++] = w;
			if (err)
				break;
		}
	}
	canon_sort(c);
out:
	free(nodes);
	free(hp);
	free(hl);
	free(hs);
	free(hv);
	free(out);
	return err;
}

/* ---------------- structure checks ---------------- */

static u32 ref_stride(const struct mc_torus *t, unsigned int d)
{
	u32 s = 1;
	unsigned int i;

	for (i = 0; i < d; i++)
		s *= t->k[i];
	return s;
}

/* Sub-torus key at level d: the coordinates of dimensions >= d. */
static u32 subkey(const struct mc_torus *t, u32 node, unsigned int d)
{
	return d >= t->n ? 0 : node / ref_stride(t, d);
}

static bool piece_agrees(const struct mc_schedule *s, u32 pos, u32 len,
			 unsigned int d)
{
	u32 q, key = subkey(s->t, s->order[pos], d);

	for (q = pos + 1; q < pos + len; q++)
		if (subkey(s->t, s->order[q], d) != key)
			return false;
	return true;
}

/*
 * M-torus family: each holder's messages (in step order) split its
 * current piece [p, p+L) into the kept head [p, p+K) and the message's
 * destinations' pieces, consecutive, in visiting order.  Mu: min(r,L)
 * pieces of size ceil(L/r) or floor(L/r).  S: one message to everyone.
 * Md: the level of each split is the highest that splits the piece, every
 * piece agrees on dimensions >= level, distinct pieces are distinct
 * sub-tori (but for the source's own sub-torus cut by the cycle's wrap).
 */
static const char *mtorus_structure(const struct mc_schedule *s, u32 r)
{
	const struct mc_torus *t = s->t;
	struct sender_index x;
	u32 *pl = xcalloc(s->m, sizeof(u32)), *lv = xcalloc(s->m, sizeof(u32));
	const char *err = NULL;
	u32 u, i;

	sender_index_build(s, &x);
	pl[0] = s->m;
	lv[0] = t->n;
	for (i = 0; i < s->ndest; i++) {
		pl[s->dest[i].pos] = s->dest[i].len;
		lv[s->dest[i].pos] = s->dest[i].level;
	}
	for (u = 0; u < s->m && !err; u++) {
		u32 n = x.off[u + 1] - x.off[u], L = pl[u], j;
		u32 *ms = x.bysnd + x.off[u];
		unsigned int level = lv[u];

		/* sort u's messages by step (insertion; few) */
		for (i = 1; i < n; i++)
			for (j = i; j > 0 && s->msg[ms[j - 1]].step > s->msg[ms[j]].step; j--) {
				u32 tmp = ms[j];

				ms[j] = ms[j - 1];
				ms[j - 1] = tmp;
			}
		for (i = 0; i < n && !err; i++) {
			const struct mc_msg *mm = &s->msg[ms[i]];
			u32 q = mm->count, K, at;

			if (q == 0 || L < 2) {
				err = "holder sends with nothing left";
				break;
			}
			K = s->dest[mm->first].pos - u;
			if (s->dest[mm->first].pos <= u || K >= L) {
				err = "first piece not after the kept head";
				break;
			}
			at = s->dest[mm->first].pos;
			for (j = 0; j < q; j++) {
				const struct mc_dest *d = &s->dest[mm->first + j];

				if (d->pos != at) {
					err = "pieces not consecutive in visiting order";
					break;
				}
				at += d->len;
			}
			if (err)
				break;
			if (at != u + L) {
				err = "pieces do not fill the holder's piece";
				break;
			}
			if (s->algo == MC_ALGO_STORUS && (q != L - 1 || u != 0)) {
				err = "s-torus: not one worm to every destination";
				break;
			}
			if (s->algo == MC_ALGO_MUTORUS) {
				u32 parts = r < L ? r : L, big = (L + r - 1) / r, small = L / r;

				if (q != parts - 1) {
					err = "mu-torus: not min(r, L) pieces";
					break;
				}
				if (K != big && K != small)
					err = "mu-torus: kept piece size not ceil/floor(L/r)";
				for (j = 0; j < q; j++) {
					u32 len = s->dest[mm->first + j].len;

					if (len != big && len != small)
						err = "mu-torus: piece size not ceil/floor(L/r)";
				}
			}
			if (s->algo == MC_ALGO_MDTORUS) {
				unsigned int d = s->dest[mm->first].level;
				u32 a, b;

				for (j = 0; j < q; j++)
					if (s->dest[mm->first + j].level != d)
						err = "md-torus: one message, several levels";
				if (err)
					break;
				if (d >= level) {
					err = "md-torus: level does not decrease";
					break;
				}
				if (!piece_agrees(s, u, L, d + 1))
					err = "md-torus: a higher level would split the piece";
				if (!piece_agrees(s, u, K, d))
					err = "md-torus: kept head spans sub-tori";
				for (j = 0; j < q && !err; j++) {
					const struct mc_dest *dd = &s->dest[mm->first + j];

					if (!piece_agrees(s, dd->pos, dd->len, d))
						err = "md-torus: a piece spans sub-tori (Def 6.2 (1))";
				}
				/* distinct sub-tori (pieces: head, then the q) */
				for (a = 0; a <= q && !err; a++)
					for (b = a + 1; b <= q && !err; b++) {
						u32 pa = a ? s->dest[mm->first + a - 1].pos : u;
						u32 pb = s->dest[mm->first + b - 1].pos;
						u32 eb = pb + s->dest[mm->first + b - 1].len;

						if (subkey(t, s->order[pa], d) ==
						    subkey(t, s->order[pb], d) &&
						    !(pa == 0 && eb == s->m))
							err = "md-torus: two pieces in one sub-torus (Def 6.2 (2))";
					}
				level = d;
			}
			L = K;
		}
	}
	sender_index_free(&x);
	free(pl);
	free(lv);
	return err;
}

/* ---------------- property tests ---------------- */

struct shape {
	unsigned int n;
	u16 k[4];
	unsigned int trials;
};

enum { P_PLAN, P_STEPS, P_ORDER, P_CORE, P_REF, P_STRUCT, P_SIM, P_N };
static const char *const pname[P_N] = {
	"mc_plan succeeds",
	"step/phase count",
	"order = own R-chain/H-cycle from the source",
	"core checkers pass",
	"independent cover/route/Thm 4.1 checks pass",
	"structure (exact Fig 4.9 / partitions)",
	"mc_sender_next simulation reproduces mc_plan",
};

struct agg {
	unsigned int runs;
	unsigned int fail[P_N];
	char first[P_N][320];	/* the first failure, to print after its line */
	u64 ref_cont_skipped;
};

static void note_fail(struct agg *a, int p, u64 seed, const struct mc_torus *t,
		      const char *alg, u32 m, u32 src, const char *what)
{
	if (!a->fail[p]++)
		snprintf(a->first[p], sizeof(a->first[p]),
			 "first failure: %s %s seed=0x%llx m=%u src=%s: %s",
			 shape_str(t), alg, (unsigned long long)seed, m,
			 nstr(t, src), what ? what : "");
}

static void one_plan(const struct mc_torus *t, enum mc_algo algo, u32 r,
		     u64 seed, u32 src, const u32 *dst, u32 nd, struct agg *a,
		     const char *alg)
{
	u32 m = nd + 1, i, want_steps;
	struct sbuf b;
	const char *why = NULL, *e;
	struct canon got, ref;
	char buf[160];
	int rc;

	a->runs++;
	sbuf_init(&b, m);
	rc = mc_plan(&b.s, t, algo, r, src, dst, nd, &why);
	if (rc) {
		snprintf(buf, sizeof(buf), "rc %d (%s)", rc, why ? why : "?");
		note_fail(a, P_PLAN, seed, t, alg, m, src, buf);
		sbuf_free(&b);
		return;
	}
	if (b.s.m != m || b.s.nmsg == 0 || b.s.ndest != nd || b.s.t != t ||
	    b.s.algo != algo || b.s.routing != mc_algo_routing(t, algo)) {
		snprintf(buf, sizeof(buf), "m %u nmsg %u ndest %u routing %d",
			 b.s.m, b.s.nmsg, b.s.ndest, b.s.routing);
		note_fail(a, P_PLAN, seed, t, alg, m, src, buf);
	}

	/* step counts */
	switch (algo) {
	case MC_ALGO_UTORUS: want_steps = ceil_log(2, m); break;
	case MC_ALGO_SEPARATE: want_steps = m - 1; break;
	case MC_ALGO_STORUS: want_steps = 1; break;
	case MC_ALGO_MUTORUS: want_steps = ceil_log(r, m); break;
	default: want_steps = 0; break;
	}
	if (algo == MC_ALGO_MDTORUS ? (b.s.steps < 1 || b.s.steps > t->n) :
	    b.s.steps != want_steps) {
		snprintf(buf, sizeof(buf), "steps %u, want %s%u", b.s.steps,
			 algo == MC_ALGO_MDTORUS ? "1.." : "",
			 algo == MC_ALGO_MDTORUS ? t->n : want_steps);
		note_fail(a, P_STEPS, seed, t, alg, m, src, buf);
	}
	if ((algo == MC_ALGO_UTORUS || algo == MC_ALGO_SEPARATE ||
	     (algo == MC_ALGO_MUTORUS && r == 2)) && b.s.nmsg != m - 1)
		note_fail(a, P_STEPS, seed, t, alg, m, src, "unicast count != m-1");
	if (algo == MC_ALGO_STORUS && b.s.nmsg != 1)
		note_fail(a, P_STEPS, seed, t, alg, m, src, "s-torus: more than one worm");

	/* order */
	{
		u32 *o = xmalloc(m * sizeof(u32)), bad = 0;

		if (algo == MC_ALGO_SEPARATE) {
			o[0] = src;
			memcpy(o + 1, dst, nd * sizeof(u32));
		} else {
			ref_order(t, mc_algo_is_path_based(algo), src, dst, nd, o);
		}
		for (i = 0; i < m; i++)
			if (b.s.order[i] != o[i])
				bad++;
		if (bad)
			note_fail(a, P_ORDER, seed, t, alg, m, src, "differs");
		if (algo == MC_ALGO_UTORUS && !bad) {
			ref_utorus(o, m, &ref);
			canon_of(&b.s, &got);
			if (canon_diff(&ref, &got) >= 0)
				note_fail(a, P_STRUCT, seed, t, alg, m, src,
					  "u-torus differs from Fig 4.9");
			canon_free(&ref);
			canon_free(&got);
		}
		free(o);
	}

	/* core checkers: all three */
	{
		struct core_check cc;

		core_checks(&b.s, 7, &cc);
		if (!core_passed(cc.rc_cover, &cc.cover))
			note_fail(a, P_CORE, seed, t, alg, m, src, cc.cover.what);
		else if (!core_passed(cc.rc_routes, &cc.routes))
			note_fail(a, P_CORE, seed, t, alg, m, src, cc.routes.what);
		else if (!core_passed(cc.rc_cont, &cc.cont))
			note_fail(a, P_CORE, seed, t, alg, m, src, cc.cont.what);
	}

	/* independent checks */
	{
		u64 hops = 0;

		e = ref_cover(&b.s);
		if (!e)
			e = ref_routes(&b.s, &hops);
		if (e) {
			note_fail(a, P_REF, seed, t, alg, m, src, e);
		} else if (hops <= 400000) {
			u32 fa = 0, fb = 0;
			u64 bad = ref_contention(&b.s, &fa, &fb);

			if (bad) {
				snprintf(buf, sizeof(buf),
					 "Thm 4.1 violated by %llu pairs, first msgs %u (step %u) and %u (step %u)",
					 (unsigned long long)bad, fa, b.s.msg[fa].step,
					 fb, b.s.msg[fb].step);
				note_fail(a, P_REF, seed, t, alg, m, src, buf);
			}
		} else {
			a->ref_cont_skipped++;
		}
	}

	/* structure */
	if (algo == MC_ALGO_SEPARATE) {
		for (i = 0; i < b.s.nmsg; i++) {
			const struct mc_msg *mm = &b.s.msg[i];
			const struct mc_dest *d = &b.s.dest[mm->first];

			if (mm->from != 0 || mm->count != 1 || d->len != 1 ||
			    mm->step != d->pos) {
				note_fail(a, P_STRUCT, seed, t, alg, m, src,
					  "separate: not source -> order[j] in step j");
				break;
			}
		}
	} else if (mc_algo_is_path_based(algo)) {
		e = mtorus_structure(&b.s, algo == MC_ALGO_STORUS ? m : r);
		if (e)
			note_fail(a, P_STRUCT, seed, t, alg, m, src, e);
	}

	/* simulation */
	e = simulate(t, algo, r, src, dst, nd, &ref);
	canon_of(&b.s, &got);
	if (e) {
		note_fail(a, P_SIM, seed, t, alg, m, src, e);
	} else {
		long d = canon_diff(&ref, &got);

		if (d >= 0) {
			note_fail(a, P_SIM, seed, t, alg, m, src, "messages differ");
			if (a->fail[P_SIM] == 1) {
				diag("simulation vs plan (%s %s seed=0x%llx), first difference:",
				     shape_str(t), alg, (unsigned long long)seed);
				canon_diag(t, "sim ", &ref, (u32)d);
				canon_diag(t, "plan", &got, (u32)d);
			}
		}
	}
	canon_free(&ref);
	canon_free(&got);
	sbuf_free(&b);
}

static void test_properties(void)
{
	static const struct shape shapes[] = {
		{ 1, { 11 }, 20 },
		{ 1, { 2 }, 4 },
		{ 2, { 2, 2 }, 8 },
		{ 3, { 2, 2, 2 }, 12 },
		{ 4, { 2, 2, 2, 2 }, 12 },
		{ 2, { 2, 9 }, 12 },
		{ 2, { 3, 3 }, 30 },
		{ 2, { 4, 4 }, 30 },
		{ 2, { 5, 7 }, 25 },
		{ 2, { 16, 3 }, 20 },
		{ 2, { 8, 8 }, 30 },
		{ 2, { 12, 12 }, 16 },
		{ 2, { 16, 16 }, 12 },
		{ 2, { 64, 64 }, 3 },
		{ 2, { 32, 32 }, 6 },
		{ 3, { 3, 3, 3 }, 25 },
		{ 3, { 4, 4, 4 }, 25 },
		{ 3, { 7, 5, 3 }, 20 },
		{ 3, { 6, 6, 6 }, 12 },
		{ 3, { 8, 8, 8 }, 6 },
		{ 3, { 16, 16, 16 }, 3 },
		{ 4, { 3, 3, 3, 3 }, 12 },
	};
	static const struct {
		enum mc_algo algo;
		u32 r;
		const char *name;
	} algos[] = {
		{ MC_ALGO_UTORUS, 0, "u-torus" },
		{ MC_ALGO_SEPARATE, 0, "separate" },
		{ MC_ALGO_STORUS, 0, "s-torus" },
		{ MC_ALGO_MDTORUS, 0, "md-torus" },
		{ MC_ALGO_MUTORUS, 2, "mu-torus(2)" },
		{ MC_ALGO_MUTORUS, 3, "mu-torus(3)" },
		{ MC_ALGO_MUTORUS, 4, "mu-torus(4)" },
		{ MC_ALGO_MUTORUS, 8, "mu-torus(8)" },
	};
	enum { NALG = sizeof(algos) / sizeof(algos[0]) };
	unsigned int si, li, ai, p;

	for (si = 0; si < sizeof(shapes) / sizeof(shapes[0]); si++)
		for (li = 0; li < 2; li++) {
			struct mc_torus t;
			struct agg agg[NALG];
			char sh[64];
			size_t o = 0;
			bool regular = true;
			unsigned int trial, i;

			mk_torus(&t, shapes[si].n, shapes[si].k,
				 li ? MC_LINKS_BI : MC_LINKS_UNI);
			for (i = 1; i < t.n; i++)
				if (t.k[i] != t.k[0])
					regular = false;
			for (i = t.n; i-- > 0;)
				o += (size_t)snprintf(sh + o, sizeof(sh) - o, "%u%s",
						      t.k[i], i ? "x" : "");
			snprintf(sh + o, sizeof(sh) - o, " %s", li ? "bi" : "uni");
			memset(agg, 0, sizeof(agg));
			for (trial = 0; trial < shapes[si].trials; trial++) {
				u64 seed = 0x5c4ed000ull ^ ((u64)si << 40) ^
					   ((u64)li << 36) ^ trial;
				struct rng rng = { seed };
				u32 m, *set, big = t.nodes;

				/* whole torus first, then random sizes, then 2 and 3 */
				switch (trial % 6) {
				case 0: m = t.nodes; break;
				case 1: case 4: m = 2 + rng_below(&rng, big - 1); break;
				case 2: m = 2 + rng_below(&rng, (big < 40 ? big : 40) - 1); break;
				case 3: m = 2; break;
				default: m = big < 3 ? 2 : 3; break;
				}
				set = xmalloc(m * sizeof(u32));
				rng_subset(&rng, t.nodes, m, set);
				for (ai = 0; ai < NALG; ai++) {
					bool path = mc_algo_is_path_based(algos[ai].algo);

					if (path && (li || !regular))
						continue;
					/* separate on a whole big torus: one trial is enough */
					if (algos[ai].algo == MC_ALGO_SEPARATE && m > 1100 &&
					    agg[ai].runs > 1)
						continue;
					one_plan(&t, algos[ai].algo, algos[ai].r, seed,
						 set[0], set + 1, m - 1, &agg[ai],
						 algos[ai].name);
				}
				free(set);
			}
			for (ai = 0; ai < NALG; ai++) {
				if (!agg[ai].runs)
					continue;
				for (p = 0; p < P_N; p++) {
					if (!ok(!agg[ai].fail[p], "%s %s: %s (%u plans, %u failed)",
						sh, algos[ai].name, pname[p], agg[ai].runs,
						agg[ai].fail[p]))
						diag("%s", agg[ai].first[p]);
				}
				if (agg[ai].ref_cont_skipped)
					diag("%s %s: independent Thm 4.1 check skipped on %llu big plans",
					     sh, algos[ai].name,
					     (unsigned long long)agg[ai].ref_cont_skipped);
			}
		}
}

/* ---------------- unsupported and bad input ---------------- */

static void test_unsupported(void)
{
	struct mc_torus bi, nonreg, uni;
	u16 k35[2] = { 3, 5 };
	enum mc_algo pa[] = { MC_ALGO_STORUS, MC_ALGO_MDTORUS, MC_ALGO_MUTORUS };
	unsigned int i;

	mk_regular(&bi, 2, 6, MC_LINKS_BI);
	mk_torus(&nonreg, 2, k35, MC_LINKS_UNI);
	mk_regular(&uni, 2, 6, MC_LINKS_UNI);
	for (i = 0; i < 3; i++) {
		const struct mc_torus *ts[2] = { &bi, &nonreg };
		unsigned int j;

		for (j = 0; j < 2; j++) {
			const char *why = NULL;
			struct sbuf b;
			u32 d[2] = { 1, 2 };
			int rc = mc_algo_supported(ts[j], pa[i], 4, &why);

			ok((rc == -EINVAL || rc == -EOPNOTSUPP) && why,
			   "%s on a %s torus: mc_algo_supported refuses (rc %d, %s)",
			   algo_name(pa[i]), j ? "non-regular" : "bidirectional", rc,
			   why ? why : "no reason");
			why = NULL;
			sbuf_init(&b, 3);
			rc = mc_plan(&b.s, ts[j], pa[i], 4, 0, d, 2, &why);
			ok((rc == -EINVAL || rc == -EOPNOTSUPP) && why,
			   "%s on a %s torus: mc_plan refuses (rc %d, %s)",
			   algo_name(pa[i]), j ? "non-regular" : "bidirectional", rc,
			   why ? why : "no reason");
			sbuf_free(&b);
		}
		is_int(mc_algo_supported(&uni, pa[i], 4, NULL), 0,
		       "%s on a regular uni torus is supported", algo_name(pa[i]));
	}
	is_int(mc_algo_supported(&bi, MC_ALGO_UTORUS, 0, NULL), 0,
	       "u-torus on a bi torus is supported");
	is_int(mc_algo_supported(&nonreg, MC_ALGO_UTORUS, 0, NULL), 0,
	       "u-torus on a non-regular torus is supported");
	is_int(mc_algo_supported(&nonreg, MC_ALGO_SEPARATE, 0, NULL), 0,
	       "separate on a non-regular torus is supported");
	{
		const char *why = NULL;

		ok(mc_algo_supported(&uni, MC_ALGO_MUTORUS, 1, &why) == -EINVAL && why,
		   "mu-torus r = 1 refused with a reason");
		why = NULL;
		ok(mc_algo_supported(&uni, MC_ALGO_MUTORUS, 0, &why) == -EINVAL && why,
		   "mu-torus r = 0 refused with a reason");
		why = NULL;
		ok(mc_algo_supported(&uni, MC_ALGO_MUTORUS, MC_MU_MAX_R + 1, &why) == -EINVAL && why,
		   "mu-torus r = MC_MU_MAX_R+1 refused with a reason");
		is_int(mc_algo_supported(&uni, MC_ALGO_MUTORUS, MC_MU_MAX_R, NULL), 0,
		       "mu-torus r = MC_MU_MAX_R supported");
		why = NULL;
		ok(mc_algo_supported(&uni, (enum mc_algo)42, 0, &why) < 0 && why,
		   "unknown algorithm refused with a reason");
	}
	is_int(mc_algo_routing(&uni, MC_ALGO_UTORUS), MC_ROUTE_UTR, "u-torus on uni routes by UTR");
	is_int(mc_algo_routing(&bi, MC_ALGO_UTORUS), MC_ROUTE_BTR, "u-torus on bi routes by BTR");
	is_int(mc_algo_routing(&uni, MC_ALGO_STORUS), MC_ROUTE_UTPR, "s-torus routes by UTPR");
	is_int(mc_algo_order(MC_ALGO_UTORUS), MC_ORDER_DIM, "u-torus uses R-chains");
	is_int(mc_algo_order(MC_ALGO_MUTORUS), MC_ORDER_HAM, "mu-torus uses H-cycles");
}

static void test_bad_input(void)
{
	struct mc_torus t;
	static const enum mc_algo al[] = {
		MC_ALGO_SEPARATE, MC_ALGO_UTORUS, MC_ALGO_STORUS,
		MC_ALGO_MDTORUS, MC_ALGO_MUTORUS,
	};
	unsigned int i;

	mk_regular(&t, 2, 4, MC_LINKS_UNI);
	for (i = 0; i < sizeof(al) / sizeof(al[0]); i++) {
		static const struct {
			u32 src;
			u32 d[4];
			u32 nd;
			const char *what;
		} bad[] = {
			{ 16, { 1, 2 }, 2, "source out of range" },
			{ 0, { 1, 16 }, 2, "destination out of range" },
			{ 0, { 1, 0xffffffffu }, 2, "destination MC_NO_NODE" },
			{ 0, { 3, 5, 3 }, 3, "repeated destination" },
			{ 0, { 3, 5, 6, 5 }, 4, "repeated destination (not adjacent)" },
			{ 5, { 3, 5, 6 }, 3, "source among the destinations" },
			{ 5, { 0 }, 0, "no destination" },
		};
		unsigned int j;

		for (j = 0; j < sizeof(bad) / sizeof(bad[0]); j++) {
			struct sbuf b;
			const char *why = NULL;
			int rc;

			sbuf_init(&b, 5);
			rc = mc_plan(&b.s, &t, al[i], 3, bad[j].src, bad[j].d,
				     bad[j].nd, &why);
			ok(rc == -EINVAL && why, "%s: %s -> -EINVAL with a reason (rc %d, %s)",
			   algo_name(al[i]), bad[j].what, rc, why ? why : "none");
			sbuf_free(&b);
		}
	}
}

/* mc_sender_next with too little room. */
static void test_sender_enospc(void)
{
	struct mc_torus t;
	u32 nodes[20], i;
	struct mc_chain c;
	struct mc_sender snd;
	struct mc_dest out[20];
	int rc;

	mk_regular(&t, 2, 6, MC_LINKS_UNI);
	for (i = 0; i < 20; i++)
		nodes[i] = i * 1 + (i > 10 ? 7 : 0);
	mc_chain_sort(&t, MC_ORDER_HAM, nodes, 20, NULL);
	mc_chain_rotate(&t, MC_ORDER_HAM, nodes, 20, nodes[3], &c);
	mc_sender_init(&snd, &t, &c, MC_ALGO_STORUS, 0, 0, 20, t.n);
	rc = mc_sender_next(&snd, out, 18);
	is_int(rc, -ENOSPC, "s-torus sender with room for 18 of 19: -ENOSPC");
	mc_sender_init(&snd, &t, &c, MC_ALGO_STORUS, 0, 0, 20, t.n);
	rc = mc_sender_next(&snd, out, 19);
	is_int(rc, 19, "s-torus sender with room for 19: one worm of 19");
	rc = mc_sender_next(&snd, out, 19);
	is_int(rc, 0, "s-torus sender then done");
	mc_sender_init(&snd, &t, &c, MC_ALGO_MUTORUS, 8, 0, 20, t.n);
	rc = mc_sender_next(&snd, out, 6);
	is_int(rc, -ENOSPC, "mu-torus(8) sender with room for 6 of 7: -ENOSPC");
	mc_sender_init(&snd, &t, &c, MC_ALGO_UTORUS, 0, 0, 20, t.n);
	rc = mc_sender_next(&snd, out, 0);
	is_int(rc, -ENOSPC, "u-torus sender with no room: -ENOSPC");
	mc_sender_init(&snd, &t, &c, MC_ALGO_UTORUS, 0, 5, 1, t.n);
	rc = mc_sender_next(&snd, out, 4);
	is_int(rc, 0, "a holder of a one-node piece sends nothing");
}

int main(void)
{
	test_golden_845();
	test_golden_5x5();
	test_golden_6x6();
	test_unsupported();
	test_bad_input();
	test_sender_enospc();
	test_properties();
	return done_testing();
}
