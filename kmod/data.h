/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * The network data path: U-torus trees (Robinson (1994), Fig. 4.9), or
 * path-based worms (ch. 6: through the transport's intermediate reception, or
 * in software as chains; data_spread.c, docs/data-path.md "The offload
 * path"), with per-hop reliability, FIFO delivery per (sender, group),
 * completion and failure takeover.
 *
 * A U-torus send plans over its R-chain: the group's members sorted by <_d (plus
 * the sender if it is not a member), rotated to the sender.  Every transfer
 * (one hop of the tree) carries the receiver's piece of the chain as an
 * explicit list of node ids, receiver first, so a message is self-contained:
 * a receiver runs mc_sender_next() over the list it got and needs no group
 * state, and a membership change during a send cannot make two nodes
 * disagree on the pieces (Robinson (1994), Sec. 6.5, "in the header").  Each
 * list entry also carries, for that destination, the sequence number of the
 * previous message of the same stream (sender, group) sent to it: the
 * receiver delivers in that order, so FIFO holds per (sender, group) and
 * a node never waits for a message that was not addressed to it.
 *
 * Wire format (one datagram of the transport, big endian): struct mcw_hdr, then for DATA a
 * fragment of the transfer payload "piece entries (be32 node, be64 prev),
 * then the message"; for DONE the ids of the nodes that could not be
 * reached.  A transfer is named by its sender's id and the sender's
 * transfer id (xid).
 *
 * Reliability, per hop: the receiver acknowledges every DATA fragment
 * (with the count of contiguous fragments it holds); the sender keeps at
 * most MCAST_PEER_TXS transfers per peer sending data (the rest queue;
 * a transfer leaves the window once all its data is acknowledged, so
 * waiting for DONE holds no slot and trees cannot deadlock on each other)
 * and at most MCAST_WIN fragments unacknowledged per transfer and
 * retransmits on a timeout that doubles up to MCAST_RTO_MAX_MS.  Once the
 * piece has arrived, the receiver starts its child transfers and relays
 * each fragment as soon as it holds every byte of it (cut-through); once it
 * has the whole message it delivers locally and, when every child transfer
 * has finished, sends DONE with the failures of its subtree (in as many
 * datagrams as the list needs); the parent keeps probing (resending the last
 * fragment, answered by ACK while busy or DONE when finished) until then.
 * After mn->retries timeouts without an answer (a timeout in which the
 * child spoke about other transfers counts a quarter) the child is declared
 * down (PEER_DOWN event), listed as failed, and its parent takes over the
 * child's piece minus the child: U-torus again over (parent, rest of the
 * piece).  A destination without a configured address is failed at once
 * (ERROR event) and its piece taken over the same way.  Nodes that already
 * got the message from the dead child suppress the duplicate.
 *
 * Trust: a datagram counts only from its sender's configured address
 * (mcast_data_rx()), and a DATA only once its fields and length fit
 * (before any state is made) and its piece is a run of an R-chain.
 *
 * State is bounded (the MCAST_*_MAX and *_PER_PEER constants below,
 * docs/data-path.md "Bounds"): reassembly, live and finished jobs,
 * forwarded and held messages, streams, each per peer and per node,
 * checked before a transfer is taken; past a bound a fragment is answered
 * BUSY and not acknowledged, so the parent retransmits later
 * (back-pressure, never silent loss) without taking a busy child for a
 * dead one.  Every transfer ends within transfer_lifetime_ms, its
 * destinations reported failed if it has not finished.  A sender has at
 * most MCAST_INFLIGHT_MAX messages (MCAST_INFLIGHT_BYTES) in flight and
 * blocks (interruptibly) for room.  Streams idle for stream_idle_ms are
 * forgotten at both ends.
 *
 * Its files, from the bottom up:
 *   data_job.c    the lifetimes of jobs (a node's part in one message),
 *                 transfers and worms, completion and DONE, the helpers
 *                 to send with
 *   data_tx.c     sending a transfer: framing, the windows, bursts, worms
 *                 to several transfers at once, the RTO
 *   data_spread.c a holder's piece into transfers by its algorithm
 *                 (U-torus, separate, worms in hardware or as chains) and
 *                 the takeover of a dead child's piece
 *   data_hop.c    transfers once sent: ACKs, retransmission, DONE
 *                 collection, a dead, restarted or expired child
 *   data_fifo.c   local delivery exactly once and in order per stream
 *   data_rx.c     receiving: reassembly, batched ACKs, cut-through forwarding
 *   data_rb.c     recursion-based broadcast: byte ranges from several
 *                 senders assembled per (src, seq), reports to the root,
 *                 its U-torus fallback
 *   data_send.c   the send entry point: the algorithm, planning the R-chain
 *                 or H-cycle, completion mode
 *   data_work.c   on top: the node's receive and timer work, start and stop
 * docs/data-path.md describes the protocol.
 */
#ifndef MCAST_DATA_H
#define MCAST_DATA_H

#include <linux/completion.h>
#include <linux/ktime.h>
#include <linux/list.h>
#include <linux/types.h>
#include <linux/uio.h>
#include <linux/xarray.h>

#include "chain.h"
#include "msg.h"
#include "net.h"
#include "obj.h"
#include "transport.h"

/* Wire format: every datagram starts with struct mcw_hdr (big endian). */
#define MCW_VERSION	1
enum {
	MCW_DATA = 1,
	MCW_ACK = 2,
	MCW_DONE = 3,
	MCW_REPORT = 4,		/* an RB member to its root (data_rb.c) */
	MCW_REPORT_ACK = 5,
};
#define MCW_F_TRUNC	0x01	/* DONE: the failure list is cut short */
#define MCW_F_BUSY	0x02	/* ACK: alive, but no room for it yet */
/*
 * DATA: a timeout's probe; ACK: answers one (the receiver has seen a
 * datagram sent after everything the probe's sender had sent before it)
 */
#define MCW_F_PROBE	0x01
/*
 * DATA: a fragment sent again before the receiver was heard from (its
 * incarnation 0).  A receiver that restarted since cannot tell it from
 * one its old life took, so while young it asks first (mcast_rx_refuse()).
 */
#define MCW_F_AGAIN	0x02
/* ACK: that question, from a node @count ms old (data_hop.c) */
#define MCW_F_YOUNG	0x04
/*
 * ACK: it answers a fragment the receiver already held: a copy it did not
 * need, so the timeout that sent it was early, not a loss (data_hop.c)
 */
#define MCW_F_DUP	0x10
#define MCW_F_AUTH	0x80	/* an authentication trailer follows (auth.h) */
/*
 * DATA: the algorithm the receiver forwards with (enum mc_algo; 0 and 1
 * are U-torus); for mu-torus the header's pad byte is r.
 */
#define MCW_F_ALGO_SHIFT	2
#define MCW_F_ALGO_MASK		(7 << MCW_F_ALGO_SHIFT)
/*
 * DATA: a software worm (no IR): the receiver heads the first piece of
 * the compound table and passes the rest on, in the same phase, to the
 * next head (data_spread.c).
 */
#define MCW_F_CHAIN		0x20
/*
 * DATA: byte ranges of a recursion-based broadcast (data_rb.c): the
 * table is every node's prev then one RB entry, and the algorithm bits
 * and the pad are 0.  REPORT: the message is whole at its sender.
 */
#define MCW_F_RB		0x40
/*
 * A path-based transfer's piece table is compound (Fig 6.2): the pieces of
 * every destination of its worm, in visiting order, each one's first
 * entry (its destination) marked MCW_E_HEAD with the piece's md-torus
 * level; node ids fit in MCW_E_ID (MC_MAX_NODES).
 */
#define MCW_E_HEAD		BIT(31)
#define MCW_E_LEVEL_SHIFT	24
#define MCW_E_LEVEL_MASK	(0x7f << MCW_E_LEVEL_SHIFT)
#define MCW_E_ID		(MC_MAX_NODES - 1)

struct mcw_hdr {
	u8 version;
	u8 type;
	u8 flags;
	u8 pad;
	__be32 src;		/* the message's sender */
	__be32 from;		/* this datagram's sender */
	__be32 xid;		/* the transfer, as its sender names it */
	__be64 seq;		/* the message, per sender */
	__be32 group;
	__be32 step;		/* DATA: the receiver's U-torus step;
				 * ACK, DONE: the sender's incarnation
				 */
	__be32 msg_len;		/* DATA: message bytes */
	__be32 count;		/* DATA: piece entries; DONE: failed nodes;
				 * ACK with MCW_F_YOUNG: the node's age, ms;
				 * other ACKs: the receiving job's epoch
				 */
	__be32 frag;		/* DATA: this fragment; ACK: the one acked */
	__be32 cum;		/* ACK: fragments below it all received;
				 * DATA: the receiver's incarnation as the
				 * transfer knows it (0: not heard yet)
				 */
} __packed;

#define MCW_ENTRY		12	/* be32 node, be64 prev */

/* Bounds and timers. */
#define MCAST_WIN		64	/* per transfer: sent from cum on */
#define MCAST_DUPTHRESH		3	/* later fragments acked: one is lost */
#define MCAST_TX_FLOOR		2	/* ... that the node's window never blocks */
#define MCAST_CWND_MIN		16	/* the node's window: unacked fragments */
#define MCAST_CWND_INIT		128	/* of all its transfers together */
#define MCAST_CWND_MAX		4096
#define MCAST_BURST_MAX		64	/* DATA datagrams per ->xmit() */
#define MCAST_PEER_TXS		16	/* transfers sending data to one peer */
#define MCAST_TICK		max(1UL, msecs_to_jiffies(10))
#define MCAST_IDLE_TICK		msecs_to_jiffies(1000)
#define MCAST_RTO_MAX_MS	1000	/* backoff cap, unless the RTT is longer */
#define MCAST_RTO_BASE_MAX_MS	4000	/* cap of the measured RTO */
#define MCAST_RX_MEM_MAX	(64u << 20)	/* reassembly, reserved */
#define MCAST_RX_PER_PEER	32
/*
 * One peer's share of the reassembly bytes: what one sender can have in
 * flight (MCAST_INFLIGHT_BYTES), a quarter of the node's, so no one peer
 * (a forger at its address included) can take the room of the others.
 */
#define MCAST_RX_MEM_PER_PEER	(16u << 20)
/* State a peer can make this node keep (past a bound: BUSY) */
#define MCAST_JOBS_PER_PEER	256	/* its transfers received or forwarded */
#define MCAST_JOBS_MAX		2048	/* ... everyone's */
#define MCAST_DONE_MAX		4096	/* finished jobs remembered (past it
					 * the oldest is forgotten early)
					 */
#define MCAST_MSG_MEM_MAX	(192u << 20)	/* forwarded and held bytes */
#define MCAST_MSG_MEM_PER_PEER	(48u << 20)	/* ... of one peer's: a quarter */
/*
 * Messages held (for FIFO order, or for room in a lossless receiver): each
 * keeps its job live, so the jobs bounds above stop them first; these
 * stay as a second line.
 */
#define MCAST_HELD_MAX		4096
#define MCAST_HELD_PER_PEER	1024	/* ... that came from one peer */
#define MCAST_STREAMS_MAX	16384	/* (sender, group) streams */
#define MCAST_STREAMS_PER_PEER	4096	/* ... made by one peer's datagrams */
#define MCAST_INFLIGHT_MAX	64
#define MCAST_INFLIGHT_BYTES	(16u << 20)
#define MCAST_DONE_KEEP_MS	20000
#define MCAST_WAIT_DEFAULT_MS	30000
/*
 * Recursion-based broadcast: every transfer carries every node's prev,
 * so clusters up to this size; broadcasts a node assembles at once, and
 * of one sender (each is a job of its sender's too).
 */
#define MCAST_RB_NODES_MAX	256
#define MCAST_RB_MAX		256
#define MCAST_RB_PER_PEER	MCAST_INFLIGHT_MAX

enum mcast_job_state { JOB_RX, JOB_FWD, JOB_DONE };

struct mcast_job;

/*
 * A job that is no tree's (a recursion-based broadcast's root or
 * assembly, data_rb.c) says through these what happens where the layers
 * below would treat it as a tree's; they call them knowing nothing of it.
 */
struct mcast_job_ops {
	/* it is finished: instead of DONE to a parent */
	void (*done)(struct mcast_net *mn, struct mcast_job *job);
	/* a transfer of its own kind (tx->rb) failed: no piece to take over */
	void (*tx_failed)(struct mcast_net *mn, struct mcast_job *job);
	/* one has sent and had acknowledged all its data, or ended */
	void (*tx_ended)(struct mcast_net *mn, struct mcast_job *job);
	/* it is being freed */
	void (*release)(struct mcast_net *mn, struct mcast_job *job);
};

/* A node's part in one message: the root at the sender, else a receiver. */
struct mcast_job {
	struct list_head link;		/* mcast_net.jobs, or .done_jobs */
	struct list_head ack_link;	/* mcast_net.acks: an ACK is due */
	u32 ack_frag;			/* the fragment it answers */
	bool ack_probe;			/* ... and a probe among them */
	unsigned long ack_due;		/* in mn->acks_held: sent then */
	bool root;
	bool waiting;			/* root: a sender waits for it */
	bool told;			/* root: its sender had the failed list */
	bool separate;			/* root: one transfer per destination */
	u8 algo;			/* enum mc_algo it forwards with */
	u8 r;				/* mu-torus partition size; the
					 * cube's enum mc_cube_algo
					 */
	u8 level;			/* md-torus: its piece's level */
	bool chain;			/* got a software worm: pass it on */
	u32 plen;			/* entries of nodes[], its piece */
	enum mcast_job_state state;
	u32 src, parent, xid, group, step, nsent;
	u64 seq;
	u32 msg_len, count, total, nfrags, nrecv;
	u32 cum;			/* fragments below it all received */
	u32 epoch;			/* receiver: its number among this
					 * life's receiving jobs, never 0 (its
					 * ACKs' count: mcast_tx_child_job())
					 */
	bool started;			/* the piece is known, forwarding began */
	unsigned long *have;		/* fragments received */
	u8 *pbuf;			/* received piece entries */
	/*
	 * Receiver: the message grows as it arrives (data_rx.c): msg holds
	 * the bytes of fragments below @merged in @mcap bytes, and @ooo the
	 * data of later ones received (frag -> its bytes), until then.
	 */
	struct mcast_msg *msg;
	u32 mcap, merged;
	struct xarray ooo;
	unsigned long born;		/* receiver: its first fragment came */
	u32 *nodes;			/* the piece, this node first */
	u64 *prevs;
	struct list_head txs;		/* struct mcast_tx.link */
	u32 pending;			/* transfers, and a held message */
	struct mcast_held *held;	/* the message it waits to see delivered:
					 * its own, or a copy's held before it
					 */
	struct list_head held_link;	/* in held->jobs, while held is set */
	u32 *failed;
	u32 nfailed, failcap;
	bool trunc;
	unsigned long stamp;
	u64 vtime, vlat;		/* virtual clock: its latest fragment's
					 * copy, and that worm's latency
					 */
	unsigned long done_again;	/* no DONE resent before then */
	bool counted;			/* in the node's and parent's jobs */
	bool fwd_charged;		/* its msg_len is in mn->fwd_mem */
	bool rbx;			/* receives an RB transfer's ranges */
	u8 rbmode;			/* a send's pick: MCAST_ALGORITHM_RB* */
	const struct mcast_job_ops *ops;	/* NULL: a tree's */
	struct mcast_rb *rb;		/* an RB broadcast's root or assembly */
	u64 bytes;
	struct completion done;
};

/*
 * Transfers to the destinations of one worm: each keeps its own window and
 * acknowledgements; fragments they all have due go out as one worm
 * (data_tx.c), and they share the compound piece table.
 */
struct mcast_worm {
	u32 n;				/* destinations */
	u32 live;			/* transfers still pointing here */
	u8 *pbuf;			/* the compound piece table */
	u32 plen;			/* its bytes */
	struct mcast_tx **tx;		/* n, NULL once freed */
	/* scratch for one fragment to all of them */
	struct mcw_hdr *hdr;
	u8 (*trailer)[MCW_AUTH_LEN];
	struct kvec *head, *tail;
	u32 *to;
	struct mcast_tx **sel;
};

/* One transfer: this node sends @job's message to the head of a piece. */
struct mcast_tx {
	struct list_head link;
	struct mcast_job *job;
	struct mcast_worm *worm;	/* its worm's, or NULL */
	u32 worm_idx;
	u8 level;			/* md-torus level of its piece */
	bool chain;			/* a software worm: MCW_F_CHAIN */
	bool rb;			/* RB ranges: MCW_F_RB, @data; its
					 * job has ops
					 */
	u8 *data;			/* its body (NULL: the job's message) */
	u32 dlen;			/* ... and its bytes */
	bool data_own;			/* @data is its own (freed with it) */
	u32 xid, to, step, len;
	u32 child_inc;			/* the child's incarnation (0: unheard) */
	u32 child_epoch;		/* its job's epoch (0: unheard) */
	u32 *nodes;			/* the piece, receiver first */
	u64 *prevs;
	u8 *pbuf;			/* the piece as sent (the worm's) */
	u32 plen, total, nfrags, nacked, next, cum;
	u32 sent;			/* fragments below: sent before */
	u32 fast;			/* fragments below: fast-retransmitted */
	u32 probe_next;			/* next when the probe went out */
	bool probing;			/* a probe went out, unanswered */
	unsigned long *acked;
	u32 tries, max_tries;		/* quarters: see mcast_tx_timer() */
	u32 done_parts;			/* DONE datagrams expected (0: none yet) */
	u64 done_got;			/* the DONE datagrams received */
	unsigned long rto, deadline;
	u32 rtt_frag;			/* the fragment being timed, or U32_MAX */
	ktime_t rtt_sent;		/* when it was sent */
	u32 again_frag;			/* the fragment a timeout sent again */
	u32 again_ms;			/* ... and the RTO it backed off to, in
					 * ms (0: none, or answered already)
					 */
	bool lost;			/* a fragment may not have left: a
					 * timeout resends, even on a reliable
					 * transport
					 */
	bool queued;			/* waiting for room in the peer's window */
	bool active;			/* counted in the peer's tx_active */
	bool busy;			/* the child answered BUSY since the
					 * last timeout
					 */
	bool refused;			/* ... and so dropped what it was
					 * sent: its next other answer
					 * brings the window again
					 */
	bool born_down;			/* the child was marked down then */
	unsigned long born;		/* jiffies: its lifetime starts */
};

/*
 * Seqs lo..hi of a sender that a stream skipped over (it stopped waiting
 * for them): one arriving later is refused (FIFO holds) and its sender
 * hears this node failed, rather than that it arrived as a duplicate.
 */
struct mcast_gap {
	u64 lo, hi;
};

#define MCAST_STREAM_GAPS	4	/* per stream; the oldest goes first */
/*
 * Seqs a stream remembers delivering, the latest ones: only a copy of one
 * of them is answered as delivered (mcast_rx_deliver()).  A copy whose
 * answer someone waits for comes while its message is in flight at its
 * sender, which has at most MCAST_INFLIGHT_MAX in flight.
 */
#define MCAST_STREAM_KNOWN	64

/* Receive side FIFO state of one stream (sender, group). */
struct mcast_rstream {
	u64 last;			/* seq of the last delivered message */
	unsigned long key;		/* its index in mn->rx_streams */
	struct list_head lru;		/* mn->rx_lru */
	struct list_head held_link;	/* mn->held_streams, while it holds */
	struct list_head held;		/* struct mcast_held, by seq */
	struct mcast_gap gaps[MCAST_STREAM_GAPS];	/* oldest first */
	u64 gaps_lost;			/* the highest seq of a forgotten gap,
					 * or the floor the stream began at
					 */
	u32 ngaps;
	u64 known[MCAST_STREAM_KNOWN];	/* seqs delivered, a ring */
	u32 nknown;			/* ... its next slot, mod the size */
	u32 peer;			/* whose datagram made it: its share */
	bool blocked;			/* its next message waits for room in
					 * a lossless receiver (mn->nblocked)
					 */
	unsigned long used;		/* its last message came then */
};

struct mcast_held {
	struct list_head link;
	struct mcast_msg *msg;
	struct list_head jobs;		/* struct mcast_job that wait for it:
					 * whose DONE may not say delivered
					 * before it is
					 */
	u64 prev;
	u32 parent;			/* the peer it came from */
	unsigned long at;		/* jiffies: held since */
};

/* The node's scratch for a burst of DATA fragments (data_tx.c). */
struct mcast_burst {
	struct mcw_hdr hdr[MCAST_BURST_MAX];
	u8 trailer[MCAST_BURST_MAX][MCW_AUTH_LEN];
	struct kvec vec[4 * MCAST_BURST_MAX];
};

/* Send side: per stream, the last seq sent to each destination. */
struct mcast_tstream {
	struct xarray last;
	u32 group;			/* its index in mn->tx_streams */
	struct list_head lru;		/* mn->tx_lru */
	unsigned long used;		/* its last send */
};

/*
 * Receiving jobs are keyed by (parent, xid) and streams by (src, group):
 * two u32s in one xarray index, so the module is for 64-bit kernels.
 */
#if BITS_PER_LONG < 64
#error "mcast.ko needs a 64-bit kernel: its xarray keys are two u32s"
#endif

static inline unsigned long mcast_key2(u32 hi, u32 lo)
{
	return (unsigned long)hi << 32 | lo;
}

/* Payload bytes per DATA datagram: room for the header and any trailer. */
static inline u32 mcast_frag_size(struct mcast_net *mn)
{
	return mn->tp->max_payload - sizeof(struct mcw_hdr) -
	       mcast_auth_room(&mn->auth);
}

/* Ids per DONE datagram; a longer failed list goes in several parts. */
static inline u32 mcast_done_room(struct mcast_net *mn)
{
	return mcast_frag_size(mn) / 4;
}

/* data_job.c */
extern struct workqueue_struct *mcast_wq;
void mcast_arm(struct mcast_net *mn);
/* One datagram (@nv at most 3 pieces, the header first), sealed. */
int mcast_xmit(struct mcast_net *mn, u32 to, struct kvec *v,
	       size_t nv, size_t len);
/* Datagrams already sealed (a burst). */
int mcast_xmit_sealed(struct mcast_net *mn, u32 to, struct kvec *v,
		      size_t nv, size_t len);
/*
 * Appends @trailer to the datagram @v[0..*@nv-1] for node @to when the
 * node has a key.
 */
size_t mcast_seal(struct mcast_net *mn, u32 to, struct kvec *v, size_t *nv,
		  u8 *trailer);
void mcw_init(struct mcw_hdr *h, struct mcast_net *mn, u8 type,
	      u32 src, u32 xid, u64 seq);
int mcast_job_add_failed(struct mcast_job *job, u32 node);
void mcast_job_free_ooo(struct mcast_job *job);
void mcast_job_free_data(struct mcast_job *job);
void mcast_job_rx_charge(struct mcast_net *mn, struct mcast_job *job, bool in);
void mcast_job_count(struct mcast_net *mn, struct mcast_job *job, bool in);
void mcast_job_fwd_charge(struct mcast_net *mn, struct mcast_job *job,
			  bool in);
void mcast_job_free(struct mcast_net *mn, struct mcast_job *job);
void mcast_job_uniq_failed(struct mcast_job *job);
void mcast_send_done(struct mcast_net *mn, struct mcast_job *job);
void mcast_job_check(struct mcast_net *mn, struct mcast_job *job);
/* The transfer leaves its peer's window (all its data is acknowledged). */
void mcast_tx_inactive(struct mcast_net *mn, struct mcast_tx *tx);
void mcast_tx_free(struct mcast_net *mn, struct mcast_tx *tx);

/* A worm of @n destinations with a compound table of @plen bytes. */
struct mcast_worm *mcast_worm_alloc(u32 n, u32 plen);
void mcast_worm_free(struct mcast_worm *w);
/* @tx leaves its worm (freed with the last). */
void mcast_worm_leave(struct mcast_tx *tx);

/* data_tx.c */
/* Sends the ACKs a DONE did not answer in time (data_rx.c). */
void mcast_acks_held_due(struct mcast_net *mn);
void mcast_tx_pump(struct mcast_net *mn, struct mcast_tx *tx);
void mcast_tx_send_frag(struct mcast_net *mn, struct mcast_tx *tx, u32 i);
/* ... marked MCW_F_PROBE: its ACK says so (mcast_tx_timer()) */
void mcast_tx_send_probe(struct mcast_net *mn, struct mcast_tx *tx, u32 i);
/* @tx made progress (or starts): its tries and RTO begin anew. */
void mcast_tx_progress(struct mcast_net *mn, struct mcast_tx *tx);
/*
 * The first RTO of a transfer to @to: srtt + 4 rttvar, at least rto_ms and
 * the RTO held since the peer's data last timed out (mcast_tx_timer()).
 */
unsigned long mcast_rto_base(struct mcast_net *mn, u32 to);
/*
 * A transfer of @job to @p, the head of @nodes[0..len-1], its piece; in
 * @worm (sharing its compound table), or NULL.  Not sent yet.
 */
struct mcast_tx *mcast_tx_new(struct mcast_net *mn, struct mcast_job *job,
			      const struct mcast_peer *p, const u32 *nodes,
			      const u64 *prevs, u32 len, u8 level, u32 step,
			      struct mcast_worm *worm);
/* Starts @tx: into its peer's window (sending, with @pump), or queued. */
void mcast_tx_go(struct mcast_net *mn, struct mcast_tx *tx, bool pump);
/* Encodes piece entries (@head: mark the first, with @level). */
void mcast_piece_put(u8 *buf, const u32 *nodes, const u64 *prevs, u32 len,
		     bool head, u8 level);

/* What @tx sends after its table, and how many bytes. */
static inline u8 *mcast_tx_body(const struct mcast_tx *tx)
{
	return tx->data ?: tx->job->msg->data;
}

static inline u32 mcast_tx_body_len(const struct mcast_tx *tx)
{
	return tx->data ? tx->dlen : tx->job->msg_len;
}

/*
 * Gives @tx (not started) its own table @pbuf of @plen bytes, taken over,
 * and the body @data of @dlen: taken over with @own, else bytes of the
 * job's message (which outlives its transfers).  What is taken over is
 * freed with @tx, or now when NULL is passed for either; 0 or -ENOMEM.
 */
int mcast_tx_set_body(struct mcast_net *mn, struct mcast_tx *tx, u8 *pbuf,
		      u32 plen, u8 *data, u32 dlen, bool own);

/* The step of @job's next message (a holder's j-th: its own step + j + 1). */
static inline u32 mcast_job_next_step(const struct mcast_job *job)
{
	return job->step + 1 + job->nsent;
}

/* Virtual clock: when the message was whole here, and its last worm's. */
static inline void mcast_job_stamp_msg(const struct mcast_job *job)
{
	job->msg->vtime_ns = job->vtime;
	job->msg->vlat_ns = min_t(u64, job->vlat, U32_MAX);
}

/* A hypercube algorithm's enum mc_cube_algo from its MCAST_ALGORITHM_*. */
static inline u8 mcast_cube_algo(u8 uapi_algo)
{
	return uapi_algo - MCAST_ALGORITHM_UCUBE;
}

static inline bool mcast_algo_is_cube(u8 uapi_algo)
{
	return uapi_algo >= MCAST_ALGORITHM_UCUBE &&
	       uapi_algo <= MCAST_ALGORITHM_WSORT;
}

/* data_spread.c */
/*
 * Spreads @job over @nodes[0..n-1] (this node first) by its algorithm:
 * U-torus (Fig 4.9), separate addressing, or a path-based one (worms).
 */
void mcast_job_spread(struct mcast_net *mn, struct mcast_job *job,
		      const u32 *nodes, const u64 *prevs, u32 n, u8 level);
/* Takes over a dead child's piece @nodes minus its head. */
void mcast_takeover(struct mcast_net *mn, struct mcast_job *job,
		    const u32 *nodes, const u64 *prevs, u32 len, u8 level);
/*
 * A software worm's receiver passes on the rest of the table (@rest,
 * @n entries, already encoded, its first a head) to its next head.
 */
void mcast_chain_pass(struct mcast_net *mn, struct mcast_job *job,
		      const u8 *rest, u32 n);

/* data_hop.c */
unsigned long mcast_tx_lifetime(void);
void mcast_tx_timer(struct mcast_net *mn, struct mcast_tx *tx);
void mcast_rx_ack(struct mcast_net *mn, const struct mcw_hdr *h,
		  const void *body, size_t blen, u32 from);
void mcast_rx_done(struct mcast_net *mn, const struct mcw_hdr *h,
		   const void *body, size_t blen, u32 from);

/* data_fifo.c */
/*
 * Seqs follow the wall clock: seconds << 20 plus the fraction, in the
 * same units (about 1 us), and one more per message beyond that.
 */
u64 mcast_seq_clock(void);
/* The next seq of this node's messages: above the last, at least now. */
u64 mcast_seq_next(struct mcast_net *mn);
/*
 * @seq can be a real message's: not 0, and not beyond what a sender's
 * clock can have reached by now, plus seq_skew_ms.
 */
bool mcast_seq_plausible(u64 seq);
void mcast_streams_expire(struct mcast_net *mn);
void mcast_streams_skip_gaps(struct mcast_net *mn);
void mcast_streams_free(struct mcast_net *mn);
/*
 * A message for stream (@src, @group) from peer @p would not start one
 * past the node's cap or @p's share (none is made for a group this node
 * does not have).
 */
bool mcast_stream_room(struct mcast_net *mn, const struct mcast_peer *p,
		       u32 src, u32 group);
/* Streams made by peer @id's datagrams (its share, after a re-add). */
u32 mcast_streams_of(struct mcast_net *mn, u32 id);
bool mcast_node_young(const struct mcast_net *mn);
/*
 * Delivers @job's message after its @prev, exactly once; a message held
 * (for order, or for room in a lossless receiver's queue) keeps @job from
 * completing until it is delivered.
 */
void mcast_rx_deliver(struct mcast_net *mn, struct mcast_job *job, u64 prev);

/* data_rb.c: recursion-based broadcast (Zhuang and Liberatore) */
struct mcast_rb;
/* MCAST_ALGORITHM_RB or _RB_ALL_PORT (@mode) can run on @t; or *@why not. */
bool mcast_rb_shape_ok(const struct mc_torus *t, u8 mode, const char **why);
/*
 * A broadcast of @len bytes in mode @a (MCAST_ALGORITHM_RB*, or AUTO: by
 * the model's rule) is RB's: 0 for no, else the mode.
 */
u8 mcast_rb_choose(struct mcast_net *mn, u8 a, u32 len);
/* Starts root @job (nodes, prevs, msg set) by RB; -errno: use U-torus. */
int mcast_rb_start(struct mcast_net *mn, struct mcast_job *job, u8 mode);
/* An RB transfer (@job->rbx) is all here: its ranges into the message. */
void mcast_rb_received(struct mcast_net *mn, struct mcast_job *job);
/* Room for the assembly an RB DATA from peer @p may need. */
bool mcast_rb_room(struct mcast_net *mn, const struct mcast_peer *p,
		   const struct mcw_hdr *h);
void mcast_rx_report(struct mcast_net *mn, const struct mcw_hdr *h,
		     const void *body, size_t blen, u32 from);
void mcast_rx_report_ack(struct mcast_net *mn, const struct mcw_hdr *h,
			 u32 from);
/* Root @job timed out waiting: the nodes that did not report, failed. */
void mcast_rb_unconfirmed(struct mcast_job *job);
/* Deadlines: expired assemblies, reports again, roots that fall back. */
void mcast_rb_tick(struct mcast_net *mn);
bool mcast_rb_busy(struct mcast_net *mn);
/* Assemblies counted against peer @id (the one whose range began each). */
u32 mcast_rb_count(struct mcast_net *mn, u32 id);

/* data_send.c */
/* The node has room for a send of any size (poll's EPOLLOUT). */
bool mcast_data_writable(struct mcast_net *mn);
/*
 * Sends @msg from @f to group @g or to the sorted node list @nodes;
 * delivers locally (@here: this node is a destination) and starts the
 * tree.  With @wait, waits for completion and fills @failed.
 */
struct mcast_send_ctx {
	u32 flags;
	u32 algorithm;		/* MCAST_SEND_ALGORITHM's */
	u32 timeout_ms;
	bool nonblock;		/* -EAGAIN instead of waiting for room */
	u32 *failed;		/* room for nfailed_room ids */
	u32 nfailed_room;
	u32 nfailed;		/* out */
	u64 seq;		/* out */
};

int mcast_data_send(struct mcast_file *f, struct mcast_msg *msg, u32 group,
		    u32 *nodes, u32 nnodes, struct mcast_send_ctx *ctx);

/* data_work.c */
/* What the node's data path holds now (stats' gauges); under mn->lock. */
struct mcast_data_gauges {
	u64 transfers, queued, floors;
};

void mcast_data_gauges(struct mcast_net *mn, struct mcast_data_gauges *g);
void mcast_data_peer_recount(struct mcast_net *mn, struct mcast_peer *p);
void mcast_data_init_net(struct mcast_net *mn);
/* Stops the node's data path and frees its state; idempotent. */
void mcast_data_exit_net(struct mcast_net *mn);
/* Nothing is in flight: the transport may change; under mn->lock. */
bool mcast_data_idle(struct mcast_net *mn);
/* (Re)opens the node's transport on mn->port; under mn->lock. */
int mcast_data_open(struct mcast_net *mn);
/*
 * The node's memory that its receive and timer work allocate (in a
 * kworker) is charged to the memory cgroup of the task configuring it
 * now (NODE_SET): the container that runs the node; under mn->lock.
 */
void mcast_data_set_memcg(struct mcast_net *mn);

#endif /* MCAST_DATA_H */
