#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# The "mcast" generic netlink family: resolvable with its "events" group;
# node, peer and group set/get/dump round trips; every bad input refused
# with its specific errno and extack message, changing nothing; events;
# statistics.  Driven by mcast_probe (tests/vm/guest-src/mcast_probe.c).

# shellcheck source=tests/vm/guest/tap.sh
. /tests/tap.sh

# shellcheck source=tests/vm/guest/probelib.sh
. /tests/probelib.sh

# ---- tests

mcast_setup

run_ok "the mcast family and its events group resolve" mcast_probe family
run_ok "/dev/mcast exists" test -c /dev/mcast

# An unconfigured node.
expect_out "an unconfigured node reports kind NONE" "node kind=0" node-get
expect_out "NODE_GET dump gives the one node" "node kind=0" node-dump
expect_err "PEER_NEW before NODE_SET is refused" EINVAL peer-new 1 10.0.0.1 5000
expect_err "GROUP_NEW before NODE_SET is refused" EINVAL group-new 1

# Bad node configurations change nothing.
expect_err "NODE_SET with a coordinate outside the torus: ERANGE" ERANGE \
	node-set 4,4 1,4
expect_err "NODE_SET with a coordinate of the wrong length: EINVAL" EINVAL \
	node-set 4,4 1
expect_err "NODE_SET with 9 dimensions: EINVAL" EINVAL \
	node-set 2,2,2,2,2,2,2,2,2 0,0,0,0,0,0,0,0,0
expect_err "NODE_SET with links out of range: ERANGE (policy)" ERANGE node-set 4,4 1,2 7
expect_err "NODE_SET with a radix of 0: EINVAL" EINVAL node-set 4,0 1,0
expect_err "NODE_SET with an odd-length DIMS: EINVAL" EINVAL raw 2 \
	1c000180050001000100000007000300040004000800040001000200
expect_err "NODE_GET with an attribute (no policy): EINVAL" EINVAL raw 1 \
	0800010000000000
expect_err "an unknown top-level attribute: EINVAL" EINVAL raw 2 \
	0800630000000000
# A switched cluster's ranks (KIND SWITCH): a permutation of its hosts.
expect_err "NODE_SET switch with a repeated rank: EINVAL" EINVAL node-set 4 1 ranks=0,1,1,3
expect_err "NODE_SET switch with a rank out of range: EINVAL" EINVAL node-set 4 1 ranks=0,1,2,4
expect_err "NODE_SET switch with 3 ranks for 4 hosts: EINVAL" EINVAL node-set 4 1 ranks=0,1,2
expect_err "NODE_SET switch with two DIMS: EINVAL" EINVAL node-set 2,2 1,1 ranks=0,1,2,3
expect_err "NODE_SET switch without RANKS: EINVAL" EINVAL node-set 4 1 kind=2
expect_err "NODE_SET torus with RANKS: EINVAL" EINVAL node-set 4 1 kind=1 ranks=0,1,2,3
expect_err "NODE_SET of kind 3: ERANGE (policy)" ERANGE node-set 4 1 kind=3
expect_out "rejected NODE_SETs changed nothing" "node kind=0" node-get

# Mutating operations need CAP_NET_ADMIN; reading does not.
expect_err "NODE_SET as an unprivileged user: EPERM" EPERM nobody node-set 4,4 1,2
expect_out "NODE_GET as an unprivileged user works" "node kind=0" nobody node-get
# ... in the initial user namespace: the root of a user namespace of its
# own (a container's, or anyone's after unshare -Ur) may not configure the
# node of a netns it owns, which would take a port and pin kernel memory.
case $(mcast_probe nobody userns node-get 2>&1) in
"skip: "*) skip "NODE_SET as root of an unprivileged user namespace" "no user namespaces" ;;
*)
	expect_err "NODE_SET as root of an unprivileged user namespace: EPERM" EPERM \
		nobody userns node-set 4,4 1,2
	expect_out "NODE_GET there works" "node kind=0" nobody userns node-get
	;;
esac

# The node.
run_ok "NODE_SET 4x4 unidirectional at (1,2)" mcast_probe node-set 4,4 1,2
expect_out "NODE_GET round trip" "node kind=1 links=0 dims=4,4 coord=1,2 id=9" \
	node-get
expect_out "mcast_info agrees" \
	"abi=1 caps=0x3f node=9 kind=1 links=0 ndims=2 dims=4,4 coord=1,2 rxq_limit=256 max_msg=4194304" \
	info
_out=$(mcast_probe node-set 4,4 1,9)
case $_out in
*"sigma_1"* | *"outside the torus"*) pass "the extack message names the problem" ;;
*) fail "the extack message names the problem" "$_out" ;;
esac

# The algorithm (enum mcast_algorithm; mcastctl's words: ctl_config.t).
run_ok "NODE_SET mu-torus (4) with r 4" mcast_probe node-set 4,4 1,2 algo=4 r=4
expect_err "NODE_SET with algorithm 13: ERANGE (policy)" ERANGE \
	node-set 4,4 1,2 algo=13
expect_err "NODE_SET with algorithm 6 (u-cube) on a 4x4 torus: EINVAL" EINVAL \
	node-set 4,4 1,2 algo=6
expect_err "NODE_SET with r 1: ERANGE (policy)" ERANGE node-set 4,4 1,2 r=1
expect_err "NODE_SET with r 256: ERANGE (policy)" ERANGE node-set 4,4 1,2 r=256
expect_err "NODE_SET to a bidirectional torus under mu-torus: EINVAL" EINVAL \
	node-set 4,4 1,2 bi
case $(mcast_probe node-set 4,4 1,2 bi) in
*"the node's algorithm"*) pass "its extack message names the node's algorithm" ;;
*) fail "its extack message names the node's algorithm" \
	"$(mcast_probe node-set 4,4 1,2 bi)" ;;
esac
run_ok "NODE_SET to a bidirectional torus with u-torus (1) at once" \
	mcast_probe node-set 4,4 1,2 bi algo=1
expect_err "NODE_SET s-torus (2) on the bidirectional torus: EINVAL" EINVAL \
	node-set 4,4 1,2 bi algo=2
case $(mcast_probe node-set 4,4 1,2 bi algo=2) in
*"unidirectional"*) pass "its extack message says why" ;;
*) fail "its extack message says why" "$(mcast_probe node-set 4,4 1,2 bi algo=2)" ;;
esac
run_ok "NODE_SET back to the unidirectional torus, algorithm auto (0)" \
	mcast_probe node-set 4,4 1,2 algo=0
expect_out "NODE_GET: the same node again" \
	"node kind=1 links=0 dims=4,4 coord=1,2 id=9" node-get
expect_err "NODE_SET with an algorithm as an unprivileged user: EPERM" EPERM \
	nobody node-set 4,4 1,2 algo=2

# Peers.
run_ok "PEER_NEW by id, IPv4" mcast_probe peer-new 3 10.0.0.3 5000
run_ok "PEER_NEW by coordinate, IPv6" mcast_probe peer-new c:0,1 fd00::4 5001
expect_out "PEER_GET round trip (IPv4)" "peer id=3 addr=10.0.0.3 port=5000" \
	peer-get 3
expect_out "PEER_GET by coordinate round trip (IPv6)" \
	"peer id=4 addr=fd00::4 port=5001" peer-get c:0,1
expect_out "PEER_GET dump" "peer id=3 addr=10.0.0.3 port=5000
peer id=4 addr=fd00::4 port=5001" peer-dump
# the data path's view of a peer (SRTT_US here) is in replies only
out=$(mcast_probe raw 5 1400028008000100030000000800060000000000 2>&1)
case $out in
"error EINVAL: the data path's view of a peer is read-only"*)
	pass "PEER_GET carrying SRTT_US: EINVAL, read-only" ;;
*) fail "PEER_GET carrying SRTT_US: EINVAL, read-only" "$out" ;;
esac
expect_err "PEER_NEW of an existing peer: EEXIST" EEXIST peer-new 3 10.0.0.9 5000
expect_err "PEER_NEW outside the torus: ERANGE" ERANGE peer-new 16 10.0.0.9 5000
expect_err "PEER_NEW at a coordinate outside the torus: ERANGE" ERANGE \
	peer-new c:4,0 10.0.0.9 5000
expect_err "PEER_NEW of this node: EINVAL" EINVAL peer-new 9 10.0.0.9 5000
expect_err "PEER_NEW without an address: EINVAL" EINVAL peer-new 5 none 5000
expect_err "PEER_NEW with port 0: ERANGE (policy)" ERANGE peer-new 5 10.0.0.5 0
expect_err "PEER_DEL of an unknown peer: ENOENT" ENOENT peer-del 7
expect_err "PEER_GET of an unknown peer: ENOENT" ENOENT peer-get 7
expect_err "NODE_SET changing the topology while peers exist: EBUSY" EBUSY \
	node-set 8,8 1,2
expect_err "NODE_SET changing the coordinate while peers exist: EBUSY" EBUSY \
	node-set 4,4 2,2
run_ok "NODE_SET with the same configuration is fine" mcast_probe node-set 4,4 1,2
expect_out "refused requests left the peers alone" \
	"peer id=3 addr=10.0.0.3 port=5000
peer id=4 addr=fd00::4 port=5001" peer-dump
expect_err "PEER_DEL as an unprivileged user: EPERM" EPERM nobody peer-del 4
expect_err "GROUP_NEW as an unprivileged user: EPERM" EPERM nobody group-new 3
run_ok "PEER_DEL" mcast_probe peer-del 4
expect_out "PEER_DEL took it out" "peer id=3 addr=10.0.0.3 port=5000" peer-dump

# Groups on the 4x4 unidirectional (regular) torus: R-chain and H-cycle.
run_ok "GROUP_NEW 1" mcast_probe group-new 1
expect_out "GROUP_GET of a new group" "group id=1 epoch=1 local=0" group-get 1
expect_err "GROUP_NEW of an existing group: EEXIST" EEXIST group-new 1
expect_err "GROUP_NEW with id 0: ERANGE (policy)" ERANGE group-new 0
expect_err "GROUP_DEL of an unknown group: ENOENT" ENOENT group-del 2
expect_err "GROUP_GET of an unknown group: ENOENT" ENOENT group-get 2
expect_err "GROUP_SET of an unknown group: ENOENT" ENOENT group-set 2 0,5
run_ok "GROUP_SET with chains from the planning core" \
	mcast_probe group-set 1 15,0,9,5
_g=$(mcast_probe group-get 1)
case $_g in
"group id=1 epoch=2 local=0 members=15,0,9,5 rchain=0,5,9,15 hcycle="*)
	pass "GROUP_GET round trip: members, R-chain, H-cycle, epoch" ;;
*) fail "GROUP_GET round trip: members, R-chain, H-cycle, epoch" "$_g" ;;
esac
expect_err "an R-chain out of <_d order: EINVAL" EINVAL \
	group-set 1 15,0,9,5 9,5,0,15
_out=$(mcast_probe group-set 1 15,0,9,5 9,5,0,15)
case $_out in
*"dimension-ordered"*) pass "its extack message says why" ;;
*) fail "its extack message says why" "$_out" ;;
esac
expect_err "an R-chain of other nodes: EINVAL" EINVAL group-set 1 0,5,9 0,5,10
expect_err "an R-chain missing a member: EINVAL" EINVAL group-set 1 0,5,9 0,5
expect_err "a repeated member: EINVAL" EINVAL group-set 1 0,5,5 0,5,5 none
expect_err "a member outside the torus: ERANGE" ERANGE group-set 1 0,16 0,16 0,16
expect_err "a wrong H-cycle: EINVAL" EINVAL group-set 1 0,5,9,15 auto 15,9,5,0
expect_err "no H-cycle on a regular unidirectional torus: EINVAL" EINVAL \
	group-set 1 0,5,9,15 auto none
expect_err "an H-cycle of other nodes: EINVAL" EINVAL \
	group-set 1 0,5 auto 0,6
expect_out "refused GROUP_SETs changed nothing" "$_g" group-get 1
run_ok "GROUP_SET to an empty group" mcast_probe group-set 1 -
expect_out "an empty group" "group id=1 epoch=3 local=0 members=- rchain=- hcycle=-" \
	group-get 1
run_ok "GROUP_NEW 7" mcast_probe group-new 7
expect_out "GROUP_GET dump" "group id=1 epoch=3 local=0 members=- rchain=- hcycle=-
group id=7 epoch=1 local=0" group-dump
expect_err "NODE_SET changing the topology while groups exist: EBUSY" EBUSY \
	node-set 4,4 1,2 bi

# Statistics.
expect_out "node statistics (with the network data path's)" \
	"stats tx_msgs=0 tx_bytes=0 rx_msgs=0 rx_bytes=0 rx_drops=0 files=0
netstats fwd_msgs=0 tx_packets=0 rx_packets=0 retrans=0 fast_retrans=0 dups=0 peer_fails=0 unreached=0 cwnd=128 unacked=0 rx_bad_src=0 rx_malformed=0 rx_mem=0 rewinds=0 tx_expired=0 busy_sent=0 jobs=0 done_jobs=0 transfers=0 queued=0 held=0 msg_mem=0 streams=0 floors=0 late=0 rx_bad_auth=0 timer_ns=0 blocked=0 cutoffs=0 rx_stale=0 worms=0 worm_dests=0 worm_splits=0 offload_fallbacks=0 rx_worms=0 rb_sent=0 rb_assembled=0 rb_fallbacks=0 worm_resends=0 done_probes=0 rx_young=0 acks_old=0 tcp_conns=0 tcp_evicted=0 tcp_unauthed=0 tcp_idle=0 tcp_bad_frames=0" stats
expect_out "group statistics" \
	"stats group=7 tx_msgs=0 tx_bytes=0 rx_msgs=0 rx_bytes=0 rx_drops=0 files=0" \
	stats 7
expect_err "statistics of an unknown group: ENOENT" ENOENT stats 99
expect_out "statistics dump: one line per group" \
	"stats group=1 tx_msgs=0 tx_bytes=0 rx_msgs=0 rx_bytes=0 rx_drops=0 files=0
stats group=7 tx_msgs=0 tx_bytes=0 rx_msgs=0 rx_bytes=0 rx_drops=0 files=0" \
	stats-dump

# Events for group changes and membership.
scenario events 40

# A bidirectional torus takes no H-cycle.
run_ok "GROUP_DEL 1" mcast_probe group-del 1
run_ok "GROUP_DEL 7" mcast_probe group-del 7
run_ok "PEER_DEL 3" mcast_probe peer-del 3
run_ok "NODE_SET to a bidirectional 3x5 torus" mcast_probe node-set 3,5 2,4 bi
expect_out "NODE_GET after the change" "node kind=1 links=1 dims=3,5 coord=2,4 id=14" \
	node-get
run_ok "GROUP_NEW with members and R-chain at once" mcast_probe group-new 2
run_ok "GROUP_SET on a bidirectional torus, no H-cycle" \
	mcast_probe group-set 2 14,0,3
expect_err "an H-cycle on a bidirectional torus: EINVAL" EINVAL \
	group-set 2 0,3,14 0,3,14 0,3,14


# Large groups: at most MCAST_MAX_MEMBERS; a dump leaves out the arrays of
# a group too large for one message.
run_ok "GROUP_DEL 2" mcast_probe group-del 2
run_ok "NODE_SET to a 128x64 bidirectional torus" mcast_probe node-set 128,64 0,0 bi
run_ok "GROUP_NEW 3" mcast_probe group-new 3
expect_err "a group of 4097 members: E2BIG" E2BIG group-set 3 "$(seq -s, 0 4096)"
run_ok "a group of 4096 members" mcast_probe group-set 3 "$(seq -s, 4095 -1 0)"
n=$(mcast_probe group-get 3 | sed -n 's/.* rchain=\([^ ]*\).*/\1/p' | tr ',' '\n' | wc -l)
is "$n" 4096 "GROUP_GET returns all 4096 members of the R-chain"
is "$(mcast_probe group-get 3 | sed -n 's/.* rchain=\([0-9]*,[0-9]*\),.*/\1/p')" "0,1" \
	"in <_d order"
expect_out "GROUP_GET dump gives a group too large for it without arrays" \
	"group id=3 epoch=2 local=0" group-dump

mcast_unload
done_testing
tap_exit
