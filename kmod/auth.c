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
#include <linux/netlink.h>
#include <linux/string.h>

#include "compat.h"
#include "auth.h"

#define MCAST_HMAC	"hmac(sha256)"

void mcast_auth_init(struct mcast_auth *a)
{
	memset(a, 0, sizeof(*a));
	a->ctr = ktime_get_real_ns();
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

/* HMAC-SHA256 of @v[0..@nv-1] then @tail[0..@tlen-1], its first 16 bytes. */
static int mcast_hmac(struct crypto_shash *tfm, const struct kvec *v,
		      size_t nv, const u8 *tail, size_t tlen, u8 *tag)
{
	SHASH_DESC_ON_STACK(desc, tfm);
	u8 full[32];
	size_t i;
	int err;

	desc->tfm = tfm;
	err = crypto_shash_init(desc);
	for (i = 0; !err && i < nv; i++)
		err = crypto_shash_update(desc, v[i].iov_base, v[i].iov_len);
	if (!err)
		err = crypto_shash_update(desc, tail, tlen);
	if (!err)
		err = crypto_shash_final(desc, full);
	shash_desc_zero(desc);
	memcpy(tag, full, MCW_AUTH_TAG);
	memzero_explicit(full, sizeof(full));
	return err;
}

int mcast_auth_seal(struct mcast_auth *a, const struct kvec *v, size_t nv,
		    u8 *trailer)
{
	const size_t head = MCW_AUTH_LEN - MCW_AUTH_TAG;

	memset(trailer, 0, head);
	trailer[0] = a->use->id;
	put_unaligned_be64(++a->ctr, trailer + 4);
	return mcast_hmac(a->use->tfm, v, nv, trailer, head, trailer + head);
}

/* Not seen and not too old; checked before the tag, updated after it. */
static bool mcast_replay_fresh(const struct mcast_replay *r, u64 ctr)
{
	if (ctr > r->top)
		return true;
	if (r->top - ctr >= MCAST_REPLAY_WIN)
		return false;
	return !test_bit(ctr % MCAST_REPLAY_WIN, r->seen);
}

static void mcast_replay_accept(struct mcast_replay *r, u64 ctr)
{
	u64 c;

	if (ctr > r->top) {
		if (ctr - r->top >= MCAST_REPLAY_WIN)
			bitmap_zero(r->seen, MCAST_REPLAY_WIN);
		else
			for (c = r->top + 1; c < ctr; c++)
				clear_bit(c % MCAST_REPLAY_WIN, r->seen);
		r->top = ctr;
	}
	set_bit(ctr % MCAST_REPLAY_WIN, r->seen);
}

int mcast_auth_open(struct mcast_auth *a, struct mcast_replay *r,
		    const u8 *buf, size_t *len, bool tagged)
{
	const size_t head = MCW_AUTH_LEN - MCW_AUTH_TAG;
	const u8 *trailer;
	struct mcast_key *k;
	struct kvec v;
	u8 tag[MCW_AUTH_TAG];
	u64 ctr;

	if (!mcast_auth_on(a))
		return tagged ? -EBADMSG : 0;
	if (!tagged || *len < MCW_AUTH_LEN)
		return -EBADMSG;
	trailer = buf + *len - MCW_AUTH_LEN;
	k = mcast_key_find(a, trailer[0]);
	if (!k)
		return -EBADMSG;
	ctr = get_unaligned_be64(trailer + 4);
	if (!mcast_replay_fresh(r, ctr))
		return -EALREADY;
	v = (struct kvec){ (void *)buf, *len - MCW_AUTH_LEN };
	if (mcast_hmac(k->tfm, &v, 1, trailer, head, tag) ||
	    crypto_memneq(tag, trailer + head, MCW_AUTH_TAG))
		return -EBADMSG;
	mcast_replay_accept(r, ctr);
	*len -= MCW_AUTH_LEN;
	return 0;
}
