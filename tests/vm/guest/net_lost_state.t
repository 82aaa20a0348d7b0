#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# A child that lost a transfer is sent it again, and a send on a healthy
# link does not hang.  On a 2x2 torus over UDP, node 0 sends node 1 a
# 100 KB message in completion mode while a tc filter drops every DONE
# node 1 sends, for 25 s: longer than node 1 remembers a finished job
# (20 s), so node 0's probe then meets a node 1 that has forgotten the
# transfer and acknowledges less than before.  Node 0 sends it again from
# where node 1 is (rewinds), and once the filter is gone the send
# completes, with nothing failed, and node 1 delivered the message exactly
# once.  (Before, node 0 ignored the backward ACK, kept probing with the
# last fragment, and failed the send with EHOSTUNREACH after 91 s.)
# Then every transfer has a hard lifetime: with transfer_lifetime_ms at 4 s
# and node 1's DONEs dropped for good, node 0's send does not wait for the
# whole completion timeout (before: the probe's ACKs from node 1 kept the
# transfer alive for as long as the filter stayed); the transfer expires,
# node 1 is reported failed (unconfirmed, not down: no takeover) and
# counted in tx_expired, and node 1 still delivered the message once.
# UDP only: a filter cannot pick DONEs out of a TCP stream.

# shellcheck source=tests/vm/guest/tap.sh
. /tests/tap.sh

# shellcheck source=tests/vm/guest/netlib.sh
. /tests/netlib.sh

for m in sch_prio cls_u32 act_gact; do
	modprobe "$m" 2>/dev/null
done
run_ok "insmod mcast.ko" insmod "$MCAST_KO"

N=4 TOPO=torus:2x2

LIFE=/sys/module/mcast/parameters/transfer_lifetime_ms

# a transfer whose child never finishes ends at its lifetime (see the top)
lifetime() {
	run_ok "transfer_lifetime_ms 4000" sh -c "echo 4000 > $LIFE"
	mcastbed exec 1 mcast_probe rx 5 60000 -1 > "$W/rx.1" 2>&1 &
	rxpid=$!
	wait_lines 1 '^ready' "$W/rx.1" || fail "receiver ready" "$(cat "$W/rx.1")"
	exp0=$(netstat_of 0 tx_expired)
	run_ok "node 1 drops the DONEs it sends" drop_done 1 add
	t0=$(date +%s)
	out=$(mcastbed exec 0 mcast_probe tx g:5 3000 wait=60000)
	t=$(($(date +%s) - t0))
	case $out in
	*"rc=EHOSTUNREACH nfailed=1 failed=1"*)
		[ "$t" -lt 30 ] && pass "the send ends after ${t} s, node 1 unconfirmed: $out" ||
			fail "the send ends at the transfer's lifetime" "after $t s: $out" ;;
	*) fail "the send ends at the transfer's lifetime, node 1 unconfirmed" "$out" ;;
	esac
	is "$(delta "$exp0" "$(netstat_of 0 tx_expired)")" 1 "node 0 counted the transfer in tx_expired"
	is "$(netstat_of 0 transfers)" 0 "node 0 holds no transfer"
	run_ok "node 1 lets DONEs through again" drop_done 1 del
	sleep 1
	kill "$(sed -n 's/^ready .* pid=\([0-9]*\)$/\1/p' "$W/rx.1")" 2>/dev/null
	wait "$rxpid" 2>/dev/null
	is "$(grep -c '^msg src=0 .* len=3000 .*ok=1' "$W/rx.1")" 1 \
		"node 1 delivered that message once"
	run_ok "transfer_lifetime_ms back to 60000" sh -c "echo 60000 > $LIFE"
}

if ! _out=$(mcastbed up "$TOPO" --transport udp 2>&1); then
	fail "mcastbed up $TOPO --transport udp" "$_out"
else
	pass "mcastbed up $TOPO --transport udp"
	run_ok "group 5 is node 1" mcastbed group 5 "$(coord 1)"
	mcastbed exec 1 mcast_probe rx 5 60000 -1 > "$W/rx.1" 2>&1 &
	rxpid=$!
	wait_lines 1 '^ready' "$W/rx.1" || fail "receiver ready" "$(cat "$W/rx.1")"
	run_ok "node 1 drops the DONEs it sends" drop_done 1 add
	mcastbed exec 0 mcast_probe tx g:5 100000 wait=90000 > "$W/tx" 2>&1 &
	txpid=$!
	wait_lines 1 '^msg ' "$W/rx.1" || fail "node 1 got the message" "$(cat "$W/rx.1")"
	sleep 5
	is "$(grep -c rc= "$W/tx")" 0 "the send waits while node 1's DONEs are dropped"
	sleep 20
	run_ok "node 1 lets DONEs through again" drop_done 1 del
	wait "$txpid"
	case $(cat "$W/tx") in
	*"rc=0 nfailed=0"*) pass "the send completes, nothing failed: $(cat "$W/tx")" ;;
	*) fail "the send completes, nothing failed" "$(cat "$W/tx")" ;;
	esac
	r=$(netstat_of 0 rewinds)
	[ "${r:-0}" != - ] && [ "${r:-0}" -ge 1 ] && pass "node 0 sent the transfer again ($r rewinds)" ||
		fail "node 0 sends the transfer again from where node 1 is" "rewinds '$r'"
	sleep 1
	kill "$(sed -n 's/^ready .* pid=\([0-9]*\)$/\1/p' "$W/rx.1")" 2>/dev/null
	wait "$rxpid" 2>/dev/null
	is "$(grep -c '^msg src=0 .* len=100000 .*ok=1' "$W/rx.1")" 1 \
		"node 1 delivered the message exactly once"
	lifetime
	mcastbed down > /dev/null 2>&1
fi

is "$(ip netns list | grep -c mcb)" 0 "no namespaces left"
run_ok "rmmod mcast" rmmod mcast
done_testing
tap_exit
