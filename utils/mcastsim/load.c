// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * mcastsim load: multicasts arriving continuously on the simulated IR
 * fabric, with background unicast traffic, at a given offered load.
 *
 * Arrivals are Poisson: the superposition of one Poisson process per node
 * of rate --rate is one Poisson process of nodes * rate whose every
 * arrival picks its source uniformly, which is what is drawn (exponential
 * gaps from splitmix64).  The source and the destination set are drawn
 * together with sim_pick, as mcastsim latency draws them, so a lone
 * multicast here is one of latency's trials.  Unicast worms (--unicast-
 * rate, same length, uniform source and destination) come from their own
 * stream: the multicasts drawn do not depend on the unicast load.
 *
 * Statistics (batch means): the first --warmup multicasts are discarded,
 * the next --batches * --batch-size are measured, in arrival order, in
 * batches; the load goes on until every measured one is over, so the
 * last ones see the same load as the first.  Each figure is the mean of
 * the batch means with a 95 % confidence interval from their spread
 * (Student's t).  Latency is from the multicast's arrival to a
 * destination's host having the message: the mean over its destinations,
 * and the last one.  A rate is reported saturated when the multicasts in
 * flight reach --max-inflight (the fabric does not keep up: the number
 * grows without bound), the worm pool fills, or the confidence interval
 * of the last destination's latency stays wider than a quarter of its
 * mean (no convergence).
 */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fabric_mcast.h"
#include "fabric_worm.h"
#include "parse.h"
#include "simutil.h"

struct lopts {
	struct mc_torus t;
	struct mc_fab_cfg cfg;
	enum mc_algo algo;
	u32 r;
	u32 m;
	u32 flits;
	double rate[SIM_MAX_LIST];	/* multicasts per node per ms */
	u32 nrates;
	double urate;			/* unicast worms per node per ms */
	u32 warmup, batches, bsize;
	u32 max_inflight;
	u64 seed;
	bool csv;
	enum mc_fsim_model model;
	enum mc_fab_header header;	/* the multicasts' worms */
	u32 jobs;			/* rates simulated at once */
};

static void usage(FILE *f)
{
	fputs("usage: mcastsim load [options]\n"
	      "  -t, --topology torus:KxK[xK]   fabric (regular, unidirectional; default torus:16x16)\n"
	      "  -a, --algorithm ALGO           s-torus, md-torus, mu-torus:R or u-torus (default mu-torus:8)\n"
	      "  -m, --dests N                  destinations per multicast (default 16)\n"
	      "  -L, --flits N                  message length in flits (default 64)\n"
	      "      --rate LIST                offered load: multicasts started per node per\n"
	      "                                 millisecond, one line each (default 0.01,0.1,0.2)\n"
	      "      --unicast-rate R           background unicast worms per node per ms (default 0)\n"
	      "      --warmup N                 multicasts discarded first (default 100)\n"
	      "      --batches B                batches measured (default 10, at least 2)\n"
	      "      --batch-size N             multicasts per batch (default 100)\n"
	      "      --max-inflight N           saturated past N multicasts in flight (default 512)\n"
	      "      --tau-s NS --tau-r NS --tau-n NS   (default 95000, 75000, 500)\n"
	      "      --buffer FLITS             virtual channel buffer (default 2)\n"
	      "      --seed S                   random seed (default 1)\n"
	      "      --csv                      one CSV line per rate\n"
	      "      --model flit|worm          the fabric's level (default worm; same results)\n"
	      "      --header none|addr|compound  flits a multicast worm's header adds\n"
	      "                                 (default none; unicast worms: none)\n"
	      "  -j, --jobs N                   rates simulated at once (default: the CPUs online)\n",
	      f);
}

/* A positive rate, or sim_die naming @what. */
static double parse_rate(const char *s, const char *what, bool zero_ok)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (errno || end == s || *end || !isfinite(v) || v < 0 ||
	    (!zero_ok && v == 0) || v > 1e6)
		sim_die("%s: not a rate (a positive number, per node per ms)",
			what);
	return v;
}

static void parse_rates(const char *s, struct lopts *o)
{
	char buf[512], *tok, *save = NULL;

	if (strlen(s) >= sizeof(buf))
		sim_die("%s: list too long", "--rate");
	strcpy(buf, s);
	o->nrates = 0;
	for (tok = strtok_r(buf, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		if (o->nrates == SIM_MAX_LIST)
			sim_die("%s: at most 16 rates", "--rate");
		o->rate[o->nrates++] = parse_rate(tok, "--rate", false);
	}
	if (!o->nrates)
		sim_die("%s: empty list", "--rate");
}

static void set_defaults(struct lopts *o)
{
	char err[PARSE_ERR_MAX];

	if (parse_topology("torus:16x16", &o->t, err))
		sim_die("%s", err);
	o->cfg = (struct mc_fab_cfg){ .vc_sets = 2, .buffer_flits = 2,
		.tau_s = 95000, .tau_r = 75000, .tau_n = 500 };
	o->algo = MC_ALGO_MUTORUS;
	o->r = 8;
	o->m = 16;
	o->flits = 64;
	parse_rates("0.01,0.1,0.2", o);
	o->warmup = 100;
	o->batches = 10;
	o->bsize = 100;
	o->max_inflight = 512;
	o->seed = 1;
	o->model = MC_FSIM_WORM;
	o->jobs = sim_default_jobs();
}

static void check_args(struct lopts *o)
{
	if (o->m >= o->t.nodes || !o->m)
		sim_die("%s: 1 to nodes - 1 destinations", "--dests");
	if (!o->flits)
		sim_die("%s: at least one flit", "--flits");
	if (o->batches < 2)
		sim_die("%s: at least 2 batches (a confidence interval)",
			"--batches");
	if (!o->bsize)
		sim_die("%s: at least one multicast per batch", "--batch-size");
	if (!o->max_inflight || o->max_inflight > MC_FSIM_MAX_RUNS)
		sim_die("%s: 1 to 1024", "--max-inflight");
	if ((u64)o->batches * o->bsize + o->warmup > 100000000ull)
		sim_die("%s: at most 10^8 multicasts in all", "--batches");
	/* Every multicast in flight has at most one worm per destination. */
	o->cfg.max_worms = o->max_inflight * o->m + 4 * o->t.nodes;
}

static void parse_args(int argc, char **argv, struct lopts *o)
{
	static const struct option lo[] = {
		{ "topology", required_argument, NULL, 't' },
		{ "algorithm", required_argument, NULL, 'a' },
		{ "dests", required_argument, NULL, 'm' },
		{ "flits", required_argument, NULL, 'L' },
		{ "rate", required_argument, NULL, 1 },
		{ "unicast-rate", required_argument, NULL, 2 },
		{ "warmup", required_argument, NULL, 3 },
		{ "batches", required_argument, NULL, 4 },
		{ "batch-size", required_argument, NULL, 5 },
		{ "max-inflight", required_argument, NULL, 6 },
		{ "tau-s", required_argument, NULL, 7 },
		{ "tau-r", required_argument, NULL, 8 },
		{ "tau-n", required_argument, NULL, 9 },
		{ "buffer", required_argument, NULL, 10 },
		{ "seed", required_argument, NULL, 11 },
		{ "csv", no_argument, NULL, 12 },
		{ "model", required_argument, NULL, 13 },
		{ "header", required_argument, NULL, 14 },
		{ "jobs", required_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	char err[PARSE_ERR_MAX];
	int c;

	set_defaults(o);
	while ((c = getopt_long(argc, argv, "t:a:m:L:j:h", lo, NULL)) != -1) {
		switch (c) {
		case 't':
			if (parse_topology(optarg, &o->t, err))
				sim_die("--topology: %s", err);
			break;
		case 'a':
			if (parse_algorithm(optarg, &o->algo, &o->r, err))
				sim_die("--algorithm: %s", err);
			if (!mc_algo_is_mtorus(o->algo) &&
			    o->algo != MC_ALGO_UTORUS)
				sim_die("--algorithm: %s is not simulated",
					optarg);
			break;
		case 'm':
			o->m = sim_num(optarg, "--dests");
			break;
		case 'L':
			o->flits = sim_num(optarg, "--flits");
			break;
		case 1:
			parse_rates(optarg, o);
			break;
		case 2:
			o->urate = parse_rate(optarg, "--unicast-rate", true);
			break;
		case 3:
			o->warmup = sim_num(optarg, "--warmup");
			break;
		case 4:
			o->batches = sim_num(optarg, "--batches");
			break;
		case 5:
			o->bsize = sim_num(optarg, "--batch-size");
			break;
		case 6:
			o->max_inflight = sim_num(optarg, "--max-inflight");
			break;
		case 7:
			o->cfg.tau_s = sim_num(optarg, "--tau-s");
			break;
		case 8:
			o->cfg.tau_r = sim_num(optarg, "--tau-r");
			break;
		case 9:
			o->cfg.tau_n = sim_num(optarg, "--tau-n");
			break;
		case 10:
			if (sim_num(optarg, "--buffer") > MC_FAB_MAX_BUF)
				sim_die("%s: at most 4096 flits", "--buffer");
			o->cfg.buffer_flits = (u16)sim_num(optarg, "--buffer");
			break;
		case 11:
			o->seed = sim_num(optarg, "--seed");
			break;
		case 12:
			o->csv = true;
			break;
		case 13:
			o->model = sim_model(optarg);
			break;
		case 14:
			o->header = sim_header(optarg);
			break;
		case 'j':
			o->jobs = sim_num(optarg, "--jobs");
			if (!o->jobs || o->jobs > 64)
				sim_die("%s: 1 to 64 threads", "--jobs");
			break;
		case 'h':
			usage(stdout);
			exit(0);
		default:
			usage(stderr);
			exit(2);
		}
	}
	if (optind != argc) {
		usage(stderr);
		exit(2);
	}
	check_args(o);
}

/* ------------------------------------------------------------------ */

/* A multicast in flight: its plan, its run, its paths (either level's). */
struct mslot {
	struct mc_schedule s;
	struct mc_fab_mcast mm;
	struct mc_fw_hop *whops;
	u32 hops_cap;
	u64 idx;		/* arrival number */
	u64 t0;			/* arrival, ns */
	u32 done;		/* worms over */
};

/* A unicast worm in flight. */
struct uslot {
	u32 dst;
	struct mc_fab_hop *fpath;
	struct mc_fw_hop *wpath;
	u32 cap;
};

/* One rate's simulation. */
struct load {
	const struct lopts *o;
	double rate;
	struct mc_fsim fs;
	void *mem;
	struct mslot *ms;		/* max_inflight */
	u32 *mfree, nmfree;
	u32 *retire, nretire;
	struct uslot *us;		/* ucap */
	u32 *ufree, nufree, ucap;
	u64 rng_m, rng_u;		/* multicast, unicast streams */
	u32 *perm, *pick;
	double next_m, next_u;		/* next arrivals, ns */
	u64 started, measured_done;
	u32 inflight;
	/* the measurement window: from the first measured arrival */
	bool window;
	u64 t_begin, worms0, blocked0, copies, completed;
	double *bavg, *blast;		/* per batch sums, us */
	const char *saturated;		/* why, or NULL */
	int err;
};

static void mslot_alloc(struct mslot *x, u32 m)
{
	x->s.order = sim_calloc(m + 1, sizeof(u32));
	x->s.msg = sim_calloc(m + 1, sizeof(struct mc_msg));
	x->s.dest = sim_calloc(m + 1, sizeof(struct mc_dest));
	x->mm.list = sim_calloc(m + 1, sizeof(u32));
	x->mm.hop_off = sim_calloc(m + 2, sizeof(u32));
	x->mm.first_msg = sim_calloc(m + 1, sizeof(u32));
	x->mm.next_msg = sim_calloc(m + 2, sizeof(u32));
	x->mm.copies = sim_calloc(m + 1, sizeof(u32));
	x->mm.via = sim_calloc(m + 1, sizeof(u32));
	x->mm.t_recv = sim_calloc(m + 1, sizeof(u64));
}

static void mslot_free(struct mslot *x)
{
	free(x->s.order);
	free(x->s.msg);
	free(x->s.dest);
	free(x->mm.list);
	free(x->mm.hops);
	free(x->mm.hop_off);
	free(x->mm.first_msg);
	free(x->mm.next_msg);
	free(x->mm.copies);
	free(x->mm.via);
	free(x->mm.t_recv);
	free(x->whops);
}

/* Exponential gap, ns, for @per_ns arrivals per ns. */
static double exp_gap(u64 *rng, double per_ns)
{
	double u = (double)((sim_rnd(rng) >> 11) + 1) * 0x1p-53;

	return -log(u) / per_ns;
}

static void on_deliver(void *ctx, struct mc_fsim *s, u32 w, u64 cookie,
		       u32 i, enum mc_fab_copy copy, u64 t)
{
	struct load *l = ctx;

	(void)s;
	(void)w;
	(void)i;
	(void)t;
	if (l->window && cookie >> 32 != MC_FSIM_TAG_NONE &&
	    copy == MC_FAB_COPY_OK)
		l->copies++;
}

/*
 * A worm is over.  A unicast's slot is free at once (the fabric is done
 * with its path); a multicast is retired after mc_fsim_run returns, when
 * no bookkeeping of the fabric's is under way.
 */
static void on_done(void *ctx, struct mc_fsim *s, u32 w, u64 cookie, int err,
		    u64 t)
{
	struct load *l = ctx;
	u32 tag = (u32)(cookie >> 32);
	struct mslot *x;

	(void)s;
	(void)w;
	(void)t;
	if (err)
		l->err = err;
	if (tag == MC_FSIM_TAG_NONE) {
		l->ufree[l->nufree++] = (u32)cookie;
		return;
	}
	x = &l->ms[tag - 1];
	if (++x->done == x->s.nmsg)
		l->retire[l->nretire++] = tag - 1;
}

static const struct mc_fsim_ops load_ops = {
	.deliver = on_deliver,
	.done = on_done,
};

static void load_alloc(struct load *l, const struct lopts *o, double rate)
{
	u32 i;

	memset(l, 0, sizeof(*l));
	l->o = o;
	l->rate = rate;
	l->mem = sim_calloc(mc_fsim_mem(o->model, &o->t, &o->cfg), 1);
	l->ms = sim_calloc(o->max_inflight, sizeof(*l->ms));
	l->mfree = sim_calloc(o->max_inflight, sizeof(u32));
	l->retire = sim_calloc(o->max_inflight, sizeof(u32));
	for (i = 0; i < o->max_inflight; i++) {
		mslot_alloc(&l->ms[i], o->m);
		l->mfree[l->nmfree++] = o->max_inflight - 1 - i;
	}
	l->ucap = 4 * o->t.nodes;
	l->us = sim_calloc(l->ucap, sizeof(*l->us));
	l->ufree = sim_calloc(l->ucap, sizeof(u32));
	for (i = 0; i < l->ucap; i++)
		l->ufree[l->nufree++] = l->ucap - 1 - i;
	l->perm = sim_calloc(o->t.nodes, sizeof(u32));
	l->pick = sim_calloc(o->m + 1, sizeof(u32));
	l->bavg = sim_calloc(o->batches, sizeof(double));
	l->blast = sim_calloc(o->batches, sizeof(double));
	/* The same streams at every rate: common random numbers. */
	l->rng_m = o->seed * 1000003u + o->m * 7919u;
	l->rng_u = o->seed * 2654435761u + 0x5bd1e995u;
}

static void load_free(struct load *l)
{
	u32 i;

	for (i = 0; i < l->o->max_inflight; i++)
		mslot_free(&l->ms[i]);
	for (i = 0; i < l->ucap; i++) {
		free(l->us[i].fpath);
		free(l->us[i].wpath);
	}
	free(l->ms);
	free(l->mfree);
	free(l->retire);
	free(l->us);
	free(l->ufree);
	free(l->perm);
	free(l->pick);
	free(l->bavg);
	free(l->blast);
	free(l->mem);
}

/* A multicast is over: book its latencies, free its slot. */
static void complete(struct load *l, u32 k)
{
	const struct lopts *o = l->o;
	struct mslot *x = &l->ms[k];
	u64 first = o->warmup, sum = 0;
	u32 i;

	if (mc_fsim_retire(&l->fs, &x->mm))
		l->err = -ENOENT;
	if (x->mm.received != x->s.ndest || x->mm.failed ||
	    x->mm.send_errors)
		l->err = -EIO;
	l->inflight--;
	l->mfree[l->nmfree++] = k;
	if (l->window)
		l->completed++;
	if (x->idx < first || x->idx >= first + (u64)o->batches * o->bsize)
		return;
	for (i = 1; i < x->s.m; i++)
		sum += x->mm.t_recv[i] - x->t0;
	l->bavg[(x->idx - first) / o->bsize] +=
		(double)sum / (x->s.m - 1) / 1000.0;
	l->blast[(x->idx - first) / o->bsize] +=
		(double)(x->mm.t_last - x->t0) / 1000.0;
	l->measured_done++;
}

static void retire_all(struct load *l)
{
	while (l->nretire)
		complete(l, l->retire[--l->nretire]);
}

/* Grow a slot's paths to @hops entries (the level's array only). */
static void mslot_paths(struct mslot *x, enum mc_fsim_model model, u32 hops)
{
	if (hops <= x->hops_cap)
		return;
	free(x->mm.hops);
	free(x->whops);
	x->mm.hops = NULL;
	x->whops = NULL;
	if (model == MC_FSIM_WORM)
		x->whops = sim_calloc(hops, sizeof(*x->whops));
	else
		x->mm.hops = sim_calloc(hops, sizeof(*x->mm.hops));
	x->hops_cap = hops;
}

static void start_window(struct load *l)
{
	const struct mc_fab_stats *st = mc_fsim_stats(&l->fs);

	l->window = true;
	l->t_begin = mc_fsim_now(&l->fs);
	l->worms0 = st->worms;
	l->blocked0 = st->blocked_ns;
}

/* The next multicast arrives at @t: plan it and hand it over. */
static void arrive_mcast(struct load *l, u64 t)
{
	const struct lopts *o = l->o;
	const char *why = NULL;
	struct mslot *x;
	u32 k;

	if (l->inflight == o->max_inflight || !l->nmfree) {
		l->saturated = "multicasts in flight past --max-inflight";
		return;
	}
	if (l->started == o->warmup)
		start_window(l);
	k = l->mfree[--l->nmfree];
	x = &l->ms[k];
	sim_pick(&l->rng_m, o->t.nodes, o->m + 1, l->perm, l->pick);
	if (mc_plan(&x->s, &o->t, o->algo, o->r, l->pick[0], l->pick + 1, o->m,
		    &why))
		sim_die("plan: %s", why);
	mslot_paths(x, o->model, mc_fab_mcast_hops(&o->t, &x->s) + 1);
	mc_fab_mcast_init(&x->mm, &x->s, o->flits, k + 1);
	x->mm.header = o->header;
	x->idx = l->started++;
	x->t0 = t;
	x->done = 0;
	l->inflight++;
	if (mc_fsim_mcast(&l->fs, &x->mm, x->whops, t) || x->mm.send_errors)
		l->saturated = "the worm pool is full";
}

/* A background unicast worm arrives at @t. */
static void arrive_unicast(struct load *l, u64 t)
{
	const struct lopts *o = l->o;
	const char *why = NULL;
	struct uslot *u;
	u32 k, pick[2], n;

	sim_pick(&l->rng_u, o->t.nodes, 2, l->perm, pick);
	if (!l->nufree) {
		l->saturated = "unicast worms in flight past 4 per node";
		return;
	}
	k = l->ufree[--l->nufree];
	u = &l->us[k];
	u->dst = pick[1];
	n = mc_fab_path_len(&o->t, pick[0], &u->dst, 1, &why);
	if (n + 1 > u->cap) {
		free(u->fpath);
		free(u->wpath);
		u->fpath = sim_calloc(n + 1, sizeof(*u->fpath));
		u->wpath = sim_calloc(n + 1, sizeof(*u->wpath));
		u->cap = n + 1;
	}
	if (mc_fsim_send(&l->fs, pick[0], &u->dst, 1, o->flits, u->fpath,
			 u->wpath, n, t, (u64)MC_FSIM_TAG_NONE << 32 | k,
			 &why) < 0)
		l->saturated = "the worm pool is full";
}

/* Run the workload until every measured multicast is over. */
static int simulate(struct load *l)
{
	const struct lopts *o = l->o;
	u64 goal = (u64)o->batches * o->bsize;
	double per_m = l->rate * o->t.nodes / 1e6;
	double per_u = o->urate * o->t.nodes / 1e6;
	const char *why = NULL;

	if (mc_fsim_init(&l->fs, o->model, &o->t, &o->cfg, l->mem, &load_ops,
			 l, &why)) {
		fprintf(stderr, "mcastsim: fabric: %s\n", why);
		return 2;
	}
	l->next_m = exp_gap(&l->rng_m, per_m);
	l->next_u = per_u > 0 ? exp_gap(&l->rng_u, per_u) : INFINITY;
	while (l->measured_done < goal && !l->saturated && !l->err) {
		bool mc = l->next_m <= l->next_u;
		u64 t = (u64)(mc ? l->next_m : l->next_u);

		mc_fsim_run(&l->fs, t);
		retire_all(l);
		if (mc_fsim_err(&l->fs))
			l->err = mc_fsim_err(&l->fs);
		if (mc) {
			arrive_mcast(l, t);
			l->next_m += exp_gap(&l->rng_m, per_m);
		} else {
			arrive_unicast(l, t);
			l->next_u += exp_gap(&l->rng_u, per_u);
		}
	}
	if (l->err) {
		fprintf(stderr, "mcastsim: the fabric failed (%d)%s\n", l->err,
			l->err == -EDEADLK ? ": every worm waits; use --model flit" : "");
		return 1;
	}
	return 0;
}

/* ------------------------------------------------------------------ */

struct figures {
	double accepted;	/* multicasts completed per node per ms */
	double avg, avg_ci, last, last_ci;	/* us */
	double blocked;		/* us per worm */
	double copies;		/* destination copies per us */
};

static void figures(struct load *l, struct figures *f)
{
	const struct lopts *o = l->o;
	const struct mc_fab_stats *st = mc_fsim_stats(&l->fs);
	double span = (double)(mc_fsim_now(&l->fs) - l->t_begin);
	u64 worms = st->worms - l->worms0;
	u32 b;

	for (b = 0; b < o->batches; b++) {
		l->bavg[b] /= o->bsize;
		l->blast[b] /= o->bsize;
	}
	f->avg = sim_mean_ci(l->bavg, o->batches, 1, &f->avg_ci);
	f->last = sim_mean_ci(l->blast, o->batches, 1, &f->last_ci);
	f->blocked = worms ? (double)(st->blocked_ns - l->blocked0) / worms /
			     1000.0 : 0;
	f->accepted = span > 0 ? l->completed / (span / 1e6) / o->t.nodes : 0;
	f->copies = span > 0 ? l->copies / (span / 1000.0) : 0;
	if (f->last_ci > 0.25 * f->last)
		l->saturated = "the latency's confidence interval does not converge";
}

static void print_header(const struct lopts *o)
{
	char name[32];

	sim_algo_label(o->algo, o->r, name, sizeof(name));
	if (o->csv) {
		printf("topology_nodes,algorithm,dests,flits,unicast_rate,offered,accepted,avg_us,avg_ci_us,last_us,last_ci_us,blocked_us_per_worm,copies_per_us,status\n");
		return;
	}
	printf("# %u-node torus, %s, m = %u, L = %u flits, unicast %g per node per ms, %s level\n"
	       "# tau_s %u ns, tau_r %u ns, tau_n %u ns, B %u flits; %u warm-up multicasts, %u batches of %u\n"
	       "# rates: multicasts started per node per ms; latency in us from arrival to a\n"
	       "# destination (mean over destinations / last), 95 %% CI from the batch means;\n"
	       "# blocked: a worm's header waiting, us per worm; copies: multicast copies per us\n"
	       "#  offered  accepted     mean latency      last latency    blocked   copies\n",
	       o->t.nodes, name, o->m, o->flits, o->urate,
	       o->model == MC_FSIM_WORM ? "worm" : "flit", o->cfg.tau_s,
	       o->cfg.tau_r, o->cfg.tau_n, o->cfg.buffer_flits, o->warmup,
	       o->batches, o->bsize);
}

static void print_rate(const struct lopts *o, const struct load *l,
		       const struct figures *f)
{
	char name[32];

	sim_algo_label(o->algo, o->r, name, sizeof(name));
	if (o->csv && l->saturated)
		printf("%u,%s,%u,%u,%g,%g,%.6f,,,,,,,saturated\n", o->t.nodes,
		       name, o->m, o->flits, o->urate, l->rate, f->accepted);
	else if (o->csv)
		printf("%u,%s,%u,%u,%g,%g,%.6f,%.3f,%.3f,%.3f,%.3f,%.3f,%.3f,ok\n",
		       o->t.nodes, name, o->m, o->flits, o->urate, l->rate,
		       f->accepted, f->avg, f->avg_ci, f->last, f->last_ci,
		       f->blocked, f->copies);
	else if (l->saturated)
		printf("  %8g  %8.4f   saturated (%s)\n", l->rate, f->accepted,
		       l->saturated);
	else
		printf("  %8g  %8.4f  %7.1f +- %-5.1f  %7.1f +- %-5.1f %8.3f %8.3f\n",
		       l->rate, f->accepted, f->avg, f->avg_ci, f->last,
		       f->last_ci, f->blocked, f->copies);
}

/* Accepted rate of a saturated run: completions over all its time. */
static double accepted_all(const struct load *l)
{
	double span = (double)mc_fsim_now(&l->fs);

	return span > 0 ? (l->started - l->inflight) / (span / 1e6) /
			  l->o->t.nodes : 0;
}

/* One rate's run, in a thread of its own: figures kept for printing. */
struct rate_job {
	const struct lopts *o;
	u32 first, step;		/* rates first, first + step, ... */
	struct load *l;			/* per rate */
	struct figures *f;
	int *rc;
	pthread_t th;
};

static void run_rate(const struct lopts *o, u32 i, struct load *l,
		     struct figures *f, int *rc)
{
	load_alloc(l, o, o->rate[i]);
	*rc = simulate(l);
	if (!*rc && !l->saturated)
		figures(l, f);
	if (!*rc && l->saturated)
		f->accepted = accepted_all(l);
	load_free(l);	/* what print_rate reads stays: rate, saturated */
}

static void *rate_worker(void *arg)
{
	struct rate_job *j = arg;
	u32 i;

	for (i = j->first; i < j->o->nrates; i += j->step)
		run_rate(j->o, i, &j->l[i], &j->f[i], &j->rc[i]);
	return NULL;
}

/*
 * The rates are independent runs: -j of them at once, printed in order
 * (up to the first that failed), the same output with any -j.
 */
int load_main(int argc, char **argv)
{
	struct lopts o = { 0 };
	struct load *l;
	struct figures *f;
	struct rate_job *job;
	u32 i, n;
	int *rc, ret = 0;

	parse_args(argc, argv, &o);
	l = sim_calloc(o.nrates, sizeof(*l));
	f = sim_calloc(o.nrates, sizeof(*f));
	rc = sim_calloc(o.nrates, sizeof(*rc));
	n = o.jobs < o.nrates ? o.jobs : o.nrates;
	job = sim_calloc(n, sizeof(*job));
	print_header(&o);
	fflush(stdout);
	for (i = 0; i < n; i++) {
		job[i] = (struct rate_job){ .o = &o, .first = i, .step = n,
					    .l = l, .f = f, .rc = rc };
		if (i && pthread_create(&job[i].th, NULL, rate_worker, &job[i]))
			sim_die("%s: cannot start a thread", "--jobs");
	}
	rate_worker(&job[0]);
	for (i = 1; i < n; i++)
		pthread_join(job[i].th, NULL);
	for (i = 0; i < o.nrates && !ret; i++) {
		ret = rc[i];
		if (!ret)
			print_rate(&o, &l[i], &f[i]);
	}
	free(job);
	free(rc);
	free(f);
	free(l);
	return ret;
}
