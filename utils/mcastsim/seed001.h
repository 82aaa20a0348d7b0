/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * What the experiments after Libeskind-Hadas et al. (1998) share
 * (experiments_seed001.c defines it): the paper's parameters, its random
 * lattice of switches with one host each, and the contention-free timing of
 * one planned multicast.
 */
#ifndef MCASTSIM_SEED001_H
#define MCASTSIM_SEED001_H

#include "simutil.h"
#include "updown.h"

#define T_STARTUP	10000	/* ns */
#define T_ROUTER	20
#define T_CHANNEL	10
#define FLITS		128

struct lattice {
	struct mc_sw_graph g;
	struct mc_sw_link link[4 * 256];
	u32 host_switch[256];
	u32 *mem;
};

/* @n (at most 256) switches grown from a point by random neighbours. */
int lattice_build(struct lattice *l, u32 n, u64 seed);

/* Room in @s for a schedule of @m members on @g; sched_free frees it. */
void sched_alloc(struct mc_sw_schedule *s, const struct mc_sw_graph *g,
		 u32 m);
void sched_free(struct mc_sw_schedule *s);

/*
 * The notes' timing of @s alone (ns): a unicast over h links takes
 * t_startup + h (t_router + t_channel) + (F - 1) t_channel, a holder's
 * j-th startup j t_startup after it received.  Scratch @recv (u64) and
 * @sent (u32), m entries each.  Returns the last arrival.
 */
u64 schedule_time(const struct mc_sw_schedule *s, u64 *recv, u32 *sent);

#endif /* MCASTSIM_SEED001_H */
