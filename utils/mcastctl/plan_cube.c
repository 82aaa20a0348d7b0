// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * mcastctl plan --topology cube:N: seed 000's chapter 3, unicast-based
 * multicast on an all-port binary n-cube over E-cube routing (U-cube,
 * Maxport, Combine, W-sort; plan/cube.h), held against the core's four
 * checkers, then printed as text or JSON.
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
#include "mcastctl.h"
#include "parse.h"

#define CUBE_PREFIX	"cube:"

static const char *const algo_names[] = {
	[MC_CUBE_UCUBE] = "u-cube",
	[MC_CUBE_MAXPORT] = "maxport",
	[MC_CUBE_COMBINE] = "combine",
	[MC_CUBE_WSORT] = "w-sort",
};

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
};

static int perr(int status, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Every failure is reported here, as exactly one line (as plan.c does). */
static int perr(int status, const char *fmt, ...)
{
	va_list ap;

	fputs("mcastctl: plan: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return status;
}

/* ---- options ---------------------------------------------------------- */

enum { OPT_SEED = 256, OPT_HOPS, OPT_TREE, OPT_PORT, OPT_ROUTE, OPT_COMPARE };

#define CUBE_SHORT_OPTS	":t:a:s:d:f:r:jh"

static const struct option cube_long_opts[] = {
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
	{ "help", no_argument, NULL, 'h' },
	/* switch topologies' own: named, to say so */
	{ "route", required_argument, NULL, OPT_ROUTE },
	{ "compare", required_argument, NULL, OPT_COMPARE },
	{ NULL, 0, NULL, 0 },
};

static const char *long_name(int val)
{
	const struct option *o;

	for (o = cube_long_opts; o->name; o++) {
		if (o->val == val)
			return o->name;
	}
	return "?";
}

static int set_once(const char **slot, int val)
{
	if (*slot)
		return perr(MCASTCTL_EUSAGE, "--%s given twice", long_name(val));
	*slot = optarg;
	return 0;
}

static bool ambiguous(const char *name)
{
	size_t len = strcspn(name, "=");
	const struct option *o;
	int hits = 0;

	for (o = cube_long_opts; o->name; o++)
		hits += !strncmp(o->name, name, len);
	return len && hits > 1;
}

/* getopt's own messages are off: name the problem as plan.c does. */
static int bad_option(int c, char **argv)
{
	const char *arg = argv[optind - 1];
	bool is_long = !strncmp(arg, "--", 2);

	if (c == ':' && is_long)
		return perr(MCASTCTL_EUSAGE, "option \"%s\" needs an argument",
			    arg);
	if (c == ':')
		return perr(MCASTCTL_EUSAGE, "option \"-%c\" needs an argument",
			    optopt);
	if (optopt && !is_long)
		return perr(MCASTCTL_EUSAGE, "unknown option \"-%c\"", optopt);
	if (optopt)
		return perr(MCASTCTL_EUSAGE, "option \"--%s\" takes no argument",
			    long_name(optopt));
	if (ambiguous(arg + 2))
		return perr(MCASTCTL_EUSAGE, "ambiguous option \"%.64s\"", arg);
	return perr(MCASTCTL_EUSAGE, "unknown option \"%.64s\"", arg);
}

static int check_opts(const struct cube_opts *o, int argc, char **argv)
{
	int sources = (o->ndest > 0) + !!o->dests_file + !!o->random;

	if (o->other)
		return perr(MCASTCTL_EUSAGE, "--%s needs a switch topology (--topology switch:FILE)",
			    o->other);
	if (optind < argc)
		return perr(MCASTCTL_EUSAGE, "unexpected argument \"%.64s\" (one address or comma list per --dest)",
			    argv[optind]);
	if (!o->algorithm)
		return perr(MCASTCTL_EUSAGE, "missing --algorithm (u-cube, maxport, combine or w-sort)");
	if (!o->source)
		return perr(MCASTCTL_EUSAGE, "missing --source");
	if (sources == 0)
		return perr(MCASTCTL_EUSAGE, "no destinations: give --dest, --dests-file or --random");
	if (sources > 1)
		return perr(MCASTCTL_EUSAGE, "give only one of --dest, --dests-file and --random");
	if (o->seed && !o->random)
		return perr(MCASTCTL_EUSAGE, "--seed needs --random");
	return 0;
}

/* One option into @o; an exit status, or -1 when --help was answered. */
static int take_opt(struct cube_opts *o, int c, char **argv)
{
	switch (c) {
	case 't':
		return set_once(&o->topology, c);
	case 'a':
		return set_once(&o->algorithm, c);
	case OPT_PORT:
		return set_once(&o->port, c);
	case 's':
		return set_once(&o->source, c);
	case 'd':
		o->dest[o->ndest++] = optarg;
		return 0;
	case 'f':
		return set_once(&o->dests_file, c);
	case 'r':
		return set_once(&o->random, c);
	case OPT_SEED:
		return set_once(&o->seed, c);
	case 'j':
		o->json = true;
		return 0;
	case OPT_HOPS:
		o->hops = true;
		return 0;
	case OPT_TREE:
		o->tree = true;
		return 0;
	case OPT_ROUTE:
	case OPT_COMPARE:
		if (!o->other)
			o->other = long_name(c);
		return 0;
	case 'h':
		cmd_plan_usage(stdout);
		return -1;
	default:
		return bad_option(c, argv);
	}
}

static int parse_opts(struct cube_opts *o, int argc, char **argv)
{
	int c, err = 0;

	o->dest = calloc(argc, sizeof(*o->dest));
	if (!o->dest)
		return perr(MCASTCTL_EINPUT, "out of memory");
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
	return perr(MCASTCTL_EINPUT, "%s\"%s\" is not a node of cube:%u (%u binary digits, highest bit first)",
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

static int add_dest(struct cubeplan *p, u32 v, const char *where)
{
	if (v == p->src)
		return perr(MCASTCTL_EINPUT, "%sdestination %s is the source",
			    where, addr(p, v));
	if (p->seen[v])
		return perr(MCASTCTL_EINPUT, "%sdestination %s given twice",
			    where, addr(p, v));
	if (p->ndst == p->cap) {
		u32 cap = p->cap ? 2 * p->cap : 64;
		u32 *d = realloc(p->dst, (size_t)cap * sizeof(*d));

		if (!d)
			return perr(MCASTCTL_EINPUT, "out of memory");
		p->dst = d;
		p->cap = cap;
	}
	p->seen[v] = 1;
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
			return perr(MCASTCTL_EINPUT, "%san empty address in a comma list",
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
			return perr(MCASTCTL_EINPUT, "out of memory");
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
		return perr(MCASTCTL_EINPUT, "cannot open \"%s\": %s", name,
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
		st = perr(MCASTCTL_EINPUT, "cannot read \"%s\": %s", name,
			  strerror(errno));
	if (!st && p->ndst == 0)
		st = perr(MCASTCTL_EINPUT, "\"%s\" lists no destinations", name);
	free(line);
	if (!is_stdin)
		fclose(f);
	return st;
}

/* plan.c's --random over the nodes: Floyd's draws, then a shuffle. */
static int dests_random(struct cubeplan *p, const struct cube_opts *o)
{
	u32 space = mc_cube_nodes(p->n) - 1, m, j, v;
	u64 x = 1;
	int e = parse_u32(o->random, UINT32_MAX, &m);

	if (e == -EINVAL)
		return perr(MCASTCTL_EINPUT, "--random \"%.64s\": not a number",
			    o->random);
	if (!e && m == 0)
		return perr(MCASTCTL_EINPUT, "--random 0: need at least one destination");
	if (e || m > space)
		return perr(MCASTCTL_EINPUT, "--random %.64s: the cube has only %u nodes besides the source",
			    o->random, space);
	if (o->seed && parse_u64(o->seed, &x))
		return perr(MCASTCTL_EINPUT, "--seed \"%.64s\": not a number below 2^64",
			    o->seed);
	p->dst = malloc((size_t)m * sizeof(*p->dst));
	if (!p->dst)
		return perr(MCASTCTL_EINPUT, "out of memory");
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

static int parse_values(struct cubeplan *p, const struct cube_opts *o)
{
	const char *spec = o->topology + strlen(CUBE_PREFIX);
	char q[80];
	int i;

	if (parse_u32(spec, UINT32_MAX, &p->n) || mc_cube_check_dim(p->n, NULL))
		return perr(MCASTCTL_EINPUT, "topology \"%s\": cube:N takes a dimension N of 1..%u",
			    printable(o->topology, q, sizeof(q)),
			    MC_CUBE_MAX_DIM);
	for (i = MC_CUBE_WSORT; i >= 0; i--)
		if (!strcmp(o->algorithm, algo_names[i]))
			break;
	if (i < 0)
		return perr(MCASTCTL_EINPUT, "unknown algorithm \"%s\" (a cube takes u-cube, maxport, combine or w-sort)",
			    printable(o->algorithm, q, sizeof(q)));
	p->algo = i;
	p->port = MC_CUBE_ALL_PORT;
	if (o->port && !strcmp(o->port, "one"))
		p->port = MC_CUBE_ONE_PORT;
	else if (o->port && strcmp(o->port, "all"))
		return perr(MCASTCTL_EINPUT, "unknown port model \"%s\" (all or one)",
			    printable(o->port, q, sizeof(q)));
	return 0;
}

static int setup(struct cubeplan *p, const struct cube_opts *o)
{
	int st = parse_values(p, o);

	if (!st)
		st = parse_addr(p, o->source, &p->src, "--source: ");
	if (st)
		return st;
	p->seen = calloc(mc_cube_nodes(p->n), 1);
	if (!p->seen)
		return perr(MCASTCTL_EINPUT, "out of memory");
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
	return perr(MCASTCTL_EINTERNAL, "internal error: the %s checker rejected the plan: %s%s",
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
		return perr(MCASTCTL_EINPUT, "out of memory");
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
		return perr(MCASTCTL_EINPUT, "out of memory");
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
		return perr(MCASTCTL_EINPUT, "out of memory");
	if (mc_cube_plan(&p->s, p->n, p->algo, p->port, p->src, p->dst,
			 p->ndst, &why))
		return perr(MCASTCTL_EINTERNAL, "internal error: cannot plan: %s",
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
	json_key_str(&j, "algorithm", algo_names[p->algo]);
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
	fprintf(f, "algorithm    %s\n", algo_names[p->algo]);
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
		st = make_plan(&p);
	if (!st) {
		int e = o.json ? print_json(&p, stdout) :
				 print_text(&p, &o, stdout);

		if (e || fflush(stdout))
			st = perr(MCASTCTL_EINPUT, "cannot write the plan: %s",
				  strerror(errno));
	}
	cubeplan_free(&p, &o);
	return st < 0 ? MCASTCTL_OK : st;
}

static bool cube_algorithm(const char *a)
{
	int i;

	for (i = MC_CUBE_UCUBE; i <= MC_CUBE_WSORT; i++)
		if (!strcmp(a, algo_names[i]))
			return true;
	return false;
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
		return perr(MCASTCTL_EUSAGE, "--algorithm %s needs a cube topology (--topology cube:N)",
			    pre.algorithm);
	return -1;
}
