#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# Forgetting idle streams (mcast.ko stream_idle_ms): the per (sender,
# group) FIFO state is dropped at both ends after the idle time, and
# delivery stays exactly once and in order across it.
#  - The receiver forgets its stream while the sender still remembers the
#    last message it sent there: the next message names that one as its
#    predecessor, which the receiver can no longer check.  It must be
#    delivered at once (from the floor), not held for the 10 s gap.
#  - Both ends forget: the next message still arrives, once.

# shellcheck source=tests/vm/guest/tap.sh
. /tests/tap.sh
# shellcheck source=tests/vm/guest/netlib.sh
. /tests/netlib.sh

IDLE_MS=1500
run_ok "insmod mcast.ko stream_idle_ms=$IDLE_MS" insmod "$MCAST_KO" stream_idle_ms=$IDLE_MS
is "$(cat /sys/module/mcast/parameters/stream_idle_ms)" "$IDLE_MS" "the parameter reads back"

N=4
TOPO=torus:16
tx() { /usr/local/bin/ip netns exec "mcb$1" /usr/local/bin/mcast_probe tx "$2" "$3" $4; }

# seconds until node 1's receive log holds $1 messages (at most 15)
wait_msgs() {
	_t=0
	while [ "$_t" -lt 75 ]; do
		[ "$(grep -c '^msg ' "$W/rx.1")" -ge "$1" ] && break
		sleep 0.2
		_t=$((_t + 1))
	done
}

if mcastbed up bridge:4 > /dev/null 2>&1; then
	pass "mcastbed up bridge:4"
	/usr/local/bin/ip netns exec mcb1 /usr/local/bin/mcast_probe rx 0 25000 3 > "$W/rx.1" 2>&1 &
	rxpid=$!
	wait_lines 1 '^ready' "$W/rx.1" || diag "node 1's receiver was not ready within 60 s"
	tx 0 n:1 100 wait > "$W/tx" 2>&1
	# the sender's node-list stream stays busy (to node 2) for 4 s, well
	# past node 1's idle time, so the sender still has node 1's last seq
	tx 0 n:2 10 "count=8 gap=500" >> "$W/tx" 2>&1
	t0=$(date +%s)
	tx 0 n:1 200 wait >> "$W/tx" 2>&1
	wait_msgs 2
	t1=$(date +%s)
	[ $((t1 - t0)) -le 4 ] &&
		pass "after the receiver forgot the stream, the next message came at once ($((t1 - t0)) s)" ||
		fail "after the receiver forgot the stream, the next message came at once" \
			"$((t1 - t0)) s; $(cat "$W/rx.1")"
	# now both ends go idle: the sender forgets too
	sleep 3
	tx 0 n:1 300 wait >> "$W/tx" 2>&1
	wait "$rxpid"
	is "$(grep -c '^msg src=0 .* ok=1' "$W/rx.1")" 3 "node 1 got its 3 messages, byte-exact"
	is "$(grep '^msg src=0 ' "$W/rx.1" | sed 's/.* len=\([0-9]*\) .*/\1/' | tr '\n' ' ')" \
		"100 200 300 " "once each, in the order sent"
	_bad=$(grep -v 'rc=0' "$W/tx")
	is "$_bad" "" "every send succeeded"
else
	fail "mcastbed up bridge:4"
fi
mcastbed down > /dev/null 2>&1
run_ok "rmmod mcast" rmmod mcast
done_testing
tap_exit
