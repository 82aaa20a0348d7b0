// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The node and its peers from the config file (kernel.h): the node is set
 * only if it differs (a restarted daemon changes nothing), the peers are
 * added, fixed and swept so that the kernel's list is the file's.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>

#include <netlink/genl/genl.h>
#include <netlink/msg.h>

#include "kernel.h"
#include "log.h"
#include "parse.h"

/* "mu-torus:4" into (MCAST_ALGORITHM_MUTORUS, 4); conf.c checked it. */
static int algo_of(const char *s, uint8_t *algo, uint32_t *r)
{
	char err[PARSE_ERR_MAX];

	return parse_node_algo(s, algo, r, err) ? -EINVAL : 0;
}

/* The file's algorithm, if it names one, against the kernel's. */
static bool algo_differs(const struct mcd_conf *c, const struct ctl_node *n)
{
	uint32_t r;
	uint8_t algo;

	if (!c->algorithm[0] || algo_of(c->algorithm, &algo, &r))
		return false;
	if (!n->has_algo)
		return true;
	return n->algo != algo || (r && n->algo_r != r);
}

static bool node_differs(const struct mcd_kernel *k, const struct ctl_node *n)
{
	const struct mcd_conf *c = k->conf;
	const struct mc_torus *t = &c->torus;

	if (!n->configured || n->id != k->self || n->t.n != t->n ||
	    n->t.links != t->links || !n->t.rank != !t->rank ||
	    memcmp(n->t.k, t->k, t->n * sizeof(t->k[0])) ||
	    (t->rank && memcmp(n->t.rank, t->rank, t->nodes * sizeof(u32))) ||
	    n->port != c->port)
		return true;
	if (c->transport[0] && strcmp(c->transport, n->transport))
		return true;
	return algo_differs(c, n);
}

static int node_set(struct mcd_kernel *k)
{
	const struct mcd_conf *c = k->conf;
	struct ctl_node_set set = {
		.t = &c->torus, .id = k->self, .port = c->port,
		.transport = c->transport, .has_algo = c->algorithm[0] != '\0',
	};
	struct nl_msg *msg;

	if (set.has_algo && algo_of(c->algorithm, &set.algo, &set.algo_r))
		return -EINVAL;
	msg = ctl_node_set_msg(&k->cmd, &set);
	if (!msg)
		return -ENOMEM;
	if (ctl_nl_request(&k->cmd, msg, NULL, NULL)) {
		log_err("kernel: cannot configure the node: %s%s%s",
			strerror(-k->cmd.err), k->cmd.msg[0] ? ": " : "",
			k->cmd.msg);
		return k->cmd.err ? k->cmd.err : -EIO;
	}
	log_info("kernel: node %u configured (%s, port %u)", k->self,
		 c->topology, c->port);
	return 0;
}

/* ---------------------------------------------------------------- peers */

struct kpeer {
	uint32_t id;
	struct in6_addr addr;		/* v4-mapped for IPv4 */
	uint16_t port;
};

struct kpeers {
	struct kpeer *a;
	uint32_t n, cap;
	bool nomem;
};

static int peer_reply(int cmd, struct nlattr **tb, void *arg)
{
	struct nlattr *pt[MCAST_PEER_A_MAX + 1];
	struct kpeers *ps = arg;
	struct kpeer *p;

	(void)cmd;
	if (!tb[MCAST_A_PEER] ||
	    nla_parse_nested(pt, MCAST_PEER_A_MAX, tb[MCAST_A_PEER], NULL) < 0 ||
	    !pt[MCAST_PEER_A_ID])
		return 0;
	if (ps->n == ps->cap) {
		uint32_t cap = ps->cap ? 2 * ps->cap : 64;
		struct kpeer *a = realloc(ps->a, cap * sizeof(*a));

		if (!a) {
			ps->nomem = true;
			return 0;
		}
		ps->a = a;
		ps->cap = cap;
	}
	p = &ps->a[ps->n++];
	memset(p, 0, sizeof(*p));
	p->id = nla_get_u32(pt[MCAST_PEER_A_ID]);
	if (pt[MCAST_PEER_A_IPV6] && nla_len(pt[MCAST_PEER_A_IPV6]) == 16) {
		memcpy(&p->addr, nla_data(pt[MCAST_PEER_A_IPV6]), 16);
	} else if (pt[MCAST_PEER_A_IPV4] && nla_len(pt[MCAST_PEER_A_IPV4]) == 4) {
		p->addr.s6_addr[10] = 0xff;
		p->addr.s6_addr[11] = 0xff;
		memcpy(&p->addr.s6_addr[12], nla_data(pt[MCAST_PEER_A_IPV4]), 4);
	}
	if (pt[MCAST_PEER_A_PORT])
		p->port = nla_get_u16(pt[MCAST_PEER_A_PORT]);
	return 0;
}

static int peer_req(struct mcd_kernel *k, int cmd,
		    const struct mcd_conf_node *n, uint32_t id)
{
	struct nl_msg *msg = ctl_nl_msg(&k->cmd, cmd, false, 0);
	bool v4 = n && n->family == AF_INET;
	struct nlattr *nest;

	if (!msg)
		return -ENOMEM;
	nest = nla_nest_start(msg, MCAST_A_PEER);
	if (!nest || nla_put_u32(msg, MCAST_PEER_A_ID, id) ||
	    (n && ((v4 ? nla_put(msg, MCAST_PEER_A_IPV4, 4,
				 &n->addr.s6_addr[12]) :
		    nla_put(msg, MCAST_PEER_A_IPV6, 16, &n->addr)) ||
		   nla_put_u16(msg, MCAST_PEER_A_PORT, k->conf->port)))) {
		nlmsg_free(msg);
		return -ENOMEM;
	}
	nla_nest_end(msg, nest);
	if (ctl_nl_request(&k->cmd, msg, NULL, NULL)) {
		log_err("kernel: peer %u: %s: %s%s%s", id,
			cmd == MCAST_CMD_PEER_NEW ? "cannot add it" :
			"cannot remove it", strerror(-k->cmd.err),
			k->cmd.msg[0] ? ": " : "", k->cmd.msg);
		return k->cmd.err ? k->cmd.err : -EIO;
	}
	return 0;
}

static const struct kpeer *kpeer_find(const struct kpeers *ps, uint32_t id)
{
	uint32_t i;

	for (i = 0; i < ps->n; i++)
		if (ps->a[i].id == id)
			return &ps->a[i];
	return NULL;
}

/* Mark and sweep: every configured node a peer, with its address. */
static int peers_sync(struct mcd_kernel *k, struct kpeers *ps)
{
	const struct mcd_conf *c = k->conf;
	uint32_t i, added = 0, fixed = 0, swept = 0;
	int err = 0;

	for (i = 0; i < c->nnodes && !err; i++) {
		const struct mcd_conf_node *n = &c->nodes[i];
		const struct kpeer *p = kpeer_find(ps, n->id);

		if (n->id == k->self)
			continue;
		if (p && !memcmp(&p->addr, &n->addr, sizeof(p->addr)) &&
		    p->port == c->port)
			continue;
		if (p) {
			err = peer_req(k, MCAST_CMD_PEER_DEL, NULL, n->id);
			fixed++;
		} else {
			added++;
		}
		if (!err)
			err = peer_req(k, MCAST_CMD_PEER_NEW, n, n->id);
	}
	for (i = 0; i < ps->n && !err; i++) {
		if (mcd_conf_node(c, ps->a[i].id))
			continue;
		err = peer_req(k, MCAST_CMD_PEER_DEL, NULL, ps->a[i].id);
		swept++;
	}
	if (!err)
		log_info("kernel: peers: %u added, %u fixed, %u removed",
			 added, fixed, swept);
	return err;
}

int mcd_kernel_key(struct mcd_kernel *k, const unsigned char *key)
{
	struct ctl_node node;
	struct nlattr *nest;
	struct nl_msg *msg;
	int err;

	if (ctl_node_get(&k->cmd, &node))
		return -EIO;
	if (node.key_use) {
		log_info("kernel: cluster key %u in use: left as it is",
			 node.key_use);
		return 0;
	}
	msg = ctl_nl_msg(&k->cmd, MCAST_CMD_KEY_SET, false, 0);
	if (!msg)
		return -ENOMEM;
	nest = nla_nest_start(msg, MCAST_A_KEY);
	if (!nest || nla_put_u8(msg, MCAST_KEY_A_ID, 1) ||
	    nla_put(msg, MCAST_KEY_A_SECRET, MCAST_KEY_LEN, key) ||
	    nla_put_flag(msg, MCAST_KEY_A_USE)) {
		explicit_bzero(nlmsg_hdr(msg), nlmsg_hdr(msg)->nlmsg_len);
		nlmsg_free(msg);
		return -ENOMEM;
	}
	nla_nest_end(msg, nest);
	/* our own reference: the request drops its one, we wipe the key */
	nlmsg_get(msg);
	err = ctl_nl_request(&k->cmd, msg, NULL, NULL);
	explicit_bzero(nlmsg_hdr(msg), nlmsg_hdr(msg)->nlmsg_len);
	nlmsg_free(msg);
	if (err) {
		log_err("kernel: cannot set the cluster key: %s%s%s",
			strerror(-k->cmd.err), k->cmd.msg[0] ? ": " : "",
			k->cmd.msg);
		return k->cmd.err ? k->cmd.err : -EIO;
	}
	log_info("kernel: cluster key 1 set and in use");
	return 0;
}

int mcd_kernel_configure(struct mcd_kernel *k)
{
	struct kpeers ps = { 0 };
	struct ctl_node node;
	struct nl_msg *msg;
	int err;

	if (ctl_node_get(&k->cmd, &node))
		return -EIO;
	if (node_differs(k, &node)) {
		err = node_set(k);
		if (err)
			return err;
	}
	msg = ctl_nl_msg(&k->cmd, MCAST_CMD_PEER_GET, true, 0);
	if (!msg)
		return -ENOMEM;
	if (ctl_nl_request(&k->cmd, msg, peer_reply, &ps) || ps.nomem) {
		free(ps.a);
		log_err("kernel: cannot read the peers");
		return -EIO;
	}
	err = peers_sync(k, &ps);
	free(ps.a);
	return err;
}
