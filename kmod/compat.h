/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * Kernel API differences between the kernels mcast.ko builds for (6.1 and
 * later), decided by feature probes on the kernel headers, never by
 * version numbers.  Every such difference lives here.
 */
#ifndef MCAST_COMPAT_H
#define MCAST_COMPAT_H

#include <linux/netlink.h>

/*
 * io_uring commands: 6.1 has struct io_uring_cmd in <linux/io_uring.h>
 * with the command area at ->cmd; later kernels moved it to
 * <linux/io_uring/cmd.h> and reach the area through the SQE.
 */
#ifdef MCAST_HAVE_IO_URING_CMD_H	/* Kbuild's probe */
#include <linux/io_uring/cmd.h>

static inline const void *mcast_uring_cmd_area(const struct io_uring_cmd *c)
{
	return io_uring_sqe_cmd(c->sqe);
}
#else
#include <linux/io_uring.h>

static inline const void *mcast_uring_cmd_area(const struct io_uring_cmd *c)
{
	return c->cmd;
}
#endif

/*
 * An extack message that is not a literal (a reason from the planning
 * core, which points to static storage).
 */
static inline void mcast_extack_set(struct netlink_ext_ack *extack,
				    const struct nlattr *attr, const char *msg)
{
	if (extack) {
		extack->_msg = msg;
		extack->bad_attr = attr;
	}
}

/*
 * A formatted extack message where the kernel can hold one (it has a
 * buffer for it since 6.2); @plain elsewhere.
 */
#ifdef NL_SET_ERR_MSG_FMT
#define mcast_extack_fmt(extack, attr, plain, fmt, ...) do {		\
	NL_SET_ERR_MSG_FMT(extack, fmt, ##__VA_ARGS__);			\
	NL_SET_BAD_ATTR(extack, attr);					\
} while (0)
#else
#define mcast_extack_fmt(extack, attr, plain, fmt, ...)			\
	NL_SET_ERR_MSG_ATTR(extack, attr, plain)
#endif

/* get/put_unaligned_be*: <linux/unaligned.h> since 6.12. */
#ifdef MCAST_HAVE_LINUX_UNALIGNED_H	/* Kbuild's probe */
#include <linux/unaligned.h>
#else
#include <asm/unaligned.h>
#endif

#endif /* MCAST_COMPAT_H */
