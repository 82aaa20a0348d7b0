// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The IR fabric at the level of worms (see fabric_worm.h for the model and
 * why it gives fabric.c's results exactly), and either model behind one
 * interface for planned multicasts.
 */
#include "fabric_worm.h"

#define RANK_TIER_SHIFT	40

enum { HEAP_NONE = 0, HEAP_EV, HEAP_START, HEAP_CUR };

/* ---------------- heaps of worms, keyed by worm.hkey ---------------- */

static struct mc_fw_heap *heap_of(struct mc_fw *f, u8 id)
{
	return id == HEAP_EV ? &f->ev : id == HEAP_START ? &f->start : &f->cur;
}

static void heap_set(struct mc_fw *f, struct mc_fw_heap *h, u32 pos, u32 w)
{
	h->a[pos] = w;
	f->worm[w].hpos = pos;
}

static void sift_up(struct mc_fw *f, struct mc_fw_heap *h, u32 pos)
{
	u32 w = h->a[pos];
	u64 key = f->worm[w].hkey;

	while (pos) {
		u32 up = (pos - 1) / 2;

		if (f->worm[h->a[up]].hkey <= key)
			break;
		heap_set(f, h, pos, h->a[up]);
		pos = up;
	}
	heap_set(f, h, pos, w);
}

static void sift_down(struct mc_fw *f, struct mc_fw_heap *h, u32 pos)
{
	u32 w = h->a[pos];
	u64 key = f->worm[w].hkey;

	for (;;) {
		u32 c = 2 * pos + 1;

		if (c >= h->n)
			break;
		if (c + 1 < h->n &&
		    f->worm[h->a[c + 1]].hkey < f->worm[h->a[c]].hkey)
			c++;
		if (key <= f->worm[h->a[c]].hkey)
			break;
		heap_set(f, h, pos, h->a[c]);
		pos = c;
	}
	heap_set(f, h, pos, w);
}

static void heap_del(struct mc_fw *f, u32 w)
{
	struct mc_fw_worm *x = &f->worm[w];
	struct mc_fw_heap *h;
	u32 pos = x->hpos, moved;

	if (x->heap == HEAP_NONE)
		return;
	h = heap_of(f, x->heap);
	x->heap = HEAP_NONE;
	if (--h->n == pos)
		return;
	moved = h->a[h->n];
	heap_set(f, h, pos, moved);
	sift_up(f, h, pos);
	sift_down(f, h, f->worm[moved].hpos);
}

/* Put @w in heap @id with @key (out of any heap it was in). */
static void heap_put(struct mc_fw *f, u8 id, u32 w, u64 key)
{
	struct mc_fw_heap *h = heap_of(f, id);

	heap_del(f, w);
	f->worm[w].hkey = key;
	f->worm[w].heap = id;
	heap_set(f, h, h->n++, w);
	sift_up(f, h, h->n - 1);
}

static u32 heap_pop(struct mc_fw *f, struct mc_fw_heap *h)
{
	u32 w = h->a[0];

	heap_del(f, w);
	return w;
}

static u64 heap_min(struct mc_fw *f, struct mc_fw_heap *h)
{
	return h->n ? f->worm[h->a[0]].hkey : U64_MAX;
}

/* ---------------- set-up and sending ---------------- */

int mc_fw_init(struct mc_fw *f, const struct mc_torus *t,
	       const struct mc_fab_cfg *cfg, struct mc_fw_chan *chan,
	       struct mc_fab_node *node, struct mc_fw_worm *worm, u32 *heap,
	       const struct mc_fw_ops *ops, void *ctx, const char **why)
{
	const char *bad = NULL;
	u32 i;

	if (t->links != MC_LINKS_UNI || !t->regular)
		bad = "the fabric is a regular unidirectional torus";
	else if (cfg->vc_sets != 2)
		bad = "the worm level needs the two channel sets of R_UTPR";
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
	*f = (struct mc_fw){ 0 };
	f->t = *t;
	f->cfg = *cfg;
	if (!f->cfg.ports)
		f->cfg.ports = t->n * cfg->vc_sets;
	f->ops = ops;
	f->ctx = ctx;
	f->chan = chan;
	f->node = node;
	f->worm = worm;
	f->ev.a = heap;
	f->start.a = heap + cfg->max_worms;
	f->cur.a = heap + 2 * cfg->max_worms;
	for (i = 0; i < t->nodes; i++) {
		node[i] = (struct mc_fab_node){ 0 };
		node[i].cons_free = f->cfg.ports;
		node[i].q_head = MC_FAB_NONE;
		node[i].q_tail = MC_FAB_NONE;
	}
	for (i = 0; i < mc_fab_channels(t, cfg->vc_sets); i++)
		chan[i] = (struct mc_fw_chan){ 0 };
	for (i = 0; i < cfg->max_worms; i++)
		worm[i] = (struct mc_fw_worm){ 0 };
	return 0;
}

static u32 chan_of(const struct mc_fw *f, u32 node, unsigned int dim,
		   unsigned int vc)
{
	return (node * f->t.n + dim) * f->cfg.vc_sets + vc;
}

/* The router a channel leads to. */
static u32 chan_to(const struct mc_fw *f, u32 chan)
{
	u32 c = chan / f->cfg.vc_sets;

	return mc_neighbour(&f->t, c / f->t.n, c % f->t.n, 1);
}

/* R_UTPR through the list, as fabric.c routes it; false if it did not fit. */
static bool build_path(const struct mc_fw *f, u32 src, const u32 *dest,
		       u32 ndest, struct mc_fw_hop *path, u32 npath)
{
	struct mc_hop hop;
	u32 i, cur = src, n = 0;
	u8 alpha = MC_VC_P;

	for (i = 0; i < ndest; i++) {
		while (mc_route_next(&f->t, MC_ROUTE_UTPR, cur, dest[i],
				     &alpha, &hop)) {
			if (n == npath)
				return false;
			path[n] = (struct mc_fw_hop){ 0 };
			path[n].chan = chan_of(f, cur, hop.dim, hop.vc);
			path[n].dest = MC_FAB_NONE;
			cur = hop.to;
			n++;
		}
		path[n - 1].dest = i;
	}
	return n == npath;
}

int mc_fw_send(struct mc_fw *f, u32 src, const u32 *dest, u32 ndest,
	       u32 flits, struct mc_fw_hop *path, u32 npath, u64 t_submit,
	       u64 cookie, const char **why)
{
	const char *dummy;
	struct mc_fab_node *nd;
	struct mc_fw_worm *w;
	u32 i;

	if (!why)
		why = &dummy;
	if (!mc_fab_path_len(&f->t, src, dest, ndest, why))
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
	*w = (struct mc_fw_worm){ 0 };
	w->state = MC_FAB_STARTUP;
	w->src = src;
	w->dest = dest;
	w->ndest = ndest;
	w->path = path;
	w->npath = npath;
	w->flits = flits;
	w->win = (flits - 1) / f->cfg.buffer_flits;
	w->t_tail = U64_MAX;
	w->wait_chan = MC_FAB_NONE;
	w->cookie = cookie;
	w->t_submit = t_submit;
	w->q_next = MC_FAB_NONE;
	if (nd->q_tail == MC_FAB_NONE) {
		nd->q_head = i;
		w->t_start = t_submit + f->cfg.tau_s;
		heap_put(f, HEAP_START, i, w->t_start);
	} else {
		f->worm[nd->q_tail].q_next = i;
		w->t_start = U64_MAX;
	}
	nd->q_tail = i;
	f->active++;
	if (i >= f->hi)
		f->hi = i + 1;
	f->st.worms++;
	return i;
}

/* @node's first worm left it (or ended): the next one starts up. */
static void queue_pop(struct mc_fw *f, u32 node, u64 t)
{
	struct mc_fab_node *nd = &f->node[node];
	struct mc_fw_worm *next;

	nd->q_head = f->worm[nd->q_head].q_next;
	if (nd->q_head == MC_FAB_NONE) {
		nd->q_tail = MC_FAB_NONE;
		return;
	}
	next = &f->worm[nd->q_head];
	next->t_start = (next->t_submit > t ? next->t_submit : t) +
			f->cfg.tau_s;
	heap_put(f, HEAP_START, nd->q_head, next->t_start);
}

/* ---------------- channels ---------------- */

/* fabric.c's position of worm @w in the cycle being run. */
static u32 order_key(const struct mc_fw *f, u32 w)
{
	u32 rot = (u32)(f->cur_cycle % f->cur_hi);

	return (w + f->cur_hi - rot) % f->cur_hi;
}

/*
 * @w's header may try again: in this cycle if fabric.c steps it after
 * the worm stepping now, else in the next one.
 */
static void wake(struct mc_fw *f, u32 w)
{
	struct mc_fw_worm *x = &f->worm[w];
	u32 key = w < f->cur_hi ? order_key(f, w) : 0;

	if (x->heap == HEAP_CUR)
		return;
	if (w < f->cur_hi && key > f->cur_key) {
		heap_put(f, HEAP_CUR, w, key);
		return;
	}
	if (x->heap != HEAP_EV || x->hkey > f->cur_cycle + 1)
		heap_put(f, HEAP_EV, w, f->cur_cycle + 1);
}

static void release(struct mc_fw *f, u32 chan)
{
	struct mc_fw_chan *c = &f->chan[chan];
	u32 w = c->waiters;

	c->owner = 0;
	c->waiters = 0;
	while (w) {
		struct mc_fw_worm *x = &f->worm[w - 1];
		u32 next = x->wait_next;

		x->linked = false;
		x->wait_next = 0;
		wake(f, w - 1);
		w = next;
	}
}

static void alarm(struct mc_fw *f, u32 w, int err, const char *what)
{
	if (f->ops->alarm)
		f->ops->alarm(f->ctx, f, w, err, what);
}

/* fabric.c's three-tier order check (Thm 5.1 as corrected). */
static void check_order(struct mc_fw *f, u32 w_idx, u32 chan)
{
	struct mc_fw_worm *w = &f->worm[w_idx];
	u32 c = chan / f->cfg.vc_sets, node = c / f->t.n;
	unsigned int dim = c % f->t.n, vc = chan % f->cfg.vc_sets;
	bool boundary = mc_is_boundary(&f->t, node, dim);
	u64 tier = vc == MC_VC_P ? 0 : boundary ? 1 : 2;
	u64 rank = tier << RANK_TIER_SHIFT |
		   (u64)mc_hlabel(&f->t, node) << 8 | dim;

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

/* ---------------- delivery and the end of a worm ---------------- */

static void deliver(struct mc_fw *f, u32 w_idx, struct mc_fw_hop *h, u64 t)
{
	struct mc_fw_worm *w = &f->worm[w_idx];
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

static void finish(struct mc_fw *f, u32 w_idx, u64 t)
{
	struct mc_fw_worm *w = &f->worm[w_idx];
	u32 j;

	for (j = w->tj ? w->tj - 1 : 0; j < w->head; j++) {
		struct mc_fw_hop *h = &w->path[j];

		if (f->chan[h->chan].owner == w_idx + 1)
			release(f, h->chan);
		if (h->port) {
			f->node[chan_to(f, h->chan)].cons_free++;
			h->port = false;
		}
	}
	if (w->consuming)
		f->node[w->dest[w->ndest - 1]].cons_free++;
	w->consuming = false;
	f->st.flit_hops += (u64)w->flits * w->npath;
	f->st.blocked_ns += w->blocked_ns;
	f->st.done++;
	heap_del(f, w_idx);
	w->state = MC_FAB_FREE;
	f->active--;
	f->running--;
	while (f->hi && f->worm[f->hi - 1].state == MC_FAB_FREE)
		f->hi--;
	f->ops->done(f->ctx, f, w_idx, 0, t);
}

/* ---------------- the header ---------------- */

/* A destination on the way takes a consumption channel, if it can. */
static void header_arrived(struct mc_fw *f, struct mc_fw_worm *w, u32 j)
{
	struct mc_fw_hop *h = &w->path[j];
	struct mc_fab_node *nd;

	if (h->dest == MC_FAB_NONE || j + 1 == w->npath)
		return;
	nd = &f->node[chan_to(f, h->chan)];
	if (!nd->cons_free) {
		h->missed = true;
		return;
	}
	nd->cons_free--;
	h->port = true;
}

static u64 tail_time(struct mc_fw *f, struct mc_fw_worm *w);
static void to_flit_mode(struct mc_fw *f, u32 x_idx, bool self);

static void header_try(struct mc_fw *f, u32 w_idx)
{
	struct mc_fw_worm *w = &f->worm[w_idx];
	struct mc_fw_hop *h = &w->path[w->head];
	struct mc_fw_chan *c = &f->chan[h->chan];
	u64 cyc = f->cur_cycle;

	if (c->owner) {
		if (!w->waiting) {
			w->waiting = true;
			w->wait_from = cyc;
			w->wait_chan = h->chan;
		}
		if (!w->linked) {
			w->linked = true;
			w->wait_next = c->waiters;
			c->waiters = w_idx + 1;
		}
		return;
	}
	if (w->waiting) {
		u64 ns = (cyc - w->wait_from) * f->cfg.tau_n;

		w->blocked_ns += ns;
		c->blocked_ns += ns;
		w->waiting = false;
		w->wait_chan = MC_FAB_NONE;
	}
	c->owner = w_idx + 1;
	h->hc = cyc;
	w->head++;
	check_order(f, w_idx, h->chan);
	if (f->ops->hop)
		f->ops->hop(f->ctx, f, w_idx, h->chan, f->now);
	/*
	 * Both channels of one link held: their flits take turns, and
	 * from now on both worms move as fabric.c moves them.
	 */
	if (f->chan[h->chan ^ 1].owner) {
		u32 x = f->chan[h->chan ^ 1].owner - 1;

		if (x != w_idx)
			to_flit_mode(f, x, false);
		to_flit_mode(f, w_idx, true);
	}
	if (w->fm)
		return;		/* its header arrives when it moves */
	header_arrived(f, w, w->head - 1);
	if (w->t_tail == U64_MAX)
		w->t_tail = tail_time(f, w);
}

/* ---------------- the tail ---------------- */

static s64 hval(const struct mc_fw *f, const struct mc_fw_worm *w, u32 i)
{
	return (s64)w->path[i].hc - (s64)i * f->cfg.buffer_flits;
}

/*
 * The cycle the tail enters hop tj (fabric_worm.h), or U64_MAX while the
 * header has not taken the hops that decide it.
 */
static u64 tail_time(struct mc_fw *f, struct mc_fw_worm *w)
{
	u32 j = w->tj, p = w->npath, r, i;

	if (j == p)
		return w->head == p ? w->path[p - 1].hc + w->flits : U64_MAX;
	r = j + w->win < p - 1 ? j + w->win : p - 1;
	if (w->head <= r)
		return U64_MAX;
	while (w->pushed <= r) {
		s64 v = hval(f, w, w->pushed);

		while (w->dq_hi > w->dq_lo &&
		       hval(f, w, w->path[w->dq_hi - 1].dq) <= v)
			w->dq_hi--;
		w->path[w->dq_hi++].dq = w->pushed++;
	}
	while (w->path[w->dq_lo].dq < j)
		w->dq_lo++;
	i = w->path[w->dq_lo].dq;
	return w->path[i].hc + (w->flits - 1) -
	       (u64)(i - j) * f->cfg.buffer_flits;
}

/* The tail entered hop tj (< npath) in this cycle. */
static void tail_step(struct mc_fw *f, u32 w_idx)
{
	struct mc_fw_worm *w = &f->worm[w_idx];
	u64 t_end = f->now + f->cfg.tau_n;
	u32 j = w->tj;

	if (j) {
		release(f, w->path[j - 1].chan);
	} else if (w->injecting) {
		w->injecting = false;
		queue_pop(f, w->src, t_end);
	}
	w->tj++;
	w->t_tail = tail_time(f, w);
	if (w->path[j].dest != MC_FAB_NONE && j + 1 < w->npath)
		deliver(f, w_idx, &w->path[j], t_end + f->cfg.tau_n);
}


/* The last destination's first flit: a consumption channel, or missed. */
static void eat_first(struct mc_fw *f, struct mc_fw_worm *w)
{
	struct mc_fw_hop *h = &w->path[w->npath - 1];
	struct mc_fab_node *nd = &f->node[chan_to(f, h->chan)];

	w->eating = true;
	if (nd->cons_free) {
		nd->cons_free--;
		w->consuming = true;
	} else {
		h->missed = true;
	}
}

/* ---------------- flit mode ---------------- */

/*
 * The cycle flit @fl enters hop @j (hop npath: is consumed) by the closed
 * form of fabric_worm.h, U64_MAX if the header has not decided it yet.
 */
static u64 flit_time(const struct mc_fw *f, const struct mc_fw_worm *w,
		     u32 fl, u32 j)
{
	u32 p = w->npath, r, i, best;

	if (j == p)
		return w->head == p ? w->path[p - 1].hc + 1 + fl : U64_MAX;
	r = j + fl / f->cfg.buffer_flits;
	if (r > p - 1)
		r = p - 1;
	if (r >= w->head)
		return U64_MAX;
	for (best = j, i = j + 1; i <= r; i++)
		if (hval(f, w, i) > hval(f, w, best))
			best = i;
	return w->path[best].hc + fl - (u64)(best - j) * f->cfg.buffer_flits;
}

/* Flits that entered hop @j before cycle @upto. */
static u32 entered(const struct mc_fw *f, const struct mc_fw_worm *w, u32 j,
		   u64 upto)
{
	u32 lo = 0, hi = w->flits;

	while (lo < hi) {
		u32 mid = lo + (hi - lo) / 2;

		if (flit_time(f, w, mid, j) < upto)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/*
 * Worm @x_idx leaves the closed form: lay its flits out in its buffers as
 * fabric.c has them now, and step it every cycle from here on.  @self:
 * it is the worm being stepped (its moves of this cycle are still to
 * come); else fabric.c stepped it already this cycle if it comes before
 * the worm being stepped, and its flits then used their links.
 */
static void to_flit_mode(struct mc_fw *f, u32 x_idx, bool self)
{
	struct mc_fw_worm *x = &f->worm[x_idx];
	u64 c = f->cur_cycle;
	u32 key = self ? f->cur_key : order_key(f, x_idx);
	bool stepped = !self && key < f->cur_key;
	u64 upto = stepped ? c + 1 : c;
	u32 j, lo = x->tj ? x->tj - 1 : 0, n, next;

	if (x->fm)
		return;
	x->fm = true;
	f->flit_worms++;
	n = x->tj ? x->flits : entered(f, x, 0, upto);
	x->to_inject = x->flits - n;
	for (j = lo; j < x->head; j++) {
		struct mc_fw_hop *h = &x->path[j];

		if (j + 1 < x->head || x->head == x->npath)
			next = entered(f, x, j + 1, upto);
		else
			next = 0;
		h->flits = (u16)(n - next);
		h->reached = h->hc < upto;
		if (stepped && n != entered(f, x, j, c))
			f->chan[h->chan & ~1u].used_cycle = c + 1;
		n = next;
	}
	if (self)
		return;
	if (stepped)
		heap_put(f, HEAP_EV, x_idx, c + 1);
	else
		heap_put(f, HEAP_CUR, x_idx, key);
}

/* fabric.c's move_into: one flit into hop @j from the one before. */
static void fm_move_into(struct mc_fw *f, u32 w_idx, u32 j)
{
	struct mc_fw_worm *w = &f->worm[w_idx];
	struct mc_fw_hop *h = &w->path[j];
	struct mc_fw_hop *prev = j ? &w->path[j - 1] : NULL;
	struct mc_fw_chan *l = &f->chan[h->chan & ~1u];
	u64 t_end = f->now + f->cfg.tau_n;
	u32 tail;

	if ((prev ? !prev->flits : !w->to_inject) ||
	    h->flits >= f->cfg.buffer_flits ||
	    l->used_cycle == f->cur_cycle + 1)
		return;
	l->used_cycle = f->cur_cycle + 1;
	h->flits++;
	if (prev)
		prev->flits--;
	else
		w->to_inject--;
	if (!h->reached) {
		h->reached = true;
		header_arrived(f, w, j);
	}
	tail = w->tj ? w->tj - 1 : 0;
	if (prev ? (prev->flits || w->to_inject || tail != j - 1) :
		   w->to_inject)
		return;
	if (prev) {
		release(f, prev->chan);
		w->tj = j + 1;
	} else if (w->injecting) {
		w->injecting = false;
		queue_pop(f, w->src, t_end);
		w->tj = 1;
	}
	if (h->dest != MC_FAB_NONE && j + 1 < w->npath)
		deliver(f, w_idx, h, t_end + f->cfg.tau_n);
}

static void fm_moves(struct mc_fw *f, u32 w_idx)
{
	struct mc_fw_worm *w = &f->worm[w_idx];
	u32 j, tail = w->tj ? w->tj - 1 : 0;

	for (j = w->head; j-- > tail;)
		fm_move_into(f, w_idx, j);
	heap_put(f, HEAP_EV, w_idx, f->cur_cycle + 1);
}

/* fabric.c's front: the header, or the last destination eats. */
static bool fm_front(struct mc_fw *f, u32 w_idx)
{
	struct mc_fw_worm *w = &f->worm[w_idx];
	struct mc_fw_hop *h = w->head ? &w->path[w->head - 1] : NULL;
	u64 t_end = f->now + f->cfg.tau_n;
	u32 tail = w->tj ? w->tj - 1 : 0;

	if (w->head < w->npath) {
		if (!h || h->flits)
			header_try(f, w_idx);
		return false;
	}
	if (!h->flits)
		return false;
	if (!w->eating)
		eat_first(f, w);
	h->flits--;
	if (w->to_inject || tail != w->head - 1 || h->flits)
		return false;
	deliver(f, w_idx, h, t_end);
	finish(f, w_idx, t_end + f->cfg.tau_r);
	return true;
}

/* ---------------- a cycle ---------------- */

/*
 * The last destination: its first flit takes a consumption channel (or
 * the copy is missed), its last ends the worm.  True when it ended.
 */
static bool eat(struct mc_fw *f, u32 w_idx)
{
	struct mc_fw_worm *w = &f->worm[w_idx];
	struct mc_fw_hop *h = &w->path[w->npath - 1];
	u64 t_end = f->now + f->cfg.tau_n;

	if (!w->eating && h->hc < f->cur_cycle)
		eat_first(f, w);
	if (w->tj != w->npath || w->t_tail != f->cur_cycle)
		return false;
	deliver(f, w_idx, h, t_end);
	finish(f, w_idx, t_end + f->cfg.tau_r);
	return true;
}

static void schedule(struct mc_fw *f, u32 w_idx)
{
	struct mc_fw_worm *w = &f->worm[w_idx];
	u64 next = w->t_tail;

	if (w->state != MC_FAB_ACTIVE || w->heap != HEAP_NONE)
		return;
	if (w->head < w->npath) {
		if (!w->waiting && w->path[w->head - 1].hc + 1 < next)
			next = w->path[w->head - 1].hc + 1;
	} else if (!w->eating && w->path[w->npath - 1].hc + 1 < next) {
		next = w->path[w->npath - 1].hc + 1;
	}
	if (next != U64_MAX)
		heap_put(f, HEAP_EV, w_idx, next);
}

/* What fabric.c's step_worm does to @w_idx in this cycle. */
static void step(struct mc_fw *f, u32 w_idx)
{
	struct mc_fw_worm *w = &f->worm[w_idx];

	if (w->state == MC_FAB_STARTUP) {
		w->state = MC_FAB_ACTIVE;
		w->injecting = true;
		f->running++;
	}
	if (w->fm) {
		if (!fm_front(f, w_idx))
			fm_moves(f, w_idx);
		return;
	}
	if (w->head < w->npath) {
		if (!w->head || w->path[w->head - 1].hc < f->cur_cycle)
			header_try(f, w_idx);
		if (w->fm) {
			fm_moves(f, w_idx);	/* it just left the closed form */
			return;
		}
	} else if (eat(f, w_idx)) {
		return;
	}
	if (w->t_tail == f->cur_cycle)
		tail_step(f, w_idx);
	schedule(f, w_idx);
}

static void run_cycle(struct mc_fw *f)
{
	u32 w;

	f->cur_cycle = f->cycle;
	f->cur_hi = f->hi;
	f->cur_key = 0;
	while (f->ev.n && heap_min(f, &f->ev) == f->cycle) {
		w = heap_pop(f, &f->ev);
		heap_put(f, HEAP_CUR, w, order_key(f, w));
	}
	while (f->start.n && heap_min(f, &f->start) <= f->now) {
		w = heap_pop(f, &f->start);
		heap_put(f, HEAP_CUR, w, order_key(f, w));
	}
	while (f->cur.n) {
		f->cur_key = (u32)heap_min(f, &f->cur);
		step(f, heap_pop(f, &f->cur));
	}
}

/* The next cycle with an event, counting from f->cycle at f->now. */
static u64 next_cycle(struct mc_fw *f)
{
	u64 ce = heap_min(f, &f->ev), ts = heap_min(f, &f->start), cs;

	if (ts == U64_MAX)
		cs = U64_MAX;
	else if (ts <= f->now)
		cs = f->cycle;
	else
		cs = f->cycle + (ts - f->now - 1) / f->cfg.tau_n + 1;
	return ce < cs ? ce : cs;
}

u64 mc_fw_run(struct mc_fw *f, u64 until)
{
	u64 cycles = 0;

	while (f->now < until && !f->err) {
		u64 next, room;

		if (!f->running) {
			u64 ts = heap_min(f, &f->start);

			if (ts == U64_MAX)
				break;
			if (ts > f->now) {
				/* Idle: jump, but not past @until. */
				f->now = ts < until ? ts : until;
				continue;
			}
		}
		next = next_cycle(f);
		if (next == U64_MAX) {
			/* Every worm waits: a deadlock, none with 2 sets. */
			f->err = -EDEADLK;
			break;
		}
		if (next > f->cycle) {
			/* Cycles where nothing changes but flits moving. */
			room = (until - f->now - 1) / f->cfg.tau_n + 1;
			if (next - f->cycle >= room) {
				f->now += room * f->cfg.tau_n;
				f->cycle += room;
				cycles += room;
				break;
			}
			f->now += (next - f->cycle) * f->cfg.tau_n;
			cycles += next - f->cycle;
			f->cycle = next;
		}
		run_cycle(f);
		f->now += f->cfg.tau_n;
		f->cycle++;
		cycles++;
	}
	return cycles;
}

/* ---------------- either model, planned multicasts ---------------- */

static struct mc_fsim_run *run_of(struct mc_fsim *s, u64 cookie)
{
	u32 i, tag = (u32)(cookie >> 32);

	for (i = 0; i < s->nruns; i++)
		if (s->run[i].mm->tag == tag)
			return &s->run[i];
	return NULL;
}

/* fabric_mcast.c's send_from, on the worm model. */
static void fw_send_from(struct mc_fw *f, struct mc_fsim_run *r, u32 pos,
			 u64 t)
{
	struct mc_fab_mcast *mm = r->mm;
	const struct mc_schedule *s = mm->s;
	u32 m;

	for (m = mm->first_msg[pos]; m != MC_FAB_NONE; m = mm->next_msg[m]) {
		const struct mc_msg *msg = &s->msg[m];

		if (mc_fw_send(f, s->order[pos], mm->list + msg->first,
			       msg->count, mc_fab_mcast_len(mm, m),
			       r->whops + mm->hop_off[m],
			       mm->hop_off[m + 1] - mm->hop_off[m], t,
			       (u64)mm->tag << 32 | m, NULL) < 0)
			mm->send_errors++;
	}
}

/* fabric_mcast.c's mc_fab_mcast_deliver, on the worm model. */
static void fw_mcast_deliver(struct mc_fw *f, struct mc_fsim_run *r, u64 cookie,
			     u32 i, enum mc_fab_copy copy, u64 t)
{
	struct mc_fab_mcast *mm = r->mm;
	u32 m = (u32)cookie, pos;

	if (m >= mm->s->nmsg || i >= mm->s->msg[m].count)
		return;
	if (copy != MC_FAB_COPY_OK) {
		mm->missed++;
		return;
	}
	pos = mm->s->dest[mm->s->msg[m].first + i].pos;
	mm->copies[pos]++;
	mm->via[pos] = m;
	mm->t_recv[pos] = t;
	mm->received++;
	if (t > mm->t_last)
		mm->t_last = t;
	if (mm->copies[pos] == 1)
		fw_send_from(f, r, pos, t);
}

static void fsim_fw_deliver(void *ctx, struct mc_fw *f, u32 w, u32 i,
			    enum mc_fab_copy copy, u64 t)
{
	struct mc_fsim *s = ctx;
	u64 cookie = f->worm[w].cookie;
	struct mc_fsim_run *r = run_of(s, cookie);

	if (r)
		fw_mcast_deliver(f, r, cookie, i, copy, t);
	if (s->ops && s->ops->deliver)
		s->ops->deliver(s->ctx, s, w, cookie, i, copy, t);
}

static void fsim_fw_done(void *ctx, struct mc_fw *f, u32 w, int err, u64 t)
{
	struct mc_fsim *s = ctx;
	u64 cookie = f->worm[w].cookie;
	struct mc_fsim_run *r = run_of(s, cookie);

	if (r && (u32)cookie < r->mm->s->nmsg && err)
		r->mm->failed++;
	if (s->ops && s->ops->done)
		s->ops->done(s->ctx, s, w, cookie, err, t);
}

static void fsim_fab_deliver(void *ctx, struct mc_fabric *f, u32 w, u32 i,
			     enum mc_fab_copy copy, u64 t)
{
	struct mc_fsim *s = ctx;
	u64 cookie = f->worm[w].cookie;
	struct mc_fsim_run *r = run_of(s, cookie);

	if (r)
		mc_fab_mcast_deliver(f, r->mm, w, i, copy, t);
	if (s->ops && s->ops->deliver)
		s->ops->deliver(s->ctx, s, w, cookie, i, copy, t);
}

static void fsim_fab_done(void *ctx, struct mc_fabric *f, u32 w, int err,
			  u64 t)
{
	struct mc_fsim *s = ctx;
	u64 cookie = f->worm[w].cookie;
	struct mc_fsim_run *r = run_of(s, cookie);

	if (r)
		mc_fab_mcast_done(f, r->mm, w, err);
	if (s->ops && s->ops->done)
		s->ops->done(s->ctx, s, w, cookie, err, t);
}

static const struct mc_fw_ops fsim_fw_ops = {
	.deliver = fsim_fw_deliver,
	.done = fsim_fw_done,
};

static const struct mc_fab_ops fsim_fab_ops = {
	.deliver = fsim_fab_deliver,
	.done = fsim_fab_done,
};

static u64 align8(u64 n)
{
	return (n + 7) & ~(u64)7;
}

u64 mc_fsim_mem(enum mc_fsim_model model, const struct mc_torus *t,
		const struct mc_fab_cfg *cfg)
{
	u64 chans = mc_fab_channels(t, cfg->vc_sets);
	u64 nodes = align8((u64)t->nodes * sizeof(struct mc_fab_node));

	if (model == MC_FSIM_FLIT)
		return align8(chans * sizeof(struct mc_fab_chan)) + nodes +
		       align8((u64)cfg->max_worms * sizeof(struct mc_fab_worm));
	return align8(chans * sizeof(struct mc_fw_chan)) + nodes +
	       align8((u64)cfg->max_worms * sizeof(struct mc_fw_worm)) +
	       align8((u64)mc_fw_heap_words(cfg) * sizeof(u32));
}

int mc_fsim_init(struct mc_fsim *s, enum mc_fsim_model model,
		 const struct mc_torus *t, const struct mc_fab_cfg *cfg,
		 void *mem, const struct mc_fsim_ops *ops, void *ctx,
		 const char **why)
{
	char *p = mem;
	u64 chans = mc_fab_channels(t, cfg->vc_sets), csz, nsz, wsz;

	s->model = model;
	s->ops = ops;
	s->ctx = ctx;
	s->nruns = 0;
	nsz = align8((u64)t->nodes * sizeof(struct mc_fab_node));
	if (model == MC_FSIM_FLIT) {
		csz = align8(chans * sizeof(struct mc_fab_chan));
		wsz = align8((u64)cfg->max_worms * sizeof(struct mc_fab_worm));
		return mc_fab_init(&s->flit, t, cfg, (void *)p,
				   (void *)(p + csz), (void *)(p + csz + nsz),
				   &fsim_fab_ops, s, why);
	}
	csz = align8(chans * sizeof(struct mc_fw_chan));
	wsz = align8((u64)cfg->max_worms * sizeof(struct mc_fw_worm));
	return mc_fw_init(&s->worm, t, cfg, (void *)p, (void *)(p + csz),
			  (void *)(p + csz + nsz),
			  (void *)(p + csz + nsz + wsz), &fsim_fw_ops, s, why);
}

int mc_fsim_mcast(struct mc_fsim *s, struct mc_fab_mcast *mm,
		  struct mc_fw_hop *whops, u64 t0)
{
	struct mc_fsim_run *r;

	if (s->nruns == MC_FSIM_MAX_RUNS)
		return -ENOSPC;
	r = &s->run[s->nruns++];
	r->mm = mm;
	r->whops = whops;
	if (s->model == MC_FSIM_FLIT)
		mc_fab_mcast_start(&s->flit, mm, t0);
	else
		fw_send_from(&s->worm, r, 0, t0);
	return 0;
}

int mc_fsim_retire(struct mc_fsim *s, const struct mc_fab_mcast *mm)
{
	u32 i;

	for (i = 0; i < s->nruns; i++)
		if (s->run[i].mm == mm)
			break;
	if (i == s->nruns)
		return -ENOENT;
	/* run_of() finds runs by tag: their order in the table is free. */
	s->run[i] = s->run[--s->nruns];
	return 0;
}

int mc_fsim_send(struct mc_fsim *s, u32 src, const u32 *dest, u32 ndest,
		 u32 flits, struct mc_fab_hop *fpath, struct mc_fw_hop *wpath,
		 u32 npath, u64 t, u64 cookie, const char **why)
{
	if (s->model == MC_FSIM_FLIT)
		return mc_fab_send(&s->flit, src, dest, ndest, flits, fpath,
				   npath, t, cookie, why);
	return mc_fw_send(&s->worm, src, dest, ndest, flits, wpath, npath, t,
			  cookie, why);
}

u64 mc_fsim_run(struct mc_fsim *s, u64 until)
{
	if (s->model == MC_FSIM_FLIT)
		return mc_fab_run(&s->flit, until);
	return mc_fw_run(&s->worm, until);
}

const struct mc_fab_stats *mc_fsim_stats(const struct mc_fsim *s)
{
	return s->model == MC_FSIM_FLIT ? &s->flit.st : &s->worm.st;
}

u64 mc_fsim_now(const struct mc_fsim *s)
{
	return s->model == MC_FSIM_FLIT ? s->flit.now : s->worm.now;
}

u64 mc_fsim_cycles(const struct mc_fsim *s)
{
	return s->model == MC_FSIM_FLIT ? s->flit.cycle : s->worm.cycle;
}

u32 mc_fsim_active(const struct mc_fsim *s)
{
	return s->model == MC_FSIM_FLIT ? s->flit.active : s->worm.active;
}

int mc_fsim_err(const struct mc_fsim *s)
{
	return s->model == MC_FSIM_FLIT ? 0 : s->worm.err;
}
