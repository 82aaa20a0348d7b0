// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Receiving: DATA fragments reassembled into a job with bounded memory
 * (BUSY when full), ACKs batched per receive batch with a selective
 * bitmap, forwarding started as soon as the piece is in, local delivery
 * once the whole message is, and the dispatch of ACK and DONE.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/bitmap.h>
#include <linux/jiffies.h>
#include <linux/mm.h>

#include "chain.h"
#include "data.h"
#include "msg.h"
#include "compat.h"
#include "schedule.h"
#include "trace.h"

/* The algorithm a DATA's receiver forwards with (0, 1: U-torus). */
static u8 mcw_algo(const struct mcw_hdr *h)
{
	return (h->flags & MCW_F_ALGO_MASK) >> MCW_F_ALGO_SHIFT;
}

/*
 * @flags: MCW_F_PROBE if it answers a probe, MCW_F_DUP if @frag was held
 * already; the ACK says so
 */
static void mcast_send_ack(struct mcast_net *mn, struct mcast_job *job,
			   u32 frag, u8 flags)
{
	struct mcw_hdr h;
	__be64 sack_be;
	struct kvec v[2] = { { &h, sizeof(h) }, { &sack_be, sizeof(sack_be) } };
	u64 sack = 0;
	u32 i;

	mcw_init(&h, mn, MCW_ACK, job->src, job->xid, job->seq);
	h.flags |= flags;
	h.count = cpu_to_be32(job->epoch);
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
			    u32 frag, bool probe)
{
	job->ack_frag = frag;
	job->ack_probe |= probe;
	if (list_empty(&job->ack_link))
		list_add_tail(&job->ack_link, &mn->acks);
}

static unsigned int ack_hold_ms = 20;
module_param(ack_hold_ms, uint, 0644);
MODULE_PARM_DESC(ack_hold_ms,
		 "A forwarder's ACK of a one-fragment message waits up to this long (ms, at most a quarter of the node's rto_ms) for its DONE, which answers for it (default 20, 0: never)");

/*
 * A forwarder's ACK of a one-fragment message can wait: its DONE, once
 * its children's are in, acknowledges the fragment too (mcast_rx_done()),
 * and a subtree that finishes within the wait saves the parent a
 * datagram (2 per destination rather than 2.5 on a U-torus tree).  Only
 * a whole one-fragment message (a longer one's last ACK would hold
 * the parent's window), never the answer to a probe (the parent waits
 * for it), and never longer than a quarter of the parent's least RTO.
 */
static unsigned long mcast_ack_hold(struct mcast_net *mn,
				    const struct mcast_job *job)
{
	u32 ms = min(READ_ONCE(ack_hold_ms), mn->rto_ms / 4);

	if (!ms || job->ack_probe || job->state != JOB_FWD ||
	    job->nfrags != 1 || list_empty(&job->txs))
		return 0;
	return max(1UL, msecs_to_jiffies(ms));
}

static void mcast_ack_now(struct mcast_net *mn, struct mcast_job *job)
{
	list_del_init(&job->ack_link);
	mcast_send_ack(mn, job, job->ack_frag,
		       job->ack_probe ? MCW_F_PROBE : 0);
	job->ack_probe = false;
}

void mcast_data_rx_flush(struct mcast_net *mn)
{
	struct mcast_job *job, *tmp;
	unsigned long hold;

	lockdep_assert_held(&mn->lock);
	list_for_each_entry_safe(job, tmp, &mn->acks, ack_link) {
		hold = mcast_ack_hold(mn, job);
		if (!hold) {
			mcast_ack_now(mn, job);
			continue;
		}
		job->ack_due = jiffies + hold;
		list_move_tail(&job->ack_link, &mn->acks_held);
		mcast_arm(mn);
	}
}

/* The held ACKs whose DONE did not come in time (oldest first). */
void mcast_acks_held_due(struct mcast_net *mn)
{
	struct mcast_job *job, *tmp;

	list_for_each_entry_safe(job, tmp, &mn->acks_held, ack_link) {
		if (time_before(jiffies, job->ack_due))
			break;
		mcast_ack_now(mn, job);
	}
}
EXPORT_SYMBOL_GPL(mcast_data_rx_flush);

/*
 * A piece this node cannot forward along (no memory, or not a run of an
 * R-chain headed by this node: a confused or lying parent): deliver and
 * forward nothing, and report every node of it failed, this one too, so
 * the sender hears of each and a repeated id costs one entry, not a tree.
 */
static void mcast_job_reject_piece(struct mcast_net *mn, struct mcast_job *job,
				   const char *why)
{
	u32 i, id;

	kvfree(job->nodes);
	kvfree(job->prevs);
	job->nodes = NULL;
	job->prevs = NULL;
	/* its message is never delivered: nothing of it is kept from now */
	mcast_job_free_ooo(job);
	if (job->msg)
		mcast_msg_put(job->msg);
	job->msg = NULL;
	if (strcmp(why, "out of memory")) {
		atomic64_inc(&mn->stats.rx_malformed);
		net_info_ratelimited("node %u: a piece from node %u: %s\n",
				     mn->node_id, job->parent, why);
	}
	for (i = 0; i < job->count; i++) {
		id = get_unaligned_be32(job->pbuf + i * MCW_ENTRY);
		if (mc_algo_is_path_based(job->algo))
			id &= MCW_E_ID;
		if (id < mn->torus.nodes)
			mcast_job_add_failed(job, id);
	}
}

/*
 * A path-based transfer's table is compound: this node's piece is the one
 * its head entry names, up to the next head.  Sets *@at, job->plen and
 * job->level; NULL, or what is wrong.
 */
static const char *mcast_piece_find(struct mcast_net *mn,
				    struct mcast_job *job, u32 *at)
{
	u32 i, e, lvl;

	*at = U32_MAX;
	for (i = 0; i < job->count; i++) {
		e = get_unaligned_be32(job->pbuf + i * MCW_ENTRY);
		if (!i && !(e & MCW_E_HEAD))
			return "a compound table that starts with no head";
		if (!(e & MCW_E_HEAD)) {
			if (e > MCW_E_ID)
				return "an entry with flags that is no head";
			continue;
		}
		if (*at != U32_MAX && !job->plen)
			job->plen = i - *at;	/* the next piece begins */
		if ((e & MCW_E_ID) != mn->node_id)
			continue;
		if (*at != U32_MAX)
			return "two pieces headed by this node";
		lvl = (e & MCW_E_LEVEL_MASK) >> MCW_E_LEVEL_SHIFT;
		if (lvl > mn->torus.n)
			return "a level above the torus's dimensions";
		*at = i;
		job->level = lvl;
	}
	if (*at == U32_MAX)
		return "no piece headed by this node";
	if (!job->plen)
		job->plen = job->count - *at;
	return NULL;
}

/*
 * A software worm's table: this node's piece first, and the whole table
 * (what this node passes on too) a run of an H-cycle with sane levels (a
 * ring's: nodes of the cube, none twice; the ring is the sender's to make).
 */
static const char *mcast_chain_check(struct mcast_net *mn,
				     struct mcast_job *job, u32 at)
{
	const char *why = NULL;
	u32 *ids, i, e;

	if (at)
		return "a software worm whose first piece is not this node's";
	ids = kvmalloc_array(job->count, sizeof(u32), MCAST_GFP);
	if (!ids)
		return "out of memory";
	for (i = 0; i < job->count && !why; i++) {
		e = get_unaligned_be32(job->pbuf + i * MCW_ENTRY);
		ids[i] = e & MCW_E_ID;
		if ((e & MCW_E_LEVEL_MASK) >> MCW_E_LEVEL_SHIFT > mn->torus.n)
			why = "a level above the torus's dimensions";
	}
	if (!why)
		mc_algo_piece_verify(&mn->torus, job->algo, ids, job->count,
				     &why);
	kvfree(ids);
	return why;
}

/* This node's piece into job->nodes and job->prevs; NULL or what is wrong. */
static const char *mcast_piece_take(struct mcast_net *mn,
				    struct mcast_job *job)
{
	bool path = mc_algo_is_path_based(job->algo);
	const char *why = NULL;
	u32 i, at = 0;

	job->plen = path ? 0 : job->count;
	if (path)
		why = mcast_piece_find(mn, job, &at);
	if (!why && job->chain)
		why = mcast_chain_check(mn, job, at);
	if (why)
		return why;
	job->nodes = kvmalloc_array(job->plen, sizeof(u32), MCAST_GFP);
	job->prevs = kvmalloc_array(job->plen, sizeof(u64), MCAST_GFP);
	if (!job->nodes || !job->prevs)
		return "out of memory";
	for (i = 0; i < job->plen; i++) {
		const u8 *e = job->pbuf + (at + i) * MCW_ENTRY;

		job->nodes[i] = get_unaligned_be32(e);
		job->prevs[i] = get_unaligned_be64(e + 4);
	}
	if (path)
		job->nodes[0] &= MCW_E_ID;
	if (job->nodes[0] != mn->node_id)
		return "not headed by this node";
	mc_algo_piece_verify(&mn->torus, job->algo, job->nodes, job->plen,
			     &why);
	return why;
}

/* Message bytes in @job's fragments below @nf. */
static u32 mcast_rx_data_end(struct mcast_net *mn,
			     const struct mcast_job *job, u32 nf)
{
	u64 c = (u64)job->count * MCW_ENTRY;
	u64 end = min_t(u64, (u64)nf * mcast_frag_size(mn), job->total);

	return end > c ? end - c : 0;
}

#define MCAST_RX_GROW_MIN	(64u << 10)

/*
 * @job's message holds at least @need bytes: grown by doubling up to its
 * length, so that memory follows the bytes that came (one fragment cannot
 * make the node allocate a whole message) and each byte is copied about
 * once more.  0 or -ENOMEM (the old buffer is kept).
 */
static int mcast_rx_grow(struct mcast_job *job, u32 need)
{
	struct mcast_msg *m;
	u32 cap;

	if (job->msg && need <= job->mcap)
		return 0;
	cap = min(max3(need, 2 * job->mcap, MCAST_RX_GROW_MIN), job->msg_len);
	m = mcast_msg_alloc(cap);
	if (!m)
		return -ENOMEM;
	if (job->msg) {
		memcpy(m->data, job->msg->data, job->mcap);
		mcast_msg_put(job->msg);
	}
	job->msg = m;
	job->mcap = cap;
	return 0;
}

/*
 * The data of fragment @frag (@src): into the message when it has room
 * for it or it is the next one (-ENOMEM, so BUSY, when the message cannot
 * grow to it: a full memory cgroup holds the sender back), else kept
 * apart until the message reaches it.  Before the piece has checked out there is no message: a fragment
 * costs its own bytes, within the window (mcast_rx_data()); once the
 * piece is refused, nothing is kept.
 */
static int mcast_rx_keep(struct mcast_net *mn, struct mcast_job *job,
			 u32 frag, const u8 *src)
{
	u32 d0 = mcast_rx_data_end(mn, job, frag);
	u32 d1 = mcast_rx_data_end(mn, job, frag + 1);
	void *chunk;

	if (d1 == d0 || (job->started && !job->msg))
		return 0;
	if (job->msg && (d1 <= job->mcap || frag == job->merged)) {
		/* the next in order waits for room (BUSY), kept nowhere else */
		if (mcast_rx_grow(job, d1))
			return -ENOMEM;
		memcpy(job->msg->data + d0, src, d1 - d0);
		return 0;
	}
	chunk = kvmalloc(d1 - d0, MCAST_GFP);
	if (!chunk)
		return -ENOMEM;
	memcpy(chunk, src, d1 - d0);
	if (xa_insert(&job->ooo, frag, chunk, MCAST_GFP)) {
		kvfree(chunk);
		return -ENOMEM;
	}
	return 0;
}

/*
 * The message takes every fragment below cum (what children may relay and
 * the ACKs say is held); on -ENOMEM the next fragment, or the parent's
 * probe, tries again (mcast_job_held() relays only what is merged).
 */
static void mcast_rx_merge(struct mcast_net *mn, struct mcast_job *job)
{
	u32 d0, d1;
	void *chunk;

	if (!job->msg || job->merged == job->cum ||
	    mcast_rx_grow(job, mcast_rx_data_end(mn, job, job->cum)))
		return;
	for (; job->merged < job->cum; job->merged++) {
		chunk = xa_erase(&job->ooo, job->merged);
		if (!chunk)
			continue;	/* no data, or copied in as it came */
		d0 = mcast_rx_data_end(mn, job, job->merged);
		d1 = mcast_rx_data_end(mn, job, job->merged + 1);
		memcpy(job->msg->data + d0, chunk, d1 - d0);
		kvfree(chunk);
	}
}

/*
 * The piece (the list at the head of the transfer) is here: check it and
 * forward it while the message is still arriving.  Only a piece that
 * checked out gets a message to fill.
 */
static void mcast_job_start(struct mcast_net *mn, struct mcast_job *job)
{
	const char *why;

	job->started = true;
	if (job->rbx) {		/* ranges: taken once all here */
		if (mcast_rx_grow(job, 0))
			mcast_job_free_ooo(job);	/* and none kept */
		return;
	}
	why = mcast_piece_take(mn, job);
	if (!why && mcast_rx_grow(job, 0))
		why = "out of memory";
	if (why) {
		mcast_job_reject_piece(mn, job, why);
		return;
	}
	if (job->chain && job->plen < job->count)
		mcast_chain_pass(mn, job, job->pbuf + job->plen * MCW_ENTRY,
				 job->count - job->plen);
	kvfree(job->pbuf);	/* the fragments holding it are all in */
	job->pbuf = NULL;
	mcast_job_spread(mn, job, job->nodes, job->prevs, job->plen,
			 job->level);
}

/*
 * Virtual clock: the message is whole here when its last fragment's copy
 * is; that fragment's worm latency goes with it.
 */
static void mcast_job_note_vtime(struct mcast_job *job,
				 const struct mcast_rx_meta *meta)
{
	if (!meta || meta->t_copy < job->vtime)
		return;
	job->vtime = meta->t_copy;
	job->vlat = meta->t_copy - min(meta->t_submit, meta->t_copy);
}

/* The whole transfer is here: deliver it locally. */
static void mcast_job_received(struct mcast_net *mn, struct mcast_job *job)
{
	mcast_job_rx_charge(mn, job, false);
	job->state = JOB_FWD;
	kvfree(job->have);
	job->have = NULL;
	if (job->msg)
		job->msg->len = job->msg_len;	/* grown to it by now */
	if (job->rbx) {
		if (job->msg)	/* else no memory for it: the root resends */
			mcast_rb_received(mn, job);
		return;
	}
	if (!job->nodes)
		return;		/* the piece was rejected */
	job->msg->group = job->group;
	job->msg->src_node = job->src;
	job->msg->seq = job->seq;
	job->msg->step = job->step;
	job->msg->from_node = job->parent;
	mcast_job_stamp_msg(job);
	if (mc_algo_is_path_based(job->algo))
		atomic64_inc(&mn->stats.rx_worms);
	mcast_job_fwd_charge(mn, job, true);
	mcast_rx_deliver(mn, job, job->prevs[0]);
}

/* A fragment came in: start forwarding, deliver, feed the children. */
static void mcast_job_advance(struct mcast_net *mn, struct mcast_job *job)
{
	struct mcast_tx *tx;

	if (!job->started &&
	    (u64)job->cum * mcast_frag_size(mn) >= (u64)job->count * MCW_ENTRY)
		mcast_job_start(mn, job);
	mcast_rx_merge(mn, job);
	if (job->nrecv == job->nfrags &&
	    (!job->msg || job->merged == job->nfrags))
		mcast_job_received(mn, job);
	list_for_each_entry(tx, &job->txs, link)
		if (tx->active)
			mcast_tx_pump(mn, tx);
	mcast_job_check(mn, job);
}

/*
 * A DATA datagram, checked before any state is looked up or made: counts
 * within bounds, the fragment inside its transfer and exactly as long as
 * its place there.  Returns the transfer's fragment count, or 0.
 */
static u32 mcast_data_check(struct mcast_net *mn, const struct mcw_hdr *h,
			    size_t blen)
{
	u32 count = be32_to_cpu(h->count), len = be32_to_cpu(h->msg_len);
	u32 frag = be32_to_cpu(h->frag), fs = mcast_frag_size(mn), nfrags;
	u8 algo = mcw_algo(h);
	u64 total, off;

	if (len > MCAST_MAX_MSG || be32_to_cpu(h->src) >= mn->torus.nodes)
		return 0;
	if (!mcast_seq_plausible(be64_to_cpu(h->seq))) {
		net_info_ratelimited("node %u: DATA from node %u with seq %llu, ahead of this node's clock by more than seq_skew_ms (are the clocks set?)\n",
				     mn->node_id, be32_to_cpu(h->from),
				     be64_to_cpu(h->seq));
		return 0;
	}
	if (h->flags & MCW_F_RB) {
		/* a prev per node and the RB entry; no algorithm of a piece */
		if (count != mn->torus.nodes + 1 ||
		    mn->torus.nodes > MCAST_RB_NODES_MAX ||
		    (h->flags & (MCW_F_ALGO_MASK | MCW_F_CHAIN)) || h->pad)
			return 0;
	} else if (!count ||
		   count > min_t(u32, MCAST_MAX_DESTS + 1, mn->torus.nodes)) {
		return 0;
	}
	/* an algorithm this torus runs, and r only where it has one */
	if (algo > MC_ALGO_RING ||
	    ((h->flags & MCW_F_CHAIN) && !mc_algo_is_path_based(algo)) ||
	    (algo == MC_ALGO_MUTORUS ? h->pad < 2 :
	     algo != MC_ALGO_CUBE && h->pad) ||
	    (algo >= MC_ALGO_STORUS && algo != MC_ALGO_BINOMIAL &&
	     mc_algo_supported(&mn->torus, algo, h->pad, NULL)))
		return 0;
	total = (u64)count * MCW_ENTRY + len;
	nfrags = max_t(u32, 1, DIV_ROUND_UP(total, fs));
	off = (u64)frag * fs;
	if (frag >= nfrags || blen != min(total, off + fs) - off)
		return 0;
	return nfrags;
}

/*
 * Room for one more transfer from @p, of a message of @len bytes: every
 * bound on the state a peer can make this node keep (data.h), checked
 * before anything is allocated.  A finished job is forgotten early rather
 * than refuse (a parent that still probes it is answered from where this
 * node is, and rewinds), but only for a transfer that is taken: a refused
 * one (BUSY) must not wear the memory of finished ones away.
 */
static bool mcast_rx_room(struct mcast_net *mn, const struct mcast_peer *p,
			  const struct mcw_hdr *h, u64 total)
{
	u32 len = be32_to_cpu(h->msg_len);

	if (!(mn->rx_mem + total <= MCAST_RX_MEM_MAX &&
	      p->rx_mem + total <= MCAST_RX_MEM_PER_PEER &&
	      p->rx_jobs < MCAST_RX_PER_PEER &&
	      p->jobs < MCAST_JOBS_PER_PEER && mn->njobs < MCAST_JOBS_MAX &&
	      mn->fwd_mem + mn->held_mem + len <= MCAST_MSG_MEM_MAX &&
	      p->fwd_mem + len <= MCAST_MSG_MEM_PER_PEER &&
	      mn->nheld < MCAST_HELD_MAX && p->held < MCAST_HELD_PER_PEER &&
	      mcast_stream_room(mn, p, be32_to_cpu(h->src),
				be32_to_cpu(h->group)) &&
	      (!(h->flags & MCW_F_RB) || mcast_rb_room(mn, p, h))))
		return false;
	if (mn->ndone >= MCAST_DONE_MAX)
		mcast_job_free(mn, list_first_entry(&mn->done_jobs,
						    struct mcast_job, link));
	return true;
}

/*
 * The receiving job for @h's transfer, or ERR_PTR(-ENOBUFS) past a bound
 * and ERR_PTR(-ENOMEM) when the node's memory cgroup (or the machine) is
 * full: both are answered BUSY, so the parent waits (within the transfer's
 * lifetime) instead of counting this node's silence toward its death.
 */
static struct mcast_job *mcast_job_new_rx(struct mcast_net *mn,
					  const struct mcw_hdr *h, u32 from,
					  u32 nfrags)
{
	u32 count = be32_to_cpu(h->count), len = be32_to_cpu(h->msg_len);
	struct mcast_peer *p = xa_load(&mn->peers, from);
	struct mcast_job *job;
	u64 total = (u64)count * MCW_ENTRY + len;

	if (!mcast_rx_room(mn, p, h, total))
		return ERR_PTR(-ENOBUFS);	/* the parent tries again later */
	job = mcast_obj_zalloc(sizeof(*job), MCAST_OBJ_JOB);
	if (!job)
		return ERR_PTR(-ENOMEM);	/* so does a full memcg */
	INIT_LIST_HEAD(&job->txs);
	INIT_LIST_HEAD(&job->ack_link);
	xa_init(&job->ooo);
	job->state = JOB_RX;
	job->src = be32_to_cpu(h->src);
	job->parent = from;
	job->xid = be32_to_cpu(h->xid);
	job->seq = be64_to_cpu(h->seq);
	job->group = be32_to_cpu(h->group);
	job->step = be32_to_cpu(h->step);
	job->algo = max_t(u8, mcw_algo(h), MC_ALGO_UTORUS);
	job->r = h->pad;
	job->chain = h->flags & MCW_F_CHAIN;
	job->rbx = h->flags & MCW_F_RB;
	job->msg_len = len;
	job->count = count;
	job->total = total;
	job->nfrags = nfrags;
	job->have = kvcalloc(BITS_TO_LONGS(job->nfrags), sizeof(long),
			     MCAST_GFP);
	job->pbuf = kvmalloc(count * MCW_ENTRY, MCAST_GFP);
	/* no message yet: it waits for the piece (mcast_job_start()) */
	if (!job->have || !job->pbuf ||
	    xa_insert(&mn->rjobs, mcast_key2(from, job->xid), job,
		      MCAST_GFP)) {
		mcast_job_free_data(job);
		mcast_obj_free(job, MCAST_OBJ_JOB);
		return ERR_PTR(-ENOMEM);
	}
	job->epoch = ++mn->rx_epoch ?: ++mn->rx_epoch;
	job->stamp = jiffies;
	job->born = jiffies;
	list_add_tail(&job->link, &mn->jobs);
	mcast_job_rx_charge(mn, job, true);
	mcast_job_count(mn, job, true);
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

/*
 * A duplicate for a finished job is answered by one ACK and, at most once
 * per tick, its DONE again (the parent's probe for a lost one): a peer
 * that repeats itself gets no more back than it sends.
 */
static bool mcast_done_again(struct mcast_job *job)
{
	if (time_before(jiffies, job->done_again))
		return false;
	job->done_again = jiffies + MCAST_TICK;
	return true;
}

/*
 * Answers DATA @h, not taken, with one small ACK carrying this life's
 * incarnation (as every ACK does), @flags and @count:
 *  - no flags: the DATA names a previous life of this node (it restarted):
 *    what that life had of the transfer is gone, and taking it anew could
 *    deliver a message twice; the parent gives the transfer up;
 *  - MCW_F_YOUNG, @count the node's age in ms: DATA sent again before the
 *    parent heard from the node (MCW_F_AGAIN), of a transfer it does not
 *    know, while it is young: the first copies may have reached a previous
 *    life, which may have delivered the message, and only the parent knows
 *    when the transfer began (mcast_tx_young());
 *  - MCW_F_BUSY: no room for the transfer yet; the parent tries later.
 */
static void mcast_rx_refuse(struct mcast_net *mn, const struct mcw_hdr *h,
			    u32 from, u8 flags, u32 count)
{
	struct mcw_hdr a;
	struct kvec v = { &a, sizeof(a) };

	mcw_init(&a, mn, MCW_ACK, be32_to_cpu(h->src), be32_to_cpu(h->xid),
		 be64_to_cpu(h->seq));
	a.flags |= flags;
	a.count = cpu_to_be32(count);
	mcast_xmit(mn, from, &v, 1, sizeof(a));
}

/*
 * DATA @h, fragment @frag of a transfer this node has no job for, lies
 * past the window any sender's transfer can have reached from a new job
 * (MCAST_WIN from cum 0): no job is made for it (one datagram must not
 * reserve a whole message), and its sender hears where a new job would
 * be: cum 0, in a job newer than any it knew, so a parent whose child
 * lost the transfer rewinds (data_hop.c) and sends what makes the job.
 * The ACK names no fragment (@nfrags) it could take as held.
 */
static void mcast_rx_far(struct mcast_net *mn, const struct mcw_hdr *h,
			 u32 from, u32 nfrags)
{
	struct mcw_hdr a;
	struct kvec v = { &a, sizeof(a) };

	mcw_init(&a, mn, MCW_ACK, be32_to_cpu(h->src), be32_to_cpu(h->xid),
		 be64_to_cpu(h->seq));
	a.flags |= h->flags & MCW_F_PROBE;
	a.count = cpu_to_be32(++mn->rx_epoch ?: ++mn->rx_epoch);
	a.frag = cpu_to_be32(nfrags);
	mcast_xmit(mn, from, &v, 1, sizeof(a));
}

/* A DATA fragment of a transfer of @nfrags, its length checked. */
static void mcast_rx_data(struct mcast_net *mn, const struct mcw_hdr *h,
			  const u8 *body, u32 nfrags, u32 from)
{
	u32 inc = be32_to_cpu(h->cum);
	unsigned long key = mcast_key2(from, be32_to_cpu(h->xid));
	u32 frag = be32_to_cpu(h->frag), fs = mcast_frag_size(mn);
	struct mcast_job *job;
	u32 off, end, c;

	if (inc && inc != mn->incarnation) {
		atomic64_inc(&mn->stats.rx_stale);
		trace_mcast_drop(mn, h, MCAST_DROP_STALE);
		mcast_rx_refuse(mn, h, from, 0, 0);
		return;
	}
	job = xa_load(&mn->rjobs, key);
	if (job && !mcast_job_matches(job, h)) {
		/* The parent restarted and reused the id: that transfer is over. */
		mcast_job_free(mn, job);
		job = NULL;
	}
	if (!job && !inc && (h->flags & MCW_F_AGAIN) && mcast_node_young(mn)) {
		atomic64_inc(&mn->stats.rx_young);
		trace_mcast_drop(mn, h, MCAST_DROP_YOUNG);
		mcast_rx_refuse(mn, h, from, MCW_F_YOUNG,
				jiffies_to_msecs(jiffies - mn->born));
		return;
	}
	if (!job && frag >= MCAST_WIN) {
		mcast_rx_far(mn, h, from, nfrags);
		return;
	}
	if (!job) {
		job = mcast_job_new_rx(mn, h, from, nfrags);
		if (IS_ERR(job)) {	/* no room, or no memory */
			atomic64_inc(&mn->stats.busy_sent);
			trace_mcast_busy(mn, h, from, true);
			mcast_rx_refuse(mn, h, from, MCW_F_BUSY, 0);
			return;
		}
	}
	if (job->state != JOB_RX) {
		atomic64_inc(&mn->stats.dups);
		mcast_send_ack(mn, job, frag,
			       (h->flags & MCW_F_PROBE) | MCW_F_DUP);
		if (job->state == JOB_DONE && mcast_done_again(job))
			mcast_send_done(mn, job);
		return;
	}
	off = frag * fs;
	end = min(job->total, off + fs);
	if (test_bit(frag, job->have)) {
		atomic64_inc(&mn->stats.dups);
		mcast_send_ack(mn, job, frag,
			       (h->flags & MCW_F_PROBE) | MCW_F_DUP);
		if (job->merged < job->cum)	/* out of memory before */
			mcast_job_advance(mn, job);
		return;
	}
	/*
	 * Past the window no sender's transfer reaches (MCAST_WIN from the
	 * cum it was told): not kept, so a fragment costs at most a window
	 * of memory, and answered with where this job is (a sender that
	 * lost it rewinds); the ACK names no fragment it could mark.
	 */
	if (frag - job->cum >= MCAST_WIN) {
		mcast_send_ack(mn, job, job->nfrags, h->flags & MCW_F_PROBE);
		return;
	}
	c = job->count * MCW_ENTRY;
	if (end > c && mcast_rx_keep(mn, job, frag, body + (max(off, c) - off))) {
		atomic64_inc(&mn->stats.busy_sent);	/* no memory: later */
		trace_mcast_busy(mn, h, from, true);
		mcast_rx_refuse(mn, h, from, MCW_F_BUSY, 0);
		return;
	}
	if (off < c)
		memcpy(job->pbuf + off, body, min(end, c) - off);
	set_bit(frag, job->have);
	mcast_job_note_vtime(job, mn->rx_meta);
	job->nrecv++;
	while (job->cum < job->nfrags && test_bit(job->cum, job->have))
		job->cum++;
	job->stamp = jiffies;
	mcast_ack_later(mn, job, frag, h->flags & MCW_F_PROBE);
	mcast_job_advance(mn, job);
}

/*
 * Only a peer's own address speaks for it: anything else (a host that is
 * no peer, or a peer naming another as the sender) could otherwise inject
 * messages, move a stream's floor or complete transfers.
 */
static void mcast_rx_bad_src(struct mcast_net *mn,
			     const struct sockaddr_in6 *sa, u32 from)
{
	atomic64_inc(&mn->stats.rx_bad_src);
	net_info_ratelimited("node %u: dropped a datagram claiming node %u from [%pI6c]:%u\n",
			     mn->node_id, from, &sa->sin6_addr,
			     ntohs(sa->sin6_port));
}

/*
 * The ids a DONE part carries: part @frag of a list of @count, each part
 * as many as fit (the last the rest); U32_MAX for a part no list has.
 */
static u32 mcast_done_ids(struct mcast_net *mn, u32 count, u32 frag)
{
	u32 room = mcast_done_room(mn);
	u64 first = (u64)frag * room;

	if (!count)
		return frag ? U32_MAX : 0;
	if (first >= count)
		return U32_MAX;
	return min_t(u64, count - first, room);
}

/*
 * Every length of a datagram is checked here, once, where it is opened
 * (whatever carried it: a UDP datagram, a segment of a GRO train, a TCP
 * frame read in one piece or several), before any handler reads a byte
 * of its body: the @len bytes left once the trailer is cut must cover the
 * header, and the body be exactly what the header says it holds.  DATA:
 * its fragment of the transfer (mcast_data_check()); ACK: nothing (a
 * refusal) or the bitmap; DONE: its part of the failed list; REPORT: its
 * count of ids; REPORT_ACK: nothing.  ACK and DONE carry their sender's
 * incarnation, never 0.  Returns false for anything else; *@nfrags is a
 * DATA's transfer's fragment count.
 */
static bool mcast_rx_body(struct mcast_net *mn, const struct mcw_hdr *h,
			  size_t len, u32 *nfrags)
{
	u32 count = be32_to_cpu(h->count);
	size_t blen;

	if (len < sizeof(*h))
		return false;
	blen = len - sizeof(*h);
	switch (h->type) {
	case MCW_DATA:
		*nfrags = mcast_data_check(mn, h, blen);
		return *nfrags;
	case MCW_ACK:
		return h->step && (!blen || blen == sizeof(__be64));
	case MCW_DONE:
		count = mcast_done_ids(mn, count, be32_to_cpu(h->frag));
		return h->step && count != U32_MAX &&
		       blen == (size_t)count * 4;
	case MCW_REPORT:
		return count <= mcast_done_room(mn) &&
		       blen == (size_t)count * 4;
	case MCW_REPORT_ACK:
		return !blen;
	}
	return false;
}

void mcast_data_rx_meta(struct mcast_net *mn, const struct sockaddr_in6 *sa,
			const void *buf, size_t len,
			const struct mcast_rx_meta *meta)
{
	mn->rx_meta = meta;
	mcast_data_rx(mn, sa, buf, len);
	mn->rx_meta = NULL;
}
EXPORT_SYMBOL_GPL(mcast_data_rx_meta);

int mcast_data_rx(struct mcast_net *mn, const struct sockaddr_in6 *sa,
		  const void *buf, size_t len)
{
	const struct mcw_hdr *h = buf;
	const u8 *body = (const u8 *)buf + sizeof(*h);
	struct mcast_peer *p;
	u32 from, nfrags = 0;
	u64 ahead_ms = 0;
	s64 malformed;
	size_t blen;
	int err;

	lockdep_assert_held(&mn->lock);
	atomic64_inc(&mn->stats.rx_packets);
	if (!mn->configured || len < sizeof(*h) || h->version != MCW_VERSION)
		return -EPROTO;
	from = be32_to_cpu(h->from);
	p = xa_load(&mn->peers, from);
	if (!p || !mcast_peer_addr_is(p, sa)) {
		trace_mcast_drop(mn, h, MCAST_DROP_BAD_SRC);
		mcast_rx_bad_src(mn, sa, from);
		return -EPERM;
	}
	/* the address first: a tag costs a hash, a lookup does not */
	err = mcast_auth_open(&mn->auth, &p->replay, mn->node_id, buf, &len,
			      h->flags & MCW_F_AUTH, &ahead_ms);
	if (err) {
		atomic64_inc(&mn->stats.rx_bad_auth);
		trace_mcast_drop(mn, h, MCAST_DROP_BAD_AUTH);
		if (err == -ERANGE)
			net_info_ratelimited("node %u: refused a counter %llu ms ahead of its clock from node %u: clocks further apart than clock_skew_ms, or a forgery\n",
					     mn->node_id, ahead_ms, from);
		return -EBADMSG;
	}
	p->down = false;
	p->heard = jiffies;
	p->heard_ever = true;
	if (!mcast_rx_body(mn, h, len, &nfrags)) {
		atomic64_inc(&mn->stats.rx_malformed);
		trace_mcast_drop(mn, h, MCAST_DROP_MALFORMED);
		return -EBADMSG;
	}
	blen = len - sizeof(*h);
	/* a handler that finds the datagram malformed counts it */
	malformed = atomic64_read(&mn->stats.rx_malformed);
	switch (h->type) {
	case MCW_DATA:
		mcast_rx_data(mn, h, body, nfrags, from);
		break;
	case MCW_ACK:
		mcast_rx_ack(mn, h, body, blen, from);
		break;
	case MCW_DONE:
		mcast_rx_done(mn, h, body, blen, from);
		break;
	case MCW_REPORT:
		mcast_rx_report(mn, h, body, blen, from);
		break;
	case MCW_REPORT_ACK:
		mcast_rx_report_ack(mn, h, from);
		break;
	}
	if (atomic64_read(&mn->stats.rx_malformed) == malformed)
		return 0;
	trace_mcast_drop(mn, h, MCAST_DROP_INVALID);
	return -EBADMSG;
}
EXPORT_SYMBOL_GPL(mcast_data_rx);
