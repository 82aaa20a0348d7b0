// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The UDP transport: one kernel UDP socket per node (per netns), bound to
 * the node's port on the IPv6 wildcard address with IPv4 mapped, so IPv4
 * and IPv6 peers share it.  A plain kernel socket rather than a UDP tunnel
 * socket: the receive callback only schedules the node's receive work,
 * which drains the socket in process context (the data path runs under the
 * node's mutex), and mcast.ko needs no module beyond the core kernel.
 *
 * No intermediate reception: the data path builds U-torus trees over it.
 *
 * Segmentation offload (UDP_SEGMENT on the socket): a burst of full
 * datagrams to one peer goes down the stack as one skb, cut into
 * datagrams by the NIC or, lacking that, once just before the driver.
 * Receiving with UDP_GRO, such a burst (or datagrams a NIC's GRO merged)
 * comes up in one read, which the receive work cuts at the segment size.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/in.h>
#include <linux/in6.h>
#include <linux/net.h>
#include <linux/slab.h>
#include <linux/workqueue.h>
#include <linux/udp.h>
#include <net/ipv6.h>
#include <net/sock.h>

#include "net.h"
#include "transport.h"

#define MCAST_UDP_PAYLOAD	1452	/* 1500 - IPv6 header - UDP header */
#define MCAST_UDP_RXBUF		(64 << 10)	/* a GRO burst, the largest UDP datagram */
/* A burst's bytes stay within one IPv4 or IPv6 packet (65507 B of UDP). */
#define MCAST_UDP_BURST		((0xffff - 20 - 8) / MCAST_UDP_PAYLOAD)

/*
 * Each node's UDP socket buffers, set past net.core.rmem_max/wmem_max
 * (as a kernel socket may) because a window of 16 transfers from a few
 * peers at once needs several MiB; 0 leaves the system's defaults.  Read
 * when a node opens its socket.
 */
static unsigned int udp_sockbuf_kb = 8192;
module_param(udp_sockbuf_kb, uint, 0644);
MODULE_PARM_DESC(udp_sockbuf_kb,
		 "each node's UDP send and receive buffer in KiB, past net.core.[rw]mem_max (default 8192; 0: the system's defaults)");

struct mcast_udp {
	struct socket *sock;
	void (*saved_data_ready)(struct sock *sk);
	u8 *rxbuf;			/* MCAST_UDP_RXBUF bytes */
};

static void mcast_udp_data_ready(struct sock *sk)
{
	struct mcast_net *mn;

	read_lock_bh(&sk->sk_callback_lock);
	mn = sk->sk_user_data;
	if (mn)
		mcast_data_kick(mn);
	read_unlock_bh(&sk->sk_callback_lock);
}

/* The segment size of what a read returned: its UDP_GRO cmsg, or 0. */
static int mcast_udp_gro_size(struct msghdr *m, const void *cbuf)
{
	struct cmsghdr *c;
	int seg = 0;

	m->msg_control = (void *)cbuf;	/* recvmsg advanced it */
	for_each_cmsghdr(c, m)
		if (c->cmsg_level == SOL_UDP && c->cmsg_type == UDP_GRO &&
		    c->cmsg_len >= CMSG_LEN(sizeof(seg)))
			memcpy(&seg, CMSG_DATA(c), sizeof(seg));
	return seg;
}

static int mcast_udp_rx(struct mcast_net *mn, int budget)
{
	struct mcast_udp *u = mn->tp_priv;
	u64 cbuf[DIV_ROUND_UP(CMSG_SPACE(sizeof(int)), sizeof(u64))];
	struct kvec v = { u->rxbuf, MCAST_UDP_RXBUF };
	int i = 0, n, seg, off;

	while (i < budget) {
		struct sockaddr_in6 sa;
		struct msghdr m = {
			.msg_name = &sa,
			.msg_namelen = sizeof(sa),
			.msg_control = cbuf,
			.msg_controllen = sizeof(cbuf),
		};

		n = kernel_recvmsg(u->sock, &m, &v, 1, v.iov_len,
				   MSG_DONTWAIT);
		if (n < 0)
			break;
		m.msg_controllen = sizeof(cbuf) - m.msg_controllen;
		seg = mcast_udp_gro_size(&m, cbuf) ?: n;
		/* No datagram of ours is longer: drop, do not truncate. */
		if (seg > MCAST_UDP_PAYLOAD || (m.msg_flags & MSG_TRUNC) ||
		    sa.sin6_family != AF_INET6 || !sa.sin6_port)
			continue;
		for (off = 0; off < n; off += seg, i++)
			mcast_data_rx(mn, &sa, u->rxbuf + off,
				      min(seg, n - off));
	}
	return min(i, budget);
}

static void mcast_udp_close(struct mcast_net *mn)
{
	struct mcast_udp *u = mn->tp_priv;
	struct sock *sk;

	if (!u)
		return;
	sk = u->sock->sk;
	write_lock_bh(&sk->sk_callback_lock);
	sk->sk_user_data = NULL;
	sk->sk_data_ready = u->saved_data_ready;
	write_unlock_bh(&sk->sk_callback_lock);
	kernel_sock_shutdown(u->sock, SHUT_RDWR);
	/* The receive work checks mn->tp_priv under mn->lock, held here. */
	sock_release(u->sock);
	mn->tp_priv = NULL;
	kvfree(u->rxbuf);
	kfree(u);
}

static int mcast_udp_set_int(struct socket *sock, int level, int name,
			     int val)
{
	return sock->ops->setsockopt(sock, level, name, KERNEL_SOCKPTR(&val),
				     sizeof(val));
}

static void mcast_udp_set_bufs(struct sock *sk, unsigned int kb)
{
	int bytes = min_t(unsigned int, kb, INT_MAX / 2 / 1024) * 1024;

	if (!kb)
		return;
	lock_sock(sk);
	WRITE_ONCE(sk->sk_rcvbuf, bytes);
	WRITE_ONCE(sk->sk_sndbuf, bytes);
	sk->sk_userlocks |= SOCK_RCVBUF_LOCK | SOCK_SNDBUF_LOCK;
	release_sock(sk);
}

static int mcast_udp_open(struct mcast_net *mn, u16 port)
{
	struct sockaddr_in6 sa = {
		.sin6_family = AF_INET6,
		.sin6_addr = IN6ADDR_ANY_INIT,
		.sin6_port = htons(port),
	};
	struct mcast_udp *u;
	struct sock *sk;
	int err;

	u = kzalloc(sizeof(*u), GFP_KERNEL_ACCOUNT);
	if (!u)
		return -ENOMEM;
	u->rxbuf = kvmalloc(MCAST_UDP_RXBUF, GFP_KERNEL_ACCOUNT);
	if (!u->rxbuf) {
		err = -ENOMEM;
		goto fail;
	}
	err = sock_create_kern(mn->net, AF_INET6, SOCK_DGRAM, IPPROTO_UDP,
			       &u->sock);
	if (err)
		goto fail;
	sk = u->sock->sk;
	sk->sk_ipv6only = false;
	mcast_udp_set_bufs(sk, READ_ONCE(udp_sockbuf_kb));
	err = kernel_bind(u->sock, (struct sockaddr *)&sa, sizeof(sa));
	if (!err)
		err = mcast_udp_set_int(u->sock, SOL_UDP, UDP_SEGMENT,
					MCAST_UDP_PAYLOAD);
	if (!err)
		err = mcast_udp_set_int(u->sock, SOL_UDP, UDP_GRO, 1);
	if (err) {
		sock_release(u->sock);
		goto fail;
	}
	mn->tp_priv = u;
	write_lock_bh(&sk->sk_callback_lock);
	sk->sk_user_data = mn;
	u->saved_data_ready = sk->sk_data_ready;
	sk->sk_data_ready = mcast_udp_data_ready;
	write_unlock_bh(&sk->sk_callback_lock);
	/* Anything that arrived before the callback was in place. */
	mcast_data_kick(mn);
	return 0;
fail:
	kvfree(u->rxbuf);
	kfree(u);
	return err;
}

/*
 * A burst the stack would not segment (a path MTU below 1500, a device
 * without checksum offload): the same datagrams one by one.
 */
static int mcast_udp_xmit_each(struct socket *sock, struct msghdr *m,
			       struct kvec *vec, size_t nvec, size_t len)
{
	struct iov_iter all;
	int n = 0;

	iov_iter_kvec(&all, WRITE, vec, nvec, len);
	while (iov_iter_count(&all)) {
		size_t seg = min_t(size_t, iov_iter_count(&all),
				   MCAST_UDP_PAYLOAD);

		m->msg_iter = all;
		iov_iter_truncate(&m->msg_iter, seg);
		n = sock_sendmsg(sock, m);
		if (n < 0)
			return n;
		iov_iter_advance(&all, seg);
	}
	return 0;
}

static int mcast_udp_xmit(struct mcast_net *mn, const struct mcast_peer *p,
			  struct kvec *vec, size_t nvec, size_t len)
{
	struct mcast_udp *u = mn->tp_priv;
	struct sockaddr_in6 sa = {
		.sin6_family = AF_INET6,
		.sin6_port = htons(p->port),
	};
	struct msghdr m = {
		.msg_name = &sa,
		.msg_namelen = sizeof(sa),
		.msg_flags = MSG_DONTWAIT,
	};
	int n;

	if (p->ipv6)
		sa.sin6_addr = p->addr.v6;
	else
		ipv6_addr_set_v4mapped(p->addr.v4, &sa.sin6_addr);
	n = kernel_sendmsg(u->sock, &m, vec, nvec, len);
	if (len > MCAST_UDP_PAYLOAD && (n == -EINVAL || n == -EIO ||
					n == -EMSGSIZE))
		n = mcast_udp_xmit_each(u->sock, &m, vec, nvec, len);
	return n < 0 ? n : 0;
}

struct mcast_transport_ops mcast_udp_transport = {
	.name = "udp",
	.caps = 0,
	.max_payload = MCAST_UDP_PAYLOAD,
	.max_burst = MCAST_UDP_BURST,
	.open = mcast_udp_open,
	.close = mcast_udp_close,
	.xmit = mcast_udp_xmit,
	.rx = mcast_udp_rx,
};
