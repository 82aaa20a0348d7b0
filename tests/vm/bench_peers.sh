#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# mcast against its peers, run inside the test VM by `tests/vm/run.sh
# --bench-peers` (`make bench-peers`), all in one boot and on the same
# mcastbed testbeds (by default a 16-node torus:4x4:uni and a 64-node
# torus:8x8:uni; node 0 is the source, every other node a destination):
#
#   mcast-<transport>  mcastperf send in completion mode: auto (the
#                      node's own choice: default settings, no flags),
#                      u-torus, separate and the path-based worms in software
#                      (s-torus: one pipelined chain through the H-cycle;
#                      mu-torus:4: a tree of chains), for each transport
#                      mcastbed offers (mcastbed up --transport udp|tcp)
#   openmpi            MPI_Bcast (utils/mcastpeers/mpi_bcast.c): the
#                      library's default decision, and tuned's binomial,
#                      knomial, pipeline and chain (64 KiB segments; chain
#                      with its default fanout 4) and scatter_allgather
#                      forced by MCA parameters
#   mpich              MPI_Bcast, MPICH's default (Debian's MPICH 4.0.2 is
#                      ch4:ucx: UCX over its TCP transport, UCX_TLS=tcp,self)
#   tipc               TIPC group broadcast (utils/mcastpeers/tipc_bcast.c)
#                      over UDP bearers on the node addresses: replicast,
#                      and group unicasts to each member ("unicast", TIPC's
#                      separate addressing).  TIPC's broadcast link needs a
#                      UDP bearer with an IP multicast address, which a
#                      routed torus without multicast routing cannot carry:
#                      TIPC refuses BROADCAST mode on unicast UDP bearers.
#                      TIPC is kept on its bearers: without a filter on
#                      every link (peerslib.sh, tipc_no_shortcut) TIPC
#                      nodes in namespaces of one kernel (Linux 5.5 and
#                      later) find each other by a hash in their discovery
#                      messages and copy data straight between the
#                      namespaces' sockets, never touching a link: every
#                      TIPC figure before issue 41 measured that copy.
#                      Caveat (TIPC's, measured as it is): its UDP bearer
#                      caches one route for all unicast peers, so its
#                      first hop ignores the testbed's routes.
#
# One metric for all: the time until the last receiver has the message
# (mcastperf: completion mode, the kernel's acknowledgements; MPI: the root
# timestamps, MPI_Bcast, every receiver sends the root a zero-byte message
# as soon as its MPI_Bcast returned, the root timestamps when it has them
# all; TIPC: the same with our own acknowledgements), median and p99 over
# ITERS rounds, and throughput: ITERS messages back to back closed by one
# acknowledgement round.  CPU per multicast: the guest's busy time
# (/proc/stat: user+nice+system+irq+softirq+steal, both vCPUs; every node
# is a namespace of this guest, so that is the whole cluster's CPU) over
# the timed messages; for mcast around the `mcastperf send` of one method
# and size, less the cost of starting a program in a node, over its
# 2*ITERS+2 messages (probe and stop message included).
#
# Fairness choices:
#   - one process (rank, member, receiver) per node, each in its node's
#     network namespace; the MPIs see one rank per host (a host name per
#     node), so no shared memory between nodes: all traffic is TCP (MPI),
#     UDP (TIPC) or mcast's transport over the same veths and the same
#     static routes (mcastbed's; the MPIs' interface mpi0 carries the node
#     address with no route of its own)
#   - no pinning (--bind-to none): every namespace sees both vCPUs
#   - Open MPI in yield mode (mpi_yield_when_idle 1, --oversubscribe):
#     16-64 ranks share 2 vCPUs; Open MPI's TCP BTL (pml ob1, btl
#     tcp,self), not UCX.  MPICH has no blocking progress on ch4:ucx; it
#     gets MPIR_CVAR_POLLS_BEFORE_YIELD=1 and still polls
#   - WARMUP untimed rounds per size before the timed ones, for every
#     method (mcastperf send --warmup, the harnesses' --warmup); mcast's
#     probe message comes on top
#   - MPI receivers acknowledge before they check the bytes, as mcast's
#     kernel acknowledges before its receiver checks them; every method
#     checks every byte (mcastperf recv, mpi_bcast, tipc_bcast member)
#   - TIPC's bearer MTU is 1472 bytes, so a TIPC packet is one IP packet
#     on the veths (MTU 1500) like a TCP segment
#   - a TCG guest: compare methods by their ratios, not absolute times
#
# Where a small multicast's time goes (mcast only, after its timed runs,
# PEERS_ANATOMY=0 to skip): 8-byte messages again, each method and
# transport; per multicast, over all nodes: datagrams sent, received and
# retransmitted (the nodes' counters), and the guest's context switches
# and NET_RX softirqs.  (Not the function tracer or tracepoints: turning
# them on live-patches kernel text, which locks a TCG guest's vCPUs up.)
#
# Rate-limited links (PEERS_TBF=RATE, e.g. 200mbit): every interface of
# every node sends through a tbf qdisc of that rate, for every method, and
# the report adds each method's throughput as a fraction of RATE: since
# mcast's throughput counts only messages every receiver acknowledged, it
# is what the slowest receiver got.
#
# Bytes on the source's links: for every row, node 0's bytes sent on its
# interfaces but lo (/sys/class/net/*/statistics/tx_bytes in its netns)
# before and after the timed messages (mcast: around its whole mcastperf
# send, warm-up and probe included), in the CSV (src_tx_before,
# src_tx_after) and the report.  The floor: whatever the algorithm, every
# one of the 2 * ITERS timed messages (latency rounds and back to back)
# leaves the source at least once, size x 2 x ITERS bytes; a method whose
# source sends every copy itself (mcast separate, TIPC replicast and
# unicast) sends size x 2 x ITERS x dests.  A row below its floor did
# not use the links (a shortcut between namespaces, a broken harness): it
# is marked INVALID and left out of the ratios and the goals.  Headers
# only add bytes, so the floor is a lower bound; at 8 B it is below the
# links' background traffic (TIPC's link probes, TCP's ACKs), so there it
# proves little: a TIPC row is also INVALID unless node 0's discovery
# filter rewrote at least one message on that testbed (its hit count is
# printed).
#
# The report ends with the goals of issue 41 (bench-peers, default
# settings): mcast-tcp/auto (TCP is the default transport, auto the
# node's default algorithm; u-torus if auto did not run) against Open
# MPI's best algorithm (per size, of the valid rows) and TIPC replicast,
# one line per goal and node count, with the figure and met or not.
#
# Knobs (environment; run.sh passes them on the kernel command line):
# PEERS_TOPOS (comma-separated), PEERS_SIZES, PEERS_ITERS, PEERS_WARMUP,
# PEERS_OMPI_ALGOS, PEERS_MCAST_METHODS, PEERS_ONLY (of mcast,openmpi,mpich,tipc),
# PEERS_ANATOMY, PEERS_TBF, PEERS_TIPC_FILTER (0: TIPC without its filter,
# to see the byte check mark its rows INVALID; never a result).
# The CSV is printed between "==== peers CSV begin" and "==== peers CSV
# end" (run.sh saves it as build/bench-peers/peers.csv and plots it).
# Exits non-zero if any method failed.

# shellcheck source=tests/vm/guest/tap.sh
. /tests/tap.sh
# shellcheck source=utils/mcastpeers/peerslib.sh
. /tests/peerslib.sh

TOPOS=${PEERS_TOPOS:-torus:4x4:uni,torus:8x8:uni}
SIZES=${PEERS_SIZES:-8,1K,64K,1M,4M}
ITERS=${PEERS_ITERS:-10}
WARMUP=${PEERS_WARMUP:-2}
OMPI_ALGOS=${PEERS_OMPI_ALGOS:-default,binomial,knomial,pipeline,chain,scatter_allgather}
MCAST_METHODS=${PEERS_MCAST_METHODS:-auto,u-torus,separate,s-torus,mu-torus:4}
ONLY=${PEERS_ONLY:-mcast,openmpi,mpich,tipc}
ANATOMY=${PEERS_ANATOMY:-1}
TBF=${PEERS_TBF:-}
ANATOMY_ITERS=20
ANATOMY_OUT=/tmp/peers.anatomy
TIPC_HITS=/tmp/peers.tipc-hits
CSV=/tmp/peers.csv
CSV_VALID=/tmp/peers.valid.csv
RUN_LOG=/tmp/peers.run
rc=0
T_START=$(date +%s)

# Progress on the serial console too: the test's own output only appears
# when the boot ends.
progress() {
	echo "---- $* ($(($(date +%s) - T_START)) s)"
	echo "bench-peers: $* ($(($(date +%s) - T_START)) s)" > /dev/console
}

wanted() { # PEER
	case ,$ONLY, in *,"$1",*) return 0 ;; esac
	return 1
}

nodes_of() { # TOPO
	echo "$1" | awk -F: '{ n = split($2, r, "x"); p = 1; for (i = 1; i <= n; i++) p *= r[i]; print p }'
}

# record DESC CMD...: runs CMD, appends its CSV rows (without header) to
# $CSV; a failure is reported and fails the benchmark.
record() {
	_desc=$1
	shift
	"$@" > "$RUN_LOG" 2>&1
	_r=$?
	grep -v "^peer,method," "$RUN_LOG" | grep -E '^[a-z0-9-]+,[a-z0-9_:-]+,[0-9]+,' >> "$CSV"
	if [ "$_r" != 0 ]; then
		echo "bench-peers: FAILED: $_desc (status $_r):"
		tail -n 30 "$RUN_LOG"
		rc=1
	fi
	progress "$_desc done"
}

run_mcast() { # TOPO NODES TRANSPORT
	PEERS_WARMUP_ROUNDS=$WARMUP
	PEERS_START_CPU_US=$(peers_start_cpu)
	echo "mcast: starting a program in a node costs $PEERS_START_CPU_US us of CPU (subtracted)"
	for _meth in $(echo "$MCAST_METHODS" | tr , ' '); do
		for _s in $(echo "$SIZES" | tr , ' '); do
			record "$1 mcast-$3 $_meth $_s" mcast_bcast_run "$2" "$3" "$_meth" "$_s" "$ITERS"
		done
	done
}

# ---- where a small multicast's time goes

# The sum over nodes 0..N-1 of the node counter NAME (mcastctl stats).
node_counter_sum() { # N NAME
	_i=0 _sum=0
	while [ "$_i" -lt "$1" ]; do
		_v=$(mcastbed exec "$_i" mcastctl -j stats show 2>/dev/null |
			sed -n "s/.*\"$2\": *\([0-9]*\).*/\1/p" | head -n 1)
		_sum=$((_sum + ${_v:-0}))
		_i=$((_i + 1))
	done
	echo "$_sum"
}

# The guest's context switches, and NET_RX softirqs over all CPUs.
guest_ctxt() { awk '/^ctxt / { print $2 }' /proc/stat; }
guest_net_rx() { awk '$1 == "NET_RX:" { for (i = 2; i <= NF; i++) s += $i; print s }' /proc/softirqs; }

# anatomy NODES TRANSPORT METHOD: one line of per-multicast counts
anatomy() {
	_n=$1 _tp=$2 _meth=$3
	rm -f "$PEERS_TMP"/mcast.recv.*
	_i=1 _logs=''
	while [ "$_i" -lt "$_n" ]; do
		mcastbed exec "$_i" mcastperf recv --idle 900 > "$PEERS_TMP/mcast.recv.$_i" 2>&1 &
		_logs="$_logs $PEERS_TMP/mcast.recv.$_i"
		_i=$((_i + 1))
	done
	# shellcheck disable=SC2086
	wait_lines $((_n - 1)) receiving $_logs || echo "anatomy: not every receiver started" >&2
	_tx0=$(node_counter_sum "$_n" tx_packets) _rx0=$(node_counter_sum "$_n" rx_packets)
	_re0=$(node_counter_sum "$_n" retrans)
	_cs0=$(guest_ctxt) _nr0=$(guest_net_rx)
	mcastbed exec 0 mcastperf send --members "1-$((_n - 1))" --methods "$_meth" \
		--sizes 8 --iters "$ANATOMY_ITERS" --csv > /dev/null
	_rc=$?
	_cs1=$(guest_ctxt) _nr1=$(guest_net_rx)
	wait
	_tx1=$(node_counter_sum "$_n" tx_packets) _rx1=$(node_counter_sum "$_n" rx_packets)
	_re1=$(node_counter_sum "$_n" retrans)
	# mcastperf sends 2 * iters + 2 messages (timed, back to back, probe, stop)
	awk -v m=$((2 * ANATOMY_ITERS + 2)) -v what="$_n $_tp $_meth" \
		-v tx=$((_tx1 - _tx0)) -v rx=$((_rx1 - _rx0)) -v re=$((_re1 - _re0)) \
		-v cs=$((_cs1 - _cs0)) -v nr=$((_nr1 - _nr0)) -v d=$((_n - 1)) 'BEGIN {
		printf "%-22s %8.1f %8.1f %8.1f %8.2f %8.1f %8.1f\n", what, tx / m,
			rx / m, re / m, tx / m / d, cs / m, nr / m }'
	return $_rc
}

run_anatomy() { # NODES TRANSPORT
	[ "$ANATOMY" = 1 ] || return 0
	mkdir -p "$PEERS_TMP"
	for _meth in u-torus separate; do
		anatomy "$1" "$2" "$_meth" >> "$ANATOMY_OUT" ||
			{ echo "bench-peers: FAILED: anatomy $*"; rc=1; }
	done
	progress "nodes $1 mcast-$2 anatomy done"
}

anatomy_report() {
	[ -s "$ANATOMY_OUT" ] || return 0
	echo
	echo "==== where an 8-byte multicast's time goes: per multicast, all nodes"
	echo "(mcastperf completion mode, $ANATOMY_ITERS iterations; the nodes' counters:"
	echo " datagrams sent, received, retransmitted, sent per destination; the"
	echo " guest's context switches (each wake-up of a work item or process is"
	echo " one) and NET_RX softirqs, over the whole mcastperf send)"
	printf "%-22s %8s %8s %8s %8s %8s %8s\n" "nodes transport method" \
		sent recv retrans "per-dest" ctxsw net_rx
	cat "$ANATOMY_OUT"
}

# Every interface but lo of nodes 0..N-1 sends through tbf at $TBF: a
# bucket of 64 KiB (a GSO or TSO burst passes whole; tbf cuts bigger
# ones) and 100 ms of queue.
tbf_links() { # N
	[ -n "$TBF" ] || return 0
	_i=0
	while [ "$_i" -lt "$1" ]; do
		for _d in $(mcastbed exec "$_i" ip -o link show | awk -F': ' '{ sub(/@.*/, "", $2); print $2 }'); do
			[ "$_d" = lo ] && continue
			mcastbed exec "$_i" tc qdisc replace dev "$_d" root tbf \
				rate "$TBF" burst 64kb latency 100ms || return 1
		done
		_i=$((_i + 1))
	done
}

# TBF as bits per second (tc's units: kbit, mbit, gbit; bit if none)
tbf_bps() {
	echo "$TBF" | awk '{ r = $0 + 0; u = tolower($0); sub(/^[0-9.]+/, "", u)
		m = u == "kbit" ? 1e3 : u == "mbit" ? 1e6 : u == "gbit" ? 1e9 : 1
		printf "%.0f\n", r * m }'
}

tbf_report() {
	[ -n "$TBF" ] || return 0
	echo
	echo "==== throughput as a fraction of the link rate ($TBF on every link)"
	awk -F, -v bps="$(tbf_bps)" 'NR > 1 {
		printf "%5s %8s  %-26s %8.1f MB/s %6.2f\n", $3, $5, $1 "/" $2, $10,
			$10 * 8e6 / bps }' "$CSV"
}

run_mpi() { # TOPO NODES
	if ! peers_host_setup || ! peers_net_setup "$2"; then
		echo "bench-peers: FAILED: no host share or no mpi0: no MPI runs"
		rc=1
		return
	fi
	if wanted openmpi; then
		for _a in $(echo "$OMPI_ALGOS" | tr , ' '); do
			record "$1 openmpi $_a" ompi_bcast "$2" "$_a" --sizes "$SIZES" \
				--iters "$ITERS" --warmup "$WARMUP"
		done
	fi
	if wanted mpich; then
		record "$1 mpich" mpich_bcast "$2" --sizes "$SIZES" --iters "$ITERS" --warmup "$WARMUP"
	fi
}

run_tipc() { # TOPO NODES
	if ! tipc_setup "$2"; then
		echo "bench-peers: FAILED: TIPC bearers"
		rc=1
		return
	fi
	for _m in replicast unicast; do
		record "$1 tipc $_m" tipc_bcast_run "$2" "$_m" --sizes "$SIZES" \
			--iters "$ITERS" --warmup "$WARMUP"
	done
	echo "tipc: node 0's filters rewrote $(tipc_filter_hits 0) discovery messages ($2 nodes)" |
		tee -a "$TIPC_HITS"
	tipc_teardown "$2"
}

# The bytes a CSV row's algorithm must have sent on node 0's links (the
# floor, in the header above): awk function floor() over a row's fields;
# valid(): at least the floor, and for a TIPC row, node 0's discovery
# filter rewrote something on that testbed (run_tipc's line in
# $TIPC_HITS, read with -v hitsf=...): at 8 B the floor is below the
# links' background traffic, and without the filter TIPC may bypass them.
# shellcheck disable=SC2016 # awk's fields
FLOOR_AWK='BEGIN { while (hitsf != "" && (getline l < hitsf) > 0) {
		nw = split(l, w, " "); hits[substr(w[nw - 1], 2)] = w[6] } }
function floor(  k) {
	k = ($2 == "separate" || $1 == "tipc") ? $4 : 1
	return $5 * 2 * $6 * k }
function sent() { return ($13 == "" || $14 == "") ? -1 : $14 - $13 }
function nofilter() { return $1 == "tipc" && !(hits[$3] > 0) }
function valid() { return sent() >= 0 && sent() >= floor() && !nofilter() }'

# Every row's bytes on node 0's links against its floor; writes the valid
# rows (and the header) to $CSV_VALID, which the ratios and goals read.
bytes_report() {
	awk -F, -v hitsf="$TIPC_HITS" "$FLOOR_AWK"' NR == 1 { print > out; next }
	valid() { print > out }' out="$CSV_VALID" "$CSV"
	echo
	echo "==== bytes node 0 sent on its links (interfaces but lo) per row"
	echo "(floor: size x 2 x iters, x dests where the source sends every copy;"
	echo " TIPC rows also need node 0's discovery filter to have rewritten"
	echo " something; INVALID rows are left out of the ratios and the goals)"
	awk -F, -v hitsf="$TIPC_HITS" "$FLOOR_AWK"' NR == 1 {
		printf "%5s %8s  %-26s %14s %14s %12s %12s  %s\n", "nodes", "size",
			"peer/method", "tx before", "tx after", "sent", "floor", ""; next }
	{ printf "%5s %8s  %-26s %14s %14s %12s %12.0f  %s\n", $3, $5, $1 "/" $2,
		$13 == "" ? "-" : $13, $14 == "" ? "-" : $14, sent() < 0 ? "-" : sent(),
		floor(), valid() ? "valid" : nofilter() ? "INVALID (no filter hits)" : "INVALID" }' "$CSV"
	[ ! -s "$TIPC_HITS" ] || cat "$TIPC_HITS"
}

# ratios REF: REF's u-torus rows over every other method's, per node
# count and size (valid rows only)
ratios() {
	awk -F, -v ref="$1" '
	NR == 1 { next }
	{ k = $3 "," $5; m = $1 "/" $2
	  med[m, k] = $7; p99[m, k] = $8; tp[m, k] = $9; cpu[m, k] = $11
	  if (!((m, k) in seen)) { seen[m, k] = 1; rows[n++] = m SUBSEP k } }
	END {
		r = ref "/u-torus"
		printf "%5s %8s  %-26s %8s %8s %8s %8s\n", "nodes", "size", "peer/method",
			"lat-med", "lat-p99", "tput", "cpu"
		for (i = 0; i < n; i++) {
			split(rows[i], a, SUBSEP); m = a[1]; k = a[2]
			if (m == r || !((r, k) in med)) continue
			split(k, b, ",")
			printf "%5s %8s  %-26s %8s %8s %8s %8s\n", b[1], b[2], m,
				q(med[r, k], med[m, k]), q(p99[r, k], p99[m, k]),
				q(tp[r, k], tp[m, k]), q(cpu[r, k], cpu[m, k])
		}
	}
	function q(x, y) { return y > 0 ? sprintf("%.2f", x / y) : "-" }' "$CSV_VALID"
}

# The goals of issue 41, on this run's valid rows: mcast-tcp/auto (else
# mcast-tcp/u-torus) against Open MPI's best algorithm per size and TIPC
# replicast, per node count; the anatomy's mcast-tcp u-torus line (an
# 8-byte auto send is a U-torus tree without IR); tbf's fraction of the
# link rate at 4 MiB when PEERS_TBF was set.
goals_report() {
	echo
	echo "==== the goals of issue 41 on this run (mcast: default settings; ratios mcast / peer)"
	awk -F, -v bps="$(tbf_bps)" -v tbf="$TBF" -v anat="$ANATOMY_OUT" '
	NR == 1 { next }
	{ n = $3; s = $5; nodes[n] = 1; sizes[s] = 1
	  key = $1 "/" $2
	  med[key, n, s] = $7; tp[key, n, s] = $9; mb[key, n, s] = $10; cpu[key, n, s] = $11
	  if ($1 == "openmpi") {
		if (!((n, s) in omed) || $7 < omed[n, s]) omed[n, s] = $7
		if (!((n, s) in otp) || $9 > otp[n, s]) otp[n, s] = $9
		if (!((n, s) in ocpu) || $11 < ocpu[n, s]) ocpu[n, s] = $11
	  }
	  if (key == "tipc/replicast") { tmed[n, s] = $7; ttp[n, s] = $9; tcpu[n, s] = $11 } }
	function hs(x) {
		if (x >= 1048576 && x % 1048576 == 0) return x / 1048576 "M"
		if (x >= 1024 && x % 1024 == 0) return x / 1024 "K"
		return x "B" }
	# goal LABEL N LO HI WHAT LIMIT DIR: mcast over the peer (WHAT: olat,
	# tlat, otp, ttp, ocpu, tcpu) at every size in [LO, HI]; DIR le: met
	# if every ratio <= LIMIT, ge: >= LIMIT
	function goal(label, n, lo, hi, what, limit, dir,   s, si, r, fig, ok, any, m, p) {
		fig = ""; ok = 1; any = 0
		for (si = 1; si <= ns; si++) {
			s = sz[si]
			if (s < lo || s > hi || !((ref[n], n, s) in med)) continue
			if (what == "olat") { m = med[ref[n], n, s]; p = omed[n, s] }
			else if (what == "tlat") { m = med[ref[n], n, s]; p = tmed[n, s] }
			else if (what == "otp") { m = tp[ref[n], n, s]; p = otp[n, s] }
			else if (what == "ttp") { m = tp[ref[n], n, s]; p = ttp[n, s] }
			else if (what == "ocpu") { m = cpu[ref[n], n, s]; p = ocpu[n, s] }
			else { m = cpu[ref[n], n, s]; p = tcpu[n, s] }
			if (p == "" || p <= 0) continue
			r = m / p; any = 1
			fig = fig (fig == "" ? "" : ", ") hs(s) " " sprintf("%.2f", r)
			if ((dir == "le" && r > limit) || (dir == "ge" && r < limit)) ok = 0
		}
		line(label, n, any ? fig : "not measured", any ? (ok ? "yes" : "no") : "-")
	}
	function line(label, n, fig, met) {
		printf "| %s | %s | %s | %s |\n", label, n, fig, met }
	END {
		ns = 0
		for (s in sizes) {
			for (si = ++ns; si > 1 && sz[si - 1] > s + 0; si--) sz[si] = sz[si - 1]
			sz[si] = s + 0
		}
		for (n in nodes) {
			ref[n] = "mcast-tcp/auto"
			found = 0
			for (s in sizes) if (("mcast-tcp/auto", n, s) in med) found = 1
			if (!found) ref[n] = "mcast-tcp/u-torus"
		}
		print "| goal | nodes | figure (per size) | met |"
		print "| --- | --- | --- | --- |"
		for (n in nodes) {
			printf "| (mcast row used) | %s | %s | |\n", n, ref[n]
			goal("time to the last receiver <= 0.35x Open MPI best, up to 64 KiB", n, 0, 65536, "olat", 0.35, "le")
			goal("time <= 0.6x Open MPI best at 1-4 MiB", n, 1048576, 4194304, "olat", 0.6, "le")
			goal("time <= 0.8x TIPC (on its bearers) at 8 B and 1 KiB", n, 0, 1024, "tlat", 0.8, "le")
			goal("time <= 0.3x TIPC from 64 KiB", n, 65536, 1e12, "tlat", 0.3, "le")
			goal("throughput (back to back) >= 1.5x Open MPI best, every size", n, 0, 1e12, "otp", 1.5, "ge")
			goal("throughput (back to back) >= 1.25x TIPC, every size", n, 0, 1e12, "ttp", 1.25, "ge")
			goal("CPU per multicast <= TIPC at 8 B and 1 KiB", n, 0, 1024, "tcpu", 1, "le")
			goal("CPU per multicast <= 0.5x Open MPI best, every size", n, 0, 1e12, "ocpu", 0.5, "le")
			if (tbf == "")
				line("tbf 20 Mbit/s, 4 MiB: >= 0.9 of the link rate", n, "not run (PEERS_TBF unset)", "-")
			else if ((ref[n], n, 4194304) in mb) {
				f = mb[ref[n], n, 4194304] * 8e6 / bps
				line("tbf 20 Mbit/s, 4 MiB: >= 0.9 of the link rate", n,
					sprintf("%.2f of %s", f, tbf), f >= 0.9 ? "yes" : "no")
			} else
				line("tbf 20 Mbit/s, 4 MiB: >= 0.9 of the link rate", n, "not measured (no 4 MiB row)", "-")
			pd = ""; cs = ""
			while ((getline l < anat) > 0) {
				split(l, a, " ")
				if (a[1] == n && a[2] == "tcp" && a[3] == "u-torus") { pd = a[7]; cs = a[8] }
			}
			close(anat)
			line("anatomy: <= 2.0 datagrams per destination (8 B, tcp u-torus)", n,
				pd == "" ? "not measured" : pd, pd == "" ? "-" : (pd + 0 <= 2.0 ? "yes" : "no"))
			line("anatomy: <= 16 context switches per 8-byte multicast", n,
				cs == "" ? "not measured" : cs, cs == "" ? "-" : (cs + 0 <= 16 ? "yes" : "no"))
		}
	}' "$CSV_VALID"
	echo "(throughput alone is 1/latency: the time goals; Open MPI best: per size"
	echo " the fastest, highest-throughput and cheapest of its valid rows)"
}

report() {
	echo "==== peers CSV begin"
	cat "$CSV"
	echo "==== peers CSV end"
	bytes_report
	# shellcheck disable=SC2013 # peer names are words
	for _ref in $(awk -F, 'NR > 1 && $1 ~ /^mcast-/ && $2 == "u-torus" { print $1 }' "$CSV_VALID" | sort -u); do
		echo
		echo "==== $_ref u-torus / each peer, per node count and size"
		echo "(latency and CPU: below 1 mcast is faster/cheaper; throughput: above 1 mcast is faster)"
		ratios "$_ref"
	done
	anatomy_report
	tbf_report
	echo
	echo "==== CPU per multicast (us of guest CPU, all nodes) and median latency (us)"
	awk -F, 'NR > 1 { printf "%5s %8s  %-26s %12s %12s\n", $3, $5, $1 "/" $2, $11, $7 }' "$CSV"
	goals_report
}

# ------------------------------------------------------------------ main

echo "$PEERS_CSV_HEADER" > "$CSV"
: > "$TIPC_HITS"
# every peer's logs go there (tipc_bcast_run writes its members' reports
# before anything else would create it: PEERS_ONLY=tipc exited silently)
mkdir -p "$PEERS_TMP" || exit 1
modprobe veth 2>/dev/null
[ -z "$TBF" ] || modprobe sch_tbf
insmod "$MCAST_KO" || exit 1
TRANSPORTS=default
if mcastbed --help 2>&1 | grep -q -- --transport; then
	TRANSPORTS="udp tcp"
fi
echo "bench-peers: topologies $TOPOS, sizes $SIZES, $ITERS iterations, $WARMUP warm-up," \
	"Open MPI algorithms $OMPI_ALGOS, peers $ONLY, mcast transports $TRANSPORTS" \
	"${TBF:+, links limited to $TBF}"

for topo in $(echo "$TOPOS" | tr , ' '); do
	n=$(nodes_of "$topo")
	last=${TRANSPORTS##* }
	for tp in $TRANSPORTS; do
		_opt=''
		[ "$tp" = default ] || _opt="--transport $tp"
		progress "$topo ($n nodes): mcastbed up $_opt"
		# shellcheck disable=SC2086
		if ! mcastbed up "$topo" $_opt > /dev/null; then
			echo "bench-peers: FAILED: mcastbed up $topo $_opt"
			rc=1
			continue
		fi
		if ! tbf_links "$n"; then
			echo "bench-peers: FAILED: tbf $TBF on $topo"
			rc=1
			mcastbed down > /dev/null
			continue
		fi
		if wanted mcast; then
			run_mcast "$topo" "$n" "$tp"
			run_anatomy "$n" "$tp"
		fi
		# the other peers on the last transport's testbed (mcast idle)
		if [ "$tp" = "$last" ]; then
			if wanted openmpi || wanted mpich; then
				run_mpi "$topo" "$n"
			fi
			! wanted tipc || run_tipc "$topo" "$n"
		fi
		mcastbed down > /dev/null
	done
done
rmmod mcast
report
progress "done, status $rc"
exit $rc
