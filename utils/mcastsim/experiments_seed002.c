// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Fulgham (1997), ch. 5 and 6: the packet routers under unicast
 * load on the 16x16 torus and mesh.  The dimension-order oblivious router
 * (DO: input-driven, whose fixed and random orders are one router, and
 * output-driven), Duato's and the packet Minimal Triplex (each
 * input-driven fixed, input-driven random, output-driven) and the Chaos
 * router (output-driven, as in ch. 6), each under the seven traffic
 * patterns, swept over the normalized load 0.05 .. 1.0 by 0.05 on
 * router_model.c.  For each configuration: the saturation load (the
 * smallest load at which the delivered throughput falls short of the
 * offered beyond the 95 % interval, router_model.h) and the peak
 * throughput, beside the seed's (Tables 5.3-5.6, 6.2, B.1-B.6; notes
 * 4.5-4.7), and the seed's qualitative conclusions that these figures can
 * test (notes 4.4, 4.5, 4.7).
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
#define NROUT	9

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
	{ RM_TRIPLEX, RM_IN_FIXED, "Triplex in-fixed" },
	{ RM_TRIPLEX, RM_IN_RANDOM, "Triplex in-random" },
	{ RM_TRIPLEX, RM_OUT, "Triplex out" },
	{ RM_CHAOS, RM_OUT, "Chaos out" },
};

/* The routers' rows in routers[]. */
enum { DO_IN, DO_OUT, DU_FIX, DU_RND, DU_OUT, TX_FIX, TX_RND, TX_OUT,
	CH_OUT };

/*
 * The seed's saturation loads and peak throughputs (%), [topology]
 * [router][traffic] in the order random, bit reversal, complement,
 * perfect shuffle, transpose, hot spot 1, hot spot 2.  Saturation: Tables
 * 5.3 (torus) and 5.4 (mesh), fixed order, and 5.5, 5.6 for Duato's and
 * Min Triplex's random order; DO's input-driven router is the same in both
 * orders.  Peaks: B.1 and B.4 (DO), B.2 and B.5 (Duato), B.3 and B.6
 * (Min Triplex, the ch. 5 "early implementation").  Chaos: Table 6.2's
 * saturation (its rows are in another order), and the peaks ch. 6 states
 * (torus random 98, bit reversal 79 at saturation, hot spots 95 and 96;
 * NAN: not given).
 */
static const double seed_sat[2][NROUT][NTR] = {
	{ { .80, .50, .50, .50, .55, .65, .55 },
	  { .80, .50, .50, .50, .55, .65, .55 },
	  { .85, .70, .45, .50, .55, .70, .55 },
	  { .95, .80, .40, .50, .55, .85, .75 },
	  { .95, .80, .40, .50, .55, .90, .85 },
	  { .80, .65, .40, .40, .55, .65, .60 },
	  { .85, .70, .35, .45, .55, .80, .75 },
	  { .85, .75, .40, .45, .55, .85, .80 },
	  { 1.00, .90, .35, .45, .55, .90, .95 } },
	{ { .95, .55, .50, .90, .55, .80, .75 },
	  { .95, .55, .50, .90, .55, .80, .75 },
	  { .95, .80, .45, .90, .85, .80, .75 },
	  { .95, .80, .35, .95, .80, .90, .90 },
	  { .95, .80, .35, .95, .85, .85, .85 },
	  { .90, .70, .45, .80, .85, .75, .75 },
	  { .90, .75, .35, .90, .75, .85, .85 },
	  { .90, .75, .35, .90, .85, .85, .85 },
	  { .85, .80, .35, .85, .70, .80, .80 } },
};

static const double seed_peak[2][NROUT][NTR] = {
	{ { 77, 44, 44, 45, 50, 63, 51 },
	  { 78, 46, 45, 45, 50, 63, 50 },
	  { 70, 61, 40, 45, 50, 70, 59 },
	  { 90, 70, 39, 45, 50, 80, 72 },
	  { 89, 70, 39, 45, 50, 85, 80 },
	  { 74, 56, 40, 39, 50, 61, 55 },
	  { 80, 61, 34, 40, 50, 74, 70 },
	  { 80, 66, 36, 44, 50, 80, 75 },
	  { 98, 79, NAN, NAN, NAN, 95, 96 } },
	{ { 94, 61, 45, 86, 72, 77, 71 },
	  { 93, 61, 44, 86, 72, 76, 71 },
	  { 92, 74, 40, 84, 76, 87, 83 },
	  { 92, 75, 34, 89, 78, 89, 85 },
	  { 93, 77, 36, 89, 81, 87, 83 },
	  { 85, 61, 40, 75, 76, 72, 71 },
	  { 88, 65, 32, 84, 78, 80, 80 },
	  { 89, 65, 34, 85, 82, 80, 80 },
	  { NAN, NAN, NAN, NAN, NAN, NAN, NAN } },
};

/* What one configuration's sweep gave. */
struct sweep {
	double sat;		/* 1.05 when not saturated up to 1.0 */
	double peak, peak_ci, peak_load;
	/* seed002-ch4's: by load step i (load .05 i), NAN where not run */
	double lat[21], thr[21];
	u32 satmask;		/* bit i: saturated at load .05 i */
	double dpm;		/* deroutes per delivered message at the peak */
	double nder, ndel;	/* deroutes and messages, all loads */
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
	/*
	 * full: 2500 + 10 x 650 cycles a load, Triplex and Chaos 2000 + 10
	 * x 500 (to keep the run under 8 minutes); --quick: 100 + 2 x 100
	 */
	c->warmup = o->scale > 1 ? 100 : 2500;
	c->batches = o->scale > 1 ? 2 : 10;
	c->batch = 650 / o->scale < 100 ? 100 : 650 / o->scale;
	if (r >= TX_FIX && o->scale == 1) {
		c->warmup = 2000;
		c->batch = 500;
	}
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
	char a[16], b[16], p[16];

	for (topo = 0; topo < 2; topo++)
		for (r = 0; r < NROUT; r++)
			for (t = 0; t < NTR; t++) {
				struct sweep *s = &res[topo][r][t];
				double ss = seed_sat[topo][r][t];
				double sp = seed_peak[topo][r][t];
				/* no peak from the seed: saturation alone */
				bool ok = fabs(s->sat - ss) < 0.05 + 1e-9 &&
					  (isnan(sp) ||
					   fabs(100 * s->peak - sp) <= 5);

				fmt_sat(a, sizeof(a), s->sat);
				fmt_sat(b, sizeof(b), ss);
				if (isnan(sp))
					snprintf(p, sizeof(p), "-");
				else
					snprintf(p, sizeof(p), "%2.0f", sp);
				bad |= verdict(f, ok,
					       "%-5s %-17s %-10s saturation %5s (seed %s), peak %4.1f +- %.1f %% at %.2f (seed %s)",
					       topo ? "mesh" : "torus",
					       routers[r].label,
					       tname(t),
					       a, b, 100 * s->peak,
					       100 * s->peak_ci, s->peak_load,
					       p);
				held += ok;
				all++;
			}
	fprintf(f, "# %d of %d configurations within .05 and 5 points of the seed (Chaos: where the seed gives a peak)\n",
		held, all);
	return bad;
}

static double sat(int topo, int r, int t)
{
	return res[topo][r][t].sat;
}

static double peak(int topo, int r, int t)
{
	return res[topo][r][t].peak;
}

/*
 * The largest gain of router row @out's peak over row @fix's, complement
 * aside (the seed's exception), and in *@bt the pattern where it is.
 */
static double best_gain(int topo, int out, int fix, int *bt)
{
	double best = 0, g;
	int t;

	*bt = 0;
	for (t = 0; t < NTR; t++) {
		g = peak(topo, out, t) / peak(topo, fix, t) - 1;
		if (t != RM_COMPLEMENT && g > best) {
			best = g;
			*bt = t;
		}
	}
	return best;
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
		int bt;
		double best = best_gain(0, DU_OUT, DU_FIX, &bt);

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

/* Appends " WHAT" to @list, of @n bytes. */
static void note(char *list, size_t n, const char *what)
{
	snprintf(list + strlen(list), n - strlen(list), " %s", what);
}

/*
 * The seed's claims on Min Triplex (the ch. 5 "early implementation",
 * notes 4.4, 4.5) that its sweeps can test.
 */
static int triplex_conclusions(FILE *f)
{
	static const int fixed[2] = { DU_FIX, TX_FIX };
	int topo, t, i, bad = 0, viol = 0, n = 0;
	char list[512] = "", name[64];
	double best;
	int bt;

	/* ch. 5: output-driven saturates no earlier, except complement */
	for (topo = 0; topo < 2; topo++)
		for (t = 0; t < NTR; t++) {
			if (t == RM_COMPLEMENT)
				continue;
			n++;
			if (sat(topo, TX_OUT, t) + 0.05 + 1e-9 <
			    sat(topo, TX_FIX, t)) {
				viol++;
				snprintf(name, sizeof(name), "%s/%s",
					 topo ? "mesh" : "torus", tname(t));
				note(list, sizeof(list), name);
			}
		}
	bad |= verdict(f, !viol,
		       "ch. 5: Min Triplex output-driven saturates no earlier than input-driven fixed order (to one .05 step), but for complement: %d of %d configurations earlier%s",
		       viol, n, list);
	/* ch. 5: complement's peak is the exception, on both networks */
	bad |= verdict(f, peak(0, TX_OUT, RM_COMPLEMENT) <
		       peak(0, TX_FIX, RM_COMPLEMENT) &&
		       peak(1, TX_OUT, RM_COMPLEMENT) <
		       peak(1, TX_FIX, RM_COMPLEMENT),
		       "ch. 5: complement, Min Triplex: output-driven peaks below fixed-order input-driven, torus %.0f %% < %.0f %% and mesh %.0f %% < %.0f %% (seed 36 < 40, 34 < 40)",
		       100 * peak(0, TX_OUT, RM_COMPLEMENT),
		       100 * peak(0, TX_FIX, RM_COMPLEMENT),
		       100 * peak(1, TX_OUT, RM_COMPLEMENT),
		       100 * peak(1, TX_FIX, RM_COMPLEMENT));
	/* ch. 5: the mesh's largest output-driven peak gain, +13 % */
	best = best_gain(1, TX_OUT, TX_FIX, &bt);
	bad |= verdict(f, best >= 0.05,
		       "ch. 5: mesh Min Triplex, output-driven's peak over fixed-order input-driven's: at most +%.0f %% (%s); the seed: up to +13 %% (perfect shuffle)",
		       100 * best, tname(bt));
	/* ch. 5: random order saturates complement earlier than fixed */
	viol = 0;
	list[0] = '\0';
	for (topo = 0; topo < 2; topo++)
		/* in-random is the row after in-fixed */
		for (i = 0; i < 2; i++)
			if (sat(topo, fixed[i] + 1, RM_COMPLEMENT) >
			    sat(topo, fixed[i], RM_COMPLEMENT) + 1e-9) {
				viol++;
				snprintf(name, sizeof(name), "%s/%s",
					 topo ? "mesh" : "torus",
					 i ? "min-triplex" : "duato");
				note(list, sizeof(list), name);
			}
	bad |= verdict(f, !viol,
		       "ch. 5: complement, Duato and Min Triplex: random order saturates no later than fixed order (seed earlier in all four):%s%s",
		       viol ? " later for" : " all four", list);
	/* ch. 4: Duato's peak matches or beats Min Triplex's (with Rule 4t) */
	viol = 0;
	list[0] = '\0';
	for (t = 0; t < NTR; t++)
		if (peak(0, DU_OUT, t) + 0.02 < peak(0, TX_OUT, t)) {
			viol++;
			note(list, sizeof(list), tname(t));
		}
	bad |= verdict(f, !viol,
		       "ch. 4-5: torus, output-driven: Duato's peak matches or exceeds Min Triplex's (to 2 points; B.2, B.3) for%s%s",
		       viol ? " all but" : " every pattern", list);
	return bad;
}

/* The seed's ch. 6 claims on the Chaos router (notes 4.7). */
static int chaos_conclusions(FILE *f)
{
	int t, bad = 0, viol = 0;
	char list[512] = "";
	double other, ch = peak(0, CH_OUT, RM_RANDOM);

	/* torus: Chaos's throughput at least the others', but complement */
	for (t = 0; t < NTR; t++) {
		other = fmax(peak(0, DO_OUT, t), peak(0, DU_OUT, t));
		if (peak(0, CH_OUT, t) + (t == RM_COMPLEMENT ? 0.05 : 0.01) <
		    other) {
			viol++;
			note(list, sizeof(list), tname(t));
		}
	}
	bad |= verdict(f, !viol,
		       "ch. 6: torus, Chaos's peak at least output-driven DO's and Duato's (to 1 point; complement within 5):%s%s",
		       viol ? " not for" : " every pattern", list);
	bad |= verdict(f, peak(0, CH_OUT, RM_BITREV) >
		       peak(0, DU_OUT, RM_BITREV) &&
		       peak(0, DU_OUT, RM_BITREV) > peak(0, DO_OUT, RM_BITREV),
		       "ch. 6: torus bit reversal, Chaos %.0f %% above Duato %.0f %% above DO %.0f %% (seed 79, 70, 45)",
		       100 * peak(0, CH_OUT, RM_BITREV),
		       100 * peak(0, DU_OUT, RM_BITREV),
		       100 * peak(0, DO_OUT, RM_BITREV));
	bad |= verdict(f, peak(0, CH_OUT, RM_HOTSPOT1) >= ch - 0.05 &&
		       peak(0, CH_OUT, RM_HOTSPOT2) >= ch - 0.05,
		       "ch. 6: torus hot spots cost Chaos little: peaks %.0f %% and %.0f %% against %.0f %% for random (seed 95, 96 against 98; DO 63, 50 against 76-78)",
		       100 * peak(0, CH_OUT, RM_HOTSPOT1),
		       100 * peak(0, CH_OUT, RM_HOTSPOT2), 100 * ch);
	bad |= verdict(f, sat(1, DO_OUT, RM_RANDOM) + 1e-9 >=
		       sat(1, CH_OUT, RM_RANDOM) &&
		       sat(1, DO_OUT, RM_COMPLEMENT) + 1e-9 >=
		       sat(1, CH_OUT, RM_COMPLEMENT),
		       "ch. 6: on the mesh DO saturates no earlier than Chaos for random (%.2f, %.2f; seed .95, .85) and complement (%.2f, %.2f; seed .50, .35)",
		       sat(1, DO_OUT, RM_RANDOM), sat(1, CH_OUT, RM_RANDOM),
		       sat(1, DO_OUT, RM_COMPLEMENT),
		       sat(1, CH_OUT, RM_COMPLEMENT));
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
	     "  algs = 'do do duato duato duato min-triplex min-triplex min-triplex chaos'\n"
	     "  arbs = 'in-fixed out in-fixed in-random out in-fixed in-random out out'\n"
	     "  names = 'DO_in DO_out Duato_in-fixed Duato_in-random Duato_out Triplex_in-fixed Triplex_in-random Triplex_out Chaos_out'\n"
	     "  sel(tp, tr, i) = (strcol(1) eq tp && strcol(4) eq tr && strcol(2) eq word(algs, i) && strcol(3) eq word(arbs, i)) ? column(7) : NaN\n"
	     "  set multiplot layout 2,3 title 'Fulgham (1997): normalized throughput against normalized load, 16x16, 20-word packets (VCT)'\n"
	     "  set xrange [0:1.05]; set yrange [0:1]; set xlabel 'applied load'; set ylabel 'throughput'; set key top left font ',9' noenhanced\n"
	     "  do for [p in 'torus:16x16,random torus:16x16,bitrev torus:16x16,hotspot2 mesh:16x16,random mesh:16x16,bitrev mesh:16x16,complement'] {\n"
	     "    tp = p[1:strstrt(p, ',') - 1]; tr = p[strstrt(p, ',') + 1:]\n"
	     "    set title tp . ' ' . tr noenhanced\n"
	     "    plot for [i=1:9] csv using 5:(sel(tp, tr, i)) with linespoints pt i title word(names, i), x with lines dt 2 lc 'gray' notitle\n"
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
	for (r = 0; r < 2; r++)
		if (sweep(csv, o, 0, r ? DU_OUT : DO_OUT, RM_HOTSPOT2_ONCE,
			  &once[r])) {
			fclose(csv);
			return -1;
		}
	fclose(csv);
	f = out_file(o, e->name, "txt", "w");
	fprintf(f, "# %s: packet routers, 16x16 torus and mesh, 20-word packets and buffers, loads .05 to 1 by %s (%s)\n",
		e->name, o->scale > 1 ? ".10" : ".05",
		o->scale > 1 ? "--quick: 100 + 2 x 100 cycles a load" :
			       "2500 + 10 x 650 cycles a load, Triplex and Chaos 2000 + 10 x 500");
	fprintf(f, "# saturation: the smallest load whose shortfall (offered - delivered) is over its 95 %% interval and 1 %%; peak: the largest throughput, with its 95 %% interval\n");
	bad |= table(f);
	bad |= conclusions(f);
	bad |= triplex_conclusions(f);
	bad |= chaos_conclusions(f);
	hot2_note(f, once);
	fclose(f);
	draw(o, e->name);
	return bad;
}


/* ------------------------------------------------------------------ */
/*
 * seed002-ch4: ch. 4's wormhole routers (notes 4.3) on the 16x16 torus,
 * 40-word messages ("short") and 40- and 400-word ones at 10 to 1
 * ("mix"), under random, bit reversal, transpose and hot spot 1: the
 * oblivious router (2 VCs, no lanes), the oblivious Triplex (DO with node
 * latency 4), Duato's, the Minimal Triplex and the (non-minimal) Triplex,
 * against Table 4.4.  The thesis does not state the arbitration:
 * output-driven, as in ch. 6.  A sweep stops two loads after saturation
 * (Table 4.4 has saturation alone).
 *
 * Then ch. 4's packet comparisons (notes 4.4), which the thesis gives
 * as curves and claims, not numbers: on the torus, 20-word packets,
 * output-driven, random, bit reversal, perfect shuffle, transpose and
 * hot spot 1, Duato's, the Minimal Triplex with Rule 4t's minimal routes
 * (ch. 5's rule set), the Minimal Triplex without them (Rules 1 and 2:
 * the Triplex with deroute probability 0), the final packet Triplex
 * (Rules 1, 2 and 3, deroutes after 400 cycles with p = .00001) and the
 * Chaos router.  The Triplex and Chaos run every load to 1.0 (the claims
 * are on high loads), the others stop as seed002's sweeps do.
 */
#define W_NR	5
#define W_NT	4
#define W_NL	2
#define W_MIN	3	/* the Minimal Triplex's row */
#define W_TX	4	/* the Triplex's */

static const struct {
	enum rm_algo algo;
	u32 latency;
	const char *label, *key;
} wrouters[W_NR] = {
	{ RM_DO, 3, "Oblivious", "oblivious" },
	{ RM_DO, 4, "Obliv Triplex", "obliv-triplex" },
	{ RM_DUATO, 4, "Duato", "duato" },
	{ RM_TRIPLEX, 4, "Min Triplex", "min-triplex" },
	{ RM_NMTRIPLEX, 4, "Triplex", "triplex" },
};

static const enum rm_traffic wtraffic[W_NT] = { RM_RANDOM, RM_BITREV,
	RM_TRANSPOSE, RM_HOTSPOT1 };

/* Table 4.4, [router][traffic][short, mix]. */
static const double seed_t44[W_NR][W_NT][W_NL] = {
	{ { .20, .20 }, { .15, .15 }, { .20, .20 }, { .20, .15 } },
	{ { .20, .15 }, { .15, .15 }, { .20, .20 }, { .20, .15 } },
	{ { .30, .25 }, { .30, .25 }, { .25, .25 }, { .25, .20 } },
	{ { .30, .20 }, { .30, .30 }, { .30, .25 }, { .25, .20 } },
	{ { .30, .20 }, { .30, .25 }, { .30, .25 }, { .20, .20 } },
};

static struct sweep wres[W_NR][W_NT][W_NL];

#define P_NR	5
#define P_NT	5
enum { P_DU, P_MIN, P_NO4T, P_TX, P_CH };

/* dprob: the deroute probability, -1 the thesis's (Triplex only) */
static const struct {
	enum rm_algo algo;
	double dprob;
	const char *label, *key;
} prouters[P_NR] = {
	{ RM_DUATO, -1, "Duato", "duato" },
	{ RM_TRIPLEX, -1, "Min Triplex", "min-triplex" },
	{ RM_NMTRIPLEX, 0, "Min Triplex no 4t", "min-triplex-no4t" },
	{ RM_NMTRIPLEX, -1, "Triplex", "triplex" },
	{ RM_CHAOS, -1, "Chaos", "chaos" },
};

static const enum rm_traffic ptraffic[P_NT] = { RM_RANDOM, RM_BITREV,
	RM_SHUFFLE, RM_TRANSPOSE, RM_HOTSPOT1 };

static struct sweep pres[P_NR][P_NT];

static void wcfg_of(struct rm_cfg *c, const struct run_opts *o, int r,
		    int t, int mix)
{
	rm_cfg_default(c);
	c->flow = RM_WORMHOLE;
	c->depth = 1;
	c->len = 40;
	if (mix) {
		c->len2 = 400;
		c->mix = 10;
	}
	c->algo = wrouters[r].algo;
	c->latency = wrouters[r].latency;
	c->traffic = wtraffic[t];
	/*
	 * full: 2000 + 10 x 1000 cycles a load, the mix 3000 + 10 x 1500
	 * (a long message takes 400 cycles); --quick: 100 + 2 x 200
	 */
	c->warmup = o->scale > 1 ? 100 : mix ? 3000 : 2000;
	c->batches = o->scale > 1 ? 2 : 10;
	c->batch = o->scale > 1 ? 200 : mix ? 1500 : 1000;
}

/* The packet runs: seed002's Triplex and Chaos run lengths. */
static void pcfg_of(struct rm_cfg *c, const struct run_opts *o, int r,
		    int t)
{
	rm_cfg_default(c);
	c->algo = prouters[r].algo;
	c->dprob = prouters[r].dprob;
	c->traffic = ptraffic[t];
	/* full: 2000 + 10 x 500 cycles a load; --quick: 100 + 2 x 100 */
	c->warmup = o->scale > 1 ? 100 : 2000;
	c->batches = o->scale > 1 ? 2 : 10;
	c->batch = o->scale > 1 ? 100 : 500;
}

/*
 * @c at loads .05 i, i = @step, 2 @step, .. @last, until @stop loads
 * past saturation (@rise: past saturation and the throughput's last
 * rise, as seed002's): a CSV line each (@key, @len its first columns).
 */
static int csweep(FILE *csv, const char *key, const char *len,
		  struct rm_cfg *c, u32 step, u32 last, u32 stop, bool rise,
		  struct sweep *s)
{
	struct rm_result x;
	u32 i, after = 0;

	*s = (struct sweep){ .sat = NOSAT };
	for (i = 0; i <= 20; i++)
		s->lat[i] = s->thr[i] = NAN;
	for (i = step; i <= last && after < stop; i += step) {
		c->load = i * 0.05;
		if (rm_run(c, &x)) {
			fprintf(stderr, "mcastsim: run: seed002-ch4: deadlock (%s %s %s load %.2f)\n",
				key, rm_traffic_name(c->traffic), len,
				c->load);
			return -1;
		}
		fprintf(csv, "%s,%s,%s,%.2f,%.4f,%.4f,%.4f,%.2f,%.2f,%.3f,%.2f,%d,%llu\n",
			key, rm_traffic_name(c->traffic), len, c->load,
			x.offered, x.thr, x.thr_ci, x.lat, x.lat_ci, x.hops,
			x.len_mean, x.saturated,
			(unsigned long long)x.deroutes);
		s->lat[i] = x.lat;
		s->thr[i] = x.thr;
		s->nder += x.deroutes;
		s->ndel += x.delivered;
		s->satmask |= (u32)x.saturated << i;
		if (x.saturated && s->sat == NOSAT)
			s->sat = c->load;
		if (s->sat < NOSAT)
			after++;
		if (x.thr > s->peak) {
			s->peak = x.thr;
			s->peak_ci = x.thr_ci;
			s->peak_load = c->load;
			s->dpm = x.delivered ?
				 (double)x.deroutes / x.delivered : 0;
			if (rise)
				after = 0;
		}
	}
	return 0;
}

static int wsweep(FILE *csv, const struct run_opts *o, int r, int t,
		  int mix, struct sweep *s)
{
	struct rm_cfg c;

	wcfg_of(&c, o, r, t, mix);
	/* --quick: up to .60, past every full run's saturation (.45 at most) */
	return csweep(csv, wrouters[r].key, mix ? "mix" : "short", &c,
		      o->scale > 1 ? 2 : 1, o->scale > 1 ? 12 : 20, 2, false,
		      s);
}

static int psweep(FILE *csv, const struct run_opts *o, int r, int t,
		  struct sweep *s)
{
	/* --quick: loads .20, .40 .. 1.0 */
	u32 step = o->scale > 1 ? 4 : 1;
	struct rm_cfg c;

	pcfg_of(&c, o, r, t);
	/* the Triplex and Chaos to 1.0 (their claims), the others' peaks */
	if (r == P_TX || r == P_CH)
		return csweep(csv, prouters[r].key, "packet", &c, step, 20,
			      21, false, s);
	return csweep(csv, prouters[r].key, "packet", &c, step, 20, 3,
		      true, s);
}

/* Ours beside Table 4.4: a verdict each, holding within one .05 step. */
static int wtable(FILE *f)
{
	int r, t, l, bad = 0, held = 0, tx = 0;
	char a[16];

	for (r = 0; r < W_NR; r++)
		for (t = 0; t < W_NT; t++)
			for (l = 0; l < W_NL; l++) {
				struct sweep *s = &wres[r][t][l];
				double want = seed_t44[r][t][l];
				bool ok = fabs(s->sat - want) < 0.05 + 1e-9;

				fmt_sat(a, sizeof(a), s->sat);
				bad |= verdict(f, ok,
					       "%-13s %-9s %-5s saturation %5s (Table 4.4 %.2f), throughput at most %4.1f %% at %.2f",
					       wrouters[r].label,
					       rm_traffic_name(wtraffic[t]),
					       l ? "mix" : "short", a, want,
					       100 * s->peak, s->peak_load);
				held += ok;
				tx += ok && r == W_TX;
			}
	fprintf(f, "# %d of %d configurations within .05 of Table 4.4 (the Triplex: %d of %d)\n",
		held, W_NR * W_NT * W_NL, tx, W_NT * W_NL);
	return bad;
}

static double wsat(int r, int t, int l)
{
	return wres[r][t][l].sat;
}

/* The load step of @load (20 for no saturation up to 1.0). */
static u32 step_of(double load)
{
	long i = lround(load / 0.05);

	return i > 20 ? 20 : (u32)i;
}

/* The chapter's findings (notes 4.3) that the saturation loads test. */
static int wconclusions(FILE *f)
{
	int r, t, bad = 0, n = 0, later = 0, lower = 0, within = 0;
	int tx_ge = 0;
	double worst = 0, g;
	char list[256] = "";

	/* long messages decrease the saturation point slightly */
	for (r = 0; r < W_NR; r++)
		for (t = 0; t < W_NT; t++) {
			n++;
			later += wsat(r, t, 1) > wsat(r, t, 0) + 1e-9;
			lower += wsat(r, t, 1) < wsat(r, t, 0) - 1e-9;
		}
	bad |= verdict(f, !later && lower > 0,
		       "ch. 4: long messages decrease the saturation point slightly: the mix saturates earlier in %d, at the same load in %d, later in %d of %d (Table 4.4: 12, 8, 0 of 20)",
		       lower, n - lower - later, later, n);
	/* the oblivious Triplex's throughput within 4 points of DO's */
	for (t = 0; t < W_NT; t++) {
		g = wres[0][t][0].peak - wres[1][t][0].peak;
		worst = fmax(worst, fabs(g));
		within += wsat(1, t, 0) + 0.05 + 1e-9 >= wsat(0, t, 0);
	}
	bad |= verdict(f, worst <= 0.04 && within == W_NT,
		       "ch. 4: short, the oblivious Triplex's throughput within 4 points of the oblivious router's (largest difference %.1f points) and its saturation within .05 (%d of %d)",
		       100 * worst, within, W_NT);
	/* Min Triplex matches or exceeds Duato in 2 of 4 (bitrev, transpose) */
	for (t = 0; t < W_NT; t++)
		if (wsat(W_MIN, t, 0) + 1e-9 >= wsat(2, t, 0)) {
			tx_ge++;
			note(list, sizeof(list), rm_traffic_name(wtraffic[t]));
		}
	bad |= verdict(f, tx_ge >= 2,
		       "ch. 4: short, Min Triplex saturates no earlier than Duato for%s (%d of 4; Table 4.4: all four, the thesis's throughput: bitrev and transpose)",
		       tx_ge ? list : " none", tx_ge);
	/* adaptive beats oblivious for every pattern */
	n = 0;
	for (t = 0; t < W_NT; t++)
		for (r = 0; r < W_NL; r++)
			n += wsat(2, t, r) + 1e-9 >= wsat(0, t, r);
	bad |= verdict(f, n == 2 * W_NT,
		       "ch. 4: Duato saturates no earlier than the oblivious router in %d of %d (Table 4.4: all)",
		       n, 2 * W_NT);
	return bad;
}

/*
 * The Triplex's latency at load step @i against Duato's and Min
 * Triplex's (short messages, pattern @t): higher than both.
 */
static bool tx_slower(int t, u32 i, char *buf, size_t n)
{
	double tx = wres[W_TX][t][0].lat[i], du = wres[2][t][0].lat[i];
	double mn = wres[W_MIN][t][0].lat[i];

	snprintf(buf + strlen(buf), n - strlen(buf),
		 " %s at %.2f: %.0f against %.0f, %.0f;",
		 rm_traffic_name(wtraffic[t]), i * 0.05, tx, du, mn);
	return tx > du && tx > mn;
}

/* The chapter's claims on the non-minimal wormhole Triplex (notes 4.3). */
static int wtriplex_conclusions(FILE *f)
{
	int t, l, bad = 0, n = 0, ge = 0, below = 0, sig = 0, slower = 0;
	double gap[W_NL] = { 0, 0 }, d, most = -1;
	char list[512] = "";

	/* "Triplex performs adequately": no worse than the oblivious router */
	for (t = 0; t < W_NT; t++)
		for (l = 0; l < W_NL; l++)
			ge += wsat(W_TX, t, l) + 1e-9 >= wsat(0, t, l);
	bad |= verdict(f, ge == W_NT * W_NL,
		       "ch. 4: the Triplex performs adequately: it saturates no earlier than the oblivious router in %d of %d (Table 4.4: 8 of 8)",
		       ge, W_NT * W_NL);
	/* "but not as well as the minimal Triplex algorithm" */
	for (t = 0; t < W_NT; t++)
		for (l = 0; l < W_NL; l++) {
			d = wres[W_TX][t][l].peak - wres[W_MIN][t][l].peak;
			n += wsat(W_TX, t, l) <= wsat(W_MIN, t, l) + 1e-9;
			below += d < 0;
			most = fmax(most, d);
			sig += d > 0.02;
			gap[l] -= d / wres[W_MIN][t][l].peak / W_NT;
		}
	bad |= verdict(f, n == W_NT * W_NL && 2 * below > W_NT * W_NL,
		       "ch. 4: but not as well as the Minimal Triplex: it saturates no later in %d of %d and peaks lower in %d of %d (Table 4.4: no later in 8, earlier in 2)",
		       n, W_NT * W_NL, below, W_NT * W_NL);
	/* higher latency where derouting was ineffective: random, hot spot */
	for (t = 0; t < W_NT; t++) {
		u32 i = step_of(wsat(W_MIN, t, 0));

		if (wtraffic[t] == RM_RANDOM || wtraffic[t] == RM_HOTSPOT1)
			slower += tx_slower(t, i, list, sizeof(list));
	}
	bad |= verdict(f, slower == 2,
		       "ch. 4: short, random and hot spot 1: the Triplex's latency above both minimal routers' (Duato, Min Triplex) at Min Triplex's saturation load:%s %d of 2",
		       list, slower);
	/* long messages emphasize the ineffectiveness of its deroutes */
	bad |= verdict(f, gap[1] > gap[0],
		       "ch. 4: long messages emphasize the Triplex's ineffectiveness: its peak below Min Triplex's by %.1f %% with the mix against %.1f %% with 40 words (mean over the patterns)",
		       100 * gap[1], 100 * gap[0]);
	/* ch. 7: the non-minimal mode is not significantly better */
	bad |= verdict(f, !sig,
		       "ch. 7: the non-minimal mode does not do significantly better than the minimal mode: the Triplex's peak is more than 2 points above Min Triplex's in %d of %d (at most %+.1f points)",
		       sig, W_NT * W_NL, 100 * most);
	return bad;
}

static const char *pname(int t)
{
	return rm_traffic_name(ptraffic[t]);
}

/*
 * The highest load step run below the first at which row @a or @b
 * saturated (0: none).
 */
static u32 both_below(int a, int b, int t)
{
	u32 i, best = 0, m = pres[a][t].satmask | pres[b][t].satmask;

	for (i = 1; i <= 20 && !(m >> i & 1); i++)
		if (!isnan(pres[a][t].lat[i]) && !isnan(pres[b][t].lat[i]))
			best = i;
	return best;
}

/* Ch. 4's packet claims on the Triplex and its Rule 4t (notes 4.4). */
static int ptriplex_conclusions(FILE *f)
{
	int t, bad = 0, n = 0, eq = 0, hi = 0, sus = 0;
	double best = 0, g;
	char list[640] = "", l2[512] = "", l3[512] = "";

	/* dropping Rule 4t's minimal routes improves Min Triplex */
	for (t = 0; t < P_NT; t++) {
		g = pres[P_NO4T][t].peak - pres[P_MIN][t].peak;
		n += g >= -0.01;
		best = fmax(best, g);
		snprintf(list + strlen(list), sizeof(list) - strlen(list),
			 " %s %.0f/%.0f/%.0f;", pname(t),
			 100 * pres[P_NO4T][t].peak,
			 100 * pres[P_MIN][t].peak, 100 * pres[P_DU][t].peak);
	}
	bad |= verdict(f, n == P_NT && best >= 0.05 &&
		       /* ptraffic[1], [2]: bit reversal, perfect shuffle */
		       pres[P_NO4T][1].peak + 0.01 >= pres[P_DU][1].peak &&
		       pres[P_NO4T][2].peak + 0.01 >= pres[P_DU][2].peak,
		       "ch. 4 packet: omitting Rule 4t's minimal routes improves Min Triplex substantially (no lower in %d of %d, up to %+.0f points) and it then equals or exceeds Duato for bit reversal and perfect shuffle (to 1 point); peaks without/with 4t/Duato:%s",
		       n, P_NT, 100 * best, list);
	/* the Triplex is equivalent to the minimal packet Triplex */
	list[0] = '\0';
	for (t = 0; t < P_NT; t++) {
		g = pres[P_TX][t].peak - pres[P_NO4T][t].peak;
		if (fabs(g) <= 0.02 &&
		    fabs(pres[P_TX][t].sat - pres[P_NO4T][t].sat) < 0.05 + 1e-9)
			eq++;
		else
			note(list, sizeof(list), pname(t));
	}
	bad |= verdict(f, eq == P_NT,
		       "ch. 4 packet: the Triplex (Rules 1, 2, 3) performs equivalent to the minimal packet Triplex (Rules 1, 2): peak within 2 points and saturation within .05 in %d of %d%s%s",
		       eq, P_NT, eq < P_NT ? ", not" : "", list);
	/* but with higher latency than Chaos and without its high loads */
	for (t = 0; t < P_NT; t++) {
		u32 i = both_below(P_TX, P_CH, t);
		double a = pres[P_TX][t].lat[i], b = pres[P_CH][t].lat[i];
		double x = pres[P_TX][t].thr[20], y = pres[P_CH][t].thr[20];

		hi += a > b;
		/* more by a point: the two are level within noise below */
		sus += y > x + 0.01;
		snprintf(l2 + strlen(l2), sizeof(l2) - strlen(l2),
			 " %s at %.2f %.0f/%.0f;", pname(t), i * 0.05, a, b);
		snprintf(l3 + strlen(l3), sizeof(l3) - strlen(l3),
			 " %s %.0f/%.0f;", pname(t), 100 * x, 100 * y);
	}
	bad |= verdict(f, hi == P_NT,
		       "ch. 4 packet: the Triplex's latency is higher than Chaos's (at the highest load neither saturates) in %d of %d, cycles Triplex/Chaos:%s",
		       hi, P_NT, l2);
	bad |= verdict(f, sus == P_NT,
		       "ch. 4 packet: the Triplex lacks Chaos's sustained throughput at high loads: Chaos delivers more (by over a point) at load 1.0 in %d of %d, %% Triplex/Chaos:%s",
		       sus, P_NT, l3);
	return bad;
}

/* How often the Triplex deroutes, at each sweep's peak. */
static void deroute_note(FILE *f)
{
	int t, l;

	fprintf(f, "note: the Triplex's deroutes (non-minimal hops) per delivered message at its peak load: wormhole");
	for (t = 0; t < W_NT; t++)
		for (l = 0; l < W_NL; l++)
			fprintf(f, " %s %s %.3f;",
				rm_traffic_name(wtraffic[t]),
				l ? "mix" : "short", wres[W_TX][t][l].dpm);
	fprintf(f, " packet (p = .00001), in all the loads' measured batches:");
	for (t = 0; t < P_NT; t++)
		fprintf(f, " %s %.0f in %.0f;", pname(t), pres[P_TX][t].nder,
			pres[P_TX][t].ndel);
	fputc('\n', f);
}

static void wdraw(const struct run_opts *o, const char *name)
{
	plot(o, name, "1400,1100",
	     "  rs = 'oblivious obliv-triplex duato min-triplex triplex'\n"
	     "  ps = 'duato min-triplex min-triplex-no4t triplex chaos'\n"
	     "  sel(tr, ln, r) = (strcol(2) eq tr && strcol(3) eq ln && strcol(1) eq r) ? column(6) : NaN\n"
	     "  set multiplot layout 3,4 title 'Fulgham (1997), ch. 4: 16x16 torus, normalized throughput against load (wormhole: 40-word, 40/400 at 10:1; packet: 20 words)'\n"
	     "  set xlabel 'applied load'; set ylabel 'throughput'; set key top left font ',9' noenhanced\n"
	     "  do for [ln in 'short mix packet'] { do for [tr in 'random bitrev transpose hotspot1'] {\n"
	     "    set title tr . ' ' . ln noenhanced\n"
	     "    if (ln eq 'packet') { set xrange [0:1.05]; set yrange [0:1]; ns = ps } else { set xrange [0:0.6]; set yrange [0:0.6]; ns = rs }\n"
	     "    plot for [i=1:5] csv using 4:(sel(tr, ln, word(ns, i))) with linespoints pt i title word(ns, i), x with lines dt 2 lc 'gray' notitle\n"
	     "  } }\n"
	     "  unset multiplot");
}

EXPERIMENT(exp_seed002_ch4)
{
	FILE *csv, *f;
	int r, t, l, bad = 0;

	csv = out_file(o, e->name, "csv", "w");
	fputs("router,traffic,length,load,offered,throughput,throughput_ci,latency,latency_ci,hops,mean_length,saturated,deroutes\n",
	      csv);
	for (r = 0; r < W_NR; r++)
		for (t = 0; t < W_NT; t++)
			for (l = 0; l < W_NL; l++)
				if (wsweep(csv, o, r, t, l, &wres[r][t][l])) {
					fclose(csv);
					return -1;
				}
	for (r = 0; r < P_NR; r++)
		for (t = 0; t < P_NT; t++)
			if (psweep(csv, o, r, t, &pres[r][t])) {
				fclose(csv);
				return -1;
			}
	fclose(csv);
	f = out_file(o, e->name, "txt", "w");
	fprintf(f, "# %s: wormhole routers, 16x16 torus, 1-word buffers, simplex channels, output-driven; short = 40 words, mix = 40 and 400 at 10:1; loads .05 by %s until two past saturation (%s)\n",
		e->name, o->scale > 1 ? ".10" : ".05",
		o->scale > 1 ? "--quick: 100 + 2 x 200 cycles a load, up to .60" :
			       "2000 + 10 x 1000 cycles a load, the mix 3000 + 10 x 1500");
	fprintf(f, "# then packet routers (ch. 4's packet claims), 16x16 torus, 20-word packets, output-driven; the Triplex and Chaos at loads to 1.0, the others until three past saturation and the last rise (%s)\n",
		o->scale > 1 ? "--quick: 100 + 2 x 100 cycles a load" :
			       "2000 + 10 x 500 cycles a load");
	fprintf(f, "# saturation: the smallest load whose shortfall (offered - delivered) is over its 95 %% interval and 1 %% (as seed002)\n");
	bad |= wtable(f);
	bad |= wconclusions(f);
	bad |= wtriplex_conclusions(f);
	bad |= ptriplex_conclusions(f);
	deroute_note(f);
	fclose(f);
	wdraw(o, e->name);
	return bad;
}
