// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The TCP transport, after RDS-TCP: kernel TCP sockets between nodes, so
 * loss recovery on the link, congestion control, segmentation offload and
 * GRO come from the kernel's TCP, and a datagram can be 64 KiB (46 times
 * UDP's), which divides the data path's per-fragment work as much.
 *
 * Each node listens on its port (IPv6 wildcard, IPv4 mapped) and opens one
 * connection to each peer it sends to, on first use.  A connection carries
 * frames one way only (a node reads the connections it accepted), so two
 * nodes that start at once cannot race to connect.  Every datagram names
 * its sender; a connection is accepted only from a peer's address, and
 * the data path checks each datagram's sender against that address (an
 * outgoing connection's port is any, so not the port).  A frame is a be32
 * length, then the datagram.
 *
 * Sending never blocks: a frame the socket cannot take now (connecting,
 * send buffer full, or taken only in part) waits in the connection's queue,
 * up to MCAST_TCP_QUEUE bytes, and goes out from the receive work when the
 * socket has room; past that, xmit says -ENOBUFS and the data path's
 * retransmission sends it later.  A connection that fails is dropped and
 * made again at the next send; the data path's own timeouts find a dead
 * peer, and TCP_USER_TIMEOUT and keepalive bound how long TCP holds on.
 * Sockets close with linger 0 (a reset): nothing outlives the node, not
 * even TIME_WAIT.
 *
 * An accepted connection is taken before anything on it is authenticated,
 * so what a host can hold is bounded (docs/transports.md, "Connections"):
 * MCAST_TCP_PER_NODE per node at its address and MCAST_TCP_MAX_IN in all,
 * a new connection past either closing the one least likely to be a
 * peer's (one that never sent a believed frame, the oldest first; else
 * the one silent longest), so a forger cannot keep a real peer out; one
 * that sends no frame the data path believes within tcp_auth_ms, or none
 * for tcp_idle_ms, is closed, and so is one whose frame fails a check.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/in6.h>
#include <linux/mm.h>
#include <linux/net.h>
#include <linux/slab.h>
#include <linux/tcp.h>
#include <net/ipv6.h>
#include <net/sock.h>
#include <net/tcp.h>

#include "net.h"
#include "obj.h"
#include "compat.h"
#include "transport.h"

#define MCAST_TCP_PAYLOAD	(64u << 10)
#define MCAST_TCP_QUEUE		(4u << 20)	/* bytes waiting per connection */
#define MCAST_TCP_MAX_IN	1024		/* accepted connections */
#define MCAST_TCP_PER_NODE	4		/* ... per node at an address */
#define MCAST_TCP_ACCEPTS	64		/* per receive work run */
#define MCAST_TCP_BACKLOG	256
#define MCAST_TCP_USER_TIMEOUT	10000		/* ms */
#define MCAST_TCP_KEEPIDLE	10		/* s */
#define MCAST_TCP_KEEPINTVL	2
#define MCAST_TCP_KEEPCNT	3

/*
 * A peer's real connection sends its first frame as soon as it is up (it
 * is made for one), and TCP gives up on a frame unacknowledged for
 * MCAST_TCP_USER_TIMEOUT: one with nothing believed by then is no peer's.
 */
static unsigned int tcp_auth_ms = MCAST_TCP_USER_TIMEOUT;
module_param(tcp_auth_ms, uint, 0644);
MODULE_PARM_DESC(tcp_auth_ms,
		 "close an accepted TCP connection that sent no frame the node believed (authenticated, with a key) within this many ms (default 10000, at least 100)");

/*
 * A transfer in either direction has its peer send at least every RTO
 * (MCAST_RTO_BASE_MAX_MS at most); a connection silent this long is not
 * in use, and the peer makes a new one at its next send.
 */
static unsigned int tcp_idle_ms = 60000;
module_param(tcp_idle_ms, uint, 0644);
MODULE_PARM_DESC(tcp_idle_ms,
		 "close an accepted TCP connection that sent no frame for this many ms (default 60000, at least 100)");

enum mcast_tcp_kind { TCP_LISTENER, TCP_IN, TCP_OUT };

/* A frame (or its rest) waiting for room in a connection's socket. */
struct mcast_tcp_frame {
	struct list_head link;
	u32 len, off;
	u8 data[];
};

struct mcast_tcp_conn {
	struct mcast_tcp *t;
	enum mcast_tcp_kind kind;
	struct socket *sock;
	struct list_head ready;		/* in t->ready: the callbacks fired */
	bool on_ready;
	void (*saved_data_ready)(struct sock *sk);
	void (*saved_state_change)(struct sock *sk);
	void (*saved_write_space)(struct sock *sk);
	/* TCP_OUT: to whom, where, and what waits to go */
	u32 peer;
	struct sockaddr_in6 to;
	struct list_head queue;		/* struct mcast_tcp_frame */
	u32 queued;
	/* TCP_IN: whence (the address, port 0), the frame being read */
	struct sockaddr_in6 from;
	struct list_head in_link;	/* in t->in, oldest first */
	unsigned long since;		/* jiffies: accepted */
	unsigned long last;		/* ... its last frame believed */
	bool believed;			/* one was: a peer's connection */
	u8 lenbuf[4];
	u32 lgot, flen, fgot;
	u8 *fbuf;			/* only while a frame is read in parts */
};

struct mcast_tcp {
	struct mcast_net *mn;
	struct mcast_tcp_conn *listener;
	struct xarray out;		/* peer id -> TCP_OUT connection */
	struct list_head in;		/* TCP_IN connections */
	u32 nin;
	struct timer_list sweep;	/* kicks the receive work to ... */
	unsigned long next_sweep;	/* ... close those past a deadline */
	spinlock_t lock;		/* ready, on_ready */
	struct list_head ready;
	u8 *rxbuf;			/* a frame read whole */
};

/* ---------------------------------------------------------- callbacks */

/* From a socket callback: the receive work should look at @c. */
static void mcast_tcp_mark(struct mcast_tcp_conn *c)
{
	struct mcast_tcp *t = c->t;
	unsigned long flags;

	spin_lock_irqsave(&t->lock, flags);
	if (!c->on_ready) {
		c->on_ready = true;
		list_add_tail(&c->ready, &t->ready);
	}
	spin_unlock_irqrestore(&t->lock, flags);
	mcast_data_kick(t->mn);
}

static void mcast_tcp_event(struct sock *sk)
{
	struct mcast_tcp_conn *c;

	read_lock_bh(&sk->sk_callback_lock);
	c = sk->sk_user_data;
	if (c)
		mcast_tcp_mark(c);
	read_unlock_bh(&sk->sk_callback_lock);
}

/*
 * A connection waits to be accepted.  Children inherit the listener's
 * callbacks and user data until they are accepted: those calls are not
 * the listener's, and must not touch its state.
 */
static void mcast_tcp_listen_ready(struct sock *sk)
{
	if (sk->sk_state == TCP_LISTEN)
		mcast_tcp_event(sk);
}

static void mcast_tcp_write_space(struct sock *sk)
{
	if (sk->sk_socket && sk_stream_is_writeable(sk)) {
		clear_bit(SOCK_NOSPACE, &sk->sk_socket->flags);
		mcast_tcp_event(sk);
	}
}

static void mcast_tcp_hook(struct mcast_tcp_conn *c)
{
	struct sock *sk = c->sock->sk;

	write_lock_bh(&sk->sk_callback_lock);
	sk->sk_user_data = c;
	switch (c->kind) {
	case TCP_LISTENER:
		sk->sk_data_ready = mcast_tcp_listen_ready;
		break;
	case TCP_IN:
		sk->sk_data_ready = mcast_tcp_event;
		sk->sk_state_change = mcast_tcp_event;
		break;
	case TCP_OUT:
		sk->sk_state_change = mcast_tcp_event;
		sk->sk_write_space = mcast_tcp_write_space;
		break;
	}
	write_unlock_bh(&sk->sk_callback_lock);
}

/* ---------------------------------------------------------- connections */

static void mcast_tcp_sock_opts(struct sock *sk)
{
	tcp_sock_set_nodelay(sk);
	tcp_sock_set_user_timeout(sk, MCAST_TCP_USER_TIMEOUT);
	sock_set_keepalive(sk);
	tcp_sock_set_keepidle(sk, MCAST_TCP_KEEPIDLE);
	tcp_sock_set_keepintvl(sk, MCAST_TCP_KEEPINTVL);
	tcp_sock_set_keepcnt(sk, MCAST_TCP_KEEPCNT);
}

static struct mcast_tcp_conn *mcast_tcp_conn_new(struct mcast_tcp *t,
						 enum mcast_tcp_kind kind,
						 struct socket *sock)
{
	struct mcast_tcp_conn *c = kzalloc(sizeof(*c), MCAST_GFP);
	struct sock *sk = sock->sk;

	if (!c)
		return NULL;
	c->t = t;
	c->kind = kind;
	c->sock = sock;
	INIT_LIST_HEAD(&c->ready);
	INIT_LIST_HEAD(&c->queue);
	INIT_LIST_HEAD(&c->in_link);
	if (kind == TCP_IN) {
		/* what it inherited is the listener's: restore TCP's own */
		c->saved_data_ready = t->listener->saved_data_ready;
		c->saved_state_change = t->listener->saved_state_change;
		c->saved_write_space = t->listener->saved_write_space;
	} else {
		c->saved_data_ready = sk->sk_data_ready;
		c->saved_state_change = sk->sk_state_change;
		c->saved_write_space = sk->sk_write_space;
	}
	return c;
}

static void mcast_tcp_conn_free(struct mcast_tcp_conn *c)
{
	struct mcast_tcp *t = c->t;
	struct sock *sk = c->sock->sk;
	struct mcast_tcp_frame *f, *tmp;

	write_lock_bh(&sk->sk_callback_lock);
	sk->sk_user_data = NULL;
	sk->sk_data_ready = c->saved_data_ready;
	sk->sk_state_change = c->saved_state_change;
	sk->sk_write_space = c->saved_write_space;
	write_unlock_bh(&sk->sk_callback_lock);
	spin_lock_bh(&t->lock);
	if (c->on_ready)
		list_del(&c->ready);
	spin_unlock_bh(&t->lock);
	if (c->kind == TCP_IN) {
		list_del(&c->in_link);
		t->mn->tp_conns = --t->nin;
	}
	sock_no_linger(sk);
	sock_release(c->sock);
	list_for_each_entry_safe(f, tmp, &c->queue, link)
		kvfree(f);
	kvfree(c->fbuf);
	kfree(c);
}

/* Frames it took may be lost with it: the data path resends them. */
static void mcast_tcp_out_drop(struct mcast_tcp *t, struct mcast_tcp_conn *c)
{
	u32 peer = c->peer;

	xa_erase(&t->out, peer);
	mcast_tcp_conn_free(c);
	if (t->mn->tp_priv)
		mcast_data_peer_lost(t->mn, peer);
}

static void mcast_tcp_peer_addr(const struct mcast_peer *p,
				struct sockaddr_in6 *sa)
{
	memset(sa, 0, sizeof(*sa));
	sa->sin6_family = AF_INET6;
	sa->sin6_port = htons(p->port);
	if (p->ipv6)
		sa->sin6_addr = p->addr.v6;
	else
		ipv6_addr_set_v4mapped(p->addr.v4, &sa->sin6_addr);
}

/* Starts a connection to @p, without waiting for it. */
static struct mcast_tcp_conn *mcast_tcp_connect(struct mcast_tcp *t,
						const struct mcast_peer *p)
{
	struct mcast_tcp_conn *c;
	struct socket *sock;
	int err;

	err = sock_create_kern(t->mn->net, AF_INET6, SOCK_STREAM, IPPROTO_TCP,
			       &sock);
	if (err)
		return ERR_PTR(err);
	sock->sk->sk_ipv6only = false;
	mcast_tcp_sock_opts(sock->sk);
	c = mcast_tcp_conn_new(t, TCP_OUT, sock);
	if (!c) {
		sock_release(sock);
		return ERR_PTR(-ENOMEM);
	}
	c->peer = p->id;
	mcast_tcp_peer_addr(p, &c->to);
	err = xa_err(xa_store(&t->out, p->id, c, MCAST_GFP));
	if (err) {
		mcast_tcp_conn_free(c);
		return ERR_PTR(err);
	}
	mcast_tcp_hook(c);
	err = kernel_connect(sock, (struct sockaddr *)&c->to, sizeof(c->to),
			     O_NONBLOCK);
	if (err && err != -EINPROGRESS) {
		mcast_tcp_out_drop(t, c);
		return ERR_PTR(err);
	}
	return c;
}

/*
 * The connection to @p: a new one if there is none, if the peer's address
 * changed, or if the old one failed.
 */
static struct mcast_tcp_conn *mcast_tcp_out(struct mcast_tcp *t,
					    const struct mcast_peer *p)
{
	struct mcast_tcp_conn *c = xa_load(&t->out, p->id);
	struct sockaddr_in6 sa;

	if (c) {
		mcast_tcp_peer_addr(p, &sa);
		if (memcmp(&sa, &c->to, sizeof(sa)) ||
		    c->sock->sk->sk_state == TCP_CLOSE)
			mcast_tcp_out_drop(t, c);
		else
			return c;
	}
	return mcast_tcp_connect(t, p);
}

/* --------------------------------------------------------------- sending */

static int mcast_tcp_send(struct socket *sock, struct kvec *v, size_t nv,
			  size_t len)
{
	struct msghdr m = { .msg_flags = MSG_DONTWAIT | MSG_NOSIGNAL };

	return kernel_sendmsg(sock, &m, v, nv, len);
}

/* Sends what waits in @c's queue, as far as the socket takes it. */
static int mcast_tcp_flush(struct mcast_tcp_conn *c)
{
	struct mcast_tcp_frame *f;
	struct kvec v;
	int n;

	while (!list_empty(&c->queue)) {
		if (c->sock->sk->sk_state != TCP_ESTABLISHED)
			return c->sock->sk->sk_state == TCP_SYN_SENT ? 0 : -EPIPE;
		f = list_first_entry(&c->queue, struct mcast_tcp_frame, link);
		v.iov_base = f->data + f->off;
		v.iov_len = f->len - f->off;
		n = mcast_tcp_send(c->sock, &v, 1, v.iov_len);
		if (n == -EAGAIN)
			return 0;
		if (n < 0)
			return n;
		f->off += n;
		c->queued -= n;
		if (f->off < f->len)
			return 0;
		list_del(&f->link);
		kvfree(f);
	}
	return 0;
}

/*
 * Queues bytes @skip.. of the frame @v for later.  The rest of a frame
 * that went out in part is always taken (the stream would be broken
 * otherwise); a whole one only within MCAST_TCP_QUEUE.
 */
static int mcast_tcp_enqueue(struct mcast_tcp_conn *c, struct kvec *v,
			     size_t nv, size_t len, size_t skip)
{
	struct mcast_tcp_frame *f;
	size_t i, at = 0, n;

	if (!skip && c->queued + len > MCAST_TCP_QUEUE)
		return -ENOBUFS;
	f = kvmalloc(struct_size(f, data, len - skip), MCAST_GFP);
	if (!f)
		return skip ? -EPIPE : -ENOBUFS;
	f->len = len - skip;
	f->off = 0;
	for (i = 0; i < nv; i++) {
		n = v[i].iov_len;
		if (skip >= n) {
			skip -= n;
			continue;
		}
		memcpy(f->data + at, (u8 *)v[i].iov_base + skip, n - skip);
		at += n - skip;
		skip = 0;
	}
	list_add_tail(&f->link, &c->queue);
	c->queued += f->len;
	return 0;
}

static int mcast_tcp_xmit(struct mcast_net *mn, const struct mcast_peer *p,
			  struct kvec *vec, size_t nvec, size_t len)
{
	struct mcast_tcp *t = mn->tp_priv;
	struct mcast_tcp_conn *c;
	struct kvec v[5];	/* the prefix, header, piece, data, trailer */
	__be32 prefix = cpu_to_be32(len);
	size_t total = len + sizeof(prefix);
	int n = 0, err;

	if (nvec >= ARRAY_SIZE(v) || !len || len > MCAST_TCP_PAYLOAD)
		return -EINVAL;
	c = mcast_tcp_out(t, p);
	if (IS_ERR(c))
		return PTR_ERR(c);
	err = mcast_tcp_flush(c);
	if (err)
		goto broken;
	v[0] = (struct kvec){ &prefix, sizeof(prefix) };
	memcpy(&v[1], vec, nvec * sizeof(*vec));
	if (list_empty(&c->queue) &&
	    c->sock->sk->sk_state == TCP_ESTABLISHED) {
		n = mcast_tcp_send(c->sock, v, nvec + 1, total);
		if (n == (int)total)
			return 0;
		if (n == -EAGAIN)
			n = 0;
		if (n < 0) {
			err = n;
			goto broken;
		}
	}
	err = mcast_tcp_enqueue(c, v, nvec + 1, total, n);
	if (err == -EPIPE)
		goto broken;
	return err;
broken:
	mcast_tcp_out_drop(t, c);
	return err;
}

/*
 * @p's TCP acknowledged something on our connection at @since or later
 * (rcv_tstamp: the last ACK received, in jiffies): @p is alive even if
 * what we sent is still being retransmitted.  A dead peer sends no ACK.
 */
static bool mcast_tcp_peer_heard(struct mcast_net *mn,
				 const struct mcast_peer *p,
				 unsigned long since)
{
	struct mcast_tcp *t = mn->tp_priv;
	struct mcast_tcp_conn *c = t ? xa_load(&t->out, p->id) : NULL;
	struct sock *sk;

	if (!c)
		return false;
	sk = c->sock->sk;
	return READ_ONCE(sk->sk_state) == TCP_ESTABLISHED &&
	       (s32)(READ_ONCE(tcp_sk(sk)->rcv_tstamp) - (u32)since) >= 0;
}

/* ------------------------------------------------------------- receiving */

static int mcast_tcp_recv(struct socket *sock, void *buf, size_t len)
{
	struct msghdr m = { .msg_flags = MSG_DONTWAIT };
	struct kvec v = { buf, len };

	return kernel_recvmsg(sock, &m, &v, 1, len, MSG_DONTWAIT);
}

/* The length prefix of the next frame: 1 when known, 0 not yet, <0 bad. */
static int mcast_tcp_read_len(struct mcast_tcp_conn *c)
{
	int n;

	if (c->lgot == sizeof(c->lenbuf))
		return 1;
	n = mcast_tcp_recv(c->sock, c->lenbuf + c->lgot,
			   sizeof(c->lenbuf) - c->lgot);
	if (n == -EAGAIN)
		return 0;
	if (n <= 0)
		return n ? n : -EPIPE;
	c->lgot += n;
	if (c->lgot < sizeof(c->lenbuf))
		return 0;
	c->flen = get_unaligned_be32(c->lenbuf);
	c->fgot = 0;
	if (!c->flen || c->flen > MCAST_TCP_PAYLOAD)
		return -EPROTO;		/* not our framing: drop it */
	return 1;
}

/*
 * Reads @c's frames and hands them to the data path, up to @budget of
 * them; returns how many, or <0 when the connection is finished: -EPROTO
 * or -EBADMSG when a frame failed a check (its length; the data path's).
 * A frame is read into the node's buffer, and only when it comes in parts
 * into a buffer of the connection's own.
 */
static int mcast_tcp_read(struct mcast_tcp_conn *c, int budget)
{
	struct mcast_tcp *t = c->t;
	int got = 0, n;
	u8 *buf;

	while (got < budget) {
		n = mcast_tcp_read_len(c);
		if (n <= 0)
			return n ? n : got;
		buf = c->fbuf ? c->fbuf : t->rxbuf;
		n = mcast_tcp_recv(c->sock, buf + c->fgot, c->flen - c->fgot);
		if (n > 0)
			c->fgot += n;
		if (c->fgot == c->flen) {
			n = mcast_data_rx(t->mn, &c->from, buf, c->flen);
			c->lgot = 0;
			kvfree(c->fbuf);
			c->fbuf = NULL;
			if (n)
				return -EBADMSG;	/* refused: drop it */
			c->believed = true;
			c->last = jiffies;
			got++;
			continue;
		}
		if (!n)
			return -EPIPE;
		if (n < 0 && n != -EAGAIN)
			return n;
		if (!c->fbuf && c->fgot) {
			c->fbuf = kvmalloc(c->flen, MCAST_GFP);
			if (!c->fbuf)
				return -ENOMEM;
			memcpy(c->fbuf, t->rxbuf, c->fgot);
		}
		if (n == -EAGAIN)
			return got;
	}
	return got;
}

/*
 * Whence @sock's connection came, and how many peers have that address: a
 * host that is no peer gets no connection, and so no buffer (the data
 * path then checks every frame's sender against this address).
 */
static u32 mcast_tcp_from_peer(struct mcast_tcp *t, struct socket *sock,
			       struct sockaddr_in6 *sa)
{
	int n = kernel_getpeername(sock, (struct sockaddr *)sa);
	u32 peers;

	if (n < (int)sizeof(*sa) || sa->sin6_family != AF_INET6)
		return 0;
	sa->sin6_port = 0;	/* an outgoing connection's port is any */
	peers = mcast_addr_peers(t->mn, sa);
	if (peers)
		return peers;
	atomic64_inc(&t->mn->stats.rx_bad_src);
	net_info_ratelimited("node %u: refused a connection from [%pI6c], no peer's address\n",
			     t->mn->node_id, &sa->sin6_addr);
	return 0;
}

/* Closes accepted connection @c, counting why in @count. */
static void mcast_tcp_in_close(struct mcast_tcp_conn *c, atomic64_t *count,
			       const char *why)
{
	atomic64_inc(count);
	net_info_ratelimited("node %u: closed a connection from [%pI6c]: %s\n",
			     c->t->mn->node_id, &c->from.sin6_addr, why);
	mcast_tcp_conn_free(c);
}

/*
 * Which of @a (accepted before @b, or NULL) and @b to close first: the
 * one that never sent a believed frame, the older if both did not (it had
 * longer to); else the one silent longer.
 */
static struct mcast_tcp_conn *mcast_tcp_worse(struct mcast_tcp_conn *a,
					      struct mcast_tcp_conn *b)
{
	if (!a)
		return b;
	if (a->believed != b->believed)
		return a->believed ? b : a;
	if (!a->believed || time_before_eq(a->last, b->last))
		return a;
	return b;
}

/*
 * Room for one more connection from @sa's address, where @peers nodes
 * are: past that address's share or the node's cap, the worst connection
 * (of the address, or of all) is closed.  A newcomer always gets in: a
 * forger holding slots can delay a real peer, never keep it out.
 */
static void mcast_tcp_make_room(struct mcast_tcp *t,
				const struct sockaddr_in6 *sa, u32 peers)
{
	struct mcast_tcp_conn *c, *mine = NULL, *any = NULL, *out = NULL;
	u64 share = (u64)MCAST_TCP_PER_NODE * peers;
	u32 n = 0;

	list_for_each_entry(c, &t->in, in_link) {
		if (ipv6_addr_equal(&c->from.sin6_addr, &sa->sin6_addr)) {
			n++;
			mine = mcast_tcp_worse(mine, c);
		}
		any = mcast_tcp_worse(any, c);
	}
	if (n >= share)
		out = mine;
	else if (t->nin >= MCAST_TCP_MAX_IN)
		out = any;
	if (out)
		mcast_tcp_in_close(out, &t->mn->stats.tcp_evicted,
				   "room for a newer one");
}

/* The sweep runs at most once a second while connections are held. */
static void mcast_tcp_arm(struct mcast_tcp *t)
{
	if (t->nin && !timer_pending(&t->sweep))
		mod_timer(&t->sweep, time_after(t->next_sweep, jiffies) ?
				     t->next_sweep : jiffies + 1);
}

static void mcast_tcp_sweep_fire(struct timer_list *tm)
{
	struct mcast_tcp *t = from_timer(t, tm, sweep);

	mcast_data_kick(t->mn);
}

/* Closes the accepted connections past their deadline. */
static void mcast_tcp_sweep(struct mcast_tcp *t)
{
	unsigned long auth = msecs_to_jiffies(max(READ_ONCE(tcp_auth_ms), 100U));
	unsigned long idle = msecs_to_jiffies(max(READ_ONCE(tcp_idle_ms), 100U));
	struct mcast_tcp_conn *c, *tmp;

	if (time_before(jiffies, t->next_sweep))
		return;
	t->next_sweep = jiffies + HZ;
	list_for_each_entry_safe(c, tmp, &t->in, in_link) {
		if (!c->believed && time_after(jiffies, c->since + auth))
			mcast_tcp_in_close(c, &t->mn->stats.tcp_unauthed,
					   "no frame believed in time");
		else if (c->believed && time_after(jiffies, c->last + idle))
			mcast_tcp_in_close(c, &t->mn->stats.tcp_idle, "idle");
	}
}

/*
 * Reads accepted connection @c, up to @budget frames, and closes it when
 * it is finished (counted when a frame failed a check); how many it read.
 */
static int mcast_tcp_in_read(struct mcast_tcp_conn *c, int budget)
{
	int n = mcast_tcp_read(c, budget);

	if (n == -EPROTO || n == -EBADMSG)
		mcast_tcp_in_close(c, &c->t->mn->stats.tcp_bad_frames,
				   n == -EPROTO ? "not our framing" :
				   "a frame refused");
	else if (n < 0)
		mcast_tcp_conn_free(c);
	else if (n == budget)
		mcast_tcp_mark(c);	/* more may wait */
	return max(n, 0);
}

/*
 * Accepts what waits, MCAST_TCP_ACCEPTS at most (the listener is looked
 * at again after the others); returns the frames read.  Each new
 * connection's first frame, if it came already, is read at once: a peer's
 * connection is then believed before the next one can push it out.
 */
static int mcast_tcp_accept(struct mcast_tcp *t)
{
	struct mcast_tcp_conn *c;
	struct sockaddr_in6 sa;
	struct socket *sock;
	int i, got = 0;
	u32 peers;

	for (i = 0; i < MCAST_TCP_ACCEPTS; i++) {
		if (kernel_accept(t->listener->sock, &sock, O_NONBLOCK))
			return got;
		peers = mcast_tcp_from_peer(t, sock, &sa);
		c = peers ? mcast_tcp_conn_new(t, TCP_IN, sock) : NULL;
		if (!c) {
			sock_no_linger(sock->sk);
			sock_release(sock);
			continue;
		}
		mcast_tcp_make_room(t, &sa, peers);
		c->from = sa;
		c->since = jiffies;
		mcast_tcp_sock_opts(sock->sk);
		list_add_tail(&c->in_link, &t->in);
		t->mn->tp_conns = ++t->nin;
		mcast_tcp_hook(c);
		/* what came before the hook; the callback marks the rest */
		got += mcast_tcp_in_read(c, 1);
	}
	mcast_tcp_mark(t->listener);	/* more may wait */
	return got;
}

/* One connection whose callbacks fired; how many frames it handed up. */
static int mcast_tcp_service(struct mcast_tcp *t, struct mcast_tcp_conn *c,
			     int budget)
{
	int n = 0;

	switch (c->kind) {
	case TCP_LISTENER:
		n = mcast_tcp_accept(t);
		break;
	case TCP_IN:
		n = mcast_tcp_in_read(c, budget);
		break;
	case TCP_OUT:
		if (mcast_tcp_flush(c))
			mcast_tcp_out_drop(t, c);
		break;
	}
	return n;
}

static int mcast_tcp_rx(struct mcast_net *mn, int budget)
{
	struct mcast_tcp *t = mn->tp_priv;
	struct mcast_tcp_conn *c;
	int done = 0;

	mcast_tcp_sweep(t);
	while (done < budget) {
		spin_lock_bh(&t->lock);
		c = list_first_entry_or_null(&t->ready, struct mcast_tcp_conn,
					     ready);
		if (c) {
			list_del_init(&c->ready);
			c->on_ready = false;
		}
		spin_unlock_bh(&t->lock);
		if (!c)
			break;
		done += mcast_tcp_service(t, c, budget - done);
	}
	mcast_tcp_arm(t);
	return done;
}

/* ------------------------------------------------------------- the node */

static void mcast_tcp_close(struct mcast_net *mn)
{
	struct mcast_tcp *t = mn->tp_priv;
	struct mcast_tcp_conn *c, *tmp;
	unsigned long id;

	if (!t)
		return;
	del_timer_sync(&t->sweep);	/* only the receive work arms it */
	mcast_tcp_conn_free(t->listener);
	xa_for_each(&t->out, id, c)
		mcast_tcp_out_drop(t, c);
	list_for_each_entry_safe(c, tmp, &t->in, in_link)
		mcast_tcp_conn_free(c);
	xa_destroy(&t->out);
	kvfree(t->rxbuf);
	kfree(t);
	mn->tp_priv = NULL;
}

static int mcast_tcp_listen(struct mcast_tcp *t, u16 port)
{
	struct sockaddr_in6 sa = {
		.sin6_family = AF_INET6,
		.sin6_addr = IN6ADDR_ANY_INIT,
		.sin6_port = htons(port),
	};
	struct socket *sock;
	int err;

	err = sock_create_kern(t->mn->net, AF_INET6, SOCK_STREAM, IPPROTO_TCP,
			       &sock);
	if (err)
		return err;
	sock->sk->sk_ipv6only = false;
	sock_set_reuseaddr(sock->sk);
	err = kernel_bind(sock, (struct sockaddr *)&sa, sizeof(sa));
	if (!err)
		err = kernel_listen(sock, MCAST_TCP_BACKLOG);
	if (!err) {
		t->listener = mcast_tcp_conn_new(t, TCP_LISTENER, sock);
		if (!t->listener)
			err = -ENOMEM;
	}
	if (err) {
		sock_release(sock);
		return err;
	}
	mcast_tcp_hook(t->listener);
	return 0;
}

static int mcast_tcp_open(struct mcast_net *mn, u16 port)
{
	struct mcast_tcp *t;
	int err;

	t = kzalloc(sizeof(*t), GFP_KERNEL_ACCOUNT);
	if (!t)
		return -ENOMEM;
	t->mn = mn;
	xa_init(&t->out);
	INIT_LIST_HEAD(&t->in);
	INIT_LIST_HEAD(&t->ready);
	spin_lock_init(&t->lock);
	timer_setup(&t->sweep, mcast_tcp_sweep_fire, 0);
	t->next_sweep = jiffies + HZ;
	t->rxbuf = kvmalloc(MCAST_TCP_PAYLOAD, GFP_KERNEL_ACCOUNT);
	err = t->rxbuf ? mcast_tcp_listen(t, port) : -ENOMEM;
	if (err) {
		kvfree(t->rxbuf);
		kfree(t);
		return err;
	}
	mn->tp_priv = t;
	mcast_tcp_mark(t->listener);	/* what came before the hook */
	return 0;
}

struct mcast_transport_ops mcast_tcp_transport = {
	.name = "tcp",
	.caps = MCAST_TP_CAP_RELIABLE,
	.max_payload = MCAST_TCP_PAYLOAD,
	.open = mcast_tcp_open,
	.close = mcast_tcp_close,
	.xmit = mcast_tcp_xmit,
	.rx = mcast_tcp_rx,
	.peer_heard = mcast_tcp_peer_heard,
};
