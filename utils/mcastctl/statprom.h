/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * mcastctl stats show --prometheus: the counters in Prometheus' text
 * exposition format, for node_exporter's textfile collector.  Apart from
 * netlink, as statfmt.c is, so that tests/unit/test_stats.c drives it on
 * plain arrays.  docs/metrics.md lists the metrics.
 */
#ifndef MCASTCTL_STATPROM_H
#define MCASTCTL_STATPROM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "statfmt.h"

/*
 * One MCAST_STATS_A_*'s metrics: the node's, and the group's when the
 * kernel reports it per group too.  Separate names, so that no metric
 * has a group label on some series and none on others (a sum over a
 * metric must not add the node's total to its groups').
 */
struct stat_prom {
	int attr;
	const char *name;	/* the node's metric */
	const char *help;
	const char *gname;	/* the group's; NULL: the node's only */
	const char *ghelp;
	bool ns;		/* nanoseconds, exported in seconds */
};

extern const struct stat_prom stat_proms[];
extern const size_t stat_nproms;

const struct stat_prom *stat_prom_of(int attr);

/* @s as a label value or HELP text: \ and newline escaped, " too if @quote. */
void stat_prom_escape(FILE *f, const char *s, bool quote);

/*
 * The metrics of @n sets (group 0 is the node's) of node @node: each
 * metric's HELP and TYPE once, then a sample per set that has it, zeros
 * included (a series must not come and go).  An attribute without a name
 * here is left out: metric names are an interface.  -1 on a write error.
 */
int stat_prom_write(FILE *f, uint32_t node, const struct stat_set *s,
		    size_t n);

#endif
