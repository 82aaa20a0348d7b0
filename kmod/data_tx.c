// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Sending a transfer (one hop: this node sending a job's message to the
 * head of a piece): its creation, the framing of its fragments, the
 * windows that let them out (the transfer's and the node's congestion
 * window) as the message arrives (cut-through), bursts, and the RTO.
 *
 * Worms (Robinson (1994), ch. 6): the transfers to the destinations of one
 * worm share its compound piece table, so their fragments carry the same
 * bytes; a fragment that all of them have due goes out once, as a worm
 * through ->xmit_worm, every destination taking its copy as it passes;
 * one that only some need (a loss, a full window) goes to each of those
 * by itself.  A worm cut short by a failed link, or a copy a host missed,
 * thus costs a retransmission, never a message.
 */
#include <linux/bitmap.h>
#include <linux/jiffies.h>
#include <linux/ktime.h>
#include <linux/mm.h>
#include <linux/slab.h>

#include "chain.h"
#include "data.h"
#include "msg.h"
#include "compat.h"
#include "notify.h"
#include "schedule.h"
#include "trace.h"

static u32 mcast_tx_frag_hdr(struct mcast_net *mn, struct mcast_tx *tx,
			     u32 i, struct mcw_hdr *h, u8 flags)
{
	struct mcast_job *job = tx->job;
	u32 fs = mcast_frag_size(mn);
	u32 off = i * fs, end = min(tx->total, off + fs);

	mcw_init(h, mn, MCW_DATA, job->src, tx->xid, job->seq);
	h->flags |= flags;
	if (tx->rb) {
		h->flags |= MCW_F_RB;
	} else {
		h->flags |= job->algo << MCW_F_ALGO_SHIFT |
			    (tx->chain ? MCW_F_CHAIN : 0);
		h->pad = job->algo == MC_ALGO_MUTORUS ||
			 job->algo == MC_ALGO_CUBE ? job->r : 0;
	}
	h->group = cpu_to_be32(job->group);
	h->step = cpu_to_be32(tx->step);
	h->msg_len = cpu_to_be32(mcast_tx_body_len(tx));
	h->count = cpu_to_be32(tx->plen / MCW_ENTRY);
	h->frag = cpu_to_be32(i);
	h->cum = cpu_to_be32(tx->child_inc);
	if (!tx->child_inc && i < tx->sent)
		h->flags |= MCW_F_AGAIN;
	return end - off;
}

/*
 * Fills @h (with @flags), @v (*@nv of them so far: up to 4 more) and
 * @trailer for fragment @i of @tx, sealed; returns the datagram's bytes.
 */
static size_t mcast_tx_frag_vec(struct mcast_net *mn, struct mcast_tx *tx,
				u32 i, struct mcw_hdr *h, struct kvec *v,
				size_t *nv, u8 *trailer, u8 flags)
{
	u32 off = i * mcast_frag_size(mn);
	u32 end = off + mcast_tx_frag_hdr(mn, tx, i, h, flags);
	size_t first = *nv, n;

	v[(*nv)++] = (struct kvec){ h, sizeof(*h) };
	if (off < tx->plen)
		v[(*nv)++] = (struct kvec){ tx->pbuf + off,
					    min(end, tx->plen) - off };
	if (end > tx->plen) {
		u32 d0 = max(off, tx->plen) - tx->plen;

		v[(*nv)++] = (struct kvec){ mcast_tx_body(tx) + d0,
					    end - tx->plen - d0 };
	}
	n = *nv - first;
	end += mcast_seal(mn, tx->to, v + first, &n, trailer);
	*nv = first + n;
	return sizeof(*h) + end - off;
}

static void mcast_tx_send_flagged(struct mcast_net *mn, struct mcast_tx *tx,
				  u32 i, u8 flags)
{
	u8 trailer[MCW_AUTH_LEN];
	struct mcw_hdr h;
	struct kvec v[4];
	size_t nv = 0;
	size_t len = mcast_tx_frag_vec(mn, tx, i, &h, v, &nv, trailer, flags);

	if (mcast_xmit_sealed(mn, tx->to, v, nv, len))
		tx->lost = true;
}

void mcast_tx_send_frag(struct mcast_net *mn, struct mcast_tx *tx, u32 i)
{
	mcast_tx_send_flagged(mn, tx, i, 0);
}

void mcast_tx_send_probe(struct mcast_net *mn, struct mcast_tx *tx, u32 i)
{
	mcast_tx_send_flagged(mn, tx, i, MCW_F_PROBE);
}

/*
 * Fragments @first to @first + @n - 1 of @tx in one ->xmit(): all but the
 * last of the message are max_payload datagrams, so a transport with
 * bursts (UDP GSO) sends them in one trip down the stack.
 */
static void mcast_tx_send_burst(struct mcast_net *mn, struct mcast_tx *tx,
				u32 first, u32 n)
{
	struct mcast_burst *b = mn->burst;
	size_t nv = 0, len = 0;
	u32 k;

	if (n == 1 || !b) {
		for (k = 0; k < n; k++)
			mcast_tx_send_frag(mn, tx, first + k);
		return;
	}
	for (k = 0; k < n; k++)
		len += mcast_tx_frag_vec(mn, tx, first + k, &b->hdr[k],
					 b->vec, &nv, b->trailer[k], 0);
	if (mcast_xmit_sealed(mn, tx->to, b->vec, nv, len))
		tx->lost = true;
}

/*
 * The transport dropped what it had taken for @peer (a broken TCP
 * connection): the next timeout of every transfer to it resends.
 */
void mcast_data_peer_lost(struct mcast_net *mn, u32 peer)
{
	struct mcast_tx *tx;
	unsigned long id;

	lockdep_assert_held(&mn->lock);
	xa_for_each(&mn->txs, id, tx)
		if (tx->to == peer)
			tx->lost = true;
}
EXPORT_SYMBOL_GPL(mcast_data_peer_lost);

/*
 * Message bytes this node holds from the start, in its message (the
 * fragments below merged: data_rx.c): all once it has them all.
 */
static u32 mcast_job_held(struct mcast_net *mn, const struct mcast_job *job)
{
	u64 got, piece = (u64)job->count * MCW_ENTRY;	/* as received */

	if (job->state != JOB_RX)
		return job->msg_len;
	got = min_t(u64, (u64)job->merged * mcast_frag_size(mn), job->total);
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
	u32 held;

	if (tx->data)		/* a body of its own, all here */
		return tx->nfrags;
	held = mcast_job_held(mn, tx->job);
	if (held == tx->job->msg_len)
		return tx->nfrags;
	return (tx->plen + held) / mcast_frag_size(mn);
}

/*
 * Congestion control, node-wide: all transfers of the node together keep
 * at most cwnd fragments unacknowledged (a burst to many children at once
 * must not overrun the links and queues it shares), growing it per
 * acknowledged fragment (doubling per round trip up to ssthresh, then one
 * per window) and halving it on a timeout or a fast retransmission.
 * Every transfer may keep MCAST_TX_FLOOR fragments out whatever the
 * window, so none waits for another's acknowledgements (which could
 * depend on it).
 */
static bool mcast_tx_may_send(struct mcast_net *mn, const struct mcast_tx *tx)
{
	u32 out = tx->next - tx->nacked;

	/*
	 * Nothing past cum + MCAST_WIN: an ACK reports the 64 fragments from
	 * cum on, so what went further could not be acknowledged until the
	 * gap closed, and a timeout would resend what arrived.
	 */
	return tx->next - tx->cum < MCAST_WIN &&
	       (out < MCAST_TX_FLOOR || mn->tx_out < mn->cwnd);
}

/* Fragments one ->xmit() may carry; the scratch for them on first use. */
static u32 mcast_burst_max(struct mcast_net *mn)
{
	if (mn->tp->max_burst <= 1)
		return 1;
	if (!mn->burst)
		mn->burst = kmalloc(sizeof(*mn->burst), MCAST_GFP);
	return mn->burst ? min_t(u32, mn->tp->max_burst, MCAST_BURST_MAX) : 1;
}

/* A worm's completion names its first transfer and its fragment. */
#define MCAST_WORM_COOKIE_F	BIT_ULL(31)	/* 0 is no cookie */

static u64 mcast_worm_cookie(u32 xid, u32 frag)
{
	return (u64)xid << 32 | MCAST_WORM_COOKIE_F | frag;
}

void mcast_data_worm_end(struct mcast_net *mn, u64 cookie, const u32 *to,
			 u32 n, u32 reached, const unsigned long *missed)
{
	struct mcast_tx *tx = xa_load(&mn->txs, cookie >> 32), *s;
	u32 j = cookie & (MCAST_WORM_COOKIE_F - 1), i, k;

	lockdep_assert_held(&mn->lock);
	if (!(cookie & MCAST_WORM_COOKIE_F) || !tx || !tx->worm)
		return;		/* over; the others' timeouts cover them */
	trace_mcast_worm_end(mn, tx, j, n, reached, missed);
	for (i = 0; i < n; i++) {
		if (i < reached && !test_bit(i, missed))
			continue;
		for (k = 0; k < tx->worm->n; k++) {
			s = tx->worm->tx[k];
			if (s && s->to == to[i])
				break;
		}
		/* still due there: not acknowledged, and sent before */
		if (k == tx->worm->n || j >= s->next || test_bit(j, s->acked))
			continue;
		if (j == s->rtt_frag)
			s->rtt_frag = U32_MAX;	/* Karn */
		mcast_tx_send_frag(mn, s, j);
		atomic64_inc(&mn->stats.retrans);
		atomic64_inc(&mn->stats.worm_resends);
		trace_mcast_retransmit(mn, s, j, 1, MCAST_RTX_WORM);
	}
}
EXPORT_SYMBOL_GPL(mcast_data_worm_end);

/*
 * Fragment @j to the @k transfers in w->sel (in visiting order), as one
 * worm: the body is the same for all, each gets its own header (its xid,
 * the child's incarnation) and, with a cluster key, its own trailer.
 */
static void mcast_worm_send(struct mcast_net *mn, struct mcast_worm *w,
			    u32 k, u32 j)
{
	struct mcast_tx *t0 = w->sel[0];
	u32 off = j * mcast_frag_size(mn);
	u32 end = off + mcast_tx_frag_hdr(mn, t0, j, &w->hdr[0], 0);
	struct mcast_worm_desc desc = {
		.n = k, .to = w->to, .head = w->head, .tail = w->tail,
		.blen = end - off, .cookie = mcast_worm_cookie(t0->xid, j),
	};
	struct kvec body[2], v[4];
	size_t nb = 0, nv, i;

	if (off < w->plen)
		body[nb++] = (struct kvec){ w->pbuf + off,
					    min(end, w->plen) - off };
	if (end > w->plen) {
		u32 d0 = max(off, w->plen) - w->plen;

		body[nb++] = (struct kvec){ mcast_tx_body(t0) + d0,
					    end - w->plen - d0 };
	}
	desc.body = body;
	desc.nbody = nb;
	for (i = 0; i < k; i++) {
		mcast_tx_frag_hdr(mn, w->sel[i], j, &w->hdr[i], 0);
		w->to[i] = w->sel[i]->to;
		w->head[i] = (struct kvec){ &w->hdr[i], sizeof(w->hdr[i]) };
		w->tail[i] = (struct kvec){ NULL, 0 };
		v[0] = w->head[i];
		memcpy(v + 1, body, nb * sizeof(*body));
		nv = 1 + nb;
		if (mcast_seal(mn, w->to[i], v, &nv, w->trailer[i]))
			w->tail[i] = v[nv - 1];
	}
	if (mn->tp->xmit_worm(mn, &desc)) {
		for (i = 0; i < k; i++)
			w->sel[i]->lost = true;	/* a timeout resends */
		return;
	}
	atomic64_inc(&mn->stats.worms);
	atomic64_add(k, &mn->stats.worm_dests);
	atomic64_add(k, &mn->stats.tx_packets);
}

/*
 * The transfers of @tx's worm that may send fragment @j now, @tx first
 * among equals: in visiting order, into w->sel.
 */
static u32 mcast_worm_select(struct mcast_net *mn, struct mcast_tx *tx,
			     u32 j)
{
	struct mcast_worm *w = tx->worm;
	u32 i, k = 0;

	if (!mn->tp->xmit_worm) {
		w->sel[k++] = tx;
		return k;
	}
	for (i = 0; i < w->n; i++) {
		struct mcast_tx *s = w->tx[i];

		if (s && (s == tx || (s->active && s->next == j &&
				      mcast_tx_ready(mn, s) > j &&
				      mcast_tx_may_send(mn, s))))
			w->sel[k++] = s;
	}
	return k;
}

static void mcast_worm_pump(struct mcast_net *mn, struct mcast_tx *tx)
{
	u32 ready = mcast_tx_ready(mn, tx);

	while (tx->next < ready && mcast_tx_may_send(mn, tx)) {
		u32 j = tx->next, k = mcast_worm_select(mn, tx, j), i;

		for (i = 0; i < k; i++) {
			struct mcast_tx *s = tx->worm->sel[i];

			if (s->rtt_frag == U32_MAX) {
				s->rtt_frag = j;
				s->rtt_sent = ktime_get();
			}
			mn->tx_out++;
			s->next++;
		}
		if (k == 1)
			mcast_tx_send_frag(mn, tx, j);
		else
			mcast_worm_send(mn, tx->worm, k, j);
		for (i = 0; i < k; i++)
			tx->worm->sel[i]->sent = max(tx->worm->sel[i]->sent,
						     j + 1);
	}
}

void mcast_tx_pump(struct mcast_net *mn, struct mcast_tx *tx)
{
	u32 ready, max;

	if (tx->worm) {
		mcast_worm_pump(mn, tx);
		return;
	}
	ready = mcast_tx_ready(mn, tx);
	max = mcast_burst_max(mn);
	while (tx->next < ready && mcast_tx_may_send(mn, tx)) {
		u32 first = tx->next;

		if (tx->rtt_frag == U32_MAX) {
			tx->rtt_frag = tx->next;
			tx->rtt_sent = ktime_get();
		}
		do {
			mn->tx_out++;
			tx->next++;
		} while (tx->next - first < max && tx->next < ready &&
			 mcast_tx_may_send(mn, tx));
		mcast_tx_send_burst(mn, tx, first, tx->next - first);
		tx->sent = max(tx->sent, tx->next);
	}
}

unsigned long mcast_rto_base(struct mcast_net *mn, u32 to)
{
	struct mcast_peer *p = xa_load(&mn->peers, to);
	u32 ms = mn->rto_ms;

	if (p && p->srtt_us)
		ms = max(ms, (p->srtt_us + 4 * p->rttvar_us) / 1000 + 1);
	if (p)
		ms = max(ms, p->rto_held_ms);
	return msecs_to_jiffies(min_t(u32, ms, MCAST_RTO_BASE_MAX_MS));
}

void mcast_tx_progress(struct mcast_net *mn, struct mcast_tx *tx)
{
	tx->tries = 0;
	tx->rto = mcast_rto_base(mn, tx->to);
	tx->deadline = jiffies + tx->rto;
}

void mcast_piece_put(u8 *buf, const u32 *nodes, const u64 *prevs, u32 len,
		     bool head, u8 level)
{
	u32 i, id;

	for (i = 0; i < len; i++) {
		id = nodes[i];
		if (!i && head)
			id |= MCW_E_HEAD | (u32)level << MCW_E_LEVEL_SHIFT;
		put_unaligned_be32(id, buf + i * MCW_ENTRY);
		put_unaligned_be64(prevs[i], buf + i * MCW_ENTRY + 4);
	}
}

/* @tx's own piece table, for a transfer that is not part of a worm. */
static int mcast_tx_own_pbuf(struct mcast_tx *tx)
{
	u8 algo = tx->job->algo;

	tx->plen = tx->len * MCW_ENTRY;
	tx->pbuf = kvmalloc(tx->plen, MCAST_GFP);
	if (!tx->pbuf)
		return -ENOMEM;
	mcast_piece_put(tx->pbuf, tx->nodes, tx->prevs, tx->len,
			mc_algo_is_path_based(algo), tx->level);
	return 0;
}

/* Sizes @tx by its piece table; 0 or -ENOMEM. */
static int mcast_tx_size(struct mcast_net *mn, struct mcast_tx *tx)
{
	tx->total = tx->plen + mcast_tx_body_len(tx);
	tx->nfrags = max(1U, DIV_ROUND_UP(tx->total, mcast_frag_size(mn)));
	tx->acked = kvcalloc(BITS_TO_LONGS(tx->nfrags), sizeof(long),
			     MCAST_GFP);
	return tx->acked ? 0 : -ENOMEM;
}

int mcast_tx_set_body(struct mcast_net *mn, struct mcast_tx *tx, u8 *pbuf,
		      u32 plen, u8 *data, u32 dlen, bool own)
{
	if (!pbuf || !data) {
		kvfree(pbuf);
		if (own)
			kvfree(data);
		return -ENOMEM;
	}
	tx->data_own = own;
	kvfree(tx->pbuf);
	kvfree(tx->acked);
	tx->pbuf = pbuf;
	tx->plen = plen;
	tx->data = data;
	tx->dlen = dlen;
	return mcast_tx_size(mn, tx);
}

struct mcast_tx *mcast_tx_new(struct mcast_net *mn, struct mcast_job *job,
			      const struct mcast_peer *p, const u32 *nodes,
			      const u64 *prevs, u32 len, u8 level, u32 step,
			      struct mcast_worm *worm)
{
	struct mcast_tx *tx;
	u32 i;
	int err;

	tx = mcast_obj_zalloc(sizeof(*tx), MCAST_OBJ_TX);
	if (!tx)
		goto nomem;
	tx->job = job;
	tx->to = nodes[0];
	tx->len = len;
	tx->level = level;
	tx->step = step;
	tx->rtt_frag = U32_MAX;
	tx->born = jiffies;
	tx->nodes = kvmalloc_array(len, sizeof(u32), MCAST_GFP);
	tx->prevs = kvmalloc_array(len, sizeof(u64), MCAST_GFP);
	if (!tx->nodes || !tx->prevs)
		goto nomem_tx;
	memcpy(tx->nodes, nodes, len * sizeof(u32));
	memcpy(tx->prevs, prevs, len * sizeof(u64));
	if (worm) {
		tx->pbuf = worm->pbuf;
		tx->plen = worm->plen;
	} else if (mcast_tx_own_pbuf(tx)) {
		goto nomem_tx;
	}
	if (mcast_tx_size(mn, tx))
		goto nomem_tx;
	tx->max_tries = mn->retries;
	tx->born_down = p->down;
	err = xa_alloc_cyclic(&mn->txs, &tx->xid, tx, XA_LIMIT(1, U32_MAX),
			      &mn->next_xid, MCAST_GFP);
	if (err < 0)
		goto nomem_tx;
	tx->worm = worm;
	list_add_tail(&tx->link, &job->txs);
	job->pending++;
	if (!job->root)
		atomic64_inc(&mn->stats.fwd_msgs);
	trace_mcast_forward(mn, tx);
	return tx;

nomem_tx:
	kvfree(tx->nodes);
	kvfree(tx->prevs);
	if (!worm)
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
	return NULL;
}

void mcast_tx_go(struct mcast_net *mn, struct mcast_tx *tx, bool pump)
{
	struct mcast_peer *p = xa_load(&mn->peers, tx->to);

	if (!p || p->tx_active >= MCAST_PEER_TXS) {
		tx->queued = true;	/* the timer starts it when there is room */
	} else {
		p->tx_active++;
		tx->active = true;
		mcast_tx_progress(mn, tx);
		if (pump)
			mcast_tx_pump(mn, tx);
	}
	mcast_arm(mn);
}
