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
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/in.h>
#include <linux/in6.h>
#include <linux/net.h>
#include <linux/slab.h>
#include <linux/workqueue.h>
#include <net/ipv6.h>
#include <net/sock.h>

#include "net.h"
#include "transport.h"

#define MCAST_UDP_PAYLOAD	1452	/* 1500 - IPv6 header - UDP header */
#define MCAST_UDP_RXBUF		2048
#define MCAST_UDP_SOCKBUF	(8 << 20)	/* a window of 16 transfers from a few peers */

struct mcast_udp {
	struct socket *sock;
	void (*saved_data_ready)(struct sock *sk);
	u8 rxbuf[MCAST_UDP_RXBUF];
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

static int mcast_udp_rx(struct mcast_net *mn, int budget)
{
	struct mcast_udp *u = mn->tp_priv;
	struct msghdr m = { .msg_flags = MSG_DONTWAIT };
	struct kvec v;
	int i, n;

	for (i = 0; i < budget; i++) {
		v.iov_base = u->rxbuf;
		v.iov_len = sizeof(u->rxbuf);
		n = kernel_recvmsg(u->sock, &m, &v, 1, sizeof(u->rxbuf),
				   MSG_DONTWAIT);
		if (n < 0)
			break;
		mcast_data_rx(mn, u->rxbuf, n);
	}
	return i;
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
	kfree(u);
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

	u = kzalloc(sizeof(*u), GFP_KERNEL);
	if (!u)
		return -ENOMEM;
	err = sock_create_kern(mn->net, AF_INET6, SOCK_DGRAM, IPPROTO_UDP,
			       &u->sock);
	if (err)
		goto fail;
	sk = u->sock->sk;
	sk->sk_ipv6only = false;
	sk->sk_rcvbuf = MCAST_UDP_SOCKBUF;
	sk->sk_sndbuf = MCAST_UDP_SOCKBUF;
	sk->sk_userlocks |= SOCK_RCVBUF_LOCK | SOCK_SNDBUF_LOCK;
	err = kernel_bind(u->sock, (struct sockaddr *)&sa, sizeof(sa));
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
	kfree(u);
	return err;
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
	return n < 0 ? n : 0;
}

struct mcast_transport_ops mcast_udp_transport = {
	.name = "udp",
	.caps = 0,
	.max_payload = MCAST_UDP_PAYLOAD,
	.open = mcast_udp_open,
	.close = mcast_udp_close,
	.xmit = mcast_udp_xmit,
	.rx = mcast_udp_rx,
};
