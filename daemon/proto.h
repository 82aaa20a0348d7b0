/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * mcastd's control protocol: the datagrams the cluster view (view.c)
 * exchanges.  Fixed little-endian layout, no alignment assumed:
 *
 *   header (20)  "MCD1", u8 version (1), u8 type, u16 reserved (0),
 *                u32 from, u64 incarnation (the sender's, >= 1)
 *   ANNOUNCE     u16 count (1..MCD_MAX_NODES), count records:
 *                  u32 node, u64 incarnation (>= 1), u32 version (>= 1),
 *                  u8 state (1..3), u8 pad (0), u16 ngroups (<= 4096),
 *                  u32 groups[ngroups] (strictly increasing, >= 1)
 *   DIGEST       u32 first (< MCD_MAX_NODES: the sender's index of the
 *                window's first node, for logs; entries name their node),
 *                u16 count (1..MCD_DIGEST_MAX), count entries:
 *                  u32 node, u64 incarnation, u32 version, u8 state,
 *                  u8 pad[3] (0); state 0: no record, then incarnation
 *                  and version are 0, else both >= 1
 *   PULL         u16 count (1..MCD_MAX_NODES), u32 nodes[count]
 *   HEARTBEAT    u32 version (>= 1)
 *   STATS_PULL   u32 query (>= 1), then MCD_STATS_BODY - 4 zero bytes:
 *                as long as the answer, so that nobody (a forger at a
 *                node's address, without a key) draws more than it sends
 *   STATS        u32 query, u16 count (1..MCD_STATS_MAX), count u64
 *                values in enum mcd_stat's order (UINT64_MAX: the kernel
 *                did not say); a reader takes those it knows
 *
 * With a cluster key, a counter and a tag follow (auth.h); they are
 * checked and cut off before the parser sees the datagram.
 * Nothing may follow the last field.  mcd_msg_parse() checks all of it
 * before anything is used; the cursors then walk what it has checked.
 */
#ifndef MCASTD_PROTO_H
#define MCASTD_PROTO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "view.h"

#define MCD_PROTO_MAGIC		"MCD1"
#define MCD_PROTO_VERSION	1
#define MCD_HDR_LEN		20
#define MCD_REC_LEN		20	/* an ANNOUNCE record without groups */
#define MCD_ENT_LEN		20	/* a DIGEST entry */
#define MCD_DIGEST_MAX		256	/* entries in one DIGEST */

enum mcd_msg_type {
	MCD_MSG_ANNOUNCE = 1,
	MCD_MSG_DIGEST = 2,
	MCD_MSG_PULL = 3,
	MCD_MSG_HEARTBEAT = 4,
	MCD_MSG_STATS_PULL = 5,
	MCD_MSG_STATS = 6,
};

/*
 * The counters a STATS carries (mcastctl cluster stats), in this order:
 * a new one goes at the end, none is ever removed or moved.
 */
enum mcd_stat {
	MCD_STAT_TX_MSGS,
	MCD_STAT_RX_MSGS,
	MCD_STAT_FWD_MSGS,
	MCD_STAT_TX_PACKETS,
	MCD_STAT_RX_PACKETS,
	MCD_STAT_RETRANS,
	MCD_STAT_PEER_FAILS,
	MCD_STAT_BUSY_SENT,
	MCD_STAT_RX_DROPS,
	MCD_STAT_RX_MALFORMED,
	MCD_STAT_RX_BAD_AUTH,
	MCD_STAT_RX_MEM,
	MCD_STAT_MSG_MEM,
	MCD_STAT_N
};

#define MCD_STATS_MAX		64	/* values in one STATS */
#define MCD_STATS_NONE		UINT64_MAX
#define MCD_STATS_BODY		(6 + 8 * MCD_STAT_N)	/* ours */

/* A record's order key (and a DIGEST entry). */
struct mcd_key {
	uint32_t node;
	uint32_t version;
	uint64_t incarnation;
	uint8_t state;		/* enum mcd_state */
};

/* A checked datagram; body..end is the part after the type's fields. */
struct mcd_msg {
	uint8_t type;
	uint32_t from;
	uint64_t incarnation;
	uint32_t count;		/* records, entries or nodes */
	uint32_t first;		/* DIGEST */
	uint32_t version;	/* HEARTBEAT */
	uint32_t query;		/* STATS_PULL, STATS (count: values) */
	const uint8_t *body;
	const uint8_t *end;
};

/* 0, or -EBADMSG when anything in @buf is out of place. */
int mcd_msg_parse(const void *buf, size_t len, struct mcd_msg *m);

/* Walking the records, entries or nodes of a parsed message. */
struct mcd_cursor {
	const uint8_t *p;
	uint32_t left;
};

struct mcd_rec_in {
	struct mcd_key key;
	uint16_t ngroups;
	const uint8_t *groups;	/* ngroups little-endian u32 */
};

void mcd_msg_cursor(const struct mcd_msg *m, struct mcd_cursor *c);
bool mcd_next_rec(struct mcd_cursor *c, struct mcd_rec_in *r);
uint32_t mcd_rec_group(const struct mcd_rec_in *r, uint32_t i);
bool mcd_next_ent(struct mcd_cursor *c, struct mcd_key *k);
bool mcd_next_node(struct mcd_cursor *c, uint32_t *node);

/* STATS value @i (< m->count) of a parsed STATS. */
uint64_t mcd_stats_value(const struct mcd_msg *m, uint32_t i);

/* Building one datagram. */
struct mcd_wbuf {
	uint8_t buf[MCD_DGRAM_MAX];
	size_t len;
	uint32_t count;
	uint8_t type;
};

/*
 * @arg: DIGEST the first index, HEARTBEAT the version, STATS_PULL and
 * STATS the query, else unused.
 */
void mcd_wbuf_begin(struct mcd_wbuf *w, enum mcd_msg_type type,
		    uint32_t from, uint64_t incarnation, uint32_t arg);
/* -ENOSPC: does not fit (a record always fits an empty ANNOUNCE). */
int mcd_wbuf_add_rec(struct mcd_wbuf *w, const struct mcd_key *k,
		     const uint32_t *groups, uint16_t ngroups);
int mcd_wbuf_add_ent(struct mcd_wbuf *w, const struct mcd_key *k);
int mcd_wbuf_add_node(struct mcd_wbuf *w, uint32_t node);
int mcd_wbuf_add_value(struct mcd_wbuf *w, uint64_t value);
/* Writes the count; the datagram is w->buf[0..returned length). */
size_t mcd_wbuf_end(struct mcd_wbuf *w);

#endif /* MCASTD_PROTO_H */
