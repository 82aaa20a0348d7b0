#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# The hypercube benchmark, run inside the test VM by `tests/vm/run.sh
# --bench-cube` (`make bench-cube`): the algorithms of Robinson (1994),
# chapter 3, against U-torus and separate addressing on one testbed, in one
# boot.
#
# mcastbed up cube:N (default 4: 16 nodes, one veth pair per dimension,
# E-cube routes); node 0 sends to the 2^N - 1 others with mcastperf
# (completion mode), every method in the same run, each size ITERS times:
# u-torus (the kernel's U-torus on the torus 2x...x2), separate, u-cube,
# maxport, combine, w-sort.  Before it, what the planner says of each
# algorithm's broadcast (steps, hops).  Then a table per size: time until
# the last receiver has the message (median, p99; ms) and throughput (MB/s
# of payload), with each method's median against u-torus's and
# separate's (above 1: the method is faster), and the CSV lines.
#
# Figures from a TCG guest: compare the methods with each other, not with
# hardware.  Fails only when something does not work, never because a
# method is slow.

# shellcheck source=tests/vm/guest/tap.sh
. /tests/tap.sh

# shellcheck source=tests/vm/guest/perflib.sh
. /tests/perflib.sh

DIM=${BENCH_CUBE_DIM:-4}
SIZES=${BENCH_CUBE_SIZES:-8,1K,64K,1M}
ITERS=${BENCH_CUBE_ITERS:-10}
METHODS="u-torus,separate,u-cube,maxport,combine,w-sort"
N=$((1 << DIM))
W=/tmp/bench_cube
rm -rf "$W"
mkdir -p "$W"

modprobe veth 2>/dev/null
insmod "$MCAST_KO" || { echo "bench_cube: cannot load mcast.ko"; exit 1; }

echo "======== cube:$DIM: node 0 to the $((N - 1)) others; sizes $SIZES, $ITERS iterations"
src=$(printf "%0${DIM}d" 0)
for a in u-cube maxport combine w-sort; do
	printf '%-8s ' "$a"
	mcastctl plan -t "cube:$DIM" -a "$a" -s "$src" --random $((N - 1)) |
		awk '/^steps / { s = $2 } /^total / { h = $4 }
		     END { printf "all-port steps %s, hops %s\n", s, h }'
done

if ! mcastbed up "cube:$DIM" > "$W/up" 2>&1; then
	echo "bench_cube: mcastbed up cube:$DIM failed:"
	cat "$W/up"
	mcastbed down > /dev/null 2>&1
	rmmod mcast
	exit 1
fi
tail -n 1 "$W/up"

n=1
logs=''
while [ "$n" -lt "$N" ]; do
	mcastbed exec "$n" mcastperf recv --idle 900 > "$W/recv.$n" 2>&1 &
	logs="$logs $W/recv.$n"
	n=$((n + 1))
done
# shellcheck disable=SC2086
wait_lines $((N - 1)) receiving $logs || echo "bench_cube: not every receiver started"
rc=0
if ! mcastbed exec 0 mcastperf send --members "1-$((N - 1))" --methods "$METHODS" \
	--sizes "$SIZES" --iters "$ITERS" --csv > "$W/csv" 2> "$W/send.err"; then
	echo "bench_cube: mcastperf send failed:"
	cat "$W/send.err"
	rc=1
fi
mcastbed down > /dev/null 2>&1
wait

if [ "$rc" = 0 ]; then
	perf_table "$W/csv"
fi
# Rings (Lin and Chen 1996): every member of a group sends at once.  Group 9 of
# all N members; each sends RING_COUNT messages of each size, all members
# at the same time, with algorithm ring, then again as m separate U-torus
# multicasts (u-torus) and Maxport trees: the time from the first send
# until every sender's completion-mode sends have returned, and the
# aggregate throughput (MB/s of payload delivered: m senders x count x
# size x (m - 1) receivers, over that time).  Every link is limited to
# RING_RATE by netem (default 100mbit; empty: unlimited), so that paths
# sharing a link are slower, as on a real network; without it TCG's CPU is
# the only bottleneck.
RING_M=$N
RING_COUNT=${BENCH_CUBE_RING_COUNT:-4}
RING_SIZES=${BENCH_CUBE_RING_SIZES:-1K 64K 1M}
RING_RATE=${BENCH_CUBE_RING_RATE-100mbit}
bytes_of() { # 64K -> 65536
	echo "$1" | awk '{ v = $1 + 0; if ($1 ~ /K$/) v *= 1024; if ($1 ~ /M$/) v *= 1048576; print v }'
}
if [ "$rc" = 0 ] && mcastbed up "cube:$DIM" > "$W/up2" 2>&1; then
	mem=$(seq 0 $((RING_M - 1)) | tr '\n' ' ')
	mcastbed group 9 all > /dev/null
	# links that cost something, so that paths sharing one are slower
	[ -z "$RING_RATE" ] || mcastbed netem "rate $RING_RATE" > /dev/null
	echo "======== rings: $RING_M members of cube:$DIM all sending at once, $RING_COUNT messages each, links ${RING_RATE:-unlimited}"
	printf "%5s %-8s | %8s | %9s | %s\n" size method "time (s)" "MB/s" "ring's speed-up"
	for sz in $RING_SIZES; do
		b=$(bytes_of "$sz")
		for a in u-torus maxport ring; do
			for u in $mem; do
				mcastbed exec "$u" mcast_probe rx 9 600000 $((RING_M * RING_COUNT)) \
					> "$W/rr.$u" 2>&1 &
			done
			for u in $mem; do
				wait_lines 1 '^ready' "$W/rr.$u"
			done
			t0=$(awk '{ print $1 }' /proc/uptime)
			pids=''
			for u in $mem; do
				mcastbed exec "$u" mcast_probe tx g:9 "$b" count="$RING_COUNT" \
					algo="$a" wait=300000 > "$W/rt.$u" 2>&1 &
				pids="$pids $!"
			done
			# shellcheck disable=SC2086
			wait $pids
			t1=$(awk '{ print $1 }' /proc/uptime)
			ok=$(cat "$W"/rt.* | grep -c 'rc=0 nfailed=0')
			for u in $mem; do
				wait_lines $((RING_M * RING_COUNT)) '^msg ' "$W/rr.$u" ||
					echo "bench_cube: node $u did not get every message"
				kill "$(sed -n 's/^ready .* pid=\([0-9]*\)$/\1/p' "$W/rr.$u")" 2>/dev/null
			done
			[ "$ok" = $((RING_M * RING_COUNT)) ] ||
				{ echo "bench_cube: $a: $ok of $((RING_M * RING_COUNT)) sends completed"; rc=1; }
			echo "$sz $a $t0 $t1" >> "$W/ring"
			rm -f "$W"/rt.* "$W"/rr.*
		done
	done
	awk -v m="$RING_M" -v c="$RING_COUNT" '
		function bytes(s,   v) { v = s + 0; if (s ~ /K$/) v *= 1024; if (s ~ /M$/) v *= 1048576; return v }
		{ t = $4 - $3; if (t <= 0) t = 0.01; tp = m * c * bytes($1) * (m - 1) / t / 1e6
		  T[$1, $2] = t; P[$1, $2] = tp; if (!($1 in seen)) { seen[$1] = 1; k[n++] = $1 } }
		END {
			for (i = 0; i < n; i++) {
				s = k[i]
				split("u-torus maxport ring", A, " ")
				for (j = 1; j <= 3; j++)
					printf "%5s %-8s | %8.2f | %9.2f | %s\n", s, A[j], T[s, A[j]], P[s, A[j]],
						A[j] == "ring" ? "" : sprintf("%.2fx", T[s, A[j]] / T[s, "ring"])
			}
		}' "$W/ring"
	echo "(speed-up: that method's time over ring's; above 1 the ring is faster)"
	mcastbed down > /dev/null 2>&1
fi
rmmod mcast
exit $rc
