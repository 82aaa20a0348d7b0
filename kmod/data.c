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

#include <linux/jiffies.h>
#include <linux/mm.h>
#include <linux/random.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/timekeeping.h>
#include <linux/workqueue.h>

#include "data.h"

struct workqueue_struct *mcast_wq;

/* Allocations of the data path's objects, counted in mcast_live[]. */
void *mcast_obj_zalloc(size_t size, enum mcast_obj kind)
{
	void *p = kzalloc(size, GFP_KERNEL);

	if (p)
		atomic_long_inc(&mcast_live[kind]);
	return p;
}

void mcast_obj_free(void *p, enum mcast_obj kind)
{
	if (!p)
		return;
	atomic_long_dec(&mcast_live[kind]);
	kfree(p);
}

/*
 * The node's timer work ticks every MCAST_TICK while transfers or held
 * messages exist, and every MCAST_IDLE_TICK while only finished jobs wait
 * to be forgotten.
 */
void mcast_arm(struct mcast_net *mn)
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

int mcast_xmit(struct mcast_net *mn, u32 to, struct kvec *v,
	       size_t nv, size_t len)
{
	struct mcast_peer *p = xa_load(&mn->peers, to);
	int err;

	if (!p || !mn->tp_priv)
		return -ENOENT;
	err = mn->tp->xmit(mn, p, v, nv, len);
	if (!err)
		atomic64_inc(&mn->stats.tx_packets);
	return err;
}

void mcw_init(struct mcw_hdr *h, struct mcast_net *mn, u8 type,
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

int mcast_job_add_failed(struct mcast_job *job, u32 node)
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

void mcast_job_free_data(struct mcast_job *job)
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

void mcast_peer_rx_jobs(struct mcast_net *mn, u32 id, int d)
{
	struct mcast_peer *p = xa_load(&mn->peers, id);

	if (p && (d > 0 || p->rx_jobs))
		p->rx_jobs += d;
}

void mcast_job_free(struct mcast_net *mn, struct mcast_job *job)
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
void mcast_job_uniq_failed(struct mcast_job *job)
{
	u32 i, n = 0;

	sort(job->failed, job->nfailed, sizeof(u32), mcast_cmp_u32, NULL);
	for (i = 0; i < job->nfailed; i++)
		if (!n || job->failed[n - 1] != job->failed[i])
			job->failed[n++] = job->failed[i];
	job->nfailed = n;
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

void mcast_send_done(struct mcast_net *mn, struct mcast_job *job)
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
		/*
		 * DONE tells the parent every fragment arrived: an ACK still
		 * due from this receive batch (a leaf's) would only repeat it.
		 */
		list_del_init(&job->ack_link);
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

void mcast_job_check(struct mcast_net *mn, struct mcast_job *job)
{
	if (job->state == JOB_FWD && !job->pending)
		mcast_job_complete(mn, job);
}

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

/* No transfer is being sent or received (finished jobs may linger). */
bool mcast_data_idle(struct mcast_net *mn)
{
	struct mcast_job *job;

	lockdep_assert_held(&mn->lock);
	if (!xa_empty(&mn->txs))
		return false;
	list_for_each_entry(job, &mn->jobs, link)
		if (job->state != JOB_DONE)
			return false;
	return true;
}

int mcast_data_open(struct mcast_net *mn)
{
	int err;

	lockdep_assert_held(&mn->lock);
	if (mn->dying)
		return -ENODEV;
	if (mn->tp_priv && mn->tp_port == mn->port)
		return 0;
	mn->tp->close(mn);
	err = mn->tp->open(mn, mn->port);
	if (!err)
		mn->tp_port = mn->port;
	return err;
}

void mcast_data_init_net(struct mcast_net *mn)
{
	mcast_transport_init_net(mn);
	mn->port = MCAST_DEFAULT_PORT;
	mn->rto_ms = MCAST_DEFAULT_RTO_MS;
	mn->retries = MCAST_DEFAULT_RETRIES;
	mn->cwnd = MCAST_CWND_INIT;
	mn->ssthresh = MCAST_CWND_MAX;
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

	mcast_transport_exit_net(mn);
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
