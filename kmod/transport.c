// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The transport registry: transports by name, mcast.ko's own and other
 * modules', and the one a node has until it is told otherwise.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/string.h>

#include "transport.h"

static LIST_HEAD(mcast_transports);
static DEFINE_MUTEX(mcast_transports_lock);
/* mcast.ko's own transports (main.c), the first every node's default. */
static struct mcast_transport_ops *const *mcast_own;
static unsigned int mcast_nown;

static struct mcast_transport_ops *mcast_transport_find(const char *name)
{
	struct mcast_transport_ops *ops;

	list_for_each_entry(ops, &mcast_transports, list)
		if (!strcmp(ops->name, name))
			return ops;
	return NULL;
}

int mcast_transport_register(struct mcast_transport_ops *ops)
{
	int err = 0;

	if (!ops->name || strlen(ops->name) >= MCAST_TP_NAME_MAX ||
	    !ops->open || !ops->close || !ops->xmit || !ops->rx ||
	    ops->max_payload <= 64 || ops->max_payload > (1u << 20))
		return -EINVAL;
	mutex_lock(&mcast_transports_lock);
	if (mcast_transport_find(ops->name))
		err = -EEXIST;
	else
		list_add_tail(&ops->list, &mcast_transports);
	mutex_unlock(&mcast_transports_lock);
	if (!err)
		pr_info("transport %s registered\n", ops->name);
	return err;
}
EXPORT_SYMBOL_GPL(mcast_transport_register);

/* A node that uses @ops pins its owner, so none does by now. */
void mcast_transport_unregister(struct mcast_transport_ops *ops)
{
	mutex_lock(&mcast_transports_lock);
	list_del_init(&ops->list);
	mutex_unlock(&mcast_transports_lock);
}
EXPORT_SYMBOL_GPL(mcast_transport_unregister);

const struct mcast_transport_ops *mcast_transport_get(const char *name)
{
	struct mcast_transport_ops *ops;

	mutex_lock(&mcast_transports_lock);
	ops = mcast_transport_find(name);
	if (ops && !try_module_get(ops->owner))
		ops = NULL;
	mutex_unlock(&mcast_transports_lock);
	return ops;
}

void mcast_transport_put(const struct mcast_transport_ops *ops)
{
	module_put(ops->owner);
}

const struct mcast_transport_ops *mcast_transport_default(void)
{
	return mcast_own[0];
}

int mcast_transports_init(struct mcast_transport_ops *const *own,
			  unsigned int n)
{
	unsigned int i;
	int err;

	for (i = 0; i < n; i++) {
		err = mcast_transport_register(own[i]);
		if (err) {
			while (i--)
				mcast_transport_unregister(own[i]);
			return err;
		}
	}
	mcast_own = own;
	mcast_nown = n;
	return 0;
}

void mcast_transports_exit(void)
{
	unsigned int i = mcast_nown;

	while (i--)
		mcast_transport_unregister(mcast_own[i]);
}
