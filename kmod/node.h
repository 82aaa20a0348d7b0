/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/* One node per network namespace: the life of its state, part by part. */
#ifndef MCAST_NODE_H
#define MCAST_NODE_H

int mcast_nodes_init(void);
/* Module unload: stops every node's data path while netlink still works. */
void mcast_nodes_quiesce(void);
void mcast_nodes_exit(void);

#endif /* MCAST_NODE_H */
