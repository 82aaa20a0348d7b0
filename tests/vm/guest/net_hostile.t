#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# A hostile network (docs/data-path.md, "Trust" and "Bounds"), on a 2x2
# torus where group 5 is nodes 1 and 2.
#
# Bounds: node 2, as itself (UDP from its own port over a raw socket),
# sends node 1 1500 one-fragment messages, each naming a predecessor that
# never comes, so node 1 would hold every one for FIFO order.  Node 1
# holds at most 256 of them (a held message keeps its job live, and one
# peer has at most MCAST_JOBS_PER_PEER, 256) and answers the rest BUSY
# (before: no bound); node 0's real message still gets in at once;
# once the gap time (10 s) is past every held message is delivered and
# the gauges are back to zero.
#
# Late: refused and reported, never out of order.  Node 3's message M2,
# relayed by node 0, arrives at node 1 before M1, its predecessor; node 1
# holds M2 for the gap time (fifo_gap_ms, made 3 s here), then delivers
# it and stops waiting.
# M1, a transfer still within its lifetime, arrives after that: node 1
# does not deliver it (that would break FIFO), counts it in `late` and
# answers DONE with itself in the failed list, so the sender hears M1
# failed at node 1 (before: delivered out of order; before that, dropped
# as a duplicate, though its DONE told node 0 it had arrived); a second
# copy of M1 in another transfer gets the same answer.  M0, older still,
# comes once node 1 has forgotten node 3's stream (idle): below the
# stream's floor, whether it was delivered is forgotten, so it gets the
# same answer (before: dropped as a duplicate, its DONE saying delivered).
# (mcast_forge plays node 0, from its address and port, and prints node
# 1's answers.  The stream is node 3's, which sends nothing else: seqs
# forged into node 0's own stream would stand above its real ones, and
# once that stream is forgotten (the fuzz below forgets idle ones after
# 5 s) its floor would make node 0's real messages duplicates.)
#
# Epoch: node 1's ACKs and DONEs are dropped on its links; mcast_forge,
# on its address and port, answers node 0's transfer of a 300 KB message
# with one ACK, naming node 1's incarnation (read off its ACKs before:
# one naming none is refused), claiming a receiving job 2^30 epochs newer than node 1's
# own (ACKs name the child's job, docs/data-path.md "Per-hop
# reliability").  Node 1's real ACKs then look older and say nothing, so
# node 0's window cannot move: its send must end at the transfer's
# lifetime reporting node 1 failed (not hang, not report a success), node
# 1 must not deliver the message, and node 0's next send completes
# (before ACKs named the job, node 1's real ACKs moved the window and the
# send completed).  Node 1's partial job of that message must go within
# 20 s of its last fragment: no one tells it node 0 gave up.
#
# Young: node 1's ACKs and DONEs are dropped again (but ACKs
# marked YOUNG), so node 0's transfer of a 20 KB message to it stays open
# though node 1 has it; mcast_forge, on node 1's address and port, reads
# the transfer's id off node 0's DATA and answers it with forged YOUNG
# ACKs (docs/data-path.md, Incarnations), each with another incarnation:
# one claiming node 1 was born after the transfer began (age 0) makes
# node 0 give the transfer up, and 50 claiming it is old make node 0 send
# the message again once (one rewind, the other 49 ignored), then give up
# when node 1's real answer names its real incarnation.  Either way node
# 0's send reports node 1 failed, node 1 delivers the message exactly
# once, and node 0's next send completes.  (Without a key a peer's
# address is all a forger needs: it can make a send fail, never deliver
# twice or report a success that was not; with one, net_key.t.)
#
# Fuzz: over UDP and TCP, mcast_forge's fuzzer sends node 1 thousands of
# random and mutated datagrams from node 3 (which node 1 does not know as
# a peer) and from node 2 (a peer, as itself), while node 0 sends 20
# messages to the group in completion mode.  Every send completes, each
# member delivers each of node 0's messages exactly once and in order,
# and afterwards no node holds anything (jobs, transfers, held messages,
# reassembly and message memory; finished jobs once forgotten) and the
# guest's free memory is back where it was.  The harness checks the
# kernel log for KASAN, UBSAN, lockdep and warnings after every boot.

# shellcheck source=tests/vm/guest/tap.sh
. /tests/tap.sh

# shellcheck source=tests/vm/guest/netlib.sh
. /tests/netlib.sh

run_ok "insmod mcast.ko" insmod "$MCAST_KO"

N=4 TOPO=torus:2x2
PORT=7447
NEVER=999999999999	# a predecessor seq no one sent

# What MemAvailable may lose over the fuzz: 24 MiB.  The module's own
# objects are counted exactly (the gauges above, its leak report at
# unload); this looks for a leak outside them.  8 MiB was too tight:
# after the fuzz the guest's MemAvailable is 5-18 MB lower even with
# every stream and job forgotten (TCP more than UDP, not explained yet:
# the peers' autotuned socket buffers are the suspect), where a leak of
# one skb per fuzz datagram would lose 20-40 MB.
MEM_SLACK_KB=24576

# MemAvailable again, looked at up to six times (about 18 s) until within
# MEM_SLACK_KB of MEM0: under a loaded host the guest frees late (netns and
# socket teardown, RCU), and a leak stays however long one waits
mem_back_kb() { # MEM0
	_t=0
	while :; do
		_m=$(mem_avail_kb)
		[ $(($1 - _m)) -ge $MEM_SLACK_KB ] && [ $_t -lt 5 ] || break
		_t=$((_t + 1))
	done
	echo "$_m"
}

# NODE's gauges GAUGE.. all 0, or a failure naming the others
gauges_zero() { # DESC NODE GAUGE..
	_d=$1 _n=$2 _bad=''
	shift 2
	for _g in "$@"; do
		_v=$(netstat_of "$_n" "$_g")
		[ "$_v" = 0 ] || _bad="$_bad $_g=$_v"
	done
	[ -z "$_bad" ] && pass "$_d" || fail "$_d" "$_bad"
}

start_receivers() {
	for _n in 1 2; do
		mcastbed exec "$_n" mcast_probe rx 5 120000 -1 > "$W/rx.$_n" 2>&1 &
	done
	for _n in 1 2; do
		wait_lines 1 '^ready' "$W/rx.$_n" ||
			fail "$TP: receiver $_n ready" "$(cat "$W/rx.$_n")"
	done
}

stop_receivers() {
	for _n in 1 2; do
		kill "$(sed -n 's/^ready .* pid=\([0-9]*\)$/\1/p' "$W/rx.$_n")" 2>/dev/null
	done
	wait
}

# the held-message bound (see the top)
held_bound() {
	start_receivers
	busy0=$(netstat_of 1 busy_sent)
	run_ok "$TP: node 2 sends node 1 1500 messages whose predecessor never comes" \
		mcastbed exec 2 mcast_forge raw sport=$PORT "$(addr_of 1)" $PORT data \
		from=2 src=2 group=5 xid=1000 seq=1000 inc=xid,seq \
		piece=1:$NEVER text=held n=1500
	sleep 2
	held=$(netstat_of 1 held)
	[ "${held:-x}" = 256 ] && pass "$TP: node 1 holds 256 of them, the bound on one peer's live jobs" ||
		fail "$TP: node 1 holds at most 256 messages of one peer" "held=$held"
	d=$(delta "$busy0" "$(netstat_of 1 busy_sent)")
	[ "$d" != none ] && [ "$d" -ge 400 ] && pass "$TP: ... and answered $d BUSY" ||
		fail "$TP: node 1 answers BUSY past the bound" "busy_sent +$d"
	out=$(mcastbed exec 0 mcast_probe tx g:5 500 wait=10000)
	case $out in
	*"rc=0 nfailed=0"*) pass "$TP: node 0's send to the group completes meanwhile" ;;
	*) fail "$TP: node 0's send to the group completes meanwhile" "$out" ;;
	esac
	sleep 12
	gauges_zero "$TP: after the gap time node 1 holds nothing" 1 held msg_mem jobs rx_mem
	stop_receivers
	# delivered at once: a 256-message receive queue keeps the first ones
	got=$(grep -c '^msg src=2 .* len=4 ' "$W/rx.1")
	lost=$(sed -n 's/^msg .* dropped=\([0-9]*\)$/\1/p' "$W/rx.1" | awk '{ s += $1 } END { print s + 0 }')
	is "$((got + lost))" 256 "$TP: node 1 let the 256 held messages go ($got received, $lost dropped by the full queue)"
	is "$(grep -c '^msg src=0 .* len=500 .*ok=1' "$W/rx.1")" 1 "$TP: ... and node 0's once"
}

# a message that comes after its stream stopped waiting (see the top)
late_message() {
	# node 3's seqs as its clock makes them (seconds << 20): a seq
	# beyond the clock is no message's and is refused outright
	S=$(($(date +%s) * 1048576))
	start_receivers
	late0=$(netstat_of 1 late)
	as0() { # XID SEQ PREV TEXT
		mcastbed exec 0 mcast_forge raw sport=$PORT "$(addr_of 1)" $PORT data \
			from=0 src=3 group=5 xid="$1" seq="$2" piece=1:"$3" text="$4" listen=3000
	}
	run_ok "$TP: the gap time is 3 s" sh -c 'echo 3000 > /sys/module/mcast/parameters/fifo_gap_ms'
	run_ok "$TP: M2 reaches node 1 first" as0 7001 $((S + 2)) $((S + 1)) late2
	sleep 4
	echo 10000 > /sys/module/mcast/parameters/fifo_gap_ms
	as0 7000 $((S + 1)) 0 late1 > "$W/late1"
	as0 7002 $((S + 1)) 0 late1 > "$W/late1again"
	# M0 comes after node 3's stream itself was forgotten (idle 2 s here)
	echo 2000 > /sys/module/mcast/parameters/stream_idle_ms
	_i=0
	while [ "$(netstat_of 1 streams)" != 0 ] && [ $_i -lt 30 ]; do
		sleep 1
		_i=$((_i + 1))
	done
	is "$(netstat_of 1 streams)" 0 "$TP: node 1 forgot node 3's stream (idle 2 s)"
	dups0=$(netstat_of 1 dups)
	as0 7003 "$S" 0 late0 > "$W/late0"
	echo 90000 > /sys/module/mcast/parameters/stream_idle_ms
	stop_receivers
	is "$(grep '^msg src=3 .* len=5 ' "$W/rx.1" | sed 's/.* seq=\([0-9]*\) .*/\1/' | tr '\n' ' ')" \
		"$((S + 2)) " "$TP: node 1 delivered M2 only: M1 came after the gap time, M0 after the stream"
	for f in late1:$((S + 1)) late1again:$((S + 1)) late0:$S; do
		if grep -q "^got done .* seq=${f#*:} step=[0-9]* count=1 .* ids=1\$" "$W/${f%:*}"; then
			pass "$TP: ... and answered its DONE with itself failed (${f%:*})"
		else
			fail "$TP: node 1 reports it failed in its DONE (${f%:*})" "$(cat "$W/${f%:*}")"
		fi
	done
	is "$(delta "$late0" "$(netstat_of 1 late)")" 3 "$TP: ... and counted all three in late"
	is "$(delta "$dups0" "$(netstat_of 1 dups)")" 0 "$TP: ... M0 not as a duplicate (below the floor: forgotten, not known delivered)"
}

# Node 0 sends SIZE bytes to group 5 in completion mode (its output in
# $W/NAME.tx, its pid $yt) while mcast_forge, on node 1's address and
# port, watches what comes in ($W/NAME.l); $xid is the id of node 0's
# transfer to node 1.  The watcher's own first datagram is a YOUNG ACK for
# no transfer (id 0 is never one): node 0 ignores it.
send_watched() { # NAME SIZE
	mcastbed exec 1 mcast_forge raw sport=$PORT "$(addr_of 0)" $PORT ack \
		from=1 flags=4 listen=30000 > "$W/$1.l" 2>&1 &
	yl=$!
	sleep 1
	mcastbed exec 0 mcast_probe tx g:5 "$2" wait=60000 > "$W/$1.tx" 2>&1 &
	yt=$!
	wait_lines 1 '^got data' "$W/$1.l"
	xid=$(sed -n 's/^got data .* xid=\([0-9]*\) .*/\1/p' "$W/$1.l" | head -n 1)
}

stop_watching() {
	kill "$yl" 2>/dev/null
	pkill -f "mcast_forge raw sport=$PORT .* listen=30000" 2>/dev/null
	wait "$yl" 2>/dev/null
}

# node 0's send (send_watched NAME) reported node 1 failed; $failed is
# the nodes it named
send_failed_node1() { # DESC NAME
	failed=$(sed -n 's/.* failed=\([0-9,]*\).*/\1/p' "$W/$2.tx")
	case ",$failed," in
	*,1,*) pass "$1: node 0's send reports node 1 failed: $(cat "$W/$2.tx")" ;;
	*) fail "$1: node 0's send reports node 1 failed" "$(cat "$W/$2.tx")" ;;
	esac
}

# node 2 delivered node 0's SIZE-byte message once, or was named failed
node2_once_or_failed() { # DESC SIZE
	n2=$(grep -c "^msg src=0 .* len=$2 .*ok=1" "$W/rx.2")
	case "$n2:,$failed," in
	1:* | 0:*,2,*) pass "$1: node 2 delivered it once, or is reported failed ($n2)" ;;
	*) fail "$1: node 2 delivered it once, or is reported failed" "$n2, failed=$failed" ;;
	esac
}

# node 0 sends a 20 KB message to the group; node 1, whose real answers
# are held back, forges COPIES YOUNG ACKs for it, each with age COUNT ms
# and an incarnation of its own (see the top)
forged_young() { # DESC COUNT COPIES REWINDS
	start_receivers
	r0=$(netstat_of 0 rewinds)
	# room for the forgery: node 0 must not give node 1 up before it
	retries=$(mcastbed exec 0 mcastctl -j node show | sed -n 's/.*"retries": *\([0-9]*\).*/\1/p')
	run_ok "$TP: young, $1: node 0 retries 20 times" \
		mcastbed exec 0 mcastctl node set retries 20
	run_ok "$TP: young, $1: node 1's answers are dropped, but YOUNG ones" \
		drop_sent 1 add 2 0xfe 0 0x04
	send_watched young 20000
	run_ok "$TP: young, $1: node 1 forges $3 YOUNG ACKs for transfer ${xid:-?}" \
		mcastbed exec 1 mcast_forge raw sport=$PORT "$(addr_of 0)" $PORT ack \
		from=1 xid="${xid:-0}" flags=4 step=4242 count="$2" n="$3"
	stop_watching
	sleep 1
	run_ok "$TP: young, $1: node 1's answers go again" drop_sent 1 del
	wait "$yt"
	send_failed_node1 "$TP: young, $1" young
	is "$(delta "$r0" "$(netstat_of 0 rewinds)")" "$4" "$TP: young, $1: node 0 rewound $4 times"
	sleep 1
	stop_receivers
	is "$(grep -c '^msg src=0 .* len=20000 .*ok=1' "$W/rx.1")" 1 \
		"$TP: young, $1: node 1 delivered it once"
	node2_once_or_failed "$TP: young, $1" 20000
	run_ok "$TP: young, $1: node 0 retries ${retries:-6} times again" \
		mcastbed exec 0 mcastctl node set retries "${retries:-6}"
	out=$(mcastbed exec 0 mcast_probe tx g:5 700 wait=20000)
	case $out in
	*"rc=0 nfailed=0"*) pass "$TP: young, $1: node 0's next send completes" ;;
	*) fail "$TP: young, $1: node 0's next send completes" "$out" ;;
	esac
}

# node 0 sends a 300 KB message (more than a transfer's window of 64
# fragments) to the group; node 1, its answers held back, forges one ACK
# for it naming a receiving job 2^30 epochs newer than its own (see the
# top)
forged_epoch() {
	start_receivers
	retries=$(mcastbed exec 0 mcastctl -j node show | sed -n 's/.*"retries": *\([0-9]*\).*/\1/p')
	# node 0 must not give node 1 up while its answers are held back; the
	# transfer's lifetime (5 s here) ends it once they are ignored, and
	# node 1 then waits the gap time (3 s here) for the lost message
	run_ok "$TP: epoch: node 0 retries 20 times" mcastbed exec 0 mcastctl node set retries 20
	# (times mcast_time_scale: the forgery and node 1's real ACKs after
	# it must come within the lifetime on a slowed guest too)
	_p=/sys/module/mcast/parameters
	life0=$(cat $_p/transfer_lifetime_ms) gap0=$(cat $_p/fifo_gap_ms)
	echo $((5000 * ${mcast_time_scale:-1})) > $_p/transfer_lifetime_ms
	echo $((3000 * ${mcast_time_scale:-1})) > $_p/fifo_gap_ms
	old0=$(netstat_of 0 acks_old)
	# the forger, on the path, reads node 1's incarnation off its ACKs
	# (an ACK naming none, 0, is no ACK)
	mcastbed exec 0 mcast_forge raw sport=$PORT "$(addr_of 1)" $PORT ack \
		n=0 listen=3000 > "$W/inc.l" 2>&1 &
	il=$!
	sleep 1
	mcastbed exec 0 mcast_probe tx g:5 100 wait=5000 > /dev/null 2>&1
	wait "$il"
	inc1=$(sed -n 's/^got .* step=\([0-9]*\) .*/\1/p' "$W/inc.l" | head -n 1)
	[ -n "$inc1" ] && pass "$TP: epoch: node 1's incarnation is $inc1" ||
		fail "$TP: epoch: node 1's incarnation read off its ACKs" "$(cat "$W/inc.l")"
	# all but the forgery, which sets an ACK flag no one reads (0x08) so
	# that it passes the filter on node 1's own links
	run_ok "$TP: epoch: node 1's ACKs and DONEs are dropped" drop_sent 1 add 2 0xfe 0 0x08
	send_watched epoch 300000
	run_ok "$TP: epoch: node 1 forges an ACK of epoch 2^30 for transfer ${xid:-?}" \
		mcastbed exec 1 mcast_forge raw sport=$PORT "$(addr_of 0)" $PORT ack \
		from=1 xid="${xid:-0}" flags=8 step="${inc1:-0}" count=1073741824
	stop_watching
	run_ok "$TP: epoch: node 1's answers go again" drop_sent 1 del
	wait "$yt"
	send_failed_node1 "$TP: epoch" epoch
	# node 1's real ACKs came once its filter went, before the send
	# ended, and were ignored as older: else the case proved nothing
	old=$(delta "$old0" "$(netstat_of 0 acks_old)")
	case $old in
	none | 0) fail "$TP: epoch: node 0 ignored node 1's real ACKs as older (acks_old)" \
		"acks_old grew by $old: the forgery or the real ACKs came after the send ended" ;;
	*) pass "$TP: epoch: node 0 ignored node 1's real ACKs as older ($old in acks_old)" ;;
	esac
	echo "$life0" > $_p/transfer_lifetime_ms
	run_ok "$TP: epoch: node 0 retries ${retries:-6} times again" \
		mcastbed exec 0 mcastctl node set retries "${retries:-6}"
	out=$(mcastbed exec 0 mcast_probe tx g:5 700 wait=20000)
	echo "$gap0" > $_p/fifo_gap_ms
	case $out in
	*"rc=0 nfailed=0"*) pass "$TP: epoch: node 0's next send completes" ;;
	*) fail "$TP: epoch: node 0's next send completes" "$out" ;;
	esac
	sleep 1
	stop_receivers
	is "$(grep -c '^msg src=0 .* len=300000 ' "$W/rx.1")" 0 \
		"$TP: epoch: node 1 did not deliver what it was reported failed for"
	node2_once_or_failed "$TP: epoch" 300000
	is "$(grep -c '^msg src=0 .* len=700 .*ok=1' "$W/rx.1")" 1 "$TP: epoch: node 1 delivered the next once"
	epoch_end=$(cut -d. -f1 /proc/uptime)
}

# Node 1 never learns that node 0 gave the 300 KB message of the epoch
# case up: its partial job goes 20 s after the last fragment came (the
# parent went silent), before the fuzz, whose end finds every gauge 0.
partial_dropped() {
	while [ "$(netstat_of 1 jobs)" != 0 ] &&
	      [ $(($(cut -d. -f1 /proc/uptime) - epoch_end)) -lt 40 ]; do
		sleep 1
	done
	is "$(netstat_of 1 jobs)" 0 \
		"$TP: node 1 dropped the partial job of the message node 0 gave up ($(($(cut -d. -f1 /proc/uptime) - epoch_end)) s after)"
}

# fuzz while node 0 sends (see the top)
fuzz() {
	run_ok "$TP: node 1 forgets node 3" mcastbed exec 1 mcastctl peer del "$(coord 3)"
	OPT=tcp
	[ "$TP" = tcp ] || OPT="raw sport=$PORT"
	# the fuzz makes streams for made-up (src, group) pairs, up to the
	# cap; they are forgotten once idle: make that 5 s, so that they
	# are gone when the memory is measured
	echo 5000 > /sys/module/mcast/parameters/stream_idle_ms
	# a first round grows the kernel's caches (slabs, per-cpu lists, the
	# peers' socket buffers) to what the fuzz and the sends need: the
	# free memory that must come back is measured after it
	mcastbed exec 2 mcast_forge $OPT "$(addr_of 1)" $PORT fuzz from=2 src=2 \
		group=5 xid=1 seq=1 seed=4 n=3000 > /dev/null 2>&1 &
	fw=$!
	k=0
	while [ $k -lt 20 ]; do
		mcastbed exec 0 mcast_probe tx g:5 $((100 + k * 997)) wait=20000 \
			> /dev/null 2>&1
		k=$((k + 1))
	done
	wait "$fw"
	start_receivers
	dups0=$(netstat_of 1 dups) late0=$(netstat_of 1 late)
	mem0=$(mem_avail_kb)
	mcastbed exec 3 mcast_forge $OPT "$(addr_of 1)" $PORT fuzz from=0 src=0 \
		group=5 seed=1 n=3000 > "$W/fuzz.3" 2>&1 &
	f3=$!
	# shellcheck disable=SC2086
	mcastbed exec 2 mcast_forge $OPT "$(addr_of 1)" $PORT fuzz from=2 src=2 \
		group=5 xid=1 seq=1 seed=2 n=3000 > "$W/fuzz.2" 2>&1 &
	f2=$!
	# shellcheck disable=SC2086
	mcastbed exec 2 mcast_forge $OPT "$(addr_of 0)" $PORT fuzz from=2 src=0 \
		group=5 seed=3 n=3000 > "$W/fuzz.0" 2>&1 &
	f0=$!
	okn=0 k=0
	while [ $k -lt 20 ]; do
		out=$(mcastbed exec 0 mcast_probe tx g:5 $((100 + k * 997)) wait=20000)
		case $out in
		*"rc=0 nfailed=0"*) okn=$((okn + 1)) ;;
		*) diag "send $k: $out" ;;
		esac
		k=$((k + 1))
	done
	wait "$f3" "$f2" "$f0"
	is "$okn" 20 "$TP: node 0's 20 sends completed under fuzz"
	grep -q '^sent 3000' "$W/fuzz.2" && grep -q '^sent 3000' "$W/fuzz.0" &&
		pass "$TP: node 2 sent 6000 fuzz datagrams" ||
		fail "$TP: node 2 sent its fuzz" "$(cat "$W/fuzz.2" "$W/fuzz.0")"
	d=$(netstat_of 1 rx_bad_src) m=$(netstat_of 1 rx_malformed)
	[ "${d:-0}" -gt 0 ] && [ "${m:-0}" -gt 0 ] &&
		pass "$TP: node 1 dropped them: rx_bad_src $d, rx_malformed $m" ||
		fail "$TP: node 1 counts the fuzz" "rx_bad_src $d rx_malformed $m ($(cat "$W/fuzz.3"))"
	sleep 2
	stop_receivers
	for n in 1 2; do
		check_once_in_order "$W/rx.$n" 20 "$TP: node $n delivered node 0's 20 messages"
	done
	diag "$TP: node 1 counted dups +$(delta "$dups0" "$(netstat_of 1 dups)"), late +$(delta "$late0" "$(netstat_of 1 late)") during the fuzz"
	for n in 0 1 2; do
		gauges_zero "$TP: node $n holds nothing after the fuzz" "$n" \
			jobs transfers queued held msg_mem rx_mem unacked
	done
	sleep 21	# finished jobs are remembered for 20 s
	for n in 0 1 2; do
		gauges_zero "$TP: node $n forgot its finished jobs and idle streams" \
			"$n" done_jobs streams
	done
	echo 90000 > /sys/module/mcast/parameters/stream_idle_ms
	mem1=$(mem_back_kb "$mem0")
	[ $((mem0 - mem1)) -lt $MEM_SLACK_KB ] &&
		pass "$TP: free memory back where it was (${mem0} -> ${mem1} kB)" ||
		fail "$TP: free memory back where it was" "MemAvailable ${mem0} -> ${mem1} kB"
}

for TP in udp tcp; do
	up_on_transport || continue
	run_ok "$TP: group 5 is nodes 1 and 2" mcastbed group 5 "$(coord 1)" "$(coord 2)"
	[ "$TP" = tcp ] || held_bound
	[ "$TP" = tcp ] || late_message
	[ "$TP" = tcp ] || forged_epoch
	[ "$TP" = tcp ] || forged_young "born after the transfer began" 0 1 0
	[ "$TP" = tcp ] || forged_young "old" 4000000000 50 1
	[ "$TP" = tcp ] || partial_dropped
	fuzz
	mcastbed down > /dev/null 2>&1
done

is "$(ip netns list | grep -c mcb)" 0 "no namespaces left"
run_ok "rmmod mcast" rmmod mcast
done_testing
tap_exit
