/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * A planned multicast run on the simulated fabric: the source sends its
 * messages at the start, every other holder sends its own when its copy
 * arrives (in the plan's order; the fabric makes a node's sends serial).
 * What the evaluation simulator and the fabric's tests drive; the kernel's
 * data path plays the holders itself.
 *
 * The worms of one run carry the cookie (tag << 32 | message index), so
 * many runs can share a fabric.  The caller owns the arrays (sizes below).
 */
#ifndef MC_FABRIC_MCAST_H
#define MC_FABRIC_MCAST_H
#include "fabric.h"
#include "schedule.h"

/*
 * The flits a worm's header adds to its message (Robinson (1994), Sec. 5.6
 * and 6.5): none (the fabric's default: a header rides in the message's
 * flits); an address flit per destination, the last one twice (Fig 5.9); or
 * the compound format (Fig 6.2), each address followed by a count and the
 * list of the later piece that destination is responsible for.
 */
enum mc_fab_header {
	MC_FAB_HDR_NONE = 0,
	MC_FAB_HDR_ADDR = 1,
	MC_FAB_HDR_COMPOUND = 2,
};

struct mc_fab_mcast {
	const struct mc_schedule *s;
	u32 flits;
	u8 header;		/* enum mc_fab_header, NONE after init */
	u32 tag;
	u32 *list;		/* s->ndest: each message's destination nodes */
	struct mc_fab_hop *hops;/* every message's path, mc_fab_mcast_hops() */
	u32 *hop_off;		/* s->nmsg + 1: message m's path starts here */
	u32 *first_msg;		/* s->m: first message a position sends */
	u32 *next_msg;		/* s->nmsg: the same sender's next message */
	u32 *copies;		/* s->m: copies each position received */
	u32 *via;		/* s->m: the message that brought the last one */
	u64 *t_recv;		/* s->m: when it arrived (virtual ns) */
	u32 received;		/* copies received, all positions */
	u32 missed;		/* copies a host missed */
	u32 failed;		/* worms that ended short */
	u32 send_errors;	/* sends the fabric refused */
	u64 t_last;		/* the last copy's arrival */
};

/* Hops of all the messages of @s on @t: the size of mm->hops. */
u32 mc_fab_mcast_hops(const struct mc_torus *t, const struct mc_schedule *s);

/* Lay the run out in the caller's arrays (set in @mm before the call). */
void mc_fab_mcast_init(struct mc_fab_mcast *mm, const struct mc_schedule *s,
		       u32 flits, u32 tag);

/* The flits of message @m: its length and its header's (mm->header). */
static inline u32 mc_fab_mcast_len(const struct mc_fab_mcast *mm, u32 m)
{
	const struct mc_msg *msg = &mm->s->msg[m];
	u32 len = mm->flits, i;

	if (mm->header == MC_FAB_HDR_NONE)
		return len;
	len += msg->count + 1;
	if (mm->header == MC_FAB_HDR_COMPOUND)
		for (i = 0; i < msg->count; i++)
			len += mm->s->dest[msg->first + i].len;
	return len;
}

/* The source sends its messages at @t0. */
void mc_fab_mcast_start(struct mc_fabric *f, struct mc_fab_mcast *mm, u64 t0);

/*
 * The fabric's deliver() for a worm of this run (false if @w is not one):
 * records the copy and lets its holder send.
 */
bool mc_fab_mcast_deliver(struct mc_fabric *f, struct mc_fab_mcast *mm,
			  u32 w, u32 i, enum mc_fab_copy copy, u64 t);

/* The fabric's done() for a worm of this run (false if not one). */
bool mc_fab_mcast_done(struct mc_fabric *f, struct mc_fab_mcast *mm, u32 w,
		       int err);

/* The tag of the run worm @w belongs to. */
static inline u32 mc_fab_mcast_tag(const struct mc_fabric *f, u32 w)
{
	return (u32)(f->worm[w].cookie >> 32);
}

#endif /* MC_FABRIC_MCAST_H */
