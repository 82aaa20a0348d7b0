// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * mcastctl: inspect and configure mcast, and plan multicasts offline.
 *
 * The first word picks a command from a table: plan (offline), node,
 * peer, group, stats over generic netlink (config.c), cluster from mcastd
 * (cluster.c).  -batch FILE runs one command per line.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "complete.h"
#include "mcastctl.h"

struct command {
	const char *name;
	int (*run)(int argc, char **argv);
	void (*usage)(FILE *f);
	const char *summary;
	const struct verb *verbs;	/* NULL: plan (getopt's options), trace */
};

static const struct command commands[] = {
	{ "plan", cmd_plan, cmd_plan_usage,
	  "show how a multicast would be routed (offline)", NULL },
	{ "node", cmd_node, cmd_node_usage,
	  "show or set this node's topology and coordinate", node_verbs },
	{ "peer", cmd_peer, cmd_peer_usage,
	  "show, add or delete peers (other nodes' addresses)", peer_verbs },
	{ "group", cmd_group, cmd_group_usage,
	  "show, add, set or delete groups and their members", group_verbs },
	{ "stats", cmd_stats, cmd_stats_usage,
	  "show the node's and the groups' counters", stats_verbs },
	{ "cluster", cmd_cluster, cmd_cluster_usage,
	  "show the cluster as the local mcastd sees it", cluster_verbs },
	{ "trace", cmd_trace, cmd_trace_usage,
	  "show the tree one message took, from the trace events", NULL },
};

#define NCOMMANDS (sizeof(commands) / sizeof(commands[0]))

static void usage(FILE *f)
{
	size_t i;

	fputs("usage: mcastctl [-j] COMMAND [OPTIONS]\n"
	      "       mcastctl [-j] [-force] -batch FILE|-\n"
	      "       mcastctl help [COMMAND]\n"
	      "       mcastctl --version\n\ncommands:\n", f);
	for (i = 0; i < NCOMMANDS; i++)
		fprintf(f, "  %-8s %s\n", commands[i].name, commands[i].summary);
	fputs("\nSee mcastctl COMMAND --help and mcastctl(8).\n", f);
}

static const struct command *find(const char *name)
{
	size_t i;

	for (i = 0; i < NCOMMANDS; i++) {
		if (!strcmp(commands[i].name, name))
			return &commands[i];
	}
	return NULL;
}

static int help(int argc, char **argv)
{
	const struct command *c;

	if (argc < 2) {
		usage(stdout);
		return MCASTCTL_OK;
	}
	c = find(argv[1]);
	if (!c) {
		fprintf(stderr, "mcastctl: unknown command \"%.64s\"; see mcastctl --help\n",
			argv[1]);
		return MCASTCTL_EUSAGE;
	}
	c->usage(stdout);
	return MCASTCTL_OK;
}

#define BATCH_LINE	4096
#define BATCH_WORDS	(BATCH_LINE / 2)

/* Splits @line at blanks into @argv; '#' starts a comment. */
static int split_words(char *line, char **argv)
{
	char *save = NULL, *w;
	int n = 0;

	line[strcspn(line, "#\n")] = 0;
	for (w = strtok_r(line, " \t\r", &save); w && n < BATCH_WORDS - 1;
	     w = strtok_r(NULL, " \t\r", &save))
		argv[n++] = w;
	argv[n] = NULL;
	return n;
}

/*
 * One command per line of @path ("-": stdin), as on the command line
 * without "mcastctl"; the first failure stops it unless @force.  Bulk
 * setup with one process and no special client.
 */
static int batch(const char *path, bool force)
{
	static char line[BATCH_LINE], *argv[BATCH_WORDS];
	FILE *f = strcmp(path, "-") ? fopen(path, "r") : stdin;
	const struct command *c;
	unsigned int lineno = 0;
	int argc, rc, worst = MCASTCTL_OK;

	if (!f)
		return input_err("-batch", "%s: %s", path, strerror(errno));
	while (fgets(line, sizeof(line), f)) {
		lineno++;
		argc = split_words(line, argv);
		if (!argc)
			continue;
		c = find(argv[0]);
		if (!c) {
			rc = usage_err("-batch", "%s:%u: unknown command \"%.64s\"",
				       path, lineno, argv[0]);
		} else {
			rc = c->run(argc, argv);
		}
		if (rc) {
			fprintf(stderr, "mcastctl: -batch: %s:%u: failed\n", path,
				lineno);
			worst = worst ? worst : rc;
			if (!force)
				break;
		}
	}
	if (f != stdin)
		fclose(f);
	return worst;
}

/* The words before the command: main's options, in the order it takes them. */
static const char *const lead_words[] = {
	"-j", "--json", "-force", "-batch", "--help", "--version", "help", NULL,
};

static bool is_lead(const char *w)
{
	return !strcmp(w, "-j") || !strcmp(w, "--json") || !strcmp(w, "-force");
}

/*
 * mcastctl --complete WORD...: what may follow WORD... (the line so far,
 * without mcastctl and the word being typed), one a line, from the tables
 * the parser uses.  For utils/completion/mcast.bash; not in the usage.
 */
static int complete(int n, char **words)
{
	const struct command *c;
	size_t i;

	while (n > 0 && is_lead(words[0])) {
		n--;
		words++;
	}
	if (n == 0) {
		for (i = 0; lead_words[i]; i++)
			puts(lead_words[i]);
	}
	if (n == 0 || (n == 1 && !strcmp(words[0], "help"))) {
		for (i = 0; i < NCOMMANDS; i++)
			puts(commands[i].name);
		return MCASTCTL_OK;
	}
	c = find(words[0]);
	if (c && c->verbs)
		complete_verbs(c->verbs, n - 1, words + 1);
	else if (c && c->run == cmd_plan)
		complete_opts(plan_opt_tables, n - 1, words + 1);
	return MCASTCTL_OK;
}

int main(int argc, char **argv)
{
	const struct command *c;
	bool force = false;

	if (argc >= 2 && !strcmp(argv[1], COMPLETE_ARG))
		return complete(argc - 2, argv + 2);

	/* -j / --json before the command: JSON from every show */
	if (argc >= 2 && (!strcmp(argv[1], "-j") || !strcmp(argv[1], "--json"))) {
		mcastctl_json = true;
		argc--;
		argv++;
		if (argc >= 2 && !strcmp(argv[1], "plan")) {
			fprintf(stderr, "mcastctl: plan: use mcastctl plan ... --json\n");
			return MCASTCTL_EUSAGE;
		}
	}
	if (argc >= 2 && !strcmp(argv[1], "-force")) {
		force = true;
		argc--;
		argv++;
	}
	if (argc >= 2 && (!strcmp(argv[1], "-batch") || !strcmp(argv[1], "-b"))) {
		if (argc != 3)
			return usage_err("-batch", "expected one FILE (or -)");
		return batch(argv[2], force);
	}
	if (argc < 2) {
		usage(stderr);
		return MCASTCTL_EUSAGE;
	}
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))
		return help(1, argv);
	if (!strcmp(argv[1], "help"))
		return help(argc - 1, argv + 1);
	if (!strcmp(argv[1], "-V") || !strcmp(argv[1], "--version")) {
		printf("mcastctl %s\n", MCASTCTL_VERSION);
		return MCASTCTL_OK;
	}
	c = find(argv[1]);
	if (!c) {
		fprintf(stderr, "mcastctl: unknown command \"%.64s\"; see mcastctl --help\n",
			argv[1]);
		return MCASTCTL_EUSAGE;
	}
	return c->run(argc - 1, argv + 1);
}
