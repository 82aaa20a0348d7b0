/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * Reference implementations written in the tests from the thesis'
 * formulas, to hold the planning core against: Eq 5.2 labels, Def 5.1
 * boundaries, Expression 4.1 / 4.2 (UTR / BTR), Fig 5.11 (UTPR), the
 * channel sets of Sec. 4.2.1, 4.2.2 and 5.3.2.
 */
#ifndef MC_TREF_H
#define MC_TREF_H

#include "tutil.h"

static inline u32 ref_label(const struct mc_torus *t, u32 u)
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

/* Def 5.1 with our own labels. */
static inline bool ref_boundary(const struct mc_torus *t, u32 u, unsigned int d)
{
	return ref_label(t, u) > ref_label(t, ref_neigh(t, u, d, +1));
}

struct rhop {
	unsigned int dim;
	int dir;
	unsigned int vc;
	u32 to;
};

/* Expression 4.1 / 4.2 (highest differing dimension first). */
static inline bool ref_unicast_next(const struct mc_torus *t, bool bi, u32 cur,
			     u32 dst, struct rhop *h)
{
	u16 a[MC_MAX_DIMS], b[MC_MAX_DIMS];
	int d, D, k;

	ref_coords(t->n, t->k, cur, a);
	ref_coords(t->n, t->k, dst, b);
	for (d = (int)t->n - 1; d >= 0 && a[d] == b[d]; d--)
		;
	if (d < 0)
		return false;
	D = (int)b[d] - (int)a[d];
	k = t->k[d];
	h->dim = (unsigned int)d;
	if (!bi) {
		h->vc = D < 0 ? MC_VC_P : MC_VC_H;
		h->dir = +1;
	} else if (2 * abs(D) > k) {
		h->vc = MC_VC_P;
		h->dir = D < 0 ? +1 : -1;
	} else if (D < 0) {
		h->vc = MC_VC_L;
		h->dir = -1;
	} else {
		h->vc = MC_VC_H;
		h->dir = +1;
	}
	h->to = ref_neigh(t, cur, (unsigned int)d, h->dir);
	return true;
}

/* Fig 5.11. */
static inline bool ref_utpr_next(const struct mc_torus *t, u32 cur, u32 dst,
			  unsigned int *alpha, struct rhop *h)
{
	u16 a[MC_MAX_DIMS], b[MC_MAX_DIMS];
	unsigned int i;
	int d = -1;

	ref_coords(t->n, t->k, cur, a);
	ref_coords(t->n, t->k, dst, b);
	for (i = 0; i < t->n; i++) {
		if (a[i] == b[i])
			continue;
		if (!ref_boundary(t, cur, i)) {
			h->dim = i;
			h->vc = *alpha;
			goto out;
		}
		d = (int)i;
	}
	if (d < 0)
		return false;
	h->dim = (unsigned int)d;
	h->vc = MC_VC_H;
	*alpha = MC_VC_H;
out:
	h->dir = +1;
	h->to = ref_neigh(t, cur, h->dim, +1);
	return true;
}

/* The channel sets of Sec. 4.2.1, 4.2.2 and 5.3.2. */
static inline bool ref_exists(const struct mc_torus *t, enum mc_routing r, u32 node,
		       unsigned int dim, int dir, unsigned int vc)
{
	int s = (int)mc_sigma(t, node, dim), k = t->k[dim];

	switch (r) {
	case MC_ROUTE_UTR:
		if (dir != +1)
			return false;
		if (vc == MC_VC_H)
			return s <= k - 2;
		if (vc == MC_VC_P)
			return s >= 1;
		return false;
	case MC_ROUTE_BTR:
		if (vc == MC_VC_L)
			return dir == -1 && s >= 1;
		if (vc == MC_VC_H)
			return dir == +1 && s <= k - 2;
		if (vc == MC_VC_P && dir == +1)
			return s >= (k - 1 + 1) / 2 + 1 && s <= k - 1;
		if (vc == MC_VC_P && dir == -1)
			return s <= (k - 1) / 2 - 1;
		return false;
	case MC_ROUTE_UTPR:
		if (dir != +1)
			return false;
		if (vc == MC_VC_H)
			return true;
		if (vc == MC_VC_P)
			return !ref_boundary(t, node, dim);
		return false;
	}
	return false;
}

static inline const char *hstr(const struct mc_torus *t, u32 from, unsigned int dim,
			int dir, unsigned int vc)
{
	static char buf[4][128];
	static unsigned int slot;
	char *b = buf[slot++ & 3];

	snprintf(b, 128, "c%u%c%s%s", dim, mc_vc_letter(vc), nstr(t, from),
		 dir < 0 ? "[-]" : "");
	return b;
}

#endif /* MC_TREF_H */
