/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Transports: how a node's datagrams reach its peers.  The data path
 * (data.c) sees a transport only through this ops struct and chooses the
 * multicast algorithm from the declared capabilities, never from the name:
 * a transport without intermediate reception gets U-torus unicast trees.
 *
 * A transport is opened per node (per netns) when the node is configured
 * and closed when the node is reconfigured or its netns goes away.  It
 * hands every received datagram to mcast_data_rx() from process context
 * (a work item), one at a time per node, with the node's mutex held, and
 * calls mcast_data_rx_flush() after each batch; open and close are called
 * with it held too.
 */
#ifndef MCAST_TRANSPORT_H
#define MCAST_TRANSPORT_H

#include <linux/types.h>
#include <linux/uio.h>

struct mcast_net;
struct mcast_peer;

#define MCAST_TP_CAP_IR		(1u << 0)	/* intermediate reception */

struct mcast_transport_ops {
	const char *name;		/* MCAST_NODE_A_TRANSPORT */
	u32 caps;			/* MCAST_TP_CAP_* */
	u32 max_payload;		/* bytes in one datagram */
	/* Opens the node's endpoint on @port; 0 or -errno. */
	int (*open)(struct mcast_net *mn, u16 port);
	/* Closes it: no mcast_data_rx() runs after this returns. */
	void (*close)(struct mcast_net *mn);
	/*
	 * Sends one datagram (@nvec pieces, @len bytes in all) to @p, without
	 * blocking: -EAGAIN/-ENOBUFS when it cannot now (the caller retries).
	 */
	int (*xmit)(struct mcast_net *mn, const struct mcast_peer *p,
		    struct kvec *vec, size_t nvec, size_t len);
};

extern const struct mcast_transport_ops mcast_udp_transport;
void mcast_udp_init_net(struct mcast_net *mn);

/* data.c: one received datagram, from the transport's work item. */
void mcast_data_rx(struct mcast_net *mn, const void *buf, size_t len);
/* data.c: the end of a batch of them: sends the ACKs they owe. */
void mcast_data_rx_flush(struct mcast_net *mn);

#endif /* MCAST_TRANSPORT_H */
