#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# How many datagrams a small multicast costs (docs/data-path.md "Per-hop
# reliability"), on a 4x4 torus over UDP, node 0 sending 8 bytes to the
# other 15 with U-torus in completion mode, 10 times, with the module's
# ack_hold_ms at 0 and then at its default (one boot, the same testbed):
#  - held: a forwarder's ACK waits for its DONE, which answers for it, so
#    a multicast is 15 DATA and 15 DONE: at most 2.1 datagrams per
#    destination (before: 2.47, 15 DATA, 15 DONE and 7 ACKs);
#  - not held: more than held (the ACKs are back);
#  - every message delivered once at each receiver either way.

# shellcheck source=tests/vm/guest/tap.sh
. /tests/tap.sh
# shellcheck source=tests/vm/guest/netlib.sh
. /tests/netlib.sh

N=16 TOPO=torus:4x4
P=/sys/module/mcast/parameters
W=/tmp/net_acks
rm -rf "$W"
mkdir -p "$W"

# the sum of counter NAME over every node
sum_of() { # NAME
	_s=0 _u=0
	while [ "$_u" -lt "$N" ]; do
		_s=$((_s + $(netstat_of "$_u" "$1")))
		_u=$((_u + 1))
	done
	echo "$_s"
}

# ten 8-byte messages to group 7 (all but node 0), datagrams per
# destination (x100) on stdout: nothing else (it runs in $(...))
ten() { # TAG
	for _u in $(seq 1 $((N - 1))); do
		mcastbed exec "$_u" mcast_probe rx 7 30000 10 > "$W/rx.$1.$_u" 2>&1 &
	done
	for _u in $(seq 1 $((N - 1))); do	# (all_once tells if one was not)
		wait_lines 1 '^ready' "$W/rx.$1.$_u" > /dev/null 2>&1
	done
	_t0=$(sum_of tx_packets)
	mcastbed exec 0 mcast_probe tx g:7 8 count=10 wait=20000 algo=u-torus > "$W/tx.$1" 2>&1
	_t1=$(sum_of tx_packets)
	wait
	echo $(((_t1 - _t0) * 100 / (10 * (N - 1))))
}

# how many receivers have all ten, once each
all_once() { # TAG
	_k=0
	for _u in $(seq 1 $((N - 1))); do
		[ "$(grep -c '^msg src=0 .* len=8 .*ok=1' "$W/rx.$1.$_u")" = 10 ] && _k=$((_k + 1))
	done
	echo "$_k"
}

run_ok "insmod mcast.ko" insmod_scaled
if ! out=$(mcastbed up "$TOPO:uni" --transport udp 2>&1); then
	fail "mcastbed up $TOPO:uni --transport udp" "$out"
	done_testing
	tap_exit
fi
pass "mcastbed up $TOPO:uni --transport udp"
mem=''
for u in $(seq 1 $((N - 1))); do
	mem="$mem $(coord "$u")"
done
# shellcheck disable=SC2086
run_ok "group 7 is every node but 0" mcastbed group 7 $mem
hold0=$(cat $P/ack_hold_ms)

echo 0 > $P/ack_hold_ms
off=$(ten off)
is "$(all_once off)" 15 "ack_hold_ms 0: all 15 receivers have the ten messages once"
grep -q 'rc=0 nfailed=0' "$W/tx.off" || fail "ack_hold_ms 0: the sends complete" "$(cat "$W/tx.off")"

echo "$hold0" > $P/ack_hold_ms
on=$(ten on)
is "$(all_once on)" 15 "ack_hold_ms $hold0: all 15 receivers have the ten messages once"
grep -q 'rc=0 nfailed=0' "$W/tx.on" || fail "ack_hold_ms $hold0: the sends complete" "$(cat "$W/tx.on")"

diag "datagrams per destination x100: ack_hold_ms 0: $off, $hold0: $on"
[ "$on" -le 210 ] && pass "ack_hold_ms $hold0: $on/100 datagrams per destination (at most 2.1)" ||
	fail "ack_hold_ms $hold0: at most 2.1 datagrams per destination" "$on/100"
[ "$off" -gt "$on" ] && pass "... fewer than with ack_hold_ms 0 ($off/100)" ||
	fail "... fewer than with ack_hold_ms 0" "0: $off/100, $hold0: $on/100"

mcastbed down > /dev/null 2>&1
run_ok "rmmod mcast" rmmod mcast
done_testing
tap_exit
