/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * Concurrent multicasts on a switch graph (the multiple-multicast
 * study of Libeskind-Hadas et al. (1998)), at the level of worms, event by
 * event (swnet.c has the model).  The caller adds planned multicasts
 * (mc_sw_plan) at times it chooses and runs the model up to a time; each
 * multicast's latency comes back through a callback when its last destination
 * has consumed it.
 */
#ifndef MCASTSIM_SWNET_H
#define MCASTSIM_SWNET_H

#include "simutil.h"
#include "updown.h"

struct swn_timing {
	u64 t_startup;		/* ns, per unicast, at its sender */
	u64 t_router;		/* ns, per hop, for the header */
	u64 t_channel;		/* ns, per flit and channel */
	u32 flits;		/* more than any route has channels */
};

struct swn;

/* Called once per multicast: @tag as added, its arrival and its end (ns). */
typedef void swn_done_fn(void *arg, u64 tag, u64 start, u64 end);

/*
 * A model of @g (kept, not copied) for multicasts of at most @m members,
 * at most @max_active at once.  NULL when a route may be as long as the
 * message (the drain rule needs the tail at the source: swnet.c).
 */
struct swn *swn_new(const struct mc_sw_graph *g, const struct swn_timing *t,
		    u32 m, u32 max_active, swn_done_fn *done, void *arg);
void swn_free(struct swn *n);

/*
 * Multicast @s (copied) arrives at its source at @t, not before the
 * model's time.  -ENOSPC when @max_active are in the network, -EINVAL
 * when @s has more than @m members or @t is in the past.
 */
int swn_add(struct swn *n, u64 t, const struct mc_sw_schedule *s, u64 tag);

/* Every event up to and including @t; the model's time is then @t. */
void swn_run(struct swn *n, u64 t);
/* Every event until the network is empty. */
void swn_drain(struct swn *n);

/* Multicasts in the network, and the model's time. */
u32 swn_active(const struct swn *n);
u64 swn_now(const struct swn *n);
/* Headers that found their next channel held, since swn_new. */
u64 swn_waits(const struct swn *n);

#endif /* MCASTSIM_SWNET_H */
