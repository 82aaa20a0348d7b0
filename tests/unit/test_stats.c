// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * mcastctl stats show's text side (utils/mcastctl/statfmt.c), the real
 * formatter on plain (attribute, value) arrays: every attribute of
 * include/uapi/linux/mcast.h has an area and a kind; the layout of a
 * small set, exactly; -z; an attribute mcastctl does not know; -d's
 * increases, a new group's, and a counter that went down; the history
 * file read back, and corrupt ones refused.
 */
#include <linux/mcast.h>
#include <string.h>

#include "tap.h"
#include "statfmt.h"

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

int main(void)
{
	test_table();
	test_layout();
	test_delta();
	test_history();
	test_corrupt();
	return done_testing();
}
