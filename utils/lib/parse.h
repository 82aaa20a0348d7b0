/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * The textual forms mcastctl, mcastd and mcastperf read and print: numbers,
 * topologies, algorithms, transport names and coordinates.
 *
 * Tuples are written highest dimension first, as the dissertation writes
 * them: "8,4,5" is sigma_2 = 8, sigma_1 = 4, sigma_0 = 5, and
 * "torus:4x8" has k[1] = 4, k[0] = 8.
 *
 * Parsers return 0, or -1 with a one-line reason (no trailing newline) in
 * @err; callers add the command's prefix.
 */
#ifndef MCASTCTL_PARSE_H
#define MCASTCTL_PARSE_H

#include <linux/mcast.h>

#include "cube.h"
#include "schedule.h"

#define PARSE_ERR_MAX	256
/* "(" + MC_MAX_DIMS numbers up to 65535 + commas + ")" + NUL */
#define COORD_STR_MAX	(MC_MAX_DIMS * 6 + 3)

/* Strict unsigned decimal: digits only, no sign or space, at most @max. */
int parse_u32(const char *s, u32 max, u32 *out);
int parse_u64(const char *s, u64 *out);

/* "torus:K[xK...][:uni|:bi]"; links default to unidirectional. */
int parse_topology(const char *spec, struct mc_torus *t, char *err);

/* "separate", "u-torus", "s-torus", "md-torus" or "mu-torus:R". */
int parse_algorithm(const char *s, enum mc_algo *algo, u32 *r, char *err);

/* "a,b,c" with exactly t->n elements, each below its radix. */
int parse_coord(const struct mc_torus *t, const char *s, u32 *node,
		char *err);

/* "8,4,5", or "(8,4,5)" with @parens; @buf has COORD_STR_MAX bytes. */
const char *format_coord(const struct mc_torus *t, u32 node, bool parens,
			 char *buf);

/* @s made fit to quote in a one-line message (@size > 67 bytes). */
const char *printable(const char *s, char *buf, size_t size);

/* The spelling parse_algorithm reads ("mu-torus" without its R). */
const char *algo_name(enum mc_algo algo);
const char *routing_name(enum mc_routing r);

/*
 * One algorithm's name and what it is to mcast.ko and to the planning
 * core; ALGO_NONE where it is nothing to one of them ("separate" is no
 * node's algorithm, "auto" and rb are no enum mc_algo).
 */
#define ALGO_NONE	(-1)

struct algo_info {
	const char *name;
	int node;		/* enum mcast_algorithm, or ALGO_NONE */
	int plan;		/* enum mc_algo, or ALGO_NONE */
	u32 plan_r;		/* its r: a hypercube's enum mc_cube_algo */
	bool torus;		/* parse_algorithm() reads it */
};

/* What a node's MCAST_NODE_A_ALGO_R takes: r travels in one header byte. */
#define NODE_ALGO_R_MAX	255
/* What parse_node_algo() says a node takes, when it is none of them. */
#define NODE_ALGOS "auto, u-torus, s-torus, md-torus, mu-torus, mu-torus:R, binomial, u-cube, maxport, combine, w-sort, ring, rb or rb-all-port"

/* The node algorithm named @s[0..@len), or NULL. */
const struct algo_info *node_algo_find(const char *s, size_t len);

/* The name of an MCAST_ALGORITHM_*, "unknown" for a number past them. */
const char *node_algo_name(u8 algo);

/*
 * A node's algorithm: a name of node_algo_find(), or "mu-torus:R" with R
 * 2..NODE_ALGO_R_MAX; plain "mu-torus" is *@r = 0 (the node keeps its r).
 */
int parse_node_algo(const char *s, u8 *algo, u32 *r, char *err);

/* A hypercube's tree algorithm by its name ("u-cube"): 0, or -1. */
int cube_algo_find(const char *s, enum mc_cube_algo *algo);
/* ... and the name of one, "?" for none (MC_CUBE_HANDMADE). */
const char *cube_algo_name(enum mc_cube_algo algo);

/*
 * A transport's name as mcast.ko takes it: 1 to TRANSPORT_NAME_CHARS
 * characters (MCAST_TRANSPORT_NAME_MAX with the NUL).
 */
#define TRANSPORT_NAME_CHARS	(MCAST_TRANSPORT_NAME_MAX - 1)
bool transport_name_ok(const char *s);

#endif /* MCASTCTL_PARSE_H */
