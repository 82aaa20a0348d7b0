// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * mcastsim latency: multicasts on the simulated IR fabric, in userspace,
 * with the same planning core and fabric model (plan/fabric.c) the kernel
 * runs.
 *
 * For every message length and destination count, random destination
 * sets (the same sets for every algorithm) are multicast alone on an idle
 * fabric; the average over trials of the mean and of the maximum latency
 * to a destination is printed per algorithm (Robinson (1994), Sec. 6.6).
 */
#include <errno.h>
#include <getopt.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fabric_mcast.h"
#include "fabric_worm.h"
#include "parse.h"
#include "simutil.h"

#define MAX_LIST	SIM_MAX_LIST

struct opts {
	struct mc_torus t;
	struct mc_fab_cfg cfg;
	enum mc_algo algo[MAX_LIST];
	u32 r[MAX_LIST];
	u32 nalgo;
	u32 flits[MAX_LIST], nflits;
	u32 dests[MAX_LIST], ndests;
	u32 trials;
	u32 jobs;		/* threads */
	u64 seed;
	bool csv;
	enum mc_fsim_model model;	/* flit (fabric.c) or worm level */
	enum mc_fab_header header;	/* the flits a worm's header adds */
};

static void usage(FILE *f)
{
	fputs("usage: mcastsim latency [options]\n"
	      "  -t, --topology torus:KxK[xK]   fabric (regular, unidirectional; default torus:16x16)\n"
	      "  -a, --algorithms LIST          s-torus,md-torus,mu-torus:R,u-torus (default s-torus,md-torus,mu-torus:2,mu-torus:8)\n"
	      "  -L, --flits LIST               message lengths in flits (default 8,512,16384)\n"
	      "  -m, --dests LIST               destinations per multicast (default 16,64,255)\n"
	      "  -n, --trials N                 random destination sets per point (default 40)\n"
	      "      --tau-s NS --tau-r NS --tau-n NS   start-up, reception, flit time (default 95000, 75000, 500)\n"
	      "      --buffer FLITS             virtual channel buffer (default 2)\n"
	      "      --seed S                   random seed (default 1)\n"
	      "      --csv                      one CSV line per point and algorithm\n"
	      "      --model flit|worm          fabric model: flit level (default) or the\n"
	      "                                 worm level, same results, faster\n"
	      "      --header none|addr|compound  flits a worm's header adds: none (default),\n"
	      "                                 an address per destination (Fig 5.9), or\n"
	      "                                 the compound format (Fig 6.2)\n"
	      "  -j, --jobs N                   threads (default: the CPUs online)\n",
	      f);
}

static void parse_args(int argc, char **argv, struct opts *o)
{
	static const struct option lo[] = {
		{ "topology", required_argument, NULL, 't' },
		{ "algorithms", required_argument, NULL, 'a' },
		{ "flits", required_argument, NULL, 'L' },
		{ "dests", required_argument, NULL, 'm' },
		{ "trials", required_argument, NULL, 'n' },
		{ "tau-s", required_argument, NULL, 1 },
		{ "tau-r", required_argument, NULL, 2 },
		{ "tau-n", required_argument, NULL, 3 },
		{ "buffer", required_argument, NULL, 4 },
		{ "seed", required_argument, NULL, 5 },
		{ "csv", no_argument, NULL, 6 },
		{ "model", required_argument, NULL, 7 },
		{ "header", required_argument, NULL, 8 },
		{ "jobs", required_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	char err[PARSE_ERR_MAX];
	int c;

	if (parse_topology("torus:16x16", &o->t, err))
		sim_die("%s", err);
	o->cfg = (struct mc_fab_cfg){ .vc_sets = 2, .buffer_flits = 2,
		.tau_s = 95000, .tau_r = 75000, .tau_n = 500,
		.max_worms = 65536 };
	o->nalgo = sim_parse_algos("s-torus,md-torus,mu-torus:2,mu-torus:8",
				   o->algo, o->r, false);
	o->nflits = sim_parse_list("8,512,16384", o->flits, 1u << 24, "--flits");
	o->ndests = sim_parse_list("16,64,255", o->dests, MC_MAX_NODES, "--dests");
	o->trials = 40;
	o->seed = 1;
	o->jobs = sim_default_jobs();
	while ((c = getopt_long(argc, argv, "t:a:L:m:n:j:h", lo, NULL)) != -1) {
		switch (c) {
		case 't':
			if (parse_topology(optarg, &o->t, err))
				sim_die("--topology: %s", err);
			break;
		case 'a':
			o->nalgo = sim_parse_algos(optarg, o->algo, o->r, false);
			break;
		case 'L':
			o->nflits = sim_parse_list(optarg, o->flits, 1u << 24,
					       "--flits");
			break;
		case 'm':
			o->ndests = sim_parse_list(optarg, o->dests, MC_MAX_NODES,
					       "--dests");
			break;
		case 'n':
			o->trials = sim_num(optarg, "--trials");
			break;
		case 1:
			o->cfg.tau_s = sim_num(optarg, "--tau-s");
			break;
		case 2:
			o->cfg.tau_r = sim_num(optarg, "--tau-r");
			break;
		case 3:
			o->cfg.tau_n = sim_num(optarg, "--tau-n");
			break;
		case 4:
			if (sim_num(optarg, "--buffer") > MC_FAB_MAX_BUF)
				sim_die("%s: at most 4096 flits", "--buffer");
			o->cfg.buffer_flits = (u16)sim_num(optarg, "--buffer");
			break;
		case 5:
			o->seed = sim_num(optarg, "--seed");
			break;
		case 6:
			o->csv = true;
			break;
		case 7:
			o->model = sim_model(optarg);
			break;
		case 8:
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
	if (!o->trials)
		sim_die("%s: at least one trial", "--trials");
	/*
	 * A multicast alone has at most one worm per destination in the
	 * fabric: a pool that size, not the default's 65536, which both
	 * levels clear at every trial's start (most of a worm-level trial).
	 */
	o->cfg.max_worms = o->t.nodes;
}

struct sim {
	struct mc_fabric f;
	struct mc_fab_mcast mm;
};

static void on_deliver(void *ctx, struct mc_fabric *f, u32 w, u32 i,
		       enum mc_fab_copy copy, u64 t)
{
	mc_fab_mcast_deliver(f, &((struct sim *)ctx)->mm, w, i, copy, t);
}

static void on_done(void *ctx, struct mc_fabric *f, u32 w, int err, u64 t)
{
	(void)t;
	mc_fab_mcast_done(f, &((struct sim *)ctx)->mm, w, err);
}

static const struct mc_fab_ops sim_ops = {
	.deliver = on_deliver,
	.done = on_done,
};

/* One trial's figures, ns. */
struct result {
	double avg, max;
	u64 blocked;
};

/* One multicast alone on a fresh fabric, at the level --model says. */
static int trial(const struct opts *o, struct sim *sim,
		 struct mc_schedule *s, u32 flits, struct result *res)
{
	struct mc_fsim fs;
	const char *why = NULL;
	u32 hops = mc_fab_mcast_hops(&o->t, s) + 1, i;
	void *mem = sim_calloc(mc_fsim_mem(o->model, &o->t, &o->cfg), 1);
	struct mc_fw_hop *whops = NULL;
	u64 sum = 0;
	int rc = -1;

	if (mc_fsim_init(&fs, o->model, &o->t, &o->cfg, mem, NULL, NULL,
			 &why)) {
		fprintf(stderr, "mcastsim: fabric: %s\n", why);
		free(mem);
		return -1;
	}
	/* The flit level's paths are mm.hops, the worm level's its own. */
	sim->mm.hops = NULL;
	if (o->model == MC_FSIM_WORM)
		whops = sim_calloc(hops, sizeof(*whops));
	else
		sim->mm.hops = sim_calloc(hops, sizeof(struct mc_fab_hop));
	mc_fab_mcast_init(&sim->mm, s, flits, 1);
	sim->mm.header = o->header;
	mc_fsim_mcast(&fs, &sim->mm, whops, 0);
	mc_fsim_run(&fs, U64_MAX);
	if (mc_fsim_err(&fs)) {
		fprintf(stderr, "mcastsim: the worm level stopped (%d: every worm waits); use --model flit\n",
			mc_fsim_err(&fs));
	} else if (sim->mm.received != s->ndest || sim->mm.failed ||
		   sim->mm.send_errors) {
		fprintf(stderr, "mcastsim: a multicast did not complete (%u of %u)\n",
			sim->mm.received, s->ndest);
	} else {
		for (i = 1; i < s->m; i++)
			sum += sim->mm.t_recv[i];
		res->avg = (double)sum / (s->m - 1);
		res->max = (double)sim->mm.t_last;
		res->blocked = mc_fsim_stats(&fs)->blocked_ns;
		rc = 0;
	}
	free(sim->mm.hops);
	sim->mm.hops = NULL;
	free(whops);
	free(mem);
	return rc;
}

/*
 * A thread's share of a point's trials (every nworkers-th), with its own
 * fabric and schedule.  The destination sets are drawn before, in order,
 * and each trial's figures go to its own slot: the output does not depend
 * on the number of threads.
 */
struct worker {
	const struct opts *o;
	struct sim sim;
	struct mc_schedule s;
	const u32 *sets;	/* trials x (m + 1): source, destinations */
	u32 m, flits, first, step;
	struct result *res;	/* trials x algorithms */
	int rc;
	pthread_t th;
};

static void worker_alloc(struct worker *w, const struct opts *o)
{
	u32 nodes = o->t.nodes;

	memset(w, 0, sizeof(*w));
	w->o = o;
	w->sim.f.chan = sim_calloc(mc_fab_channels(&o->t, o->cfg.vc_sets),
				sizeof(struct mc_fab_chan));
	w->sim.f.node = sim_calloc(nodes, sizeof(struct mc_fab_node));
	w->sim.f.worm = sim_calloc(o->cfg.max_worms, sizeof(struct mc_fab_worm));
	w->s.order = sim_calloc(nodes, sizeof(u32));
	w->s.msg = sim_calloc(nodes, sizeof(struct mc_msg));
	w->s.dest = sim_calloc(nodes, sizeof(struct mc_dest));
	w->sim.mm.list = sim_calloc(nodes, sizeof(u32));
	w->sim.mm.hop_off = sim_calloc(nodes + 1, sizeof(u32));
	w->sim.mm.first_msg = sim_calloc(nodes, sizeof(u32));
	w->sim.mm.next_msg = sim_calloc(nodes + 1, sizeof(u32));
	w->sim.mm.copies = sim_calloc(nodes, sizeof(u32));
	w->sim.mm.via = sim_calloc(nodes, sizeof(u32));
	w->sim.mm.t_recv = sim_calloc(nodes, sizeof(u64));
}

static void worker_free(struct worker *w)
{
	free(w->sim.f.chan);
	free(w->sim.f.node);
	free(w->sim.f.worm);
	free(w->s.order);
	free(w->s.msg);
	free(w->s.dest);
	free(w->sim.mm.list);
	free(w->sim.mm.hop_off);
	free(w->sim.mm.first_msg);
	free(w->sim.mm.next_msg);
	free(w->sim.mm.copies);
	free(w->sim.mm.via);
	free(w->sim.mm.t_recv);
}

static void *worker_run(void *arg)
{
	struct worker *w = arg;
	const struct opts *o = w->o;
	u32 k, a;

	for (k = w->first; k < o->trials && !w->rc; k += w->step) {
		const u32 *set = w->sets + (size_t)k * (w->m + 1);

		for (a = 0; a < o->nalgo && !w->rc; a++) {
			const char *why = NULL;

			if (mc_plan(&w->s, &o->t, o->algo[a], o->r[a], set[0],
				    set + 1, w->m, &why)) {
				fprintf(stderr, "mcastsim: plan: %s\n", why);
				w->rc = 1;
			} else if (trial(o, &w->sim, &w->s, w->flits,
					 &w->res[k * o->nalgo + a])) {
				w->rc = 1;
			}
		}
	}
	return NULL;
}

/*
 * The means over trials of the average and the maximum latency to a
 * destination, with their 95 % confidence intervals (Student's t over
 * the trials, which are independent draws).
 */
static void print_point(const struct opts *o, u32 m, u32 flits,
			const struct result *res)
{
	double *x = sim_calloc((size_t)o->trials * 2, sizeof(double));
	char name[32];
	u32 a, k;

	if (!o->csv)
		printf("\nm = %u, L = %u flits\n", m, flits);
	for (a = 0; a < o->nalgo; a++) {
		double avg, max, avg_ci, max_ci, blocked = 0;

		for (k = 0; k < o->trials; k++) {
			x[2 * k] = res[k * o->nalgo + a].avg / 1000.0;
			x[2 * k + 1] = res[k * o->nalgo + a].max / 1000.0;
			blocked += (double)res[k * o->nalgo + a].blocked;
		}
		avg = sim_mean_ci(x, o->trials, 2, &avg_ci);
		max = sim_mean_ci(x + 1, o->trials, 2, &max_ci);
		blocked /= o->trials * 1000.0;
		sim_algo_label(o->algo[a], o->r[a], name, sizeof(name));
		if (o->csv)
			printf("%u,%u,%u,%s,%u,%.3f,%.3f,%.3f,%.3f,%.3f\n",
			       o->t.nodes, m, flits, name, o->trials, avg, max,
			       blocked, avg_ci, max_ci);
		else
			printf("  %-14s %10.1f / %10.1f   (+-%.1f / +-%.1f)%s\n",
			       name, avg, max, avg_ci, max_ci,
			       blocked > 0 ? "  (worms waited)" : "");
	}
	free(x);
}

static int run_latency(const struct opts *o)
{
	u32 nodes = o->t.nodes, di, li, k, i;
	struct worker *w = sim_calloc(o->jobs, sizeof(*w));
	struct result *res = sim_calloc((size_t)o->trials * o->nalgo,
				     sizeof(*res));
	u32 *perm = sim_calloc(nodes, sizeof(u32)), *sets = NULL;
	int rc = 0;

	for (i = 0; i < o->jobs; i++)
		worker_alloc(&w[i], o);
	{
		const char *why = NULL;

		/* The fabric's own checks of the options, before any run. */
		if (mc_fab_init(&w[0].sim.f, &o->t, &o->cfg, w[0].sim.f.chan,
				w[0].sim.f.node, w[0].sim.f.worm, &sim_ops,
				&w[0].sim, &why)) {
			fprintf(stderr, "mcastsim: %s\n", why);
			exit(2);
		}
	}
	if (o->csv)
		printf("topology_nodes,dests,flits,algorithm,trials,avg_us,max_us,blocked_us,avg_ci_us,max_ci_us\n");
	else
		printf("# %u-node torus, tau_s %u ns, tau_r %u ns, tau_n %u ns, B %u flits, %u trials per point\n"
		       "# latency in us: mean over destinations / maximum, averaged over trials (95 %% confidence)\n",
		       nodes, o->cfg.tau_s, o->cfg.tau_r, o->cfg.tau_n,
		       o->cfg.buffer_flits, o->trials);
	for (di = 0; di < o->ndests && !rc; di++) {
		u32 m = o->dests[di];

		if (m >= nodes) {
			fprintf(stderr, "mcastsim: %u destinations need more than %u nodes\n",
				m, nodes);
			rc = 2;
			break;
		}
		free(sets);
		sets = sim_calloc((size_t)o->trials * (m + 1), sizeof(u32));
		for (li = 0; li < o->nflits && !rc; li++) {
			u64 seed = o->seed * 1000003u + m * 7919u;

			for (k = 0; k < o->trials; k++)
				sim_pick(&seed, nodes, m + 1, perm,
				     sets + (size_t)k * (m + 1));
			for (i = 0; i < o->jobs; i++) {
				w[i].sets = sets;
				w[i].m = m;
				w[i].flits = o->flits[li];
				w[i].first = i;
				w[i].step = o->jobs;
				w[i].res = res;
				if (pthread_create(&w[i].th, NULL, worker_run,
						   &w[i])) {
					perror("mcastsim: pthread_create");
					exit(1);
				}
			}
			for (i = 0; i < o->jobs; i++) {
				pthread_join(w[i].th, NULL);
				if (w[i].rc)
					rc = w[i].rc;
			}
			if (!rc)
				print_point(o, m, o->flits[li], res);
		}
	}
	for (i = 0; i < o->jobs; i++)
		worker_free(&w[i]);
	free(w);
	free(res);
	free(sets);
	free(perm);
	return rc;
}

int latency_main(int argc, char **argv)
{
	struct opts o = { 0 };

	parse_args(argc, argv, &o);
	return run_latency(&o);
}
