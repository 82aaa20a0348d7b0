/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * One mcastd: its configuration, its view of the cluster, the kernel's
 * groups, its sockets.  mcastd.c runs it, show.c prints it.
 */
#ifndef MCASTD_H
#define MCASTD_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <sys/socket.h>
#include <sys/un.h>

#include "auth.h"
#include "conf.h"
#include "cstats.h"
#include "kernel.h"
#include "rdma.h"
#include "replay.h"
#include "view.h"

#define MCD_SOCKET_DEFAULT	"/run/mcast/mcastd.sock"

struct mcd {
	struct mcd_conf conf;
	uint32_t self;
	uint64_t incarnation;
	uint64_t started_ms;		/* monotonic */
	struct mcd_view *view;
	struct mcd_kernel kernel;
	int udp;			/* the control protocol */
	int unix_fd;			/* mcastctl cluster show */
	int sig_fd;
	const char *sock_path;
	bool ready;			/* READY=1 sent */
	bool stop;
	uint64_t watchdog_ms, watchdog_next;
	uint64_t status_next;
	uint64_t send_errors;
	uint32_t local[MCD_MAX_GROUPS];	/* groups files here joined */
	uint32_t nlocal;
	bool over_groups;		/* more than MCD_MAX_GROUPS joined */
	struct mcd_auth auth;		/* with a cluster key */
	bool has_key;
	unsigned char key[MCAST_KEY_LEN];	/* until the kernel has it */
	uint64_t tx_counter;		/* the last one sent (replay.h) */
	struct mcd_replay *replay;	/* one per configured node */
	uint64_t rx_replayed;		/* ... seen before, or too old */
	uint64_t rx_unauth;		/* datagrams whose tag was wrong */
	uint64_t rx_stranger;		/* ... from no configured daemon */
	uint64_t rx_bad_stats;		/* malformed STATS_PULL or STATS */
	struct mcd_cstats cstats;	/* mcastctl cluster stats */
	struct mcd_rdma rdma;		/* at start-up and SIGHUP */
};

/* Seals (with a cluster key) and sends one datagram to node @to's daemon. */
void mcd_send(struct mcd *d, uint32_t to, const void *buf, size_t len);
/* @out[0..len) then an empty datagram, to a client of the unix socket. */
void mcd_answer_client(struct mcd *d, const struct sockaddr_un *to,
		       socklen_t tl, const char *out, size_t len);

/* "show" / "show json": the daemon's view, for mcastctl cluster show. */
void mcd_show(struct mcd *d, FILE *f, bool json, uint64_t now_ms);

#endif /* MCASTD_H */
