/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/* /dev/mcast: the applications' interface (ioctl, read, poll, io_uring). */
#ifndef MCAST_DEV_H
#define MCAST_DEV_H

int mcast_dev_init(void);
void mcast_dev_exit(void);

#endif /* MCAST_DEV_H */
