// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Separate addressing, U-torus (Fig 4.9) and the M-torus family (Fig 6.1):
 * S-torus, Md-torus and Mu-torus(r).
 */
#include "schedule.h"
#include "cube.h"

enum mc_routing mc_algo_routing(const struct mc_torus *t, enum mc_algo a)
{
	return mc_algo_is_mtorus(a) ? MC_ROUTE_UTPR : mc_unicast_routing(t);
}

enum mc_order mc_algo_order(enum mc_algo a)
{
	if (a == MC_ALGO_BINOMIAL)
		return MC_ORDER_ID;
	return mc_algo_is_mtorus(a) ? MC_ORDER_HAM : MC_ORDER_DIM;
}

/* A ring's piece: nodes of @t, none twice (the ring itself is the sender's). */
static int ring_piece_verify(const struct mc_torus *t, const u32 *nodes,
			     u32 len, const char **why)
{
	u32 i, j;

	for (i = 0; i < len; i++) {
		for (j = 0; j < i && nodes[i] < t->nodes; j++)
			if (nodes[j] == nodes[i])
				break;
		if (nodes[i] >= t->nodes || j < i) {
			if (why)
				*why = nodes[i] >= t->nodes ?
				       "node outside the torus" : "node repeated";
			return -EINVAL;
		}
	}
	return 0;
}

int mc_algo_piece_verify(const struct mc_torus *t, enum mc_algo algo,
			 const u32 *nodes, u32 len, const char **why)
{
	if (algo == MC_ALGO_RING)
		return ring_piece_verify(t, nodes, len, why);
	if (algo != MC_ALGO_CUBE)
		return mc_piece_verify(t, mc_algo_order(algo), nodes, len, why);
	if (!mc_torus_is_cube(t)) {
		if (why)
			*why = "not a hypercube";
		return -EINVAL;
	}
	return mc_cube_piece_verify(t->n, nodes, len, why);
}

bool mc_algo_piece_has(const struct mc_torus *t, enum mc_algo algo,
		       const u32 *nodes, u32 len, u32 id)
{
	if (algo == MC_ALGO_CUBE || algo == MC_ALGO_RING)
		return mc_cube_piece_has(nodes, len, id);
	return mc_piece_has(t, mc_algo_order(algo), nodes, len, id);
}

int mc_algo_supported(const struct mc_torus *t, enum mc_algo a, u32 r,
		      const char **why)
{
	const char *msg = NULL;

	if (a > MC_ALGO_RING)
		msg = "unknown algorithm";
	else if (a == MC_ALGO_CUBE && !mc_torus_is_cube(t))
		msg = "u-cube, maxport, combine and w-sort need a hypercube (every radix 2)";
	else if (a == MC_ALGO_RING && !mc_torus_is_cube(t))
		msg = "ring needs a hypercube (every radix 2)";
	else if (a == MC_ALGO_CUBE && r > MC_CUBE_WSORT)
		msg = "unknown hypercube algorithm";
	else if (mc_algo_is_mtorus(a) && t->rank)
		msg = "a switched cluster multicasts over its up*/down* order only (u-torus)";
	else if (mc_algo_is_mtorus(a) && t->links != MC_LINKS_UNI)
		msg = "path-based algorithms (UTPR) need a unidirectional torus";
	else if (mc_algo_is_mtorus(a) && !t->regular)
		msg = "path-based algorithms need equal radices in every dimension (Hamiltonian labels, Eq 5.2)";
	else if (a == MC_ALGO_MUTORUS && (r < 2 || r > MC_MU_MAX_R))
		msg = "mu-torus partition size r must be 2 to 65536";
	if (!msg)
		return 0;
	if (why)
		*why = msg;
	return -EINVAL;
}

void mc_sender_init(struct mc_sender *s, const struct mc_torus *t,
		    const struct mc_chain *c, enum mc_algo algo, u32 r,
		    u32 pos, u32 len, u8 level)
{
	s->t = t;
	s->c = c;
	s->algo = algo;
	s->r = r;
	s->pos = pos;
	s->len = len;
	s->next = pos + 1;
	s->level = level;
}

/*
 * End of the run of positions from @pos (before @end) whose nodes agree on
 * every dimension >= @d.  Positions follow the H-cycle rotated to some
 * node, so labels rise up to the cycle's wrap point, and after it rise
 * again from below every label before it.  Such nodes are therefore
 * consecutive from @pos, up to the wrap point at the latest: a binary
 * search on "l(u) / k^d equal and l(u) not below l(pos)", true on a
 * prefix of [pos, end) and false after it.  The wrap point comes from the
 * labels, not from @c's rotation, so a holder's piece (a run already in
 * visiting order, mc_chain_piece) is searched as the whole cycle is
 * (Robinson 1994, Def 6.1-6.2: linear and dimensional partitioning).
 */
static u32 run_end(const struct mc_sender *s, u32 pos, u32 end, unsigned int d)
{
	const struct mc_chain *c = s->c;
	u32 div = s->t->stride[d], first, lo, hi;

	first = mc_hlabel(s->t, mc_chain_at(c, pos));
	lo = pos + 1;
	hi = end;
	while (lo < hi) {
		u32 mid = lo + (hi - lo) / 2;
		u32 l = mc_hlabel(s->t, mc_chain_at(c, mid));

		if (l >= first && l / div == first / div)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static int emit(struct mc_dest *out, u32 max, u32 i, u32 pos, u32 len,
		u8 level)
{
	if (i >= max)
		return -ENOSPC;
	out[i].pos = pos;
	out[i].len = len;
	out[i].level = level;
	out[i].step = 0;
	out[i].msg = 0;
	return 0;
}

/* Fig 4.9: keep ceil(len/2), send the rest to its first node. */
static int next_utorus(struct mc_sender *s, struct mc_dest *out, u32 max)
{
	u32 keep = (s->len + 1) / 2;
	int err = emit(out, max, 0, s->pos + keep, s->len - keep, 0);

	if (err)
		return err;
	s->len = keep;
	return 1;
}

/* Uniform partitioning into min(r, len) pieces, the larger ones first. */
static int next_uniform(struct mc_sender *s, struct mc_dest *out, u32 max,
			u32 r)
{
	u32 parts = r < s->len ? r : s->len;
	u32 q = s->len / parts, rem = s->len % parts;
	u32 i, at = s->pos + q + (rem > 0);
	int err;

	for (i = 1; i < parts; i++) {
		u32 size = q + (i < rem);

		err = emit(out, max, i - 1, at, size, 0);
		if (err)
			return err;
		at += size;
	}
	s->len = q + (rem > 0);
	return parts - 1;
}

/* Dimensional partitioning of the highest order that splits the piece. */
static int next_dimensional(struct mc_sender *s, struct mc_dest *out, u32 max)
{
	u32 end = s->pos + s->len, at, n = 0;
	int d, err;

	for (d = s->level - 1; d >= 0; d--) {
		u32 first = run_end(s, s->pos, end, d);

		if (first == end)
			continue;
		for (at = first; at < end; n++) {
			u32 stop = run_end(s, at, end, d);

			err = emit(out, max, n, at, stop - at, d);
			if (err)
				return err;
			at = stop;
		}
		s->len = first - s->pos;
		s->level = d;
		return n;
	}
	return 0;
}

int mc_sender_next(struct mc_sender *s, struct mc_dest *out, u32 max)
{
	int err;

	/* The piece and level may come from a message: never trust them. */
	if (s->level > s->t->n || s->pos >= s->c->len ||
	    s->len > s->c->len - s->pos)
		return -EINVAL;

	if (s->algo == MC_ALGO_SEPARATE) {
		if (s->next >= s->pos + s->len)
			return 0;
		err = emit(out, max, 0, s->next, 1, 0);
		if (err)
			return err;
		s->next++;
		return 1;
	}
	if (s->len <= 1)
		return 0;
	switch (s->algo) {
	case MC_ALGO_UTORUS:
	case MC_ALGO_BINOMIAL:
		return next_utorus(s, out, max);
	case MC_ALGO_STORUS:
	case MC_ALGO_RING:
		return next_uniform(s, out, max, s->len);
	case MC_ALGO_MUTORUS:
		return next_uniform(s, out, max, s->r);
	case MC_ALGO_MDTORUS:
		return next_dimensional(s, out, max);
	default:
		return -EINVAL;
	}
}

static int plan_fail(const char **why, const char *msg)
{
	if (why)
		*why = msg;
	return -EINVAL;
}

static int plan_input(struct mc_schedule *s, u32 src, const u32 *dst,
		      u32 ndst, const char **why)
{
	u32 i;

	if (ndst == 0)
		return plan_fail(why, "no destination");
	if (ndst >= s->t->nodes)
		return plan_fail(why, "more destinations than other nodes in the torus");
	if (src >= s->t->nodes)
		return plan_fail(why, "source outside the torus");
	s->order[0] = src;
	for (i = 0; i < ndst; i++) {
		if (dst[i] >= s->t->nodes)
			return plan_fail(why, "destination outside the torus");
		if (dst[i] == src)
			return plan_fail(why, "the source is among the destinations");
		s->order[i + 1] = dst[i];
	}
	/* Sorting finds repeats; separate addressing then restores the input. */
	if (mc_chain_sort(s->t, MC_ORDER_DIM, s->order, s->m, NULL))
		return plan_fail(why, "destination repeated");
	return 0;
}

/* The holder at @pos sends all its messages, appended to @s. */
static int plan_holder(struct mc_schedule *s, const struct mc_chain *c,
		       u32 pos, u32 len, u32 step, u8 level)
{
	struct mc_sender snd;
	u32 j, i;
	int cnt;

	mc_sender_init(&snd, s->t, c, s->algo, s->r, pos, len, level);
	for (j = 0;; j++) {
		cnt = mc_sender_next(&snd, &s->dest[s->ndest], s->m - s->ndest);
		if (cnt <= 0)
			return cnt;
		s->msg[s->nmsg].step = step + j + 1;
		s->msg[s->nmsg].from = pos;
		s->msg[s->nmsg].first = s->ndest;
		s->msg[s->nmsg].count = cnt;
		for (i = 0; i < (u32)cnt; i++) {
			s->dest[s->ndest + i].step = step + j + 1;
			s->dest[s->ndest + i].msg = s->nmsg;
		}
		s->ndest += cnt;
		s->nmsg++;
		if (step + j + 1 > s->steps)
			s->steps = step + j + 1;
	}
}

static void reverse(u32 *a, u32 lo, u32 hi)
{
	while (lo + 1 < hi) {
		u32 tmp = a[lo];

		a[lo++] = a[--hi];
		a[hi] = tmp;
	}
}

int mc_plan(struct mc_schedule *s, const struct mc_torus *t, enum mc_algo algo,
	    u32 r, u32 src, const u32 *dst, u32 ndst, const char **why)
{
	struct mc_chain c;
	u32 i;
	int err;

	err = mc_algo_supported(t, algo, r, why);
	if (!err && (algo == MC_ALGO_CUBE || algo == MC_ALGO_RING))
		err = plan_fail(why, "the hypercube's algorithms plan with mc_cube_plan or mc_ring_build");
	if (err)
		return err;
	s->t = t;
	s->algo = algo;
	s->routing = mc_algo_routing(t, algo);
	s->r = algo == MC_ALGO_MUTORUS ? r : 0;
	s->m = ndst < t->nodes ? ndst + 1 : 0;
	s->nmsg = 0;
	s->ndest = 0;
	s->steps = 0;
	err = plan_input(s, src, dst, ndst, why);
	if (err)
		return err;
	if (algo == MC_ALGO_SEPARATE) {
		s->order[0] = src;
		for (i = 0; i < ndst; i++)
			s->order[i + 1] = dst[i];
		c.node = s->order;
		c.len = s->m;
		c.rot = 0;
	} else {
		err = mc_chain_sort(t, mc_algo_order(algo), s->order, s->m, why);
		if (!err)
			err = mc_chain_rotate(t, mc_algo_order(algo), s->order,
					      s->m, src, &c);
		if (err)
			return err;
	}
	err = plan_holder(s, &c, 0, s->m, 0, t->n);
	for (i = 0; !err && i < s->ndest; i++)
		err = plan_holder(s, &c, s->dest[i].pos, s->dest[i].len,
				  s->dest[i].step, s->dest[i].level);
	if (err)
		return err;
	/* Materialize the rotation: positions above are cycle positions. */
	reverse(s->order, 0, c.rot);
	reverse(s->order, c.rot, s->m);
	reverse(s->order, 0, s->m);
	return 0;
}
