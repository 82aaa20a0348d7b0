// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * mcastsim visits: the network traffic a multicast makes, as Robinson (1994),
 * Sec. 6.6, counts it (Fig 6.8): link visits, one per link a message crosses.
 * Times the length and tau_n, it is the sum over links of the time the
 * multicast holds them.
 *
 * A worm follows R_UTPR from each destination to the next, a minimal path
 * on a unidirectional torus, so its visits are the sum of the distances
 * along its list (mc_schedule_hops).  The count depends on the schedule
 * only, not on timing: no fabric runs here.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "parse.h"
#include "simutil.h"

struct vopts {
	struct mc_torus t;
	enum mc_algo algo[SIM_MAX_LIST];
	u32 r[SIM_MAX_LIST];
	u32 nalgo;
	u32 dests[SIM_MAX_LIST], ndests;
	u32 trials;
	u64 seed;
	bool csv;
};

static void usage(FILE *f)
{
	fputs("usage: mcastsim visits [options]\n"
	      "  -t, --topology torus:KxK[xK]   (default torus:64x64)\n"
	      "  -a, --algorithms LIST          (default s-torus,md-torus,mu-torus:8,mu-torus:64,mu-torus:2)\n"
	      "  -m, --dests LIST               destinations per multicast (default 16,64,256,1024)\n"
	      "  -n, --trials N                 random destination sets per point (default 400)\n"
	      "      --seed S                   random seed (default 1)\n"
	      "      --csv                      one CSV line per point and algorithm\n",
	      f);
}

static void parse_args(int argc, char **argv, struct vopts *o)
{
	static const struct option lo[] = {
		{ "topology", required_argument, NULL, 't' },
		{ "algorithms", required_argument, NULL, 'a' },
		{ "dests", required_argument, NULL, 'm' },
		{ "trials", required_argument, NULL, 'n' },
		{ "seed", required_argument, NULL, 1 },
		{ "csv", no_argument, NULL, 2 },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	char err[PARSE_ERR_MAX];
	int c;

	if (parse_topology("torus:64x64", &o->t, err))
		sim_die("%s", err);
	o->nalgo = sim_parse_algos("s-torus,md-torus,mu-torus:8,mu-torus:64,mu-torus:2",
				   o->algo, o->r, true);
	o->ndests = sim_parse_list("16,64,256,1024", o->dests, MC_MAX_NODES,
				   "--dests");
	o->trials = 400;
	o->seed = 1;
	while ((c = getopt_long(argc, argv, "t:a:m:n:h", lo, NULL)) != -1) {
		switch (c) {
		case 't':
			if (parse_topology(optarg, &o->t, err))
				sim_die("--topology: %s", err);
			break;
		case 'a':
			o->nalgo = sim_parse_algos(optarg, o->algo, o->r, true);
			break;
		case 'm':
			o->ndests = sim_parse_list(optarg, o->dests,
						   MC_MAX_NODES, "--dests");
			break;
		case 'n':
			o->trials = sim_num(optarg, "--trials");
			break;
		case 1:
			o->seed = sim_num(optarg, "--seed");
			break;
		case 2:
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
}

/* The mean link visits of @o->trials multicasts to @m destinations. */
static int point(const struct vopts *o, struct mc_schedule *s, u32 *perm,
		 u32 *set, u32 m, double *mean)
{
	u64 seed = o->seed * 1000003u + m * 7919u;
	u32 k, a;

	for (a = 0; a < o->nalgo; a++)
		mean[a] = 0;
	for (k = 0; k < o->trials; k++) {
		sim_pick(&seed, o->t.nodes, m + 1, perm, set);
		for (a = 0; a < o->nalgo; a++) {
			const char *why = NULL;

			if (mc_plan(s, &o->t, o->algo[a], o->r[a], set[0],
				    set + 1, m, &why)) {
				fprintf(stderr, "mcastsim: plan: %s\n", why);
				return 1;
			}
			mean[a] += (double)mc_schedule_hops(s);
		}
	}
	for (a = 0; a < o->nalgo; a++)
		mean[a] /= o->trials;
	return 0;
}

int visits_main(int argc, char **argv)
{
	struct vopts o = { 0 };
	struct mc_schedule s = { 0 };
	double mean[SIM_MAX_LIST];
	u32 *perm, *set, di, a;
	char name[32];
	int rc = 0;

	parse_args(argc, argv, &o);
	perm = sim_calloc(o.t.nodes, sizeof(u32));
	set = sim_calloc(o.t.nodes, sizeof(u32));
	s.order = sim_calloc(o.t.nodes, sizeof(u32));
	s.msg = sim_calloc(o.t.nodes, sizeof(struct mc_msg));
	s.dest = sim_calloc(o.t.nodes, sizeof(struct mc_dest));
	if (o.csv)
		printf("topology_nodes,dims,dests,algorithm,trials,link_visits\n");
	else
		printf("# %u-node torus, %u trials per point: mean link visits per multicast\n",
		       o.t.nodes, o.trials);
	for (di = 0; di < o.ndests && !rc; di++) {
		u32 m = o.dests[di];

		if (m >= o.t.nodes) {
			fprintf(stderr, "mcastsim: %u destinations need more than %u nodes\n",
				m, o.t.nodes);
			rc = 2;
			break;
		}
		rc = point(&o, &s, perm, set, m, mean);
		if (!rc && !o.csv)
			printf("\nm = %u\n", m);
		for (a = 0; a < o.nalgo && !rc; a++) {
			sim_algo_label(o.algo[a], o.r[a], name, sizeof(name));
			if (o.csv)
				printf("%u,%u,%u,%s,%u,%.2f\n", o.t.nodes,
				       o.t.n, m, name, o.trials, mean[a]);
			else
				printf("  %-14s %10.1f\n", name, mean[a]);
		}
	}
	free(perm);
	free(set);
	free(s.order);
	free(s.msg);
	free(s.dest);
	return rc;
}
