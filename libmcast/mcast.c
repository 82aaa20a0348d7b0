// SPDX-License-Identifier: LGPL-2.1-or-later OR MIT
/*
 * libmcast: /dev/mcast through its ioctls, and io_uring SQE helpers.
 *
 * Arguments are checked here, before any system call, so a bad call
 * fails the same way whether or not the module is loaded; the kernel
 * checks them again.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <linux/io_uring.h>

#include "mcast.h"

#define EXPORT __attribute__((visibility("default")))

struct mcast {
	int fd;
	uint64_t seq;		/* of the last synchronous send */
};

_Static_assert(sizeof(struct mcast_uring_cmd) <= 16,
	       "the command must fit the 64-byte SQE's command area");
_Static_assert(sizeof(struct mcast_send) == 64 && sizeof(struct mcast_recv) == 64,
	       "uapi struct sizes changed");

static int xioctl(const struct mcast *mc, unsigned long req, void *arg)
{
	if (ioctl(mc->fd, req, arg) < 0)
		return -errno;
	return 0;
}

EXPORT int mcast_open(struct mcast **out)
{
	const char *path = secure_getenv("MCAST_DEVICE");
	struct mcast *mc;
	int err;

	if (!out)
		return -EINVAL;
	*out = NULL;
	if (!path || !*path)
		path = MCAST_DEVICE_PATH;
	mc = calloc(1, sizeof(*mc));
	if (!mc)
		return -ENOMEM;
	mc->fd = open(path, O_RDWR | O_CLOEXEC);
	if (mc->fd < 0) {
		err = -errno;
		free(mc);
		return err;
	}
	*out = mc;
	return 0;
}

EXPORT void mcast_close(struct mcast *mc)
{
	if (!mc)
		return;
	close(mc->fd);
	free(mc);
}

EXPORT int mcast_fd(const struct mcast *mc)
{
	return mc ? mc->fd : -EINVAL;
}

EXPORT int mcast_info(struct mcast *mc, struct mcast_info *info)
{
	if (!mc || !info)
		return -EINVAL;
	memset(info, 0, sizeof(*info));
	info->size = sizeof(*info);
	return xioctl(mc, MCAST_IOC_INFO, info);
}

static int group_op(struct mcast *mc, unsigned long req, uint32_t group,
		    unsigned int flags)
{
	struct mcast_group_req r = {
		.size = sizeof(r), .group = group, .flags = flags
	};

	if (!mc || group == MCAST_NO_GROUP)
		return -EINVAL;
	return xioctl(mc, req, &r);
}

EXPORT int mcast_join(struct mcast *mc, uint32_t group)
{
	return group_op(mc, MCAST_IOC_JOIN, group, 0);
}

EXPORT int mcast_join_flags(struct mcast *mc, uint32_t group,
			    unsigned int flags)
{
	if (flags & ~MCAST_JOIN_LOSSY)
		return -EINVAL;
	return group_op(mc, MCAST_IOC_JOIN, group, flags);
}

EXPORT int mcast_leave(struct mcast *mc, uint32_t group)
{
	return group_op(mc, MCAST_IOC_LEAVE, group, 0);
}

#define SEND_FLAGS (MCAST_SEND_LOOPBACK | MCAST_SEND_SEPARATE | \
		    MCAST_SEND_OFFLOAD | MCAST_SEND_NO_OFFLOAD)

/* As the kernel: worms or none, not both; neither without a tree. */
static bool offload_ok(unsigned int flags)
{
	const unsigned int both = MCAST_SEND_OFFLOAD | MCAST_SEND_NO_OFFLOAD;
	unsigned int off = flags & both;

	return !off || (off != both && !(flags & MCAST_SEND_SEPARATE));
}

/* Flags, buffers and total length of a send; 0 or -errno. */
static int check_send(const struct mcast_iov *iov, unsigned int niov,
		      unsigned int flags)
{
	uint64_t total = 0;
	unsigned int i;

	if ((flags & ~SEND_FLAGS) || !offload_ok(flags))
		return -EINVAL;
	if (niov > MCAST_MAX_IOV || (niov && !iov))
		return -EINVAL;
	for (i = 0; i < niov; i++) {
		if (!iov[i].base && iov[i].len)
			return -EINVAL;
		if (iov[i].len > MCAST_MAX_MSG)
			return -EMSGSIZE;
		total += iov[i].len;
	}
	return total > MCAST_MAX_MSG ? -EMSGSIZE : 0;
}

static int check_nodes(const uint32_t *nodes, size_t nnodes)
{
	size_t i;

	if (!nodes || nnodes == 0 || nnodes > MCAST_MAX_DESTS)
		return -EINVAL;
	for (i = 0; i < nnodes; i++) {
		if (nodes[i] >= MCAST_MAX_NODES)
			return -EINVAL;
	}
	return 0;
}

EXPORT int mcast_send_init(struct mcast_send *s, uint32_t group,
			   const struct mcast_iov *iov, unsigned int niov,
			   unsigned int flags)
{
	int err;

	if (!s || group == MCAST_NO_GROUP)
		return -EINVAL;
	err = check_send(iov, niov, flags);
	if (err)
		return err;
	memset(s, 0, sizeof(*s));
	s->size = sizeof(*s);
	s->flags = flags;
	s->group = group;
	s->niov = niov;
	s->iov = (uintptr_t)iov;
	return 0;
}

EXPORT int mcast_send_init_nodes(struct mcast_send *s, const uint32_t *nodes,
				 size_t nnodes, const struct mcast_iov *iov,
				 unsigned int niov, unsigned int flags)
{
	int err;

	if (!s)
		return -EINVAL;
	err = check_nodes(nodes, nnodes);
	if (!err)
		err = check_send(iov, niov, flags);
	if (err)
		return err;
	memset(s, 0, sizeof(*s));
	s->size = sizeof(*s);
	s->flags = flags | MCAST_SEND_NODES;
	s->group = MCAST_NO_GROUP;
	s->niov = niov;
	s->iov = (uintptr_t)iov;
	s->nodes = (uintptr_t)nodes;
	s->nnodes = nnodes;
	return 0;
}

/* struct iovec[] to struct mcast_iov[]: -EINVAL on a bad count. */
static int conv_iov(const struct iovec *in, int cnt, struct mcast_iov *out)
{
	int i;

	if (cnt < 0 || cnt > (int)MCAST_MAX_IOV || (cnt && !in))
		return -EINVAL;
	for (i = 0; i < cnt; i++) {
		out[i].base = (uintptr_t)in[i].iov_base;
		out[i].len = in[i].iov_len;
	}
	return 0;
}

static int do_send(struct mcast *mc, struct mcast_send *s)
{
	int err = xioctl(mc, MCAST_IOC_SEND, s);

	if (!err || err == -EHOSTUNREACH)
		mc->seq = s->seq;
	return err;
}

EXPORT int mcast_sendv(struct mcast *mc, uint32_t group,
		       const struct iovec *iov, int iovcnt, unsigned int flags)
{
	struct mcast_iov v[MCAST_MAX_IOV];
	struct mcast_send s;
	int err;

	if (!mc)
		return -EINVAL;
	err = conv_iov(iov, iovcnt, v);
	if (!err)
		err = mcast_send_init(&s, group, v, iovcnt, flags);
	return err ? err : do_send(mc, &s);
}

EXPORT int mcast_send(struct mcast *mc, uint32_t group, const void *buf,
		      size_t len, unsigned int flags)
{
	struct iovec v = { .iov_base = (void *)buf, .iov_len = len };

	return mcast_sendv(mc, group, &v, 1, flags);
}

EXPORT int mcast_sendv_nodes(struct mcast *mc, const uint32_t *nodes,
			     size_t nnodes, const struct iovec *iov,
			     int iovcnt, unsigned int flags)
{
	struct mcast_iov v[MCAST_MAX_IOV];
	struct mcast_send s;
	int err;

	if (!mc)
		return -EINVAL;
	err = conv_iov(iov, iovcnt, v);
	if (!err)
		err = mcast_send_init_nodes(&s, nodes, nnodes, v, iovcnt, flags);
	return err ? err : do_send(mc, &s);
}

EXPORT int mcast_send_nodes(struct mcast *mc, const uint32_t *nodes,
			    size_t nnodes, const void *buf, size_t len,
			    unsigned int flags)
{
	struct iovec v = { .iov_base = (void *)buf, .iov_len = len };

	return mcast_sendv_nodes(mc, nodes, nnodes, &v, 1, flags);
}

EXPORT int mcast_send_set_wait(struct mcast_send *s, uint32_t *failed,
				uint32_t room, unsigned int timeout_ms)
{
	if (!s || (room && !failed))
		return -EINVAL;
	s->flags |= MCAST_SEND_WAIT;
	s->failed = (uintptr_t)failed;
	s->nfailed = room;
	s->timeout_ms = timeout_ms;
	return 0;
}

EXPORT int mcast_send_set_algorithm(struct mcast_send *s,
				     unsigned int algorithm, unsigned int r)
{
	bool mu = algorithm == MCAST_ALGORITHM_MUTORUS;

	/* as the kernel: r only for mu-torus, 0 meaning the node's */
	if (!s || algorithm >= __MCAST_ALGORITHM_MAX ||
	    (mu ? r == 1 || r > 255 : r != 0) ||
	    (s->flags & (MCAST_SEND_SEPARATE | MCAST_SEND_NO_OFFLOAD)))
		return -EINVAL;
	s->flags |= MCAST_SEND_ALGORITHM;
	s->algorithm = algorithm | r << 8;
	return 0;
}

EXPORT int mcast_send_wait(struct mcast *mc, uint32_t group,
			   const uint32_t *nodes, size_t nnodes,
			   const void *buf, size_t len, unsigned int flags,
			   unsigned int timeout_ms, uint32_t *failed,
			   size_t *nfailed)
{
	struct mcast_iov v = { .base = (uintptr_t)buf, .len = len };
	size_t room = nfailed ? *nfailed : 0;
	struct mcast_send s;
	int err;

	if (!mc || room > UINT32_MAX)
		return -EINVAL;
	err = nodes ? mcast_send_init_nodes(&s, nodes, nnodes, &v, 1, flags) :
		      mcast_send_init(&s, group, &v, 1, flags);
	if (!err)
		err = mcast_send_set_wait(&s, failed, room, timeout_ms);
	if (!err)
		err = do_send(mc, &s);
	if (nfailed && (!err || err == -EHOSTUNREACH))
		*nfailed = s.nfailed;
	return err;
}

EXPORT uint64_t mcast_send_seq(const struct mcast *mc)
{
	return mc ? mc->seq : 0;
}

EXPORT int mcast_recv_init(struct mcast_recv *r, void *buf, size_t len,
			   unsigned int flags)
{
	if (!r || (!buf && len) || (flags & ~MCAST_RECV_DONTWAIT))
		return -EINVAL;
	memset(r, 0, sizeof(*r));
	r->size = sizeof(*r);
	r->flags = flags;
	r->buf = (uintptr_t)buf;
	r->buflen = len > UINT32_MAX ? UINT32_MAX : len;
	return 0;
}

EXPORT ssize_t mcast_recv_result(const struct mcast_recv *r, int res,
				 struct mcast_msginfo *info)
{
	uint32_t stored;

	if (!r)
		return -EINVAL;
	if (res < 0)
		return res;
	stored = r->len < r->buflen ? r->len : r->buflen;
	if (info) {
		memset(info, 0, sizeof(*info));
		info->group = r->group;
		info->src_node = r->src_node;
		info->seq = r->seq;
		info->len = r->len;
		info->truncated = (r->flags & MCAST_RECV_TRUNC) ||
				  r->len > r->buflen;
		info->dropped = r->dropped;
		info->step = r->step;
		info->from_node = r->from_node;
		info->vlat_ns = r->vlat_ns;
	}
	return stored;
}

EXPORT ssize_t mcast_recv(struct mcast *mc, void *buf, size_t len,
			  struct mcast_msginfo *info, unsigned int flags)
{
	struct mcast_recv r;
	int err;

	if (!mc)
		return -EINVAL;
	err = mcast_recv_init(&r, buf, len, flags);
	if (!err)
		err = xioctl(mc, MCAST_IOC_RECV, &r);
	return mcast_recv_result(&r, err, info);
}

/* What liburing's io_uring_prep_rw() does, for IORING_OP_URING_CMD. */
static int prep_cmd(struct io_uring_sqe *sqe, const struct mcast *mc,
		    uint32_t op, void *arg)
{
	struct mcast_uring_cmd cmd = { .arg = (uintptr_t)arg };
	uint64_t user_data;

	if (!sqe || !mc || !arg)
		return -EINVAL;
	user_data = sqe->user_data;
	memset(sqe, 0, sizeof(*sqe));
	sqe->opcode = IORING_OP_URING_CMD;
	sqe->fd = mc->fd;
	sqe->cmd_op = op;
	sqe->user_data = user_data;
	memcpy(sqe->cmd, &cmd, sizeof(cmd));
	return 0;
}

EXPORT int mcast_uring_prep_send(struct io_uring_sqe *sqe, struct mcast *mc,
				 struct mcast_send *s)
{
	if (s && s->size != sizeof(*s))
		return -EINVAL;
	return prep_cmd(sqe, mc, MCAST_URING_SEND, s);
}

EXPORT int mcast_uring_prep_recv(struct io_uring_sqe *sqe, struct mcast *mc,
				 struct mcast_recv *r)
{
	if (r && r->size != sizeof(*r))
		return -EINVAL;
	return prep_cmd(sqe, mc, MCAST_URING_RECV, r);
}

EXPORT const char *mcast_strerror(int err)
{
	const char *s;

	s = strerrordesc_np(err < 0 ? -err : err);
	return s ? s : "unknown error";
}
