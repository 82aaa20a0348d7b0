// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Generic netlink plumbing of the mcast tools (see nl.h).
 */
#include <errno.h>
#include <string.h>
#include <sys/socket.h>

#include <linux/netlink.h>
#include <netlink/genl/ctrl.h>
#include <netlink/genl/genl.h>
#include <netlink/msg.h>

#include "nl.h"
#include "status.h"
#include "switchtopo.h"

const char *ctl_nl_prog = "mcastctl";

#ifndef SOL_NETLINK
#define SOL_NETLINK	270
#endif

int ctl_nl_open(struct ctl_nl *nl, const char *what)
{
	int one = 1, err;

	memset(nl, 0, sizeof(*nl));	/* not quiet unless the caller says so */
	nl->what = what;
	nl->sk = nl_socket_alloc();
	if (!nl->sk) {
		fprintf(stderr, "%s: %s: out of memory\n", ctl_nl_prog, what);
		return MCASTCTL_EINPUT;
	}
	err = genl_connect(nl->sk);
	if (err < 0) {
		fprintf(stderr, "%s: %s: cannot open a generic netlink socket: %s\n",
			ctl_nl_prog, what, nl_geterror(err));
		goto fail;
	}
	/* The kernel's extended ack: its reason for refusing a request. */
	setsockopt(nl_socket_get_fd(nl->sk), SOL_NETLINK, NETLINK_EXT_ACK,
		   &one, sizeof(one));
	nl->family = genl_ctrl_resolve(nl->sk, MCAST_GENL_NAME);
	if (nl->family < 0) {
		if (nl->family == -NLE_OBJ_NOTFOUND)
			fprintf(stderr, "%s: the mcast kernel module is not loaded (modprobe mcast)\n",
				ctl_nl_prog);
		else
			fprintf(stderr, "%s: %s: cannot resolve the \"%s\" generic netlink family: %s\n",
				ctl_nl_prog, what, MCAST_GENL_NAME, nl_geterror(nl->family));
		goto fail;
	}
	return 0;
fail:
	nl_socket_free(nl->sk);
	nl->sk = NULL;
	return MCASTCTL_EKERNEL;
}

void ctl_nl_close(struct ctl_nl *nl)
{
	if (nl->sk)
		nl_socket_free(nl->sk);
	nl->sk = NULL;
}

struct nl_msg *ctl_nl_msg(struct ctl_nl *nl, int cmd, bool dump,
			  size_t payload)
{
	struct nl_msg *msg = nlmsg_alloc_size(NLMSG_HDRLEN + GENL_HDRLEN +
					      payload + 256);

	if (!msg)
		return NULL;
	if (!genlmsg_put(msg, NL_AUTO_PORT, NL_AUTO_SEQ, nl->family, 0,
			 dump ? NLM_F_DUMP : 0, cmd, MCAST_GENL_VERSION)) {
		nlmsg_free(msg);
		return NULL;
	}
	return msg;
}

struct req_state {
	struct ctl_nl *nl;
	ctl_reply_fn fn;
	void *arg;
	bool done;
	int err;		/* negative errno from the kernel */
	int fn_ret;
	char msg[256];		/* its extack message */
};

/* The extended ack TLVs after an error (or DONE) payload of @hlen bytes. */
static void get_extack(struct req_state *st, const struct nlmsghdr *nlh,
		       size_t hlen)
{
	struct nlattr *tb[NLMSGERR_ATTR_MAX + 1];
	size_t off = NLMSG_HDRLEN + NLMSG_ALIGN(hlen);

	if (!(nlh->nlmsg_flags & NLM_F_ACK_TLVS) || nlh->nlmsg_len <= off)
		return;
	if (nla_parse(tb, NLMSGERR_ATTR_MAX, (struct nlattr *)((char *)nlh + off),
		      nlh->nlmsg_len - off, NULL) < 0)
		return;
	if (tb[NLMSGERR_ATTR_MSG])
		snprintf(st->msg, sizeof(st->msg), "%.*s",
			 nla_len(tb[NLMSGERR_ATTR_MSG]),
			 (char *)nla_data(tb[NLMSGERR_ATTR_MSG]));
}

static int on_error(struct sockaddr_nl *who, struct nlmsgerr *e, void *arg)
{
	struct req_state *st = arg;
	const struct nlmsghdr *nlh = (void *)((char *)e - NLMSG_HDRLEN);
	size_t hlen = sizeof(*e);

	(void)who;
	if (!(nlh->nlmsg_flags & NLM_F_CAPPED))
		hlen += e->msg.nlmsg_len - NLMSG_HDRLEN;
	st->err = e->error;
	get_extack(st, nlh, hlen);
	st->done = true;
	return NL_STOP;
}

static int on_finish(struct nl_msg *msg, void *arg)
{
	struct req_state *st = arg;
	struct nlmsghdr *nlh = nlmsg_hdr(msg);
	int e;

	if (nlmsg_datalen(nlh) >= (int)sizeof(int)) {
		memcpy(&e, nlmsg_data(nlh), sizeof(e));
		if (e < 0) {
			st->err = e;
			get_extack(st, nlh, sizeof(int));
		}
	}
	st->done = true;
	return NL_STOP;
}

static int on_ack(struct nl_msg *msg, void *arg)
{
	struct req_state *st = arg;

	(void)msg;
	st->done = true;
	return NL_STOP;
}

static int on_valid(struct nl_msg *msg, void *arg)
{
	struct req_state *st = arg;
	struct nlattr *tb[MCAST_A_MAX + 1];
	struct genlmsghdr *g = nlmsg_data(nlmsg_hdr(msg));

	if (!st->fn)
		return NL_OK;
	if (genlmsg_parse(nlmsg_hdr(msg), 0, tb, MCAST_A_MAX, NULL) < 0) {
		fprintf(stderr, "%s: %s: malformed reply from the kernel\n", ctl_nl_prog,
			st->nl->what);
		st->fn_ret = MCASTCTL_EKERNEL;
		return NL_STOP;
	}
	st->fn_ret = st->fn(g->cmd, tb, st->arg);
	return st->fn_ret ? NL_STOP : NL_OK;
}

int ctl_nl_request(struct ctl_nl *nl, struct nl_msg *msg, ctl_reply_fn fn,
		   void *arg)
{
	struct req_state st = { .nl = nl, .fn = fn, .arg = arg };
	struct nl_cb *cb;
	size_t len;
	int err;

	cb = nl_cb_alloc(NL_CB_DEFAULT);
	if (!cb) {
		nlmsg_free(msg);
		fprintf(stderr, "%s: %s: out of memory\n", ctl_nl_prog, nl->what);
		return MCASTCTL_EINPUT;
	}
	nl_cb_set(cb, NL_CB_VALID, NL_CB_CUSTOM, on_valid, &st);
	nl_cb_set(cb, NL_CB_FINISH, NL_CB_CUSTOM, on_finish, &st);
	nl_cb_set(cb, NL_CB_ACK, NL_CB_CUSTOM, on_ack, &st);
	nl_cb_err(cb, NL_CB_CUSTOM, on_error, &st);

	/* Room for a large group's arrays (the default is about 200 KiB). */
	len = nlmsg_hdr(msg)->nlmsg_len;
	if (len > 65536) {
		int sz = len * 2;

		if (setsockopt(nl_socket_get_fd(nl->sk), SOL_SOCKET,
			       SO_SNDBUFFORCE, &sz, sizeof(sz)))
			setsockopt(nl_socket_get_fd(nl->sk), SOL_SOCKET,
				   SO_SNDBUF, &sz, sizeof(sz));
	}
	err = nl_send_auto(nl->sk, msg);
	nlmsg_free(msg);
	if (err < 0) {
		nl_cb_put(cb);
		fprintf(stderr, "%s: %s: cannot send the request: %s\n", ctl_nl_prog,
			nl->what, nl_geterror(err));
		return MCASTCTL_EKERNEL;
	}
	while (!st.done && !st.fn_ret) {
		err = nl_recvmsgs(nl->sk, cb);
		if (err < 0 && !st.done && !st.fn_ret) {
			nl_cb_put(cb);
			fprintf(stderr, "%s: %s: netlink: %s\n", ctl_nl_prog, nl->what,
				nl_geterror(err));
			return MCASTCTL_EKERNEL;
		}
	}
	nl_cb_put(cb);
	if (st.fn_ret)
		return st.fn_ret;
	nl->err = st.err;
	snprintf(nl->msg, sizeof(nl->msg), "%s", st.msg);
	if (st.err && nl->quiet)
		return MCASTCTL_EKERNEL;
	if (st.err) {
		const char *hint = st.err == -EPERM ?
			" (this command needs CAP_NET_ADMIN)" : "";

		if (st.msg[0])
			fprintf(stderr, "%s: %s: %s (%s)%s\n", ctl_nl_prog, nl->what,
				st.msg, strerror(-st.err), hint);
		else
			fprintf(stderr, "%s: %s: %s%s\n", ctl_nl_prog, nl->what,
				strerror(-st.err), hint);
		return MCASTCTL_EKERNEL;
	}
	return 0;
}

/* What a node reports besides its topology and coordinate. */
static void parse_node_rest(struct nlattr **tb, struct ctl_node *node)
{
	if (tb[MCAST_NODE_A_PORT])
		node->port = nla_get_u16(tb[MCAST_NODE_A_PORT]);
	if (tb[MCAST_NODE_A_RTO_MS])
		node->rto_ms = nla_get_u32(tb[MCAST_NODE_A_RTO_MS]);
	if (tb[MCAST_NODE_A_RETRIES])
		node->retries = nla_get_u32(tb[MCAST_NODE_A_RETRIES]);
	if (tb[MCAST_NODE_A_TRANSPORT])
		nla_strlcpy(node->transport, tb[MCAST_NODE_A_TRANSPORT],
			    sizeof(node->transport));
	if (tb[MCAST_NODE_A_TRANSPORT_CAPS])
		node->tp_caps = nla_get_u32(tb[MCAST_NODE_A_TRANSPORT_CAPS]);
	if (tb[MCAST_NODE_A_TRANSPORT_MTU])
		node->tp_mtu = nla_get_u32(tb[MCAST_NODE_A_TRANSPORT_MTU]);
	if (tb[MCAST_NODE_A_WORM_DESTS])
		node->worm_dests = nla_get_u32(tb[MCAST_NODE_A_WORM_DESTS]);
	if (tb[MCAST_NODE_A_WORM_HDR])
		node->worm_hdr = nla_get_u32(tb[MCAST_NODE_A_WORM_HDR]);
	if (tb[MCAST_NODE_A_ALGORITHM]) {
		node->has_algo = true;
		node->algo = nla_get_u8(tb[MCAST_NODE_A_ALGORITHM]);
	}
	if (tb[MCAST_NODE_A_ALGO_R])
		node->algo_r = nla_get_u32(tb[MCAST_NODE_A_ALGO_R]);
	if (tb[MCAST_NODE_A_KEY_IDS]) {
		node->nkeys = nla_len(tb[MCAST_NODE_A_KEY_IDS]);
		if (node->nkeys > MCAST_KEYS_MAX)
			node->nkeys = MCAST_KEYS_MAX;
		memcpy(node->key_ids, nla_data(tb[MCAST_NODE_A_KEY_IDS]),
		       node->nkeys);
	}
	if (tb[MCAST_NODE_A_KEY_USE])
		node->key_use = nla_get_u8(tb[MCAST_NODE_A_KEY_USE]);
}

/* A switched cluster: its host count, id and ranks (switchtopo.h). */
static int parse_switch_node(struct nlattr **tb, struct ctl_node *node)
{
	struct nlattr *ar = tb[MCAST_NODE_A_RANKS];
	u16 hosts;

	if (!tb[MCAST_NODE_A_DIMS] || !tb[MCAST_NODE_A_COORD] ||
	    !tb[MCAST_NODE_A_ID] || !ar ||
	    nla_len(tb[MCAST_NODE_A_DIMS]) != sizeof(u16) ||
	    nla_len(tb[MCAST_NODE_A_COORD]) != sizeof(u16))
		return -EINVAL;
	hosts = nla_get_u16(tb[MCAST_NODE_A_DIMS]);
	if (nla_len(ar) != (int)(hosts * sizeof(u32)) ||
	    switch_topology_ranks(nla_data(ar), hosts, &node->t))
		return -EINVAL;
	node->coord[0] = nla_get_u16(tb[MCAST_NODE_A_COORD]);
	node->id = nla_get_u32(tb[MCAST_NODE_A_ID]);
	parse_node_rest(tb, node);
	node->configured = true;
	return 0;
}

int ctl_parse_node(struct nlattr *nest, struct ctl_node *node)
{
	struct nlattr *tb[MCAST_NODE_A_MAX + 1];
	u16 dims[MC_MAX_DIMS];
	unsigned int n;
	u8 links = MCAST_LINKS_UNI, kind;

	memset(node, 0, sizeof(*node));
	if (!nest || nla_parse_nested(tb, MCAST_NODE_A_MAX, nest, NULL) < 0)
		return -EINVAL;
	if (!tb[MCAST_NODE_A_KIND])
		return 0;
	kind = nla_get_u8(tb[MCAST_NODE_A_KIND]);
	if (kind == MCAST_TOPO_SWITCH)
		return parse_switch_node(tb, node);
	if (kind != MCAST_TOPO_TORUS)
		return 0;
	if (!tb[MCAST_NODE_A_DIMS] || !tb[MCAST_NODE_A_COORD] ||
	    !tb[MCAST_NODE_A_ID])
		return -EINVAL;
	n = nla_len(tb[MCAST_NODE_A_DIMS]) / sizeof(u16);
	if (n == 0 || n > MC_MAX_DIMS ||
	    nla_len(tb[MCAST_NODE_A_DIMS]) != (int)(n * sizeof(u16)) ||
	    nla_len(tb[MCAST_NODE_A_COORD]) != (int)(n * sizeof(u16)))
		return -EINVAL;
	memcpy(dims, nla_data(tb[MCAST_NODE_A_DIMS]), n * sizeof(u16));
	memcpy(node->coord, nla_data(tb[MCAST_NODE_A_COORD]), n * sizeof(u16));
	if (tb[MCAST_NODE_A_LINKS])
		links = nla_get_u8(tb[MCAST_NODE_A_LINKS]);
	if (mc_torus_init(&node->t, n, dims, links == MCAST_LINKS_BI ?
			  MC_LINKS_BI : MC_LINKS_UNI, NULL))
		return -EINVAL;
	node->id = nla_get_u32(tb[MCAST_NODE_A_ID]);
	parse_node_rest(tb, node);
	node->configured = true;
	return 0;
}

static int node_reply(int cmd, struct nlattr **tb, void *arg)
{
	struct ctl_node *node = arg;

	(void)cmd;
	if (ctl_parse_node(tb[MCAST_A_NODE], node)) {
		fprintf(stderr, "%s: malformed node attributes from the kernel\n",
			ctl_nl_prog);
		return MCASTCTL_EKERNEL;
	}
	return 0;
}

int ctl_node_get(struct ctl_nl *nl, struct ctl_node *node)
{
	struct nl_msg *msg = ctl_nl_msg(nl, MCAST_CMD_NODE_GET, false, 0);

	memset(node, 0, sizeof(*node));
	if (!msg) {
		fprintf(stderr, "%s: %s: out of memory\n", ctl_nl_prog, nl->what);
		return MCASTCTL_EINPUT;
	}
	return ctl_nl_request(nl, msg, node_reply, node);
}

/* The topology and the node's place in it: NODE_SET takes them whole. */
static int put_node_place(struct nl_msg *msg, const struct mc_torus *t,
			  u32 id)
{
	u16 dims[MC_MAX_DIMS], sigma[MC_MAX_DIMS];
	unsigned int i;

	mc_node_coords(t, id, sigma);
	for (i = 0; i < t->n; i++)
		dims[i] = t->k[i];
	return nla_put_u8(msg, MCAST_NODE_A_KIND, t->rank ?
			  MCAST_TOPO_SWITCH : MCAST_TOPO_TORUS) ||
	       nla_put_u8(msg, MCAST_NODE_A_LINKS, t->links == MC_LINKS_BI ?
			  MCAST_LINKS_BI : MCAST_LINKS_UNI) ||
	       (t->rank && nla_put(msg, MCAST_NODE_A_RANKS,
				   t->nodes * sizeof(u32), t->rank)) ||
	       nla_put(msg, MCAST_NODE_A_DIMS, t->n * sizeof(u16), dims) ||
	       nla_put(msg, MCAST_NODE_A_COORD, t->n * sizeof(u16), sigma);
}

/* What the request also sets; the node keeps what is left out. */
static int put_node_rest(struct nl_msg *msg, const struct ctl_node_set *s)
{
	return (s->port && nla_put_u16(msg, MCAST_NODE_A_PORT, s->port)) ||
	       (s->transport && s->transport[0] &&
		nla_put_string(msg, MCAST_NODE_A_TRANSPORT, s->transport)) ||
	       (s->rto_ms && nla_put_u32(msg, MCAST_NODE_A_RTO_MS, s->rto_ms)) ||
	       (s->retries &&
		nla_put_u32(msg, MCAST_NODE_A_RETRIES, s->retries)) ||
	       (s->has_algo &&
		nla_put_u8(msg, MCAST_NODE_A_ALGORITHM, s->algo)) ||
	       (s->algo_r && nla_put_u32(msg, MCAST_NODE_A_ALGO_R, s->algo_r));
}

struct nl_msg *ctl_node_set_msg(struct ctl_nl *nl,
				const struct ctl_node_set *s)
{
	struct nl_msg *msg = ctl_nl_msg(nl, MCAST_CMD_NODE_SET, false, 0);
	struct nlattr *nest;

	if (!msg)
		return NULL;
	nest = nla_nest_start(msg, MCAST_A_NODE);
	if (!nest || put_node_place(msg, s->t, s->id) || put_node_rest(msg, s)) {
		nlmsg_free(msg);
		return NULL;
	}
	nla_nest_end(msg, nest);
	return msg;
}

const char *ctl_topology_str(const struct mc_torus *t, char *buf)
{
	char *p = buf;
	int i;

	if (t->rank) {		/* the file is not the kernel's to know */
		sprintf(buf, "switch (%u hosts)", t->nodes);
		return buf;
	}
	p += sprintf(p, "torus:");
	for (i = t->n - 1; i >= 0; i--)
		p += sprintf(p, i ? "%ux" : "%u", t->k[i]);
	sprintf(p, ":%s", t->links == MC_LINKS_BI ? "bi" : "uni");
	return buf;
}
