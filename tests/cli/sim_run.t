#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# mcastsim visits (link visits against their closed forms), mcastsim trace
# (one multicast's arrivals: closed forms, both levels alike) and mcastsim
# run (the seeds' experiments: files, the conclusions checked, the closed
# form matched exactly), quick runs only.  TAP output.
#
# MCASTSIM names the binary (default: build/mcastsim in the repository).

# shellcheck source=tests/cli/simlib.sh
. "$(dirname "$0")/simlib.sh"

# A broadcast on 4x4: S-torus is one worm along the Hamiltonian circuit,
# 15 links; separate addressing sends 15 unicasts whose distances on a
# unidirectional 4x4 sum to 2 * 4 * (0+1+2+3) = 48, from any source.
run visits -t torus:4x4 -a s-torus,separate -m 15 -n 4 --csv
[ "$RC" = 0 ] && [ "$(sed -n 2p <<<"$OUT")" = "16,2,15,s-torus,4,15.00" ] &&
	[ "$(sed -n 3p <<<"$OUT")" = "16,2,15,separate,4,48.00" ]
ok $? "visits: a 4x4 broadcast is 15 links by S-torus, 48 by separate addressing (got: $(tr '\n' ' ' <<<"$OUT"))"

# Fewer destinations never need more links than a worm through them all
# plus the way back: an S-torus worm to m of 4096 stays under 4096 links.
run visits -t torus:64x64 -a s-torus -m 64,512 -n 20 --csv
bad=$(awk -F, 'NR > 1 && ($6 <= $3 || $6 >= 4096)' <<<"$OUT")
[ "$RC" = 0 ] && [ -z "$bad" ]
ok $? "visits: an S-torus worm to m destinations crosses between m and 4096 links"

run visits -m 4096
[ "$RC" = 2 ] && grep -q "4096 destinations need more than 4096 nodes" <<<"$ERR"
ok $? "visits: more destinations than nodes: exit 2 (got $RC: $ERR)"
run visits -n 0
[ "$RC" = 2 ] && grep -q -- "--trials" <<<"$ERR"
ok $? "visits: --trials 0: exit 2, names --trials"
run visits -a bogus
[ "$RC" = 2 ] && grep -q -- "--algorithms" <<<"$ERR"
ok $? "visits: an unknown algorithm: exit 2, names --algorithms"

# trace: one unicast worm 1 hop long, L = 2: tau_s + (1 + 2) tau_n + tau_r
run trace -t torus:4x4 -s 0 -d 1 -L 2
[ "$RC" = 0 ] && [ "$OUT" = "$(printf '1 171500\nlast 171500')" ]
ok $? "trace: node 0 -> 1 on 4x4, 2 flits: 171500 ns (got: $(tr '\n' ' ' <<<"$OUT"))"
# an S-torus worm: the i-th destination on the H-cycle i hops on
run trace -t torus:4x4 -s 0 -d 1,2,3 -L 8
[ "$RC" = 0 ] && [ "$OUT" = "$(printf '1 174500\n2 175000\n3 175500\nlast 175500')" ]
ok $? "trace: S-torus 0 -> 1,2,3: 174500, 175000, 175500 ns (got: $(tr '\n' ' ' <<<"$OUT"))"
# U-torus on the fabric, worms waiting: the two levels agree
run trace -t torus:6x6 -a u-torus -s 7 -d 0,1,2,3,5,8,13,21,34,35,20,30 -L 40 --model flit
flit=$OUT
run trace -t torus:6x6 -a u-torus -s 7 -d 0,1,2,3,5,8,13,21,34,35,20,30 -L 40 --model worm
[ "$RC" = 0 ] && [ -n "$flit" ] && [ "$OUT" = "$flit" ]
ok $? "trace: U-torus to 12 nodes of 6x6, the flit and the worm level give the same times"
run trace -t torus:4x4 -s 0 -d 16
[ "$RC" = 2 ] && grep -q "'16' is not a node id of the torus" <<<"$ERR"
ok $? "trace: a destination outside the torus: exit 2 (got $RC: $ERR)"
run trace -t torus:4x4 -s 0 -d 1,1
[ "$RC" = 2 ] && grep -q "destination repeated" <<<"$ERR"
ok $? "trace: a repeated destination: exit 2 (got $RC: $ERR)"
run trace -t torus:4x4 -d 1
[ "$RC" = 2 ]
ok $? "trace without a source: exit 2"

run run --list
[ "$RC" = 0 ] && grep -q "fig4.12-13" <<<"$OUT" && grep -q "fig6.8" <<<"$OUT" &&
	grep -q "closed-form" <<<"$OUT"
ok $? "run --list names the experiments"
run run --dir "$tmp" nope
[ "$RC" = 2 ] && grep -q "no experiment named 'nope'" <<<"$ERR"
ok $? "run: an unknown experiment: exit 2 (got $RC: $ERR)"
run run --dir "$tmp/missing" fig6.8
[ "$RC" != 0 ] && grep -q "$tmp/missing/fig6.8.csv" <<<"$ERR"
ok $? "run: a directory that does not exist: fails, names the file"
run run
[ "$RC" = 2 ]
ok $? "run with no experiment: exit 2"
run run --model bogus closed-form
[ "$RC" = 2 ] && grep -q -- "--model: 'bogus' is not flit or worm" <<<"$ERR"
ok $? "run --model bogus: exit 2, says so"

# The closed form: an S-torus broadcast on 4096 nodes, every parameter
# set and length, 2D and 3D, matched to the nanosecond.
run run --dir "$tmp" --quick closed-form
[ "$RC" = 0 ] && [ "$(grep -c '^holds: ' "$tmp/closed-form.txt")" = 12 ] &&
	! grep -q "DOES NOT HOLD" "$tmp/closed-form.txt"
ok $? "run closed-form: 12 configurations, each the closed form exactly"
grep -q "^holds: torus:64x64/95000 L=16384: mean 9386.000 (closed form 9386.000), last 10409.500" \
	"$tmp/closed-form.txt"
ok $? "closed-form: 64x64, high start-up, 16384 flits: mean 9386 us, last 10409.5 us"
# the fabric's flit level gives the same figures as the worm level
mkdir "$tmp/flit"
run run --dir "$tmp/flit" --quick --model flit closed-form
[ "$RC" = 0 ] && cmp -s "$tmp/closed-form.csv" "$tmp/flit/closed-form.csv"
ok $? "closed-form at the flit level: the same CSV as at the worm level"

# Libeskind-Hadas et al. (1998): one multicast on random lattice switch
# graphs: optimal steps, contention-free schedules, and the paper's statements
run run --dir "$tmp" seed001
[ "$RC" = 0 ] && [ "$(grep -c '^holds: ' "$tmp/seed001.txt")" = 5 ] &&
	! grep -q "DOES NOT HOLD" "$tmp/seed001.txt"
ok $? "run seed001: ceil(log2(d+1)) steps, depth-contention-free, near the bound, 2 % at 95 %"
awk -F, 'NR > 1 && ($5 < $7 || $4 != int(log($2 + 1) / log(2) + 0.9999999)) { bad = 1 } END { exit bad }' \
	"$tmp/seed001.csv"
ok $? "seed001.csv: no latency below ceil(log2(d+1)) t_startup, every step count the bound"

# The multiple multicasts of Libeskind-Hadas et al. (1998) (--quick, a few
# seconds): the wormhole model alone gives seed001's closed form to the ns,
# and the claim is checked either way
run run --dir "$tmp" --quick seed001-multi
[ "$RC" = 0 ] && [ "$(grep -cE '^(holds|DOES NOT HOLD): ' "$tmp/seed001-multi.txt")" = 5 ] &&
	[ "$(grep -c 'approximately linearly with average arrival rate' "$tmp/seed001-multi.txt")" = 2 ]
ok $? "run seed001-multi: the zero-load check, and per graph the rise and the linear fit"
grep -q "^holds: alone in the network the wormhole model gives seed001's closed form to the ns: 500 random single multicasts (d = 1 to N - 1) on each graph, 0 differ, 0 headers waited$" \
	"$tmp/seed001-multi.txt"
ok $? "seed001-multi: 1000 single multicasts, each the closed form exactly, no header waited"
# contention only delays: every rate above the multicast alone; only a
# graph's last rate may be saturated
awk -F, 'NR > 1 && ($6 <= $8 || (prev == $1 && sat)) { bad = 1 } NR > 1 { prev = $1; sat = $11 } END { exit bad }' \
	"$tmp/seed001-multi.csv"
ok $? "seed001-multi.csv: latency above the no-contention latency, the sweep stops at saturation"

# Zhuang and Liberatore: RB's plan against the paper's baselines, the notes'
# golden tables (every conclusion holds, RB's 2D alpha and beta from its plan)
run run --dir "$tmp" seed003
[ "$RC" = 0 ] && [ "$(grep -c '^holds: ' "$tmp/seed003.txt")" = 5 ] &&
	! grep -q "DOES NOT HOLD" "$tmp/seed003.txt"
ok $? "run seed003: RB's alpha and beta (2D, 3D), the best algorithm by L (2D, 3D) and the sample latencies are the notes'"
grep -q "^  2D: best on \[565, 16001): RB$" "$tmp/seed003.txt"
ok $? "seed003: RB is the best 2D algorithm from L = 565 to 16000"

# The experiments write their CSV, checks, gnuplot script and plots.
run run --dir "$tmp" --quick fig6.8 fig4.16 fig4.17
[ "$RC" = 0 ]
ok $? "run fig6.8 fig4.16 fig4.17 --quick: exit 0 ($ERR)"
for f in fig6.8 fig4.16 fig4.17; do
	[ -s "$tmp/$f.csv" ] && [ -s "$tmp/$f.gp" ] &&
		grep -qE "^(holds|DOES NOT HOLD): " "$tmp/$f.txt"
	ok $? "$f: CSV, gnuplot script and checked conclusions"
	if command -v gnuplot > /dev/null; then
		[ -s "$tmp/$f.png" ] && grep -q "<svg" "$tmp/$f.svg"
		ok $? "$f: PNG and SVG drawn"
	fi
done
# fig6.8 checks path-based < unicast-based in both 2D and 3D
[ "$(grep -c 'fewer links than the unicast-based' "$tmp/fig6.8.txt")" = 2 ]
ok $? "fig6.8: the link-visit conclusion is checked for 2D and 3D"
# the same experiment twice gives the same figures (fixed seeds)
cp "$tmp/fig4.17.csv" "$tmp/first.csv"
run run --dir "$tmp" --quick fig4.17
cmp -s "$tmp/fig4.17.csv" "$tmp/first.csv"
ok $? "run fig4.17 twice: the same CSV"

# the man page renders without groff warnings and names every study
if command -v groff > /dev/null; then
	warn=$(groff -man -ww -z -t utils/mcastsim/mcastsim.1 2>&1)
	txt=$(groff -man -Tascii -P-bcou utils/mcastsim/mcastsim.1 2>/dev/null)
	miss=''
	for s in latency trace load router steps cube visits run; do
		grep -qE "^       $s( |\$)" <<<"$txt" || miss="$miss $s"
	done
	[ -z "$warn" ] && [ -z "$miss" ]
	ok $? "mcastsim.1 renders without warnings and names every study (warnings: $warn; missing:$miss)"
fi

done_testing
tap_exit
