// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * mcastctl plan --topology switch:FILE: the multicast of Libeskind-Hadas et
 * al. (1998) on a switched cluster (plan/updown.h) read from a topology file
 * (switchfile.h), held against the core's three checkers, then printed as
 * text or JSON.  --compare binomial plans a topology-blind binomial tree over
 * rank order beside it and names the directed channels its sends share.
 *
 * cmd_plan hands a command line over here when its --topology starts with
 * "switch:".  Nodes are host ids; host h is vertex nswitches + h.
 */
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"
#include "mcastctl.h"
#include "parse.h"
#include "switchfile.h"

#define SWITCH_PREFIX	"switch:"

struct sw_opts {
	const char *topology;
	const char *algorithm;
	const char *route;
	const char *compare;
	const char *source;
	const char **dest;	/* --dest arguments: a host or a comma list */
	u32 ndest;
	const char *dests_file;
	const char *random;
	const char *seed;
	bool json, hops, tree;
};

/* One schedule, its verdicts and the indices its printers need. */
struct sw_run {
	struct mc_sw_schedule s;
	u32 *ws;		/* the checkers' scratch */
	u32 *by_step;		/* send indices, stable-sorted by step */
	u32 *by_from;		/* send indices, stable-sorted by sender */
	u32 *from_start;	/* by_from[from_start[pos]..from_start[pos+1]) */
	const char *contention;	/* the contention checker's reason, or NULL */
	struct mc_sw_conflict *cx;	/* pairs not causally ordered */
	u64 ncx;
	u32 nshared;		/* distinct channels among them */
	u32 *rank;		/* send -> its place in by_step */
	u8 *mark;		/* by_step place -> in a conflict (scratch) */
	u32 *sends;		/* the sends of one channel's conflicts */
	u64 hops;
};

struct swplan {
	struct switchfile f;
	const char *file;
	enum mc_sw_policy pol;
	bool compare;
	u32 src;		/* host ids */
	u32 *dst;		/* in the order given */
	u32 ndst, cap;
	u8 *seen;		/* host -> a destination already */
	u32 *dstv;		/* the destinations' vertices */
	struct sw_run up, bin;
};

static const char *const policy_names[] = {
	[MC_SW_ROUTE_STRICT] = "strict",
	[MC_SW_ROUTE_CLOSEST] = "closest",
	[MC_SW_ROUTE_FARTHEST] = "farthest",
};

/* ---- options ---------------------------------------------------------- */

enum { OPT_SEED = 256, OPT_HOPS, OPT_TREE, OPT_ROUTE, OPT_COMPARE };

#define SW_SHORT_OPTS	":t:a:s:d:f:r:jh"

/* plan.c's options and the switch-only ones. */
const struct option sw_long_opts[] = {
	{ "topology", required_argument, NULL, 't' },
	{ "algorithm", required_argument, NULL, 'a' },
	{ "route", required_argument, NULL, OPT_ROUTE },
	{ "compare", required_argument, NULL, OPT_COMPARE },
	{ "source", required_argument, NULL, 's' },
	{ "dest", required_argument, NULL, 'd' },
	{ "dests-file", required_argument, NULL, 'f' },
	{ "random", required_argument, NULL, 'r' },
	{ "seed", required_argument, NULL, OPT_SEED },
	{ "json", no_argument, NULL, 'j' },
	{ "hops", no_argument, NULL, OPT_HOPS },
	{ "tree", no_argument, NULL, OPT_TREE },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

/* Whether @a names one of the torus algorithms (with or without its R). */
static bool torus_algorithm(const char *a)
{
	size_t len = strcspn(a, ":");
	int i;

	for (i = MC_ALGO_SEPARATE; i <= MC_ALGO_MUTORUS; i++) {
		const char *name = algo_name(i);

		if (strlen(name) == len && !strncmp(a, name, len))
			return true;
	}
	return false;
}

static int check_opts(const struct sw_opts *o, int argc, char **argv)
{
	int sources = (o->ndest > 0) + !!o->dests_file + !!o->random;
	char q[80];

	if (optind < argc)
		return plan_err(MCASTCTL_EUSAGE, "unexpected argument \"%.64s\" (one host or comma list per --dest)",
				argv[optind]);
	if (o->algorithm && torus_algorithm(o->algorithm))
		return plan_err(MCASTCTL_EUSAGE, "--algorithm %s is for tori: a switch topology takes updown",
				printable(o->algorithm, q, sizeof(q)));
	if (!o->source)
		return plan_err(MCASTCTL_EUSAGE, "missing --source");
	if (sources == 0)
		return plan_err(MCASTCTL_EUSAGE, "no destinations: give --dest, --dests-file or --random");
	if (sources > 1)
		return plan_err(MCASTCTL_EUSAGE, "give only one of --dest, --dests-file and --random");
	if (o->seed && !o->random)
		return plan_err(MCASTCTL_EUSAGE, "--seed needs --random");
	return 0;
}

/* One option into @o; an exit status, or -1 when --help was answered. */
static int take_opt(struct sw_opts *o, int c, char **argv)
{
	switch (c) {
	case 't':
		return plan_set_once(sw_long_opts, &o->topology, c);
	case 'a':
		return plan_set_once(sw_long_opts, &o->algorithm, c);
	case OPT_ROUTE:
		return plan_set_once(sw_long_opts, &o->route, c);
	case OPT_COMPARE:
		return plan_set_once(sw_long_opts, &o->compare, c);
	case 's':
		return plan_set_once(sw_long_opts, &o->source, c);
	case 'd':
		o->dest[o->ndest++] = optarg;
		return 0;
	case 'f':
		return plan_set_once(sw_long_opts, &o->dests_file, c);
	case 'r':
		return plan_set_once(sw_long_opts, &o->random, c);
	case OPT_SEED:
		return plan_set_once(sw_long_opts, &o->seed, c);
	case 'j':
		o->json = true;
		return 0;
	case OPT_HOPS:
		o->hops = true;
		return 0;
	case OPT_TREE:
		o->tree = true;
		return 0;
	case 'h':
		cmd_plan_usage(stdout);
		return -1;
	default:
		return plan_bad_option(sw_long_opts, c, argv);
	}
}

static int parse_opts(struct sw_opts *o, int argc, char **argv)
{
	int c, err = 0;

	o->dest = calloc(argc, sizeof(*o->dest));
	if (!o->dest)
		return plan_err(MCASTCTL_EINPUT, "out of memory");
	opterr = 0;
	optind = 0;
	while (!err &&
	       (c = getopt_long(argc, argv, SW_SHORT_OPTS, sw_long_opts,
				NULL)) != -1)
		err = take_opt(o, c, argv);
	return err ? err : check_opts(o, argc, argv);
}

/*
 * What decides who plans, by getopt's own rules over every option either
 * planner knows; mistakes are left to the parse that follows.
 */
static void prescan(struct sw_opts *o, int argc, char **argv)
{
	int c;

	opterr = 0;
	optind = 0;
	while ((c = getopt_long(argc, argv, SW_SHORT_OPTS, sw_long_opts,
				NULL)) != -1) {
		if (c == 't' && !o->topology)
			o->topology = optarg;
		else if (c == 'a' && !o->algorithm)
			o->algorithm = optarg;
		else if (c == OPT_ROUTE)
			o->route = optarg;
		else if (c == OPT_COMPARE)
			o->compare = optarg;
	}
	optind = 0;
}

/* ---- destinations ----------------------------------------------------- */

/* A host id into *@h; @where starts messages ("--source: ", "FILE:LINE: "). */
static int parse_host(const struct swplan *p, const char *s, u32 *h,
		      const char *where)
{
	u32 top = p->f.g.nhosts - 1;
	char q[80];
	int e;

	e = parse_u32(s, top, h);
	if (!e)
		return 0;
	printable(s, q, sizeof(q));
	if (e == -ERANGE)
		return plan_err(MCASTCTL_EINPUT, "%shost %s does not exist (hosts are 0..%u)",
				where, q, top);
	if (switchfile_find(&p->f, s) != MC_NO_NODE)
		return plan_err(MCASTCTL_EINPUT, "%s\"%s\" is a switch, not a host (hosts are 0..%u)",
				where, q, top);
	return plan_err(MCASTCTL_EINPUT, "%s\"%s\" is not a host id (hosts are 0..%u)",
			where, q, top);
}

static int add_dest(struct swplan *p, u32 h, const char *where)
{
	if (h == p->src)
		return plan_err(MCASTCTL_EINPUT, "%sdestination %u is the source",
				where, h);
	if (p->seen[h])
		return plan_err(MCASTCTL_EINPUT, "%sdestination %u given twice",
				where, h);
	if (p->ndst == p->cap) {
		u32 cap = p->cap ? 2 * p->cap : 64;
		u32 *d = realloc(p->dst, (size_t)cap * sizeof(*d));

		if (!d)
			return plan_err(MCASTCTL_EINPUT, "out of memory");
		p->dst = d;
		p->cap = cap;
	}
	p->seen[h] = 1;
	p->dst[p->ndst++] = h;
	return 0;
}

/*
 * "3" or "3,7,12", blanks around each id allowed; @list is cut up.  @where
 * starts messages: "FILE:LINE: " for a file, "" for --dest.
 */
static int add_list(struct swplan *p, char *list, const char *where)
{
	char *item = list, *comma, *end;
	u32 h;
	int st;

	do {
		comma = strchr(item, ',');
		if (comma)
			*comma = '\0';
		while (isspace((unsigned char)*item))
			item++;
		end = item + strlen(item);
		while (end > item && isspace((unsigned char)end[-1]))
			*--end = '\0';
		if (!*item)
			return plan_err(MCASTCTL_EINPUT, "%san empty host id in a comma list",
					where);
		st = parse_host(p, item, &h, where);
		if (!st)
			st = add_dest(p, h, where);
		if (st)
			return st;
		item = comma + 1;
	} while (comma);
	return 0;
}

static int dests_from_args(struct swplan *p, const struct sw_opts *o)
{
	char *copy;
	u32 i;
	int st = 0;

	for (i = 0; !st && i < o->ndest; i++) {
		copy = strdup(o->dest[i]);
		if (!copy)
			return plan_err(MCASTCTL_EINPUT, "out of memory");
		st = add_list(p, copy, "");
		free(copy);
	}
	return st;
}

/* A line of a destinations file: a host or comma list, blank, # comment. */
static int dest_line(struct swplan *p, char *line, const char *name,
		     u32 lineno)
{
	char where[128], *s = line;

	s[strcspn(s, "#\n")] = '\0';
	while (isspace((unsigned char)*s))
		s++;
	if (!*s)
		return 0;
	snprintf(where, sizeof(where), "%s:%u: ", name, lineno);
	return add_list(p, s, where);
}

static int dests_from_file(struct swplan *p, const char *file)
{
	bool is_stdin = !strcmp(file, "-");
	FILE *f = is_stdin ? stdin : fopen(file, "r");
	char q[80], *line = NULL;
	const char *name = is_stdin ? "stdin" : printable(file, q, sizeof(q));
	size_t cap = 0;
	u32 lineno = 0;
	int st = 0;

	if (!f)
		return plan_err(MCASTCTL_EINPUT, "cannot open \"%s\": %s", name,
				strerror(errno));
	while (!st && getline(&line, &cap, f) >= 0)
		st = dest_line(p, line, name, ++lineno);
	if (!st && ferror(f))
		st = plan_err(MCASTCTL_EINPUT, "cannot read \"%s\": %s", name,
			      strerror(errno));
	if (!st && p->ndst == 0)
		st = plan_err(MCASTCTL_EINPUT, "\"%s\" lists no destinations", name);
	free(line);
	if (!is_stdin)
		fclose(f);
	return st;
}

/* plan.c's --random over the hosts: Floyd's draws, then a shuffle. */
static int dests_random(struct swplan *p, const struct sw_opts *o)
{
	u32 space = p->f.g.nhosts - 1, m, j, v;
	u64 x = 1;
	int e = parse_u32(o->random, UINT32_MAX, &m);

	if (e == -EINVAL)
		return plan_err(MCASTCTL_EINPUT, "--random \"%.64s\": not a number",
				o->random);
	if (!e && m == 0)
		return plan_err(MCASTCTL_EINPUT, "--random 0: need at least one destination");
	if (e || m > space)
		return plan_err(MCASTCTL_EINPUT, "--random %.64s: the topology has only %u hosts besides the source",
				o->random, space);
	if (o->seed && parse_u64(o->seed, &x))
		return plan_err(MCASTCTL_EINPUT, "--seed \"%.64s\": not a number below 2^64",
				o->seed);
	p->dst = malloc((size_t)m * sizeof(*p->dst));
	if (!p->dst)
		return plan_err(MCASTCTL_EINPUT, "out of memory");
	p->cap = m;
	for (j = space - m; j < space; j++) {
		v = rand_below(&x, j + 1);
		v += v >= p->src;
		if (p->seen[v])
			v = j + (j >= p->src);
		p->seen[v] = 1;
		p->dst[p->ndst++] = v;
	}
	for (j = m - 1; j > 0; j--) {
		u32 i = rand_below(&x, j + 1), tmp = p->dst[i];

		p->dst[i] = p->dst[j];
		p->dst[j] = tmp;
	}
	return 0;
}

/* ---- setup ------------------------------------------------------------ */

static int parse_values(struct swplan *p, const struct sw_opts *o)
{
	char q[80];
	int i;

	if (o->algorithm && strcmp(o->algorithm, "updown"))
		return plan_err(MCASTCTL_EINPUT, "unknown algorithm \"%s\" (a switch topology takes updown)",
				printable(o->algorithm, q, sizeof(q)));
	p->pol = MC_SW_ROUTE_CLOSEST;
	if (o->route) {
		for (i = MC_SW_ROUTE_FARTHEST; i >= 0; i--)
			if (!strcmp(o->route, policy_names[i]))
				break;
		if (i < 0)
			return plan_err(MCASTCTL_EINPUT, "unknown route policy \"%s\" (strict, closest or farthest)",
					printable(o->route, q, sizeof(q)));
		p->pol = i;
	}
	if (o->compare && strcmp(o->compare, "binomial"))
		return plan_err(MCASTCTL_EINPUT, "cannot compare with \"%s\" (binomial)",
				printable(o->compare, q, sizeof(q)));
	p->compare = o->compare;
	return 0;
}

static int setup(struct swplan *p, const struct sw_opts *o)
{
	char err[PARSE_ERR_MAX];
	int st = parse_values(p, o);

	if (st)
		return st;
	p->file = o->topology + strlen(SWITCH_PREFIX);
	if (!*p->file)
		return plan_err(MCASTCTL_EINPUT, "topology \"switch:\" names no file (switch:FILE)");
	if (switchfile_load(&p->f, p->file, err))
		return plan_err(MCASTCTL_EINPUT, "%s", err);
	st = parse_host(p, o->source, &p->src, "--source: ");
	if (st)
		return st;
	p->seen = calloc(p->f.g.nhosts, 1);
	if (!p->seen)
		return plan_err(MCASTCTL_EINPUT, "out of memory");
	if (o->random)
		return dests_random(p, o);
	if (o->dests_file)
		return dests_from_file(p, o->dests_file);
	return dests_from_args(p, o);
}

/* ---- planning and checking -------------------------------------------- */

static int alloc_schedule(struct sw_run *r, const struct mc_sw_graph *g,
			  u32 m)
{
	u64 words = mc_sw_route_words(g, m);

	r->s.order = calloc(m, sizeof(*r->s.order));
	r->s.send = calloc(m, sizeof(*r->s.send));
	r->s.route = words <= UINT32_MAX ? calloc(words, sizeof(u32)) : NULL;
	r->s.route_cap = words;
	if (!r->s.order || !r->s.send || !r->s.route)
		return plan_err(MCASTCTL_EINPUT, "out of memory");
	return 0;
}

static int checker_failed(const struct swplan *p, const char *which,
			  const struct mc_sw_check_result *res)
{
	char detail[160] = "", v[80];
	size_t n = 0;

	if (res->send_a != MC_NO_NODE)
		n += snprintf(detail + n, sizeof(detail) - n, " send %u",
			      res->send_a);
	if (res->send_b != MC_NO_NODE && n < sizeof(detail))
		n += snprintf(detail + n, sizeof(detail) - n, " send %u",
			      res->send_b);
	if (res->vertex != MC_NO_NODE && n < sizeof(detail))
		n += snprintf(detail + n, sizeof(detail) - n, " vertex %s",
			      switchfile_vertex_name(&p->f, res->vertex, v,
						     sizeof(v)));
	if (res->chan != MC_NO_NODE && n < sizeof(detail))
		snprintf(detail + n, sizeof(detail) - n, " channel %u",
			 res->chan);
	return plan_err(MCASTCTL_EINTERNAL, "internal error: %s checker: %s%s",
			which, res->what ? res->what : "failed", detail);
}

/*
 * Cover and routes must pass whatever the order; contention must for the
 * updown plan (Thm 2), and is only a verdict for the one compared.
 */
static int check(const struct swplan *p, struct sw_run *r, bool must)
{
	struct mc_sw_check_result res;
	u64 words = mc_sw_check_ws_words(&r->s);

	r->ws = words <= UINT32_MAX ? calloc(words, sizeof(u32)) : NULL;
	if (!r->ws)
		return plan_err(MCASTCTL_EINPUT, "out of memory");
	if (mc_sw_check_cover(&r->s, r->ws, &res))
		return checker_failed(p, "cover", &res);
	if (mc_sw_check_routes(&r->s, &res))
		return checker_failed(p, "routes", &res);
	if (mc_sw_check_contention(&r->s, r->ws, &res)) {
		if (must || !res.what)
			return checker_failed(p, "contention", &res);
		r->contention = res.what;
	}
	return 0;
}

/* Every pair of sends on one channel that is not causally ordered. */
static int conflicts(const struct swplan *p, struct sw_run *r)
{
	struct mc_sw_check_result res;
	u64 n = 0, i;

	if (mc_sw_conflicts(&r->s, r->ws, NULL, 0, &n, &res))
		return checker_failed(p, "conflicts", &res);
	if (!n)
		return 0;
	r->cx = n < SIZE_MAX / sizeof(*r->cx) ? calloc(n, sizeof(*r->cx)) : NULL;
	r->rank = calloc(r->s.nsend, sizeof(*r->rank));
	r->mark = calloc(r->s.nsend, sizeof(*r->mark));
	r->sends = calloc(r->s.nsend, sizeof(*r->sends));
	if (!r->cx || !r->rank || !r->mark || !r->sends)
		return plan_err(MCASTCTL_EINPUT, "out of memory");
	for (i = 0; i < r->s.nsend; i++)
		r->rank[r->by_step[i]] = i;
	if (mc_sw_conflicts(&r->s, r->ws, r->cx, n, &r->ncx, &res))
		return checker_failed(p, "conflicts", &res);
	for (i = 0; i < r->ncx; i++)
		r->nshared += !i || r->cx[i].chan != r->cx[i - 1].chan;
	return 0;
}

/*
 * Stable counting sort of the send indices @in (NULL: 0..nsend-1) by step
 * or by sender.
 */
static u32 *sort_sends(const struct mc_sw_schedule *s, const u32 *in,
		       u32 nkeys, bool by_step, u32 **start_out)
{
	u32 *start = calloc((size_t)nkeys + 2, sizeof(*start));
	u32 *out = calloc((size_t)s->nsend + 1, sizeof(*out));
	u32 i, j, key;

	if (!start || !out) {
		free(start);
		free(out);
		return NULL;
	}
	for (i = 0; i < s->nsend; i++) {
		key = by_step ? s->send[i].step : s->send[i].from;
		start[key + 1]++;
	}
	for (i = 0; i < nkeys; i++)
		start[i + 1] += start[i];
	for (i = 0; i < s->nsend; i++) {
		j = in ? in[i] : i;
		key = by_step ? s->send[j].step : s->send[j].from;
		out[start[key]++] = j;
	}
	/* start[key] now ends bucket key; shift back to make it the start */
	memmove(start + 1, start, (size_t)nkeys * sizeof(*start));
	start[0] = 0;
	if (start_out)
		*start_out = start;
	else
		free(start);
	return out;
}

static int index_run(struct sw_run *r)
{
	u32 i;

	/* by sender, then by step: each step's sends in order position */
	r->by_from = sort_sends(&r->s, NULL, r->s.m, false, &r->from_start);
	if (r->by_from)
		r->by_step = sort_sends(&r->s, r->by_from, r->s.steps + 1, true,
					NULL);
	if (!r->by_step)
		return plan_err(MCASTCTL_EINPUT, "out of memory");
	for (i = 0; i < r->s.nsend; i++)
		r->hops += r->s.send[i].hops;
	return 0;
}

static int make_plans(struct swplan *p)
{
	const struct mc_sw_graph *g = &p->f.g;
	u32 m = p->ndst + 1, srcv = mc_sw_host_vertex(g, p->src), i;
	const char *why = NULL;
	int st;

	p->dstv = calloc(p->ndst, sizeof(*p->dstv));
	if (!p->dstv)
		return plan_err(MCASTCTL_EINPUT, "out of memory");
	for (i = 0; i < p->ndst; i++)
		p->dstv[i] = mc_sw_host_vertex(g, p->dst[i]);
	st = alloc_schedule(&p->up, g, m);
	if (st)
		return st;
	if (mc_sw_plan(&p->up.s, g, p->pol, srcv, p->dstv, p->ndst, &why))
		return plan_err(MCASTCTL_EINTERNAL, "internal error: cannot plan: %s",
				why ? why : "no room for the routes");
	st = check(p, &p->up, true);
	if (!st)
		st = index_run(&p->up);
	if (st || !p->compare)
		return st;
	st = alloc_schedule(&p->bin, g, m);
	if (st)
		return st;
	p->bin.s.m = m;
	if (mc_sw_rank_order(g, srcv, p->dstv, p->ndst, p->bin.s.order, &why) ||
	    mc_sw_plan_order(&p->bin.s, g, p->pol, &why))
		return plan_err(MCASTCTL_EINTERNAL, "internal error: cannot plan the binomial tree: %s",
				why ? why : "no room for the routes");
	st = check(p, &p->bin, false);
	if (!st)
		st = index_run(&p->bin);
	return st ? st : conflicts(p, &p->bin);
}

/*
 * The sends of the conflicts from cx[*at] on, all on one channel, each
 * once, by step and order position, into r->sends; their number.  *@at
 * moves to the next channel's.
 */
static u32 channel_sends(const struct sw_run *r, u64 *at, u64 *pairs)
{
	u32 c = r->cx[*at].chan, lo = UINT32_MAX, hi = 0, n = 0, k, q;
	u64 i;

	for (i = *at; i < r->ncx && r->cx[i].chan == c; i++) {
		for (k = 0; k < 2; k++) {
			q = r->rank[k ? r->cx[i].send_b : r->cx[i].send_a];
			r->mark[q] = 1;
			lo = q < lo ? q : lo;
			hi = q > hi ? q : hi;
		}
	}
	*pairs = i - *at;
	*at = i;
	for (q = lo; q <= hi; q++) {
		if (r->mark[q])
			r->sends[n++] = r->by_step[q];
		r->mark[q] = 0;
	}
	return n;
}

/* ---- shared by the printers ------------------------------------------- */

static u32 host_of(const struct swplan *p, u32 v)
{
	return v - p->f.g.nswitches;
}

static bool is_host(const struct swplan *p, u32 v)
{
	return v >= p->f.g.nswitches;
}

static u32 optimal_steps(u32 ndst)
{
	u32 s = 0;

	while ((1ull << s) < (u64)ndst + 1)
		s++;
	return s;
}

static double avg_receive_step(const struct sw_run *r)
{
	u64 sum = 0;
	u32 i;

	for (i = 0; i < r->s.nsend; i++)
		sum += r->s.send[i].step;
	return r->s.nsend ? (double)sum / r->s.nsend : 0;
}

/* ---- JSON ------------------------------------------------------------- */

/* A switch by its name, a host by its id: the types tell them apart. */
static void json_vertex(struct json *j, const struct swplan *p, u32 v)
{
	if (is_host(p, v))
		json_uint(j, host_of(p, v));
	else
		json_str(j, p->f.name[v]);
}

static void json_chan_fields(struct json *j, const struct swplan *p, u32 c)
{
	const struct mc_sw_graph *g = &p->f.g;
	u32 e = c >> 1;

	json_key(j, "from");
	json_vertex(j, p, mc_sw_chan_from(g, c));
	json_key(j, "to");
	json_vertex(j, p, mc_sw_chan_to(g, c));
	json_key_str(j, "dir", mc_sw_chan_up(g, c) ? "up" : "down");
	if (e < g->nlinks)
		json_key_uint(j, "link", e);
	else
		json_key_str(j, "link", "host");
	json_key_bool(j, "tree", mc_sw_edge_is_tree(g, e));
}

static void json_send(struct json *j, const struct swplan *p,
		      const struct sw_run *r, u32 i)
{
	const struct mc_sw_schedule *s = &r->s;
	const struct mc_sw_send *d = &s->send[i];
	u32 k;

	json_obj_begin(j);
	json_key_uint(j, "step", d->step);
	json_key_uint(j, "from", host_of(p, s->order[d->from]));
	json_key_uint(j, "to", host_of(p, s->order[d->to]));
	json_key(j, "covers");
	json_arr_begin(j);
	for (k = 0; k < d->len; k++)
		json_uint(j, host_of(p, s->order[d->to + k]));
	json_arr_end(j);
	json_key_uint(j, "hops", d->hops);
	json_key(j, "route");
	json_arr_begin(j);
	for (k = d->first; k < d->first + d->hops; k++) {
		json_obj_begin(j);
		json_chan_fields(j, p, s->route[k]);
		json_obj_end(j);
	}
	json_arr_end(j);
	json_obj_end(j);
}

static void json_sends(struct json *j, const struct swplan *p,
		       const struct sw_run *r)
{
	u32 i;

	json_key(j, "sends");
	json_arr_begin(j);
	for (i = 0; i < r->s.nsend; i++)
		json_send(j, p, r, r->by_step[i]);
	json_arr_end(j);
}

static void json_checks(struct json *j, const struct sw_run *r)
{
	json_key(j, "checks");
	json_obj_begin(j);
	json_key_str(j, "cover", "pass");
	json_key_str(j, "routes", "pass");
	json_key_str(j, "contention", r->contention ? r->contention : "pass");
	json_obj_end(j);
}

static void json_topology(struct json *j, const struct swplan *p)
{
	const struct mc_sw_graph *g = &p->f.g;

	json_key(j, "topology");
	json_obj_begin(j);
	json_key_str(j, "kind", "switch");
	json_key_str(j, "file", p->file);
	json_key_uint(j, "switches", g->nswitches);
	json_key_uint(j, "hosts", g->nhosts);
	json_key_uint(j, "links", g->nlinks);
	json_key_uint(j, "height", g->height);
	json_obj_end(j);
	json_key_str(j, "root", p->f.name[g->root]);
}

static void json_order(struct json *j, const struct swplan *p)
{
	const struct mc_sw_schedule *s = &p->up.s;
	u32 i;

	json_key(j, "order");
	json_arr_begin(j);
	for (i = 0; i < s->m; i++) {
		json_obj_begin(j);
		json_key_uint(j, "host", host_of(p, s->order[i]));
		json_key_uint(j, "id", p->f.g.id[s->order[i]]);
		json_obj_end(j);
	}
	json_arr_end(j);
}

/* A send as the conflicts name it: {step, from, to}. */
static void json_send_ref(struct json *j, const struct swplan *p,
			  const struct sw_run *r, u32 i)
{
	const struct mc_sw_send *d = &r->s.send[i];

	json_obj_begin(j);
	json_key_uint(j, "step", d->step);
	json_key_uint(j, "from", host_of(p, r->s.order[d->from]));
	json_key_uint(j, "to", host_of(p, r->s.order[d->to]));
	json_obj_end(j);
}

/* Each shared channel with the sends of its conflicts. */
static void json_shared(struct json *j, const struct swplan *p,
			const struct sw_run *r)
{
	u64 i = 0, pairs;
	u32 c, n, k;

	json_key(j, "shared");
	json_arr_begin(j);
	while (i < r->ncx) {
		c = r->cx[i].chan;
		n = channel_sends(r, &i, &pairs);
		json_obj_begin(j);
		json_key(j, "channel");
		json_obj_begin(j);
		json_chan_fields(j, p, c);
		json_obj_end(j);
		json_key(j, "sends");
		json_arr_begin(j);
		for (k = 0; k < n; k++)
			json_send_ref(j, p, r, r->sends[k]);
		json_arr_end(j);
		json_key_uint(j, "pairs", pairs);
		json_obj_end(j);
	}
	json_arr_end(j);
}

static void json_compare(struct json *j, const struct swplan *p)
{
	const struct sw_run *r = &p->bin;
	u64 i;

	json_key(j, "compare");
	json_obj_begin(j);
	json_key_str(j, "algorithm", "binomial");
	json_key(j, "order");
	json_arr_begin(j);
	for (i = 0; i < r->s.m; i++)
		json_uint(j, host_of(p, r->s.order[i]));
	json_arr_end(j);
	json_key_uint(j, "steps", r->s.steps);
	json_key_bool(j, "contention_free", !r->contention);
	json_key_uint(j, "shared_channels", r->nshared);
	json_shared(j, p, r);
	json_key(j, "conflicts");
	json_arr_begin(j);
	for (i = 0; i < r->ncx; i++) {
		json_obj_begin(j);
		json_key(j, "channel");
		json_obj_begin(j);
		json_chan_fields(j, p, r->cx[i].chan);
		json_obj_end(j);
		json_key(j, "a");
		json_send_ref(j, p, r, r->cx[i].send_a);
		json_key(j, "b");
		json_send_ref(j, p, r, r->cx[i].send_b);
		json_obj_end(j);
	}
	json_arr_end(j);
	json_sends(j, p, r);
	json_checks(j, r);
	json_obj_end(j);
}

static int print_json(const struct swplan *p, FILE *f)
{
	const struct sw_run *r = &p->up;
	struct json j;

	json_init(&j, f);
	json_obj_begin(&j);
	json_topology(&j, p);
	json_key_str(&j, "algorithm", "updown");
	json_key_str(&j, "route", policy_names[p->pol]);
	json_key_uint(&j, "source", p->src);
	json_key_uint(&j, "m", r->s.m);
	json_key_uint(&j, "destinations", r->s.m - 1);
	json_key_uint(&j, "steps", r->s.steps);
	json_key_uint(&j, "optimal_steps", optimal_steps(p->ndst));
	json_order(&j, p);
	json_sends(&j, p, r);
	json_key(&j, "stats");
	json_obj_begin(&j);
	json_key_uint(&j, "sends", r->s.nsend);
	json_key_uint(&j, "hops", r->hops);
	json_key(&j, "avg_receive_step");
	json_double(&j, avg_receive_step(r));
	json_obj_end(&j);
	json_checks(&j, r);
	json_key_bool(&j, "verified", true);
	if (p->compare)
		json_compare(&j, p);
	json_obj_end(&j);
	return json_finish(&j);
}

/* ---- text ------------------------------------------------------------- */

/* In routes a host is hN, a switch its name. */
static void put_vertex(const struct swplan *p, FILE *f, u32 v)
{
	if (is_host(p, v))
		fprintf(f, "h%u", host_of(p, v));
	else
		fputs(p->f.name[v], f);
}

/* -up-> / -down-> over a tree link, =up=> / =down=> over a cross link. */
static void put_route(const struct swplan *p, FILE *f,
		      const struct mc_sw_schedule *s, const struct mc_sw_send *d)
{
	const struct mc_sw_graph *g = &p->f.g;
	u32 k, c;

	put_vertex(p, f, s->order[d->from]);
	for (k = d->first; k < d->first + d->hops; k++) {
		char bar;

		c = s->route[k];
		bar = mc_sw_edge_is_tree(g, c >> 1) ? '-' : '=';
		fprintf(f, " %c%s%c> ", bar, mc_sw_chan_up(g, c) ? "up" : "down",
			bar);
		put_vertex(p, f, mc_sw_chan_to(g, c));
	}
	fputc('\n', f);
}

static void text_header(const struct swplan *p, FILE *f)
{
	const struct mc_sw_graph *g = &p->f.g;
	const struct mc_sw_schedule *s = &p->up.s;
	u32 h, i;

	fprintf(f, "topology     switch %s: %u switch%s, %u host%s, %u link%s\n",
		p->file, g->nswitches, g->nswitches == 1 ? "" : "es",
		g->nhosts, g->nhosts == 1 ? "" : "s", g->nlinks,
		g->nlinks == 1 ? "" : "s");
	fprintf(f, "root         %s, tree height %u\n", p->f.name[g->root],
		g->height);
	fprintf(f, "algorithm    updown, route %s\n", policy_names[p->pol]);
	fprintf(f, "source       host %u\n", p->src);
	fprintf(f, "m            %u (source and %u destination%s)\n", s->m,
		s->m - 1, s->m == 2 ? "" : "s");
	fputs("destinations", f);
	for (h = 0; h < g->nhosts; h++)
		if (p->seen[h])
			fprintf(f, " %u", h);
	fputs("\norder        by postorder ID, host^ID:", f);
	for (i = 0; i < s->m; i++)
		fprintf(f, " %u^%u", host_of(p, s->order[i]), g->id[s->order[i]]);
	fprintf(f, "\nsteps        %u (optimal: ceil(log2(%u+1)) = %u)\n",
		s->steps, p->ndst, optimal_steps(p->ndst));
	fputs("verified     cover, routes, contention\n", f);
}

/* "step 1: host 0 -> host 8  covers hosts 8 9 10 11  [4 hops]" */
static void text_send(const struct swplan *p, FILE *f, const struct sw_run *r,
		      u32 i, bool hops)
{
	const struct mc_sw_schedule *s = &r->s;
	const struct mc_sw_send *d = &s->send[i];
	u32 k;

	fprintf(f, "step %u: host %u -> host %u", d->step,
		host_of(p, s->order[d->from]), host_of(p, s->order[d->to]));
	if (d->len > 1) {
		fputs("  covers hosts", f);
		for (k = 0; k < d->len; k++)
			fprintf(f, " %u", host_of(p, s->order[d->to + k]));
	}
	fprintf(f, "  [%u hop%s]\n", d->hops, d->hops == 1 ? "" : "s");
	if (hops) {
		fputs("        ", f);
		put_route(p, f, s, d);
	}
}

/* The sends of the holder at order position @pos, each with its subtree. */
static void text_tree(const struct swplan *p, FILE *f, u32 pos, int indent)
{
	const struct sw_run *r = &p->up;
	const struct mc_sw_send *d;
	u32 b;

	for (b = r->from_start[pos]; b < r->from_start[pos + 1]; b++) {
		d = &r->s.send[r->by_from[b]];
		fprintf(f, "%*s%u -> host %u\n", indent, "", d->step,
			host_of(p, r->s.order[d->to]));
		text_tree(p, f, d->to, indent + 2);
	}
}

/* "leaf0 -> spine0 (up)": a directed channel, its link if a cross one. */
static void put_chan(const struct swplan *p, FILE *f, u32 c)
{
	const struct mc_sw_graph *g = &p->f.g;

	put_vertex(p, f, mc_sw_chan_from(g, c));
	fputs(" -> ", f);
	put_vertex(p, f, mc_sw_chan_to(g, c));
	fprintf(f, " (%s", mc_sw_chan_up(g, c) ? "up" : "down");
	if (!mc_sw_edge_is_tree(g, c >> 1))
		fprintf(f, ", cross link %u", c >> 1);
	fputc(')', f);
}

static void put_send_ref(const struct swplan *p, FILE *f,
			 const struct sw_run *r, u32 i)
{
	const struct mc_sw_send *d = &r->s.send[i];

	fprintf(f, "step %u h%u->h%u", d->step, host_of(p, r->s.order[d->from]),
		host_of(p, r->s.order[d->to]));
}

static void text_compare(const struct swplan *p, FILE *f)
{
	const struct sw_run *r = &p->bin;
	u64 i;

	fprintf(f, "\ncompare      binomial tree over rank order, route %s\n",
		policy_names[p->pol]);
	fputs("rank order  ", f);
	for (i = 0; i < r->s.m; i++)
		fprintf(f, " %u", host_of(p, r->s.order[i]));
	fputs("\nupdown       contention checker: pass\n", f);
	fprintf(f, "binomial     contention checker: %s\n",
		r->contention ? r->contention : "pass");
	for (i = 0; i < r->ncx;) {
		u32 c = r->cx[i].chan, n, k;
		u64 pairs;

		n = channel_sends(r, &i, &pairs);
		fputs("shared: ", f);
		put_chan(p, f, c);
		fputs(" by", f);
		for (k = 0; k < n; k++) {
			fputs(k == 0 ? " " : k + 1 < n ? ", " : " and ", f);
			put_send_ref(p, f, r, r->sends[k]);
		}
		fprintf(f, "  [%llu pair%s]\n", (unsigned long long)pairs,
			pairs == 1 ? "" : "s");
	}
	fprintf(f, "updown: contention-free in %u steps; binomial: ",
		p->up.s.steps);
	if (!r->contention)
		fprintf(f, "contention-free in %u steps\n", r->s.steps);
	else
		fprintf(f, "%u steps, %u shared channel%s\n", r->s.steps,
			r->nshared, r->nshared == 1 ? "" : "s");
}

static int print_text(const struct swplan *p, const struct sw_opts *o,
		      FILE *f)
{
	const struct sw_run *r = &p->up;
	u32 i;

	text_header(p, f);
	fputc('\n', f);
	for (i = 0; i < r->s.nsend; i++)
		text_send(p, f, r, r->by_step[i], o->hops);
	if (o->tree) {
		fprintf(f, "\ntree:\nhost %u\n", p->src);
		text_tree(p, f, 0, 2);
	}
	fprintf(f, "\ntotal        %u send%s, %llu hops\n", r->s.nsend,
		r->s.nsend == 1 ? "" : "s", (unsigned long long)r->hops);
	fprintf(f, "receive      average step %.2f, last %u\n",
		avg_receive_step(r), r->s.steps);
	if (p->compare)
		text_compare(p, f);
	return ferror(f) ? -1 : 0;
}

/* ---- the command ------------------------------------------------------ */

static void run_free(struct sw_run *r)
{
	free(r->s.order);
	free(r->s.send);
	free(r->s.route);
	free(r->ws);
	free(r->by_step);
	free(r->by_from);
	free(r->from_start);
	free(r->cx);
	free(r->rank);
	free(r->mark);
	free(r->sends);
}

static void swplan_free(struct swplan *p, struct sw_opts *o)
{
	free(o->dest);
	switchfile_free(&p->f);
	free(p->dst);
	free(p->seen);
	free(p->dstv);
	run_free(&p->up);
	run_free(&p->bin);
}

static int plan_switch(int argc, char **argv)
{
	struct sw_opts o = { 0 };
	struct swplan p = { 0 };
	int st;

	st = parse_opts(&o, argc, argv);
	if (!st)
		st = setup(&p, &o);
	if (!st)
		st = make_plans(&p);
	if (!st) {
		int e = o.json ? print_json(&p, stdout) :
				 print_text(&p, &o, stdout);

		if (e || fflush(stdout))
			st = plan_err(MCASTCTL_EINPUT, "cannot write the plan: %s",
				      strerror(errno));
	}
	swplan_free(&p, &o);
	return st < 0 ? MCASTCTL_OK : st;
}

/* Options of a switch topology given with a torus: name the conflict. */
static int torus_misuse(const struct sw_opts *o)
{
	if (o->algorithm && !strcmp(o->algorithm, "updown"))
		return plan_err(MCASTCTL_EUSAGE, "--algorithm updown needs a switch topology (--topology switch:FILE)");
	if (o->route)
		return plan_err(MCASTCTL_EUSAGE, "--route needs a switch topology (--topology switch:FILE)");
	if (o->compare)
		return plan_err(MCASTCTL_EUSAGE, "--compare needs a switch topology (--topology switch:FILE)");
	return -1;
}

int cmd_plan_switch(int argc, char **argv)
{
	struct sw_opts pre = { 0 };

	prescan(&pre, argc, argv);
	if (!pre.topology)
		return -1;	/* plan.c says what is missing */
	if (strncmp(pre.topology, SWITCH_PREFIX, strlen(SWITCH_PREFIX)))
		return torus_misuse(&pre);
	return plan_switch(argc, argv);
}
