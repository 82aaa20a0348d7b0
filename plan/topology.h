/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * Torus topology and node addressing (Robinson (1994), Sec. 4.1).
 *
 * A node is stored as one index: sigma_0 is the least significant digit and
 * sigma_{n-1} the most significant, so the dimension order <_d (Def 4.2)
 * is plain integer order on node indices.  Tuples are printed highest
 * dimension first, as the dissertation writes them.
 */
#ifndef MC_TOPOLOGY_H
#define MC_TOPOLOGY_H

#include "mc_types.h"

#define MC_MAX_DIMS	8
#define MC_MAX_NODES	(1u << 24)
#define MC_NO_NODE	0xffffffffu

enum mc_links {
	MC_LINKS_UNI = 0,	/* one +1 channel per dimension and node */
	MC_LINKS_BI = 1,	/* +1 and -1 channels */
};

struct mc_torus {
	u8 n;			/* number of dimensions */
	u8 links;		/* enum mc_links */
	bool regular;		/* every radix equal */
	u16 k[MC_MAX_DIMS];	/* k[i]: radix of dimension i (sigma_i) */
	u32 stride[MC_MAX_DIMS];/* index weight of dimension i */
	u32 nodes;
	/*
	 * A switched cluster (Libeskind-Hadas et al. (1998), updown.h): a 1-D
	 * id space whose chains follow @rank (node -> its place among the
	 * hosts in the spanning tree's postorder), @unrank its inverse; NULL
	 * on a torus.  The arrays are the caller's and outlive the struct's
	 * use.
	 */
	const u32 *rank;
	const u32 *unrank;
};

/*
 * Set up @t for n dimensions with radices k[0..n-1] (k[i] for sigma_i).
 * Returns 0, or -EINVAL / -E2BIG with a reason in *@why when @why is set.
 */
int mc_torus_init(struct mc_torus *t, unsigned int n, const u16 *k,
		  enum mc_links links, const char **why);

static inline u32 mc_sigma(const struct mc_torus *t, u32 node, unsigned int d)
{
	return (node / t->stride[d]) % t->k[d];
}

/*
 * Set up @t for a switched cluster of @nodes hosts whose order is @rank,
 * a permutation of 0..nodes-1; fills @unrank (@nodes words).  -EINVAL
 * with *@why on fewer than 2 or more than MC_SW_MAX_NODES hosts, or a
 * rank out of range or repeated.  Path-based algorithms and H-cycles do
 * not apply (mc_algo_supported says so).
 */
#define MC_SW_MAX_NODES		4096
int mc_torus_init_switch(struct mc_torus *t, u32 nodes, const u32 *rank,
			 u32 *unrank, const char **why);

/* A binary n-cube: a torus (no switched cluster) whose every radix is 2. */
static inline bool mc_torus_is_cube(const struct mc_torus *t)
{
	return !t->rank && t->regular && t->n && t->k[0] == 2;
}

void mc_node_coords(const struct mc_torus *t, u32 node, u16 *sigma);
/* Returns MC_NO_NODE when a coordinate is out of range. */
u32 mc_node_index(const struct mc_torus *t, const u16 *sigma);

/* The neighbour of @node one step in dimension @d, direction @dir (+1/-1). */
u32 mc_neighbour(const struct mc_torus *t, u32 node, unsigned int d, int dir);

/* Minimal hop count from @a to @b under the torus' links. */
u32 mc_distance(const struct mc_torus *t, u32 a, u32 b);

#endif /* MC_TOPOLOGY_H */
