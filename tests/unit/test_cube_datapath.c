// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The hypercube algorithms as mcast.ko runs them (MC_ALGO_CUBE): what the
 * data path calls of plan/, replayed here the way the kernel distributes
 * it, against the whole-multicast planner of test_cube.c.
 *
 *   (a) a hypercube is a torus whose every radix is 2: mc_torus_is_cube,
 *       mc_algo_supported for each cube algorithm and its refusals
 *       (a 4x4 torus, a switched cluster, an unknown algorithm),
 *       mc_plan refusing the cube's (they plan with mc_cube_plan);
 *   (b) the root's chain from an unsorted member list with itself
 *       anywhere (mc_cube_chain_order) is mc_cube_order's;
 *   (c) distributed: every holder gets only its piece from the network,
 *       checks it (mc_algo_piece_verify) and runs mc_cube_holder from the
 *       step it received in; on random sets of the 1- to 8-cubes, every
 *       destination receives once, from the sender and in the step of
 *       mc_cube_plan's all-port schedule, for all four algorithms;
 *   (d) takeover: a dead receiver's piece, taken over by its sender with
 *       itself in front, is again a piece receivers accept, and the rest
 *       still reach everyone but the dead;
 *   (e) pieces a receiver must refuse: empty, a node outside the cube, a
 *       repeat, not cube-ordered; mc_algo_piece_has;
 *   (f) the ring (MC_ALGO_RING): supported on hypercubes only; the ring a
 *       sender builds from its member list depends on the set alone (so
 *       every sender's message travels the same disjoint paths); a chain
 *       table with a repeat or a node outside the cube is refused.
 */
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "tutil.h"
#include "cube.h"
#include "schedule.h"
#include "ring.h"

#define MAXN	256

static const char *const names[] = { "u-cube", "maxport", "combine",
				     "w-sort" };

static void cube_torus(struct mc_torus *t, u32 n)
{
	mk_regular(t, n, 2, MC_LINKS_BI);
}

/* (a) */
static void supported(void)
{
	struct mc_torus c4, t44, sw;
	u32 rank[4] = { 2, 0, 3, 1 }, unrank[4];
	const char *why = NULL;
	struct mc_schedule s;
	u32 order[4], dst[1] = { 1 };
	struct mc_msg msg[4];
	struct mc_dest dest[4];
	u32 r;
	int rc;

	cube_torus(&c4, 4);
	mk_regular(&t44, 2, 4, MC_LINKS_BI);
	mc_torus_init_switch(&sw, 4, rank, unrank, NULL);
	ok(mc_torus_is_cube(&c4) && !mc_torus_is_cube(&t44) &&
	   !mc_torus_is_cube(&sw),
	   "a 2x2x2x2 torus is a hypercube; 4x4 and a switched cluster are not");
	for (r = MC_CUBE_UCUBE; r <= MC_CUBE_WSORT; r++)
		is_int(mc_algo_supported(&c4, MC_ALGO_CUBE, r, NULL), 0,
		       "%s runs on the 4-cube", names[r]);
	rc = mc_algo_supported(&t44, MC_ALGO_CUBE, MC_CUBE_MAXPORT, &why);
	ok(rc == -EINVAL && why && strstr(why, "hypercube"),
	   "maxport on a 4x4 torus: -EINVAL, saying it needs a hypercube (%s)",
	   why ? why : "");
	ok(mc_algo_supported(&sw, MC_ALGO_CUBE, 0, NULL) == -EINVAL,
	   "u-cube on a switched cluster: -EINVAL");
	why = NULL;
	rc = mc_algo_supported(&c4, MC_ALGO_CUBE, MC_CUBE_HANDMADE, &why);
	ok(rc == -EINVAL && why && strstr(why, "unknown"),
	   "cube algorithm 4 (hand-made) is no algorithm a send runs (%s)",
	   why ? why : "");
	ok(mc_algo_supported(&c4, MC_ALGO_RING + 1, 0, NULL) == -EINVAL,
	   "algorithm 8: unknown");
	s.order = order;
	s.msg = msg;
	s.dest = dest;
	why = NULL;
	rc = mc_plan(&s, &c4, MC_ALGO_CUBE, 0, 0, dst, 1, &why);
	ok(rc == -EINVAL && why && strstr(why, "mc_cube_plan"),
	   "mc_plan refuses the cube's algorithms (%s)", why ? why : "");
}

static u32 rnd(u32 n)
{
	return (u32)(rand() % n);
}

/* A random set of 1..2^n-1 others than @src into @dst; their number. */
static u32 random_dests(u32 n, u32 src, u32 *dst)
{
	u32 nodes = 1u << n, want = 1 + rnd(nodes - 1), k = 0, v;
	bool used[MAXN] = { false };

	used[src] = true;
	while (k < want) {
		v = rnd(nodes);
		if (!used[v]) {
			used[v] = true;
			dst[k++] = v;
		}
	}
	return k;
}

struct rx {
	u32 count;
	u32 step;
	u32 from;
};

/*
 * Deliver the piece @piece[0..len-1] (received in step @step): check it
 * as a receiver does, run the holder, recurse into each child (@dead
 * takes nothing: its sender takes its piece over).  Returns false on a
 * piece the receiver refused.
 */
static bool run_holder(const struct mc_torus *t, enum mc_cube_algo algo,
		       const u32 *piece, u32 len, u32 step, u32 dead,
		       struct rx *rx, u32 *takeovers)
{
	struct mc_cube_holder h;
	u32 to, n, st, self = piece[0];
	u32 tk[MAXN];

	if (mc_algo_piece_verify(t, MC_ALGO_CUBE, piece, len, NULL))
		return false;
	mc_cube_holder_init(&h, piece, len, algo, MC_CUBE_ALL_PORT, step);
	while (mc_cube_holder_next(&h, &to, &n, &st)) {
		u32 child = piece[to];

		if (child == dead) {
			/* mcast_takeover: itself, then the piece minus its head */
			(*takeovers)++;
			if (n < 2)
				continue;
			tk[0] = self;
			memcpy(tk + 1, piece + to + 1, (n - 1) * sizeof(u32));
			if (!run_holder(t, algo, tk, n, st, dead, rx,
					takeovers))
				return false;
			continue;
		}
		rx[child].count++;
		rx[child].step = st;
		rx[child].from = self;
		if (!run_holder(t, algo, piece + to, n, st, dead, rx,
				takeovers))
			return false;
	}
	return true;
}

/* (b), (c), (d) on random sets */
static void distributed(void)
{
	static struct mc_cube_send send[MAXN];
	static u32 chain[MAXN], kchain[MAXN], dst[MAXN];
	u32 n, trial, algo, i, bad_order = 0, bad_rx = 0, bad_tk = 0, cases = 0;
	u32 tk_cases = 0;

	srand(20261126);
	for (n = 1; n <= 8; n++) {
		struct mc_torus t;

		cube_torus(&t, n);
		for (trial = 0; trial < 60; trial++) {
			u32 src = rnd(1u << n), nd = random_dests(n, src, dst);

			for (algo = 0; algo <= MC_CUBE_WSORT; algo++) {
				struct mc_cube_schedule s = {
					.chain = chain, .send = send,
				};
				struct rx rx[MAXN];
				u32 at = rnd(nd + 1), tkn = 0, dead;

				cases++;
				mc_cube_plan(&s, n, algo, MC_CUBE_ALL_PORT, src,
					     dst, nd, NULL);
				/* (b) the kernel's member list: sorted, itself
				 * anywhere, moved to the front
				 */
				memcpy(kchain, dst, nd * sizeof(u32));
				mc_sort_u32(kchain, nd);
				memmove(kchain + at + 1, kchain + at,
					(nd - at) * sizeof(u32));
				kchain[at] = kchain[0];
				kchain[0] = src;
				if (mc_cube_chain_order(n, algo, kchain, nd + 1,
							NULL) ||
				    memcmp(kchain, chain, (nd + 1) * sizeof(u32)))
					bad_order++;
				/* (c) */
				memset(rx, 0, sizeof(rx));
				if (!run_holder(&t, algo, chain, nd + 1, 0,
						MC_NO_NODE, rx, &tkn))
					bad_rx++;
				for (i = 0; i < s.nsend; i++) {
					struct rx *r = &rx[chain[send[i].to]];

					if (r->count != 1 ||
					    r->step != send[i].step ||
					    r->from != chain[send[i].from])
						bad_rx++;
				}
				if (rx[src].count || s.nsend != nd)
					bad_rx++;
				/* (d) one receiver dead */
				if (nd < 2)
					continue;
				tk_cases++;
				dead = dst[rnd(nd)];
				memset(rx, 0, sizeof(rx));
				tkn = 0;
				if (!run_holder(&t, algo, chain, nd + 1, 0, dead,
						rx, &tkn) || tkn == 0)
					bad_tk++;
				for (i = 0; i < nd; i++)
					if (rx[dst[i]].count != (dst[i] != dead))
						bad_tk++;
			}
		}
	}
	is_int(bad_order, 0,
	       "%u cases, cubes 1..8, four algorithms: the chain from a member list with the source anywhere is mc_cube_order's",
	       cases);
	is_int(bad_rx, 0,
	       "%u cases: holders running only their pieces deliver to each destination once, from the planned sender, in the planned all-port step",
	       cases);
	is_int(bad_tk, 0,
	       "%u cases with a dead receiver: its sender's takeover piece is accepted and everyone else gets the message once",
	       tk_cases);
}

/* (e) */
static void pieces(void)
{
	struct mc_torus t;
	const u32 good[] = { 5, 4, 6, 7, 1, 0 };	/* cube-ordered from 5 */
	const u32 outside[] = { 5, 16 };
	const u32 repeat[] = { 5, 4, 5 };
	const u32 mixed[] = { 0, 4, 1, 5 };	/* {0,1} split by 4 */
	const char *why = NULL, *why2 = NULL;
	int rc, rc2;

	cube_torus(&t, 4);
	is_int(mc_algo_piece_verify(&t, MC_ALGO_CUBE, good, 6, NULL), 0,
	       "a cube-ordered piece is accepted");
	rc = mc_algo_piece_verify(&t, MC_ALGO_CUBE, good, 0, &why);
	ok(rc == -EINVAL && why, "an empty piece is refused (%s)",
	   why ? why : "");
	rc2 = mc_algo_piece_verify(&t, MC_ALGO_CUBE, outside, 2, &why2);
	ok(rc2 == -EINVAL && why2, "a node outside the 4-cube is refused (%s)",
	   why2 ? why2 : "");
	ok(mc_algo_piece_verify(&t, MC_ALGO_CUBE, repeat, 3, NULL) == -EINVAL,
	   "a repeated node is refused");
	ok(mc_algo_piece_verify(&t, MC_ALGO_CUBE, mixed, 4, NULL) == -EINVAL,
	   "a piece that splits an S-cube (0 4 1 5) is refused");
	ok(mc_algo_piece_has(&t, MC_ALGO_CUBE, good, 6, 7) &&
	   !mc_algo_piece_has(&t, MC_ALGO_CUBE, good, 6, 3),
	   "piece_has: 7 is in the piece, 3 is not");
	{
		struct mc_torus t44;

		mk_regular(&t44, 2, 4, MC_LINKS_BI);
		ok(mc_algo_piece_verify(&t44, MC_ALGO_CUBE, good, 2, NULL) ==
		   -EINVAL, "a cube piece on a 4x4 torus is refused");
	}
}

/* The kernel's ring order from @set[0..m-1] into @order; 0 or an errno. */
static int ring_of(u32 n, const u32 *set, u32 m, u32 *order)
{
	static u32 addr[MAXN], succ[MAXN];
	struct mc_ring r = { .addr = addr, .succ = succ };
	int err = mc_ring_build(&r, n, set, m, NULL);

	return err ? err : mc_ring_order(&r, order);
}

/* (f) */
static void rings(void)
{
	static u32 set[MAXN], perm[MAXN], o1[MAXN], o2[MAXN];
	const u32 rep[] = { 3, 5, 3 }, out[] = { 3, 300 };
	struct mc_torus c4, t44;
	u32 n, trial, m, i, j, t, differ = 0, cases = 0;

	cube_torus(&c4, 4);
	mk_regular(&t44, 2, 4, MC_LINKS_BI);
	ok(!mc_algo_supported(&c4, MC_ALGO_RING, 0, NULL) &&
	   mc_algo_supported(&t44, MC_ALGO_RING, 0, NULL) == -EINVAL,
	   "ring runs on the 4-cube, not on a 4x4 torus");
	ok(mc_algo_is_path_based(MC_ALGO_RING) && !mc_algo_is_mtorus(MC_ALGO_RING) &&
	   mc_algo_order(MC_ALGO_RING) != MC_ORDER_HAM,
	   "ring sends worms, but not the M-torus family's (no H-cycle, no UTPR)");
	srand(4004);
	for (n = 1; n <= 8; n++) {
		for (trial = 0; trial < 40; trial++) {
			m = 1 + random_dests(n, 0, set + 1);
			set[0] = 0;
			memcpy(perm, set, m * sizeof(u32));
			for (i = m - 1; i > 0; i--) {	/* shuffle */
				j = rnd(i + 1);
				t = perm[i];
				perm[i] = perm[j];
				perm[j] = t;
			}
			cases++;
			if (ring_of(n, set, m, o1) || ring_of(n, perm, m, o2) ||
			    memcmp(o1, o2, m * sizeof(u32)))
				differ++;
		}
	}
	is_int(differ, 0,
	       "%u member sets on cubes 1..8: the ring from a shuffled list is the same ring",
	       cases);
	ok(mc_algo_piece_verify(&c4, MC_ALGO_RING, rep, 3, NULL) == -EINVAL &&
	   mc_algo_piece_verify(&c4, MC_ALGO_RING, out, 2, NULL) == -EINVAL &&
	   !mc_algo_piece_verify(&c4, MC_ALGO_RING, rep, 2, NULL),
	   "a ring's chain table: a repeat or a node outside the cube is refused, distinct nodes pass");
}

int main(void)
{
	supported();
	distributed();
	pieces();
	rings();
	return done_testing();
}
