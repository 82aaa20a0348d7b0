# SPDX-License-Identifier: GPL-2.0 OR MIT
# shellcheck shell=sh
#
# Guest helpers for the peers of `make bench-peers` (tests/vm/bench_peers.sh)
# and its smoke test (tests/vm/guest/peers_smoke.t): POSIX sh, sourced by
# busybox sh in the VM after tap.sh, on a testbed made by mcastbed (node ID
# is netns mcb<ID> with address 10.77.<ID/256>.<ID%256> on lo).
#
# Open MPI and MPICH come from the host: tests/vm/run.sh shares the host's
# root read-only over 9p (mount tag "hostroot"); peers_host_setup mounts it
# on /host and bind-mounts the host's library directory and Open MPI's data
# over the guest's, so the MPI programs, plugins and libraries are the
# host's, at the paths they were built for.  Each node gets:
#   - its node address also on a dummy interface "mpi0" (/16, noprefixroute:
#     no route added, mcastbed's /32 routes over the torus stay the only
#     ones).  Open MPI treats an address on lo as loopback and would
#     advertise 127.0.0.1; mpi0 is the interface both MPIs are told to use,
#     so their TCP traffic takes mcastbed's routes, hop by hop, like mcast's.
#   - its own host name n<ID> (a UTS namespace per launched process, names
#     in /etc/hosts), so each MPI sees one rank per node and never uses
#     shared memory between nodes.
# Programs are launched in a node by an ssh stand-in (peers_agent):
# `AGENT [-opts] n<ID> CMD...` runs CMD with sh in netns mcb<ID>.

PEERS_BIN=${PEERS_BIN:-/usr/local/bin}
PEERS_TMP=/tmp/peers
IPCMD=/usr/local/bin/ip
TCCMD=/usr/local/bin/tc

peers_addr() { # ID
	echo "10.77.$(($1 / 256)).$(($1 % 256))"
}

# /host (the host's root, read-only) and the host's libraries and MPI data
# at their usual paths.  Returns non-zero (and says why) if there is no
# 9p share: run.sh did not export one or the modules are missing.
peers_host_setup() {
	mkdir -p /host "$PEERS_TMP"
	if ! grep -q ' /host 9p ' /proc/mounts; then
		modprobe virtio_pci 2>/dev/null
		modprobe 9pnet_virtio 2>/dev/null
		modprobe 9p 2>/dev/null
		mount -t 9p -o trans=virtio,version=9p2000.L,ro,cache=loose \
			hostroot /host || { echo "peers: no 9p share of the host's root" >&2; return 1; }
	fi
	for _d in /usr/lib/x86_64-linux-gnu /lib/x86_64-linux-gnu /etc/openmpi \
		/usr/share/openmpi /etc/mpich /usr/share/hwloc /usr/share/ucx; do
		_src=/host/usr/lib/x86_64-linux-gnu
		case $_d in /etc/* | /usr/share/*) _src=/host$_d ;; esac
		[ -d "$_src" ] || continue
		grep -q " $_d " /proc/mounts && continue
		mkdir -p "$_d" && mount --bind "$_src" "$_d" || return 1
	done
	# glibc's name service: host names from /etc/hosts, root in passwd
	echo "hosts: files" > /etc/nsswitch.conf
	echo "passwd: files" >> /etc/nsswitch.conf
	echo "group: files" >> /etc/nsswitch.conf
	[ -f /etc/passwd ] || echo "root:x:0:0:root:/tmp:/bin/sh" > /etc/passwd
	[ -f /etc/group ] || echo "root:x:0:" > /etc/group
	return 0
}

# The ssh stand-in both MPIs launch their daemons with: skips ssh options
# (hydra passes -x), then runs the command line in the node's netns with
# the node's host name and its own temporary directory (a finished Open
# MPI job's cleanup must not remove the next job's session files).
peers_write_agent() {
	cat > "$PEERS_TMP/agent" <<'AGENT'
#!/bin/sh
while [ $# -gt 0 ]; do
	case $1 in -*) shift ;; *) break ;; esac
done
h=$1
shift
id=${h#n}
d=${PEERS_RUN_TMP:-/tmp/peers/run}/$h
mkdir -p "$d"
exec /usr/local/bin/ip netns exec "mcb$id" /bin/busybox unshare -u /bin/sh -c \
	"hostname $h; TMPDIR=$d; export TMPDIR; $*"
AGENT
	chmod 755 "$PEERS_TMP/agent"
}

# NODES: mpi0 on every node, /etc/hosts, the agent.
peers_net_setup() { # NODES
	_i=0
	echo "127.0.0.1 localhost" > /etc/hosts
	while [ "$_i" -lt "$1" ]; do
		_a=$(peers_addr "$_i")
		echo "$_a n$_i" >> /etc/hosts
		if ! $IPCMD -n "mcb$_i" link show mpi0 > /dev/null 2>&1; then
			$IPCMD -n "mcb$_i" link add mpi0 type dummy &&
			$IPCMD -n "mcb$_i" addr add "$_a/16" dev mpi0 noprefixroute &&
			$IPCMD -n "mcb$_i" link set mpi0 up || return 1
		fi
		_i=$((_i + 1))
	done
	peers_write_agent
}

# Runs CMD... as node 0 (netns mcb0, host name n0), with the host's
# programs at the end of PATH.
peers_in_node0() {
	PEERS_RUN_TMP=$PEERS_TMP/run.$$.$(date +%s%N)
	export PEERS_RUN_TMP
	mkdir -p "$PEERS_RUN_TMP/n0"
	PATH=$PATH:/host/usr/bin:/host/bin SHELL=/bin/sh TMPDIR=$PEERS_RUN_TMP/n0 \
		$IPCMD netns exec mcb0 /bin/busybox unshare -u /bin/sh -c 'hostname n0; exec "$@"' \
		sh "$@"
}

# Open MPI's MCA parameters for a forced bcast algorithm (ompi_info --param
# coll tuned --level 9): default is the library's own decision.
ompi_algo_args() { # NAME
	case $1 in
	default) ;;
	binomial) echo "--mca coll_tuned_use_dynamic_rules 1 --mca coll_tuned_bcast_algorithm 6" ;;
	knomial) echo "--mca coll_tuned_use_dynamic_rules 1 --mca coll_tuned_bcast_algorithm 7" ;;
	pipeline) echo "--mca coll_tuned_use_dynamic_rules 1 --mca coll_tuned_bcast_algorithm 3 --mca coll_tuned_bcast_algorithm_segmentsize 65536" ;;
	chain) echo "--mca coll_tuned_use_dynamic_rules 1 --mca coll_tuned_bcast_algorithm 2 --mca coll_tuned_bcast_algorithm_segmentsize 65536" ;;
	scatter_allgather) echo "--mca coll_tuned_use_dynamic_rules 1 --mca coll_tuned_bcast_algorithm 8" ;;
	*) return 1 ;;
	esac
}

# ompi_bcast NODES ALGO HARNESS-ARGS...: mpi_bcast.openmpi on nodes
# 0..NODES-1, one rank each, root on node 0; CSV on stdout.
ompi_bcast() {
	_n=$1 _algo=$2
	shift 2
	_args=$(ompi_algo_args "$_algo") || { echo "peers: no Open MPI algorithm $_algo" >&2; return 2; }
	_hf=$PEERS_TMP/ompi.hosts
	_i=0
	: > "$_hf"
	while [ "$_i" -lt "$_n" ]; do
		echo "n$_i slots=1" >> "$_hf"
		_i=$((_i + 1))
	done
	# shellcheck disable=SC2086 # the algorithm's options are words
	peers_in_node0 orterun --allow-run-as-root -np "$_n" --hostfile "$_hf" \
		--bind-to none --oversubscribe \
		--mca plm_rsh_agent "$PEERS_TMP/agent" --mca plm_rsh_no_tree_spawn 1 \
		--mca pml ob1 --mca btl tcp,self --mca osc ^ucx \
		--mca btl_tcp_if_include mpi0 --mca oob_tcp_if_include mpi0 \
		--mca mpi_yield_when_idle 1 $_args \
		"$PEERS_BIN/mpi_bcast.openmpi" --peer openmpi --method "$_algo" "$@"
}

# mpich_bcast NODES HARNESS-ARGS...: mpi_bcast.mpich the same way, under
# hydra; UCX (Debian's MPICH is ch4:ucx) on its TCP transport over mpi0.
mpich_bcast() {
	_n=$1
	shift
	_hosts=n0
	_i=1
	while [ "$_i" -lt "$_n" ]; do
		_hosts=$_hosts,n$_i
		_i=$((_i + 1))
	done
	_out=$PEERS_TMP/mpich.out
	: > "$_out"
	peers_in_node0 mpiexec.hydra -launcher ssh -launcher-exec "$PEERS_TMP/agent" \
		-hosts "$_hosts" -n "$_n" -iface mpi0 \
		-genv UCX_TLS tcp,self -genv UCX_NET_DEVICES mpi0 \
		-genv MPIR_CVAR_POLLS_BEFORE_YIELD 1 \
		"$PEERS_BIN/mpi_bcast.mpich" --peer mpich --method default "$@" > "$_out" 2>&1 &
	_pid=$!
	mpich_reap "$_pid" "$_n" "$_out"
	_rc=$?
	cat "$_out"
	return $_rc
}

# In this guest MPICH's job often does not end after MPI_Finalize (the
# ranks printed everything and said so).  mpich_reap PID NODES OUT waits
# for the job; 30 s after the root's "finalizing" line it kills mpiexec
# and what is left in the nodes, and says so; the results stand.  Status:
# the job's, 0 if killed after the results, 1 if killed before them.
mpich_reap() {
	_w=0
	while kill -0 "$1" 2>/dev/null; do
		if grep -q 'all sizes done, finalizing' "$3"; then
			_w=$((_w + 1))
			if [ "$_w" -gt 60 ]; then
				echo "peers: MPICH's job did not end 30 s after MPI_Finalize began; killed (results complete)" >> "$3"
				peers_kill_nodes "$2"
				kill "$1" 2>/dev/null
				wait "$1"
				return 0
			fi
		fi
		sleep 0.5
	done
	wait "$1"
}

# Kills every process in the netns of nodes 0..NODES-1 (the MPI jobs'
# leftovers; nothing else runs there while an MPI peer is measured).
peers_kill_nodes() { # NODES
	_k=0
	while [ "$_k" -lt "$1" ]; do
		# shellcheck disable=SC2046
		kill -9 $($IPCMD netns pids "mcb$_k") 2>/dev/null
		_k=$((_k + 1))
	done
}

# TIPC over UDP bearers on the node addresses (star: every member's bearer
# names node 0; node 0 learns the members from their discovery messages),
# with a 1472-byte bearer MTU so that a TIPC packet is one IP packet on the
# veths (MTU 1500), as TCP's segments are.
#
# TIPC on its bearers, not between namespaces (issue 41).  Since Linux 5.5
# (commit f73b12812a3d, "tipc: improve throughput between nodes in netns")
# a TIPC node puts a hash of its namespace (tipc_net_hash_mixes) in word
# 13 of its discovery messages (user LINK_CONFIG; net/tipc/discover.c,
# tipc_disc_init_msg: msg_set_peer_net_hash), and a receiver that finds a
# namespace of its own kernel with that node id and hash
# (tipc_node_assign_peer_net) hands all data to that namespace's sockets
# directly (tipc_lxc_xmit): no UDP, no veth, no qdisc.  Every testbed node
# is a namespace of one kernel, so without a counter-measure TIPC measures
# a socket-to-socket copy (node 0's links carried 41 KB for a 15 x 6 MiB
# run).  tipc_no_shortcut puts a filter on the egress of every interface
# but lo of every node, before any bearer is enabled, that rewrites that
# word to 0 in every TIPC discovery message: IPv4 (20 bytes, no options),
# UDP to TIPC's port 6118 (UDP_PORT_DEFAULT, net/tipc/udp_media.c; the
# bearers here name no port), the TIPC header from byte 28, whose word 0
# holds the user in bits 25-28 (msg_user(): 13 = LINK_CONFIG, mask
# 0x1e000000 at 28), word 13 at byte 28 + 4 * 13 = 80 from the IP header
# (pedit's offsets are from the network header).  `action csum udp`
# keeps the datagram valid (TIPC's UDP bearer sends with no checksum,
# udp_tunnel_xmit_skb(..., nocheck), and csum leaves a zero checksum as
# it is).  No hash matches, so TIPC uses its links over the bearers, and
# its bytes show on node 0's links (bench_peers.sh checks them).
#
# A caveat of TIPC's UDP bearer itself: it caches one route (a per-CPU
# dst_cache, ub->rcast.dst_cache, tipc_udp_send_msg) for all unicast
# peers, so its packets leave by the route of whichever peer was sent to
# first, not by the testbed's routes (all of node 0's packets left on one
# of its two links): on the torus TIPC's first hop ignores the routing
# every other method follows.  It is TIPC's behaviour, measured as it is.
tipc_no_shortcut() { # NODES
	modprobe sch_ingress 2>/dev/null
	modprobe cls_u32 2>/dev/null
	modprobe act_pedit 2>/dev/null
	modprobe act_csum 2>/dev/null
	_i=0
	while [ "$_i" -lt "$1" ]; do
		for _d in $($IPCMD -n "mcb$_i" -o link show | awk -F': ' '{ sub(/@.*/, "", $2); print $2 }'); do
			[ "$_d" = lo ] && continue
			if ! $IPCMD netns exec "mcb$_i" $TCCMD qdisc replace dev "$_d" clsact ||
				! $IPCMD netns exec "mcb$_i" $TCCMD filter replace dev "$_d" egress \
					protocol ip prio 1 handle 800::41 u32 \
					match ip protocol 17 0xff match ip dport 6118 0xffff \
					match u32 0x1a000000 0x1e000000 at 28 \
					action pedit munge offset 80 u32 set 0 pipe \
					action csum udp; then
				echo "peers: no TIPC discovery filter on node $_i's $_d" >&2
				return 1
			fi
		done
		_i=$((_i + 1))
	done
}

# How many discovery messages node ID's filters rewrote (the pedit
# actions' packet counters): non-zero once TIPC's bearers are up.
tipc_filter_hits() { # ID
	for _d in $($IPCMD -n "mcb$1" -o link show | awk -F': ' '{ sub(/@.*/, "", $2); print $2 }'); do
		[ "$_d" = lo ] && continue
		$IPCMD netns exec "mcb$1" $TCCMD -s filter show dev "$_d" egress 2>/dev/null
	done | awk '/action order [0-9]+: *pedit/ { p = 1; next }
		p && /Sent [0-9]+ bytes [0-9]+ pkt/ { s += $4; p = 0 }
		END { print s + 0 }'
}

# PEERS_TIPC_FILTER=0 leaves the filter out: TIPC takes its shortcut, and
# bench_peers.sh's byte check must mark its rows INVALID (a test of the
# check, never a result).
tipc_setup() { # NODES
	mkdir -p "$PEERS_TMP"
	modprobe tipc 2>/dev/null
	if [ "${PEERS_TIPC_FILTER:-1}" = 0 ]; then
		echo "peers: PEERS_TIPC_FILTER=0: no discovery filter, TIPC may bypass the links" >&2
	else
		tipc_no_shortcut "$1" || return 1
	fi
	_i=0
	while [ "$_i" -lt "$1" ]; do
		_r=$(peers_addr 0)
		[ "$_i" = 0 ] && _r=$(peers_addr 1)
		$IPCMD netns exec "mcb$_i" /bin/sh -c "tipc media set mtu 1472 media udp &&
			tipc bearer enable media udp name b0 localip $(peers_addr "$_i") remoteip $_r" ||
			return 1
		_i=$((_i + 1))
	done
}

tipc_teardown() { # NODES
	_i=0
	while [ "$_i" -lt "$1" ]; do
		$IPCMD netns exec "mcb$_i" tipc bearer disable media udp name b0 2>/dev/null
		for _d in $($IPCMD -n "mcb$_i" -o link show | awk -F': ' '{ sub(/@.*/, "", $2); print $2 }'); do
			[ "$_d" = lo ] || $IPCMD netns exec "mcb$_i" $TCCMD qdisc del dev "$_d" clsact 2>/dev/null
		done
		_i=$((_i + 1))
	done
}

# tipc_bcast_run NODES MODE HARNESS-ARGS...: MODE replicast (group
# broadcast, node 0's `tipc link set broadcast REPLICAST`), broadcast (the
# same with BROADCAST: TIPC refuses it on unicast UDP bearers) or unicast
# (a group unicast to each member); members on 1..NODES-1, the root on
# node 0; CSV on stdout, members' reports in $PEERS_TMP/tipc.member.*.
tipc_bcast_run() {
	_n=$1 _mode=$2 _uc=''
	shift 2
	case $_mode in
	broadcast) _m=BROADCAST ;;
	replicast) _m=REPLICAST ;;
	unicast) _m=REPLICAST _uc=--unicast ;;
	*) return 2 ;;
	esac
	$IPCMD netns exec mcb0 tipc link set broadcast "$_m" || return 1
	_i=1 _logs=''
	while [ "$_i" -lt "$_n" ]; do
		: > "$PEERS_TMP/tipc.member.$_i"
		$IPCMD netns exec "mcb$_i" "$PEERS_BIN/tipc_bcast" member --idle 600 \
			> "$PEERS_TMP/tipc.member.$_i" 2>&1 &
		_logs="$_logs $PEERS_TMP/tipc.member.$_i"
		_i=$((_i + 1))
	done
	# shellcheck disable=SC2086
	wait_lines $((_n - 1)) 'member joined' $_logs || echo "peers: not every TIPC member started" >&2
	# shellcheck disable=SC2086 # _uc: no word or one
	$IPCMD netns exec mcb0 "$PEERS_BIN/tipc_bcast" root --nodes "$_n" $_uc --peer tipc \
		--method "$_mode" "$@"
	_rc=$?
	wait
	return $_rc
}

# mcast_bcast_run NODES TRANSPORT METHOD SIZE ITERS [--no-header]:
# mcastperf (completion mode) from node 0 to nodes 1..NODES-1, one method
# and size per run, receivers restarted each time, PEERS_WARMUP_ROUNDS
# (default 0) untimed rounds per size first (mcastperf send --warmup, the
# harnesses' --warmup); its CSV row converted to the peers schema (SIZE
# may be a list: one row each, the same CPU and byte figures for all of
# them).  cpu_us_per_msg: the guest's busy CPU (/proc/stat) around the
# `mcastperf send`, less the cost of starting a program in a node
# (PEERS_START_CPU_US, measured by peers_start_cpu), over the
# (2*ITERS + warm-up) per size + 2 messages it sends (warm-up, timed,
# back to back, its probe and the stop).  src_tx_before/after: node 0's
# peers_tx_bytes around the same `mcastperf send` (so they include the
# warm-up, probe and stop messages: more bytes, never fewer).
mcast_bcast_run() {
	_n=$1 _tp=$2 _meth=$3 _size=$4 _iters=$5 _wu=${PEERS_WARMUP_ROUNDS:-0}
	mkdir -p "$PEERS_TMP"
	rm -f "$PEERS_TMP"/mcast.recv.*
	_i=1 _logs=''
	while [ "$_i" -lt "$_n" ]; do
		mcastbed exec "$_i" mcastperf recv --idle 900 > "$PEERS_TMP/mcast.recv.$_i" 2>&1 &
		_logs="$_logs $PEERS_TMP/mcast.recv.$_i"
		_i=$((_i + 1))
	done
	# shellcheck disable=SC2086
	wait_lines $((_n - 1)) receiving $_logs || echo "peers: not every mcast receiver started" >&2
	_tx0=$(peers_tx_bytes 0)
	_c0=$(peers_cpu_us)
	mcastbed exec 0 mcastperf send --members "1-$((_n - 1))" --methods "$_meth" \
		--sizes "$_size" --iters "$_iters" --warmup "$_wu" --csv > "$PEERS_TMP/mcast.csv"
	_rc=$?
	_c1=$(peers_cpu_us)
	_tx1=$(peers_tx_bytes 0)
	wait
	[ "${6:-}" = --no-header ] || echo "$PEERS_CSV_HEADER"
	_ns=$(echo "$_size" | awk -F, '{ print NF }')
	awk -F, -v peer="mcast-$_tp" -v n="$_n" -v cpu="$((_c1 - _c0 - ${PEERS_START_CPU_US:-0}))" \
		-v msgs="$((_ns * (2 * _iters + _wu) + 2))" -v tx0="$_tx0" -v tx1="$_tx1" 'NR > 1 {
		c = cpu / msgs; if (c < 0) c = 0
		printf "%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%.1f,%s,%s,%s\n", peer, $1, n, $2, $3, $4,
			$5, $6, $7, $8, c, $9, tx0, tx1 }' "$PEERS_TMP/mcast.csv"
	return $_rc
}

PEERS_CSV_HEADER=peer,method,nodes,dests,size,iters,median_us,p99_us,msgs_per_s,mb_per_s,cpu_us_per_msg,failed,src_tx_before,src_tx_after

# Bytes node ID's interfaces but lo have sent so far: the sum of
# /sys/class/net/*/statistics/tx_bytes read in its netns (ip netns exec
# mounts that netns's sysfs), as the harnesses' peers_tx_bytes() reads it.
peers_tx_bytes() { # ID
	# shellcheck disable=SC2016 # the netns's sh expands it
	$IPCMD netns exec "mcb$1" /bin/sh -c 'for d in /sys/class/net/*; do
		[ "${d##*/}" = lo ] || cat "$d/statistics/tx_bytes"; done' 2>/dev/null |
		awk '{ s += $1 } END { printf "%.0f\n", s }'
}

# The guest's busy CPU time so far, microseconds over all CPUs (the
# harnesses' peers_cpu_us() in sh).
peers_cpu_us() {
	awk -v hz="$(getconf CLK_TCK 2>/dev/null || echo 100)" '/^cpu / {
		printf "%.0f\n", ($2 + $3 + $4 + $7 + $8 + $9) * 1e6 / hz; exit }' /proc/stat
}

# The CPU cost of starting mcastperf in node 0 (ip netns exec, the loader),
# median of 3, for mcast_bcast_run to subtract.
peers_start_cpu() {
	for _k in 1 2 3; do
		_c0=$(peers_cpu_us)
		mcastbed exec 0 mcastperf --help > /dev/null 2>&1
		echo $(($(peers_cpu_us) - _c0))
	done | sort -n | sed -n 2p
}
