// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The simulated IR fabric (plan/fabric.c): virtual latency against the
 * closed form, each worm's channels against R_UTPR, Thm 6.1 at run time
 * (a multicast alone on the fabric never waits), every node multicasting
 * at once without deadlock or an acquisition out of the three-tier order,
 * a wrap-around pattern on one channel set that must deadlock, the fault
 * knobs, and input validation.
 */
#include "tsched.h"
#include "fabric_mcast.h"

/* ---------------- a fabric with recording callbacks ---------------- */

#define MAXDEL 65536

struct rec {
	u32 nodes;
	u32 *got;		/* deliveries per node */
	u64 *at;		/* time of the last one */
	u32 *worm_of;		/* cookie of the worm that brought it */
	u32 missed;
	u32 ndone, nfail;
	int last_err;
	u32 last_delivered;
	u32 alarms;
	u32 hops;		/* hop callbacks */
	u32 *trace;		/* channels of worm 0 (cookie 0) */
	u32 ntrace;
	/* multicast runs: worms tagged i + 1 belong to runs[i] */
	struct mc_fab_mcast *runs;
	u32 nruns;
};

static void rec_deliver(void *ctx, struct mc_fabric *f, u32 w, u32 i,
			enum mc_fab_copy copy, u64 t)
{
	struct rec *r = ctx;
	u32 node = f->worm[w].dest[i], tag = mc_fab_mcast_tag(f, w);

	if (tag && tag <= r->nruns)
		mc_fab_mcast_deliver(f, &r->runs[tag - 1], w, i, copy, t);
	if (copy != MC_FAB_COPY_OK) {
		r->missed++;
		return;
	}
	r->got[node]++;
	r->at[node] = t;
	r->worm_of[node] = (u32)f->worm[w].cookie;
}

static void rec_done(void *ctx, struct mc_fabric *f, u32 w, int err, u64 t)
{
	struct rec *r = ctx;
	u32 tag = mc_fab_mcast_tag(f, w);

	(void)t;
	if (tag && tag <= r->nruns)
		mc_fab_mcast_done(f, &r->runs[tag - 1], w, err);
	if (err)
		r->nfail++;
	else
		r->ndone++;
	r->last_err = err;
	r->last_delivered = f->worm[w].delivered;
}

static void rec_hop(void *ctx, struct mc_fabric *f, u32 w, u32 chan, u64 t)
{
	struct rec *r = ctx;

	(void)t;
	r->hops++;
	if (f->worm[w].cookie == 0 && r->trace && r->ntrace < 4096)
		r->trace[r->ntrace++] = chan;
}

static void rec_alarm(void *ctx, struct mc_fabric *f, u32 w, int err,
		      const char *what)
{
	struct rec *r = ctx;

	(void)f;
	if (r->alarms++ < 3)
		diag("alarm on worm %u: %s (%d)", w, what, err);
}

static const struct mc_fab_ops rec_ops = {
	.deliver = rec_deliver,
	.done = rec_done,
	.hop = rec_hop,
	.alarm = rec_alarm,
};

struct fab {
	struct mc_fabric f;
	struct rec r;
};

static struct mc_fab_cfg cfg_std(void)
{
	return (struct mc_fab_cfg){
		.vc_sets = 2, .ports = 0, .buffer_flits = 2,
		.tau_s = 95000, .tau_r = 75000, .tau_n = 500,
		.max_worms = 4096,
	};
}

static void fab_make(struct fab *x, const struct mc_torus *t,
		     const struct mc_fab_cfg *cfg)
{
	const char *why = NULL;
	int rc;

	memset(x, 0, sizeof(*x));
	x->r.nodes = t->nodes;
	x->r.got = xcalloc(t->nodes, sizeof(u32));
	x->r.at = xcalloc(t->nodes, sizeof(u64));
	x->r.worm_of = xcalloc(t->nodes, sizeof(u32));
	x->r.trace = xcalloc(4096, sizeof(u32));
	rc = mc_fab_init(&x->f, t, cfg,
			 xcalloc(mc_fab_channels(t, cfg->vc_sets),
				 sizeof(struct mc_fab_chan)),
			 xcalloc(t->nodes, sizeof(struct mc_fab_node)),
			 xcalloc(cfg->max_worms, sizeof(struct mc_fab_worm)),
			 &rec_ops, &x->r, &why);
	if (rc) {
		printf("Bail out! mc_fab_init: %s\n", why ? why : "?");
		exit(2);
	}
}

static void fab_free(struct fab *x)
{
	free(x->f.chan);
	free(x->f.node);
	free(x->f.worm);
	free(x->r.got);
	free(x->r.at);
	free(x->r.worm_of);
	free(x->r.trace);
}

/* Send a worm with a path of its own (freed by the caller at the end). */
static int send_worm(struct fab *x, u32 src, const u32 *dest, u32 ndest,
		     u32 flits, u64 t, u64 cookie, struct mc_fab_hop **pathp)
{
	const char *why = NULL;
	u32 np = mc_fab_path_len(&x->f.t, src, dest, ndest, &why);
	struct mc_fab_hop *path;
	int w;

	if (!np) {
		diag("path: %s", why);
		return -EINVAL;
	}
	path = xcalloc(np, sizeof(*path));
	w = mc_fab_send(&x->f, src, dest, ndest, flits, path, np, t, cookie,
			&why);
	if (w < 0) {
		diag("send: %s", why);
		free(path);
		return w;
	}
	*pathp = path;
	return w;
}

/* ---------------- closed form and trace on Fig 5.7 ---------------- */

static void test_closed_form(void)
{
	static const int dst[][2] = { {0, 5}, {4, 5}, {3, 4}, {5, 4}, {4, 3},
				      {1, 2}, {2, 1}, {5, 1}, {1, 0} };
	static const u32 lens[] = { 1, 8, 512, 16384 };
	struct mc_torus t;
	struct mc_fab_cfg cfg = cfg_std();
	u32 nodes[10], n = 0, src, i, li;
	struct mc_chain c;
	const char *why = NULL;

	mk_regular(&t, 2, 6, MC_LINKS_UNI);
	src = T2(&t, 3, 2);
	nodes[n++] = src;
	for (i = 0; i < 9; i++)
		nodes[n++] = T2(&t, dst[i][0], dst[i][1]);
	mc_chain_sort(&t, MC_ORDER_HAM, nodes, n, &why);
	mc_chain_rotate(&t, MC_ORDER_HAM, nodes, n, src, &c);
	for (li = 0; li < 4; li++) {
		struct fab x;
		struct mc_fab_hop *path = NULL;
		u32 list[9], hops = 0, prev = src, bad = 0, badtrace = 0, j;
		u8 alpha = MC_VC_P;
		struct mc_hop hop;

		for (i = 0; i < 9; i++)
			list[i] = mc_chain_at(&c, i + 1);
		for (cfg.buffer_flits = 1; cfg.buffer_flits <= 4;
		     cfg.buffer_flits += 3) {
			alpha = MC_VC_P;
			fab_make(&x, &t, &cfg);
			send_worm(&x, src, list, 9, lens[li], 1000, 0, &path);
			mc_fab_run(&x.f, U64_MAX);
			hops = 0;
			prev = src;
			bad = 0;
			for (i = 0; i < 9; i++) {
				u64 want;

				hops += mc_distance(&t, prev, list[i]);
				prev = list[i];
				want = 1000 + cfg.tau_s +
				       (u64)(hops + lens[li]) * cfg.tau_n +
				       cfg.tau_r;
				if (x.r.got[list[i]] != 1 ||
				    x.r.at[list[i]] != want) {
					if (!bad++)
						diag("dest %u: got %u at %llu, want %llu",
						     i, x.r.got[list[i]],
						     (unsigned long long)x.r.at[list[i]],
						     (unsigned long long)want);
				}
			}
			ok(!bad && x.r.ndone == 1 && !x.f.st.blocked_ns,
			   "Fig 5.7 worm, %u flits, B=%u: every destination at tau_s + (h + L) tau_n + tau_r",
			   lens[li], cfg.buffer_flits);
			/* the trace is R_UTPR through the H-cycle */
			prev = src;
			j = 0;
			badtrace = 0;
			for (i = 0; i < 9; i++) {
				while (mc_route_next(&t, MC_ROUTE_UTPR, prev,
						     list[i], &alpha, &hop)) {
					if (j >= x.r.ntrace ||
					    x.r.trace[j] != mc_fab_chan_of(&x.f,
						prev, hop.dim, hop.vc))
						badtrace++;
					j++;
					prev = hop.to;
				}
			}
			ok(!badtrace && j == x.r.ntrace && !x.f.st.lambda_violations &&
			   !x.f.st.boundary_violations && x.f.st.ir_copies == 8,
			   "Fig 5.7 worm, %u flits, B=%u: %u channels as R_UTPR takes them, in the three-tier order, 8 IR copies",
			   lens[li], cfg.buffer_flits, x.r.ntrace);
			free(path);
			fab_free(&x);
		}
	}
}

/* ---------------- planned multicasts on the fabric ---------------- */

static void run_alloc(struct mc_fab_mcast *mm, const struct mc_schedule *s,
		      u32 flits, u32 tag)
{
	mm->list = xcalloc(s->ndest + 1, sizeof(u32));
	mm->hops = xcalloc(mc_fab_mcast_hops(s->t, s) + 1,
			   sizeof(struct mc_fab_hop));
	mm->hop_off = xcalloc(s->nmsg + 1, sizeof(u32));
	mm->first_msg = xcalloc(s->m, sizeof(u32));
	mm->next_msg = xcalloc(s->nmsg + 1, sizeof(u32));
	mm->copies = xcalloc(s->m, sizeof(u32));
	mm->via = xcalloc(s->m, sizeof(u32));
	mm->t_recv = xcalloc(s->m, sizeof(u64));
	mc_fab_mcast_init(mm, s, flits, tag);
}

static void run_free(struct mc_fab_mcast *mm)
{
	free(mm->list);
	free(mm->hops);
	free(mm->hop_off);
	free(mm->first_msg);
	free(mm->next_msg);
	free(mm->copies);
	free(mm->via);
	free(mm->t_recv);
}

/* Every destination of the run got exactly one copy, from the plan's
 * message, and the source none. */
static bool run_exact(const struct mc_fab_mcast *mm, const char *what)
{
	const struct mc_schedule *s = mm->s;
	u32 i, m, bad = 0;

	for (m = 0; m < s->nmsg; m++) {
		for (i = 0; i < s->msg[m].count; i++) {
			u32 pos = s->dest[s->msg[m].first + i].pos;

			if (mm->copies[pos] != 1 || mm->via[pos] != m) {
				if (!bad++)
					diag("%s: position %u got %u (message %u, want %u)",
					     what, pos, mm->copies[pos],
					     mm->via[pos], m);
			}
		}
	}
	return !bad && !mm->send_errors && !mm->copies[0] &&
	       mm->received == s->ndest;
}

static const struct {
	enum mc_algo a;
	u32 r;
	const char *name;
} algos[] = {
	{ MC_ALGO_STORUS, 0, "s-torus" },
	{ MC_ALGO_MDTORUS, 0, "md-torus" },
	{ MC_ALGO_MUTORUS, 2, "mu-torus(2)" },
	{ MC_ALGO_MUTORUS, 4, "mu-torus(4)" },
	{ MC_ALGO_MUTORUS, 8, "mu-torus(8)" },
};

static int plan_random(struct sbuf *b, const struct mc_torus *t,
		       enum mc_algo a, u32 r, struct rng *rng, u32 ndst,
		       u32 *src)
{
	u32 *pick = xcalloc(ndst + 1, sizeof(u32));
	const char *why = NULL;
	int rc;

	rng_subset(rng, t->nodes, ndst + 1, pick);
	*src = pick[0];
	rc = mc_plan(&b->s, t, a, r, pick[0], pick + 1, ndst, &why);
	if (rc)
		diag("mc_plan: %s", why ? why : "?");
	free(pick);
	return rc;
}

/* Thm 6.1 at run time: one multicast alone on the fabric never waits. */
static void test_single_multicast(void)
{
	static const struct { unsigned int n, k; } shapes[] = {
		{ 2, 4 }, { 2, 6 }, { 3, 4 }, { 2, 8 },
	};
	struct rng rng = { 61 };
	unsigned int si, ai, trial;

	for (si = 0; si < 4; si++) {
		struct mc_torus t;

		mk_regular(&t, shapes[si].n, shapes[si].k, MC_LINKS_UNI);
		for (ai = 0; ai < 5; ai++) {
			u32 bad = 0, blocked = 0, order = 0, trials = 40;

			for (trial = 0; trial < trials; trial++) {
				struct mc_fab_cfg cfg = cfg_std();
				struct sbuf b;
				struct fab x;
				struct mc_fab_mcast d;
				u32 src, ndst = 1 + rng_below(&rng, t.nodes - 1);
				u32 flits = trial % 3 == 0 ? 8 :
					    trial % 3 == 1 ? 64 : 300;

				cfg.buffer_flits = 1 + trial % 4;
				sbuf_init(&b, t.nodes);
				if (plan_random(&b, &t, algos[ai].a, algos[ai].r,
						&rng, ndst, &src)) {
					bad++;
					sbuf_free(&b);
					continue;
				}
				fab_make(&x, &t, &cfg);
				run_alloc(&d, &b.s, flits, 1);
				x.r.runs = &d;
				x.r.nruns = 1;
				mc_fab_mcast_start(&x.f, &d, 0);
				mc_fab_run(&x.f, U64_MAX);
				if (!run_exact(&d, algos[ai].name) ||
				    x.f.active || x.r.nfail)
					bad++;
				if (x.f.st.blocked_ns && !blocked++)
					diag("%s: %u destinations, %u flits: blocked %llu ns",
					     algos[ai].name, ndst, flits,
					     (unsigned long long)x.f.st.blocked_ns);
				if (x.f.st.lambda_violations ||
				    x.f.st.boundary_violations)
					order++;
				run_free(&d);
				fab_free(&x);
				sbuf_free(&b);
			}
			ok(!bad, "%s on %s: %u random multicasts, every destination once, from the plan's worm",
			   algos[ai].name, shape_str(&t), trials);
			ok(!blocked && !order,
			   "%s on %s: alone on the fabric no worm ever waits (Thm 6.1) and every acquisition is in order",
			   algos[ai].name, shape_str(&t));
		}
	}
}

/* Every node multicasts at once: no deadlock, order holds, all arrive. */
static void test_all_senders(void)
{
	static const struct { unsigned int n, k; } shapes[] = {
		{ 2, 4 }, { 2, 6 }, { 3, 4 },
	};
	struct rng rng = { 62 };
	unsigned int si, ai;

	for (si = 0; si < 3; si++) {
		struct mc_torus t;

		mk_regular(&t, shapes[si].n, shapes[si].k, MC_LINKS_UNI);
		for (ai = 0; ai < 5; ai++) {
			struct mc_fab_cfg cfg = cfg_std();
			struct sbuf *b = xcalloc(t.nodes, sizeof(*b));
			struct mc_fab_mcast *d = xcalloc(t.nodes, sizeof(*d));
			struct fab x;
			u32 u, src, bad = 0;

			cfg.buffer_flits = 2;
			cfg.ports = 0;
			cfg.tau_s = 1000;
			cfg.tau_r = 800;
			fab_make(&x, &t, &cfg);
			x.r.runs = d;
			x.r.nruns = t.nodes;
			for (u = 0; u < t.nodes; u++) {
				u32 ndst = 1 + rng_below(&rng, t.nodes - 1);

				sbuf_init(&b[u], t.nodes);
				if (plan_random(&b[u], &t, algos[ai].a,
						algos[ai].r, &rng, ndst, &src))
					bad++;
				run_alloc(&d[u], &b[u].s,
					  20 + rng_below(&rng, 200), u + 1);
			}
			for (u = 0; u < t.nodes; u++)
				mc_fab_mcast_start(&x.f, &d[u], 0);
			mc_fab_run(&x.f, U64_MAX);
			for (u = 0; u < t.nodes; u++)
				if (!run_exact(&d[u], algos[ai].name))
					bad++;
			ok(!bad && !x.f.active && !x.r.nfail,
			   "%s on %s, every node multicasting at once: every copy once, from the plan's worm",
			   algos[ai].name, shape_str(&t));
			ok(!x.f.st.deadlocks && !x.f.st.lambda_violations &&
			   !x.f.st.boundary_violations && x.f.st.blocked_ns,
			   "%s on %s, every node at once: worms waited (%llu ns) but no deadlock and no acquisition out of order",
			   algos[ai].name, shape_str(&t),
			   (unsigned long long)x.f.st.blocked_ns);
			for (u = 0; u < t.nodes; u++) {
				run_free(&d[u]);
				sbuf_free(&b[u]);
			}
			free(b);
			free(d);
			fab_free(&x);
		}
	}
}


/* One channel set and a wrap-around ring of worms: the theory says it can
 * deadlock, and the detector must see it; R_UTPR's two sets do not. */
static void test_deadlock(void)
{
	struct mc_torus t;
	unsigned int sets;

	mk_regular(&t, 2, 4, MC_LINKS_UNI);
	for (sets = 1; sets <= 2; sets++) {
		struct mc_fab_cfg cfg = cfg_std();
		struct mc_fab_hop *path[4];
		u32 dst[4], i;
		struct fab x;

		cfg.vc_sets = (u8)sets;
		cfg.buffer_flits = 1;
		cfg.tau_s = 0;
		fab_make(&x, &t, &cfg);
		for (i = 0; i < 4; i++) {
			dst[i] = T2(&t, 0, (i + 3) % 4);
			send_worm(&x, T2(&t, 0, i), &dst[i], 1, 100, 0, i,
				  &path[i]);
		}
		mc_fab_run(&x.f, U64_MAX);
		if (sets == 1)
			/* ending worm 0 frees link 0 to worm 3, and the
			 * three left close the ring again: two deadlocks */
			ok(x.f.st.deadlocks == 2 && x.r.nfail == 2 &&
			   x.r.ndone == 2 && x.r.alarms == 7 && !x.f.active,
			   "one channel set, four worms around a ring: the detector finds the deadlock, then the one the three left make (%llu), ends one worm each time, the others arrive",
			   (unsigned long long)x.f.st.deadlocks);
		else
			ok(!x.f.st.deadlocks && x.r.ndone == 4 &&
			   !x.f.st.lambda_violations,
			   "R_UTPR's p and h sets, the same four worms: no deadlock, all four arrive");
		for (i = 0; i < 4; i++)
			free(path[i]);
		fab_free(&x);
	}
}

/* Two worms on one physical link over different virtual channels share
 * its bandwidth: neither waits for a channel, the link carries both. */
static void test_vc_sharing(void)
{
	struct mc_torus t;
	struct mc_fab_cfg cfg = cfg_std();
	struct mc_fab_hop *pa, *pb;
	u32 da, db, link;
	struct fab x;

	mk_regular(&t, 2, 6, MC_LINKS_UNI);
	cfg.tau_s = 0;
	cfg.tau_r = 0;
	fab_make(&x, &t, &cfg);
	da = T2(&t, 0, 2);
	db = T2(&t, 0, 1);
	send_worm(&x, T2(&t, 0, 0), &da, 1, 100, 0, 1, &pa);
	send_worm(&x, T2(&t, 0, 4), &db, 1, 100, 0, 2, &pb);
	mc_fab_run(&x.f, U64_MAX);
	link = mc_fab_chan_of(&x.f, T2(&t, 0, 0), 0, 0);
	ok(x.r.ndone == 2 && !x.f.st.blocked_ns &&
	   x.f.chan[link].flits == 100 && x.f.chan[link + 1].flits == 100 &&
	   x.r.at[db] >= 200ull * cfg.tau_n,
	   "p and h channels of one link: both worms arrive, neither waits, the link carries 200 flits (last at %llu ns)",
	   (unsigned long long)x.r.at[db]);
	free(pa);
	free(pb);
	fab_free(&x);
}

/* The Fig 5.7 worm under each fault knob. */
static void fig57(const struct mc_torus *t, u32 *src, u32 *list)
{
	static const int dst[][2] = { {0, 5}, {4, 5}, {3, 4}, {5, 4}, {4, 3},
				      {1, 2}, {2, 1}, {5, 1}, {1, 0} };
	u32 nodes[10], i;
	struct mc_chain c;

	*src = T2(t, 3, 2);
	nodes[0] = *src;
	for (i = 0; i < 9; i++)
		nodes[i + 1] = T2(t, dst[i][0], dst[i][1]);
	mc_chain_sort(t, MC_ORDER_HAM, nodes, 10, NULL);
	mc_chain_rotate(t, MC_ORDER_HAM, nodes, 10, *src, &c);
	for (i = 0; i < 9; i++)
		list[i] = mc_chain_at(&c, i + 1);
}

static u32 held_channels(const struct mc_fabric *f)
{
	u32 i, n = 0;

	for (i = 0; i < mc_fab_channels(&f->t, f->cfg.vc_sets); i++)
		n += f->chan[i].owner != 0;
	return n;
}

static void test_faults(void)
{
	struct mc_torus t;
	struct mc_fab_cfg cfg = cfg_std();
	struct mc_fab_hop *path;
	u32 src, list[9], node, i, before;
	unsigned int dim, vc;
	struct fab x;

	mk_regular(&t, 2, 6, MC_LINKS_UNI);
	fig57(&t, &src, list);

	/* a failed link at hop 10: the destinations before it get the worm */
	fab_make(&x, &t, &cfg);
	send_worm(&x, src, list, 9, 64, 0, 0, &path);
	mc_fab_chan_split(&x.f, path[10].chan, &node, &dim, &vc);
	mc_fab_set_link(&x.f, node, dim, true);
	mc_fab_run(&x.f, U64_MAX);
	for (i = 0, before = 0; i < 10; i++)
		before += path[i].dest != MC_FAB_NONE;
	ok(x.r.last_err == -ENOLINK && x.r.last_delivered == before &&
	   x.f.st.deliveries == before && !held_channels(&x.f),
	   "a failed link mid-worm: -ENOLINK, the %u destinations before it have the whole worm, nothing held",
	   before);
	free(path);
	fab_free(&x);

	/* a host that takes no IR copy is reported, the others are not */
	fab_make(&x, &t, &cfg);
	mc_fab_set_node(&x.f, list[3], false, true);
	send_worm(&x, src, list, 9, 64, 0, 0, &path);
	mc_fab_run(&x.f, U64_MAX);
	ok(x.r.last_err == 0 && x.r.missed == 1 && !x.r.got[list[3]] &&
	   x.f.st.deliveries == 8 && x.f.st.ir_missed == 1,
	   "no_ir at the 4th destination: its copy reported missed, the 8 others delivered");
	free(path);
	fab_free(&x);

	/* the drop knob loses a worm before it leaves */
	fab_make(&x, &t, &cfg);
	x.f.drop_every = 1;
	send_worm(&x, src, list, 9, 64, 0, 0, &path);
	mc_fab_run(&x.f, U64_MAX);
	ok(x.r.last_err == -EIO && !x.f.st.deliveries && x.f.st.drops == 1,
	   "drop_every=1: the worm is lost (-EIO), nothing delivered");
	free(path);
	fab_free(&x);

	/* a stalled router holds the worm until its sender aborts it */
	fab_make(&x, &t, &cfg);
	mc_fab_set_node(&x.f, list[5], true, false);
	send_worm(&x, src, list, 9, 8, 0, 0, &path);
	mc_fab_run(&x.f, 10000000);
	before = x.f.active;
	mc_fab_abort(&x.f, 0, -ECANCELED);
	ok(before == 1 && x.r.last_err == -ECANCELED &&
	   x.r.last_delivered < 5 && !x.r.got[list[5]] &&
	   !held_channels(&x.f) && !x.f.active,
	   "a stalled router: the worm waits there, abort ends it (-ECANCELED, %u delivered), nothing held",
	   x.r.last_delivered);
	free(path);
	fab_free(&x);
}

/* Fewer consumption channels than incoming ones: copies are missed and
 * reported, never waited for (no deadlock through consumption). */
static void test_few_ports(void)
{
	struct mc_torus t;
	struct mc_fab_cfg cfg = cfg_std();
	struct sbuf *b;
	struct mc_fab_mcast *d;
	struct rng rng = { 63 };
	struct fab x;
	u32 u, src, want = 0;

	mk_regular(&t, 2, 6, MC_LINKS_UNI);
	cfg.ports = 1;
	cfg.tau_s = 200;
	cfg.tau_r = 100;
	b = xcalloc(t.nodes, sizeof(*b));
	d = xcalloc(t.nodes, sizeof(*d));
	fab_make(&x, &t, &cfg);
	for (u = 0; u < t.nodes; u++) {
		sbuf_init(&b[u], t.nodes);
		plan_random(&b[u], &t, MC_ALGO_STORUS, 0, &rng, t.nodes - 1,
			    &src);
		run_alloc(&d[u], &b[u].s, 100, u + 1);
		want += t.nodes - 1;
	}
	x.r.runs = d;
	x.r.nruns = t.nodes;
	for (u = 0; u < t.nodes; u++)
		mc_fab_mcast_start(&x.f, &d[u], 0);
	mc_fab_run(&x.f, U64_MAX);
	ok(x.f.st.ir_missed && x.f.st.deliveries + x.f.st.ir_missed == want &&
	   !x.f.st.deadlocks && x.r.ndone == t.nodes,
	   "one consumption channel per node, 36 broadcasts at once: %llu copies missed and reported, %llu delivered, no deadlock",
	   (unsigned long long)x.f.st.ir_missed,
	   (unsigned long long)x.f.st.deliveries);
	for (u = 0; u < t.nodes; u++) {
		run_free(&d[u]);
		sbuf_free(&b[u]);
	}
	free(b);
	free(d);
	fab_free(&x);
}

static void test_bad_input(void)
{
	struct mc_torus t, bi, irr;
	struct mc_fab_cfg cfg = cfg_std();
	struct mc_fab_hop path[64];
	u32 list[3], src;
	const char *why = NULL;
	struct fab x;
	struct mc_fabric f;
	static const u16 k[2] = { 4, 6 };
	int rc;

	mk_regular(&t, 2, 4, MC_LINKS_UNI);
	mk_regular(&bi, 2, 4, MC_LINKS_BI);
	mk_torus(&irr, 2, k, MC_LINKS_UNI);
	rc = mc_fab_init(&f, &bi, &cfg, NULL, NULL, NULL, &rec_ops, NULL, &why);
	ok(rc == -EINVAL && why, "init on a bidirectional torus: -EINVAL (%s)", why ? why : "-");
	why = NULL;
	rc = mc_fab_init(&f, &irr, &cfg, NULL, NULL, NULL, &rec_ops, NULL, &why);
	ok(rc == -EINVAL && why, "init on a 4x6 torus: -EINVAL (%s)", why ? why : "-");
	cfg.vc_sets = 3;
	why = NULL;
	rc = mc_fab_init(&f, &t, &cfg, NULL, NULL, NULL, &rec_ops, NULL, &why);
	ok(rc == -EINVAL && why, "vc_sets=3: -EINVAL (%s)", why ? why : "-");
	cfg = cfg_std();
	cfg.max_worms = 2;
	fab_make(&x, &t, &cfg);
	src = 0;
	list[0] = 16;
	why = NULL;
	ok(!mc_fab_path_len(&t, src, list, 1, &why) && why,
	   "a destination outside the torus: no path (%s)", why ? why : "-");
	list[0] = 5;
	list[1] = 5;
	why = NULL;
	ok(!mc_fab_path_len(&t, src, list, 2, &why) && why,
	   "a destination twice in a row: no path (%s)", why ? why : "-");
	list[0] = 0;
	why = NULL;
	ok(!mc_fab_path_len(&t, src, list, 1, &why) && why,
	   "the source as first destination: no path (%s)", why ? why : "-");
	list[0] = 5;
	list[1] = 10;
	why = NULL;
	rc = mc_fab_send(&x.f, src, list, 2, 8, path, 3, 0, 0, &why);
	ok(rc == -EINVAL && why, "a path array of the wrong size: -EINVAL (%s)", why ? why : "-");
	why = NULL;
	rc = mc_fab_send(&x.f, src, list, 2, 0, path, 4, 0, 0, &why);
	ok(rc == -EINVAL && why, "a worm of 0 flits: -EINVAL (%s)", why ? why : "-");
	ok(mc_fab_send(&x.f, src, list, 2, 8, path, 4, 0, 0, &why) == 0 &&
	   mc_fab_send(&x.f, 1, list, 2, 8, path + 8,
		       mc_fab_path_len(&t, 1, list, 2, NULL), 0, 0, &why) == 1,
	   "two worms fit a pool of two");
	why = NULL;
	rc = mc_fab_send(&x.f, 2, list, 2, 8, path + 16,
			 mc_fab_path_len(&t, 2, list, 2, NULL), 0, 0, &why);
	ok(rc == -ENOSPC && why, "the third: -ENOSPC (%s)", why ? why : "-");
	mc_fab_run(&x.f, U64_MAX);
	ok(x.r.ndone == 2 && !x.f.active, "the two complete");
	fab_free(&x);
}

int main(void)
{
	test_closed_form();
	test_single_multicast();
	test_all_senders();
	test_deadlock();
	test_vc_sharing();
	test_faults();
	test_few_ports();
	test_bad_input();
	return done_testing();
}
