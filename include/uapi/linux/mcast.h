/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note OR MIT */
/*
 * mcast: topology-aware multicast, the kernel ABI.
 *
 * One header for the module, libmcast and the tools:
 *   - /dev/mcast ioctls (and io_uring commands) for applications;
 *   - the "mcast" generic netlink family for configuration, statistics
 *     and notifications.
 *
 * Rules that keep it stable: ioctl structs start with their size and
 * have fixed-width fields; flags and reserved fields the kernel does not
 * know must be zero (-EINVAL otherwise); a larger struct from a newer
 * caller is accepted only if its tail is zero (-E2BIG otherwise).
 * Netlink enums are append-only and start with _UNSPEC = 0.
 *
 * Coordinates are arrays indexed by dimension: coord[i] is sigma_i, the
 * LAST element of a tuple as the dissertation prints it.  A node id is
 * the index sum(coord[i] * prod(dims[j], j < i)).
 */
#ifndef _UAPI_LINUX_MCAST_H
#define _UAPI_LINUX_MCAST_H

#include <linux/types.h>
#include <linux/ioctl.h>

#define MCAST_ABI_VERSION	1
#define MCAST_DEVICE_NAME	"mcast"		/* /dev/mcast */

#define MCAST_MAX_DIMS		8
#define MCAST_MAX_NODES		(1u << 24)
#define MCAST_MAX_MSG		(4u << 20)	/* bytes in one message */
#define MCAST_MAX_IOV		64
#define MCAST_MAX_DESTS		65536		/* nodes in one explicit list */
#define MCAST_MAX_MEMBERS	4096		/* nodes in one group (netlink) */
#define MCAST_MAX_GROUPS	4096		/* groups one node holds */
#define MCAST_MAX_SWITCH_HOSTS	4096		/* hosts of a switched cluster */
#define MCAST_NO_NODE		0xffffffffu
#define MCAST_NO_GROUP		0u		/* group ids start at 1 */

enum mcast_topo_kind {
	MCAST_TOPO_NONE = 0,		/* node not configured yet */
	MCAST_TOPO_TORUS = 1,
	MCAST_TOPO_SWITCH = 2,		/* a switched cluster (Libeskind-Hadas
					 * et al. 1998): DIMS is the host
					 * count (one entry), COORD the
					 * host id, RANKS
					 * the hosts' up-down order
					 */
};

enum mcast_links {
	MCAST_LINKS_UNI = 0,
	MCAST_LINKS_BI = 1,
};

/* ---- ioctls on /dev/mcast ------------------------------------------ */

#define MCAST_IOC_MAGIC		0xB8

/* mcast_info.caps */
#define MCAST_CAP_LOCAL		(1u << 0)	/* delivers to local members */
#define MCAST_CAP_URING		(1u << 1)	/* io_uring send/receive */
#define MCAST_CAP_NET		(1u << 2)	/* to other nodes (U-torus) */
#define MCAST_CAP_WAIT		(1u << 3)	/* MCAST_SEND_WAIT */
#define MCAST_CAP_SEPARATE	(1u << 4)	/* MCAST_SEND_SEPARATE */
#define MCAST_CAP_OFFLOAD	(1u << 5)	/* MCAST_SEND_[NO_]OFFLOAD */

struct mcast_info {
	__u32 size;		/* in: sizeof(struct mcast_info) */
	__u32 abi_version;	/* out: MCAST_ABI_VERSION */
	__u32 caps;		/* out: MCAST_CAP_* */
	__u32 node_id;		/* out: MCAST_NO_NODE until configured */
	__u8 kind;		/* out: enum mcast_topo_kind */
	__u8 links;		/* out: enum mcast_links */
	__u8 ndims;		/* out */
	__u8 reserved0;
	__u16 dims[MCAST_MAX_DIMS];	/* out: dims[i] is the radix of sigma_i */
	__u16 coord[MCAST_MAX_DIMS];	/* out: this node's coordinate */
	__u32 rxq_limit;	/* out: messages a file's receive queue holds */
	__u32 max_msg;		/* out: MCAST_MAX_MSG */
	__u32 reserved[6];
};

/*
 * MCAST_IOC_JOIN / MCAST_IOC_LEAVE: this file joins or leaves a group of
 * its node.  JOIN of a group the node does not have creates it, with this
 * node as its only member (GROUP_NEW notification; mcastd then gives it
 * its members across the cluster); -ENETDOWN if the node is not
 * configured yet, -ENOSPC if it holds MCAST_MAX_GROUPS groups already;
 * -EALREADY if this file joined it already.  LEAVE: -ENOENT if the node has no such
 * group, -ENOTCONN if this file has not joined it.  Group 0: -EINVAL.
 * Deleting a group (MCAST_CMD_GROUP_DEL) makes its local members leave.
 * JOIN's flags: MCAST_JOIN_LOSSY, or 0 (unknown flags: -EINVAL); LEAVE's
 * must be 0.  See "receive queue" below for what they mean.
 */
#define MCAST_JOIN_LOSSY	(1u << 0)	/* drop, not wait, when full */

struct mcast_group_req {
	__u32 size;		/* sizeof(struct mcast_group_req) */
	__u32 flags;		/* JOIN: MCAST_JOIN_*; LEAVE: 0 */
	__u32 group;
	__u32 reserved;
};

/* mcast_send.flags */
#define MCAST_SEND_NODES	(1u << 0)	/* to nodes[], not to a group */
#define MCAST_SEND_LOOPBACK	(1u << 1)	/* the sending file gets it too */
#define MCAST_SEND_WAIT		(1u << 2)	/* completion mode, see below */
#define MCAST_SEND_SEPARATE	(1u << 3)	/* no tree: see below */
#define MCAST_SEND_OFFLOAD	(1u << 4)	/* worms or nothing: see below */
#define MCAST_SEND_NO_OFFLOAD	(1u << 5)	/* unicast trees only */
#define MCAST_SEND_ALGORITHM	(1u << 6)	/* mcast_send.algorithm */

struct mcast_iov {
	__u64 base;		/* user pointer */
	__u64 len;
};

/*
 * MCAST_IOC_SEND: the iovecs are gathered into one message (at most
 * MCAST_MAX_IOV of them, else -EINVAL; at most MCAST_MAX_MSG bytes in
 * all, else -EMSGSIZE; zero bytes is a valid message) and given the
 * node's next sequence number, returned in seq; the ioctl returns 0.
 *   To a group (flags without MCAST_SEND_NODES; nodes and nnodes 0): the
 *   group must exist on this node (-ENOENT; group 0 is -EINVAL).  Every
 *   local file that joined it gets the message once.
 *   To a node list (MCAST_SEND_NODES; group 0): every id must be a node of
 *   the torus and none repeated, nnodes <= MCAST_MAX_DESTS (-EINVAL); a
 *   node without topology gives -ENOTCONN.  If this node is in the list,
 *   every open file of this node gets the message (group MCAST_NO_GROUP).
 * Either way the sending file itself gets it only with MCAST_SEND_LOOPBACK.
 *
 * Completion mode (MCAST_SEND_WAIT): the send returns (or its io_uring
 * completion arrives) only when every destination node has acknowledged
 * the message end to end, or has been given up on.  The ids of the nodes
 * that could not be reached are written to failed[] (room for nfailed in;
 * nfailed out is how many there were, even beyond the room); the ioctl
 * returns 0 if all were reached, -EHOSTUNREACH if some were not.
 * timeout_ms bounds the wait (0: the node's default, 30 s); past it the
 * unacknowledged nodes count as failed.  Without MCAST_SEND_WAIT, failed,
 * nfailed and timeout_ms must be 0.  A signal ends the wait with -EINTR
 * (the message is sent: seq is set, the failures known so far are listed).
 *
 * The network: the message goes down a U-torus tree over the R-chain of the
 * group's member nodes (plus this node when it is not a member) or of the
 * node list, rotated to this node; each node delivers to its files and
 * forwards its part in the kernel.  A node has at most 64 messages (16 MiB)
 * in flight; a send beyond that waits for room (interruptibly), or gives
 * -EAGAIN on an O_NONBLOCK file.  Nodes without a peer entry, and peers
 * that stop answering, are reported (failed[], MCAST_CMD_ERROR and
 * MCAST_CMD_PEER_DOWN events); the rest of the tree still gets the message.
 *
 * MCAST_SEND_SEPARATE: separate addressing, the baseline a tree is measured
 * against: this node sends the message to every destination node itself
 * (one transfer each, all under way at once, in R-chain order), and nobody
 * forwards.  Reliability, FIFO and completion mode are the same.
 *
 * Offload: on a transport with intermediate reception
 * (MCAST_TRANSPORT_CAP_IR) the node sends path-based worms (S-, Md- or
 * Mu-torus over the H-cycle, MCAST_NODE_A_ALGORITHM) instead of U-torus
 * unicast trees.  MCAST_SEND_OFFLOAD requires that (-EOPNOTSUPP when the
 * transport has no IR or the torus cannot run them: bidirectional, or
 * unequal radices); MCAST_SEND_NO_OFFLOAD forbids worms, in hardware or
 * software (U-torus).  Not both, and neither with MCAST_SEND_SEPARATE
 * (-EINVAL).  MCAST_SEND_ALGORITHM: this send uses algorithm instead of
 * the node's MCAST_NODE_A_ALGORITHM (an unknown value, r outside 2..255
 * for mu-torus or r given for another: -EINVAL; a path-based one the
 * torus cannot run, or a hypercube's on another torus: -EOPNOTSUPP); not
 * with MCAST_SEND_SEPARATE or
 * MCAST_SEND_NO_OFFLOAD (-EINVAL).
 */
struct mcast_send {
	__u32 size;		/* sizeof(struct mcast_send) */
	__u32 flags;		/* MCAST_SEND_* */
	__u32 group;		/* destination group unless MCAST_SEND_NODES */
	__u32 niov;		/* entries in iov, at most MCAST_MAX_IOV */
	__u64 iov;		/* user pointer to struct mcast_iov[niov] */
	__u64 nodes;		/* MCAST_SEND_NODES: user pointer to __u32[] */
	__u32 nnodes;
	__u32 algorithm;	/* MCAST_SEND_ALGORITHM: enum mcast_algorithm
				 * in bits 0-7, mu-torus r in bits 8-15 (0:
				 * the node's); else 0
				 */
	__u64 seq;		/* out: sequence number given to the message */
	__u64 failed;		/* MCAST_SEND_WAIT: user pointer to __u32[] */
	__u32 nfailed;		/* in: room in failed; out: nodes not reached */
	__u32 timeout_ms;	/* MCAST_SEND_WAIT: 0 for the default */
};

/* mcast_recv.flags, in */
#define MCAST_RECV_DONTWAIT	(1u << 0)	/* -EAGAIN instead of blocking */
/* mcast_recv.flags, out */
#define MCAST_RECV_TRUNC	(1u << 16)	/* message longer than buflen */

/*
 * MCAST_IOC_RECV takes the next message off this file's receive queue and
 * returns the number of bytes copied to buf: min(buflen, len).  A longer
 * message is truncated (MCAST_RECV_TRUNC) and consumed whole, as it is
 * when copying out faults (-EFAULT).  With no message queued it waits
 * (interruptibly) unless MCAST_RECV_DONTWAIT or O_NONBLOCK: -EAGAIN.
 * The only flag taken in is MCAST_RECV_DONTWAIT: others give -EINVAL.
 *
 * read() on the file also takes the next message: it returns its payload
 * truncated to the read's count (the rest is discarded).  poll() reports
 * EPOLLIN while the queue is not empty, and EPOLLOUT while the node has
 * room for a send of any size (see MCAST_SEND_* above: a node keeps a
 * bounded number of messages and bytes in flight; past that a send waits,
 * or fails with -EAGAIN on an O_NONBLOCK file) and, after a send refused
 * for a full lossless member on this node, once that member has read or
 * a second has passed.
 *
 * The receive queue.  A file's queue holds mcast_info.rxq_limit messages
 * (and at most 64 MiB of them).  When it is full:
 *   A member that joined without MCAST_JOIN_LOSSY (the default) is
 *   lossless: the node holds the group's next message, and every later one
 *   of its sender, until the file has room again (a read), and
 *   the senders slow down: a send on this node waits for room (or gives
 *   -EAGAIN on an O_NONBLOCK file), a message from the network is not
 *   reported done to its sender until it is queued, and what the node
 *   holds is bounded (past that its parents are answered BUSY).  A file
 *   that stays full for rx_stall_ms (module parameter, default 20000 ms)
 *   is cut off, so one stalled reader does not stop its group for ever:
 *   an MCAST_CMD_CUTOFF notification (group, pid) is sent, the node's
 *   cutoffs count it, and until the file has read its queue empty it loses
 *   messages as a lossy member does; each message it loses so lists this
 *   node in failed[] of a sender in completion mode.
 *   A lossy member (MCAST_JOIN_LOSSY), and every file for a message to a
 *   node list, drops the NEW message: the file counts it (reported in
 *   the next receive's dropped), the node's and group's rx_drops count it,
 *   and the first drop since the file's last receive sends an
 *   MCAST_CMD_OVERFLOW notification (group, pid, drops).
 */
struct mcast_recv {
	__u32 size;		/* sizeof(struct mcast_recv) */
	__u32 flags;		/* MCAST_RECV_* */
	__u64 buf;		/* user pointer */
	__u32 buflen;
	__u32 len;		/* out: the message's full length */
	__u32 group;		/* out: group, or MCAST_NO_GROUP for a node list */
	__u32 src_node;		/* out: sending node */
	__u64 seq;		/* out: sender's sequence number */
	__u32 dropped;		/* out: messages this file lost to overflow
				 * since its previous receive
				 */
	__u32 step;		/* out: U-torus step in which this node got
				 * it (0 at the source)
				 */
	__u32 from_node;	/* out: the node that sent it to this one */
	/*
	 * out, on a transport with a virtual clock (the simulated IR fabric,
	 * mcast_irsim.ko), else 0: the virtual latency of the worm that
	 * brought the message's last bytes here, from its handover to the
	 * fabric to this host's copy (saturating at 2^32 - 1 ns), and the
	 * fabric's virtual time at which the message was whole here.
	 */
	__u32 vlat_ns;
	__u64 vtime_ns;
};

#define MCAST_IOC_INFO		_IOWR(MCAST_IOC_MAGIC, 0x00, struct mcast_info)
#define MCAST_IOC_JOIN		_IOW(MCAST_IOC_MAGIC, 0x01, struct mcast_group_req)
#define MCAST_IOC_LEAVE		_IOW(MCAST_IOC_MAGIC, 0x02, struct mcast_group_req)
#define MCAST_IOC_SEND		_IOWR(MCAST_IOC_MAGIC, 0x03, struct mcast_send)
#define MCAST_IOC_RECV		_IOWR(MCAST_IOC_MAGIC, 0x04, struct mcast_recv)

/*
 * io_uring: IORING_OP_URING_CMD with sqe->cmd_op set to one of these and
 * the command area holding struct mcast_uring_cmd; cqe->res is what the
 * ioctl would return (received length for a receive).  A receive with no
 * message queued completes when one arrives (it waits in io_uring's
 * worker), or with -EAGAIN if it has MCAST_RECV_DONTWAIT.  A non-zero
 * reserved field gives -EINVAL, an unknown cmd_op -ENOTTY.
 */
#define MCAST_URING_SEND	1
#define MCAST_URING_RECV	2

struct mcast_uring_cmd {
	__u64 arg;		/* user pointer to struct mcast_send/mcast_recv */
	__u64 reserved;
};

/* ---- generic netlink ------------------------------------------------ */

/*
 * Requests are validated in full before anything changes; every refusal
 * has an errno and an extack message (attribute ranges are checked by the
 * netlink core: -ERANGE, "integer out of range").  Mutating commands need
 * CAP_NET_ADMIN in the initial user namespace (-EPERM otherwise, also for
 * the root of a user namespace that owns the network namespace); each
 * network namespace is one node.
 *
 * NODE_SET: MCAST_A_NODE with KIND (torus), DIMS and COORD, LINKS
 *   optional (unidirectional).  A coordinate outside the torus: -ERANGE.
 *   Changing the topology or the coordinate while peers or groups exist:
 *   -EBUSY.  PEER_* and GROUP_* before the first NODE_SET: -EINVAL.
 * PEER_NEW/DEL/GET: MCAST_A_PEER naming the peer by ID or by COORD (not
 *   both; outside the torus: -ERANGE).  PEER_NEW also needs exactly one of
 *   IPV4 and IPV6, and PORT; this node itself: -EINVAL; a known peer:
 *   -EEXIST.  DEL/GET of an unknown peer: -ENOENT.
 * GROUP_NEW: MCAST_A_GROUP with ID (>= 1; exists: -EEXIST), optionally
 *   MEMBERS etc. as for GROUP_SET; epoch 1; MCAST_MAX_GROUPS groups
 *   already: -ENOSPC.  GROUP_SET (epoch + 1) and GROUP_DEL/GET of an
 *   unknown group: -ENOENT.
 * Two writers (mcastd and an admin's mcastctl): GROUP_SET and GROUP_DEL
 *   with EPOCH apply only if the group's epoch is still that one (else
 *   -ESTALE: someone changed it since it was read).  A group set with
 *   MANAGED 1 belongs to mcastd: a GROUP_SET or GROUP_DEL without
 *   MANAGED is refused (-EBUSY) while it is managed; MANAGED 0 takes it
 *   back.
 * GROUP_SET: MEMBERS (node ids of the torus, none repeated, at most
 *   MCAST_MAX_MEMBERS of them, else -E2BIG), RCHAIN
 *   (exactly the members in <_d order) and, on a regular unidirectional
 *   torus only, HCYCLE (exactly the members in Hamiltonian label order);
 *   a wrong or missing chain, or an HCYCLE elsewhere: -EINVAL.
 * STATS_GET: do gives the node's statistics, or one group's when the
 *   request has MCAST_A_STATS with MCAST_STATS_A_GROUP; dump gives every
 *   group's.
 * GROUP_GET dump: a group too large for one dump message comes without
 *   its MEMBERS, RCHAIN and HCYCLE (ask for it with GROUP_GET do).
 *
 * Notifications on the "events" group: NODE_GET (the node) after a
 * NODE_SET; PEER_NEW, PEER_DEL (the peer); GROUP_NEW, GROUP_SET (the whole
 * group); GROUP_DEL (id, epoch), after the MEMBER_LEAVE of its local
 * members; MEMBER_JOIN, MEMBER_LEAVE (MCAST_A_EVENT: group, pid);
 * OVERFLOW (group, pid, drops); CUTOFF (group, pid).
 */
#define MCAST_GENL_NAME		"mcast"
#define MCAST_GENL_VERSION	1
#define MCAST_GENL_MCGRP_EVENTS	"events"

enum mcast_cmd {
	MCAST_CMD_UNSPEC,
	MCAST_CMD_NODE_GET,	/* do, dump; notification after a set */
	MCAST_CMD_NODE_SET,	/* admin */
	MCAST_CMD_PEER_NEW,	/* admin; also its notification */
	MCAST_CMD_PEER_DEL,	/* admin; also its notification */
	MCAST_CMD_PEER_GET,	/* do, dump */
	MCAST_CMD_GROUP_NEW,	/* admin; also its notification */
	MCAST_CMD_GROUP_DEL,	/* admin; also its notification */
	MCAST_CMD_GROUP_GET,	/* do, dump */
	MCAST_CMD_GROUP_SET,	/* admin: members and chain orders */
	MCAST_CMD_STATS_GET,	/* do (node, or one group), dump (groups) */
	MCAST_CMD_MEMBER_JOIN,	/* notification: a local file joined */
	MCAST_CMD_MEMBER_LEAVE,	/* notification: a local file left */
	MCAST_CMD_OVERFLOW,	/* notification: a receive queue dropped */
	MCAST_CMD_ERROR,	/* notification: an error on the data path */
	MCAST_CMD_PEER_DOWN,	/* notification: a peer stopped answering;
				 * its part of a tree was taken over
				 */
	MCAST_CMD_KEY_SET,	/* admin: the node's cluster keys
				 * (MCAST_A_KEY); notification: NODE_GET
				 */
	MCAST_CMD_CUTOFF,	/* notification: a lossless receiver that
				 * stopped reading was cut off
				 */
	MCAST_CMD_FABRIC_ALARM,	/* notification: the simulated IR fabric
				 * found a deadlock (EDEADLK) or a channel
				 * taken against Thm 5.1 (EPROTO) on a worm
				 * of this node (NODE), MSG says which
				 */
	MCAST_CMD_SEND_FAILED,	/* notification: a message sent without
				 * MCAST_SEND_WAIT ended with destinations
				 * that did not get it: GROUP, SEQ, NODES
				 */

	__MCAST_CMD_MAX,
	MCAST_CMD_MAX = __MCAST_CMD_MAX - 1
};

enum mcast_attr {
	MCAST_A_UNSPEC,
	MCAST_A_NODE,		/* nest: enum mcast_node_attr */
	MCAST_A_PEER,		/* nest: enum mcast_peer_attr */
	MCAST_A_GROUP,		/* nest: enum mcast_group_attr */
	MCAST_A_STATS,		/* nest: enum mcast_stats_attr */
	MCAST_A_EVENT,		/* nest: enum mcast_event_attr */
	MCAST_A_PAD,
	MCAST_A_KEY,		/* nest: enum mcast_key_attr */

	__MCAST_A_MAX,
	MCAST_A_MAX = __MCAST_A_MAX - 1
};

#define MCAST_TRANSPORT_NAME_MAX	16

/*
 * Cluster keys (MCAST_CMD_KEY_SET, docs/data-path.md "Cluster key"): with
 * a key, every datagram a node sends carries an HMAC-SHA256 tag (16 bytes)
 * under the key it uses, with a counter for the receiver's replay window,
 * and a node accepts only datagrams tagged under a key it has.  Up to
 * MCAST_KEYS_MAX keys at once, by id, so that a new key can be rotated in
 * without losing a message: install it on every node, then use it on
 * every node, then drop the old one.  Turning authentication on or off
 * (the first key, or dropping the last) needs the node idle.
 */
#define MCAST_KEY_LEN			32
#define MCAST_KEYS_MAX			4

enum mcast_key_attr {
	MCAST_KEY_A_UNSPEC,
	MCAST_KEY_A_ID,		/* u8, 1 to 255: the key a request is about */
	MCAST_KEY_A_SECRET,	/* binary, MCAST_KEY_LEN bytes: install key ID
				 * (or replace it); write-only
				 */
	MCAST_KEY_A_USE,	/* flag: send with key ID from now on (the
				 * first key installed is used at once)
				 */
	MCAST_KEY_A_DROP,	/* flag: remove key ID; not the one in use
				 * while others remain
				 */
	MCAST_KEY_A_NONE,	/* flag: remove every key: no authentication */

	__MCAST_KEY_A_MAX,
	MCAST_KEY_A_MAX = __MCAST_KEY_A_MAX - 1
};

/* Transport capabilities (MCAST_NODE_A_TRANSPORT_CAPS). */
#define MCAST_TRANSPORT_CAP_IR		(1u << 0)	/* intermediate
							 * reception
							 */
#define MCAST_TRANSPORT_CAP_RELIABLE	(1u << 1)	/* loses nothing it
							 * accepted, in order
							 */

/*
 * How a node multicasts (MCAST_NODE_A_ALGORITHM).  AUTO: on a transport
 * with intermediate reception, S-torus for at most 16 destinations or
 * messages of 64 KiB and more, else Mu-torus(r); without it, Mu-torus(4)
 * worms in software (pipelined chains: each destination passes the rest
 * of its worm on) for messages of 512 KiB and more to 4 destinations or
 * more, else U-torus unicast trees.  A path-based algorithm set on a
 * transport without IR runs in software too, counted in
 * MCAST_STATS_A_OFFLOAD_FALLBACKS.
 */
enum mcast_algorithm {
	MCAST_ALGORITHM_AUTO,
	MCAST_ALGORITHM_UTORUS,
	MCAST_ALGORITHM_STORUS,
	MCAST_ALGORITHM_MDTORUS,
	MCAST_ALGORITHM_MUTORUS,
	MCAST_ALGORITHM_BINOMIAL,	/* u-torus's halving over node-id order:
					 * u-torus on a torus; on a switched
					 * cluster a topology-blind binomial
					 * tree, to compare with its order
					 */
	/*
	 * On a hypercube (a torus whose every radix is 2) only: the
	 * all-port unicast trees of Robinson (1994), ch. 3, over E-cube
	 * routing, every holder sending on its distinct channels at once.
	 * W-sort's receivers forward as Maxport.  Software trees: a send
	 * with MCAST_SEND_OFFLOAD fails with -EOPNOTSUPP.
	 */
	MCAST_ALGORITHM_UCUBE,
	MCAST_ALGORITHM_MAXPORT,
	MCAST_ALGORITHM_COMBINE,
	MCAST_ALGORITHM_WSORT,
	/*
	 * On a hypercube: the group-multicast ring of Lin and Chen (1996).
	 * The members (sender included) are linked into a ring whose E-cube
	 * paths share no link, and a message travels it from the sender's
	 * successor to its predecessor, each member delivering and passing
	 * it on as it arrives: every member can send at once without
	 * contention.  A software worm (chain), never offloaded: a send
	 * with MCAST_SEND_OFFLOAD fails with -EOPNOTSUPP.
	 */
	MCAST_ALGORITHM_RING,
	/*
	 * On a mesh or torus whose sides are powers of two (2D, or 3D and
	 * more with equal sides), for a send to every node: the
	 * recursion-based broadcast of Zhuang and Liberatore.  The message
	 * is scattered over an XOR-diagonal and re-assembled by mirror and
	 * shift shares, each transfer one byte range, every node assembling
	 * it from several senders; one-port (the paper's), or all-port (one
	 * stream per dimension).  Per send, a send not to every node fails
	 * with -EOPNOTSUPP, and so does one with MCAST_SEND_OFFLOAD; as the
	 * node's setting,
	 * broadcasts go by it and other sends by U-torus.  With module
	 * parameter rb_auto, AUTO takes the one-port form for a broadcast the
	 * model says it speeds up (mc_rb_pick).
	 */
	MCAST_ALGORITHM_RB,
	MCAST_ALGORITHM_RB_ALL_PORT,
	__MCAST_ALGORITHM_MAX,
};

enum mcast_node_attr {
	MCAST_NODE_A_UNSPEC,
	MCAST_NODE_A_KIND,	/* u8: enum mcast_topo_kind */
	MCAST_NODE_A_LINKS,	/* u8: enum mcast_links */
	MCAST_NODE_A_DIMS,	/* binary: __u16[ndims], dims[i] radix of sigma_i */
	MCAST_NODE_A_COORD,	/* binary: __u16[ndims] */
	MCAST_NODE_A_ID,	/* u32, read-only */
	MCAST_NODE_A_PORT,	/* u16: this node's port (default 7447) */
	MCAST_NODE_A_TRANSPORT,	/* string: "udp" (default), "tcp", or one a
				 * module registered; at most
				 * MCAST_TRANSPORT_NAME_MAX bytes with the NUL;
				 * every node of a cluster uses the same one
				 */
	MCAST_NODE_A_RTO_MS,	/* u32: first retransmission timeout */
	MCAST_NODE_A_RETRIES,	/* u32: retransmissions before a peer is
				 * declared unreachable
				 */
	MCAST_NODE_A_KEY_IDS,	/* binary, read-only: __u8[] ids of the
				 * cluster keys installed (never the keys)
				 */
	MCAST_NODE_A_KEY_USE,	/* u8, read-only: the id of the key the node
				 * sends with; absent: no key, datagrams
				 * carry no authentication
				 */
	MCAST_NODE_A_TRANSPORT_CAPS,	/* u32, read-only: what the node's
					 * transport can do,
					 * MCAST_TRANSPORT_CAP_*
					 */
	MCAST_NODE_A_TRANSPORT_MTU,	/* u32, read-only: bytes in one of its
					 * datagrams
					 */
	MCAST_NODE_A_ALGORITHM,	/* u8: enum mcast_algorithm, what a send
				 * uses (default MCAST_ALGORITHM_AUTO); a
				 * path-based one on a torus that cannot run
				 * it (bidirectional, unequal radices) is
				 * refused, as is such a topology while one
				 * is set
				 */
	MCAST_NODE_A_ALGO_R,	/* u32: mu-torus partition size r, 2..255
				 * (default 8)
				 */
	MCAST_NODE_A_WORM_DESTS,	/* u32, read-only: destinations one
					 * worm of the transport may visit
					 * (absent: no IR)
					 */
	MCAST_NODE_A_WORM_HDR,	/* u32, read-only: bytes of a worm's
				 * compound header (per destination pieces)
				 */
	MCAST_NODE_A_RANKS,	/* binary: __u32[hosts], KIND SWITCH only:
				 * ranks[h] is host h's place among the hosts
				 * in the postorder of the switch graph's
				 * spanning tree (a permutation of
				 * 0..hosts-1, 2..MCAST_MAX_SWITCH_HOSTS
				 * hosts); chains sort by it, and only
				 * u-torus (recursive halving) runs
				 */

	__MCAST_NODE_A_MAX,
	MCAST_NODE_A_MAX = __MCAST_NODE_A_MAX - 1
};

enum mcast_peer_attr {
	MCAST_PEER_A_UNSPEC,
	MCAST_PEER_A_ID,	/* u32: node id */
	MCAST_PEER_A_COORD,	/* binary: __u16[ndims], instead of an id */
	MCAST_PEER_A_IPV4,	/* be32 */
	MCAST_PEER_A_IPV6,	/* binary: 16 bytes */
	MCAST_PEER_A_PORT,	/* u16, host order */
	/*
	 * The data path's view of the peer, in a PEER_GET reply only (a
	 * request carrying one is refused):
	 */
	MCAST_PEER_A_SRTT_US,	/* u32: smoothed round trip, in us; 0: no
				 * sample yet */
	MCAST_PEER_A_RTTVAR_US,	/* u32: its mean deviation, in us */
	MCAST_PEER_A_RTO_MS,	/* u32: the first timeout a transfer to it
				 * starts with now, in ms */
	MCAST_PEER_A_RTO_HELD_MS,	/* u32: a backed-off timeout kept for
					 * it until a round trip is timed
					 * (Karn), in ms; 0: none */
	MCAST_PEER_A_HEARD_MS,	/* u32: ms since its last datagram; absent:
				 * never heard */
	MCAST_PEER_A_DOWN,	/* u8: 1 if the data path gave up on it (until
				 * it speaks again) */
	MCAST_PEER_A_TRANSFERS,	/* u32: transfers to it sending data */
	MCAST_PEER_A_JOBS,	/* u32: transfers from it being received or
				 * forwarded */
	MCAST_PEER_A_HELD,	/* u32: its messages held for FIFO order */
	MCAST_PEER_A_STREAMS,	/* u32: FIFO streams its datagrams made here */
	MCAST_PEER_A_RX_MEM,	/* u32: bytes its transfers being reassembled
				 * reserve (its share: docs/data-path.md
				 * "Bounds") */
	MCAST_PEER_A_MSG_MEM,	/* u32: bytes of its messages being
				 * forwarded or assembled */
	MCAST_PEER_A_RB,	/* u32: broadcasts its ranges began
				 * assembling here */

	__MCAST_PEER_A_MAX,
	MCAST_PEER_A_MAX = __MCAST_PEER_A_MAX - 1
};

enum mcast_group_attr {
	MCAST_GROUP_A_UNSPEC,
	MCAST_GROUP_A_ID,	/* u32, >= 1 */
	MCAST_GROUP_A_EPOCH,	/* u32: bumped by every change; in SET and
				 * DEL: apply only at this epoch (-ESTALE)
				 */
	MCAST_GROUP_A_MEMBERS,	/* binary: __u32[] node ids */
	MCAST_GROUP_A_RCHAIN,	/* binary: __u32[] members in <_d order */
	MCAST_GROUP_A_HCYCLE,	/* binary: __u32[] members in label order */
	MCAST_GROUP_A_LOCAL,	/* u32, read-only: local files joined */
	MCAST_GROUP_A_MANAGED,	/* u8: 1 = mcastd keeps it (see above) */

	__MCAST_GROUP_A_MAX,
	MCAST_GROUP_A_MAX = __MCAST_GROUP_A_MAX - 1
};

enum mcast_stats_attr {
	MCAST_STATS_A_UNSPEC,
	MCAST_STATS_A_GROUP,		/* u32: group, absent for the node */
	MCAST_STATS_A_TX_MSGS,		/* u64 */
	MCAST_STATS_A_TX_BYTES,		/* u64 */
	MCAST_STATS_A_RX_MSGS,		/* u64: messages queued to files */
	MCAST_STATS_A_RX_BYTES,		/* u64 */
	MCAST_STATS_A_RX_DROPS,		/* u64: lost to full receive queues */
	MCAST_STATS_A_FILES,		/* u32: open files */
	MCAST_STATS_A_PAD,
	MCAST_STATS_A_FWD_MSGS,		/* u64: messages forwarded in the kernel */
	MCAST_STATS_A_TX_PACKETS,	/* u64: datagrams sent (data and acks) */
	MCAST_STATS_A_RX_PACKETS,	/* u64 */
	MCAST_STATS_A_RETRANS,		/* u64: datagrams sent again */
	MCAST_STATS_A_DUPS,		/* u64: duplicates suppressed */
	MCAST_STATS_A_PEER_FAILS,	/* u64: peers given up on */
	MCAST_STATS_A_UNREACHED,	/* u64: destinations reported failed */
	MCAST_STATS_A_CWND,		/* u64: the node's congestion window, in
					 * data fragments (a gauge) */
	MCAST_STATS_A_UNACKED,		/* u64: data fragments sent and not yet
					 * acknowledged (a gauge) */
	MCAST_STATS_A_FAST_RETRANS,	/* u64: of RETRANS, those sent on a
					 * gap in the acknowledgements rather
					 * than on a timeout */
	MCAST_STATS_A_RX_BAD_SRC,	/* u64: datagrams dropped unread: their
					 * source address is not the one
					 * configured for the node they claim
					 * to come from, or no peer's */
	MCAST_STATS_A_RX_MALFORMED,	/* u64: datagrams (and pieces) dropped
					 * as malformed: a field out of range,
					 * a fragment of the wrong length, a
					 * piece that is no rotated R-chain */
	MCAST_STATS_A_RX_MEM,		/* u64: bytes held for messages being
					 * reassembled (a gauge) */
	MCAST_STATS_A_REWINDS,		/* u64: transfers sent again from where
					 * a child that lost them was */
	MCAST_STATS_A_TX_EXPIRED,	/* u64: transfers given up at the end
					 * of their lifetime (module parameter
					 * transfer_lifetime_ms), their
					 * destinations reported failed */
	MCAST_STATS_A_BUSY_SENT,	/* u64: DATA answered BUSY: a bound on
					 * what peers may make this node keep
					 * was reached (back-pressure) */
	MCAST_STATS_A_JOBS,		/* u64: transfers from peers being
					 * received or forwarded (a gauge) */
	MCAST_STATS_A_DONE_JOBS,	/* u64: finished ones remembered to
					 * answer repeats (a gauge) */
	MCAST_STATS_A_TRANSFERS,	/* u64: transfers to children (a gauge) */
	MCAST_STATS_A_QUEUED,		/* u64: of those, waiting for room in
					 * their peer's window (a gauge) */
	MCAST_STATS_A_HELD,		/* u64: messages held for FIFO order
					 * (a gauge) */
	MCAST_STATS_A_MSG_MEM,		/* u64: bytes of received messages held
					 * for forwarding or for order (a gauge) */
	MCAST_STATS_A_STREAMS,		/* u64: (sender, group) streams whose
					 * order is kept (a gauge) */
	MCAST_STATS_A_FLOORS,		/* u64: senders with forgotten streams
					 * (a gauge; at most one per node) */
	MCAST_STATS_A_LATE,		/* u64: messages that came after their
					 * stream had stopped waiting for them,
					 * or below its last seq and not known
					 * delivered: refused (FIFO), this node
					 * reported failed to their sender */
	MCAST_STATS_A_RX_BAD_AUTH,	/* u64: datagrams from a peer's address
					 * dropped: no tag, a tag under no key
					 * the node has, a wrong tag, or a
					 * replayed counter */
	MCAST_STATS_A_TIMER_NS,		/* u64: time the node's timer work ran
					 * (retransmission, expiry), in ns: its
					 * cost, which follows the work due, not
					 * the state the node remembers */
	MCAST_STATS_A_BLOCKED,		/* u64: (sender, group) streams waiting
					 * for room in a lossless receiver's
					 * queue (a gauge) */
	MCAST_STATS_A_CUTOFFS,		/* u64: lossless receivers cut off
					 * after rx_stall_ms without room */
	MCAST_STATS_A_RX_STALE,		/* u64: DATA of transfers that began
					 * with a previous life of this node
					 * (it restarted), refused */
	MCAST_STATS_A_WORMS,		/* u64: worms this node sent (each a
					 * fragment to several destinations
					 * at once) */
	MCAST_STATS_A_WORM_DESTS,	/* u64: the destinations they visited */
	MCAST_STATS_A_WORM_SPLITS,	/* u64: worms split in two or more, over
					 * the transport's destination or
					 * header limit */
	MCAST_STATS_A_OFFLOAD_FALLBACKS,	/* u64: sends that wanted
						 * worms and had no IR: sent
						 * as software chains (or
						 * U-torus on a torus worms
						 * cannot run on) */
	MCAST_STATS_A_RX_WORMS,		/* u64: messages received as part of a
					 * worm (intermediate reception, or
					 * its software chain) */
	MCAST_STATS_A_RB_SENT,		/* u64: broadcasts this node sent by
					 * recursion-based broadcast */
	MCAST_STATS_A_RB_ASSEMBLED,	/* u64: messages this node assembled
					 * from their byte ranges */
	MCAST_STATS_A_RB_FALLBACKS,	/* u64: of RB_SENT, those finished by a
					 * U-torus tree to the nodes that had
					 * not reported the message whole (a
					 * node died or stalled, a report was
					 * lost) */
	MCAST_STATS_A_WORM_RESENDS,	/* u64: fragments sent again at once
					 * because the NIC's completion said a
					 * worm did not reach a destination
					 * whole (cut short, or its host
					 * missed the copy) */
	MCAST_STATS_A_DONE_PROBES,	/* u64: of RETRANS, those asking a
					 * child that holds the whole message
					 * for its subtree's DONE */
	MCAST_STATS_A_RX_YOUNG,		/* u64: DATA sent again, of transfers
					 * this node did not know, in its
					 * first stream_idle_ms: taken only
					 * once the parent said the transfer
					 * began in this life of the node */
	MCAST_STATS_A_ACKS_OLD,		/* u64: ACKs ignored as from a child's
					 * receiving job it has since replaced
					 * (reordered or duplicated on the way,
					 * or forged) */
	MCAST_STATS_A_TCP_CONNS,	/* u64: connections from peers the TCP
					 * transport holds (a gauge) */
	MCAST_STATS_A_TCP_EVICTED,	/* u64: of those, closed to make room
					 * for a newer one from the same
					 * address or past the node's cap */
	MCAST_STATS_A_TCP_UNAUTHED,	/* u64: closed for sending no frame the
					 * node believed (authenticated with a
					 * key) within tcp_auth_ms */
	MCAST_STATS_A_TCP_IDLE,		/* u64: closed after tcp_idle_ms
					 * without a frame */
	MCAST_STATS_A_TCP_BAD_FRAMES,	/* u64: closed on a frame that failed
					 * a check (its length, its sender's
					 * address, its tag, its fields) */

	__MCAST_STATS_A_MAX,
	MCAST_STATS_A_MAX = __MCAST_STATS_A_MAX - 1
};

/* The most node ids one event's MCAST_EVENT_A_NODES holds. */
#define MCAST_EVENT_NODES_MAX		1024

enum mcast_event_attr {
	MCAST_EVENT_A_UNSPEC,
	MCAST_EVENT_A_GROUP,	/* u32 */
	MCAST_EVENT_A_PID,	/* u32: tgid of the process that opened the
				 * file concerned, in the pid namespace of
				 * the process that configured the node
				 * (0: not visible there)
				 */
	MCAST_EVENT_A_DROPS,	/* u32: messages dropped */
	MCAST_EVENT_A_ERRNO,	/* u32: positive errno */
	MCAST_EVENT_A_MSG,	/* string */
	MCAST_EVENT_A_NODE,	/* u32: the node concerned (PEER_DOWN) */
	MCAST_EVENT_A_SEQ,	/* u64: the message concerned */
	MCAST_EVENT_A_PAD,
	MCAST_EVENT_A_NODES,	/* binary: u32 node ids, sorted, each once
				 * (SEND_FAILED: the failed list)
				 */
	MCAST_EVENT_A_TRUNC,	/* flag: NODES is not the whole list (out of
				 * memory, or past MCAST_EVENT_NODES_MAX)
				 */

	__MCAST_EVENT_A_MAX,
	MCAST_EVENT_A_MAX = __MCAST_EVENT_A_MAX - 1
};

#endif /* _UAPI_LINUX_MCAST_H */
