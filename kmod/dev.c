// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * /dev/mcast: an open file is an endpoint on the node of the opener's
 * network namespace.  ioctls (and io_uring commands) join and leave
 * groups, send and receive; read() and poll() work on the receive queue.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <linux/module.h>
#include <linux/nsproxy.h>
#include <linux/poll.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/mm.h>
#include <linux/uaccess.h>
#include <linux/uio.h>

#include "net.h"
#include "msg.h"
#include "data.h"
#include "dev.h"
#include "compat.h"
#include "chain.h"

/*
 * Copy an ioctl struct that starts with its size: smaller than the first
 * version -> -EINVAL, larger with a non-zero tail -> -E2BIG.  Returns the
 * caller's size in *@usize for the copy back.
 */
static int mcast_copy_in(void *karg, size_t ksize, void __user *uarg,
			 u32 *usize)
{
	u32 size;
	int err;

	if (get_user(size, (u32 __user *)uarg))
		return -EFAULT;
	if (size < ksize)
		return -EINVAL;
	if (size > PAGE_SIZE)
		return -E2BIG;
	err = copy_struct_from_user(karg, ksize, uarg, size);
	if (err)
		return err;
	*usize = size;
	return 0;
}

static int mcast_copy_out(void __user *uarg, const void *karg, size_t ksize)
{
	return copy_to_user(uarg, karg, ksize) ? -EFAULT : 0;
}

static long mcast_ioc_info(struct mcast_file *f, void __user *uarg)
{
	struct mcast_net *mn = f->mn;
	struct mcast_info info;
	unsigned int d;
	u32 usize;
	int err;

	err = mcast_copy_in(&info, sizeof(info), uarg, &usize);
	if (err)
		return err;
	memset(&info, 0, sizeof(info));
	info.size = sizeof(info);
	info.abi_version = MCAST_ABI_VERSION;
	info.caps = MCAST_CAP_LOCAL | MCAST_CAP_URING | MCAST_CAP_NET |
		    MCAST_CAP_WAIT | MCAST_CAP_SEPARATE | MCAST_CAP_OFFLOAD;
	info.rxq_limit = MCAST_RXQ_LIMIT;
	info.max_msg = MCAST_MAX_MSG;
	mutex_lock(&mn->lock);
	info.node_id = mn->configured ? mn->node_id : MCAST_NO_NODE;
	if (mn->configured) {
		info.kind = MCAST_TOPO_TORUS;
		info.links = mn->torus.links;
		info.ndims = mn->torus.n;
		for (d = 0; d < mn->torus.n; d++) {
			info.dims[d] = mn->torus.k[d];
			info.coord[d] = mn->coord[d];
		}
	}
	mutex_unlock(&mn->lock);
	return mcast_copy_out(uarg, &info, sizeof(info));
}

static long mcast_ioc_group(struct mcast_file *f, void __user *uarg,
			    bool join)
{
	struct mcast_group_req req;
	u32 usize;
	int err;

	err = mcast_copy_in(&req, sizeof(req), uarg, &usize);
	if (err)
		return err;
	if (req.flags & ~(join ? MCAST_JOIN_LOSSY : 0) || req.reserved ||
	    req.group == MCAST_NO_GROUP)
		return -EINVAL;
	return join ? mcast_group_join(f, req.group, req.flags) :
		      mcast_group_leave(f, req.group);
}

/* Gathers the sender's iovecs into one new message. */
static struct mcast_msg *mcast_gather(const struct mcast_send *s)
{
	struct mcast_iov *iov;
	struct mcast_msg *msg;
	u64 total = 0;
	u32 i, off = 0;
	int err;

	if (s->niov > MCAST_MAX_IOV)
		return ERR_PTR(-EINVAL);
	iov = kmalloc_array(max(s->niov, 1U), sizeof(*iov), GFP_KERNEL);
	if (!iov)
		return ERR_PTR(-ENOMEM);
	err = -EFAULT;
	if (copy_from_user(iov, u64_to_user_ptr(s->iov),
			   s->niov * sizeof(*iov)))
		goto fail;
	err = -EMSGSIZE;
	for (i = 0; i < s->niov; i++) {
		if (iov[i].len > MCAST_MAX_MSG)
			goto fail;
		total += iov[i].len;
	}
	if (total > MCAST_MAX_MSG)
		goto fail;
	err = -ENOMEM;
	msg = mcast_msg_alloc(total);
	if (!msg)
		goto fail;
	for (i = 0; i < s->niov; i++) {
		if (copy_from_user(msg->data + off,
				   u64_to_user_ptr(iov[i].base), iov[i].len)) {
			mcast_msg_put(msg);
			err = -EFAULT;
			goto fail;
		}
		off += iov[i].len;
	}
	kfree(iov);
	return msg;
fail:
	kfree(iov);
	return ERR_PTR(err);
}

/*
 * The explicit destination list of a send: every node in the torus, none
 * twice.  Returns it sorted (the base of its R-chain) in *@out.
 */
static int mcast_nodes_get(struct mcast_net *mn, const struct mcast_send *s,
			   u32 **out)
{
	u32 *nodes;
	u32 i;
	int err;

	if (s->nnodes > MCAST_MAX_DESTS)
		return -EINVAL;
	nodes = kvmalloc_array(max(s->nnodes, 1U), sizeof(u32), GFP_KERNEL);
	if (!nodes)
		return -ENOMEM;
	err = -EFAULT;
	if (copy_from_user(nodes, u64_to_user_ptr(s->nodes),
			   s->nnodes * sizeof(u32)))
		goto fail;
	mutex_lock(&mn->lock);
	if (!mn->configured) {
		err = -ENOTCONN;
	} else {
		err = 0;
		for (i = 0; i < s->nnodes; i++) {
			if (nodes[i] >= mn->torus.nodes) {
				err = -EINVAL;
				break;
			}
		}
	}
	mutex_unlock(&mn->lock);
	if (err)
		goto fail;
	mc_sort_u32(nodes, s->nnodes);
	for (i = 1; i < s->nnodes; i++) {
		if (nodes[i] == nodes[i - 1]) {
			err = -EINVAL;
			goto fail;
		}
	}
	*out = nodes;
	return 0;
fail:
	kvfree(nodes);
	return err;
}

#define MCAST_SEND_FLAGS (MCAST_SEND_NODES | MCAST_SEND_LOOPBACK | \
			  MCAST_SEND_WAIT | MCAST_SEND_SEPARATE | \
			  MCAST_SEND_OFFLOAD | MCAST_SEND_NO_OFFLOAD | \
			  MCAST_SEND_ALGORITHM)

/*
 * Worms or no worms, not both; and neither for separate addressing, which
 * sends no tree and no worm.
 */
static bool mcast_offload_flags_ok(u32 flags)
{
	const u32 both = MCAST_SEND_OFFLOAD | MCAST_SEND_NO_OFFLOAD;
	u32 off = flags & both;

	return !off || (off != both && !(flags & MCAST_SEND_SEPARATE));
}

/*
 * MCAST_SEND_ALGORITHM: a known algorithm, r only for mu-torus (0: the
 * node's), not with separate addressing or with worms forbidden; without
 * the flag, the field is 0.  (A hypercube's on another torus is the
 * send's -EOPNOTSUPP: the topology is mcast_data_send's to read.)
 */
static bool mcast_send_algo_ok(const struct mcast_send *s)
{
	u32 a = s->algorithm & 0xff, r = s->algorithm >> 8;

	if (!(s->flags & MCAST_SEND_ALGORITHM))
		return !s->algorithm;
	if (s->flags & (MCAST_SEND_SEPARATE | MCAST_SEND_NO_OFFLOAD) ||
	    a >= __MCAST_ALGORITHM_MAX || r > MCAST_ALGO_R_MAX)
		return false;
	return a == MCAST_ALGORITHM_MUTORUS ? r != 1 : !r;
}

/*
 * @nonblock: an O_NONBLOCK file, or io_uring's inline issue: -EAGAIN
 * rather than waiting for room, and (io_uring) before a completion-mode
 * send, so io_uring retries it from its worker, where it may wait.
 */
static long mcast_ioc_send(struct mcast_file *f, void __user *uarg,
			   bool nonblock, bool uring)
{
	struct mcast_send_ctx ctx = { };
	struct mcast_net *mn = f->mn;
	struct mcast_msg *msg;
	struct mcast_send s;
	u32 *nodes = NULL;
	bool to_nodes, wait;
	u32 usize;
	int err, err2;

	err = mcast_copy_in(&s, sizeof(s), uarg, &usize);
	if (err)
		return err;
	if (s.flags & ~MCAST_SEND_FLAGS || !mcast_send_algo_ok(&s) ||
	    !mcast_offload_flags_ok(s.flags))
		return -EINVAL;
	wait = s.flags & MCAST_SEND_WAIT;
	if (!wait && (s.failed || s.nfailed || s.timeout_ms))
		return -EINVAL;
	if (wait && nonblock && uring)
		return -EAGAIN;
	to_nodes = s.flags & MCAST_SEND_NODES;
	if (to_nodes ? s.group != MCAST_NO_GROUP :
		       s.group == MCAST_NO_GROUP || s.nodes || s.nnodes)
		return -EINVAL;
	if (wait && s.nfailed > MCAST_MAX_DESTS)
		return -EINVAL;
	if (to_nodes) {
		err = mcast_nodes_get(mn, &s, &nodes);
		if (err)
			return err;
	}
	msg = mcast_gather(&s);
	if (IS_ERR(msg)) {
		kvfree(nodes);
		return PTR_ERR(msg);
	}
	ctx.flags = s.flags;
	ctx.algorithm = s.algorithm;
	ctx.timeout_ms = s.timeout_ms;
	ctx.nonblock = nonblock;
	if (wait && s.nfailed) {
		ctx.failed = kvmalloc_array(s.nfailed, sizeof(u32), GFP_KERNEL);
		if (!ctx.failed) {
			kvfree(nodes);
			mcast_msg_put(msg);
			return -ENOMEM;
		}
		ctx.nfailed_room = s.nfailed;
	}
	err = mcast_data_send(f, msg, s.group, nodes, s.nnodes, &ctx);
	mcast_msg_put(msg);
	kvfree(nodes);
	if (err && err != -EHOSTUNREACH && err != -EINTR)
		goto out;
	/* The message went out: report its seq (and failures) either way. */
	err2 = put_user(ctx.seq, (u64 __user *)(uarg +
			offsetof(struct mcast_send, seq)));
	if (!err2 && wait) {
		u32 n = min(ctx.nfailed, ctx.nfailed_room);

		if (n && copy_to_user(u64_to_user_ptr(s.failed), ctx.failed,
				      n * sizeof(u32)))
			err2 = -EFAULT;
		else
			err2 = put_user(ctx.nfailed, (u32 __user *)(uarg +
					offsetof(struct mcast_send, nfailed)));
	}
	if (err2)
		err = err2;
out:
	kvfree(ctx.failed);
	return err;
}

/* Waits for and takes the next message of @f. */
static int mcast_wait_msg(struct mcast_file *f, bool nonblock,
			  struct mcast_rxent **ep, u32 *dropped)
{
	int err;

	for (;;) {
		*ep = mcast_file_dequeue(f, dropped);
		if (*ep)
			return 0;
		if (nonblock)
			return -EAGAIN;
		err = wait_event_interruptible(f->wq, mcast_file_readable(f));
		if (err)
			return err;
	}
}

static long mcast_ioc_recv(struct mcast_file *f, void __user *uarg,
			   bool nonblock)
{
	struct mcast_rxent *e;
	struct mcast_recv r;
	struct mcast_msg *msg;
	u32 usize, n;
	int err;

	err = mcast_copy_in(&r, sizeof(r), uarg, &usize);
	if (err)
		return err;
	if (r.flags & ~MCAST_RECV_DONTWAIT)
		return -EINVAL;
	err = mcast_wait_msg(f, nonblock || r.flags & MCAST_RECV_DONTWAIT,
			     &e, &r.dropped);
	if (err)
		return err;
	msg = e->msg;
	n = min(r.buflen, msg->len);
	r.flags = msg->len > r.buflen ? MCAST_RECV_TRUNC : 0;
	r.len = msg->len;
	r.group = msg->group;
	r.src_node = msg->src_node;
	r.seq = msg->seq;
	r.step = msg->step;
	r.from_node = msg->from_node;
	r.vlat_ns = msg->vlat_ns;
	r.vtime_ns = msg->vtime_ns;
	err = 0;
	if (copy_to_user(u64_to_user_ptr(r.buf), msg->data, n) ||
	    mcast_copy_out(uarg, &r, sizeof(r)))
		err = -EFAULT;
	mcast_rxent_free(e);
	return err ? err : n;
}

static long mcast_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	struct mcast_file *f = file->private_data;
	void __user *uarg = (void __user *)arg;

	switch (cmd) {
	case MCAST_IOC_INFO:
		return mcast_ioc_info(f, uarg);
	case MCAST_IOC_JOIN:
		return mcast_ioc_group(f, uarg, true);
	case MCAST_IOC_LEAVE:
		return mcast_ioc_group(f, uarg, false);
	case MCAST_IOC_SEND:
		return mcast_ioc_send(f, uarg, file->f_flags & O_NONBLOCK, false);
	case MCAST_IOC_RECV:
		return mcast_ioc_recv(f, uarg, file->f_flags & O_NONBLOCK);
	default:
		return -ENOTTY;
	}
}

static ssize_t mcast_read(struct file *file, char __user *buf, size_t count,
			  loff_t *ppos)
{
	struct mcast_file *f = file->private_data;
	struct mcast_rxent *e;
	ssize_t n;
	u32 dropped;
	int err;

	err = mcast_wait_msg(f, file->f_flags & O_NONBLOCK, &e, &dropped);
	if (err)
		return err;
	n = min_t(size_t, count, e->msg->len);
	if (copy_to_user(buf, e->msg->data, n))
		n = -EFAULT;
	mcast_rxent_free(e);
	return n;
}

static __poll_t mcast_poll(struct file *file, poll_table *pt)
{
	struct mcast_file *f = file->private_data;
	__poll_t mask = 0;

	poll_wait(file, &f->wq, pt);
	poll_wait(file, &f->mn->send_wq, pt);
	if (mcast_file_readable(f))
		mask |= EPOLLIN | EPOLLRDNORM;
	if (mcast_data_writable(f->mn))
		mask |= EPOLLOUT | EPOLLWRNORM;
	return mask;
}

/*
 * io_uring: the command area holds struct mcast_uring_cmd.  A receive
 * issued without waiting (IO_URING_F_NONBLOCK) and finding no message
 * returns -EAGAIN, which io_uring retries from its worker, where it
 * waits like the ioctl (MCAST_RECV_DONTWAIT completes with -EAGAIN).
 * Every other result completes the command here (io_uring_cmd_done):
 * the issue path of some kernels mishandles a positive return.
 */
static long mcast_uring_issue(struct io_uring_cmd *cmd, unsigned int issue_flags)
{
	const struct mcast_uring_cmd *uc = mcast_uring_cmd_area(cmd);
	struct mcast_file *f = cmd->file->private_data;
	void __user *uarg = u64_to_user_ptr(READ_ONCE(uc->arg));
	long ret;

	if (READ_ONCE(uc->reserved))
		return -EINVAL;
	switch (cmd->cmd_op) {
	case MCAST_URING_SEND:
		return mcast_ioc_send(f, uarg, issue_flags & IO_URING_F_NONBLOCK,
				      true);
	case MCAST_URING_RECV:
		ret = mcast_ioc_recv(f, uarg, issue_flags & IO_URING_F_NONBLOCK);
		/* Interrupted (the ring is going away): no restart here. */
		return ret == -ERESTARTSYS ? -EINTR : ret;
	default:
		return -ENOTTY;
	}
}

static int mcast_uring_cmd(struct io_uring_cmd *cmd, unsigned int issue_flags)
{
	long ret = mcast_uring_issue(cmd, issue_flags);

	if (ret == -EAGAIN && issue_flags & IO_URING_F_NONBLOCK)
		return -EAGAIN;
	io_uring_cmd_done(cmd, ret, 0, issue_flags);
	return -EIOCBQUEUED;
}

static int mcast_open(struct inode *inode, struct file *file)
{
	struct mcast_file *f;

	f = kzalloc(sizeof(*f), GFP_KERNEL_ACCOUNT);
	if (!f)
		return -ENOMEM;
	f->tgid = get_task_pid(current, PIDTYPE_TGID);
	mcast_file_attach(f, get_net(current->nsproxy->net_ns));
	file->private_data = f;
	return stream_open(inode, file);
}

static int mcast_release(struct inode *inode, struct file *file)
{
	struct mcast_file *f = file->private_data;

	mcast_file_detach(f);
	put_net(f->net);
	put_pid(f->tgid);
	kfree(f);
	return 0;
}

static const struct file_operations mcast_fops = {
	.owner = THIS_MODULE,
	.open = mcast_open,
	.release = mcast_release,
	.read = mcast_read,
	.poll = mcast_poll,
	.unlocked_ioctl = mcast_ioctl,
	.compat_ioctl = compat_ptr_ioctl,
	.uring_cmd = mcast_uring_cmd,
};

static struct miscdevice mcast_misc = {
	.minor = MISC_DYNAMIC_MINOR,
	.name = MCAST_DEVICE_NAME,
	.fops = &mcast_fops,
};

int mcast_dev_init(void)
{
	return misc_register(&mcast_misc);
}

void mcast_dev_exit(void)
{
	misc_deregister(&mcast_misc);
}
