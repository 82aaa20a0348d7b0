/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * mcastd.conf(5): the cluster, its nodes and their addresses, timers, the
 * cluster key and static groups, in a small INI form.  Every error names
 * the file, the line and what is wrong.
 */
#ifndef MCASTD_CONF_H
#define MCASTD_CONF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <netinet/in.h>
#include <linux/mcast.h>

#include "rb.h"
#include "schedule.h"

#define MCD_CONF_DEFAULT	"/etc/mcast/mcastd.conf"
#define MCD_CONF_ERR_MAX	512

struct mcd_conf_node {
	uint32_t id;			/* torus node id of the coordinate */
	int family;			/* AF_INET or AF_INET6 */
	struct in6_addr addr;		/* AF_INET: v4-mapped ::ffff:a.b.c.d */
	unsigned int line;		/* where it was written */
};

struct mcd_conf_group {
	uint32_t id;			/* >= 1 */
	bool fixed;			/* static: members from the file only */
	uint32_t n;
	uint32_t *members;		/* sorted node ids (fixed only) */
	unsigned int line;		/* where it was written */
};

struct mcd_conf {
	char path[256];
	/* [cluster] */
	struct mc_torus torus;		/* topology = torus:4x4:uni, or
					 * switch:FILE (switchtopo.h) */
	char topology[288];		/* as written */
	uint16_t port;			/* port = 7447 (data path) */
	uint16_t control_port;		/* control_port = (default port + 1) */
	/* transport = udp|tcp|... ("" default) */
	char transport[MCAST_TRANSPORT_NAME_MAX];
	char algorithm[24];		/* algorithm = auto|u-torus|... ("") */
	enum mc_algo algo;		/* it parsed, when set and not auto (rb:
					 * u-torus, its sends not to every
					 * node) */
	uint32_t algo_r;		/* mu-torus:R, else 0 */
	bool rb;			/* algorithm = rb or rb-all-port */
	enum mc_rb_ports rb_ports;	/* which of the two (rb only) */
	uint32_t heartbeat_ms;		/* heartbeat = 200ms (default 500ms) */
	uint32_t suspect_ms;		/* suspect = 2s (default 4 x heartbeat) */
	uint32_t dead_ms;		/* dead = 2s (default 4 x heartbeat) */
	uint32_t sync_ms;		/* sync = 5s (default 5s) */
	uint32_t monitors;		/* monitors = N (default 0: sqrt) */
	char key_file[256];		/* key = /etc/mcast/cluster.key ("") */
	/* [nodes] */
	uint32_t nnodes;
	struct mcd_conf_node *nodes;	/* sorted by id */
	uint32_t *by_addr;		/* indices into nodes, by address */
	/* [groups] */
	uint32_t ngroups;
	struct mcd_conf_group *groups;	/* sorted by id */
};

/*
 * Reads @path into @c.  0, or -1 with "FILE:LINE: what is wrong" (or
 * "FILE: ...") in @err.  @c is freed on error.
 */
int mcd_conf_load(const char *path, struct mcd_conf *c, char *err);
/* The same from a string (tests); @name stands for the file in messages. */
int mcd_conf_parse(const char *text, const char *name, struct mcd_conf *c,
		   char *err);
/* The same from @len bytes that may hold NULs (they are an error). */
int mcd_conf_parse_mem(const void *buf, size_t len, const char *name,
		       struct mcd_conf *c, char *err);
/* Frees what @c holds and zeroes it; a zeroed @c may be freed again. */
void mcd_conf_free(struct mcd_conf *c);

/* The configured node with id @id, or NULL. */
const struct mcd_conf_node *mcd_conf_node(const struct mcd_conf *c,
					  uint32_t id);
/* The node whose address @addr (v4-mapped for IPv4) is, or NULL. */
const struct mcd_conf_node *mcd_conf_node_by_addr(const struct mcd_conf *c,
						  const struct in6_addr *addr);

#endif /* MCASTD_CONF_H */
