#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# What one peer's forged datagrams can do to another node's streams and
# to its parser (docs/data-path.md "Exactly once and FIFO", "Bounds",
# "Trust"), on a 2x2 torus over UDP where group 5 is nodes 1 and 2.
# mcast_forge plays node 2, from its own address and port (raw socket):
# a configured peer that lies, as one without the key (or any key
# holder) can.
#
#  - A DATA for a group node 1 does not have makes no stream there
#    (before: one per group named, up to the node's cap).
#  - Poisoning: a DATA claiming to be node 0's, seq 2^63, prev 0: refused,
#    a seq beyond any sender's clock (before: delivered, node 1's stream
#    (0, 5) ended at 2^63, node 0's next three completion-mode sends
#    returned 0 while node 1 delivered none of them, counted as
#    duplicates; once forgotten the stream hit a WARNING in xa_mk_value).
#  - The same 5 s ahead of the clock (within seq_skew_ms, so taken): node
#    0's send right after it is delivered to node 1 or reports node 1
#    failed, never a success without a delivery; 6 s later node 0's
#    seqs, which follow its clock, are past the forged one and its send
#    completes and is delivered (before: both silently lost, "delivered").
#    The streams are then forgotten (idle 2 s here): no warning.
#  - A copy of a held message: node 2 sends node 1 its message M (seq
#    S, prev S-1, which never comes: held for the gap time, 3 s here),
#    then the same M again as another transfer (a takeover's or a
#    rewound transfer's copy).  The copy's DONE comes with M's, when M is
#    delivered after the gap, not before it (before: at once, "delivered"
#    for a message still held, which the gap, a cut-off reader or the
#    stream's end could yet lose).
#  - One peer's share of streams: node 1 has 1100 more groups (its own,
#    configured there only); node 2 sends DATA for every (src, group) of
#    them, 4400 streams: node 1 keeps 4096 of them (MCAST_STREAMS_PER_PEER,
#    shown as node 2's "streams" in peer show -s) and answers the rest
#    BUSY, and node 0's first message on a new group still completes at
#    once (before: no share, all 4400 taken).
#  - Lengths, with the cluster key: node 1, whose answers are held back
#    so that node 0's transfer to it stays open, sends node 0 a sealed
#    DONE for that transfer 75 bytes long: 47 bytes of header, one short,
#    and the trailer (its counter one above node 1's last at node 0).  It is counted malformed once and read no
#    further; the send then completes (before: the header's count of ids
#    was read past the datagram, each counted malformed: hundreds).

# shellcheck source=tests/vm/guest/tap.sh
. /tests/tap.sh

# shellcheck source=tests/vm/guest/netlib.sh
. /tests/netlib.sh

new_keys "$W/k1"
run_ok "insmod mcast.ko" insmod "$MCAST_KO"

N=4 TOPO=torus:2x2
PORT=7447
P=/sys/module/mcast/parameters

# node 2, as itself, sends node 1 a DATA
as2() { # FIELD=V..
	mcastbed exec 2 mcast_forge raw sport=$PORT "$(addr_of 1)" $PORT data \
		from=2 "$@" > /dev/null
}

start_rx() { # NODE
	mcastbed exec "$1" mcast_probe rx 5 120000 -1 > "$W/rx.$1" 2>&1 &
	wait_lines 1 '^ready' "$W/rx.$1" || fail "receiver $1 ready" "$(cat "$W/rx.$1")"
}

stop_rx() {
	for _n in 1 2; do
		kill "$(sed -n 's/^ready .* pid=\([0-9]*\)$/\1/p' "$W/rx.$_n")" 2>/dev/null
	done
	wait
}

# node 0 sends SIZE bytes to group 5 in completion mode
send5() { # SIZE
	mcastbed exec 0 mcast_probe tx g:5 "$1" wait=20000
}

# how many of node 0's messages of SIZE bytes node 1 delivered
got1() { # SIZE
	grep -c "^msg src=0 .* len=$1 .*ok=1" "$W/rx.1"
}

no_group_no_stream() {
	s0=$(netstat_of 1 streams)
	run_ok "node 2 sends node 1 a message for group 77, which node 1 does not have" \
		as2 src=3 group=77 xid=500 seq=1000 piece=1:0 text=nogroup
	sleep 1
	is "$(netstat_of 1 streams)" "$s0" "... and node 1 made no stream for it"
}

poison() {
	start_rx 1
	start_rx 2
	m0=$(netstat_of 1 rx_malformed)
	run_ok "node 2 sends node 1 a DATA as node 0's, seq 2^63, prev 0" \
		as2 src=0 group=5 xid=501 seq=9223372036854775808 piece=1:0
	sleep 1
	is "$(delta "$m0" "$(netstat_of 1 rx_malformed)")" 1 "... refused: a seq beyond the clock (rx_malformed)"
	ok=0
	for k in 1 2 3; do
		case $(send5 $((1000 + k))) in
		*"rc=0 nfailed=0"*) ok=$((ok + 1)) ;;
		esac
	done
	is "$ok" 3 "node 0's next three sends complete"

	F=$((($(date +%s) + 5) * 1048576))
	run_ok "node 2 sends node 1 a DATA as node 0's, 5 s ahead of the clock" \
		as2 src=0 group=5 xid=502 seq=$F piece=1:0 text=ahead
	out_a=$(send5 1100)
	sleep 6
	out_b=$(send5 1200)
	sleep 1
	stop_rx
	is "$(got1 1001):$(got1 1002):$(got1 1003)" 1:1:1 "node 1 delivered those three, once each"
	is "$(grep -c '^msg src=0 .* seq=9223372036854775808 ' "$W/rx.1")" 0 "... and not the forged one"
	n_a=$(got1 1100)
	case "$n_a:$out_a" in
	1:*"rc=0 nfailed=0"*) pass "the send right after it: delivered and reported so" ;;
	0:*failed=1*) pass "the send right after it: not delivered and node 1 reported failed ($out_a)" ;;
	*) fail "the send right after it: delivered, or node 1 reported failed" \
		"delivered $n_a times; $out_a" ;;
	esac
	case $out_b in
	*"rc=0 nfailed=0"*) pass "6 s later node 0's send completes" ;;
	*) fail "6 s later node 0's send completes" "$out_b" ;;
	esac
	is "$(got1 1200)" 1 "... and node 1 delivered it"

	# forget every stream: nothing in them may upset the expiry
	old=$(cat $P/stream_idle_ms)
	echo 2000 > $P/stream_idle_ms
	_i=0
	while [ "$(netstat_of 1 streams)" != 0 ] && [ $_i -lt 30 ]; do
		sleep 1
		_i=$((_i + 1))
	done
	is "$(netstat_of 1 streams)" 0 "node 1 forgot its streams (idle 2 s)"
	echo "$old" > $P/stream_idle_ms
	is "$(dmesg | grep -c 'WARNING')" 0 "no kernel warning"
}

# what node 1 sends to node 2's port, each line after the uptime it came
watch2() { # MS
	mcastbed exec 2 mcast_forge raw sport=$PORT "$(addr_of 1)" $PORT ack \
		n=0 listen="$1" | while IFS= read -r _l; do
		read -r _up _ < /proc/uptime
		echo "$_up $_l"
	done
}

# the uptime of the first DONE of transfer XID in FILE, in centiseconds
done_at() { # XID FILE
	sed -n "s/^\([0-9]*\)\.\([0-9]*\) got done .* xid=$1 .*/\1\2/p" "$2" | head -n 1
}

held_copy() {
	start_rx 1
	gap0=$(cat $P/fifo_gap_ms)
	echo $((3000 * ${mcast_time_scale:-1})) > $P/fifo_gap_ms
	d0=$(netstat_of 1 dups)
	watch2 $((9000 * ${mcast_time_scale:-1})) > "$W/held" 2>&1 &
	wl=$!
	sleep 1
	S=$(($(date +%s) * 1048576))
	run_ok "node 2 sends node 1 its message M, whose predecessor never comes" \
		as2 src=2 group=5 xid=700 seq=$S piece=1:$((S - 1)) text=heldcopy
	run_ok "... and M again, as another transfer" \
		as2 src=2 group=5 xid=701 seq=$S piece=1:$((S - 1)) text=heldcopy
	read -r t_copy _ < /proc/uptime
	wait "$wl"
	echo "$gap0" > $P/fifo_gap_ms
	stop_rx
	is "$(grep -c '^msg src=2 .* len=8 ' "$W/rx.1")" 1 "node 1 delivered M once, after the gap"
	is "$(delta "$d0" "$(netstat_of 1 dups)")" 1 "... and counted the copy a duplicate"
	a=$(done_at 700 "$W/held") b=$(done_at 701 "$W/held")
	c=$(echo "$t_copy" | tr -d .)
	if [ -z "$a" ] || [ -z "$b" ]; then
		fail "node 1 answers both transfers with DONE" "$(cat "$W/held")"
	elif [ "$b" -ge $((a - 50)) ] && [ "$b" -ge $((c + 150 * ${mcast_time_scale:-1})) ]; then
		pass "the copy's DONE came with M's (at ${b}0 ms, M's ${a}0 ms, the copy sent by ${c}0 ms)"
	else
		fail "the copy's DONE waits for M's delivery" \
			"copy's DONE at ${b}0 ms, M's at ${a}0 ms, the copy sent by ${c}0 ms"
	fi
	grep -q "got done .* xid=701 .*ids=[0-9]" "$W/held" &&
		fail "the copy's DONE says M delivered" "$(grep 'xid=701' "$W/held")" ||
		pass "the copy's DONE says M delivered"
}

stream_share() {
	g=1000
	while [ $g -lt 2100 ]; do
		echo "group add $g"
		g=$((g + 1))
	done > "$W/groups"
	run_ok "node 1 has 1100 more groups" sh -c "mcastbed exec 1 mcastctl -batch - < $W/groups"
	run_ok "group 3000 is node 1" mcastbed group 3000 "$(coord 1)"
	b0=$(netstat_of 1 busy_sent)
	# twice, so that what a full socket dropped the first time comes
	for pass in 0 1; do
		for src in 0 1 2 3; do
			as2 src=$src group=1000 inc=xid,group xid=$((20000 + pass * 10000 + src * 2000)) \
				seq=5000 piece=1:0 n=1100 ||
				fail "node 2 sends 1100 DATA as node $src's"
			sleep 1
		done
	done
	sleep 2
	st=$(mcastbed exec 1 mcastctl -j peer show "$(coord 2)" -s |
		sed -n 's/.*"streams":\([0-9]*\).*/\1/p')
	is "$st" 4096 "node 2's datagrams made 4096 streams at node 1, its share (peer show -s)"
	s=$(netstat_of 1 streams)
	[ "${s:-99999}" -le 4100 ] && pass "node 1 holds $s streams in all" ||
		fail "node 1 holds at most one peer's share (and a few more)" "streams=$s"
	d=$(delta "$b0" "$(netstat_of 1 busy_sent)")
	[ "$d" != none ] && [ "$d" -ge 300 ] && pass "... and answered the rest BUSY ($d)" ||
		fail "node 1 answers BUSY past node 2's share" "busy_sent +$d"
	# on a slow kernel node 1 may miss node 0's retries' round trips
	# while it works through the forged datagrams
	[ "${mcast_time_scale:-1}" -le 1 ] ||
		mcastbed exec 0 mcastctl node set retries 30
	case $(mcastbed exec 0 mcast_probe tx g:3000 300 wait=5000) in
	*"rc=0 nfailed=0"*) pass "node 0's first message on group 3000 completes" ;;
	*) fail "node 0's first message on group 3000 completes" ;;
	esac
}

short_done() {
	for _n in 0 1 2 3; do
		mcastbed exec "$_n" mcastctl node set key "$W/k1" ||
			fail "node $_n installs the key"
	done
	start_rx 1
	start_rx 2
	# the forgery's counter must be one node 0 takes, and leave node
	# 1's own later ones fresh: one above the last node 0 has seen
	mcastbed exec 0 mcast_forge raw sport=$PORT "$(addr_of 1)" $PORT ack \
		n=0 listen=3000 > "$W/ctr" 2>&1 &
	cl=$!
	sleep 1
	send5 100 > /dev/null
	wait "$cl"
	C=$(sed -n 's/^got .* ctr=\([0-9]*\).*/\1/p' "$W/ctr" | tail -n 1)
	[ -n "$C" ] && pass "node 1's counter at node 0 is $C" ||
		fail "node 1's counter read off its datagrams" "$(cat "$W/ctr")"
	run_ok "node 0 retries 20 times" mcastbed exec 0 mcastctl node set retries 20
	# node 1's ACKs and DONEs, but those with flag 0x08 (no one reads it)
	run_ok "node 1's answers are dropped" drop_sent 1 add 2 0xfe 0 0x08
	mcastbed exec 1 mcast_forge raw sport=$PORT "$(addr_of 0)" $PORT ack \
		from=1 n=0 listen=8000 > "$W/watch" 2>&1 &
	wl=$!
	sleep 1
	mcastbed exec 0 mcast_probe tx g:5 3000 wait=30000 > "$W/tx" 2>&1 &
	tx=$!
	wait_lines 1 '^got data' "$W/watch"
	xid=$(sed -n 's/^got data .* xid=\([0-9]*\) .*/\1/p' "$W/watch" | head -n 1)
	m0=$(netstat_of 0 rx_malformed)
	run_ok "node 1 sends node 0 a sealed DONE of 75 bytes for transfer ${xid:-?}" \
		mcastbed exec 1 mcast_forge raw sport=$PORT "$(addr_of 0)" $PORT "done" \
		from=1 xid="${xid:-0}" step=4242 flags=8 count=344 key="$W/k1" to=0 \
		ctr=$((${C:-0} + 1)) cut=47
	sleep 1
	is "$(delta "$m0" "$(netstat_of 0 rx_malformed)")" 1 "node 0 counted it malformed, once (nothing read past it)"
	run_ok "node 1's answers go again" drop_sent 1 del
	wait "$tx"
	kill "$wl" 2>/dev/null
	wait "$wl" 2>/dev/null
	grep -q 'rc=0 nfailed=0' "$W/tx" && pass "node 0's send completes" ||
		fail "node 0's send completes" "$(cat "$W/tx")"
	sleep 1
	stop_rx
	is "$(got1 3000)" 1 "node 1 delivered it once"
}

if _out=$(mcastbed up "$TOPO" --transport udp 2>&1); then
	pass "mcastbed up $TOPO --transport udp"
	run_ok "group 5 is nodes 1 and 2" mcastbed group 5 "$(coord 1)" "$(coord 2)"
	no_group_no_stream
	poison
	held_copy
	stream_share
	short_done
	mcastbed down > /dev/null 2>&1
else
	fail "mcastbed up $TOPO --transport udp" "$_out"
fi

is "$(ip netns list | grep -c mcb)" 0 "no namespaces left"
run_ok "rmmod mcast" rmmod mcast
done_testing
tap_exit
