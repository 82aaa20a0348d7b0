// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * mcastctl stats show --prometheus: every value as a metric of the text
 * exposition format (prometheus.io/docs/instrumenting/exposition_formats),
 * labelled node="ID", and group="ID" for a group's.  The help texts say
 * what include/uapi/linux/mcast.h and kmod/ count; docs/metrics.md is
 * their long form.
 */
#include <string.h>

#include <linux/mcast.h>

#include "statprom.h"

#define NODE(a, n, h) { MCAST_STATS_A_##a, n, h, NULL, NULL, false }

/*
 * In stat_keys' order.  The kernel reports the first five and FILES per
 * group too (kmod/genl.c, mcast_put_stats); the rest per node only.
 */
const struct stat_prom stat_proms[] = {
	{ MCAST_STATS_A_TX_MSGS, "mcast_tx_msgs_total",
	  "Messages sent from this node, one per send to a group or a node list.",
	  "mcast_group_tx_msgs_total",
	  "Messages this node sent to the group.", false },
	{ MCAST_STATS_A_TX_BYTES, "mcast_tx_bytes_total",
	  "Bytes of the messages sent from this node.",
	  "mcast_group_tx_bytes_total",
	  "Bytes of the messages this node sent to the group.", false },
	{ MCAST_STATS_A_RX_MSGS, "mcast_rx_msgs_total",
	  "Messages queued to this node's open files, one per receiving file.",
	  "mcast_group_rx_msgs_total",
	  "Messages of the group queued to this node's files, one per receiving file.",
	  false },
	{ MCAST_STATS_A_RX_BYTES, "mcast_rx_bytes_total",
	  "Bytes of the messages queued to this node's open files.",
	  "mcast_group_rx_bytes_total",
	  "Bytes of the group's messages queued to this node's files.", false },
	{ MCAST_STATS_A_RX_DROPS, "mcast_rx_drops_total",
	  "Messages lost to a full receive queue of one of this node's files.",
	  "mcast_group_rx_drops_total",
	  "Messages of the group lost to a full receive queue of one of this node's files.",
	  false },
	NODE(FWD_MSGS, "mcast_fwd_msgs_total",
	     "Transfers to children this node started for messages it forwards (not its own sends)."),
	NODE(TX_PACKETS, "mcast_tx_packets_total",
	     "Datagrams sent, data and acknowledgements."),
	NODE(RX_PACKETS, "mcast_rx_packets_total",
	     "Datagrams received, before any check."),
	NODE(RETRANS, "mcast_retrans_total", "Datagrams sent again."),
	NODE(FAST_RETRANS, "mcast_fast_retrans_total",
	     "Of mcast_retrans_total, those sent on a gap in the acknowledgements rather than on a timeout."),
	NODE(DUPS, "mcast_dups_total",
	     "Duplicates suppressed: data fragments or messages received again."),
	NODE(PEER_FAILS, "mcast_peer_fails_total",
	     "Peers given up on: they stopped answering."),
	NODE(UNREACHED, "mcast_unreached_total",
	     "Destinations reported failed."),
	NODE(RX_BAD_SRC, "mcast_rx_bad_src_total",
	     "Datagrams dropped unread: their source address is not the one configured for the node they claim to come from, or no peer's."),
	NODE(RX_MALFORMED, "mcast_rx_malformed_total",
	     "Datagrams (and pieces) dropped as malformed: a field out of range, a fragment of the wrong length, a piece that is no rotated R-chain."),
	NODE(REWINDS, "mcast_rewinds_total",
	     "Transfers sent again from where a child that lost them was."),
	NODE(CWND, "mcast_cwnd",
	     "The node's congestion window, in data fragments."),
	NODE(UNACKED, "mcast_unacked",
	     "Data fragments sent and not yet acknowledged."),
	NODE(RX_MEM, "mcast_rx_mem_bytes",
	     "Bytes held for messages being reassembled."),
	NODE(TX_EXPIRED, "mcast_tx_expired_total",
	     "Transfers given up at the end of their lifetime (module parameter transfer_lifetime_ms), their destinations reported failed."),
	NODE(BUSY_SENT, "mcast_busy_sent_total",
	     "DATA answered BUSY: a bound on what peers may make this node keep was reached (back-pressure)."),
	NODE(JOBS, "mcast_jobs",
	     "Transfers from peers being received or forwarded."),
	NODE(DONE_JOBS, "mcast_done_jobs",
	     "Finished transfers from peers remembered to answer repeats."),
	NODE(TRANSFERS, "mcast_transfers", "Transfers to children."),
	NODE(QUEUED, "mcast_queued",
	     "Of mcast_transfers, those waiting for room in their peer's window."),
	NODE(HELD, "mcast_held",
	     "Messages held for FIFO order, or for room in a lossless receiver's queue."),
	NODE(MSG_MEM, "mcast_msg_mem_bytes",
	     "Bytes of received messages held for forwarding or for order."),
	NODE(STREAMS, "mcast_streams",
	     "(sender, group) streams whose order is kept."),
	NODE(FLOORS, "mcast_floors",
	     "Senders with forgotten streams, at most one per node."),
	NODE(LATE, "mcast_late_total",
	     "Messages refused for FIFO order: they came after their stream had stopped waiting for them, or below its last seq and not known delivered; reported failed to their sender."),
	NODE(RX_BAD_AUTH, "mcast_rx_bad_auth_total",
	     "Datagrams from a peer's address dropped: no tag, a tag under no key the node has, a wrong tag, or a replayed counter."),
	{ MCAST_STATS_A_TIMER_NS, "mcast_timer_seconds_total",
	  "Time the node's timer work (retransmission, expiry) ran.",
	  NULL, NULL, true },
	NODE(BLOCKED, "mcast_blocked",
	     "(sender, group) streams waiting for room in a lossless receiver's queue."),
	NODE(CUTOFFS, "mcast_cutoffs_total",
	     "Lossless receivers cut off after rx_stall_ms without room."),
	NODE(RX_STALE, "mcast_rx_stale_total",
	     "DATA of transfers that began with a previous life of this node (it restarted), refused."),
	NODE(WORMS, "mcast_worms_total",
	     "Worms this node sent, each a fragment to several destinations at once."),
	NODE(WORM_DESTS, "mcast_worm_dests_total",
	     "Destinations the worms this node sent visited."),
	NODE(WORM_SPLITS, "mcast_worm_splits_total",
	     "Worms split in two or more, over the transport's destination or header limit."),
	NODE(OFFLOAD_FALLBACKS, "mcast_offload_fallbacks_total",
	     "Sends that wanted worms and had no intermediate reception: sent as software chains, or U-torus on a torus worms cannot run on."),
	NODE(RX_WORMS, "mcast_rx_worms_total",
	     "Messages received as part of a worm (intermediate reception, or its software chain)."),
	NODE(RB_SENT, "mcast_rb_sent_total",
	     "Broadcasts this node sent by recursion-based broadcast."),
	NODE(RB_ASSEMBLED, "mcast_rb_assembled_total",
	     "Messages this node assembled from their byte ranges (recursion-based broadcast)."),
	NODE(RB_FALLBACKS, "mcast_rb_fallbacks_total",
	     "Of mcast_rb_sent_total, those finished by a U-torus tree to the nodes that had not reported the message whole."),
	NODE(WORM_RESENDS, "mcast_worm_resends_total",
	     "Fragments sent again at once because the NIC's completion said a worm did not reach a destination whole."),
	NODE(DONE_PROBES, "mcast_done_probes_total",
	     "Of mcast_retrans_total, those asking a child that holds the whole message for its subtree's DONE."),
	NODE(RX_YOUNG, "mcast_rx_young_total",
	     "DATA sent again, of transfers this node did not know, in its first stream_idle_ms: taken only once the parent said the transfer began in this life of the node."),
	NODE(ACKS_OLD, "mcast_acks_old_total",
	     "ACKs ignored as from a child's receiving job it has since replaced (reordered or duplicated on the way, or forged)."),
	NODE(TCP_CONNS, "mcast_tcp_conns",
	     "Connections from peers the TCP transport holds."),
	NODE(TCP_EVICTED, "mcast_tcp_evicted_total",
	     "TCP connections from peers closed to make room for a newer one from the same address, or past the node's cap."),
	NODE(TCP_UNAUTHED, "mcast_tcp_unauthed_total",
	     "TCP connections from peers closed for sending no frame authenticated with a key within tcp_auth_ms."),
	NODE(TCP_IDLE, "mcast_tcp_idle_total",
	     "TCP connections from peers closed after tcp_idle_ms without a frame."),
	NODE(TCP_BAD_FRAMES, "mcast_tcp_bad_frames_total",
	     "TCP connections from peers closed on a frame that failed a check (its length, its sender's address, its tag, its fields)."),
	{ MCAST_STATS_A_FILES, "mcast_files", "Files open on this node's /dev/mcast.",
	  "mcast_group_files",
	  "Files on this node joined to the group (its local members).", false },
};

#undef NODE

const size_t stat_nproms = sizeof(stat_proms) / sizeof(stat_proms[0]);

const struct stat_prom *stat_prom_of(int attr)
{
	size_t i;

	for (i = 0; i < stat_nproms; i++)
		if (stat_proms[i].attr == attr)
			return &stat_proms[i];
	return NULL;
}

void stat_prom_escape(FILE *f, const char *s, bool quote)
{
	for (; *s; s++) {
		if (*s == '\\')
			fputs("\\\\", f);
		else if (*s == '\n')
			fputs("\\n", f);
		else if (*s == '"' && quote)
			fputs("\\\"", f);
		else
			fputc(*s, f);
	}
}

static void prom_label(FILE *f, const char *sep, const char *name,
		       uint32_t v)
{
	char buf[16];

	snprintf(buf, sizeof(buf), "%u", v);
	fprintf(f, "%s%s=\"", sep, name);
	stat_prom_escape(f, buf, true);
	fputc('"', f);
}

/* ns in seconds, exactly: no double rounds a large counter. */
static void prom_value(FILE *f, uint64_t v, bool ns)
{
	if (ns)
		fprintf(f, " %llu.%09llu\n", (unsigned long long)(v / 1000000000u),
			(unsigned long long)(v % 1000000000u));
	else
		fprintf(f, " %llu\n", (unsigned long long)v);
}

static const struct stat_val *set_val(const struct stat_set *s, int attr)
{
	size_t i;

	for (i = 0; i < s->n; i++)
		if (s->v[i].attr == attr)
			return &s->v[i];
	return NULL;
}

static void prom_head(FILE *f, const char *name, const char *help, int attr)
{
	const struct stat_key *k = stat_key_of(attr);

	fprintf(f, "# HELP %s ", name);
	stat_prom_escape(f, help, false);
	fprintf(f, "\n# TYPE %s %s\n", name,
		k && k->kind == STAT_COUNTER ? "counter" : "gauge");
}

/* @p's node metric (@group false) or group metric: nothing if no set has it. */
static void prom_metric(FILE *f, const struct stat_prom *p, bool group,
			uint32_t node, const struct stat_set *s, size_t n)
{
	const char *name = group ? p->gname : p->name;
	bool head = false;
	size_t i;

	for (i = 0; name && i < n; i++) {
		const struct stat_val *v = set_val(&s[i], p->attr);

		if (!v || !s[i].group != !group)
			continue;
		if (!head)
			prom_head(f, name, group ? p->ghelp : p->help, p->attr);
		head = true;
		fputs(name, f);
		prom_label(f, "{", "node", node);
		if (group)
			prom_label(f, ",", "group", s[i].group);
		fputc('}', f);
		prom_value(f, v->v, p->ns);
	}
}

int stat_prom_write(FILE *f, uint32_t node, const struct stat_set *s,
		    size_t n)
{
	int group;
	size_t i;

	for (group = 0; group < 2; group++)
		for (i = 0; i < stat_nproms; i++)
			prom_metric(f, &stat_proms[i], group, node, s, n);
	return ferror(f) ? -1 : 0;
}
