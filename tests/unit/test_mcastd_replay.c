/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * mcastd's replay window (daemon/replay.c): the cases one by one, then
 * random arrival orders checked against a plain record of everything
 * seen (a counter is fresh exactly when it was never seen and is within
 * the window of the highest).
 */
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "replay.h"

static void cases(void)
{
	struct mcd_replay r = { 0 };

	ok(!mcd_replay_fresh(&r, 0, 1), "incarnation 0 is refused");
	ok(!mcd_replay_fresh(&r, 5, 0), "counter 0 is refused");
	ok(mcd_replay_fresh(&r, 5, 1), "the first datagram of incarnation 5");
	ok(!mcd_replay_fresh(&r, 5, 1), "... the same again: a replay");
	ok(mcd_replay_fresh(&r, 5, 3), "counter 3 (2 lost or late)");
	ok(mcd_replay_fresh(&r, 5, 2), "counter 2, late: still fresh");
	ok(!mcd_replay_fresh(&r, 5, 2), "... and not twice");
	ok(mcd_replay_fresh(&r, 5, 3 + MCD_REPLAY_WINDOW),
	   "a jump of exactly the window");
	ok(!mcd_replay_fresh(&r, 5, 3), "counter 3 again, now out of the window");
	ok(mcd_replay_fresh(&r, 5, 4), "counter 4: the oldest in the window");
	ok(!mcd_replay_fresh(&r, 5, 4), "... once");
	ok(mcd_replay_fresh(&r, 5, 1000), "a jump far beyond the window");
	ok(!mcd_replay_fresh(&r, 5, 1000 - MCD_REPLAY_WINDOW),
	   "just below the window after the jump");
	ok(mcd_replay_fresh(&r, 5, 1000 - MCD_REPLAY_WINDOW + 1),
	   "the bottom of the window after the jump (never seen)");
	ok(!mcd_replay_fresh(&r, 4, 2000), "an older incarnation is refused");
	ok(mcd_replay_fresh(&r, 6, 1), "a restart (incarnation 6) starts over at 1");
	ok(!mcd_replay_fresh(&r, 5, 1001), "incarnation 5 is over");
	ok(!mcd_replay_fresh(&r, 6, 1), "incarnation 6's counter 1 once");
	ok(mcd_replay_fresh(&r, 6, UINT64_MAX), "the largest counter");
	ok(!mcd_replay_fresh(&r, 6, UINT64_MAX), "... once");
}

/* A random walk of arrivals: new ones, late ones, copies. */
static void random_orders(unsigned int seed)
{
	enum { N = 4000 };
	static unsigned char seen[N + 1];
	struct mcd_replay r = { 0 };
	unsigned int i, wrong = 0, fresh = 0;
	uint64_t top = 0, c;

	srand(seed);
	memset(seen, 0, sizeof(seen));
	for (i = 0; i < 5 * N; i++) {
		switch (rand() % 4) {
		case 0:		/* the next few */
			c = top + 1 + rand() % 3;
			break;
		case 1:		/* late, within or near the window */
			c = top > 80 ? top - rand() % 80 : 1 + rand() % (top + 1);
			break;
		default:	/* a copy of one seen lately */
			c = top ? top - rand() % (top < 10 ? top : 10) : 1;
			break;
		}
		if (c > N)
			break;
		bool want = !seen[c] && (c > top || top - c < MCD_REPLAY_WINDOW);
		bool got = mcd_replay_fresh(&r, 7, c);

		wrong += want != got;
		if (got) {
			seen[c] = 1;
			fresh++;
		}
		if (c > top)
			top = c;
	}
	ok(!wrong && fresh > 100,
	   "seed %u: %u fresh arrivals, each one as a plain record says (%u wrong)",
	   seed, fresh, wrong);
}

int main(void)
{
	unsigned int s;

	cases();
	for (s = 1; s <= 20; s++)
		random_orders(s);
	return done_testing();
}
