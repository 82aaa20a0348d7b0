#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# Failures on the network data path.
#  - A forwarding node dies mid-stream (its netns deleted): every live
#    destination still gets every message exactly once and in order, the
#    sender in completion mode gets the dead node in its failed list, and
#    the dead node's parent reports PEER_DOWN.
#  - Many senders on many groups at once: exactly once, FIFO per sender.
#  - Namespaces deleted and the module unloaded while traffic runs: no
#    crash (the harness checks the kernel log).

# shellcheck source=tests/vm/guest/tap.sh
. /tests/tap.sh
# shellcheck source=tests/vm/guest/netlib.sh
. /tests/netlib.sh

run_ok "insmod mcast.ko" insmod "$MCAST_KO"

# ---- a forwarding node dies mid-stream
# U-torus from 0 over 16 nodes: 0 sends to 8 (piece 8-15), 8 sends to 12
# (piece 12-15), 12 to 14 and 13.  Node 12 dies.  On the bridge: on the
# torus the static routes through a dead node die with it.
TOPO=torus:16
if mcastbed up bridge:16 > /dev/null 2>&1 && mcastbed group 1 all > /dev/null 2>&1; then
	pass "mcastbed up bridge:16, group 1 of all 16 nodes"
	live="1 2 3 4 5 6 7 8 9 10 11 13 14 15"
	start_rx 1 "$live" 8 || fail "receivers ready"
	/usr/local/bin/ip netns exec mcb8 /usr/local/bin/mcast_probe watch 40000 > "$W/watch8" 2>&1 &
	wpid=$!
	/usr/local/bin/ip netns exec mcb0 /usr/local/bin/mcast_probe tx g:1 1400,65536 count=4 gap=700 \
		wait=20000 > "$W/tx" 2>&1 &
	tpid=$!
	sleep 2
	run_ok "mcastbed kill 12 while 0 sends" mcastbed kill 12
	wait "$tpid"
	is "$?" 0 "the sender exits 0"
	wait_rx
	_bad=''
	for _u in $live; do
		_got=$(grep -c "^msg src=0 .* ok=1" "$W/rx.$_u")
		_ord=$(grep "^msg src=0 " "$W/rx.$_u" | sed 's/.* seq=\([0-9]*\) .*/\1/' |
			awk 'NR > 1 && $1 <= p { print "reordered" } { p = $1 }')
		[ "$_got" = 8 ] && [ -z "$_ord" ] || _bad="$_bad node$_u:$_got$_ord"
	done
	is "$_bad" "" "every live node got all 8 messages once, byte-exact, in order"
	[ -z "$_bad" ] && true || diag "$(cat "$W/tx")"
	_nf=$(grep -c 'nfailed=1 failed=12$' "$W/tx")
	_other=$(grep -v 'rc=0 nfailed=0 failed=$' "$W/tx" | grep -v 'rc=EHOSTUNREACH nfailed=1 failed=12$')
	[ "$_nf" -ge 1 ] && [ -z "$_other" ] &&
		pass "completion mode: sends after the death list node 12 as failed, nothing else ($_nf)" ||
		fail "completion mode: sends after the death list node 12 as failed" "$(cat "$W/tx")"
	tail -n 1 "$W/tx" | grep -q 'failed=12$' &&
		pass "the last send lists node 12" || fail "the last send lists node 12" "$(cat "$W/tx")"
	kill "$wpid" 2>/dev/null
	wait "$wpid" 2>/dev/null
	grep -q '^event peer-down node=12 group=1' "$W/watch8" &&
		pass "node 8 (12's parent) reported PEER_DOWN for node 12" ||
		fail "node 8 (12's parent) reported PEER_DOWN for node 12" "$(cat "$W/watch8")"
	_s=$(mcastbed exec 8 mcast_probe stats | sed -n 's/^netstats //p')
	case " $_s " in
	*" peer_fails=0 "*) fail "node 8 counts the peer failure" "$_s" ;;
	*) pass "node 8 counts the peer failure" ;;
	esac
	mcastbed down > /dev/null 2>&1
else
	fail "mcastbed up bridge:16, group 1 of all 16 nodes"
fi

# ---- many senders on many groups at once
TOPO=torus:4x4:bi
if mcastbed up torus:4x4:bi > /dev/null 2>&1; then
	pass "mcastbed up torus:4x4:bi"
	g=1
	for seed in 31 32 33 34; do
		_c=''
		for _u in $(random_nodes 8 $seed); do
			_c="$_c $(coord "$_u")"
		done
		# shellcheck disable=SC2086
		mcastbed group $g $_c > /dev/null 2>&1
		eval "mem$g=\"$(random_nodes 8 $seed)\""
		g=$((g + 1))
	done
	RXPIDS=''
	_u=0
	while [ "$_u" -lt "$N" ]; do
		# 9 messages from each source of each group it is in (and from
		# itself: its receiver joined every group)
		_e=0
		for g in 1 2 3 4; do
			eval "_mem=\$mem$g"
			for src in $((g * 3)) $((g * 3 + 1)); do
				case " $_mem $src " in *" $_u "*) _e=$((_e + 9)) ;; esac
			done
		done
		/usr/local/bin/ip netns exec "mcb$_u" /usr/local/bin/mcast_probe rx 1,2,3,4 15000 "$_e" \
			> "$W/rx.$_u" 2>&1 &
		RXPIDS="$RXPIDS $!"
		_u=$((_u + 1))
	done
	sleep 2
	TXPIDS=''
	for g in 1 2 3 4; do
		for src in $((g * 3)) $((g * 3 + 1)); do
			/usr/local/bin/ip netns exec "mcb$src" /usr/local/bin/mcast_probe tx g:$g 0,1400,20000 count=3 \
				> "$W/tx.$g.$src" 2>&1 &
			TXPIDS="$TXPIDS $!"
		done
	done
	_rc=0
	for _p in $TXPIDS; do
		wait "$_p" || _rc=1
	done
	is "$_rc" 0 "8 senders on 4 groups: all sends accepted"
	for _p in $RXPIDS; do
		wait "$_p"
	done
	_bad=''
	for g in 1 2 3 4; do
		eval "_mem=\$mem$g"
		for src in $((g * 3)) $((g * 3 + 1)); do
			_u=0
			while [ "$_u" -lt "$N" ]; do
				_want=0
				case " $_mem " in *" $_u "*) _want=9 ;; esac
				[ "$_u" = "$src" ] && _want=9	# its other file joined
				_got=$(grep -c "^msg src=$src .* group=$g .* ok=1" "$W/rx.$_u")
				_ord=$(grep "^msg src=$src .* group=$g " "$W/rx.$_u" |
					sed 's/.* seq=\([0-9]*\) .*/\1/' |
					awk 'NR > 1 && $1 <= p { print "reordered" } { p = $1 }')
				[ "$_got" = "$_want" ] && [ -z "$_ord" ] ||
					_bad="$_bad g$g:src$src:node$_u:$_got/$_want$_ord"
				_u=$((_u + 1))
			done
		done
	done
	is "$_bad" "" "every member got every message of every sender once, in order"
else
	fail "mcastbed up torus:4x4:bi"
fi

# ---- namespaces deleted and the module unloaded under traffic
TXPIDS=''
for src in 0 5 10 15; do
	/usr/local/bin/ip netns exec "mcb$src" /usr/local/bin/mcast_probe tx g:$((src % 4 + 1)) 65536,1400 count=50 \
		> /dev/null 2>&1 &
	TXPIDS="$TXPIDS $!"
done
sleep 2
run_ok "delete namespaces 3 and 6 under traffic" sh -c '/usr/local/bin/ip netns del mcb3 && /usr/local/bin/ip netns del mcb6'
sleep 1
for _p in $TXPIDS; do
	kill "$_p" 2>/dev/null
done
for _p in $TXPIDS; do
	wait "$_p" 2>/dev/null
done
# the senders' files are closed; their messages are still being forwarded
_ok=0
for _t in 1 2 3 4 5 6 7 8 9 10; do
	rmmod mcast 2>/dev/null && { _ok=1; break; }
	sleep 0.3
done
is "$_ok" 1 "rmmod while the nodes still forward"
mcastbed down > /dev/null 2>&1
is "$(ip netns list | grep -c mcb)" 0 "no namespaces left"
run_ok "insmod mcast.ko again" insmod "$MCAST_KO"
run_ok "rmmod mcast" rmmod mcast
done_testing
tap_exit
