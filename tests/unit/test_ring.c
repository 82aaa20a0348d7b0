// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Group-multicast rings on binary n-cubes (Lin and Chen (1996);
 * plan/ring.h):
 *   (a) the operators of Defs 1-5: the notes' 4.1 golden strings, Lemma 2's
 *       example, and the bit masks against a per-symbol implementation
 *       written from the definitions, on random inputs up to n = 20;
 *   (b) the notes' 4.2-4.7 vectors: the routing example, Theorem 1's
 *       disjoint pair crossing at a node, Corollary 1's two shared links
 *       (dimensions 3 and 2), Lemma 1's swap, Theorem 2's table with the
 *       true shared links;
 *   (c) Theorem 1 / Corollary 1 exhaustively for n <= 4 (every quadruple):
 *       the closed form, the core's brute force and one written here
 *       agree; symmetry, Lemma 1, Corollary 2, Theorem 4; Theorem 2 on
 *       all its 673,820 instances for n <= 4 (the notes' count); random
 *       quadruples and Theorem 5 configurations up to n = 20;
 *   (d) the worked rings: 4.8 (ring, merge log with old successors and
 *       asterisks, the snapshot after every k, the paths, 18 hops, every
 *       minimizer tie-break gives one of the 4 valid rings and all 4
 *       occur), 4.9 (the RGC ring and its dimension sequences, the
 *       proposed ring [1,6,4]), 4.10 (full 3- and 4-cubes, {5,9}, {7},
 *       the empty set, {0,1,2,6}), 4.11 (a non-minimal merge and a
 *       reversed ring, each exactly one shared link 010 -> 000);
 *   (e) errors of the builder, the order, the checker and the counters;
 *   (f) properties over random sets on cubes of dimension 1..10: the
 *       ring against a recursive builder written here from the notes'
 *       pseudocode (the same succ, the same merges, m - 1 of them, m (m -
 *       1) / 2 pair evaluations, each merge maximal), a single cycle over
 *       the set, pairwise disjoint by Theorem 1 and by brute force, the
 *       checker passes; with a random minimizer and XOR-translated sets
 *       still disjoint; reversed, sorted-address and RGC-order rings and
 *       arbitrary merges: Corollary 1's sum, the checker's count and
 *       brute force agree, and the checker rejects exactly those with a
 *       shared link;
 *   (g) the pipelined group multicast simulated: every member receives
 *       every other message once, in ring order, m (m - 1) transfers,
 *       no link claimed twice in a round; the round formula;
 *   (h) the notes' section 5 comparison with the RGC ring, re-estimated.
 *
 * Paths, conflicts and rings are computed independently of plan/ here.
 */
#include <string.h>

#include "tap.h"
#include "ring.h"

#define NONE MC_NO_NODE
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

/* ---------------- helpers ---------------- */

static u32 bits(const char *s)
{
	return (u32)strtoul(s, NULL, 2);
}

static const char *bstr(u32 n, u32 v)
{
	static char buf[16][24];
	static unsigned int slot;
	char *b = buf[slot++ & 15];
	u32 i;

	for (i = 0; i < n; i++)
		b[i] = (v >> (n - 1 - i)) & 1 ? '1' : '0';
	b[n] = '\0';
	return b;
}

/* "*010**01" -> (val, mask), highest symbol first; n = strlen. */
static struct mc_tern tern(const char *s)
{
	struct mc_tern z = { 0, 0 };
	u32 n = strlen(s), i;

	for (i = 0; i < n; i++) {
		u32 bit = 1u << (n - 1 - i);

		if (s[i] != '*')
			z.mask |= bit;
		if (s[i] == '1')
			z.val |= bit;
	}
	return z;
}

static const char *tstr(u32 n, struct mc_tern z)
{
	static char buf[16][36];
	static unsigned int slot;
	char *b = buf[slot++ & 15];
	u32 i, bit;

	for (i = 0; i < n; i++) {
		bit = 1u << (n - 1 - i);
		b[i] = !(z.mask & bit) ? '*' : z.val & bit ? '1' : '0';
	}
	b[n] = '\0';
	return b;
}

static bool tern_eq(struct mc_tern a, struct mc_tern b)
{
	return a.val == b.val && a.mask == b.mask;
}

static u32 ref_ctz(u32 x)
{
	u32 i;

	for (i = 0; i < 32; i++)
		if ((x >> i) & 1)
			return i;
	return 32;
}

/* Own E-cube (descending): the nodes of Path(u, v), their number. */
static u32 ref_path_nodes(u32 n, u32 u, u32 v, u32 *out)
{
	u32 k = 0;
	int i;

	out[k++] = u;
	for (i = (int)n - 1; i >= 0; i--) {
		if (((u ^ v) >> i) & 1) {
			u ^= 1u << i;
			out[k++] = u;
		}
	}
	return k;
}

/* Own arcs as ids node * 32 + dim, in path order. */
static u32 ref_arcs(u32 n, u32 u, u32 v, u32 *out)
{
	u32 nodes[33], k = ref_path_nodes(n, u, v, nodes), i, d;

	for (i = 0; i + 1 < k; i++) {
		d = ref_ctz(nodes[i] ^ nodes[i + 1]);
		out[i] = nodes[i] * 32 + d;
	}
	return k - 1;
}

static u32 ref_conflicts(u32 n, u32 a, u32 b, u32 c, u32 d)
{
	u32 p[32], q[32], np = ref_arcs(n, a, b, p), nq = ref_arcs(n, c, d, q);
	u32 i, j, s = 0;

	for (i = 0; i < np; i++)
		for (j = 0; j < nq; j++)
			s += p[i] == q[j];
	return s;
}

/* The path as "0000 0010 0011". */
static const char *path_str(u32 n, u32 u, u32 v)
{
	static char buf[4][32 * 24];
	static unsigned int slot;
	char *b = buf[slot++ & 3];
	u32 nodes[33], k = ref_path_nodes(n, u, v, nodes), i;
	size_t o = 0;

	b[0] = '\0';
	for (i = 0; i < k; i++)
		o += snprintf(b + o, sizeof(buf[0]) - o, "%s%s", i ? " " : "",
			      bstr(n, nodes[i]));
	return b;
}

/* Sum over the ring's pairs of paths of their shared links, brute force. */
static u64 ref_ring_conflicts(u32 n, const u32 *order, u32 m)
{
	u32 i, j, paths = m < 2 ? 0 : m;
	u64 s = 0;

	for (i = 0; i < paths; i++)
		for (j = i + 1; j < paths; j++)
			s += ref_conflicts(n, order[i], order[(i + 1) % m],
					   order[j], order[(j + 1) % m]);
	return s;
}

static char *ints_str(const u32 *a, u32 m)
{
	static char buf[4][4096];
	static unsigned int slot;
	char *b = buf[slot++ & 3];
	size_t o = 0;
	u32 i;

	o += snprintf(b, sizeof(buf[0]), "[");
	for (i = 0; i < m && o < sizeof(buf[0]) - 16; i++)
		o += snprintf(b + o, sizeof(buf[0]) - o, "%s%u",
			      i ? "," : "", a[i]);
	snprintf(b + o, sizeof(buf[0]) - o, "]");
	return b;
}

/* A ring with room for @m members, its merge log and order. */
struct tr {
	struct mc_ring r;
	u32 *order;
	u64 *ws;
};

static void tr_alloc(struct tr *t, u32 n, u32 m)
{
	memset(t, 0, sizeof(*t));
	t->r.addr = xcalloc(m, sizeof(u32));
	t->r.succ = xcalloc(m, sizeof(u32));
	t->r.merge = xcalloc(m, sizeof(struct mc_ring_merge));
	t->order = xcalloc(m, sizeof(u32));
	t->ws = xcalloc(mc_ring_check_ws_words(n, m), sizeof(u64));
}

static void tr_free(struct tr *t)
{
	free(t->r.addr);
	free(t->r.succ);
	free(t->r.merge);
	free(t->order);
	free(t->ws);
}

/* Build and order, or bail out: the golden vectors need both. */
static void tr_build(struct tr *t, u32 n, const u32 *set, u32 m)
{
	const char *why = NULL;

	tr_alloc(t, n, m);
	if (mc_ring_build(&t->r, n, set, m, &why) ||
	    mc_ring_order(&t->r, t->order)) {
		printf("Bail out! mc_ring_build(n=%u, m=%u): %s\n", n, m,
		       why ? why : "no single cycle");
		exit(2);
	}
}

/* ---------------- (a) operators ---------------- */

/* Per symbol, from the definitions: '0', '1', '*' strings, highest first. */
static void naive_suffix(u32 n, u32 x, u32 y, char *z)
{
	u32 i, k;
	bool same;

	for (i = 0; i < n; i++) {	/* symbol i of the string = bit n-1-i */
		u32 bit = n - 1 - i;

		same = true;
		for (k = 0; k <= bit; k++)
			same = same && ((x >> k) & 1) == ((y >> k) & 1);
		z[i] = same ? '0' + ((x >> bit) & 1) : '*';
	}
	z[n] = '\0';
}

static void naive_prefix(u32 n, u32 x, u32 y, char *z)
{
	u32 i, k;
	bool same;

	for (i = 0; i < n; i++) {
		u32 bit = n - 1 - i;

		same = true;
		for (k = bit; k < n; k++)
			same = same && ((x >> k) & 1) == ((y >> k) & 1);
		z[i] = same ? '0' + ((x >> bit) & 1) : '*';
	}
	z[n] = '\0';
}

static void naive_xor(const char *u, const char *v, char *z)
{
	u32 i;

	for (i = 0; u[i]; i++)
		z[i] = u[i] == '*' || v[i] == '*' ? '*' :
		       u[i] == v[i] ? '0' : '1';
	z[i] = '\0';
}

static bool naive_le(const char *u, const char *v)
{
	u32 i;

	for (i = 0; u[i]; i++)
		if (!(u[i] == v[i] || (u[i] == '*' && v[i] != '*')))
			return false;
	return true;
}

static u32 naive_count(const char *z, char c)
{
	u32 k = 0;

	for (; *z; z++)
		k += *z == c;
	return k;
}

static void random_tern(struct rng *g, u32 n, char *s)
{
	u32 i;

	for (i = 0; i < n; i++)
		s[i] = "01*"[rng_below(g, 3)];
	s[n] = '\0';
}

static void operators(void)
{
	struct mc_tern a, b, z;
	struct rng g = { 41 };
	char s1[40], s2[40], s3[40];
	u32 n, t, x, y, w, bad_suf = 0, bad_pre = 0, bad_xor = 0, bad_cnt = 0;
	u32 bad_le = 0, bad_ctz = 0;

	z = mc_tern_suffix(6, bits("101110"), bits("000110"));
	ok(!strcmp(tstr(6, z), "***110"), "4.1: 101110 down 000110 = ***110 (%s)",
	   tstr(6, z));
	is_int(mc_tern_asterisk(6, z), 3, "4.1: Asterisk(***110) = 3 = n - ctz");
	z = mc_tern_prefix(6, bits("110101"), bits("110110"));
	ok(!strcmp(tstr(6, z), "1101**"), "4.1: 110101 up 110110 = 1101** (%s)",
	   tstr(6, z));
	ok(tern_eq(z, mc_tern_prefix(6, bits("110110"), bits("110101"))),
	   "Def 2: up is commutative");
	z = mc_tern_xor(tern("*010**01"), tern("*10011*1"));
	ok(!strcmp(tstr(8, z), "*110***0"),
	   "4.1: *010**01 (x) *10011*1 = *110***0 (%s)", tstr(8, z));
	is_int(mc_tern_one(tern("01**010*")), 2, "4.1: One(01**010*) = 2");
	is_int(mc_tern_asterisk(8, tern("01**010*")), 3,
	       "4.1: Asterisk(01**010*) = 3");
	ok(mc_tern_le(tern("*010**1"), tern("1010*01")),
	   "4.1: *010**1 <. 1010*01");
	ok(!mc_tern_le(tern("1010*01"), tern("*010**1")),
	   "Def 5: 1010*01 <. *010**1 is false");
	z = mc_tern_suffix(6, bits("101110"), bits("101110"));
	ok(!strcmp(tstr(6, z), "101110") && mc_tern_asterisk(6, z) == 0,
	   "Defs 1, 4: X down X = X, Asterisk 0");

	/* 4.6, Lemma 2's example */
	a = mc_tern_suffix(6, bits("101001"), bits("010101"));
	b = mc_tern_suffix(6, bits("101001"), bits("100101"));
	z = mc_tern_suffix(6, bits("010101"), bits("100101"));
	ok(!strcmp(tstr(6, a), "****01") && !strcmp(tstr(6, b), "****01") &&
	   !strcmp(tstr(6, z), "**0101"),
	   "4.6: A down B = ****01, A down C = ****01, B down C = **0101");
	ok(mc_tern_le(a, b) && mc_tern_le(a, z),
	   "4.6 (Lemma 2): A down B <. A down C, and A down B <. B down C");

	for (n = 1; n <= 20; n++) {
		for (t = 0; t < 500; t++) {
			x = rng_below(&g, 1u << n);
			y = rng_below(&g, 4) ? rng_below(&g, 1u << n) : x;
			w = rng_below(&g, 1u << n);
			naive_suffix(n, x, y, s1);
			bad_suf += strcmp(s1, tstr(n, mc_tern_suffix(n, x, y))) != 0;
			naive_prefix(n, x, y, s1);
			bad_pre += strcmp(s1, tstr(n, mc_tern_prefix(n, x, y))) != 0;
			random_tern(&g, n, s1);
			random_tern(&g, n, s2);
			naive_xor(s1, s2, s3);
			z = mc_tern_xor(tern(s1), tern(s2));
			bad_xor += strcmp(s3, tstr(n, z)) != 0;
			bad_cnt += mc_tern_one(tern(s1)) != naive_count(s1, '1') ||
				   mc_tern_asterisk(n, tern(s1)) !=
				   naive_count(s1, '*');
			/* a generalization of s1 half the time */
			if (t & 1) {
				strcpy(s2, s1);
				s2[rng_below(&g, n)] = '*';
			}
			bad_le += naive_le(s2, s1) !=
				  mc_tern_le(tern(s2), tern(s1));
			/* notes 2.5: X down Y <. X down Z iff ctz(X^Y) <= ctz(X^Z) */
			if (x != y && x != w)
				bad_ctz += mc_tern_le(mc_tern_suffix(n, x, y),
						      mc_tern_suffix(n, x, w)) !=
					   (ref_ctz(x ^ y) <= ref_ctz(x ^ w));
		}
	}
	ok(!bad_suf, "Def 1: down = the per-symbol definition, 10000 random pairs, n = 1..20 (%u differ)",
	   bad_suf);
	ok(!bad_pre, "Def 2: up = the per-symbol definition (%u differ)", bad_pre);
	ok(!bad_xor, "Def 3: (x) = the table on random {0,1,*} strings (%u differ)",
	   bad_xor);
	ok(!bad_cnt, "Def 4: One and Asterisk count the symbols (%u differ)",
	   bad_cnt);
	ok(!bad_le, "Def 5: <. = the per-symbol definition (%u differ)", bad_le);
	ok(!bad_ctz, "2.5: X down Y <. X down Z iff ctz(X^Y) <= ctz(X^Z) (%u differ)",
	   bad_ctz);
}

/* ---------------- (b) the notes' 4.2-4.7 vectors ---------------- */

/* mc_cube_path's nodes as a string, for the golden routes. */
static const char *core_path(u32 n, u32 u, u32 v)
{
	static char buf[4][32 * 24];
	static unsigned int slot;
	char *b = buf[slot++ & 3];
	struct mc_cube_arc arc[MC_CUBE_MAX_DIM];
	int h = mc_cube_path(n, u, v, arc, MC_CUBE_MAX_DIM), i;
	size_t o;

	if (h < 0)
		return "error";
	o = snprintf(b, sizeof(buf[0]), "%s", bstr(n, u));
	for (i = 0; i < h; i++)
		o += snprintf(b + o, sizeof(buf[0]) - o, " %s",
			      bstr(n, arc[i].node ^ (1u << arc[i].dim)));
	return b;
}

static void golden_pairs(void)
{
	struct mc_tern p, q, z;
	u32 dims, nodes[8];
	static const struct {
		const char *c, *suf, *shared;
		bool test;
		u32 links;
	} t2[] = {
		{ "0000", "***0", "**00", true, 0 },
		{ "0001", "****", "****", true, 0 },
		{ "0010", "*010", "***0", false, 2 },
		{ "0011", "****", "****", true, 0 },
	};
	unsigned int i;

	/* 4.2 */
	ok(!strcmp(core_path(3, bits("011"), bits("100")), "011 111 101 100"),
	   "4.2: Path(011, 100) = 011 111 101 100 (%s)",
	   core_path(3, bits("011"), bits("100")));

	/* 4.3: Theorem 1, disjoint, crossing at node 001011 */
	p = mc_tern_suffix(6, bits("101011"), bits("011011"));
	q = mc_tern_prefix(6, bits("001010"), bits("001101"));
	z = mc_tern_xor(p, q);
	ok(!strcmp(tstr(6, p), "**1011") && !strcmp(tstr(6, q), "001***") &&
	   !strcmp(tstr(6, z), "**0***") && mc_tern_one(z) == 0,
	   "4.3: **1011 (x) 001*** = **0***, One 0 (%s %s %s)", tstr(6, p),
	   tstr(6, q), tstr(6, z));
	ok(!strcmp(core_path(6, bits("101011"), bits("001010")),
		   "101011 001011 001010") &&
	   !strcmp(core_path(6, bits("011011"), bits("001101")),
		   "011011 001011 001111 001101"),
	   "4.3: the two routes (dims 5, 0 and 4, 2, 1) meet at node 001011");
	is_int(mc_ring_path_conflicts(6, bits("101011"), bits("001010"),
				      bits("011011"), bits("001101")), 0,
	       "4.3: no shared link");
	is_int(mc_ring_path_conflicts_slow(6, bits("101011"), bits("001010"),
					   bits("011011"), bits("001101")), 0,
	       "4.3: no shared link by brute force");

	/* 4.4: Corollary 1, two shared links, dims 3 and 2 */
	p = mc_tern_suffix(6, bits("001011"), bits("111011"));
	q = mc_tern_prefix(6, bits("100110"), bits("100101"));
	z = mc_tern_xor(p, q);
	ok(!strcmp(tstr(6, p), "**1011") && !strcmp(tstr(6, q), "1001**") &&
	   !strcmp(tstr(6, z), "**11**") && mc_tern_one(z) == 2,
	   "4.4: **1011 (x) 1001** = **11**, One 2 (%s)", tstr(6, z));
	ok(!strcmp(core_path(6, bits("001011"), bits("100110")),
		   "001011 101011 100011 100111 100110") &&
	   !strcmp(core_path(6, bits("111011"), bits("100101")),
		   "111011 101011 100011 100111 100101"),
	   "4.4: the two routes");
	dims = mc_ring_conflict_dims(6, bits("001011"), bits("100110"),
				     bits("111011"), bits("100101"));
	is_int(dims, 0xc, "4.4: shared links in dimensions 3 and 2");
	ok(mc_ring_path_node(bits("001011"), bits("100110"), 3) ==
	   bits("101011") &&
	   mc_ring_path_node(bits("001011"), bits("100110"), 2) ==
	   bits("100011") &&
	   mc_ring_path_node(bits("111011"), bits("100101"), 3) ==
	   bits("101011"),
	   "4.4: the links 101011 -> 100011 (dim 3) and 100011 -> 100111 (dim 2)");
	is_int(mc_ring_path_conflicts_slow(6, bits("001011"), bits("100110"),
					   bits("111011"), bits("100101")), 2,
	       "4.4: 2 shared links by brute force");

	/* 4.5: Lemma 1 */
	ok(!strcmp(core_path(6, bits("100101"), bits("010010")),
		   "100101 000101 010101 010001 010011 010010") &&
	   !strcmp(core_path(6, bits("101101"), bits("010110")),
		   "101101 001101 011101 010101 010111 010110") &&
	   !strcmp(core_path(6, bits("100101"), bits("010110")),
		   "100101 000101 010101 010111 010110") &&
	   !strcmp(core_path(6, bits("101101"), bits("010010")),
		   "101101 001101 011101 010101 010001 010011 010010"),
	   "4.5: the four routes, interchanging at 010101");
	ok(mc_ring_path_conflicts(6, bits("100101"), bits("010010"),
				  bits("101101"), bits("010110")) == 0 &&
	   mc_ring_path_conflicts(6, bits("100101"), bits("010110"),
				  bits("101101"), bits("010010")) == 0,
	   "4.5: both pairs disjoint");
	p = mc_tern_suffix(6, bits("100101"), bits("101101"));
	q = mc_tern_prefix(6, bits("010010"), bits("010110"));
	ok(!strcmp(tstr(6, p), "***101") && !strcmp(tstr(6, q), "010***") &&
	   mc_tern_asterisk(6, p) + mc_tern_asterisk(6, q) == 6,
	   "4.5: Asterisk(***101) + Asterisk(010***) = 3 + 3 = n");

	/* 4.7: Theorem 2's table */
	ok(mc_ring_path_conflicts(4, bits("0100"), bits("1101"), bits("1010"),
				  bits("1100")) == 0,
	   "4.7: Path(0100, 1101) and Path(1010, 1100) disjoint");
	z = mc_tern_xor(mc_tern_suffix(4, bits("0100"), bits("1010")),
			mc_tern_prefix(4, bits("1101"), bits("1100")));
	ok(!strcmp(tstr(4, z), "****"), "4.7: ***0 (x) 110* = ****");
	for (i = 0; i < ARRAY_SIZE(t2); i++) {
		u32 c = bits(t2[i].c);

		p = mc_tern_suffix(4, c, bits("1010"));
		q = mc_tern_suffix(4, c, bits("0100"));
		ok(!strcmp(tstr(4, p), t2[i].suf) &&
		   !strcmp(tstr(4, q), t2[i].shared) &&
		   mc_tern_le(p, q) == t2[i].test &&
		   mc_ring_path_conflicts(4, c, bits("1101"), bits("1010"),
					  bits("1100")) == (int)t2[i].links,
		   "4.7: C = %s: %s <. %s is %s, %u shared links with Path(1010, 1100)",
		   t2[i].c, t2[i].suf, t2[i].shared,
		   t2[i].test ? "true" : "false", t2[i].links);
	}
	ok(!strcmp(path_str(4, bits("0010"), bits("1101")),
		   "0010 1010 1110 1100 1101") &&
	   ref_path_nodes(4, bits("1010"), bits("1100"), nodes) == 3,
	   "4.7: Path(0010, 1101) runs over 1010 -> 1110 -> 1100 as Path(1010, 1100)");
}

/* ---------------- (c) the theorems, exhaustively ---------------- */

static void theorems(void)
{
	u32 n, a, b, c, d, e, N, cf, slow, mine, form;
	u64 quads = 0, bad1 = 0, bad_slow = 0, bad_sym = 0, bad_l1 = 0;
	u64 bad_c2 = 0, bad_t4 = 0, t2_inst = 0, bad_t2 = 0, bad_form = 0;
	u32 lcs_ce, lcs_ca, q;
	struct rng g = { 7 };
	u32 t;

	for (n = 1; n <= 4; n++) {
		N = 1u << n;
		for (q = 0; q < 1u << 4 * n; q++) {
			a = q >> 3 * n;
			b = (q >> 2 * n) & (N - 1);
			c = (q >> n) & (N - 1);
			d = q & (N - 1);
			quads++;
			cf = mc_ring_path_conflicts(n, a, b, c, d);
			slow = mc_ring_path_conflicts_slow(n, a, b, c, d);
			mine = ref_conflicts(n, a, b, c, d);
			/* notes 2.6's closed form */
			form = __builtin_popcount((a ^ b) &
				(a ^ c ? ((a ^ c) & -(a ^ c)) - 1 : N - 1) &
				(b ^ d ? (N - 1) & ~(u32)((2ULL << (31 - __builtin_clz(b ^ d))) - 1) : N - 1));
			bad1 += cf != mine;
			bad_slow += slow != mine;
			bad_form += form != mine;
			bad_sym += cf != (u32)mc_ring_path_conflicts(n, c, d, a, b);
			bad_l1 += cf != (u32)mc_ring_path_conflicts(n, a, d, c, b);
			if (mc_tern_asterisk(n, mc_tern_suffix(n, a, c)) +
			    mc_tern_asterisk(n, mc_tern_prefix(n, b, d)) >= n)
				bad_c2 += mine != 0;
			if (a != b && c == b && d == a)
				bad_t4 += mine != 0;
			if (mine)
				continue;
			/* Theorem 2: (a,b), (c,d) disjoint; every node e */
			for (e = 0; e < N; e++) {
				lcs_ce = e == c ? n : ref_ctz(e ^ c);
				lcs_ca = e == a ? n : ref_ctz(e ^ a);
				if (lcs_ce > lcs_ca)
					continue;
				t2_inst++;
				bad_t2 += ref_conflicts(n, e, b, c, d) != 0;
			}
		}
	}
	ok(!bad1, "Theorem 1 / Cor 1: closed form = own brute force on all %llu quadruples, n = 1..4 (%llu differ)",
	   (unsigned long long)quads, (unsigned long long)bad1);
	ok(!bad_slow, "mc_ring_path_conflicts_slow = own brute force (%llu differ)",
	   (unsigned long long)bad_slow);
	ok(!bad_form, "notes 2.6: popcount((A^B) & msuf(A^C) & mpre(B^D)) exact (%llu differ)",
	   (unsigned long long)bad_form);
	ok(!bad_sym, "conflicts(A,B,C,D) = conflicts(C,D,A,B) (%llu differ)",
	   (unsigned long long)bad_sym);
	ok(!bad_l1, "Lemma 1 (an iff): conflicts(A,B,C,D) = conflicts(A,D,C,B) (%llu differ)",
	   (unsigned long long)bad_l1);
	ok(!bad_c2, "Corollary 2: Asterisk(A down C) + Asterisk(B up D) >= n => disjoint (%llu not)",
	   (unsigned long long)bad_c2);
	ok(!bad_t4, "Theorem 4: Path(A,B), Path(B,A) disjoint for all A != B (%llu not)",
	   (unsigned long long)bad_t4);
	is_int(t2_inst, 673820, "Theorem 2: 673,820 instances for n <= 4 (notes 2.11)");
	ok(!bad_t2, "Theorem 2: Path(C,B) disjoint from Path(E,F) on every one (%llu not)",
	   (unsigned long long)bad_t2);

	/* random quadruples up to n = 20; Theorem 5 configurations */
	bad1 = 0;
	bad_t2 = 0;
	t2_inst = 0;
	for (t = 0; t < 200000; t++) {
		u32 k, hi, f, cc, lo_mask;

		n = 1 + rng_below(&g, MC_CUBE_MAX_DIM);
		N = 1u << n;
		a = rng_below(&g, N);
		b = rng_below(&g, N);
		c = rng_below(&g, 4) ? rng_below(&g, N) : a;
		d = rng_below(&g, 4) ? rng_below(&g, N) : b;
		bad1 += (u32)mc_ring_path_conflicts(n, a, b, c, d) !=
			ref_conflicts(n, a, b, c, d) ||
			(u32)mc_ring_path_conflicts_slow(n, a, b, c, d) !=
			ref_conflicts(n, a, b, c, d);
		/*
		 * Theorem 5: buddy k-subcubes C1 (bit k clear) and C2; A, B,
		 * E, F in C1, Path(A,B) and Path(E,F) disjoint, C in C2 with
		 * C down E <. C down A: Path(A,C), Path(C,B), Path(E,F)
		 * pairwise disjoint.
		 */
		k = rng_below(&g, n);
		lo_mask = (1u << k) - 1;
		hi = rng_below(&g, N) & ~lo_mask & ~(1u << k);
		a = hi | (rng_below(&g, N) & lo_mask);
		b = hi | (rng_below(&g, N) & lo_mask);
		e = hi | (rng_below(&g, N) & lo_mask);
		f = hi | (rng_below(&g, N) & lo_mask);
		cc = hi | 1u << k | (rng_below(&g, N) & lo_mask);
		if (a == e || ref_conflicts(n, a, b, e, f) ||
		    !mc_tern_le(mc_tern_suffix(n, cc, e),
				mc_tern_suffix(n, cc, a)))
			continue;
		t2_inst++;
		bad_t2 += ref_conflicts(n, a, cc, cc, b) ||
			  ref_conflicts(n, a, cc, e, f) ||
			  ref_conflicts(n, cc, b, e, f);
	}
	ok(!bad1, "Theorem 1: closed form = both brute forces, 200000 random quadruples, n = 1..20 (%llu differ)",
	   (unsigned long long)bad1);
	ok(t2_inst > 1000 && !bad_t2,
	   "Theorem 5: %llu random buddy-subcube configurations, all disjoint (%llu not)",
	   (unsigned long long)t2_inst, (unsigned long long)bad_t2);
}

/* ---------------- (d) the worked rings ---------------- */

/* Replay the merge log's first @upto merges on lone nodes: the rings. */
static const char *snapshot(const struct mc_ring *r, u32 kmax)
{
	static char buf[512];
	u32 succ[64], seen[64] = { 0 }, i, j, at, t;
	size_t o = 0;

	for (i = 0; i < r->m; i++)
		succ[i] = i;
	for (j = 0; j < r->nmerge && r->merge[j].k <= kmax; j++) {
		u32 ia = NONE, ic = NONE;

		for (i = 0; i < r->m; i++) {
			if (r->addr[i] == r->merge[j].a)
				ia = i;
			if (r->addr[i] == r->merge[j].c)
				ic = i;
		}
		t = succ[ia];
		succ[ia] = succ[ic];
		succ[ic] = t;
	}
	buf[0] = '\0';
	for (i = 0; i < r->m; i++) {
		if (seen[i])
			continue;
		o += snprintf(buf + o, sizeof(buf) - o, "%s[", o ? " " : "");
		for (at = i; !seen[at]; at = succ[at]) {
			seen[at] = 1;
			o += snprintf(buf + o, sizeof(buf) - o, "%s%u",
				      at == i ? "" : ",", r->addr[at]);
		}
		o += snprintf(buf + o, sizeof(buf) - o, "]");
	}
	return buf;
}

static char *merges_str(const struct mc_ring *r)
{
	static char buf[2048];
	size_t o = 0;
	u32 j;

	buf[0] = '\0';
	for (j = 0; j < r->nmerge; j++) {
		const struct mc_ring_merge *x = &r->merge[j];

		o += snprintf(buf + o, sizeof(buf) - o, "%s(%u,%u,%u,%u,%u,%u)",
			      j ? " " : "", x->k, x->a, x->c, x->old_succ_a,
			      x->old_succ_c, x->asterisk);
	}
	return buf;
}

/* The recursive builder of the notes' 3.2, written here. */
enum tie { TIE_LEX, TIE_RANDOM_MIN, TIE_ANY };

struct ref {
	u32 n;
	const u32 *sel;		/* sorted */
	u32 *succ;
	u32 (*log)[3];		/* (k, A, C) */
	u32 nlog;
	u64 pairs;
	enum tie tie;
	struct rng *g;
};

static void ref_merge(struct ref *R, u32 lo, u32 mid, u32 hi, int b)
{
	u32 a, c, z, A = lo, C = mid, t, ties = 0;
	int best = -1;

	for (a = lo; a < mid; a++) {
		for (c = mid; c < hi; c++) {
			R->pairs++;
			z = ref_ctz(R->sel[a] ^ R->sel[c]);
			if (R->tie == TIE_ANY) {
				/* reservoir: a uniformly random pair */
				if (rng_below(R->g, ++ties) == 0) {
					A = a;
					C = c;
				}
				continue;
			}
			if ((int)z > best) {
				best = (int)z;
				A = a;
				C = c;
				ties = 1;
			} else if ((int)z == best && R->tie == TIE_RANDOM_MIN &&
				   rng_below(R->g, ++ties) == 0) {
				A = a;
				C = c;
			}
		}
	}
	R->log[R->nlog][0] = b + 1;
	R->log[R->nlog][1] = R->sel[A];
	R->log[R->nlog][2] = R->sel[C];
	R->nlog++;
	t = R->succ[A];
	R->succ[A] = R->succ[C];
	R->succ[C] = t;
}

static void ref_rec(struct ref *R, u32 lo, u32 hi, int b)
{
	u32 mid;

	if (hi - lo <= 1 || b < 0)
		return;
	for (mid = lo; mid < hi && !((R->sel[mid] >> b) & 1); mid++)
		;
	ref_rec(R, lo, mid, b - 1);
	ref_rec(R, mid, hi, b - 1);
	if (lo < mid && mid < hi)
		ref_merge(R, lo, mid, hi, b);
}

static int cmp_u32(const void *pa, const void *pb)
{
	u32 a = *(const u32 *)pa, b = *(const u32 *)pb;

	return a < b ? -1 : a > b;
}

/* Sorted copy in @sel, succ, log (room m each): the ring into @order. */
static void ref_build(u32 n, const u32 *set, u32 m, enum tie tie,
		      struct rng *g, u32 *sel, u32 *succ, u32 (*log)[3],
		      u32 *order, u64 *pairs)
{
	struct ref R = { n, sel, succ, log, 0, 0, tie, g };
	u32 i, at = 0;

	memcpy(sel, set, m * sizeof(u32));
	qsort(sel, m, sizeof(u32), cmp_u32);
	for (i = 0; i < m; i++)
		succ[i] = i;
	ref_rec(&R, 0, m, (int)n - 1);
	for (i = 0; i < m; i++) {
		order[i] = sel[at];
		at = succ[at];
	}
	if (pairs)
		*pairs = R.pairs;
}

static bool same_ring(const u32 *a, const u32 *b, u32 m)
{
	return !memcmp(a, b, m * sizeof(u32));
}

static int check_ring(u32 n, const u32 *set, const u32 *order, u32 m,
		      struct mc_ring_check_result *res)
{
	u64 *ws = xcalloc(mc_ring_check_ws_words(n, m), sizeof(u64));
	int rc = mc_ring_check(n, set, order, m, ws, res);

	free(ws);
	return rc;
}

static void golden_48(void)
{
	static const u32 set[] = { 0, 2, 3, 5, 6, 10, 13, 15 };
	static const u32 want[] = { 0, 3, 2, 15, 13, 10, 5, 6 };
	static const char *const valid[4] = {
		"[0,3,2,5,10,15,13,6]", "[0,3,2,5,15,10,13,6]",
		"[0,3,2,13,15,10,5,6]", "[0,3,2,15,13,10,5,6]",
	};
	static const char *const routes[8] = {
		"0000 0010 0011", "0011 0010", "0010 1010 1110 1111",
		"1111 1101", "1101 1001 1011 1010",
		"1010 0010 0110 0100 0101", "0101 0111 0110",
		"0110 0010 0000",
	};
	u32 shuffled[8] = { 13, 5, 0, 15, 6, 2, 10, 3 };
	u32 sel[8], succ[8], log[8][3], order[8], i, t, seen = 0, bad = 0;
	struct mc_ring_check_result res;
	struct mc_ring_stats st;
	struct rng g = { 48 };
	u64 cnt;
	struct tr r;

	tr_build(&r, 4, shuffled, 8);
	ok(same_ring(r.order, want, 8),
	   "4.8: the ring over {0,2,3,5,6,10,13,15} is [0,3,2,15,13,10,5,6] (%s)",
	   ints_str(r.order, 8));
	ok(!strcmp(merges_str(&r.r),
		   "(1,2,3,2,3,4) (2,0,2,0,3,3) (2,5,6,5,6,4) (2,13,15,13,15,3) "
		   "(3,2,6,0,5,2) (3,10,13,10,15,4) (4,2,10,5,15,1)"),
	   "4.8: the merge table (k, A, C, old succ[A], old succ[C], Asterisk): %s",
	   merges_str(&r.r));
	ok(!strcmp(snapshot(&r.r, 1), "[0] [2,3] [5] [6] [10] [13] [15]"),
	   "4.8: after k=1: %s", snapshot(&r.r, 1));
	ok(!strcmp(snapshot(&r.r, 2), "[0,3,2] [5,6] [10] [13,15]"),
	   "4.8: after k=2: %s", snapshot(&r.r, 2));
	ok(!strcmp(snapshot(&r.r, 3), "[0,3,2,5,6] [10,15,13]"),
	   "4.8: after k=3: %s", snapshot(&r.r, 3));
	ok(!strcmp(snapshot(&r.r, 4), "[0,3,2,15,13,10,5,6]"),
	   "4.8: after k=4: %s", snapshot(&r.r, 4));
	for (i = 0; i < 8; i++)
		bad += strcmp(core_path(4, want[i], want[(i + 1) % 8]),
			      routes[i]) != 0;
	ok(!bad, "4.8: the eight routes of Figure 3(b)");
	mc_ring_stats(r.order, 8, &st);
	ok(st.hops == 18 && st.max_hop == 4 && st.paths == 8,
	   "4.8: 18 hops in all, the longest 4 (10 -> 5)");
	ok(!check_ring(4, set, r.order, 8, &res) && !res.what &&
	   res.conflicts == 0, "4.8: the checker passes it");
	ok(!mc_ring_conflicts(4, r.order, 8, &cnt, NULL) && cnt == 0,
	   "4.8: Corollary 1 sum 0");
	is_int(r.r.pairs, 28, "4.8: 28 = m(m-1)/2 pair evaluations");

	/* any minimizer: one of the four rings, each of them reachable */
	for (t = 0; t < 400; t++) {
		char *s;

		ref_build(4, set, 8, TIE_RANDOM_MIN, &g, sel, succ, log, order,
			  NULL);
		s = ints_str(order, 8);
		for (i = 0; i < 4; i++)
			if (!strcmp(s, valid[i]))
				break;
		if (i == 4 || ref_ring_conflicts(4, order, 8)) {
			diag("invalid ring %s", s);
			bad++;
		} else {
			seen |= 1u << i;
		}
	}
	ok(!bad && seen == 15,
	   "4.8: 400 random minimizer tie-breaks: only the 4 valid rings, all 4 seen (mask %#x)",
	   seen);
	tr_free(&r);
}

static void golden_49_410(void)
{
	static const u32 set146[] = { 1, 4, 6 };
	static const u32 want146[] = { 1, 6, 4 };
	static const u32 other146[] = { 1, 4, 6 };
	struct mc_cube_arc arc[16];
	u32 all[16], order[16], i, dims[16];
	struct mc_ring_check_result res;
	struct mc_ring_stats st;
	u64 tot;
	u32 maxgap, k;
	int h;
	struct tr r;

	/* 4.9: the RGC ring */
	for (i = 0; i < 8; i++)
		order[i] = mc_ring_gray(i);
	ok(same_ring(order, (const u32[]){ 0, 1, 3, 2, 6, 7, 5, 4 }, 8),
	   "4.9: the 3-cube RGC ring 0 1 3 2 6 7 5 4 (%s)", ints_str(order, 8));
	for (k = 0, i = 0; i < (1u << 20); i++)
		k += mc_ring_gray_rank(mc_ring_gray(i)) != i ||
		     __builtin_popcount(mc_ring_gray(i) ^
					mc_ring_gray((i + 1) & 0xfffff)) != 1;
	ok(!k, "RGC: gray_rank inverts gray; neighbours on the 20-cube's Gray cycle differ in one bit");
	ok(mc_ring_rgc_order(3, set146, 3, order, NULL) == 0 &&
	   same_ring(order, want146, 3),
	   "4.9: {1,4,6} on the RGC ring: 1, 6, 4");
	h = mc_ring_rgc_path(3, 1, 6, arc, 16);
	for (i = 0; i < (u32)h; i++)
		dims[i] = arc[i].dim;
	ok(h == 3 && dims[0] == 1 && dims[1] == 0 && dims[2] == 2 &&
	   arc[1].node == 3 && arc[2].node == 2,
	   "4.9: RGC message 1 -> 6 through 3 and 2, dims 1, 0, 2");
	h = mc_ring_rgc_path(3, 6, 4, arc, 16);
	for (i = 0; i < (u32)h; i++)
		dims[i] = arc[i].dim;
	ok(h == 3 && dims[0] == 0 && dims[1] == 1 && dims[2] == 0,
	   "4.9: RGC message 6 -> 4: dims 0, 1, 0 (no single dimension order)");
	ok(mc_ring_rgc_gap(3, 4, 1) == 2 && mc_ring_rgc_path(3, 4, 1, arc, 16) == 2,
	   "4.9: the wrap 4 -> 1 is 2 hops");
	tot = 0;
	for (i = 0; i < 3; i++)
		tot += mc_ring_rgc_gap(3, order[i], order[(i + 1) % 3]);
	is_int(tot, 8, "4.9: the RGC sub-ring totals 8 = 2^n hops");
	is_int(mc_ring_rgc_path(3, 1, 6, arc, 2), -ENOSPC,
	       "mc_ring_rgc_path: -ENOSPC without room");

	tr_build(&r, 3, set146, 3);
	ok(same_ring(r.order, want146, 3) &&
	   !strcmp(merges_str(&r.r), "(2,4,6,4,6,2) (3,1,4,1,6,3)"),
	   "4.9: the proposed ring [1,6,4], merges (2,4,6) then (3,1,4) (%s; %s)",
	   ints_str(r.order, 3), merges_str(&r.r));
	ok(!strcmp(core_path(3, 1, 6), "001 101 111 110") &&
	   !strcmp(core_path(3, 6, 4), "110 100") &&
	   !strcmp(core_path(3, 4, 1), "100 000 001"),
	   "4.9: its paths 001-101-111-110, 110-100, 100-000-001");
	mc_ring_stats(r.order, 3, &st);
	is_int(st.hops, 6, "4.9: 6 hops in all");
	ok(!check_ring(3, set146, other146, 3, &res),
	   "4.9: the other valid output [1,4,6] is disjoint too");
	tr_free(&r);

	/* 4.10 */
	for (i = 0; i < 16; i++)
		all[i] = 15 - i;
	tr_build(&r, 3, all + 8, 8);
	mc_ring_stats(r.order, 8, &st);
	ok(same_ring(r.order, (const u32[]){ 0, 7, 6, 5, 4, 3, 2, 1 }, 8) &&
	   st.hops == 14,
	   "4.10: the full 3-cube: [0,7,6,5,4,3,2,1], 14 hops (%s, %llu)",
	   ints_str(r.order, 8), (unsigned long long)st.hops);
	ok(!strcmp(merges_str(&r.r),
		   "(1,0,1,0,1,3) (1,2,3,2,3,3) (1,4,5,4,5,3) (1,6,7,6,7,3) "
		   "(2,0,2,1,3,2) (2,4,6,5,7,2) (3,0,4,3,7,1)"),
	   "4.10: its merges (1,0,1) (1,2,3) (2,0,2) (1,4,5) (1,6,7) (2,4,6) (3,0,4), by level");
	tot = 0;
	maxgap = 0;
	ok(mc_ring_rgc_order(3, all + 8, 8, order, NULL) == 0, "4.10: RGC order of the full 3-cube");
	for (i = 0; i < 8; i++) {
		k = mc_ring_rgc_gap(3, order[i], order[(i + 1) % 8]);
		tot += k;
		maxgap = k > maxgap ? k : maxgap;
	}
	ok(tot == 8 && maxgap == 1, "4.10: the RGC ring: 8 one-hop paths");
	tr_free(&r);
	tr_build(&r, 4, all, 16);
	mc_ring_stats(r.order, 16, &st);
	ok(same_ring(r.order, (const u32[]){ 0, 15, 14, 13, 12, 11, 10, 9, 8,
					     7, 6, 5, 4, 3, 2, 1 }, 16) &&
	   st.hops == 30 && st.max_hop == 4,
	   "4.10: the full 4-cube: [0,15,14,...,1], 30 hops (%s)",
	   ints_str(r.order, 16));
	ok(!check_ring(4, all, r.order, 16, &res), "4.10: full 4-cube ring disjoint");
	tr_free(&r);
	tr_build(&r, 4, (const u32[]){ 9, 5 }, 2);
	ok(same_ring(r.order, (const u32[]){ 5, 9 }, 2) &&
	   !strcmp(core_path(4, 5, 9), "0101 1101 1001") &&
	   !strcmp(core_path(4, 9, 5), "1001 0001 0101") &&
	   !check_ring(4, NULL, r.order, 2, &res),
	   "4.10: {5,9}: ring [5,9], 0101-1101-1001 and 1001-0001-0101, disjoint (Thm 4)");
	tr_free(&r);
	tr_build(&r, 3, (const u32[]){ 7 }, 1);
	mc_ring_stats(r.order, 1, &st);
	ok(r.order[0] == 7 && r.r.succ[0] == 0 && r.r.nmerge == 0 &&
	   st.paths == 0 && st.hops == 0 && st.transfers == 0 &&
	   !check_ring(3, NULL, r.order, 1, &res),
	   "4.10: {7}: one node, succ itself, no paths, no merge");
	tr_free(&r);
	tr_build(&r, 3, NULL, 0);
	mc_ring_stats(r.order, 0, &st);
	ok(r.r.m == 0 && r.r.nmerge == 0 && st.paths == 0 &&
	   !check_ring(3, NULL, r.order, 0, &res),
	   "4.10: the empty set: nothing");
	tr_free(&r);
	tr_build(&r, 3, (const u32[]){ 6, 2, 1, 0 }, 4);
	ok(same_ring(r.order, (const u32[]){ 0, 2, 6, 1 }, 4) &&
	   !strcmp(merges_str(&r.r), "(1,0,1,0,1,3) (2,0,2,1,2,2) (3,2,6,1,6,1)"),
	   "4.10: {0,1,2,6}: ring [0,2,6,1], merges (1,0,1) (2,0,2) (3,2,6) (%s)",
	   merges_str(&r.r));
	ok(!strcmp(core_path(3, 0, 2), "000 010") &&
	   !strcmp(core_path(3, 2, 6), "010 110") &&
	   !strcmp(core_path(3, 6, 1), "110 010 000 001") &&
	   !strcmp(core_path(3, 1, 0), "001 000"),
	   "4.10: {0,1,2,6}: its four paths");
	tr_free(&r);
}

static void golden_411(void)
{
	static const u32 a_bad[] = { 0, 2, 1, 6 };
	static const u32 a_ok[] = { 0, 6, 2, 1 };
	static const u32 b_set[] = { 0, 1, 2, 5, 6 };
	static const u32 b_ring[] = { 0, 2, 1, 6, 5 };
	static const u32 b_rev[] = { 0, 5, 6, 1, 2 };
	struct mc_ring_check_result res;
	struct mc_tern p, q, z;
	u64 cnt;
	struct tr r;
	int rc;

	/* (a) a non-minimal merge */
	ok(check_ring(3, NULL, a_bad, 4, &res) == -EINVAL &&
	   res.conflicts == 1 && res.path_a == 1 && res.path_b == 3 &&
	   res.arc.node == 2 && res.arc.dim == 1 &&
	   !strcmp(res.what, "two ring paths share a link"),
	   "4.11(a): [0,2,1,6] rejected: Path(2,1) (path 1) and Path(6,0) (path 3) share 010 -> 000, dim 1");
	ok(!mc_ring_conflicts(3, a_bad, 4, &cnt, NULL) && cnt == 1 &&
	   ref_ring_conflicts(3, a_bad, 4) == 1,
	   "4.11(a): exactly 1 conflict by Corollary 1 and by brute force");
	p = mc_tern_suffix(3, 2, 6);
	q = mc_tern_prefix(3, 1, 0);
	z = mc_tern_xor(p, q);
	/* the notes print the (x) as "*10", A down C again: Def 3 gives *1* */
	ok(!strcmp(tstr(3, p), "*10") && !strcmp(tstr(3, q), "00*") &&
	   !strcmp(tstr(3, z), "*1*") && mc_tern_one(z) == 1 &&
	   mc_ring_conflict_dims(3, 2, 1, 6, 0) == 2,
	   "4.11(a): 010 down 110 = *10, 001 up 000 = 00*, (x) = *1* (%s), One 1, dimension 1",
	   tstr(3, z));
	ok(!check_ring(3, NULL, a_ok, 4, &res),
	   "4.11(a): the other non-minimal choice [0,6,2,1] happens to be disjoint (gap 8)");

	/* (b) reversal */
	tr_build(&r, 3, b_set, 5);
	ok(same_ring(r.order, b_ring, 5), "4.11(b): {0,1,2,5,6} builds [0,2,1,6,5] (%s)",
	   ints_str(r.order, 5));
	ok(!strcmp(core_path(3, 0, 2), "000 010") &&
	   !strcmp(core_path(3, 2, 1), "010 000 001") &&
	   !strcmp(core_path(3, 1, 6), "001 101 111 110") &&
	   !strcmp(core_path(3, 6, 5), "110 100 101") &&
	   !strcmp(core_path(3, 5, 0), "101 001 000") &&
	   !check_ring(3, b_set, r.order, 5, &res),
	   "4.11(b): its five paths, pairwise disjoint");
	rc = check_ring(3, b_set, b_rev, 5, &res);
	ok(rc == -EINVAL && res.conflicts == 1 && res.path_a == 2 && res.path_b == 4 &&
	   res.arc.node == 2 && res.arc.dim == 1,
	   "4.11(b): the reversed ring [0,5,6,1,2] rejected: Path(6,1) (path 2) and Path(2,0) (path 4) share 010 -> 000 (got %u %u, %s dim %u)",
	   res.path_a, res.path_b, bstr(3, res.arc.node), res.arc.dim);
	ok(!mc_ring_conflicts(3, b_rev, 5, &cnt, NULL) && cnt == 1,
	   "4.11(b): Corollary 1 counts 1");
	tr_free(&r);
}

/* ---------------- (e) errors ---------------- */

static void errors(void)
{
	struct mc_ring_check_result res;
	const char *why;
	u32 set[4], order[4];
	u64 cnt;
	struct tr r;

	tr_alloc(&r, 4, 20);
#define BUILD_FAILS(n_, s_, m_, msg_, desc_) do {			\
		int _rc;						\
									\
		why = NULL;						\
		_rc = mc_ring_build(&r.r, (n_), (s_), (m_), &why);	\
		ok(_rc == -EINVAL && why && !strcmp(why, (msg_)) &&	\
		   r.r.m == 0,						\
		   "build refuses %s: \"%s\"", (desc_), why ? why : "?"); \
	} while (0)
	BUILD_FAILS(0, (const u32[]){ 0 }, 1,
		    "cube dimension out of range (1..20)", "n = 0");
	BUILD_FAILS(21, (const u32[]){ 0 }, 1,
		    "cube dimension out of range (1..20)", "n = 21");
	BUILD_FAILS(3, ((const u32[]){ 1, 8, 2 }), 3,
		    "member is not a node of the cube", "a node outside the cube");
	BUILD_FAILS(3, ((const u32[]){ 1, 5, 2, 5 }), 4,
		    "member repeated", "a repeated node");
	BUILD_FAILS(2, ((const u32[]){ 0, 1, 2, 3, 0 }), 5,
		    "more members than nodes of the cube", "m > 2^n");
#undef BUILD_FAILS
	ok(mc_ring_build(&r.r, 3, (const u32[]){ 9 }, 1, NULL) == -EINVAL,
	   "build: a NULL why is fine");

	/* a successor map that is not one cycle */
	mc_ring_build(&r.r, 3, (const u32[]){ 0, 1, 2, 3 }, 4, NULL);
	r.r.succ[0] = 1;
	r.r.succ[1] = 0;
	r.r.succ[2] = 3;
	r.r.succ[3] = 2;
	is_int(mc_ring_order(&r.r, order), -EINVAL, "order: two cycles refused");
	r.r.succ[0] = 1;
	r.r.succ[1] = 2;
	r.r.succ[2] = 1;
	is_int(mc_ring_order(&r.r, order), -EINVAL,
	       "order: a tail into a cycle refused");
	r.r.succ[2] = 7;
	is_int(mc_ring_order(&r.r, order), -EINVAL,
	       "order: a successor out of range refused");

#define CHECK_FAILS(n_, set_, ord_, m_, msg_, node_, desc_) do {	\
		int _rc = check_ring((n_), (set_), (ord_), (m_), &res);	\
		ok(_rc == -EINVAL && res.what && !strcmp(res.what, (msg_)) && \
		   res.node == (node_),					\
		   "checker refuses %s: \"%s\" node %u", (desc_),	\
		   res.what ? res.what : "(passed)", res.node);		\
	} while (0)
	CHECK_FAILS(0, NULL, ((const u32[]){ 0, 1 }), 2,
		    "cube dimension out of range (1..20)", NONE, "n = 0");
	CHECK_FAILS(3, NULL, ((const u32[]){ 0, 9, 1 }), 3,
		    "ring holds a node outside the cube", 9u, "a node outside");
	CHECK_FAILS(3, NULL, ((const u32[]){ 0, 5, 1, 5 }), 4,
		    "node repeated in the ring", 5u, "a repeat");
	CHECK_FAILS(1, NULL, ((const u32[]){ 0, 1, 0 }), 3,
		    "more ring nodes than nodes of the cube", NONE, "m > 2^n");
	CHECK_FAILS(3, ((const u32[]){ 0, 1, 2 }), ((const u32[]){ 0, 3, 1 }), 3,
		    "a member is not on the ring", 2u, "a member missing");
	CHECK_FAILS(3, ((const u32[]){ 0, 1, 4 }), ((const u32[]){ 0, 3, 1 }), 3,
		    "the ring holds a node not in the member set", 3u,
		    "a stranger on the ring");
	CHECK_FAILS(3, ((const u32[]){ 0, 1, 1 }), ((const u32[]){ 0, 3, 1 }), 3,
		    "member repeated in the set", 1u, "a repeated member");
	CHECK_FAILS(3, ((const u32[]){ 0, 1, 8 }), ((const u32[]){ 0, 3, 1 }), 3,
		    "member set holds a node outside the cube", 8u,
		    "a member outside");
#undef CHECK_FAILS

	why = NULL;
	ok(mc_ring_conflicts(3, (const u32[]){ 0, 8 }, 2, &cnt, &why) == -EINVAL &&
	   why && !strcmp(why, "ring holds a node outside the cube"),
	   "Corollary 1 sum: a node outside refused");
	ok(mc_ring_conflicts(25, (const u32[]){ 0, 1 }, 2, &cnt, &why) == -EINVAL,
	   "Corollary 1 sum: n = 25 refused");
	ok(mc_ring_path_conflicts(0, 0, 0, 0, 0) == -EINVAL &&
	   mc_ring_path_conflicts(3, 0, 8, 1, 2) == -EINVAL &&
	   mc_ring_path_conflicts(21, 0, 1, 1, 0) == -EINVAL &&
	   mc_ring_path_conflicts_slow(3, 0, 1, 16, 2) == -EINVAL,
	   "path conflicts: bad dimension or node outside refused");
	why = NULL;
	ok(mc_ring_rgc_order(3, (const u32[]){ 1, 1 }, 2, set, &why) == -EINVAL &&
	   why && !strcmp(why, "member repeated") &&
	   mc_ring_rgc_path(3, 0, 8, NULL, 0) == -EINVAL,
	   "RGC order and path: bad input refused");
	tr_free(&r);
}

/* ---------------- (f) properties ---------------- */

/* The merges as sorted (k, A, C) triples, to compare orders of logging. */
static int cmp_trip(const void *pa, const void *pb)
{
	const u32 *a = pa, *b = pb;
	int i;

	for (i = 0; i < 3; i++)
		if (a[i] != b[i])
			return a[i] < b[i] ? -1 : 1;
	return 0;
}

/* Each merge maximal and lexicographically first in its subcube. */
static bool merges_maximal(const struct mc_ring *r)
{
	u32 j, i, l, best, ba, bc;
	const struct mc_ring_merge *x;

	for (j = 0; j < r->nmerge; j++) {
		x = &r->merge[j];
		best = 0;
		ba = NONE;
		bc = NONE;
		for (i = 0; i < r->m; i++) {
			if (r->addr[i] >> x->k != x->a >> x->k ||
			    (r->addr[i] >> (x->k - 1)) & 1)
				continue;
			for (l = 0; l < r->m; l++) {
				u32 z;

				if (r->addr[l] >> x->k != x->a >> x->k ||
				    !((r->addr[l] >> (x->k - 1)) & 1))
					continue;
				z = ref_ctz(r->addr[i] ^ r->addr[l]);
				if (ba == NONE || z > best) {
					best = z;
					ba = r->addr[i];
					bc = r->addr[l];
				}
			}
		}
		if (ba != x->a || bc != x->c || x->asterisk != r->n - best ||
		    (x->a >> (x->k - 1)) & 1)
			return false;
	}
	return true;
}

struct pstats {
	u32 runs, bad_build, bad_perm, bad_ref, bad_log, bad_merges, bad_max;
	u32 bad_disjoint, bad_check, bad_hops, bad_tie, bad_xor;
	u32 bad_count, bad_reject, rev_conflicting, sort_conflicting;
	u32 rgc_conflicting, any_conflicting, any_runs;
};

static void property_run(u32 n, u32 m, struct rng *g, struct pstats *ps)
{
	u32 *set = xcalloc(m, sizeof(u32)), *sel = xcalloc(m, sizeof(u32));
	u32 *succ = xcalloc(m, sizeof(u32)), *order = xcalloc(m, sizeof(u32));
	u32 *tmp = xcalloc(m, sizeof(u32)), (*log)[3] = xcalloc(m, sizeof(*log));
	u32 (*mlog)[3] = xcalloc(m, sizeof(*mlog)), i, j, key;
	struct mc_ring_check_result res;
	struct mc_ring_stats st;
	const char *why = NULL;
	u64 pairs, cnt, want;
	struct tr r;
	int rc;

	ps->runs++;
	rng_subset(g, 1u << n, m, set);
	tr_alloc(&r, n, m);
	if (mc_ring_build(&r.r, n, set, m, &why) ||
	    mc_ring_order(&r.r, r.order)) {
		ps->bad_build++;
		diag("n=%u m=%u: build failed: %s", n, m, why ? why : "order");
		goto out;
	}
	/* a permutation of the set, from the smallest */
	memcpy(tmp, r.order, m * sizeof(u32));
	qsort(tmp, m, sizeof(u32), cmp_u32);
	memcpy(sel, set, m * sizeof(u32));
	qsort(sel, m, sizeof(u32), cmp_u32);
	ps->bad_perm += memcmp(tmp, sel, m * sizeof(u32)) != 0 ||
			memcmp(r.r.addr, sel, m * sizeof(u32)) != 0 ||
			(m && r.order[0] != sel[0]);
	/* the notes' recursive pseudocode gives the same ring and merges */
	ref_build(n, set, m, TIE_LEX, g, sel, succ, log, order, &pairs);
	ps->bad_ref += memcmp(succ, r.r.succ, m * sizeof(u32)) != 0 ||
		       !same_ring(order, r.order, m);
	for (j = 0; j < r.r.nmerge; j++) {
		mlog[j][0] = r.r.merge[j].k;
		mlog[j][1] = r.r.merge[j].a;
		mlog[j][2] = r.r.merge[j].c;
	}
	qsort(mlog, r.r.nmerge, sizeof(*mlog), cmp_trip);
	qsort(log, m ? m - 1 : 0, sizeof(*log), cmp_trip);
	want = m ? (u64)m * (m - 1) / 2 : 0;
	ps->bad_log += r.r.nmerge != (m ? m - 1 : 0) ||
		       memcmp(mlog, log, r.r.nmerge * sizeof(*log)) != 0;
	ps->bad_merges += r.r.pairs != want || pairs != want;
	ps->bad_max += !merges_maximal(&r.r);
	/* disjoint three ways */
	ps->bad_disjoint += ref_ring_conflicts(n, r.order, m) != 0 ||
			    mc_ring_conflicts(n, r.order, m, &cnt, NULL) ||
			    cnt != 0;
	rc = mc_ring_check(n, set, r.order, m, r.ws, &res);
	ps->bad_check += rc || res.what || res.conflicts;
	mc_ring_stats(r.order, m, &st);
	cnt = 0;
	for (i = 0; i < st.paths; i++) {
		u32 h = __builtin_popcount(r.order[i] ^ r.order[(i + 1) % m]);

		cnt += h;
		ps->bad_hops += h > n || h == 0;
	}
	ps->bad_hops += cnt != st.hops || st.rounds != (m ? m - 1 : 0) ||
			st.transfers != (u64)m * st.rounds ||
			st.link_transfers != st.hops * st.rounds ||
			st.paths != (m < 2 ? 0 : m);
	/* (g) any minimizer; (h) XOR-translated */
	ref_build(n, set, m, TIE_RANDOM_MIN, g, sel, succ, log, order, NULL);
	ps->bad_tie += ref_ring_conflicts(n, order, m) != 0 ||
		       mc_ring_check(n, set, order, m, r.ws, &res) != 0;
	key = rng_below(g, 1u << n);
	for (i = 0; i < m; i++)
		tmp[i] = set[i] ^ key;
	if (mc_ring_build(&r.r, n, tmp, m, NULL) ||
	    mc_ring_order(&r.r, order) ||
	    mc_ring_check(n, tmp, order, m, r.ws, &res))
		ps->bad_xor++;

	/* rings that may contend: reversed, sorted, RGC, arbitrary merges */
	for (j = 0; j < 4; j++) {
		u32 *c = order;

		if (j == 0) {
			for (i = 0; i < m; i++)
				c[i] = i ? r.order[m - i] : r.order[0];
			mc_ring_build(&r.r, n, set, m, NULL);
		} else if (j == 1) {
			memcpy(c, r.r.addr, m * sizeof(u32));
		} else if (j == 2) {
			mc_ring_rgc_order(n, set, m, c, NULL);
		} else {
			ps->any_runs++;
			ref_build(n, set, m, TIE_ANY, g, sel, succ, log, c, NULL);
		}
		want = ref_ring_conflicts(n, c, m);
		rc = mc_ring_check(n, set, c, m, r.ws, &res);
		ps->bad_count += mc_ring_conflicts(n, c, m, &cnt, NULL) ||
				 cnt != want || res.conflicts != want;
		ps->bad_reject += (rc == -EINVAL) != (want > 0) ||
				  (want > 0 && (!res.what ||
				   res.path_a >= res.path_b ||
				   !mc_ring_path_conflicts(n, c[res.path_a],
					c[(res.path_a + 1) % m], c[res.path_b],
					c[(res.path_b + 1) % m])));
		if (want && j == 0)
			ps->rev_conflicting++;
		if (want && j == 1)
			ps->sort_conflicting++;
		if (want && j == 2)
			ps->rgc_conflicting++;
		if (want && j == 3)
			ps->any_conflicting++;
	}
out:
	tr_free(&r);
	free(set);
	free(sel);
	free(succ);
	free(order);
	free(tmp);
	free(log);
	free(mlog);
}

static void properties(void)
{
	struct rng g = { 2024 };
	struct pstats tot = { 0 };
	u32 n, t, m, cap;

	for (n = 1; n <= 10; n++) {
		struct pstats ps = { 0 };

		cap = (1u << n) < 300 ? 1u << n : 300;
		for (t = 0; t < 300; t++) {
			m = t < 3 ? t : rng_below(&g, cap + 1);
			property_run(n, m, &g, &ps);
		}
		ok(!ps.bad_build && !ps.bad_perm && !ps.bad_ref && !ps.bad_log &&
		   !ps.bad_merges && !ps.bad_max,
		   "n=%u, %u random sets: a single cycle over the set from its smallest, = the notes' recursive builder, m-1 merges, m(m-1)/2 pairs, each maximal (%u %u %u %u %u %u)",
		   n, ps.runs, ps.bad_build, ps.bad_perm, ps.bad_ref,
		   ps.bad_log, ps.bad_merges, ps.bad_max);
		ok(!ps.bad_disjoint && !ps.bad_check && !ps.bad_hops,
		   "n=%u: pairwise disjoint by Thm 1 and brute force, the checker passes, hops <= n, the counts (%u %u %u)",
		   n, ps.bad_disjoint, ps.bad_check, ps.bad_hops);
		ok(!ps.bad_tie && !ps.bad_xor,
		   "n=%u: any minimizer tie-break, and XOR-translated sets, still disjoint (%u %u)",
		   n, ps.bad_tie, ps.bad_xor);
		ok(!ps.bad_count && !ps.bad_reject,
		   "n=%u: reversed, sorted, RGC and arbitrary-merge rings: Cor 1 = checker = brute force, rejected iff > 0 (%u %u)",
		   n, ps.bad_count, ps.bad_reject);
		tot.rev_conflicting += ps.rev_conflicting;
		tot.sort_conflicting += ps.sort_conflicting;
		tot.rgc_conflicting += ps.rgc_conflicting;
		tot.any_conflicting += ps.any_conflicting;
		tot.any_runs += ps.any_runs;
		tot.runs += ps.runs;
	}
	diag("of %u random sets: reversed rings contend in %u, sorted in %u, RGC order (e-cube) in %u, arbitrary merges in %u",
	     tot.runs, tot.rev_conflicting, tot.sort_conflicting,
	     tot.rgc_conflicting, tot.any_conflicting);
	ok(tot.rev_conflicting > 0 && tot.any_conflicting > 0,
	   "the checker finds contention in reversed and arbitrary-merge rings");
	ok(tot.sort_conflicting == 0 && tot.rgc_conflicting == 0,
	   "[observed] sorted-address and RGC-order rings under e-cube routing: never a shared link");
}

/*
 * Every subset of the 1- to 4-cubes: the reversed ring of the builder
 * contends first at m = 5, the smallest such set being {0,1,2,5,6} (notes
 * 4.11(b)); rings in ascending, descending and RGC order never contend
 * (observed here; the notes and the paper say nothing of them).
 */
static void exhaustive(void)
{
	u32 n, mask, i, m, set[16], order[16], rev[16], minm, first;
	u32 nrev[5] = { 0 }, other = 0;
	u64 cnt, c2;
	struct tr r;

	tr_alloc(&r, 4, 16);
	for (n = 1; n <= 4; n++) {
		minm = NONE;
		first = NONE;
		for (mask = 0; mask < 1u << (1u << n); mask++) {
			for (m = 0, i = 0; i < 1u << n; i++)
				if (mask >> i & 1)
					set[m++] = i;
			if (mc_ring_build(&r.r, n, set, m, NULL) ||
			    mc_ring_order(&r.r, r.order)) {
				other++;
				continue;
			}
			for (i = 0; i < m; i++)
				rev[i] = i ? r.order[m - i] : r.order[0];
			mc_ring_conflicts(n, rev, m, &cnt, NULL);
			if (cnt) {
				nrev[n]++;
				/* the least m, then the least mask */
				if (m < minm || (m == minm && mask < first)) {
					minm = m;
					first = mask;
				}
			}
			mc_ring_conflicts(n, set, m, &c2, NULL);
			other += c2 != 0;
			for (i = 0; i < m; i++)
				order[i] = set[m - 1 - i];
			mc_ring_conflicts(n, order, m, &c2, NULL);
			other += c2 != 0;
			mc_ring_rgc_order(n, set, m, order, NULL);
			mc_ring_conflicts(n, order, m, &c2, NULL);
			other += c2 != 0;
		}
		if (n == 3)
			ok(nrev[3] == 12 && minm == 5 && first == 0x67,
			   "4.11(b): 3-cube, every subset: 12 reversed rings contend, the smallest m = 5, first {0,1,2,5,6} (%u, m %u, mask %#x)",
			   nrev[3], minm, first);
	}
	ok(nrev[1] == 0 && nrev[2] == 0 && nrev[4] == 13362,
	   "reversed rings that contend: none on the 1- and 2-cubes, 13362 of 65536 sets on the 4-cube (%u)",
	   nrev[4]);
	ok(!other,
	   "[observed] every subset of the 1- to 4-cubes: ascending, descending and RGC-order rings never share a link (%u do)",
	   other);
	tr_free(&r);
}

/* ---------------- (g) the group multicast ---------------- */

/*
 * Each member sends its own message to its successor; on receipt it keeps
 * it and forwards it unless the successor is the origin.  Rounds: every
 * member sends what it received the round before (a FIFO per member).
 */
static void multicast(void)
{
	struct rng g = { 77 };
	u32 t, bad = 0, bad_round = 0, bad_links = 0, runs = 0;

	for (t = 0; t < 300; t++) {
		u32 n = 1 + rng_below(&g, 8), m = rng_below(&g, (1u << n) + 1);
		u32 *set = xcalloc(m, sizeof(u32));
		u32 *got = xcalloc((u64)m * m, sizeof(u32));
		u32 *ngot = xcalloc(m, sizeof(u32)), *hold = xcalloc(m, sizeof(u32));
		u32 *next = xcalloc(m, sizeof(u32)), *hops = xcalloc(m, sizeof(u32));
		u32 *seen = xcalloc((size_t)m * n + 1, sizeof(u32));
		u64 transfers = 0;
		u32 round, i, j, nseen;
		struct tr r;

		runs++;
		rng_subset(&g, 1u << n, m, set);
		tr_build(&r, n, set, m);
		for (i = 0; i < m; i++)
			hold[i] = i;	/* position of the origin it will send */
		for (round = 1; m >= 2; round++) {
			nseen = 0;
			for (i = 0; i < m; i++)
				next[i] = NONE;
			for (i = 0; i < m; i++) {
				u32 to = (i + 1) % m, arcs[32], h;

				if (hold[i] == NONE)
					continue;
				bad_round += hold[i] !=
					mc_ring_round_origin(m, i, round);
				h = ref_arcs(n, r.order[i], r.order[to], arcs);
				for (j = 0; j < h; j++)
					seen[nseen++] = arcs[j];
				transfers++;
				hops[hold[i]]++;
				got[(u64)to * m + ngot[to]++] = hold[i];
				if (to != hold[i] && (to + 1) % m != hold[i])
					next[to] = hold[i];
			}
			qsort(seen, nseen, sizeof(u32), cmp_u32);
			for (j = 1; j < nseen; j++)
				bad_links += seen[j] == seen[j - 1];
			memcpy(hold, next, m * sizeof(u32));
			for (i = 0; i < m && hold[i] == NONE; i++)
				;
			if (i == m)
				break;
		}
		if (m >= 2)
			bad += round != m - 1;
		bad += transfers != (u64)m * (m ? m - 1 : 0);
		for (i = 0; i < m; i++) {
			bad += ngot[i] != (m ? m - 1 : 0) || (m >= 2 && hops[i] != m - 1);
			/* in ring order: from the nearest upstream first */
			for (j = 0; j < ngot[i]; j++)
				bad += got[(u64)i * m + j] != (i + m - 1 - j) % m;
		}
		tr_free(&r);
		free(set);
		free(got);
		free(ngot);
		free(hold);
		free(next);
		free(hops);
		free(seen);
	}
	ok(!bad, "3.4(7): %u random rings: every member receives each other message once, upstream first; m-1 hops each, m(m-1) transfers, m-1 rounds (%u bad)",
	   runs, bad);
	ok(!bad_round, "the round formula names the message each member forwards (%u bad)",
	   bad_round);
	ok(!bad_links, "no directed link carries two messages in one round (%u)",
	   bad_links);
}

/* ---------------- (h) the comparison of the notes' section 5 ---------------- */

static void comparison(void)
{
	static const struct {
		u32 n, m;
		double hops, maxhop, rgcgap;
	} row[] = {
		{ 4, 2, 4.26, 2.13, 11.78 }, { 4, 4, 8.49, 3.06, 7.70 },
		{ 4, 8, 15.80, 3.26, 4.46 }, { 4, 16, 30.00, 4.00, 1.00 },
		{ 6, 2, 6.14, 3.07, 47.69 }, { 6, 8, 22.41, 4.50, 20.82 },
		{ 6, 32, 69.12, 4.50, 6.35 }, { 8, 4, 15.66, 5.36, 132.24 },
		{ 8, 16, 54.35, 5.81, 52.48 }, { 8, 32, 95.80, 5.73, 31.10 },
		{ 10, 8, 37.54, 6.94, 348.60 }, { 10, 32, 126.32, 7.15, 129.55 },
	};
	struct rng g = { 3 };
	unsigned int i;
	u32 t, j;

	for (i = 0; i < ARRAY_SIZE(row); i++) {
		u32 n = row[i].n, m = row[i].m, set[32], order[32];
		double h = 0, mh = 0, gap = 0;
		u32 rgc_total_bad = 0;
		struct mc_ring_stats st;
		struct tr r;

		for (t = 0; t < 2000; t++) {
			u64 tot = 0;
			u32 mx = 0, k;

			rng_subset(&g, 1u << n, m, set);
			tr_build(&r, n, set, m);
			mc_ring_stats(r.order, m, &st);
			h += st.hops;
			mh += st.max_hop;
			tr_free(&r);
			mc_ring_rgc_order(n, set, m, order, NULL);
			for (j = 0; j < m; j++) {
				k = mc_ring_rgc_gap(n, order[j], order[(j + 1) % m]);
				tot += k;
				mx = k > mx ? k : mx;
			}
			gap += mx;
			rgc_total_bad += tot != 1u << n;
		}
		h /= 2000;
		mh /= 2000;
		gap /= 2000;
		ok(h > row[i].hops * 0.95 && h < row[i].hops * 1.05 &&
		   mh > row[i].maxhop * 0.95 && mh < row[i].maxhop * 1.05 &&
		   gap > row[i].rgcgap * 0.93 && gap < row[i].rgcgap * 1.07 &&
		   !rgc_total_bad,
		   "5: n=%u m=%u, 2000 sets: mean hops %.2f (notes %.2f), max hop %.2f (%.2f), RGC total 2^n, max gap %.2f (%.2f)",
		   n, m, h, row[i].hops, mh, row[i].maxhop, gap, row[i].rgcgap);
	}
}

int main(void)
{
	operators();
	golden_pairs();
	theorems();
	golden_48();
	golden_49_410();
	golden_411();
	errors();
	properties();
	exhaustive();
	multicast();
	comparison();
	return done_testing();
}
