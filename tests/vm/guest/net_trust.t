#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# Trust on the wire (docs/data-path.md, "Trust" and "Bounds"), over each
# transport on a 2x2 torus where node 1 receives group 5.
#
# Who may speak: a datagram counts only if it comes from the configured
# address (and, on UDP, port) of the node it names as its sender.
# mcast_forge sends node 1 node 0's message with sequence number 2^62:
# from node 3, which node 1 does not know as a peer; from node 2, a peer
# naming node 0; on UDP from node 0's address but another port.  Nothing
# forged is delivered, node 1 counts each in rx_bad_src, and node 0's real
# message then still arrives, exactly once (before, the forged seq raised
# node 0's stream floor and the real message was dropped as a duplicate
# while its send reported success).
#
# What a peer may say: node 2, as itself (on UDP from its own port, over a
# raw socket), sends 15 header-only DATA claiming 4 MiB messages (before:
# 95 MB held), a piece that repeats node 1 (before: delivered, and
# forwarded along the repeats), and 20 duplicates of a finished transfer,
# with and without their body (before: an ACK and a DONE for each, before
# any length check).  Node 1 holds no memory for them, counts them in
# rx_malformed, delivers only the one good message, and answers the
# duplicates with no more datagrams than came in.  Then the offload path's
# fields: an unknown algorithm, Mu-torus without r, r for S-torus, the
# chain flag on U-torus, compound tables without a head for node 1, with
# two, with a level above the torus's, with flags on a non-head entry, and
# a chain whose first piece is another node's: each refused and counted;
# a good S-torus worm is delivered once.  Then recursion-based
# broadcast's ranges (flag 0x40; the table is a prev per node, then
# ports | order << 8 and the length): a table of the wrong length, out of
# node order, with algorithm bits, the chain flag or a pad, an unknown
# port model or order, a length past any send or below one byte per unit,
# a step the schedule has no transfer in, the wrong number of bytes: each
# refused and counted; a good first range (node 2's broadcast: node 1 gets
# bytes [4,8) in step 0) is taken but not delivered alone, and past
# MCAST_RB_PER_PEER (64, a sender's messages in flight) broadcasts from
# one sender node 1 answers BUSY.  REPORTs that are another root's, whose
# body is not their count of ids, or that name a node outside the torus
# are counted malformed.

# shellcheck source=tests/vm/guest/tap.sh
. /tests/tap.sh

# shellcheck source=tests/vm/guest/netlib.sh
. /tests/netlib.sh

run_ok "insmod mcast.ko" insmod "$MCAST_KO"

N=4 TOPO=torus:2x2
BIG=4611686018427387904		# 2^62
PORT=7447

# forge NODE [ARGS..]: mcast_forge run on NODE, to node 1
forge() {
	_n=$1
	shift
	mcastbed exec "$_n" mcast_forge "$@"
}

# who may speak for node 0 (see the top)
trust_sources() {
	run_ok "$TP: node 1 forgets node 3" mcastbed exec 1 mcastctl peer del "$(coord 3)"
	# stops 200 ms after its first message: a forged one delivered
	# first would leave node 0's real one out (a slow kernel needs the
	# long wait for the first)
	mcastbed exec 1 mcast_probe rx 5 30000 1 > "$W/rx.1" 2>&1 &
	rxpid=$!
	wait_lines 1 '^ready' "$W/rx.1" || fail "$TP: receiver ready" "$(cat "$W/rx.1")"
	bad0=$(netstat_of 1 rx_bad_src)

	fields="src=0 from=0 seq=$BIG group=5 piece=1:0 text=forged"
	# shellcheck disable=SC2086
	forge 3 $OPT "$(addr_of 1)" $PORT data xid=1 $fields > "$W/forge" 2>&1
	# shellcheck disable=SC2086
	run_ok "$TP: node 2 sends a datagram naming node 0" \
		forge 2 $OPT "$(addr_of 1)" $PORT data xid=2 $fields
	want=2
	if [ "$TP" = udp ]; then
		# shellcheck disable=SC2086
		run_ok "$TP: node 0's address, another port, sends one" \
			forge 0 sport=9999 "$(addr_of 1)" $PORT data xid=3 $fields
		want=3
	fi
	sleep 1
	bad1=$(netstat_of 1 rx_bad_src)
	d=$(delta "$bad0" "$bad1")
	[ "$d" != none ] && [ "$d" -ge "$want" ] &&
		pass "$TP: node 1 counted $d datagrams or connections in rx_bad_src" ||
		fail "$TP: node 1 counts the forgeries in rx_bad_src" \
			"$bad0 -> $bad1, $want expected; forge from node 3: $(cat "$W/forge")"

	out=$(mcastbed exec 0 mcast_probe tx g:5 100 wait=10000)
	case $out in
	*"rc=0 nfailed=0"*) pass "$TP: node 0's real send completes" ;;
	*) fail "$TP: node 0's real send completes" "$out" ;;
	esac
	wait "$rxpid"
	is "$(grep -c "seq=$BIG" "$W/rx.1")" 0 "$TP: nothing forged was delivered"
	got=$(grep -c '^msg src=0 .* len=100 .*ok=1' "$W/rx.1")
	[ "$got" = 1 ] && pass "$TP: node 0's real message arrived once" ||
		fail "$TP: node 0's real message arrived once" "$(cat "$W/rx.1")"
	run_ok "$TP: node 1 knows node 3 again" mcastbed exec 1 mcastctl peer add \
		"$(coord 3)" addr "$(addr_of 3)" port $PORT
}

# node 2 speaking for itself: to node 1, as node 2, from node 2's port
as_peer() { # FIELD=V..
	# shellcheck disable=SC2086
	forge 2 $PEER_OPT "$(addr_of 1)" $PORT data src=2 from=2 group=5 "$@"
}

# the offload path's fields from a peer (see the top): bad algorithm bits,
# r, chain flag and compound tables are refused; a good worm is taken
trust_worms() {
	mcastbed exec 1 mcast_probe rx 5 20000 > "$W/rx.1" 2>&1 &
	rxpid=$!
	wait_lines 1 '^ready' "$W/rx.1" || fail "$TP: receiver ready" "$(cat "$W/rx.1")"
	mal0=$(netstat_of 1 rx_malformed)
	x=400
	# (0x18: algorithm 6, a hypercube's, pad 4 no such one; torus:2x2 is
	# the 2-cube.  Then maxport's piece 1 2 0 3, not cube-ordered, and a
	# ring's chain table (0x3c: algorithm 7 and the chain flag) naming 3
	# twice)
	for bad in "flags=0x18 pad=4 piece=1:0" "flags=0x10 pad=0 piece=0x80000001:0" \
		"flags=0x08 pad=4 piece=0x80000001:0" "flags=0x20 piece=1:0" \
		"flags=0x08 piece=1:0" "flags=0x08 piece=0x80000001:0,0x80000001:0" \
		"flags=0x08 piece=0x89000001:0" "flags=0x08 piece=0x80000001:0,0x40000003:0" \
		"flags=0x28 piece=0x80000003:0,0x80000001:0" \
		"flags=0x18 pad=1 piece=1:0,2:0,0:0,3:0" \
		"flags=0x3c piece=0x80000001:0,0x80000003:0,0x80000003:0"; do
		# shellcheck disable=SC2086
		as_peer xid=$x seq=$x $bad text=bad > /dev/null 2>&1 ||
			fail "$TP: mcast_forge $bad"
		x=$((x + 1))
	done
	run_ok "$TP: node 2 sends a good s-torus worm" \
		as_peer xid=500 seq=500 step=1 flags=0x08 piece=0x80000001:0 text=worm
	run_ok "$TP: node 2 sends a good maxport piece" \
		as_peer xid=501 seq=501 step=1 flags=0x18 pad=1 piece=1:0 text=cube
	sleep 1
	mal1=$(netstat_of 1 rx_malformed)
	is "$(delta "$mal0" "$mal1")" 11 "$TP: 11 DATA with bad offload or hypercube fields (algorithm, r, chain flag, heads, level, flags, cube order, a ring's repeat) counted in rx_malformed"
	kill "$(sed -n 's/^ready .* pid=\([0-9]*\)$/\1/p' "$W/rx.1")" 2>/dev/null
	wait "$rxpid"
	is "$(grep -c '^msg src=2 seq=500 len=4 group=5 step=1 from=2 ' "$W/rx.1")" 1 \
		"$TP: the good worm delivered once, in phase 1 from node 2"
	is "$(grep -c '^msg src=2 seq=501 len=4 group=5 step=1 from=2 ' "$W/rx.1")" 1 \
		"$TP: the good maxport piece delivered once"
	is "$(grep -c '^msg ' "$W/rx.1")" 2 "$TP: nothing bad delivered"
}

# recursion-based broadcast's ranges from a peer (see the top)
trust_rb() {
	mcastbed exec 1 mcast_probe rx 5 5000 > "$W/rx.1" 2>&1 &
	rxpid=$!
	wait_lines 1 '^ready' "$W/rx.1" || fail "$TP: receiver ready" "$(cat "$W/rx.1")"
	mal0=$(netstat_of 1 rx_malformed)
	T=0:0,1:0,2:0,3:0
	x=700
	for bad in "piece=$T text=WXYZ" "piece=1:0,0:0,2:0,3:0,0:8 text=WXYZ" \
		"flags=0x48 piece=$T,0:8 text=WXYZ" "flags=0x60 piece=$T,0:8 text=WXYZ" \
		"pad=1 piece=$T,0:8 text=WXYZ" "piece=$T,2:8 text=WXYZ" \
		"piece=$T,0x200:8 text=WXYZ" "piece=$T,0x10000:8 text=WXYZ" \
		"piece=$T,0:8388608 text=WXYZ" \
		"piece=$T,0:1 text=W" "step=5 piece=$T,0:8 text=WXYZ" \
		"piece=$T,0:8 text=WXY"; do
		case $bad in
		flags=*) f='' ;;
		*) f=flags=0x40 ;;
		esac
		# shellcheck disable=SC2086
		as_peer xid=$x seq=$x $f $bad > /dev/null 2>&1 ||
			fail "$TP: mcast_forge $bad"
		x=$((x + 1))
	done
	sleep 1
	mal1=$(netstat_of 1 rx_malformed)
	is "$(delta "$mal0" "$mal1")" 12 "$TP: 12 DATA with bad RB ranges (table, flags, ports, order, bits above them, length, step, bytes) counted in rx_malformed"
	busy0=$(netstat_of 1 busy_sent)
	run_ok "$TP: node 2 sends good first ranges of 67 broadcasts" \
		as_peer xid=800 seq=800 flags=0x40 piece=$T,0:8 text=WXYZ n=67 inc=xid,seq
	sleep 1
	is "$(netstat_of 1 rx_malformed)" "$mal1" "$TP: ... none malformed"
	busy1=$(netstat_of 1 busy_sent)
	is "$(delta "$busy0" "$busy1")" 3 "$TP: ... 64 taken, the 3 past MCAST_RB_PER_PEER (a sender's messages in flight) answered BUSY"
	# REPORTs (type 4) node 1 did not ask for: another root's, a body
	# that is not count ids, an id outside the torus; then a well-formed
	# one for a broadcast node 1 does not have, answered and ignored
	mal2=$(netstat_of 1 rx_malformed)
	for bad in "src=0 count=0" "src=1 count=1 text=AB" \
		"src=1 count=3 piece=99:0"; do
		# shellcheck disable=SC2086
		forge 2 $PEER_OPT "$(addr_of 1)" $PORT 4 from=2 seq=900 $bad \
			> /dev/null 2>&1 || fail "$TP: mcast_forge report $bad"
	done
	# shellcheck disable=SC2086 # PEER_OPT: one or two words
	run_ok "$TP: node 2 sends a well-formed report" \
		forge 2 $PEER_OPT "$(addr_of 1)" $PORT 4 from=2 src=1 seq=901 count=0 flags=0x40
	sleep 1
	is "$(delta "$mal2" "$(netstat_of 1 rx_malformed)")" 3 \
		"$TP: 3 malformed REPORTs counted in rx_malformed, the well-formed one not"
	wait "$rxpid"
	is "$(grep -c '^msg ' "$W/rx.1")" 0 "$TP: nothing delivered from ranges alone"
}

# what a peer may say (see the top)
trust_peer() {
	PEER_OPT=tcp
	[ "$TP" = tcp ] || PEER_OPT="raw sport=$PORT"
	mcastbed exec 1 mcast_probe rx 5 60000 > "$W/rx.1" 2>&1 &
	rxpid=$!
	wait_lines 1 '^ready' "$W/rx.1" || fail "$TP: receiver ready" "$(cat "$W/rx.1")"
	mal0=$(netstat_of 1 rx_malformed)
	x=100
	while [ $x -lt 115 ]; do
		as_peer xid=$x seq=$x msg_len=4194304 count=1 > /dev/null 2>&1 ||
			fail "$TP: mcast_forge header-only $x"
		x=$((x + 1))
	done
	sleep 1
	is "$(netstat_of 1 rx_mem)" 0 "$TP: 15 header-only DATA of 4 MiB messages: node 1 holds nothing"
	mal1=$(netstat_of 1 rx_malformed)
	is "$(delta "$mal0" "$mal1")" 15 "$TP: ... and counted 15 in rx_malformed"

	tx0=$(netstat_of 1 tx_packets)
	run_ok "$TP: node 2 sends a piece 1,3,1,3" \
		as_peer xid=200 seq=200 piece=1:0,3:0,1:0,3:0 text=repeats
	sleep 1
	mal2=$(netstat_of 1 rx_malformed) tx1=$(netstat_of 1 tx_packets)
	is "$(delta "$mal1" "$mal2")" 1 "$TP: node 1 rejected the piece (rx_malformed)"
	d=$(delta "$tx0" "$tx1")
	[ "$d" != none ] && [ "$d" -le 2 ] &&
		pass "$TP: ... and sent $d datagrams for it (ACK, DONE), forwarding nothing" ||
		fail "$TP: node 1 forwards nothing along a bad piece" "sent $d"

	run_ok "$TP: node 2 sends one good message" \
		as_peer xid=300 seq=300 piece=1:0 text=good
	sleep 1
	tx0=$(netstat_of 1 tx_packets) mal0=$(netstat_of 1 rx_malformed)
	bad0=$(netstat_of 1 tcp_bad_frames)
	run_ok "$TP: node 2 repeats it 20 times" \
		as_peer xid=300 seq=300 piece=1:0 text=good n=20
	if fout=$(as_peer xid=300 seq=300 count=1 msg_len=4 n=20 2>&1); then
		pass "$TP: ... and 20 times without its body"
	else
		fail "$TP: ... and 20 times without its body" "$fout"
	fi
	sleep 1
	tx1=$(netstat_of 1 tx_packets) mal1=$(netstat_of 1 rx_malformed)
	d=$(delta "$tx0" "$tx1")
	# one ACK each, and the DONE again at most once per 10 ms tick: at
	# most two small datagrams per duplicate however slow the kernel
	# (before: the ACK and the whole DONE list, 1160 datagrams for 20)
	[ "$d" != none ] && [ "$d" -le 40 ] &&
		pass "$TP: 40 duplicates of a finished transfer: node 1 answered $d datagrams" ||
		fail "$TP: node 1 answers duplicates with one small ACK each and a rate-limited DONE" "sent $d"
	if [ "$TP" = tcp ]; then
		# a connection that carried a bad frame is closed at once, and
		# what the forger wrote after it is never read: it connects
		# again for the next (conns=C), so 1 to 20 are read
		m=$(delta "$mal0" "$mal1") b=$(delta "$bad0" "$(netstat_of 1 tcp_bad_frames)")
		c=$(echo "$fout" | sed -n 's/.*conns=\([0-9]*\).*/\1/p')
		[ "$m" != none ] && [ "$m" = "$b" ] && [ "$m" -ge 1 ] && [ "$m" -le "${c:-0}" ] &&
			pass "$TP: ... each one read counted in rx_malformed and its connection closed ($m of 20, on $c connections)" ||
			fail "$TP: ... each one read counted in rx_malformed and its connection closed" \
				"rx_malformed +$m tcp_bad_frames +$b: $fout"
	else
		is "$(delta "$mal0" "$mal1")" 20 "$TP: ... the 20 without a body counted in rx_malformed"
	fi
	kill "$(sed -n 's/^ready .* pid=\([0-9]*\)$/\1/p' "$W/rx.1")" 2>/dev/null
	wait "$rxpid"
	is "$(grep -c '^msg src=2 seq=300 len=4 ' "$W/rx.1")" 1 "$TP: the good message delivered once"
	is "$(grep -c '^msg ' "$W/rx.1")" 1 "$TP: nothing else delivered"
}

for TP in udp tcp; do
	up_on_transport || continue
	run_ok "$TP: group 5 is node 1" mcastbed group 5 "$(coord 1)"
	OPT=''
	[ "$TP" = udp ] || OPT=tcp
	trust_sources
	trust_peer
	trust_worms
	trust_rb
	mcastbed down > /dev/null 2>&1
done

is "$(ip netns list | grep -c mcb)" 0 "no namespaces left"
run_ok "rmmod mcast" rmmod mcast
done_testing
tap_exit
