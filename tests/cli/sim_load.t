#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# mcastsim load: multicasts arriving at a given load (Poisson), with
# background unicast worms; batch means and their confidence intervals,
# saturation, and the error contract.  TAP output.
#
# MCASTSIM names the binary (default: build/mcastsim in the repository).

# shellcheck source=tests/cli/simlib.sh
. "$(dirname "$0")/simlib.sh"

# CSV fields: 8 avg_us, 9 avg_ci_us, 10 last_us, 11 last_ci_us,
# 12 blocked_us_per_worm, 13 copies_per_us, 14 status.
field() {	# field LINE N
	cut -d, -f"$2" <<<"$1"
}

# At a very low rate a multicast is alone on the fabric: its latency is
# latency's (the same draws of source and destinations), within the two
# confidence intervals, and its worms hardly ever wait.
small=(-t torus:8x8 -a mu-torus:4 -m 8 -L 16)
run latency "${small[@]}" -n 200 --csv --model worm
alone=$(sed -n 2p <<<"$OUT")
run load "${small[@]}" --rate 0.0005 --warmup 10 --batches 5 --batch-size 40 --csv
low=$(sed -n 2p <<<"$OUT")
awk -v a="$(field "$alone" 6)" -v aci="$(field "$alone" 9)" \
	-v b="$(field "$low" 8)" -v bci="$(field "$low" 9)" \
	-v bl="$(field "$low" 12)" -v st="$(field "$low" 14)" \
	'BEGIN { d = a - b; if (d < 0) d = -d;
		 exit !(st == "ok" && d <= aci + bci + 0.5 && bl < 0.5) }'
ok $? "rate 0.0005: mean latency as alone (latency: $(field "$alone" 6) +- $(field "$alone" 9), load: $(field "$low" 8) +- $(field "$low" 9)), blocked $(field "$low" 12) us/worm"

# Latency rises with the load.
run load "${small[@]}" --rate 0.01,0.5,1 --warmup 20 --batches 5 --batch-size 40 --csv
rising=$OUT
[ "$RC" = 0 ] && tail -n +2 <<<"$OUT" | awk -F, '
	{ if (NR > 1 && !($8 > avg && $10 > last && $12 >= bl)) bad = 1;
	  avg = $8; last = $10; bl = $12 }
	END { exit !(NR == 3 && !bad) }'
ok $? "mean and last latency and blocking rise with the rate ($(tail -n +2 <<<"$OUT" | cut -d, -f6,8,10,12 | tr '\n' ' '))"

# The same seed, the same figures; another seed, others.
run load "${small[@]}" --rate 0.01,0.5,1 --warmup 20 --batches 5 --batch-size 40 --csv
same=$OUT
run load "${small[@]}" --rate 0.01,0.5,1 --warmup 20 --batches 5 --batch-size 40 --csv --seed 2
[ "$same" = "$rising" ] && [ "$OUT" != "$rising" ]
ok $? "seed 1 twice: the same output; seed 2: another"

# The flit level and the worm level: the same output, with unicast worms
# among the multicasts and worms waiting.
# shellcheck disable=SC2054 # --rate takes one comma-separated argument
tiny=(-t torus:4x4 -a s-torus -m 4 -L 8 --rate 0.5,3 --unicast-rate 2
      --warmup 5 --batches 3 --batch-size 15 --csv)
run load "${tiny[@]}" --model flit
flit=$OUT
run load "${tiny[@]}" --model worm
[ "$RC" = 0 ] && [ -n "$flit" ] && [ "$OUT" = "$flit" ] &&
	tail -n +2 <<<"$OUT" | cut -d, -f12 | grep -qv '^0.000$'
ok $? "--model flit and --model worm print the same, worms waited ($(tail -n 1 <<<"$OUT"))"

# Unicast traffic slows the multicasts down.
run load "${small[@]}" --rate 0.5 --warmup 20 --batches 5 --batch-size 40 --csv --unicast-rate 5
uni=$(sed -n 2p <<<"$OUT")
base=$(sed -n 3p <<<"$rising")
awk -v a="$(field "$uni" 8)" -v b="$(field "$base" 8)" 'BEGIN { exit !(a > b) }'
ok $? "unicast worms at 5 per node per ms: mean latency $(field "$uni" 8) over $(field "$base" 8) us"

# Far past what the fabric can carry: saturated, and fewer accepted.
run load "${small[@]}" --rate 100 --warmup 20 --batches 5 --batch-size 40
[ "$RC" = 0 ] && grep -q 'saturated' <<<"$OUT" &&
	awk '/saturated/ { exit !($2 < $1) }' <<<"$OUT"
ok $? "rate 100: saturated ($(grep saturated <<<"$OUT"))"
run load "${small[@]}" --rate 100 --warmup 20 --batches 5 --batch-size 40 --csv
[ "$RC" = 0 ] && [ "$(field "$(sed -n 2p <<<"$OUT")" 14)" = saturated ]
ok $? "rate 100, CSV: status saturated"

# The error contract: exit 2 and a message that names the option.
bad "a rate of 0" "--rate" load --rate 0
bad "a rate not a number" "--rate" load --rate 0.1,x
bad "a negative unicast rate" "--unicast-rate" load --unicast-rate -1
bad "0 batches" "--batches" load --batches 0
bad "1 batch" "--batches" load --batches 1
bad "empty batches" "--batch-size" load --batch-size 0
bad "as many destinations as nodes" "--dests" load -t torus:4x4 -m 16
bad "no destination" "--dests" load -m 0
bad "zero flits" "--flits" load -L 0
bad "an unknown model" "--model" load --model packet
bad "an unknown algorithm" "--algorithm" load -a x-torus
bad "separate addressing" "not simulated" load -a separate
bad "a bidirectional torus" "unidirectional" load -t torus:4x4:bi -m 3
bad "too many in flight" "--max-inflight" load --max-inflight 5000
bad "a stray argument" "usage" load extra
bad "an unknown header" "--header: 'bogus'" load --header bogus
bad "no threads" "--jobs" load -j 0

# The rates are independent runs: any number of threads, the same lines.
# shellcheck disable=SC2054 # --rate takes one comma-separated argument
few=(-t torus:8x8 -m 8 --rate 0.01,0.05,0.1,0.2 --warmup 20 --batches 4 --batch-size 40 --csv)
run load "${few[@]}" -j 1
one=$OUT
run load "${few[@]}" -j 3
[ "$RC" = 0 ] && [ "$(wc -l <<<"$one")" = 5 ] && [ "$OUT" = "$one" ]
ok $? "-j 1 and -j 3: the same four rates, line for line"

# A compound header (Fig 6.2) lengthens every multicast worm: later at
# every rate than with none (the same arrivals).
run load "${few[@]}" --header compound
paste -d, <(sed 1d <<<"$one") <(sed 1d <<<"$OUT") |
	awk -F, '{ if (!($22 > $8)) bad = 1 } END { exit bad }'
ok $? "--header compound: a higher mean latency at every rate than none"

done_testing
tap_exit
