// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * mcastmon: print the mcast kernel module's notifications as they happen.
 *
 * Subscribes to the "events" multicast group of the "mcast" generic
 * netlink family and prints one line per notification: a timestamp and
 * what changed (node, peers, groups, local members joining and leaving,
 * receive queue overflows, data path errors).  -j prints one JSON object
 * per line instead.  Node ids are shown as coordinates once the node's
 * topology is known (asked at start, then followed through node events).
 *
 * Shares the netlink plumbing, the parsers and the JSON writer with
 * mcastctl (utils/mcastctl/).
 */
#include <arpa/inet.h>
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/socket.h>

#include <netlink/attr.h>
#include <netlink/genl/ctrl.h>
#include <netlink/genl/genl.h>

#include "complete.h"
#include "json.h"
#include "mcastctl.h"
#include "nl.h"
#include "parse.h"

#ifdef MCAST_VERSION
#define MCASTMON_VERSION MCAST_VERSION
#else
#define MCASTMON_VERSION "unknown"
#endif

/* Exit statuses, documented in mcastmon(8). */
enum {
	MON_OK = 0,
	MON_EUSAGE = 2,
	MON_EKERNEL = 4,	/* not loaded, or netlink failed */
};

struct mon {
	bool json;
	unsigned long limit;	/* stop after this many events (0: never) */
	unsigned long count;
	struct ctl_node node;	/* for coordinates */
	int family;
	bool unloaded;		/* the family went away: rmmod */
};

static const char *const event_names[] = {
	[MCAST_CMD_NODE_GET] = "node",
	[MCAST_CMD_NODE_SET] = "node",
	[MCAST_CMD_PEER_NEW] = "peer-add",
	[MCAST_CMD_PEER_DEL] = "peer-del",
	[MCAST_CMD_GROUP_NEW] = "group-add",
	[MCAST_CMD_GROUP_DEL] = "group-del",
	[MCAST_CMD_GROUP_SET] = "group-set",
	[MCAST_CMD_MEMBER_JOIN] = "join",
	[MCAST_CMD_MEMBER_LEAVE] = "leave",
	[MCAST_CMD_OVERFLOW] = "overflow",
	[MCAST_CMD_CUTOFF] = "cutoff",
	[MCAST_CMD_FABRIC_ALARM] = "fabric-alarm",
	[MCAST_CMD_ERROR] = "error",
	[MCAST_CMD_PEER_DOWN] = "peer-down",
	[MCAST_CMD_SEND_FAILED] = "send-failed",
};

/*
 * A burst of events (a send to hundreds of unreachable nodes raises one
 * each) must not overflow the socket: 4 MiB, past net.core.rmem_max if
 * the caller may (CAP_NET_ADMIN), else as much as rmem_max allows.
 */
#define MON_RCVBUF	(4 << 20)

static void grow_rcvbuf(struct nl_sock *sk)
{
	int fd = nl_socket_get_fd(sk), size = MON_RCVBUF;

	if (setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &size, sizeof(size)))
		setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, sizeof(size));
}

static void usage(FILE *f)
{
	fputs("usage: mcastmon [-j] [-c COUNT]\n"
	      "       mcastmon --version\n"
	      "\n"
	      "Prints the mcast module's notifications as they happen, one line each.\n"
	      "  -j, --json        one JSON object per line\n"
	      "  -c, --count N     exit after N notifications\n"
	      "  -h, --help        this text\n"
	      "  -V, --version     the version\n", f);
}

static void timestamp(struct mon *m, char *buf, size_t size)
{
	struct timespec ts;
	struct tm tm;
	size_t n;

	clock_gettime(CLOCK_REALTIME, &ts);
	if (m->json)
		gmtime_r(&ts.tv_sec, &tm);
	else
		localtime_r(&ts.tv_sec, &tm);
	n = strftime(buf, size, m->json ? "%Y-%m-%dT%H:%M:%S" : "%Y-%m-%d %H:%M:%S",
		     &tm);
	snprintf(buf + n, size - n, m->json ? ".%06ldZ" : ".%03ld",
		 m->json ? ts.tv_nsec / 1000 : ts.tv_nsec / 1000000);
}

/* A node as a coordinate if the topology is known and it fits. */
static void text_node(struct mon *m, u32 id)
{
	char buf[COORD_STR_MAX];

	if (m->node.configured && id < m->node.t.nodes)
		printf(" %s", format_coord(&m->node.t, id, true, buf));
	else
		printf(" #%u", id);
}

static void json_node(struct mon *m, struct json *j, u32 id)
{
	u16 sigma[MC_MAX_DIMS];
	int i;

	if (!m->node.configured || id >= m->node.t.nodes) {
		json_uint(j, id);
		return;
	}
	mc_node_coords(&m->node.t, id, sigma);
	json_arr_begin(j);
	for (i = m->node.t.n - 1; i >= 0; i--)
		json_uint(j, sigma[i]);
	json_arr_end(j);
}

static void on_node(struct mon *m, struct json *j, struct nlattr *nest)
{
	char topo[96];
	int i;

	if (ctl_parse_node(nest, &m->node)) {
		memset(&m->node, 0, sizeof(m->node));
		if (j)
			json_key_str(j, "node", "malformed");
		else
			printf(" (malformed)");
		return;
	}
	if (j) {
		json_key(j, "node");
		json_obj_begin(j);
		json_key_bool(j, "configured", m->node.configured);
		if (m->node.configured) {
			json_key_uint(j, "id", m->node.id);
			json_key(j, "coord");
			json_node(m, j, m->node.id);
			json_key(j, "topology");
			json_obj_begin(j);
			json_key_str(j, "kind", "torus");
			json_key(j, "dims");
			json_arr_begin(j);
			for (i = m->node.t.n - 1; i >= 0; i--)
				json_uint(j, m->node.t.k[i]);
			json_arr_end(j);
			json_key_str(j, "links", m->node.t.links == MC_LINKS_BI ?
				     "bi" : "uni");
			json_key_uint(j, "nodes", m->node.t.nodes);
			json_obj_end(j);
		}
		json_obj_end(j);
		return;
	}
	if (!m->node.configured) {
		printf(" not configured");
		return;
	}
	printf(" %u", m->node.id);
	text_node(m, m->node.id);
	printf(" %s", ctl_topology_str(&m->node.t, topo));
}

static void on_peer(struct mon *m, struct json *j, struct nlattr *nest)
{
	struct nlattr *tb[MCAST_PEER_A_MAX + 1];
	char addr[INET6_ADDRSTRLEN] = "";
	u32 id = MCAST_NO_NODE;

	if (!nest || nla_parse_nested(tb, MCAST_PEER_A_MAX, nest, NULL) < 0) {
		if (!j)
			printf(" (malformed)");
		return;
	}
	if (tb[MCAST_PEER_A_ID])
		id = nla_get_u32(tb[MCAST_PEER_A_ID]);
	if (tb[MCAST_PEER_A_IPV4] && nla_len(tb[MCAST_PEER_A_IPV4]) == 4)
		inet_ntop(AF_INET, nla_data(tb[MCAST_PEER_A_IPV4]), addr,
			  sizeof(addr));
	else if (tb[MCAST_PEER_A_IPV6] && nla_len(tb[MCAST_PEER_A_IPV6]) == 16)
		inet_ntop(AF_INET6, nla_data(tb[MCAST_PEER_A_IPV6]), addr,
			  sizeof(addr));
	if (j) {
		json_key(j, "peer");
		json_obj_begin(j);
		json_key_uint(j, "id", id);
		if (m->node.configured && id < m->node.t.nodes) {
			json_key(j, "coord");
			json_node(m, j, id);
		}
		if (addr[0])
			json_key_str(j, "addr", addr);
		if (tb[MCAST_PEER_A_PORT])
			json_key_uint(j, "port",
				      nla_get_u16(tb[MCAST_PEER_A_PORT]));
		json_obj_end(j);
		return;
	}
	text_node(m, id);
	printf(" id %u", id);
	if (addr[0])
		printf(" addr %s", addr);
	if (tb[MCAST_PEER_A_PORT])
		printf(" port %u", nla_get_u16(tb[MCAST_PEER_A_PORT]));
}

static void nodes_attr(struct mon *m, struct json *j, const char *key,
		       struct nlattr *a)
{
	u32 i, n, v;

	if (!a)
		return;
	n = nla_len(a) / sizeof(u32);
	if (j) {
		json_key(j, key);
		json_arr_begin(j);
	} else {
		printf(" %s", key);
	}
	for (i = 0; i < n; i++) {
		memcpy(&v, (char *)nla_data(a) + i * sizeof(u32), sizeof(v));
		if (j)
			json_node(m, j, v);
		else
			text_node(m, v);
	}
	if (j)
		json_arr_end(j);
}

static void on_group(struct mon *m, struct json *j, struct nlattr *nest)
{
	struct nlattr *tb[MCAST_GROUP_A_MAX + 1];
	static const struct {
		int attr;
		const char *key;
	} u32s[] = {
		{ MCAST_GROUP_A_ID, "id" },
		{ MCAST_GROUP_A_EPOCH, "epoch" },
		{ MCAST_GROUP_A_LOCAL, "local" },
	};
	size_t i;

	if (!nest || nla_parse_nested(tb, MCAST_GROUP_A_MAX, nest, NULL) < 0) {
		if (!j)
			printf(" (malformed)");
		return;
	}
	if (j) {
		json_key(j, "group");
		json_obj_begin(j);
	}
	for (i = 0; i < sizeof(u32s) / sizeof(u32s[0]); i++) {
		struct nlattr *a = tb[u32s[i].attr];

		if (!a)
			continue;
		if (j)
			json_key_uint(j, u32s[i].key, nla_get_u32(a));
		else if (i == 0)
			printf(" %u", nla_get_u32(a));
		else
			printf(" %s %u", u32s[i].key, nla_get_u32(a));
	}
	if (tb[MCAST_GROUP_A_MANAGED] && nla_get_u8(tb[MCAST_GROUP_A_MANAGED])) {
		if (j)
			json_key_bool(j, "managed", true);
		else
			printf(" managed");
	}
	nodes_attr(m, j, "members", tb[MCAST_GROUP_A_MEMBERS]);
	nodes_attr(m, j, "rchain", tb[MCAST_GROUP_A_RCHAIN]);
	nodes_attr(m, j, "hcycle", tb[MCAST_GROUP_A_HCYCLE]);
	if (j)
		json_obj_end(j);
}

/* The node and message an event concerns (PEER_DOWN, ERROR, SEND_FAILED). */
static void event_subject(struct mon *m, struct json *j, struct nlattr **tb)
{
	unsigned long long seq;

	if (tb[MCAST_EVENT_A_NODE]) {
		if (j) {
			json_key(j, "node");
			json_node(m, j, nla_get_u32(tb[MCAST_EVENT_A_NODE]));
		} else {
			printf(" node");
			text_node(m, nla_get_u32(tb[MCAST_EVENT_A_NODE]));
		}
	}
	if (tb[MCAST_EVENT_A_SEQ]) {
		seq = nla_get_u64(tb[MCAST_EVENT_A_SEQ]);
		if (j)
			json_key_uint(j, "seq", seq);
		else
			printf(" seq %llu", seq);
	}
	nodes_attr(m, j, "failed", tb[MCAST_EVENT_A_NODES]);
	if (tb[MCAST_EVENT_A_TRUNC]) {
		if (j)
			json_key_bool(j, "truncated", true);
		else
			printf(" (truncated)");
	}
}

static void on_event(struct mon *m, struct json *j, struct nlattr *nest)
{
	struct nlattr *tb[MCAST_EVENT_A_MAX + 1];
	static const struct {
		int attr;
		const char *key;
	} u32s[] = {
		{ MCAST_EVENT_A_GROUP, "group" },
		{ MCAST_EVENT_A_PID, "pid" },
		{ MCAST_EVENT_A_DROPS, "drops" },
		{ MCAST_EVENT_A_ERRNO, "errno" },
	};
	char msg[256] = "";
	size_t i;

	if (!nest || nla_parse_nested(tb, MCAST_EVENT_A_MAX, nest, NULL) < 0) {
		if (!j)
			printf(" (malformed)");
		return;
	}
	if (tb[MCAST_EVENT_A_MSG])
		snprintf(msg, sizeof(msg), "%.*s", nla_len(tb[MCAST_EVENT_A_MSG]),
			 (char *)nla_data(tb[MCAST_EVENT_A_MSG]));
	for (i = 0; i < sizeof(u32s) / sizeof(u32s[0]); i++) {
		struct nlattr *a = tb[u32s[i].attr];

		if (!a)
			continue;
		if (j)
			json_key_uint(j, u32s[i].key, nla_get_u32(a));
		else
			printf(" %s %u", u32s[i].key, nla_get_u32(a));
		if (!j && u32s[i].attr == MCAST_EVENT_A_ERRNO)
			printf(" (%s)", strerror(nla_get_u32(a)));
	}
	event_subject(m, j, tb);
	if (tb[MCAST_EVENT_A_MSG]) {
		if (j)
			json_key_str(j, "msg", msg);
		else
			printf(": %s", msg);
	}
}

/* nlctrl's notification that a family was unregistered: is it ours? */
static bool family_gone(struct nlmsghdr *nlh)
{
	struct genlmsghdr *g = nlmsg_data(nlh);
	struct nlattr *tb[CTRL_ATTR_MAX + 1];

	if (nlh->nlmsg_type != GENL_ID_CTRL || g->cmd != CTRL_CMD_DELFAMILY ||
	    genlmsg_parse(nlh, 0, tb, CTRL_ATTR_MAX, NULL) < 0 ||
	    !tb[CTRL_ATTR_FAMILY_NAME])
		return false;
	return !strcmp(nla_get_string(tb[CTRL_ATTR_FAMILY_NAME]),
		       MCAST_GENL_NAME);
}

static int on_message(struct nl_msg *msg, void *arg)
{
	struct mon *m = arg;
	struct nlmsghdr *nlh = nlmsg_hdr(msg);
	struct genlmsghdr *g = nlmsg_data(nlh);
	struct nlattr *tb[MCAST_A_MAX + 1];
	const char *name = NULL;
	char ts[64];
	struct json jw, *j = NULL;

	if (family_gone(nlh)) {
		m->unloaded = true;
		return NL_STOP;
	}
	if (nlh->nlmsg_type != m->family)
		return NL_OK;
	if (genlmsg_parse(nlh, 0, tb, MCAST_A_MAX, NULL) < 0)
		memset(tb, 0, sizeof(tb));
	if (g->cmd < sizeof(event_names) / sizeof(event_names[0]))
		name = event_names[g->cmd];
	timestamp(m, ts, sizeof(ts));
	if (m->json) {
		j = &jw;
		json_init(j, stdout);
		json_obj_begin(j);
		json_key_str(j, "time", ts);
		if (name)
			json_key_str(j, "event", name);
		else
			json_key_uint(j, "cmd", g->cmd);
	} else {
		printf("%s %s", ts, name ? name : "unknown");
		if (!name)
			printf(" cmd %u", g->cmd);
	}
	if (tb[MCAST_A_NODE])
		on_node(m, j, tb[MCAST_A_NODE]);
	if (tb[MCAST_A_PEER])
		on_peer(m, j, tb[MCAST_A_PEER]);
	if (tb[MCAST_A_GROUP])
		on_group(m, j, tb[MCAST_A_GROUP]);
	if (tb[MCAST_A_EVENT])
		on_event(m, j, tb[MCAST_A_EVENT]);
	if (j) {
		json_obj_end(j);
		json_finish(j);
	} else {
		putchar('\n');
	}
	fflush(stdout);
	m->count++;
	return m->limit && m->count >= m->limit ? NL_STOP : NL_OK;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "count", required_argument, NULL, 'c' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	struct mon m = { 0 };
	struct ctl_nl req;
	struct nl_sock *sk;
	u64 v;
	int c, grp, ctrl_grp, err;

	/* the words bash may complete (utils/completion/mcast.bash) */
	if (argc >= 2 && !strcmp(argv[1], COMPLETE_ARG)) {
		complete_opts((const struct option *const[]){ opts, NULL },
			      argc - 2, argv + 2);
		return MON_OK;
	}
	ctl_nl_prog = "mcastmon";
	while ((c = getopt_long(argc, argv, "jc:hV", opts, NULL)) != -1) {
		switch (c) {
		case 'j':
			m.json = true;
			break;
		case 'c':
			if (parse_u64(optarg, &v) || v == 0) {
				fprintf(stderr, "mcastmon: --count: expected a positive number\n");
				return MON_EUSAGE;
			}
			m.limit = v;
			break;
		case 'h':
			usage(stdout);
			return MON_OK;
		case 'V':
			printf("mcastmon %s\n", MCASTMON_VERSION);
			return MON_OK;
		default:
			usage(stderr);
			return MON_EUSAGE;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "mcastmon: unexpected argument \"%.64s\"\n",
			argv[optind]);
		return MON_EUSAGE;
	}

	/* The node's topology first (prints "not loaded" if so). */
	err = ctl_nl_open(&req, "node");
	if (err)
		return MON_EKERNEL;
	m.family = req.family;

	sk = nl_socket_alloc();
	if (!sk) {
		ctl_nl_close(&req);
		fprintf(stderr, "mcastmon: out of memory\n");
		return MON_EKERNEL;
	}
	nl_socket_disable_seq_check(sk);
	nl_socket_modify_cb(sk, NL_CB_VALID, NL_CB_CUSTOM, on_message, &m);
	err = genl_connect(sk);
	if (err < 0) {
		fprintf(stderr, "mcastmon: cannot open a generic netlink socket: %s\n",
			nl_geterror(err));
		goto fail;
	}
	grow_rcvbuf(sk);
	grp = genl_ctrl_resolve_grp(sk, MCAST_GENL_NAME, MCAST_GENL_MCGRP_EVENTS);
	if (grp < 0) {
		fprintf(stderr, "mcastmon: the mcast family has no \"%s\" multicast group: %s\n",
			MCAST_GENL_MCGRP_EVENTS, nl_geterror(grp));
		err = grp;
		goto fail;
	}
	/* nlctrl's notifications tell when the module goes away */
	ctrl_grp = genl_ctrl_resolve_grp(sk, "nlctrl", "notify");
	/* Subscribe before reading the node: no change falls in between. */
	err = nl_socket_add_membership(sk, grp);
	if (!err && ctrl_grp >= 0)
		err = nl_socket_add_membership(sk, ctrl_grp);
	if (err < 0) {
		fprintf(stderr, "mcastmon: cannot join the events group: %s\n",
			nl_geterror(err));
		goto fail;
	}
	err = ctl_node_get(&req, &m.node);
	ctl_nl_close(&req);
	if (err) {
		nl_socket_free(sk);
		return MON_EKERNEL;
	}

	for (;;) {
		err = nl_recvmsgs_default(sk);
		if (m.unloaded) {
			fprintf(stderr, "mcastmon: the mcast kernel module was unloaded\n");
			nl_socket_free(sk);
			return MON_EKERNEL;
		}
		if (m.limit && m.count >= m.limit)
			break;
		if (err == -NLE_NOMEM) {
			/* ENOBUFS: the socket overflowed, events were lost */
			fprintf(stderr, "mcastmon: events lost: the receive buffer overflowed\n");
			continue;
		}
		if (err < 0 && err != -NLE_INTR && err != -NLE_AGAIN) {
			fprintf(stderr, "mcastmon: netlink: %s\n", nl_geterror(err));
			nl_socket_free(sk);
			return MON_EKERNEL;
		}
	}
	nl_socket_free(sk);
	return MON_OK;
fail:
	ctl_nl_close(&req);
	nl_socket_free(sk);
	return MON_EKERNEL;
}
