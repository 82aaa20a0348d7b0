/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * A cycle-level packet router simulator for unicast traffic on a k x k
 * torus or mesh: the router study of Fulgham (1997), ch. 4, 5 and 6.
 * Virtual cut-through packets, half-duplex channels
 * (or ch. 4's wormhole: 1-word buffers, simplex channels, a 40/400 mix),
 * the dimension-order oblivious router (DO), Duato's minimal adaptive
 * router, the Minimal Triplex (ch. 4, 5), the non-minimal Triplex (ch.
 * 4: Rules 1, 2 and 3 in packets; 1, 2, 3w and 4t in worms) and the
 * Chaos router (ch. 6), the Triplex routers' mixed-class traffic (ch.
 * 4.5: a share of the messages in the oblivious class, the rest in the
 * router's adaptive class), input-driven (fixed order or random) and
 * output-driven arbitration (Chaos: output-driven only), the seed's seven
 * traffic patterns, its random number generator, and batch-means
 * statistics.  No printing: mcastsim router (router.c) and the seed002
 * experiments drive it.
 */
#ifndef MCASTSIM_ROUTER_MODEL_H
#define MCASTSIM_ROUTER_MODEL_H

#include "mc_types.h"

enum rm_topo { RM_TORUS, RM_MESH };
enum rm_algo {
	RM_DO, RM_DUATO,
	RM_TRIPLEX,		/* Minimal Triplex */
	RM_CHAOS,		/* output-driven only */
	RM_NMTRIPLEX,		/* (non-minimal) Triplex: deroutes */
	RM_NALGO
};
enum rm_arb { RM_IN_FIXED, RM_IN_RANDOM, RM_OUT };
/* Flow control: virtual cut-through packets, or wormhole (ch. 4). */
enum rm_flow { RM_VCT, RM_WORMHOLE };
enum rm_traffic {
	RM_RANDOM, RM_BITREV, RM_COMPLEMENT, RM_SHUFFLE, RM_TRANSPOSE,
	RM_HOTSPOT1, RM_HOTSPOT2,
	RM_HOTSPOT2_ONCE,	/* hot spot 2, its 51 once (not the seed's) */
	RM_NTRAFFIC
};

struct rm_cfg {
	u32 k;			/* k x k nodes, 4..64 */
	enum rm_topo topo;
	enum rm_algo algo;
	enum rm_arb arb;
	enum rm_traffic traffic;
	double load;		/* normalized to the bisection limit */
	enum rm_flow flow;
	u32 len;		/* packet length, words (20) */
	u32 len2;		/* wormhole mix: the long messages' length */
	u32 mix;		/* wormhole mix: mix short to 1 long; 0 none */
	u32 depth;		/* buffer depth, words (20), len..3 len;
				 * wormhole: 1 */
	u32 latency;		/* node latency, cycles; 0: 3 DO, else 4 */
	/*
	 * The non-minimal Triplex's selection (ch. 4.7.2): a header blocked
	 * this long at a router, with no minimal output, deroutes with this
	 * probability per routing attempt.  -1: the thesis's, 160 cycles
	 * and .1 wormhole, 400 and .00001 packet.
	 */
	s32 dwait;
	double dprob;		/* 0 to below 1 (Cor. 20) */
	/*
	 * Mixed-class traffic (ch. 4.5.3, Table 4.3), the Triplex routers
	 * only: the percentage (0..100) of messages in the oblivious class
	 * (Rule 1 alone, in order), the rest in the router's own class
	 * (min-triplex: minimal, triplex: non-minimal), drawn per message
	 * from a stream of its own.  -1: single-class (every message the
	 * router's class), no draw.
	 */
	double obliv;
	u32 seed;		/* X0 of the generator, 1..2^31-2 */
	u32 warmup;		/* cycles discarded first */
	u32 batches;		/* batch count, at least 2 */
	u32 batch;		/* cycles per batch */
};

struct rm_result {
	double offered, offered_ci;	/* created, normalized */
	double thr, thr_ci;		/* delivered, normalized */
	double lat, lat_ci;		/* cycles, injection to delivery */
	double hops;			/* mean hops of the delivered */
	double short_mean, short_ci;	/* offered - delivered, paired */
	bool saturated;
	u64 delivered;			/* in the measured batches */
	u64 backlog;			/* source queues at the end */
	u64 deroutes;			/* non-minimal hops, measured */
	double len_mean;		/* words, of those injected measured */
	/*
	 * Mixed-class runs: the share of the measured deliveries in the
	 * oblivious class, each class's mean latency (0 with none), and
	 * each class's deliveries out of order: after a message of the
	 * same class, source and destination injected later.
	 */
	double obl_share, obl_lat, ada_lat;
	u64 obl_reorder, ada_reorder;
};

/* The name of each, and back (-1 when unknown). */
const char *rm_topo_name(enum rm_topo t);
const char *rm_algo_name(enum rm_algo a);
const char *rm_arb_name(enum rm_arb a);
const char *rm_traffic_name(enum rm_traffic t);
const char *rm_flow_name(enum rm_flow f);
int rm_algo_parse(const char *s);
int rm_arb_parse(const char *s);
int rm_traffic_parse(const char *s);
int rm_flow_parse(const char *s);

/* The defaults: 16x16 torus, DO, output-driven, random, 20/20 words. */
void rm_cfg_default(struct rm_cfg *c);
/* NULL if @c can be simulated, else what is wrong (names the field). */
const char *rm_cfg_check(const struct rm_cfg *c);
/*
 * Cycles between injections per node at load 1.0: k l/4 torus, k l/2 mesh
 * on half-duplex channels (VCT), half that on simplex ones (wormhole), l
 * the mean message length.
 */
double rm_t1(const struct rm_cfg *c);
/* The mean message length, words: len, or (mix len + len2) / (mix + 1). */
double rm_mean_len(const struct rm_cfg *c);

/*
 * One run at c->load.  0, or -1 when the network stopped moving with
 * packets in it (a deadlock: a bug of the model).
 */
int rm_run(const struct rm_cfg *c, struct rm_result *r);
/*
 * One packet alone from @src to @dst on an idle network: its latency
 * (cycles from its header entering the injection buffer to its tail
 * entering the delivery buffer) and its hops.  0, or -1.
 */
int rm_probe(const struct rm_cfg *c, u32 src, u32 dst, u32 *lat, u32 *hops);

/*
 * The traffic pattern: for a permutation, @src's destination; for random
 * and the hot spots (-1 returned), the probability that @node is drawn as
 * a destination, in *prob.  Bit permutations need k a power of 2, the hot
 * spots k = 16.
 */
int rm_pattern_dest(const struct rm_cfg *c, u32 src, double *prob);
/* The mean hop distance of the pattern (exact, over all sources). */
double rm_pattern_hops(const struct rm_cfg *c);

/*
 * The generator: X(n) = 397204094 X(n-1) mod 2^31 - 1 (Fulgham 1997,
 * Sec. 3.5).  rm_lcg_pow is b^e mod 2^31 - 1.  rm_selftest checks the notes'
 * vectors and returns the number that fail (0).
 */
u32 rm_lcg_next(u32 *x);
u32 rm_lcg_pow(u32 b, u64 e);
u32 rm_selftest(char *buf, u32 n);

#endif /* MCASTSIM_ROUTER_MODEL_H */
