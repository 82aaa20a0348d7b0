// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * mcast: topology-aware, contention-free multicast for torus clusters.
 *
 * Module entry.  At load the planning core plans the dissertation's U-torus
 * example (Sec. 4.4, Fig 4.10) and the checkers verify the schedule; a
 * wrong answer fails the load.  Then the parts come up in order, each
 * depending on the one before: the workqueue, the module's own transports,
 * a node per netns (node.c), the generic netlink family (genl.c),
 * /dev/mcast (dev.c); they go down in reverse.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/errno.h>
#include <linux/init.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/slab.h>

#include "net.h"
#include "obj.h"
#include "data.h"
#include "transport.h"
#include "node.h"
#include "genl.h"
#include "dev.h"
#include "check.h"
#include "schedule.h"

#ifndef MCAST_VERSION
#error "MCAST_VERSION is set by Kbuild from dkms.conf"
#endif

#define ST_DIMS		3
#define ST_NDST		10
#define ST_M		(ST_NDST + 1)
#define ST_STEPS	4

/* Tuples as the dissertation prints them: sigma_2, sigma_1, sigma_0. */
static const u16 st_src[ST_DIMS] = { 8, 4, 5 };
static const u16 st_dst[ST_NDST][ST_DIMS] = {
	{ 4, 9, 3 }, { 1, 9, 7 }, { 1, 0, 2 }, { 8, 5, 4 }, { 4, 8, 9 },
	{ 9, 0, 5 }, { 3, 5, 5 }, { 9, 0, 1 }, { 8, 0, 5 }, { 1, 6, 4 },
};

/* The R-chain with respect to the source, and each node's receive step. */
static const u16 st_chain[ST_M][ST_DIMS] = {
	{ 8, 4, 5 }, { 8, 5, 4 }, { 9, 0, 1 }, { 9, 0, 5 }, { 1, 0, 2 },
	{ 1, 6, 4 }, { 1, 9, 7 }, { 3, 5, 5 }, { 4, 8, 9 }, { 4, 9, 3 },
	{ 8, 0, 5 },
};

static const u8 st_step[ST_M] = { 0, 4, 3, 2, 4, 3, 1, 4, 3, 2, 3 };

struct mcast_selftest {
	struct mc_torus t;
	struct mc_schedule s;
	u32 dst[ST_NDST];
	u32 order[ST_M];
	struct mc_msg msg[ST_M];
	struct mc_dest dest[ST_M];
};

static u32 st_node(const struct mc_torus *t, const u16 *tuple)
{
	u16 sigma[ST_DIMS];
	unsigned int d;

	for (d = 0; d < ST_DIMS; d++)
		sigma[d] = tuple[ST_DIMS - 1 - d];
	return mc_node_index(t, sigma);
}

/* Check the plan against the worked example; returns a reason or NULL. */
static const char *st_compare(struct mcast_selftest *st)
{
	const struct mc_schedule *s = &st->s;
	u32 i;

	if (s->steps != ST_STEPS)
		return "U-torus took other than 4 steps";
	if (s->m != ST_M || s->ndest != ST_NDST || s->nmsg != ST_NDST)
		return "wrong number of nodes, receivers or messages";
	for (i = 0; i < ST_M; i++)
		if (s->order[i] != st_node(s->t, st_chain[i]))
			return "R-chain differs from Fig 4.10";
	for (i = 0; i < s->ndest; i++) {
		const struct mc_dest *d = &s->dest[i];

		if (d->pos == 0 || d->pos >= ST_M || d->step != st_step[d->pos])
			return "receive step differs from Fig 4.10";
	}
	return NULL;
}

static int st_check(const struct mc_schedule *s)
{
	struct mc_check_result res = { };
	u64 words;
	u32 *ws;
	int err;

	words = max(mc_check_ws_words(s, false), mc_check_ws_words(s, true));
	ws = kmalloc_array(words, sizeof(*ws), GFP_KERNEL);
	if (!ws)
		return -ENOMEM;
	err = mc_check_cover(s, ws, &res);
	if (!err)
		err = mc_check_order(s, &res);
	if (!err)
		err = mc_check_routes(s, &res);
	if (!err)
		err = mc_check_contention(s, ws, &res);
	kfree(ws);
	if (err && err != -ENOMEM) {
		pr_err("self-test: checker: %s (messages %u, %u; node %u)\n",
		       res.what ? res.what : "failed", res.msg_a, res.msg_b,
		       res.node);
		return -EINVAL;
	}
	return err;
}

static int mcast_selftest(void)
{
	static const u16 k[ST_DIMS] = { 10, 10, 10 };
	struct mcast_selftest *st;
	const char *why = NULL;
	u32 i, src;
	int err;

	st = kzalloc(sizeof(*st), GFP_KERNEL);
	if (!st)
		return -ENOMEM;
	err = mc_torus_init(&st->t, ST_DIMS, k, MC_LINKS_UNI, &why);
	if (err)
		goto out;
	src = st_node(&st->t, st_src);
	for (i = 0; i < ST_NDST; i++)
		st->dst[i] = st_node(&st->t, st_dst[i]);
	st->s.order = st->order;
	st->s.msg = st->msg;
	st->s.dest = st->dest;
	err = mc_plan(&st->s, &st->t, MC_ALGO_UTORUS, 0, src, st->dst,
		      ST_NDST, &why);
	if (err)
		goto out;
	why = st_compare(st);
	if (why) {
		err = -EINVAL;
		goto out;
	}
	err = st_check(&st->s);
out:
	if (err && why)
		pr_err("self-test: U-torus 10x10x10 example: %s\n", why);
	kfree(st);
	return err;
}

/*
 * The module's own transports; the first is every node's default: TCP,
 * which is 2-5 times faster from 64 KiB on and meets the time goals
 * against MPI_Bcast at every size (docs/transports.md).
 */
static struct mcast_transport_ops *const mcast_own_transports[] = {
	&mcast_tcp_transport,
	&mcast_udp_transport,
};

static int __init mcast_init(void)
{
	int err;

	err = mcast_selftest();
	if (err) {
		pr_err("planning core self-test failed (%d), not loading\n",
		       err);
		return err == -ENOMEM ? err : -EINVAL;
	}
	mcast_wq = alloc_workqueue("mcast", 0, 0);
	if (!mcast_wq)
		return -ENOMEM;
	err = mcast_transports_init(mcast_own_transports,
				    ARRAY_SIZE(mcast_own_transports));
	if (err)
		goto err_wq;
	err = mcast_nodes_init();
	if (err)
		goto err_tp;
	err = mcast_genl_init();
	if (err)
		goto err_net;
	err = mcast_dev_init();
	if (err)
		goto err_genl;
	pr_info("version " MCAST_VERSION " loaded, planning core self-test passed\n");
	return 0;

err_genl:
	mcast_genl_exit();
err_net:
	mcast_nodes_exit();
err_tp:
	mcast_transports_exit();
err_wq:
	destroy_workqueue(mcast_wq);
	return err;
}

/* Every object must be gone by now: say so loudly if one is not. */
static void mcast_check_leaks(void)
{
	static const char * const kind[MCAST_OBJ_KINDS] = {
		[MCAST_OBJ_MSG] = "messages",
		[MCAST_OBJ_JOB] = "jobs",
		[MCAST_OBJ_TX] = "transfers",
		[MCAST_OBJ_STREAM] = "streams",
	};
	long n;
	int i;

	for (i = 0; i < MCAST_OBJ_KINDS; i++) {
		n = atomic_long_read(&mcast_live[i]);
		if (n)
			pr_err("leaked %ld %s at unload\n", n, kind[i]);
	}
}

static void __exit mcast_exit(void)
{
	mcast_dev_exit();
	mcast_nodes_quiesce();
	mcast_genl_exit();
	mcast_nodes_exit();
	mcast_transports_exit();
	destroy_workqueue(mcast_wq);
	mcast_check_leaks();
}

module_init(mcast_init);
module_exit(mcast_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Topology-aware contention-free multicast for torus clusters");
MODULE_VERSION(MCAST_VERSION);
