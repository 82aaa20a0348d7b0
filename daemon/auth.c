// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Tags on the daemons' datagrams (auth.h).
 */
#define _GNU_SOURCE		/* accept4 */
#include <errno.h>
#include <string.h>
#include <unistd.h>
#include <sys/socket.h>
#include <linux/if_alg.h>

#include "auth.h"

#ifndef SOL_ALG
#define SOL_ALG 279
#endif

static const char label[] = "mcastd control protocol v1";

/* An operation socket computing HMAC-SHA256 under @key. */
static int hmac_open(const unsigned char *key, size_t klen)
{
	struct sockaddr_alg sa = {
		.salg_family = AF_ALG,
		.salg_type = "hash",
		.salg_name = "hmac(sha256)",
	};
	int tfm, op, err;

	tfm = socket(AF_ALG, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
	if (tfm < 0)
		return -errno;
	if (bind(tfm, (struct sockaddr *)&sa, sizeof(sa)) ||
	    setsockopt(tfm, SOL_ALG, ALG_SET_KEY, key, klen)) {
		err = -errno;
		close(tfm);
		return err;
	}
	op = accept4(tfm, NULL, 0, SOCK_CLOEXEC);
	err = -errno;
	close(tfm);
	return op < 0 ? err : op;
}

static int hmac(int op, const void *buf, size_t len, unsigned char *out)
{
	if (send(op, buf, len, 0) != (ssize_t)len ||
	    read(op, out, 32) != 32)
		return -EIO;
	return 0;
}

int mcd_auth_init(struct mcd_auth *a, const unsigned char key[MCAST_KEY_LEN])
{
	unsigned char derived[32];
	int op, err;

	memset(a, 0, sizeof(*a));
	a->op = -1;
	op = hmac_open(key, MCAST_KEY_LEN);
	if (op < 0)
		return op;
	err = hmac(op, label, sizeof(label) - 1, derived);
	close(op);
	if (err)
		return err;
	a->op = hmac_open(derived, sizeof(derived));
	explicit_bzero(derived, sizeof(derived));
	if (a->op < 0)
		return a->op;
	a->on = true;
	return 0;
}

void mcd_auth_fini(struct mcd_auth *a)
{
	if (a->op >= 0)
		close(a->op);
	a->op = -1;
	a->on = false;
}

size_t mcd_auth_seal(struct mcd_auth *a, unsigned char *buf, size_t len,
		     uint64_t counter)
{
	unsigned char tag[32];
	int i;

	if (!a->on)
		return len;
	for (i = 0; i < MCD_COUNTER_LEN; i++)
		buf[len + i] = counter >> (8 * i);
	len += MCD_COUNTER_LEN;
	if (hmac(a->op, buf, len, tag))
		memset(tag, 0, sizeof(tag));	/* the receiver drops it */
	memcpy(buf + len, tag, MCD_TAG_LEN);
	return len + MCD_TAG_LEN;
}

/* Constant time: a wrong tag byte says nothing by when it is found. */
static bool tag_equal(const unsigned char *a, const unsigned char *b)
{
	unsigned char d = 0;
	int i;

	for (i = 0; i < MCD_TAG_LEN; i++)
		d |= a[i] ^ b[i];
	return !d;
}

long mcd_auth_open(struct mcd_auth *a, const unsigned char *buf, size_t len,
		   uint64_t *counter)
{
	unsigned char tag[32];
	size_t body;
	int i;

	*counter = 0;
	if (!a->on)
		return len;
	if (len < MCD_COUNTER_LEN + MCD_TAG_LEN)
		return -1;
	body = len - MCD_TAG_LEN;
	if (hmac(a->op, buf, body, tag) || !tag_equal(tag, buf + body))
		return -1;
	for (i = MCD_COUNTER_LEN - 1; i >= 0; i--)
		*counter = *counter << 8 | buf[body - MCD_COUNTER_LEN + i];
	return body - MCD_COUNTER_LEN;
}
