#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# Robinson (1994), ch. 6, through the kernel: the virtual latency of S-, Md-,
# Mu-torus(r) and U-torus multicasts on the simulated IR fabric
# (mcast_irsim.ko), run inside the test VM by `tests/vm/run.sh
# --bench-fabric` (`make bench-fabric`).
#
# One fabric (BENCH_FABRIC_TOPO, a 2D KxK, default 8x8; tau_s 95 us, tau_r 75 us,
# tau_n 0.5 us, 2-flit buffers, 64-byte flits) and mcastbed's cluster on
# it; for each group size m (BENCH_FABRIC_M, default 16,63: random
# members, node 0 sending) and message length L in flits
# (BENCH_FABRIC_FLITS, default 8,512,16384: L x 64 bytes of payload), node
# 0 sends one multicast per algorithm (BENCH_FABRIC_ALGOS), alone on the
# idle fabric, in completion mode.  Each receiver reads with the message
# the fabric's virtual time it had it whole (mcast_recv's vtime_ns); the
# table gives, in virtual us from the send, the latency to the last and
# the mean latency to a receiver, and the time until the model's last
# event (the last acknowledgement).
#
# The kernel's data path is not the dissertation's model: a message goes
# as datagrams of at most 1452 bytes, each its own worm (a start-up
# each), and every hop acknowledges, so long messages cost many
# start-ups where the model sends one L-flit worm.  `mcastsim latency`
# runs the model itself (docs/fabric.md).  Figures are virtual time, but
# not wholly free of the machine: the fabric (unpaced) stands still while
# it has nothing to move, so a host's work between a copy and its next
# worm costs no virtual time on a quiet fabric; while other worms (the
# acknowledgements) are in flight the clock runs on meanwhile, so
# multi-phase algorithms carry a little of the guest's speed.  "all done"
# includes every DONE back to the sender.

# shellcheck source=tests/vm/guest/tap.sh
. /tests/tap.sh

TOPO=${BENCH_FABRIC_TOPO:-8x8}
MS=${BENCH_FABRIC_M:-16,63}
FLITS=${BENCH_FABRIC_FLITS:-8,512,16384}
ALGOS=${BENCH_FABRIC_ALGOS:-s-torus,md-torus,mu-torus:2,mu-torus:4,mu-torus:8,u-torus}
FLIT_BYTES=64
GROUP=10
D=/sys/kernel/debug/mcast_irsim
W=/tmp/bench_fabric
rm -rf "$W"
mkdir -p "$W"
N=$(echo "$TOPO" | awk -Fx '{ n = 1; for (i = 1; i <= NF; i++) n *= $i; print n }')

insmod "$MCAST_KO" || { echo "bench_fabric: cannot load mcast.ko"; exit 1; }
insmod "${MCAST_KO%/*}/mcast_irsim.ko" || { echo "bench_fabric: cannot load mcast_irsim.ko"; exit 1; }
echo "torus:$TOPO buffer=2 flit=$FLIT_BYTES" > $D/fabric || exit 1
if ! mcastbed up "torus:$TOPO:uni" --transport irsim > "$W/up" 2>&1; then
	cat "$W/up"
	exit 1
fi
tail -n 1 "$W/up"
cat $D/fabric

stat_of() { # NAME
	sed -n "s/^$1 //p" $D/stats
}

# "last mean" virtual us from T0 over the receivers' logs, for message K
lat_of() { # K T0
	for _f in "$W"/rx.*; do
		sed -n 's/.*whole at virtual \([0-9]*\) ns.*/\1/p' "$_f" | sed -n "$1p"
	done | awk -v t0="$2" '
		{ d = $1 - t0; s += d; n++; if (d > m) m = d }
		END { if (n) printf "%.1f %.1f %d\n", m / 1000, s / n / 1000, n }'
}

echo "======== torus:$TOPO on the fabric: node 0 to m random members; virtual us"
printf '%4s %6s %-11s %10s %10s %10s %6s\n' m L algorithm last mean "all done" got
for m in $(echo "$MS" | tr , ' '); do
	members=$(awk -v n="$N" -v m="$m" 'BEGIN {
		srand(m); printf "0"
		for (k = 0; k < m; ) { u = 1 + int(rand() * (n - 1)); if (!(u in s)) { s[u] = 1; printf " %d", u; k++ } }
	}')
	# 2D: a node's coordinate is (id / K, id % K)
	k0=${TOPO%%x*}
	# shellcheck disable=SC2046 # the coordinates
	GROUP=$((GROUP + 1))	# a group per m
	mcastbed group "$GROUP" $(for u in $members; do echo "$((u / k0)),$((u % k0))"; done) \
		> /dev/null || { echo "bench_fabric: group of $m failed"; continue; }
	nmsg=$(($(echo "$FLITS" | tr , ' ' | wc -w) * $(echo "$ALGOS" | tr , ' ' | wc -w)))
	rm -f "$W"/rx.*
	for u in $members; do
		[ "$u" = 0 ] && continue
		mcastbed exec "$u" mcastperf recv --group "$GROUP" --count "$nmsg" \
			--idle 120 --verbose > "$W/rx.$u" 2>&1 &
	done
	_i=0
	while [ "$_i" -lt 300 ] && [ "$(grep -l receiving "$W"/rx.* 2>/dev/null | wc -l)" -lt "$m" ]; do
		sleep 0.1
		_i=$((_i + 1))
	done
	k=0
	for L in $(echo "$FLITS" | tr , ' '); do
		for a in $(echo "$ALGOS" | tr , ' '); do
			k=$((k + 1))
			mcastbed exec 0 mcastctl node set algorithm "$a" > /dev/null
			t0=$(stat_of now_ns)
			mcastbed exec 0 mcastperf msg --group "$GROUP" --size $((L * FLIT_BYTES)) \
				> "$W/tx" 2>&1 || { echo "# $a L=$L: $(tail -n 1 "$W/tx")"; }
			# every receiver has it (completion mode: they do)
			_i=0
			while [ "$_i" -lt 100 ] &&
				[ "$(grep -h -c 'whole at virtual' "$W"/rx.* | awk -v k=$k '$1 >= k' | wc -l)" -lt "$m" ]; do
				sleep 0.1
				_i=$((_i + 1))
			done
			t1=$(stat_of now_ns)
			# shellcheck disable=SC2046 # "last mean n"
			set -- $(lat_of "$k" "$t0")
			printf '%4s %6s %-11s %10s %10s %10.1f %6s\n' "$m" "$L" "$a" "${1:--}" \
				"${2:--}" "$(echo "$t0 $t1" | awk '{ print ($2 - $1) / 1000 }')" "${3:-0}/$m"
		done
	done
	wait
done
echo "-- fabric: $(grep -E '^(worms|deadlocks|lambda_violations|boundary_violations|completions) ' $D/stats | tr '\n' ' ')"
mcastbed down > /dev/null 2>&1
_i=0
until { [ "$(cat $D/fabric)" = none ] || echo none > $D/fabric; } 2>/dev/null || [ "$_i" -ge 50 ]; do
	sleep 0.1
	_i=$((_i + 1))
done
rmmod mcast_irsim
rmmod mcast
pass "bench_fabric ran"
done_testing
tap_exit
