#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# mcastsim router: the router model of Fulgham (1997) (router_model.c), packet
# and wormhole.  The generator's test vectors, the zero-load latency the
# pipeline implies (a packet's and a worm's), the mean hop distances, the
# traffic patterns, conservation below saturation and progress far above
# it (Min Triplex and Chaos: every pattern at load 1 on the torus, and
# long runs that must keep delivering; wormhole: the oblivious router,
# Duato, Min Triplex and the Triplex), the non-minimal Triplex's deroutes
# (they happen under congestion, never with p = 0, where the wormhole
# Triplex is Min Triplex), the wormhole mix's mean length, mixed-class
# traffic (--mix-class: its ends are the single-class routers figure for
# figure, its oblivious class arrives in order, no deadlock at load 1),
# the seed002, seed002-ch4 and seed002-mixed experiments, and the error
# contract.  TAP output.
#
# MCASTSIM names the binary (default: build/mcastsim in the repository).

# shellcheck source=tests/cli/simlib.sh
. "$(dirname "$0")/simlib.sh"

field() {	# field LINE N
	cut -d, -f"$2" <<<"$1"
}

# The seed's generator, X(n) = 397204094 X(n-1) mod 2^31 - 1 (notes 3.5).
run router --selftest
[ "$RC" = 0 ] && grep -qx 'X10000 10939054' <<<"$OUT" &&
	grep -qx 'X1..X5 397204094 2083249653 858616159 557054349 1979126465' <<<"$OUT" &&
	grep -qx 'stride 512 403747358' <<<"$OUT" &&
	grep -qx 'selftest: ok' <<<"$OUT"
ok $? "generator: X10000 from 1 is 10939054, stream stride 512 is 403747358 ($(sed -n 2p <<<"$OUT"))"

# A packet alone over h hops takes h (N + 1) + N + 19 cycles (20 words):
# node latency N is 3 for DO, 4 for Duato, Min Triplex and Chaos, so one
# cycle more a hop.  The hops are the minimal distance for every router
# (alone, Chaos never deroutes).
probe() {	# probe WHAT N HOPS ARGS...
	local what=$1 lat=$2 hops=$3 want
	shift 3
	want=$((hops * (lat + 1) + lat + 19))
	run router "$@"
	[ "$RC" = 0 ] && [ "$OUT" = "latency $want hops $hops" ]
	ok $? "$what: $OUT (want $want over $hops hops)"
}
probe "DO torus 0 -> 0x88" 3 16 --probe 0:0x88
probe "Duato torus 0 -> 0x88" 4 16 -a duato --probe 0:0x88
probe "DO torus 0 -> 1" 3 1 --probe 0:1
probe "Duato torus 0 -> 1" 4 1 -a duato --probe 0:1
probe "DO torus 0 -> 15 (the wrap link)" 3 1 --probe 0:15
probe "DO torus to itself" 3 0 --probe 37:37
probe "DO mesh corner to corner" 3 30 --mesh --probe 0:255
probe "Duato mesh corner to corner" 4 30 -t mesh:16x16 -a duato --probe 255:0
probe "Min Triplex torus 0 -> 0x88" 4 16 -a min-triplex --probe 0:0x88
probe "Min Triplex torus 0 -> 1" 4 1 -a min-triplex --probe 0:1
probe "Min Triplex torus 0x25 -> 0x13 (-x, wrap-free)" 4 3 -a min-triplex --probe 0x25:0x13
probe "Min Triplex torus 0 -> 0xff (-x across the wrap)" 4 2 -a min-triplex --probe 0:0xff
probe "Min Triplex in-fixed mesh 255 -> 0 (Rule 4)" 4 30 --mesh -a min-triplex --arbitration in-fixed --probe 255:0
probe "Min Triplex in-random mesh corner to corner" 4 30 --mesh -a min-triplex --arbitration in-random --probe 0:255
probe "Chaos torus 0 -> 0x88" 4 16 -a chaos --probe 0:0x88
probe "Chaos torus 0 -> 0xff (both wrap links)" 4 2 -a chaos --probe 0:0xff
probe "Chaos mesh corner to corner" 4 30 --mesh -a chaos --probe 255:0
probe "Triplex torus 0 -> 0x88" 4 16 -a triplex --probe 0:0x88
probe "Triplex torus 0 -> 0xff (-x across the wrap)" 4 2 -a triplex --probe 0:0xff
probe "Triplex in-fixed mesh corner to corner" 4 30 --mesh -a triplex --arbitration in-fixed --probe 255:0

# Mean hop distance under random traffic (self included): exact, and as
# delivered at a low load.
run router --hops
[ "$OUT" = "mean hops 8.0000" ]
ok $? "torus 16x16 random: $OUT (8)"
run router --mesh --hops
[ "$OUT" = "mean hops 10.6250" ]
ok $? "mesh 16x16 random: $OUT (10.625)"
run router --load 0.1 --warmup 1000 --batches 4 --batch-size 3000 --csv
line=$(sed -n 2p <<<"$OUT")
awk -v h="$(field "$line" 11)" 'BEGIN { exit !(h > 7.9 && h < 8.1) }'
ok $? "torus, load 0.1: delivered packets average $(field "$line" 11) hops"
torus_low=$line
run router --mesh --load 0.1 --warmup 1000 --batches 4 --batch-size 3000 --csv
line=$(sed -n 2p <<<"$OUT")
awk -v h="$(field "$line" 11)" 'BEGIN { exit !(h > 10.5 && h < 10.75) }'
ok $? "mesh, load 0.1: delivered packets average $(field "$line" 11) hops"

# At a light load the mean latency is near the zero-load 8 x 4 + 22 = 54.
awk -v l="$(field "$torus_low" 9)" 'BEGIN { exit !(l >= 54 && l < 60) }'
ok $? "torus DO, load 0.1: mean latency $(field "$torus_low" 9) cycles (zero load 54)"

# The traffic patterns (8 address bits, row-major ids).
pattern() {	# pattern NAME NODE WANT
	run router --traffic "$1" --map "$2"
	[ "$RC" = 0 ] && [ "$OUT" = "$3" ]
	ok $? "$1 of $2: $OUT (want $3)"
}
pattern transpose 0x12 "18 -> 33"
pattern transpose 0x7 "7 -> 112"
pattern bitrev 1 "1 -> 128"
pattern bitrev 0x0f "15 -> 240"
pattern complement 0 "0 -> 255"
pattern complement 0x5a "90 -> 165"
pattern shuffle 0x81 "129 -> 3"
pattern shuffle 0x40 "64 -> 128"
pattern random 9 "9: probability 0.003906"
pattern hotspot1 6 "6: probability 0.013986"
pattern hotspot1 7 "7: probability 0.003497"
pattern hotspot2 51 "51: probability 0.024476"
pattern hotspot2 254 "254: probability 0.013986"

# Below saturation everything offered is delivered; far above it the
# network saturates and still delivers (no deadlock).
small=(--warmup 2000 --batches 5 --batch-size 2000 --csv)
run router --load 0.3 "${small[@]}"
line=$(sed -n 2p <<<"$OUT")
awk -v o="$(field "$line" 6)" -v t="$(field "$line" 7)" -v s="$(field "$line" 12)" \
	'BEGIN { d = o - t; if (d < 0) d = -d; exit !(d < 0.01 && s == 0) }'
ok $? "torus DO, load 0.3: offered $(field "$line" 6), delivered $(field "$line" 7), not saturated"
run router --mesh -a duato --arbitration in-random --traffic transpose --load 0.4 "${small[@]}"
line=$(sed -n 2p <<<"$OUT")
awk -v o="$(field "$line" 6)" -v t="$(field "$line" 7)" -v s="$(field "$line" 12)" \
	'BEGIN { d = o - t; if (d < 0) d = -d; exit !(d < 0.01 && s == 0) }'
ok $? "mesh Duato in-random transpose, load 0.4: offered $(field "$line" 6), delivered $(field "$line" 7)"
for arb in in-fixed in-random out; do
	run router -a min-triplex --arbitration "$arb" --traffic hotspot1 --load 0.5 "${small[@]}"
	line=$(sed -n 2p <<<"$OUT")
	awk -v o="$(field "$line" 6)" -v t="$(field "$line" 7)" -v s="$(field "$line" 12)" \
		'BEGIN { d = o - t; if (d < 0) d = -d; exit !(d < 0.01 && s == 0) }'
	ok $? "torus Min Triplex $arb hot spot 1, load 0.5: offered $(field "$line" 6), delivered $(field "$line" 7)"
done
run router --mesh -a min-triplex --arbitration in-fixed --traffic transpose --load 0.4 "${small[@]}"
line=$(sed -n 2p <<<"$OUT")
awk -v o="$(field "$line" 6)" -v t="$(field "$line" 7)" -v s="$(field "$line" 12)" \
	'BEGIN { d = o - t; if (d < 0) d = -d; exit !(d < 0.01 && s == 0) }'
ok $? "mesh Min Triplex in-fixed transpose, load 0.4: offered $(field "$line" 6), delivered $(field "$line" 7)"
for net in torus mesh; do
	run router --"$net" -a chaos --traffic bitrev --load 0.5 "${small[@]}"
	line=$(sed -n 2p <<<"$OUT")
	awk -v o="$(field "$line" 6)" -v t="$(field "$line" 7)" -v s="$(field "$line" 12)" \
		'BEGIN { d = o - t; if (d < 0) d = -d; exit !(d < 0.01 && s == 0) }'
	ok $? "$net Chaos bit reversal, load 0.5: offered $(field "$line" 6), delivered $(field "$line" 7)"
done
for a in "do" "duato"; do
	run router -a "$a" --load 1.0 --warmup 5000 --batches 4 --batch-size 2500 --csv
	line=$(sed -n 2p <<<"$OUT")
	[ "$RC" = 0 ] && awk -v t="$(field "$line" 7)" -v s="$(field "$line" 12)" \
		'BEGIN { exit !(s == 1 && t > 0.5) }'
	ok $? "torus $a, load 1.0: saturated, still delivers $(field "$line" 7)"
done
run router -a duato --arbitration in-fixed --traffic complement --load 1.0 "${small[@]}"
line=$(sed -n 2p <<<"$OUT")
[ "$RC" = 0 ] && awk -v t="$(field "$line" 7)" -v s="$(field "$line" 12)" \
	'BEGIN { exit !(s == 1 && t > 0.2) }'
ok $? "torus Duato in-fixed complement, load 1.0: saturated, delivers $(field "$line" 7)"

# Min Triplex at load 1 on the torus, every pattern: Rule 4t lets a packet
# that needs -x take the restricted y VCs, which only the wrap-free rule
# keeps deadlock-free.  Chaos has no VCs: the packet exchange keeps it
# deadlock-free.  A deadlock stops the run (exit 1) or, if it leaves the
# rest of the network moving, starves its throughput.  (Chaos's floor is
# lower: past saturation it deroutes complement traffic to about 0.2.)
for tr in random bitrev complement shuffle transpose hotspot1 hotspot2; do
	run router -a min-triplex --traffic "$tr" --load 1.0 --warmup 2000 --batches 4 --batch-size 800 --csv
	line=$(sed -n 2p <<<"$OUT")
	[ "$RC" = 0 ] && awk -v t="$(field "$line" 7)" -v s="$(field "$line" 12)" \
		'BEGIN { exit !(t > 0.25) }'
	ok $? "torus Min Triplex $tr, load 1.0: keeps delivering, $(field "$line" 7)"
	run router -a chaos --traffic "$tr" --load 1.0 --warmup 2000 --batches 4 --batch-size 800 --csv
	line=$(sed -n 2p <<<"$OUT")
	[ "$RC" = 0 ] && awk -v t="$(field "$line" 7)" -v s="$(field "$line" 12)" \
		'BEGIN { exit !(t > 0.12) }'
	ok $? "torus Chaos $tr, load 1.0: keeps delivering, $(field "$line" 7)"
done
# Long runs: Min Triplex's throughput 30000 cycles in is what it was at
# 5000 (a partial deadlock would grow and take it down).  Chaos's decays
# as its deroutes pile up (complement: about 0.2, then 0.1 at 74 hops a
# packet), so it must only keep moving and delivering.
# (one arbitration each, to keep the test short: in-fixed for complement,
# output-driven for transpose)
for tr in complement:in-fixed transpose:out; do
	arb=${tr#*:}
	tr=${tr%:*}
	{
		run router -a min-triplex --arbitration "$arb" --traffic "$tr" --load 1.0 --warmup 5000 --batches 4 --batch-size 2500 --csv
		early=$(field "$(sed -n 2p <<<"$OUT")" 7)
		run router -a min-triplex --arbitration "$arb" --traffic "$tr" --load 1.0 --warmup 30000 --batches 4 --batch-size 2500 --csv
		late=$(field "$(sed -n 2p <<<"$OUT")" 7)
		[ "$RC" = 0 ] && awk -v e="$early" -v l="$late" \
			'BEGIN { exit !(e > 0.2 && l > 0.9 * e) }'
		ok $? "torus Min Triplex $arb $tr, load 1.0: delivers $early after 5000 cycles, $late after 30000"
	}
	run router -a chaos --traffic "$tr" --load 1.0 --warmup 30000 --batches 4 --batch-size 2500 --csv
	late=$(field "$(sed -n 2p <<<"$OUT")" 7)
	[ "$RC" = 0 ] && awk -v l="$late" 'BEGIN { exit !(l > 0.05) }'
	ok $? "torus Chaos $tr, load 1.0: delivers $late after 30000 cycles"
done

# The same seed, the same figures; another seed, others.
run router -a duato --loads 0.2:0.6:0.4 --warmup 500 --batches 2 --batch-size 500 --csv
first=$OUT
run router -a duato --loads 0.2:0.6:0.4 --warmup 500 --batches 2 --batch-size 500 --csv
same=$OUT
run router -a duato --loads 0.2:0.6:0.4 --warmup 500 --batches 2 --batch-size 500 --csv --seed 7
[ "$same" = "$first" ] && [ "$OUT" != "$first" ] && [ "$(wc -l <<<"$first")" = 3 ]
ok $? "seed 1 twice: the same output; seed 7: another"

# The experiment, as a smoke run.
run run --quick --dir "$tmp" seed002
rows=$(grep -c "(seed [0-9-]*)$" "$tmp/seed002.txt" 2>/dev/null)
[ "$RC" = 0 ] && [ -s "$tmp/seed002.csv" ] && [ "$rows" = 126 ] &&
	head -n 1 "$tmp/seed002.csv" | grep -q '^topology,algorithm,arbitration,traffic,load,' &&
	grep -q '^\(holds\|DOES NOT HOLD\): ch. 5' "$tmp/seed002.txt" &&
	grep -q '^torus:16x16,min-triplex,out,bitrev,' "$tmp/seed002.csv" &&
	grep -q '^mesh:16x16,chaos,out,bitrev,' "$tmp/seed002.csv" &&
	grep -q '^\(holds\|DOES NOT HOLD\): ch. 5: Min Triplex' "$tmp/seed002.txt" &&
	grep -q '^\(holds\|DOES NOT HOLD\): ch. 6: torus, Chaos' "$tmp/seed002.txt"
ok $? "run --quick seed002: CSV and 126 configurations beside the seed's, Min Triplex's and Chaos's among them"

# Wormhole (ch. 4): 1-word buffers, a word a cycle streams through each
# (a word enters a buffer in the cycle its word leaves), so a worm alone
# keeps the pipeline's h (N + 1) + N + len - 1 cycles: 40 words, DO 3
# cycles a node against 4 for the oblivious Triplex, Duato and Min
# Triplex, one cycle a hop.
whprobe() {	# whprobe WHAT N HOPS ARGS...
	local what=$1 lat=$2 hops=$3 want
	shift 3
	want=$((hops * (lat + 1) + lat + 39))
	run router --flow wormhole --len 40 "$@"
	[ "$RC" = 0 ] && [ "$OUT" = "latency $want hops $hops" ]
	ok $? "wormhole $what: $OUT (want $want over $hops hops)"
}
whprobe "DO torus 0 -> 0x88" 3 16 --probe 0:0x88
whprobe "oblivious Triplex (DO, latency 4) torus 0 -> 0x88" 4 16 --latency 4 --probe 0:0x88
whprobe "Duato torus 0 -> 0x88" 4 16 -a duato --probe 0:0x88
whprobe "Min Triplex torus 0 -> 0xff" 4 2 -a min-triplex --probe 0:0xff
whprobe "Triplex torus 0 -> 0x88" 4 16 -a triplex --probe 0:0x88
whprobe "Triplex torus 0x25 -> 0x13 (-x, wrap-free: Rule 4t)" 4 3 -a triplex --probe 0x25:0x13
whprobe "Triplex mesh corner to corner" 4 30 --mesh -a triplex --probe 0:255
whprobe "DO torus 0 -> 15 (the wrap link)" 3 1 --probe 0:15
whprobe "DO mesh corner to corner" 3 30 --mesh --probe 0:255
whprobe "DO to itself" 3 0 --probe 37:37

# Wormhole below saturation delivers what is offered; at load 1 the
# oblivious router, Duato and Min Triplex (the mix: a blocked 400-word
# worm holds every buffer of its path) saturate and keep delivering.
wh=(--flow wormhole --warmup 1000 --batches 4 --batch-size 1500 --csv)
run router --len 40 --load 0.1 "${wh[@]}"
line=$(sed -n 2p <<<"$OUT")
awk -v o="$(field "$line" 6)" -v t="$(field "$line" 7)" -v s="$(field "$line" 12)" \
	'BEGIN { d = o - t; if (d < 0) d = -d; exit !(d < 0.01 && s == 0) }'
ok $? "wormhole DO 40 words, load 0.1: offered $(field "$line" 6), delivered $(field "$line" 7), not saturated"
run router -a duato --mix 40:400:10 --traffic transpose --load 0.15 "${wh[@]}"
line=$(sed -n 2p <<<"$OUT")
awk -v o="$(field "$line" 6)" -v t="$(field "$line" 7)" -v s="$(field "$line" 12)" \
	'BEGIN { d = o - t; if (d < 0) d = -d; exit !(d < 0.015 && s == 0) }'
ok $? "wormhole Duato mix transpose, load 0.15: offered $(field "$line" 6), delivered $(field "$line" 7)"
for a in "do" "duato" "min-triplex" "triplex"; do
	run router -a "$a" --mix 40:400:10 --load 1.0 --flow wormhole --warmup 2000 --batches 2 --batch-size 1000 --csv
	line=$(sed -n 2p <<<"$OUT")
	[ "$RC" = 0 ] && awk -v t="$(field "$line" 7)" -v s="$(field "$line" 12)" \
		'BEGIN { exit !(s == 1 && t > 0.1) }'
	ok $? "wormhole $a mix, load 1.0: saturated, still delivers $(field "$line" 7)"
done

# The non-minimal Triplex (ch. 4): minimal routes first; a header blocked
# 160 cycles (packets: 400) with none deroutes with probability .1
# (.00001) a routing attempt.  The CSV's last field counts non-minimal
# hops.  Below saturation it delivers what is offered.
run router -a triplex --traffic bitrev --load 0.5 "${small[@]}"
line=$(sed -n 2p <<<"$OUT")
awk -v o="$(field "$line" 6)" -v t="$(field "$line" 7)" -v s="$(field "$line" 12)" \
	'BEGIN { d = o - t; if (d < 0) d = -d; exit !(d < 0.01 && s == 0) }'
ok $? "torus Triplex bit reversal, load 0.5: offered $(field "$line" 6), delivered $(field "$line" 7)"
run router -a triplex --len 40 --traffic transpose --load 0.25 "${wh[@]}"
line=$(sed -n 2p <<<"$OUT")
awk -v o="$(field "$line" 6)" -v t="$(field "$line" 7)" -v s="$(field "$line" 12)" \
	'BEGIN { d = o - t; if (d < 0) d = -d; exit !(d < 0.01 && s == 0) }'
ok $? "wormhole Triplex transpose, load 0.25: offered $(field "$line" 6), delivered $(field "$line" 7)"
# Past saturation worms deroute and their paths lengthen (random: 8 hops
# minimal).  With p = 0 none does, and the wormhole Triplex is Min
# Triplex (Rules 1, 2 and 4t's minimal routes), figure for figure.
tx=(--flow wormhole --len 40 --load 0.5 --warmup 1500 --batches 4 --batch-size 750 --csv)
run router -a triplex "${tx[@]}"
line=$(sed -n 2p <<<"$OUT")
awk -v d="$(field "$line" 14)" -v h="$(field "$line" 11)" 'BEGIN { exit !(d > 100 && h > 8.05) }'
ok $? "wormhole Triplex random, load 0.5: $(field "$line" 14) deroutes, $(field "$line" 11) hops a worm"
run router -a triplex --deroute-p 0 "${tx[@]}"
p0=$(cut -d, -f3- <<<"$OUT")
run router -a min-triplex "${tx[@]}"
[ "$p0" = "$(cut -d, -f3- <<<"$OUT")" ] && [ "$(field "$(sed -n 2p <<<"$OUT")" 14)" = 0 ]
ok $? "wormhole Triplex with --deroute-p 0: Min Triplex's figures, 0 deroutes"
# Deroutes at once with p = .5 at load 1 (packets) and p = .9 (worms,
# through Rule 4t's restricted VCs too): they keep delivering (no
# deadlock; p < 1, no livelock), the worms' throughput after 12000
# cycles what it was after 2000 (a partial deadlock would grow).
run router -a triplex --deroute-wait 0 --deroute-p 0.5 --traffic transpose --load 1.0 --warmup 1000 --batches 2 --batch-size 1500 --csv
line=$(sed -n 2p <<<"$OUT")
[ "$RC" = 0 ] && awk -v t="$(field "$line" 7)" -v d="$(field "$line" 13)" \
	'BEGIN { exit !(t > 0.3 && d > 500) }'
ok $? "torus Triplex p .5 transpose, load 1.0: delivers $(field "$line" 7), $(field "$line" 13) deroutes"
# keeps_delivering NAME MIN_EARLY MIN_DEROUTES ARGS...: a wormhole run at
# load 1 delivers over MIN_EARLY after 2000 cycles, and after 12000 at
# least 0.9 of that, with over MIN_DEROUTES deroutes (no deadlock, no
# livelock).
keeps_delivering() {
	local name=$1 emin=$2 dmin=$3 early line
	shift 3
	run router "$@" --load 1.0 --batches 2 --batch-size 1000 --csv --warmup 2000
	early=$(field "$(sed -n 2p <<<"$OUT")" 7)
	run router "$@" --load 1.0 --batches 2 --batch-size 1000 --csv --warmup 12000
	line=$(sed -n 2p <<<"$OUT")
	[ "$RC" = 0 ] && awk -v e="$early" -v l="$(field "$line" 7)" \
		-v d="$(field "$line" 14)" -v emin="$emin" -v dmin="$dmin" \
		'BEGIN { exit !(e > emin && l > 0.9 * e && d > dmin) }'
	ok $? "$name, load 1.0: delivers $early after 2000 cycles, $(field "$line" 7) after 12000 ($(field "$line" 14) deroutes)"
}
keeps_delivering "wormhole Triplex p .9" 0.15 500 \
	-a triplex --flow wormhole --len 40 --deroute-wait 0 --deroute-p 0.9

# The mix: 40 and 400 words at 10 to 1, mean 800/11 = 72.727 words (T1
# 145.45 cycles on the torus); as injected, within 3 standard errors.
run router --flow wormhole --mix 40:400:10 --load 0.2 --warmup 500 --batches 4 --batch-size 3000 --csv
line=$(sed -n 2p <<<"$OUT")
run router --flow wormhole --mix 40:400:10 --batches 2 --batch-size 10
head -n 1 <<<"$OUT" | grep -q 'wormhole, mean length 72.727 words' &&
	awk -v l="$(field "$line" 13)" 'BEGIN { exit !(l > 68 && l < 77.5) }'
ok $? "mix 40:400:10: mean length 72.727, $(field "$line" 13) as injected"

# The ch. 4 experiment, as a smoke run.
run run --quick --dir "$tmp" seed002-ch4
rows=$(grep -c "(Table 4.4 [0-9.]*)" "$tmp/seed002-ch4.txt" 2>/dev/null)
[ "$RC" = 0 ] && [ -s "$tmp/seed002-ch4.csv" ] && [ "$rows" = 40 ] &&
	head -n 1 "$tmp/seed002-ch4.csv" | grep -q '^router,traffic,length,load,.*,deroutes$' &&
	grep -q '^obliv-triplex,hotspot1,mix,' "$tmp/seed002-ch4.csv" &&
	grep -q '^triplex,random,short,' "$tmp/seed002-ch4.csv" &&
	grep -q '^triplex,shuffle,packet,1.00,' "$tmp/seed002-ch4.csv" &&
	grep -q '^\(holds\|DOES NOT HOLD\): Triplex  *hotspot1  mix ' "$tmp/seed002-ch4.txt" &&
	grep -q '^\(holds\|DOES NOT HOLD\): ch. 4: long messages' "$tmp/seed002-ch4.txt" &&
	grep -q '^\(holds\|DOES NOT HOLD\): ch. 4: but not as well as the Minimal Triplex' "$tmp/seed002-ch4.txt" &&
	grep -q '^\(holds\|DOES NOT HOLD\): ch. 4 packet: the Triplex (Rules 1, 2, 3)' "$tmp/seed002-ch4.txt"
ok $? "run --quick seed002-ch4: CSV and 40 configurations beside Table 4.4 (the Triplex's among them), the packet Triplex's claims"

# Mixed classes (ch. 4.5.3): --mix-class X puts X % of the messages in
# the Triplex's oblivious class (Rule 1 alone), the rest in the router's
# own.  The class comes from a stream of its own, so the arrivals,
# destinations and lengths are those of the single-class run: 100 % on
# either wormhole Triplex router is the oblivious Triplex (DO with node
# latency 4: the same restricted VCs, the unrestricted one idle), 0 % is
# the router alone (deroutes and all), figure for figure.
mc=(--flow wormhole --mix 40:400:10 --loads 0.15:0.35:0.2 --warmup 500 --batches 2 --batch-size 1000 --csv)
for tr in random transpose; do
	run router -a do --latency 4 --traffic "$tr" "${mc[@]}"
	want=$(cut -d, -f5-14 <<<"$OUT")
	for a in min-triplex triplex; do
		run router -a "$a" --mix-class 100 --traffic "$tr" "${mc[@]}"
		[ "$RC" = 0 ] && [ "$want" = "$(cut -d, -f5-14 <<<"$OUT")" ] &&
			[ "$(wc -l <<<"$OUT")" = 3 ] &&
			grep -q ',1.0000,[0-9.]*,0.00,0,0$' <<<"$(sed -n 2p <<<"$OUT")"
		ok $? "wormhole $a $tr, 100 % oblivious class: the oblivious Triplex's figures"
	done
done
tx0=(--flow wormhole --len 40 --load 0.5 --warmup 1000 --batches 2 --batch-size 1000 --csv)
for a in min-triplex triplex; do
	run router -a "$a" "${tx0[@]}"
	want=$(cut -d, -f1-14 <<<"$OUT")
	run router -a "$a" --mix-class 0 "${tx0[@]}"
	[ "$RC" = 0 ] && [ "$want" = "$(cut -d, -f1-14 <<<"$OUT")" ] &&
		grep -q ',0.0000,0.00,[0-9.]*,0,[0-9]*$' <<<"$(sed -n 2p <<<"$OUT")"
	ok $? "wormhole $a, 0 % oblivious class: $a's figures ($(field "$(sed -n 2p <<<"$OUT")" 14) deroutes)"
done
run router -a min-triplex --mix-class 0 --traffic bitrev --load 0.5 "${small[@]}"
got=$(cut -d, -f1-13 <<<"$OUT")
run router -a min-triplex --traffic bitrev --load 0.5 "${small[@]}"
[ "$got" = "$OUT" ]
ok $? "packets, Min Triplex with 0 % oblivious class: its figures"
# A share of 30 %: about that many deliveries are oblivious, all in
# order, slower than the minimal class's; the minimal class (packets,
# bit reversal: every message of a source to one destination) overtakes.
run router -a min-triplex --mix-class 30 --traffic bitrev --load 0.5 "${small[@]}"
line=$(sed -n 2p <<<"$OUT")
[ "$RC" = 0 ] && head -n 1 <<<"$OUT" | grep -q ',obliv_share,obliv_latency,adaptive_latency,obliv_out_of_order,adaptive_out_of_order$' &&
	awk -v s="$(field "$line" 14)" -v o="$(field "$line" 15)" -v a="$(field "$line" 16)" 		-v lo="$(field "$line" 17)" -v la="$(field "$line" 18)" 		'BEGIN { exit !(s > 0.27 && s < 0.33 && o > a && lo == 0 && la > 0) }'
ok $? "packets, 30 % oblivious class: $(field "$line" 14) of the deliveries, latency $(field "$line" 15) against $(field "$line" 16), out of order $(field "$line" 17) against $(field "$line" 18)"
run router -a triplex --mix-class 25 --flow wormhole --len 40 --load 0.1 --warmup 500 --batches 2 --batch-size 500
grep -q '25 % oblivious class' <<<"$OUT" && grep -q 'obliv [0-9.]*% [0-9.]* (0 late) adaptive' <<<"$OUT"
ok $? "mixed classes, text: the share in the header, each class's latency a line"
# Every message waits on its DO buffer whatever its class (App. A), so
# mixing keeps the Triplex routers deadlock-free: at load 1 with half the
# messages oblivious, worms (the mix, the Triplex deroutes at once with p
# .9 through Rule 4t's restricted VCs) and packets (transpose, Rule 4t)
# keep delivering, the worms as much after 12000 cycles as after 2000.
keeps_delivering "wormhole Triplex mix, 50 % oblivious, p .9" 0.1 10 \
	-a triplex --mix-class 50 --flow wormhole --mix 40:400:10 \
	--deroute-wait 0 --deroute-p 0.9
run router -a min-triplex --mix-class 50 --flow wormhole --mix 40:400:10 --traffic bitrev --load 1.0 --warmup 2000 --batches 2 --batch-size 1000 --csv
line=$(sed -n 2p <<<"$OUT")
[ "$RC" = 0 ] && awk -v t="$(field "$line" 7)" -v s="$(field "$line" 12)" 'BEGIN { exit !(s == 1 && t > 0.1) }'
ok $? "wormhole Min Triplex mix bit reversal, 50 % oblivious, load 1.0: saturated, delivers $(field "$line" 7)"
run router -a min-triplex --mix-class 50 --traffic transpose --load 1.0 --warmup 2000 --batches 4 --batch-size 800 --csv
line=$(sed -n 2p <<<"$OUT")
[ "$RC" = 0 ] && awk -v t="$(field "$line" 7)" 'BEGIN { exit !(t > 0.25) }'
ok $? "packets, Min Triplex transpose, 50 % oblivious, load 1.0: keeps delivering, $(field "$line" 7)"

# The mixed-class experiment, as a smoke run.
run run --quick --dir "$tmp" seed002-mixed
[ "$RC" = 0 ] && [ -s "$tmp/seed002-mixed.csv" ] &&
	head -n 1 "$tmp/seed002-mixed.csv" | grep -q '^router,traffic,load,obliv_pct,.*,est_throughput,est_latency,thr_gain,lat_gain$' &&
	grep -q '^oblivious,hotspot1,0.40,100,' "$tmp/seed002-mixed.csv" &&
	grep -q '^min,bitrev,0.20,50,' "$tmp/seed002-mixed.csv" &&
	grep -q '^nonmin,transpose,0.30,0,' "$tmp/seed002-mixed.csv" &&
	grep -q '^\(holds\|DOES NOT HOLD\): Fig. 4.13, minimal class: the mixed-class Triplex performs close' "$tmp/seed002-mixed.txt" &&
	grep -q '^\(holds\|DOES NOT HOLD\): Fig. 4.14, non-minimal class: the advantage grows' "$tmp/seed002-mixed.txt" &&
	grep -q '^\(holds\|DOES NOT HOLD\): Fig. 4.14: the largest throughput improvement' "$tmp/seed002-mixed.txt" &&
	grep -q '^holds: Cor. 6: the oblivious class is delivered in order: 0 of' "$tmp/seed002-mixed.txt"
ok $? "run --quick seed002-mixed: CSV (the oblivious router, both classes, the estimate) and the findings, the oblivious class in order"

# The error contract: exit 2 and a message that names the problem.
bad "an unknown algorithm" "--algorithm" router -a max-triplex
bad "an unknown algorithm, the known listed" "do, duato, min-triplex, triplex or chaos" router -a planar
bad "Chaos input-driven" "output-driven only" router -a chaos --arbitration in-random
bad "an unknown arbitration" "--arbitration" router --arbitration rr
bad "an unknown pattern" "--traffic" router --traffic tornado
bad "a load not a number" "--load" router --load x
bad "a load past 10" "--load" router --load 11
bad "a negative load" "--load" router --load -0.1
bad "a sweep backwards" "--loads" router --loads 1:0.5:0.1
bad "a sweep with no step" "--loads" router --loads 0.1:0.5
bad "an unknown topology" "--topology" router -t ring:16x16
bad "a rectangle" "square" router -t torus:16x8
bad "a tiny network" "k: 4 to 64" router --k 2
bad "a bit permutation on 6x6" "power of 2" router --k 6 --traffic bitrev
bad "hot spots on 8x8" "16x16" router --k 8 --traffic hotspot1
bad "a buffer shorter than a packet" "buffer depth" router --depth 10
bad "one batch" "batches" router --batches 1
bad "seed 0" "seed" router --seed 0
bad "a probe off the network" "--probe" router --probe 0:256
bad "a stray argument" "usage" router extra
bad "an unknown flow control" "--flow: 'store' is not vct or wormhole" router --flow store
bad "a mix not S:L:R" "--mix: '40:400' is not SHORT:LONG:RATIO" router --flow wormhole --mix 40:400
bad "a mix with ratio 0" "ratio at least 1" router --flow wormhole --mix 40:400:0
bad "a negative mix" "--mix" router --flow wormhole --mix 40:-400:10
bad "a mix of packets" "message mix: wormhole only" router --mix 40:400:10
bad "a deep wormhole buffer" "wormhole buffers hold 1 word" router --flow wormhole --depth 20
bad "wormhole Chaos" "packet-only" router --flow wormhole -a chaos
bad "deroute probability 1 (livelock)" "deroute probability: 0 to below 1" router -a triplex --deroute-p 1
bad "a negative deroute probability" "--deroute-p" router -a triplex --deroute-p -0.1
bad "a deroute probability not a number" "--deroute-p" router -a triplex --deroute-p often
bad "a deroute wait not a number" "--deroute-wait" router -a triplex --deroute-wait soon
bad "a deroute wait too long" "--deroute-wait: 0 to 1000000" router -a triplex --deroute-wait 2000000
bad "deroutes for a minimal router" "non-minimal Triplex's" router -a min-triplex --deroute-p 0.1
bad "a deroute wait for Chaos" "non-minimal Triplex's" router -a chaos --deroute-wait 10
bad "mixed classes on the oblivious router" "mixed classes: the Triplex routers'" router --mix-class 50
bad "mixed classes on Duato's" "mixed classes: the Triplex routers'" router -a duato --flow wormhole --mix-class 50
bad "mixed classes on Chaos" "mixed classes: the Triplex routers'" router -a chaos --mix-class 0
bad "an oblivious share over 100" "--mix-class: not a number in range" router -a min-triplex --mix-class 101
bad "a negative oblivious share" "--mix-class" router -a triplex --mix-class -5
bad "an oblivious share not a number" "--mix-class" router -a triplex --mix-class half

done_testing
tap_exit
