// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * mc_check_order: planner output always passes; an order that is not the
 * algorithm's R-chain or H-cycle, and a worm that does not visit its
 * destinations in H-cycle order, fail.
 */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "tap.h"

struct plan {
	struct mc_torus t;
	struct mc_schedule s;
};

static int plan_random(struct plan *p, struct rng *r, enum mc_algo algo,
		       u32 k, u32 n, u32 m)
{
	u16 radix[3] = { k, k, k };
	u32 *pick = xcalloc(m, sizeof(*pick));
	int err;

	mc_torus_init(&p->t, n, radix, MC_LINKS_UNI, NULL);
	rng_subset(r, p->t.nodes, m, pick);
	p->s.order = xcalloc(m, sizeof(u32));
	p->s.msg = xcalloc(m, sizeof(struct mc_msg));
	p->s.dest = xcalloc(m, sizeof(struct mc_dest));
	err = mc_plan(&p->s, &p->t, algo, 4, pick[0], pick + 1, m - 1, NULL);
	free(pick);
	return err;
}

static void plan_free(struct plan *p)
{
	free(p->s.order);
	free(p->s.msg);
	free(p->s.dest);
}

static void planner_output_passes(void)
{
	static const enum mc_algo algos[] = {
		MC_ALGO_SEPARATE, MC_ALGO_UTORUS, MC_ALGO_STORUS,
		MC_ALGO_MDTORUS, MC_ALGO_MUTORUS,
	};
	struct rng r = { 42 };
	struct mc_check_result res;
	unsigned int a, i, bad;

	for (a = 0; a < 5; a++) {
		bad = 0;
		for (i = 0; i < 200; i++) {
			struct plan p;
			u32 k = 3 + rng_below(&r, 6), n = 2 + rng_below(&r, 2);
			u32 nodes = n == 2 ? k * k : k * k * k;

			if (plan_random(&p, &r, algos[a], k, n,
					2 + rng_below(&r, nodes - 1)) ||
			    mc_check_order(&p.s, &res))
				bad++;
			plan_free(&p);
		}
		ok(bad == 0, "algorithm %u: 200 random plans pass mc_check_order (%u failed)",
		   a, bad);
	}
}

/* Swap two destinations' nodes: the order stops being sorted. */
static void swapped_order_fails(enum mc_algo algo, const char *what)
{
	struct rng r = { 7 };
	struct mc_check_result res = { 0 };
	struct plan p;
	u32 tmp;
	int err;

	ok(plan_random(&p, &r, algo, 6, 2, 12) == 0, "%s: planned", what);
	tmp = p.s.order[3];
	p.s.order[3] = p.s.order[8];
	p.s.order[8] = tmp;
	err = mc_check_order(&p.s, &res);
	ok(err == -EINVAL && res.what,
	   "%s: two nodes of the order swapped: fails (%s)", what,
	   res.what ? res.what : "-");
	plan_free(&p);
}

/* (0,0) -> (0,2) -> (0,1) on a 6x6 torus: one boundary, lambda rising,
 * but not in H order, and it uses the link (0,0)->(0,1) twice. */
static void out_of_h_order_worm_fails(void)
{
	u16 radix[2] = { 6, 6 };
	struct mc_check_result res = { 0 };
	struct mc_schedule s;
	int err;
	struct mc_torus t;
	u32 order[3] = { 0, 1, 2 };
	struct mc_msg msg = { .step = 1, .from = 0, .first = 0, .count = 2 };
	struct mc_dest dest[2] = {
		{ .pos = 2, .len = 1, .step = 1, .msg = 0 },
		{ .pos = 1, .len = 1, .step = 1, .msg = 0 },
	};

	mc_torus_init(&t, 2, radix, MC_LINKS_UNI, NULL);
	memset(&s, 0, sizeof(s));
	s.t = &t;
	s.algo = MC_ALGO_STORUS;
	s.routing = MC_ROUTE_UTPR;
	s.m = 3;
	s.order = order;
	s.msg = &msg;
	s.nmsg = 1;
	s.dest = dest;
	s.ndest = 2;
	s.steps = 1;
	err = mc_check_routes(&s, &res);
	ok(err == 0,
	   "worm (0,0)->(0,2)->(0,1): routes alone pass (one boundary, lambda rises)");
	err = mc_check_order(&s, &res);
	ok(err == -EINVAL && res.what,
	   "worm (0,0)->(0,2)->(0,1): mc_check_order fails (%s)",
	   res.what ? res.what : "-");
	dest[0].pos = 1;
	dest[1].pos = 2;
	ok(mc_check_order(&s, &res) == 0,
	   "worm (0,0)->(0,1)->(0,2) in H order passes");
}

int main(void)
{
	planner_output_passes();
	swapped_order_fails(MC_ALGO_UTORUS, "u-torus");
	swapped_order_fails(MC_ALGO_STORUS, "s-torus");
	out_of_h_order_worm_fails();
	return done_testing();
}
