#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# The network data path under netem on every link: loss (1% and 5%),
# duplication, reordering and delay.  Every destination still gets every
# message exactly once, byte-exact and in the order sent (per sender and
# group); the tree is still mcastctl plan's; the senders' nodes count
# retransmissions (some of them fast: on a gap in the acknowledgements;
# on TCP, TCP retransmits and the data path sees no gap) and the
# receivers' nodes suppress duplicates.  A slow link that loses nothing
# costs probes, not the window again.

# shellcheck source=tests/vm/guest/tap.sh
. /tests/tap.sh
# shellcheck source=tests/vm/guest/netlib.sh
. /tests/netlib.sh
modprobe sch_netem 2>/dev/null

run_ok "insmod mcast.ko" insmod "$MCAST_KO"

# netem SPEC TOPO SPEC...: one testbed under netem, a group round and a
# node list round from two sources
lossy() {
	_spec=$1 _netem=$2
	TOPO=$3
	if ! _out=$(mcastbed up "$_spec" --netem "$_netem" 2>&1); then
		fail "mcastbed up $_spec --netem '$_netem'" "$_out"
		return
	fi
	pass "mcastbed up $_spec --netem '$_netem'"
	# TCP backs off exponentially on a segment lost twice: under 5 %
	# loss and 25 % reordering one completion-mode send has taken 25 s,
	# and three of each size over 30 s (the default wait), and receivers
	# would stop waiting between two messages
	IDLE=20000 _wait=wait FAIL_OK=0
	[ "$(node_transport 0)" = tcp ] && IDLE=90000 _wait=wait=90000
	# and a segment lost again and again keeps the connection silent
	# for seconds (0.2 + 0.4 + 0.8 + ...): past the failure detector's
	# budget the sender reports that peer failed (failed means "not
	# confirmed"), takes over its subtree, and a completion-mode send
	# names it; two CI runs in a row saw it.  Over TCP the rounds hold
	# the contract (delivered once, or reported) rather than "none
	# failed": issue 9 keeps the detector's TCP budget open.  Over UDP
	# too: a full 6.1 run of 3248b1b saw one send of 12 name a receiver
	# at 5 % loss (every message still delivered once).  And a node list
	# round (no wait) of a full 6.1 run of 61ab811 had node 12 miss one
	# message: it came after the FIFO gap (10 s) and was refused as late
	# (late 1), which the kernel reports in the sender's send-failed
	# event, not in its unreached counter, all that round looked at then:
	# with FAIL_OK it now watches the sender's events too.
	FAIL_OK=1
	_mem=$(random_nodes 7 "$4")
	_coords=''
	for _u in $_mem; do
		_coords="$_coords $(coord "$_u")"
	done
	# shellcheck disable=SC2086
	mcastbed group 1 $_coords > /dev/null 2>&1
	_src=$(random_nodes 1 $(($4 + 1)))
	COUNT=3
	round "$_spec '$_netem': group 1 from $_src, 3 of each size" "$_src" g:1 \
		"$_mem" "$5" "$_wait"
	COUNT=1
	_lst=$(random_nodes 6 $(($4 + 2)))
	_src=$(random_nodes 1 $(($4 + 3)))
	round "$_spec '$_netem': node list from $_src" "$_src" \
		"n:$(echo "$_lst" | tr ' ' ',')" "$_lst" "$5"
	_s=$(mcastbed exec "$_src" mcast_probe stats)
	diag "$_spec: source $_src: $(echo "$_s" | grep netstats)"
	_r=0 _f=0 _d=0 _w=0 _y=0
	_u=0
	while [ "$_u" -lt "$N" ]; do
		_s=$(mcastbed exec "$_u" mcast_probe stats | sed -n 's/^netstats //p')
		_r=$((_r + $(echo "$_s" | tr ' ' '\n' | sed -n 's/^retrans=//p')))
		_f=$((_f + $(echo "$_s" | tr ' ' '\n' | sed -n 's/^fast_retrans=//p')))
		_d=$((_d + $(echo "$_s" | tr ' ' '\n' | sed -n 's/^dups=//p')))
		_w=$((_w + $(echo "$_s" | tr ' ' '\n' | sed -n 's/^rewinds=//p')))
		_y=$((_y + $(echo "$_s" | tr ' ' '\n' | sed -n 's/^rx_young=//p')))
		mcastbed exec "$_u" mcastctl -j peer show -s >> "$W/peers.$4"
		_u=$((_u + 1))
	done
	# how far the per-peer timeouts rose: a first RTO near its 4 s cap
	# and two losses of one fragment outlast the FIFO gap (10 s)
	diag "$_spec '$_netem': over all nodes' peers now: $(tr '{' '\n' < "$W/peers.$4" | awk -F'[:,]' '
		{ for (i = 1; i < NF; i++) { v[$i] = $(i + 1) }
		  if (v["\"rto_ms\""] > r) r = v["\"rto_ms\""]; if (v["\"rto_held_ms\""] > h) h = v["\"rto_held_ms\""]
		  if (v["\"srtt_us\""] > t) t = v["\"srtt_us\""]; delete v }
		END { printf "rto up to %d ms, held rto up to %d ms, srtt up to %.1f ms", r, h, t / 1000 }')"
	# young nodes (all of them here: born less than stream_idle_ms ago)
	# answer a resent fragment of a transfer they do not know YOUNG, and
	# the sender rewinds: the only rewinds expected here
	diag "$_spec '$_netem': retransmissions $_r (fast $_f), duplicates suppressed $_d, rewinds $_w, young refusals $_y"
	if [ "$(node_transport 0)" = tcp ]; then
		# TCP repairs the loss below the data path: its own
		# retransmissions, and no gap for fast retransmission to fill
		_t=0 _u=0
		while [ "$_u" -lt "$N" ]; do
			_t=$((_t + $(mcastbed exec "$_u" cat /proc/net/snmp | awk '
				$1 == "Tcp:" && !h { for (i = 2; i <= NF; i++) if ($i == "RetransSegs") c = i; h = 1; next }
				$1 == "Tcp:" { print $c + 0 }')))
			_u=$((_u + 1))
		done
		[ "$_t" -gt 0 ] && pass "$_spec '$_netem': TCP retransmitted segments ($_t)" ||
			fail "$_spec '$_netem': TCP retransmitted segments" "$_t"
		is "$_f" 0 "$_spec '$_netem': no fast retransmission over TCP"
		mcastbed down > /dev/null 2>&1
		return
	fi
	[ "$_r" -gt 0 ] && pass "$_spec '$_netem': the nodes retransmitted ($_r)" ||
		fail "$_spec '$_netem': the nodes retransmitted" "$_r"
	# a lost fragment inside a long message shows as a gap in the
	# acknowledgements, repaired without waiting for a timeout
	[ "$_f" -gt 0 ] && [ "$_f" -le "$_r" ] &&
		pass "$_spec '$_netem': some retransmissions were fast ($_f of $_r)" ||
		fail "$_spec '$_netem': some retransmissions were fast" "$_f of $_r"
	mcastbed down > /dev/null 2>&1
}

# A slow link that loses nothing: netem delays every datagram 600 ms, so
# the round trip (1.2 s) is past the RTO (200 ms) and fragments time out
# although all of them arrive.  A timeout probes with one fragment and
# resends the rest only when the child's answer to the probe shows them
# lost: 64 KiB (47 fragments) costs a few probes, where resending the
# window on each timeout sent it twice again (94 retransmissions, and as
# many duplicates at the child).
slow_link() {
	if ! _out=$(mcastbed up bridge:2 --netem "delay 600ms" 2>&1); then
		fail "mcastbed up bridge:2 --netem 'delay 600ms'" "$_out"
		return
	fi
	pass "mcastbed up bridge:2 --netem 'delay 600ms'"
	if [ "$(node_transport 0)" = tcp ]; then	# TCP times its own
		mcastbed down > /dev/null 2>&1
		return
	fi
	_r0=$(netstat_of 0 retrans) _d0=$(netstat_of 1 dups)
	_out=$(mcastbed exec 0 mcast_probe tx n:1 65536 wait=30000 2>&1)
	case "$_out" in
	*"rc=0 nfailed=0"*) pass "slow link: the 64 KiB send completes" ;;
	*) fail "slow link: the 64 KiB send completes" "$_out" ;;
	esac
	_r=$(delta "$_r0" "$(netstat_of 0 retrans)")
	_d=$(delta "$_d0" "$(netstat_of 1 dups)")
	[ "$_r" != none ] && [ "$_r" -lt 10 ] && [ "$_d" -lt 10 ] &&
		pass "slow link: timeouts probe, the window is not sent again ($_r retransmitted, $_d duplicates)" ||
		fail "slow link: timeouts probe, the window is not sent again" \
			"$_r retransmitted, $_d duplicates" "$(mcastbed exec 0 mcast_probe stats)"
	mcastbed down > /dev/null 2>&1
}

# A link that reorders past the RTO: netem sends half the datagrams at
# once and holds the rest 300 ms, so some ACKs come after the timeout
# they would have prevented, with a cum below one already taken.  Such an
# ACK is late, from the job the child still has (its epoch says so), and
# says nothing; before ACKs named the child's job, any lower cum after a
# timeout was taken for a child that lost the transfer, and the sender
# sent it again from there (a rewind).  The nodes are young for 2 s only:
# a young child's YOUNG answer to a resent fragment rewinds by design
# (docs/data-path.md, Incarnations).
reordering_link() {
	_idle=/sys/module/mcast/parameters/stream_idle_ms
	echo 2000 > "$_idle"
	if ! _out=$(mcastbed up bridge:2 --netem "delay 300ms reorder 50%" 2>&1); then
		fail "mcastbed up bridge:2 --netem 'delay 300ms reorder 50%'" "$_out"
		echo 90000 > "$_idle"
		return
	fi
	pass "mcastbed up bridge:2 --netem 'delay 300ms reorder 50%'"
	if [ "$(node_transport 0)" = tcp ]; then	# TCP orders its stream
		mcastbed down > /dev/null 2>&1
		echo 90000 > "$_idle"
		return
	fi
	sleep 2
	_w0=$(netstat_of 0 rewinds) _r0=$(netstat_of 0 retrans) _n=0 _ok=0
	while [ "$_n" -lt 6 ]; do
		case "$(mcastbed exec 0 mcast_probe tx n:1 65536 wait=30000 2>&1)" in
		*"rc=0 nfailed=0"*) _ok=$((_ok + 1)) ;;
		esac
		_n=$((_n + 1))
	done
	is "$_ok" 6 "reordering link: six 64 KiB sends complete"
	_r=$(delta "$_r0" "$(netstat_of 0 retrans)")
	is "$(delta "$_w0" "$(netstat_of 0 rewinds)")" 0 \
		"reordering link: late ACKs rewind nothing ($_r retransmitted)"
	mcastbed down > /dev/null 2>&1
	echo 90000 > "$_idle"
}

# An outage is a loss, not slowness: node 0's DATA to node 1 is dropped
# for 7 s while node 1 keeps talking to node 0.  The copies a timeout
# sends find holes at node 1 (nothing of them arrived), so the RTO backs
# off to its 1 s cap and the send completes within a second of the
# outage's end.  When every timeout while the child talked was taken for
# slowness, each held the backed-off RTO for the peer and raised the
# transfer's own cap with it: 0.2, 0.4, 0.8, 1.6, 3.2, then 6.4 s, so the
# send completed 12.6 s in.
outage_link() {
	_idle=/sys/module/mcast/parameters/stream_idle_ms
	echo 2000 > "$_idle"
	if ! _out=$(mcastbed up bridge:2 2>&1); then
		fail "outage: mcastbed up bridge:2" "$_out"
		echo 90000 > "$_idle"
		return
	fi
	if [ "$(node_transport 0)" = tcp ] || [ "${mcast_time_scale:-1}" -gt 1 ]; then
		# TCP repairs the loss itself; a slowed guest's times say nothing
		mcastbed down > /dev/null 2>&1
		echo 90000 > "$_idle"
		return
	fi
	sleep 2
	mcastbed exec 1 mcast_probe tx n:0 100 count=90 gap=100 > /dev/null 2>&1 &
	_talk=$!
	data_outage outage 7 "$W/outage.tx" tx n:1 1 wait=60000
	_ms=$(sed -n 's/^sent ms=\([0-9]*\) .*rc=0 nfailed=0.*/\1/p' "$W/outage.tx")
	[ -n "$_ms" ] && [ "$_ms" -lt 10000 ] &&
		pass "outage: the send completes within 3 s of a 7 s outage's end ($_ms ms)" ||
		fail "outage: the send completes within 3 s of a 7 s outage's end" \
			"$(cat "$W/outage.tx")" "$(mcastbed exec 0 mcastctl peer show -s)"
	diag "outage: node 0's view of node 1 after it: $(mcastbed exec 0 mcastctl peer show -s | tail -n 2 | tr -s ' ')"
	kill "$_talk" 2>/dev/null
	wait "$_talk" 2>/dev/null
	mcastbed down > /dev/null 2>&1
	echo 90000 > "$_idle"
}

slow_link
reordering_link
outage_link
lossy torus:4x4:uni "loss 5% duplicate 2% delay 2ms reorder 25% 50%" torus:4x4:uni 21 \
	0,1,1400,65536
lossy bridge:16 "loss 1% duplicate 1% delay 1ms 1ms" torus:16 23 1,65536,1048576

is "$(ip netns list | grep -c mcb)" 0 "no namespaces left"
run_ok "rmmod mcast" rmmod mcast
done_testing
tap_exit
