// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Zhuang and Liberatore: the recursion-based broadcast (RB) on 2^n x 2^n and
 * 2^n x 2^n x 2^n meshes against its baselines, in the paper's model
 * T = alpha Ts + beta L Tc, one-port, n = 5, Ts = 150, Tc = 0.5 (Figs 4
 * and 8).  RB's alpha and beta come from our own plan (plan/rb.c, which
 * the kernel sends): the 2D one from the executed schedule (its steps and
 * the sum of each step's largest message), the 3D one from the closed
 * form that tests/unit/test_rb.c holds against plans.  The baselines
 * (RD, SC, NP-RD, NP-SC, in 3D too) are the paper's formulas (notes
 * 4.4): those algorithms are not built here.  The page's golden table
 * (notes 4.5): the best algorithm for every integer L, and the sample
 * latencies.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "experiments.h"
#include "rb.h"

#define N	5
#define DEN	(1ull << 16)	/* every beta here is a multiple of 2^-16 */
#define LMAX	120000

struct alg {
	char name[16];
	u32 alpha;
	u64 beta;		/* times DEN */
};

/* 2 T in units of 1/DEN: alpha 300 DEN + beta L (Tc = 1/2, Ts = 150). */
static u64 t2(const struct alg *a, u64 len)
{
	return (u64)a->alpha * 300 * DEN + a->beta * len;
}

static void add(struct alg *v, u32 *n, const char *name, u32 alpha,
		u64 num, u64 den)
{
	snprintf(v[*n].name, sizeof(v[*n].name), "%s", name);
	v[*n].alpha = alpha;
	v[*n].beta = num * (DEN / den);
	(*n)++;
}

/* The paper's 2D baselines (notes 4.4): RD, SC's table row, NP-* d=1..n. */
static void baselines_2d(struct alg *v, u32 *n)
{
	char name[16];
	u32 d;

	add(v, n, "RD", 2 * N, 2 * N, 1);
	/* beta 2 - 2/2^(2n): the table's 1/2^(2n) is a typo (notes 4.4) */
	add(v, n, "SC", 2 * N + (2u << N) - 2, (1u << 2 * N) - 1,
	    1u << (2 * N - 1));
	for (d = 1; d <= N; d++) {
		snprintf(name, sizeof(name), "NP-RD d=%u", d);
		add(v, n, name, 2 * N + (1u << d) - 1,
		    2 * (1u << d) + 2 * N - d - 2, 1u << d);
		if (d == N)
			break;	/* NP-SC d=n is NP-RD d=n */
		snprintf(name, sizeof(name), "NP-SC d=%u", d);
		add(v, n, name, 2 * N + (1u << (N - d + 1)) + (1u << d) - 3,
		    (2 * (1ull << d) + d) * (1ull << (2 * N - 2 * d)) - 2,
		    1ull << (2 * N - d));
	}
}

/* And 3D (Sec. 7.2). */
static void baselines_3d(struct alg *v, u32 *n)
{
	char name[16];
	u32 d;

	add(v, n, "RD3", 3 * N, 3 * N, 1);
	add(v, n, "SC3", 3 * N + 3 * (1u << N) - 3, 2 * (1ull << 3 * N) - 2,
	    1ull << 3 * N);
	for (d = 1; d <= N; d++) {
		snprintf(name, sizeof(name), "NP-RD3 d=%u", d);
		add(v, n, name, 3 * N + (1u << d) - 1,
		    2 * (1u << d) + 3 * N - d - 2, 1u << d);
		if (d == N)
			break;
		snprintf(name, sizeof(name), "NP-SC3 d=%u", d);
		add(v, n, name, 3 * N + 3 * (1u << (N - d)) + (1u << d) - 4,
		    (2 * (1ull << d) + 2 * d) * (1ull << (3 * N - 3 * d)) - 2,
		    1ull << (3 * N - 2 * d));
	}
}

static int rb_init(struct mc_rb *rb, struct mc_torus *t, u32 dims)
{
	u16 k[3] = { 1u << N, 1u << N, 1u << N };
	const char *why = NULL;

	if (mc_torus_init(t, dims, k, MC_LINKS_BI, &why) ||
	    mc_rb_init(rb, t, true, MC_RB_ONE_PORT, MC_RB_ORDER_PAPER, &why)) {
		fprintf(stderr, "mcastsim: run: rb: %s\n", why ? why : "?");
		return -1;
	}
	return 0;
}

/* RB on the 2D mesh, from its executed plan (L a multiple of S*U*DEN). */
static int rb_2d(struct alg *a)
{
	struct mc_torus t;
	struct mc_rb rb;
	struct mc_rb_plan p = { 0 };
	u64 *ws, bytes, len;
	u32 alpha;
	int rc;

	if (rb_init(&rb, &t, 2))
		return -1;
	len = (u64)mc_rb_positions(&rb) * 64;
	ws = sim_calloc(mc_rb_plan_ws_words(&rb), sizeof(u64));
	rc = mc_rb_plan(&p, &rb, rb.nodes / 3, len, ws);
	if (rc == -ENOSPC) {
		p.cap = p.n;
		p.x = sim_calloc(p.cap, sizeof(*p.x));
		rc = mc_rb_plan(&p, &rb, rb.nodes / 3, len, ws);
	}
	if (!rc) {
		mc_rb_plan_cost(&p, &alpha, &bytes);
		snprintf(a->name, sizeof(a->name), "RB");
		a->alpha = alpha;
		a->beta = bytes * DEN / len;
	}
	free(p.x);
	free(ws);
	return rc ? -1 : 0;
}

/* RB on the 3D mesh (32768 nodes), from the closed form. */
static int rb_3d(struct alg *a)
{
	struct mc_torus t;
	struct mc_rb rb;
	struct mc_rb_cost c;

	if (rb_init(&rb, &t, 3))
		return -1;
	mc_rb_formula(&rb, &c);
	snprintf(a->name, sizeof(a->name), "RB3");
	a->alpha = c.alpha;
	a->beta = c.beta_num * DEN / c.beta_den;
	return 0;
}

static const struct alg *find(const struct alg *v, u32 n, const char *name)
{
	u32 i;

	for (i = 0; i < n; i++)
		if (!strcmp(v[i].name, name))
			return &v[i];
	return NULL;
}

/* The best algorithm at @len, @cur kept unless another is strictly faster. */
static u32 best_at(const struct alg *v, u32 n, u64 len, u32 cur)
{
	u32 i, b = cur;

	for (i = 0; i < n; i++)
		if (t2(&v[i], len) < t2(&v[b], len))
			b = i;
	return b;
}

/*
 * The best algorithm for every integer L up to LMAX, as ranges, against
 * the notes' golden ranges ("START NAME", in order).  A boundary may be
 * one later than the golden one only where the two are exactly equal at
 * the golden start (a tie: the notes break some ties the other way).
 */
static int golden_ranges(FILE *f, const char *what, const struct alg *v,
			 u32 n, const char *const *gold, u32 ngold)
{
	u32 cur = best_at(v, n, 0, 0), prev = cur, b, k = 0, ties = 0;
	bool ok = true;
	u64 start = 0, len, gs;

	for (len = 1; len <= LMAX + 1; len++) {
		b = len <= LMAX ? best_at(v, n, len, cur) : n;
		if (b == cur)
			continue;
		fprintf(f, "  %s: best on [%llu, %llu): %s\n", what,
			(unsigned long long)start, (unsigned long long)len,
			v[cur].name);
		gs = k < ngold ? strtoull(gold[k], NULL, 10) : 0;
		if (k >= ngold || strcmp(strchr(gold[k], ' ') + 1, v[cur].name))
			ok = false;
		else if (k && start == gs + 1 &&
			 t2(&v[cur], gs) == t2(&v[prev], gs))
			ties++;
		else if (start != gs)
			ok = false;
		k++;
		start = len;
		prev = cur;
		cur = b;
	}
	return verdict(f, ok && k == ngold,
		       "%s: the best algorithm by L is the notes' golden table (%u ranges; at %u of the boundaries an exact tie, which the notes give to the next algorithm)",
		       what, k, ties);
}

/* notes 4.5's sample latencies of RD and RB (and SC's table row). */
static int samples(FILE *f, const struct alg *v, u32 n)
{
	static const struct { u64 len; double rd, sc, rb; } s[] = {
		{ 0, 1500, 10800, 2250 }, { 1024, 6620, 11823.5, 3498 },
		{ 4096, 21980, 14894, 7242 }, { 10240, 52700, 21035, 14730 },
		{ 32768, 165340, 43552, 42186 },
		{ 102400, 513500, 113150, 127050 },
	};
	const struct alg *rd = find(v, n, "RD"), *rb = find(v, n, "RB");
	/* SC's row as the paper's table prints it: beta 2 - 1/2^(2n) */
	struct alg sc = { "SC-table", 2 * N + (2u << N) - 2,
			  (2 * (1ull << 2 * N) - 1) * (DEN >> 2 * N) };
	bool ok = true;
	u32 i;

	for (i = 0; i < sizeof(s) / sizeof(s[0]); i++) {
		double a = t2(rd, s[i].len) / (2.0 * DEN);
		double c = t2(&sc, s[i].len) / (2.0 * DEN);
		double r = t2(rb, s[i].len) / (2.0 * DEN);

		fprintf(f, "  L=%llu: RD %.1f (notes %.1f), SC %.1f (%.1f), RB %.1f (%.1f)\n",
			(unsigned long long)s[i].len, a, s[i].rd, c, s[i].sc,
			r, s[i].rb);
		if (a != s[i].rd || r != s[i].rb ||
		    c < s[i].sc - 0.5 || c > s[i].sc + 0.5)
			ok = false;
	}
	return verdict(f, ok,
		       "2D: the sample latencies of RD and RB are the notes' exactly, SC's to the notes' rounding");
}

static void write_csv(FILE *csv, const struct alg *v, u32 n, bool header)
{
	static const u64 ls[] = { 0, 16, 64, 256, 1024, 4096, 10240, 16384,
				  32768, 65536, 102400 };
	u32 i, j;

	if (header)
		fputs("algorithm,alpha,beta,L,T\n", csv);
	for (i = 0; i < n; i++)
		for (j = 0; j < sizeof(ls) / sizeof(ls[0]); j++)
			fprintf(csv, "%s,%u,%.6f,%llu,%.3f\n", v[i].name,
				v[i].alpha, (double)v[i].beta / DEN,
				(unsigned long long)ls[j],
				(double)t2(&v[i], ls[j]) / (2.0 * DEN));
}

/*
 * Fig 4's two panels: each algorithm's 11 rows (L = 16..102400 after the
 * L = 0 row) in CSV order: RB, RD, SC, then NP-RD and NP-SC by d.
 */
static void plot_2d(const struct run_opts *o, const char *name)
{
	plot(o, name, "1100,480",
	     "  names = 'RB RD SC NP-RD_d=1 NP-SC_d=1 NP-RD_d=2 NP-SC_d=2 NP-RD_d=3 NP-SC_d=3 NP-RD_d=4 NP-SC_d=4 NP-RD/SC_d=5'\n"
	     "  set multiplot layout 1,2 title 'Zhuang and Liberatore, Fig 4: RB against its baselines, 32x32 mesh, one-port, Ts 150, Tc 0.5'\n"
	     "  set logscale xy; set xlabel 'message length L'; set ylabel 'T'; set key top left font ',9' noenhanced\n"
	     "  set title 'RB against RD and NP-RD'\n"
	     "  plot for [i in '0 1 3 5 7 9 11'] csv every ::(i*11+1)::(i*11+10) using 4:5 \\\n"
	     "    with linespoints lw (i == 0 ? 3 : 1) title word(names, i + 1)\n"
	     "  set title 'RB against SC and NP-SC'\n"
	     "  plot for [i in '0 2 4 6 8 10 11'] csv every ::(i*11+1)::(i*11+10) using 4:5 \\\n"
	     "    with linespoints lw (i == 0 ? 3 : 1) title word(names, i + 1)\n"
	     "  unset multiplot");
}

EXPERIMENT(exp_seed003)
{
	/* notes 4.5: the golden ranges of the best algorithm by L */
	static const char *const golden2[] = { "0 RD", "67 NP-RD d=1",
		"301 NP-RD d=2", "565 RB", "16000 NP-RD d=4",
		"19201 NP-SC d=4", "33600 NP-RD d=5", "97176 SC" };
	static const char *const golden3[] = { "0 RD3", "43 NP-RD3 d=1",
		"185 NP-RD3 d=2", "392 RB3", "36924 NP-RD3 d=5",
		"74382 SC3" };
	struct alg v2[16], v3[16];
	u32 n2 = 0, n3 = 0;
	FILE *csv, *f;
	int bad = 0;

	if (rb_2d(&v2[n2++]) || rb_3d(&v3[n3++]))
		return -1;
	baselines_2d(v2, &n2);
	baselines_3d(v3, &n3);
	csv = out_file(o, e->name, "csv", "w");
	write_csv(csv, v2, n2, true);
	fclose(csv);
	csv = out_file(o, "seed003-3d", "csv", "w");
	write_csv(csv, v3, n3, true);
	fclose(csv);
	f = out_file(o, e->name, "txt", "w");
	fprintf(f, "# %s: RB against the paper's baselines, n = 5, Ts 150, Tc 0.5, one-port\n",
		e->name);
	bad |= verdict(f, v2[0].alpha == 15 && v2[0].beta == 39 * DEN / 16,
		       "2D: RB's plan takes alpha = %u steps and beta = %.6f L (the paper: 15, 39/16 = 2.4375)",
		       v2[0].alpha, (double)v2[0].beta / DEN);
	bad |= verdict(f, v3[0].alpha == 21 && v3[0].beta == 157 * DEN / 64,
		       "3D: RB's alpha = %u, beta = %.6f (the paper: 21, 157/64 = 2.453125)",
		       v3[0].alpha, (double)v3[0].beta / DEN);
	bad |= golden_ranges(f, "2D", v2, n2, golden2, 8);
	bad |= golden_ranges(f, "3D", v3, n3, golden3, 6);
	bad |= samples(f, v2, n2);
	fclose(f);
	plot_2d(o, e->name);
	return bad;
}
