/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * Node orders: dimension-ordered chains / R-chains (Def 4.3, 4.4) and
 * H-chains / H-cycles (Def 5.2, 5.3, Fig 5.8).
 */
#include "tutil.h"
#include "chain.h"

static u32 ref_label(const struct mc_torus *t, u32 u)
{
	u16 s[MC_MAX_DIMS];
	u32 l = 0, w = 1, k = t->k[0];
	int i, j;

	ref_coords(t->n, t->k, u, s);
	for (i = 0; i < (int)t->n; i++) {
		u32 sum = 0;

		for (j = i; j < (int)t->n; j++)
			sum += s[j];
		l += w * (sum % k);
		w *= k;
	}
	return l;
}

/* Sort key: <_d is lexicographic on (s_{n-1}, ..., s_0), done by hand. */
static int ref_cmp_dim(const struct mc_torus *t, u32 a, u32 b)
{
	u16 sa[MC_MAX_DIMS], sb[MC_MAX_DIMS];
	int i;

	ref_coords(t->n, t->k, a, sa);
	ref_coords(t->n, t->k, b, sb);
	for (i = (int)t->n - 1; i >= 0; i--)
		if (sa[i] != sb[i])
			return sa[i] < sb[i] ? -1 : 1;
	return 0;
}

static int ref_cmp(const struct mc_torus *t, enum mc_order o, u32 a, u32 b)
{
	if (o == MC_ORDER_DIM)
		return ref_cmp_dim(t, a, b);
	return ref_label(t, a) < ref_label(t, b) ? -1 :
	       ref_label(t, a) > ref_label(t, b) ? 1 : 0;
}

static const char *list_str(const struct mc_torus *t, const u32 *a, u32 n)
{
	static char buf[2][2048];
	static unsigned int slot;
	char *b = buf[slot++ & 1];
	size_t o = 0;
	u32 i;

	b[0] = 0;
	for (i = 0; i < n && o < sizeof(buf[0]) - 64; i++)
		o += (size_t)snprintf(b + o, sizeof(buf[0]) - o, "%s%s",
				      i ? " " : "", nstr(t, a[i]));
	return b;
}

static void expect_chain(const struct mc_torus *t, enum mc_order o,
			 const int (*in)[3], const int (*sorted)[3],
			 const int (*rot)[3], u32 len, const char *name)
{
	u32 a[64], want[64], wrot[64], got[64], i;
	const char *why = NULL;
	struct mc_chain c;
	int rc;

	for (i = 0; i < len; i++) {
		a[i] = tup(t, in[i]);
		want[i] = tup(t, sorted[i]);
		wrot[i] = tup(t, rot[i]);
	}
	rc = mc_chain_sort(t, o, a, len, &why);
	is_int(rc, 0, "%s: mc_chain_sort ok", name);
	if (!ok(!memcmp(a, want, len * sizeof(u32)), "%s: sorted chain exactly as the thesis", name)) {
		diag("got  %s", list_str(t, a, len));
		diag("want %s", list_str(t, want, len));
	}
	is_int(mc_chain_verify(t, o, a, len, &why), 0, "%s: mc_chain_verify accepts it", name);
	memset(&c, 0, sizeof(c));
	rc = mc_chain_rotate(t, o, a, len, tup(t, in[0]), &c);
	is_int(rc, 0, "%s: mc_chain_rotate finds the source", name);
	for (i = 0; i < len; i++)
		got[i] = rc ? MC_NO_NODE : mc_chain_at(&c, i);
	if (!ok(!rc && c.len == len && !memcmp(got, wrot, len * sizeof(u32)),
		"%s: rotated to the source exactly as the thesis", name)) {
		diag("got  %s", list_str(t, got, len));
		diag("want %s", list_str(t, wrot, len));
	}
}

static void test_examples(void)
{
	struct mc_torus t;

	/* Sec. 4.4 / notes 4.6: source (8,4,5), k = 10. */
	{
		static const int in[][3] = {
			{ 8, 4, 5 }, { 4, 9, 3 }, { 1, 9, 7 }, { 1, 0, 2 }, { 8, 5, 4 },
			{ 4, 8, 9 }, { 9, 0, 5 }, { 3, 5, 5 }, { 9, 0, 1 }, { 8, 0, 5 },
			{ 1, 6, 4 },
		};
		static const int s1[][3] = {
			{ 1, 0, 2 }, { 1, 6, 4 }, { 1, 9, 7 }, { 3, 5, 5 }, { 4, 8, 9 },
			{ 4, 9, 3 }, { 8, 0, 5 }, { 8, 4, 5 }, { 8, 5, 4 }, { 9, 0, 1 },
			{ 9, 0, 5 },
		};
		static const int s2[][3] = {
			{ 8, 4, 5 }, { 8, 5, 4 }, { 9, 0, 1 }, { 9, 0, 5 }, { 1, 0, 2 },
			{ 1, 6, 4 }, { 1, 9, 7 }, { 3, 5, 5 }, { 4, 8, 9 }, { 4, 9, 3 },
			{ 8, 0, 5 },
		};
		unsigned int k;

		for (k = 10; k <= 16; k += 6) {
			char name[64];

			snprintf(name, sizeof(name), "R-chain (8,4,5) k=%u uni", k);
			mk_regular(&t, 3, k, MC_LINKS_UNI);
			expect_chain(&t, MC_ORDER_DIM, in, s1, s2, 11, name);
		}
		mk_regular(&t, 3, 10, MC_LINKS_BI);
		expect_chain(&t, MC_ORDER_DIM, in, s1, s2, 11, "R-chain (8,4,5) k=10 bi");
	}
	/* Def 4.2 example. */
	{
		static const int in[][3] = { { 2, 1, 5 }, { 2, 1, 8 }, { 1, 3, 7 } };
		static const int s1[][3] = { { 1, 3, 7 }, { 2, 1, 5 }, { 2, 1, 8 } };
		static const int s2[][3] = { { 2, 1, 5 }, { 2, 1, 8 }, { 1, 3, 7 } };

		mk_regular(&t, 3, 10, MC_LINKS_UNI);
		expect_chain(&t, MC_ORDER_DIM, in, s1, s2, 3, "Def 4.2 (1,3,7) <d (2,1,5) <d (2,1,8)");
	}
	/* 5x5, source (4,3) (Fig 4.4, tor.utorus). */
	{
		static const int in[][3] = {
			{ 4, 3 }, { 0, 0 }, { 1, 1 }, { 2, 1 }, { 0, 3 }, { 1, 3 }, { 4, 4 },
		};
		static const int s1[][3] = {
			{ 0, 0 }, { 0, 3 }, { 1, 1 }, { 1, 3 }, { 2, 1 }, { 4, 3 }, { 4, 4 },
		};
		static const int s2[][3] = {
			{ 4, 3 }, { 4, 4 }, { 0, 0 }, { 0, 3 }, { 1, 1 }, { 1, 3 }, { 2, 1 },
		};

		mk_regular(&t, 2, 5, MC_LINKS_UNI);
		expect_chain(&t, MC_ORDER_DIM, in, s1, s2, 7, "R-chain 5x5 source (4,3)");
	}
	/* Sec. 5.4: H-cycle from (3,2) in 6x6. */
	{
		static const int in[][3] = {
			{ 3, 2 }, { 0, 5 }, { 4, 5 }, { 3, 4 }, { 5, 4 }, { 4, 3 },
			{ 1, 2 }, { 2, 1 }, { 5, 1 }, { 1, 0 },
		};
		static const int s1[][3] = {
			{ 0, 5 }, { 1, 0 }, { 1, 2 }, { 2, 1 }, { 3, 4 }, { 3, 2 },
			{ 4, 3 }, { 4, 5 }, { 5, 1 }, { 5, 4 },
		};
		static const int s2[][3] = {
			{ 3, 2 }, { 4, 3 }, { 4, 5 }, { 5, 1 }, { 5, 4 }, { 0, 5 },
			{ 1, 0 }, { 1, 2 }, { 2, 1 }, { 3, 4 },
		};

		mk_regular(&t, 2, 6, MC_LINKS_UNI);
		expect_chain(&t, MC_ORDER_HAM, in, s1, s2, 10, "H-cycle 6x6 source (3,2)");
		/* Fig 5.6 restrictive set is already an H-chain from (3,2). */
		{
			static const int r[][3] = {
				{ 3, 2 }, { 5, 4 }, { 4, 5 }, { 5, 1 }, { 4, 3 },
			};
			static const int rs[][3] = {
				{ 3, 2 }, { 4, 3 }, { 4, 5 }, { 5, 1 }, { 5, 4 },
			};

			expect_chain(&t, MC_ORDER_HAM, r, rs, rs, 5, "H-chain Fig 5.6");
		}
	}
}

static void test_errors(void)
{
	struct mc_torus t;
	const char *why;
	struct mc_chain c;
	u32 a[8];
	int rc;

	mk_regular(&t, 2, 6, MC_LINKS_UNI);
	for (int o = MC_ORDER_DIM; o <= MC_ORDER_HAM; o++) {
		const char *on = o == MC_ORDER_DIM ? "dim" : "ham";

		a[0] = 3; a[1] = 17; a[2] = 3; a[3] = 20;
		why = NULL;
		rc = mc_chain_sort(&t, (enum mc_order)o, a, 4, &why);
		is_int(rc, -EINVAL, "%s: mc_chain_sort rejects a repeated node", on);
		ok(why != NULL, "%s: repeated node: reason given", on);

		a[0] = 3; a[1] = 17; a[2] = 36; a[3] = 20;
		why = NULL;
		rc = mc_chain_sort(&t, (enum mc_order)o, a, 4, &why);
		is_int(rc, -EINVAL, "%s: mc_chain_sort rejects node 36 of 36", on);
		ok(why != NULL, "%s: out of range: reason given", on);

		a[0] = 0xffffffffu; a[1] = 1;
		rc = mc_chain_sort(&t, (enum mc_order)o, a, 2, NULL);
		is_int(rc, -EINVAL, "%s: mc_chain_sort rejects MC_NO_NODE (why NULL)", on);

		a[0] = 5; a[1] = 5;
		rc = mc_chain_sort(&t, (enum mc_order)o, a, 2, NULL);
		is_int(rc, -EINVAL, "%s: two equal nodes rejected", on);

		a[0] = 7;
		rc = mc_chain_sort(&t, (enum mc_order)o, a, 1, NULL);
		ok(rc == 0 && a[0] == 7, "%s: a single node sorts to itself", on);

		/* verify: unsorted, duplicate, out of range */
		a[0] = 1; a[1] = 0;	/* (0,1) before (0,0): wrong in both orders */
		why = NULL;
		rc = mc_chain_verify(&t, (enum mc_order)o, a, 2, &why);
		ok(rc < 0 && why, "%s: verify rejects (0,1),(0,0) (rc %d)", on, rc);
		a[0] = 4; a[1] = 4;
		rc = mc_chain_verify(&t, (enum mc_order)o, a, 2, NULL);
		ok(rc < 0, "%s: verify rejects a repeated node (rc %d)", on, rc);
		a[0] = 4; a[1] = 36;
		rc = mc_chain_verify(&t, (enum mc_order)o, a, 2, NULL);
		ok(rc < 0, "%s: verify rejects an out-of-range node (rc %d)", on, rc);
		a[0] = 40; 
		rc = mc_chain_verify(&t, (enum mc_order)o, a, 1, NULL);
		ok(rc < 0, "%s: verify rejects a lone out-of-range node (rc %d)", on, rc);

		/* rotate: absent source */
		a[0] = 0; a[1] = 1; a[2] = 2;
		rc = mc_chain_rotate(&t, (enum mc_order)o, a, 3, 9, &c);
		is_int(rc, -ENOENT, "%s: mc_chain_rotate -ENOENT when the source is absent", on);
		rc = mc_chain_rotate(&t, (enum mc_order)o, a, 0, 0, &c);
		is_int(rc, -ENOENT, "%s: mc_chain_rotate -ENOENT on an empty chain", on);
		rc = mc_chain_rotate(&t, (enum mc_order)o, a, 3, 36, &c);
		ok(rc == -ENOENT || rc == -EINVAL,
		   "%s: mc_chain_rotate fails for a source outside the torus (rc %d)", on, rc);
	}

	/* The two orders differ: (1,2) <_d (1,5),
	 * while l(1,5) = 6 < l(1,2) = 9. */
	a[0] = T2(&t, 1, 2);
	a[1] = T2(&t, 1, 5);
	is_int(mc_chain_verify(&t, MC_ORDER_DIM, a, 2, NULL), 0,
	       "(1,2),(1,5) is a dimension-ordered chain");
	ok(mc_chain_verify(&t, MC_ORDER_HAM, a, 2, NULL) < 0,
	   "(1,2),(1,5) is not an H-chain (labels 9, 6)");
	a[0] = T2(&t, 1, 5);
	a[1] = T2(&t, 1, 2);
	ok(mc_chain_verify(&t, MC_ORDER_DIM, a, 2, NULL) < 0,
	   "(1,5),(1,2) is not a dimension-ordered chain");
	is_int(mc_chain_verify(&t, MC_ORDER_HAM, a, 2, NULL), 0,
	       "(1,5),(1,2) is an H-chain (labels 6, 9)");
}

static void test_random(void)
{
	static const struct {
		unsigned int n;
		u16 k[4];
	} shapes[] = {
		{ 1, { 13 } }, { 2, { 6, 6 } }, { 2, { 16, 16 } }, { 3, { 5, 5, 5 } },
		{ 3, { 8, 8, 8 } }, { 4, { 4, 4, 4, 4 } }, { 2, { 64, 64 } },
		{ 2, { 3, 7 } }, { 3, { 4, 9, 2 } },
	};
	struct rng rng = { 0xc4a1f00dull };
	unsigned int si;

	for (si = 0; si < sizeof(shapes) / sizeof(shapes[0]); si++) {
		struct mc_torus t;
		bool regular = true;
		unsigned int o;

		mk_torus(&t, shapes[si].n, shapes[si].k, MC_LINKS_UNI);
		for (o = 1; o < t.n; o++)
			if (t.k[o] != t.k[0])
				regular = false;
		for (o = MC_ORDER_DIM; o <= MC_ORDER_HAM; o++) {
			unsigned int trial, bad_sort = 0, bad_perm = 0, bad_ver = 0;
			unsigned int bad_rot = 0, bad_neg = 0, bad_absent = 0;

			if (o == MC_ORDER_HAM && !regular)
				continue;
			for (trial = 0; trial < 60; trial++) {
				u32 m = trial == 0 ? t.nodes :
					1 + rng_below(&rng, t.nodes < 300 ? t.nodes : 300);
				u32 *a = xmalloc(m * sizeof(u32));
				u32 *orig = xmalloc(m * sizeof(u32));
				unsigned char *mark = xcalloc(t.nodes, 1);
				const char *why = NULL;
				u32 i, j;
				int rc;

				rng_subset(&rng, t.nodes, m, a);
				memcpy(orig, a, m * sizeof(u32));
				rc = mc_chain_sort(&t, (enum mc_order)o, a, m, &why);
				for (i = 0; i < m; i++)
					mark[orig[i]] = 1;
				for (i = 0; i < m; i++)
					if (a[i] >= t.nodes || mark[a[i]] != 1)
						bad_perm++;
					else
						mark[a[i]] = 2;
				for (i = 0; i + 1 < m; i++)
					if (ref_cmp(&t, (enum mc_order)o, a[i], a[i + 1]) >= 0) {
						if (!bad_sort++)
							diag("shape %u order %u trial %u m=%u: %s !< %s at %u",
							     si, o, trial, m, nstr(&t, a[i]),
							     nstr(&t, a[i + 1]), i);
						break;
					}
				if (rc || mc_chain_verify(&t, (enum mc_order)o, a, m, NULL))
					bad_ver++;
				/* swap a random adjacent pair: must be rejected */
				if (m >= 2) {
					u32 x = rng_below(&rng, m - 1), y;

					y = a[x]; a[x] = a[x + 1]; a[x + 1] = y;
					if (mc_chain_verify(&t, (enum mc_order)o, a, m, NULL) >= 0)
						bad_neg++;
					y = a[x]; a[x] = a[x + 1]; a[x + 1] = y;
				}
				/* rotations for a few sources */
				for (j = 0; j < 8 && j < m; j++) {
					u32 s = rng_below(&rng, m);
					struct mc_chain c;

					memset(&c, 0, sizeof(c));
					rc = mc_chain_rotate(&t, (enum mc_order)o, a, m, a[s], &c);
					if (rc || c.len != m || mc_chain_at(&c, 0) != a[s]) {
						bad_rot++;
						continue;
					}
					for (i = 0; i < m; i++)
						if (mc_chain_at(&c, i) != a[(s + i) % m]) {
							bad_rot++;
							break;
						}
				}
				/* an absent node */
				if (m < t.nodes) {
					u32 x;

					do
						x = rng_below(&rng, t.nodes);
					while (mark[x]);
					{
						struct mc_chain c;

						if (mc_chain_rotate(&t, (enum mc_order)o, a, m, x, &c) != -ENOENT)
							bad_absent++;
					}
				}
				free(a);
				free(orig);
				free(mark);
			}
			is_int(bad_perm, 0, "shape %u %s: mc_chain_sort output is a permutation of its input",
			       si, o ? "ham" : "dim");
			is_int(bad_sort, 0, "shape %u %s: sorted strictly increasing (%s)",
			       si, o ? "ham" : "dim", o ? "labels Eq 5.2" : "<_d, highest dimension first");
			is_int(bad_ver, 0, "shape %u %s: mc_chain_verify accepts every sorted chain",
			       si, o ? "ham" : "dim");
			is_int(bad_neg, 0, "shape %u %s: mc_chain_verify rejects an adjacent swap",
			       si, o ? "ham" : "dim");
			is_int(bad_rot, 0, "shape %u %s: mc_chain_rotate: source first, end-around rotation",
			       si, o ? "ham" : "dim");
			is_int(bad_absent, 0, "shape %u %s: mc_chain_rotate -ENOENT for absent nodes",
			       si, o ? "ham" : "dim");
		}
	}
}

static int cmp_u32(const void *a, const void *b)
{
	u32 x = *(const u32 *)a, y = *(const u32 *)b;

	return x < y ? -1 : x > y;
}

static void test_sort_u32(void)
{
	struct rng rng = { 77 };
	unsigned int trial, bad = 0;

	for (trial = 0; trial < 300; trial++) {
		u32 n = trial < 5 ? trial : rng_below(&rng, 2000);
		u32 *a = xmalloc(n * sizeof(u32)), *b = xmalloc(n * sizeof(u32));
		u32 range = trial % 3 == 0 ? 10 : trial % 3 == 1 ? 0xffffffffu : 1000;
		u32 i;

		for (i = 0; i < n; i++)
			a[i] = b[i] = range == 0xffffffffu ? (u32)rng_next(&rng) :
				      rng_below(&rng, range);
		if (trial % 7 == 1)	/* descending input */
			for (i = 0; i < n; i++)
				a[i] = b[i] = n - i;
		mc_sort_u32(a, n);
		qsort(b, n, sizeof(u32), cmp_u32);
		if (memcmp(a, b, n * sizeof(u32)))
			bad++;
		free(a);
		free(b);
	}
	is_int(bad, 0, "mc_sort_u32 = qsort on 300 arrays (duplicates, extremes, descending)");
}

/* mc_piece_has against a linear search, for every node of the torus. */
static u32 piece_has_wrong(const struct mc_torus *t, enum mc_order o,
			   const u32 *run, u32 m)
{
	u32 id, x, wrong = 0;
	bool in;

	for (id = 0; id < 37; id++) {
		for (in = false, x = 0; x < m; x++)
			in |= run[x] == id;
		wrong += mc_piece_has(t, o, run, m, id) != in;
	}
	return wrong;
}

/*
 * mc_piece_verify: every run of a rotated chain, and what a takeover makes
 * of one (a node dropped), is a piece; repeats, a second wrap and nodes
 * outside the torus are not.
 */
static void test_piece(void)
{
	struct mc_torus t;
	u32 a[36], run[36], n, len, i, j, k, bad = 0, runs = 0, has_bad = 0;
	struct mc_chain c;
	u32 rep[8] = { 1, 2, 1, 2, 1, 2, 1, 2 };
	const char *why;

	mk_regular(&t, 2, 6, MC_LINKS_UNI);
	for (int o = MC_ORDER_DIM; o <= MC_ORDER_HAM; o++) {
		srand(7 + o);
		for (k = 0; k < 200; k++) {
			len = 1 + rand() % 36;
			for (i = 0, n = 0; i < 36 && n < len; i++)
				if (rand() % 36 < (int)len)
					a[n++] = i;
			if (!n || mc_chain_sort(&t, (enum mc_order)o, a, n, NULL) ||
			    mc_chain_rotate(&t, (enum mc_order)o, a, n,
					    a[rand() % n], &c))
				continue;
			for (i = 0; i < n; i++)
				for (j = i + 1; j <= n; j++) {
					u32 m = 0, skip = i + rand() % (j - i);

					for (u32 x = i; x < j; x++)
						if (x == i || x != skip)
							run[m++] = mc_chain_at(&c, x);
					runs++;
					bad += mc_piece_verify(&t, (enum mc_order)o,
							       run, m, NULL) != 0;
					has_bad += piece_has_wrong(&t, (enum mc_order)o,
								   run, m);
				}
		}
		is_int(bad, 0, "%s: mc_piece_verify accepts %u runs of rotated chains, with a node taken out",
		       o == MC_ORDER_DIM ? "dim" : "ham", runs);
		is_int(has_bad, 0, "%s: mc_piece_has answers as a linear search for every node of those runs",
		       o == MC_ORDER_DIM ? "dim" : "ham");
		bad = runs = has_bad = 0;
		why = NULL;
		ok(mc_piece_verify(&t, (enum mc_order)o, rep, 8, &why) < 0 && why,
		   "%s: mc_piece_verify rejects [1,2,1,2,...] with a reason",
		   o == MC_ORDER_DIM ? "dim" : "ham");
		ok(mc_piece_verify(&t, (enum mc_order)o, rep, 3, NULL) < 0,
		   "%s: mc_piece_verify rejects [1,2,1]", o == MC_ORDER_DIM ? "dim" : "ham");
		a[0] = 5; a[1] = 5;
		ok(mc_piece_verify(&t, (enum mc_order)o, a, 2, NULL) < 0,
		   "%s: mc_piece_verify rejects [5,5]", o == MC_ORDER_DIM ? "dim" : "ham");
		a[0] = 5; a[1] = 36;
		ok(mc_piece_verify(&t, (enum mc_order)o, a, 2, NULL) < 0,
		   "%s: mc_piece_verify rejects a node outside the torus",
		   o == MC_ORDER_DIM ? "dim" : "ham");
	}
	a[0] = 9; a[1] = 20; a[2] = 3; a[3] = 7;
	is_int(mc_piece_verify(&t, MC_ORDER_DIM, a, 4, NULL), 0,
	       "dim: 9,20,3,7 (one wrap, back below the first) is a piece");
	a[3] = 9;
	ok(mc_piece_verify(&t, MC_ORDER_DIM, a, 4, NULL) < 0,
	   "dim: 9,20,3,9 (wraps back to the first) is not");
	a[0] = 9; a[1] = 3; a[2] = 20; a[3] = 2;
	ok(mc_piece_verify(&t, MC_ORDER_DIM, a, 4, NULL) < 0,
	   "dim: 9,3,20,2 (two wraps) is not");
}

int main(void)
{
	test_examples();
	test_errors();
	test_piece();
	test_random();
	test_sort_u32();
	return done_testing();
}
