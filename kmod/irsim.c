// SPDX-License-Identifier: GPL-2.0
/*
 * mcast_irsim.ko: the simulated IR fabric as a transport (see irsim.h).
 *
 * Locking: irsim.lock covers the fabric, the hosts and the counters; the
 * thread holds it while it runs a slice of the model, so the model's
 * callbacks run under it.  A node calls in with its own mutex held
 * (node, then irsim.lock); the thread never takes a node's mutex: it
 * queues a datagram on the host and kicks the node's receive work.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kthread.h>
#include <linux/module.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/mm.h>

#include "irsim.h"
#include "net.h"
#include "notify.h"
#include "transport.h"

#define IRSIM_SLICE_CYCLES	4096	/* model cycles per hold of the lock */
#define IRSIM_HDR_FLITS		1	/* the destination word of the worm */

/* A datagram handed to a host: its receive work frees it. */
struct irsim_pkt {
	struct list_head link;
	u32 src;			/* sender's node id */
	u32 len;
	bool end;			/* data[] is a struct irsim_end */
	struct mcast_rx_meta meta;	/* its worm's handover, this copy */
	u8 data[];
};

/*
 * The NIC's completion of a worm that did not reach every destination
 * whole, queued to its sender's host: the data path's cookie, how many
 * destinations (a prefix) it reached, and whose host missed its copy.
 */
struct irsim_end {
	u64 cookie;
	u32 n, reached;
	DECLARE_BITMAP(missed, IRSIM_WORM_DESTS);
	u32 to[IRSIM_WORM_DESTS];
};

/*
 * A worm on its way, the worm's cookie until it ends: the body every
 * destination shares and each one's own head and tail (Fig 6.2's
 * compound header), from which a datagram is made for a destination
 * when its copy is complete.
 */
struct irsim_worm {
	u32 src;
	u32 n;
	u32 blen;
	u64 cookie;			/* the data path's */
	DECLARE_BITMAP(missed, IRSIM_WORM_DESTS);	/* hosts that took no copy */
	struct irsim_part {
		u32 off, hlen, tlen;	/* in data[], after the body */
	} *part;			/* n */
	u8 data[];			/* body, then head 0, tail 0, ... */
};

/* What the model holds of a worm until its end: its list and its path. */
struct irsim_route {
	struct mc_fab_hop *hop;
	u32 dest[];
};

struct irsim irsim;
static struct mcast_transport_ops irsim_transport;

static bool irsim_same_shape(const struct mc_torus *a, const struct mc_torus *b)
{
	unsigned int d;

	if (a->n != b->n || a->links != b->links)
		return false;
	for (d = 0; d < a->n; d++)
		if (a->k[d] != b->k[d])
			return false;
	return true;
}

/* The open node whose id is @id on this fabric's shape, or NULL. */
static struct irsim_host *irsim_host_of(u32 id)
{
	struct irsim_host *h = irsim.by_id[id];

	if (h && READ_ONCE(h->mn->node_id) == id)
		return h;
	list_for_each_entry(h, &irsim.hosts, link) {
		if (READ_ONCE(h->mn->node_id) != id ||
		    !irsim_same_shape(&h->mn->torus, &irsim.f.t))
			continue;
		if (h->cached_id != MC_FAB_NONE)
			irsim.by_id[h->cached_id] = NULL;
		h->cached_id = id;
		irsim.by_id[id] = h;
		return h;
	}
	return NULL;
}

/* Destination @i's datagram of @worm: its head, the body, its tail. */
static struct irsim_pkt *irsim_worm_pkt(const struct irsim_worm *worm, u32 i)
{
	const struct irsim_part *pt = &worm->part[i];
	u32 len = pt->hlen + worm->blen + pt->tlen;
	struct irsim_pkt *pkt;

	pkt = kmalloc(struct_size(pkt, data, len), GFP_KERNEL_ACCOUNT);
	if (!pkt)
		return NULL;
	pkt->src = worm->src;
	pkt->end = false;
	pkt->len = len;
	memcpy(pkt->data, worm->data + pt->off, pt->hlen);
	memcpy(pkt->data + pt->hlen, worm->data, worm->blen);
	memcpy(pkt->data + pt->hlen + worm->blen,
	       worm->data + pt->off + pt->hlen, pt->tlen);
	return pkt;
}

static void irsim_deliver(void *ctx, struct mc_fabric *f, u32 w, u32 i,
			  enum mc_fab_copy copy, u64 t)
{
	struct irsim_worm *worm = (void *)(uintptr_t)f->worm[w].cookie;
	struct irsim_pkt *pkt;
	struct irsim_host *h;

	if (!worm)
		return;
	if (copy != MC_FAB_COPY_OK) {
		set_bit(i, worm->missed);
		return;
	}
	h = irsim_host_of(f->worm[w].dest[i]);
	if (!h) {
		irsim.c.rx_no_host++;
		set_bit(i, worm->missed);
		return;
	}
	pkt = irsim_worm_pkt(worm, i);
	if (!pkt) {
		irsim.c.rx_overflow++;
		set_bit(i, worm->missed);
		return;
	}
	pkt->meta.t_submit = f->worm[w].t_submit;
	pkt->meta.t_copy = t;
	spin_lock(&h->lock);
	if (h->qlen >= IRSIM_RXQ_MAX) {
		spin_unlock(&h->lock);
		irsim.c.rx_overflow++;
		set_bit(i, worm->missed);
		kfree(pkt);
		return;
	}
	list_add_tail(&pkt->link, &h->rxq);
	h->qlen++;
	spin_unlock(&h->lock);
	irsim.c.vlat_sum_ns += t - pkt->meta.t_submit;
	irsim.c.vlat_max_ns = max(irsim.c.vlat_max_ns, t - pkt->meta.t_submit);
	mcast_data_kick(h->mn);
}

/* Records worm @w, which ended with @err, while a trace is on. */
static void irsim_trace_worm(const struct mc_fabric *f, u32 w, int err,
			     u64 t)
{
	const struct mc_fab_worm *wm = &f->worm[w];
	struct irsim_trace_ent *e;
	u32 i;

	if (!irsim.trace || irsim.ntrace == IRSIM_TRACE_WORMS)
		return;
	e = &irsim.trace[irsim.ntrace++];
	e->src = wm->src;
	e->err = err;
	e->t_submit = wm->t_submit;
	e->t_end = t;
	e->blocked_ns = wm->blocked_ns;
	e->ndest = min_t(u32, wm->ndest, IRSIM_WORM_DESTS);
	memcpy(e->dest, wm->dest, e->ndest * sizeof(u32));
	e->nhops = min_t(u32, wm->npath, IRSIM_TRACE_HOPS);
	for (i = 0; i < e->nhops; i++)
		e->chan[i] = wm->path[i].chan;
}

int irsim_trace_set(bool on)
{
	struct irsim_trace_ent *t = NULL;

	if (on) {
		t = kvcalloc(IRSIM_TRACE_WORMS, sizeof(*t), GFP_KERNEL_ACCOUNT);
		if (!t)
			return -ENOMEM;
	}
	mutex_lock(&irsim.lock);
	swap(irsim.trace, t);
	irsim.ntrace = 0;
	mutex_unlock(&irsim.lock);
	kvfree(t);
	return 0;
}

/*
 * Worm @w ended short (@err) or a host missed its copy: the completion
 * goes to its sender's host (best effort, as a datagram: the data path's
 * timeouts cover a completion that never comes).
 */
static void irsim_complete(const struct mc_fabric *f, u32 w, int err)
{
	const struct irsim_worm *worm = (void *)(uintptr_t)f->worm[w].cookie;
	struct irsim_host *h;
	struct irsim_pkt *pkt;
	struct irsim_end *e;

	if (!worm || !worm->cookie ||
	    (!err && bitmap_empty(worm->missed, worm->n)))
		return;
	h = irsim_host_of(worm->src);
	if (!h)
		return;
	pkt = kmalloc(struct_size(pkt, data, sizeof(*e)), GFP_KERNEL_ACCOUNT);
	if (!pkt)
		return;
	pkt->src = worm->src;
	pkt->len = sizeof(*e);
	pkt->end = true;
	e = (void *)pkt->data;
	e->cookie = worm->cookie;
	e->n = worm->n;
	e->reached = err ? f->worm[w].delivered : worm->n;
	bitmap_copy(e->missed, worm->missed, IRSIM_WORM_DESTS);
	memcpy(e->to, f->worm[w].dest, worm->n * sizeof(u32));
	spin_lock(&h->lock);
	if (h->qlen >= IRSIM_RXQ_MAX) {
		spin_unlock(&h->lock);
		kfree(pkt);
		return;
	}
	list_add_tail(&pkt->link, &h->rxq);
	h->qlen++;
	spin_unlock(&h->lock);
	irsim.c.completions++;
	mcast_data_kick(h->mn);
}

/* The worm ended: its route (list and path) and its datagrams go. */
static void irsim_done(void *ctx, struct mc_fabric *f, u32 w, int err, u64 t)
{
	struct irsim_route *route = container_of(f->worm[w].dest,
						 struct irsim_route, dest[0]);

	if (err)
		irsim.c.lost++;
	irsim_complete(f, w, err);
	irsim_trace_worm(f, w, err, t);
	kfree(route->hop);
	kfree(route);
	kvfree((void *)(uintptr_t)f->worm[w].cookie);
}

/* A check of the model fired: the log, and the worm's sender's event. */
static void irsim_alarm(void *ctx, struct mc_fabric *f, u32 w, int err,
			const char *what)
{
	u32 src = f->worm[w].src;
	struct irsim_host *h = irsim_host_of(src);

	pr_info_ratelimited("worm %u from node %u: %s\n", w, src, what);
	if (h)
		mcast_notify_fabric(h->mn, src, -err, what);
}

static const struct mc_fab_ops irsim_fab_ops = {
	.deliver = irsim_deliver,
	.done = irsim_done,
	.alarm = irsim_alarm,
};

/* Paced: the virtual time the wall clock has reached (else U64_MAX). */
static u64 irsim_wall_virtual(void)
{
	if (!irsim.pace)
		return U64_MAX;
	return div_u64((u64)ktime_to_ns(ktime_sub(ktime_get(), irsim.wall0)) *
		       irsim.pace, NSEC_PER_USEC);
}

/* When a worm handed over now starts (its start-up aside). */
static u64 irsim_start_time(void)
{
	u64 wall = irsim_wall_virtual();

	return irsim.pace && wall > irsim.f.now ? wall : irsim.f.now;
}

/* Paced: how long the wall clock takes to reach virtual time @v. */
static ktime_t irsim_wall_until(u64 v)
{
	u64 at = div_u64(v * NSEC_PER_USEC, irsim.pace);

	return ktime_sub(ktime_add_ns(irsim.wall0, at), ktime_get());
}

/*
 * One slice of the model, under irsim.lock: at most IRSIM_SLICE_CYCLES,
 * and paced, no further than the wall clock.  Returns how long to wait
 * before the next (0: go on at once, KTIME_MAX: until woken).
 */
static ktime_t irsim_slice(void)
{
	u64 until, wall, next;

	if (!irsim.up)
		return KTIME_MAX;
	wall = irsim_wall_virtual();
	until = irsim.f.now + (u64)IRSIM_SLICE_CYCLES * irsim.cfg.tau_n;
	mc_fab_run(&irsim.f, min(until, wall));
	next = mc_fab_next_event(&irsim.f);
	if (next == U64_MAX)
		return KTIME_MAX;
	if (!irsim.pace || next < wall)
		return 0;
	return max_t(ktime_t, irsim_wall_until(next), 0);
}

/* The fabric's hardware: runs the model while it has something to do. */
static int irsim_thread(void *arg)
{
	ktime_t wait = KTIME_MAX;

	while (!kthread_should_stop()) {
		if (wait == KTIME_MAX)
			wait_event_interruptible(irsim.wq, READ_ONCE(irsim.work) ||
						 kthread_should_stop());
		else if (wait)
			wait_event_interruptible_hrtimeout(irsim.wq,
				READ_ONCE(irsim.work) || kthread_should_stop(),
				wait);
		mutex_lock(&irsim.lock);
		WRITE_ONCE(irsim.work, false);
		wait = irsim_slice();
		mutex_unlock(&irsim.lock);
		cond_resched();
	}
	return 0;
}

static void irsim_wake(void)
{
	WRITE_ONCE(irsim.work, true);
	wake_up(&irsim.wq);
}

/* ------------------------------------------------------------ the fabric */

int irsim_fabric_create(const struct mc_torus *t,
			const struct mc_fab_cfg *cfg, u32 flit_bytes,
			u32 pace, const char **why)
{
	struct mc_fab_chan *chan = NULL;
	struct mc_fab_node *node = NULL;
	struct mc_fab_worm *worm = NULL;
	struct irsim_host **by_id = NULL;
	int err = -ENOMEM;

	mutex_lock(&irsim.lock);
	if (irsim.up) {
		*why = "a fabric exists: destroy it first";
		err = -EEXIST;
		goto out;
	}
	chan = kvcalloc(mc_fab_channels(t, cfg->vc_sets), sizeof(*chan),
			GFP_KERNEL_ACCOUNT);
	node = kvcalloc(t->nodes, sizeof(*node), GFP_KERNEL_ACCOUNT);
	worm = kvcalloc(cfg->max_worms, sizeof(*worm), GFP_KERNEL_ACCOUNT);
	by_id = kvcalloc(t->nodes, sizeof(*by_id), GFP_KERNEL_ACCOUNT);
	if (!chan || !node || !worm || !by_id) {
		*why = "out of memory";
		goto out;
	}
	err = mc_fab_init(&irsim.f, t, cfg, chan, node, worm, &irsim_fab_ops,
			  NULL, why);
	if (err)
		goto out;
	irsim.cfg = irsim.f.cfg;
	irsim.flit_bytes = flit_bytes;
	irsim.pace = pace;
	irsim.wall0 = ktime_get();
	irsim.by_id = by_id;
	memset(&irsim.c, 0, sizeof(irsim.c));
	irsim.up = true;
	chan = NULL;
	node = NULL;
	worm = NULL;
	by_id = NULL;
	pr_info("fabric up: %u nodes, %u virtual channel sets, %u-flit buffers\n",
		t->nodes, cfg->vc_sets, cfg->buffer_flits);
out:
	mutex_unlock(&irsim.lock);
	kvfree(chan);
	kvfree(node);
	kvfree(worm);
	kvfree(by_id);
	return err;
}

/* Ends every worm (their datagrams are lost) and frees the fabric. */
static void irsim_fabric_free(void)
{
	struct irsim_host *h;
	u32 w;

	lockdep_assert_held(&irsim.lock);
	for (w = 0; w < irsim.f.cfg.max_worms; w++)
		mc_fab_abort(&irsim.f, w, -ECANCELED);
	list_for_each_entry(h, &irsim.hosts, link)
		h->cached_id = MC_FAB_NONE;
	kvfree(irsim.f.chan);
	kvfree(irsim.f.node);
	kvfree(irsim.f.worm);
	kvfree(irsim.by_id);
	irsim.by_id = NULL;
	irsim.up = false;
}

int irsim_fabric_destroy(void)
{
	int err = 0;

	mutex_lock(&irsim.lock);
	if (!irsim.up)
		err = -ENOENT;
	else if (!list_empty(&irsim.hosts))
		err = -EBUSY;
	else
		irsim_fabric_free();
	mutex_unlock(&irsim.lock);
	if (!err)
		pr_info("fabric down\n");
	return err;
}

/* --------------------------------------------------------- the transport */

static int irsim_open(struct mcast_net *mn, u16 port)
{
	struct irsim_host *h;

	h = kzalloc(sizeof(*h), GFP_KERNEL_ACCOUNT);
	if (!h)
		return -ENOMEM;
	h->mn = mn;
	h->cached_id = MC_FAB_NONE;
	spin_lock_init(&h->lock);
	INIT_LIST_HEAD(&h->rxq);
	mutex_lock(&irsim.lock);
	if (!irsim.up) {
		mutex_unlock(&irsim.lock);
		kfree(h);
		pr_info_ratelimited("no fabric: create one in debugfs first\n");
		return -ENODEV;
	}
	list_add_tail(&h->link, &irsim.hosts);
	mutex_unlock(&irsim.lock);
	mn->tp_priv = h;
	return 0;
}

static void irsim_close(struct mcast_net *mn)
{
	struct irsim_host *h = mn->tp_priv;
	struct irsim_pkt *pkt, *tmp;

	if (!h)
		return;
	mutex_lock(&irsim.lock);
	list_del(&h->link);
	if (h->cached_id != MC_FAB_NONE && irsim.by_id)
		irsim.by_id[h->cached_id] = NULL;
	mutex_unlock(&irsim.lock);
	/* No worm can reach it now: its queue is ours alone. */
	list_for_each_entry_safe(pkt, tmp, &h->rxq, link)
		kfree(pkt);
	mn->tp_priv = NULL;
	kfree(h);
}

/* @w's datagrams, gathered into one allocation, or NULL. */
static struct irsim_worm *irsim_worm_new(u32 src,
					 const struct mcast_worm_desc *w)
{
	size_t parts = array_size(w->n, sizeof(struct irsim_part));
	size_t bytes = w->blen, off, i;
	struct irsim_worm *worm;

	for (i = 0; i < w->n; i++)
		bytes += w->head[i].iov_len + w->tail[i].iov_len;
	worm = kvmalloc(struct_size(worm, data, bytes) + parts,
			GFP_KERNEL_ACCOUNT);
	if (!worm)
		return NULL;
	worm->src = src;
	worm->n = w->n;
	worm->blen = w->blen;
	worm->cookie = w->cookie;
	bitmap_zero(worm->missed, IRSIM_WORM_DESTS);
	worm->part = (void *)(worm->data + bytes);
	for (off = 0, i = 0; i < w->nbody; i++) {
		memcpy(worm->data + off, w->body[i].iov_base,
		       w->body[i].iov_len);
		off += w->body[i].iov_len;
	}
	for (i = 0; i < w->n; i++) {
		worm->part[i].off = off;
		worm->part[i].hlen = w->head[i].iov_len;
		worm->part[i].tlen = w->tail[i].iov_len;
		memcpy(worm->data + off, w->head[i].iov_base,
		       w->head[i].iov_len);
		off += w->head[i].iov_len;
		memcpy(worm->data + off, w->tail[i].iov_base,
		       w->tail[i].iov_len);
		off += w->tail[i].iov_len;
	}
	return worm;
}

/* Its length on the wire: a destination word each, then every byte. */
static u32 irsim_worm_flits(const struct irsim_worm *worm)
{
	u64 bytes = worm->blen;
	u32 i;

	for (i = 0; i < worm->n; i++)
		bytes += worm->part[i].hlen + worm->part[i].tlen;
	return worm->n * IRSIM_HDR_FLITS +
	       DIV_ROUND_UP_ULL(bytes, irsim.flit_bytes);
}

static int irsim_xmit_worm(struct mcast_net *mn,
			   const struct mcast_worm_desc *w)
{
	struct irsim_route *route = NULL;
	struct irsim_worm *worm;
	const char *why = NULL;
	u32 npath, i;
	int err;

	size_t hdr = 0;

	if (!w->n || w->n > READ_ONCE(irsim_transport.max_worm_dests))
		return -EINVAL;
	for (i = 0; i < w->n; i++) {
		if (w->head[i].iov_len + w->blen + w->tail[i].iov_len >
		    IRSIM_PAYLOAD)
			return -EMSGSIZE;
		hdr += w->head[i].iov_len + w->tail[i].iov_len;
	}
	if (hdr > READ_ONCE(irsim_transport.max_worm_hdr))
		return -EMSGSIZE;
	worm = irsim_worm_new(mn->node_id, w);
	if (!worm)
		return -ENOBUFS;
	mutex_lock(&irsim.lock);
	err = -ENODEV;
	if (!irsim.up || !irsim_same_shape(&mn->torus, &irsim.f.t))
		goto fail;
	err = -ENOBUFS;
	route = kmalloc(struct_size(route, dest, w->n), GFP_KERNEL_ACCOUNT);
	if (!route)
		goto fail;
	memcpy(route->dest, w->to, w->n * sizeof(u32));
	route->hop = NULL;
	npath = mc_fab_path_len(&irsim.f.t, worm->src, route->dest, w->n,
				&why);
	err = -EINVAL;
	if (!npath)
		goto fail;
	err = -ENOBUFS;
	route->hop = kmalloc_array(npath, sizeof(*route->hop),
				   GFP_KERNEL_ACCOUNT);
	if (!route->hop)
		goto fail;
	/* paced, a worm starts when the wall clock says, not at the
	 * model's last event
	 */
	err = mc_fab_send(&irsim.f, worm->src, route->dest, w->n,
			  irsim_worm_flits(worm), route->hop, npath,
			  irsim_start_time(), (u64)(uintptr_t)worm, &why);
	if (err == -ENOSPC) {
		irsim.c.tx_busy++;
		err = -EAGAIN;	/* the worm pool is full: the caller retries */
	}
	if (err < 0)
		goto fail;
	irsim.c.tx++;
	irsim.c.tx_dests += w->n;
	mutex_unlock(&irsim.lock);
	irsim_wake();
	return 0;
fail:
	mutex_unlock(&irsim.lock);
	if (why)
		pr_info_ratelimited("worm from node %u refused: %s\n",
				    worm->src, why);
	if (route)
		kfree(route->hop);
	kfree(route);
	kvfree(worm);
	return err;
}

/* A datagram to one peer: a worm with one destination, all head. */
static int irsim_xmit(struct mcast_net *mn, const struct mcast_peer *p,
		      struct kvec *vec, size_t nvec, size_t len)
{
	struct kvec none = { NULL, 0 };
	struct mcast_worm_desc w = {
		.n = 1, .to = &p->id, .head = &none, .tail = &none,
		.body = vec, .nbody = nvec, .blen = len,
	};

	if (len > IRSIM_PAYLOAD)
		return -EMSGSIZE;
	return irsim_xmit_worm(mn, &w);
}

/* The address the node configured for peer @id, for mcast_data_rx(). */
static bool irsim_peer_sa(struct mcast_net *mn, u32 id,
			  struct sockaddr_in6 *sa)
{
	const struct mcast_peer *p = xa_load(&mn->peers, id);

	if (!p)
		return false;
	memset(sa, 0, sizeof(*sa));
	sa->sin6_family = AF_INET6;
	if (p->ipv6) {
		sa->sin6_addr = p->addr.v6;
	} else {
		sa->sin6_addr.s6_addr32[2] = htonl(0xffff);
		sa->sin6_addr.s6_addr32[3] = p->addr.v4;
	}
	/* port 0: the fabric vouches for the node, not for a port */
	return true;
}

static int irsim_rx(struct mcast_net *mn, int budget)
{
	struct irsim_host *h = mn->tp_priv;
	struct sockaddr_in6 sa;
	struct irsim_pkt *pkt;
	int n = 0;

	while (n < budget) {
		spin_lock(&h->lock);
		pkt = list_first_entry_or_null(&h->rxq, struct irsim_pkt,
					       link);
		if (pkt) {
			list_del(&pkt->link);
			h->qlen--;
		}
		spin_unlock(&h->lock);
		if (!pkt)
			break;
		if (pkt->end) {
			const struct irsim_end *e = (void *)pkt->data;

			mcast_data_worm_end(mn, e->cookie, e->to, e->n,
					    e->reached, e->missed);
		} else if (irsim_peer_sa(mn, pkt->src, &sa)) {
			mcast_data_rx_meta(mn, &sa, pkt->data, pkt->len,
					   &pkt->meta);
			atomic64_inc(&irsim.c.rx);
		} else {
			atomic64_inc(&irsim.c.rx_no_peer);
		}
		kfree(pkt);
		n++;
	}
	return n;
}

/*
 * @p is alive as far as the fabric knows: its host is attached and the
 * fabric still holds a worm of its (queued at its router or on the way).
 * Its silence toward the data path is then the fabric's backlog (a slow
 * model, a full worm pool), not @p's death.
 */
static bool irsim_peer_heard(struct mcast_net *mn, const struct mcast_peer *p,
			     unsigned long since)
{
	bool heard = false;
	u32 w;

	mutex_lock(&irsim.lock);
	if (irsim.up && p->id < irsim.f.t.nodes && irsim_host_of(p->id)) {
		for (w = 0; w < irsim.cfg.max_worms && !heard; w++)
			heard = irsim.f.worm[w].state != MC_FAB_FREE &&
				irsim.f.worm[w].src == p->id;
	}
	mutex_unlock(&irsim.lock);
	return heard;
}

static struct mcast_transport_ops irsim_transport = {
	.name = "irsim",
	.owner = THIS_MODULE,
	.caps = MCAST_TP_CAP_IR,
	.max_payload = IRSIM_PAYLOAD,
	.max_worm_dests = IRSIM_WORM_DESTS,
	.max_worm_hdr = IRSIM_WORM_HDR,
	.open = irsim_open,
	.close = irsim_close,
	.xmit = irsim_xmit,
	.xmit_worm = irsim_xmit_worm,
	.rx = irsim_rx,
	.peer_heard = irsim_peer_heard,
};

int irsim_set_worm_limits(u32 dests, u32 hdr)
{
	if (!dests || dests > IRSIM_WORM_DESTS || !hdr || hdr > IRSIM_WORM_HDR)
		return -EINVAL;
	WRITE_ONCE(irsim_transport.max_worm_dests, dests);
	WRITE_ONCE(irsim_transport.max_worm_hdr, hdr);
	return 0;
}

void irsim_worm_limits(u32 *dests, u32 *hdr)
{
	*dests = READ_ONCE(irsim_transport.max_worm_dests);
	*hdr = READ_ONCE(irsim_transport.max_worm_hdr);
}

int irsim_start(void)
{
	int err;

	mutex_init(&irsim.lock);
	INIT_LIST_HEAD(&irsim.hosts);
	init_waitqueue_head(&irsim.wq);
	irsim.thread = kthread_run(irsim_thread, NULL, "mcast_irsim");
	if (IS_ERR(irsim.thread))
		return PTR_ERR(irsim.thread);
	err = mcast_transport_register(&irsim_transport);
	if (err)
		kthread_stop(irsim.thread);
	return err;
}

void irsim_stop(void)
{
	/* No node uses the transport: it pins this module while one does. */
	mcast_transport_unregister(&irsim_transport);
	kthread_stop(irsim.thread);
	mutex_lock(&irsim.lock);
	if (irsim.up)
		irsim_fabric_free();
	mutex_unlock(&irsim.lock);
	irsim_trace_set(false);
}
