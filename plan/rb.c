// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Recursion-based broadcast: the program of a shape, the per-node schedule
 * (linear algebra over the partner masks) and the whole-broadcast planner
 * (a simulation of every node's logical content).
 */
#include "rb.h"

static int rb_fail(const char **why, const char *msg, int err)
{
	if (why)
		*why = msg;
	return err;
}

static int lg2(u32 k)
{
	int b = 0;

	if (!k || (k & (k - 1)))
		return -1;
	while (k >> (b + 1))
		b++;
	return b;
}

static int msb64(u64 v)
{
	int b = -1;

	while (v) {
		v >>= 1;
		b++;
	}
	return b;
}

/* @v in dimension @dim of stream @i's relabelling j -> (j + i) mod d. */
static u32 dmask(const struct mc_rb *rb, u32 dim, u32 i, u32 v)
{
	return v << rb->off[(dim + i) % rb->d];
}

static u32 diag(const struct mc_rb *rb, u32 v)
{
	u32 mask = 0, j;

	for (j = 0; j < rb->d; j++)
		mask |= v << rb->off[j];
	return mask;
}

static struct mc_rb_op *add_op(struct mc_rb *rb, u8 kind, u8 bit)
{
	struct mc_rb_op *op = &rb->op[rb->steps++];
	u32 i;

	op->kind = kind;
	op->bit = bit;
	op->fmask = 0;
	op->fval = 0;
	for (i = 0; i < MC_RB_MAX_STREAMS; i++)
		op->mask[i] = 0;
	return op;
}

/* Diagonal split on unit bit @b: the same mask in every stream. */
static void split_diag(struct mc_rb *rb, u32 b)
{
	struct mc_rb_op *op = add_op(rb, MC_RB_SPLIT, b);
	u32 i;

	for (i = 0; i < rb->streams; i++)
		op->mask[i] = diag(rb, 1u << b);
}

/* Cube split j onto the next pair of diagonals: flip all of dim j+1. */
static void split_dim(struct mc_rb *rb, u32 j)
{
	struct mc_rb_op *op = add_op(rb, MC_RB_SPLIT, rb->n + j);
	u32 i;

	for (i = 0; i < rb->streams; i++)
		op->mask[i] = dmask(rb, j + 1, i, (1u << rb->n) - 1);
}

static void share(struct mc_rb *rb, u32 dim, u32 v)
{
	struct mc_rb_op *op = add_op(rb, MC_RB_SHARE, 0);
	u32 i;

	for (i = 0; i < rb->streams; i++)
		op->mask[i] = dmask(rb, dim, i, v);
}

/*
 * Stage 2 of a 2^k block: the mirror, then each shift (notes 3.5):
 * 2D mirror y shift x; d >= 3 mirror 0, shifts d-1 .. 1.
 */
static void cube_round(struct mc_rb *rb, u32 k)
{
	u32 j;

	if (rb->d == 2) {
		share(rb, 1, (1u << k) - 1);
		share(rb, 0, 1u << (k - 1));
		return;
	}
	share(rb, 0, (1u << k) - 1);
	for (j = rb->d - 1; j >= 1; j--)
		share(rb, j, 1u << (k - 1));
}

static void cube_program(struct mc_rb *rb)
{
	u32 n = rb->n, j, b, k;

	rb->ubits = n + rb->d - 2;
	if (rb->order == MC_RB_ORDER_RANGES && rb->streams > 1) {
		for (j = 0; j + 2 < rb->d; j++)
			split_dim(rb, j);
		for (b = 0; b < n; b++)
			split_diag(rb, b);
	} else if (rb->order == MC_RB_ORDER_RANGES) {
		/* the first split, the smallest diagonal, the other splits */
		for (j = 0; j + 2 < rb->d; j++) {
			split_dim(rb, j);
			if (!j)
				split_diag(rb, 0);
		}
		for (b = rb->d > 2 ? 1 : 0; b < n; b++)
			split_diag(rb, b);
	} else {
		for (b = n; b-- > 0;)
			split_diag(rb, b);
		for (j = 0; j + 2 < rb->d; j++)
			split_dim(rb, j);
	}
	rb->splits = rb->steps;
	for (k = n; k >= 1; k--)
		cube_round(rb, k);
}

/* Rect split on unit bit @b: a diagonal step below m, else a long one. */
static void split_rect(struct mc_rb *rb, u32 b)
{
	struct mc_rb_op *op = add_op(rb, MC_RB_SPLIT, b);

	op->mask[0] = 1u << (rb->off[rb->ldim] + b);
	if (b < rb->m)
		op->mask[0] |= 1u << (rb->off[rb->sdim] + b);
}

/*
 * The reduce (notes 3.2): level j exchanges with the square 2^(j-1)
 * squares away; pairs of one group overlap on their row, so the groups
 * (Q mod 2^(j-1) = t, Q the relative square index) take turns.
 */
static void rect_reduce(struct mc_rb *rb)
{
	u32 k = rb->n - rb->m, sh = rb->off[rb->ldim] + rb->m, j, t;
	struct mc_rb_op *op;

	for (j = k; j >= 1; j--) {
		for (t = 0; t < 1u << (j - 1); t++) {
			op = add_op(rb, MC_RB_SHARE, 0);
			op->mask[0] = 1u << (sh + j - 1);
			op->fmask = ((1u << (j - 1)) - 1) << sh;
			op->fval = t << sh;
		}
	}
}

static void rect_program(struct mc_rb *rb)
{
	u32 n = rb->n, m = rb->m, b, k;

	rb->ubits = n;
	if (rb->order == MC_RB_ORDER_RANGES) {
		for (b = 0; b < m; b++)
			split_rect(rb, b);
		for (b = n; b-- > m;)
			split_rect(rb, b);
	} else {
		for (b = n; b-- > 0;)
			split_rect(rb, b);
	}
	rb->splits = rb->steps;
	rect_reduce(rb);
	for (k = m; k >= 1; k--) {
		share(rb, rb->sdim, (1u << k) - 1);
		share(rb, rb->ldim, 1u << (k - 1));
	}
}

/* The first split is the position's top bit (stage 1 halves a range). */
static void layout(struct mc_rb *rb)
{
	u32 s;

	for (s = 0; s < rb->splits; s++)
		rb->pos_bit[rb->op[s].bit] = rb->ubits - 1 - s;
}

static int rb_shape(struct mc_rb *rb, const struct mc_torus *t,
		    const char **why)
{
	u32 i, lo = 0, hi = 0;
	int b;

	rb->d = t->n;
	rb->nodes = t->nodes;
	for (i = 0; i < MC_MAX_DIMS; i++)
		rb->lg[i] = rb->off[i] = 0;
	for (i = 0; i < t->n; i++) {
		b = lg2(t->k[i]);
		if (b < 0)
			return rb_fail(why, "every side must be a power of two (notes 3.8)", -EINVAL);
		rb->lg[i] = b;
		rb->off[i] = i ? rb->off[i - 1] + rb->lg[i - 1] : 0;
		if (rb->lg[i] < rb->lg[lo])
			lo = i;
		if (rb->lg[i] > rb->lg[hi])
			hi = i;
	}
	rb->n = rb->lg[hi];
	rb->m = rb->lg[lo];
	if (rb->n == rb->m) {
		rb->shape = MC_RB_CUBE;
		return 0;
	}
	if (rb->d != 2)
		return rb_fail(why, "unequal sides only in 2D (notes 3.2)", -EINVAL);
	if (rb->n - rb->m > MC_RB_MAX_RECT_K)
		return rb_fail(why, "a side more than 32 times the other: the reduce has 2^k - 1 steps", -E2BIG);
	rb->shape = MC_RB_RECT;
	rb->ldim = hi;
	rb->sdim = lo;
	return 0;
}

int mc_rb_init(struct mc_rb *rb, const struct mc_torus *t, bool mesh,
	       enum mc_rb_ports ports, enum mc_rb_order order,
	       const char **why)
{
	int rc;

	if (t->rank)
		return rb_fail(why, "a switched cluster is not a mesh or torus", -EINVAL);
	if (t->n < 2)
		return rb_fail(why, "RB needs at least two dimensions", -EINVAL);
	if (!mesh && t->links != MC_LINKS_BI)
		return rb_fail(why, "a torus needs links both ways (notes 1.1)", -EINVAL);
	if (ports != MC_RB_ONE_PORT && ports != MC_RB_ALL_PORT)
		return rb_fail(why, "unknown port model", -EINVAL);
	if (order != MC_RB_ORDER_RANGES && order != MC_RB_ORDER_PAPER)
		return rb_fail(why, "unknown stage-1 order", -EINVAL);
	rc = rb_shape(rb, t, why);
	if (rc)
		return rc;
	if (rb->shape == MC_RB_RECT && ports == MC_RB_ALL_PORT)
		return rb_fail(why, "all-port only with equal sides (notes 3.6.3)", -EINVAL);
	rb->mesh = mesh;
	rb->ports = ports;
	rb->order = order;
	rb->streams = ports == MC_RB_ALL_PORT ? rb->d : 1;
	rb->steps = 0;
	if (rb->shape == MC_RB_CUBE)
		cube_program(rb);
	else
		rect_program(rb);
	layout(rb);
	return 0;
}
MC_EXPORT(mc_rb_init);

u32 mc_rb_pos(const struct mc_rb *rb, u32 z)
{
	u32 p = 0, b;

	for (b = 0; b < rb->ubits; b++)
		if (z >> b & 1)
			p |= 1u << rb->pos_bit[b];
	return p;
}

u32 mc_rb_unit(const struct mc_rb *rb, u32 pos)
{
	u32 z = 0, b;

	for (b = 0; b < rb->ubits; b++)
		if (pos >> rb->pos_bit[b] & 1)
			z |= 1u << b;
	return z;
}

u64 mc_rb_byte(const struct mc_rb *rb, u32 g, u64 len)
{
	u64 all = mc_rb_positions(rb);

	/* g * len / all without overflow: all is at most 2^26 */
	return g * (len / all) + g * (len % all) / all;
}

u32 mc_rb_home(const struct mc_rb *rb, u32 stream, u32 z)
{
	u32 h = 0, s;

	for (s = 0; s < rb->splits; s++)
		if (z >> rb->op[s].bit & 1)
			h ^= rb->op[s].mask[stream];
	return h;
}

static bool passes(const struct mc_rb_op *op, u32 rel)
{
	return (rel & op->fmask) == op->fval;
}

/* ------------------------------------------------------------------ */
/* Per node                                                            */

/*
 * An echelon basis of partner masks: pivot bit -> vector and the steps
 * it combines.  Masks of one unit's shares are independent (each share
 * doubles its holders), so every node reached decomposes uniquely.
 */
struct basis {
	u32 vec[32];
	u64 comb[32];
	u64 pattern;	/* the shares it spans */
	bool valid;
};

static void basis_build(struct basis *bs, const struct mc_rb *rb, u32 i,
			u64 pattern)
{
	u32 s, v;
	u64 c;
	int b;

	for (b = 0; b < 32; b++)
		bs->vec[b] = 0;
	for (s = rb->splits; s < rb->steps; s++) {
		if (!(pattern >> s & 1))
			continue;
		v = rb->op[s].mask[i];
		c = 1ull << s;
		for (b = 31; b >= 0 && v; b--) {
			if (!(v >> b & 1))
				continue;
			if (!bs->vec[b]) {
				bs->vec[b] = v;
				bs->comb[b] = c;
				break;
			}
			v ^= bs->vec[b];
			c ^= bs->comb[b];
		}
	}
	bs->pattern = pattern;
	bs->valid = true;
}

/* The shares that combine to @v, or U64_MAX if none do. */
static u64 basis_solve(const struct basis *bs, u32 v)
{
	u64 c = 0;
	int b;

	for (b = 31; b >= 0 && v; b--) {
		if (!(v >> b & 1))
			continue;
		if (!bs->vec[b])
			return U64_MAX;
		v ^= bs->vec[b];
		c ^= bs->comb[b];
	}
	return c;
}

/* The shares a unit whose home is @home (relative) takes part in. */
static u64 unit_pattern(const struct mc_rb *rb, u32 home)
{
	u64 pat = 0;
	u32 s;

	for (s = rb->splits; s < rb->steps; s++)
		if (passes(&rb->op[s], home))
			pat |= 1ull << s;
	return pat;
}

/* Stage-1 splits of stream @i that combine to @rel, or U64_MAX. */
static u64 split_solve(const struct mc_rb *rb, u32 i, u32 rel)
{
	struct basis bs;
	u32 s, v;
	u64 c;
	int b;

	for (b = 0; b < 32; b++)
		bs.vec[b] = 0;
	for (s = 0; s < rb->splits; s++) {
		v = rb->op[s].mask[i];
		c = 1ull << s;
		for (b = 31; b >= 0 && v; b--) {
			if (!(v >> b & 1))
				continue;
			if (!bs.vec[b]) {
				bs.vec[b] = v;
				bs.comb[b] = c;
				break;
			}
			v ^= bs.vec[b];
			c ^= bs.comb[b];
		}
	}
	return basis_solve(&bs, rel);
}

/* The low @t bits of @c reversed: split s is position bit t-1-s. */
static u32 rev_bits(u64 c, u32 t)
{
	u32 r = 0, s;

	for (s = 0; s < t; s++)
		r |= (u32)(c >> s & 1) << (t - 1 - s);
	return r;
}

/* What the node knows about itself, for each stream. */
struct node_ctx {
	const struct mc_rb *rb;
	u32 node;
	u32 rel;
	u64 len;
	u8 *arr;			/* stage-2 arrival per position */
	u64 s1[MC_RB_MAX_STREAMS];	/* its stage-1 splits, or U64_MAX */
	struct mc_rb_xfer *out;
	u64 max;
	u64 count;
};

static int node_arrivals(struct node_ctx *cx)
{
	const struct mc_rb *rb = cx->rb;
	u32 U = mc_rb_units(rb), i, p, home;
	struct basis bs;
	u64 pat, c;

	for (i = 0; i < rb->streams; i++) {
		cx->s1[i] = split_solve(rb, i, cx->rel);
		bs.valid = false;
		bs.pattern = 0;
		for (p = 0; p < U; p++) {
			home = mc_rb_home(rb, i, mc_rb_unit(rb, p));
			pat = unit_pattern(rb, home);
			if (!bs.valid || bs.pattern != pat)
				basis_build(&bs, rb, i, pat);
			c = basis_solve(&bs, cx->rel ^ home);
			if (c == U64_MAX)
				return -EINVAL;	/* a program that misses a node */
			cx->arr[(i << rb->ubits) + p] = c ? msb64(c) : MC_RB_HOME;
		}
	}
	return 0;
}

/*
 * Whether position @p of stream @i is in what the node sends (@send) or
 * receives in step @t.  Stage 1: the holder's content is the positions
 * whose top t bits are its splits; it sends those with the next bit set.
 */
static bool node_has(const struct node_ctx *cx, u32 i, u32 p, u32 t,
		    bool send)
{
	const struct mc_rb *rb = cx->rb;
	u64 c = cx->s1[i];
	u32 top, a;

	if (t < rb->splits) {
		if (c == U64_MAX)
			return false;
		if (send) {
			if (c >> t)
				return false;
			top = p >> (rb->ubits - t - 1);
			return top == (rev_bits(c, t) << 1 | 1);
		}
		if (msb64(c) != (int)t)
			return false;
		return p >> (rb->ubits - t - 1) == rev_bits(c, t + 1);
	}
	a = cx->arr[(i << rb->ubits) + p];
	if (!send)
		return a == t;
	if (a != MC_RB_HOME && a >= t)
		return false;
	return !rb->op[t].fmask ||
	       passes(&rb->op[t], mc_rb_home(rb, i, mc_rb_unit(rb, p)));
}

/* Records of one message, built run by run, merged when they touch. */
struct emit {
	struct mc_rb_xfer cur;
	bool open;
	struct mc_rb_xfer *out;
	u64 max;
	u64 *count;
};

static void emit_flush(struct emit *e)
{
	if (!e->open)
		return;
	if (*e->count < e->max)
		e->out[*e->count] = e->cur;
	(*e->count)++;
	e->open = false;
}

/* Positions [g0, g1) of the message (step, from, to). */
static void emit_run(struct emit *e, const struct mc_rb *rb, u32 step,
		     u32 from, u32 to, u32 g0, u32 g1, u64 len)
{
	u64 b0 = mc_rb_byte(rb, g0, len), b1 = mc_rb_byte(rb, g1, len);

	if (b0 == b1)
		return;		/* empty units of a short message */
	if (e->open && e->cur.off + e->cur.len == b0) {
		e->cur.len += b1 - b0;
		return;
	}
	emit_flush(e);
	e->cur.step = step;
	e->cur.from = from;
	e->cur.to = to;
	e->cur.off = b0;
	e->cur.len = b1 - b0;
	e->open = true;
}

/* One message of the node: a peer, a direction, the streams it carries. */
struct nmsg {
	u32 from;
	u32 to;
	u32 streams;
	bool send;
};

static void nmsg_add(struct nmsg *m, u32 *n, u32 from, u32 to, u32 i,
		     bool send)
{
	u32 j;

	for (j = 0; j < *n; j++) {
		if (m[j].from == from && m[j].to == to) {
			m[j].streams |= 1u << i;
			return;
		}
	}
	m[*n].from = from;
	m[*n].to = to;
	m[*n].streams = 1u << i;
	m[*n].send = send;
	(*n)++;
}

/* Insertion sort by (from, to): at most 2 * MC_RB_MAX_STREAMS entries. */
static void nmsg_sort(struct nmsg *m, u32 n)
{
	struct nmsg x;
	u32 i, j;

	for (i = 1; i < n; i++) {
		x = m[i];
		for (j = i; j > 0 && (m[j - 1].from > x.from ||
		     (m[j - 1].from == x.from && m[j - 1].to > x.to)); j--)
			m[j] = m[j - 1];
		m[j] = x;
	}
}

static void node_message(struct node_ctx *cx, struct emit *e,
			 const struct nmsg *m, u32 t)
{
	const struct mc_rb *rb = cx->rb;
	u32 U = mc_rb_units(rb), i, p, g0;
	bool in, was;

	for (i = 0; i < rb->streams; i++) {
		if (!(m->streams >> i & 1))
			continue;
		was = false;
		g0 = 0;
		for (p = 0; p <= U; p++) {
			in = p < U && node_has(cx, i, p, t, m->send);
			if (in && !was)
				g0 = (i << rb->ubits) + p;
			if (!in && was)
				emit_run(e, rb, t, m->from, m->to, g0,
					 (i << rb->ubits) + p, cx->len);
			was = in;
		}
	}
	emit_flush(e);
}

static void node_step(struct node_ctx *cx, struct emit *e, u32 t)
{
	const struct mc_rb *rb = cx->rb;
	struct nmsg m[2 * MC_RB_MAX_STREAMS];
	u32 n = 0, i, peer;

	for (i = 0; i < rb->streams; i++) {
		peer = cx->node ^ rb->op[t].mask[i];
		nmsg_add(m, &n, cx->node, peer, i, true);
		nmsg_add(m, &n, peer, cx->node, i, false);
	}
	nmsg_sort(m, n);
	for (i = 0; i < n; i++)
		node_message(cx, e, &m[i], t);
}

u64 mc_rb_node_ws_bytes(const struct mc_rb *rb)
{
	return mc_rb_positions(rb);
}

int mc_rb_node(const struct mc_rb *rb, u32 src, u32 node, u64 len, u8 *ws,
	       struct mc_rb_xfer *out, u64 max, u64 *count)
{
	struct node_ctx cx;
	struct emit e;
	u32 t;
	int rc;

	*count = 0;
	if (src >= rb->nodes || node >= rb->nodes)
		return -EINVAL;
	cx.rb = rb;
	cx.node = node;
	cx.rel = node ^ src;
	cx.len = len;
	cx.arr = ws;
	rc = node_arrivals(&cx);
	if (rc)
		return rc;
	e.open = false;
	e.out = out;
	e.max = max;
	e.count = count;
	for (t = 0; t < rb->steps; t++)
		node_step(&cx, &e, t);
	return *count > max ? -ENOSPC : 0;
}
MC_EXPORT(mc_rb_node);

/* ------------------------------------------------------------------ */
/* Whole broadcast                                                     */

struct sim {
	const struct mc_rb *rb;
	u32 words;	/* u64s per node and stream */
	u64 *hold;	/* logical content: (node * S + stream) * words */
	u64 *out;	/* what each node sends in the current step */
};

static u64 *sim_set(const struct sim *sm, u64 *base, u32 node, u32 i)
{
	return base + ((u64)node * sm->rb->streams + i) * sm->words;
}

static bool sim_test(const u64 *set, u32 z)
{
	return set[z / 64] >> (z % 64) & 1;
}

/* What @node sends in step @t to node ^ mask: computed before applying. */
static bool sim_select(struct sim *sm, u32 t, u32 src, u32 node, u32 i)
{
	const struct mc_rb *rb = sm->rb;
	const struct mc_rb_op *op = &rb->op[t];
	u64 *h = sim_set(sm, sm->hold, node, i);
	u64 *o = sim_set(sm, sm->out, node, i);
	u32 w, z;
	bool any = false;

	for (w = 0; w < sm->words; w++)
		o[w] = 0;
	if (op->kind == MC_RB_SHARE && !passes(op, node ^ src))
		return false;
	for (z = 0; z < mc_rb_units(rb); z++) {
		if (!sim_test(h, z))
			continue;
		if (op->kind == MC_RB_SPLIT && !(z >> op->bit & 1))
			continue;
		o[z / 64] |= 1ull << (z % 64);
		any = true;
	}
	return any;
}

/* The positions of the out sets of @node to @to, in order. */
static void sim_message(struct sim *sm, struct emit *e, u32 t, u32 node,
			u32 to, u32 streams, u64 len)
{
	const struct mc_rb *rb = sm->rb;
	u32 U = mc_rb_units(rb), i, p, g0 = 0;
	const u64 *o;
	bool in, was;

	for (i = 0; i < rb->streams; i++) {
		if (!(streams >> i & 1))
			continue;
		o = sim_set(sm, sm->out, node, i);
		was = false;
		for (p = 0; p <= U; p++) {
			in = p < U && sim_test(o, mc_rb_unit(rb, p));
			if (in && !was)
				g0 = (i << rb->ubits) + p;
			if (!in && was)
				emit_run(e, rb, t, node, to, g0,
					 (i << rb->ubits) + p, len);
			was = in;
		}
	}
	emit_flush(e);
}

static void sim_emit(struct sim *sm, struct emit *e, u32 t, u32 node,
		     u32 active, u64 len)
{
	const struct mc_rb *rb = sm->rb;
	u32 left = active, i, j, peer, best, streams;

	/* messages by peer: the streams that go to one peer travel together */
	while (left) {
		best = MC_NO_NODE;
		for (i = 0; i < rb->streams; i++) {
			peer = node ^ rb->op[t].mask[i];
			if (left >> i & 1 && peer < best)
				best = peer;
		}
		streams = 0;
		for (j = 0; j < rb->streams; j++)
			if (left >> j & 1 &&
			    (node ^ rb->op[t].mask[j]) == best)
				streams |= 1u << j;
		sim_message(sm, e, t, node, best, streams, len);
		left &= ~streams;
	}
}

static void sim_apply(struct sim *sm, u32 t)
{
	const struct mc_rb *rb = sm->rb;
	u32 u, i, w, peer;
	u64 *h, *o;

	if (rb->op[t].kind == MC_RB_SPLIT) {
		for (u = 0; u < rb->nodes; u++) {
			for (i = 0; i < rb->streams; i++) {
				h = sim_set(sm, sm->hold, u, i);
				o = sim_set(sm, sm->out, u, i);
				for (w = 0; w < sm->words; w++)
					h[w] &= ~o[w];
			}
		}
	}
	for (u = 0; u < rb->nodes; u++) {
		for (i = 0; i < rb->streams; i++) {
			peer = u ^ rb->op[t].mask[i];
			h = sim_set(sm, sm->hold, peer, i);
			o = sim_set(sm, sm->out, u, i);
			for (w = 0; w < sm->words; w++)
				h[w] |= o[w];
		}
	}
}

u64 mc_rb_plan_ws_words(const struct mc_rb *rb)
{
	u64 words = (mc_rb_units(rb) + 63) / 64;

	return 2 * words * rb->streams * rb->nodes;
}

int mc_rb_plan(struct mc_rb_plan *p, const struct mc_rb *rb, u32 src,
	       u64 len, u64 *ws)
{
	struct sim sm;
	struct emit e;
	u64 all = mc_rb_plan_ws_words(rb) / 2, w;
	u32 t, u, i, active;

	p->rb = rb;
	p->src = src;
	p->len = len;
	p->n = 0;
	if (src >= rb->nodes)
		return -EINVAL;
	sm.rb = rb;
	sm.words = (mc_rb_units(rb) + 63) / 64;
	sm.hold = ws;
	sm.out = ws + all;
	for (w = 0; w < all; w++)
		sm.hold[w] = 0;
	for (i = 0; i < rb->streams; i++)
		for (u = 0; u < mc_rb_units(rb); u++)
			sim_set(&sm, sm.hold, src, i)[u / 64] |= 1ull << (u % 64);
	e.open = false;
	e.out = p->x;
	e.max = p->cap;
	e.count = &p->n;
	for (t = 0; t < rb->steps; t++) {
		for (u = 0; u < rb->nodes; u++) {
			active = 0;
			for (i = 0; i < rb->streams; i++)
				if (sim_select(&sm, t, src, u, i))
					active |= 1u << i;
			sim_emit(&sm, &e, t, u, active, len);
		}
		sim_apply(&sm, t);
	}
	return p->n > p->cap ? -ENOSPC : 0;
}
MC_EXPORT(mc_rb_plan);
