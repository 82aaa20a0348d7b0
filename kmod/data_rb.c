// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Recursion-based broadcast (Zhuang and Liberatore; plan/rb.h) in the data
 * path.
 *
 * Nobody plans for another node: each computes its own part of the
 * schedule (mc_rb_node) from the shape, the root, the length, the port
 * model and the order, which every transfer carries.  A transfer is the
 * records of one (step, from, to), their byte ranges back to back, after
 * a table of every node's prev (FIFO per stream, as a piece carries it)
 * and one RB entry: be32 ports | order << 8, be64 the message's length.
 * It travels as any transfer does (windows, ACKs, retransmission, DONE
 * per hop).  Its receiver checks the table and that the transfer is
 * exactly the ranges its schedule expects from (step, from), copies them
 * into the message it assembles for (src, seq), and starts each of its
 * own transfers once it holds every byte of it.  With every byte in it
 * delivers (FIFO, exactly once), and once its transfers have finished it
 * reports to the root (REPORT, sent again until acknowledged).
 *
 * Failure: the schedule is a DAG, not a tree, so no node can take over a
 * dead one's part; the root does.  A member whose transfer failed
 * reports that at once, and the root sends the whole message by U-torus
 * to every node that has not reported it whole (the FIFO layer drops the
 * copy a node may also assemble); a root that has heard nothing for
 * rb_stall_ms since its own transfers finished does the same.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/bitmap.h>
#include <linux/jiffies.h>
#include <linux/mm.h>
#include <linux/moduleparam.h>
#include <linux/slab.h>

#include "data.h"
#include "msg.h"
#include "compat.h"
#include "rb.h"
#include "schedule.h"

static unsigned int rb_stall_ms = 5000;
module_param(rb_stall_ms, uint, 0644);
MODULE_PARM_DESC(rb_stall_ms,
		 "A recursion-based broadcast's root that heard no report for this long sends the rest by U-torus (ms, default 5000)");

/*
 * AUTO's rule (rbcost.c): RB for a broadcast when, in the model T = alpha
 * Ts + beta L Tc, it beats the U-torus tree's log2 N (Ts + L Tc).  Off by
 * default: the model counts each node's link and start-ups, and RB moves
 * more bytes in all (16 L on 4x4, U-torus 15 L) in more transfers, so on a
 * network whose total capacity is the bottleneck (mcastbed's veths under
 * TCG, make bench-rb) U-torus was faster at every size (docs/data-path.md
 * "Recursion-based broadcast").
 */
static bool rb_auto;
module_param(rb_auto, bool, 0644);
MODULE_PARM_DESC(rb_auto,
		 "AUTO takes recursion-based broadcast for a broadcast the model says it speeds up (default off: see docs/data-path.md)");
static unsigned int rb_startup_us = 100;
module_param(rb_startup_us, uint, 0644);
MODULE_PARM_DESC(rb_startup_us,
		 "Start-up cost of one transfer in AUTO's model of recursion-based broadcast (us, 1-4000, default 100)");
static unsigned int rb_byte_ps = 1000;
module_param(rb_byte_ps, uint, 0644);
MODULE_PARM_DESC(rb_byte_ps,
		 "Cost of one byte in AUTO's model of recursion-based broadcast (ps, default 1000)");

#define MCAST_RB_ORDER		MC_RB_ORDER_RANGES	/* fewest ranges */
#define MCAST_RB_REPORT_GAP	max(1UL, msecs_to_jiffies(20))

struct mcast_rb {
	struct list_head link;		/* mn->rbs */
	unsigned long key;		/* in mn->rb_index: (src, seq) */
	struct mcast_job *job;
	struct mc_rb rb;
	u32 len;			/* the message's bytes */
	struct mc_rb_xfer *x;		/* this node's records */
	u64 nx;
	u8 *sent;			/* per record: its transfer started */
	unsigned long *have;		/* positions held */
	u8 *table;			/* every node's prev, the RB entry */
	u32 tlen;
	u64 prev;			/* this node's */
	bool whole;
	bool counted;			/* in mn->nrb and its peer's */
	u32 peer;			/* ... whose range began it */
	unsigned long born;
	/* a member's report */
	bool report_acked;
	unsigned long report_at;
	unsigned long report_gap;
	/* the root's */
	bool waiting;			/* for reports: holds a pending */
	unsigned long *heard;		/* nodes that reported it whole */
	u32 nheard;
	unsigned long quiet;		/* the last sign of progress */
};

static const struct mcast_job_ops mcast_rb_job_ops;
static void mcast_rb_failed(struct mcast_net *mn, struct mcast_job *job);

static unsigned long mcast_rb_key(u32 src, u64 seq)
{
	return mcast_key2(src, (u32)seq);
}

static struct mcast_rb *mcast_rb_find(struct mcast_net *mn, u32 src, u64 seq)
{
	struct mcast_rb *s = xa_load(&mn->rb_index, mcast_rb_key(src, seq));

	return s && s->job->seq == seq && s->job->src == src ? s : NULL;
}

static int mcast_rb_init(struct mc_rb *rb, const struct mc_torus *t,
			 u8 ports, u8 order, const char **why)
{
	/* the schedule is a mesh's and a torus's alike (rb.h) */
	if (t->nodes > MCAST_RB_NODES_MAX) {
		*why = "more nodes than recursion-based broadcast's tables hold";
		return -E2BIG;
	}
	return mc_rb_init(rb, t, true, ports, order, why);
}

static u8 mcast_rb_ports(u8 mode)
{
	return mode == MCAST_ALGORITHM_RB_ALL_PORT ? MC_RB_ALL_PORT :
						    MC_RB_ONE_PORT;
}

bool mcast_rb_shape_ok(const struct mc_torus *t, u8 mode, const char **why)
{
	struct mc_rb *rb = kmalloc(sizeof(*rb), MCAST_GFP);
	bool ok;

	if (!rb) {
		*why = "out of memory";
		return false;
	}
	ok = !mcast_rb_init(rb, t, mcast_rb_ports(mode), MCAST_RB_ORDER, why);
	kfree(rb);
	return ok;
}

u8 mcast_rb_choose(struct mcast_net *mn, u8 a, u32 len)
{
	u8 mode = a == MCAST_ALGORITHM_AUTO ? MCAST_ALGORITHM_RB : a;
	u64 ts = (u64)clamp(READ_ONCE(rb_startup_us), 1U, 4000U) * 1000000;
	const char *why;
	struct mc_rb *rb;
	bool ok;

	rb = kmalloc(sizeof(*rb), MCAST_GFP);
	if (!rb)
		return 0;
	ok = !mcast_rb_init(rb, &mn->torus, mcast_rb_ports(mode),
			    MCAST_RB_ORDER, &why) &&
	     len >= mc_rb_positions(rb);	/* a byte in every unit */
	if (ok && a == MCAST_ALGORITHM_AUTO)
		ok = READ_ONCE(rb_auto) &&
		     mc_rb_pick(rb, len, ts, READ_ONCE(rb_byte_ps));
	kfree(rb);
	return ok ? mode : 0;
}

/* Positions whose bytes lie in [@off, @off + @len), non-empty ones. */
static bool mcast_rb_pos_in(const struct mcast_rb *s, u32 g, u64 off, u64 len)
{
	u64 b0 = mc_rb_byte(&s->rb, g, s->len);
	u64 b1 = mc_rb_byte(&s->rb, g + 1, s->len);

	return b1 > b0 && b0 >= off && b1 <= off + len;
}

static bool mcast_rb_holds(const struct mcast_rb *s, u64 off, u64 len)
{
	u32 g;

	for (g = 0; g < mc_rb_positions(&s->rb); g++)
		if (mcast_rb_pos_in(s, g, off, len) && !test_bit(g, s->have))
			return false;
	return true;
}

static void mcast_rb_mark(struct mcast_rb *s, u64 off, u64 len)
{
	u32 g;

	for (g = 0; g < mc_rb_positions(&s->rb); g++)
		if (mcast_rb_pos_in(s, g, off, len))
			set_bit(g, s->have);
}

/* kvmemdup(), which 6.1 lacks */
static u8 *mcast_rb_dup(const u8 *p, u32 len)
{
	u8 *d = kvmalloc(len, MCAST_GFP);

	if (d)
		memcpy(d, p, len);
	return d;
}

/* Records [@i, *@j) are one transfer: one (step, from, to). */
static u64 mcast_rb_group(const struct mcast_rb *s, u64 i, u64 *j)
{
	const struct mc_rb_xfer *a = &s->x[i];

	for (*j = i + 1; *j < s->nx; (*j)++)
		if (s->x[*j].step != a->step || s->x[*j].from != a->from ||
		    s->x[*j].to != a->to)
			break;
	return *j;
}

/*
 * The records' bytes, back to back: in the message when they are one
 * range there (every transfer of a 2D square; *@own false), else in a new
 * buffer; or NULL.
 */
static u8 *mcast_rb_gather(const struct mcast_rb *s, u64 i, u64 j, u32 *tlen,
			   bool *own)
{
	u64 k, n = 0;
	bool one = true;
	u8 *buf;

	for (k = i; k < j; k++) {
		one &= k == i || s->x[k].off == s->x[k - 1].off + s->x[k - 1].len;
		n += s->x[k].len;
	}
	*tlen = n;
	*own = !one;
	if (one)
		return s->job->msg->data + s->x[i].off;
	buf = kvmalloc(max_t(u64, n, 1), MCAST_GFP);
	if (!buf)
		return NULL;
	for (n = 0, k = i; k < j; n += s->x[k].len, k++)
		memcpy(buf + n, s->job->msg->data + s->x[k].off, s->x[k].len);
	return buf;
}

/* Sends records [@i, @j) to their receiver. */
static void mcast_rb_send(struct mcast_net *mn, struct mcast_rb *s, u64 i,
			  u64 j)
{
	struct mcast_job *job = s->job;
	u32 to = s->x[i].to, tlen = 0;
	bool own;
	struct mcast_peer *p = xa_load(&mn->peers, to);
	u64 zero = 0;
	struct mcast_tx *tx;
	u8 *data, *pbuf;

	memset(s->sent + i, 1, j - i);
	if (!p) {	/* no address: nothing reaches it, say so at once */
		mcast_job_add_failed(job, to);
		atomic64_inc(&mn->stats.unreached);
		mcast_rb_failed(mn, job);
		return;
	}
	tx = mcast_tx_new(mn, job, p, &to, &zero, 1, 0, s->x[i].step, NULL);
	if (!tx) {
		mcast_rb_failed(mn, job);
		return;
	}
	data = mcast_rb_gather(s, i, j, &tlen, &own);
	pbuf = mcast_rb_dup(s->table, s->tlen);
	if (mcast_tx_set_body(mn, tx, pbuf, s->tlen, data, tlen, own)) {
		mcast_tx_free(mn, tx);
		job->pending--;
		mcast_job_add_failed(job, to);
		mcast_rb_failed(mn, job);
		return;
	}
	tx->rb = true;
	mcast_tx_go(mn, tx, true);
}

/*
 * The step this node's sends are at: the lowest with a transfer not
 * started, or started and not yet all acknowledged.  Sending in step
 * order is the schedule: started early, a later step's transfer would
 * share the node's link with the one the others wait for.
 */
static u32 mcast_rb_cur_step(struct mcast_net *mn, const struct mcast_rb *s)
{
	struct mcast_tx *tx;
	u32 cur = U32_MAX;
	u64 i;

	for (i = 0; i < s->nx; i++)
		if (s->x[i].from == mn->node_id && !s->sent[i])
			cur = min(cur, s->x[i].step);
	list_for_each_entry(tx, &s->job->txs, link)
		if (tx->rb && tx->nacked < tx->nfrags)
			cur = min(cur, tx->step);
	return cur;
}

/* Starts this node's transfers of the current step whose bytes it holds. */
static void mcast_rb_launch(struct mcast_net *mn, struct mcast_rb *s)
{
	u32 cur = mcast_rb_cur_step(mn, s);
	u64 i, j, k;
	bool ready;

	for (i = 0; i < s->nx; i = j) {
		mcast_rb_group(s, i, &j);
		if (s->x[i].from != mn->node_id || s->sent[i] ||
		    s->x[i].step != cur)
			continue;
		ready = true;
		for (k = i; k < j && ready; k++)
			ready = mcast_rb_holds(s, s->x[k].off, s->x[k].len);
		if (ready)
			mcast_rb_send(mn, s, i, j);
	}
}

static void mcast_rb_next(struct mcast_net *mn, struct mcast_job *job)
{
	if (job->rb)	/* its step may be over: the next one goes */
		mcast_rb_launch(mn, job->rb);
}

static void mcast_rb_uncount(struct mcast_net *mn, struct mcast_rb *s)
{
	struct mcast_peer *p;

	if (!s->counted)
		return;
	s->counted = false;
	mn->nrb--;
	p = xa_load(&mn->peers, s->peer);
	if (p && p->rb)
		p->rb--;
}

static void mcast_rb_free(struct mcast_net *mn, struct mcast_job *job)
{
	struct mcast_rb *s = job->rb;

	mcast_rb_uncount(mn, s);
	list_del(&s->link);
	xa_erase(&mn->rb_index, s->key);
	kvfree(s->x);
	kvfree(s->sent);
	bitmap_free(s->have);
	bitmap_free(s->heard);
	kvfree(s->table);
	kfree(s);
	job->rb = NULL;
	job->ops = NULL;
}

/*
 * The state of @job's broadcast from @src, @len bytes: this node's
 * records of the schedule.  Indexed; the caller links it.
 */
static struct mcast_rb *mcast_rb_new(struct mcast_net *mn,
				     struct mcast_job *job, u8 ports, u8 order,
				     const char **why)
{
	struct mcast_rb *s = kzalloc(sizeof(*s), MCAST_GFP);
	u8 *ws = NULL;
	int err;

	*why = "out of memory";
	if (!s)
		return NULL;
	s->job = job;
	s->len = job->msg_len;
	s->born = jiffies;
	s->quiet = jiffies;
	s->key = mcast_rb_key(job->src, job->seq);
	INIT_LIST_HEAD(&s->link);
	if (mcast_rb_init(&s->rb, &mn->torus, ports, order, why))
		goto fail;
	*why = "out of memory";
	ws = kvmalloc(mc_rb_node_ws_bytes(&s->rb), MCAST_GFP);
	if (!ws)
		goto fail;
	mc_rb_node(&s->rb, job->src, mn->node_id, s->len, ws, NULL, 0, &s->nx);
	s->x = kvmalloc_array(max_t(u64, s->nx, 1), sizeof(*s->x), MCAST_GFP);
	s->sent = kvzalloc(max_t(u64, s->nx, 1), MCAST_GFP);
	s->have = bitmap_zalloc(mc_rb_positions(&s->rb), MCAST_GFP);
	if (!s->x || !s->sent || !s->have)
		goto fail;
	err = mc_rb_node(&s->rb, job->src, mn->node_id, s->len, ws, s->x,
			 s->nx, &s->nx);
	if (err || xa_insert(&mn->rb_index, s->key, s, MCAST_GFP)) {
		*why = "no room for its broadcast";
		goto fail;
	}
	kvfree(ws);
	return s;
fail:
	kvfree(ws);
	kvfree(s->x);
	kvfree(s->sent);
	bitmap_free(s->have);
	kfree(s);
	return NULL;
}

/* The table every transfer of root @job's broadcast carries. */
static int mcast_rb_table(struct mcast_net *mn, struct mcast_rb *s,
			  struct mcast_job *job, u8 ports)
{
	u32 n = mn->torus.nodes, i;
	u8 *e;

	s->tlen = (n + 1) * MCW_ENTRY;
	s->table = kvzalloc(s->tlen, MCAST_GFP);
	if (!s->table)
		return -ENOMEM;
	for (i = 0; i < n; i++)
		put_unaligned_be32(i, s->table + i * MCW_ENTRY);
	for (i = 1; i < job->plen; i++)
		put_unaligned_be64(job->prevs[i],
				   s->table + job->nodes[i] * MCW_ENTRY + 4);
	e = s->table + n * MCW_ENTRY;
	put_unaligned_be32(ports | MCAST_RB_ORDER << 8, e);
	put_unaligned_be64(s->len, e + 4);
	return 0;
}

int mcast_rb_start(struct mcast_net *mn, struct mcast_job *job, u8 mode)
{
	u8 ports = mcast_rb_ports(mode);
	struct mcast_rb *s;
	const char *why;

	if (job->plen != mn->torus.nodes)
		return -EINVAL;
	s = mcast_rb_new(mn, job, ports, MCAST_RB_ORDER, &why);
	if (!s)
		return -ENOMEM;
	s->heard = bitmap_zalloc(mn->torus.nodes, MCAST_GFP);
	if (!s->heard || mcast_rb_table(mn, s, job, ports)) {
		job->rb = s;
		mcast_rb_free(mn, job);
		return -ENOMEM;
	}
	bitmap_fill(s->have, mc_rb_positions(&s->rb));
	s->whole = true;
	s->waiting = true;
	job->pending += 2;	/* until every node reported, or U-torus;
				 * and while launching: a failure then
				 * falls back, which must not free it
				 */
	job->rb = s;
	job->ops = &mcast_rb_job_ops;
	list_add_tail(&s->link, &mn->rbs);
	atomic64_inc(&mn->stats.rb_sent);
	mcast_rb_launch(mn, s);
	job->pending--;		/* the caller checks it */
	mcast_arm(mn);
	return 0;
}

/*
 * Root: the nodes that have not reported the message whole get it by
 * U-torus over the R-chain (job->nodes, this node first: any run of it is
 * a piece), and the broadcast no longer waits for reports.
 */
static void mcast_rb_fallback(struct mcast_net *mn, struct mcast_job *job)
{
	struct mcast_rb *s = job->rb;
	u32 *nodes, n = 1, i;
	u64 *prevs;

	if (!s->waiting)
		return;
	atomic64_inc(&mn->stats.rb_fallbacks);
	nodes = kvmalloc_array(job->plen, sizeof(u32), MCAST_GFP);
	prevs = kvmalloc_array(job->plen, sizeof(u64), MCAST_GFP);
	if (nodes && prevs) {
		nodes[0] = job->nodes[0];
		prevs[0] = 0;
		for (i = 1; i < job->plen; i++) {
			if (test_bit(job->nodes[i], s->heard))
				continue;
			nodes[n] = job->nodes[i];
			prevs[n++] = job->prevs[i];
		}
		if (n > 1)
			mcast_job_spread(mn, job, nodes, prevs, n, 0);
	} else {
		mcast_rb_unconfirmed(job);
	}
	kvfree(nodes);
	kvfree(prevs);
	s->waiting = false;
	job->pending--;
	mcast_job_check(mn, job);	/* may free it */
}

void mcast_rb_unconfirmed(struct mcast_job *job)
{
	struct mcast_rb *s = job->rb;
	u32 i;

	if (!s || !s->waiting)
		return;
	for (i = 1; i < job->plen; i++)
		if (!test_bit(job->nodes[i], s->heard))
			mcast_job_add_failed(job, job->nodes[i]);
}

static void mcast_rb_send_report(struct mcast_net *mn, struct mcast_job *job)
{
	struct mcast_rb *s = job->rb;
	u32 n = min(job->nfailed, mcast_done_room(mn)), i;
	struct mcw_hdr h;
	struct kvec v[2];
	__be32 *ids;

	ids = kmalloc_array(max(n, 1U), 4, MCAST_GFP);
	if (!ids)
		return;		/* sent again later */
	for (i = 0; i < n; i++)
		ids[i] = cpu_to_be32(job->failed[i]);
	mcw_init(&h, mn, MCW_REPORT, job->src, 0, job->seq);
	h.group = cpu_to_be32(job->group);
	h.count = cpu_to_be32(n);
	if (s->whole)
		h.flags |= MCW_F_RB;
	v[0] = (struct kvec){ &h, sizeof(h) };
	v[1] = (struct kvec){ ids, n * 4 };
	mcast_xmit(mn, job->src, v, 2, sizeof(h) + n * 4);
	kfree(ids);
}

static void mcast_rb_report(struct mcast_net *mn, struct mcast_job *job)
{
	struct mcast_rb *s = job->rb;

	mcast_rb_uncount(mn, s);
	s->report_gap = MCAST_RB_REPORT_GAP;
	s->report_at = jiffies + s->report_gap;
	mcast_rb_send_report(mn, job);
	mcast_arm(mn);
}

static void mcast_rb_failed(struct mcast_net *mn, struct mcast_job *job)
{
	if (!job->rb)
		return;
	if (job->root)
		mcast_rb_fallback(mn, job);
	else
		mcast_rb_send_report(mn, job);	/* not whole: at once */
}

/* Every byte is here: deliver, in order, exactly once. */
static void mcast_rb_whole(struct mcast_net *mn, struct mcast_rb *s)
{
	struct mcast_job *job = s->job;
	struct mcast_msg *msg = job->msg;
	u64 i;

	s->whole = true;
	msg->group = job->group;
	msg->src_node = job->src;
	msg->seq = job->seq;
	msg->step = 0;		/* the step of its last range, from 1 */
	for (i = 0; i < s->nx; i++)
		if (s->x[i].to == mn->node_id)
			msg->step = max(msg->step, s->x[i].step + 1);
	msg->from_node = job->src;
	mcast_job_stamp_msg(job);
	atomic64_inc(&mn->stats.rb_assembled);
	mcast_rx_deliver(mn, job, s->prev);
	job->pending--;
}

static void mcast_rb_advance(struct mcast_net *mn, struct mcast_rb *s)
{
	struct mcast_job *job = s->job;

	mcast_rb_launch(mn, s);
	if (!s->whole && mcast_rb_holds(s, 0, s->len))
		mcast_rb_whole(mn, s);
	mcast_job_check(mn, job);
}

static const char *mcast_rb_match(struct mcast_net *mn,
				  const struct mcast_rb *s,
				  const struct mcast_job *t, u64 *first, u64 *last);

/*
 * A new assembly for the broadcast @t's transfer belongs to, charged to
 * the peer that sent @t (its bounds are that peer's, whatever src the
 * transfer names), and its message allocated only once @t has been found
 * to be ranges the schedule sends here.
 */
static struct mcast_rb *mcast_rb_assembly(struct mcast_net *mn,
					  struct mcast_job *t, u8 ports,
					  u8 order, u32 len, const char **why)
{
	struct mcast_peer *p = xa_load(&mn->peers, t->parent);
	struct mcast_job *job;
	struct mcast_rb *s;
	u64 i, j;

	*why = "no room for its broadcast";
	if (!p || mn->nrb >= MCAST_RB_MAX || p->rb >= MCAST_RB_PER_PEER ||
	    mn->fwd_mem + mn->held_mem + len > MCAST_MSG_MEM_MAX ||
	    p->fwd_mem + len > MCAST_MSG_MEM_PER_PEER)
		return NULL;
	job = mcast_obj_zalloc(sizeof(*job), MCAST_OBJ_JOB);
	if (!job)
		return NULL;
	INIT_LIST_HEAD(&job->txs);
	INIT_LIST_HEAD(&job->ack_link);
	job->state = JOB_FWD;
	job->src = t->src;
	job->parent = t->parent;	/* charged to it (mcast_job_count()) */
	job->seq = t->seq;
	job->group = t->group;
	job->algo = MC_ALGO_UTORUS;
	job->msg_len = len;
	job->stamp = jiffies;
	job->pending = 1;	/* until the message is whole */
	s = mcast_rb_new(mn, job, ports, order, why);
	if (s) {
		*why = mcast_rb_match(mn, s, t, &i, &j);
		if (*why) {	/* nothing allocated for a bad one */
			job->rb = s;
			mcast_rb_free(mn, job);
			mcast_obj_free(job, MCAST_OBJ_JOB);
			return NULL;
		}
		*why = "out of memory";
		job->msg = mcast_msg_alloc(len);
		s->table = mcast_rb_dup(t->pbuf, t->count * MCW_ENTRY);
	}
	if (!s || !s->table || !job->msg) {
		if (s) {
			job->rb = s;
			mcast_rb_free(mn, job);
		}
		mcast_job_free_data(job);
		mcast_obj_free(job, MCAST_OBJ_JOB);
		return NULL;
	}
	if (len < mc_rb_positions(&s->rb)) {	/* no sender makes it */
		*why = "a message shorter than its units";
		job->rb = s;
		mcast_rb_free(mn, job);
		mcast_job_free_data(job);
		mcast_obj_free(job, MCAST_OBJ_JOB);
		return NULL;
	}
	s->tlen = t->count * MCW_ENTRY;
	s->prev = get_unaligned_be64(s->table + mn->node_id * MCW_ENTRY + 4);
	s->counted = true;
	s->peer = p->id;
	mn->nrb++;
	p->rb++;
	job->rb = s;
	job->ops = &mcast_rb_job_ops;
	list_add_tail(&s->link, &mn->rbs);
	list_add_tail(&job->link, &mn->jobs);
	mcast_job_count(mn, job, true);
	mcast_job_fwd_charge(mn, job, true);
	mcast_arm(mn);
	return s;
}

/* @t is exactly the ranges the schedule sends here: records [*@i, *@j). */
static const char *mcast_rb_match(struct mcast_net *mn,
				  const struct mcast_rb *s,
				  const struct mcast_job *t, u64 *first, u64 *last)
{
	u64 i, j, k, n = 0;

	for (i = 0; i < s->nx; i = j) {
		mcast_rb_group(s, i, &j);
		if (s->x[i].step == t->step && s->x[i].from == t->parent &&
		    s->x[i].to == mn->node_id)
			break;
	}
	if (i == s->nx)
		return "a transfer the schedule does not send";
	for (k = i; k < j; k++)
		n += s->x[k].len;
	if (n != t->msg_len)
		return "a transfer that is not its step's ranges";
	*first = i;
	*last = j;
	return NULL;
}

/* @t's bytes into the message: exactly the ranges the schedule sends. */
static const char *mcast_rb_fill(struct mcast_net *mn, struct mcast_rb *s,
				 struct mcast_job *t)
{
	const char *why;
	u64 i, j, k, n;

	why = mcast_rb_match(mn, s, t, &i, &j);
	if (why)
		return why;
	if (s->whole)
		return NULL;	/* a copy, the message got here already */
	for (n = 0, k = i; k < j; n += s->x[k].len, k++) {
		memcpy(s->job->msg->data + s->x[k].off, t->msg->data + n,
		       s->x[k].len);
		mcast_rb_mark(s, s->x[k].off, s->x[k].len);
	}
	if (t->vtime >= s->job->vtime) {	/* the latest range's worm */
		s->job->vtime = t->vtime;
		s->job->vlat = t->vlat;
	}
	mcast_rb_advance(mn, s);
	return NULL;
}

/* @t's table: a prev per node in node order, then the RB entry. */
static const char *mcast_rb_check_table(struct mcast_net *mn,
					const struct mcast_job *t, u8 *ports,
					u8 *order, u32 *len)
{
	u32 n = mn->torus.nodes, i, po;
	u64 l;
	const u8 *e;

	if (t->count != n + 1)
		return "a table of the wrong length";
	for (i = 0; i < n; i++)
		if (get_unaligned_be32(t->pbuf + i * MCW_ENTRY) != i)
			return "a table out of node order";
	e = t->pbuf + n * MCW_ENTRY;
	po = get_unaligned_be32(e);
	l = get_unaligned_be64(e + 4);
	*ports = po & 0xff;
	*order = (po >> 8) & 0xff;
	if (*ports > MC_RB_ALL_PORT || *order > MC_RB_ORDER_PAPER || po >> 16)
		return "an unknown port model or order";
	if (l > MCAST_MAX_MSG)
		return "a message longer than any send";
	*len = l;
	return NULL;
}

static const char *mcast_rb_take(struct mcast_net *mn, struct mcast_job *t)
{
	const char *why;
	struct mcast_rb *s;
	u8 ports, order;
	u32 len;

	why = mcast_rb_check_table(mn, t, &ports, &order, &len);
	if (why)
		return why;
	s = mcast_rb_find(mn, t->src, t->seq);
	if (!s && t->src == mn->node_id)
		return NULL;	/* this node's own, no longer waited for */
	if (!s) {
		s = mcast_rb_assembly(mn, t, ports, order, len, &why);
		if (!s)
			return why;
		why = mcast_rb_fill(mn, s, t);
		if (why)	/* keep nothing a bad transfer made */
			mcast_job_free(mn, s->job);
		return why;
	}
	if (s->len != len || s->rb.ports != ports || s->rb.order != order ||
	    s->job->group != t->group)
		return "a transfer that does not match its broadcast";
	if (s->job->root || s->job->state == JOB_DONE)
		return NULL;	/* held whole already */
	return mcast_rb_fill(mn, s, t);
}

void mcast_rb_received(struct mcast_net *mn, struct mcast_job *job)
{
	const char *why = mcast_rb_take(mn, job);

	if (!why)
		return;
	if (strcmp(why, "out of memory") &&
	    strcmp(why, "no room for its broadcast"))
		atomic64_inc(&mn->stats.rx_malformed);
	net_info_ratelimited("node %u: a broadcast's ranges from node %u: %s\n",
			     mn->node_id, job->parent, why);
}

bool mcast_rb_room(struct mcast_net *mn, const struct mcast_peer *p,
		   const struct mcw_hdr *h)
{
	u32 src = be32_to_cpu(h->src);

	if (src == mn->node_id || mcast_rb_find(mn, src, be64_to_cpu(h->seq)))
		return true;
	/* room for the longest message: its length is in the table */
	return mn->nrb < MCAST_RB_MAX && p->rb < MCAST_RB_PER_PEER &&
	       mn->fwd_mem + mn->held_mem + MCAST_MAX_MSG <= MCAST_MSG_MEM_MAX &&
	       p->fwd_mem + MCAST_MAX_MSG <= MCAST_MSG_MEM_PER_PEER;
}

/* Root: a member's report (REPORT); acknowledged whatever it says. */
void mcast_rx_report(struct mcast_net *mn, const struct mcw_hdr *h,
		     const void *body, size_t blen, u32 from)
{
	u32 count = be32_to_cpu(h->count), i, id;
	struct mcw_hdr a;
	struct kvec v = { &a, sizeof(a) };
	struct mcast_job *job;
	struct mcast_rb *s;
	bool failed = false;

	/* its length is checked (mcast_rx_body()): @count ids */
	if (be32_to_cpu(h->src) != mn->node_id) {
		atomic64_inc(&mn->stats.rx_malformed);
		return;
	}
	for (i = 0; i < count; i++) {
		id = get_unaligned_be32(body + i * 4);
		if (id >= mn->torus.nodes) {
			atomic64_inc(&mn->stats.rx_malformed);
			return;
		}
		failed = true;
	}
	mcw_init(&a, mn, MCW_REPORT_ACK, mn->node_id, 0, be64_to_cpu(h->seq));
	mcast_xmit(mn, from, &v, 1, sizeof(a));
	s = mcast_rb_find(mn, mn->node_id, be64_to_cpu(h->seq));
	if (!s || !s->waiting || from >= mn->torus.nodes)
		return;
	job = s->job;
	s->quiet = jiffies;
	if ((h->flags & MCW_F_RB) && !test_and_set_bit(from, s->heard))
		s->nheard++;
	if (failed || s->nheard + 1 >= job->plen) {
		if (!failed) {
			s->waiting = false;
			job->pending--;
			mcast_job_check(mn, job);	/* may free it */
			return;
		}
		mcast_rb_fallback(mn, job);
	}
}

/* Member: the root has its report. */
void mcast_rx_report_ack(struct mcast_net *mn, const struct mcw_hdr *h,
			 u32 from)
{
	struct mcast_rb *s = mcast_rb_find(mn, from, be64_to_cpu(h->seq));

	if (s && be32_to_cpu(h->src) == from && !s->job->root)
		s->report_acked = true;
}

static void mcast_rb_tick_one(struct mcast_net *mn, struct mcast_rb *s)
{
	struct mcast_job *job = s->job;
	unsigned long stall = msecs_to_jiffies(READ_ONCE(rb_stall_ms));

	if (job->state != JOB_DONE)
		mcast_rb_launch(mn, s);	/* a missed step's end, at worst */
	if (job->root) {
		if (!s->waiting)
			return;
		if (!list_empty(&job->txs))
			s->quiet = jiffies;	/* its own still go */
		else if (time_after(jiffies, s->quiet + stall))
			mcast_rb_fallback(mn, job);
	} else if (job->state == JOB_DONE) {
		if (s->report_acked || time_before(jiffies, s->report_at))
			return;
		s->report_gap = min_t(unsigned long, 2 * s->report_gap, HZ);
		s->report_at = jiffies + s->report_gap;
		mcast_rb_send_report(mn, job);
	} else if (time_after(jiffies, s->born + mcast_tx_lifetime())) {
		atomic64_inc(&mn->stats.tx_expired);
		mcast_job_free(mn, job);	/* the root sends the rest */
	}
}

void mcast_rb_tick(struct mcast_net *mn)
{
	struct mcast_rb *s, *tmp;

	list_for_each_entry_safe(s, tmp, &mn->rbs, link)
		mcast_rb_tick_one(mn, s);
}

bool mcast_rb_busy(struct mcast_net *mn)
{
	struct mcast_rb *s;

	list_for_each_entry(s, &mn->rbs, link)
		if (s->job->root ? s->waiting :
		    s->job->state != JOB_DONE || !s->report_acked)
			return true;
	return false;
}

static const struct mcast_job_ops mcast_rb_job_ops = {
	.done = mcast_rb_report,
	.tx_failed = mcast_rb_failed,
	.tx_ended = mcast_rb_next,
	.release = mcast_rb_free,
};

u32 mcast_rb_count(struct mcast_net *mn, u32 id)
{
	struct mcast_rb *s;
	u32 n = 0;

	list_for_each_entry(s, &mn->rbs, link)
		n += s->counted && s->peer == id;
	return n;
}
