// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * mcastsim steps: U-torus step counts with physical link sharing (Robinson
 * (1994), Sec. 4.5, Figs 4.12-4.17).
 *
 * For every multicast set size m (nodes including the source), random sets
 * of m distinct nodes (the first is the source) are planned by U-torus
 * (mc_plan) and, per trial, the mean over destinations and the maximum of
 * a destination's receive time are taken in four ways, then averaged over
 * the trials:
 *
 *   ideal     the step in which the schedule has it receive (mc_dest.step):
 *             the one-port lower bound, with no link sharing.  It depends
 *             on m only.
 *   shared    the dissertation's assumption: "whenever two unicast messages
 *             in the same step use virtual channels that are multiplexed
 *             onto the same physical link, these two unicasts each require
 *             time equivalent to two message-passing steps".  Every unicast
 *             is routed hop by hop (mc_route_next: UTR on a unidirectional
 *             torus, BTR on a bidirectional one).  A physical link is
 *             (from-node, dim) on a unidirectional torus, where both VCs of
 *             a neighbour pair share the one link, and (from-node, dim, dir)
 *             on a bidirectional one, where the VCs going the same way
 *             share a link.  A unicast that shares a physical link with
 *             another unicast of the same ideal step lasts 2, any other 1.
 *             The tree is then re-timed one-port: the source is ready at 0;
 *             a node ready at T makes its sends in the schedule's order
 *             (its j-th send is in step recv+j+1 of the ideal schedule),
 *             each one starting when the one before it finished, the first
 *             at T; the receiver gets the message at start + duration and is
 *             ready then.  Sharing is judged once, on the ideal steps, and
 *             not again on the re-timed schedule: this is the one-pass
 *             interpretation of Robinson (1994), Sec. 4.5; the
 *             text gives no algorithm.
 *   shared3   bidirectional tori only (0 on unidirectional ones): the same
 *             with all the VCs between a neighbour pair on one
 *             bidirectional link, whichever way they go (3-way
 *             multiplexing).  The link is keyed by the node it leaves in the
 *             +1 direction and the dimension.
 *   separate  separate addressing (Fig 4.16): the source unicasts to every
 *             destination in turn, planned by mc_plan's MC_ALGO_SEPARATE:
 *             the j-th destination receives in step j, mean m/2, max m-1.
 *
 * And the counts per multicast of Fig 4.17 (bidirectional tori; 0 on
 * unidirectional ones for Type 2): Type 1, the unicasts that share a
 * physical link (the key of "shared") with another unicast of the same
 * ideal step; Type 2, those that share one with two others when all VCs
 * are multiplexed (the key of "shared3" used by three or more unicasts).
 *
 * As a check of the planning core, no two unicasts of a step may use the
 * same virtual channel (Theorem 4.1), and the re-timing with every unicast
 * lasting 1 must give back the schedule's steps; either failing stops the
 * study.  Trials are shared out among threads, each trial's figures in
 * its own slot: the output does not depend on the number of threads.
 */
#include <getopt.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parse.h"
#include "simutil.h"

struct opts {
	struct mc_torus t;
	u32 members[SIM_MAX_LIST], nmembers;
	u32 trials;
	u32 jobs;
	u64 seed;
	bool csv;
};

static void usage(FILE *f)
{
	fputs("usage: mcastsim steps [options]\n"
	      "  -t, --topology torus:KxK[xK][:uni|:bi]  torus (default torus:32x32)\n"
	      "  -m, --members LIST            multicast set sizes m, the source included (default 8,16,32,64)\n"
	      "  -n, --trials N                random sets per m (default 400)\n"
	      "      --seed S                  random seed (default 1)\n"
	      "      --csv                     a header and one CSV line per m\n"
	      "  -j, --jobs N                  threads (default: the CPUs online)\n",
	      f);
}

static void parse_args(int argc, char **argv, struct opts *o)
{
	static const struct option lo[] = {
		{ "topology", required_argument, NULL, 't' },
		{ "members", required_argument, NULL, 'm' },
		{ "trials", required_argument, NULL, 'n' },
		{ "seed", required_argument, NULL, 1 },
		{ "csv", no_argument, NULL, 2 },
		{ "jobs", required_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	char err[PARSE_ERR_MAX];
	int c;

	if (parse_topology("torus:32x32", &o->t, err))
		sim_die("%s", err);
	o->nmembers = sim_parse_list("8,16,32,64", o->members, MC_MAX_NODES,
				     "--members");
	o->trials = 400;
	o->seed = 1;
	o->jobs = sim_default_jobs();
	while ((c = getopt_long(argc, argv, "t:m:n:j:h", lo, NULL)) != -1) {
		switch (c) {
		case 't':
			if (parse_topology(optarg, &o->t, err))
				sim_die("--topology: %s", err);
			break;
		case 'm':
			o->nmembers = sim_parse_list(optarg, o->members,
						     MC_MAX_NODES, "--members");
			break;
		case 'n':
			o->trials = sim_num(optarg, "--trials");
			break;
		case 1:
			o->seed = sim_num(optarg, "--seed");
			break;
		case 2:
			o->csv = true;
			break;
		case 'j':
			o->jobs = sim_num(optarg, "--jobs");
			if (!o->jobs || o->jobs > 64)
				sim_die("%s: 1 to 64 threads", "--jobs");
			break;
		case 'h':
			usage(stdout);
			exit(0);
		default:
			usage(stderr);
			exit(2);
		}
	}
	if (optind != argc) {
		usage(stderr);
		exit(2);
	}
	if (!o->trials)
		sim_die("%s: at least one trial", "--trials");
}

/* The set sizes against the torus, before any output. */
static void check_members(const struct opts *o)
{
	u32 i;

	for (i = 0; i < o->nmembers; i++) {
		if (o->members[i] < 2)
			sim_die("%s: m counts the source: at least 2", "--members");
		if (o->members[i] > o->t.nodes) {
			fprintf(stderr, "mcastsim: --members: m = %u is more than the torus' %u nodes\n",
				o->members[i], o->t.nodes);
			exit(2);
		}
	}
}

/* One trial's figures: steps, mean over destinations and maximum. */
struct result {
	double ideal_avg, ideal_max;
	double shared_avg, shared_max;
	double shared3_avg, shared3_max;
	double sep_avg, sep_max;
	u32 type1, type2;
};

/* Unicasts on a link (or channel) in the current step: cnt if stamp is. */
struct use {
	u32 stamp;
	u32 cnt;
};

/*
 * A thread's share of a point's trials (every step-th from first), with
 * its own schedules and link tables.
 */
struct worker {
	const struct opts *o;
	struct mc_schedule s, sep;
	const u32 *sets;	/* trials x m: source, destinations */
	u32 m, first, step;
	struct result *res;
	struct use *link;	/* (node, dim, dir): "shared" */
	struct use *link3;	/* (node, dim), node the +1 end: "shared3" */
	struct use *chan;	/* (node, dim, dir, vc): Theorem 4.1 */
	u32 stamp;
	u32 *by_step;		/* message indices sorted by step */
	u32 *step_at;		/* steps + 2: step starts in by_step */
	u8 *dur, *dur3, *ones;	/* per message */
	u32 *ready;		/* per order position */
	const char *err;
	pthread_t th;
};

static void worker_alloc(struct worker *w, const struct opts *o)
{
	size_t links = (size_t)o->t.nodes * o->t.n;

	memset(w, 0, sizeof(*w));
	w->o = o;
	w->s.order = sim_calloc(o->t.nodes, sizeof(u32));
	w->s.msg = sim_calloc(o->t.nodes, sizeof(struct mc_msg));
	w->s.dest = sim_calloc(o->t.nodes, sizeof(struct mc_dest));
	w->sep.order = sim_calloc(o->t.nodes, sizeof(u32));
	w->sep.msg = sim_calloc(o->t.nodes, sizeof(struct mc_msg));
	w->sep.dest = sim_calloc(o->t.nodes, sizeof(struct mc_dest));
	w->link = sim_calloc(links * 2, sizeof(struct use));
	w->link3 = sim_calloc(links, sizeof(struct use));
	w->chan = sim_calloc(links * 2 * 3, sizeof(struct use));
	w->by_step = sim_calloc(o->t.nodes, sizeof(u32));
	w->step_at = sim_calloc(o->t.nodes + 2, sizeof(u32));
	w->dur = sim_calloc(o->t.nodes, 1);
	w->dur3 = sim_calloc(o->t.nodes, 1);
	w->ones = sim_calloc(o->t.nodes, 1);
	memset(w->ones, 1, o->t.nodes);
	w->ready = sim_calloc(o->t.nodes, sizeof(u32));
}

static void worker_free(struct worker *w)
{
	free(w->s.order);
	free(w->s.msg);
	free(w->s.dest);
	free(w->sep.order);
	free(w->sep.msg);
	free(w->sep.dest);
	free(w->link);
	free(w->link3);
	free(w->chan);
	free(w->by_step);
	free(w->step_at);
	free(w->dur);
	free(w->dur3);
	free(w->ones);
	free(w->ready);
}

/* Count one more unicast on @u in the current step; the count after. */
static u32 use_add(struct use *u, u32 stamp)
{
	if (u->stamp != stamp) {
		u->stamp = stamp;
		u->cnt = 0;
	}
	return ++u->cnt;
}

static u32 use_get(const struct use *u, u32 stamp)
{
	return u->stamp == stamp ? u->cnt : 0;
}

/* Table indices of a hop's physical links and virtual channel. */
static size_t link_key(const struct mc_torus *t, const struct mc_hop *h)
{
	return ((size_t)h->from * t->n + h->dim) * 2 + (h->dir > 0);
}

static size_t link3_key(const struct mc_torus *t, const struct mc_hop *h)
{
	return (size_t)(h->dir > 0 ? h->from : h->to) * t->n + h->dim;
}

/* Message @k's sender and receiver, as nodes. */
static void msg_ends(const struct mc_schedule *s, u32 k, u32 *from, u32 *to)
{
	*from = s->order[s->msg[k].from];
	*to = s->order[s->dest[s->msg[k].first].pos];
}

/* Pass 1 for message @k: put its hops in the tables; -1 on a VC used twice. */
static int msg_count(struct worker *w, u32 k)
{
	const struct mc_torus *t = &w->o->t;
	struct mc_hop h;
	u32 cur, dst;
	u8 alpha = MC_VC_P;
	int rc = 0;

	msg_ends(&w->s, k, &cur, &dst);
	while (mc_route_next(t, w->s.routing, cur, dst, &alpha, &h)) {
		if (use_add(&w->chan[link_key(t, &h) * 3 + h.vc], w->stamp) > 1)
			rc = -1;
		use_add(&w->link[link_key(t, &h)], w->stamp);
		use_add(&w->link3[link3_key(t, &h)], w->stamp);
		cur = h.to;
	}
	return rc;
}

/* Pass 2 for message @k: its durations and Type 1/2, from the tables. */
static void msg_judge(struct worker *w, u32 k, struct result *r)
{
	const struct mc_torus *t = &w->o->t;
	struct mc_hop h;
	u32 cur, dst, most = 0, most3 = 0;
	u8 alpha = MC_VC_P;

	msg_ends(&w->s, k, &cur, &dst);
	while (mc_route_next(t, w->s.routing, cur, dst, &alpha, &h)) {
		u32 c = use_get(&w->link[link_key(t, &h)], w->stamp);
		u32 c3 = use_get(&w->link3[link3_key(t, &h)], w->stamp);

		most = c > most ? c : most;
		most3 = c3 > most3 ? c3 : most3;
		cur = h.to;
	}
	w->dur[k] = most >= 2 ? 2 : 1;
	w->dur3[k] = most3 >= 2 ? 2 : 1;
	r->type1 += most >= 2;
	r->type2 += most3 >= 3;
}

/* Messages sorted by step into by_step, step_at[s] the first of step s. */
static void sort_by_step(struct worker *w)
{
	const struct mc_schedule *s = &w->s;
	u32 k, st;

	memset(w->step_at, 0, (s->steps + 2) * sizeof(u32));
	for (k = 0; k < s->nmsg; k++)
		w->step_at[s->msg[k].step + 1]++;
	for (st = 1; st <= s->steps + 1; st++)
		w->step_at[st] += w->step_at[st - 1];
	for (k = 0; k < s->nmsg; k++)
		w->by_step[w->step_at[s->msg[k].step]++] = k;
	/* step_at[s] now ends step s: shift back to starts */
	for (st = s->steps + 1; st > 0; st--)
		w->step_at[st] = w->step_at[st - 1];
	w->step_at[0] = 0;
}

/* Durations of every message and the Type 1/2 counts; -1 on a VC conflict. */
static int judge_links(struct worker *w, struct result *r)
{
	u32 st, i;

	sort_by_step(w);
	for (st = 1; st <= w->s.steps; st++) {
		w->stamp++;
		for (i = w->step_at[st]; i < w->step_at[st + 1]; i++)
			if (msg_count(w, w->by_step[i]))
				return -1;
		for (i = w->step_at[st]; i < w->step_at[st + 1]; i++)
			msg_judge(w, w->by_step[i], r);
	}
	return 0;
}

/*
 * One-port re-timing with message durations @dur: mean and maximum of the
 * receive times.  Messages are in sender order (mc_plan appends a holder's
 * sends, in order, after the message that reached it).  @check: every
 * receive time must equal the schedule's step (durations all 1).
 */
static int retime(struct worker *w, const u8 *dur, bool check, double *avg,
		  double *max)
{
	const struct mc_schedule *s = &w->s;
	u64 sum = 0;
	u32 k, top = 0;

	w->ready[0] = 0;
	for (k = 0; k < s->nmsg; k++) {
		const struct mc_dest *d = &s->dest[s->msg[k].first];
		u32 t = w->ready[s->msg[k].from] + dur[k];

		if (check && t != d->step)
			return -1;
		w->ready[s->msg[k].from] = t;
		w->ready[d->pos] = t;
		sum += t;
		top = t > top ? t : top;
	}
	*avg = (double)sum / s->ndest;
	*max = top;
	return 0;
}

/* Mean and maximum of the schedule's receive steps. */
static void sched_steps(const struct mc_schedule *s, double *avg, double *max)
{
	u64 sum = 0;
	u32 i, top = 0;

	for (i = 0; i < s->ndest; i++) {
		sum += s->dest[i].step;
		top = s->dest[i].step > top ? s->dest[i].step : top;
	}
	*avg = (double)sum / s->ndest;
	*max = top;
}

/* One random set: every figure of struct result. */
static int trial(struct worker *w, const u32 *set, struct result *r)
{
	const struct mc_torus *t = &w->o->t;
	double a, b;

	memset(r, 0, sizeof(*r));
	if (mc_plan(&w->s, t, MC_ALGO_UTORUS, 0, set[0], set + 1, w->m - 1,
		    &w->err) ||
	    mc_plan(&w->sep, t, MC_ALGO_SEPARATE, 0, set[0], set + 1,
		    w->m - 1, &w->err))
		return -1;
	if (w->s.nmsg != w->s.ndest) {
		w->err = "u-torus sent a message with more than one destination";
		return -1;
	}
	sched_steps(&w->s, &r->ideal_avg, &r->ideal_max);
	sched_steps(&w->sep, &r->sep_avg, &r->sep_max);
	if (retime(w, w->ones, true, &a, &b)) {
		w->err = "re-timing with unit durations disagrees with the schedule";
		return -1;
	}
	if (judge_links(w, r)) {
		w->err = "two unicasts of one step on one virtual channel (Theorem 4.1)";
		return -1;
	}
	retime(w, w->dur, false, &r->shared_avg, &r->shared_max);
	if (t->links == MC_LINKS_BI)
		retime(w, w->dur3, false, &r->shared3_avg, &r->shared3_max);
	else
		r->type2 = 0;
	return 0;
}

static void *worker_run(void *arg)
{
	struct worker *w = arg;
	u32 k;

	for (k = w->first; k < w->o->trials && !w->err; k += w->step)
		trial(w, w->sets + (size_t)k * w->m, &w->res[k]);
	return NULL;
}

/* "torus:64x64", highest dimension first as parse_topology reads it. */
static const char *topo_name(const struct mc_torus *t, char *buf, size_t n)
{
	size_t at = snprintf(buf, n, "torus:");
	int d;

	for (d = t->n - 1; d >= 0 && at < n; d--)
		at += snprintf(buf + at, n - at, "%u%s", t->k[d], d ? "x" : "");
	return buf;
}

static void print_header(const struct opts *o)
{
	bool bi = o->t.links == MC_LINKS_BI;
	char name[96];

	if (o->csv) {
		printf("topology,nodes,links,m,trials,ideal_avg,ideal_max,shared_avg,shared_max,shared3_avg,shared3_max,separate_avg,separate_max,type1,type2\n");
		return;
	}
	printf("# U-torus on %s, %s, %u nodes; %u random sets per m\n"
	       "# steps: mean over destinations / maximum, averaged over the sets\n"
	       "# shared: a unicast sharing a physical link in its step takes 2 steps\n"
	       "%s"
	       "%6s %16s %16s %16s %18s %9s %9s\n",
	       topo_name(&o->t, name, sizeof(name)),
	       bi ? "bidirectional" : "unidirectional", o->t.nodes, o->trials,
	       bi ? "# shared3: all VCs of a neighbour pair on one link\n" : "",
	       "m", "ideal", "shared", "shared3", "separate", "type1", "type2");
}

static void print_point(const struct opts *o, u32 m, const struct result *res)
{
	struct result a = { 0 };
	double t1 = 0, t2 = 0, n = o->trials;
	char name[96], s3[32];
	u32 k;

	for (k = 0; k < o->trials; k++) {
		a.ideal_avg += res[k].ideal_avg;
		a.ideal_max += res[k].ideal_max;
		a.shared_avg += res[k].shared_avg;
		a.shared_max += res[k].shared_max;
		a.shared3_avg += res[k].shared3_avg;
		a.shared3_max += res[k].shared3_max;
		a.sep_avg += res[k].sep_avg;
		a.sep_max += res[k].sep_max;
		t1 += res[k].type1;
		t2 += res[k].type2;
	}
	if (o->csv) {
		printf("%s,%u,%s,%u,%u,%.4f,%.4f,%.4f,%.4f,%.4f,%.4f,%.4f,%.4f,%.4f,%.4f\n",
		       topo_name(&o->t, name, sizeof(name)), o->t.nodes,
		       o->t.links == MC_LINKS_BI ? "bi" : "uni", m, o->trials,
		       a.ideal_avg / n, a.ideal_max / n, a.shared_avg / n,
		       a.shared_max / n, a.shared3_avg / n, a.shared3_max / n,
		       a.sep_avg / n, a.sep_max / n, t1 / n, t2 / n);
		return;
	}
	if (o->t.links == MC_LINKS_BI)
		snprintf(s3, sizeof(s3), "%7.4f /%7.4f", a.shared3_avg / n,
			 a.shared3_max / n);
	else
		snprintf(s3, sizeof(s3), "%16s", "-");
	printf("%6u %7.4f /%7.4f %7.4f /%7.4f %s %8.4f /%8.4f %9.3f %9.3f\n",
	       m, a.ideal_avg / n, a.ideal_max / n, a.shared_avg / n,
	       a.shared_max / n, s3, a.sep_avg / n, a.sep_max / n, t1 / n,
	       t2 / n);
}

/* One m: draw the sets, run the trials on the threads, print. */
static int run_point(const struct opts *o, struct worker *w, u32 m,
		     u32 *perm, struct result *res)
{
	u32 *sets = sim_calloc((size_t)o->trials * m, sizeof(u32));
	u64 seed = o->seed * 1000003u + m * 7919u;
	const char *err = NULL;
	u32 i, k;

	for (k = 0; k < o->trials; k++)
		sim_pick(&seed, o->t.nodes, m, perm, sets + (size_t)k * m);
	for (i = 0; i < o->jobs; i++) {
		w[i].sets = sets;
		w[i].m = m;
		w[i].first = i;
		w[i].step = o->jobs;
		w[i].res = res;
		if (pthread_create(&w[i].th, NULL, worker_run, &w[i])) {
			perror("mcastsim: pthread_create");
			exit(1);
		}
	}
	for (i = 0; i < o->jobs; i++) {
		pthread_join(w[i].th, NULL);
		if (w[i].err && !err)
			err = w[i].err;
	}
	free(sets);
	if (err) {
		fprintf(stderr, "mcastsim: m = %u: %s\n", m, err);
		return 1;
	}
	print_point(o, m, res);
	return 0;
}

int steps_main(int argc, char **argv)
{
	struct opts o = { 0 };
	struct worker *w;
	struct result *res;
	u32 *perm, i;
	int rc = 0;

	parse_args(argc, argv, &o);
	check_members(&o);
	w = sim_calloc(o.jobs, sizeof(*w));
	res = sim_calloc(o.trials, sizeof(*res));
	perm = sim_calloc(o.t.nodes, sizeof(u32));
	for (i = 0; i < o.jobs; i++)
		worker_alloc(&w[i], &o);
	print_header(&o);
	for (i = 0; i < o.nmembers && !rc; i++)
		rc = run_point(&o, w, o.members[i], perm, res);
	for (i = 0; i < o.jobs; i++)
		worker_free(&w[i]);
	free(w);
	free(res);
	free(perm);
	return rc;
}
