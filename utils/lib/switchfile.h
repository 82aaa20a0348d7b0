/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * Switched-cluster topology files, written by hand (docs/topologies/):
 *
 *   # a comment, to the end of the line (also after a statement)
 *   link A B      a full-duplex link between switches A and B; repeat the
 *                 line for parallel links (the first is the one the tree
 *                 may use, in file order: plan/updown.h)
 *   host N S      node id N hangs off switch S
 *   root S        optional: the root of the up*-down* tree; without it,
 *                 the switch of least eccentricity (MC_SW_ROOT_CENTER)
 *
 * Switch names are words of [A-Za-z0-9_.-]; a switch exists once a link or
 * host line names it, and switches are numbered in order of first
 * appearance.  Node ids are 0..H-1, each on exactly one host line.  The
 * order of the link lines matters: it is the tie-break of the tree (each
 * switch's parent is over its first link one level up) and its child order.
 */
#ifndef MCAST_LIB_SWITCHFILE_H
#define MCAST_LIB_SWITCHFILE_H

#include <stddef.h>

#include "updown.h"

struct switchfile {
	struct mc_sw_graph g;		/* built: tree, IDs, orientation */
	char **name;			/* switch -> its name */
	u32 *line;			/* switch -> line that first names it */
	struct mc_sw_link *link;	/* g.link */
	u32 *host_switch;		/* g.host_switch */
	u32 *mem;			/* the graph's memory */
};

/*
 * Read and build @path.  0, or a negative errno with the reason in @err
 * (PARSE_ERR_MAX bytes): "FILE:LINE: what is wrong", or "FILE: ..." when
 * no single line is at fault.  @f is left empty (switchfile_free is
 * harmless) on failure.
 */
int switchfile_load(struct switchfile *f, const char *path, char *err);

/* The same on @len bytes of @text, named @file in messages. */
int switchfile_parse(struct switchfile *f, const char *file, const char *text,
		     size_t len, char *err);

void switchfile_free(struct switchfile *f);

/* The switch called @name, or MC_NO_NODE. */
u32 switchfile_find(const struct switchfile *f, const char *name);

/* A vertex as the file writes it: the switch's name or the node id. */
const char *switchfile_vertex_name(const struct switchfile *f, u32 v,
				   char *buf, size_t size);

#endif /* MCAST_LIB_SWITCHFILE_H */
