#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# The cluster demo, run inside the test VM by `tests/vm/run.sh --demo`
# (`make demo-cluster`): a 16-node 4x4 unidirectional torus of network
# namespaces built with mcastbed and run by mcastd (one config file; the
# daemons configure the nodes), applications joining a group on a few
# nodes and the join reaching every node's chains, multicasts from a few
# sources to that group and to a node list, and for each: who received it, in which U-torus
# step, from which node, next to mcastctl plan's tree for the same
# multicast; then every node's statistics.  Prints only what the programs
# print: when mcast.ko has no inter-node data path yet it says so and
# shows the configured cluster and the planned trees.  Then the same
# cluster on the simulated IR fabric (mcast_irsim.ko): one multicast as
# S-, Md-, Mu-torus(4) and U-torus, each receiver's phase and worm sender
# next to mcastctl plan, and the four side by side in virtual time.

# The wrappers that make ip and our programs win over busybox's applets.
# shellcheck source=tests/vm/guest/tap.sh
. /tests/tap.sh

TOPO=torus:4x4:uni
GROUP=5
MEMBERS="0,0 0,3 1,1 1,2 2,0 2,3 3,1 3,2" # node ids 0 3 5 6 8 11 13 14

say() {
	printf '\n$ %s\n' "$*"
}

run() {
	say "$@"
	"$@"
}

# The node id of a coordinate "a,b" on the 4x4 torus (a = sigma1).
nid() {
	echo $((${1%,*} * 4 + ${1#*,}))
}

coord() {
	echo "$(($1 / 4)),$(($1 % 4))"
}

section() {
	printf '\n======== %s\n' "$*"
}

section "mcast cluster demo: Linux $(uname -r), 16 nodes in network namespaces"
modprobe veth 2>/dev/null
if ! insmod "$MCAST_KO"; then
	echo "demo: cannot load mcast.ko"
	exit 1
fi
echo "mcast.ko loaded: $(cat /sys/module/mcast/version 2>/dev/null || echo 'version unknown')"

# mcastd runs the cluster when it is there (an mcast.ko of before the
# daemon gets mcastctl's configuration from mcastbed instead).
DAEMON=
if [ -x /usr/local/bin/mcastd ]; then
	DAEMON=--daemon
	export MCASTBED_HEARTBEAT=500ms MCASTBED_SUSPECT=4s MCASTBED_DEAD=4s
fi

section "the cluster: a 4x4 unidirectional torus (one netns per node, veth links, UTR routes)"
# shellcheck disable=SC2086 # --daemon or nothing
run mcastbed up "$TOPO" $DAEMON || exit 1
run mcastbed show
run mcastbed exec 6 mcastctl node show
say mcastbed exec 6 mcastctl peer show "| head -n 4"
mcastbed exec 6 mcastctl peer show | head -n 4
echo "... ($(mcastbed exec 6 mcastctl peer show | grep -c '^peer') peers)"
say mcastbed exec 0 traceroute -n 10.77.0.15 "  # UTR: highest dimension first, +1 only"
mcastbed exec 0 traceroute -n -q 1 -w 1 10.77.0.15 2>&1
say mcastbed exec 15 traceroute -n 10.77.0.0 "  # the way back goes round the rings"
mcastbed exec 15 traceroute -n -q 1 -w 1 10.77.0.0 2>&1

uptime_ms() {
	awk '{ printf "%d\n", $1 * 1000 }' /proc/uptime
}

# Until node $1 has group $GROUP with $2 members (30 s at most).
wait_members() { # NODE COUNT
	_i=0
	while [ "$_i" -lt 300 ] &&
		! mcastbed exec "$1" mcastctl group show "$GROUP" 2>/dev/null |
			grep -q "members $2"; do
		sleep 0.1
		_i=$((_i + 1))
	done
}

if [ -n "$DAEMON" ]; then
	section "mcastd: one config file, a daemon in every node, no node configured by hand"
	say "cat /run/mcastbed/mcastd.conf | head -n 12"
	head -n 12 /run/mcastbed/mcastd.conf
	say mcastbed exec 0 mcastctl cluster show "| head -n 5"
	mcastbed exec 0 mcastctl cluster show | head -n 5
	echo "... (every node of the file: state, incarnation, version, last heard, groups)"

	section "group $GROUP: applications join it on 8 nodes; mcastd puts its chains in every node"
	echo "An application's join on node 0 creates group $GROUP there; node 0's mcastd"
	echo "tells the others, and every daemon installs the members, R-chain and H-cycle:"
	# hold NODE: a file on NODE joins $GROUP and stays (its pid in HOLDERS:
	# ip netns exec forks the receiver, which prints its own pid)
	HOLDERS=''
	hold() {
		: > "/tmp/demo.hold.$1"
		mcastbed exec "$1" mcast_probe rx "$GROUP" 900000 -1 > "/tmp/demo.hold.$1" 2>&1 &
		wait_lines 1 '^ready' "/tmp/demo.hold.$1"
		HOLDERS="$HOLDERS $(sed -n 's/^ready .* pid=\([0-9]*\)$/\1/p' "/tmp/demo.hold.$1")"
	}
	hold 0
	_t0=$(uptime_ms)
	wait_members 15 1
	echo "  node 15 (3,3) has it $(($(uptime_ms) - _t0)) ms after node 0's join:"
	mcastbed exec 15 mcastctl group show "$GROUP" | sed 's/^/    /'
	for _c in $MEMBERS; do
		[ "$_c" = 0,0 ] || hold "$(nid "$_c")"
	done
	for _u in 0 5 10 15; do
		wait_members "$_u" 8
	done
	echo "Then 7 more nodes join; node 9 (2,1), which is not a member, has them all:"
	run mcastbed exec 9 mcastctl group show "$GROUP"
	_sum=$(for _u in $(seq 0 15); do mcastbed exec "$_u" mcastctl -j group show "$GROUP" |
		sed 's/"epoch":[0-9]*,//; s/"local":[0-9]*,//'; done | sort -u | wc -l)
	echo "=> the same members, R-chain and H-cycle on $([ "$_sum" = 1 ] && echo "all 16 nodes" || echo "only some nodes ($_sum different views)")"
else
	section "group $GROUP: the same members on every node"
	# shellcheck disable=SC2086 # the member list
	run mcastbed group "$GROUP" $MEMBERS
	run mcastbed exec 0 mcastctl group show "$GROUP"
fi

# Is there an inter-node data path?  A completion-mode send is refused by
# an mcast.ko without one (mcastperf exits 3).
mcastbed exec 0 mcastperf msg --nodes 1 --size 8 > /tmp/probe.out 2>&1
probe=$?
datapath=1
if [ "$probe" = 3 ]; then
	datapath=0
	section "inter-node multicast is NOT available in this mcast.ko"
	cat /tmp/probe.out
	echo "The cluster above is configured (topology, coordinates, peers, group);"
	echo "mcast.ko delivers only to its own node's members so far.  What follows"
	echo "is what mcastctl plan computes for the multicasts this demo would send."
elif [ "$probe" != 0 ]; then
	echo "demo: the probe send from node 0 to node 1 failed (status $probe):"
	cat /tmp/probe.out
fi

# multicast NAME SRC_ID "DEST_IDS" (group|nodes) SIZE: receivers with
# --verbose on every destination, one message from SRC, then what each
# destination printed, by step, and mcastctl plan's schedule for $ALGO
# (u-torus unless set).
multicast() {
	_name=$1 _src=$2 _dests=$3 _how=$4 _size=$5
	section "$_name"
	_dcoords=''
	for _d in $_dests; do
		_dcoords="$_dcoords -d $(coord "$_d")"
	done
	if [ "$datapath" = 1 ]; then
		rm -f /tmp/demo.recv.*
		_rpids=''
		for _d in $_dests; do
			if [ "$_how" = group ]; then
				mcastbed exec "$_d" mcastperf recv --group "$GROUP" --count 1 \
					--idle 20 --verbose > "/tmp/demo.recv.$_d" 2>&1 &
			else
				mcastbed exec "$_d" mcastperf recv --count 1 --idle 20 \
					--verbose > "/tmp/demo.recv.$_d" 2>&1 &
			fi
			_rpids="$_rpids $!"
		done
		_i=0
		while [ "$_i" -lt 100 ] &&
			[ "$(cat /tmp/demo.recv.* 2>/dev/null | grep -c receiving)" -lt "$(echo "$_dests" | wc -w)" ]; do
			sleep 0.1
			_i=$((_i + 1))
		done
		if [ "$_how" = group ]; then
			run mcastbed exec "$_src" mcastperf msg --group "$GROUP" --size "$_size"
		else
			run mcastbed exec "$_src" mcastperf msg --nodes "$(echo "$_dests" | tr ' ' ,)" --size "$_size"
		fi
		# the receivers (not the group's holders: they stay joined)
		# shellcheck disable=SC2086 # pids
		wait $_rpids
		echo
		echo "received (by step):"
		cat /tmp/demo.recv.* | grep ': got seq ' |
			sed 's/.* in step \([0-9]*\) .*/\1 &/' | sort -n -k1,1 -k2 | cut -d' ' -f2- |
			sed 's/^/  /'
		_missing=''
		for _d in $_dests; do
			grep -q ': got seq ' "/tmp/demo.recv.$_d" || _missing="$_missing $_d"
		done
		[ -z "$_missing" ] || echo "  NOT received by node(s):$_missing"
	fi
	# shellcheck disable=SC2086 # the -d options
	run mcastctl plan -t "$TOPO" -a "${ALGO:-u-torus}" -s "$(coord "$_src")" $_dcoords --tree |
		tee /tmp/demo.plan
	[ "$datapath" = 1 ] || return 0
	# "node step from" for every destination: as delivered, as planned
	cat /tmp/demo.recv.* | sed -n 's/^node \([0-9]*\): got seq .* in step \([0-9]*\) from node \([0-9]*\)\(,.*\)*$/\1 \2 \3/p' |
		sort > /tmp/demo.got
	# U-torus: "step N: (a,b) -> (c,d) ..."; worms: "phase N: (a,b) => (c,d) (e,f) ..."
	tr -d '()' < /tmp/demo.plan | awk '
		$1 == "step" && $4 == "->" { st = $2; sub(":", "", st); print $5, st, $3 }
		$1 == "phase" && $4 == "=>" {
			st = $2; sub(":", "", st)
			for (i = 5; i <= NF && $i ~ /^[0-9]+,[0-9]+$/; i++) print $i, st, $3
		}' |
		while read -r _c _st _f; do
			echo "$(nid "$_c") $_st $(nid "$_f")"
		done | sort > /tmp/demo.want
	echo
	if cmp -s /tmp/demo.got /tmp/demo.want; then
		echo "=> every destination got it, in the step (phase) and from the node mcastctl plan shows"
	else
		echo "=> deliveries DIFFER from mcastctl plan (node step from; < delivered, > planned):"
		diff /tmp/demo.got /tmp/demo.want | grep '^[<>]'
	fi
}

# The group's members other than the source, as ids.
group_dests() { # SRC
	for _c in $MEMBERS; do
		_n=$(nid "$_c")
		[ "$_n" = "$1" ] || printf '%s ' "$_n"
	done
}

# mcast.ko's trace events around multicast 1, for mcastctl trace
TRACEFS=/sys/kernel/tracing
trace_on() {
	[ "$datapath" = 1 ] || return 1
	[ -d $TRACEFS/events/mcast ] || mount -t tracefs tracefs $TRACEFS 2>/dev/null
	[ -d $TRACEFS/events/mcast ] || return 1
	echo > $TRACEFS/trace && echo 1 > $TRACEFS/events/mcast/enable
}

traced=0
trace_on && traced=1
multicast "multicast 1: node 0 (0,0) sends 1 KiB to group $GROUP" 0 "$(group_dests 0)" group 1K
if [ "$traced" = 1 ]; then
	echo 0 > $TRACEFS/events/mcast/enable
	_seq=$(cat /tmp/demo.recv.* | sed -n 's/.*: got seq \([0-9]*\) .*/\1/p' | head -n 1)
	section "multicast 1 as the nodes traced it (mcastctl trace), beside its plan"
	run mcastctl trace 0 "${_seq:-0}" topology "$TOPO"
fi
multicast "multicast 2: node 13 (3,1), a member, sends 64 KiB to group $GROUP" 13 "$(group_dests 13)" group 64K
multicast "multicast 3: node 10 (2,2) sends 4 KiB to the node list 1 4 7 9 12 15" 10 "1 4 7 9 12 15" nodes 4K

if [ -n "$DAEMON" ]; then
	section "the daemons' view from node 6 (mcastctl cluster show)"
	mcastbed exec 6 mcastctl cluster show
	section "every node's counters, collected by node 6's mcastd (mcastctl cluster stats)"
	mcastbed exec 6 mcastctl cluster stats
	# shellcheck disable=SC2086 # pids
	kill $HOLDERS 2>/dev/null
fi

section "statistics of every node (mcastctl stats show)"
_u=0
while [ "$_u" -lt 16 ]; do
	echo "node $_u ($(coord "$_u")):"
	mcastbed exec "$_u" mcastctl stats show 2>&1 | sed 's/^/  /'
	_u=$((_u + 1))
done

# ---- the offload path: the same cluster on the simulated IR fabric
D=/sys/kernel/debug/mcast_irsim
fabric_stat() {
	sed -n "s/^$1 //p" $D/stats
}
if [ "$datapath" = 1 ] && insmod "${MCAST_KO%/*}/mcast_irsim.ko" 2>/dev/null; then
	section "the offload path: the same 4x4 cluster on a simulated fabric with intermediate reception (mcast_irsim.ko)"
	mcastbed down > /dev/null 2>&1
	say "echo 'torus:4x4 buffer=2 flit=64' > $D/fabric"
	echo 'torus:4x4 buffer=2 flit=64' > $D/fabric
	run cat $D/fabric
	run mcastbed up "$TOPO" --transport irsim || exit 1
	run mcastbed exec 13 mcastctl node show
	# shellcheck disable=SC2086 # the member list
	mcastbed group "$GROUP" $MEMBERS > /dev/null
	: > /tmp/demo.vlat
	for ALGO in s-torus md-torus mu-torus:4 u-torus; do
		run mcastbed exec 13 mcastctl node set algorithm "$ALGO"
		_w0=$(fabric_stat worms) _t0=$(fabric_stat now_ns)
		multicast "node 13 (3,1) sends 1 KiB to group $GROUP as $ALGO" 13 "$(group_dests 13)" group 1K
		_w1=$(fabric_stat worms) _t1=$(fabric_stat now_ns)
		# the last receiver's "whole at virtual T ns", from the send
		_tl=$(sed -n 's/.*whole at virtual \([0-9]*\) ns.*/\1/p' /tmp/demo.recv.* |
			sort -n | tail -1)
		printf '%-11s %6s %12s %10s\n' "$ALGO" "$((_w1 - _w0))" \
			"$(((${_tl:-_t0} - _t0) / 1000))" \
			"$(((_t1 - _t0) / 1000))" >> /tmp/demo.vlat
	done
	ALGO=
	section "the four algorithms side by side on the fabric (virtual time, tau_s 95 us, tau_r 75 us, 0.5 us a flit)"
	echo "worms: all the fabric carried for the multicast, acknowledgements included;"
	echo "last receiver: virtual us from the send until the last destination had it"
	echo "whole (the receivers' metadata); all done: until the model's last event (the"
	echo "last acknowledgement); the fabric's virtual time, not this VM's"
	printf '%-11s %6s %12s %10s\n' algorithm worms "last receiver" "all done"
	cat /tmp/demo.vlat
	run mcastbed exec 13 mcastctl stats show
	run cat $D/stats
	mcastbed down > /dev/null 2>&1
	# the nodes leave the fabric as their namespaces are cleaned up, a
	# little after mcastbed down returns
	_i=0
	until { [ "$(cat $D/fabric)" = none ] || echo none > $D/fabric; } 2>/dev/null &&
		rmmod mcast_irsim 2>/dev/null; do
		_i=$((_i + 1))
		[ "$_i" -lt 100 ] || break
		sleep 0.1
	done
fi

section "done"
if [ "$datapath" = 0 ]; then
	echo "The cluster was built and configured; inter-node multicast is not available in this mcast.ko."
fi
mcastbed down
rmmod mcast
exit 0
