// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * mcastsim: the evaluation simulator.  It runs the planning core and the
 * fabric model the kernel runs (plan/), in userspace, and reproduces the
 * seeds' studies.
 *
 *   mcastsim latency [options]   path-based multicasts on the IR fabric
 *   mcastsim load [options]      multicasts arriving at a given load, with unicast traffic
 *   mcastsim steps [options]     U-torus step counts with physical link sharing
 *   mcastsim visits [options]    the link visits of their schedules
 *   mcastsim cube [options]      the hypercube algorithms' steps
 *   mcastsim trace [options]     one multicast: each destination's time
 *   mcastsim router [options]    Fulgham (1997): packet routers, unicast load
 *   mcastsim run EXPERIMENT      a seed's figure: CSV, checks and plot
 *
 * Each study is its own file and parses its own options.
 */
#include <stdio.h>
#include <string.h>

#include "simutil.h"

/* The build passes the package version (dkms.conf) as MCAST_VERSION. */
#ifndef MCAST_VERSION
#define MCAST_VERSION "unknown"
#endif

static const struct {
	const char *name;
	int (*main)(int argc, char **argv);
	const char *what;
} studies[] = {
	{ "latency", latency_main,
	  "latency of multicasts alone on the simulated IR fabric (Robinson 1994, Sec. 6.6)" },
	{ "load", load_main,
	  "multicasts and unicast traffic at a given load: latency, blocking, saturation" },
	{ "steps", steps_main,
	  "U-torus steps with physical link sharing (Robinson 1994, Sec. 4.5)" },
	{ "cube", cube_main,
	  "U-cube, Maxport, Combine, W-sort steps on n-cubes (Robinson 1994, Sec. 3.5)" },
	{ "visits", visits_main,
	  "link visits of a multicast's schedule (Robinson 1994, Fig 6.8)" },
	{ "trace", trace_main,
	  "one multicast on the fabric: each destination's arrival (live vs simulated)" },
	{ "router", router_main,
	  "packet routers (DO, Duato) under unicast load: Fulgham's (1997) router study" },
	{ "run", run_main,
	  "reproduce a seed's figure by name (mcastsim run --list)" },
};

static void usage(FILE *f)
{
	size_t i;

	fputs("usage: mcastsim STUDY [options]   (mcastsim STUDY --help)\n"
	      "       mcastsim --version\n", f);
	for (i = 0; i < sizeof(studies) / sizeof(studies[0]); i++)
		fprintf(f, "  %-10s %s\n", studies[i].name, studies[i].what);
}

int main(int argc, char **argv)
{
	size_t i;

	if (argc < 2) {
		usage(stderr);
		return 2;
	}
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
		usage(stdout);
		return 0;
	}
	if (!strcmp(argv[1], "-V") || !strcmp(argv[1], "--version")) {
		printf("mcastsim %s\n", MCAST_VERSION);
		return 0;
	}
	for (i = 0; i < sizeof(studies) / sizeof(studies[0]); i++)
		if (!strcmp(argv[1], studies[i].name))
			return studies[i].main(argc - 1, argv + 1);
	fprintf(stderr, "mcastsim: no study named '%s'\n", argv[1]);
	usage(stderr);
	return 2;
}
