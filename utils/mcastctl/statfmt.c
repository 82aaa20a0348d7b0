// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * mcastctl stats show's text output: the counters grouped by area, one
 * per line, as ethtool -S and nstat print theirs.  No netlink here, so
 * tests/unit/test_stats.c runs this very code on plain arrays.
 */
#include <stdlib.h>
#include <string.h>

#include <linux/mcast.h>

#include "statfmt.h"

#define C STAT_COUNTER
#define G STAT_GAUGE

/*
 * Kinds from include/uapi/linux/mcast.h: those it calls "a gauge" are
 * levels, the rest only grow (timer_ns is time spent, summed).  FILES is
 * last as JSON always printed it after the others.
 */
const struct stat_key stat_keys[] = {
	{ MCAST_STATS_A_TX_MSGS, "tx_msgs", STAT_MESSAGES, C, true },
	{ MCAST_STATS_A_TX_BYTES, "tx_bytes", STAT_MESSAGES, C, true },
	{ MCAST_STATS_A_RX_MSGS, "rx_msgs", STAT_MESSAGES, C, true },
	{ MCAST_STATS_A_RX_BYTES, "rx_bytes", STAT_MESSAGES, C, true },
	{ MCAST_STATS_A_RX_DROPS, "rx_drops", STAT_MESSAGES, C, true },
	/* the data path's, printed when the kernel reports them */
	{ MCAST_STATS_A_FWD_MSGS, "fwd_msgs", STAT_MESSAGES, C, false },
	{ MCAST_STATS_A_TX_PACKETS, "tx_packets", STAT_DATAGRAMS, C, false },
	{ MCAST_STATS_A_RX_PACKETS, "rx_packets", STAT_DATAGRAMS, C, false },
	{ MCAST_STATS_A_RETRANS, "retrans", STAT_RELIABILITY, C, false },
	{ MCAST_STATS_A_FAST_RETRANS, "fast_retrans", STAT_RELIABILITY, C, false },
	{ MCAST_STATS_A_DUPS, "dups", STAT_RELIABILITY, C, false },
	{ MCAST_STATS_A_PEER_FAILS, "peer_fails", STAT_RELIABILITY, C, false },
	{ MCAST_STATS_A_UNREACHED, "unreached", STAT_RELIABILITY, C, false },
	{ MCAST_STATS_A_RX_BAD_SRC, "rx_bad_src", STAT_SECURITY, C, false },
	{ MCAST_STATS_A_RX_MALFORMED, "rx_malformed", STAT_SECURITY, C, false },
	{ MCAST_STATS_A_REWINDS, "rewinds", STAT_RELIABILITY, C, false },
	{ MCAST_STATS_A_CWND, "cwnd", STAT_RELIABILITY, G, false },
	{ MCAST_STATS_A_UNACKED, "unacked", STAT_RELIABILITY, G, false },
	{ MCAST_STATS_A_RX_MEM, "rx_mem", STAT_MEMORY, G, false },
	{ MCAST_STATS_A_TX_EXPIRED, "tx_expired", STAT_RELIABILITY, C, false },
	{ MCAST_STATS_A_BUSY_SENT, "busy_sent", STAT_MEMORY, C, false },
	{ MCAST_STATS_A_JOBS, "jobs", STAT_MEMORY, G, false },
	{ MCAST_STATS_A_DONE_JOBS, "done_jobs", STAT_MEMORY, G, false },
	{ MCAST_STATS_A_TRANSFERS, "transfers", STAT_MEMORY, G, false },
	{ MCAST_STATS_A_QUEUED, "queued", STAT_MEMORY, G, false },
	{ MCAST_STATS_A_HELD, "held", STAT_MEMORY, G, false },
	{ MCAST_STATS_A_MSG_MEM, "msg_mem", STAT_MEMORY, G, false },
	{ MCAST_STATS_A_STREAMS, "streams", STAT_MEMORY, G, false },
	{ MCAST_STATS_A_FLOORS, "floors", STAT_MEMORY, G, false },
	{ MCAST_STATS_A_LATE, "late", STAT_MESSAGES, C, false },
	{ MCAST_STATS_A_RX_BAD_AUTH, "rx_bad_auth", STAT_SECURITY, C, false },
	{ MCAST_STATS_A_TIMER_NS, "timer_ns", STAT_TIMING, C, false },
	{ MCAST_STATS_A_BLOCKED, "blocked", STAT_MESSAGES, G, false },
	{ MCAST_STATS_A_CUTOFFS, "cutoffs", STAT_MESSAGES, C, false },
	{ MCAST_STATS_A_RX_STALE, "rx_stale", STAT_RELIABILITY, C, false },
	{ MCAST_STATS_A_WORMS, "worms", STAT_OFFLOAD, C, false },
	{ MCAST_STATS_A_WORM_DESTS, "worm_dests", STAT_OFFLOAD, C, false },
	{ MCAST_STATS_A_WORM_SPLITS, "worm_splits", STAT_OFFLOAD, C, false },
	{ MCAST_STATS_A_OFFLOAD_FALLBACKS, "offload_fallbacks", STAT_OFFLOAD, C, false },
	{ MCAST_STATS_A_RX_WORMS, "rx_worms", STAT_OFFLOAD, C, false },
	{ MCAST_STATS_A_RB_SENT, "rb_sent", STAT_RB, C, false },
	{ MCAST_STATS_A_RB_ASSEMBLED, "rb_assembled", STAT_RB, C, false },
	{ MCAST_STATS_A_RB_FALLBACKS, "rb_fallbacks", STAT_RB, C, false },
	{ MCAST_STATS_A_WORM_RESENDS, "worm_resends", STAT_OFFLOAD, C, false },
	{ MCAST_STATS_A_DONE_PROBES, "done_probes", STAT_RELIABILITY, C, false },
	{ MCAST_STATS_A_RX_YOUNG, "rx_young", STAT_RELIABILITY, C, false },
	{ MCAST_STATS_A_ACKS_OLD, "acks_old", STAT_RELIABILITY, C, false },
	{ MCAST_STATS_A_TCP_CONNS, "tcp_conns", STAT_SECURITY, G, false },
	{ MCAST_STATS_A_TCP_EVICTED, "tcp_evicted", STAT_SECURITY, C, false },
	{ MCAST_STATS_A_TCP_UNAUTHED, "tcp_unauthed", STAT_SECURITY, C, false },
	{ MCAST_STATS_A_TCP_IDLE, "tcp_idle", STAT_SECURITY, C, false },
	{ MCAST_STATS_A_TCP_BAD_FRAMES, "tcp_bad_frames", STAT_SECURITY, C, false },
	{ MCAST_STATS_A_FILES, "files", STAT_MESSAGES, G, true },
};

#undef C
#undef G

const size_t stat_nkeys = sizeof(stat_keys) / sizeof(stat_keys[0]);

const char *const stat_area_names[STAT_AREAS] = {
	[STAT_MESSAGES] = "messages",
	[STAT_DATAGRAMS] = "datagrams",
	[STAT_RELIABILITY] = "reliability",
	[STAT_MEMORY] = "memory and bounds",
	[STAT_SECURITY] = "security",
	[STAT_OFFLOAD] = "offload and worms",
	[STAT_RB] = "recursion-based broadcast",
	[STAT_TIMING] = "timing",
	[STAT_OTHER] = "other (attributes this mcastctl does not know)",
};

const struct stat_key *stat_key_of(int attr)
{
	size_t i;

	for (i = 0; i < stat_nkeys; i++)
		if (stat_keys[i].attr == attr)
			return &stat_keys[i];
	return NULL;
}

/* Unknown attributes: gauges, as nothing says they only grow. */
static int val_area(const struct stat_val *v)
{
	const struct stat_key *k = stat_key_of(v->attr);

	return k ? k->area : STAT_OTHER;
}

static bool val_counter(const struct stat_val *v)
{
	const struct stat_key *k = stat_key_of(v->attr);

	return k && k->kind == STAT_COUNTER;
}

static bool val_shown(const struct stat_val *v, unsigned int flags)
{
	return v->v || (flags & STAT_ALL) || !val_counter(v);
}

static void print_val(FILE *f, const struct stat_val *v)
{
	const struct stat_key *k = stat_key_of(v->attr);
	char name[24];

	if (k)
		snprintf(name, sizeof(name), "%s", k->key);
	else
		snprintf(name, sizeof(name), "attr_%d", v->attr);
	fprintf(f, "    %-18s %14llu%s\n", name, (unsigned long long)v->v,
		val_counter(v) ? "" : "  gauge");
}

/* One area's lines: its counters, then its gauges; nothing if none shown. */
static void print_area(FILE *f, const struct stat_set *s, int area,
		       unsigned int flags)
{
	bool head = false;
	int pass;
	size_t i;

	for (pass = 0; pass < 2; pass++) {
		for (i = 0; i < s->n; i++) {
			const struct stat_val *v = &s->v[i];

			if (val_area(v) != area || val_counter(v) != !pass ||
			    !val_shown(v, flags))
				continue;
			if (!head)
				fprintf(f, "  %s\n", stat_area_names[area]);
			head = true;
			print_val(f, v);
		}
	}
}

/* The order within an area is the reply's, which is stat_keys'. */
void stat_print(FILE *f, const struct stat_set *s, unsigned int flags)
{
	int a;

	if (s->group)
		fprintf(f, "group %u:", s->group);
	else
		fputs("node:", f);
	fputs(flags & STAT_DELTA ? " (counters: the increase since the last "
	      "stats show -d)\n" : "\n", f);
	for (a = 0; a < STAT_AREAS; a++)
		print_area(f, s, a, flags);
}

static const struct stat_set *set_of(const struct stat_set *s, size_t n,
				     uint32_t group)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (s[i].group == group)
			return &s[i];
	return NULL;
}

static const struct stat_val *val_of(const struct stat_set *s, int attr)
{
	size_t i;

	for (i = 0; s && i < s->n; i++)
		if (s->v[i].attr == attr)
			return &s->v[i];
	return NULL;
}

/* Checks every counter first: one that went down voids the whole history. */
int stat_delta(struct stat_set *cur, size_t ncur,
	       const struct stat_set *prev, size_t nprev)
{
	int pass;
	size_t i, j;

	for (pass = 0; pass < 2; pass++) {
		for (i = 0; i < ncur; i++) {
			const struct stat_set *p = set_of(prev, nprev,
							  cur[i].group);

			for (j = 0; j < cur[i].n; j++) {
				struct stat_val *v = &cur[i].v[j];
				const struct stat_val *o = val_of(p, v->attr);

				if (!o || !val_counter(v))
					continue;
				if (!pass && o->v > v->v)
					return -1;
				if (pass)
					v->v -= o->v;
			}
		}
	}
	return 0;
}

/* Counters only: gauges are never subtracted. */
int stat_hist_write(FILE *f, const struct stat_set *s, size_t n)
{
	size_t i, j;

	fputs("mcastctl-stats 1\n", f);
	for (i = 0; i < n; i++)
		for (j = 0; j < s[i].n; j++)
			if (val_counter(&s[i].v[j]))
				fprintf(f, "%u %d %llu\n", s[i].group,
					s[i].v[j].attr,
					(unsigned long long)s[i].v[j].v);
	return ferror(f) ? -1 : 0;
}

/* Digits only, no sign or space, at most @max; advances *@p past them. */
static int take_num(const char **p, const char *end, uint64_t max,
		    uint64_t *out)
{
	const char *s = *p;
	uint64_t v = 0;

	if (s == end || *s < '0' || *s > '9')
		return -1;
	for (; s < end && *s >= '0' && *s <= '9'; s++) {
		if (v > (max - (uint64_t)(*s - '0')) / 10)
			return -1;
		v = v * 10 + (uint64_t)(*s - '0');
	}
	*p = s;
	*out = v;
	return 0;
}

static int take_char(const char **p, const char *end, char c)
{
	if (*p == end || **p != c)
		return -1;
	(*p)++;
	return 0;
}

/* Appends (@group, @attr, @v): a new set when the group changes. */
static int hist_add(struct stat_set **s, size_t *n, uint32_t group, int attr,
		    uint64_t v)
{
	struct stat_set *last = *n ? &(*s)[*n - 1] : NULL;
	struct stat_val *nv;

	if (!last || last->group != group) {
		struct stat_set *ns = realloc(*s, (*n + 1) * sizeof(**s));

		if (!ns)
			return -1;
		*s = ns;
		last = &ns[(*n)++];
		*last = (struct stat_set){ .group = group };
	}
	nv = realloc(last->v, (last->n + 1) * sizeof(*nv));
	if (!nv)
		return -1;
	last->v = nv;
	nv[last->n++] = (struct stat_val){ attr, v };
	return 0;
}

static int hist_line(const char **p, const char *end, uint64_t *g,
		     uint64_t *a, uint64_t *v)
{
	return take_num(p, end, UINT32_MAX, g) || take_char(p, end, ' ') ||
	       take_num(p, end, 0xffff, a) || take_char(p, end, ' ') ||
	       take_num(p, end, UINT64_MAX, v) || take_char(p, end, '\n') ||
	       !*a ? -1 : 0;
}

int stat_hist_parse(const char *buf, size_t len, struct stat_set **out,
		    size_t *nout)
{
	static const char magic[] = "mcastctl-stats 1\n";
	const char *p = buf, *end = buf + len;
	struct stat_set *s = NULL;
	size_t n = 0;
	uint64_t g, a, v;

	if (len > STAT_HIST_MAX || len < sizeof(magic) - 1 ||
	    memcmp(buf, magic, sizeof(magic) - 1))
		return -1;
	p += sizeof(magic) - 1;
	while (p < end) {
		if (hist_line(&p, end, &g, &a, &v) ||
		    hist_add(&s, &n, (uint32_t)g, (int)a, v)) {
			stat_sets_free(s, n);
			return -1;
		}
	}
	*out = s;
	*nout = n;
	return 0;
}

void stat_sets_free(struct stat_set *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free(s[i].v);
	free(s);
}
