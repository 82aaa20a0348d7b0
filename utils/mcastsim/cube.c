// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * mcastsim cube: the stepwise comparison of U-cube, Maxport, Combine and
 * W-sort on binary n-cubes (Robinson (1994), Sec. 3.5, Figs 3.10 and 3.11).
 *
 * For every destination count d, random sets of d distinct destinations
 * (uniform over the nodes but the source, node 0 as in the dissertation:
 * the n-cube is symmetric) are planned by each algorithm with
 * mc_cube_plan, the planning core the kernel sends from, in the step
 * model of notes 3.7 (all-port by default).  Per trial, the maximum and
 * the mean over destinations of the step in which a destination
 * receives; then their averages over the trials with 95 % confidence
 * intervals.  Every algorithm sees the same sets (point by point), and
 * every schedule must pass mc_cube_check_steps (cover, step model, the
 * algorithm's bound) or the study stops: the figures are the planning
 * core's, checked.
 */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cube.h"
#include "parse.h"
#include "simutil.h"

#define NALGO	(MC_CUBE_WSORT + 1)	/* the trees (cube_algo_name()) */

struct opts {
	u32 n;				/* dimension */
	u32 dests[SIM_MAX_LIST], ndests;
	enum mc_cube_algo algo[NALGO];
	u32 nalgo;
	enum mc_cube_port port;
	u32 trials;
	u64 seed;
	bool csv;
};

static void usage(FILE *f)
{
	fputs("usage: mcastsim cube [options]\n"
	      "  -t, --topology cube:N         the binary n-cube, N 1 to 16 (default cube:6)\n"
	      "  -d, --dests LIST              destination counts (default 8,16,32,48,63)\n"
	      "  -a, --algorithms LIST         of u-cube,maxport,combine,w-sort (default all)\n"
	      "      --port all|one            port model (default all)\n"
	      "  -n, --trials N                random destination sets per point (default 100)\n"
	      "      --seed S                  random seed (default 1)\n"
	      "      --csv                     a header and one CSV line per algorithm and d\n",
	      f);
}

static u32 parse_dim(const char *s)
{
	u32 n;

	if (strncmp(s, "cube:", 5))
		sim_die("--topology: '%s' is not cube:N", s);
	n = sim_num(s + 5, "--topology");
	if (n < 1 || n > 16)
		sim_die("--topology: '%s': N is 1 to 16", s);
	return n;
}

static u32 parse_algos(const char *s, enum mc_cube_algo *out)
{
	char buf[128], *tok, *save = NULL;
	enum mc_cube_algo algo;
	u32 n = 0;

	if (strlen(s) >= sizeof(buf))
		sim_die("%s: list too long", "--algorithms");
	strcpy(buf, s);
	for (tok = strtok_r(buf, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		if (cube_algo_find(tok, &algo))
			sim_die("--algorithms: '%s' is not u-cube, maxport, combine or w-sort",
				tok);
		if (n == NALGO)
			sim_die("%s: at most the four algorithms", "--algorithms");
		out[n++] = algo;
	}
	if (!n)
		sim_die("%s: empty list", "--algorithms");
	return n;
}

static void parse_args(int argc, char **argv, struct opts *o)
{
	static const struct option lo[] = {
		{ "topology", required_argument, NULL, 't' },
		{ "dests", required_argument, NULL, 'd' },
		{ "algorithms", required_argument, NULL, 'a' },
		{ "port", required_argument, NULL, 1 },
		{ "trials", required_argument, NULL, 'n' },
		{ "seed", required_argument, NULL, 2 },
		{ "csv", no_argument, NULL, 3 },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	const char *dests = "8,16,32,48,63";
	int c;

	o->n = 6;
	o->nalgo = parse_algos("u-cube,maxport,combine,w-sort", o->algo);
	o->port = MC_CUBE_ALL_PORT;
	o->trials = 100;
	o->seed = 1;
	while ((c = getopt_long(argc, argv, "t:d:a:n:h", lo, NULL)) != -1) {
		switch (c) {
		case 't':
			o->n = parse_dim(optarg);
			break;
		case 'd':
			dests = optarg;
			break;
		case 'a':
			o->nalgo = parse_algos(optarg, o->algo);
			break;
		case 1:
			if (!strcmp(optarg, "all"))
				o->port = MC_CUBE_ALL_PORT;
			else if (!strcmp(optarg, "one"))
				o->port = MC_CUBE_ONE_PORT;
			else
				sim_die("--port: '%s' is not all or one", optarg);
			break;
		case 'n':
			o->trials = sim_num(optarg, "--trials");
			break;
		case 2:
			o->seed = sim_num(optarg, "--seed");
			break;
		case 3:
			o->csv = true;
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
	/* after -t, whichever came first: d is bounded by the cube */
	o->ndests = sim_parse_list(dests, o->dests, mc_cube_nodes(o->n) - 1,
				   "--dests");
}

/* One algorithm's figures at one point, over the trials. */
struct point {
	double *max, *avg;	/* per trial */
	u64 hops;
	u32 worst;
};

/* Plans one set by one algorithm, checks it, adds its figures. */
static void one(const struct opts *o, enum mc_cube_algo algo, const u32 *dst,
		u32 d, struct mc_cube_schedule *s, u32 *ws, struct point *p,
		u32 trial)
{
	struct mc_cube_check_result res;
	const char *why = NULL;
	u64 sum = 0;
	u32 i;

	if (mc_cube_plan(s, o->n, algo, o->port, 0, dst, d, &why))
		sim_die("cube: the planning core refused a set: %s", why);
	if (mc_cube_check_steps(s, ws, &res) ||
	    mc_cube_check_contention(s, ws, &res))
		sim_die("cube: a schedule fails its check: %s", res.what);
	for (i = 0; i < s->nsend; i++)
		sum += s->send[i].step;
	p->max[trial] = s->steps;
	p->avg[trial] = (double)sum / d;
	p->hops += mc_cube_total_hops(s);
	if (s->steps > p->worst)
		p->worst = s->steps;
}

static void report(const struct opts *o, u32 a, u32 d, const struct point *p)
{
	double mci, aci, mx = sim_mean_ci(p->max, o->trials, 1, &mci);
	double av = sim_mean_ci(p->avg, o->trials, 1, &aci);
	double hops = (double)p->hops / o->trials;

	if (o->csv)
		printf("%u,%s,%s,%u,%u,%.4f,%.4f,%.4f,%.4f,%u,%.2f\n", o->n,
		       cube_algo_name(o->algo[a]),
		       o->port == MC_CUBE_ALL_PORT ? "all" : "one", d,
		       o->trials, mx, mci, av, aci, p->worst, hops);
	else
		printf("%2u-cube %-8s d=%-5u max %6.3f +- %.3f  avg %6.3f +- %.3f  worst %2u  hops %8.1f\n",
		       o->n, cube_algo_name(o->algo[a]), d, mx, mci, av, aci,
		       p->worst, hops);
}

/* Every algorithm over the same @o->trials sets of @d destinations. */
static void run_point(const struct opts *o, u32 d)
{
	u32 nodes = mc_cube_nodes(o->n), *perm = sim_calloc(nodes, 4);
	u32 *dst = sim_calloc(d, 4), *ws, a, t, i;
	struct mc_cube_schedule s = { 0 };
	struct point p[NALGO] = { { 0 } };
	u64 seed = o->seed * 1000003ull + d;

	s.chain = sim_calloc(d + 1, sizeof(*s.chain));
	s.send = sim_calloc(d, sizeof(*s.send));
	s.n = o->n;
	s.m = d + 1;
	s.nsend = d;
	/* room for the checker's scratch at the largest schedule of d */
	ws = sim_calloc(mc_cube_check_ws_words(&s) + 2, sizeof(u64));
	for (a = 0; a < o->nalgo; a++) {
		p[a].max = sim_calloc(o->trials, sizeof(double));
		p[a].avg = sim_calloc(o->trials, sizeof(double));
	}
	for (t = 0; t < o->trials; t++) {
		/* d of the nodes 1..2^n - 1 */
		sim_pick(&seed, nodes - 1, d, perm, dst);
		for (i = 0; i < d; i++)
			dst[i]++;
		for (a = 0; a < o->nalgo; a++)
			one(o, o->algo[a], dst, d, &s, ws, &p[a], t);
	}
	for (a = 0; a < o->nalgo; a++) {
		report(o, a, d, &p[a]);
		free(p[a].max);
		free(p[a].avg);
	}
	free(ws);
	free(s.chain);
	free(s.send);
	free(dst);
	free(perm);
}

int cube_main(int argc, char **argv)
{
	struct opts o = { 0 };
	u32 i;

	parse_args(argc, argv, &o);
	if (o.csv)
		puts("n,algorithm,port,dests,trials,max_steps,max_ci,avg_steps,avg_ci,worst_max,hops");
	for (i = 0; i < o.ndests; i++)
		run_point(&o, o.dests[i]);
	return 0;
}
