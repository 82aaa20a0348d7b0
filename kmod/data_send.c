// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Sending a message: room in the node's window, the algorithm, the
 * sender's R-chain or H-cycle (the group's, or the node list's, with the
 * sender merged in), the root job spread as U-torus, separate addressing
 * or worms, and completion mode.
 */
#include <linux/mm.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include <linux/wait.h>

#include "data.h"
#include "msg.h"
#include "chain.h"
#include "schedule.h"
#include "cube.h"
#include "ring.h"
#include "trace.h"

static struct mcast_tstream *mcast_tstream(struct mcast_net *mn, u32 group)
{
	struct mcast_tstream *ts = xa_load(&mn->tx_streams, group);

	if (ts) {
		list_move_tail(&ts->lru, &mn->tx_lru);	/* recently used */
		return ts;
	}
	ts = mcast_obj_zalloc(sizeof(*ts), MCAST_OBJ_STREAM);
	if (!ts)
		return NULL;
	xa_init(&ts->last);
	ts->used = jiffies;
	ts->group = group;
	if (xa_err(xa_store(&mn->tx_streams, group, ts, MCAST_GFP))) {
		mcast_obj_free(ts, MCAST_OBJ_STREAM);
		return NULL;
	}
	list_add_tail(&ts->lru, &mn->tx_lru);
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

/*
 * poll()'s EPOLLOUT: a send of any size would be taken without waiting,
 * as far as the node can tell: not while the last non-blocking send was
 * refused for a full lossless local file, until room is made there or a
 * second passes (then the sender tries again, and its send cuts off a
 * file stalled for rx_stall_ms), as a blocking sender waits.  Without
 * that, an epoll loop would spin on EAGAIN.
 */
bool mcast_data_writable(struct mcast_net *mn)
{
	if (READ_ONCE(mn->local_full) &&
	    READ_ONCE(mn->room_gen) == READ_ONCE(mn->blocked_gen))
		return false;
	return mcast_room(mn, MCAST_MAX_MSG);
}

/* Sorted @base[0..m-1] with @self added if absent, into a new array. */
static u32 *mcast_chain_with(const u32 *base, u32 m, u32 self, u32 *outm)
{
	u32 *a = kvmalloc_array(m + 1, sizeof(u32), MCAST_GFP);
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

/*
 * A switched cluster's R-chain is sorted by rank, not id: @self is looked
 * for in all of it, and mcast_send_order sorts what this returns.
 */
static u32 *mcast_chain_with_any(const u32 *base, u32 m, u32 self, u32 *outm)
{
	u32 *a = kvmalloc_array(m + 1, sizeof(u32), MCAST_GFP);
	u32 i;
	bool here = false;

	if (!a)
		return NULL;
	for (i = 0; i < m; i++) {
		a[i] = base[i];
		here |= base[i] == self;
	}
	if (!here)
		a[m] = self;
	*outm = m + !here;
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
	mcast_rb_unconfirmed(job);
	mcast_job_uniq_failed(job);
	ctx->nfailed = job->nfailed;
	if (ctx->failed && job->nfailed)
		memcpy(ctx->failed, job->failed,
		       min(job->nfailed, ctx->nfailed_room) * sizeof(u32));
}

/*
 * The algorithm of a send (and r for mu-torus): the send's flags, then the
 * node's setting, then the rule for AUTO (uapi: enum mcast_algorithm).
 *
 * With IR the rule is Robinson (1994), Sec. 6.6, as mcastsim measured it on
 * the fabric's model (docs/fabric.md): S-torus wins for few destinations
 * and for long messages, where its one start-up and its one pipelined path
 * pay; Mu-torus(8) wins the rest.  Without IR, worms run in software as
 * chains, whose time grows with m + M/s where a tree's grows with
 * log2(m) * M: bench-peers measured Mu-torus(4) chains ahead of U-torus
 * from MCAST_AUTO_CHAIN_BYTES on (docs/data-path.md), so auto takes them
 * for long messages to a few destinations or more.
 */
#define MCAST_AUTO_STORUS_DESTS	16
#define MCAST_AUTO_STORUS_BYTES	(64u << 10)
#define MCAST_AUTO_CHAIN_DESTS	4
#define MCAST_AUTO_CHAIN_BYTES	(512u << 10)
#define MCAST_AUTO_CHAIN_R	4

/* AUTO's choice: a path-based algorithm into *@a, *@r, or false: U-torus. */
static bool mcast_auto_algo(bool ir, u32 ndest, u32 len, u8 *a, u32 *r)
{
	if (ir) {
		*a = ndest <= MCAST_AUTO_STORUS_DESTS ||
		     len >= MCAST_AUTO_STORUS_BYTES ? MCAST_ALGORITHM_STORUS :
						      MCAST_ALGORITHM_MUTORUS;
		return true;
	}
	if (ndest < MCAST_AUTO_CHAIN_DESTS || len < MCAST_AUTO_CHAIN_BYTES)
		return false;
	*a = MCAST_ALGORITHM_MUTORUS;
	*r = MCAST_AUTO_CHAIN_R;
	return true;
}

/*
 * -EOPNOTSUPP: offload (IR) required and impossible, or the send's own
 * path-based algorithm on a torus that cannot run it.  A path-based
 * setting without IR runs in software (chains), counted as a fallback;
 * one the torus cannot run (node set refuses it, but a topology can
 * change) goes as U-torus, counted too.
 */
static int mcast_pick_algo(struct mcast_net *mn,
			   const struct mcast_send_ctx *ctx, u32 ndest,
			   bool all, u32 len, struct mcast_job *job)
{
	const struct mcast_transport_ops *tp = mn->tp;
	bool ir = tp && (tp->caps & MCAST_TP_CAP_IR) && tp->xmit_worm;
	u32 flags = ctx->flags, r = mn->algo_r;
	bool need = flags & MCAST_SEND_OFFLOAD, chosen = true;
	u8 a = mn->algo;

	job->algo = MC_ALGO_UTORUS;
	job->r = 0;
	if (flags & MCAST_SEND_ALGORITHM) {	/* checked by the ioctl */
		a = ctx->algorithm & 0xff;
		r = ctx->algorithm >> 8 ?: r;
	}
	if (need && !ir)
		return -EOPNOTSUPP;
	if (a == MCAST_ALGORITHM_BINOMIAL && !(flags & MCAST_SEND_SEPARATE)) {
		job->algo = MC_ALGO_BINOMIAL;	/* a tree: nothing to offload */
		return need ? -EOPNOTSUPP : 0;
	}
	if (mcast_algo_is_cube(a) && !(flags & MCAST_SEND_SEPARATE)) {
		/* trees too; node set keeps the node's on a hypercube */
		if (need || mc_algo_supported(&mn->torus, MC_ALGO_CUBE,
					      mcast_cube_algo(a), NULL))
			return need || (flags & MCAST_SEND_ALGORITHM) ?
			       -EOPNOTSUPP : 0;
		job->algo = MC_ALGO_CUBE;
		job->r = mcast_cube_algo(a);
		return 0;
	}
	if (a == MCAST_ALGORITHM_RING &&
	    !(flags & (MCAST_SEND_SEPARATE | MCAST_SEND_NO_OFFLOAD))) {
		/* a software worm along E-cube paths: no IR hardware's */
		if (need || mc_algo_supported(&mn->torus, MC_ALGO_RING, 0, NULL))
			return need || (flags & MCAST_SEND_ALGORITHM) ?
			       -EOPNOTSUPP : 0;
		job->algo = MC_ALGO_RING;
		return 0;
	}
	if (a == MCAST_ALGORITHM_RB || a == MCAST_ALGORITHM_RB_ALL_PORT) {
		/* broadcasts; the node's setting leaves the rest to U-torus */
		if (!need && all && !(flags & MCAST_SEND_SEPARATE))
			job->rbmode = mcast_rb_choose(mn, a, len);
		return need || ((flags & MCAST_SEND_ALGORITHM) &&
				(!all || !mcast_rb_choose(mn, a, U32_MAX))) ?
		       -EOPNOTSUPP : 0;
	}
	if (a == MCAST_ALGORITHM_AUTO && all && !need &&
	    !(flags & MCAST_SEND_SEPARATE)) {
		job->rbmode = mcast_rb_choose(mn, a, len);
		if (job->rbmode)
			return 0;
	}
	if (flags & (MCAST_SEND_NO_OFFLOAD | MCAST_SEND_SEPARATE) ||
	    (a == MCAST_ALGORITHM_UTORUS && !need))
		return 0;
	if (a == MCAST_ALGORITHM_AUTO || a == MCAST_ALGORITHM_UTORUS) {
		chosen = false;
		if (!mcast_auto_algo(ir, ndest, len, &a, &r))
			return 0;
	}
	/* the uapi's path-based values are enum mc_algo's */
	if (!mc_algo_supported(&mn->torus, a, r, NULL)) {
		if (!ir && chosen)	/* wanted worms: in software */
			atomic64_inc(&mn->stats.offload_fallbacks);
		job->algo = a;
		job->r = a == MCAST_ALGORITHM_MUTORUS ? r : 0;
		job->level = a == MCAST_ALGORITHM_MDTORUS ? mn->torus.n : 0;
		return 0;
	}
	if (need || (flags & MCAST_SEND_ALGORITHM))
		return -EOPNOTSUPP;
	if (chosen)
		atomic64_inc(&mn->stats.offload_fallbacks);
	return 0;
}

/*
 * The hypercube's chain (cube.h): this node first, the rest sorted by
 * their address XOR this node's, weighted for W-sort.
 */
static int mcast_cube_order(struct mcast_net *mn, u8 cube_algo, u32 *chain,
			    u32 m, u32 self, struct mc_chain *c)
{
	u32 i;

	for (i = 0; i < m && chain[i] != self; i++)
		;
	if (i == m)
		return -EINVAL;
	chain[i] = chain[0];
	chain[0] = self;
	c->node = chain;
	c->len = m;
	c->rot = 0;
	return mc_cube_chain_order(mn->torus.n, cube_algo, chain, m, NULL);
}

/*
 * The members' contention-free ring (ring.h; the same for every sender,
 * as it depends on the set alone) into @chain, rotated to this node.
 */
static int mcast_ring_order(struct mcast_net *mn, u32 *chain, u32 m,
			    u32 self, struct mc_chain *c)
{
	u32 *addr = kvmalloc_array(m, sizeof(u32), MCAST_GFP);
	u32 *succ = kvmalloc_array(m, sizeof(u32), MCAST_GFP);
	struct mc_ring r = { .addr = addr, .succ = succ };
	int err = -ENOMEM;

	if (addr && succ)
		err = mc_ring_build(&r, mn->torus.n, chain, m, NULL);
	if (!err)
		err = mc_ring_order(&r, chain);
	kvfree(addr);
	kvfree(succ);
	if (err)
		return err;
	c->node = chain;
	c->len = m;
	c->rot = 0;
	while (c->rot < m && chain[c->rot] != self)
		c->rot++;
	return c->rot < m ? 0 : -EINVAL;
}

/*
 * The order a send plans over, rotated to this node into @c: the R-chain
 * (@chain sorted by id is <_d; by rank on a switched cluster, the
 * order of Libeskind-Hadas et al. (1998)), node ids for binomial, for worms
 * the H-cycle, the cube's or the ring.
 */
static int mcast_send_order(struct mcast_net *mn, const struct mcast_job *pick,
			    u32 *chain, u32 m, u32 self, struct mc_chain *c)
{
	enum mc_order o = mc_algo_order(pick->algo);
	int err = 0;

	if (pick->algo == MC_ALGO_CUBE)
		return mcast_cube_order(mn, pick->r, chain, m, self, c);
	if (pick->algo == MC_ALGO_RING)
		return mcast_ring_order(mn, chain, m, self, c);

	if (o == MC_ORDER_HAM || mn->torus.rank)
		err = mc_chain_sort(&mn->torus, o, chain, m, NULL);
	return err ? err : mc_chain_rotate(&mn->torus, o, chain, m, self, c);
}

/*
 * A broadcast: the destinations (@g's members, or @nodes, sorted) and this
 * node are every node of the cluster.
 */
static bool mcast_send_is_broadcast(struct mcast_net *mn,
				    const struct mcast_group *g,
				    const u32 *nodes, u32 nnodes, u32 self)
{
	const u32 *d = g ? g->rchain : nodes;
	u32 n = g ? g->nmembers : nnodes, i;
	bool here = false;

	for (i = 0; i < n; i++)
		here |= d[i] == self;
	return n + !here == mn->torus.nodes;
}

/* A send that reached no other node failed here: a local member cut off. */
static int mcast_self_failed(struct mcast_send_ctx *ctx, u32 self)
{
	ctx->nfailed = 1;
	if (ctx->failed && ctx->nfailed_room)
		ctx->failed[0] = self;
	return -EHOSTUNREACH;
}

/*
 * Drops mn->lock and waits until a lossless file that blocked a local
 * delivery reads (or a second passes: the caller looks again, and cuts off
 * a file stalled for rx_stall_ms); retakes the lock unless it fails.
 */
static int mcast_wait_local_room(struct mcast_net *mn, bool nonblock)
{
	u32 gen = READ_ONCE(mn->room_gen);
	long left;

	if (nonblock) {	/* poll() waits for room too: writable() */
		WRITE_ONCE(mn->blocked_gen, gen);
		WRITE_ONCE(mn->local_full, true);
		mod_timer(&mn->room_timer, jiffies + HZ);
		mutex_unlock(&mn->lock);
		return -EAGAIN;
	}
	mutex_unlock(&mn->lock);
	left = wait_event_interruptible_timeout(mn->send_wq,
						READ_ONCE(mn->room_gen) != gen,
						HZ);
	if (left < 0)
		return left;
	mutex_lock(&mn->lock);
	return 0;
}

int mcast_data_send(struct mcast_file *f, struct mcast_msg *msg, u32 group,
		    u32 *nodes, u32 nnodes, struct mcast_send_ctx *ctx)
{
	struct mcast_net *mn = f->mn;
	struct mcast_file *skip = ctx->flags & MCAST_SEND_LOOPBACK ? NULL : f;
	bool wait = ctx->flags & MCAST_SEND_WAIT;
	struct mcast_group *g = NULL;
	struct mcast_job pick = {};
	struct mcast_tstream *ts;
	struct mcast_job *job;
	struct mc_chain c;
	u32 *chain = NULL, m = 0, i, self;
	bool here, self_cut = false;
	long left;
	int err;

	mutex_lock(&mn->lock);
again:
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
		/*
		 * A local lossless member is full: wait before taking a seq,
		 * so that the local files see this node's messages in the
		 * order every other node does.
		 */
		if (mcast_deliver_blocked(mn, g, msg->len, skip)) {
			err = mcast_wait_local_room(mn, ctx->nonblock);
			if (err)
				return err;
			goto again;
		}
	} else if (!mn->configured) {
		err = -ENOTCONN;
		goto out;
	}
	if (mn->configured) {
		err = mcast_pick_algo(mn, ctx, g ? g->nmembers : nnodes,
				      mcast_send_is_broadcast(mn, g, nodes,
							      nnodes,
							      mn->node_id),
				      msg->len, &pick);
		if (err)
			goto out;
	}
	self = mn->configured ? mn->node_id : MCAST_NO_NODE;
	msg->group = group;
	msg->src_node = self;
	msg->seq = mcast_seq_next(mn);
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
	/* not blocked: checked above, under this hold of the lock; a
	 * lossless member stalled past rx_stall_ms is cut off here and
	 * counts as this node failing, as a remote one would
	 */
	if (g || here)
		self_cut = mcast_deliver_local(mn, msg, g, !g, skip) ==
			   MCAST_CUT;
	err = 0;
	if (!mn->configured)
		goto out;

	if (g && mn->torus.rank)
		chain = mcast_chain_with_any(g->rchain, g->nmembers, self, &m);
	else
		chain = g ? mcast_chain_with(g->rchain, g->nmembers, self, &m) :
			    mcast_chain_with(nodes, nnodes, self, &m);
	err = -ENOMEM;
	if (!chain)
		goto out;
	err = 0;
	if (m < 2) {
		if (self_cut && wait)
			err = mcast_self_failed(ctx, self);
		goto out;
	}
	err = mcast_send_order(mn, &pick, chain, m, self, &c);
	if (err)
		goto out;
	ts = mcast_tstream(mn, group);
	job = mcast_obj_zalloc(sizeof(*job), MCAST_OBJ_JOB);
	err = -ENOMEM;
	if (!job || !ts)
		goto fail_job;
	ts->used = jiffies;
	job->nodes = kvmalloc_array(m, sizeof(u32), MCAST_GFP);
	job->prevs = kvmalloc_array(m, sizeof(u64), MCAST_GFP);
	if (!job->nodes || !job->prevs)
		goto fail_job;
	err = 0;
	for (i = 0; i < m; i++) {
		job->nodes[i] = mc_chain_at(&c, i);
		job->prevs[i] = 0;
		if (i) {
			void *e = xa_load(&ts->last, job->nodes[i]);

			job->prevs[i] = e ? xa_to_value(e) : 0;
			/* a seq of the clock's: far below LONG_MAX */
			if (msg->seq <= LONG_MAX)
				xa_store(&ts->last, job->nodes[i],
					 xa_mk_value(msg->seq), MCAST_GFP);
		}
	}
	INIT_LIST_HEAD(&job->txs);
	INIT_LIST_HEAD(&job->ack_link);
	init_completion(&job->done);
	if (self_cut)
		mcast_job_add_failed(job, self);
	job->root = true;
	job->waiting = wait;
	job->separate = ctx->flags & MCAST_SEND_SEPARATE;
	job->algo = pick.algo;
	job->r = pick.r;
	job->level = pick.level;
	job->plen = m;
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
	trace_mcast_send(mn, job);
	if (!pick.rbmode || mcast_rb_start(mn, job, pick.rbmode))
		mcast_job_spread(mn, job, job->nodes, job->prevs, m,
				 job->level);
	mcast_job_check(mn, job);	/* may free it unless waiting */
	if (!wait)
		goto out;

	mutex_unlock(&mn->lock);
	left = wait_for_completion_interruptible_timeout(&job->done,
		msecs_to_jiffies(ctx->timeout_ms ? ctx->timeout_ms :
				 MCAST_WAIT_DEFAULT_MS));
	mutex_lock(&mn->lock);
	mcast_collect_failed(job, ctx);
	job->told = true;
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
