/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * mcastd's cluster view (daemon/view.c, daemon/proto.c) on a simulated
 * network: N views (16 and 64 nodes of a 4x4 / 8x8 U-torus) exchange
 * their datagrams through a priority queue driven by a virtual clock,
 * with random delay, loss, duplication, late (reordered) datagrams,
 * partitions, restarts and crashes, and random joins and leaves.  When
 * the disturbances stop, every live view must be the same and equal to
 * the ground truth.  Then crash detection time, join convergence time,
 * steady-state traffic, refutation of a false suspicion, and malformed
 * datagrams.
 */
#include <errno.h>
#include <string.h>

#include "tap.h"
#include "chain.h"
#include "topology.h"
#include "proto.h"
#include "view.h"

#define MAXN		64
#define NGRP		16	/* groups 1..NGRP */

/* Timers of every scenario (ms). */
#define HB_MS		100
#define SUSPECT_MS	1000
#define DEAD_MS		1000
#define SYNC_MS		500
/* Network: delay 1..DELAY_MAX ms, LATE_PM per mille up to LATE_MAX. */
#define DELAY_MAX	10
#define LATE_PM		10
#define LATE_MAX	300
#define DUP_PM		20

/*
 * A crash is DEAD everywhere within CRASH_BOUND_MS:
 *   LATE_MAX     its last datagrams still arrive (and are heard) until then;
 *   SUSPECT_MS   each of its monitors suspects it after that much silence;
 *   DEAD_MS      then every monitor holding the suspicion declares it dead
 *                (no later: nothing more is heard) and pushes DEAD to all;
 *   4 SYNC_MS    a node that lost all those pushes gets it by anti-entropy:
 *                each sync period it sends one digest and receives about
 *                one, each repairing it unless one of 2-3 datagrams is lost
 *                (at 20% loss ~0.8 per period; 4 periods after k pushes
 *                fail leaves ~1e-6 per node);
 *   HB_MS        and a heartbeat period of slack for timer phases.
 */
#define CRASH_BOUND_MS	(LATE_MAX + SUSPECT_MS + DEAD_MS + 4 * SYNC_MS + HB_MS)

struct sim;

struct node {
	struct sim *s;
	uint32_t id;
	struct mcd_view *v;	/* NULL: down */
	bool crashed;		/* down for ever */
	uint64_t inc;
	uint64_t up_at;		/* restart pending: up again then */
	uint64_t next;		/* mcd_view_next(v) */
	uint32_t mask;		/* ground truth: bit g - 1 for group g */
	uint32_t rep[NGRP + 1][MAXN];	/* last reported members */
	uint32_t nrep[NGRP + 1];
	struct mcd_key last[MAXN];	/* monotonicity of what it holds */
	uint64_t sent;
	size_t last_len;	/* of the last datagram it sent */
};

struct dgram {
	uint64_t t, seq;
	uint32_t from, to, len;
	uint8_t *data;
};

struct sim {
	struct rng rng;
	uint32_t n;
	uint64_t now, next_mono;
	struct node node[MAXN];
	uint32_t ids[MAXN];
	struct mc_torus torus;
	uint32_t loss_pm;
	bool partitioned, stop;
	struct dgram *q;
	size_t nq, cap;
	uint64_t seq;
	/* failures counted along the way */
	uint64_t back, false_deaths, input_errs, stuck, odd_groups;
	bool count_false, fuzzing;
	/* a view reported group watch_group without node watch (+1; 0: off) */
	uint32_t watch, watch_group, blips;
	struct mcd_view_stats total;	/* of every life that ended */
	uint32_t downs;
};

/* ---------------------------------------------------------- the network */

static bool dg_less(const struct dgram *a, const struct dgram *b)
{
	return a->t < b->t || (a->t == b->t && a->seq < b->seq);
}

static void q_push(struct sim *s, struct dgram d)
{
	size_t i;

	if (s->nq == s->cap) {
		s->cap = s->cap ? 2 * s->cap : 1024;
		s->q = realloc(s->q, s->cap * sizeof(*s->q));
		if (!s->q)
			exit(2);
	}
	i = s->nq++;
	while (i && dg_less(&d, &s->q[(i - 1) / 2])) {
		s->q[i] = s->q[(i - 1) / 2];
		i = (i - 1) / 2;
	}
	s->q[i] = d;
}

static struct dgram q_pop(struct sim *s)
{
	struct dgram top = s->q[0], last = s->q[--s->nq];
	size_t i = 0;

	for (;;) {
		size_t c = 2 * i + 1;

		if (c >= s->nq)
			break;
		if (c + 1 < s->nq && dg_less(&s->q[c + 1], &s->q[c]))
			c++;
		if (!dg_less(&s->q[c], &last))
			break;
		s->q[i] = s->q[c];
		i = c;
	}
	if (s->nq)
		s->q[i] = last;
	return top;
}

static bool chance(struct sim *s, uint32_t pm)
{
	return rng_below(&s->rng, 1000) < pm;
}

static bool cut(const struct sim *s, uint32_t a, uint32_t b)
{
	return s->partitioned && (a < s->n / 2) != (b < s->n / 2);
}

static void net_send(void *ctx, uint32_t to, const void *buf, size_t len)
{
	struct node *nd = ctx;
	struct sim *s = nd->s;
	int copies = 1 + chance(s, DUP_PM), i;

	nd->sent++;
	nd->last_len = len;
	if (to >= s->n || cut(s, nd->id, to))
		return;
	for (i = 0; i < copies; i++) {
		struct dgram d = {
			.from = nd->id, .to = to, .len = (uint32_t)len,
			.seq = s->seq++,
		};

		if (chance(s, s->loss_pm))
			continue;
		d.t = s->now + 1 + rng_below(&s->rng, DELAY_MAX);
		if (chance(s, LATE_PM))
			d.t = s->now + 1 + rng_below(&s->rng, LATE_MAX);
		d.data = xmalloc(len);
		memcpy(d.data, buf, len);
		q_push(s, d);
	}
}

/* ---------------------------------------------------------- callbacks */

static bool up(const struct node *nd)
{
	return nd->v && !nd->crashed;
}

static void check_key(struct node *nd, uint32_t j)
{
	struct mcd_node_info in;
	struct mcd_key k, *l = &nd->last[j];

	if (!nd->v || mcd_view_node(nd->v, j, &in))
		return;
	k.incarnation = in.incarnation;
	k.version = in.version;
	k.state = (uint8_t)in.state;
	if (k.incarnation < l->incarnation ||
	    (k.incarnation == l->incarnation && k.version < l->version) ||
	    (k.incarnation == l->incarnation && k.version == l->version &&
	     k.state < l->state)) {
		if (!nd->s->back++)
			diag("node %u: record of %u went back", nd->id, j);
	}
	*l = k;
}

static bool has_node(const uint32_t *nodes, uint32_t n, uint32_t id)
{
	uint32_t i;

	for (i = 0; i < n; i++)
		if (nodes[i] == id)
			return true;
	return false;
}

static void cb_members(void *ctx, uint32_t group, const uint32_t *nodes,
		       uint32_t n)
{
	struct node *nd = ctx;

	/* Mutated datagrams may bring any group for a while. */
	if (group < 1 || group > NGRP || n > MAXN) {
		nd->s->odd_groups += !nd->s->fuzzing;
		return;
	}
	memcpy(nd->rep[group], nodes, n * sizeof(*nodes));
	nd->nrep[group] = n;
	if (nd->s->watch && group == nd->s->watch_group &&
	    nd->id != nd->s->watch - 1 && !has_node(nodes, n, nd->s->watch - 1))
		nd->s->blips++;
}

static void cb_state(void *ctx, uint32_t node, enum mcd_state old,
		     enum mcd_state now)
{
	struct node *nd = ctx;
	struct sim *s = nd->s;
	struct mcd_node_info in, own;

	(void)old;
	if (node >= s->n)
		return;
	check_key(nd, node);
	/* A live node's current life declared dead. */
	if (now == MCD_DEAD && s->count_false && up(&s->node[node]) &&
	    nd->v && !mcd_view_node(nd->v, node, &in) &&
	    !mcd_view_node(s->node[node].v, node, &own) &&
	    in.incarnation == own.incarnation) {
		if (!s->false_deaths++)
			diag("node %u declared live node %u dead at %llu",
			     nd->id, node, (unsigned long long)s->now);
	}
}

static const struct mcd_view_ops ops = {
	.send = net_send,
	.members = cb_members,
	.node_state = cb_state,
};

/* ---------------------------------------------------------- nodes */

static uint32_t mask_groups(uint32_t mask, uint32_t *g)
{
	uint32_t n = 0, i;

	for (i = 0; i < NGRP; i++)
		if (mask & 1u << i)
			g[n++] = i + 1;
	return n;
}

static void refresh(struct node *nd)
{
	nd->next = nd->v ? mcd_view_next(nd->v) : UINT64_MAX;
}

static void set_local(struct node *nd)
{
	uint32_t g[NGRP], n = mask_groups(nd->mask, g);

	if (mcd_view_set_local(nd->v, g, n, nd->s->now))
		nd->s->input_errs++;
	refresh(nd);
}

/* A new life, with the groups its node's files had joined (as mcastd). */
static void node_up(struct sim *s, struct node *nd)
{
	uint32_t g[NGRP];
	struct mcd_view_cfg c = {
		.self = nd->id, .nodes = s->ids, .nnodes = s->n,
		.heartbeat_ms = HB_MS, .suspect_ms = SUSPECT_MS,
		.dead_ms = DEAD_MS, .sync_ms = SYNC_MS, .groups = g,
		.ngroups = mask_groups(nd->mask, g),
	};

	/* A new life: an incarnation above the last (the daemon's clock). */
	nd->inc = nd->inc + 1 > s->now ? nd->inc + 1 : s->now;
	c.incarnation = nd->inc;
	memset(nd->last, 0, sizeof(nd->last));
	memset(nd->nrep, 0, sizeof(nd->nrep));
	nd->up_at = 0;
	nd->v = mcd_view_new(&c, &ops, nd, s->now);
	if (!nd->v) {
		printf("Bail out! mcd_view_new\n");
		exit(2);
	}
	refresh(nd);
}

static void add_stats(struct mcd_view_stats *a, const struct mcd_view *v)
{
	struct mcd_view_stats st;

	mcd_view_stats(v, &st);
	a->suspicions += st.suspicions;
	a->refutations += st.refutations;
	a->deaths += st.deaths;
	a->tx_dgrams += st.tx_dgrams;
	a->rx_bad += st.rx_bad;
}

static void node_down(struct node *nd)
{
	if (nd->v) {
		add_stats(&nd->s->total, nd->v);
		nd->s->downs++;
	}
	mcd_view_free(nd->v);
	nd->v = NULL;
	nd->next = UINT64_MAX;
}

static void sim_init(struct sim *s, uint32_t n, uint32_t loss_pm,
		     uint64_t seed)
{
	u16 k[2];
	uint32_t i;

	memset(s, 0, sizeof(*s));
	s->rng.s = seed;
	s->n = n;
	s->loss_pm = loss_pm;
	s->now = 1;
	k[0] = k[1] = n == 16 ? 4 : 8;
	if (mc_torus_init(&s->torus, 2, k, MC_LINKS_UNI, NULL)) {
		printf("Bail out! mc_torus_init\n");
		exit(2);
	}
	for (i = 0; i < n; i++) {
		s->ids[i] = i;
		s->node[i].s = s;
		s->node[i].id = i;
		s->node[i].next = UINT64_MAX;
	}
}

static void sim_free(struct sim *s)
{
	uint32_t i;

	for (i = 0; i < s->n; i++)
		node_down(&s->node[i]);
	while (s->nq)
		free(q_pop(s).data);
	free(s->q);
}

/* Every record every live node holds, against what it held before. */
static void check_mono(struct sim *s)
{
	uint32_t i, j;

	for (i = 0; i < s->n; i++)
		for (j = 0; up(&s->node[i]) && j < s->n; j++)
			check_key(&s->node[i], j);
}

static void deliver(struct sim *s, struct dgram *d)
{
	struct node *nd = &s->node[d->to];
	int rc;

	if (up(nd) && !cut(s, d->from, d->to)) {
		rc = mcd_view_input(nd->v, d->from, d->data, d->len, s->now);
		if (rc && !s->input_errs++)
			diag("input %u -> %u: %d", d->from, d->to, rc);
		refresh(nd);
	}
	free(d->data);
}

/* Runs the cluster until @t_end (or until s->stop is set). */
static void run_to(struct sim *s, uint64_t t_end)
{
	uint32_t i;

	s->stop = false;
	while (!s->stop) {
		uint64_t t = s->nq ? s->q[0].t : UINT64_MAX;

		for (i = 0; i < s->n; i++) {
			struct node *nd = &s->node[i];

			if (nd->next < t)
				t = nd->next;
			if (nd->up_at && nd->up_at < t)
				t = nd->up_at;
		}
		if (t > t_end)
			break;
		if (t > s->now)
			s->now = t;
		while (s->nq && s->q[0].t <= s->now) {
			struct dgram d = q_pop(s);

			deliver(s, &d);
		}
		for (i = 0; i < s->n; i++) {
			struct node *nd = &s->node[i];

			if (nd->up_at && nd->up_at <= s->now)
				node_up(s, nd);
			if (!nd->v || nd->next > s->now)
				continue;
			mcd_view_tick(nd->v, s->now);
			refresh(nd);
			if (nd->next <= s->now) {
				s->stuck++;
				nd->next = s->now + 1;
			}
		}
		if (s->now >= s->next_mono) {
			check_mono(s);
			s->next_mono = s->now + 100;
		}
	}
	if (!s->stop && t_end > s->now)
		s->now = t_end;
}

/* ---------------------------------------------------------- checks */

static uint32_t truth(const struct sim *s, uint32_t g, uint32_t *out)
{
	uint32_t n = 0, i;

	for (i = 0; i < s->n; i++)
		if (up(&s->node[i]) && s->node[i].mask & 1u << (g - 1))
			out[n++] = i;
	return n;
}

static bool same(const uint32_t *a, uint32_t na, const uint32_t *b,
		 uint32_t nb)
{
	return na == nb && !memcmp(a, b, na * sizeof(*a));
}

/* The first live view (for a crashed node's tombstone). */
static const struct node *first_up(const struct sim *s)
{
	uint32_t i;

	for (i = 0; i < s->n; i++)
		if (up(&s->node[i]))
			return &s->node[i];
	return NULL;
}

/*
 * What every live view must hold of node @j: the record a live node
 * holds of itself, ALIVE; for a crashed one, the same DEAD record.
 */
static bool state_ok(const struct sim *s, const struct node *nd, uint32_t j)
{
	const struct node *o = &s->node[j];
	struct mcd_node_info in, own;

	if (mcd_view_node(nd->v, j, &in))
		return false;
	if (o->crashed) {
		mcd_view_node(first_up(s)->v, j, &own);
		return in.state == MCD_DEAD && own.state == MCD_DEAD &&
		       in.incarnation == own.incarnation &&
		       in.version == own.version;
	}
	if (!o->v || mcd_view_node(o->v, j, &own))
		return false;
	return in.state == MCD_ALIVE && own.state == MCD_ALIVE &&
	       in.incarnation == own.incarnation &&
	       in.version == own.version;
}

static uint32_t chain_check(const struct sim *s, uint32_t g,
			    const uint32_t *m, uint32_t n,
			    uint32_t ref[2][MAXN], bool first)
{
	static const enum mc_order order[2] = { MC_ORDER_DIM, MC_ORDER_HAM };
	uint32_t c[MAXN], bad = 0, o;

	for (o = 0; o < 2; o++) {
		memcpy(c, m, n * sizeof(*c));
		if (mc_chain_sort(&s->torus, order[o], c, n, NULL) ||
		    mc_chain_verify(&s->torus, order[o], c, n, NULL))
			bad++;
		if (first)
			memcpy(ref[o], c, n * sizeof(*c));
		else if (memcmp(ref[o], c, n * sizeof(*c)))
			bad++;
	}
	(void)g;
	return bad;
}

/* Every live view: true members and states (check_view, silent). */
static bool views_agree(const struct sim *s)
{
	uint32_t want[MAXN], got[MAXN], nw, n, g, i, j;

	for (i = 0; i < s->n; i++) {
		const struct node *nd = &s->node[i];

		if (!up(nd))
			continue;
		for (j = 0; j < s->n; j++)
			if (!state_ok(s, nd, j))
				return false;
		for (g = 1; g <= NGRP; g++) {
			nw = truth(s, g, want);
			n = mcd_view_members(nd->v, g, got, MAXN);
			if (!same(got, n, want, nw))
				return false;
		}
	}
	return true;
}

static void check_view(struct sim *s, const char *what)
{
	uint32_t want[MAXN], got[MAXN], groups[NGRP + 1], ref[2][MAXN];
	uint32_t bad_members = 0, bad_rep = 0, bad_state = 0, bad_chain = 0;
	uint32_t bad_groups = 0, live = 0, nw, ng, g, i, j, nwg;
	bool first;

	for (g = 1, nwg = 0; g <= NGRP; g++)
		if (truth(s, g, want))
			nwg++;
	for (g = 1; g <= NGRP; g++) {
		nw = truth(s, g, want);
		first = true;
		for (i = 0; i < s->n; i++) {
			struct node *nd = &s->node[i];
			uint32_t n;

			if (!up(nd))
				continue;
			n = mcd_view_members(nd->v, g, got, MAXN);
			if (!same(got, n, want, nw) && !bad_members++)
				diag("%s: node %u: group %u has %u members, "
				     "want %u", what, i, g, n, nw);
			if (!same(got, n, nd->rep[g], nd->nrep[g]) &&
			    !bad_rep++)
				diag("%s: node %u: group %u reported %u, "
				     "holds %u", what, i, g, nd->nrep[g], n);
			bad_chain += chain_check(s, g, got, n, ref, first);
			first = false;
		}
	}
	for (i = 0; i < s->n; i++) {
		struct node *nd = &s->node[i];

		if (!up(nd))
			continue;
		live++;
		ng = mcd_view_groups(nd->v, groups, NGRP + 1);
		bad_groups += ng != nwg;
		for (j = 0; j < s->n; j++) {
			if (!state_ok(s, nd, j) && !bad_state++) {
				struct mcd_node_info in;

				mcd_view_node(nd->v, j, &in);
				diag("%s: node %u holds %u as state %d inc "
				     "%llu (its inc %llu)", what, i, j,
				     in.state,
				     (unsigned long long)in.incarnation,
				     (unsigned long long)s->node[j].inc);
			}
		}
	}
	ok(!bad_members, "%s: %u live views hold the true members of every "
	   "group", what, live);
	ok(!bad_state, "%s: every view holds each live node's own record, "
	   "ALIVE, and one same tombstone of each crashed one", what);
	ok(!bad_groups, "%s: mcd_view_groups lists the %u groups with "
	   "members", what, nwg);
	ok(!bad_rep, "%s: ops->members reported what mcd_view_members "
	   "holds", what);
	ok(!bad_chain, "%s: R-chains and H-chains verify and are the same "
	   "on every node", what);
}

static void check_counters(struct sim *s, const char *what, bool deaths)
{
	ok(!s->back, "%s: no record ever went back", what);
	ok(!s->input_errs, "%s: every datagram and local change accepted",
	   what);
	ok(!s->stuck && !s->odd_groups, "%s: timers advance, no odd group",
	   what);
	if (s->stuck || s->odd_groups)
		diag("stuck %llu odd %llu", (unsigned long long)s->stuck,
		     (unsigned long long)s->odd_groups);
	if (deaths)
		ok(!s->false_deaths, "%s: no live node declared dead", what);
	else if (s->false_deaths)
		diag("%s: %llu live nodes declared dead", what,
		     (unsigned long long)s->false_deaths);
}

/* ---------------------------------------------------------- scenario */

static uint32_t pick_up(struct sim *s)
{
	uint32_t i;

	do
		i = rng_below(&s->rng, s->n);
	while (!up(&s->node[i]));
	return i;
}

static uint32_t live_count(const struct sim *s)
{
	uint32_t n = 0, i;

	for (i = 0; i < s->n; i++)
		n += up(&s->node[i]);
	return n;
}

static uint32_t rand_mask(struct sim *s)
{
	uint32_t m = 0, g;

	for (g = 0; g < NGRP; g++)
		if (chance(s, 250))
			m |= 1u << g;
	return m;
}

static void boot(struct sim *s)
{
	uint32_t i;

	for (i = 0; i < s->n; i++) {
		s->node[i].up_at = 1 + rng_below(&s->rng, 500);
		s->node[i].mask = rand_mask(s);
	}
}

/*
 * Joins, leaves, PEER_DOWN, restarts and crashes at random, a partition
 * in the middle that outlasts suspect + dead, for @ms.
 */
static void chaos(struct sim *s, uint64_t ms, uint32_t crashes)
{
	uint64_t t0 = s->now, end = t0 + ms;
	uint64_t cut_at = t0 + ms * 2 / 5, heal_at = cut_at + 5000;
	uint32_t crashed = 0;

	while (s->now < end) {
		uint32_t a = pick_up(s), r = rng_below(&s->rng, 100);
		struct node *nd = &s->node[a];

		run_to(s, s->now + 100 + rng_below(&s->rng, 300));
		s->partitioned = s->now >= cut_at && s->now < heal_at;
		if (!up(nd))
			continue;
		if (r < 70) {
			nd->mask ^= 1u << rng_below(&s->rng, NGRP);
			set_local(nd);
		} else if (r < 80) {
			mcd_view_peer_down(nd->v, pick_up(s), s->now);
			refresh(nd);
		} else if (r < 95) {
			node_down(nd);
			nd->up_at = s->now + 1 + rng_below(&s->rng, 2500);
			nd->mask = rand_mask(s);
		} else if (crashed < crashes && s->now > t0 + ms / 5) {
			node_down(nd);
			nd->crashed = true;
			crashed++;
		}
	}
	s->partitioned = false;
}

/* Crashes a node (not next to another crashed one) and times its death. */
static void crash_timed(struct sim *s, const char *what)
{
	uint64_t t0, worst = 0;
	uint32_t c, i, left;
	bool dead[MAXN] = { false };
	struct mcd_node_info in;

	do
		c = pick_up(s);
	while (s->node[(c + 1) % s->n].crashed ||
	       s->node[(c + s->n - 1) % s->n].crashed);
	node_down(&s->node[c]);
	s->node[c].crashed = true;
	t0 = s->now;
	do {
		run_to(s, s->now + 10);
		left = 0;
		for (i = 0; i < s->n; i++) {
			if (!up(&s->node[i]) || dead[i])
				continue;
			mcd_view_node(s->node[i].v, c, &in);
			dead[i] = in.state == MCD_DEAD;
			if (dead[i])
				worst = s->now - t0;
			else
				left++;
		}
	} while (left && s->now - t0 <= CRASH_BOUND_MS + 5000);
	ok(!left && worst <= CRASH_BOUND_MS,
	   "%s: crashed node %u DEAD everywhere in %llu ms (bound %u)",
	   what, c, (unsigned long long)worst, CRASH_BOUND_MS);
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* How many live views hold @w's node at @w's version or later. */
static uint32_t has_version(const struct sim *s,
			    const struct mcd_node_info *w)
{
	struct mcd_node_info in;
	uint32_t n = 0, i;

	for (i = 0; i < s->n; i++)
		if (up(&s->node[i]) && !mcd_view_node(s->node[i].v, w->node,
						      &in))
			n += in.incarnation > w->incarnation ||
			     (in.incarnation == w->incarnation &&
			      in.version >= w->version);
	return n;
}

/*
 * One join at a time; the time until every live view holds the joiner's
 * new version (whose member set then has it: check_view checks that).
 */
static void join_times(struct sim *s, const char *what, uint32_t trials)
{
	uint64_t *t = xcalloc(trials, sizeof(*t)), t0;
	uint32_t i, done = 0, live = live_count(s), seen;
	struct mcd_node_info want;

	for (i = 0; i < trials; i++) {
		uint32_t a = pick_up(s), g;
		struct node *nd = &s->node[a];

		do
			g = 1 + rng_below(&s->rng, NGRP);
		while (nd->mask & 1u << (g - 1));
		t0 = s->now;
		nd->mask |= 1u << (g - 1);
		set_local(nd);
		mcd_view_node(nd->v, a, &want);
		while ((seen = has_version(s, &want)) < live &&
		       s->now < t0 + 10000)
			run_to(s, s->now + 1);
		if (seen == live)
			t[done++] = s->now - t0;
		else
			diag("join %u of %u to %u: seen by %u of %u", i, a, g,
			     seen, live);
		/* Leave again a while later, so the sets stay small. */
		run_to(s, s->now + 50 + rng_below(&s->rng, 200));
		nd->mask &= ~(1u << (g - 1));
		set_local(nd);
		run_to(s, s->now + 100 + rng_below(&s->rng, 200));
	}
	ok(done == trials, "%s: all %u joins reached every view", what,
	   trials);
	qsort(t, done, sizeof(*t), cmp_u64);
	if (done)
		diag("%s: join convergence p50 %llu ms, p99 %llu ms, "
		     "max %llu ms (%u joins)", what,
		     (unsigned long long)t[done / 2],
		     (unsigned long long)t[(done * 99) / 100],
		     (unsigned long long)t[done - 1], done);
	free(t);
}

static uint64_t tx_total(const struct sim *s, struct mcd_view_stats *sum)
{
	struct mcd_view_stats st;
	uint32_t i;

	memset(sum, 0, sizeof(*sum));
	for (i = 0; i < s->n; i++) {
		if (!up(&s->node[i]))
			continue;
		mcd_view_stats(s->node[i].v, &st);
		sum->tx_dgrams += st.tx_dgrams;
		sum->tx_bytes += st.tx_bytes;
		sum->heartbeats += st.heartbeats;
		sum->digests += st.digests;
		sum->announces += st.announces;
		sum->pulls += st.pulls;
	}
	return sum->tx_dgrams;
}

/* The view's default: ceil(sqrt(n - 1)). */
static uint32_t monitors(uint32_t n)
{
	uint32_t k = 0;

	while (k * k < n - 1)
		k++;
	return k;
}

static void steady_rate(struct sim *s, const char *what)
{
	struct mcd_view_stats a, b;
	uint32_t live = live_count(s), secs = 10, k = monitors(s->n);
	double per;

	tx_total(s, &a);
	run_to(s, s->now + secs * 1000);
	tx_total(s, &b);
	per = (double)(b.tx_dgrams - a.tx_dgrams) / live / secs;
	diag("%s: steady state %.1f datagrams/node/s (heartbeat %.1f, "
	     "digest %.1f, announce %.1f, pull %.1f), %.0f bytes/node/s",
	     what, per, (double)(b.heartbeats - a.heartbeats) / live / secs,
	     (double)(b.digests - a.digests) / live / secs,
	     (double)(b.announces - a.announces) / live / secs,
	     (double)(b.pulls - a.pulls) / live / secs,
	     (double)(b.tx_bytes - a.tx_bytes) / live / secs);
	/* k monitors heartbeats, 2 digests, and answers to them. */
	ok(per <= k * 1000.0 / HB_MS + 4 * 1000.0 / SYNC_MS,
	   "%s: steady state within %u heartbeats + 4 digests a period",
	   what, k);
}

/* Whether every live node holds every live node of the other half DEAD. */
static bool halves_dead(const struct sim *s)
{
	struct mcd_node_info in;
	uint32_t i, j;

	for (i = 0; i < s->n; i++) {
		for (j = 0; up(&s->node[i]) && j < s->n; j++) {
			if (!up(&s->node[j]) || !cut(s, i, j))
				continue;
			mcd_view_node(s->node[i].v, j, &in);
			if (in.state != MCD_DEAD)
				return false;
		}
	}
	return true;
}

/*
 * The two halves apart until each holds the other dead, then the time
 * until every view is whole again.  Each half only watches the other
 * across one end of the ring, where k monitors watch the k nodes before
 * them; only when a monitor holds those dead does it watch the next,
 * with a fresh suspect_ms clock.  So a silent run of m consecutive ids
 * is dead everywhere after ceil(m / k) - 1 runs of suspect_ms + dead_ms
 * (plus 2 sync periods for a monitor that lost the pushes of the deaths
 * it did not declare itself), and then what a crash takes.
 */
static void partition_timed(struct sim *s, const char *what)
{
	uint32_t k = monitors(s->n), layers = (s->n / 2 + k - 1) / k;
	uint64_t bound = (layers - 1) * (uint64_t)(SUSPECT_MS + DEAD_MS +
						   2 * SYNC_MS) +
			 CRASH_BOUND_MS;
	uint64_t t0 = s->now;

	s->count_false = false;
	s->partitioned = true;
	while (!halves_dead(s) && s->now < t0 + 2 * bound)
		run_to(s, s->now + 10);
	ok(halves_dead(s) && s->now - t0 <= bound,
	   "%s: partitioned, each half holds the other DEAD after %llu ms "
	   "(bound %llu: %u runs of %u)", what,
	   (unsigned long long)(s->now - t0), (unsigned long long)bound,
	   layers, k);
	run_to(s, s->now + 1000);
	s->partitioned = false;
	t0 = s->now;
	while (!views_agree(s) && s->now < t0 + 30000)
		run_to(s, s->now + 10);
	ok(views_agree(s), "%s: partition healed, every view whole again "
	   "in %llu ms", what, (unsigned long long)(s->now - t0));
	run_to(s, s->now + 2000);
	s->count_false = true;
}

/* A PEER_DOWN about a live node: it refutes, nobody declares it dead. */
static void false_suspicion(struct sim *s, const char *what)
{
	uint32_t x = pick_up(s), y, i, bad = 0;
	struct mcd_view_stats st0, st1;
	struct mcd_node_info in;
	uint64_t ver;

	do
		y = pick_up(s);
	while (y == x);
	mcd_view_stats(s->node[x].v, &st0);
	mcd_view_node(s->node[x].v, x, &in);
	ver = in.version;
	mcd_view_peer_down(s->node[y].v, x, s->now);
	refresh(&s->node[y]);
	run_to(s, s->now + 3 * (SUSPECT_MS + DEAD_MS));
	mcd_view_stats(s->node[x].v, &st1);
	for (i = 0; i < s->n; i++) {
		if (!up(&s->node[i]))
			continue;
		mcd_view_node(s->node[i].v, x, &in);
		bad += in.state != MCD_ALIVE || in.version <= ver;
	}
	ok(st1.refutations > st0.refutations && !bad,
	   "%s: node %u suspected by %u refuted: ALIVE at a new version "
	   "everywhere", what, x, y);
}

/*
 * A member's daemon restarts well within suspect (kill -9, systemd starts
 * it again): its new life announces its groups at once, so no view ever
 * reports one of them without it, and sends never skip it.
 */
static void quick_restart(struct sim *s, const char *what)
{
	uint32_t x = pick_up(s);
	struct node *nd = &s->node[x];

	nd->mask |= 1;
	set_local(nd);
	run_to(s, s->now + 3000);
	s->watch = x + 1;
	s->watch_group = 1;
	s->blips = 0;
	node_down(nd);
	nd->up_at = s->now + SUSPECT_MS / 4;
	run_to(s, s->now + 3000);
	s->watch = 0;
	ok(!s->blips && up(nd),
	   "%s: node %u restarted within suspect: no view dropped it from "
	   "group 1 (%u reports without it)", what, x, s->blips);
}

static void scenario(uint32_t n, uint32_t loss_pm, uint64_t seed,
		     uint64_t chaos_ms, uint32_t joins)
{
	struct sim *s = xcalloc(1, sizeof(*s));
	uint32_t ended;
	char what[64];

	snprintf(what, sizeof(what), "%u nodes, %u%% loss", n, loss_pm / 10);
	sim_init(s, n, loss_pm, seed);
	boot(s);
	run_to(s, 5000);
	check_view(s, what);
	chaos(s, chaos_ms, n / 16);
	/* Restarts under way end within 2.5 s; then quiet. */
	run_to(s, s->now + 20000);
	check_view(s, what);
	/* From here on the network only loses, duplicates and reorders. */
	s->count_false = true;
	crash_timed(s, what);
	run_to(s, s->now + 5000);
	crash_timed(s, what);
	if (joins)
		join_times(s, what, joins);
	steady_rate(s, what);
	partition_timed(s, what);
	false_suspicion(s, what);
	quick_restart(s, what);
	run_to(s, s->now + 5000);
	check_view(s, what);
	check_counters(s, what, true);
	ended = s->downs;
	sim_free(s);
	diag("%s: %u restarts or crashes; %llu suspicions, %llu refutations, "
	     "%llu deaths, %llu datagrams", what, ended,
	     (unsigned long long)s->total.suspicions,
	     (unsigned long long)s->total.refutations,
	     (unsigned long long)s->total.deaths,
	     (unsigned long long)s->total.tx_dgrams);
	free(s);
}

/* ---------------------------------------------------------- malformed */

struct snap {
	uint8_t *b;
	size_t n, cap;
};

static void snap_put(struct snap *sn, const void *p, size_t len)
{
	if (!len)
		return;
	if (sn->n + len > sn->cap) {
		sn->cap = 2 * (sn->n + len);
		sn->b = realloc(sn->b, sn->cap);
		if (!sn->b)
			exit(2);
	}
	memcpy(sn->b + sn->n, p, len);
	sn->n += len;
}

/* Everything a view shows but its receive counters. */
static void snapshot(const struct sim *s, const struct mcd_view *v,
		     struct snap *sn)
{
	struct mcd_view_stats st;
	struct mcd_node_info in;
	uint32_t m[MAXN], g, j, n;

	sn->n = 0;
	for (j = 0; j < s->n; j++) {
		mcd_view_node(v, j, &in);
		snap_put(sn, &in.state, sizeof(in.state));
		snap_put(sn, &in.incarnation, sizeof(in.incarnation));
		snap_put(sn, &in.version, sizeof(in.version));
		snap_put(sn, &in.last_heard_ms, sizeof(in.last_heard_ms));
		snap_put(sn, &in.ngroups, sizeof(in.ngroups));
		snap_put(sn, in.groups, in.ngroups * sizeof(uint32_t));
	}
	for (g = 1; g <= NGRP; g++) {
		n = mcd_view_members(v, g, m, MAXN);
		snap_put(sn, &n, sizeof(n));
		snap_put(sn, m, n * sizeof(*m));
	}
	mcd_view_stats(v, &st);
	st.rx_dgrams = st.rx_bytes = st.rx_bad = 0;
	snap_put(sn, &st, sizeof(st));
	snap_put(sn, &(uint64_t){ mcd_view_next(v) }, sizeof(uint64_t));
}

struct fuzz {
	struct sim *s;
	struct node *t;		/* the target */
	uint32_t from;
	uint64_t inc;		/* the sender's real incarnation */
	uint32_t bad_rc, sent, n;
	struct snap before, after;
};

/* feed()'s @want when either refusal is right (random contents). */
#define REFUSED		1

static void feed(struct fuzz *f, uint32_t from, const void *buf, size_t len,
		 int want, const char *what)
{
	uint64_t sent = f->t->sent;
	int rc = mcd_view_input(f->t->v, from, buf, len, f->s->now);
	bool right = want == REFUSED ? rc == -EBADMSG || rc == -ENOENT :
		     rc == want;

	f->n++;
	if (!right && !f->bad_rc++)
		diag("%s: got %d, want %d", what, rc, want);
	f->sent += f->t->sent != sent;
}

static void put32(uint8_t *p, uint32_t x)
{
	p[0] = (uint8_t)x;
	p[1] = (uint8_t)(x >> 8);
	p[2] = (uint8_t)(x >> 16);
	p[3] = (uint8_t)(x >> 24);
}

static void put16(uint8_t *p, uint16_t x)
{
	p[0] = (uint8_t)x;
	p[1] = (uint8_t)(x >> 8);
}

/* A well-formed ANNOUNCE of @nrec copies of a record with groups 3, 5. */
static size_t mk_announce(struct fuzz *f, struct mcd_wbuf *w, uint32_t node,
			  uint32_t nrec)
{
	static const uint32_t g[2] = { 3, 5 };
	struct mcd_key k = {
		.node = node, .incarnation = 1, .version = 1,
		.state = MCD_ALIVE,
	};
	uint32_t i;

	mcd_wbuf_begin(w, MCD_MSG_ANNOUNCE, f->from, f->inc, 0);
	for (i = 0; i < nrec; i++)
		mcd_wbuf_add_rec(w, &k, g, 2);
	return mcd_wbuf_end(w);
}

static size_t mk_digest(struct fuzz *f, struct mcd_wbuf *w, uint32_t count)
{
	struct mcd_key k = { .incarnation = 1, .version = 1, .state = 1 };
	uint32_t i;

	mcd_wbuf_begin(w, MCD_MSG_DIGEST, f->from, f->inc, 0);
	for (i = 0; i < count; i++) {
		k.node = i % f->s->n;
		mcd_wbuf_add_ent(w, &k);
	}
	return mcd_wbuf_end(w);
}

static size_t mk_pull(struct fuzz *f, struct mcd_wbuf *w, uint32_t count)
{
	uint32_t i;

	mcd_wbuf_begin(w, MCD_MSG_PULL, f->from, f->inc, 0);
	for (i = 0; i < count; i++)
		mcd_wbuf_add_node(w, i % f->s->n);
	return mcd_wbuf_end(w);
}

static size_t mk_heartbeat(struct fuzz *f, struct mcd_wbuf *w)
{
	mcd_wbuf_begin(w, MCD_MSG_HEARTBEAT, f->from, f->inc, 1000);
	return mcd_wbuf_end(w);
}

/* Every proper prefix and one byte more of a good datagram are bad. */
static void cut_and_pad(struct fuzz *f, const struct mcd_wbuf *w, size_t len,
			const char *what)
{
	static uint8_t buf[MCD_DGRAM_MAX + 1];
	size_t l;

	for (l = 0; l < len; l++)
		feed(f, f->from, w->buf, l, -EBADMSG, what);
	memcpy(buf, w->buf, len);
	buf[len] = 0;
	feed(f, f->from, buf, len + 1, -EBADMSG, what);
}

/* Byte @off of a copy of @w set to @val (16 bits when @wide). */
static void poke(struct fuzz *f, const struct mcd_wbuf *w, size_t len,
		 size_t off, uint32_t val, int width, int want,
		 const char *what)
{
	static uint8_t buf[MCD_DGRAM_MAX];

	memcpy(buf, w->buf, len);
	if (width == 4)
		put32(buf + off, val);
	else if (width == 2)
		put16(buf + off, (uint16_t)val);
	else
		buf[off] = (uint8_t)val;
	feed(f, f->from, buf, len, want, what);
}

static void malformed(struct fuzz *f)
{
	static struct mcd_wbuf w;
	static uint8_t big[MCD_DGRAM_MAX + 64];
	/*
	 * ANNOUNCE: count at 20, the record at 22: node, incarnation 26,
	 * version 34, state 38, pad 39, ngroups 40, groups 42 and 46.
	 */
	const size_t R = 22;
	size_t len;
	uint32_t i;

	len = mk_announce(f, &w, 1, 2);
	cut_and_pad(f, &w, len, "announce truncated or padded");
	poke(f, &w, len, 0, 'X', 1, -EBADMSG, "bad magic");
	poke(f, &w, len, 4, 2, 1, -EBADMSG, "protocol version 2");
	poke(f, &w, len, 5, 0, 1, -EBADMSG, "type 0");
	poke(f, &w, len, 5, 5, 1, -EBADMSG, "type 5");
	poke(f, &w, len, 6, 1, 2, -EBADMSG, "reserved not 0");
	poke(f, &w, len, 8, (f->from + 1) % f->s->n, 4, -EBADMSG,
	     "header from is not the sender");
	poke(f, &w, len, 12, 0, 4, -EBADMSG, "incarnation 0");
	poke(f, &w, len, 20, 0, 2, -EBADMSG, "count 0");
	poke(f, &w, len, 20, 3, 2, -EBADMSG, "count above the records");
	poke(f, &w, len, 20, 0xffff, 2, -EBADMSG, "count 65535");
	poke(f, &w, len, R + 0, 999, 4, -ENOENT, "record of unknown node");
	poke(f, &w, len, R + 4, 0, 4, -EBADMSG, "record incarnation 0");
	poke(f, &w, len, R + 12, 0, 4, -EBADMSG, "record version 0");
	poke(f, &w, len, R + 16, 0, 1, -EBADMSG, "record state 0");
	poke(f, &w, len, R + 16, 4, 1, -EBADMSG, "record state 4");
	poke(f, &w, len, R + 17, 1, 1, -EBADMSG, "record pad not 0");
	poke(f, &w, len, R + 18, 3, 2, -EBADMSG, "ngroups above the data");
	poke(f, &w, len, R + 18, 257, 2, -EBADMSG, "ngroups 257");
	poke(f, &w, len, R + 20, 7, 4, -EBADMSG, "groups unsorted");
	poke(f, &w, len, R + 20, 5, 4, -EBADMSG, "groups repeated");
	poke(f, &w, len, R + 20, 0, 4, -EBADMSG, "group 0");
	feed(f, 999, w.buf, len, -ENOENT, "sender not configured");

	len = mk_digest(f, &w, 3);
	cut_and_pad(f, &w, len, "digest truncated or padded");
	poke(f, &w, len, 20, MCD_MAX_NODES, 4, -EBADMSG, "digest first");
	poke(f, &w, len, 24, 0, 2, -EBADMSG, "digest count 0");
	poke(f, &w, len, 24, 4, 2, -EBADMSG, "digest count above entries");
	poke(f, &w, len, 26, 999, 4, -ENOENT, "digest of unknown node");
	poke(f, &w, len, 26 + 16, 4, 1, -EBADMSG, "digest state 4");
	poke(f, &w, len, 26 + 16, 0, 1, -EBADMSG,
	     "digest state 0 with a version");
	poke(f, &w, len, 26 + 18, 1, 1, -EBADMSG, "digest pad not 0");
	poke(f, &w, len, 26 + 12, 0, 4, -EBADMSG, "digest version 0");
	/* 257 well-formed entries: more than a digest may hold. */
	len = mk_digest(f, &w, MCD_DIGEST_MAX);
	memcpy(big, w.buf, len);
	memcpy(big + len, w.buf + len - MCD_ENT_LEN, MCD_ENT_LEN);
	put16(big + 24, MCD_DIGEST_MAX + 1);
	feed(f, f->from, big, len + MCD_ENT_LEN, -EBADMSG,
	     "digest of 257 entries");

	len = mk_pull(f, &w, 4);
	cut_and_pad(f, &w, len, "pull truncated or padded");
	poke(f, &w, len, 20, 5, 2, -EBADMSG, "pull count above the nodes");
	poke(f, &w, len, 20, 0, 2, -EBADMSG, "pull count 0");
	poke(f, &w, len, 22, 999, 4, -ENOENT, "pull of unknown node");
	len = mk_pull(f, &w, 2000);	/* 8022 bytes: fits */
	memcpy(big, w.buf, len);
	memset(big + len, 0, sizeof(big) - len);
	put16(big + 20, (MCD_DGRAM_MAX + 64 - 22) / 4);
	feed(f, f->from, big, sizeof(big), -EBADMSG,
	     "datagram above MCD_DGRAM_MAX");

	len = mk_heartbeat(f, &w);
	cut_and_pad(f, &w, len, "heartbeat truncated or padded");
	poke(f, &w, len, 20, 0, 4, -EBADMSG, "heartbeat version 0");

	feed(f, f->from, NULL, 0, -EBADMSG, "no datagram");
	/*
	 * Random bytes: no magic, -EBADMSG.  Random bytes behind a good
	 * header: refused, -EBADMSG or, when they happen to be well formed,
	 * -ENOENT for the random node ids.
	 */
	for (i = 0; i < 2000; i++) {
		uint32_t l = rng_below(&f->s->rng, 300), j;
		bool hdr = i & 1 && l >= MCD_HDR_LEN;

		for (j = 0; j < l; j++)
			big[j] = (uint8_t)rng_next(&f->s->rng);
		if (hdr) {
			memcpy(big, w.buf, 12);
			big[5] = (uint8_t)(1 + i / 2 % 4);
			put32(big + 12, (uint32_t)f->inc);
			put32(big + 16, (uint32_t)(f->inc >> 32));
			/* A heartbeat of random version is well formed. */
			if (big[5] == MCD_MSG_HEARTBEAT)
				l = MCD_HDR_LEN + 5;
		}
		feed(f, f->from, big, l, hdr ? REFUSED : -EBADMSG,
		     "random bytes");
	}
}

/* A PULL naming one node 2000 times gets one record back. */
static void repeated_pull(struct fuzz *f)
{
	static struct mcd_wbuf w;
	uint64_t sent = f->t->sent;
	struct mcd_node_info in;
	uint32_t i;
	int rc;

	mcd_wbuf_begin(&w, MCD_MSG_PULL, f->from, f->inc, 0);
	for (i = 0; i < 2000; i++)
		mcd_wbuf_add_node(&w, 3);
	rc = mcd_view_input(f->t->v, f->from, w.buf, mcd_wbuf_end(&w),
			    f->s->now);
	refresh(f->t);
	mcd_view_node(f->t->v, 3, &in);
	ok(!rc && f->t->sent == sent + 1 &&
	   f->t->last_len == MCD_HDR_LEN + 2 + MCD_REC_LEN + 4 * in.ngroups,
	   "a node pulled 2000 times in one PULL is answered once");
}

/*
 * PULLs and DIGESTs of every node, 2000 of each in one ms, from one
 * peer: the answers stay within one second's budget (MCD_ANSWER_BPS),
 * and a second later the budget is back.
 */
static void answer_flood(struct fuzz *f)
{
	static struct mcd_wbuf w;
	struct mcd_view_stats st0, st1, st2;
	uint32_t i;
	size_t len;

	mcd_view_stats(f->t->v, &st0);
	for (i = 0; i < 4000; i++) {
		len = i % 2 ? mk_pull(f, &w, f->s->n) : mk_digest(f, &w, f->s->n);
		mcd_view_input(f->t->v, f->from, w.buf, len, f->s->now);
	}
	mcd_view_stats(f->t->v, &st1);
	ok(st1.tx_bytes - st0.tx_bytes <= MCD_ANSWER_BPS + 2 * MCD_DGRAM_MAX &&
	   st1.tx_bytes - st0.tx_bytes > MCD_ANSWER_BPS / 2 &&
	   st1.answers_cut > st0.answers_cut,
	   "4000 PULLs and DIGESTs in 1 ms: %llu bytes of answers (budget %d "
	   "a second), %llu records cut",
	   (unsigned long long)(st1.tx_bytes - st0.tx_bytes), MCD_ANSWER_BPS,
	   (unsigned long long)(st1.answers_cut - st0.answers_cut));
	f->s->now += 1000;
	len = mk_pull(f, &w, f->s->n);
	mcd_view_input(f->t->v, f->from, w.buf, len, f->s->now);
	mcd_view_stats(f->t->v, &st2);
	ok(st2.answers_cut == st1.answers_cut && st2.tx_bytes > st1.tx_bytes,
	   "a second later, a PULL is answered in full");
	refresh(f->t);
}

/* Random byte flips of good datagrams: whatever comes, no harm (ASan). */
static void mutations(struct sim *s)
{
	static struct mcd_wbuf w;
	uint32_t i, okc = 0, bad = 0, other = 0, j;
	struct fuzz f = { .s = s, .t = &s->node[0], .from = 1,
			  .inc = s->node[1].inc };
	size_t len;
	int rc;

	for (i = 0; i < 3000; i++) {
		switch (i % 4) {
		case 0:
			len = mk_announce(&f, &w, 2 + i % 5, 1 + i % 3);
			break;
		case 1:
			len = mk_digest(&f, &w, 1 + i % 20);
			break;
		case 2:
			len = mk_pull(&f, &w, 1 + i % 9);
			break;
		default:
			len = mk_heartbeat(&f, &w);
			break;
		}
		for (j = 0; j < 1 + i % 3; j++)
			w.buf[rng_below(&s->rng, (uint32_t)len)] ^=
				(uint8_t)(1 + rng_below(&s->rng, 255));
		rc = mcd_view_input(s->node[0].v, 1, w.buf, len, s->now);
		refresh(&s->node[0]);
		if (!rc)
			okc++;
		else if (rc == -EBADMSG || rc == -ENOENT)
			bad++;
		else
			other++;
		if (i % 50 == 0)
			run_to(s, s->now + 20);
	}
	ok(!other, "mutated datagrams: %u taken, %u refused, %u other", okc,
	   bad, other);
}

static void fuzz_scenario(uint64_t seed)
{
	struct sim *s = xcalloc(1, sizeof(*s));
	struct mcd_view_stats st0, st1;
	struct fuzz f = { 0 };

	sim_init(s, 16, 0, seed);
	boot(s);
	run_to(s, 5000);
	check_view(s, "fuzz cluster");
	f.s = s;
	f.t = &s->node[5];
	f.from = 6;
	f.inc = s->node[6].inc;
	mcd_view_stats(f.t->v, &st0);
	snapshot(s, f.t->v, &f.before);
	malformed(&f);
	snapshot(s, f.t->v, &f.after);
	mcd_view_stats(f.t->v, &st1);
	ok(!f.bad_rc, "%u malformed datagrams refused with the right error",
	   f.n);
	ok(f.before.n == f.after.n && !memcmp(f.before.b, f.after.b,
					      f.before.n),
	   "malformed datagrams changed nothing in the view");
	ok(!f.sent, "malformed datagrams made it send nothing");
	is_int(st1.rx_bad - st0.rx_bad, f.n, "each counted in rx_bad");
	free(f.before.b);
	free(f.after.b);
	repeated_pull(&f);
	answer_flood(&f);
	/* The cluster goes on and still agrees, mutations and all. */
	s->fuzzing = true;
	mutations(s);
	run_to(s, s->now + 10000);
	check_view(s, "after fuzz");
	check_counters(s, "fuzz", true);
	sim_free(s);
	free(s);
}

/* ---------------------------------------------------------- forgeries */

/* One record (@node, @inc, @ver, @state, no groups) "from" @from. */
static size_t mk_forged(struct mcd_wbuf *w, uint32_t from, uint64_t hdr_inc,
			uint32_t node, uint64_t inc, uint32_t ver,
			uint8_t state)
{
	struct mcd_key k = {
		.node = node, .incarnation = inc, .version = ver,
		.state = state,
	};

	mcd_wbuf_begin(w, MCD_MSG_ANNOUNCE, from, hdr_inc, 0);
	mcd_wbuf_add_rec(w, &k, NULL, 0);
	return mcd_wbuf_end(w);
}

/* @w to every live node but @from; how many refused it as bad. */
static uint32_t forge_all(struct sim *s, const struct mcd_wbuf *w,
			  size_t len, uint32_t from)
{
	uint32_t i, refused = 0;

	for (i = 0; i < s->n; i++) {
		if (i == from || !up(&s->node[i]))
			continue;
		refused += mcd_view_input(s->node[i].v, from, w->buf, len,
					  s->now) == -EBADMSG;
		refresh(&s->node[i]);
	}
	return refused;
}

static uint64_t bad_records(const struct sim *s)
{
	struct mcd_view_stats st;
	uint64_t sum = 0;
	uint32_t i;

	for (i = 0; i < s->n; i++) {
		if (!up(&s->node[i]))
			continue;
		mcd_view_stats(s->node[i].v, &st);
		sum += st.bad_records;
	}
	return sum;
}

/* Views holding node @y ALIVE at an incarnation >= @inc. */
static uint32_t alive_in(const struct sim *s, uint32_t y, uint64_t inc)
{
	struct mcd_node_info in;
	uint32_t i, n = 0;

	for (i = 0; i < s->n; i++)
		if (up(&s->node[i]) && !mcd_view_node(s->node[i].v, y, &in))
			n += in.state == MCD_ALIVE && in.incarnation >= inc;
	return n;
}

/*
 * Issue 39 item 2: one ANNOUNCE "from" node 2 saying node 1 is dead at
 * incarnation 2^64-1, version 2^32-1 evicted node 1 for ever, and sent
 * to node 1 itself wrapped its incarnation to 0.  Beyond the clock, it
 * is refused and counted; within it, node 1 outbids it.
 */
static void forgeries(uint64_t seed)
{
	struct sim *s = xcalloc(1, sizeof(*s));
	const uint32_t x = 2, y = 1, ny = 16;
	static struct mcd_wbuf w;
	struct mcd_view_stats st0, st1;
	struct mcd_node_info in;
	uint64_t bad0, inc, lim;
	uint32_t refused;
	size_t len;

	sim_init(s, ny, 0, seed);
	boot(s);
	run_to(s, 5000);
	check_view(s, "forgery cluster");
	mcd_view_node(s->node[y].v, y, &in);
	inc = in.incarnation;

	bad0 = bad_records(s);
	len = mk_forged(&w, x, s->node[x].inc, y, UINT64_MAX, UINT32_MAX,
			MCD_DEAD);
	refused = forge_all(s, &w, len, x);
	run_to(s, s->now + 3000);
	mcd_view_node(s->node[y].v, y, &in);
	ok(refused == ny - 1 && bad_records(s) == bad0 + ny - 1 &&
	   alive_in(s, y, inc) == ny && in.incarnation == inc,
	   "node 1 dead at 2^64-1 / 2^32-1: refused and counted by all %u "
	   "(%u), node 1 alive everywhere at its own incarnation", ny - 1,
	   refused);
	check_view(s, "after a forgery beyond the clock");

	mcd_view_node(s->node[y].v, y, &in);
	len = mk_forged(&w, x, s->node[x].inc, y, in.incarnation,
			in.version + 60000, MCD_DEAD);
	refused = forge_all(s, &w, len, x);
	ok(refused == ny - 1, "a version a minute ahead of the clock: "
	   "refused by all (%u)", refused);

	len = mk_forged(&w, x, s->node[x].inc, x, s->node[x].inc, 1000,
			MCD_DEAD);
	ok(forge_all(s, &w, len, x) == ny - 1,
	   "a node's record of itself as DEAD: refused by all");

	len = mk_forged(&w, x, UINT64_MAX, x + 1, 1, 1, MCD_ALIVE);
	ok(forge_all(s, &w, len, x) == ny - 1,
	   "a header incarnation of 2^64-1: refused by all");

	/* At the bound itself: taken, and outbid by node 1. */
	lim = s->now + MCD_SKEW_MS;
	mcd_view_stats(s->node[y].v, &st0);
	len = mk_forged(&w, x, s->node[x].inc, y, lim, 1, MCD_DEAD);
	refused = forge_all(s, &w, len, x);
	run_to(s, s->now + 3000);
	mcd_view_stats(s->node[y].v, &st1);
	ok(!refused && alive_in(s, y, lim + 1) == ny &&
	   st1.refutations > st0.refutations,
	   "node 1 dead at the clock's bound: taken (%u refused), then "
	   "outbid: ALIVE above it in all %u views", refused,
	   alive_in(s, y, lim + 1));
	check_view(s, "after a forgery at the bound");

	/* A version of node 1's life it never wrote, without its groups. */
	s->node[y].mask = 0x5;
	set_local(&s->node[y]);
	run_to(s, s->now + 1000);
	mcd_view_node(s->node[y].v, y, &in);
	mcd_view_stats(s->node[y].v, &st0);
	len = mk_forged(&w, x, s->node[x].inc, y, in.incarnation,
			in.version + 3, MCD_ALIVE);
	forge_all(s, &w, len, x);
	run_to(s, s->now + 3000);
	mcd_view_stats(s->node[y].v, &st1);
	ok(st1.bad_records > st0.bad_records,
	   "a version of its life it never wrote: counted by node 1");
	check_view(s, "after a forged version of node 1");
	sim_free(s);
	free(s);
}

/* A join/leave loop: one version per debounce, not 2(N-1) each. */
static void join_loop(uint64_t seed)
{
	struct sim *s = xcalloc(1, sizeof(*s));
	struct mcd_view_stats st0, st1;
	uint32_t i;

	sim_init(s, 16, 0, seed);
	boot(s);
	run_to(s, 5000);
	mcd_view_stats(s->node[3].v, &st0);
	for (i = 0; i < 2001; i++) {
		s->node[3].mask ^= 1u << 7;
		set_local(&s->node[3]);
		if (i % 100 == 99)
			run_to(s, s->now + 1);
	}
	run_to(s, s->now + 2000);
	mcd_view_stats(s->node[3].v, &st1);
	ok(st1.announces - st0.announces <= 2 * 15 * (20 / MCD_DEBOUNCE_MS + 2),
	   "2001 joins and leaves over 20 ms: %llu announces",
	   (unsigned long long)(st1.announces - st0.announces));
	check_view(s, "after a join loop");
	sim_free(s);
	free(s);
}

/* ---------------------------------------------------------- small cases */

static void nop_send(void *ctx, uint32_t to, const void *buf, size_t len)
{
	(void)buf;
	(void)len;
	(void)to;
	(*(uint32_t *)ctx)++;
}

static void api_cases(void)
{
	static const uint32_t ids[4] = { 7, 3, 9, 1 }, dup[3] = { 1, 2, 1 };
	struct mcd_view_ops o = { .send = nop_send };
	struct mcd_view_cfg c = {
		.self = 3, .nodes = ids, .nnodes = 4, .incarnation = 5,
		.heartbeat_ms = 100, .suspect_ms = 1000, .dead_ms = 1000,
		.sync_ms = 500,
	};
	uint32_t sent = 0, g[MCD_MAX_GROUPS + 1], i, m[4];
	struct mcd_node_info in;
	struct mcd_view *v;

	c.self = 4;
	ok(!mcd_view_new(&c, &o, &sent, 1), "self not configured: refused");
	c.self = 1;
	c.nodes = dup;
	c.nnodes = 3;
	ok(!mcd_view_new(&c, &o, &sent, 1), "duplicate ids: refused");
	c.nodes = ids;
	c.nnodes = 4;
	c.incarnation = 0;
	ok(!mcd_view_new(&c, &o, &sent, 1), "incarnation 0: refused");
	c.incarnation = 5;
	c.sync_ms = 0;
	ok(!mcd_view_new(&c, &o, &sent, 1), "a zero timer: refused");
	c.sync_ms = 500;
	v = mcd_view_new(&c, &o, &sent, 1);
	ok(v && sent == 4, "new: its record to the 3 others, a digest to "
	   "the next (%u sent)", sent);
	if (!v)
		return;
	mcd_view_node(v, 1, &in);
	ok(in.state == MCD_ALIVE && in.version == 1 && in.incarnation == 5 &&
	   !in.ngroups, "own record ALIVE, version 1, no groups");
	ok(mcd_view_node(v, 2, &in) == -ENOENT, "unconfigured node: -ENOENT");
	g[0] = 4;
	g[1] = 0;
	is_int(mcd_view_set_local(v, g, 2, 2), -EINVAL, "group 0: -EINVAL");
	for (i = 0; i <= MCD_MAX_GROUPS; i++)
		g[i] = MCD_MAX_GROUPS + 1 - i;
	is_int(mcd_view_set_local(v, g, MCD_MAX_GROUPS + 1, 2), -E2BIG,
	       "257 groups: -E2BIG");
	g[0] = 1;
	is_int(mcd_view_set_local(v, g + 1, MCD_MAX_GROUPS, 2), 0,
	       "256 groups, given in reverse: taken");
	g[0] = 9;
	g[1] = 4;
	g[2] = 9;
	is_int(mcd_view_set_local(v, g, 3, 3), 0, "repeats ignored");
	mcd_view_node(v, 1, &in);
	ok(in.version == 2 && in.ngroups == MCD_MAX_GROUPS &&
	   mcd_view_next(v) == 2 + MCD_DEBOUNCE_MS,
	   "a change 1 ms after the last waits for the debounce");
	mcd_view_tick(v, 2 + MCD_DEBOUNCE_MS);
	mcd_view_node(v, 1, &in);
	ok(in.ngroups == 2 && in.groups[0] == 4 && in.groups[1] == 9 &&
	   in.version == 3, "groups sorted, version 3");
	sent = 0;
	is_int(mcd_view_set_local(v, g + 1, 2, 40), 0, "the same set again");
	mcd_view_node(v, 1, &in);
	ok(in.version == 3 && !sent, "unchanged: no new version, nothing "
	   "sent");
	g[3] = 5;
	for (i = 0; i < 1000; i++)
		mcd_view_set_local(v, g + 1, 2 + (i % 2 == 0), 41);
	mcd_view_tick(v, 41 + MCD_DEBOUNCE_MS);
	mcd_view_node(v, 1, &in);
	ok(in.version == 3 && in.ngroups == 2,
	   "1000 joins and leaves ending where they began: no version");
	ok(mcd_view_members(v, 9, m, 4) == 1 && m[0] == 1,
	   "members of 9: itself");
	ok(mcd_view_groups(v, m, 4) == 2 && m[0] == 4 && m[1] == 9,
	   "groups: 4 and 9");
	ok(mcd_view_next(v) <= 41 + MCD_DEBOUNCE_MS + 100,
	   "next: within a heartbeat period");
	mcd_view_free(v);
}

/* Two views and a queue between them (no call inside another). */
struct pair_q {
	uint32_t n;
	struct { uint32_t to; size_t len; uint8_t *b; } d[64];
};

static void pair_send(void *ctx, uint32_t to, const void *buf, size_t len)
{
	struct pair_q *q = ctx;

	if (q->n == 64)
		return;
	q->d[q->n].to = to;
	q->d[q->n].len = len;
	q->d[q->n].b = xcalloc(1, len);
	memcpy(q->d[q->n].b, buf, len);
	q->n++;
}

/*
 * Every group a node's files joined is announced, up to the kernel's
 * MCAST_MAX_GROUPS: the lowest 256 used to be, so a user joining 1..256
 * hid the node's higher groups from the cluster.
 */
static void all_groups(void)
{
	static const uint32_t ids[2] = { 1, 2 };
	static uint32_t g[MCD_MAX_GROUPS];
	static struct pair_q q;
	struct mcd_view_ops o = { .send = pair_send };
	struct mcd_view_cfg c = {
		.nodes = ids, .nnodes = 2, .incarnation = 5,
		.heartbeat_ms = 100, .suspect_ms = 1000, .dead_ms = 1000,
		.sync_ms = 500,
	};
	struct mcd_view *v[2];
	struct mcd_node_info in;
	uint32_t i, t, m[2];

	for (i = 0; i < MCD_MAX_GROUPS; i++)
		g[i] = i + 1;
	c.self = 1;
	v[0] = mcd_view_new(&c, &o, &q, 1);
	c.self = 2;
	c.groups = g;
	c.ngroups = MCD_MAX_GROUPS;
	v[1] = mcd_view_new(&c, &o, &q, 1);
	for (t = 2; t < 2000; t += 10) {
		for (i = 0; i < q.n; i++) {
			mcd_view_input(v[q.d[i].to - 1], 3 - q.d[i].to, q.d[i].b,
				       q.d[i].len, t);
			free(q.d[i].b);
		}
		q.n = 0;
		mcd_view_tick(v[0], t);
		mcd_view_tick(v[1], t);
	}
	mcd_view_node(v[0], 2, &in);
	ok(in.state == MCD_ALIVE && in.ngroups == MCD_MAX_GROUPS &&
	   mcd_view_members(v[0], MCD_MAX_GROUPS, m, 2) == 1 && m[0] == 2,
	   "a node in all %d groups: every one announced (node 1 holds %u)",
	   MCD_MAX_GROUPS, in.ngroups);
	for (i = 0; i < q.n; i++)
		free(q.d[i].b);
	q.n = 0;
	mcd_view_free(v[0]);
	mcd_view_free(v[1]);
}

/* STATS_PULL and STATS (mcastctl cluster stats): both ways, and refusals. */
static void stats_cases(void)
{
	static struct mcd_wbuf w, a;
	struct mcd_msg m;
	size_t len, alen;
	uint32_t i;

	mcd_wbuf_begin(&w, MCD_MSG_STATS_PULL, 7, 99, 31);
	len = mcd_wbuf_end(&w);
	ok(!mcd_msg_parse(w.buf, len, &m) && m.type == MCD_MSG_STATS_PULL &&
	   m.query == 31, "stats pull parses back");
	mcd_wbuf_begin(&a, MCD_MSG_STATS, 7, 99, 31);
	for (i = 0; i < MCD_STAT_N; i++)
		mcd_wbuf_add_value(&a, 1000 + i);
	mcd_wbuf_add_value(&a, MCD_STATS_NONE);
	alen = mcd_wbuf_end(&a);
	ok(!mcd_msg_parse(a.buf, alen, &m) && m.query == 31 &&
	   m.count == MCD_STAT_N + 1 && mcd_stats_value(&m, 0) == 1000 &&
	   mcd_stats_value(&m, MCD_STAT_N - 1) == 1000 + MCD_STAT_N - 1 &&
	   mcd_stats_value(&m, MCD_STAT_N) == MCD_STATS_NONE &&
	   mcd_stats_value(&m, MCD_STAT_N + 5) == MCD_STATS_NONE,
	   "stats of %u values parses back, a value past them none",
	   MCD_STAT_N + 1);
	ok(len >= alen - 8, "a stats pull (%zu bytes) is as long as its answer "
	   "(%zu, one value more than ours here)", len, alen);
	w.buf[len - 1] = 1;
	ok(mcd_msg_parse(w.buf, len, &m) == -EBADMSG,
	   "stats pull: padding not zero, refused");
	w.buf[len - 1] = 0;
	ok(mcd_msg_parse(w.buf, len - 1, &m) == -EBADMSG,
	   "stats pull: one byte short, refused");
	memset(w.buf + MCD_HDR_LEN, 0, 4);
	ok(mcd_msg_parse(w.buf, len, &m) == -EBADMSG,
	   "stats pull: query 0, refused");
	ok(mcd_msg_parse(a.buf, alen - 1, &m) == -EBADMSG,
	   "stats: a value cut short, refused");
	a.buf[MCD_HDR_LEN + 4] = 0;
	a.buf[MCD_HDR_LEN + 5] = 0;
	ok(mcd_msg_parse(a.buf, alen, &m) == -EBADMSG,
	   "stats: count 0 with values, refused");
	mcd_wbuf_begin(&a, MCD_MSG_STATS, 7, 99, 31);
	for (i = 0; !mcd_wbuf_add_value(&a, i); i++)
		;
	ok(i == MCD_STATS_MAX, "stats: at most %u values", MCD_STATS_MAX);
}

static void proto_cases(void)
{
	static struct mcd_wbuf w;
	static const uint32_t grp[3] = { 1, 2, 0xffffffffu };
	struct mcd_key k = {
		.node = 42, .incarnation = 0x0102030405060708ull,
		.version = 0xa0b0c0d0, .state = MCD_SUSPECT,
	}, e;
	struct mcd_rec_in r;
	struct mcd_cursor c;
	struct mcd_msg m;
	uint32_t node, i, nrec = 0;
	size_t len;

	mcd_wbuf_begin(&w, MCD_MSG_ANNOUNCE, 7, 99, 0);
	while (!mcd_wbuf_add_rec(&w, &k, grp, 3))
		nrec++;
	len = mcd_wbuf_end(&w);
	ok(len <= MCD_DGRAM_FILL && nrec == (MCD_DGRAM_FILL - 22) / 32,
	   "announce fills a datagram (%u records, %zu bytes)", nrec, len);
	ok(!mcd_msg_parse(w.buf, len, &m) && m.type == MCD_MSG_ANNOUNCE &&
	   m.from == 7 && m.incarnation == 99 && m.count == nrec,
	   "announce parses back");
	mcd_msg_cursor(&m, &c);
	for (i = 0; mcd_next_rec(&c, &r); i++)
		if (r.key.node != 42 || r.key.incarnation != k.incarnation ||
		    r.key.version != k.version || r.key.state != k.state ||
		    r.ngroups != 3 || mcd_rec_group(&r, 2) != grp[2])
			break;
	ok(i == nrec, "every record as written");
	ok(!memcmp(w.buf, "MCD1\x01\x01\x00\x00\x07\x00\x00\x00\x63", 13) &&
	   w.buf[20] == (uint8_t)nrec && w.buf[22] == 42 && w.buf[26] == 8 &&
	   w.buf[33] == 1, "little-endian layout");

	mcd_wbuf_begin(&w, MCD_MSG_DIGEST, 7, 99, 5);
	k.state = MCD_UNKNOWN;
	k.incarnation = k.version = 0;
	for (i = 0; !mcd_wbuf_add_ent(&w, &k); i++)
		;
	len = mcd_wbuf_end(&w);
	ok(i == MCD_DIGEST_MAX && !mcd_msg_parse(w.buf, len, &m) &&
	   m.first == 5 && m.count == MCD_DIGEST_MAX,
	   "digest of %u entries parses back", MCD_DIGEST_MAX);
	mcd_msg_cursor(&m, &c);
	ok(mcd_next_ent(&c, &e) && e.node == 42 && e.state == MCD_UNKNOWN,
	   "digest entry as written");

	mcd_wbuf_begin(&w, MCD_MSG_PULL, 7, 99, 0);
	for (i = 0; !mcd_wbuf_add_node(&w, i); i++)
		;
	len = mcd_wbuf_end(&w);
	ok(len <= MCD_DGRAM_MAX && !mcd_msg_parse(w.buf, len, &m) &&
	   m.count == i, "pull of %u nodes parses back", i);
	mcd_msg_cursor(&m, &c);
	for (i = 0; mcd_next_node(&c, &node) && node == i; i++)
		;
	ok(i == m.count, "pulled nodes as written");

	mcd_wbuf_begin(&w, MCD_MSG_HEARTBEAT, 7, 99, 12345);
	len = mcd_wbuf_end(&w);
	ok(len == 24 && !mcd_msg_parse(w.buf, len, &m) &&
	   m.version == 12345, "heartbeat parses back");
	stats_cases();
}

int main(void)
{
	/* Fixed seeds; MCD_VIEW_SEED=n runs another cluster history. */
	const char *e = getenv("MCD_VIEW_SEED");
	uint64_t x = e ? strtoull(e, NULL, 0) << 20 : 0;

	proto_cases();
	api_cases();
	all_groups();
	fuzz_scenario(x ^ 0xf022);
	forgeries(x ^ 0xf039);
	join_loop(x ^ 0x1001);
	scenario(16, 50, x ^ 0x16050, 30000, 200);
	scenario(16, 200, x ^ 0x16200, 30000, 100);
	scenario(64, 50, x ^ 0x64050, 20000, 200);
	scenario(64, 200, x ^ 0x64200, 15000, 50);
	return done_testing();
}
