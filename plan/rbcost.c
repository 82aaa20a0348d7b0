// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Recursion-based broadcast costs: the notes' closed forms (exact
 * fractions), the model latency, and the choice against the U-torus tree.
 */
#include "rb.h"

/* num / den, den a power of two times at most 8: no overflow below. */
struct frac {
	s64 num;
	u64 den;
};

static u64 gcd(u64 a, u64 b)
{
	u64 t;

	while (b) {
		t = a % b;
		a = b;
		b = t;
	}
	return a;
}

static struct frac fr(s64 num, u64 den)
{
	u64 a = num < 0 ? (u64)-num : (u64)num, g = gcd(a, den);
	struct frac f;

	if (!g)
		g = den;
	f.num = num / (s64)g;
	f.den = den / g;
	return f;
}

static struct frac fr_add(struct frac a, struct frac b)
{
	u64 g = gcd(a.den, b.den);

	return fr(a.num * (s64)(b.den / g) + b.num * (s64)(a.den / g),
		  a.den / g * b.den);
}

static struct frac fr_neg(struct frac a)
{
	a.num = -a.num;
	return a;
}

static struct frac fr_div(struct frac a, u32 d)
{
	return fr(a.num, a.den * d);
}

/* 1 / 2^e, and 1 - 1 / 2^e. */
static struct frac inv2(u32 e)
{
	return fr(1, 1ull << e);
}

static struct frac one_minus(u32 e)
{
	return fr_add(fr(1, 1), fr_neg(inv2(e)));
}

/* One-port beta of a cube: 2 + (d-1)/2^(d-1) - d/2^(n+d-2) (notes 3.5). */
static struct frac cube_beta(u32 d, u32 n)
{
	struct frac b = fr_add(fr(2, 1), fr((s64)d - 1, 1ull << (d - 1)));

	return fr_add(b, fr_neg(fr(d, 1ull << (n + d - 2))));
}

/* Notes 4.2: 5/2 + (k-2)/2^(m+1) - 1/2^n. */
static struct frac rect_beta(u32 m, u32 k)
{
	struct frac b = fr_add(fr(5, 2), fr((s64)k - 2, 1ull << (m + 1)));

	return fr_add(b, fr_neg(inv2(m + k)));
}

/*
 * All-port.  PAPER (notes 3.6.3): the shared diagonal scatter costs
 * 1 - 2^-n, the rest is split d ways.  RANGES: the d-2 splits run per
 * stream first ((1 - 2^-(d-2))/d), then the diagonal carries 2^-(d-2)
 * of the message ((1 - 2^-n)/2^(d-2)), and stage 2 is split d ways:
 * beta_1 less all of stage 1, 1 - 2^-(n+d-2).
 */
static struct frac allport_beta(const struct mc_rb *rb, struct frac b1)
{
	u32 d = rb->d, n = rb->n;
	struct frac b;

	if (rb->order == MC_RB_ORDER_PAPER) {
		b = fr_div(fr_add(b1, fr_neg(one_minus(n))), d);
		return fr_add(one_minus(n), b);
	}
	b = fr_div(one_minus(d - 2), d);
	b = fr_add(b, fr_div(one_minus(n), 1u << (d - 2)));
	return fr_add(b, fr_div(fr_add(b1, fr_neg(one_minus(n + d - 2))), d));
}

void mc_rb_formula(const struct mc_rb *rb, struct mc_rb_cost *c)
{
	u32 d = rb->d, n = rb->n, m = rb->m, k = n - m;
	struct frac b;

	if (rb->shape == MC_RB_RECT) {
		c->alpha = 3 * m + k + (1u << k) - 1;
		b = rect_beta(m, k);
	} else {
		c->alpha = (d + 1) * n + d - 2;
		b = cube_beta(d, n);
		if (rb->ports == MC_RB_ALL_PORT)
			b = allport_beta(rb, b);
	}
	c->beta_num = (u64)b.num;
	c->beta_den = b.den;
}
MC_EXPORT(mc_rb_formula);

static u32 log2_nodes(const struct mc_rb *rb)
{
	u32 l = 0, i;

	for (i = 0; i < rb->d; i++)
		l += rb->lg[i];
	return l;
}

void mc_rb_utorus_cost(const struct mc_rb *rb, struct mc_rb_cost *c)
{
	c->alpha = log2_nodes(rb);
	c->beta_num = c->alpha;
	c->beta_den = 1;
}
MC_EXPORT(mc_rb_utorus_cost);

static u64 sat_mul(u64 a, u64 b)
{
	if (a && b > U64_MAX / a)
		return U64_MAX;
	return a * b;
}

static u64 sat_add(u64 a, u64 b)
{
	return a > U64_MAX - b ? U64_MAX : a + b;
}

u64 mc_rb_time(const struct mc_rb_cost *c, u64 len, u64 ts, u64 tc)
{
	u64 q = len / c->beta_den, r = len % c->beta_den, a, b;

	/* num * len = a * den + b, exactly */
	a = sat_add(sat_mul(c->beta_num, q), c->beta_num * r / c->beta_den);
	b = c->beta_num * r % c->beta_den;
	return sat_add(sat_mul(c->alpha, ts),
		       sat_add(sat_mul(a, tc), b * tc / c->beta_den));
}
MC_EXPORT(mc_rb_time);

u64 mc_rb_crossover(const struct mc_rb *rb, u64 ts, u64 tc)
{
	struct mc_rb_cost c;
	u64 lam = log2_nodes(rb), least = mc_rb_positions(rb), gain, loss, l;

	mc_rb_formula(rb, &c);
	/* RB wins iff (lam den - num) L tc > (alpha - lam) ts den */
	if (c.beta_num >= lam * c.beta_den || !tc)
		return U64_MAX;
	if (c.alpha <= lam)
		return least;
	loss = sat_mul(sat_mul(c.alpha - lam, ts), c.beta_den);
	gain = sat_mul(lam * c.beta_den - c.beta_num, tc);
	if (loss == U64_MAX || gain == U64_MAX)
		return U64_MAX;
	l = loss / gain + 1;
	return l > least ? l : least;
}
MC_EXPORT(mc_rb_crossover);

bool mc_rb_pick(const struct mc_rb *rb, u64 len, u64 ts, u64 tc)
{
	u64 l = mc_rb_crossover(rb, ts, tc);

	return l != U64_MAX && len >= l;
}
MC_EXPORT(mc_rb_pick);
