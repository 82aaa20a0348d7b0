/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * The daemons' datagrams under the cluster key: an HMAC-SHA256 tag (the
 * kernel's, over AF_ALG: no crypto library) cut to 16 bytes after each
 * datagram.  The tag's key is derived from the cluster key with a label
 * of its own, so the data path's key is never used for a second protocol.
 * Under the tag, before it, goes the sender's counter (u64 little-endian,
 * 1, 2, ... from each start) for the receiver's replay window (replay.h).
 * Without a key the datagrams go bare and only the source address and
 * port vouch for them (docs/daemon.md).
 */
#ifndef MCASTD_AUTH_H
#define MCASTD_AUTH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <linux/mcast.h>

#define MCD_COUNTER_LEN	8
#define MCD_TAG_LEN	16
#define MCD_TRAILER_LEN	(MCD_COUNTER_LEN + MCD_TAG_LEN)

struct mcd_auth {
	bool on;
	int op;				/* AF_ALG operation socket */
};

/* 0, or -errno (no AF_ALG hmac(sha256) in this kernel). */
int mcd_auth_init(struct mcd_auth *a, const unsigned char key[MCAST_KEY_LEN]);
void mcd_auth_fini(struct mcd_auth *a);
/* Appends @counter and the tag to @buf (room for MCD_TRAILER_LEN more);
 * the new length. */
size_t mcd_auth_seal(struct mcd_auth *a, unsigned char *buf, size_t len,
		     uint64_t counter);
/* The length without counter and tag, or -1 if the tag is wrong or
 * missing; @counter is the sender's (0 without a key). */
long mcd_auth_open(struct mcd_auth *a, const unsigned char *buf, size_t len,
		   uint64_t *counter);

#endif /* MCASTD_AUTH_H */
