// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Robinson (1994), ch. 6 (Sec. 6.6): S-, Md-, Mu-torus(8), Mu-torus(64) and the
 * unicast-based method (Mu-torus(2)) on 4096-node unidirectional tori,
 * all-port, uniform random destination sets, 400 trials per point; two
 * start-up settings, three message lengths.  The text prints no numbers,
 * only curves and conclusions: each experiment checks the conclusions one
 * by one (NAME.txt).
 *
 * The trials run at the fabric's worm level (fabric_worm.c), which gives
 * the flit level's figures bit for bit (tests/unit/test_fabric_worm.c)
 * hundreds of times faster at 16384 flits.
 *
 * Gaps resolved here: the figures' multicast sizes are not in the text,
 * so m runs 16 to 1024 by doubling (m counts destinations); the buffer
 * depth is not given (2 flits, the fabric's default).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "experiments.h"

#define ALGOS	"s-torus,md-torus,mu-torus:8,mu-torus:64,mu-torus:2"
#define MS	"16,32,64,128,256,512,1024"

static const char *const path_based[] = {
	"s-torus", "md-torus", "mu-torus(8)", "mu-torus(64)"
};
static const u32 ms[] = { 16, 32, 64, 128, 256, 512, 1024 };
static const u32 lens[] = { 8, 512, 16384 };

#define NPATH	(sizeof(path_based) / sizeof(path_based[0]))
#define NMS	(sizeof(ms) / sizeof(ms[0]))

struct startup {
	const char *tau_s, *tau_r, *label;
};

static const struct startup high = { "95000", "75000", "high" };
static const struct startup low = { "10000", "8000", "low" };

/* Latency of every algorithm against m, at the three lengths. */
static int latency_runs(const struct experiment *e, const struct run_opts *o,
			const char *topo, const struct startup *st)
{
	FILE *csv = out_file(o, e->name, "csv", "w");
	char n[16], len[16];
	u32 i;
	int rc = 0;

	for (i = 0; i < 3 && !rc; i++) {
		fmt(n, sizeof(n), "%u", trials(o, 400));
		fmt(len, sizeof(len), "%u", lens[i]);
		rc = spawn(csv, !i, "latency", "--model", o->model, "--header", o->header, "-t", topo, "-a", ALGOS,
			   "-m", MS, "-L", len, "-n", n, "--tau-s", st->tau_s,
			   "--tau-r", st->tau_r, "--tau-n", "500", "--csv",
			   NULL);
	}
	fclose(csv);
	return rc;
}

static double avg_of(const struct table *t, const char *algo, u32 m,
		     u32 flits)
{
	char sm[16], sl[16];

	fmt(sm, sizeof(sm), "%u", m);
	fmt(sl, sizeof(sl), "%u", flits);
	return lookup(t, "avg_us", "algorithm", algo, "dests", sm, "flits",
		      sl);
}

/* The m (of ms[]) at which @pred fails, as a list, for the verdict. */
static bool every_m(const struct table *t, u32 flits,
		    bool (*pred)(const struct table *t, u32 m, u32 flits),
		    char *fails, size_t n)
{
	u32 i;
	size_t at = 0;

	fails[0] = '\0';
	for (i = 0; i < NMS; i++)
		if (!pred(t, ms[i], flits) && at + 8 < n)
			at += (size_t)snprintf(fails + at, n - at, " %u", ms[i]);
	return !fails[0];
}

static bool path_beats_unicast(const struct table *t, u32 m, u32 flits)
{
	double u = avg_of(t, "mu-torus(2)", m, flits);
	u32 a;

	for (a = 0; a < NPATH; a++)
		if (avg_of(t, path_based[a], m, flits) >= u)
			return false;
	return true;
}

static bool mu8_beats_unicast(const struct table *t, u32 m, u32 flits)
{
	return avg_of(t, "mu-torus(8)", m, flits) <
	       avg_of(t, "mu-torus(2)", m, flits);
}

static bool storus_best(const struct table *t, u32 m, u32 flits)
{
	double s = avg_of(t, "s-torus", m, flits);
	u32 a;

	for (a = 1; a < NPATH; a++)
		if (avg_of(t, path_based[a], m, flits) < s)
			return false;
	return s < avg_of(t, "mu-torus(2)", m, flits);
}

static bool mu8_best_path(const struct table *t, u32 m, u32 flits)
{
	double v = avg_of(t, "mu-torus(8)", m, flits);
	u32 a;

	for (a = 0; a < NPATH; a++)
		if (avg_of(t, path_based[a], m, flits) < v)
			return false;
	return true;
}

/* "nearly identical": within 15 % of each other */
static bool unicast_near_mu8(const struct table *t, u32 m, u32 flits)
{
	double u = avg_of(t, "mu-torus(2)", m, flits);
	double v = avg_of(t, "mu-torus(8)", m, flits);

	return u < 1.15 * v && v < 1.15 * u;
}

/* The 2D figure's table, for the 3D figures' comparisons (or NULL). */
static const struct table *twod;

/* "very similar to the corresponding 2D case": within 10 % */
static bool similar_to_2d(const struct table *t, u32 m, u32 flits)
{
	static const char *const all[] = { "s-torus", "md-torus",
		"mu-torus(8)", "mu-torus(64)", "mu-torus(2)" };
	u32 a;

	for (a = 0; a < 5; a++) {
		double v3 = avg_of(t, all[a], m, flits);
		double v2 = avg_of(twod, all[a], m, flits);

		if (v3 > 1.1 * v2 || v2 > 1.1 * v3)
			return false;
	}
	return true;
}

/* S-, Md- and Mu-torus(64), few phases with long worms, gain in 3D */
static bool few_phases_gain(const struct table *t, u32 m, u32 flits)
{
	static const char *const few[] = { "s-torus", "md-torus",
					   "mu-torus(64)" };
	u32 a;

	for (a = 0; a < 3; a++)
		if (avg_of(t, few[a], m, flits) >=
		    avg_of(twod, few[a], m, flits))
			return false;
	return true;
}

#define CHECK(f, pred, flits, ...) ({					\
	char fails_[128];						\
	bool ok_ = every_m(t, flits, pred, fails_, sizeof(fails_));	\
	verdict(f, ok_, __VA_ARGS__);					\
	if (!ok_)							\
		fprintf(f, "  (not at m =%s)\n", fails_);		\
	!ok_; })

/* Fig 6.3/6.4's conclusions, stated for the 2D torus. */
static int conclusions_2d(FILE *f, const struct table *t,
			  const struct startup *st)
{
	int bad = 0;

	if (st == &high) {
		bad |= CHECK(f, mu8_beats_unicast, 8,
			     "8 flits: even for small messages Mu-torus(8) beats the unicast-based method");
		bad |= CHECK(f, mu8_best_path, 8,
			     "8 flits: Mu-torus(8) is the best path-based method (short messages)");
		bad |= CHECK(f, mu8_best_path, 512,
			     "512 flits: Mu-torus(8) is the best path-based method (medium messages)");
	} else {
		bad |= CHECK(f, unicast_near_mu8, 8,
			     "8 flits: the unicast-based method is nearly identical to Mu-torus(8) (within 15 %%)");
	}
	return bad;
}

/* Each algorithm's range of 3D / 2D average latency over m at @flits. */
static void ratios_3d_2d(FILE *f, const struct table *t, u32 flits)
{
	static const char *const all[] = { "s-torus", "md-torus",
		"mu-torus(8)", "mu-torus(64)", "mu-torus(2)" };
	u32 a, i;

	for (a = 0; a < 5; a++) {
		double lo = 1e9, hi = 0;

		for (i = 0; i < NMS; i++) {
			double r = avg_of(t, all[a], ms[i], flits) /
				   avg_of(twod, all[a], ms[i], flits);

			lo = r < lo ? r : lo;
			hi = r > hi ? r : hi;
		}
		fprintf(f, "  %u flits, %-12s 3D/2D %.2f to %.2f\n", flits,
			all[a], lo, hi);
	}
}

/* Fig 6.5/6.6's: against the 2D figure @name2d of the same start-up. */
static int conclusions_3d(FILE *f, const struct table *t,
			  const struct run_opts *o, const char *name2d)
{
	char path[4096];
	struct table *t2;
	int bad = 0;

	snprintf(path, sizeof(path), "%s/%s.csv", o->dir, name2d);
	if (access(path, R_OK)) {
		fprintf(f, "not checked: the comparisons with 2D need %s (mcastsim run %s first)\n",
			path, name2d);
		return 0;
	}
	t2 = table_read(o, name2d);
	twod = t2;
	bad |= CHECK(f, similar_to_2d, 512,
		     "512 flits: every algorithm within 10 %% of its latency on the 2D torus (%s)",
		     name2d);
	ratios_3d_2d(f, t, 512);
	bad |= CHECK(f, similar_to_2d, 16384,
		     "16384 flits: every algorithm within 10 %% of its latency on the 2D torus (%s)",
		     name2d);
	ratios_3d_2d(f, t, 16384);
	bad |= CHECK(f, few_phases_gain, 8,
		     "8 flits: S-, Md- and Mu-torus(64) are faster on the 3D torus than on the 2D one");
	twod = NULL;
	table_free(t2);
	return bad;
}

static int conclusions(const struct experiment *e, const struct run_opts *o,
		       const struct startup *st, const char *name2d)
{
	struct table *t = table_read(o, e->name);
	FILE *f = out_file(o, e->name, "txt", "w");
	int bad = 0;

	fprintf(f, "# %s: the seed's conclusions (Sec. 6.6), average latency, every m of %s\n",
		e->name, MS);
	bad |= CHECK(f, path_beats_unicast, 512,
		     "512 flits: every path-based method beats the unicast-based one");
	bad |= CHECK(f, path_beats_unicast, 16384,
		     "16384 flits: every path-based method beats the unicast-based one");
	bad |= CHECK(f, storus_best, 16384,
		     "16384 flits: S-torus is the best of all");
	if (name2d)
		bad |= conclusions_3d(f, t, o, name2d);
	else
		bad |= conclusions_2d(f, t, st);
	fclose(f);
	table_free(t);
	return bad;
}

static const char latency_plot[] =
	"  set multiplot layout 1,3 title ttl\n"
	"  set logscale x 2; set xtics (16,32,64,128,256,512,1024) font ',9'\n"
	"  set xlabel 'destinations m'; set ylabel 'latency (us)'\n"
	"  do for [L in '8 512 16384'] {\n"
	"    set title L.' flits (solid: average, dashed: maximum)'\n"
	"    plot for [i=1:5] csv using ((strcol(4) eq word(algos, i) && strcol(3) eq L) ? $2 : NaN):6 \\\n"
	"        with linespoints lc i title word(algos, i), \\\n"
	"      for [i=1:5] csv using ((strcol(4) eq word(algos, i) && strcol(3) eq L) ? $2 : NaN):7 \\\n"
	"        with lines lc i dt 2 notitle\n"
	"  }\n"
	"  unset multiplot";

static int latency_fig(const struct experiment *e, const struct run_opts *o,
		       const char *topo, const char *what,
		       const struct startup *st, const char *name2d)
{
	char body[2048];

	if (latency_runs(e, o, topo, st))
		return -1;
	snprintf(body, sizeof(body), "  ttl = '%s: %s, %s start-up (tau_S %s, tau_R %s, tau_n 500 ns)'\n%s",
		 e->name, what, st->label, st->tau_s, st->tau_r, latency_plot);
	plot(o, e->name, "1500,480", body);
	return conclusions(e, o, st, name2d);
}

EXPERIMENT(exp_fig6_3)
{
	return latency_fig(e, o, "torus:64x64", "4096-node 2D torus", &high,
			   NULL);
}

EXPERIMENT(exp_fig6_4)
{
	return latency_fig(e, o, "torus:64x64", "4096-node 2D torus", &low,
			   NULL);
}

EXPERIMENT(exp_fig6_5)
{
	return latency_fig(e, o, "torus:16x16x16", "4096-node 3D torus",
			   &high, "fig6.3");
}

EXPERIMENT(exp_fig6_6)
{
	return latency_fig(e, o, "torus:16x16x16", "4096-node 3D torus", &low,
			   "fig6.4");
}

/* "The growth of the average from 8 to 16384 flits" of each algorithm. */
static void growth(const struct table *t, const char *const *algos, u32 n,
		   double *g)
{
	u32 a;

	for (a = 0; a < n; a++)
		g[a] = avg_of(t, algos[a], 512, 16384) -
		       avg_of(t, algos[a], 512, 8);
}

/*
 * Fig 6.7: m = 512 on 64x64, latency against the length, both settings
 * (NAME.csv high, NAME-low.csv low).
 */
EXPERIMENT(exp_fig6_7)
{
	static const char *const algos[] = { "s-torus", "md-torus",
		"mu-torus(64)", "mu-torus(8)", "mu-torus(2)" };
	static const u32 lv[] = { 8, 64, 512, 2048, 8192, 16384 };
	const struct startup *st[] = { &high, &low };
	char name[64], n[16], len[16];
	struct table *t;
	double g[5];
	u32 s, i, a;
	int rc = 0, bad = 0;
	FILE *csv, *f;

	for (s = 0; s < 2 && !rc; s++) {
		snprintf(name, sizeof(name), "%s%s", e->name, s ? "-low" : "");
		csv = out_file(o, name, "csv", "w");
		for (i = 0; i < 6 && !rc; i++) {
			fmt(n, sizeof(n), "%u", trials(o, 400));
			fmt(len, sizeof(len), "%u", lv[i]);
			rc = spawn(csv, !i, "latency", "--model", o->model, "--header", o->header, "-t", "torus:64x64",
				   "-a", ALGOS, "-m", "512", "-L", len, "-n", n,
				   "--tau-s", st[s]->tau_s, "--tau-r",
				   st[s]->tau_r, "--csv", NULL);
		}
		fclose(csv);
	}
	if (rc)
		return -1;
	plot(o, e->name, "1100,480",
	     "  set multiplot layout 1,2 title 'fig6.7: 4096-node 2D torus, m = 512 (solid: average, dashed: maximum)'\n"
	     "  set logscale xy; set xlabel 'message length (flits)'; set ylabel 'latency (us)'; set key top left\n"
	     "  do for [s in 'high low'] {\n"
	     "    set title s.' start-up'; f = (s eq 'high') ? csv : 'fig6.7-low.csv'\n"
	     "    plot for [i=1:5] f using ((strcol(4) eq word(algos, i)) ? $3 : NaN):6 \\\n"
	     "        with linespoints lc i title word(algos, i), \\\n"
	     "      for [i=1:5] f using ((strcol(4) eq word(algos, i)) ? $3 : NaN):7 with lines lc i dt 2 notitle\n"
	     "  }\n  unset multiplot");
	/*
	 * "The amount by which the algorithm is affected by an increase in
	 * the message size is directly related to the number of phases":
	 * S-torus (one phase) least, the unicast-based method (9) most.
	 */
	f = out_file(o, e->name, "txt", "w");
	fprintf(f, "# %s: growth of the average latency from 8 to 16384 flits, m = 512 (us)\n",
		e->name);
	for (s = 0; s < 2; s++) {
		snprintf(name, sizeof(name), "%s%s", e->name, s ? "-low" : "");
		t = table_read(o, name);
		growth(t, algos, 5, g);
		table_free(t);
		for (a = 0; a < 5; a++)
			fprintf(f, "%s start-up: %-12s +%.1f\n", st[s]->label,
				algos[a], g[a]);
		bad |= verdict(f, g[0] < g[1] && g[0] < g[2] && g[0] < g[3] &&
			       g[0] < g[4],
			       "%s start-up: S-torus (one phase) is the least affected by the length",
			       st[s]->label);
		bad |= verdict(f, g[4] > g[0] && g[4] > g[1] && g[4] > g[2] &&
			       g[4] > g[3],
			       "%s start-up: the unicast-based method (9 phases) is the most affected",
			       st[s]->label);
	}
	fclose(f);
	return bad;
}

/* Fig 6.8: link visits, 2D and 3D. */
EXPERIMENT(exp_fig6_8)
{
	FILE *csv = out_file(o, e->name, "csv", "w"), *f;
	struct table *t;
	char n[16], sm[16];
	int bad = 0, d;
	u32 i, a;
	double ratio[2] = { 0, 0 };

	fmt(n, sizeof(n), "%u", trials(o, 400));
	if (spawn(csv, true, "visits", "-t", "torus:64x64", "-a", ALGOS, "-m",
		  MS, "-n", n, "--csv", NULL) ||
	    spawn(csv, false, "visits", "-t", "torus:16x16x16", "-a", ALGOS,
		  "-m", MS, "-n", n, "--csv", NULL)) {
		fclose(csv);
		return -1;
	}
	fclose(csv);
	plot(o, e->name, "1100,480",
	     "  set multiplot layout 1,2 title 'fig6.8: total link visits per multicast, 4096-node tori'\n"
	     "  set logscale xy 2; set xlabel 'destinations m'; set ylabel 'link visits'; set key top left\n"
	     "  do for [d in '2 3'] {\n"
	     "    set title d.'D torus'\n"
	     "    plot for [i=1:5] csv using ((strcol(4) eq word(algos, i) && strcol(2) eq d) ? $3 : NaN):6 \\\n"
	     "        with linespoints lc i title word(algos, i)\n"
	     "  }\n  unset multiplot");
	t = table_read(o, e->name);
	f = out_file(o, e->name, "txt", "w");
	fprintf(f, "# %s: mean link visits per multicast\n", e->name);
	for (d = 2; d <= 3; d++) {
		char sd[4], fails[128] = "";
		size_t at = 0;

		snprintf(sd, sizeof(sd), "%d", d);
		for (i = 0; i < NMS; i++) {
			double u;

			fmt(sm, sizeof(sm), "%u", ms[i]);
			u = lookup(t, "link_visits", "algorithm", "mu-torus(2)",
				   "dests", sm, "dims", sd);
			for (a = 0; a < NPATH; a++) {
				double v = lookup(t, "link_visits", "algorithm",
						  path_based[a], "dests", sm,
						  "dims", sd);

				if (v >= u && at + 24 < sizeof(fails))
					at += (size_t)snprintf(fails + at,
						sizeof(fails) - at, " %s@%u",
						path_based[a], ms[i]);
				if (ms[i] == 512)
					ratio[d - 2] += u / v / NPATH;
			}
		}
		bad |= verdict(f, !fails[0],
			       "%dD: every path-based method uses fewer links than the unicast-based one%s%s",
			       d, fails[0] ? "; not:" : "", fails);
	}
	bad |= verdict(f, ratio[0] > ratio[1],
		       "especially in 2D: at m = 512 the unicast-based method uses %.2fx the links of the path-based ones in 2D, %.2fx in 3D",
		       ratio[0], ratio[1]);
	fclose(f);
	table_free(t);
	return bad;
}
