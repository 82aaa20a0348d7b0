// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * mcastbed-routes: the static routes of an mcastbed torus after nodes died.
 *
 *   mcastbed-routes uni|bi K0 [K1...] [-d DEAD]...
 *
 * K0 K1 ...: the radices, sigma_0 first (mcastbed's DIMS).  Prints, for
 * every live node U and every other node V, one line
 *
 *   U route replace ADDR(V)/32 via ADDR(W) dev IF onlink
 *
 * (the rest of the line is for `ip -n mcbU -batch -`), or, when no path of
 * live nodes leads from U to V (V dead, or cut off),
 *
 *   U route replace unreachable ADDR(V)/32
 *
 * so a packet for a dead node fails at once instead of circling: what a
 * routing daemon does when a node's routes are withdrawn.
 *
 * Next hop W: the dimension-ordered one (UTR on uni, BTR on bi, exactly as
 * `mcastbed up` sets it) when the dimension-ordered route from U to V
 * crosses no dead node; so pairs the deaths do not touch keep their routes.
 * Otherwise the first neighbour (highest dimension first, +1 before -1)
 * that is one hop closer to V in the torus minus the dead nodes, by BFS.
 * On uni only +1 links carry traffic, as in UTR.
 *
 * The resulting paths are loop-free and shortest in the surviving graph:
 * the dimension-ordered route is a shortest torus path, and its every
 * suffix is again a dimension-ordered route (so once a packet is on one
 * that avoids the dead, it stays on it); the other nodes step to a node
 * strictly closer by BFS.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The build passes the package version (dkms.conf) as MCAST_VERSION. */
#ifndef MCAST_VERSION
#define MCAST_VERSION "unknown"
#endif

#define MAX_DIMS 16
#define MAX_NODES 65536

static int ndims, n, bidir;
static int k[MAX_DIMS], stride[MAX_DIMS];
static unsigned char *dead;
static int *dist, *queue;

static int coord(int u, int d)
{
	return u / stride[d] % k[d];
}

/* The neighbour of u one step in dimension d, direction dir (+1/-1). */
static int nb(int u, int d, int dir)
{
	int c = coord(u, d);

	return u + ((c + dir + k[d]) % k[d] - c) * stride[d];
}

/* The interface of u towards that neighbour, named as mcastbed names it. */
static void ifname(char *buf, size_t len, int u, int d, int dir)
{
	if (k[d] == 2) /* one veth pair per ring: d<d>p at coordinate 0 */
		snprintf(buf, len, "d%d%c", d, coord(u, d) == 0 ? 'p' : 'm');
	else
		snprintf(buf, len, "d%d%c", d, dir > 0 ? 'p' : 'm');
}

static void addr(char *buf, size_t len, int u)
{
	snprintf(buf, len, "10.77.%d.%d", u / 256, u % 256);
}

/*
 * The dimension-ordered first step from u towards v (u != v): the highest
 * differing dimension; +1 on uni, the shorter way on bi (at exactly K/2
 * the way that does not wrap).
 */
static void dor_step(int u, int v, int *dp, int *dirp)
{
	int d = ndims - 1, cu, cv, delta;

	while (coord(u, d) == coord(v, d))
		d--;
	*dp = d;
	*dirp = 1;
	if (!bidir)
		return;
	cu = coord(u, d);
	cv = coord(v, d);
	delta = (cv - cu + k[d]) % k[d];
	if (delta > k[d] - delta || (delta == k[d] - delta && cv < cu))
		*dirp = -1;
}

/* Does the dimension-ordered route from u to v avoid every dead node? */
static int dor_clear(int u, int v)
{
	int d, dir;

	while (u != v) {
		dor_step(u, v, &d, &dir);
		u = nb(u, d, dir);
		if (dead[u])
			return 0;
	}
	return 1;
}

/*
 * dist[u]: hops from u to v over live nodes (-1: no path).  BFS from v
 * backwards: u precedes w when w = nb(u, d, dir) for a usable dir.
 */
static void bfs_to(int v)
{
	int head = 0, tail = 0, w, u, d, dir;

	for (u = 0; u < n; u++)
		dist[u] = -1;
	dist[v] = 0;
	queue[tail++] = v;
	while (head < tail) {
		w = queue[head++];
		for (d = ndims - 1; d >= 0; d--) {
			for (dir = 1; dir >= -1; dir -= 2) {
				if (dir < 0 && !bidir)
					break;
				u = nb(w, d, -dir);
				if (dead[u] || dist[u] >= 0)
					continue;
				dist[u] = dist[w] + 1;
				queue[tail++] = u;
			}
		}
	}
}

/* A live neighbour of u one hop closer to v (dist from bfs_to(v)). */
static int closer_step(int u, int *dp, int *dirp)
{
	int d, dir, w;

	for (d = ndims - 1; d >= 0; d--) {
		for (dir = 1; dir >= -1; dir -= 2) {
			if (dir < 0 && !bidir)
				break;
			w = nb(u, d, dir);
			if (!dead[w] && dist[w] == dist[u] - 1) {
				*dp = d;
				*dirp = dir;
				return 1;
			}
		}
	}
	return 0;
}

static void print_route(int u, int v)
{
	char a[32], via[32], dev[16];
	int d, dir;

	addr(a, sizeof(a), v);
	if (dead[v] || dist[u] < 0) {
		printf("%d route replace unreachable %s/32\n", u, a);
		return;
	}
	if (dor_clear(u, v)) {
		dor_step(u, v, &d, &dir);
	} else if (!closer_step(u, &d, &dir)) {
		/* cannot happen: dist[u] > 0 has a neighbour at dist - 1 */
		fprintf(stderr, "mcastbed-routes: no step from %d to %d\n", u, v);
		exit(1);
	}
	addr(via, sizeof(via), nb(u, d, dir));
	ifname(dev, sizeof(dev), u, d, dir);
	printf("%d route replace %s/32 via %s dev %s onlink\n", u, a, via, dev);
}

static void usage(void)
{
	fprintf(stderr, "usage: mcastbed-routes uni|bi K0 [K1...] [-d DEAD]...\n"
		"       mcastbed-routes --version\n");
	exit(2);
}

static int number(const char *s, long max)
{
	char *end;
	long x = strtol(s, &end, 10);

	if (!*s || *end || x < 0 || x > max)
		usage();
	return x;
}

int main(int argc, char **argv)
{
	int i, u, v;

	if (argc == 2 && (!strcmp(argv[1], "-V") || !strcmp(argv[1], "--version"))) {
		printf("mcastbed-routes %s\n", MCAST_VERSION);
		return 0;
	}
	if (argc < 3)
		usage();
	if (!strcmp(argv[1], "bi"))
		bidir = 1;
	else if (strcmp(argv[1], "uni"))
		usage();
	n = 1;
	for (i = 2; i < argc && strcmp(argv[i], "-d"); i++) {
		if (ndims == MAX_DIMS)
			usage();
		k[ndims] = number(argv[i], MAX_NODES);
		if (k[ndims] < 2 || (long)n * k[ndims] > MAX_NODES)
			usage();
		stride[ndims++] = n;
		n *= k[ndims - 1];
	}
	if (!ndims)
		usage();
	dead = calloc(n, 1);
	dist = malloc(n * sizeof(*dist));
	queue = malloc(n * sizeof(*queue));
	if (!dead || !dist || !queue) {
		perror("mcastbed-routes");
		return 1;
	}
	for (; i < argc; i += 2) {
		if (strcmp(argv[i], "-d") || i + 1 >= argc)
			usage();
		dead[number(argv[i + 1], n - 1)] = 1;
	}

	/* per destination: one BFS serves every source */
	for (v = 0; v < n; v++) {
		if (!dead[v])
			bfs_to(v);
		for (u = 0; u < n; u++)
			if (u != v && !dead[u])
				print_route(u, v);
	}
	return 0;
}
