// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * UTR, BTR and UTPR routing decisions, channel existence, Hamiltonian
 * labels and boundaries.
 */
#include "routing.h"

/* Highest dimension in which @a and @b differ, or -1 if equal. */
static int highest_diff(const struct mc_torus *t, u32 a, u32 b)
{
	int d;

	for (d = t->n - 1; d >= 0; d--)
		if (mc_sigma(t, a, d) != mc_sigma(t, b, d))
			return d;
	return -1;
}

/* Expression 4.1. */
static void route_utr(const struct mc_torus *t, u32 cur, u32 dst, int d,
		      struct mc_hop *hop)
{
	hop->dir = 1;
	hop->vc = mc_sigma(t, dst, d) < mc_sigma(t, cur, d) ? MC_VC_P : MC_VC_H;
}

/* Expression 4.2: |delta| > k/2 wraps on p; a tie at k/2 does not wrap. */
static void route_btr(const struct mc_torus *t, u32 cur, u32 dst, int d,
		      struct mc_hop *hop)
{
	s32 delta = (s32)mc_sigma(t, dst, d) - (s32)mc_sigma(t, cur, d);
	s32 mag = delta < 0 ? -delta : delta;

	if (2 * mag > (s32)t->k[d]) {
		hop->vc = MC_VC_P;
		hop->dir = delta < 0 ? 1 : -1;
	} else if (delta < 0) {
		hop->vc = MC_VC_L;
		hop->dir = -1;
	} else {
		hop->vc = MC_VC_H;
		hop->dir = 1;
	}
}

/* Fig 5.11: lowest useful non-boundary dimension, else highest useful. */
static int route_utpr(const struct mc_torus *t, u32 cur, u32 dst, u8 *alpha,
		      struct mc_hop *hop)
{
	int d = -1;
	unsigned int i;

	hop->dir = 1;
	for (i = 0; i < t->n; i++) {
		if (mc_sigma(t, cur, i) == mc_sigma(t, dst, i))
			continue;
		if (!mc_is_boundary(t, cur, i)) {
			hop->vc = *alpha;
			return i;
		}
		d = i;
	}
	hop->vc = MC_VC_H;
	*alpha = MC_VC_H;
	return d;
}

bool mc_route_next(const struct mc_torus *t, enum mc_routing r, u32 cur,
		   u32 dst, u8 *alpha, struct mc_hop *hop)
{
	int d;

	if (cur == dst)
		return false;
	if (r == MC_ROUTE_UTPR) {
		d = route_utpr(t, cur, dst, alpha, hop);
	} else {
		d = highest_diff(t, cur, dst);
		if (r == MC_ROUTE_BTR)
			route_btr(t, cur, dst, d, hop);
		else
			route_utr(t, cur, dst, d, hop);
		*alpha = hop->vc;
	}
	hop->from = cur;
	hop->dim = d;
	hop->to = mc_neighbour(t, cur, d, hop->dir);
	return true;
}
MC_EXPORT(mc_route_next);

bool mc_channel_exists(const struct mc_torus *t, enum mc_routing r, u32 node,
		       unsigned int dim, int dir, unsigned int vc)
{
	u32 k, s;

	if (dim >= t->n || (dir != 1 && dir != -1))
		return false;
	k = t->k[dim];
	s = mc_sigma(t, node, dim);
	switch (r) {
	case MC_ROUTE_UTR:	/* Sec. 4.2.1 */
		if (dir != 1)
			return false;
		if (vc == MC_VC_H)
			return s <= k - 2;
		return vc == MC_VC_P && s >= 1;
	case MC_ROUTE_BTR:	/* Sec. 4.2.2, rules 1-4 */
		if (vc == MC_VC_L)
			return dir == -1 && s >= 1;
		if (vc == MC_VC_H)
			return dir == 1 && s <= k - 2;
		if (vc != MC_VC_P)
			return false;
		if (dir == 1)
			return s >= (k - 1 + 1) / 2 + 1;
		return s + 1 <= (k - 1) / 2;
	case MC_ROUTE_UTPR:	/* Sec. 5.3.2: no p-channel on a boundary */
		if (dir != 1)
			return false;
		if (vc == MC_VC_H)
			return true;
		return vc == MC_VC_P && !mc_is_boundary(t, node, dim);
	}
	return false;
}

/*
 * Eq 5.2 on a regular torus: digit i of the label is the sum of
 * sigma_j for j >= i, mod k.
 */
u32 mc_hlabel(const struct mc_torus *t, u32 node)
{
	u32 k = t->k[0], sum = 0, label = 0;
	int i;

	for (i = t->n - 1; i >= 0; i--) {
		sum = (sum + mc_sigma(t, node, i)) % k;
		label += sum * t->stride[i];
	}
	return label;
}
MC_EXPORT(mc_hlabel);

u32 mc_hlabel_node(const struct mc_torus *t, u32 label)
{
	u32 k = t->k[0], above = 0, node = 0;
	int i;

	for (i = t->n - 1; i >= 0; i--) {
		u32 digit = (label / t->stride[i]) % k;

		node += ((digit + k - above) % k) * t->stride[i];
		above = digit;
	}
	return node;
}

bool mc_is_boundary(const struct mc_torus *t, u32 node, unsigned int d)
{
	u32 k = t->k[0], sum = 0;
	unsigned int i;

	for (i = d; i < t->n; i++)
		sum += mc_sigma(t, node, i);
	return sum % k == k - 1;
}
MC_EXPORT(mc_is_boundary);
