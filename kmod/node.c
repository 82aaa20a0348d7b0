// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * One node per network namespace (pernet operations): its state comes up
 * part by part, the node's own (net.c) below the data path (data_work.c), and
 * goes down in the reverse order.
 */
#include <linux/rtnetlink.h>
#include <net/net_namespace.h>

#include "net.h"
#include "data.h"
#include "node.h"

static int __net_init mcast_node_init_ns(struct net *net)
{
	struct mcast_net *mn = mcast_net(net);

	mcast_net_setup(mn, net);
	mcast_data_init_net(mn);
	return 0;
}

static void __net_exit mcast_node_exit_ns(struct net *net)
{
	struct mcast_net *mn = mcast_net(net);

	mcast_data_exit_net(mn);
	mcast_net_teardown(mn);
}

static struct pernet_operations mcast_node_ops = {
	.init = mcast_node_init_ns,
	.exit = mcast_node_exit_ns,
	.id = &mcast_net_id,
	.size = sizeof(struct mcast_net),
};

int mcast_nodes_init(void)
{
	return register_pernet_subsys(&mcast_node_ops);
}

void mcast_nodes_quiesce(void)
{
	struct net *net;

	down_read(&net_rwsem);
	for_each_net(net)
		mcast_data_exit_net(mcast_net(net));
	up_read(&net_rwsem);
}

void mcast_nodes_exit(void)
{
	unregister_pernet_subsys(&mcast_node_ops);
}
