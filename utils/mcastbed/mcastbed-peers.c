// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * mcastbed-peers: add many peers to this node's mcast.ko in one process.
 *
 *   mcastbed-peers < LINES        each line: ID IPV4ADDR PORT
 *                                 or: port PORT
 *
 * What `mcastctl peer add id ID addr IPV4ADDR port PORT` does for one peer
 * (MCAST_CMD_PEER_NEW on the "mcast" generic netlink family), for every
 * line of stdin over one netlink socket: mcastbed uses it to give every
 * node of a 64-node testbed its 63 peers without 4032 processes, which
 * under QEMU's TCG take minutes.  Exits 0 when every peer was added;
 * otherwise prints the first refusal (errno and the kernel's extack
 * message) and exits 1.  No libnl: plain netlink sockets.
 *
 * "port PORT" sets this node's own UDP port (MCAST_NODE_A_PORT), keeping
 * its topology and coordinate (NODE_GET, then NODE_SET with the port),
 * for as long as mcastctl node set has no port keyword.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <linux/genetlink.h>
#include <linux/netlink.h>
#include <linux/mcast.h>

/* The build passes the package version (dkms.conf) as MCAST_VERSION. */
#ifndef MCAST_VERSION
#define MCAST_VERSION "unknown"
#endif

#define BUFSZ 8192

struct req {
	struct nlmsghdr n;
	struct genlmsghdr g;
	char attrs[256];
};

static int fd;
static uint32_t seq;

static struct nlattr *put(struct req *r, uint16_t type, const void *data,
			  uint16_t len)
{
	struct nlattr *a = (struct nlattr *)((char *)r + NLMSG_ALIGN(r->n.nlmsg_len));

	a->nla_type = type;
	a->nla_len = NLA_HDRLEN + len;
	if (len)
		memcpy((char *)a + NLA_HDRLEN, data, len);
	r->n.nlmsg_len = NLMSG_ALIGN(r->n.nlmsg_len) + NLA_ALIGN(a->nla_len);
	return a;
}

static void init(struct req *r, uint16_t type, uint8_t cmd, uint8_t version)
{
	memset(r, 0, sizeof(*r));
	r->n.nlmsg_len = NLMSG_LENGTH(GENL_HDRLEN);
	r->n.nlmsg_type = type;
	r->n.nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK;
	r->n.nlmsg_seq = ++seq;
	r->g.cmd = cmd;
	r->g.version = version;
}

/* The extack message of an error reply, if any. */
static const char *extack_msg(struct nlmsghdr *h)
{
	struct nlmsgerr *e = NLMSG_DATA(h);
	size_t off = sizeof(*e);
	struct nlattr *a;

	if (!(h->nlmsg_flags & NLM_F_ACK_TLVS))
		return NULL;
	if (!(h->nlmsg_flags & NLM_F_CAPPED))
		off += e->msg.nlmsg_len - sizeof(e->msg);
	while (NLMSG_HDRLEN + off + NLA_HDRLEN <= h->nlmsg_len) {
		a = (struct nlattr *)((char *)e + off);
		if (a->nla_len < NLA_HDRLEN || NLMSG_HDRLEN + off + a->nla_len > h->nlmsg_len)
			break;
		if (a->nla_type == NLMSGERR_ATTR_MSG)
			return (const char *)a + NLA_HDRLEN;
		off += NLA_ALIGN(a->nla_len);
	}
	return NULL;
}

/*
 * Sends @r and reads replies until its ack: 0 or -errno (*msg: the
 * extack message).  @cb sees every other message of the reply.
 */
static int talk(struct req *r, void (*cb)(struct nlmsghdr *, void *), void *arg,
		const char **msg)
{
	static char buf[BUFSZ];
	struct nlmsghdr *h;
	ssize_t n;
	int len;

	*msg = NULL;
	if (send(fd, r, r->n.nlmsg_len, 0) < 0)
		return -errno;
	for (;;) {
		n = recv(fd, buf, sizeof(buf), 0);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		len = n;
		for (h = (struct nlmsghdr *)buf; NLMSG_OK(h, (unsigned int)len);
		     h = NLMSG_NEXT(h, len)) {
			if (h->nlmsg_seq != r->n.nlmsg_seq)
				continue;
			if (h->nlmsg_type == NLMSG_ERROR) {
				struct nlmsgerr *e = NLMSG_DATA(h);

				if (e->error) {
					static char m[256];
					const char *x = extack_msg(h);

					if (x) {
						snprintf(m, sizeof(m), "%s", x);
						*msg = m;
					}
				}
				return e->error;
			}
			if (cb)
				cb(h, arg);
		}
	}
}

/* The node's configuration, from a NODE_GET reply. */
struct node_cfg {
	char kind[NLA_HDRLEN + 8];
	char links[NLA_HDRLEN + 8];
	char dims[NLA_HDRLEN + 2 * MCAST_MAX_DIMS];
	char coord[NLA_HDRLEN + 2 * MCAST_MAX_DIMS];
	int have;
};

static void keep_attr(char *dst, size_t room, const struct nlattr *a, int bit,
		      int *have)
{
	if (a->nla_len <= room) {
		memcpy(dst, a, a->nla_len);
		*have |= bit;
	}
}

static void node_cb(struct nlmsghdr *h, void *arg)
{
	struct node_cfg *c = arg;
	struct genlmsghdr *g = NLMSG_DATA(h);
	struct nlattr *a = (struct nlattr *)((char *)g + GENL_HDRLEN), *b;
	int len = h->nlmsg_len - NLMSG_LENGTH(GENL_HDRLEN), blen;

	for (; len >= NLA_HDRLEN && a->nla_len >= NLA_HDRLEN && a->nla_len <= len;
	     len -= NLA_ALIGN(a->nla_len),
	     a = (struct nlattr *)((char *)a + NLA_ALIGN(a->nla_len))) {
		if ((a->nla_type & NLA_TYPE_MASK) != MCAST_A_NODE)
			continue;
		b = (struct nlattr *)((char *)a + NLA_HDRLEN);
		blen = a->nla_len - NLA_HDRLEN;
		for (; blen >= NLA_HDRLEN && b->nla_len >= NLA_HDRLEN && b->nla_len <= blen;
		     blen -= NLA_ALIGN(b->nla_len),
		     b = (struct nlattr *)((char *)b + NLA_ALIGN(b->nla_len))) {
			switch (b->nla_type & NLA_TYPE_MASK) {
			case MCAST_NODE_A_KIND:
				keep_attr(c->kind, sizeof(c->kind), b, 1, &c->have);
				break;
			case MCAST_NODE_A_LINKS:
				keep_attr(c->links, sizeof(c->links), b, 2, &c->have);
				break;
			case MCAST_NODE_A_DIMS:
				keep_attr(c->dims, sizeof(c->dims), b, 4, &c->have);
				break;
			case MCAST_NODE_A_COORD:
				keep_attr(c->coord, sizeof(c->coord), b, 8, &c->have);
				break;
			}
		}
	}
}

static void put_copy(struct req *r, const char *attr)
{
	const struct nlattr *a = (const struct nlattr *)attr;

	put(r, a->nla_type, attr + NLA_HDRLEN, a->nla_len - NLA_HDRLEN);
}

static int set_port(uint16_t family, unsigned long port)
{
	struct node_cfg c = { .have = 0 };
	struct nlattr *nest;
	const char *msg;
	uint16_t p16 = port;
	struct req r;
	int err;

	init(&r, family, MCAST_CMD_NODE_GET, MCAST_GENL_VERSION);
	err = talk(&r, node_cb, &c, &msg);
	if (err || c.have != 15) {
		fprintf(stderr, "mcastbed-peers: port %lu: %s\n", port,
			err ? strerror(-err) : "the node is not configured");
		return 1;
	}
	init(&r, family, MCAST_CMD_NODE_SET, MCAST_GENL_VERSION);
	nest = put(&r, MCAST_A_NODE | NLA_F_NESTED, NULL, 0);
	put_copy(&r, c.kind);
	put_copy(&r, c.links);
	put_copy(&r, c.dims);
	put_copy(&r, c.coord);
	put(&r, MCAST_NODE_A_PORT, &p16, sizeof(p16));
	nest->nla_len = (char *)&r + r.n.nlmsg_len - (char *)nest;
	err = talk(&r, NULL, NULL, &msg);
	if (err) {
		fprintf(stderr, "mcastbed-peers: port %lu: %s%s%s\n", port, strerror(-err),
			msg ? ": " : "", msg ? msg : "");
		return 1;
	}
	return 0;
}

static void family_cb(struct nlmsghdr *h, void *arg)
{
	struct genlmsghdr *g = NLMSG_DATA(h);
	struct nlattr *a = (struct nlattr *)((char *)g + GENL_HDRLEN);
	int len = h->nlmsg_len - NLMSG_LENGTH(GENL_HDRLEN);

	while (len >= NLA_HDRLEN && a->nla_len >= NLA_HDRLEN && a->nla_len <= len) {
		if ((a->nla_type & NLA_TYPE_MASK) == CTRL_ATTR_FAMILY_ID)
			memcpy(arg, (char *)a + NLA_HDRLEN, sizeof(uint16_t));
		len -= NLA_ALIGN(a->nla_len);
		a = (struct nlattr *)((char *)a + NLA_ALIGN(a->nla_len));
	}
}

int main(int argc, char **argv)
{
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK };
	char line[256], addr_s[64];
	const char *msg;
	unsigned long id, port;
	uint16_t family = 0, port16;
	struct in_addr addr;
	struct nlattr *nest;
	struct req r;
	int one = 1, err, lineno = 0;
	uint32_t id32;

	if (argc == 2 && (!strcmp(argv[1], "-V") || !strcmp(argv[1], "--version"))) {
		printf("mcastbed-peers %s\n", MCAST_VERSION);
		return 0;
	}
	if (argc > 1) {
		fprintf(stderr, "usage: %s < LINES   (each: ID IPV4ADDR PORT)\n"
			"       %s --version\n", argv[0], argv[0]);
		return 2;
	}
	fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_GENERIC);
	if (fd < 0 || bind(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0) {
		perror("mcastbed-peers: netlink socket");
		return 1;
	}
	setsockopt(fd, SOL_NETLINK, NETLINK_EXT_ACK, &one, sizeof(one));
	setsockopt(fd, SOL_NETLINK, NETLINK_CAP_ACK, &one, sizeof(one));

	init(&r, GENL_ID_CTRL, CTRL_CMD_GETFAMILY, 1);
	put(&r, CTRL_ATTR_FAMILY_NAME, MCAST_GENL_NAME, sizeof(MCAST_GENL_NAME));
	err = talk(&r, family_cb, &family, &msg);
	if (err || !family) {
		fprintf(stderr, "mcastbed-peers: no \"%s\" generic netlink family (%s): "
			"is mcast.ko loaded?\n", MCAST_GENL_NAME, strerror(err ? -err : ENOENT));
		return 1;
	}

	while (fgets(line, sizeof(line), stdin)) {
		lineno++;
		if (sscanf(line, "port %lu", &port) == 1) {
			if (!port || port > 65535) {
				fprintf(stderr, "mcastbed-peers: line %d: bad port\n", lineno);
				return 1;
			}
			if (set_port(family, port))
				return 1;
			continue;
		}
		if (sscanf(line, "%lu %63s %lu", &id, addr_s, &port) != 3 ||
		    id >= MCAST_MAX_NODES || !port || port > 65535 ||
		    inet_pton(AF_INET, addr_s, &addr) != 1) {
			fprintf(stderr, "mcastbed-peers: line %d: expected ID IPV4ADDR PORT\n",
				lineno);
			return 1;
		}
		init(&r, family, MCAST_CMD_PEER_NEW, MCAST_GENL_VERSION);
		nest = put(&r, MCAST_A_PEER | NLA_F_NESTED, NULL, 0);
		id32 = id;
		port16 = port;
		put(&r, MCAST_PEER_A_ID, &id32, sizeof(id32));
		put(&r, MCAST_PEER_A_IPV4, &addr.s_addr, sizeof(addr.s_addr));
		put(&r, MCAST_PEER_A_PORT, &port16, sizeof(port16));
		nest->nla_len = (char *)&r + r.n.nlmsg_len - (char *)nest;
		err = talk(&r, NULL, NULL, &msg);
		if (err) {
			fprintf(stderr, "mcastbed-peers: peer %lu addr %s port %lu: %s%s%s\n",
				id, addr_s, port, strerror(-err), msg ? ": " : "", msg ? msg : "");
			return 1;
		}
	}
	close(fd);
	return 0;
}
