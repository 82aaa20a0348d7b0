#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# The offload path: path-based worms on the simulated IR fabric.  On a 4x4
# fabric, a 4x4 cluster sends with every algorithm (S-, Md-, Mu-torus(2),
# Mu-torus(4), and U-torus for comparison): every destination gets every
# message once, byte-exact, in order, in the phase and from the worm
# sender mcastctl plan shows (also md-torus from sources whose sub-torus
# straddles the H-cycle's wrap), each worm on the fabric hop for hop as the
# plan routes it; the senders count worms, the receivers
# count worm receptions, and the fabric's checks stay quiet (Thm 6.1: no
# deadlock, every channel in the three-tier order, one boundary) also with
# every node sending at once; a send may choose its own algorithm.  Worms
# over the transport's declared limits are split (counted) and still
# deliver; a failed link cuts worms and
# completion mode still accounts for every destination.  In make vmcheck-full
# a 3x3x3 torus and a 6x6 one, each on its own fabric, run every
# path-based algorithm too.  On TCP, which has
# no IR, a path-based setting runs its worms in software (each destination
# passes the rest on: pipelined chains), with the same guarantees, counted
# as fallbacks; auto takes Mu-torus(4) chains for long messages and
# U-torus for short ones; a send that requires offload gets EOPNOTSUPP.

# shellcheck source=tests/vm/guest/tap.sh
. /tests/tap.sh

# shellcheck source=tests/vm/guest/netlib.sh
. /tests/netlib.sh

IRSIM_KO=${MCAST_KO%/*}/mcast_irsim.ko
D=/sys/kernel/debug/mcast_irsim

run_ok "insmod mcast.ko" insmod "$MCAST_KO"
run_ok "insmod mcast_irsim.ko" insmod "$IRSIM_KO"

stat_of() {
	sed -n "s/^$1 //p" $D/stats
}

# the fabric's theorems as counters: deadlocks/lambda/boundary
checks_quiet() { # DESC
	is "$(stat_of deadlocks)/$(stat_of lambda_violations)/$(stat_of boundary_violations)" \
		0/0/0 "$1: no deadlock, every channel in Thm 5.1's order, one boundary at most"
}

run_ok "fabric torus:4x4 (buffer 2 flits, flit 64 B)" \
	sh -c "echo 'torus:4x4 buffer=2 flit=64' > $D/fabric"
N=16 TOPO=torus:4x4:uni
if ! out=$(mcastbed up "$TOPO" --transport irsim 2>&1); then
	fail "mcastbed up $TOPO --transport irsim" "$out"
	done_testing
	tap_exit
fi
pass "mcastbed up $TOPO --transport irsim"
case $(mcastbed exec 3 mcastctl -j node show) in
*'"algorithm":"auto"'*'"worm_dests":64,"worm_hdr":4096'*)
	pass "node show -j: algorithm auto, worms of 64 destinations, 4096-byte headers" ;;
*) fail "node show -j: algorithm and worm limits" \
	"$(mcastbed exec 3 mcastctl -j node show)" ;;
esac

members 1 10 51
lst=$(random_nodes 7 52)
seed=60
for algo in s-torus md-torus mu-torus:2 mu-torus:4 u-torus; do
	run_ok "every node: algorithm $algo" node_set algorithm "$algo"
	ALGO=$algo
	src=$(random_nodes 1 $seed)
	w0=$(netstat_of "$src" worms)
	round "$algo: group 1 from node $src" "$src" g:1 "$MEM" 0,1400,150000
	round "$algo: node list from node $src, completion mode" "$src" \
		"n:$(echo "$lst" | tr ' ' ',')" "$lst" 8,65536 wait
	w=$(delta "$w0" "$(netstat_of "$src" worms)")
	case $algo in
	u-torus) is "$w" 0 "$algo: the sender sent no worm" ;;
	mu-torus:2)
		# r = 2: every message has one destination (a 1-dest worm
		# is a unicast)
		is "$w" 0 "$algo: one destination per message, no multi-destination worm" ;;
	*) [ "$w" -gt 0 ] && pass "$algo: the sender sent $w worms" ||
		fail "$algo: the sender sent worms" "$w" ;;
	esac
	checks_quiet "$algo"
	seed=$((seed + 1))
done
# ---- the fabric's trace of each worm: the hops mcastctl plan gives
# plan_hops ALGO SRC DESTS...: per message "SRC D1,D2,...: NODE/DIM/VC ..."
plan_hops() {
	_a=$1 _s=$2
	shift 2
	_args=''
	for _d in "$@"; do
		_args="$_args -d $(coord "$_d")"
	done
	# shellcheck disable=SC2086
	mcastctl plan -t "$TOPO" -a "$_a" -s "$(coord "$_s")" $_args --hops |
		tr -d '()' | awk -v dims="$(topo_dims)" '
		function id(c,   p, n, i, v) {
			n = split(c, p, ","); v = 0
			for (i = 1; i <= n; i++) v = v * k[i] + p[i]
			return v
		}
		BEGIN { split(dims, k, " ") }
		/^phase [0-9]+:/ {
			if (line != "") print line
			line = id($3) " "
			for (i = 5; i <= NF && $i ~ /^[0-9,]+$/; i++)
				line = line (i > 5 ? "," : "") id($i)
			line = line ":"
			next
		}
		$2 == "->" && $4 == "dim" { line = line " " id($1) "/" $5 "/" $7 }
		END { if (line != "") print line }'
}
for algo in s-torus md-torus mu-torus:4; do
	node_set algorithm "$algo"
	src=$(random_nodes 1 $seed)
	d=$(echo " $MEM " | sed "s/ $src / /")
	echo 1 > $D/trace
	/usr/local/bin/ip netns exec "mcb$src" /usr/local/bin/mcast_probe tx g:1 100 \
		wait > "$W/tx" 2>&1
	sleep 0.5
	cat $D/trace > "$W/trace.full"
	echo 0 > $D/trace
	# "SRC DESTS: HOPS | submit T end T blocked NS": the route, then times
	sed 's/ | .*//' "$W/trace.full" > "$W/trace"
	# shellcheck disable=SC2086
	plan_hops "$algo" "$src" $d > "$W/plan.hops"
	bad=$(while read -r l; do grep -Fxq "$l" "$W/trace" || echo "[$l]"; done < "$W/plan.hops")
	[ -s "$W/plan.hops" ] && [ -z "$bad" ] &&
		pass "$algo: the fabric's trace has every worm of mcastctl plan, hop for hop ($(wc -l < "$W/plan.hops"))" ||
		fail "$algo: the fabric's trace has every worm of mcastctl plan, hop for hop" \
			"missing: $bad" "trace: $(cat "$W/trace")" "$(cat "$W/tx")"
	# Thm 6.1: one multicast alone on the fabric is never blocked (its
	# worms; the acknowledgements are the data path's, not the theory's)
	blocked=$(while read -r l; do grep -F "$l | " "$W/trace.full"; done < "$W/plan.hops" |
		awk '$NF != 0 { n++ } END { print n + 0 }')
	is "$blocked" 0 "$algo: Thm 6.1 at run time: no worm of the multicast waited for a channel"
	seed=$((seed + 1))
done

# md-torus from sources whose own sub-torus straddles the H-cycle's wrap
# (its nodes with labels below the source's come last): each holder must
# still split where mcastctl plan does.  The kernel searched such a piece
# as if sorted up to its end and sent these as one phase (83f70cb);
# tests/unit/test_schedule_datapath found them and covers the class.
straddle_rounds() { # DESC-PREFIX
	ALGO=md-torus
	round "$1md-torus from node 9, its row across the wrap: n:3,6,8,10,11,15" \
		9 n:3,6,8,10,11,15 "3 6 8 10 11 15" 1400,20000 algo=md-torus wait
	round "$1md-torus from node 15, its row across the wrap: n:5,13,14" \
		15 n:5,13,14 "5 13 14" 1400 algo=md-torus wait
	ALGO=
}
straddle_rounds ""

# a send's own algorithm (MCAST_SEND_ALGORITHM) over the node's
ALGO=md-torus
round "node u-torus, the send md-torus: group 1 from node 5" 5 g:1 "$MEM" \
	1400,20000 algo=md-torus
ALGO=mu-torus:3
round "node u-torus, the send mu-torus:3: node list from node 9" 9 \
	"n:$(echo "$lst" | tr ' ' ',')" "$lst" 1400 algo=mu-torus:3 wait
ALGO=

# what the receivers counted: transfers that came in worms
rxw=0
for u in $MEM; do
	rxw=$((rxw + $(netstat_of "$u" rx_worms)))
done
[ "$rxw" -gt 0 ] && pass "members received $rxw transfers as worms" ||
	fail "members received transfers as worms" "$rxw"

# ---- every node sends at once, on each path-based algorithm (the
# fabric's model, one kernel thread, then runs far behind the wall clock
# on a TCG guest: more retries, so slow is not taken for dead)
node_set retries 20
for algo in s-torus md-torus mu-torus:4; do
	node_set algorithm "$algo"
	rm -f "$W/go" "$W"/all.*
	u=0
	while [ $u -lt $N ]; do
		(while [ ! -e "$W/go" ]; do sleep 0.01; done
		 exec /usr/local/bin/ip netns exec "mcb$u" /usr/local/bin/mcast_probe \
			tx g:1 1400,30000 count=2 wait > "$W/all.$u" 2>&1) &
		u=$((u + 1))
	done
	sleep 0.5
	touch "$W/go"
	wait
	is "$(cat "$W"/all.* | grep -c 'rc=0 nfailed=0 failed=$')" $((N * 4)) \
		"$algo, all 16 nodes at once: every send complete, none failed" ||
		diag "$(grep -v 'rc=0 nfailed=0 failed=$' "$W"/all.*)" "$(cat $D/stats)"
	checks_quiet "$algo, all 16 nodes at once"
done

node_set retries 6

# ---- worms over the declared limits are split
node_set algorithm s-torus
run_ok "worm_limits: 3 destinations" sh -c "echo '3 4096' > $D/worm_limits"
ALGO=s-torus
s0=$(netstat_of 0 worm_splits)
round "s-torus, 3 destinations a worm: group 1 from node 0" 0 g:1 "$MEM" 1400,20000
s=$(delta "$s0" "$(netstat_of 0 worm_splits)")
[ "$s" -gt 0 ] && pass "the sender split $s worms at 3 destinations" ||
	fail "the sender split worms at 3 destinations" "$s"
run_ok "worm_limits: 100-byte headers (two destinations)" \
	sh -c "echo '64 100' > $D/worm_limits"
s0=$(netstat_of 0 worm_splits)
round "s-torus, 100-byte compound headers: group 1 from node 0" 0 g:1 "$MEM" 1400
s=$(delta "$s0" "$(netstat_of 0 worm_splits)")
[ "$s" -gt 0 ] && pass "the sender split $s worms at the header limit" ||
	fail "the sender split worms at the header limit" "$s"
echo '64 4096' > $D/worm_limits
for bad in "0 4096" "65 4096" "3 0" "3 4097" "x"; do
	if echo "$bad" > $D/worm_limits 2>/dev/null; then
		fail "worm_limits '$bad' is refused" "accepted"
	else
		pass "worm_limits '$bad' is refused"
	fi
done
is "$(cat $D/worm_limits)" "64 4096" "worm_limits back to 64 4096"

# ---- a failed link cuts worms: completion mode accounts for everyone
src=$(echo "$MEM" | cut -d' ' -f1)
run_ok "fail_link: node $src's dimension-0 link" sh -c "echo '$src 0 1' > $D/fail_link"
start_rx 1 "$MEM" 1
/usr/local/bin/ip netns exec "mcb$src" /usr/local/bin/mcast_probe tx g:1 20000 \
	wait=20000 > "$W/tx" 2>&1
wait_rx
failed=$(sed -n 's/.*failed=\([0-9,]*\)$/\1/p' "$W/tx" | tr ',' ' ')
bad=''
for u in $MEM; do
	[ "$u" = "$src" ] && continue
	got=$(grep -c "^msg src=$src .* ok=1" "$W/rx.$u")
	case " $failed " in
	*" $u "*) ;;
	*) [ "$got" = 1 ] || bad="$bad $u:$got" ;;
	esac
done
is "$bad" "" "link failed: every member not reported failed got the message once"
case $(cat "$W/tx") in
*"rc=0 "* | *"rc=EHOSTUNREACH "*) pass "link failed: the send ended ($(grep -o 'rc=.*' "$W/tx"))" ;;
*) fail "link failed: the send ended" "$(cat "$W/tx")" ;;
esac
echo "$src 0 0" > $D/fail_link

# ---- hosts that take no IR copy: the NIC's completion lists the copies
# they missed, and the sender sends each its fragment again at once (a
# unicast worm, whose last destination always takes it)
for u in $MEM; do
	echo "$u 1" > $D/no_ir
done
c0=$(sed -n 's/^completions //p' $D/stats) r0=$(netstat_of "$src" worm_resends)
start_rx 1 "$MEM" 1
/usr/local/bin/ip netns exec "mcb$src" /usr/local/bin/mcast_probe tx g:1 3000 \
	wait=20000 > "$W/tx" 2>&1
wait_rx
bad=''
for u in $MEM; do
	[ "$u" = "$src" ] && continue
	[ "$(grep -c "^msg src=$src .* ok=1" "$W/rx.$u")" = 1 ] || bad="$bad $u"
done
is "$bad/$(grep -c 'rc=0 nfailed=0' "$W/tx")" "/1" \
	"no IR copies: the send completes, every member got the message once"
c=$(($(sed -n 's/^completions //p' $D/stats) - c0))
r=$(delta "$r0" "$(netstat_of "$src" worm_resends)")
[ "$c" -gt 0 ] && [ "$r" -gt 0 ] &&
	pass "no IR copies: $c completions reported the misses, the sender resent $r fragments at once" ||
	fail "no IR copies: completions reported the misses and the sender resent" \
		"completions $c, worm_resends $r" "$(cat $D/stats)"
for u in $MEM; do
	echo "$u 0" > $D/no_ir
done

mcastbed down > /dev/null 2>&1
gone() {
	_i=0
	while [ $_i -lt 100 ]; do
		echo none > $D/fabric 2>/dev/null && return 0
		sleep 0.1
		_i=$((_i + 1))
	done
	return 1
}
run_ok "the fabric goes once the nodes are gone" gone

# ---- other shapes, each on its own fabric: a 3D torus, and a larger 2D
# one with a node list too; S-, Md- and Mu-torus(R) on a random group
# other_fabric SHAPE NODES MEMBERS SEED R SIZES [LIST_SEED]
other_fabric() {
	fab_shape=$1 N=$2 TOPO=torus:$1:uni
	run_ok "fabric torus:$fab_shape" \
		sh -c "echo 'torus:$fab_shape buffer=2 flit=64' > $D/fabric"
	if out=$(mcastbed up "$TOPO" --transport irsim 2>&1); then
		members 1 "$3" "$4"
		fab_list=''	# (lst stays the 4x4 sections')
		[ -z "${7:-}" ] || fab_list=$(random_nodes 9 "$7")
		for algo in s-torus md-torus "mu-torus:$5"; do
			node_set algorithm "$algo"
			ALGO=$algo
			src=$(random_nodes 1 $seed)
			round "$fab_shape, $algo: group 1 from node $src" "$src" g:1 \
				"$MEM" "$6" wait
			[ -z "$fab_list" ] ||
				round "$fab_shape, $algo: node list from node $src" "$src" \
					"n:$(echo "$fab_list" | tr ' ' ',')" "$fab_list" "$6" wait
			checks_quiet "$fab_shape, $algo"
			seed=$((seed + 1))
		done
		ALGO=
	else
		fail "mcastbed up $TOPO --transport irsim" "$out"
	fi
	mcastbed down > /dev/null 2>&1
	run_ok "the $fab_shape fabric goes" gone
}
# in the whole suite only (make vmcheck-full; CI's hour)
if [ "${mcast_full:-0}" = 1 ]; then
	other_fabric 3x3x3 27 12 81 3 1400,20000
	other_fabric 6x6 36 14 91 4 1400 92
fi

# ---- no IR (TCP): worms in software, as chains; offload required fails
N=16 TOPO=torus:4x4:uni
if out=$(mcastbed up "$TOPO" 2>&1); then
	members 1 10 71
	CHAIN=1
	for algo in s-torus md-torus mu-torus:4; do
		node_set algorithm "$algo"
		ALGO=$algo
		src=$(random_nodes 1 $seed)
		f0=$(netstat_of "$src" offload_fallbacks)
		round "tcp, $algo in software: group 1 from node $src" "$src" g:1 \
			"$MEM" 0,1400,300000
		round "tcp, $algo in software: node list from node $src, completion mode" \
			"$src" "n:$(echo "$lst" | tr ' ' ',')" "$lst" 8,65536 wait
		is "$(delta "$f0" "$(netstat_of "$src" offload_fallbacks)")" 5 \
			"tcp, $algo: the sends went as software worms, counted"
		seed=$((seed + 1))
	done
	straddle_rounds "no IR, in software: "
	node_set algorithm auto
	# auto without IR: Mu-torus(4) chains for long messages to 4 or
	# more destinations, U-torus otherwise; neither counts a fallback
	ALGO=mu-torus:4
	f0=$(netstat_of 0 offload_fallbacks)
	round "tcp, auto, 1 MiB: group 1 from node 0 as mu-torus:4 chains" 0 g:1 \
		"$MEM" 1048576
	CHAIN=0
	ALGO=u-torus
	round "tcp, auto, 1400 bytes: node list from node 0 as u-torus" 0 \
		n:1,2,3,4,5 "1 2 3 4 5" 1400
	is "$(delta "$f0" "$(netstat_of 0 offload_fallbacks)")" 0 \
		"tcp, auto: no fallback counted"
	out=$(/usr/local/bin/ip netns exec mcb0 /usr/local/bin/mcast_probe tx n:1,2 100 offload 2>&1)
	case $out in
	*rc=EOPNOTSUPP*) pass "tcp: a send that requires offload gets EOPNOTSUPP" ;;
	*) fail "tcp: a send that requires offload gets EOPNOTSUPP" "$out" ;;
	esac
	out=$(/usr/local/bin/ip netns exec mcb0 /usr/local/bin/mcast_probe tx n:1,2 100 offload no-offload 2>&1)
	case $out in
	*rc=EINVAL*) pass "offload and no-offload together: EINVAL" ;;
	*) fail "offload and no-offload together: EINVAL" "$out" ;;
	esac
else
	fail "mcastbed up $TOPO" "$out"
fi
mcastbed down > /dev/null 2>&1

run_ok "rmmod mcast_irsim" rmmod mcast_irsim
run_ok "rmmod mcast" rmmod mcast
done_testing
tap_exit
