/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * A switched cluster as the kernel sees it: the hosts' 1-D id space with
 * their postorder ranks (mc_torus_init_switch).  The chain functions the
 * data path uses (sort, rotate, verify, piece checks) must give exactly
 * the order L of Libeskind-Hadas et al. (1998) (mc_sw_order), path-based
 * algorithms and H-cycles must be refused, and bad rank tables rejected.
 */
#include "tutil.h"
#include "chain.h"
#include "schedule.h"
#include "updown.h"

/* A fat tree: 2 spines (0, 1), 4 leaves (2..5), 4 hosts on each leaf,
 * numbered round-robin over the leaves so that id order is not L's. */
#define SPINES	2
#define LEAVES	4
#define HOSTS	16

static struct mc_sw_link links[SPINES * LEAVES];
static u32 host_sw[HOSTS];
static struct mc_sw_graph g;

static void build_fat_tree(void)
{
	static u32 mem[4096];
	const char *why = NULL;
	u32 i;

	for (i = 0; i < SPINES * LEAVES; i++) {
		links[i].a = SPINES + i % LEAVES;
		links[i].b = i / LEAVES;
	}
	for (i = 0; i < HOSTS; i++)
		host_sw[i] = SPINES + i % LEAVES;
	g.nswitches = SPINES + LEAVES;
	g.nhosts = HOSTS;
	g.nlinks = SPINES * LEAVES;
	g.link = links;
	g.host_switch = host_sw;
	g.root = MC_SW_ROOT_CENTER;
	ok(mc_sw_graph_words(g.nswitches, g.nhosts, g.nlinks) <= 4096 &&
	   !mc_sw_build(&g, mem, &why), "the fat tree builds (%s)",
	   why ? why : "ok");
}

static u64 rng = 0x5eed001;

static u32 below(u32 n)
{
	rng = rng * 6364136223846793005ULL + 1442695040888963407ULL;
	return (u32)(rng >> 33) % n;
}

/* Random member sets and sources: the chain rotated to the source is L. */
static void chains_are_l(const struct mc_torus *t)
{
	u32 trial, i, n, src, bad = 0, hosts[HOSTS], dst[HOSTS], order[HOSTS];
	struct mc_chain c;

	for (trial = 0; trial < 2000; trial++) {
		n = 0;
		for (i = 0; i < HOSTS; i++)
			if (below(2))
				hosts[n++] = i;
		if (n < 2)
			continue;
		src = hosts[below(n)];
		if (mc_chain_sort(t, MC_ORDER_DIM, hosts, n, NULL) ||
		    mc_chain_verify(t, MC_ORDER_DIM, hosts, n, NULL) ||
		    mc_chain_rotate(t, MC_ORDER_DIM, hosts, n, src, &c)) {
			bad++;
			continue;
		}
		for (i = 0; i < n; i++)
			if (hosts[i] != src)
				dst[i - (i > c.rot)] = mc_sw_host_vertex(&g, hosts[i]);
		/* the order of dst does not matter to mc_sw_order */
		if (mc_sw_order(&g, mc_sw_host_vertex(&g, src), dst, n - 1,
				order, NULL)) {
			bad++;
			continue;
		}
		for (i = 0; i < n; i++)
			if (mc_sw_host_vertex(&g, mc_chain_at(&c, i)) != order[i])
				bad++;
		/* every run of the rotated chain is a piece */
		for (i = 1; i < n; i++) {
			u32 piece[HOSTS], j, len = 1 + below(n - i);

			for (j = 0; j < len; j++)
				piece[j] = mc_chain_at(&c, i + j);
			if (mc_piece_verify(t, MC_ORDER_DIM, piece, len, NULL))
				bad++;
		}
	}
	ok(!bad, "2000 random groups: the rank-sorted chain rotated to the source is Libeskind-Hadas et al.'s L, and its runs are pieces (%u wrong)",
	   bad);
}

static void refusals(const struct mc_torus *t)
{
	u32 two[2] = { 0, 1 }, by_id[2] = { 1, 4 }, by_rank[2] = { 4, 1 };
	const char *why = NULL;
	int err;

	/* host 4 shares host 0's leaf, which comes first; host 1 the next */
	ok(t->rank[4] < t->rank[1] &&
	   mc_chain_verify(t, MC_ORDER_DIM, by_id, 2, NULL) == -EINVAL &&
	   !mc_chain_verify(t, MC_ORDER_DIM, by_rank, 2, NULL),
	   "a chain is checked by rank (4 before 1), not by id");
	err = mc_chain_sort(t, MC_ORDER_HAM, two, 2, &why);
	ok(err == -EINVAL && why &&
	   !strcmp(why, "a switched cluster has no H-cycle"),
	   "no H-cycle: %s", why ? why : "-");
	ok(!mc_algo_supported(t, MC_ALGO_UTORUS, 0, NULL),
	   "u-torus (recursive halving over L) runs");
	why = NULL;
	err = mc_algo_supported(t, MC_ALGO_STORUS, 0, &why);
	ok(err && mc_algo_supported(t, MC_ALGO_MDTORUS, 0, NULL) &&
	   mc_algo_supported(t, MC_ALGO_MUTORUS, 8, NULL),
	   "path-based algorithms are refused: %s", why ? why : "-");
}

/* binomial: the same id space in plain id order (the topology-blind tree). */
static void binomial(const struct mc_torus *t)
{
	u32 nodes[3] = { 4, 1, 13 };
	struct mc_chain c;

	ok(mc_algo_order(MC_ALGO_BINOMIAL) == MC_ORDER_ID &&
	   !mc_algo_supported(t, MC_ALGO_BINOMIAL, 0, NULL),
	   "binomial runs on a switched cluster, over node ids");
	ok(!mc_chain_sort(t, MC_ORDER_ID, nodes, 3, NULL) && nodes[0] == 1 &&
	   nodes[1] == 4 && nodes[2] == 13 &&
	   mc_chain_verify(t, MC_ORDER_DIM, nodes, 3, NULL) == -EINVAL &&
	   !mc_chain_rotate(t, MC_ORDER_ID, nodes, 3, 4, &c) &&
	   mc_chain_at(&c, 1) == 13,
	   "its chains sort by id (1 4 13), which is not the rank order, and rotate by id");
}

/* Each bad table with its reason. */
static void bad_table(u32 n, const u32 *rank, const char *want,
		      const char *what)
{
	static u32 unrank[MC_SW_MAX_NODES + 1];
	struct mc_torus t;
	const char *why = NULL;
	int err;

	err = mc_torus_init_switch(&t, n, rank, unrank, &why);
	ok(err == -EINVAL && why && !strcmp(why, want), "%s: %s", what,
	   why ? why : "-");
}

static void bad_tables(void)
{
	u32 rank[4] = { 0, 1, 1, 3 };

	bad_table(4, rank, "two hosts have the same rank", "a repeated rank");
	rank[2] = 4;
	bad_table(4, rank, "a host's rank is not below the number of hosts",
		  "a rank out of range");
	bad_table(1, rank, "a switched cluster has 2 to 4096 hosts", "one host");
	bad_table(MC_SW_MAX_NODES + 1, rank,
		  "a switched cluster has 2 to 4096 hosts",
		  "more than MC_SW_MAX_NODES hosts");
}

int main(void)
{
	u32 rank[HOSTS], unrank[HOSTS], i, sum = 0;
	struct mc_torus t;
	const char *why = NULL;

	build_fat_tree();
	mc_sw_host_ranks(&g, rank);
	for (i = 0; i < HOSTS; i++)
		sum += rank[i];
	ok(sum == HOSTS * (HOSTS - 1) / 2, "the ranks are 0..15");
	ok(!mc_torus_init_switch(&t, HOSTS, rank, unrank, &why) &&
	   t.nodes == HOSTS && t.n == 1 && !t.regular,
	   "mc_torus_init_switch: a 1-D id space of 16 hosts");
	for (i = 0; i < HOSTS && unrank[rank[i]] == i; i++)
		;
	ok(i == HOSTS, "unrank inverts rank");
	chains_are_l(&t);
	refusals(&t);
	binomial(&t);
	bad_tables();
	return done_testing();
}
