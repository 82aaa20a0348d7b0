// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Checkers for group-multicast rings on the n-cube: a cyclic order over
 * the members whose e-cube paths share no directed link, found from the
 * paths' arcs themselves; Corollary 1's count over every pair of paths;
 * and a brute-force count for one pair, to test Theorem 1 against.
 */
#include "ring.h"
#include "heapsort.h"

#define NONE MC_NO_NODE

MC_DEFINE_HEAPSORT(sort_u64, u64)

/* An arc as one number: node and dimension (< 32) side by side. */
#define ARC_ID(node, dim)	((node) << 5 | (dim))

int mc_ring_path_conflicts_slow(u32 n, u32 a, u32 b, u32 c, u32 d)
{
	struct mc_cube_arc p[MC_CUBE_MAX_DIM], q[MC_CUBE_MAX_DIM];
	int np = mc_cube_path(n, a, b, p, MC_CUBE_MAX_DIM);
	int nq = mc_cube_path(n, c, d, q, MC_CUBE_MAX_DIM);
	int i, j, shared = 0;

	if (np < 0 || nq < 0)
		return -EINVAL;
	for (i = 0; i < np; i++)
		for (j = 0; j < nq; j++)
			shared += p[i].node == q[j].node &&
				  p[i].dim == q[j].dim;
	return shared;
}

int mc_ring_conflicts(u32 n, const u32 *order, u32 m, u64 *count,
		      const char **why)
{
	u32 i, j, paths = m < 2 ? 0 : m;
	u64 sum = 0;
	int err = mc_cube_check_dim(n, why);

	*count = 0;
	if (err)
		return err;
	for (i = 0; i < m; i++) {
		if (order[i] >= mc_cube_nodes(n)) {
			if (why)
				*why = "ring holds a node outside the cube";
			return -EINVAL;
		}
	}
	for (i = 0; i < paths; i++)
		for (j = i + 1; j < paths; j++)
			sum += mc_popcount32(mc_ring_conflict_dims(n,
					order[i], order[(i + 1) % m],
					order[j], order[(j + 1) % m]));
	*count = sum;
	return 0;
}

u64 mc_ring_check_ws_words(u32 n, u32 m)
{
	return (u64)m * n + m + 1;
}

static int fail(struct mc_ring_check_result *res, const char *what, u32 a,
		u32 b, u32 node)
{
	res->what = what;
	res->path_a = a;
	res->path_b = b;
	res->node = node;
	res->arc.node = NONE;
	res->arc.dim = NONE;
	return -EINVAL;
}

/* @a[0..m-1] sorted, no repeats; the first repeat's value or NONE. */
static u32 sort_find_repeat(u32 *a, u32 m)
{
	u32 i;

	mc_sort_u32(a, m);
	for (i = 1; i < m; i++)
		if (a[i] == a[i - 1])
			return a[i];
	return NONE;
}

/* The nodes: in the cube, none twice, and (if @set) exactly the set. */
static int check_nodes(u32 n, const u32 *set, const u32 *order, u32 m,
		       u32 *a, u32 *b, struct mc_ring_check_result *res)
{
	u32 i, x;

	if (mc_cube_check_dim(n, NULL))
		return fail(res, "cube dimension out of range (1..20)", NONE,
			    NONE, NONE);
	if (m > mc_cube_nodes(n))
		return fail(res, "more ring nodes than nodes of the cube", NONE,
			    NONE, NONE);
	for (i = 0; i < m; i++) {
		if (order[i] >= mc_cube_nodes(n))
			return fail(res, "ring holds a node outside the cube",
				    NONE, NONE, order[i]);
		a[i] = order[i];
	}
	x = sort_find_repeat(a, m);
	if (x != NONE)
		return fail(res, "node repeated in the ring", NONE, NONE, x);
	if (!set)
		return 0;
	for (i = 0; i < m; i++) {
		if (set[i] >= mc_cube_nodes(n))
			return fail(res, "member set holds a node outside the cube",
				    NONE, NONE, set[i]);
		b[i] = set[i];
	}
	x = sort_find_repeat(b, m);
	if (x != NONE)
		return fail(res, "member repeated in the set", NONE, NONE, x);
	for (i = 0; i < m; i++) {
		if (b[i] < a[i])
			return fail(res, "a member is not on the ring", NONE,
				    NONE, b[i]);
		if (a[i] < b[i])
			return fail(res, "the ring holds a node not in the member set",
				    NONE, NONE, a[i]);
	}
	return 0;
}

/* Every path's arcs with its position, sorted by arc: their number. */
static u64 collect_arcs(u32 n, const u32 *order, u32 m, u64 *key)
{
	struct mc_cube_arc arc[MC_CUBE_MAX_DIM];
	u32 i, paths = m < 2 ? 0 : m;
	u64 k = 0;
	int h, j;

	for (i = 0; i < paths; i++) {
		h = mc_cube_path(n, order[i], order[(i + 1) % m], arc,
				 MC_CUBE_MAX_DIM);
		for (j = 0; j < h; j++)
			key[k++] = (u64)ARC_ID(arc[j].node, arc[j].dim) << 32 |
				   i;
	}
	sort_u64(key, k);
	return k;
}

/*
 * Each arc's paths come in ascending position, so the smallest pair of
 * an arc is its first two; the smallest pair overall is the smallest of
 * those (a pair sharing any arc appears in that arc's group).
 */
static void scan_arcs(const u64 *key, u64 nkey,
		      struct mc_ring_check_result *res)
{
	u64 lo, hi, cnt;
	u32 id, a, b, dim;
	bool better;

	for (lo = 0; lo < nkey; lo = hi) {
		id = key[lo] >> 32;
		for (hi = lo + 1; hi < nkey && key[hi] >> 32 == id; hi++)
			;
		cnt = hi - lo;
		if (cnt < 2)
			continue;
		res->conflicts += cnt * (cnt - 1) / 2;
		a = (u32)key[lo];
		b = (u32)key[lo + 1];
		dim = id & 31;
		better = res->path_a == NONE || a < res->path_a ||
			 (a == res->path_a && b < res->path_b) ||
			 (a == res->path_a && b == res->path_b &&
			  dim > res->arc.dim);
		if (better) {
			res->path_a = a;
			res->path_b = b;
			res->node = id >> 5;
			res->arc.node = id >> 5;
			res->arc.dim = dim;
		}
	}
}

int mc_ring_check(u32 n, const u32 *set, const u32 *order, u32 m, u64 *ws,
		  struct mc_ring_check_result *res)
{
	u32 *a = (u32 *)(ws + (u64)m * (n <= MC_CUBE_MAX_DIM ? n : 0));
	u64 nkey;
	int err;

	res->conflicts = 0;
	err = check_nodes(n, set, order, m, a, a + m, res);
	if (err)
		return err;
	fail(res, NULL, NONE, NONE, NONE);
	nkey = collect_arcs(n, order, m, ws);
	scan_arcs(ws, nkey, res);
	if (res->conflicts)
		res->what = "two ring paths share a link";
	return res->conflicts ? -EINVAL : 0;
}
