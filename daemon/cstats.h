/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * mcastctl cluster stats: one round of STATS_PULL to every live node's
 * daemon, their STATS answers (each its kernel's counters) collected for
 * a second at most, then one table for the clients that asked.
 */
#ifndef MCASTD_CSTATS_H
#define MCASTD_CSTATS_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/socket.h>
#include <sys/un.h>

#include "proto.h"

#define MCD_CSTATS_CLIENTS	8	/* waiting on one round */
#define MCD_CSTATS_WAIT_MS	1000	/* the longest a round waits */
#define MCD_CSTATS_GAP_MS	250	/* one answer per peer this often, */
#define MCD_CSTATS_BURST	4	/* ... after this many at once */

struct mcd;

struct mcd_cstats_client {
	struct sockaddr_un addr;
	socklen_t len;
	bool json;
};

struct mcd_cstats_row {
	bool asked, got;
	enum mcd_state state;		/* when asked */
	uint64_t vals[MCD_STAT_N];
	uint64_t answer_after;		/* ms: its STATS_PULLs' budget (GCRA) */
};

struct mcd_cstats {
	uint32_t query;			/* the latest round's */
	bool active;
	uint64_t deadline;
	uint32_t asked, got;
	struct mcd_cstats_client clients[MCD_CSTATS_CLIENTS];
	uint32_t nclients;
	struct mcd_cstats_row *rows;	/* one per configured node */
	/* for ops (cluster show's counters) */
	uint64_t rounds, answered, refused, late;
};

int mcd_cstats_init(struct mcd *d);
void mcd_cstats_free(struct mcd *d);
/* A client's "stats" or "stats json": it joins the round, or starts one. */
void mcd_cstats_request(struct mcd *d, const struct sockaddr_un *from,
			socklen_t len, bool json, uint64_t now);
/* A checked STATS_PULL or STATS from configured node @idx's daemon. */
void mcd_cstats_input(struct mcd *d, uint32_t idx, const struct mcd_msg *m,
		      uint64_t now);
/* The round ends at its deadline; UINT64_MAX: no round. */
void mcd_cstats_tick(struct mcd *d, uint64_t now);
uint64_t mcd_cstats_next(const struct mcd *d);

#endif /* MCASTD_CSTATS_H */
