// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The top of the data path: each node's receive work (its transport's
 * ->rx(), then the ACKs the batch owes) and timer work (retransmission,
 * forgetting finished jobs and idle streams), and the node's data path
 * coming up and going down.  data.h describes the protocol.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/export.h>
#include <linux/jiffies.h>
#include <linux/memcontrol.h>
#include <linux/mm.h>
#include <linux/random.h>
#include <linux/sched/mm.h>
#include <linux/timekeeping.h>
#include <linux/workqueue.h>

#include "data.h"
#include "msg.h"

/* From any context: the node's transport has something for ->rx(). */
void mcast_data_kick(struct mcast_net *mn)
{
	queue_work(mcast_wq, &mn->rx_work);
}
EXPORT_SYMBOL_GPL(mcast_data_kick);

/*
 * The node's receive work runs its transport's ->rx() under the node's
 * mutex.  The work belongs to the node, not to the transport, so a
 * transport can be closed (and its state freed) under the mutex while a
 * run of the work is already queued: the run finds mn->tp_priv gone and
 * does nothing.
 */
static void mcast_rx_work(struct work_struct *w)
{
	struct mcast_net *mn = container_of(w, struct mcast_net, rx_work);
	struct mem_cgroup *old;
	int n;

	mutex_lock(&mn->lock);
	old = set_active_memcg(mn->memcg);
	if (mn->tp_priv && !mn->dying) {
		n = mn->tp->rx(mn, MCAST_TP_RX_BUDGET);
		if (mn->tp_priv)
			mcast_data_rx_flush(mn);
		if (n >= MCAST_TP_RX_BUDGET)
			queue_work(mcast_wq, &mn->rx_work);
	}
	set_active_memcg(old);
	mutex_unlock(&mn->lock);
}

/* Finished receivers' jobs past MCAST_DONE_KEEP_MS, oldest first. */
static void mcast_done_jobs_expire(struct mcast_net *mn)
{
	unsigned long keep = msecs_to_jiffies(MCAST_DONE_KEEP_MS);
	struct mcast_job *job, *tmp;

	list_for_each_entry_safe(job, tmp, &mn->done_jobs, link) {
		if (time_before_eq(jiffies, job->stamp + keep))
			break;
		mcast_job_free(mn, job);
	}
}

/*
 * A receiving job whose parent went silent for @keep, or older than a
 * transfer lives (its parent's transfer began before it, and has ended
 * by now however often a fragment came): a peer that sends one now and
 * then cannot keep a job, its reservation and its memory, for ever.
 */
static bool mcast_rx_job_over(const struct mcast_job *job, unsigned long keep)
{
	return job->state == JOB_RX &&
	       (time_after(jiffies, job->stamp + keep) ||
		time_after(jiffies, job->born + mcast_tx_lifetime()));
}

/*
 * Every tick looks at the work due: the transfers (each has a deadline),
 * the live jobs (a receiver's whose parent went silent is dropped), the
 * streams that hold messages, and the heads of the finished jobs' and the
 * streams' lists (data_fifo.c): never at everything the node remembers.
 */
static void mcast_timer_work(struct work_struct *w)
{
	struct mcast_net *mn = container_of(to_delayed_work(w),
					    struct mcast_net, timer_work);
	unsigned long keep = msecs_to_jiffies(MCAST_DONE_KEEP_MS);
	struct mcast_job *job, *tmp;
	struct mcast_tx *tx;
	struct mem_cgroup *old;
	unsigned long id;
	ktime_t t0;
	bool again;

	mutex_lock(&mn->lock);
	old = set_active_memcg(mn->memcg);
	t0 = ktime_get();
	mn->slow_tick = false;
	if (mn->dying)
		goto out;
	xa_for_each(&mn->txs, id, tx)
		mcast_tx_timer(mn, tx);
	mcast_acks_held_due(mn);
	list_for_each_entry_safe(job, tmp, &mn->jobs, link)
		if (mcast_rx_job_over(job, keep))
			mcast_job_free(mn, job);	/* the parent gave up */
	mcast_rb_tick(mn);
	mcast_done_jobs_expire(mn);
	mcast_streams_skip_gaps(mn);
	mcast_streams_expire(mn);
	again = !xa_empty(&mn->txs) || !list_empty(&mn->held_streams) ||
		!list_empty(&mn->acks_held) ||
		mcast_rb_busy(mn);
	list_for_each_entry(job, &mn->jobs, link)
		again |= job->state == JOB_RX;
	if (again) {
		mcast_arm(mn);
	} else if (!list_empty(&mn->jobs) || !list_empty(&mn->done_jobs) ||
		   !list_empty(&mn->rx_lru) || !list_empty(&mn->tx_lru)) {
		mn->slow_tick = true;
		queue_delayed_work(mcast_wq, &mn->timer_work, MCAST_IDLE_TICK);
	}
out:
	atomic64_add(ktime_to_ns(ktime_sub(ktime_get(), t0)),
		     &mn->stats.timer_ns);
	set_active_memcg(old);
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

/*
 * A peer added (again): what the node already holds of it counts against
 * it, so deleting and re-adding a peer with transfers in flight neither
 * frees its share nor lets the old ones drive the new counters below 0.
 */
void mcast_data_peer_recount(struct mcast_net *mn, struct mcast_peer *p)
{
	struct mcast_rstream *st;
	struct mcast_held *hd;
	struct mcast_job *job;
	struct mcast_tx *tx;
	unsigned long id;

	lockdep_assert_held(&mn->lock);
	p->rx_jobs = 0;
	p->rx_mem = 0;
	p->fwd_mem = 0;
	p->jobs = 0;
	p->tx_active = 0;
	p->held = 0;
	p->rb = 0;
	p->streams = mcast_streams_of(mn, p->id);
	list_for_each_entry(job, &mn->jobs, link) {
		if (job->root || job->parent != p->id)
			continue;
		p->rx_jobs += job->state == JOB_RX;
		p->rx_mem += job->state == JOB_RX ? job->total : 0;
		p->fwd_mem += job->fwd_charged ? job->msg_len : 0;
		p->jobs += job->counted;
	}
	xa_for_each(&mn->txs, id, tx)
		p->tx_active += tx->to == p->id && tx->active;
	list_for_each_entry(st, &mn->held_streams, held_link)
		list_for_each_entry(hd, &st->held, link)
			p->held += hd->parent == p->id;
	p->rb = mcast_rb_count(mn, p->id);
}

void mcast_data_gauges(struct mcast_net *mn, struct mcast_data_gauges *g)
{
	struct mcast_tx *tx;
	unsigned long id;
	void *e;

	lockdep_assert_held(&mn->lock);
	memset(g, 0, sizeof(*g));
	xa_for_each(&mn->txs, id, tx) {
		g->transfers++;
		g->queued += tx->queued;
	}
	xa_for_each(&mn->rx_floor, id, e)
		g->floors++;
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
	mn->tp = mcast_transport_default();
	INIT_WORK(&mn->rx_work, mcast_rx_work);
	mn->port = MCAST_DEFAULT_PORT;
	mn->rto_ms = MCAST_DEFAULT_RTO_MS;
	mn->retries = MCAST_DEFAULT_RETRIES;
	mn->algo = MCAST_ALGORITHM_AUTO;
	mn->algo_r = MCAST_DEFAULT_ALGO_R;
	mn->cwnd = MCAST_CWND_INIT;
	mn->ssthresh = MCAST_CWND_MAX;
	INIT_DELAYED_WORK(&mn->timer_work, mcast_timer_work);
	timer_setup(&mn->room_timer, mcast_room_timer, 0);
	INIT_LIST_HEAD(&mn->jobs);
	INIT_LIST_HEAD(&mn->done_jobs);
	INIT_LIST_HEAD(&mn->rbs);
	INIT_LIST_HEAD(&mn->acks);
	INIT_LIST_HEAD(&mn->acks_held);
	INIT_LIST_HEAD(&mn->rx_lru);
	INIT_LIST_HEAD(&mn->held_streams);
	INIT_LIST_HEAD(&mn->tx_lru);
	/*
	 * Message seqs follow the wall clock (seconds << 20 and the fraction:
	 * mcast_seq_next()) and transfer ids start at random, so a restarted
	 * node (module reload, new netns) is not taken for a stale duplicate
	 * of its previous life by receivers that still remember it, unless
	 * it sent 2^20 messages per second.
	 */
	atomic64_set(&mn->seq, mcast_seq_clock());
	mn->next_xid = get_random_u32();
	/* ACKs carry it: a parent tells a restarted child from its old life */
	mn->incarnation = get_random_u32() ?: 1;
	mn->born = jiffies;
	mcast_auth_init(&mn->auth);
	xa_init(&mn->rjobs);
	xa_init(&mn->rb_index);
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
	struct mcast_tx *tx;
	unsigned long id;

	mutex_lock(&mn->lock);
	mn->dying = true;
	mn->tp->close(mn);
	if (mn->tp != mcast_transport_default()) {
		mcast_transport_put(mn->tp);
		mn->tp = mcast_transport_default();
	}
	mutex_unlock(&mn->lock);
	cancel_work_sync(&mn->rx_work);
	cancel_delayed_work_sync(&mn->timer_work);
	del_timer_sync(&mn->room_timer);	/* no file is left to arm it */

	mutex_lock(&mn->lock);
	xa_for_each(&mn->txs, id, tx)
		mcast_tx_free(mn, tx);
	list_for_each_entry_safe(job, jtmp, &mn->jobs, link)
		mcast_job_free(mn, job);
	list_for_each_entry_safe(job, jtmp, &mn->done_jobs, link)
		mcast_job_free(mn, job);
	mcast_streams_free(mn);
	xa_destroy(&mn->rjobs);
	xa_destroy(&mn->rb_index);
	xa_destroy(&mn->txs);
	xa_destroy(&mn->tx_streams);
	xa_destroy(&mn->rx_streams);
	xa_destroy(&mn->rx_floor);
	kfree(mn->burst);
	mn->burst = NULL;
	mcast_auth_clear(&mn->auth);
	mem_cgroup_put(mn->memcg);
	mn->memcg = NULL;
	mutex_unlock(&mn->lock);
}

void mcast_data_set_memcg(struct mcast_net *mn)
{
	struct mem_cgroup *memcg = NULL;

	lockdep_assert_held(&mn->lock);
	if (current->mm)
		memcg = get_mem_cgroup_from_mm(current->mm);
	mem_cgroup_put(mn->memcg);
	mn->memcg = memcg;
}
