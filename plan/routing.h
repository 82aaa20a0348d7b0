/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * Routing functions with their virtual channel classes:
 *   UTR  (Expression 4.1): unidirectional, classes p/h;
 *   BTR  (Expression 4.2): bidirectional, classes p/h/l, tie at k/2 does
 *        not wrap;
 *   UTPR (Eq 5.3, Fig 5.11): path-based on unidirectional tori, classes
 *        p/h with the Hamiltonian boundaries of Def 5.1 / Lemma 5.7.
 */
#ifndef MC_ROUTING_H
#define MC_ROUTING_H

#include "topology.h"

enum mc_vc {
	MC_VC_P = 0,
	MC_VC_H = 1,
	MC_VC_L = 2,
};

enum mc_routing {
	MC_ROUTE_UTR = 0,
	MC_ROUTE_BTR = 1,
	MC_ROUTE_UTPR = 2,
};

struct mc_hop {
	u32 from;
	u32 to;
	u8 dim;
	s8 dir;		/* +1 or -1 */
	u8 vc;		/* enum mc_vc */
};

/* The unicast routing function that fits the torus' links. */
static inline enum mc_routing mc_unicast_routing(const struct mc_torus *t)
{
	return t->links == MC_LINKS_BI ? MC_ROUTE_BTR : MC_ROUTE_UTR;
}

/*
 * One routing decision at @cur toward @dst.  *@alpha is the class of the
 * incoming channel (only UTPR reads it; start a worm with MC_VC_P) and is
 * updated to the class taken.  Returns false when @cur == @dst.
 */
bool mc_route_next(const struct mc_torus *t, enum mc_routing r, u32 cur,
		   u32 dst, u8 *alpha, struct mc_hop *hop);

/*
 * Whether virtual channel (@node, @dim, @dir, @vc) exists under @r: the
 * channel sets of Sec. 4.2.1, 4.2.2 and 5.3.2, coded apart from the routing
 * functions so that a checker can hold one against the other.
 */
bool mc_channel_exists(const struct mc_torus *t, enum mc_routing r, u32 node,
		       unsigned int dim, int dir, unsigned int vc);

/* Hamiltonian label l(u) of Eq 5.2 (regular tori only). */
u32 mc_hlabel(const struct mc_torus *t, u32 node);
/* The node whose label is @label (inverse of Eq 5.2). */
u32 mc_hlabel_node(const struct mc_torus *t, u32 label);
/* Lemma 5.7: channel (u, u^d) is a boundary. */
bool mc_is_boundary(const struct mc_torus *t, u32 node, unsigned int d);

static inline char mc_vc_letter(unsigned int vc)
{
	return vc == MC_VC_P ? 'p' : vc == MC_VC_H ? 'h' : 'l';
}

#endif /* MC_ROUTING_H */
