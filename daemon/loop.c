// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * mcastd's event loop (loop.h).
 */
#include <errno.h>
#include <poll.h>
#include <string.h>

#include "loop.h"

int mcd_loop_init(struct mcd_loop *l, bool uring)
{
	memset(l, 0, sizeof(*l));
	if (!uring)
		return 0;
	if (io_uring_queue_init(2 * MCD_LOOP_MAX, &l->ring, 0) < 0)
		return -EOPNOTSUPP;
	l->uring = true;
	return 0;
}

void mcd_loop_fini(struct mcd_loop *l)
{
	if (l->uring)
		io_uring_queue_exit(&l->ring);
	l->uring = false;
}

int mcd_loop_add(struct mcd_loop *l, int fd)
{
	if (l->nfds == MCD_LOOP_MAX)
		return -ENOSPC;
	l->fds[l->nfds] = fd;
	l->armed[l->nfds] = false;
	return l->nfds++;
}

static int wait_poll(struct mcd_loop *l, int timeout_ms, bool *ready)
{
	struct pollfd p[MCD_LOOP_MAX];
	unsigned int i;
	int n;

	for (i = 0; i < l->nfds; i++)
		p[i] = (struct pollfd){ .fd = l->fds[i], .events = POLLIN };
	n = poll(p, l->nfds, timeout_ms);
	if (n < 0)
		return errno == EINTR ? 0 : -errno;
	for (i = 0; i < l->nfds; i++)
		ready[i] = p[i].revents != 0;
	return n;
}

/* Arm a poll request on every fd whose last one fired. */
static int arm(struct mcd_loop *l)
{
	unsigned int i;

	for (i = 0; i < l->nfds; i++) {
		struct io_uring_sqe *sqe;

		if (l->armed[i])
			continue;
		sqe = io_uring_get_sqe(&l->ring);
		if (!sqe)
			return -EBUSY;
		io_uring_prep_poll_add(sqe, l->fds[i], POLLIN);
		io_uring_sqe_set_data64(sqe, i);
		l->armed[i] = true;
	}
	return io_uring_submit(&l->ring) < 0 ? -EIO : 0;
}

static int wait_uring(struct mcd_loop *l, int timeout_ms, bool *ready)
{
	struct __kernel_timespec ts = {
		.tv_sec = timeout_ms / 1000,
		.tv_nsec = (long long)(timeout_ms % 1000) * 1000000,
	};
	struct io_uring_cqe *cqe;
	int err, n = 0;

	err = arm(l);
	if (err)
		return err;
	err = io_uring_wait_cqe_timeout(&l->ring, &cqe,
					timeout_ms < 0 ? NULL : &ts);
	if (err == -ETIME || err == -EINTR)
		return 0;
	if (err)
		return err;
	while (!io_uring_peek_cqe(&l->ring, &cqe)) {
		unsigned long long i = io_uring_cqe_get_data64(cqe);

		if (i < l->nfds) {
			l->armed[i] = false;
			ready[i] = true;
			n++;
		}
		io_uring_cqe_seen(&l->ring, cqe);
	}
	return n;
}

int mcd_loop_wait(struct mcd_loop *l, int timeout_ms, bool *ready)
{
	memset(ready, 0, l->nfds * sizeof(*ready));
	return l->uring ? wait_uring(l, timeout_ms, ready) :
			  wait_poll(l, timeout_ms, ready);
}
