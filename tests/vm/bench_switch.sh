#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# The switched-cluster benchmark, run inside the test VM by `tests/vm/run.sh
# --bench-switch` (`make bench-switch`): one broadcast order against the
# other on the same network of switches, in one boot.
#
# The network is docs/topologies/fat-tree-16-rr.topo (copied to
# /tests/topologies): a two-level fat tree, 4 leaves under 2 spines, 16
# hosts numbered round-robin over the leaves, every switch-switch link
# through tbf at RATE (mcastbed up switch:FILE --rate; the host links are
# not limited).  Node 0 broadcasts to the 15 others with mcastperf (u-torus,
# completion mode) on two testbeds made from that file:
#   switch  mcastbed up --order switch: the nodes' topology is switch:FILE,
#           so the kernel plans over the up*-down* order of Libeskind-Hadas et
#           al. (1998) (members by the postorder ID of a BFS tree, recursive
#           halving): no two sends of a step share a link;
#   rank    mcastbed up --order rank: the nodes are the 1-D torus torus:16,
#           so U-torus is a binomial tree over node-id order, what a
#           topology-blind library (MPI's binomial bcast) does: sends of
#           one step share leaf-spine links.
# On the switch testbed mcastperf also runs its binomial method (the same
# halving over node ids, MCAST_ALGORITHM_BINOMIAL): the topology-blind
# tree on the very same network and in the same run, a second table.
# For each order it prints what the planner's contention checker says of
# that broadcast (`mcastctl plan --topology switch:FILE -s 0 --random 15
# --compare binomial`: the updown plan for switch, the binomial one for
# rank), then a table per size: time until the last receiver has the
# message (median, p99; ms) and throughput (MB/s of payload), switch
# against rank, with rank/switch for latency and switch/rank for
# throughput (above 1: the topology-aware order is better), and the CSV
# lines prefixed "csv: " (mcastperf's columns after the order).  Once, the
# qdiscs of a switch, to show the tbf is there.
#
# Figures from a TCG guest: compare the orders with each other, not with
# hardware.  The script fails only when something does not work (a testbed
# does not come up, no tbf, a send fails), never because an order is slow.
# Sizes, iterations and the rate are the variables below (the bench itself
# about 2 minutes under TCG, make bench-switch with the build and boot
# about 3).

# shellcheck source=tests/vm/guest/tap.sh
. /tests/tap.sh

FILE=/tests/topologies/fat-tree-16-rr.topo
RATE=100mbit
N=16
SIZES=64K,256K,1M
ITERS=20
# 4 MiB to 15 destinations through 100 Mbit/s links: fewer rounds
BIG=4M
BIG_ITERS=6
W=/tmp/bench_switch
rm -rf "$W"
mkdir -p "$W"

modprobe veth 2>/dev/null
modprobe sch_tbf 2>/dev/null
insmod "$MCAST_KO" || { echo "bench_switch: cannot load mcast.ko"; exit 1; }

uptime_s() {
	awk '{ print $1 }' /proc/uptime
}

since() { # T0: seconds since T0 (uptime), one decimal
	echo "$1 $(uptime_s)" | awk '{ printf "%.1f", $2 - $1 }'
}

# mcastperf from node 0 to nodes 1..N-1, SIZES and ITERS, CSV (with its
# header) into OUT; receivers started and stopped around it.  On the
# up*-down* testbed also the binomial method (the halving over node ids):
# the topology-blind tree on the very same network, in the same run.
perf_round() { # SIZES ITERS OUT
	rm -f "$W"/recv.*
	_n=1 _logs=''
	while [ "$_n" -lt "$N" ]; do
		mcastbed exec "$_n" mcastperf recv --idle 600 > "$W/recv.$_n" 2>&1 &
		_logs="$_logs $W/recv.$_n"
		_n=$((_n + 1))
	done
	# shellcheck disable=SC2086
	wait_lines $((N - 1)) receiving $_logs || echo "bench_switch: not every receiver started"
	mcastbed exec 0 mcastperf send --members "1-$((N - 1))" --methods "$METHODS" \
		--sizes "$1" --iters "$2" --csv > "$3" 2> "$W/send.err"
	_rc=$?
	if [ "$_rc" != 0 ]; then
		echo "bench_switch: mcastperf send --sizes $1 failed (status $_rc):"
		cat "$W/send.err"
		# the receivers may never see the stop message: mcastbed down
		# kills them (the caller's down finds nothing left)
		mcastbed down > /dev/null 2>&1
	fi
	wait
	return $_rc
}

# The planner's view of the broadcast: one run, both plans
t0=$(uptime_s)
if ! mcastctl plan --topology "switch:$FILE" -s 0 --random $((N - 1)) \
	--compare binomial > "$W/plan" 2>&1; then
	echo "bench_switch: mcastctl plan failed:"
	cat "$W/plan"
	rmmod mcast
	exit 1
fi

echo "======== $FILE: $N hosts, switch links at $RATE; node 0 to the $((N - 1)) others, u-torus"
echo "sizes $SIZES ($ITERS iterations), $BIG ($BIG_ITERS iterations)"
grep '^order ' "$W/plan"
grep '^rank order ' "$W/plan"

rc=0
shown=0
for ORDER in switch rank; do
	echo "======== order $ORDER"
	case $ORDER in
	switch) grep '^updown .*contention checker' "$W/plan" ;;
	rank) grep '^binomial .*contention checker\|^shared: ' "$W/plan" ;;
	esac
	grep '^updown: .*; binomial: ' "$W/plan"
	t1=$(uptime_s)
	if ! mcastbed up "switch:$FILE" --rate "$RATE" --order "$ORDER" > "$W/up.$ORDER" 2>&1; then
		echo "bench_switch: mcastbed up switch:$FILE --rate $RATE --order $ORDER failed:"
		cat "$W/up.$ORDER"
		mcastbed down > /dev/null 2>&1
		rc=1
		continue
	fi
	echo "testbed up in $(since "$t1") s: $(tail -n 1 "$W/up.$ORDER")"
	mcastbed show | grep '^mcast '
	echo "node 0's kernel: $(mcastbed exec 0 mcastctl node show | sed -n 's/^topology  *//p')"
	# the rate limit: a tbf at both ends of every switch-switch link
	ntbf=0
	nsw=0
	for ns in $(ip netns list | awk '$1 ~ /^mcbs[0-9]/ { print $1 }'); do
		ntbf=$((ntbf + $(tc -n "$ns" qdisc show | grep -c "^qdisc tbf .* root ")))
		nsw=$((nsw + 1))
	done
	nl=$(grep -c '^link ' "$FILE")
	echo "rate limit: $ntbf root tbf qdiscs on $nsw switches (want $((2 * nl)): both ends of $nl links)"
	if [ "$ntbf" -ne $((2 * nl)) ]; then
		echo "bench_switch: the switch links are not all limited:"
		tc -n mcbs0 qdisc show
		rc=1
	elif [ "$shown" = 0 ]; then
		echo "tc -n mcbs0 qdisc show (switch 0, leaf0):"
		tc -n mcbs0 qdisc show | sed 's/^/  /'
		shown=1
	fi

	t1=$(uptime_s)
	METHODS=u-torus
	[ "$ORDER" = rank ] || METHODS=u-torus,binomial
	if perf_round "$SIZES" "$ITERS" "$W/small.$ORDER" &&
		perf_round "$BIG" "$BIG_ITERS" "$W/big.$ORDER"; then
		{
			cat "$W/small.$ORDER"
			sed 1d "$W/big.$ORDER"
		} > "$W/csv.$ORDER"
		echo "---- mcastperf CSV ($(since "$t1") s)"
		cat "$W/csv.$ORDER"
		echo "---- the source's counters"
		mcastbed exec 0 mcastctl stats show | sed '/^group /,$d'
	else
		rc=1
	fi
	mcastbed down > /dev/null 2>&1
done

if [ -s "$W/csv.switch" ] && [ -s "$W/csv.rank" ]; then
	echo "======== switch (up*-down* order) against rank (binomial over node ids)"
	echo "time until the last receiver has the message (ms), throughput (MB/s)"
	awk -F, -v rate="$RATE" '
		FNR == 1 { g = (FILENAME ~ /switch$/) ? "s" : "r"; next }
		{ f = $1 == "binomial" ? "b" : g
		  k = $3; med[f, k] = $5 / 1000; p99[f, k] = $6 / 1000; tp[f, k] = $8
		  if (!(k in seen)) { seen[k] = 1; keys[n++] = k } }
		function ratio(a, b) { return b > 0 ? sprintf("%.2fx", a / b) : "-" }
		function size(b) { return b >= 1048576 ? b / 1048576 "M" : b >= 1024 ? b / 1024 "K" : b }
		END {
			# the rate in bits/s, for one message over one link
			r = rate; sub(/[a-z]+$/, "", r); u = substr(rate, length(r) + 1)
			r *= (u ~ /^g/) ? 1e9 : (u ~ /^m/) ? 1e6 : (u ~ /^k/) ? 1e3 : 1
			printf "%5s %7s | %-31s | %-31s | %s\n", "size", "1 link",
				"latency median (ms)", "latency p99 (ms)", "throughput (MB/s)"
			printf "%5s %7s | %9s %9s %11s | %9s %9s %11s | %7s %7s %11s\n",
				"", "(ms)", "switch", "rank", "rank/switch", "switch", "rank",
				"rank/switch", "switch", "rank", "switch/rank"
			for (i = 0; i < n; i++) {
				k = keys[i]
				printf "%5s %7.1f | %9.1f %9.1f %11s | %9.1f %9.1f %11s | %7.2f %7.2f %11s\n",
					size(k), k * 8 / r * 1000,
					med["s", k], med["r", k], ratio(med["r", k], med["s", k]),
					p99["s", k], p99["r", k], ratio(p99["r", k], p99["s", k]),
					tp["s", k], tp["r", k], ratio(tp["s", k], tp["r", k])
			}
			printf "\nthe binomial method on the up*-down* testbed (same run as switch):\n"
			printf "%5s | %9s %9s %11s | %7s %11s\n", "size", "median", "p99",
				"b/switch", "MB/s", "switch/b"
			for (i = 0; i < n; i++) {
				k = keys[i]
				if (!(("b", k) in med))
					continue
				printf "%5s | %9.1f %9.1f %11s | %7.2f %11s\n", size(k),
					med["b", k], p99["b", k], ratio(med["b", k], med["s", k]),
					tp["b", k], ratio(tp["s", k], tp["b", k])
			}
		}' "$W/csv.switch" "$W/csv.rank"
	echo "(1 link: one message through one link at $RATE; latency ratios and"
	echo " the throughput ratio above 1: the up*-down* order is faster)"
fi

echo "csv: order,method,dests,size,iters,median_us,p99_us,msgs_per_s,mb_per_s,failed"
for ORDER in switch rank; do
	[ ! -s "$W/csv.$ORDER" ] || sed 1d "$W/csv.$ORDER" | sed "s/^/csv: $ORDER,/"
done
echo "bench_switch: $(since "$t0") s in all"
rmmod mcast
exit $rc
