// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Concurrent multicasts on a switch graph, worm by worm (swnet.h).
 *
 * Each unicast of a multicast's schedule is a worm of F flits:
 *   - its sender pays t_startup first.  A host starts one unicast at a
 *     time, from one FIFO: a holder queues its sends of a multicast in
 *     step order when it receives, behind any other multicast's, and
 *     starts the next as soon as a startup ends (the worm it just started
 *     is the network's: a startup does not wait for the previous worm to
 *     leave, as in seed001's timing);
 *   - its header then takes the route's channels one by one: the host's
 *     injection channel, the links, the destination's ejection channel.
 *     A free channel is granted at once and the header reaches its far
 *     end t_router + t_channel later; a held channel is waited for in
 *     FIFO order, and the worm keeps every channel behind its header;
 *   - one-flit buffers: a header that waits stops the flits behind it,
 *     and F is longer than any route, so the tail is still at the source
 *     when the header reaches the destination.  The flits then stream
 *     into the host one per t_channel: the last is consumed (F - 1)
 *     t_channel after the header, and the tail leaves the i-th of h
 *     channels (h - 1 - i) t_channel before that, when the channel is
 *     released (the ejection channel with the last flit);
 *   - the destination has the message when its last flit is consumed,
 *     and queues its own sends of that multicast.
 * A multicast ends when its last unicast is consumed; its latency runs
 * from its arrival at the source, queueing there included.
 *
 * Alone in the network a worm never waits, so a unicast over h channels
 * takes t_startup + h (t_router + t_channel) + (F - 1) t_channel and a
 * holder's j-th startup begins j t_startup after it received: seed001's
 * closed form (schedule_time), which seed001-multi checks to the ns.
 * Events at one time run in the order they were made; up*-down* routes
 * and a consumption that never waits make the model deadlock-free.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "swnet.h"

#define NONE	0xffffffffu

enum { EV_STARTED, EV_HEADER, EV_RELEASE, EV_CONSUMED };

struct ev {
	u64 t;
	u64 seq;
	u32 kind;
	u32 arg;		/* a worm, or a channel (EV_RELEASE) */
};

struct fifo {
	u32 head;
	u32 tail;
};

struct worm {
	u32 next;		/* in its host's or a channel's FIFO */
	u32 pos;		/* channels its header has taken */
};

struct mcast {
	u64 tag;
	u64 t0;
	u32 left;		/* unicasts not consumed yet; 0: slot free */
	u32 next_free;
};

struct swn {
	const struct mc_sw_graph *g;
	struct swn_timing t;
	u32 m, nw, rcap;	/* members, worms and route words a slot */
	u32 max_active, nactive, free_slot;
	u64 now, seq, waits;
	struct mcast *mc;
	u32 *order;		/* m a slot */
	struct mc_sw_send *send;	/* nw a slot, by step */
	u32 *route;		/* rcap a slot */
	struct worm *w;		/* nw a slot */
	struct fifo *hostq;
	bool *host_busy;
	u32 *holder;		/* channel -> worm, or NONE */
	struct fifo *chanq;
	struct ev *heap;
	u32 nev, evcap;
	swn_done_fn *done;
	void *arg;
};

/* ---------------- the event heap, by time then creation ---------------- */

static bool ev_before(const struct ev *a, const struct ev *b)
{
	return a->t < b->t || (a->t == b->t && a->seq < b->seq);
}

static void ev_push(struct swn *n, u64 t, u32 kind, u32 arg)
{
	struct ev e = { t, n->seq++, kind, arg };
	u32 i;

	if (n->nev == n->evcap) {
		n->evcap = n->evcap ? 2 * n->evcap : 1024;
		n->heap = realloc(n->heap, n->evcap * sizeof(*n->heap));
		if (!n->heap)
			sim_die("%s", "out of memory");
	}
	for (i = n->nev++; i && ev_before(&e, &n->heap[(i - 1) / 2]);
	     i = (i - 1) / 2)
		n->heap[i] = n->heap[(i - 1) / 2];
	n->heap[i] = e;
}

static struct ev ev_pop(struct swn *n)
{
	struct ev top = n->heap[0], last = n->heap[--n->nev];
	u32 i = 0, c;

	while ((c = 2 * i + 1) < n->nev) {
		if (c + 1 < n->nev && ev_before(&n->heap[c + 1], &n->heap[c]))
			c++;
		if (!ev_before(&n->heap[c], &last))
			break;
		n->heap[i] = n->heap[c];
		i = c;
	}
	n->heap[i] = last;
	return top;
}

/* ---------------- FIFOs of worms, linked through worm.next ---------------- */

static void fifo_push(struct swn *n, struct fifo *q, u32 w)
{
	n->w[w].next = NONE;
	if (q->head == NONE)
		q->head = w;
	else
		n->w[q->tail].next = w;
	q->tail = w;
}

static u32 fifo_pop(struct swn *n, struct fifo *q)
{
	u32 w = q->head;

	if (w != NONE)
		q->head = n->w[w].next;
	return w;
}

/* ---------------- the model ---------------- */

static const struct mc_sw_send *send_of(const struct swn *n, u32 w)
{
	return &n->send[w];
}

static u32 chan_of(const struct swn *n, u32 w, u32 i)
{
	return n->route[(size_t)(w / n->nw) * n->rcap + send_of(n, w)->first +
			i];
}

/* The host at order position @p of worm @w's multicast. */
static u32 host_of(const struct swn *n, u32 w, u32 p)
{
	return n->order[(size_t)(w / n->nw) * n->m + p] - n->g->nswitches;
}

static void host_kick(struct swn *n, u32 h)
{
	u32 w;

	if (n->host_busy[h] || (w = fifo_pop(n, &n->hostq[h])) == NONE)
		return;
	n->host_busy[h] = true;
	ev_push(n, n->now + n->t.t_startup, EV_STARTED, w);
}

/* Member @p of the multicast in @slot holds the message: its sends. */
static void holder_sends(struct swn *n, u32 slot, u32 p)
{
	u32 i, w = slot * n->nw, h = host_of(n, w, p);

	for (i = 0; i < n->nw; i++)
		if (n->send[w + i].from == p)
			fifo_push(n, &n->hostq[h], w + i);
	host_kick(n, h);
}

static void grant(struct swn *n, u32 c, u32 w)
{
	n->holder[c] = w;
	ev_push(n, n->now + n->t.t_router + n->t.t_channel, EV_HEADER, w);
}

static void request(struct swn *n, u32 w)
{
	u32 c = chan_of(n, w, n->w[w].pos);

	if (n->holder[c] == NONE) {
		grant(n, c, w);
		return;
	}
	n->waits++;
	fifo_push(n, &n->chanq[c], w);
}

/* The header is at the far end of a channel: the next, or consumption. */
static void header(struct swn *n, u32 w)
{
	u32 h = send_of(n, w)->hops, i;
	u64 last;

	if (++n->w[w].pos < h) {
		request(n, w);
		return;
	}
	last = n->now + (u64)(n->t.flits - 1) * n->t.t_channel;
	for (i = 0; i < h; i++)
		ev_push(n, last - (u64)(h - 1 - i) * n->t.t_channel,
			EV_RELEASE, chan_of(n, w, i));
	ev_push(n, last, EV_CONSUMED, w);
}

static void consumed(struct swn *n, u32 w)
{
	u32 slot = w / n->nw;
	struct mcast *mc = &n->mc[slot];

	holder_sends(n, slot, send_of(n, w)->to);
	if (--mc->left)
		return;
	n->done(n->arg, mc->tag, mc->t0, n->now);
	mc->next_free = n->free_slot;
	n->free_slot = slot;
	n->nactive--;
}

static void step(struct swn *n)
{
	struct ev e = ev_pop(n);
	u32 w;

	n->now = e.t;
	switch (e.kind) {
	case EV_STARTED:
		w = host_of(n, e.arg, send_of(n, e.arg)->from);
		n->host_busy[w] = false;
		host_kick(n, w);
		request(n, e.arg);
		break;
	case EV_HEADER:
		header(n, e.arg);
		break;
	case EV_RELEASE:
		w = fifo_pop(n, &n->chanq[e.arg]);
		n->holder[e.arg] = NONE;
		if (w != NONE)
			grant(n, e.arg, w);
		break;
	default:
		consumed(n, e.arg);
	}
}

void swn_run(struct swn *n, u64 t)
{
	while (n->nev && n->heap[0].t <= t)
		step(n);
	if (t > n->now)
		n->now = t;
}

void swn_drain(struct swn *n)
{
	while (n->nev)
		step(n);
}

/* Copy @s into @slot, its sends in step order (a holder's send order). */
static void slot_fill(struct swn *n, u32 slot, const struct mc_sw_schedule *s)
{
	struct mc_sw_send *x = n->send + (size_t)slot * n->nw;
	u32 i, j, k = 0;

	memcpy(n->order + (size_t)slot * n->m, s->order,
	       s->m * sizeof(u32));
	memcpy(n->route + (size_t)slot * n->rcap, s->route,
	       s->nroute * sizeof(u32));
	for (i = 1; i <= s->steps; i++)
		for (j = 0; j < s->nsend; j++)
			if (s->send[j].step == i)
				x[k++] = s->send[j];
	for (; k < n->nw; k++)
		x[k] = (struct mc_sw_send){ .from = NONE };
	for (i = 0; i < n->nw; i++)
		n->w[(size_t)slot * n->nw + i] = (struct worm){ NONE, 0 };
}

int swn_add(struct swn *n, u64 t, const struct mc_sw_schedule *s, u64 tag)
{
	u32 slot, i;

	if (s->m > n->m || s->nroute > n->rcap || t < n->now || !s->nsend)
		return -EINVAL;
	for (i = 0; i < s->m; i++)
		if (s->order[i] < n->g->nswitches)
			return -EINVAL;		/* hosts only */
	if (n->free_slot == NONE)
		return -ENOSPC;
	swn_run(n, t);
	slot = n->free_slot;
	n->free_slot = n->mc[slot].next_free;
	n->nactive++;
	n->mc[slot] = (struct mcast){ tag, t, s->nsend, NONE };
	slot_fill(n, slot, s);
	holder_sends(n, slot, 0);
	return 0;
}

struct swn *swn_new(const struct mc_sw_graph *g, const struct swn_timing *t,
		    u32 m, u32 max_active, swn_done_fn *done, void *arg)
{
	struct swn *n;
	u32 i;

	if (t->flits <= mc_sw_route_max(g) || m < 2 || !max_active)
		return NULL;
	n = sim_calloc(1, sizeof(*n));
	*n = (struct swn){ .g = g, .t = *t, .m = m, .nw = m - 1,
		.rcap = (u32)mc_sw_route_words(g, m), .max_active = max_active,
		.done = done, .arg = arg };
	n->mc = sim_calloc(max_active, sizeof(*n->mc));
	n->order = sim_calloc((size_t)max_active * m, sizeof(u32));
	n->send = sim_calloc((size_t)max_active * n->nw, sizeof(*n->send));
	n->route = sim_calloc((size_t)max_active * n->rcap, sizeof(u32));
	n->w = sim_calloc((size_t)max_active * n->nw, sizeof(*n->w));
	n->hostq = sim_calloc(g->nhosts, sizeof(*n->hostq));
	n->host_busy = sim_calloc(g->nhosts, sizeof(bool));
	n->holder = sim_calloc(mc_sw_nchans(g), sizeof(u32));
	n->chanq = sim_calloc(mc_sw_nchans(g), sizeof(*n->chanq));
	for (i = 0; i < g->nhosts; i++)
		n->hostq[i].head = NONE;
	for (i = 0; i < mc_sw_nchans(g); i++) {
		n->holder[i] = NONE;
		n->chanq[i].head = NONE;
	}
	for (i = 0; i < max_active; i++)
		n->mc[i].next_free = i + 1 < max_active ? i + 1 : NONE;
	return n;
}

void swn_free(struct swn *n)
{
	if (!n)
		return;
	free(n->mc);
	free(n->order);
	free(n->send);
	free(n->route);
	free(n->w);
	free(n->hostq);
	free(n->host_busy);
	free(n->holder);
	free(n->chanq);
	free(n->heap);
	free(n);
}

u32 swn_active(const struct swn *n)
{
	return n->nactive;
}

u64 swn_now(const struct swn *n)
{
	return n->now;
}

u64 swn_waits(const struct swn *n)
{
	return n->waits;
}
