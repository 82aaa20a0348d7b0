// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * mcast_fuzzpeer: a configured peer that holds the cluster key and lies
 * in the authenticated data path (docs/data-path.md "Wire format",
 * "Cluster key", "Per-hop reliability").  It takes the place of a real
 * node: run in that node's netns, on its address and port, with the
 * node's own kernel socket moved off the port, so every other node talks
 * to it as to that node and believes its sealed datagrams.  mcast_forge
 * (the same format and seal, wire.h: their own copy of the header, on
 * purpose) writes one datagram at a time; this one takes part in live
 * transfers:
 *
 *  - as a child: it reads the DATA a real parent sends it and answers
 *    with ACKs, DONEs, BUSYs and YOUNGs, honest for some transfers (so
 *    that sends complete) and mutated for the others: random and
 *    boundary values in every field (cum, frag, the job's epoch, the
 *    incarnation, DONE's count and part, failed ids in and out of its
 *    piece, unsorted, repeated), bodies cut short or too long, answers
 *    before the transfer is whole, for other transfers, silence;
 *  - as a parent: it sends transfers of its own (src = itself, group
 *    group=) to the real nodes, with pieces of real nodes (which they
 *    forward), some by the book and some mutated (header fields that
 *    change mid-transfer, fragments repeated, out of range, of the wrong
 *    length, the wrong incarnation, PROBE and AGAIN at random, wrong
 *    pieces and prevs, a finished transfer's id reused), and reacts to
 *    the children's ACKs and DONEs by the book or not (ignores them,
 *    sends again what was acknowledged, abandons the transfer);
 *  - on the way out, any datagram may be cut to a short sealed frame (a
 *    header of fewer than 48 bytes, then the trailer: what issue 39 item
 *    3 is about), sent twice, held back and sent after later ones
 *    (reordered), replayed (its counter again), or, on TCP, written in
 *    two parts so that the receiver reads the frame in pieces.
 *
 * It forwards nothing: given a piece of more than itself it reports the
 * rest failed when it is honest (a test keeps it a leaf, where a lie
 * about a subtree is the trust model's known gap, docs/data-path.md
 * "Trust").  It does not check the tags of what it receives.
 *
 *   mcast_fuzzpeer [tcp] id=ID addr=ADDR port=P key=FILE nodes=N
 *                  peers=ID:ADDR,.. [group=G] [secs=S] [seed=S]
 *                  [every=MS] [honest=PCT] [verbose]
 *
 * id, addr: the node it plays (its configured address); port: the
 * cluster's port (UDP: its own; TCP: it listens there and connects out);
 * key: the cluster key (32 bytes, raw or 64 hex digits; key id 1);
 * nodes: the torus' node count; peers: the real nodes; group: the group
 * of its own messages (default 6); it runs for S seconds (default 20)
 * from seed S (default: the time, printed as "seed S" first, so that a
 * run can be repeated), starts a transfer of its own every MS ms
 * (default 200; 0: none), and is honest in PCT % of the transfers
 * (default 30).  At the end (or on SIGTERM) it prints one line:
 *   fuzzpeer data_in=.. xfers_in=.. acks=.. dones=.. ...
 * (the counts of what it did, below) and exits 0; 1 on a setup error.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "wire.h"

#define KEY_ID		1
#define MAX_MSG		(4u << 20)
#define WIN		64	/* fragments a transfer has out */
#define MAX_FRAGS	4096
#define MAX_PIECE	64
#define MAX_PEERS	64
#define MAX_DG		(64u << 10)	/* TCP's datagram */
#define NRX		64	/* transfers remembered as a child */
#define NTX		8	/* transfers of its own at once */
#define NDELAY		64
#define NIN		32	/* accepted TCP connections */

/* ------------------------------------------------------------ options */

static struct {
	int tcp, verbose;
	uint32_t id, nodes, group, port, every_ms, honest_pct;
	int secs;
	uint64_t seed;
	const char *addr, *key;
	uint32_t fs;		/* payload bytes per DATA, with the trailer */
} opt = { .group = 6, .secs = 20, .every_ms = 200, .honest_pct = 30 };

struct peer {
	uint32_t id;
	struct sockaddr_in6 sa;
	int out;		/* TCP: the connection to it, -1 none */
	uint32_t inc;		/* its incarnation, from its answers */
	uint64_t last_seq;	/* our stream's last seq sent to it */
};

static struct peer peers[MAX_PEERS];
static unsigned int npeers;

static struct {
	unsigned long data_in, xfers_in, acks, dones, busys, youngs, shorts,
		      mutated, silent, dups, delayed, replays, splits,
		      tx_started, tx_done, tx_failed_ids, tx_abandoned,
		      tx_frags, tx_mutated, acks_in, dones_in, busy_in,
		      young_in, other_in, send_errs, dgrams_out, ids_out,
		      may_malform;
} st;

static long long now_ms(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (long long)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

static struct peer *peer_of(uint32_t id)
{
	unsigned int i;

	for (i = 0; i < npeers; i++)
		if (peers[i].id == id)
			return &peers[i];
	return NULL;
}

/* peers=ID:ADDR,.. */
static void parse_peers(char *list)
{
	char *tok, *save, *colon;

	for (tok = strtok_r(list, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		colon = strchr(tok, ':');
		if (!colon || npeers == MAX_PEERS)
			die("peers: ID:ADDR,.. (at most %d)", MAX_PEERS);
		*colon = '\0';
		peers[npeers].id = strtoul(tok, NULL, 0);
		parse_addr(colon + 1, opt.port, &peers[npeers].sa);
		peers[npeers].out = -1;
		npeers++;
	}
}

/* -------------------------------------------------------------- random */

static int chance(unsigned int pct)
{
	return rnd() % 100 < pct;
}

/*
 * A field's value: mostly @base, else one near it, an edge of the format
 * (the DONE room on UDP and TCP, a window, the sign bit) or any.
 */
static uint32_t fuzz32(uint32_t base)
{
	static const uint32_t edge[] = {
		0, 1, 2, 63, 64, 65, 255, 256, 343, 344, 345, 351, 352,
		4095, 4096, 16364, 16365, 16366, 65535, 65536, 0x7fffffff,
		0x80000000, 0xfffffffe, 0xffffffff,
	};

	switch (rnd() % 5) {
	case 0: return edge[rnd() % (sizeof(edge) / sizeof(edge[0]))];
	case 1: return base + (uint32_t)(rnd() % 5) - 2;
	case 2: return (uint32_t)rnd();
	default: return base;
	}
}

static uint64_t fuzz64(uint64_t base)
{
	static const uint64_t edge[] = {
		0, 1, 1ull << 63, ~0ull, (1ull << 63) - 1, ~0ull - 1,
	};

	switch (rnd() % 5) {
	case 0: return edge[rnd() % (sizeof(edge) / sizeof(edge[0]))];
	case 1: return base + rnd() % 5 - 2;
	case 2: return rnd();
	default: return base;
	}
}

/* ---------------------------------------------------------------- seal */

static int alg_op = -1;
static uint64_t seal_ctr;

/*
 * Seals @buf[0..len-1] for node @to with the next counter (wire.h's
 * seal()), F_AUTH in the flags when the frame is long enough to have
 * them.  Returns the new length.
 */
static size_t seal_for(uint8_t *buf, size_t len, uint32_t to)
{
	if (len > 2)
		buf[2] |= F_AUTH;
	return seal(alg_op, buf, len, KEY_ID, 0, next_ctr(&seal_ctr), to);
}

/* ------------------------------------------------------------- sockets */

static int udp_fd = -1, listen_fd = -1;

struct in_conn {
	int fd;
	uint8_t lenbuf[4];
	uint32_t lgot, flen, fgot;
	uint8_t buf[MAX_DG];
};

static struct in_conn *in_conns[NIN];

static void open_sockets(void)
{
	struct sockaddr_in6 me;
	int one = 1;

	parse_addr(opt.addr, opt.port, &me);
	if (!opt.tcp) {
		udp_fd = socket(AF_INET6, SOCK_DGRAM | SOCK_NONBLOCK, 0);
		if (udp_fd < 0 || bind(udp_fd, (struct sockaddr *)&me, sizeof(me)))
			die("UDP [%s]:%u: %s", opt.addr, opt.port, strerror(errno));
		return;
	}
	/* on our address: the peers connect to it (and a host may hold two) */
	listen_fd = socket(AF_INET6, SOCK_STREAM | SOCK_NONBLOCK, 0);
	if (listen_fd < 0)
		die("socket: %s", strerror(errno));
	setsockopt(listen_fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (bind(listen_fd, (struct sockaddr *)&me, sizeof(me)) ||
	    listen(listen_fd, 64))
		die("TCP port %u: %s", opt.port, strerror(errno));
}

/* TCP: the connection to @p, from our address, made on first use. */
static int tcp_out(struct peer *p)
{
	struct sockaddr_in6 me;
	struct timeval tv = { .tv_sec = 2 };
	int one = 1, fd;

	if (p->out >= 0)
		return p->out;
	fd = socket(AF_INET6, SOCK_STREAM, 0);
	if (fd < 0)
		return -1;
	parse_addr(opt.addr, 0, &me);
	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
	if (bind(fd, (struct sockaddr *)&me, sizeof(me)) ||
	    connect(fd, (struct sockaddr *)&p->sa, sizeof(p->sa))) {
		close(fd);
		return -1;
	}
	p->out = fd;
	return fd;
}

static int write_all(int fd, const uint8_t *b, size_t len)
{
	ssize_t n;

	while (len) {
		n = send(fd, b, len, MSG_NOSIGNAL);
		if (n <= 0)
			return -1;
		b += n;
		len -= n;
	}
	return 0;
}

/*
 * One sealed datagram @b[0..len-1] (4 bytes of room before it) to @p;
 * @wild if it may be malformed.  What a receiver may count in
 * rx_malformed is counted in may_malform: a DATA that may be wrong, a
 * short frame, a DONE's every id (one not in the piece counts once).
 */
static void put_wire(struct peer *p, uint8_t *b, size_t len, int split,
		     int wild)
{
	uint32_t be = htobe32(len);
	size_t cut;
	int fd;

	st.dgrams_out++;
	if (len >= HDR_LEN + AUTH_LEN && b[1] == T_DONE)
		st.ids_out += (len - HDR_LEN - AUTH_LEN) / 4;
	if (len < HDR_LEN + AUTH_LEN || (wild && b[1] == T_DATA))
		st.may_malform++;

	if (!opt.tcp) {
		if (sendto(udp_fd, b, len, 0, (struct sockaddr *)&p->sa,
			   sizeof(p->sa)) < 0)
			st.send_errs++;
		return;
	}
	fd = tcp_out(p);
	if (fd < 0) {
		st.send_errs++;
		return;
	}
	memcpy(b - 4, &be, 4);
	len += 4;
	cut = split ? 4 + rnd() % (len - 4) : len;
	if (split)
		st.splits++;
	/* in two parts with a pause: the receiver reads it in pieces */
	if (write_all(fd, b - 4, cut) ||
	    (cut < len && (usleep(2000), write_all(fd, b - 4 + cut, len - cut)))) {
		st.send_errs++;
		close(fd);
		p->out = -1;	/* the peer closed it (a frame it refused) */
	}
}

/* ------------------------------------------------------ the way out */

/* Datagrams held back to go after later ones (reordering). */
static struct delayed {
	int used, wild;
	long long due;
	struct peer *p;
	size_t len;
	uint8_t buf[4 + MAX_DG + AUTH_LEN + 64];
} delays[NDELAY];

static struct {
	struct peer *p;
	size_t len;
	uint8_t buf[4 + MAX_DG + AUTH_LEN + 64];
} last_sealed;		/* for a replay */

/*
 * Sends @dg[0..len-1] (a datagram, header first) to @p sealed, and on the
 * way, when @wild, maybe cut to a short sealed frame, twice, later, or
 * replayed.  @dg has 4 bytes of room before it and AUTH_LEN after.
 */
static void xmit(struct peer *p, uint8_t *dg, size_t len, int wild)
{
	int copies = 1, split_short = 0, i, k;
	size_t slen;

	if (wild && len >= HDR_LEN && chance(dg[1] == T_DONE ? 30 : 5)) {
		/*
		 * A header cut short, mostly keeping step, count and frag (a
		 * DONE of 72 to 75 bytes sealed), else any; on TCP mostly
		 * written in two parts, so the receiver reads it into a
		 * buffer of its own length
		 */
		len = chance(50) ? 44 + rnd() % 4 :
		      chance(50) ? 32 + rnd() % 12 : rnd() % HDR_LEN;
		split_short = opt.tcp && chance(60);
		st.shorts++;
	}
	if (wild && chance(5)) {
		copies += 1 + rnd() % 2;
		st.dups++;
	}
	for (i = 0; i < copies; i++) {
		slen = seal_for(dg, len, p->id);
		if (wild && chance(4)) {
			for (k = 0; k < NDELAY && delays[k].used; k++)
				;
			if (k < NDELAY) {
				delays[k].used = 1;
				delays[k].due = now_ms() + 1 + rnd() % 40;
				delays[k].p = p;
				delays[k].wild = wild;
				delays[k].len = slen;
				memcpy(delays[k].buf + 4, dg, slen);
				st.delayed++;
				continue;
			}
		}
		put_wire(p, dg, slen, split_short ||
			 (opt.tcp && wild && chance(8)), wild);
		last_sealed.p = p;
		last_sealed.len = slen;
		memcpy(last_sealed.buf + 4, dg, slen);
	}
	if (wild && last_sealed.p && chance(2)) {
		/* its counter again: the receiver's window must drop it */
		memcpy(dg, last_sealed.buf + 4, last_sealed.len);
		put_wire(last_sealed.p, dg, last_sealed.len, 0, 1);
		st.replays++;
	}
}

static void flush_delayed(int all)
{
	long long now = now_ms();
	int k;

	for (k = 0; k < NDELAY; k++) {
		if (!delays[k].used || (!all && delays[k].due > now))
			continue;
		delays[k].used = 0;
		put_wire(delays[k].p, delays[k].buf + 4, delays[k].len, 0,
			 delays[k].wild);
	}
}

/* -------------------------------------------------------- as a child */

/* A transfer a real parent sends us. */
struct rxt {
	int used, honest, done;
	uint32_t from, xid, src, count, msg_len, nfrags, cum, nhave, epoch;
	uint32_t npiece, piece[MAX_PIECE];
	uint64_t seq;
	long long last;
	uint8_t have[MAX_FRAGS / 8];
};

static struct rxt rxts[NRX];
static uint32_t my_inc, rx_epoch;

static struct rxt *rxt_find(uint32_t from, uint32_t xid)
{
	int i;

	for (i = 0; i < NRX; i++)
		if (rxts[i].used && rxts[i].from == from && rxts[i].xid == xid)
			return &rxts[i];
	return NULL;
}

/* A new one, in the slot of the one heard from longest ago. */
static struct rxt *rxt_new(const struct wire_hdr *h, uint32_t from,
			   uint32_t nfrags)
{
	struct rxt *t = &rxts[0];
	int i;

	for (i = 0; i < NRX; i++) {
		if (!rxts[i].used) {
			t = &rxts[i];
			break;
		}
		if (rxts[i].last < t->last)
			t = &rxts[i];
	}
	memset(t, 0, sizeof(*t));
	t->used = 1;
	t->honest = chance(opt.honest_pct);
	t->from = from;
	t->xid = be32toh(h->xid);
	t->src = be32toh(h->src);
	t->seq = be64toh(h->seq);
	t->count = be32toh(h->count);
	t->msg_len = be32toh(h->msg_len);
	t->nfrags = nfrags;
	t->epoch = ++rx_epoch ? rx_epoch : ++rx_epoch;
	st.xfers_in++;
	return t;
}

static int have(const struct rxt *t, uint32_t i)
{
	return i < MAX_FRAGS && (t->have[i / 8] >> (i % 8) & 1);
}

static void answer_hdr(struct wire_hdr *a, const struct rxt *t, uint8_t type)
{
	memset(a, 0, sizeof(*a));
	a->version = 1;
	a->type = type;
	a->src = htobe32(t->src);
	a->from = htobe32(opt.id);
	a->xid = htobe32(t->xid);
	a->seq = htobe64(t->seq);
	a->step = htobe32(my_inc);
}

/* The honest ACK of @frag: cum, the bitmap after it, the job's epoch. */
static size_t honest_ack(const struct rxt *t, uint8_t *out, uint32_t frag,
			 uint8_t flags)
{
	struct wire_hdr a;
	uint64_t sack = 0, be;
	uint32_t i;

	answer_hdr(&a, t, T_ACK);
	a.flags = flags;
	a.count = htobe32(t->epoch);
	a.frag = htobe32(frag);
	a.cum = htobe32(t->cum);
	for (i = 1; i < 64 && t->cum + i < t->nfrags; i++)
		if (have(t, t->cum + i))
			sack |= 1ull << i;
	be = htobe64(sack);
	memcpy(out, &a, HDR_LEN);
	memcpy(out + HDR_LEN, &be, 8);
	return HDR_LEN + 8;
}

/* The honest DONE: every node of the piece but us failed (we forward none). */
static size_t honest_done(const struct rxt *t, uint8_t *out)
{
	struct wire_hdr a;
	uint32_t i, n = 0, be;

	answer_hdr(&a, t, T_DONE);
	for (i = 0; i < t->npiece; i++) {
		if (t->piece[i] == opt.id)
			continue;
		be = htobe32(t->piece[i]);
		memcpy(out + HDR_LEN + 4 * n++, &be, 4);
	}
	a.count = htobe32(n);
	memcpy(out, &a, HDR_LEN);
	return HDR_LEN + 4 * n;
}

/*
 * A DONE's count at an edge: of the DONE room (344 ids on UDP with a key,
 * 16365 on TCP), of the 64 parts a list may have, of the field.
 */
static uint32_t count_edge(void)
{
	static const uint32_t edge[] = {
		1, 343, 344, 345, 688, 16364, 16365, 16366, 22016, 22017,
		1047360, 1047361, 0x7fffffff, 0xffffffff,
	};

	return chance(80) ? edge[rnd() % (sizeof(edge) / sizeof(edge[0]))] :
			    (uint32_t)rnd();
}

/* A DONE's body of failed ids: in the piece or not, sorted or not. */
static size_t wild_ids(const struct rxt *t, uint8_t *body, uint32_t n)
{
	uint32_t i, id, be;

	for (i = 0; i < n; i++) {
		switch (rnd() % 4) {
		case 0: id = t->npiece ? t->piece[rnd() % t->npiece] : opt.id; break;
		case 1: id = opt.id; break;
		case 2: id = rnd() % (opt.nodes + 2); break;
		default: id = fuzz32(i); break;
		}
		be = htobe32(id);
		memcpy(body + 4 * i, &be, 4);
	}
	return 4 * n;
}

/*
 * A lie in answer to a DATA of @t: an ACK, BUSY, YOUNG or DONE with
 * random and boundary values, or an answer for another transfer.
 */
static size_t wild_answer(struct rxt *t, uint8_t *out, uint32_t frag)
{
	struct wire_hdr a;
	struct rxt *o;
	size_t len;
	uint32_t n;

	st.mutated++;
	if (chance(10) && (o = &rxts[rnd() % NRX])->used)
		t = o;		/* an answer for another transfer */
	switch (rnd() % 8) {
	case 0:			/* BUSY, though it may hold it all */
		len = honest_ack(t, out, frag, F_BUSY | (chance(20) ? rnd() : 0));
		st.busys++;
		break;
	case 1:			/* YOUNG, of any age */
		answer_hdr(&a, t, T_ACK);
		a.flags = F_YOUNG | (chance(20) ? (uint8_t)rnd() : 0);
		a.count = htobe32(fuzz32(rnd() % 100000));
		a.step = htobe32(chance(50) ? my_inc : fuzz32(my_inc));
		memcpy(out, &a, HDR_LEN);
		len = HDR_LEN;
		st.youngs++;
		break;
	case 2: case 3:		/* an ACK of wild fields */
		len = honest_ack(t, out, frag, 0);
		memcpy(&a, out, HDR_LEN);
		a.flags = chance(50) ? (uint8_t)(rnd() & ~F_AUTH) :
				       (F_PROBE | F_DUP) & (uint8_t)rnd();
		a.count = htobe32(fuzz32(t->epoch));
		a.frag = htobe32(fuzz32(frag));
		a.cum = htobe32(fuzz32(t->cum));
		if (chance(10))
			a.step = htobe32(fuzz32(my_inc));
		memcpy(out, &a, HDR_LEN);
		if (chance(30))
			len = HDR_LEN + rnd() % 9;	/* the bitmap short */
		else if (chance(20))
			len = HDR_LEN + 8 + rnd() % 64;
		if (chance(30)) {
			uint64_t s = rnd();

			memcpy(out + HDR_LEN, &s, 8);
		}
		st.acks++;
		break;
	default:		/* a DONE of wild fields, whole or not */
		answer_hdr(&a, t, T_DONE);
		n = chance(40) ? rnd() % 8 : count_edge();
		a.count = htobe32(n);
		a.frag = htobe32(chance(60) ? 0 : fuzz32(0));
		a.flags = chance(20) ? F_TRUNC : chance(10) ? (uint8_t)rnd() : 0;
		if (chance(5))
			a.step = htobe32(fuzz32(my_inc));
		memcpy(out, &a, HDR_LEN);
		/* the list as long as count says, or not */
		n = chance(50) ? n : rnd() % 8;
		len = HDR_LEN + wild_ids(t, out + HDR_LEN, n < 400 ? n : 400);
		if (chance(20) && len > HDR_LEN)
			len -= 1 + rnd() % 3;
		st.dones++;
		break;
	}
	if (chance(3)) {
		memcpy(&a, out, HDR_LEN);
		a.from = htobe32(fuzz32(opt.id));	/* another's name */
		memcpy(out, &a, HDR_LEN);
	}
	return len;
}

/* The piece's ids, from the transfer's first fragment. */
static void take_piece(struct rxt *t, const uint8_t *body, size_t blen)
{
	uint32_t i, be;

	for (i = 0; i < t->count && i < MAX_PIECE &&
	     (i + 1) * ENTRY_LEN <= blen; i++) {
		memcpy(&be, body + i * ENTRY_LEN, 4);
		t->piece[i] = be32toh(be) & 0x7fffff;	/* worm entries' flags off */
	}
	t->npiece = i;
}

static void child_data(struct peer *p, const struct wire_hdr *h,
		       const uint8_t *body, size_t blen)
{
	static uint8_t out[4 + MAX_DG + AUTH_LEN + 64];
	uint32_t count = be32toh(h->count), len = be32toh(h->msg_len);
	uint32_t frag = be32toh(h->frag), nfrags, inc = be32toh(h->cum);
	uint64_t total = (uint64_t)count * ENTRY_LEN + len;
	uint8_t *a = out + 4;
	struct rxt *t;
	size_t alen;
	int dup;

	st.data_in++;
	if (!count || len > MAX_MSG)
		return;
	nfrags = total ? (total + opt.fs - 1) / opt.fs : 1;
	if (frag >= nfrags || nfrags > MAX_FRAGS)
		return;
	t = rxt_find(p->id, be32toh(h->xid));
	if (t && (t->src != be32toh(h->src) || t->seq != be64toh(h->seq) ||
		  t->count != count || t->msg_len != len))
		t->used = 0;	/* the id reused: a new transfer */
	if (!t || !t->used)
		t = rxt_new(h, p->id, nfrags);
	t->last = now_ms();
	if (!frag && !t->npiece)
		take_piece(t, body, blen);
	dup = have(t, frag);
	if (!dup) {
		t->have[frag / 8] |= 1 << (frag % 8);
		t->nhave++;
		while (t->cum < t->nfrags && have(t, t->cum))
			t->cum++;
	}
	if (inc && inc != my_inc && t->honest) {
		/* a stale incarnation: the refusal a node sends */
		answer_hdr((struct wire_hdr *)a, t, T_ACK);
		xmit(p, a, HDR_LEN, 0);
		return;
	}
	if (!t->honest && chance(50)) {
		if (chance(15)) {
			st.silent++;
			return;
		}
		xmit(p, a, wild_answer(t, a, frag), 1);
		return;
	}
	if (t->nhave == t->nfrags) {
		alen = honest_done(t, a);
		t->done = 1;
		st.dones++;
	} else {
		alen = honest_ack(t, a, frag, (h->flags & F_PROBE) |
				  (dup ? F_DUP : 0));
		st.acks++;
	}
	xmit(p, a, alen, !t->honest);
}

/* ------------------------------------------------------- as a parent */

/* A transfer of our own to a real child. */
struct ptx {
	int used, honest;
	struct peer *to;
	uint32_t xid, count, msg_len, nfrags, cum, next, tries;
	uint64_t seq, total;
	uint8_t *payload;
	uint8_t acked[MAX_FRAGS / 8];
	long long born, rto_at;
};

static struct ptx ptxs[NTX];
static uint32_t next_xid;
static uint64_t my_seq;

static int acked(const struct ptx *t, uint32_t i)
{
	return t->acked[i / 8] >> (i % 8) & 1;
}

static void ack_mark(struct ptx *t, uint32_t i)
{
	if (i < t->nfrags)
		t->acked[i / 8] |= 1 << (i % 8);
}

/* The payload test receivers check (mcast_probe's pat()). */
static uint8_t pat(uint32_t src, uint32_t len, uint32_t i)
{
	return (i * 131u + src * 17u + len * 7u) % 251u;
}

/* Fragment @i of @t, @flags, by the book or (@wild) not. */
static void send_frag(struct ptx *t, uint32_t i, uint8_t flags, int wild)
{
	static uint8_t dg[4 + MAX_DG + AUTH_LEN + 64];
	uint8_t *b = dg + 4;
	struct wire_hdr h = {
		.version = 1, .type = T_DATA, .flags = flags,
		.src = htobe32(opt.id), .from = htobe32(opt.id),
		.xid = htobe32(t->xid), .seq = htobe64(t->seq),
		.group = htobe32(opt.group), .step = htobe32(1),
		.msg_len = htobe32(t->msg_len), .count = htobe32(t->count),
		.frag = htobe32(i), .cum = htobe32(t->to->inc),
	};
	uint64_t off = (uint64_t)i * opt.fs;
	size_t blen = off < t->total ? (t->total - off < opt.fs ?
					t->total - off : opt.fs) : 0;

	if (off < t->total)
		memcpy(b + HDR_LEN, t->payload + off, blen);
	if (wild && chance(25)) {
		st.tx_mutated++;
		switch (rnd() % 7) {
		case 0: h.msg_len = htobe32(fuzz32(t->msg_len)); break;
		case 1: h.count = htobe32(fuzz32(t->count)); break;
		case 2: h.frag = htobe32(fuzz32(i)); break;
		case 3: h.cum = htobe32(fuzz32(t->to->inc)); break;
		case 4: h.flags = (uint8_t)rnd() & ~F_AUTH; break;
		case 5: blen = fuzz32(blen) % (opt.fs + 2); break;
		default: h.seq = htobe64(fuzz64(t->seq)); break;
		}
		if (blen > opt.fs + 1)
			blen = opt.fs + 1;
	}
	memcpy(b, &h, HDR_LEN);
	st.tx_frags++;
	xmit(t->to, b, HDR_LEN + blen, wild);
}

/* Sends what the window allows, in order or (@wild) backwards. */
static void pump(struct ptx *t, int wild)
{
	uint32_t end = t->cum + WIN < t->nfrags ? t->cum + WIN : t->nfrags;
	uint32_t i;

	if (wild && chance(20)) {
		for (i = end; i-- > t->next;)
			send_frag(t, i, 0, 1);
		t->next = end > t->next ? end : t->next;
		return;
	}
	for (; t->next < end; t->next++)
		send_frag(t, t->next, 0, wild);
}

/* The piece: @to first, then other real nodes in id order from it. */
static uint32_t make_piece(struct ptx *t, uint32_t *ids, int wild)
{
	uint32_t n = 1, k, id;

	ids[0] = t->to->id;
	for (k = 1; k < opt.nodes && n < MAX_PIECE; k++) {
		id = (t->to->id + k) % opt.nodes;
		if ((peer_of(id) || (wild && id == opt.id)) && chance(50))
			ids[n++] = id;
	}
	if (wild && chance(15)) {
		/* repeated, out of order, not headed by the child, any id */
		k = rnd() % n;
		ids[k] = chance(50) ? ids[rnd() % n] : (uint32_t)fuzz32(opt.nodes);
		if (n < MAX_PIECE && chance(50))
			ids[n++] = ids[0];
	}
	return n;
}

static void ptx_free(struct ptx *t)
{
	free(t->payload);
	t->payload = NULL;
	t->used = 0;
}

static void ptx_start(void)
{
	struct ptx *t = NULL;
	uint32_t ids[MAX_PIECE], i;
	uint64_t prev, be64;
	uint32_t be;
	int k;

	for (k = 0; k < NTX && !t; k++)
		if (!ptxs[k].used)
			t = &ptxs[k];
	if (!t || !npeers)
		return;
	memset(t, 0, sizeof(*t));
	t->used = 1;
	t->honest = chance(opt.honest_pct);
	t->to = &peers[rnd() % npeers];
	t->xid = ++next_xid;
	t->seq = ++my_seq;
	if (!t->honest && chance(5))
		t->seq = fuzz64(t->seq);
	t->msg_len = chance(80) ? rnd() % 3000 : rnd() % (opt.tcp ? 300000 : 100000);
	t->count = make_piece(t, ids, !t->honest);
	t->total = (uint64_t)t->count * ENTRY_LEN + t->msg_len;
	t->nfrags = (t->total + opt.fs - 1) / opt.fs;
	t->payload = malloc(t->total);
	if (!t->payload) {
		t->used = 0;
		return;
	}
	for (i = 0; i < t->count; i++) {
		struct peer *d = peer_of(ids[i]);

		prev = d ? d->last_seq : 0;
		if (!t->honest && chance(10))
			prev = fuzz64(prev);
		if (d && t->honest)
			d->last_seq = t->seq;
		be = htobe32(ids[i]);
		be64 = htobe64(prev);
		memcpy(t->payload + i * ENTRY_LEN, &be, 4);
		memcpy(t->payload + i * ENTRY_LEN + 4, &be64, 8);
	}
	for (i = 0; i < t->msg_len; i++)
		t->payload[t->count * ENTRY_LEN + i] = pat(opt.id, t->msg_len, i);
	t->born = now_ms();
	t->rto_at = t->born + 300;
	st.tx_started++;
	pump(t, !t->honest);
}

static struct ptx *ptx_of(uint32_t from, uint32_t xid)
{
	int k;

	for (k = 0; k < NTX; k++)
		if (ptxs[k].used && ptxs[k].xid == xid && ptxs[k].to->id == from)
			return &ptxs[k];
	return NULL;
}

/* A mutated reaction to a child's answer; 1 if the transfer is over. */
static int wild_reaction(struct ptx *t)
{
	switch (rnd() % 6) {
	case 0:			/* a fragment acknowledged already */
		if (t->next)
			send_frag(t, rnd() % t->next, chance(50) ? F_PROBE : 0, 1);
		return 0;
	case 1:			/* the lot again, flagged AGAIN */
		t->next = t->cum;
		pump(t, 1);
		return 0;
	case 2:			/* the header changes mid-transfer, then gone */
		t->msg_len ^= 1 + rnd() % 7;
		send_frag(t, 0, 0, 1);
		st.tx_abandoned++;
		return 1;
	case 3:			/* abandoned: the child's job must expire */
		st.tx_abandoned++;
		return 1;
	case 4:			/* a fragment past the end */
		send_frag(t, t->nfrags + rnd() % 3, 0, 1);
		return 0;
	default:		/* the answer ignored */
		return 0;
	}
}

static void parent_ack(struct peer *p, const struct wire_hdr *h,
		       const uint8_t *body, size_t blen)
{
	struct ptx *t = ptx_of(p->id, be32toh(h->xid));
	uint32_t cum, i;
	uint64_t sack = 0;

	st.acks_in++;
	if (be32toh(h->step))
		p->inc = be32toh(h->step);
	if (!t)
		return;
	if (h->flags & F_BUSY) {
		st.busy_in++;
		t->rto_at = now_ms() + 100;
		return;
	}
	if (h->flags & F_YOUNG) {
		/* by the book: the child gets it all again, named anew */
		st.young_in++;
		memset(t->acked, 0, sizeof(t->acked));
		t->cum = t->next = 0;
		pump(t, !t->honest);
		return;
	}
	if (!t->honest && chance(30) && wild_reaction(t)) {
		ptx_free(t);
		return;
	}
	cum = be32toh(h->cum) < t->nfrags ? be32toh(h->cum) : t->nfrags;
	for (i = 0; i < cum; i++)
		ack_mark(t, i);
	if (be32toh(h->frag) < t->next)
		ack_mark(t, be32toh(h->frag));
	if (blen >= 8) {
		memcpy(&sack, body, 8);
		sack = be64toh(sack);
	}
	for (i = 0; i < 64; i++)
		if (sack >> i & 1)
			ack_mark(t, cum + i);
	while (t->cum < t->nfrags && acked(t, t->cum))
		t->cum++;
	t->tries = 0;
	t->rto_at = now_ms() + 300;
	pump(t, !t->honest);
}

static void parent_done(struct peer *p, const struct wire_hdr *h)
{
	struct ptx *t = ptx_of(p->id, be32toh(h->xid));

	st.dones_in++;
	if (be32toh(h->step))
		p->inc = be32toh(h->step);
	if (!t)
		return;
	st.tx_done++;
	st.tx_failed_ids += be32toh(h->count);
	if (opt.verbose)
		printf("done xid=%u to=%u count=%u\n", t->xid, p->id,
		       be32toh(h->count));
	if (!t->honest && chance(30)) {
		/* after the end: the last fragment again, or its id reused */
		if (chance(50)) {
			send_frag(t, t->nfrags - 1, F_PROBE, 1);
		} else {
			t->seq = ++my_seq;
			t->msg_len ^= 1;
			send_frag(t, 0, 0, 1);
		}
	}
	ptx_free(t);
}

/* Timeouts: a probe (the first fragment not acknowledged), then give up. */
static void ptx_timers(void)
{
	long long now = now_ms();
	struct ptx *t;
	uint32_t i;
	int k;

	for (k = 0; k < NTX; k++) {
		t = &ptxs[k];
		if (!t->used || now < t->rto_at)
			continue;
		if (++t->tries > 8 || now - t->born > 8000) {
			st.tx_abandoned++;
			ptx_free(t);
			continue;
		}
		i = t->cum < t->nfrags ? t->cum : t->nfrags - 1;
		send_frag(t, i, F_PROBE | F_AGAIN, !t->honest);
		t->rto_at = now + (300 << (t->tries < 3 ? t->tries : 3));
	}
}

/* ------------------------------------------------------------- input */

static void handle(const uint8_t *buf, size_t len)
{
	struct wire_hdr h;
	struct peer *p;

	if (len < HDR_LEN)
		return;
	memcpy(&h, buf, HDR_LEN);
	p = peer_of(be32toh(h.from));
	if (h.version != 1 || !p)
		return;
	if ((h.flags & F_AUTH) && len >= HDR_LEN + AUTH_LEN)
		len -= AUTH_LEN;
	switch (h.type) {
	case T_DATA:
		child_data(p, &h, buf + HDR_LEN, len - HDR_LEN);
		break;
	case T_ACK:
		parent_ack(p, &h, buf + HDR_LEN, len - HDR_LEN);
		break;
	case T_DONE:
		parent_done(p, &h);
		break;
	default:
		st.other_in++;
	}
}

static void read_udp(void)
{
	static uint8_t buf[MAX_DG + 64];
	ssize_t n;

	while ((n = recv(udp_fd, buf, sizeof(buf), MSG_DONTWAIT)) >= 0)
		handle(buf, n);
}

static void accept_tcp(void)
{
	int fd, k;

	while ((fd = accept4(listen_fd, NULL, NULL, SOCK_NONBLOCK)) >= 0) {
		for (k = 0; k < NIN && in_conns[k]; k++)
			;
		if (k == NIN || !(in_conns[k] = calloc(1, sizeof(*in_conns[k])))) {
			close(fd);
			continue;
		}
		in_conns[k]->fd = fd;
	}
}

/* Frames (be32 length, datagram) from an accepted connection. */
static void read_tcp(int k)
{
	struct in_conn *c = in_conns[k];
	ssize_t n;

	for (;;) {
		if (c->lgot < 4) {
			n = recv(c->fd, c->lenbuf + c->lgot, 4 - c->lgot, 0);
			if (n <= 0)
				break;
			c->lgot += n;
			if (c->lgot < 4)
				continue;
			memcpy(&c->flen, c->lenbuf, 4);
			c->flen = be32toh(c->flen);
			c->fgot = 0;
			if (!c->flen || c->flen > MAX_DG)
				goto gone;
		}
		n = recv(c->fd, c->buf + c->fgot, c->flen - c->fgot, 0);
		if (n <= 0)
			break;
		c->fgot += n;
		if (c->fgot == c->flen) {
			handle(c->buf, c->flen);
			c->lgot = 0;
		}
	}
	if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
		return;
gone:
	close(c->fd);
	free(c);
	in_conns[k] = NULL;
}

/* --------------------------------------------------------------- main */

static volatile sig_atomic_t stop;

static void on_term(int sig)
{
	(void)sig;
	stop = 1;
}

static void summary(void)
{
	printf("fuzzpeer data_in=%lu xfers_in=%lu acks=%lu dones=%lu busys=%lu youngs=%lu shorts=%lu mutated=%lu silent=%lu dups=%lu delayed=%lu replays=%lu splits=%lu tx_started=%lu tx_done=%lu tx_failed_ids=%lu tx_abandoned=%lu tx_frags=%lu tx_mutated=%lu acks_in=%lu dones_in=%lu busy_in=%lu young_in=%lu other_in=%lu send_errs=%lu dgrams_out=%lu ids_out=%lu may_malform=%lu\n",
	       st.data_in, st.xfers_in, st.acks, st.dones, st.busys,
	       st.youngs, st.shorts, st.mutated, st.silent, st.dups,
	       st.delayed, st.replays, st.splits, st.tx_started, st.tx_done,
	       st.tx_failed_ids, st.tx_abandoned, st.tx_frags, st.tx_mutated,
	       st.acks_in, st.dones_in, st.busy_in, st.young_in, st.other_in,
	       st.send_errs, st.dgrams_out, st.ids_out, st.may_malform);
	fflush(stdout);
}

static void run(void)
{
	struct pollfd pfd[1 + NIN];
	int idx[1 + NIN], n, k;
	long long end = now_ms() + (long long)opt.secs * 1000, next_tx = now_ms();

	while (!stop && now_ms() < end) {
		n = 0;
		pfd[n].fd = opt.tcp ? listen_fd : udp_fd;
		pfd[n].events = POLLIN;
		idx[n++] = -1;
		for (k = 0; opt.tcp && k < NIN; k++) {
			if (!in_conns[k])
				continue;
			pfd[n].fd = in_conns[k]->fd;
			pfd[n].events = POLLIN;
			idx[n++] = k;
		}
		if (poll(pfd, n, 5) < 0 && errno != EINTR)
			die("poll: %s", strerror(errno));
		for (k = 0; k < n; k++) {
			if (!(pfd[k].revents & (POLLIN | POLLERR | POLLHUP)))
				continue;
			if (idx[k] >= 0)
				read_tcp(idx[k]);
			else if (opt.tcp)
				accept_tcp();
			else
				read_udp();
		}
		flush_delayed(0);
		if (opt.every_ms && now_ms() >= next_tx) {
			ptx_start();
			next_tx = now_ms() + opt.every_ms;
		}
		ptx_timers();
	}
	flush_delayed(1);
}

int main(int argc, char **argv)
{
	char *peer_list = NULL;
	int a;

	opt.seed = (uint64_t)time(NULL);
	for (a = 1; a < argc; a++) {
		char *v = strchr(argv[a], '=');

		if (!strcmp(argv[a], "tcp")) {
			opt.tcp = 1;
			continue;
		}
		if (!strcmp(argv[a], "verbose")) {
			opt.verbose = 1;
			continue;
		}
		if (!v)
			die("expected KEY=VALUE: %s", argv[a]);
		*v++ = '\0';
		if (!strcmp(argv[a], "id"))
			opt.id = strtoul(v, NULL, 0);
		else if (!strcmp(argv[a], "addr"))
			opt.addr = v;
		else if (!strcmp(argv[a], "port"))
			opt.port = strtoul(v, NULL, 0);
		else if (!strcmp(argv[a], "key"))
			opt.key = v;
		else if (!strcmp(argv[a], "nodes"))
			opt.nodes = strtoul(v, NULL, 0);
		else if (!strcmp(argv[a], "peers"))
			peer_list = v;
		else if (!strcmp(argv[a], "group"))
			opt.group = strtoul(v, NULL, 0);
		else if (!strcmp(argv[a], "secs"))
			opt.secs = atoi(v);
		else if (!strcmp(argv[a], "seed"))
			opt.seed = strtoull(v, NULL, 0);
		else if (!strcmp(argv[a], "every"))
			opt.every_ms = strtoul(v, NULL, 0);
		else if (!strcmp(argv[a], "honest"))
			opt.honest_pct = strtoul(v, NULL, 0);
		else
			die("unknown option %s", argv[a]);
	}
	if (!opt.addr || !opt.port || !opt.key || !opt.nodes || !peer_list)
		die("usage: mcast_fuzzpeer [tcp] id=ID addr=ADDR port=P key=FILE nodes=N peers=ID:ADDR,.. [group=G] [secs=S] [seed=S] [every=MS] [honest=PCT] [verbose]");
	parse_peers(peer_list);
	/* max_payload (udp.c 1452, tcp.c 64 KiB) less header and trailer */
	opt.fs = (opt.tcp ? MAX_DG : 1452) - HDR_LEN - AUTH_LEN;
	printf("seed %llu\n", (unsigned long long)opt.seed);
	fflush(stdout);
	rng_state = opt.seed * 2 + 1;
	my_inc = (uint32_t)rnd() | 1;
	next_xid = (uint32_t)rnd();
	my_seq = (uint64_t)time(NULL) << 20;	/* as a node's stream starts */
	alg_op = seal_open(opt.key);
	/* the counter starts at the wall clock in ns, as a node's does */
	seal_ctr = realtime_ns();
	open_sockets();
	signal(SIGTERM, on_term);
	signal(SIGINT, on_term);
	signal(SIGPIPE, SIG_IGN);
	run();
	summary();
	return 0;
}
