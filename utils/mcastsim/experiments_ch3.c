// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Robinson (1994), chapter 3 (Sec. 3.5): the stepwise comparison of U-cube,
 * Maxport, Combine and W-sort on the 6-cube and the 10-cube (Figs 3.10
 * and 3.11): the average over random destination sets of the maximum
 * receive step, 100 sets per point, source node 0, all-port.  The text
 * gives no figures' values, only conclusions, which are checked here; a
 * table derived in the same step model from other random sets (below) must
 * match ours within 5 %.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "experiments.h"
#include "parse.h"

#define NALGO	(MC_CUBE_WSORT + 1)	/* the trees (cube_algo_name()) */

struct cube_run {
	u32 n;
	const char *dests;	/* the broadcast, 2^n - 1, last */
	u32 bcast;
};

static const struct cube_run runs[] = {
	{ 6, "4,8,12,16,20,24,32,40,48,56,63", 63 },
	{ 10, "64,128,256,384,512,640,768,896,960,1023", 1023 },
};

/* notes 3.8: d, then (maximum, average) per algorithm in algos' order */
static const struct {
	u32 n, d;
	double v[NALGO][2];
} notes[] = {
	{ 6, 8, { { 4.00, 2.18 }, { 3.14, 1.82 }, { 2.99, 1.82 }, { 2.59, 1.67 } } },
	{ 6, 16, { { 5.00, 2.66 }, { 4.11, 2.24 }, { 3.96, 2.31 }, { 3.17, 1.98 } } },
	{ 6, 32, { { 6.00, 3.23 }, { 5.05, 2.67 }, { 4.92, 2.89 }, { 4.10, 2.39 } } },
	{ 6, 48, { { 6.00, 3.66 }, { 5.54, 2.90 }, { 5.54, 3.18 }, { 4.87, 2.70 } } },
	{ 6, 63, { { 6.00, 3.05 }, { 6.00, 3.05 }, { 6.00, 3.05 }, { 6.00, 3.05 } } },
	{ 10, 64, { { 7.00, 3.87 }, { 6.21, 3.17 }, { 5.79, 3.54 }, { 4.92, 2.72 } } },
	{ 10, 256, { { 9.00, 5.25 }, { 8.28, 4.14 }, { 7.99, 5.03 }, { 6.80, 3.63 } } },
	{ 10, 512, { { 10.00, 6.00 }, { 9.06, 4.60 }, { 8.99, 5.80 }, { 7.72, 4.16 } } },
	{ 10, 896, { { 10.00, 6.70 }, { 9.69, 4.93 }, { 9.95, 6.27 }, { 8.91, 4.74 } } },
	{ 10, 1023, { { 10.00, 5.00 }, { 10.00, 5.00 }, { 10.00, 5.00 }, { 10.00, 5.00 } } },
};

/* The row of algorithm @a at (n, d), or -1. */
static int row(const struct table *t, u32 n, const char *a, u32 d)
{
	int cn = col(t, "n"), ca = col(t, "algorithm"), cd = col(t, "dests");
	u32 r;

	for (r = 0; r < t->nrows; r++)
		if ((u32)atoi(t->cell[r][cn]) == n &&
		    !strcmp(t->cell[r][ca], a) &&
		    (u32)atoi(t->cell[r][cd]) == d)
			return (int)r;
	return -1;
}

static double get(const struct table *t, u32 n, const char *a, u32 d,
		  const char *what)
{
	int r = row(t, n, a, d);

	return r < 0 ? NAN : atof(t->cell[r][col(t, what)]);
}

/* The destination counts of @c, into @d (at most SIM_MAX_LIST). */
static u32 points(const struct cube_run *c, u32 *d)
{
	return sim_parse_list(c->dests, d, c->bcast, "dests");
}

/* U-cube's maximum is ceil(log2(d + 1)) in every trial (the staircase). */
static int staircase(FILE *f, const struct table *t)
{
	u32 d[SIM_MAX_LIST], nd, i, j, bad = 0, pts = 0;

	for (i = 0; i < 2; i++) {
		nd = points(&runs[i], d);
		for (j = 0; j < nd; j++, pts++) {
			double want = ceil(log2(d[j] + 1.0));

			if (get(t, runs[i].n, "u-cube", d[j], "max_steps") != want ||
			    get(t, runs[i].n, "u-cube", d[j], "worst_max") != want)
				bad++;
		}
	}
	return verdict(f, !bad,
		       "U-cube's maximum step is ceil(log2(d+1)) in every trial (its staircase): %u of %u points",
		       pts - bad, pts);
}

/* Maxport, Combine and W-sort never need more steps on average. */
static int fewer_steps(FILE *f, const struct table *t)
{
	u32 d[SIM_MAX_LIST], nd, i, j, a, bad = 0;
	double most = 0;

	for (i = 0; i < 2; i++) {
		nd = points(&runs[i], d);
		for (j = 0; j < nd; j++) {
			double u = get(t, runs[i].n, "u-cube", d[j], "max_steps");

			for (a = 1; a < NALGO; a++) {
				double v = get(t, runs[i].n, cube_algo_name(a),
					       d[j], "max_steps");

				bad += !(v <= u);
				if (u - v > most)
					most = u - v;
			}
		}
	}
	return verdict(f, !bad,
		       "the new algorithms reduce the steps: Maxport, Combine and W-sort average at most U-cube's maximum at every point (by up to %.2f steps)",
		       most);
}

/*
 * W-sort "significantly better" than the others: its interval below both
 * Maxport's and Combine's at every point short of the broadcast.
 */
static int wsort_best(FILE *f, const struct table *t)
{
	u32 d[SIM_MAX_LIST], nd, i, j, a, bad = 0, pts = 0;
	double least = INFINITY;

	for (i = 0; i < 2; i++) {
		nd = points(&runs[i], d);
		for (j = 0; j + 1 < nd; j++, pts++) {
			u32 n = runs[i].n;
			double w = get(t, n, "w-sort", d[j], "max_steps") +
				   get(t, n, "w-sort", d[j], "max_ci");
			bool below = true;

			for (a = 1; a < 3; a++) {
				const char *name = cube_algo_name(a);
				double v = get(t, n, name, d[j], "max_steps") -
					   get(t, n, name, d[j], "max_ci");

				below &= w < v;
				if (v - w < least)
					least = v - w;
			}
			if (!below)
				fprintf(f, "  %u-cube, d = %u: W-sort %.2f +- %.2f, Maxport %.2f +- %.2f, Combine %.2f +- %.2f\n",
					n, d[j],
					get(t, n, "w-sort", d[j], "max_steps"),
					get(t, n, "w-sort", d[j], "max_ci"),
					get(t, n, "maxport", d[j], "max_steps"),
					get(t, n, "maxport", d[j], "max_ci"),
					get(t, n, "combine", d[j], "max_steps"),
					get(t, n, "combine", d[j], "max_ci"));
			bad += !below;
		}
	}
	return verdict(f, !bad,
		       "W-sort is significantly better than the others: at %u of %u points short of the broadcast its 95 %% interval lies below Maxport's and Combine's (the closest gap between the intervals %.2f steps)",
		       pts - bad, pts, least);
}

/* All four are the same algorithm at the broadcast. */
static int converge(FILE *f, const struct table *t)
{
	u32 i, a, bad = 0;

	for (i = 0; i < 2; i++)
		for (a = 1; a < NALGO; a++) {
			u32 n = runs[i].n, b = runs[i].bcast;

			bad += get(t, n, cube_algo_name(a), b, "max_steps") !=
			       get(t, n, "u-cube", b, "max_steps") ||
			       get(t, n, cube_algo_name(a), b, "avg_steps") !=
			       get(t, n, "u-cube", b, "avg_steps");
		}
	return verdict(f, !bad,
		       "all curves converge at the broadcast (d = 63 and 1023): the four give the same maximum and average");
}

/*
 * Fig 3.12's remark in steps: U-cube's average is worse for a large
 * multicast than for the broadcast (it sends several on one channel).
 */
static int ucube_avg_worse(FILE *f, const struct table *t)
{
	u32 i, ok = 0;

	for (i = 0; i < 2; i++) {
		u32 n = runs[i].n, d[SIM_MAX_LIST], nd = points(&runs[i], d);
		double b = get(t, n, "u-cube", runs[i].bcast, "avg_steps");
		double near = get(t, n, "u-cube", d[nd - 2], "avg_steps");

		fprintf(f, "  %u-cube: U-cube's average step %.2f at d = %u, %.2f at the broadcast\n",
			n, near, d[nd - 2], b);
		ok += near > b;
	}
	return verdict(f, ok == 2,
		       "U-cube's average is worse for a large multicast than for the broadcast, on both cubes (the text's remark on Fig 3.12, here in steps)");
}

/* The notes' derived table (their own sets: agreement within 5 %). */
static int against_notes(FILE *f, const struct table *t)
{
	u32 i, a, k, bad = 0, cnt = 0;
	double worst = 0;

	for (i = 0; i < sizeof(notes) / sizeof(notes[0]); i++)
		for (a = 0; a < NALGO; a++)
			for (k = 0; k < 2; k++) {
				double v = get(t, notes[i].n, cube_algo_name(a),
					       notes[i].d,
					       k ? "avg_steps" : "max_steps");
				double dev = fabs(v / notes[i].v[a][k] - 1);

				cnt++;
				bad += !(dev <= 0.05);
				if (dev > worst)
					worst = dev;
			}
	return verdict(f, !bad,
		       "the notes' table (3.8, derived in the same step model from other random sets): %u of %u figures within 5 %%, the largest difference %.1f %%",
		       cnt - bad, cnt, worst * 100);
}

EXPERIMENT(exp_fig3_10)
{
	char topo[16], tr[16];
	bool header = true;
	FILE *csv, *f;
	u32 i, a;
	int bad = 0;
	const struct table *t;
	struct table *tt;

	fmt(tr, sizeof(tr), "%u", trials(o, 100));
	csv = out_file(o, e->name, "csv", "w");
	for (i = 0; i < 2; i++) {
		fmt(topo, sizeof(topo), "cube:%u", runs[i].n);
		/* one algorithm at a time: each plot line is consecutive rows */
		for (a = 0; a < NALGO; a++, header = false)
			if (spawn(csv, header, "cube", "-t", topo, "-d",
				  runs[i].dests, "-a", cube_algo_name(a), "-n",
				  tr, "--csv", NULL)) {
				fclose(csv);
				return -1;
			}
	}
	fclose(csv);
	plot(o, e->name, "1100,480",
	     "  set multiplot layout 1,2 title 'fig3.10-11: average of the maximum receive step, all-port, 100 random sets, source 0'\n"
	     "  set xlabel 'destinations d'; set ylabel 'steps'; set key bottom right\n"
	     "  al = 'u-cube maxport combine w-sort'\n"
	     "  do for [n in '6 10'] {\n"
	     "    set title n.'-cube (solid: maximum; dashed: average over destinations)'\n"
	     "    set yrange [0:n+0.5]\n"
	     "    plot for [i=1:4] csv using (($1 == n+0 && strcol(2) eq word(al, i)) ? $4 : NaN):6 \\\n"
	     "        with linespoints lc i title word(al, i), \\\n"
	     "      for [i=1:4] csv using (($1 == n+0 && strcol(2) eq word(al, i)) ? $4 : NaN):8 \\\n"
	     "        with lines lc i dt 2 notitle\n"
	     "  }\n  unset multiplot");
	tt = table_read(o, e->name);
	t = tt;
	f = out_file(o, e->name, "txt", "w");
	fprintf(f, "# %s: the seed's conclusions (Sec. 3.5)\n", e->name);
	bad |= staircase(f, t);
	bad |= fewer_steps(f, t);
	bad |= wsort_best(f, t);
	bad |= converge(f, t);
	bad |= ucube_avg_worse(f, t);
	bad |= against_notes(f, t);
	fclose(f);
	table_free(tt);
	return bad;
}
