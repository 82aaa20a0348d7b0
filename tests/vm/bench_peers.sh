#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# mcast against its peers, run inside the test VM by `tests/vm/run.sh
# --bench-peers` (`make bench-peers`), all in one boot and on the same
# mcastbed testbeds (by default a 16-node torus:4x4:uni and a 64-node
# torus:8x8:uni; node 0 is the source, every other node a destination):
#
#   mcast-<transport>  mcastperf send in completion mode, u-torus,
#                      separate and the path-based worms in software
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
#   - WARMUP untimed rounds per size before the timed ones (MPI, TIPC);
#     mcastperf has no warm-up of its own beyond its probe message
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
# Knobs (environment; run.sh passes them on the kernel command line):
# PEERS_TOPOS (comma-separated), PEERS_SIZES, PEERS_ITERS, PEERS_WARMUP,
# PEERS_OMPI_ALGOS, PEERS_MCAST_METHODS, PEERS_ONLY (of mcast,openmpi,mpich,tipc),
# PEERS_ANATOMY, PEERS_TBF.
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
MCAST_METHODS=${PEERS_MCAST_METHODS:-u-torus,separate,s-torus,mu-torus:4}
ONLY=${PEERS_ONLY:-mcast,openmpi,mpich,tipc}
ANATOMY=${PEERS_ANATOMY:-1}
TBF=${PEERS_TBF:-}
ANATOMY_ITERS=20
ANATOMY_OUT=/tmp/peers.anatomy
CSV=/tmp/peers.csv
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
	tipc_teardown "$2"
}

# ratios REF: REF's u-torus rows over every other method's, per node
# count and size
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
	function q(x, y) { return y > 0 ? sprintf("%.2f", x / y) : "-" }' "$CSV"
}

report() {
	echo "==== peers CSV begin"
	cat "$CSV"
	echo "==== peers CSV end"
	for _ref in $(awk -F, 'NR > 1 && $1 ~ /^mcast-/ && $2 == "u-torus" { print $1 }' "$CSV" | sort -u); do
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
}

# ------------------------------------------------------------------ main

echo "$PEERS_CSV_HEADER" > "$CSV"
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
