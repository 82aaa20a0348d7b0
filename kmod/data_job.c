// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The lifetimes of the data path's objects: jobs (a node's part in one
 * message) and transfers (one hop of its tree), how a job completes and
 * reports DONE to its parent, and the helpers every part sends with.
 */
#include <linux/jiffies.h>
#include <linux/mm.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/workqueue.h>

#include "data.h"
#include "msg.h"
#include "notify.h"

/* Every node's receive and timer work runs on it (main.c makes it). */
struct workqueue_struct *mcast_wq;

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

int mcast_xmit_sealed(struct mcast_net *mn, u32 to, struct kvec *v,
		      size_t nv, size_t len)
{
	struct mcast_peer *p = xa_load(&mn->peers, to);
	int err;

	if (!p || !mn->tp_priv)
		return -ENOENT;
	err = mn->tp->xmit(mn, p, v, nv, len);
	if (!err)
		atomic64_add(DIV_ROUND_UP(len, mn->tp->max_payload),
			     &mn->stats.tx_packets);
	return err;
}

size_t mcast_seal(struct mcast_net *mn, u32 to, struct kvec *v, size_t *nv,
		  u8 *trailer)
{
	if (!mcast_auth_on(&mn->auth))
		return 0;
	mcast_auth_seal(&mn->auth, v, *nv, to, trailer);
	v[(*nv)++] = (struct kvec){ trailer, MCW_AUTH_LEN };
	return MCW_AUTH_LEN;
}

int mcast_xmit(struct mcast_net *mn, u32 to, struct kvec *v,
	       size_t nv, size_t len)
{
	u8 trailer[MCW_AUTH_LEN];
	struct kvec sv[4];

	memcpy(sv, v, nv * sizeof(*v));
	len += mcast_seal(mn, to, sv, &nv, trailer);
	return mcast_xmit_sealed(mn, to, sv, nv, len);
}

void mcw_init(struct mcw_hdr *h, struct mcast_net *mn, u8 type,
	      u32 src, u32 xid, u64 seq)
{
	memset(h, 0, sizeof(*h));
	h->version = MCW_VERSION;
	h->type = type;
	if (mcast_auth_on(&mn->auth))
		h->flags = MCW_F_AUTH;
	h->src = cpu_to_be32(src);
	h->from = cpu_to_be32(mn->node_id);
	h->xid = cpu_to_be32(xid);
	h->seq = cpu_to_be64(seq);
	if (type != MCW_DATA)
		h->step = cpu_to_be32(mn->incarnation);
}

int mcast_job_add_failed(struct mcast_job *job, u32 node)
{
	u32 *n;

	if (job->nfailed == job->failcap) {
		u32 cap = max(8U, job->failcap * 2);

		n = krealloc_array(job->failed, cap, sizeof(u32), MCAST_GFP);
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

/* A receiver's fragments kept until the message reaches them (data_rx.c) */
void mcast_job_free_ooo(struct mcast_job *job)
{
	unsigned long i;
	void *chunk;

	/* empty: never locked (not every job inits it) */
	if (xa_empty(&job->ooo))
		return;
	xa_for_each(&job->ooo, i, chunk)
		kvfree(chunk);
	xa_destroy(&job->ooo);
}

void mcast_job_free_data(struct mcast_job *job)
{
	mcast_job_free_ooo(job);
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

/*
 * A receiving job reserves its transfer's bytes (job->total) from its
 * first fragment until it has them all (@in false): in the node's rx_mem
 * and in its parent's share, so admission (mcast_rx_room()) never has to
 * take back what it let in, while the memory itself follows the data.
 */
void mcast_job_rx_charge(struct mcast_net *mn, struct mcast_job *job, bool in)
{
	struct mcast_peer *p = xa_load(&mn->peers, job->parent);

	if (in) {
		mn->rx_mem += job->total;
		if (p) {
			p->rx_jobs++;
			p->rx_mem += job->total;
		}
		return;
	}
	mn->rx_mem -= job->total;
	if (p && p->rx_jobs) {
		p->rx_jobs--;
		p->rx_mem -= min_t(u64, p->rx_mem, job->total);
	}
}

/*
 * A receiver's job counts in the node's and its parent's live jobs from
 * its first fragment until it finishes (@in false), so neither a peer nor
 * all of them together can make this node keep more than the bounds.
 */
void mcast_job_count(struct mcast_net *mn, struct mcast_job *job, bool in)
{
	struct mcast_peer *p = xa_load(&mn->peers, job->parent);

	if (job->counted == in)
		return;
	job->counted = in;
	mn->njobs += in ? 1 : -1;
	if (p && (in || p->jobs))
		p->jobs += in ? 1 : -1;
}

/* A received message being forwarded counts in mn->fwd_mem meanwhile. */
void mcast_job_fwd_charge(struct mcast_net *mn, struct mcast_job *job,
			  bool in)
{
	struct mcast_peer *p = xa_load(&mn->peers, job->parent);

	if (job->fwd_charged == in)
		return;
	job->fwd_charged = in;
	if (in) {
		mn->fwd_mem += job->msg_len;
		if (p)
			p->fwd_mem += job->msg_len;
		return;
	}
	mn->fwd_mem -= job->msg_len;
	if (p)
		p->fwd_mem -= min_t(u64, p->fwd_mem, job->msg_len);
}

/* Its held message (data_fifo.c) is delivered later without it. */
static void mcast_held_orphan(struct mcast_job *job)
{
	if (job->held)
		list_del(&job->held_link);
	job->held = NULL;
}

void mcast_job_free(struct mcast_net *mn, struct mcast_job *job)
{
	struct mcast_tx *tx, *tmp;

	if (job->ops)
		job->ops->release(mn, job);
	/* A forwarder whose parent gave up mid-transfer still has children. */
	list_for_each_entry_safe(tx, tmp, &job->txs, link)
		mcast_tx_free(mn, tx);
	mcast_held_orphan(job);
	list_del(&job->ack_link);
	/* only its own entry: an RB assembly has none, its xid is 0 */
	if (!job->root)
		xa_cmpxchg(&mn->rjobs, mcast_key2(job->parent, job->xid), job,
			   NULL, 0);
	if (job->state == JOB_RX)
		mcast_job_rx_charge(mn, job, false);
	if (job->state == JOB_DONE && !job->root)
		mn->ndone--;
	mcast_job_count(mn, job, false);
	mcast_job_fwd_charge(mn, job, false);
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

	if (job->ops) {		/* e.g. an assembly reports to its root */
		job->ops->done(mn, job);
		return;
	}
	ids = kmalloc_array(room, 4, MCAST_GFP);
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
		mcast_job_count(mn, job, false);
		mcast_job_fwd_charge(mn, job, false);
		mcast_job_free_data(job);
		list_move_tail(&job->link, &mn->done_jobs);
		mn->ndone++;
		mcast_send_done(mn, job);
		mcast_arm(mn);
		return;
	}
	mn->inflight--;
	mn->inflight_bytes -= job->bytes;
	wake_up_interruptible(&mn->send_wq);
	if (job->waiting) {
		complete(&job->done);
		return;
	}
	/* no one waits: the sender hears of the failures this way */
	if (job->nfailed && !job->told)
		mcast_notify_send_failed(mn, job->group, job->seq, job->failed,
					 job->nfailed, job->trunc);
	mcast_job_free(mn, job);
}

void mcast_job_check(struct mcast_net *mn, struct mcast_job *job)
{
	if (job->state == JOB_FWD && !job->pending)
		mcast_job_complete(mn, job);
}

/* The transfer leaves its peer's window (all its data is acknowledged). */
void mcast_tx_inactive(struct mcast_net *mn, struct mcast_tx *tx)
{
	struct mcast_peer *p;

	if (!tx->active)
		return;
	tx->active = false;
	p = xa_load(&mn->peers, tx->to);
	if (p && p->tx_active)
		p->tx_active--;
}

void mcast_tx_free(struct mcast_net *mn, struct mcast_tx *tx)
{
	mn->tx_out -= tx->next - tx->nacked;
	mcast_tx_inactive(mn, tx);
	xa_erase(&mn->txs, tx->xid);
	list_del(&tx->link);
	kvfree(tx->nodes);
	kvfree(tx->prevs);
	if (tx->worm)
		mcast_worm_leave(tx);
	else
		kvfree(tx->pbuf);
	kvfree(tx->acked);
	if (tx->data_own)
		kvfree(tx->data);
	mcast_obj_free(tx, MCAST_OBJ_TX);
}

void mcast_worm_free(struct mcast_worm *w)
{
	kvfree(w->pbuf);
	kvfree(w->tx);
	kvfree(w->hdr);
	kvfree(w->trailer);
	kvfree(w->head);
	kvfree(w->tail);
	kvfree(w->to);
	kvfree(w->sel);
	kfree(w);
}

struct mcast_worm *mcast_worm_alloc(u32 n, u32 plen)
{
	struct mcast_worm *w = kzalloc(sizeof(*w), MCAST_GFP);

	if (!w)
		return NULL;
	w->n = n;
	w->plen = plen;
	w->pbuf = kvmalloc(plen, MCAST_GFP);
	w->tx = kvcalloc(n, sizeof(*w->tx), MCAST_GFP);
	w->hdr = kvmalloc_array(n, sizeof(*w->hdr), MCAST_GFP);
	w->trailer = kvmalloc_array(n, sizeof(*w->trailer), MCAST_GFP);
	w->head = kvmalloc_array(n, sizeof(*w->head), MCAST_GFP);
	w->tail = kvmalloc_array(n, sizeof(*w->tail), MCAST_GFP);
	w->to = kvmalloc_array(n, sizeof(*w->to), MCAST_GFP);
	w->sel = kvmalloc_array(n, sizeof(*w->sel), MCAST_GFP);
	if (!w->pbuf || !w->tx || !w->hdr || !w->trailer || !w->head ||
	    !w->tail || !w->to || !w->sel) {
		mcast_worm_free(w);
		return NULL;
	}
	return w;
}

void mcast_worm_leave(struct mcast_tx *tx)
{
	struct mcast_worm *w = tx->worm;

	w->tx[tx->worm_idx] = NULL;
	tx->worm = NULL;
	tx->pbuf = NULL;
	if (!--w->live)
		mcast_worm_free(w);
}
