#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# The cluster benchmark, run inside the test VM by `tests/vm/run.sh
# --bench` (`make bench-cluster`): mcastperf on a 16-node 4x4 and a 64-node
# 8x8 unidirectional torus of network namespaces, U-torus against separate
# addressing in the same run, latency until the last destination has the
# message (median, p99) and throughput, as a table and as CSV.  The VM is
# TCG-emulated: read the ratios between the methods, not the absolute times.
#
# The sizes, iterations and destination counts are the variables below
# (the guest gets no environment from the host); for other runs use
# mcastperf by hand in `tests/vm/run.sh --shell`.

# shellcheck source=tests/vm/guest/tap.sh
. /tests/tap.sh

SIZES=8,1K,64K,1M
ITERS=10
COUNTS_16=4,15
COUNTS_64=4,16,63
# 4 MiB to 15 destinations one by one takes long under TCG: fewer rounds
BIG=4M
BIG_ITERS=3

modprobe veth 2>/dev/null
insmod "$MCAST_KO" || exit 1

# ratios: from mcastperf's CSV, U-torus over separate addressing per
# (destinations, size): latency (lower is better) and throughput (higher)
ratios() {
	awk -F, 'NR > 1 { k = $2 "," $3; med[$1, k] = $5; p99[$1, k] = $6; tp[$1, k] = $7
		if (!(k in seen)) { seen[k] = 1; keys[n++] = k } }
	END {
		printf "%6s %9s %16s %16s %18s\n", "dests", "size", "latency median", "latency p99", "throughput (msgs/s)"
		for (i = 0; i < n; i++) {
			k = keys[i]; split(k, a, ",")
			if (med["separate", k] > 0 && tp["separate", k] > 0 && p99["separate", k] > 0)
				printf "%6s %9s %15.2fx %15.2fx %17.2fx\n", a[1], a[2],
					med["u-torus", k] / med["separate", k],
					p99["u-torus", k] / p99["separate", k],
					tp["u-torus", k] / tp["separate", k]
		}
	}' "$1"
}

# bench TOPO NODES COUNTS SIZES ITERS: receivers on nodes 1..NODES-1,
# node 0 sends
bench() {
	echo "======== $1: $2 nodes, destinations $3, sizes $4, $5 iterations"
	mcastbed up "$1" > /dev/null || return 1
	rm -f /tmp/bench.recv.*	# the last bench's would count as started
	_n=1 _logs=''
	while [ "$_n" -lt "$2" ]; do
		mcastbed exec "$_n" mcastperf recv --idle 900 > "/tmp/bench.recv.$_n" 2>&1 &
		_logs="$_logs /tmp/bench.recv.$_n"
		_n=$((_n + 1))
	done
	# shellcheck disable=SC2086
	wait_lines $(($2 - 1)) receiving $_logs || echo "bench: not every receiver started"
	mcastbed exec 0 mcastperf send --members "1-$(($2 - 1))" --counts "$3" \
		--sizes "$4" --iters "$5" --csv > /tmp/bench.csv
	_rc=$?
	wait
	echo "---- mcastperf CSV"
	cat /tmp/bench.csv
	echo "---- U-torus / separate addressing"
	ratios /tmp/bench.csv
	echo "---- the source's counters (retrans, peer_fails: what the run cost)"
	mcastbed exec 0 mcastctl stats show | head -n 1
	mcastbed down > /dev/null
	return $_rc
}

rc=0
bench torus:4x4:uni 16 "$COUNTS_16" "$SIZES" "$ITERS" || rc=1
bench torus:4x4:uni 16 "$COUNTS_16" "$BIG" "$BIG_ITERS" || rc=1
bench torus:8x8:uni 64 "$COUNTS_64" "$SIZES" "$ITERS" || rc=1
rmmod mcast
exit $rc
