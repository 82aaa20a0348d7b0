#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# mcastctl cluster stats (docs/daemon.md "Cluster statistics"): a 2x2
# torus over TCP run by mcastd, group 21 is node 1's receiver.  Node 0
# sends it three messages; then, asked on node 3:
#  - every node's row is its own kernel's counters (each row's tx_msgs
#    and rx_msgs are what that node's `mcastctl -j stats show` says), the
#    total is the rows' sum, and the text table has a row a node;
#  - with node 2's daemon killed, its row says it did not answer, the
#    others still do, and the answer comes within the round's second;
#  - four asks in a row are all answered (a peer's burst).

# shellcheck source=tests/vm/guest/tap.sh
. /tests/tap.sh
# shellcheck source=tests/vm/guest/netlib.sh
. /tests/netlib.sh
# shellcheck source=tests/vm/guest/daemonlib.sh
. /tests/daemonlib.sh

[ -x /usr/local/bin/mcastd ] || skip_all "no mcastd in the guest"

W=/tmp/daemon_stats
rm -rf "$W"
mkdir -p "$W"
N=4 TOPO=torus:2x2 G=21
TS=${mcast_time_scale:-1}
export MCASTBED_HEARTBEAT=$((500 * TS))ms MCASTBED_SUSPECT=$((2 * TS))s \
	MCASTBED_DEAD=$((2 * TS))s MCASTBED_SYNC=$((1 * TS))s
unset MCASTBED_KEY

# KEY of node ROW's row in a -j cluster stats answer
row_of() { # JSON ROW KEY
	printf '%s\n' "$1" | sed 's/],"total".*//; s/},{"id"/}\n{"id"/g' |
		grep "\"id\":$2," |
		sed -n "s/.*\"$3\":\\([0-9a-z]*\\).*/\\1/p" | head -n 1
}

# KEY of node NODE's own counters
own_of() { # NODE KEY
	mcastbed exec "$1" mcastctl -j stats show |
		sed -n "s/^{\"node\":{.*\"$2\":\\([0-9]*\\).*/\\1/p"
}

run_ok "insmod mcast.ko" insmod_scaled
if ! run_ok "mcastbed up $TOPO --transport tcp --daemon" \
	mcastbed up "$TOPO" --transport tcp --daemon; then
	mcastbed down
	rmmod mcast
	done_testing
	exit
fi

rxd 1 $G "$W/rx.1"
if s=$(converge $G '[[0,1]]' $((60 * TS))); then
	pass "node 1 joins group $G: every node has it, in $s s"
else
	fail "node 1 joins group $G: every node has it" "node 0: $(gview $G 0)"
fi
run_ok "node 0 sends group $G three messages" \
	mcastbed exec 0 mcast_probe tx g:$G 300 count=3 wait=20000
wait_lines 3 '^msg src=0 .* len=300 .*ok=1' "$W/rx.1" ||
	fail "node 1 has them" "$(cat "$W/rx.1")"

j=$(mcastbed exec 3 mcastctl -j cluster stats 2>&1)
is "$(row_of "$j" 0 answered):$(row_of "$j" 1 answered):$(row_of "$j" 2 answered):$(row_of "$j" 3 answered)" \
	true:true:true:true "cluster stats on node 3: all four nodes answered"
bad=""
sum=0
for u in 0 1 2 3; do
	for k in tx_msgs rx_msgs; do
		[ "$(row_of "$j" $u $k)" = "$(own_of $u $k)" ] ||
			bad="$bad $u.$k=$(row_of "$j" $u $k)/$(own_of $u $k)"
	done
	sum=$((sum + $(row_of "$j" $u tx_msgs)))
done
is "$bad" "" "each row is that node's own counters (tx_msgs, rx_msgs)"
[ "$(row_of "$j" 0 tx_msgs)" -ge 3 ] 2>/dev/null &&
	pass "node 0's row counts its three sends ($(row_of "$j" 0 tx_msgs))" ||
	fail "node 0's row counts its three sends" "$j"
tot=$(printf '%s\n' "$j" | sed -n 's/.*"total":{"tx_msgs":\([0-9]*\).*/\1/p')
is "$tot" "$sum" "the total is the rows' sum"
t=$(mcastbed exec 3 mcastctl cluster stats 2>&1)
is "$(printf '%s\n' "$t" | grep -c '^[0-3] ')" 4 "the text table: a row a node"
case $t in
*"4 of 4 nodes answered"*) pass "... and says all answered" ;;
*) fail "... and says all answered" "$t" ;;
esac

run_ok "kill -9 node 2's mcastd" mcastbed daemon 2 kill
t0=$(now_s)
j=$(mcastbed exec 3 mcastctl -j cluster stats 2>&1)
dt=$(($(now_s) - t0))
is "$(row_of "$j" 2 answered):$(row_of "$j" 0 answered):$(row_of "$j" 1 answered)" \
	false:true:true "node 2's row says it did not answer, the others did"
[ "$dt" -le $((3 * TS)) ] && pass "the answer came at the round's end (${dt} s)" ||
	fail "the answer comes at the round's end" "${dt} s"
t=$(mcastbed exec 3 mcastctl cluster stats 2>&1)
case $(printf '%s\n' "$t" | grep '^2 ') in
*"no answer"* | *"not asked"*) pass "the text table says node 2 did not answer" ;;
*) fail "the text table says node 2 did not answer" "$t" ;;
esac

# a burst of asks: each peer answers 4 at once, then 4 a second
for k in 1 2 3 4; do
	mcastbed exec 3 mcastctl -j cluster stats > "$W/burst.$k" 2>&1
done
is "$(cat "$W"/burst.* | sed 's/},{"id"/}\n{"id"/g' | grep -c '"id":0,.*"answered":true')" 4 \
	"four asks in a row: node 0 answered each"

stop_rxd "$W/rx.1"
if grep -q 'ERROR\|AddressSanitizer' /run/mcastbed/mcastd.*.log 2>/dev/null; then
	fail "the daemons' logs" "$(grep 'ERROR\|AddressSanitizer' /run/mcastbed/mcastd.*.log)"
fi
mcastbed down
rmmod mcast
done_testing
