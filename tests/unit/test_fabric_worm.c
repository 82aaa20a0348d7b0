// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The worm-level fabric (plan/fabric_worm.c) against the flit level
 * (plan/fabric.c) on thousands of random cases: small tori, random
 * algorithms, sources, destination sets, several multicasts at once or at
 * random times (so worms block), random B, tau_s, tau_r, tau_n, lengths
 * below and above B, sometimes fewer consumption channels than incoming
 * ones.  Every callback (each destination's copy and its time, each
 * worm's end), in the same order, the multicasts' bookkeeping, the
 * counters and the cycles must be identical.  The counts printed show
 * the cases cover waiting worms, and two worms sharing one link (which
 * the worm level moves flit by flit: fabric_worm.h).
 *
 * A third of the cases are played as a continuous workload does
 * (mcastsim load): the fabric runs up to each multicast's start before it
 * is handed over, lone unicast worms (mc_fsim_send) come in between, and
 * a multicast is retired (mc_fsim_retire) once its last copy is in.
 *
 *   test_fabric_worm [cases [seed]]      (default 8000 cases, seed 14)
 */
#include "tsched.h"
#include "fabric_worm.h"

#define MAX_RUNS	6
#define MAX_EV		(1u << 16)
#define MAX_UNI		8

struct event {
	u32 kind;		/* 0 deliver, 1 done */
	u32 w;
	u64 cookie;
	u32 i;
	s32 arg;		/* copy, or err */
	u64 t;
};

struct log {
	struct event *ev;
	u32 n;
	bool full;
};

static void log_add(struct log *l, const struct event *e)
{
	if (l->n == MAX_EV) {
		l->full = true;
		return;
	}
	l->ev[l->n++] = *e;
}

static void on_deliver(void *ctx, struct mc_fsim *s, u32 w, u64 cookie, u32 i,
		       enum mc_fab_copy copy, u64 t)
{
	struct event e = { 0, w, cookie, i, (s32)copy, t };

	(void)s;
	log_add(ctx, &e);
}

static void on_done(void *ctx, struct mc_fsim *s, u32 w, u64 cookie, int err,
		    u64 t)
{
	struct event e = { 1, w, cookie, 0, err, t };

	(void)s;
	log_add(ctx, &e);
}

static const struct mc_fsim_ops log_ops = {
	.deliver = on_deliver,
	.done = on_done,
};

/* One random case: the fabric, and the multicasts with their start. */
struct kase {
	struct mc_torus t;
	struct mc_fab_cfg cfg;
	u32 nruns;
	struct sbuf b[MAX_RUNS];
	u32 flits;
	u8 header;		/* enum mc_fab_header: the worms' lengths vary */
	u64 t0[MAX_RUNS];
	bool cont;		/* continuous: run to each start, retire */
	u32 nuni;		/* continuous: lone unicast worms */
	u32 usrc[MAX_UNI], udst[MAX_UNI];
	u64 ut[MAX_UNI];
	char desc[512];
};

/* Everything one model produced on a case. */
struct outcome {
	struct log log;
	struct mc_fab_stats st;
	u64 cycles, now, ran;
	u32 active;
	u32 flit_worms;		/* worm level: worms moved flit by flit */
	int err;
	u64 *t_recv[MAX_RUNS];
	u32 *copies[MAX_RUNS];
	u32 missed[MAX_RUNS], received[MAX_RUNS], failed[MAX_RUNS];
	u32 send_errors[MAX_RUNS];
};

static void run_alloc(struct mc_fab_mcast *mm, const struct mc_schedule *s,
		      u32 flits, u32 tag, struct mc_fw_hop **whops)
{
	u32 hops = mc_fab_mcast_hops(s->t, s) + 1;

	mm->list = xcalloc(s->ndest + 1, sizeof(u32));
	mm->hops = xcalloc(hops, sizeof(struct mc_fab_hop));
	mm->hop_off = xcalloc(s->nmsg + 1, sizeof(u32));
	mm->first_msg = xcalloc(s->m, sizeof(u32));
	mm->next_msg = xcalloc(s->nmsg + 1, sizeof(u32));
	mm->copies = xcalloc(s->m, sizeof(u32));
	mm->via = xcalloc(s->m, sizeof(u32));
	mm->t_recv = xcalloc(s->m, sizeof(u64));
	*whops = xcalloc(hops, sizeof(struct mc_fw_hop));
	mc_fab_mcast_init(mm, s, flits, tag);
}

static void run_free(struct mc_fab_mcast *mm, struct mc_fw_hop *whops)
{
	free(mm->list);
	free(mm->hops);
	free(mm->hop_off);
	free(mm->first_msg);
	free(mm->next_msg);
	free(mm->via);
	free(whops);
}

/* The lone worms' paths, both levels' (only the model's is used). */
struct uni {
	struct mc_fab_hop *fpath[MAX_UNI];
	struct mc_fw_hop *wpath[MAX_UNI];
};

static void uni_send(const struct kase *k, struct mc_fsim *s, struct uni *u,
		     u32 i)
{
	const char *why = NULL;
	u32 n = mc_fab_path_len(&k->t, k->usrc[i], &k->udst[i], 1, &why);

	u->fpath[i] = xcalloc(n + 1, sizeof(struct mc_fab_hop));
	u->wpath[i] = xcalloc(n + 1, sizeof(struct mc_fw_hop));
	if (mc_fsim_send(s, k->usrc[i], &k->udst[i], 1, k->flits, u->fpath[i],
			 u->wpath[i], n, k->ut[i],
			 (u64)MC_FSIM_TAG_NONE << 32 | i, &why) < 0)
		diag("%s: mc_fsim_send: %s", k->desc, why ? why : "?");
}

/* Retire the runs whose every copy is in. */
static void retire_done(const struct kase *k, struct mc_fsim *s,
			struct mc_fab_mcast *mm, bool *live)
{
	u32 r;

	for (r = 0; r < k->nruns; r++)
		if (live[r] && mm[r].received == k->b[r].s.ndest) {
			if (mc_fsim_retire(s, &mm[r]))
				diag("%s: run %u not in the table", k->desc, r);
			live[r] = false;
		}
}

/*
 * The continuous way: run to the next start (a multicast's or a lone
 * worm's, in time order), hand it over, retire what is complete.
 */
static u64 play_cont(const struct kase *k, struct mc_fsim *s,
		     struct mc_fab_mcast *mm, struct mc_fw_hop **whops,
		     struct uni *u)
{
	bool live[MAX_RUNS] = { false }, used[MAX_RUNS] = { false };
	u32 ui = 0, n, r, best;
	u64 ran = 0;

	for (n = 0; n < k->nruns; n++) {
		best = MAX_RUNS;
		for (r = 0; r < k->nruns; r++)
			if (!used[r] && (best == MAX_RUNS ||
					 k->t0[r] < k->t0[best]))
				best = r;
		for (; ui < k->nuni && k->ut[ui] < k->t0[best]; ui++) {
			ran += mc_fsim_run(s, k->ut[ui]);
			retire_done(k, s, mm, live);
			uni_send(k, s, u, ui);
		}
		ran += mc_fsim_run(s, k->t0[best]);
		retire_done(k, s, mm, live);
		used[best] = live[best] = true;
		mc_fsim_mcast(s, &mm[best], whops[best], k->t0[best]);
	}
	for (; ui < k->nuni; ui++) {
		ran += mc_fsim_run(s, k->ut[ui]);
		uni_send(k, s, u, ui);
	}
	return ran + mc_fsim_run(s, U64_MAX);
}

static void play(const struct kase *k, enum mc_fsim_model model,
		 struct outcome *o)
{
	struct uni u;
	struct mc_fab_mcast mm[MAX_RUNS];
	struct mc_fw_hop *whops[MAX_RUNS];
	struct mc_fsim *s = xcalloc(1, sizeof(*s));
	void *mem = xcalloc(mc_fsim_mem(model, &k->t, &k->cfg), 1);
	const char *why = NULL;
	u32 r;

	memset(o, 0, sizeof(*o));
	memset(&u, 0, sizeof(u));
	o->log.ev = xcalloc(MAX_EV, sizeof(struct event));
	if (mc_fsim_init(s, model, &k->t, &k->cfg, mem, &log_ops, &o->log,
			 &why)) {
		printf("Bail out! mc_fsim_init: %s\n", why ? why : "?");
		exit(2);
	}
	for (r = 0; r < k->nruns; r++) {
		memset(&mm[r], 0, sizeof(mm[r]));
		run_alloc(&mm[r], &k->b[r].s, k->flits, r + 1, &whops[r]);
		mm[r].header = k->header;
		if (!k->cont)
			mc_fsim_mcast(s, &mm[r], whops[r], k->t0[r]);
	}
	if (k->cont)
		o->ran = play_cont(k, s, mm, whops, &u);
	else
		o->ran = mc_fsim_run(s, U64_MAX);
	o->st = *mc_fsim_stats(s);
	o->cycles = mc_fsim_cycles(s);
	o->now = mc_fsim_now(s);
	o->active = mc_fsim_active(s);
	o->err = mc_fsim_err(s);
	o->flit_worms = model == MC_FSIM_WORM ? s->worm.flit_worms : 0;
	for (r = 0; r < k->nruns; r++) {
		o->t_recv[r] = mm[r].t_recv;
		o->copies[r] = mm[r].copies;
		o->missed[r] = mm[r].missed;
		o->received[r] = mm[r].received;
		o->failed[r] = mm[r].failed;
		o->send_errors[r] = mm[r].send_errors;
		run_free(&mm[r], whops[r]);
	}
	for (r = 0; r < MAX_UNI; r++) {
		free(u.fpath[r]);
		free(u.wpath[r]);
	}
	free(mem);
	free(s);
}

static void outcome_free(struct outcome *o, u32 nruns)
{
	u32 r;

	for (r = 0; r < nruns; r++) {
		free(o->t_recv[r]);
		free(o->copies[r]);
	}
	free(o->log.ev);
}

static bool ev_eq(const struct event *a, const struct event *b)
{
	return a->kind == b->kind && a->w == b->w && a->cookie == b->cookie &&
	       a->i == b->i && a->arg == b->arg && a->t == b->t;
}

/* Compare; on the first difference say what it is. */
static bool same(const struct kase *k, const struct outcome *a,
		 const struct outcome *b)
{
	u32 i, r;

	if (a->log.full || b->log.full) {
		diag("%s: event log full", k->desc);
		return false;
	}
	for (i = 0; i < a->log.n && i < b->log.n; i++) {
		const struct event *x = &a->log.ev[i], *y = &b->log.ev[i];

		if (ev_eq(x, y))
			continue;
		diag("%s: event %u: flit %s w%u msg %u.%u #%u %d t=%llu, worm %s w%u msg %u.%u #%u %d t=%llu",
		     k->desc, i, x->kind ? "done" : "dlv", x->w,
		     (u32)(x->cookie >> 32), (u32)x->cookie, x->i, x->arg,
		     (unsigned long long)x->t, y->kind ? "done" : "dlv", y->w,
		     (u32)(y->cookie >> 32), (u32)y->cookie, y->i, y->arg,
		     (unsigned long long)y->t);
		return false;
	}
	if (a->log.n != b->log.n) {
		diag("%s: %u events at the flit level, %u at the worm level",
		     k->desc, a->log.n, b->log.n);
		return false;
	}
	for (r = 0; r < k->nruns; r++) {
		const struct mc_schedule *s = &k->b[r].s;

		if (a->missed[r] != b->missed[r] ||
		    a->received[r] != b->received[r] ||
		    a->failed[r] != b->failed[r] ||
		    a->send_errors[r] != b->send_errors[r] ||
		    memcmp(a->t_recv[r], b->t_recv[r], s->m * sizeof(u64)) ||
		    memcmp(a->copies[r], b->copies[r], s->m * sizeof(u32))) {
			diag("%s: multicast %u's bookkeeping differs", k->desc,
			     r + 1);
			return false;
		}
	}
	if (memcmp(&a->st, &b->st, sizeof(a->st)) || a->cycles != b->cycles ||
	    a->now != b->now || a->ran != b->ran || a->active != b->active) {
		diag("%s: counters differ: blocked %llu/%llu cycles %llu/%llu now %llu/%llu hops %llu/%llu done %llu/%llu",
		     k->desc, (unsigned long long)a->st.blocked_ns,
		     (unsigned long long)b->st.blocked_ns,
		     (unsigned long long)a->cycles,
		     (unsigned long long)b->cycles,
		     (unsigned long long)a->now, (unsigned long long)b->now,
		     (unsigned long long)a->st.flit_hops,
		     (unsigned long long)b->st.flit_hops,
		     (unsigned long long)a->st.done,
		     (unsigned long long)b->st.done);
		return false;
	}
	return true;
}

static const struct {
	unsigned int n, k;
} shapes[] = { { 2, 3 }, { 2, 4 }, { 2, 5 }, { 3, 3 } };

static u32 pick_of(struct rng *rng, const u32 *v, u32 n)
{
	return v[rng_below(rng, n)];
}

/* Lone unicast worms at random times, in time order. */
static void draw_uni(struct rng *rng, struct kase *k, u32 burst, char *p)
{
	u64 span = (k->flits + 8) * k->cfg.tau_n * burst + k->cfg.tau_s + 1;
	u32 i, pick[2];

	k->nuni = rng_below(rng, MAX_UNI + 1);
	for (i = 0; i < k->nuni; i++) {
		rng_subset(rng, k->t.nodes, 2, pick);
		k->usrc[i] = pick[0];
		k->udst[i] = pick[1];
		k->ut[i] = (i ? k->ut[i - 1] : 0) + rng_below(rng, span / 2 + 1);
	}
	if (p < k->desc + sizeof(k->desc) - 64)
		sprintf(p, " cont, %u unicasts", k->nuni);
}

/* Draw a case; false if a plan failed (not expected). */
static bool draw(struct rng *rng, struct kase *k)
{
	static const u32 bufs[] = { 1, 1, 2, 2, 3, 4, 5, 8, 16 };
	static const u32 taus[] = { 0, 1, 7, 100, 1000, 95000 };
	static const u32 taun[] = { 1, 2, 3, 10, 500 };
	static const u32 rs[] = { 2, 3, 4, 8 };
	static const enum mc_algo al[] = { MC_ALGO_STORUS, MC_ALGO_MDTORUS,
					   MC_ALGO_MUTORUS, MC_ALGO_UTORUS };
	u32 si = rng_below(rng, 4), r, burst;
	char *p = k->desc;

	mk_regular(&k->t, shapes[si].n, shapes[si].k, MC_LINKS_UNI);
	k->cfg = (struct mc_fab_cfg){ .vc_sets = 2, .max_worms = 1024 };
	k->cfg.buffer_flits = (u16)pick_of(rng, bufs, 9);
	k->cfg.tau_n = pick_of(rng, taun, 5);
	k->cfg.tau_s = rng_below(rng, 3) ? pick_of(rng, taus, 6) :
			rng_below(rng, 20 * k->cfg.tau_n + 1);
	k->cfg.tau_r = rng_below(rng, 3) ? pick_of(rng, taus, 6) :
			rng_below(rng, 20 * k->cfg.tau_n + 1);
	/* now and then fewer consumption channels than incoming ones */
	k->cfg.ports = rng_below(rng, 6) ? 0 : (u8)(1 + rng_below(rng, 3));
	switch (rng_below(rng, 4)) {
	case 0:
		k->flits = 1 + rng_below(rng, k->cfg.buffer_flits);
		break;
	case 1:
		k->flits = k->cfg.buffer_flits + rng_below(rng, 3);
		break;
	default:
		k->flits = 1 + rng_below(rng, 80);
	}
	k->header = (u8)rng_below(rng, 3);
	k->nruns = 1 + rng_below(rng, MAX_RUNS);
	/* starts: all at once, or spread over about a worm's time */
	burst = rng_below(rng, 3);
	k->cont = burst && !rng_below(rng, 2);
	p += sprintf(p, "%s B=%u L=%u hdr=%u ts=%u tr=%u tn=%u ports=%u:",
		     shape_str(&k->t), k->cfg.buffer_flits, k->flits,
		     k->header, k->cfg.tau_s, k->cfg.tau_r, k->cfg.tau_n,
		     k->cfg.ports);
	for (r = 0; r < k->nruns; r++) {
		enum mc_algo a = al[rng_below(rng, 4)];
		u32 rr = a == MC_ALGO_MUTORUS ? pick_of(rng, rs, 4) : 0;
		u32 ndst = 1 + rng_below(rng, k->t.nodes - 1);
		u32 *pick = xcalloc(ndst + 1, sizeof(u32));
		const char *why = NULL;
		int rc;

		k->t0[r] = !burst ? 0 :
			   rng_below(rng, (k->flits + 8) * k->cfg.tau_n *
					  burst + k->cfg.tau_s + 1);
		rng_subset(rng, k->t.nodes, ndst + 1, pick);
		sbuf_init(&k->b[r], k->t.nodes);
		rc = mc_plan(&k->b[r].s, &k->t, a, rr, pick[0], pick + 1,
			     ndst, &why);
		free(pick);
		if (rc) {
			diag("mc_plan: %s", why ? why : "?");
			k->nruns = r + 1;
			return false;
		}
		if (p < k->desc + sizeof(k->desc) - 64)
			p += sprintf(p, " %s%s%u/%u@%llu", algo_name(a),
				     rr ? "" : "", rr, ndst,
				     (unsigned long long)k->t0[r]);
	}
	if (k->cont)
		draw_uni(rng, k, burst, p);
	return true;
}

static void kase_free(struct kase *k)
{
	u32 r;

	for (r = 0; r < k->nruns; r++)
		sbuf_free(&k->b[r]);
}

static void test_random(u32 cases, u64 seed)
{
	struct rng rng = { seed };
	u32 c, bad = 0, err = 0, blocked = 0, missed = 0, multi = 0;
	u32 compared = 0, shared = 0, shared_blocked = 0, ports = 0;
	u32 small = 0, large = 0, pure = 0, cont = 0, cont_blocked = 0;

	for (c = 0; c < cases; c++) {
		struct kase k;
		struct outcome fo, wo;

		memset(&k, 0, sizeof(k));
		if (!draw(&rng, &k)) {
			bad++;
			kase_free(&k);
			continue;
		}
		play(&k, MC_FSIM_FLIT, &fo);
		play(&k, MC_FSIM_WORM, &wo);
		compared++;
		if (wo.err && !err++)
			diag("%s: worm level error %d", k.desc, wo.err);
		if (!same(&k, &fo, &wo) && bad++ > 20)
			c = cases;
		blocked += fo.st.blocked_ns != 0;
		missed += fo.st.ir_missed != 0;
		multi += k.nruns > 1;
		cont += k.cont && k.nuni;
		cont_blocked += k.cont && k.nuni && fo.st.blocked_ns;
		ports += k.cfg.ports != 0;
		small += k.flits < k.cfg.buffer_flits;
		large += k.flits > k.cfg.buffer_flits;
		shared += wo.flit_worms != 0;
		pure += !wo.flit_worms && fo.st.blocked_ns;
		shared_blocked += wo.flit_worms && fo.st.blocked_ns;
		outcome_free(&fo, k.nruns);
		outcome_free(&wo, k.nruns);
		kase_free(&k);
	}
	ok(!bad && !err && compared == cases,
	   "%u random cases: every copy and its time, every worm's end, in the same order, the multicasts' records, counters and cycles identical at the worm and the flit level",
	   compared);
	ok(blocked * 4 >= compared && multi * 2 >= compared &&
	   pure * 10 >= compared,
	   "contention covered: worms waited for a channel in %u cases (%u of them all in the closed form), %u had several multicasts",
	   blocked, pure, multi);
	ok(shared * 10 >= compared && shared_blocked,
	   "%u cases had two worms on one link's two channels (the worm level moved those flit by flit), %u of them with waiting worms too",
	   shared, shared_blocked);
	ok(cont * 10 >= compared && cont_blocked,
	   "%u cases played continuously (run to each start, lone unicast worms, runs retired), %u of them with waiting worms",
	   cont, cont_blocked);
	ok(small && large && ports && missed,
	   "lengths below B in %u cases, above in %u; fewer consumption channels in %u, copies missed in %u",
	   small, large, ports, missed);
}

int main(int argc, char **argv)
{
	test_random(argc > 1 ? (u32)atoi(argv[1]) : 8000,
		    argc > 2 ? (u64)atoll(argv[2]) : 14);
	return done_testing();
}
