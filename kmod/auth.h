/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * Cluster keys: with a key, every datagram a node sends is authenticated
 * with HMAC-SHA256 under a key the cluster shares (in the manner of TIPC's
 * node keys and corosync's authkey), so that a host without the key can
 * neither inject, forge ACK, DONE or BUSY, nor replay.
 *
 * A datagram with MCW_F_AUTH in its flags ends with a trailer of
 * MCW_AUTH_LEN bytes: u8 key id, 3 reserved bytes (0: anything else is
 * refused), be64 counter, then the tag, the first 16 bytes of
 * HMAC-SHA256(key, everything before the tag, then the be32 id of the node
 * it is sent to).  The destination is in the tag but not on the wire: a
 * datagram sealed for one node is no good at another.
 *
 * The counter is the sender's wall clock in ns (CLOCK_REALTIME, the one
 * clock hosts agree on), one more than the last if the clock has not
 * moved on, so it never repeats and stays within a datagram per ns of the
 * clock.  A receiver keeps per peer a floor and the MCAST_REPLAY_WIN
 * highest counters it accepted above it, and takes a counter only if it
 * is above the floor, not among them, and at most clock_skew_ms ahead of
 * its own clock.  A window starts (the peer is added) with its floor at
 * the receiver's clock plus that skew: at or above anything an earlier
 * window (the node's earlier life, or the peer's earlier entry) can have
 * accepted.  docs/data-path.md "Cluster key" has the argument.
 */
#ifndef MCAST_AUTH_H
#define MCAST_AUTH_H

#include <linux/types.h>
#include <linux/uio.h>
#include <uapi/linux/mcast.h>

struct crypto_shash;
struct netlink_ext_ack;

#define MCW_AUTH_LEN		28	/* the trailer */
#define MCW_AUTH_TAG		16	/* its tag, at its end */
#define MCAST_REPLAY_WIN	64	/* accepted counters a peer's window holds */

struct mcast_key {
	u8 id;
	struct crypto_shash *tfm;	/* hmac(sha256), keyed */
};

/* A node's keys; under mn->lock. */
struct mcast_auth {
	struct mcast_key keys[MCAST_KEYS_MAX];
	u32 nkeys;
	struct mcast_key *use;		/* sends with it; NULL: no key */
	u64 ctr;			/* the last counter sent (ns) */
};

/*
 * A peer's replay window: every counter accepted from it is either in
 * seen[] or at most floor, so none is taken twice.
 */
struct mcast_replay {
	u64 floor;			/* refused at or below it */
	u32 n;				/* counters in seen[] */
	u64 seen[MCAST_REPLAY_WIN];	/* accepted, above floor, ascending */
};

static inline bool mcast_auth_on(const struct mcast_auth *a)
{
	return a->use;
}

/* Trailer bytes every datagram carries now: fragments leave room. */
static inline size_t mcast_auth_room(const struct mcast_auth *a)
{
	return mcast_auth_on(a) ? MCW_AUTH_LEN : 0;
}

void mcast_auth_init(struct mcast_auth *a);
/* A new peer's window: nothing sent before now (plus the skew) passes. */
void mcast_replay_init(struct mcast_replay *r);
void mcast_auth_clear(struct mcast_auth *a);
int mcast_auth_set(struct mcast_auth *a, u8 id, const u8 *secret, bool use,
		   struct netlink_ext_ack *extack);
int mcast_auth_use(struct mcast_auth *a, u8 id,
		   struct netlink_ext_ack *extack);
int mcast_auth_drop(struct mcast_auth *a, u8 id,
		    struct netlink_ext_ack *extack);
/* The ids installed into @ids (room for MCAST_KEYS_MAX); returns how many. */
u32 mcast_auth_ids(const struct mcast_auth *a, u8 *ids);

/*
 * Seals one datagram for node @to, @v[0..@nv-1], the first of them its
 * header with MCW_F_AUTH set: fills @trailer (MCW_AUTH_LEN bytes).
 */
int mcast_auth_seal(struct mcast_auth *a, const struct kvec *v, size_t nv,
		    u32 to, u8 *trailer);
/*
 * Checks a datagram of *@len bytes for node @me from a peer whose window
 * is @r: returns 0 and the length without the trailer in *@len, or
 * -EBADMSG (tagged where no key is, or untagged, or no such key, or
 * reserved bytes set, or a wrong tag: sealed for another node too),
 * -EALREADY (a counter seen, or at or below the floor: too old, or from
 * before the window began) or -ERANGE (a counter further ahead of this
 * node's clock than the skew allows; *@ahead_ms says by how much).
 */
int mcast_auth_open(struct mcast_auth *a, struct mcast_replay *r, u32 me,
		    const u8 *buf, size_t *len, bool tagged, u64 *ahead_ms);

#endif /* MCAST_AUTH_H */
