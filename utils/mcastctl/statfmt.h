/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * mcastctl stats show's text side, apart from netlink so that a unit test
 * (tests/unit/test_stats.c) drives it on plain arrays: which area and kind
 * each MCAST_STATS_A_* is, the grouped layout, -z, -d and its history.
 */
#ifndef MCASTCTL_STATFMT_H
#define MCASTCTL_STATFMT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

enum stat_area {
	STAT_MESSAGES, STAT_DATAGRAMS, STAT_RELIABILITY, STAT_MEMORY,
	STAT_SECURITY, STAT_OFFLOAD, STAT_RB, STAT_TIMING, STAT_OTHER,
	STAT_AREAS
};

/* A counter only grows (-z hides it at 0, -d shows its increase). */
enum stat_kind { STAT_COUNTER, STAT_GAUGE };

struct stat_key {
	int attr;
	const char *key;	/* the JSON key and the text name */
	unsigned char area;
	unsigned char kind;
	bool always;		/* in every reply (JSON prints it at 0) */
};

/* In JSON order: JSON's keys and their order are an interface. */
extern const struct stat_key stat_keys[];
extern const size_t stat_nkeys;
extern const char *const stat_area_names[STAT_AREAS];

const struct stat_key *stat_key_of(int attr);

/* One reported value; attr may be one stat_keys does not know. */
struct stat_val {
	int attr;
	uint64_t v;
};

/* The node's statistics (group 0) or one group's. */
struct stat_set {
	uint32_t group;
	size_t n;
	struct stat_val *v;
};

#define STAT_ALL	1u	/* -z: zero counters too */
#define STAT_DELTA	2u	/* the counters are increases (a note) */

void stat_print(FILE *f, const struct stat_set *s, unsigned int flags);

/*
 * -d: replaces each counter of @cur by its increase over @prev (the same
 * group and attribute; one @prev lacks counts from 0).  Returns -1, @cur
 * unchanged, when a counter went down (the module was reloaded).
 */
int stat_delta(struct stat_set *cur, size_t ncur,
	       const struct stat_set *prev, size_t nprev);

/* The history file: "mcastctl-stats 1", then "GROUP ATTR VALUE" lines. */
#define STAT_HIST_MAX	(1u << 20)	/* bytes read back at most */
int stat_hist_write(FILE *f, const struct stat_set *s, size_t n);
/* Parses @len bytes; 0 and a malloc'ed *@out, or -1 if it is not one. */
int stat_hist_parse(const char *buf, size_t len, struct stat_set **out,
		    size_t *nout);
void stat_sets_free(struct stat_set *s, size_t n);

#endif
