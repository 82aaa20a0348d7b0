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
# Then the cost of the cluster key: U-torus with and without a key on every
# node, same boot, same torus, as ratios.
#
# The sizes, iterations and destination counts are the variables below;
# Last the timer's cost against the number of idle streams a node keeps.
# BENCH_ONLY (from the host: make bench-cluster BENCH_ONLY=key) runs one
# part: torus, key or timer.  For other runs use mcastperf by hand in
# `tests/vm/run.sh --shell`.

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
	# The node's block, not its groups' (stats show: one line a counter).
	echo "---- the source's counters (retrans, peer_fails: what the run cost)"
	mcastbed exec 0 mcastctl stats show | sed '/^group /,$d'
	mcastbed down > /dev/null
	return $_rc
}

# mcastperf's u-torus rounds from node 0 to nodes 1..NODES-1 into CSV OUT
perf_round() { # NODES SIZES ITERS OUT
	rm -f /tmp/bench.recv.*
	_n=1 _logs=''
	while [ "$_n" -lt "$1" ]; do
		mcastbed exec "$_n" mcastperf recv --idle 900 > "/tmp/bench.recv.$_n" 2>&1 &
		_logs="$_logs /tmp/bench.recv.$_n"
		_n=$((_n + 1))
	done
	# shellcheck disable=SC2086
	wait_lines $(($1 - 1)) receiving $_logs || echo "bench: not every receiver started"
	mcastbed exec 0 mcastperf send --members "1-$(($1 - 1))" --counts $(($1 - 1)) \
		--sizes "$2" --iters "$3" --methods u-torus --csv > "$4"
	_rc=$?
	wait
	return $_rc
}

# The cluster key's cost: the same rounds without a key, with one, and
# without again (the machine's drift between the first and last), as
# keyed / keyless ratios per size.
bench_key() { # TOPO NODES SIZES ITERS
	echo "======== cluster key: $1, $2 nodes on the default transport (TCP), sizes $3, $4 iterations"
	mcastbed up "$1" > /dev/null || return 1
	head -c 32 /dev/urandom > /tmp/bench.key
	perf_round "$2" "$3" "$4" /tmp/bench.nokey.csv || return 1
	_n=0
	while [ "$_n" -lt "$2" ]; do
		mcastbed exec "$_n" mcastctl node set key /tmp/bench.key 2> /dev/null || return 1
		_n=$((_n + 1))
	done
	perf_round "$2" "$3" "$4" /tmp/bench.key.csv || return 1
	echo "---- mcastperf CSV, no key"
	cat /tmp/bench.nokey.csv
	echo "---- mcastperf CSV, key (HMAC-SHA256 on every datagram)"
	cat /tmp/bench.key.csv
	echo "---- with a key / without (latency: lower is better; throughput: higher)"
	awk -F, 'FNR == 1 { f++; next }
		{ k = $3; med[f, k] = $5; p99[f, k] = $6; tp[f, k] = $7
		  if (f == 1) keys[n++] = k }
		END {
			printf "%9s %16s %16s %18s\n", "size", "latency median", "latency p99", "throughput"
			for (i = 0; i < n; i++) {
				k = keys[i]
				if (med[1, k] > 0 && p99[1, k] > 0 && tp[1, k] > 0)
					printf "%9s %15.2fx %15.2fx %17.2fx\n", k,
						med[2, k] / med[1, k], p99[2, k] / p99[1, k],
						tp[2, k] / tp[1, k]
			}
		}' /tmp/bench.nokey.csv /tmp/bench.key.csv
	echo "---- node 1's rx_bad_auth (0: every keyed datagram checked out)"
	mcastbed exec 1 mcast_probe stats 2> /dev/null | tr ' ' '\n' | grep '^rx_bad_auth=' ||
		mcastbed exec 1 mcastctl stats show -a | grep -E '^ +rx_bad_auth '
	mcastbed down > /dev/null
}

# node 1's timer_ns now
timer_ns() {
	mcastbed exec 1 mcast_probe stats | tr ' ' '\n' | sed -n 's/^timer_ns=//p'
}

# the timer's ns per second on node 1 over SECS
timer_rate() { # SECS
	_a=$(timer_ns)
	sleep "$1"
	echo $((($(timer_ns) - _a) / $1))
}

# node 2 makes node 1 keep COUNT more idle streams: one message each to a
# group node 1 does not know, delivered to nobody, its stream remembered
add_streams() { # FIRST-GROUP COUNT
	_g=$1 _left=$2
	while [ "$_left" -gt 0 ]; do
		_b=1000
		[ "$_left" -ge 1000 ] || _b=$_left
		mcastbed exec 2 mcast_forge raw sport=7447 10.77.0.1 7447 data from=2 src=2 \
			group="$_g" xid="$_g" seq="$_g" inc=xid,seq,group piece=1:0 text=s \
			n="$_b" > /dev/null
		_g=$((_g + _b)) _left=$((_left - _b))
		sleep 1
	done
}

# What the timer costs with 1000 and with 10000 idle streams: it looks at
# the heads of ordered lists, so the two should cost about the same (before
# this design it walked every stream every tick).
bench_timer() {
	echo "======== timer work against idle streams (torus:2x2, node 1)"
	# UDP: mcast_forge speaks as node 2 from its port over a raw socket
	mcastbed up torus:2x2:uni --transport udp > /dev/null || return 1
	add_streams 100000 1000
	sleep 22	# the finished jobs are forgotten after 20 s
	s1=$(mcastbed exec 1 mcast_probe stats | tr ' ' '\n' | sed -n 's/^streams=//p')
	r1=$(timer_rate 10)
	add_streams 200000 9000
	sleep 22
	s2=$(mcastbed exec 1 mcast_probe stats | tr ' ' '\n' | sed -n 's/^streams=//p')
	r2=$(timer_rate 10)
	echo "streams  timer ns/s"
	echo "$s1 $r1"
	echo "$s2 $r2"
	awk -v a="$r1" -v b="$r2" -v s="$s1" -v t="$s2" 'BEGIN {
		if (a > 0 && s > 0) printf "%.1fx the streams, %.2fx the timer time\n", t / s, b / a }'
	mcastbed down > /dev/null
}

rc=0
if [ "${BENCH_ONLY:-torus}" = torus ]; then
	bench torus:4x4:uni 16 "$COUNTS_16" "$SIZES" "$ITERS" || rc=1
	bench torus:4x4:uni 16 "$COUNTS_16" "$BIG" "$BIG_ITERS" || rc=1
	bench torus:8x8:uni 64 "$COUNTS_64" "$SIZES" "$ITERS" || rc=1
fi
if [ "${BENCH_ONLY:-key}" = key ]; then
	bench_key torus:4x4:uni 16 "$SIZES" "$ITERS" || rc=1
fi
if [ "${BENCH_ONLY:-timer}" = timer ]; then
	bench_timer || rc=1
fi
rmmod mcast
exit $rc
