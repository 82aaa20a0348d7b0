/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * Transports: how a node's datagrams reach its peers.  The data path sees
 * a transport only through this ops struct and chooses the multicast
 * algorithm from the declared capabilities, never from the name: a
 * transport without intermediate reception gets U-torus unicast trees.
 *
 * Transports register by name (as RDS's rds_trans_register and TIPC's
 * media do); mcast.ko registers "udp" and "tcp" itself, and another module
 * can register more (its owner is pinned while a node uses it).  Each node
 * (netns) uses one, MCAST_NODE_A_TRANSPORT, "tcp" by default; every node
 * of a cluster must use the same one (the fragment size is the
 * transport's).
 *
 * A transport is opened per node when the node is configured and closed
 * when it is reconfigured or its netns goes away; its per-node state hangs
 * off mn->tp_priv.  Receiving: from its socket callbacks (any context) the
 * transport calls mcast_data_kick(); the node's receive work then
 * calls ->rx() in process context with the node's mutex held, and ->rx()
 * hands each datagram to mcast_data_rx().  open, close and xmit are called
 * with the mutex held too.
 */
#ifndef MCAST_TRANSPORT_H
#define MCAST_TRANSPORT_H

#include <linux/list.h>
#include <linux/module.h>
#include <linux/types.h>
#include <linux/in6.h>
#include <linux/uio.h>
#include <uapi/linux/mcast.h>

struct mcast_net;
struct mcast_peer;

/* The uapi's bits: node show reports them as they are. */
#define MCAST_TP_CAP_IR		MCAST_TRANSPORT_CAP_IR
#define MCAST_TP_CAP_RELIABLE	MCAST_TRANSPORT_CAP_RELIABLE	/* in order
								 * per peer
								 */

#define MCAST_TP_NAME_MAX	MCAST_TRANSPORT_NAME_MAX	/* with the NUL */
#define MCAST_TP_RX_BUDGET	64	/* datagrams per ->rx() call */

/*
 * One worm (Fig 6.2): its destinations in visiting order, and for each a
 * datagram made of that destination's own @head (its header: the
 * compound header's entry), the @body every destination shares, and its
 * own @tail (an authentication trailer, or empty).  The NIC hands
 * destination i the datagram head[i] + body + tail[i] as it passes.
 */
struct mcast_worm_desc {
	u32 n;
	const u32 *to;			/* peer ids */
	const struct kvec *head;	/* n */
	const struct kvec *tail;	/* n */
	const struct kvec *body;
	size_t nbody;
	size_t blen;			/* bytes of body */
	u64 cookie;			/* the data path's, for its completion */
};

struct mcast_transport_ops {
	struct list_head list;		/* the registry's; leave it zero */
	const char *name;		/* MCAST_NODE_A_TRANSPORT */
	struct module *owner;		/* NULL for mcast.ko's own */
	u32 caps;			/* MCAST_TP_CAP_* */
	u32 max_payload;		/* bytes in one datagram */
	/*
	 * Datagrams one ->xmit() may carry (0 or 1: one).  Above one, @len
	 * may exceed max_payload: the bytes are then consecutive datagrams
	 * of max_payload bytes each but the last, which the transport sends
	 * in one trip down the stack (UDP: segmentation offload).
	 */
	u32 max_burst;
	/*
	 * Intermediate reception (MCAST_TP_CAP_IR): the limits of one worm,
	 * destinations it may visit and bytes of its compound header (every
	 * destination's own header and trailer together).
	 */
	u32 max_worm_dests;
	u32 max_worm_hdr;
	/* Opens the node's endpoint on @port, sets mn->tp_priv; 0 or -errno. */
	int (*open)(struct mcast_net *mn, u16 port);
	/* Closes it, clears mn->tp_priv: no ->rx() or kick after this. */
	void (*close)(struct mcast_net *mn);
	/*
	 * Sends one datagram (@nvec pieces, @len bytes in all), or a burst of
	 * them (max_burst), to @p without blocking: -EAGAIN/-ENOBUFS when it
	 * cannot now (the caller retries); an error means none left.
	 */
	int (*xmit)(struct mcast_net *mn, const struct mcast_peer *p,
		    struct kvec *vec, size_t nvec, size_t len);
	/*
	 * With MCAST_TP_CAP_IR: sends one worm, a datagram that visits
	 * @w->n peers in order and leaves a copy at each; see struct
	 * mcast_worm_desc.  Like ->xmit(): -EAGAIN/-ENOBUFS when it cannot
	 * now; 0 when it took the worm.  A worm that then ends short of
	 * its last destinations, or that a destination's host did not take
	 * its copy of, is reported by the NIC's completion: the transport
	 * calls mcast_data_worm_end() from ->rx().  (The data path's
	 * acknowledgements would find the loss too, a timeout later.)
	 */
	int (*xmit_worm)(struct mcast_net *mn,
			 const struct mcast_worm_desc *w);
	/*
	 * Hands up to @budget received datagrams to mcast_data_rx() and does
	 * any other deferred work; returns @budget if more may be waiting.
	 */
	int (*rx)(struct mcast_net *mn, int budget);
	/*
	 * Optional: the transport itself heard from @p at @since (jiffies)
	 * or later, e.g. a reliable transport's acknowledgements: @p is
	 * alive, and its silence toward the data path is the transport's
	 * delay (retransmitting on a lossy link), not @p's death.
	 */
	bool (*peer_heard)(struct mcast_net *mn, const struct mcast_peer *p,
			   unsigned long since);
};

int mcast_transport_register(struct mcast_transport_ops *ops);
void mcast_transport_unregister(struct mcast_transport_ops *ops);
/* The transport called @name, with a reference on its owner, or NULL. */
const struct mcast_transport_ops *mcast_transport_get(const char *name);
void mcast_transport_put(const struct mcast_transport_ops *ops);
/* The transport a node has until it is told otherwise. */
const struct mcast_transport_ops *mcast_transport_default(void);
/* Registers mcast.ko's own @n transports; the first is the default. */
int mcast_transports_init(struct mcast_transport_ops *const *own,
			  unsigned int n);
void mcast_transports_exit(void);

extern struct mcast_transport_ops mcast_udp_transport;
extern struct mcast_transport_ops mcast_tcp_transport;

/*
 * The data path's entries for transports.
 * data_work.c: from any context, the node has something for ->rx() to do.
 */
void mcast_data_kick(struct mcast_net *mn);
/*
 * data_rx.c: one received datagram, under the node's mutex, and where it
 * came from: dropped unless that is the configured address (and port,
 * when @sa's is not 0) of the node the datagram names as its sender.
 * Returns 0 when it was believed (from that address, with the cluster
 * key's tag when the node has a key, and well-formed), else -EPROTO (not
 * this protocol), -EPERM (not from its sender's address) or -EBADMSG (a
 * bad tag, a replay, or a check of its handler failed): a transport that
 * carries a peer's datagrams on a connection (tcp.c) closes it then.
 */
int mcast_data_rx(struct mcast_net *mn, const struct sockaddr_in6 *sa,
		  const void *buf, size_t len);
/*
 * What a transport with a virtual clock (irsim) knows of a datagram: its
 * worm's handover to the fabric and this host's copy, in virtual ns.
 * The data path hands them to the receivers of the message it completes.
 */
struct mcast_rx_meta {
	u64 t_submit;
	u64 t_copy;
};

void mcast_data_rx_meta(struct mcast_net *mn, const struct sockaddr_in6 *sa,
			const void *buf, size_t len,
			const struct mcast_rx_meta *meta);
/* data_rx.c: the end of a batch of them: sends the ACKs they owe. */
void mcast_data_rx_flush(struct mcast_net *mn);
/*
 * data_tx.c: the completion of a worm that did not reach every
 * destination whole, under the node's mutex (from ->rx()): its cookie,
 * its @n destinations (peer ids, in visiting order), how many of them,
 * a prefix, the worm reached, and @missed (a bitmap of @n) those whose
 * host did not take its copy.  They are sent their fragment again now.
 */
void mcast_data_worm_end(struct mcast_net *mn, u64 cookie, const u32 *to,
			 u32 n, u32 reached, const unsigned long *missed);
/*
 * data_hop.c: a reliable transport lost what it had taken for @peer (its
 * connection broke); under the node's mutex.
 */
void mcast_data_peer_lost(struct mcast_net *mn, u32 peer);

#endif /* MCAST_TRANSPORT_H */
