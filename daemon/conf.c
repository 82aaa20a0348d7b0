// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * mcastd.conf(5) reader (see conf.h).
 *
 * One pass over the lines fills struct mcd_conf and stops at the first
 * error.  What needs the whole file is checked after it: duplicate
 * addresses and groups, static members that must be configured nodes
 * ([groups] may come before [nodes]), and the keys checked against each
 * other, whose defaults depend on one another.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "conf.h"
#include "parse.h"
#include "rb.h"
#include "switchtopo.h"
#include "view.h"

#define LINE_CHARS	1023		/* longest line, newline excluded */
#define FILE_BYTES	(16u << 20)	/* no configuration is this big */
#define QUOTE		68		/* printable(): 64 characters + "..." */

#define PORT_DEFAULT		7447
#define HEARTBEAT_DEFAULT	500
#define SYNC_DEFAULT		5000
#define MONITORS_MAX		64

enum section { SEC_NONE, SEC_CLUSTER, SEC_NODES, SEC_GROUPS };

enum key {
	K_TOPOLOGY, K_PORT, K_CONTROL_PORT, K_TRANSPORT, K_ALGORITHM,
	K_HEARTBEAT, K_SUSPECT, K_DEAD, K_SYNC, K_MONITORS, K_KEY, NKEYS
};

#define KEY_NAMES "topology, port, control_port, transport, algorithm, " \
		  "heartbeat, suspect, dead, sync, monitors, key"
#define CONF_ALGOS "auto, u-torus, s-torus, md-torus, mu-torus:R, binomial, " \
	"u-cube, maxport, combine, w-sort, ring, rb or rb-all-port"

struct parser {
	const char *name;
	unsigned int line;		/* 0: messages name no line */
	char *err;
	struct mcd_conf *c;
	enum section sec;
	unsigned int key_line[NKEYS];	/* where each key was set, or 0 */
	uint32_t nodes_cap;
	uint32_t groups_cap;
	uint8_t *seen;			/* configured nodes, a bit each */
};

/* One [nodes] address, or a run of them in its last octet or group. */
struct addr_run {
	int family;
	struct in6_addr base;
	bool octet;		/* dotted: the run is in byte 15, else 14..15 */
	uint32_t start;
	uint32_t count;
	bool range;
};

__attribute__((format(printf, 2, 3)))
static int perr(struct parser *p, const char *fmt, ...)
{
	size_t max = MCD_CONF_ERR_MAX;
	va_list ap;
	int n;

	if (p->line)
		n = snprintf(p->err, max, "%s:%u: ", p->name, p->line);
	else
		n = snprintf(p->err, max, "%s: ", p->name);
	if (n < 0 || (size_t)n >= max)
		n = 0;
	va_start(ap, fmt);
	vsnprintf(p->err + n, max - n, fmt, ap);
	va_end(ap);
	return -1;
}

static bool bit_test(const uint8_t *map, uint32_t i)
{
	return map[i / 8] & (1u << (i % 8));
}

static void bit_set(uint8_t *map, uint32_t i)
{
	map[i / 8] |= 1u << (i % 8);
}

static uint8_t *bitmap_new(uint32_t bits)
{
	return calloc(bits / 8 + 1, 1);
}

static char *trim(char *s)
{
	char *e;

	s += strspn(s, " \t");
	e = s + strlen(s);
	while (e > s && (e[-1] == ' ' || e[-1] == '\t'))
		e--;
	*e = '\0';
	return s;
}

/* @len digits of @base at @s (checked by the caller), saturating. */
static uint32_t num_value(const char *s, size_t len, unsigned int base)
{
	uint64_t v = 0;

	while (len-- && v <= UINT32_MAX) {
		char ch = *s++;

		v = v * base + (ch <= '9' ? ch - '0' : (ch | 0x20) - 'a' + 10);
	}
	return v > UINT32_MAX ? UINT32_MAX : v;
}

static const char *coord_str(const struct parser *p, uint32_t id, char *buf)
{
	return format_coord(&p->c->torus, id, false, buf);
}

static const char *addr_str(int family, const struct in6_addr *a, char *buf)
{
	const void *src = family == AF_INET ? (const void *)&a->s6_addr[12] : a;

	return inet_ntop(family, src, buf, INET6_ADDRSTRLEN);
}

/* "500ms" as written back in messages: whole seconds as "2s". */
static const char *ms_str(uint32_t ms, char *buf, size_t size)
{
	if (ms % 1000)
		snprintf(buf, size, "%ums", ms);
	else
		snprintf(buf, size, "%us", ms / 1000);
	return buf;
}

/* ---------------------------------------------------------------- [cluster] */

static int set_topology(struct parser *p, const char *v)
{
	struct mcd_conf *c = p->c;
	char why[PARSE_ERR_MAX];

	if (!strncmp(v, "switch:", 7)) {	/* a switched cluster's file */
		if (switch_topology_load(v + 7, &c->torus, why))
			return perr(p, "%s", why);
	} else if (parse_topology(v, &c->torus, why)) {
		return perr(p, "%s", why);
	}
	if (strlen(v) >= sizeof(c->topology))
		return perr(p, "topology: longer than %zu characters",
			    sizeof(c->topology) - 1);
	strcpy(c->topology, v);
	p->seen = bitmap_new(c->torus.nodes);
	if (!p->seen)
		return perr(p, "%s", strerror(ENOMEM));
	return 0;
}

static int parse_port(struct parser *p, const char *key, const char *v,
		      uint16_t *out)
{
	char q[QUOTE];
	u32 x;

	if (parse_u32(v, UINT16_MAX, &x) || !x)
		return perr(p, "%s \"%s\": must be 1 to 65535", key,
			    printable(v, q, sizeof(q)));
	*out = x;
	return 0;
}

static int set_port(struct parser *p, const char *v)
{
	return parse_port(p, "port", v, &p->c->port);
}

static int set_control_port(struct parser *p, const char *v)
{
	return parse_port(p, "control_port", v, &p->c->control_port);
}

static int set_transport(struct parser *p, const char *v)
{
	static const char word[] = "abcdefghijklmnopqrstuvwxyz0123456789_-";
	char q[QUOTE];

	/* mcast.ko's rule, and a word: a file's name is no place to guess */
	if (!transport_name_ok(v) || strspn(v, word) != strlen(v))
		return perr(p, "transport \"%s\": expected a word of a-z, 0-9, _ and -, up to %d characters",
			    printable(v, q, sizeof(q)), TRANSPORT_NAME_CHARS);
	strcpy(p->c->transport, v);
	return 0;
}

/* A torus algorithm, parse_algorithm()'s, with R as the kernel takes it. */
static int set_torus_algorithm(struct parser *p, const char *v,
			       const char *q)
{
	struct mcd_conf *c = p->c;
	char why[PARSE_ERR_MAX];

	if (parse_algorithm(v, &c->algo, &c->algo_r, why))
		return perr(p, "%s", why);
	if (c->algo == MC_ALGO_MUTORUS && c->algo_r > NODE_ALGO_R_MAX)
		return perr(p, "algorithm \"%s\": R must be 2 to %u", q,
			    NODE_ALGO_R_MAX);
	/* canonical, so it fits: "mu-torus:007" is "mu-torus:7" */
	if (c->algo == MC_ALGO_MUTORUS)
		snprintf(c->algorithm, sizeof(c->algorithm), "mu-torus:%u",
			 c->algo_r);
	else
		snprintf(c->algorithm, sizeof(c->algorithm), "%s",
			 algo_name(c->algo));
	return 0;
}

/*
 * What a node may be set to (node_algo_find()'s names: parse_algorithm()'s
 * less "separate", plus "auto", a hypercube's and rb's).  Only a torus
 * one takes a parameter: auto is told it takes none, any other name with
 * one is no algorithm at all.
 */
static int set_algorithm(struct parser *p, const char *v)
{
	struct mcd_conf *c = p->c;
	size_t len = strcspn(v, ":");
	const struct algo_info *a = node_algo_find(v, len);
	char q[QUOTE];

	printable(v, q, sizeof(q));
	c->rb = false;
	if (!a || (v[len] && !a->torus && a->node != MCAST_ALGORITHM_AUTO))
		return perr(p, "algorithm \"%s\": expected " CONF_ALGOS, q);
	if (a->node == MCAST_ALGORITHM_AUTO) {
		if (v[len])
			return perr(p, "algorithm \"%s\" takes no parameter", q);
		strcpy(c->algorithm, "auto");
		return 0;
	}
	if (a->torus)
		return set_torus_algorithm(p, v, q);
	if (a->plan == ALGO_NONE) {
		/*
		 * Recursion-based broadcast (Zhuang and Liberatore): no enum
		 * mc_algo, the node's broadcasts go by it and its other sends
		 * by U-torus.
		 */
		c->rb = true;
		c->rb_ports = a->node == MCAST_ALGORITHM_RB ? MC_RB_ONE_PORT :
			      MC_RB_ALL_PORT;
		c->algo = MC_ALGO_UTORUS;
	} else {
		/* a hypercube's (mcastctl plan has them under cube:N) */
		c->algo = a->plan;
	}
	c->algo_r = a->plan_r;
	strcpy(c->algorithm, v);
	return 0;
}

/* "500ms", "2s" or "2 s": a whole number and its unit, min..max ms. */
static int parse_ms(struct parser *p, const char *key, const char *v,
		    uint32_t min, uint32_t max, uint32_t *out)
{
	size_t n = strspn(v, "0123456789");
	const char *unit = v + n + strspn(v + n, " \t");
	char q[QUOTE], lo[16], hi[16];
	uint64_t x = num_value(v, n, 10);

	printable(v, q, sizeof(q));
	if (!n || (strcmp(unit, "ms") && strcmp(unit, "s")))
		return perr(p, "%s \"%s\": expected a whole number of ms or s, e.g. 500ms or 2s",
			    key, q);
	if (!strcmp(unit, "s"))
		x *= 1000;
	if (x < min || x > max)
		return perr(p, "%s \"%s\": must be %s to %s", key, q,
			    ms_str(min, lo, sizeof(lo)),
			    ms_str(max, hi, sizeof(hi)));
	*out = x;
	return 0;
}

/*
 * Heartbeats every 10ms to 60s; suspect and dead up to four times the
 * longest heartbeat, so that their defaults can always be written out.
 */
static int set_heartbeat(struct parser *p, const char *v)
{
	return parse_ms(p, "heartbeat", v, 10, 60000, &p->c->heartbeat_ms);
}

static int set_suspect(struct parser *p, const char *v)
{
	return parse_ms(p, "suspect", v, 10, 240000, &p->c->suspect_ms);
}

static int set_dead(struct parser *p, const char *v)
{
	return parse_ms(p, "dead", v, 10, 240000, &p->c->dead_ms);
}

static int set_sync(struct parser *p, const char *v)
{
	return parse_ms(p, "sync", v, 10, 60000, &p->c->sync_ms);
}

static int set_monitors(struct parser *p, const char *v)
{
	char q[QUOTE];

	if (parse_u32(v, MONITORS_MAX, &p->c->monitors))
		return perr(p, "monitors \"%s\": must be 0 to %u (0: the square root of the other nodes)",
			    printable(v, q, sizeof(q)), MONITORS_MAX);
	return 0;
}

static int set_key(struct parser *p, const char *v)
{
	char q[QUOTE];

	if (v[0] != '/')
		return perr(p, "key \"%s\": must be an absolute path",
			    printable(v, q, sizeof(q)));
	if (strlen(v) >= sizeof(p->c->key_file))
		return perr(p, "key: path longer than %zu characters",
			    sizeof(p->c->key_file) - 1);
	strcpy(p->c->key_file, v);
	return 0;
}

static const struct {
	const char *name;
	int (*set)(struct parser *p, const char *v);
} keys[NKEYS] = {
	[K_TOPOLOGY] = { "topology", set_topology },
	[K_PORT] = { "port", set_port },
	[K_CONTROL_PORT] = { "control_port", set_control_port },
	[K_TRANSPORT] = { "transport", set_transport },
	[K_ALGORITHM] = { "algorithm", set_algorithm },
	[K_HEARTBEAT] = { "heartbeat", set_heartbeat },
	[K_SUSPECT] = { "suspect", set_suspect },
	[K_DEAD] = { "dead", set_dead },
	[K_SYNC] = { "sync", set_sync },
	[K_MONITORS] = { "monitors", set_monitors },
	[K_KEY] = { "key", set_key },
};

static int cluster_line(struct parser *p, const char *key, const char *val)
{
	char q[QUOTE];
	int k;

	for (k = 0; k < NKEYS; k++) {
		if (!strcmp(key, keys[k].name))
			break;
	}
	if (k == NKEYS)
		return perr(p, "unknown key \"%s\" in [cluster] (valid: " KEY_NAMES ")",
			    printable(key, q, sizeof(q)));
	if (p->key_line[k])
		return perr(p, "%s repeated (first on line %u)", key,
			    p->key_line[k]);
	p->key_line[k] = p->line;
	return keys[k].set(p, val);
}

/* ------------------------------------------------------------ coordinates */

/*
 * A coordinate, or a run "a,b,c-d" of them in its last element (dimension
 * 0, whose ids are consecutive).  @what starts each message.
 */
static int parse_coords(struct parser *p, const char *what, const char *s,
			uint32_t *first, uint32_t *count)
{
	const struct mc_torus *t = &p->c->torus;
	const char *dash = strchr(s, '-'), *comma = strrchr(s, ',');
	char why[PARSE_ERR_MAX], q[QUOTE], lo[LINE_CHARS + 1];
	size_t len, pre;
	u32 a, b;

	printable(s, q, sizeof(q));
	if (!dash) {
		if (parse_coord(t, s, first, why))
			return perr(p, "%s%s", what, why);
		*count = 1;
		return 0;
	}
	if (comma && comma > dash)
		return perr(p, "%smalformed coordinate \"%s\": only its last element may be a range a-b",
			    what, q);
	len = strspn(dash + 1, "0123456789");
	if (!len || (dash[1 + len] && strcmp(dash + 1 + len, ")")))
		return perr(p, "%smalformed range \"%s\": expected a-b in the last element",
			    what, q);
	/* the coordinate of the run's first node: s less "-b" */
	pre = dash - s;
	snprintf(lo, sizeof(lo), "%.*s%s", (int)pre, s, dash + 1 + len);
	if (parse_coord(t, lo, first, why))
		return perr(p, "%s%s", what, why);
	a = mc_sigma(t, *first, 0);
	b = num_value(dash + 1, len, 10);
	if (b >= t->k[0])
		return perr(p, "%srange \"%s\" runs past the torus: dimension 0 has radix %u",
			    what, q, t->k[0]);
	if (b < a)
		return perr(p, "%srange \"%s\" runs backwards", what, q);
	*count = b - a + 1;
	return 0;
}

/* --------------------------------------------------------------- [nodes] */

/* The end of a run "-4" (decimal after a dotted quad, hex after a group). */
static int parse_run_end(struct parser *p, struct addr_run *a,
			 const char *val, const char *end)
{
	const char *digits = a->octet ? "0123456789" : "0123456789abcdefABCDEF";
	size_t n = strlen(end);
	char q[QUOTE];
	uint32_t x;

	printable(val, q, sizeof(q));
	if (!n || strspn(end, digits) != n)
		return perr(p, "address range \"%s\": expected a run in the last %s, e.g. %s",
			    q, a->octet ? "octet" : "group",
			    a->octet ? "10.77.0.1-4" : "fd00::1-4");
	x = num_value(end, n, a->octet ? 10 : 16);
	if (x > (a->octet ? 0xffu : 0xffffu))
		return perr(p, "address range \"%s\" runs past the last %s (%s)",
			    q, a->octet ? "octet" : "group",
			    a->octet ? "255" : "ffff");
	if (x < a->start)
		return perr(p, "address range \"%s\" runs backwards", q);
	a->count = x - a->start + 1;
	a->range = true;
	return 0;
}

static int parse_addr(struct parser *p, const char *val, struct addr_run *a)
{
	const char *dash = strchr(val, '-');
	size_t len = dash ? (size_t)(dash - val) : strlen(val);
	char buf[INET6_ADDRSTRLEN], q[QUOTE];
	struct in_addr v4;
	uint8_t *b = a->base.s6_addr;

	memset(a, 0, sizeof(*a));
	if (len < sizeof(buf)) {
		memcpy(buf, val, len);
		buf[len] = '\0';
	}
	if (len < sizeof(buf) && inet_pton(AF_INET, buf, &v4) == 1) {
		b[10] = b[11] = 0xff;
		memcpy(&b[12], &v4, 4);
	} else if (len >= sizeof(buf) ||
		   inet_pton(AF_INET6, buf, &a->base) != 1) {
		return perr(p, "address \"%s\": expected an IPv4 or IPv6 address, or a run such as 10.77.0.1-4 or fd00::1-4",
			    printable(val, q, sizeof(q)));
	}
	a->family = IN6_IS_ADDR_V4MAPPED(&a->base) ? AF_INET : AF_INET6;
	a->octet = memchr(buf, '.', len) != NULL;
	a->start = a->octet ? b[15] : (uint32_t)b[14] << 8 | b[15];
	a->count = 1;
	return dash ? parse_run_end(p, a, val, dash + 1) : 0;
}

static void addr_at(const struct addr_run *a, uint32_t i, struct in6_addr *out)
{
	uint32_t x = a->start + i;

	*out = a->base;
	if (a->octet) {
		out->s6_addr[15] = x;
	} else {
		out->s6_addr[14] = x >> 8;
		out->s6_addr[15] = x;
	}
}

/* Datagrams go to and come from it: no wildcard, multicast or broadcast. */
static bool is_unicast(int family, const struct in6_addr *a)
{
	const uint8_t *b = a->s6_addr;
	static const uint8_t bcast[4] = { 255, 255, 255, 255 };

	if (family == AF_INET)
		return (b[12] || b[13] || b[14] || b[15]) &&
		       (b[12] & 0xf0) != 0xe0 && memcmp(&b[12], bcast, 4);
	return !IN6_IS_ADDR_UNSPECIFIED(a) && !IN6_IS_ADDR_MULTICAST(a);
}

static const struct mcd_conf_node *find_node(const struct mcd_conf *c,
					     uint32_t id)
{
	uint32_t i;

	for (i = 0; i < c->nnodes; i++) {
		if (c->nodes[i].id == id)
			return &c->nodes[i];
	}
	return NULL;
}

static int grow(struct parser *p, void **arr, uint32_t *cap, uint32_t need,
		size_t size)
{
	uint32_t n = *cap ? *cap : 16;
	void *q;

	if (need <= *cap)
		return 0;
	while (n < need)
		n *= 2;
	q = realloc(*arr, (size_t)n * size);
	if (!q)
		return perr(p, "%s", strerror(ENOMEM));
	*arr = q;
	*cap = n;
	return 0;
}

/* Each node of the run, once; the torus bounds how many there can be. */
static int add_nodes(struct parser *p, uint32_t first, uint32_t count,
		     const struct addr_run *a)
{
	struct mcd_conf *c = p->c;
	char cs[COORD_STR_MAX], as[INET6_ADDRSTRLEN];
	uint32_t i;

	for (i = 0; i < count; i++) {
		struct mcd_conf_node *n;

		if (bit_test(p->seen, first + i))
			return perr(p, "node %s listed twice (first on line %u)",
				    coord_str(p, first + i, cs),
				    find_node(c, first + i)->line);
		if (c->nnodes == MCD_MAX_NODES)
			return perr(p, "node %s: more than %u nodes (mcastd's limit)",
				    coord_str(p, first + i, cs), MCD_MAX_NODES);
		n = &c->nodes[c->nnodes];
		n->id = first + i;
		n->family = a->family;
		addr_at(a, i, &n->addr);
		n->line = p->line;
		if (!is_unicast(n->family, &n->addr))
			return perr(p, "node %s: address %s is not a unicast address",
				    coord_str(p, n->id, cs),
				    addr_str(n->family, &n->addr, as));
		bit_set(p->seen, n->id);
		c->nnodes++;
	}
	return 0;
}

static int node_line(struct parser *p, const char *key, const char *val)
{
	struct mcd_conf *c = p->c;
	struct addr_run a;
	char q[QUOTE], qa[QUOTE];
	uint32_t first, count;

	printable(key, q, sizeof(q));
	if (!c->torus.nodes)
		return perr(p, "node %s: the topology is not known yet: [cluster] topology must come before [nodes]",
			    q);
	if (parse_coords(p, "", key, &first, &count) ||
	    parse_addr(p, val, &a))
		return -1;
	printable(val, qa, sizeof(qa));
	if (count > 1 && !a.range)
		return perr(p, "node range %s has %u nodes but \"%s\" is one address: write a run of %u in its last octet or group",
			    q, count, qa, count);
	if (count == 1 && a.range)
		return perr(p, "address range \"%s\" has %u addresses but %s is one node: write a node range a-b in its last element",
			    qa, a.count, q);
	if (count != a.count)
		return perr(p, "node range %s has %u nodes but address range \"%s\" has %u: the sizes differ",
			    q, count, qa, a.count);
	if (grow(p, (void **)&c->nodes, &p->nodes_cap, c->nnodes + count,
		 sizeof(*c->nodes)))
		return -1;
	return add_nodes(p, first, count, &a);
}

/* -------------------------------------------------------------- [groups] */

/* The members of a static group, each once: sorted into @g. */
static int parse_members(struct parser *p, struct mcd_conf_group *g,
			 char *list)
{
	uint32_t cap = 0, first, count, i;
	uint8_t *in;
	char what[32], cs[COORD_STR_MAX], *save, *tok;
	int err = 0;

	if (!p->c->torus.nodes)
		return perr(p, "group %u: the topology is not known yet: [cluster] topology must come before static groups",
			    g->id);
	in = bitmap_new(p->c->torus.nodes);
	if (!in)
		return perr(p, "%s", strerror(ENOMEM));
	snprintf(what, sizeof(what), "group %u: ", g->id);
	for (tok = strtok_r(list, " \t", &save); tok && !err;
	     tok = strtok_r(NULL, " \t", &save)) {
		err = parse_coords(p, what, tok, &first, &count) ||
		      grow(p, (void **)&g->members, &cap, g->n + count,
			   sizeof(*g->members));
		for (i = 0; i < count && !err; i++) {
			if (bit_test(in, first + i)) {
				err = perr(p, "group %u: member %s repeated",
					   g->id, coord_str(p, first + i, cs));
				break;
			}
			bit_set(in, first + i);
			g->members[g->n++] = first + i;
		}
	}
	free(in);
	if (!err && !g->n)
		err = perr(p, "group %u: static needs at least one member",
			   g->id);
	if (!err)
		mc_sort_u32(g->members, g->n);
	return err ? -1 : 0;
}

static int group_line(struct parser *p, const char *key, char *val)
{
	struct mcd_conf *c = p->c;
	struct mcd_conf_group *g;
	char q[QUOTE], *rest;
	size_t len;
	u32 id;

	if (parse_u32(key, UINT32_MAX, &id) || !id)
		return perr(p, "group \"%s\": the id must be 1 to 4294967295",
			    printable(key, q, sizeof(q)));
	if (grow(p, (void **)&c->groups, &p->groups_cap, c->ngroups + 1,
		 sizeof(*c->groups)))
		return -1;
	g = &c->groups[c->ngroups++];
	memset(g, 0, sizeof(*g));
	g->id = id;
	g->line = p->line;
	len = strcspn(val, " \t");
	rest = val + len + strspn(val + len, " \t");
	val[len] = '\0';
	if (!strcmp(val, "dynamic")) {
		if (*rest)
			return perr(p, "group %u: dynamic takes no members (its members join)",
				    id);
		return 0;
	}
	if (strcmp(val, "static"))
		return perr(p, "group %u: \"%s\": expected static COORD ... or dynamic",
			    id, printable(val, q, sizeof(q)));
	g->fixed = true;
	return parse_members(p, g, rest);
}

/* ---------------------------------------------------------------- lines */

static int section_line(struct parser *p, char *s)
{
	static const char *const names[] = {
		[SEC_CLUSTER] = "cluster",
		[SEC_NODES] = "nodes",
		[SEC_GROUPS] = "groups",
	};
	char *close = strchr(s, ']'), *name, q[QUOTE];
	int i;

	if (!close)
		return perr(p, "section header \"%s\" lacks its ']'",
			    printable(s, q, sizeof(q)));
	if (*trim(close + 1))
		return perr(p, "text after the section header: \"%s\"",
			    printable(close + 1, q, sizeof(q)));
	*close = '\0';
	name = trim(s + 1);
	for (i = SEC_CLUSTER; i <= SEC_GROUPS; i++) {
		if (!strcmp(name, names[i])) {
			p->sec = i;
			return 0;
		}
	}
	return perr(p, "unknown section [%s] (valid: cluster, nodes, groups)",
		    printable(name, q, sizeof(q)));
}

static int parse_line(struct parser *p, char *line)
{
	char *s, *eq, *key, *val, q[QUOTE];

	line[strcspn(line, "#;")] = '\0';
	s = trim(line);
	if (!*s)
		return 0;
	if (*s == '[')
		return section_line(p, s);
	eq = strchr(s, '=');
	if (!eq)
		return perr(p, "missing '=' in \"%s\": expected KEY = VALUE or [section]",
			    printable(s, q, sizeof(q)));
	*eq = '\0';
	key = trim(s);
	val = trim(eq + 1);
	printable(key, q, sizeof(q));
	if (!*key)
		return perr(p, "nothing before '=': expected KEY = VALUE");
	if (p->sec == SEC_NONE)
		return perr(p, "key \"%s\" outside a section: keys belong under [cluster], [nodes] or [groups]",
			    q);
	if (!*val)
		return perr(p, "\"%s\" has no value after '='", q);
	if (p->sec == SEC_CLUSTER)
		return cluster_line(p, key, val);
	if (p->sec == SEC_NODES)
		return node_line(p, key, val);
	return group_line(p, key, val);
}

/* Text only: no NUL, no control character but tab. */
static int check_text(struct parser *p, const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		unsigned char ch = s[i];

		if (!ch)
			return perr(p, "NUL byte in column %zu: not a text file?",
				    i + 1);
		if ((ch < 0x20 && ch != '\t') || ch == 0x7f)
			return perr(p, "control character 0x%02x in column %zu: not a text file?",
				    ch, i + 1);
	}
	return 0;
}

static int parse_lines(struct parser *p, const char *s, size_t len)
{
	const char *end = s + len;
	char line[LINE_CHARS + 1];

	/* a byte order mark some editors write */
	if (len >= 3 && !memcmp(s, "\xef\xbb\xbf", 3))
		s += 3;
	while (s < end) {
		const char *nl = memchr(s, '\n', end - s);
		size_t n = (nl ? nl : end) - s;

		p->line++;
		if (n && s[n - 1] == '\r')
			n--;
		if (n > LINE_CHARS)
			return perr(p, "line longer than %u characters",
				    LINE_CHARS);
		if (check_text(p, s, n))
			return -1;
		memcpy(line, s, n);
		line[n] = '\0';
		if (parse_line(p, line))
			return -1;
		s = nl ? nl + 1 : end;
	}
	return 0;
}

/* ------------------------------------------------------------ after it */

static int cmp_u32(uint32_t a, uint32_t b)
{
	return a < b ? -1 : a > b;
}

static int cmp_node(const void *a, const void *b)
{
	const struct mcd_conf_node *x = a, *y = b;

	return cmp_u32(x->id, y->id);
}

static int cmp_group(const void *a, const void *b)
{
	const struct mcd_conf_group *x = a, *y = b;

	if (x->id != y->id)
		return cmp_u32(x->id, y->id);
	return cmp_u32(x->line, y->line);
}

struct addr_key {
	struct in6_addr addr;
	uint32_t line;
	uint32_t idx;
};

static int cmp_addr_key(const void *a, const void *b)
{
	const struct addr_key *x = a, *y = b;
	int d = memcmp(&x->addr, &y->addr, sizeof(x->addr));

	return d ? d : cmp_u32(x->line, y->line);
}

/*
 * Index the nodes by address.  Of all repeats, the one written first is
 * reported: in each run of equal addresses (sorted by line) the second.
 */
static int index_addrs(struct parser *p)
{
	struct mcd_conf *c = p->c;
	const struct mcd_conf_node *orig = NULL, *dup = NULL;
	char as[INET6_ADDRSTRLEN], cs[COORD_STR_MAX], cs2[COORD_STR_MAX];
	struct addr_key *k = malloc(c->nnodes * sizeof(*k));
	uint32_t i, j;

	c->by_addr = malloc(c->nnodes * sizeof(*c->by_addr));
	if (!k || !c->by_addr) {
		free(k);
		return perr(p, "%s", strerror(ENOMEM));
	}
	for (i = 0; i < c->nnodes; i++) {
		k[i].addr = c->nodes[i].addr;
		k[i].line = c->nodes[i].line;
		k[i].idx = i;
	}
	qsort(k, c->nnodes, sizeof(*k), cmp_addr_key);
	for (i = 0; i < c->nnodes; i = j) {
		for (j = i + 1; j < c->nnodes; j++) {
			if (memcmp(&k[i].addr, &k[j].addr, sizeof(k[i].addr)))
				break;
		}
		if (j - i > 1 && (!dup || k[i + 1].line < dup->line)) {
			orig = &c->nodes[k[i].idx];
			dup = &c->nodes[k[i + 1].idx];
		}
	}
	for (i = 0; i < c->nnodes; i++)
		c->by_addr[i] = k[i].idx;
	free(k);
	if (!dup)
		return 0;
	p->line = dup->line;
	return perr(p, "address %s of node %s listed twice (first on line %u, node %s)",
		    addr_str(dup->family, &dup->addr, as),
		    coord_str(p, dup->id, cs), orig->line,
		    coord_str(p, orig->id, cs2));
}

/* Groups by id, each once; static members must be configured nodes. */
static int check_groups(struct parser *p)
{
	struct mcd_conf *c = p->c;
	const struct mcd_conf_group *orig = NULL, *dup = NULL, *g;
	char cs[COORD_STR_MAX];
	uint32_t i, j;

	if (c->ngroups)
		qsort(c->groups, c->ngroups, sizeof(*c->groups), cmp_group);
	for (i = 0; i < c->ngroups; i = j) {
		for (j = i + 1; j < c->ngroups; j++) {
			if (c->groups[j].id != c->groups[i].id)
				break;
		}
		if (j - i > 1 && (!dup || c->groups[i + 1].line < dup->line)) {
			orig = &c->groups[i];
			dup = &c->groups[i + 1];
		}
	}
	if (dup) {
		p->line = dup->line;
		return perr(p, "group %u listed twice (first on line %u)",
			    dup->id, orig->line);
	}
	for (g = c->groups; g < c->groups + c->ngroups; g++) {
		for (j = 0; j < g->n; j++) {
			if (bit_test(p->seen, g->members[j]))
				continue;
			p->line = g->line;
			return perr(p, "group %u: member %s is not a configured node (add it to [nodes])",
				    g->id, coord_str(p, g->members[j], cs));
		}
	}
	return 0;
}

/* The later of two keys' lines: where a conflict between them shows. */
static unsigned int later(const struct parser *p, enum key a, enum key b)
{
	return p->key_line[a] > p->key_line[b] ? p->key_line[a] :
						 p->key_line[b];
}

static int check_cluster(struct parser *p)
{
	struct mcd_conf *c = p->c;
	const char *why = NULL;

	if (!c->port)
		c->port = PORT_DEFAULT;
	if (!c->control_port && c->port == UINT16_MAX) {
		p->line = p->key_line[K_PORT];
		return perr(p, "port 65535 leaves no room for the default control_port (port + 1): set control_port");
	}
	if (!c->control_port)
		c->control_port = c->port + 1;
	if (c->control_port == c->port) {
		p->line = later(p, K_PORT, K_CONTROL_PORT);
		return perr(p, "control_port %u is the data port too: they must differ",
			    c->control_port);
	}
	if (!c->heartbeat_ms)
		c->heartbeat_ms = HEARTBEAT_DEFAULT;
	if (!c->suspect_ms)
		c->suspect_ms = 4 * c->heartbeat_ms;
	if (!c->dead_ms)
		c->dead_ms = 4 * c->heartbeat_ms;
	if (!c->sync_ms)
		c->sync_ms = SYNC_DEFAULT;
	if (c->suspect_ms <= c->heartbeat_ms) {
		char s[16], h[16];

		p->line = later(p, K_HEARTBEAT, K_SUSPECT);
		return perr(p, "suspect %s must be longer than heartbeat %s",
			    ms_str(c->suspect_ms, s, sizeof(s)),
			    ms_str(c->heartbeat_ms, h, sizeof(h)));
	}
	/*
	 * As mcast.ko checks a node's rb: the shape, in its port model, as a
	 * mesh's (the schedule is the same on a torus of either links).
	 */
	if (p->key_line[K_ALGORITHM] && c->rb) {
		struct mc_rb rb;

		if (mc_rb_init(&rb, &c->torus, true, c->rb_ports,
			       MC_RB_ORDER_RANGES, &why)) {
			p->line = later(p, K_ALGORITHM, K_TOPOLOGY);
			return perr(p, "algorithm %s cannot run on %s: %s",
				    c->algorithm, c->topology,
				    why ? why : "no recursion-based broadcast there");
		}
	}
	if (p->key_line[K_ALGORITHM] && strcmp(c->algorithm, "auto") &&
	    mc_algo_supported(&c->torus, c->algo, c->algo_r, &why)) {
		p->line = later(p, K_ALGORITHM, K_TOPOLOGY);
		return perr(p, "algorithm %s cannot run on %s: %s",
			    c->algorithm, c->topology, why);
	}
	return 0;
}

static int finish(struct parser *p)
{
	struct mcd_conf *c = p->c;

	p->line = 0;
	if (!p->key_line[K_TOPOLOGY])
		return perr(p, "no topology: [cluster] needs topology = torus:K[xK...][:uni|:bi]");
	if (!c->nnodes)
		return perr(p, "no nodes: list them under [nodes] as COORD = ADDRESS");
	qsort(c->nodes, c->nnodes, sizeof(*c->nodes), cmp_node);
	if (index_addrs(p) || check_groups(p))
		return -1;
	return check_cluster(p);
}

/* ------------------------------------------------------------------ API */

void mcd_conf_free(struct mcd_conf *c)
{
	uint32_t i;

	for (i = 0; i < c->ngroups; i++)
		free(c->groups[i].members);
	free(c->groups);
	free(c->nodes);
	free(c->by_addr);
	memset(c, 0, sizeof(*c));
}

int mcd_conf_parse_mem(const void *buf, size_t len, const char *name,
		       struct mcd_conf *c, char *err)
{
	struct parser p = { .name = name, .err = err, .c = c };
	int rc;

	memset(c, 0, sizeof(*c));
	snprintf(c->path, sizeof(c->path), "%s", name);
	rc = parse_lines(&p, buf, len);
	if (!rc)
		rc = finish(&p);
	free(p.seen);
	if (rc)
		mcd_conf_free(c);
	return rc;
}

int mcd_conf_parse(const char *text, const char *name, struct mcd_conf *c,
		   char *err)
{
	return mcd_conf_parse_mem(text, strlen(text), name, c, err);
}

/* All of @fd, at most FILE_BYTES (else EFBIG); errno set on failure. */
static char *read_all(int fd, size_t *len)
{
	size_t cap = 0, n = 0;
	char *buf = NULL, *q;
	ssize_t r;
	int e;

	for (;;) {
		if (n == cap) {
			cap = cap ? cap * 2 : 4096;
			if (cap > FILE_BYTES + 1)
				cap = FILE_BYTES + 1;
			q = realloc(buf, cap);
			if (!q) {
				errno = ENOMEM;
				break;
			}
			buf = q;
		}
		r = read(fd, buf + n, cap - n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			break;
		n += r;
		if (n > FILE_BYTES) {
			errno = EFBIG;
			break;
		}
		if (!r) {
			*len = n;
			return buf;
		}
	}
	e = errno;
	free(buf);
	errno = e;
	return NULL;
}

int mcd_conf_load(const char *path, struct mcd_conf *c, char *err)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	size_t len = 0;
	char *buf;
	int rc;

	memset(c, 0, sizeof(*c));
	if (fd < 0) {
		snprintf(err, MCD_CONF_ERR_MAX, "%s: %s", path, strerror(errno));
		return -1;
	}
	buf = read_all(fd, &len);
	if (!buf) {
		if (errno == EFBIG)
			snprintf(err, MCD_CONF_ERR_MAX, "%s: larger than %u MiB: not a configuration file?",
				 path, FILE_BYTES >> 20);
		else
			snprintf(err, MCD_CONF_ERR_MAX, "%s: %s", path,
				 strerror(errno));
		close(fd);
		return -1;
	}
	close(fd);
	rc = mcd_conf_parse_mem(buf, len, path, c, err);
	free(buf);
	return rc;
}

const struct mcd_conf_node *mcd_conf_node(const struct mcd_conf *c,
					  uint32_t id)
{
	uint32_t lo = 0, hi = c->nnodes;

	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (c->nodes[mid].id == id)
			return &c->nodes[mid];
		if (c->nodes[mid].id < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

const struct mcd_conf_node *mcd_conf_node_by_addr(const struct mcd_conf *c,
						  const struct in6_addr *addr)
{
	uint32_t lo = 0, hi = c->nnodes;

	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;
		const struct mcd_conf_node *n = &c->nodes[c->by_addr[mid]];
		int d = memcmp(addr, &n->addr, sizeof(*addr));

		if (!d)
			return n;
		if (d > 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}
