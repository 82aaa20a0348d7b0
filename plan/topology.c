// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Torus topology and node addressing.
 */
#include "topology.h"

int mc_torus_init(struct mc_torus *t, unsigned int n, const u16 *k,
		  enum mc_links links, const char **why)
{
	u32 nodes = 1;
	unsigned int i;

	if (n < 1 || n > MC_MAX_DIMS) {
		if (why)
			*why = "a torus has 1 to 8 dimensions";
		return -EINVAL;
	}
	if (links != MC_LINKS_UNI && links != MC_LINKS_BI) {
		if (why)
			*why = "links must be unidirectional or bidirectional";
		return -EINVAL;
	}
	t->n = n;
	t->links = links;
	t->regular = true;
	t->rank = NULL;
	t->unrank = NULL;
	for (i = 0; i < MC_MAX_DIMS; i++) {
		t->k[i] = 0;
		t->stride[i] = 0;
	}
	for (i = 0; i < n; i++) {
		if (k[i] < 2) {
			if (why)
				*why = "every radix must be at least 2";
			return -EINVAL;
		}
		if (nodes > MC_MAX_NODES / k[i]) {
			if (why)
				*why = "torus has more than 2^24 nodes";
			return -E2BIG;
		}
		t->k[i] = k[i];
		t->stride[i] = nodes;
		nodes *= k[i];
		if (k[i] != k[0])
			t->regular = false;
	}
	t->nodes = nodes;
	return 0;
}
MC_EXPORT(mc_torus_init);

static int switch_fail(const char **why, const char *msg)
{
	if (why)
		*why = msg;
	return -EINVAL;
}

int mc_torus_init_switch(struct mc_torus *t, u32 nodes, const u32 *rank,
			 u32 *unrank, const char **why)
{
	u16 k = nodes;
	u32 i;

	if (nodes < 2 || nodes > MC_SW_MAX_NODES)
		return switch_fail(why, "a switched cluster has 2 to 4096 hosts");
	for (i = 0; i < nodes; i++)
		unrank[i] = MC_NO_NODE;
	for (i = 0; i < nodes; i++) {
		if (rank[i] >= nodes)
			return switch_fail(why, "a host's rank is not below the number of hosts");
		if (unrank[rank[i]] != MC_NO_NODE)
			return switch_fail(why, "two hosts have the same rank");
		unrank[rank[i]] = i;
	}
	/* a 1-D id space; not "regular": no Hamiltonian labels, no worms */
	mc_torus_init(t, 1, &k, MC_LINKS_UNI, NULL);
	t->regular = false;
	t->rank = rank;
	t->unrank = unrank;
	return 0;
}
MC_EXPORT(mc_torus_init_switch);

void mc_node_coords(const struct mc_torus *t, u32 node, u16 *sigma)
{
	unsigned int i;

	for (i = 0; i < t->n; i++) {
		sigma[i] = node % t->k[i];
		node /= t->k[i];
	}
}

u32 mc_node_index(const struct mc_torus *t, const u16 *sigma)
{
	u32 node = 0;
	unsigned int i;

	for (i = 0; i < t->n; i++) {
		if (sigma[i] >= t->k[i])
			return MC_NO_NODE;
		node += sigma[i] * t->stride[i];
	}
	return node;
}

u32 mc_neighbour(const struct mc_torus *t, u32 node, unsigned int d, int dir)
{
	u32 s = mc_sigma(t, node, d);

	if (dir > 0)
		return s + 1 == t->k[d] ? node - s * t->stride[d]
					: node + t->stride[d];
	return s == 0 ? node + (t->k[d] - 1) * t->stride[d]
		      : node - t->stride[d];
}
MC_EXPORT(mc_neighbour);

u32 mc_distance(const struct mc_torus *t, u32 a, u32 b)
{
	u32 hops = 0;
	unsigned int i;

	for (i = 0; i < t->n; i++) {
		u32 k = t->k[i];
		u32 up = (mc_sigma(t, b, i) + k - mc_sigma(t, a, i)) % k;

		if (t->links == MC_LINKS_BI && k - up < up)
			up = k - up;
		hops += up;
	}
	return hops;
}
MC_EXPORT(mc_distance);
