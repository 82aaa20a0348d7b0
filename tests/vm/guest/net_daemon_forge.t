#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# One forged mcastd datagram must not evict a node (issue 39, item 2).
# A torus:2x2 testbed over TCP run by mcastd, no cluster key; node 1 is a
# member of group 21.  From node 2's address and control port (a raw
# socket: any process on node 2's host, or a host spoofing it) one
# ANNOUNCE says node 1 is DEAD at incarnation 2^64-1, version 2^32-1, to
# every other daemon, node 1's own included.  On 83f70cb this evicted
# node 1 for good.  Now:
#  - every daemon refuses it and counts it (bad_records in cluster show);
#  - node 1 stays ALIVE at its own incarnation in all four views, and in
#    group 21 in node 0's kernel; node 0's multicast to 21 reaches it;
#  - a forged death within the clock's bounds (incarnation now + 5 s,
#    relayed as by a lying daemon) is outbid by node 1: ALIVE above it
#    everywhere soon after, and still in group 21.

# shellcheck source=tests/vm/guest/tap.sh
. /tests/tap.sh

# shellcheck source=tests/vm/guest/netlib.sh
. /tests/netlib.sh

# shellcheck source=tests/vm/guest/daemonlib.sh
. /tests/daemonlib.sh

[ -x /usr/local/bin/mcastd ] || skip_all "no mcastd in the guest"

W=/tmp/net_daemon_forge
rm -rf "$W"
mkdir -p "$W"
N=4 TOPO=torus:2x2 G=21 CPORT=7448
STATE=/run/mcastbed
TS=${mcast_time_scale:-1}
export MCASTBED_HEARTBEAT=$((500 * TS))ms MCASTBED_SUSPECT=$((2 * TS))s \
	MCASTBED_DEAD=$((2 * TS))s MCASTBED_SYNC=$((1 * TS))s
unset MCASTBED_KEY

# node $2's record in node $1's daemon: "STATE INCARNATION"
rec_of() { # VIEWER NODE
	mcastbed exec "$1" mcastctl -j cluster show 2>/dev/null |
		sed 's/},{/}\n{/g' | grep "\"id\":$2," |
		sed -n 's/.*"state":"\([a-z]*\)".*"incarnation":\([0-9]*\).*/\1 \2/p' |
		head -1
}

# node $1's daemon's count of bad records (empty: it has none to show)
bad_of() { # NODE
	mcastbed exec "$1" mcastctl -j cluster show 2>/dev/null |
		sed -n 's/.*"bad_records":\([0-9]*\).*/\1/p'
}

# forged ANNOUNCE from node 2's address and port to node $1's daemon
forge_to() { # NODE REC
	mcastbed exec 2 mcast_forge raw sport=$CPORT "$(addr_of "$1")" $CPORT \
		mcd hdr="2:$inc2" rec="$2" > /dev/null
}

# how many of the 4 views hold node 1 alive at an incarnation >= $1
alive_views() { # MIN_INC
	_n=0
	for _u in 0 1 2 3; do
		set -- "$1" $(rec_of "$_u" 1)
		[ "$2" = alive ] && [ "$3" -ge "$1" ] 2>/dev/null && _n=$((_n + 1))
	done
	echo "$_n"
}

run_ok "insmod mcast.ko" insmod_scaled
if ! run_ok "mcastbed up $TOPO --transport tcp --daemon (no key)" \
	mcastbed up "$TOPO" --transport tcp --daemon; then
	mcastbed down
	rmmod mcast
	done_testing
	exit
fi

rxd 1 $G "$W/rx.1"
if s=$(converge $G '[[0,1]]' 60); then
	pass "node 1 joins group $G: every node has it, in $s s"
else
	fail "node 1 joins group $G: every node has it" "node 0: $(gview $G 0)"
fi
set -- $(rec_of 1 1)
inc1=$2
set -- $(rec_of 2 2)
inc2=$2
diag "node 1's incarnation $inc1, node 2's $inc2"
b0=$(bad_of 0) b1=$(bad_of 1) b3=$(bad_of 3)

# --- beyond the clock: refused by everyone
for u in 0 1 3; do
	forge_to $u "1:18446744073709551615:4294967295:3" ||
		fail "forged ANNOUNCE to node $u" "mcast_forge failed"
done
sleep $((6 * TS))
is "$(alive_views "$inc1")" 4 \
	"node 1 dead at 2^64-1 / 2^32-1 from node 2's address: still ALIVE in all 4 views ($(rec_of 0 1); own: $(rec_of 1 1))"
is "$(rec_of 1 1)" "alive $inc1" "node 1 kept its own incarnation (nothing wrapped)"
nb=0
for u in 0 1 3; do
	eval "b=\$b$u"
	[ "$(bad_of $u)" -gt "${b:-0}" ] 2>/dev/null && nb=$((nb + 1))
done
is "$nb" 3 "nodes 0, 1 and 3 counted the record as bad ($(bad_of 0), $(bad_of 1), $(bad_of 3))"
case $(gview $G 0) in
'"members":[[0,1]],'*) pass "node 0's kernel still has node 1 in group $G" ;;
*) fail "node 0's kernel still has node 1 in group $G" "$(gview $G 0)" ;;
esac
out=$(mcastbed exec 0 mcast_probe tx g:$G 300 count=3 wait=20000 2>&1)
if wait_lines 3 '^msg src=0 .* len=300 .*ok=1' "$W/rx.1"; then
	pass "node 0's 3 multicasts to group $G reach node 1"
else
	fail "node 0's 3 multicasts to group $G reach node 1" \
		"$(echo "$out" | cut -c1-160)" "$(cut -c1-160 "$W/rx.1")"
fi

# --- within the clock: taken as a relay, outbid by node 1
fi_inc=$(($(date +%s) * 1000 + 5000))
for u in 0 3; do
	forge_to $u "1:$fi_inc:1:3"
done
t0=$(now_s)
while [ "$(alive_views $((fi_inc + 1)))" != 4 ] && [ $(($(now_s) - t0)) -lt $((30 * TS)) ]; do
	sleep 1
done
is "$(alive_views $((fi_inc + 1)))" 4 \
	"node 1 dead at now + 5 s: outbid, ALIVE above it in all 4 views in $(($(now_s) - t0)) s ($(rec_of 0 1))"
if s=$(converge $G '[[0,1]]' $((30 * TS))); then
	pass "... and back in group $G everywhere ($s s)"
else
	fail "... and back in group $G everywhere" "node 0: $(gview $G 0)"
fi

stop_rxd "$W/rx.1"
if grep -q 'ERROR\|AddressSanitizer' "$STATE"/mcastd.*.log 2>/dev/null; then
	fail "the daemons' logs" "$(grep 'ERROR\|AddressSanitizer' "$STATE"/mcastd.*.log)"
fi
mcastbed down
rmmod mcast
done_testing
