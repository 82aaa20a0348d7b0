/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * A node's state (struct mcast_net: one per network namespace) and what
 * net.c does with it: topology, peers, groups and their local members,
 * open files, statistics.  The README's Layout lists the module's parts.
 *
 * Locking: mcast_net.lock (a mutex) covers the node's configuration, its
 * peers and groups, every group's list of local members and the node's
 * list of open files.  A file's receive queue has its own spinlock, taken
 * inside mcast_net.lock when delivering.  Statistics are atomic.
 *
 * The data path (data*.c) runs under mcast_net.lock too, from the
 * transport's receive work and the node's timer work (mcast_wq), so a
 * node's protocol state is never touched concurrently.
 *
 * Lifetime: an open file holds a reference on its network namespace
 * (get_net), so the node state outlives every file of the node: a
 * namespace whose last process left while files are still open is freed
 * when the last of those files is closed.
 */
#ifndef MCAST_NET_H
#define MCAST_NET_H

#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/spinlock.h>
#include <linux/timer.h>
#include <linux/wait.h>
#include <linux/xarray.h>
#include <linux/refcount.h>
#include <linux/atomic.h>
#include <linux/in6.h>
#include <net/net_namespace.h>
#include <uapi/linux/mcast.h>

#include "auth.h"
#include "topology.h"

struct mcast_rx_meta;
struct mcast_burst;

#define MCAST_DEFAULT_PORT	7447
#define MCAST_DEFAULT_RTO_MS	200
#define MCAST_DEFAULT_ALGO_R	8	/* mu-torus r: Robinson 1994 Sec 6.6 */
#define MCAST_ALGO_R_MAX	255	/* r travels in one header byte */
#define MCAST_DEFAULT_RETRIES	6

struct mcast_stats {
	atomic64_t tx_msgs;
	atomic64_t tx_bytes;
	atomic64_t rx_msgs;
	atomic64_t rx_bytes;
	atomic64_t rx_drops;
	/* node only: */
	atomic64_t fwd_msgs;
	atomic64_t tx_packets;
	atomic64_t rx_packets;
	atomic64_t retrans;
	atomic64_t fast_retrans;
	atomic64_t dups;
	atomic64_t peer_fails;
	atomic64_t unreached;
	atomic64_t rx_bad_src;
	atomic64_t rx_malformed;
	atomic64_t rewinds;
	atomic64_t tx_expired;
	atomic64_t busy_sent;
	atomic64_t late;
	atomic64_t rx_bad_auth;
	atomic64_t timer_ns;
	atomic64_t cutoffs;
	atomic64_t rx_stale;
	atomic64_t worms;
	atomic64_t worm_dests;
	atomic64_t worm_splits;
	atomic64_t offload_fallbacks;
	atomic64_t rx_worms;
	atomic64_t rb_sent;
	atomic64_t rb_assembled;
	atomic64_t rb_fallbacks;
	atomic64_t worm_resends;
	atomic64_t done_probes;
	atomic64_t rx_young;
	atomic64_t acks_old;
	atomic64_t tcp_evicted;		/* tcp.c: connections closed */
	atomic64_t tcp_unauthed;
	atomic64_t tcp_idle;
	atomic64_t tcp_bad_frames;
};

struct mcast_peer {
	u32 id;
	bool ipv6;
	union {
		__be32 v4;
		struct in6_addr v6;
	} addr;
	u16 port;
	bool down;		/* gave up on it; cleared when it speaks */
	unsigned long heard;	/* jiffies of its last datagram */
	bool heard_ever;	/* ... if any came */
	u32 rx_jobs;		/* transfers from it being reassembled */
	u32 jobs;		/* ... or forwarded (mcast_job_count()) */
	u32 held;		/* messages from it held for FIFO order */
	u32 streams;		/* FIFO streams its datagrams made here */
	u32 rb;			/* its RB broadcasts being assembled */
	u64 rx_mem;		/* reassembly bytes its transfers reserve */
	u64 fwd_mem;		/* bytes of its messages being forwarded */
	u32 tx_active;		/* transfers to it sending data */
	u32 srtt_us;		/* smoothed round trip time, 0: no sample */
	u32 rttvar_us;		/* its mean deviation */
	u32 rto_held_ms;	/* a backed-off RTO kept until a valid
				 * sample (Karn), 0: none
				 */
	struct mcast_replay replay;	/* its authenticated counters */
};

/* A group as this node knows it. */
struct mcast_group {
	u32 id;
	u32 epoch;
	u32 nmembers;
	u32 *members;		/* node ids, as configured */
	u32 *rchain;		/* members in <_d order (R-chain base) */
	u32 *hcycle;		/* members in label order, or NULL */
	struct list_head local;	/* struct mcast_member.group_link */
	u32 nlocal;
	bool managed;		/* mcastd keeps it: MCAST_GROUP_A_MANAGED */
	struct mcast_stats stats;
};

/* One open file's membership of one group. */
struct mcast_member {
	struct list_head group_link;	/* in mcast_group.local */
	struct list_head file_link;	/* in mcast_file.groups */
	struct mcast_file *file;
	struct mcast_group *group;
	bool lossy;			/* MCAST_JOIN_LOSSY */
};

struct mcast_file {
	struct mcast_net *mn;
	struct net *net;		/* reference held while open */
	struct list_head node_link;	/* in mcast_net.files */
	struct list_head groups;	/* struct mcast_member.file_link */
	spinlock_t rx_lock;
	struct list_head rxq;		/* struct mcast_rxent */
	u32 rxq_len;
	u64 rxq_bytes;
	u32 dropped;			/* since the last receive */
	/* Lossless delivery (msg.c), under rx_lock: */
	bool wanted;			/* a delivery waits for room */
	bool cutoff;			/* stalled too long: loses, reported */
	unsigned long stall_since;	/* jiffies: full since (0: not full) */
	wait_queue_head_t wq;
	struct pid *tgid;		/* the opener's; events translate it */
};

struct mcast_net {
	struct net *net;
	struct mutex lock;		/* see the top of this file */
	bool configured;
	/* whose numbers events give pids in: the configuring process's */
	struct pid_namespace __rcu *pidns;
	struct mc_torus torus;
	u32 *sw_rank;			/* a switched cluster's: torus.rank */
	u32 *sw_unrank;
	u32 node_id;
	u16 coord[MCAST_MAX_DIMS];
	struct xarray peers;		/* id -> struct mcast_peer */
	u32 npeers;
	struct xarray groups;		/* id -> struct mcast_group */
	u32 ngroups;
	struct list_head files;		/* struct mcast_file.node_link */
	u32 nfiles;
	atomic64_t seq;			/* last message sequence number */
	struct mcast_stats stats;

	/* data path (data*.c) and transport (transport.c, udp.c, tcp.c) */
	u16 port;			/* MCAST_NODE_A_PORT */
	u32 rto_ms;
	u32 retries;
	u8 algo;			/* enum mcast_algorithm */
	u32 algo_r;			/* mu-torus r, 2..MCAST_ALGO_R_MAX */
	bool dying;			/* netns exit: arm nothing more */
	const struct mcast_transport_ops *tp;	/* MCAST_NODE_A_TRANSPORT */
	void *tp_priv;			/* its state; NULL: not open */
	u16 tp_port;			/* the port it is open on */
	u32 tp_conns;			/* connections it accepted and holds */
	/* the datagram mcast_data_rx_meta() is taking, or NULL */
	const struct mcast_rx_meta *rx_meta;
	/* charged for what rx_work and timer_work allocate, or NULL */
	struct mem_cgroup *memcg;
	struct work_struct rx_work;	/* runs tp->rx() */
	struct delayed_work timer_work;
	bool slow_tick;			/* timer_work is on its idle tick */
	struct list_head jobs;		/* struct mcast_job.link: live ones */
	struct list_head done_jobs;	/* ... finished receivers', oldest first */
	u32 njobs, ndone;		/* receivers' live and finished jobs */
	u64 fwd_mem;			/* bytes of messages being forwarded */
	struct list_head rbs;		/* struct mcast_rb.link: RB roots and
					 * assemblies, live and finished
					 */
	struct xarray rb_index;		/* (src, seq) -> struct mcast_rb */
	u32 nrb;			/* assemblies among them */
	struct list_head acks;		/* jobs owing an ACK (mcast_job.ack_link) */
	struct list_head acks_held;	/* ... that their DONE may answer */
	struct xarray rjobs;		/* (parent, xid) -> receiving job */
	struct xarray txs;		/* xid -> struct mcast_tx */
	u32 next_xid;
	u32 rx_epoch;			/* receiving jobs made (mcast_job.epoch) */
	u32 incarnation;		/* this life of the node: random, not 0 */
	unsigned long born;		/* jiffies: this life began */
	struct xarray tx_streams;	/* group -> per-destination last seq */
	struct xarray rx_streams;	/* (src, group) -> FIFO state */
	struct list_head rx_lru;	/* its streams, least recently used first */
	struct list_head held_streams;	/* those holding messages */
	u32 nstreams, nheld;		/* rx streams, messages they hold */
	u64 held_mem;			/* bytes of those messages */
	struct list_head tx_lru;	/* struct mcast_tstream.lru */
	struct xarray rx_floor;		/* src -> seq of forgotten streams */
	unsigned long streams_checked;	/* last look for idle streams */
	u64 rx_mem;			/* bytes held by reassembly */
	u32 inflight;			/* root jobs not yet complete */
	u64 inflight_bytes;
	u32 tx_out;			/* DATA fragments sent, not yet acked */
	u32 cwnd;			/* how many tx_out may reach */
	u32 ssthresh;			/* slow start below it */
	u32 cwnd_acc;			/* acks toward the next increase */
	unsigned long cwnd_cut;		/* jiffies of the last decrease */
	wait_queue_head_t send_wq;	/* senders waiting for room */
	u32 room_gen;			/* a lossless file made room: the
					 * count of times, for waiters
					 */
	u32 nblocked;			/* streams waiting for such room */
	/*
	 * A non-blocking send found a lossless local file full at room_gen
	 * blocked_gen: poll() says not writable until room_gen moves, which
	 * room_timer makes it do a second later at the latest.
	 */
	bool local_full;
	u32 blocked_gen;
	struct timer_list room_timer;
	struct mcast_burst *burst;	/* NULL until the first burst */
	struct mcast_auth auth;		/* cluster keys (auth.h) */
};

/* net.c */
extern unsigned int mcast_net_id;
struct mcast_net *mcast_net(const struct net *net);
/* Sets up and tears down @mn's own part of the node (node.c orders them). */
void mcast_net_setup(struct mcast_net *mn, struct net *net);
void mcast_net_teardown(struct mcast_net *mn);
void mcast_group_free(struct mcast_group *g);
/*
 * @sa is @p's configured address (and port, unless sin6_port is 0: the
 * transport cannot vouch for one); IPv4 as v4-mapped IPv6.
 */
bool mcast_peer_addr_is(const struct mcast_peer *p,
			const struct sockaddr_in6 *sa);
/* How many peers of @mn have @sa's address (the port is not compared). */
u32 mcast_addr_peers(struct mcast_net *mn, const struct sockaddr_in6 *sa);
/* Every local member of @g leaves it (with its event). */
void mcast_group_drop_members(struct mcast_net *mn, struct mcast_group *g);
/* Removes @g from the node (its local members leave) and frees it. */
void mcast_group_destroy(struct mcast_net *mn, struct mcast_group *g);
void mcast_file_attach(struct mcast_file *f, struct net *net);
void mcast_file_detach(struct mcast_file *f);
int mcast_group_join(struct mcast_file *f, u32 group, u32 flags);
int mcast_group_leave(struct mcast_file *f, u32 group);

#endif /* MCAST_NET_H */
