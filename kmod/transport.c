// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The transport registry, and each node's receive work, which runs its
 * transport's ->rx() under the node's mutex.  The work belongs to the
 * node, not to the transport, so a transport can be closed (and its state
 * freed) under the mutex while a run of the work is already queued: the
 * run finds mn->tp_priv gone and does nothing.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/string.h>
#include <linux/workqueue.h>

#include "mcast.h"
#include "transport.h"

static LIST_HEAD(mcast_transports);
static DEFINE_MUTEX(mcast_transports_lock);

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

void mcast_transport_kick(struct mcast_net *mn)
{
	queue_work(mcast_wq, &mn->rx_work);
}
EXPORT_SYMBOL_GPL(mcast_transport_kick);

static void mcast_rx_work(struct work_struct *w)
{
	struct mcast_net *mn = container_of(w, struct mcast_net, rx_work);
	int n;

	mutex_lock(&mn->lock);
	if (mn->tp_priv && !mn->dying) {
		n = mn->tp->rx(mn, MCAST_TP_RX_BUDGET);
		if (mn->tp_priv)
			mcast_data_rx_flush(mn);
		if (n >= MCAST_TP_RX_BUDGET)
			queue_work(mcast_wq, &mn->rx_work);
	}
	mutex_unlock(&mn->lock);
}

void mcast_transport_init_net(struct mcast_net *mn)
{
	mn->tp = &mcast_udp_transport;
	INIT_WORK(&mn->rx_work, mcast_rx_work);
}

void mcast_transport_exit_net(struct mcast_net *mn)
{
	mutex_lock(&mn->lock);
	mn->dying = true;
	mn->tp->close(mn);
	if (mn->tp != &mcast_udp_transport) {
		mcast_transport_put(mn->tp);
		mn->tp = &mcast_udp_transport;
	}
	mutex_unlock(&mn->lock);
	cancel_work_sync(&mn->rx_work);
}

int mcast_transports_init(void)
{
	int err;

	err = mcast_transport_register(&mcast_udp_transport);
	if (err)
		return err;
	err = mcast_transport_register(&mcast_tcp_transport);
	if (err)
		mcast_transport_unregister(&mcast_udp_transport);
	return err;
}

void mcast_transports_exit(void)
{
	mcast_transport_unregister(&mcast_tcp_transport);
	mcast_transport_unregister(&mcast_udp_transport);
}
