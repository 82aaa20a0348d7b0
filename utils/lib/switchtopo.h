/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * A node's switched-cluster topology as the kernel holds it
 * (MCAST_TOPO_SWITCH): the hosts' 1-D id space and their up*-down* ranks
 * (plan/topology.h, mc_torus_init_switch).  The rank tables live in this
 * file's static storage: a tool reads one node, its own.
 */
#ifndef MCAST_LIB_SWITCHTOPO_H
#define MCAST_LIB_SWITCHTOPO_H

#include "topology.h"

/*
 * "switch:FILE": read the topology file and set @t to its hosts ordered
 * by the ranks of its tree.  0, or -errno with the reason in @err
 * (PARSE_ERR_MAX bytes).
 */
int switch_topology_load(const char *path, struct mc_torus *t, char *err);

/* The kernel's @n ranks (NODE_GET) into @t; -EINVAL if they are bad. */
int switch_topology_ranks(const u32 *rank, u32 n, struct mc_torus *t);

#endif /* MCAST_LIB_SWITCHTOPO_H */
