/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * mcastd and mcast.ko: configure the node and its peers from the config
 * file, keep a copy of the kernel's groups, install the members, R-chain
 * and H-cycle the view computes (only when they changed, at the epoch
 * read, marked managed), and read the kernel's notifications.
 */
#ifndef MCASTD_KERNEL_H
#define MCASTD_KERNEL_H

#include <stdbool.h>
#include <stdint.h>

#include "conf.h"
#include "nl.h"

/* The kernel's copy of one group, as last read or written. */
struct mcd_kgroup {
	uint32_t id;
	uint32_t epoch;
	bool managed;
	uint32_t nlocal;		/* local files joined */
	uint32_t n;
	uint32_t *members;		/* sorted */
};

struct mcd_kernel {
	struct ctl_nl cmd;		/* requests */
	struct nl_sock *ev;		/* the "events" multicast group */
	const struct mcd_conf *conf;
	uint32_t self;
	bool ham;			/* the torus has H-cycles */
	uint32_t ngroups;
	struct mcd_kgroup *groups;	/* sorted by id */
	bool resync;			/* notifications were lost */
	/* what the events said, for the daemon to act on */
	void (*local_changed)(void *ctx);
	void (*peer_down)(void *ctx, uint32_t node);
	void *ctx;
	/* counters for ops */
	uint64_t installs, deletes, stale, resyncs;
};

/*
 * The node's counters (STATS_GET): @vals[attr] for each MCAST_STATS_A_*
 * up to MCAST_STATS_A_MAX the kernel reported, UINT64_MAX for the rest.
 * 0 or -errno.
 */
int mcd_kernel_stats(struct mcd_kernel *k,
		     uint64_t vals[MCAST_STATS_A_MAX + 1]);

/* Connect both sockets; @rcvbuf (0: default) sizes the events socket's. */
int mcd_kernel_open(struct mcd_kernel *k, const struct mcd_conf *conf,
		    uint32_t self, int rcvbuf);
void mcd_kernel_close(struct mcd_kernel *k);
/* The events socket's fd, for the event loop. */
int mcd_kernel_event_fd(const struct mcd_kernel *k);

/* NODE_SET (only if it differs), then the peers: add, fix, sweep. */
int mcd_kernel_configure(struct mcd_kernel *k);
/*
 * The cluster key as key 1, in use, unless the kernel has a key in use
 * already (a restart: the data path keeps its key and replay windows).
 */
int mcd_kernel_key(struct mcd_kernel *k, const unsigned char *key);
/* Read every group again (start-up, lost notifications). */
int mcd_kernel_dump(struct mcd_kernel *k);
/* The groups with local files joined, sorted: at most @max in @groups;
 * returns how many there are (more than @max when they do not fit). */
uint32_t mcd_kernel_local(const struct mcd_kernel *k, uint32_t *groups,
			  uint32_t max);
/*
 * Make group @id's members @nodes (sorted; n = 0: delete it, unless files
 * here joined it).  Leaves alone a group an administrator configured by
 * hand (unmanaged, with members other than this node alone).
 */
int mcd_kernel_install(struct mcd_kernel *k, uint32_t id,
		       const uint32_t *nodes, uint32_t n);
/* Read what the events socket has; sets k->resync on ENOBUFS. */
int mcd_kernel_events(struct mcd_kernel *k);
const struct mcd_kgroup *mcd_kernel_group(const struct mcd_kernel *k,
					  uint32_t id);

#endif /* MCASTD_KERNEL_H */
