#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# /dev/mcast: ioctl ABI checks (sizes, flags, reserved fields, unknown ioctls),
# join/leave rules, exactly-once byte-exact local delivery to several files,
# poll, read, blocking receive, overflow, lossless members and their
# cut-off, node lists, io_uring, statistics;
# and network namespaces: two netns are two nodes, and a netns that goes
# away with files open is freed (the module unloads afterwards).  Driven
# by mcast_probe (tests/vm/guest-src/mcast_probe.c).

# shellcheck source=tests/vm/guest/tap.sh
. /tests/tap.sh

# shellcheck source=tests/vm/guest/probelib.sh
. /tests/probelib.sh

# stat_field NAME LINE: the value of NAME=... in a stats line.
stat_field() {
	echo "$2" | tr ' ' '\n' | sed -n "s/^$1=//p"
}

# ---- tests

mcast_setup

scenario nodes
run_ok "NODE_SET 4x4 at (1,2)" mcast_probe node-set 4,4 1,2
for g in 7 8 9 10; do
	mcast_probe group-new $g > /dev/null
done
run_ok "GROUP_SET 7" mcast_probe group-set 7 9,3,12

scenario ioctl-errors 7
scenario deliver 7 4
scenario block 7
scenario overflow 8
# Lossless members (the default): senders wait; one that stalls is cut off
# after rx_stall_ms, shortened here.
stall=/sys/module/mcast/parameters/rx_stall_ms
echo 2000 > $stall
scenario lossless 10 2000
echo 20000 > $stall
s=$(mcast_probe stats)
is "$(stat_field cutoffs "$s")" 1 "node statistics count the cut-off"
scenario nodes
scenario uring 9

# Statistics after the traffic above.
s=$(mcast_probe stats 8)
is "$(stat_field rx_drops "$s")" 10 "group statistics count the overflow drops"
is "$(stat_field tx_msgs "$s")" 261 "group statistics count the sends"
is "$(stat_field rx_msgs "$s")" 512 "group statistics count the queued messages"
s=$(mcast_probe stats)
is "$(stat_field files "$s")" 0 "no file is open any more"
n=$(stat_field rx_drops "$s")
[ "${n:-0}" -ge 10 ] && pass "node statistics count the drops" ||
	fail "node statistics count the drops" "$s"
expect_out "no local member is left" "group id=7 epoch=2 local=0 members=9,3,12 rchain=3,9,12 hcycle=3,9,12" \
	group-get 7

# Concurrent senders, receivers and group changes; the module stays in
# use (rmmod refused) while they run.
refs=$(cat /sys/module/mcast/refcnt)
mcast_probe stress 11 4 > /tmp/stress.out 2>&1 &
stress_pid=$!
wait_refs "$refs" || diag "the stress processes opened no file within 60 s"
run_fails "rmmod is refused while files are open" rmmod mcast
wait $stress_pid
rc=$?
if [ $rc -eq 0 ] && grep -q '^PASS' /tmp/stress.out; then
	pass "stress: senders, receivers and group changes ran concurrently"
else
	fail "stress: senders, receivers and group changes ran concurrently" \
		"exit $rc" "$(cat /tmp/stress.out)"
fi
s=$(mcast_probe stats)
is "$(stat_field files "$s")" 0 "every file of the stress run is closed"

# Network namespaces: each is a node of its own.
if ip netns add mc_a 2> /dev/null && ip netns add mc_b; then
	run_ok "NODE_SET in netns mc_a" ip netns exec mc_a mcast_probe node-set 4,4 0,0
	run_ok "NODE_SET in netns mc_b" ip netns exec mc_b mcast_probe node-set 4,4 3,3
	is "$(ip netns exec mc_a mcast_probe node-get)" \
		"node kind=1 links=0 dims=4,4 coord=0,0 id=0" "netns mc_a is node 0"
	is "$(ip netns exec mc_b mcast_probe node-get)" \
		"node kind=1 links=0 dims=4,4 coord=3,3 id=15" "netns mc_b is node 15"
	is "$(mcast_probe node-get)" "node kind=1 links=0 dims=4,4 coord=1,2 id=9" \
		"the initial netns is still node 9"
	run_ok "GROUP_NEW 5 in mc_a" ip netns exec mc_a mcast_probe group-new 5
	is "$(ip netns exec mc_b mcast_probe group-get 5 2>&1)" \
		"error ENOENT: no such group" "mc_b does not see mc_a's group"
	run_ok "GROUP_NEW 5 in mc_b too" ip netns exec mc_b mcast_probe group-new 5
	scenarios_a=$(ip netns exec mc_a /usr/local/bin/mcast_probe deliver 5 2 2>&1)
	case $scenarios_a in
	*FAIL*) fail "local delivery inside netns mc_a" "$scenarios_a" ;;
	*) pass "local delivery inside netns mc_a" ;;
	esac
	s=$(ip netns exec mc_b mcast_probe stats 5)
	is "$(stat_field rx_msgs "$s")" 0 "mc_a's sends reached no file of mc_b"
	is "$(ip netns exec mc_a mcast_probe info | sed 's/ ndims.*//')" \
		"abi=1 caps=0x3f node=0 kind=1 links=0" "a file opened in mc_a is on node 0"
	# A process holding files in mc_a while the netns is deleted.
	ip netns exec mc_a /usr/local/bin/mcast_probe hold 5 2 > /tmp/hold_a.out 2>&1 &
	hold_pid=$!
	wait_lines 1 '^PASS left the private netns' /tmp/hold_a.out ||
		diag "the holder did not get its files open within 60 s" "$(cat /tmp/hold_a.out)"
	run_ok "ip netns del mc_a while its files are open" ip netns del mc_a
	wait $hold_pid
	is "$?" 0 "the holder ran and closed its files after the netns was deleted"
else
	skip "network namespaces" "ip netns add failed"
fi

# A private netns left behind with files open; they close when the process
# exits, and the netns goes with them.
scenario hold 6
scenario hold 6 1

# Unloading with a configured netns (mc_b) still alive.
mcast_unload
ip netns del mc_b 2> /dev/null
run_ok "mcast.ko loads again" insmod "$MCAST_KO"
expect_out "a fresh module has a fresh node" "node kind=0" node-get
mcast_unload
done_testing
tap_exit
