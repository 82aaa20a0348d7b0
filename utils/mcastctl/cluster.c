// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * mcastctl cluster show and cluster stats: the cluster as the local mcastd
 * sees it, and every node's counters as it collects them.  The daemon
 * renders both (text or JSON); this asks over its unix socket and copies
 * the answer.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/socket.h>
#include <sys/un.h>

#include "mcastctl.h"

#define MCASTD_SOCKET	"/run/mcast/mcastd.sock"

void cmd_cluster_usage(FILE *f)
{
	fputs("usage: mcastctl cluster show [-j] [socket PATH]\n"
	      "       mcastctl cluster stats [-j] [socket PATH]\n"
	      "\n"
	      "show: every configured node as the local mcastd sees it (alive,\n"
	      "suspect, dead; incarnation, version, when it was last heard, its\n"
	      "groups), then every group with its members and the kernel's epoch,\n"
	      "and the daemon's counters.\n"
	      "stats: every node's key kernel counters, a row each, and their\n"
	      "totals, which the local mcastd asks every live node's mcastd for\n"
	      "(a second at most; a node that does not answer says so).\n"
	      "PATH: mcastd's socket (default $MCASTD_SOCKET or " MCASTD_SOCKET ").\n",
	      f);
}

/*
 * One request datagram to mcastd's socket, from an autobound (abstract)
 * address of ours; the answer comes in datagrams, an empty one ends it.
 * Abstract names belong to a network namespace: ask from the daemon's.
 */
static int ask(const char *what, const char *path, const char *req)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	struct timeval tv = { .tv_sec = 5 };
	static char buf[(64 << 10) + 1];
	sa_family_t fam = AF_UNIX;
	ssize_t n;
	int fd, done = 0;

	if (strlen(path) >= sizeof(sa.sun_path))
		return input_err(what, "socket path too long");
	strcpy(sa.sun_path, path);
	fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0 || bind(fd, (struct sockaddr *)&fam, sizeof(fam)))
		return input_err(what, "socket: %s", strerror(errno));
	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	if (sendto(fd, req, strlen(req), 0, (struct sockaddr *)&sa,
		   sizeof(sa)) < 0) {
		fprintf(stderr, "mcastctl: %s: mcastd is not running (%s: %s)\n",
			what, path, strerror(errno));
		close(fd);
		return MCASTCTL_EKERNEL;
	}
	while ((n = recv(fd, buf, sizeof(buf) - 1, 0)) > 0)
		fwrite(buf, 1, n, stdout);
	done = n == 0;
	close(fd);
	if (!done) {
		fprintf(stderr, "mcastctl: %s: mcastd gave no whole answer\n",
			what);
		return MCASTCTL_EKERNEL;
	}
	return MCASTCTL_OK;
}

/* show or stats: argv[0] the verb, then -j and socket PATH */
static int cluster_ask(int argc, char **argv, bool stats)
{
	const char *what = stats ? "cluster stats" : "cluster show";
	const char *path = getenv("MCASTD_SOCKET");
	bool json = mcastctl_json;
	int i;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-j") || !strcmp(argv[i], "--json"))
			json = true;
		else if (!strcmp(argv[i], "socket") && i + 1 < argc)
			path = argv[++i];
		else
			return usage_err(what, "unexpected argument \"%.64s\"",
					 argv[i]);
	}
	path = path && path[0] ? path : MCASTD_SOCKET;
	if (stats)
		return ask(what, path, json ? "stats json\n" : "stats\n");
	return ask(what, path, json ? "show json\n" : "show\n");
}

static int cluster_show(int argc, char **argv)
{
	return cluster_ask(argc, argv, false);
}

static int cluster_stats(int argc, char **argv)
{
	return cluster_ask(argc, argv, true);
}

const struct verb cluster_verbs[] = {
	{ "show", cluster_show, "socket= -j --json" },
	{ "stats", cluster_stats, "socket= -j --json" },
	{ NULL, NULL, NULL },
};

/* Unlike the kernel's objects, the verb is not optional. */
int cmd_cluster(int argc, char **argv)
{
	if (argc < 2)
		return usage_err("cluster", "expected \"show\" or \"stats\"");
	return run_verb("cluster", cluster_verbs, cmd_cluster_usage, argc, argv);
}
