// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Seed 002 (Fulgham 1997), ch. 5 and 6: the packet routers under unicast
 * load on the 16x16 torus and mesh.  The dimension-order oblivious router
 * (DO: input-driven, whose fixed and random orders are one router, and
 * output-driven) and Duato's (input-driven fixed, input-driven random,
 * output-driven), each under the seven traffic patterns, swept over the
 * normalized load 0.05 .. 1.0 by 0.05 on router_model.c.  For each
 * configuration: the saturation load (the smallest load at which the
 * delivered throughput falls short of the offered beyond the 95 %
 * interval, router_model.h) and the peak throughput, beside the seed's
 * (Tables 5.3-5.6, B.1, B.2, B.4, B.5; notes 4.5, 4.6), and the seed's
 * qualitative conclusions that these figures can test.
 *
 * To keep the run short, a sweep stops three loads after its throughput
 * last rose past saturation (the throughput past saturation is flat or
 * falls; the seed's peaks past that are within a point or two of the
 * peak at saturation).  --quick divides the cycles by 40 (with a floor)
 * and takes every other load: a smoke run, its verdicts are noise.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "experiments.h"
#include "router_model.h"

#define NTR	(RM_HOTSPOT2 + 1)	/* the seed's seven */
#define NROUT	5

/* The routers run, in the CSV's and the plot's order. */
static const struct {
	enum rm_algo algo;
	enum rm_arb arb;
	const char *label;
} routers[NROUT] = {
	{ RM_DO, RM_IN_FIXED, "DO in" },
	{ RM_DO, RM_OUT, "DO out" },
	{ RM_DUATO, RM_IN_FIXED, "Duato in-fixed" },
	{ RM_DUATO, RM_IN_RANDOM, "Duato in-random" },
	{ RM_DUATO, RM_OUT, "Duato out" },
};

/*
 * The seed's saturation loads and peak throughputs (%), [topology]
 * [router][traffic] in the order random, bit reversal, complement,
 * perfect shuffle, transpose, hot spot 1, hot spot 2.  Saturation: Tables
 * 5.3 (torus) and 5.4 (mesh), fixed order, and 5.5, 5.6 for Duato's
 * random order; DO's input-driven router is the same in both orders.
 * Peaks: B.1 and B.4 (DO), B.2 and B.5 (Duato).
 */
static const double seed_sat[2][NROUT][NTR] = {
	{ { .80, .50, .50, .50, .55, .65, .55 },
	  { .80, .50, .50, .50, .55, .65, .55 },
	  { .85, .70, .45, .50, .55, .70, .55 },
	  { .95, .80, .40, .50, .55, .85, .75 },
	  { .95, .80, .40, .50, .55, .90, .85 } },
	{ { .95, .55, .50, .90, .55, .80, .75 },
	  { .95, .55, .50, .90, .55, .80, .75 },
	  { .95, .80, .45, .90, .85, .80, .75 },
	  { .95, .80, .35, .95, .80, .90, .90 },
	  { .95, .80, .35, .95, .85, .85, .85 } },
};

static const double seed_peak[2][NROUT][NTR] = {
	{ { 77, 44, 44, 45, 50, 63, 51 },
	  { 78, 46, 45, 45, 50, 63, 50 },
	  { 70, 61, 40, 45, 50, 70, 59 },
	  { 90, 70, 39, 45, 50, 80, 72 },
	  { 89, 70, 39, 45, 50, 85, 80 } },
	{ { 94, 61, 45, 86, 72, 77, 71 },
	  { 93, 61, 44, 86, 72, 76, 71 },
	  { 92, 74, 40, 84, 76, 87, 83 },
	  { 92, 75, 34, 89, 78, 89, 85 },
	  { 93, 77, 36, 89, 81, 87, 83 } },
};

/* What one configuration's sweep gave. */
struct sweep {
	double sat;		/* 1.05 when not saturated up to 1.0 */
	double peak, peak_ci, peak_load;
};

#define NOSAT	1.05

static struct sweep res[2][NROUT][NTR];

static const char *tname(int t)
{
	return rm_traffic_name((enum rm_traffic)t);
}

static void cfg_of(struct rm_cfg *c, const struct run_opts *o, int topo,
		   int r, int t)
{
	rm_cfg_default(c);
	c->topo = topo ? RM_MESH : RM_TORUS;
	c->algo = routers[r].algo;
	c->arb = routers[r].arb;
	c->traffic = (enum rm_traffic)t;
	/* full: 2500 + 10 x 650 cycles a load; --quick: 100 + 2 x 100 */
	c->warmup = o->scale > 1 ? 100 : 2500;
	c->batches = o->scale > 1 ? 2 : 10;
	c->batch = 650 / o->scale < 100 ? 100 : 650 / o->scale;
}

static int sweep(FILE *csv, const struct run_opts *o, int topo, int r,
		 int t, struct sweep *s)
{
	struct rm_result x;
	struct rm_cfg c;
	u32 step = o->scale > 1 ? 2 : 1, i, since = 0;

	cfg_of(&c, o, topo, r, t);
	*s = (struct sweep){ .sat = NOSAT };
	for (i = step; i <= 20; i += step) {
		c.load = i * 0.05;
		if (rm_run(&c, &x)) {
			fprintf(stderr, "mcastsim: run: seed002: deadlock (%s %s %s %s load %.2f)\n",
				rm_topo_name(c.topo), rm_algo_name(c.algo),
				rm_arb_name(c.arb), rm_traffic_name(c.traffic),
				c.load);
			return -1;
		}
		fprintf(csv, "%s:16x16,%s,%s,%s,%.2f,%.4f,%.4f,%.4f,%.2f,%.2f,%.3f,%d\n",
			rm_topo_name(c.topo), rm_algo_name(c.algo),
			rm_arb_name(c.arb), rm_traffic_name(c.traffic), c.load,
			x.offered, x.thr, x.thr_ci, x.lat, x.lat_ci, x.hops,
			x.saturated);
		if (x.saturated && s->sat == NOSAT)
			s->sat = c.load;
		if (x.thr > s->peak) {
			s->peak = x.thr;
			s->peak_ci = x.thr_ci;
			s->peak_load = c.load;
			since = 0;
		} else if (s->sat < NOSAT && ++since == 3) {
			break;
		}
	}
	return 0;
}

static void fmt_sat(char *buf, size_t n, double v)
{
	if (v >= NOSAT)
		snprintf(buf, n, ">1.00");
	else
		snprintf(buf, n, "%.2f", v);
}

/*
 * Per configuration ours beside the seed's, a verdict each: it holds when
 * the saturation load is within one .05 step and the peak within 5 points.
 */
static int table(FILE *f)
{
	int topo, r, t, bad = 0, held = 0, all = 0;
	char a[16], b[16];

	for (topo = 0; topo < 2; topo++)
		for (r = 0; r < NROUT; r++)
			for (t = 0; t < NTR; t++) {
				struct sweep *s = &res[topo][r][t];
				double ss = seed_sat[topo][r][t];
				double sp = seed_peak[topo][r][t];
				bool ok = fabs(s->sat - ss) < 0.05 + 1e-9 &&
					  fabs(100 * s->peak - sp) <= 5;

				fmt_sat(a, sizeof(a), s->sat);
				fmt_sat(b, sizeof(b), ss);
				bad |= verdict(f, ok,
					       "%-5s %-15s %-10s saturation %5s (seed %s), peak %4.1f +- %.1f %% at %.2f (seed %2.0f)",
					       topo ? "mesh" : "torus",
					       routers[r].label,
					       tname(t),
					       a, b, 100 * s->peak,
					       100 * s->peak_ci, s->peak_load,
					       sp);
				held += ok;
				all++;
			}
	fprintf(f, "# %d of %d configurations within .05 and 5 points of the seed\n",
		held, all);
	return bad;
}

static double sat(int topo, int r, int t)
{
	return res[topo][r][t].sat;
}

/* The seed's qualitative conclusions (ch. 5, 6; notes 4.5, 4.7). */
static int conclusions(FILE *f)
{
	int topo, t, r, bad = 0, viol = 0, n = 0;
	char list[512] = "";

	/* ch. 5: output-driven saturates no earlier, except complement */
	for (topo = 0; topo < 2; topo++)
		for (r = 0; r < 2; r++)
			for (t = 0; t < NTR; t++) {
				int in = r ? 2 : 0, out = r ? 4 : 1;

				if (t == RM_COMPLEMENT)
					continue;
				n++;
				if (sat(topo, out, t) + 0.05 + 1e-9 <
				    sat(topo, in, t)) {
					viol++;
					snprintf(list + strlen(list),
						 sizeof(list) - strlen(list),
						 " %s/%s/%s",
						 topo ? "mesh" : "torus",
						 r ? "duato" : "do",
						 tname(t));
				}
			}
	bad |= verdict(f, !viol,
		       "ch. 5: output-driven saturates no earlier than input-driven fixed order (to one .05 step), but for complement: %d of %d configurations earlier%s",
		       viol, n, list);
	/* ch. 5: complement is the exception, fixed order helps it */
	bad |= verdict(f, sat(0, 2, RM_COMPLEMENT) >= sat(0, 4, RM_COMPLEMENT),
		       "ch. 5: complement, torus Duato: input-driven fixed order saturates no earlier than output-driven (%.2f, %.2f; seed .45, .40)",
		       sat(0, 2, RM_COMPLEMENT), sat(0, 4, RM_COMPLEMENT));
	/* ch. 5: Duato torus, output-driven's peak is higher, up to 36 % */
	{
		double best = 0;
		int bt = 0;

		for (t = 0; t < NTR; t++) {
			double g = res[0][4][t].peak / res[0][2][t].peak - 1;

			if (t != RM_COMPLEMENT && g > best) {
				best = g;
				bt = t;
			}
		}
		bad |= verdict(f, best >= 0.10,
			       "ch. 5: torus Duato, output-driven's peak over fixed-order input-driven's: at most +%.0f %% (%s); the seed: up to +36 %% (hot spot 2)",
			       100 * best, tname(bt));
	}
	/* ch. 6: torus, Duato later than DO but for complement */
	viol = 0;
	list[0] = '\0';
	for (t = 0; t < NTR; t++) {
		bool ok = t == RM_COMPLEMENT ?
			  sat(0, 4, t) < sat(0, 1, t) :
			  sat(0, 4, t) + 1e-9 >= sat(0, 1, t);

		if (!ok) {
			viol++;
			snprintf(list + strlen(list),
				 sizeof(list) - strlen(list), " %s",
				 tname(t));
		}
	}
	bad |= verdict(f, !viol,
		       "ch. 6: on the torus (output-driven) Duato saturates no earlier than DO, and earlier for complement:%s%s",
		       viol ? " not for" : " every pattern", list);
	/* ch. 6: mesh, DO equal or better for random and complement */
	bad |= verdict(f, sat(1, 1, RM_RANDOM) + 1e-9 >= sat(1, 4, RM_RANDOM) &&
		       sat(1, 1, RM_COMPLEMENT) + 1e-9 >=
		       sat(1, 4, RM_COMPLEMENT),
		       "ch. 6: on the mesh DO saturates no earlier than Duato for random (%.2f, %.2f) and complement (%.2f, %.2f)",
		       sat(1, 1, RM_RANDOM), sat(1, 4, RM_RANDOM),
		       sat(1, 1, RM_COMPLEMENT), sat(1, 4, RM_COMPLEMENT));
	/* ch. 6: bit reversal on the torus, Duato 70 % against DO's 45 % */
	bad |= verdict(f, res[0][4][RM_BITREV].peak >
		       1.3 * res[0][1][RM_BITREV].peak,
		       "ch. 6: torus bit reversal peak, Duato %.0f %% against DO %.0f %% (seed 70, 45-46)",
		       100 * res[0][4][RM_BITREV].peak,
		       100 * res[0][1][RM_BITREV].peak);
	return bad;
}

/*
 * Hot spot 2 lists node 51 twice.  Taken as printed, 51 draws 7/286 of
 * the packets: at load L on the torus it must take in 7/286 * 256 * L *
 * 20/80 = 1.57 L words a cycle, past the one a cycle its delivery buffer
 * takes from L = 0.64 on.  With 51 once, 4/283 * 64 L = 0.90 L.
 */
static void hot2_note(FILE *f, const struct sweep *once)
{
	char a[16], b[16];

	fmt_sat(a, sizeof(a), once[0].sat);
	fmt_sat(b, sizeof(b), once[1].sat);
	fprintf(f, "note: hot spot 2 lists 51 twice: as printed, node 51 must take 1.57 L words a cycle at load L on the torus, more than its delivery takes past L = 0.64; with 51 once (hotspot2-once), torus output-driven: DO saturates at %s, peak %.1f %% (seed .55, 50), Duato at %s, peak %.1f %% (seed .85, 80)\n",
		a, 100 * once[0].peak, b, 100 * once[1].peak);
}

static void draw(const struct run_opts *o, const char *name)
{
	plot(o, name, "1500,900",
	     "  algs = 'do do duato duato duato'; arbs = 'in-fixed out in-fixed in-random out'\n"
	     "  names = 'DO_in DO_out Duato_in-fixed Duato_in-random Duato_out'\n"
	     "  sel(tp, tr, i) = (strcol(1) eq tp && strcol(4) eq tr && strcol(2) eq word(algs, i) && strcol(3) eq word(arbs, i)) ? column(7) : NaN\n"
	     "  set multiplot layout 2,3 title 'seed 002: normalized throughput against normalized load, 16x16, 20-word packets (VCT)'\n"
	     "  set xrange [0:1.05]; set yrange [0:1]; set xlabel 'applied load'; set ylabel 'throughput'; set key top left font ',9' noenhanced\n"
	     "  do for [p in 'torus:16x16,random torus:16x16,bitrev torus:16x16,hotspot2 mesh:16x16,random mesh:16x16,bitrev mesh:16x16,complement'] {\n"
	     "    tp = p[1:strstrt(p, ',') - 1]; tr = p[strstrt(p, ',') + 1:]\n"
	     "    set title tp . ' ' . tr noenhanced\n"
	     "    plot for [i=1:5] csv using 5:(sel(tp, tr, i)) with linespoints pt i title word(names, i), x with lines dt 2 lc 'gray' notitle\n"
	     "  }\n"
	     "  unset multiplot");
}

EXPERIMENT(exp_seed002)
{
	struct sweep once[2];
	FILE *csv, *f;
	int topo, r, t, bad = 0;

	csv = out_file(o, e->name, "csv", "w");
	fputs("topology,algorithm,arbitration,traffic,load,offered,throughput,throughput_ci,latency,latency_ci,hops,saturated\n",
	      csv);
	for (topo = 0; topo < 2; topo++)
		for (r = 0; r < NROUT; r++)
			for (t = 0; t < NTR; t++)
				if (sweep(csv, o, topo, r, t,
					  &res[topo][r][t])) {
					fclose(csv);
					return -1;
				}
	/* hot spot 2 with its doubled 51 once: torus, output-driven */
	for (r = 1; r < NROUT; r += 3)
		if (sweep(csv, o, 0, r, RM_HOTSPOT2_ONCE, &once[r == 4])) {
			fclose(csv);
			return -1;
		}
	fclose(csv);
	f = out_file(o, e->name, "txt", "w");
	fprintf(f, "# %s: packet routers, 16x16 torus and mesh, 20-word packets and buffers, loads .05 to 1 by %s (%s)\n",
		e->name, o->scale > 1 ? ".10" : ".05",
		o->scale > 1 ? "--quick: 100 + 2 x 100 cycles a load" :
			       "2500 + 10 x 650 cycles a load");
	fprintf(f, "# saturation: the smallest load whose shortfall (offered - delivered) is over its 95 %% interval and 1 %%; peak: the largest throughput, with its 95 %% interval\n");
	bad |= table(f);
	bad |= conclusions(f);
	hot2_note(f, once);
	fclose(f);
	draw(o, e->name);
	return bad;
}
