#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# mcast.ko on hypercubes (Robinson (1994), ch. 3): mcastbed up cube:N builds the
# binary N-cube (a veth pair per dimension, E-cube routes), every node
# configured with topology cube:N, and the kernel runs U-cube, Maxport,
# Combine and W-sort, every holder sending on its distinct channels at
# once (all-port steps):
#  - cube:4: from every node, each of the four algorithms to a random set
#    (a node list): every destination gets it once, byte-exact, from the
#    sender and in the all-port step `mcastctl plan --topology cube:4`
#    says, and nothing else arrives;
#  - a group of all 16 from node 5 with w-sort, 20 messages: each
#    receiver gets them all once, in order, in at most 4 steps;
#  - the node setting (node set algorithm maxport) is what plain sends
#    use; a holder of that tree killed, its sender takes its piece over
#    (the dead node reported, its subtree served); OFFLOAD with a tree
#    (cube or binomial) is EOPNOTSUPP;
#  - cube:6 (64 nodes; make vmcheck-full only, mcast_full): from every
#    node a random set, the algorithm taking turns, checked the same way;
#  - on a torus that is not a hypercube, node set refuses them and a
#    send that asks for one is EOPNOTSUPP.

# shellcheck source=tests/vm/guest/tap.sh
. /tests/tap.sh

# shellcheck source=tests/vm/guest/netlib.sh
. /tests/netlib.sh

W=/tmp/net_cube
rm -rf "$W"
mkdir -p "$W"
ALGOS="u-cube maxport combine w-sort"

run_ok "insmod mcast.ko" insmod "$MCAST_KO"

# bits ID N: ID as N binary digits, highest first (mcastctl plan's form)
bits() {
	awk -v v="$1" -v n="$2" 'BEGIN {
		s = ""; for (i = 0; i < n; i++) { s = (v % 2) s; v = int(v / 2) }
		print s }'
}

# ids_bits "A,B,C" N: the list in bits
ids_bits() {
	for _i in $(echo "$1" | tr ',' ' '); do bits "$_i" "$2"; done |
		tr '\n' ',' | sed 's/,$//'
}

# random_set SRC NODES SEED: 1..NODES-1 distinct others, comma-separated
random_set() {
	awk -v n="$2" -v s="$1" -v seed="$3" 'BEGIN {
		srand(seed); k = 1 + int(rand() * (n - 1))
		while (c < k) { x = int(rand() * n)
			if (x != s && !(x in u)) { u[x] = 1; c++; printf "%s%d", (c > 1 ? "," : ""), x } }
		print "" }'
}

stop_rx_of() { # LOG
	kill "$(sed -n 's/^ready .* pid=\([0-9]*\)$/\1/p' "$1")" 2>/dev/null
}

# expect SRC DIM ALGO LEN DESTS: append the plan's "src dst step from len"
expect() {
	mcastctl plan -t "cube:$2" -a "$3" -s "$(bits "$1" "$2")" \
		-d "$(ids_bits "$5" "$2")" |
		awk -v s="$1" -v len="$4" '/^step [0-9]+: / {
			st = $2; sub(":", "", st)
			print s, bin($5), st, bin($3), len
		}
		function bin(b,   v, i) {
			v = 0; for (i = 1; i <= length(b); i++) v = v * 2 + substr(b, i, 1)
			return v
		}' >> "$W/expect"
}

# every_source DIM MODE: receivers on every node; from every node a node
# list send to a random set (MODE all: each algorithm, lengths 300..303;
# turns: one algorithm per source, in turn); then every planned delivery
# must show once, from the planned sender in the planned step.
every_source() {
	_n=$((1 << $1))
	for u in $(seq 0 $((_n - 1))); do
		mcastbed exec "$u" mcast_probe rx 0 300000 -1 > "$W/e.$u" 2>&1 &
	done
	for u in $(seq 0 $((_n - 1))); do
		wait_lines 1 '^ready' "$W/e.$u"
	done
	: > "$W/expect"
	: > "$W/etx"
	_sends=0
	for src in $(seq 0 $((_n - 1))); do
		_k=0
		for a in $ALGOS; do
			_len=$((300 + _k))
			_k=$((_k + 1))
			if [ "$2" = turns ] && [ $((src % 4 + 1)) != "$_k" ]; then
				continue
			fi
			_d=$(random_set "$src" "$_n" "$((src * 31 + _k * 7 + _n))")
			expect "$src" "$1" "$a" "$_len" "$_d"
			mcastbed exec "$src" mcast_probe tx "n:$_d" "$_len" \
				algo="$a" wait=30000 >> "$W/etx" 2>&1
			_sends=$((_sends + 1))
		done
	done
	sleep 1
	for u in $(seq 0 $((_n - 1))); do
		stop_rx_of "$W/e.$u"
	done
	_bad=''
	while read -r _s _d _st _f _l; do
		_c=$(grep -c "^msg src=$_s .*len=$_l .*step=$_st from=$_f ok=1" "$W/e.$_d")
		[ "$_c" = 1 ] || _bad="$_bad [$_s->$_d len $_l: $_c with step=$_st from=$_f; got: $(grep "^msg src=$_s .*len=$_l " "$W/e.$_d" | head -2)]"
	done < "$W/expect"
	_want=$(wc -l < "$W/expect")
	_got=$(cat "$W"/e.* | grep -c '^msg .*len=30[0-3] ')
	_ok=$(grep -c 'rc=0 nfailed=0' "$W/etx")
	if [ -z "$_bad" ] && [ "$_got" = "$_want" ] && [ "$_ok" = "$_sends" ]; then
		pass "cube:$1 ($2): $_sends sends from every node to random sets: $_want deliveries, each once, byte-exact, planned step and sender"
	else
		fail "cube:$1 ($2): every delivery once, in the planned step, from the planned sender" \
			"sends ok $_ok of $_sends, deliveries $_got of $_want" "$_bad"
	fi
	rm -f "$W"/e.*
}

if ! run_ok "mcastbed up cube:4" mcastbed up cube:4; then
	rmmod mcast
	done_testing
	exit
fi

every_source 4 all

# a group of all 16, a stream of 20 from node 5 with w-sort
G=7
N=16
run_ok "group $G: all 16 nodes" mcastbed group "$G" all
for u in $(seq 0 15); do
	mcastbed exec "$u" mcast_probe rx "$G" 60000 20 > "$W/g.$u" 2>&1 &
done
for u in $(seq 0 15); do
	wait_lines 1 '^ready' "$W/g.$u"
done
mcastbed exec 5 mcast_probe tx "g:$G" 5000 count=20 algo=w-sort wait=30000 > "$W/gtx" 2>&1
want=$(tx_seqs "$W/gtx" | tr '\n' ' ')
bad=''
for u in $(seq 0 15); do
	[ "$u" = 5 ] && continue
	wait_lines 20 '^msg ' "$W/g.$u"
	got=$(rx_seqs 5 "$W/g.$u" | tr '\n' ' ')
	[ "$got" = "$want" ] || bad="$bad [$u: $got]"
	[ "$(grep -c '^msg .*len=5000 .*ok=1' "$W/g.$u")" = 20 ] || bad="$bad [$u: not 20 intact]"
	awk '/^msg / { sub("step=", "", $6); if ($6 + 0 > 4 || $6 + 0 < 1) exit 1 }' "$W/g.$u" ||
		bad="$bad [$u: a step outside 1..4]"
done
if [ -z "$bad" ] && [ "$(echo "$want" | wc -w)" = 20 ]; then
	pass "w-sort, group of 16 from node 5: 20 messages to each of 15, once, in order, intact, within 4 steps"
else
	fail "w-sort group stream: each once, in order, within 4 steps" "sent: $want" "$bad"
fi
for u in $(seq 0 15); do
	stop_rx_of "$W/g.$u"
done

# the node setting: plain sends from node 9 use it.  The set is Fig 3.1's
# (relative to the source), where maxport's tree is not u-cube's.
run_ok "node 9: node set algorithm maxport" mcastbed exec 9 mcastctl node set algorithm maxport
case $(mcastbed exec 9 mcastctl node show) in
*"algorithm    maxport"*) pass "node show says maxport" ;;
*) fail "node show says maxport" "$(mcastbed exec 9 mcastctl node show)" ;;
esac
SET=1,2,6,8,10,12,13,14
: > "$W/expect"
expect 9 4 u-cube 777 "$SET"
mv "$W/expect" "$W/expect.ucube"
expect 9 4 maxport 777 "$SET"
cmp -s "$W/expect" "$W/expect.ucube" &&
	fail "the set tells maxport from u-cube" "$(cat "$W/expect")"
for u in $(echo "$SET" | tr ',' ' '); do
	mcastbed exec "$u" mcast_probe rx 0 30000 1 > "$W/s.$u" 2>&1 &
done
for u in $(echo "$SET" | tr ',' ' '); do
	wait_lines 1 '^ready' "$W/s.$u"
done
mcastbed exec 9 mcast_probe tx "n:$SET" 777 wait=30000 > "$W/stx" 2>&1
bad=''
while read -r _s _d _st _f _l; do
	wait_lines 1 '^msg ' "$W/s.$_d"
	grep -q "^msg src=9 .*len=777 .*step=$_st from=$_f ok=1" "$W/s.$_d" ||
		bad="$bad [$_d: want step=$_st from=$_f: $(grep '^msg' "$W/s.$_d")]"
done < "$W/expect"
if [ -z "$bad" ] && [ "$(wc -l < "$W/expect")" = 8 ] && grep -q 'rc=0 nfailed=0' "$W/stx"; then
	pass "a plain send from node 9 runs its node's maxport: every receiver in the planned step, from the planned sender"
else
	fail "a plain send runs the node's maxport" "$(cat "$W/stx")" "$bad"
fi
for u in $(echo "$SET" | tr ',' ' '); do
	stop_rx_of "$W/s.$u"
done

# a dead holder: in that maxport tree node 13 (1101) forwards to 12 and
# 14; killed (routes repaired), its sender takes its piece over with
# itself in front: 13 is reported failed, 12 and 14 still get the message
run_ok "kill node 13 (--reroute)" mcastbed kill 13 --reroute
LIVE=1,2,6,8,10,12,14
for u in $(echo "$LIVE" | tr ',' ' '); do
	mcastbed exec "$u" mcast_probe rx 0 60000 1 > "$W/k.$u" 2>&1 &
done
for u in $(echo "$LIVE" | tr ',' ' '); do
	wait_lines 1 '^ready' "$W/k.$u"
done
mcastbed exec 9 mcast_probe tx "n:$SET" 888 wait=60000 > "$W/ktx" 2>&1
bad=''
for u in $(echo "$LIVE" | tr ',' ' '); do
	wait_lines 1 '^msg ' "$W/k.$u"
	[ "$(grep -c '^msg src=9 .*len=888 .*ok=1' "$W/k.$u")" = 1 ] || bad="$bad [$u: $(cat "$W/k.$u")]"
	stop_rx_of "$W/k.$u"
done
# the sender runs maxport over [1001 1100 1110]: 12 from 9, then 14 from 12
grep -q '^msg src=9 .*len=888 .*from=9 ok=1' "$W/k.12" || bad="$bad [12 not from 9]"
grep -q '^msg src=9 .*len=888 .*from=12 ok=1' "$W/k.14" || bad="$bad [14 not from 12]"
if [ -z "$bad" ] && grep -q 'rc=EHOSTUNREACH nfailed=1 failed=13$' "$W/ktx"; then
	pass "maxport with holder 13 dead: the send reports 13 failed; 12 and 14 get it through the sender's takeover"
else
	fail "maxport with a dead holder: takeover" "$(cat "$W/ktx")" "$bad"
fi

out=$(mcastbed exec 9 mcast_probe tx "g:$G" 100 algo=u-cube offload 2>&1)
case $out in
*EOPNOTSUPP*) pass "u-cube with OFFLOAD: EOPNOTSUPP (a unicast tree has nothing to offload)" ;;
*) fail "u-cube with OFFLOAD: EOPNOTSUPP" "$out" ;;
esac
out=$(mcastbed exec 9 mcast_probe tx "g:$G" 100 algo=binomial offload 2>&1)
case $out in
*EOPNOTSUPP*) pass "binomial with OFFLOAD: EOPNOTSUPP" ;;
*) fail "binomial with OFFLOAD: EOPNOTSUPP" "$out" ;;
esac
run_ok "mcastbed down (cube:4)" mcastbed down

# cube:6: 64 nodes, from every node, the algorithms in turn (the whole
# suite only: CI's hour)
if [ "${mcast_full:-0}" = 1 ] && run_ok "mcastbed up cube:6" mcastbed up cube:6; then
	every_source 6 turns
	run_ok "mcastbed down (cube:6)" mcastbed down
fi

# a torus that is no hypercube
if run_ok "mcastbed up torus:4x4" mcastbed up torus:4x4; then
	out=$(mcastbed exec 1 mcastctl node set algorithm combine 2>&1)
	case $out in
	*hypercube*) pass "torus:4x4: node set algorithm combine is refused, saying it needs a hypercube" ;;
	*) fail "torus:4x4: node set algorithm combine refused" "$out" ;;
	esac
	out=$(mcastbed exec 1 mcast_probe tx n:2,3 100 algo=maxport 2>&1)
	case $out in
	*EOPNOTSUPP*) pass "torus:4x4: a send asking for maxport is EOPNOTSUPP" ;;
	*) fail "torus:4x4: a send asking for maxport is EOPNOTSUPP" "$out" ;;
	esac
	run_ok "mcastbed down (torus)" mcastbed down
fi

run_ok "rmmod mcast" rmmod mcast
done_testing
