// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * mcastctl stats show's text side (utils/mcastctl/statfmt.c), the real
 * formatter on plain (attribute, value) arrays: every attribute of
 * include/uapi/linux/mcast.h has an area and a kind; the layout of a
 * small set, exactly; -z; an attribute mcastctl does not know; -d's
 * increases, a new group's, and a counter that went down; the history
 * file read back, and corrupt ones refused.  And --prometheus
 * (statprom.c): every key has a valid, documented metric; the output of
 * a small node and two groups, exactly; many groups checked line by line
 * against the exposition format's rules; label and HELP escaping.
 */
#include <linux/mcast.h>
#include <regex.h>
#include <string.h>

#include "tap.h"
#include "statfmt.h"
#include "statprom.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))

static char *render(const struct stat_set *s, unsigned int flags)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	stat_print(f, s, flags);
	fclose(f);
	return buf;
}

/* The text as "# " lines: TAP, and the layout in the log. */
static void diag_lines(const char *t)
{
	const char *nl;

	for (; (nl = strchr(t, '\n')); t = nl + 1)
		diag("%.*s", (int)(nl - t), t);
}

static void test_table(void)
{
	unsigned int missing = 0, bad = 0, dup = 0;
	size_t i, j;
	int a;

	for (a = 1; a <= MCAST_STATS_A_MAX; a++)
		if (a != MCAST_STATS_A_GROUP && a != MCAST_STATS_A_PAD &&
		    !stat_key_of(a)) {
			diag("attribute %d has no key", a);
			missing++;
		}
	for (i = 0; i < stat_nkeys; i++) {
		const struct stat_key *k = &stat_keys[i];

		if (k->area >= STAT_OTHER || k->kind > STAT_GAUGE ||
		    !k->key || !*k->key) {
			diag("%s: area %u kind %u", k->key, k->area, k->kind);
			bad++;
		}
		for (j = 0; j < i; j++)
			dup += stat_keys[j].attr == k->attr ||
			       !strcmp(stat_keys[j].key, k->key);
	}
	ok(!missing, "every MCAST_STATS_A_* has a key");
	ok(!bad, "every key has one known area and a kind");
	ok(!dup, "no attribute or name twice");
	ok(stat_key_of(MCAST_STATS_A_CWND)->kind == STAT_GAUGE &&
	   stat_key_of(MCAST_STATS_A_TCP_CONNS)->kind == STAT_GAUGE &&
	   stat_key_of(MCAST_STATS_A_RX_MEM)->kind == STAT_GAUGE &&
	   stat_key_of(MCAST_STATS_A_FILES)->kind == STAT_GAUGE &&
	   stat_key_of(MCAST_STATS_A_RETRANS)->kind == STAT_COUNTER &&
	   stat_key_of(MCAST_STATS_A_TIMER_NS)->kind == STAT_COUNTER,
	   "the header's gauges are gauges, its counters counters");
	ok(stat_keys[stat_nkeys - 1].attr == MCAST_STATS_A_FILES,
	   "files last, where JSON prints it");
}

static struct stat_val small[] = {
	{ MCAST_STATS_A_TX_MSGS, 12 },
	{ MCAST_STATS_A_TX_BYTES, 0 },
	{ MCAST_STATS_A_RX_MSGS, 10 },
	{ MCAST_STATS_A_RETRANS, 3 },
	{ MCAST_STATS_A_CWND, 0 },
	{ MCAST_STATS_A_UNACKED, 5 },
	{ MCAST_STATS_A_TCP_EVICTED, 1 },
	{ 200, 7 },
	{ MCAST_STATS_A_FILES, 2 },
};

static const char small_text[] =
	"node:\n"
	"  messages\n"
	"    tx_msgs                        12\n"
	"    rx_msgs                        10\n"
	"    files                           2  gauge\n"
	"  reliability\n"
	"    retrans                         3\n"
	"    cwnd                            0  gauge\n"
	"    unacked                         5  gauge\n"
	"  security\n"
	"    tcp_evicted                     1\n"
	"  other (attributes this mcastctl does not know)\n"
	"    attr_200                        7  gauge\n";

static void test_layout(void)
{
	struct stat_set s = { 0, N(small), small };
	struct stat_set g = { 7, 2, small };
	char *t = render(&s, 0);

	ok(!strcmp(t, small_text), "the layout of a small set");
	diag_lines(t);
	free(t);
	t = render(&s, STAT_ALL);
	ok(strstr(t, "    tx_bytes                        0\n") != NULL,
	   "-z: a zero counter shown");
	free(t);
	t = render(&g, 0);
	ok(!strcmp(t, "group 7:\n  messages\n"
		   "    tx_msgs                        12\n"),
	   "a group's heading; its zero counter hidden");
	free(t);
	t = render(&s, STAT_DELTA);
	ok(!strncmp(t, "node: (counters: the increase since the last "
		    "stats show -d)\n", 60), "-d says what the counters are");
	free(t);
}

static void test_delta(void)
{
	struct stat_val p0[] = { { MCAST_STATS_A_TX_MSGS, 10 },
				 { MCAST_STATS_A_UNACKED, 9 } };
	struct stat_val c0[] = { { MCAST_STATS_A_TX_MSGS, 15 },
				 { MCAST_STATS_A_UNACKED, 4 },
				 { MCAST_STATS_A_RETRANS, 2 } };
	struct stat_val c1[] = { { MCAST_STATS_A_RX_MSGS, 6 } };
	struct stat_set prev[] = { { 0, N(p0), p0 } };
	struct stat_set cur[] = { { 0, N(c0), c0 }, { 3, N(c1), c1 } };

	ok(!stat_delta(cur, N(cur), prev, N(prev)), "delta: computed");
	ok(c0[0].v == 5, "a counter's increase (%llu)",
	   (unsigned long long)c0[0].v);
	ok(c0[1].v == 4, "a gauge as it is, though it went down");
	ok(c0[2].v == 2 && c1[0].v == 6,
	   "a counter or group the history lacks counts from 0");
	c0[0].v = 3;		/* below 10: reloaded */
	c0[2].v = 8;
	ok(stat_delta(cur, N(cur), prev, N(prev)) == -1 && c0[0].v == 3 &&
	   c0[2].v == 8, "a counter that went down: refused, nothing changed");
}

static void test_history(void)
{
	struct stat_set s = { 0, N(small), small }, *r = NULL;
	size_t n = 0, len = 0;
	char *buf = NULL;
	FILE *f = open_memstream(&buf, &len);

	ok(!stat_hist_write(f, &s, 1), "history written");
	fclose(f);
	ok(!strcmp(buf, "mcastctl-stats 1\n0 2 12\n0 3 0\n0 4 10\n0 12 3\n"
		   "0 52 1\n"), "counters only, GROUP ATTR VALUE");
	ok(!stat_hist_parse(buf, len, &r, &n) && n == 1 && r[0].n == 5 &&
	   r[0].v[4].attr == MCAST_STATS_A_TCP_EVICTED && r[0].v[4].v == 1,
	   "read back");
	stat_sets_free(r, n);
	free(buf);
}

static void bad_hist(const char *text, size_t len, const char *what)
{
	struct stat_set *r = NULL;
	size_t n = 0;

	ok(stat_hist_parse(text, len, &r, &n) == -1 && !r,
	   "corrupt history refused: %s", what);
}

#define BAD(s, what) bad_hist(s, sizeof(s) - 1, what)

static void test_corrupt(void)
{
	size_t big = STAT_HIST_MAX + 1;
	char *huge = malloc(big);
	struct stat_set *r = NULL;
	size_t n = 0;

	BAD("", "empty");
	BAD("mcastctl-stats 2\n", "another version");
	BAD("mcastctl-stats 1\n0 2 x\n", "a letter");
	BAD("mcastctl-stats 1\n0 2 -1\n", "a sign");
	BAD("mcastctl-stats 1\n0 2  1\n", "two spaces");
	BAD("mcastctl-stats 1\n0 2 1", "no final newline");
	BAD("mcastctl-stats 1\n0 0 1\n", "attribute 0");
	BAD("mcastctl-stats 1\n0 65536 1\n", "attribute past 16 bits");
	BAD("mcastctl-stats 1\n4294967296 2 1\n", "group past 32 bits");
	BAD("mcastctl-stats 1\n0 2 18446744073709551616\n", "value past 64 bits");
	BAD("mcastctl-stats 1\n0 2 1\0\n", "a NUL byte");
	BAD("mcastctl-stats 1\n0 2 1\n\n", "an empty line");
	ok(!stat_hist_parse("mcastctl-stats 1\n0 2 18446744073709551615\n",
			    42, &r, &n) && r[0].v[0].v == UINT64_MAX,
	   "the largest value read back");
	stat_sets_free(r, n);
	memset(huge, '\n', big);
	memcpy(huge, "mcastctl-stats 1\n", 17);
	bad_hist(huge, big, "past STAT_HIST_MAX");
	free(huge);
}

/* ------------------------------------------------------------ prometheus */

static regex_t name_re;

static bool valid_name(const char *n)
{
	return n && !regexec(&name_re, n, 0, NULL, 0);
}

static bool ends_with(const char *s, const char *tail)
{
	size_t n = strlen(s), t = strlen(tail);

	return n >= t && !strcmp(s + n - t, tail);
}

/* mcast_ prefix, the format's charset; counters _total, gauges not. */
static unsigned int bad_prom_name(const char *name, const char *prefix,
				  const struct stat_key *k)
{
	bool counter = k && k->kind == STAT_COUNTER;

	if (valid_name(name) && !strncmp(name, prefix, strlen(prefix)) &&
	    ends_with(name, "_total") == counter)
		return 0;
	diag("%s: bad metric name for a %s", name ? name : "(null)",
	     counter ? "counter" : "gauge");
	return 1;
}

static bool one_line(const char *s)
{
	return s && *s && !strchr(s, '\n');
}

/* What kmod/genl.c (mcast_put_stats) reports for a group too. */
static bool per_group(int attr)
{
	return attr == MCAST_STATS_A_TX_MSGS || attr == MCAST_STATS_A_TX_BYTES ||
	       attr == MCAST_STATS_A_RX_MSGS || attr == MCAST_STATS_A_RX_BYTES ||
	       attr == MCAST_STATS_A_RX_DROPS || attr == MCAST_STATS_A_FILES;
}

/* Fails when a key is added to stat_keys without a metric and its HELP. */
static void test_prom_table(void)
{
	unsigned int nohelp = 0, bad = 0, stale = 0, dup = 0, grp = 0;
	const char *names[2 * 64];
	size_t i, j, nn = 0;

	for (i = 0; i < stat_nkeys; i++) {
		const struct stat_prom *p = stat_prom_of(stat_keys[i].attr);

		if (!p || !one_line(p->name) || !one_line(p->help)) {
			diag("%s: no metric or HELP text", stat_keys[i].key);
			nohelp++;
		}
	}
	ok(!nohelp, "every stat_keys entry has a metric with a HELP text");
	for (i = 0; i < stat_nproms; i++) {
		const struct stat_prom *p = &stat_proms[i];
		const struct stat_key *k = stat_key_of(p->attr);

		stale += !k;
		bad += bad_prom_name(p->name, "mcast_", k);
		if (p->gname)
			bad += bad_prom_name(p->gname, "mcast_group_", k) +
			       !one_line(p->ghelp);
		bad += p->ns && (!ends_with(p->name, "_seconds_total") ||
				 p->gname);
		grp += !p->gname == per_group(p->attr);
		for (j = 0; j < i; j++)
			dup += stat_proms[j].attr == p->attr;
		if (nn + 2 <= sizeof(names) / sizeof(names[0])) {
			names[nn++] = p->name;
			if (p->gname)
				names[nn++] = p->gname;
		}
	}
	for (i = 0; i < nn; i++)
		for (j = 0; j < i; j++)
			dup += names[i] && names[j] && !strcmp(names[i], names[j]);
	ok(!stale, "every metric is a key's");
	ok(!bad, "names: mcast_[group_]..., [a-zA-Z_:][a-zA-Z0-9_:]*, "
	   "counters and only counters _total, ns in seconds");
	ok(!grp, "a group metric for exactly what the kernel counts per group");
	ok(!dup && nn == stat_nproms + 6, "no attribute or metric name twice");
	ok(!strcmp(stat_prom_of(MCAST_STATS_A_TIMER_NS)->name,
		   "mcast_timer_seconds_total") &&
	   !strcmp(stat_prom_of(MCAST_STATS_A_RX_MEM)->name,
		   "mcast_rx_mem_bytes") &&
	   !strcmp(stat_prom_of(MCAST_STATS_A_TX_MSGS)->gname,
		   "mcast_group_tx_msgs_total"),
	   "base units: seconds and bytes in the names");
}

static char *render_prom(uint32_t node, const struct stat_set *s, size_t n)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	ok(!stat_prom_write(f, node, s, n), "prometheus: written");
	fclose(f);
	return buf;
}

static struct stat_val pnode[] = {
	{ MCAST_STATS_A_TX_MSGS, 12 },
	{ MCAST_STATS_A_TX_BYTES, 0 },
	{ MCAST_STATS_A_TIMER_NS, 1500000001 },
	{ MCAST_STATS_A_CWND, 0 },
	{ 200, 7 },
	{ MCAST_STATS_A_FILES, 2 },
};
static struct stat_val pg7[] = {
	{ MCAST_STATS_A_TX_MSGS, 5 },
	{ MCAST_STATS_A_FILES, 1 },
};
static struct stat_val pg9[] = {
	{ MCAST_STATS_A_TX_MSGS, 0 },
	{ MCAST_STATS_A_RETRANS, 4 },	/* no group metric: left out */
	{ MCAST_STATS_A_FILES, 0 },
};

static const char prom_text[] =
	"# HELP mcast_tx_msgs_total Messages sent from this node, one per send to a group or a node list.\n"
	"# TYPE mcast_tx_msgs_total counter\n"
	"mcast_tx_msgs_total{node=\"3\"} 12\n"
	"# HELP mcast_tx_bytes_total Bytes of the messages sent from this node.\n"
	"# TYPE mcast_tx_bytes_total counter\n"
	"mcast_tx_bytes_total{node=\"3\"} 0\n"
	"# HELP mcast_cwnd The node's congestion window, in data fragments.\n"
	"# TYPE mcast_cwnd gauge\n"
	"mcast_cwnd{node=\"3\"} 0\n"
	"# HELP mcast_timer_seconds_total Time the node's timer work (retransmission, expiry) ran.\n"
	"# TYPE mcast_timer_seconds_total counter\n"
	"mcast_timer_seconds_total{node=\"3\"} 1.500000001\n"
	"# HELP mcast_files Files open on this node's /dev/mcast.\n"
	"# TYPE mcast_files gauge\n"
	"mcast_files{node=\"3\"} 2\n"
	"# HELP mcast_group_tx_msgs_total Messages this node sent to the group.\n"
	"# TYPE mcast_group_tx_msgs_total counter\n"
	"mcast_group_tx_msgs_total{node=\"3\",group=\"7\"} 5\n"
	"mcast_group_tx_msgs_total{node=\"3\",group=\"9\"} 0\n"
	"# HELP mcast_group_files Files on this node joined to the group (its local members).\n"
	"# TYPE mcast_group_files gauge\n"
	"mcast_group_files{node=\"3\",group=\"7\"} 1\n"
	"mcast_group_files{node=\"3\",group=\"9\"} 0\n";

static void test_prom_small(void)
{
	struct stat_set s[] = { { 0, N(pnode), pnode }, { 7, N(pg7), pg7 },
				{ 9, N(pg9), pg9 } };
	char *t = render_prom(3, s, N(s));

	ok(!strcmp(t, prom_text), "prometheus: a node and two groups, exactly "
	   "(zeros kept, unknown attribute and per-node-only value left out)");
	diag_lines(t);
	free(t);
	t = render_prom(3, &s[1], 1);
	ok(!strstr(t, "mcast_tx_msgs_total") &&
	   strstr(t, "mcast_group_tx_msgs_total{node=\"3\",group=\"7\"} 5\n"),
	   "prometheus: one group's alone, no node metric");
	free(t);
}

/* The exposition format's rules, line by line (see check_line). */
struct prom_check {
	char fam[128];		/* the metric of the last TYPE line */
	char help[128];		/* of the last HELP line, awaiting its TYPE */
	char seen[256][128];	/* every metric that had a HELP line */
	size_t nseen;
	unsigned long samples;
	uint32_t node;
};

static int check_head(struct prom_check *c, const char *l)
{
	char name[128], type[16], rest;
	size_t i;

	if (sscanf(l, "# HELP %127s %c", name, &rest) == 2) {
		for (i = 0; i < c->nseen; i++)
			if (!strcmp(c->seen[i], name))
				return -1;	/* a second HELP */
		if (!valid_name(name) || c->help[0] || c->nseen == 256)
			return -1;
		snprintf(c->seen[c->nseen++], sizeof(c->seen[0]), "%s", name);
		snprintf(c->help, sizeof(c->help), "%s", name);
		return 0;
	}
	if (sscanf(l, "# TYPE %127s %15s", name, type) != 2 ||
	    strcmp(name, c->help) ||
	    strcmp(type, ends_with(name, "_total") ? "counter" : "gauge"))
		return -1;
	snprintf(c->fam, sizeof(c->fam), "%s", name);
	c->help[0] = 0;
	return 0;
}

/* NAME{node="N"[,group="G"]} VALUE: right after its metric's TYPE. */
static int check_sample(struct prom_check *c, const char *l)
{
	size_t n = strlen(c->fam);
	bool group = !strncmp(c->fam, "mcast_group_", 12);
	unsigned int node, g;
	char *end;
	int at = 0;

	if (!n || c->help[0] || strncmp(l, c->fam, n) || l[n] != '{')
		return -1;
	l += n;
	if (sscanf(l, "{node=\"%u\"%n", &node, &at) != 1 || !at ||
	    node != c->node)
		return -1;
	l += at;
	at = 0;
	if (group && (sscanf(l, ",group=\"%u\"%n", &g, &at) != 1 || !at || !g))
		return -1;
	l += at;
	if (strncmp(l, "} ", 2) || l[2] < '0' || l[2] > '9')
		return -1;
	strtod(l + 2, &end);
	c->samples++;
	return *end ? -1 : 0;
}

static unsigned int check_exposition(const char *t, uint32_t node,
				     struct prom_check *c)
{
	unsigned int bad = 0;
	char line[512];
	const char *nl;

	memset(c, 0, sizeof(*c));
	c->node = node;
	for (; (nl = strchr(t, '\n')); t = nl + 1) {
		snprintf(line, sizeof(line), "%.*s", (int)(nl - t), t);
		if (line[0] == '#' ? check_head(c, line) : check_sample(c, line)) {
			if (bad++ < 5)
				diag("breaks the format: %s", line);
		}
	}
	return bad + (*t != 0) + (c->help[0] != 0);
}

#define NGROUPS 40

static void test_prom_many(void)
{
	struct stat_set s[1 + NGROUPS];
	struct stat_val *vals = calloc((1 + NGROUPS) * stat_nkeys, sizeof(*vals));
	struct prom_check c;
	size_t i, j, nnode = 0, ngroup = 0;
	char *t;

	/* The node with every key, each group with what the kernel sends. */
	for (i = 0; i <= NGROUPS; i++) {
		s[i] = (struct stat_set){ i ? 1000 + (uint32_t)i : 0, 0,
					  vals + i * stat_nkeys };
		for (j = 0; j < stat_nkeys; j++)
			if (!i || per_group(stat_keys[j].attr))
				s[i].v[s[i].n++] = (struct stat_val){
					stat_keys[j].attr, i * j };
	}
	for (j = 0; j < stat_nkeys; j++) {
		nnode++;
		ngroup += per_group(stat_keys[j].attr);
	}
	t = render_prom(UINT32_MAX, s, N(s));
	ok(!check_exposition(t, UINT32_MAX, &c),
	   "prometheus: %zu groups: HELP then TYPE once per metric, its samples "
	   "right after, labels node and group, numeric values", (size_t)NGROUPS);
	ok(c.nseen == nnode + ngroup, "a metric per key, and per group key "
	   "(%zu)", c.nseen);
	ok(c.samples == nnode + ngroup * NGROUPS,
	   "a sample per node value and per group value, zeros too (%lu)",
	   c.samples);
	ok(strstr(t, "mcast_group_rx_drops_total{node=\"4294967295\",group=\"1040\"} 160\n") != NULL,
	   "the largest node id, the last group's value");
	free(t);
	free(vals);
}

static char *escaped(const char *s, bool quote)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	stat_prom_escape(f, s, quote);
	fclose(f);
	return buf;
}

static void test_prom_escape(void)
{
	char *a = escaped("a\\b\"c\nd", true), *b = escaped("a\\b\"c\nd", false);

	ok(!strcmp(a, "a\\\\b\\\"c\\nd"), "label value: \\, \" and newline escaped (%s)", a);
	ok(!strcmp(b, "a\\\\b\"c\\nd"), "HELP text: \\ and newline escaped, \" kept (%s)", b);
	free(a);
	free(b);
}

int main(void)
{
	if (regcomp(&name_re, "^[a-zA-Z_:][a-zA-Z0-9_:]*$",
		    REG_EXTENDED | REG_NOSUB))
		return 1;
	test_table();
	test_layout();
	test_delta();
	test_history();
	test_corrupt();
	test_prom_table();
	test_prom_small();
	test_prom_many();
	test_prom_escape();
	regfree(&name_re);
	return done_testing();
}
