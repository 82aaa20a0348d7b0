// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Checkers for recursion-based broadcast plans.  They read only the
 * records, the shape and the routes, never the program that made them.
 */
#include "rb.h"

static int fail(struct mc_rb_check_result *res, const char *what, u32 step,
		u64 a, u64 b, u32 node, u32 chan)
{
	res->what = what;
	res->step = step;
	res->xfer_a = a;
	res->xfer_b = b;
	res->node = node;
	res->chan = chan;
	return -EINVAL;
}

static void pass(struct mc_rb_check_result *res)
{
	fail(res, NULL, 0, U64_MAX, U64_MAX, MC_NO_NODE, MC_NO_NODE);
}

/* The end of the message that starts at record @i. */
static u64 msg_end(const struct mc_rb_plan *p, u64 i)
{
	const struct mc_rb_xfer *x = p->x;
	u64 j = i + 1;

	while (j < p->n && x[j].step == x[i].step && x[j].from == x[i].from &&
	       x[j].to == x[i].to)
		j++;
	return j;
}

/* The end of the step that starts at record @i. */
static u64 step_end(const struct mc_rb_plan *p, u64 i)
{
	u64 j = i + 1;

	while (j < p->n && p->x[j].step == p->x[i].step)
		j++;
	return j;
}

/* The least position g whose first byte is at least @b. */
static u32 pos_at(const struct mc_rb *rb, u64 b, u64 len)
{
	u32 lo = 0, hi = mc_rb_positions(rb), mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (mc_rb_byte(rb, mid, len) < b)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static bool empty_pos(const struct mc_rb *rb, u32 g, u64 len)
{
	return mc_rb_byte(rb, g, len) == mc_rb_byte(rb, g + 1, len);
}

static bool before(const struct mc_rb_xfer *a, const struct mc_rb_xfer *b)
{
	if (a->step != b->step)
		return a->step < b->step;
	if (a->from != b->from)
		return a->from < b->from;
	if (a->to != b->to)
		return a->to < b->to;
	return a->off + a->len <= b->off;
}

static int check_record(const struct mc_rb_plan *p, u64 i,
			struct mc_rb_check_result *res)
{
	const struct mc_rb_xfer *x = &p->x[i];
	const struct mc_rb *rb = p->rb;
	u64 end = x->off + x->len;

	if (x->from >= rb->nodes || x->to >= rb->nodes)
		return fail(res, "node out of range", x->step, i, U64_MAX,
			    MC_NO_NODE, MC_NO_NODE);
	if (x->from == x->to)
		return fail(res, "a node sends to itself", x->step, i, U64_MAX,
			    x->from, MC_NO_NODE);
	if (x->step >= rb->steps)
		return fail(res, "more steps than the program has", x->step, i,
			    U64_MAX, MC_NO_NODE, MC_NO_NODE);
	if (!x->len || end < x->off || end > p->len)
		return fail(res, "range empty or outside the message", x->step,
			    i, U64_MAX, x->from, MC_NO_NODE);
	if (mc_rb_byte(rb, pos_at(rb, x->off, p->len), p->len) != x->off ||
	    mc_rb_byte(rb, pos_at(rb, end, p->len), p->len) != end)
		return fail(res, "range not on position boundaries", x->step,
			    i, U64_MAX, x->from, MC_NO_NODE);
	if (i && !before(&p->x[i - 1], x))
		return fail(res, "records out of order or overlapping",
			    x->step, i - 1, i, x->from, MC_NO_NODE);
	return 0;
}

u64 mc_rb_check_ws_words(const struct mc_rb *rb)
{
	u64 P = mc_rb_positions(rb), cover, chans;

	cover = (u64)rb->nodes * ((P + 31) / 32 + P);
	chans = 2 * mc_rb_nchans(rb) + mc_rb_route_max(rb);
	if (3 * (u64)rb->nodes > chans)
		chans = 3 * (u64)rb->nodes;
	return cover > chans ? cover : chans;
}

static bool bit_test(const u32 *set, u64 g)
{
	return set[g / 32] >> (g % 32) & 1;
}

static void bit_set(u32 *set, u64 g)
{
	set[g / 32] |= 1u << (g % 32);
}

/* Bytes a sender must hold and a receiver must not get twice. */
static int cover_record(const struct mc_rb_plan *p, u64 i, u32 *held,
			u32 *stamp, u64 W, struct mc_rb_check_result *res)
{
	const struct mc_rb_xfer *x = &p->x[i];
	const struct mc_rb *rb = p->rb;
	u64 P = mc_rb_positions(rb);
	u32 g0 = pos_at(rb, x->off, p->len);
	u32 g1 = pos_at(rb, x->off + x->len, p->len), g;
	u32 *st;

	for (g = g0; g < g1; g++) {
		if (empty_pos(rb, g, p->len))
			continue;
		if (!bit_test(held + x->from * W, g))
			return fail(res, "a node sends bytes it does not hold",
				    x->step, i, U64_MAX, x->from, MC_NO_NODE);
		st = &stamp[(u64)x->to * P + g];
		if (*st == x->step + 1)
			return fail(res, "a node gets the same bytes twice in one step",
				    x->step, i, U64_MAX, x->to, MC_NO_NODE);
		*st = x->step + 1;
	}
	return 0;
}

static void cover_apply(const struct mc_rb_plan *p, u64 i, u32 *held, u64 W)
{
	const struct mc_rb_xfer *x = &p->x[i];
	u32 g0 = pos_at(p->rb, x->off, p->len);
	u32 g1 = pos_at(p->rb, x->off + x->len, p->len), g;

	for (g = g0; g < g1; g++)
		bit_set(held + x->to * W, g);
}

int mc_rb_check_cover(const struct mc_rb_plan *p, u32 *ws,
		      struct mc_rb_check_result *res)
{
	const struct mc_rb *rb = p->rb;
	u64 P = mc_rb_positions(rb), W = (P + 31) / 32, i, j, e;
	u32 *held = ws, *stamp = ws + rb->nodes * W, u, g;
	int rc;

	pass(res);
	if (p->src >= rb->nodes)
		return fail(res, "source out of range", 0, U64_MAX, U64_MAX,
			    p->src, MC_NO_NODE);
	for (i = 0; i < p->n; i++) {
		rc = check_record(p, i, res);
		if (rc)
			return rc;
	}
	for (i = 0; i < rb->nodes * W + rb->nodes * P; i++)
		ws[i] = 0;
	for (g = 0; g < P; g++)
		bit_set(held + p->src * W, g);
	for (i = 0; i < p->n; i = e) {
		e = step_end(p, i);
		for (j = i; j < e; j++) {
			rc = cover_record(p, j, held, stamp, W, res);
			if (rc)
				return rc;
		}
		for (j = i; j < e; j++)
			cover_apply(p, j, held, W);
	}
	for (u = 0; u < rb->nodes; u++)
		for (g = 0; g < P; g++)
			if (!empty_pos(rb, g, p->len) &&
			    !bit_test(held + u * W, g))
				return fail(res, "a node misses bytes at the end",
					    rb->steps, U64_MAX, U64_MAX, u,
					    MC_NO_NODE);
	return 0;
}
MC_EXPORT(mc_rb_check_cover);

/* One-port: a node sends one message and receives one per step. */
static int ports_one(const struct mc_rb_plan *p, u32 *ws,
		     struct mc_rb_check_result *res)
{
	const struct mc_rb *rb = p->rb;
	u32 *out = ws, *in = ws + rb->nodes, *first = ws + 2 * rb->nodes;
	const struct mc_rb_xfer *x;
	u64 i, e;

	for (i = 0; i < 3 * (u64)rb->nodes; i++)
		ws[i] = 0;
	for (i = 0; i < p->n; i = e) {
		e = msg_end(p, i);
		x = &p->x[i];
		if (out[x->from] == x->step + 1)
			return fail(res, "one-port: a node sends two messages in one step",
				    x->step, i, U64_MAX, x->from, MC_NO_NODE);
		if (in[x->to] == x->step + 1)
			return fail(res, "one-port: a node receives two messages in one step",
				    x->step, first[x->to], i, x->to, MC_NO_NODE);
		out[x->from] = x->step + 1;
		in[x->to] = x->step + 1;
		first[x->to] = (u32)i;
	}
	return 0;
}

/* Route the message at record @i into @buf; the number of hops or error. */
static int route_msg(const struct mc_rb_plan *p, enum mc_rb_route r, u64 i,
		     u32 *buf, struct mc_rb_check_result *res)
{
	const struct mc_rb_xfer *x = &p->x[i];
	int n = mc_rb_route(p->rb, r, x->from, x->to, buf,
			    mc_rb_route_max(p->rb));

	if (n <= 0)
		return fail(res, "no route", x->step, i, U64_MAX, x->from,
			    MC_NO_NODE);
	return n;
}

/* All-port: one message per output and per input direction. */
static int ports_all(const struct mc_rb_plan *p, enum mc_rb_route r,
		     u32 *ws, struct mc_rb_check_result *res)
{
	u64 C = mc_rb_nchans(p->rb), i, e;
	u32 *out = ws, *in = ws + C, *buf = ws + 2 * C, step;
	int n;

	for (i = 0; i < 2 * C; i++)
		ws[i] = 0;
	for (i = 0; i < p->n; i = e) {
		e = msg_end(p, i);
		step = p->x[i].step;
		n = route_msg(p, r, i, buf, res);
		if (n < 0)
			return n;
		if (out[buf[0]] == step + 1)
			return fail(res, "all-port: two messages leave by one port",
				    step, i, U64_MAX, p->x[i].from, buf[0]);
		if (in[buf[n - 1]] == step + 1)
			return fail(res, "all-port: two messages arrive by one port",
				    step, i, U64_MAX, p->x[i].to, buf[n - 1]);
		out[buf[0]] = step + 1;
		in[buf[n - 1]] = step + 1;
	}
	return 0;
}

int mc_rb_check_ports(const struct mc_rb_plan *p, enum mc_rb_route r,
		      u32 *ws, struct mc_rb_check_result *res)
{
	pass(res);
	if (p->rb->ports == MC_RB_ONE_PORT)
		return ports_one(p, ws, res);
	return ports_all(p, r, ws, res);
}
MC_EXPORT(mc_rb_check_ports);

int mc_rb_check_contention(const struct mc_rb_plan *p, enum mc_rb_route r,
			   u32 *ws, struct mc_rb_check_result *res)
{
	u64 C = mc_rb_nchans(p->rb), i, e;
	u32 *stamp = ws, *owner = ws + C, *buf = ws + 2 * C, step;
	int n, h;

	pass(res);
	for (i = 0; i < C; i++)
		stamp[i] = 0;
	for (i = 0; i < p->n; i = e) {
		e = msg_end(p, i);
		step = p->x[i].step;
		n = route_msg(p, r, i, buf, res);
		if (n < 0)
			return n;
		for (h = 0; h < n; h++) {
			if (stamp[buf[h]] == step + 1)
				return fail(res, "two messages of one step share a channel",
					    step, owner[buf[h]], i,
					    p->x[i].from, buf[h]);
			stamp[buf[h]] = step + 1;
			owner[buf[h]] = (u32)i;
		}
	}
	return 0;
}
MC_EXPORT(mc_rb_check_contention);

/* ------------------------------------------------------------------ */
/* The sharper Lemma 6 (2D square, one-port)                           */

enum move { MOVE_DIAG = 1, MOVE_VERT = 2, MOVE_HORZ = 3 };

static u32 span_bits(u32 v)
{
	u32 b = 0;

	while (v >> b)
		b++;
	return b;
}

struct l6 {
	const struct mc_rb_plan *p;
	u32 n;
	u32 *stamp;	/* per key: step + 1 */
	u32 *a;		/* per key: first pair's low end, or a flow's dir */
	u32 *b;		/* per key: its high end, or the flow count */
	u32 step;
	u32 kind;
	u32 span;
};

static u32 cx(const struct l6 *l, u32 v)
{
	return v & ((1u << l->n) - 1);
}

static u32 cy(const struct l6 *l, u32 v)
{
	return v >> l->n;
}

static bool fresh(struct l6 *l, u32 key)
{
	if (l->stamp[key] == l->step + 1)
		return false;
	l->stamp[key] = l->step + 1;
	return true;
}

/* Stage 1: distinct sender rows and receiver columns (two key spaces). */
static const char *l6_diag(struct l6 *l, const struct mc_rb_xfer *x)
{
	u32 N = 1u << l->n;

	if (!fresh(l, cy(l, x->from)))
		return "Lemma 6: two diagonal senders in one row";
	if (!fresh(l, N + cx(l, x->to)))
		return "Lemma 6: two diagonal receivers in one column";
	return NULL;
}

/* Mirror: one pair per column and aligned block. */
static const char *l6_vert(struct l6 *l, const struct mc_rb_xfer *x)
{
	u32 lo = x->from < x->to ? x->from : x->to;
	u32 hi = x->from ^ x->to ^ lo;
	u32 key = cx(l, x->from) << l->n | cy(l, x->from) >> l->span;

	if (fresh(l, key)) {
		l->a[key] = lo;
		l->b[key] = hi;
		return NULL;
	}
	if (l->a[key] != lo || l->b[key] != hi)
		return "Lemma 6: two vertical pairs in one column block";
	return NULL;
}

/* Shift: at most two flows per row and aligned block, opposite ways. */
static const char *l6_horz(struct l6 *l, const struct mc_rb_xfer *x)
{
	u32 key = cy(l, x->from) << l->n | cx(l, x->from) >> l->span;
	u32 up = cx(l, x->to) > cx(l, x->from);

	if (fresh(l, key)) {
		l->a[key] = up;
		l->b[key] = 1;
		return NULL;
	}
	if (l->b[key] >= 2)
		return "Lemma 6: three horizontal flows in one row block";
	if (l->a[key] == up)
		return "Lemma 6: two horizontal flows one way in one row block";
	l->b[key]++;
	return NULL;
}

static u32 classify(const struct l6 *l, const struct mc_rb_xfer *x,
		    u32 *span)
{
	u32 fx = cx(l, x->from), tx = cx(l, x->to);
	u32 fy = cy(l, x->from), ty = cy(l, x->to);
	u32 ax = fx > tx ? fx - tx : tx - fx, ay = fy > ty ? fy - ty : ty - fy;

	if (fx == tx) {
		*span = span_bits(fy ^ ty);
		return MOVE_VERT;
	}
	if (fy == ty) {
		*span = span_bits(fx ^ tx);
		return MOVE_HORZ;
	}
	*span = 0;
	return ax == ay ? MOVE_DIAG : 0;
}

static const char *l6_msg(struct l6 *l, const struct mc_rb_xfer *x)
{
	u32 span, kind = classify(l, x, &span);

	if (!kind)
		return "Lemma 6: a move neither diagonal nor straight";
	if (!l->kind) {
		l->kind = kind;
		l->span = span;
	}
	if (kind != l->kind || span != l->span)
		return "Lemma 6: one step mixes kinds or spans of moves";
	if (kind == MOVE_DIAG)
		return l6_diag(l, x);
	if (kind == MOVE_VERT)
		return l6_vert(l, x);
	return l6_horz(l, x);
}

int mc_rb_check_lemma6(const struct mc_rb_plan *p, u32 *ws,
		       struct mc_rb_check_result *res)
{
	const struct mc_rb *rb = p->rb;
	struct l6 l;
	const char *why;
	u64 i, e;

	pass(res);
	if (rb->shape != MC_RB_CUBE || rb->d != 2 ||
	    rb->ports != MC_RB_ONE_PORT)
		return fail(res, "the sharper Lemma 6 is for the one-port 2D square",
			    0, U64_MAX, U64_MAX, MC_NO_NODE, MC_NO_NODE);
	l.p = p;
	l.n = rb->n;
	l.stamp = ws;
	l.a = ws + rb->nodes;
	l.b = ws + 2 * rb->nodes;
	for (i = 0; i < rb->nodes; i++)
		l.stamp[i] = 0;
	l.kind = 0;
	l.span = 0;
	l.step = 0xffffffffu;
	for (i = 0; i < p->n; i = e) {
		e = msg_end(p, i);
		if (p->x[i].step != l.step) {
			l.step = p->x[i].step;
			l.kind = 0;
		}
		why = l6_msg(&l, &p->x[i]);
		if (why)
			return fail(res, why, l.step, i, U64_MAX, p->x[i].from,
				    MC_NO_NODE);
	}
	return 0;
}
MC_EXPORT(mc_rb_check_lemma6);

/* ------------------------------------------------------------------ */
/* Cost                                                                */

void mc_rb_plan_cost(const struct mc_rb_plan *p, u32 *alpha, u64 *bytes)
{
	u64 i, e, j, msg, big = 0, sum = 0;
	u32 step = 0;

	*alpha = 0;
	for (i = 0; i < p->n; i = e) {
		e = msg_end(p, i);
		if (!i || p->x[i].step != step) {
			sum += big;
			big = 0;
			step = p->x[i].step;
			*alpha = step + 1;
		}
		msg = 0;
		for (j = i; j < e; j++)
			msg += p->x[j].len;
		if (msg > big)
			big = msg;
	}
	*bytes = sum + big;
}
MC_EXPORT(mc_rb_plan_cost);

/*
 * beta * S*U = W, the sum over steps of the largest message in positions.
 * A position has q = floor(L / (S*U)) or q + 1 bytes, so the plan's bytes
 * lie in [W q, W (q + 1)], and are W q exactly when S*U divides L.
 */
int mc_rb_check_cost(const struct mc_rb_plan *p,
		     struct mc_rb_check_result *res)
{
	struct mc_rb_cost c;
	u64 bytes, W, q, P = mc_rb_positions(p->rb);
	u32 alpha;

	pass(res);
	mc_rb_formula(p->rb, &c);
	mc_rb_plan_cost(p, &alpha, &bytes);
	if (alpha != c.alpha)
		return fail(res, "step count differs from the closed form",
			    alpha, U64_MAX, U64_MAX, MC_NO_NODE, MC_NO_NODE);
	if (c.beta_num * P % c.beta_den)
		return fail(res, "closed form not in whole positions", alpha,
			    U64_MAX, U64_MAX, MC_NO_NODE, MC_NO_NODE);
	W = c.beta_num * P / c.beta_den;
	q = p->len / P;
	if (bytes < W * q || bytes > W * (q + 1) ||
	    (p->len % P == 0 && bytes != W * q))
		return fail(res, "beta * L differs from the closed form", alpha,
			    U64_MAX, U64_MAX, MC_NO_NODE, MC_NO_NODE);
	return 0;
}
MC_EXPORT(mc_rb_check_cost);
