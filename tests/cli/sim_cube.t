#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# mcastsim cube (U-cube, Maxport, Combine and W-sort steps on n-cubes,
# Robinson (1994), Sec. 3.5) and mcastsim run fig3.10-11: the step counts the
# theory fixes, the seed's conclusions, the notes' table, the error
# paths.  TAP output.
#
# MCASTSIM names the binary (default: build/mcastsim in the repository).

# shellcheck source=tests/cli/simlib.sh
. "$(dirname "$0")/simlib.sh"

# CSV: 1 n, 2 algorithm, 3 port, 4 dests, 5 trials, 6 max_steps,
# 7 max_ci, 8 avg_steps, 9 avg_ci, 10 worst_max, 11 hops

# A broadcast is the same for all four: n steps, each unicast one hop
# (2^n - 1 hops), the average the same, no spread over the trials.
run cube -t cube:4 -d 15 -n 5 --csv
want=$(printf '4,%s,all,15,5,4.0000,0.0000,AVG,0.0000,4,15.00\n' u-cube maxport combine w-sort)
avg=$(awk -F, 'NR == 2 { print $8 }' <<<"$OUT")
[ "$RC" = 0 ] && [ "$(sed 1d <<<"$OUT")" = "${want//AVG/$avg}" ]
ok $? "cube:4 broadcast: 4 steps and 15 hops for every algorithm, the same average $avg"

# One destination: one send, step 1.
run cube -t cube:8 -d 1 -n 20 --csv
[ "$RC" = 0 ] && [ -z "$(awk -F, 'NR > 1 && ($6 != 1 || $8 != 1 || $10 != 1)' <<<"$OUT")" ]
ok $? "one destination: step 1 for every algorithm"

# U-cube's maximum is ceil(log2(d+1)) in every trial, all-port and one-port
for port in all one; do
	run cube -t cube:8 -d 1,2,3,7,8,100,200,254 -a u-cube --port "$port" -n 30 --csv
	bad=$(awk -F, 'NR > 1 { w = int(log($4 + 1) / log(2) + 0.9999999);
		if ($6 != w || $10 != w) print $4 }' <<<"$OUT")
	[ "$RC" = 0 ] && [ -z "$bad" ]
	ok $? "U-cube $port-port: the maximum is ceil(log2(d+1)) in every trial (off at: $bad)"
done

# One-port never takes fewer steps than all-port (the same sets).
run cube -t cube:7 -d 10,40,100 -n 30 --csv
all=$OUT
run cube -t cube:7 -d 10,40,100 -n 30 --port one --csv
bad=$(paste -d, <(sed 1d <<<"$all") <(sed 1d <<<"$OUT") |
	awk -F, '$17 < $6 || $19 < $8')
[ "$RC" = 0 ] && [ -z "$bad" ]
ok $? "one-port: never fewer steps than all-port on the same sets"

# W-sort beats Maxport and Combine well inside the 10-cube
run cube -t cube:10 -d 256 -n 50 --csv
w=$(awk -F, '$2 == "w-sort" { print $6 }' <<<"$OUT")
m=$(awk -F, '$2 == "maxport" { print $6 }' <<<"$OUT")
awk -v w="$w" -v m="$m" 'BEGIN { exit !(w + 1 < m) }'
ok $? "10-cube, d = 256: W-sort's maximum ($w) is more than a step under Maxport's ($m)"

# fixed seeds: the same figures twice, others with another seed
run cube -t cube:6 -d 8 -n 20 --csv
first=$OUT
run cube -t cube:6 -d 8 -n 20 --csv
[ "$OUT" = "$first" ]
ok $? "the same seed: the same figures"
run cube -t cube:6 -d 8 -n 20 --seed 2 --csv
[ "$OUT" != "$first" ]
ok $? "another seed: other sets"

# the readable table names the cube and the algorithm
run cube -t cube:5 -d 3 -n 4 -a w-sort
[ "$RC" = 0 ] && grep -q "^ 5-cube w-sort   d=3 " <<<"$OUT"
ok $? "the table: one line per algorithm and d ($OUT)"

# error paths: exit 2 and a message naming the option
run cube -t torus:4x4
[ "$RC" = 2 ] && grep -q -- "--topology: 'torus:4x4' is not cube:N" <<<"$ERR"
ok $? "a torus: exit 2, says cube:N is wanted (got $RC: $ERR)"
run cube -t cube:17
[ "$RC" = 2 ] && grep -q "N is 1 to 16" <<<"$ERR"
ok $? "cube:17: exit 2 (got $RC: $ERR)"
run cube -t cube:6 -d 64
[ "$RC" = 2 ] && grep -q -- "--dests" <<<"$ERR"
ok $? "more destinations than the other nodes: exit 2, names --dests (got $RC: $ERR)"
run cube -a u-cube,bogus
[ "$RC" = 2 ] && grep -q -- "--algorithms: 'bogus' is not" <<<"$ERR"
ok $? "an unknown algorithm: exit 2, names it (got $RC: $ERR)"
run cube --port two
[ "$RC" = 2 ] && grep -q -- "--port: 'two'" <<<"$ERR"
ok $? "a bad port model: exit 2 (got $RC: $ERR)"
run cube -n 0
[ "$RC" = 2 ] && grep -q -- "--trials" <<<"$ERR"
ok $? "--trials 0: exit 2, names --trials"

# the experiment: every conclusion checked, the notes' table within 5 %
run run --dir "$tmp" fig3.10-11
[ "$RC" = 0 ] && [ "$(grep -cE '^(holds|DOES NOT HOLD): ' "$tmp/fig3.10-11.txt")" = 6 ]
ok $? "run fig3.10-11: six conclusions checked"
for c in "ceil(log2(d+1)) in every trial" "reduce the steps" "converge at the broadcast" \
	"worse for a large multicast than for the broadcast" "80 of 80 figures within 5 %"; do
	grep -q "^holds: .*$c" "$tmp/fig3.10-11.txt"
	ok $? "fig3.10-11 holds: ... $c"
done
[ "$(wc -l < "$tmp/fig3.10-11.csv")" = 85 ]
ok $? "fig3.10-11.csv: 4 algorithms x 21 points and a header"

done_testing
tap_exit
