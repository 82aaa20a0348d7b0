// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The replay window (replay.h), the sliding bitmap of IPsec's anti-replay
 * check (RFC 4303 3.4.3) per sender and incarnation.
 */
#include "replay.h"

bool mcd_replay_fresh(struct mcd_replay *r, uint64_t incarnation,
		      uint64_t counter)
{
	uint64_t back;

	if (!incarnation || !counter || incarnation < r->incarnation)
		return false;
	if (incarnation > r->incarnation) {	/* a restart: a new window */
		r->incarnation = incarnation;
		r->top = counter;
		r->seen = 1;
		return true;
	}
	if (counter > r->top) {
		back = counter - r->top;
		r->seen = back >= MCD_REPLAY_WINDOW ? 0 : r->seen << back;
		r->seen |= 1;
		r->top = counter;
		return true;
	}
	back = r->top - counter;
	if (back >= MCD_REPLAY_WINDOW || (r->seen >> back & 1))
		return false;
	r->seen |= (uint64_t)1 << back;
	return true;
}
