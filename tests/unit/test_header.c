/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * Worm headers: multi-destination (Fig 5.9) and compound (Fig 6.2).
 * Run under ASan: every decode reads from a malloc'd buffer of exactly the
 * length it is given, so a read past the end is caught.
 */
#include "tutil.h"
#include "header.h"

static u32 be32(const u8 *p)
{
	return (u32)p[0] << 24 | (u32)p[1] << 16 | (u32)p[2] << 8 | p[3];
}

static void put32(u8 *p, u32 v)
{
	p[0] = (u8)(v >> 24);
	p[1] = (u8)(v >> 16);
	p[2] = (u8)(v >> 8);
	p[3] = (u8)v;
}

/* A copy of @src[0..len) in a buffer of exactly @len bytes. */
static u8 *exact(const u8 *src, size_t len)
{
	u8 *p = malloc(len);

	if (!p && len) {
		perror("malloc");
		exit(2);
	}
	if (len)
		memcpy(p, src, len);
	return p;
}

/* Random distinct-neighbour list (what a worm header may hold). */
static void rand_list(struct rng *r, u32 nodes, u32 n, u32 *out)
{
	u32 i;

	for (i = 0; i < n; i++) {
		do
			out[i] = rng_below(r, nodes);
		while (i && out[i] == out[i - 1]);
	}
}

/* ---------------- multi-destination ---------------- */

static void test_md_example(void)
{
	/* Sec 5.4 worm from (3,2) in 6x6: (4,3) (4,5) (5,1) (5,4) (0,5)
	 * (1,0) (1,2) (2,1) (3,4); node index = 6*s1 + s0. */
	static const u32 d[9] = { 27, 29, 31, 34, 5, 6, 8, 13, 22 };
	u8 buf[64], *ex;
	u32 out[16], nd = 0, i, bad = 0;
	size_t used = 0, u2 = 0;
	int rc;

	memset(buf, 0xee, sizeof(buf));
	rc = mc_hdr_md_encode(buf, sizeof(buf), d, 9, &used);
	is_int(rc, 0, "md encode of the Sec 5.4 worm");
	is_int(used, 40, "md header: 9 addresses + the last again = 40 bytes");
	is_int(mc_hdr_md_size(9), 40, "mc_hdr_md_size(9) = 40");
	for (i = 0; i < 9; i++)
		if (be32(buf + 4 * i) != d[i])
			bad++;
	is_int(bad, 0, "md header words are the addresses, big-endian, in visiting order");
	is_int(be32(buf + 36), 22, "md header ends with the last address (3,4) written twice");
	is_int(buf[40], 0xee, "md encode writes nothing past its size");
	ex = exact(buf, 40);
	rc = mc_hdr_md_decode(ex, 40, 36, out, 16, &nd, &u2);
	ok(rc == 0 && nd == 9 && u2 == 40 && !memcmp(out, d, sizeof(d)),
	   "md decode gives the 9 addresses back (rc %d, n %u, used %zu)", rc, nd, u2);
	free(ex);
	/* with a body after the header */
	memcpy(buf + 40, "BODY", 4);
	ex = exact(buf, 44);
	rc = mc_hdr_md_decode(ex, 44, 36, out, 16, &nd, &u2);
	ok(rc == 0 && nd == 9 && u2 == 40, "md decode stops at the end mark; the body starts at 40");
	free(ex);
	/* a router strips its own address: the rest still decodes */
	ex = exact(buf + 4, 36);
	rc = mc_hdr_md_decode(ex, 36, 36, out, 16, &nd, &u2);
	ok(rc == 0 && nd == 8 && out[0] == 29 && u2 == 36,
	   "md header minus its first address decodes to the remaining 8");
	free(ex);
	/* one destination: [a, a] */
	rc = mc_hdr_md_encode(buf, 8, d, 1, &used);
	ok(rc == 0 && used == 8 && be32(buf) == 27 && be32(buf + 4) == 27,
	   "md header of one destination is its address twice");
	/* the node count bounds addresses: 27 is out of a 27-node torus */
	ex = exact(buf, 8);
	rc = mc_hdr_md_decode(ex, 8, 27, out, 16, &nd, &u2);
	is_int(rc, -EBADMSG, "md decode rejects address 27 in a 27-node torus");
	rc = mc_hdr_md_decode(ex, 8, 28, out, 16, &nd, &u2);
	ok(rc == 0 && nd == 1, "md decode accepts address 27 in a 28-node torus");
	free(ex);
}

static void test_md_errors(void)
{
	static const u32 d[4] = { 1, 2, 3, 4 };
	u8 *buf;
	u32 out[8], nd;
	size_t used;
	int rc;
	size_t cap;

	rc = mc_hdr_md_encode((u8 *)out, sizeof(out), d, 0, &used);
	is_int(rc, -EINVAL, "md encode of zero destinations: -EINVAL");
	for (cap = 0; cap < 20; cap++) {
		buf = malloc(cap ? cap : 1);
		rc = mc_hdr_md_encode(buf, cap, d, 4, &used);
		if (!ok(rc == -EMSGSIZE || rc == -ENOSPC,
			"md encode of 4 into %zu bytes (< 20): -EMSGSIZE (rc %d)", cap, rc))
			break;
		free(buf);
	}
	buf = malloc(20);
	rc = mc_hdr_md_encode(buf, 20, d, 4, &used);
	ok(rc == 0 && used == 20, "md encode of 4 into exactly 20 bytes");
	/* -ENOSPC: room for fewer addresses than the header holds */
	rc = mc_hdr_md_decode(buf, 20, 16, out, 3, &nd, &used);
	is_int(rc, -ENOSPC, "md decode of 4 into room for 3: -ENOSPC");
	rc = mc_hdr_md_decode(buf, 20, 16, out, 4, &nd, &used);
	ok(rc == 0 && nd == 4, "md decode of 4 into room for exactly 4");
	rc = mc_hdr_md_decode(buf, 20, 16, out, 0, &nd, &used);
	ok(rc == -ENOSPC || rc == -EBADMSG, "md decode with max = 0 fails (rc %d)", rc);
	free(buf);
	/* an address equal to its predecessor would end the list early */
	{
		static const u32 dd[3] = { 5, 5, 6 };
		u8 b2[16];

		rc = mc_hdr_md_encode(b2, sizeof(b2), dd, 3, &used);
		ok(rc != 0, "md encode refuses a repeated consecutive address (rc %d)", rc);
	}
}

static void test_md_random(void)
{
	struct rng rng = { 0x4ead0001ull };
	unsigned int trial, bad_rt = 0, bad_trunc = 0, bad_sz = 0;

	for (trial = 0; trial < 300; trial++) {
		u32 nodes = 2 + rng_below(&rng, trial % 2 ? 50 : MC_MAX_NODES - 2);
		u32 n = 1 + rng_below(&rng, 40), *d = xmalloc(n * sizeof(u32));
		u32 *out = xmalloc((n + 1) * sizeof(u32)), nd = 0;
		size_t sz = mc_hdr_md_size(n), used = 0, L;
		u8 *buf = xmalloc(sz), *ex;
		int rc;

		rand_list(&rng, nodes, n, d);
		rc = mc_hdr_md_encode(buf, sz, d, n, &used);
		if (rc || used != sz)
			bad_sz++;
		ex = exact(buf, sz);
		rc = mc_hdr_md_decode(ex, sz, nodes, out, n + 1, &nd, &used);
		if (rc || nd != n || used != sz || memcmp(out, d, n * sizeof(u32))) {
			if (!bad_rt++)
				diag("md round trip: trial %u n=%u nodes=%u rc=%d nd=%u", trial,
				     n, nodes, rc, nd);
		}
		free(ex);
		for (L = 0; L < sz; L++) {
			ex = exact(buf, L);
			rc = mc_hdr_md_decode(ex, L, nodes, out, n + 1, &nd, &used);
			if (rc != -EBADMSG) {
				if (!bad_trunc++)
					diag("md truncated to %zu of %zu bytes (trial %u): rc %d", L,
					     sz, trial, rc);
			}
			free(ex);
		}
		free(buf);
		free(d);
		free(out);
	}
	is_int(bad_sz, 0, "md encode: 300 random lists, size (n+1)*4");
	is_int(bad_rt, 0, "md round trip on 300 random lists (1..40 addresses)");
	is_int(bad_trunc, 0, "md decode of every truncation (every byte length) is -EBADMSG");
}

static void test_md_garbage(void)
{
	struct rng rng = { 0x6a7ba6eull };
	unsigned int trial, crash_free = 0, decoded = 0, bad = 0;

	for (trial = 0; trial < 4000; trial++) {
		size_t len = rng_below(&rng, 64), i, used = 0;
		u32 nodes = 1 + rng_below(&rng, 8), max = (u32)(len / 4 + 2), nd = 0;
		u8 *g = xmalloc(len + 1), *ex;
		u32 *out = xmalloc(max * sizeof(u32));
		int rc;

		/* words from a small alphabet, so ends and valid lists occur */
		for (i = 0; i + 4 <= len; i += 4)
			put32(g + i, trial % 4 ? rng_below(&rng, nodes + 2) :
					 (u32)rng_next(&rng));
		for (; i < len; i++)
			g[i] = (u8)rng_next(&rng);
		ex = exact(g, len);
		rc = mc_hdr_md_decode(ex, len, nodes, out, max, &nd, &used);
		crash_free++;
		if (rc == 0) {
			u8 *re = xmalloc(used + 4);
			size_t u2 = 0;
			u32 j;
			bool fine = nd >= 1 && nd <= max && used == mc_hdr_md_size(nd) &&
				    used <= len;

			for (j = 0; fine && j < nd; j++)
				if (out[j] >= nodes || (j && out[j] == out[j - 1]))
					fine = false;
			if (fine)
				fine = !mc_hdr_md_encode(re, used, out, nd, &u2) && u2 == used &&
				       !memcmp(re, g, used);
			if (!fine && !bad++)
				diag("md garbage trial %u: decoded %u addresses inconsistently", trial, nd);
			decoded++;
			free(re);
		} else if (rc != -EBADMSG) {
			if (!bad++)
				diag("md garbage trial %u: rc %d", trial, rc);
		}
		free(ex);
		free(g);
		free(out);
	}
	ok(crash_free == 4000 && !bad,
	   "md decode of 4000 garbage buffers: -EBADMSG or a consistent decode (%u decoded)",
	   decoded);
}

/* ---------------- compound ---------------- */

static void test_compound_example(void)
{
	/* Md-torus phase 1 of the Sec 5.4 example (6x6): entries (4,3) {(4,5)},
	 * (5,1) {(5,4)}, (0,5) {}, (1,0) {(1,2)}, (2,1) {}, (3,4) {}. */
	static const struct mc_hdr_entry ent[6] = {
		{ 27, 1, 0 }, { 31, 1, 1 }, { 5, 0, 2 }, { 6, 1, 2 }, { 13, 0, 3 }, { 22, 0, 3 },
	};
	static const u32 piece[3] = { 29, 34, 8 };
	static const u32 words[16] = {
		27, 1, 29, 31, 1, 34, 5, 0, 6, 1, 8, 13, 0, 22, 0, 22,
	};
	struct mc_hdr_entry got[8];
	u32 gp[8], ne = 0, i, bad = 0;
	u8 buf[80], *ex;
	size_t used = 0, u2 = 0;
	int rc;

	memset(buf, 0xee, sizeof(buf));
	is_int(mc_hdr_compound_size(6, 3), 64, "mc_hdr_compound_size(6, 3) = 64");
	rc = mc_hdr_compound_encode(buf, sizeof(buf), ent, 6, piece, &used);
	ok(rc == 0 && used == 64, "compound encode of the Md-torus phase-1 worm: 64 bytes (rc %d, %zu)",
	   rc, used);
	for (i = 0; i < 16; i++)
		if (be32(buf + 4 * i) != words[i])
			bad++;
	is_int(bad, 0, "compound layout: u_i, w_i, list, ..., last address twice (Fig 6.2)");
	is_int(buf[64], 0xee, "compound encode writes nothing past its size");
	ex = exact(buf, 64);
	rc = mc_hdr_compound_decode(ex, 64, 36, got, 8, gp, 8, &ne, &u2);
	ok(rc == 0 && ne == 6 && u2 == 64, "compound decode: 6 entries, 64 bytes (rc %d)", rc);
	bad = 0;
	for (i = 0; rc == 0 && i < 6; i++) {
		if (got[i].node != ent[i].node || got[i].count != ent[i].count ||
		    (got[i].count && got[i].first + got[i].count > 8))
			bad++;
		else if (got[i].count &&
			 memcmp(gp + got[i].first, piece + ent[i].first, got[i].count * 4))
			bad++;
	}
	is_int(bad, 0, "compound decode gives back every entry and its list");
	free(ex);

	/* -ENOSPC */
	ex = exact(buf, 64);
	rc = mc_hdr_compound_decode(ex, 64, 36, got, 5, gp, 8, &ne, &u2);
	is_int(rc, -ENOSPC, "compound decode with room for 5 of 6 entries: -ENOSPC");
	rc = mc_hdr_compound_decode(ex, 64, 36, got, 6, gp, 2, &ne, &u2);
	is_int(rc, -ENOSPC, "compound decode with room for 2 of 3 list addresses: -ENOSPC");
	rc = mc_hdr_compound_decode(ex, 64, 36, got, 6, gp, 3, &ne, &u2);
	ok(rc == 0 && ne == 6, "compound decode with exactly enough room");
	/* out of range: 35 nodes is too few for address... 34 is fine; 34 in a 34-node torus */
	rc = mc_hdr_compound_decode(ex, 64, 34, got, 8, gp, 8, &ne, &u2);
	is_int(rc, -EBADMSG, "compound decode rejects list address 34 in a 34-node torus");
	rc = mc_hdr_compound_decode(ex, 64, 27, got, 8, gp, 8, &ne, &u2);
	is_int(rc, -EBADMSG, "compound decode rejects destination 27 in a 27-node torus");
	free(ex);

	/* a count larger than what is left */
	{
		u8 b2[80];

		memcpy(b2, buf, 64);
		put32(b2 + 4, 1000);	/* w_0 */
		ex = exact(b2, 64);
		rc = mc_hdr_compound_decode(ex, 64, 36, got, 8, gp, 2000, &ne, &u2);
		is_int(rc, -EBADMSG, "compound decode rejects a count larger than the rest");
		free(ex);
		put32(b2 + 4, 0xffffffffu);
		ex = exact(b2, 64);
		rc = mc_hdr_compound_decode(ex, 64, 36, got, 8, gp, 8, &ne, &u2);
		is_int(rc, -EBADMSG, "compound decode rejects count 0xffffffff");
		free(ex);
		memcpy(b2, buf, 64);
		put32(b2 + 56, 2);	/* w of the last entry (3,4): 2 words left, need terminator */
		ex = exact(b2, 64);
		rc = mc_hdr_compound_decode(ex, 64, 36, got, 8, gp, 8, &ne, &u2);
		is_int(rc, -EBADMSG, "compound decode: last count eats the end mark -> -EBADMSG");
		free(ex);
	}
	/* encode errors */
	rc = mc_hdr_compound_encode(buf, sizeof(buf), ent, 0, piece, &used);
	is_int(rc, -EINVAL, "compound encode of zero entries: -EINVAL");
	{
		size_t cap;
		unsigned int badcap = 0;

		for (cap = 0; cap < 64; cap++) {
			u8 *p = malloc(cap ? cap : 1);

			rc = mc_hdr_compound_encode(p, cap, ent, 6, piece, &used);
			if (rc != -EMSGSIZE && rc != -ENOSPC)
				badcap++;
			free(p);
		}
		is_int(badcap, 0, "compound encode into every cap < 64: -EMSGSIZE, no write past cap");
	}
}

static void test_compound_random(void)
{
	struct rng rng = { 0xc0404dull };
	unsigned int trial, bad_rt = 0, bad_trunc = 0;

	for (trial = 0; trial < 250; trial++) {
		u32 nodes = 2 + rng_below(&rng, trial % 2 ? 30 : 1u << 20);
		u32 ne = 1 + rng_below(&rng, 10), np = 0, i;
		struct mc_hdr_entry *e = xcalloc(ne, sizeof(*e)), *ge = xcalloc(ne, sizeof(*e));
		u32 *p, *gp, gne = 0, *nd = xmalloc(ne * sizeof(u32));
		size_t sz, used = 0, L;
		u8 *buf, *ex;
		int rc;

		rand_list(&rng, nodes, ne, nd);
		for (i = 0; i < ne; i++) {
			e[i].node = nd[i];
			e[i].count = trial % 5 == 0 ? 0 : rng_below(&rng, 6);
			e[i].first = np;
			np += e[i].count;
		}
		p = xmalloc((np + 1) * sizeof(u32));
		gp = xmalloc((np + 1) * sizeof(u32));
		for (i = 0; i < np; i++)
			p[i] = rng_below(&rng, nodes);
		sz = mc_hdr_compound_size(ne, np);
		buf = xmalloc(sz);
		rc = mc_hdr_compound_encode(buf, sz, e, ne, p, &used);
		ex = exact(buf, sz);
		if (!rc)
			rc = mc_hdr_compound_decode(ex, sz, nodes, ge, ne, gp, np, &gne, &used);
		if (rc || gne != ne || used != sz) {
			if (!bad_rt++)
				diag("compound round trip trial %u: rc %d, %u entries", trial, rc, gne);
		} else {
			for (i = 0; i < ne; i++)
				if (ge[i].node != e[i].node || ge[i].count != e[i].count ||
				    (e[i].count && (ge[i].first + ge[i].count > np ||
				     memcmp(gp + ge[i].first, p + e[i].first, e[i].count * 4)))) {
					if (!bad_rt++)
						diag("compound round trip trial %u: entry %u differs", trial, i);
					break;
				}
		}
		free(ex);
		for (L = 0; L < sz; L++) {
			ex = exact(buf, L);
			rc = mc_hdr_compound_decode(ex, L, nodes, ge, ne, gp, np, &gne, &used);
			if (rc != -EBADMSG && !bad_trunc++)
				diag("compound truncated to %zu of %zu (trial %u): rc %d", L, sz, trial, rc);
			free(ex);
		}
		free(buf);
		free(e);
		free(ge);
		free(p);
		free(gp);
		free(nd);
	}
	is_int(bad_rt, 0, "compound round trip on 250 random headers (some empty lists)");
	is_int(bad_trunc, 0, "compound decode of every truncation is -EBADMSG");
}

static void test_compound_garbage(void)
{
	struct rng rng = { 0x6a7b2ull };
	unsigned int trial, decoded = 0, bad = 0;

	for (trial = 0; trial < 4000; trial++) {
		size_t len = rng_below(&rng, 80), i, used = 0;
		u32 nodes = 1 + rng_below(&rng, 6), me = (u32)(len / 4 + 2), ne = 0;
		u8 *g = xmalloc(len + 1), *ex;
		struct mc_hdr_entry *e = xcalloc(me, sizeof(*e));
		u32 *p = xmalloc(me * sizeof(u32));
		int rc;

		for (i = 0; i + 4 <= len; i += 4)
			put32(g + i, trial % 4 ? rng_below(&rng, nodes + 2) :
					 (u32)rng_next(&rng));
		for (; i < len; i++)
			g[i] = (u8)rng_next(&rng);
		ex = exact(g, len);
		rc = mc_hdr_compound_decode(ex, len, nodes, e, me, p, me, &ne, &used);
		if (rc == 0) {
			u32 np = 0, j;
			bool fine = ne >= 1 && used <= len;
			u8 *re;
			size_t u2 = 0;

			for (j = 0; fine && j < ne; j++) {
				if (e[j].node >= nodes || (j && e[j].node == e[j - 1].node) ||
				    e[j].first + e[j].count > me)
					fine = false;
				np += e[j].count;
			}
			for (j = 0; fine && j < np; j++)
				if (p[j] >= nodes)
					fine = false;
			re = xmalloc(used + 8);
			if (fine)
				fine = used == mc_hdr_compound_size(ne, np) &&
				       !mc_hdr_compound_encode(re, used, e, ne, p, &u2) &&
				       u2 == used && !memcmp(re, g, used);
			if (!fine && !bad++)
				diag("compound garbage trial %u: inconsistent decode (%u entries)", trial, ne);
			decoded++;
			free(re);
		} else if (rc != -EBADMSG) {
			if (!bad++)
				diag("compound garbage trial %u: rc %d", trial, rc);
		}
		free(ex);
		free(g);
		free(e);
		free(p);
	}
	ok(!bad, "compound decode of 4000 garbage buffers: -EBADMSG or a consistent decode (%u decoded)",
	   decoded);
}

int main(void)
{
	test_md_example();
	test_md_errors();
	test_md_random();
	test_md_garbage();
	test_compound_example();
	test_compound_random();
	test_compound_garbage();
	return done_testing();
}
