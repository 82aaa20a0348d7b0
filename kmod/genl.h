/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/* The "mcast" generic netlink family: configuration and statistics. */
#ifndef MCAST_GENL_H
#define MCAST_GENL_H

int mcast_genl_init(void);
void mcast_genl_exit(void);

#endif /* MCAST_GENL_H */
