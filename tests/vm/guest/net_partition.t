#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# Exactly once for a message delayed two minutes (at CI's scale: 30 s
# against the module's limits cut to a fifth, below).  On a bridge of 4
# nodes (UDP), group 5 is node 1.  Node 0 sends A, then its link delays
# everything it sends by DELAY s (netem: a partition that loses nothing,
# and heals with all of it in flight).  Node 0 sends B in completion mode:
# node 1 is silent, so node 0 gives up on it after its retries and reports
# it failed (not confirmed).  DELAY s later B's DATA and every
# retransmission of it reach node 1, long after the transfer, node 0's
# stream to node 1 and node 1's stream from node 0 were forgotten: node 1
# delivers B once (the retransmissions are duplicates), and afterwards D
# goes through at once.  Node 1 gets A, B and D, each once, in order;
# node 0 was never told B arrived when it had not.

# shellcheck source=tests/vm/guest/tap.sh
. /tests/tap.sh

# shellcheck source=tests/vm/guest/netlib.sh
. /tests/netlib.sh

modprobe sch_netem 2>/dev/null
N=4 TOPO=torus:4
# Two minutes against the module's own limits (a transfer lives 60 s, a
# stream is forgotten after 90 s idle) in make vmcheck-full and on a slow
# kernel.  At CI's scale (its hour) 30 s against the same limits cut to a
# fifth, so the delay still outlasts each of them and the fixed ones (a
# finished job is kept 20 s, a FIFO gap waited out 10 s).
if [ "${mcast_full:-0}" = 1 ] || [ "${mcast_time_scale:-1}" -gt 1 ]; then
	DELAY=120
	run_ok "insmod mcast.ko" insmod "$MCAST_KO"
else
	DELAY=30
	run_ok "insmod mcast.ko, transfers live 12 s, streams idle 18 s are forgotten" \
		insmod "$MCAST_KO" transfer_lifetime_ms=12000 stream_idle_ms=18000 rx_stall_ms=4000
fi

# "N once, in order" for the messages of node 0 in a receive log, and
# their lengths
received() { # LOG
	awk '$1 == "msg" && $2 == "src=0" {
		split($3, a, "="); if (a[2] in seen) dup = 1; seen[a[2]] = 1
		if (n && a[2] <= last) bad = 1; last = a[2]; n++
		split($4, l, "="); lens = lens " " l[2]
	} END { printf "%d %s:%s\n", n, dup ? "with repeats" : bad ? "out of order" : "once, in order", lens }' "$1"
}

if ! _out=$(mcastbed up bridge:4 --transport udp 2>&1); then
	fail "mcastbed up bridge:4 --transport udp" "$_out"
else
	pass "mcastbed up bridge:4 --transport udp"
	run_ok "group 5 is node 1" mcastbed group 5 1
	mcastbed exec 1 mcast_probe rx 5 $(((DELAY + 60) * 1000)) -1 > "$W/rx.1" 2>&1 &
	wait_lines 1 '^ready' "$W/rx.1" || fail "receiver ready" "$(cat "$W/rx.1")"
	_a=$(mcastbed exec 0 mcast_probe tx g:5 1000 wait=30000)
	case $_a in
	*"rc=0 nfailed=0"*) pass "A is delivered" ;;
	*) fail "A is delivered" "$_a" ;;
	esac
	run_ok "node 0's link delays everything by $DELAY s" \
		mcastbed exec 0 tc qdisc add dev eth0 root netem delay ${DELAY}s limit 100000
	_t0=$(date +%s)
	_b=$(mcastbed exec 0 mcast_probe tx g:5 2000 wait=$((DELAY * 1000 + 30000)))
	case $_b in
	*"nfailed=1 failed=1"*)
		pass "B is reported failed after $(($(date +%s) - _t0)) s: node 1 is silent ($_b)" ;;
	*) fail "B is reported failed" "$_b" ;;
	esac
	is "$(grep -c '^msg ' "$W/rx.1")" 1 "node 1 has only A so far"
	_d0=$(netstat_of 1 dups)
	# B and its retransmissions arrive DELAY s after they were sent
	while [ $(($(date +%s) - _t0)) -lt $((DELAY + 10)) ]; do
		sleep 5
	done
	run_ok "the link's delay ends" mcastbed exec 0 tc qdisc del dev eth0 root
	_dups=$(delta "$_d0" "$(netstat_of 1 dups)")
	[ "$_dups" != none ] && [ "$_dups" -ge 1 ] &&
		pass "node 1 took B's $_dups late retransmissions for duplicates" ||
		fail "node 1 takes B's late retransmissions for duplicates" "dups +$_dups"
	_d=$(mcastbed exec 0 mcast_probe tx g:5 3000 wait=30000)
	case $_d in
	*"rc=0 nfailed=0"*) pass "D is delivered: $_d" ;;
	*) fail "D is delivered" "$_d" ;;
	esac
	sleep 1
	kill "$(sed -n 's/^ready .* pid=\([0-9]*\)$/\1/p' "$W/rx.1")" 2>/dev/null
	wait 2>/dev/null
	is "$(received "$W/rx.1")" "3 once, in order: 1000 2000 3000" \
		"node 1 got A, B $DELAY s late, and D: each once, in order"
	mcastbed down > /dev/null 2>&1
fi

is "$(ip netns list | grep -c mcb)" 0 "no namespaces left"
run_ok "rmmod mcast" rmmod mcast
done_testing
tap_exit
