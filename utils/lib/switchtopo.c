// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Switched-cluster topologies of nodes (switchtopo.h).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "parse.h"
#include "switchfile.h"
#include "switchtopo.h"

static u32 sw_rank[MC_SW_MAX_NODES], sw_unrank[MC_SW_MAX_NODES];

int switch_topology_ranks(const u32 *rank, u32 n, struct mc_torus *t)
{
	if (n < 2 || n > MC_SW_MAX_NODES)
		return -EINVAL;
	memmove(sw_rank, rank, n * sizeof(u32));
	return mc_torus_init_switch(t, n, sw_rank, sw_unrank, NULL);
}

int switch_topology_load(const char *path, struct mc_torus *t, char *err)
{
	struct switchfile f;
	const char *why = NULL;
	int ret;

	ret = switchfile_load(&f, path, err);
	if (ret)
		return ret;
	if (f.g.nhosts > MC_SW_MAX_NODES) {	/* the parser's limit too */
		snprintf(err, PARSE_ERR_MAX, "%s: more than %d hosts", path,
			 MC_SW_MAX_NODES);
		switchfile_free(&f);
		return -E2BIG;
	}
	mc_sw_host_ranks(&f.g, sw_rank);
	ret = mc_torus_init_switch(t, f.g.nhosts, sw_rank, sw_unrank, &why);
	if (ret)
		snprintf(err, PARSE_ERR_MAX, "%s: %s", path,
			 why ? why : "not a switched cluster");
	switchfile_free(&f);
	return ret;
}
