#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# The network data path: U-torus multicasts over the UDP transport between
# netns nodes (mcastbed).  On a 4x4 bidirectional torus, a 16-node
# bridge and a 3x3 unidirectional torus (make vmcheck-full: and a 4x4
# unidirectional, a 2x2x4 bidirectional, a 3x3x3 for the 3x3), multicasts to a
# group of random members and to random explicit node lists, sizes 0 B to
# 1 MiB (and one 4 MiB): every destination gets each message exactly
# once, byte-exact; nodes outside the destinations get nothing; the
# sending file never gets its own message; each receiver's step and
# from_node are those of `mcastctl plan -a u-torus --json` (so the tree is
# U-torus, max step ceil(log2 m)).  Completion mode returns no failures.
# Separate addressing (MCAST_SEND_SEPARATE) reaches every destination from
# the source itself.

# shellcheck source=tests/vm/guest/tap.sh
. /tests/tap.sh

# shellcheck source=tests/vm/guest/netlib.sh
. /tests/netlib.sh


# testbed SPEC TOPO SEED [NODES]
testbed() {
	_spec=$1
	TOPO=$2
	_seed=$3
	N=${4:-16}
	if ! _out=$(mcastbed up "$_spec" 2>&1); then
		fail "mcastbed up $_spec" "$_out"
		return
	fi
	pass "mcastbed up $_spec"
	_mem=$(random_nodes 6 "$_seed")
	_coords=''
	for _u in $_mem; do
		_coords="$_coords $(coord "$_u")"
	done
	# shellcheck disable=SC2086
	run_ok "$_spec: group 1 with members $_mem" mcastbed group 1 $_coords
	# from a member and from a node outside the group
	_src=${_mem%% *}
	round "$_spec: group 1 from member $_src" "$_src" g:1 "$_mem" "$SIZES" wait
	_out=$(random_nodes 1 $((_seed + 7)))
	while case " $_mem " in *" $_out "*) true ;; *) false ;; esac; do
		_out=$(((_out + 1) % N))
	done
	round "$_spec: group 1 from non-member $_out" "$_out" g:1 "$_mem" 0,1400,65536
	# an explicit node list
	_lst=$(random_nodes 7 $((_seed + 3)))
	_src=$(random_nodes 1 $((_seed + 5)))
	round "$_spec: node list from $_src" "$_src" "n:$(echo "$_lst" | tr ' ' ',')" \
		"$_lst" 0,1,1400,65536
	# separate addressing (the benchmarks' baseline): no tree
	round "$_spec: node list from $_src, separate addressing" "$_src" \
		"n:$(echo "$_lst" | tr ' ' ',')" "$_lst" 0,65536 wait separate
	if [ "$_spec" = bridge:16 ]; then
		# one 4 MiB message to every node
		mcastbed group 2 all > /dev/null 2>&1
		# (no-offload: a tree, not auto's chains for long messages)
		round "$_spec: 4 MiB to group 2 (all 16) from 5" 5 g:2 \
			"0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15" 4194304 wait=60000 \
			no-offload
	fi
	mcastbed down > /dev/null 2>&1
}



run_ok "insmod mcast.ko" insmod "$MCAST_KO"
# The unidirectional 4x4 and the 3D tori (rings of 2 and 4: a ring of 2
# is one veth pair; odd rings of 3 in every dimension) in make
# vmcheck-full (mcast_full) only, for CI's hour: net_loss and net_offload
# run U-torus on the 4x4:uni in every run, and the planner's unit tests
# (test_schedule_datapath) hold the kernel's trees to the plans on them.
testbed torus:4x4:bi torus:4x4:bi 12
testbed bridge:16 torus:16 13
if [ "${mcast_full:-0}" = 1 ]; then
	testbed torus:4x4:uni torus:4x4:uni 11
	testbed torus:2x2x4:bi torus:2x2x4:bi 15
	testbed torus:3x3x3:uni torus:3x3x3:uni 14 27
else
	testbed torus:3x3:uni torus:3x3:uni 14 9
fi
N=16

# IPv6 peers: two nodes of a torus:2 on a veth pair, IPv6 addresses only
ip netns add mc6a && ip netns add mc6b &&
	ip link add v6a netns mc6a type veth peer name v6b netns mc6b &&
	ip -n mc6a addr add fd00::1/64 dev v6a nodad &&
	ip -n mc6b addr add fd00::2/64 dev v6b nodad &&
	ip -n mc6a link set v6a up && ip -n mc6b link set v6b up &&
	ip -n mc6a link set lo up && ip -n mc6b link set lo up
run_ok "IPv6: node 0 on port 7501, its peer 1 at [fd00::2]:7502" sh -c \
	'/usr/local/bin/ip netns exec mc6a /usr/local/bin/mcast_probe node-set 2 0 port=7501 rto=100 retries=4 &&
	 /usr/local/bin/ip netns exec mc6a /usr/local/bin/mcast_probe peer-new 1 fd00::2 7502'
run_ok "IPv6: node 1 on port 7502, its peer 0 at [fd00::1]:7501" sh -c \
	'/usr/local/bin/ip netns exec mc6b /usr/local/bin/mcast_probe node-set 2 1 port=7502 &&
	 /usr/local/bin/ip netns exec mc6b /usr/local/bin/mcast_probe peer-new 0 fd00::1 7501'
run_fails "NODE_SET with an RTO of 0 ms is refused" \
	/usr/local/bin/ip netns exec mc6a /usr/local/bin/mcast_probe node-set 2 0 rto=0
run_fails "NODE_SET with an RTO of 70 s is refused" \
	/usr/local/bin/ip netns exec mc6a /usr/local/bin/mcast_probe node-set 2 0 rto=70000
run_fails "NODE_SET with 101 retries is refused" \
	/usr/local/bin/ip netns exec mc6a /usr/local/bin/mcast_probe node-set 2 0 retries=101
/usr/local/bin/ip netns exec mc6b /usr/local/bin/mcast_probe rx 0 10000 2 > "$W/rx6" 2>&1 &
rx6=$!
wait_lines 1 '^ready' "$W/rx6" || diag "node 1's receiver was not ready within 60 s"
_out=$(/usr/local/bin/ip netns exec mc6a /usr/local/bin/mcast_probe tx n:1 1400,70000 wait 2>&1)
wait "$rx6"
is "$(echo "$_out" | grep -c 'rc=0 nfailed=0')/$(grep -c '^msg src=0 .* ok=1' "$W/rx6")" 2/2 \
	"IPv6: node 1 gets both messages byte-exact, the sends complete"
ip netns del mc6a 2>/dev/null
ip netns del mc6b 2>/dev/null

is "$(ip netns list | grep -c mcb)" 0 "no namespaces left"
run_ok "rmmod mcast" rmmod mcast
done_testing
tap_exit
