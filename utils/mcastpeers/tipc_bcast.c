// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * tipc_bcast: TIPC group broadcast latency and throughput for
 * `make bench-peers`, measured as mcastperf measures a multicast in
 * completion mode.  One process per testbed node, all in one TIPC
 * communication group (TIPC_GROUP_JOIN, cluster scope):
 *
 *   tipc_bcast member [--idle SECS]
 *       on every receiving node: receives the root's broadcasts, checks
 *       every byte, acknowledges what the root asks it to, exits on the
 *       root's stop message (or after SECS without a message: status 1).
 *   tipc_bcast root --nodes N [--unicast] [--peer P] [--method M]
 *                   [--sizes LIST] [--iters I] [--warmup W] [--no-header]
 *                   [--timeout SECS]
 *       on the source node: waits until N-1 members have joined, then for
 *       every size W untimed rounds, I timed rounds (broadcast, then every
 *       member acknowledges with a group unicast as soon as it has the
 *       whole message; median and p99 of the time until the last one did),
 *       I broadcasts back to back closed by one acknowledgement round
 *       (messages/s); one CSV row per size (peers.h), then stops the
 *       members.
 *
 * A TIPC message holds at most 66000 bytes: a message of SIZE bytes is
 * sent as ceil(SIZE / 64 KiB) group broadcasts of an 8-byte header and up
 * to 64 KiB of the message; a member has the message when it has the last
 * one (TIPC keeps one sender's broadcasts in order).  Whether the
 * broadcasts travel on TIPC's broadcast link or as replicast over the
 * unicast links is the node's setting (`tipc link set broadcast
 * BROADCAST|REPLICAST`), chosen by the script; --method only names it.
 * (A UDP bearer with unicast remote addresses, the only kind a routed
 * torus without IP multicast routing allows, has no broadcast link mode:
 * TIPC then always replicates.)  --unicast sends every piece to each
 * member by group unicast instead, one after the other: TIPC's
 * counterpart of mcast's separate addressing.
 * Acknowledgements carry the member's count of wrong bytes so far; after
 * each size one more untimed round collects them ("failed": members that
 * saw a wrong byte or a missing piece).  cpu_us_per_msg: the whole guest's
 * busy CPU time (/proc/stat) per timed broadcast; src_tx_before and
 * src_tx_after: the root's node's bytes sent on its links around them
 * (peers_tx_bytes).
 * Exit status: 0 fine, 1 error (a timeout, a member that left, wrong
 * bytes), 2 usage.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <linux/tipc.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "peers.h"

#define GROUP_TYPE	4711u	/* the group's service type */
#define CHUNK		65536u	/* message bytes per TIPC message */

enum { KIND_DATA = 0x44, KIND_STOP = 0x53, KIND_ACK = 0x41 };
enum { F_LAST = 1, F_ACK = 2 };

/* In front of every piece of a message. */
struct chunk_hdr {
	uint8_t kind;
	uint8_t flags;		/* F_LAST: the message's last piece; F_ACK */
	uint16_t idx;		/* piece number: bytes idx*CHUNK.. of the message */
	uint32_t iter;		/* message number (the payload pattern's seed) */
};

/* A member's acknowledgement (group unicast to the root). */
struct ack {
	uint8_t kind;
	uint8_t pad[3];
	uint32_t iter;
	uint64_t bad;		/* wrong or missing bytes seen so far */
};

static const char usage[] =
	"usage: tipc_bcast member [--idle SECS]\n"
	"       tipc_bcast root --nodes N [--unicast] [--peer P] [--method M]\n"
	"                       [--sizes LIST] [--iters I] [--warmup W] [--no-header]\n"
	"                       [--timeout SECS]\n";

/* A group socket: members join silently, the root asks for member events. */
static int join_group(uint32_t instance, bool events)
{
	struct tipc_group_req req = {
		.type = GROUP_TYPE,
		.instance = instance,
		.scope = TIPC_CLUSTER_SCOPE,
		.flags = events ? TIPC_GROUP_MEMBER_EVTS : 0,
	};
	int sd = socket(AF_TIPC, SOCK_RDM, 0);

	if (sd < 0) {
		perror("tipc_bcast: socket(AF_TIPC) (is the tipc module loaded?)");
		return -1;
	}
	if (setsockopt(sd, SOL_TIPC, TIPC_GROUP_JOIN, &req, sizeof(req)) < 0) {
		perror("tipc_bcast: TIPC_GROUP_JOIN");
		close(sd);
		return -1;
	}
	return sd;
}

/* Waits up to SECS for something to read on SD: 1 readable, 0 timeout. */
static int wait_readable(int sd, int secs)
{
	struct pollfd p = { sd, POLLIN, 0 };
	int n;

	do
		n = poll(&p, 1, secs * 1000);
	while (n < 0 && errno == EINTR);
	return n > 0;
}

/* The group instance of the member whose event recv_from returned last. */
static uint32_t event_instance;

/*
 * One message from SD into buf (up to len bytes); *src gets the sender's
 * socket address.  Returns the length, -2 for a member event (*oob_leave:
 * a member left; event_instance: its instance), -1 on error.
 */
static ssize_t recv_from(int sd, void *buf, size_t len, struct sockaddr_tipc *src,
			 bool *oob_leave)
{
	struct sockaddr_tipc names[2];
	struct iovec iov = { buf, len };
	struct msghdr m = {
		.msg_name = names, .msg_namelen = sizeof(names),
		.msg_iov = &iov, .msg_iovlen = 1,
	};
	ssize_t n = recvmsg(sd, &m, 0);

	if (n < 0)
		return -1;
	*src = names[0];
	if (m.msg_flags & MSG_OOB) {
		*oob_leave = (m.msg_flags & MSG_EOR) != 0;
		event_instance = names[1].addr.name.name.instance;
		return -2;
	}
	return n;
}

/* ------------------------------------------------------------ member */

struct member {
	int sd;
	uint8_t *buf;
	uint64_t bad;
	uint32_t iter, next_idx;	/* the message under way */
	uint64_t msgs;
};

/* Checks one piece; returns true when it completes a message. */
static bool take_chunk(struct member *mb, const struct chunk_hdr *h, size_t paylen)
{
	if (h->idx == 0) {
		if (mb->next_idx)		/* the last message's tail went missing */
			mb->bad++;
		mb->iter = h->iter;
	} else if (h->idx != mb->next_idx || h->iter != mb->iter) {
		mb->bad++;
	}
	mb->next_idx = h->idx + 1;
	mb->bad += peers_check(mb->buf + sizeof(*h), (size_t)h->idx * CHUNK, paylen, h->iter);
	if (!(h->flags & F_LAST))
		return false;
	mb->next_idx = 0;
	mb->msgs++;
	return true;
}

static int send_ack(int sd, const struct sockaddr_tipc *to, uint32_t iter, uint64_t bad)
{
	struct ack a = { .kind = KIND_ACK, .iter = iter, .bad = bad };

	if (sendto(sd, &a, sizeof(a), 0, (const struct sockaddr *)to, sizeof(*to)) < 0) {
		perror("tipc_bcast: member: acknowledgement");
		return -1;
	}
	return 0;
}

static int cmd_member(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "idle", required_argument, NULL, 'i' },
		{ NULL, 0, NULL, 0 },
	};
	struct member mb = { 0 };
	struct sockaddr_tipc src;
	struct chunk_hdr h;
	int opt, idle = 60, rc = 1;
	bool leave;
	ssize_t n;

	while ((opt = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		if (opt != 'i' || (idle = atoi(optarg)) <= 0) {
			fputs(usage, stderr);
			return 2;
		}
	}
	mb.buf = malloc(sizeof(h) + CHUNK);
	/*
	 * Member events too: if the root's socket goes (it left, or died)
	 * before its stop message reached us, we do not wait for --idle.
	 */
	if (!mb.buf || (mb.sd = join_group(getpid(), true)) < 0)
		return 1;
	/* a script waiting for the members looks for this line */
	fprintf(stderr, "tipc_bcast: member joined\n");
	for (;;) {
		if (!wait_readable(mb.sd, idle)) {
			fprintf(stderr, "tipc_bcast: member: nothing for %d s, giving up\n", idle);
			break;
		}
		n = recv_from(mb.sd, mb.buf, sizeof(h) + CHUNK, &src, &leave);
		if (n == -2 && leave && event_instance == 0) {
			fprintf(stderr, "tipc_bcast: member: the root left without a stop message\n");
			break;
		}
		if (n == -2)
			continue;
		if (n < (ssize_t)sizeof(h)) {
			perror("tipc_bcast: member: receive");
			break;
		}
		memcpy(&h, mb.buf, sizeof(h));
		if (h.kind == KIND_STOP) {
			rc = mb.bad ? 1 : 0;
			break;
		}
		if (h.kind != KIND_DATA) {
			mb.bad++;
			continue;
		}
		if (take_chunk(&mb, &h, n - sizeof(h)) && (h.flags & F_ACK) &&
		    send_ack(mb.sd, &src, h.iter, mb.bad))
			break;
	}
	printf("tipc_bcast member: received %llu messages, %llu wrong or missing bytes%s\n",
	       (unsigned long long)mb.msgs, (unsigned long long)mb.bad,
	       rc ? "" : ", stopped by the root");
	close(mb.sd);
	free(mb.buf);
	return rc;
}

/* ------------------------------------------------------------ root */

struct root {
	int sd, timeout;
	bool unicast;		/* group unicasts to each member, not broadcasts */
	uint32_t members;	/* expected: nodes - 1 */
	struct sockaddr_tipc *addrs;	/* the members' sockets, from join events */
	uint8_t *buf;		/* header + one piece */
	double *lat;
	uint32_t failed;	/* members reporting wrong bytes (last round) */
};

/* Waits for the N-1 members' join events. */
static int wait_members(struct root *r)
{
	struct sockaddr_tipc src;
	uint32_t joined = 0;
	bool leave;
	ssize_t n;

	while (joined < r->members) {
		if (!wait_readable(r->sd, r->timeout)) {
			fprintf(stderr, "tipc_bcast: root: only %u of %u members joined\n",
				joined, r->members);
			return -1;
		}
		n = recv_from(r->sd, r->buf, sizeof(struct chunk_hdr) + CHUNK, &src, &leave);
		if (n == -2 && leave) {
			fprintf(stderr, "tipc_bcast: root: a member left before the start\n");
			return -1;
		}
		if (n == -2)
			r->addrs[joined++] = src;
		else if (n < 0)
			return -1;
	}
	return 0;
}

/* One piece to every member: a group broadcast, or one unicast each. */
static int send_piece(struct root *r, size_t len)
{
	uint32_t i;

	if (!r->unicast)
		return send(r->sd, r->buf, len, 0) < 0 ? -1 : 0;
	for (i = 0; i < r->members; i++)
		if (sendto(r->sd, r->buf, len, 0, (struct sockaddr *)&r->addrs[i],
			   sizeof(r->addrs[i])) < 0)
			return -1;
	return 0;
}

/* Broadcasts message ITER of SIZE bytes (of kind KIND) in pieces. */
static int bcast_msg(struct root *r, uint8_t kind, uint32_t size, uint32_t iter, bool ack)
{
	struct chunk_hdr h = { .kind = kind, .iter = iter };
	uint32_t off = 0, len;

	do {
		len = size - off < CHUNK ? size - off : CHUNK;
		h.flags = off + len == size ? F_LAST | (ack ? F_ACK : 0) : 0;
		memcpy(r->buf, &h, sizeof(h));
		peers_fill(r->buf + sizeof(h), off, len, iter);
		if (send_piece(r, sizeof(h) + len)) {
			perror("tipc_bcast: root: group send");
			return -1;
		}
		h.idx++;
		off += len;
	} while (off < size);
	return 0;
}

/* Waits for every member's acknowledgement of message ITER. */
static int collect_acks(struct root *r, uint32_t iter)
{
	struct sockaddr_tipc src;
	struct ack a;
	uint32_t got = 0;
	bool leave;
	ssize_t n;

	r->failed = 0;
	while (got < r->members) {
		if (!wait_readable(r->sd, r->timeout)) {
			fprintf(stderr, "tipc_bcast: root: %u of %u acknowledgements of "
				"message %u after %d s\n", got, r->members, iter, r->timeout);
			return -1;
		}
		n = recv_from(r->sd, &a, sizeof(a), &src, &leave);
		if (n == -2 && leave) {
			fprintf(stderr, "tipc_bcast: root: a member left the group\n");
			return -1;
		}
		if (n == (ssize_t)sizeof(a) && a.kind == KIND_ACK && a.iter == iter) {
			got++;
			r->failed += a.bad != 0;
		}
	}
	return 0;
}

static int round_trip(struct root *r, uint32_t size, uint32_t iter)
{
	if (bcast_msg(r, KIND_DATA, size, iter, true))
		return -1;
	return collect_acks(r, iter);
}

static int measure(struct root *r, const struct peers_opts *o, uint32_t size,
		   struct peers_row *row)
{
	uint32_t i, iter = 0;
	double t0, cpu0;

	memset(row, 0, sizeof(*row));
	row->nodes = r->members + 1;
	row->dests = r->members;
	row->size = size;
	row->iters = o->iters;
	for (i = 0; i < o->warmup; i++)
		if (round_trip(r, size, iter++))
			return -1;
	row->tx_before = peers_tx_bytes();
	cpu0 = peers_cpu_us();
	for (i = 0; i < o->iters; i++) {
		t0 = peers_now_us();
		if (round_trip(r, size, iter++))
			return -1;
		r->lat[i] = peers_now_us() - t0;
	}
	t0 = peers_now_us();
	for (i = 0; i < o->iters; i++)
		if (bcast_msg(r, KIND_DATA, size, iter++, i + 1 == o->iters))
			return -1;
	if (collect_acks(r, iter - 1))
		return -1;
	row->msgs_s = o->iters / ((peers_now_us() - t0) / 1e6);
	row->cpu_us_per_msg = (peers_cpu_us() - cpu0) / (2.0 * o->iters);
	row->tx_after = peers_tx_bytes();
	peers_stats(r->lat, o->iters, row);
	/* one more round: its acknowledgements report every byte checked */
	if (round_trip(r, 8, iter))
		return -1;
	row->failed = r->failed;
	return 0;
}

/* Splits --nodes, --timeout and --unicast off; the rest is peers_parse's. */
static int root_opts(int *argc, char **argv, uint32_t *nodes, struct root *r)
{
	int *timeout = &r->timeout;
	int i, j = 1;

	for (i = 1; i < *argc; i++) {
		if (i + 1 < *argc && !strcmp(argv[i], "--nodes"))
			*nodes = strtoul(argv[++i], NULL, 10);
		else if (i + 1 < *argc && !strcmp(argv[i], "--timeout"))
			*timeout = atoi(argv[++i]);
		else if (!strcmp(argv[i], "--unicast"))
			r->unicast = true;
		else
			argv[j++] = argv[i];
	}
	*argc = j;
	return *nodes >= 2 && *nodes <= 65536 && *timeout > 0 ? 0 : -1;
}

static int cmd_root(int argc, char **argv)
{
	struct root r = { .timeout = 300 };
	struct peers_opts o;
	struct peers_row row;
	uint32_t nodes = 0, failed = 0;
	int i, rc;

	if (root_opts(&argc, argv, &nodes, &r)) {
		fputs(usage, stderr);
		return 2;
	}
	rc = peers_parse(argc, argv, &o, usage);
	if (rc)
		return rc;
	r.members = nodes - 1;
	r.buf = malloc(sizeof(struct chunk_hdr) + CHUNK);
	r.lat = calloc(o.iters, sizeof(*r.lat));
	r.addrs = calloc(r.members, sizeof(*r.addrs));
	if (!r.buf || !r.lat || !r.addrs || (r.sd = join_group(0, true)) < 0)
		return 1;
	rc = wait_members(&r);
	if (!rc && o.header)
		printf("%s\n", PEERS_CSV_HEADER);
	for (i = 0; !rc && i < o.nsizes; i++) {
		rc = measure(&r, &o, o.sizes[i], &row);
		if (!rc)
			peers_print_row(&o, &row);
		failed += row.failed;
	}
	if (bcast_msg(&r, KIND_STOP, 8, 0, false))
		rc = -1;
	if (failed)
		fprintf(stderr, "tipc_bcast: FAILED: members saw wrong or missing bytes\n");
	/* let the stop message leave before the socket (and the group) goes */
	usleep(200000);
	close(r.sd);
	free(r.buf);
	free(r.lat);
	free(r.addrs);
	return rc || failed ? 1 : 0;
}

int main(int argc, char **argv)
{
	if (argc >= 2 && !strcmp(argv[1], "member"))
		return cmd_member(argc - 1, argv + 1);
	if (argc >= 2 && !strcmp(argv[1], "root"))
		return cmd_root(argc - 1, argv + 1);
	fputs(usage, stderr);
	return 2;
}
