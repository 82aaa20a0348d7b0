// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The torus algorithms as mcast.ko runs them, against mcastctl plan's
 * (mc_plan, the schedule the checkers verify).
 *
 * mc_plan plans a whole multicast over one sorted chain seen through a
 * rotation.  The kernel never holds that view: data_send.c copies the
 * chain out rotated to the source (job->nodes), data_rx.c gives every
 * receiver only its piece from the network, and data_spread.c runs
 * mc_sender from position 0 over each such array (mc_chain_piece).  Here
 * every holder does exactly that, with the same calls: the root sorts and
 * rotates (mc_chain_sort, mc_chain_rotate) and copies out; each receiver
 * checks its piece (mc_algo_piece_verify) and spreads it at the level
 * and in the step it received; a path-based holder sends all of a worm's
 * destinations in one step, a tree holder one destination a step.  The
 * messages (step, sender, each destination and its piece) must equal
 * mc_plan's, for every algorithm, on many tori, sources and member sets.
 *
 * A case "straddles" when some holder's array crosses the order's wrap
 * point and a node after the wrap agrees with the array's first node on a
 * dimension partitioning could split by: the cases where a search that
 * takes the array's end for the wrap point goes wrong (Md-torus on
 * 83f70cb).  The test counts them and requires many.
 */
#include <stdlib.h>
#include <string.h>

#include "tsched.h"

struct holder {
	u32 *nodes;
	u32 len;
	u32 step;
	u8 level;
};

struct run {
	struct holder *h;
	u32 nh;
	struct canon c;
	bool straddles;
};

/* A dimension >= some d on which the array's first and a node after its wrap agree. */
static bool straddles(const struct mc_torus *t, const u32 *nodes, u32 len)
{
	u32 first = mc_hlabel(t, nodes[0]), prev = first, i;
	unsigned int d;

	for (i = 1; i < len; i++) {
		u32 l = mc_hlabel(t, nodes[i]);

		if (l < prev)
			break;
		prev = l;
	}
	for (; i < len; i++)
		for (d = 1; d < t->n; d++)
			if (mc_hlabel(t, nodes[i]) / t->stride[d] ==
			    first / t->stride[d])
				return true;
	return false;
}

static u32 *copy_nodes(const u32 *a, u32 n)
{
	u32 *b = xmalloc(n * sizeof(u32));

	memcpy(b, a, n * sizeof(u32));
	return b;
}

/* What data_send.c does: the order rotated to @src, copied out. */
static const char *root_array(const struct mc_torus *t, enum mc_algo algo,
			      u32 src, const u32 *dst, u32 nd, struct holder *h)
{
	u32 m = nd + 1, *chain = xmalloc(m * sizeof(u32)), i;
	struct mc_chain c;

	chain[0] = src;
	memcpy(chain + 1, dst, nd * sizeof(u32));
	if (mc_chain_sort(t, mc_algo_order(algo), chain, m, NULL) ||
	    mc_chain_rotate(t, mc_algo_order(algo), chain, m, src, &c)) {
		free(chain);
		return "sort/rotate failed";
	}
	h->nodes = xmalloc(m * sizeof(u32));
	for (i = 0; i < m; i++)
		h->nodes[i] = mc_chain_at(&c, i);
	h->len = m;
	h->step = 0;
	/* data_send.c: job->level is n for md-torus, else 0 */
	h->level = algo == MC_ALGO_MDTORUS ? t->n : 0;
	free(chain);
	return NULL;
}

/* What data_spread.c does at one holder; its receivers are appended. */
static const char *spread(const struct mc_torus *t, enum mc_algo algo, u32 r,
			  struct run *run, u32 hi, u32 m)
{
	struct holder h = run->h[hi];
	bool path = mc_algo_is_path_based(algo);
	struct mc_dest *d = xcalloc(h.len ? h.len : 1, sizeof(*d));
	const char *err = NULL;
	struct mc_sender s;
	enum mc_algo as = path ? algo : algo == MC_ALGO_SEPARATE ?
			  MC_ALGO_SEPARATE : MC_ALGO_UTORUS;
	struct mc_chain c;
	u32 step = h.step;
	int k, i;

	if (h.len < 2)
		goto out;
	if (mc_algo_is_mtorus(algo) && straddles(t, h.nodes, h.len))
		run->straddles = true;
	/* data_spread.c: trees are U-torus's halving, or separate's list */
	mc_chain_piece(&c, h.nodes, h.len);
	mc_sender_init(&s, t, &c, as, path ? r : 0,
		       0, h.len, path ? h.level : 0);
	while (!err && (k = mc_sender_next(&s, d, path ? h.len : 1)) > 0) {
		u32 *w;

		step++;
		if (run->c.n >= m || run->nh + (u32)k > m) {
			err = "more messages than destinations";
			break;
		}
		w = canon_msg(step, h.nodes[0], (u32)k);
		run->c.msg[run->c.n++] = w;
		for (i = 0; i < k; i++) {
			struct holder *x = &run->h[run->nh];

			if (d[i].pos >= h.len || d[i].len > h.len - d[i].pos) {
				err = "a destination outside the holder's piece";
				break;
			}
			w[3 + 2 * i] = h.nodes[d[i].pos];
			w[4 + 2 * i] = d[i].len;
			/* data_rx.c: the receiver gets its piece, checks it */
			x->nodes = copy_nodes(h.nodes + d[i].pos, d[i].len);
			x->len = d[i].len;
			x->step = step;
			x->level = d[i].level;
			run->nh++;
			if (mc_algo_piece_verify(t, algo, x->nodes, x->len,
						 NULL)) {
				err = "a receiver refuses its piece";
				break;
			}
		}
	}
	if (!err && k < 0)
		err = "mc_sender_next failed";
out:
	free(d);
	return err;
}

static const char *datapath(const struct mc_torus *t, enum mc_algo algo,
			    u32 r, u32 src, const u32 *dst, u32 nd,
			    struct run *run)
{
	u32 m = nd + 1, i;
	const char *err;

	run->h = xcalloc(m, sizeof(*run->h));
	run->nh = 1;
	run->c.n = 0;
	run->c.msg = xcalloc(m, sizeof(u32 *));
	run->straddles = false;
	err = root_array(t, algo, src, dst, nd, &run->h[0]);
	for (i = 0; !err && i < run->nh; i++)
		err = spread(t, algo, r, run, i, m);
	canon_sort(&run->c);
	return err;
}

static void run_free(struct run *run)
{
	u32 i;

	for (i = 0; i < run->nh; i++)
		free(run->h[i].nodes);
	free(run->h);
	canon_free(&run->c);
}

struct tally {
	u32 cases, equal, straddle, straddle_equal;
	bool shown;
};

/*
 * Separate addressing sends in the order it is given; the kernel's is the
 * R-chain rotated to the source, so the plan is asked for that order.
 */
static void kernel_separate_order(const struct mc_torus *t, u32 src,
				  u32 *dst, u32 nd)
{
	struct holder h;

	if (root_array(t, MC_ALGO_UTORUS, src, dst, nd, &h))
		return;
	memcpy(dst, h.nodes + 1, nd * sizeof(u32));
	free(h.nodes);
}

static void one_case(const struct mc_torus *t, enum mc_algo algo, u32 r,
		     u32 src, u32 *dst, u32 nd, struct tally *ty,
		     const char *name)
{
	struct sbuf b;
	struct canon plan;
	struct run run;
	const char *why = NULL, *err;
	long diff = 0;

	if (algo == MC_ALGO_SEPARATE)
		kernel_separate_order(t, src, dst, nd);
	sbuf_init(&b, nd + 1);
	if (mc_plan(&b.s, t, algo, r, src, dst, nd, &why)) {
		diag("%s %s from %s: mc_plan refused: %s", shape_str(t), name,
		     nstr(t, src), why ? why : "?");
		ty->cases++;
		sbuf_free(&b);
		return;
	}
	canon_of(&b.s, &plan);
	err = datapath(t, algo, r, src, dst, nd, &run);
	if (!err)
		diff = canon_diff(&plan, &run.c);
	ty->cases++;
	ty->straddle += run.straddles;
	if (!err && diff < 0) {
		ty->equal++;
		ty->straddle_equal += run.straddles;
	} else if (!ty->shown) {
		ty->shown = true;
		diag("%s %s from %s, m=%u: %s", shape_str(t), name,
		     nstr(t, src), nd + 1, err ? err : "messages differ");
		if (!err) {
			canon_diag(t, "plan  ", &plan, (u32)diff);
			canon_diag(t, "kernel", &run.c, (u32)diff);
		}
	}
	run_free(&run);
	canon_free(&plan);
	sbuf_free(&b);
}

static const struct shape {
	unsigned int n;
	u16 k[4];
	bool path;	/* equal radices: the path-based ones run too */
} shapes[] = {
	{ 2, { 4, 4 }, true },
	{ 2, { 5, 5 }, true },
	{ 2, { 6, 6 }, true },
	{ 2, { 8, 8 }, true },
	{ 3, { 3, 3, 3 }, true },
	{ 3, { 4, 4, 4 }, true },
	{ 3, { 5, 5, 5 }, true },
	{ 4, { 3, 3, 3, 3 }, true },
	{ 2, { 5, 7 }, false },
	{ 3, { 7, 5, 3 }, false },
};

static const struct {
	enum mc_algo algo;
	u32 r;
	const char *name;
	bool path;
} algos[] = {
	{ MC_ALGO_UTORUS, 0, "u-torus", false },
	{ MC_ALGO_SEPARATE, 0, "separate", false },
	{ MC_ALGO_BINOMIAL, 0, "binomial", false },
	{ MC_ALGO_STORUS, 0, "s-torus", true },
	{ MC_ALGO_MDTORUS, 0, "md-torus", true },
	{ MC_ALGO_MUTORUS, 2, "mu-torus:2", true },
	{ MC_ALGO_MUTORUS, 3, "mu-torus:3", true },
	{ MC_ALGO_MUTORUS, 4, "mu-torus:4", true },
	{ MC_ALGO_MUTORUS, 8, "mu-torus:8", true },
};

#define NALGO	(sizeof(algos) / sizeof(algos[0]))
#define TRIALS	40

/* Every algorithm from @src to the rest of @set. */
static void one_source(const struct mc_torus *t, bool path, const u32 *set,
		       u32 m, u32 src, struct tally *ty)
{
	u32 *dst = xmalloc((m - 1) * sizeof(u32)), a, i, n;

	for (a = 0; a < NALGO; a++) {
		if (algos[a].path && !path)
			continue;
		for (i = 0, n = 0; i < m; i++)
			if (i != src)
				dst[n++] = set[i];
		one_case(t, algos[a].algo, algos[a].r, set[src], dst, m - 1,
			 &ty[a], algos[a].name);
	}
	free(dst);
}

/*
 * Every algorithm on one shape: random member sets (every fourth the
 * whole torus), each from every member (from six, on larger sets), as the
 * wrap falls in a different place for each source.
 */
static void one_shape(const struct shape *sh, struct tally *ty)
{
	struct mc_torus t;
	u32 trial, src;

	mk_torus(&t, sh->n, sh->k, MC_LINKS_UNI);
	for (trial = 0; trial < TRIALS; trial++) {
		struct rng rng = { 0xd47a9a7ull ^ ((u64)sh->n << 40) ^
				   ((u64)t.nodes << 20) ^ trial };
		u32 m = trial % 4 == 0 ? t.nodes : 2 + rng_below(&rng, t.nodes - 1);
		u32 *set = xmalloc(m * sizeof(u32));

		rng_subset(&rng, t.nodes, m, set);
		for (src = 0; src < m; src += m <= 27 ? 1 : m / 6)
			one_source(&t, sh->path, set, m, src, ty);
		free(set);
	}
}

/* The issue's case: 3x3x3, md-torus from (1,1,2) to these members. */
static void issue_case(void)
{
	static const u32 members[] = { 0, 5, 6, 9, 10, 13, 15, 16, 21, 25 };
	struct tally ty = { 0 };
	struct mc_torus t;
	u32 dst[10];

	mk_regular(&t, 3, 3, MC_LINKS_UNI);
	memcpy(dst, members, sizeof(dst));
	one_case(&t, MC_ALGO_MDTORUS, 0, 14, dst, 10, &ty, "md-torus");
	is_int(ty.straddle, 1, "3x3x3 md-torus from node 14 straddles the H-cycle's wrap");
	is_int(ty.equal, 1, "3x3x3 md-torus from node 14: the kernel's worms are the plan's");
}

int main(void)
{
	struct tally ty[NALGO];
	u32 s, a;

	issue_case();
	memset(ty, 0, sizeof(ty));
	for (s = 0; s < sizeof(shapes) / sizeof(shapes[0]); s++)
		one_shape(&shapes[s], ty);
	for (a = 0; a < NALGO; a++) {
		diag("%s: %u cases, %u straddle the wrap", algos[a].name,
		     ty[a].cases, ty[a].straddle);
		is_int(ty[a].equal, ty[a].cases,
		       "%s: the kernel's path plans what mc_plan plans, in every case",
		       algos[a].name);
		is_int(ty[a].straddle_equal, ty[a].straddle,
		       "%s: also where a holder's array crosses the wrap",
		       algos[a].name);
	}
	ok(ty[4].straddle >= 1000, "md-torus: at least 1000 cases straddle (%u)",
	   ty[4].straddle);
	return done_testing();
}
