/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * Topology and addressing (Robinson (1994), Sec. 4.1): index <-> coordinates,
 * mc_torus_init validation, neighbours, minimal distances.
 */
#include "tutil.h"

static void test_init_fields(void)
{
	static const struct {
		unsigned int n;
		u16 k[MC_MAX_DIMS];
	} shapes[] = {
		{ 1, { 7 } },
		{ 2, { 16, 2 } },
		{ 3, { 3, 5, 2 } },
		{ 4, { 3, 5, 2, 7 } },
		{ 3, { 4, 4, 4 } },
		{ 8, { 2, 2, 2, 2, 2, 2, 2, 2 } },
		{ 8, { 2, 3, 2, 2, 3, 2, 2, 2 } },
		{ 2, { 64, 64 } },
	};
	unsigned int si;

	for (si = 0; si < sizeof(shapes) / sizeof(shapes[0]); si++) {
		unsigned int n = shapes[si].n, i, bad = 0, badc = 0;
		const u16 *k = shapes[si].k;
		struct mc_torus t;
		const char *why = NULL;
		u32 prod = 1, node;
		bool regular = true;
		int rc;

		memset(&t, 0xa5, sizeof(t));
		rc = mc_torus_init(&t, n, k, MC_LINKS_BI, &why);
		is_int(rc, 0, "init shape %u (n=%u) ok", si, n);
		if (rc)
			continue;
		for (i = 0; i < n; i++) {
			prod *= k[i];
			if (k[i] != k[0])
				regular = false;
		}
		is_int(t.n, n, "shape %u: n", si);
		is_int(t.nodes, prod, "shape %u: nodes = product of radices", si);
		is_int(t.links, MC_LINKS_BI, "shape %u: links", si);
		ok(t.regular == regular, "shape %u: regular flag is %d", si,
		   regular);
		for (i = 0, prod = 1; i < n; i++) {
			if (t.k[i] != k[i] || t.stride[i] != prod)
				bad++;
			prod *= k[i];
		}
		is_int(bad, 0, "shape %u: k[] kept, stride[i] = prod k[<i]", si);

		/* Round trip on every node (or a sample for big tori). */
		bad = badc = 0;
		for (node = 0; node < t.nodes;
		     node += t.nodes > 5000 ? 7 : 1) {
			u16 s[MC_MAX_DIMS], r[MC_MAX_DIMS];

			memset(s, 0xff, sizeof(s));
			mc_node_coords(&t, node, s);
			ref_coords(n, k, node, r);
			for (i = 0; i < n; i++)
				if (s[i] != r[i] || mc_sigma(&t, node, i) != r[i])
					badc++;
			if (mc_node_index(&t, r) != node)
				bad++;
		}
		is_int(badc, 0, "shape %u: mc_node_coords/mc_sigma match sigma_0-least-significant digits",
		       si);
		is_int(bad, 0, "shape %u: mc_node_index inverts mc_node_coords",
		       si);

		/* A coordinate out of range in any dimension. */
		bad = 0;
		for (i = 0; i < n; i++) {
			u16 s[MC_MAX_DIMS] = { 0 };

			s[i] = k[i];
			if (mc_node_index(&t, s) != MC_NO_NODE)
				bad++;
			s[i] = 0xffff;
			if (mc_node_index(&t, s) != MC_NO_NODE)
				bad++;
		}
		is_int(bad, 0, "shape %u: out-of-range coordinate gives MC_NO_NODE",
		       si);
	}

	/* The thesis' tuple convention: (8,4,5) in a 10-ary 3-cube is
	 * sigma2=8, sigma1=4, sigma0=5, i.e. index 845. */
	{
		struct mc_torus t;

		mk_regular(&t, 3, 10, MC_LINKS_UNI);
		is_int(T3(&t, 8, 4, 5), 845, "tuple (8,4,5) is index 845 in 10x10x10");
		is_int(mc_sigma(&t, 845, 2), 8, "sigma_2(845) = 8");
		is_int(mc_sigma(&t, 845, 0), 5, "sigma_0(845) = 5");
	}
}

static void test_init_errors(void)
{
	struct mc_torus t;
	const char *why;
	u16 k[MC_MAX_DIMS + 1];
	unsigned int i;
	int rc;

	for (i = 0; i <= MC_MAX_DIMS; i++)
		k[i] = 2;

	why = NULL;
	rc = mc_torus_init(&t, 0, k, MC_LINKS_UNI, &why);
	is_int(rc, -EINVAL, "n = 0 rejected with -EINVAL");
	ok(why != NULL, "n = 0: reason given (%s)", why ? why : "NULL");

	why = NULL;
	rc = mc_torus_init(&t, MC_MAX_DIMS + 1, k, MC_LINKS_UNI, &why);
	ok(rc == -EINVAL || rc == -E2BIG, "n = 9 rejected (-EINVAL/-E2BIG), got %d", rc);
	ok(why != NULL, "n = 9: reason given (%s)", why ? why : "NULL");

	rc = mc_torus_init(&t, MC_MAX_DIMS, k, MC_LINKS_UNI, NULL);
	is_int(rc, 0, "n = 8 of radix 2 accepted (why may be NULL)");

	for (i = 0; i < 3; i++) {
		u16 kk[3] = { 4, 5, 6 };

		kk[i] = 1;
		why = NULL;
		rc = mc_torus_init(&t, 3, kk, MC_LINKS_UNI, &why);
		is_int(rc, -EINVAL, "k[%u] = 1 rejected with -EINVAL", i);
		ok(why != NULL, "k[%u] = 1: reason given", i);
		kk[i] = 0;
		rc = mc_torus_init(&t, 3, kk, MC_LINKS_UNI, NULL);
		is_int(rc, -EINVAL, "k[%u] = 0 rejected with -EINVAL (why NULL ok)", i);
	}

	{
		u16 kk[2] = { 4, 4 };

		why = NULL;
		rc = mc_torus_init(&t, 2, kk, (enum mc_links)7, &why);
		is_int(rc, -EINVAL, "unknown links value rejected with -EINVAL");
	}

	/* Too many nodes, including products that wrap a u32 or a u64. */
	{
		static const struct {
			unsigned int n;
			u16 k[MC_MAX_DIMS];
			const char *what;
		} big[] = {
			{ 3, { 257, 256, 256 }, "257*256*256 > 2^24" },
			{ 2, { 4097, 4096 }, "4097*4096 > 2^24" },
			{ 4, { 256, 256, 256, 256 }, "256^4 = 2^32 (wraps u32 to 0)" },
			{ 8, { 16, 16, 16, 16, 16, 16, 16, 16 }, "16^8 = 2^32 (wraps u32)" },
			{ 8, { 65535, 65535, 65535, 65535, 65535, 65535, 65535, 65535 },
			  "65535^8 (wraps u64)" },
			{ 3, { 2, 65535, 65535 }, "2*65535^2 (> 2^32)" },
			{ 2, { 65535, 65535 }, "65535^2 (< 2^32, > 2^24)" },
			{ 8, { 8, 8, 8, 8, 8, 8, 8, 9 }, "8^7*9 > 2^24" },
		};

		for (i = 0; i < sizeof(big) / sizeof(big[0]); i++) {
			why = NULL;
			rc = mc_torus_init(&t, big[i].n, big[i].k, MC_LINKS_UNI,
					   &why);
			is_int(rc, -E2BIG, "%s rejected with -E2BIG", big[i].what);
			ok(why != NULL, "%s: reason given", big[i].what);
		}
	}

	/* The largest allowed torus: exactly MC_MAX_NODES nodes. */
	{
		u16 kk[3] = { 256, 256, 256 };

		rc = mc_torus_init(&t, 3, kk, MC_LINKS_BI, NULL);
		is_int(rc, 0, "256^3 = MC_MAX_NODES nodes accepted");
		if (!rc)
			is_int(t.nodes, MC_MAX_NODES, "256^3: nodes");
	}
	{
		u16 kk[8] = { 8, 8, 8, 8, 8, 8, 8, 8 };

		rc = mc_torus_init(&t, 8, kk, MC_LINKS_UNI, NULL);
		is_int(rc, 0, "8^8 = 2^24 nodes accepted");
	}
}

static void test_neighbours(void)
{
	static const struct {
		unsigned int n;
		u16 k[4];
	} shapes[] = {
		{ 1, { 5 } }, { 2, { 2, 3 } }, { 3, { 3, 5, 2 } },
		{ 4, { 3, 4, 2, 5 } }, { 2, { 6, 6 } },
	};
	unsigned int si;

	for (si = 0; si < sizeof(shapes) / sizeof(shapes[0]); si++) {
		struct mc_torus tb, tu;
		unsigned int bad = 0, d;
		u32 node;

		mk_torus(&tb, shapes[si].n, shapes[si].k, MC_LINKS_BI);
		mk_torus(&tu, shapes[si].n, shapes[si].k, MC_LINKS_UNI);
		for (node = 0; node < tb.nodes; node++)
			for (d = 0; d < tb.n; d++) {
				if (mc_neighbour(&tb, node, d, +1) !=
				    ref_neigh(&tb, node, d, +1))
					bad++;
				if (mc_neighbour(&tb, node, d, -1) !=
				    ref_neigh(&tb, node, d, -1))
					bad++;
				if (mc_neighbour(&tu, node, d, +1) !=
				    ref_neigh(&tu, node, d, +1))
					bad++;
			}
		is_int(bad, 0, "shape %u: neighbours (+1 and -1 mod k_d, other coordinates kept)",
		       si);
	}

	{
		struct mc_torus t;

		mk_regular(&t, 2, 6, MC_LINKS_UNI);
		is_int(mc_neighbour(&t, T2(&t, 5, 3), 1, +1), T2(&t, 0, 3),
		       "6x6: (5,3)^1 = (0,3) (wraparound in dimension 1)");
		is_int(mc_neighbour(&t, T2(&t, 5, 5), 0, +1), T2(&t, 5, 0),
		       "6x6: (5,5)^0 = (5,0)");
	}
}

static void test_distances(void)
{
	struct mc_torus tu, tb;
	unsigned int si;

	/* Fig 4.1: k = 4, (0,2) -> (3,1): 6 links uni, 2 bi. */
	mk_regular(&tu, 2, 4, MC_LINKS_UNI);
	mk_regular(&tb, 2, 4, MC_LINKS_BI);
	is_int(mc_distance(&tu, T2(&tu, 0, 2), T2(&tu, 3, 1)), 6,
	       "Fig 4.1: (0,2)->(3,1) is 6 links in a 4x4 uni torus");
	is_int(mc_distance(&tb, T2(&tb, 0, 2), T2(&tb, 3, 1)), 2,
	       "Fig 4.1: (0,2)->(3,1) is 2 links in a 4x4 bi torus");
	is_int(mc_distance(&tu, T2(&tu, 3, 1), T2(&tu, 0, 2)), 2,
	       "4x4 uni: (3,1)->(0,2) is 2 links (not symmetric)");
	is_int(mc_distance(&tu, T2(&tu, 0, 0), T2(&tu, 2, 1)), 3,
	       "4x4 uni: (0,0)->(2,1) is 3 links");
	is_int(mc_distance(&tb, T2(&tb, 0, 0), T2(&tb, 2, 2)), 4,
	       "4x4 bi: (0,0)->(2,2) is 4 links (ties at k/2)");

	{
		static const struct {
			unsigned int n;
			u16 k[4];
		} shapes[] = {
			{ 1, { 7 } }, { 1, { 8 } }, { 2, { 5, 6 } },
			{ 3, { 3, 5, 2 } }, { 3, { 4, 4, 4 } },
			{ 4, { 2, 3, 4, 3 } },
		};

		for (si = 0; si < sizeof(shapes) / sizeof(shapes[0]); si++) {
			unsigned int bad_u = 0, bad_b = 0, bad_sym = 0;
			u32 a, b;

			mk_torus(&tu, shapes[si].n, shapes[si].k, MC_LINKS_UNI);
			mk_torus(&tb, shapes[si].n, shapes[si].k, MC_LINKS_BI);
			for (a = 0; a < tu.nodes; a++)
				for (b = 0; b < tu.nodes; b++) {
					u32 du = mc_distance(&tu, a, b);
					u32 db = mc_distance(&tb, a, b);

					if (du != ref_dist(&tu, a, b, false)) {
						if (!bad_u)
							diag("uni %s->%s: got %u want %u",
							     nstr(&tu, a), nstr(&tu, b), du,
							     ref_dist(&tu, a, b, false));
						bad_u++;
					}
					if (db != ref_dist(&tb, a, b, true)) {
						if (!bad_b)
							diag("bi %s->%s: got %u want %u",
							     nstr(&tb, a), nstr(&tb, b), db,
							     ref_dist(&tb, a, b, true));
						bad_b++;
					}
					if (db != mc_distance(&tb, b, a))
						bad_sym++;
				}
			is_int(bad_u, 0, "shape %u: uni distance = sum of (b-a) mod k_d", si);
			is_int(bad_b, 0, "shape %u: bi distance = sum of min(up, down)", si);
			is_int(bad_sym, 0, "shape %u: bi distance symmetric", si);
		}
	}
}

int main(void)
{
	test_init_fields();
	test_init_errors();
	test_neighbours();
	test_distances();
	return done_testing();
}
