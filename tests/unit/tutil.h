/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * Helpers shared by the planning-core unit tests: building tori, writing
 * nodes as the thesis does (tuples highest dimension first), parsing the
 * golden-vector arc notation "c2p(8,4,5)".
 *
 * Everything here is computed independently of plan/ (own index
 * arithmetic), so a test never checks the core against itself.
 */
#ifndef MC_TUTIL_H
#define MC_TUTIL_H

#include <ctype.h>
#include <string.h>

#include "tap.h"
#include "topology.h"
#include "routing.h"

/* Set up a torus or die (the test cannot go on without it). */
static inline void mk_torus(struct mc_torus *t, unsigned int n, const u16 *k,
			    enum mc_links links)
{
	const char *why = NULL;
	int rc = mc_torus_init(t, n, k, links, &why);

	if (rc) {
		printf("Bail out! mc_torus_init(n=%u) = %d (%s)\n", n, rc,
		       why ? why : "?");
		exit(2);
	}
}

static inline void mk_regular(struct mc_torus *t, unsigned int n,
			      unsigned int k, enum mc_links links)
{
	u16 kk[MC_MAX_DIMS];
	unsigned int i;

	for (i = 0; i < n; i++)
		kk[i] = (u16)k;
	mk_torus(t, n, kk, links);
}

/* Own index arithmetic: sigma_0 least significant. */
static inline u32 ref_index(unsigned int n, const u16 *k, const u16 *sigma)
{
	u32 idx = 0;
	int i;

	for (i = (int)n - 1; i >= 0; i--)
		idx = idx * k[i] + sigma[i];
	return idx;
}

static inline void ref_coords(unsigned int n, const u16 *k, u32 idx,
			      u16 *sigma)
{
	unsigned int i;

	for (i = 0; i < n; i++) {
		sigma[i] = (u16)(idx % k[i]);
		idx /= k[i];
	}
}

/* Node from a thesis tuple: tup[0] = sigma_{n-1}, ..., tup[n-1] = sigma_0. */
static inline u32 tup(const struct mc_torus *t, const int *tp)
{
	u16 s[MC_MAX_DIMS];
	unsigned int i;

	for (i = 0; i < t->n; i++)
		s[i] = (u16)tp[t->n - 1 - i];
	return ref_index(t->n, t->k, s);
}

#define T2(t, a, b)	   tup((t), (const int[]){ (a), (b) })
#define T3(t, a, b, c)	   tup((t), (const int[]){ (a), (b), (c) })

/* Print a node as the thesis does, into a rotating static buffer. */
static inline const char *nstr(const struct mc_torus *t, u32 node)
{
	static char buf[8][96];
	static unsigned int slot;
	char *b = buf[slot++ & 7];
	u16 s[MC_MAX_DIMS];
	size_t o = 0;
	int i;

	if (node >= t->nodes) {
		snprintf(b, 96, "#%u", node);
		return b;
	}
	ref_coords(t->n, t->k, node, s);
	b[o++] = '(';
	for (i = (int)t->n - 1; i >= 0; i--)
		o += (size_t)snprintf(b + o, 96 - o, "%u%s", s[i],
				      i ? "," : ")");
	return b;
}

/* "16x16x16 uni": radices highest dimension first, and the links. */
static inline const char *shape_str(const struct mc_torus *t)
{
	static char buf[4][96];
	static unsigned int slot;
	char *b = buf[slot++ & 3];
	size_t o = 0;
	int i;

	for (i = (int)t->n - 1; i >= 0; i--)
		o += (size_t)snprintf(b + o, 96 - o, "%u%s", t->k[i], i ? "x" : "");
	snprintf(b + o, 96 - o, " %s", t->links == MC_LINKS_BI ? "bi" : "uni");
	return b;
}

/* Own neighbour arithmetic. */
static inline u32 ref_neigh(const struct mc_torus *t, u32 node,
			    unsigned int d, int dir)
{
	u16 s[MC_MAX_DIMS];

	ref_coords(t->n, t->k, node, s);
	s[d] = (u16)((s[d] + t->k[d] + dir) % t->k[d]);
	return ref_index(t->n, t->k, s);
}

/* Own minimal distance (uni: +1 only; bi: shorter way). */
static inline u32 ref_dist(const struct mc_torus *t, u32 a, u32 b, bool bi)
{
	u16 sa[MC_MAX_DIMS], sb[MC_MAX_DIMS];
	u32 d = 0;
	unsigned int i;

	ref_coords(t->n, t->k, a, sa);
	ref_coords(t->n, t->k, b, sb);
	for (i = 0; i < t->n; i++) {
		u32 up = (u32)((sb[i] + t->k[i] - sa[i]) % t->k[i]);
		u32 down = (t->k[i] - up) % t->k[i];

		d += bi && down < up ? down : up;
	}
	return d;
}

/* A parsed golden arc: the VC of class vc leaving node in dimension dim. */
struct garc {
	u32 node;
	unsigned int dim;
	unsigned int vc;
};

/* Parse "c<d><p|h|l>(<tuple>)"; returns 0 or -1. */
static inline int parse_arc(const struct mc_torus *t, const char *s,
			    struct garc *a)
{
	int tp[MC_MAX_DIMS];
	unsigned int i;
	char *e;

	if (*s++ != 'c' || !isdigit((unsigned char)*s))
		return -1;
	a->dim = (unsigned int)strtoul(s, &e, 10);
	s = e;
	switch (*s++) {
	case 'p': a->vc = MC_VC_P; break;
	case 'h': a->vc = MC_VC_H; break;
	case 'l': a->vc = MC_VC_L; break;
	default: return -1;
	}
	if (*s++ != '(')
		return -1;
	for (i = 0; i < t->n; i++) {
		tp[i] = (int)strtol(s, &e, 10);
		if (e == s)
			return -1;
		s = e;
		if (*s != (i + 1 == t->n ? ')' : ','))
			return -1;
		s++;
	}
	a->node = tup(t, tp);
	return 0;
}

/* Ceil(log_r(m)) for m >= 1, exact integer arithmetic. */
static inline u32 ceil_log(u64 r, u64 m)
{
	u32 p = 0;
	u64 x = 1;

	while (x < m) {
		x *= r;
		p++;
	}
	return p;
}

#endif /* MC_TUTIL_H */
