#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# Tests of `mcastctl plan` against the dissertation's worked examples
# (Robinson (1994): Fig 4.10 U-torus on a 10x10x10 torus, Fig 5.1/5.7 S-torus on
# 6x6) and against its own error contract.  TAP output.
#
# MCASTCTL names the binary (default: build/mcastctl in the repository).
# Needs bash and jq.

# Commas inside coordinates and $ inside jq programs are meant literally.
# shellcheck disable=SC2054,SC2016

# shellcheck source=tests/cli/planlib.sh
. "$(dirname "$0")/planlib.sh"

# Two of planlib.sh's checks, as this test has them: fails wants a part of
# the message, jq_is reads $tmp/json (jq_is_out, below, reads $OUT).

# fails DESCRIPTION STATUS SUBSTRING ARGS...: exits STATUS, prints nothing
# on stdout and exactly one line on stderr: "mcastctl: plan: ..." holding
# SUBSTRING.
fails() {
	local desc=$1 status=$2 want=$3
	shift 3
	run "$@"
	local lines
	lines=$(printf '%s\n' "$ERR" | wc -l)
	if [ "$RC" -eq "$status" ] && [ -z "$OUT" ] && [ "$lines" -eq 1 ] &&
	   [[ $ERR == "mcastctl: plan: "* ]] && [[ $ERR == *"$want"* ]]; then
		ok 0 "$desc"
	else
		ok 1 "$desc"
		diag "want exit $status and one line holding: $want"
		diag "got exit $RC, stdout ${#OUT} bytes, stderr: $ERR"
	fi
}

# jq_is DESCRIPTION EXPECTED FILTER: FILTER on $tmp/json prints EXPECTED
jq_is() {
	same "$1" "$2" "$(jq -c "$3" "$tmp/json" 2>&1)"
}

# ceil(log_r m)
ceil_log() {
	local r=$1 m=$2 s=0 c=1
	while [ "$c" -lt "$m" ]; do
		c=$((c * r))
		s=$((s + 1))
	done
	echo "$s"
}

# Hops of each message as "step from>to arcs", the golden vectors' notation:
# c<dim><class>(<node>) is the channel of that class leaving the node.
ARCS='.messages[] | "\(.step) \(.from|map(tostring)|join(","))>\(.to[0]|map(tostring)|join(",")) \(.hops|map("c\(.dim)\(.vc)(\(.from|map(tostring)|join(",")))")|join(" "))"'

# ---- U-torus, Fig 4.10 ------------------------------------------------

DESTS=(4,9,3 1,9,7 1,0,2 8,5,4 4,8,9 9,0,5 3,5,5 9,0,1 8,0,5 1,6,4)
DARGS=()
for d in "${DESTS[@]}"; do
	DARGS+=(--dest "$d")
done
UT=(plan --topology torus:10x10x10 --algorithm u-torus --source 8,4,5)

succeeds "u-torus 10x10x10: plans" "${UT[@]}" "${DARGS[@]}" --json
printf '%s\n' "$OUT" >"$tmp/json"
jq -e . "$tmp/json" >/dev/null
ok $? "u-torus 10x10x10: JSON is valid"
jq_is "u-torus: topology" '{"kind":"torus","dims":[10,10,10],"links":"uni","nodes":1000}' .topology
jq_is "u-torus: algorithm, routing, source, m, destinations" \
	'["u-torus","UTR",[8,4,5],11,10]' '[.algorithm,.routing,.source,.m,.destinations]'
jq_is "u-torus: order is the R-chain Phi'' of Sec. 4.4" \
	'[[8,4,5],[8,5,4],[9,0,1],[9,0,5],[1,0,2],[1,6,4],[1,9,7],[3,5,5],[4,8,9],[4,9,3],[8,0,5]]' .order
jq_is "u-torus: 4 steps (ceil(log2 11))" 4 .steps
jq_is "u-torus: verified" true .verified
jq_is "u-torus: no labels for unicast algorithms" false 'has("labels")'
jq_is "u-torus: step 1 is (8,4,5) -> (1,9,7) covering (1,9,7) (3,5,5) (4,8,9) (4,9,3) (8,0,5)" \
	'[{"step":1,"from":[8,4,5],"to":[[1,9,7]],"covers":[[[1,9,7],[3,5,5],[4,8,9],[4,9,3],[8,0,5]]]}]' \
	'[.messages[] | select(.step == 1) | {step,from,to,covers}]'
jq_is "u-torus: every send of Fig 4.10 (step, sender, receiver, address field)" \
	'["1 8,4,5>1,9,7 1,9,7 3,5,5 4,8,9 4,9,3 8,0,5","2 1,9,7>4,9,3 4,9,3 8,0,5","2 8,4,5>9,0,5 9,0,5 1,0,2 1,6,4","3 1,9,7>4,8,9 4,8,9","3 4,9,3>8,0,5 8,0,5","3 8,4,5>9,0,1 9,0,1","3 9,0,5>1,6,4 1,6,4","4 1,9,7>3,5,5 3,5,5","4 8,4,5>8,5,4 8,5,4","4 9,0,5>1,0,2 1,0,2"]' \
	'[.messages[] | "\(.step) \(.from|join(","))>\(.to[0]|join(",")) \(.covers[0]|map(join(","))|join(" "))"] | sort'
jq_is "u-torus: receive step of every destination" \
	'"1,0,2:4 1,6,4:3 1,9,7:1 3,5,5:4 4,8,9:3 4,9,3:2 8,0,5:3 8,5,4:4 9,0,1:3 9,0,5:2"' \
	'[.receivers[] | "\(.node|join(",")):\(.step)"] | sort | join(" ")'
jq_is "u-torus: one destination per message, 10 messages" '[10,[1]]' \
	'[.stats.messages, ([.messages[].to|length]|unique)]'

golden_utr=$(cat <<'GOLD'
1 8,4,5>1,9,7 c2p(8,4,5) c2p(9,4,5) c2h(0,4,5) c1h(1,4,5) c1h(1,5,5) c1h(1,6,5) c1h(1,7,5) c1h(1,8,5) c0h(1,9,5) c0h(1,9,6)
2 1,9,7>4,9,3 c2h(1,9,7) c2h(2,9,7) c2h(3,9,7) c0p(4,9,7) c0p(4,9,8) c0p(4,9,9) c0h(4,9,0) c0h(4,9,1) c0h(4,9,2)
3 4,9,3>8,0,5 c2h(4,9,3) c2h(5,9,3) c2h(6,9,3) c2h(7,9,3) c1p(8,9,3) c0h(8,0,3) c0h(8,0,4)
3 1,9,7>4,8,9 c2h(1,9,7) c2h(2,9,7) c2h(3,9,7) c1p(4,9,7) c1h(4,0,7) c1h(4,1,7) c1h(4,2,7) c1h(4,3,7) c1h(4,4,7) c1h(4,5,7) c1h(4,6,7) c1h(4,7,7) c0h(4,8,7) c0h(4,8,8)
4 1,9,7>3,5,5 c2h(1,9,7) c2h(2,9,7) c1p(3,9,7) c1h(3,0,7) c1h(3,1,7) c1h(3,2,7) c1h(3,3,7) c1h(3,4,7) c0p(3,5,7) c0p(3,5,8) c0p(3,5,9) c0h(3,5,0) c0h(3,5,1) c0h(3,5,2) c0h(3,5,3) c0h(3,5,4)
2 8,4,5>9,0,5 c2h(8,4,5) c1p(9,4,5) c1p(9,5,5) c1p(9,6,5) c1p(9,7,5) c1p(9,8,5) c1p(9,9,5)
3 9,0,5>1,6,4 c2p(9,0,5) c2h(0,0,5) c1h(1,0,5) c1h(1,1,5) c1h(1,2,5) c1h(1,3,5) c1h(1,4,5) c1h(1,5,5) c0p(1,6,5) c0p(1,6,6) c0p(1,6,7) c0p(1,6,8) c0p(1,6,9) c0h(1,6,0) c0h(1,6,1) c0h(1,6,2) c0h(1,6,3)
4 9,0,5>1,0,2 c2p(9,0,5) c2h(0,0,5) c0p(1,0,5) c0p(1,0,6) c0p(1,0,7) c0p(1,0,8) c0p(1,0,9) c0h(1,0,0) c0h(1,0,1)
3 8,4,5>9,0,1 c2h(8,4,5) c1p(9,4,5) c1p(9,5,5) c1p(9,6,5) c1p(9,7,5) c1p(9,8,5) c1p(9,9,5) c0p(9,0,5) c0p(9,0,6) c0p(9,0,7) c0p(9,0,8) c0p(9,0,9) c0h(9,0,0)
4 8,4,5>8,5,4 c1h(8,4,5) c0p(8,5,5) c0p(8,5,6) c0p(8,5,7) c0p(8,5,8) c0p(8,5,9) c0h(8,5,0) c0h(8,5,1) c0h(8,5,2) c0h(8,5,3)
GOLD
)
golden_btr=$(cat <<'GOLD'
1 8,4,5>1,9,7 c2p(8,4,5) c2p(9,4,5) c2h(0,4,5) c1h(1,4,5) c1h(1,5,5) c1h(1,6,5) c1h(1,7,5) c1h(1,8,5) c0h(1,9,5) c0h(1,9,6)
2 1,9,7>4,9,3 c2h(1,9,7) c2h(2,9,7) c2h(3,9,7) c0l(4,9,7) c0l(4,9,6) c0l(4,9,5) c0l(4,9,4)
3 4,9,3>8,0,5 c2h(4,9,3) c2h(5,9,3) c2h(6,9,3) c2h(7,9,3) c1p(8,9,3) c0h(8,0,3) c0h(8,0,4)
3 1,9,7>4,8,9 c2h(1,9,7) c2h(2,9,7) c2h(3,9,7) c1l(4,9,7) c0h(4,8,7) c0h(4,8,8)
4 1,9,7>3,5,5 c2h(1,9,7) c2h(2,9,7) c1l(3,9,7) c1l(3,8,7) c1l(3,7,7) c1l(3,6,7) c0l(3,5,7) c0l(3,5,6)
2 8,4,5>9,0,5 c2h(8,4,5) c1l(9,4,5) c1l(9,3,5) c1l(9,2,5) c1l(9,1,5)
3 9,0,5>1,6,4 c2p(9,0,5) c2h(0,0,5) c1p(1,0,5) c1l(1,9,5) c1l(1,8,5) c1l(1,7,5) c0l(1,6,5)
4 9,0,5>1,0,2 c2p(9,0,5) c2h(0,0,5) c0l(1,0,5) c0l(1,0,4) c0l(1,0,3)
3 8,4,5>9,0,1 c2h(8,4,5) c1l(9,4,5) c1l(9,3,5) c1l(9,2,5) c1l(9,1,5) c0l(9,0,5) c0l(9,0,4) c0l(9,0,3) c0l(9,0,2)
4 8,4,5>8,5,4 c1h(8,4,5) c0l(8,5,5)
GOLD
)

jq_is "u-torus UTR: step-1 hops are the golden path (8,4,5) -> (1,9,7)" \
	"\"$(head -n1 <<<"$golden_utr")\"" "[$ARCS][] | select(startswith(\"1 \"))"
same "u-torus UTR: every hop of every message matches the golden vectors" \
	"$(sort <<<"$golden_utr")" "$(jq -r "$ARCS" "$tmp/json" | sort)"
jq_is "u-torus UTR: hops chain from sender to receiver, all +1" 'true' \
	'[.messages[] | (.hops[0].from == .from) and (.hops[-1].to == .to[0]) and
	  ([range(1; .hops|length) as $i | .hops[$i].from == .hops[$i-1].to] | all) and
	  ([.hops[].dir] | unique == [1])] | all'
jq_is "u-torus UTR: nhops and stats.hops agree with the hop lists" '[true,112]' \
	'[([.messages[] | .nhops == (.hops|length)] | all), .stats.hops]'

succeeds "u-torus 10x10x10 :bi: plans" plan --topology torus:10x10x10:bi \
	--algorithm u-torus --source 8,4,5 "${DARGS[@]}" --json
printf '%s\n' "$OUT" >"$tmp/json"
jq_is "u-torus :bi: links bi, routing BTR, same R-chain and 4 steps" \
	'["bi","BTR",[[8,4,5],[8,5,4],[9,0,1],[9,0,5],[1,0,2],[1,6,4],[1,9,7],[3,5,5],[4,8,9],[4,9,3],[8,0,5]],4]' \
	'[.topology.links,.routing,.order,.steps]'
same "u-torus BTR: every hop of every message matches the golden vectors" \
	"$(sort <<<"$golden_btr")" "$(jq -r "$ARCS" "$tmp/json" | sort)"
jq_is "u-torus BTR: l-channels go -1, p/h as routed" '[-1]' \
	'[.messages[].hops[] | select(.vc == "l") | .dir] | unique'

succeeds "u-torus text output" "${UT[@]}" "${DARGS[@]}"
printf '%s\n' "$OUT" >"$tmp/text"
grep -qxF 'step 1: (8,4,5) -> (1,9,7)  covers (1,9,7) (3,5,5) (4,8,9) (4,9,3) (8,0,5)  [10 hops]' "$tmp/text"
ok $? "text: step 1 line with its cover and hop count"
grep -qxF 'step 4: (9,0,5) -> (1,0,2)  [9 hops]' "$tmp/text"
ok $? "text: a leaf send has no covers list"
same "text: 10 step lines, grouped by step" "1 2 2 3 3 3 3 4 4 4" \
	"$(grep '^step ' "$tmp/text" | cut -d' ' -f2 | tr -d : | tr '\n' ' ' | sed 's/ $//')"
grep -qxF 'order        R-chain: (8,4,5) (8,5,4) (9,0,1) (9,0,5) (1,0,2) (1,6,4) (1,9,7) (3,5,5) (4,8,9) (4,9,3) (8,0,5)' "$tmp/text"
ok $? "text: order line"
grep -qx 'steps  *4' "$tmp/text" && grep -q '^total  *10 messages, 112 hops, at most 1 destination per message$' "$tmp/text"
ok $? "text: steps and statistics"

succeeds "text --hops" "${UT[@]}" "${DARGS[@]}" --hops
same "text --hops: one line per hop, first hop of step 1 in dim 2 class p" "112 (8,4,5) -> (9,4,5)  dim 2 +1 p" \
	"$(grep -c '^        (' <<<"$OUT") $(grep -m1 '^        (' <<<"$OUT" | sed 's/^ *//')"
succeeds "text --tree" "${UT[@]}" "${DARGS[@]}" --tree
same "text --tree: (1,9,7) forwards to (4,9,3), which forwards to (8,0,5)" \
	"$(printf '  1 -> (1,9,7)\n    2 -> (4,9,3)\n      3 -> (8,0,5)')" \
	"$(grep -A2 -x '  1 -> (1,9,7)' <<<"$OUT")"

# The same destinations from a file, with comments and blank lines, and
# from stdin.
{
	echo "# Fig 4.10 destinations"
	echo
	for d in "${DESTS[@]}"; do
		printf '  %s   # a node\n' "$d"
	done
} >"$tmp/dests"
run "${UT[@]}" "${DARGS[@]}" --json
want=$OUT
run "${UT[@]}" --dests-file "$tmp/dests" --json
same "--dests-file gives the same plan as --dest" "$want" "$OUT"
run "${UT[@]}" --dests-file - --json <"$tmp/dests"
same "--dests-file - reads stdin" "$want" "$OUT"
run "${UT[@]}" --dest '(4,9,3)' --dest 1,9,7 --json
jq -c .order <<<"$OUT" >"$tmp/o"
same "a coordinate may be written (a,b,c) as the text output prints it" \
	'[[8,4,5],[1,9,7],[4,9,3]]' "$(cat "$tmp/o")"

# ---- S-torus, Fig 5.1/5.7 -------------------------------------------

SD=(0,5 4,5 3,4 5,4 4,3 1,2 2,1 5,1 1,0)
SARGS=()
for d in "${SD[@]}"; do
	SARGS+=(--dest "$d")
done
succeeds "s-torus 6x6: plans" plan --topology torus:6x6 --algorithm s-torus \
	--source 3,2 "${SARGS[@]}" --json
printf '%s\n' "$OUT" >"$tmp/json"
jq_is "s-torus: order is the H-cycle of Fig 5.7" \
	'[[3,2],[4,3],[4,5],[5,1],[5,4],[0,5],[1,0],[1,2],[2,1],[3,4]]' .order
jq_is "s-torus: Hamiltonian labels (Eq 5.2)" '[23,25,27,30,33,5,7,9,15,19]' .labels
jq_is "s-torus: routing UTPR, one phase, one worm" '["UTPR",1,1]' \
	'[.routing,.steps,(.messages|length)]'
jq_is "s-torus: the worm visits the rest of the H-cycle in order" \
	'[[3,2],[[4,3],[4,5],[5,1],[5,4],[0,5],[1,0],[1,2],[2,1],[3,4]]]' \
	'[.messages[0].from,.messages[0].to]'
jq_is "s-torus: 26 hops = sum of minimal distances, all +1" '[26,[1]]' \
	'[(.messages[0].hops|length), ([.messages[0].hops[].dir]|unique)]'
jq_is "s-torus: p until the one boundary (5,5)->(0,5), h after (Thm 5.1)" \
	'[11,15,{"from":[5,5],"to":[0,5],"dim":1,"dir":1,"vc":"h"}]' \
	'.messages[0].hops as $h | [([$h[].vc]|map(select(. == "p"))|length),
	 ([$h[].vc]|map(select(. == "h"))|length), $h[11]]'
run plan --topology torus:6x6 --algorithm s-torus --source 3,2 "${SARGS[@]}"
grep -qxF 'phase 1: (3,2) => (4,3) (4,5) (5,1) (5,4) (0,5) (1,0) (1,2) (2,1) (3,4)  [26 hops]' <<<"$OUT"
ok $? "text: s-torus phase line"
grep -qxF 'order        H-cycle, ^label: (3,2)^23 (4,3)^25 (4,5)^27 (5,1)^30 (5,4)^33 (0,5)^5 (1,0)^7 (1,2)^9 (2,1)^15 (3,4)^19' <<<"$OUT"
ok $? "text: s-torus order with labels"

# ---- separate addressing ----------------------------------------------

succeeds "separate: plans" plan -t torus:6x6 -a separate -s 3,2 -d 5,5 -d 0,0 -d 1,1 --json
printf '%s\n' "$OUT" >"$tmp/json"
jq_is "separate: order is the source then the destinations as given" \
	'[[3,2],[5,5],[0,0],[1,1]]' .order
jq_is "separate: the source sends one unicast per step" \
	'[[1,[3,2],[[5,5]]],[2,[3,2],[[0,0]]],[3,[3,2],[[1,1]]]]' \
	'[.messages[] | [.step,.from,.to]]'

# ---- M-torus family and U-torus on random sets ------------------------

for seed in 1 2 3; do
	for size in 7 40 200; do
		m=$((size + 1))
		R=(plan -t torus:8x8x8 -s 1,2,3 --random "$size" --seed "$seed" --json)
		run "${R[@]}" -a mu-torus:2
		same "mu-torus:2 8x8x8 m=$m seed $seed: ceil(log2 m) phases, verified" \
			"$(ceil_log 2 $m) true $size" "$(jq -r '"\(.steps) \(.verified) \(.receivers|length)"' <<<"$OUT" 2>&1)"
		run "${R[@]}" -a mu-torus:4
		same "mu-torus:4 8x8x8 m=$m seed $seed: ceil(log4 m) phases, verified" \
			"$(ceil_log 4 $m) true $size" "$(jq -r '"\(.steps) \(.verified) \(.receivers|length)"' <<<"$OUT" 2>&1)"
		run "${R[@]}" -a md-torus
		same "md-torus 8x8x8 m=$m seed $seed: at most 3 phases, verified" \
			"true true $size" "$(jq -r '"\(.steps <= 3) \(.verified) \(.receivers|length)"' <<<"$OUT" 2>&1)"
	done
done
run plan -t torus:8x8x8 -s 1,2,3 --random 200 --seed 9 -a mu-torus:8 --json
jq_is_out() { same "$1" "$2" "$(jq -c "$3" <<<"$OUT" 2>&1)"; }
jq_is_out "mu-torus:8: algorithm and r in JSON" '["mu-torus:8",8]' '[.algorithm,.r]'
jq_is_out "mu-torus:8: every destination reached exactly once, never the source" '[true,true]' \
	'[([.messages[].to[]] | length) == 200 and ([.messages[].to[]] | unique | length) == 200,
	  ([.messages[].to[]] | index([[1,2,3]]) == null)]'
jq_is_out "mu-torus:8: at most 7 destinations per worm" 'true' \
	'[.messages[].to|length] | max <= 7 and . == .'
for links in uni bi; do
	run plan -t torus:8x8x8:$links -a u-torus -s 1,2,3 --random 100 --seed 5 --json
	jq_is_out "u-torus 8x8x8:$links m=101: ceil(log2 101) steps" '[7,true]' '[.steps,.verified]'
done

# ---- --random ---------------------------------------------------------

RS=(plan -t torus:6x6 -a u-torus -s 3,2)
run "${RS[@]}" --random 5 --seed 7 --json
a=$OUT
run "${RS[@]}" --random 5 --seed 7 --json
same "--random 5 --seed 7 twice gives the same plan" "$a" "$OUT"
jq_is_out "--random 5: five distinct destinations, none the source" '[5,5,false]' \
	'[.destinations, ([.order[1:][]]|unique|length), (.order[1:] | index([[3,2]]) != null)]'
run "${RS[@]}" --random 5 --seed 8 --json
[ "$a" != "$OUT" ]
ok $? "--seed 8 picks another set than --seed 7"
run "${RS[@]}" --random 5 --json
b=$OUT
run "${RS[@]}" --random 5 --seed 1 --json
same "the default seed is 1" "$b" "$OUT"
run "${RS[@]}" --random 5 --seed 7
c=$OUT
run "${RS[@]}" --random 5 --seed 7
same "--random text output is reproducible too" "$c" "$OUT"
succeeds "--random 35 on 6x6 (every other node) works" "${RS[@]}" --random 35 --json
jq_is_out "--random 35: all 35 other nodes, 6 steps" '[35,36,6]' \
	'[.destinations, (.order|unique|length), .steps]'
fails "--random 36 on 6x6 is too many" 1 "--random 36: the torus has only 35 nodes besides the source" \
	"${RS[@]}" --random 36

# ---- path-based algorithms need what UTPR needs -----------------------

for a in s-torus md-torus mu-torus:4; do
	fails "$a on a bidirectional torus fails" 1 "need a unidirectional torus" \
		plan -t torus:6x6:bi -a "$a" -s 3,2 -d 1,1
done
fails "md-torus on a non-regular torus fails" 1 "equal radices" \
	plan -t torus:4x8 -a md-torus -s 3,2 -d 1,1
succeeds "u-torus on a non-regular torus works" plan -t torus:4x8 -a u-torus -s 3,7 -d 0,0 --json
jq_is_out "torus:4x8 has sigma_1 radix 4 and sigma_0 radix 8" '[[4,8],[3,7]]' '[.topology.dims,.source]'

# ---- invalid input: one line on stderr, non-zero exit -----------------

B=(plan -t torus:6x6 -a u-torus -s 3,2)
fails "coordinate out of range" 1 'coordinate "3,9" out of range: dimension 0 has radix 6' "${B[@]}" -d 3,9
fails "coordinate out of range in the highest dimension" 1 'coordinate "6,0" out of range: dimension 1 has radix 6' "${B[@]}" -d 6,0
fails "source out of range" 1 'coordinate "3,6" out of range' plan -t torus:6x6 -a u-torus -s 3,6 -d 1,1
fails "coordinate of the wrong arity" 1 'coordinate "1,2,3" has 3 elements but the torus has 2 dimensions' "${B[@]}" -d 1,2,3
fails "malformed coordinate" 1 'malformed coordinate "1,x"' "${B[@]}" -d 1,x
fails "negative coordinate" 1 'malformed coordinate "1,-1"' "${B[@]}" -d 1,-1
fails "empty coordinate" 1 'malformed coordinate ""' "${B[@]}" -d ''
fails "destination given twice" 1 'destination 1,2 given twice' "${B[@]}" -d 1,2 -d 1,2
fails "destination equal to the source" 1 'destination 3,2 is the source' "${B[@]}" -d 1,1 -d 3,2
fails "unknown algorithm" 1 'unknown algorithm "x-torus"' plan -t torus:6x6 -a x-torus -s 3,2 -d 1,1
fails "mu-torus without R" 1 'mu-torus:R' plan -t torus:6x6 -a mu-torus -s 3,2 -d 1,1
fails "mu-torus:1" 1 'partition size must be 2 to 65536' plan -t torus:6x6 -a mu-torus:1 -s 3,2 -d 1,1
fails "mu-torus with a malformed R" 1 'partition size must be a decimal number' plan -t torus:6x6 -a mu-torus:2x -s 3,2 -d 1,1
fails "malformed topology" 1 'topology "torus:6xq"' plan -t torus:6xq -a u-torus -s 3,2 -d 1,1
fails "unknown topology kind" 1 'topology "mesh:6x6"' plan -t mesh:6x6 -a u-torus -s 3,2 -d 1,1
fails "unknown links" 1 'links must be "uni" or "bi"' plan -t torus:6x6:duplex -a u-torus -s 3,2 -d 1,1
fails "radix 1" 1 'every radix must be at least 2' plan -t torus:6x1 -a u-torus -s 3,0 -d 1,0
fails "too many nodes" 1 'more than 2^24 nodes' plan -t torus:4096x4097 -a u-torus -s 3,2 -d 1,1
fails "malformed --random" 1 '--random "x"' "${B[@]}" --random x
fails "malformed --seed" 1 '--seed "-1"' "${B[@]}" --random 3 --seed -1
fails "--random 0" 1 'at least one destination' "${B[@]}" --random 0
fails "unknown option" 2 'unknown option "--bogus"' "${B[@]}" -d 1,1 --bogus
fails "unknown short option" 2 'unknown option "-x"' "${B[@]}" -d 1,1 -x
fails "ambiguous option" 2 'ambiguous option "--de"' "${B[@]}" --de 1,1
fails "option missing its argument" 2 'option "--dest" needs an argument' "${B[@]}" --dest
fails "flag given an argument" 2 'option "--json" takes no argument' "${B[@]}" -d 1,1 --json=yes
fails "two coordinates after one --dest" 2 'unexpected argument "2,2"' "${B[@]}" -d 1,1 2,2
fails "missing --topology" 2 'missing --topology' plan -a u-torus -s 3,2 -d 1,1
fails "missing --algorithm" 2 'missing --algorithm' plan -t torus:6x6 -s 3,2 -d 1,1
fails "missing --source" 2 'missing --source' plan -t torus:6x6 -a u-torus -d 1,1
fails "no destinations" 2 'no destinations' "${B[@]}"
fails "--dest and --random" 2 'only one of --dest, --dests-file and --random' "${B[@]}" -d 1,1 --random 2
fails "--dests-file and --random" 2 'only one of' "${B[@]}" -f "$tmp/dests" --random 2
fails "--dest and --dests-file" 2 'only one of' "${B[@]}" -d 1,1 -f "$tmp/dests"
fails "--topology twice" 2 '--topology given twice' "${B[@]}" -d 1,1 -t torus:4x4
fails "--seed without --random" 2 '--seed needs --random' "${B[@]}" -d 1,1 --seed 3
printf '1,1\n\n# two\n1;1\n' >"$tmp/bad"
fails "dests file: the bad line is named" 1 "$tmp/bad:4: malformed coordinate \"1;1\"" "${B[@]}" -f "$tmp/bad"
printf '1,1\n2,2\n1,1\n' >"$tmp/dup"
fails "dests file: a repeat is named" 1 "$tmp/dup:3: destination 1,1 given twice" "${B[@]}" -f "$tmp/dup"
fails "dests file: missing file" 1 'cannot open' "${B[@]}" -f "$tmp/nonexistent"
: >"$tmp/empty"
fails "dests file: no destinations" 1 'lists no destinations' "${B[@]}" -f "$tmp/empty"

# ---- the program ------------------------------------------------------

run --version
[ "$RC" -eq 0 ] && [[ $OUT =~ ^mcastctl\ [^[:space:]]+$ ]]
ok $? "--version"
run --help
[ "$RC" -eq 0 ] && grep -q '^  plan ' <<<"$OUT"
ok $? "--help lists the plan command"
run plan --help
[ "$RC" -eq 0 ] && grep -q -- '--topology' <<<"$OUT" && [ -z "$ERR" ]
ok $? "plan --help"
run frobnicate
[ "$RC" -eq 2 ] && [ "$(printf '%s\n' "$ERR" | wc -l)" -eq 1 ] && [[ $ERR == *'unknown command "frobnicate"'* ]]
ok $? "unknown command: exit 2, one line"

done_testing
tap_exit
