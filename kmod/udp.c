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

#include "mcast.h"
#include "transport.h"

#define MCAST_UDP_PAYLOAD	1452	/* 1500 - IPv6 header - UDP header */
#define MCAST_UDP_RXBUF		2048
#define MCAST_UDP_BUDGET	64	/* datagrams per work run */
#define MCAST_UDP_SOCKBUF	(8 << 20)	/* a window of 16 transfers from a few peers */

static void mcast_udp_data_ready(struct sock *sk)
{
	struct mcast_net *mn;

	read_lock_bh(&sk->sk_callback_lock);
	mn = sk->sk_user_data;
	if (mn)
		queue_work(mcast_wq, &mn->rx_work);
	read_unlock_bh(&sk->sk_callback_lock);
}

static void mcast_udp_rx_work(struct work_struct *w)
{
	struct mcast_net *mn = container_of(w, struct mcast_net, rx_work);
	struct msghdr m = { .msg_flags = MSG_DONTWAIT };
	struct kvec v;
	int i, n;

	mutex_lock(&mn->lock);
	for (i = 0; i < MCAST_UDP_BUDGET; i++) {
		if (!mn->sock || mn->dying)
			break;
		v.iov_base = mn->rxbuf;
		v.iov_len = MCAST_UDP_RXBUF;
		n = kernel_recvmsg(mn->sock, &m, &v, 1, MCAST_UDP_RXBUF,
				   MSG_DONTWAIT);
		if (n < 0)
			break;
		mcast_data_rx(mn, mn->rxbuf, n);
	}
	if (mn->sock && !mn->dying)
		mcast_data_rx_flush(mn);
	if (i == MCAST_UDP_BUDGET)
		queue_work(mcast_wq, &mn->rx_work);
	mutex_unlock(&mn->lock);
}

static void mcast_udp_close(struct mcast_net *mn)
{
	struct socket *sock = mn->sock;

	if (!sock)
		return;
	write_lock_bh(&sock->sk->sk_callback_lock);
	sock->sk->sk_user_data = NULL;
	sock->sk->sk_data_ready = mn->saved_data_ready;
	write_unlock_bh(&sock->sk->sk_callback_lock);
	kernel_sock_shutdown(sock, SHUT_RDWR);
	/* The receive work checks mn->sock under mn->lock, held here. */
	sock_release(sock);
	mn->sock = NULL;
	kfree(mn->rxbuf);
	mn->rxbuf = NULL;
}

static int mcast_udp_open(struct mcast_net *mn, u16 port)
{
	struct sockaddr_in6 sa = {
		.sin6_family = AF_INET6,
		.sin6_addr = IN6ADDR_ANY_INIT,
		.sin6_port = htons(port),
	};
	struct socket *sock;
	int err;

	mn->rxbuf = kmalloc(MCAST_UDP_RXBUF, GFP_KERNEL);
	if (!mn->rxbuf)
		return -ENOMEM;
	err = sock_create_kern(mn->net, AF_INET6, SOCK_DGRAM, IPPROTO_UDP,
			       &sock);
	if (err)
		goto fail;
	sock->sk->sk_ipv6only = false;
	sock->sk->sk_rcvbuf = MCAST_UDP_SOCKBUF;
	sock->sk->sk_sndbuf = MCAST_UDP_SOCKBUF;
	sock->sk->sk_userlocks |= SOCK_RCVBUF_LOCK | SOCK_SNDBUF_LOCK;
	err = kernel_bind(sock, (struct sockaddr *)&sa, sizeof(sa));
	if (err) {
		sock_release(sock);
		goto fail;
	}
	mn->sock = sock;
	write_lock_bh(&sock->sk->sk_callback_lock);
	sock->sk->sk_user_data = mn;
	mn->saved_data_ready = sock->sk->sk_data_ready;
	sock->sk->sk_data_ready = mcast_udp_data_ready;
	write_unlock_bh(&sock->sk->sk_callback_lock);
	/* Anything that arrived before the callback was in place. */
	queue_work(mcast_wq, &mn->rx_work);
	return 0;
fail:
	kfree(mn->rxbuf);
	mn->rxbuf = NULL;
	return err;
}

static int mcast_udp_xmit(struct mcast_net *mn, const struct mcast_peer *p,
			  struct kvec *vec, size_t nvec, size_t len)
{
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

	if (!mn->sock)
		return -ENOTCONN;
	if (p->ipv6)
		sa.sin6_addr = p->addr.v6;
	else
		ipv6_addr_set_v4mapped(p->addr.v4, &sa.sin6_addr);
	n = kernel_sendmsg(mn->sock, &m, vec, nvec, len);
	return n < 0 ? n : 0;
}

void mcast_udp_init_net(struct mcast_net *mn)
{
	INIT_WORK(&mn->rx_work, mcast_udp_rx_work);
}

const struct mcast_transport_ops mcast_udp_transport = {
	.name = "udp",
	.caps = 0,
	.max_payload = MCAST_UDP_PAYLOAD,
	.open = mcast_udp_open,
	.close = mcast_udp_close,
	.xmit = mcast_udp_xmit,
};
