#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# Group multicast on rings (Lin and Chen 1996) in mcast.ko, on mcastbed's
# hypercubes (E-cube routes, highest differing bit first, what the ring's
# disjointness theorem assumes).  With algorithm ring a message goes from
# its sender along the members' contention-free ring, each member
# delivering it and passing it on as it arrives, to the sender's
# predecessor.  Every member of a group sends at once:
#  - cube:4, 6 members, 8 messages each, every member sending at the same
#    time: each member gets every other member's messages once, in order,
#    byte-exact, from its ring predecessor (the ring of `mcastctl plan
#    --topology cube:4 --algorithm ring`), and every send completes;
#  - cube:4, all 16 members, 4 each, with 3% loss on every link;
#  - cube:4 run by mcastd (topology = cube:4): 5 members joined by their
#    receivers alone, membership carried to every kernel, then the same;
#  - cube:6 (make vmcheck-full only, mcast_full: CI's hour), 20 random
#    members, 3 each;
#  - with OFFLOAD (nothing to offload: E-cube paths in software)
#    EOPNOTSUPP; on a torus that is no hypercube node set refuses ring.

# shellcheck source=tests/vm/guest/tap.sh
. /tests/tap.sh

# shellcheck source=tests/vm/guest/netlib.sh
. /tests/netlib.sh

# shellcheck source=tests/vm/guest/daemonlib.sh
. /tests/daemonlib.sh

W=/tmp/net_ring
rm -rf "$W"
mkdir -p "$W"

run_ok "insmod mcast.ko" insmod "$MCAST_KO"

bits() { # ID N
	awk -v v="$1" -v n="$2" 'BEGIN {
		s = ""; for (i = 0; i < n; i++) { s = (v % 2) s; v = int(v / 2) }
		print s }'
}

stop_rx_of() { # LOG
	kill "$(sed -n 's/^ready .* pid=\([0-9]*\)$/\1/p' "$1")" 2>/dev/null
}

# pred_map DIM MEMBERS...: "member predecessor" lines of the planner's ring
pred_map() {
	_dim=$1
	shift
	_b=''
	for _x in "$@"; do
		_b="$_b,$(bits "$_x" "$_dim")"
	done
	mcastctl plan -t "cube:$_dim" -a ring -d "${_b#,}" |
		awk '/^ring / {
			for (i = 2; i <= NF; i++) {
				v = 0; b = $i
				for (j = 1; j <= length(b); j++) v = v * 2 + substr(b, j, 1)
				r[i - 2] = v
			}
			n = NF - 1
			for (i = 0; i < n; i++) print r[i], r[(i + n - 1) % n]
		}'
}

# ring_round DESC DIM G COUNT LEN MEMBERS...: group G of MEMBERS on the
# testbed; every member sends COUNT messages at once with algorithm ring.
# With BY_DAEMON=1 nobody makes the group: the receivers' joins are the
# membership, and mcastd must carry it to every kernel first.
ring_round() {
	_desc=$1 _dim=$2 _g=$3 _count=$4 _len=$5
	shift 5
	_m=$#
	pred_map "$_dim" "$@" > "$W/pred"
	if [ "$(wc -l < "$W/pred")" != "$_m" ]; then
		fail "$_desc: the planner's ring" "$(cat "$W/pred")"
		return
	fi
	_coords=''
	for _x in "$@"; do
		_coords="$_coords $(bits "$_x" "$_dim" | sed 's/./&,/g; s/,$//')"
	done
	# shellcheck disable=SC2086 # one coordinate each
	if [ "${BY_DAEMON:-0}" = 0 ] && ! _out=$(mcastbed group "$_g" $_coords 2>&1); then
		fail "$_desc: mcastbed group" "$_out"
		return
	fi
	# each member's receiver gets its own messages too (locally, step 0)
	for u in "$@"; do
		mcastbed exec "$u" mcast_probe rx "$_g" 300000 $((_m * _count)) \
			> "$W/r.$u" 2>&1 &
	done
	for u in "$@"; do
		wait_lines 1 '^ready' "$W/r.$u"
	done
	if [ "${BY_DAEMON:-0}" = 1 ]; then
		# node show -j writes a torus node as its coordinate
		_want=$(for _x in $(echo "$@" | tr ' ' '\n' | sort -n); do
			echo "[$(bits "$_x" "$_dim" | sed 's/./&,/g; s/,$//')]"
		done | tr '\n' ',' | sed 's/,$//')
		if _s=$(converge "$_g" "[$_want]" 90); then
			pass "$_desc: the joins reach all $N kernels through mcastd in $_s s"
		else
			fail "$_desc: the joins reach every kernel" "$(gview "$_g" 0)"
		fi
	fi
	for u in "$@"; do
		mcastbed exec "$u" mcast_probe tx "g:$_g" "$_len" count="$_count" \
			algo=ring wait=120000 > "$W/t.$u" 2>&1 &
		echo $! > "$W/tpid.$u"
	done
	for u in "$@"; do
		wait "$(cat "$W/tpid.$u")"
	done
	_bad=''
	_sent=0
	for u in "$@"; do
		_sent=$((_sent + $(grep -c 'rc=0 nfailed=0' "$W/t.$u")))
	done
	for u in "$@"; do
		wait_lines $((_m * _count)) '^msg ' "$W/r.$u"
		_p=$(awk -v u="$u" '$1 == u { print $2 }' "$W/pred")
		for s in "$@"; do
			[ "$s" = "$u" ] && continue
			_want=$(tx_seqs "$W/t.$s" | tr '\n' ' ')
			_got=$(rx_seqs "$s" "$W/r.$u" | tr '\n' ' ')
			[ "$_got" = "$_want" ] || _bad="$_bad [$s->$u: got '$_got' want '$_want']"
		done
		_odd=$(grep '^msg ' "$W/r.$u" | grep -v "^msg src=$u " |
			grep -v "len=$_len .*from=$_p ok=1" | head -2)
		[ -z "$_odd" ] || _bad="$_bad [$u (pred $_p): $_odd]"
	done
	for u in "$@"; do
		stop_rx_of "$W/r.$u"
	done
	if [ -z "$_bad" ] && [ "$_sent" = $((_m * _count)) ]; then
		pass "$_desc: $_m members x $_count sent at once; every member got each other's once, in order, intact, from its ring predecessor"
	else
		fail "$_desc: every message once, in order, from the ring predecessor" \
			"completed sends $_sent of $((_m * _count))" "$_bad"
	fi
}

if ! run_ok "mcastbed up cube:4" mcastbed up cube:4; then
	rmmod mcast
	done_testing
	exit
fi

ring_round "cube:4, 6 members" 4 3 8 3000 1 3 4 8 11 15

run_ok "netem loss 3% on every link" mcastbed netem "loss 3%"
# shellcheck disable=SC2046 # the 16 ids
ring_round "cube:4, all 16, 3% loss" 4 4 4 1400 $(seq 0 15)
run_ok "netem off" mcastbed netem off

out=$(mcastbed exec 1 mcast_probe tx g:3 100 algo=ring offload 2>&1)
case $out in
*EOPNOTSUPP*) pass "ring with OFFLOAD: EOPNOTSUPP (software worms only)" ;;
*) fail "ring with OFFLOAD: EOPNOTSUPP" "$out" ;;
esac
run_ok "node 4: node set algorithm ring" mcastbed exec 4 mcastctl node set algorithm ring
case $(mcastbed exec 4 mcastctl node show) in
*"algorithm    ring"*) pass "node show says ring" ;;
*) fail "node show says ring" "$(mcastbed exec 4 mcastctl node show)" ;;
esac
run_ok "mcastbed down (cube:4)" mcastbed down

# mcastd runs the hypercube: topology = cube:4 in its config; members
# join by opening their receivers, and the ring is over what mcastd says
N=16
if run_ok "mcastbed up cube:4 --daemon" mcastbed up cube:4 --daemon; then
	BY_DAEMON=1 ring_round "cube:4 run by mcastd, 5 members" 4 41 3 1500 2 5 9 12 14
	run_ok "mcastbed down (cube:4, mcastd)" mcastbed down
fi

# 64 nodes: the whole suite only (make vmcheck-full; CI's hour)
if [ "${mcast_full:-0}" = 1 ] && run_ok "mcastbed up cube:6" mcastbed up cube:6; then
	mem=$(awk 'BEGIN { srand(46); while (c < 20) { x = int(rand() * 64)
		if (!(x in u)) { u[x] = 1; c++; printf "%d ", x } } }')
	# shellcheck disable=SC2086 # the members
	ring_round "cube:6, 20 random members" 6 5 3 2000 $mem
	run_ok "mcastbed down (cube:6)" mcastbed down
fi

if run_ok "mcastbed up torus:4x4" mcastbed up torus:4x4; then
	out=$(mcastbed exec 1 mcastctl node set algorithm ring 2>&1)
	case $out in
	*hypercube*) pass "torus:4x4: node set algorithm ring is refused, saying it needs a hypercube" ;;
	*) fail "torus:4x4: node set algorithm ring refused" "$out" ;;
	esac
	run_ok "mcastbed down (torus)" mcastbed down
fi

run_ok "rmmod mcast" rmmod mcast
done_testing
