/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * Tracepoints of the network data path (docs/tracing.md): a multicast's
 * start at its source, every transfer to a child, local delivery,
 * retransmission, rewinds, a child declared down and the takeover of its
 * piece, a worm cut short at an IR transport, BUSY either way, and
 * datagrams refused, with the reason the statistics count them under.
 *
 * Each call site passes the objects it has (the node, a header as
 * received, a transfer, a job, a message): the fields are read out of
 * them here, only while the event is enabled, so a disabled tracepoint
 * costs its static branch and nothing else.  kmod/trace.c defines them
 * (CREATE_TRACE_POINTS); Kbuild puts kmod/ on its include path for
 * TRACE_INCLUDE_PATH.  Every event's first field is the node (mn's
 * node_id): the nodes of a netns testbed share one trace buffer.
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM mcast

#ifndef MCAST_TRACE_DEFS
#define MCAST_TRACE_DEFS

/* mcast_drop's reasons: the statistic each one is counted in. */
enum mcast_drop_reason {
	MCAST_DROP_BAD_SRC,	/* RX_BAD_SRC: not from the peer's address */
	MCAST_DROP_BAD_AUTH,	/* RX_BAD_AUTH: its tag or counter */
	MCAST_DROP_MALFORMED,	/* RX_MALFORMED: a length or field */
	MCAST_DROP_INVALID,	/* RX_MALFORMED: what a handler refused */
	MCAST_DROP_STALE,	/* RX_STALE: names a previous life */
	MCAST_DROP_YOUNG,	/* RX_YOUNG: sent again, to a young node */
};

/* mcast_deliver's outcomes past mcast_deliver_local()'s (msg.h) */
#define MCAST_TRACE_LATE	16	/* LATE: refused, FIFO went past it */
#define MCAST_TRACE_DUP		17	/* DUPS: delivered before */

/* mcast_retransmit's causes */
enum mcast_rtx_why {
	MCAST_RTX_TIMEOUT,	/* the RTO: a probe, or the window again */
	MCAST_RTX_DONE_PROBE,	/* the RTO, all acknowledged: DONE? */
	MCAST_RTX_FAST,		/* a gap in the ACKs */
	MCAST_RTX_LOST,		/* what the answer to a probe lacks */
	MCAST_RTX_WORM,		/* a worm's copy the transport missed */
};

#endif /* MCAST_TRACE_DEFS */

#if !defined(MCAST_TRACE_H) || defined(TRACE_HEADER_MULTI_READ)
#define MCAST_TRACE_H

#include <linux/bitmap.h>
#include <linux/tracepoint.h>

#include "data.h"
#include "msg.h"
#include "schedule.h"

TRACE_DEFINE_ENUM(MC_ALGO_SEPARATE);
TRACE_DEFINE_ENUM(MC_ALGO_UTORUS);
TRACE_DEFINE_ENUM(MC_ALGO_STORUS);
TRACE_DEFINE_ENUM(MC_ALGO_MDTORUS);
TRACE_DEFINE_ENUM(MC_ALGO_MUTORUS);
TRACE_DEFINE_ENUM(MC_ALGO_BINOMIAL);
TRACE_DEFINE_ENUM(MC_ALGO_CUBE);
TRACE_DEFINE_ENUM(MC_ALGO_RING);
TRACE_DEFINE_ENUM(MCAST_DELIVERED);
TRACE_DEFINE_ENUM(MCAST_BLOCKED);
TRACE_DEFINE_ENUM(MCAST_CUT);
TRACE_DEFINE_ENUM(MCAST_DROP_BAD_SRC);
TRACE_DEFINE_ENUM(MCAST_DROP_BAD_AUTH);
TRACE_DEFINE_ENUM(MCAST_DROP_MALFORMED);
TRACE_DEFINE_ENUM(MCAST_DROP_INVALID);
TRACE_DEFINE_ENUM(MCAST_DROP_STALE);
TRACE_DEFINE_ENUM(MCAST_DROP_YOUNG);
TRACE_DEFINE_ENUM(MCAST_RTX_TIMEOUT);
TRACE_DEFINE_ENUM(MCAST_RTX_DONE_PROBE);
TRACE_DEFINE_ENUM(MCAST_RTX_FAST);
TRACE_DEFINE_ENUM(MCAST_RTX_LOST);
TRACE_DEFINE_ENUM(MCAST_RTX_WORM);

#define mcast_show_algo(a)						\
	__print_symbolic(a,						\
			 { MC_ALGO_SEPARATE, "separate" },		\
			 { MC_ALGO_UTORUS, "u-torus" },			\
			 { MC_ALGO_STORUS, "s-torus" },			\
			 { MC_ALGO_MDTORUS, "md-torus" },		\
			 { MC_ALGO_MUTORUS, "mu-torus" },		\
			 { MC_ALGO_BINOMIAL, "binomial" },		\
			 { MC_ALGO_CUBE, "cube" },			\
			 { MC_ALGO_RING, "ring" })

/* A multicast starts at its source: its root job, before any transfer. */
TRACE_EVENT(mcast_send,
	TP_PROTO(const struct mcast_net *mn, const struct mcast_job *job),
	TP_ARGS(mn, job),
	TP_STRUCT__entry(
		__field(u32, node)
		__field(u32, src)
		__field(u64, seq)
		__field(u32, group)
		__field(u32, nodes)
		__field(u32, len)
		__field(u8, algo)
		__field(bool, separate)
	),
	TP_fast_assign(
		__entry->node = mn->node_id;
		__entry->src = job->src;
		__entry->seq = job->seq;
		__entry->group = job->group;
		__entry->nodes = job->count;
		__entry->len = job->msg_len;
		__entry->algo = job->algo;
		__entry->separate = job->separate;
	),
	TP_printk("node=%u src=%u seq=%llu group=%u nodes=%u len=%u algo=%s%s",
		  __entry->node, __entry->src, __entry->seq, __entry->group,
		  __entry->nodes, __entry->len, mcast_show_algo(__entry->algo),
		  __entry->separate ? " separate" : "")
);

/*
 * A transfer of a message to a child (one hop: the source's or a
 * forwarder's, a takeover's too), made and about to be started.
 */
TRACE_EVENT(mcast_forward,
	TP_PROTO(const struct mcast_net *mn, const struct mcast_tx *tx),
	TP_ARGS(mn, tx),
	TP_STRUCT__entry(
		__field(u32, node)
		__field(u32, src)
		__field(u64, seq)
		__field(u32, group)
		__field(u32, xid)
		__field(u32, peer)
		__field(u32, step)
		__field(u32, nodes)
		__field(u32, len)
		__field(u8, algo)
	),
	TP_fast_assign(
		__entry->node = mn->node_id;
		__entry->src = tx->job->src;
		__entry->seq = tx->job->seq;
		__entry->group = tx->job->group;
		__entry->xid = tx->xid;
		__entry->peer = tx->to;
		__entry->step = tx->step;
		__entry->nodes = tx->len;
		__entry->len = tx->job->msg_len;
		__entry->algo = tx->job->algo;
	),
	TP_printk("node=%u src=%u seq=%llu group=%u xid=%u peer=%u step=%u nodes=%u len=%u algo=%s",
		  __entry->node, __entry->src, __entry->seq, __entry->group,
		  __entry->xid, __entry->peer, __entry->step, __entry->nodes,
		  __entry->len, mcast_show_algo(__entry->algo))
);

/*
 * A message from the network, whole, at this node's files (@how:
 * mcast_deliver_local()'s answer), or refused as late or a duplicate.
 */
TRACE_EVENT(mcast_deliver,
	TP_PROTO(const struct mcast_net *mn, const struct mcast_msg *msg,
		 int how),
	TP_ARGS(mn, msg, how),
	TP_STRUCT__entry(
		__field(u32, node)
		__field(u32, src)
		__field(u64, seq)
		__field(u32, group)
		__field(u32, peer)
		__field(u32, step)
		__field(u32, len)
		__field(int, how)
	),
	TP_fast_assign(
		__entry->node = mn->node_id;
		__entry->src = msg->src_node;
		__entry->seq = msg->seq;
		__entry->group = msg->group;
		__entry->peer = msg->from_node;
		__entry->step = msg->step;
		__entry->len = msg->len;
		__entry->how = how;
	),
	TP_printk("node=%u src=%u seq=%llu group=%u peer=%u step=%u len=%u %s",
		  __entry->node, __entry->src, __entry->seq, __entry->group,
		  __entry->peer, __entry->step, __entry->len,
		  __print_symbolic(__entry->how,
				   { MCAST_DELIVERED, "delivered" },
				   { MCAST_BLOCKED, "blocked" },
				   { MCAST_CUT, "cut" },
				   { MCAST_TRACE_LATE, "late" },
				   { MCAST_TRACE_DUP, "dup" }))
);

/*
 * Fragments of @tx sent again: @n of them, @frag the first (a timeout's
 * probe or first resent, the highest of a fast retransmission, the
 * transfer's cum for what a probe's answer lacks).  A timeout that finds
 * everything acknowledged probes for DONE with the last fragment.
 */
TRACE_EVENT_CONDITION(mcast_retransmit,
	TP_PROTO(const struct mcast_net *mn, const struct mcast_tx *tx,
		 u32 frag, u32 n, int why),
	TP_ARGS(mn, tx, frag, n, why),
	TP_CONDITION(n),
	TP_STRUCT__entry(
		__field(u32, node)
		__field(u32, src)
		__field(u64, seq)
		__field(u32, group)
		__field(u32, xid)
		__field(u32, peer)
		__field(u32, frag)
		__field(u32, n)
		__field(u32, nfrags)
		__field(u32, rto_ms)
		__field(int, why)
	),
	TP_fast_assign(
		bool done = why == MCAST_RTX_TIMEOUT && frag == U32_MAX;

		__entry->node = mn->node_id;
		__entry->src = tx->job->src;
		__entry->seq = tx->job->seq;
		__entry->group = tx->job->group;
		__entry->xid = tx->xid;
		__entry->peer = tx->to;
		__entry->frag = done ? tx->nfrags - 1 : frag;
		__entry->n = n;
		__entry->nfrags = tx->nfrags;
		__entry->rto_ms = jiffies_to_msecs(tx->rto);
		__entry->why = done ? MCAST_RTX_DONE_PROBE : why;
	),
	TP_printk("node=%u src=%u seq=%llu group=%u xid=%u peer=%u frag=%u n=%u nfrags=%u rto_ms=%u %s",
		  __entry->node, __entry->src, __entry->seq, __entry->group,
		  __entry->xid, __entry->peer, __entry->frag, __entry->n,
		  __entry->nfrags, __entry->rto_ms,
		  __print_symbolic(__entry->why,
				   { MCAST_RTX_TIMEOUT, "timeout" },
				   { MCAST_RTX_DONE_PROBE, "done-probe" },
				   { MCAST_RTX_FAST, "fast" },
				   { MCAST_RTX_LOST, "lost" },
				   { MCAST_RTX_WORM, "worm" }))
);

/*
 * The child lost @tx (an ACK of a newer job of its, with a lower cum):
 * it is sent again from @cum, its acknowledgements from there forgotten.
 */
TRACE_EVENT(mcast_rewind,
	TP_PROTO(const struct mcast_net *mn, const struct mcast_tx *tx,
		 u32 cum),
	TP_ARGS(mn, tx, cum),
	TP_STRUCT__entry(
		__field(u32, node)
		__field(u32, src)
		__field(u64, seq)
		__field(u32, group)
		__field(u32, xid)
		__field(u32, peer)
		__field(u32, cum)
		__field(u32, was)
		__field(u32, next)
	),
	TP_fast_assign(
		__entry->node = mn->node_id;
		__entry->src = tx->job->src;
		__entry->seq = tx->job->seq;
		__entry->group = tx->job->group;
		__entry->xid = tx->xid;
		__entry->peer = tx->to;
		__entry->cum = cum;
		__entry->was = tx->cum;
		__entry->next = tx->next;
	),
	TP_printk("node=%u src=%u seq=%llu group=%u xid=%u peer=%u cum=%u was=%u next=%u",
		  __entry->node, __entry->src, __entry->seq, __entry->group,
		  __entry->xid, __entry->peer, __entry->cum, __entry->was,
		  __entry->next)
);

/*
 * The child of @tx is declared down (PEER_DOWN): its tries (counted in
 * quarters, mcast_tx_timer()) ran out.
 */
TRACE_EVENT(mcast_peer_down,
	TP_PROTO(const struct mcast_net *mn, const struct mcast_tx *tx),
	TP_ARGS(mn, tx),
	TP_STRUCT__entry(
		__field(u32, node)
		__field(u32, src)
		__field(u64, seq)
		__field(u32, group)
		__field(u32, xid)
		__field(u32, peer)
		__field(u32, tries)
		__field(u32, nacked)
		__field(u32, nfrags)
	),
	TP_fast_assign(
		__entry->node = mn->node_id;
		__entry->src = tx->job->src;
		__entry->seq = tx->job->seq;
		__entry->group = tx->job->group;
		__entry->xid = tx->xid;
		__entry->peer = tx->to;
		__entry->tries = tx->tries;
		__entry->nacked = tx->nacked;
		__entry->nfrags = tx->nfrags;
	),
	TP_printk("node=%u src=%u seq=%llu group=%u xid=%u peer=%u tries=%u acked=%u/%u",
		  __entry->node, __entry->src, __entry->seq, __entry->group,
		  __entry->xid, __entry->peer, __entry->tries,
		  __entry->nacked, __entry->nfrags)
);

/*
 * This node takes over the piece @nodes[0..len-1] of a child that failed
 * (down, or no peer): the @len - 1 nodes after it, spread again.
 */
TRACE_EVENT(mcast_takeover,
	TP_PROTO(const struct mcast_net *mn, const struct mcast_job *job,
		 const u32 *nodes, u32 len),
	TP_ARGS(mn, job, nodes, len),
	TP_STRUCT__entry(
		__field(u32, node)
		__field(u32, src)
		__field(u64, seq)
		__field(u32, group)
		__field(u32, peer)
		__field(u32, nodes)
	),
	TP_fast_assign(
		__entry->node = mn->node_id;
		__entry->src = job->src;
		__entry->seq = job->seq;
		__entry->group = job->group;
		__entry->peer = nodes[0];
		__entry->nodes = len - 1;
	),
	TP_printk("node=%u src=%u seq=%llu group=%u peer=%u nodes=%u",
		  __entry->node, __entry->src, __entry->seq, __entry->group,
		  __entry->peer, __entry->nodes)
);

/*
 * An IR transport reports the end of a worm that ended short or that a
 * destination missed: fragment @frag of @tx's worm passed @reached of
 * its @n destinations, @missed (a bitmap) of those without a copy; what
 * is still due there is sent again (mcast_retransmit).
 */
TRACE_EVENT(mcast_worm_end,
	TP_PROTO(const struct mcast_net *mn, const struct mcast_tx *tx,
		 u32 frag, u32 n, u32 reached, const unsigned long *missed),
	TP_ARGS(mn, tx, frag, n, reached, missed),
	TP_STRUCT__entry(
		__field(u32, node)
		__field(u32, src)
		__field(u64, seq)
		__field(u32, group)
		__field(u32, xid)
		__field(u32, frag)
		__field(u32, dests)
		__field(u32, reached)
		__field(u32, missed)
	),
	TP_fast_assign(
		__entry->node = mn->node_id;
		__entry->src = tx->job->src;
		__entry->seq = tx->job->seq;
		__entry->group = tx->job->group;
		__entry->xid = tx->xid;
		__entry->frag = frag;
		__entry->dests = n;
		__entry->reached = reached;
		__entry->missed = reached ? bitmap_weight(missed, reached) : 0;
	),
	TP_printk("node=%u src=%u seq=%llu group=%u xid=%u frag=%u dests=%u reached=%u missed=%u",
		  __entry->node, __entry->src, __entry->seq, __entry->group,
		  __entry->xid, __entry->frag, __entry->dests,
		  __entry->reached, __entry->missed)
);

/*
 * BUSY: with @sent, this node answers DATA @h from @peer so (no room for
 * its transfer yet); else @peer's ACK @h says so of this node's transfer.
 */
TRACE_EVENT(mcast_busy,
	TP_PROTO(const struct mcast_net *mn, const struct mcw_hdr *h,
		 u32 peer, bool sent),
	TP_ARGS(mn, h, peer, sent),
	TP_STRUCT__entry(
		__field(u32, node)
		__field(u32, src)
		__field(u64, seq)
		__field(u32, xid)
		__field(u32, peer)
		__field(u32, frag)
		__field(bool, sent)
	),
	TP_fast_assign(
		__entry->node = mn->node_id;
		__entry->src = be32_to_cpu(h->src);
		__entry->seq = be64_to_cpu(h->seq);
		__entry->xid = be32_to_cpu(h->xid);
		__entry->peer = peer;
		__entry->frag = be32_to_cpu(h->frag);
		__entry->sent = sent;
	),
	TP_printk("node=%u src=%u seq=%llu xid=%u peer=%u frag=%u %s",
		  __entry->node, __entry->src, __entry->seq, __entry->xid,
		  __entry->peer, __entry->frag,
		  __entry->sent ? "sent" : "received")
);

/*
 * A datagram refused (or, MCAST_DROP_INVALID, what a handler found in it),
 * by @reason; the header's fields as received (claims, for a bad source
 * or tag: "peer" is the sender it names).
 */
TRACE_EVENT(mcast_drop,
	TP_PROTO(const struct mcast_net *mn, const struct mcw_hdr *h,
		 int reason),
	TP_ARGS(mn, h, reason),
	TP_STRUCT__entry(
		__field(u32, node)
		__field(u32, peer)
		__field(u32, src)
		__field(u64, seq)
		__field(u32, group)
		__field(u32, xid)
		__field(u32, frag)
		__field(u8, type)
		__field(int, reason)
	),
	TP_fast_assign(
		__entry->node = mn->node_id;
		__entry->peer = be32_to_cpu(h->from);
		__entry->src = be32_to_cpu(h->src);
		__entry->seq = be64_to_cpu(h->seq);
		__entry->group = be32_to_cpu(h->group);
		__entry->xid = be32_to_cpu(h->xid);
		__entry->frag = be32_to_cpu(h->frag);
		__entry->type = h->type;
		__entry->reason = reason;
	),
	TP_printk("node=%u peer=%u type=%u src=%u seq=%llu group=%u xid=%u frag=%u %s",
		  __entry->node, __entry->peer, __entry->type, __entry->src,
		  __entry->seq, __entry->group, __entry->xid, __entry->frag,
		  __print_symbolic(__entry->reason,
				   { MCAST_DROP_BAD_SRC, "bad_src" },
				   { MCAST_DROP_BAD_AUTH, "bad_auth" },
				   { MCAST_DROP_MALFORMED, "malformed" },
				   { MCAST_DROP_INVALID, "invalid" },
				   { MCAST_DROP_STALE, "stale" },
				   { MCAST_DROP_YOUNG, "young" }))
);

#endif /* MCAST_TRACE_H */

#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE trace
#include <trace/define_trace.h>
