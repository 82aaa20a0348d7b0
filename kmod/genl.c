// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The "mcast" generic netlink family: node, peer and group configuration,
 * statistics, and the "events" multicast group.  Every netns is its own
 * node (netnsok); mutating operations need CAP_NET_ADMIN in the user
 * namespace owning the netns.  A request is validated in full before
 * anything changes.
 */
#include <linux/slab.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/pid_namespace.h>
#include <net/genetlink.h>
#include <net/sock.h>

#include "net.h"
#include "notify.h"
#include "data.h"
#include "genl.h"
#include "compat.h"
#include "chain.h"
#include "schedule.h"

static struct genl_family mcast_family;

/* ------------------------------------------------------------ policies */

static int mcast_val_u16_array(const struct nlattr *attr,
			       struct netlink_ext_ack *extack)
{
	int len = nla_len(attr);

	if (len == 0 || len % 2 || len > MCAST_MAX_DIMS * 2) {
		NL_SET_ERR_MSG_ATTR(extack, attr,
				    "must hold 1 to 8 u16 values, one per dimension");
		return -EINVAL;
	}
	return 0;
}

static int mcast_val_u32_array(const struct nlattr *attr,
			       struct netlink_ext_ack *extack)
{
	if (nla_len(attr) % 4) {
		NL_SET_ERR_MSG_ATTR(extack, attr,
				    "must be an array of u32 node ids");
		return -EINVAL;
	}
	return 0;
}

/* Policy min/max are s16 before 6.2: larger bounds go through a range. */
static struct netlink_range_validation mcast_rto_range = {
	.min = 1,
	.max = 60000,
};

static const struct nla_policy mcast_node_policy[MCAST_NODE_A_MAX + 1] = {
	[MCAST_NODE_A_KIND] = NLA_POLICY_RANGE(NLA_U8, MCAST_TOPO_TORUS,
					       MCAST_TOPO_SWITCH),
	[MCAST_NODE_A_LINKS] = NLA_POLICY_MAX(NLA_U8, MCAST_LINKS_BI),
	[MCAST_NODE_A_DIMS] = NLA_POLICY_VALIDATE_FN(NLA_BINARY,
						     mcast_val_u16_array),
	[MCAST_NODE_A_COORD] = NLA_POLICY_VALIDATE_FN(NLA_BINARY,
						      mcast_val_u16_array),
	[MCAST_NODE_A_ID] = { .type = NLA_REJECT },
	[MCAST_NODE_A_PORT] = NLA_POLICY_MIN(NLA_U16, 1),
	[MCAST_NODE_A_TRANSPORT] = { .type = NLA_NUL_STRING,
				     .len = MCAST_TP_NAME_MAX - 1 },
	[MCAST_NODE_A_RTO_MS] = NLA_POLICY_FULL_RANGE(NLA_U32, &mcast_rto_range),
	[MCAST_NODE_A_RETRIES] = NLA_POLICY_MAX(NLA_U32, 100),
	[MCAST_NODE_A_KEY_IDS] = { .type = NLA_REJECT },
	[MCAST_NODE_A_KEY_USE] = { .type = NLA_REJECT },
	[MCAST_NODE_A_TRANSPORT_CAPS] = { .type = NLA_REJECT },
	[MCAST_NODE_A_TRANSPORT_MTU] = { .type = NLA_REJECT },
	[MCAST_NODE_A_ALGORITHM] = NLA_POLICY_MAX(NLA_U8,
						  __MCAST_ALGORITHM_MAX - 1),
	/* mu-torus splits each piece in r >= 2; r travels in one byte */
	[MCAST_NODE_A_ALGO_R] = NLA_POLICY_RANGE(NLA_U32, 2, MCAST_ALGO_R_MAX),
	[MCAST_NODE_A_WORM_DESTS] = { .type = NLA_REJECT },
	[MCAST_NODE_A_WORM_HDR] = { .type = NLA_REJECT },
	[MCAST_NODE_A_RANKS] = NLA_POLICY_VALIDATE_FN(NLA_BINARY,
						      mcast_val_u32_array),
};

static const struct nla_policy mcast_key_policy[MCAST_KEY_A_MAX + 1] = {
	[MCAST_KEY_A_ID] = NLA_POLICY_MIN(NLA_U8, 1),
	[MCAST_KEY_A_SECRET] = NLA_POLICY_EXACT_LEN(MCAST_KEY_LEN),
	[MCAST_KEY_A_USE] = { .type = NLA_FLAG },
	[MCAST_KEY_A_DROP] = { .type = NLA_FLAG },
	[MCAST_KEY_A_NONE] = { .type = NLA_FLAG },
};

static struct netlink_range_validation mcast_node_id_range = {
	.max = MCAST_MAX_NODES - 1,
};

static const struct nla_policy mcast_peer_policy[MCAST_PEER_A_MAX + 1] = {
	[MCAST_PEER_A_ID] = NLA_POLICY_FULL_RANGE(NLA_U32, &mcast_node_id_range),
	[MCAST_PEER_A_COORD] = NLA_POLICY_VALIDATE_FN(NLA_BINARY,
						      mcast_val_u16_array),
	[MCAST_PEER_A_IPV4] = { .type = NLA_BE32 },
	[MCAST_PEER_A_IPV6] = NLA_POLICY_EXACT_LEN(sizeof(struct in6_addr)),
	[MCAST_PEER_A_PORT] = NLA_POLICY_MIN(NLA_U16, 1),
	[MCAST_PEER_A_SRTT_US ... MCAST_PEER_A_HELD] = {
		.type = NLA_REJECT,
		.reject_message = "the data path's view of a peer is read-only",
	},
	[MCAST_PEER_A_STREAMS ... MCAST_PEER_A_RB] = {
		.type = NLA_REJECT,
		.reject_message = "the data path's view of a peer is read-only",
	},
};

static const struct nla_policy mcast_group_policy[MCAST_GROUP_A_MAX + 1] = {
	[MCAST_GROUP_A_ID] = NLA_POLICY_MIN(NLA_U32, 1),
	[MCAST_GROUP_A_EPOCH] = NLA_POLICY_MIN(NLA_U32, 1),
	[MCAST_GROUP_A_MEMBERS] = NLA_POLICY_VALIDATE_FN(NLA_BINARY,
							 mcast_val_u32_array),
	[MCAST_GROUP_A_RCHAIN] = NLA_POLICY_VALIDATE_FN(NLA_BINARY,
							mcast_val_u32_array),
	[MCAST_GROUP_A_HCYCLE] = NLA_POLICY_VALIDATE_FN(NLA_BINARY,
							mcast_val_u32_array),
	[MCAST_GROUP_A_LOCAL] = { .type = NLA_REJECT },
	[MCAST_GROUP_A_MANAGED] = NLA_POLICY_MAX(NLA_U8, 1),
};

/* A statistics request names at most a group. */
static const struct nla_policy mcast_stats_policy[MCAST_STATS_A_GROUP + 1] = {
	[MCAST_STATS_A_GROUP] = NLA_POLICY_MIN(NLA_U32, 1),
};

static const struct nla_policy mcast_node_req_policy[MCAST_A_NODE + 1] = {
	[MCAST_A_NODE] = NLA_POLICY_NESTED(mcast_node_policy),
};

static const struct nla_policy mcast_key_req_policy[MCAST_A_KEY + 1] = {
	[MCAST_A_KEY] = NLA_POLICY_NESTED(mcast_key_policy),
};

static const struct nla_policy mcast_peer_req_policy[MCAST_A_PEER + 1] = {
	[MCAST_A_PEER] = NLA_POLICY_NESTED(mcast_peer_policy),
};

static const struct nla_policy mcast_group_req_policy[MCAST_A_GROUP + 1] = {
	[MCAST_A_GROUP] = NLA_POLICY_NESTED(mcast_group_policy),
};

static const struct nla_policy mcast_stats_req_policy[MCAST_A_STATS + 1] = {
	[MCAST_A_STATS] = NLA_POLICY_NESTED(mcast_stats_policy),
};

/* ------------------------------------------------------------ messages */

static struct mcast_net *mcast_info_net(struct genl_info *info)
{
	return mcast_net(genl_info_net(info));
}

/* Which keys the node has and uses; never the keys. */
static int mcast_put_keys(struct sk_buff *skb, const struct mcast_auth *a)
{
	u8 ids[MCAST_KEYS_MAX];
	u32 n = mcast_auth_ids(a, ids);

	if (!n)
		return 0;
	return nla_put(skb, MCAST_NODE_A_KEY_IDS, n, ids) ||
	       nla_put_u8(skb, MCAST_NODE_A_KEY_USE, a->use->id);
}

/* A worm's limits, where the transport has intermediate reception. */
static int mcast_put_worm_limits(struct sk_buff *skb,
				 const struct mcast_transport_ops *tp)
{
	if (!tp || !(tp->caps & MCAST_TP_CAP_IR))
		return 0;
	return nla_put_u32(skb, MCAST_NODE_A_WORM_DESTS, tp->max_worm_dests) ||
	       nla_put_u32(skb, MCAST_NODE_A_WORM_HDR, tp->max_worm_hdr);
}

static int mcast_put_node(struct sk_buff *skb, struct mcast_net *mn)
{
	struct nlattr *nest;
	u16 dims[MCAST_MAX_DIMS];
	unsigned int d;

	nest = nla_nest_start(skb, MCAST_A_NODE);
	if (!nest)
		return -EMSGSIZE;
	if (nla_put_u8(skb, MCAST_NODE_A_KIND, !mn->configured ?
		       MCAST_TOPO_NONE : mn->torus.rank ? MCAST_TOPO_SWITCH :
		       MCAST_TOPO_TORUS))
		goto cancel;
	if (mn->configured && mn->torus.rank &&
	    nla_put(skb, MCAST_NODE_A_RANKS, mn->torus.nodes * sizeof(u32),
		    mn->torus.rank))
		goto cancel;
	if (mn->configured) {
		for (d = 0; d < mn->torus.n; d++)
			dims[d] = mn->torus.k[d];
		if (nla_put_u8(skb, MCAST_NODE_A_LINKS, mn->torus.links) ||
		    nla_put(skb, MCAST_NODE_A_DIMS, mn->torus.n * 2, dims) ||
		    nla_put(skb, MCAST_NODE_A_COORD, mn->torus.n * 2,
			    mn->coord) ||
		    nla_put_u32(skb, MCAST_NODE_A_ID, mn->node_id))
			goto cancel;
	}
	if (nla_put_u16(skb, MCAST_NODE_A_PORT, mn->port) ||
	    nla_put_string(skb, MCAST_NODE_A_TRANSPORT, mn->tp->name) ||
	    nla_put_u32(skb, MCAST_NODE_A_TRANSPORT_CAPS, mn->tp->caps) ||
	    nla_put_u32(skb, MCAST_NODE_A_TRANSPORT_MTU, mn->tp->max_payload) ||
	    mcast_put_worm_limits(skb, mn->tp) ||
	    nla_put_u32(skb, MCAST_NODE_A_RTO_MS, mn->rto_ms) ||
	    nla_put_u32(skb, MCAST_NODE_A_RETRIES, mn->retries) ||
	    nla_put_u8(skb, MCAST_NODE_A_ALGORITHM, mn->algo) ||
	    nla_put_u32(skb, MCAST_NODE_A_ALGO_R, mn->algo_r) ||
	    mcast_put_keys(skb, &mn->auth))
		goto cancel;
	nla_nest_end(skb, nest);
	return 0;
cancel:
	nla_nest_cancel(skb, nest);
	return -EMSGSIZE;
}

/*
 * What the data path knows of the peer (under mn->lock, as the data path
 * runs): its round trip, the timeout a transfer to it starts with, when
 * it last spoke, and the state it holds here.  For ops, as `ss -i` is.
 */
static int mcast_put_peer_link(struct sk_buff *skb, struct mcast_net *mn,
			       const struct mcast_peer *p)
{
	if (p->heard_ever &&
	    nla_put_u32(skb, MCAST_PEER_A_HEARD_MS,
			min_t(u64, jiffies_to_msecs(jiffies - p->heard),
			      U32_MAX)))
		return -EMSGSIZE;
	return nla_put_u32(skb, MCAST_PEER_A_SRTT_US, p->srtt_us) ||
	       nla_put_u32(skb, MCAST_PEER_A_RTTVAR_US, p->rttvar_us) ||
	       nla_put_u32(skb, MCAST_PEER_A_RTO_MS,
			   jiffies_to_msecs(mcast_rto_base(mn, p->id))) ||
	       nla_put_u32(skb, MCAST_PEER_A_RTO_HELD_MS, p->rto_held_ms) ||
	       nla_put_u8(skb, MCAST_PEER_A_DOWN, p->down) ||
	       nla_put_u32(skb, MCAST_PEER_A_TRANSFERS, p->tx_active) ||
	       nla_put_u32(skb, MCAST_PEER_A_JOBS, p->rx_jobs + p->jobs) ||
	       nla_put_u32(skb, MCAST_PEER_A_HELD, p->held) ||
	       nla_put_u32(skb, MCAST_PEER_A_STREAMS, p->streams) ||
	       /* below its shares (data.h), so a u32 holds them */
	       nla_put_u32(skb, MCAST_PEER_A_RX_MEM,
			   min_t(u64, p->rx_mem, U32_MAX)) ||
	       nla_put_u32(skb, MCAST_PEER_A_MSG_MEM,
			   min_t(u64, p->fwd_mem, U32_MAX)) ||
	       nla_put_u32(skb, MCAST_PEER_A_RB, p->rb);
}

/* @mn: also the data path's view of it (a reply, not an event) */
static int mcast_put_peer(struct sk_buff *skb, const struct mcast_peer *p,
			  struct mcast_net *mn)
{
	struct nlattr *nest;

	nest = nla_nest_start(skb, MCAST_A_PEER);
	if (!nest)
		return -EMSGSIZE;
	if (nla_put_u32(skb, MCAST_PEER_A_ID, p->id) ||
	    (p->ipv6 ? nla_put_in6_addr(skb, MCAST_PEER_A_IPV6, &p->addr.v6) :
		       nla_put_in_addr(skb, MCAST_PEER_A_IPV4, p->addr.v4)) ||
	    nla_put_u16(skb, MCAST_PEER_A_PORT, p->port) ||
	    (mn && mcast_put_peer_link(skb, mn, p))) {
		nla_nest_cancel(skb, nest);
		return -EMSGSIZE;
	}
	nla_nest_end(skb, nest);
	return 0;
}

static int mcast_put_gauge(struct sk_buff *skb, int attr, u64 v)
{
	return nla_put_u64_64bit(skb, attr, v, MCAST_STATS_A_PAD);
}

/* The node's data path now: window, memory and the state it holds. */
static int mcast_put_gauges(struct sk_buff *skb, struct mcast_net *mn)
{
	struct mcast_data_gauges g;

	mcast_data_gauges(mn, &g);
	return mcast_put_gauge(skb, MCAST_STATS_A_CWND, mn->cwnd) ||
	       mcast_put_gauge(skb, MCAST_STATS_A_UNACKED, mn->tx_out) ||
	       mcast_put_gauge(skb, MCAST_STATS_A_RX_MEM, mn->rx_mem) ||
	       mcast_put_gauge(skb, MCAST_STATS_A_JOBS, mn->njobs) ||
	       mcast_put_gauge(skb, MCAST_STATS_A_DONE_JOBS, mn->ndone) ||
	       mcast_put_gauge(skb, MCAST_STATS_A_TRANSFERS, g.transfers) ||
	       mcast_put_gauge(skb, MCAST_STATS_A_QUEUED, g.queued) ||
	       mcast_put_gauge(skb, MCAST_STATS_A_HELD, mn->nheld) ||
	       mcast_put_gauge(skb, MCAST_STATS_A_MSG_MEM,
			       mn->fwd_mem + mn->held_mem) ||
	       mcast_put_gauge(skb, MCAST_STATS_A_STREAMS, mn->nstreams) ||
	       mcast_put_gauge(skb, MCAST_STATS_A_FLOORS, g.floors) ||
	       mcast_put_gauge(skb, MCAST_STATS_A_BLOCKED, mn->nblocked) ||
	       mcast_put_gauge(skb, MCAST_STATS_A_TCP_CONNS, mn->tp_conns);
}

static int mcast_put_count(struct sk_buff *skb, int attr, const atomic64_t *c)
{
	return nla_put_u64_64bit(skb, attr, atomic64_read(c), MCAST_STATS_A_PAD);
}

/* The node's worms: sent, their destinations and splits, and received. */
static int mcast_put_worm_stats(struct sk_buff *skb,
				const struct mcast_stats *s)
{
	return mcast_put_count(skb, MCAST_STATS_A_WORMS, &s->worms) ||
	       mcast_put_count(skb, MCAST_STATS_A_WORM_DESTS, &s->worm_dests) ||
	       mcast_put_count(skb, MCAST_STATS_A_WORM_SPLITS, &s->worm_splits) ||
	       mcast_put_count(skb, MCAST_STATS_A_OFFLOAD_FALLBACKS,
			       &s->offload_fallbacks) ||
	       mcast_put_count(skb, MCAST_STATS_A_RX_WORMS, &s->rx_worms) ||
	       mcast_put_count(skb, MCAST_STATS_A_RB_SENT, &s->rb_sent) ||
	       mcast_put_count(skb, MCAST_STATS_A_RB_ASSEMBLED,
			       &s->rb_assembled) ||
	       mcast_put_count(skb, MCAST_STATS_A_RB_FALLBACKS,
			       &s->rb_fallbacks) ||
	       mcast_put_count(skb, MCAST_STATS_A_WORM_RESENDS,
			       &s->worm_resends) ||
	       mcast_put_count(skb, MCAST_STATS_A_DONE_PROBES,
			       &s->done_probes) ||
	       mcast_put_count(skb, MCAST_STATS_A_RX_YOUNG, &s->rx_young) ||
	       mcast_put_count(skb, MCAST_STATS_A_ACKS_OLD, &s->acks_old);
}

/* The connections the TCP transport closed, by why (docs/transports.md). */
static int mcast_put_tcp_stats(struct sk_buff *skb,
			       const struct mcast_stats *s)
{
	return mcast_put_count(skb, MCAST_STATS_A_TCP_EVICTED,
			       &s->tcp_evicted) ||
	       mcast_put_count(skb, MCAST_STATS_A_TCP_UNAUTHED,
			       &s->tcp_unauthed) ||
	       mcast_put_count(skb, MCAST_STATS_A_TCP_IDLE, &s->tcp_idle) ||
	       mcast_put_count(skb, MCAST_STATS_A_TCP_BAD_FRAMES,
			       &s->tcp_bad_frames);
}

/* @mn: the node's, with its data path's gauges; NULL for a group's. */
static int mcast_put_stats(struct sk_buff *skb, const struct mcast_stats *s,
			   u32 group, u32 files, struct mcast_net *mn)
{
	struct nlattr *nest;

	nest = nla_nest_start(skb, MCAST_A_STATS);
	if (!nest)
		return -EMSGSIZE;
	if ((group && nla_put_u32(skb, MCAST_STATS_A_GROUP, group)) ||
	    nla_put_u64_64bit(skb, MCAST_STATS_A_TX_MSGS,
			      atomic64_read(&s->tx_msgs), MCAST_STATS_A_PAD) ||
	    nla_put_u64_64bit(skb, MCAST_STATS_A_TX_BYTES,
			      atomic64_read(&s->tx_bytes), MCAST_STATS_A_PAD) ||
	    nla_put_u64_64bit(skb, MCAST_STATS_A_RX_MSGS,
			      atomic64_read(&s->rx_msgs), MCAST_STATS_A_PAD) ||
	    nla_put_u64_64bit(skb, MCAST_STATS_A_RX_BYTES,
			      atomic64_read(&s->rx_bytes), MCAST_STATS_A_PAD) ||
	    nla_put_u64_64bit(skb, MCAST_STATS_A_RX_DROPS,
			      atomic64_read(&s->rx_drops), MCAST_STATS_A_PAD) ||
	    nla_put_u32(skb, MCAST_STATS_A_FILES, files))
		goto cancel;
	/* The data path counts per node only. */
	if (!group &&
	    (nla_put_u64_64bit(skb, MCAST_STATS_A_FWD_MSGS,
			       atomic64_read(&s->fwd_msgs), MCAST_STATS_A_PAD) ||
	     nla_put_u64_64bit(skb, MCAST_STATS_A_TX_PACKETS,
			       atomic64_read(&s->tx_packets), MCAST_STATS_A_PAD) ||
	     nla_put_u64_64bit(skb, MCAST_STATS_A_RX_PACKETS,
			       atomic64_read(&s->rx_packets), MCAST_STATS_A_PAD) ||
	     nla_put_u64_64bit(skb, MCAST_STATS_A_RETRANS,
			       atomic64_read(&s->retrans), MCAST_STATS_A_PAD) ||
	     nla_put_u64_64bit(skb, MCAST_STATS_A_FAST_RETRANS,
			       atomic64_read(&s->fast_retrans),
			       MCAST_STATS_A_PAD) ||
	     nla_put_u64_64bit(skb, MCAST_STATS_A_DUPS,
			       atomic64_read(&s->dups), MCAST_STATS_A_PAD) ||
	     nla_put_u64_64bit(skb, MCAST_STATS_A_PEER_FAILS,
			       atomic64_read(&s->peer_fails), MCAST_STATS_A_PAD) ||
	     nla_put_u64_64bit(skb, MCAST_STATS_A_UNREACHED,
			       atomic64_read(&s->unreached), MCAST_STATS_A_PAD) ||
	     nla_put_u64_64bit(skb, MCAST_STATS_A_RX_BAD_SRC,
			       atomic64_read(&s->rx_bad_src), MCAST_STATS_A_PAD) ||
	     nla_put_u64_64bit(skb, MCAST_STATS_A_RX_MALFORMED,
			       atomic64_read(&s->rx_malformed),
			       MCAST_STATS_A_PAD) ||
	     nla_put_u64_64bit(skb, MCAST_STATS_A_REWINDS,
			       atomic64_read(&s->rewinds), MCAST_STATS_A_PAD) ||
	     nla_put_u64_64bit(skb, MCAST_STATS_A_TX_EXPIRED,
			       atomic64_read(&s->tx_expired), MCAST_STATS_A_PAD) ||
	     nla_put_u64_64bit(skb, MCAST_STATS_A_BUSY_SENT,
			       atomic64_read(&s->busy_sent), MCAST_STATS_A_PAD) ||
	     nla_put_u64_64bit(skb, MCAST_STATS_A_LATE,
			       atomic64_read(&s->late), MCAST_STATS_A_PAD) ||
	     nla_put_u64_64bit(skb, MCAST_STATS_A_RX_BAD_AUTH,
			       atomic64_read(&s->rx_bad_auth), MCAST_STATS_A_PAD) ||
	     nla_put_u64_64bit(skb, MCAST_STATS_A_TIMER_NS,
			       atomic64_read(&s->timer_ns), MCAST_STATS_A_PAD) ||
	     nla_put_u64_64bit(skb, MCAST_STATS_A_CUTOFFS,
			       atomic64_read(&s->cutoffs), MCAST_STATS_A_PAD) ||
	     nla_put_u64_64bit(skb, MCAST_STATS_A_RX_STALE,
			       atomic64_read(&s->rx_stale), MCAST_STATS_A_PAD) ||
	     mcast_put_worm_stats(skb, s) || mcast_put_tcp_stats(skb, s)))
		goto cancel;
	if (mn && mcast_put_gauges(skb, mn))
		goto cancel;
	nla_nest_end(skb, nest);
	return 0;
cancel:
	nla_nest_cancel(skb, nest);
	return -EMSGSIZE;
}

/*
 * The nest, GROUP and FILES, and at most one u64 for every other
 * attribute: counted from the uapi enum, so a new counter cannot outgrow
 * it (a fixed 40 had fallen behind the 46 there are; the skb's slab
 * rounding hid that).
 */
#define MCAST_STATS_SIZE (nla_total_size(0) + 2 * nla_total_size(4) + \
			  MCAST_STATS_A_MAX * nla_total_size_64bit(8))

/* A node's message: a page, and a switched cluster's ranks beyond it. */
static size_t mcast_node_size(const struct mcast_net *mn)
{
	return NLMSG_GOODSIZE +
	       (mn->torus.rank ? nla_total_size(mn->torus.nodes * 4) : 0);
}

/* ------------------------------------------------------- notifications */

static void mcast_notify_node(struct mcast_net *mn)
{
	struct sk_buff *skb;
	void *hdr;

	if (!mcast_listening(mn))
		return;
	skb = mcast_event_new(mcast_node_size(mn), MCAST_CMD_NODE_GET, &hdr);
	if (!skb)
		return;
	if (mcast_put_node(skb, mn)) {
		nlmsg_free(skb);
		return;
	}
	mcast_event_send(mn, skb, hdr);
}

static void mcast_notify_peer(struct mcast_net *mn, u8 cmd,
			      const struct mcast_peer *p)
{
	struct sk_buff *skb;
	void *hdr;

	if (!mcast_listening(mn))
		return;
	skb = mcast_event_new(NLMSG_GOODSIZE, cmd, &hdr);
	if (!skb)
		return;
	if (mcast_put_peer(skb, p, NULL)) {
		nlmsg_free(skb);
		return;
	}
	mcast_event_send(mn, skb, hdr);
}

/* ------------------------------------------------------------- helpers */

/* Parses the nest @type of a request into @tb; -EINVAL if it is missing. */
static int mcast_parse_nest(struct genl_info *info, int type, struct nlattr **tb,
			    int maxtype, const struct nla_policy *policy)
{
	if (GENL_REQ_ATTR_CHECK(info, type))
		return -EINVAL;
	return nla_parse_nested(tb, maxtype, info->attrs[type], policy,
				info->extack);
}

static int mcast_reply(struct genl_info *info, size_t size,
		       int (*fill)(struct sk_buff *skb, const void *arg),
		       const void *arg)
{
	struct sk_buff *skb;
	void *hdr;
	int err;

	skb = genlmsg_new(size, GFP_KERNEL);
	if (!skb)
		return -ENOMEM;
	hdr = genlmsg_put_reply(skb, info, &mcast_family, 0, info->genlhdr->cmd);
	if (!hdr) {
		err = -EMSGSIZE;
		goto fail;
	}
	err = fill(skb, arg);
	if (err)
		goto fail;
	genlmsg_end(skb, hdr);
	return genlmsg_reply(skb, info);
fail:
	nlmsg_free(skb);
	return err;
}

/*
 * A coordinate attribute as a node id of @t; -EINVAL/-ERANGE and an extack
 * message naming the dimension otherwise.
 */
static int mcast_coord_to_id(const struct mc_torus *t,
			     const struct nlattr *attr, u16 *coord, u32 *id,
			     struct netlink_ext_ack *extack)
{
	unsigned int d;

	if (nla_len(attr) != t->n * 2) {
		NL_SET_ERR_MSG_ATTR(extack, attr,
				    "coordinate needs exactly one u16 per dimension of the torus");
		return -EINVAL;
	}
	nla_memcpy(coord, attr, t->n * 2);
	for (d = 0; d < t->n; d++) {
		if (coord[d] >= t->k[d]) {
			mcast_extack_fmt(extack, attr,
					 "coordinate outside the torus",
					 "coordinate outside the torus: sigma_%u = %u, radix %u",
					 d, coord[d], t->k[d]);
			return -ERANGE;
		}
	}
	*id = mc_node_index(t, coord);
	return 0;
}

static bool mcast_need_configured(struct mcast_net *mn,
				  struct netlink_ext_ack *extack)
{
	if (mn->configured)
		return true;
	NL_SET_ERR_MSG(extack, "node not configured: set its topology first (NODE_SET)");
	return false;
}

/* ------------------------------------------------------------------ node */

static int mcast_fill_node(struct sk_buff *skb, const void *arg)
{
	return mcast_put_node(skb, (struct mcast_net *)arg);
}

static int mcast_node_get_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct mcast_net *mn = mcast_info_net(info);
	int err;

	mutex_lock(&mn->lock);
	err = mcast_reply(info, mcast_node_size(mn), mcast_fill_node, mn);
	mutex_unlock(&mn->lock);
	return err;
}

static int mcast_node_get_dumpit(struct sk_buff *skb,
				 struct netlink_callback *cb)
{
	struct mcast_net *mn = mcast_net(sock_net(skb->sk));
	void *hdr;
	int err;

	if (cb->args[0])
		return 0;
	hdr = genlmsg_put(skb, NETLINK_CB(cb->skb).portid, cb->nlh->nlmsg_seq,
			  &mcast_family, NLM_F_MULTI, MCAST_CMD_NODE_GET);
	if (!hdr)
		return -EMSGSIZE;
	mutex_lock(&mn->lock);
	err = mcast_put_node(skb, mn);
	mutex_unlock(&mn->lock);
	if (err) {
		genlmsg_cancel(skb, hdr);
		return err;
	}
	genlmsg_end(skb, hdr);
	cb->args[0] = 1;
	return skb->len;
}

/*
 * The transport NODE_SET names, with a reference, NULL when it names none,
 * or an error.  A transport in a module of its own is loaded on demand
 * (alias mcast-transport-NAME).
 */
static const struct mcast_transport_ops *
mcast_node_transport(const struct nlattr *attr, struct netlink_ext_ack *extack)
{
	const struct mcast_transport_ops *tp;
	const char *name;

	if (!attr)
		return NULL;
	name = nla_data(attr);
	tp = mcast_transport_get(name);
	if (!tp && !request_module("mcast-transport-%s", name))
		tp = mcast_transport_get(name);
	if (!tp) {
		NL_SET_ERR_MSG_ATTR(extack, attr,
				    "no such transport (udp, tcp, or a module's)");
		return ERR_PTR(-ENOENT);
	}
	return tp;
}

/*
 * Opens the node's transport *@tp (NULL: the one it has) on @port, under
 * mn->lock.  When the node takes a new transport, the reference *@tp came
 * with moves to the node and *@tp becomes the old one; either way the
 * caller puts *@tp.  On failure the node is as it was.  The fragment size is the
 * transport's, so the transport changes only while nothing is in flight.
 */
static int mcast_node_open(struct mcast_net *mn, u16 port,
			   const struct mcast_transport_ops **tp,
			   struct nlattr **tb, struct netlink_ext_ack *extack)
{
	const struct mcast_transport_ops *old_tp = mn->tp;
	bool change = *tp && *tp != old_tp;
	u16 old_port = mn->port;
	int err;

	if (change && !mcast_data_idle(mn)) {
		NL_SET_ERR_MSG_ATTR(extack, tb[MCAST_NODE_A_TRANSPORT],
				    "cannot change the transport while messages are in flight");
		return -EBUSY;
	}
	if (change) {
		old_tp->close(mn);
		mn->tp = *tp;
	}
	mn->port = port;
	err = mcast_data_open(mn);
	if (!err) {
		if (change)
			*tp = old_tp;
		return 0;
	}
	mn->tp->close(mn);
	mn->tp = old_tp;
	mn->port = old_port;
	if (mn->configured)
		mcast_data_open(mn);
	NL_SET_ERR_MSG_ATTR(extack, tb[MCAST_NODE_A_PORT] ?:
			    tb[MCAST_NODE_A_TRANSPORT],
			    "cannot open the transport on this port");
	return err;
}

/* The planning core's algorithm for each MCAST_ALGORITHM_*. */
static const enum mc_algo mcast_plan_algo[__MCAST_ALGORITHM_MAX] = {
	[MCAST_ALGORITHM_AUTO] = MC_ALGO_UTORUS,	/* runs on any torus */
	[MCAST_ALGORITHM_UTORUS] = MC_ALGO_UTORUS,
	[MCAST_ALGORITHM_STORUS] = MC_ALGO_STORUS,
	[MCAST_ALGORITHM_MDTORUS] = MC_ALGO_MDTORUS,
	[MCAST_ALGORITHM_MUTORUS] = MC_ALGO_MUTORUS,
	[MCAST_ALGORITHM_BINOMIAL] = MC_ALGO_BINOMIAL,
	[MCAST_ALGORITHM_UCUBE] = MC_ALGO_CUBE,
	[MCAST_ALGORITHM_MAXPORT] = MC_ALGO_CUBE,
	[MCAST_ALGORITHM_COMBINE] = MC_ALGO_CUBE,
	[MCAST_ALGORITHM_WSORT] = MC_ALGO_CUBE,
	[MCAST_ALGORITHM_RING] = MC_ALGO_RING,
	/* broadcasts by RB (checked below), the rest by U-torus */
	[MCAST_ALGORITHM_RB] = MC_ALGO_UTORUS,
	[MCAST_ALGORITHM_RB_ALL_PORT] = MC_ALGO_UTORUS,
};

/*
 * The algorithm the node has after NODE_SET (@tb's or its own) must run on
 * the torus @t it has then: a path-based one needs UTPR's torus.  A
 * transport without IR is no reason to refuse: sends run the worms in
 * software (chains, counted), and the transport may change.  Under
 * mn->lock.
 */
static int mcast_node_algo_check(struct mcast_net *mn, const struct mc_torus *t,
				 struct nlattr **tb,
				 struct netlink_ext_ack *extack)
{
	struct nlattr *a = tb[MCAST_NODE_A_ALGORITHM];
	u8 algo = a ? nla_get_u8(a) : mn->algo;
	u32 r = tb[MCAST_NODE_A_ALGO_R] ?
		nla_get_u32(tb[MCAST_NODE_A_ALGO_R]) : mn->algo_r;
	const char *why = NULL;

	if (mcast_plan_algo[algo] == MC_ALGO_CUBE)
		r = mcast_cube_algo(algo);
	if (algo == MCAST_ALGORITHM_RB || algo == MCAST_ALGORITHM_RB_ALL_PORT) {
		if (mcast_rb_shape_ok(t, algo, &why))
			return 0;
	} else if (!mc_algo_supported(t, mcast_plan_algo[algo], r, &why)) {
		return 0;
	}
	why = why ?: "the torus cannot run this algorithm";
	if (a)
		mcast_extack_set(extack, a, why);
	else	/* the topology changed under the node's algorithm */
		mcast_extack_fmt(extack, tb[MCAST_NODE_A_DIMS],
				 "the node's algorithm cannot run on this torus: set another with it",
				 "%s (the node's algorithm: set another with this topology)",
				 why);
	return -EINVAL;
}

static void mcast_node_algo_apply(struct mcast_net *mn, struct nlattr **tb)
{
	/* the data path reads them when a send starts */
	if (tb[MCAST_NODE_A_ALGORITHM])
		WRITE_ONCE(mn->algo, nla_get_u8(tb[MCAST_NODE_A_ALGORITHM]));
	if (tb[MCAST_NODE_A_ALGO_R])
		WRITE_ONCE(mn->algo_r, nla_get_u32(tb[MCAST_NODE_A_ALGO_R]));
}

/* A switched cluster's DIMS (its host count) and RANKS into @t. */
static int mcast_node_switch(struct nlattr **tb, struct mc_torus *t,
			     u32 **rank, u32 **unrank,
			     struct netlink_ext_ack *extack)
{
	struct nlattr *ad = tb[MCAST_NODE_A_DIMS], *ar = tb[MCAST_NODE_A_RANKS];
	const char *why = NULL;
	u16 hosts;
	int err;

	if (nla_len(ad) != 2 || (tb[MCAST_NODE_A_LINKS] &&
				 nla_get_u8(tb[MCAST_NODE_A_LINKS]))) {
		NL_SET_ERR_MSG_ATTR(extack, ad,
				    "a switched cluster's DIMS is its host count (one u16), its links UNI");
		return -EINVAL;
	}
	if (!ar) {
		NL_SET_ERR_MSG_ATTR(extack, ad, "a switched cluster needs RANKS");
		return -EINVAL;
	}
	hosts = nla_get_u16(ad);
	if (nla_len(ar) != hosts * sizeof(u32)) {
		NL_SET_ERR_MSG_ATTR(extack, ar,
				    "RANKS needs one u32 per host (DIMS)");
		return -EINVAL;
	}
	*rank = kvmalloc_array(max_t(u16, hosts, 1), sizeof(u32),
			       GFP_KERNEL_ACCOUNT);
	*unrank = kvmalloc_array(max_t(u16, hosts, 1), sizeof(u32),
				 GFP_KERNEL_ACCOUNT);
	if (!*rank || !*unrank)
		return -ENOMEM;
	nla_memcpy(*rank, ar, hosts * sizeof(u32));
	err = mc_torus_init_switch(t, hosts, *rank, *unrank, &why);
	if (err)
		mcast_extack_set(extack, ar, why ? why : "invalid RANKS");
	return err;
}

/*
 * KIND, DIMS, LINKS (and a switched cluster's RANKS) into @t; the rank
 * tables @t then points at are allocated into *@rank and *@unrank, for
 * the caller to keep or free.
 */
static int mcast_node_topology(struct nlattr **tb, struct mc_torus *t,
			       u32 **rank, u32 **unrank,
			       struct netlink_ext_ack *extack)
{
	u16 dims[MCAST_MAX_DIMS];
	const char *why = NULL;
	u8 links = MCAST_LINKS_UNI;
	int err;

	if (nla_get_u8(tb[MCAST_NODE_A_KIND]) == MCAST_TOPO_SWITCH)
		return mcast_node_switch(tb, t, rank, unrank, extack);
	if (tb[MCAST_NODE_A_RANKS]) {
		NL_SET_ERR_MSG_ATTR(extack, tb[MCAST_NODE_A_RANKS],
				    "RANKS belong to a switched cluster (KIND SWITCH)");
		return -EINVAL;
	}
	if (tb[MCAST_NODE_A_LINKS])
		links = nla_get_u8(tb[MCAST_NODE_A_LINKS]);
	nla_memcpy(dims, tb[MCAST_NODE_A_DIMS], sizeof(dims));
	err = mc_torus_init(t, nla_len(tb[MCAST_NODE_A_DIMS]) / 2, dims,
			    (enum mc_links)links, &why);
	if (err)
		mcast_extack_set(extack, tb[MCAST_NODE_A_DIMS],
				 why ? why : "invalid torus dimensions");
	return err;
}

/* Whether @t is another topology than the node's (ranks included). */
static bool mcast_topology_changed(const struct mcast_net *mn,
				   const struct mc_torus *t)
{
	const struct mc_torus *o = &mn->torus;
	unsigned int d;

	if (!mn->configured || o->n != t->n || o->links != t->links ||
	    !o->rank != !t->rank)
		return true;
	for (d = 0; d < t->n; d++)
		if (o->k[d] != t->k[d])
			return true;
	return t->rank && memcmp(o->rank, t->rank, t->nodes * sizeof(u32));
}

static int mcast_node_set_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct mcast_net *mn = mcast_info_net(info);
	struct netlink_ext_ack *extack = info->extack;
	struct nlattr *tb[MCAST_NODE_A_MAX + 1];
	struct nlattr *nest;
	u16 coord[MCAST_MAX_DIMS];
	struct mc_torus t = { };
	u32 *rank = NULL, *unrank = NULL;
	const struct mcast_transport_ops *tp = NULL;
	bool changed;
	u16 port;
	u32 id;
	int err;

	err = mcast_parse_nest(info, MCAST_A_NODE, tb, MCAST_NODE_A_MAX,
			       mcast_node_policy);
	if (err)
		return err;
	nest = info->attrs[MCAST_A_NODE];
	if (NL_REQ_ATTR_CHECK(extack, nest, tb, MCAST_NODE_A_KIND) ||
	    NL_REQ_ATTR_CHECK(extack, nest, tb, MCAST_NODE_A_DIMS) ||
	    NL_REQ_ATTR_CHECK(extack, nest, tb, MCAST_NODE_A_COORD)) {
		NL_SET_ERR_MSG(extack, "NODE_SET needs KIND, DIMS and COORD");
		return -EINVAL;
	}
	err = mcast_node_topology(tb, &t, &rank, &unrank, extack);
	if (err)
		goto free;
	err = mcast_coord_to_id(&t, tb[MCAST_NODE_A_COORD], coord, &id,
				extack);
	if (err)
		goto free;
	tp = mcast_node_transport(tb[MCAST_NODE_A_TRANSPORT], extack);
	if (IS_ERR(tp)) {
		err = PTR_ERR(tp);
		tp = NULL;
		goto free;
	}

	mutex_lock(&mn->lock);
	changed = mcast_topology_changed(mn, &t) || mn->node_id != id;
	port = mn->configured ? mn->port : MCAST_DEFAULT_PORT;
	if (changed && (mn->npeers || mn->ngroups)) {
		NL_SET_ERR_MSG(extack,
			       "cannot change the topology or coordinate while peers or groups exist");
		err = -EBUSY;
		goto out;
	}
	err = mcast_node_algo_check(mn, &t, tb, extack);
	if (err)
		goto out;
	if (tb[MCAST_NODE_A_PORT])
		port = nla_get_u16(tb[MCAST_NODE_A_PORT]);
	err = mcast_node_open(mn, port, &tp, tb, extack);
	if (err)
		goto out;
	mcast_node_algo_apply(mn, tb);
	if (tb[MCAST_NODE_A_RTO_MS])
		mn->rto_ms = nla_get_u32(tb[MCAST_NODE_A_RTO_MS]);
	if (tb[MCAST_NODE_A_RETRIES])
		mn->retries = nla_get_u32(tb[MCAST_NODE_A_RETRIES]);
	mn->torus = t;
	/* the old tables go below, once no reader can hold them */
	swap(mn->sw_rank, rank);
	swap(mn->sw_unrank, unrank);
	mn->node_id = id;
	memset(mn->coord, 0, sizeof(mn->coord));
	memcpy(mn->coord, coord, t.n * sizeof(u16));
	mn->configured = true;
	mcast_data_set_memcg(mn);
	mcast_notify_set_pidns(mn, task_active_pid_ns(current));
	mcast_notify_node(mn);
out:
	mutex_unlock(&mn->lock);
free:
	if (tp)
		mcast_transport_put(tp);
	kvfree(rank);
	kvfree(unrank);
	return err;
}

/* ------------------------------------------------------------------- keys */

/* What a KEY_SET asks, checked against the node's keys; under mn->lock. */
static int mcast_key_apply(struct mcast_net *mn, struct nlattr **tb,
			   struct netlink_ext_ack *extack)
{
	struct mcast_auth *a = &mn->auth;
	u8 id = tb[MCAST_KEY_A_ID] ? nla_get_u8(tb[MCAST_KEY_A_ID]) : 0;
	bool on = mcast_auth_on(a), idle = mcast_data_idle(mn);

	if (tb[MCAST_KEY_A_NONE]) {
		if (on && !idle)
			goto busy;
		mcast_auth_clear(a);
		return 0;
	}
	if (!id) {
		NL_SET_ERR_MSG(extack, "KEY_SET needs an ID (or NONE)");
		return -EINVAL;
	}
	if (tb[MCAST_KEY_A_SECRET]) {
		if (!on && !idle)
			goto busy;
		return mcast_auth_set(a, id, nla_data(tb[MCAST_KEY_A_SECRET]),
				      tb[MCAST_KEY_A_USE], extack);
	}
	if (tb[MCAST_KEY_A_USE])
		return mcast_auth_use(a, id, extack);
	if (tb[MCAST_KEY_A_DROP]) {
		if (a->nkeys == 1 && !idle)
			goto busy;
		return mcast_auth_drop(a, id, extack);
	}
	NL_SET_ERR_MSG(extack, "KEY_SET needs SECRET, USE, DROP or NONE");
	return -EINVAL;
busy:
	/* the fragment size and every datagram's format change with it */
	NL_SET_ERR_MSG(extack, "cannot turn authentication on or off while messages are in flight");
	return -EBUSY;
}

static int mcast_key_set_parsed(struct mcast_net *mn, struct genl_info *info)
{
	struct nlattr *tb[MCAST_KEY_A_MAX + 1];
	int err;

	err = mcast_parse_nest(info, MCAST_A_KEY, tb, MCAST_KEY_A_MAX,
			       mcast_key_policy);
	if (err)
		return err;
	if (!!tb[MCAST_KEY_A_NONE] + !!tb[MCAST_KEY_A_DROP] +
	    !!(tb[MCAST_KEY_A_SECRET] || tb[MCAST_KEY_A_USE]) > 1) {
		NL_SET_ERR_MSG(info->extack, "KEY_SET does one of: SECRET [USE], USE, DROP, NONE");
		return -EINVAL;
	}
	mutex_lock(&mn->lock);
	err = mcast_key_apply(mn, tb, info->extack);
	if (!err)
		mcast_notify_node(mn);
	mutex_unlock(&mn->lock);
	return err;
}

static int mcast_key_set_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr *nest = info->attrs[MCAST_A_KEY];
	int err = mcast_key_set_parsed(mcast_info_net(info), info);

	/*
	 * The request's skb is freed as any other, and an error's ack may
	 * echo the request: the secret is wiped from it, whatever happened
	 * (the tfm has its own copy, freed with kfree_sensitive()).
	 */
	if (nest)
		memzero_explicit(nla_data(nest), nla_len(nest));
	return err;
}

/* ------------------------------------------------------------------ peers */

/* The peer a request names by ID or COORD (exactly one of them). */
static int mcast_peer_id(struct mcast_net *mn, struct nlattr *nest,
			 struct nlattr **tb, u32 *id,
			 struct netlink_ext_ack *extack)
{
	u16 coord[MCAST_MAX_DIMS];

	if (tb[MCAST_PEER_A_ID] && tb[MCAST_PEER_A_COORD]) {
		NL_SET_ERR_MSG_ATTR(extack, tb[MCAST_PEER_A_COORD],
				    "name the peer by ID or by COORD, not both");
		return -EINVAL;
	}
	if (tb[MCAST_PEER_A_COORD])
		return mcast_coord_to_id(&mn->torus, tb[MCAST_PEER_A_COORD],
					 coord, id, extack);
	if (NL_REQ_ATTR_CHECK(extack, nest, tb, MCAST_PEER_A_ID)) {
		NL_SET_ERR_MSG(extack, "peer ID or COORD missing");
		return -EINVAL;
	}
	*id = nla_get_u32(tb[MCAST_PEER_A_ID]);
	if (*id >= mn->torus.nodes) {
		NL_SET_ERR_MSG_ATTR(extack, tb[MCAST_PEER_A_ID],
				    "peer id is not a node of the torus");
		return -ERANGE;
	}
	return 0;
}

static int mcast_peer_new_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct mcast_net *mn = mcast_info_net(info);
	struct netlink_ext_ack *extack = info->extack;
	struct nlattr *tb[MCAST_PEER_A_MAX + 1];
	struct nlattr *nest = info->attrs[MCAST_A_PEER];
	struct mcast_peer *p;
	u32 id;
	int err;

	err = mcast_parse_nest(info, MCAST_A_PEER, tb, MCAST_PEER_A_MAX,
			       mcast_peer_policy);
	if (err)
		return err;
	if (!!tb[MCAST_PEER_A_IPV4] == !!tb[MCAST_PEER_A_IPV6]) {
		NL_SET_ERR_MSG_ATTR(extack, nest,
				    "a peer needs exactly one of IPV4 and IPV6");
		return -EINVAL;
	}
	if (NL_REQ_ATTR_CHECK(extack, nest, tb, MCAST_PEER_A_PORT)) {
		NL_SET_ERR_MSG(extack, "peer PORT missing");
		return -EINVAL;
	}
	p = kzalloc(sizeof(*p), GFP_KERNEL_ACCOUNT);
	if (!p)
		return -ENOMEM;
	mcast_replay_init(&p->replay);
	p->ipv6 = !!tb[MCAST_PEER_A_IPV6];
	if (p->ipv6)
		p->addr.v6 = nla_get_in6_addr(tb[MCAST_PEER_A_IPV6]);
	else
		p->addr.v4 = nla_get_in_addr(tb[MCAST_PEER_A_IPV4]);
	p->port = nla_get_u16(tb[MCAST_PEER_A_PORT]);

	mutex_lock(&mn->lock);
	err = -EINVAL;
	if (!mcast_need_configured(mn, extack))
		goto fail;
	err = mcast_peer_id(mn, nest, tb, &id, extack);
	if (err)
		goto fail;
	if (id == mn->node_id) {
		NL_SET_ERR_MSG_ATTR(extack, nest, "the peer is this node");
		err = -EINVAL;
		goto fail;
	}
	p->id = id;
	err = xa_insert(&mn->peers, id, p, GFP_KERNEL_ACCOUNT);
	if (err) {
		if (err == -EBUSY) {
			NL_SET_ERR_MSG_ATTR(extack, nest, "peer exists");
			err = -EEXIST;
		}
		goto fail;
	}
	mn->npeers++;
	mcast_data_peer_recount(mn, p);
	mcast_notify_peer(mn, MCAST_CMD_PEER_NEW, p);
	mutex_unlock(&mn->lock);
	return 0;
fail:
	mutex_unlock(&mn->lock);
	kfree(p);
	return err;
}

static int mcast_peer_del_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct mcast_net *mn = mcast_info_net(info);
	struct netlink_ext_ack *extack = info->extack;
	struct nlattr *tb[MCAST_PEER_A_MAX + 1];
	struct nlattr *nest = info->attrs[MCAST_A_PEER];
	struct mcast_peer *p = NULL;
	u32 id;
	int err;

	err = mcast_parse_nest(info, MCAST_A_PEER, tb, MCAST_PEER_A_MAX,
			       mcast_peer_policy);
	if (err)
		return err;
	mutex_lock(&mn->lock);
	err = -EINVAL;
	if (!mcast_need_configured(mn, extack))
		goto out;
	err = mcast_peer_id(mn, nest, tb, &id, extack);
	if (err)
		goto out;
	p = xa_erase(&mn->peers, id);
	if (!p) {
		NL_SET_ERR_MSG_ATTR(extack, nest, "no such peer");
		err = -ENOENT;
		goto out;
	}
	mn->npeers--;
	mcast_notify_peer(mn, MCAST_CMD_PEER_DEL, p);
out:
	mutex_unlock(&mn->lock);
	kfree(p);
	return err;
}

struct mcast_peer_arg {
	const struct mcast_peer *p;
	struct mcast_net *mn;
};

static int mcast_fill_peer(struct sk_buff *skb, const void *arg)
{
	const struct mcast_peer_arg *a = arg;

	return mcast_put_peer(skb, a->p, a->mn);
}

static int mcast_peer_get_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct mcast_net *mn = mcast_info_net(info);
	struct netlink_ext_ack *extack = info->extack;
	struct nlattr *tb[MCAST_PEER_A_MAX + 1];
	struct mcast_peer_arg a = { .mn = mn };
	struct mcast_peer *p;
	u32 id;
	int err;

	err = mcast_parse_nest(info, MCAST_A_PEER, tb, MCAST_PEER_A_MAX,
			       mcast_peer_policy);
	if (err)
		return err;
	mutex_lock(&mn->lock);
	err = -EINVAL;
	if (!mcast_need_configured(mn, extack))
		goto out;
	err = mcast_peer_id(mn, info->attrs[MCAST_A_PEER], tb, &id, extack);
	if (err)
		goto out;
	p = xa_load(&mn->peers, id);
	if (!p) {
		NL_SET_ERR_MSG_ATTR(extack, info->attrs[MCAST_A_PEER],
				    "no such peer");
		err = -ENOENT;
		goto out;
	}
	a.p = p;
	err = mcast_reply(info, NLMSG_GOODSIZE, mcast_fill_peer, &a);
out:
	mutex_unlock(&mn->lock);
	return err;
}

static int mcast_peer_get_dumpit(struct sk_buff *skb,
				 struct netlink_callback *cb)
{
	struct mcast_net *mn = mcast_net(sock_net(skb->sk));
	unsigned long id;
	struct mcast_peer *p;
	int err = 0;
	void *hdr;

	mutex_lock(&mn->lock);
	xa_for_each_start(&mn->peers, id, p, cb->args[0]) {
		hdr = genlmsg_put(skb, NETLINK_CB(cb->skb).portid,
				  cb->nlh->nlmsg_seq, &mcast_family,
				  NLM_F_MULTI, MCAST_CMD_PEER_GET);
		if (!hdr) {
			err = -EMSGSIZE;
			break;
		}
		err = mcast_put_peer(skb, p, mn);
		if (err) {
			genlmsg_cancel(skb, hdr);
			break;
		}
		genlmsg_end(skb, hdr);
		cb->args[0] = id + 1;
	}
	mutex_unlock(&mn->lock);
	if (err && !skb->len)
		return err;
	return skb->len;
}

/* ----------------------------------------------------------------- groups */

/* A group's validated member arrays. */
struct mcast_group_cfg {
	u32 n;
	u32 *members;
	u32 *rchain;
	u32 *hcycle;
};

static void mcast_group_cfg_free(struct mcast_group_cfg *c)
{
	kvfree(c->members);
	kvfree(c->rchain);
	kvfree(c->hcycle);
}

static u32 *mcast_attr_u32s(const struct nlattr *attr)
{
	u32 *a = kvmalloc(max_t(int, nla_len(attr), 1), GFP_KERNEL_ACCOUNT);

	if (a)
		nla_memcpy(a, attr, nla_len(attr));
	return a;
}

/* Checks that chain @attr of @order is exactly the @sorted members. */
static int mcast_check_chain(const struct mc_torus *t, enum mc_order order,
			     const struct nlattr *attr, const u32 *chain,
			     const u32 *sorted, u32 *tmp, u32 n,
			     struct netlink_ext_ack *extack)
{
	const char *why = NULL;

	if (nla_len(attr) != n * sizeof(u32)) {
		NL_SET_ERR_MSG_ATTR(extack, attr,
				    "chain must list every member exactly once");
		return -EINVAL;
	}
	if (mc_chain_verify(t, order, chain, n, &why)) {
		mcast_extack_set(extack, attr, why ? why : "chain in the wrong order");
		return -EINVAL;
	}
	memcpy(tmp, chain, n * sizeof(u32));
	mc_sort_u32(tmp, n);
	if (memcmp(tmp, sorted, n * sizeof(u32))) {
		NL_SET_ERR_MSG_ATTR(extack, attr,
				    "chain does not hold the same nodes as MEMBERS");
		return -EINVAL;
	}
	return 0;
}

/*
 * Validates MEMBERS, RCHAIN and HCYCLE of @tb against @t into @c (under
 * mn->lock).  Returns 0 with c->members NULL if @tb has no MEMBERS and
 * @need is false.
 */
static int mcast_group_cfg_parse(const struct mc_torus *t, struct nlattr *nest,
				 struct nlattr **tb, bool need,
				 struct mcast_group_cfg *c,
				 struct netlink_ext_ack *extack)
{
	struct nlattr *am = tb[MCAST_GROUP_A_MEMBERS];
	struct nlattr *ar = tb[MCAST_GROUP_A_RCHAIN];
	struct nlattr *ah = tb[MCAST_GROUP_A_HCYCLE];
	bool ham = t->regular && t->links == MC_LINKS_UNI;
	u32 *sorted = NULL, *tmp = NULL;
	u32 i;
	int err;

	memset(c, 0, sizeof(*c));
	if (!am) {
		if (!need && !ar && !ah)
			return 0;
		NL_REQ_ATTR_CHECK(extack, nest, tb, MCAST_GROUP_A_MEMBERS);
		NL_SET_ERR_MSG(extack, "MEMBERS missing");
		return -EINVAL;
	}
	if (NL_REQ_ATTR_CHECK(extack, nest, tb, MCAST_GROUP_A_RCHAIN)) {
		NL_SET_ERR_MSG(extack, "RCHAIN missing: MEMBERS needs it");
		return -EINVAL;
	}
	if (ham && NL_REQ_ATTR_CHECK(extack, nest, tb, MCAST_GROUP_A_HCYCLE)) {
		NL_SET_ERR_MSG(extack,
			       "HCYCLE missing: a regular unidirectional torus needs it");
		return -EINVAL;
	}
	if (!ham && ah) {
		NL_SET_ERR_MSG_ATTR(extack, ah,
				    "HCYCLE only on a regular unidirectional torus");
		return -EINVAL;
	}
	c->n = nla_len(am) / sizeof(u32);
	if (c->n > MCAST_MAX_MEMBERS) {
		NL_SET_ERR_MSG_ATTR(extack, am,
				    "more than MCAST_MAX_MEMBERS members");
		return -E2BIG;
	}
	if (c->n > t->nodes) {
		NL_SET_ERR_MSG_ATTR(extack, am, "more members than nodes");
		return -EINVAL;
	}
	err = -ENOMEM;
	c->members = mcast_attr_u32s(am);
	c->rchain = mcast_attr_u32s(ar);
	sorted = kvmalloc_array(max(c->n, 1U), sizeof(u32), GFP_KERNEL);
	tmp = kvmalloc_array(max(c->n, 1U), sizeof(u32), GFP_KERNEL);
	if (ah)
		c->hcycle = mcast_attr_u32s(ah);
	if (!c->members || !c->rchain || !sorted || !tmp || (ah && !c->hcycle))
		goto fail;
	for (i = 0; i < c->n; i++) {
		if (c->members[i] >= t->nodes) {
			mcast_extack_fmt(extack, am, "member is not a node of the torus",
					 "member %u (node %u) is not a node of the torus",
					 i, c->members[i]);
			err = -ERANGE;
			goto fail;
		}
	}
	memcpy(sorted, c->members, c->n * sizeof(u32));
	mc_sort_u32(sorted, c->n);
	for (i = 1; i < c->n; i++) {
		if (sorted[i] == sorted[i - 1]) {
			mcast_extack_fmt(extack, am, "member repeated",
					 "node %u repeated in MEMBERS",
					 sorted[i]);
			err = -EINVAL;
			goto fail;
		}
	}
	err = mcast_check_chain(t, MC_ORDER_DIM, ar, c->rchain, sorted, tmp,
				c->n, extack);
	if (!err && ah)
		err = mcast_check_chain(t, MC_ORDER_HAM, ah, c->hcycle, sorted,
					tmp, c->n, extack);
	if (err)
		goto fail;
	kvfree(sorted);
	kvfree(tmp);
	return 0;
fail:
	kvfree(sorted);
	kvfree(tmp);
	mcast_group_cfg_free(c);
	memset(c, 0, sizeof(*c));
	return err;
}

static void mcast_group_cfg_apply(struct mcast_group *g,
				  struct mcast_group_cfg *c)
{
	swap(g->members, c->members);
	swap(g->rchain, c->rchain);
	swap(g->hcycle, c->hcycle);
	swap(g->nmembers, c->n);
	mcast_group_cfg_free(c);
}

static int mcast_group_parse(struct genl_info *info, struct nlattr **tb,
			     u32 *id)
{
	int err;

	err = mcast_parse_nest(info, MCAST_A_GROUP, tb, MCAST_GROUP_A_MAX,
			       mcast_group_policy);
	if (err)
		return err;
	if (NL_REQ_ATTR_CHECK(info->extack, info->attrs[MCAST_A_GROUP], tb,
			      MCAST_GROUP_A_ID)) {
		NL_SET_ERR_MSG(info->extack, "group ID missing");
		return -EINVAL;
	}
	*id = nla_get_u32(tb[MCAST_GROUP_A_ID]);
	return 0;
}

/*
 * Two writers: a request changes a group mcastd manages only if it says
 * MANAGED (mcastd, or an admin taking the group back), and one that names
 * the EPOCH it read applies only if nobody changed the group since.
 */
static int mcast_group_writable(const struct mcast_group *g,
				struct nlattr **tb,
				struct netlink_ext_ack *extack)
{
	struct nlattr *ae = tb[MCAST_GROUP_A_EPOCH];

	if (g->managed && !tb[MCAST_GROUP_A_MANAGED]) {
		mcast_extack_fmt(extack, tb[MCAST_GROUP_A_ID],
				 "group is managed by mcastd",
				 "group %u is managed by mcastd: take it over with managed 0",
				 g->id);
		return -EBUSY;
	}
	if (ae && nla_get_u32(ae) != g->epoch) {
		mcast_extack_fmt(extack, ae, "group changed since it was read",
				 "group %u changed since it was read: epoch %u, not %u",
				 g->id, g->epoch, nla_get_u32(ae));
		return -ESTALE;
	}
	return 0;
}

static int mcast_group_new_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct mcast_net *mn = mcast_info_net(info);
	struct netlink_ext_ack *extack = info->extack;
	struct nlattr *tb[MCAST_GROUP_A_MAX + 1];
	struct mcast_group_cfg cfg = { };
	struct mcast_group *g;
	u32 id;
	int err;

	err = mcast_group_parse(info, tb, &id);
	if (err)
		return err;
	g = kzalloc(sizeof(*g), GFP_KERNEL_ACCOUNT);
	if (!g)
		return -ENOMEM;
	g->id = id;
	g->epoch = 1;
	INIT_LIST_HEAD(&g->local);

	mutex_lock(&mn->lock);
	err = -EINVAL;
	if (!mcast_need_configured(mn, extack))
		goto fail;
	if (xa_load(&mn->groups, id)) {
		NL_SET_ERR_MSG_ATTR(extack, tb[MCAST_GROUP_A_ID], "group exists");
		err = -EEXIST;
		goto fail;
	}
	if (mn->ngroups >= MCAST_MAX_GROUPS) {
		NL_SET_ERR_MSG(extack, "the node holds MCAST_MAX_GROUPS groups");
		err = -ENOSPC;
		goto fail;
	}
	err = mcast_group_cfg_parse(&mn->torus, info->attrs[MCAST_A_GROUP], tb,
				    false, &cfg, extack);
	if (err)
		goto fail;
	err = xa_insert(&mn->groups, id, g, GFP_KERNEL_ACCOUNT);
	if (err) {
		mcast_group_cfg_free(&cfg);
		goto fail;
	}
	mcast_group_cfg_apply(g, &cfg);
	if (tb[MCAST_GROUP_A_MANAGED])
		g->managed = nla_get_u8(tb[MCAST_GROUP_A_MANAGED]);
	mn->ngroups++;
	mcast_notify_group(mn, MCAST_CMD_GROUP_NEW, g);
	mutex_unlock(&mn->lock);
	return 0;
fail:
	mutex_unlock(&mn->lock);
	kfree(g);
	return err;
}

static int mcast_group_set_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct mcast_net *mn = mcast_info_net(info);
	struct netlink_ext_ack *extack = info->extack;
	struct nlattr *tb[MCAST_GROUP_A_MAX + 1];
	struct mcast_group_cfg cfg;
	struct mcast_group *g;
	u32 id;
	int err;

	err = mcast_group_parse(info, tb, &id);
	if (err)
		return err;
	mutex_lock(&mn->lock);
	g = xa_load(&mn->groups, id);
	if (!g) {
		NL_SET_ERR_MSG_ATTR(extack, tb[MCAST_GROUP_A_ID], "no such group");
		err = -ENOENT;
		goto out;
	}
	err = mcast_group_writable(g, tb, extack);
	if (err)
		goto out;
	err = mcast_group_cfg_parse(&mn->torus, info->attrs[MCAST_A_GROUP], tb,
				    !tb[MCAST_GROUP_A_MANAGED], &cfg, extack);
	if (err)
		goto out;
	if (cfg.members)
		mcast_group_cfg_apply(g, &cfg);
	if (tb[MCAST_GROUP_A_MANAGED])
		g->managed = nla_get_u8(tb[MCAST_GROUP_A_MANAGED]);
	g->epoch++;
	mcast_notify_group(mn, MCAST_CMD_GROUP_SET, g);
out:
	mutex_unlock(&mn->lock);
	return err;
}

static int mcast_group_del_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct mcast_net *mn = mcast_info_net(info);
	struct nlattr *tb[MCAST_GROUP_A_MAX + 1];
	struct mcast_group *g;
	u32 id;
	int err;

	err = mcast_group_parse(info, tb, &id);
	if (err)
		return err;
	mutex_lock(&mn->lock);
	g = xa_load(&mn->groups, id);
	if (!g) {
		NL_SET_ERR_MSG_ATTR(info->extack, tb[MCAST_GROUP_A_ID],
				    "no such group");
		err = -ENOENT;
		goto out;
	}
	err = mcast_group_writable(g, tb, info->extack);
	if (err)
		goto out;
	/* Local members leave first (their events), then the group goes. */
	mcast_group_drop_members(mn, g);
	mcast_notify_group(mn, MCAST_CMD_GROUP_DEL, g);
	mcast_group_destroy(mn, g);
out:
	mutex_unlock(&mn->lock);
	return err;
}

static int mcast_fill_group(struct sk_buff *skb, const void *arg)
{
	return mcast_put_group(skb, arg, true);
}

static int mcast_group_get_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct mcast_net *mn = mcast_info_net(info);
	struct nlattr *tb[MCAST_GROUP_A_MAX + 1];
	struct mcast_group *g;
	u32 id;
	int err;

	err = mcast_group_parse(info, tb, &id);
	if (err)
		return err;
	mutex_lock(&mn->lock);
	g = xa_load(&mn->groups, id);
	if (!g) {
		NL_SET_ERR_MSG_ATTR(info->extack, tb[MCAST_GROUP_A_ID],
				    "no such group");
		err = -ENOENT;
		goto out;
	}
	err = mcast_reply(info, mcast_group_size(g), mcast_fill_group, g);
out:
	mutex_unlock(&mn->lock);
	return err;
}

static int mcast_group_get_dumpit(struct sk_buff *skb,
				  struct netlink_callback *cb)
{
	struct mcast_net *mn = mcast_net(sock_net(skb->sk));
	unsigned long id;
	struct mcast_group *g;
	int err = 0;
	void *hdr;

	mutex_lock(&mn->lock);
	xa_for_each_start(&mn->groups, id, g, cb->args[0]) {
		bool first = !skb->len;

		hdr = genlmsg_put(skb, NETLINK_CB(cb->skb).portid,
				  cb->nlh->nlmsg_seq, &mcast_family,
				  NLM_F_MULTI, MCAST_CMD_GROUP_GET);
		if (!hdr) {
			err = -EMSGSIZE;
			break;
		}
		err = mcast_put_group(skb, g, true);
		/* Too large for any dump message: without its arrays. */
		if (err && first)
			err = mcast_put_group(skb, g, false);
		if (err) {
			genlmsg_cancel(skb, hdr);
			break;
		}
		genlmsg_end(skb, hdr);
		cb->args[0] = id + 1;
	}
	mutex_unlock(&mn->lock);
	if (err && !skb->len)
		return err;
	return skb->len;
}

/* ------------------------------------------------------------------ stats */

struct mcast_stats_arg {
	const struct mcast_stats *s;
	u32 group;
	u32 files;
	struct mcast_net *mn;		/* the node's statistics */
};

static int mcast_fill_stats(struct sk_buff *skb, const void *arg)
{
	const struct mcast_stats_arg *a = arg;

	return mcast_put_stats(skb, a->s, a->group, a->files, a->mn);
}

static int mcast_stats_get_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct mcast_net *mn = mcast_info_net(info);
	struct nlattr *tb[MCAST_STATS_A_GROUP + 1] = { };
	struct mcast_stats_arg a = { .s = &mn->stats, .mn = mn };
	struct mcast_group *g;
	int err;

	if (info->attrs[MCAST_A_STATS]) {
		err = nla_parse_nested(tb, MCAST_STATS_A_GROUP,
				       info->attrs[MCAST_A_STATS],
				       mcast_stats_policy, info->extack);
		if (err)
			return err;
	}
	mutex_lock(&mn->lock);
	a.files = mn->nfiles;
	if (tb[MCAST_STATS_A_GROUP]) {
		a.group = nla_get_u32(tb[MCAST_STATS_A_GROUP]);
		g = xa_load(&mn->groups, a.group);
		if (!g) {
			NL_SET_ERR_MSG_ATTR(info->extack, tb[MCAST_STATS_A_GROUP],
					    "no such group");
			err = -ENOENT;
			goto out;
		}
		a.s = &g->stats;
		a.files = g->nlocal;
		a.mn = NULL;
	}
	err = mcast_reply(info, MCAST_STATS_SIZE, mcast_fill_stats, &a);
out:
	mutex_unlock(&mn->lock);
	return err;
}

static int mcast_stats_get_dumpit(struct sk_buff *skb,
				  struct netlink_callback *cb)
{
	struct mcast_net *mn = mcast_net(sock_net(skb->sk));
	unsigned long id;
	struct mcast_group *g;
	int err = 0;
	void *hdr;

	mutex_lock(&mn->lock);
	xa_for_each_start(&mn->groups, id, g, cb->args[0]) {
		hdr = genlmsg_put(skb, NETLINK_CB(cb->skb).portid,
				  cb->nlh->nlmsg_seq, &mcast_family,
				  NLM_F_MULTI, MCAST_CMD_STATS_GET);
		if (!hdr) {
			err = -EMSGSIZE;
			break;
		}
		err = mcast_put_stats(skb, &g->stats, g->id, g->nlocal, NULL);
		if (err) {
			genlmsg_cancel(skb, hdr);
			break;
		}
		genlmsg_end(skb, hdr);
		cb->args[0] = id + 1;
	}
	mutex_unlock(&mn->lock);
	if (err && !skb->len)
		return err;
	return skb->len;
}

/* ----------------------------------------------------------------- family */

#define MCAST_POLICY(p) .policy = (p), .maxattr = ARRAY_SIZE(p) - 1

static const struct genl_ops mcast_ops[] = {
	{
		.cmd = MCAST_CMD_NODE_GET,
		.doit = mcast_node_get_doit,
		.dumpit = mcast_node_get_dumpit,
	},
	{
		.cmd = MCAST_CMD_NODE_SET,
		.flags = GENL_ADMIN_PERM,
		.doit = mcast_node_set_doit,
		MCAST_POLICY(mcast_node_req_policy),
	},
	{
		.cmd = MCAST_CMD_PEER_NEW,
		.flags = GENL_ADMIN_PERM,
		.doit = mcast_peer_new_doit,
		MCAST_POLICY(mcast_peer_req_policy),
	},
	{
		.cmd = MCAST_CMD_PEER_DEL,
		.flags = GENL_ADMIN_PERM,
		.doit = mcast_peer_del_doit,
		MCAST_POLICY(mcast_peer_req_policy),
	},
	{
		.cmd = MCAST_CMD_PEER_GET,
		.doit = mcast_peer_get_doit,
		.dumpit = mcast_peer_get_dumpit,
		MCAST_POLICY(mcast_peer_req_policy),
	},
	{
		.cmd = MCAST_CMD_GROUP_NEW,
		.flags = GENL_ADMIN_PERM,
		.doit = mcast_group_new_doit,
		MCAST_POLICY(mcast_group_req_policy),
	},
	{
		.cmd = MCAST_CMD_GROUP_DEL,
		.flags = GENL_ADMIN_PERM,
		.doit = mcast_group_del_doit,
		MCAST_POLICY(mcast_group_req_policy),
	},
	{
		.cmd = MCAST_CMD_GROUP_GET,
		.doit = mcast_group_get_doit,
		.dumpit = mcast_group_get_dumpit,
		MCAST_POLICY(mcast_group_req_policy),
	},
	{
		.cmd = MCAST_CMD_GROUP_SET,
		.flags = GENL_ADMIN_PERM,
		.doit = mcast_group_set_doit,
		MCAST_POLICY(mcast_group_req_policy),
	},
	{
		.cmd = MCAST_CMD_STATS_GET,
		.doit = mcast_stats_get_doit,
		.dumpit = mcast_stats_get_dumpit,
		MCAST_POLICY(mcast_stats_req_policy),
	},
	{
		.cmd = MCAST_CMD_KEY_SET,
		.flags = GENL_ADMIN_PERM,
		.doit = mcast_key_set_doit,
		MCAST_POLICY(mcast_key_req_policy),
	},
};

static const struct genl_multicast_group mcast_mcgrps[] = {
	[MCAST_MCGRP_EVENTS_ID] = { .name = MCAST_GENL_MCGRP_EVENTS },
};

static struct genl_family mcast_family __ro_after_init = {
	.name = MCAST_GENL_NAME,
	.version = MCAST_GENL_VERSION,
	.netnsok = true,
	.module = THIS_MODULE,
	.ops = mcast_ops,
	.n_ops = ARRAY_SIZE(mcast_ops),
	.mcgrps = mcast_mcgrps,
	.n_mcgrps = ARRAY_SIZE(mcast_mcgrps),
};

/* The largest group reply must fit a netlink attribute's u16 length. */
#define MCAST_GROUP_NEST_MAX (NLA_HDRLEN + 3 * NLA_ALIGN(NLA_HDRLEN + 4) + \
			      3 * NLA_ALIGN(NLA_HDRLEN + 4 * MCAST_MAX_MEMBERS))

int mcast_genl_init(void)
{
	int err;

	BUILD_BUG_ON(MCAST_GROUP_NEST_MAX > U16_MAX);
	err = genl_register_family(&mcast_family);
	if (!err)
		mcast_notify_attach(&mcast_family);
	return err;
}

void mcast_genl_exit(void)
{
	mcast_notify_detach();
	genl_unregister_family(&mcast_family);
}
MODULE_ALIAS_GENL_FAMILY(MCAST_GENL_NAME);
