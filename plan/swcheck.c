// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Checkers for switched-cluster schedules: coverage, one port, pieces and
 * the optimal step count; relaxed up-first routes; depth contention in the
 * sense of Thm 1 on directed channels.
 */
#include "updown.h"

#define NONE MC_NO_NODE

/*
 * Scratch: recv and tmp m words each, cnt m+1, grp m; then, for the
 * contention checker, chans+1 channel counts and a slot per hop.
 */
struct sw_ws {
	u32 *recv;	/* position -> index of the send reaching it */
	u32 *tmp;	/* sorted IDs, then subtree sizes */
	u32 *cnt;	/* position -> first of its sends in grp */
	u32 *grp;	/* steps of the sends, grouped by sender */
	u32 *ccnt;	/* channel -> end of its hops in hop */
	u32 *hop;	/* sends, grouped by channel */
};

u64 mc_sw_check_ws_words(const struct mc_sw_schedule *s)
{
	return 4 * (u64)s->m + 2 + mc_sw_nchans(s->g) + s->nroute;
}

static void ws_init(struct sw_ws *w, const struct mc_sw_schedule *s, u32 *ws)
{
	w->recv = ws;
	w->tmp = ws + s->m;
	w->cnt = ws + 2 * s->m;
	w->grp = ws + 3 * s->m + 1;
	w->ccnt = ws + 4 * s->m + 1;
	w->hop = w->ccnt + mc_sw_nchans(s->g) + 1;
}

static int fail(struct mc_sw_check_result *res, const char *what, u32 a,
		u32 b, u32 vertex)
{
	res->what = what;
	res->send_a = a;
	res->send_b = b;
	res->vertex = vertex;
	res->chan = NONE;
	return -EINVAL;
}

static void pass(struct mc_sw_check_result *res)
{
	res->what = NULL;
	res->send_a = NONE;
	res->send_b = NONE;
	res->vertex = NONE;
	res->chan = NONE;
}

static int check_order(const struct mc_sw_schedule *s, struct sw_ws *w,
		       struct mc_sw_check_result *res)
{
	u32 i;

	if (s->m == 0)
		return fail(res, "empty order", NONE, NONE, NONE);
	for (i = 0; i < s->m; i++) {
		if (s->order[i] >= s->g->nverts)
			return fail(res, "order holds a vertex outside the graph",
				    NONE, NONE, s->order[i]);
		w->tmp[i] = s->g->id[s->order[i]];
	}
	mc_sort_u32(w->tmp, s->m);
	for (i = 1; i < s->m; i++)
		if (w->tmp[i] == w->tmp[i - 1])
			return fail(res, "vertex repeated in the order", NONE,
				    NONE, s->g->by_id[w->tmp[i] - 1]);
	return 0;
}

/* One send per destination, none to the source, each piece in the order. */
static int check_reach(const struct mc_sw_schedule *s, struct sw_ws *w,
		       struct mc_sw_check_result *res)
{
	const struct mc_sw_send *d;
	u32 i;

	if (s->nsend != s->m - 1)
		return fail(res, "not one send per destination", NONE, NONE,
			    NONE);
	for (i = 0; i < s->m; i++)
		w->recv[i] = NONE;
	for (i = 0; i < s->nsend; i++) {
		d = &s->send[i];
		if (d->from >= s->m || d->to >= s->m)
			return fail(res, "send outside the order", i, NONE, NONE);
		if (d->to == 0)
			return fail(res, "the source receives", i, NONE,
				    s->order[0]);
		if (d->step == 0)
			return fail(res, "send in step 0", i, NONE, NONE);
		if (d->len == 0 || d->len > s->m - d->to)
			return fail(res, "piece outside the order", i, NONE,
				    s->order[d->to]);
		if (w->recv[d->to] != NONE)
			return fail(res, "destination reached twice", i,
				    w->recv[d->to], s->order[d->to]);
		w->recv[d->to] = i;
	}
	return 0;
}

/* Def 1 condition 3, the source exempt: a sender received earlier. */
static int check_causal(const struct mc_sw_schedule *s, struct sw_ws *w,
			struct mc_sw_check_result *res)
{
	u32 i, from;

	for (i = 0; i < s->nsend; i++) {
		from = s->send[i].from;
		if (from != 0 && s->send[w->recv[from]].step >= s->send[i].step)
			return fail(res, "a node sends before it has received",
				    i, w->recv[from], s->order[from]);
	}
	return 0;
}

/*
 * One port: a node sends at most once per step.  It receives once, before
 * it sends, so no step has it both send and receive.
 */
static int check_one_port(const struct mc_sw_schedule *s, struct sw_ws *w,
			  struct mc_sw_check_result *res)
{
	u32 i, j, p;

	for (i = 0; i <= s->m; i++)
		w->cnt[i] = 0;
	for (i = 0; i < s->nsend; i++)
		w->cnt[s->send[i].from + 1]++;
	for (i = 0; i < s->m; i++)
		w->cnt[i + 1] += w->cnt[i];
	for (i = 0; i < s->nsend; i++)
		w->grp[w->cnt[s->send[i].from]++] = s->send[i].step;
	for (p = 0, j = 0; p < s->m; p++) {
		mc_sort_u32(w->grp + j, w->cnt[p] - j);
		for (i = j + 1; i < w->cnt[p]; i++)
			if (w->grp[i] == w->grp[i - 1])
				return fail(res, "a node sends twice in one step",
					    NONE, NONE, s->order[p]);
		j = w->cnt[p];
	}
	return 0;
}

/*
 * Every position lies strictly inside the piece of each of its senders up
 * the multicast tree, and each piece holds as many positions as its
 * subtree reaches: so every piece is exactly its subtree.  The walk ends
 * because steps fall on the way up (check_causal).
 */
static int check_pieces(const struct mc_sw_schedule *s, struct sw_ws *w,
			struct mc_sw_check_result *res)
{
	u32 q, at, p, hi, *size = w->tmp;

	for (q = 0; q < s->m; q++)
		size[q] = 1;
	for (q = 1; q < s->m; q++) {
		for (at = q; at != 0; at = p) {
			p = s->send[w->recv[at]].from;
			hi = p == 0 ? s->m : p + s->send[w->recv[p]].len;
			if (q <= p || q >= hi)
				return fail(res, "a node is reached outside its sender's piece",
					    w->recv[at], NONE, s->order[q]);
			size[p]++;
		}
	}
	for (q = 1; q < s->m; q++)
		if (size[q] != s->send[w->recv[q]].len)
			return fail(res, "a piece differs from what its subtree reaches",
				    w->recv[q], NONE, s->order[q]);
	return 0;
}

static int check_steps(const struct mc_sw_schedule *s,
		       struct mc_sw_check_result *res)
{
	u32 i, last = 0, opt = 0;

	for (i = 0; i < s->nsend; i++)
		if (s->send[i].step > last)
			last = s->send[i].step;
	if (last != s->steps)
		return fail(res, "step count differs from the sends' last step",
			    NONE, NONE, NONE);
	while (opt < 32 && (1u << opt) < s->m)
		opt++;
	if (s->steps != opt)
		return fail(res, "not the optimal ceil(log2(d+1)) steps", NONE,
			    NONE, NONE);
	return 0;
}

static int cover(const struct mc_sw_schedule *s, struct sw_ws *w,
		 struct mc_sw_check_result *res)
{
	int err = check_order(s, w, res);

	if (!err)
		err = check_reach(s, w, res);
	if (!err)
		err = check_causal(s, w, res);
	if (!err)
		err = check_one_port(s, w, res);
	if (!err)
		err = check_pieces(s, w, res);
	if (!err)
		err = check_steps(s, res);
	return err;
}

int mc_sw_check_cover(const struct mc_sw_schedule *s, u32 *ws,
		      struct mc_sw_check_result *res)
{
	struct sw_ws w;
	int err;

	ws_init(&w, s, ws);
	err = cover(s, &w, res);
	if (!err)
		pass(res);
	return err;
}

static bool route_in_array(const struct mc_sw_schedule *s,
			   const struct mc_sw_send *d)
{
	return d->first <= s->nroute && d->hops <= s->nroute - d->first;
}

int mc_sw_check_routes(const struct mc_sw_schedule *s,
		       struct mc_sw_check_result *res)
{
	const struct mc_sw_send *d;
	const char *why;
	u32 i;

	for (i = 0; i < s->nsend; i++) {
		d = &s->send[i];
		if (d->from >= s->m || d->to >= s->m)
			return fail(res, "send outside the order", i, NONE, NONE);
		if (!route_in_array(s, d))
			return fail(res, "route outside the route array", i,
				    NONE, NONE);
		why = NULL;
		if (mc_sw_route_relaxed(s->g, s->order[d->from],
					s->order[d->to], s->route + d->first,
					d->hops, &why))
			return fail(res, why, i, NONE, s->order[d->from]);
	}
	pass(res);
	return 0;
}

/*
 * Thm 1 for @a not later than @b, u = a's sender, x = b's sender: x = u
 * (3), or up the multicast tree from x the edge into a's receiver (1) or
 * an edge out of u of a later step (4).
 */
static bool ordered(const struct mc_sw_schedule *s, const u32 *recv, u32 a,
		    u32 b)
{
	u32 u = s->send[a].from, at = s->send[b].from, r;

	if (at == u)
		return true;
	for (; at != 0; at = s->send[r].from) {
		r = recv[at];
		if (r == a)
			return true;
		if (s->send[r].from == u && s->send[r].step > s->send[a].step)
			return true;
	}
	return false;
}

/* Same step: both orders (neither can hold in a one-port schedule). */
static bool causal_pair(const struct mc_sw_schedule *s, const u32 *recv,
			u32 a, u32 b)
{
	u32 sa = s->send[a].step, sb = s->send[b].step;

	if (sa != sb)
		return sa < sb ? ordered(s, recv, a, b) : ordered(s, recv, b, a);
	return ordered(s, recv, a, b) && ordered(s, recv, b, a);
}

/* Every hop's send, grouped by channel (a counting sort). */
static int group_hops(const struct mc_sw_schedule *s, struct sw_ws *w,
		      struct mc_sw_check_result *res)
{
	u32 nc = mc_sw_nchans(s->g), i, h, c;
	const struct mc_sw_send *d;
	u64 total = 0;

	for (c = 0; c <= nc; c++)
		w->ccnt[c] = 0;
	for (i = 0; i < s->nsend; i++) {
		d = &s->send[i];
		if (!route_in_array(s, d))
			return fail(res, "route outside the route array", i,
				    NONE, NONE);
		total += d->hops;
		if (total > s->nroute)	/* hop[] has nroute slots */
			return fail(res, "routes overlap in the route array",
				    i, NONE, NONE);
		for (h = d->first; h < d->first + d->hops; h++) {
			if (s->route[h] >= nc)
				return fail(res, "route on a channel that does not exist",
					    i, NONE, NONE);
			w->ccnt[s->route[h] + 1]++;
		}
	}
	for (c = 0; c < nc; c++)
		w->ccnt[c + 1] += w->ccnt[c];
	for (i = 0; i < s->nsend; i++) {
		d = &s->send[i];
		for (h = d->first; h < d->first + d->hops; h++)
			w->hop[w->ccnt[s->route[h]]++] = i;
	}
	return 0;	/* channel c's sends: hop[c ? ccnt[c-1] : 0 .. ccnt[c]) */
}

struct scan {
	struct mc_sw_conflict *out;
	u64 max;
	u64 count;
	bool first_only;
};

static void record(const struct mc_sw_schedule *s, struct scan *sc, u32 c,
		   u32 a, u32 b)
{
	struct mc_sw_conflict *x;

	if (sc->count < sc->max) {
		x = &sc->out[sc->count];
		x->chan = c;
		x->send_a = s->send[b].step < s->send[a].step ? b : a;
		x->send_b = x->send_a == a ? b : a;
	}
	sc->count++;
}

/* The pairs on each channel that are not causally ordered. */
static void scan_pairs(const struct mc_sw_schedule *s, const struct sw_ws *w,
		       struct scan *sc)
{
	u32 nc = mc_sw_nchans(s->g), c, i, j, lo;

	for (c = 0, lo = 0; c < nc; lo = w->ccnt[c++]) {
		for (i = lo; i < w->ccnt[c]; i++) {
			for (j = i + 1; j < w->ccnt[c]; j++) {
				if (w->hop[i] == w->hop[j] ||
				    causal_pair(s, w->recv, w->hop[i], w->hop[j]))
					continue;
				record(s, sc, c, w->hop[i], w->hop[j]);
				if (sc->first_only)
					return;
			}
		}
	}
}

static int scan(const struct mc_sw_schedule *s, u32 *ws, struct scan *sc,
		struct mc_sw_check_result *res)
{
	struct sw_ws w;
	int err;

	ws_init(&w, s, ws);
	err = cover(s, &w, res);
	if (!err)
		err = group_hops(s, &w, res);
	if (err)
		return err;
	scan_pairs(s, &w, sc);
	pass(res);
	return 0;
}

int mc_sw_check_contention(const struct mc_sw_schedule *s, u32 *ws,
			   struct mc_sw_check_result *res)
{
	struct mc_sw_conflict x;
	struct scan sc;
	int err;

	sc.out = &x;
	sc.max = 1;
	sc.count = 0;
	sc.first_only = true;
	err = scan(s, ws, &sc, res);

	if (err || sc.count == 0)
		return err;
	fail(res, s->send[x.send_a].step == s->send[x.send_b].step ?
	     "step contention: two sends of one step share a channel" :
	     "depth contention: two sends share a channel, not causally ordered",
	     x.send_a, x.send_b, s->order[s->send[x.send_b].from]);
	res->chan = x.chan;
	return -EINVAL;
}

int mc_sw_conflicts(const struct mc_sw_schedule *s, u32 *ws,
		    struct mc_sw_conflict *out, u64 max, u64 *count,
		    struct mc_sw_check_result *res)
{
	struct scan sc;
	int err;

	sc.out = out;
	sc.max = max;
	sc.count = 0;
	sc.first_only = false;
	err = scan(s, ws, &sc, res);

	*count = sc.count;
	return err;
}
