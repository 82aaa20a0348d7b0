#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# plot.sh CSV OUTDIR: bench-peers' CSV (tests/vm/bench_peers.sh) as one
# PNG per node count, OUTDIR/peers-<nodes>.png: median latency until the
# last receiver has the message, and throughput, against message size,
# one line per peer/method (log scales).  Needs gnuplot (gnuplot-nox);
# without it says so and exits 1.
set -eu

csv=$1
out=$2
command -v gnuplot > /dev/null || { echo "plot.sh: no gnuplot (apt-get install gnuplot-nox)" >&2; exit 1; }
data=$out/plot-data
rm -rf "$data"
mkdir -p "$data"

# one data file per node count and peer/method: size median p99 msgs/s
awk -F, -v d="$data" 'NR > 1 {
	f = d "/" $3 "_" $1 "_" $2 ".dat"
	print $5, $7, $8, $9 >> f }' "$csv"

for nodes in $(awk -F, 'NR > 1 { print $3 }' "$csv" | sort -nu); do
	files=$(ls "$data/${nodes}_"*.dat)
	lat='' tput=''
	for f in $files; do
		sort -n "$f" -o "$f"
		t=$(basename "$f" .dat | sed "s/^${nodes}_//; s/_/\//")
		lat="$lat${lat:+, }'$f' using 1:2 with linespoints title '$t'"
		tput="$tput${tput:+, }'$f' using 1:4 with linespoints title '$t'"
	done
	gnuplot <<GP
set terminal pngcairo size 1400,600 noenhanced
set output '$out/peers-$nodes.png'
set multiplot layout 1,2 title 'mcast vs peers, $nodes nodes, source node 0 (TCG guest)'
set logscale xy
set grid
set key left top font ',8'
set xlabel 'message size (bytes)'
set ylabel 'median us until the last receiver has it'
plot $lat
set key left bottom font ',8'
set ylabel 'messages/s back to back'
plot $tput
unset multiplot
GP
	echo "plot.sh: $out/peers-$nodes.png"
done
