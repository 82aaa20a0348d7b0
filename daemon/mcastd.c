// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * mcastd: the daemon that runs a node of an mcast cluster.  It configures
 * the node and its peers from /etc/mcast/mcastd.conf, learns which groups
 * the node's applications joined (the kernel's notifications), tells the
 * other daemons (the control protocol of view.c over UDP), and installs
 * every group's members, R-chain and H-cycle in the kernel whenever they
 * change.  Restarting it leaves the kernel's state, and so the data path,
 * alone: it reads the state back and goes on.
 */
#define _GNU_SOURCE		/* accept4 */
#include <errno.h>
#include <getopt.h>
#include <ifaddrs.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>

#include "complete.h"
#include "keyfile.h"
#include "loop.h"
#include "log.h"
#include "mcastd.h"
#include "parse.h"
#include "proto.h"
#include "sdnotify.h"
#include "status.h"
#include "cstats.h"

#ifdef MCAST_VERSION
#define MCASTD_VERSION MCAST_VERSION
#else
#define MCASTD_VERSION "unknown"
#endif

static uint64_t clock_ms(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return (uint64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static uint64_t now_ms(void)
{
	return clock_ms(CLOCK_MONOTONIC);
}

/* ---------------------------------------------------- the view's needs */

static void to_sockaddr(const struct mcd_conf_node *n, uint16_t port,
			struct sockaddr_in6 *sa)
{
	memset(sa, 0, sizeof(*sa));
	sa->sin6_family = AF_INET6;
	sa->sin6_port = htons(port);
	sa->sin6_addr = n->addr;
}

void mcd_send(struct mcd *d, uint32_t to, const void *buf, size_t len)
{
	static unsigned char out[MCD_DGRAM_MAX + MCD_TRAILER_LEN];
	const struct mcd_conf_node *n;
	struct sockaddr_in6 sa;

	n = mcd_conf_node(&d->conf, to);
	if (!n || len > MCD_DGRAM_MAX)
		return;
	memcpy(out, buf, len);
	len = mcd_auth_seal(&d->auth, out, len, ++d->tx_counter);
	to_sockaddr(n, d->conf.control_port, &sa);
	if (sendto(d->udp, out, len, MSG_DONTWAIT, (struct sockaddr *)&sa,
		   sizeof(sa)) < 0)
		d->send_errors++;	/* the protocol repairs loss */
}

static void on_send(void *ctx, uint32_t to, const void *buf, size_t len)
{
	mcd_send(ctx, to, buf, len);
}

static bool group_static(const struct mcd *d, uint32_t id)
{
	uint32_t i;

	for (i = 0; i < d->conf.ngroups; i++)
		if (d->conf.groups[i].id == id)
			return d->conf.groups[i].fixed;
	return false;
}

static void on_members(void *ctx, uint32_t group, const uint32_t *nodes,
		       uint32_t n)
{
	struct mcd *d = ctx;

	/*
	 * Not before the first sync: a restarted daemon's view has only its
	 * own record at first, and writing that would shrink every group
	 * for a moment (and churn its epoch) although nothing changed.
	 */
	if (!d->ready || group_static(d, group))
		return;
	mcd_kernel_install(&d->kernel, group, nodes, n);
}

static void on_node_state(void *ctx, uint32_t node, enum mcd_state old,
			  enum mcd_state now)
{
	static const char *const names[] = { "unknown", "alive", "suspect",
					     "dead" };
	struct mcd *d = ctx;
	char buf[COORD_STR_MAX];

	mcd_log(now == MCD_DEAD || now == MCD_SUSPECT ? LOG_L_NOTICE :
		LOG_L_INFO, "node %s (id %" PRIu32 "): %s -> %s",
		format_coord(&d->conf.torus, node, false, buf), node,
		names[old], names[now]);
}

/* Logs what came and went between the sorted sets @a and @b. */
static void log_local_diff(const uint32_t *a, uint32_t na, const uint32_t *b,
			   uint32_t nb)
{
	uint32_t i = 0, j = 0;

	while (i < na || j < nb) {
		if (j == nb || (i < na && a[i] < b[j])) {
			log_info("local: files here left group %" PRIu32, a[i++]);
		} else if (i == na || b[j] < a[i]) {
			log_info("local: a file here joined group %" PRIu32,
				 b[j++]);
		} else {	/* in both */
			i++;
			j++;
		}
	}
}

/* The groups that files here joined (the kernel's cache) into d->local. */
static void read_local(struct mcd *d)
{
	uint32_t groups[MCD_MAX_GROUPS];
	uint32_t n, total;

	total = mcd_kernel_local(&d->kernel, groups, MCD_MAX_GROUPS);
	n = total < MCD_MAX_GROUPS ? total : MCD_MAX_GROUPS;
	log_local_diff(d->local, d->nlocal, groups, n);
	/* once per crossing, not at every join beyond the limit */
	if (total > MCD_MAX_GROUPS && !d->over_groups)
		log_warn("%u groups joined here: only the first %d are announced",
			 total, MCD_MAX_GROUPS);
	d->over_groups = total > MCD_MAX_GROUPS;
	memcpy(d->local, groups, n * sizeof(groups[0]));
	d->nlocal = n;
}

/*
 * Groups a join made here (the kernel creates an unknown group with this
 * node alone, unmanaged) whose files all left again before the view made
 * a version of the join (debounced: view.c): no report will come for
 * them, so they go now, unless the view has members for them.
 */
static void sweep_joined(struct mcd *d)
{
	static uint32_t ids[MCAST_MAX_GROUPS];
	uint32_t i, n = 0, m;

	if (!d->ready)
		return;		/* install_all() sweeps at the first sync */
	for (i = 0; i < d->kernel.ngroups && n < MCAST_MAX_GROUPS; i++) {
		const struct mcd_kgroup *g = &d->kernel.groups[i];

		if (!g->managed && !g->nlocal && g->n == 1 &&
		    g->members[0] == d->self && !group_static(d, g->id) &&
		    !mcd_view_members(d->view, g->id, &m, 1))
			ids[n++] = g->id;
	}
	for (i = 0; i < n; i++)
		mcd_kernel_install(&d->kernel, ids[i], NULL, 0);
}

/* The kernel's local memberships changed: a new version of our record. */
static void on_local_changed(void *ctx)
{
	struct mcd *d = ctx;

	read_local(d);
	mcd_view_set_local(d->view, d->local, d->nlocal, now_ms());
	sweep_joined(d);
}

static void on_peer_down(void *ctx, uint32_t node)
{
	struct mcd *d = ctx;

	mcd_view_peer_down(d->view, node, now_ms());
}

/* ------------------------------------------------------------ start-up */

/* The configured node whose address is one of this host's. */
static int find_self(const struct mcd_conf *c, uint32_t *self)
{
	struct ifaddrs *ifa, *i;
	const struct mcd_conf_node *n, *found = NULL;
	struct in6_addr a;

	if (getifaddrs(&ifa))
		return -errno;
	for (i = ifa; i; i = i->ifa_next) {
		if (!i->ifa_addr)
			continue;
		memset(&a, 0, sizeof(a));
		if (i->ifa_addr->sa_family == AF_INET) {
			a.s6_addr[10] = a.s6_addr[11] = 0xff;
			memcpy(&a.s6_addr[12],
			       &((struct sockaddr_in *)i->ifa_addr)->sin_addr, 4);
		} else if (i->ifa_addr->sa_family == AF_INET6) {
			a = ((struct sockaddr_in6 *)i->ifa_addr)->sin6_addr;
		} else {
			continue;
		}
		n = mcd_conf_node_by_addr(c, &a);
		if (n && found && found != n) {
			freeifaddrs(ifa);
			return -EEXIST;
		}
		if (n)
			found = n;
	}
	freeifaddrs(ifa);
	if (!found)
		return -ENOENT;
	*self = found->id;
	return 0;
}

static int open_udp(struct mcd *d)
{
	struct sockaddr_in6 sa = {
		.sin6_family = AF_INET6,
		.sin6_port = htons(d->conf.control_port),
		.sin6_addr = IN6ADDR_ANY_INIT,
	};
	int zero = 0;

	d->udp = socket(AF_INET6, SOCK_DGRAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (d->udp < 0)
		return -errno;
	setsockopt(d->udp, IPPROTO_IPV6, IPV6_V6ONLY, &zero, sizeof(zero));
	if (bind(d->udp, (struct sockaddr *)&sa, sizeof(sa)))
		return -errno;
	return 0;
}

static int open_unix(struct mcd *d)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	int sndbuf = 4 << 20;
	char dir[sizeof(sa.sun_path)], *slash;

	if (strlen(d->sock_path) >= sizeof(sa.sun_path))
		return -ENAMETOOLONG;
	strcpy(sa.sun_path, d->sock_path);
	strcpy(dir, d->sock_path);
	slash = strrchr(dir, '/');
	if (slash && slash != dir) {
		*slash = 0;
		mkdir(dir, 0755);
	}
	/*
	 * Datagrams, not a stream: a request is read only once it is all
	 * there and an answer is queued whole or dropped, so no client, slow
	 * or hostile, can stall the loop that sends the heartbeats.
	 */
	d->unix_fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC | SOCK_NONBLOCK,
			    0);
	if (d->unix_fd < 0)
		return -errno;
	setsockopt(d->unix_fd, SOL_SOCKET, SO_SNDBUFFORCE, &sndbuf,
		   sizeof(sndbuf));
	unlink(d->sock_path);
	if (bind(d->unix_fd, (struct sockaddr *)&sa, sizeof(sa)))
		return -errno;
	/*
	 * The view names every node, address and group of the cluster: only
	 * its owner and group read it.  Under mcastd.service that is user
	 * and group mcast (docs/daemon.md "Privileges"), run by hand root's.
	 */
	if (chmod(d->sock_path, 0660))
		return -errno;
	return 0;
}

static int open_signals(struct mcd *d)
{
	sigset_t set;

	sigemptyset(&set);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGHUP);
	sigprocmask(SIG_BLOCK, &set, NULL);
	signal(SIGPIPE, SIG_IGN);
	d->sig_fd = signalfd(-1, &set, SFD_CLOEXEC | SFD_NONBLOCK);
	return d->sig_fd < 0 ? -errno : 0;
}

/* The static groups of the file, with their members, managed. */
static void install_static(struct mcd *d)
{
	uint32_t i;

	for (i = 0; i < d->conf.ngroups; i++) {
		const struct mcd_conf_group *g = &d->conf.groups[i];

		if (g->fixed)
			mcd_kernel_install(&d->kernel, g->id, g->members, g->n);
	}
}

/* Every group as the view says (a restart, lost notifications). */
static void install_all(struct mcd *d)
{
	static uint32_t ids[MCD_MAX_NODES * 4], m[MCD_MAX_NODES];
	uint32_t i, n;

	n = mcd_view_groups(d->view, ids, sizeof(ids) / sizeof(ids[0]));
	for (i = 0; i < n; i++)
		on_members(d, ids[i], m,
			   mcd_view_members(d->view, ids[i], m, MCD_MAX_NODES));
	/* managed groups the view no longer has: nobody is a member */
	n = 0;
	for (i = 0; i < d->kernel.ngroups && n < MCD_MAX_NODES * 4; i++) {
		const struct mcd_kgroup *g = &d->kernel.groups[i];

		if (g->managed && !group_static(d, g->id) &&
		    !mcd_view_members(d->view, g->id, m, 1))
			ids[n++] = g->id;
	}
	for (i = 0; i < n; i++)
		mcd_kernel_install(&d->kernel, ids[i], NULL, 0);
	sweep_joined(d);
}

/*
 * The RDMA devices and ports, for cluster show.  Read at start-up and on
 * SIGHUP only, never from the loop: ports are hardware (or an rdma link
 * an administrator adds), which does not come and go on its own, and
 * opening every device is too slow for the loop that sends heartbeats.
 */
static void scan_rdma(struct mcd *d)
{
	char buf[MCD_RDMA_STR_MAX];
	unsigned int i;
	int n;

	n = mcd_rdma_scan(&d->rdma);
	if (d->rdma.err[0])
		log_warn("RDMA: %s", d->rdma.err);
	if (!d->rdma.available)
		log_info("no RDMA devices: built without libibverbs");
	else if (n == 0)
		log_info("no RDMA devices");
	for (i = 0; i < d->rdma.nports; i++) {
		mcd_rdma_format(&d->rdma.ports[i], buf, sizeof(buf));
		log_info("RDMA %s", buf);
	}
}

/* The cluster key: the control protocol's tags, and the kernel's key. */
static int setup_key(struct mcd *d)
{
	unsigned char key[MCAST_KEY_LEN];
	char err[PARSE_ERR_MAX];
	bool open;
	int e;

	if (!d->conf.key_file[0])
		return 0;
	e = key_file_read(d->conf.key_file, key, &open, err);
	if (e) {
		log_err("key: %s", err);
		return e;
	}
	if (open)
		log_warn("key: others than its owner can read %s (chmod 600 it)",
			 d->conf.key_file);
	e = mcd_auth_init(&d->auth, key);
	if (e)
		log_err("key: no HMAC-SHA256 over AF_ALG here: %s", strerror(-e));
	memcpy(d->key, key, sizeof(key));
	d->has_key = !e;
	explicit_bzero(key, sizeof(key));
	return e;
}

static int start(struct mcd *d, int rcvbuf)
{
	static const struct mcd_view_ops ops = {
		.send = on_send,
		.members = on_members,
		.node_state = on_node_state,
	};
	struct mcd_view_cfg vc = { 0 };
	uint32_t *ids, i;
	int err;

	err = setup_key(d);
	if (err)
		return err;
	d->kernel.local_changed = on_local_changed;
	d->kernel.peer_down = on_peer_down;
	d->kernel.ctx = d;
	err = mcd_kernel_open(&d->kernel, &d->conf, d->self, rcvbuf) ||
	      mcd_kernel_configure(&d->kernel) ||
	      (d->has_key && mcd_kernel_key(&d->kernel, d->key)) ||
	      mcd_kernel_dump(&d->kernel) ? -EIO : 0;
	explicit_bzero(d->key, sizeof(d->key));	/* the kernel has it */
	if (err)
		return err;
	ids = calloc(d->conf.nnodes, sizeof(*ids));
	if (!ids)
		return -ENOMEM;
	for (i = 0; i < d->conf.nnodes; i++)
		ids[i] = d->conf.nodes[i].id;
	vc.self = d->self;
	vc.nodes = ids;
	vc.nnodes = d->conf.nnodes;
	vc.incarnation = d->incarnation;
	vc.heartbeat_ms = d->conf.heartbeat_ms;
	vc.suspect_ms = d->conf.suspect_ms;
	vc.dead_ms = d->conf.dead_ms;
	vc.sync_ms = d->conf.sync_ms;
	vc.monitors = d->conf.monitors;
	/* a restart announces the groups it found, not none for a while */
	read_local(d);
	vc.groups = d->local;
	vc.ngroups = d->nlocal;
	err = open_udp(d);
	if (err) {
		free(ids);
		log_err("control port %u: %s", d->conf.control_port,
			strerror(-err));
		return err;
	}
	d->view = mcd_view_new(&vc, &ops, d, now_ms());
	free(ids);
	if (!d->view)
		return -ENOMEM;
	install_static(d);
	return 0;
}

/* ------------------------------------------------------------ the loop */

/*
 * A tagged datagram seen before (a replay), or older than @n's window:
 * false.  The incarnation is the header's, under the tag; one that does
 * not parse goes to the view, which counts it as bad.
 */
static bool fresh(struct mcd *d, const struct mcd_conf_node *n,
		  const void *buf, size_t len, uint64_t counter)
{
	struct mcd_msg m;

	if (mcd_msg_parse(buf, len, &m))
		return true;
	/* a life beyond the clock must not move the window: the view
	 * refuses and counts it */
	if (!mcd_view_inc_ok(d->view, m.incarnation, now_ms()))
		return true;
	return mcd_replay_fresh(&d->replay[n - d->conf.nodes], m.incarnation,
				counter);
}

/*
 * A STATS_PULL or STATS goes to cstats.c, not the view: it says nothing
 * about membership.  True when it was one (taken or, malformed, counted).
 */
static bool to_cstats(struct mcd *d, uint32_t idx, const void *buf,
		      size_t len)
{
	const unsigned char *p = buf;
	struct mcd_msg m;

	if (len < MCD_HDR_LEN ||
	    (p[5] != MCD_MSG_STATS_PULL && p[5] != MCD_MSG_STATS))
		return false;
	if (mcd_msg_parse(buf, len, &m) || m.from != d->conf.nodes[idx].id) {
		d->rx_bad_stats++;
		return true;
	}
	mcd_cstats_input(d, idx, &m, now_ms());
	return true;
}

static void read_udp(struct mcd *d)
{
	static unsigned char buf[MCD_DGRAM_MAX + MCD_TRAILER_LEN + 1];
	const struct mcd_conf_node *n;
	struct sockaddr_in6 sa;
	uint64_t counter;
	socklen_t sl;
	long len;
	int i;

	for (i = 0; i < 64; i++) {
		sl = sizeof(sa);
		len = recvfrom(d->udp, buf, sizeof(buf), 0,
			       (struct sockaddr *)&sa, &sl);
		if (len < 0)
			return;
		/* only a configured node's daemon, from its control port */
		n = sa.sin6_family == AF_INET6 ?
		    mcd_conf_node_by_addr(&d->conf, &sa.sin6_addr) : NULL;
		if (!n || ntohs(sa.sin6_port) != d->conf.control_port) {
			d->rx_stranger++;
			continue;
		}
		/* with a cluster key, nothing is read before its tag is */
		len = mcd_auth_open(&d->auth, buf, len, &counter);
		if (len < 0 || len > MCD_DGRAM_MAX) {
			d->rx_unauth++;
			continue;
		}
		if (d->auth.on && !fresh(d, n, buf, len, counter)) {
			d->rx_replayed++;
			continue;
		}
		if (!to_cstats(d, (uint32_t)(n - d->conf.nodes), buf, len))
			mcd_view_input(d->view, n->id, buf, len, now_ms());
	}
}

/*
 * An answer goes back in datagrams of at most MCD_SHOW_CHUNK bytes, then
 * an empty one.  A client whose queue is full gets the rest dropped (it
 * sees no end and says so).
 */
#define MCD_SHOW_CHUNK	(64 << 10)

void mcd_answer_client(struct mcd *d, const struct sockaddr_un *to,
		       socklen_t tl, const char *out, size_t len)
{
	size_t off;

	for (off = 0; off < len; off += MCD_SHOW_CHUNK) {
		size_t c = len - off < MCD_SHOW_CHUNK ? len - off : MCD_SHOW_CHUNK;

		if (sendto(d->unix_fd, out + off, c, MSG_DONTWAIT,
			   (const struct sockaddr *)to, tl) < 0)
			return;
	}
	sendto(d->unix_fd, "", 0, MSG_DONTWAIT, (const struct sockaddr *)to, tl);
}

/*
 * One request datagram from a client's bound socket: "show", "show
 * json" (answered at once), "stats", "stats json" (when the round of
 * cstats.c ends).
 */
static void serve_unix(struct mcd *d)
{
	struct sockaddr_un from;
	socklen_t fl = sizeof(from);
	char req[64], *out = NULL;
	size_t len = 0;
	ssize_t n;
	FILE *f;

	n = recvfrom(d->unix_fd, req, sizeof(req) - 1, 0,
		     (struct sockaddr *)&from, &fl);
	if (n <= 0 || fl <= sizeof(sa_family_t) || fl > sizeof(from))
		return;		/* nothing, or no address to answer */
	req[n] = 0;
	if (!strncmp(req, "stats", 5)) {
		mcd_cstats_request(d, &from, fl, strstr(req, "json") != NULL,
				   now_ms());
		return;
	}
	f = open_memstream(&out, &len);
	if (!f)
		return;
	if (!strncmp(req, "show", 4))
		mcd_show(d, f, strstr(req, "json") != NULL, now_ms());
	else
		fprintf(f, "error: unknown request (show, show json, stats, stats json)\n");
	fclose(f);
	mcd_answer_client(d, &from, fl, out, len);
	free(out);
}

static void read_signals(struct mcd *d)
{
	struct signalfd_siginfo si;

	while (read(d->sig_fd, &si, sizeof(si)) == sizeof(si)) {
		if (si.ssi_signo == SIGHUP) {
			log_notice("SIGHUP: reading the kernel's state and the RDMA devices again");
			d->kernel.resync = true;
			scan_rdma(d);
		} else {
			d->stop = true;
		}
	}
}

static void resync(struct mcd *d)
{
	d->kernel.resync = false;
	if (mcd_kernel_dump(&d->kernel))
		return;
	on_local_changed(d);
	install_static(d);
	install_all(d);
}

static uint32_t count_alive(const struct mcd *d, uint32_t *known)
{
	struct mcd_node_info ni;
	uint32_t i, alive = 0;

	*known = 0;
	for (i = 0; i < d->conf.nnodes; i++) {
		if (mcd_view_node(d->view, d->conf.nodes[i].id, &ni))
			continue;
		*known += ni.state != MCD_UNKNOWN;
		alive += ni.state == MCD_ALIVE;
	}
	return alive;
}

/* READY after the first sync, STATUS now and then, WATCHDOG. */
static void tell_systemd(struct mcd *d, uint64_t now)
{
	static uint32_t ids[MCD_MAX_NODES * 4];
	uint32_t known, alive = count_alive(d, &known), groups;

	if (!d->ready && (known == d->conf.nnodes ||
			  now - d->started_ms >= d->conf.suspect_ms)) {
		d->ready = true;
		log_notice("node %" PRIu32 ": in sync, %" PRIu32 " of %" PRIu32
			   " nodes alive", d->self, alive, d->conf.nnodes);
		install_all(d);
		mcd_sd_notify("READY=1\nSTATUS=%" PRIu32 " of %" PRIu32
			      " nodes alive", alive, d->conf.nnodes);
		d->status_next = now + 1000;
	}
	if (d->ready && now >= d->status_next) {
		groups = mcd_view_groups(d->view, ids,
					 sizeof(ids) / sizeof(ids[0]));
		mcd_sd_notify("STATUS=%" PRIu32 " of %" PRIu32
			      " nodes alive, %" PRIu32 " groups, %" PRIu64
			      " installs", alive, d->conf.nnodes, groups,
			      d->kernel.installs);
		d->status_next = now + 5000;
	}
	if (d->watchdog_ms && now >= d->watchdog_next) {
		mcd_sd_notify("WATCHDOG=1");
		d->watchdog_next = now + d->watchdog_ms;
	}
}

static int timeout_until(const struct mcd *d, uint64_t now)
{
	uint64_t next = mcd_view_next(d->view);

	if (!d->ready)
		next = next < now + 50 ? next : now + 50;
	if (d->ready && d->status_next < next)
		next = d->status_next;
	if (d->watchdog_ms && d->watchdog_next < next)
		next = d->watchdog_next;
	if (mcd_cstats_next(d) < next)
		next = mcd_cstats_next(d);
	return next <= now ? 0 : (int)(next - now > 60000 ? 60000 : next - now);
}

static int run(struct mcd *d, bool uring)
{
	enum { EV_KERNEL, EV_UDP, EV_UNIX, EV_SIG };
	struct mcd_loop loop;
	bool ready[MCD_LOOP_MAX];
	uint64_t now;
	int err;

	if (mcd_loop_init(&loop, uring)) {
		log_warn("no io_uring here: using poll()");
		uring = false;
		mcd_loop_init(&loop, false);
	}
	log_info("event loop: %s", uring ? "io_uring" : "poll");
	mcd_loop_add(&loop, mcd_kernel_event_fd(&d->kernel));
	mcd_loop_add(&loop, d->udp);
	mcd_loop_add(&loop, d->unix_fd);
	mcd_loop_add(&loop, d->sig_fd);
	while (!d->stop) {
		now = now_ms();
		mcd_view_tick(d->view, now);
		mcd_cstats_tick(d, now);
		tell_systemd(d, now);
		err = mcd_loop_wait(&loop, timeout_until(d, now), ready);
		if (err < 0) {
			log_err("event loop: %s", strerror(-err));
			break;
		}
		if (ready[EV_SIG])
			read_signals(d);
		if (ready[EV_KERNEL] && mcd_kernel_events(&d->kernel) < 0)
			d->kernel.resync = true;
		if (d->kernel.resync)
			resync(d);
		if (ready[EV_UDP])
			read_udp(d);
		if (ready[EV_UNIX])
			serve_unix(d);
	}
	mcd_loop_fini(&loop);
	return d->stop ? 0 : 1;
}

/* ----------------------------------------------------------------- main */

static void usage(FILE *f)
{
	fputs("usage: mcastd [-c FILE] [--check] [--node C] [--socket PATH] [--poll]\n"
	      "              [-v|-q] [--log-time] [--events-rcvbuf BYTES]\n"
	      "       mcastd --version\n"
	      "\n"
	      "Runs this node of the mcast cluster that FILE (default "
	      MCD_CONF_DEFAULT ")\n"
	      "describes: configures the node and its peers, and keeps every group's\n"
	      "members, R-chain and H-cycle in the kernel as nodes join, leave, come\n"
	      "and go.  --check validates FILE and exits.  See mcastd(8).\n", f);
}

struct opts {
	const char *conf, *node, *sock;
	bool check, poll;
	int rcvbuf;
};

/* The options; --complete lists them (utils/completion/mcast.bash). */
static const struct option lo[] = {
	{ "config", required_argument, NULL, 'c' },
	{ "check", no_argument, NULL, 'C' },
	{ "node", required_argument, NULL, 'n' },
	{ "socket", required_argument, NULL, 'S' },
	{ "poll", no_argument, NULL, 'P' },
	{ "events-rcvbuf", required_argument, NULL, 'R' },
	{ "log-time", no_argument, NULL, 'T' },
	{ "verbose", no_argument, NULL, 'v' },
	{ "quiet", no_argument, NULL, 'q' },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, 'V' },
	{ NULL, 0, NULL, 0 },
};

static int parse_args(int argc, char **argv, struct opts *o)
{
	int c;
	u32 v;

	if (argc >= 2 && !strcmp(argv[1], COMPLETE_ARG)) {
		complete_opts((const struct option *const[]){ lo, NULL },
			      argc - 2, argv + 2);
		exit(0);
	}

	while ((c = getopt_long(argc, argv, "c:vqhV", lo, NULL)) != -1) {
		switch (c) {
		case 'c':
			o->conf = optarg;
			break;
		case 'C':
			o->check = true;
			break;
		case 'n':
			o->node = optarg;
			break;
		case 'S':
			o->sock = optarg;
			break;
		case 'P':
			o->poll = true;
			break;
		case 'R':
			if (parse_u32(optarg, 1 << 26, &v)) {
				fprintf(stderr, "mcastd: --events-rcvbuf: expected bytes\n");
				return MCASTCTL_EUSAGE;
			}
			o->rcvbuf = v;
			break;
		case 'T':
			mcd_log_time = true;
			break;
		case 'v':
			mcd_log_level++;
			break;
		case 'q':
			mcd_log_level = LOG_L_WARN;
			break;
		case 'h':
			usage(stdout);
			exit(0);
		case 'V':
			printf("mcastd %s\n", MCASTD_VERSION);
			exit(0);
		default:
			usage(stderr);
			return MCASTCTL_EUSAGE;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "mcastd: unexpected argument \"%.64s\"\n",
			argv[optind]);
		return MCASTCTL_EUSAGE;
	}
	if (mcd_log_level > LOG_L_DEBUG)
		mcd_log_level = LOG_L_DEBUG;
	return 0;
}

static int pick_self(struct mcd *d, const char *node)
{
	char err[PARSE_ERR_MAX];
	int e;

	if (node) {
		if (parse_coord(&d->conf.torus, node, &d->self, err)) {
			fprintf(stderr, "mcastd: --node: %s\n", err);
			return MCASTCTL_EUSAGE;
		}
		if (!mcd_conf_node(&d->conf, d->self)) {
			fprintf(stderr, "mcastd: --node %s: not a node of %s\n",
				node, d->conf.path);
			return MCASTCTL_EINPUT;
		}
		return 0;
	}
	e = find_self(&d->conf, &d->self);
	if (e == -ENOENT)
		fprintf(stderr, "mcastd: no address of this host is a node of %s (use --node C)\n",
			d->conf.path);
	else if (e == -EEXIST)
		fprintf(stderr, "mcastd: this host has the addresses of several nodes of %s (use --node C)\n",
			d->conf.path);
	else if (e)
		fprintf(stderr, "mcastd: getifaddrs: %s\n", strerror(-e));
	return e ? MCASTCTL_EINPUT : 0;
}

static int check_only(const struct mcd_conf *c)
{
	uint32_t i, fixed = 0;

	for (i = 0; i < c->ngroups; i++)
		fixed += c->groups[i].fixed;
	printf("%s: OK: %s, %" PRIu32 " nodes, data port %u, control port %u, %"
	       PRIu32 " groups declared (%" PRIu32 " static)\n", c->path,
	       c->topology, c->nnodes, c->port, c->control_port, c->ngroups,
	       fixed);
	return 0;
}

int main(int argc, char **argv)
{
	static struct mcd d = { .udp = -1, .unix_fd = -1, .sig_fd = -1,
				.auth = { .op = -1 } };
	struct opts o = { .conf = MCD_CONF_DEFAULT, .sock = MCD_SOCKET_DEFAULT };
	char err[MCD_CONF_ERR_MAX];
	int rc;

	mcd_log_init();
	rc = parse_args(argc, argv, &o);
	if (rc)
		return rc;
	if (mcd_conf_load(o.conf, &d.conf, err)) {
		fprintf(stderr, "mcastd: %s\n", err);
		return MCASTCTL_EINPUT;
	}
	if (o.check)
		return check_only(&d.conf);
	rc = pick_self(&d, o.node);
	if (rc)
		goto out;
	scan_rdma(&d);
	d.replay = calloc(d.conf.nnodes, sizeof(*d.replay));
	if (!d.replay || mcd_cstats_init(&d)) {
		rc = MCASTCTL_EINPUT;
		log_err("out of memory");
		goto out;
	}
	d.sock_path = o.sock;
	d.incarnation = clock_ms(CLOCK_REALTIME);
	d.started_ms = now_ms();
	d.watchdog_ms = mcd_sd_watchdog_ms();
	rc = MCASTCTL_EKERNEL;
	if (open_signals(&d) || open_unix(&d)) {
		log_err("cannot open %s: %s", d.sock_path, strerror(errno));
		goto out;
	}
	if (start(&d, o.rcvbuf))
		goto out;
	log_notice("node %" PRIu32 " of %s: incarnation %" PRIu64
		   ", %" PRIu32 " nodes, control port %u", d.self, d.conf.path,
		   d.incarnation, d.conf.nnodes, d.conf.control_port);
	rc = run(&d, !o.poll);
	mcd_sd_notify("STOPPING=1");
	log_notice("stopping: the kernel keeps the groups as they are");
out:
	if (d.view)
		mcd_view_free(d.view);
	if (d.kernel.ev || d.kernel.cmd.sk)
		mcd_kernel_close(&d.kernel);
	if (d.unix_fd >= 0) {
		close(d.unix_fd);
		unlink(d.sock_path);
	}
	if (d.udp >= 0)
		close(d.udp);
	if (d.sig_fd >= 0)
		close(d.sig_fd);
	mcd_auth_fini(&d.auth);
	free(d.replay);
	mcd_cstats_free(&d);
	mcd_conf_free(&d.conf);
	return rc;
}
