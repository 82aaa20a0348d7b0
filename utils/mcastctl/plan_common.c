// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * What mcastctl plan's planners share: the usage text (plan.c does tori,
 * plan_switch.c switched clusters, plan_cube.c hypercubes and rings,
 * plan_rb.c the recursion-based broadcast), the error line and the
 * command-line checks every planner makes, and the seeded random numbers
 * behind --random, the same sequence for a seed on every topology.
 */
#include <getopt.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "mcastctl.h"

/* Each planner's table (plan.c, plan_cube.c, plan_rb.c, plan_switch.c). */
extern const struct option plan_long_opts[], cube_long_opts[];
extern const struct option rb_long_opts[], sw_long_opts[];

const struct option *const plan_opt_tables[] = {
	plan_long_opts, cube_long_opts, rb_long_opts, sw_long_opts, NULL,
};

int plan_err(int status, const char *fmt, ...)
{
	va_list ap;

	fputs("mcastctl: plan: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return status;
}

const char *plan_opt_name(const struct option *opts, int val)
{
	const struct option *o;

	for (o = opts; o->name; o++) {
		if (o->val == val)
			return o->name;
	}
	return "?";
}

/* Single-valued options may not repeat: the second would silently win. */
int plan_set_once(const struct option *opts, const char **slot, int val)
{
	if (*slot)
		return plan_err(MCASTCTL_EUSAGE, "--%s given twice",
				plan_opt_name(opts, val));
	*slot = optarg;
	return 0;
}

/* getopt_long takes unique prefixes: "--de" could be --dest or --dests-file. */
static bool ambiguous(const struct option *opts, const char *name)
{
	size_t len = strcspn(name, "=");
	const struct option *o;
	int hits = 0;

	for (o = opts; o->name; o++)
		hits += !strncmp(o->name, name, len);
	return len && hits > 1;
}

int plan_bad_option(const struct option *opts, int c, char **argv)
{
	const char *arg = argv[optind - 1];
	bool is_long = !strncmp(arg, "--", 2);

	if (c == ':' && is_long)
		return plan_err(MCASTCTL_EUSAGE, "option \"%s\" needs an argument",
				arg);
	if (c == ':')
		return plan_err(MCASTCTL_EUSAGE, "option \"-%c\" needs an argument",
				optopt);
	if (optopt && !is_long)
		return plan_err(MCASTCTL_EUSAGE, "unknown option \"-%c\"", optopt);
	if (optopt)
		return plan_err(MCASTCTL_EUSAGE, "option \"--%s\" takes no argument",
				plan_opt_name(opts, optopt));
	if (ambiguous(opts, arg + 2))
		return plan_err(MCASTCTL_EUSAGE, "ambiguous option \"%.64s\"",
				arg);
	return plan_err(MCASTCTL_EUSAGE, "unknown option \"%.64s\"", arg);
}

void cmd_plan_usage(FILE *f)
{
	fputs("usage: mcastctl plan --topology torus:K[xK...][:uni|:bi] --algorithm ALGO\n"
	      "                     --source C (--dest C ... | --dests-file FILE |\n"
	      "                     --random M [--seed S]) [--json] [--hops] [--tree]\n"
	      "       mcastctl plan --topology switch:FILE [--algorithm updown]\n"
	      "                     [--route strict|closest|farthest] [--compare binomial]\n"
	      "                     --source H (--dest H[,H...] ... | --dests-file FILE |\n"
	      "                     --random M [--seed S]) [--json] [--hops] [--tree]\n"
	      "       mcastctl plan --topology cube:N --algorithm ALGO [--port all|one]\n"
	      "                     --source BITS (--dest BITS[,BITS...] ... |\n"
	      "                     --dests-file FILE | --random M [--seed S])\n"
	      "                     [--json] [--hops] [--tree]\n"
	      "       mcastctl plan --topology cube:N --algorithm ring [--source BITS]\n"
	      "                     (--dest BITS[,BITS...] ... | --dests-file FILE |\n"
	      "                     --random M [--seed S] | --ring-order BITS,BITS...)\n"
	      "                     [--ring-order BITS,BITS...] [--json] [--hops]\n"
	      "       mcastctl plan --topology mesh:KxK|torus:KxK:bi --algorithm rb\n"
	      "                     [--port one|all] [--order ranges|paper]\n"
	      "                     [--length BYTES] [--ts US] [--tc US] --source C\n"
	      "                     [--json] [--hops] [--tree]\n"
	      "\n"
	      "Plan a multicast offline, verify it, and print it.\n"
	      "\n"
	      "  -t, --topology SPEC    torus:K[xK...] radices highest dimension first,\n"
	      "                         links :uni (default) or :bi; or switch:FILE, a\n"
	      "                         switched cluster (link A B, host N S, root S);\n"
	      "                         or cube:N, a binary N-cube (N = 1..20); rb also\n"
	      "                         takes mesh:K[xK...], a grid without wrap links\n"
	      "  -a, --algorithm ALGO   torus: separate, u-torus, s-torus, md-torus,\n"
	      "                         mu-torus:R; switch: updown (the default);\n"
	      "                         cube: u-cube, maxport, combine, w-sort;\n"
	      "                         cube, every member a sender: ring (the members\n"
	      "                         are --source, if given, and the destinations);\n"
	      "                         rb: recursion-based broadcast to every node of\n"
	      "                         a mesh or :bi torus with power-of-two sides\n"
	      "      --port MODEL       cube: all (the default) or one; rb: one (the\n"
	      "                         default) or all\n"
	      "      --order ORDER      rb: stage-1 order ranges (the default) or paper\n"
	      "      --length BYTES     rb: the message length (default 4096)\n"
	      "      --ts US, --tc US   rb: start-up and per-byte time in microseconds\n"
	      "                         for the cost against u-torus (default 150, 0.5)\n"
	      "      --route POLICY     switch: strict, closest (default) or farthest\n"
	      "      --compare binomial switch: also plan a binomial tree over rank order\n"
	      "                         and list the channels its sends share\n"
	      "  -s, --source C         the source, a coordinate a,b,c (highest dimension\n"
	      "                         first); on a switch topology a host id H; on\n"
	      "                         a cube N binary digits, highest bit first\n"
	      "  -d, --dest C           a destination; repeat for more (host ids may be\n"
	      "                         a comma list)\n"
	      "  -f, --dests-file FILE  one coordinate (or host list) per line, # comments;\n"
	      "                         - for stdin\n"
	      "  -r, --random M         M distinct random destinations besides the source\n"
	      "      --seed S           seed for --random (default 1)\n"
	      "      --ring-order LIST  ring: also check the ring in this order\n"
	      "                         (BITS,BITS...) and list the links its paths\n"
	      "                         share; alone, it names the members\n"
	      "  -j, --json             print one JSON object\n"
	      "      --hops             also print every hop (text output)\n"
	      "      --tree             also print the tree of senders (text output);\n"
	      "                         rb: each node's receive timeline\n"
	      "  -h, --help             show this help\n"
	      "\n"
	      "Exit status: 0 planned and verified, 1 invalid input, 2 usage error,\n"
	      "3 internal error (a checker rejected the plan).\n", f);
}

/* splitmix64: tiny, fast, and the same sequence everywhere for a seed. */
static uint64_t splitmix64(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* Uniform in [0, n), n > 0: reject the top sliver that would bias x % n. */
uint32_t rand_below(uint64_t *x, uint32_t n)
{
	uint64_t lim = UINT64_MAX - UINT64_MAX % n;
	uint64_t v;

	do
		v = splitmix64(x);
	while (v >= lim);
	return v % n;
}
