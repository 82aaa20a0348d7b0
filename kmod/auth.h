/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * Cluster keys: with a key, every datagram a node sends is authenticated
 * with HMAC-SHA256 under a key the cluster shares (in the manner of TIPC's
 * node keys and corosync's authkey), so that a host without the key can
 * neither inject, forge ACK, DONE or BUSY, nor replay.
 *
 * A datagram with MCW_F_AUTH in its flags ends with a trailer of
 * MCW_AUTH_LEN bytes: u8 key id, 3 bytes 0, be64 counter, then the tag,
 * the first 16 bytes of HMAC-SHA256(key, everything before the tag).  The
 * counter is the sender's, one more per datagram, started from the wall
 * clock in ns when the node came up, so it grows across restarts; a
 * receiver keeps per peer the highest counter it accepted and which of
 * the MCAST_REPLAY_WIN below that it has seen, and drops the rest.
 */
#ifndef MCAST_AUTH_H
#define MCAST_AUTH_H

#include <linux/bitops.h>
#include <linux/types.h>
#include <linux/uio.h>
#include <uapi/linux/mcast.h>

struct crypto_shash;
struct netlink_ext_ack;

#define MCW_AUTH_LEN		28	/* the trailer */
#define MCW_AUTH_TAG		16	/* its tag, at its end */
#define MCAST_REPLAY_WIN	1024	/* counters below the highest accepted */

struct mcast_key {
	u8 id;
	struct crypto_shash *tfm;	/* hmac(sha256), keyed */
};

/* A node's keys; under mn->lock. */
struct mcast_auth {
	struct mcast_key keys[MCAST_KEYS_MAX];
	u32 nkeys;
	struct mcast_key *use;		/* sends with it; NULL: no key */
	u64 ctr;			/* the last counter sent */
};

/* A peer's replay window. */
struct mcast_replay {
	u64 top;			/* the highest counter accepted */
	DECLARE_BITMAP(seen, MCAST_REPLAY_WIN);	/* by counter modulo */
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
 * Seals one datagram, @v[0..@nv-1] of @len bytes, the first of them its
 * header with MCW_F_AUTH set: fills @trailer (MCW_AUTH_LEN bytes).
 */
int mcast_auth_seal(struct mcast_auth *a, const struct kvec *v, size_t nv,
		    u8 *trailer);
/*
 * Checks a datagram of *@len bytes from a peer whose window is @r:
 * returns 0 and the length without the trailer in *@len, or -EBADMSG
 * (tagged where no key is, or untagged, or no such key, or a wrong tag),
 * or -EALREADY (a counter seen, or too old).
 */
int mcast_auth_open(struct mcast_auth *a, struct mcast_replay *r,
		    const u8 *buf, size_t *len, bool tagged);

#endif /* MCAST_AUTH_H */
