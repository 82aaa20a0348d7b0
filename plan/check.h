/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * Schedule checkers.  Each takes any schedule, however it was made, and
 * reports the first violation with a static reason and the messages or
 * node involved:
 *
 *   mc_check_cover      every destination reached exactly once, never the
 *                       source; each receiver's piece is exactly what its
 *                       subtree reaches; the step rule (t+j+1) and count;
 *   mc_check_routes     every hop joins neighbours over a channel that
 *                       exists, in the class the routing function gives;
 *                       paths between consecutive destinations are minimal;
 *                       worms: at most one boundary, channels in strictly
 *                       increasing three-tier lambda order (Thm 5.1);
 *   mc_check_contention depth-contention freedom in the sense of Thm 4.1,
 *                       for unicasts and worms alike (Thm 6.1);
 *   mc_check_order      the order is the algorithm's (an R-chain or an
 *                       H-cycle from the source), and every worm visits
 *                       its destinations in H-cycle order from its sender
 *                       (the premise of Thm 5.1).  Hand-made schedules of
 *                       other algorithms (U-mesh, Fig 4.5) skip this one.
 */
#ifndef MC_CHECK_H
#define MC_CHECK_H

#include "schedule.h"

struct mc_check_result {
	const char *what;	/* NULL when the schedule passed */
	u32 msg_a;		/* offending message(s), or MC_NO_NODE */
	u32 msg_b;
	u32 node;		/* offending node, or MC_NO_NODE */
};

/*
 * Scratch the checkers need, provided by the caller:
 *   mc_check_cover:      @ws of mc_check_ws_words(s, 0) u32 words;
 *   mc_check_routes, mc_check_order: none;
 *   mc_check_contention: @ws of mc_check_ws_words(s, 1) u32 words (it
 *                        holds every hop of the schedule).
 */
u64 mc_check_ws_words(const struct mc_schedule *s, bool contention);

/* Total hops of all messages. */
u64 mc_schedule_hops(const struct mc_schedule *s);

int mc_check_cover(const struct mc_schedule *s, u32 *ws,
		   struct mc_check_result *res);
int mc_check_routes(const struct mc_schedule *s, struct mc_check_result *res);
int mc_check_contention(const struct mc_schedule *s, u32 *ws,
			struct mc_check_result *res);
int mc_check_order(const struct mc_schedule *s, struct mc_check_result *res);

#endif /* MC_CHECK_H */
