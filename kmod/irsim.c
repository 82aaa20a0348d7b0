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

/*
 * A datagram on its way: the worm's cookie until it is handed to a host
 * (then the host's: its receive work frees it, at any time, so the worm's
 * cookie is cleared first).  The model reads the worm's destination list
 * and path until the worm ends: they are the route's, freed then.
 */
struct irsim_pkt {
	struct list_head link;
	u32 src;			/* sender's node id */
	u32 dest;			/* the worm's one destination */
	u32 len;
	u8 data[];
};

/* What the model holds of a worm until its end: its list and its path. */
struct irsim_route {
	u32 dest;
	struct mc_fab_hop hop[];
};

struct irsim irsim;

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

static void irsim_deliver(void *ctx, struct mc_fabric *f, u32 w, u32 i,
			  enum mc_fab_copy copy, u64 t)
{
	struct irsim_pkt *pkt = (void *)(uintptr_t)f->worm[w].cookie;
	struct irsim_host *h;

	if (copy != MC_FAB_COPY_OK || !pkt)
		return;
	h = irsim_host_of(pkt->dest);
	if (!h) {
		irsim.c.rx_no_host++;
		return;
	}
	spin_lock(&h->lock);
	if (h->qlen >= IRSIM_RXQ_MAX) {
		spin_unlock(&h->lock);
		irsim.c.rx_overflow++;
		return;
	}
	f->worm[w].cookie = 0;		/* the host's from here on */
	list_add_tail(&pkt->link, &h->rxq);
	h->qlen++;
	spin_unlock(&h->lock);
	mcast_data_kick(h->mn);
}

/* The worm ended: its path goes, and its datagram if no host took it. */
static void irsim_done(void *ctx, struct mc_fabric *f, u32 w, int err, u64 t)
{
	if (err)
		irsim.c.lost++;
	kfree(container_of(f->worm[w].dest, struct irsim_route, dest));
	kfree((void *)(uintptr_t)f->worm[w].cookie);
}

/* A check of the model fired: the log, and the worm's sender's event. */
static void irsim_alarm(void *ctx, struct mc_fabric *f, u32 w, int err,
			const char *what)
{
	struct irsim_pkt *pkt = (void *)(uintptr_t)f->worm[w].cookie;
	struct irsim_host *h;

	if (!pkt)
		return;
	h = irsim_host_of(pkt->src);
	pr_info_ratelimited("worm %u from node %u: %s\n", w, pkt->src, what);
	if (h)
		mcast_notify_fabric(h->mn, pkt->src, -err, what);
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

static int irsim_xmit(struct mcast_net *mn, const struct mcast_peer *p,
		      struct kvec *vec, size_t nvec, size_t len)
{
	struct irsim_route *route = NULL;
	struct irsim_pkt *pkt;
	const char *why = NULL;
	size_t off = 0, i;
	u32 npath, flits;
	int w;

	if (len > IRSIM_PAYLOAD)
		return -EMSGSIZE;
	pkt = kmalloc(struct_size(pkt, data, len), GFP_KERNEL_ACCOUNT);
	if (!pkt)
		return -ENOBUFS;
	for (i = 0; i < nvec; i++) {
		memcpy(pkt->data + off, vec[i].iov_base, vec[i].iov_len);
		off += vec[i].iov_len;
	}
	pkt->src = mn->node_id;
	pkt->dest = p->id;
	pkt->len = len;
	mutex_lock(&irsim.lock);
	w = -ENODEV;
	if (!irsim.up || !irsim_same_shape(&mn->torus, &irsim.f.t))
		goto fail;
	npath = mc_fab_path_len(&irsim.f.t, pkt->src, &pkt->dest, 1, &why);
	w = -EINVAL;
	if (!npath)
		goto fail;
	w = -ENOBUFS;
	route = kmalloc(struct_size(route, hop, npath), GFP_KERNEL_ACCOUNT);
	if (!route)
		goto fail;
	route->dest = pkt->dest;
	flits = IRSIM_HDR_FLITS + DIV_ROUND_UP(len, irsim.flit_bytes);
	/* paced, a worm starts when the wall clock says, not at the
	 * model's last event
	 */
	w = mc_fab_send(&irsim.f, pkt->src, &route->dest, 1, flits,
			route->hop, npath, irsim_start_time(),
			(u64)(uintptr_t)pkt, &why);
	if (w == -ENOSPC) {
		irsim.c.tx_busy++;
		w = -EAGAIN;	/* the worm pool is full: the caller retries */
	}
	if (w < 0)
		goto fail;
	irsim.c.tx++;
	mutex_unlock(&irsim.lock);
	irsim_wake();
	return 0;
fail:
	mutex_unlock(&irsim.lock);
	kfree(route);
	kfree(pkt);
	return w;
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
		if (irsim_peer_sa(mn, pkt->src, &sa)) {
			mcast_data_rx(mn, &sa, pkt->data, pkt->len);
			atomic64_inc(&irsim.c.rx);
		} else {
			atomic64_inc(&irsim.c.rx_no_peer);
		}
		kfree(pkt);
		n++;
	}
	return n;
}

static struct mcast_transport_ops irsim_transport = {
	.name = "irsim",
	.owner = THIS_MODULE,
	.caps = MCAST_TP_CAP_IR,
	.max_payload = IRSIM_PAYLOAD,
	.open = irsim_open,
	.close = irsim_close,
	.xmit = irsim_xmit,
	.rx = irsim_rx,
};

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
}
