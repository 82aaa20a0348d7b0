// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Numbers, topologies, algorithms, transports and coordinates (see
 * parse.h).
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "parse.h"

/* User text quoted in a message: cut short, one line, printable. */
#define QUOTE_MAX	64

const char *printable(const char *s, char *buf, size_t size)
{
	size_t i, n = strlen(s);
	bool cut = n > QUOTE_MAX && size > QUOTE_MAX + 3;

	if (cut)
		n = QUOTE_MAX;
	if (n > size - 1)
		n = size - 1;
	for (i = 0; i < n; i++) {
		unsigned char c = s[i];

		buf[i] = c < 0x20 || c == 0x7f ? '?' : c;
	}
	if (cut)
		memcpy(buf + i, "...", 3), i += 3;
	buf[i] = '\0';
	return buf;
}

static int fail(char *err, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static int fail(char *err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, PARSE_ERR_MAX, fmt, ap);
	va_end(ap);
	return -1;
}

/* -EINVAL if s[0..len) is not all digits, -ERANGE if it exceeds @max. */
static int parse_digits(const char *s, size_t len, u64 max, u64 *out)
{
	u64 v = 0;
	size_t i;

	if (len == 0)
		return -EINVAL;
	for (i = 0; i < len; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -EINVAL;
	}
	for (i = 0; i < len; i++) {
		unsigned int d = s[i] - '0';

		/* d > max first: max - d must not wrap (max 1, "2") */
		if (d > max || v > (max - d) / 10)
			return -ERANGE;
		v = v * 10 + d;
	}
	*out = v;
	return 0;
}

int parse_u32(const char *s, u32 max, u32 *out)
{
	u64 v;
	int err = parse_digits(s, strlen(s), max, &v);

	if (!err)
		*out = v;
	return err;
}

int parse_u64(const char *s, u64 *out)
{
	return parse_digits(s, strlen(s), UINT64_MAX, out);
}

/* cube:N, the binary N-cube: the torus 2x...x2 (N twos), links both ways. */
static int parse_cube(const char *spec, const char *q, struct mc_torus *t,
		      char *err)
{
	u16 k[MC_MAX_DIMS];
	u32 n, i;

	if (parse_u32(spec, MC_MAX_DIMS, &n) || !n)
		return fail(err, "topology \"%s\": cube:N needs N from 1 to %u",
			    q, MC_MAX_DIMS);
	for (i = 0; i < n; i++)
		k[i] = 2;
	return mc_torus_init(t, n, k, MC_LINKS_BI, NULL) ?
	       fail(err, "topology \"%s\": invalid", q) : 0;
}

int parse_topology(const char *spec, struct mc_torus *t, char *err)
{
	static const char prefix[] = "torus:";
	char q[QUOTE_MAX + 4];
	u16 radix[MC_MAX_DIMS], k[MC_MAX_DIMS];
	enum mc_links links = MC_LINKS_UNI;
	const char *p, *end, *colon, *why = NULL;
	unsigned int n = 0, i;

	printable(spec, q, sizeof(q));
	if (!strncmp(spec, "cube:", 5))
		return parse_cube(spec + 5, q, t, err);
	if (strncmp(spec, prefix, sizeof(prefix) - 1))
		return fail(err, "topology \"%s\": expected torus:K[xK...][:uni|:bi] or cube:N",
			    q);
	p = spec + sizeof(prefix) - 1;
	colon = strchr(p, ':');
	end = colon ? colon : p + strlen(p);
	if (colon && !strcmp(colon + 1, "bi"))
		links = MC_LINKS_BI;
	else if (colon && strcmp(colon + 1, "uni"))
		return fail(err, "topology \"%s\": links must be \"uni\" or \"bi\"",
			    q);
	/* K list, highest dimension first */
	while (p <= end) {
		const char *x = memchr(p, 'x', end - p);
		size_t len = (x ? x : end) - p;
		u64 v;
		int e;

		if (n == MC_MAX_DIMS)
			return fail(err, "topology \"%s\": at most %u dimensions",
				    q, MC_MAX_DIMS);
		e = parse_digits(p, len, UINT16_MAX, &v);
		if (e == -ERANGE)
			return fail(err, "topology \"%s\": radix %.*s is too large (at most %u)",
				    q, (int)len, p, UINT16_MAX);
		if (e)
			return fail(err, "topology \"%s\": expected radices separated by 'x'",
				    q);
		radix[n++] = v;
		p += len + 1;
	}
	for (i = 0; i < n; i++)
		k[i] = radix[n - 1 - i];
	if (mc_torus_init(t, n, k, links, &why))
		return fail(err, "topology \"%s\": %s", q,
			    why ? why : "invalid");
	return 0;
}

/*
 * Every algorithm's name, once: what mcast.ko numbers it (a node's
 * MCAST_NODE_A_ALGORITHM) and what the planning core does (its enum mc_algo
 * and r), so that the tools and mcastd read and print the same words for
 * the same thing.
 */
static const struct algo_info algos[] = {
	{ "separate", ALGO_NONE, MC_ALGO_SEPARATE, 0, true },
	{ "auto", MCAST_ALGORITHM_AUTO, ALGO_NONE, 0, false },
	{ "u-torus", MCAST_ALGORITHM_UTORUS, MC_ALGO_UTORUS, 0, true },
	{ "s-torus", MCAST_ALGORITHM_STORUS, MC_ALGO_STORUS, 0, true },
	{ "md-torus", MCAST_ALGORITHM_MDTORUS, MC_ALGO_MDTORUS, 0, true },
	{ "mu-torus", MCAST_ALGORITHM_MUTORUS, MC_ALGO_MUTORUS, 0, true },
	{ "binomial", MCAST_ALGORITHM_BINOMIAL, MC_ALGO_BINOMIAL, 0, true },
	{ "u-cube", MCAST_ALGORITHM_UCUBE, MC_ALGO_CUBE, MC_CUBE_UCUBE, false },
	{ "maxport", MCAST_ALGORITHM_MAXPORT, MC_ALGO_CUBE, MC_CUBE_MAXPORT,
	  false },
	{ "combine", MCAST_ALGORITHM_COMBINE, MC_ALGO_CUBE, MC_CUBE_COMBINE,
	  false },
	{ "w-sort", MCAST_ALGORITHM_WSORT, MC_ALGO_CUBE, MC_CUBE_WSORT, false },
	{ "ring", MCAST_ALGORITHM_RING, MC_ALGO_RING, 0, false },
	/* recursion-based broadcast has a planner of its own (rb.h) */
	{ "rb", MCAST_ALGORITHM_RB, ALGO_NONE, 0, false },
	{ "rb-all-port", MCAST_ALGORITHM_RB_ALL_PORT, ALGO_NONE, 0, false },
};

#define NALGOS	(sizeof(algos) / sizeof(algos[0]))

/* The entry named s[0..len); with @torus_only, parse_algorithm()'s only. */
static const struct algo_info *algo_find(const char *s, size_t len,
					 bool torus_only)
{
	size_t i;

	for (i = 0; i < NALGOS; i++) {
		const struct algo_info *a = &algos[i];

		if ((a->torus || !torus_only) && strlen(a->name) == len &&
		    !strncmp(s, a->name, len))
			return a;
	}
	return NULL;
}

const struct algo_info *node_algo_find(const char *s, size_t len)
{
	const struct algo_info *a = algo_find(s, len, false);

	return a && a->node != ALGO_NONE ? a : NULL;
}

const char *node_algo_name(u8 algo)
{
	size_t i;

	for (i = 0; i < NALGOS; i++) {
		if (algos[i].node == algo)
			return algos[i].name;
	}
	return "unknown";
}

int parse_node_algo(const char *s, u8 *algo, u32 *r, char *err)
{
	const char *colon = strchr(s, ':');
	size_t len = colon ? (size_t)(colon - s) : strlen(s);
	const struct algo_info *a = node_algo_find(s, len);
	char q[QUOTE_MAX + 4];

	printable(s, q, sizeof(q));
	if (!a)
		return fail(err, "algorithm \"%s\": expected " NODE_ALGOS, q);
	*algo = a->node;
	*r = 0;
	if (!colon)
		return 0;
	if (a->node != MCAST_ALGORITHM_MUTORUS)
		return fail(err, "algorithm \"%s\": only mu-torus takes a parameter (mu-torus:R)",
			    q);
	if (parse_u32(colon + 1, NODE_ALGO_R_MAX, r) || *r < 2)
		return fail(err, "algorithm \"%s\": R must be 2 to %u",
			    q, NODE_ALGO_R_MAX);
	return 0;
}

int cube_algo_find(const char *s, enum mc_cube_algo *algo)
{
	const struct algo_info *a = algo_find(s, strlen(s), false);

	if (!a || a->plan != MC_ALGO_CUBE)
		return -1;
	*algo = a->plan_r;
	return 0;
}

const char *cube_algo_name(enum mc_cube_algo algo)
{
	size_t i;

	for (i = 0; i < NALGOS; i++) {
		if (algos[i].plan == MC_ALGO_CUBE && algos[i].plan_r == algo)
			return algos[i].name;
	}
	return "?";
}

const char *algo_name(enum mc_algo algo)
{
	size_t i;

	for (i = 0; i < NALGOS; i++) {
		if (algos[i].torus && algos[i].plan == (int)algo)
			return algos[i].name;
	}
	return "?";
}

const char *routing_name(enum mc_routing r)
{
	return r == MC_ROUTE_UTR ? "UTR" : r == MC_ROUTE_BTR ? "BTR" :
	       r == MC_ROUTE_UTPR ? "UTPR" : "?";
}

int parse_algorithm(const char *s, enum mc_algo *algo, u32 *r, char *err)
{
	char q[QUOTE_MAX + 4];
	const char *colon = strchr(s, ':');
	size_t len = colon ? (size_t)(colon - s) : strlen(s);
	const struct algo_info *a = algo_find(s, len, true);
	int e;

	printable(s, q, sizeof(q));
	if (!a)
		return fail(err, "unknown algorithm \"%s\" (separate, u-torus, s-torus, md-torus, mu-torus:R, binomial)",
			    q);
	*algo = a->plan;
	*r = 0;
	if (*algo != MC_ALGO_MUTORUS) {
		if (colon)
			return fail(err, "algorithm \"%s\" takes no parameter", q);
		return 0;
	}
	if (!colon)
		return fail(err, "algorithm \"%s\" needs its partition size: mu-torus:R with R >= 2",
			    q);
	e = parse_u32(colon + 1, UINT32_MAX, r);
	if (e == -EINVAL)
		return fail(err, "algorithm \"%s\": partition size must be a decimal number",
			    q);
	if (e || *r < 2 || *r > MC_MU_MAX_R)
		return fail(err, "algorithm \"%s\": partition size must be 2 to %u",
			    q, MC_MU_MAX_R);
	return 0;
}

bool transport_name_ok(const char *s)
{
	size_t len = strlen(s);

	return len >= 1 && len <= TRANSPORT_NAME_CHARS;
}

int parse_coord(const struct mc_torus *t, const char *s, u32 *node, char *err)
{
	char q[QUOTE_MAX + 4];
	u16 sigma[MC_MAX_DIMS];
	const char *p = s, *end = s + strlen(s);
	unsigned int count = 0, bad_dim = 0;
	bool range = false;

	printable(s, q, sizeof(q));
	/* accept the "(a,b,c)" that the human output prints */
	if (*p == '(' && end > p && end[-1] == ')')
		p++, end--;
	while (p <= end) {
		const char *comma = memchr(p, ',', end - p);
		size_t len = (comma ? comma : end) - p;
		u64 v;
		int e = parse_digits(p, len, UINT16_MAX, &v);

		if (e == -EINVAL)
			return fail(err, "malformed coordinate \"%s\": expected %u numbers separated by commas",
				    q, t->n);
		/* tuple element i is dimension n-1-i; first bad one wins */
		if (count < t->n && !range &&
		    (e || v >= t->k[t->n - 1 - count])) {
			range = true;
			bad_dim = t->n - 1 - count;
		} else if (count < t->n && !e) {
			sigma[t->n - 1 - count] = v;
		}
		count++;
		p += len + 1;
	}
	if (count != t->n)
		return fail(err, "coordinate \"%s\" has %u element%s but the torus has %u dimension%s",
			    q, count, count == 1 ? "" : "s", t->n,
			    t->n == 1 ? "" : "s");
	if (range)
		return fail(err, "coordinate \"%s\" out of range: dimension %u has radix %u",
			    q, bad_dim, t->k[bad_dim]);
	*node = mc_node_index(t, sigma);
	if (*node == MC_NO_NODE)
		return fail(err, "coordinate \"%s\" out of range", q);
	return 0;
}

const char *format_coord(const struct mc_torus *t, u32 node, bool parens,
			 char *buf)
{
	u16 sigma[MC_MAX_DIMS];
	char *p = buf;
	int i;

	mc_node_coords(t, node, sigma);
	if (parens)
		*p++ = '(';
	for (i = t->n - 1; i >= 0; i--)
		p += sprintf(p, i ? "%u," : "%u", sigma[i]);
	if (parens)
		*p++ = ')';
	*p = '\0';
	return buf;
}
