// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * mcastsim trace: one multicast alone on the fabric model, from a given
 * source to given destinations, and the virtual time each destination's
 * host had it.  The same configuration on the kernel's fabric
 * (mcast_irsim.ko) gives each receiver the same time (mcast_recv's
 * vtime_ns less the send's); tests/vm/guest/net_simagree.t holds the two
 * against each other.
 *
 * Output: "NODE NS" per destination, in the order of the plan (R-chain or
 * H-cycle), then "last NS".
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fabric_worm.h"
#include "parse.h"
#include "simutil.h"

struct topts {
	struct mc_torus t;
	struct mc_fab_cfg cfg;
	enum mc_algo algo;
	u32 r;
	u32 src;
	u32 *dst;		/* t.nodes entries */
	u32 ndst;
	u32 flits;
	enum mc_fab_header header;
	enum mc_fsim_model model;
};

static void usage(FILE *f)
{
	fputs("usage: mcastsim trace -t TOPOLOGY -s NODE -d NODE,... [options]\n"
	      "  -t, --topology torus:KxK[xK]   fabric (regular, unidirectional)\n"
	      "  -a, --algorithm ALGO           s-torus, md-torus, mu-torus:R or u-torus (default s-torus)\n"
	      "  -s, --source NODE              the sender's node id\n"
	      "  -d, --dests LIST               destination node ids, comma-separated\n"
	      "  -L, --flits N                  message length in flits (default 8)\n"
	      "      --header none|addr|compound  flits a header adds (default none)\n"
	      "      --tau-s NS --tau-r NS --tau-n NS   (default 95000, 75000, 500)\n"
	      "      --buffer FLITS             virtual channel buffer (default 2)\n"
	      "      --model flit|worm          the fabric's level (default flit)\n",
	      f);
}

static void parse_dests(const char *s, struct topts *o)
{
	char buf[65536], *tok, *save = NULL;

	if (strlen(s) >= sizeof(buf))
		sim_die("%s: list too long", "--dests");
	strcpy(buf, s);
	for (tok = strtok_r(buf, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		if (o->ndst == o->t.nodes)
			sim_die("%s: more destinations than nodes", "--dests");
		if (parse_u32(tok, o->t.nodes - 1, &o->dst[o->ndst]))
			sim_die("--dests: '%s' is not a node id of the torus",
				tok);
		o->ndst++;
	}
}

static void parse_args(int argc, char **argv, struct topts *o)
{
	static const struct option lo[] = {
		{ "topology", required_argument, NULL, 't' },
		{ "algorithm", required_argument, NULL, 'a' },
		{ "source", required_argument, NULL, 's' },
		{ "dests", required_argument, NULL, 'd' },
		{ "flits", required_argument, NULL, 'L' },
		{ "header", required_argument, NULL, 1 },
		{ "tau-s", required_argument, NULL, 2 },
		{ "tau-r", required_argument, NULL, 3 },
		{ "tau-n", required_argument, NULL, 4 },
		{ "buffer", required_argument, NULL, 5 },
		{ "model", required_argument, NULL, 6 },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	char err[PARSE_ERR_MAX];
	const char *dests = NULL;
	bool have_t = false, have_s = false;
	int c;

	o->cfg = (struct mc_fab_cfg){ .vc_sets = 2, .buffer_flits = 2,
		.tau_s = 95000, .tau_r = 75000, .tau_n = 500 };
	o->algo = MC_ALGO_STORUS;
	o->flits = 8;
	while ((c = getopt_long(argc, argv, "t:a:s:d:L:h", lo, NULL)) != -1) {
		switch (c) {
		case 't':
			if (parse_topology(optarg, &o->t, err))
				sim_die("--topology: %s", err);
			have_t = true;
			break;
		case 'a':
			if (parse_algorithm(optarg, &o->algo, &o->r, err))
				sim_die("--algorithm: %s", err);
			break;
		case 's':
			o->src = sim_num(optarg, "--source");
			have_s = true;
			break;
		case 'd':
			dests = optarg;
			break;
		case 'L':
			o->flits = sim_num(optarg, "--flits");
			break;
		case 1:
			o->header = sim_header(optarg);
			break;
		case 2:
			o->cfg.tau_s = sim_num(optarg, "--tau-s");
			break;
		case 3:
			o->cfg.tau_r = sim_num(optarg, "--tau-r");
			break;
		case 4:
			o->cfg.tau_n = sim_num(optarg, "--tau-n");
			break;
		case 5:
			if (sim_num(optarg, "--buffer") > MC_FAB_MAX_BUF)
				sim_die("%s: at most 4096 flits", "--buffer");
			o->cfg.buffer_flits = (u16)sim_num(optarg, "--buffer");
			break;
		case 6:
			o->model = sim_model(optarg);
			break;
		case 'h':
			usage(stdout);
			exit(0);
		default:
			usage(stderr);
			exit(2);
		}
	}
	if (optind != argc || !have_t || !have_s || !dests) {
		usage(stderr);
		exit(2);
	}
	o->dst = sim_calloc(o->t.nodes, sizeof(u32));
	parse_dests(dests, o);
	if (!o->flits)
		sim_die("%s: at least one flit", "--flits");
	o->cfg.max_worms = o->t.nodes;
}

struct run {
	struct mc_schedule s;
	struct mc_fab_mcast mm;
	struct mc_fw_hop *whops;
	struct mc_fsim fs;
	void *mem;
};

static void run_alloc(struct run *r, const struct topts *o)
{
	u32 n = o->t.nodes;

	r->s.order = sim_calloc(n, sizeof(u32));
	r->s.msg = sim_calloc(n, sizeof(struct mc_msg));
	r->s.dest = sim_calloc(n, sizeof(struct mc_dest));
	r->mm.list = sim_calloc(n, sizeof(u32));
	r->mm.hop_off = sim_calloc(n + 1, sizeof(u32));
	r->mm.first_msg = sim_calloc(n, sizeof(u32));
	r->mm.next_msg = sim_calloc(n + 1, sizeof(u32));
	r->mm.copies = sim_calloc(n, sizeof(u32));
	r->mm.via = sim_calloc(n, sizeof(u32));
	r->mm.t_recv = sim_calloc(n, sizeof(u64));
	r->mem = sim_calloc(mc_fsim_mem(o->model, &o->t, &o->cfg), 1);
}

/* Plan, lay out and run the multicast; 0 when every copy arrived. */
static int run_one(struct run *r, const struct topts *o)
{
	const char *why = NULL;
	u32 hops;

	if (mc_plan(&r->s, &o->t, o->algo, o->r, o->src, o->dst, o->ndst,
		    &why))
		sim_die("plan: %s", why);
	if (mc_fsim_init(&r->fs, o->model, &o->t, &o->cfg, r->mem, NULL, NULL,
			 &why))
		sim_die("fabric: %s", why);
	hops = mc_fab_mcast_hops(&o->t, &r->s) + 1;
	if (o->model == MC_FSIM_WORM)
		r->whops = sim_calloc(hops, sizeof(*r->whops));
	else
		r->mm.hops = sim_calloc(hops, sizeof(struct mc_fab_hop));
	mc_fab_mcast_init(&r->mm, &r->s, o->flits, 1);
	r->mm.header = o->header;
	mc_fsim_mcast(&r->fs, &r->mm, r->whops, 0);
	mc_fsim_run(&r->fs, U64_MAX);
	if (mc_fsim_err(&r->fs) || r->mm.received != r->s.ndest ||
	    r->mm.failed || r->mm.send_errors) {
		fprintf(stderr, "mcastsim: the multicast did not complete (%u of %u copies)\n",
			r->mm.received, r->s.ndest);
		return 1;
	}
	return 0;
}

int trace_main(int argc, char **argv)
{
	struct topts o = { 0 };
	struct run r = { 0 };
	u32 i;
	int rc;

	parse_args(argc, argv, &o);
	run_alloc(&r, &o);
	rc = run_one(&r, &o);
	for (i = 1; !rc && i < r.s.m; i++)
		printf("%u %llu\n", r.s.order[i],
		       (unsigned long long)r.mm.t_recv[i]);
	if (!rc)
		printf("last %llu\n", (unsigned long long)r.mm.t_last);
	free(r.s.order);
	free(r.s.msg);
	free(r.s.dest);
	free(r.mm.list);
	free(r.mm.hops);
	free(r.mm.hop_off);
	free(r.mm.first_msg);
	free(r.mm.next_msg);
	free(r.mm.copies);
	free(r.mm.via);
	free(r.mm.t_recv);
	free(r.whops);
	free(r.mem);
	free(o.dst);
	return rc;
}
