// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Checkers for schedules: coverage and steps, routes and channel classes,
 * deadlock order of worms, and depth contention (Thm 4.1 / 6.1).
 */
#include "check.h"
#include "heapsort.h"

MC_DEFINE_HEAPSORT(sort_u64, u64)

#define NONE MC_NO_NODE

/* Scratch arrays of the cover check, each m words. */
struct cover_ws {
	u32 *recv;	/* position -> index of the dest entry reaching it */
	u32 *size;	/* position -> nodes its subtree reaches */
	u32 *off;	/* position -> first slot of its messages */
	u32 *slot;	/* message slots, marks the steps a holder used */
	u32 *copy;	/* sorted copy of the order */
};

static int fail(struct mc_check_result *res, const char *what, u32 a, u32 b,
		u32 node)
{
	res->what = what;
	res->msg_a = a;
	res->msg_b = b;
	res->node = node;
	return -EINVAL;
}

static void pass(struct mc_check_result *res)
{
	res->what = NULL;
	res->msg_a = NONE;
	res->msg_b = NONE;
	res->node = NONE;
}

/*
 * The indices every checker follows are in range: messages' senders and
 * destination ranges, destinations' positions.  Checked before anything
 * reads through them.
 */
static bool shape_ok(const struct mc_schedule *s)
{
	u32 i, j;

	for (i = 0; i < s->nmsg; i++) {
		const struct mc_msg *mm = &s->msg[i];

		if (mm->from >= s->m || mm->first > s->ndest ||
		    mm->count > s->ndest - mm->first)
			return false;
		for (j = mm->first; j < mm->first + mm->count; j++)
			if (s->dest[j].pos >= s->m)
				return false;
	}
	return true;
}

u64 mc_schedule_hops(const struct mc_schedule *s)
{
	u64 hops = 0;
	u32 i, j;

	if (!shape_ok(s))
		return 0;
	for (i = 0; i < s->nmsg; i++) {
		u32 cur = s->order[s->msg[i].from];

		for (j = 0; j < s->msg[i].count; j++) {
			u32 to = s->order[s->dest[s->msg[i].first + j].pos];

			hops += mc_distance(s->t, cur, to);
			cur = to;
		}
	}
	return hops;
}

/* One spare word lets the contention checker align its u64 keys. */
u64 mc_check_ws_words(const struct mc_schedule *s, bool contention)
{
	u64 words = 5 * (u64)s->m;

	if (contention)
		words += 2 * mc_schedule_hops(s) + 1;
	return words;
}

static void cover_ws_init(struct cover_ws *w, u32 *ws, u32 m)
{
	w->recv = ws;
	w->size = ws + m;
	w->off = ws + 2 * m;
	w->slot = ws + 3 * m;
	w->copy = ws + 4 * m;
}

/* The order: nodes of the torus, no repeats. */
static int check_order(const struct mc_schedule *s, struct cover_ws *w,
		       struct mc_check_result *res)
{
	u32 i;

	if (s->m == 0)
		return fail(res, "empty order", NONE, NONE, NONE);
	for (i = 0; i < s->m; i++) {
		if (s->order[i] >= s->t->nodes)
			return fail(res, "node outside the torus", NONE, NONE, i);
		w->copy[i] = s->order[i];
	}
	mc_sort_u32(w->copy, s->m);
	for (i = 1; i < s->m; i++)
		if (w->copy[i] == w->copy[i - 1])
			return fail(res, "node repeated in the order", NONE,
				    NONE, w->copy[i]);
	return 0;
}

/*
 * The order is the algorithm's: an R-chain or an H-cycle is a sorted chain
 * rotated to the source, so its keys rise with at most one step down, and
 * after that step stay below the source's.
 */
static int check_order_kind(const struct mc_schedule *s,
			    struct mc_check_result *res)
{
	bool ham = mc_algo_order(s->algo) == MC_ORDER_HAM, wrapped = false;
	u32 i, first, prev, key;

	if (s->algo == MC_ALGO_SEPARATE)
		return 0;
	first = ham ? mc_hlabel(s->t, s->order[0]) : s->order[0];
	prev = first;
	for (i = 1; i < s->m; i++) {
		key = ham ? mc_hlabel(s->t, s->order[i]) : s->order[i];
		if (key < prev) {
			if (wrapped)
				break;
			wrapped = true;
		}
		if (wrapped && key > first)
			break;
		prev = key;
	}
	if (i == s->m)
		return 0;
	return fail(res, ham ? "order is not an H-cycle from the source" :
		    "order is not an R-chain from the source", NONE, NONE,
		    s->order[i]);
}

/* Messages own disjoint dest ranges; each position is reached once. */
static int check_reach(const struct mc_schedule *s, struct cover_ws *w,
		       struct mc_check_result *res)
{
	u32 i, j, seen = 0;

	for (i = 0; i < s->m; i++)
		w->recv[i] = NONE;
	for (i = 0; i < s->nmsg; i++) {
		const struct mc_msg *mm = &s->msg[i];

		if (mm->count == 0 || mm->first != seen ||
		    mm->count > s->ndest - seen || mm->from >= s->m)
			return fail(res, "message has no or misplaced destinations",
				    i, NONE, NONE);
		seen += mm->count;
		for (j = mm->first; j < mm->first + mm->count; j++) {
			const struct mc_dest *d = &s->dest[j];

			if (d->msg != i || d->step != mm->step)
				return fail(res, "destination entry disagrees with its message",
					    i, NONE, NONE);
			if (d->pos == 0)
				return fail(res, "the source is a destination",
					    i, NONE, s->order[0]);
			if (d->pos >= s->m)
				return fail(res, "destination outside the order",
					    i, NONE, NONE);
			if (w->recv[d->pos] != NONE)
				return fail(res, "destination reached twice", i,
					    s->dest[w->recv[d->pos]].msg,
					    s->order[d->pos]);
			w->recv[d->pos] = j;
		}
	}
	if (seen != s->ndest)
		return fail(res, "destination entries without a message", NONE,
			    NONE, NONE);
	for (i = 1; i < s->m; i++)
		if (w->recv[i] == NONE)
			return fail(res, "destination never reached", NONE,
				    NONE, s->order[i]);
	return 0;
}

static u32 recv_step(const struct mc_schedule *s, const struct cover_ws *w,
		     u32 pos)
{
	return pos == 0 ? 0 : s->dest[w->recv[pos]].step;
}

/* One port: a holder's j-th message goes out in step recv + j + 1. */
static int check_steps(const struct mc_schedule *s, struct cover_ws *w,
		       struct mc_check_result *res)
{
	u32 i, total = 0, steps = 0;

	for (i = 0; i < s->m; i++)
		w->size[i] = 0;
	for (i = 0; i < s->nmsg; i++)
		w->size[s->msg[i].from]++;
	for (i = 0; i < s->m; i++) {
		w->off[i] = total;
		total += w->size[i];
	}
	for (i = 0; i < s->nmsg; i++)
		w->slot[i] = NONE;
	for (i = 0; i < s->nmsg; i++) {
		u32 from = s->msg[i].from, base = recv_step(s, w, from), j;

		if (s->msg[i].step <= base)
			return fail(res, "message sent before its sender has the data",
				    i, NONE, s->order[from]);
		j = s->msg[i].step - base - 1;
		if (j >= w->size[from] || w->slot[w->off[from] + j] != NONE)
			return fail(res, "holder's messages are not in steps t+1, t+2, ...",
				    i, NONE, s->order[from]);
		w->slot[w->off[from] + j] = i;
		if (s->msg[i].step > steps)
			steps = s->msg[i].step;
	}
	if (steps != s->steps)
		return fail(res, "step count differs from the messages' last step",
			    NONE, NONE, NONE);
	return 0;
}

/*
 * Each position lies inside the piece of every ancestor, and a piece holds
 * exactly as many positions as its subtree reaches: so every piece is
 * exactly what its holder's subtree covers.
 */
static int check_pieces(const struct mc_schedule *s, struct cover_ws *w,
			struct mc_check_result *res)
{
	u32 q, depth;

	for (q = 0; q < s->m; q++)
		w->size[q] = 1;
	for (q = 1; q < s->m; q++) {
		u32 at = q;

		for (depth = 0; at != 0; depth++) {
			const struct mc_msg *mm = &s->msg[s->dest[w->recv[at]].msg];
			u32 lo = mm->from, hi = s->m;

			if (depth >= s->m)
				return fail(res, "messages form a cycle", NONE,
					    NONE, s->order[q]);
			if (lo != 0)
				hi = lo + s->dest[w->recv[lo]].len;
			if (q <= lo || q >= hi)
				return fail(res, "a node is reached outside its sender's piece",
					    s->dest[w->recv[at]].msg, NONE,
					    s->order[q]);
			w->size[lo]++;
			at = lo;
		}
	}
	for (q = 1; q < s->m; q++)
		if (w->size[q] != s->dest[w->recv[q]].len)
			return fail(res, "covers differ from what the subtree reaches",
				    s->dest[w->recv[q]].msg, NONE, s->order[q]);
	if (w->size[0] != s->m)
		return fail(res, "the source's subtree misses nodes", NONE,
			    NONE, s->order[0]);
	return 0;
}

int mc_check_cover(const struct mc_schedule *s, u32 *ws,
		   struct mc_check_result *res)
{
	struct cover_ws w;
	int err;

	if (!shape_ok(s))
		return fail(res, "index out of range in the schedule", NONE,
			    NONE, NONE);
	cover_ws_init(&w, ws, s->m);
	err = check_order(s, &w, res);
	if (!err)
		err = check_reach(s, &w, res);
	if (!err)
		err = check_steps(s, &w, res);
	if (!err)
		err = check_pieces(s, &w, res);
	if (!err)
		pass(res);
	return err;
}

/* @to is @from moved one step in @dim, direction @dir, and nothing else. */
static bool is_step(const struct mc_torus *t, u32 from, u32 to,
		    unsigned int dim, int dir)
{
	unsigned int i;

	if (dim >= t->n || (dir != 1 && dir != -1) ||
	    (dir == -1 && t->links != MC_LINKS_BI))
		return false;
	for (i = 0; i < t->n; i++) {
		u32 k = t->k[i], a = mc_sigma(t, from, i), b = mc_sigma(t, to, i);

		if (i != dim ? a != b : b != (a + k + dir) % k)
			return false;
	}
	return true;
}

/*
 * Unicast classes by their definition (Sec. 4.2): p up to and including
 * the wraparound in this dimension, then h going up, l going down.
 */
static int unicast_class_ok(const struct mc_torus *t, const struct mc_hop *h,
			    u32 dst)
{
	u32 s = mc_sigma(t, h->from, h->dim), d = mc_sigma(t, dst, h->dim);
	u32 k = t->k[h->dim];
	bool wrap_ahead = h->dir > 0 ? d < s : d > s;
	u32 left = h->dir > 0 ? (d + k - s) % k : (s + k - d) % k;

	if (t->links == MC_LINKS_BI && wrap_ahead && 2 * left == k)
		return 0;	/* BTR: a tie at k/2 must not wrap */
	if (wrap_ahead)
		return h->vc == MC_VC_P;
	return h->vc == (h->dir > 0 ? MC_VC_H : MC_VC_L);
}

/* Three-tier lambda: p by (l(u), d) < the boundary < h by (l(u), d). */
static u64 lambda(const struct mc_torus *t, const struct mc_hop *h)
{
	u64 tier = h->vc == MC_VC_P ? 0 :
		   mc_is_boundary(t, h->from, h->dim) ? 1 : 2;

	return (tier * t->nodes + mc_hlabel(t, h->from)) * t->n + h->dim;
}

/*
 * A worm visits its destinations in H-cycle order from its sender: labels
 * rise, with at most one step down, after which they stay below the
 * sender's (Thm 5.1 needs an H-cycle).
 */
static bool worm_in_h_order(const struct mc_schedule *s, const struct mc_msg *mm)
{
	u32 first = mc_hlabel(s->t, s->order[mm->from]), prev = first, j;
	bool wrapped = false;

	for (j = 0; j < mm->count; j++) {
		u32 key = mc_hlabel(s->t, s->order[s->dest[mm->first + j].pos]);

		if (key < prev) {
			if (wrapped)
				return false;
			wrapped = true;
		}
		if (wrapped && key >= first)
			return false;
		prev = key;
	}
	return true;
}

struct route_state {
	u32 boundaries;
	u64 last;	/* lambda of the previous channel, +1 */
	int last_dim;	/* unicast: dimension of the previous hop */
};

static const char *check_hop(const struct mc_schedule *s,
			     struct route_state *st, const struct mc_hop *h,
			     u32 dst)
{
	const struct mc_torus *t = s->t;

	if (!is_step(t, h->from, h->to, h->dim, h->dir))
		return "hop does not join neighbours";
	if (!mc_channel_exists(t, s->routing, h->from, h->dim, h->dir, h->vc))
		return "hop on a channel that does not exist";
	if (s->routing != MC_ROUTE_UTPR) {
		if (st->last_dim >= 0 && h->dim > st->last_dim)
			return "unicast route not in descending dimension order";
		st->last_dim = h->dim;
		return unicast_class_ok(t, h, dst) ? NULL :
		       "hop in the wrong virtual channel class";
	}
	if (mc_is_boundary(t, h->from, h->dim) && ++st->boundaries > 1)
		return "worm crosses more than one boundary";
	if (h->vc != (st->boundaries ? MC_VC_H : MC_VC_P))
		return "worm class is not p before its boundary and h after";
	if (lambda(t, h) < st->last)
		return "worm takes channels out of lambda order";
	st->last = lambda(t, h) + 1;
	return NULL;
}

int mc_check_routes(const struct mc_schedule *s, struct mc_check_result *res)
{
	struct route_state st;
	struct mc_hop hop;
	const char *why;
	u32 i, j;

	if (!shape_ok(s))
		return fail(res, "index out of range in the schedule", NONE,
			    NONE, NONE);
	for (i = 0; i < s->nmsg; i++) {
		u32 cur = s->order[s->msg[i].from];
		u8 alpha = MC_VC_P;

		st.boundaries = 0;
		st.last = 0;
		for (j = 0; j < s->msg[i].count; j++) {
			u32 dst = s->order[s->dest[s->msg[i].first + j].pos];
			u32 hops = 0, dist = mc_distance(s->t, cur, dst);

			st.last_dim = -1;
			while (mc_route_next(s->t, s->routing, cur, dst, &alpha,
					     &hop)) {
				if (++hops > dist)
					return fail(res, "path is not minimal", i,
						    NONE, dst);
				why = check_hop(s, &st, &hop, dst);
				if (why)
					return fail(res, why, i, NONE, hop.from);
				cur = hop.to;
			}
			if (hops != dist)
				return fail(res, "path is not minimal", i, NONE,
					    dst);
		}
	}
	pass(res);
	return 0;
}

static u32 channel_id(const struct mc_torus *t, const struct mc_hop *h)
{
	return ((h->from * t->n + h->dim) * 2 + (h->dir > 0)) * 3 + h->vc;
}

/*
 * Thm 4.1 for a pair sharing a channel, @a not later than @b, with
 * u = sender of a, x = sender of b: fine if x = u (3), if x lies in the
 * reach of a destination of a (1), or in the reach of a node u sends to
 * after a (4).  Otherwise the channels must be disjoint (2), and are not.
 */
static bool pair_ok(const struct mc_schedule *s, const u32 *recv, u32 a, u32 b)
{
	u32 u = s->msg[a].from, at = s->msg[b].from;

	if (at == u)
		return true;
	while (at != 0) {
		u32 up = s->dest[recv[at]].msg;

		if (up == a || (s->msg[up].from == u &&
				s->msg[up].step > s->msg[a].step))
			return true;
		at = s->msg[up].from;
	}
	return false;
}

/* Every hop as (channel, message); 0 if routes exceed @cap (not minimal). */
static u64 collect_channels(const struct mc_schedule *s, u64 *key, u64 cap)
{
	struct mc_hop hop;
	u64 n = 0;
	u32 i, j;

	for (i = 0; i < s->nmsg; i++) {
		u32 cur = s->order[s->msg[i].from];
		u8 alpha = MC_VC_P;

		for (j = 0; j < s->msg[i].count; j++) {
			u32 dst = s->order[s->dest[s->msg[i].first + j].pos];

			while (mc_route_next(s->t, s->routing, cur, dst, &alpha,
					     &hop)) {
				if (n == cap)
					return 0;
				key[n++] = (u64)channel_id(s->t, &hop) << 32 | i;
				cur = hop.to;
			}
		}
	}
	return n;
}

/* Messages of one sender never contend (condition 3): skip such groups. */
static bool one_sender(const struct mc_schedule *s, const u64 *key, u64 g,
		       u64 e)
{
	u32 from = s->msg[(u32)key[g]].from;

	for (g++; g < e; g++)
		if (s->msg[(u32)key[g]].from != from)
			return false;
	return true;
}

int mc_check_contention(const struct mc_schedule *s, u32 *ws,
			struct mc_check_result *res)
{
	u64 hops = mc_schedule_hops(s), n, g, e, i, j;
	u32 *cov = ws + 2 * hops + 1;
	struct cover_ws w;
	u64 *key;
	int err;

	err = mc_check_cover(s, cov, res);
	if (err)
		return err;
	cover_ws_init(&w, cov, s->m);
	key = (u64 *)(ws + ((unsigned long)ws & 7 ? 1 : 0));
	n = collect_channels(s, key, hops);
	if (n == 0 && hops != 0)
		return fail(res, "path is not minimal", NONE, NONE, NONE);
	sort_u64(key, n);
	for (g = 0; g < n; g = e) {
		for (e = g + 1; e < n && key[e] >> 32 == key[g] >> 32; e++)
			;
		if (one_sender(s, key, g, e))
			continue;
		for (i = g; i < e; i++) {
			for (j = i + 1; j < e; j++) {
				u32 a = (u32)key[i], b = (u32)key[j];
				u32 sa = s->msg[a].step, sb = s->msg[b].step;

				if (a == b)
					continue;
				if ((sa <= sb && !pair_ok(s, w.recv, a, b)) ||
				    (sb <= sa && !pair_ok(s, w.recv, b, a)))
					return fail(res, "depth contention: two messages share a channel",
						    a, b, s->order[s->msg[a].from]);
			}
		}
	}
	pass(res);
	return 0;
}

int mc_check_order(const struct mc_schedule *s, struct mc_check_result *res)
{
	u32 i;
	int err;

	if (!shape_ok(s))
		return fail(res, "index out of range in the schedule", NONE,
			    NONE, NONE);
	err = check_order_kind(s, res);
	if (err)
		return err;
	for (i = 0; s->routing == MC_ROUTE_UTPR && i < s->nmsg; i++)
		if (!worm_in_h_order(s, &s->msg[i]))
			return fail(res, "worm does not visit its destinations in H-cycle order",
				    i, NONE, s->order[s->msg[i].from]);
	pass(res);
	return 0;
}
