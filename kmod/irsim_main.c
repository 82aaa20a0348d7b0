// SPDX-License-Identifier: GPL-2.0
/*
 * mcast_irsim.ko's entry: the fabric's thread and transport (irsim.c),
 * then its debugfs controls (irsim_debugfs.c); gone in the reverse order.
 */
#include <linux/module.h>

#include "irsim.h"

static int __init irsim_init(void)
{
	int err = irsim_start();

	if (err)
		return err;
	err = irsim_debugfs_init();
	if (err)
		irsim_stop();
	return err;
}

static void __exit irsim_exit(void)
{
	irsim_debugfs_exit();
	irsim_stop();
}

module_init(irsim_init);
module_exit(irsim_exit);
MODULE_DESCRIPTION("mcast: a simulated fabric with intermediate reception");
MODULE_LICENSE("GPL");
