// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * mcastbed-swroutes: the switches, links, hosts and static routes of a
 * switched testbed (mcastbed up switch:FILE), from a topology file
 * (utils/lib/switchfile.h) and the planning core's up*-down* routes
 * (plan/updown.h).
 *
 *   mcastbed-swroutes FILE [--route P]                the testbed
 *   mcastbed-swroutes FILE [--route P] path SRC DST   one route
 *   mcastbed-swroutes FILE [--route P] paths          every route
 *   mcastbed-swroutes FILE [--route P] check          the tables' paths
 *
 * P: strict, closest (default) or farthest, as mc_sw_route names them.
 *
 * The testbed, one item a line, fields separated by one space (switch
 * names are words of [A-Za-z0-9_.-]), in this order:
 *
 *   root R                  the switch at the root of the up*-down* tree
 *   switch I NAME LEVEL ID  switch I (0..S-1, in order of first appearance
 *                           in the file): its name, its level in the tree
 *                           (root 0) and its postorder ID
 *   link L A B tree|cross   link L (0..; file order) joins switches A and
 *                           B; whether it is the tree edge of one of them
 *   host N S LEVEL ID       node N hangs off switch S
 *   route S N L|host        at switch S, the next hop towards node N is
 *                           over link L, or the host's own port ("host")
 *                           when N hangs off S; sorted by S, then N
 *
 * Each hop of mc_sw_route depends only on the vertex it leaves and the
 * destination (plan/updown.h), so these per-destination tables make
 * exactly the planning core's paths; `check` walks them for every ordered
 * pair of hosts and compares with mc_sw_route (and mc_sw_route_relaxed):
 * "ok PAIRS pairs", or the first difference and exit 1.
 *
 * path: the route from node SRC to node DST by mc_sw_route, as
 *
 *   switches S0 S1 ... Sk   the switches it crosses, SRC's first
 *   links L1 ... Lk         the links between them ("links" alone if none)
 *
 * paths: for every ordered pair of nodes, by SRC then DST, one line
 *
 *   SRC DST S0 S1 ... Sk    the switches of the route
 *
 * Exit status: 0; 1 on a bad file (the parser's message on stderr) or a
 * failed check; 2 on bad arguments.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parse.h"
#include "switchfile.h"

#define PROG "mcastbed-swroutes"

/* The build passes the package version (dkms.conf) as MCAST_VERSION. */
#ifndef MCAST_VERSION
#define MCAST_VERSION "unknown"
#endif

static void usage(void)
{
	fprintf(stderr,
		"usage: " PROG " FILE [--route strict|closest|farthest]\n"
		"       " PROG " FILE [--route P] path SRC DST\n"
		"       " PROG " FILE [--route P] paths\n"
		"       " PROG " FILE [--route P] check\n"
		"       " PROG " --version\n");
	exit(2);
}

static const char *const policy_names[] = {
	[MC_SW_ROUTE_STRICT] = "strict",
	[MC_SW_ROUTE_CLOSEST] = "closest",
	[MC_SW_ROUTE_FARTHEST] = "farthest",
};

static u32 *chan;	/* mc_sw_route_max(g) channels */

/* The route from vertex @u to vertex @v into chan; its length. */
static u32 route(const struct mc_sw_graph *g, enum mc_sw_policy pol, u32 u,
		 u32 v)
{
	int n = mc_sw_route(g, pol, u, v, chan, mc_sw_route_max(g));

	if (n < 0) {
		fprintf(stderr, PROG ": mc_sw_route(%u, %u) failed (%d)\n", u, v,
			n);
		exit(1);
	}
	return n;
}

/*
 * The edge of the first hop from switch @s towards vertex @v: a link
 * index, or an edge >= nlinks (a host's attachment) when @v hangs off @s.
 */
static u32 first_edge(const struct mc_sw_graph *g, enum mc_sw_policy pol,
		      u32 s, u32 v)
{
	route(g, pol, s, v);
	return chan[0] >> 1;
}

static void print_bed(const struct switchfile *f, enum mc_sw_policy pol)
{
	const struct mc_sw_graph *g = &f->g;
	u32 i, h, e;

	printf("root %u\n", g->root);
	for (i = 0; i < g->nswitches; i++)
		printf("switch %u %s %u %u\n", i, f->name[i], g->level[i],
		       g->id[i]);
	for (i = 0; i < g->nlinks; i++)
		printf("link %u %u %u %s\n", i, g->link[i].a, g->link[i].b,
		       mc_sw_edge_is_tree(g, i) ? "tree" : "cross");
	for (h = 0; h < g->nhosts; h++) {
		u32 v = mc_sw_host_vertex(g, h);

		printf("host %u %u %u %u\n", h, g->host_switch[h], g->level[v],
		       g->id[v]);
	}
	for (i = 0; i < g->nswitches; i++) {
		for (h = 0; h < g->nhosts; h++) {
			e = first_edge(g, pol, i, mc_sw_host_vertex(g, h));
			if (e >= g->nlinks)
				printf("route %u %u host\n", i, h);
			else
				printf("route %u %u %u\n", i, h, e);
		}
	}
}

static u32 host_arg(const struct mc_sw_graph *g, const char *s)
{
	u32 h;

	if (parse_u32(s, MC_SW_MAX_HOSTS - 1, &h) || h >= g->nhosts) {
		fprintf(stderr, PROG ": no node \"%s\" (0..%u)\n", s,
			g->nhosts - 1);
		exit(2);
	}
	return h;
}

static int print_path(const struct switchfile *f, enum mc_sw_policy pol,
		      const char *src, const char *dst)
{
	const struct mc_sw_graph *g = &f->g;
	u32 u = host_arg(g, src), v = host_arg(g, dst), n, i;

	if (u == v) {
		fprintf(stderr, PROG ": path from node %u to itself\n", u);
		return 2;
	}
	n = route(g, pol, mc_sw_host_vertex(g, u), mc_sw_host_vertex(g, v));
	/* host -> switch, then n - 2 links, then switch -> host */
	printf("switches");
	for (i = 0; i + 1 < n; i++)
		printf(" %u", mc_sw_chan_to(g, chan[i]));
	printf("\nlinks");
	for (i = 1; i + 1 < n; i++)
		printf(" %u", chan[i] >> 1);
	printf("\n");
	return 0;
}

static void print_paths(const struct switchfile *f, enum mc_sw_policy pol)
{
	const struct mc_sw_graph *g = &f->g;
	u32 u, v, n, i;

	for (u = 0; u < g->nhosts; u++) {
		for (v = 0; v < g->nhosts; v++) {
			if (u == v)
				continue;
			n = route(g, pol, mc_sw_host_vertex(g, u),
				  mc_sw_host_vertex(g, v));
			printf("%u %u", u, v);
			for (i = 0; i + 1 < n; i++)
				printf(" %u", mc_sw_chan_to(g, chan[i]));
			printf("\n");
		}
	}
}

/* The tables print_bed prints, walked for every pair, against the routes. */
static int check(const struct switchfile *f, enum mc_sw_policy pol)
{
	const struct mc_sw_graph *g = &f->g;
	u32 s = g->nswitches, *next, *walk, u, v, x, n, i, e, pairs = 0;
	const char *why = NULL;

	next = calloc((size_t)s * g->nhosts, sizeof(*next));
	walk = calloc(mc_sw_route_max(g) + 1, sizeof(*walk));
	if (!next || !walk) {
		perror(PROG);
		return 1;
	}
	for (x = 0; x < s; x++)
		for (v = 0; v < g->nhosts; v++)
			next[(size_t)x * g->nhosts + v] =
				first_edge(g, pol, x, mc_sw_host_vertex(g, v));
	for (u = 0; u < g->nhosts; u++) {
		for (v = 0; v < g->nhosts; v++) {
			if (u == v)
				continue;
			/* the tables: from u's switch to v's port */
			n = 0;
			x = g->host_switch[u];
			for (;;) {
				e = next[(size_t)x * g->nhosts + v];
				if (n == mc_sw_route_max(g)) {
					printf("node %u to node %u: the tables loop\n", u, v);
					return 1;
				}
				walk[n++] = e;
				if (e >= g->nlinks)
					break;
				x = g->link[e].a == x ? g->link[e].b : g->link[e].a;
			}
			i = route(g, pol, mc_sw_host_vertex(g, u),
				  mc_sw_host_vertex(g, v));
			if (mc_sw_route_relaxed(g, mc_sw_host_vertex(g, u),
						mc_sw_host_vertex(g, v), chan, i,
						&why)) {
				printf("node %u to node %u: %s\n", u, v, why);
				return 1;
			}
			if (i != n + 1 || walk[n - 1] != g->nlinks + v) {
				printf("node %u to node %u: the tables take %u hops, the route %u\n",
				       u, v, n + 1, i);
				return 1;
			}
			for (i = 0; i < n; i++) {
				if (walk[i] != chan[i + 1] >> 1) {
					printf("node %u to node %u: hop %u: the tables take edge %u, the route %u\n",
					       u, v, i + 1, walk[i], chan[i + 1] >> 1);
					return 1;
				}
			}
			pairs++;
		}
	}
	printf("ok %u pairs\n", pairs);
	free(next);
	free(walk);
	return 0;
}

int main(int argc, char **argv)
{
	enum mc_sw_policy pol = MC_SW_ROUTE_CLOSEST;
	char err[PARSE_ERR_MAX];
	struct switchfile f;
	const char *file, *args[3];
	int i, nargs = 0, rc;
	u32 p;

	if (argc == 2 && (!strcmp(argv[1], "-V") || !strcmp(argv[1], "--version"))) {
		printf(PROG " %s\n", MCAST_VERSION);
		return 0;
	}
	if (argc < 2 || argv[1][0] == '-')
		usage();
	file = argv[1];
	for (i = 2; i < argc; i++) {
		if (!strcmp(argv[i], "--route")) {
			if (++i == argc)
				usage();
			for (p = 0; p <= MC_SW_ROUTE_FARTHEST; p++)
				if (!strcmp(argv[i], policy_names[p]))
					break;
			if (p > MC_SW_ROUTE_FARTHEST) {
				fprintf(stderr, PROG ": unknown route policy \"%s\" (strict, closest or farthest)\n",
					argv[i]);
				return 2;
			}
			pol = p;
		} else if (nargs < 3) {
			args[nargs++] = argv[i];
		} else {
			usage();
		}
	}
	if (!(nargs == 0 ||
	      (nargs == 1 && (!strcmp(args[0], "check") || !strcmp(args[0], "paths"))) ||
	      (nargs == 3 && !strcmp(args[0], "path"))))
		usage();

	if (switchfile_load(&f, file, err)) {
		fprintf(stderr, PROG ": %s\n", err);
		return 1;
	}
	chan = calloc(mc_sw_route_max(&f.g) + 1, sizeof(*chan));
	if (!chan) {
		perror(PROG);
		return 1;
	}
	if (nargs == 0) {
		print_bed(&f, pol);
		rc = 0;
	} else if (nargs == 1 && !strcmp(args[0], "paths")) {
		print_paths(&f, pol);
		rc = 0;
	} else if (nargs == 1) {
		rc = check(&f, pol);
	} else {
		rc = print_path(&f, pol, args[1], args[2]);
	}
	free(chan);
	switchfile_free(&f);
	if (fflush(stdout) || ferror(stdout)) {
		perror(PROG);
		return 1;
	}
	return rc;
}
