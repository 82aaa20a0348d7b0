/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * mcastd's event loop: wait until one of a few fds is readable or a time
 * passes.  On io_uring (a poll request armed per fd, re-armed only once
 * it fired), or on plain poll(2) (--poll: for valgrind, which does not
 * follow io_uring's memory writes, and for kernels without io_uring).
 */
#ifndef MCASTD_LOOP_H
#define MCASTD_LOOP_H

#include <stdbool.h>
#include <liburing.h>

#define MCD_LOOP_MAX	8

struct mcd_loop {
	bool uring;
	struct io_uring ring;
	unsigned int nfds;
	int fds[MCD_LOOP_MAX];
	bool armed[MCD_LOOP_MAX];
};

/* 0, or -errno (no io_uring: the caller may fall back to poll). */
int mcd_loop_init(struct mcd_loop *l, bool uring);
void mcd_loop_fini(struct mcd_loop *l);
/* Watch @fd for input; returns its index. */
int mcd_loop_add(struct mcd_loop *l, int fd);
/* Wait up to @timeout_ms (< 0: forever); ready[i] for each fd readable. */
int mcd_loop_wait(struct mcd_loop *l, int timeout_ms, bool *ready);

#endif /* MCASTD_LOOP_H */
