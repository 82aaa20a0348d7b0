// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * mcastctl plan --algorithm rb: the recursion-based broadcast of Zhuang and
 * Liberatore (plan/rb.h) on a mesh or a torus whose sides are powers of two.
 * The whole broadcast is planned by the core's simulation (mc_rb_plan), held
 * against the core's checkers (cover, ports, contention under both dimension
 * orders, the sharper Lemma 6 on a 2D square, the closed-form cost) and
 * against every node's own schedule (mc_rb_node, what a node computes for
 * itself), then printed as text or JSON with the model cost and the choice
 * against the U-torus tree.
 *
 * cmd_plan hands a command line over here when its --algorithm is rb
 * (or rb:...), and when its --topology is mesh:..., a spelling only this
 * file reads: a grid without wrap links, every link full duplex.
 *
 * RB is a broadcast: every node but the source receives the message, so
 * --dest, --dests-file and --random are refused.  It is not a tree either:
 * a node gets pieces from several senders, so --tree prints each node's
 * receive timeline instead.
 */
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"
#include "mcastctl.h"
#include "parse.h"
#include "rb.h"

#define MESH_PREFIX	"mesh:"
#define TORUS_PREFIX	"torus:"

/* The plan, its checks and the per-node schedules are O(N U steps). */
#define RB_MAX_NODES	(1u << 16)
#define RB_DEFAULT_LEN	4096ull
#define RB_MAX_LEN	(1ull << 40)
/* The paper's Fig 4 parameters, Ts = 150 us and Tc = 0.5 us per byte, in ns. */
#define RB_DEFAULT_TS	150000ull
#define RB_DEFAULT_TC	500ull

struct rb_opts {
	const char *topology;
	const char *algorithm;
	const char *port;
	const char *order;
	const char *source;
	const char *length;
	const char *ts;
	const char *tc;
	const char *dests;	/* --dest, --dests-file, --random or --seed */
	const char *other;	/* an option of switch topologies' */
	const char *rbonly;	/* prescan: an option only rb takes */
	bool json, hops, tree;
};

/* One message: the records of one (step, from, to). */
struct rb_msg {
	u64 first;
	u64 count;
	u64 bytes;
	u32 hops;
};

struct rbplan {
	struct mc_torus t;
	bool mesh;
	struct mc_rb rb;
	u32 src;
	u64 len;
	u64 ts, tc;		/* ns, ns per byte */
	struct mc_rb_plan p;
	u64 *ws;		/* mc_rb_plan's */
	u32 *cws;		/* the checkers' */
	bool lemma6;		/* the sharper Lemma 6 applies and passed */
	struct rb_msg *msg;
	u64 nmsg;
	u32 *route;		/* one route's channels */
	u32 *last;		/* per node: the last step (from 1) it receives in */
	u64 *got;		/* per node: bytes received */
	u64 hops, sent;
};

/* ---- options ---------------------------------------------------------- */

enum {
	OPT_SEED = 256, OPT_HOPS, OPT_TREE, OPT_PORT, OPT_ORDER, OPT_LENGTH,
	OPT_TS, OPT_TC, OPT_ROUTE, OPT_COMPARE, OPT_RING_ORDER,
};

#define RB_SHORT_OPTS	":t:a:s:d:f:r:jh"

const struct option rb_long_opts[] = {
	{ "topology", required_argument, NULL, 't' },
	{ "algorithm", required_argument, NULL, 'a' },
	{ "port", required_argument, NULL, OPT_PORT },
	{ "order", required_argument, NULL, OPT_ORDER },
	{ "length", required_argument, NULL, OPT_LENGTH },
	{ "ts", required_argument, NULL, OPT_TS },
	{ "tc", required_argument, NULL, OPT_TC },
	{ "source", required_argument, NULL, 's' },
	{ "json", no_argument, NULL, 'j' },
	{ "hops", no_argument, NULL, OPT_HOPS },
	{ "tree", no_argument, NULL, OPT_TREE },
	{ "help", no_argument, NULL, 'h' },
	/* the other algorithms' own: named, to say why not */
	{ "dest", required_argument, NULL, 'd' },
	{ "dests-file", required_argument, NULL, 'f' },
	{ "random", required_argument, NULL, 'r' },
	{ "seed", required_argument, NULL, OPT_SEED },
	{ "route", required_argument, NULL, OPT_ROUTE },
	{ "compare", required_argument, NULL, OPT_COMPARE },
	/* known, so that the prescan does not move its argument */
	{ "ring-order", required_argument, NULL, OPT_RING_ORDER },
	{ NULL, 0, NULL, 0 },
};

static int check_opts(const struct rb_opts *o, int argc, char **argv)
{
	if (o->other && !strcmp(o->other, "ring-order"))
		return plan_err(MCASTCTL_EUSAGE, "--ring-order needs --algorithm ring (--topology cube:N)");
	if (o->other)
		return plan_err(MCASTCTL_EUSAGE, "--%s needs a switch topology (--topology switch:FILE)",
				o->other);
	if (o->dests)
		return plan_err(MCASTCTL_EUSAGE, "--algorithm rb is a broadcast to every node but the source: --%s cannot be given",
				o->dests);
	if (optind < argc)
		return plan_err(MCASTCTL_EUSAGE, "unexpected argument \"%.64s\" (rb takes no destinations)",
				argv[optind]);
	if (!o->topology)
		return plan_err(MCASTCTL_EUSAGE, "missing --topology (rb: mesh:KxK or torus:KxK:bi)");
	if (!o->source)
		return plan_err(MCASTCTL_EUSAGE, "missing --source");
	return 0;
}

/* One option into @o; an exit status, or -1 when --help was answered. */
static int take_opt(struct rb_opts *o, int c, char **argv)
{
	switch (c) {
	case 't':
		return plan_set_once(rb_long_opts, &o->topology, c);
	case 'a':
		return plan_set_once(rb_long_opts, &o->algorithm, c);
	case OPT_PORT:
		return plan_set_once(rb_long_opts, &o->port, c);
	case OPT_ORDER:
		return plan_set_once(rb_long_opts, &o->order, c);
	case OPT_LENGTH:
		return plan_set_once(rb_long_opts, &o->length, c);
	case OPT_TS:
		return plan_set_once(rb_long_opts, &o->ts, c);
	case OPT_TC:
		return plan_set_once(rb_long_opts, &o->tc, c);
	case 's':
		return plan_set_once(rb_long_opts, &o->source, c);
	case 'j':
		o->json = true;
		return 0;
	case OPT_HOPS:
		o->hops = true;
		return 0;
	case OPT_TREE:
		o->tree = true;
		return 0;
	case 'd':
	case 'f':
	case 'r':
	case OPT_SEED:
		if (!o->dests)
			o->dests = plan_opt_name(rb_long_opts, c);
		return 0;
	case OPT_ROUTE:
	case OPT_COMPARE:
	case OPT_RING_ORDER:
		if (!o->other)
			o->other = plan_opt_name(rb_long_opts, c);
		return 0;
	case 'h':
		cmd_plan_usage(stdout);
		return -1;
	default:
		return plan_bad_option(rb_long_opts, c, argv);
	}
}

static int parse_opts(struct rb_opts *o, int argc, char **argv)
{
	int c, err = 0;

	opterr = 0;
	optind = 0;
	while (!err &&
	       (c = getopt_long(argc, argv, RB_SHORT_OPTS, rb_long_opts,
				NULL)) != -1)
		err = take_opt(o, c, argv);
	return err ? err : check_opts(o, argc, argv);
}

/* The first --topology and --algorithm, and an rb-only option, if any. */
static void prescan(struct rb_opts *o, int argc, char **argv)
{
	int c;

	opterr = 0;
	optind = 0;
	while ((c = getopt_long(argc, argv, RB_SHORT_OPTS, rb_long_opts,
				NULL)) != -1) {
		if (c == 't' && !o->topology)
			o->topology = optarg;
		else if (c == 'a' && !o->algorithm)
			o->algorithm = optarg;
		else if ((c == OPT_ORDER || c == OPT_LENGTH || c == OPT_TS ||
			  c == OPT_TC) && !o->rbonly)
			o->rbonly = plan_opt_name(rb_long_opts, c);
	}
	optind = 0;
}

/* ---- values ----------------------------------------------------------- */

/*
 * Microseconds with at most three decimals ("150", "0.5") into ns, below
 * 2^32 ns as rbcost.c takes them.
 */
static int parse_us(const char *s, u64 *ns)
{
	const char *dot = strchr(s, '.');
	size_t ilen = dot ? (size_t)(dot - s) : strlen(s), i, flen = 0;
	u64 v = 0;

	if (!ilen)
		return -EINVAL;
	for (i = 0; i < ilen; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -EINVAL;
		v = v * 10 + (u64)(s[i] - '0');
		if (v >= 1ull << 32)
			return -ERANGE;
	}
	v *= 1000;
	if (dot) {
		u64 f = 0, scale = 100;

		for (i = 1; dot[i]; i++, flen++) {
			if (dot[i] < '0' || dot[i] > '9' || flen == 3)
				return -EINVAL;
			f += (u64)(dot[i] - '0') * scale;
			scale /= 10;
		}
		if (!flen)
			return -EINVAL;
		v += f;
	}
	if (v >= 1ull << 32)
		return -ERANGE;
	*ns = v;
	return 0;
}

/* "150.000" -> "150", "0.500" -> "0.5": @ns as microseconds. */
static const char *us_str(u64 ns, char *buf, size_t size)
{
	size_t n;

	n = (size_t)snprintf(buf, size, "%llu.%03llu",
			     (unsigned long long)(ns / 1000),
			     (unsigned long long)(ns % 1000));
	while (n > 0 && buf[n - 1] == '0')
		buf[--n] = '\0';
	if (n > 0 && buf[n - 1] == '.')
		buf[--n] = '\0';
	return buf;
}

/* "mesh:8x8" as the torus:8x8:bi it is without its wrap links. */
static int parse_mesh(struct rbplan *p, const char *spec)
{
	const char *rest = spec + strlen(MESH_PREFIX), *why;
	char q[80], err[PARSE_ERR_MAX], *torus;
	size_t size = strlen(rest) + sizeof(TORUS_PREFIX) + 4;
	int e;

	printable(spec, q, sizeof(q));
	if (strchr(rest, ':'))
		return plan_err(MCASTCTL_EINPUT, "topology \"%s\": a mesh's links are full duplex: mesh:K[xK...] takes no :uni or :bi",
				q);
	torus = malloc(size);
	if (!torus)
		return plan_err(MCASTCTL_EINPUT, "out of memory");
	snprintf(torus, size, "%s%s:bi", TORUS_PREFIX, rest);
	e = parse_topology(torus, &p->t, err);
	free(torus);
	if (!e) {
		p->mesh = true;
		return 0;
	}
	/* parse_topology quotes the torus spelling: keep only its reason */
	why = strstr(err, "\": ");
	return plan_err(MCASTCTL_EINPUT, "topology \"%s\": %s", q,
			why ? why + 3 : "expected mesh:K[xK...]");
}

static int parse_torus(struct rbplan *p, const char *spec)
{
	char q[80], err[PARSE_ERR_MAX];
	size_t base;

	if (parse_topology(spec, &p->t, err))
		return plan_err(MCASTCTL_EINPUT, "%s", err);
	if (p->t.links == MC_LINKS_BI)
		return 0;
	printable(spec, q, sizeof(q));
	base = strcspn(spec + strlen(TORUS_PREFIX), ":");
	return plan_err(MCASTCTL_EINPUT, "topology \"%s\": rb needs links both ways on a torus (notes 1.1): write torus:%.*s:bi, or mesh:%.*s",
			q, (int)(base < 48 ? base : 48),
			spec + strlen(TORUS_PREFIX), (int)(base < 48 ? base : 48),
			spec + strlen(TORUS_PREFIX));
}

static int parse_topo(struct rbplan *p, const char *spec)
{
	char q[80];

	if (!strncmp(spec, MESH_PREFIX, strlen(MESH_PREFIX)))
		return parse_mesh(p, spec);
	if (!strncmp(spec, TORUS_PREFIX, strlen(TORUS_PREFIX)))
		return parse_torus(p, spec);
	if (!strncmp(spec, "cube:", 5))
		return plan_err(MCASTCTL_EUSAGE, "--algorithm rb needs a mesh or torus (--topology mesh:KxK or torus:KxK:bi; cube:N is torus:2x...x2:bi)");
	if (!strncmp(spec, "switch:", 7))
		return plan_err(MCASTCTL_EUSAGE, "--algorithm rb needs a mesh or torus (--topology mesh:KxK or torus:KxK:bi)");
	return plan_err(MCASTCTL_EINPUT, "topology \"%s\": expected mesh:K[xK...] or torus:K[xK...]:bi",
			printable(spec, q, sizeof(q)));
}

static int parse_values(const struct rb_opts *o, enum mc_rb_ports *ports,
			enum mc_rb_order *order, struct rbplan *p)
{
	char q[80];
	int e;

	printable(o->algorithm, q, sizeof(q));
	if (strcmp(o->algorithm, "rb"))
		return plan_err(MCASTCTL_EINPUT, "algorithm \"%s\" takes no parameter (the port model is --port one|all)",
				q);
	*ports = MC_RB_ONE_PORT;
	if (o->port && !strcmp(o->port, "all"))
		*ports = MC_RB_ALL_PORT;
	else if (o->port && strcmp(o->port, "one"))
		return plan_err(MCASTCTL_EINPUT, "unknown port model \"%s\" (one or all)",
				printable(o->port, q, sizeof(q)));
	*order = MC_RB_ORDER_RANGES;
	if (o->order && !strcmp(o->order, "paper"))
		*order = MC_RB_ORDER_PAPER;
	else if (o->order && strcmp(o->order, "ranges"))
		return plan_err(MCASTCTL_EINPUT, "unknown stage-1 order \"%s\" (ranges or paper)",
				printable(o->order, q, sizeof(q)));
	p->len = RB_DEFAULT_LEN;
	if (o->length) {
		e = parse_u64(o->length, &p->len);
		if (e || !p->len || p->len > RB_MAX_LEN)
			return plan_err(MCASTCTL_EINPUT, "--length \"%s\": the message's bytes, 1 to %llu",
					printable(o->length, q, sizeof(q)),
					(unsigned long long)RB_MAX_LEN);
	}
	p->ts = RB_DEFAULT_TS;
	p->tc = RB_DEFAULT_TC;
	if (o->ts && parse_us(o->ts, &p->ts))
		return plan_err(MCASTCTL_EINPUT, "--ts \"%s\": microseconds, at most 3 decimals, below 4294967.296",
				printable(o->ts, q, sizeof(q)));
	if (o->tc && parse_us(o->tc, &p->tc))
		return plan_err(MCASTCTL_EINPUT, "--tc \"%s\": microseconds per byte, at most 3 decimals, below 4294967.296",
				printable(o->tc, q, sizeof(q)));
	return 0;
}

static int setup(struct rbplan *p, const struct rb_opts *o)
{
	char q[80], err[PARSE_ERR_MAX];
	enum mc_rb_ports ports = MC_RB_ONE_PORT;
	enum mc_rb_order order = MC_RB_ORDER_RANGES;
	const char *why = NULL;
	int st;

	st = parse_topo(p, o->topology);
	if (!st)
		st = parse_values(o, &ports, &order, p);
	if (st)
		return st;
	printable(o->topology, q, sizeof(q));
	if (mc_rb_init(&p->rb, &p->t, p->mesh, ports, order, &why)) {
		if (p->t.n >= 2 && ports == MC_RB_ALL_PORT &&
		    !mc_rb_init(&p->rb, &p->t, p->mesh, MC_RB_ONE_PORT, order,
				NULL))
			return plan_err(MCASTCTL_EINPUT, "--port all on \"%s\": %s",
					q, why ? why : "not supported");
		return plan_err(MCASTCTL_EINPUT, "--algorithm rb on \"%s\": %s", q,
				why ? why : "not supported");
	}
	if (p->rb.nodes > RB_MAX_NODES)
		return plan_err(MCASTCTL_EINPUT, "--algorithm rb on \"%s\": at most %u nodes here (the plan and its checks take O(nodes x units x steps)), not %u",
				q, RB_MAX_NODES, p->rb.nodes);
	if (parse_coord(&p->t, o->source, &p->src, err)) {
		const char *t = strstr(err, " the torus has ");

		if (t && p->mesh)	/* parse.c speaks of tori */
			return plan_err(MCASTCTL_EINPUT, "--source: %.*s the mesh has %s",
					(int)(t - err), err,
					t + strlen(" the torus has "));
		return plan_err(MCASTCTL_EINPUT, "--source: %s", err);
	}
	return 0;
}

/* ---- planning and checking -------------------------------------------- */

static const char *coord(const struct rbplan *p, u32 node)
{
	static char buf[4][COORD_STR_MAX];
	static unsigned int slot;

	return format_coord(&p->t, node, true, buf[slot++ & 3]);
}

/* The node, dimension and direction of channel @c (MC_RB_CHAN). */
static void chan_parts(const struct rbplan *p, u32 c, u32 *node, u32 *dim,
		       int *dir)
{
	*dir = c & 1 ? 1 : -1;
	*dim = c / 2 % p->rb.d;
	*node = c / 2 / p->rb.d;
}

static int checker_failed(const struct rbplan *p, const char *which,
			  int err, const struct mc_rb_check_result *res)
{
	char detail[192] = "";
	size_t k = 0;
	u32 node, dim;
	int dir;

	k += snprintf(detail + k, sizeof(detail) - k, " (error %d)", err);
	if (res->what && res->step < p->rb.steps)
		k += snprintf(detail + k, sizeof(detail) - k, " step %u",
			      res->step + 1);
	if (res->xfer_a != U64_MAX && k < sizeof(detail))
		k += snprintf(detail + k, sizeof(detail) - k, " record %llu",
			      (unsigned long long)res->xfer_a);
	if (res->xfer_b != U64_MAX && k < sizeof(detail))
		k += snprintf(detail + k, sizeof(detail) - k, " record %llu",
			      (unsigned long long)res->xfer_b);
	if (res->node < p->rb.nodes && k < sizeof(detail))
		k += snprintf(detail + k, sizeof(detail) - k, " node %s",
			      coord(p, res->node));
	if (res->chan != MC_NO_NODE && res->chan < mc_rb_nchans(&p->rb) &&
	    k < sizeof(detail)) {
		chan_parts(p, res->chan, &node, &dim, &dir);
		snprintf(detail + k, sizeof(detail) - k,
			 " channel %s dim %u %+d", coord(p, node), dim, dir);
	}
	return plan_err(MCASTCTL_EINTERNAL, "internal error: the %s checker rejected the plan: %s%s",
			which, res->what ? res->what : "failed", detail);
}

/* Size, allocate, plan: the count protocol of mc_rb_plan. */
static int make_plan(struct rbplan *p)
{
	u64 words = mc_rb_plan_ws_words(&p->rb);
	int rc;

	p->ws = calloc(words + 1, sizeof(*p->ws));
	if (!p->ws)
		return plan_err(MCASTCTL_EINPUT, "out of memory");
	p->p.x = NULL;
	p->p.cap = 0;
	rc = mc_rb_plan(&p->p, &p->rb, p->src, p->len, p->ws);
	if (rc && rc != -ENOSPC)
		return plan_err(MCASTCTL_EINTERNAL, "internal error: cannot plan (error %d)",
				rc);
	p->p.cap = p->p.n;
	p->p.x = calloc(p->p.cap + 1, sizeof(*p->p.x));
	if (!p->p.x)
		return plan_err(MCASTCTL_EINPUT, "out of memory");
	rc = mc_rb_plan(&p->p, &p->rb, p->src, p->len, p->ws);
	if (rc)
		return plan_err(MCASTCTL_EINTERNAL, "internal error: cannot plan (error %d)",
				rc);
	return 0;
}

/* Field by field: the struct has padding. */
static bool same_xfer(const struct mc_rb_xfer *a, const struct mc_rb_xfer *b)
{
	return a->step == b->step && a->from == b->from && a->to == b->to &&
	       a->off == b->off && a->len == b->len;
}

/*
 * What the kernel computes on each node, mc_rb_node, must be that node's
 * part of the whole plan: the plan's records that it sends or receives,
 * in the plan's order.
 */
static int check_nodes(struct rbplan *p)
{
	const struct mc_rb_plan *pl = &p->p;
	u64 *start = NULL, *idx = NULL, i, j, most = 0, count;
	struct mc_rb_xfer *mine = NULL;
	u8 *ws = NULL;
	u32 u;
	int rc, st = 0;

	start = calloc((size_t)p->rb.nodes + 2, sizeof(*start));
	idx = calloc(2 * pl->n + 1, sizeof(*idx));
	ws = calloc(mc_rb_node_ws_bytes(&p->rb) + 1, 1);
	if (!start || !idx || !ws) {
		st = plan_err(MCASTCTL_EINPUT, "out of memory");
		goto out;
	}
	for (i = 0; i < pl->n; i++) {
		start[pl->x[i].from + 2]++;
		start[pl->x[i].to + 2]++;
	}
	for (u = 0; u < p->rb.nodes; u++) {
		if (start[u + 2] > most)
			most = start[u + 2];
		start[u + 2] += start[u + 1];
	}
	for (i = 0; i < pl->n; i++) {
		idx[start[pl->x[i].from + 1]++] = i;
		idx[start[pl->x[i].to + 1]++] = i;
	}
	mine = calloc(most + 1, sizeof(*mine));
	if (!mine) {
		st = plan_err(MCASTCTL_EINPUT, "out of memory");
		goto out;
	}
	for (u = 0; u < p->rb.nodes && !st; u++) {
		rc = mc_rb_node(&p->rb, p->src, u, p->len, ws, mine, most + 1,
				&count);
		if (rc || count != start[u + 1] - start[u]) {
			st = plan_err(MCASTCTL_EINTERNAL, "internal error: node %s computes %llu records of its own (error %d), the plan gives it %llu",
				      coord(p, u), (unsigned long long)count, rc,
				      (unsigned long long)(start[u + 1] - start[u]));
			break;
		}
		for (j = 0; j < count; j++) {
			if (same_xfer(&mine[j], &pl->x[idx[start[u] + j]]))
				continue;
			st = plan_err(MCASTCTL_EINTERNAL, "internal error: node %s's own schedule differs from the plan at its record %llu (step %u)",
				      coord(p, u), (unsigned long long)j,
				      mine[j].step + 1);
			break;
		}
	}
out:
	free(start);
	free(idx);
	free(ws);
	free(mine);
	return st;
}

/* Every checker; any failure is a bug (exit 3), and nothing is printed. */
static int verify(struct rbplan *p)
{
	static const enum mc_rb_route routes[] = {
		MC_RB_ROUTE_DOR, MC_RB_ROUTE_XY,
	};
	struct mc_rb_check_result res;
	unsigned int r;
	int rc;

	p->cws = calloc(mc_rb_check_ws_words(&p->rb) + 1, sizeof(*p->cws));
	if (!p->cws)
		return plan_err(MCASTCTL_EINPUT, "out of memory");
	rc = mc_rb_check_cover(&p->p, p->cws, &res);
	if (rc || res.what)
		return checker_failed(p, "cover", rc, &res);
	for (r = 0; r < sizeof(routes) / sizeof(routes[0]); r++) {
		rc = mc_rb_check_ports(&p->p, routes[r], p->cws, &res);
		if (rc || res.what)
			return checker_failed(p, "ports", rc, &res);
		rc = mc_rb_check_contention(&p->p, routes[r], p->cws, &res);
		if (rc || res.what)
			return checker_failed(p, "contention", rc, &res);
	}
	if (p->rb.shape == MC_RB_CUBE && p->rb.d == 2 &&
	    p->rb.ports == MC_RB_ONE_PORT) {
		rc = mc_rb_check_lemma6(&p->p, p->cws, &res);
		if (rc || res.what)
			return checker_failed(p, "Lemma 6", rc, &res);
		p->lemma6 = true;
	}
	rc = mc_rb_check_cost(&p->p, &res);
	if (rc || res.what)
		return checker_failed(p, "cost", rc, &res);
	return check_nodes(p);
}

/* Messages, their hops, and what each node receives when. */
static int analyse(struct rbplan *p)
{
	const struct mc_rb_plan *pl = &p->p;
	const struct mc_rb_xfer *x;
	struct rb_msg *m;
	u64 i;
	int h;

	p->msg = calloc(pl->n + 1, sizeof(*p->msg));
	p->route = calloc(mc_rb_route_max(&p->rb) + 1, sizeof(*p->route));
	p->last = calloc(p->rb.nodes, sizeof(*p->last));
	p->got = calloc(p->rb.nodes, sizeof(*p->got));
	if (!p->msg || !p->route || !p->last || !p->got)
		return plan_err(MCASTCTL_EINPUT, "out of memory");
	for (i = 0; i < pl->n; i++) {
		x = &pl->x[i];
		m = &p->msg[p->nmsg ? p->nmsg - 1 : 0];
		if (!p->nmsg || x->step != pl->x[m->first].step ||
		    x->from != pl->x[m->first].from ||
		    x->to != pl->x[m->first].to) {
			m = &p->msg[p->nmsg++];
			m->first = i;
			h = mc_rb_route(&p->rb, MC_RB_ROUTE_DOR, x->from, x->to,
					p->route, mc_rb_route_max(&p->rb));
			if (h <= 0)
				return plan_err(MCASTCTL_EINTERNAL, "internal error: no route from %s to %s",
						coord(p, x->from), coord(p, x->to));
			m->hops = (u32)h;
			p->hops += (u32)h;
		}
		m->count++;
		m->bytes += x->len;
		p->sent += x->len;
		p->got[x->to] += x->len;
		if (x->step + 1 > p->last[x->to])
			p->last[x->to] = x->step + 1;
	}
	return 0;
}

/* ---- shared by the printers ------------------------------------------- */

static const char *port_name(const struct rbplan *p)
{
	return p->rb.ports == MC_RB_ALL_PORT ? "all" : "one";
}

static const char *order_name(const struct rbplan *p)
{
	return p->rb.order == MC_RB_ORDER_PAPER ? "paper" : "ranges";
}

/* The routing the hops and the DOR checks follow (rb.h). */
static const char *routing(const struct rbplan *p)
{
	return p->mesh ? "DOR" : "BTR";
}

static double avg_complete(const struct rbplan *p)
{
	u64 sum = 0;
	u32 u;

	for (u = 0; u < p->rb.nodes; u++)
		if (u != p->src)
			sum += p->last[u];
	return p->rb.nodes > 1 ? (double)sum / (p->rb.nodes - 1) : 0;
}

/* The next node of a route, from its channel. */
static u32 hop_to(const struct rbplan *p, u32 c)
{
	u32 node, dim;
	int dir;

	chan_parts(p, c, &node, &dim, &dir);
	return mc_neighbour(&p->t, node, dim, dir);
}

struct costs {
	struct mc_rb_cost rb, ut;
	u64 t_rb, t_ut;		/* ns */
	u64 cross;		/* U64_MAX: RB never wins */
	bool pick;
	u32 plan_alpha;
	u64 plan_bytes;
};

static void costs(const struct rbplan *p, struct costs *c)
{
	mc_rb_formula(&p->rb, &c->rb);
	mc_rb_utorus_cost(&p->rb, &c->ut);
	c->t_rb = mc_rb_time(&c->rb, p->len, p->ts, p->tc);
	c->t_ut = mc_rb_time(&c->ut, p->len, p->ts, p->tc);
	c->cross = mc_rb_crossover(&p->rb, p->ts, p->tc);
	c->pick = mc_rb_pick(&p->rb, p->len, p->ts, p->tc);
	mc_rb_plan_cost(&p->p, &c->plan_alpha, &c->plan_bytes);
}

/* "9/4 (2.25)", "2": a fraction beta. */
static const char *beta_str(const struct mc_rb_cost *c, char *buf, size_t n)
{
	if (c->beta_den == 1)
		snprintf(buf, n, "%llu", (unsigned long long)c->beta_num);
	else
		snprintf(buf, n, "%llu/%llu (%.6g)",
			 (unsigned long long)c->beta_num,
			 (unsigned long long)c->beta_den,
			 (double)c->beta_num / (double)c->beta_den);
	return buf;
}

/* ---- JSON ------------------------------------------------------------- */

static void json_coord(struct json *j, const struct rbplan *p, u32 node)
{
	u16 sigma[MC_MAX_DIMS];
	int i;

	mc_node_coords(&p->t, node, sigma);
	json_arr_begin(j);
	for (i = p->t.n - 1; i >= 0; i--)
		json_uint(j, sigma[i]);
	json_arr_end(j);
}

static void json_transfer(struct json *j, const struct rbplan *p,
			  const struct rb_msg *m)
{
	const struct mc_rb_xfer *x = &p->p.x[m->first];
	u32 cur = x->from, k;
	u64 i;
	int h;

	json_obj_begin(j);
	json_key_uint(j, "step", x->step + 1);
	json_key(j, "from");
	json_coord(j, p, x->from);
	json_key(j, "to");
	json_coord(j, p, x->to);
	json_key_uint(j, "hops", m->hops);
	json_key_uint(j, "bytes", m->bytes);
	json_key(j, "ranges");
	json_arr_begin(j);
	for (i = m->first; i < m->first + m->count; i++) {
		json_arr_begin(j);
		json_uint(j, p->p.x[i].off);
		json_uint(j, p->p.x[i].off + p->p.x[i].len);
		json_arr_end(j);
	}
	json_arr_end(j);
	json_key(j, "route");
	json_arr_begin(j);
	json_coord(j, p, cur);
	h = mc_rb_route(&p->rb, MC_RB_ROUTE_DOR, x->from, x->to, p->route,
			mc_rb_route_max(&p->rb));
	for (k = 0; h > 0 && k < (u32)h; k++)
		json_coord(j, p, hop_to(p, p->route[k]));
	json_arr_end(j);
	json_obj_end(j);
}

static void json_topology(struct json *j, const struct rbplan *p)
{
	int d;

	json_key(j, "topology");
	json_obj_begin(j);
	json_key_str(j, "kind", p->mesh ? "mesh" : "torus");
	json_key(j, "dims");
	json_arr_begin(j);
	for (d = p->t.n - 1; d >= 0; d--)
		json_uint(j, p->t.k[d]);
	json_arr_end(j);
	json_key_str(j, "links", "bi");
	json_key_uint(j, "nodes", p->t.nodes);
	json_obj_end(j);
}

static void json_cost(struct json *j, const struct rbplan *p)
{
	struct costs c;

	costs(p, &c);
	json_key(j, "cost");
	json_obj_begin(j);
	json_key_uint(j, "length", p->len);
	json_key_uint(j, "ts_ns", p->ts);
	json_key_uint(j, "tc_ns_per_byte", p->tc);
	json_key(j, "rb");
	json_obj_begin(j);
	json_key_uint(j, "alpha", c.rb.alpha);
	json_key_uint(j, "beta_num", c.rb.beta_num);
	json_key_uint(j, "beta_den", c.rb.beta_den);
	json_key_uint(j, "time_ns", c.t_rb);
	json_key_uint(j, "plan_steps", c.plan_alpha);
	json_key_uint(j, "plan_bytes", c.plan_bytes);
	json_obj_end(j);
	json_key(j, "u_torus");
	json_obj_begin(j);
	json_key_uint(j, "alpha", c.ut.alpha);
	json_key_uint(j, "beta_num", c.ut.beta_num);
	json_key_uint(j, "beta_den", c.ut.beta_den);
	json_key_uint(j, "time_ns", c.t_ut);
	json_obj_end(j);
	json_key(j, "crossover");
	if (c.cross == U64_MAX)
		json_null(j);
	else
		json_uint(j, c.cross);
	json_key_str(j, "choice", c.pick ? "rb" : "u-torus");
	json_obj_end(j);
}

static int print_json(const struct rbplan *p, FILE *f)
{
	struct json j;
	u64 i;
	u32 u;

	json_init(&j, f);
	json_obj_begin(&j);
	json_topology(&j, p);
	json_key_str(&j, "algorithm", "rb");
	json_key_str(&j, "port", port_name(p));
	json_key_str(&j, "order", order_name(p));
	json_key_str(&j, "routing", routing(p));
	json_key(&j, "source");
	json_coord(&j, p, p->src);
	json_key_uint(&j, "length", p->len);
	json_key_uint(&j, "streams", p->rb.streams);
	json_key_uint(&j, "units", mc_rb_units(&p->rb));
	json_key_uint(&j, "steps", p->rb.steps);
	json_key_uint(&j, "stage1_steps", p->rb.splits);
	json_key(&j, "transfers");
	json_arr_begin(&j);
	for (i = 0; i < p->nmsg; i++)
		json_transfer(&j, p, &p->msg[i]);
	json_arr_end(&j);
	json_key(&j, "nodes");
	json_arr_begin(&j);
	for (u = 0; u < p->rb.nodes; u++) {
		json_obj_begin(&j);
		json_key(&j, "node");
		json_coord(&j, p, u);
		json_key_uint(&j, "received", p->got[u]);
		json_key_uint(&j, "complete", u == p->src ? 0 : p->last[u]);
		json_obj_end(&j);
	}
	json_arr_end(&j);
	json_key(&j, "stats");
	json_obj_begin(&j);
	json_key_uint(&j, "transfers", p->nmsg);
	json_key_uint(&j, "records", p->p.n);
	json_key_uint(&j, "hops", p->hops);
	json_key_uint(&j, "bytes", p->sent);
	json_key(&j, "avg_complete_step");
	json_double(&j, avg_complete(p));
	json_obj_end(&j);
	json_key(&j, "checks");
	json_obj_begin(&j);
	json_key_str(&j, "cover", "pass");
	json_key_str(&j, "ports", "pass");
	json_key_str(&j, "contention", "pass");
	json_key_str(&j, "lemma6", p->lemma6 ? "pass" : "n/a");
	json_key_str(&j, "cost", "pass");
	json_key_str(&j, "node_schedules", "pass");
	json_obj_end(&j);
	json_cost(&j, p);
	json_key_bool(&j, "verified", true);
	json_obj_end(&j);
	return json_finish(&j);
}

/* ---- text ------------------------------------------------------------- */

static void text_header(const struct rbplan *p, FILE *f)
{
	u64 P = mc_rb_positions(&p->rb), q = p->len / P;
	struct mc_rb_cost ut;
	int d;

	fprintf(f, "topology     %s ", p->mesh ? "mesh" : "torus");
	for (d = p->t.n - 1; d >= 0; d--)
		fprintf(f, d ? "%ux" : "%u", p->t.k[d]);
	fprintf(f, ", %s links, %u nodes\n",
		p->mesh ? "full-duplex" : "bidirectional", p->t.nodes);
	fprintf(f, "algorithm    rb, %s-port, stage-1 order %s, routing %s\n",
		port_name(p), order_name(p), routing(p));
	fprintf(f, "source       %s\n", coord(p, p->src));
	fprintf(f, "message      %llu bytes: ", (unsigned long long)p->len);
	if (p->rb.streams > 1)
		fprintf(f, "%u streams of ", p->rb.streams);
	fprintf(f, "%u units, ", mc_rb_units(&p->rb));
	if (p->len % P)
		fprintf(f, "%llu or %llu bytes each\n", (unsigned long long)q,
			(unsigned long long)q + 1);
	else
		fprintf(f, "%llu byte%s each\n", (unsigned long long)q,
			q == 1 ? "" : "s");
	mc_rb_utorus_cost(&p->rb, &ut);
	fprintf(f, "steps        %u (stage 1: %u; u-torus %u)\n", p->rb.steps,
		p->rb.splits, ut.alpha);
	fprintf(f, "verified     cover, ports, contention (DOR and XY routes)%s, cost, node schedules\n",
		p->lemma6 ? ", Lemma 6" : "");
}

/* "[0,1024)+[2048,3072)" */
static void put_ranges(const struct rbplan *p, FILE *f,
		       const struct rb_msg *m)
{
	u64 i;

	for (i = m->first; i < m->first + m->count; i++)
		fprintf(f, "%s[%llu,%llu)", i == m->first ? "" : "+",
			(unsigned long long)p->p.x[i].off,
			(unsigned long long)(p->p.x[i].off + p->p.x[i].len));
}

/* "step 1: (0,0) -> (2,2)  bytes [2048,4096)  [4 hops]" */
static void text_transfer(const struct rbplan *p, FILE *f,
			  const struct rb_msg *m, bool hops)
{
	const struct mc_rb_xfer *x = &p->p.x[m->first];
	int h, k;

	fprintf(f, "step %u: %s -> %s  bytes ", x->step + 1,
		coord(p, x->from), coord(p, x->to));
	put_ranges(p, f, m);
	fprintf(f, "  [%u hop%s]\n", m->hops, m->hops == 1 ? "" : "s");
	if (!hops)
		return;
	h = mc_rb_route(&p->rb, MC_RB_ROUTE_DOR, x->from, x->to, p->route,
			mc_rb_route_max(&p->rb));
	fprintf(f, "        %s", coord(p, x->from));
	for (k = 0; k < h; k++)
		fprintf(f, " -> %s", coord(p, hop_to(p, p->route[k])));
	fputc('\n', f);
}

/*
 * RB is not a tree: --tree prints, for each node, the steps it receives
 * in, from whom and which bytes, then when it holds the whole message.
 */
static void text_timeline(const struct rbplan *p, FILE *f)
{
	/* per receiver, its messages in plan (step) order: 1-based links */
	u64 *first = calloc((size_t)p->rb.nodes + 1, sizeof(*first));
	u64 *tail = calloc((size_t)p->rb.nodes + 1, sizeof(*tail));
	u64 *next = calloc(p->nmsg + 1, sizeof(*next));
	u64 i;
	u32 u;

	if (!first || !tail || !next) {
		fputs("\n(no memory for the receive timeline)\n", f);
		goto out;
	}
	for (i = 0; i < p->nmsg; i++) {
		u = p->p.x[p->msg[i].first].to;
		if (tail[u])
			next[tail[u] - 1] = i + 1;
		else
			first[u] = i + 1;
		tail[u] = i + 1;
	}
	fputs("\nreceive timeline (rb is not a tree: each node gets pieces from several senders):\n",
	      f);
	for (u = 0; u < p->rb.nodes; u++) {
		fputs(coord(p, u), f);
		for (i = first[u]; i; i = next[i - 1]) {
			const struct rb_msg *m = &p->msg[i - 1];
			const struct mc_rb_xfer *x = &p->p.x[m->first];

			fprintf(f, "  %u<-%s ", x->step + 1, coord(p, x->from));
			put_ranges(p, f, m);
		}
		if (u == p->src)
			fputs("  (the source)\n", f);
		else
			fprintf(f, "  whole after step %u\n", p->last[u]);
	}
out:
	free(first);
	free(tail);
	free(next);
}

static void text_cost(const struct rbplan *p, FILE *f)
{
	char a[32], b[32], t1[32], t2[32], ts[32], tc[32];
	struct costs c;

	costs(p, &c);
	fprintf(f, "cost         rb       alpha %u, beta %s: %s us (plan: %u steps, %llu bytes in the largest messages)\n",
		c.rb.alpha, beta_str(&c.rb, a, sizeof(a)),
		us_str(c.t_rb, t1, sizeof(t1)), c.plan_alpha,
		(unsigned long long)c.plan_bytes);
	fprintf(f, "             u-torus  alpha %u, beta %s: %s us\n",
		c.ut.alpha, beta_str(&c.ut, b, sizeof(b)),
		us_str(c.t_ut, t2, sizeof(t2)));
	us_str(p->ts, ts, sizeof(ts));
	us_str(p->tc, tc, sizeof(tc));
	if (c.cross == U64_MAX)
		fprintf(f, "choice       u-torus (rb never wins at Ts %s us, Tc %s us/byte)\n",
			ts, tc);
	else
		fprintf(f, "choice       %s (the rule takes rb from %llu bytes at Ts %s us, Tc %s us/byte)\n",
			c.pick ? "rb" : "u-torus",
			(unsigned long long)c.cross, ts, tc);
}

static int print_text(const struct rbplan *p, const struct rb_opts *o,
		      FILE *f)
{
	u64 i;

	text_header(p, f);
	fputc('\n', f);
	for (i = 0; i < p->nmsg; i++)
		text_transfer(p, f, &p->msg[i], o->hops);
	if (o->tree)
		text_timeline(p, f);
	fprintf(f, "\ntotal        %llu message%s, %llu hops, %llu bytes sent\n",
		(unsigned long long)p->nmsg, p->nmsg == 1 ? "" : "s",
		(unsigned long long)p->hops, (unsigned long long)p->sent);
	fprintf(f, "receive      every node ends with all %llu bytes; complete: average step %.2f, last %u\n",
		(unsigned long long)p->len, avg_complete(p), p->rb.steps);
	text_cost(p, f);
	return ferror(f) ? -1 : 0;
}

/* ---- the command ------------------------------------------------------ */

static void rbplan_free(struct rbplan *p)
{
	free(p->ws);
	free(p->cws);
	free(p->p.x);
	free(p->msg);
	free(p->route);
	free(p->last);
	free(p->got);
}

static int plan_rb(int argc, char **argv)
{
	struct rb_opts o = { 0 };
	struct rbplan p;
	int st;

	memset(&p, 0, sizeof(p));
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
		int e = o.json ? print_json(&p, stdout) :
				 print_text(&p, &o, stdout);

		if (e || fflush(stdout))
			st = plan_err(MCASTCTL_EINPUT, "cannot write the plan: %s",
				      strerror(errno));
	}
	rbplan_free(&p);
	return st < 0 ? MCASTCTL_OK : st;
}

static bool is_rb(const char *a)
{
	return !strcmp(a, "rb") || !strncmp(a, "rb:", 3);
}

int cmd_plan_rb(int argc, char **argv)
{
	struct rb_opts pre = { 0 };
	char q[80], q2[80];

	prescan(&pre, argc, argv);
	if (pre.algorithm && is_rb(pre.algorithm))
		return plan_rb(argc, argv);
	if (pre.topology &&
	    !strncmp(pre.topology, MESH_PREFIX, strlen(MESH_PREFIX))) {
		if (!pre.algorithm)
			return plan_err(MCASTCTL_EUSAGE, "missing --algorithm (a mesh takes rb)");
		return plan_err(MCASTCTL_EINPUT, "topology \"%s\": a mesh takes only --algorithm rb (%s needs a torus)",
				printable(pre.topology, q, sizeof(q)),
				printable(pre.algorithm, q2, sizeof(q2)));
	}
	if (pre.rbonly && pre.topology && pre.algorithm)
		return plan_err(MCASTCTL_EUSAGE, "--%s needs --algorithm rb",
				pre.rbonly);
	return -1;
}
