/* SPDX-License-Identifier: LGPL-2.1-or-later OR MIT */
/*
 * libmcast: the application API of mcast (topology-aware multicast).
 *
 * A struct mcast is one open file of /dev/mcast: it joins groups, sends to
 * a group or to a list of nodes, and receives what is sent to the groups it
 * joined.  Every function returns 0 (or a length) on success and a
 * negative errno on failure; the library never prints anything.
 *
 * -ENOENT from mcast_open() means /dev/mcast does not exist: the mcast
 * kernel module is not loaded (modprobe mcast).  The environment variable
 * MCAST_DEVICE, when set and not empty, names another device path (tests).
 *
 * Asynchronous use through io_uring: fill a struct mcast_send or
 * struct mcast_recv with mcast_send_init()/mcast_recv_init(), put it in an
 * SQE with mcast_uring_prep_send()/mcast_uring_prep_recv(), and decode the
 * completion's result with mcast_recv_result() (a send's is 0 or -errno).
 * The struct, the iovecs, the node list and the buffers must stay valid
 * until the completion arrives.  libmcast does not link liburing; it only
 * fills the SQE (the command fits a normal 64-byte SQE).
 */
#ifndef LIBMCAST_MCAST_H
#define LIBMCAST_MCAST_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <sys/uio.h>

#include <linux/mcast.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * The library's version, MAJOR.MINOR: MAJOR is the SONAME's
 * (libmcast.so.MAJOR, package libmcastMAJOR), MCAST_MAJOR.MINOR the newest
 * version node of libmcast.map, whose functions a program may use when
 * LIBMCAST_VERSION_MINOR is at least MINOR.  The Makefile reads both from
 * here (real name libmcast.so.MAJOR.MINOR.0); tests/cli/lib_abi.t checks
 * that the map, the .so and debian/ agree.
 */
#define LIBMCAST_VERSION_MAJOR	1
#define LIBMCAST_VERSION_MINOR	2

/* The default device path (MCAST_DEVICE in the environment overrides it). */
#define MCAST_DEVICE_PATH	"/dev/" MCAST_DEVICE_NAME

struct mcast;
struct io_uring_sqe;

/* What mcast_recv() tells about the message it returned. */
struct mcast_msginfo {
	uint32_t group;		/* its group, or MCAST_NO_GROUP (node list) */
	uint32_t src_node;	/* the sending node's id */
	uint64_t seq;		/* the sender's sequence number */
	uint32_t len;		/* the message's full length */
	uint32_t truncated;	/* 1 if len exceeded the buffer */
	uint32_t dropped;	/* messages lost to a full receive queue
				 * since the previous receive */
	uint32_t step;		/* U-torus step in which this node got it */
	uint32_t from_node;	/* the node that sent it to this one */
	uint32_t vlat_ns;	/* on a simulated IR fabric (irsim), else 0:
				 * the virtual latency of the worm that
				 * brought its last bytes (handover to the
				 * host's copy); struct mcast_recv also has
				 * the virtual time it was whole here */
};

/* Open /dev/mcast (close-on-exec).  -ENOENT: the module is not loaded. */
int mcast_open(struct mcast **out);
/* Close and free; NULL is allowed. */
void mcast_close(struct mcast *mc);
/* The file descriptor, for poll/epoll (POLLIN: a message is queued). */
int mcast_fd(const struct mcast *mc);

/* This node's topology, coordinate, capabilities and limits. */
int mcast_info(struct mcast *mc, struct mcast_info *info);

/*
 * Receive the messages of @group (>= 1) / stop receiving them.  A member
 * is lossless: when its queue is full the group's senders wait for it
 * (until it is cut off after the kernel's rx_stall_ms).  mcast_join_flags()
 * with MCAST_JOIN_LOSSY makes one that drops instead (mcast_recv() reports
 * the drops).
 */
int mcast_join(struct mcast *mc, uint32_t group);
int mcast_join_flags(struct mcast *mc, uint32_t group, unsigned int flags);
int mcast_leave(struct mcast *mc, uint32_t group);

/*
 * Send to every member node of @group.  @flags, any of:
 * MCAST_SEND_LOOPBACK (the sending file gets it too); MCAST_SEND_SEPARATE
 * (no tree: this node sends to every destination itself, the baseline for
 * comparisons); MCAST_SEND_OFFLOAD (path-based worms only: -EOPNOTSUPP
 * where the transport has no intermediate reception or the torus cannot
 * run them) or MCAST_SEND_NO_OFFLOAD (U-torus unicast trees only); without
 * either of these the node's algorithm decides.  Not both of them, nor
 * either with MCAST_SEND_SEPARATE (-EINVAL); they need MCAST_CAP_OFFLOAD.
 * At most MCAST_MAX_MSG bytes (-EMSGSIZE), at most MCAST_MAX_IOV iovecs
 * (-EINVAL).  mcast_send_seq() then gives the message's sequence number.
 */
int mcast_send(struct mcast *mc, uint32_t group, const void *buf, size_t len,
	       unsigned int flags);
int mcast_sendv(struct mcast *mc, uint32_t group, const struct iovec *iov,
		int iovcnt, unsigned int flags);
/* Send to an explicit list of 1 to MCAST_MAX_DESTS node ids. */
int mcast_send_nodes(struct mcast *mc, const uint32_t *nodes, size_t nnodes,
		     const void *buf, size_t len, unsigned int flags);
int mcast_sendv_nodes(struct mcast *mc, const uint32_t *nodes, size_t nnodes,
		      const struct iovec *iov, int iovcnt, unsigned int flags);
/*
 * Completion mode: return only when every destination node has the
 * message: 0, or -EHOSTUNREACH when some could not be reached; their ids
 * are then in @failed (room for *@nfailed; *@nfailed becomes how many
 * failed, which may exceed the room).  @timeout_ms bounds the wait (0:
 * the node's default).  @nodes NULL sends to @group, else to the @nnodes
 * nodes (group 0).
 */
int mcast_send_wait(struct mcast *mc, uint32_t group, const uint32_t *nodes,
		    size_t nnodes, const void *buf, size_t len,
		    unsigned int flags, unsigned int timeout_ms,
		    uint32_t *failed, size_t *nfailed);
/* The sequence number of the last message this handle sent synchronously. */
uint64_t mcast_send_seq(const struct mcast *mc);

/*
 * Receive one message into @buf (blocks unless @flags has
 * MCAST_RECV_DONTWAIT: -EAGAIN).  Returns the bytes stored in @buf; a
 * longer message is truncated (info->truncated, info->len is its length).
 * @info may be NULL.
 */
ssize_t mcast_recv(struct mcast *mc, void *buf, size_t len,
		   struct mcast_msginfo *info, unsigned int flags);

/* ---- building blocks for io_uring (and for callers of the ioctls) ---- */

/*
 * Fill @s for sending the @niov buffers of @iov (struct mcast_iov: base is
 * a pointer cast to uint64_t) to @group, or, with mcast_send_init_nodes(),
 * to @nnodes node ids.  Validates like mcast_send().
 */
int mcast_send_init(struct mcast_send *s, uint32_t group,
		    const struct mcast_iov *iov, unsigned int niov,
		    unsigned int flags);
int mcast_send_init_nodes(struct mcast_send *s, const uint32_t *nodes,
			  size_t nnodes, const struct mcast_iov *iov,
			  unsigned int niov, unsigned int flags);
/*
 * Turn a filled @s into a completion-mode send (MCAST_SEND_WAIT) that
 * reports up to @room unreachable node ids in @failed.
 */
int mcast_send_set_wait(struct mcast_send *s, uint32_t *failed, uint32_t room,
			unsigned int timeout_ms);
/*
 * Make @s use @algorithm (enum mcast_algorithm) instead of the node's,
 * with mu-torus partition size @r (2..255; 0: the node's; 0 for the
 * others): MCAST_SEND_ALGORITHM.  -EINVAL on a bad value, or on a send
 * with MCAST_SEND_SEPARATE or MCAST_SEND_NO_OFFLOAD.  Needs
 * MCAST_CAP_OFFLOAD.
 */
int mcast_send_set_algorithm(struct mcast_send *s, unsigned int algorithm,
			     unsigned int r);
/* Fill @r for receiving into @buf (@len bytes; at most 4 GiB - 1 used). */
int mcast_recv_init(struct mcast_recv *r, void *buf, size_t len,
		    unsigned int flags);
/*
 * After a receive (ioctl or io_uring) whose result was @res: the bytes
 * stored in the buffer, or @res if it is negative; fills @info (optional).
 */
ssize_t mcast_recv_result(const struct mcast_recv *r, int res,
			  struct mcast_msginfo *info);

/*
 * Make @sqe an IORING_OP_URING_CMD (MCAST_URING_SEND / MCAST_URING_RECV)
 * on @mc's file for @s / @r.  Call before io_uring_sqe_set_data() (the
 * SQE's user_data is kept, every other field is set).  cqe->res is 0 for a
 * send (s->seq then holds the sequence number), for a receive what
 * mcast_recv_result() takes; a negative errno on failure.
 */
int mcast_uring_prep_send(struct io_uring_sqe *sqe, struct mcast *mc,
			  struct mcast_send *s);
int mcast_uring_prep_recv(struct io_uring_sqe *sqe, struct mcast *mc,
			  struct mcast_recv *r);

/*
 * A short English description of a libmcast error (-errno): the C
 * library's, thread-safe.  -ENOENT from mcast_open() means "the module is
 * not loaded"; from the kernel it means what the call documents (for
 * mcast_join(), no such group).
 */
const char *mcast_strerror(int err);

#ifdef __cplusplus
}
#endif

#endif /* LIBMCAST_MCAST_H */
