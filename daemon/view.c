// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * mcastd's cluster view (see view.h): the records, their merge, liveness
 * (heartbeats to monitors, suspicion, death, refutation) and
 * anti-entropy (digests, pulls).
 *
 * Every public call that changes something ends in commit(), which
 * reports the groups whose member set changed, sends what the call left
 * pending (suspicions and deaths, our own record, welcomes) and
 * recomputes the monitor ring.
 * Callbacks may read the view but must not change it.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "proto.h"
#include "view.h"

#define NONE		UINT32_MAX

struct rec {
	uint32_t node;
	uint32_t version;
	uint64_t inc;
	uint8_t state;		/* enum mcd_state */
	bool watched;		/* we are one of its monitors */
	bool touched;		/* changed in this call (commit()) */
	bool was_member;	/* before this call */
	bool welcome;		/* a new incarnation: send it our record */
	bool push;		/* we suspected it or declared it dead */
	bool mark;		/* roles(), once() */
	uint16_t ngroups;
	uint16_t prev_n;
	uint16_t ia, ib;	/* commit(): cursors into prev_groups, groups */
	uint32_t flip;		/* commit(): the group at the cursors */
	uint32_t *groups;	/* sorted; NULL when none */
	uint32_t *prev_groups;	/* before this call */
	uint64_t last_heard;
	uint64_t quiet_since;	/* suspicion clock: nothing heard since */
	uint64_t suspect_since;
	uint64_t pull_after;	/* rate limits of PULL and of telling it */
	uint64_t tell_after;	/* that we hold it suspect or dead */
	uint64_t ans_bytes;	/* answer budget left (answer_budget()) */
	uint64_t ans_at;	/* when it was last refilled */
};

enum { ANN_NONE, ANN_LIVE, ANN_ALL };

struct mcd_view {
	struct mcd_view_ops ops;
	void *ctx;
	uint32_t hb_ms, suspect_ms, dead_ms, sync_ms;
	uint32_t skew_ms, debounce_ms;
	uint32_t answer_bps;	/* bytes of answers per peer per second */
	uint64_t wall0, mono0;	/* the wall clock at the start, and now_ms */
	/*
	 * Our next version, due at next_bump (one per debounce_ms): a change
	 * of groups (pend) and/or a refutation (own_all: to every node).  It
	 * must be larger than every record of us seen (seen_inc, seen_ver).
	 */
	bool own_dirty, own_all, own_groups;
	uint16_t npend;
	uint32_t *pend;
	uint64_t next_bump;
	uint64_t seen_inc;
	uint32_t seen_ver;
	uint32_t n;		/* configured nodes */
	uint32_t self;		/* our index */
	uint32_t k;		/* monitors per node */
	struct rec *rec;	/* by index, node ids ascending: the ring */
	uint32_t *touched;	/* indices changed in this call */
	uint32_t ntouched;
	uint32_t *heap;		/* commit() */
	uint32_t *scratch;	/* member lists, roles() */
	uint32_t *watch;	/* the nodes we monitor */
	uint32_t nwatch;
	uint32_t *hb;		/* our monitors: heartbeat targets */
	uint32_t nhb;
	bool ring_dirty;
	int announce;		/* ANN_*: our record is to be sent */
	int repeat;		/* ANN_*: and sent again at repeat_at */
	uint64_t repeat_at;
	uint64_t next_hb, next_sync;
	uint32_t sync_pos;	/* first index of the next digest window */
	uint32_t sync_peer;	/* last digest target */
	uint32_t probe_peer;	/* last digest to a node not known alive */
	struct mcd_view_stats st;
	struct mcd_wbuf *tx, *tx2;
};

/* ------------------------------------------------------------ helpers */

static uint32_t find(const struct mcd_view *v, uint32_t node)
{
	uint32_t lo = 0, hi = v->n;

	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (v->rec[mid].node < node)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < v->n && v->rec[lo].node == node ? lo : NONE;
}

static bool has_group(const struct rec *r, uint32_t g)
{
	uint32_t lo = 0, hi = r->ngroups;

	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (r->groups[mid] < g)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < r->ngroups && r->groups[lo] == g;
}

static bool is_member(const struct rec *r)
{
	return r->state == MCD_ALIVE || r->state == MCD_SUSPECT;
}

/* In the ring of monitors: another node that is not dead nor unknown. */
static bool live(const struct mcd_view *v, uint32_t i)
{
	return i != v->self && is_member(&v->rec[i]);
}

static struct mcd_key key_of(const struct rec *r)
{
	struct mcd_key k = {
		.node = r->node, .version = r->version,
		.incarnation = r->inc, .state = r->state,
	};

	return k;
}

static int key_cmp(const struct mcd_key *a, const struct mcd_key *b)
{
	if (a->incarnation != b->incarnation)
		return a->incarnation < b->incarnation ? -1 : 1;
	if (a->version != b->version)
		return a->version < b->version ? -1 : 1;
	if (a->state != b->state)
		return a->state < b->state ? -1 : 1;
	return 0;
}

static uint64_t max_u64(uint64_t a, uint64_t b)
{
	return a > b ? a : b;
}

/* Our wall clock (ms): the incarnation we started with, plus uptime. */
static uint64_t wall(const struct mcd_view *v, uint64_t now)
{
	return v->wall0 + (now > v->mono0 ? now - v->mono0 : 0);
}

/*
 * Whether some node's daemon can have written (@inc, @ver) by now: a life
 * starts at its wall clock and raises its version at most once a ms, and
 * its clock may lead ours by skew_ms (view.h).
 */
static bool key_ok(const struct mcd_view *v, uint64_t inc, uint32_t ver,
		   uint64_t now)
{
	uint64_t lim = wall(v, now) + v->skew_ms;

	return inc && inc <= lim && ver && ver - 1 <= lim - inc;
}

/*
 * Only a monitor declares a suspect dead: it is the one placed to hear
 * the node, and to tell it at each datagram it hears that it is
 * suspected (check_sender()), so a live node refutes long before.  Who
 * raised a suspicion without being a monitor (PEER_DOWN) leaves it to
 * them: they hold the suspicion too, it was pushed to every node.
 */
static bool dying(const struct rec *r)
{
	return r->state == MCD_SUSPECT && r->watched;
}

static uint64_t death_at(const struct mcd_view *v, const struct rec *r)
{
	return r->suspect_since + v->dead_ms;
}

/* ------------------------------------------------------------ sending */

static void send_w(struct mcd_view *v, uint32_t to, struct mcd_wbuf *w)
{
	size_t len = mcd_wbuf_end(w);

	v->ops.send(v->ctx, v->rec[to].node, w->buf, len);
	v->st.tx_dgrams++;
	v->st.tx_bytes += len;
	switch (w->type) {
	case MCD_MSG_ANNOUNCE:
		v->st.announces++;
		break;
	case MCD_MSG_DIGEST:
		v->st.digests++;
		break;
	case MCD_MSG_PULL:
		v->st.pulls++;
		break;
	case MCD_MSG_HEARTBEAT:
		v->st.heartbeats++;
		break;
	}
}

static void begin(struct mcd_view *v, struct mcd_wbuf *w,
		  enum mcd_msg_type type, uint32_t arg)
{
	const struct rec *me = &v->rec[v->self];

	mcd_wbuf_begin(w, type, me->node, me->inc, arg);
}

/* Adds record @i to the ANNOUNCE in @w for @to, sending it when full. */
static void put_rec(struct mcd_view *v, struct mcd_wbuf *w, uint32_t to,
		    uint32_t i)
{
	const struct rec *r = &v->rec[i];
	struct mcd_key k = key_of(r);

	if (!mcd_wbuf_add_rec(w, &k, r->groups, r->ngroups))
		return;
	send_w(v, to, w);
	begin(v, w, MCD_MSG_ANNOUNCE, 0);
	mcd_wbuf_add_rec(w, &k, r->groups, r->ngroups);
}

static void put_pull(struct mcd_view *v, struct mcd_wbuf *w, uint32_t to,
		     uint32_t node)
{
	if (!mcd_wbuf_add_node(w, node))
		return;
	send_w(v, to, w);
	begin(v, w, MCD_MSG_PULL, 0);
	mcd_wbuf_add_node(w, node);
}

static void flush(struct mcd_view *v, struct mcd_wbuf *w, uint32_t to)
{
	if (w->count)
		send_w(v, to, w);
}

/* Record @i alone, to @to. */
static void send_rec(struct mcd_view *v, uint32_t to, uint32_t i)
{
	begin(v, v->tx, MCD_MSG_ANNOUNCE, 0);
	put_rec(v, v->tx, to, i);
	send_w(v, to, v->tx);
}

/* @w to every live node and every node pushed (so it can refute). */
static void broadcast(struct mcd_view *v, struct mcd_wbuf *w)
{
	uint32_t j;

	for (j = 0; j < v->n; j++)
		if (live(v, j) || (v->rec[j].push && j != v->self))
			send_w(v, j, w);
}

/*
 * The suspicions and deaths of this call, in as few datagrams as they
 * fit: when many nodes fall silent together (or we do), that is one
 * datagram per node and tick, not one per node and death.
 */
static void send_pushes(struct mcd_view *v)
{
	struct mcd_wbuf *w = v->tx;
	uint32_t i;

	begin(v, w, MCD_MSG_ANNOUNCE, 0);
	for (i = 0; i < v->ntouched; i++) {
		const struct rec *r = &v->rec[v->touched[i]];
		struct mcd_key k = key_of(r);

		if (!r->push || !mcd_wbuf_add_rec(w, &k, r->groups, r->ngroups))
			continue;
		/* Full: out with it, and the record starts the next one. */
		broadcast(v, w);
		begin(v, w, MCD_MSG_ANNOUNCE, 0);
		mcd_wbuf_add_rec(w, &k, r->groups, r->ngroups);
	}
	if (w->count)
		broadcast(v, w);
	for (i = 0; i < v->ntouched; i++)
		v->rec[v->touched[i]].push = false;
}

/* Our record to every live node, or to every configured one. */
static void announce_self(struct mcd_view *v, bool all)
{
	uint32_t j;

	begin(v, v->tx, MCD_MSG_ANNOUNCE, 0);
	put_rec(v, v->tx, v->self, v->self);
	for (j = 0; j < v->n; j++)
		if (live(v, j) || (all && j != v->self))
			send_w(v, j, v->tx);
}

/* A DIGEST of the @count records from index @first (wrapping). */
static void build_digest(struct mcd_view *v, struct mcd_wbuf *w,
			 uint32_t first, uint32_t count)
{
	uint32_t i, j;

	begin(v, w, MCD_MSG_DIGEST, first);
	for (i = 0, j = first; i < count; i++, j = j + 1 < v->n ? j + 1 : 0) {
		struct mcd_key k = key_of(&v->rec[j]);

		mcd_wbuf_add_ent(w, &k);
	}
}

/* ------------------------------------------------------------ changes */

/* Remembers what @i was a member of before this call changes it. */
static void touch(struct mcd_view *v, uint32_t i)
{
	struct rec *r = &v->rec[i];

	if (r->touched)
		return;
	r->touched = true;
	r->was_member = is_member(r);
	r->prev_groups = r->groups;
	r->prev_n = r->ngroups;
	v->touched[v->ntouched++] = i;
}

/* @g (malloc'd or NULL) replaces @r's groups; touch() came first. */
static void set_groups(struct rec *r, uint32_t *g, uint16_t n)
{
	if (r->groups != r->prev_groups)
		free(r->groups);
	r->groups = g;
	r->ngroups = n;
}

static void set_state(struct mcd_view *v, uint32_t i, enum mcd_state now)
{
	struct rec *r = &v->rec[i];
	enum mcd_state old = r->state;

	if (old == now)
		return;
	r->state = (uint8_t)now;
	v->ring_dirty = true;
	if (v->ops.node_state)
		v->ops.node_state(v->ctx, r->node, old, now);
}

/*
 * Someone holds @k of us, larger than ours: a suspicion (or death) of
 * us, a record of an earlier life with a clock that went back, or a
 * forgery within the clock's bounds.  We win with a record above it,
 * told to everyone (who thinks us dead is likely the one we think dead),
 * at the next version due (apply_own()).  We never take its incarnation
 * or version as ours: a refutation only raises what we must exceed.
 */
static void refute(struct mcd_view *v, const struct mcd_key *k)
{
	if (k->incarnation > v->seen_inc ||
	    (k->incarnation == v->seen_inc && k->version > v->seen_ver)) {
		v->seen_inc = k->incarnation;
		v->seen_ver = k->version;
	}
	v->st.refutations++;
	v->own_dirty = v->own_all = true;
}

/*
 * The key of our next version: above every record of us seen, within
 * what receivers accept by our clock (key_ok()); a version past the
 * bound (or UINT32_MAX) is a new life at the wall clock instead.  False:
 * not yet (a forged record at the bound: a ms later it is not).
 */
static bool next_key(struct mcd_view *v, uint64_t now, uint64_t *inc,
		     uint32_t *ver)
{
	const struct rec *me = &v->rec[v->self];

	if (v->seen_inc > me->inc) {
		*inc = v->seen_inc + 1;
		*ver = 1;
	} else {
		*inc = me->inc;
		*ver = v->seen_ver + 1;	/* 0 past UINT32_MAX */
	}
	if (*ver && key_ok(v, *inc, *ver, now))
		return true;
	*inc = max_u64(wall(v, now), max_u64(me->inc, v->seen_inc) + 1);
	*ver = 1;
	return key_ok(v, *inc, *ver, now);
}

/* Our pending version, when due: the only place our record changes. */
static void apply_own(struct mcd_view *v, uint64_t now)
{
	struct rec *me = &v->rec[v->self];
	uint64_t inc;
	uint32_t ver;

	if (!v->own_dirty || now < v->next_bump)
		return;
	if (!next_key(v, now, &inc, &ver)) {
		v->next_bump = now + 1;
		return;
	}
	touch(v, v->self);
	if (v->own_groups)
		set_groups(me, v->pend, v->npend);
	if (inc != me->inc || v->own_all)
		v->announce = ANN_ALL;
	else if (v->announce == ANN_NONE)
		v->announce = ANN_LIVE;
	me->inc = v->seen_inc = inc;
	me->version = v->seen_ver = ver;
	v->pend = NULL;
	v->npend = 0;
	v->own_dirty = v->own_all = v->own_groups = false;
	v->next_bump = now + v->debounce_ms;
}

static bool same_groups(const struct rec *r, const struct mcd_rec_in *in)
{
	uint32_t i;

	if (r->ngroups != in->ngroups)
		return false;
	for (i = 0; i < in->ngroups; i++)
		if (r->groups[i] != mcd_rec_group(in, i))
			return false;
	return true;
}

/* @in is larger than what we hold of node @i (not us): take it. */
static int adopt(struct mcd_view *v, uint32_t i, const struct mcd_rec_in *in,
		 uint64_t now)
{
	struct rec *r = &v->rec[i];
	const struct mcd_key *k = &in->key;
	bool fresh = k->incarnation > r->inc;
	uint32_t *g = NULL, j;

	touch(v, i);
	if (!same_groups(r, in)) {
		if (in->ngroups) {
			g = malloc(in->ngroups * sizeof(*g));
			if (!g)
				return -ENOMEM;	/* anti-entropy repairs it */
			for (j = 0; j < in->ngroups; j++)
				g[j] = mcd_rec_group(in, j);
		}
		set_groups(r, g, in->ngroups);
	}
	if (k->state == MCD_SUSPECT &&
	    (r->state != MCD_SUSPECT || r->inc != k->incarnation ||
	     r->version != k->version))
		r->suspect_since = now;
	/* A restart, or a refuted suspicion: give it a full suspect_ms. */
	if (k->state == MCD_ALIVE && (fresh || r->state != MCD_ALIVE))
		r->quiet_since = now;
	if (fresh) {
		r->welcome = k->state != MCD_DEAD;
		r->pull_after = 0;
		r->tell_after = 0;
	}
	r->inc = k->incarnation;
	r->version = k->version;
	set_state(v, i, (enum mcd_state)k->state);
	return 0;
}

static void suspect(struct mcd_view *v, uint32_t i, uint64_t now)
{
	struct rec *r = &v->rec[i];

	touch(v, i);
	r->suspect_since = now;
	set_state(v, i, MCD_SUSPECT);
	v->st.suspicions++;
	r->push = true;
}

static void kill(struct mcd_view *v, uint32_t i)
{
	touch(v, i);
	set_state(v, i, MCD_DEAD);
	v->st.deaths++;
	v->rec[i].push = true;
}

/* ------------------------------------------------------------ commit */

/*
 * The member set of group g changed in this call iff some node's
 * membership of g did: g is in the symmetric difference of a touched
 * node's groups before and after (a non-member's count as none).  The
 * touched nodes' differences are merged through a heap, so a call costs
 * O(flips log touched), whatever a datagram holds.
 */
static bool flip_peek(struct rec *r)
{
	const uint32_t *a = r->prev_groups, *b = r->groups;
	uint32_t na = r->was_member ? r->prev_n : 0;
	uint32_t nb = is_member(r) ? r->ngroups : 0;

	while (r->ia < na && r->ib < nb && a[r->ia] == b[r->ib]) {
		r->ia++;
		r->ib++;
	}
	if (r->ia < na && (r->ib >= nb || a[r->ia] < b[r->ib]))
		r->flip = a[r->ia];
	else if (r->ib < nb)
		r->flip = b[r->ib];
	else
		return false;
	return true;
}

static void flip_pop(struct rec *r)
{
	uint32_t na = r->was_member ? r->prev_n : 0;

	if (r->ia < na && r->prev_groups[r->ia] == r->flip)
		r->ia++;
	else
		r->ib++;
}

static void heap_down(struct mcd_view *v, uint32_t n, uint32_t i)
{
	uint32_t *h = v->heap;

	for (;;) {
		uint32_t l = 2 * i + 1, m = i, t;

		if (l < n && v->rec[h[l]].flip < v->rec[h[m]].flip)
			m = l;
		if (l + 1 < n && v->rec[h[l + 1]].flip < v->rec[h[m]].flip)
			m = l + 1;
		if (m == i)
			return;
		t = h[i];
		h[i] = h[m];
		h[m] = t;
		i = m;
	}
}

static void report(struct mcd_view *v, uint32_t g)
{
	uint32_t n = mcd_view_members(v, g, v->scratch, v->n);

	if (v->ops.members)
		v->ops.members(v->ctx, g, v->scratch, n);
}

static void report_groups(struct mcd_view *v)
{
	uint32_t i, n = 0, g;

	for (i = 0; i < v->ntouched; i++) {
		struct rec *r = &v->rec[v->touched[i]];

		r->ia = r->ib = 0;
		if (flip_peek(r))
			v->heap[n++] = v->touched[i];
	}
	for (i = n / 2; i-- > 0;)
		heap_down(v, n, i);
	while (n) {
		g = v->rec[v->heap[0]].flip;
		report(v, g);
		while (n && v->rec[v->heap[0]].flip == g) {
			struct rec *r = &v->rec[v->heap[0]];

			flip_pop(r);
			if (!flip_peek(r))
				v->heap[0] = v->heap[--n];
			heap_down(v, n, 0);
		}
	}
}

/*
 * The ring of live nodes by id: we send heartbeats to the next k of them
 * (our monitors) and so watch the k before us.
 */
static void roles(struct mcd_view *v, uint64_t now)
{
	uint32_t i, steps, nw = 0;

	v->ring_dirty = false;
	for (i = v->self, steps = 1; steps < v->n && nw < v->k; steps++) {
		i = i ? i - 1 : v->n - 1;
		if (live(v, i)) {
			v->rec[i].mark = true;
			v->scratch[nw++] = i;
		}
	}
	for (i = 0; i < v->nwatch; i++)
		if (!v->rec[v->watch[i]].mark)
			v->rec[v->watch[i]].watched = false;
	for (i = 0; i < nw; i++) {
		struct rec *r = &v->rec[v->scratch[i]];

		r->mark = false;
		if (!r->watched) {
			/* Our clocks of it start now. */
			r->watched = true;
			r->quiet_since = max_u64(r->quiet_since, now);
			if (r->state == MCD_SUSPECT)
				r->suspect_since = now;
		}
		v->watch[i] = v->scratch[i];
	}
	v->nwatch = nw;
	v->nhb = 0;
	for (i = v->self, steps = 1; steps < v->n && v->nhb < v->k; steps++) {
		i = i + 1 < v->n ? i + 1 : 0;
		if (live(v, i))
			v->hb[v->nhb++] = i;
	}
}

/*
 * Our record to each node whose new life (a start, a restart) we just
 * learnt of: it knows nobody yet, and this is how it hears of us without
 * waiting for anti-entropy.  A bulk sync, spread over the cluster.
 */
static void send_welcomes(struct mcd_view *v)
{
	bool built = false;
	uint32_t i;

	for (i = 0; i < v->ntouched; i++) {
		uint32_t j = v->touched[i];

		if (!v->rec[j].welcome)
			continue;
		v->rec[j].welcome = false;
		if (v->announce == ANN_ALL)
			continue;
		if (!built) {
			begin(v, v->tx, MCD_MSG_ANNOUNCE, 0);
			put_rec(v, v->tx, j, v->self);
			built = true;
		}
		send_w(v, j, v->tx);
	}
}

static void commit(struct mcd_view *v, uint64_t now)
{
	uint32_t i;

	apply_own(v, now);
	report_groups(v);
	send_pushes(v);
	send_welcomes(v);
	if (v->announce != ANN_NONE) {
		announce_self(v, v->announce == ANN_ALL);
		if (v->announce > v->repeat)
			v->repeat = v->announce;
		v->repeat_at = now + v->hb_ms;
	}
	v->announce = ANN_NONE;
	for (i = 0; i < v->ntouched; i++) {
		struct rec *r = &v->rec[v->touched[i]];

		if (r->prev_groups != r->groups)
			free(r->prev_groups);
		r->prev_groups = NULL;
		r->touched = false;
	}
	v->ntouched = 0;
	if (v->ring_dirty)
		roles(v, now);
}

/* ------------------------------------------------------------ input */

/* Every node a datagram names must be configured. */
static int check_nodes(const struct mcd_view *v, const struct mcd_msg *m)
{
	struct mcd_cursor c;
	struct mcd_rec_in in;
	struct mcd_key k;
	uint32_t node;

	mcd_msg_cursor(m, &c);
	switch (m->type) {
	case MCD_MSG_ANNOUNCE:
		while (mcd_next_rec(&c, &in))
			if (find(v, in.key.node) == NONE)
				return -ENOENT;
		break;
	case MCD_MSG_DIGEST:
		while (mcd_next_ent(&c, &k))
			if (find(v, k.node) == NONE)
				return -ENOENT;
		break;
	case MCD_MSG_PULL:
		while (mcd_next_node(&c, &node))
			if (find(v, node) == NONE)
				return -ENOENT;
		break;
	}
	return 0;
}

/*
 * Whether every key @m carries is one its writer can have written by now
 * (key_ok()), and each record a node sends of itself says ALIVE (nobody
 * else writes its record; nobody suspects itself).  Counts the others.
 */
static int check_keys(struct mcd_view *v, uint32_t from,
		      const struct mcd_msg *m, uint64_t now)
{
	uint32_t bad = 0, ver = m->type == MCD_MSG_HEARTBEAT ? m->version : 1;
	struct mcd_cursor c;
	struct mcd_rec_in in;
	struct mcd_key k;

	if (!key_ok(v, m->incarnation, ver, now))
		bad++;
	mcd_msg_cursor(m, &c);
	if (m->type == MCD_MSG_ANNOUNCE) {
		while (mcd_next_rec(&c, &in))
			bad += !key_ok(v, in.key.incarnation, in.key.version,
				       now) ||
			       (in.key.node == from &&
				in.key.state != MCD_ALIVE);
	} else if (m->type == MCD_MSG_DIGEST) {
		while (mcd_next_ent(&c, &k))
			bad += k.state != MCD_UNKNOWN &&
			       (!key_ok(v, k.incarnation, k.version, now) ||
				(k.node == from && k.state != MCD_ALIVE));
	}
	v->st.bad_records += bad;
	return bad ? -EBADMSG : 0;
}

/*
 * Compares @k with our own record; refutes when @k is larger.  A larger
 * version of this life is one we never wrote: a forgery, counted.
 */
static int own_seen(struct mcd_view *v, const struct mcd_key *k)
{
	const struct rec *r = &v->rec[v->self];
	struct mcd_key me = key_of(r);
	int c = key_cmp(k, &me);

	if (c > 0 && k->incarnation == r->inc && k->version > r->version)
		v->st.bad_records++;
	if (c > 0)
		refute(v, k);
	return c;
}

/*
 * Records: each larger than ours is taken, from whoever relays it, once
 * check_keys() found it within what its node can have written; a
 * forgery of us is outbid (own_seen()).  docs/daemon.md says what a
 * relayed record is worth with and without the cluster key.
 */
static int on_announce(struct mcd_view *v, uint32_t s,
		       const struct mcd_msg *m, uint64_t now)
{
	struct mcd_cursor c;
	struct mcd_rec_in in;
	bool stale = false;
	int rc = 0;

	mcd_msg_cursor(m, &c);
	while (mcd_next_rec(&c, &in)) {
		uint32_t i = find(v, in.key.node);
		struct mcd_key mine = key_of(&v->rec[i]);

		if (i == v->self)
			stale |= own_seen(v, &in.key) < 0;
		else if (key_cmp(&in.key, &mine) > 0 && adopt(v, i, &in, now))
			rc = -ENOMEM;
	}
	/* It holds an old record of us (a stale suspicion?): correct it. */
	if (stale && v->announce != ANN_ALL)
		send_rec(v, s, v->self);
	return rc;
}

/*
 * Whether node @i comes up for the first time in this request: a DIGEST
 * or PULL that repeats a node gets it answered once, so an answer is
 * never more than the records we hold.
 */
static bool once(struct mcd_view *v, uint32_t i, uint32_t *nmarked)
{
	if (v->rec[i].mark)
		return false;
	v->rec[i].mark = true;
	v->scratch[(*nmarked)++] = i;
	return true;
}

static void unmark(struct mcd_view *v, uint32_t nmarked)
{
	while (nmarked)
		v->rec[v->scratch[--nmarked]].mark = false;
}

/*
 * What a DIGEST or PULL may still draw from us (records, in bytes): a
 * token bucket per configured peer of answer_bps, one second's worth at
 * most, so no peer (nor anyone spoofing one without a key) makes us send
 * it, or through it a victim among the nodes, more than that a second.
 * What is cut comes by a later digest; each cut is counted.
 */
static bool answer_budget(struct mcd_view *v, uint32_t s, uint64_t now,
			  size_t need)
{
	struct rec *r = &v->rec[s];

	if (now > r->ans_at) {
		uint64_t dt = now - r->ans_at < 1000 ? now - r->ans_at : 1000;
		uint64_t add = dt * v->answer_bps / 1000;

		r->ans_bytes = r->ans_bytes + add > v->answer_bps ?
			       v->answer_bps : r->ans_bytes + add;
		r->ans_at = now;
	}
	if (r->ans_bytes < need) {
		v->st.answers_cut++;
		return false;
	}
	r->ans_bytes -= need;
	return true;
}

static size_t rec_bytes(const struct rec *r)
{
	return MCD_REC_LEN + 4 * (size_t)r->ngroups;
}

/*
 * A summary of the sender's records: we send back those we hold larger
 * (or it has none of) and pull those it holds larger.
 */
static void on_digest(struct mcd_view *v, uint32_t s, const struct mcd_msg *m,
		      uint64_t now)
{
	struct mcd_cursor c;
	struct mcd_key k;
	uint32_t nmarked = 0;

	begin(v, v->tx, MCD_MSG_ANNOUNCE, 0);
	begin(v, v->tx2, MCD_MSG_PULL, 0);
	mcd_msg_cursor(m, &c);
	while (mcd_next_ent(&c, &k)) {
		uint32_t i = find(v, k.node);
		struct mcd_key mine = key_of(&v->rec[i]);
		int d;

		if (!once(v, i, &nmarked))
			continue;
		d = i == v->self ? own_seen(v, &k) : key_cmp(&k, &mine);
		if (d < 0 && answer_budget(v, s, now, rec_bytes(&v->rec[i])))
			put_rec(v, v->tx, s, i);
		if (d <= 0 || i == v->self)
			continue;
		put_pull(v, v->tx2, s, k.node);
		if (i == s)	/* check_sender() need not pull it again */
			v->rec[s].pull_after = now + v->hb_ms;
	}
	unmark(v, nmarked);
	flush(v, v->tx, s);
	flush(v, v->tx2, s);
}

static void on_pull(struct mcd_view *v, uint32_t s, const struct mcd_msg *m,
		    uint64_t now)
{
	struct mcd_cursor c;
	uint32_t node, nmarked = 0;

	begin(v, v->tx, MCD_MSG_ANNOUNCE, 0);
	mcd_msg_cursor(m, &c);
	while (mcd_next_node(&c, &node)) {
		uint32_t i = find(v, node);

		if (v->rec[i].state != MCD_UNKNOWN && once(v, i, &nmarked) &&
		    answer_budget(v, s, now, rec_bytes(&v->rec[i])))
			put_rec(v, v->tx, s, i);
	}
	unmark(v, nmarked);
	flush(v, v->tx, s);
}

/*
 * What the header says of the sender: a newer life or version than we
 * hold (a lost announce): pull its record.  Alive while we hold it
 * suspect or dead: tell it, so it refutes.  Both at most once per
 * heartbeat period.
 */
static void check_sender(struct mcd_view *v, uint32_t s,
			 const struct mcd_msg *m, uint64_t now)
{
	struct rec *r = &v->rec[s];
	uint32_t ver = m->type == MCD_MSG_HEARTBEAT ? m->version : 0;

	if (m->incarnation > r->inc ||
	    (m->incarnation == r->inc && ver > r->version)) {
		if (now < r->pull_after)
			return;
		r->pull_after = now + v->hb_ms;
		begin(v, v->tx, MCD_MSG_PULL, 0);
		mcd_wbuf_add_node(v->tx, r->node);
		send_w(v, s, v->tx);
	} else if ((r->state == MCD_SUSPECT || r->state == MCD_DEAD) &&
		   (!ver || ver == r->version) && now >= r->tell_after) {
		r->tell_after = now + v->hb_ms;
		send_rec(v, s, s);
	}
}

int mcd_view_input(struct mcd_view *v, uint32_t from, const void *buf,
		   size_t len, uint64_t now_ms)
{
	uint32_t s = find(v, from);
	struct mcd_msg m;
	int rc;

	v->st.rx_dgrams++;
	v->st.rx_bytes += len;
	if (s == NONE)
		rc = -ENOENT;
	else if (mcd_msg_parse(buf, len, &m) || m.from != from)
		rc = -EBADMSG;
	else
		rc = check_nodes(v, &m);
	if (!rc)
		rc = check_keys(v, from, &m, now_ms);
	if (rc) {
		v->st.rx_bad++;
		return rc;
	}
	if (s == v->self)	/* our own echo */
		return 0;
	/*
	 * A late datagram of an earlier life, or we hold a later life of it
	 * than its own (a forgery within the bounds): ignored, but it hears
	 * what we hold, so that it outbids the forgery.
	 */
	if (m.incarnation < v->rec[s].inc) {
		if (now_ms >= v->rec[s].tell_after) {
			v->rec[s].tell_after = now_ms + v->hb_ms;
			send_rec(v, s, s);
		}
		return 0;
	}
	v->rec[s].last_heard = now_ms;
	v->rec[s].quiet_since = now_ms;
	switch (m.type) {
	case MCD_MSG_ANNOUNCE:
		rc = on_announce(v, s, &m, now_ms);
		break;
	case MCD_MSG_DIGEST:
		on_digest(v, s, &m, now_ms);
		break;
	case MCD_MSG_PULL:
		on_pull(v, s, &m, now_ms);
		break;
	}
	check_sender(v, s, &m, now_ms);
	commit(v, now_ms);
	return rc;
}

/* ------------------------------------------------------------ timers */

static uint32_t next_peer(const struct mcd_view *v, uint32_t *cursor,
			  bool want_live)
{
	uint32_t i = *cursor, steps;

	for (steps = 0; steps < v->n; steps++) {
		i = i + 1 < v->n ? i + 1 : 0;
		if (i != v->self && live(v, i) == want_live) {
			*cursor = i;
			return i;
		}
	}
	return NONE;
}

/*
 * One digest of the next window to the next live node.  And a digest of
 * our own record alone to the next node we hold dead or never heard of:
 * if it is up, it tells us it holds us dead (we refute, to everyone) or
 * pulls us.  That is how the two sides of a healed partition, or a node
 * that came up unheard, find each other; it is only our own record so
 * the answer does not carry the other side's tombstones of our side.
 */
static void anti_entropy(struct mcd_view *v)
{
	uint32_t to = next_peer(v, &v->sync_peer, true);
	uint32_t probe = next_peer(v, &v->probe_peer, false);
	uint32_t count = v->n < MCD_DIGEST_MAX ? v->n : MCD_DIGEST_MAX;

	if (to != NONE) {
		build_digest(v, v->tx, v->sync_pos, count);
		send_w(v, to, v->tx);
		v->sync_pos = (v->sync_pos + count) % v->n;
	}
	if (probe != NONE) {
		build_digest(v, v->tx, v->self, 1);
		send_w(v, probe, v->tx);
	}
}

static void heartbeats(struct mcd_view *v)
{
	uint32_t i;

	if (!v->nhb)
		return;
	begin(v, v->tx, MCD_MSG_HEARTBEAT, v->rec[v->self].version);
	for (i = 0; i < v->nhb; i++)
		send_w(v, v->hb[i], v->tx);
}

/* Suspicions and deaths that are due; whether there were any. */
static bool timers(struct mcd_view *v, uint64_t now)
{
	bool any = false;
	uint32_t i;

	for (i = 0; i < v->nwatch; i++) {
		const struct rec *r = &v->rec[v->watch[i]];

		if (r->state == MCD_ALIVE &&
		    now >= r->quiet_since + v->suspect_ms) {
			suspect(v, v->watch[i], now);
			any = true;
		}
	}
	for (i = 0; i < v->n; i++) {
		if (dying(&v->rec[i]) && now >= death_at(v, &v->rec[i])) {
			kill(v, i);
			any = true;
		}
	}
	return any;
}

void mcd_view_tick(struct mcd_view *v, uint64_t now_ms)
{
	if (now_ms >= v->next_hb) {
		heartbeats(v);
		v->next_hb = now_ms + v->hb_ms;
	}
	if (now_ms >= v->next_sync) {
		anti_entropy(v);
		v->next_sync = now_ms + v->sync_ms;
	}
	/*
	 * A change of ours is pushed twice, a heartbeat period apart: a node
	 * that lost both (loss squared) waits for a digest.
	 */
	if (v->repeat != ANN_NONE && now_ms >= v->repeat_at) {
		announce_self(v, v->repeat == ANN_ALL);
		v->repeat = ANN_NONE;
	}
	/*
	 * A death changes the ring, and we may then watch a suspect whose
	 * time is up already.  Each pass raises a state, so this ends.
	 */
	commit(v, now_ms);
	while (timers(v, now_ms))
		commit(v, now_ms);
}

uint64_t mcd_view_next(const struct mcd_view *v)
{
	uint64_t t = v->next_hb < v->next_sync ? v->next_hb : v->next_sync;
	uint32_t i;

	if (v->repeat != ANN_NONE && v->repeat_at < t)
		t = v->repeat_at;
	if (v->own_dirty && v->next_bump < t)
		t = v->next_bump;
	for (i = 0; i < v->nwatch; i++) {
		const struct rec *r = &v->rec[v->watch[i]];

		if (r->state == MCD_ALIVE && r->quiet_since + v->suspect_ms < t)
			t = r->quiet_since + v->suspect_ms;
	}
	for (i = 0; i < v->n; i++)
		if (dying(&v->rec[i]) && death_at(v, &v->rec[i]) < t)
			t = death_at(v, &v->rec[i]);
	return t;
}

void mcd_view_peer_down(struct mcd_view *v, uint32_t node, uint64_t now_ms)
{
	uint32_t i = find(v, node);

	if (i == NONE || i == v->self)
		return;
	if (v->rec[i].state == MCD_ALIVE)
		suspect(v, i, now_ms);
	commit(v, now_ms);
}

/* ------------------------------------------------------------ local */

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

/*
 * @groups (any order, repeats dropped) sorted into a new array *@out of
 * *@m ids (NULL when none).
 */
static int norm_groups(const uint32_t *groups, uint32_t n, uint32_t **out,
		       uint32_t *m)
{
	uint32_t *g = NULL, i;

	*m = 0;
	for (i = 0; i < n; i++)
		if (!groups[i])
			return -EINVAL;
	if (n) {
		g = malloc((size_t)n * sizeof(*g));
		if (!g)
			return -ENOMEM;
		memcpy(g, groups, (size_t)n * sizeof(*g));
		qsort(g, n, sizeof(*g), cmp_u32);
		for (i = 0; i < n; i++)
			if (!*m || g[*m - 1] != g[i])
				g[(*m)++] = g[i];
	}
	if (*m > MCD_MAX_GROUPS) {
		free(g);
		return -E2BIG;
	}
	*out = g;
	return 0;
}

static bool same_set(const uint32_t *a, uint32_t na, const uint32_t *b,
		     uint32_t nb)
{
	return na == nb && (!na || !memcmp(a, b, na * sizeof(*a)));
}

/*
 * The set becomes our next version (apply_own()), at once when none was
 * made in the last debounce_ms, else then: a join/leave loop costs one
 * announce per debounce_ms, and one that ends where it began none.
 */
int mcd_view_set_local(struct mcd_view *v, const uint32_t *groups,
		       uint32_t n, uint64_t now_ms)
{
	struct rec *me = &v->rec[v->self];
	uint32_t *g = NULL, m;
	int err = norm_groups(groups, n, &g, &m);

	if (err)
		return err;
	if (v->own_groups ? same_set(g, m, v->pend, v->npend) :
			    same_set(g, m, me->groups, me->ngroups)) {
		free(g);
		return 0;
	}
	free(v->pend);
	v->pend = NULL;
	v->npend = 0;
	v->own_groups = !same_set(g, m, me->groups, me->ngroups);
	if (v->own_groups) {
		v->pend = g;
		v->npend = (uint16_t)m;
	} else {
		free(g);
	}
	v->own_dirty = v->own_groups || v->own_all;
	commit(v, now_ms);
	return 0;
}

/* ------------------------------------------------------------ life */

static uint32_t ceil_sqrt(uint32_t x)
{
	uint32_t r = 0;

	while (r * r < x)
		r++;
	return r;
}

static bool cfg_ok(const struct mcd_view_cfg *cfg,
		   const struct mcd_view_ops *ops)
{
	return cfg && ops && ops->send && cfg->nodes && cfg->nnodes &&
	       cfg->nnodes <= MCD_MAX_NODES && cfg->incarnation &&
	       cfg->incarnation < UINT64_MAX / 2 &&
	       cfg->heartbeat_ms && cfg->suspect_ms && cfg->dead_ms &&
	       cfg->sync_ms;
}

static struct mcd_view *alloc_view(uint32_t n)
{
	struct mcd_view *v = calloc(1, sizeof(*v));

	if (!v)
		return NULL;
	v->n = n;
	v->rec = calloc(n, sizeof(*v->rec));
	v->touched = calloc(n, sizeof(uint32_t));
	v->heap = calloc(n, sizeof(uint32_t));
	v->scratch = calloc(n, sizeof(uint32_t));
	v->watch = calloc(n, sizeof(uint32_t));
	v->hb = calloc(n, sizeof(uint32_t));
	v->tx = malloc(sizeof(*v->tx));
	v->tx2 = malloc(sizeof(*v->tx2));
	if (!v->rec || !v->touched || !v->heap || !v->scratch || !v->watch ||
	    !v->hb || !v->tx || !v->tx2) {
		mcd_view_free(v);
		return NULL;
	}
	return v;
}

/* Sorted ids into the records; false on a duplicate or a missing self. */
static bool set_ids(struct mcd_view *v, const struct mcd_view_cfg *cfg)
{
	uint32_t *ids = v->scratch, i;

	memcpy(ids, cfg->nodes, v->n * sizeof(*ids));
	qsort(ids, v->n, sizeof(*ids), cmp_u32);
	for (i = 0; i < v->n; i++) {
		if (i && ids[i] == ids[i - 1])
			return false;
		v->rec[i].node = ids[i];
	}
	v->self = find(v, cfg->self);
	return v->self != NONE;
}

/* A new life: tell everyone, and learn the view from the next node. */
static void start(struct mcd_view *v, uint64_t now)
{
	uint32_t next = v->self + 1 < v->n ? v->self + 1 : 0;
	uint32_t pos, count;

	touch(v, v->self);
	set_state(v, v->self, MCD_ALIVE);
	announce_self(v, true);
	if (next != v->self) {
		for (pos = 0; pos < v->n; pos += count) {
			count = v->n - pos;
			if (count > MCD_DIGEST_MAX)
				count = MCD_DIGEST_MAX;
			build_digest(v, v->tx, pos, count);
			send_w(v, next, v->tx);
		}
	}
	commit(v, now);
}

struct mcd_view *mcd_view_new(const struct mcd_view_cfg *cfg,
			      const struct mcd_view_ops *ops, void *ctx,
			      uint64_t now_ms)
{
	struct mcd_view *v;
	uint32_t *g = NULL, m;
	struct rec *me;

	if (!cfg_ok(cfg, ops))
		return NULL;
	v = alloc_view(cfg->nnodes);
	if (!v)
		return NULL;
	if (!set_ids(v, cfg)) {
		mcd_view_free(v);
		return NULL;
	}
	v->ops = *ops;
	v->ctx = ctx;
	v->hb_ms = cfg->heartbeat_ms;
	v->suspect_ms = cfg->suspect_ms;
	v->dead_ms = cfg->dead_ms;
	v->sync_ms = cfg->sync_ms;
	v->skew_ms = cfg->skew_ms ? cfg->skew_ms : MCD_SKEW_MS;
	v->debounce_ms = cfg->debounce_ms ? cfg->debounce_ms : MCD_DEBOUNCE_MS;
	v->answer_bps = cfg->answer_bps ? cfg->answer_bps : MCD_ANSWER_BPS;
	v->wall0 = cfg->incarnation;
	v->mono0 = now_ms;
	v->next_bump = now_ms;
	v->k = cfg->monitors ? cfg->monitors : ceil_sqrt(v->n - 1);
	if (!v->k)
		v->k = 1;
	if (v->k > v->n - 1)
		v->k = v->n - 1;
	v->sync_peer = v->probe_peer = v->self;
	v->next_hb = now_ms + v->hb_ms;
	v->next_sync = now_ms + v->sync_ms;
	me = &v->rec[v->self];
	me->inc = v->seen_inc = cfg->incarnation;
	me->version = v->seen_ver = 1;
	me->last_heard = now_ms;
	/*
	 * The groups joined here go out in the first announce: a restarted
	 * daemon announcing none would drop this node from its groups on
	 * every node until its next version (sends to them would skip it).
	 */
	if (norm_groups(cfg->groups, cfg->ngroups, &g, &m)) {
		mcd_view_free(v);
		return NULL;
	}
	me->groups = g;
	me->ngroups = (uint16_t)m;
	start(v, now_ms);
	return v;
}

void mcd_view_free(struct mcd_view *v)
{
	uint32_t i;

	if (!v)
		return;
	for (i = 0; v->rec && i < v->n; i++)
		free(v->rec[i].groups);
	free(v->rec);
	free(v->touched);
	free(v->heap);
	free(v->scratch);
	free(v->watch);
	free(v->hb);
	free(v->tx);
	free(v->tx2);
	free(v->pend);
	free(v);
}

/* ------------------------------------------------------------ reading */

int mcd_view_node(const struct mcd_view *v, uint32_t node,
		  struct mcd_node_info *out)
{
	uint32_t i = find(v, node);
	const struct rec *r;

	if (i == NONE)
		return -ENOENT;
	r = &v->rec[i];
	out->node = r->node;
	out->state = (enum mcd_state)r->state;
	out->incarnation = r->inc;
	out->version = r->version;
	out->last_heard_ms = r->last_heard;
	out->ngroups = r->ngroups;
	out->groups = r->groups;
	return 0;
}

/*
 * The smallest group above the last one, over every member's groups, as
 * many times as asked: O(out x nodes x log groups), no memory; for
 * mcastctl and the tests, not a hot path.
 */
uint32_t mcd_view_groups(const struct mcd_view *v, uint32_t *groups,
			 uint32_t max)
{
	uint32_t cnt = 0, last = 0, i;

	while (cnt < max) {
		uint64_t best = UINT64_MAX;

		for (i = 0; i < v->n; i++) {
			const struct rec *r = &v->rec[i];
			uint32_t lo = 0, hi = r->ngroups;

			if (!is_member(r))
				continue;
			while (lo < hi) {
				uint32_t mid = lo + (hi - lo) / 2;

				if (r->groups[mid] <= last)
					lo = mid + 1;
				else
					hi = mid;
			}
			if (lo < r->ngroups && r->groups[lo] < best)
				best = r->groups[lo];
		}
		if (best == UINT64_MAX)
			break;
		groups[cnt++] = last = (uint32_t)best;
	}
	return cnt;
}

uint32_t mcd_view_members(const struct mcd_view *v, uint32_t group,
			  uint32_t *nodes, uint32_t max)
{
	uint32_t cnt = 0, i;

	for (i = 0; i < v->n && cnt < max; i++)
		if (is_member(&v->rec[i]) && has_group(&v->rec[i], group))
			nodes[cnt++] = v->rec[i].node;
	return cnt;
}

bool mcd_view_inc_ok(const struct mcd_view *v, uint64_t incarnation,
		     uint64_t now_ms)
{
	return key_ok(v, incarnation, 1, now_ms);
}

void mcd_view_stats(const struct mcd_view *v, struct mcd_view_stats *s)
{
	*s = v->st;
}
