// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * libmcast against the loaded module (run inside the test VM by
 * tests/vm/guest/lib_api.t, which configures the node first): info, join
 * and leave, sends to a group and to a node list, loopback, scatter/gather,
 * truncation, poll, overflow accounting, and send/receive through
 * io_uring with the SQE helpers.
 *
 * Expects node 6 = (1,2) of torus:4x4, group 1 with this node among its
 * members, and no group 99.  Without /dev/mcast (on the build host) it
 * skips everything.
 */
#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <liburing.h>

#include "mcast.h"
#include "tap.h"

#define NODE	6u
#define GROUP	1u

static int pending(struct mcast *mc)
{
	struct pollfd p = { .fd = mcast_fd(mc), .events = POLLIN };

	return poll(&p, 1, 0) == 1 && (p.revents & POLLIN);
}

/* Receive everything queued (DONTWAIT); returns how many. */
static int drain(struct mcast *mc)
{
	char buf[64];
	int n = 0;

	while (mcast_recv(mc, buf, sizeof(buf), NULL, MCAST_RECV_DONTWAIT) >= 0)
		n++;
	return n;
}

static void test_info(struct mcast *a)
{
	struct mcast_info info;

	is_int(mcast_info(a, &info), 0, "mcast_info");
	ok(info.abi_version == MCAST_ABI_VERSION, "abi_version %u", info.abi_version);
	ok(info.caps & MCAST_CAP_URING, "caps has MCAST_CAP_URING");
	is_int(info.node_id, NODE, "node_id");
	ok(info.kind == MCAST_TOPO_TORUS && info.links == MCAST_LINKS_UNI &&
	   info.ndims == 2 && info.dims[0] == 4 && info.dims[1] == 4,
	   "a 4x4 unidirectional torus");
	ok(info.coord[1] == 1 && info.coord[0] == 2,
	   "coordinate (1,2): coord[1] = 1, coord[0] = 2");
	ok(info.max_msg == MCAST_MAX_MSG && info.rxq_limit > 0,
	   "max_msg %u, rxq_limit %u", info.max_msg, info.rxq_limit);
}

static void test_sync(struct mcast *a, struct mcast *b)
{
	struct mcast_msginfo mi;
	struct iovec iov[3] = {
		{ .iov_base = "abc", .iov_len = 3 },
		{ .iov_base = "", .iov_len = 0 },
		{ .iov_base = "defgh", .iov_len = 5 },
	};
	uint32_t me = NODE;
	char buf[256], big[100];
	ssize_t n;

	is_int(mcast_join(a, GROUP), 0, "a joins group 1");
	is_int(mcast_join(b, GROUP), 0, "b joins group 1");
	is_int(mcast_join(b, 97), 0, "joining group 97 (absent) creates it");
	is_int(mcast_leave(b, 97), 0, "... and b leaves it");
	is_int(mcast_leave(b, 98), -ENOENT, "leaving group 98 (absent): -ENOENT");
	is_int(mcast_join(b, GROUP), -EALREADY, "joining group 1 twice: -EALREADY");
	ok(!pending(b), "b: nothing queued, no POLLIN");

	is_int(mcast_send(a, GROUP, "hello", 5, 0), 0, "a sends 5 bytes to group 1");
	ok(mcast_send_seq(a) != 0, "mcast_send_seq gives its sequence number");
	ok(pending(b), "b: POLLIN");
	n = mcast_recv(b, buf, sizeof(buf), &mi, 0);
	ok(n == 5 && !memcmp(buf, "hello", 5), "b receives it, byte-exact");
	ok(mi.group == GROUP && mi.src_node == NODE && mi.len == 5 &&
	   !mi.truncated && mi.seq == mcast_send_seq(a) && mi.dropped == 0,
	   "its info: group 1, from node 6, length 5, the sender's seq");
	is_int(mcast_recv(a, buf, sizeof(buf), NULL, MCAST_RECV_DONTWAIT),
	       -EAGAIN, "without MCAST_SEND_LOOPBACK the sender gets no copy");

	is_int(mcast_send(a, GROUP, "loop", 4, MCAST_SEND_LOOPBACK), 0,
	       "a sends with MCAST_SEND_LOOPBACK");
	is_int(mcast_recv(a, buf, sizeof(buf), NULL, MCAST_RECV_DONTWAIT), 4,
	       "... a gets its own copy");
	is_int(mcast_recv(b, buf, sizeof(buf), NULL, MCAST_RECV_DONTWAIT), 4,
	       "... and b one");

	is_int(mcast_sendv(a, GROUP, iov, 3, 0), 0, "sendv of 3 iovecs (one empty)");
	n = mcast_recv(b, buf, sizeof(buf), NULL, 0);
	ok(n == 8 && !memcmp(buf, "abcdefgh", 8), "b receives them gathered");

	memset(big, 'z', sizeof(big));
	is_int(mcast_send(a, GROUP, big, sizeof(big), 0), 0, "a sends 100 bytes");
	n = mcast_recv(b, buf, 10, &mi, 0);
	ok(n == 10 && mi.truncated && mi.len == 100,
	   "b receives them into 10 bytes: 10 stored, truncated, len 100");
	is_int(mcast_recv(b, buf, sizeof(buf), NULL, MCAST_RECV_DONTWAIT),
	       -EAGAIN, "the rest of a truncated message is gone");

	is_int(mcast_send(a, GROUP, NULL, 0, 0), 0, "an empty message");
	n = mcast_recv(b, buf, sizeof(buf), &mi, 0);
	ok(n == 0 && mi.len == 0 && !mi.truncated, "is received empty");

	is_int(mcast_send_nodes(a, &me, 1, "node", 4, 0), 0,
	       "send_nodes to this node");
	n = mcast_recv(b, buf, sizeof(buf), &mi, 0);
	ok(n == 4 && mi.group == MCAST_NO_GROUP && mi.src_node == NODE,
	   "b receives it with group MCAST_NO_GROUP");
	drain(a);
	drain(b);

	is_int(mcast_leave(b, GROUP), 0, "b leaves group 1");
	is_int(mcast_send(a, GROUP, "x", 1, 0), 0, "a sends again");
	is_int(mcast_recv(b, buf, sizeof(buf), NULL, MCAST_RECV_DONTWAIT),
	       -EAGAIN, "b gets nothing after leaving");
	ok(mcast_leave(b, GROUP) < 0, "leaving again fails (%d)",
	   mcast_leave(b, GROUP));
	is_int(mcast_join(b, GROUP), 0, "b joins again");
}

static void test_overflow(struct mcast *a, struct mcast *b)
{
	struct mcast_info info;
	struct mcast_msginfo mi;
	char buf[16];
	uint32_t i, limit;
	int err = 0;

	mcast_info(a, &info);
	limit = info.rxq_limit;
	drain(b);
	is_int(mcast_join_flags(b, GROUP, 2), -EINVAL,
	       "mcast_join_flags with an unknown flag: -EINVAL");
	is_int(mcast_leave(b, GROUP), 0, "b leaves");
	is_int(mcast_join_flags(b, GROUP, MCAST_JOIN_LOSSY), 0,
	       "b joins again, lossy");
	for (i = 0; i < limit + 5 && !err; i++)
		err = mcast_send(a, GROUP, &i, sizeof(i), 0);
	is_int(err, 0, "a sends rxq_limit + 5 = %u messages", limit + 5);
	mcast_recv(b, buf, sizeof(buf), &mi, 0);
	is_int(mi.dropped, 5, "b's next receive reports 5 dropped");
	is_int(drain(b), limit - 1, "and the rest of its queue follows");
}

static void test_uring(struct mcast *a, struct mcast *b)
{
	struct io_uring ring;
	struct io_uring_sqe *sqe;
	struct io_uring_cqe *cqe;
	struct mcast_send s;
	struct mcast_recv r;
	struct mcast_msginfo mi;
	struct mcast_iov v = { .base = (uintptr_t)"uring!", .len = 6 };
	char buf[64];
	int i, err, got = 0, sres = 1, rres = -1;

	err = io_uring_queue_init(8, &ring, 0);
	if (err) {
		ok(0, "io_uring_queue_init: %s", strerror(-err));
		return;
	}
	drain(b);

	/* a receive first (it waits), then the send that satisfies it */
	is_int(mcast_recv_init(&r, buf, sizeof(buf), 0), 0, "recv_init");
	sqe = io_uring_get_sqe(&ring);
	is_int(mcast_uring_prep_recv(sqe, b, &r), 0, "prep_recv");
	io_uring_sqe_set_data64(sqe, 2);
	is_int(mcast_send_init(&s, GROUP, &v, 1, 0), 0, "send_init");
	sqe = io_uring_get_sqe(&ring);
	is_int(mcast_uring_prep_send(sqe, a, &s), 0, "prep_send");
	io_uring_sqe_set_data64(sqe, 1);
	is_int(io_uring_submit(&ring), 2, "both submitted");
	for (i = 0; i < 2; i++) {
		if (io_uring_wait_cqe(&ring, &cqe))
			break;
		if (cqe->user_data == 1)
			sres = cqe->res;
		else
			rres = cqe->res;
		got++;
		io_uring_cqe_seen(&ring, cqe);
	}
	is_int(got, 2, "two completions");
	is_int(sres, 0, "the send completes with 0");
	ok(s.seq != 0, "and its struct holds the seq (%llu)",
	   (unsigned long long)s.seq);
	is_int(mcast_recv_result(&r, rres, &mi), 6, "the receive completes with 6");
	ok(!memcmp(buf, "uring!", 6) && mi.seq == s.seq && mi.group == GROUP &&
	   mi.src_node == NODE, "byte-exact, with the send's seq, group and node");

	/* MCAST_RECV_DONTWAIT with nothing queued */
	mcast_recv_init(&r, buf, sizeof(buf), MCAST_RECV_DONTWAIT);
	sqe = io_uring_get_sqe(&ring);
	mcast_uring_prep_recv(sqe, b, &r);
	io_uring_submit(&ring);
	if (!io_uring_wait_cqe(&ring, &cqe)) {
		is_int(cqe->res, -EAGAIN, "a DONTWAIT receive on an empty queue: -EAGAIN");
		io_uring_cqe_seen(&ring, cqe);
	} else {
		ok(0, "a DONTWAIT receive on an empty queue: -EAGAIN");
	}

	/* a send to an absent group fails through the CQE */
	mcast_send_init(&s, 99, &v, 1, 0);
	sqe = io_uring_get_sqe(&ring);
	mcast_uring_prep_send(sqe, a, &s);
	io_uring_submit(&ring);
	if (!io_uring_wait_cqe(&ring, &cqe)) {
		is_int(cqe->res, -ENOENT, "a send to group 99: -ENOENT in the CQE");
		io_uring_cqe_seen(&ring, cqe);
	} else {
		ok(0, "a send to group 99: -ENOENT in the CQE");
	}
	io_uring_queue_exit(&ring);
}

int main(void)
{
	struct mcast *a, *b;
	int err;

	if (access(MCAST_DEVICE_PATH, F_OK) && !getenv("MCAST_DEVICE")) {
		printf("1..0 # SKIP no %s (runs in the test VM)\n",
		       MCAST_DEVICE_PATH);
		return 0;
	}
	err = mcast_open(&a);
	if (!err)
		err = mcast_open(&b);
	if (err) {
		printf("Bail out! mcast_open: %s\n", mcast_strerror(err));
		return 1;
	}
	test_info(a);
	test_sync(a, b);
	test_overflow(a, b);
	test_uring(a, b);
	mcast_close(a);
	mcast_close(b);
	return done_testing();
}
