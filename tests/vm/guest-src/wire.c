// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * mcast_forge's and mcast_fuzzpeer's wire format and seal (wire.h): the
 * documented format, independent of kmod/ on purpose.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <endian.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>
#include <linux/if_alg.h>

#include "wire.h"

#ifndef AF_ALG
#define AF_ALG 38
#endif
#ifndef SOL_ALG
#define SOL_ALG 279
#endif

void die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fprintf(stderr, "%s: ", program_invocation_short_name);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
	exit(1);
}

void parse_addr(const char *s, unsigned int port, struct sockaddr_in6 *sa)
{
	struct in_addr a4;

	memset(sa, 0, sizeof(*sa));
	sa->sin6_family = AF_INET6;
	sa->sin6_port = htons(port);
	if (inet_pton(AF_INET6, s, &sa->sin6_addr) == 1)
		return;
	if (inet_pton(AF_INET, s, &a4) != 1)
		die("bad address %s", s);
	sa->sin6_addr.s6_addr[10] = 0xff;
	sa->sin6_addr.s6_addr[11] = 0xff;
	memcpy(&sa->sin6_addr.s6_addr[12], &a4, 4);
}

uint64_t realtime_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_REALTIME, &t);
	return (uint64_t)t.tv_sec * 1000000000 + t.tv_nsec;
}

uint64_t next_ctr(uint64_t *last)
{
	uint64_t ns = realtime_ns();

	*last = ns > *last ? ns : *last + 1;
	return *last;
}

static void read_key_file(const char *path, uint8_t *key)
{
	uint8_t buf[80];
	unsigned int b;
	size_t n, i;
	FILE *f = fopen(path, "rb");

	if (!f)
		die("key %s: %s", path, strerror(errno));
	n = fread(buf, 1, sizeof(buf), f);
	fclose(f);
	if (n == 32) {
		memcpy(key, buf, 32);
		return;
	}
	while (n > 64 && (buf[n - 1] == '\n' || buf[n - 1] == '\r'))
		n--;
	if (n != 64)
		die("key %s: expected 32 bytes or 64 hex digits", path);
	for (i = 0; i < 32; i++) {
		if (sscanf((char *)buf + 2 * i, "%2x", &b) != 1)
			die("key %s: not hex", path);
		key[i] = b;
	}
}

int seal_open(const char *path)
{
	struct sockaddr_alg sa = {
		.salg_family = AF_ALG,
		.salg_type = "hash",
		.salg_name = "hmac(sha256)",
	};
	uint8_t key[32];
	int tfm = socket(AF_ALG, SOCK_SEQPACKET, 0), op;

	if (tfm < 0 || bind(tfm, (struct sockaddr *)&sa, sizeof(sa)))
		die("AF_ALG hmac(sha256): %s", strerror(errno));
	read_key_file(path, key);
	if (setsockopt(tfm, SOL_ALG, ALG_SET_KEY, key, sizeof(key)))
		die("AF_ALG key: %s", strerror(errno));
	memset(key, 0, sizeof(key));
	op = accept(tfm, NULL, 0);
	if (op < 0)
		die("AF_ALG accept: %s", strerror(errno));
	return op;
}

size_t seal(int op, uint8_t *buf, size_t len, uint8_t id, uint32_t resv,
	    uint64_t ctr, uint32_t to)
{
	uint8_t digest[32];
	uint64_t be = htobe64(ctr);
	uint32_t be_to = htobe32(to);

	buf[len] = id;
	buf[len + 1] = resv >> 16;
	buf[len + 2] = resv >> 8;
	buf[len + 3] = resv;
	memcpy(buf + len + 4, &be, 8);
	/* the destination goes where the tag will be, for the hash only */
	memcpy(buf + len + 12, &be_to, 4);
	if (send(op, buf, len + 16, 0) != (ssize_t)(len + 16) ||
	    read(op, digest, sizeof(digest)) != sizeof(digest))
		die("AF_ALG hmac: %s", strerror(errno));
	memcpy(buf + len + 12, digest, 16);
	return len + AUTH_LEN;
}

uint64_t rng_state = 1;

uint64_t rnd(void)
{
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return rng_state * 0x2545F4914F6CDD1DULL;
}
