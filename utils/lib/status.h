/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * Exit statuses shared by the userspace programs (mcastctl(8) documents
 * them); utils/lib returns them so that every tool reports alike.
 */
#ifndef MCAST_STATUS_H
#define MCAST_STATUS_H

enum {
	MCASTCTL_OK = 0,
	MCASTCTL_EINPUT = 1,	/* an invalid value, unreadable file, no memory */
	MCASTCTL_EUSAGE = 2,	/* unknown/missing/conflicting options */
	MCASTCTL_EINTERNAL = 3,	/* a checker rejected a plan: a bug */
	MCASTCTL_EKERNEL = 4,	/* the kernel refused, or mcast is not loaded */
};

#endif /* MCAST_STATUS_H */
