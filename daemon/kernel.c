// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * mcastd's side of the "mcast" generic netlink family (kernel.h).  One
 * socket for requests, one for the notifications; the groups are cached
 * so that a chain is written only when it changes, at the epoch read.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include <netlink/genl/ctrl.h>
#include <netlink/genl/genl.h>
#include <netlink/msg.h>

#include "chain.h"
#include "kernel.h"
#include "log.h"

/* ------------------------------------------------------------ the cache */

static struct mcd_kgroup *kgroup_find(struct mcd_kernel *k, uint32_t id)
{
	uint32_t lo = 0, hi = k->ngroups;

	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (k->groups[mid].id == id)
			return &k->groups[mid];
		if (k->groups[mid].id < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

const struct mcd_kgroup *mcd_kernel_group(const struct mcd_kernel *k,
					  uint32_t id)
{
	return kgroup_find((struct mcd_kernel *)k, id);
}

static struct mcd_kgroup *kgroup_add(struct mcd_kernel *k, uint32_t id)
{
	struct mcd_kgroup *g = kgroup_find(k, id), *a;
	uint32_t i;

	if (g)
		return g;
	a = realloc(k->groups, (k->ngroups + 1) * sizeof(*a));
	if (!a)
		return NULL;
	k->groups = a;
	for (i = k->ngroups; i > 0 && a[i - 1].id > id; i--)
		a[i] = a[i - 1];
	memset(&a[i], 0, sizeof(a[i]));
	a[i].id = id;
	k->ngroups++;
	return &a[i];
}

static void kgroup_del(struct mcd_kernel *k, uint32_t id)
{
	struct mcd_kgroup *g = kgroup_find(k, id);
	uint32_t i;

	if (!g)
		return;
	free(g->members);
	i = g - k->groups;
	memmove(g, g + 1, (k->ngroups - i - 1) * sizeof(*g));
	k->ngroups--;
}

static void kgroups_clear(struct mcd_kernel *k)
{
	uint32_t i;

	for (i = 0; i < k->ngroups; i++)
		free(k->groups[i].members);
	free(k->groups);
	k->groups = NULL;
	k->ngroups = 0;
}

static int kgroup_set_members(struct mcd_kgroup *g, const uint32_t *m,
			      uint32_t n)
{
	uint32_t *a = malloc((n ? n : 1) * sizeof(*a));

	if (!a)
		return -ENOMEM;
	memcpy(a, m, n * sizeof(*a));
	mc_sort_u32(a, n);
	free(g->members);
	g->members = a;
	g->n = n;
	return 0;
}

/* A group nest from the kernel (reply or notification) into the cache. */
static int kgroup_parse(struct mcd_kernel *k, struct nlattr *nest)
{
	struct nlattr *tb[MCAST_GROUP_A_MAX + 1];
	struct nlattr *am;
	struct mcd_kgroup *g;

	if (!nest || nla_parse_nested(tb, MCAST_GROUP_A_MAX, nest, NULL) < 0 ||
	    !tb[MCAST_GROUP_A_ID])
		return -EBADMSG;
	g = kgroup_add(k, nla_get_u32(tb[MCAST_GROUP_A_ID]));
	if (!g)
		return -ENOMEM;
	if (tb[MCAST_GROUP_A_EPOCH])
		g->epoch = nla_get_u32(tb[MCAST_GROUP_A_EPOCH]);
	if (tb[MCAST_GROUP_A_LOCAL])
		g->nlocal = nla_get_u32(tb[MCAST_GROUP_A_LOCAL]);
	g->managed = tb[MCAST_GROUP_A_MANAGED] &&
		     nla_get_u8(tb[MCAST_GROUP_A_MANAGED]);
	am = tb[MCAST_GROUP_A_MEMBERS];
	if (am && nla_len(am) % sizeof(uint32_t) == 0)
		return kgroup_set_members(g, nla_data(am),
					  nla_len(am) / sizeof(uint32_t));
	return 0;
}

/* ------------------------------------------------------------- requests */

static int group_reply(int cmd, struct nlattr **tb, void *arg)
{
	(void)cmd;
	if (kgroup_parse(arg, tb[MCAST_A_GROUP]))
		log_warn("kernel: a malformed group in a reply");
	return 0;
}

static struct nl_msg *group_msg(struct mcd_kernel *k, int cmd, uint32_t id,
				size_t payload, struct nlattr **nest)
{
	struct nl_msg *msg = ctl_nl_msg(&k->cmd, cmd, false, payload);

	if (!msg)
		return NULL;
	*nest = nla_nest_start(msg, MCAST_A_GROUP);
	if (!*nest || nla_put_u32(msg, MCAST_GROUP_A_ID, id)) {
		nlmsg_free(msg);
		return NULL;
	}
	return msg;
}

static int stats_reply(int cmd, struct nlattr **tb, void *arg)
{
	struct nlattr *st[MCAST_STATS_A_MAX + 1];
	uint64_t *vals = arg;
	int i;

	(void)cmd;
	if (!tb[MCAST_A_STATS] ||
	    nla_parse_nested(st, MCAST_STATS_A_MAX, tb[MCAST_A_STATS], NULL) < 0)
		return 0;
	for (i = 0; i <= MCAST_STATS_A_MAX; i++) {
		if (!st[i])
			continue;
		if (nla_len(st[i]) == 8)
			vals[i] = nla_get_u64(st[i]);
		else if (nla_len(st[i]) == 4)
			vals[i] = nla_get_u32(st[i]);
	}
	return 0;
}

int mcd_kernel_stats(struct mcd_kernel *k,
		     uint64_t vals[MCAST_STATS_A_MAX + 1])
{
	struct nl_msg *msg = ctl_nl_msg(&k->cmd, MCAST_CMD_STATS_GET, false, 0);
	int i;

	for (i = 0; i <= MCAST_STATS_A_MAX; i++)
		vals[i] = UINT64_MAX;
	if (!msg)
		return -ENOMEM;
	if (ctl_nl_request(&k->cmd, msg, stats_reply, vals))
		return k->cmd.err ? k->cmd.err : -EIO;
	return 0;
}

/* GROUP_GET of one group into the cache; a group gone leaves it. */
static int kgroup_read(struct mcd_kernel *k, uint32_t id)
{
	struct nlattr *nest;
	struct nl_msg *msg = group_msg(k, MCAST_CMD_GROUP_GET, id, 0, &nest);
	int err;

	if (!msg)
		return -ENOMEM;
	nla_nest_end(msg, nest);
	err = ctl_nl_request(&k->cmd, msg, group_reply, k);
	if (err && k->cmd.err == -ENOENT) {
		kgroup_del(k, id);
		return 0;
	}
	return err ? (k->cmd.err ? k->cmd.err : -EIO) : 0;
}

int mcd_kernel_dump(struct mcd_kernel *k)
{
	struct nl_msg *msg = ctl_nl_msg(&k->cmd, MCAST_CMD_GROUP_GET, true, 0);
	int err;

	if (!msg)
		return -ENOMEM;
	kgroups_clear(k);
	err = ctl_nl_request(&k->cmd, msg, group_reply, k);
	if (err) {
		log_err("kernel: cannot read the groups: %s%s%s",
			strerror(-k->cmd.err), k->cmd.msg[0] ? ": " : "",
			k->cmd.msg);
		return k->cmd.err ? k->cmd.err : -EIO;
	}
	return 0;
}

uint32_t mcd_kernel_local(const struct mcd_kernel *k, uint32_t *groups,
			  uint32_t max)
{
	uint32_t i, n = 0;

	for (i = 0; i < k->ngroups; i++)
		if (k->groups[i].nlocal && n++ < max)
			groups[n - 1] = k->groups[i].id;
	return n;
}

/* A group an administrator set up by hand: not ours to change. */
static bool kgroup_foreign(const struct mcd_kernel *k,
			   const struct mcd_kgroup *g)
{
	if (g->managed || g->n == 0)
		return false;
	return !(g->n == 1 && g->members[0] == k->self);
}

static int kgroup_write(struct mcd_kernel *k, int cmd, uint32_t id,
			uint32_t epoch, const uint32_t *nodes, uint32_t n)
{
	size_t bytes = n * sizeof(uint32_t);
	uint32_t *rchain = NULL, *hcycle = NULL;
	const char *why = NULL;
	struct nlattr *nest;
	struct nl_msg *msg;
	int err = -ENOMEM;

	msg = group_msg(k, cmd, id, 3 * bytes, &nest);
	if (!msg)
		return -ENOMEM;
	if (nla_put_u8(msg, MCAST_GROUP_A_MANAGED, 1) ||
	    (epoch && nla_put_u32(msg, MCAST_GROUP_A_EPOCH, epoch)))
		goto out;
	if (n) {
		rchain = malloc(bytes);
		hcycle = malloc(bytes);
		if (!rchain || !hcycle)
			goto out;
		memcpy(rchain, nodes, bytes);
		memcpy(hcycle, nodes, bytes);
		err = -EINVAL;
		if (mc_chain_sort(&k->conf->torus, MC_ORDER_DIM, rchain, n,
				  &why) ||
		    (k->ham && mc_chain_sort(&k->conf->torus, MC_ORDER_HAM,
					     hcycle, n, &why))) {
			log_err("group %u: the planning core refused its members: %s",
				id, why ? why : "?");
			goto out;
		}
		err = -ENOMEM;
		if (nla_put(msg, MCAST_GROUP_A_MEMBERS, bytes, nodes) ||
		    nla_put(msg, MCAST_GROUP_A_RCHAIN, bytes, rchain) ||
		    (k->ham && nla_put(msg, MCAST_GROUP_A_HCYCLE, bytes, hcycle)))
			goto out;
	}
	nla_nest_end(msg, nest);
	err = ctl_nl_request(&k->cmd, msg, NULL, NULL) ? k->cmd.err : 0;
	if (!err && k->cmd.err)
		err = k->cmd.err;
	msg = NULL;
out:
	nlmsg_free(msg);
	free(rchain);
	free(hcycle);
	return err;
}

static bool same_members(const struct mcd_kgroup *g, const uint32_t *nodes,
			 uint32_t n)
{
	return g->n == n && !memcmp(g->members, nodes, n * sizeof(*nodes));
}

/* One attempt; -ESTALE/-EEXIST: the cache was behind, read and retry. */
static int install_once(struct mcd_kernel *k, uint32_t id,
			const uint32_t *nodes, uint32_t n)
{
	struct mcd_kgroup *g = kgroup_find(k, id);
	int err;

	if (g && kgroup_foreign(k, g)) {
		log_notice("group %u is configured by hand (not managed): left alone",
			   id);
		return 0;
	}
	if (!n) {
		if (!g || g->nlocal)
			return 0;
		err = kgroup_write(k, MCAST_CMD_GROUP_DEL, id, g->epoch, NULL, 0);
		if (!err || err == -ENOENT) {
			kgroup_del(k, id);
			k->deletes++;
			log_info("group %u: no members left, deleted", id);
		}
		return err == -ENOENT ? 0 : err;
	}
	if (g && g->managed && same_members(g, nodes, n))
		return 0;
	err = kgroup_write(k, g ? MCAST_CMD_GROUP_SET : MCAST_CMD_GROUP_NEW,
			   id, g ? g->epoch : 0, nodes, n);
	if (err)
		return err;
	g = kgroup_add(k, id);
	if (!g)
		return -ENOMEM;
	g->epoch = g->epoch ? g->epoch + 1 : 1;
	g->managed = true;
	k->installs++;
	log_info("group %u: %u members installed (epoch %u)", id, n, g->epoch);
	return kgroup_set_members(g, nodes, n);
}

int mcd_kernel_install(struct mcd_kernel *k, uint32_t id,
		       const uint32_t *nodes, uint32_t n)
{
	int err = install_once(k, id, nodes, n);

	if (err == -ESTALE || err == -EEXIST || err == -ENOENT) {
		/* someone (a join, an admin) changed it since we read it */
		k->stale++;
		err = kgroup_read(k, id);
		if (!err)
			err = install_once(k, id, nodes, n);
	}
	if (err)
		log_err("group %u: cannot install %u members: %s%s%s", id, n,
			strerror(-err), k->cmd.msg[0] ? ": " : "", k->cmd.msg);
	return err;
}

/* ---------------------------------------------------------- the events */

struct ev_state {
	struct mcd_kernel *k;
	uint32_t dirty[64];		/* groups whose local files changed */
	uint32_t ndirty;
	bool overflow;			/* more than dirty[] holds */
	bool local;			/* a group came or went */
};

static void ev_dirty(struct ev_state *st, uint32_t id)
{
	uint32_t i;

	for (i = 0; i < st->ndirty; i++)
		if (st->dirty[i] == id)
			return;
	if (st->ndirty < sizeof(st->dirty) / sizeof(st->dirty[0]))
		st->dirty[st->ndirty++] = id;
	else
		st->overflow = true;
}

static void ev_member(struct ev_state *st, struct nlattr *nest)
{
	struct nlattr *tb[MCAST_EVENT_A_MAX + 1];

	if (nest && !nla_parse_nested(tb, MCAST_EVENT_A_MAX, nest, NULL) &&
	    tb[MCAST_EVENT_A_GROUP])
		ev_dirty(st, nla_get_u32(tb[MCAST_EVENT_A_GROUP]));
}

static void ev_peer_down(struct ev_state *st, struct nlattr *nest)
{
	struct nlattr *tb[MCAST_EVENT_A_MAX + 1];
	struct mcd_kernel *k = st->k;

	if (nest && !nla_parse_nested(tb, MCAST_EVENT_A_MAX, nest, NULL) &&
	    tb[MCAST_EVENT_A_NODE] && k->peer_down)
		k->peer_down(k->ctx, nla_get_u32(tb[MCAST_EVENT_A_NODE]));
}

static void ev_group_del(struct ev_state *st, struct nlattr *nest)
{
	struct nlattr *tb[MCAST_GROUP_A_MAX + 1];

	if (nest && !nla_parse_nested(tb, MCAST_GROUP_A_MAX, nest, NULL) &&
	    tb[MCAST_GROUP_A_ID]) {
		kgroup_del(st->k, nla_get_u32(tb[MCAST_GROUP_A_ID]));
		st->local = true;
	}
}

static int on_event(struct nl_msg *msg, void *arg)
{
	struct nlmsghdr *nlh = nlmsg_hdr(msg);
	struct genlmsghdr *gh = nlmsg_data(nlh);
	struct nlattr *tb[MCAST_A_MAX + 1];
	struct ev_state *st = arg;

	if (nlh->nlmsg_type != st->k->cmd.family ||
	    genlmsg_parse(nlh, 0, tb, MCAST_A_MAX, NULL) < 0)
		return NL_OK;
	switch (gh->cmd) {
	case MCAST_CMD_GROUP_NEW:
	case MCAST_CMD_GROUP_SET:
		if (kgroup_parse(st->k, tb[MCAST_A_GROUP]))
			st->k->resync = true;
		break;
	case MCAST_CMD_GROUP_DEL:
		ev_group_del(st, tb[MCAST_A_GROUP]);
		break;
	case MCAST_CMD_MEMBER_JOIN:
	case MCAST_CMD_MEMBER_LEAVE:
		ev_member(st, tb[MCAST_A_EVENT]);
		break;
	case MCAST_CMD_PEER_DOWN:
		ev_peer_down(st, tb[MCAST_A_EVENT]);
		break;
	default:
		break;
	}
	return NL_OK;
}

int mcd_kernel_events(struct mcd_kernel *k)
{
	struct ev_state st = { .k = k };
	uint32_t i;
	int err;

	nl_socket_modify_cb(k->ev, NL_CB_VALID, NL_CB_CUSTOM, on_event, &st);
	for (;;) {
		err = nl_recvmsgs_default(k->ev);
		if (err == -NLE_AGAIN || err == -NLE_INTR)
			break;
		if (err == -NLE_NOMEM) {
			/* ENOBUFS: the socket overflowed, events were lost */
			log_warn("kernel: notifications lost: reading everything again");
			k->resync = true;
			k->resyncs++;
			continue;
		}
		if (err < 0) {
			log_err("kernel: notifications: %s", nl_geterror(err));
			return -EIO;
		}
	}
	if (k->resync || st.overflow)
		return 1;
	for (i = 0; i < st.ndirty; i++) {
		err = kgroup_read(k, st.dirty[i]);
		if (err)
			return err;
	}
	if ((st.ndirty || st.local) && k->local_changed)
		k->local_changed(k->ctx);
	return 0;
}

int mcd_kernel_event_fd(const struct mcd_kernel *k)
{
	return nl_socket_get_fd(k->ev);
}

/* -------------------------------------------------------- open / close */

static int events_open(struct mcd_kernel *k, int rcvbuf)
{
	int grp, err;

	k->ev = nl_socket_alloc();
	if (!k->ev)
		return -ENOMEM;
	nl_socket_disable_seq_check(k->ev);
	err = genl_connect(k->ev);
	if (err < 0)
		goto fail;
	grp = genl_ctrl_resolve_grp(k->ev, MCAST_GENL_NAME,
				    MCAST_GENL_MCGRP_EVENTS);
	if (grp < 0) {
		err = grp;
		goto fail;
	}
	err = nl_socket_add_membership(k->ev, grp);
	if (err < 0)
		goto fail;
	if (rcvbuf > 0)
		nl_socket_set_buffer_size(k->ev, rcvbuf, 0);
	nl_socket_set_nonblocking(k->ev);
	return 0;
fail:
	log_err("kernel: cannot listen to mcast's notifications: %s",
		nl_geterror(err));
	nl_socket_free(k->ev);
	k->ev = NULL;
	return -EIO;
}

int mcd_kernel_open(struct mcd_kernel *k, const struct mcd_conf *conf,
		    uint32_t self, int rcvbuf)
{
	const struct mc_torus *t = &conf->torus;

	k->conf = conf;
	k->self = self;
	k->ham = t->regular && t->links == MC_LINKS_UNI;
	ctl_nl_prog = "mcastd";
	if (ctl_nl_open(&k->cmd, "kernel"))
		return -EIO;
	k->cmd.quiet = true;
	if (events_open(k, rcvbuf)) {
		ctl_nl_close(&k->cmd);
		return -EIO;
	}
	return 0;
}

void mcd_kernel_close(struct mcd_kernel *k)
{
	kgroups_clear(k);
	if (k->ev)
		nl_socket_free(k->ev);
	k->ev = NULL;
	ctl_nl_close(&k->cmd);
}
