/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * Schedule helpers for the tests: allocation, running the core's three
 * checkers, canonical message lists for comparing schedules, and
 * independent checkers written here (coverage and the t+j+1 rule, routes
 * under the reference routing functions, Thm 4.1 depth contention) so a
 * bug in plan/check.c cannot hide a bug in the planner.
 */
#ifndef MC_TSCHED_H
#define MC_TSCHED_H

#include "tref.h"
#include "chain.h"
#include "schedule.h"
#include "check.h"

/* ---------------- allocation ---------------- */

struct sbuf {
	struct mc_schedule s;
	u32 cap;
};

static inline void sbuf_init(struct sbuf *b, u32 cap)
{
	memset(b, 0, sizeof(*b));
	b->cap = cap;
	b->s.order = xcalloc(cap, sizeof(u32));
	b->s.msg = xcalloc(cap, sizeof(struct mc_msg));
	b->s.dest = xcalloc(cap, sizeof(struct mc_dest));
}

static inline void sbuf_free(struct sbuf *b)
{
	free(b->s.order);
	free(b->s.msg);
	free(b->s.dest);
	memset(b, 0, sizeof(*b));
}

static inline const char *algo_name(enum mc_algo a)
{
	switch (a) {
	case MC_ALGO_SEPARATE: return "separate";
	case MC_ALGO_UTORUS: return "u-torus";
	case MC_ALGO_STORUS: return "s-torus";
	case MC_ALGO_MDTORUS: return "md-torus";
	case MC_ALGO_MUTORUS: return "mu-torus";
	case MC_ALGO_BINOMIAL: return "binomial";
	case MC_ALGO_CUBE: return "cube";
	case MC_ALGO_RING: return "ring";
	}
	return "?";
}

/* ---------------- the core's checkers ---------------- */

struct core_check {
	int rc_cover, rc_routes, rc_cont;
	struct mc_check_result cover, routes, cont;
};

/* Runs the three; @which: bit 0 cover, 1 routes, 2 contention. */
static inline void core_checks(const struct mc_schedule *s, unsigned int which,
			       struct core_check *cc)
{
	u64 words;
	u32 *ws;

	memset(cc, 0, sizeof(*cc));
	words = mc_check_ws_words(s, true);
	ws = xmalloc((size_t)(words + 2) * sizeof(u32));
	if (which & 1)
		cc->rc_cover = mc_check_cover(s, ws, &cc->cover);
	if (which & 2)
		cc->rc_routes = mc_check_routes(s, &cc->routes);
	if (which & 4)
		cc->rc_cont = mc_check_contention(s, ws, &cc->cont);
	free(ws);
}

static inline bool core_passed(int rc, const struct mc_check_result *r)
{
	return rc == 0 && r->what == NULL;
}

static inline bool core_failed(int rc, const struct mc_check_result *r)
{
	return rc != 0 && r->what != NULL;
}

/* ---------------- canonical message lists ---------------- */

/*
 * A message as words: step, sender node, count, then (node, len) per
 * destination in visiting order.  A schedule becomes a sorted list of those.
 */
struct canon {
	u32 n;
	u32 **msg;
};

static inline u32 *canon_msg(u32 step, u32 from, u32 count)
{
	u32 *w = xmalloc((3 + 2 * (size_t)count) * sizeof(u32));

	w[0] = step;
	w[1] = from;
	w[2] = count;
	return w;
}

static inline int canon_cmp(const void *pa, const void *pb)
{
	const u32 *a = *(u32 *const *)pa, *b = *(u32 *const *)pb;
	u32 la = 3 + 2 * a[2], lb = 3 + 2 * b[2], i;

	for (i = 0; i < la && i < lb; i++)
		if (a[i] != b[i])
			return a[i] < b[i] ? -1 : 1;
	return la < lb ? -1 : la > lb;
}

static inline void canon_sort(struct canon *c)
{
	qsort(c->msg, c->n, sizeof(*c->msg), canon_cmp);
}

static inline void canon_of(const struct mc_schedule *s, struct canon *c)
{
	u32 i, j;

	c->n = s->nmsg;
	c->msg = xcalloc(s->nmsg, sizeof(u32 *));
	for (i = 0; i < s->nmsg; i++) {
		const struct mc_msg *mm = &s->msg[i];
		u32 *w = canon_msg(mm->step, s->order[mm->from], mm->count);

		for (j = 0; j < mm->count; j++) {
			const struct mc_dest *d = &s->dest[mm->first + j];

			w[3 + 2 * j] = s->order[d->pos];
			w[4 + 2 * j] = d->len;
		}
		c->msg[i] = w;
	}
	canon_sort(c);
}

static inline void canon_free(struct canon *c)
{
	u32 i;

	for (i = 0; i < c->n; i++)
		free(c->msg[i]);
	free(c->msg);
	c->msg = NULL;
	c->n = 0;
}

/* Index of the first differing message, or -1 when equal. */
static inline long canon_diff(const struct canon *a, const struct canon *b)
{
	u32 i;

	for (i = 0; i < a->n && i < b->n; i++)
		if (canon_cmp(&a->msg[i], &b->msg[i]))
			return i;
	return a->n == b->n ? -1 : (long)i;
}

static inline void canon_diag(const struct mc_torus *t, const char *tag,
			      const struct canon *c, u32 i)
{
	char buf[512];
	size_t o = 0;
	u32 j;

	if (i >= c->n) {
		diag("%s: (no message %u)", tag, i);
		return;
	}
	o += (size_t)snprintf(buf, sizeof(buf), "step %u %s ->", c->msg[i][0],
			      nstr(t, c->msg[i][1]));
	for (j = 0; j < c->msg[i][2] && o < sizeof(buf) - 40; j++)
		o += (size_t)snprintf(buf + o, sizeof(buf) - o, " %s[%u]",
				      nstr(t, c->msg[i][3 + 2 * j]),
				      c->msg[i][4 + 2 * j]);
	diag("%s: %s", tag, buf);
}

/* ---------------- independent coverage check ---------------- */

/*
 * Every position 1..m-1 reached exactly once and never 0; every dest entry
 * belongs to exactly one message and agrees with it; a holder's messages
 * go out in steps recv+1, recv+2, ...; s->steps is the last step; every
 * piece [pos, pos+len) is exactly {pos} plus its children's pieces.
 */
static inline const char *ref_cover(const struct mc_schedule *s)
{
	u32 m = s->m, i, j;
	u32 *recv, *parent, *step, *covered, *nsend;
	unsigned char *mark, *dmark;
	const char *err = NULL;

	if (m == 0)
		return "m = 0";
	recv = xmalloc(m * sizeof(u32));
	parent = xmalloc(m * sizeof(u32));
	step = xcalloc(m, sizeof(u32));
	covered = xcalloc(m, sizeof(u32));
	nsend = xcalloc(m, sizeof(u32));
	mark = xcalloc(s->t->nodes, 1);
	dmark = xcalloc(s->ndest + 1, 1);
	for (i = 0; i < m; i++) {
		recv[i] = MC_NO_NODE;
		if (s->order[i] >= s->t->nodes) {
			err = "order node out of range";
			goto out;
		}
		if (mark[s->order[i]]++) {
			err = "order repeats a node";
			goto out;
		}
	}
	for (i = 0; i < s->nmsg; i++) {
		const struct mc_msg *mm = &s->msg[i];

		if (mm->count == 0 || mm->from >= m ||
		    (u64)mm->first + mm->count > s->ndest) {
			err = "bad message";
			goto out;
		}
		for (j = mm->first; j < mm->first + mm->count; j++) {
			const struct mc_dest *d = &s->dest[j];

			if (dmark[j]++) {
				err = "dest entry in two messages";
				goto out;
			}
			if (d->msg != i || d->step != mm->step) {
				err = "dest entry disagrees with its message";
				goto out;
			}
			if (d->pos == 0) {
				err = "source reached";
				goto out;
			}
			if (d->pos >= m) {
				err = "dest out of order range";
				goto out;
			}
			if (recv[d->pos] != MC_NO_NODE) {
				err = "destination reached twice";
				goto out;
			}
			recv[d->pos] = j;
			parent[d->pos] = mm->from;
			step[d->pos] = mm->step;
		}
	}
	for (j = 0; j < s->ndest; j++)
		if (!dmark[j]) {
			err = "dest entry without message";
			goto out;
		}
	for (i = 1; i < m; i++)
		if (recv[i] == MC_NO_NODE) {
			err = "destination missed";
			goto out;
		}
	/* steps: holder's messages in recv+1 .. recv+c, one each */
	{
		u32 last = 0, total = 0;
		u32 *off = xcalloc(m, sizeof(u32));
		unsigned char *slot = xcalloc(s->nmsg + 1, 1);

		for (i = 0; i < s->nmsg; i++)
			nsend[s->msg[i].from]++;
		for (i = 0; i < m; i++) {
			off[i] = total;
			total += nsend[i];
		}
		for (i = 0; i < s->nmsg && !err; i++) {
			u32 f = s->msg[i].from, base = f ? step[f] : 0;

			if (s->msg[i].step <= base ||
			    s->msg[i].step - base > nsend[f])
				err = "step rule t+j+1 broken";
			else if (slot[off[f] + s->msg[i].step - base - 1]++)
				err = "holder sends twice in one step";
			if (s->msg[i].step > last)
				last = s->msg[i].step;
		}
		if (!err && last != s->steps)
			err = "steps differs from the last message's step";
		free(off);
		free(slot);
		if (err)
			goto out;
	}
	/* pieces: children inside the parent's piece, disjoint, exact sum */
	for (i = 1; i < m; i++) {
		const struct mc_dest *d = &s->dest[recv[i]];
		u32 p = parent[i];
		u32 plo = p, phi = p ? p + s->dest[recv[p]].len : m;

		if (d->len == 0 || (u64)i + d->len > m) {
			err = "piece length out of range";
			goto out;
		}
		if (i <= plo || (u64)i + d->len > phi) {
			err = "piece not inside the sender's piece";
			goto out;
		}
		covered[p] += d->len;
	}
	for (i = 0; i < m; i++) {
		u32 len = i ? s->dest[recv[i]].len : m;

		if (covered[i] + 1 != len) {
			err = "piece differs from what the subtree covers";
			goto out;
		}
	}
	/* disjoint: a position's innermost piece is unique when sums match
	 * and every piece nests; check nesting of siblings directly */
	for (i = 1; i < m; i++) {
		u32 end = i + s->dest[recv[i]].len, q;

		for (q = i + 1; q < end; q++)
			if (parent[q] != i) {
				/* q must be inside a child of i */
				u32 a = parent[q];

				while (a != 0 && a != i && a > i)
					a = parent[a];
				if (a != i) {
					err = "pieces overlap";
					goto out;
				}
			}
	}
out:
	free(recv);
	free(parent);
	free(step);
	free(covered);
	free(nsend);
	free(mark);
	free(dmark);
	return err;
}

/* ---------------- reference routes ---------------- */

static inline bool ref_next(const struct mc_torus *t, enum mc_routing r,
			    u32 cur, u32 dst, unsigned int *alpha,
			    struct rhop *h)
{
	if (r == MC_ROUTE_UTPR)
		return ref_utpr_next(t, cur, dst, alpha, h);
	return ref_unicast_next(t, r == MC_ROUTE_BTR, cur, dst, h);
}

static inline u32 ref_chan(const struct mc_torus *t, u32 node,
			   const struct rhop *h)
{
	return ((node * t->n + h->dim) * 2 + (h->dir > 0)) * 3 + h->vc;
}

/* Three-tier lambda: p < boundary < other h; then l(u), d. */
static inline u64 ref_lambda(const struct mc_torus *t, u32 u, unsigned int d,
			     unsigned int vc)
{
	u64 tier = vc == MC_VC_P ? 0 : ref_boundary(t, u, d) ? 1 : 2;

	return (tier * t->nodes + ref_label(t, u)) * MC_MAX_DIMS + d;
}

/*
 * Route every message with the reference routing function: each segment
 * minimal, every channel in its set; worms: at most one boundary, p before
 * and h after it, lambda strictly increasing; with @strict also no
 * physical channel twice and destinations visited in increasing order
 * position (the H-cycle order when order[] is one).  *@hops = total.
 */
static inline const char *ref_routes_opt(const struct mc_schedule *s,
					 u64 *hops, bool strict)
{
	const struct mc_torus *t = s->t;
	bool worm = s->routing == MC_ROUTE_UTPR;
	u32 *phys = worm ? xcalloc((size_t)t->nodes * t->n, sizeof(u32)) : NULL;
	const char *err = NULL;
	u32 i, j;

	*hops = 0;
	for (i = 0; i < s->nmsg && !err; i++) {
		const struct mc_msg *mm = &s->msg[i];
		u32 cur = s->order[mm->from], prevpos = mm->from;
		unsigned int alpha = MC_VC_P, nb = 0;
		u64 last = 0, nh = 0;

		for (j = 0; j < mm->count && !err; j++) {
			u32 pos = s->dest[mm->first + j].pos;
			u32 dst = s->order[pos], seg = 0;
			struct rhop h;

			if (strict && worm && j && pos <= prevpos)
				err = "worm visits destinations out of order";
			if (strict && worm && !j && pos <= mm->from)
				err = "worm's first destination precedes its sender";
			prevpos = pos;
			while (!err && ref_next(t, s->routing, cur, dst, &alpha, &h)) {
				if (!ref_exists(t, s->routing, cur, h.dim, h.dir, h.vc))
					err = "channel outside its set";
				if (worm) {
					u64 lam = ref_lambda(t, cur, h.dim, h.vc);

					if (ref_boundary(t, cur, h.dim) && ++nb > 1)
						err = "worm crosses two boundaries";
					if ((h.vc == MC_VC_H) != (nb > 0))
						err = "worm class not p before / h after the boundary";
					if (nh && lam <= last)
						err = "worm lambda order broken";
					last = lam;
					if (strict && phys[(size_t)cur * t->n + h.dim] == i + 1)
						err = "worm uses a physical channel twice";
					phys[(size_t)cur * t->n + h.dim] = i + 1;
				}
				cur = h.to;
				seg++;
				nh++;
				if (seg > t->nodes * 2u)
					err = "route does not arrive";
			}
			if (!err && seg != ref_dist(t, s->order[j ? s->dest[mm->first + j - 1].pos : mm->from],
						    dst, t->links == MC_LINKS_BI))
				err = "segment not minimal";
		}
		*hops += nh;
	}
	free(phys);
	return err;
}

static inline const char *ref_routes(const struct mc_schedule *s, u64 *hops)
{
	return ref_routes_opt(s, hops, true);
}

/* ---------------- reference Thm 4.1 depth contention ---------------- */

static inline int u64cmp(const void *a, const void *b)
{
	u64 x = *(const u64 *)a, y = *(const u64 *)b;

	return x < y ? -1 : x > y;
}

/* x lies in the piece of some destination of message a. */
static inline bool in_reach_of(const struct mc_schedule *s, u32 a, u32 x)
{
	u32 j;

	for (j = 0; j < s->msg[a].count; j++) {
		const struct mc_dest *d = &s->dest[s->msg[a].first + j];

		if (x >= d->pos && x < d->pos + d->len)
			return true;
	}
	return false;
}

/* Messages grouped by sender: bysnd[off[u] .. off[u+1]) are u's. */
struct sender_index {
	u32 *off;
	u32 *bysnd;
};

static inline void sender_index_build(const struct mc_schedule *s,
				      struct sender_index *x)
{
	u32 i, *fill;

	x->off = xcalloc(s->m + 1, sizeof(u32));
	x->bysnd = xcalloc(s->nmsg, sizeof(u32));
	fill = xcalloc(s->m + 1, sizeof(u32));
	for (i = 0; i < s->nmsg; i++)
		x->off[s->msg[i].from + 1]++;
	for (i = 0; i < s->m; i++)
		x->off[i + 1] += x->off[i];
	for (i = 0; i < s->nmsg; i++) {
		u32 f = s->msg[i].from;

		x->bysnd[x->off[f] + fill[f]++] = i;
	}
	free(fill);
}

static inline void sender_index_free(struct sender_index *x)
{
	free(x->off);
	free(x->bysnd);
}

/* Thm 4.1 conditions 1, 3, 4 for (a earlier or same step, b). */
static inline bool thm41_ok(const struct mc_schedule *s,
			    const struct sender_index *x, u32 a, u32 b)
{
	u32 u = s->msg[a].from, xs = s->msg[b].from, i;

	if (xs == u)
		return true;				/* 3 */
	if (in_reach_of(s, a, xs))
		return true;				/* 1 */
	for (i = x->off[u]; i < x->off[u + 1]; i++) {	/* 4 */
		u32 w = x->bysnd[i];

		if (s->msg[w].step > s->msg[a].step && in_reach_of(s, w, xs))
			return true;
	}
	return false;
}

/*
 * Count message pairs sharing a virtual channel (reference routing) that
 * meet none of Thm 4.1's conditions.  Assumes ref_cover() passed.
 * *@first_a / *@first_b: the first offending pair.
 */
static inline u64 ref_contention(const struct mc_schedule *s, u32 *first_a,
				 u32 *first_b)
{
	const struct mc_torus *t = s->t;
	u64 cap = 1024, n = 0, g, e, i, j, bad = 0;
	u64 *key = xmalloc(cap * sizeof(u64));
	struct sender_index x;
	u32 k;

	for (k = 0; k < s->nmsg; k++) {
		const struct mc_msg *mm = &s->msg[k];
		u32 cur = s->order[mm->from], j2;
		unsigned int alpha = MC_VC_P;
		struct rhop h;

		for (j2 = 0; j2 < mm->count; j2++) {
			u32 dst = s->order[s->dest[mm->first + j2].pos];

			while (ref_next(t, s->routing, cur, dst, &alpha, &h)) {
				if (n == cap) {
					cap *= 2;
					key = realloc(key, cap * sizeof(u64));
					if (!key)
						exit(2);
				}
				key[n++] = (u64)ref_chan(t, cur, &h) << 32 | k;
				cur = h.to;
			}
		}
	}
	qsort(key, n, sizeof(u64), u64cmp);
	sender_index_build(s, &x);
	for (g = 0; g < n; g = e) {
		for (e = g + 1; e < n && key[e] >> 32 == key[g] >> 32; e++)
			;
		for (i = g; i < e; i++)
			for (j = i + 1; j < e; j++) {
				u32 a = (u32)key[i], b = (u32)key[j];
				bool okp = true;

				if (a == b)
					continue;
				if (s->msg[a].step <= s->msg[b].step && !thm41_ok(s, &x, a, b))
					okp = false;
				if (s->msg[b].step <= s->msg[a].step && !thm41_ok(s, &x, b, a))
					okp = false;
				if (!okp) {
					if (!bad && first_a) {
						*first_a = a;
						*first_b = b;
					}
					bad++;
				}
			}
	}
	sender_index_free(&x);
	free(key);
	return bad;
}

#endif /* MC_TSCHED_H */
