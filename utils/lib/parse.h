/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * The textual forms mcastctl reads and prints: numbers, topologies,
 * algorithms and coordinates.
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

#endif /* MCASTCTL_PARSE_H */
