# shellcheck shell=sh
# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# For the benchmarks run in the guest (tests/vm/bench_*.sh).

# perf_table CSV: mcastperf send --csv's lines as a table per size: time
# until the last receiver has the message (median, p99; ms), throughput
# (MB/s), and each method's median against u-torus's and separate's (above
# 1: the method is faster); then the CSV itself.
perf_table() {
	echo "---- time until the last receiver has the message (ms), throughput (MB/s)"
	awk -F, '
		NR == 1 { next }
		{ m = $1; k = $3; med[m, k] = $5 / 1000; p99[m, k] = $6 / 1000; tp[m, k] = $8
		  if (!(k in seen)) { seen[k] = 1; keys[nk++] = k }
		  if (!(m in mseen)) { mseen[m] = 1; meth[nm++] = m }
		  if (length(m) > w) w = length(m) }
		function ratio(a, b) { return a > 0 ? sprintf("%.2fx", b / a) : "-" }
		function size(b) { return b >= 1048576 ? b / 1048576 "M" : b >= 1024 ? b / 1024 "K" : b }
		END {
			if (w < 6) w = 6
			h = "%5s %-" w "s | %9s %9s | %8s | %10s %11s\n"
			r = "%5s %-" w "s | %9.2f %9.2f | %8.2f | %10s %11s\n"
			printf h, "size", "method",
				"median", "p99", "MB/s", "u-torus/it", "separate/it"
			for (i = 0; i < nk; i++) {
				k = keys[i]
				for (j = 0; j < nm; j++) {
					m = meth[j]
					printf r, size(k), m,
						med[m, k], p99[m, k], tp[m, k],
						ratio(med[m, k], med["u-torus", k]),
						ratio(med[m, k], med["separate", k])
				}
			}
		}' "$1"
	echo "(the ratios: the median of u-torus or separate over this method's;"
	echo " above 1 this method is faster)"
	sed 's/^/csv: /' "$1"
}
