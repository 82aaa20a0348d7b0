#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# Virtual latency through the kernel's data path, on the simulated IR
# fabric (mcast_irsim.ko).  Each receiver reads, with the message, the
# latency of the worm that brought it (mcast_recv's vlat_ns) and the
# fabric's virtual time at which it had it whole (vtime_ns).  On an idle
# fabric a worm is never blocked, so both must equal the closed form of
# Robinson (1994), Sec. 5.6, exactly:
#
#   tau_s + (h + L) tau_n + tau_r
#
# with h the hops from the worm's source to the destination along its
# route and L its flits.  The fabric's flits are 4096 bytes, so a worm
# to n destinations is L = n + 1 flits (a destination word each, and one
# flit holds every byte of its headers and payload).  A one-destination
# send gives h = the destination's distance on the unidirectional torus;
# an S-torus worm through several destinations gives each one the hops
# along the worm's path so far, its visiting order read from the
# fabric's trace.  mcastsim trace, the same model in userspace, gives
# every receiver of S-torus multicasts from random sources the same
# virtual time (live against simulated).  Over UDP the fields stay 0.

# shellcheck source=tests/vm/guest/tap.sh
. /tests/tap.sh

# shellcheck source=tests/vm/guest/netlib.sh
. /tests/netlib.sh

IRSIM_KO=${MCAST_KO%/*}/mcast_irsim.ko
D=/sys/kernel/debug/mcast_irsim
TAU_S=95000 TAU_R=75000 TAU_N=500

run_ok "insmod mcast.ko" insmod "$MCAST_KO"
run_ok "insmod mcast_irsim.ko" insmod "$IRSIM_KO"
run_ok "fabric torus:4x4 with 4096-byte flits" \
	sh -c "echo 'torus:4x4 flit=4096 tau_s=$TAU_S tau_r=$TAU_R tau_n=$TAU_N' > $D/fabric"

stat_of() { # NAME
	sed -n "s/^$1 //p" $D/stats
}

N=16 TOPO=torus:4x4:uni IDLE=20000 COUNT=1
if ! out=$(mcastbed up "$TOPO" --transport irsim 2>&1); then
	fail "mcastbed up $TOPO --transport irsim" "$out"
	done_testing
	tap_exit
fi
pass "mcastbed up $TOPO --transport irsim"
node_set algorithm s-torus

# hops from node A to node B on the unidirectional 4x4 torus
dist() { # A B
	echo $(((($2 / 4 - $1 / 4 + 4) % 4) + (($2 % 4 - $1 % 4 + 4) % 4)))
}

closed_form() { # HOPS FLITS
	echo $((TAU_S + ($1 + $2) * TAU_N + TAU_R))
}

# one message of SIZE bytes from SRC to the node list DESTS, every
# receiver's "vlat vtime" in $W/lat.ID; T0 is the fabric's clock before
send_list() { # SRC "DESTS" SIZE
	start_rx 0 "$2" 1 || fail "receivers ready" "$(cat "$W"/rx.*)"
	T0=$(stat_of now_ns)
	/usr/local/bin/ip netns exec "mcb$1" /usr/local/bin/mcast_probe tx \
		"n:$(echo "$2" | tr ' ' ,)" "$3" wait > "$W/tx" 2>&1 ||
		diag "$(cat "$W/tx")"
	wait_rx
	for _d in $2; do
		sed -n 's/^msg .* ok=1 .* vlat=\([0-9]*\) vtime=\([0-9]*\)$/\1 \2/p' \
			"$W/rx.$_d" > "$W/lat.$_d"
	done
}

# ---- one destination: h is the distance from the source
for d in 1 3 5 10 15; do
	send_list 0 "$d" 100
	h=$(dist 0 "$d")
	want=$(closed_form "$h" 2)
	read -r vlat vtime < "$W/lat.$d"
	is "$vlat" "$want" "node 0 -> $d ($h hops): the worm's virtual latency is tau_s + ($h + 2) tau_n + tau_r = $want ns"
	is "$((vtime - T0))" "$want" "node 0 -> $d: whole at the send's virtual time + $want ns"
done
max=$(stat_of vlat_max_ns)
[ "${max:-0}" -ge "$(closed_form 6 2)" ] &&
	pass "the fabric's vlat_max_ns ($max) is at least the longest a receiver read" ||
	fail "the fabric's vlat_max_ns is at least the longest a receiver read" "$max"

# ---- one S-torus worm through seven destinations: h along its path
DESTS="2 4 7 9 11 13 14"
echo 1 > $D/trace
send_list 5 "$DESTS" 300
order=$(sed -n 's/^5 \([0-9,]*\):.*/\1/p' $D/trace | awk -F, 'NF == 7' | head -1)
echo 0 > $D/trace
is "$(echo "$order" | tr , '\n' | sort -n | tr '\n' ' ')" "$DESTS " \
	"the trace has one worm from node 5 through the seven destinations"
bad='' h=0 prev=5
for d in $(echo "$order" | tr , ' '); do
	h=$((h + $(dist "$prev" "$d")))
	prev=$d
	read -r vlat vtime < "$W/lat.$d"
	want=$(closed_form "$h" 8)
	[ "$vlat" = "$want" ] && [ "$((vtime - T0))" = "$want" ] ||
		bad="$bad [$d: $h hops, want $want, vlat $vlat, vtime-T0 $((vtime - T0))]"
done
[ -n "$order" ] && [ -z "$bad" ] &&
	pass "S-torus worm $order: every destination's latency is the closed form at its hop along the path" ||
	fail "S-torus worm $order: every destination's latency is the closed form" "$bad" \
		"$(cat "$W"/rx.*)"

# ---- live against simulated: mcastsim trace, the same model in
# userspace, gives every receiver the time the kernel's fabric gave it.
# S-torus from random sources to random lists: one worm of n + 1 flits
# (n destination words, one flit for every byte), handed over at T0.
sim_agree() { # SRC "DESTS"
	send_list "$1" "$2" 300
	_n=$(echo "$2" | wc -w)
	/usr/local/bin/mcastsim trace -t torus:4x4 -a s-torus -s "$1" \
		-d "$(echo "$2" | tr ' ' ,)" -L $((_n + 1)) --tau-s $TAU_S \
		--tau-r $TAU_R --tau-n $TAU_N > "$W/sim" 2>&1
	_bad='' _same=0
	for _d in $2; do
		read -r _vlat _vtime < "$W/lat.$_d"
		_want=$(sed -n "s/^$_d //p" "$W/sim")
		if [ -n "$_want" ] && [ "$((_vtime - T0))" = "$_want" ]; then
			_same=$((_same + 1))
		else
			_bad="$_bad [$_d: mcastsim ${_want:-none}, fabric $((_vtime - T0))]"
		fi
	done
	[ -z "$_bad" ] &&
		pass "node $1 -> $(echo "$2" | tr ' ' ,): all $_same receivers at mcastsim trace's virtual time" ||
		fail "node $1 -> $(echo "$2" | tr ' ' ,): every receiver at mcastsim trace's virtual time" \
			"$_bad" "$(cat "$W/sim")"
}
for seed in 1 2 3 4 5; do
	src=$(random_nodes 1 "$seed")
	lst=$(random_nodes $((3 + seed * 2)) $((seed + 40)) |
		tr ' ' '\n' | grep -vx "$src" | tr '\n' ' ')
	sim_agree "$src" "${lst% }"
done

# ---- over UDP nothing has a virtual clock: the fields stay 0 (absent)
run_ok "mcastbed down" mcastbed down
run_ok "mcastbed up $TOPO (UDP)" mcastbed up "$TOPO" --transport udp
send_list 0 "6" 100
is "$(grep -c '^msg .* ok=1' "$W/rx.6")/$(grep -c 'vlat=' "$W/rx.6")" 1/0 \
	"UDP: the message arrives, with no virtual latency"
run_ok "mcastbed down" mcastbed down
_i=0
until { [ "$(cat $D/fabric)" = none ] || echo none > $D/fabric; } 2>/dev/null ||
	[ "$_i" -ge 50 ]; do
	sleep 0.1
	_i=$((_i + 1))
done
run_ok "rmmod mcast_irsim" rmmod mcast_irsim
run_ok "rmmod mcast" rmmod mcast

done_testing
tap_exit
