#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# Tests of `mcastctl plan --topology cube:N` (Robinson (1994), chapter 3:
# U-cube, Maxport, Combine and W-sort on an all-port n-cube over E-cube
# routing): the 4-cube running example of Figs 3.1/3.2/3.9 as golden
# text, every algorithm's steps on it, on Fig 3.4's source 0100 and on
# Fig 3.6 (JSON), one-port, random sets, and the error contract.  TAP
# output.
#
# MCASTCTL names the binary (default: build/mcastctl in the repository).
# Needs bash and jq.

# $ inside jq programs is meant literally.
# shellcheck disable=SC2016


# shellcheck source=tests/cli/planlib.sh
. "$(dirname "$0")/planlib.sh"

C4=(plan -t cube:4 -s 0000 -d 0001,0011,0101,0111,1011,1100,1110,1111)
C34=(plan -t cube:4 -s 0100 -d 0001,0011,0101,0111,1000,1010,1011,1111)
C36=(plan -t cube:4 -s 0000 -d 1001 -d 1010 -d 1011)

# ---- the running example (Figs 3.1, 3.2, 3.9) -------------------------

want=$(cat <<'GOLD'
topology     cube:4, 16 nodes, E-cube routing (highest dimension first), all-port
algorithm    w-sort
source       0000
m            9 (source and 8 destinations)
order        weighted cube-ordered chain: 0000 0001 0011 0101 0111 1110 1111 1100 1011
steps        2 (lower bound 2; u-cube one-port 4)
verified     cover, steps, arcs, contention

step 1: 0000 -> 1110  covers 1110 1111 1100 1011  [channel 3, 3 hops]
        0000 -3-> 1000 -2-> 1100 -1-> 1110
step 1: 0000 -> 0101  covers 0101 0111  [channel 2, 2 hops]
        0000 -2-> 0100 -0-> 0101
step 1: 0000 -> 0011  [channel 1, 2 hops]
        0000 -1-> 0010 -0-> 0011
step 1: 0000 -> 0001  [channel 0, 1 hop]
        0000 -0-> 0001
step 2: 1110 -> 1011  [channel 2, 2 hops]
        1110 -2-> 1010 -0-> 1011
step 2: 1110 -> 1100  [channel 1, 1 hop]
        1110 -1-> 1100
step 2: 1110 -> 1111  [channel 0, 1 hop]
        1110 -0-> 1111
step 2: 0101 -> 0111  [channel 1, 1 hop]
        0101 -1-> 0111

tree:
0000
  1 -> 1110
    2 -> 1011
    2 -> 1100
    2 -> 1111
  1 -> 0101
    2 -> 0111
  1 -> 0011
  1 -> 0001

total        8 sends, 13 hops
receive      average step 1.50, last 2
GOLD
)
succeeds "Fig 3.9(c): w-sort plans" "${C4[@]}" -a w-sort --tree --hops
same "Fig 3.2(e)/3.9(c): w-sort in 2 steps, R_1110 = {1110, 1011, 1100, 1111} (text, --tree, --hops)" "$want" "$OUT"

want=$(cat <<'GOLD'
order        source-relative dimension order: 0000 0001 0011 0101 0111 1011 1100 1110 1111
steps        4 (lower bound 2; u-cube one-port 4)
verified     cover, steps, arcs, contention

step 1: 0000 -> 0111  covers 0111 1011 1100 1110 1111  [channel 2, 3 hops]
step 1: 0000 -> 0011  covers 0011 0101  [channel 1, 2 hops]
step 1: 0000 -> 0001  [channel 0, 1 hop]
step 2: 0111 -> 1100  covers 1100 1110 1111  [channel 3, 3 hops]
step 2: 0011 -> 0101  [channel 2, 2 hops]
step 3: 0111 -> 1011  [channel 3, 2 hops]
step 3: 1100 -> 1110  covers 1110 1111  [channel 1, 1 hop]
step 4: 1110 -> 1111  [channel 0, 1 hop]
GOLD
)
succeeds "Fig 3.9(a): u-cube plans" "${C4[@]}" -a u-cube
same "Fig 3.2(d)/3.9(a): u-cube all-port in 4 steps, 1011 in step 3 (0111's channel 3 is busy)" "$want" "$(sed -n '5,16p' <<<"$OUT")"

# steps of every algorithm, both port models (notes 5: hc.tree)
for spec in "w-sort all 2" "u-cube all 4" "maxport all 4" "combine all 3" \
	    "w-sort one 4" "u-cube one 4" "maxport one 4" "combine one 4"; do
	read -r a port st <<<"$spec"
	run "${C4[@]}" -a "$a" --port "$port" --json
	jq_is "Fig 3.1: $a $port-port takes $st steps, verified" "\"$st true\"" '"\(.steps) \(.verified)"'
done
run "${C4[@]}" -a maxport --json
jq_is "Fig 3.9(b): maxport's source sends on channels 3, 2, 1, 0 in step 1" '[3,2,1,0]' '[.sends[] | select(.from == "0000") | .channel]'
jq_is "Fig 3.9(b): maxport's sends in step 1 and what they cover" \
	'[["1011",["1011","1100","1110","1111"]],["0101",["0101","0111"]],["0011",["0011"]],["0001",["0001"]]]' \
	'[.sends[] | select(.step == 1) | [.to, .covers]]'
run "${C4[@]}" -a combine --json
jq_is "combine: 1011 sends to 1110 in step 2, then 1100 in step 3 (channel 2 twice)" \
	'[["1110",2,0,2],["1100",3,1,2]]' '[.sends[] | select(.from == "1011") | [.to, .step, .issue, .channel]]'
run "${C4[@]}" -a w-sort --json
jq_is "JSON: the order, m, the bounds" \
	'{"o":["0000","0001","0011","0101","0111","1110","1111","1100","1011"],"m":9,"lb":2,"u":4,"k":"cube","n":4}' \
	'{o: .order, m, lb: .lower_bound, u: .ucube_steps, k: .topology.kind, n: .topology.n}'
jq_is "JSON: 0000 -> 1110's arcs as (node, dimension)" \
	'[["0000",3],["1000",2],["1100",1]]' '[.sends[] | select(.to == "1110") | .arcs[] | [.node, .dim]]'
jq_is "JSON: every checker passes, 13 hops" '"pass pass pass pass 13"' '"\(.checks.cover) \(.checks.steps) \(.checks.arcs) \(.checks.contention) \(.stats.hops)"'

# ---- Fig 3.4 (source 0100) and Fig 3.6 ---------------------------------

run "${C34[@]}" -a u-cube --json
jq_is "Fig 3.4: the chain from 0100" '["0100","0101","0111","0001","0011","1111","1000","1010","1011"]' '.order'
for spec in "w-sort 2" "u-cube 4" "maxport 4" "combine 3"; do
	read -r a st <<<"$spec"
	run "${C34[@]}" -a "$a" --json
	jq_is "Fig 3.4: $a all-port takes $st steps" "$st" '.steps'
done
run "${C34[@]}" -a w-sort --json
jq_is "Fig 3.4: w-sort's step 1" '[["1010",["1010","1011","1000","1111"]],["0001",["0001","0011"]],["0111",["0111"]],["0101",["0101"]]]' \
	'[.sends[] | select(.step == 1) | [.to, .covers]]'
for spec in "maxport 3" "u-cube 2" "combine 2" "w-sort 2"; do
	read -r a st <<<"$spec"
	run "${C36[@]}" -a "$a" --json
	jq_is "Fig 3.6: $a takes $st steps" "$st" '.steps'
done

# ---- random sets, larger cubes -----------------------------------------

for a in u-cube maxport combine w-sort; do
	run plan -t cube:10 -a "$a" -s 1010101010 --random 300 --seed 7 --json
	jq_is "cube:10, 300 random destinations, $a: verified, 300 sends" '"true 300"' '"\(.verified) \(.stats.sends)"'
done
run plan -t cube:6 -a w-sort -s 000000 --random 63 --json
jq_is "cube:6 broadcast: 6 steps" '6' '.steps'
printf '# the three nearest\n0001\n0010, 0100\n\n' >"$tmp/dests"
succeeds "--dests-file" plan -t cube:4 -a maxport -s 0000 -f "$tmp/dests"
same "--dests-file: one step for three channels" "steps        1 (lower bound 1; u-cube one-port 2)" "$(grep '^steps' <<<"$OUT")"

# ---- errors --------------------------------------------------------------

B=(plan -t cube:4 -a w-sort -s 0000)
fails "cube:0" 1 'topology "cube:0": cube:N takes a dimension N of 1..20' plan -t cube:0 -a u-cube -s 0 -d 1
fails "cube:21" 1 'topology "cube:21": cube:N takes a dimension N of 1..20' plan -t cube:21 -a u-cube -s 0 -d 1
fails "cube:x" 1 'topology "cube:x": cube:N takes a dimension N of 1..20' plan -t cube:x -a u-cube -s 0 -d 1
fails "unknown algorithm" 1 'unknown algorithm "u-torus" (a cube takes u-cube, maxport, combine, w-sort or ring)' "${B[@]/w-sort/u-torus}" -d 0001
fails "a cube algorithm on a torus" 2 '--algorithm w-sort needs a cube topology (--topology cube:N)' plan -t torus:4x4 -a w-sort -s 0,0 -d 1,1
fails "missing --algorithm" 2 'missing --algorithm (u-cube, maxport, combine, w-sort or ring)' plan -t cube:4 -s 0000 -d 0001
fails "unknown port model" 1 'unknown port model "two" (all or one)' "${B[@]}" -d 0001 --port two
fails "source too short" 1 '--source: "000" is not a node of cube:4 (4 binary digits, highest bit first)' plan -t cube:4 -a w-sort -s 000 -d 0001
fails "source not binary" 1 '--source: "0002" is not a node of cube:4 (4 binary digits, highest bit first)' plan -t cube:4 -a w-sort -s 0002 -d 0001
fails "destination too long" 1 '"00001" is not a node of cube:4 (4 binary digits, highest bit first)' "${B[@]}" -d 00001
fails "the source as a destination" 1 'destination 0000 is the source' "${B[@]}" -d 0001,0000
fails "a destination twice" 1 'destination 0011 given twice' "${B[@]}" -d 0011 -d 0001,0011
fails "an empty list item" 1 'an empty address in a comma list' "${B[@]}" -d 0001,,0011
fails "--random too many" 1 '--random 16: the cube has only 15 nodes besides the source' "${B[@]}" --random 16
fails "--random 0" 1 '--random 0: need at least one destination' "${B[@]}" --random 0
printf '0001\n0021\n' >"$tmp/bad"
fails "a bad line in --dests-file" 1 "$tmp/bad:2: \"0021\" is not a node of cube:4 (4 binary digits, highest bit first)" "${B[@]}" -f "$tmp/bad"
fails "missing --source" 2 'missing --source' plan -t cube:4 -a w-sort -d 0001
fails "no destinations" 2 'no destinations: give --dest, --dests-file or --random' "${B[@]}"
fails "--dest and --random" 2 'give only one of --dest, --dests-file and --random' "${B[@]}" -d 0001 --random 2
fails "--seed without --random" 2 '--seed needs --random' "${B[@]}" -d 0001 --seed 3
fails "--port twice" 2 '--port given twice' "${B[@]}" -d 0001 --port all --port one
fails "--route on a cube" 2 '--route needs a switch topology (--topology switch:FILE)' "${B[@]}" -d 0001 --route strict
fails "unknown option" 2 'unknown option "--bogus"' "${B[@]}" -d 0001 --bogus
fails "flag given an argument" 2 'option "--tree" takes no argument' "${B[@]}" -d 0001 --tree=yes
fails "option missing its argument" 2 'option "--port" needs an argument' "${B[@]}" -d 0001 --port
fails "a stray argument" 2 'unexpected argument "0010" (one address or comma list per --dest)' "${B[@]}" -d 0001 0010

run plan --help
[ "$RC" -eq 0 ] && grep -q -- '--topology cube:N' <<<"$OUT" && grep -q -- 'u-cube, maxport, combine, w-sort' <<<"$OUT"
ok $? "plan --help shows the cube options"

done_testing
tap_exit
