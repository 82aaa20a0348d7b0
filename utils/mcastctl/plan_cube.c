// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * mcastctl plan --topology cube:N: Robinson (1994), chapter 3, unicast-based
 * multicast on an all-port binary n-cube over E-cube routing (U-cube,
 * Maxport, Combine, W-sort; plan/cube.h), held against the core's four
 * checkers, then printed as text or JSON.  --algorithm ring is Lin and Chen's
 * (1996) group-multicast ring (plan/ring.h): the members (--source, if given,
 * and the destinations) linked into a ring of pairwise link-disjoint
 * E-cube paths, held against the ring checker; --ring-order checks a
 * ring the user gives and counts its shared links (Corollary 1).
 *
 * cmd_plan hands a command line over here when its --topology starts with
 * "cube:".  Nodes are n-bit addresses written highest bit first ("0101").
 */
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "cube.h"
#include "json.h"
#include "ring.h"
#include "mcastctl.h"
#include "parse.h"

#define CUBE_PREFIX	"cube:"
#define RING_NAME	"ring"
/* The merge is O(m^2): 2^16 members is some 2 * 10^9 pair evaluations. */
#define RING_MAX_MEMBERS	65536u

struct cube_opts {
	const char *topology;
	const char *algorithm;
	const char *port;
	const char *source;
	const char **dest;	/* --dest arguments: an address or a comma list */
	u32 ndest;
	const char *dests_file;
	const char *random;
	const char *seed;
	const char *ring_order;	/* --ring-order: a comma list */
	const char *other;	/* an option of another topology's */
	bool json, hops, tree;
};

struct cubeplan {
	u32 n;
	enum mc_cube_algo algo;
	enum mc_cube_port port;
	u32 src;
	u32 *dst;		/* in the order given */
	u32 ndst, cap;
	u8 *seen;		/* node -> a destination already */
	struct mc_cube_schedule s;
	u64 *ws;		/* the checkers' scratch, 8-byte aligned */
	u32 *by_step;		/* send indices, stable-sorted by step */
	/* --algorithm ring: src is MC_NO_NODE without --source */
	bool ring;
	struct mc_ring r;	/* members (sorted), succ, merges */
	u32 *order;		/* the ring from its smallest member */
	u32 *rgc;		/* the members in RGC ring order */
	struct mc_ring_stats st;
	u32 *given;		/* --ring-order, as given */
	u32 ngiven;
	struct mc_ring_stats gst;
	u64 gconflicts;		/* its shared links (Corollary 1) */
	struct mc_ring_check_result gres;
};

#define SEEN_MEMBER	1	/* cubeplan.seen: a destination or member */
#define SEEN_GIVEN	2	/* listed by --ring-order */

/* ---- options ---------------------------------------------------------- */

enum {
	OPT_SEED = 256, OPT_HOPS, OPT_TREE, OPT_PORT, OPT_ROUTE, OPT_COMPARE,
	OPT_RING_ORDER,
};

#define CUBE_SHORT_OPTS	":t:a:s:d:f:r:jh"

const struct option cube_long_opts[] = {
	{ "topology", required_argument, NULL, 't' },
	{ "algorithm", required_argument, NULL, 'a' },
	{ "port", required_argument, NULL, OPT_PORT },
	{ "source", required_argument, NULL, 's' },
	{ "dest", required_argument, NULL, 'd' },
	{ "dests-file", required_argument, NULL, 'f' },
	{ "random", required_argument, NULL, 'r' },
	{ "seed", required_argument, NULL, OPT_SEED },
	{ "json", no_argument, NULL, 'j' },
	{ "hops", no_argument, NULL, OPT_HOPS },
	{ "tree", no_argument, NULL, OPT_TREE },
	{ "ring-order", required_argument, NULL, OPT_RING_ORDER },
	{ "help", no_argument, NULL, 'h' },
	/* switch topologies' own: named, to say so */
	{ "route", required_argument, NULL, OPT_ROUTE },
	{ "compare", required_argument, NULL, OPT_COMPARE },
	{ NULL, 0, NULL, 0 },
};

static bool is_ring(const char *algorithm)
{
	return algorithm && !strcmp(algorithm, RING_NAME);
}

/* A ring has members, no source of its own: --source is one more. */
static int check_ring_opts(const struct cube_opts *o, int sources)
{
	if (o->port)
		return plan_err(MCASTCTL_EUSAGE, "--port does not apply to --algorithm ring (every member sends on one path and receives on one)");
	if (o->tree)
		return plan_err(MCASTCTL_EUSAGE, "--tree does not apply to --algorithm ring (--hops shows its merges)");
	if (sources > 1)
		return plan_err(MCASTCTL_EUSAGE, "give only one of --dest, --dests-file and --random");
	if (sources == 0 && !o->ring_order && !o->source)
		return plan_err(MCASTCTL_EUSAGE, "no members: give --dest, --dests-file, --random or --ring-order");
	if (o->seed && !o->random)
		return plan_err(MCASTCTL_EUSAGE, "--seed needs --random");
	return 0;
}

static int check_opts(const struct cube_opts *o, int argc, char **argv)
{
	int sources = (o->ndest > 0) + !!o->dests_file + !!o->random;

	if (o->other)
		return plan_err(MCASTCTL_EUSAGE, "--%s needs a switch topology (--topology switch:FILE)",
				o->other);
	if (optind < argc)
		return plan_err(MCASTCTL_EUSAGE, "unexpected argument \"%.64s\" (one address or comma list per --dest)",
				argv[optind]);
	if (!o->algorithm)
		return plan_err(MCASTCTL_EUSAGE, "missing --algorithm (u-cube, maxport, combine, w-sort or ring)");
	if (is_ring(o->algorithm))
		return check_ring_opts(o, sources);
	if (o->ring_order)
		return plan_err(MCASTCTL_EUSAGE, "--ring-order needs --algorithm ring");
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
static int take_opt(struct cube_opts *o, int c, char **argv)
{
	switch (c) {
	case 't':
		return plan_set_once(cube_long_opts, &o->topology, c);
	case 'a':
		return plan_set_once(cube_long_opts, &o->algorithm, c);
	case OPT_PORT:
		return plan_set_once(cube_long_opts, &o->port, c);
	case 's':
		return plan_set_once(cube_long_opts, &o->source, c);
	case 'd':
		o->dest[o->ndest++] = optarg;
		return 0;
	case 'f':
		return plan_set_once(cube_long_opts, &o->dests_file, c);
	case 'r':
		return plan_set_once(cube_long_opts, &o->random, c);
	case OPT_SEED:
		return plan_set_once(cube_long_opts, &o->seed, c);
	case 'j':
		o->json = true;
		return 0;
	case OPT_HOPS:
		o->hops = true;
		return 0;
	case OPT_TREE:
		o->tree = true;
		return 0;
	case OPT_RING_ORDER:
		return plan_set_once(cube_long_opts, &o->ring_order, c);
	case OPT_ROUTE:
	case OPT_COMPARE:
		if (!o->other)
			o->other = plan_opt_name(cube_long_opts, c);
		return 0;
	case 'h':
		cmd_plan_usage(stdout);
		return -1;
	default:
		return plan_bad_option(cube_long_opts, c, argv);
	}
}

static int parse_opts(struct cube_opts *o, int argc, char **argv)
{
	int c, err = 0;

	o->dest = calloc(argc, sizeof(*o->dest));
	if (!o->dest)
		return plan_err(MCASTCTL_EINPUT, "out of memory");
	opterr = 0;
	optind = 0;
	while (!err &&
	       (c = getopt_long(argc, argv, CUBE_SHORT_OPTS, cube_long_opts,
				NULL)) != -1)
		err = take_opt(o, c, argv);
	return err ? err : check_opts(o, argc, argv);
}

/* The first --topology and --algorithm, by getopt's own rules. */
static void prescan(struct cube_opts *o, int argc, char **argv)
{
	int c;

	opterr = 0;
	optind = 0;
	while ((c = getopt_long(argc, argv, CUBE_SHORT_OPTS, cube_long_opts,
				NULL)) != -1) {
		if (c == 't' && !o->topology)
			o->topology = optarg;
		else if (c == 'a' && !o->algorithm)
			o->algorithm = optarg;
	}
	optind = 0;
}

/* ---- addresses -------------------------------------------------------- */

/* N binary digits, highest first, into *@v; @where starts messages. */
static int parse_addr(const struct cubeplan *p, const char *s, u32 *v,
		      const char *where)
{
	char q[80];
	u32 i, x = 0;

	for (i = 0; s[i] == '0' || s[i] == '1'; i++)
		x = x << 1 | (s[i] - '0');
	if (i == p->n && !s[i]) {
		*v = x;
		return 0;
	}
	return plan_err(MCASTCTL_EINPUT, "%s\"%s\" is not a node of cube:%u (%u binary digits, highest bit first)",
			where, printable(s, q, sizeof(q)), p->n, p->n);
}

static const char *addr(const struct cubeplan *p, u32 v)
{
	static char buf[8][MC_CUBE_MAX_DIM + 1];
	static unsigned int slot;
	char *b = buf[slot++ & 7];
	u32 i;

	for (i = 0; i < p->n; i++)
		b[i] = (v >> (p->n - 1 - i)) & 1 ? '1' : '0';
	b[p->n] = '\0';
	return b;
}

/* Room for @more entries in p->dst past p->ndst. */
static int dst_room(struct cubeplan *p, u32 more)
{
	u32 cap = p->cap ? p->cap : 64, *d;

	while (cap - p->ndst < more)
		cap *= 2;
	if (cap == p->cap)
		return 0;
	d = realloc(p->dst, (size_t)cap * sizeof(*d));
	if (!d)
		return plan_err(MCASTCTL_EINPUT, "out of memory");
	p->dst = d;
	p->cap = cap;
	return 0;
}

static int add_dest(struct cubeplan *p, u32 v, const char *where)
{
	int st;

	if (p->ring && (p->seen[v] & SEEN_MEMBER))
		return plan_err(MCASTCTL_EINPUT, "%smember %s given twice", where,
				addr(p, v));
	if (v == p->src)
		return plan_err(MCASTCTL_EINPUT, "%sdestination %s is the source",
				where, addr(p, v));
	if (p->seen[v])
		return plan_err(MCASTCTL_EINPUT, "%sdestination %s given twice",
				where, addr(p, v));
	st = dst_room(p, 1);
	if (st)
		return st;
	p->seen[v] |= SEEN_MEMBER;
	p->dst[p->ndst++] = v;
	return 0;
}

/* "0101" or "0101,1110", blanks around each allowed; @list is cut up. */
static int add_list(struct cubeplan *p, char *list, const char *where)
{
	char *item = list, *comma, *end;
	u32 v;
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
			return plan_err(MCASTCTL_EINPUT, "%san empty address in a comma list",
					where);
		st = parse_addr(p, item, &v, where);
		if (!st)
			st = add_dest(p, v, where);
		if (st)
			return st;
		item = comma + 1;
	} while (comma);
	return 0;
}

static int dests_from_args(struct cubeplan *p, const struct cube_opts *o)
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

static int dests_from_file(struct cubeplan *p, const char *file)
{
	bool is_stdin = !strcmp(file, "-");
	FILE *f = is_stdin ? stdin : fopen(file, "r");
	char q[80], where[128], *line = NULL, *s;
	const char *name = is_stdin ? "stdin" : printable(file, q, sizeof(q));
	size_t cap = 0;
	u32 lineno = 0;
	int st = 0;

	if (!f)
		return plan_err(MCASTCTL_EINPUT, "cannot open \"%s\": %s", name,
				strerror(errno));
	while (!st && getline(&line, &cap, f) >= 0) {
		lineno++;
		s = line;
		s[strcspn(s, "#\n")] = '\0';
		while (isspace((unsigned char)*s))
			s++;
		if (!*s)
			continue;
		snprintf(where, sizeof(where), "%s:%u: ", name, lineno);
		st = add_list(p, s, where);
	}
	if (!st && ferror(f))
		st = plan_err(MCASTCTL_EINPUT, "cannot read \"%s\": %s", name,
			      strerror(errno));
	if (!st && p->ndst == (p->ring && p->src != MC_NO_NODE))
		st = plan_err(MCASTCTL_EINPUT, "\"%s\" lists no %s", name,
			      p->ring ? "members" : "destinations");
	free(line);
	if (!is_stdin)
		fclose(f);
	return st;
}

/*
 * plan.c's --random over the nodes: Floyd's draws, then a shuffle.  The
 * source (MC_NO_NODE for a ring without one) is never drawn; the draws
 * go after what p->dst holds (a ring's source).
 */
static int dests_random(struct cubeplan *p, const struct cube_opts *o)
{
	bool has_src = p->src != MC_NO_NODE;
	u32 space = mc_cube_nodes(p->n) - has_src, m, j, v, *d;
	u64 x = 1;
	int e = parse_u32(o->random, UINT32_MAX, &m);

	if (e == -EINVAL)
		return plan_err(MCASTCTL_EINPUT, "--random \"%.64s\": not a number",
				o->random);
	if (!e && m == 0)
		return plan_err(MCASTCTL_EINPUT, "--random 0: need at least one %s",
				p->ring ? "member" : "destination");
	if ((e || m > space) && !has_src)
		return plan_err(MCASTCTL_EINPUT, "--random %.64s: the cube has only %u nodes",
				o->random, space);
	if (e || m > space)
		return plan_err(MCASTCTL_EINPUT, "--random %.64s: the cube has only %u nodes besides the source",
				o->random, space);
	if (o->seed && parse_u64(o->seed, &x))
		return plan_err(MCASTCTL_EINPUT, "--seed \"%.64s\": not a number below 2^64",
				o->seed);
	if (dst_room(p, m))
		return MCASTCTL_EINPUT;
	d = p->dst + p->ndst;
	for (j = space - m; j < space; j++) {
		v = rand_below(&x, j + 1);
		v += v >= p->src;
		if (p->seen[v])
			v = j + (j >= p->src);
		p->seen[v] |= SEEN_MEMBER;
		p->dst[p->ndst++] = v;
	}
	for (j = m - 1; j > 0; j--) {
		u32 i = rand_below(&x, j + 1), tmp = d[i];

		d[i] = d[j];
		d[j] = tmp;
	}
	return 0;
}

/* ---- setup ------------------------------------------------------------ */

static int parse_values(struct cubeplan *p, const struct cube_opts *o)
{
	const char *spec = o->topology + strlen(CUBE_PREFIX);
	char q[80];

	if (parse_u32(spec, UINT32_MAX, &p->n) || mc_cube_check_dim(p->n, NULL))
		return plan_err(MCASTCTL_EINPUT, "topology \"%s\": cube:N takes a dimension N of 1..%u",
				printable(o->topology, q, sizeof(q)),
				MC_CUBE_MAX_DIM);
	p->ring = is_ring(o->algorithm);
	if (p->ring)
		return 0;
	if (cube_algo_find(o->algorithm, &p->algo))
		return plan_err(MCASTCTL_EINPUT, "unknown algorithm \"%s\" (a cube takes u-cube, maxport, combine, w-sort or ring)",
				printable(o->algorithm, q, sizeof(q)));
	p->port = MC_CUBE_ALL_PORT;
	if (o->port && !strcmp(o->port, "one"))
		p->port = MC_CUBE_ONE_PORT;
	else if (o->port && strcmp(o->port, "all"))
		return plan_err(MCASTCTL_EINPUT, "unknown port model \"%s\" (all or one)",
				printable(o->port, q, sizeof(q)));
	return 0;
}

/*
 * --ring-order: each node once; with @members listed (--dest,
 * --dests-file, --random), exactly those and --source; without, they are
 * the members, --source among them.
 */
static int ring_order_from(struct cubeplan *p, const char *list, bool members)
{
	const char *where = "--ring-order: ";
	char *copy = strdup(list), *item, *comma, *end;
	u32 v, i;
	int st = 0;

	if (!copy)
		return plan_err(MCASTCTL_EINPUT, "out of memory");
	p->given = calloc(mc_cube_nodes(p->n), sizeof(u32));
	if (!p->given) {
		free(copy);
		return plan_err(MCASTCTL_EINPUT, "out of memory");
	}
	for (item = copy; !st && item; item = comma ? comma + 1 : NULL) {
		comma = strchr(item, ',');
		if (comma)
			*comma = '\0';
		while (isspace((unsigned char)*item))
			item++;
		end = item + strlen(item);
		while (end > item && isspace((unsigned char)end[-1]))
			*--end = '\0';
		if (!*item) {
			st = plan_err(MCASTCTL_EINPUT, "%san empty address in a comma list",
				      where);
			break;
		}
		st = parse_addr(p, item, &v, where);
		if (st)
			break;
		if (p->seen[v] & SEEN_GIVEN)
			st = plan_err(MCASTCTL_EINPUT, "%snode %s given twice", where,
				      addr(p, v));
		else if (members && !(p->seen[v] & SEEN_MEMBER))
			st = plan_err(MCASTCTL_EINPUT, "%s%s is not a member", where,
				      addr(p, v));
		if (st)
			break;
		p->seen[v] |= SEEN_GIVEN;
		p->given[p->ngiven++] = v;
	}
	free(copy);
	if (st)
		return st;
	if (!members && p->src != MC_NO_NODE && !(p->seen[p->src] & SEEN_GIVEN))
		return plan_err(MCASTCTL_EINPUT, "--ring-order misses member %s",
				addr(p, p->src));
	for (i = 0; members && i < p->ndst; i++)
		if (!(p->seen[p->dst[i]] & SEEN_GIVEN))
			return plan_err(MCASTCTL_EINPUT, "--ring-order misses member %s",
					addr(p, p->dst[i]));
	return 0;
}

/*
 * The members: --source first, then --dest, --dests-file or --random;
 * without those, the nodes of --ring-order.
 */
static int setup_ring(struct cubeplan *p, const struct cube_opts *o)
{
	bool listed = o->ndest || o->dests_file || o->random;
	u32 src;
	int st = 0;

	p->src = MC_NO_NODE;
	if (o->source) {
		st = parse_addr(p, o->source, &src, "--source: ");
		if (st)
			return st;
		st = add_dest(p, src, "--source: ");
		p->src = src;
	}
	if (!st && o->random)
		st = dests_random(p, o);
	else if (!st && o->dests_file)
		st = dests_from_file(p, o->dests_file);
	else if (!st && o->ndest)
		st = dests_from_args(p, o);
	if (!st && o->ring_order)
		st = ring_order_from(p, o->ring_order, listed);
	if (st)
		return st;
	if (!listed && o->ring_order) {
		/* the members are the ring given */
		p->ndst = 0;
		st = dst_room(p, p->ngiven);
		if (st)
			return st;
		memcpy(p->dst, p->given, (size_t)p->ngiven * sizeof(u32));
		p->ndst = p->ngiven;
	}
	if (p->ndst > RING_MAX_MEMBERS)
		return plan_err(MCASTCTL_EINPUT, "a ring of %u members: at most %u (the merge is O(m^2))",
				p->ndst, RING_MAX_MEMBERS);
	return 0;
}

static int setup(struct cubeplan *p, const struct cube_opts *o)
{
	int st = parse_values(p, o);

	if (!st && !p->ring)
		st = parse_addr(p, o->source, &p->src, "--source: ");
	if (st)
		return st;
	p->seen = calloc(mc_cube_nodes(p->n), 1);
	if (!p->seen)
		return plan_err(MCASTCTL_EINPUT, "out of memory");
	if (p->ring)
		return setup_ring(p, o);
	if (o->random)
		return dests_random(p, o);
	if (o->dests_file)
		return dests_from_file(p, o->dests_file);
	return dests_from_args(p, o);
}

/* ---- planning and checking -------------------------------------------- */

static int checker_failed(const struct cubeplan *p, const char *which,
			  const struct mc_cube_check_result *res)
{
	char detail[160] = "";
	size_t k = 0;

	if (res->send_a != MC_NO_NODE)
		k += snprintf(detail + k, sizeof(detail) - k, " send %u",
			      res->send_a);
	if (res->send_b != MC_NO_NODE && k < sizeof(detail))
		k += snprintf(detail + k, sizeof(detail) - k, " send %u",
			      res->send_b);
	if (res->node != MC_NO_NODE && k < sizeof(detail))
		k += snprintf(detail + k, sizeof(detail) - k, " node %s",
			      addr(p, res->node));
	if (res->arc.node != MC_NO_NODE && k < sizeof(detail))
		snprintf(detail + k, sizeof(detail) - k, " arc (%s, %u)",
			 addr(p, res->arc.node), res->arc.dim);
	return plan_err(MCASTCTL_EINTERNAL, "internal error: the %s checker rejected the plan: %s%s",
			which, res->what, detail);
}

/* The four checkers; any failure is a bug (exit 3). */
static int verify(struct cubeplan *p)
{
	struct mc_cube_check_result res;
	u32 *ws;
	u64 words = mc_cube_check_ws_words(&p->s);

	p->ws = calloc(words / 2 + 1, sizeof(u64));
	if (!p->ws)
		return plan_err(MCASTCTL_EINPUT, "out of memory");
	ws = (u32 *)p->ws;
	if (mc_cube_check_cover(&p->s, ws, &res))
		return checker_failed(p, "cover", &res);
	if (mc_cube_check_steps(&p->s, ws, &res))
		return checker_failed(p, "steps", &res);
	if (mc_cube_check_arcs(&p->s, ws, &res))
		return checker_failed(p, "arcs", &res);
	if (mc_cube_check_contention(&p->s, ws, &res))
		return checker_failed(p, "contention", &res);
	return 0;
}

/* Sends by step, in send order within a step. */
static int index_plan(struct cubeplan *p)
{
	const struct mc_cube_schedule *s = &p->s;
	u32 i, t, k = 0;

	p->by_step = calloc(s->nsend + 1, sizeof(u32));
	if (!p->by_step)
		return plan_err(MCASTCTL_EINPUT, "out of memory");
	for (t = 1; t <= s->steps; t++)
		for (i = 0; i < s->nsend; i++)
			if (s->send[i].step == t)
				p->by_step[k++] = i;
	return 0;
}

static int make_plan(struct cubeplan *p)
{
	const char *why = NULL;
	u32 m = p->ndst + 1;
	int st;

	p->s.chain = calloc(m, sizeof(u32));
	p->s.send = calloc(m, sizeof(struct mc_cube_send));
	if (!p->s.chain || !p->s.send)
		return plan_err(MCASTCTL_EINPUT, "out of memory");
	if (mc_cube_plan(&p->s, p->n, p->algo, p->port, p->src, p->dst,
			 p->ndst, &why))
		return plan_err(MCASTCTL_EINTERNAL, "internal error: cannot plan: %s",
				why ? why : "?");
	st = verify(p);
	return st ? st : index_plan(p);
}

/* ---- shared by the printers ------------------------------------------- */

static u32 ceil_log(u64 base, u64 m)
{
	u64 x = 1;
	u32 k = 0;

	while (x < m) {
		x *= base;
		k++;
	}
	return k;
}

static double avg_receive_step(const struct mc_cube_schedule *s)
{
	u64 sum = 0;
	u32 i;

	for (i = 0; i < s->nsend; i++)
		sum += s->send[i].step;
	return s->nsend ? (double)sum / s->nsend : 0;
}

static const char *port_name(const struct cubeplan *p)
{
	return p->port == MC_CUBE_ONE_PORT ? "one" : "all";
}

/* ---- JSON ------------------------------------------------------------- */

static void json_send(struct json *j, const struct cubeplan *p, u32 i)
{
	const struct mc_cube_schedule *s = &p->s;
	const struct mc_cube_send *d = &s->send[i];
	u32 u = s->chain[d->from], v = s->chain[d->to], k;

	json_obj_begin(j);
	json_key_uint(j, "step", d->step);
	json_key_str(j, "from", addr(p, u));
	json_key_str(j, "to", addr(p, v));
	json_key(j, "covers");
	json_arr_begin(j);
	for (k = 0; k < d->len; k++)
		json_str(j, addr(p, s->chain[d->to + k]));
	json_arr_end(j);
	json_key_uint(j, "issue", d->seq);
	json_key_uint(j, "channel", mc_cube_delta(u, v));
	json_key_uint(j, "hops", mc_cube_hops(u, v));
	json_key(j, "arcs");
	json_arr_begin(j);
	while (u != v) {
		k = mc_cube_delta(u, v);
		json_obj_begin(j);
		json_key_str(j, "node", addr(p, u));
		json_key_uint(j, "dim", k);
		json_obj_end(j);
		u ^= 1u << k;
	}
	json_arr_end(j);
	json_obj_end(j);
}

static int print_json(const struct cubeplan *p, FILE *f)
{
	const struct mc_cube_schedule *s = &p->s;
	struct json j;
	u32 i;

	json_init(&j, f);
	json_obj_begin(&j);
	json_key(&j, "topology");
	json_obj_begin(&j);
	json_key_str(&j, "kind", "cube");
	json_key_uint(&j, "n", p->n);
	json_key_uint(&j, "nodes", mc_cube_nodes(p->n));
	json_key_str(&j, "routing", "e-cube, highest dimension first");
	json_obj_end(&j);
	json_key_str(&j, "algorithm", cube_algo_name(p->algo));
	json_key_str(&j, "port", port_name(p));
	json_key_str(&j, "source", addr(p, p->src));
	json_key_uint(&j, "m", s->m);
	json_key_uint(&j, "destinations", s->m - 1);
	json_key_uint(&j, "steps", s->steps);
	json_key_uint(&j, "lower_bound", ceil_log(p->port == MC_CUBE_ONE_PORT ?
						  2 : p->n + 1, s->m));
	json_key_uint(&j, "ucube_steps", ceil_log(2, s->m));
	json_key(&j, "order");
	json_arr_begin(&j);
	for (i = 0; i < s->m; i++)
		json_str(&j, addr(p, s->chain[i]));
	json_arr_end(&j);
	json_key(&j, "sends");
	json_arr_begin(&j);
	for (i = 0; i < s->nsend; i++)
		json_send(&j, p, p->by_step[i]);
	json_arr_end(&j);
	json_key(&j, "stats");
	json_obj_begin(&j);
	json_key_uint(&j, "sends", s->nsend);
	json_key_uint(&j, "hops", mc_cube_total_hops(s));
	json_key(&j, "avg_receive_step");
	json_double(&j, avg_receive_step(s));
	json_obj_end(&j);
	json_key(&j, "checks");
	json_obj_begin(&j);
	json_key_str(&j, "cover", "pass");
	json_key_str(&j, "steps", "pass");
	json_key_str(&j, "arcs", "pass");
	json_key_str(&j, "contention", "pass");
	json_obj_end(&j);
	json_key_bool(&j, "verified", true);
	json_obj_end(&j);
	return json_finish(&j);
}

/* ---- text ------------------------------------------------------------- */

static void text_header(const struct cubeplan *p, FILE *f)
{
	const struct mc_cube_schedule *s = &p->s;
	u32 i;

	fprintf(f, "topology     cube:%u, %u nodes, E-cube routing (highest dimension first), %s-port\n",
		p->n, mc_cube_nodes(p->n), port_name(p));
	fprintf(f, "algorithm    %s\n", cube_algo_name(p->algo));
	fprintf(f, "source       %s\n", addr(p, p->src));
	fprintf(f, "m            %u (source and %u destination%s)\n", s->m,
		s->m - 1, s->m == 2 ? "" : "s");
	fprintf(f, "order        %s:",
		p->algo == MC_CUBE_WSORT ? "weighted cube-ordered chain" :
		"source-relative dimension order");
	for (i = 0; i < s->m; i++)
		fprintf(f, " %s", addr(p, s->chain[i]));
	fprintf(f, "\nsteps        %u (lower bound %u; u-cube one-port %u)\n",
		s->steps, ceil_log(p->port == MC_CUBE_ONE_PORT ? 2 : p->n + 1,
				   s->m), ceil_log(2, s->m));
	fputs("verified     cover, steps, arcs, contention\n", f);
}

/* "0000 -3-> 1000 -1-> 1010": each hop with its dimension. */
static void put_path(const struct cubeplan *p, FILE *f, u32 u, u32 v)
{
	u32 d;

	fputs(addr(p, u), f);
	while (u != v) {
		d = mc_cube_delta(u, v);
		u ^= 1u << d;
		fprintf(f, " -%u-> %s", d, addr(p, u));
	}
	fputc('\n', f);
}

/* "step 1: 0000 -> 1110  covers 1110 1111 1100 1011  [channel 3, 3 hops]" */
static void text_send(const struct cubeplan *p, FILE *f, u32 i, bool hops)
{
	const struct mc_cube_schedule *s = &p->s;
	const struct mc_cube_send *d = &s->send[i];
	u32 u = s->chain[d->from], v = s->chain[d->to], k, h;

	fprintf(f, "step %u: %s -> %s", d->step, addr(p, u), addr(p, v));
	if (d->len > 1) {
		fputs("  covers", f);
		for (k = 0; k < d->len; k++)
			fprintf(f, " %s", addr(p, s->chain[d->to + k]));
	}
	h = mc_cube_hops(u, v);
	fprintf(f, "  [channel %u, %u hop%s]\n", mc_cube_delta(u, v), h,
		h == 1 ? "" : "s");
	if (hops) {
		fputs("        ", f);
		put_path(p, f, u, v);
	}
}

/* The sends of the holder at chain position @pos, in issue order. */
static void text_tree(const struct cubeplan *p, FILE *f, u32 pos, int indent)
{
	const struct mc_cube_schedule *s = &p->s;
	u32 i;

	for (i = 0; i < s->nsend; i++) {
		if (s->send[i].from != pos)
			continue;
		fprintf(f, "%*s%u -> %s\n", indent, "", s->send[i].step,
			addr(p, s->chain[s->send[i].to]));
		text_tree(p, f, s->send[i].to, indent + 2);
	}
}

static int print_text(const struct cubeplan *p, const struct cube_opts *o,
		      FILE *f)
{
	const struct mc_cube_schedule *s = &p->s;
	u32 i;

	text_header(p, f);
	fputc('\n', f);
	for (i = 0; i < s->nsend; i++)
		text_send(p, f, p->by_step[i], o->hops);
	if (o->tree) {
		fprintf(f, "\ntree:\n%s\n", addr(p, p->src));
		text_tree(p, f, 0, 2);
	}
	fprintf(f, "\ntotal        %u send%s, %llu hops\n", s->nsend,
		s->nsend == 1 ? "" : "s",
		(unsigned long long)mc_cube_total_hops(s));
	fprintf(f, "receive      average step %.2f, last %u\n",
		avg_receive_step(s), s->steps);
	return ferror(f) ? -1 : 0;
}

/* ---- rings (--algorithm ring) ---------------------------------------- */

static int ring_checker_failed(const struct cubeplan *p,
			       const struct mc_ring_check_result *res)
{
	char detail[160] = "";
	size_t k = 0;

	if (res->path_a != MC_NO_NODE)
		k += snprintf(detail + k, sizeof(detail) - k,
			      " paths %s -> %s and %s -> %s",
			      addr(p, p->order[res->path_a]),
			      addr(p, p->order[(res->path_a + 1) % p->r.m]),
			      addr(p, p->order[res->path_b]),
			      addr(p, p->order[(res->path_b + 1) % p->r.m]));
	if (res->node != MC_NO_NODE && k < sizeof(detail))
		k += snprintf(detail + k, sizeof(detail) - k, " node %s",
			      addr(p, res->node));
	if (res->arc.node != MC_NO_NODE && k < sizeof(detail))
		snprintf(detail + k, sizeof(detail) - k, " dimension %u",
			 res->arc.dim);
	return plan_err(MCASTCTL_EINTERNAL, "internal error: the ring checker rejected the plan: %s%s",
			res->what, detail);
}

/*
 * The ring (Lin and Chen's merge) and its check; the RGC ring; the given
 * ring's check and Corollary 1 count (a verdict, not a failure).
 */
static int make_ring(struct cubeplan *p)
{
	struct mc_ring_check_result res;
	const char *why = NULL;
	u32 m = p->ndst, slots = m ? m : 1;
	u64 *ws;

	p->r.addr = calloc(slots, sizeof(u32));
	p->r.succ = calloc(slots, sizeof(u32));
	p->r.merge = calloc(slots, sizeof(struct mc_ring_merge));
	p->order = calloc(slots, sizeof(u32));
	p->rgc = calloc(slots, sizeof(u32));
	ws = calloc(mc_ring_check_ws_words(p->n, m), sizeof(u64));
	p->ws = ws;
	if (!p->r.addr || !p->r.succ || !p->r.merge || !p->order || !p->rgc ||
	    !ws)
		return plan_err(MCASTCTL_EINPUT, "out of memory");
	if (mc_ring_build(&p->r, p->n, p->dst, m, &why) ||
	    mc_ring_rgc_order(p->n, p->dst, m, p->rgc, &why))
		return plan_err(MCASTCTL_EINTERNAL, "internal error: cannot plan: %s",
				why ? why : "?");
	if (mc_ring_order(&p->r, p->order))
		return plan_err(MCASTCTL_EINTERNAL, "internal error: the merges left no single cycle");
	if (mc_ring_check(p->n, p->dst, p->order, m, ws, &res))
		return ring_checker_failed(p, &res);
	mc_ring_stats(p->order, m, &p->st);
	if (!p->given)
		return 0;
	mc_ring_check(p->n, p->dst, p->given, m, ws, &p->gres);
	if (p->gres.what && p->gres.conflicts == 0)
		return plan_err(MCASTCTL_EINTERNAL, "internal error: --ring-order: %s",
				p->gres.what);
	if (mc_ring_conflicts(p->n, p->given, m, &p->gconflicts, &why))
		return plan_err(MCASTCTL_EINTERNAL, "internal error: --ring-order: %s",
				why);
	if (p->gconflicts != p->gres.conflicts)
		return plan_err(MCASTCTL_EINTERNAL, "internal error: --ring-order: Corollary 1 counts %llu shared links, the paths %llu",
				(unsigned long long)p->gconflicts,
				(unsigned long long)p->gres.conflicts);
	mc_ring_stats(p->given, m, &p->gst);
	return 0;
}

/* "0010 1010 1110 1111": the nodes of the E-cube path. */
static void put_nodes(const struct cubeplan *p, FILE *f, u32 u, u32 v)
{
	fputs(addr(p, u), f);
	while (u != v) {
		u ^= 1u << mc_cube_delta(u, v);
		fprintf(f, " %s", addr(p, u));
	}
}

/* The subcube of a merge: A's address with its k low bits free ("01yy"). */
static const char *subcube(const struct cubeplan *p, u32 a, u32 k)
{
	static char buf[MC_CUBE_MAX_DIM + 1];
	u32 i;

	memcpy(buf, addr(p, a), p->n + 1);
	for (i = p->n - k; i < p->n; i++)
		buf[i] = 'y';
	return buf;
}

/* Paths i, j of @order that share links, with each shared link. */
static u32 shared_dims(const struct cubeplan *p, const u32 *order, u32 i,
		       u32 j)
{
	u32 m = p->ndst;

	return mc_ring_conflict_dims(p->n, order[i], order[(i + 1) % m],
				     order[j], order[(j + 1) % m]);
}

/* ---- rings: JSON ------------------------------------------------------ */

static void json_addrs(struct json *j, const struct cubeplan *p,
		       const char *key, const u32 *a, u32 m)
{
	u32 i;

	json_key(j, key);
	json_arr_begin(j);
	for (i = 0; i < m; i++)
		json_str(j, addr(p, a[i]));
	json_arr_end(j);
}

static void json_ring_paths(struct json *j, const struct cubeplan *p,
			    const u32 *order)
{
	u32 m = p->ndst, i, u, v, d;

	json_key(j, "paths");
	json_arr_begin(j);
	for (i = 0; m > 1 && i < m; i++) {
		u = order[i];
		v = order[(i + 1) % m];
		json_obj_begin(j);
		json_key_str(j, "from", addr(p, u));
		json_key_str(j, "to", addr(p, v));
		json_key_uint(j, "hops", mc_cube_hops(u, v));
		json_key(j, "arcs");
		json_arr_begin(j);
		while (u != v) {
			d = mc_cube_delta(u, v);
			json_obj_begin(j);
			json_key_str(j, "node", addr(p, u));
			json_key_uint(j, "dim", d);
			json_obj_end(j);
			u ^= 1u << d;
		}
		json_arr_end(j);
		json_obj_end(j);
	}
	json_arr_end(j);
}

static void json_ring_stats(struct json *j, const struct mc_ring_stats *st)
{
	json_key(j, "stats");
	json_obj_begin(j);
	json_key_uint(j, "paths", st->paths);
	json_key_uint(j, "hops", st->hops);
	json_key_uint(j, "max_hop", st->max_hop);
	json_key_uint(j, "rounds", st->rounds);
	json_key_uint(j, "transfers", st->transfers);
	json_key_uint(j, "link_transfers", st->link_transfers);
	json_obj_end(j);
}

static void json_merges(struct json *j, const struct cubeplan *p)
{
	const struct mc_ring_merge *x;
	u32 i;

	json_key(j, "merges");
	json_arr_begin(j);
	for (i = 0; i < p->r.nmerge; i++) {
		x = &p->r.merge[i];
		json_obj_begin(j);
		json_key_uint(j, "k", x->k);
		json_key_str(j, "subcube", subcube(p, x->a, x->k));
		json_key_str(j, "a", addr(p, x->a));
		json_key_str(j, "c", addr(p, x->c));
		json_key_str(j, "old_succ_a", addr(p, x->old_succ_a));
		json_key_str(j, "old_succ_c", addr(p, x->old_succ_c));
		json_key_uint(j, "asterisk", x->asterisk);
		json_obj_end(j);
	}
	json_arr_end(j);
}

static void json_rgc(struct json *j, const struct cubeplan *p)
{
	u32 m = p->ndst, i, g, max = 0;
	u64 total = 0;

	for (i = 0; m > 1 && i < m; i++) {
		g = mc_ring_rgc_gap(p->n, p->rgc[i], p->rgc[(i + 1) % m]);
		total += g;
		max = g > max ? g : max;
	}
	json_key(j, "rgc");
	json_obj_begin(j);
	json_addrs(j, p, "ring", p->rgc, m);
	json_key_uint(j, "hops", total);
	json_key_uint(j, "max_gap", max);
	json_obj_end(j);
}

/* Each pair of the given ring's paths that share links, and the links. */
static void json_shared(struct json *j, const struct cubeplan *p)
{
	u32 m = p->ndst, i, k, d, dims;

	json_key(j, "shared");
	json_arr_begin(j);
	for (i = 0; m > 1 && i < m; i++) {
		for (k = i + 1; k < m; k++) {
			dims = shared_dims(p, p->given, i, k);
			if (!dims)
				continue;
			json_obj_begin(j);
			json_key(j, "paths");
			json_arr_begin(j);
			json_arr_begin(j);
			json_str(j, addr(p, p->given[i]));
			json_str(j, addr(p, p->given[(i + 1) % m]));
			json_arr_end(j);
			json_arr_begin(j);
			json_str(j, addr(p, p->given[k]));
			json_str(j, addr(p, p->given[(k + 1) % m]));
			json_arr_end(j);
			json_arr_end(j);
			json_key(j, "links");
			json_arr_begin(j);
			for (d = p->n; d-- > 0;) {
				if (!(dims >> d & 1))
					continue;
				json_obj_begin(j);
				json_key_str(j, "node", addr(p,
					mc_ring_path_node(p->given[i],
						p->given[(i + 1) % m], d)));
				json_key_uint(j, "dim", d);
				json_obj_end(j);
			}
			json_arr_end(j);
			json_obj_end(j);
		}
	}
	json_arr_end(j);
}

static void json_given(struct json *j, const struct cubeplan *p)
{
	json_key(j, "given");
	json_obj_begin(j);
	json_addrs(j, p, "ring", p->given, p->ndst);
	json_ring_paths(j, p, p->given);
	json_ring_stats(j, &p->gst);
	json_key_uint(j, "conflicts", p->gconflicts);
	json_key_bool(j, "disjoint", p->gconflicts == 0);
	json_shared(j, p);
	json_obj_end(j);
}

static int print_ring_json(const struct cubeplan *p, FILE *f)
{
	struct json j;

	json_init(&j, f);
	json_obj_begin(&j);
	json_key(&j, "topology");
	json_obj_begin(&j);
	json_key_str(&j, "kind", "cube");
	json_key_uint(&j, "n", p->n);
	json_key_uint(&j, "nodes", mc_cube_nodes(p->n));
	json_key_str(&j, "routing", "e-cube, highest dimension first");
	json_obj_end(&j);
	json_key_str(&j, "algorithm", RING_NAME);
	json_key_uint(&j, "m", p->ndst);
	json_addrs(&j, p, "members", p->r.addr, p->ndst);
	json_addrs(&j, p, "ring", p->order, p->ndst);
	json_ring_paths(&j, p, p->order);
	json_merges(&j, p);
	json_ring_stats(&j, &p->st);
	json_rgc(&j, p);
	json_key_uint(&j, "conflicts", 0);
	json_key(&j, "checks");
	json_obj_begin(&j);
	json_key_str(&j, "cycle", "pass");
	json_key_str(&j, "disjoint", "pass");
	json_obj_end(&j);
	json_key_bool(&j, "verified", true);
	if (p->given)
		json_given(&j, p);
	json_obj_end(&j);
	return json_finish(&j);
}

/* ---- rings: text ------------------------------------------------------ */

static void text_addrs(const struct cubeplan *p, FILE *f, const u32 *a, u32 m)
{
	u32 i;

	for (i = 0; i < m; i++)
		fprintf(f, " %s", addr(p, a[i]));
	fputc('\n', f);
}

/* "0000 -> 0011  hops 2  path 0000 0010 0011", per path of @order. */
static void text_ring_paths(const struct cubeplan *p, FILE *f,
			    const u32 *order, bool hops)
{
	u32 m = p->ndst, i, u, v;

	if (m < 2)
		fputs("(one member: no paths)\n", f);
	for (i = 0; m > 1 && i < m; i++) {
		u = order[i];
		v = order[(i + 1) % m];
		fprintf(f, "%s -> %s  hops %u  path ", addr(p, u), addr(p, v),
			mc_cube_hops(u, v));
		put_nodes(p, f, u, v);
		fputc('\n', f);
		if (hops) {
			fputs("        ", f);
			put_path(p, f, u, v);
		}
	}
}

static void text_ring_total(const char *label, const struct mc_ring_stats *st,
			    FILE *f)
{
	fprintf(f, "%-12s %u path%s, %llu hops, longest %u\n", label,
		st->paths, st->paths == 1 ? "" : "s",
		(unsigned long long)st->hops, st->max_hop);
}

static void text_merges(const struct cubeplan *p, FILE *f)
{
	const struct mc_ring_merge *x;
	u32 i;

	fputs("\nmerges (k, subcube, A of its lower half, C of its upper, Asterisk(A down C),\n"
	      "        then A's and C's new successors):\n", f);
	if (!p->r.nmerge)
		fputs("  none\n", f);
	for (i = 0; i < p->r.nmerge; i++) {
		x = &p->r.merge[i];
		fprintf(f, "  k %u  %s  A %s  C %s  asterisk %u  %s -> %s, %s -> %s\n",
			x->k, subcube(p, x->a, x->k), addr(p, x->a),
			addr(p, x->c), x->asterisk, addr(p, x->a),
			addr(p, x->old_succ_c), addr(p, x->c),
			addr(p, x->old_succ_a));
	}
}

static void text_rgc(const struct cubeplan *p, FILE *f)
{
	u32 m = p->ndst, i, g, max = 0;
	u64 total = 0;

	for (i = 0; m > 1 && i < m; i++) {
		g = mc_ring_rgc_gap(p->n, p->rgc[i], p->rgc[(i + 1) % m]);
		total += g;
		max = g > max ? g : max;
	}
	fprintf(f, "rgc ring     %llu hops along the Gray cycle, longest gap %u; order",
		(unsigned long long)total, max);
	text_addrs(p, f, p->rgc, m);
}

static void text_given(const struct cubeplan *p, const struct cube_opts *o,
		       FILE *f)
{
	u32 m = p->ndst, i, k, d, dims, pairs = 0;

	fputs("\ngiven       ", f);
	text_addrs(p, f, p->given, m);
	fputc('\n', f);
	text_ring_paths(p, f, p->given, o->hops);
	fputc('\n', f);
	text_ring_total("given total", &p->gst, f);
	if (!p->gconflicts) {
		fputs("contention   none: the given ring's paths are pairwise link-disjoint\n",
		      f);
		return;
	}
	for (i = 0; i < m; i++)
		for (k = i + 1; k < m; k++)
			pairs += shared_dims(p, p->given, i, k) != 0;
	fprintf(f, "contention   %llu shared link%s (Corollary 1) between %u pair%s of paths:\n",
		(unsigned long long)p->gconflicts,
		p->gconflicts == 1 ? "" : "s", pairs, pairs == 1 ? "" : "s");
	for (i = 0; i < m; i++) {
		for (k = i + 1; k < m; k++) {
			dims = shared_dims(p, p->given, i, k);
			if (!dims)
				continue;
			fprintf(f, "  %s -> %s and %s -> %s share",
				addr(p, p->given[i]),
				addr(p, p->given[(i + 1) % m]),
				addr(p, p->given[k]),
				addr(p, p->given[(k + 1) % m]));
			for (d = p->n; d-- > 0;) {
				u32 at;

				if (!(dims >> d & 1))
					continue;
				at = mc_ring_path_node(p->given[i],
						       p->given[(i + 1) % m], d);
				dims &= ~(1u << d);
				fprintf(f, " %s -> %s (dimension %u)%s",
					addr(p, at), addr(p, at ^ 1u << d), d,
					dims ? "," : "");
			}
			fputc('\n', f);
		}
	}
}

static int print_ring_text(const struct cubeplan *p, const struct cube_opts *o,
			   FILE *f)
{
	u32 m = p->ndst;
	u64 pairs = p->st.paths ? (u64)p->st.paths * (p->st.paths - 1) / 2 : 0;

	fprintf(f, "topology     cube:%u, %u nodes, E-cube routing (highest dimension first)\n",
		p->n, mc_cube_nodes(p->n));
	fputs("algorithm    ring (group multicast, Lin and Chen: bottom-up merges)\n",
	      f);
	fprintf(f, "members      %u:", m);
	text_addrs(p, f, p->r.addr, m);
	fputs("ring        ", f);
	text_addrs(p, f, p->order, m);
	fprintf(f, "verified     one cycle through the members; %u path%s, %llu pair%s, no shared link\n",
		p->st.paths, p->st.paths == 1 ? "" : "s",
		(unsigned long long)pairs, pairs == 1 ? "" : "s");
	fputc('\n', f);
	text_ring_paths(p, f, p->order, o->hops);
	if (o->hops)
		text_merges(p, f);
	fputc('\n', f);
	text_ring_total("total", &p->st, f);
	if (m > 1)
		fprintf(f, "multicast    %u round%s of %u concurrent path transfers: %llu transfers, %llu link traversals\n",
			p->st.rounds, p->st.rounds == 1 ? "" : "s", m,
			(unsigned long long)p->st.transfers,
			(unsigned long long)p->st.link_transfers);
	else
		fputs("multicast    nothing to send (one member)\n", f);
	text_rgc(p, f);
	if (p->given)
		text_given(p, o, f);
	return ferror(f) ? -1 : 0;
}

/* ---- the command ------------------------------------------------------ */

static void cubeplan_free(struct cubeplan *p, struct cube_opts *o)
{
	free(o->dest);
	free(p->dst);
	free(p->seen);
	free(p->s.chain);
	free(p->s.send);
	free(p->ws);
	free(p->by_step);
	free(p->r.addr);
	free(p->r.succ);
	free(p->r.merge);
	free(p->order);
	free(p->rgc);
	free(p->given);
}

static int plan_cube(int argc, char **argv)
{
	struct cube_opts o = { 0 };
	struct cubeplan p = { 0 };
	int st;

	st = parse_opts(&o, argc, argv);
	if (!st)
		st = setup(&p, &o);
	if (!st)
		st = p.ring ? make_ring(&p) : make_plan(&p);
	if (!st) {
		int e;

		if (p.ring)
			e = o.json ? print_ring_json(&p, stdout) :
				     print_ring_text(&p, &o, stdout);
		else
			e = o.json ? print_json(&p, stdout) :
				     print_text(&p, &o, stdout);

		if (e || fflush(stdout))
			st = plan_err(MCASTCTL_EINPUT, "cannot write the plan: %s",
				      strerror(errno));
	}
	cubeplan_free(&p, &o);
	return st < 0 ? MCASTCTL_OK : st;
}

static bool cube_algorithm(const char *a)
{
	enum mc_cube_algo algo;

	return !cube_algo_find(a, &algo) || is_ring(a);
}

int cmd_plan_cube(int argc, char **argv)
{
	struct cube_opts pre = { 0 };

	prescan(&pre, argc, argv);
	if (!pre.topology)
		return -1;	/* plan.c says what is missing */
	if (!strncmp(pre.topology, CUBE_PREFIX, strlen(CUBE_PREFIX)))
		return plan_cube(argc, argv);
	if (pre.algorithm && cube_algorithm(pre.algorithm))
		return plan_err(MCASTCTL_EUSAGE, "--algorithm %s needs a cube topology (--topology cube:N)",
				pre.algorithm);
	return -1;
}
