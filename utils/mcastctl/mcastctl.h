/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * What the mcastctl commands share: exit statuses and their entry points.
 */
#ifndef MCASTCTL_H
#define MCASTCTL_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

/* The build passes the package version (dkms.conf) as MCAST_VERSION. */
#ifdef MCAST_VERSION
#define MCASTCTL_VERSION MCAST_VERSION
#else
#define MCASTCTL_VERSION "unknown"
#endif

#include "status.h"

/* -j before the command: JSON output for every show command. */
extern bool mcastctl_json;

/*
 * A command's verbs (verb.c): run_verb dispatches on the table, the first
 * verb when none is given; complete_verbs lists it for --complete.
 * @words: what the verb takes, for completion only: "kw" a flag or a
 * keyword, "kw=" one that takes a value, "kw=a|b" one of those values.
 * A table ends with { NULL }.
 */
struct verb {
	const char *name;
	int (*run)(int argc, char **argv);
	const char *words;
};

int run_verb(const char *what, const struct verb *verbs,
	     void (*usage)(FILE *f), int argc, char **argv);
/* @words (@n): what follows the command's name on the line so far. */
void complete_verbs(const struct verb *verbs, int n, char **words);

extern const struct verb node_verbs[], peer_verbs[], group_verbs[];
extern const struct verb stats_verbs[], cluster_verbs[];

/* A command gets argv from its own name on (argv[0] is "plan"). */
int cmd_plan(int argc, char **argv);
void cmd_plan_usage(FILE *f);

/*
 * plan_switch.c: mcastctl plan on --topology switch:FILE; -1 when the
 * command line is cmd_plan's (a torus, or no topology), else the status.
 */
int cmd_plan_switch(int argc, char **argv);

/* plan_cube.c: the same for --topology cube:N (Robinson 1994, ch. 3). */
int cmd_plan_cube(int argc, char **argv);

/*
 * plan_rb.c: the same for --algorithm rb (Zhuang and Liberatore's broadcast)
 * and for --topology mesh:..., which only rb takes.
 */
int cmd_plan_rb(int argc, char **argv);

/* The planners' getopt_long tables, for --complete (NULL-terminated). */
extern const struct option *const plan_opt_tables[];

/* plan.c's --random: uniform in [0, @n) from splitmix64 state @x. */
uint32_t rand_below(uint64_t *x, uint32_t n);

/*
 * The planners' command lines (plan_common.c).  plan_err reports a
 * failure as exactly one line, "mcastctl: plan: ...", and returns @status.
 * The rest take the planner's getopt_long table @opts: an option's long
 * name; an option given twice; what getopt, its own messages off
 * (opterr = 0), found wrong with argv[optind - 1].
 */
struct option;
int plan_err(int status, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
const char *plan_opt_name(const struct option *opts, int val);
int plan_set_once(const struct option *opts, const char **slot, int val);
int plan_bad_option(const struct option *opts, int c, char **argv);

/* Over generic netlink (config.c). */
int cmd_node(int argc, char **argv);
void cmd_node_usage(FILE *f);
int cmd_peer(int argc, char **argv);
void cmd_peer_usage(FILE *f);
int cmd_group(int argc, char **argv);
void cmd_group_usage(FILE *f);
int cmd_stats(int argc, char **argv);
void cmd_stats_usage(FILE *f);

/* The local mcastd's view (cluster.c). */
int cmd_cluster(int argc, char **argv);
void cmd_cluster_usage(FILE *f);

/* One message's tree from mcast.ko's trace events (trace.c). */
int cmd_trace(int argc, char **argv);
void cmd_trace_usage(FILE *f);

/* Error messages "mcastctl: WHAT: ..." and their exit statuses (report.c). */
__attribute__((format(printf, 2, 3)))
int usage_err(const char *what, const char *fmt, ...);
__attribute__((format(printf, 2, 3)))
int input_err(const char *what, const char *fmt, ...);
int nomem(const char *what);

/* node set key... (key.c) */
int node_set_key(int argc, char **argv);

#endif /* MCASTCTL_H */
