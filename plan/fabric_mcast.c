// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * A planned multicast driven over the simulated fabric (fabric_mcast.h).
 */
#include "fabric_mcast.h"

/* Node of destination slot @d of @s. */
static u32 dest_node(const struct mc_schedule *s, u32 d)
{
	return s->order[s->dest[d].pos];
}

u32 mc_fab_mcast_hops(const struct mc_torus *t, const struct mc_schedule *s)
{
	u32 m, i, hops = 0;

	for (m = 0; m < s->nmsg; m++) {
		u32 prev = s->order[s->msg[m].from];

		for (i = 0; i < s->msg[m].count; i++) {
			u32 node = dest_node(s, s->msg[m].first + i);

			hops += mc_distance(t, prev, node);
			prev = node;
		}
	}
	return hops;
}

void mc_fab_mcast_init(struct mc_fab_mcast *mm, const struct mc_schedule *s,
		       u32 flits, u32 tag)
{
	u32 m, i, off = 0;

	mm->s = s;
	mm->flits = flits;
	mm->header = MC_FAB_HDR_NONE;
	mm->tag = tag;
	mm->received = 0;
	mm->missed = 0;
	mm->failed = 0;
	mm->send_errors = 0;
	mm->t_last = 0;
	for (i = 0; i < s->ndest; i++)
		mm->list[i] = dest_node(s, i);
	for (i = 0; i < s->m; i++) {
		mm->first_msg[i] = MC_FAB_NONE;
		mm->copies[i] = 0;
		mm->via[i] = MC_FAB_NONE;
		mm->t_recv[i] = 0;
	}
	/* Each sender's messages chained in plan order (walk backwards). */
	for (m = s->nmsg; m-- > 0;) {
		mm->next_msg[m] = mm->first_msg[s->msg[m].from];
		mm->first_msg[s->msg[m].from] = m;
	}
	for (m = 0; m < s->nmsg; m++) {
		u32 prev = s->order[s->msg[m].from];

		mm->hop_off[m] = off;
		for (i = 0; i < s->msg[m].count; i++) {
			u32 node = mm->list[s->msg[m].first + i];

			off += mc_distance(s->t, prev, node);
			prev = node;
		}
	}
	mm->hop_off[s->nmsg] = off;
}

static void send_from(struct mc_fabric *f, struct mc_fab_mcast *mm, u32 pos,
		      u64 t)
{
	const struct mc_schedule *s = mm->s;
	u32 m;

	for (m = mm->first_msg[pos]; m != MC_FAB_NONE; m = mm->next_msg[m]) {
		const struct mc_msg *msg = &s->msg[m];

		if (mc_fab_send(f, s->order[pos], mm->list + msg->first,
				msg->count, mc_fab_mcast_len(mm, m),
				mm->hops + mm->hop_off[m],
				mm->hop_off[m + 1] - mm->hop_off[m], t,
				(u64)mm->tag << 32 | m, NULL) < 0)
			mm->send_errors++;
	}
}

void mc_fab_mcast_start(struct mc_fabric *f, struct mc_fab_mcast *mm, u64 t0)
{
	send_from(f, mm, 0, t0);
}

/* The message worm @w carries, or NONE if not one of this run's. */
static u32 msg_of(const struct mc_fabric *f, const struct mc_fab_mcast *mm,
		  u32 w)
{
	u64 cookie = f->worm[w].cookie;

	if (cookie >> 32 != mm->tag || (u32)cookie >= mm->s->nmsg)
		return MC_FAB_NONE;
	return (u32)cookie;
}

bool mc_fab_mcast_deliver(struct mc_fabric *f, struct mc_fab_mcast *mm,
			  u32 w, u32 i, enum mc_fab_copy copy, u64 t)
{
	u32 m = msg_of(f, mm, w), pos;

	if (m == MC_FAB_NONE || i >= mm->s->msg[m].count)
		return false;
	if (copy != MC_FAB_COPY_OK) {
		mm->missed++;
		return true;
	}
	pos = mm->s->dest[mm->s->msg[m].first + i].pos;
	mm->copies[pos]++;
	mm->via[pos] = m;
	mm->t_recv[pos] = t;
	mm->received++;
	if (t > mm->t_last)
		mm->t_last = t;
	if (mm->copies[pos] == 1)
		send_from(f, mm, pos, t);
	return true;
}

bool mc_fab_mcast_done(struct mc_fabric *f, struct mc_fab_mcast *mm, u32 w,
		       int err)
{
	if (msg_of(f, mm, w) == MC_FAB_NONE)
		return false;
	if (err)
		mm->failed++;
	return true;
}
