// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The generalized algorithm of Fig 3.5 (U-cube, Maxport, Combine; W-sort
 * is Maxport over a weighted chain) and the steps of its sends.
 */
#include "cube.h"

static int fail(const char **why, const char *msg)
{
	if (why)
		*why = msg;
	return -EINVAL;
}

u32 mc_cube_split(const u32 *chain, u32 left, u32 right,
		  enum mc_cube_algo algo)
{
	u32 k = mc_cube_delta(chain[left], chain[right]);
	u32 center = left + (right - left + 1) / 2;	/* ceil((r - l) / 2) */
	u32 lo = left + 1, hi = right, mid;

	if (algo == MC_CUBE_UCUBE)
		return center;
	/* highdim: the leftmost node reached on channel k */
	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (mc_cube_delta(chain[left], chain[mid]) < k)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (algo == MC_CUBE_COMBINE && center > lo)
		return center;
	return lo;
}

void mc_cube_holder_init(struct mc_cube_holder *h, const u32 *chain, u32 len,
			 enum mc_cube_algo algo, enum mc_cube_port port,
			 u32 r)
{
	u32 d;

	h->chain = chain;
	h->algo = algo;
	h->port = port;
	h->right = len ? len - 1 : 0;
	h->r = r;
	h->t = r + 1;
	h->seq = 0;
	for (d = 0; d < MC_CUBE_MAX_DIM; d++)
		h->last[d] = 0;
}

bool mc_cube_holder_next(struct mc_cube_holder *h, u32 *to, u32 *len,
			 u32 *step)
{
	u32 next, d;

	if (!h->right)
		return false;
	next = mc_cube_split(h->chain, 0, h->right, h->algo);
	d = mc_cube_delta(h->chain[0], h->chain[next]);
	if (h->port == MC_CUBE_ONE_PORT)
		h->t = h->r + 1 + h->seq;
	else if (h->last[d] + 1 > h->t)
		h->t = h->last[d] + 1;
	h->last[d] = h->t;
	h->seq++;
	*to = next;
	*len = h->right - next + 1;
	*step = h->t;
	h->right = next - 1;
	return true;
}

/*
 * The holder at chain position @pos, responsible for @len positions from
 * there, which received in step @r: its sends.
 */
static void forward(struct mc_cube_schedule *s, u32 pos, u32 len, u32 r)
{
	struct mc_cube_holder h;
	struct mc_cube_send *snd;
	u32 to, n, t, seq = 0;

	mc_cube_holder_init(&h, s->chain + pos, len, s->algo, s->port, r);
	while (mc_cube_holder_next(&h, &to, &n, &t)) {
		snd = &s->send[s->nsend++];
		snd->step = t;
		snd->from = pos;
		snd->to = pos + to;
		snd->len = n;
		snd->seq = seq++;
		if (t > s->steps)
			s->steps = t;
	}
}

static void run(struct mc_cube_schedule *s)
{
	u32 i;

	forward(s, 0, s->m, 0);
	for (i = 0; i < s->nsend; i++)
		forward(s, s->send[i].to, s->send[i].len, s->send[i].step);
}

static int setup(struct mc_cube_schedule *s, u32 n, enum mc_cube_algo algo,
		 enum mc_cube_port port, const char **why)
{
	int err = mc_cube_check_dim(n, why);

	s->n = n;
	s->algo = algo;
	s->port = port;
	s->nsend = 0;
	s->steps = 0;
	if (err)
		return err;
	if (algo > MC_CUBE_WSORT)
		return fail(why, "not an algorithm that plans (u-cube, maxport, combine, w-sort)");
	if (port > MC_CUBE_ONE_PORT)
		return fail(why, "unknown port model");
	return 0;
}

int mc_cube_plan_chain(struct mc_cube_schedule *s, u32 n,
		       enum mc_cube_algo algo, enum mc_cube_port port,
		       const char **why)
{
	int err = setup(s, n, algo, port, why);

	if (err)
		return err;
	if (s->m == 0)
		return fail(why, "empty chain");
	if (!mc_cube_is_cube_ordered(n, s->chain, s->m))
		return fail(why, "chain not cube-ordered, or a node outside the cube or repeated");
	run(s);
	return 0;
}

int mc_cube_plan(struct mc_cube_schedule *s, u32 n, enum mc_cube_algo algo,
		 enum mc_cube_port port, u32 src, const u32 *dst, u32 ndst,
		 const char **why)
{
	int err = setup(s, n, algo, port, why);

	s->m = 0;
	if (!err)
		err = mc_cube_order(n, algo, src, dst, ndst, s->chain, why);
	if (err)
		return err;
	s->m = ndst + 1;
	run(s);
	return 0;
}

u64 mc_cube_total_hops(const struct mc_cube_schedule *s)
{
	u64 h = 0;
	u32 i;

	for (i = 0; i < s->nsend; i++)
		h += mc_cube_hops(s->chain[s->send[i].from],
				  s->chain[s->send[i].to]);
	return h;
}
