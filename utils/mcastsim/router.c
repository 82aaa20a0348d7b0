// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * mcastsim router: the router study of Fulgham (1997), ch. 4, 5 and 6, on the
 * model of router_model.c, packet (VCT) or wormhole: unicast traffic at a
 * normalized load, or a sweep of loads, on a k x k torus or mesh, with the
 * dimension-order oblivious router, Duato's, the Minimal Triplex, the
 * non-minimal Triplex (deroutes) or the Chaos router, and input- or
 * output-driven arbitration.  One line per load: the offered and delivered
 * throughput (normalized to the bisection limit, 95 % intervals by batch
 * means), the latency (injection buffer to delivery, source queueing
 * excluded), the mean hops, and whether the network is saturated; the CSV
 * also counts the non-minimal hops (deroutes).  --mix-class X runs ch. 4's
 * mixed-class traffic on a Triplex router: X percent of the messages in the
 * oblivious class, the rest in the router's own; each class's latency and
 * out-of-order deliveries follow.
 *
 * Also, to check the model: --selftest (the generator's test vectors),
 * --probe SRC:DST (one packet alone: its latency and hops), --map NODE
 * (the pattern's destination of NODE, or NODE's probability as a
 * destination) and --hops (the pattern's exact mean hop distance).
 */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "router_model.h"
#include "simutil.h"

#define MAX_LOADS	200

struct ropts {
	struct rm_cfg c;
	double load[MAX_LOADS];
	u32 nloads;
	bool csv, selftest, hops, depth_set;
	s64 probe_src, probe_dst, map;
};

static void usage(FILE *f)
{
	fputs("usage: mcastsim router [options]\n"
	      "  -t, --topology torus:KxK|mesh:KxK   the network (default torus:16x16)\n"
	      "      --k K                       K x K nodes (4..64)\n"
	      "      --mesh | --torus            the topology alone\n"
	      "  -a, --algorithm do|duato|min-triplex|triplex|chaos   the router (default do)\n"
	      "      --deroute-wait N            triplex: cycles blocked before a deroute\n"
	      "                                  (default 160 wormhole, 400 vct)\n"
	      "      --deroute-p P               triplex: the deroute probability per routing\n"
	      "                                  attempt, 0 to below 1 (default .1, .00001)\n"
	      "      --mix-class X               min-triplex, triplex: X percent (0..100) of the\n"
	      "                                  messages in the oblivious class (Rule 1, in\n"
	      "                                  order), the rest in the router's own class\n"
	      "      --arbitration in-fixed|in-random|out   (default out)\n"
	      "      --traffic NAME              random, bitrev, complement, shuffle,\n"
	      "                                  transpose, hotspot1, hotspot2 (default random);\n"
	      "                                  hotspot2-once: hot spot 2 with its node 51 once\n"
	      "      --load L                    normalized applied load (default 0.5)\n"
	      "      --loads A:B:S               a sweep from A to B by S (e.g. 0.05:1:0.05)\n"
	      "      --warmup N                  cycles discarded first (default 10000)\n"
	      "      --batches B                 batches measured (default 10, at least 2)\n"
	      "      --batch-size N              cycles per batch (default 4000)\n"
	      "      --cycles N                  cycles measured: batch size N / B\n"
	      "      --len W --depth W           packet length and buffer depth, words (20, 20)\n"
	      "      --flow vct|wormhole         flow control (default vct); wormhole: 1-word\n"
	      "                                  buffers, simplex channels (ch. 4)\n"
	      "      --mix S:L:R                 wormhole: S- and L-word messages, R to 1\n"
	      "                                  (ch. 4: 40:400:10)\n"
	      "      --latency N                 node latency, cycles (default 3 DO, else 4)\n"
	      "      --seed S                    the generator's X0, 1..2^31-2 (default 1)\n"
	      "      --csv                       one CSV line per load (with the deroutes:\n"
	      "                                  non-minimal hops in the measured batches)\n"
	      "  checks: --selftest, --probe SRC:DST, --map NODE, --hops\n",
	      f);
}

/* A number in [lo, hi], or sim_die naming @what. */
static double parse_real(const char *s, const char *what, double lo,
			 double hi)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (errno || end == s || *end || !isfinite(v) || v < lo || v > hi)
		sim_die("%s: not a number in range", what);
	return v;
}

static void parse_topo(const char *s, struct ropts *o)
{
	const char *p = strchr(s, ':');
	u32 a, b;
	char x;

	if (!p)
		sim_die("--topology: '%s' is not torus:KxK or mesh:KxK", s);
	if (!strncmp(s, "torus:", 6))
		o->c.topo = RM_TORUS;
	else if (!strncmp(s, "mesh:", 5))
		o->c.topo = RM_MESH;
	else
		sim_die("--topology: '%s' is not torus:KxK or mesh:KxK", s);
	if (sscanf(p + 1, "%ux%u%c", &a, &b, &x) != 2 || a != b)
		sim_die("--topology: '%s': only square KxK networks", s);
	o->c.k = a;
}

static void parse_loads(const char *s, struct ropts *o)
{
	char buf[128], *p1, *p2;
	double a, b, st, v;

	if (strlen(s) >= sizeof(buf))
		sim_die("%s: too long", "--loads");
	strcpy(buf, s);
	p1 = strchr(buf, ':');
	p2 = p1 ? strchr(p1 + 1, ':') : NULL;
	if (!p2)
		sim_die("--loads: '%s' is not FROM:TO:STEP", s);
	*p1 = *p2 = '\0';
	a = parse_real(buf, "--loads", 0, 10);
	b = parse_real(p1 + 1, "--loads", a, 10);
	st = parse_real(p2 + 1, "--loads", 1e-6, 10);
	o->nloads = 0;
	for (v = a; v <= b + st * 1e-6; v += st) {
		if (o->nloads == MAX_LOADS)
			sim_die("%s: at most 200 loads", "--loads");
		/* round to the step's grid: 0.05 * 3 is 0.15, not 0.1500001 */
		o->load[o->nloads++] = round((v - a) / st) * st + a;
	}
}

/* --mix S:L:R: S-word and L-word messages, R short to one long. */
static void parse_mix(const char *s, struct ropts *o)
{
	u32 a, b, r;
	char x;

	if (sscanf(s, "%u:%u:%u%c", &a, &b, &r, &x) != 3 || strchr(s, '-'))
		sim_die("--mix: '%s' is not SHORT:LONG:RATIO (e.g. 40:400:10)",
			s);
	if (!a || !b || !r)
		sim_die("--mix: '%s': lengths and ratio at least 1", s);
	o->c.len = a;
	o->c.len2 = b;
	o->c.mix = r;
}

/* A node number (decimal or 0x hex), or sim_die naming @what. */
static s64 parse_node(const char *s, const char *what)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(s, &end, 0);
	if (errno || end == s || *end || *s == '-' || v > 65535)
		sim_die("%s: not a node number", what);
	return (s64)v;
}

static void parse_probe(const char *s, struct ropts *o)
{
	char buf[64], *colon;

	if (strlen(s) >= sizeof(buf) || !strchr(s, ':'))
		sim_die("--probe: '%s' is not SRC:DST", s);
	strcpy(buf, s);
	colon = strchr(buf, ':');
	*colon = '\0';
	o->probe_src = parse_node(buf, "--probe");
	o->probe_dst = parse_node(colon + 1, "--probe");
}

static void parse_args(int argc, char **argv, struct ropts *o)
{
	static const struct option lo[] = {
		{ "topology", required_argument, NULL, 't' },
		{ "algorithm", required_argument, NULL, 'a' },
		{ "k", required_argument, NULL, 1 },
		{ "mesh", no_argument, NULL, 2 },
		{ "torus", no_argument, NULL, 3 },
		{ "arbitration", required_argument, NULL, 4 },
		{ "traffic", required_argument, NULL, 5 },
		{ "load", required_argument, NULL, 6 },
		{ "loads", required_argument, NULL, 7 },
		{ "warmup", required_argument, NULL, 8 },
		{ "batches", required_argument, NULL, 9 },
		{ "batch-size", required_argument, NULL, 10 },
		{ "cycles", required_argument, NULL, 11 },
		{ "len", required_argument, NULL, 12 },
		{ "depth", required_argument, NULL, 13 },
		{ "latency", required_argument, NULL, 14 },
		{ "seed", required_argument, NULL, 15 },
		{ "csv", no_argument, NULL, 16 },
		{ "selftest", no_argument, NULL, 17 },
		{ "probe", required_argument, NULL, 18 },
		{ "map", required_argument, NULL, 19 },
		{ "hops", no_argument, NULL, 20 },
		{ "flow", required_argument, NULL, 21 },
		{ "mix", required_argument, NULL, 22 },
		{ "deroute-wait", required_argument, NULL, 23 },
		{ "deroute-p", required_argument, NULL, 24 },
		{ "mix-class", required_argument, NULL, 25 },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	u32 cycles = 0;
	const char *why;
	int c, v;

	rm_cfg_default(&o->c);
	o->load[0] = o->c.load;
	o->nloads = 1;
	o->probe_src = o->probe_dst = o->map = -1;
	while ((c = getopt_long(argc, argv, "t:a:h", lo, NULL)) != -1) {
		switch (c) {
		case 't':
			parse_topo(optarg, o);
			break;
		case 'a':
			v = rm_algo_parse(optarg);
			if (v < 0)
				sim_die("--algorithm: '%s' is not do, duato, min-triplex, triplex or chaos",
					optarg);
			o->c.algo = (enum rm_algo)v;
			break;
		case 1:
			o->c.k = sim_num(optarg, "--k");
			break;
		case 2:
		case 3:
			o->c.topo = c == 2 ? RM_MESH : RM_TORUS;
			break;
		case 4:
			v = rm_arb_parse(optarg);
			if (v < 0)
				sim_die("--arbitration: '%s' is not in-fixed, in-random or out",
					optarg);
			o->c.arb = (enum rm_arb)v;
			break;
		case 5:
			v = rm_traffic_parse(optarg);
			if (v < 0)
				sim_die("--traffic: no pattern named '%s'",
					optarg);
			o->c.traffic = (enum rm_traffic)v;
			break;
		case 6:
			o->load[0] = parse_real(optarg, "--load", 0, 10);
			o->nloads = 1;
			break;
		case 7:
			parse_loads(optarg, o);
			break;
		case 8:
			o->c.warmup = sim_num(optarg, "--warmup");
			break;
		case 9:
			o->c.batches = sim_num(optarg, "--batches");
			break;
		case 10:
			o->c.batch = sim_num(optarg, "--batch-size");
			break;
		case 11:
			cycles = sim_num(optarg, "--cycles");
			break;
		case 12:
			o->c.len = sim_num(optarg, "--len");
			break;
		case 13:
			o->c.depth = sim_num(optarg, "--depth");
			o->depth_set = true;
			break;
		case 14:
			o->c.latency = sim_num(optarg, "--latency");
			if (!o->c.latency)
				sim_die("%s: at least one cycle", "--latency");
			break;
		case 15:
			o->c.seed = sim_num(optarg, "--seed");
			break;
		case 16:
			o->csv = true;
			break;
		case 17:
			o->selftest = true;
			break;
		case 18:
			parse_probe(optarg, o);
			break;
		case 19:
			o->map = parse_node(optarg, "--map");
			break;
		case 20:
			o->hops = true;
			break;
		case 21:
			v = rm_flow_parse(optarg);
			if (v < 0)
				sim_die("--flow: '%s' is not vct or wormhole",
					optarg);
			o->c.flow = (enum rm_flow)v;
			break;
		case 22:
			parse_mix(optarg, o);
			break;
		case 23:
			v = (int)sim_num(optarg, "--deroute-wait");
			if (v < 0 || v > 1000000)
				sim_die("%s: 0 to 1000000 cycles", "--deroute-wait");
			o->c.dwait = v;
			break;
		case 24:
			/* p < 1 (Cor. 20): rm_cfg_check says so */
			o->c.dprob = parse_real(optarg, "--deroute-p", 0, 1);
			break;
		case 25:
			/* the router must be a Triplex: rm_cfg_check says so */
			o->c.obliv = parse_real(optarg, "--mix-class", 0, 100);
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
	if (cycles) {
		if (cycles < o->c.batches)
			sim_die("%s: fewer cycles than batches", "--cycles");
		o->c.batch = cycles / o->c.batches;
	}
	/* wormhole buffers hold a word: the default, not the packet's 20 */
	if (o->c.flow == RM_WORMHOLE && !o->depth_set)
		o->c.depth = 1;
	why = rm_cfg_check(&o->c);
	if (why)
		sim_die("%s", why);
	if (o->probe_src >= (s64)o->c.k * o->c.k ||
	    o->probe_dst >= (s64)o->c.k * o->c.k)
		sim_die("%s: a node beyond the network", "--probe");
	if (o->map >= (s64)o->c.k * o->c.k)
		sim_die("%s: a node beyond the network", "--map");
}

static void topo_label(const struct rm_cfg *c, char *buf, size_t n)
{
	snprintf(buf, n, "%s:%ux%u", rm_topo_name(c->topo), c->k, c->k);
}

static int checks(const struct ropts *o)
{
	char buf[512];
	u32 lat, hops;
	double p;
	int d;

	if (o->selftest) {
		u32 bad = rm_selftest(buf, sizeof(buf));

		fputs(buf, stdout);
		printf("selftest: %s\n", bad ? "FAILED" : "ok");
		return bad ? 1 : 0;
	}
	if (o->probe_src >= 0) {
		if (rm_probe(&o->c, (u32)o->probe_src, (u32)o->probe_dst,
			     &lat, &hops)) {
			fputs("mcastsim: router: the probe was not delivered\n",
			      stderr);
			return 1;
		}
		printf("latency %u hops %u\n", lat, hops);
		return 0;
	}
	if (o->map >= 0) {
		d = rm_pattern_dest(&o->c, (u32)o->map, &p);
		if (d >= 0)
			printf("%lld -> %d\n", (long long)o->map, d);
		else
			printf("%lld: probability %.6f\n", (long long)o->map, p);
		return 0;
	}
	printf("mean hops %.4f\n", rm_pattern_hops(&o->c));
	return 0;
}

/*
 * Mixed classes: each class's figures after the line's, CSV or text
 * (the oblivious class's share of the deliveries, latency and deliveries
 * out of order, then the adaptive class's).
 */
static void class_fields(bool csv, const struct rm_result *r)
{
	if (csv)
		printf(",%.4f,%.2f,%.2f,%llu,%llu", r->obl_share, r->obl_lat,
		       r->ada_lat, (unsigned long long)r->obl_reorder,
		       (unsigned long long)r->ada_reorder);
	else
		printf(" obliv %.1f%% %.2f (%llu late) adaptive %.2f (%llu late)",
		       100 * r->obl_share, r->obl_lat,
		       (unsigned long long)r->obl_reorder, r->ada_lat,
		       (unsigned long long)r->ada_reorder);
}

int router_main(int argc, char **argv)
{
	struct ropts o;
	struct rm_result r;
	char topo[32];
	u32 i;
	int rc = 0;
	bool wh, mixed;

	memset(&o, 0, sizeof(o));
	parse_args(argc, argv, &o);
	wh = o.c.flow == RM_WORMHOLE;
	mixed = o.c.obliv >= 0;
	if (o.selftest || o.probe_src >= 0 || o.map >= 0 || o.hops)
		return checks(&o);
	topo_label(&o.c, topo, sizeof(topo));
	/* wormhole: the mean length of the messages injected; deroutes last */
	if (o.csv)
		printf("topology,algorithm,arbitration,traffic,load,offered,throughput,throughput_ci,latency,latency_ci,hops,saturated%s,deroutes%s\n",
		       wh ? ",mean_length" : "",
		       mixed ? ",obliv_share,obliv_latency,adaptive_latency,obliv_out_of_order,adaptive_out_of_order" : "");
	else if (mixed)
		printf("# %s %s %s %s %s, mean length %.3f words, %g %% oblivious class: normalized load, throughput, latency (cycles), 95 %% intervals; per class: share delivered, latency, out of order\n"
		       "%6s %8s %16s %18s %6s %s\n", topo,
		       rm_algo_name(o.c.algo), rm_arb_name(o.c.arb),
		       rm_traffic_name(o.c.traffic), rm_flow_name(o.c.flow),
		       rm_mean_len(&o.c), o.c.obliv, "load", "offered",
		       "throughput", "latency", "hops", "");
	else
		printf("# %s %s %s %s %s, mean length %.3f words: normalized load, throughput, latency (cycles), 95 %% intervals\n"
		       "%6s %8s %16s %18s %6s %s\n", topo,
		       rm_algo_name(o.c.algo), rm_arb_name(o.c.arb),
		       rm_traffic_name(o.c.traffic), rm_flow_name(o.c.flow),
		       rm_mean_len(&o.c), "load", "offered",
		       "throughput", "latency", "hops", "");
	for (i = 0; i < o.nloads; i++) {
		o.c.load = o.load[i];
		if (rm_run(&o.c, &r)) {
			fprintf(stderr, "mcastsim: router: deadlock at load %.2f\n",
				o.c.load);
			rc = 1;
		}
		if (o.csv) {
			printf("%s,%s,%s,%s,%.2f,%.4f,%.4f,%.4f,%.2f,%.2f,%.3f,%d",
			       topo, rm_algo_name(o.c.algo),
			       rm_arb_name(o.c.arb),
			       rm_traffic_name(o.c.traffic), o.c.load,
			       r.offered, r.thr, r.thr_ci, r.lat, r.lat_ci,
			       r.hops, r.saturated);
			if (wh)
				printf(",%.3f", r.len_mean);
			printf(",%llu", (unsigned long long)r.deroutes);
		} else
			printf("%6.2f %8.4f %8.4f +- %.4f %9.2f +- %6.2f %6.3f %s",
			       o.c.load, r.offered, r.thr, r.thr_ci, r.lat,
			       r.lat_ci, r.hops,
			       r.saturated ? "saturated" : "");
		if (mixed)
			class_fields(o.csv, &r);
		putchar('\n');
		fflush(stdout);
	}
	return rc;
}
