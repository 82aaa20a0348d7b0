// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Dimension-ordered unicast routes for recursion-based broadcast: mesh
 * routes (no wrap), the torus' BTR from routing.h, and the notes' negative
 * control (a torus tie that wraps).
 */
#include "rb.h"
#include "routing.h"

u32 mc_rb_route_max(const struct mc_rb *rb)
{
	u32 h = 0, i;

	for (i = 0; i < rb->d; i++)
		h += (1u << rb->lg[i]) - 1;
	return h;
}

static u32 coord(const struct mc_rb *rb, u32 node, u32 dim)
{
	return node >> rb->off[dim] & ((1u << rb->lg[dim]) - 1);
}

/* Minimal on a ring of @k; a tie at k/2 wraps only for TIE_PLUS. */
static int ring_dir(enum mc_rb_route r, u32 k, u32 a, u32 b)
{
	u32 fwd = (b + k - a) % k;

	if (2 * fwd < k)
		return 1;
	if (2 * fwd > k)
		return -1;
	if (r == MC_RB_ROUTE_TIE_PLUS)
		return 1;
	return b > a ? 1 : -1;	/* a tie does not wrap */
}

static u32 step_to(const struct mc_rb *rb, u32 node, u32 dim, int dir)
{
	u32 k = 1u << rb->lg[dim], c = coord(rb, node, dim);
	u32 nc = (c + k + (u32)dir) % k;

	return (node & ~((k - 1) << rb->off[dim])) | nc << rb->off[dim];
}

/* The torus' own routing function: BTR of routing.h. */
static int route_btr(const struct mc_rb *rb, u32 from, u32 to, u32 *chan,
		     u32 max)
{
	struct mc_torus t;
	struct mc_hop hop;
	u16 k[MC_MAX_DIMS];
	u32 n = 0, i;
	u8 alpha = MC_VC_P;

	for (i = 0; i < rb->d; i++)
		k[i] = 1u << rb->lg[i];
	if (mc_torus_init(&t, rb->d, k, MC_LINKS_BI, NULL))
		return -EINVAL;
	while (mc_route_next(&t, MC_ROUTE_BTR, from, to, &alpha, &hop)) {
		if (n == max)
			return -ENOSPC;
		chan[n++] = MC_RB_CHAN(rb, hop.from, hop.dim, hop.dir);
		from = hop.to;
	}
	return n;
}

int mc_rb_route(const struct mc_rb *rb, enum mc_rb_route r, u32 from, u32 to,
		u32 *chan, u32 max)
{
	u32 n = 0, i, dim, a, b;
	int dir;

	if (from >= rb->nodes || to >= rb->nodes || r > MC_RB_ROUTE_TIE_PLUS)
		return -EINVAL;
	if (r == MC_RB_ROUTE_TIE_PLUS && rb->mesh)
		return -EINVAL;
	if (r == MC_RB_ROUTE_DOR && !rb->mesh)
		return route_btr(rb, from, to, chan, max);
	for (i = 0; i < rb->d; i++) {
		dim = r == MC_RB_ROUTE_XY ? i : rb->d - 1 - i;
		b = coord(rb, to, dim);
		while ((a = coord(rb, from, dim)) != b) {
			dir = rb->mesh ? (b > a ? 1 : -1) :
			      ring_dir(r, 1u << rb->lg[dim], a, b);
			if (n == max)
				return -ENOSPC;
			chan[n++] = MC_RB_CHAN(rb, from, dim, dir);
			from = step_to(rb, from, dim, dir);
		}
	}
	return n;
}
MC_EXPORT(mc_rb_route);
