// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Checkers for n-cube schedules: coverage and the port model, the step
 * counts chapter 3 gives, arc-disjoint steps and depth contention
 * (Thm 3.3) on directed arcs.
 */
#include "cube.h"
#include "heapsort.h"

#define NONE MC_NO_NODE

MC_DEFINE_HEAPSORT(sort_u64, u64)

/* An arc as one number: node and dimension (< 32) side by side. */
#define ARC_ID(node, dim)	((node) << 5 | (dim))

/*
 * Scratch, in this order: a u64 key per hop (arc, send), then recv m
 * words, tmp m, cnt m+1, grp m.
 */
struct cube_ws {
	u64 *key;
	u32 *recv;	/* position -> index of the send reaching it */
	u32 *tmp;	/* sorted nodes, then subtree sizes */
	u32 *cnt;	/* position -> its first slot in grp */
	u32 *grp;	/* sends grouped by sender, each in issue order */
};

static u64 hop_cap(const struct mc_cube_schedule *s)
{
	u64 n = s->n < MC_CUBE_MAX_DIM ? s->n : MC_CUBE_MAX_DIM;

	return (s->nsend > s->m ? s->nsend : s->m) * n;
}

u64 mc_cube_check_ws_words(const struct mc_cube_schedule *s)
{
	return 2 * hop_cap(s) + 4 * (u64)s->m + 2;
}

static void ws_init(struct cube_ws *w, const struct mc_cube_schedule *s,
		    u32 *ws)
{
	w->key = (u64 *)ws;
	w->recv = ws + 2 * hop_cap(s);
	w->tmp = w->recv + s->m;
	w->cnt = w->tmp + s->m;
	w->grp = w->cnt + s->m + 1;
}

static int fail(struct mc_cube_check_result *res, const char *what, u32 a,
		u32 b, u32 node)
{
	res->what = what;
	res->send_a = a;
	res->send_b = b;
	res->node = node;
	res->arc.node = NONE;
	res->arc.dim = NONE;
	return -EINVAL;
}

static void pass(struct mc_cube_check_result *res)
{
	fail(res, NULL, NONE, NONE, NONE);
}

static u32 recv_step(const struct mc_cube_schedule *s,
		     const struct cube_ws *w, u32 pos)
{
	return pos == 0 ? 0 : s->send[w->recv[pos]].step;
}

static int check_chain(const struct mc_cube_schedule *s, struct cube_ws *w,
		       struct mc_cube_check_result *res)
{
	u32 i;

	if (s->n < 1 || s->n > MC_CUBE_MAX_DIM)
		return fail(res, "cube dimension out of range", NONE, NONE,
			    NONE);
	if (s->m == 0)
		return fail(res, "empty chain", NONE, NONE, NONE);
	for (i = 0; i < s->m; i++) {
		if (s->chain[i] >= mc_cube_nodes(s->n))
			return fail(res, "chain holds a node outside the cube",
				    NONE, NONE, s->chain[i]);
		w->tmp[i] = s->chain[i];
	}
	mc_sort_u32(w->tmp, s->m);
	for (i = 1; i < s->m; i++)
		if (w->tmp[i] == w->tmp[i - 1])
			return fail(res, "node repeated in the chain", NONE,
				    NONE, w->tmp[i]);
	return 0;
}

/* One send per destination, none to the source, each piece in the chain. */
static int check_reach(const struct mc_cube_schedule *s, struct cube_ws *w,
		       struct mc_cube_check_result *res)
{
	const struct mc_cube_send *d;
	u32 i;

	if (s->nsend != s->m - 1)
		return fail(res, "not one send per destination", NONE, NONE,
			    NONE);
	for (i = 0; i < s->m; i++)
		w->recv[i] = NONE;
	for (i = 0; i < s->nsend; i++) {
		d = &s->send[i];
		if (d->from >= s->m || d->to >= s->m)
			return fail(res, "send outside the chain", i, NONE, NONE);
		if (d->to == 0)
			return fail(res, "the source receives", i, NONE,
				    s->chain[0]);
		if (d->step == 0)
			return fail(res, "send in step 0", i, NONE, NONE);
		if (d->len == 0 || d->len > s->m - d->to)
			return fail(res, "piece outside the chain", i, NONE,
				    s->chain[d->to]);
		if (w->recv[d->to] != NONE)
			return fail(res, "destination reached twice", i,
				    w->recv[d->to], s->chain[d->to]);
		w->recv[d->to] = i;
	}
	return 0;
}

/* A sender is the source or received in an earlier step. */
static int check_causal(const struct mc_cube_schedule *s, struct cube_ws *w,
			struct mc_cube_check_result *res)
{
	u32 i, from;

	for (i = 0; i < s->nsend; i++) {
		from = s->send[i].from;
		if (from != 0 && recv_step(s, w, from) >= s->send[i].step)
			return fail(res, "a node sends before it has received",
				    i, w->recv[from], s->chain[from]);
	}
	return 0;
}

/* Each sender's sends into grp by issue order: seq must be 0..k-1. */
static int group_senders(const struct mc_cube_schedule *s, struct cube_ws *w,
			 struct mc_cube_check_result *res)
{
	const struct mc_cube_send *d;
	u32 i, slot;

	for (i = 0; i <= s->m; i++)
		w->cnt[i] = 0;
	for (i = 0; i < s->nsend; i++)
		w->cnt[s->send[i].from + 1]++;
	for (i = 0; i < s->m; i++)
		w->cnt[i + 1] += w->cnt[i];
	for (i = 0; i < s->nsend; i++)
		w->grp[i] = NONE;
	for (i = 0; i < s->nsend; i++) {
		d = &s->send[i];
		slot = w->cnt[d->from] + d->seq;
		if (d->seq >= w->cnt[d->from + 1] - w->cnt[d->from] ||
		    w->grp[slot] != NONE)
			return fail(res, "a sender's issue order is not 0, 1, 2, ...",
				    i, NONE, s->chain[d->from]);
		w->grp[slot] = i;
	}
	return 0;
}

/*
 * In issue order a sender's steps never fall (no send overtakes one
 * issued before it), and it uses a channel once per step (all-port), or
 * sends once per step (one-port).
 */
static int check_ports(const struct mc_cube_schedule *s, struct cube_ws *w,
		       struct mc_cube_check_result *res)
{
	u32 p, j, a, b, mask = 0, bit;

	for (p = 0; p < s->m; p++) {
		for (j = w->cnt[p]; j < w->cnt[p + 1]; j++) {
			b = w->grp[j];
			bit = 1u << mc_cube_send_dim(s, b);
			if (j == w->cnt[p]) {
				mask = bit;
				continue;
			}
			a = w->grp[j - 1];
			if (s->send[b].step < s->send[a].step)
				return fail(res, "a send overtakes one its sender issued before it",
					    a, b, s->chain[p]);
			if (s->send[b].step > s->send[a].step) {
				mask = bit;
				continue;
			}
			if (s->port == MC_CUBE_ONE_PORT)
				return fail(res, "a node sends twice in one step (one-port)",
					    a, b, s->chain[p]);
			if (mask & bit)
				return fail(res, "a node sends twice on one channel in one step",
					    a, b, s->chain[p]);
			mask |= bit;
		}
	}
	return 0;
}

/*
 * Every position lies strictly inside the piece of each of its senders up
 * the multicast tree, and each piece holds as many positions as its
 * subtree reaches: so every piece is exactly its subtree.  The walk ends
 * because steps fall on the way up (check_causal).
 */
static int check_pieces(const struct mc_cube_schedule *s, struct cube_ws *w,
			struct mc_cube_check_result *res)
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
					    w->recv[at], NONE, s->chain[q]);
			size[p]++;
		}
	}
	for (q = 1; q < s->m; q++)
		if (size[q] != s->send[w->recv[q]].len)
			return fail(res, "a piece differs from what its subtree reaches",
				    w->recv[q], NONE, s->chain[q]);
	return 0;
}

static int cover(const struct mc_cube_schedule *s, struct cube_ws *w,
		 struct mc_cube_check_result *res)
{
	int err = check_chain(s, w, res);

	if (!err)
		err = check_reach(s, w, res);
	if (!err)
		err = check_causal(s, w, res);
	if (!err)
		err = group_senders(s, w, res);
	if (!err)
		err = check_ports(s, w, res);
	if (!err)
		err = check_pieces(s, w, res);
	return err;
}

int mc_cube_check_cover(const struct mc_cube_schedule *s, u32 *ws,
			struct mc_cube_check_result *res)
{
	struct cube_ws w;
	int err;

	ws_init(&w, s, ws);
	err = cover(s, &w, res);
	if (!err)
		pass(res);
	return err;
}

/* ceil(log_base(m)), m >= 1. */
static u32 ceil_log(u64 base, u64 m)
{
	u64 x = 1;
	u32 p = 0;

	while (x < m) {
		x *= base;
		p++;
	}
	return p;
}

/* The step the port model gives each send (cube.h), sender by sender. */
static int check_model(const struct mc_cube_schedule *s, struct cube_ws *w,
		       struct mc_cube_check_result *res)
{
	u32 last[MC_CUBE_MAX_DIM], p, j, i, d, r, t;

	for (p = 0; p < s->m; p++) {
		r = recv_step(s, w, p);
		t = r + 1;
		for (d = 0; d < s->n; d++)
			last[d] = 0;
		for (j = w->cnt[p]; j < w->cnt[p + 1]; j++) {
			i = w->grp[j];
			d = mc_cube_send_dim(s, i);
			if (s->port == MC_CUBE_ONE_PORT)
				t = r + 1 + (j - w->cnt[p]);
			else if (last[d] + 1 > t)
				t = last[d] + 1;
			last[d] = t;
			if (s->send[i].step != t)
				return fail(res, "a send is not in the step the port model gives",
					    i, NONE, s->chain[p]);
		}
	}
	return 0;
}

/* Maxport's invariant: each iteration lowers k, so no channel twice. */
static int check_distinct_channels(const struct mc_cube_schedule *s,
				   struct cube_ws *w,
				   struct mc_cube_check_result *res)
{
	u32 p, j, mask, bit;

	for (p = 0; p < s->m; p++) {
		mask = 0;
		for (j = w->cnt[p]; j < w->cnt[p + 1]; j++) {
			bit = 1u << mc_cube_send_dim(s, w->grp[j]);
			if (mask & bit)
				return fail(res, "maxport: a node uses a channel twice",
					    w->grp[j - 1], w->grp[j],
					    s->chain[p]);
			mask |= bit;
		}
	}
	return 0;
}

static int check_bound(const struct mc_cube_schedule *s, struct cube_ws *w,
		       struct mc_cube_check_result *res)
{
	u32 log2m = ceil_log(2, s->m);
	bool one = s->port == MC_CUBE_ONE_PORT;

	switch (s->algo) {
	case MC_CUBE_UCUBE:
		if (one && s->steps != log2m)
			return fail(res, "u-cube one-port: not ceil(log2(m+1)) steps",
				    NONE, NONE, NONE);
		if (s->steps > log2m)
			return fail(res, "u-cube: more than ceil(log2(m+1)) steps",
				    NONE, NONE, NONE);
		return 0;
	case MC_CUBE_MAXPORT:
	case MC_CUBE_WSORT:
		if (!one && s->steps > s->n)
			return fail(res, "maxport all-port: more than n steps",
				    NONE, NONE, NONE);
		return check_distinct_channels(s, w, res);
	default:
		return 0;
	}
}

static int step_count(const struct mc_cube_schedule *s, struct cube_ws *w,
		      struct mc_cube_check_result *res)
{
	u32 i, last = 0;
	bool one = s->port == MC_CUBE_ONE_PORT;
	int err;

	for (i = 0; i < s->nsend; i++)
		if (s->send[i].step > last)
			last = s->send[i].step;
	if (last != s->steps)
		return fail(res, "step count differs from the sends' last step",
			    NONE, NONE, NONE);
	if (s->steps < ceil_log(one ? 2 : (u64)s->n + 1, s->m))
		return fail(res, one ? "fewer steps than ceil(log2(m+1))" :
			    "fewer steps than ceil(log_{n+1}(m+1))",
			    NONE, NONE, NONE);
	if (s->algo == MC_CUBE_HANDMADE)
		return 0;
	if (s->algo > MC_CUBE_HANDMADE)
		return fail(res, "unknown algorithm", NONE, NONE, NONE);
	err = check_model(s, w, res);
	return err ? err : check_bound(s, w, res);
}

int mc_cube_check_steps(const struct mc_cube_schedule *s, u32 *ws,
			struct mc_cube_check_result *res)
{
	struct cube_ws w;
	int err;

	ws_init(&w, s, ws);
	err = cover(s, &w, res);
	if (!err)
		err = step_count(s, &w, res);
	if (!err)
		pass(res);
	return err;
}

/* Every arc of every E-cube path with its send, sorted by arc: *@nkey. */
static void collect_arcs(const struct mc_cube_schedule *s, struct cube_ws *w,
			 u64 *nkey)
{
	u32 i, u, v, d;
	u64 k = 0;

	for (i = 0; i < s->nsend; i++) {
		u = s->chain[s->send[i].from];
		v = s->chain[s->send[i].to];
		while (u != v) {
			d = mc_cube_delta(u, v);
			w->key[k++] = (u64)ARC_ID(u, d) << 32 | i;
			u ^= 1u << d;
		}
	}
	sort_u64(w->key, k);
	*nkey = k;
}

/*
 * Thm 3.3 for @a not later than @b, u = a's sender, x = b's sender: x = u
 * (2), or up the multicast tree from x the send into a's receiver (3) or
 * a send of u issued after a (4).
 */
static bool ordered(const struct mc_cube_schedule *s, const u32 *recv, u32 a,
		    u32 b)
{
	u32 u = s->send[a].from, at = s->send[b].from, r;

	if (at == u)
		return true;
	for (; at != 0; at = s->send[r].from) {
		r = recv[at];
		if (r == a)
			return true;
		if (s->send[r].from == u && s->send[r].seq > s->send[a].seq)
			return true;
	}
	return false;
}

static bool causal_pair(const struct mc_cube_schedule *s, const u32 *recv,
			u32 a, u32 b)
{
	u32 sa = s->send[a].step, sb = s->send[b].step;

	if (sa != sb)
		return sa < sb ? ordered(s, recv, a, b) : ordered(s, recv, b, a);
	return ordered(s, recv, a, b) && ordered(s, recv, b, a);
}

struct scan {
	struct mc_cube_conflict *out;
	u64 max;
	u64 count;
	bool first_only;
	bool step_only;		/* only pairs of one step matter */
};

static void record(const struct mc_cube_schedule *s, struct scan *sc,
		   u32 id, u32 a, u32 b)
{
	struct mc_cube_conflict *x;

	if (sc->count < sc->max) {
		x = &sc->out[sc->count];
		x->arc.node = id >> 5;
		x->arc.dim = id & 31;
		x->send_a = s->send[b].step < s->send[a].step ? b : a;
		x->send_b = x->send_a == a ? b : a;
	}
	sc->count++;
}

static bool clash(const struct mc_cube_schedule *s, const struct scan *sc,
		  const u32 *recv, u32 a, u32 b)
{
	if (sc->step_only)
		return s->send[a].step == s->send[b].step;
	return !causal_pair(s, recv, a, b);
}

/* The pairs on each arc that clash. */
static void scan_pairs(const struct mc_cube_schedule *s,
		       const struct cube_ws *w, u64 nkey, struct scan *sc)
{
	u64 lo, hi, i, j;
	u32 id, a, b;

	for (lo = 0; lo < nkey; lo = hi) {
		id = w->key[lo] >> 32;
		for (hi = lo + 1; hi < nkey && w->key[hi] >> 32 == id; hi++)
			;
		for (i = lo; i < hi; i++) {
			for (j = i + 1; j < hi; j++) {
				a = (u32)w->key[i];
				b = (u32)w->key[j];
				if (!clash(s, sc, w->recv, a, b))
					continue;
				record(s, sc, id, a, b);
				if (sc->first_only)
					return;
			}
		}
	}
}

static int scan(const struct mc_cube_schedule *s, u32 *ws, struct scan *sc,
		struct mc_cube_check_result *res)
{
	struct cube_ws w;
	u64 nkey;
	int err;

	ws_init(&w, s, ws);
	err = cover(s, &w, res);
	if (err)
		return err;
	collect_arcs(s, &w, &nkey);
	scan_pairs(s, &w, nkey, sc);
	pass(res);
	return 0;
}

static int first_clash(const struct mc_cube_schedule *s, u32 *ws,
		       bool step_only, struct mc_cube_check_result *res)
{
	struct mc_cube_conflict x;
	struct scan sc = {
		.out = &x, .max = 1, .first_only = true, .step_only = step_only,
	};
	int err = scan(s, ws, &sc, res);

	if (err || sc.count == 0)
		return err;
	fail(res, s->send[x.send_a].step == s->send[x.send_b].step ?
	     "step contention: two sends of one step share an arc" :
	     "depth contention: two sends share an arc, not causally ordered",
	     x.send_a, x.send_b, s->chain[s->send[x.send_b].from]);
	res->arc = x.arc;
	return -EINVAL;
}

int mc_cube_check_arcs(const struct mc_cube_schedule *s, u32 *ws,
		       struct mc_cube_check_result *res)
{
	return first_clash(s, ws, true, res);
}

int mc_cube_check_contention(const struct mc_cube_schedule *s, u32 *ws,
			     struct mc_cube_check_result *res)
{
	return first_clash(s, ws, false, res);
}

int mc_cube_conflicts(const struct mc_cube_schedule *s, u32 *ws,
		      struct mc_cube_conflict *out, u64 max, u64 *count,
		      struct mc_cube_check_result *res)
{
	struct scan sc = { .out = out, .max = max };
	int err = scan(s, ws, &sc, res);

	*count = sc.count;
	return err;
}
