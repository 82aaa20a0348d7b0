#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# Replays under the cluster key (docs/data-path.md "Cluster key"), over
# each transport, on a bridge of three nodes where groups 5 and 6 are
# nodes 1 and 2 and every node has key 1.  mcast_forge in node 0's netns
# plays a host that holds the key and records the wire, sending from node
# 0's address, on group 6 (node 0's real sends go to group 5: its own
# stream, so a forged message is never a duplicate of a real one):
#  - a DATA sealed for node 1 is delivered there (the format checks out);
#  - a DATA sealed for node 1 but otherwise good at node 2 (its piece is
#    node 2's) sent to node 2 is refused: the tag names the node it is for
#    (before: delivered at node 2);
#  - one with a reserved byte of the trailer set is refused (before: taken);
#  - one whose counter is an hour ahead of the clock is refused, and node
#    0's real send right after it completes: the window did not move
#    (before: delivered, and node 0 locked out of node 1 for that hour);
#  - node 1 restarts (mcastbed kill and revive: a new netns, the same
#    configuration and key) and the first DATA is replayed to it, byte for
#    byte: refused, not delivered to the new life (before: delivered a
#    second time); node 0's real send to the new life completes, once.

# shellcheck source=tests/vm/guest/tap.sh
. /tests/tap.sh

# shellcheck source=tests/vm/guest/netlib.sh
. /tests/netlib.sh

new_keys "$W/k1"
run_ok "insmod mcast.ko" insmod "$MCAST_KO"

TOPO=bridge:3
PORT=7447

# node 0's address speaks, sealed with key 1
as0() { # NODE ARGS..: to NODE's address
	_to=$1
	shift
	# shellcheck disable=SC2086
	mcastbed exec 0 mcast_forge $OPT "$(addr_of "$_to")" $PORT data \
		from=0 src=0 group=6 key="$W/k1" "$@"
}

rx() { # NODE LOG
	: > "$2"
	mcastbed exec "$1" mcast_probe rx 5,6 120000 -1 > "$2" 2>&1 &
	wait_lines 1 '^ready' "$2" || fail "$TP: node $1's receiver ready" "$(cat "$2")"
}

stop_rx() { # LOG..
	for _l in "$@"; do
		kill "$(sed -n 's/^ready .* pid=\([0-9]*\)$/\1/p' "$_l")" 2>/dev/null
	done
	wait
}

send_ok() { # DESC SIZE
	_o=$(mcastbed exec 0 mcast_probe tx g:5 "$2" wait=20000)
	case $_o in
	*"rc=0 nfailed=0"*) pass "$TP: $1" ;;
	*) fail "$TP: $1" "$_o" ;;
	esac
}

got() { # LOG LEN: node 0's messages of LEN bytes in LOG
	awk -v len="$2" '$1 == "msg" && $2 == "src=0" && $4 == "len=" len { n++ }
		END { print n + 0 }' "$1"
}

bad_auth() { # NODE
	netstat_of "$1" rx_bad_auth
}

replay() {
	# seqs as node 0's clock makes them (its seconds << 20)
	S=$((($(date +%s) - 100) << 20))
	X=$((0x7e000000 + $(date +%s) % 65536 * 16))
	for n in 0 1 2; do
		run_ok "$TP: node $n installs key 1" mcastbed exec "$n" mcastctl node set key "$W/k1"
	done
	rx 1 "$W/rx.1"
	rx 2 "$W/rx.2"

	_o=$(as0 1 xid=$X seq=$S piece=1:0 to=1 text=sealed-once ctr=now)
	C=$(echo "$_o" | sed -n 's/^sent 1 ctr=\([0-9]*\).*/\1/p')
	[ -n "$C" ] && pass "$TP: a DATA sealed for node 1, counter $C" ||
		fail "$TP: a DATA sealed for node 1" "$_o"

	b2=$(bad_auth 2)
	run_ok "$TP: a DATA sealed for node 1 with node 2's piece, to node 2" \
		as0 2 xid=$((X + 1)) seq=$((S + 1)) piece=2:0 to=1 text=sealed-for-one
	b1=$(bad_auth 1)
	run_ok "$TP: a DATA for node 1 with a reserved trailer byte set" \
		as0 1 xid=$((X + 2)) seq=$((S + 2)) piece=1:0 to=1 text=reserved-set resv=1
	run_ok "$TP: a DATA for node 1 with a counter an hour ahead" \
		as0 1 xid=$((X + 3)) seq=$((S + 3)) piece=1:0 to=1 text=from-the-future ctr=now+3600000
	send_ok "node 0's real send after the future counter completes (the window did not move)" 4000
	is "$(delta "$b2" "$(bad_auth 2)")" 1 "$TP: node 2 refused the one sealed for node 1 (rx_bad_auth)"
	is "$(delta "$b1" "$(bad_auth 1)")" 2 "$TP: node 1 refused the reserved byte and the future counter"
	stop_rx "$W/rx.1" "$W/rx.2"
	is "$(got "$W/rx.1" 11)" 1 "$TP: node 1 delivered the sealed DATA once"
	is "$(got "$W/rx.2" 14)" 0 "$TP: node 2 did not deliver the one sealed for node 1"
	is "$(got "$W/rx.1" 12)" 0 "$TP: node 1 did not deliver the one with the reserved byte"
	is "$(got "$W/rx.1" 15)" 0 "$TP: node 1 did not deliver the one from the future"
	for n in 1 2; do
		is "$(got "$W/rx.$n" 4000)" 1 "$TP: node $n delivered node 0's real send"
	done

	run_ok "$TP: node 1 restarts: killed" mcastbed kill 1
	run_ok "$TP: node 1 restarts: revived" mcastbed revive 1
	run_ok "$TP: node 1's new life installs key 1" mcastbed exec 1 mcastctl node set key "$W/k1"
	rx 1 "$W/rx.1b"
	b1=$(bad_auth 1)
	run_ok "$TP: the first DATA again, byte for byte, to node 1's new life" \
		as0 1 xid=$X seq=$S piece=1:0 to=1 text=sealed-once ctr="$C"
	send_ok "node 0's send to node 1's new life completes" 5000
	# node 0's first copies of that send may have met the new window too
	d=$(delta "$b1" "$(bad_auth 1)")
	[ "$d" != none ] && [ "$d" -ge 1 ] && pass "$TP: node 1's new life refused the replay (rx_bad_auth +$d)" ||
		fail "$TP: node 1's new life refused the replay" "rx_bad_auth +$d"
	stop_rx "$W/rx.1b"
	is "$(got "$W/rx.1b" 11)" 0 "$TP: node 1's new life did not deliver the replay"
	is "$(got "$W/rx.1b" 5000)" 1 "$TP: node 1's new life delivered node 0's send once"
}

for TP in udp tcp; do
	up_on_transport || continue
	run_ok "$TP: group 5 is nodes 1 and 2" mcastbed group 5 1 2
	run_ok "$TP: group 6 is nodes 1 and 2" mcastbed group 6 1 2
	OPT=tcp
	[ "$TP" = tcp ] || OPT="raw sport=$PORT"
	replay
	mcastbed down > /dev/null 2>&1
done

is "$(ip netns list | grep -c mcb)" 0 "no namespaces left"
run_ok "rmmod mcast" rmmod mcast
done_testing
tap_exit
