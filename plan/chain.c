// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Dimension-ordered chains, R-chains, H-chains and H-cycles.
 */
#include "chain.h"
#include "routing.h"
#include "heapsort.h"

MC_DEFINE_HEAPSORT(sort_u32, u32)

void mc_sort_u32(u32 *a, u32 n)
{
	sort_u32(a, n);
}

/*
 * Sort key of a node: its index for <_d (its rank on a switched cluster),
 * its Hamiltonian label for H.
 */
static u32 chain_key(const struct mc_torus *t, enum mc_order order, u32 node)
{
	if (order == MC_ORDER_HAM)
		return mc_hlabel(t, node);
	return t->rank && order == MC_ORDER_DIM ? t->rank[node] : node;
}

static int order_usable(const struct mc_torus *t, enum mc_order order,
			const char **why)
{
	if (order == MC_ORDER_HAM && t->rank) {
		if (why)
			*why = "a switched cluster has no H-cycle";
		return -EINVAL;
	}
	if (order == MC_ORDER_HAM && !t->regular) {
		if (why)
			*why = "Hamiltonian labels (Eq 5.2) need equal radices in every dimension";
		return -EINVAL;
	}
	return 0;
}

int mc_chain_sort(const struct mc_torus *t, enum mc_order order, u32 *nodes,
		  u32 len, const char **why)
{
	u32 i;
	int err = order_usable(t, order, why);

	if (err)
		return err;
	for (i = 0; i < len; i++) {
		if (nodes[i] >= t->nodes) {
			if (why)
				*why = "node outside the torus";
			return -EINVAL;
		}
		nodes[i] = chain_key(t, order, nodes[i]);
	}
	/* Labels are a bijection, so sorting keys and mapping back is exact. */
	mc_sort_u32(nodes, len);
	for (i = 0; i < len; i++) {
		if (i > 0 && nodes[i] == nodes[i - 1]) {
			if (why)
				*why = "node repeated";
			return -EINVAL;
		}
	}
	if (order == MC_ORDER_HAM)
		for (i = 0; i < len; i++)
			nodes[i] = mc_hlabel_node(t, nodes[i]);
	else if (t->rank && order == MC_ORDER_DIM)
		for (i = 0; i < len; i++)
			nodes[i] = t->unrank[nodes[i]];
	return 0;
}

/*
 * How many times @nodes fails to increase strictly in @order (a chain
 * never does, a piece at most once, where it wraps), or -EINVAL for a
 * node outside the torus.
 */
static int count_descents(const struct mc_torus *t, enum mc_order order,
			  const u32 *nodes, u32 len, const char **why)
{
	int n = 0;
	u32 i;

	for (i = 0; i < len; i++) {
		if (nodes[i] >= t->nodes) {
			if (why)
				*why = "node outside the torus";
			return -EINVAL;
		}
		if (i > 0 && chain_key(t, order, nodes[i - 1]) >=
			     chain_key(t, order, nodes[i]))
			n++;
	}
	return n;
}

int mc_chain_verify(const struct mc_torus *t, enum mc_order order,
		    const u32 *nodes, u32 len, const char **why)
{
	int n = order_usable(t, order, why);

	if (!n)
		n = count_descents(t, order, nodes, len, why);
	if (n <= 0)
		return n;
	if (why)
		*why = order == MC_ORDER_HAM ?
		       "not an H-chain: labels must strictly increase" :
		       "not a dimension-ordered chain: nodes must strictly increase in <_d";
	return -EINVAL;
}

int mc_piece_verify(const struct mc_torus *t, enum mc_order order,
		    const u32 *nodes, u32 len, const char **why)
{
	int n = order_usable(t, order, why);

	if (!n)
		n = count_descents(t, order, nodes, len, why);
	if (n < 0)
		return n;
	if (n > 1 || (n && chain_key(t, order, nodes[len - 1]) >=
			   chain_key(t, order, nodes[0]))) {
		if (why)
			*why = "not a rotated chain: a node repeats or is out of order";
		return -EINVAL;
	}
	return 0;
}

/*
 * O(log len): the piece is nodes[0] and what follows it up to the wrap,
 * all after nodes[0] in @order, then the wrapped run, all before it; each
 * part sorted.
 */
bool mc_piece_has(const struct mc_torus *t, enum mc_order order,
		  const u32 *nodes, u32 len, u32 id)
{
	u32 lo = 1, hi = len, mid, k0, key;

	if (!len || id >= t->nodes)
		return false;
	k0 = chain_key(t, order, nodes[0]);
	key = chain_key(t, order, id);
	while (lo < hi) {		/* lo: the first wrapped index */
		mid = lo + (hi - lo) / 2;
		if (chain_key(t, order, nodes[mid]) < k0)
			hi = mid;
		else
			lo = mid + 1;
	}
	if (key >= k0) {
		hi = lo;
		lo = 0;
	} else {
		hi = len;
	}
	while (lo < hi) {
		u32 km;

		mid = lo + (hi - lo) / 2;
		km = chain_key(t, order, nodes[mid]);
		if (km == key)
			return nodes[mid] == id;
		if (km < key)
			lo = mid + 1;
		else
			hi = mid;
	}
	return false;
}

int mc_chain_rotate(const struct mc_torus *t, enum mc_order order,
		    const u32 *nodes, u32 len, u32 src, struct mc_chain *c)
{
	u32 lo = 0, hi = len, key;

	if (src >= t->nodes || order_usable(t, order, NULL))
		return -EINVAL;
	key = chain_key(t, order, src);
	while (lo < hi) {
		u32 mid = lo + (hi - lo) / 2;

		if (chain_key(t, order, nodes[mid]) < key)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == len || nodes[lo] != src)
		return -ENOENT;
	c->node = nodes;
	c->len = len;
	c->rot = lo;
	return 0;
}
