// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * mcast_forge: speaks mcast.ko's wire format (docs/data-path.md) from
 * wherever it runs, so the guest tests can play a host that is no peer,
 * or a peer that lies.  Its own copy of the header (wire.h, shared with
 * mcast_fuzzpeer), on purpose: it checks the documented format, not the
 * module's struct.
 *
 *   mcast_forge [tcp|raw] [sport=PORT] [bind=ADDR] ADDR PORT TYPE
 *               [FIELD=V..] [piece=ID:PREV,ID:PREV..] [text=STRING]
 *               [fill=BYTES] [n=COUNT] [inc=FIELD,..] [seed=S]
 *               [key=FILE to=NODE [key_id=N] [ctr=C] [resv=R]] [cut=N]
 *
 * TYPE data, ack or done (or a number).  FIELDs are the header's: version
 * (1), flags, src, from, xid, seq, group, step, msg_len, count, frag, cum,
 * pad;
 * unset ones are 0 but version.  A DATA's body is its piece entries then
 * text, then fill= BYTES more ('f'), msg_len and count default to what
 * they hold (set them to forge one fragment of a longer transfer, as
 * frag= places it); a DONE's body is the piece's ids.  The datagram goes out COUNT times over UDP (from PORT
 * sport, address bind) or, with tcp, as COUNT frames on one connection;
 * with raw (IPv4), over a raw socket that writes the UDP header itself, so
 * sport may be a port a node's socket holds: a peer's own address and
 * port, as a lying peer (or a host spoofing one) would send.
 * inc=FIELD,.. adds one to those header fields from one copy to the next
 * (xid, seq, group: as many transfers, messages or streams).
 *
 * key=FILE (32 bytes, raw or 64 hex digits) seals every datagram as a node
 * with that cluster key does (docs/data-path.md "Cluster key"), for node
 * NODE (to=, the id of the node at ADDR: it is in the tag): MCW_F_AUTH in
 * the flags, then the 28-byte trailer
 *   u8 key id, 3 reserved bytes (0; resv=R puts R, 24 bits, there),
 *   be64 counter, 16 bytes tag,
 * the tag being the first 16 bytes of HMAC-SHA256(key, the datagram up to
 * the tag, i.e. header, body and the trailer's first 12 bytes, then the
 * be32 NODE), made with the kernel's AF_ALG (seal() of wire.c, the one
 * place).  The counter is C for every copy if ctr= is given (a replay;
 * ctr=now, or now+MS, now-MS: the wall clock in ns give or take MS ms),
 * else the wall clock (CLOCK_REALTIME) in ns, one more if the clock has
 * not moved; the last one used is printed after "sent N" as " ctr=C".
 *
 * cut=N cuts every datagram to its first N bytes before it is sealed (a
 * datagram shorter than its header, or than what its header claims).
 *
 * TYPE fuzz sends COUNT datagrams made from a pseudo-random generator
 * seeded with S: each a DATA, ACK, DONE or unknown type whose header
 * fields are either plausible (the set from= and src=, small counts and
 * lengths, ids near the set xid=, seq=, group=) or random, with a random body (random bytes or
 * piece entries) of a random length, and now and then random bytes of
 * the result flipped: malformed, truncated and merely surprising input.
 * With tcp, a connection the node closes (it does on a frame that fails a
 * check) is made again for the next frame, and fuzz sends each datagram
 * on a connection of its own: "sent N" then says how many it took
 * (after any ctr=): " conns=C".
 *
 * TYPE hold (tcp) plays a host that takes a node's connection slots:
 * opens COUNT connections, sends nothing, prints "held K of COUNT" (those
 * that connected), keeps them ms=MS ms (default 10000; with refill=1
 * making again, every 100 ms, those the node closed) and prints
 * "closed C of K opened=O": how many of the last K the node had closed,
 * and how many it opened in all.
 * listen=MS (raw only): then, for MS ms, prints what the node at ADDR PORT
 * answers to sport (the raw socket sees a copy of every UDP datagram that
 * comes in), a line each, as it comes:
 *   got TYPE flags=F from=N xid=X seq=S step=T count=C frag=F cum=C [ctr=N] [ids=ID,..]
 * (step: an ACK's or DONE's incarnation; ctr: a sealed one's counter;
 * ids: a DONE's failed list).
 *
 * TYPE mcd speaks mcastd's control protocol instead (daemon/proto.h, its
 * own copy here too): one ANNOUNCE, unsealed (no key=), with the header
 * hdr=FROM:INC and the records rec=NODE:INC:VER:STATE[,..] (STATE 1
 * alive, 2 suspect, 3 dead; no groups), all numbers as strtoull reads
 * them: a daemon, or a host spoofing one, lying about a node.
 * Prints "sent N" and exits 0, or says why not and exits 1.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <endian.h>
#include <errno.h>
#include <stdarg.h>
#include <netinet/in.h>
#include <netinet/ip.h>
#include <netinet/udp.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "wire.h"

#define MAX_ENTRIES	4096
#define MAX_DGRAM	(64 << 10)

struct forged {
	struct wire_hdr h;
	uint8_t body[MAX_DGRAM];
	size_t blen;
	int have_len, have_count;
};

static const char *const field_names[] = {
	"version", "flags", "src", "from", "xid", "seq", "group",
	"step", "msg_len", "count", "frag", "cum", "pad",
};
#define NFIELDS (sizeof(field_names) / sizeof(field_names[0]))

static size_t field_index(const char *k)
{
	size_t i;

	for (i = 0; i < NFIELDS; i++)
		if (!strcmp(k, field_names[i]))
			break;
	return i;
}

static int set_field(struct forged *f, const char *k, const char *v)
{
	unsigned long long x = strtoull(v, NULL, 0);
	size_t i = field_index(k);

	switch (i) {
	case 0: f->h.version = x; break;
	case 1: f->h.flags = x; break;
	case 2: f->h.src = htobe32(x); break;
	case 3: f->h.from = htobe32(x); break;
	case 4: f->h.xid = htobe32(x); break;
	case 5: f->h.seq = htobe64(x); break;
	case 6: f->h.group = htobe32(x); break;
	case 7: f->h.step = htobe32(x); break;
	case 8: f->h.msg_len = htobe32(x); f->have_len = 1; break;
	case 9: f->h.count = htobe32(x); f->have_count = 1; break;
	case 10: f->h.frag = htobe32(x); break;
	case 11: f->h.cum = htobe32(x); break;
	case 12: f->h.pad = x; break;
	default: return -1;
	}
	return 0;
}

/* piece=ID:PREV,..: entries (DATA) or bare ids (DONE) into the body. */
static uint32_t put_piece(struct forged *f, char *list)
{
	uint32_t n = 0, id, b32;
	uint64_t prev, b64;
	char *tok, *save;

	for (tok = strtok_r(list, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save), n++) {
		if (n == MAX_ENTRIES)
			die("piece: more than %d entries", MAX_ENTRIES);
		id = strtoul(tok, &tok, 0);
		prev = *tok == ':' ? strtoull(tok + 1, NULL, 0) : 0;
		b32 = htobe32(id);
		memcpy(f->body + f->blen, &b32, 4);
		f->blen += 4;
		if (f->h.type == 3)	/* DONE: ids only */
			continue;
		b64 = htobe64(prev);
		memcpy(f->body + f->blen, &b64, 8);
		f->blen += 8;
	}
	return n;
}

/* The cluster key's seal (wire.h), as key=, key_id=, to=, resv=, ctr= ask. */
struct sealer {
	int op;			/* -1: no key */
	uint8_t id;
	uint32_t resv;		/* the reserved bytes: 0 but for tests */
	int64_t to;		/* the node sealed for; -1: not given */
	uint64_t ctr;
	int fixed;		/* ctr= given: every copy the same */
};

/*
 * Seals @buf[0..*len-1] (a header first) in place for node s->to, if a
 * key was given: F_AUTH in the flags (when the whole header is there) and
 * the trailer (the format is at the top).  @buf has room for AUTH_LEN
 * bytes more.
 */
static void seal_dgram(struct sealer *s, uint8_t *buf, size_t *len)
{
	struct wire_hdr *h = (struct wire_hdr *)buf;

	if (s->op < 0)
		return;
	if (*len >= sizeof(*h))
		h->flags |= F_AUTH;
	if (!s->fixed)
		next_ctr(&s->ctr);
	*len = seal(s->op, buf, *len, s->id, s->resv, s->ctr,
		    (uint32_t)s->to);
}

/* inc=: one more in each named field of the header. */
static void inc_fields(struct wire_hdr *h, const unsigned int *inc)
{
	if (inc[4])
		h->xid = htobe32(be32toh(h->xid) + 1);
	if (inc[5])
		h->seq = htobe64(be64toh(h->seq) + 1);
	if (inc[6])
		h->group = htobe32(be32toh(h->group) + 1);
}

/* Mostly a small value near @base (what a real datagram has), else any. */
static uint32_t plausible(uint32_t base, uint32_t spread)
{
	return rnd() % 4 ? base + (uint32_t)(rnd() % (spread + 1)) :
			   (uint32_t)rnd();
}

/* One fuzz datagram from the template @t into @out; returns its length. */
static size_t fuzz_one(const struct wire_hdr *t, uint8_t *out, size_t room)
{
	static const uint8_t types[] = { 1, 1, 1, 2, 2, 3, 3, 0, 4, 255 };
	struct wire_hdr h = *t;
	size_t len, blen, i;
	uint32_t b32;
	uint64_t b64;

	h.version = rnd() % 16 ? 1 : (uint8_t)rnd();
	h.type = types[rnd() % sizeof(types)];
	h.flags = rnd() % 4 ? 0 : (uint8_t)rnd();
	/* the set src= mostly: a peer lying about others' messages is not
	 * what this checks (docs/data-path.md: what a peer is trusted with) */
	h.src = rnd() % 4 ? t->src : htobe32((uint32_t)rnd());
	h.xid = htobe32(plausible(be32toh(t->xid), 64));
	h.seq = htobe64(rnd() % 4 ? be64toh(t->seq) + rnd() % 64 : rnd());
	h.group = htobe32(plausible(be32toh(t->group), 4));
	h.step = htobe32(plausible(0, 8));
	h.msg_len = htobe32(plausible(0, 3000));
	h.count = htobe32(plausible(0, 20));
	h.frag = htobe32(plausible(0, 4));
	h.cum = htobe32(plausible(0, 4));
	memcpy(out, &h, sizeof(h));
	blen = rnd() % 8 ? rnd() % 1500 : rnd() % (room - sizeof(h));
	if (rnd() % 2) {
		for (i = 0; i + ENTRY_LEN <= blen; i += ENTRY_LEN) {
			b32 = htobe32(plausible(0, 16));
			b64 = htobe64(rnd() % 2 ? 0 : rnd() % 4096);
			memcpy(out + sizeof(h) + i, &b32, 4);
			memcpy(out + sizeof(h) + i + 4, &b64, 8);
		}
		for (; i < blen; i++)
			out[sizeof(h) + i] = rnd();
	} else {
		for (i = 0; i < blen; i++)
			out[sizeof(h) + i] = rnd();
	}
	len = sizeof(h) + blen;
	/* truncated, even the header; never empty: a TCP frame of length 0
	 * breaks the framing, and the peer rightly closes the connection */
	if (rnd() % 8 == 0)
		len = 1 + rnd() % len;
	for (i = rnd() % 4 ? 0 : 1 + rnd() % 4; i && len; i--)
		out[rnd() % len] ^= 1 << (rnd() % 8);	/* flipped bits */
	return len;
}

/* mcastd's ANNOUNCE (daemon/proto.h): little-endian, 20-byte header. */
#define MCD_MAX_RECS	64

struct mcd_forged {
	uint32_t from;
	uint64_t inc;
	uint32_t n;
	struct { uint32_t node, ver; uint64_t inc; uint8_t state; }
		rec[MCD_MAX_RECS];
};

static uint8_t *le(uint8_t *p, uint64_t x, int bytes)
{
	int i;

	for (i = 0; i < bytes; i++)
		*p++ = (uint8_t)(x >> (8 * i));
	return p;
}

static void mcd_parse_hdr(struct mcd_forged *m, char *v)
{
	char *end;

	m->from = (uint32_t)strtoull(v, &end, 0);
	if (*end != ':')
		die("hdr=FROM:INC");
	m->inc = strtoull(end + 1, NULL, 0);
}

static void mcd_parse_recs(struct mcd_forged *m, char *v)
{
	char *tok, *save, *p;

	for (tok = strtok_r(v, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (m->n == MCD_MAX_RECS)
			die("rec: at most %d", MCD_MAX_RECS);
		m->rec[m->n].node = (uint32_t)strtoull(tok, &p, 0);
		if (*p++ != ':')
			die("rec=NODE:INC:VER:STATE");
		m->rec[m->n].inc = strtoull(p, &p, 0);
		if (*p++ != ':')
			die("rec=NODE:INC:VER:STATE");
		m->rec[m->n].ver = (uint32_t)strtoull(p, &p, 0);
		if (*p++ != ':')
			die("rec=NODE:INC:VER:STATE");
		m->rec[m->n].state = (uint8_t)strtoull(p, NULL, 0);
		m->n++;
	}
}

static size_t mcd_build(const struct mcd_forged *m, uint8_t *out)
{
	uint8_t *p = out;
	uint32_t i;

	memcpy(p, "MCD1\x01\x01\x00\x00", 8);	/* v1, ANNOUNCE */
	p = le(p + 8, m->from, 4);
	p = le(p, m->inc, 8);
	p = le(p, m->n, 2);
	for (i = 0; i < m->n; i++) {
		p = le(p, m->rec[i].node, 4);
		p = le(p, m->rec[i].inc, 8);
		p = le(p, m->rec[i].ver, 4);
		*p++ = m->rec[i].state;
		*p++ = 0;
		p = le(p, 0, 2);	/* no groups */
	}
	return (size_t)(p - out);
}

/* A connected socket, or -1 (errno set) if @may_fail and connect failed. */
static int connect_to(int tcp, const char *bind_addr, unsigned int sport,
		      const struct sockaddr_in6 *to, int may_fail)
{
	int fd = socket(AF_INET6, tcp ? SOCK_STREAM : SOCK_DGRAM, 0);
	struct sockaddr_in6 me;
	int e;

	if (fd < 0)
		die("socket: %s", strerror(errno));
	if (bind_addr || sport) {
		parse_addr(bind_addr ? bind_addr : "::", sport, &me);
		if (bind(fd, (struct sockaddr *)&me, sizeof(me)))
			die("bind: %s", strerror(errno));
	}
	if (connect(fd, (const struct sockaddr *)to, sizeof(*to))) {
		if (!may_fail)
			die("connect: %s", strerror(errno));
		e = errno;
		close(fd);
		errno = e;
		return -1;
	}
	return fd;
}

/* Where and how the datagrams go: UDP, raw UDP (IPv4) or TCP frames. */
struct out {
	int fd, tcp, raw;
	unsigned int sport;
	const char *bind_addr;
	struct sockaddr_in6 to;
	unsigned int conns;	/* TCP: connections made */
};

/*
 * One TCP frame, whole; on a connection the node closed, again on a new
 * one (the node closes a connection whose frame fails a check).
 */
static void send_all(struct out *o, const void *buf, size_t len)
{
	const uint8_t *p = buf;
	size_t left = len;
	ssize_t n;

	while (left) {
		n = send(o->fd, p, left, MSG_NOSIGNAL);
		if (n < 0 && (errno == EPIPE || errno == ECONNRESET) &&
		    o->conns < 1000000) {
			close(o->fd);
			o->fd = connect_to(1, o->bind_addr, o->sport, &o->to, 0);
			o->conns++;
			p = buf;
			left = len;
			continue;
		}
		if (n < 0)
			die("send: %s", strerror(errno));
		p += n;
		left -= n;
	}
}

/* @buf[0..len-1] as UDP from port o->sport, the UDP header ours. */
static void send_raw(const struct out *o, const uint8_t *buf, size_t len)
{
	static uint8_t pkt[sizeof(struct udphdr) + sizeof(struct wire_hdr) +
			  MAX_DGRAM + AUTH_LEN];
	struct sockaddr_in dst = { .sin_family = AF_INET };
	int tries;
	struct udphdr u = {
		.source = htons(o->sport),
		.dest = o->to.sin6_port,
		.len = htons(sizeof(u) + len),
		.check = 0,		/* IPv4: none */
	};

	memcpy(&dst.sin_addr, &o->to.sin6_addr.s6_addr[12], 4);
	memcpy(pkt, &u, sizeof(u));
	memcpy(pkt + sizeof(u), buf, len);
	/* a full socket buffer (a loaded guest) is waited out, not fatal */
	for (tries = 0; sendto(o->fd, pkt, sizeof(u) + len, 0,
			       (struct sockaddr *)&dst, sizeof(dst)) < 0; tries++) {
		if ((errno != ENOBUFS && errno != EAGAIN) || tries == 1000)
			die("raw send: %s", strerror(errno));
		usleep(1000);
	}
}

/* One datagram @buf[0..len-1], with 4 bytes of room before it (TCP). */
static void send_one(struct out *o, uint8_t *buf, size_t len)
{
	uint32_t be = htobe32(len);

	if (o->raw) {
		send_raw(o, buf, len);
	} else if (o->tcp) {
		memcpy(buf - 4, &be, 4);
		send_all(o, buf - 4, len + 4);
	} else if (send(o->fd, buf, len, 0) < 0 && errno != ECONNREFUSED) {
		die("send: %s", strerror(errno));
	}
}

static void open_out(struct out *o)
{
	if (!o->raw) {
		o->fd = connect_to(o->tcp, o->bind_addr, o->sport, &o->to, 0);
		o->conns = 1;
		return;
	}
	if (!IN6_IS_ADDR_V4MAPPED(&o->to.sin6_addr))
		die("raw: IPv4 only");
	o->fd = socket(AF_INET, SOCK_RAW, IPPROTO_UDP);
	if (o->fd < 0)
		die("raw socket: %s", strerror(errno));
}

static long long now_ms(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (long long)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

static void print_answer(const uint8_t *p, size_t len)
{
	static const char *const types[] = { "?", "data", "ack", "done" };
	struct wire_hdr h;
	uint32_t n, i;

	if (len < sizeof(h))
		return;
	memcpy(&h, p, sizeof(h));
	printf("got %s flags=%u from=%u xid=%u seq=%llu step=%u count=%u frag=%u cum=%u",
	       h.type < 4 ? types[h.type] : "?", h.flags, be32toh(h.from),
	       be32toh(h.xid), (unsigned long long)be64toh(h.seq),
	       be32toh(h.step), be32toh(h.count), be32toh(h.frag),
	       be32toh(h.cum));
	if ((h.flags & F_AUTH) && len >= sizeof(h) + AUTH_LEN) {
		uint64_t ctr;

		memcpy(&ctr, p + len - AUTH_LEN + 4, 8);
		printf(" ctr=%llu", (unsigned long long)be64toh(ctr));
		len -= AUTH_LEN;
	}
	if (h.type == 3) {
		n = (len - sizeof(h)) / 4;
		printf(" ids=");
		for (i = 0; i < n && i < be32toh(h.count); i++) {
			uint32_t id;

			memcpy(&id, p + sizeof(h) + 4 * i, 4);
			printf("%s%u", i ? "," : "", be32toh(id));
		}
	}
	printf("\n");
}

/* listen=MS: the answers from o->to to o->sport, for @ms ms. */
static void listen_raw(const struct out *o, int ms)
{
	static uint8_t pkt[MAX_DGRAM + 128];
	long long end = now_ms() + ms, left;
	struct pollfd pfd = { .fd = o->fd, .events = POLLIN };
	struct udphdr u;
	struct iphdr ip;
	size_t off;
	ssize_t n;

	while ((left = end - now_ms()) > 0) {
		if (poll(&pfd, 1, left) <= 0)
			continue;
		n = recv(o->fd, pkt, sizeof(pkt), MSG_DONTWAIT);
		if (n < (ssize_t)sizeof(ip))
			continue;
		memcpy(&ip, pkt, sizeof(ip));
		off = ip.ihl * 4;
		if ((size_t)n < off + sizeof(u))
			continue;
		memcpy(&u, pkt + off, sizeof(u));
		if (memcmp(&ip.saddr, &o->to.sin6_addr.s6_addr[12], 4) ||
		    u.source != o->to.sin6_port || ntohs(u.dest) != o->sport)
			continue;
		print_answer(pkt + off + sizeof(u), n - off - sizeof(u));
		fflush(stdout);	/* a test may act on a line before the end */
	}
	fflush(stdout);
}

static void close_out(struct out *o)
{
	uint8_t buf[4096];

	if (o->tcp) {
		/* the frames reach the peer before the connection ends */
		shutdown(o->fd, SHUT_WR);
		while (read(o->fd, buf, sizeof(buf)) > 0)
			;
	}
	close(o->fd);
}

/* The node closed connection @fd (reset, or its end shut). */
static int closed_by_peer(int fd)
{
	char b;
	ssize_t n = recv(fd, &b, 1, MSG_PEEK | MSG_DONTWAIT);

	return n == 0 || (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK);
}

/* TYPE hold: @count idle connections, kept @ms ms (see the top). */
static void hold(struct out *o, unsigned int count, int ms, int refill)
{
	struct rlimit rl = { count + 64, count + 64 };
	unsigned int i, held = 0, closed = 0, opened = 0;
	long long end;
	int *fds = calloc(count, sizeof(*fds));

	if (!fds)
		die("out of memory");
	if (setrlimit(RLIMIT_NOFILE, &rl))
		die("setrlimit: %s", strerror(errno));
	for (i = 0; i < count; i++) {
		fds[i] = connect_to(1, o->bind_addr, o->sport, &o->to, 1);
		held += fds[i] >= 0;
	}
	opened = held;
	printf("held %u of %u\n", held, count);
	fflush(stdout);
	end = now_ms() + ms;
	while (now_ms() < end) {
		usleep(100000);
		for (i = 0; refill && i < count; i++) {
			if (fds[i] >= 0 && !closed_by_peer(fds[i]))
				continue;
			if (fds[i] >= 0)
				close(fds[i]);
			fds[i] = connect_to(1, o->bind_addr, o->sport, &o->to, 1);
			opened += fds[i] >= 0;
		}
	}
	for (i = 0, held = 0; i < count; i++) {
		if (fds[i] < 0)
			continue;
		held++;
		closed += closed_by_peer(fds[i]);
		close(fds[i]);
	}
	printf("closed %u of %u opened=%u\n", closed, held, opened);
	free(fds);
}

int main(int argc, char **argv)
{
	static struct forged f;
	static struct mcd_forged mcd;
	static uint8_t dgram[4 + sizeof(struct wire_hdr) + MAX_DGRAM + AUTH_LEN];
	const char *text = "";
	unsigned int count = 1, i, inc[NFIELDS] = { 0 };
	char *piece = NULL, *eq, *tok, *save;
	struct out o = { .fd = -1 };
	struct sealer sl = { .op = -1, .id = 1, .to = -1 };
	const char *key_path = NULL;
	uint32_t npiece = 0;
	size_t len, k, cut = 0, fill = 0;
	int a = 1, fuzz = 0, listen_ms = 0, is_mcd = 0, hold_mode = 0;
	int hold_ms = 10000, refill = 0;

	for (; a < argc; a++) {
		if (!strcmp(argv[a], "tcp"))
			o.tcp = 1;
		else if (!strcmp(argv[a], "raw"))
			o.raw = 1;
		else if (!strncmp(argv[a], "sport=", 6))
			o.sport = atoi(argv[a] + 6);
		else if (!strncmp(argv[a], "bind=", 5))
			o.bind_addr = argv[a] + 5;
		else
			break;
	}
	if (argc - a < 3)
		die("usage: mcast_forge [tcp|raw] [sport=P] [bind=A] ADDR PORT TYPE [FIELD=V..]");
	parse_addr(argv[a], atoi(argv[a + 1]), &o.to);
	f.h.version = 1;
	if (!strcmp(argv[a + 2], "data"))
		f.h.type = 1;
	else if (!strcmp(argv[a + 2], "ack"))
		f.h.type = 2;
	else if (!strcmp(argv[a + 2], "done"))
		f.h.type = 3;
	else if (!strcmp(argv[a + 2], "fuzz"))
		fuzz = 1;
	else if (!strcmp(argv[a + 2], "mcd"))
		is_mcd = 1;
	else if (!strcmp(argv[a + 2], "hold"))
		hold_mode = 1;
	else
		f.h.type = atoi(argv[a + 2]);
	rng_state = 1;
	for (a += 3; a < argc; a++) {
		eq = strchr(argv[a], '=');
		if (!eq)
			die("expected FIELD=VALUE: %s", argv[a]);
		*eq++ = '\0';
		if (is_mcd && !strcmp(argv[a], "hdr")) {
			mcd_parse_hdr(&mcd, eq);
		} else if (is_mcd && !strcmp(argv[a], "rec")) {
			mcd_parse_recs(&mcd, eq);
		} else if (!strcmp(argv[a], "piece")) {
			piece = eq;
		} else if (!strcmp(argv[a], "text")) {
			text = eq;
		} else if (!strcmp(argv[a], "fill")) {
			fill = strtoul(eq, NULL, 0);
		} else if (!strcmp(argv[a], "n")) {
			count = atoi(eq);
		} else if (!strcmp(argv[a], "key")) {
			key_path = eq;
		} else if (!strcmp(argv[a], "key_id")) {
			sl.id = atoi(eq);
		} else if (!strcmp(argv[a], "to")) {
			sl.to = strtoul(eq, NULL, 0);
		} else if (!strcmp(argv[a], "resv")) {
			sl.resv = strtoul(eq, NULL, 0) & 0xffffff;
		} else if (!strcmp(argv[a], "ctr")) {
			sl.ctr = strncmp(eq, "now", 3) ? strtoull(eq, NULL, 0) :
				 realtime_ns() +
				 strtoll(eq + 3, NULL, 10) * 1000000;
			sl.fixed = 1;
		} else if (!strcmp(argv[a], "cut")) {
			cut = strtoul(eq, NULL, 0);
			if (!cut)
				die("cut: at least one byte");
		} else if (!strcmp(argv[a], "listen")) {
			listen_ms = atoi(eq);
		} else if (!strcmp(argv[a], "ms")) {
			hold_ms = atoi(eq);
		} else if (!strcmp(argv[a], "refill")) {
			refill = atoi(eq);
		} else if (!strcmp(argv[a], "seed")) {
			rng_state = strtoull(eq, NULL, 0) | 1;
		} else if (!strcmp(argv[a], "inc")) {
			for (tok = strtok_r(eq, ",", &save); tok;
			     tok = strtok_r(NULL, ",", &save)) {
				k = field_index(tok);
				if (k != 4 && k != 5 && k != 6)
					die("inc: xid, seq or group, not %s", tok);
				inc[k] = 1;
			}
		} else if (set_field(&f, argv[a], eq)) {
			die("no field %s", argv[a]);
		}
	}
	if (listen_ms && !o.raw)
		die("listen: raw only");
	if (is_mcd && (key_path || fuzz || !mcd.n || !mcd.inc))
		die("mcd: hdr=FROM:INC and rec=..., and no key");
	if (hold_mode) {
		if (!o.tcp)
			die("hold: tcp only");
		hold(&o, count, hold_ms, refill);
		return 0;
	}
	if (piece)
		npiece = put_piece(&f, piece);
	if (f.blen + strlen(text) > MAX_DGRAM)
		die("text: too long");
	memcpy(f.body + f.blen, text, strlen(text));
	f.blen += strlen(text);
	if (fill > MAX_DGRAM - f.blen)
		die("fill: too long");
	memset(f.body + f.blen, 'f', fill);
	f.blen += fill;
	if (!f.have_count && npiece)
		f.h.count = htobe32(npiece);
	if (!f.have_len && f.h.type == 1)
		f.h.msg_len = htobe32(strlen(text));

	if (key_path) {
		if (sl.to < 0)
			die("key= needs to=NODE: the tag names the node it is for");
		sl.op = seal_open(key_path);
	}
	open_out(&o);
	for (i = 0; i < count; i++) {
		if (fuzz && o.tcp && i) {
			/* each on a connection of its own: the node closes
			 * one whose frame fails a check, and a frame sent
			 * after that one would be lost unread */
			close(o.fd);
			open_out(&o);
			o.conns = i + 1;
		}
		if (is_mcd) {
			len = mcd_build(&mcd, dgram + 4);
		} else if (fuzz) {
			len = fuzz_one(&f.h, dgram + 4, 2048);
		} else {
			len = sizeof(f.h) + f.blen;
			memcpy(dgram + 4, &f.h, sizeof(f.h));
			memcpy(dgram + 4 + sizeof(f.h), f.body, f.blen);
			inc_fields(&f.h, inc);
		}
		if (cut && cut < len) {
			/* the flag a sealed header has, if the cut keeps it */
			if (sl.op >= 0 && cut > 2)
				dgram[4 + 2] |= F_AUTH;
			len = cut;
		}
		seal_dgram(&sl, dgram + 4, &len);
		send_one(&o, dgram + 4, len);
	}
	printf("sent %u", count);
	if (sl.op >= 0)
		printf(" ctr=%llu", (unsigned long long)sl.ctr);
	if (o.tcp)
		printf(" conns=%u", o.conns);
	printf("\n");
	if (listen_ms)
		listen_raw(&o, listen_ms);
	close_out(&o);
	return 0;
}
