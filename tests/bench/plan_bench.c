/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * Planning cost of the core (not a test: it prints figures, no pass/fail).
 *
 * For a 64x64 and a 16x16x16 unidirectional torus and m = 16 .. 4096
 * nodes (source included; 4096 is the whole torus), with uniformly random
 * member sets from a fixed seed:
 *
 *   plan      ns per full mc_plan (sort, rotate, every holder's messages)
 *             for u-torus, s-torus, md-torus and mu-torus(8);
 *   send      the kernel's fast path: mc_chain_rotate on the group's
 *             sorted chain + the source holder's mc_sender_next loop;
 *             ns per message produced, and per destination it names;
 *   sort      mc_chain_sort of the m members, dimension order and
 *             Hamiltonian order (ns per sort and per element).
 *
 *   plan_bench [--csv] [--quick]
 *
 * Timing: CLOCK_MONOTONIC, each cell repeated until it has run for at
 * least ~40 ms (--quick: 5 ms) and at least 3 times.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "topology.h"
#include "chain.h"
#include "schedule.h"

static u64 now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (u64)ts.tv_sec * 1000000000ull + (u64)ts.tv_nsec;
}

static u64 rng_state;

static u64 rng_next(void)
{
	u64 z = (rng_state += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (!p) {
		perror("malloc");
		exit(2);
	}
	return p;
}

/* m distinct random nodes of [0, nodes), in random order. */
static void random_set(u32 nodes, u32 m, u32 *out)
{
	u32 *a = xmalloc(nodes * sizeof(u32)), i;

	for (i = 0; i < nodes; i++)
		a[i] = i;
	for (i = 0; i < m; i++) {
		u32 j = i + (u32)(rng_next() % (nodes - i)), t = a[i];

		a[i] = a[j];
		a[j] = t;
		out[i] = a[i];
	}
	free(a);
}

static bool csv;
static u64 min_ns = 40000000ull;
static volatile u64 sink;

struct cell {
	double ns;	/* per iteration */
	u64 iters;
	double per;	/* per message / element, or 0 */
	double dests;	/* per destination named, or 0 */
};

static void print_row(const char *torus, u32 m, const char *metric,
		      const char *algo, const struct cell *c, const char *unit)
{
	if (csv) {
		printf("%s,%u,%s,%s,%.1f,%llu,%.2f,%.2f\n", torus, m, metric, algo,
		       c->ns, (unsigned long long)c->iters, c->per, c->dests);
		return;
	}
	printf("%-9s %5u  %-5s %-12s %13.0f ns", torus, m, metric, algo, c->ns);
	if (c->per > 0)
		printf("  %9.1f ns/%s", c->per, unit);
	if (c->dests > 0)
		printf("  %7.1f ns/dest", c->dests);
	printf("   (%llu runs)\n", (unsigned long long)c->iters);
}

static const struct {
	enum mc_algo algo;
	u32 r;
	const char *name;
} algos[] = {
	{ MC_ALGO_UTORUS, 0, "u-torus" },
	{ MC_ALGO_STORUS, 0, "s-torus" },
	{ MC_ALGO_MDTORUS, 0, "md-torus" },
	{ MC_ALGO_MUTORUS, 8, "mu-torus:8" },
};

static void bench_plan(const struct mc_torus *t, const char *tn, const u32 *set,
		       u32 m)
{
	u32 *order = xmalloc(m * sizeof(u32));
	struct mc_msg *msg = xmalloc(m * sizeof(*msg));
	struct mc_dest *dest = xmalloc(m * sizeof(*dest));
	unsigned int a;

	for (a = 0; a < sizeof(algos) / sizeof(algos[0]); a++) {
		struct mc_schedule s = { .order = order, .msg = msg, .dest = dest };
		struct cell c = { 0 };
		u64 t0 = now_ns(), el;
		const char *why = NULL;

		do {
			int rc = mc_plan(&s, t, algos[a].algo, algos[a].r, set[0],
					 set + 1, m - 1, &why);

			if (rc) {
				fprintf(stderr, "mc_plan %s: %d (%s)\n", algos[a].name,
					rc, why ? why : "?");
				exit(1);
			}
			sink += s.nmsg;
			c.iters++;
			el = now_ns() - t0;
		} while (el < min_ns || c.iters < 3);
		c.ns = (double)el / (double)c.iters;
		c.per = c.ns / (double)(m - 1);
		print_row(tn, m, "plan", algos[a].name, &c, "dest");
	}
	free(order);
	free(msg);
	free(dest);
}

/*
 * The fast path: the group's sorted chain exists; a send rotates it to
 * the sending member (O(log m)) and runs the source holder's loop.  The
 * sending member cycles through the set so rotations differ.
 */
static void bench_send(const struct mc_torus *t, const char *tn, const u32 *set,
		       u32 m)
{
	u32 *sorted = xmalloc(m * sizeof(u32));
	struct mc_dest *out = xmalloc(m * sizeof(*out));
	unsigned int a;

	for (a = 0; a < sizeof(algos) / sizeof(algos[0]); a++) {
		enum mc_order o = mc_algo_order(algos[a].algo);
		struct cell c = { 0 };
		u64 msgs = 0, dests = 0, t0, el;
		u32 k = 0;

		memcpy(sorted, set, m * sizeof(u32));
		if (mc_chain_sort(t, o, sorted, m, NULL)) {
			fprintf(stderr, "mc_chain_sort failed\n");
			exit(1);
		}
		t0 = now_ns();
		do {
			struct mc_chain ch;
			struct mc_sender snd;
			int cnt;

			if (mc_chain_rotate(t, o, sorted, m, set[k], &ch)) {
				fprintf(stderr, "mc_chain_rotate failed\n");
				exit(1);
			}
			mc_sender_init(&snd, t, &ch, algos[a].algo, algos[a].r, 0, m,
				       (u8)t->n);
			while ((cnt = mc_sender_next(&snd, out, m)) > 0) {
				msgs++;
				dests += (u64)cnt;
				sink += out[0].pos;
			}
			if (cnt < 0) {
				fprintf(stderr, "mc_sender_next: %d\n", cnt);
				exit(1);
			}
			if (++k == m)
				k = 0;
			c.iters++;
			el = now_ns() - t0;
		} while (el < min_ns || c.iters < 3);
		c.ns = (double)el / (double)c.iters;
		c.per = (double)el / (double)msgs;
		c.dests = (double)el / (double)dests;
		print_row(tn, m, "send", algos[a].name, &c, "msg");
	}
	free(sorted);
	free(out);
}

static void bench_sort(const struct mc_torus *t, const char *tn, const u32 *set,
		       u32 m)
{
	u32 *a = xmalloc(m * sizeof(u32));
	static const char *const on[2] = { "dim-order", "h-order" };
	unsigned int o;

	for (o = MC_ORDER_DIM; o <= MC_ORDER_HAM; o++) {
		struct cell c = { 0 };
		u64 t0 = now_ns(), el, copy = 0, c0;

		/* the copy back into place is timed apart and subtracted */
		do {
			c0 = now_ns();
			memcpy(a, set, m * sizeof(u32));
			copy += now_ns() - c0;
			if (mc_chain_sort(t, (enum mc_order)o, a, m, NULL)) {
				fprintf(stderr, "mc_chain_sort failed\n");
				exit(1);
			}
			sink += a[0];
			c.iters++;
			el = now_ns() - t0;
		} while (el < min_ns || c.iters < 3);
		c.ns = (double)(el - copy) / (double)c.iters;
		c.per = c.ns / (double)m;
		print_row(tn, m, "sort", on[o], &c, "elem");
	}
	free(a);
}

int main(int argc, char **argv)
{
	static const u32 ms[] = { 16, 64, 256, 1024, 4096 };
	static const struct {
		const char *name;
		unsigned int n;
		u16 k[3];
	} tori[] = {
		{ "64x64", 2, { 64, 64 } },
		{ "16x16x16", 3, { 16, 16, 16 } },
	};
	unsigned int ti, mi;
	int i;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--csv")) {
			csv = true;
		} else if (!strcmp(argv[i], "--quick")) {
			min_ns = 5000000ull;
		} else {
			fprintf(stderr, "usage: %s [--csv] [--quick]\n", argv[0]);
			return 2;
		}
	}
	if (csv)
		printf("torus,m,metric,algo,ns_per_run,runs,ns_per_unit,ns_per_dest\n");
	else
		printf("# planning cost, uniformly random member sets (fixed seed), uni tori\n"
		       "# plan: ns per mc_plan (and per destination); send: rotate + source loop,\n"
		       "# ns per run, per message produced, per destination named; sort: mc_chain_sort\n");
	for (ti = 0; ti < sizeof(tori) / sizeof(tori[0]); ti++) {
		struct mc_torus t;
		const char *why = NULL;

		if (mc_torus_init(&t, tori[ti].n, tori[ti].k, MC_LINKS_UNI, &why)) {
			fprintf(stderr, "mc_torus_init: %s\n", why ? why : "?");
			return 1;
		}
		for (mi = 0; mi < sizeof(ms) / sizeof(ms[0]); mi++) {
			u32 m = ms[mi], *set = xmalloc(m * sizeof(u32));

			rng_state = 0xbe0c4000ull + 131 * ti + mi;
			random_set(t.nodes, m, set);
			bench_plan(&t, tori[ti].name, set, m);
			bench_send(&t, tori[ti].name, set, m);
			bench_sort(&t, tori[ti].name, set, m);
			if (!csv)
				printf("\n");
			free(set);
		}
	}
	return sink == 42 ? 3 : 0;	/* keep the results alive */
}
