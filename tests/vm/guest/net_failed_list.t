#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# Long failed lists in completion mode.  Two real nodes, 0 and 512, of a
# declared 1D torus of 1024; each knows only the other's address.  A send
# from 0 to every other node: 0 fails its own half of the tree at once, 512
# (which gets the other half) fails 511 destinations and reports them in
# its DONE, which needs two datagrams (352 ids fit in one).  The sender
# must get exactly the 1022 unreachable nodes, sorted, each once, and 512
# must get the message once.  Sent again without waiting, the same list
# comes as a SEND_FAILED event at node 0 (mcast_probe watch, mcastmon).

# shellcheck source=tests/vm/guest/tap.sh
. /tests/tap.sh
# shellcheck source=tests/vm/guest/netlib.sh
. /tests/netlib.sh

run_ok "insmod mcast.ko" insmod "$MCAST_KO"

in_ns() { _ns=$1; shift; /usr/local/bin/ip netns exec "mcb$_ns" "$@"; }

if mcastbed up bridge:2 --no-mcast > /dev/null 2>&1; then
	pass "mcastbed up bridge:2 --no-mcast"
	run_ok "node 0 of torus:1024" in_ns 0 mcastctl node set topology torus:1024 coord 0
	run_ok "node 512 of torus:1024" in_ns 1 mcastctl node set topology torus:1024 coord 512
	run_ok "0 knows 512" in_ns 0 mcastctl peer add 512 addr 10.77.0.1 port 7447
	run_ok "512 knows 0" in_ns 1 mcastctl peer add 0 addr 10.77.0.0 port 7447
	in_ns 1 /usr/local/bin/mcast_probe rx 0 20000 1 > "$W/rx.512" 2>&1 &
	rxpid=$!
	wait_lines 1 '^ready' "$W/rx.512" || diag "node 512's receiver was not ready within 60 s"
	all=$(seq -s, 1 1023)
	in_ns 0 /usr/local/bin/mcast_probe tx "n:$all" 1000 wait=30000 > "$W/tx" 2>&1
	wait "$rxpid"
	want="$(seq -s, 1 511),$(seq -s, 513 1023)"
	case $(cat "$W/tx") in
	*"rc=EHOSTUNREACH nfailed=1022 failed=$want") pass "the send lists the 1022 unreachable nodes, sorted, each once" ;;
	*) fail "the send lists the 1022 unreachable nodes, sorted, each once" "$(cut -c1-300 "$W/tx")" ;;
	esac
	is "$(grep -c '^msg src=0 .* ok=1' "$W/rx.512")" 1 "node 512 got the message once, byte-exact"
	grep -q '^msg src=0 .* step=1 from=0 ' "$W/rx.512" &&
		pass "in step 1 from node 0, as U-torus plans it" ||
		fail "in step 1 from node 0" "$(cat "$W/rx.512")"
	_s=$(in_ns 1 mcast_probe stats | sed -n 's/^netstats //p')
	case " $_s " in
	*" unreached=511 "*) pass "node 512 counted its 511 unreachable destinations" ;;
	*) fail "node 512 counted its 511 unreachable destinations" "$_s" ;;
	esac
	# the same send, not waited for: the failed list comes as an event
	in_ns 0 /usr/local/bin/mcast_probe watch 60000 > "$W/ev" 2>&1 &
	wpid=$!
	in_ns 0 /usr/local/bin/mcastmon -j > "$W/mon" 2>&1 &
	mpid=$!
	wait_lines 1 '^watching' "$W/ev" || diag "the watcher was not ready within 60 s"
	sleep 1	# mcastmon subscribes too
	in_ns 0 /usr/local/bin/mcast_probe tx "n:$all" 1000 > "$W/tx2" 2>&1
	seq2=$(sed -n 's/^sent .* seq=\([0-9]*\) .*/\1/p' "$W/tx2")
	wait_lines 1 '^event send-failed' "$W/ev" || diag "no send-failed event within 60 s"
	kill "$wpid" "$mpid" 2>/dev/null
	wait "$wpid" "$mpid" 2>/dev/null
	is "$(grep '^event send-failed' "$W/ev")" \
		"event send-failed group=0 seq=$seq2 nodes=$want trunc=0" \
		"not waited for: a SEND_FAILED event lists the 1022, sorted, each once"
	grep -q '"event":"send-failed".*"seq":'"$seq2"',"failed":\[\[1\],\[2\],' "$W/mon" &&
		pass "mcastmon -j prints it" ||
		fail "mcastmon -j prints send-failed" "$(grep -v '"event":"error"' "$W/mon" | cut -c1-300)"
else
	fail "mcastbed up bridge:2 --no-mcast"
fi
mcastbed down > /dev/null 2>&1
run_ok "rmmod mcast" rmmod mcast
done_testing
tap_exit
