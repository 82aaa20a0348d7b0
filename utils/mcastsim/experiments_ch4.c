// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Robinson (1994), ch. 4 (Sec. 4.5): U-torus's receive steps with and without
 * physical link sharing (mcastsim steps), and the contention-free latency
 * closed form on the fabric model (mcastsim latency).
 *
 * Gaps resolved here (the notes, Sec. 4.7): the text gives no trial count
 * (400, as ch. 6); "multicast set size" counts the source (m); the
 * sharing penalty is the notes' one-pass re-timing (steps.c says how).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "experiments.h"

struct config {
	const char *tag;	/* the plot's and the CSV's name for it */
	const char *topo;
};

static const struct config small[] = {
	{ "2D-uni", "torus:32x32" }, { "2D-bi", "torus:32x32:bi" },
	{ "3D-uni", "torus:8x8x8" }, { "3D-bi", "torus:8x8x8:bi" },
};

static const struct config big[] = {
	{ "2D-uni", "torus:64x64" }, { "2D-bi", "torus:64x64:bi" },
	{ "3D-uni", "torus:16x16x16" }, { "3D-bi", "torus:16x16x16:bi" },
};

#define SMALL_MS	"8,16,24,32,40,48,56,64"
#define BIG_MS		"64,128,192,256,320,384,448,512"

/* The no-sharing bound's average (notes Sec. 4.7, derived exactly). */
static const struct { u32 m; double avg; } bound[] = {
	{ 8, 2.4286 }, { 16, 3.2667 }, { 24, 3.8696 }, { 32, 4.1613 },
	{ 40, 4.5385 }, { 48, 4.7872 }, { 56, 4.9636 }, { 64, 5.0952 },
	{ 128, 6.0551 }, { 192, 6.7068 }, { 256, 7.0314 }, { 320, 7.4263 },
	{ 384, 7.6893 }, { 448, 7.8770 }, { 512, 8.0176 },
};

/*
 * An independent one-pass reproduction of Robinson (1994), Sec. 4.5: the
 * average and maximum with sharing at m = 64 (small tori) and m = 512
 * (4096 nodes), in the order of small[] and big[].
 */
static const double notes_small[4][2] = {
	{ 5.19, 6.97 }, { 5.12, 6.59 }, { 5.15, 6.75 }, { 5.10, 6.17 },
};
static const double notes_big[4][2] = {
	{ 8.34, 11.7 }, { 8.18, 11.1 }, { 8.13, 10.5 }, { 8.05, 10.1 },
};

static int steps_runs(const struct experiment *e, const struct run_opts *o,
		      const struct config *c, u32 nc, const char *ms)
{
	FILE *csv = out_file(o, e->name, "csv", "w");
	char n[16];
	u32 i;
	int rc = 0;

	fmt(n, sizeof(n), "%u", trials(o, 400));
	for (i = 0; i < nc && !rc; i++)
		rc = spawn_tagged(csv, !i, c[i].tag, "steps", "-t", c[i].topo,
				  "-m", ms, "-n", n, "--csv", NULL);
	fclose(csv);
	return rc;
}

static double val(const struct table *t, const char *want, const char *tag,
		  u32 m)
{
	char sm[16];

	fmt(sm, sizeof(sm), "%u", m);
	return lookup(t, want, "tag", tag, "m", sm, NULL, NULL);
}

static double bound_of(u32 m)
{
	u32 i;

	for (i = 0; i < sizeof(bound) / sizeof(bound[0]); i++)
		if (bound[i].m == m)
			return bound[i].avg;
	return -1;
}

static u32 ceil_log2(u32 m)
{
	u32 s = 0;

	while ((1u << s) < m)
		s++;
	return s;
}

/*
 * The conclusions of Sec. 4.5 over every configuration and m of the
 * table: the bound exact, the average near it, the maximum "limited",
 * 3-way multiplexing a few per cent more.
 */
static int step_conclusions(const struct experiment *e,
			    const struct run_opts *o, const struct config *c,
			    u32 nc, const u32 *ms, u32 nm, FILE *f,
			    const struct table *t)
{
	double worst_avg = 0, worst_max = 0, w3a = 0, w3m = 0;
	bool exact = true;
	u32 i, j;
	int bad = 0;

	(void)e;
	(void)o;
	for (i = 0; i < nc; i++)
		for (j = 0; j < nm; j++) {
			double ia = val(t, "ideal_avg", c[i].tag, ms[j]);
			double im = val(t, "ideal_max", c[i].tag, ms[j]);
			double sa = val(t, "shared_avg", c[i].tag, ms[j]);
			double sm = val(t, "shared_max", c[i].tag, ms[j]);

			if (ia < bound_of(ms[j]) - 0.00005 ||
			    ia > bound_of(ms[j]) + 0.00005 ||
			    im != ceil_log2(ms[j]))
				exact = false;
			if (sa / ia > worst_avg)
				worst_avg = sa / ia;
			if (sm - im > worst_max)
				worst_max = sm - im;
			if (strstr(c[i].tag, "bi")) {
				double ta = val(t, "shared3_avg", c[i].tag,
						ms[j]);
				double tm = val(t, "shared3_max", c[i].tag,
						ms[j]);

				if (ta / sa > w3a)
					w3a = ta / sa;
				if (tm / sm > w3m)
					w3m = tm / sm;
			}
		}
	bad |= verdict(f, exact,
		       "without sharing, every average is the closed form of the notes (to 4 places) and every maximum ceil(log2 m)");
	bad |= verdict(f, worst_avg <= 1.05,
		       "the effect on the average is small, close to the bound in all cases: at most +%.1f %%",
		       (worst_avg - 1) * 100);
	bad |= verdict(f, worst_max <= 3,
		       "the effect on the maximum is larger but limited: at most +%.2f steps",
		       worst_max);
	bad |= verdict(f, w3a <= 1.03 && w3m <= 1.07,
		       "3-way multiplexing on bidirectional links adds at most 3 %% (average) and 7 %% (maximum): here +%.1f %% and +%.1f %%",
		       (w3a - 1) * 100, (w3m - 1) * 100);
	return bad;
}

/* Our figures against the notes' numbers: within 5 %. */
static int against_notes(FILE *f, const struct table *t,
			 const struct config *c, const double (*notes)[2],
			 u32 m)
{
	double worst = 0;
	u32 i, w;

	for (i = 0; i < 4; i++) {
		double v[2] = { val(t, "shared_avg", c[i].tag, m),
				val(t, "shared_max", c[i].tag, m) };

		fprintf(f, "  %s m=%u: average %.3f (notes %.2f), maximum %.3f (notes %.2f)\n",
			c[i].tag, m, v[0], notes[i][0], v[1], notes[i][1]);
		for (w = 0; w < 2; w++) {
			double d = v[w] / notes[i][w] - 1;

			d = d < 0 ? -d : d;
			worst = d > worst ? d : worst;
		}
	}
	return verdict(f, worst <= 0.05,
		       "with sharing, m = %u: within 5 %% of the notes' one-pass figures (at most %.1f %% off)",
		       m, worst * 100);
}

static const char steps_plot[] =
	"  set multiplot layout 1,2 title ttl\n"
	"  set xlabel 'multicast set size m (with the source)'; set ylabel 'receive step'; set key top left\n"
	"  do for [w in 'avg max'] {\n"
	"    set title (w eq 'avg' ? 'average' : 'maximum').' over destinations'\n"
	"    plot for [c in '2D-uni 2D-bi 3D-uni 3D-bi'] \\\n"
	"      csv using ((strcol(1) eq c) ? $5 : NaN):(column('shared_'.w)) with linespoints title c, \\\n"
	"      csv using ((strcol(1) eq '2D-uni') ? $5 : NaN):(column('ideal_'.w)) with lines lw 2 lc 'black' dt 2 title 'bound (no sharing)'\n"
	"  }\n  unset multiplot";

static int steps_fig(const struct experiment *e, const struct run_opts *o,
		     const struct config *c, const char *msl, const u32 *ms,
		     u32 nm, const char *what)
{
	struct table *t;
	char body[2048];
	FILE *f;
	int bad;

	if (steps_runs(e, o, c, 4, msl))
		return -1;
	snprintf(body, sizeof(body),
		 "  ttl = '%s: U-torus receive steps with link sharing, %s'\n%s",
		 e->name, what, steps_plot);
	plot(o, e->name, "1100,480", body);
	t = table_read(o, e->name);
	f = out_file(o, e->name, "txt", "w");
	fprintf(f, "# %s: the seed's conclusions (Sec. 4.5)\n", e->name);
	bad = step_conclusions(e, o, c, 4, ms, nm, f, t);
	bad |= against_notes(f, t, c, c == big ? notes_big : notes_small,
			     c == big ? 512 : 64);
	if (c == big) {
		double w = 0;
		const char *wt = "";
		u32 i;

		for (i = 0; i < 4; i++)
			if (val(t, "shared_max", c[i].tag, 512) > w) {
				w = val(t, "shared_max", c[i].tag, 512);
				wt = c[i].tag;
			}
		bad |= verdict(f, !strcmp(wt, "2D-uni"),
			       "the worst case is the 2D 4096-node unidirectional torus (largest maximum at m = 512: %s, %.2f)",
			       wt, w);
	}
	fclose(f);
	table_free(t);
	return bad;
}

EXPERIMENT(exp_fig4_12)
{
	static const u32 ms[] = { 8, 16, 24, 32, 40, 48, 56, 64 };

	return steps_fig(e, o, small, SMALL_MS, ms, 8,
			 "1024-node 2D (32x32) and 512-node 3D (8x8x8)");
}

EXPERIMENT(exp_fig4_14)
{
	static const u32 ms[] = { 64, 128, 192, 256, 320, 384, 448, 512 };

	return steps_fig(e, o, big, BIG_MS, ms, 8,
			 "4096-node 2D (64x64) and 3D (16x16x16)");
}

/* Fig 4.16: the worst case against separate addressing. */
EXPERIMENT(exp_fig4_16)
{
	static const u32 ms[] = { 64, 128, 192, 256, 320, 384, 448, 512 };
	FILE *csv = out_file(o, e->name, "csv", "w"), *f;
	double worst = 0;
	struct table *t;
	char n[16];
	u32 j;
	int rc;

	fmt(n, sizeof(n), "%u", trials(o, 400));
	rc = spawn_tagged(csv, true, "2D-uni", "steps", "-t", "torus:64x64",
			  "-m", BIG_MS, "-n", n, "--csv", NULL);
	fclose(csv);
	if (rc)
		return -1;
	plot(o, e->name, "1100,480",
	     "  set multiplot layout 1,2 title 'fig4.16: U-torus with link sharing against separate addressing, 64x64 unidirectional'\n"
	     "  set xlabel 'multicast set size m'; set ylabel 'receive step'; set key top left; set logscale y\n"
	     "  do for [w in 'avg max'] {\n"
	     "    set title (w eq 'avg' ? 'average' : 'maximum').' over destinations'\n"
	     "    plot csv using 5:(column('separate_'.w)) with linespoints title 'separate addressing', \\\n"
	     "      csv using 5:(column('shared_'.w)) with linespoints title 'U-torus, link sharing', \\\n"
	     "      csv using 5:(column('ideal_'.w)) with lines dt 2 lc 'black' title 'U-torus, no sharing'\n"
	     "  }\n  unset multiplot");
	t = table_read(o, e->name);
	f = out_file(o, e->name, "txt", "w");
	fprintf(f, "# %s: the seed's conclusion (Sec. 4.5)\n", e->name);
	for (j = 0; j < 8; j++) {
		double pen = val(t, "shared_max", "2D-uni", ms[j]) -
			     val(t, "ideal_max", "2D-uni", ms[j]);
		double gain = val(t, "separate_max", "2D-uni", ms[j]) -
			      val(t, "shared_max", "2D-uni", ms[j]);

		if (pen / gain > worst)
			worst = pen / gain;
	}
	rc = verdict(f, worst < 0.05,
		     "the link-sharing penalty is extremely small compared to the gain over separate addressing: at most %.2f %% of it (maximum step)",
		     worst * 100);
	fclose(f);
	table_free(t);
	return rc;
}

/* Fig 4.17: Type 1 and Type 2 unicasts on the bidirectional tori. */
EXPERIMENT(exp_fig4_17)
{
	static const u32 ms[] = { 64, 128, 192, 256, 320, 384, 448, 512 };
	FILE *csv = out_file(o, e->name, "csv", "w"), *f;
	double worst = 0;
	struct table *t;
	char n[16];
	u32 i, j;
	int rc;

	fmt(n, sizeof(n), "%u", trials(o, 400));
	rc = spawn_tagged(csv, true, "2D-bi", "steps", "-t", "torus:64x64:bi",
			  "-m", BIG_MS, "-n", n, "--csv", NULL) ||
	     spawn_tagged(csv, false, "3D-bi", "steps", "-t",
			  "torus:16x16x16:bi", "-m", BIG_MS, "-n", n, "--csv",
			  NULL);
	fclose(csv);
	if (rc)
		return -1;
	plot(o, e->name, "1100,480",
	     "  set multiplot layout 1,2 title 'fig4.17: unicasts sharing a link per multicast, 4096-node bidirectional tori'\n"
	     "  set xlabel 'multicast set size m'; set ylabel 'unicasts per multicast'; set key top left\n"
	     "  do for [tor in '2D-bi 3D-bi'] {\n"
	     "    set title tor.' torus'\n"
	     "    plot csv using ((strcol(1) eq tor) ? $5 : NaN):'type1' with linespoints title 'Type 1', \\\n"
	     "      csv using ((strcol(1) eq tor) ? $5 : NaN):'type2' with linespoints title 'Type 2', \\\n"
	     "      csv using ((strcol(1) eq tor) ? $5 : NaN):($5 - 1) with lines dt 2 lc 'black' title 'all unicasts (m - 1)'\n"
	     "  }\n  unset multiplot");
	t = table_read(o, e->name);
	f = out_file(o, e->name, "txt", "w");
	fprintf(f, "# %s: the seed's conclusion (Sec. 4.5)\n", e->name);
	for (i = 0; i < 2; i++)
		for (j = 0; j < 8; j++) {
			const char *tag = i ? "3D-bi" : "2D-bi";
			double t1 = val(t, "type1", tag, ms[j]);
			double t2 = val(t, "type2", tag, ms[j]);

			if (t1 > 0 && t2 / t1 > worst)
				worst = t2 / t1;
		}
	rc = verdict(f, worst < 0.1,
		     "Type 2 (three on a link) is very small compared to Type 1: at most %.2f %% of it",
		     worst * 100);
	fclose(f);
	table_free(t);
	return rc;
}

/*
 * The closed form, exact where there is no contention: an S-torus
 * broadcast on a 4096-node torus is one worm along the Hamiltonian
 * circuit, its i-th destination i hops away, reached at
 * tau_s + (i + L) tau_n + tau_r: the mean over i = 1..4095 is
 * tau_s + tau_r + (2048 + L) tau_n, the last tau_s + tau_r + (4095 + L) tau_n.
 */
EXPERIMENT(exp_closed_form)
{
	static const char *const topo[] = { "torus:64x64", "torus:16x16x16" };
	static const char *const ls[] = { "8", "512", "16384" };
	static const u32 ts[2][2] = { { 95000, 75000 }, { 10000, 8000 } };
	FILE *csv = out_file(o, e->name, "csv", "w"), *f;
	char s_[16], r_[16], tag[64];
	struct table *t;
	u32 i, p, l;
	int rc = 0, bad = 0;

	for (i = 0; i < 2 && !rc; i++)
		for (p = 0; p < 2 && !rc; p++)
			for (l = 0; l < 3 && !rc; l++) {
				fmt(s_, sizeof(s_), "%u", ts[p][0]);
				fmt(r_, sizeof(r_), "%u", ts[p][1]);
				snprintf(tag, sizeof(tag), "%s/%s", topo[i],
					 s_);
				rc = spawn_tagged(csv, !i && !p && !l, tag,
						  "latency", "--model", o->model, "--header", o->header,
						  "-t", topo[i],
						  "-a", "s-torus", "-m", "4095",
						  "-L", ls[l], "-n", "1",
						  "--tau-s", s_, "--tau-r", r_,
						  "--tau-n", "500", "--csv",
						  NULL);
			}
	fclose(csv);
	if (rc)
		return -1;
	t = table_read(o, e->name);
	f = out_file(o, e->name, "txt", "w");
	fprintf(f, "# %s: S-torus broadcast, 4096 nodes, simulated against the closed form (us)\n",
		e->name);
	for (i = 0; i < t->nrows; i++) {
		u32 L = (u32)atoi(t->cell[i][col(t, "flits")]);
		u32 ps = strstr(t->cell[i][0], "/95000") ? 0 : 1;
		double base = (ts[ps][0] + ts[ps][1]) / 1000.0;
		double want_avg = base + (2048.0 + L) * 0.5;
		double want_max = base + (4095.0 + L) * 0.5;
		double avg = atof(t->cell[i][col(t, "avg_us")]);
		double max = atof(t->cell[i][col(t, "max_us")]);

		bad |= verdict(f, avg == want_avg && max == want_max,
			       "%s L=%u: mean %.3f (closed form %.3f), last %.3f (closed form %.3f)",
			       t->cell[i][0], L, avg, want_avg, max, want_max);
	}
	fclose(f);
	table_free(t);
	return bad;
}
