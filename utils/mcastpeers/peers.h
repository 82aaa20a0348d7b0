/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * What the peer harnesses (mpi_bcast, tipc_bcast) share: option parsing,
 * the payload pattern, statistics, the guest-wide CPU counter and the one
 * CSV schema every method of `make bench-peers` is reported in.
 */
#ifndef MCASTPEERS_H
#define MCASTPEERS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define PEERS_MAX_SIZES 16
#define PEERS_MAX_SIZE (4u << 20)	/* 4 MiB, mcastperf's largest */

/* The CSV header: one schema for mcast, Open MPI, MPICH and TIPC rows. */
#define PEERS_CSV_HEADER \
	"peer,method,nodes,dests,size,iters,median_us,p99_us,msgs_per_s,mb_per_s,cpu_us_per_msg,failed," \
	"src_tx_before,src_tx_after"

struct peers_opts {
	const char *peer;	/* "openmpi", "mpich", "tipc" */
	const char *method;	/* "default", "binomial", "broadcast", ... */
	uint32_t sizes[PEERS_MAX_SIZES];
	int nsizes;
	uint32_t iters;		/* timed rounds per size, and back-to-back sends */
	uint32_t warmup;	/* untimed rounds per size before them */
	bool header;		/* print the CSV header first */
};

/* One size's result, as one CSV row. */
struct peers_row {
	uint32_t nodes, dests, size, iters;
	double median_us, p99_us, msgs_s, cpu_us_per_msg;
	uint32_t failed;	/* receivers that saw wrong bytes or missed data */
	/* the source node's peers_tx_bytes() around the 2 * iters timed messages */
	double tx_before, tx_after;
};

/*
 * Parses the options both harnesses take (--peer, --method, --sizes,
 * --iters, --warmup, --no-header); returns 0, or 2 after printing a usage
 * error.  Unknown options are errors: USAGE is printed with them.
 */
int peers_parse(int argc, char **argv, struct peers_opts *o, const char *usage);

double peers_now_us(void);

/* The payload: byte i of message ITER is (i * 7 + iter), as mcastperf's. */
void peers_fill(uint8_t *buf, size_t off, size_t len, uint32_t iter);
/* Number of bytes of buf[0..len) (at offset OFF of the message) that differ. */
size_t peers_check(const uint8_t *buf, size_t off, size_t len, uint32_t iter);

/* Sorts lat[0..n) and sets r->median_us and r->p99_us, as mcastperf does. */
void peers_stats(double *lat, uint32_t n, struct peers_row *r);

/*
 * Busy CPU time of the whole guest so far, in microseconds summed over all
 * CPUs (/proc/stat: user+nice+system+irq+softirq+steal).  Every node is a
 * network namespace of this one machine, so this is the cluster's CPU.
 * Returns a negative value if /proc/stat cannot be read.
 */
double peers_cpu_us(void);

/*
 * Bytes this network namespace's interfaces but lo have sent so far (the
 * sum of /sys/class/net/(name)/statistics/tx_bytes; `ip netns exec`
 * mounts the namespace's own sysfs), or a negative value if there is no
 * /sys/class/net.  Read on the source, around the timed messages: bytes
 * that never left it on a link (a peer that found a shortcut between
 * namespaces of one kernel) show as too few.
 */
double peers_tx_bytes(void);

void peers_print_row(const struct peers_opts *o, const struct peers_row *r);

#endif
