#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# The cluster key (docs/data-path.md "Cluster key"), over each transport
# on a 2x2 torus where group 5 is nodes 1 and 2.
#
#  - Every node gets key 1 (mcastctl node set key FILE); node show names
#    its id, never the key; node 0's sends complete and arrive once.
#  - A datagram from a peer's own address without the key (DATA, and
#    ACK, BUSY, YOUNG and DONE to a sender), or sealed with another key or key
#    id, or replayed, or too old, is dropped and counted in rx_bad_auth
#    (before: a peer's address was all it took).
#    mcast_forge seals with the right key (AF_ALG): such a message is
#    delivered, which checks the documented format; the same datagram
#    again is a replay; a counter below the window is too old.
#  - Node 3 fuzzes node 1 with 2000 datagrams sealed with the key (an
#    authenticated peer sending garbage) while node 0 sends 10 messages:
#    they all complete, the garbage reaches the parser and is dropped.
#  - Rotation under traffic: while node 0 sends 30 messages in completion
#    mode, every node installs key 2 (key-next), then uses it (key-use),
#    then drops key 1 (key-drop): all 30 complete and arrive once each.
#  - key none on every node (idle): unauthenticated again, sends complete.
#  - Turning authentication on while a send is in flight (node 1 ignores
#    node 0 for a moment) is refused with EBUSY, and the send completes.

# shellcheck source=tests/vm/guest/tap.sh
. /tests/tap.sh

# shellcheck source=tests/vm/guest/netlib.sh
. /tests/netlib.sh

new_keys "$W/k1" "$W/k2" "$W/kx"
run_ok "insmod mcast.ko" insmod "$MCAST_KO"

N=4 TOPO=torus:2x2
PORT=7447

on_all() { # DESC MCASTCTL-ARGS..
	_d=$1 _bad=''
	shift
	for _n in 0 1 2 3; do
		_o=$(mcastbed exec "$_n" mcastctl "$@" 2>&1) || _bad="$_bad node $_n: $_o;"
	done
	[ -z "$_bad" ] && pass "$TP: $_d" || fail "$TP: $_d" "$_bad"
}

send_ok() { # DESC SIZE
	_o=$(mcastbed exec 0 mcast_probe tx g:5 "$2" wait=20000)
	case $_o in
	*"rc=0 nfailed=0"*) pass "$TP: $1" ;;
	*) fail "$TP: $1" "$_o" ;;
	esac
}

start_rx() { # NODE
	mcastbed exec "$1" mcast_probe rx 5 120000 -1 > "$W/rx.$1" 2>&1 &
	wait_lines 1 '^ready' "$W/rx.$1" || fail "$TP: receiver $1 ready" "$(cat "$W/rx.$1")"
}

stop_rx() {
	for _n in 1 2; do
		kill "$(sed -n 's/^ready .* pid=\([0-9]*\)$/\1/p' "$W/rx.$_n")" 2>/dev/null
	done
	wait
}

# node 3 (not in the group) speaks to node 1 as itself
as3() { # ARGS..
	# shellcheck disable=SC2086
	mcastbed exec 3 mcast_forge $OPT "$(addr_of 1)" $PORT data from=3 src=3 \
		group=5 piece=1:0 to=1 "$@"
}

bad_auth_delta() { # BEFORE
	delta "$1" "$(netstat_of 1 rx_bad_auth)"
}

keyed_basics() {
	on_all "every node installs key 1" node set key "$W/k1"
	case $(mcastbed exec 1 mcastctl node show) in
	*"key          id 1"*) pass "$TP: node show: key id 1" ;;
	*) fail "$TP: node show: key id 1" "$(mcastbed exec 1 mcastctl node show)" ;;
	esac
	mcastbed exec 1 mcastctl -j node show | grep -q '"key_id":1,"key_ids":\[1\]' &&
		pass "$TP: node show -j: key_id 1" ||
		fail "$TP: node show -j: key_id 1" "$(mcastbed exec 1 mcastctl -j node show)"
	start_rx 1
	start_rx 2
	send_ok "node 0's keyed send completes" 3000
	send_ok "... and a 200 KB one" 200000

	b0=$(netstat_of 1 rx_bad_auth)
	run_ok "$TP: node 3 sends without the key" as3 xid=10 seq=10 text=nokey
	run_ok "$TP: node 3 sends sealed with another key" as3 xid=11 seq=11 text=other key="$W/kx"
	run_ok "$TP: node 3 sends sealed with key 1 but another id" as3 xid=12 seq=12 text=id7 key="$W/k1" key_id=7
	sleep 1
	is "$(bad_auth_delta "$b0")" 3 "$TP: node 1 counted the three in rx_bad_auth"
	a0=$(netstat_of 0 rx_bad_auth)
	# shellcheck disable=SC2086
	run_ok "$TP: node 2 sends node 0 ACK, BUSY, YOUNG and DONE without the key" sh -c "
		mcastbed exec 2 mcast_forge $OPT $(addr_of 0) $PORT ack from=2 xid=1 cum=9 &&
		mcastbed exec 2 mcast_forge $OPT $(addr_of 0) $PORT ack from=2 xid=1 flags=2 &&
		mcastbed exec 2 mcast_forge $OPT $(addr_of 0) $PORT ack from=2 xid=1 flags=4 step=7 count=0 &&
		mcastbed exec 2 mcast_forge $OPT $(addr_of 0) $PORT done from=2 xid=1 count=0"
	sleep 1
	is "$(delta "$a0" "$(netstat_of 0 rx_bad_auth)")" 4 "$TP: node 0 counted the four in rx_bad_auth"

	# node 3 as an authenticated peer that sends garbage: 2000 fuzz
	# datagrams sealed with key 1 (so they reach the parser), to a group
	# node 1 does not receive, while node 0 sends
	m0=$(netstat_of 1 rx_malformed)
	# a counter from before the fuzz: below node 1's window after it
	C0=$(($(date +%s) * 1000000000))
	# shellcheck disable=SC2086
	mcastbed exec 3 mcast_forge $OPT "$(addr_of 1)" $PORT fuzz from=3 src=3 \
		group=77 seed=9 n=2000 key="$W/k1" to=1 > "$W/fuzz.3" 2>&1 &
	fz=$!
	k=0 okn=0
	while [ $k -lt 10 ]; do
		case $(mcastbed exec 0 mcast_probe tx g:5 $((300 + k * 2000)) wait=20000) in
		*"rc=0 nfailed=0"*) okn=$((okn + 1)) ;;
		esac
		k=$((k + 1))
	done
	wait "$fz"
	is "$okn" 10 "$TP: node 0's 10 sends complete while a keyed peer fuzzes node 1"
	m1=$(netstat_of 1 rx_malformed)
	d=$(delta "$m0" "$m1")
	[ "$d" != none ] && [ "$d" -gt 0 ] && grep -q '^sent 2000' "$W/fuzz.3" &&
		pass "$TP: the sealed fuzz got past the tag to the parser ($d malformed)" ||
		fail "$TP: the sealed fuzz reaches the parser" "rx_malformed +$d; $(cat "$W/fuzz.3")"

	# the counter a node would use now (its clock in ns)
	C=$(as3 xid=13 seq=13 text=signed key="$W/k1" ctr=now | sed -n 's/^sent 1 ctr=\([0-9]*\).*/\1/p')
	[ -n "$C" ] && pass "$TP: node 3 sends a message sealed with key 1 (counter $C)" ||
		fail "$TP: node 3 sends a message sealed with key 1"
	sleep 1
	b1=$(netstat_of 1 rx_bad_auth)
	run_ok "$TP: ... the same datagram again (a replay)" as3 xid=13 seq=13 text=signed key="$W/k1" ctr=$C
	run_ok "$TP: ... another, its counter below the window" as3 xid=14 seq=14 text=oldctr key="$W/k1" ctr=$C0
	sleep 1
	is "$(bad_auth_delta "$b1")" 2 "$TP: node 1 dropped the replay and the old counter"
	stop_rx
	is "$(grep -c '^msg src=3 .* len=6 ' "$W/rx.1")" 1 "$TP: the sealed message was delivered, once"
	is "$(grep -c '^msg src=3 ' "$W/rx.1")" 1 "$TP: nothing else of node 3's"
	is "$(grep -c '^msg src=0 .*ok=1' "$W/rx.2")" 12 "$TP: node 2 got node 0's twelve messages"
}

# rotation while node 0 sends (see the top)
rotation() {
	start_rx 1
	start_rx 2
	(
		k=0
		while [ $k -lt 30 ]; do
			mcastbed exec 0 mcast_probe tx g:5 $((500 + k * 1000)) wait=20000
			k=$((k + 1))
		done
	) > "$W/tx.rot" 2>&1 &
	txpid=$!
	wait_lines 3 '^sent ' "$W/tx.rot"
	on_all "every node installs key 2 (key-next)" node set key-next "$W/k2" key-id 2
	wait_lines 8 '^sent ' "$W/tx.rot"
	on_all "every node sends with key 2 (key-use)" node set key-use 2
	wait_lines 14 '^sent ' "$W/tx.rot"
	on_all "every node drops key 1 (key-drop)" node set key-drop 1
	wait "$txpid"
	is "$(grep -c 'rc=0 nfailed=0' "$W/tx.rot")" 30 "$TP: node 0's 30 sends across the rotation completed"
	sleep 1
	stop_rx
	for n in 1 2; do
		check_once_in_order "$W/rx.$n" 30 "$TP: node $n delivered the 30"
	done
	case $(mcastbed exec 2 mcastctl node show) in
	*"key          id 2"*) pass "$TP: node show: key id 2 alone" ;;
	*) fail "$TP: node show: key id 2 alone" "$(mcastbed exec 2 mcastctl node show)" ;;
	esac
}

keyless_again() {
	on_all "every node drops its keys (key none)" node set key none
	case $(mcastbed exec 1 mcastctl node show) in
	*"key          none"*) pass "$TP: node show: no key" ;;
	*) fail "$TP: node show: no key" "$(mcastbed exec 1 mcastctl node show)" ;;
	esac
	send_ok "an unauthenticated send completes again" 1000
	# node 1 ignores node 0 for a moment, so node 0's send stays in flight;
	# 30 retries (about half a minute) outlast that moment on a slow
	# kernel too (make debugcheck's), where the default 6 did not
	run_ok "$TP: node 0 retries 30 times" mcastbed exec 0 mcastctl node set retries 30
	run_ok "$TP: node 1 forgets node 0" mcastbed exec 1 mcastctl peer del "$(coord 0)"
	mcastbed exec 0 mcast_probe tx g:5 1000 wait=30000 > "$W/tx.held" 2>&1 &
	held=$!
	sleep 1
	out=$(mcastbed exec 0 mcastctl node set key "$W/k1" 2>&1)
	case $out in
	*"while messages are in flight"*) pass "$TP: a key is refused while a send is in flight: $out" ;;
	*) fail "$TP: a key is refused while a send is in flight" "mcastctl: $out" \
		"the send: $(cat "$W/tx.held")" "$(mcastbed exec 0 mcastctl stats show 2>&1)" ;;
	esac
	run_ok "$TP: node 1 knows node 0 again" mcastbed exec 1 mcastctl peer add \
		"$(coord 0)" addr "$(addr_of 0)" port $PORT
	wait "$held"
	grep -q 'rc=0 nfailed=0' "$W/tx.held" && pass "$TP: ... and that send completes, unauthenticated" ||
		fail "$TP: the held send completes" "$(cat "$W/tx.held")"
	run_ok "$TP: node 0 retries 6 times again" mcastbed exec 0 mcastctl node set retries 6
}

for TP in udp tcp; do
	up_on_transport || continue
	run_ok "$TP: group 5 is nodes 1 and 2" mcastbed group 5 "$(coord 1)" "$(coord 2)"
	OPT=tcp
	[ "$TP" = tcp ] || OPT="raw sport=$PORT"
	keyed_basics
	rotation
	keyless_again
	mcastbed down > /dev/null 2>&1
done

is "$(ip netns list | grep -c mcb)" 0 "no namespaces left"
run_ok "rmmod mcast" rmmod mcast
done_testing
tap_exit
