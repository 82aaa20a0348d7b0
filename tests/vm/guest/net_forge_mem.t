#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# One peer cannot take a node's receive memory (issue 39, item 4;
# docs/data-path.md "Bounds"), on a 2x2 torus over TCP where group 5 is
# nodes 1 and 2.  mcast_forge plays node 2 from node 2's own address
# (what any process on its host can do without a key).
#
# Last fragments: 16 datagrams of 3084 bytes, each the last fragment of
# another 4 MiB transfer (the issue's attack).  Before, node 1 allocated
# and reserved each whole message (rx_mem 64 MiB, its node cap, in 16
# jobs); now a fragment past the window a sender can have reached (64
# from the job's cum) makes no job and keeps nothing.
#
# First fragments: 16 valid first fragments (a piece naming node 1) of
# 4 MiB transfers.  Node 1 takes as many as node 2's share of the
# reassembly bytes holds (16 MiB: 3 of 4 MiB and 12 bytes) and answers
# the rest BUSY; the
# memory it allocates follows the bytes that came (a 64 KiB start per
# message), not what the headers claim; node 0's send to the group
# completes at once meanwhile (before: BUSY until the forged jobs went,
# 20 s later).
#
# Refused for a share: node 2's own real 4 MiB send to the group, while
# its share is held by the forgery, is answered BUSY and completes, once
# the forged jobs are gone, with node 1 delivering it once (what BUSY
# dropped goes again; over TCP nothing else sends it again).
#
# Lifetime: a job whose parent sends one fragment a second is dropped
# once it is older than a transfer lives (transfer_lifetime_ms, 6 s
# here): the first fragment sent again after that is new, not a
# duplicate (before: a job lived as long as a fragment per 20 s came).

# shellcheck source=tests/vm/guest/tap.sh
. /tests/tap.sh

# shellcheck source=tests/vm/guest/netlib.sh
. /tests/netlib.sh

run_ok "insmod mcast.ko" insmod "$MCAST_KO"

N=4 TOPO=torus:2x2
PORT=7447
MIB=1048576
LEN=$((4 * MIB))	# MCAST_MAX_MSG
FS=65488		# TCP: 64 KiB a datagram, less the header
SHARE=$((16 * MIB))	# MCAST_RX_MEM_PER_PEER
P=/sys/module/mcast/parameters

# what node 1 says node 2's transfers reserve there (empty: not said)
peer2_rx_mem() {
	mcastbed exec 1 mcastctl -j peer show "$(coord 2)" -s |
		sed -n 's/.*"rx_mem":\([0-9]*\).*/\1/p'
}

# node 2 (mcast_forge, from its address) sends node 1 N fragments FRAG of
# 4 MiB transfers from XID on, each with BYTES of body
forge() { # N XID FRAG BYTES [PIECE]
	mcastbed exec 2 mcast_forge tcp "$(addr_of 1)" $PORT data \
		from=2 src=2 group=5 xid="$2" seq="$2" inc=xid,seq \
		msg_len=$LEN count=1 frag="$3" ${5:+piece=$5} fill="$4" n="$1"
}

within_share() { # DESC VALUE
	case $2 in
	'' | *[!0-9]*) fail "$1" "not a number: '$2'" ;;
	*) [ "$2" -le $SHARE ] && pass "$1 ($2)" || fail "$1" "$2 > $SHARE" ;;
	esac
}

if ! _out=$(mcastbed up "$TOPO" --transport tcp 2>&1); then
	fail "mcastbed up $TOPO --transport tcp" "$_out"
	done_testing
	tap_exit
fi
pass "mcastbed up $TOPO --transport tcp"
run_ok "group 5 is nodes 1 and 2" mcastbed group 5 "$(coord 1)" "$(coord 2)"
mcastbed exec 1 mcast_probe rx 5 120000 -1 > "$W/rx.1" 2>&1 &
wait_lines 1 '^ready' "$W/rx.1" || fail "receiver ready" "$(cat "$W/rx.1")"
mem0=$(mem_avail_kb)

# the issue's 16 last fragments (4 MiB + a 12-byte piece: 65 fragments)
last=$((LEN + 12 - 64 * FS))
run_ok "node 2 forges 16 last fragments ($last bytes) of 4 MiB transfers" \
	forge 16 5000 64 "$last"
sleep 1
within_share "... node 1 reserves at most one peer's share for them: rx_mem" \
	"$(netstat_of 1 rx_mem)"

busy0=$(netstat_of 1 busy_sent)
t0=$(cut -d. -f1 /proc/uptime)
run_ok "node 2 forges 16 first fragments of 4 MiB transfers" \
	forge 16 6000 0 $((FS - 12)) 1:0
sleep 1
within_share "... node 1's rx_mem stays within node 2's share" "$(netstat_of 1 rx_mem)"
within_share "... and so does what node 1 says node 2 reserves" "$(peer2_rx_mem)"
d=$(delta "$busy0" "$(netstat_of 1 busy_sent)")
[ "$d" != none ] && [ "$d" -ge 12 ] && pass "... the rest answered BUSY ($d)" ||
	fail "node 1 answers BUSY past node 2's share" "busy_sent +$d"
out=$(mcastbed exec 0 mcast_probe tx g:5 100000 wait=10000)
case $out in
*"rc=0 nfailed=0"*) pass "node 0's send to the group completes meanwhile" ;;
*) fail "node 0's send to the group completes meanwhile" "$out" ;;
esac
mem1=$(mem_avail_kb)
[ $((mem0 - mem1)) -lt 16384 ] &&
	pass "MemAvailable fell by less than 16 MiB ($mem0 -> $mem1 kB)" ||
	fail "memory follows the bytes that came, not the headers' lengths" \
		"MemAvailable $mem0 -> $mem1 kB"

# node 2's real send, refused for its share until the forged jobs go
# (20 s after their only fragment)
out=$(mcastbed exec 2 mcast_probe tx g:5 $LEN wait=45000)
t1=$(cut -d. -f1 /proc/uptime)
case $out in
*"rc=0 nfailed=0"*) pass "node 2's own send, refused for its share, completes ($((t1 - t0)) s after the forgery)" ;;
*) fail "node 2's own send, refused for its share, completes" "$out" ;;
esac
sleep 1
is "$(grep -c "^msg src=2 .* len=$LEN .*ok=1" "$W/rx.1")" 1 "... node 1 delivered it once"

# lifetime: a fragment a second for longer than a transfer lives
life0=$(cat $P/transfer_lifetime_ms)
echo $((6000 * ${mcast_time_scale:-1})) > $P/transfer_lifetime_ms
forge 1 9000 0 $((FS - 12)) 1:0 > /dev/null
k=1
while [ $k -le $((9 * ${mcast_time_scale:-1})) ]; do
	sleep 1
	forge 1 9000 "$k" $FS > /dev/null
	k=$((k + 1))
done
dups0=$(netstat_of 1 dups)
forge 1 9000 0 $((FS - 12)) 1:0 > /dev/null
sleep 1
is "$(delta "$dups0" "$(netstat_of 1 dups)")" 0 \
	"a job refreshed every second was dropped at the transfer lifetime: its first fragment again is new"
echo "$life0" > $P/transfer_lifetime_ms

kill "$(sed -n 's/^ready .* pid=\([0-9]*\)$/\1/p' "$W/rx.1")" 2>/dev/null
wait
mcastbed down > /dev/null 2>&1
is "$(ip netns list | grep -c mcb)" 0 "no namespaces left"
run_ok "rmmod mcast" rmmod mcast
done_testing
tap_exit
