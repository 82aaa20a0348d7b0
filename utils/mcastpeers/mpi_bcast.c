// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * mpi_bcast: MPI_Bcast latency and throughput, measured the way mcastperf
 * measures a multicast in completion mode, for `make bench-peers`.  Built
 * twice, against Open MPI (build/mcastpeers/mpi_bcast.openmpi) and MPICH
 * (build/mcastpeers/mpi_bcast.mpich); one rank per testbed node, rank 0 is
 * the root.
 *
 *   mpirun ... mpi_bcast [--peer P] [--method M] [--sizes LIST]
 *                        [--iters N] [--warmup W] [--no-header]
 *
 * For every size, after W untimed rounds:
 *   latency     N rounds of: the root timestamps, MPI_Bcast, every other
 *               rank sends the root a zero-byte acknowledgement as soon as
 *               its MPI_Bcast returned, the root timestamps when it has
 *               them all: the time until the last receiver had the
 *               message (median, p99)
 *   throughput  N MPI_Bcasts back to back, then one acknowledgement round:
 *               N / elapsed time
 * Receivers check every byte after acknowledging (the check is not timed,
 * as mcast's acknowledgement does not wait for its receivers' check
 * either); "failed" counts the ranks that saw a wrong byte.  The root reads
 * the guest's /proc/stat around the 2N timed broadcasts: cpu_us_per_msg is
 * the busy CPU time of the whole guest (every node) per broadcast, and the
 * bytes the root's node sent on its links around them (src_tx_before,
 * src_tx_after: peers_tx_bytes).
 * One CSV row per size on the root's stdout (peers.h has the schema).
 * Exits non-zero if any rank saw a wrong byte or MPI failed.
 */
#define _GNU_SOURCE
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "peers.h"

#define TAG_ACK 7

static const char usage[] =
	"usage: mpi_bcast [--peer P] [--method M] [--sizes LIST] [--iters N]\n"
	"                 [--warmup W] [--no-header]\n";

struct ctx {
	int rank, nranks;
	uint8_t *buf;
	double *lat;
	uint64_t bad;		/* wrong bytes this rank received */
};

/* The root waits for a zero-byte message from every other rank. */
static void collect_acks(const struct ctx *c)
{
	int i;

	for (i = 1; i < c->nranks; i++)
		MPI_Recv(NULL, 0, MPI_BYTE, MPI_ANY_SOURCE, TAG_ACK, MPI_COMM_WORLD,
			 MPI_STATUS_IGNORE);
}

/*
 * One broadcast of message ITER (SIZE bytes).  ACK: receivers acknowledge
 * it (and the root waits for them).
 */
static void bcast_one(struct ctx *c, uint32_t size, uint32_t iter, int ack)
{
	if (c->rank == 0)
		peers_fill(c->buf, 0, size, iter);
	MPI_Bcast(c->buf, (int)size, MPI_BYTE, 0, MPI_COMM_WORLD);
	if (c->rank == 0) {
		if (ack)
			collect_acks(c);
		return;
	}
	if (ack)
		MPI_Send(NULL, 0, MPI_BYTE, 0, TAG_ACK, MPI_COMM_WORLD);
	c->bad += peers_check(c->buf, 0, size, iter);
}

/* Latency and throughput of one size; the row is meaningful on the root. */
static void measure(struct ctx *c, const struct peers_opts *o, uint32_t size,
		    struct peers_row *r)
{
	uint32_t i, iter = 0;
	double t0, cpu0;

	memset(r, 0, sizeof(*r));
	r->nodes = c->nranks;
	r->dests = c->nranks - 1;
	r->size = size;
	r->iters = o->iters;
	for (i = 0; i < o->warmup; i++)
		bcast_one(c, size, iter++, 1);
	if (c->rank == 0)
		r->tx_before = peers_tx_bytes();
	cpu0 = peers_cpu_us();
	for (i = 0; i < o->iters; i++) {
		t0 = peers_now_us();
		bcast_one(c, size, iter++, 1);
		c->lat[i] = peers_now_us() - t0;
	}
	t0 = peers_now_us();
	for (i = 0; i < o->iters; i++)
		bcast_one(c, size, iter++, i + 1 == o->iters);
	r->msgs_s = o->iters / ((peers_now_us() - t0) / 1e6);
	r->cpu_us_per_msg = (peers_cpu_us() - cpu0) / (2.0 * o->iters);
	if (c->rank == 0) {
		r->tx_after = peers_tx_bytes();
		peers_stats(c->lat, o->iters, r);
	}
}

/* Ranks that saw a wrong byte so far, known on the root. */
static uint32_t count_failed(const struct ctx *c)
{
	int mine = c->bad != 0, total = 0;

	MPI_Reduce(&mine, &total, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
	return (uint32_t)total;
}

int main(int argc, char **argv)
{
	struct peers_opts o;
	struct peers_row r;
	struct ctx c = { 0 };
	uint32_t maxsize = 0, failed = 0;
	int i, rc;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &c.rank);
	MPI_Comm_size(MPI_COMM_WORLD, &c.nranks);
	rc = peers_parse(argc, argv, &o, usage);
	if (rc || c.nranks < 2) {
		if (!rc && c.rank == 0)
			fprintf(stderr, "mpi_bcast: needs at least 2 ranks\n");
		MPI_Finalize();
		return rc ? rc : 2;
	}
	for (i = 0; i < o.nsizes; i++)
		maxsize = o.sizes[i] > maxsize ? o.sizes[i] : maxsize;
	c.buf = malloc(maxsize);
	c.lat = calloc(o.iters, sizeof(*c.lat));
	if (!c.buf || !c.lat) {
		fprintf(stderr, "mpi_bcast: rank %d: out of memory\n", c.rank);
		MPI_Abort(MPI_COMM_WORLD, 1);
	}
	if (c.rank == 0 && o.header)
		printf("%s\n", PEERS_CSV_HEADER);
	for (i = 0; i < o.nsizes; i++) {
		measure(&c, &o, o.sizes[i], &r);
		r.failed = count_failed(&c);
		failed += r.failed;
		if (c.rank == 0)
			peers_print_row(&o, &r);
	}
	if (c.bad)
		fprintf(stderr, "mpi_bcast: rank %d received %llu wrong bytes\n", c.rank,
			(unsigned long long)c.bad);
	if (c.rank == 0 && failed)
		fprintf(stderr, "mpi_bcast: FAILED: receivers saw wrong bytes\n");
	/* a launcher that must kill a job hanging in MPI_Finalize looks for it */
	if (c.rank == 0) {
		fprintf(stderr, "mpi_bcast: all sizes done, finalizing\n");
		fflush(stdout);
	}
	free(c.buf);
	free(c.lat);
	MPI_Finalize();
	return failed ? 1 : 0;
}
