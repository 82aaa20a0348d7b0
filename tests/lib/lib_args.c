// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * libmcast without the module: mcast_open() on a missing device, and the
 * argument checks every call makes before its system call.
 *
 * The handle under test is opened on /dev/null (MCAST_DEVICE): a call that
 * reaches its ioctl fails with -ENOTTY there, so a bad argument must give
 * its own error (-EINVAL, -EMSGSIZE) and a good one -ENOTTY.  Also checks
 * the io_uring SQE the helpers build and the decoding of a receive.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <linux/io_uring.h>

#include "mcast.h"
#include "tap.h"

static struct mcast *open_null(void)
{
	struct mcast *mc = NULL;

	setenv("MCAST_DEVICE", "/dev/null", 1);
	if (mcast_open(&mc))
		return NULL;
	return mc;
}

static void test_open(void)
{
	struct mcast *mc = (struct mcast *)1;

	setenv("MCAST_DEVICE", "/nonexistent/mcast", 1);
	is_int(mcast_open(&mc), -ENOENT, "open of a missing device: -ENOENT");
	ok(mc == NULL, "... and *out is NULL");
	ok(!strcmp(mcast_strerror(-EMSGSIZE), "Message too long") &&
	   !strcmp(mcast_strerror(EMSGSIZE), "Message too long"),
	   "mcast_strerror describes -errno (and errno)");
	ok(mcast_strerror(-100000) != NULL, "... and unknown values");
	is_int(mcast_open(NULL), -EINVAL, "mcast_open(NULL): -EINVAL");
	mcast_close(NULL);
	ok(1, "mcast_close(NULL) is harmless");
	is_int(mcast_fd(NULL), -EINVAL, "mcast_fd(NULL): -EINVAL");
}

/* MCAST_SEND_[NO_]OFFLOAD: one of them, and not with separate addressing. */
static void test_offload_flags(struct mcast *mc)
{
	const unsigned int off = MCAST_SEND_OFFLOAD, no = MCAST_SEND_NO_OFFLOAD;
	uint32_t node = 3;

	is_int(mcast_send(mc, 1, "x", 1, off), -ENOTTY,
	       "send with MCAST_SEND_OFFLOAD: reaches the ioctl");
	is_int(mcast_send(mc, 1, "x", 1, no | MCAST_SEND_LOOPBACK), -ENOTTY,
	       "send with MCAST_SEND_NO_OFFLOAD and LOOPBACK: reaches the ioctl");
	is_int(mcast_send_nodes(mc, &node, 1, "x", 1, off), -ENOTTY,
	       "send_nodes with MCAST_SEND_OFFLOAD: reaches the ioctl");
	is_int(mcast_send(mc, 1, "x", 1, off | no), -EINVAL,
	       "send with OFFLOAD and NO_OFFLOAD: -EINVAL");
	is_int(mcast_send(mc, 1, "x", 1, off | MCAST_SEND_SEPARATE), -EINVAL,
	       "send with OFFLOAD and SEPARATE: -EINVAL");
	is_int(mcast_send_nodes(mc, &node, 1, "x", 1, no | MCAST_SEND_SEPARATE),
	       -EINVAL, "send_nodes with NO_OFFLOAD and SEPARATE: -EINVAL");
}

static void test_calls(struct mcast *mc)
{
	static char big[2];
	struct iovec iov[MCAST_MAX_IOV + 1];
	struct mcast_info info;
	uint32_t nodes[2] = { 1, 2 }, bad_node = MCAST_NO_NODE;
	char buf[16];
	int i;

	for (i = 0; i <= (int)MCAST_MAX_IOV; i++) {
		iov[i].iov_base = big;
		iov[i].iov_len = 1;
	}
	ok(mcast_fd(mc) >= 0, "mcast_fd gives the descriptor");

	is_int(mcast_info(mc, &info), -ENOTTY, "info: reaches the ioctl");
	is_int(mcast_info(mc, NULL), -EINVAL, "info: NULL struct: -EINVAL");
	is_int(mcast_info(NULL, &info), -EINVAL, "info: NULL handle: -EINVAL");

	is_int(mcast_join(mc, 5), -ENOTTY, "join 5: reaches the ioctl");
	is_int(mcast_join(mc, MCAST_NO_GROUP), -EINVAL, "join 0: -EINVAL");
	is_int(mcast_join(NULL, 5), -EINVAL, "join: NULL handle: -EINVAL");
	is_int(mcast_leave(mc, 5), -ENOTTY, "leave 5: reaches the ioctl");
	is_int(mcast_leave(mc, MCAST_NO_GROUP), -EINVAL, "leave 0: -EINVAL");

	is_int(mcast_send(mc, 1, "x", 1, 0), -ENOTTY, "send: reaches the ioctl");
	is_int(mcast_send(mc, 1, NULL, 0, 0), -ENOTTY,
	       "send of an empty message: reaches the ioctl");
	is_int(mcast_send(mc, 1, "x", 1, MCAST_SEND_LOOPBACK), -ENOTTY,
	       "send with MCAST_SEND_LOOPBACK: reaches the ioctl");
	is_int(mcast_send(NULL, 1, "x", 1, 0), -EINVAL, "send: NULL handle: -EINVAL");
	is_int(mcast_send(mc, 0, "x", 1, 0), -EINVAL, "send to group 0: -EINVAL");
	is_int(mcast_send(mc, 1, NULL, 1, 0), -EINVAL,
	       "send: NULL buffer with a length: -EINVAL");
	is_int(mcast_send(mc, 1, "x", 1, 1u << 7), -EINVAL,
	       "send: unknown flag: -EINVAL");
	is_int(mcast_send(mc, 1, "x", 1, MCAST_SEND_NODES), -EINVAL,
	       "send: MCAST_SEND_NODES is not the caller's flag: -EINVAL");
	is_int(mcast_send(mc, 1, big, MCAST_MAX_MSG + 1, 0), -EMSGSIZE,
	       "send of MCAST_MAX_MSG + 1 bytes: -EMSGSIZE");
	test_offload_flags(mc);

	is_int(mcast_sendv(mc, 1, iov, MCAST_MAX_IOV, 0), -ENOTTY,
	       "sendv of MCAST_MAX_IOV iovecs: reaches the ioctl");
	is_int(mcast_sendv(mc, 1, iov, MCAST_MAX_IOV + 1, 0), -EINVAL,
	       "sendv of MCAST_MAX_IOV + 1 iovecs: -EINVAL");
	is_int(mcast_sendv(mc, 1, iov, -1, 0), -EINVAL,
	       "sendv with a negative count: -EINVAL");
	is_int(mcast_sendv(mc, 1, NULL, 1, 0), -EINVAL,
	       "sendv with a NULL iovec array: -EINVAL");
	iov[0].iov_len = MCAST_MAX_MSG;
	is_int(mcast_sendv(mc, 1, iov, 2, 0), -EMSGSIZE,
	       "sendv totalling MCAST_MAX_MSG + 1 bytes: -EMSGSIZE");
	iov[0].iov_len = SIZE_MAX;
	is_int(mcast_sendv(mc, 1, iov, 2, 0), -EMSGSIZE,
	       "sendv with a SIZE_MAX iovec (no overflow): -EMSGSIZE");
	iov[0].iov_len = 1;
	iov[1].iov_base = NULL;
	is_int(mcast_sendv(mc, 1, iov, 2, 0), -EINVAL,
	       "sendv with a NULL base and a length: -EINVAL");
	iov[1].iov_base = big;

	is_int(mcast_send_nodes(mc, nodes, 2, "x", 1, 0), -ENOTTY,
	       "send_nodes: reaches the ioctl");
	is_int(mcast_send_nodes(mc, NULL, 2, "x", 1, 0), -EINVAL,
	       "send_nodes: NULL list: -EINVAL");
	is_int(mcast_send_nodes(mc, nodes, 0, "x", 1, 0), -EINVAL,
	       "send_nodes: empty list: -EINVAL");
	is_int(mcast_send_nodes(mc, nodes, MCAST_MAX_DESTS + 1, "x", 1, 0),
	       -EINVAL, "send_nodes: MCAST_MAX_DESTS + 1 nodes: -EINVAL");
	is_int(mcast_send_nodes(mc, &bad_node, 1, "x", 1, 0), -EINVAL,
	       "send_nodes: node MCAST_NO_NODE: -EINVAL");
	is_int(mcast_sendv_nodes(mc, nodes, 2, iov, MCAST_MAX_IOV + 1, 0),
	       -EINVAL, "sendv_nodes: too many iovecs: -EINVAL");

	is_int(mcast_recv(mc, buf, sizeof(buf), NULL, 0), -ENOTTY,
	       "recv: reaches the ioctl");
	is_int(mcast_recv(mc, buf, sizeof(buf), NULL, MCAST_RECV_DONTWAIT),
	       -ENOTTY, "recv with MCAST_RECV_DONTWAIT: reaches the ioctl");
	is_int(mcast_recv(mc, NULL, 5, NULL, 0), -EINVAL,
	       "recv: NULL buffer with a length: -EINVAL");
	is_int(mcast_recv(mc, buf, sizeof(buf), NULL, MCAST_RECV_TRUNC), -EINVAL,
	       "recv: an output-only flag as input: -EINVAL");
	is_int(mcast_recv(NULL, buf, sizeof(buf), NULL, 0), -EINVAL,
	       "recv: NULL handle: -EINVAL");
}

static void test_uring(struct mcast *mc)
{
	struct io_uring_sqe sqe;
	struct mcast_uring_cmd cmd;
	struct mcast_send s;
	struct mcast_recv r;
	struct mcast_iov v = { .base = (uintptr_t)"abc", .len = 3 };
	uint32_t nodes[1] = { 7 }, failed[4];
	size_t nfailed;
	char buf[8];

	is_int(mcast_send_init(&s, 3, &v, 1, MCAST_SEND_LOOPBACK), 0,
	       "send_init");
	ok(s.size == sizeof(s) && s.group == 3 && s.niov == 1 &&
	   s.iov == (uintptr_t)&v && s.flags == MCAST_SEND_LOOPBACK &&
	   !s.nodes && !s.nnodes && !s.algorithm && !s.failed &&
	   !s.nfailed && !s.timeout_ms, "send_init fills struct mcast_send");
	is_int(mcast_send_init_nodes(&s, nodes, 1, &v, 1, MCAST_SEND_SEPARATE),
	       0, "send_init_nodes with MCAST_SEND_SEPARATE");
	ok(s.flags == (MCAST_SEND_NODES | MCAST_SEND_SEPARATE),
	   "send_init_nodes keeps MCAST_SEND_SEPARATE");
	is_int(mcast_send_init(&s, 3, &v, 1, MCAST_SEND_NO_OFFLOAD), 0,
	       "send_init with MCAST_SEND_NO_OFFLOAD");
	ok(s.flags == MCAST_SEND_NO_OFFLOAD,
	   "send_init keeps MCAST_SEND_NO_OFFLOAD");
	is_int(mcast_send_init_nodes(&s, nodes, 1, &v, 1, MCAST_SEND_OFFLOAD |
				     MCAST_SEND_NO_OFFLOAD), -EINVAL,
	       "send_init_nodes with OFFLOAD and NO_OFFLOAD: -EINVAL");
	is_int(mcast_send_init_nodes(&s, nodes, 1, &v, 1, 0), 0,
	       "send_init_nodes");
	ok(s.flags == MCAST_SEND_NODES && s.group == MCAST_NO_GROUP &&
	   s.nodes == (uintptr_t)nodes && s.nnodes == 1,
	   "send_init_nodes sets MCAST_SEND_NODES and the list");
	is_int(mcast_send_init(&s, 3, &v, MCAST_MAX_IOV + 1, 0), -EINVAL,
	       "send_init: too many iovecs: -EINVAL");
	is_int(mcast_send_set_wait(&s, NULL, 4, 0), -EINVAL,
	       "send_set_wait: room without a failed array: -EINVAL");
	is_int(mcast_send_set_wait(&s, failed, 4, 250), 0, "send_set_wait");
	ok((s.flags & MCAST_SEND_WAIT) && s.failed == (uintptr_t)failed &&
	   s.nfailed == 4 && s.timeout_ms == 250,
	   "send_set_wait sets MCAST_SEND_WAIT, failed, room and timeout");
	is_int(mcast_send_set_algorithm(&s, MCAST_ALGORITHM_MUTORUS, 4), 0,
	       "send_set_algorithm: mu-torus:4");
	ok((s.flags & MCAST_SEND_ALGORITHM) &&
	   s.algorithm == (MCAST_ALGORITHM_MUTORUS | 4 << 8),
	   "send_set_algorithm sets MCAST_SEND_ALGORITHM and algorithm | r << 8");
	is_int(mcast_send_set_algorithm(&s, MCAST_ALGORITHM_MUTORUS, 1), -EINVAL,
	       "send_set_algorithm: mu-torus r 1: -EINVAL");
	is_int(mcast_send_set_algorithm(&s, MCAST_ALGORITHM_MUTORUS, 256), -EINVAL,
	       "send_set_algorithm: mu-torus r 256: -EINVAL");
	is_int(mcast_send_set_algorithm(&s, MCAST_ALGORITHM_STORUS, 4), -EINVAL,
	       "send_set_algorithm: r for s-torus: -EINVAL");
	is_int(mcast_send_set_algorithm(&s, MCAST_ALGORITHM_RB, 4), -EINVAL,
	       "send_set_algorithm: r for rb: -EINVAL");
	is_int(mcast_send_set_algorithm(&s, MCAST_ALGORITHM_RB_ALL_PORT, 0), 0,
	       "send_set_algorithm: rb-all-port");
	ok(s.algorithm == MCAST_ALGORITHM_RB_ALL_PORT,
	   "send_set_algorithm: rb-all-port's value, no r");
	is_int(mcast_send_set_algorithm(&s, __MCAST_ALGORITHM_MAX, 0), -EINVAL,
	       "send_set_algorithm: an unknown algorithm: -EINVAL");
	is_int(mcast_send_init_nodes(&s, nodes, 1, &v, 1, MCAST_SEND_SEPARATE),
	       0, "send_init_nodes with MCAST_SEND_SEPARATE again");
	is_int(mcast_send_set_algorithm(&s, MCAST_ALGORITHM_STORUS, 0), -EINVAL,
	       "send_set_algorithm on a separate-addressing send: -EINVAL");
	is_int(mcast_send_set_algorithm(NULL, MCAST_ALGORITHM_STORUS, 0), -EINVAL,
	       "send_set_algorithm(NULL): -EINVAL");
	nfailed = 4;
	is_int(mcast_send_wait(mc, 0, NULL, 0, "x", 1, 0, 0, failed, &nfailed),
	       -EINVAL, "send_wait to group 0 without nodes: -EINVAL");
	is_int(mcast_send_wait(mc, 0, nodes, 0, "x", 1, 0, 0, failed, &nfailed),
	       -EINVAL, "send_wait to an empty node list: -EINVAL");
	is_int(mcast_send_wait(NULL, 3, NULL, 0, "x", 1, 0, 0, failed, &nfailed),
	       -EINVAL, "send_wait without a handle: -EINVAL");
	is_int(mcast_send_wait(mc, 3, NULL, 0, "x", 1, MCAST_SEND_OFFLOAD |
			       MCAST_SEND_SEPARATE, 0, failed, &nfailed),
	       -EINVAL, "send_wait with OFFLOAD and SEPARATE: -EINVAL");

	memset(&sqe, 0xa5, sizeof(sqe));
	sqe.user_data = 0x1234;
	is_int(mcast_uring_prep_send(&sqe, mc, &s), 0, "uring_prep_send");
	memcpy(&cmd, (char *)&sqe + offsetof(struct io_uring_sqe, addr3),
	       sizeof(cmd));
	ok(sqe.opcode == IORING_OP_URING_CMD && sqe.fd == mcast_fd(mc) &&
	   sqe.cmd_op == MCAST_URING_SEND && sqe.user_data == 0x1234 &&
	   cmd.arg == (uintptr_t)&s && !cmd.reserved && !sqe.flags &&
	   !sqe.ioprio && !sqe.__pad1 && !sqe.addr && !sqe.len &&
	   !sqe.uring_cmd_flags && !sqe.personality && !sqe.file_index,
	   "the send SQE: URING_CMD, MCAST_URING_SEND, arg, user_data kept, rest 0");

	is_int(mcast_recv_init(&r, buf, sizeof(buf), MCAST_RECV_DONTWAIT), 0,
	       "recv_init");
	is_int(mcast_uring_prep_recv(&sqe, mc, &r), 0, "uring_prep_recv");
	memcpy(&cmd, (char *)&sqe + offsetof(struct io_uring_sqe, addr3),
	       sizeof(cmd));
	ok(sqe.cmd_op == MCAST_URING_RECV && cmd.arg == (uintptr_t)&r,
	   "the receive SQE: MCAST_URING_RECV and its arg");
	is_int(mcast_uring_prep_recv(NULL, mc, &r), -EINVAL,
	       "uring_prep_recv: NULL SQE: -EINVAL");
	is_int(mcast_uring_prep_send(&sqe, mc, NULL), -EINVAL,
	       "uring_prep_send: NULL struct: -EINVAL");
	r.size = 0;
	is_int(mcast_uring_prep_recv(&sqe, mc, &r), -EINVAL,
	       "uring_prep_recv: a struct not made by recv_init: -EINVAL");
}

static void test_result(void)
{
	struct mcast_msginfo mi;
	struct mcast_recv r;
	char buf[10];

	mcast_recv_init(&r, buf, sizeof(buf), 0);
	r.len = 100;
	r.flags |= MCAST_RECV_TRUNC;
	r.group = 4;
	r.src_node = 9;
	r.seq = 77;
	r.dropped = 3;
	is_int(mcast_recv_result(&r, 10, &mi), 10,
	       "a truncated receive stored the buffer's size");
	ok(mi.len == 100 && mi.truncated && mi.group == 4 && mi.src_node == 9 &&
	   mi.seq == 77 && mi.dropped == 3, "... and info has the rest");
	r.len = 4;
	r.flags = 0;
	is_int(mcast_recv_result(&r, 4, &mi), 4, "a short message: its length");
	ok(!mi.truncated && mi.len == 4, "... not truncated");
	is_int(mcast_recv_result(&r, -EAGAIN, &mi), -EAGAIN,
	       "an error result passes through");
	is_int(mcast_recv_init(&r, buf, sizeof(buf), 1u << 5), -EINVAL,
	       "recv_init: unknown flag: -EINVAL");
}

int main(void)
{
	struct mcast *mc;

	test_open();
	mc = open_null();
	if (!mc) {
		printf("Bail out! cannot open /dev/null through MCAST_DEVICE\n");
		return 1;
	}
	test_calls(mc);
	test_uring(mc);
	test_result();
	mcast_close(mc);
	return done_testing();
}
