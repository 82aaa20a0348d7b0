/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * Multicast schedules: who sends to whom, in which step or phase, and which
 * part of the order each receiver becomes responsible for.
 *
 *   separate   the source unicasts to every destination (baseline);
 *   u-torus    Fig 4.9 on the R-chain, UTR/BTR unicasts;
 *   s-torus    one worm through the whole H-cycle (Sec. 6.1);
 *   md-torus   M-torus with dimensional partitioning (Sec. 6.3);
 *   mu-torus   M-torus with uniform partitioning of size r (Sec. 6.4).
 *
 * Every part a node is responsible for is a contiguous piece of the order
 * (R-chain or H-cycle, source first), so a receiver needs only (pos, len).
 * A node that received in step t sends its j-th message in step t+j+1.
 */
#ifndef MC_SCHEDULE_H
#define MC_SCHEDULE_H

#include "chain.h"
#include "routing.h"

enum mc_algo {
	MC_ALGO_SEPARATE = 0,
	MC_ALGO_UTORUS = 1,
	MC_ALGO_STORUS = 2,
	MC_ALGO_MDTORUS = 3,
	MC_ALGO_MUTORUS = 4,
	/*
	 * U-torus's halving over node-id order: the same as u-torus on a
	 * torus; on a switched cluster what a topology-blind binomial tree
	 * (MPI's) does, to compare with the up*-down* order.
	 */
	MC_ALGO_BINOMIAL = 5,
	/*
	 * Robinson (1994), ch. 3, on a hypercube (a torus whose every radix
	 * is 2): r is the enum mc_cube_algo (U-cube, Maxport, Combine,
	 * W-sort), all-port unicast trees over E-cube routing (cube.h).
	 */
	MC_ALGO_CUBE = 6,
	/*
	 * Lin and Chen (1996) on a hypercube: the members' contention-free
	 * ring (ring.h), one worm from the sender along it to its
	 * predecessor, run in software as a chain (E-cube paths, not
	 * UTPR's).
	 */
	MC_ALGO_RING = 7,
};

#define MC_MU_MAX_R	65536

/* A receiver: order[pos] gets the message and covers order[pos..pos+len-1]. */
struct mc_dest {
	u32 pos;
	u32 len;
	u32 step;	/* step or phase in which it receives */
	u32 msg;	/* index of the message that reaches it */
	u8 level;	/* md-torus: the piece agrees on dimensions >= level */
};

/* A message: one unicast, or one worm visiting its destinations in order. */
struct mc_msg {
	u32 step;
	u32 from;	/* order position of the sender */
	u32 first;	/* its destinations are dest[first..first+count-1] */
	u32 count;
};

struct mc_schedule {
	const struct mc_torus *t;
	enum mc_algo algo;
	enum mc_routing routing;
	u32 r;			/* mu-torus partition size */
	u32 m;			/* nodes including the source */
	u32 *order;		/* m entries, order[0] is the source */
	struct mc_msg *msg;	/* capacity m */
	u32 nmsg;
	struct mc_dest *dest;	/* capacity m */
	u32 ndest;
	u32 steps;		/* steps or phases */
};

/*
 * Whether @algo sends worms (multi-destination messages; intermediate
 * reception, UTPR, but for the ring's, which go in software only).
 */
static inline bool mc_algo_is_path_based(enum mc_algo a)
{
	return a == MC_ALGO_STORUS || a == MC_ALGO_MDTORUS ||
	       a == MC_ALGO_MUTORUS || a == MC_ALGO_RING;
}

/* Path-based on a torus: the M-torus family over UTPR and the H-cycle. */
static inline bool mc_algo_is_mtorus(enum mc_algo a)
{
	return mc_algo_is_path_based(a) && a != MC_ALGO_RING;
}

/*
 * A piece a receiver got from the network for @algo (r for the cube's):
 * mc_piece_verify in the algorithm's order, or for the cube's a
 * cube-ordered piece; and whether @id is in it.
 */
int mc_algo_piece_verify(const struct mc_torus *t, enum mc_algo algo,
			 const u32 *nodes, u32 len, const char **why);
bool mc_algo_piece_has(const struct mc_torus *t, enum mc_algo algo,
		       const u32 *nodes, u32 len, u32 id);

/* Routing function and node order an algorithm uses on torus @t. */
enum mc_routing mc_algo_routing(const struct mc_torus *t, enum mc_algo a);
enum mc_order mc_algo_order(enum mc_algo a);

/*
 * Whether @a can run on @t (with size @r for mu-torus, the enum
 * mc_cube_algo for the cube's); *@why says why not.
 */
int mc_algo_supported(const struct mc_torus *t, enum mc_algo a, u32 r,
		      const char **why);

/*
 * One holder's state: it has the message and is responsible for the piece
 * [pos, pos+len) of the order seen through @c: the whole chain rotated to
 * the source (mc_chain_rotate), or the holder's own piece already in
 * visiting order (mc_chain_piece); both plan the same messages, as the
 * wrap point is found from the nodes.  mc_sender_next() yields its
 * next message, O(destinations of that message) (times log m for
 * md-torus), with no allocation.  This is the kernel's per-send work.
 */
struct mc_sender {
	const struct mc_torus *t;
	const struct mc_chain *c;
	enum mc_algo algo;
	u32 r;
	u32 pos;
	u32 len;
	u32 next;	/* separate: next position to send to */
	u8 level;
};

void mc_sender_init(struct mc_sender *s, const struct mc_torus *t,
		    const struct mc_chain *c, enum mc_algo algo, u32 r,
		    u32 pos, u32 len, u8 level);

/*
 * Fill @out (room for @max) with the next message's destinations in
 * visiting order (pos/len/level set; step/msg left to the caller) and
 * return how many; 0 when the holder is done.  -ENOSPC if @max is too small.
 */
int mc_sender_next(struct mc_sender *s, struct mc_dest *out, u32 max);

/*
 * Plan a whole multicast from @src to @dst[0..ndst-1] into @s, whose
 * order/msg/dest arrays the caller provides with room for ndst+1 entries
 * each.  Validates the input: -EINVAL with *@why on a node out of range, a
 * repeated destination, the source among the destinations, no destination,
 * or an algorithm the torus cannot run.
 */
int mc_plan(struct mc_schedule *s, const struct mc_torus *t, enum mc_algo algo,
	    u32 r, u32 src, const u32 *dst, u32 ndst, const char **why);

#endif /* MC_SCHEDULE_H */
