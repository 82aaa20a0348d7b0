// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * mcast_probe: a small test driver for mcast.ko, for the guest tests
 * (tests/vm/guest/NAME.t).  Raw generic netlink (no libnl) and the
 * /dev/mcast ioctls.
 *
 *   mcast_probe family                      family id and "events" group
 *   mcast_probe node-set DIMS COORD [bi|LINKS] [port=P] [rto=MS] [retries=N]
 *                        [algo=N] [r=N]     (N: enum mcast_algorithm)
 *                                           DIMS k0,k1.. COORD c0,c1..
 *                                           (index order: [i] is sigma_i)
 *   mcast_probe node-get
 *   mcast_probe peer-new ID|c:COORD IPV4|IPV6 PORT
 *   mcast_probe peer-del ID|c:COORD
 *   mcast_probe peer-get ID|c:COORD
 *   mcast_probe peer-dump
 *   mcast_probe group-new ID
 *   mcast_probe group-set ID MEMBERS [RCHAIN [HCYCLE]]
 *                      lists are n1,n2,.. or "-" (empty); RCHAIN/HCYCLE
 *                      default to "auto" (computed with the planning
 *                      core), HCYCLE "none" leaves it out
 *   mcast_probe group-get ID | group-dump | group-del ID
 *   mcast_probe stats [GROUP] | stats-dump
 *   mcast_probe raw CMD [hex-bytes]         a request with any payload
 *   mcast_probe info
 *   mcast_probe nobody CMD...               any CMD as uid/gid 65534
 *   mcast_probe exec PROG ARGS...           runs PROG (after nobody: as
 *                                           uid/gid 65534)
 *   mcast_probe userns CMD...               any CMD as root of a new user
 *                                           namespace (with a new netns):
 *                                           root there, nothing outside;
 *                                           exits 77 if the kernel refuses
 *   mcast_probe ioctl-errors GROUP          scenario checks, one line each:
 *   mcast_probe deliver GROUP NFILES        "PASS desc" / "FAIL desc: why"
 *   mcast_probe overflow GROUP
 *   mcast_probe lossless GROUP STALL_MS     lossless members, cut-off
 *   mcast_probe nodes
 *   mcast_probe events GROUP
 *   mcast_probe uring GROUP
 *   mcast_probe stress GROUP SECS
 *   mcast_probe hold GROUP                  open, join, queue, leave a
 *                                           private netns with files open
 *   mcast_probe watch MS                    print PEER_DOWN/ERROR/SEND_FAILED events
 *   mcast_probe notify-listen PATH MS       print sd_notify datagrams
 *   mcast_probe rx GROUP IDLE_MS [EXPECT [START]]
 *                                           receive and check test messages
 *                                           (from when file START exists)
 *   mcast_probe tx g:GROUP|n:LIST SIZES [wait[=MS]] [loop] [separate]
 *                  [offload|no-offload] [algo=NAME[:R]]
 *                  [count=N] [gap=MS]       send test messages
 *   mcast_probe usend g:GROUP|n:LIST SIZE [wait[=MS]] [peek=NS,..]
 *                                           one send over io_uring; what
 *                                           the peeked nodes hold then
 *   mcast_probe burst g:GROUP|n:LIST SIZE COUNT [nonblock] [retry=MS|poll]
 *                                           sends as fast as accepted
 *
 * A netlink command prints its reply and exits 0, or prints
 * "error ENAME: extack message" and exits 1.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/syscall.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>
#include <linux/io_uring.h>
#include <uapi/linux/mcast.h>

#include "chain.h"

typedef uint8_t u8;

/* ------------------------------------------------------------ output */

static int failures;

static void check(bool ok, const char *desc, const char *fmt, ...)
{
	va_list ap;

	if (ok) {
		printf("PASS %s\n", desc);
	} else {
		failures++;
		printf("FAIL %s: ", desc);
		va_start(ap, fmt);
		vprintf(fmt, ap);
		va_end(ap);
		printf("\n");
	}
	fflush(stdout);
}

static const char *ename(int e)
{
	static char buf[16];

	switch (e) {
	case 0: return "OK";
	case EINVAL: return "EINVAL";
	case ENOENT: return "ENOENT";
	case EEXIST: return "EEXIST";
	case EBUSY: return "EBUSY";
	case ERANGE: return "ERANGE";
	case E2BIG: return "E2BIG";
	case EPERM: return "EPERM";
	case ENOTTY: return "ENOTTY";
	case EALREADY: return "EALREADY";
	case ENOTCONN: return "ENOTCONN";
	case EAGAIN: return "EAGAIN";
	case EMSGSIZE: return "EMSGSIZE";
	case EFAULT: return "EFAULT";
	case ENOMEM: return "ENOMEM";
	case EOPNOTSUPP: return "EOPNOTSUPP";
	case ENODEV: return "ENODEV";
	case EHOSTUNREACH: return "EHOSTUNREACH";
	case ENOBUFS: return "ENOBUFS";
	case EINTR: return "EINTR";
	}
	snprintf(buf, sizeof(buf), "E%d", e);
	return buf;
}

static void die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fprintf(stderr, "mcast_probe: ");
	vfprintf(stderr, fmt, ap);
	fprintf(stderr, "\n");
	va_end(ap);
	exit(2);
}

/* ------------------------------------------------------------ netlink */

struct nl {
	int fd;
	uint16_t family;
	uint32_t events_grp;
	uint32_t seq;
	char err_msg[256];
	int err;
};

struct msgbuf {
	union {
		struct nlmsghdr nlh;
		char buf[65536];
	};
	uint32_t len;
};

static void msg_init(struct msgbuf *m, uint16_t type, uint16_t flags, uint8_t cmd)
{
	struct genlmsghdr *g;

	memset(m, 0, sizeof(struct nlmsghdr) + GENL_HDRLEN);
	m->nlh.nlmsg_type = type;
	m->nlh.nlmsg_flags = NLM_F_REQUEST | flags;
	g = (struct genlmsghdr *)(m->buf + NLMSG_HDRLEN);
	g->cmd = cmd;
	g->version = 1;
	m->len = NLMSG_HDRLEN + GENL_HDRLEN;
}

static struct nlattr *put_attr(struct msgbuf *m, uint16_t type, const void *data,
			       size_t len)
{
	struct nlattr *a = (struct nlattr *)(m->buf + m->len);

	if (m->len + NLA_ALIGN(NLA_HDRLEN + len) > sizeof(m->buf))
		die("message too long");
	a->nla_type = type;
	a->nla_len = NLA_HDRLEN + len;
	if (len)
		memcpy((char *)a + NLA_HDRLEN, data, len);
	memset((char *)a + NLA_HDRLEN + len, 0, NLA_ALIGN(len) - len);
	m->len += NLA_ALIGN(NLA_HDRLEN + len);
	return a;
}

static void put_u32(struct msgbuf *m, uint16_t type, uint32_t v)
{
	put_attr(m, type, &v, 4);
}

static void put_u16(struct msgbuf *m, uint16_t type, uint16_t v)
{
	put_attr(m, type, &v, 2);
}

static void put_u8(struct msgbuf *m, uint16_t type, uint8_t v)
{
	put_attr(m, type, &v, 1);
}

static struct nlattr *nest_start(struct msgbuf *m, uint16_t type)
{
	return put_attr(m, type | NLA_F_NESTED, NULL, 0);
}

static void nest_end(struct msgbuf *m, struct nlattr *a)
{
	a->nla_len = (char *)m->buf + m->len - (char *)a;
}

#define nla_for_each(a, start, len)					\
	for (a = (struct nlattr *)(start);				\
	     (char *)a + NLA_HDRLEN <= (char *)(start) + (len) &&	\
	     a->nla_len >= NLA_HDRLEN &&				\
	     (char *)a + a->nla_len <= (char *)(start) + (len);		\
	     a = (struct nlattr *)((char *)a + NLA_ALIGN(a->nla_len)))

static void *nla_data(const struct nlattr *a)
{
	return (char *)a + NLA_HDRLEN;
}

static int nla_dlen(const struct nlattr *a)
{
	return a->nla_len - NLA_HDRLEN;
}

static void parse_attrs(const void *start, int len, const struct nlattr **tb,
			int max)
{
	const struct nlattr *a;

	memset(tb, 0, sizeof(*tb) * (max + 1));
	nla_for_each(a, start, len) {
		int t = a->nla_type & NLA_TYPE_MASK;

		if (t <= max)
			tb[t] = a;
	}
}

static uint32_t get_u32(const struct nlattr *a)
{
	uint32_t v;

	memcpy(&v, nla_data(a), 4);
	return v;
}

static uint64_t get_u64(const struct nlattr *a)
{
	uint64_t v;

	memcpy(&v, nla_data(a), 8);
	return v;
}

/* The node's data path counters, "-" for one the module does not have. */
static void print_netstats(const struct nlattr *const *t)
{
	static const struct {
		int attr;
		const char *key;
	} keys[] = {
		{ MCAST_STATS_A_FWD_MSGS, "fwd_msgs" },
		{ MCAST_STATS_A_TX_PACKETS, "tx_packets" },
		{ MCAST_STATS_A_RX_PACKETS, "rx_packets" },
		{ MCAST_STATS_A_RETRANS, "retrans" },
		{ MCAST_STATS_A_FAST_RETRANS, "fast_retrans" },
		{ MCAST_STATS_A_DUPS, "dups" },
		{ MCAST_STATS_A_PEER_FAILS, "peer_fails" },
		{ MCAST_STATS_A_UNREACHED, "unreached" },
		{ MCAST_STATS_A_CWND, "cwnd" },
		{ MCAST_STATS_A_UNACKED, "unacked" },
		{ MCAST_STATS_A_RX_BAD_SRC, "rx_bad_src" },
		{ MCAST_STATS_A_RX_MALFORMED, "rx_malformed" },
		{ MCAST_STATS_A_RX_MEM, "rx_mem" },
		{ MCAST_STATS_A_REWINDS, "rewinds" },
		{ MCAST_STATS_A_TX_EXPIRED, "tx_expired" },
		{ MCAST_STATS_A_BUSY_SENT, "busy_sent" },
		{ MCAST_STATS_A_JOBS, "jobs" },
		{ MCAST_STATS_A_DONE_JOBS, "done_jobs" },
		{ MCAST_STATS_A_TRANSFERS, "transfers" },
		{ MCAST_STATS_A_QUEUED, "queued" },
		{ MCAST_STATS_A_HELD, "held" },
		{ MCAST_STATS_A_MSG_MEM, "msg_mem" },
		{ MCAST_STATS_A_STREAMS, "streams" },
		{ MCAST_STATS_A_FLOORS, "floors" },
		{ MCAST_STATS_A_LATE, "late" },
		{ MCAST_STATS_A_RX_BAD_AUTH, "rx_bad_auth" },
		{ MCAST_STATS_A_TIMER_NS, "timer_ns" },
		{ MCAST_STATS_A_BLOCKED, "blocked" },
		{ MCAST_STATS_A_CUTOFFS, "cutoffs" },
		{ MCAST_STATS_A_RX_STALE, "rx_stale" },
		{ MCAST_STATS_A_WORMS, "worms" },
		{ MCAST_STATS_A_WORM_DESTS, "worm_dests" },
		{ MCAST_STATS_A_WORM_SPLITS, "worm_splits" },
		{ MCAST_STATS_A_OFFLOAD_FALLBACKS, "offload_fallbacks" },
		{ MCAST_STATS_A_RX_WORMS, "rx_worms" },
		{ MCAST_STATS_A_RB_SENT, "rb_sent" },
		{ MCAST_STATS_A_RB_ASSEMBLED, "rb_assembled" },
		{ MCAST_STATS_A_RB_FALLBACKS, "rb_fallbacks" },
		{ MCAST_STATS_A_WORM_RESENDS, "worm_resends" },
		{ MCAST_STATS_A_DONE_PROBES, "done_probes" },
		{ MCAST_STATS_A_RX_YOUNG, "rx_young" },
		{ MCAST_STATS_A_ACKS_OLD, "acks_old" },
		{ MCAST_STATS_A_TCP_CONNS, "tcp_conns" },
		{ MCAST_STATS_A_TCP_EVICTED, "tcp_evicted" },
		{ MCAST_STATS_A_TCP_UNAUTHED, "tcp_unauthed" },
		{ MCAST_STATS_A_TCP_IDLE, "tcp_idle" },
		{ MCAST_STATS_A_TCP_BAD_FRAMES, "tcp_bad_frames" },
	};
	size_t i;

	printf("netstats");
	for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		if (t[keys[i].attr])
			printf(" %s=%llu", keys[i].key,
			       (unsigned long long)get_u64(t[keys[i].attr]));
		else
			printf(" %s=-", keys[i].key);
	}
	printf("\n");
}

typedef void (*msg_cb)(const struct genlmsghdr *g, const void *attrs, int len,
		       void *arg);

static void nl_open(struct nl *nl)
{
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK };
	int one = 1;

	nl->fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_GENERIC);
	if (nl->fd < 0)
		die("socket: %s", strerror(errno));
	setsockopt(nl->fd, SOL_NETLINK, NETLINK_EXT_ACK, &one, sizeof(one));
	setsockopt(nl->fd, SOL_NETLINK, NETLINK_CAP_ACK, &one, sizeof(one));
	if (bind(nl->fd, (struct sockaddr *)&sa, sizeof(sa)))
		die("bind: %s", strerror(errno));
}

/* Handles one error message: returns 0 for an ack, -errno otherwise. */
static int nl_error(struct nl *nl, const struct nlmsghdr *h)
{
	const struct nlmsgerr *e = NLMSG_DATA(h);
	const struct nlattr *tb[NLMSGERR_ATTR_MAX + 1];
	size_t off;

	nl->err_msg[0] = 0;
	if (h->nlmsg_flags & NLM_F_ACK_TLVS) {
		off = NLMSG_HDRLEN + sizeof(*e);
		if (!(h->nlmsg_flags & NLM_F_CAPPED))
			off += e->msg.nlmsg_len - NLMSG_HDRLEN;
		if (off < h->nlmsg_len) {
			parse_attrs((const char *)h + off, h->nlmsg_len - off, tb,
				    NLMSGERR_ATTR_MAX);
			if (tb[NLMSGERR_ATTR_MSG])
				snprintf(nl->err_msg, sizeof(nl->err_msg), "%s",
					 (char *)nla_data(tb[NLMSGERR_ATTR_MSG]));
		}
	}
	return e->error;
}

/* Sends @m and reads the answer: 0 or -errno (nl->err_msg has extack). */
static int nl_talk(struct nl *nl, struct msgbuf *m, msg_cb cb, void *arg)
{
	static char rbuf[1 << 17];
	bool dump = m->nlh.nlmsg_flags & NLM_F_DUMP;
	ssize_t n;

	m->nlh.nlmsg_len = m->len;
	m->nlh.nlmsg_seq = ++nl->seq;
	m->nlh.nlmsg_flags |= NLM_F_ACK;
	if (send(nl->fd, m->buf, m->len, 0) != (ssize_t)m->len)
		die("send: %s", strerror(errno));
	for (;;) {
		struct nlmsghdr *h;

		n = recv(nl->fd, rbuf, sizeof(rbuf), 0);
		/* Lost notifications under load are not this request's reply. */
		if (n < 0 && (errno == ENOBUFS || errno == EINTR))
			continue;
		if (n < 0)
			die("recv: %s", strerror(errno));
		for (h = (struct nlmsghdr *)rbuf; NLMSG_OK(h, n);
		     h = NLMSG_NEXT(h, n)) {
			if (h->nlmsg_seq != nl->seq)
				continue;
			if (h->nlmsg_type == NLMSG_ERROR) {
				nl->err = nl_error(nl, h);
				return nl->err;
			}
			if (h->nlmsg_type == NLMSG_DONE) {
				nl->err = 0;
				return 0;
			}
			if (cb) {
				const struct genlmsghdr *g = NLMSG_DATA(h);

				cb(g, (const char *)g + GENL_HDRLEN,
				   h->nlmsg_len - NLMSG_HDRLEN - GENL_HDRLEN, arg);
			}
		}
		(void)dump;
	}
}

struct family_info {
	uint16_t id;
	uint32_t events;
};

static void family_cb(const struct genlmsghdr *g, const void *attrs, int len,
		      void *arg)
{
	struct family_info *fi = arg;
	const struct nlattr *tb[CTRL_ATTR_MAX + 1], *grp, *a;

	(void)g;
	parse_attrs(attrs, len, tb, CTRL_ATTR_MAX);
	if (tb[CTRL_ATTR_FAMILY_ID])
		memcpy(&fi->id, nla_data(tb[CTRL_ATTR_FAMILY_ID]), 2);
	if (!tb[CTRL_ATTR_MCAST_GROUPS])
		return;
	nla_for_each(grp, nla_data(tb[CTRL_ATTR_MCAST_GROUPS]),
		     nla_dlen(tb[CTRL_ATTR_MCAST_GROUPS])) {
		const struct nlattr *gt[CTRL_ATTR_MCAST_GRP_MAX + 1];

		parse_attrs(nla_data(grp), nla_dlen(grp), gt,
			    CTRL_ATTR_MCAST_GRP_MAX);
		a = gt[CTRL_ATTR_MCAST_GRP_NAME];
		if (a && gt[CTRL_ATTR_MCAST_GRP_ID] &&
		    !strcmp(nla_data(a), MCAST_GENL_MCGRP_EVENTS))
			fi->events = get_u32(gt[CTRL_ATTR_MCAST_GRP_ID]);
	}
}

static int nl_resolve(struct nl *nl)
{
	struct family_info fi = { 0 };
	static struct msgbuf m;
	int err;

	msg_init(&m, GENL_ID_CTRL, 0, CTRL_CMD_GETFAMILY);
	put_attr(&m, CTRL_ATTR_FAMILY_NAME, MCAST_GENL_NAME,
		 strlen(MCAST_GENL_NAME) + 1);
	err = nl_talk(nl, &m, family_cb, &fi);
	if (err)
		return err;
	nl->family = fi.id;
	nl->events_grp = fi.events;
	return fi.id && fi.events ? 0 : -ENOENT;
}

static void nl_setup(struct nl *nl)
{
	int err;

	memset(nl, 0, sizeof(*nl));
	nl_open(nl);
	err = nl_resolve(nl);
	if (err)
		die("cannot resolve family %s: %s", MCAST_GENL_NAME,
		    ename(-err));
}

static void nl_subscribe(struct nl *nl)
{
	int grp = nl->events_grp;

	if (setsockopt(nl->fd, SOL_NETLINK, NETLINK_ADD_MEMBERSHIP, &grp,
		       sizeof(grp)))
		die("NETLINK_ADD_MEMBERSHIP: %s", strerror(errno));
}

/* Reads pending notifications: their commands into @cmds, returns count. */
static int nl_events(struct nl *nl, uint8_t *cmds, int max, int timeout_ms,
		     uint32_t *drops)
{
	static char rbuf[1 << 17];
	struct pollfd p = { .fd = nl->fd, .events = POLLIN };
	int n = 0;

	while (poll(&p, 1, timeout_ms) > 0) {
		ssize_t len = recv(nl->fd, rbuf, sizeof(rbuf), MSG_DONTWAIT);
		struct nlmsghdr *h;

		if (len <= 0)
			break;
		for (h = (struct nlmsghdr *)rbuf; NLMSG_OK(h, len);
		     h = NLMSG_NEXT(h, len)) {
			const struct genlmsghdr *g = NLMSG_DATA(h);
			const struct nlattr *tb[MCAST_A_MAX + 1];
			const struct nlattr *et[MCAST_EVENT_A_MAX + 1];

			if (h->nlmsg_type != nl->family)
				continue;
			if (n < max)
				cmds[n] = g->cmd;
			n++;
			parse_attrs((const char *)g + GENL_HDRLEN,
				    h->nlmsg_len - NLMSG_HDRLEN - GENL_HDRLEN,
				    tb, MCAST_A_MAX);
			if (g->cmd == MCAST_CMD_OVERFLOW && drops &&
			    tb[MCAST_A_EVENT]) {
				parse_attrs(nla_data(tb[MCAST_A_EVENT]),
					    nla_dlen(tb[MCAST_A_EVENT]), et,
					    MCAST_EVENT_A_MAX);
				if (et[MCAST_EVENT_A_DROPS])
					*drops = get_u32(et[MCAST_EVENT_A_DROPS]);
			}
		}
		timeout_ms = 200;
	}
	return n;
}

/* ------------------------------------------------------------ printing */

static void print_u16s(const char *name, const struct nlattr *a)
{
	const uint16_t *v = nla_data(a);
	int i;

	printf(" %s=", name);
	for (i = 0; i < nla_dlen(a) / 2; i++)
		printf("%s%u", i ? "," : "", v[i]);
}

static void print_u32s(const char *name, const struct nlattr *a)
{
	int i, n = nla_dlen(a) / 4;
	uint32_t v;

	printf(" %s=", name);
	if (!n)
		printf("-");
	for (i = 0; i < n; i++) {
		memcpy(&v, (char *)nla_data(a) + 4 * i, 4);
		printf("%s%u", i ? "," : "", v);
	}
}

static void print_cb(const struct genlmsghdr *g, const void *attrs, int len,
		     void *arg)
{
	/* t: room for the largest nested attribute set printed below */
	const struct nlattr *tb[MCAST_A_MAX + 1], *t[64];
	char addr[INET6_ADDRSTRLEN];

	_Static_assert(MCAST_STATS_A_MAX < 64 && MCAST_NODE_A_MAX < 64 &&
		       MCAST_PEER_A_MAX < 64 && MCAST_GROUP_A_MAX < 64,
		       "t[] is too small");

	(void)arg;
	(void)g;
	parse_attrs(attrs, len, tb, MCAST_A_MAX);
	if (tb[MCAST_A_NODE]) {
		parse_attrs(nla_data(tb[MCAST_A_NODE]), nla_dlen(tb[MCAST_A_NODE]),
			    t, MCAST_NODE_A_MAX);
		printf("node kind=%u", t[MCAST_NODE_A_KIND] ?
		       *(u8 *)nla_data(t[MCAST_NODE_A_KIND]) : 255);
		if (t[MCAST_NODE_A_LINKS])
			printf(" links=%u", *(u8 *)nla_data(t[MCAST_NODE_A_LINKS]));
		if (t[MCAST_NODE_A_DIMS])
			print_u16s("dims", t[MCAST_NODE_A_DIMS]);
		if (t[MCAST_NODE_A_COORD])
			print_u16s("coord", t[MCAST_NODE_A_COORD]);
		if (t[MCAST_NODE_A_ID])
			printf(" id=%u", get_u32(t[MCAST_NODE_A_ID]));
		printf("\n");
	}
	if (tb[MCAST_A_PEER]) {
		parse_attrs(nla_data(tb[MCAST_A_PEER]), nla_dlen(tb[MCAST_A_PEER]),
			    t, MCAST_PEER_A_MAX);
		printf("peer id=%u", t[MCAST_PEER_A_ID] ?
		       get_u32(t[MCAST_PEER_A_ID]) : ~0u);
		if (t[MCAST_PEER_A_IPV4])
			printf(" addr=%s", inet_ntop(AF_INET,
			       nla_data(t[MCAST_PEER_A_IPV4]), addr, sizeof(addr)));
		if (t[MCAST_PEER_A_IPV6])
			printf(" addr=%s", inet_ntop(AF_INET6,
			       nla_data(t[MCAST_PEER_A_IPV6]), addr, sizeof(addr)));
		if (t[MCAST_PEER_A_PORT])
			printf(" port=%u", *(uint16_t *)nla_data(t[MCAST_PEER_A_PORT]));
		printf("\n");
	}
	if (tb[MCAST_A_GROUP]) {
		parse_attrs(nla_data(tb[MCAST_A_GROUP]), nla_dlen(tb[MCAST_A_GROUP]),
			    t, MCAST_GROUP_A_MAX);
		printf("group id=%u", t[MCAST_GROUP_A_ID] ?
		       get_u32(t[MCAST_GROUP_A_ID]) : 0);
		if (t[MCAST_GROUP_A_EPOCH])
			printf(" epoch=%u", get_u32(t[MCAST_GROUP_A_EPOCH]));
		if (t[MCAST_GROUP_A_LOCAL])
			printf(" local=%u", get_u32(t[MCAST_GROUP_A_LOCAL]));
		if (t[MCAST_GROUP_A_MEMBERS])
			print_u32s("members", t[MCAST_GROUP_A_MEMBERS]);
		if (t[MCAST_GROUP_A_RCHAIN])
			print_u32s("rchain", t[MCAST_GROUP_A_RCHAIN]);
		if (t[MCAST_GROUP_A_HCYCLE])
			print_u32s("hcycle", t[MCAST_GROUP_A_HCYCLE]);
		printf("\n");
	}
	if (tb[MCAST_A_STATS]) {
		parse_attrs(nla_data(tb[MCAST_A_STATS]), nla_dlen(tb[MCAST_A_STATS]),
			    t, MCAST_STATS_A_MAX);
		printf("stats");
		if (t[MCAST_STATS_A_GROUP])
			printf(" group=%u", get_u32(t[MCAST_STATS_A_GROUP]));
		printf(" tx_msgs=%llu tx_bytes=%llu rx_msgs=%llu rx_bytes=%llu rx_drops=%llu files=%u\n",
		       (unsigned long long)get_u64(t[MCAST_STATS_A_TX_MSGS]),
		       (unsigned long long)get_u64(t[MCAST_STATS_A_TX_BYTES]),
		       (unsigned long long)get_u64(t[MCAST_STATS_A_RX_MSGS]),
		       (unsigned long long)get_u64(t[MCAST_STATS_A_RX_BYTES]),
		       (unsigned long long)get_u64(t[MCAST_STATS_A_RX_DROPS]),
		       get_u32(t[MCAST_STATS_A_FILES]));
		if (t[MCAST_STATS_A_FWD_MSGS])
			print_netstats(t);
	}
}

/* ------------------------------------------------------------ parsing */

static int parse_list(const char *s, uint32_t *v, int max)
{
	char *end;
	int n = 0;

	if (!strcmp(s, "-"))
		return 0;
	for (;;) {
		if (n == max)
			die("list too long: %s", s);
		v[n++] = strtoul(s, &end, 0);
		if (end == s)
			die("bad list: %s", s);
		if (!*end)
			return n;
		if (*end != ',' && *end != 'x')
			die("bad list: %s", s);
		s = end + 1;
	}
}

static int parse_u16s(const char *s, uint16_t *v, int max)
{
	uint32_t tmp[64];
	int i, n = parse_list(s, tmp, max < 64 ? max : 64);

	for (i = 0; i < n; i++)
		v[i] = tmp[i];
	return n;
}

/* The node as the kernel reports it (for computing chains). */
struct node_info {
	struct mc_torus t;
	uint32_t id;
	bool ok;
};

static void node_cb(const struct genlmsghdr *g, const void *attrs, int len,
		    void *arg)
{
	const struct nlattr *tb[MCAST_A_MAX + 1], *t[MCAST_NODE_A_MAX + 1];
	struct node_info *ni = arg;
	uint16_t dims[MCAST_MAX_DIMS];
	u8 links = 0;

	(void)g;
	parse_attrs(attrs, len, tb, MCAST_A_MAX);
	if (!tb[MCAST_A_NODE])
		return;
	parse_attrs(nla_data(tb[MCAST_A_NODE]), nla_dlen(tb[MCAST_A_NODE]), t,
		    MCAST_NODE_A_MAX);
	if (!t[MCAST_NODE_A_DIMS])
		return;
	memcpy(dims, nla_data(t[MCAST_NODE_A_DIMS]), nla_dlen(t[MCAST_NODE_A_DIMS]));
	if (t[MCAST_NODE_A_LINKS])
		links = *(u8 *)nla_data(t[MCAST_NODE_A_LINKS]);
	ni->ok = !mc_torus_init(&ni->t, nla_dlen(t[MCAST_NODE_A_DIMS]) / 2, dims,
				links, NULL);
	ni->id = t[MCAST_NODE_A_ID] ? get_u32(t[MCAST_NODE_A_ID]) : ~0u;
}

/* The node's configuration as NODE_GET gives it. */
struct node_raw {
	uint16_t dims[MCAST_MAX_DIMS], coord[MCAST_MAX_DIMS];
	int ndims;
	uint8_t links;
	uint32_t id;
};

static void node_raw_cb(const struct genlmsghdr *g, const void *attrs, int len,
			void *arg)
{
	const struct nlattr *tb[MCAST_A_MAX + 1], *t[MCAST_NODE_A_MAX + 1];
	struct node_raw *nr = arg;

	(void)g;
	parse_attrs(attrs, len, tb, MCAST_A_MAX);
	if (!tb[MCAST_A_NODE])
		return;
	parse_attrs(nla_data(tb[MCAST_A_NODE]), nla_dlen(tb[MCAST_A_NODE]), t,
		    MCAST_NODE_A_MAX);
	if (!t[MCAST_NODE_A_DIMS] || !t[MCAST_NODE_A_COORD] ||
	    !t[MCAST_NODE_A_ID] || nla_dlen(t[MCAST_NODE_A_DIMS]) > 16 ||
	    nla_dlen(t[MCAST_NODE_A_COORD]) != nla_dlen(t[MCAST_NODE_A_DIMS]))
		return;
	nr->ndims = nla_dlen(t[MCAST_NODE_A_DIMS]) / 2;
	memcpy(nr->dims, nla_data(t[MCAST_NODE_A_DIMS]), nr->ndims * 2);
	memcpy(nr->coord, nla_data(t[MCAST_NODE_A_COORD]), nr->ndims * 2);
	nr->links = t[MCAST_NODE_A_LINKS] ?
		    *(uint8_t *)nla_data(t[MCAST_NODE_A_LINKS]) : 0;
	nr->id = get_u32(t[MCAST_NODE_A_ID]);
}

static int report(struct nl *nl, int err)
{
	if (!err)
		return 0;
	printf("error %s: %s\n", ename(-err), nl->err_msg);
	return 1;
}

static void put_peer_id(struct msgbuf *m, const char *s)
{
	uint16_t c[MCAST_MAX_DIMS];
	int n;

	if (!strncmp(s, "c:", 2)) {
		n = parse_u16s(s + 2, c, MCAST_MAX_DIMS + 1);
		put_attr(m, MCAST_PEER_A_COORD, c, n * 2);
	} else {
		put_u32(m, MCAST_PEER_A_ID, strtoul(s, NULL, 0));
	}
}

static struct msgbuf req;

static int cmd_netlink(struct nl *nl, int argc, char **argv)
{
	const char *c = argv[0];
	struct nlattr *nest;
	int err;

	if (!strcmp(c, "family")) {
		printf("family %u events %u\n", nl->family, nl->events_grp);
		return 0;
	}
	if (!strcmp(c, "node-get") || !strcmp(c, "node-dump")) {
		msg_init(&req, nl->family, c[5] == 'd' ? NLM_F_DUMP : 0,
			 MCAST_CMD_NODE_GET);
		return report(nl, nl_talk(nl, &req, print_cb, NULL));
	}
	if (!strcmp(c, "node-set") && argc >= 3) {
		static uint32_t ranks[64];
		uint16_t v[MCAST_MAX_DIMS + 2];
		uint8_t kind = MCAST_TOPO_TORUS;
		int n;

		/* ranks=R,R..: a switched cluster's; kind=K: say another kind */
		for (n = 3; n < argc; n++)
			if (!strncmp(argv[n], "ranks=", 6))
				kind = MCAST_TOPO_SWITCH;
		for (n = 3; n < argc; n++)
			if (!strncmp(argv[n], "kind=", 5))
				kind = strtoul(argv[n] + 5, NULL, 0);
		msg_init(&req, nl->family, 0, MCAST_CMD_NODE_SET);
		nest = nest_start(&req, MCAST_A_NODE);
		put_u8(&req, MCAST_NODE_A_KIND, kind);
		for (n = 3; n < argc; n++) {
			if (!strncmp(argv[n], "kind=", 5))
				continue;
			if (!strncmp(argv[n], "ranks=", 6))
				put_attr(&req, MCAST_NODE_A_RANKS, ranks,
					 4 * parse_list(argv[n] + 6, ranks, 64));
			else if (!strncmp(argv[n], "port=", 5))
				put_u16(&req, MCAST_NODE_A_PORT,
					strtoul(argv[n] + 5, NULL, 0));
			else if (!strncmp(argv[n], "rto=", 4))
				put_u32(&req, MCAST_NODE_A_RTO_MS,
					strtoul(argv[n] + 4, NULL, 0));
			else if (!strncmp(argv[n], "retries=", 8))
				put_u32(&req, MCAST_NODE_A_RETRIES,
					strtoul(argv[n] + 8, NULL, 0));
			else if (!strncmp(argv[n], "algo=", 5))
				put_u8(&req, MCAST_NODE_A_ALGORITHM,
				       strtoul(argv[n] + 5, NULL, 0));
			else if (!strncmp(argv[n], "r=", 2))
				put_u32(&req, MCAST_NODE_A_ALGO_R,
					strtoul(argv[n] + 2, NULL, 0));
			else
				put_u8(&req, MCAST_NODE_A_LINKS,
				       !strcmp(argv[n], "bi") ? MCAST_LINKS_BI :
				       strtoul(argv[n], NULL, 0));
		}
		n = parse_u16s(argv[1], v, MCAST_MAX_DIMS + 2);
		put_attr(&req, MCAST_NODE_A_DIMS, v, n * 2);
		n = parse_u16s(argv[2], v, MCAST_MAX_DIMS + 2);
		put_attr(&req, MCAST_NODE_A_COORD, v, n * 2);
		nest_end(&req, nest);
		return report(nl, nl_talk(nl, &req, NULL, NULL));
	}
	if (!strcmp(c, "peer-new") && argc >= 4) {
		struct in6_addr a6;
		struct in_addr a4;

		msg_init(&req, nl->family, 0, MCAST_CMD_PEER_NEW);
		nest = nest_start(&req, MCAST_A_PEER);
		put_peer_id(&req, argv[1]);
		if (inet_pton(AF_INET, argv[2], &a4) == 1)
			put_attr(&req, MCAST_PEER_A_IPV4, &a4, 4);
		else if (inet_pton(AF_INET6, argv[2], &a6) == 1)
			put_attr(&req, MCAST_PEER_A_IPV6, &a6, 16);
		else if (strcmp(argv[2], "none"))
			die("bad address %s", argv[2]);
		put_u16(&req, MCAST_PEER_A_PORT, strtoul(argv[3], NULL, 0));
		nest_end(&req, nest);
		return report(nl, nl_talk(nl, &req, NULL, NULL));
	}
	if ((!strcmp(c, "peer-del") || !strcmp(c, "peer-get")) && argc >= 2) {
		msg_init(&req, nl->family, 0, c[5] == 'd' ? MCAST_CMD_PEER_DEL :
			 MCAST_CMD_PEER_GET);
		nest = nest_start(&req, MCAST_A_PEER);
		put_peer_id(&req, argv[1]);
		nest_end(&req, nest);
		return report(nl, nl_talk(nl, &req, print_cb, NULL));
	}
	if (!strcmp(c, "peer-dump")) {
		msg_init(&req, nl->family, NLM_F_DUMP, MCAST_CMD_PEER_GET);
		return report(nl, nl_talk(nl, &req, print_cb, NULL));
	}
	if ((!strcmp(c, "group-new") || !strcmp(c, "group-del") ||
	     !strcmp(c, "group-get")) && argc >= 2) {
		msg_init(&req, nl->family, 0, c[6] == 'n' ? MCAST_CMD_GROUP_NEW :
			 c[6] == 'd' ? MCAST_CMD_GROUP_DEL : MCAST_CMD_GROUP_GET);
		nest = nest_start(&req, MCAST_A_GROUP);
		put_u32(&req, MCAST_GROUP_A_ID, strtoul(argv[1], NULL, 0));
		nest_end(&req, nest);
		return report(nl, nl_talk(nl, &req, print_cb, NULL));
	}
	if (!strcmp(c, "group-dump")) {
		msg_init(&req, nl->family, NLM_F_DUMP, MCAST_CMD_GROUP_GET);
		return report(nl, nl_talk(nl, &req, print_cb, NULL));
	}
	if (!strcmp(c, "group-set") && argc >= 3) {
		static uint32_t mem[16384], rc[16384], hc[16384];
		struct node_info ni = { 0 };
		const char *rs = argc >= 4 ? argv[3] : "auto";
		const char *hs = argc >= 5 ? argv[4] : "auto";
		int n, nr, nh = -1;

		msg_init(&req, nl->family, 0, MCAST_CMD_NODE_GET);
		err = nl_talk(nl, &req, node_cb, &ni);
		if (err)
			return report(nl, err);
		n = parse_list(argv[2], mem, 16384);
		if (!strcmp(rs, "auto")) {
			memcpy(rc, mem, n * 4);
			if (!ni.ok || mc_chain_sort(&ni.t, MC_ORDER_DIM, rc, n, NULL))
				die("cannot sort the R-chain");
			nr = n;
		} else {
			nr = parse_list(rs, rc, 16384);
		}
		if (!strcmp(hs, "auto")) {
			if (ni.ok && ni.t.regular && ni.t.links == MC_LINKS_UNI) {
				memcpy(hc, mem, n * 4);
				if (mc_chain_sort(&ni.t, MC_ORDER_HAM, hc, n, NULL))
					die("cannot sort the H-cycle");
				nh = n;
			}
		} else if (strcmp(hs, "none")) {
			nh = parse_list(hs, hc, 16384);
		}
		msg_init(&req, nl->family, 0, MCAST_CMD_GROUP_SET);
		nest = nest_start(&req, MCAST_A_GROUP);
		put_u32(&req, MCAST_GROUP_A_ID, strtoul(argv[1], NULL, 0));
		put_attr(&req, MCAST_GROUP_A_MEMBERS, mem, n * 4);
		put_attr(&req, MCAST_GROUP_A_RCHAIN, rc, nr * 4);
		if (nh >= 0)
			put_attr(&req, MCAST_GROUP_A_HCYCLE, hc, nh * 4);
		nest_end(&req, nest);
		return report(nl, nl_talk(nl, &req, NULL, NULL));
	}
	if (!strcmp(c, "stats") || !strcmp(c, "stats-dump")) {
		msg_init(&req, nl->family, c[5] ? NLM_F_DUMP : 0,
			 MCAST_CMD_STATS_GET);
		if (argc >= 2) {
			nest = nest_start(&req, MCAST_A_STATS);
			put_u32(&req, MCAST_STATS_A_GROUP, strtoul(argv[1], NULL, 0));
			nest_end(&req, nest);
		}
		return report(nl, nl_talk(nl, &req, print_cb, NULL));
	}
	if (!strcmp(c, "raw") && argc >= 2) {
		const char *h = argc >= 3 ? argv[2] : "";

		msg_init(&req, nl->family, 0, strtoul(argv[1], NULL, 0));
		while (h[0] && h[1]) {
			unsigned int b;

			if (sscanf(h, "%2x", &b) != 1)
				die("bad hex");
			req.buf[req.len++] = b;
			h += 2;
		}
		return report(nl, nl_talk(nl, &req, print_cb, NULL));
	}
	return -1;
}

/* ------------------------------------------------------------ ioctls */

static int mc_open(void)
{
	int fd = open("/dev/" MCAST_DEVICE_NAME, O_RDWR | O_CLOEXEC);

	if (fd < 0)
		die("open /dev/mcast: %s", strerror(errno));
	return fd;
}

static int xioctl(int fd, unsigned long cmd, void *arg)
{
	return ioctl(fd, cmd, arg) < 0 ? errno : 0;
}

static int mc_group_flags(int fd, unsigned long cmd, uint32_t group,
			  uint32_t flags)
{
	struct mcast_group_req r = {
		.size = sizeof(r), .group = group, .flags = flags
	};

	return xioctl(fd, cmd, &r);
}

static int mc_group(int fd, unsigned long cmd, uint32_t group)
{
	return mc_group_flags(fd, cmd, group, 0);
}

static int mc_send(int fd, uint32_t flags, uint32_t group, const void *buf,
		   size_t len, uint64_t *seq)
{
	struct mcast_iov iov[3];
	struct mcast_send s = {
		.size = sizeof(s), .flags = flags, .group = group,
		.iov = (uintptr_t)iov,
	};
	size_t a = len / 3, b = len / 3;
	int err;

	/* Three pieces, to exercise the gather. */
	iov[0] = (struct mcast_iov){ (uintptr_t)buf, a };
	iov[1] = (struct mcast_iov){ (uintptr_t)buf + a, b };
	iov[2] = (struct mcast_iov){ (uintptr_t)buf + a + b, len - a - b };
	s.niov = 3;
	err = xioctl(fd, MCAST_IOC_SEND, &s);
	if (!err && seq)
		*seq = s.seq;
	return err;
}

static int mc_send_nodes(int fd, uint32_t flags, const uint32_t *nodes,
			 uint32_t n, const void *buf, size_t len)
{
	struct mcast_iov iov = { (uintptr_t)buf, len };
	struct mcast_send s = {
		.size = sizeof(s), .flags = flags | MCAST_SEND_NODES,
		.iov = (uintptr_t)&iov, .niov = 1,
		.nodes = (uintptr_t)nodes, .nnodes = n,
	};

	return xioctl(fd, MCAST_IOC_SEND, &s);
}

/* Returns bytes copied or -errno. */
static int mc_recv(int fd, uint32_t flags, void *buf, uint32_t buflen,
		   struct mcast_recv *out)
{
	struct mcast_recv r = {
		.size = sizeof(r), .flags = flags, .buf = (uintptr_t)buf,
		.buflen = buflen,
	};
	int n = ioctl(fd, MCAST_IOC_RECV, &r);

	if (out)
		*out = r;
	return n < 0 ? -errno : n;
}

static void fill(void *buf, size_t len, unsigned int seed)
{
	unsigned char *p = buf;
	size_t i;

	for (i = 0; i < len; i++) {
		seed = seed * 1103515245 + 12345;
		p[i] = seed >> 16;
	}
}

static int cmd_info(void)
{
	struct mcast_info i = { .size = sizeof(i) };
	int fd = mc_open(), err, d;

	err = xioctl(fd, MCAST_IOC_INFO, &i);
	if (err) {
		printf("error %s\n", ename(err));
		return 1;
	}
	printf("abi=%u caps=%#x node=%u kind=%u links=%u ndims=%u dims=",
	       i.abi_version, i.caps, i.node_id, i.kind, i.links, i.ndims);
	for (d = 0; d < i.ndims; d++)
		printf("%s%u", d ? "," : "", i.dims[d]);
	printf(" coord=");
	for (d = 0; d < i.ndims; d++)
		printf("%s%u", d ? "," : "", i.coord[d]);
	printf(" rxq_limit=%u max_msg=%u\n", i.rxq_limit, i.max_msg);
	return 0;
}

#define EXPECT(expr, want, desc) do {					\
	int __e = (expr);						\
	check(__e == (want), desc, "got %s, expected %s", ename(__e),	\
	      ename(want));						\
} while (0)

static int cmd_ioctl_errors(uint32_t group)
{
	int fd = mc_open(), fd2 = mc_open();
	struct {
		struct mcast_group_req r;
		uint32_t tail[4];
	} big;
	struct mcast_group_req r;
	struct mcast_send s;
	struct mcast_recv rv;
	struct mcast_iov iov[MCAST_MAX_IOV + 1];
	uint32_t nodes[2];
	char buf[16];
	struct mcast_info info = { .size = sizeof(info) };

	EXPECT(xioctl(fd, _IO(MCAST_IOC_MAGIC, 0x7f), NULL), ENOTTY,
	       "unknown ioctl gives ENOTTY");
	EXPECT(xioctl(fd, _IOW('T', 0x01, int), &r), ENOTTY,
	       "foreign ioctl gives ENOTTY");
	EXPECT(xioctl(fd, MCAST_IOC_INFO, &info), 0, "INFO works");
	check(info.abi_version == MCAST_ABI_VERSION && info.size == sizeof(info),
	      "INFO reports the ABI version", "abi %u", info.abi_version);

	r = (struct mcast_group_req){ .size = sizeof(r) - 4, .group = group };
	EXPECT(xioctl(fd, MCAST_IOC_JOIN, &r), EINVAL,
	       "JOIN with a truncated struct gives EINVAL");
	r = (struct mcast_group_req){ .size = 0, .group = group };
	EXPECT(xioctl(fd, MCAST_IOC_JOIN, &r), EINVAL,
	       "JOIN with size 0 gives EINVAL");
	memset(&big, 0, sizeof(big));
	big.r = (struct mcast_group_req){ .size = sizeof(big), .group = group };
	big.tail[2] = 1;
	EXPECT(xioctl(fd, MCAST_IOC_JOIN, &big), E2BIG,
	       "JOIN with a larger struct and non-zero tail gives E2BIG");
	big.r.size = 1 << 20;
	EXPECT(xioctl(fd, MCAST_IOC_JOIN, &big), E2BIG,
	       "JOIN with a huge size gives E2BIG");
	r = (struct mcast_group_req){ .size = sizeof(r), .flags = 2, .group = group };
	EXPECT(xioctl(fd, MCAST_IOC_JOIN, &r), EINVAL,
	       "JOIN with unknown flags gives EINVAL");
	r = (struct mcast_group_req){ .size = sizeof(r), .reserved = 1, .group = group };
	EXPECT(xioctl(fd, MCAST_IOC_JOIN, &r), EINVAL,
	       "JOIN with a non-zero reserved field gives EINVAL");
	EXPECT(mc_group(fd, MCAST_IOC_JOIN, 0), EINVAL,
	       "JOIN of group 0 gives EINVAL");
	EXPECT(mc_group(fd, MCAST_IOC_JOIN, group + 1500), 0,
	       "JOIN of an unknown group creates it");
	EXPECT(mc_group(fd, MCAST_IOC_LEAVE, group + 1500), 0,
	       "... and LEAVE of it works");
	EXPECT(mc_group(fd, MCAST_IOC_LEAVE, group), ENOTCONN,
	       "LEAVE of a group not joined gives ENOTCONN");
	EXPECT(mc_group(fd, MCAST_IOC_LEAVE, group + 2000), ENOENT,
	       "LEAVE of an unknown group gives ENOENT");
	big.tail[2] = 0;
	big.r.size = sizeof(big);
	EXPECT(xioctl(fd, MCAST_IOC_JOIN, &big), 0,
	       "JOIN with a larger struct and zero tail works");
	EXPECT(mc_group(fd, MCAST_IOC_JOIN, group), EALREADY,
	       "JOIN twice gives EALREADY");
	EXPECT(mc_group(fd, MCAST_IOC_LEAVE, group), 0, "LEAVE works");
	EXPECT(mc_group(fd, MCAST_IOC_LEAVE, group), ENOTCONN,
	       "LEAVE twice gives ENOTCONN");
	EXPECT(mc_group(fd2, MCAST_IOC_JOIN, group), 0, "JOIN again works");

	/* Send: bad inputs deliver nothing. */
	memset(&s, 0, sizeof(s));
	s = (struct mcast_send){ .size = sizeof(s), .flags = 1u << 7, .group = group };
	EXPECT(xioctl(fd, MCAST_IOC_SEND, &s), EINVAL,
	       "SEND with unknown flags gives EINVAL");
	s = (struct mcast_send){ .size = sizeof(s), .group = group, .algorithm = 1 };
	EXPECT(xioctl(fd, MCAST_IOC_SEND, &s), EINVAL,
	       "SEND with an algorithm but not MCAST_SEND_ALGORITHM gives EINVAL");
	s = (struct mcast_send){ .size = sizeof(s), .group = group,
				 .flags = MCAST_SEND_ALGORITHM,
				 .algorithm = __MCAST_ALGORITHM_MAX };
	EXPECT(xioctl(fd, MCAST_IOC_SEND, &s), EINVAL,
	       "SEND with an unknown algorithm gives EINVAL");
	s = (struct mcast_send){ .size = sizeof(s), .group = group,
				 .flags = MCAST_SEND_ALGORITHM,
				 .algorithm = MCAST_ALGORITHM_MUTORUS | 1 << 8 };
	EXPECT(xioctl(fd, MCAST_IOC_SEND, &s), EINVAL,
	       "SEND with mu-torus r = 1 gives EINVAL");
	s = (struct mcast_send){ .size = sizeof(s), .group = group,
				 .flags = MCAST_SEND_ALGORITHM,
				 .algorithm = MCAST_ALGORITHM_STORUS | 4 << 8 };
	EXPECT(xioctl(fd, MCAST_IOC_SEND, &s), EINVAL,
	       "SEND with r for s-torus gives EINVAL");
	s = (struct mcast_send){ .size = sizeof(s), .group = group,
				 .flags = MCAST_SEND_ALGORITHM | MCAST_SEND_SEPARATE,
				 .algorithm = MCAST_ALGORITHM_STORUS };
	EXPECT(xioctl(fd, MCAST_IOC_SEND, &s), EINVAL,
	       "SEND with an algorithm and MCAST_SEND_SEPARATE gives EINVAL");
	s = (struct mcast_send){ .size = sizeof(s), .group = group,
				 .flags = MCAST_SEND_OFFLOAD | MCAST_SEND_NO_OFFLOAD };
	EXPECT(xioctl(fd, MCAST_IOC_SEND, &s), EINVAL,
	       "SEND with OFFLOAD and NO_OFFLOAD gives EINVAL");
	s = (struct mcast_send){ .size = sizeof(s), .group = group,
				 .flags = MCAST_SEND_OFFLOAD | MCAST_SEND_SEPARATE };
	EXPECT(xioctl(fd, MCAST_IOC_SEND, &s), EINVAL,
	       "SEND with OFFLOAD and SEPARATE gives EINVAL");
	s = (struct mcast_send){ .size = sizeof(s), .group = group,
				 .flags = MCAST_SEND_NO_OFFLOAD | MCAST_SEND_SEPARATE };
	EXPECT(xioctl(fd, MCAST_IOC_SEND, &s), EINVAL,
	       "SEND with NO_OFFLOAD and SEPARATE gives EINVAL");
	s = (struct mcast_send){ .size = sizeof(s), .group = group };
	s.nfailed = 5;
	EXPECT(xioctl(fd, MCAST_IOC_SEND, &s), EINVAL,
	       "SEND with nfailed but without MCAST_SEND_WAIT gives EINVAL");
	s = (struct mcast_send){ .size = sizeof(s), .group = group, .timeout_ms = 5 };
	EXPECT(xioctl(fd, MCAST_IOC_SEND, &s), EINVAL,
	       "SEND with timeout_ms but without MCAST_SEND_WAIT gives EINVAL");
	s = (struct mcast_send){ .size = sizeof(s) - 8, .group = group };
	EXPECT(xioctl(fd, MCAST_IOC_SEND, &s), EINVAL,
	       "SEND with a truncated struct gives EINVAL");
	s = (struct mcast_send){ .size = sizeof(s), .group = 0 };
	EXPECT(xioctl(fd, MCAST_IOC_SEND, &s), EINVAL,
	       "SEND to group 0 gives EINVAL");
	s = (struct mcast_send){ .size = sizeof(s), .group = group + 1000 };
	EXPECT(xioctl(fd, MCAST_IOC_SEND, &s), ENOENT,
	       "SEND to an unknown group gives ENOENT");
	memset(iov, 0, sizeof(iov));
	s = (struct mcast_send){ .size = sizeof(s), .group = group,
				 .iov = (uintptr_t)iov, .niov = MCAST_MAX_IOV + 1 };
	EXPECT(xioctl(fd, MCAST_IOC_SEND, &s), EINVAL,
	       "SEND with too many iovecs gives EINVAL");
	iov[0] = (struct mcast_iov){ (uintptr_t)buf, MCAST_MAX_MSG + 1ull };
	s.niov = 1;
	EXPECT(xioctl(fd, MCAST_IOC_SEND, &s), EMSGSIZE,
	       "SEND of more than MCAST_MAX_MSG bytes gives EMSGSIZE");
	iov[0] = (struct mcast_iov){ 16, 8 };
	EXPECT(xioctl(fd, MCAST_IOC_SEND, &s), EFAULT,
	       "SEND from a bad buffer gives EFAULT");
	s = (struct mcast_send){ .size = sizeof(s), .group = group, .nnodes = 1 };
	EXPECT(xioctl(fd, MCAST_IOC_SEND, &s), EINVAL,
	       "SEND to a group with a node list gives EINVAL");
	nodes[0] = 1u << 30;
	EXPECT(mc_send_nodes(fd, 0, nodes, 1, buf, 4), EINVAL,
	       "SEND to a node outside the torus gives EINVAL");
	nodes[0] = nodes[1] = 0;
	EXPECT(mc_send_nodes(fd, 0, nodes, 2, buf, 4), EINVAL,
	       "SEND to a node list with a repeat gives EINVAL");
	EXPECT(mc_send_nodes(fd, 0, nodes, MCAST_MAX_DESTS + 1, buf, 4), EINVAL,
	       "SEND to more than MCAST_MAX_DESTS nodes gives EINVAL");
	EXPECT(mc_recv(fd2, MCAST_RECV_DONTWAIT, buf, sizeof(buf), NULL), -EAGAIN,
	       "rejected sends delivered nothing (RECV gives EAGAIN)");

	/* Receive. */
	rv = (struct mcast_recv){ .size = sizeof(rv), .flags = 1u << 5 };
	EXPECT(xioctl(fd2, MCAST_IOC_RECV, &rv), EINVAL,
	       "RECV with unknown flags gives EINVAL");
	{
		struct { struct mcast_recv r; uint64_t more; } big = {
			.r = { .size = sizeof(big), .flags = MCAST_RECV_DONTWAIT },
			.more = 1,
		};

		EXPECT(xioctl(fd2, MCAST_IOC_RECV, &big), E2BIG,
		       "RECV with non-zero bytes past the struct gives E2BIG");
	}
	rv = (struct mcast_recv){ .size = 4, .flags = MCAST_RECV_DONTWAIT };
	EXPECT(xioctl(fd2, MCAST_IOC_RECV, &rv), EINVAL,
	       "RECV with a truncated struct gives EINVAL");
	fcntl(fd2, F_SETFL, O_NONBLOCK);
	EXPECT(read(fd2, buf, sizeof(buf)) < 0 ? errno : 0, EAGAIN,
	       "read() on an empty O_NONBLOCK file gives EAGAIN");
	EXPECT(mc_recv(fd2, 0, buf, sizeof(buf), NULL), -EAGAIN,
	       "RECV on an empty O_NONBLOCK file gives EAGAIN");
	close(fd);
	close(fd2);
	return failures ? 1 : 0;
}

#define MAXF 16

/* @nfiles members and a sender that is not one; byte-exact, exactly once. */
static int cmd_deliver(uint32_t group, int nfiles)
{
	static char msg[3][70000], got[70000];
	size_t len[3] = { 0, 1000, 65537 };
	int fd[MAXF], sender = mc_open(), i, j, n, err;
	uint64_t seq[3];
	struct mcast_recv r;
	struct pollfd p;
	bool ok;

	if (nfiles > MAXF)
		nfiles = MAXF;
	for (i = 0; i < nfiles; i++) {
		fd[i] = mc_open();
		EXPECT(mc_group(fd[i], MCAST_IOC_JOIN, group), 0, "member joins");
	}
	for (i = 0; i < nfiles; i++) {
		p = (struct pollfd){ .fd = fd[i], .events = POLLIN };
		check(poll(&p, 1, 0) == 0, "poll on an empty queue is not readable",
		      "revents %#x", p.revents);
	}
	for (j = 0; j < 3; j++) {
		fill(msg[j], len[j], j + 7);
		err = mc_send(sender, 0, group, msg[j], len[j], &seq[j]);
		check(!err, "SEND to the group works", "%s", ename(err));
	}
	check(seq[0] < seq[1] && seq[1] < seq[2], "sequence numbers increase",
	      "%llu %llu %llu", (unsigned long long)seq[0],
	      (unsigned long long)seq[1], (unsigned long long)seq[2]);
	for (i = 0; i < nfiles; i++) {
		p = (struct pollfd){ .fd = fd[i], .events = POLLIN };
		n = poll(&p, 1, 1000);
		check(n == 1 && (p.revents & POLLIN), "poll says readable",
		      "poll %d revents %#x", n, p.revents);
		for (j = 0; j < 3; j++) {
			memset(got, 0xee, sizeof(got));
			n = mc_recv(fd[i], MCAST_RECV_DONTWAIT, got, sizeof(got), &r);
			ok = n == (int)len[j] && r.len == len[j] &&
			     !memcmp(got, msg[j], len[j]) && r.seq == seq[j] &&
			     r.group == group && !(r.flags & MCAST_RECV_TRUNC) &&
			     r.dropped == 0;
			check(ok, "member receives the message byte-exact",
			      "file %d msg %d: n=%d len=%u seq=%llu group=%u flags=%#x",
			      i, j, n, r.len, (unsigned long long)r.seq, r.group,
			      r.flags);
		}
		n = mc_recv(fd[i], MCAST_RECV_DONTWAIT, got, sizeof(got), NULL);
		check(n == -EAGAIN, "each message arrived exactly once",
		      "extra receive gave %d", n);
		p = (struct pollfd){ .fd = fd[i], .events = POLLIN };
		check(poll(&p, 1, 0) == 0, "poll is not readable once drained",
		      "revents %#x", p.revents);
	}
	n = mc_recv(sender, MCAST_RECV_DONTWAIT, got, sizeof(got), NULL);
	check(n == -EAGAIN, "the sender (not a member) got nothing", "%d", n);

	/* Loopback: the sending member gets its own message only if asked. */
	err = mc_send(fd[0], 0, group, msg[1], 100, NULL);
	n = mc_recv(fd[0], MCAST_RECV_DONTWAIT, got, sizeof(got), NULL);
	check(!err && n == -EAGAIN, "a member's send does not loop back by default",
	      "err %s n %d", ename(err), n);
	if (nfiles > 1) {
		n = mc_recv(fd[1], MCAST_RECV_DONTWAIT, got, sizeof(got), NULL);
		check(n == 100, "other members get a member's send", "%d", n);
	}
	err = mc_send(fd[0], MCAST_SEND_LOOPBACK, group, msg[1], 100, NULL);
	n = mc_recv(fd[0], MCAST_RECV_DONTWAIT, got, sizeof(got), NULL);
	check(!err && n == 100 && !memcmp(got, msg[1], 100),
	      "MCAST_SEND_LOOPBACK delivers to the sender too", "err %s n %d",
	      ename(err), n);
	for (i = 1; i < nfiles; i++)
		while (mc_recv(fd[i], MCAST_RECV_DONTWAIT, got, sizeof(got),
			       NULL) >= 0)
			;

	/* Truncation: ioctl and read(). */
	mc_send(sender, 0, group, msg[2], 5000, NULL);
	n = mc_recv(fd[0], 0, got, 100, &r);
	check(n == 100 && r.len == 5000 && (r.flags & MCAST_RECV_TRUNC) &&
	      !memcmp(got, msg[2], 100),
	      "RECV into a short buffer truncates and says so",
	      "n %d len %u flags %#x", n, r.len, r.flags);
	if (nfiles > 1) {
		n = read(fd[1], got, 10);
		check(n == 10 && !memcmp(got, msg[2], 10),
		      "read() returns the payload, truncated", "%d", n);
		n = mc_recv(fd[1], MCAST_RECV_DONTWAIT, got, sizeof(got), NULL);
		check(n == -EAGAIN, "read() consumed the whole message", "%d", n);
	}
	for (i = 2; i < nfiles; i++)
		mc_recv(fd[i], MCAST_RECV_DONTWAIT, got, sizeof(got), NULL);
	mc_send(sender, 0, group, msg[1], 300, NULL);
	for (i = 0; i < nfiles; i++) {
		n = read(fd[i], got, sizeof(got));
		check(n == 300 && !memcmp(got, msg[1], 300),
		      "read() returns a whole message", "%d", n);
	}

	/* A member that left gets nothing. */
	EXPECT(mc_group(fd[0], MCAST_IOC_LEAVE, group), 0, "member leaves");
	mc_send(sender, 0, group, msg[1], 10, NULL);
	n = mc_recv(fd[0], MCAST_RECV_DONTWAIT, got, sizeof(got), NULL);
	check(n == -EAGAIN, "a file that left gets nothing", "%d", n);
	for (i = 0; i < nfiles; i++)
		close(fd[i]);
	close(sender);
	return failures ? 1 : 0;
}

/* Blocking receive woken by a send from another process. */
static int cmd_block(uint32_t group)
{
	int fd = mc_open(), n;
	char got[64];
	pid_t pid;

	EXPECT(mc_group(fd, MCAST_IOC_JOIN, group), 0, "member joins");
	pid = fork();
	if (pid == 0) {
		int s = mc_open();

		usleep(300000);
		mc_send(s, 0, group, "wake up", 7, NULL);
		_exit(0);
	}
	n = mc_recv(fd, 0, got, sizeof(got), NULL);
	check(n == 7 && !memcmp(got, "wake up", 7),
	      "a blocking RECV wakes up when a message arrives", "%d", n);
	waitpid(pid, NULL, 0);
	return failures ? 1 : 0;
}

static int cmd_overflow(uint32_t group)
{
	struct mcast_info info = { .size = sizeof(info) };
	int fd = mc_open(), fd2 = mc_open(), sender = mc_open(), i, n, extra = 5;
	uint8_t cmds[64];
	uint32_t drops = 0, limit;
	struct mcast_recv r;
	struct nl nl;
	char got[16];
	bool ok = true, saw = false;

	nl_setup(&nl);
	nl_subscribe(&nl);
	xioctl(fd, MCAST_IOC_INFO, &info);
	limit = info.rxq_limit;
	check(limit > 0, "INFO reports the receive queue limit", "%u", limit);
	EXPECT(mc_group_flags(fd, MCAST_IOC_JOIN, group, MCAST_JOIN_LOSSY), 0,
	       "member joins, lossy");
	EXPECT(mc_group_flags(fd2, MCAST_IOC_JOIN, group, MCAST_JOIN_LOSSY), 0,
	       "second member joins, lossy");
	for (i = 0; i < (int)limit + extra; i++)
		if (mc_send(sender, 0, group, &i, sizeof(i), NULL))
			ok = false;
	check(ok, "every send succeeds while a queue is full", "");
	/* Both queues overflowed; check the first's contents. */
	for (i = 0; i < (int)limit; i++) {
		int v = -1;

		n = mc_recv(fd, MCAST_RECV_DONTWAIT, &v, sizeof(v), &r);
		if (n != sizeof(v) || v != i || r.dropped != (i == 0 ? (uint32_t)extra : 0)) {
			check(false, "the queue keeps the oldest messages, drops the new",
			      "recv %d: n %d v %d dropped %u", i, n, v, r.dropped);
			ok = false;
			break;
		}
	}
	if (ok)
		check(true, "the queue keeps the oldest messages, drops the new", "");
	check(ok, "the first receive after the overflow reports the drops", "");
	n = mc_recv(fd, MCAST_RECV_DONTWAIT, got, sizeof(got), NULL);
	check(n == -EAGAIN, "the dropped messages are gone", "%d", n);
	n = nl_events(&nl, cmds, 64, 1000, &drops);
	for (i = 0; i < n && i < 64; i++)
		if (cmds[i] == MCAST_CMD_OVERFLOW)
			saw = true;
	check(saw && drops >= 1, "an OVERFLOW event was sent",
	      "%d events, drops %u", n, drops);
	return failures ? 1 : 0;
}

/* Whether @pid is still running after @ms. */
static bool still_running(pid_t pid, int ms)
{
	usleep(ms * 1000);
	return waitpid(pid, NULL, WNOHANG) == 0;
}

/* Sends @v from @fd in a child that exits 0 when the send returned 0. */
static pid_t send_in_child(int fd, uint32_t group, int v)
{
	pid_t pid = fork();

	if (pid == 0)
		_exit(mc_send(fd, 0, group, &v, sizeof(v), NULL) ? 1 : 0);
	return pid;
}

static bool child_ok(pid_t pid)
{
	int st;

	return waitpid(pid, &st, 0) == pid && WIFEXITED(st) &&
	       !WEXITSTATUS(st);
}

/* Receives values lo..hi-1 in order, DONTWAIT; false on anything else. */
static bool recv_run(int fd, int lo, int hi, uint32_t first_dropped)
{
	struct mcast_recv r;
	int i, v, n;

	for (i = lo; i < hi; i++) {
		v = -1;
		n = mc_recv(fd, MCAST_RECV_DONTWAIT, &v, sizeof(v), &r);
		if (n != sizeof(v) || v != i ||
		    r.dropped != (i == lo ? first_dropped : 0)) {
			printf("# recv %d: n %d v %d dropped %u\n", i, n, v,
			       r.dropped);
			return false;
		}
	}
	return true;
}

/*
 * lossless GROUP STALL_MS: the default member loses nothing.  Its full
 * queue makes this node's senders wait (EAGAIN when non-blocking) while a
 * lossy member beside it drops; a read lets a waiting send through; a
 * queue full for STALL_MS (the module's rx_stall_ms, set
 * by the caller) is cut off (CUTOFF event, cutoffs, the lost message in
 * dropped) and is lossless again once read empty.
 */
static int cmd_lossless(uint32_t group, int stall_ms)
{
	struct mcast_info info = { .size = sizeof(info) };
	int fd = mc_open(), lossy = mc_open(), tx = mc_open(), i, n, v;
	uint8_t cmds[64];
	uint32_t limit;
	struct nl nl;
	bool ok, saw = false;
	pid_t pid;

	nl_setup(&nl);
	xioctl(fd, MCAST_IOC_INFO, &info);
	limit = info.rxq_limit;
	EXPECT(mc_group_flags(fd, MCAST_IOC_JOIN, group, 2), EINVAL,
	       "JOIN with an unknown flag gives EINVAL");
	EXPECT(mc_group_flags(fd, MCAST_IOC_LEAVE, group, MCAST_JOIN_LOSSY),
	       EINVAL, "LEAVE with a flag gives EINVAL");
	EXPECT(mc_group(fd, MCAST_IOC_JOIN, group), 0, "a lossless member joins");
	EXPECT(mc_group_flags(lossy, MCAST_IOC_JOIN, group, MCAST_JOIN_LOSSY),
	       0, "a lossy member joins");
	fcntl(tx, F_SETFL, O_NONBLOCK);
	for (ok = true, i = 0; i < (int)limit; i++)
		ok &= !mc_send(tx, 0, group, &i, sizeof(i), NULL);
	check(ok, "rxq_limit sends fill the queues", "");
	v = (int)limit;
	EXPECT(mc_send(tx, 0, group, &v, sizeof(v), NULL), EAGAIN,
	       "the next non-blocking send gives EAGAIN: the lossless member is full");
	fcntl(tx, F_SETFL, 0);
	pid = send_in_child(tx, group, v);
	check(still_running(pid, 500), "a blocking send waits for the member",
	      "");
	check(recv_run(fd, 0, 1, 0) && child_ok(pid),
	      "one read lets it through", "");
	check(recv_run(fd, 1, (int)limit + 1, 0),
	      "the member gets every message, in order, none dropped", "");
	check(recv_run(lossy, 0, (int)limit, 1),
	      "the lossy member kept the oldest rxq_limit, dropped the last", "");
	n = mc_recv(lossy, MCAST_RECV_DONTWAIT, &v, sizeof(v), NULL);
	check(n == -EAGAIN, "and has nothing more", "%d", n);

	/* A reader that stops: cut off after STALL_MS. */
	nl_subscribe(&nl);
	for (ok = true, i = 0; i < (int)limit; i++)
		ok &= !mc_send(tx, 0, group, &i, sizeof(i), NULL);
	check(ok, "the queue fills again", "");
	pid = send_in_child(tx, group, (int)limit);
	check(still_running(pid, stall_ms / 2), "a send waits for half of rx_stall_ms", "");
	check(child_ok(pid), "and goes through once the member is cut off", "");
	n = nl_events(&nl, cmds, 64, 1000, NULL);
	for (i = 0; i < n && i < 64; i++)
		saw |= cmds[i] == MCAST_CMD_CUTOFF;
	check(saw, "a CUTOFF event names the stalled member", "%d events", n);
	v = (int)limit + 1;
	EXPECT(mc_send(tx, 0, group, &v, sizeof(v), NULL), 0,
	       "a cut-off member holds nobody up");
	check(recv_run(fd, 0, (int)limit, 2),
	      "it lost the two sent while it was cut off, reported as dropped", "");
	fcntl(tx, F_SETFL, O_NONBLOCK);
	for (ok = true, i = 0; i < (int)limit; i++)
		ok &= !mc_send(tx, 0, group, &i, sizeof(i), NULL);
	EXPECT(mc_send(tx, 0, group, &v, sizeof(v), NULL), EAGAIN,
	       "read empty, it is lossless again");
	close(lossy);
	close(fd);
	close(tx);
	return failures ? 1 : 0;
}

/* An explicit node list reaches every file of this node iff it is listed. */
static int cmd_nodes(void)
{
	struct mcast_info info = { .size = sizeof(info) };
	int a = mc_open(), b = mc_open(), n, err;
	uint32_t nodes[2];
	struct mcast_recv r;
	char got[16];

	xioctl(a, MCAST_IOC_INFO, &info);
	if (info.node_id == MCAST_NO_NODE) {
		nodes[0] = 0;
		EXPECT(mc_send_nodes(a, 0, nodes, 1, "x", 1), ENOTCONN,
		       "SEND to nodes on an unconfigured node gives ENOTCONN");
		EXPECT(mc_group(a, MCAST_IOC_JOIN, 5), ENETDOWN,
		       "JOIN on an unconfigured node gives ENETDOWN");
		return failures ? 1 : 0;
	}
	nodes[0] = info.node_id;
	nodes[1] = info.node_id ? 0 : 1;
	err = mc_send_nodes(a, 0, nodes, 2, "hello", 5);
	n = mc_recv(b, MCAST_RECV_DONTWAIT, got, sizeof(got), &r);
	check(!err && n == 5 && !memcmp(got, "hello", 5) &&
	      r.group == MCAST_NO_GROUP && r.src_node == info.node_id,
	      "a node list with this node reaches its other files",
	      "err %s n %d group %u src %u", ename(err), n, r.group, r.src_node);
	n = mc_recv(a, MCAST_RECV_DONTWAIT, got, sizeof(got), NULL);
	check(n == -EAGAIN, "but not the sender", "%d", n);
	err = mc_send_nodes(a, 0, nodes + 1, 1, "hello", 5);
	n = mc_recv(b, MCAST_RECV_DONTWAIT, got, sizeof(got), NULL);
	check(!err && n == -EAGAIN, "a node list without this node delivers nothing here",
	      "err %s n %d", ename(err), n);
	err = mc_send_nodes(a, MCAST_SEND_LOOPBACK, nodes, 1, "hi", 2);
	n = mc_recv(a, MCAST_RECV_DONTWAIT, got, sizeof(got), NULL);
	check(!err && n == 2, "with MCAST_SEND_LOOPBACK the sender gets it too",
	      "err %s n %d", ename(err), n);
	mc_recv(b, MCAST_RECV_DONTWAIT, got, sizeof(got), NULL);
	return failures ? 1 : 0;
}

/* Every change sends its event. */
static int cmd_events(uint32_t group)
{
	static const uint8_t want[] = {
		MCAST_CMD_NODE_GET, MCAST_CMD_PEER_NEW, MCAST_CMD_PEER_DEL,
		MCAST_CMD_GROUP_NEW, MCAST_CMD_GROUP_SET, MCAST_CMD_MEMBER_JOIN,
		MCAST_CMD_MEMBER_LEAVE, MCAST_CMD_MEMBER_JOIN,
		MCAST_CMD_MEMBER_LEAVE, MCAST_CMD_GROUP_DEL,
	};
	struct nl nl, ev;
	struct nlattr *nest;
	struct node_raw nr = { 0 };
	uint8_t cmds[32];
	uint32_t m = 0;
	int fd, n, i, err;
	bool ok;

	nl_setup(&nl);
	nl_setup(&ev);
	nl_subscribe(&ev);
	/* The node's configuration set again, a peer added and removed. */
	msg_init(&req, nl.family, 0, MCAST_CMD_NODE_GET);
	err = nl_talk(&nl, &req, node_raw_cb, &nr);
	check(!err && nr.ndims, "NODE_GET (the node must be configured)", "%s",
	      ename(-err));
	msg_init(&req, nl.family, 0, MCAST_CMD_NODE_SET);
	nest = nest_start(&req, MCAST_A_NODE);
	put_u8(&req, MCAST_NODE_A_KIND, MCAST_TOPO_TORUS);
	put_u8(&req, MCAST_NODE_A_LINKS, nr.links);
	put_attr(&req, MCAST_NODE_A_DIMS, nr.dims, nr.ndims * 2);
	put_attr(&req, MCAST_NODE_A_COORD, nr.coord, nr.ndims * 2);
	nest_end(&req, nest);
	err = nl_talk(&nl, &req, NULL, NULL);
	check(!err, "NODE_SET with the same configuration", "%s %s",
	      ename(-err), nl.err_msg);
	for (i = 0; i < 2; i++) {
		uint32_t addr = htonl(0x0a000063), peer = nr.id ? 0 : 1;

		msg_init(&req, nl.family, 0, i ? MCAST_CMD_PEER_DEL :
			 MCAST_CMD_PEER_NEW);
		nest = nest_start(&req, MCAST_A_PEER);
		put_u32(&req, MCAST_PEER_A_ID, peer);
		if (!i) {
			put_attr(&req, MCAST_PEER_A_IPV4, &addr, 4);
			put_u16(&req, MCAST_PEER_A_PORT, 7000);
		}
		nest_end(&req, nest);
		err = nl_talk(&nl, &req, NULL, NULL);
		check(!err, i ? "PEER_DEL" : "PEER_NEW", "%s %s", ename(-err),
		      nl.err_msg);
	}
	msg_init(&req, nl.family, 0, MCAST_CMD_GROUP_NEW);
	nest = nest_start(&req, MCAST_A_GROUP);
	put_u32(&req, MCAST_GROUP_A_ID, group);
	nest_end(&req, nest);
	err = nl_talk(&nl, &req, NULL, NULL);
	check(!err, "GROUP_NEW works", "%s %s", ename(-err), nl.err_msg);
	msg_init(&req, nl.family, 0, MCAST_CMD_GROUP_SET);
	nest = nest_start(&req, MCAST_A_GROUP);
	put_u32(&req, MCAST_GROUP_A_ID, group);
	put_attr(&req, MCAST_GROUP_A_MEMBERS, &m, 4);
	put_attr(&req, MCAST_GROUP_A_RCHAIN, &m, 4);
	nest_end(&req, nest);
	err = nl_talk(&nl, &req, NULL, NULL);
	if (err == -EINVAL) {	/* regular unidirectional: needs HCYCLE */
		nest = (struct nlattr *)(req.buf + NLMSG_HDRLEN + GENL_HDRLEN);
		put_attr(&req, MCAST_GROUP_A_HCYCLE, &m, 4);
		nest_end(&req, nest);
		err = nl_talk(&nl, &req, NULL, NULL);
	}
	check(!err, "GROUP_SET works", "%s %s", ename(-err), nl.err_msg);
	fd = mc_open();
	mc_group(fd, MCAST_IOC_JOIN, group);
	mc_group(fd, MCAST_IOC_LEAVE, group);
	mc_group(fd, MCAST_IOC_JOIN, group);
	msg_init(&req, nl.family, 0, MCAST_CMD_GROUP_DEL);
	nest = nest_start(&req, MCAST_A_GROUP);
	put_u32(&req, MCAST_GROUP_A_ID, group);
	nest_end(&req, nest);
	err = nl_talk(&nl, &req, NULL, NULL);
	check(!err, "GROUP_DEL of a group with a local member works", "%s",
	      ename(-err));
	EXPECT(mc_group(fd, MCAST_IOC_LEAVE, group), ENOENT,
	       "the member left with the group (LEAVE gives ENOENT)");
	close(fd);
	n = nl_events(&ev, cmds, 32, 1000, NULL);
	ok = n == (int)sizeof(want);
	for (i = 0; ok && i < n; i++)
		ok = cmds[i] == want[i];
	printf("# events:");
	for (i = 0; i < n && i < 32; i++)
		printf(" %u", cmds[i]);
	printf("\n");
	check(ok, "events: node, peer new, del, group new, set, join, leave, join, leave, del",
	      "got %d events", n);
	return failures ? 1 : 0;
}

/* ------------------------------------------------------------ stress */

static bool expected_errno(int e)
{
	return !e || e == ENOENT || e == ENOTCONN || e == EAGAIN ||
	       e == EALREADY;
}

static void stress_sender(uint32_t group, time_t end, unsigned int seed)
{
	static char buf[70000];
	int fd = mc_open(), bad = 0;
	uint32_t node = 0;

	fill(buf, sizeof(buf), seed);
	while (time(NULL) < end) {
		size_t len = rand_r(&seed) % sizeof(buf);
		int e;

		if (rand_r(&seed) % 8 == 0)
			e = mc_send_nodes(fd, 0, &node, 1, buf, len % 100);
		else
			e = mc_send(fd, rand_r(&seed) % 2 ? MCAST_SEND_LOOPBACK : 0,
				    group, buf, len, NULL);
		if (!expected_errno(e) && !bad++)
			printf("# sender: %s\n", ename(e));
		if (rand_r(&seed) % 64 == 0) {
			close(fd);
			fd = mc_open();
		}
	}
	_exit(bad ? 1 : 0);
}

static void stress_receiver(uint32_t group, time_t end, unsigned int seed)
{
	static char buf[70000];
	int bad = 0;

	while (time(NULL) < end) {
		int fd = mc_open(), i, n, e;
		struct pollfd p = { .fd = fd, .events = POLLIN };

		e = mc_group(fd, MCAST_IOC_JOIN, group);
		if (!expected_errno(e) && !bad++)
			printf("# receiver join: %s\n", ename(e));
		for (i = 0; i < 20; i++) {
			poll(&p, 1, 5);
			n = mc_recv(fd, MCAST_RECV_DONTWAIT, buf,
				    rand_r(&seed) % sizeof(buf), NULL);
			if (n < 0 && !expected_errno(-n) && !bad++)
				printf("# receiver recv: %s\n", ename(-n));
		}
		/* Half the time close with a queue and a membership. */
		if (rand_r(&seed) % 2) {
			e = mc_group(fd, MCAST_IOC_LEAVE, group);
			if (!expected_errno(e) && !bad++)
				printf("# receiver leave: %s\n", ename(e));
		}
		close(fd);
	}
	_exit(bad ? 1 : 0);
}

static void stress_config(uint32_t group, time_t end)
{
	struct node_raw nr = { 0 };
	struct nlattr *nest;
	struct nl nl;
	int bad = 0, i, e;

	nl_setup(&nl);
	nl_subscribe(&nl);	/* events pile up: must not hurt */
	msg_init(&req, nl.family, 0, MCAST_CMD_NODE_GET);
	nl_talk(&nl, &req, node_raw_cb, &nr);
	while (time(NULL) < end) {
		for (i = 0; i < 4; i++) {
			static const uint8_t cmd[] = {
				MCAST_CMD_GROUP_DEL, MCAST_CMD_GROUP_NEW,
				MCAST_CMD_GROUP_SET, MCAST_CMD_STATS_GET,
			};
			msg_init(&req, nl.family, i == 3 ? NLM_F_DUMP : 0, cmd[i]);
			nest = nest_start(&req, MCAST_A_GROUP);
			put_u32(&req, MCAST_GROUP_A_ID, group);
			if (i == 2) {
				put_attr(&req, MCAST_GROUP_A_MEMBERS, &nr.id, 4);
				put_attr(&req, MCAST_GROUP_A_RCHAIN, &nr.id, 4);
				put_attr(&req, MCAST_GROUP_A_HCYCLE, &nr.id, 4);
			}
			nest_end(&req, nest);
			if (i == 3)
				msg_init(&req, nl.family, NLM_F_DUMP, cmd[i]);
			e = -nl_talk(&nl, &req, NULL, NULL);
			/*
			 * HCYCLE is refused on a non-regular torus; a member's
			 * JOIN may create the group between DEL and NEW.
			 */
			if (!expected_errno(e) && e != EINVAL &&
			    !(i == 1 && e == EEXIST) && !bad++)
				printf("# config %u: %s %s\n", cmd[i], ename(e),
				       nl.err_msg);
			usleep(2000);
		}
	}
	_exit(bad ? 1 : 0);
}

static int cmd_stress(uint32_t group, int secs)
{
	time_t end = time(NULL) + secs;
	pid_t pids[6];
	int i, st, bad = 0;

	for (i = 0; i < 6; i++) {
		pids[i] = fork();
		if (pids[i] < 0)
			die("fork: %s", strerror(errno));
		if (pids[i])
			continue;
		if (i < 2)
			stress_sender(group, end, i + 1);
		else if (i < 5)
			stress_receiver(group, end, i + 1);
		else
			stress_config(group, end);
	}
	for (i = 0; i < 6; i++) {
		waitpid(pids[i], &st, 0);
		if (!WIFEXITED(st) || WEXITSTATUS(st))
			bad++;
	}
	check(!bad, "senders, receivers and group changes ran concurrently",
	      "%d processes failed", bad);
	return failures ? 1 : 0;
}

/* ------------------------------------------------------------ io_uring */

struct ring {
	int fd;
	struct io_uring_params p;
	void *sq, *cq;
	struct io_uring_sqe *sqes;
	unsigned int *sq_tail, *sq_mask, *sq_array, *cq_head, *cq_tail, *cq_mask;
	struct io_uring_cqe *cqes;
};

static int ring_init(struct ring *r)
{
	memset(r, 0, sizeof(*r));
	r->fd = syscall(__NR_io_uring_setup, 8, &r->p);
	if (r->fd < 0)
		return -errno;
	r->sq = mmap(NULL, r->p.sq_off.array + r->p.sq_entries * 4,
		     PROT_READ | PROT_WRITE, MAP_SHARED, r->fd, IORING_OFF_SQ_RING);
	r->cq = mmap(NULL, r->p.cq_off.cqes + r->p.cq_entries *
		     sizeof(struct io_uring_cqe), PROT_READ | PROT_WRITE,
		     MAP_SHARED, r->fd, IORING_OFF_CQ_RING);
	r->sqes = mmap(NULL, r->p.sq_entries * sizeof(struct io_uring_sqe),
		       PROT_READ | PROT_WRITE, MAP_SHARED, r->fd, IORING_OFF_SQES);
	if (r->sq == MAP_FAILED || r->cq == MAP_FAILED || r->sqes == MAP_FAILED)
		return -ENOMEM;
	r->sq_tail = (unsigned int *)((char *)r->sq + r->p.sq_off.tail);
	r->sq_mask = (unsigned int *)((char *)r->sq + r->p.sq_off.ring_mask);
	r->sq_array = (unsigned int *)((char *)r->sq + r->p.sq_off.array);
	r->cq_head = (unsigned int *)((char *)r->cq + r->p.cq_off.head);
	r->cq_tail = (unsigned int *)((char *)r->cq + r->p.cq_off.tail);
	r->cq_mask = (unsigned int *)((char *)r->cq + r->p.cq_off.ring_mask);
	r->cqes = (struct io_uring_cqe *)((char *)r->cq + r->p.cq_off.cqes);
	return 0;
}

static void ring_submit(struct ring *r, int fd, uint32_t op, void *arg,
			uint64_t data)
{
	unsigned int tail = *r->sq_tail, idx = tail & *r->sq_mask;
	struct io_uring_sqe *sqe = &r->sqes[idx];
	struct mcast_uring_cmd *uc;

	memset(sqe, 0, sizeof(*sqe));
	sqe->opcode = IORING_OP_URING_CMD;
	sqe->fd = fd;
	sqe->cmd_op = op;
	sqe->user_data = data;
	uc = (struct mcast_uring_cmd *)sqe->cmd;
	uc->arg = (uintptr_t)arg;
	r->sq_array[idx] = idx;
	__atomic_store_n(r->sq_tail, tail + 1, __ATOMIC_RELEASE);
	syscall(__NR_io_uring_enter, r->fd, 1, 0, 0, NULL, 0);
}

/* Waits for one completion: returns its res, *data its user_data. */
static int ring_wait(struct ring *r, uint64_t *data, int timeout_ms)
{
	struct __kernel_timespec ts = {
		.tv_sec = timeout_ms / 1000,
		.tv_nsec = (timeout_ms % 1000) * 1000000ll,
	};
	struct io_uring_getevents_arg arg = { .ts = (uintptr_t)&ts };
	unsigned int head = *r->cq_head;
	int res;

	if (head == __atomic_load_n(r->cq_tail, __ATOMIC_ACQUIRE))
		syscall(__NR_io_uring_enter, r->fd, 0, 1,
			IORING_ENTER_GETEVENTS | IORING_ENTER_EXT_ARG, &arg,
			sizeof(arg));
	if (head == __atomic_load_n(r->cq_tail, __ATOMIC_ACQUIRE))
		return -ETIMEDOUT;
	res = r->cqes[head & *r->cq_mask].res;
	if (data)
		*data = r->cqes[head & *r->cq_mask].user_data;
	__atomic_store_n(r->cq_head, head + 1, __ATOMIC_RELEASE);
	return res;
}

static int cmd_uring(uint32_t group)
{
	int fd = mc_open(), sender = mc_open(), err, res;
	struct mcast_iov iov = { (uintptr_t)"ring msg", 8 };
	struct mcast_send s = {
		.size = sizeof(s), .group = group, .iov = (uintptr_t)&iov,
		.niov = 1,
	};
	char got[32];
	struct mcast_recv rv = {
		.size = sizeof(rv), .buf = (uintptr_t)got, .buflen = sizeof(got),
	};
	struct ring r;
	uint64_t data;

	err = ring_init(&r);
	if (err) {
		printf("SKIP io_uring unavailable: %s\n", ename(-err));
		return 0;
	}
	EXPECT(mc_group(fd, MCAST_IOC_JOIN, group), 0, "member joins");
	ring_submit(&r, sender, MCAST_URING_SEND, &s, 1);
	res = ring_wait(&r, &data, 2000);
	check(res == 0 && data == 1, "io_uring SEND completes with 0",
	      "res %d", res);
	ring_submit(&r, fd, MCAST_URING_RECV, &rv, 2);
	res = ring_wait(&r, &data, 2000);
	check(res == 8 && data == 2 && !memcmp(got, "ring msg", 8) &&
	      rv.len == 8 && rv.seq == s.seq,
	      "io_uring RECV returns the message", "res %d len %u", res, rv.len);
	/* A receive with nothing queued completes when a message arrives. */
	memset(got, 0, sizeof(got));
	ring_submit(&r, fd, MCAST_URING_RECV, &rv, 3);
	res = ring_wait(&r, &data, 300);
	check(res == -ETIMEDOUT, "io_uring RECV waits for a message", "res %d", res);
	mc_send(sender, 0, group, "late msg", 8, NULL);
	res = ring_wait(&r, &data, 3000);
	check(res == 8 && data == 3 && !memcmp(got, "late msg", 8),
	      "the waiting io_uring RECV completes on arrival", "res %d", res);
	rv.flags = MCAST_RECV_DONTWAIT;
	ring_submit(&r, fd, MCAST_URING_RECV, &rv, 4);
	res = ring_wait(&r, &data, 2000);
	check(res == -EAGAIN && data == 4,
	      "io_uring RECV with DONTWAIT gives EAGAIN", "res %d", res);
	ring_submit(&r, fd, 99, &rv, 5);
	res = ring_wait(&r, &data, 2000);
	check(res == -ENOTTY && data == 5,
	      "an unknown io_uring command gives ENOTTY",
	      "res %d", res);
	/* One more receive left pending when the ring and file close. */
	rv.flags = 0;
	ring_submit(&r, fd, MCAST_URING_RECV, &rv, 6);
	usleep(100000);
	close(r.fd);
	close(fd);
	close(sender);
	return failures ? 1 : 0;
}

/*
 * A private netns node with open files: configure it, join, queue
 * messages, then move back to the original netns, leaving the private
 * one with no process but our files.  Close them at exit.
 */
static int cmd_hold(uint32_t group, int secs)
{
	int orig = open("/proc/self/ns/net", O_RDONLY | O_CLOEXEC);
	int fd[4], i, err;
	struct nl nl;
	struct nlattr *nest;
	uint16_t dims[2] = { 4, 4 }, coord[2] = { 1, 2 };
	uint32_t m[2] = { 6, 9 };

	if (unshare(CLONE_NEWNET))
		die("unshare: %s", strerror(errno));
	nl_setup(&nl);
	msg_init(&req, nl.family, 0, MCAST_CMD_NODE_SET);
	nest = nest_start(&req, MCAST_A_NODE);
	put_u8(&req, MCAST_NODE_A_KIND, MCAST_TOPO_TORUS);
	put_u8(&req, MCAST_NODE_A_LINKS, MCAST_LINKS_BI);
	put_attr(&req, MCAST_NODE_A_DIMS, dims, 4);
	put_attr(&req, MCAST_NODE_A_COORD, coord, 4);
	nest_end(&req, nest);
	err = nl_talk(&nl, &req, NULL, NULL);
	check(!err, "NODE_SET in a private netns", "%s", ename(-err));
	msg_init(&req, nl.family, 0, MCAST_CMD_GROUP_NEW);
	nest = nest_start(&req, MCAST_A_GROUP);
	put_u32(&req, MCAST_GROUP_A_ID, group);
	put_attr(&req, MCAST_GROUP_A_MEMBERS, m, 8);
	put_attr(&req, MCAST_GROUP_A_RCHAIN, m, 8);
	nest_end(&req, nest);
	err = nl_talk(&nl, &req, NULL, NULL);
	check(!err, "GROUP_NEW with members in a private netns", "%s %s",
	      ename(-err), nl.err_msg);
	for (i = 0; i < 4; i++) {
		fd[i] = mc_open();
		mc_group(fd[i], MCAST_IOC_JOIN, group);
	}
	for (i = 0; i < 10; i++)
		mc_send(fd[0], 0, group, "queued", 6, NULL);
	close(nl.fd);
	if (setns(orig, CLONE_NEWNET))
		die("setns: %s", strerror(errno));
	check(true, "left the private netns with files open", "");
	if (secs)
		sleep(secs);
	return failures ? 1 : 0;
}

/* Writes @s to the file @path (a /proc/self map), or dies. */
static void write_file(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY);

	if (fd < 0 || write(fd, s, strlen(s)) != (ssize_t)strlen(s))
		die("%s: %s", path, strerror(errno));
	close(fd);
}

/*
 * The rest of the command in a new user namespace whose root is this
 * user, and a new netns it owns: a container's root, without privilege
 * in the initial namespace.
 */
static void enter_userns(void)
{
	unsigned int uid = getuid(), gid = getgid();
	char map[64];

	/* after a setuid the process is not dumpable: /proc/self is root's */
	prctl(PR_SET_DUMPABLE, 1);
	if (unshare(CLONE_NEWUSER | CLONE_NEWNET)) {
		printf("skip: no user namespace: %s\n", strerror(errno));
		exit(77);
	}
	write_file("/proc/self/setgroups", "deny");
	snprintf(map, sizeof(map), "0 %u 1", uid);
	write_file("/proc/self/uid_map", map);
	snprintf(map, sizeof(map), "0 %u 1", gid);
	write_file("/proc/self/gid_map", map);
}

/* ------------------------------------------------- network data path */

/* The payload of a test message: a function of its source and length. */
static unsigned char pat(uint32_t src, uint32_t len, uint32_t i)
{
	return (i * 131u + src * 17u + len * 7u) % 251u;
}

static uint32_t my_node(int fd)
{
	struct mcast_info info = { .size = sizeof(info) };

	xioctl(fd, MCAST_IOC_INFO, &info);
	return info.node_id;
}

/*
 * @ms times mcast_time_scale from the guest's command line (make
 * debugcheck's kernel runs the tests several times slower): a receiver's
 * idle time, a sender's wait for completion and a watcher's time are
 * bounds on the network's pace, not on the kernel's.
 */
static int scaled_ms(int ms)
{
	const char *s = getenv("mcast_time_scale");
	int k = s ? atoi(s) : 1;

	return k > 1 && ms > 0 && ms < INT32_MAX / k ? ms * k : ms;
}

/*
 * rx GROUP[,GROUP..] IDLE_MS [EXPECT]: join the groups (0: none, node
 * lists reach every file), print "ready", then one line per message until IDLE_MS pass
 * without one (200 ms once EXPECT messages came).
 */
static int cmd_rx(const char *groups, int idle_ms, int expect,
		  const char *start)
{
	static unsigned char buf[MCAST_MAX_MSG];
	int fd = mc_open(), n, bad = 0, total = 0, ng, k;
	uint32_t i, group[64];
	struct mcast_recv r;
	struct pollfd p;

	ng = parse_list(groups, group, 64);
	for (k = 0; k < ng; k++)
		if (group[k] && mc_group(fd, MCAST_IOC_JOIN, group[k]))
			die("join %u: %s", group[k], strerror(errno));
	printf("ready node=%u pid=%d\n", my_node(fd), (int)getpid());
	fflush(stdout);
	/* a reader that has not started yet: its queue fills */
	while (start && access(start, F_OK))
		usleep(50000);
	for (;;) {
		p = (struct pollfd){ .fd = fd, .events = POLLIN };
		if (poll(&p, 1, expect >= 0 && total >= expect ? 200 :
			 idle_ms) <= 0)
			break;
		n = mc_recv(fd, MCAST_RECV_DONTWAIT, buf, sizeof(buf), &r);
		if (n == -EAGAIN)
			continue;
		if (n < 0)
			die("recv: %s", strerror(-n));
		for (i = 0; i < r.len && buf[i] == pat(r.src_node, r.len, i); i++)
			;
		bad += i != r.len;
		total++;
		printf("msg src=%u seq=%llu len=%u group=%u step=%u from=%u ok=%d dropped=%u",
		       r.src_node, (unsigned long long)r.seq, r.len, r.group,
		       r.step, r.from_node, i == r.len, r.dropped);
		if (r.vtime_ns)	/* a transport with a virtual clock */
			printf(" vlat=%u vtime=%llu", r.vlat_ns,
			       (unsigned long long)r.vtime_ns);
		putchar('\n');
		/* tests read the log while we run (and kill us) */
		fflush(stdout);
	}
	printf("total %d bad %d\n", total, bad);
	return 0;
}

static long long now_us(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1000000ll + t.tv_nsec / 1000;
}

/* "s-torus", "mu-torus:4", ... as mcast_send.algorithm (exits if unknown). */
static uint32_t parse_algo(const char *s)
{
	static const char *const names[] = {
		"auto", "u-torus", "s-torus", "md-torus", "mu-torus", "binomial",
		"u-cube", "maxport", "combine", "w-sort", "ring", "rb",
		"rb-all-port",
	};
	size_t n = strcspn(s, ":");
	uint32_t a;

	for (a = 0; a < sizeof(names) / sizeof(names[0]); a++)
		if (strlen(names[a]) == n && !strncmp(s, names[a], n))
			return a | (s[n] ? strtoul(s + n + 1, NULL, 0) << 8 : 0);
	die("tx: unknown algorithm %s", s);
	return 0;
}

/*
 * tx g:GROUP|n:ID,ID.. SIZE[,SIZE..] [wait[=MS]] [loop] [separate] [count=N]
 *    [gap=MS] [offload|no-offload] [algo=NAME[:R]]: send each size (N times),
 *    one line per send,
 *    ms= is the time since the first send began (to show a stall).
 */
static int cmd_tx(int argc, char **argv)
{
	static unsigned char buf[MCAST_MAX_MSG];
	static uint32_t nodes[4096], failed[4096], sizes[64];
	int fd = mc_open(), nsizes, nnodes = 0, i, k, count = 1, gap = 0, rc = 0;
	uint32_t group = 0, flags = 0, timeout = 0, self = my_node(fd), j;
	uint32_t algorithm = 0;
	struct mcast_recv rv;
	struct mcast_iov iov;
	struct mcast_send s;
	long long t0;

	if (!strncmp(argv[0], "g:", 2))
		group = strtoul(argv[0] + 2, NULL, 0);
	else if (!strncmp(argv[0], "n:", 2))
		nnodes = parse_list(argv[0] + 2, nodes, 4096);
	else
		die("tx: target g:GROUP or n:LIST");
	nsizes = parse_list(argv[1], sizes, 64);
	for (i = 2; i < argc; i++) {
		if (!strncmp(argv[i], "wait", 4)) {
			flags |= MCAST_SEND_WAIT;
			if (argv[i][4] == '=')
				timeout = scaled_ms(atoi(argv[i] + 5));
		} else if (!strcmp(argv[i], "loop")) {
			flags |= MCAST_SEND_LOOPBACK;
		} else if (!strcmp(argv[i], "separate")) {
			flags |= MCAST_SEND_SEPARATE;
		} else if (!strcmp(argv[i], "offload")) {
			flags |= MCAST_SEND_OFFLOAD;
		} else if (!strcmp(argv[i], "no-offload")) {
			flags |= MCAST_SEND_NO_OFFLOAD;
		} else if (!strncmp(argv[i], "algo=", 5)) {
			flags |= MCAST_SEND_ALGORITHM;
			algorithm = parse_algo(argv[i] + 5);
		} else if (!strncmp(argv[i], "count=", 6)) {
			count = atoi(argv[i] + 6);
		} else if (!strncmp(argv[i], "gap=", 4)) {
			gap = atoi(argv[i] + 4);
		} else {
			die("tx: bad option %s", argv[i]);
		}
	}
	if (!group)
		flags |= MCAST_SEND_NODES;
	t0 = now_us();
	for (k = 0; k < count; k++) {
		for (i = 0; i < nsizes; i++) {
			int err;

			for (j = 0; j < sizes[i]; j++)
				buf[j] = pat(self, sizes[i], j);
			iov = (struct mcast_iov){ (uintptr_t)buf, sizes[i] };
			s = (struct mcast_send){
				.size = sizeof(s), .flags = flags, .group = group,
				.iov = (uintptr_t)&iov, .niov = 1,
				.nodes = group ? 0 : (uintptr_t)nodes,
				.nnodes = group ? 0 : nnodes,
				.algorithm = algorithm,
			};
			if (flags & MCAST_SEND_WAIT) {
				s.failed = (uintptr_t)failed;
				s.nfailed = 4096;
				s.timeout_ms = timeout;
			}
			err = xioctl(fd, MCAST_IOC_SEND, &s);
			printf("sent ms=%lld seq=%llu len=%u rc=%s",
			       (now_us() - t0) / 1000, (unsigned long long)s.seq,
			       sizes[i], err ? ename(err) : "0");
			if (flags & MCAST_SEND_WAIT) {
				printf(" nfailed=%u failed=", s.nfailed);
				for (j = 0; j < s.nfailed && j < 4096; j++)
					printf("%s%u", j ? "," : "", failed[j]);
			}
			printf("\n");
			if (err && err != EHOSTUNREACH)
				rc = 1;
			if (gap)
				usleep(gap * 1000);
		}
	}
	/* The sending file never gets its own message without loopback. */
	while (mc_recv(fd, MCAST_RECV_DONTWAIT, buf, sizeof(buf), &rv) >= 0)
		printf("self-received seq=%llu src=%u%s\n", (unsigned long long)rv.seq,
		       rv.src_node, flags & MCAST_SEND_LOOPBACK ? " (loopback)" : "");
	return rc;
}

/* ------------------------------------------------ modes: io_uring, burst */

/* g:GROUP or n:ID,ID..: the group (0 for a node list) and the list. */
static uint32_t parse_target(const char *s, uint32_t *nodes, int max, int *n)
{
	*n = 0;
	if (!strncmp(s, "g:", 2))
		return strtoul(s + 2, NULL, 0);
	if (!strncmp(s, "n:", 2)) {
		*n = parse_list(s + 2, nodes, max);
		return 0;
	}
	die("target g:GROUP or n:LIST, not %s", s);
	return 0;
}

/* A netlink socket in the named netns (/run/netns/NAME), from here. */
static void nl_setup_in(struct nl *nl, const char *name)
{
	int orig = open("/proc/self/ns/net", O_RDONLY | O_CLOEXEC), ns;
	char path[256];

	snprintf(path, sizeof(path), "/run/netns/%s", name);
	ns = open(path, O_RDONLY | O_CLOEXEC);
	if (ns < 0) {
		snprintf(path, sizeof(path), "/var/run/netns/%s", name);
		ns = open(path, O_RDONLY | O_CLOEXEC);
	}
	if (ns < 0 || orig < 0)
		die("netns %s: %s", name, strerror(errno));
	if (setns(ns, CLONE_NEWNET))
		die("setns %s: %s", name, strerror(errno));
	nl_setup(nl);
	if (setns(orig, CLONE_NEWNET))
		die("setns back: %s", strerror(errno));
	close(ns);
	close(orig);
}

static void rx_msgs_cb(const struct genlmsghdr *g, const void *attrs, int len,
		       void *arg)
{
	const struct nlattr *tb[MCAST_A_MAX + 1], *t[MCAST_STATS_A_MAX + 1];

	(void)g;
	parse_attrs(attrs, len, tb, MCAST_A_MAX);
	if (!tb[MCAST_A_STATS])
		return;
	parse_attrs(nla_data(tb[MCAST_A_STATS]), nla_dlen(tb[MCAST_A_STATS]),
		    t, MCAST_STATS_A_MAX);
	if (t[MCAST_STATS_A_RX_MSGS])
		*(uint64_t *)arg = get_u64(t[MCAST_STATS_A_RX_MSGS]);
}

/* The node's rx_msgs: messages it queued to its files. */
static uint64_t node_rx_msgs(struct nl *nl)
{
	uint64_t v = ~0ull;
	int err;

	msg_init(&req, nl->family, 0, MCAST_CMD_STATS_GET);
	err = nl_talk(nl, &req, rx_msgs_cb, &v);
	if (err)
		die("STATS_GET: %s", ename(-err));
	return v;
}

/*
 * usend g:GROUP|n:LIST SIZE [wait[=MS]] [peek=NS,NS..]: one test message
 * sent with io_uring (IORING_OP_URING_CMD, MCAST_URING_SEND).  peek: the
 * netns (names under /run/netns) whose node rx_msgs is read before the
 * send and at once when the completion arrives, then again until it grew
 * (at most 20 s).  Prints
 *   cqe res=0|ENAME seq=S nfailed=N failed=ID,.. ms=T
 *   peek ns=NAME at_cqe=D later=D
 * (D: rx_msgs growth).  Exits 0 if a completion came.
 */
static int cmd_usend(int argc, char **argv)
{
	static unsigned char buf[MCAST_MAX_MSG];
	static uint32_t nodes[4096], failed[4096];
	static struct nl peek[64];
	static char *names[64];
	uint64_t before[64], at[64], later[64];
	int fd = mc_open(), nnodes, npeek = 0, i, res;
	uint32_t group, flags = 0, timeout = 0, self = my_node(fd), size, j;
	struct mcast_iov iov;
	struct mcast_send s;
	struct ring r;
	long long t0, t1;
	uint64_t data;

	group = parse_target(argv[0], nodes, 4096, &nnodes);
	size = strtoul(argv[1], NULL, 0);
	if (size > MCAST_MAX_MSG)
		die("usend: size above %u", MCAST_MAX_MSG);
	for (i = 2; i < argc; i++) {
		if (!strncmp(argv[i], "wait", 4)) {
			flags |= MCAST_SEND_WAIT;
			if (argv[i][4] == '=')
				timeout = scaled_ms(atoi(argv[i] + 5));
		} else if (!strncmp(argv[i], "peek=", 5)) {
			char *p = strdup(argv[i] + 5), *save = NULL, *tok;

			for (tok = strtok_r(p, ",", &save); tok && npeek < 64;
			     tok = strtok_r(NULL, ",", &save))
				names[npeek++] = tok;
		} else {
			die("usend: bad option %s", argv[i]);
		}
	}
	if (!group)
		flags |= MCAST_SEND_NODES;
	for (i = 0; i < npeek; i++) {
		nl_setup_in(&peek[i], names[i]);
		before[i] = node_rx_msgs(&peek[i]);
	}
	res = ring_init(&r);
	if (res) {
		printf("SKIP io_uring unavailable: %s\n", ename(-res));
		return 0;
	}
	for (j = 0; j < size; j++)
		buf[j] = pat(self, size, j);
	iov = (struct mcast_iov){ (uintptr_t)buf, size };
	s = (struct mcast_send){
		.size = sizeof(s), .flags = flags, .group = group,
		.iov = (uintptr_t)&iov, .niov = 1,
		.nodes = group ? 0 : (uintptr_t)nodes,
		.nnodes = group ? 0 : nnodes,
	};
	if (flags & MCAST_SEND_WAIT) {
		s.failed = (uintptr_t)failed;
		s.nfailed = 4096;
		s.timeout_ms = timeout;
	}
	t0 = now_us();
	ring_submit(&r, fd, MCAST_URING_SEND, &s, 7);
	res = ring_wait(&r, &data, 120000);
	t1 = now_us();
	/* First what the destinations hold at completion time. */
	for (i = 0; i < npeek; i++)
		at[i] = node_rx_msgs(&peek[i]) - before[i];
	if (res == -ETIMEDOUT) {
		printf("cqe none after 120 s\n");
		return 1;
	}
	printf("cqe res=%s data=%llu seq=%llu", res ? ename(-res) : "0",
	       (unsigned long long)data, (unsigned long long)s.seq);
	if (flags & MCAST_SEND_WAIT) {
		printf(" nfailed=%u failed=", s.nfailed);
		for (j = 0; j < s.nfailed && j < 4096; j++)
			printf("%s%u", j ? "," : "", failed[j]);
	}
	printf(" ms=%lld\n", (t1 - t0) / 1000);
	for (i = 0; i < npeek; i++) {
		long long end = now_us() + 20000000ll;

		do {
			later[i] = node_rx_msgs(&peek[i]) - before[i];
			if (later[i])
				break;
			usleep(20000);
		} while (now_us() < end);
		printf("peek ns=%s at_cqe=%llu later=%llu\n", names[i],
		       (unsigned long long)at[i], (unsigned long long)later[i]);
	}
	close(r.fd);
	close(fd);
	return 0;
}

/*
 * burst g:GROUP|n:LIST SIZE COUNT [nonblock] [retry=MS|poll]: COUNT test
 * messages of SIZE+k bytes (k = 0..COUNT-1, so each is told apart by its
 * length) as fast as the file takes them.  nonblock: the file is opened
 * O_NONBLOCK; a send refused with EAGAIN is noted, then sent again after
 * retry MS (default 20) or, with poll, once poll(POLLOUT) reports room
 * (at most a minute); a refusal right after such a poll is counted.
 * Prints "sent k=K seq=S len=L rc=0 us=LATENCY" per accepted send,
 * "eagain k=K after_poll=0|1" per refusal, then
 *   burst sent=N eagain=E eagain_after_poll=A poll_timeouts=T max_us=M failed=F
 * Exits 1 if a send failed otherwise.
 */
static int cmd_burst(int argc, char **argv)
{
	static unsigned char buf[MCAST_MAX_MSG];
	static uint32_t nodes[4096];
	int fd, nnodes, i, count, retry = 20, nonblock = 0, use_poll = 0, err;
	int sent = 0, eagain = 0, after_poll, eagain_after_poll = 0;
	int poll_timeouts = 0, bad = 0;
	uint32_t group, flags = 0, size, self, len, j;
	long long t0, t_first, lat, max_lat = 0;
	struct mcast_recv rv;
	struct mcast_iov iov;
	struct mcast_send s;
	struct pollfd p;

	group = parse_target(argv[0], nodes, 4096, &nnodes);
	size = strtoul(argv[1], NULL, 0);
	count = atoi(argv[2]);
	for (i = 3; i < argc; i++) {
		if (!strcmp(argv[i], "nonblock"))
			nonblock = 1;
		else if (!strncmp(argv[i], "retry=", 6))
			retry = atoi(argv[i] + 6);
		else if (!strcmp(argv[i], "poll"))
			use_poll = 1;
		else
			die("burst: bad option %s", argv[i]);
	}
	if (count < 0 || size + count > MCAST_MAX_MSG)
		die("burst: SIZE + COUNT above %u", MCAST_MAX_MSG);
	fd = open("/dev/" MCAST_DEVICE_NAME,
		  O_RDWR | O_CLOEXEC | (nonblock ? O_NONBLOCK : 0));
	if (fd < 0)
		die("open /dev/mcast: %s", strerror(errno));
	self = my_node(fd);
	if (!group)
		flags |= MCAST_SEND_NODES;
	for (i = 0; i < count; i++) {
		len = size + i;
		for (j = 0; j < len; j++)
			buf[j] = pat(self, len, j);
		t_first = 0;
		after_poll = 0;
		for (;;) {
			iov = (struct mcast_iov){ (uintptr_t)buf, len };
			s = (struct mcast_send){
				.size = sizeof(s), .flags = flags,
				.group = group, .iov = (uintptr_t)&iov,
				.niov = 1,
				.nodes = group ? 0 : (uintptr_t)nodes,
				.nnodes = group ? 0 : nnodes,
			};
			t0 = now_us();
			err = xioctl(fd, MCAST_IOC_SEND, &s);
			lat = now_us() - t0;
			if (err != EAGAIN)
				break;
			if (!t_first)
				t_first = t0;
			else if (t0 - t_first > 60000000ll)
				break;	/* no room for a minute: give up */
			eagain++;
			eagain_after_poll += after_poll;
			printf("eagain k=%d after_poll=%d\n", i, after_poll);
			if (!use_poll) {
				usleep(retry * 1000);
				continue;
			}
			/* EPOLLOUT: room for a send of any size */
			p = (struct pollfd){ .fd = fd, .events = POLLOUT };
			if (poll(&p, 1, 60000) != 1 || !(p.revents & POLLOUT))
				poll_timeouts++;
			after_poll = 1;
		}
		if (err) {
			printf("send k=%d len=%u rc=%s\n", i, len, ename(err));
			bad++;
			continue;
		}
		sent++;
		if (lat > max_lat)
			max_lat = lat;
		printf("sent k=%d seq=%llu len=%u rc=0 us=%lld\n", i,
		       (unsigned long long)s.seq, len, lat);
	}
	while (mc_recv(fd, MCAST_RECV_DONTWAIT, buf, sizeof(buf), &rv) >= 0)
		printf("self-received seq=%llu\n", (unsigned long long)rv.seq);
	printf("burst sent=%d eagain=%d eagain_after_poll=%d poll_timeouts=%d max_us=%lld failed=%d\n",
	       sent, eagain, eagain_after_poll, poll_timeouts, max_lat, bad);
	close(fd);
	return bad ? 1 : 0;
}

/* watch MS: print the data path's events (PEER_DOWN, ERROR, SEND_FAILED) for MS ms. */
/*
 * systemd's side of sd_notify for mcastd's test: a datagram socket at
 * PATH, each message printed on one line (newlines as '|') for MS ms.
 */
static int cmd_notify_listen(const char *path, int ms)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	char buf[1024];
	struct pollfd p;
	long long end = now_us() + ms * 1000LL;
	ssize_t n, i;
	int fd;

	if (strlen(path) >= sizeof(sa.sun_path))
		die("notify-listen: path too long");
	strcpy(sa.sun_path, path);
	unlink(path);
	fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0 || bind(fd, (struct sockaddr *)&sa, sizeof(sa)))
		die("notify-listen: %s", strerror(errno));
	printf("listening\n");
	fflush(stdout);
	while (now_us() < end) {
		p = (struct pollfd){ .fd = fd, .events = POLLIN };
		if (poll(&p, 1, 100) <= 0)
			continue;
		n = recv(fd, buf, sizeof(buf) - 1, 0);
		if (n <= 0)
			continue;
		for (i = 0; i < n; i++)
			if (buf[i] == '\n')
				buf[i] = '|';
		buf[n] = 0;
		printf("notify %s\n", buf);
		fflush(stdout);
	}
	close(fd);
	unlink(path);
	return 0;
}

/* event send-failed group=G seq=S nodes=ID,.. trunc=0|1 */
static void print_send_failed(const struct nlattr **et)
{
	const struct nlattr *a = et[MCAST_EVENT_A_NODES];
	uint32_t i, n = a ? nla_dlen(a) / 4 : 0, id;

	printf("event send-failed group=%u seq=%llu nodes=",
	       et[MCAST_EVENT_A_GROUP] ? get_u32(et[MCAST_EVENT_A_GROUP]) : 0,
	       et[MCAST_EVENT_A_SEQ] ? (unsigned long long)get_u64(et[MCAST_EVENT_A_SEQ]) : 0ull);
	for (i = 0; i < n; i++) {
		memcpy(&id, (const char *)nla_data(a) + 4 * i, 4);
		printf("%s%u", i ? "," : "", id);
	}
	printf(" trunc=%d\n", et[MCAST_EVENT_A_TRUNC] != NULL);
}

static int cmd_watch(int ms)
{
	static char rbuf[1 << 17];
	struct pollfd p;
	struct nl nl;
	struct timespec t0, t;
	int left = ms, rcvbuf = 8 << 20;	/* a burst of events must fit */

	nl_setup(&nl);
	if (setsockopt(nl.fd, SOL_SOCKET, SO_RCVBUFFORCE, &rcvbuf, sizeof(rcvbuf)))
		die("SO_RCVBUFFORCE: %s", strerror(errno));
	nl_subscribe(&nl);
	printf("watching\n");
	clock_gettime(CLOCK_MONOTONIC, &t0);
	while (left > 0) {
		ssize_t len;
		struct nlmsghdr *h;

		p = (struct pollfd){ .fd = nl.fd, .events = POLLIN };
		if (poll(&p, 1, left) > 0) {
			len = recv(nl.fd, rbuf, sizeof(rbuf), MSG_DONTWAIT);
			for (h = (struct nlmsghdr *)rbuf; len > 0 && NLMSG_OK(h, len);
			     h = NLMSG_NEXT(h, len)) {
				const struct genlmsghdr *g = NLMSG_DATA(h);
				const struct nlattr *tb[MCAST_A_MAX + 1];
				const struct nlattr *et[MCAST_EVENT_A_MAX + 1];

				if (h->nlmsg_type != nl.family ||
				    (g->cmd != MCAST_CMD_PEER_DOWN &&
				     g->cmd != MCAST_CMD_ERROR &&
				     g->cmd != MCAST_CMD_SEND_FAILED))
					continue;
				parse_attrs((const char *)g + GENL_HDRLEN,
					    h->nlmsg_len - NLMSG_HDRLEN - GENL_HDRLEN,
					    tb, MCAST_A_MAX);
				if (!tb[MCAST_A_EVENT])
					continue;
				parse_attrs(nla_data(tb[MCAST_A_EVENT]),
					    nla_dlen(tb[MCAST_A_EVENT]), et,
					    MCAST_EVENT_A_MAX);
				if (g->cmd == MCAST_CMD_SEND_FAILED) {
					print_send_failed(et);
					continue;
				}
				printf("event %s node=%u group=%u seq=%llu errno=%u\n",
				       g->cmd == MCAST_CMD_PEER_DOWN ? "peer-down" : "error",
				       et[MCAST_EVENT_A_NODE] ? get_u32(et[MCAST_EVENT_A_NODE]) : ~0u,
				       et[MCAST_EVENT_A_GROUP] ? get_u32(et[MCAST_EVENT_A_GROUP]) : 0,
				       et[MCAST_EVENT_A_SEQ] ? (unsigned long long)get_u64(et[MCAST_EVENT_A_SEQ]) : 0ull,
				       et[MCAST_EVENT_A_ERRNO] ? get_u32(et[MCAST_EVENT_A_ERRNO]) : 0);
			}
		}
		clock_gettime(CLOCK_MONOTONIC, &t);
		left = ms - (int)((t.tv_sec - t0.tv_sec) * 1000 +
				  (t.tv_nsec - t0.tv_nsec) / 1000000);
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct nl nl;
	int rc;

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc < 2)
		die("usage: see the top of mcast_probe.c");
	if (!strcmp(argv[1], "nobody") && argc >= 3) {
		/* The rest of the command as an unprivileged user. */
		if (setgroups(0, NULL) || setgid(65534) || setuid(65534))
			die("setuid: %s", strerror(errno));
		argv++;
		argc--;
	}
	if (!strcmp(argv[1], "userns") && argc >= 3) {
		enter_userns();
		argv++;
		argc--;
	}
	if (!strcmp(argv[1], "exec") && argc >= 3) {
		execvp(argv[2], argv + 2);
		die("exec %s: %s", argv[2], strerror(errno));
	}
	if (!strcmp(argv[1], "info"))
		return cmd_info();
	if (!strcmp(argv[1], "notify-listen") && argc >= 4)
		return cmd_notify_listen(argv[2], atoi(argv[3]));
	if (!strcmp(argv[1], "watch") && argc >= 3)
		return cmd_watch(scaled_ms(atoi(argv[2])));
	if (!strcmp(argv[1], "rx") && argc >= 4)
		return cmd_rx(argv[2], scaled_ms(atoi(argv[3])),
			      argc >= 5 ? atoi(argv[4]) : -1,
			      argc >= 6 ? argv[5] : NULL);
	if (!strcmp(argv[1], "tx") && argc >= 4)
		return cmd_tx(argc - 2, argv + 2);
	if (!strcmp(argv[1], "usend") && argc >= 4)
		return cmd_usend(argc - 2, argv + 2);
	if (!strcmp(argv[1], "burst") && argc >= 5)
		return cmd_burst(argc - 2, argv + 2);
	if (!strcmp(argv[1], "ioctl-errors") && argc >= 3)
		return cmd_ioctl_errors(strtoul(argv[2], NULL, 0));
	if (!strcmp(argv[1], "deliver") && argc >= 4)
		return cmd_deliver(strtoul(argv[2], NULL, 0), atoi(argv[3]));
	if (!strcmp(argv[1], "block") && argc >= 3)
		return cmd_block(strtoul(argv[2], NULL, 0));
	if (!strcmp(argv[1], "overflow") && argc >= 3)
		return cmd_overflow(strtoul(argv[2], NULL, 0));
	if (!strcmp(argv[1], "lossless") && argc >= 4)
		return cmd_lossless(strtoul(argv[2], NULL, 0), atoi(argv[3]));
	if (!strcmp(argv[1], "stress") && argc >= 4)
		return cmd_stress(strtoul(argv[2], NULL, 0), atoi(argv[3]));
	if (!strcmp(argv[1], "nodes"))
		return cmd_nodes();
	if (!strcmp(argv[1], "events") && argc >= 3)
		return cmd_events(strtoul(argv[2], NULL, 0));
	if (!strcmp(argv[1], "uring") && argc >= 3)
		return cmd_uring(strtoul(argv[2], NULL, 0));
	if (!strcmp(argv[1], "hold") && argc >= 3)
		return cmd_hold(strtoul(argv[2], NULL, 0),
				argc >= 4 ? atoi(argv[3]) : 0);
	nl_setup(&nl);
	rc = cmd_netlink(&nl, argc - 1, argv + 1);
	if (rc < 0)
		die("unknown command or missing arguments: %s", argv[1]);
	return rc;
}
