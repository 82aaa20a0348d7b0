// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The binary n-cube of Robinson (1994), chapter 3: E-cube paths and the
 * orders its multicasts sort by (dimension-ordered chains, cube order,
 * WeightedSort).
 */
#include "cube.h"

static int fail(const char **why, const char *msg)
{
	if (why)
		*why = msg;
	return -EINVAL;
}

int mc_cube_check_dim(u32 n, const char **why)
{
	if (n < 1 || n > MC_CUBE_MAX_DIM)
		return fail(why, "cube dimension out of range (1..20)");
	return 0;
}

int mc_cube_path(u32 n, u32 u, u32 v, struct mc_cube_arc *arc, u32 max)
{
	u32 hops = 0, d;

	if (n < 1 || n > MC_CUBE_MAX_DIM || u >= mc_cube_nodes(n) ||
	    v >= mc_cube_nodes(n))
		return -EINVAL;
	if (mc_cube_hops(u, v) > max)
		return -ENOSPC;
	while (u != v) {
		d = mc_cube_delta(u, v);
		arc[hops].node = u;
		arc[hops++].dim = d;
		u ^= 1u << d;
	}
	return hops;
}

/*
 * Walking the chain, the first bit in which a node differs from the one
 * before opens a new block at that level and below.  The new block at
 * level h must be fresh: the block one level up has two halves, so it is
 * fresh if and only if that level has not switched yet since the block
 * one level up opened.  start[b]: where the current block of level b
 * (nodes agreeing on bits b and up) began.
 */
bool mc_cube_is_cube_ordered(u32 n, const u32 *chain, u32 len)
{
	u32 start[MC_CUBE_MAX_DIM + 1] = { 0 };
	u32 i, h, b;

	if (n < 1 || n > MC_CUBE_MAX_DIM)
		return false;
	for (i = 0; i < len; i++) {
		if (chain[i] >= mc_cube_nodes(n))
			return false;
		if (i == 0)
			continue;
		if (chain[i] == chain[i - 1])
			return false;
		h = mc_cube_delta(chain[i - 1], chain[i]);
		if (start[h] != start[h + 1])
			return false;
		for (b = 0; b <= h; b++)
			start[b] = i;
	}
	return true;
}

u32 mc_cube_center(const u32 *chain, u32 first, u32 last, u32 ns)
{
	u32 lo = first + 1, hi = last + 1, mid, bit = 1u << (ns - 1);

	/* Cube order: the first half's members all come first. */
	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if ((chain[mid] ^ chain[first]) & bit)
			hi = mid;
		else
			lo = mid + 1;
	}
	return lo;
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

/* D[first..last] = D[center..last], D[first..center-1]: three reversals. */
static void swap_halves(u32 *d, u32 first, u32 center, u32 last)
{
	reverse(d, first, center - 1);
	reverse(d, center, last);
	reverse(d, first, last);
}

/* Fig 3.8; @first is the global index, so the source's piece never moves. */
static void weighted_sort(u32 *d, u32 first, u32 last, u32 ns)
{
	u32 center;

	if (last - first < 2 || ns == 0)
		return;
	center = mc_cube_center(d, first, last, ns);
	weighted_sort(d, first, center - 1, ns - 1);
	if (center <= last)
		weighted_sort(d, center, last, ns - 1);
	if (first != 0 && center - first < last - center + 1)
		swap_halves(d, first, center, last);
}

void mc_cube_weighted_sort(u32 n, u32 *chain, u32 len)
{
	if (len > 2)
		weighted_sort(chain, 0, len - 1, n);
}

int mc_cube_chain_order(u32 n, enum mc_cube_algo algo, u32 *chain, u32 m,
			const char **why)
{
	u32 i, src = chain[0];
	int err = mc_cube_check_dim(n, why);

	if (err)
		return err;
	if (src >= mc_cube_nodes(n))
		return fail(why, "source is not a node of the cube");
	if (m > mc_cube_nodes(n))
		return fail(why, "more destinations than other nodes");
	for (i = 1; i < m; i++) {
		if (chain[i] >= mc_cube_nodes(n))
			return fail(why, "destination is not a node of the cube");
		if (chain[i] == src)
			return fail(why, "the source is among the destinations");
		chain[i] ^= src;	/* relative: the source is 0 */
	}
	mc_sort_u32(chain + 1, m - 1);
	for (i = 2; i < m; i++) {
		if (chain[i] == chain[i - 1])
			return fail(why, "destination repeated");
	}
	for (i = 1; i < m; i++)
		chain[i] ^= src;
	if (algo == MC_CUBE_WSORT)
		mc_cube_weighted_sort(n, chain, m);
	return 0;
}

int mc_cube_order(u32 n, enum mc_cube_algo algo, u32 src, const u32 *dst,
		  u32 ndst, u32 *chain, const char **why)
{
	u32 i;

	chain[0] = src;
	for (i = 0; i < ndst; i++)
		chain[i + 1] = dst[i];
	return mc_cube_chain_order(n, algo, chain, ndst + 1, why);
}

int mc_cube_piece_verify(u32 n, const u32 *nodes, u32 len, const char **why)
{
	if (!len)
		return fail(why, "empty piece");
	if (!mc_cube_is_cube_ordered(n, nodes, len))
		return fail(why, "not a cube-ordered piece: a node outside the cube, repeated or out of order");
	return 0;
}

bool mc_cube_piece_has(const u32 *nodes, u32 len, u32 id)
{
	u32 i;

	for (i = 0; i < len; i++)
		if (nodes[i] == id)
			return true;
	return false;
}
