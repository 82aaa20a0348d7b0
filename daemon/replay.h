/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * The replay window of the daemons' tagged datagrams.  Under the cluster
 * key every datagram carries its sender's counter (1, 2, ... from each
 * start) inside the tag, next to the sender's incarnation in the header;
 * a receiver keeps, per configured node, the newest incarnation, the
 * highest counter seen in it and which of the 64 below it came.  A copy
 * of an earlier datagram, or one of an earlier incarnation, is dropped
 * before the view reads it, so a replayed heartbeat cannot keep a dead
 * node alive nor an old ANNOUNCE be re-read.
 */
#ifndef MCASTD_REPLAY_H
#define MCASTD_REPLAY_H

#include <stdbool.h>
#include <stdint.h>

#define MCD_REPLAY_WINDOW	64	/* counters accepted out of order */

struct mcd_replay {
	uint64_t incarnation;	/* 0: nothing seen yet */
	uint64_t top;		/* highest counter seen in it */
	uint64_t seen;		/* bit i: top - i was seen */
};

/*
 * True if (@incarnation, @counter) was not seen before and is not too old
 * (then it is recorded); false for a replay, a counter more than the
 * window below the highest, an older incarnation, or a zero.
 */
bool mcd_replay_fresh(struct mcd_replay *r, uint64_t incarnation,
		      uint64_t counter);

#endif /* MCASTD_REPLAY_H */
