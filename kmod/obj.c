// SPDX-License-Identifier: GPL-2.0 OR MIT
/* The count of live objects of each kind (obj.h). */
#include <linux/slab.h>

#include "obj.h"

atomic_long_t mcast_live[MCAST_OBJ_KINDS];

void *mcast_obj_zalloc(size_t size, enum mcast_obj kind)
{
	void *p = kzalloc(size, MCAST_GFP);

	if (p)
		atomic_long_inc(&mcast_live[kind]);
	return p;
}

void mcast_obj_free(void *p, enum mcast_obj kind)
{
	if (!p)
		return;
	atomic_long_dec(&mcast_live[kind]);
	kfree(p);
}
