// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Cluster keys: HMAC-SHA256 tags on every datagram and a replay window per
 * peer (auth.h has the format).  HMAC rather than an AEAD: the data need
 * not be secret, and a tag that needs no nonce cannot be broken by a
 * counter that repeats (a clock stepped back across a restart).
 */
#include <crypto/hash.h>
#include <crypto/algapi.h>
#include <linux/err.h>
#include <linux/ktime.h>
#include <linux/moduleparam.h>
#include <linux/netlink.h>
#include <linux/string.h>
#include <linux/timekeeping.h>

#include "compat.h"
#include "auth.h"

#define MCAST_HMAC	"hmac(sha256)"
#define MCAST_AUTH_HEAD	(MCW_AUTH_LEN - MCW_AUTH_TAG)	/* id, 0, counter */

/*
 * How far apart the nodes' wall clocks may be.  A counter further ahead
 * of the receiver's clock is refused (so a forger cannot push a window
 * beyond what the real peer reaches), and a new window refuses counters
 * up to its clock plus this (so nothing sent to an earlier life passes):
 * a peer is refused for up to twice this after it is added, which the
 * per-hop retries (4.4 s by default) outlast.
 */
static unsigned int clock_skew_ms = 1000;
module_param(clock_skew_ms, uint, 0644);
MODULE_PARM_DESC(clock_skew_ms,
		 "with a cluster key: how far apart the nodes' wall clocks may be, in ms; counters further ahead are refused, and a new peer's window starts this far ahead (default 1000)");

static u64 mcast_skew_ns(void)
{
	return (u64)READ_ONCE(clock_skew_ms) * NSEC_PER_MSEC;
}

void mcast_auth_init(struct mcast_auth *a)
{
	memset(a, 0, sizeof(*a));
	a->ctr = ktime_get_real_ns();
}

void mcast_replay_init(struct mcast_replay *r)
{
	memset(r, 0, sizeof(*r));
	r->floor = ktime_get_real_ns() + mcast_skew_ns();
}

static struct mcast_key *mcast_key_find(struct mcast_auth *a, u8 id)
{
	u32 i;

	for (i = 0; i < a->nkeys; i++)
		if (a->keys[i].id == id)
			return &a->keys[i];
	return NULL;
}

static void mcast_key_del(struct mcast_auth *a, struct mcast_key *k)
{
	u32 i = k - a->keys;
	u8 use = a->use ? a->use->id : 0;

	crypto_free_shash(k->tfm);
	a->nkeys--;
	memmove(k, k + 1, (a->nkeys - i) * sizeof(*k));
	memset(&a->keys[a->nkeys], 0, sizeof(*k));
	a->use = use ? mcast_key_find(a, use) : NULL;
}

void mcast_auth_clear(struct mcast_auth *a)
{
	while (a->nkeys)
		mcast_key_del(a, &a->keys[a->nkeys - 1]);
}

static struct crypto_shash *mcast_hmac_new(const u8 *secret,
					   struct netlink_ext_ack *extack)
{
	struct crypto_shash *tfm = crypto_alloc_shash(MCAST_HMAC, 0, 0);
	int err;

	if (IS_ERR(tfm)) {
		NL_SET_ERR_MSG(extack, "the kernel has no " MCAST_HMAC);
		return tfm;
	}
	err = crypto_shash_setkey(tfm, secret, MCAST_KEY_LEN);
	if (err) {
		crypto_free_shash(tfm);
		NL_SET_ERR_MSG(extack, "cannot set the " MCAST_HMAC " key");
		return ERR_PTR(err);
	}
	return tfm;
}

int mcast_auth_set(struct mcast_auth *a, u8 id, const u8 *secret, bool use,
		   struct netlink_ext_ack *extack)
{
	struct mcast_key *k = mcast_key_find(a, id);
	struct crypto_shash *tfm;

	if (!k && a->nkeys == MCAST_KEYS_MAX) {
		NL_SET_ERR_MSG(extack, "the node has as many keys as it can hold: drop one first");
		return -ENOSPC;
	}
	tfm = mcast_hmac_new(secret, extack);
	if (IS_ERR(tfm))
		return PTR_ERR(tfm);
	if (k) {
		crypto_free_shash(k->tfm);	/* replaced in place */
	} else {
		k = &a->keys[a->nkeys++];
		k->id = id;
	}
	k->tfm = tfm;
	if (use || !a->use)
		a->use = k;
	return 0;
}

int mcast_auth_use(struct mcast_auth *a, u8 id, struct netlink_ext_ack *extack)
{
	struct mcast_key *k = mcast_key_find(a, id);

	if (!k) {
		NL_SET_ERR_MSG(extack, "no key with this id is installed");
		return -ENOKEY;
	}
	a->use = k;
	return 0;
}

int mcast_auth_drop(struct mcast_auth *a, u8 id, struct netlink_ext_ack *extack)
{
	struct mcast_key *k = mcast_key_find(a, id);

	if (!k) {
		NL_SET_ERR_MSG(extack, "no key with this id is installed");
		return -ENOKEY;
	}
	if (k == a->use && a->nkeys > 1) {
		NL_SET_ERR_MSG(extack, "the node sends with this key: use another first");
		return -EBUSY;
	}
	mcast_key_del(a, k);
	return 0;
}

u32 mcast_auth_ids(const struct mcast_auth *a, u8 *ids)
{
	u32 i;

	for (i = 0; i < a->nkeys; i++)
		ids[i] = a->keys[i].id;
	return a->nkeys;
}

/*
 * HMAC-SHA256 of @v[0..@nv-1], then @head (the trailer up to its tag),
 * then the be32 id of the node @to it is for; its first 16 bytes.
 */
static int mcast_hmac(struct crypto_shash *tfm, const struct kvec *v,
		      size_t nv, const u8 *head, u32 to, u8 *tag)
{
	SHASH_DESC_ON_STACK(desc, tfm);
	__be32 to_be = cpu_to_be32(to);
	u8 full[32];
	size_t i;
	int err;

	desc->tfm = tfm;
	err = crypto_shash_init(desc);
	for (i = 0; !err && i < nv; i++)
		err = crypto_shash_update(desc, v[i].iov_base, v[i].iov_len);
	if (!err)
		err = crypto_shash_update(desc, head, MCAST_AUTH_HEAD);
	if (!err)
		err = crypto_shash_update(desc, (u8 *)&to_be, sizeof(to_be));
	if (!err)
		err = crypto_shash_final(desc, full);
	shash_desc_zero(desc);
	memcpy(tag, full, MCW_AUTH_TAG);
	memzero_explicit(full, sizeof(full));
	return err;
}

int mcast_auth_seal(struct mcast_auth *a, const struct kvec *v, size_t nv,
		    u32 to, u8 *trailer)
{
	a->ctr = max(a->ctr + 1, ktime_get_real_ns());
	memset(trailer, 0, MCAST_AUTH_HEAD);
	trailer[0] = a->use->id;
	put_unaligned_be64(a->ctr, trailer + 4);
	return mcast_hmac(a->use->tfm, v, nv, trailer, to, trailer +
			  MCAST_AUTH_HEAD);
}

/* Where @ctr is or would go in r->seen[]. */
static u32 mcast_replay_pos(const struct mcast_replay *r, u64 ctr)
{
	u32 lo = 0, hi = r->n;

	while (lo < hi) {
		u32 mid = lo + (hi - lo) / 2;

		if (r->seen[mid] < ctr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* Not seen, above the floor, not ahead of the clock; before the tag. */
static int mcast_replay_check(const struct mcast_replay *r, u64 ctr,
			      u64 *ahead_ms)
{
	u64 now = ktime_get_real_ns();
	u32 i;

	if (ctr > now + mcast_skew_ns()) {
		*ahead_ms = div_u64(ctr - now, NSEC_PER_MSEC);
		return -ERANGE;
	}
	if (ctr <= r->floor)
		return -EALREADY;
	i = mcast_replay_pos(r, ctr);
	return i < r->n && r->seen[i] == ctr ? -EALREADY : 0;
}

/* After the tag: @ctr joins seen[], the lowest leaving it for the floor. */
static void mcast_replay_accept(struct mcast_replay *r, u64 ctr)
{
	u32 i = mcast_replay_pos(r, ctr);

	if (r->n == MCAST_REPLAY_WIN && !i) {
		r->floor = ctr;			/* below all it holds: taken once */
		return;
	}
	if (r->n == MCAST_REPLAY_WIN) {
		r->floor = r->seen[0];
		i--;
		memmove(r->seen, r->seen + 1, i * sizeof(r->seen[0]));
	} else {
		memmove(r->seen + i + 1, r->seen + i,
			(r->n - i) * sizeof(r->seen[0]));
		r->n++;
	}
	r->seen[i] = ctr;
}

int mcast_auth_open(struct mcast_auth *a, struct mcast_replay *r, u32 me,
		    const u8 *buf, size_t *len, bool tagged, u64 *ahead_ms)
{
	const u8 *trailer;
	struct mcast_key *k;
	struct kvec v;
	u8 tag[MCW_AUTH_TAG];
	u64 ctr;
	int err;

	if (!mcast_auth_on(a))
		return tagged ? -EBADMSG : 0;
	if (!tagged || *len < MCW_AUTH_LEN)
		return -EBADMSG;
	trailer = buf + *len - MCW_AUTH_LEN;
	k = mcast_key_find(a, trailer[0]);
	if (!k || trailer[1] || trailer[2] || trailer[3])
		return -EBADMSG;
	ctr = get_unaligned_be64(trailer + 4);
	err = mcast_replay_check(r, ctr, ahead_ms);
	if (err)
		return err;
	v = (struct kvec){ (void *)buf, *len - MCW_AUTH_LEN };
	if (mcast_hmac(k->tfm, &v, 1, trailer, me, tag) ||
	    crypto_memneq(tag, trailer + MCAST_AUTH_HEAD, MCW_AUTH_TAG))
		return -EBADMSG;
	mcast_replay_accept(r, ctr);
	*len -= MCW_AUTH_LEN;
	return 0;
}
