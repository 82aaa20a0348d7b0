// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * mcast_forge: speaks mcast.ko's wire format (docs/data-path.md) from
 * wherever it runs, so the guest tests can play a host that is no peer,
 * or a peer that lies.  Its own copy of the header, on purpose: it checks
 * the documented format, not the module's struct.
 *
 *   mcast_forge [tcp|raw] [sport=PORT] [bind=ADDR] ADDR PORT TYPE
 *               [FIELD=V..] [piece=ID:PREV,ID:PREV..] [text=STRING]
 *               [n=COUNT]
 *
 * TYPE data, ack or done (or a number).  FIELDs are the header's: version
 * (1), flags, src, from, xid, seq, group, step, msg_len, count, frag, cum;
 * unset ones are 0 but version.  A DATA's body is its piece entries then
 * text, msg_len and count default to what they hold; a DONE's body is the
 * piece's ids.  The datagram goes out COUNT times over UDP (from PORT
 * sport, address bind) or, with tcp, as COUNT frames on one connection;
 * with raw (IPv4), over a raw socket that writes the UDP header itself, so
 * sport may be a port a node's socket holds: a peer's own address and
 * port, as a lying peer (or a host spoofing one) would send.
 * Prints "sent N" and exits 0, or says why not and exits 1.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <endian.h>
#include <errno.h>
#include <stdarg.h>
#include <netinet/in.h>
#include <netinet/udp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

struct wire_hdr {
	uint8_t version, type, flags, pad;
	uint32_t src, from, xid;
	uint64_t seq;
	uint32_t group, step, msg_len, count, frag, cum;
} __attribute__((packed));

#define ENTRY_LEN	12	/* be32 node, be64 prev */
#define MAX_ENTRIES	4096
#define MAX_DGRAM	(64 << 10)

static void die(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static void die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fputs("mcast_forge: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
	exit(1);
}

/* ADDR (IPv4 or IPv6) and PORT as an IPv6 socket address (v4 mapped). */
static void parse_addr(const char *s, unsigned int port,
		       struct sockaddr_in6 *sa)
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

struct forged {
	struct wire_hdr h;
	uint8_t body[MAX_DGRAM];
	size_t blen;
	int have_len, have_count;
};

static int set_field(struct forged *f, const char *k, const char *v)
{
	unsigned long long x = strtoull(v, NULL, 0);
	static const char *const names[] = {
		"version", "flags", "src", "from", "xid", "seq", "group",
		"step", "msg_len", "count", "frag", "cum",
	};
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(k, names[i]))
			break;
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

static int connect_to(int tcp, const char *bind_addr, unsigned int sport,
		      const struct sockaddr_in6 *to)
{
	int fd = socket(AF_INET6, tcp ? SOCK_STREAM : SOCK_DGRAM, 0);
	struct sockaddr_in6 me;

	if (fd < 0)
		die("socket: %s", strerror(errno));
	if (bind_addr || sport) {
		parse_addr(bind_addr ? bind_addr : "::", sport, &me);
		if (bind(fd, (struct sockaddr *)&me, sizeof(me)))
			die("bind: %s", strerror(errno));
	}
	if (connect(fd, (const struct sockaddr *)to, sizeof(*to)))
		die("connect: %s", strerror(errno));
	return fd;
}

static void send_all(int fd, const void *buf, size_t len)
{
	const uint8_t *p = buf;
	ssize_t n;

	while (len) {
		n = send(fd, p, len, MSG_NOSIGNAL);
		if (n < 0)
			die("send: %s", strerror(errno));
		p += n;
		len -= n;
	}
}

/* @count copies of @buf as UDP from port @sport, the UDP header ours. */
static void send_raw(const struct sockaddr_in6 *to, unsigned int sport,
		     const uint8_t *buf, size_t len, unsigned int count)
{
	static uint8_t pkt[sizeof(struct udphdr) + MAX_DGRAM];
	struct sockaddr_in dst = { .sin_family = AF_INET };
	struct udphdr u = {
		.source = htons(sport),
		.dest = to->sin6_port,
		.len = htons(sizeof(u) + len),
		.check = 0,		/* IPv4: none */
	};
	int fd = socket(AF_INET, SOCK_RAW, IPPROTO_UDP);

	if (fd < 0)
		die("raw socket: %s", strerror(errno));
	if (!IN6_IS_ADDR_V4MAPPED(&to->sin6_addr))
		die("raw: IPv4 only");
	memcpy(&dst.sin_addr, &to->sin6_addr.s6_addr[12], 4);
	memcpy(pkt, &u, sizeof(u));
	memcpy(pkt + sizeof(u), buf, len);
	while (count--)
		if (sendto(fd, pkt, sizeof(u) + len, 0,
			   (struct sockaddr *)&dst, sizeof(dst)) < 0)
			die("raw send: %s", strerror(errno));
	close(fd);
}

int main(int argc, char **argv)
{
	static struct forged f;
	static uint8_t dgram[4 + sizeof(struct wire_hdr) + MAX_DGRAM];
	const char *bind_addr = NULL, *text = "";
	unsigned int sport = 0, count = 1, i;
	char *piece = NULL, *eq;
	struct sockaddr_in6 to;
	uint32_t npiece = 0, be;
	size_t len;
	int tcp = 0, raw = 0, a = 1, fd;

	for (; a < argc; a++) {
		if (!strcmp(argv[a], "tcp"))
			tcp = 1;
		else if (!strcmp(argv[a], "raw"))
			raw = 1;
		else if (!strncmp(argv[a], "sport=", 6))
			sport = atoi(argv[a] + 6);
		else if (!strncmp(argv[a], "bind=", 5))
			bind_addr = argv[a] + 5;
		else
			break;
	}
	if (argc - a < 3)
		die("usage: mcast_forge [tcp|raw] [sport=P] [bind=A] ADDR PORT TYPE [FIELD=V..]");
	parse_addr(argv[a], atoi(argv[a + 1]), &to);
	f.h.version = 1;
	if (!strcmp(argv[a + 2], "data"))
		f.h.type = 1;
	else if (!strcmp(argv[a + 2], "ack"))
		f.h.type = 2;
	else if (!strcmp(argv[a + 2], "done"))
		f.h.type = 3;
	else
		f.h.type = atoi(argv[a + 2]);
	for (a += 3; a < argc; a++) {
		eq = strchr(argv[a], '=');
		if (!eq)
			die("expected FIELD=VALUE: %s", argv[a]);
		*eq++ = '\0';
		if (!strcmp(argv[a], "piece"))
			piece = eq;
		else if (!strcmp(argv[a], "text"))
			text = eq;
		else if (!strcmp(argv[a], "n"))
			count = atoi(eq);
		else if (set_field(&f, argv[a], eq))
			die("no field %s", argv[a]);
	}
	if (piece)
		npiece = put_piece(&f, piece);
	if (f.blen + strlen(text) > MAX_DGRAM)
		die("text: too long");
	memcpy(f.body + f.blen, text, strlen(text));
	f.blen += strlen(text);
	if (!f.have_count && npiece)
		f.h.count = htobe32(npiece);
	if (!f.have_len && f.h.type == 1)
		f.h.msg_len = htobe32(strlen(text));

	len = sizeof(f.h) + f.blen;
	be = htobe32(len);
	memcpy(dgram, &be, 4);
	memcpy(dgram + 4, &f.h, sizeof(f.h));
	memcpy(dgram + 4 + sizeof(f.h), f.body, f.blen);
	if (raw) {
		send_raw(&to, sport, dgram + 4, len, count);
		printf("sent %u\n", count);
		return 0;
	}
	fd = connect_to(tcp, bind_addr, sport, &to);
	for (i = 0; i < count; i++) {
		if (tcp)
			send_all(fd, dgram, len + 4);
		else if (send(fd, dgram + 4, len, 0) < 0)
			die("send: %s", strerror(errno));
	}
	if (tcp) {
		/* the frames reach the peer before the connection ends */
		shutdown(fd, SHUT_WR);
		while (read(fd, dgram, sizeof(dgram)) > 0)
			;
	}
	close(fd);
	printf("sent %u\n", count);
	return 0;
}
