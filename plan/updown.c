// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The member order of Libeskind-Hadas et al. (1998) (postorder IDs,
 * cyclically from the source) and its schedule: recursive halving over that
 * order, routed up-first.
 */
#include "updown.h"

static int order_fail(const char **why, const char *msg)
{
	if (why)
		*why = msg;
	return -EINVAL;
}

/* The sort key of @v: its ID - 1, or its vertex number. */
static u32 key_of(const struct mc_sw_graph *g, u32 v, bool by_id)
{
	return by_id ? g->id[v] - 1 : v;
}

/*
 * The source, then the destinations by key cyclically after the source's.
 * Keys are made relative to the source's (1..V-1), so one plain sort gives
 * the cyclic order, with no rotation afterwards.
 */
static int cyclic_order(const struct mc_sw_graph *g, u32 src, const u32 *dst,
			u32 ndst, u32 *order, bool by_id, const char **why)
{
	u32 n = g->nverts, ks, k, i;

	if (src >= n)
		return order_fail(why, "source is not a vertex of the graph");
	if (ndst >= n)
		return order_fail(why, "more destinations than other vertices");
	ks = key_of(g, src, by_id);
	order[0] = src;
	for (i = 0; i < ndst; i++) {
		if (dst[i] >= n)
			return order_fail(why, "destination is not a vertex of the graph");
		if (dst[i] == src)
			return order_fail(why, "the source is among the destinations");
		k = key_of(g, dst[i], by_id);
		order[i + 1] = k > ks ? k - ks : k + n - ks;
	}
	mc_sort_u32(order + 1, ndst);
	for (i = 1; i < ndst; i++)
		if (order[i + 1] == order[i])
			return order_fail(why, "destination repeated");
	for (i = 1; i <= ndst; i++) {
		k = order[i] + ks;
		if (k >= n)
			k -= n;
		order[i] = by_id ? g->by_id[k] : k;
	}
	return 0;
}

int mc_sw_order(const struct mc_sw_graph *g, u32 src, const u32 *dst,
		u32 ndst, u32 *order, const char **why)
{
	return cyclic_order(g, src, dst, ndst, order, true, why);
}

int mc_sw_rank_order(const struct mc_sw_graph *g, u32 src, const u32 *dst,
		     u32 ndst, u32 *order, const char **why)
{
	return cyclic_order(g, src, dst, ndst, order, false, why);
}

void mc_sw_host_ranks(const struct mc_sw_graph *g, u32 *rank)
{
	u32 i, v, r = 0;

	for (i = 0; i < g->nverts; i++) {	/* IDs in order */
		v = g->by_id[i];
		if (v >= g->nswitches)
			rank[v - g->nswitches] = r++;
	}
}

int mc_sw_sort_members(const struct mc_sw_graph *g, u32 *v, u32 n,
		       const char **why)
{
	u32 i;
	bool dup = false;

	for (i = 0; i < n; i++)
		if (v[i] >= g->nverts)
			return order_fail(why, "member is not a vertex of the graph");
	for (i = 0; i < n; i++)
		v[i] = g->id[v[i]];
	mc_sort_u32(v, n);
	for (i = 1; i < n; i++)
		dup |= v[i] == v[i - 1];
	for (i = 0; i < n; i++)
		v[i] = g->by_id[v[i] - 1];
	return dup ? order_fail(why, "member repeated") : 0;
}

int mc_sw_chain(const struct mc_sw_graph *g, const u32 *members, u32 n,
		u32 src, struct mc_chain *c)
{
	u32 lo = 0, hi = n, mid;

	if (src >= g->nverts)
		return -ENOENT;
	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (g->id[members[mid]] < g->id[src])
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == n || members[lo] != src)
		return -ENOENT;
	c->node = members;
	c->len = n;
	c->rot = lo;
	return 0;
}

/*
 * The holder of order[pos..pos+len-1], which received in @step: keep
 * ceil(len/2), send the rest to its first node, repeat (as next_utorus).
 */
static void halve(struct mc_sw_schedule *s, u32 pos, u32 len, u32 step)
{
	struct mc_sw_send *snd;
	u32 keep;

	while (len > 1) {
		keep = (len + 1) / 2;
		snd = &s->send[s->nsend++];
		snd->step = ++step;
		snd->from = pos;
		snd->to = pos + keep;
		snd->len = len - keep;
		snd->first = 0;
		snd->hops = 0;
		if (step > s->steps)
			s->steps = step;
		len = keep;
	}
}

/* No vertex twice: sorted IDs in the route array, not yet used. */
static bool order_distinct(struct mc_sw_schedule *s)
{
	u32 i;

	for (i = 0; i < s->m; i++)
		s->route[i] = s->g->id[s->order[i]];
	mc_sort_u32(s->route, s->m);
	for (i = 1; i < s->m; i++)
		if (s->route[i] == s->route[i - 1])
			return false;
	return true;
}

static int route_all(struct mc_sw_schedule *s, enum mc_sw_policy pol)
{
	struct mc_sw_send *snd;
	u32 i;
	int n;

	for (i = 0; i < s->nsend; i++) {
		snd = &s->send[i];
		n = mc_sw_route(s->g, pol, s->order[snd->from],
				s->order[snd->to], s->route + s->nroute,
				s->route_cap - s->nroute);
		if (n < 0)
			return n;
		snd->first = s->nroute;
		snd->hops = n;
		s->nroute += n;
	}
	return 0;
}

int mc_sw_plan_order(struct mc_sw_schedule *s, const struct mc_sw_graph *g,
		     enum mc_sw_policy pol, const char **why)
{
	u32 i;

	s->g = g;
	s->nsend = 0;
	s->steps = 0;
	s->nroute = 0;
	if (s->m == 0)
		return order_fail(why, "empty order");
	if (s->m > g->nverts)
		return order_fail(why, "more members than vertices");
	if (pol > MC_SW_ROUTE_FARTHEST)
		return order_fail(why, "unknown route policy");
	for (i = 0; i < s->m; i++)
		if (s->order[i] >= g->nverts)
			return order_fail(why, "member is not a vertex of the graph");
	if (s->route_cap < s->m)
		return -ENOSPC;
	if (!order_distinct(s))
		return order_fail(why, "member repeated");
	halve(s, 0, s->m, 0);
	for (i = 0; i < s->nsend; i++)
		halve(s, s->send[i].to, s->send[i].len, s->send[i].step);
	return route_all(s, pol);
}

int mc_sw_plan(struct mc_sw_schedule *s, const struct mc_sw_graph *g,
	       enum mc_sw_policy pol, u32 src, const u32 *dst, u32 ndst,
	       const char **why)
{
	int err;

	s->g = g;
	s->m = 0;
	s->nsend = 0;
	s->steps = 0;
	s->nroute = 0;
	err = mc_sw_order(g, src, dst, ndst, s->order, why);
	if (err)
		return err;
	s->m = ndst + 1;
	return mc_sw_plan_order(s, g, pol, why);
}
