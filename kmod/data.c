// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The network data path: U-torus trees (seed 000 Fig 4.9) over a transport
 * without intermediate reception, with per-hop reliability, FIFO delivery
 * per (sender, group), completion and failure takeover.
 *
 * A send plans over its R-chain: the group's members sorted by <_d (plus
 * the sender if it is not a member), rotated to the sender.  Every transfer
 * (one hop of the tree) carries the receiver's piece of the chain as an
 * explicit list of node ids, receiver first, so a message is self-contained:
 * a receiver runs mc_sender_next() over the list it got and needs no group
 * state, and a membership change during a send cannot make two nodes
 * disagree on the pieces (seed 000 Sec 6.5, "in the header").  Each list
 * entry also carries, for that destination, the sequence number of the
 * previous message of the same stream (sender, group) sent to it: the
 * receiver delivers in that order, so FIFO holds per (sender, group) and
 * a node never waits for a message that was not addressed to it.
 *
 * Wire format (UDP payload, big endian): struct mcw_hdr, then for DATA a
 * fragment of the transfer payload "piece entries (be32 node, be64 prev),
 * then the message"; for DONE the ids of the nodes that could not be
 * reached.  A transfer is named by its sender's id and the sender's
 * transfer id (xid).
 *
 * Reliability, per hop: the receiver acknowledges every DATA fragment
 * (with the count of contiguous fragments it holds); the sender keeps at
 * most MCAST_PEER_TXS transfers per peer sending data (the rest queue;
 * a transfer leaves the window once all its data is acknowledged, so
 * waiting for DONE holds no slot and trees cannot deadlock on each other)
 * and at most MCAST_WIN fragments unacknowledged per transfer and
 * retransmits on a timeout that doubles up to MCAST_RTO_MAX_MS.  Once the
 * piece has arrived, the receiver starts its child transfers and relays
 * each fragment as soon as it holds every byte of it (cut-through); once it
 * has the whole message it delivers locally and, when every child transfer
 * has finished, sends DONE with the failures of its subtree (in as many
 * datagrams as the list needs); the parent keeps probing (resending the last
 * fragment, answered by ACK while busy or DONE when finished) until then.
 * After mn->retries timeouts without an answer (a timeout in which the
 * child spoke about other transfers counts a quarter) the child is declared
 * down (PEER_DOWN event), listed as failed, and its parent takes over the
 * child's piece minus the child: U-torus again over (parent, rest of the
 * piece).  A destination without a configured address is failed at once
 * (ERROR event) and its piece taken over the same way.  Nodes that already
 * got the message from the dead child suppress the duplicate.
 *
 * Memory is bounded: MCAST_RX_MEM_MAX bytes of reassembly per node and
 * MCAST_RX_PER_PEER transfers per parent; past them a fragment is not
 * acknowledged, so the parent retransmits later (back-pressure, never
 * silent loss); the receiver answers such a fragment with a BUSY ack, so
 * the parent does not take a busy child for a dead one.  A sender has at
 * most MCAST_INFLIGHT_MAX messages (MCAST_INFLIGHT_BYTES) in flight and
 * blocks (interruptibly) for room.  Streams idle for stream_idle_ms are
 * forgotten at both ends.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/bitmap.h>
#include <linux/completion.h>
#include <linux/jiffies.h>
#include <linux/mm.h>
#include <linux/random.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/timekeeping.h>
#include <linux/workqueue.h>

#include "mcast.h"
#include "compat.h"
#include "transport.h"
#include "chain.h"
#include "schedule.h"

struct workqueue_struct *mcast_wq;

#define MCW_VERSION	1
enum { MCW_DATA = 1, MCW_ACK = 2, MCW_DONE = 3 };
#define MCW_F_TRUNC	0x01	/* DONE: the failure list is cut short */
#define MCW_F_BUSY	0x02	/* ACK: alive, but no room for it yet */

struct mcw_hdr {
	u8 version;
	u8 type;
	u8 flags;
	u8 pad;
	__be32 src;		/* the message's sender */
	__be32 from;		/* this datagram's sender */
	__be32 xid;		/* the transfer, as its sender names it */
	__be64 seq;		/* the message, per sender */
	__be32 group;
	__be32 step;		/* DATA: the receiver's U-torus step */
	__be32 msg_len;		/* DATA: message bytes */
	__be32 count;		/* DATA: piece entries; DONE: failed nodes */
	__be32 frag;		/* DATA: this fragment; ACK: the one acked */
	__be32 cum;		/* ACK: fragments below it all received */
} __packed;

#define MCW_ENTRY		12	/* be32 node, be64 prev */

#define MCAST_WIN		64	/* unacked fragments per transfer */
#define MCAST_PEER_TXS		16	/* transfers sending data to one peer */
#define MCAST_TICK		max(1UL, msecs_to_jiffies(10))
#define MCAST_IDLE_TICK		msecs_to_jiffies(1000)
#define MCAST_RTO_MAX_MS	1000
#define MCAST_RX_MEM_MAX	(64u << 20)
#define MCAST_RX_PER_PEER	32
#define MCAST_INFLIGHT_MAX	64
#define MCAST_INFLIGHT_BYTES	(16u << 20)
#define MCAST_DONE_KEEP_MS	20000
#define MCAST_WAIT_DEFAULT_MS	30000
#define MCAST_GAP_MS		10000

enum mcast_job_state { JOB_RX, JOB_FWD, JOB_DONE };

/* A node's part in one message: the root at the sender, else a receiver. */
struct mcast_job {
	struct list_head link;		/* mcast_net.jobs */
	struct list_head ack_link;	/* mcast_net.acks: an ACK is due */
	u32 ack_frag;			/* the fragment it answers */
	bool root;
	bool waiting;			/* root: a sender waits for it */
	bool separate;			/* root: one transfer per destination */
	enum mcast_job_state state;
	u32 src, parent, xid, group, step, nsent;
	u64 seq;
	u32 msg_len, count, total, nfrags, nrecv;
	u32 cum;			/* fragments below it all received */
	bool started;			/* the piece is known, forwarding began */
	unsigned long *have;		/* fragments received */
	u8 *pbuf;			/* received piece entries */
	struct mcast_msg *msg;
	u32 *nodes;			/* the piece, this node first */
	u64 *prevs;
	struct list_head txs;		/* struct mcast_tx.link */
	u32 pending;
	u32 *failed;
	u32 nfailed, failcap;
	bool trunc;
	unsigned long stamp;
	u64 bytes;
	struct completion done;
};

/* One transfer: this node sends @job's message to the head of a piece. */
struct mcast_tx {
	struct list_head link;
	struct mcast_job *job;
	u32 xid, to, step, len;
	u32 *nodes;			/* the piece, receiver first */
	u64 *prevs;
	u8 *pbuf;			/* the piece as sent */
	u32 plen, total, nfrags, nacked, next, cum;
	unsigned long *acked;
	u32 tries, max_tries;		/* quarters: see mcast_tx_timer() */
	u32 done_parts;			/* DONE datagrams expected (0: none yet) */
	u64 done_got;			/* the DONE datagrams received */
	unsigned long rto, deadline;
	bool queued;			/* waiting for room in the peer's window */
	bool active;			/* counted in the peer's tx_active */
};

/* Receive side FIFO state of one stream (sender, group). */
struct mcast_rstream {
	u64 last;			/* seq of the last delivered message */
	struct list_head held;		/* struct mcast_held, by seq */
	unsigned long since;
	unsigned long used;		/* its last message came then */
};

struct mcast_held {
	struct list_head link;
	struct mcast_msg *msg;
	u64 prev;
};

/* Send side: per stream, the last seq sent to each destination. */
struct mcast_tstream {
	struct xarray last;
	unsigned long used;		/* its last send */
};

/*
 * A stream idle this long is forgotten at both ends.  It must outlast
 * every transfer of the stream (a parent gives up on a child after a few
 * seconds, a receiver remembers a finished transfer for
 * MCAST_DONE_KEEP_MS), so that nothing of it can still arrive; shorter
 * values are for tests.
 */
static unsigned int stream_idle_ms = 60000;
module_param(stream_idle_ms, uint, 0644);
MODULE_PARM_DESC(stream_idle_ms,
		 "forget a (sender, group) stream's FIFO state after it was idle this many ms (default 60000)");

/* Allocations of the data path's objects, counted in mcast_live[]. */
static void *mcast_obj_zalloc(size_t size, enum mcast_obj kind)
{
	void *p = kzalloc(size, GFP_KERNEL);

	if (p)
		atomic_long_inc(&mcast_live[kind]);
	return p;
}

static void mcast_obj_free(void *p, enum mcast_obj kind)
{
	if (!p)
		return;
	atomic_long_dec(&mcast_live[kind]);
	kfree(p);
}

static u32 mcast_frag_size(struct mcast_net *mn)
{
	return mn->tp->max_payload - sizeof(struct mcw_hdr);
}

/*
 * The node's timer work ticks every MCAST_TICK while transfers or held
 * messages exist, and every MCAST_IDLE_TICK while only finished jobs wait
 * to be forgotten.
 */
static void mcast_arm(struct mcast_net *mn)
{
	if (mn->dying)
		return;
	if (mn->slow_tick) {
		mn->slow_tick = false;
		mod_delayed_work(mcast_wq, &mn->timer_work, MCAST_TICK);
		return;
	}
	queue_delayed_work(mcast_wq, &mn->timer_work, MCAST_TICK);
}

static int mcast_xmit(struct mcast_net *mn, u32 to, struct kvec *v,
		      size_t nv, size_t len)
{
	struct mcast_peer *p = xa_load(&mn->peers, to);
	int err;

	if (!p || !mn->sock)
		return -ENOENT;
	err = mn->tp->xmit(mn, p, v, nv, len);
	if (!err)
		atomic64_inc(&mn->stats.tx_packets);
	return err;
}

static void mcw_init(struct mcw_hdr *h, struct mcast_net *mn, u8 type,
		     u32 src, u32 xid, u64 seq)
{
	memset(h, 0, sizeof(*h));
	h->version = MCW_VERSION;
	h->type = type;
	h->src = cpu_to_be32(src);
	h->from = cpu_to_be32(mn->node_id);
	h->xid = cpu_to_be32(xid);
	h->seq = cpu_to_be64(seq);
}

/* ---------------------------------------------------------------- jobs */

static int mcast_job_add_failed(struct mcast_job *job, u32 node)
{
	u32 *n;

	if (job->nfailed == job->failcap) {
		u32 cap = max(8U, job->failcap * 2);

		n = krealloc_array(job->failed, cap, sizeof(u32), GFP_KERNEL);
		if (!n) {
			job->trunc = true;
			return -ENOMEM;
		}
		job->failed = n;
		job->failcap = cap;
	}
	job->failed[job->nfailed++] = node;
	return 0;
}

static void mcast_job_free_data(struct mcast_job *job)
{
	kvfree(job->have);
	job->have = NULL;
	kvfree(job->pbuf);
	job->pbuf = NULL;
	kvfree(job->nodes);
	job->nodes = NULL;
	kvfree(job->prevs);
	job->prevs = NULL;
	if (job->msg)
		mcast_msg_put(job->msg);
	job->msg = NULL;
}

static void mcast_peer_rx_jobs(struct mcast_net *mn, u32 id, int d)
{
	struct mcast_peer *p = xa_load(&mn->peers, id);

	if (p && (d > 0 || p->rx_jobs))
		p->rx_jobs += d;
}

static void mcast_tx_free(struct mcast_net *mn, struct mcast_tx *tx);

static void mcast_job_free(struct mcast_net *mn, struct mcast_job *job)
{
	struct mcast_tx *tx, *tmp;

	/* A forwarder whose parent gave up mid-transfer still has children. */
	list_for_each_entry_safe(tx, tmp, &job->txs, link)
		mcast_tx_free(mn, tx);
	list_del(&job->ack_link);
	if (!job->root)
		xa_erase(&mn->rjobs, (unsigned long)job->parent << 32 | job->xid);
	if (job->state == JOB_RX) {
		mn->rx_mem -= job->total;
		mcast_peer_rx_jobs(mn, job->parent, -1);
	}
	list_del(&job->link);
	mcast_job_free_data(job);
	kfree(job->failed);
	mcast_obj_free(job, MCAST_OBJ_JOB);
}

/* The transfer leaves its peer's window (all its data is acknowledged). */
static void mcast_tx_inactive(struct mcast_net *mn, struct mcast_tx *tx)
{
	struct mcast_peer *p;

	if (!tx->active)
		return;
	tx->active = false;
	p = xa_load(&mn->peers, tx->to);
	if (p && p->tx_active)
		p->tx_active--;
}

static void mcast_tx_free(struct mcast_net *mn, struct mcast_tx *tx)
{
	mcast_tx_inactive(mn, tx);
	xa_erase(&mn->txs, tx->xid);
	list_del(&tx->link);
	kvfree(tx->nodes);
	kvfree(tx->prevs);
	kvfree(tx->pbuf);
	kvfree(tx->acked);
	mcast_obj_free(tx, MCAST_OBJ_TX);
}

static int mcast_cmp_u32(const void *a, const void *b)
{
	u32 x = *(const u32 *)a, y = *(const u32 *)b;

	return x < y ? -1 : x > y;
}

/*
 * Sorts the failed list and drops repeats: after a takeover a node can be
 * reported by the dead child's replacement and by a survivor that had
 * already got the message from it.
 */
static void mcast_job_uniq_failed(struct mcast_job *job)
{
	u32 i, n = 0;

	sort(job->failed, job->nfailed, sizeof(u32), mcast_cmp_u32, NULL);
	for (i = 0; i < job->nfailed; i++)
		if (!n || job->failed[n - 1] != job->failed[i])
			job->failed[n++] = job->failed[i];
	job->nfailed = n;
}

/* Ids per DONE datagram; a longer failed list goes in several parts. */
static u32 mcast_done_room(struct mcast_net *mn)
{
	return mcast_frag_size(mn) / 4;
}

/* DONE part @part (ids [part * room, ...)) of @job's failed list. */
static void mcast_send_done_part(struct mcast_net *mn, struct mcast_job *job,
				 u32 part, __be32 *ids)
{
	u32 room = mcast_done_room(mn), first = part * room;
	u32 n = min(job->nfailed - first, room), i;
	struct mcw_hdr h;
	struct kvec v[2];

	for (i = 0; i < n; i++)
		ids[i] = cpu_to_be32(job->failed[first + i]);
	mcw_init(&h, mn, MCW_DONE, job->src, job->xid, job->seq);
	h.group = cpu_to_be32(job->group);
	h.count = cpu_to_be32(job->nfailed);
	h.frag = cpu_to_be32(part);
	if (job->trunc)
		h.flags |= MCW_F_TRUNC;
	v[0] = (struct kvec){ &h, sizeof(h) };
	v[1] = (struct kvec){ ids, n * 4 };
	mcast_xmit(mn, job->parent, v, 2, sizeof(h) + n * 4);
}

static void mcast_send_done(struct mcast_net *mn, struct mcast_job *job)
{
	u32 room = mcast_done_room(mn), part;
	u32 parts = max(1U, DIV_ROUND_UP(job->nfailed, room));
	__be32 *ids;

	ids = kmalloc_array(room, 4, GFP_KERNEL);
	if (!ids)
		return;		/* the parent's probe asks again */
	for (part = 0; part < parts; part++)
		mcast_send_done_part(mn, job, part, ids);
	kfree(ids);
}

static void mcast_job_complete(struct mcast_net *mn, struct mcast_job *job)
{
	job->state = JOB_DONE;
	job->stamp = jiffies;
	mcast_job_uniq_failed(job);
	if (!job->root) {
		mcast_job_free_data(job);
		mcast_send_done(mn, job);
		mcast_arm(mn);
		return;
	}
	mn->inflight--;
	mn->inflight_bytes -= job->bytes;
	wake_up_interruptible(&mn->send_wq);
	if (job->waiting)
		complete(&job->done);
	else
		mcast_job_free(mn, job);
}

static void mcast_job_check(struct mcast_net *mn, struct mcast_job *job)
{
	if (job->state == JOB_FWD && !job->pending)
		mcast_job_complete(mn, job);
}

/* ----------------------------------------------------------- transfers */

static void mcast_tx_send_frag(struct mcast_net *mn, struct mcast_tx *tx,
			       u32 i)
{
	struct mcast_job *job = tx->job;
	u32 fs = mcast_frag_size(mn);
	u32 off = i * fs, end = min(tx->total, off + fs);
	struct mcw_hdr h;
	struct kvec v[3];
	size_t nv = 1;

	mcw_init(&h, mn, MCW_DATA, job->src, tx->xid, job->seq);
	h.group = cpu_to_be32(job->group);
	h.step = cpu_to_be32(tx->step);
	h.msg_len = cpu_to_be32(job->msg_len);
	h.count = cpu_to_be32(tx->len);
	h.frag = cpu_to_be32(i);
	v[0] = (struct kvec){ &h, sizeof(h) };
	if (off < tx->plen)
		v[nv++] = (struct kvec){ tx->pbuf + off,
					 min(end, tx->plen) - off };
	if (end > tx->plen) {
		u32 d0 = max(off, tx->plen) - tx->plen;

		v[nv++] = (struct kvec){ job->msg->data + d0,
					 end - tx->plen - d0 };
	}
	mcast_xmit(mn, tx->to, v, nv, sizeof(h) + end - off);
}

/* Message bytes this node holds from the start: all once it has them all. */
static u32 mcast_job_held(struct mcast_net *mn, const struct mcast_job *job)
{
	u64 got, piece = (u64)job->count * MCW_ENTRY;

	if (job->state != JOB_RX)
		return job->msg_len;
	got = min_t(u64, (u64)job->cum * mcast_frag_size(mn), job->total);
	return got > piece ? got - piece : 0;
}

/*
 * Fragments of @tx this node can send now.  A forwarder relays while it
 * still receives (cut-through): a child fragment goes out once every byte
 * in it has arrived here, so the tree pipelines a long message instead of
 * costing one message time per level.
 */
static u32 mcast_tx_ready(struct mcast_net *mn, const struct mcast_tx *tx)
{
	u32 held = mcast_job_held(mn, tx->job);

	if (held == tx->job->msg_len)
		return tx->nfrags;
	return (tx->plen + held) / mcast_frag_size(mn);
}

static void mcast_tx_pump(struct mcast_net *mn, struct mcast_tx *tx)
{
	u32 ready = mcast_tx_ready(mn, tx);

	while (tx->next < ready && tx->next - tx->nacked < MCAST_WIN)
		mcast_tx_send_frag(mn, tx, tx->next++);
}

static void mcast_tx_progress(struct mcast_net *mn, struct mcast_tx *tx)
{
	tx->tries = 0;
	tx->rto = msecs_to_jiffies(mn->rto_ms);
	tx->deadline = jiffies + tx->rto;
}

static void mcast_job_spread(struct mcast_net *mn, struct mcast_job *job,
			     const u32 *nodes, const u64 *prevs, u32 n);

/* Takes over the piece of @tx minus its head: U-torus from this node. */
static void mcast_takeover(struct mcast_net *mn, struct mcast_job *job,
			   const u32 *nodes, const u64 *prevs, u32 len)
{
	u32 *tn;
	u64 *tp;
	u32 i;

	if (len < 2)
		return;
	tn = kvmalloc_array(len, sizeof(u32), GFP_KERNEL);
	tp = kvmalloc_array(len, sizeof(u64), GFP_KERNEL);
	if (!tn || !tp) {
		for (i = 1; i < len; i++)
			mcast_job_add_failed(job, nodes[i]);
		goto out;
	}
	tn[0] = mn->node_id;
	tp[0] = 0;
	memcpy(tn + 1, nodes + 1, (len - 1) * sizeof(u32));
	memcpy(tp + 1, prevs + 1, (len - 1) * sizeof(u64));
	mcast_job_spread(mn, job, tn, tp, len);
out:
	kvfree(tn);
	kvfree(tp);
}

static void mcast_tx_start(struct mcast_net *mn, struct mcast_job *job,
			   const u32 *nodes, const u64 *prevs, u32 len)
{
	struct mcast_peer *p = xa_load(&mn->peers, nodes[0]);
	struct mcast_tx *tx;
	u32 i, fs = mcast_frag_size(mn);
	int err;

	if (!p) {
		atomic64_inc(&mn->stats.unreached);
		mcast_job_add_failed(job, nodes[0]);
		mcast_notify_data(mn, MCAST_CMD_ERROR, nodes[0], job->group,
				  job->seq, EHOSTUNREACH);
		mcast_takeover(mn, job, nodes, prevs, len);
		return;
	}
	tx = mcast_obj_zalloc(sizeof(*tx), MCAST_OBJ_TX);
	if (!tx)
		goto nomem;
	tx->job = job;
	tx->to = nodes[0];
	tx->len = len;
	tx->step = job->step + 1 + job->nsent++;
	tx->plen = len * MCW_ENTRY;
	tx->total = tx->plen + job->msg_len;
	tx->nfrags = max(1U, DIV_ROUND_UP(tx->total, fs));
	tx->nodes = kvmalloc_array(len, sizeof(u32), GFP_KERNEL);
	tx->prevs = kvmalloc_array(len, sizeof(u64), GFP_KERNEL);
	tx->pbuf = kvmalloc(tx->plen, GFP_KERNEL);
	tx->acked = kvcalloc(BITS_TO_LONGS(tx->nfrags), sizeof(long),
			     GFP_KERNEL);
	if (!tx->nodes || !tx->prevs || !tx->pbuf || !tx->acked)
		goto nomem_tx;
	memcpy(tx->nodes, nodes, len * sizeof(u32));
	memcpy(tx->prevs, prevs, len * sizeof(u64));
	for (i = 0; i < len; i++) {
		put_unaligned_be32(nodes[i], tx->pbuf + i * MCW_ENTRY);
		put_unaligned_be64(prevs[i], tx->pbuf + i * MCW_ENTRY + 4);
	}
	err = xa_alloc_cyclic(&mn->txs, &tx->xid, tx, XA_LIMIT(1, U32_MAX),
			      &mn->next_xid, GFP_KERNEL);
	if (err < 0)
		goto nomem_tx;
	list_add_tail(&tx->link, &job->txs);
	job->pending++;
	tx->max_tries = p->down ? 1 : mn->retries;
	if (!job->root)
		atomic64_inc(&mn->stats.fwd_msgs);
	if (p->tx_active >= MCAST_PEER_TXS) {
		tx->queued = true;	/* the timer starts it when there is room */
	} else {
		p->tx_active++;
		tx->active = true;
		mcast_tx_progress(mn, tx);
		mcast_tx_pump(mn, tx);
	}
	mcast_arm(mn);
	return;

nomem_tx:
	kvfree(tx->nodes);
	kvfree(tx->prevs);
	kvfree(tx->pbuf);
	kvfree(tx->acked);
	mcast_obj_free(tx, MCAST_OBJ_TX);
nomem:
	/* Reported, not lost silently: every node of the piece failed. */
	for (i = 0; i < len; i++)
		mcast_job_add_failed(job, nodes[i]);
	atomic64_add(len, &mn->stats.unreached);
	mcast_notify_data(mn, MCAST_CMD_ERROR, nodes[0], job->group, job->seq,
			  ENOMEM);
}

/*
 * Runs U-torus (Fig 4.9) over @nodes[0..n-1], @nodes[0] being this node;
 * or, for a separate-addressing root, one transfer to each node in turn
 * (every piece is then one node, so nothing is forwarded or taken over).
 */
static void mcast_job_spread(struct mcast_net *mn, struct mcast_job *job,
			     const u32 *nodes, const u64 *prevs, u32 n)
{
	struct mc_chain c = { .node = nodes, .len = n, .rot = 0 };
	struct mc_sender s;
	struct mc_dest d;

	mc_sender_init(&s, &mn->torus, &c,
		       job->separate ? MC_ALGO_SEPARATE : MC_ALGO_UTORUS,
		       0, 0, n, 0);
	while (mc_sender_next(&s, &d, 1) == 1)
		mcast_tx_start(mn, job, nodes + d.pos, prevs + d.pos, d.len);
}

/* The child of @tx stopped answering: fail it, take over its piece. */
static void mcast_tx_fail(struct mcast_net *mn, struct mcast_tx *tx)
{
	struct mcast_job *job = tx->job;
	struct mcast_peer *p = xa_load(&mn->peers, tx->to);

	if (p)
		p->down = true;
	atomic64_inc(&mn->stats.peer_fails);
	atomic64_inc(&mn->stats.unreached);
	mcast_job_add_failed(job, tx->to);
	mcast_notify_data(mn, MCAST_CMD_PEER_DOWN, tx->to, job->group,
			  job->seq, EHOSTUNREACH);
	mcast_takeover(mn, job, tx->nodes, tx->prevs, tx->len);
	mcast_tx_free(mn, tx);
	job->pending--;
	mcast_job_check(mn, job);
}

static void mcast_tx_timer(struct mcast_net *mn, struct mcast_tx *tx)
{
	struct mcast_peer *p;
	u32 i, n = 0;

	if (tx->queued) {
		p = xa_load(&mn->peers, tx->to);
		if (p && p->tx_active >= MCAST_PEER_TXS)
			return;
		tx->queued = false;
		if (p) {
			p->tx_active++;
			tx->active = true;
		}
		mcast_tx_progress(mn, tx);
		mcast_tx_pump(mn, tx);
		return;
	}
	if (time_before(jiffies, tx->deadline))
		return;
	if (tx->nacked == tx->next && tx->next < tx->nfrags) {
		/* All sent is acknowledged; the rest has not reached us yet. */
		mcast_tx_progress(mn, tx);
		return;
	}
	/*
	 * A child that spoke during this timeout (for other transfers) is
	 * alive but overloaded: that counts a quarter of a silent timeout, so
	 * load does not pass for death, and a child that answers everything
	 * but this transfer still ends (a bug, not a hang).
	 */
	p = xa_load(&mn->peers, tx->to);
	tx->tries += p && time_in_range(p->heard, jiffies - tx->rto, jiffies) ?
		     1 : 4;
	if (tx->tries > 4 * tx->max_tries) {
		mcast_tx_fail(mn, tx);
		return;
	}
	if (tx->nacked == tx->nfrags) {
		/* Waiting for DONE: probe with the last fragment. */
		mcast_tx_send_frag(mn, tx, tx->nfrags - 1);
		n = 1;
	} else {
		for (i = tx->cum; i < tx->next && n < MCAST_WIN; i++) {
			if (test_bit(i, tx->acked))
				continue;
			mcast_tx_send_frag(mn, tx, i);
			n++;
		}
	}
	atomic64_add(n, &mn->stats.retrans);
	tx->rto = min(tx->rto * 2, msecs_to_jiffies(MCAST_RTO_MAX_MS));
	tx->deadline = jiffies + tx->rto;
}

static void mcast_tx_mark(struct mcast_tx *tx, u32 i)
{
	if (i < tx->nfrags && !test_and_set_bit(i, tx->acked))
		tx->nacked++;
}

static void mcast_rx_ack(struct mcast_net *mn, const struct mcw_hdr *h,
			 const void *body, size_t blen, u32 from)
{
	struct mcast_tx *tx = xa_load(&mn->txs, be32_to_cpu(h->xid));
	u64 sack = blen >= 8 ? get_unaligned_be64(body) : 0;
	u32 cum, i;

	if (!tx || tx->to != from)
		return;
	if (h->flags & MCW_F_BUSY) {
		/* Alive: back-pressure, not failure.  Try again later. */
		tx->tries = 0;
		return;
	}
	cum = min(be32_to_cpu(h->cum), tx->nfrags);
	cum = min(cum, tx->next);
	for (; tx->cum < cum; tx->cum++)
		mcast_tx_mark(tx, tx->cum);
	if (be32_to_cpu(h->frag) < tx->next)
		mcast_tx_mark(tx, be32_to_cpu(h->frag));
	/* bit i: fragment cum + i is held too (beyond a gap) */
	for (i = 0; sack && i < 64; i++, sack >>= 1)
		if ((sack & 1) && cum + i < tx->next)
			mcast_tx_mark(tx, cum + i);
	mcast_tx_progress(mn, tx);
	mcast_tx_pump(mn, tx);
	if (tx->nacked == tx->nfrags)
		mcast_tx_inactive(mn, tx);	/* now only waits for DONE */
}

/*
 * A DONE part: the child's subtree is finished; the failed list comes in
 * DIV_ROUND_UP(count, room) parts (at least one), each taken once.
 */
static void mcast_rx_done(struct mcast_net *mn, const struct mcw_hdr *h,
			  const void *body, size_t blen, u32 from)
{
	struct mcast_tx *tx = xa_load(&mn->txs, be32_to_cpu(h->xid));
	u32 count = be32_to_cpu(h->count), part = be32_to_cpu(h->frag);
	u32 room = mcast_done_room(mn), parts, first, n, i;
	struct mcast_job *job;

	if (!tx || tx->to != from)
		return;
	job = tx->job;
	parts = max(1U, DIV_ROUND_UP(count, room));
	if (parts > 64) {
		parts = 64;	/* more than a tree can fail: keep what fits */
		job->trunc = true;
	}
	if (tx->done_parts && tx->done_parts != parts)
		return;		/* not the list the earlier parts began */
	if (part >= parts || tx->done_got & BIT_ULL(part))
		return;
	tx->done_parts = parts;
	tx->done_got |= BIT_ULL(part);
	first = part * room;
	n = min(count - first, room);
	for (i = 0; i < n && (i + 1) * 4 <= blen; i++)
		mcast_job_add_failed(job, get_unaligned_be32(body + i * 4));
	if (i < n || h->flags & MCW_F_TRUNC)
		job->trunc = true;
	if (tx->done_got != GENMASK_ULL(parts - 1, 0)) {
		mcast_tx_progress(mn, tx);	/* alive: the rest is coming */
		return;
	}
	mcast_tx_free(mn, tx);
	job->pending--;
	mcast_job_check(mn, job);
}

/* ------------------------------------------------------ local delivery */

static void mcast_deliver_now(struct mcast_net *mn, struct mcast_msg *msg)
{
	struct mcast_group *g = NULL;

	if (msg->group != MCAST_NO_GROUP) {
		g = xa_load(&mn->groups, msg->group);
		if (!g)
			return;
	}
	mcast_deliver_local(mn, msg, g, !g, NULL);
}

static void mcast_stream_drain(struct mcast_net *mn, struct mcast_rstream *st,
			       bool force)
{
	struct mcast_held *hd;

	while ((hd = list_first_entry_or_null(&st->held, struct mcast_held,
					      link))) {
		if (!force && hd->prev > st->last)
			break;
		force = false;
		list_del(&hd->link);
		mcast_deliver_now(mn, hd->msg);
		st->last = hd->msg->seq;
		mcast_msg_put(hd->msg);
		kfree(hd);
		st->since = jiffies;
	}
}

/*
 * What a new stream from @src may take as delivered: the last seq of any
 * stream of @src that was forgotten.  That message is older than
 * stream_idle_ms, so every message sent before it has arrived or never
 * will; a new stream's first message may name one of them as its prev.
 */
static u64 mcast_rx_floor(struct mcast_net *mn, u32 src)
{
	void *e = xa_load(&mn->rx_floor, src);

	return e ? xa_to_value(e) : 0;
}

static int mcast_rx_floor_raise(struct mcast_net *mn, u32 src, u64 seq)
{
	if (seq <= mcast_rx_floor(mn, src))
		return 0;
	return xa_err(xa_store(&mn->rx_floor, src, xa_mk_value(seq),
			       GFP_KERNEL));
}

/* Forgets idle streams, so their state does not grow without bound. */
static void mcast_streams_expire(struct mcast_net *mn)
{
	unsigned long idle = msecs_to_jiffies(READ_ONCE(stream_idle_ms));
	struct mcast_rstream *st;
	struct mcast_tstream *ts;
	unsigned long id;

	if (time_before(jiffies, mn->streams_checked + HZ))
		return;		/* once a second is enough */
	mn->streams_checked = jiffies;
	xa_for_each(&mn->rx_streams, id, st) {
		if (!list_empty(&st->held) ||
		    time_before(jiffies, st->used + idle) ||
		    mcast_rx_floor_raise(mn, id >> 32, st->last))
			continue;
		xa_erase(&mn->rx_streams, id);
		mcast_obj_free(st, MCAST_OBJ_STREAM);
	}
	xa_for_each(&mn->tx_streams, id, ts) {
		if (time_before(jiffies, ts->used + idle))
			continue;
		xa_erase(&mn->tx_streams, id);
		xa_destroy(&ts->last);
		mcast_obj_free(ts, MCAST_OBJ_STREAM);
	}
}

/* FIFO per (sender, group): deliver @msg after its @prev, exactly once. */
static void mcast_rx_deliver(struct mcast_net *mn, struct mcast_msg *msg,
			     u64 prev)
{
	unsigned long key = (unsigned long)msg->src_node << 32 | msg->group;
	struct mcast_rstream *st = xa_load(&mn->rx_streams, key);
	struct mcast_held *hd, *pos;

	if (!st) {
		st = mcast_obj_zalloc(sizeof(*st), MCAST_OBJ_STREAM);
		if (!st || xa_err(xa_store(&mn->rx_streams, key, st,
					   GFP_KERNEL))) {
			mcast_obj_free(st, MCAST_OBJ_STREAM);
			mcast_deliver_now(mn, msg);	/* no order, no loss */
			return;
		}
		INIT_LIST_HEAD(&st->held);
		st->last = mcast_rx_floor(mn, msg->src_node);
	}
	st->used = jiffies;
	if (msg->seq <= st->last)
		goto dup;
	list_for_each_entry(pos, &st->held, link)
		if (pos->msg->seq == msg->seq)
			goto dup;
	if (prev <= st->last) {
		mcast_deliver_now(mn, msg);
		st->last = msg->seq;
		mcast_stream_drain(mn, st, false);
		return;
	}
	hd = kmalloc(sizeof(*hd), GFP_KERNEL);
	if (!hd) {
		mcast_deliver_now(mn, msg);
		return;
	}
	refcount_inc(&msg->ref);
	hd->msg = msg;
	hd->prev = prev;
	if (list_empty(&st->held))
		st->since = jiffies;
	list_for_each_entry(pos, &st->held, link)
		if (pos->msg->seq > msg->seq)
			break;
	list_add_tail(&hd->link, &pos->link);
	mcast_arm(mn);
	return;
dup:
	atomic64_inc(&mn->stats.dups);
}

/* ------------------------------------------------------------- receive */

static void mcast_send_ack(struct mcast_net *mn, struct mcast_job *job,
			   u32 frag)
{
	struct mcw_hdr h;
	__be64 sack_be;
	struct kvec v[2] = { { &h, sizeof(h) }, { &sack_be, sizeof(sack_be) } };
	u64 sack = 0;
	u32 i;

	mcw_init(&h, mn, MCW_ACK, job->src, job->xid, job->seq);
	h.frag = cpu_to_be32(frag);
	h.cum = cpu_to_be32(job->state == JOB_RX ? job->cum : job->nfrags);
	for (i = 1; job->state == JOB_RX && i < 64 &&
		    job->cum + i < job->nfrags; i++)
		if (test_bit(job->cum + i, job->have))
			sack |= BIT_ULL(i);
	sack_be = cpu_to_be64(sack);
	mcast_xmit(mn, job->parent, v, 2, sizeof(h) + sizeof(sack_be));
}

/*
 * Fragments are acknowledged once per receive batch, not one by one: the
 * ACK sent at the end of the batch carries the contiguous count and a
 * bitmap of the 64 fragments after it, so one ACK answers a whole window
 * and a sender's socket is not flooded with them.
 */
static void mcast_ack_later(struct mcast_net *mn, struct mcast_job *job,
			    u32 frag)
{
	job->ack_frag = frag;
	if (list_empty(&job->ack_link))
		list_add_tail(&job->ack_link, &mn->acks);
}

void mcast_data_rx_flush(struct mcast_net *mn)
{
	struct mcast_job *job, *tmp;

	lockdep_assert_held(&mn->lock);
	list_for_each_entry_safe(job, tmp, &mn->acks, ack_link) {
		list_del_init(&job->ack_link);
		mcast_send_ack(mn, job, job->ack_frag);
	}
}

/*
 * The piece (the list at the head of the transfer) is here: forward it
 * while the message is still arriving.  A piece not headed by this node
 * was misaddressed: take the message, forward and deliver nothing.
 */
static void mcast_job_start(struct mcast_net *mn, struct mcast_job *job)
{
	u32 i;

	job->started = true;
	job->nodes = kvmalloc_array(job->count, sizeof(u32), GFP_KERNEL);
	job->prevs = kvmalloc_array(job->count, sizeof(u64), GFP_KERNEL);
	if (!job->nodes || !job->prevs) {
		/* Cannot forward: report the whole piece. */
		kvfree(job->nodes);
		kvfree(job->prevs);
		job->nodes = NULL;
		job->prevs = NULL;
		for (i = 1; i < job->count; i++)
			mcast_job_add_failed(job, get_unaligned_be32(job->pbuf +
							i * MCW_ENTRY));
		return;
	}
	for (i = 0; i < job->count; i++) {
		job->nodes[i] = get_unaligned_be32(job->pbuf + i * MCW_ENTRY);
		job->prevs[i] = get_unaligned_be64(job->pbuf + i * MCW_ENTRY + 4);
	}
	kvfree(job->pbuf);	/* the fragments holding it are all in */
	job->pbuf = NULL;
	if (job->nodes[0] == mn->node_id)
		mcast_job_spread(mn, job, job->nodes, job->prevs, job->count);
}

/* The whole transfer is here: deliver it locally. */
static void mcast_job_received(struct mcast_net *mn, struct mcast_job *job)
{
	mn->rx_mem -= job->total;
	mcast_peer_rx_jobs(mn, job->parent, -1);
	job->state = JOB_FWD;
	kvfree(job->have);
	job->have = NULL;
	if (!job->nodes || job->nodes[0] != mn->node_id)
		return;
	job->msg->group = job->group;
	job->msg->src_node = job->src;
	job->msg->seq = job->seq;
	job->msg->step = job->step;
	job->msg->from_node = job->parent;
	mcast_rx_deliver(mn, job->msg, job->prevs[0]);
}

/* A fragment came in: start forwarding, deliver, feed the children. */
static void mcast_job_advance(struct mcast_net *mn, struct mcast_job *job)
{
	struct mcast_tx *tx;

	if (!job->started &&
	    (u64)job->cum * mcast_frag_size(mn) >= (u64)job->count * MCW_ENTRY)
		mcast_job_start(mn, job);
	if (job->nrecv == job->nfrags)
		mcast_job_received(mn, job);
	list_for_each_entry(tx, &job->txs, link)
		if (tx->active)
			mcast_tx_pump(mn, tx);
	mcast_job_check(mn, job);
}

static struct mcast_job *mcast_job_new_rx(struct mcast_net *mn,
					  const struct mcw_hdr *h, u32 from)
{
	u32 count = be32_to_cpu(h->count), len = be32_to_cpu(h->msg_len);
	struct mcast_peer *p = xa_load(&mn->peers, from);
	struct mcast_job *job;
	u64 total;

	if (!count || count > MCAST_MAX_DESTS + 1 || len > MCAST_MAX_MSG)
		return NULL;
	total = (u64)count * MCW_ENTRY + len;
	if (mn->rx_mem + total > MCAST_RX_MEM_MAX ||
	    p->rx_jobs >= MCAST_RX_PER_PEER)
		return ERR_PTR(-ENOBUFS);	/* the parent tries again later */
	job = mcast_obj_zalloc(sizeof(*job), MCAST_OBJ_JOB);
	if (!job)
		return NULL;
	INIT_LIST_HEAD(&job->txs);
	INIT_LIST_HEAD(&job->ack_link);
	job->state = JOB_RX;
	job->src = be32_to_cpu(h->src);
	job->parent = from;
	job->xid = be32_to_cpu(h->xid);
	job->seq = be64_to_cpu(h->seq);
	job->group = be32_to_cpu(h->group);
	job->step = be32_to_cpu(h->step);
	job->msg_len = len;
	job->count = count;
	job->total = total;
	job->nfrags = max_t(u32, 1, DIV_ROUND_UP(total, mcast_frag_size(mn)));
	job->have = kvcalloc(BITS_TO_LONGS(job->nfrags), sizeof(long),
			     GFP_KERNEL);
	job->pbuf = kvmalloc(count * MCW_ENTRY, GFP_KERNEL);
	job->msg = mcast_msg_alloc(len);
	if (!job->have || !job->pbuf || !job->msg ||
	    xa_insert(&mn->rjobs, (unsigned long)from << 32 | job->xid, job,
		      GFP_KERNEL)) {
		mcast_job_free_data(job);
		mcast_obj_free(job, MCAST_OBJ_JOB);
		return NULL;
	}
	job->stamp = jiffies;
	list_add_tail(&job->link, &mn->jobs);
	mn->rx_mem += total;
	p->rx_jobs++;
	mcast_arm(mn);
	return job;
}

static bool mcast_job_matches(const struct mcast_job *job,
			      const struct mcw_hdr *h)
{
	return job->src == be32_to_cpu(h->src) &&
	       job->seq == be64_to_cpu(h->seq) &&
	       job->count == be32_to_cpu(h->count) &&
	       job->msg_len == be32_to_cpu(h->msg_len);
}

static void mcast_rx_data(struct mcast_net *mn, const struct mcw_hdr *h,
			  const u8 *body, size_t blen, u32 from)
{
	unsigned long key = (unsigned long)from << 32 | be32_to_cpu(h->xid);
	struct mcast_job *job = xa_load(&mn->rjobs, key);
	u32 frag = be32_to_cpu(h->frag), fs = mcast_frag_size(mn);
	u32 off, end, c;

	if (job && !mcast_job_matches(job, h)) {
		/* The parent restarted and reused the id: that transfer is over. */
		mcast_job_free(mn, job);
		job = NULL;
	}
	if (!job) {
		job = mcast_job_new_rx(mn, h, from);
		if (!job)
			return;
		if (IS_ERR(job)) {
			struct mcw_hdr b;
			struct kvec v = { &b, sizeof(b) };

			mcw_init(&b, mn, MCW_ACK, be32_to_cpu(h->src),
				 be32_to_cpu(h->xid), be64_to_cpu(h->seq));
			b.flags = MCW_F_BUSY;
			mcast_xmit(mn, from, &v, 1, sizeof(b));
			return;
		}
	}
	if (frag >= job->nfrags)
		return;
	if (job->state != JOB_RX) {
		atomic64_inc(&mn->stats.dups);
		mcast_send_ack(mn, job, frag);
		if (job->state == JOB_DONE)
			mcast_send_done(mn, job);
		return;
	}
	off = frag * fs;
	end = min(job->total, off + fs);
	if (blen != end - off)
		return;
	if (test_bit(frag, job->have)) {
		atomic64_inc(&mn->stats.dups);
		mcast_send_ack(mn, job, frag);
		return;
	}
	c = job->count * MCW_ENTRY;
	if (off < c)
		memcpy(job->pbuf + off, body, min(end, c) - off);
	if (end > c) {
		u32 d0 = max(off, c) - c;

		memcpy(job->msg->data + d0, body + (max(off, c) - off),
		       end - c - d0);
	}
	set_bit(frag, job->have);
	job->nrecv++;
	while (job->cum < job->nfrags && test_bit(job->cum, job->have))
		job->cum++;
	job->stamp = jiffies;
	mcast_ack_later(mn, job, frag);
	mcast_job_advance(mn, job);
}

void mcast_data_rx(struct mcast_net *mn, const void *buf, size_t len)
{
	const struct mcw_hdr *h = buf;
	struct mcast_peer *p;
	u32 from;

	lockdep_assert_held(&mn->lock);
	atomic64_inc(&mn->stats.rx_packets);
	if (!mn->configured || len < sizeof(*h) || h->version != MCW_VERSION)
		return;
	from = be32_to_cpu(h->from);
	p = xa_load(&mn->peers, from);
	if (!p)
		return;		/* unknown sender: nowhere to answer */
	p->down = false;
	p->heard = jiffies;
	switch (h->type) {
	case MCW_DATA:
		mcast_rx_data(mn, h, buf + sizeof(*h), len - sizeof(*h), from);
		break;
	case MCW_ACK:
		mcast_rx_ack(mn, h, buf + sizeof(*h), len - sizeof(*h), from);
		break;
	case MCW_DONE:
		mcast_rx_done(mn, h, buf + sizeof(*h), len - sizeof(*h), from);
		break;
	}
}

/* --------------------------------------------------------------- timer */

static void mcast_timer_work(struct work_struct *w)
{
	struct mcast_net *mn = container_of(to_delayed_work(w),
					    struct mcast_net, timer_work);
	unsigned long keep = msecs_to_jiffies(MCAST_DONE_KEEP_MS);
	unsigned long gap = msecs_to_jiffies(MCAST_GAP_MS);
	struct mcast_job *job, *tmp;
	struct mcast_rstream *st;
	struct mcast_tx *tx;
	unsigned long id;
	bool again = false;

	mutex_lock(&mn->lock);
	mn->slow_tick = false;
	if (mn->dying)
		goto out;
	xa_for_each(&mn->txs, id, tx)
		mcast_tx_timer(mn, tx);
	list_for_each_entry_safe(job, tmp, &mn->jobs, link) {
		if (job->state == JOB_DONE && !job->root &&
		    time_after(jiffies, job->stamp + keep))
			mcast_job_free(mn, job);
		else if (job->state == JOB_RX &&
			 time_after(jiffies, job->stamp + keep))
			mcast_job_free(mn, job);	/* the parent gave up */
	}
	xa_for_each(&mn->rx_streams, id, st) {
		if (list_empty(&st->held))
			continue;
		if (time_after(jiffies, st->since + gap))
			mcast_stream_drain(mn, st, true);	/* skip a gap */
		again |= !list_empty(&st->held);
	}
	mcast_streams_expire(mn);
	again |= !xa_empty(&mn->txs);
	list_for_each_entry(job, &mn->jobs, link)
		again |= job->state == JOB_RX;
	if (again) {
		mcast_arm(mn);
	} else if (!list_empty(&mn->jobs) || !xa_empty(&mn->rx_streams) ||
		   !xa_empty(&mn->tx_streams)) {
		mn->slow_tick = true;
		queue_delayed_work(mcast_wq, &mn->timer_work, MCAST_IDLE_TICK);
	}
out:
	mutex_unlock(&mn->lock);
}

/* ---------------------------------------------------------------- send */

static struct mcast_tstream *mcast_tstream(struct mcast_net *mn, u32 group)
{
	struct mcast_tstream *ts = xa_load(&mn->tx_streams, group);

	if (ts)
		return ts;
	ts = mcast_obj_zalloc(sizeof(*ts), MCAST_OBJ_STREAM);
	if (!ts)
		return NULL;
	xa_init(&ts->last);
	ts->used = jiffies;
	if (xa_err(xa_store(&mn->tx_streams, group, ts, GFP_KERNEL))) {
		mcast_obj_free(ts, MCAST_OBJ_STREAM);
		return NULL;
	}
	return ts;
}

/* Room for one more message in flight (read without the lock to wait). */
static bool mcast_room(struct mcast_net *mn, u32 len)
{
	u32 n = READ_ONCE(mn->inflight);

	return READ_ONCE(mn->dying) || !n ||
	       (n < MCAST_INFLIGHT_MAX &&
		READ_ONCE(mn->inflight_bytes) + len <= MCAST_INFLIGHT_BYTES);
}

/* poll()'s EPOLLOUT: a send of any size would be taken without waiting. */
bool mcast_data_writable(struct mcast_net *mn)
{
	return mcast_room(mn, MCAST_MAX_MSG);
}

/* Sorted @base[0..m-1] with @self added if absent, into a new array. */
static u32 *mcast_chain_with(const u32 *base, u32 m, u32 self, u32 *outm)
{
	u32 *a = kvmalloc_array(m + 1, sizeof(u32), GFP_KERNEL);
	u32 i = 0, j = 0;

	if (!a)
		return NULL;
	while (i < m && base[i] < self)
		a[j++] = base[i++];
	if (i == m || base[i] != self)
		a[j++] = self;
	while (i < m)
		a[j++] = base[i++];
	*outm = j;
	return a;
}

static void mcast_collect_failed(struct mcast_job *job,
				 struct mcast_send_ctx *ctx)
{
	struct mcast_tx *tx;
	u32 i;

	/* Timed out: whatever is still pending counts as failed. */
	list_for_each_entry(tx, &job->txs, link)
		for (i = 0; i < tx->len; i++)
			mcast_job_add_failed(job, tx->nodes[i]);
	mcast_job_uniq_failed(job);
	ctx->nfailed = job->nfailed;
	if (ctx->failed && job->nfailed)
		memcpy(ctx->failed, job->failed,
		       min(job->nfailed, ctx->nfailed_room) * sizeof(u32));
}

int mcast_data_send(struct mcast_file *f, struct mcast_msg *msg, u32 group,
		    u32 *nodes, u32 nnodes, struct mcast_send_ctx *ctx)
{
	struct mcast_net *mn = f->mn;
	struct mcast_file *skip = ctx->flags & MCAST_SEND_LOOPBACK ? NULL : f;
	bool wait = ctx->flags & MCAST_SEND_WAIT;
	struct mcast_group *g = NULL;
	struct mcast_tstream *ts;
	struct mcast_job *job;
	struct mc_chain c;
	u32 *chain = NULL, m = 0, i, self;
	bool here;
	long left;
	int err;

	mutex_lock(&mn->lock);
	while (!mcast_room(mn, msg->len)) {
		mutex_unlock(&mn->lock);
		if (ctx->nonblock)
			return -EAGAIN;
		err = wait_event_interruptible(mn->send_wq,
					       mcast_room(mn, msg->len));
		if (err)
			return err;
		mutex_lock(&mn->lock);
	}
	if (group != MCAST_NO_GROUP) {
		g = xa_load(&mn->groups, group);
		if (!g) {
			err = -ENOENT;
			goto out;
		}
	} else if (!mn->configured) {
		err = -ENOTCONN;
		goto out;
	}
	self = mn->configured ? mn->node_id : MCAST_NO_NODE;
	msg->group = group;
	msg->src_node = self;
	msg->seq = atomic64_inc_return(&mn->seq);
	msg->step = 0;
	msg->from_node = self;
	ctx->seq = msg->seq;
	atomic64_inc(&mn->stats.tx_msgs);
	atomic64_add(msg->len, &mn->stats.tx_bytes);
	if (g) {
		atomic64_inc(&g->stats.tx_msgs);
		atomic64_add(msg->len, &g->stats.tx_bytes);
	}
	here = false;
	for (i = 0; !g && i < nnodes; i++)
		here |= nodes[i] == self;
	if (g || here)
		mcast_deliver_local(mn, msg, g, !g, skip);
	err = 0;
	if (!mn->configured)
		goto out;

	chain = g ? mcast_chain_with(g->rchain, g->nmembers, self, &m) :
		    mcast_chain_with(nodes, nnodes, self, &m);
	err = -ENOMEM;
	if (!chain)
		goto out;
	err = 0;
	if (m < 2)
		goto out;
	err = mc_chain_rotate(&mn->torus, MC_ORDER_DIM, chain, m, self, &c);
	if (err)
		goto out;
	ts = mcast_tstream(mn, group);
	job = mcast_obj_zalloc(sizeof(*job), MCAST_OBJ_JOB);
	err = -ENOMEM;
	if (!job || !ts)
		goto fail_job;
	ts->used = jiffies;
	job->nodes = kvmalloc_array(m, sizeof(u32), GFP_KERNEL);
	job->prevs = kvmalloc_array(m, sizeof(u64), GFP_KERNEL);
	if (!job->nodes || !job->prevs)
		goto fail_job;
	err = 0;
	for (i = 0; i < m; i++) {
		job->nodes[i] = mc_chain_at(&c, i);
		job->prevs[i] = 0;
		if (i) {
			void *e = xa_load(&ts->last, job->nodes[i]);

			job->prevs[i] = e ? xa_to_value(e) : 0;
			xa_store(&ts->last, job->nodes[i],
				 xa_mk_value(msg->seq), GFP_KERNEL);
		}
	}
	INIT_LIST_HEAD(&job->txs);
	INIT_LIST_HEAD(&job->ack_link);
	init_completion(&job->done);
	job->root = true;
	job->waiting = wait;
	job->separate = ctx->flags & MCAST_SEND_SEPARATE;
	job->state = JOB_FWD;
	job->src = self;
	job->parent = self;
	job->seq = msg->seq;
	job->group = group;
	job->msg_len = msg->len;
	job->count = m;
	job->bytes = msg->len;
	refcount_inc(&msg->ref);
	job->msg = msg;
	list_add_tail(&job->link, &mn->jobs);
	mn->inflight++;
	mn->inflight_bytes += job->bytes;
	mcast_job_spread(mn, job, job->nodes, job->prevs, m);
	mcast_job_check(mn, job);	/* may free it unless waiting */
	if (!wait)
		goto out;

	mutex_unlock(&mn->lock);
	left = wait_for_completion_interruptible_timeout(&job->done,
		msecs_to_jiffies(ctx->timeout_ms ? ctx->timeout_ms :
				 MCAST_WAIT_DEFAULT_MS));
	mutex_lock(&mn->lock);
	mcast_collect_failed(job, ctx);
	if (job->state == JOB_DONE)
		mcast_job_free(mn, job);
	else
		job->waiting = false;	/* it frees itself when done */
	err = left < 0 ? -EINTR : ctx->nfailed ? -EHOSTUNREACH : 0;
	goto out;

fail_job:
	if (job) {
		kvfree(job->nodes);
		kvfree(job->prevs);
		mcast_obj_free(job, MCAST_OBJ_JOB);
	}
out:
	mutex_unlock(&mn->lock);
	kvfree(chain);
	return err;
}

/* ---------------------------------------------------------- lifecycle */

int mcast_data_open(struct mcast_net *mn)
{
	int err;

	lockdep_assert_held(&mn->lock);
	if (mn->dying)
		return -ENODEV;
	if (mn->sock && mn->sock_port == mn->port)
		return 0;
	mn->tp->close(mn);
	err = mn->tp->open(mn, mn->port);
	if (!err)
		mn->sock_port = mn->port;
	return err;
}

void mcast_data_init_net(struct mcast_net *mn)
{
	mn->tp = &mcast_udp_transport;
	mn->port = MCAST_DEFAULT_PORT;
	mn->rto_ms = MCAST_DEFAULT_RTO_MS;
	mn->retries = MCAST_DEFAULT_RETRIES;
	mcast_udp_init_net(mn);
	INIT_DELAYED_WORK(&mn->timer_work, mcast_timer_work);
	INIT_LIST_HEAD(&mn->jobs);
	INIT_LIST_HEAD(&mn->acks);
	/*
	 * Message seqs start from the wall clock (seconds << 20) and transfer
	 * ids at random, so a restarted node (module reload, new netns) is
	 * not taken for a stale duplicate of its previous life by receivers
	 * that still remember it, unless it sent 2^20 messages per second.
	 */
	atomic64_set(&mn->seq, (u64)ktime_get_real_seconds() << 20);
	mn->next_xid = get_random_u32();
	xa_init(&mn->rjobs);
	xa_init_flags(&mn->txs, XA_FLAGS_ALLOC1);
	xa_init(&mn->tx_streams);
	xa_init(&mn->rx_streams);
	xa_init(&mn->rx_floor);
	init_waitqueue_head(&mn->send_wq);
}

/*
 * Stops the node's data path and frees its state; idempotent (module
 * unload runs it for every node before the netlink family goes away, and
 * the netns exit again).
 */
void mcast_data_exit_net(struct mcast_net *mn)
{
	struct mcast_job *job, *jtmp;
	struct mcast_tstream *ts;
	struct mcast_rstream *st;
	struct mcast_held *hd, *htmp;
	struct mcast_tx *tx;
	unsigned long id;

	mutex_lock(&mn->lock);
	mn->dying = true;
	mn->tp->close(mn);
	mutex_unlock(&mn->lock);
	cancel_work_sync(&mn->rx_work);
	cancel_delayed_work_sync(&mn->timer_work);

	mutex_lock(&mn->lock);
	xa_for_each(&mn->txs, id, tx)
		mcast_tx_free(mn, tx);
	list_for_each_entry_safe(job, jtmp, &mn->jobs, link)
		mcast_job_free(mn, job);
	xa_for_each(&mn->tx_streams, id, ts) {
		xa_destroy(&ts->last);
		mcast_obj_free(ts, MCAST_OBJ_STREAM);
	}
	xa_for_each(&mn->rx_streams, id, st) {
		list_for_each_entry_safe(hd, htmp, &st->held, link) {
			mcast_msg_put(hd->msg);
			kfree(hd);
		}
		mcast_obj_free(st, MCAST_OBJ_STREAM);
	}
	xa_destroy(&mn->rjobs);
	xa_destroy(&mn->txs);
	xa_destroy(&mn->tx_streams);
	xa_destroy(&mn->rx_streams);
	xa_destroy(&mn->rx_floor);
	mutex_unlock(&mn->lock);
}
