#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# The simulated IR fabric (mcast_irsim.ko) as a transport: the fabric is
# created and destroyed in debugfs, bad specifications are refused, a
# node cannot use the transport before the fabric exists, and on a 4x4
# fabric a 4x4 cluster multicasts over it (group sends of one, several
# and many fragments, completion mode, a node list), every receiver
# getting every message once, byte-exact, in the phase and from the node
# mcastctl plan shows for S-torus (what auto picks here), with the model's checks quiet (no deadlock, no
# channel taken out of Thm 5.1's order).  With the fabric losing every
# 7th worm, the data path's retransmission still delivers every message
# once.  The fabric cannot go while a node is attached; the testbed goes
# down with worms in flight, and the modules unload after it (with a
# fabric up, too).  Paced to the wall clock, a send takes the model's
# start-ups in real time.

# shellcheck source=tests/vm/guest/tap.sh
. /tests/tap.sh

# shellcheck source=tests/vm/guest/netlib.sh
. /tests/netlib.sh

IRSIM_KO=${MCAST_KO%/*}/mcast_irsim.ko
D=/sys/kernel/debug/mcast_irsim

run_ok "insmod mcast.ko" insmod "$MCAST_KO"
run_ok "insmod mcast_irsim.ko" insmod "$IRSIM_KO"
is "$(cat $D/fabric)" none "no fabric at first"

stat_of() { # NAME
	sed -n "s/^$1 //p" $D/stats
}

# ---- no fabric yet: the transport cannot open
ip netns add irs
in_irs() {
	/usr/local/bin/ip netns exec irs "$@"
}
run_ok "node set topology torus:4x4 coord 1,2" \
	in_irs mcastctl node set topology torus:4x4 coord 1,2
out=$(in_irs mcastctl node set transport irsim 2>&1)
[ $? != 0 ] && pass "node set transport irsim without a fabric is refused" ||
	fail "node set transport irsim without a fabric is refused" "$out"
ip netns del irs

# ---- the fabric's specification
for bad in "mesh:4x4" "torus:4x1" "torus:4x4 buffer=0" "torus:4x4 vc_sets=3" \
	"torus:4x4 bogus=1" "torus:4x4 tau_n=0" "torus:4x6"; do
	if echo "$bad" > $D/fabric 2>/dev/null; then
		fail "fabric '$bad' is refused" "accepted"
		echo none > $D/fabric
	else
		pass "fabric '$bad' is refused"
	fi
done
run_ok "fabric torus:4x4 (buffer 2 flits, flit 64 B)" \
	sh -c "echo 'torus:4x4 buffer=2 flit=64' > $D/fabric"
case $(cat $D/fabric) in
"torus:4x4 vc_sets=2 buffer=2 ports=4 "*) pass "fabric shows torus:4x4 vc_sets=2 buffer=2 ports=4" ;;
*) fail "fabric shows torus:4x4 vc_sets=2 buffer=2 ports=4" "$(cat $D/fabric)" ;;
esac
if echo "torus:4x4" > $D/fabric 2>/dev/null; then
	fail "a second fabric is refused" "accepted"
else
	pass "a second fabric is refused"
fi

# ---- a cluster on it
N=16 TOPO=torus:4x4:uni
if ! out=$(mcastbed up "$TOPO" --transport irsim 2>&1); then
	fail "mcastbed up $TOPO --transport irsim" "$out"
	done_testing
	tap_exit
fi
pass "mcastbed up $TOPO --transport irsim"
# no IP network: no veth (nor any link up but lo) and no route in any node;
# each node's address, its name to its peers, is on lo.  Links that are
# down do not count: a kernel with sit or ipip built in gives every netns
# a sit0 or tunl0, down.
veths=0 others=0 routes=0
for u in $(seq 0 $((N - 1))); do
	veths=$((veths + $(/usr/local/bin/ip -n "mcb$u" -o link show type veth | wc -l)))
	others=$((others + $(/usr/local/bin/ip -n "mcb$u" -o link show up | grep -vc ': lo:')))
	routes=$((routes + $(/usr/local/bin/ip -n "mcb$u" route show | wc -l)))
done
is "$veths/$others/$routes" 0/0/0 "irsim bed: no veth, no link up but lo, no route in any node"
is "$(/usr/local/bin/ip -n mcb5 -o link show type veth)" "" "irsim bed: node 5 has no veth"
case $(/usr/local/bin/ip -n mcb5 -o addr show dev lo) in
*" 10.77.0.5/32 "*) pass "irsim bed: node 5's address 10.77.0.5 is on lo" ;;
*) fail "irsim bed: node 5's address 10.77.0.5 is on lo" \
	"$(/usr/local/bin/ip -n mcb5 -o addr show)" ;;
esac
case $(mcastbed show) in
*"on the irsim fabric (no links, no routes)"*"fabric       torus:4x4 "*)
	pass "mcastbed show: on the irsim fabric, no links, and the fabric" ;;
*) fail "mcastbed show: on the irsim fabric, no links, and the fabric" "$(mcastbed show)" ;;
esac
# what needs links or routes is refused, naming the fabric's knobs
for c in "netem:delay 1ms" "netem:off" "reroute" "kill:5 --reroute"; do
	# shellcheck disable=SC2086 # the arguments after the command
	case $c in
	netem:*) out=$(mcastbed netem "${c#netem:}" 2>&1) ;;
	*:*) out=$(mcastbed "${c%%:*}" ${c#*:} 2>&1) ;;
	*) out=$(mcastbed "$c" 2>&1) ;;
	esac
	rc=$?	# the status of the assignment, the mcastbed's
	c=$(echo "$c" | tr : ' ')
	case $rc:$out in
	1:*"an irsim testbed has no "*"$D: drop_every"*fail_link*stall_node*no_ir*)
		pass "irsim bed: mcastbed $c is refused, naming the fabric's knobs" ;;
	*) fail "irsim bed: mcastbed $c is refused, naming the fabric's knobs" "$rc $out" ;;
	esac
done
is "$(ls /run/netns/mcb5 2>&1)" /run/netns/mcb5 "irsim bed: node 5 is still up after the refused kill"
is "$(mcastbed exec 5 mcastctl -j node show |
	sed -n 's/.*"transport": *"\([^"]*\)".*/\1/p')" irsim "node 5 uses irsim"
case $(mcastbed exec 5 mcastctl -j node show) in
*'"transport":"irsim","transport_caps":["ir"],"transport_mtu":1452,'*)
	pass "node show -j: irsim's capabilities [ir] and 1452-byte datagrams" ;;
*) fail "node show -j: irsim's capabilities and datagram size" \
	"$(mcastbed exec 5 mcastctl -j node show)" ;;
esac
case $(mcastbed exec 5 mcastctl node show) in
*"capabilities ir; 1452-byte datagrams"*)
	pass "node show: capabilities ir; 1452-byte datagrams" ;;
*) fail "node show: capabilities line" "$(mcastbed exec 5 mcastctl node show)" ;;
esac
# the node's algorithm is auto: on an IR transport with at most 16
# destinations, S-torus (one worm through the H-cycle)
ALGO=s-torus
members 1 9 41
round "irsim: group 1 from node 0" 0 g:1 "$MEM" 0,1400,150000
# every node a member: a multicast reaches all of them with no veth
MEM0=$MEM
MEM=$(seq 0 $((N - 1)) | tr '\n' ' ')
run_ok "$TOPO: group 2 with every node" mcastbed group 2 all
round "irsim: group 2 (every node) from node 9" 9 g:2 "$MEM" 1400,20000
MEM=$MEM0
src=$(random_nodes 1 42)
round "irsim: group 1 from node $src, completion mode" "$src" g:1 \
	"$MEM" 70000 wait
lst=$(random_nodes 6 43)
round "irsim: node list from 3, completion mode" 3 \
	"n:$(echo "$lst" | tr ' ' ',')" "$lst" 8,65536 wait

worms=$(stat_of worms)
[ "${worms:-0}" -gt 100 ] && [ "$(stat_of tx)" = "$worms" ] &&
	pass "the fabric carried every datagram as a worm ($worms)" ||
	fail "the fabric carried every datagram as a worm" "$(cat $D/stats)"
is "$(stat_of deadlocks)/$(stat_of lambda_violations)/$(stat_of boundary_violations)" \
	0/0/0 "no deadlock, every channel taken in Thm 5.1's order, one boundary at most"
is "$(stat_of rx_no_host)/$(stat_of rx_no_peer)/$(stat_of lost)" 0/0/0 \
	"every worm reached an attached node that knows its sender"
[ "$(stat_of flit_hops)" -gt "$worms" ] &&
	pass "links carried $(stat_of flit_hops) flit hops" ||
	fail "links carried flits" "$(cat $D/stats)"
[ "$(grep -c . $D/links)" -gt 8 ] &&
	pass "links: $(($(grep -c . $D/links) - 1)) virtual channels carried flits" ||
	fail "links lists the channels that carried flits" "$(cat $D/links)"

# ---- a lossy fabric: every 7th worm lost, retransmission recovers
run_ok "drop_every 7" sh -c "echo 7 > $D/drop_every"
round "irsim, every 7th worm lost: group 1 from node 6" 6 g:1 "$MEM" 1400,20000
[ "$(stat_of drops)" -gt 0 ] &&
	pass "the fabric lost $(stat_of drops) worms" ||
	fail "the fabric lost worms" "$(cat $D/stats)"
echo 0 > $D/drop_every
for bad in "1" "16 0 1" "3 2 1" "x"; do
	if echo "$bad" > $D/fail_link 2>/dev/null; then
		fail "fail_link '$bad' is refused" "accepted"
	else
		pass "fail_link '$bad' is refused"
	fi
done

# ---- kill and revive on irsim: the netns goes (its transport leaves the
# fabric), and comes back attached at its node id; a node that is no
# member of group 1, no source and not in the node list above
victim=''
for u in $(seq $((N - 1)) -1 0); do
	case " $MEM $lst 0 3 6 9 $src " in
	*" $u "*) ;;
	*) victim=$u; break ;;
	esac
done
run_ok "irsim bed: mcastbed kill $victim" mcastbed kill "$victim"
is "$(/usr/local/bin/ip netns list | grep -c "^mcb$victim\b")" 0 "irsim bed: node $victim's netns is gone"
# (round starts a receiver in every node: the members confirm instead)
out=$(/usr/local/bin/ip netns exec mcb0 /usr/local/bin/mcast_probe tx g:1 1400 \
	count=1 wait 2>&1)
case $out in
*"rc=0 nfailed=0"*) pass "irsim, node $victim killed: a completion-mode send from node 0 reaches every member of group 1" ;;
*) fail "irsim, node $victim killed: a completion-mode send from node 0 reaches every member of group 1" "$out" ;;
esac
run_ok "irsim bed: mcastbed revive $victim" mcastbed revive "$victim"
is "$(/usr/local/bin/ip -n "mcb$victim" -o link show type veth)" "" \
	"irsim bed: the revived node $victim has no veth"
is "$(mcastbed exec "$victim" mcastctl -j node show |
	sed -n 's/.*"transport": *"\([^"]*\)".*/\1/p')" irsim "the revived node $victim uses irsim"
round "irsim: node list to the revived node $victim from node 0, completion mode" 0 \
	"n:$victim" "$victim" 1400 wait
round "irsim: group 1 from the revived node $victim" "$victim" g:1 "$MEM" 1400

# ---- teardown
if echo none > $D/fabric 2>/dev/null; then
	fail "the fabric cannot go while nodes use it" "it went"
else
	pass "the fabric cannot go while nodes use it"
fi
run_fails "rmmod mcast_irsim while nodes use it" rmmod mcast_irsim
# the namespaces go while a node sends 1 MiB messages: worms in flight
/usr/local/bin/ip netns exec mcb2 /usr/local/bin/mcast_probe tx g:1 1048576 \
	count=200 > /dev/null 2>&1 &
inflight() {
	_i=0
	while [ $_i -lt 100 ]; do
		[ "$(sed -n 's/^active //p' $D/stats)" -gt 0 ] && return 0
		sleep 0.05
		_i=$((_i + 1))
	done
	return 1
}
inflight && pass "worms in flight as the testbed goes down" ||
	fail "worms in flight as the testbed goes down" "$(cat $D/stats)"
mcastbed down > /dev/null 2>&1
wait
is "$(ip netns list | grep -c mcb)" 0 "no namespaces left"
# the nodes close their transport as their namespaces are cleaned up, a
# little after `ip netns del` returns
gone() {
	_i=0
	while [ $_i -lt 100 ]; do
		echo none > $D/fabric 2>/dev/null && return 0
		sleep 0.1
		_i=$((_i + 1))
	done
	return 1
}
run_ok "the fabric goes once the nodes are gone" gone

# ---- one virtual channel set: four worms around a ring deadlock; the
# detector breaks the cycle and tells the senders (FABRIC_ALARM); the
# data path's resends make the ring again, and every send ends, complete
# or reported failed
run_ok "fabric torus:4, one channel set, 1-flit buffers, 50 ms flits, real time" \
	sh -c "echo 'torus:4 vc_sets=1 buffer=1 tau_s=0 tau_r=0 tau_n=50000000 pace=1000' > $D/fabric"
if out=$(mcastbed up torus:4:uni --transport irsim 2>&1); then
	for u in 0 1 2 3; do
		/usr/local/bin/ip netns exec "mcb$u" mcastmon -j > "$W/mon.$u" 2>&1 &
	done
	try=0
	while [ $try -lt 3 ] && [ "$(stat_of deadlocks)" = 0 ]; do
		rm -f "$W/go"
		for u in 0 1 2 3; do
			(while [ ! -e "$W/go" ]; do sleep 0.01; done
			 exec /usr/local/bin/ip netns exec "mcb$u" \
				/usr/local/bin/mcast_probe tx "n:$(((u + 3) % 4))" \
				1400 count=1 wait > "$W/dl.$u" 2>&1) &
		done
		sleep 1
		touch "$W/go"
		wait_jobs=0
		for u in 0 1 2 3; do
			while ! grep -q 'rc=' "$W/dl.$u" 2>/dev/null &&
				[ $wait_jobs -lt 600 ]; do
				sleep 0.1
				wait_jobs=$((wait_jobs + 1))
			done
		done
		try=$((try + 1))
	done
	[ "$(stat_of deadlocks)" -gt 0 ] &&
		pass "the ring deadlocked and the detector found it ($(stat_of deadlocks), try $try)" ||
		fail "the ring deadlocked and the detector found it" "$(cat $D/stats)"
	# the resends make the same ring again (one channel set is not
	# deadlock-free): each send completes or its sender hears it failed
	[ "$(cat "$W"/dl.* | grep -Ec 'rc=0 nfailed=0|rc=EHOSTUNREACH nfailed=1')" = 4 ] &&
		pass "every send of the last try ended, complete or reported failed" ||
		fail "every send of the last try ended, complete or reported failed" \
			"$(cat "$W"/dl.*)"
	sleep 1
	kill $(jobs -p) 2>/dev/null
	wait 2>/dev/null
	grep -h fabric-alarm "$W"/mon.* | grep -q '"errno":35' &&
		pass "a FABRIC_ALARM event with EDEADLK reached a sender's mcastmon" ||
		fail "a FABRIC_ALARM event with EDEADLK reached a sender's mcastmon" \
			"$(cat "$W"/mon.*)"
else
	fail "mcastbed up torus:4:uni --transport irsim" "$out"
fi
mcastbed down > /dev/null 2>&1
run_ok "the ring's fabric goes" gone

# ---- paced to the wall clock: a send waits for the model's start-ups
run_ok "fabric torus:2x2, 100 ms start-ups, paced to real time" \
	sh -c "echo 'torus:2x2 tau_s=100000000 pace=1000' > $D/fabric"
case $(cat $D/fabric) in
*" pace=1000 "*) pass "fabric shows pace=1000" ;;
*) fail "fabric shows pace=1000" "$(cat $D/fabric)" ;;
esac
if out=$(mcastbed up torus:2x2:uni --transport irsim 2>&1); then
	out=$(/usr/local/bin/ip netns exec mcb0 /usr/local/bin/mcast_probe tx \
		n:1 8 count=1 wait 2>&1)
	ms=$(echo "$out" | sed -n 's/.*ms=\([0-9]*\).*/\1/p' | head -n 1)
	case $out in
	*"rc=0 nfailed=0"*)
		[ "${ms:-0}" -ge 200 ] && [ "$ms" -lt 5000 ] &&
			pass "paced: a completion-mode send takes two start-ups or more: $ms ms" ||
			fail "paced: a completion-mode send takes two start-ups or more" "$out" ;;
	*) fail "paced: a completion-mode send completes" "$out" ;;
	esac
else
	fail "mcastbed up torus:2x2:uni --transport irsim" "$out"
fi
mcastbed down > /dev/null 2>&1
run_ok "the paced fabric goes" gone
# ---- mcastbed makes the fabric when there is none, and removes it
is "$(cat $D/fabric)" none "no fabric before mcastbed up"
if out=$(mcastbed up torus:2x2:uni --transport irsim 2>&1); then
	case $(cat $D/fabric) in
	"torus:2x2 vc_sets=2 "*) pass "mcastbed up --transport irsim made a torus:2x2 fabric" ;;
	*) fail "mcastbed up --transport irsim made a torus:2x2 fabric" "$(cat $D/fabric)" ;;
	esac
	N=4 TOPO=torus:2x2:uni
	round "irsim, mcastbed's fabric: node list from 0" 0 n:3 3 1400 wait
else
	fail "mcastbed up torus:2x2:uni --transport irsim (no fabric)" "$out"
fi
mcastbed down > /dev/null 2>&1
is "$(cat $D/fabric)" none "mcastbed down removed the fabric it made"

run_ok "rmmod mcast_irsim" rmmod mcast_irsim
# unloading frees a fabric nobody uses
run_ok "insmod mcast_irsim.ko again" insmod "$IRSIM_KO"
run_ok "fabric torus:4x4x4" sh -c "echo torus:4x4x4 > $D/fabric"
run_ok "rmmod mcast_irsim with the fabric up" rmmod mcast_irsim
run_ok "rmmod mcast" rmmod mcast
done_testing
tap_exit
