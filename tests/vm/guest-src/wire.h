/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * What mcast_forge and mcast_fuzzpeer share: mcast.ko's wire format as
 * docs/data-path.md documents it ("Wire format", "Cluster key"), and the
 * seal a node with the cluster key puts on a datagram.  Their own copy,
 * on purpose: it checks the documented format, not the module's structs
 * (kmod/ and include/ are not included here).
 */
#ifndef MCAST_GUEST_WIRE_H
#define MCAST_GUEST_WIRE_H

#include <stddef.h>
#include <stdint.h>
#include <netinet/in.h>

/* docs/data-path.md "Wire format": 48 bytes, big endian */
struct wire_hdr {
	uint8_t version, type, flags, pad;
	uint32_t src, from, xid;
	uint64_t seq;
	uint32_t group, step, msg_len, count, frag, cum;
} __attribute__((packed));

_Static_assert(sizeof(struct wire_hdr) == 48, "the documented header");

#define HDR_LEN		((size_t)sizeof(struct wire_hdr))
#define T_DATA		1
#define T_ACK		2
#define T_DONE		3
#define F_TRUNC		0x01	/* DONE */
#define F_PROBE		0x01	/* DATA, ACK */
#define F_BUSY		0x02	/* ACK */
#define F_AGAIN		0x02	/* DATA */
#define F_YOUNG		0x04	/* ACK */
#define F_DUP		0x10	/* ACK */
#define F_AUTH		0x80	/* MCW_F_AUTH: a trailer follows */
#define ENTRY_LEN	12	/* a piece's entry: be32 node, be64 prev */
#define AUTH_LEN	28	/* u8 id, 3 zero, be64 counter, 16 tag */

/* "PROG: " (the program's name), the message, a newline; exits 1. */
void die(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));

/* ADDR (IPv4 or IPv6) and PORT as an IPv6 socket address (v4 mapped). */
void parse_addr(const char *s, unsigned int port, struct sockaddr_in6 *sa);

/* CLOCK_REALTIME in ns: where a node's counter starts. */
uint64_t realtime_ns(void);

/*
 * The next counter after *@last: the wall clock in ns, or one more than
 * the last if the clock has not moved, as a node's (a receiver refuses
 * one below the window it opened when it added us, or past its clock
 * plus the skew).  Stores it in *@last.
 */
uint64_t next_ctr(uint64_t *last);

/*
 * The cluster key's HMAC-SHA256, from the kernel over AF_ALG: key FILE
 * is 32 bytes, raw or 64 hex digits.  Returns the socket that seal()
 * hashes with; dies on an error.
 */
int seal_open(const char *path);

/*
 * Seals @buf[0..len-1] in place for node @to as a node with the cluster
 * key does (docs/data-path.md "Cluster key"): appends the 28-byte
 * trailer, key @id, the 24 bits of @resv (reserved: 0 but in tests),
 * be64 @ctr, and the first 16 bytes of HMAC-SHA256(key, everything
 * before the tag, then be32 @to): the tag names the node it is for, which
 * is hashed but not sent.  The caller sets F_AUTH in the flags first,
 * where the frame has them.  @buf has room for AUTH_LEN bytes more.
 * Returns the new length.  The one place the MAC's input is made.
 */
size_t seal(int op, uint8_t *buf, size_t len, uint8_t id, uint32_t resv,
	    uint64_t ctr, uint32_t to);

/*
 * The fuzzers' pseudo-random numbers: xorshift64*, reproducible from the
 * seed in rng_state (odd: never 0), good enough to fuzz.
 */
extern uint64_t rng_state;
uint64_t rnd(void);

#endif
