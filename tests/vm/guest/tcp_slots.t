#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# The TCP transport's accepted connections (docs/transports.md,
# "Connections"), on a 2x2 torus on TCP where group 5 is node 1.
#
#  - Slots: a process on node 2's host (mcast_forge hold, from node 2's
#    address) opens 1100 connections to node 1's port and leaves them
#    idle.  Node 1 holds at most 4 of them (MCAST_TCP_PER_NODE, one node
#    at that address), closing the oldest for each newer one; node 0's
#    send to node 1 and node 2's own (a real peer at the forger's address)
#    complete while the forger holds its slots, each delivered once; the
#    ones it keeps are closed once tcp_auth_ms (4 s here) passes without
#    a frame node 1 believes; all counted (tcp_evicted, tcp_unauthed) and
#    shown by mcastctl stats.  (Before: 1024 held, node 0's send failed
#    with EHOSTUNREACH until the holder let go; nothing was closed.)
#  - Storm: the forger keeps 16 connections, making each again as soon as
#    node 1 closes it, while node 2 sends 3 messages: they complete, node
#    2's believed connection is not the one closed.
#  - Checks: a frame of another version, and one naming node 0 from node
#    2's address, each closes its connection (tcp_bad_frames).
#  - Idle: a peer's connection that sent nothing for tcp_idle_ms (3 s
#    here) is closed (tcp_idle); node 0's next send makes a new one and
#    completes.
#  - Key: with a cluster key, an unsealed frame from node 2's address
#    closes its connection, and node 2's sealed send completes.

# shellcheck source=tests/vm/guest/tap.sh
. /tests/tap.sh

# shellcheck source=tests/vm/guest/netlib.sh
. /tests/netlib.sh

new_keys "$W/k1"
run_ok "insmod mcast.ko" insmod "$MCAST_KO"
P=/sys/module/mcast/parameters
echo 4000 > $P/tcp_auth_ms 2>/dev/null
echo 3000 > $P/tcp_idle_ms 2>/dev/null

N=4 TOPO=torus:2x2
PORT=7447
A1=$(addr_of 1)

send_ok() { # DESC NODE SIZE
	_o=$(mcastbed exec "$2" mcast_probe tx g:5 "$3" wait=20000)
	case $_o in
	*"rc=0 nfailed=0"*) pass "$1" ;;
	*) fail "$1" "$_o" "node 1: $(mcastbed exec 1 mcast_probe stats | sed -n 's/^netstats //p')" ;;
	esac
}

# node 1's counter NAME now minus BEFORE
grew() { # BEFORE NAME
	delta "$1" "$(netstat_of 1 "$2")"
}

if ! _out=$(mcastbed up "$TOPO" --transport tcp 2>&1); then
	fail "mcastbed up $TOPO --transport tcp" "$_out"
	done_testing
	tap_exit
fi
pass "mcastbed up $TOPO --transport tcp"
run_ok "group 5 is node 1" mcastbed group 5 "$(coord 1)"
mcastbed exec 1 mcast_probe rx 5 120000 -1 > "$W/rx.1" 2>&1 &
wait_lines 1 '^ready' "$W/rx.1" || fail "receiver on node 1 ready" "$(cat "$W/rx.1")"

# ---- slots
id0=$(netstat_of 1 tcp_idle)
ev0=$(netstat_of 1 tcp_evicted) un0=$(netstat_of 1 tcp_unauthed)
mcastbed exec 2 mcast_forge tcp "$A1" $PORT hold n=1100 ms=8000 > "$W/hold" 2>&1 &
hp=$!
if wait_lines 1 '^held' "$W/hold"; then
	pass "forger on node 2's host: $(head -n 1 "$W/hold")"
else
	fail "forger on node 2's host connected" "$(cat "$W/hold")"
fi
held=$(sed -n 's/^held \([0-9]*\) .*/\1/p' "$W/hold")
c=$(netstat_of 1 tcp_conns)
[ -n "$c" ] && [ "$c" -le 4 ] &&
	pass "node 1 holds at most 4 connections from that address ($c)" ||
	fail "node 1 holds at most 4 connections from that address" "tcp_conns '$c'"
send_ok "node 0's send to node 1 completes while the forger holds its slots" 0 3000
send_ok "node 2's own send (the forger's address) completes too" 2 5000
wait "$hp"
diag "forger: $(tail -n 1 "$W/hold")"
case $(tail -n 1 "$W/hold") in
"closed $held of $held "*) pass "node 1 closed every one of the forger's $held connections" ;;
*) fail "node 1 closed every one of the forger's connections" "$(cat "$W/hold")" ;;
esac
ev=$(grew "$ev0" tcp_evicted) un=$(grew "$un0" tcp_unauthed)
[ "$ev" != none ] && [ "$un" != none ] && [ $((ev + un)) -ge "$held" ] &&
	[ "$un" -ge 1 ] &&
	pass "counted: $ev evicted for newer ones, $un for no frame in tcp_auth_ms" ||
	fail "counted: evicted and unauthed" "tcp_evicted +$ev tcp_unauthed +$un, held $held"
# stats show's text: one "  name  value" line a counter, in its area.
st=$(mcastbed exec 1 mcastctl stats)
if printf '%s\n' "$st" | grep -Eq '^ +tcp_evicted +[1-9][0-9]*$' &&
	printf '%s\n' "$st" | grep -Eq '^ +tcp_unauthed +[1-9][0-9]*$'; then
	pass "mcastctl stats shows them"
else
	fail "mcastctl stats shows them" "$st"
fi

# ---- storm
ev0=$(netstat_of 1 tcp_evicted)
mcastbed exec 2 mcast_forge tcp "$A1" $PORT hold n=16 ms=5000 refill=1 > "$W/storm" 2>&1 &
sp=$!
wait_lines 1 '^held' "$W/storm" || fail "storm started" "$(cat "$W/storm")"
k=0 okn=0
while [ $k -lt 3 ]; do
	case $(mcastbed exec 2 mcast_probe tx g:5 $((700 + k)) wait=20000) in
	*"rc=0 nfailed=0"*) okn=$((okn + 1)) ;;
	esac
	k=$((k + 1))
done
is "$okn" 3 "node 2's 3 sends complete while its address is stormed"
wait "$sp"
diag "storm: $(tail -n 1 "$W/storm"), node 1 evicted +$(grew "$ev0" tcp_evicted)"

# ---- checks
bf0=$(netstat_of 1 tcp_bad_frames)
run_ok "a frame of another version from node 2's address" \
	mcastbed exec 2 mcast_forge tcp "$A1" $PORT data version=7 from=2 src=2 \
	group=5 piece=1:0 text=v7
run_ok "a frame naming node 0 from node 2's address" \
	mcastbed exec 2 mcast_forge tcp "$A1" $PORT data from=0 src=0 xid=99 \
	seq=99 group=5 piece=1:0 text=spoof
sleep 1
is "$(grew "$bf0" tcp_bad_frames)" 2 "node 1 closed both connections, counted in tcp_bad_frames"

# ---- idle (the real connections were idle before, too)
t=0
while [ "$(netstat_of 1 tcp_conns)" != 0 ] && [ $t -lt 20 ]; do
	sleep 0.5
	t=$((t + 1))
done
is "$(netstat_of 1 tcp_conns)" 0 "node 1 closed the peers' idle connections"
i=$(grew "$id0" tcp_idle)
[ "$i" != none ] && [ "$i" -ge 1 ] && pass "counted in tcp_idle (+$i)" ||
	fail "counted in tcp_idle" "tcp_idle +$i"
send_ok "node 0's next send makes a new connection and completes" 0 4000

# ---- key
bad=''
for n in 0 1 2 3; do
	mcastbed exec "$n" mcastctl node set key "$W/k1" > /dev/null 2>&1 || bad="$bad $n"
done
is "$bad" "" "every node installs a key"
bf0=$(netstat_of 1 tcp_bad_frames) ba0=$(netstat_of 1 rx_bad_auth)
run_ok "an unsealed frame from node 2's address" \
	mcastbed exec 2 mcast_forge tcp "$A1" $PORT data from=2 src=2 xid=98 \
	seq=98 group=5 piece=1:0 text=nokey
sleep 1
is "$(grew "$bf0" tcp_bad_frames)/$(grew "$ba0" rx_bad_auth)" 1/1 \
	"node 1 closed it (tcp_bad_frames, rx_bad_auth)"
send_ok "node 2's sealed send completes" 2 6000

sleep 1
kill "$(sed -n 's/^ready .* pid=\([0-9]*\)$/\1/p' "$W/rx.1")" 2>/dev/null
wait
# 0: 3000, 4000; 2: 5000, 700-702, 6000
got0=$(grep -c '^msg src=0 .*ok=1' "$W/rx.1")
got2=$(grep -c '^msg src=2 .*ok=1' "$W/rx.1")
is "$got0/$got2/$(grep -c '^msg ' "$W/rx.1")" 2/5/7 \
	"node 1 delivered node 0's 2 and node 2's 5 real messages, once each, nothing forged"

mcastbed down > /dev/null 2>&1
is "$(ip netns list | grep -c mcb)" 0 "no namespaces left"
run_ok "rmmod mcast" rmmod mcast
done_testing
tap_exit
