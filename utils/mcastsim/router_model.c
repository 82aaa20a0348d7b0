// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The packet router study of Fulgham (1997), ch. 3, 5 and 6: see
 * router_model.h.  The model (Sec. 3.1 and 5.3):
 *
 * Nodes are numbered row-major, id = y k + x; dimension 0 (x) is corrected
 * first.  A router has, per direction of travel (x-, x+, y-, y+) and per
 * virtual channel (VC), one input and one output buffer of --depth words,
 * plus an injection and a delivery buffer.  Neighbours are joined by one
 * bidirectional half-duplex channel that carries one word per cycle in one
 * direction.  The VCs are:
 *   DO torus: 2 dateline classes x 2 lanes = 4; DO mesh: 2 lanes.  The
 *     class is 1 while the rest of the path in the dimension still
 *     crosses the wrap link (k-1 -> 0 going +, 0 -> k-1 going -), 0 after
 *     or if it never does (the notes' 2.1); of the class's two lanes the
 *     available one with the most free words is taken.
 *   Duato torus: VC 0 and 1 the same DO classes (restricted), VC 2
 *     unrestricted (minimal adaptive); mesh: VC 0 restricted, VC 1 not.
 *     An unrestricted output is a candidate only when it is empty and the
 *     neighbour's input buffer of that VC was empty at the start of the
 *     cycle (the status arrives one cycle late: the seed's two-word
 *     bubble).
 *   Minimal Triplex (packet version, notes 2.3): the VCs as Duato's, but
 *     "empty" is the thesis's packet criterion, non-full (the local output
 *     can take the whole packet), with no neighbour status and so no
 *     bubble.  Rule 1: the restricted DO output.  Rule 2: the
 *     unrestricted VC in any minimal direction.  The minimal part of
 *     Rule 4 (mesh) / 4t (torus): a packet whose DO hop in its lowest
 *     dimension l is negative, and on the torus no longer (or never)
 *     needs the wrap link in l (wrap-free), may take any VC, restricted
 *     or not, in a minimal direction of a dimension above l.  This is
 *     the rule set of the ch. 5 "early implementation" (ch. 4 later
 *     dropped Rule 4t).
 *   The (non-minimal) Triplex, -a triplex (notes 2.3, ch. 4.7.2): the
 *     same VCs, and its minimal routes as Minimal Triplex's but for Rule
 *     4t, which the thesis's final packet Triplex omits entirely: Rules
 *     1 and 2 in packets, Rules 1, 2 and 4t's minimal routes in worms.
 *     It takes a minimal route whenever one is available.  A header with
 *     none that has been blocked at this router for --deroute-wait
 *     cycles (160 wormhole, 400 packet; counted from the cycle it could
 *     first be routed here, its header's arrival + N - 1) deroutes with
 *     probability --deroute-p (.1 wormhole, .00001 packet, below 1 for
 *     Cor. 20's livelock freedom): one coin per routing attempt (a
 *     cycle in which the router considers it), flipped only when a
 *     deroute is available, from the node's arbitration stream.  If it
 *     comes up, the deroutes are its outputs for that cycle, and the
 *     arbitration serves them as any other.  The deroutes: Rule 3 in
 *     packets, the unrestricted VC of any non-minimal direction (both
 *     directions of a corrected dimension), any dimension, non-full;
 *     Rule 3w in worms, the same in a dimension above l only, and Rule
 *     4t's non-minimal routes, any VC (restricted too) of a non-minimal
 *     direction above l for a worm that needs -l, wrap-free, both with
 *     the strict wormhole "empty".  Packets never deroute from the
 *     injection buffer (the thesis's, copied from Chaos); worms may (the
 *     thesis restricts only packets).  The mesh takes the torus's rule
 *     sets (the thesis's final packet Triplex is a torus one), Rule 4
 *     for 4t.  With --deroute-p 0 it is Minimal Triplex without Rule 4t
 *     in packets (Rules 1 and 2, ch. 4's improved minimal packet
 *     Triplex) and exactly Minimal Triplex in worms.
 *   Chaos (notes 2.4; its timing is in [KS94] and [Bol93b], not in the
 *     seed, so the rest is chosen here): no VCs, one input and one output
 *     frame per direction, and a multiqueue of 5 one-packet slots: 15
 *     buffers.  Output-driven only: each free output frame goes to a
 *     random one of the packets that want it minimally (or are picked to
 *     deroute), the multiqueue's first.  With no connection made in the
 *     cycle, an input frame's packet that has no output frame (stalled)
 *     moves into an empty multiqueue slot, where the node latency starts
 *     again; with the multiqueue full, one of its packets is picked at
 *     random to deroute, and takes the first free output frame, any
 *     direction.  The injection buffer's packets neither enter the
 *     multiqueue nor deroute, come after the packets in the network, and
 *     leave only while the multiqueue is empty (without this throttle the
 *     torus collapses past load 0.9).  Deadlock freedom, the packet exchange
 *     ("a router that sends must be able to receive"): the four frames
 *     of a channel (both ends' output and input frames) are never all
 *     full, so a packet takes an output frame only if another of that
 *     channel's frames stays free; when a stalled input frame's channel
 *     has only its output frame back free and the multiqueue is full,
 *     the packet goes back (an exchange), and the neighbour's packet for
 *     this node can come in.  Node latency 4.
 *
 * Flow control is virtual cut-through at the word level.  A packet's
 * header may enter a buffer only when the buffer can hold the whole packet
 * beside the packets in it that have not yet been forwarded ("committed"
 * words): a blocked packet then sits wholly in one buffer, while a buffer
 * may hold the tail of a departing packet and the head of the next.  Each
 * transfer (source queue -> injection buffer, input -> output across the
 * crossbar, output -> neighbour's input across the channel, input ->
 * delivery) moves at most one word per cycle, and only a word that was in
 * the buffer at the start of the cycle into space free at the start of the
 * cycle: the order in which transfers are done within a cycle does not
 * matter.
 *
 * Pipeline (the seed gives node latencies N = 3 for DO, 4 for the others,
 * not the stages): a header that enters an input (or the injection)
 * buffer in cycle t may be routed in cycle t + N - 1, crosses the
 * crossbar in t + N and the channel in t + N + 1.  A hop is N + 1 cycles,
 * one more for Duato and Triplex than for DO, and a packet alone over h
 * hops takes
 *	h (N + 1) + N + len - 1
 * cycles from its header entering the injection buffer to its tail
 * entering the delivery buffer: the latency measured (source queueing
 * excluded, notes 3.4).  A router makes at most one new input -> output
 * connection per cycle; connections already made all move a word a cycle.
 * The delivery buffer takes one packet at a time, a word a cycle (the node
 * consumes at that rate).
 *
 * Arbitration (ch. 5): input-driven scans the input buffers round-robin
 * from after the last one served (x-, x+, y-, y+, VC within direction,
 * the injection buffer last) for one whose ready packet has an available
 * output; fixed order takes the first in dimension order (lowest
 * dimension first, the restricted DO output before the others),
 * random takes one at random.  Output-driven scans the outputs round-robin
 * (same order, the delivery buffer last) for an available one that a
 * ready packet wants, and gives it to one of those packets at random.  DO
 * offers each packet one output (the lane is its selection function), so
 * its input-driven fixed and random routers are the same router.
 *
 * Where the seed is silent (notes 3.6, 5.3), chosen here:
 *   - the torus tie at offset k/2: DO goes +; Duato's and Triplex's
 *     adaptive outputs may take either direction, and Rule 4t takes the
 *     tie in l as DO's +, so not the negative direction it needs;
 *   - Triplex's fixed order: the DO output, then by dimension, the DO
 *     direction (+ at a tie above l) first, then within a port the VCs in
 *     number order, restricted before unrestricted;
 *   - a half-duplex channel is granted word by word, round-robin over the
 *     output buffers of both ends that have a word ready (no turnaround
 *     cost): it alternates when both ends have traffic;
 *   - a packet addressed to its own node goes from the injection to the
 *     delivery buffer (0 hops) and counts as delivered;
 *   - hot spot: the ten listed entries each add weight 3 to their node
 *     (weight 4 against 1); hot spot 2 lists 51 twice, so 51 weighs 7
 *     (hotspot2-once: 51 once, nine hot nodes, to show the difference);
 *   - warm-up, batch count and size: the caller's (mcastsim router's
 *     defaults 10000 + 10 x 4000 cycles);
 *   - saturation: the shortfall offered - delivered, batch by batch, has
 *     a 95 % interval above 0 and is over 1 % of the offered load.
 *
 * Wormhole (ch. 4; notes 1.3, 3.1, 3.2), --flow wormhole: the same
 * routers, buffers and pipeline with these differences.  Buffers hold one
 * word (a flit).  A worm owns a buffer from its header's arrival (an
 * output buffer: from its connection) until its tail leaves, so a blocked
 * worm spans several routers; a header enters a buffer only when no worm
 * owns it ("the VC is free"; DO and Rule 1 need nothing more, notes 2.1).
 * Each direction of a link is its own simplex channel, a word a cycle,
 * round-robin over its VCs: no half-duplex sharing, and T1 halves (k l/8
 * on the torus).  A word may enter a full buffer in the cycle its word
 * leaves (a 1-word buffer streams a word a cycle): the transfers of a
 * cycle are resolved downstream first, each buffer's once, a transfer
 * into a full buffer first asking that buffer's own transfer (a cycle of
 * full buffers asking one another moves nothing).  The injection buffer
 * is filled after the cycle's transfers, for the same reason.  DO has the
 * ch. 4 oblivious router's 2 VCs on the torus (1 on the mesh) and no
 * lanes, so it delivers in order; the oblivious Triplex is DO with node
 * latency 4.  Duato's adaptive test is unchanged (local output unowned,
 * the neighbour's input empty a cycle ago: the bubble).  Minimal Triplex
 * uses the wormhole "empty" (notes 2.3) for Rules 2 and 4t, the same
 * strict test as Duato's; Rule 1 needs the VC free alone.  Messages are
 * --len words, or with --mix, --len2 words with probability 1 / (mix +
 * 1) (drawn with the destination).  The non-minimal Triplex: above.
 *
 * Mixed-class traffic (ch. 4.5.3, Table 4.3), --mix-class, on the
 * Triplex routers (min-triplex, triplex), both flow controls: each
 * message is in the oblivious class with probability obliv / 100 (the
 * thesis's 2 header bits), else in the router's own class.  An
 * oblivious-class message takes Rule 1 alone, the restricted DO output,
 * and so never Rule 2, 3, 3w or 4t nor a deroute coin; the others route
 * as before.  Both share every buffer, and every message still waits on
 * its DO buffer, which is all App. A's deadlock-freedom argument needs
 * (Cor. 5: any route other than DO's is optional).  The class is drawn
 * when the message enters the injection buffer, from a fourth stream
 * per node that the three streams' spacing does not include: the
 * node's destination stream advanced by half a spacing (chosen here:
 * the thesis does not say how its classes were drawn; a node's
 * messages of both classes wait in its one source queue, in order).  So
 * a run without the option draws nothing and is what it was, and a run
 * with it has the same arrivals, destinations and lengths as without:
 * 100 % oblivious on the wormhole Triplex routers is the oblivious
 * Triplex (DO with node latency 4, the same restricted VCs, the
 * unrestricted one idle), 0 % is the router alone, figure for figure.
 * Per class, the measured batches' mean latency and the deliveries out
 * of order (after a later message of the same class, source and
 * destination).
 *
 * Deroutes counted (rm_result): connections, in the measured batches,
 * to an output whose neighbour is no nearer the packet's destination
 * (for any router: Chaos's deroutes and exchanges count too).
 *
 * Memory is allocated once per run: buffers hold up to four packet
 * segments in a ring, packets come from a free list, source queues are
 * counters (the destination is drawn when a packet enters the injection
 * buffer).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "router_model.h"
#include "simutil.h"

#define LCG_M		2147483647u	/* 2^31 - 1 */
#define LCG_B		397204094u
#define NSEG		4		/* segments a buffer can hold */
#define MAXVC		4
#define CHAOS_MQ	5		/* the Chaos multiqueue's packets */
/* Cycles without progress that mean a deadlock. */
#define STALL_LIMIT	100000
#define NO_SLOT		0xff

/* ------------------------------------------------------------------ */
/* Names */

static const char *const topo_names[] = { "torus", "mesh" };
static const char *const algo_names[] = { "do", "duato", "min-triplex",
	"chaos", "triplex" };
static const char *const arb_names[] = { "in-fixed", "in-random", "out" };
static const char *const flow_names[] = { "vct", "wormhole" };
static const char *const traffic_names[] = { "random", "bitrev",
	"complement", "shuffle", "transpose", "hotspot1", "hotspot2",
	"hotspot2-once" };

const char *rm_topo_name(enum rm_topo t)
{
	return topo_names[t];
}
const char *rm_algo_name(enum rm_algo a)
{
	return algo_names[a];
}
const char *rm_arb_name(enum rm_arb a)
{
	return arb_names[a];
}
const char *rm_traffic_name(enum rm_traffic t)
{
	return traffic_names[t];
}
const char *rm_flow_name(enum rm_flow f)
{
	return flow_names[f];
}

static int find_name(const char *const *v, int n, const char *s)
{
	int i;

	for (i = 0; i < n; i++)
		if (!strcmp(v[i], s))
			return i;
	return -1;
}

int rm_algo_parse(const char *s)
{
	return find_name(algo_names, RM_NALGO, s);
}
int rm_arb_parse(const char *s)
{
	return find_name(arb_names, 3, s);
}

int rm_traffic_parse(const char *s)
{
	return find_name(traffic_names, RM_NTRAFFIC, s);
}

int rm_flow_parse(const char *s)
{
	return find_name(flow_names, 2, s);
}

/* ------------------------------------------------------------------ */
/* The generator */

/* a b mod 2^31 - 1 without a division: 2^31 = 1 (mod 2^31 - 1). */
static u32 mulmod(u32 a, u32 b)
{
	u64 t = (u64)a * b;

	t = (t & LCG_M) + (t >> 31);
	t = (t & LCG_M) + (t >> 31);
	return (u32)(t == LCG_M ? 0 : t);
}

u32 rm_lcg_next(u32 *x)
{
	*x = mulmod(LCG_B, *x);
	return *x;
}

u32 rm_lcg_pow(u32 b, u64 e)
{
	u32 r = 1;

	for (; e; e >>= 1, b = mulmod(b, b))
		if (e & 1)
			r = mulmod(r, b);
	return r;
}

/* U(0,1): X / (2^31 - 1), never 0 or 1. */
static double lcg_u01(u32 *x)
{
	return rm_lcg_next(x) * (1.0 / 2147483647.0);
}

/* The notes' 3.5 vectors: 0 when all hold; @buf gets what was computed. */
u32 rm_selftest(char *buf, u32 n)
{
	static const u32 want5[] = { 397204094u, 2083249653u, 858616159u,
				     557054349u, 1979126465u };
	u32 x = 1, got5[5], x10000, pm = 1, s512, s1024, bad = 0, i;

	for (i = 0; i < 10000; i++) {
		rm_lcg_next(&x);
		if (i < 5)
			got5[i] = x;
		pm = mulmod(16807u, pm);
	}
	x10000 = x;
	s512 = rm_lcg_pow(LCG_B, (LCG_M - 1) / 512);
	s1024 = rm_lcg_pow(LCG_B, (LCG_M - 1) / 1024);
	for (i = 0; i < 5; i++)
		bad += got5[i] != want5[i];
	bad += x10000 != 10939054u;
	bad += pm != 1043618065u;
	bad += s512 != 403747358u;
	bad += s1024 != 416628832u;
	snprintf(buf, n,
		 "X1..X5 %u %u %u %u %u\nX10000 %u\npark-miller X10000 %u\n"
		 "stride 512 %u\nstride 1024 %u\n",
		 got5[0], got5[1], got5[2], got5[3], got5[4], x10000, pm,
		 s512, s1024);
	return bad;
}

/* ------------------------------------------------------------------ */
/* Configuration and traffic */

static const u32 hot1[10] = { 6, 86, 121, 123, 152, 158, 186, 201, 216,
			      236 };
static const u32 hot2[10] = { 51, 51, 70, 92, 124, 140, 155, 201, 245,
			      254 };
#define HOT_EXTRA	3	/* a listed node weighs 1 + 3 */

void rm_cfg_default(struct rm_cfg *c)
{
	*c = (struct rm_cfg){ .k = 16, .topo = RM_TORUS, .algo = RM_DO,
		.arb = RM_OUT, .traffic = RM_RANDOM, .load = 0.5, .len = 20,
		.depth = 20, .seed = 1, .warmup = 10000, .batches = 10,
		.batch = 4000, .dwait = -1, .dprob = -1, .obliv = -1 };
}

static u32 log2_exact(u32 k)
{
	u32 b = 0;

	while ((1u << b) < k)
		b++;
	return (1u << b) == k ? b : 0;
}

static const char *common_check(const struct rm_cfg *c);

/* Wormhole: 1-word buffers, no Chaos, a mix of two lengths. */
static const char *wormhole_check(const struct rm_cfg *c)
{
	if (c->depth != 1)
		return "buffer depth: wormhole buffers hold 1 word";
	if (c->algo == RM_CHAOS)
		return "algorithm: the Chaos router is packet-only (no wormhole)";
	if (c->mix > 1000)
		return "message mix: at most 1000 short to 1 long";
	if (c->mix && (c->len2 < 1 || c->len2 > 4096))
		return "message mix: long length 1 to 4096 words";
	return common_check(c);
}

const char *rm_cfg_check(const struct rm_cfg *c)
{
	if (c->k < 4 || c->k > 64)
		return "k: 4 to 64 nodes per dimension";
	if (c->traffic >= RM_BITREV && c->traffic <= RM_TRANSPOSE &&
	    !log2_exact(c->k))
		return "traffic: a bit permutation needs k a power of 2";
	if (c->traffic >= RM_HOTSPOT1 && c->k != 16)
		return "traffic: the hot spot node lists are for 16x16";
	if (!(c->load >= 0 && c->load <= 10))
		return "load: 0 to 10";
	if (c->len < 1 || c->len > 4096)
		return "packet length: 1 to 4096 words";
	if (c->flow == RM_WORMHOLE)
		return wormhole_check(c);
	if (c->mix)
		return "message mix: wormhole only (--flow wormhole)";
	/* a buffer holds its departing head and depth / len others */
	if (c->depth < c->len || c->depth > (NSEG - 1) * c->len ||
	    c->depth > 16384)
		return "buffer depth: packet length to 3 times that";
	return common_check(c);
}

double rm_mean_len(const struct rm_cfg *c)
{
	if (!c->mix)
		return c->len;
	return ((double)c->mix * c->len + c->len2) / (c->mix + 1);
}

/* The non-minimal Triplex's deroute parameters (-1: the thesis's). */
static const char *deroute_check(const struct rm_cfg *c)
{
	if (c->algo != RM_NMTRIPLEX && (c->dwait != -1 || c->dprob != -1))
		return "deroutes: the deroute wait and probability are the non-minimal Triplex's (triplex)";
	if (c->dwait < -1 || c->dwait > 1000000)
		return "deroute wait: 0 to 1000000 cycles";
	/* p = 1 would let a message deroute for ever (Thm 19, Cor. 20) */
	if (c->dprob != -1 && !(c->dprob >= 0 && c->dprob < 1))
		return "deroute probability: 0 to below 1 (Cor. 20: livelock-free only for p < 1)";
	return NULL;
}

/* Mixed classes: the Triplex routers' classes (-1: single-class). */
static const char *class_check(const struct rm_cfg *c)
{
	if (c->obliv == -1)
		return NULL;
	if (c->algo != RM_TRIPLEX && c->algo != RM_NMTRIPLEX)
		return "mixed classes: the Triplex routers' (min-triplex, triplex), whose oblivious class shares their buffers";
	if (!(c->obliv >= 0 && c->obliv <= 100))
		return "mixed classes: the oblivious share is 0 to 100 percent";
	return NULL;
}

/* The rest of rm_cfg_check, for both flow controls. */
static const char *common_check(const struct rm_cfg *c)
{
	if (c->algo == RM_CHAOS && c->arb != RM_OUT)
		return "arbitration: the Chaos router is output-driven only";
	if (deroute_check(c))
		return deroute_check(c);
	if (class_check(c))
		return class_check(c);
	if (c->latency > 64)
		return "node latency: at most 64 cycles";
	if (c->seed < 1 || c->seed >= LCG_M - 1)
		return "seed: 1 to 2^31 - 2";
	if (c->batches < 2 || c->batches > 1000)
		return "batches: 2 to 1000";
	if (!c->batch)
		return "batch size: at least one cycle";
	if ((u64)c->warmup + (u64)c->batches * c->batch > 2000000000ull)
		return "cycles: at most 2e9 in all";
	return NULL;
}

double rm_t1(const struct rm_cfg *c)
{
	/* simplex channels carry both directions at once: twice the rate */
	if (c->flow == RM_WORMHOLE)
		return c->k * rm_mean_len(c) / (c->topo == RM_TORUS ? 8 : 4);
	return (double)c->k * c->len / (c->topo == RM_TORUS ? 4 : 2);
}

static u32 rev_bits(u32 a, u32 bits)
{
	u32 r = 0, i;

	for (i = 0; i < bits; i++)
		if (a >> i & 1)
			r |= 1u << (bits - 1 - i);
	return r;
}

/* A permutation's destination of @s (@bits address bits). */
static u32 perm_dest(enum rm_traffic t, u32 s, u32 bits)
{
	u32 mask = (1u << bits) - 1, h = bits / 2;

	switch (t) {
	case RM_BITREV:
		return rev_bits(s, bits);
	case RM_COMPLEMENT:
		return ~s & mask;
	case RM_SHUFFLE:
		return ((s << 1) | (s >> (bits - 1))) & mask;
	case RM_TRANSPOSE:
		return ((s & ((1u << h) - 1)) << h) | (s >> h);
	default:
		return s;
	}
}

/* The hot entries (hot spot 2 once: its list without the first 51). */
static const u32 *hot_list(enum rm_traffic t, u32 *n)
{
	*n = t == RM_HOTSPOT2_ONCE ? 9 : 10;
	if (t == RM_HOTSPOT1)
		return hot1;
	if (t == RM_HOTSPOT2)
		return hot2;
	return t == RM_HOTSPOT2_ONCE ? hot2 + 1 : NULL;
}

static u32 weight(const struct rm_cfg *c, u32 node, u32 *total)
{
	u32 nh, w = 1, i;
	const u32 *h = hot_list(c->traffic, &nh);

	*total = c->k * c->k + (h ? nh * HOT_EXTRA : 0);
	for (i = 0; h && i < nh; i++)
		w += h[i] == node ? HOT_EXTRA : 0;
	return w;
}

int rm_pattern_dest(const struct rm_cfg *c, u32 src, double *prob)
{
	u32 nh, total;

	if (c->traffic == RM_RANDOM || hot_list(c->traffic, &nh)) {
		*prob = (double)weight(c, src, &total) / total;
		return -1;
	}
	return (int)perm_dest(c->traffic, src, 2 * log2_exact(c->k));
}

static u32 dist1(u32 k, bool torus, u32 a, u32 b)
{
	u32 d = a > b ? a - b : b - a;

	return torus && 2 * d > k ? k - d : d;
}

static u32 dist(const struct rm_cfg *c, u32 a, u32 b)
{
	bool t = c->topo == RM_TORUS;

	return dist1(c->k, t, a % c->k, b % c->k) +
	       dist1(c->k, t, a / c->k, b / c->k);
}

double rm_pattern_hops(const struct rm_cfg *c)
{
	u32 n = c->k * c->k, s, d;
	double sum = 0, p;

	for (s = 0; s < n; s++) {
		if (rm_pattern_dest(c, s, &p) >= 0) {
			sum += dist(c, s, (u32)rm_pattern_dest(c, s, &p));
			continue;
		}
		for (d = 0; d < n; d++) {
			rm_pattern_dest(c, d, &p);
			sum += p * dist(c, s, d);
		}
	}
	return sum / n;
}

/* ------------------------------------------------------------------ */
/* The network */

/* A packet's words in one buffer. */
struct seg {
	u32 pkt;
	u32 t_in;		/* cycle the last word came in */
	u16 in, out;		/* words come in, gone out */
};

/* The state first: a check of a buffer reads one cache line. */
struct buf {
	u8 head, nseg;
	u8 nseg0;		/* nseg at the start of the cycle */
	u8 to_slot;		/* the routed head's segment at @to */
	u16 count, count0;	/* words held, at the start of the cycle */
	u16 committed;		/* words of packets not yet forwarded */
	u32 stamp;		/* the cycle count0/nseg0 are of */
	s32 to;			/* routed head's output, or -1 */
	u32 xdone;		/* wormhole: cycle + 1 its crossbar moved */
	struct seg seg[NSEG];
};

struct pkt {
	u32 t_start;		/* header into the injection buffer */
	u32 t_hdr;		/* header into the buffer it is furthest in */
	u16 dst, hops, dw;	/* dw: words delivered */
	u16 len;		/* words */
	u8 deroute;		/* Chaos: picked in a full multiqueue */
	u8 obl;			/* mixed classes: the oblivious class */
	u16 src;		/* mixed classes: the source, */
	u32 seq;		/* and its count of messages before this one */
	u32 next;		/* free list */
};

struct node {
	u32 srcq;		/* packets created, not yet injected */
	u32 pend;		/* input buffers with an unrouted head */
	u8 rr_in, rr_out;
	u8 feed;		/* injection segment being filled, or NO_SLOT */
	u32 rs_inj, rs_dst, rs_arb;	/* the node's three streams */
	u32 rs_cls;		/* mixed classes: the class stream */
	u32 sent;		/* mixed classes: messages injected */
	s32 nb[4];		/* neighbour per port, -1 at a mesh edge */
	s32 link[4];		/* channel per port */
};

struct link {
	u32 a, b;		/* b = a's + neighbour in dimension d */
	u8 d, rr;
	u8 rr1;			/* wormhole: b -> a's round-robin (rr: a -> b) */
	u32 cdone[2];		/* wormhole: cycle + 1 each direction moved */
	u16 busy;		/* output buffers holding packets: bit v for
				 * a's + VC v, bit nvc + v for b's - VC v */
};

struct model {
	struct rm_cfg c;
	u32 n, nvc, nb;		/* nodes, VCs, buffers per node */
	u32 nmq;		/* Chaos multiqueue slots, after delivery */
	u32 lat, len, depth;
	u32 uvc;		/* Duato's unrestricted VC */
	bool wh;		/* wormhole */
	u32 lanes;		/* DO's lanes per class: 2 VCT, 1 wormhole */
	u32 dwait;		/* non-minimal Triplex: cycles blocked, */
	double dprob;		/* then the deroute probability (0: none) */
	double p;		/* injection probability per node per cycle */
	u32 now;
	struct buf *buf;
	struct node *node;
	struct link *link;
	u32 nlinks;
	struct pkt *pkt;
	u32 npkt, free_pkt, live;
	u32 *conn, nconn;	/* input buffers with a crossbar connection */
	u64 progress;		/* words moved and connections made */
	u64 deroutes;		/* non-minimal hops in the batches */
	/* measurement */
	s32 batch;		/* the batch of this cycle, or -1 */
	double *created, *delivered, *latsum, *hopsum;
	double lensum, lencnt;	/* lengths injected in the batches */
	/* mixed classes (c.obliv >= 0): per class, 0 adaptive, 1 oblivious */
	bool mixed;
	/*
	 * [class][src][dst]: the latest seq + 1 delivered; 2 n^2 words,
	 * 512 KiB at 16x16 (at 64x64, 128 MiB of calloc's lazily zeroed
	 * pages, those of the pairs that carry messages touched)
	 */
	u32 *last;
	double cls_n[2], cls_lat[2];	/* delivered in the batches, latency */
	u64 reorder[2];		/* delivered after a later one */
	/* rm_probe */
	s32 probe_dst;
	u32 probe_lat, probe_hops;
	bool probe_done;
};

/* Buffer numbering within a node. */
static inline u32 b_in(const struct model *m, u32 port, u32 vc)
{
	return port * m->nvc + vc;
}

static inline u32 b_inj(const struct model *m)
{
	return 4 * m->nvc;
}

static inline u32 b_out(const struct model *m, u32 port, u32 vc)
{
	return 4 * m->nvc + 1 + port * m->nvc + vc;
}

static inline u32 b_deliv(const struct model *m)
{
	return 8 * m->nvc + 1;
}

/* Chaos's multiqueue slot @q. */
static inline u32 b_mq(const struct model *m, u32 q)
{
	return 8 * m->nvc + 2 + q;
}

/* Buffers whose head packet the router routes: inputs, injection, MQ. */
static inline bool routable(const struct model *m, u32 i)
{
	return i <= b_inj(m) || i > b_deliv(m);
}

static inline struct buf *bp(const struct model *m, u32 node, u32 i)
{
	return &m->buf[(size_t)node * m->nb + i];
}

/* Record the start-of-cycle state before the first change this cycle. */
static inline void touch(struct model *m, struct buf *b)
{
	if (b->stamp != m->now) {
		b->stamp = m->now;
		b->count0 = b->count;
		b->nseg0 = b->nseg;
	}
}

static inline u32 space0(const struct model *m, const struct buf *b)
{
	return m->depth - (b->stamp == m->now ? b->count0 : b->count);
}

static inline bool empty0(const struct model *m, const struct buf *b)
{
	return (b->stamp == m->now ? b->nseg0 : b->nseg) == 0;
}

/* A word of the head segment that was there at the start of the cycle. */
static inline bool word_ready(const struct model *m, const struct buf *b)
{
	const struct seg *s = &b->seg[b->head];

	return b->nseg && s->in - s->out - (s->t_in == m->now) > 0;
}

/* VCT: room for a whole packet; wormhole: no worm owns the buffer. */
static inline bool can_take(const struct model *m, const struct buf *b)
{
	if (m->wh)
		return !b->nseg;
	return b->committed + m->len <= m->depth;
}

static inline u32 plen(const struct model *m, u32 p)
{
	return m->pkt[p].len;
}

static bool xbar(struct model *m, u32 id);
static void wh_channel(struct model *m, u32 node, u32 port);

/*
 * Wormhole: buffer @id's word leaves this cycle if it can.  Its transfer
 * is done now (once a cycle), before the one that asks, which is what
 * lets a 1-word buffer take a word in the cycle its word leaves.
 */
static void wh_drain(struct model *m, u32 id)
{
	u32 node = id / m->nb, i = id % m->nb;

	if (i > b_inj(m) && i < b_deliv(m))
		wh_channel(m, node, (i - b_inj(m) - 1) / m->nvc);
	else if (i <= b_inj(m) && m->buf[id].to >= 0)
		xbar(m, id);
}

/* A word can come into buffer @id this cycle. */
static bool room(struct model *m, u32 id)
{
	struct buf *b = &m->buf[id];

	if (!m->wh)
		return space0(m, b) > 0;
	if (b->count >= m->depth)
		wh_drain(m, id);
	return b->count < m->depth;
}

static u32 push_seg(struct model *m, struct buf *b, u32 pkt)
{
	u32 slot = (b->head + b->nseg) % NSEG;

	touch(m, b);
	b->seg[slot] = (struct seg){ .pkt = pkt };
	b->nseg++;
	b->committed += m->len;
	return slot;
}

/* Mark an output buffer's holding packets on its channel. */
static void out_busy(struct model *m, u32 node, u32 port, u32 vc)
{
	s32 l = m->node[node].link[port];

	m->link[l].busy |= 1u << ((port & 1) ? vc : m->nvc + vc);
}

/* Move one word from @s's head segment to @d's segment @slot. */
static void move(struct model *m, struct buf *s, struct buf *d, u32 slot)
{
	struct seg *a = &s->seg[s->head], *z = &d->seg[slot];

	touch(m, s);
	touch(m, d);
	a->out++;
	s->count--;
	z->in++;
	z->t_in = m->now;
	if (z->in == 1)
		m->pkt[z->pkt].t_hdr = m->now;
	d->count++;
	m->progress++;
}

/* Pop @s's head segment, its tail gone.  Its next head may be routed. */
static void pop(struct model *m, u32 node, u32 i)
{
	struct buf *s = bp(m, node, i);

	s->head = (s->head + 1) % NSEG;
	s->nseg--;
	s->to = -1;
	if (routable(m, i) && s->nseg)
		m->node[node].pend |= 1u << i;
}

static u32 alloc_pkt(struct model *m)
{
	u32 p = m->free_pkt;

	if (p == UINT32_MAX) {
		fprintf(stderr, "router_model: packet pool exhausted\n");
		abort();
	}
	m->free_pkt = m->pkt[p].next;
	m->live++;
	return p;
}

static void free_pkt(struct model *m, u32 p)
{
	m->pkt[p].next = m->free_pkt;
	m->free_pkt = p;
	m->live--;
}

static u32 draw_dest(struct model *m, u32 node)
{
	u32 *x = &m->node[node].rs_dst, nh;
	const u32 *h = hot_list(m->c.traffic, &nh);
	double u;

	if (m->probe_dst >= 0)
		return (u32)m->probe_dst;
	if (m->c.traffic == RM_RANDOM)
		return (u32)(lcg_u01(x) * m->n);
	if (!h)
		return perm_dest(m->c.traffic, node, 2 * log2_exact(m->c.k));
	u = lcg_u01(x) * (m->n + nh * HOT_EXTRA);
	if (u < m->n)
		return (u32)u;
	return h[(u32)((u - m->n) / HOT_EXTRA) % nh];
}

/* The mix: the long length with probability 1 / (mix + 1). */
static u16 draw_len(struct model *m, u32 node)
{
	if (!m->c.mix)
		return (u16)m->len;
	if (lcg_u01(&m->node[node].rs_dst) * (m->c.mix + 1) < 1)
		return (u16)m->c.len2;
	return (u16)m->len;
}

/*
 * Mixed classes: the new message @p of node @u, oblivious with
 * probability obliv / 100, from the class stream (nothing is drawn in a
 * single-class run).
 */
static void draw_class(struct model *m, u32 u, u32 p)
{
	struct node *nd = &m->node[u];

	if (!m->mixed)
		return;
	m->pkt[p].obl = lcg_u01(&nd->rs_cls) * 100 < m->c.obliv;
	m->pkt[p].src = (u16)u;
	m->pkt[p].seq = nd->sent++;
}

/* The source queue feeds the injection buffer a word a cycle. */
static void inject(struct model *m, u32 u)
{
	struct node *nd = &m->node[u];
	struct buf *b = bp(m, u, b_inj(m));
	struct seg *z;
	u32 p;

	if (nd->feed == NO_SLOT && !nd->srcq)
		return;
	if (!room(m, u * m->nb + b_inj(m)))
		return;
	if (nd->feed == NO_SLOT) {
		if (!can_take(m, b))
			return;
		nd->srcq--;
		p = alloc_pkt(m);
		m->pkt[p] = (struct pkt){ .t_start = m->now,
					  .dst = (u16)draw_dest(m, u) };
		m->pkt[p].len = draw_len(m, u);
		draw_class(m, u, p);
		if (m->batch >= 0) {
			m->lensum += m->pkt[p].len;
			m->lencnt++;
		}
		nd->feed = (u8)push_seg(m, b, p);
		if (b->nseg == 1)
			nd->pend |= 1u << b_inj(m);
	}
	z = &b->seg[nd->feed];
	touch(m, b);
	z->in++;
	z->t_in = m->now;
	if (z->in == 1)
		m->pkt[z->pkt].t_hdr = m->now;
	b->count++;
	m->progress++;
	if (z->in == plen(m, z->pkt))
		nd->feed = NO_SLOT;
}

/*
 * Mixed classes: message @k's class's latency, and whether it comes in
 * after a message of its class, source and destination that was
 * injected after it (the oblivious class never should: Cor. 6).
 */
static void class_delivered(struct model *m, const struct pkt *k)
{
	u32 *last = &m->last[((size_t)k->obl * m->n + k->src) * m->n +
			     k->dst];
	bool late = k->seq + 1 < *last;

	if (!late)
		*last = k->seq + 1;
	if (m->batch < 0)
		return;
	m->cls_n[k->obl]++;
	m->cls_lat[k->obl] += m->now - k->t_start;
	m->reorder[k->obl] += late;
}

static void delivered(struct model *m, u32 p)
{
	struct pkt *k = &m->pkt[p];

	if (m->batch >= 0) {
		m->delivered[m->batch]++;
		m->latsum[m->batch] += m->now - k->t_start;
		m->hopsum[m->batch] += k->hops;
	}
	if (m->mixed)
		class_delivered(m, k);
	if (m->probe_dst >= 0) {
		m->probe_done = true;
		m->probe_lat = m->now - k->t_start;
		m->probe_hops = k->hops;
	}
	free_pkt(m, p);
}

/* A crossbar connection's word; true when its tail has crossed. */
static bool xbar(struct model *m, u32 id)
{
	u32 node = id / m->nb, i = id % m->nb;
	struct buf *s = &m->buf[id], *d;
	u32 p;

	/* wormhole: once a cycle, asked first or in the cycle's turn */
	if (m->wh && s->xdone == m->now + 1)
		return s->to < 0;
	s->xdone = m->now + 1;
	d = &m->buf[s->to];
	p = s->seg[s->head].pkt;
	if (!word_ready(m, s))
		return false;
	if ((u32)s->to % m->nb == b_deliv(m)) {
		touch(m, s);
		s->seg[s->head].out++;
		s->count--;
		m->progress++;
		if (++m->pkt[p].dw == plen(m, p)) {
			d->committed = 0;
			delivered(m, p);
		}
	} else {
		/*
		 * A FIFO: the packet ahead in @d (routed on, so its header
		 * has left) must have come in whole before ours comes in.
		 */
		u32 prev = (s->to_slot + NSEG - 1) % NSEG;
		u32 di = (u32)s->to % m->nb;

		if (s->to_slot != d->head &&
		    d->seg[prev].in < plen(m, d->seg[prev].pkt))
			return false;
		if (!room(m, (u32)s->to))
			return false;
		move(m, s, d, s->to_slot);
		/* a multiqueue slot holds one packet: route it once it is in */
		if (di > b_deliv(m) && d->seg[s->to_slot].in == 1)
			m->node[node].pend |= 1u << di;
	}
	if (s->seg[s->head].out < plen(m, p))
		return false;
	pop(m, node, i);
	return true;
}

/*
 * One word across channel @l, round-robin (pointer @rr) over the outputs
 * in @mask: both ends' (half-duplex), or one end's (simplex, wormhole).
 */
static void channel(struct model *m, struct link *l, u32 mask, u8 *rr)
{
	u32 nvc = m->nvc, idx, v, from, to, port, w = 2 * nvc;
	u32 all = (1u << w) - 1, sh = (*rr + 1u) % w, busy = l->busy & mask;
	u32 rot = ((busy >> sh) | (busy << (w - sh))) & all;
	struct buf *s, *d;

	for (; rot; rot &= rot - 1) {
		idx = ((u32)__builtin_ctz(rot) + sh) % w;
		v = idx < nvc ? idx : idx - nvc;
		from = idx < nvc ? l->a : l->b;
		to = idx < nvc ? l->b : l->a;
		port = 2 * l->d + (idx < nvc);	/* + from a, - from b */
		s = bp(m, from, b_out(m, port, v));
		if (!word_ready(m, s))
			continue;
		d = bp(m, to, b_in(m, port, v));
		if (!room(m, (u32)(d - m->buf)))
			continue;
		if (s->seg[s->head].out == 0) {
			u32 pk = s->seg[s->head].pkt;

			if (!can_take(m, d))
				continue;
			push_seg(m, d, pk);
			if (d->nseg == 1)
				m->node[to].pend |= 1u << b_in(m, port, v);
			s->committed -= m->len;
			m->pkt[pk].hops++;
		}
		move(m, s, d, (d->head + d->nseg - 1) % NSEG);
		if (s->seg[s->head].out == plen(m, s->seg[s->head].pkt)) {
			touch(m, s);
			s->head = (s->head + 1) % NSEG;
			s->nseg--;
			if (!s->nseg)
				l->busy &= ~(1u << idx);
		}
		*rr = (u8)idx;
		return;
	}
}

/*
 * Wormhole: the simplex channel out of @node's @port, once a cycle.  The
 * link's a end sends on its + ports (bits 0..nvc-1), b on its - ports.
 */
static void wh_channel(struct model *m, u32 node, u32 port)
{
	struct link *l = &m->link[m->node[node].link[port]];
	u32 half = port & 1 ? 0 : 1, lo = (1u << m->nvc) - 1;

	if (l->cdone[half] == m->now + 1)
		return;
	l->cdone[half] = m->now + 1;
	if (half)
		channel(m, l, lo << m->nvc, &l->rr1);
	else
		channel(m, l, lo, &l->rr);
}

/* ------------------------------------------------------------------ */
/* Routing */

/* DO's direction in one dimension: 0 -, 1 +, -1 corrected (tie: +). */
static int do_dir(const struct model *m, u32 c, u32 x)
{
	u32 k = m->c.k, fwd;

	if (c == x)
		return -1;
	if (m->c.topo == RM_MESH)
		return x > c;
	fwd = (x + k - c) % k;
	return 2 * fwd <= k;
}

/* The torus dateline class: 1 while the wrap link is still ahead. */
static u32 do_class(const struct model *m, u32 c, u32 x, int dir)
{
	if (m->c.topo == RM_MESH)
		return 0;
	return dir ? c > x : c < x;
}

/* Minimal directions in one dimension, as a mask (bit 0 -, bit 1 +). */
static u32 min_dirs(const struct model *m, u32 c, u32 x)
{
	u32 k = m->c.k, fwd;

	if (c == x)
		return 0;
	if (m->c.topo == RM_MESH)
		return x > c ? 2 : 1;
	fwd = (x + k - c) % k;
	return 2 * fwd < k ? 2 : 2 * fwd > k ? 1 : 3;
}

/* Triplex torus: Rule 1, 2 x Rule 2 in each dimension, 2 x 3 by Rule 4t. */
#define MAXCAND	12

struct cands {
	u32 n;
	u8 out[MAXCAND];	/* output numbers: port * nvc + vc, or deliv */
};

static void add(struct cands *cd, u32 o)
{
	u32 i;

	/* Triplex's Rules 2 and 4 may offer the same unrestricted output */
	for (i = 0; i < cd->n; i++)
		if (cd->out[i] == o)
			return;
	cd->out[cd->n++] = (u8)o;
}

/* Where a packet at @u going to @dst stands: the DO hop it needs. */
struct route_at {
	u32 cur[2], want[2];
	u32 l;			/* the lowest dimension to correct */
	u32 dir;		/* DO's direction in l: 0 -, 1 + */
	u32 vc;			/* DO's class in l */
};

static void route_at(const struct model *m, u32 u, u32 dst,
		     struct route_at *r)
{
	u32 k = m->c.k;

	r->cur[0] = u % k;
	r->cur[1] = u / k;
	r->want[0] = dst % k;
	r->want[1] = dst / k;
	r->l = r->cur[0] != r->want[0] ? 0 : 1;
	r->dir = (u32)do_dir(m, r->cur[r->l], r->want[r->l]);
	r->vc = do_class(m, r->cur[r->l], r->want[r->l], (int)r->dir);
}

/*
 * The minimal directions of dimension @d, the DO direction first: DO's in
 * the lowest dimension, + (DO's tie) in the others.  *n gets how many.
 */
static void dirs_in(const struct model *m, const struct route_at *r, u32 d,
		    u32 dr[2], u32 *n)
{
	u32 dirs = min_dirs(m, r->cur[d], r->want[d]);
	u32 first = d == r->l ? r->dir : 1, j;

	*n = 0;
	for (j = 0; j < 2; j++) {
		u32 x = j ? 1 - first : first;

		if (dirs >> x & 1)
			dr[(*n)++] = x;
	}
}

/*
 * DO: two lanes per class, the available one with the most space; the
 * wormhole oblivious router (ch. 4) has one, for in-order delivery.
 */
static void do_cands(struct model *m, u32 u, const struct route_at *r,
		     struct cands *cd)
{
	u32 port = 2 * r->l + r->dir, best = 0, j, vc;

	for (j = 0; j < m->lanes; j++) {
		struct buf *b;

		vc = m->lanes * r->vc + j;
		b = bp(m, u, b_out(m, port, vc));
		if (can_take(m, b) && (!cd->n || m->depth - b->count > best)) {
			cd->n = 0;
			add(cd, port * m->nvc + vc);
			best = m->depth - b->count;
		}
	}
}

/*
 * The empty test that needs the neighbour's status: @u's output (@port,
 * @vc) empty, and the neighbour's input of that VC empty at the start of
 * the cycle (its status is a cycle old: the bubble).
 */
static bool strict_empty(const struct model *m, u32 u, u32 port, u32 vc)
{
	if (bp(m, u, b_out(m, port, vc))->nseg)
		return false;
	return empty0(m, bp(m, (u32)m->node[u].nb[port], b_in(m, port, vc)));
}

/*
 * Triplex's Rule 1 (Duato's escape): the restricted DO output, the VC of
 * its dateline class, when it can take the packet.  Alone, it is the
 * oblivious Triplex class (mixed classes).
 */
static void rule1(struct model *m, u32 u, const struct route_at *r,
		  struct cands *cd)
{
	u32 port = 2 * r->l + r->dir;

	if (can_take(m, bp(m, u, b_out(m, port, r->vc))))
		add(cd, port * m->nvc + r->vc);
}

/*
 * Duato: the restricted DO output, then the unrestricted VC in every
 * minimal direction, when the local output is empty and the neighbour's
 * input was empty at the start of the cycle (its status is a cycle old).
 */
static void duato_cands(struct model *m, u32 u, const struct route_at *r,
			struct cands *cd)
{
	u32 d, j, n, dr[2];

	for (d = r->l; d < 2; d++) {
		if (d == r->l)
			rule1(m, u, r, cd);
		dirs_in(m, r, d, dr, &n);
		for (j = 0; j < n; j++)
			if (strict_empty(m, u, 2 * d + dr[j], m->uvc))
				add(cd, (2 * d + dr[j]) * m->nvc + m->uvc);
	}
}

/*
 * Rule 4t's wrap-free property (notes 2.3): the packet needs the negative
 * direction of l and no longer (or never) needs the wrap link there, so
 * its DO path in l waits only on class 0 buffers.  On the mesh, Rule 4
 * needs the negative direction alone.
 */
static bool rule4(const struct model *m, const struct route_at *r)
{
	if (r->dir != 0)
		return false;
	return m->c.topo == RM_MESH || r->cur[r->l] > r->want[r->l];
}

/*
 * Minimal Triplex (notes 2.3, App. A): Rule 1, the restricted DO
 * output; Rule 2, the unrestricted VC in any minimal direction; with
 * @use4, the minimal part of Rule 4 (4t on the torus), any VC in a
 * minimal direction of a dimension above l for a packet that needs -l
 * (wrap-free).  Packet "empty" is the thesis's "non-full": the local
 * output can take the whole packet.  No neighbour status, so no bubble
 * (wormhole: the strict test).  Within a dimension the DO direction
 * first, within a port the VCs in order (restricted before
 * unrestricted), as for Duato.
 */
static void triplex_cands(struct model *m, u32 u, const struct route_at *r,
			  bool use4, struct cands *cd)
{
	u32 d, j, v, n, dr[2];
	bool r4 = use4 && rule4(m, r);

	for (d = r->l; d < 2; d++) {
		if (d == r->l)
			rule1(m, u, r, cd);
		dirs_in(m, r, d, dr, &n);
		for (j = 0; j < n; j++) {
			u32 port = 2 * d + dr[j];

			for (v = 0; v < m->nvc; v++) {
				if (v != m->uvc && !(r4 && d > r->l))
					continue;
				/* wormhole "empty" is the strict one */
				if (m->wh ? strict_empty(m, u, port, v) :
				    can_take(m, bp(m, u, b_out(m, port, v))))
					add(cd, port * m->nvc + v);
			}
		}
	}
}

/*
 * The non-minimal Triplex's "empty" for a deroute: the link exists (not
 * a mesh edge) and the output is empty as for its minimal routes, the
 * strict test in wormhole, non-full in packets.
 */
static bool deroute_ok(const struct model *m, u32 u, u32 port, u32 vc)
{
	if (m->node[u].nb[port] < 0)
		return false;
	if (m->wh)
		return strict_empty(m, u, port, vc);
	return can_take(m, bp(m, u, b_out(m, port, vc)));
}

/*
 * The non-minimal Triplex's deroutes at @u: outputs in a direction that
 * is not minimal (both directions of a corrected dimension).  Packet,
 * Rule 3: the unrestricted VC, any dimension.  Wormhole, Rule 3w: the
 * unrestricted VC in a dimension above l; and Rule 4t's non-minimal
 * routes: for a worm that needs -l, wrap-free, any VC in a dimension
 * above l.  Dimension by dimension, + before -, VCs in number order.
 */
static void deroute_cands(struct model *m, u32 u, const struct route_at *r,
			  struct cands *cd)
{
	u32 d = m->wh ? r->l + 1 : 0, j, v, dirs;
	bool r4 = m->wh && rule4(m, r);

	cd->n = 0;
	for (; d < 2; d++) {
		dirs = min_dirs(m, r->cur[d], r->want[d]);
		for (j = 2; j-- > 0;) {
			if (dirs >> j & 1)
				continue;
			for (v = 0; v < m->nvc; v++)
				if ((v == m->uvc || r4) &&
				    deroute_ok(m, u, 2 * d + j, v))
					add(cd, (2 * d + j) * m->nvc + v);
		}
	}
}

/*
 * The (non-minimal) Triplex (notes 2.3; ch. 4.7.2's selection): the
 * minimal routes first, Rules 1 and 2, and in wormhole Rule 4t's minimal
 * part (the final packet Triplex omits Rule 4t).  With none available, a
 * header blocked at this router for dwait cycles or more deroutes with
 * probability dprob, one coin a routing attempt (a cycle it is routed),
 * flipped when a deroute is available.  No deroute from the injection
 * buffer in packets (as the thesis's, copying Chaos).
 */
static void nmtriplex_cands(struct model *m, u32 u, u32 i, u32 p,
			    const struct route_at *r, struct cands *cd)
{
	triplex_cands(m, u, r, m->wh, cd);
	if (cd->n || m->dprob <= 0 || (!m->wh && i == b_inj(m)))
		return;
	/* first routed in t_hdr + lat - 1: blocked now - that cycles */
	if ((u64)m->now + 1 < (u64)m->pkt[p].t_hdr + m->lat + m->dwait)
		return;
	deroute_cands(m, u, r, cd);
	if (cd->n && lcg_u01(&m->node[u].rs_arb) >= m->dprob)
		cd->n = 0;
}

/*
 * The available outputs packet @p in input @i of node @u may take, in
 * the fixed order's preference: lowest dimension first, the restricted
 * (DO) output before the unrestricted ones.  Output number 4 nvc is
 * delivery.
 */
static void candidates(struct model *m, u32 u, u32 i, u32 p,
		       struct cands *cd)
{
	u32 dst = m->pkt[p].dst;
	struct route_at r;

	cd->n = 0;
	if (dst == u) {
		if (!bp(m, u, b_deliv(m))->committed)
			add(cd, 4 * m->nvc);
		return;
	}
	route_at(m, u, dst, &r);
	if (m->c.algo == RM_DO)
		do_cands(m, u, &r, cd);
	else if (m->c.algo == RM_DUATO)
		duato_cands(m, u, &r, cd);
	else if (m->pkt[p].obl)
		rule1(m, u, &r, cd);
	else if (m->c.algo == RM_NMTRIPLEX)
		nmtriplex_cands(m, u, i, p, &r, cd);
	else
		triplex_cands(m, u, &r, true, cd);
}

/* Node @u's @port takes packet @p no nearer its destination. */
static bool nonminimal(const struct model *m, u32 u, u32 port, u32 p)
{
	u32 v = (u32)m->node[u].nb[port], dst = m->pkt[p].dst;

	return dist(&m->c, v, dst) >= dist(&m->c, u, dst);
}

/* Connect input @i of node @u to output number @o. */
static void connect(struct model *m, u32 u, u32 i, u32 o)
{
	struct buf *s = bp(m, u, i), *d;
	u32 id = u * m->nb;

	m->node[u].pend &= ~(1u << i);
	s->committed -= m->len;
	if (o == 4 * m->nvc) {
		id += b_deliv(m);
		m->buf[id].committed = m->len;
	} else {
		id += b_out(m, o / m->nvc, o % m->nvc);
		d = &m->buf[id];
		out_busy(m, u, o / m->nvc, o % m->nvc);
		s->to_slot = (u8)push_seg(m, d, s->seg[s->head].pkt);
		if (m->batch >= 0 &&
		    nonminimal(m, u, o / m->nvc, s->seg[s->head].pkt))
			m->deroutes++;
	}
	s->to = (s32)id;
	m->conn[m->nconn++] = (u32)(s - m->buf);
	m->progress++;
}

static u32 pick(struct model *m, u32 u, u32 n)
{
	return n > 1 ? (u32)(lcg_u01(&m->node[u].rs_arb) * n) : 0;
}

/* ------------------------------------------------------------------ */
/* The Chaos router */

/*
 * The free frames of the channel at node @u's port @p: @u's output frame
 * to the neighbour v, v's input frame from @u, v's output frame back and
 * @u's input frame from v (inputs are numbered by the direction of
 * travel).  Frames are free when they can take a whole packet.
 */
static u32 pair_free(const struct model *m, u32 u, u32 p)
{
	u32 v = (u32)m->node[u].nb[p];

	return can_take(m, bp(m, u, b_out(m, p, 0))) +
	       can_take(m, bp(m, v, b_in(m, p, 0))) +
	       can_take(m, bp(m, v, b_out(m, p ^ 1, 0))) +
	       can_take(m, bp(m, u, b_in(m, p ^ 1, 0)));
}

/*
 * Output frame @p for the packet in buffer @i.  The packet-exchange
 * invariant: a channel's four frames are never all full, so a packet
 * takes an output frame only if one of its channel's frames stays free;
 * a packet sent back where it came from frees the frame it leaves, so
 * it needs only the output frame.
 */
static bool chaos_out_ok(const struct model *m, u32 u, u32 p, u32 i)
{
	if (m->node[u].nb[p] < 0 || !can_take(m, bp(m, u, b_out(m, p, 0))))
		return false;
	return i == b_in(m, p ^ 1, 0) || pair_free(m, u, p) >= 2;
}

/* The multiqueue slots in use. */
static u32 mq_used(const struct model *m, u32 u)
{
	u32 q, n = 0;

	for (q = 0; q < m->nmq; q++)
		n += !!bp(m, u, b_mq(m, q))->nseg;
	return n;
}

/*
 * Chaos (notes 2.4): any free minimal output frame; a packet picked for
 * a deroute in a full multiqueue, any free output frame.  An input
 * frame's packet that has none, with the multiqueue full and its own
 * channel's frames full but the output frame back, goes back (the packet
 * exchange: this frees its input frame for the packet waiting there).
 * Outputs are the port numbers, delivery 4.
 */
static void chaos_cands(struct model *m, u32 u, u32 i, u32 p,
			struct cands *cd)
{
	u32 dst = m->pkt[p].dst, d, j, n, dr[2], back;
	struct route_at r;

	cd->n = 0;
	if (dst == u) {
		if (!bp(m, u, b_deliv(m))->committed)
			add(cd, 4);
		return;
	}
	/* a router that sends must be able to receive: see chaos_route */
	if (i == b_inj(m) && mq_used(m, u))
		return;
	route_at(m, u, dst, &r);
	for (d = 0; d < 2; d++) {
		dirs_in(m, &r, d, dr, &n);
		for (j = 0; j < n; j++)
			if (chaos_out_ok(m, u, 2 * d + dr[j], i))
				add(cd, 2 * d + dr[j]);
	}
	if (i > b_deliv(m) && m->pkt[p].deroute) {
		for (j = 0; j < 4; j++)
			if (chaos_out_ok(m, u, j, i))
				add(cd, j);
	}
	if (cd->n || i >= b_inj(m) || mq_used(m, u) < m->nmq)
		return;
	back = i ^ 1;		/* nvc 1: input i came in travelling i */
	if (m->node[u].nb[back] >= 0 && pair_free(m, u, back) == 1 &&
	    can_take(m, bp(m, u, b_out(m, back, 0))))
		add(cd, back);
}

/* Move input @i's head packet into the empty multiqueue slot @q. */
static void connect_mq(struct model *m, u32 u, u32 i, u32 q)
{
	struct buf *s = bp(m, u, i);
	u32 id = u * m->nb + b_mq(m, q);

	m->node[u].pend &= ~(1u << i);
	s->committed -= m->len;
	s->to_slot = (u8)push_seg(m, &m->buf[id], s->seg[s->head].pkt);
	s->to = (s32)id;
	m->conn[m->nconn++] = (u32)(s - m->buf);
	m->progress++;
}

/*
 * A stalled input frame's packet (no output frame for it) moves into an
 * empty multiqueue slot; with none empty, one of the multiqueue's packets
 * is picked at random to deroute (one at a time).
 */
static void chaos_stall(struct model *m, u32 u, u32 stalled)
{
	u32 who[CHAOS_MQ + 4], n = 0, q, free_q = CHAOS_MQ;
	bool marked = false;

	for (q = 0; q < m->nmq; q++) {
		struct buf *b = bp(m, u, b_mq(m, q));

		if (!b->nseg) {
			free_q = q;
		} else if (b->to < 0) {
			who[n++] = b->seg[b->head].pkt;
			marked |= m->pkt[who[n - 1]].deroute;
		}
	}
	if (free_q < CHAOS_MQ) {
		for (n = 0; stalled; stalled &= stalled - 1)
			who[n++] = (u32)__builtin_ctz(stalled);
		connect_mq(m, u, who[pick(m, u, n)], free_q);
		return;
	}
	/* one on its way out at a time */
	if (n && !marked)
		m->pkt[who[pick(m, u, n)]].deroute = 1;
}

/*
 * Chaos's arbitration, output-driven: the free output frames round-robin,
 * each to a random one of the multiqueue's packets that want it, else of
 * the input frames', else to the injection buffer: packets in the network
 * first.  With no connection made, a stalled input frame moves into the
 * multiqueue.  A new packet leaves the injection buffer only while the
 * multiqueue is empty: without this throttle (an injection only as
 * likely as a transit packet, or allowed while the multiqueue holds
 * packets) the torus fills past load 0.9 until most moves are exchanges
 * and deroutes, and delivers 11-21 % at load 1.0 (the seed's Chaos: 98 %).
 */
static void chaos_route(struct model *m, u32 u)
{
	struct node *nd = &m->node[u];
	u32 want = 0, stalled = 0, mask[32], who[32], nwho, i, j, c, bits;
	struct cands cd;

	memset(mask, 0, sizeof(mask));
	for (bits = nd->pend; bits; bits &= bits - 1) {
		struct buf *b;

		i = (u32)__builtin_ctz(bits);
		b = bp(m, u, i);
		if (m->now + 1 < m->pkt[b->seg[b->head].pkt].t_hdr + m->lat)
			continue;
		chaos_cands(m, u, i, b->seg[b->head].pkt, &cd);
		for (c = 0; c < cd.n; c++)
			mask[i] |= 1u << cd.out[c];
		want |= mask[i];
		if (!cd.n && i < b_inj(m))
			stalled |= 1u << i;
	}
	for (c = 0; c < 5; c++) {
		j = (nd->rr_out + c) % 5;
		if (!(want >> j & 1))
			continue;
		nwho = 0;
		for (i = b_mq(m, 0); i < m->nb; i++)
			if (mask[i] >> j & 1)
				who[nwho++] = i;
		for (i = 0; !nwho && i < b_inj(m); i++)
			if (mask[i] >> j & 1)
				who[nwho++] = i;
		if (!nwho)
			who[nwho++] = b_inj(m);
		i = who[pick(m, u, nwho)];
		/* leaving the multiqueue ends a deroute, if it was one */
		if (i > b_deliv(m)) {
			struct buf *b = bp(m, u, i);

			m->pkt[b->seg[b->head].pkt].deroute = 0;
		}
		connect(m, u, i, j);
		nd->rr_out = (u8)((j + 1) % 5);
		return;
	}
	if (stalled)
		chaos_stall(m, u, stalled);
}

/* Node @u's arbitration: at most one new connection. */
static void route(struct model *m, u32 u)
{
	struct node *nd = &m->node[u];
	u32 ni = 4 * m->nvc + 1, i, j, c, want = 0, who[32], nwho = 0, bits;
	struct cands cd[4 * MAXVC + 1];
	u32 mask[4 * MAXVC + 1];

	if (m->c.algo == RM_CHAOS) {
		chaos_route(m, u);
		return;
	}
	memset(mask, 0, sizeof(mask));
	for (bits = nd->pend; bits; bits &= bits - 1) {
		struct buf *b;

		i = (u32)__builtin_ctz(bits);
		b = bp(m, u, i);
		if (m->now + 1 < m->pkt[b->seg[b->head].pkt].t_hdr + m->lat)
			continue;
		candidates(m, u, i, b->seg[b->head].pkt, &cd[i]);
		for (c = 0; c < cd[i].n; c++)
			mask[i] |= 1u << cd[i].out[c];
		want |= mask[i];
	}
	if (!want)
		return;
	if (m->c.arb != RM_OUT) {
		for (c = 0; c < ni; c++) {
			i = (nd->rr_in + c) % ni;
			if (!mask[i])
				continue;
			j = m->c.arb == RM_IN_FIXED ? 0 : pick(m, u, cd[i].n);
			connect(m, u, i, cd[i].out[j]);
			nd->rr_in = (u8)((i + 1) % ni);
			return;
		}
	}
	for (c = 0; c < ni; c++) {
		j = (nd->rr_out + c) % ni;	/* ni outputs too */
		if (!(want >> j & 1))
			continue;
		for (i = 0; i < ni; i++)
			if (mask[i] >> j & 1)
				who[nwho++] = i;
		connect(m, u, who[pick(m, u, nwho)], j);
		nd->rr_out = (u8)((j + 1) % ni);
		return;
	}
}

/* ------------------------------------------------------------------ */
/* Set-up and the cycle */

static void model_free(struct model *m)
{
	free(m->buf);
	free(m->node);
	free(m->link);
	free(m->pkt);
	free(m->conn);
	free(m->created);
	free(m->delivered);
	free(m->latsum);
	free(m->hopsum);
	free(m->last);
}

static void wire(struct model *m)
{
	u32 k = m->c.k, u, d, x[2];
	bool torus = m->c.topo == RM_TORUS;

	for (u = 0; u < m->n; u++) {
		for (d = 0; d < 4; d++)
			m->node[u].nb[d] = m->node[u].link[d] = -1;
	}
	for (u = 0; u < m->n; u++) {
		x[0] = u % k;
		x[1] = u / k;
		for (d = 0; d < 2; d++) {
			u32 v, step = d ? k : 1;
			struct link *l;

			if (x[d] == k - 1 && !torus)
				continue;
			v = x[d] == k - 1 ? u - (k - 1) * step : u + step;
			l = &m->link[m->nlinks];
			*l = (struct link){ .a = u, .b = v, .d = (u8)d };
			m->node[u].nb[2 * d + 1] = (s32)v;
			m->node[u].link[2 * d + 1] = (s32)m->nlinks;
			m->node[v].nb[2 * d] = (s32)u;
			m->node[v].link[2 * d] = (s32)m->nlinks;
			m->nlinks++;
		}
	}
}

/* The streams: 3 per node, (2^31 - 2) / (3 n) apart (notes 3.5). */
static void seed_streams(struct model *m)
{
	u32 s = 3 * m->n, step = rm_lcg_pow(LCG_B, (LCG_M - 1) / s);
	u32 x = m->c.seed, j;

	for (j = 0; j < s; j++) {
		struct node *nd = &m->node[j % m->n];

		if (j < m->n)
			nd->rs_inj = x;
		else if (j < 2 * m->n)
			nd->rs_dst = x;
		else
			nd->rs_arb = x;
		x = mulmod(x, step);
	}
	/* mixed classes: half a spacing past each destination stream */
	if (!m->mixed)
		return;
	step = rm_lcg_pow(LCG_B, (LCG_M - 1) / s / 2);
	for (j = 0; j < m->n; j++)
		m->node[j].rs_cls = mulmod(m->node[j].rs_dst, step);
}

static void model_init(struct model *m, const struct rm_cfg *c)
{
	u32 i, nbuf;

	memset(m, 0, sizeof(*m));
	m->c = *c;
	m->n = c->k * c->k;
	m->wh = c->flow == RM_WORMHOLE;
	m->lanes = m->wh ? 1 : 2;
	if (c->algo == RM_DO)
		m->nvc = (c->topo == RM_TORUS ? 2 : 1) * m->lanes;
	else if (c->algo == RM_CHAOS)
		m->nvc = 1;
	else
		m->nvc = c->topo == RM_TORUS ? 3 : 2;
	m->uvc = m->nvc - 1;
	m->nmq = c->algo == RM_CHAOS ? CHAOS_MQ : 0;
	m->nb = 8 * m->nvc + 2 + m->nmq;
	m->lat = c->latency ? c->latency : c->algo == RM_DO ? 3 : 4;
	/* ch. 4.7.2: 160 cycles and .1 in worms, 400 and .00001 in packets */
	if (c->algo == RM_NMTRIPLEX) {
		m->dwait = c->dwait >= 0 ? (u32)c->dwait : m->wh ? 160 : 400;
		m->dprob = c->dprob >= 0 ? c->dprob : m->wh ? .1 : .00001;
	}
	m->len = c->len;
	m->depth = c->depth;
	m->p = c->load / rm_t1(c);
	nbuf = m->n * m->nb;
	m->buf = sim_calloc(nbuf, sizeof(*m->buf));
	for (i = 0; i < nbuf; i++)
		m->buf[i].to = -1;
	m->node = sim_calloc(m->n, sizeof(*m->node));
	for (i = 0; i < m->n; i++)
		m->node[i].feed = NO_SLOT;
	m->link = sim_calloc(2 * m->n, sizeof(*m->link));
	/* a packet is in at most NSEG segments of each buffer */
	m->npkt = nbuf * NSEG;
	m->pkt = sim_calloc(m->npkt, sizeof(*m->pkt));
	for (i = 0; i < m->npkt; i++)
		m->pkt[i].next = i + 1 < m->npkt ? i + 1 : UINT32_MAX;
	m->conn = sim_calloc(nbuf, sizeof(u32));
	m->created = sim_calloc(c->batches, sizeof(double));
	m->delivered = sim_calloc(c->batches, sizeof(double));
	m->latsum = sim_calloc(c->batches, sizeof(double));
	m->hopsum = sim_calloc(c->batches, sizeof(double));
	m->batch = -1;
	m->probe_dst = -1;
	m->mixed = c->obliv >= 0;
	if (m->mixed)
		m->last = sim_calloc((size_t)2 * m->n * m->n, sizeof(u32));
	wire(m);
	seed_streams(m);
}

/*
 * A wormhole cycle: the transfers resolved downstream first (wh_drain),
 * then the injection buffers filled, then routing.
 */
static void wh_cycle(struct model *m)
{
	u32 u, i, id;

	for (u = 0; u < m->n; u++) {
		if (m->p > 0 && lcg_u01(&m->node[u].rs_inj) < m->p) {
			m->node[u].srcq++;
			if (m->batch >= 0)
				m->created[m->batch]++;
		}
	}
	for (i = m->nconn; i-- > 0;) {
		id = m->conn[i];
		xbar(m, id);
		if (m->buf[id].to < 0)
			m->conn[i] = m->conn[--m->nconn];
	}
	for (i = 0; i < m->nlinks; i++) {
		struct link *l = &m->link[i];

		if (l->busy & ((1u << m->nvc) - 1))
			wh_channel(m, l->a, 2 * l->d + 1);
		if (l->busy >> m->nvc)
			wh_channel(m, l->b, 2 * l->d);
	}
	for (u = 0; u < m->n; u++)
		inject(m, u);
	for (u = 0; u < m->n; u++)
		if (m->node[u].pend)
			route(m, u);
}

static void cycle(struct model *m)
{
	u32 u, i;

	if (m->wh) {
		wh_cycle(m);
		return;
	}
	for (u = 0; u < m->n; u++) {
		if (m->p > 0 && lcg_u01(&m->node[u].rs_inj) < m->p) {
			m->node[u].srcq++;
			if (m->batch >= 0)
				m->created[m->batch]++;
		}
		inject(m, u);
	}
	for (i = m->nconn; i-- > 0;)
		if (xbar(m, m->conn[i]))
			m->conn[i] = m->conn[--m->nconn];
	for (i = 0; i < m->nlinks; i++)
		if (m->link[i].busy)
			channel(m, &m->link[i], ~0u, &m->link[i].rr);
	for (u = 0; u < m->n; u++)
		if (m->node[u].pend)
			route(m, u);
}

/* Run @cycles cycles; -1 when nothing moved for STALL_LIMIT of them. */
static int advance(struct model *m, u32 cycles)
{
	u64 last = m->progress;
	u32 quiet = 0, t;

	for (t = 0; t < cycles; t++, m->now++) {
		cycle(m);
		if (m->progress != last || !m->live) {
			last = m->progress;
			quiet = 0;
		} else if (++quiet >= STALL_LIMIT) {
			return -1;
		}
		if (m->probe_done)
			return 0;
	}
	return 0;
}

int rm_probe(const struct rm_cfg *c, u32 src, u32 dst, u32 *lat, u32 *hops)
{
	struct rm_cfg q = *c;
	struct model m;
	int rc;

	q.load = 0;
	model_init(&m, &q);
	m.probe_dst = (s32)dst;
	m.node[src].srcq = 1;
	rc = advance(&m, 1000000);
	*lat = m.probe_lat;
	*hops = m.probe_hops;
	if (!m.probe_done)
		rc = -1;
	model_free(&m);
	return rc;
}

int rm_run(const struct rm_cfg *c, struct rm_result *r)
{
	double t1 = rm_t1(c), per = t1 / ((double)c->batch * c->k * c->k);
	double *off, *thr, *lat, *sh, hops = 0, cnt = 0;
	struct model m;
	u32 b, nb = c->batches, u;
	int rc;

	model_init(&m, c);
	memset(r, 0, sizeof(*r));
	rc = advance(&m, c->warmup);
	for (b = 0; !rc && b < nb; b++) {
		m.batch = (s32)b;
		rc = advance(&m, c->batch);
	}
	off = sim_calloc(4 * nb, sizeof(double));
	thr = off + nb;
	lat = thr + nb;
	sh = lat + nb;
	for (b = 0; b < nb; b++) {
		off[b] = m.created[b] * per;
		thr[b] = m.delivered[b] * per;
		lat[b] = m.delivered[b] ? m.latsum[b] / m.delivered[b] : 0;
		sh[b] = off[b] - thr[b];
		hops += m.hopsum[b];
		cnt += m.delivered[b];
	}
	r->offered = sim_mean_ci(off, nb, 1, &r->offered_ci);
	r->thr = sim_mean_ci(thr, nb, 1, &r->thr_ci);
	r->lat = sim_mean_ci(lat, nb, 1, &r->lat_ci);
	r->short_mean = sim_mean_ci(sh, nb, 1, &r->short_ci);
	r->hops = cnt ? hops / cnt : 0;
	r->delivered = (u64)cnt;
	r->deroutes = m.deroutes;
	r->saturated = r->short_mean > r->short_ci &&
		       r->short_mean > 0.01 * r->offered;
	for (u = 0; u < m.n; u++)
		r->backlog += m.node[u].srcq;
	r->len_mean = m.lencnt ? m.lensum / m.lencnt : 0;
	if (m.cls_n[0] + m.cls_n[1] > 0)
		r->obl_share = m.cls_n[1] / (m.cls_n[0] + m.cls_n[1]);
	r->obl_lat = m.cls_n[1] ? m.cls_lat[1] / m.cls_n[1] : 0;
	r->ada_lat = m.cls_n[0] ? m.cls_lat[0] / m.cls_n[0] : 0;
	r->obl_reorder = m.reorder[1];
	r->ada_reorder = m.reorder[0];
	free(off);
	model_free(&m);
	return rc;
}
