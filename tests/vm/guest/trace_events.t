#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# The data path's tracepoints (kmod/trace.h, docs/tracing.md) through
# tracefs.  mcast.ko's ten events are listed with their formats (the
# symbolic values resolved, as perf and bpftrace read them).  On a 2x2
# torus (mcastbed), a group send from node 0 to every node traces one
# send at node 0, one forward per destination and one delivery at each,
# all with the send's src, seq and group, each delivery's peer and step
# those of the forward that reached it; a datagram from an address that
# is no peer's and one of a peer with a wrong length are traced as drops
# with their reasons.  On the simulated IR fabric, losing every third
# worm, the lost worms' ends are traced (worm_end) and so are the
# fragments sent again.  Tracepoints only: the function tracer locks TCG
# guests up.

# shellcheck source=tests/vm/guest/tap.sh
. /tests/tap.sh
# shellcheck source=tests/vm/guest/netlib.sh
. /tests/netlib.sh

T=/sys/kernel/tracing
[ -f $T/trace ] || mount -t tracefs tracefs $T 2>/dev/null
[ -f $T/trace ] || skip_all "no tracefs in this kernel"
IRSIM_KO=${MCAST_KO%/*}/mcast_irsim.ko
D=/sys/kernel/debug/mcast_irsim
E=$T/events/mcast
PORT=7447

# a counter of the IR fabric (mcast_irsim's debugfs)
stat_of() { # NAME
	sed -n "s/^$1 //p" $D/stats
}

# trace_start: an empty buffer, mcast's events (only) on
trace_start() {
	echo 0 > $T/tracing_on
	echo > $T/trace
	echo 1 > $E/enable
	echo 1 > $T/tracing_on
}

# trace_stop FILE: tracing off, the buffer into FILE
trace_stop() {
	echo 0 > $T/tracing_on
	echo 0 > $E/enable
	cat $T/trace > "$1"
}

# the fields of mcast_$1 events of message src=$2 seq=$3 in $4, one line
# each from "node=" on
events_of() { # EVENT SRC SEQ FILE
	sed -n "s/.* mcast_$1: \(node=[0-9]* src=$2 seq=$3 .*\)/\1/p" "$4"
}

# field $1 of each line on stdin, sorted, as one line
field() {
	sed -n "s/.* $1=\([0-9]*\).*/\1/p; s/^$1=\([0-9]*\).*/\1/p" | sort -n |
		tr '\n' ' '
}

run_ok "insmod mcast.ko" insmod "$MCAST_KO"

_miss=''
for _e in send forward deliver retransmit rewind peer_down takeover \
	worm_end busy drop; do
	[ -f "$E/mcast_$_e/format" ] || _miss="$_miss $_e"
done
is "$_miss" "" "tracefs lists the 10 mcast events"
_f=''
for _x in node src seq group peer step len how; do
	grep -q "field:[a-z0-9 ]* $_x;" $E/mcast_deliver/format || _f="$_f $_x"
done
is "$_f" "" "mcast_deliver has node, src, seq, group, peer, step, len, how"
grep -q '{ 0, "delivered" }' $E/mcast_deliver/format &&
	grep -q '{ 2, "malformed" }' $E/mcast_drop/format &&
	pass "the formats give the symbolic values as numbers (TRACE_DEFINE_ENUM)" ||
	fail "the formats give the symbolic values as numbers" \
		"$(grep 'print fmt' $E/mcast_deliver/format $E/mcast_drop/format)"

TOPO=torus:2x2:bi
if _out=$(mcastbed up $TOPO 2>&1); then
	pass "mcastbed up $TOPO"
	run_ok "group 1 with every node" mcastbed group 1 all
	trace_start
	_pids='' _logs=''
	for _u in 1 2 3; do
		/usr/local/bin/ip netns exec "mcb$_u" /usr/local/bin/mcast_probe rx 1 \
			20000 1 > "$W/rx.$_u" 2>&1 &
		_pids="$_pids $!"
		_logs="$_logs $W/rx.$_u"
	done
	# shellcheck disable=SC2086
	wait_lines 3 '^ready' $_logs || diag "the receivers were not ready within 60 s"
	mcastbed exec 0 mcast_probe tx g:1 1400 wait > "$W/tx" 2>&1
	for _p in $_pids; do
		wait "$_p"
	done
	# a datagram from node 2's address claiming to be node 1's, and one
	# from node 1's own address and port with a length its header belies
	mcastbed exec 2 mcast_forge "$(addr_of 0)" $PORT data from=1 src=1 \
		xid=4401 seq=1 group=1 piece=0:0 text=bad-src > "$W/forge" 2>&1 ||
		diag "$(cat "$W/forge")"
	mcastbed exec 1 mcast_forge raw sport=$PORT "$(addr_of 0)" $PORT data \
		from=1 src=1 xid=4402 seq=1 group=1 piece=0:0 text=short \
		msg_len=999 >> "$W/forge" 2>&1 || diag "$(cat "$W/forge")"
	sleep 1
	trace_stop "$W/trace"
	seq=$(sed -n 's/^sent .* seq=\([0-9]*\) .*rc=0 nfailed=0 .*/\1/p' "$W/tx")
	# shellcheck disable=SC2086
	is "$(grep -c '^msg src=0 .* ok=1' $_logs | awk -F: '{ s += $2 } END { print s }')" \
		3 "nodes 1, 2 and 3 got the message (seq ${seq:-none}), byte-exact"
	is "$(events_of send 0 "$seq" "$W/trace" | sed 's/ len=.*//')" \
		"node=0 src=0 seq=$seq group=1 nodes=4" \
		"one send, at node 0, of 4 nodes with the source"
	diag "$(grep -E ' mcast_(send|forward|deliver): ' "$W/trace" | sed 's/^ *//')"
	events_of forward 0 "$seq" "$W/trace" > "$W/fwd"
	events_of deliver 0 "$seq" "$W/trace" > "$W/dlv"
	is "$(grep -c ' group=1 ' "$W/fwd")/$(field peer < "$W/fwd")" "3/1 2 3 " \
		"one forward of it to each of nodes 1, 2 and 3"
	is "$(grep -c ' group=1 .* delivered$' "$W/dlv")/$(field node < "$W/dlv")" \
		"3/1 2 3 " "one delivery of it at each of nodes 1, 2 and 3"
	# each delivery's (peer, node, step) is a forward's (node, peer, step)
	_miss=''
	while read -r _l; do
		_n=$(echo "$_l" | field node) _p=$(echo "$_l" | field peer)
		_s=$(echo "$_l" | field step)
		grep "^node=${_p% } " "$W/fwd" | grep -q " peer=${_n% } step=${_s% } " ||
			_miss="$_miss $_l;"
	done < "$W/dlv"
	is "$_miss" "" "each delivery came by a traced forward, in its step"
	is "$(field step < "$W/dlv")" "1 2 2 " "in U-torus' steps: 1, 2, 2"
	_out=$(mcastctl trace 0 "$seq" file "$W/trace" topology torus:2x2 2>&1)
	case $_out in
	*"3 of 3 hops as planned"*) pass "mcastctl trace: the tree it took is the plan's" ;;
	*) fail "mcastctl trace: the tree it took is the plan's" "$_out" ;;
	esac
	grep -q 'mcast_drop: node=0 peer=1 type=1 src=1 seq=1 group=1 xid=4401 .* bad_src$' \
		"$W/trace" && pass "a drop at node 0: bad_src, from node 2's address" ||
		fail "a drop at node 0: bad_src" "$(grep mcast_drop "$W/trace")"
	grep -q 'mcast_drop: node=0 peer=1 type=1 src=1 seq=1 group=1 xid=4402 .* malformed$' \
		"$W/trace" && pass "a drop at node 0: malformed, the wrong length" ||
		fail "a drop at node 0: malformed" "$(grep mcast_drop "$W/trace")"
	_d=$(grep -c mcast_drop "$W/trace")
	is "$_d" 2 "no other drops"
	[ "$_d" = 2 ] || diag "$(grep mcast_drop "$W/trace")"
else
	fail "mcastbed up $TOPO" "$_out"
fi
mcastbed down > /dev/null 2>&1

# worms on the simulated IR fabric: one that ends short comes back to
# its source (worm_end)
TOPO=torus:2x2:uni
if ! insmod "$IRSIM_KO"; then
	fail "insmod mcast_irsim.ko"
elif _out=$(mcastbed up $TOPO --transport irsim 2>&1); then
	pass "mcastbed up $TOPO --transport irsim"
	run_ok "group 1 with every node" mcastbed group 1 all
	trace_start
	_pids='' _logs=''
	for _u in 0 2 3; do
		/usr/local/bin/ip netns exec "mcb$_u" /usr/local/bin/mcast_probe rx 1 \
			20000 1 > "$W/rx.$_u" 2>&1 &
		_pids="$_pids $!"
		_logs="$_logs $W/rx.$_u"
	done
	# shellcheck disable=SC2086
	wait_lines 3 '^ready' $_logs || diag "the receivers were not ready within 60 s"
	# a worm that reaches every destination ends unreported: lose some
	echo 3 > $D/drop_every
	mcastbed exec 1 mcast_probe tx g:1 20000 wait > "$W/tx" 2>&1
	echo 0 > $D/drop_every
	for _p in $_pids; do
		wait "$_p"
	done
	trace_stop "$W/trace"
	seq=$(sed -n 's/^sent .* seq=\([0-9]*\) .*rc=0 nfailed=0 .*/\1/p' "$W/tx")
	# shellcheck disable=SC2086
	is "$(grep -c '^msg src=1 .* ok=1' $_logs | awk -F: '{ s += $2 } END { print s }')" \
		3 "irsim: nodes 0, 2 and 3 got the message (seq ${seq:-none}), byte-exact"
	_w=$(events_of worm_end 1 "$seq" "$W/trace" | grep -c '^node=1 .* group=1 ')
	[ "$_w" -ge 1 ] && pass "irsim: worms the fabric lost ended at node 1 ($_w worm_end)" ||
		fail "irsim: worms the fabric lost ended at node 1" \
			"$(grep -c mcast_ "$W/trace") events, $(stat_of drops) worms lost"
	_r=$(events_of retransmit 1 "$seq" "$W/trace" | grep -c '^node=1 .* group=1 ')
	[ "$_r" -ge 1 ] && pass "irsim: node 1 sent fragments again ($_r retransmit)" ||
		fail "irsim: node 1 sent fragments again" "$(grep -c mcast_ "$W/trace") events"
	is "$(events_of send 1 "$seq" "$W/trace" | sed 's/.* algo=//')" s-torus \
		"irsim: the send is traced as S-torus"
	# a worm sent again may bring a node a second copy: traced as dup
	is "$(events_of deliver 1 "$seq" "$W/trace" | grep ' delivered$' | field node)" \
		"0 2 3 " "irsim: delivered at nodes 0, 2 and 3 (once each)"
	diag "irsim: $(events_of deliver 1 "$seq" "$W/trace" | grep -vc ' delivered$') other deliver events (dup, late)"
else
	fail "mcastbed up $TOPO --transport irsim" "$_out"
fi
mcastbed down > /dev/null 2>&1
rmmod mcast_irsim 2>/dev/null
echo > $T/trace
is "$(ip netns list | grep -c mcb)" 0 "no namespaces left"
run_ok "rmmod mcast" rmmod mcast
done_testing
tap_exit
