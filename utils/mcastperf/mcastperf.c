// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * mcastperf: multicast latency and throughput between mcast nodes,
 * U-torus against separate addressing.
 *
 *   mcastperf recv [--group G] [--idle SECS] [--count N] [--verbose]
 *       on every destination node: receives, verifies every byte, and
 *       exits on the sender's stop message, after N messages, or after
 *       SECS without one, printing what it got (--verbose: every message,
 *       with the U-torus step and the node it came from).
 *   mcastperf send --members IDS [--group G] [--sizes LIST] [--iters N]
 *                  [--warmup W] [--counts LIST] [--methods LIST]
 *                  [--timeout-ms T] [--csv]
 *       on the source node: for every method, destination count and size,
 *       W untimed sends in completion mode (--warmup, default 0), then
 *       N sends in completion mode (MCAST_SEND_WAIT) timed until the last
 *       destination acknowledged (median and p99), then N back-to-back
 *       sends closed by one completion-mode send (messages/s, MB/s).
 *         u-torus   one send to all destinations (the group G if given,
 *                   else the node list); the kernel plans the U-torus tree
 *         separate  one send with MCAST_SEND_SEPARATE: the source sends
 *                   the message to every destination itself, all
 *                   transfers under way at once, nobody forwards
 *         s-torus, md-torus, mu-torus[:R], auto
 *                   the send names its algorithm (MCAST_SEND_ALGORITHM):
 *                   path-based worms, on an IR transport in hardware,
 *                   else in software (chains); auto: the node's choice
 *         binomial  u-torus's halving over node-id order: on a switched
 *                   cluster the tree a topology-blind library builds, in
 *                   the same run as the up*-down* order (u-torus)
 *       Sends a stop message to every destination at the end.
 *   mcastperf msg (--group G | --nodes IDS) [--size N] [--no-wait]
 *       one message, reporting which nodes were not reached.
 *
 * IDS: node ids separated by commas (or "a-b" ranges).  Sizes take K and M
 * (binary).  Exit status: 0 fine, 1 error, 2 usage, 3 the kernel has no
 * completion mode (no inter-node data path), 4 some destinations were not
 * reached.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <poll.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include <mcast.h>

#include "parse.h"

#define EXIT_USAGE	2
#define EXIT_NOWAIT	3
#define EXIT_UNREACHED	4

#define MAX_LIST	4096

/* Every message starts with this header (8 bytes; the smallest size). */
enum { KIND_DATA = 0x44, KIND_STOP = 0x53, KIND_MSG = 0x4d };
/* What a receiver counts a message as (struct hdr's method). */
enum { M_UTORUS = 1, M_SEPARATE = 2, M_PATH = 3, M_KINDS };

/* A way to multicast: its name, kind and what the send asks for. */
struct method {
	char name[16];
	uint8_t kind;
	unsigned int flags;	/* MCAST_SEND_SEPARATE, MCAST_SEND_ALGORITHM */
	uint32_t algorithm;	/* mcast_send.algorithm */
};

#define MAX_METHODS 8

struct hdr {
	uint8_t kind;
	uint8_t method;
	uint16_t tag;		/* 0x7043 */
	uint32_t iter;
};

#define HDR_TAG 0x7043

/* The build passes the package version (dkms.conf) as MCAST_VERSION. */
#ifndef MCAST_VERSION
#define MCAST_VERSION "unknown"
#endif

static const char *prog = "mcastperf";

static void usage(FILE *f)
{
	fprintf(f,
		"usage: mcastperf recv [--group G] [--idle SECS] [--count N] [--verbose]\n"
		"       mcastperf send --members IDS [--group G] [--sizes LIST] [--iters N]\n"
		"                      [--warmup W] [--counts LIST] [--methods LIST]\n"
		"                      [--timeout-ms T] [--csv]\n"
		"       mcastperf msg (--group G | --nodes IDS) [--size N] [--no-wait]\n"
		"       mcastperf --version\n"
		"\n"
		"IDS: node ids, comma-separated (a-b ranges allowed).  LIST: comma-\n"
		"separated; sizes take K and M.  Defaults: --sizes 8,64,1K,16K,256K,1M,4M\n"
		"--iters 20, --warmup 0 (untimed sends before each measurement),\n"
		"--methods u-torus,separate (also: s-torus, md-torus,\n"
		"mu-torus[:R], auto, binomial, u-cube, maxport, combine, w-sort, ring,\n"
		"rb, rb-all-port (rb: sends to every other node only); all =\n"
		"u-torus,separate), --timeout-ms 600000\n"
		"(send; msg: the kernel's\n"
		"30000), --idle 60.  --counts uses the first C members for each C (not\n"
		"with --group).\n"
		"Exit: 0 ok, 1 error, 2 usage, 3 no completion mode in the kernel\n"
		"(no inter-node data path), 4 destinations not reached.\n");
}

static int usage_err(const char *fmt, const char *arg)
{
	fprintf(stderr, "%s: ", prog);
	fprintf(stderr, fmt, arg);
	fputc('\n', stderr);
	usage(stderr);
	return EXIT_USAGE;
}

static double now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

static int parse_size(const char *s, uint32_t *out)
{
	char buf[32], *end;
	unsigned long long v, mul = 1;
	size_t n = strlen(s);

	if (!n || n >= sizeof(buf) || *s == '-' || *s == '+')
		return -1;
	memcpy(buf, s, n + 1);
	if (buf[n - 1] == 'K' || buf[n - 1] == 'k')
		mul = 1024;
	else if (buf[n - 1] == 'M' || buf[n - 1] == 'm')
		mul = 1024 * 1024;
	if (mul > 1)
		buf[--n] = 0;
	errno = 0;
	v = strtoull(buf, &end, 10);
	if (errno || !n || *end || v * mul > MCAST_MAX_MSG || v * mul < sizeof(struct hdr))
		return -1;
	*out = v * mul;
	return 0;
}

/* "1,2,5-7" into ids[]; returns the count or -1. */
static int parse_ids(const char *s, uint32_t *ids, int max)
{
	char *copy = strdup(s), *tok, *save = NULL, *dash;
	uint32_t a, b;
	int n = 0;

	if (!copy)
		return -1;
	for (tok = strtok_r(copy, ", ", &save); tok; tok = strtok_r(NULL, ", ", &save)) {
		dash = strchr(tok, '-');
		if (dash)
			*dash = 0;
		if (parse_u32(tok, MCAST_MAX_NODES - 1, &a) ||
		    (dash && parse_u32(dash + 1, MCAST_MAX_NODES - 1, &b)))
			goto bad;
		if (!dash)
			b = a;
		for (; a <= b; a++) {
			if (n >= max)
				goto bad;
			ids[n++] = a;
		}
	}
	free(copy);
	return n;
bad:
	free(copy);
	return -1;
}

static int parse_list(const char *s, uint32_t *out, int max, bool sizes)
{
	char *copy = strdup(s), *tok, *save = NULL;
	int n = 0;

	if (!copy)
		return -1;
	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (n >= max || (sizes ? parse_size(tok, &out[n]) :
				 parse_u32(tok, MCAST_MAX_DESTS, &out[n]) || !out[n])) {
			free(copy);
			return -1;
		}
		n++;
	}
	free(copy);
	return n ? n : -1;
}

static void fill(uint8_t *buf, uint32_t len, uint8_t kind, uint8_t method,
		 uint32_t iter)
{
	struct hdr h = { kind, method, HDR_TAG, iter };
	uint32_t i;

	memcpy(buf, &h, sizeof(h));
	for (i = sizeof(h); i < len; i++)
		buf[i] = (uint8_t)(i * 7 + iter);
}

static bool check(const uint8_t *buf, uint32_t len, struct hdr *h)
{
	uint32_t i;

	if (len < sizeof(*h))
		return false;
	memcpy(h, buf, sizeof(*h));
	if (h->tag != HDR_TAG)
		return false;
	for (i = sizeof(*h); i < len; i++)
		if (buf[i] != (uint8_t)(i * 7 + h->iter))
			return false;
	return true;
}

/* ------------------------------------------------------------ sending */

struct sender {
	struct mcast *mc;
	uint32_t group;		/* 0: node lists */
	uint32_t timeout_ms;
	uint32_t failed[MAX_LIST];
	uint32_t nfailed;	/* of the last send */
	uint64_t seq;		/* of the last send */
};

/*
 * One send of buf[0..len) to the group, or to nodes[0..n); wait: in
 * completion mode.  0, -errno; -EHOSTUNREACH leaves the unreached nodes
 * in s->failed[0..s->nfailed).
 */
static int do_send(struct sender *s, const uint32_t *nodes, uint32_t n,
		   const void *buf, uint32_t len, bool wait,
		   const struct method *m)
{
	struct mcast_iov iov = { (uintptr_t)buf, len };
	unsigned int flags = m ? m->flags & ~MCAST_SEND_ALGORITHM : 0;
	struct mcast_send ms;
	int err;

	if (nodes)
		err = mcast_send_init_nodes(&ms, nodes, n, &iov, 1, flags);
	else
		err = mcast_send_init(&ms, s->group, &iov, 1, flags);
	if (!err && m && (m->flags & MCAST_SEND_ALGORITHM))
		err = mcast_send_set_algorithm(&ms, m->algorithm & 0xff,
					       m->algorithm >> 8);
	if (err)
		return err;
	s->nfailed = 0;
	if (wait) {
		ms.flags |= MCAST_SEND_WAIT;
		ms.failed = (uintptr_t)s->failed;
		ms.nfailed = MAX_LIST;
		ms.timeout_ms = s->timeout_ms;
	}
	s->seq = 0;
	if (ioctl(mcast_fd(s->mc), MCAST_IOC_SEND, &ms) < 0) {
		err = -errno;
		if (err == -EHOSTUNREACH)
			s->nfailed = ms.nfailed < MAX_LIST ? ms.nfailed : MAX_LIST;
		return err;
	}
	s->seq = ms.seq;
	return 0;
}

/* Does the kernel have completion mode?  An old one refuses the flag. */
static int probe_wait(struct sender *s, const struct mcast_info *info,
		      const uint32_t *dests, uint32_t n)
{
	uint8_t buf[sizeof(struct hdr)];
	int err;

#if defined(MCAST_CAP_WAIT) && defined(MCAST_CAP_NET)
	if ((info->caps & (MCAST_CAP_WAIT | MCAST_CAP_NET)) !=
	    (MCAST_CAP_WAIT | MCAST_CAP_NET)) {
		fprintf(stderr, "%s: this mcast.ko has no inter-node data path "
			"(no MCAST_CAP_NET and MCAST_CAP_WAIT)\n", prog);
		return EXIT_NOWAIT;
	}
#else
	(void)info;
#endif

	fill(buf, sizeof(buf), KIND_MSG, 0, 0);
	err = do_send(s, s->group ? NULL : dests, n, buf, sizeof(buf), true, NULL);
	if (err == -EINVAL || err == -E2BIG || err == -EOPNOTSUPP) {
		fprintf(stderr, "%s: the kernel refuses completion mode (MCAST_SEND_WAIT: %s): "
			"this mcast.ko has no inter-node data path\n", prog,
			mcast_strerror(err));
		return EXIT_NOWAIT;
	}
	if (err == -EHOSTUNREACH) {
		fprintf(stderr, "%s: %u destination(s) not reached by the probe, first node %u\n",
			prog, s->nfailed, s->nfailed ? s->failed[0] : 0);
		return EXIT_UNREACHED;
	}
	if (err) {
		fprintf(stderr, "%s: probe send: %s\n", prog, mcast_strerror(err));
		return 1;
	}
	return 0;
}

/* One multicast by @m (NULL: the node's way). */
static int multicast(struct sender *s, const struct method *m,
		     const uint32_t *dests, uint32_t n, const void *buf,
		     uint32_t len, bool wait, uint32_t *nfail)
{
	int err;

	err = do_send(s, s->group ? NULL : dests, n, buf, len, wait, m);
	if (err == -EHOSTUNREACH)
		*nfail += s->nfailed;
	return err == -EHOSTUNREACH ? 0 : err;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/*
 * @word as a method: u-torus (named to the kernel when it knows
 * algorithms, so an IR node's auto does not turn it into worms),
 * separate, s-torus, md-torus, mu-torus[:R], auto, binomial (u-torus's
 * halving over node ids: on a switched cluster, the topology-blind tree),
 * or on a hypercube u-cube, maxport, combine, w-sort (trees too) or ring
 * (a worm in software), or rb, rb-all-port (recursion-based broadcast, a
 * software data path of byte ranges, no worm: counted with the trees; the
 * kernel refuses it unless the members are every node but the sender).
 */
static int parse_method(const char *word, size_t n, struct method *m)
{
	char err[PARSE_ERR_MAX];
	uint32_t r;
	uint8_t a;

	if (!n || n >= sizeof(m->name))
		return -1;
	memset(m, 0, sizeof(*m));
	memcpy(m->name, word, n);
	if (!strcmp(m->name, "separate")) {
		m->kind = M_SEPARATE;
		m->flags = MCAST_SEND_SEPARATE;
		return 0;
	}
	if (parse_node_algo(m->name, &a, &r, err))
		return -1;
	/* worms (path-based, ring): M_PATH; trees and rb: M_UTORUS */
	m->kind = a == MCAST_ALGORITHM_UTORUS ||
		  (a >= MCAST_ALGORITHM_BINOMIAL &&
		   a != MCAST_ALGORITHM_RING) ? M_UTORUS : M_PATH;
	m->flags = MCAST_SEND_ALGORITHM;
	m->algorithm = a | r << 8;
	return 0;
}

/* --methods: a comma-separated list of them ("all": u-torus,separate). */
static int parse_methods(const char *list, struct method *m, int *n)
{
	const char *p = list;

	if (!strcmp(list, "all"))
		list = p = "u-torus,separate";
	for (*n = 0; *p; (*n)++) {
		size_t len = strcspn(p, ",");

		if (*n == MAX_METHODS || parse_method(p, len, &m[*n]))
			return -1;
		p += len + (p[len] == ',');
	}
	return *n ? 0 : -1;
}

struct row {
	const struct method *method;
	uint32_t dests, size, iters;
	double median_us, p99_us, msgs_s, mb_s;
	uint32_t failed;
};

static int measure(struct sender *s, const struct method *method,
		   const uint32_t *dests,
		   uint32_t n, uint32_t size, uint32_t iters, uint32_t warmup,
		   uint8_t *buf, double *lat, struct row *r)
{
	double t0, t1;
	uint32_t i, nfail = 0;
	int err;

	memset(r, 0, sizeof(*r));
	r->method = method;
	r->dests = n;
	r->size = size;
	r->iters = iters;
	/* warm-up: untimed, in completion mode, as the peers' harnesses do */
	for (i = 0; i < warmup; i++) {
		fill(buf, size, KIND_DATA, method->kind, 2 * iters + i);
		err = multicast(s, method, dests, n, buf, size, true, &nfail);
		if (err) {
			fprintf(stderr, "%s: %s warm-up send of %u bytes: %s\n", prog,
				method->name, size, mcast_strerror(err));
			return 1;
		}
	}
	/* latency: each multicast in completion mode */
	for (i = 0; i < iters; i++) {
		fill(buf, size, KIND_DATA, method->kind, i);
		t0 = now_us();
		err = multicast(s, method, dests, n, buf, size, true, &nfail);
		t1 = now_us();
		if (err) {
			fprintf(stderr, "%s: %s send of %u bytes: %s\n", prog,
				method->name, size, mcast_strerror(err));
			return 1;
		}
		lat[i] = t1 - t0;
	}
	qsort(lat, iters, sizeof(*lat), cmp_double);
	r->median_us = iters % 2 ? lat[iters / 2] :
		       (lat[iters / 2 - 1] + lat[iters / 2]) / 2;
	i = (uint32_t)(0.99 * iters + 0.999999);
	r->p99_us = lat[(i ? i : 1) - 1];

	/* throughput: back to back, the last one in completion mode */
	t0 = now_us();
	for (i = 0; i < iters; i++) {
		fill(buf, size, KIND_DATA, method->kind, iters + i);
		err = multicast(s, method, dests, n, buf, size, i + 1 == iters, &nfail);
		if (err) {
			fprintf(stderr, "%s: %s send of %u bytes: %s\n", prog,
				method->name, size, mcast_strerror(err));
			return 1;
		}
	}
	t1 = now_us();
	r->msgs_s = iters / ((t1 - t0) / 1e6);
	r->mb_s = r->msgs_s * size / 1e6;
	r->failed = nfail;
	return 0;
}

static void print_row(const struct row *r, bool csv)
{
	if (csv)
		printf("%s,%u,%u,%u,%.1f,%.1f,%.1f,%.3f,%u\n", r->method->name,
		       r->dests, r->size, r->iters, r->median_us, r->p99_us,
		       r->msgs_s, r->mb_s, r->failed);
	else
		printf("%-11s %6u %9u %6u %12.1f %12.1f %11.1f %10.3f %7u\n",
		       r->method->name, r->dests, r->size, r->iters,
		       r->median_us, r->p99_us, r->msgs_s, r->mb_s, r->failed);
	fflush(stdout);
}

static int open_dev(struct mcast **mc, struct mcast_info *info)
{
	int err = mcast_open(mc);

	if (err == -ENOENT) {
		fprintf(stderr, "%s: no %s: the mcast kernel module is not loaded\n",
			prog, MCAST_DEVICE_PATH);
		return 1;
	}
	if (!err)
		err = mcast_info(*mc, info);
	if (err) {
		fprintf(stderr, "%s: %s: %s\n", prog, MCAST_DEVICE_PATH, mcast_strerror(err));
		return 1;
	}
	if (info->node_id == MCAST_NO_NODE) {
		fprintf(stderr, "%s: this node is not configured (mcastctl node set)\n", prog);
		return 1;
	}
	return 0;
}

static void send_stop(struct sender *s, const uint32_t *dests, uint32_t n)
{
	uint8_t buf[sizeof(struct hdr)];
	uint32_t nfail = 0;

	fill(buf, sizeof(buf), KIND_STOP, 0, 0);
	s->group = 0;
	multicast(s, NULL, dests, n, buf, sizeof(buf), true, &nfail);
}

static int cmd_send(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "members", required_argument, NULL, 'm' },
		{ "group", required_argument, NULL, 'g' },
		{ "sizes", required_argument, NULL, 's' },
		{ "iters", required_argument, NULL, 'n' },
		{ "warmup", required_argument, NULL, 'w' },
		{ "counts", required_argument, NULL, 'c' },
		{ "methods", required_argument, NULL, 'M' },
		{ "timeout-ms", required_argument, NULL, 't' },
		{ "csv", no_argument, NULL, 'C' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	static uint32_t members[MAX_LIST], dests[MAX_LIST];
	uint32_t sizes[16], counts[16], iters = 20, warmup = 0, ndests = 0;
	uint32_t maxsize = 0;
	int nsizes, ncounts = 0, nmembers = -1, nmethods = 0, opt, i, j, k, rc = 0;
	struct method methods[MAX_METHODS];
	/*
	 * The closing completion-mode send of a throughput run waits for
	 * every send queued before it: 10 MiB to 63 nodes one by one takes
	 * 30 s in a TCG guest, the kernel's default wait.  Slow is not
	 * unreached: a benchmark waits 10 minutes unless told otherwise.
	 */
	struct sender s = { .timeout_ms = 600000 };
	struct mcast_info info;
	bool csv = false;
	uint8_t *buf;
	double *lat;
	struct row r;

	nsizes = parse_list("8,64,1K,16K,256K,1M,4M", sizes, 16, true);
	while ((opt = getopt_long(argc, argv, "m:g:s:n:w:c:M:t:Ch", opts, NULL)) != -1) {
		switch (opt) {
		case 'm':
			nmembers = parse_ids(optarg, members, MAX_LIST);
			if (nmembers <= 0)
				return usage_err("bad --members \"%s\"", optarg);
			break;
		case 'g':
			if (parse_u32(optarg, UINT32_MAX, &s.group) || !s.group)
				return usage_err("bad --group \"%s\"", optarg);
			break;
		case 's':
			nsizes = parse_list(optarg, sizes, 16, true);
			if (nsizes < 0)
				return usage_err("bad --sizes \"%s\" (8 bytes to 4M)", optarg);
			break;
		case 'n':
			if (parse_u32(optarg, 1000000, &iters) || !iters)
				return usage_err("bad --iters \"%s\"", optarg);
			break;
		case 'w':
			if (parse_u32(optarg, 1000000, &warmup))
				return usage_err("bad --warmup \"%s\"", optarg);
			break;
		case 'c':
			ncounts = parse_list(optarg, counts, 16, false);
			if (ncounts < 0)
				return usage_err("bad --counts \"%s\"", optarg);
			break;
		case 'M':
			if (parse_methods(optarg, methods, &nmethods))
				return usage_err("bad --methods \"%s\"", optarg);
			break;
		case 't':
			if (parse_u32(optarg, UINT32_MAX, &s.timeout_ms))
				return usage_err("bad --timeout-ms \"%s\"", optarg);
			break;
		case 'C':
			csv = true;
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return EXIT_USAGE;
		}
	}
	if (optind < argc)
		return usage_err("unexpected argument \"%s\"", argv[optind]);
	if (nmembers < 0)
		return usage_err("%s", "send needs --members IDS");
	if (ncounts && s.group)
		return usage_err("%s", "--counts is for node lists, not with --group");

	if ((rc = open_dev(&s.mc, &info)))
		return rc;
	for (i = 0; i < nmembers; i++) {
		if (members[i] == info.node_id)
			continue;	/* the source itself */
		for (j = 0; j < (int)ndests && dests[j] != members[i]; j++)
			;
		if (j == (int)ndests)
			dests[ndests++] = members[i];
	}
	if (!ndests) {
		fprintf(stderr, "%s: no destination but this node\n", prog);
		mcast_close(s.mc);
		return EXIT_USAGE;
	}
	if (!ncounts)
		counts[ncounts++] = ndests;
	for (k = 0; k < ncounts; k++) {
		if (counts[k] > ndests) {
			fprintf(stderr, "%s: count %u exceeds the %u destinations\n",
				prog, counts[k], ndests);
			mcast_close(s.mc);
			return EXIT_USAGE;
		}
	}
	for (i = 0; i < nsizes; i++)
		maxsize = sizes[i] > maxsize ? sizes[i] : maxsize;
	buf = malloc(maxsize);
	lat = calloc(iters, sizeof(*lat));
	if (!buf || !lat) {
		fprintf(stderr, "%s: out of memory\n", prog);
		rc = 1;
		goto out;
	}

	if (!nmethods)
		parse_methods("all", methods, &nmethods);
	rc = probe_wait(&s, &info, dests, ndests);
	if (rc)
		goto out;
	for (j = 0; j < nmethods; j++) {
		if (methods[j].kind == M_SEPARATE && !(info.caps & MCAST_CAP_SEPARATE)) {
			fprintf(stderr, "%s: this mcast.ko has no separate addressing "
				"(no MCAST_CAP_SEPARATE): use --methods u-torus\n", prog);
			rc = EXIT_NOWAIT;
			goto out;
		}
		if (!(methods[j].flags & MCAST_SEND_ALGORITHM) ||
		    (info.caps & MCAST_CAP_OFFLOAD))
			continue;
		if (methods[j].kind != M_UTORUS) {
			fprintf(stderr, "%s: this mcast.ko cannot name a send's "
				"algorithm (no MCAST_CAP_OFFLOAD): no %s\n", prog,
				methods[j].name);
			rc = EXIT_NOWAIT;
			goto out;
		}
		methods[j].flags = 0;	/* an older one: U-torus it is */
	}

	if (csv) {
		printf("method,dests,size,iters,median_us,p99_us,msgs_per_s,mb_per_s,failed\n");
	} else {
		printf("# mcastperf: source node %u, %u destination(s), %s, %u iteration(s)\n",
		       info.node_id, ndests, s.group ? "group send" : "node-list send", iters);
		printf("# latency: completion mode (MCAST_SEND_WAIT), until the last destination acknowledged\n");
		printf("# throughput: back-to-back sends, the last in completion mode; MB/s of message payload\n");
		printf("%-11s %6s %9s %6s %12s %12s %11s %10s %7s\n", "method", "dests",
		       "size", "iters", "median_us", "p99_us", "msgs/s", "MB/s", "failed");
	}
	for (k = 0; k < ncounts; k++) {
		for (i = 0; i < nsizes; i++) {
			for (j = 0; j < nmethods; j++) {
				rc = measure(&s, &methods[j], dests, counts[k], sizes[i],
					     iters, warmup, buf, lat, &r);
				if (rc)
					goto stop;
				print_row(&r, csv);
				if (r.failed)
					rc = EXIT_UNREACHED;
			}
		}
	}
stop:
	send_stop(&s, dests, ndests);
out:
	free(buf);
	free(lat);
	mcast_close(s.mc);
	return rc;
}

/* ------------------------------------------------------------ receiving */

/*
 * One --verbose line: who sent it, and in which step and from which node
 * it came; on a virtual clock (the irsim fabric) also when it was whole
 * here and the latency of the worm that completed it, in virtual ns.
 */
static void print_recv(uint32_t self, const struct mcast_recv *r, bool good)
{
	char grp[32] = "node list";

	if (r->group != MCAST_NO_GROUP)
		snprintf(grp, sizeof(grp), "group %u", r->group);
	printf("node %u: got seq %" PRIu64 " of node %u (%s), %u bytes%s, "
	       "in step %u from node %u", self, (uint64_t)r->seq, r->src_node,
	       grp, r->len, good ? "" : " NOT the bytes sent", r->step,
	       r->from_node);
	if (r->vtime_ns)
		printf(", whole at virtual %" PRIu64 " ns, its last worm %u ns",
		       (uint64_t)r->vtime_ns, r->vlat_ns);
	putchar('\n');
}

static int cmd_recv(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "group", required_argument, NULL, 'g' },
		{ "idle", required_argument, NULL, 'i' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "count", required_argument, NULL, 'c' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	uint32_t group = 0, idle = 60, count = 0;
	uint64_t msgs = 0, bytes = 0, bad = 0, dropped = 0, trunc = 0;
	uint64_t bymethod[M_KINDS] = { 0 };
	struct mcast_info info;
	struct mcast_recv r;
	struct mcast *mc;
	bool verbose = false, stopped = false;
	uint8_t *buf;
	struct hdr h;
	int opt, err, rc = 0;

	while ((opt = getopt_long(argc, argv, "g:i:vc:h", opts, NULL)) != -1) {
		switch (opt) {
		case 'c':
			if (parse_u32(optarg, UINT32_MAX, &count) || !count)
				return usage_err("bad --count \"%s\"", optarg);
			break;
		case 'g':
			if (parse_u32(optarg, UINT32_MAX, &group) || !group)
				return usage_err("bad --group \"%s\"", optarg);
			break;
		case 'i':
			if (parse_u32(optarg, 86400, &idle) || !idle)
				return usage_err("bad --idle \"%s\"", optarg);
			break;
		case 'v':
			verbose = true;
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return EXIT_USAGE;
		}
	}
	if (optind < argc)
		return usage_err("unexpected argument \"%s\"", argv[optind]);
	if ((rc = open_dev(&mc, &info)))
		return rc;
	if (group && (err = mcast_join(mc, group))) {
		fprintf(stderr, "%s: join group %u: %s\n", prog, group, mcast_strerror(err));
		mcast_close(mc);
		return 1;
	}
	buf = malloc(MCAST_MAX_MSG);
	if (!buf) {
		mcast_close(mc);
		return 1;
	}
	/* tell a script waiting for us that we are ready */
	fprintf(stderr, "%s: node %u receiving%s\n", prog, info.node_id,
		group ? " (joined the group)" : "");
	while (!stopped) {
		struct pollfd pfd = { mcast_fd(mc), POLLIN, 0 };

		err = poll(&pfd, 1, idle * 1000);
		if (err == 0) {
			fprintf(stderr, "%s: node %u: nothing for %u s, giving up\n",
				prog, info.node_id, idle);
			rc = 1;
			break;
		}
		if (err < 0) {
			if (errno == EINTR)
				continue;
			rc = 1;
			break;
		}
		mcast_recv_init(&r, buf, MCAST_MAX_MSG, MCAST_RECV_DONTWAIT);
		if (ioctl(mcast_fd(mc), MCAST_IOC_RECV, &r) < 0) {
			if (errno == EAGAIN || errno == EINTR)
				continue;
			fprintf(stderr, "%s: receive: %s\n", prog, strerror(errno));
			rc = 1;
			break;
		}
		msgs++;
		bytes += r.len;
		dropped += r.dropped;
		if (r.flags & MCAST_RECV_TRUNC)
			trunc++;
		if (!check(buf, r.len, &h)) {
			bad++;
			h.kind = 0;
		} else if (h.kind == KIND_STOP) {
			stopped = true;
		} else if (h.kind == KIND_DATA && h.method < M_KINDS) {
			bymethod[h.method]++;
		}
		if (count && msgs >= count)
			stopped = true;
		if (verbose)
			print_recv(info.node_id, &r, h.kind != 0);
		fflush(stdout);
	}
	printf("node %u: received %" PRIu64 " messages, %" PRIu64 " bytes (u-torus %" PRIu64
	       ", separate %" PRIu64 ", path-based %" PRIu64 "), bad %" PRIu64
	       ", truncated %" PRIu64 ", dropped %" PRIu64 "%s\n", info.node_id, msgs,
	       bytes, bymethod[M_UTORUS], bymethod[M_SEPARATE], bymethod[M_PATH],
	       bad, trunc, dropped, !stopped ? "" :
	       count && msgs >= count ? ", all expected" : ", stopped by the sender");
	free(buf);
	mcast_close(mc);
	return rc ? rc : (bad || trunc) ? 1 : 0;
}

/* ------------------------------------------------------------ one message */

static int cmd_msg(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "group", required_argument, NULL, 'g' },
		{ "nodes", required_argument, NULL, 'N' },
		{ "size", required_argument, NULL, 's' },
		{ "no-wait", no_argument, NULL, 'W' },
		{ "timeout-ms", required_argument, NULL, 't' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	static uint32_t nodes[MAX_LIST];
	struct sender s = { 0 };
	struct mcast_info info;
	uint32_t size = 64, i;
	int nnodes = 0, opt, err, rc;
	bool wait = true;
	uint8_t *buf;
	double t0;

	while ((opt = getopt_long(argc, argv, "g:N:s:Wt:h", opts, NULL)) != -1) {
		switch (opt) {
		case 'g':
			if (parse_u32(optarg, UINT32_MAX, &s.group) || !s.group)
				return usage_err("bad --group \"%s\"", optarg);
			break;
		case 'N':
			nnodes = parse_ids(optarg, nodes, MAX_LIST);
			if (nnodes <= 0)
				return usage_err("bad --nodes \"%s\"", optarg);
			break;
		case 's':
			if (parse_size(optarg, &size))
				return usage_err("bad --size \"%s\" (8 bytes to 4M)", optarg);
			break;
		case 'W':
			wait = false;
			break;
		case 't':
			if (parse_u32(optarg, UINT32_MAX, &s.timeout_ms))
				return usage_err("bad --timeout-ms \"%s\"", optarg);
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return EXIT_USAGE;
		}
	}
	if (optind < argc)
		return usage_err("unexpected argument \"%s\"", argv[optind]);
	if (!s.group == !nnodes)
		return usage_err("%s", "msg needs --group G or --nodes IDS");
	if ((rc = open_dev(&s.mc, &info)))
		return rc;
	buf = malloc(size);
	if (!buf) {
		mcast_close(s.mc);
		return 1;
	}
	fill(buf, size, KIND_MSG, 0, 0);
#if defined(MCAST_CAP_WAIT) && defined(MCAST_CAP_NET)
	if (wait && (info.caps & (MCAST_CAP_WAIT | MCAST_CAP_NET)) !=
	    (MCAST_CAP_WAIT | MCAST_CAP_NET)) {
		fprintf(stderr, "%s: this mcast.ko has no inter-node data path "
			"(no MCAST_CAP_NET and MCAST_CAP_WAIT)\n", prog);
		free(buf);
		mcast_close(s.mc);
		return EXIT_NOWAIT;
	}
#endif
	t0 = now_us();
	err = do_send(&s, s.group ? NULL : nodes, nnodes, buf, size, wait, 0);
	if (err == -EINVAL && wait) {
		fprintf(stderr, "%s: the kernel refuses completion mode (MCAST_SEND_WAIT): "
			"this mcast.ko has no inter-node data path\n", prog);
		rc = EXIT_NOWAIT;
	} else if (err == -EHOSTUNREACH) {
		printf("node %u: sent %u bytes, %u node(s) NOT reached:", info.node_id, size,
		       s.nfailed);
		for (i = 0; i < s.nfailed; i++)
			printf(" %u", s.failed[i]);
		printf("\n");
		rc = EXIT_UNREACHED;
	} else if (err) {
		fprintf(stderr, "%s: send: %s\n", prog, mcast_strerror(err));
		rc = 1;
	} else {
		printf("node %u: sent seq %" PRIu64 ", %u bytes, to %s%s (%.0f us)\n",
		       info.node_id, s.seq, size, s.group ? "the group" : "the node list",
		       wait ? ": every destination acknowledged it" : "", now_us() - t0);
	}
	free(buf);
	mcast_close(s.mc);
	return rc;
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		usage(stderr);
		return EXIT_USAGE;
	}
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help") || !strcmp(argv[1], "help")) {
		usage(stdout);
		return 0;
	}
	if (!strcmp(argv[1], "-V") || !strcmp(argv[1], "--version")) {
		printf("%s %s\n", prog, MCAST_VERSION);
		return 0;
	}
	if (!strcmp(argv[1], "send"))
		return cmd_send(argc - 1, argv + 1);
	if (!strcmp(argv[1], "recv"))
		return cmd_recv(argc - 1, argv + 1);
	if (!strcmp(argv[1], "msg"))
		return cmd_msg(argc - 1, argv + 1);
	return usage_err("unknown command \"%s\" (send, recv, msg)", argv[1]);
}
