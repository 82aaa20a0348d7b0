// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The multiple-multicast study of Libeskind-Hadas et al. (1998): "multiple
 * multicast latency increases approximately linearly with average arrival
 * rate" (its Conclusion; no figure, rates or numbers in the text).
 *
 * The network and the multicasts are seed001's: the same random lattices
 * (64 and 256 switches, one host each), the same parameters, schedules
 * and closest-ID routes from the planning core.  Concurrent multicasts
 * share hosts and channels in swnet.c's wormhole model, which alone in
 * the network gives seed001's closed form: checked here to the ns on
 * random single multicasts.
 *
 * Gaps resolved here (notes 5.3):
 *   - arrivals: one Poisson process for the whole network at rate lambda
 *     (multicasts per ms), each multicast from a uniform random host to
 *     d = 16 distinct uniform random other hosts;
 *   - latency: from the multicast's arrival at its source (its wait for
 *     a busy source included) to the consumption of its last unicast;
 *   - statistics: a warm-up of WARMUP expected arrivals, then BATCHES
 *     time windows of BATCH expected arrivals each; a window's latency
 *     is the mean over the multicasts that ended in it, and the interval
 *     is Student's over the windows' means;
 *   - saturation: the model overflows (MAX_ACTIVE multicasts in it), or
 *     the windows' shortfall (arrivals - ends) has a 95 % interval above
 *     0 and is over 1 % of the arrivals (router_model.c's test), or their
 *     latency rises: its slope over the windows has a 95 % interval above
 *     0 and adds over 10 % across them;
 *   - rates: the saturation rate first, by bisection below the hosts'
 *     startup bound N / (d t_startup) (every unicast costs its sender a
 *     t_startup), to 1/64 of it; then 5 % to 95 % of that rate by 5 %,
 *     the sweep stopping at a saturated one;
 *   - "approximately linearly": the least-squares line of latency on
 *     lambda through every rate of the sweep below saturation has R^2 >=
 *     0.95 (a threshold set before the runs).  The longest run of rates
 *     from the lightest with R^2 >= 0.99 is a note.
 * --quick: every other rate, a quarter of the arrivals.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "experiments.h"
#include "seed001.h"
#include "swnet.h"

#define D		16
#define WARMUP		2000
#define BATCH		2000
#define BATCHES		10
#define MAX_ACTIVE	4000
#define ZERO_TRIALS	500
#define R2_MIN		0.95
#define NRATES		19
#define SAT_PROBES	6

static const struct swn_timing timing = { T_STARTUP, T_ROUTER, T_CHANNEL,
					  FLITS };

/* Each multicast's end, counted in the window it falls in. */
struct windows {
	u64 t0, width;		/* ns */
	u32 n;
	double lat[BATCHES];	/* summed, us */
	double ends[BATCHES], arrivals[BATCHES];
	u64 last;		/* swn_done's end, for the zero-load check */
};

static void on_done(void *arg, u64 tag, u64 start, u64 end)
{
	struct windows *w = arg;
	u64 b;

	(void)tag;
	w->last = end - start;
	if (end < w->t0 || (b = (end - w->t0) / w->width) >= w->n)
		return;
	w->lat[b] += (end - start) / 1000.0;
	w->ends[b]++;
}

/* A multicast from a random host to @d others, planned into @s. */
static int plan_random(const struct mc_sw_graph *g, u64 *seed, u32 d,
		       u32 *perm, u32 *set, struct mc_sw_schedule *s)
{
	const char *why = NULL;
	u32 i;

	sim_pick(seed, g->nhosts, d + 1, perm, set);
	for (i = 0; i <= d; i++)
		set[i] = mc_sw_host_vertex(g, set[i]);
	if (mc_sw_plan(s, g, MC_SW_ROUTE_CLOSEST, set[0], set + 1, d, &why)) {
		fprintf(stderr, "mcastsim: run: plan: %s\n", why);
		return -1;
	}
	return 0;
}

/* Scratch for planning and timing multicasts of up to m members. */
struct scratch {
	struct mc_sw_schedule s;
	u32 *perm, *set, *sent;
	u64 *recv;
};

static void scratch_init(struct scratch *x, const struct mc_sw_graph *g,
			 u32 m)
{
	sched_alloc(&x->s, g, m);
	x->perm = sim_calloc(g->nhosts, sizeof(u32));
	x->set = sim_calloc(m, sizeof(u32));
	x->sent = sim_calloc(m, sizeof(u32));
	x->recv = sim_calloc(m, sizeof(u64));
}

static void scratch_free(struct scratch *x)
{
	sched_free(&x->s);
	free(x->perm);
	free(x->set);
	free(x->sent);
	free(x->recv);
}

/*
 * Single multicasts of random size, one after the other in one model:
 * the ones whose latency is not the closed form, and the waits.
 */
static int zero_load(const struct lattice *l, u32 *bad, u64 *waits)
{
	const struct mc_sw_graph *g = &l->g;
	struct windows w = { .width = 1 };
	struct scratch x;
	struct swn *n;
	u64 seed = 4242 + g->nhosts;
	u32 k, d;
	int rc = 0;

	scratch_init(&x, g, g->nhosts);
	n = swn_new(g, &timing, g->nhosts, 1, on_done, &w);
	for (k = 0; k < ZERO_TRIALS && n && !rc; k++) {
		d = 1 + (u32)(sim_rnd(&seed) % (g->nhosts - 1));
		rc = plan_random(g, &seed, d, x.perm, x.set, &x.s);
		if (rc || swn_add(n, swn_now(n), &x.s, k))
			break;
		swn_drain(n);
		*bad += w.last != schedule_time(&x.s, x.recv, x.sent);
	}
	if (n)
		*waits += swn_waits(n);
	rc = rc || !n || k < ZERO_TRIALS ? -1 : 0;
	swn_free(n);
	scratch_free(&x);
	return rc;
}

struct point {
	double rate;		/* per ms */
	double lat, ci, single, waits;
	u32 active;
	bool saturated;
};

/* A least-squares line y = slope x + icpt. */
struct line {
	double slope, icpt, r2;
	double slope_ci;	/* the half-width of its 95 % interval */
};

static void fit(const double *x, const double *y, u32 n, struct line *l)
{
	double mx = 0, my = 0, sxx = 0, sxy = 0, ss = 0, sr = 0, r;
	u32 i;

	for (i = 0; i < n; i++) {
		mx += x[i] / n;
		my += y[i] / n;
	}
	for (i = 0; i < n; i++) {
		sxx += (x[i] - mx) * (x[i] - mx);
		sxy += (x[i] - mx) * (y[i] - my);
		ss += (y[i] - my) * (y[i] - my);
	}
	l->slope = sxx > 0 ? sxy / sxx : 0;
	l->icpt = my - l->slope * mx;
	for (i = 0; i < n; i++) {
		r = y[i] - l->slope * x[i] - l->icpt;
		sr += r * r;
	}
	l->r2 = ss > 0 ? 1 - sr / ss : 1;
	l->slope_ci = n > 2 && sxx > 0 ?
		      sim_t975(n - 2) * sqrt(sr / (n - 2) / sxx) : 0;
}

/* The next exponential gap at @per_ns arrivals a ns. */
static u64 next_gap(u64 *seed, double per_ns)
{
	double u = ((sim_rnd(seed) >> 11) + 1) / 9007199254740992.0;

	return (u64)llround(-log(u) / per_ns);
}

/*
 * Saturated: the windows' shortfall (arrivals - ends) significantly
 * positive and over 1 % of the arrivals, or their latency significantly
 * rising, by over 10 % across the run.
 */
static bool saturated(const struct windows *w, const double *mean)
{
	double gap[BATCHES], idx[BATCHES], arr = 0, avg, half;
	struct line l;
	u32 b;

	for (b = 0; b < w->n; b++) {
		gap[b] = w->arrivals[b] - w->ends[b];
		arr += w->arrivals[b] / w->n;
		idx[b] = b;
	}
	avg = sim_mean_ci(gap, w->n, 1, &half);
	if (avg - half > 0 && avg > 0.01 * arr)
		return true;
	fit(idx, mean, w->n, &l);
	avg = sim_mean_ci(mean, w->n, 1, &half);
	return l.slope - l.slope_ci > 0 && l.slope * w->n > 0.1 * avg;
}

/* One rate (@p->rate): Poisson arrivals, the windows' means. */
static int point_of(const struct lattice *l, const struct run_opts *o,
		    u32 d, struct point *p)
{
	const struct mc_sw_graph *g = &l->g;
	u32 quick = o->scale > 1 ? 4 : 1, b, k;
	double per_ns = p->rate / 1e6, mean[BATCHES], single = 0, nsingle = 0;
	struct windows w = { .n = BATCHES };
	u64 seed = 7919u * g->nhosts + (u64)llround(p->rate * 10), t = 0;
	u64 end, unicasts = 0;
	struct scratch x;
	struct swn *n;
	int rc = 0;

	w.t0 = (u64)(WARMUP / quick / per_ns);
	w.width = (u64)(BATCH / quick / per_ns);
	end = w.t0 + w.n * w.width;
	scratch_init(&x, g, d + 1);
	n = swn_new(g, &timing, d + 1, MAX_ACTIVE, on_done, &w);
	for (k = 0; n && (t += next_gap(&seed, per_ns)) < end; k++) {
		rc = plan_random(g, &seed, d, x.perm, x.set, &x.s);
		if (rc)
			break;
		if (t >= w.t0) {
			w.arrivals[(t - w.t0) / w.width]++;
			single += schedule_time(&x.s, x.recv, x.sent) / 1000.0;
			nsingle++;
		}
		unicasts += x.s.nsend;
		if (swn_add(n, t, &x.s, k)) {
			p->saturated = true;	/* MAX_ACTIVE in the network */
			break;
		}
	}
	if (n && !rc) {
		swn_run(n, end);
		for (b = 0; b < w.n; b++)
			mean[b] = w.ends[b] ? w.lat[b] / w.ends[b] : 0;
		p->lat = sim_mean_ci(mean, w.n, 1, &p->ci);
		p->single = nsingle ? single / nsingle : 0;
		p->waits = (double)swn_waits(n) / unicasts;
		p->active = swn_active(n);
		p->saturated |= saturated(&w, mean);
	}
	rc = rc || !n ? -1 : 0;
	swn_free(n);
	scratch_free(&x);
	return rc;
}

struct sweep {
	u32 switches, d;
	double bound;		/* the hosts' startup bound, per ms */
	double sat;		/* the saturation rate found, per ms */
	struct point p[NRATES];
	u32 n, ok;		/* points run; below saturation (a prefix) */
	struct line line;
	u32 lin99;		/* the longest prefix with R^2 >= 0.99 */
};

/*
 * The lowest saturated rate, to 1/64 of the hosts' bound: bisection
 * (saturation grows with the rate, one run a probe).
 */
static int sat_rate(const struct lattice *l, const struct run_opts *o,
		    struct sweep *s)
{
	double lo = 0, hi = s->bound;
	struct point p;
	u32 i;

	for (i = 0; i < SAT_PROBES; i++) {
		p = (struct point){ .rate = (lo + hi) / 2 };
		if (point_of(l, o, s->d, &p))
			return -1;
		*(p.saturated ? &hi : &lo) = p.rate;
	}
	s->sat = hi;
	return 0;
}

/* The rates from light load towards the saturation rate, until it. */
static int sweep_of(FILE *csv, const struct lattice *l,
		    const struct run_opts *o, struct sweep *s)
{
	u32 step = o->scale > 1 ? 2 : 1, i;
	double x[NRATES], y[NRATES];

	s->bound = s->switches / (s->d * T_STARTUP / 1e6);
	if (sat_rate(l, o, s))
		return -1;
	for (i = step; i <= NRATES; i += step) {
		struct point *p = &s->p[s->n];

		p->rate = s->sat * i / (NRATES + 1);
		if (point_of(l, o, s->d, p))
			return -1;
		fprintf(csv, "%u,%u,%.2f,%.3f,%.2f,%.3f,%.3f,%.3f,%.4f,%u,%d\n",
			s->switches, s->d, p->rate, p->rate / s->bound,
			(double)i / (NRATES + 1), p->lat, p->ci, p->single,
			p->waits, p->active, p->saturated);
		x[s->n] = p->rate;
		y[s->n] = p->lat;
		s->n++;
		if (p->saturated)
			break;
		s->ok++;
	}
	fit(x, y, s->ok, &s->line);
	for (i = 2; i <= s->ok; i++) {
		struct line pre;

		fit(x, y, i, &pre);
		if (pre.r2 >= 0.99)
			s->lin99 = i;
	}
	return 0;
}

/* Whether every point below saturation is above the one before. */
static bool rising(const struct sweep *s)
{
	u32 i;

	for (i = 1; i < s->ok; i++)
		if (s->p[i].lat <= s->p[i - 1].lat)
			return false;
	return true;
}

static void report(FILE *f, const struct sweep *s)
{
	u32 i;

	fprintf(f, "note: %u switches, d = %u: saturated from %.1f multicasts/ms (bisection; the hosts' startup bound is %.1f/ms); sweep: rate/ms, latency us +- 95 %%, one multicast alone us, waits a unicast\n",
		s->switches, s->d, s->sat, s->bound);
	for (i = 0; i < s->n; i++)
		fprintf(f, "#   %7.2f  %9.3f +- %7.3f  %7.3f  %.3f%s\n",
			s->p[i].rate, s->p[i].lat, s->p[i].ci, s->p[i].single,
			s->p[i].waits, s->p[i].saturated ? "  saturated" : "");
}

static int verdicts(FILE *f, const struct sweep *s)
{
	const struct point *p = s->p;
	u32 k = s->ok ? s->ok - 1 : 0, h = s->lin99 ? s->lin99 - 1 : 0;
	int bad = 0;

	bad |= verdict(f, s->ok > 2 && rising(s),
		       "%u switches, d = %u: latency rises with the arrival rate at every step below saturation (%.1f to %.1f us for %.1f to %.1f multicasts/ms; %.2f us alone)",
		       s->switches, s->d, p[0].lat, p[k].lat, p[0].rate,
		       p[k].rate, p[0].single);
	bad |= verdict(f, s->ok > 2 && s->line.r2 >= R2_MIN,
		       "%u switches, d = %u: \"latency increases approximately linearly with average arrival rate\": least squares over the %u rates below saturation (%.1f to %.1f/ms): %.4f us per multicast/ms + %.2f us, R^2 %.3f (%.2f asked)",
		       s->switches, s->d, s->ok, p[0].rate, p[k].rate,
		       s->line.slope, s->line.icpt, s->line.r2, R2_MIN);
	fprintf(f, "note: %u switches, d = %u: R^2 >= 0.99 from the lightest rate up to %.1f/ms (%.0f %% of saturation)\n",
		s->switches, s->d, p[h].rate, 100 * p[h].rate / s->sat);
	return bad;
}

EXPERIMENT(exp_seed001_multi)
{
	static const u32 sizes[] = { 64, 256 };
	struct sweep *s = sim_calloc(2, sizeof(*s));
	FILE *csv = out_file(o, e->name, "csv", "w"), *f;
	u32 zbad = 0, i;
	u64 zwaits = 0;
	int bad = 0, rc = 0;
	char body[2048];

	fputs("switches,d,rate_per_ms,host_load,of_saturation,latency_us,latency_ci_us,single_us,waits_per_unicast,in_network,saturated\n",
	      csv);
	for (i = 0; i < 2 && !rc; i++) {
		struct lattice l;

		s[i].switches = sizes[i];
		s[i].d = D;
		rc = lattice_build(&l, sizes[i], 1000 + sizes[i]);
		if (rc)
			break;
		rc = zero_load(&l, &zbad, &zwaits);
		rc = rc ? rc : sweep_of(csv, &l, o, &s[i]);
		free(l.mem);
	}
	fclose(csv);
	if (rc) {
		free(s);
		return -1;
	}
	f = out_file(o, e->name, "txt", "w");
	fprintf(f, "# %s: Poisson multicasts to d = %u random hosts, 64 and 256 switches, %u + %u x %u arrivals a rate%s\n",
		e->name, D, WARMUP, BATCHES, BATCH,
		o->scale > 1 ? " / 4 (--quick)" : "");
	bad |= verdict(f, !zbad && !zwaits,
		       "alone in the network the wormhole model gives seed001's closed form to the ns: %u random single multicasts (d = 1 to N - 1) on each graph, %u differ, %llu headers waited",
		       ZERO_TRIALS, zbad, (unsigned long long)zwaits);
	for (i = 0; i < 2; i++)
		report(f, &s[i]);
	for (i = 0; i < 2; i++)
		bad |= verdicts(f, &s[i]);
	fclose(f);
	snprintf(body, sizeof(body),
		 "  set multiplot layout 1,2 title 'Libeskind-Hadas et al. (1998): Poisson multicasts to %u random hosts, latency against arrival rate'\n"
		 "  set xlabel 'arrival rate (multicasts/ms)'; set ylabel 'latency (us)'; set key top left noenhanced\n"
		 "  set yrange [0:*]\n"
		 "  do for [i = 1:2] {\n"
		 "    sw = word('%u %u', i); sat = word('%.2f %.2f', i) + 0\n"
		 "    a = word('%.6f %.6f', i) + 0; b = word('%.6f %.6f', i) + 0\n"
		 "    set title sw.' switches'; set xrange [0:sat * 1.05]\n"
		 "    set arrow 1 from sat, graph 0 to sat, graph 1 nohead lc 'red' dt 3\n"
		 "    plot csv using ((strcol(1) eq sw && $11 == 0) ? $3 : NaN):6:7 with yerrorlines title 'below saturation (95 %% CI)', \\\n"
		 "      csv using ((strcol(1) eq sw) ? $3 : NaN):8 with lines lc 'black' dt 2 title 'one multicast alone', \\\n"
		 "      (x <= sat ? a * x + b : NaN) with lines lc 'gray' title 'least squares below saturation', \\\n"
		 "      NaN with lines lc 'red' dt 3 title 'saturation'\n"
		 "  }\n  unset multiplot",
		 D, s[0].switches, s[1].switches, s[0].sat, s[1].sat,
		 s[0].line.slope, s[1].line.slope, s[0].line.icpt,
		 s[1].line.icpt);
	plot(o, e->name, "1100,480", body);
	free(s);
	return bad;
}
