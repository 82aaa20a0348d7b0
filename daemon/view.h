/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * mcastd's view of the cluster: who is alive, who is a member of which
 * group.  A pure state machine: no sockets, no clock, no kernel.  The
 * daemon (and the simulation test) feeds it datagrams, local changes and
 * the time, and it answers with datagrams to send and group member sets
 * that changed.  docs/daemon.md argues why it converges.
 *
 * Each node is the only writer of its own record: (incarnation, version,
 * state, groups).  Records are ordered by (incarnation, version, state)
 * with ALIVE < SUSPECT < DEAD; the larger one wins everywhere, so any
 * order and any repetition of datagrams gives the same view.  Only the
 * owner raises its incarnation (a restart) or version (a change, or a
 * refutation of a suspicion of itself); the others may only raise the
 * state at the same (incarnation, version).
 *
 * Incarnations are wall-clock milliseconds (the start of a life) and a
 * life raises its version at most once a millisecond (debounce_ms >= 1),
 * so a record that one of us can have written has
 *   incarnation <= wall + skew,  version <= 1 + wall + skew - incarnation
 * by the receiver's clock (wall = cfg incarnation + time since the start).
 * Anything beyond is refused and counted (bad_records): a forged record
 * cannot outlive the skew, and nothing ever wraps.
 */
#ifndef MCASTD_VIEW_H
#define MCASTD_VIEW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define MCD_MAX_NODES		4096	/* configured nodes */
/* groups one node is a member of: every group its kernel can hold */
#define MCD_MAX_GROUPS		4096	/* MCAST_MAX_GROUPS */
/*
 * Bytes of one control datagram: what several records, entries or node
 * ids fill (MCD_DGRAM_FILL), or one record of MCD_MAX_GROUPS groups
 * alone (its header, count, record header and ids: MCD_DGRAM_MAX).
 */
#define MCD_DGRAM_FILL		8192
#define MCD_DGRAM_MAX		(42 + 4 * MCD_MAX_GROUPS)
#define MCD_SKEW_MS		10000	/* how far another clock may lead */
#define MCD_DEBOUNCE_MS		20	/* between two versions of ours */
#define MCD_ANSWER_BPS		(256 << 10)	/* answer bytes/peer/s */

enum mcd_state {
	MCD_UNKNOWN,		/* never heard of (no record yet) */
	MCD_ALIVE,
	MCD_SUSPECT,		/* a monitor stopped hearing it */
	MCD_DEAD,		/* suspected for longer than dead_ms */
};

struct mcd_view_cfg {
	uint32_t self;		/* this node's id */
	const uint32_t *nodes;	/* the configured node ids, self included */
	uint32_t nnodes;
	uint64_t incarnation;	/* > every earlier one of this node (ms) */
	uint32_t heartbeat_ms;	/* to each monitor, this often */
	uint32_t suspect_ms;	/* silence before a monitor suspects */
	uint32_t dead_ms;	/* suspicion not refuted: dead after this */
	uint32_t sync_ms;	/* anti-entropy: one digest this often */
	uint32_t monitors;	/* 0: ceil(sqrt(nnodes - 1)) */
	uint32_t skew_ms;	/* 0: MCD_SKEW_MS (clocks ahead of ours) */
	uint32_t debounce_ms;	/* 0: MCD_DEBOUNCE_MS, at least 1 */
	uint32_t answer_bps;	/* 0: MCD_ANSWER_BPS (DIGEST/PULL answers) */
	const uint32_t *groups;	/* joined here at the start (any order) */
	uint32_t ngroups;	/* at most MCD_MAX_GROUPS */
};

/*
 * What the view asks its owner to do.  Called from inside the mcd_view_*
 * calls: they may read the view (mcd_view_node, _members, ...) but not
 * change it.
 */
struct mcd_view_ops {
	/* Send @len bytes to node @to (best effort: loss is repaired). */
	void (*send)(void *ctx, uint32_t to, const void *buf, size_t len);
	/* Group @group's members (sorted node ids; n = 0: none) changed. */
	void (*members)(void *ctx, uint32_t group, const uint32_t *nodes,
			uint32_t n);
	/* Node @node went from state @old to @now (optional, for logs/ops). */
	void (*node_state)(void *ctx, uint32_t node, enum mcd_state old,
			   enum mcd_state now);
};

struct mcd_view;

/*
 * A new life of this node, announced at once with @cfg's groups.  NULL:
 * bad @cfg (self not configured, duplicate ids, a group 0 or more than
 * MCD_MAX_GROUPS, ...) or no memory.
 */
struct mcd_view *mcd_view_new(const struct mcd_view_cfg *cfg,
			      const struct mcd_view_ops *ops, void *ctx,
			      uint64_t now_ms);
void mcd_view_free(struct mcd_view *v);

/*
 * This node's groups are now @groups (any order, repeats ignored): a new
 * version, announced to every node not dead.  -E2BIG: more than
 * MCD_MAX_GROUPS; -EINVAL: group 0.  Unchanged: no new version.
 */
int mcd_view_set_local(struct mcd_view *v, const uint32_t *groups,
		       uint32_t n, uint64_t now_ms);

/*
 * A datagram claiming to come from node @from (the caller has checked the
 * source address against the configuration).  Every field is checked
 * before use; a bad datagram changes nothing and returns -EBADMSG
 * (-ENOENT: @from or a record's node is not configured).  Both count in
 * rx_bad.  -ENOMEM: a record could not be stored; the others were (the
 * lost one comes again by anti-entropy).
 */
int mcd_view_input(struct mcd_view *v, uint32_t from, const void *buf,
		   size_t len, uint64_t now_ms);

/* The kernel reported node @node unreachable (PEER_DOWN): suspect it. */
void mcd_view_peer_down(struct mcd_view *v, uint32_t node, uint64_t now_ms);

/*
 * Whether a life that began at @incarnation can exist by now (see the
 * bounds above); mcastd asks before a replay window follows it.
 */
bool mcd_view_inc_ok(const struct mcd_view *v, uint64_t incarnation,
		     uint64_t now_ms);

/* Heartbeats, suspicion and death timers, anti-entropy. */
void mcd_view_tick(struct mcd_view *v, uint64_t now_ms);
/* When mcd_view_tick next has something to do. */
uint64_t mcd_view_next(const struct mcd_view *v);

/* Reading the view (mcastctl cluster show, tests). */
struct mcd_node_info {
	uint32_t node;
	enum mcd_state state;
	uint64_t incarnation;
	uint32_t version;
	uint64_t last_heard_ms;	/* 0: never */
	uint32_t ngroups;
	const uint32_t *groups;	/* sorted; valid until the next call */
};
int mcd_view_node(const struct mcd_view *v, uint32_t node,
		  struct mcd_node_info *out);
/* Every group with a member, sorted; returns the count (<= max). */
uint32_t mcd_view_groups(const struct mcd_view *v, uint32_t *groups,
			 uint32_t max);
/* Group @group's members, sorted; returns the count (<= max). */
uint32_t mcd_view_members(const struct mcd_view *v, uint32_t group,
			  uint32_t *nodes, uint32_t max);

/* Counters for the benchmark and ops. */
struct mcd_view_stats {
	uint64_t tx_dgrams, tx_bytes, rx_dgrams, rx_bytes, rx_bad;
	uint64_t announces, digests, pulls, heartbeats;
	uint64_t suspicions, refutations, deaths;
	uint64_t bad_records;	/* beyond the clock, or not its writer's */
	uint64_t answers_cut;	/* records a DIGEST/PULL's budget left out */
};
void mcd_view_stats(const struct mcd_view *v, struct mcd_view_stats *s);

#endif /* MCASTD_VIEW_H */
