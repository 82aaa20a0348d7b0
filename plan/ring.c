// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The group-multicast rings of Lin and Chen (1996) on the binary n-cube:
 * Theorem 1's conflict count, the bottom-up merge that builds a ring of
 * pairwise link-disjoint e-cube paths, the ring as an order, the pipelined
 * multicast's counts and the RGC ring it is compared with.
 */
#include "ring.h"

static int fail(const char **why, const char *msg)
{
	if (why)
		*why = msg;
	return -EINVAL;
}

int mc_ring_path_conflicts(u32 n, u32 a, u32 b, u32 c, u32 d)
{
	if (mc_cube_check_dim(n, NULL) || ((a | b | c | d) & ~mc_ring_full(n)))
		return -EINVAL;
	return mc_popcount32(mc_ring_conflict_dims(n, a, b, c, d));
}

/* Sorted copy of @set into @out, checked: 0 or -EINVAL with *@why. */
static int sorted_members(u32 n, const u32 *set, u32 m, u32 *out,
			  const char **why)
{
	u32 i;
	int err = mc_cube_check_dim(n, why);

	if (err)
		return err;
	if (m > mc_cube_nodes(n))
		return fail(why, "more members than nodes of the cube");
	for (i = 0; i < m; i++) {
		if (set[i] >= mc_cube_nodes(n))
			return fail(why, "member is not a node of the cube");
		out[i] = set[i];
	}
	mc_sort_u32(out, m);
	for (i = 1; i < m; i++)
		if (out[i] == out[i - 1])
			return fail(why, "member repeated");
	return 0;
}

/*
 * The merge of the k-subcube addr[lo..hi), whose upper half (bit k - 1
 * set) starts at @mid, both halves non-empty: the pair with the largest
 * ctz, the first found in ascending (A, C) order (strict '>').
 */
static void merge(struct mc_ring *r, u32 k, u32 lo, u32 mid, u32 hi)
{
	struct mc_ring_merge *x;
	u32 a, c, z, best_a = lo, best_c = mid, best = 0, t;
	bool found = false;

	for (a = lo; a < mid; a++) {
		for (c = mid; c < hi; c++) {
			z = __builtin_ctz(r->addr[a] ^ r->addr[c]);
			if (!found || z > best) {
				found = true;
				best = z;
				best_a = a;
				best_c = c;
			}
		}
	}
	r->pairs += (u64)(mid - lo) * (hi - mid);
	if (r->merge) {
		x = &r->merge[r->nmerge];
		x->k = k;
		x->a = r->addr[best_a];
		x->c = r->addr[best_c];
		x->old_succ_a = r->addr[r->succ[best_a]];
		x->old_succ_c = r->addr[r->succ[best_c]];
		x->asterisk = r->n - best;
	}
	r->nmerge++;
	t = r->succ[best_a];
	r->succ[best_a] = r->succ[best_c];
	r->succ[best_c] = t;
}

/*
 * Level by level as the paper's loop: in iteration k the members with
 * equal addr >> k are a k-subcube, contiguous in the sorted array, and
 * its lower half comes first.
 */
int mc_ring_build(struct mc_ring *r, u32 n, const u32 *set, u32 m,
		  const char **why)
{
	u32 k, lo, mid, hi, i;
	int err;

	r->n = n;
	r->m = 0;
	r->nmerge = 0;
	r->pairs = 0;
	err = sorted_members(n, set, m, r->addr, why);
	if (err)
		return err;
	r->m = m;
	for (i = 0; i < m; i++)
		r->succ[i] = i;
	for (k = 1; k <= n; k++) {
		for (lo = 0; lo < m; lo = hi) {
			for (hi = lo + 1; hi < m &&
			     r->addr[hi] >> k == r->addr[lo] >> k; hi++)
				;
			for (mid = lo; mid < hi &&
			     !(r->addr[mid] & (1u << (k - 1))); mid++)
				;
			if (mid > lo && mid < hi)
				merge(r, k, lo, mid, hi);
		}
	}
	return 0;
}

int mc_ring_order(const struct mc_ring *r, u32 *order)
{
	u32 i, at = 0;

	for (i = 0; i < r->m; i++) {
		if (at >= r->m || (i > 0 && at == 0))
			return -EINVAL;
		order[i] = r->addr[at];
		at = r->succ[at];
	}
	return r->m && at != 0 ? -EINVAL : 0;
}

void mc_ring_stats(const u32 *order, u32 m, struct mc_ring_stats *st)
{
	u32 i, h;

	st->m = m;
	st->paths = m < 2 ? 0 : m;
	st->hops = 0;
	st->max_hop = 0;
	for (i = 0; i < st->paths; i++) {
		h = mc_cube_hops(order[i], order[(i + 1) % m]);
		st->hops += h;
		if (h > st->max_hop)
			st->max_hop = h;
	}
	st->rounds = m ? m - 1 : 0;
	st->transfers = (u64)m * st->rounds;
	st->link_transfers = st->hops * st->rounds;
}

static void reverse(u32 *a, u32 lo, u32 hi)
{
	u32 t;

	while (lo < hi) {
		t = a[lo];
		a[lo++] = a[hi];
		a[hi--] = t;
	}
}

int mc_ring_rgc_order(u32 n, const u32 *set, u32 m, u32 *order,
		      const char **why)
{
	u32 i, cut, first = 0;
	int err = sorted_members(n, set, m, order, why);

	if (err || m == 0)
		return err;
	/* order[0] is the smallest address: its Gray rank is where to cut */
	cut = mc_ring_gray_rank(order[0]);
	for (i = 0; i < m; i++)
		order[i] = mc_ring_gray_rank(order[i]);
	mc_sort_u32(order, m);
	for (i = 0; i < m; i++) {
		if (order[i] == cut)
			first = i;
		order[i] = mc_ring_gray(order[i]);
	}
	/* rotate left by first: three reversals */
	if (first) {
		reverse(order, 0, first - 1);
		reverse(order, first, m - 1);
		reverse(order, 0, m - 1);
	}
	return 0;
}

int mc_ring_rgc_path(u32 n, u32 u, u32 v, struct mc_cube_arc *arc, u32 max)
{
	u32 g, hops = 0, next;

	if (mc_cube_check_dim(n, NULL) || u >= mc_cube_nodes(n) ||
	    v >= mc_cube_nodes(n))
		return -EINVAL;
	if (mc_ring_rgc_gap(n, u, v) > max)
		return -ENOSPC;
	for (g = mc_ring_gray_rank(u); u != v; u = next) {
		g = (g + 1) & mc_ring_full(n);
		next = mc_ring_gray(g);
		arc[hops].node = u;
		arc[hops++].dim = mc_cube_delta(u, next);
	}
	return hops;
}
