#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# Sending modes of the network data path, on a 6-node bridge and an 8x8
# unidirectional torus (mcastbed):
#  - membership change during a send stream: node 0 streams to group 1
#    while a member is removed and another added on every node; members
#    that stay get every message once and in order, the removed node a
#    prefix of the stream, the added one a suffix (all that was sent after
#    the change reached the sender), nodes outside the group nothing; then
#    the removed node joins again (a suffix, at once: no wait for the
#    messages it was not sent);
#  - O_NONBLOCK back-pressure: a burst of 1 MiB sends on an O_NONBLOCK file
#    is refused with EAGAIN once the node has 16 MiB in flight; a refused
#    send takes no seq and is not delivered; the sender then waits in
#    poll(POLLOUT), after which its retry is taken; every accepted
#    message arrives once, in order, byte-exact at every member; a
#    blocking file just waits (no EAGAIN, nothing lost);
#  - completion mode over io_uring: the CQE of an MCAST_SEND_WAIT send
#    comes only once every destination node holds the message (its
#    rx_msgs read at once when the CQE arrives), with res 0; a plain send's
#    CQE comes before (so the check can tell); with a destination killed,
#    res is -EHOSTUNREACH and the failed list names it, for a node list
#    and for a group, and a timeout_ms shorter than giving up on it ends
#    the wait with it among the failed;
#  - 1 MiB and 4 MiB to a 10-member group on the 8x8 torus, as U-torus
#    and as auto's Mu-torus(4) chains: exactly once, byte-exact, in the
#    step (phase) and from the node of mcastctl plan's schedule.

# shellcheck source=tests/vm/guest/tap.sh
. /tests/tap.sh
# shellcheck source=tests/vm/guest/netlib.sh
. /tests/netlib.sh

PROBE=/usr/local/bin/mcast_probe

# at NODE CMD...: CMD in node NODE's netns
at() {
	_n=$1
	shift
	/usr/local/bin/ip netns exec "mcb$_n" "$@"
}

# is_prefix A B: the lines of file A are the first lines of file B
is_prefix() {
	head -n "$(wc -l < "$1")" "$2" | cmp -s - "$1"
}

is_suffix() {
	tail -n "$(wc -l < "$1")" "$2" | cmp -s - "$1"
}

run_ok "insmod mcast.ko" insmod_scaled

N=6 TOPO=torus:6
if ! _out=$(mcastbed up bridge:6 2>&1); then
	fail "mcastbed up bridge:6" "$_out"
	done_testing
	tap_exit
fi
pass "mcastbed up bridge:6"
run_ok "group 1: members 0 1 2 3" mcastbed group 1 0 1 2 3
run_ok "group 2: all 6 nodes" mcastbed group 2 all

# ---- membership change during a send stream
# change_round DESC "NEW MEMBERS" "STAY" "REMOVED" "ADDED" "OUTSIDE":
# node 0 streams NMSG messages to group 1; meanwhile group 1 becomes NEW
# MEMBERS on every node.  A message carries its destinations, fixed by
# the sender's group table when it is sent: members that stay get every
# message, a removed node a prefix of the stream, an added node a suffix
# (and promptly: it must not wait for messages it was never sent), the
# others nothing.
NMSG=300
change_round() {
	_desc=$1 _new=$2 _stay=$3 _rem=$4 _add=$5 _out=$6
	if ! start_rx 1 "$_stay" "$NMSG"; then
		fail "$_desc: receivers ready on every node" "$(cat "$W"/rx.*)"
		return
	fi
	# empty the log first: the last round's would end the wait below at
	# once if the sender had not opened it yet
	: > "$W/tx"
	at 0 $PROBE tx g:1 1400 count=$NMSG gap=5 > "$W/tx" 2>&1 &
	_tpid=$!
	# the change must fall inside the stream: wait for 60 sends (a slow
	# first send is a stall worth seeing, not a reason to change early)
	_t=0
	while [ "$(grep -c '^sent ' "$W/tx")" -lt 60 ] && [ "$_t" -lt 1200 ]; do
		sleep 0.1
		_t=$((_t + 1))
	done
	diag "$_desc: $(grep -c '^sent ' "$W/tx") sends before the change; $(grep '^sent ' "$W/tx" | sed -n '1p;60p' | sed 's/ len.*//' | tr '\n' ' ')"
	# The sender's table decides: bracket its change by the seqs sent
	# just before and just after it, then change the other nodes too.
	_before=$(tx_seqs "$W/tx" | tail -n 1)
	# shellcheck disable=SC2086
	at 0 /usr/local/bin/mcastctl group set 1 members $_new > "$W/gset" 2>&1
	_rc=$?
	_after=$(tx_seqs "$W/tx" | tail -n 1)
	# shellcheck disable=SC2086
	if [ "$_rc" = 0 ] && group_set 1 $_new >> "$W/gset" 2>&1; then
		pass "$_desc: group 1 set to $_new on every node while 0 sends"
	else
		fail "$_desc: group 1 set to $_new on every node while 0 sends" "$(cat "$W/gset")"
	fi
	wait "$_tpid"
	_rc=$?
	is "$_rc/$(tx_seqs "$W/tx" | wc -l)" "0/$NMSG" "$_desc: all $NMSG sends accepted"
	tx_seqs "$W/tx" > "$W/sent"
	_last=$(tail -n 1 "$W/sent")
	# added nodes may be deeper in the tree than the others: 5 s for
	# them to finish (a held stream would wait 10 s for a gap)
	_late=''
	for _u in $_add; do
		_t=0
		while ! grep -q "^msg src=0 seq=$_last " "$W/rx.$_u" && [ "$_t" -lt 50 ]; do
			sleep 0.1
			_t=$((_t + 1))
		done
		[ "$_t" -lt 50 ] || _late="$_late $_u"
	done
	wait_rx
	diag "$_desc: last seq sent before node 0's change ${_before:-none}, after it $_after, last $_last"
	# Sends printed before node 0's change began took the old members;
	# sends that began after it ended (past the one in progress then) the
	# new ones.
	_nbefore=$(awk -v b="${_before:-0}" '$1 <= b' "$W/sent" | wc -l)
	_nafter=$(awk -v a="${_after:-0}" '$1 > a + 1' "$W/sent" | wc -l)
	[ "$_nbefore" -ge 20 ] && [ "$_nafter" -ge 20 ] &&
		pass "$_desc: the stream ran before ($_nbefore) and after ($_nafter) the change" ||
		fail "$_desc: the stream ran before ($_nbefore) and after ($_nafter) the change" "$(cat "$W/tx")"
	_bad=''
	for _u in $_stay; do
		rx_seqs 0 "$W/rx.$_u" > "$W/got.$_u"
		cmp -s "$W/got.$_u" "$W/sent" || _bad="$_bad node$_u:$(wc -l < "$W/got.$_u")/$NMSG"
		[ "$(grep -c '^msg src=0 .* ok=1' "$W/rx.$_u")" = "$NMSG" ] || _bad="$_bad node$_u:corrupt"
	done
	is "$_bad" "" "$_desc: nodes $_stay (members throughout) got every message once, in order, byte-exact"
	for _u in $_rem; do
		rx_seqs 0 "$W/rx.$_u" > "$W/got.$_u"
		_k=$(wc -l < "$W/got.$_u")
		_bad=''
		is_prefix "$W/got.$_u" "$W/sent" || _bad="$_bad not-a-prefix"
		[ "$_k" -ge "$_nbefore" ] || _bad="$_bad short:$_k<$_nbefore"
		awk -v a="${_after:-0}" '$1 > a + 1 { bad = 1 } END { exit bad }' "$W/got.$_u" ||
			_bad="$_bad got-after-change"
		[ "$(grep -c '^msg src=0 .* ok=1' "$W/rx.$_u")" = "$_k" ] || _bad="$_bad corrupt"
		is "$_bad" "" "$_desc: removed node $_u got a prefix of the stream ($_k), once, in order, nothing sent after the change"
		[ -z "$_bad" ] || diag "node $_u:" "$(cat "$W/rx.$_u")"
	done
	for _u in $_add; do
		rx_seqs 0 "$W/rx.$_u" > "$W/got.$_u"
		_k=$(wc -l < "$W/got.$_u")
		_bad=''
		is_suffix "$W/got.$_u" "$W/sent" || _bad="$_bad not-a-suffix"
		[ "$_k" -ge "$_nafter" ] || _bad="$_bad short:$_k<$_nafter"
		awk -v b="${_before:-0}" '$1 <= b { bad = 1 } END { exit bad }' "$W/got.$_u" ||
			_bad="$_bad got-before-change"
		[ "$(grep -c '^msg src=0 .* ok=1' "$W/rx.$_u")" = "$_k" ] || _bad="$_bad corrupt"
		is "$_bad" "" "$_desc: added node $_u got a suffix of the stream ($_k), once, in order, nothing sent before the change"
		[ -z "$_bad" ] || diag "node $_u:" "$(cat "$W/rx.$_u")"
	done
	is "$_late" "" "$_desc: added nodes got the last message within 5 s of the last send"
	_bad=''
	for _u in $_out; do
		[ "$(grep -c '^msg ' "$W/rx.$_u")" = 0 ] || _bad="$_bad $_u"
	done
	is "$_bad" "" "$_desc: nodes $_out (never members) got nothing"
}

# 3 leaves and 4 joins; then 3 joins again: its new messages name as
# predecessor the last one it was sent before it left, which it has
change_round "membership 0123->0124" "0 1 2 4" "0 1 2" "3" "4" "5"
change_round "membership 0124->01234" "0 1 2 3 4" "0 1 2 4" "" "3" "5"

# ---- O_NONBLOCK back-pressure: bursts of 1 MiB (+k) messages to group 2.
# The bursts must outrun the network: on TCP, whose 1 MiB multicast on
# 6.12 completed about as fast as the next was copied in (never 16 MiB
# in flight), the links are delayed by 50 ms for them.  (Not on UDP: its
# window of 1404-byte fragments makes 50 ms a crawl, and netem's queue
# drops what 16 MiB in flight puts in it.)
NB=24
DELAYED=0
if [ "$(node_transport 0)" = tcp ]; then
	modprobe sch_netem 2>/dev/null
	run_ok "tcp: the links delay by 50 ms for the bursts" \
		mcastbed netem 'delay 50ms limit 100000' && DELAYED=1
fi
# check_burst DESC: every node's receive log against the burst's log
check_burst() {
	_bad=''
	tx_seqs "$W/burst" > "$W/sent"
	# lengths 1048576 + k, k = 0..NB-1, in order
	awk -v n="$NB" 'BEGIN { for (k = 0; k < n; k++) print 1048576 + k }' > "$W/lens"
	for _u in 0 1 2 3 4 5; do
		rx_seqs 0 "$W/rx.$_u" > "$W/got.$_u"
		grep '^msg src=0 ' "$W/rx.$_u" | sed 's/.* len=\([0-9]*\) .*/\1/' > "$W/glen.$_u"
		cmp -s "$W/got.$_u" "$W/sent" || _bad="$_bad node$_u:seqs:$(wc -l < "$W/got.$_u")"
		cmp -s "$W/glen.$_u" "$W/lens" || _bad="$_bad node$_u:lens"
		[ "$(grep -c '^msg src=0 .* ok=1' "$W/rx.$_u")" = "$NB" ] || _bad="$_bad node$_u:corrupt"
	done
	is "$_bad" "" "$1: every node got the $NB messages once, in order, byte-exact"
	[ -z "$_bad" ] || diag "$(cat "$W/burst")"
	# seqs follow the clock (docs/data-path.md "Trust"), so a refused
	# send's absence shows as no hole at the receivers (checked above),
	# and the accepted ones rise
	is "$(awk 'NR > 1 && $1 <= p { print "not-rising:" p ">" $1 } { p = $1 }' "$W/sent")" "" \
		"$1: the accepted sends have rising seqs"
}

if start_rx 2 "0 1 2 3 4 5" "$NB"; then
	_t0=$(date +%s)
	at 0 $PROBE burst g:2 1048576 $NB nonblock poll > "$W/burst" 2>&1
	_rc=$?
	wait_rx
	_sum=$(tail -n 1 "$W/burst")
	diag "O_NONBLOCK burst in $(($(date +%s) - _t0)) s: $_sum"
	is "$_rc/$(echo "$_sum" | sed -n 's/.* sent=\([0-9]*\) .*/\1/p')" "0/$NB" \
		"O_NONBLOCK: all $NB sends accepted in the end (retried after EAGAIN)"
	_e=$(echo "$_sum" | sed -n 's/.* eagain=\([0-9]*\) .*/\1/p')
	[ "${_e:-0}" -ge 1 ] && pass "O_NONBLOCK: the burst met EAGAIN ($_e times)" ||
		fail "O_NONBLOCK: the burst met EAGAIN" "$(cat "$W/burst")"
	# at most 16 MiB in flight: the first refusal is at k >= 15
	_k=$(sed -n 's/^eagain k=\([0-9]*\) .*/\1/p' "$W/burst" | head -n 1)
	[ "${_k:-0}" -ge 15 ] && pass "O_NONBLOCK: no refusal before 16 MiB are in flight (first at k=$_k)" ||
		fail "O_NONBLOCK: no refusal before 16 MiB are in flight" "$(cat "$W/burst")"
	check_burst "O_NONBLOCK"
	# after EAGAIN the sender waits in poll(POLLOUT), which reports room
	# for a send of any size: the next try must be taken
	is "$(echo "$_sum" | sed -n 's/.* eagain_after_poll=\([0-9]*\) poll_timeouts=\([0-9]*\) .*/\1 \2/p')" \
		"0 0" "O_NONBLOCK: poll(POLLOUT) waits for room; every send after it was taken"
	grep -q self-received "$W/burst" && fail "O_NONBLOCK: the sending file got nothing" ||
		pass "O_NONBLOCK: the sending file got nothing"
else
	fail "O_NONBLOCK: receivers ready" "$(cat "$W"/rx.*)"
fi

if start_rx 2 "0 1 2 3 4 5" "$NB"; then
	_t0=$(date +%s)
	at 0 $PROBE burst g:2 1048576 $NB > "$W/burst" 2>&1
	_rc=$?
	wait_rx
	_sum=$(tail -n 1 "$W/burst")
	diag "blocking burst in $(($(date +%s) - _t0)) s: $_sum"
	is "$_rc/$(echo "$_sum" | sed -n 's/.* sent=\([0-9]*\) eagain=\([0-9]*\) .*/\1 \2/p')" "0/$NB 0" \
		"blocking file: all $NB sends accepted, none refused"
	_m=$(echo "$_sum" | sed -n 's/.* max_us=\([0-9]*\) .*/\1/p')
	[ "${_m:-0}" -ge 10000 ] && pass "blocking file: a send waited for room (longest ${_m} us)" ||
		fail "blocking file: a send waited for room" "$(cat "$W/burst")"
	check_burst "blocking file"
	# retransmissions and duplicates behind the waits, node by node, and
	# the UDP datagrams the node's socket buffers dropped
	for _u in 0 1 2 3 4 5; do
		diag "node $_u: $(at "$_u" $PROBE stats | grep '^netstats')" \
			"node $_u: udp $(at "$_u" cat /proc/net/snmp | awk '/^Udp:/ {
				if (!h) { for (i = 2; i <= NF; i++) n[i] = $i; h = 1; next }
				for (i = 2; i <= NF; i++) if (n[i] ~ /Errors$/) printf "%s=%s ", n[i], $i }')"
	done
else
	fail "blocking file: receivers ready" "$(cat "$W"/rx.*)"
fi
[ "$DELAYED" = 0 ] || run_ok "the links are undelayed again" mcastbed netem off

# ---- completion mode over io_uring
PEEK=peek=mcb1,mcb2,mcb3,mcb4,mcb5
# usend DESC GROUP "DESTS" ARGS...: receivers in every node (joined to
# GROUP, 0: none; node lists reach every open file), one io_uring send
# from node 0 (mcast_probe usend ARGS), the receivers' logs
usend() {
	_desc=$1 _grp=$2 _dests=$3
	shift 3
	if ! start_rx "$_grp" "$_dests" 1; then
		fail "$_desc: receivers ready" "$(cat "$W"/rx.*)"
		return 1
	fi
	at 0 $PROBE usend "$@" > "$W/usend" 2>&1
	_rc=$?
	wait_rx
	[ "$_rc" = 0 ] || fail "$_desc: mcast_probe usend" "$(cat "$W/usend")"
	diag "$_desc:" "$(cat "$W/usend")"
}

# peeks DESC N: N destinations held the message at the CQE (and later)
peeks() {
	_n=$(grep -c '^peek ns=mcb[0-9]* at_cqe=1 later=1$' "$W/usend")
	is "$_n" "$2" "$1"
	[ "$_n" = "$2" ] || for _f in "$W"/rx.*; do
		diag "${_f##*/}:" "$(cat "$_f")"
	done
}

if usend "io_uring WAIT" 0 "1 2 3 4 5" n:1,2,3,4,5 1048576 wait=30000 "$PEEK"; then
	grep -q '^cqe res=0 data=7 seq=[0-9]* nfailed=0 failed= ' "$W/usend" &&
		pass "io_uring WAIT: the CQE has res 0, no node failed" ||
		fail "io_uring WAIT: the CQE has res 0, no node failed" "$(cat "$W/usend")"
	peeks "io_uring WAIT: when the CQE arrives every destination node already holds the message" 5
	_g=0
	for _u in 1 2 3 4 5; do
		_g=$((_g + $(grep -c '^msg src=0 .* len=1048576 .* ok=1' "$W/rx.$_u")))
	done
	is "$_g" 5 "io_uring WAIT: each destination got it once, byte-exact"
fi
if usend "io_uring plain" 0 "1 2 3 4 5" n:1,2,3,4,5 1048576 "$PEEK"; then
	grep -q '^cqe res=0 data=7 ' "$W/usend" &&
		pass "io_uring plain send: the CQE has res 0" ||
		fail "io_uring plain send: the CQE has res 0" "$(cat "$W/usend")"
	# the check above can tell: without WAIT the CQE does not wait
	_n=$(grep -c '^peek ns=mcb[1-5] at_cqe=0 later=1$' "$W/usend")
	[ "$_n" -ge 1 ] && is "$(grep -c 'later=1$' "$W/usend")" 5 \
		"io_uring plain send: its CQE comes before the message reached every node ($_n had not), then all get it" ||
		fail "io_uring plain send: its CQE comes before the message reached every node, then all get it" \
			"$(cat "$W/usend")"
fi

# a dead destination: node 5's netns removed; retransmissions given up
# on sooner (200 ms doubling, 3 tries: about 1.4 s)
run_ok "shorter RTO on every node (rto 200 retries 3)" node_set rto 200 retries 3
run_ok "mcastbed kill 5" mcastbed kill 5
N=5	# receivers in nodes 0-4 only
PEEK=peek=mcb1,mcb2,mcb3,mcb4
# first a wait shorter than giving up on node 5 takes (~1.4 s): the
# nodes of every still pending transfer count as failed, 5 among them
if usend "io_uring WAIT 300 ms, node 5 dead" 0 "1 2 3 4" n:1,2,3,4,5 65536 wait=300 "$PEEK"; then
	_l=$(grep '^cqe ' "$W/usend")
	_ms=$(echo "$_l" | sed -n 's/.* ms=\([0-9]*\)$/\1/p')
	_f=$(echo "$_l" | sed -n 's/.* failed=\([0-9,]*\) .*/\1/p')
	_ok=0
	case "$_l/,$_f," in
	"cqe res=EHOSTUNREACH data=7 "*/*,5,*) _ok=1 ;;
	esac
	# before giving up on node 5 (1.4 s), unless a slow kernel's timers
	# run late (mcast_time_scale)
	[ "$_ok" = 1 ] && [ "${_ms:-0}" -ge 250 ] &&
		[ "${_ms:-9999}" -lt $((1300 * ${mcast_time_scale:-1})) ] &&
		pass "io_uring WAIT with timeout_ms 300, node 5 dead: -EHOSTUNREACH after the timeout, 5 among the failed" ||
		fail "io_uring WAIT with timeout_ms 300, node 5 dead: -EHOSTUNREACH after the timeout, 5 among the failed" \
			"$(cat "$W/usend")"
	is "$(grep -c '^peek ns=mcb[1-4] at_cqe=[01] later=1$' "$W/usend")" 4 \
		"io_uring WAIT with timeout_ms 300, node 5 dead: the live destinations get the message"
fi
if usend "io_uring WAIT, node 5 dead" 0 "1 2 3 4" n:1,2,3,4,5 65536 wait=30000 "$PEEK"; then
	grep -q '^cqe res=EHOSTUNREACH data=7 seq=[0-9]* nfailed=1 failed=5 ' "$W/usend" &&
		pass "io_uring WAIT to a node list with node 5 dead: res -EHOSTUNREACH, failed = 5" ||
		fail "io_uring WAIT to a node list with node 5 dead: res -EHOSTUNREACH, failed = 5" "$(cat "$W/usend")"
	peeks "io_uring WAIT, node 5 dead: the live destinations hold the message at the CQE" 4
fi
if usend "io_uring WAIT to group 2, node 5 dead" 2 "1 2 3 4" g:2 1400 wait=30000 "$PEEK"; then
	grep -q '^cqe res=EHOSTUNREACH data=7 seq=[0-9]* nfailed=1 failed=5 ' "$W/usend" &&
		pass "io_uring WAIT to group 2 with node 5 dead: res -EHOSTUNREACH, failed = 5" ||
		fail "io_uring WAIT to group 2 with node 5 dead: res -EHOSTUNREACH, failed = 5" "$(cat "$W/usend")"
	peeks "io_uring WAIT to group 2, node 5 dead: the live members hold the message at the CQE" 4
fi
mcastbed down > /dev/null 2>&1

# ---- 1 MiB and 4 MiB on an 8x8 unidirectional torus
N=64 TOPO=torus:8x8:uni
if _out=$(mcastbed up "$TOPO" 2>&1); then
	pass "mcastbed up $TOPO"
	members 1 10 41
	src=${MEM%% *}
	round "$TOPO: 1 MiB and 4 MiB to group 1 from member $src, U-torus" \
		"$src" g:1 "$MEM" 1048576,4194304 wait=60000 no-offload
	# auto's choice for long messages without IR: Mu-torus(4) chains
	ALGO=mu-torus:4 CHAIN=1
	round "$TOPO: 4 MiB to group 1 from member $src, auto (mu-torus:4 chains)" \
		"$src" g:1 "$MEM" 4194304 wait=60000
	ALGO= CHAIN=0
else
	fail "mcastbed up $TOPO" "$_out"
fi
mcastbed down > /dev/null 2>&1

is "$(ip netns list | grep -c mcb)" 0 "no namespaces left"
run_ok "rmmod mcast" rmmod mcast
done_testing
tap_exit
