/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * The "mcast" generic netlink family from the tools and mcastd: connect,
 * send one request, collect its replies, report the kernel's error with
 * its extended-ack message (or, quiet, keep both for the caller).
 */
#ifndef MCASTCTL_NL_H
#define MCASTCTL_NL_H

#include <stdbool.h>

#include <netlink/genl/genl.h>
#include <linux/mcast.h>

#include "schedule.h"

/* The program name that starts every message ("mcastctl"). */
extern const char *ctl_nl_prog;

struct ctl_nl {
	struct nl_sock *sk;
	int family;
	const char *what;	/* "node set": prefix of messages */
	bool quiet;		/* keep the kernel's refusal, do not print it */
	int err;		/* the last request's -errno from the kernel */
	char msg[256];		/* ... and its extended-ack message */
};

/* A reply: the message's genl command and its top-level attributes. */
typedef int (*ctl_reply_fn)(int cmd, struct nlattr **tb, void *arg);

/*
 * Connect and resolve the family.  Prints the reason and returns an exit
 * status (MCASTCTL_EKERNEL: not loaded, no netlink) on failure.
 */
int ctl_nl_open(struct ctl_nl *nl, const char *what);
void ctl_nl_close(struct ctl_nl *nl);

/*
 * A request message for @cmd (NLM_F_DUMP with @dump) with room for
 * @payload bytes of attributes; NULL: no memory.
 */
struct nl_msg *ctl_nl_msg(struct ctl_nl *nl, int cmd, bool dump,
			  size_t payload);

/*
 * Send @msg (freed) and feed every reply to @fn (may be NULL).  Returns 0,
 * or prints "mcastctl: WHAT: kernel message (strerror)" and returns
 * MCASTCTL_EKERNEL; @fn's non-zero return stops and is returned.
 */
int ctl_nl_request(struct ctl_nl *nl, struct nl_msg *msg, ctl_reply_fn fn,
		   void *arg);

/* This node's configuration, as NODE_GET reports it. */
struct ctl_node {
	bool configured;
	struct mc_torus t;
	u32 id;
	u16 coord[MC_MAX_DIMS];		/* coord[i]: sigma_i */
	u16 port;			/* transport: 0 if not reported */
	u32 rto_ms;
	u32 retries;
	char transport[MCAST_TRANSPORT_NAME_MAX];
	u32 tp_caps;			/* MCAST_TRANSPORT_CAP_* */
	u32 tp_mtu;			/* 0 if not reported */
	u32 worm_dests;			/* 0: no IR (or not reported) */
	u32 worm_hdr;
	bool has_algo;			/* the kernel reports the next two */
	u8 algo;			/* enum mcast_algorithm */
	u32 algo_r;			/* mu-torus r */
	u8 key_ids[MCAST_KEYS_MAX];	/* the cluster keys it has */
	u32 nkeys;
	u8 key_use;			/* the one it sends with */
};

int ctl_node_get(struct ctl_nl *nl, struct ctl_node *node);
int ctl_parse_node(struct nlattr *nest, struct ctl_node *node);

/*
 * A NODE_SET request, mcastctl's and mcastd's: the topology and the node
 * @id in it always, the rest where given (non-zero, non-empty, has_algo).
 */
struct ctl_node_set {
	const struct mc_torus *t;
	u32 id;
	u16 port;
	const char *transport;		/* or NULL */
	u32 rto_ms;
	u32 retries;
	bool has_algo;
	u8 algo;			/* enum mcast_algorithm */
	u32 algo_r;			/* 0: the node keeps its r */
};

/* The request for @s, or NULL: no memory. */
struct nl_msg *ctl_node_set_msg(struct ctl_nl *nl,
				const struct ctl_node_set *s);

/* "torus:4x8:uni" into @buf (at least 80 bytes). */
const char *ctl_topology_str(const struct mc_torus *t, char *buf);

#endif /* MCASTCTL_NL_H */
