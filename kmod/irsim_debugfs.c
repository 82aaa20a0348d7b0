// SPDX-License-Identifier: GPL-2.0
/*
 * The fabric's controls and counters, in debugfs as netdevsim has them
 * (root only):
 *
 *   /sys/kernel/debug/mcast_irsim/
 *     fabric      write "torus:KxK[xK] [vc_sets=N] [buffer=B] [ports=P]
 *                 [tau_s=NS] [tau_r=NS] [tau_n=NS] [flit=BYTES]
 *                 [max_worms=N] [pace=N]" to create the fabric (pace:
 *                 virtual ns per wall-clock us, 1000 = real time; 0,
 *                 the default: as fast as it can), "none" to destroy
 *                 it (EBUSY while a node is attached); read: its config
 *     stats       the model's and the transport's counters
 *     links       per virtual channel that carried a flit: node, dim, vc,
 *                 flits, blocked ns, peak buffer occupancy
 *     fail_link   write "NODE DIM 1" to fail a link, "NODE DIM 0" to heal
 *     stall_node  write "NODE 1|0": the router forwards nothing
 *     no_ir       write "NODE 1|0": the host takes no IR copy
 *     drop_every  write N: lose every Nth worm (0: none)
 *     trace       write 1 to record the next 256 worms that end (anew),
 *                 0 to stop; read: one line per worm, "SRC D1,D2,...:
 *                 NODE/DIM/VC ..." (its channels; " error E" if it ended
 *                 short), then " | submit T end T blocked NS": its
 *                 handover and end in virtual ns, and how long its
 *                 header waited for a channel
 *     worm_limits the transport's declared limits, "DESTS HDR_BYTES":
 *                 destinations per worm (1-64), compound header bytes
 *                 (1-4096); write to lower them (the data path then
 *                 splits its worms)
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/debugfs.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#include "irsim.h"

#define IRSIM_CMD_MAX	256

static struct dentry *irsim_dir;

/* "torus:4x4x4", radices highest dimension first, as mcastctl writes. */
static int irsim_parse_torus(char *s, struct mc_torus *t, const char **why)
{
	u16 k[MC_MAX_DIMS];
	u32 v, n = 0, i;
	char *tok;

	if (strncmp(s, "torus:", 6)) {
		*why = "the fabric is a torus: torus:KxK[xK...]";
		return -EINVAL;
	}
	s += 6;
	while ((tok = strsep(&s, "x"))) {
		if (n == MC_MAX_DIMS || kstrtou32(tok, 10, &v) || v < 2 ||
		    v > 0xffff) {
			*why = "a radix is a number from 2, at most 8 of them";
			return -EINVAL;
		}
		k[n++] = v;
	}
	/* k[0] is sigma_0's radix: the last one written */
	for (i = 0; i < n / 2; i++)
		swap(k[i], k[n - 1 - i]);
	return mc_torus_init(t, n, k, MC_LINKS_UNI, why);
}

static int irsim_parse_opt(char *opt, struct mc_fab_cfg *cfg, u32 *flit,
			   u32 *pace, const char **why)
{
	char *val = strchr(opt, '=');
	u32 v;

	if (!val || kstrtou32(val + 1, 10, &v)) {
		*why = "an option is NAME=NUMBER";
		return -EINVAL;
	}
	*val = '\0';
	if (!strcmp(opt, "vc_sets") && v <= 2)
		cfg->vc_sets = v;
	else if (!strcmp(opt, "buffer") && v <= MC_FAB_MAX_BUF)
		cfg->buffer_flits = v;
	else if (!strcmp(opt, "ports") && v <= MC_FAB_MAX_PORTS)
		cfg->ports = v;
	else if (!strcmp(opt, "tau_s"))
		cfg->tau_s = v;
	else if (!strcmp(opt, "tau_r"))
		cfg->tau_r = v;
	else if (!strcmp(opt, "tau_n"))
		cfg->tau_n = v;
	else if (!strcmp(opt, "flit") && v >= 4 && v <= 4096)
		*flit = v;
	else if (!strcmp(opt, "max_worms") && v >= 1 && v <= 65536)
		cfg->max_worms = v;
	else if (!strcmp(opt, "pace") && v <= 1000000)
		*pace = v;
	else {
		*why = "unknown option or value out of range";
		return -EINVAL;
	}
	return 0;
}

static int irsim_fabric_cmd(char *cmd)
{
	struct mc_fab_cfg cfg = {
		.vc_sets = 2, .buffer_flits = 2, .tau_s = 95000,
		.tau_r = 75000, .tau_n = 500, .max_worms = 4096,
	};
	const char *why = NULL;
	struct mc_torus t;
	u32 flit = 64, pace = 0;
	char *tok;
	int err;

	cmd = strim(cmd);
	if (!strcmp(cmd, "none"))
		return irsim_fabric_destroy();
	tok = strsep(&cmd, " ");
	err = irsim_parse_torus(tok, &t, &why);
	while (!err && (tok = strsep(&cmd, " ")))
		if (*tok)
			err = irsim_parse_opt(tok, &cfg, &flit, &pace, &why);
	if (!err && t.nodes > 65536) {
		why = "at most 65536 nodes";
		err = -E2BIG;
	}
	if (!err)
		err = irsim_fabric_create(&t, &cfg, flit, pace, &why);
	if (err)
		pr_info("fabric: %s\n", why ?: "invalid");
	return err;
}

/* Copies a short command from userspace, NUL-terminated. */
static char *irsim_cmd(const char __user *ubuf, size_t len)
{
	if (len >= IRSIM_CMD_MAX)
		return ERR_PTR(-E2BIG);
	return memdup_user_nul(ubuf, len);
}

static ssize_t irsim_fabric_write(struct file *file, const char __user *ubuf,
				  size_t len, loff_t *ppos)
{
	char *cmd = irsim_cmd(ubuf, len);
	int err;

	if (IS_ERR(cmd))
		return PTR_ERR(cmd);
	err = irsim_fabric_cmd(cmd);
	kfree(cmd);
	return err ?: len;
}

static int irsim_fabric_show(struct seq_file *m, void *v)
{
	const struct mc_fab_cfg *c = &irsim.cfg;
	int d;

	mutex_lock(&irsim.lock);
	if (!irsim.up) {
		seq_puts(m, "none\n");
	} else {
		seq_puts(m, "torus:");
		for (d = irsim.f.t.n - 1; d >= 0; d--)
			seq_printf(m, "%u%s", irsim.f.t.k[d], d ? "x" : "");
		seq_printf(m, " vc_sets=%u buffer=%u ports=%u tau_s=%u tau_r=%u tau_n=%u flit=%u max_worms=%u pace=%u now_ns=%llu\n",
			   c->vc_sets, c->buffer_flits, c->ports, c->tau_s,
			   c->tau_r, c->tau_n, irsim.flit_bytes, c->max_worms,
			   irsim.pace, irsim.f.now);
	}
	mutex_unlock(&irsim.lock);
	return 0;
}

static int irsim_fabric_open(struct inode *inode, struct file *file)
{
	return single_open(file, irsim_fabric_show, NULL);
}

static const struct file_operations irsim_fabric_fops = {
	.owner = THIS_MODULE,
	.open = irsim_fabric_open,
	.read = seq_read,
	.llseek = seq_lseek,
	.release = single_release,
	.write = irsim_fabric_write,
};

static int irsim_stats_show(struct seq_file *m, void *v)
{
	const struct mc_fab_stats *st = &irsim.f.st;

	mutex_lock(&irsim.lock);
	seq_printf(m, "up %d\nactive %u\nnow_ns %llu\n", irsim.up,
		   irsim.up ? irsim.f.active : 0, irsim.up ? irsim.f.now : 0);
	if (irsim.up)
		seq_printf(m, "worms %llu\ndone %llu\nfailed %llu\nflit_hops %llu\ndeliveries %llu\nir_copies %llu\nir_missed %llu\nblocked_ns %llu\ndeadlocks %llu\nlambda_violations %llu\nboundary_violations %llu\ndrops %llu\n",
			   st->worms, st->done, st->failed, st->flit_hops,
			   st->deliveries, st->ir_copies, st->ir_missed,
			   st->blocked_ns, st->deadlocks,
			   st->lambda_violations, st->boundary_violations,
			   st->drops);
	seq_printf(m, "tx %llu\ntx_dests %llu\ntx_busy %llu\nrx_no_host %llu\nrx_overflow %llu\nlost %llu\n",
		   irsim.c.tx, irsim.c.tx_dests, irsim.c.tx_busy,
		   irsim.c.rx_no_host,
		   irsim.c.rx_overflow, irsim.c.lost);
	seq_printf(m, "rx %lld\nrx_no_peer %lld\ncompletions %llu\nvlat_sum_ns %llu\nvlat_max_ns %llu\n",
		   (s64)atomic64_read(&irsim.c.rx),
		   (s64)atomic64_read(&irsim.c.rx_no_peer),
		   irsim.c.completions, irsim.c.vlat_sum_ns,
		   irsim.c.vlat_max_ns);
	mutex_unlock(&irsim.lock);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(irsim_stats);

static int irsim_links_show(struct seq_file *m, void *v)
{
	u32 c, node;
	unsigned int dim, vc;

	mutex_lock(&irsim.lock);
	if (irsim.up) {
		seq_puts(m, "node dim vc flits blocked_ns peak\n");
		for (c = 0; c < mc_fab_channels(&irsim.f.t, irsim.cfg.vc_sets);
		     c++) {
			const struct mc_fab_chan *ch = &irsim.f.chan[c];

			if (!ch->flits)
				continue;
			mc_fab_chan_split(&irsim.f, c, &node, &dim, &vc);
			seq_printf(m, "%u %u %u %llu %llu %u\n", node, dim, vc,
				   ch->flits, ch->blocked_ns, ch->peak);
		}
	}
	mutex_unlock(&irsim.lock);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(irsim_links);

enum irsim_knob { KNOB_LINK, KNOB_STALL, KNOB_NO_IR, KNOB_DROP };

/* "A B [C]" of numbers for a knob, applied under the lock. */
static int irsim_knob(enum irsim_knob knob, char *cmd)
{
	u32 v[3] = { 0 }, n = 0, want = knob == KNOB_LINK ? 3 :
					 knob == KNOB_DROP ? 1 : 2;
	struct mc_fab_node *nd;
	char *tok;
	int err = 0;

	cmd = strim(cmd);
	while ((tok = strsep(&cmd, " ")))
		if (*tok && (n == 3 || kstrtou32(tok, 10, &v[n++])))
			return -EINVAL;
	if (n != want || (knob != KNOB_DROP && v[want - 1] > 1))
		return -EINVAL;
	mutex_lock(&irsim.lock);
	if (!irsim.up) {
		err = -ENODEV;
	} else if (knob == KNOB_LINK) {
		err = mc_fab_set_link(&irsim.f, v[0], v[1], v[2]);
	} else if (knob == KNOB_DROP) {
		irsim.f.drop_every = v[0];
	} else if (v[0] >= irsim.f.t.nodes) {
		err = -EINVAL;
	} else {
		nd = &irsim.f.node[v[0]];
		err = mc_fab_set_node(&irsim.f, v[0],
				      knob == KNOB_STALL ? v[1] : nd->stalled,
				      knob == KNOB_NO_IR ? v[1] : nd->no_ir);
	}
	mutex_unlock(&irsim.lock);
	return err;
}

static ssize_t irsim_knob_write(struct file *file, const char __user *ubuf,
				size_t len, loff_t *ppos)
{
	enum irsim_knob knob = (uintptr_t)file_inode(file)->i_private;
	char *cmd = irsim_cmd(ubuf, len);
	int err;

	if (IS_ERR(cmd))
		return PTR_ERR(cmd);
	err = irsim_knob(knob, cmd);
	kfree(cmd);
	return err ?: len;
}

static const struct file_operations irsim_knob_fops = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.write = irsim_knob_write,
	.llseek = noop_llseek,
};

static void irsim_trace_line(struct seq_file *m,
			     const struct irsim_trace_ent *e)
{
	unsigned int dim, vc;
	u32 i, node;

	seq_printf(m, "%u ", e->src);
	for (i = 0; i < e->ndest; i++)
		seq_printf(m, "%s%u", i ? "," : "", e->dest[i]);
	seq_puts(m, ":");
	for (i = 0; i < e->nhops; i++) {
		mc_fab_chan_split(&irsim.f, e->chan[i], &node, &dim, &vc);
		seq_printf(m, " %u/%u/%c", node, dim, mc_vc_letter(vc));
	}
	if (e->err)
		seq_printf(m, " error %d", e->err);
	seq_printf(m, " | submit %llu end %llu blocked %llu\n", e->t_submit,
		   e->t_end, e->blocked_ns);
}

static int irsim_trace_show(struct seq_file *m, void *v)
{
	u32 i;

	mutex_lock(&irsim.lock);
	for (i = 0; irsim.up && irsim.trace && i < irsim.ntrace; i++)
		irsim_trace_line(m, &irsim.trace[i]);
	mutex_unlock(&irsim.lock);
	return 0;
}

static int irsim_trace_open(struct inode *inode, struct file *file)
{
	return single_open(file, irsim_trace_show, NULL);
}

static ssize_t irsim_trace_write(struct file *file, const char __user *ubuf,
				 size_t len, loff_t *ppos)
{
	bool on;
	int err = kstrtobool_from_user(ubuf, len, &on);

	if (!err)
		err = irsim_trace_set(on);
	return err ? err : len;
}

static const struct file_operations irsim_trace_fops = {
	.owner = THIS_MODULE,
	.open = irsim_trace_open,
	.read = seq_read,
	.write = irsim_trace_write,
	.llseek = seq_lseek,
	.release = single_release,
};

static int irsim_limits_show(struct seq_file *m, void *v)
{
	u32 dests, hdr;

	irsim_worm_limits(&dests, &hdr);
	seq_printf(m, "%u %u\n", dests, hdr);
	return 0;
}

static int irsim_limits_open(struct inode *inode, struct file *file)
{
	return single_open(file, irsim_limits_show, NULL);
}

static ssize_t irsim_limits_write(struct file *file, const char __user *ubuf,
				  size_t len, loff_t *ppos)
{
	char buf[32];
	u32 dests, hdr;
	int err;

	if (len >= sizeof(buf))
		return -EINVAL;
	if (copy_from_user(buf, ubuf, len))
		return -EFAULT;
	buf[len] = '\0';
	if (sscanf(buf, "%u %u", &dests, &hdr) != 2)
		return -EINVAL;
	err = irsim_set_worm_limits(dests, hdr);
	return err ? err : len;
}

static const struct file_operations irsim_limits_fops = {
	.owner = THIS_MODULE,
	.open = irsim_limits_open,
	.read = seq_read,
	.write = irsim_limits_write,
	.llseek = seq_lseek,
	.release = single_release,
};

int irsim_debugfs_init(void)
{
	static const char *const knobs[] = {
		[KNOB_LINK] = "fail_link", [KNOB_STALL] = "stall_node",
		[KNOB_NO_IR] = "no_ir", [KNOB_DROP] = "drop_every",
	};
	uintptr_t i;

	irsim_dir = debugfs_create_dir("mcast_irsim", NULL);
	if (IS_ERR(irsim_dir))
		return PTR_ERR(irsim_dir);
	debugfs_create_file("fabric", 0600, irsim_dir, NULL,
			    &irsim_fabric_fops);
	debugfs_create_file("stats", 0400, irsim_dir, NULL, &irsim_stats_fops);
	debugfs_create_file("links", 0400, irsim_dir, NULL, &irsim_links_fops);
	debugfs_create_file("worm_limits", 0600, irsim_dir, NULL,
			    &irsim_limits_fops);
	debugfs_create_file("trace", 0600, irsim_dir, NULL, &irsim_trace_fops);
	for (i = 0; i < ARRAY_SIZE(knobs); i++)
		debugfs_create_file(knobs[i], 0200, irsim_dir, (void *)i,
				    &irsim_knob_fops);
	return 0;
}

void irsim_debugfs_exit(void)
{
	debugfs_remove_recursive(irsim_dir);
}
