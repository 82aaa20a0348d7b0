// SPDX-License-Identifier: MIT
/*
 * mcast_hello: the smallest complete libmcast program.
 *
 * Opens /dev/mcast, prints this node's place in the torus, joins a group,
 * sends one message to it (with MCAST_SEND_LOOPBACK, so this program gets
 * its own copy even on a one-node cluster) and prints the first message
 * it receives within five seconds.
 *
 *   cc -o mcast_hello mcast_hello.c $(pkg-config --cflags --libs libmcast)
 *   ./mcast_hello [GROUP]            (GROUP defaults to 1)
 *
 * Exit status: 0 a message was received, 1 an error, 2 nothing arrived.
 */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <mcast.h>

int main(int argc, char **argv)
{
	struct mcast_info info;
	struct mcast_msginfo mi;
	struct mcast *mc;
	struct pollfd pfd;
	uint32_t group = 1;
	char msg[128], buf[256];
	ssize_t n;
	int err, i;

	if (argc > 1)
		group = strtoul(argv[1], NULL, 10);

	err = mcast_open(&mc);
	if (err == -ENOENT) {
		fprintf(stderr, "mcast_hello: no %s: the mcast kernel module is not loaded (modprobe mcast)\n",
			MCAST_DEVICE_PATH);
		return 1;
	}
	if (err) {
		fprintf(stderr, "mcast_hello: open: %s\n", mcast_strerror(err));
		return 1;
	}
	err = mcast_info(mc, &info);
	if (err) {
		fprintf(stderr, "mcast_hello: info: %s\n", mcast_strerror(err));
		goto out;
	}
	printf("abi %u, node %u, torus", info.abi_version, info.node_id);
	for (i = info.ndims - 1; i >= 0; i--)
		printf("%c%u", i == info.ndims - 1 ? ' ' : 'x', info.dims[i]);
	printf(", coordinate (");
	for (i = info.ndims - 1; i >= 0; i--)
		printf(i ? "%u," : "%u", info.coord[i]);
	printf(")\n");

	err = mcast_join(mc, group);
	if (err) {
		fprintf(stderr, "mcast_hello: join %u: %s\n", group,
			mcast_strerror(err));
		goto out;
	}
	snprintf(msg, sizeof(msg), "hello from node %u", info.node_id);
	err = mcast_send(mc, group, msg, strlen(msg), MCAST_SEND_LOOPBACK);
	if (err) {
		fprintf(stderr, "mcast_hello: send: %s\n", mcast_strerror(err));
		goto out;
	}
	printf("sent %zu bytes to group %u, seq %llu\n", strlen(msg), group,
	       (unsigned long long)mcast_send_seq(mc));

	pfd.fd = mcast_fd(mc);
	pfd.events = POLLIN;
	if (poll(&pfd, 1, 5000) <= 0) {
		fprintf(stderr, "mcast_hello: nothing received in 5 s\n");
		mcast_close(mc);
		return 2;
	}
	n = mcast_recv(mc, buf, sizeof(buf) - 1, &mi, MCAST_RECV_DONTWAIT);
	if (n < 0) {
		err = n;
		fprintf(stderr, "mcast_hello: recv: %s\n", mcast_strerror(err));
		goto out;
	}
	buf[n] = '\0';
	printf("received %u bytes%s from node %u, group %u, seq %llu: %s\n",
	       mi.len, mi.truncated ? " (truncated)" : "", mi.src_node,
	       mi.group, (unsigned long long)mi.seq, buf);
	err = mcast_leave(mc, group);
	if (err)
		fprintf(stderr, "mcast_hello: leave: %s\n", mcast_strerror(err));
out:
	mcast_close(mc);
	return err ? 1 : 0;
}
