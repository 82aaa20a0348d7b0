// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The simulated IR fabric: worms, flits, virtual channels, and the run-time
 * checks of Thm 5.1 (see fabric.h for the model).
 *
 * One cycle moves every worm front to back: its header first (consume at
 * the last destination, drain into a failed link, or acquire the next
 * channel), then each flit one hop forward if the buffer ahead has room and
 * the physical link carried nothing else this cycle.  The worms are taken
 * in an order that rotates every cycle, so two worms sharing a link take
 * turns.  A worm's tail leaving a channel releases it.
 */
#include "fabric.h"

#define RANK_TIER_SHIFT	40
#define DEADLOCK_EVERY	32	/* cycles between wait-for graph searches */

static struct mc_fab_chan *link_of(struct mc_fabric *f, u32 chan)
{
	return &f->chan[chan - chan % f->cfg.vc_sets];
}

void mc_fab_chan_split(const struct mc_fabric *f, u32 chan, u32 *node,
		       unsigned int *dim, unsigned int *vc)
{
	*vc = chan % f->cfg.vc_sets;
	chan /= f->cfg.vc_sets;
	*dim = chan % f->t.n;
	*node = chan / f->t.n;
}

/* The router a channel leads to. */
static u32 chan_to(const struct mc_fabric *f, u32 chan)
{
	u32 node;
	unsigned int dim, vc;

	mc_fab_chan_split(f, chan, &node, &dim, &vc);
	return mc_neighbour(&f->t, node, dim, 1);
}

int mc_fab_init(struct mc_fabric *f, const struct mc_torus *t,
		const struct mc_fab_cfg *cfg, struct mc_fab_chan *chan,
		struct mc_fab_node *node, struct mc_fab_worm *worm,
		const struct mc_fab_ops *ops, void *ctx, const char **why)
{
	const char *bad = NULL;
	u32 i;

	if (t->links != MC_LINKS_UNI || !t->regular)
		bad = "the fabric is a regular unidirectional torus";
	else if (cfg->vc_sets != 1 && cfg->vc_sets != 2)
		bad = "vc_sets is 1 or 2";
	else if (cfg->ports > MC_FAB_MAX_PORTS)
		bad = "ports is 0 (one per incoming virtual channel) to 16";
	else if (!cfg->buffer_flits || cfg->buffer_flits > MC_FAB_MAX_BUF)
		bad = "buffer_flits is 1 to 4096";
	else if (!cfg->tau_n)
		bad = "tau_n (the flit time) must be positive";
	else if (!cfg->max_worms)
		bad = "max_worms must be positive";
	else if (!ops || !ops->deliver || !ops->done)
		bad = "deliver and done callbacks are required";
	if (bad) {
		if (why)
			*why = bad;
		return -EINVAL;
	}
	f->t = *t;
	f->cfg = *cfg;
	if (!f->cfg.ports)
		f->cfg.ports = t->n * cfg->vc_sets;
	f->ops = ops;
	f->ctx = ctx;
	f->chan = chan;
	f->node = node;
	f->worm = worm;
	f->now = 0;
	f->cycle = 0;
	f->active = 0;
	f->hi = 0;
	f->stamp = 0;
	f->drop_every = 0;
	f->drop_count = 0;
	f->st = (struct mc_fab_stats){ 0 };
	for (i = 0; i < t->nodes; i++) {
		node[i] = (struct mc_fab_node){ 0 };
		node[i].cons_free = f->cfg.ports;
		node[i].q_head = MC_FAB_NONE;
		node[i].q_tail = MC_FAB_NONE;
	}
	for (i = 0; i < mc_fab_channels(t, cfg->vc_sets); i++)
		chan[i] = (struct mc_fab_chan){ 0 };
	for (i = 0; i < cfg->max_worms; i++)
		worm[i] = (struct mc_fab_worm){ 0 };
	return 0;
}

/*
 * Check a destination list against the torus: in range, no repeat of the
 * node before (the source first).
 */
static bool list_ok(const struct mc_torus *t, u32 src, const u32 *dest,
		    u32 ndest, const char **why)
{
	u32 i, prev = src;

	if (src >= t->nodes) {
		*why = "source outside the torus";
		return false;
	}
	if (!ndest) {
		*why = "a worm needs a destination";
		return false;
	}
	for (i = 0; i < ndest; i++) {
		if (dest[i] >= t->nodes) {
			*why = "destination outside the torus";
			return false;
		}
		if (dest[i] == prev) {
			*why = "destination equal to the node before it";
			return false;
		}
		prev = dest[i];
	}
	return true;
}

u32 mc_fab_path_len(const struct mc_torus *t, u32 src, const u32 *dest,
		    u32 ndest, const char **why)
{
	const char *dummy;
	u32 i, prev = src, hops = 0;

	if (!list_ok(t, src, dest, ndest, why ? why : &dummy))
		return 0;
	for (i = 0; i < ndest; i++) {
		hops += mc_distance(t, prev, dest[i]);
		prev = dest[i];
	}
	return hops;
}

/* Route the whole worm with R_UTPR into @path; false if it did not fit. */
static bool build_path(const struct mc_fabric *f, u32 src, const u32 *dest,
		       u32 ndest, struct mc_fab_hop *path, u32 npath)
{
	struct mc_hop hop;
	u32 i, cur = src, n = 0;
	u8 alpha = MC_VC_P;

	for (i = 0; i < ndest; i++) {
		while (mc_route_next(&f->t, MC_ROUTE_UTPR, cur, dest[i],
				     &alpha, &hop)) {
			if (n == npath)
				return false;
			path[n].chan = mc_fab_chan_of(f, cur, hop.dim,
						      f->cfg.vc_sets == 2 ?
						      hop.vc : 0);
			path[n].dest = MC_FAB_NONE;
			path[n].flits = 0;
			path[n].port = false;
			path[n].missed = false;
			path[n].reached = false;
			cur = hop.to;
			n++;
		}
		path[n - 1].dest = i;
	}
	return n == npath;
}

int mc_fab_send(struct mc_fabric *f, u32 src, const u32 *dest, u32 ndest,
		u32 flits, struct mc_fab_hop *path, u32 npath, u64 t_submit,
		u64 cookie, const char **why)
{
	const char *dummy;
	struct mc_fab_worm *w;
	struct mc_fab_node *nd;
	u32 i;

	if (!why)
		why = &dummy;
	if (!list_ok(&f->t, src, dest, ndest, why))
		return -EINVAL;
	if (!flits) {
		*why = "a worm is at least one flit";
		return -EINVAL;
	}
	if (!build_path(f, src, dest, ndest, path, npath)) {
		*why = "path array is not mc_fab_path_len() hops";
		return -EINVAL;
	}
	for (i = 0; i < f->cfg.max_worms; i++)
		if (f->worm[i].state == MC_FAB_FREE)
			break;
	if (i == f->cfg.max_worms) {
		*why = "worm pool full";
		return -ENOSPC;
	}
	if (t_submit < f->now)
		t_submit = f->now;
	nd = &f->node[src];
	w = &f->worm[i];
	*w = (struct mc_fab_worm){ 0 };
	w->state = MC_FAB_STARTUP;
	w->alpha = MC_VC_P;
	w->src = src;
	w->dest = dest;
	w->ndest = ndest;
	w->path = path;
	w->npath = npath;
	w->flits = flits;
	w->to_inject = flits;
	w->wait_chan = MC_FAB_NONE;
	w->cookie = cookie;
	w->t_submit = t_submit;
	w->q_next = MC_FAB_NONE;
	if (nd->q_tail == MC_FAB_NONE) {
		nd->q_head = i;
		w->t_start = t_submit + f->cfg.tau_s;
	} else {
		f->worm[nd->q_tail].q_next = i;
		w->t_start = U64_MAX;	/* set when it reaches the head */
	}
	nd->q_tail = i;
	f->active++;
	if (i >= f->hi)
		f->hi = i + 1;
	f->st.worms++;
	return i;
}

/* @node's first worm left it (or ended): the next one starts up. */
static void queue_pop(struct mc_fabric *f, u32 node, u64 t)
{
	struct mc_fab_node *nd = &f->node[node];
	struct mc_fab_worm *next;

	nd->q_head = f->worm[nd->q_head].q_next;
	if (nd->q_head == MC_FAB_NONE) {
		nd->q_tail = MC_FAB_NONE;
		return;
	}
	next = &f->worm[nd->q_head];
	next->t_start = (next->t_submit > t ? next->t_submit : t) +
			f->cfg.tau_s;
}

/* Take a worm that has not left its source out of the source's queue. */
static void queue_remove(struct mc_fabric *f, u32 w_idx)
{
	struct mc_fab_node *nd = &f->node[f->worm[w_idx].src];
	u32 i;

	if (nd->q_head == w_idx) {
		queue_pop(f, f->worm[w_idx].src, f->now);
		return;
	}
	for (i = nd->q_head; i != MC_FAB_NONE; i = f->worm[i].q_next) {
		if (f->worm[i].q_next != w_idx)
			continue;
		f->worm[i].q_next = f->worm[w_idx].q_next;
		if (nd->q_tail == w_idx)
			nd->q_tail = i;
		return;
	}
}

/* Give back what a worm holds. */
static void release_all(struct mc_fabric *f, u32 w_idx)
{
	struct mc_fab_worm *w = &f->worm[w_idx];
	u32 j;

	for (j = w->tail; j < w->head; j++) {
		struct mc_fab_hop *h = &w->path[j];

		if (f->chan[h->chan].owner == w_idx + 1)
			f->chan[h->chan].owner = 0;
		if (h->port) {
			f->node[chan_to(f, h->chan)].cons_free++;
			h->port = false;
		}
		h->flits = 0;
	}
	if (w->injecting || w->state == MC_FAB_STARTUP)
		queue_remove(f, w_idx);
	if (w->consuming)
		f->node[w->dest[w->ndest - 1]].cons_free++;
	w->injecting = false;
	w->consuming = false;
}

static void finish(struct mc_fabric *f, u32 w_idx, int err, u64 t)
{
	struct mc_fab_worm *w = &f->worm[w_idx];

	release_all(f, w_idx);
	f->st.blocked_ns += w->blocked_ns;
	if (err)
		f->st.failed++;
	else
		f->st.done++;
	w->state = MC_FAB_FREE;
	f->active--;
	while (f->hi && f->worm[f->hi - 1].state == MC_FAB_FREE)
		f->hi--;
	f->ops->done(f->ctx, f, w_idx, err, t);
}

void mc_fab_abort(struct mc_fabric *f, u32 w, int err)
{
	if (w >= f->cfg.max_worms || f->worm[w].state == MC_FAB_FREE)
		return;
	finish(f, w, err, f->now);
}

static void alarm(struct mc_fabric *f, u32 w, int err, const char *what)
{
	if (f->ops->alarm)
		f->ops->alarm(f->ctx, f, w, err, what);
}

/* A destination's copy is complete (the last flit passed its router). */
static void deliver(struct mc_fabric *f, u32 w_idx, struct mc_fab_hop *h,
		    u64 t)
{
	struct mc_fab_worm *w = &f->worm[w_idx];
	enum mc_fab_copy copy = h->missed ? MC_FAB_COPY_MISSED : MC_FAB_COPY_OK;

	if (h->port) {
		f->node[chan_to(f, h->chan)].cons_free++;
		h->port = false;
	}
	w->delivered = h->dest + 1;
	if (copy == MC_FAB_COPY_OK) {
		f->st.deliveries++;
		if (h->dest + 1 < w->ndest)
			f->st.ir_copies++;
	} else {
		f->st.ir_missed++;
	}
	f->ops->deliver(f->ctx, f, w_idx, h->dest, copy, t + f->cfg.tau_r);
}

/*
 * The three-tier order of the notes' correction to Thm 5.1: p-channels by
 * (label, dim), then the boundary channel, then h-channels by (label, dim).
 */
static u64 chan_rank(const struct mc_fabric *f, u32 chan, bool *boundary)
{
	u32 node;
	unsigned int dim, vc;
	u64 tier;

	mc_fab_chan_split(f, chan, &node, &dim, &vc);
	*boundary = mc_is_boundary(&f->t, node, dim);
	tier = vc == MC_VC_P ? 0 : *boundary ? 1 : 2;
	return tier << RANK_TIER_SHIFT |
	       (u64)mc_hlabel(&f->t, node) << 8 | dim;
}

static void check_order(struct mc_fabric *f, u32 w_idx, u32 chan)
{
	struct mc_fab_worm *w = &f->worm[w_idx];
	bool boundary;
	u64 rank;

	if (f->cfg.vc_sets != 2)
		return;		/* one channel set: the theory does not apply */
	rank = chan_rank(f, chan, &boundary);
	if (w->head > 1 && rank <= w->rank) {
		f->st.lambda_violations++;
		alarm(f, w_idx, -EPROTO,
		      "channel taken out of the three-tier order");
	}
	w->rank = rank;
	if (boundary && ++w->boundaries > 1) {
		f->st.boundary_violations++;
		alarm(f, w_idx, -EPROTO, "worm crossed a second boundary");
	}
}

/* The header takes its next channel if it can; false if it waits. */
static void header_advance(struct mc_fabric *f, u32 w_idx)
{
	struct mc_fab_worm *w = &f->worm[w_idx];
	u32 chan = w->path[w->head].chan;
	struct mc_fab_chan *c = &f->chan[chan];

	if (link_of(f, chan)->failed) {
		w->state = MC_FAB_SINK;
		w->wait_chan = MC_FAB_NONE;
		return;
	}
	if (c->owner) {
		w->wait_chan = chan;
		w->blocked_ns += f->cfg.tau_n;
		c->blocked_ns += f->cfg.tau_n;
		return;
	}
	c->owner = w_idx + 1;
	w->wait_chan = MC_FAB_NONE;
	w->head++;
	check_order(f, w_idx, chan);
	if (f->ops->hop)
		f->ops->hop(f->ctx, f, w_idx, chan, f->now);
}

/*
 * The header flit reached the router of hop @j: a destination on the way
 * takes a consumption channel for its copy, if it can.
 */
static void header_arrived(struct mc_fabric *f, struct mc_fab_worm *w, u32 j)
{
	struct mc_fab_hop *h = &w->path[j];
	struct mc_fab_node *nd;

	if (h->dest == MC_FAB_NONE || j + 1 == w->npath)
		return;
	nd = &f->node[chan_to(f, h->chan)];
	if (nd->no_ir || nd->stalled || !nd->cons_free) {
		h->missed = true;
		return;
	}
	nd->cons_free--;
	h->port = true;
}

/*
 * The front of the worm: the last destination consumes a flit, a worm cut
 * at a failed link loses one, or the header goes on.  Returns true when
 * the worm ended.
 */
static bool front(struct mc_fabric *f, u32 w_idx, u64 t_end)
{
	struct mc_fab_worm *w = &f->worm[w_idx];
	struct mc_fab_hop *h = w->head ? &w->path[w->head - 1] : NULL;
	u32 at = h ? chan_to(f, h->chan) : w->src;
	struct mc_fab_node *nd = &f->node[at];
	bool last;

	if (nd->stalled)
		return false;
	if (w->state == MC_FAB_ACTIVE && w->head < w->npath) {
		if (!h || h->flits)
			header_advance(f, w_idx);
		return false;
	}
	if (!h) {	/* cut at its first link: nothing left the source */
		finish(f, w_idx, -ENOLINK, t_end);
		return true;
	}
	if (!h->flits)
		return false;
	if (w->state == MC_FAB_ACTIVE && !w->consuming && !h->missed) {
		/*
		 * No consumption channel free: the host misses this copy
		 * and the flits drain unseen (never wait: see fabric.h).
		 */
		if (nd->cons_free) {
			nd->cons_free--;
			w->consuming = true;
		} else {
			h->missed = true;
		}
	}
	h->flits--;
	last = !w->to_inject && w->tail == w->head - 1 && !h->flits;
	if (!last)
		return false;
	if (w->state == MC_FAB_ACTIVE) {
		deliver(f, w_idx, h, t_end);
		finish(f, w_idx, 0, t_end + f->cfg.tau_r);
	} else {
		finish(f, w_idx, -ENOLINK, t_end);
	}
	return true;
}

/* Move one flit into hop @j from the hop before it (or the source). */
static void move_into(struct mc_fabric *f, u32 w_idx, u32 j, u64 t_end)
{
	struct mc_fab_worm *w = &f->worm[w_idx];
	struct mc_fab_hop *h = &w->path[j];
	struct mc_fab_hop *prev = j ? &w->path[j - 1] : NULL;
	struct mc_fab_chan *c = &f->chan[h->chan], *l = link_of(f, h->chan);
	u32 at = prev ? chan_to(f, prev->chan) : w->src;

	if ((prev ? !prev->flits : !w->to_inject) ||
	    h->flits >= f->cfg.buffer_flits || l->used_cycle == f->cycle + 1 ||
	    f->node[at].stalled)
		return;
	l->used_cycle = f->cycle + 1;
	c->flits++;
	f->st.flit_hops++;
	h->flits++;
	if (h->flits > c->peak)
		c->peak = h->flits;
	if (prev)
		prev->flits--;
	else
		w->to_inject--;
	if (!h->reached) {
		h->reached = true;
		header_arrived(f, w, j);
	}
	if (prev ? (prev->flits || w->to_inject || w->tail != j - 1) :
		   w->to_inject)
		return;
	/* The tail left the hop before: release it. */
	if (prev) {
		if (f->chan[prev->chan].owner == w_idx + 1)
			f->chan[prev->chan].owner = 0;
		w->tail = j;
	} else if (w->injecting) {
		w->injecting = false;
		queue_pop(f, w->src, t_end);
	}
	/* The tail reached a destination on the way: its copy is complete. */
	if (h->dest != MC_FAB_NONE && j + 1 < w->npath)
		deliver(f, w_idx, h, t_end + f->cfg.tau_n);
}

static void step_worm(struct mc_fabric *f, u32 w_idx, u64 t_end)
{
	struct mc_fab_worm *w = &f->worm[w_idx];
	u32 j;

	if (w->state == MC_FAB_STARTUP) {
		struct mc_fab_node *nd = &f->node[w->src];

		if (w->t_start > f->now || nd->stalled)
			return;
		if (f->drop_every && ++f->drop_count >= f->drop_every) {
			f->drop_count = 0;
			f->st.drops++;
			finish(f, w_idx, -EIO, f->now);
			return;
		}
		w->injecting = true;
		w->state = MC_FAB_ACTIVE;
	}
	if (front(f, w_idx, t_end))
		return;
	for (j = w->head; j-- > w->tail;)
		move_into(f, w_idx, j, t_end);
}

/*
 * Every blocked worm waits for one channel, so the wait-for graph is a
 * function: follow it from each blocked worm, stamping the walk; meeting
 * this walk's stamp again is a cycle.  O(worms).
 */
static u32 find_cycle(struct mc_fabric *f)
{
	u32 base = f->stamp, i, w;

	for (i = 0; i < f->hi; i++) {
		if (f->worm[i].wait_chan == MC_FAB_NONE ||
		    f->worm[i].seen > base)
			continue;
		f->stamp++;
		for (w = i; w != MC_FAB_NONE; ) {
			struct mc_fab_worm *x = &f->worm[w];

			if (x->seen == f->stamp)
				return w;	/* on the cycle */
			if (x->seen > base || x->state == MC_FAB_FREE ||
			    x->wait_chan == MC_FAB_NONE)
				break;
			x->seen = f->stamp;
			w = f->chan[x->wait_chan].owner - 1;
			if (!f->chan[x->wait_chan].owner)
				break;
		}
	}
	return MC_FAB_NONE;
}

/* Report a deadlock's worms and end the lowest-numbered one. */
static void break_cycle(struct mc_fabric *f, u32 on)
{
	u32 w = on, victim = on;

	do {
		alarm(f, w, -EDEADLK,
		      "deadlock: waits on the next worm of a cycle");
		if (w < victim)
			victim = w;
		w = f->chan[f->worm[w].wait_chan].owner - 1;
	} while (w != on);
	f->st.deadlocks++;
	finish(f, victim, -EDEADLK, f->now);
}

u32 mc_fab_check_deadlock(struct mc_fabric *f)
{
	u32 found = 0, on;

	/* Stamps only grow; start over long before they could wrap. */
	if (f->stamp > 0x7fffffffu) {
		u32 i;

		for (i = 0; i < f->cfg.max_worms; i++)
			f->worm[i].seen = 0;
		f->stamp = 0;
	}
	while ((on = find_cycle(f)) != MC_FAB_NONE) {
		break_cycle(f, on);
		found++;
	}
	return found;
}

u64 mc_fab_next_event(const struct mc_fabric *f)
{
	u64 next = U64_MAX;
	u32 i;

	for (i = 0; i < f->hi; i++) {
		const struct mc_fab_worm *w = &f->worm[i];

		if (w->state == MC_FAB_FREE)
			continue;
		if (w->state != MC_FAB_STARTUP || w->t_start <= f->now)
			return f->now;
		if (w->t_start < next)
			next = w->t_start;
	}
	return next;
}

static void run_cycle(struct mc_fabric *f)
{
	u64 t_end = f->now + f->cfg.tau_n;
	u32 hi = f->hi, k, waiting = 0;

	for (k = 0; k < hi; k++) {
		u32 i = (u32)((k + f->cycle) % hi);

		if (f->worm[i].state == MC_FAB_FREE)
			continue;
		step_worm(f, i, t_end);
		if (f->worm[i].state != MC_FAB_FREE &&
		    f->worm[i].wait_chan != MC_FAB_NONE)
			waiting++;
	}
	if (waiting && f->cycle % DEADLOCK_EVERY == 0)
		mc_fab_check_deadlock(f);
	f->now = t_end;
	f->cycle++;
}

u64 mc_fab_run(struct mc_fabric *f, u64 until)
{
	u64 cycles = 0, next;

	while (f->now < until) {
		next = mc_fab_next_event(f);
		if (next == U64_MAX)
			break;
		if (next > f->now) {
			/* Idle: jump, but not past @until. */
			f->now = next < until ? next : until;
			continue;
		}
		run_cycle(f);
		cycles++;
	}
	return cycles;
}

int mc_fab_set_link(struct mc_fabric *f, u32 node, unsigned int dim,
		    bool failed)
{
	if (node >= f->t.nodes || dim >= f->t.n)
		return -EINVAL;
	f->chan[mc_fab_chan_of(f, node, dim, 0)].failed = failed;
	return 0;
}

int mc_fab_set_node(struct mc_fabric *f, u32 node, bool stalled, bool no_ir)
{
	if (node >= f->t.nodes)
		return -EINVAL;
	f->node[node].stalled = stalled;
	f->node[node].no_ir = no_ir;
	return 0;
}
