#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# Lossless receivers across the network.  On a 2x2 torus, group 5 is
# nodes 1, 2 and 3; node 0 sends.  Node 1's member has joined but does
# not read yet:
#  - Flow control: node 0 sends rxq_limit + 100 messages.  Node 1 queues
#    rxq_limit, holds the rest (its stream blocked, nothing dropped), and
#    does not report them done, so node 0's window of messages in flight
#    closes and its sends wait; nodes 2 and 3 meanwhile get everything
#    sent so far.  Once node 1 reads, the sends finish and every member
#    has every message once, in order, none dropped.
#  - Cut-off: with rx_stall_ms at 3 s, a member that never reads holds a
#    completion-mode send for about that long; then it is cut off (node 1
#    counts it), the send returns with node 1 in its failed list, and the
#    others got the message.
#  - The same with the stalled member on the sending node: the send
#    reports the sender's own node failed.
#  - A non-blocking sender on that node waits in poll(POLLOUT), not in
#    a loop of EAGAIN, until its member is cut off.

# shellcheck source=tests/vm/guest/tap.sh
. /tests/tap.sh

# shellcheck source=tests/vm/guest/netlib.sh
. /tests/netlib.sh

run_ok "insmod mcast.ko" insmod "$MCAST_KO"

N=4 TOPO=torus:2x2
STALL=/sys/module/mcast/parameters/rx_stall_ms
LIMIT=256			# mcast_info's rxq_limit
MORE=100

# rx NODE LOG [START]: node NODE's member of group 5 (reading once START
# exists), its output in LOG
rx() {
	: > "$2"
	mcastbed exec "$1" mcast_probe rx 5 60000 -1 ${3:+"$3"} > "$2" 2>&1 &
}

# "COUNT in order" for a receive log: how many intact messages from node 0
# with nothing dropped before them, and whether their seqs only grow
in_order() {
	awk '/^msg src=0 / && / ok=1 dropped=0$/ {
		split($3, a, "="); if (n && a[2] <= last) bad = 1; last = a[2]; n++
	} END { printf "%d %s\n", n, bad ? "out of order" : "in order" }' "$1"
}

# the value of NAME in node NODE's message statistics (the "stats" line)
msgstat_of() { # NODE NAME
	mcastbed exec "$1" mcast_probe stats | sed -n 's/^stats //p' |
		tr ' ' '\n' | sed -n "s/^$2=//p"
}

stop_rx() { # LOG...
	for _l in "$@"; do
		kill "$(sed -n 's/^ready .* pid=\([0-9]*\)$/\1/p' "$_l")" 2>/dev/null
	done
	wait 2>/dev/null
}

flow_control() {
	rm -f "$W/go"
	rx 1 "$W/rx.1" "$W/go"
	rx 2 "$W/rx.2"
	rx 3 "$W/rx.3"
	wait_lines 3 '^ready' "$W/rx.1" "$W/rx.2" "$W/rx.3" || fail "receivers ready" "$(cat "$W"/rx.*)"
	mcastbed exec 0 mcast_probe tx g:5 100 count=$((LIMIT + MORE)) > "$W/tx" 2>&1 &
	_txpid=$!
	wait_lines $((LIMIT + 1)) '^msg ' "$W/rx.2" ||
		diag "node 2 did not get $((LIMIT + 1)) messages in 60 s"
	sleep 3
	_sent=$(grep -c '^sent ' "$W/tx")
	[ "$_sent" -lt $((LIMIT + MORE)) ] &&
		pass "node 0's sends wait for node 1 ($_sent of $((LIMIT + MORE)) sent)" ||
		fail "node 0's sends wait for node 1" "all $_sent sent"
	is "$(netstat_of 1 blocked)" 1 "node 1 counts one blocked stream"
	_held=$(netstat_of 1 held)
	[ "${_held:-0}" -ge 1 ] && pass "node 1 holds $_held messages for its member" ||
		fail "node 1 holds messages for its member" "held '$_held'"
	is "$(grep -c '^msg ' "$W/rx.2")" "$_sent" "node 2 got every message sent so far"
	touch "$W/go"
	wait "$_txpid"
	_ok=$(grep -c 'rc=0' "$W/tx")
	[ "$_ok" = $((LIMIT + MORE)) ] && pass "once node 1 reads, every send succeeds" ||
		fail "once node 1 reads, every send succeeds" "$_ok rc=0" "$(grep -v 'rc=0' "$W/tx" | head -5)"
	wait_lines $((LIMIT + MORE)) '^msg ' "$W/rx.1" || diag "node 1 is missing messages"
	sleep 1
	stop_rx "$W"/rx.[123]
	for _n in 1 2 3; do
		is "$(in_order "$W/rx.$_n")" "$((LIMIT + MORE)) in order" \
			"node $_n got all $((LIMIT + MORE)) once, in order, none dropped"
	done
	is "$(netstat_of 1 blocked)" 0 "node 1's stream is no longer blocked"
	is "$(msgstat_of 1 rx_drops)" 0 "node 1 dropped nothing"
}

# cut_off SENDER: node 1's member never reads; SENDER (0, or 1 itself)
# sends in completion mode.  The send waits about rx_stall_ms, then
# reports node 1 failed (for node 1 itself, in the send's own failed list).
cut_off() {
	_s=$1
	echo 3000 > "$STALL"
	rm -f "$W/go"
	rx 1 "$W/rx.1" "$W/go"	# never reads
	rx 2 "$W/rx.2"
	rx 3 "$W/rx.3"
	wait_lines 3 '^ready' "$W/rx.1" "$W/rx.2" "$W/rx.3" || fail "receivers ready" "$(cat "$W"/rx.*)"
	mcastbed exec "$_s" mcast_probe tx g:5 100 count=$LIMIT > "$W/tx" 2>&1
	_c0=$(netstat_of 1 cutoffs)
	_t0=$(date +%s)
	_out=$(mcastbed exec "$_s" mcast_probe tx g:5 200 wait=30000)
	_t=$(($(date +%s) - _t0))
	case $_out in
	*"rc=EHOSTUNREACH nfailed=1 failed=1"*)
		[ "$_t" -ge 2 ] && [ "$_t" -lt 25 ] &&
			pass "node $_s's completion-mode send waits for node 1's stalled member, then reports node 1 failed (${_t} s)" ||
			fail "node $_s's send waits about rx_stall_ms" "after $_t s: $_out" ;;
	*) fail "node $_s's completion-mode send reports node 1 failed" "$_out" ;;
	esac
	is "$(delta "$_c0" "$(netstat_of 1 cutoffs)")" 1 "node 1 counted the cut-off"
	wait_lines $((LIMIT + 1)) '^msg ' "$W/rx.2" "$W/rx.3" || true
	sleep 1
	stop_rx "$W"/rx.[123]
	for _n in 2 3; do
		is "$(grep -c "^msg src=$_s .* len=200 .*ok=1" "$W/rx.$_n")" 1 \
			"node $_n got node $_s's message once"
	done
	echo 20000 > "$STALL"
}

# poll_local: node 1's own member never reads, and node 1 sends to the
# group without blocking, waiting in poll(POLLOUT) after each refusal.
# poll must not say writable while that member's queue is full (an epoll
# loop would spin on EAGAIN): it wakes when room is made or a second later,
# so the sender retries about once a second until its send cuts the
# member off after rx_stall_ms (3 s); then every send is taken.
poll_local() {
	echo 3000 > "$STALL"
	rm -f "$W/go"
	rx 1 "$W/rx.1" "$W/go"	# never reads
	wait_lines 1 '^ready' "$W/rx.1" || fail "node 1's member ready" "$(cat "$W/rx.1")"
	mcastbed exec 1 mcast_probe burst g:5 100 $((LIMIT + 4)) nonblock poll \
		> "$W/burst" 2>&1
	_sum=$(tail -n 1 "$W/burst")
	case $_sum in
	"burst sent=$((LIMIT + 4)) "*" poll_timeouts=0 "*"failed=0") pass "node 1's non-blocking burst: all $((LIMIT + 4)) sent" ;;
	*) fail "node 1's non-blocking burst: all $((LIMIT + 4)) sent" "$_sum" ;;
	esac
	_ap=$(echo "$_sum" | sed -n 's/.* eagain_after_poll=\([0-9]*\) .*/\1/p')
	[ "${_ap:-99999}" -ge 1 ] && [ "${_ap:-99999}" -le 10 ] &&
		pass "poll waits while its own member is full ($_ap refusals after poll in ~3 s)" ||
		fail "poll waits while its own member is full" "eagain_after_poll=$_ap"
	stop_rx "$W/rx.1"
	echo 20000 > "$STALL"
}

if ! _out=$(mcastbed up "$TOPO" 2>&1); then
	fail "mcastbed up $TOPO" "$_out"
else
	pass "mcastbed up $TOPO"
	run_ok "group 5 is nodes 1, 2 and 3" mcastbed group 5 "$(coord 1)" "$(coord 2)" "$(coord 3)"
	flow_control
	cut_off 0
	cut_off 1
	poll_local
	mcastbed down > /dev/null 2>&1
fi

is "$(ip netns list | grep -c mcb)" 0 "no namespaces left"
run_ok "rmmod mcast" rmmod mcast
done_testing
tap_exit
