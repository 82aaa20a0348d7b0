#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# The recursion-based broadcast benchmark, run inside the test VM by
# `tests/vm/run.sh --bench-rb` (`make bench-rb`): the RB of Zhuang and
# Liberatore, one-port and all-port, against U-torus and separate addressing
# on one testbed, in one boot.
#
# mcastbed up torus:KxK (BENCH_RB_TOPO, default 4x4: 16 nodes); node 0
# broadcasts to the others with mcastperf (completion mode), every method
# in the same run, each size ITERS times: u-torus, separate, rb,
# rb-all-port, auto (the model's rule: rb from its crossover on).  Before
# it, what the planner's model says (steps, the largest transfers, the
# crossover).  Then a table per size: time until the last receiver has the
# message (median, p99; ms) and throughput (MB/s of payload), each
# method's median against u-torus's and separate's (above 1: the method
# is faster), and the CSV lines.  With BENCH_RB_RATE (e.g. 100mbit) every
# link is limited by netem first, so that bytes on the wire cost what
# they do on a network rather than TCG's CPU alone.
#
# Figures from a TCG guest: compare the methods with each other, not with
# hardware.  Fails only when something does not work, never because a
# method is slow.

# shellcheck source=tests/vm/guest/tap.sh
. /tests/tap.sh

# shellcheck source=tests/vm/guest/perflib.sh
. /tests/perflib.sh

TOPO=${BENCH_RB_TOPO:-4x4}
SIZES=${BENCH_RB_SIZES:-8,1K,64K,1M}
ITERS=${BENCH_RB_ITERS:-10}
RATE=${BENCH_RB_RATE:-}
METHODS="u-torus,separate,rb,rb-all-port,auto"
N=$(echo "$TOPO" | awk -Fx '{ n = 1; for (i = 1; i <= NF; i++) n *= $i; print n }')
W=/tmp/bench_rb
rm -rf "$W"
mkdir -p "$W"

modprobe veth 2>/dev/null
insmod "$MCAST_KO" || { echo "bench_rb: cannot load mcast.ko"; exit 1; }

echo "======== torus:$TOPO: node 0 to the $((N - 1)) others; sizes $SIZES, $ITERS iterations${RATE:+, links at $RATE}"
zero=$(echo "$TOPO" | sed 's/[0-9][0-9]*/0/g; s/x/,/g')
for p in one all; do
	echo "-- the planner's model, $p-port, 1 MiB:"
	mcastctl plan -t "torus:$TOPO:bi" -a rb -s "$zero" --port "$p" \
		--length 1048576 | grep -E '^(steps|cost|  |choice)' | sed 's/^/   /'
done

if ! mcastbed up "torus:$TOPO" > "$W/up" 2>&1; then
	echo "bench_rb: mcastbed up torus:$TOPO failed:"
	cat "$W/up"
	mcastbed down > /dev/null 2>&1
	rmmod mcast
	exit 1
fi
tail -n 1 "$W/up"
[ -z "$RATE" ] || mcastbed netem "rate $RATE" > /dev/null

n=1
logs=''
while [ "$n" -lt "$N" ]; do
	mcastbed exec "$n" mcastperf recv --idle 900 > "$W/recv.$n" 2>&1 &
	logs="$logs $W/recv.$n"
	n=$((n + 1))
done
# shellcheck disable=SC2086
wait_lines $((N - 1)) receiving $logs || echo "bench_rb: not every receiver started"
rc=0
if ! mcastbed exec 0 mcastperf send --members "1-$((N - 1))" --methods "$METHODS" \
	--sizes "$SIZES" --iters "$ITERS" --csv > "$W/csv" 2> "$W/send.err"; then
	echo "bench_rb: mcastperf send failed:"
	cat "$W/send.err"
	rc=1
fi
echo "-- node 0's counters: $(mcastbed exec 0 mcast_probe stats | grep -o 'rb_[a-z]*=[0-9]*' | tr '\n' ' ')"
mcastbed down > /dev/null 2>&1
wait

if [ "$rc" = 0 ]; then
	perf_table "$W/csv"
fi
rmmod mcast
exit "$rc"
