// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * mcastctl plan: plan a multicast offline with the same planning core the
 * kernel runs, verify the plan with the core's checkers, and print it as
 * text or JSON.  A plan that fails a checker is never printed.
 */
#include <ctype.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "json.h"
#include "mcastctl.h"
#include "parse.h"

struct plan_opts {
	const char *topology;
	const char *algorithm;
	const char *source;
	const char **dest;	/* --dest arguments, in the order given */
	u32 ndest;
	const char *dests_file;
	const char *random;
	const char *seed;
	bool json, hops, tree;
};

struct plan {
	struct mc_torus t;
	enum mc_algo algo;
	u32 r;
	u32 src;
	u32 *dst;		/* destinations in the order given */
	u32 ndst, cap;
	u8 *seen;		/* bitmap over nodes: catches repeats in O(1) */
	struct mc_schedule s;
	u32 maxseg;		/* more hops than this between two nodes: a bug */
	u64 *nhops;		/* hops of each message */
	u32 *by_step;		/* message indices, stable-sorted by step */
	u32 *by_from;		/* message indices, stable-sorted by sender */
	u32 *from_start;	/* by_from[from_start[pos]..from_start[pos+1]) */
	u32 *rank;		/* order position -> index in s.dest */
	u64 hops;
	u32 maxdests;
};

enum { OPT_SEED = 256, OPT_HOPS, OPT_TREE };

const struct option plan_long_opts[] = {
	{ "topology", required_argument, NULL, 't' },
	{ "algorithm", required_argument, NULL, 'a' },
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

static int check_opts(const struct plan_opts *o, int argc, char **argv)
{
	int sources = (o->ndest > 0) + !!o->dests_file + !!o->random;

	if (optind < argc)
		return plan_err(MCASTCTL_EUSAGE, "unexpected argument \"%.64s\" (one coordinate per --dest)",
				argv[optind]);
	if (!o->topology)
		return plan_err(MCASTCTL_EUSAGE, "missing --topology");
	if (!o->algorithm)
		return plan_err(MCASTCTL_EUSAGE, "missing --algorithm");
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

/* Returns 0, an exit status, or -1 when --help was answered. */
static int parse_opts(struct plan_opts *o, int argc, char **argv)
{
	int c, err = 0;

	o->dest = calloc(argc, sizeof(*o->dest));
	if (!o->dest)
		return plan_err(MCASTCTL_EINPUT, "out of memory");
	opterr = 0;
	optind = 1;
	while (!err &&
	       (c = getopt_long(argc, argv, ":t:a:s:d:f:r:jh", plan_long_opts,
				NULL)) != -1) {
		switch (c) {
		case 't':
			err = plan_set_once(plan_long_opts, &o->topology, c);
			break;
		case 'a':
			err = plan_set_once(plan_long_opts, &o->algorithm, c);
			break;
		case 's':
			err = plan_set_once(plan_long_opts, &o->source, c);
			break;
		case 'd':
			o->dest[o->ndest++] = optarg;
			break;
		case 'f':
			err = plan_set_once(plan_long_opts, &o->dests_file, c);
			break;
		case 'r':
			err = plan_set_once(plan_long_opts, &o->random, c);
			break;
		case OPT_SEED:
			err = plan_set_once(plan_long_opts, &o->seed, c);
			break;
		case 'j':
			o->json = true;
			break;
		case OPT_HOPS:
			o->hops = true;
			break;
		case OPT_TREE:
			o->tree = true;
			break;
		case 'h':
			cmd_plan_usage(stdout);
			return -1;
		default:
			return plan_bad_option(plan_long_opts, c, argv);
		}
	}
	return err ? err : check_opts(o, argc, argv);
}

/* ---- destinations ---------------------------------------------------- */

static bool seen(const struct plan *p, u32 node)
{
	return p->seen[node / 8] & (1u << (node % 8));
}

/* Append @node, refusing the source and repeats; @where prefixes errors. */
static int add_dest(struct plan *p, u32 node, const char *where)
{
	char c[COORD_STR_MAX];

	if (node == p->src)
		return plan_err(MCASTCTL_EINPUT, "%sdestination %s is the source",
				where, format_coord(&p->t, node, false, c));
	if (seen(p, node))
		return plan_err(MCASTCTL_EINPUT, "%sdestination %s given twice",
				where, format_coord(&p->t, node, false, c));
	if (p->ndst == p->cap) {
		u32 cap = p->cap ? 2 * p->cap : 64;
		u32 *d = realloc(p->dst, (size_t)cap * sizeof(*d));

		if (!d)
			return plan_err(MCASTCTL_EINPUT, "out of memory");
		p->dst = d;
		p->cap = cap;
	}
	p->seen[node / 8] |= 1u << (node % 8);
	p->dst[p->ndst++] = node;
	return 0;
}

static int dests_from_args(struct plan *p, const struct plan_opts *o)
{
	char err[PARSE_ERR_MAX];
	u32 i, node;
	int st;

	for (i = 0; i < o->ndest; i++) {
		if (parse_coord(&p->t, o->dest[i], &node, err))
			return plan_err(MCASTCTL_EINPUT, "%s", err);
		st = add_dest(p, node, "");
		if (st)
			return st;
	}
	return 0;
}

/* One line of a destinations file: a coordinate, blank, or a # comment. */
static int dest_line(struct plan *p, char *line, const char *name, u32 lineno)
{
	char err[PARSE_ERR_MAX], where[128];
	char *hash = strchr(line, '#'), *end;
	u32 node;

	if (hash)
		*hash = '\0';
	while (isspace((unsigned char)*line))
		line++;
	end = line + strlen(line);
	while (end > line && isspace((unsigned char)end[-1]))
		*--end = '\0';
	if (!*line)
		return 0;
	snprintf(where, sizeof(where), "%s:%u: ", name, lineno);
	if (parse_coord(&p->t, line, &node, err))
		return plan_err(MCASTCTL_EINPUT, "%s%s", where, err);
	return add_dest(p, node, where);
}

static int dests_from_file(struct plan *p, const char *file)
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

/*
 * M distinct destinations by Floyd's algorithm over the nodes other than
 * the source (index v maps to node v, or v+1 past the source): M draws
 * even when M is the whole torus.  A Fisher-Yates shuffle then makes the
 * order random too, which separate addressing follows.
 */
static int dests_random(struct plan *p, const struct plan_opts *o)
{
	u32 space = p->t.nodes - 1, m, j, v;
	u64 x = 1;
	int e = parse_u32(o->random, UINT32_MAX, &m);

	if (e == -EINVAL)
		return plan_err(MCASTCTL_EINPUT, "--random \"%.64s\": not a number",
				o->random);
	if (!e && m == 0)
		return plan_err(MCASTCTL_EINPUT, "--random 0: need at least one destination");
	if (e || m > space)
		return plan_err(MCASTCTL_EINPUT, "--random %.64s: the torus has only %u nodes besides the source",
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
		if (seen(p, v))
			v = j + (j >= p->src);
		p->seen[v / 8] |= 1u << (v % 8);
		p->dst[p->ndst++] = v;
	}
	for (j = m - 1; j > 0; j--) {
		u32 i = rand_below(&x, j + 1), tmp = p->dst[i];

		p->dst[i] = p->dst[j];
		p->dst[j] = tmp;
	}
	return 0;
}

/* ---- planning and verification -------------------------------------- */

static int setup(struct plan *p, const struct plan_opts *o)
{
	char err[PARSE_ERR_MAX];
	const char *why = NULL;
	unsigned int d;

	if (parse_topology(o->topology, &p->t, err) ||
	    parse_algorithm(o->algorithm, &p->algo, &p->r, err))
		return plan_err(MCASTCTL_EINPUT, "%s", err);
	if (mc_algo_supported(&p->t, p->algo, p->r, &why))
		return plan_err(MCASTCTL_EINPUT, "%s: %s", o->algorithm,
				why ? why : "not supported on this torus");
	if (parse_coord(&p->t, o->source, &p->src, err))
		return plan_err(MCASTCTL_EINPUT, "--source: %s", err);
	p->seen = calloc(p->t.nodes / 8 + 1, 1);
	if (!p->seen)
		return plan_err(MCASTCTL_EINPUT, "out of memory");
	/* a minimal route crosses each dimension less than once around */
	for (d = 0; d < p->t.n; d++)
		p->maxseg += p->t.k[d];
	if (o->random)
		return dests_random(p, o);
	if (o->dests_file)
		return dests_from_file(p, o->dests_file);
	return dests_from_args(p, o);
}

static int make_plan(struct plan *p)
{
	u32 m = p->ndst + 1;
	const char *why = NULL;

	p->s.order = calloc(m, sizeof(*p->s.order));
	p->s.msg = calloc(m, sizeof(*p->s.msg));
	p->s.dest = calloc(m, sizeof(*p->s.dest));
	if (!p->s.order || !p->s.msg || !p->s.dest)
		return plan_err(MCASTCTL_EINPUT, "out of memory");
	if (mc_plan(&p->s, &p->t, p->algo, p->r, p->src, p->dst, p->ndst,
		    &why))
		return plan_err(MCASTCTL_EINPUT, "%s", why ? why : "cannot plan");
	return 0;
}

static int checker_failed(const struct plan *p, int err,
			  const struct mc_check_result *res)
{
	char c[COORD_STR_MAX], detail[128] = "";
	size_t n = 0;

	if (res->msg_a != MC_NO_NODE)
		n += snprintf(detail + n, sizeof(detail) - n, " message %u",
			      res->msg_a);
	if (res->msg_b != MC_NO_NODE && n < sizeof(detail))
		n += snprintf(detail + n, sizeof(detail) - n, " message %u",
			      res->msg_b);
	if (res->node < p->t.nodes && n < sizeof(detail))
		snprintf(detail + n, sizeof(detail) - n, " node %s",
			 format_coord(&p->t, res->node, true, c));
	return plan_err(MCASTCTL_EINTERNAL, "internal error: checker: %s (error %d)%s",
			res->what ? res->what : "failed", err, detail);
}

/* Run all three checkers; never print a plan that has not passed them. */
static int verify(struct plan *p)
{
	struct mc_check_result res = {
		.what = NULL, .msg_a = MC_NO_NODE, .msg_b = MC_NO_NODE,
		.node = MC_NO_NODE,
	};
	u64 w0 = mc_check_ws_words(&p->s, false);
	u64 w1 = mc_check_ws_words(&p->s, true);
	u64 words = (w0 > w1 ? w0 : w1) + 1;
	u32 *ws;
	int err;

	if (words > SIZE_MAX / sizeof(*ws))
		return plan_err(MCASTCTL_EINPUT, "out of memory");
	ws = calloc(words, sizeof(*ws));
	if (!ws)
		return plan_err(MCASTCTL_EINPUT, "out of memory");
	err = mc_check_cover(&p->s, ws, &res);
	if (!err && !res.what)
		err = mc_check_order(&p->s, &res);
	if (!err && !res.what)
		err = mc_check_routes(&p->s, &res);
	if (!err && !res.what) {
		memset(ws, 0, words * sizeof(*ws));
		err = mc_check_contention(&p->s, ws, &res);
	}
	free(ws);
	if (err || res.what)
		return checker_failed(p, err, &res);
	return 0;
}

/* ---- walking routes -------------------------------------------------- */

typedef void hop_fn(const struct plan *p, const struct mc_hop *h,
		    bool delivers, void *arg);

/*
 * Route message @mi hop by hop as the routers do: a worm keeps its virtual
 * channel class from one destination to the next (UTPR reads it), a
 * unicast starts in class p.  Returns the hop count, or -1 if a route
 * does not end where it should.
 */
static int64_t walk(const struct plan *p, u32 mi, hop_fn *fn, void *arg)
{
	const struct mc_schedule *s = &p->s;
	const struct mc_msg *msg = &s->msg[mi];
	u32 cur = s->order[msg->from], i, seg;
	u8 alpha = MC_VC_P;
	struct mc_hop h;
	int64_t n = 0;

	for (i = msg->first; i < msg->first + msg->count; i++) {
		u32 dst = s->order[s->dest[i].pos];

		for (seg = 0; mc_route_next(&p->t, s->routing, cur, dst,
					    &alpha, &h); seg++) {
			if (seg == p->maxseg || h.from != cur)
				return -1;
			cur = h.to;
			if (fn)
				fn(p, &h, cur == dst, arg);
		}
		if (cur != dst)
			return -1;
		n += seg;
	}
	return n;
}

/* Stable counting sort of message indices by a key below @nkeys. */
static u32 *sort_msgs(const struct mc_schedule *s, u32 nkeys, bool by_step,
		      u32 **start_out)
{
	u32 *start = calloc((size_t)nkeys + 2, sizeof(*start));
	u32 *out = calloc((size_t)s->nmsg + 1, sizeof(*out));
	u32 i, key;

	if (!start || !out) {
		free(start);
		free(out);
		return NULL;
	}
	for (i = 0; i < s->nmsg; i++) {
		key = by_step ? s->msg[i].step : s->msg[i].from;
		start[key + 1]++;
	}
	for (i = 0; i < nkeys; i++)
		start[i + 1] += start[i];
	for (i = 0; i < s->nmsg; i++) {
		key = by_step ? s->msg[i].step : s->msg[i].from;
		out[start[key]++] = i;
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

/* Per-message hop counts, totals, and the indices the printers need. */
static int analyse(struct plan *p)
{
	const struct mc_schedule *s = &p->s;
	u32 i;

	p->nhops = calloc((size_t)s->nmsg + 1, sizeof(*p->nhops));
	p->rank = calloc(s->m, sizeof(*p->rank));
	p->by_step = sort_msgs(s, s->steps + 1, true, NULL);
	p->by_from = sort_msgs(s, s->m, false, &p->from_start);
	if (!p->nhops || !p->rank || !p->by_step || !p->by_from)
		return plan_err(MCASTCTL_EINPUT, "out of memory");
	for (i = 0; i < s->nmsg; i++) {
		int64_t n = walk(p, i, NULL, NULL);

		if (n < 0)
			return plan_err(MCASTCTL_EINTERNAL, "internal error: route of message %u does not reach its destinations",
					i);
		p->nhops[i] = n;
		p->hops += n;
		if (s->msg[i].count > p->maxdests)
			p->maxdests = s->msg[i].count;
	}
	if (p->hops != mc_schedule_hops(s))
		return plan_err(MCASTCTL_EINTERNAL, "internal error: %llu hops walked, mc_schedule_hops says %llu",
				(unsigned long long)p->hops,
				(unsigned long long)mc_schedule_hops(s));
	for (i = 0; i < s->ndest; i++)
		p->rank[s->dest[i].pos] = i;
	return 0;
}

static double avg_receive_step(const struct plan *p)
{
	u64 sum = 0;
	u32 i;

	for (i = 0; i < p->s.ndest; i++)
		sum += p->s.dest[i].step;
	return p->s.ndest ? (double)sum / p->s.ndest : 0;
}

static const char *links_name(const struct mc_torus *t)
{
	return t->links == MC_LINKS_BI ? "bi" : "uni";
}

/* ---- JSON ------------------------------------------------------------ */

static void json_coord(struct json *j, const struct mc_torus *t, u32 node)
{
	u16 sigma[MC_MAX_DIMS];
	int i;

	mc_node_coords(t, node, sigma);
	json_arr_begin(j);
	for (i = t->n - 1; i >= 0; i--)
		json_uint(j, sigma[i]);
	json_arr_end(j);
}

static void json_hop(const struct plan *p, const struct mc_hop *h,
		     bool delivers, void *arg)
{
	char vc[2] = { mc_vc_letter(h->vc), '\0' };
	struct json *j = arg;

	(void)delivers;
	json_obj_begin(j);
	json_key(j, "from");
	json_coord(j, &p->t, h->from);
	json_key(j, "to");
	json_coord(j, &p->t, h->to);
	json_key_uint(j, "dim", h->dim);
	json_key_int(j, "dir", h->dir);
	json_key_str(j, "vc", vc);
	json_obj_end(j);
}

static void json_topology(struct json *j, const struct mc_torus *t)
{
	int d;

	json_key(j, "topology");
	json_obj_begin(j);
	json_key_str(j, "kind", "torus");
	json_key(j, "dims");
	json_arr_begin(j);
	for (d = t->n - 1; d >= 0; d--)
		json_uint(j, t->k[d]);
	json_arr_end(j);
	json_key_str(j, "links", links_name(t));
	json_key_uint(j, "nodes", t->nodes);
	json_obj_end(j);
}

static void json_order(struct json *j, const struct plan *p)
{
	const struct mc_schedule *s = &p->s;
	u32 i;

	json_key(j, "order");
	json_arr_begin(j);
	for (i = 0; i < s->m; i++)
		json_coord(j, &p->t, s->order[i]);
	json_arr_end(j);
	if (!mc_algo_is_path_based(p->algo))
		return;
	json_key(j, "labels");
	json_arr_begin(j);
	for (i = 0; i < s->m; i++)
		json_uint(j, mc_hlabel(&p->t, s->order[i]));
	json_arr_end(j);
}

static void json_message(struct json *j, const struct plan *p, u32 mi)
{
	const struct mc_schedule *s = &p->s;
	const struct mc_msg *msg = &s->msg[mi];
	u32 i, k;

	json_obj_begin(j);
	json_key_uint(j, "step", msg->step);
	json_key(j, "from");
	json_coord(j, &p->t, s->order[msg->from]);
	json_key(j, "to");
	json_arr_begin(j);
	for (i = msg->first; i < msg->first + msg->count; i++)
		json_coord(j, &p->t, s->order[s->dest[i].pos]);
	json_arr_end(j);
	json_key(j, "covers");
	json_arr_begin(j);
	for (i = msg->first; i < msg->first + msg->count; i++) {
		json_arr_begin(j);
		for (k = 0; k < s->dest[i].len; k++)
			json_coord(j, &p->t, s->order[s->dest[i].pos + k]);
		json_arr_end(j);
	}
	json_arr_end(j);
	json_key_uint(j, "nhops", p->nhops[mi]);
	json_key(j, "hops");
	json_arr_begin(j);
	walk(p, mi, json_hop, j);
	json_arr_end(j);
	json_obj_end(j);
}

/* Every destination, in order position, with the step it receives in. */
static void json_receivers(struct json *j, const struct plan *p)
{
	const struct mc_schedule *s = &p->s;
	u32 pos;

	json_key(j, "receivers");
	json_arr_begin(j);
	for (pos = 1; pos < s->m; pos++) {
		const struct mc_dest *d = &s->dest[p->rank[pos]];

		json_obj_begin(j);
		json_key(j, "node");
		json_coord(j, &p->t, s->order[pos]);
		json_key_uint(j, "step", d->step);
		json_key_uint(j, "pos", d->pos);
		json_key_uint(j, "len", d->len);
		json_key_uint(j, "msg", d->msg);
		if (p->algo == MC_ALGO_MDTORUS)
			json_key_uint(j, "level", d->level);
		json_obj_end(j);
	}
	json_arr_end(j);
}

static void json_stats(struct json *j, const struct plan *p)
{
	json_key(j, "stats");
	json_obj_begin(j);
	json_key_uint(j, "messages", p->s.nmsg);
	json_key_uint(j, "hops", p->hops);
	json_key_uint(j, "max_dests_per_msg", p->maxdests);
	json_key(j, "avg_receive_step");
	json_double(j, avg_receive_step(p));
	json_obj_end(j);
}

static int print_json(const struct plan *p, FILE *f)
{
	const struct mc_schedule *s = &p->s;
	char algo[32];
	struct json j;
	u32 i;

	if (p->algo == MC_ALGO_MUTORUS)
		snprintf(algo, sizeof(algo), "mu-torus:%u", p->r);
	else
		snprintf(algo, sizeof(algo), "%s", algo_name(p->algo));
	json_init(&j, f);
	json_obj_begin(&j);
	json_topology(&j, &p->t);
	json_key_str(&j, "algorithm", algo);
	if (p->algo == MC_ALGO_MUTORUS)
		json_key_uint(&j, "r", p->r);
	json_key_str(&j, "routing", routing_name(s->routing));
	json_key(&j, "source");
	json_coord(&j, &p->t, p->src);
	json_key_uint(&j, "m", s->m);
	json_key_uint(&j, "destinations", s->m - 1);
	json_key_uint(&j, "steps", s->steps);
	json_order(&j, p);
	json_key(&j, "messages");
	json_arr_begin(&j);
	for (i = 0; i < s->nmsg; i++)
		json_message(&j, p, i);
	json_arr_end(&j);
	json_receivers(&j, p);
	json_stats(&j, p);
	json_key_bool(&j, "verified", true);
	json_obj_end(&j);
	return json_finish(&j);
}

/* ---- text ------------------------------------------------------------ */

static void put_coord(const struct plan *p, FILE *f, u32 node)
{
	char c[COORD_STR_MAX];

	fputs(format_coord(&p->t, node, true, c), f);
}

/* order[pos..pos+len-1], space separated */
static void put_piece(const struct plan *p, FILE *f, u32 pos, u32 len)
{
	u32 k;

	for (k = 0; k < len; k++) {
		fputc(' ', f);
		put_coord(p, f, p->s.order[pos + k]);
	}
}

static void text_header(const struct plan *p, FILE *f)
{
	const struct mc_schedule *s = &p->s;
	bool worms = mc_algo_is_path_based(p->algo);
	int d;
	u32 i;

	fputs("topology     torus ", f);
	for (d = p->t.n - 1; d >= 0; d--)
		fprintf(f, d ? "%ux" : "%u", p->t.k[d]);
	fprintf(f, ", %s links, %u nodes\n",
		p->t.links == MC_LINKS_BI ? "bidirectional" : "unidirectional",
		p->t.nodes);
	fprintf(f, "algorithm    %s", algo_name(p->algo));
	if (p->algo == MC_ALGO_MUTORUS)
		fprintf(f, ":%u", p->r);
	fprintf(f, ", routing %s\n", routing_name(s->routing));
	fputs("source       ", f);
	put_coord(p, f, p->src);
	fprintf(f, "\nm            %u (source and %u destinations)\n", s->m,
		s->m - 1);
	fprintf(f, "%-12s %u\n", worms ? "phases" : "steps", s->steps);
	fprintf(f, "order        %s:",
		p->algo == MC_ALGO_SEPARATE ? "as given" :
		worms ? "H-cycle, ^label" : "R-chain");
	for (i = 0; i < s->m; i++) {
		fputc(' ', f);
		put_coord(p, f, s->order[i]);
		if (worms)
			fprintf(f, "^%u", mc_hlabel(&p->t, s->order[i]));
	}
	fputs("\nverified     cover, order, routes, contention\n", f);
}

static void text_hop(const struct plan *p, const struct mc_hop *h,
		     bool delivers, void *arg)
{
	FILE *f = arg;

	fputs("        ", f);
	put_coord(p, f, h->from);
	fputs(" -> ", f);
	put_coord(p, f, h->to);
	fprintf(f, "  dim %u %+d %c%s\n", h->dim, h->dir, mc_vc_letter(h->vc),
		delivers ? "  (receives)" : "");
}

/*
 * "step 1: (8,4,5) -> (1,9,7)  covers ...  [10 hops]" for a unicast,
 * "phase 1: (3,2) => (4,3) (4,5) ...  [12 hops]" for a worm, then one
 * "covers" line per worm destination that takes on more than itself.
 */
static void text_message(const struct plan *p, FILE *f, u32 mi, bool hops)
{
	const struct mc_schedule *s = &p->s;
	const struct mc_msg *msg = &s->msg[mi];
	bool worms = mc_algo_is_path_based(p->algo);
	const struct mc_dest *d = &s->dest[msg->first];
	u32 i;

	fprintf(f, "%s %u: ", worms ? "phase" : "step", msg->step);
	put_coord(p, f, s->order[msg->from]);
	fputs(worms ? " =>" : " ->", f);
	for (i = 0; i < msg->count; i++) {
		fputc(' ', f);
		put_coord(p, f, s->order[d[i].pos]);
	}
	if (msg->count == 1 && d->len > 1) {
		fputs("  covers", f);
		put_piece(p, f, d->pos, d->len);
	}
	fprintf(f, "  [%llu hop%s]\n", (unsigned long long)p->nhops[mi],
		p->nhops[mi] == 1 ? "" : "s");
	for (i = 0; msg->count > 1 && i < msg->count; i++) {
		if (d[i].len == 1)
			continue;
		fputs("    ", f);
		put_coord(p, f, s->order[d[i].pos]);
		fputs(" covers", f);
		put_piece(p, f, d[i].pos, d[i].len);
		fputc('\n', f);
	}
	if (hops)
		walk(p, mi, text_hop, f);
}

/* The sends of the holder at order position @pos, each with its subtree. */
static void text_tree(const struct plan *p, FILE *f, u32 pos, int indent)
{
	const struct mc_schedule *s = &p->s;
	bool worms = mc_algo_is_path_based(p->algo);
	u32 b, i;

	for (b = p->from_start[pos]; b < p->from_start[pos + 1]; b++) {
		const struct mc_msg *msg = &s->msg[p->by_from[b]];
		const struct mc_dest *d = &s->dest[msg->first];

		fprintf(f, "%*s%u %s", indent, "", msg->step,
			worms ? "=>" : "->");
		for (i = 0; i < msg->count; i++) {
			fputc(' ', f);
			put_coord(p, f, s->order[d[i].pos]);
		}
		fputc('\n', f);
		if (msg->count == 1) {
			text_tree(p, f, d->pos, indent + 2);
			continue;
		}
		for (i = 0; i < msg->count; i++) {
			u32 q = d[i].pos;

			if (p->from_start[q] == p->from_start[q + 1])
				continue;
			fprintf(f, "%*s", indent + 2, "");
			put_coord(p, f, s->order[q]);
			fputc('\n', f);
			text_tree(p, f, q, indent + 4);
		}
	}
}

static int print_text(const struct plan *p, const struct plan_opts *o,
		      FILE *f)
{
	const struct mc_schedule *s = &p->s;
	u32 i, last = 0;

	text_header(p, f);
	fputc('\n', f);
	for (i = 0; i < s->nmsg; i++)
		text_message(p, f, p->by_step[i], o->hops);
	if (o->tree) {
		fputs("\ntree:\n", f);
		put_coord(p, f, p->src);
		fputc('\n', f);
		text_tree(p, f, 0, 2);
	}
	for (i = 0; i < s->ndest; i++) {
		if (s->dest[i].step > last)
			last = s->dest[i].step;
	}
	fprintf(f, "\ntotal        %u message%s, %llu hops, at most %u destination%s per message\n",
		s->nmsg, s->nmsg == 1 ? "" : "s", (unsigned long long)p->hops,
		p->maxdests, p->maxdests == 1 ? "" : "s");
	fprintf(f, "receive      average %s %.2f, last %u\n",
		mc_algo_is_path_based(p->algo) ? "phase" : "step",
		avg_receive_step(p), last);
	return ferror(f) ? -1 : 0;
}

/* ---- the command ----------------------------------------------------- */

static void plan_free(struct plan *p, struct plan_opts *o)
{
	free(o->dest);
	free(p->dst);
	free(p->seen);
	free(p->s.order);
	free(p->s.msg);
	free(p->s.dest);
	free(p->nhops);
	free(p->by_step);
	free(p->by_from);
	free(p->from_start);
	free(p->rank);
}

int cmd_plan(int argc, char **argv)
{
	struct plan_opts o = { 0 };
	struct plan p = { 0 };
	int st;

	/*
	 * --algorithm rb (and --topology mesh:...) is plan_rb.c's,
	 * --topology cube:N plan_cube.c's, switch:FILE plan_switch.c's
	 */
	st = cmd_plan_rb(argc, argv);
	if (st >= 0)
		return st;
	st = cmd_plan_cube(argc, argv);
	if (st >= 0)
		return st;
	st = cmd_plan_switch(argc, argv);
	if (st >= 0)
		return st;
	st = parse_opts(&o, argc, argv);
	if (!st)
		st = setup(&p, &o);
	if (!st)
		st = make_plan(&p);
	if (!st)
		st = verify(&p);
	if (!st)
		st = analyse(&p);
	if (!st) {
		int e = o.json ? print_json(&p, stdout) : print_text(&p, &o, stdout);

		if (e || fflush(stdout))
			st = plan_err(MCASTCTL_EINPUT, "cannot write the plan: %s",
				      strerror(errno));
	}
	plan_free(&p, &o);
	return st < 0 ? MCASTCTL_OK : st;
}
