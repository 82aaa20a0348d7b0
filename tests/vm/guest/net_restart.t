#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# Exactly once across restarts.  A node of a bridge testbed is killed and
# revived (mcastbed revive: a new netns, as a machine that rebooted, with
# none of its old state).  UDP: a filter picks DONEs out of the datagrams.
#  - Receiver restart: node 0 sends node 1 a message in completion mode
#    while node 1's DONEs are dropped; node 1 delivers it, then restarts.
#    Node 0's probe reaches node 1's new life, which refuses the transfer
#    (rx_stale: the DATA names its old incarnation) and answers with its
#    new one: node 0 gives the transfer up and the send ends with node 1
#    failed (not confirmed), not with a success bought by delivering the
#    message a second time to the new life (what happened before nodes
#    had incarnations: the parent rewound and sent it all again).  The
#    new life then gets the next message, once (after the gap time: its
#    predecessor went to the old life).
#  - Receiver restart before its parent heard from it: the same with all
#    of node 1's answers dropped (ACKs too), so node 0 does not know node
#    1's incarnation and its probes name none.  Node 1's new life, young
#    (within stream_idle_ms of its birth), does not take such a copy of a
#    transfer it does not know (rx_young) but asks node 0 with its age;
#    the transfer began before that birth, so node 0 gives it up: node 1
#    failed, the message not delivered twice (before: the new life took
#    the probe and got the message a second time).
#  - A young node's first copies lost: node 1 restarts once more, then
#    every DATA node 0 sends is dropped for 2 s, so node 0's probes reach
#    node 1 as copies sent again before it was heard from.  Node 1 asks
#    (rx_young) and, the transfer having begun after its birth, node 0
#    sends it all again: the message arrives once and the send succeeds.
#  - Sender restart: node 0 streams to group 6 and is killed midway, then
#    revived, and streams again: every receiver gets every message at most
#    once, all of the new life's, in order after the old life's.

# shellcheck source=tests/vm/guest/tap.sh
. /tests/tap.sh

# shellcheck source=tests/vm/guest/netlib.sh
. /tests/netlib.sh

for m in sch_prio cls_u32 act_gact; do
	modprobe "$m" 2>/dev/null
done
run_ok "insmod mcast.ko" insmod "$MCAST_KO"

N=4 TOPO=torus:4

rx() { # NODE GROUP LOG
	: > "$3"
	mcastbed exec "$1" mcast_probe rx "$2" 60000 -1 > "$3" 2>&1 &
	wait_lines 1 '^ready' "$3" || fail "node $1's receiver ready" "$(cat "$3")"
}

stop_rx() { # LOG...
	for _l in "$@"; do
		kill "$(sed -n 's/^ready .* pid=\([0-9]*\)$/\1/p' "$_l")" 2>/dev/null
	done
}

# "N once, in order" for the messages of length LEN in a receive log
once_in_order() { # LOG LEN
	awk -v len="$2" '$1 == "msg" && $4 == "len=" len {
		split($3, a, "="); if (a[2] in seen) dup = 1; seen[a[2]] = 1
		if (n && a[2] <= last) bad = 1; last = a[2]; n++
	} END { printf "%d %s\n", n, dup ? "with repeats" : bad ? "out of order" : "once, in order" }' "$1"
}

# receiver_restart TAG DROP COUNTER: node 1 takes a message, its answers
# dropped by the filter DROP (drop_done, drop_answers), then restarts; the
# new life must refuse the old transfer (COUNTER counts how)
receiver_restart() {
	rx 1 5 "$W/rx.$1"
	run_ok "$1: node 1 drops what it answers ($2)" "$2" 1 add
	mcastbed exec 0 mcast_probe tx g:5 3000 wait=90000 > "$W/tx.$1" 2>&1 &
	_txpid=$!
	wait_lines 1 '^msg .* len=3000 ' "$W/rx.$1" || fail "$1: node 1 got the message" "$(cat "$W/rx.$1")"
	sleep 1
	is "$(grep -c rc= "$W/tx.$1")" 0 "$1: node 0 waits for node 1's DONE"
	run_ok "$1: node 1 restarts: killed" mcastbed kill 1
	run_ok "$1: node 1 restarts: revived" mcastbed revive 1
	rx 1 5 "$W/rx.$1.new"
	wait "$_txpid"
	case $(cat "$W/tx.$1") in
	*"nfailed=1 failed=1"*) pass "$1: the send ends with node 1 failed: $(cat "$W/tx.$1")" ;;
	*) fail "$1: the send ends with node 1 failed" "$(cat "$W/tx.$1")" ;;
	esac
	_n=$(netstat_of 1 "$3")
	[ "${_n:-0}" -ge 1 ] 2>/dev/null && pass "$1: node 1's new life refused the old transfer ($_n $3)" ||
		fail "$1: node 1's new life refused the old transfer" "$3 '$_n'"
	_out=$(mcastbed exec 0 mcast_probe tx g:5 200 wait=30000)
	case $_out in
	*"rc=0 nfailed=0"*) pass "$1: the next send reaches the new life: $_out" ;;
	*) fail "$1: the next send reaches the new life" "$_out" ;;
	esac
	sleep 1
	stop_rx "$W/rx.$1" "$W/rx.$1.new"
	is "$(grep -c '^msg src=0 .* len=3000 ' "$W/rx.$1.new")" 0 \
		"$1: the new life did not get the old message again"
	is "$(once_in_order "$W/rx.$1.new" 200)" "1 once, in order" "$1: it got the next one once"
}

young_first_copies_lost() {
	run_ok "young: node 1 restarts: killed" mcastbed kill 1
	run_ok "young: node 1 restarts: revived" mcastbed revive 1
	rx 1 5 "$W/rx.young"
	data_outage young 2 "$W/tx.young" tx g:5 3000 wait=60000
	case $(cat "$W/tx.young") in
	*"rc=0 nfailed=0"*) pass "young: the send succeeds: $(cat "$W/tx.young")" ;;
	*) fail "young: the send succeeds" "$(cat "$W/tx.young")" ;;
	esac
	_n=$(netstat_of 1 rx_young)
	[ "${_n:-0}" -ge 1 ] 2>/dev/null &&
		pass "young: node 1 asked before taking a copy sent again ($_n rx_young)" ||
		fail "young: node 1 asked before taking a copy sent again" "rx_young '$_n'"
	sleep 1
	stop_rx "$W/rx.young"
	is "$(once_in_order "$W/rx.young" 3000)" "1 once, in order" "young: node 1 got it once"
}

sender_restart() {
	for _n in 1 2 3; do
		rx "$_n" 6 "$W/rx6.$_n"
	done
	mcastbed exec 0 mcast_probe tx g:6 100 count=200 > "$W/tx6" 2>&1 &
	wait_lines 40 '^sent ' "$W/tx6" || diag "node 0 did not send 40 in 60 s"
	run_ok "node 0 restarts mid-stream: killed" mcastbed kill 0
	run_ok "node 0 restarts: revived" mcastbed revive 0
	_out=$(mcastbed exec 0 mcast_probe tx g:6 300 count=20 wait=30000)
	is "$(echo "$_out" | grep -c 'rc=0 nfailed=0')" 20 "the new life's 20 sends succeed"
	sleep 1
	stop_rx "$W"/rx6.*
	for _n in 1 2 3; do
		_old=$(once_in_order "$W/rx6.$_n" 100)
		case $_old in
		*"once, in order") pass "node $_n got ${_old%% *} of the old life's messages, once each, in order" ;;
		*) fail "node $_n got the old life's messages at most once" "$_old" ;;
		esac
		is "$(once_in_order "$W/rx6.$_n" 300)" "20 once, in order" \
			"node $_n got all of the new life's, once, in order"
		_last_old=$(awk '$4 == "len=100" { split($3, a, "="); l = a[2] } END { print l + 0 }' "$W/rx6.$_n")
		_first_new=$(awk '$4 == "len=300" { split($3, a, "="); print a[2]; exit }' "$W/rx6.$_n")
		awk -v a="$_last_old" -v b="$_first_new" 'BEGIN { exit !(b > a) }' &&
			pass "node $_n: the new life's messages come after the old life's" ||
			fail "node $_n: the new life's come after the old's" "$_last_old, $_first_new"
	done
}

if ! _out=$(mcastbed up bridge:4 --transport udp 2>&1); then
	fail "mcastbed up bridge:4 --transport udp" "$_out"
else
	pass "mcastbed up bridge:4 --transport udp"
	run_ok "group 5 is node 1" mcastbed group 5 1
	run_ok "group 6 is nodes 1, 2 and 3" mcastbed group 6 1 2 3
	run_ok "node 0 waits long for silent peers (retries 60)" \
		mcastbed exec 0 mcastctl node set retries 60
	receiver_restart heard drop_done rx_stale
	receiver_restart unheard drop_answers rx_young
	young_first_copies_lost
	sender_restart
	mcastbed down > /dev/null 2>&1
fi

wait 2>/dev/null
is "$(ip netns list | grep -c mcb)" 0 "no namespaces left"
run_ok "rmmod mcast" rmmod mcast
done_testing
tap_exit
