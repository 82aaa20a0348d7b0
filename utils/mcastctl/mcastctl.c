// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * mcastctl: inspect and configure mcast, and plan multicasts offline.
 *
 * The first word picks a command from a table: plan (offline), and node,
 * peer, group, stats over generic netlink (config.c).
 */
#include <string.h>

#include "mcastctl.h"

struct command {
	const char *name;
	int (*run)(int argc, char **argv);
	void (*usage)(FILE *f);
	const char *summary;
};

static const struct command commands[] = {
	{ "plan", cmd_plan, cmd_plan_usage,
	  "show how a multicast would be routed (offline)" },
	{ "node", cmd_node, cmd_node_usage,
	  "show or set this node's topology and coordinate" },
	{ "peer", cmd_peer, cmd_peer_usage,
	  "show, add or delete peers (other nodes' addresses)" },
	{ "group", cmd_group, cmd_group_usage,
	  "show, add, set or delete groups and their members" },
	{ "stats", cmd_stats, cmd_stats_usage,
	  "show the node's and the groups' counters" },
};

#define NCOMMANDS (sizeof(commands) / sizeof(commands[0]))

static void usage(FILE *f)
{
	size_t i;

	fputs("usage: mcastctl [-j] COMMAND [OPTIONS]\n"
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

int main(int argc, char **argv)
{
	const struct command *c;

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
