#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# mcastd at 64 nodes: a torus:8x8 testbed made with --daemon, joins and
# leaves on random nodes (a fixed seed) while node 0 streams to the group
# under 5 % loss on every link:
#  - the joins reach all 64 nodes, whose kernels then hold the same
#    members, R-chain and H-cycle (the kernel checks every chain it is
#    given with the planning core's checker, so the chains are verified);
#  - members all along get every message once, in order; nodes joining
#    midway a tail, nodes leaving a head, once each;
#  - after the leaves converged, a node that left is given nothing;
#  - the last receivers exit: the group goes from every node.

# shellcheck source=tests/vm/guest/tap.sh
. /tests/tap.sh

# shellcheck source=tests/vm/guest/netlib.sh
. /tests/netlib.sh

# shellcheck source=tests/vm/guest/daemonlib.sh
. /tests/daemonlib.sh

[ -x /usr/local/bin/mcastd ] || skip_all "no mcastd in the guest"

W=/tmp/net_daemon64
rm -rf "$W"
mkdir -p "$W"
STATE=/run/mcastbed
N=64 TOPO=torus:8x8 G=80 LEN=700 COUNT=24
# On a slowed guest (mcast_time_scale, make debugcheck) 64 daemons miss
# a 500 ms heartbeat often enough to take each other for dead and never
# settle: the daemons' times, the wait for them and this test's limits
# are stretched by that factor, as insmod_scaled stretches the data
# path's and mcast_probe its waits.
TS=${mcast_time_scale:-1}
export MCASTBED_HEARTBEAT=$((500 * TS))ms MCASTBED_SUSPECT=$((6 * TS))s \
	MCASTBED_DEAD=$((6 * TS))s MCASTBED_SYNC=$((5 * TS))s \
	MCASTBED_DAEMON_WAIT=$((180 * TS))

# the members' JSON ([[a,b],...], sorted by id) of node ids
members_json() { # ID...
	for _i in "$@"; do
		echo "$_i"
	done | sort -n | while read -r _i; do
		printf '[%s]\n' "$(coord "$_i")"
	done | awk '{ s = s (NR > 1 ? "," : "") $0 } END { print "[" s "]" }'
}

run_ok "insmod mcast.ko" insmod_scaled
t0=$(now_s)
if ! run_ok "mcastbed up $TOPO --daemon: 64 daemons see 64 nodes alive" \
	mcastbed up "$TOPO" --daemon; then
	mcastbed down
	rmmod mcast
	done_testing
	exit
fi
diag "up and in sync in $(($(now_s) - t0)) s"

# 12 random nodes other than the sender: 6 members from the start (the
# first 3 of them leave midway), 3 that join midway, 3 bystanders
# shellcheck disable=SC2046 # a list of ids
set -- $(random_nodes 13 6401 | tr ' ' '\n' | grep -vx 0 | head -n 12)
A="$1 $2 $3 $4 $5 $6" LEAVE="$1 $2 $3" STAY="$4 $5 $6" JOIN="$7 $8 $9"
diag "members $A; leaving $LEAVE; joining $JOIN"

for u in $A; do
	rxd "$u" "$G" "$W/rx.$u"
done
# shellcheck disable=SC2086 # lists of ids
want=$(members_json $A)
if s=$(converge "$G" "$want" $((120 * TS))); then
	pass "joins on 6 random nodes reach all 64 nodes, in $s s"
else
	fail "joins on 6 random nodes reach all 64 nodes" "want $want" "node 63: $(gview "$G" 63)"
fi

run_ok "netem loss 5% on every link" mcastbed netem "loss 5%"
mcastbed exec 0 mcast_probe tx "g:$G" "$LEN" count=$COUNT gap=100 wait=120000 \
	> "$W/tx" 2>&1 &
txpid=$!
sleep 2
for u in $JOIN; do
	rxd "$u" "$G" "$W/rx.$u"
done
sleep 1
for u in $LEAVE; do
	stop_rxd "$W/rx.$u"
done
wait "$txpid"
sleep 2
# shellcheck disable=SC2086 # lists of ids
want=$(members_json $STAY $JOIN)
if s=$(converge "$G" "$want" $((180 * TS))); then
	pass "under 5 % loss, 3 leaves and 3 joins converge on all 64 nodes, in $s s"
else
	fail "under 5 % loss, 3 leaves and 3 joins converge on all 64 nodes" \
		"want $want" "node 63: $(gview "$G" 63)"
fi
run_ok "netem off" mcastbed netem off

diag "node 0's sends: $(awk '/^sent/ { split($2, a, "="); if (!n++) f = a[2]; l = a[2] } END { printf "%d in %d ms, the first done at %d ms", n, l, f }' "$W/tx")"
# Each send completes, or names the destinations it could not confirm:
# a path of up to 14 hops at 5 % loss each loses half its datagrams, so
# an ACK can miss all of a hop's retries while the data got through.
nsent=$(grep -c '^sent' "$W/tx")
okn=$(grep -c 'rc=0 nfailed=0' "$W/tx")
[ "$okn" = "$COUNT" ] || diag "$(grep -v 'rc=0 nfailed=0' "$W/tx" | head -10)"
is "$(grep -c -E 'rc=(0|EHOSTUNREACH) ' "$W/tx") $nsent" "$COUNT $COUNT" \
	"node 0's $COUNT sends completed ($okn confirmed everywhere, the others name who is unconfirmed)"
for u in $STAY; do
	# every message reached it, or the sender was told it may not have
	named=$(grep -c -E "failed=(.*,)?$u(,|\$)" "$W/tx")
	got=$(once_in_order "$W/rx.$u" $LEN)
	case $got in
	*"once, in order")
		if [ $((${got%% *} + named)) -ge "$COUNT" ]; then
			pass "node $u, a member all along: $got, and the sender named it unconfirmed $named times"
		else
			fail "node $u, a member all along, got the $COUNT messages or the sender heard" \
				"$got; named unconfirmed $named times"
		fi ;;
	*) fail "node $u, a member all along: once, in order" "$got" ;;
	esac
done
for u in $JOIN; do
	case $(once_in_order "$W/rx.$u" $LEN) in
	0\ *) fail "node $u, which joined midway, got the later messages" "$(head -5 "$W/rx.$u")" ;;
	*"once, in order") pass "node $u, which joined midway: $(once_in_order "$W/rx.$u" $LEN)" ;;
	*) fail "node $u, which joined midway: once, in order" "$(once_in_order "$W/rx.$u" $LEN)" ;;
	esac
done
for u in $LEAVE; do
	case $(once_in_order "$W/rx.$u" $LEN) in
	*"once, in order") pass "node $u, which left midway: $(once_in_order "$W/rx.$u" $LEN)" ;;
	*) fail "node $u, which left midway: once, in order" "$(once_in_order "$W/rx.$u" $LEN)" ;;
	esac
done

# the same members, R-chain and H-cycle in all 64 kernels
v0=$(gview "$G" 0)
differ=''
for u in $(seq 1 $((N - 1))); do
	[ "$(gview "$G" "$u")" = "$v0" ] || differ="$differ $u"
done
if [ -z "$differ" ] && [ -n "$v0" ]; then
	pass "all 64 kernels hold the same members, R-chain and H-cycle"
else
	fail "all 64 kernels hold the same members, R-chain and H-cycle" \
		"node 0: $v0" "differ:$differ"
fi

# a node whose leave converged is given nothing more
rx_of() { # NODE
	mcastbed exec "$1" mcastctl -j stats show group "$G" 2>/dev/null |
		sed -n 's/.*"rx_msgs":\([0-9]*\).*/\1/p'
}
before=''
for u in $LEAVE; do
	before="$before $(rx_of "$u")"
done
mcastbed exec 0 mcast_probe tx "g:$G" "$LEN" count=5 wait=60000 > "$W/tx2" 2>&1
after=''
for u in $LEAVE; do
	after="$after $(rx_of "$u")"
done
is "$(grep -c 'rc=0 nfailed=0' "$W/tx2")" 5 "node 0's 5 later sends completed"
is "$after" "$before" "after their leaves converged, nodes $LEAVE are given nothing ($before)"

for u in $STAY $JOIN; do
	stop_rxd "$W/rx.$u"
done
if s=$(gone "$G" $((120 * TS))); then
	pass "the last receivers exit: group $G goes from all 64 nodes, in $s s"
else
	fail "the last receivers exit: group $G goes from all 64 nodes" "node 0: $(gview "$G" 0)"
fi

for u in 0 $A $JOIN; do
	if grep -qi "error\|sanitizer" "$STATE/mcastd.$u.log" 2>/dev/null; then
		fail "node $u's mcastd log has no error" \
			"$(grep -i 'error\|sanitizer' "$STATE/mcastd.$u.log" | head -5)"
	fi
done
pass "the daemons' logs of the nodes involved have no error"
run_ok "mcastbed down" mcastbed down
rmmod mcast

done_testing
