// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The fabric's two levels of detail (not a test: it prints figures).
 *
 * One U-torus broadcast from node 0 to every other node of a 4096-node
 * unidirectional torus (64x64 and 16x16x16), alone on the fabric, 8, 512
 * and 16384 flits, default timing (tau_s 95000, tau_r 75000, tau_n 500
 * ns, B = 2): ms per trial at the worm level (plan/fabric_worm.c; target
 * <= 50 ms) and at the flit level (plan/fabric.c), and whether the two
 * agree on the last arrival.  A trial includes setting the fabric up.
 *
 *   fabric_bench [--quick]     (--quick: the flit level at 8 flits only)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "topology.h"
#include "schedule.h"
#include "fabric_worm.h"

static u64 now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (u64)ts.tv_sec * 1000000000ull + (u64)ts.tv_nsec;
}

static void *xcalloc(size_t n, size_t sz)
{
	void *p = calloc(n ? n : 1, sz ? sz : 1);

	if (!p) {
		perror("calloc");
		exit(2);
	}
	return p;
}

struct bcast {
	struct mc_torus t;
	struct mc_schedule s;
	struct mc_fab_mcast mm;
	struct mc_fw_hop *whops;
	struct mc_fab_cfg cfg;
	void *mem;
};

static void setup(struct bcast *b, unsigned int n, unsigned int k)
{
	u16 kk[3] = { (u16)k, (u16)k, (u16)k };
	const char *why = NULL;
	u32 nodes, i, *dst, hops;

	memset(b, 0, sizeof(*b));
	if (mc_torus_init(&b->t, n, kk, MC_LINKS_UNI, &why)) {
		fprintf(stderr, "torus: %s\n", why);
		exit(2);
	}
	nodes = b->t.nodes;
	b->s.order = xcalloc(nodes, sizeof(u32));
	b->s.msg = xcalloc(nodes, sizeof(struct mc_msg));
	b->s.dest = xcalloc(nodes, sizeof(struct mc_dest));
	dst = xcalloc(nodes, sizeof(u32));
	for (i = 1; i < nodes; i++)
		dst[i - 1] = i;
	if (mc_plan(&b->s, &b->t, MC_ALGO_UTORUS, 0, 0, dst, nodes - 1,
		    &why)) {
		fprintf(stderr, "plan: %s\n", why);
		exit(2);
	}
	free(dst);
	hops = mc_fab_mcast_hops(&b->t, &b->s) + 1;
	b->mm.list = xcalloc(nodes, sizeof(u32));
	b->mm.hops = xcalloc(hops, sizeof(struct mc_fab_hop));
	b->mm.hop_off = xcalloc(nodes + 1, sizeof(u32));
	b->mm.first_msg = xcalloc(nodes, sizeof(u32));
	b->mm.next_msg = xcalloc(nodes + 1, sizeof(u32));
	b->mm.copies = xcalloc(nodes, sizeof(u32));
	b->mm.via = xcalloc(nodes, sizeof(u32));
	b->mm.t_recv = xcalloc(nodes, sizeof(u64));
	b->whops = xcalloc(hops, sizeof(struct mc_fw_hop));
	b->cfg = (struct mc_fab_cfg){ .vc_sets = 2, .buffer_flits = 2,
		.tau_s = 95000, .tau_r = 75000, .tau_n = 500,
		.max_worms = 65536 };
	b->mem = xcalloc(mc_fsim_mem(MC_FSIM_FLIT, &b->t, &b->cfg) >
			 mc_fsim_mem(MC_FSIM_WORM, &b->t, &b->cfg) ?
			 mc_fsim_mem(MC_FSIM_FLIT, &b->t, &b->cfg) :
			 mc_fsim_mem(MC_FSIM_WORM, &b->t, &b->cfg), 1);
}

/* One trial; returns its ns, the last arrival in *@t_last. */
static u64 trial(struct bcast *b, enum mc_fsim_model model, u32 flits,
		 u64 *t_last)
{
	struct mc_fsim s;
	const char *why = NULL;
	u64 t0 = now_ns();

	if (mc_fsim_init(&s, model, &b->t, &b->cfg, b->mem, NULL, NULL,
			 &why)) {
		fprintf(stderr, "fabric: %s\n", why);
		exit(2);
	}
	mc_fab_mcast_init(&b->mm, &b->s, flits, 1);
	mc_fsim_mcast(&s, &b->mm, b->whops, 0);
	mc_fsim_run(&s, U64_MAX);
	t0 = now_ns() - t0;
	if (b->mm.received != b->s.ndest || mc_fsim_err(&s)) {
		fprintf(stderr, "broadcast incomplete (%u of %u, err %d)\n",
			b->mm.received, b->s.ndest, mc_fsim_err(&s));
		exit(1);
	}
	*t_last = b->mm.t_last;
	return t0;
}

/* Repeat the worm level until ~200 ms have passed (at least 3 times). */
static double worm_ms(struct bcast *b, u32 flits, u64 *t_last)
{
	u64 total = 0;
	u32 n = 0;

	while (n < 3 || total < 200000000ull) {
		total += trial(b, MC_FSIM_WORM, flits, t_last);
		n++;
	}
	return (double)total / n / 1e6;
}

int main(int argc, char **argv)
{
	static const u32 lens[] = { 8, 512, 16384 };
	static const struct { unsigned int n, k; const char *name; } shapes[] = {
		{ 2, 64, "64x64" }, { 3, 16, "16x16x16" },
	};
	bool quick = argc > 1 && !strcmp(argv[1], "--quick");
	unsigned int si, li;

	printf("# one U-torus broadcast, 4095 destinations, alone on the fabric; ms per trial\n");
	printf("%-9s %6s %10s %10s %8s  %s\n", "torus", "flits", "worm_ms",
	       "flit_ms", "speedup", "same last arrival");
	for (si = 0; si < 2; si++) {
		struct bcast b;

		setup(&b, shapes[si].n, shapes[si].k);
		for (li = 0; li < 3; li++) {
			u64 tw, tf = 0;
			double wms = worm_ms(&b, lens[li], &tw), fms = 0;

			if (!quick || !li)
				fms = (double)trial(&b, MC_FSIM_FLIT, lens[li],
						    &tf) / 1e6;
			if (fms > 0)
				printf("%-9s %6u %10.2f %10.1f %7.0fx  %s (%llu ns)\n",
				       shapes[si].name, lens[li], wms, fms,
				       fms / wms, tf == tw ? "yes" : "NO",
				       (unsigned long long)tw);
			else
				printf("%-9s %6u %10.2f %10s %8s  (%llu ns)\n",
				       shapes[si].name, lens[li], wms, "-", "-",
				       (unsigned long long)tw);
		}
	}
	return 0;
}
