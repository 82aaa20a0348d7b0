#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# Tests of `mcastctl plan --algorithm rb` (Zhuang and Liberatore:
# recursion-based broadcast on a mesh or torus with power-of-two sides,
# plan/rb.h):
#   - the notes' golden schedules (4.7: 4x4 from the corner and from
#     (2,1), 8x2, 2x2x2), unit for unit, in the paper's stage-1 order;
#   - the bit-reversed layout of the default order (3.1.4): one range per
#     transfer, aligned, stage 1 the upper half of the source's range;
#   - 8x8 (n = 3): transfers and largest message per step (3.1.3, 4.1),
#     the receive-count totals (4.8);
#   - every node ends with the whole message, decoded here from the JSON
#     ranges, on meshes and tori: 4x4, 8x8, 16x16, 8x4, 2x8, 4x4x4;
#   - step counts and beta, one-port and all-port, against the notes'
#     formulas (4.1-4.3, 3.5, 3.6.3);
#   - the cost against U-torus at the paper's parameters (4.5);
#   - text, --hops, --tree, JSON, and the error contract.
#
# The notes write a 2D node "xy", x first; mcastctl writes tuples highest
# dimension first, (y,x): the filters below convert.  On a 2D mesh x is
# dimension 0 (the shift) and y dimension 1 (the mirror); in 3D, x, y, z
# are dimensions 0, 1, 2.
#
# MCASTCTL names the binary (default: build/mcastctl in the repository).
# Needs bash and jq.

# Commas inside coordinates and $ inside jq programs are meant literally.
# shellcheck disable=SC2054,SC2016

# shellcheck source=tests/cli/planlib.sh
. "$(dirname "$0")/planlib.sh"

# ---- golden schedules (notes 4.7) ----------------------------------------

# The notes' "xy>xy:u,u" of each transfer of step $s; bytes are units
# (--length = the unit count) through the map $pos (position -> unit).
NOTES2='.transfers[] | select(.step == $s) |
	"\(.from[1])\(.from[0])>\(.to[1])\(.to[0]):\([.ranges[] | range(.[0]; .[1])] | map($pos[.]) | sort | map(tostring) | join(","))"'
NOTES3='.transfers[] | select(.step == $s) |
	"\(.from[2])\(.from[1])\(.from[0])>\(.to[2])\(.to[1])\(.to[0]):\([.ranges[] | range(.[0]; .[1])] | map($pos[.]) | sort | map(tostring) | join(","))"'

# golden NAME FILTER POS STEP...: $OUT's step i is the notes' STEP i
# ("a>b:units; c>d:units"), as sets of transfers.
golden() {
	local name=$1 filter=$2 pos=$3 s=0 want got
	shift 3
	jq_is "$name: ${#} steps" "$#" '.steps'
	for step in "$@"; do
		s=$((s + 1))
		want=$(tr ';' '\n' <<<"$step" | sed 's/^[[:space:]]*//; s/[[:space:]]*$//' | grep -v '^$' | sort)
		got=$(jq -r --argjson s "$s" --argjson pos "$pos" "$filter" <<<"$OUT" | sort)
		same "$name: step $s is the notes' ($(wc -l <<<"$want") transfers)" "$want" "$got"
	done
}

H1_4X4="00>10:0,2; 10>00:1,3; 20>30:0,2; 30>20:1,3;
	01>11:0,2; 11>01:1,3; 21>31:0,2; 31>21:1,3;
	02>12:0,2; 12>02:1,3; 22>32:0,2; 32>22:1,3;
	03>13:0,2; 13>03:1,3; 23>33:0,2; 33>23:1,3"

succeeds "4x4 from (0,0), paper order: plans" plan -t mesh:4x4 -a rb -s 0,0 --order paper --length 4 --json
golden "4x4 from (0,0)" "$NOTES2" '[0,1,2,3]' \
	"00>22:2,3" \
	"00>11:1; 22>33:3" \
	"00>03:0; 11>12:1; 22>21:2; 33>30:3" \
	"00>20:0; 03>23:0; 11>31:1; 12>32:1; 21>01:2; 22>02:2; 30>10:3; 33>13:3" \
	"00>01:0; 01>00:2; 02>03:2; 03>02:0; 10>11:3; 11>10:1;
	 12>13:1; 13>12:3; 20>21:0; 21>20:2; 22>23:2; 23>22:0;
	 30>31:3; 31>30:1; 32>33:1; 33>32:3" \
	"$H1_4X4"
jq_is "4x4 from (0,0): per-step largest message 1/2, 1/4, 1/4, 1/4, 1/4, 1/2 (beta 2)" \
	'[2,1,1,1,1,2]' '[.transfers | group_by(.step)[] | map(.bytes) | max]'

# the notes' (x,y) = (2,1) is mcastctl's 1,2
succeeds "4x4 from (2,1), paper order: plans" plan -t mesh:4x4 -a rb -s 1,2 --order paper --length 4 --json
golden "4x4 from (2,1)" "$NOTES2" '[0,1,2,3]' \
	"21>03:2,3" \
	"03>12:3; 21>30:1" \
	"03>00:2; 12>11:3; 21>22:0; 30>33:1" \
	"00>20:2; 03>23:2; 11>31:3; 12>32:3; 21>01:0; 22>02:0; 30>10:1; 33>13:1" \
	"00>01:2; 01>00:0; 02>03:0; 03>02:2; 10>11:1; 11>10:3;
	 12>13:3; 13>12:1; 20>21:2; 21>20:0; 22>23:0; 23>22:2;
	 30>31:1; 31>30:3; 32>33:3; 33>32:1" \
	"$H1_4X4"

# 8x2: x has 8 values (dimension 0), y 2: mcastctl's mesh:2x8
succeeds "8x2 from (0,0), paper order: plans" plan -t mesh:2x8 -a rb -s 0,0 --order paper --length 8 --json
golden "8x2 from (0,0)" "$NOTES2" '[0,1,2,3,4,5,6,7]' \
	"00>40:4,5,6,7" \
	"00>20:2,3; 40>60:6,7" \
	"00>11:1; 20>31:3; 40>51:5; 60>71:7" \
	"00>40:0; 40>00:4; 11>51:1; 51>11:5" \
	"20>60:2; 60>20:6; 31>71:3; 71>31:7" \
	"00>20:0,4; 20>00:2,6; 11>31:1,5; 31>11:3,7;
	 40>60:0,4; 60>40:2,6; 51>71:1,5; 71>51:3,7" \
	"00>01:0,2,4,6; 20>21:0,2,4,6; 40>41:0,2,4,6; 60>61:0,2,4,6;
	 11>10:1,3,5,7; 31>30:1,3,5,7; 51>50:1,3,5,7; 71>70:1,3,5,7" \
	"00>10:0,2,4,6; 10>00:1,3,5,7; 20>30:0,2,4,6; 30>20:1,3,5,7;
	 40>50:0,2,4,6; 50>40:1,3,5,7; 60>70:0,2,4,6; 70>60:1,3,5,7;
	 01>11:0,2,4,6; 11>01:1,3,5,7; 21>31:0,2,4,6; 31>21:1,3,5,7;
	 41>51:0,2,4,6; 51>41:1,3,5,7; 61>71:0,2,4,6; 71>61:1,3,5,7"
jq_is "8x2: beta 19/8 (the paper's non-square formula, m = 1, k = 2)" '[19,8,19]' \
	'[.cost.rb.beta_num, .cost.rb.beta_den, .cost.rb.plan_bytes]'

# 2x2x2: unit (zs,zd) = 2 zs + zd; the first split (the diagonal bit) is
# the position's high bit (rb.h), so position 2 zd + zs: map [0,2,1,3].
succeeds "2x2x2 from (0,0,0), paper order: plans" plan -t mesh:2x2x2 -a rb -s 0,0,0 --order paper --length 4 --json
golden "2x2x2 from (0,0,0)" "$NOTES3" '[0,2,1,3]' \
	"000>111:1,3" \
	"000>010:2; 111>101:3" \
	"000>100:0; 010>110:2; 101>001:3; 111>011:1" \
	"000>001:0; 001>000:3; 010>011:2; 011>010:1;
	 100>101:0; 101>100:3; 110>111:2; 111>110:1" \
	"000>010:0,3; 010>000:1,2; 001>011:0,3; 011>001:1,2;
	 100>110:0,3; 110>100:1,2; 101>111:0,3; 111>101:1,2"

# ---- the bit-reversed layout (notes 3.1.4) -------------------------------

succeeds "4x4 from (0,0), ranges order: plans" plan -t mesh:4x4 -a rb -s 0,0 --length 4 --json
jq_is "4x4 ranges order: stage 1 sends [2,4) to (1,1), then [1,2) to (2,2) and [3,4) from (1,1) to (3,3)" \
	'[[1,[0,0],[1,1],[[2,4]]],[2,[0,0],[2,2],[[1,2]]],[2,[1,1],[3,3],[[3,4]]]]' \
	'[.transfers[] | select(.step <= 2) | [.step, .from, .to, .ranges]]'
jq_is "4x4 ranges order: H_1 exchanges halves [0,2) and [2,4)" \
	'[[[0,2]],[[2,4]]]' '[.transfers[] | select(.step == 6) | .ranges] | unique'
for spec in "mesh:4x4 2,3" "mesh:8x8 5,2" "torus:8x8:bi 7,7" "mesh:16x16 9,12" "torus:16x16:bi 0,0"; do
	read -r t s <<<"$spec"
	run plan -t "$t" -a rb -s "$s" --length 4096 --json
	jq_is "$t from $s, ranges order: every transfer one range [r L/2^k, (r+1) L/2^k)" 'true' \
		'[.transfers[] | .ranges | length == 1 and (.[0][1] - .[0][0]) as $w |
		  (4096 % $w == 0) and ((4096 / $w) as $q | ($q | log2 | floor | exp2) == $q) and
		  (.[0][0] % $w == 0)] | all'
done
run plan -t mesh:8x8 -a rb -s 0,0 --length 4096 --json
jq_is "8x8 ranges order: the source sends the upper half of what it keeps, L/2, L/4, L/8" \
	'[[1,[[2048,4096]]],[2,[[1024,2048]]],[3,[[512,1024]]]]' \
	'[.transfers[] | select(.from == [0,0] and .step <= 3) | [.step, .ranges]]'

# ---- 8x8, n = 3 (notes 3.1.3, 4.1, 4.8) ----------------------------------

succeeds "8x8 from (0,0), paper order: plans" plan -t mesh:8x8 -a rb -s 0,0 --order paper --length 8 --json
jq_is "8x8: 9 steps (3n), 3 of stage 1" '[9,3]' '[.steps, .stage1_steps]'
jq_is "8x8: directed transfers per step 1, 2, 4, 8, 16, 32, 32, 64, 64" \
	'[1,2,4,8,16,32,32,64,64]' '[.transfers | group_by(.step)[] | length]'
jq_is "8x8: largest message per step in L/8: 4, 2, 1, 1, 1, 1, 2, 2, 4 (beta 9/4)" \
	'[4,2,1,1,1,1,2,2,4]' '[.transfers | group_by(.step)[] | map(.bytes) | max]'
jq_is "8x8: bytes received: 7 at (0,0), 9 at (2,2) and (6,6), 11 at (4,4), 8 elsewhere" \
	'["00:7","22:9","44:11","66:9"]' \
	'[.nodes[] | select(.received != 8) | "\(.node[1])\(.node[0]):\(.received)"]'
jq_is "8x8: beta 9/4, 18 bytes in the largest messages" '[9,4,18]' \
	'[.cost.rb.beta_num, .cost.rb.beta_den, .cost.rb.plan_bytes]'

# ---- every node ends with the whole message ------------------------------

# The union of the ranges each node but the source receives is [0, L),
# computed here from the transfers; and the source is never sent to
# before it sent (it starts with everything).
COVER='.source as $src | .length as $len | .topology.nodes as $n |
	[.transfers[] | select(.to != $src) | {to: (.to | tostring), r: .ranges[]}] |
	group_by(.to) | [length == $n - 1,
	 (map(sort_by(.r[0]) | reduce .[].r as $r (0; if $r[0] <= . then ([., $r[1]] | max) else . end)) |
	  all(. == $len))] | all'
for spec in "mesh:4x4 1,3" "torus:4x4:bi 0,0" "mesh:8x8 6,1" "torus:8x8:bi 3,3" \
	    "mesh:16x16 15,0" "torus:16x16:bi 4,11" "mesh:8x4 5,2" "torus:8x4:bi 7,3" \
	    "mesh:4x8 2,6" "mesh:2x8 1,5" "mesh:4x4x4 1,2,3" "torus:4x4x4:bi 3,0,2"; do
	read -r t s <<<"$spec"
	for port in one all; do
		case $t:$port in
		*:8x4*:all|*:4x8:all|*:2x8:all) continue ;;
		esac
		for len in 4096 1000; do
			run plan -t "$t" -a rb -s "$s" --port "$port" --length "$len" --json
			if [ "$RC" -ne 0 ]; then
				ok 1 "$t from $s, $port-port, $len bytes: plans"
				diag "exit $RC: $ERR"
				continue
			fi
			jq_is "$t from $s, $port-port, $len bytes: every node but the source receives all of [0,$len), verified" \
				'true' "($COVER) and .verified"
		done
	done
done

# ---- steps and beta against the notes' formulas --------------------------

# SHAPE PORT LENGTH STEPS PLAN_BYTES (beta * LENGTH, LENGTH a multiple of
# the positions): 2D 3n, 2.5 - 1/2^(n-1); rect 3m + k + 2^k - 1,
# 2.5 + (k-2)/2^(m+1) - 1/2^(m+k); 3D 4n + 1, 2.5 - 3/2^(n+1); 4D 5n + 2,
# 2.375 - 1/2^n; all-port the same steps, beta (1 - 2^-n) +
# (beta_1 - (1 - 2^-n))/d in the paper's order (notes 3.6.3 table).
for spec in "mesh:2x2 one 4096 3 6144" "mesh:4x4 one 4096 6 8192" \
	    "mesh:8x8 one 4096 9 9216" "mesh:16x16 one 4096 12 9728" \
	    "mesh:4x8 one 4096 8 9216" "mesh:2x8 one 4096 8 9728" \
	    "mesh:8x4 one 4096 8 9216" "mesh:2x16 one 4096 13 11008" \
	    "mesh:2x2x2 one 4096 5 7168" "mesh:4x4x4 one 4096 9 8704" \
	    "mesh:8x8x8 one 4096 13 9472" "mesh:2x2x2x2 one 4096 7 7680" \
	    "mesh:4x4x4x4 one 4096 12 8704" \
	    "mesh:2x2 all 4096 3 4096" "mesh:4x4 all 4096 6 5632" \
	    "mesh:8x8 all 4096 9 6400" "mesh:2x2x2 all 4800 5 4400" \
	    "mesh:4x4x4 all 4800 9 5800" "mesh:2x2x2x2 all 4096 7 3456"; do
	read -r t port len st bytes <<<"$spec"
	run plan -t "$t" -a rb -s "$(sed 's/^mesh://; s/[0-9][0-9]*/0/g; s/x/,/g' <<<"$t")" \
		--port "$port" --order paper --length "$len" --json
	jq_is "$t $port-port: $st steps, $bytes bytes in the largest messages of $len" \
		"[$st,$st,$bytes]" '[.steps, .cost.rb.alpha, .cost.rb.plan_bytes]'
done

# ---- cost and choice (notes 4.5: 32x32, Ts 150 us, Tc 0.5 us/byte) --------

run plan -t mesh:32x32 -a rb -s 0,0 --length 1024 --json
jq_is "32x32, 1024 bytes: rb 15 steps, beta 39/16, 3498 us; u-torus (RD) 10, 10, 6620 us; rb from 199 bytes" \
	'[15,39,16,3498000,10,10,6620000,199,"rb"]' \
	'[.cost.rb.alpha, .cost.rb.beta_num, .cost.rb.beta_den, .cost.rb.time_ns,
	  .cost.u_torus.alpha, .cost.u_torus.beta_num, .cost.u_torus.time_ns,
	  .cost.crossover, .cost.choice]'
run plan -t mesh:32x32 -a rb -s 0,0 --length 198 --json
jq_is "32x32, 198 bytes: u-torus" '"u-torus"' '.cost.choice'
run plan -t mesh:32x32 -a rb -s 0,0 --length 199 --json
jq_is "32x32, 199 bytes: rb" '"rb"' '.cost.choice'
run plan -t mesh:32x32 -a rb -s 0,0 --length 1024 --ts 300 --tc 1
same "--ts 300 --tc 1: the cost lines" \
	"cost         rb       alpha 15, beta 39/16 (2.4375): 6996 us (plan: 15 steps, 2496 bytes in the largest messages)
             u-torus  alpha 10, beta 10: 13240 us
choice       rb (the rule takes rb from 199 bytes at Ts 300 us, Tc 1 us/byte)" "$(tail -3 <<<"$OUT")"
run plan -t mesh:4x4 -a rb -s 0,0 --tc 0 --json
jq_is "--tc 0: rb never wins" '[null,"u-torus"]' '[.cost.crossover, .cost.choice]'

# ---- text, --hops, --tree ------------------------------------------------

want=$(cat <<'GOLD'
topology     torus 4x4, bidirectional links, 16 nodes
algorithm    rb, one-port, stage-1 order ranges, routing BTR
source       (0,0)
message      4096 bytes: 4 units, 1024 bytes each
steps        6 (stage 1: 2; u-torus 4)
verified     cover, ports, contention (DOR and XY routes), Lemma 6, cost, node schedules

step 1: (0,0) -> (1,1)  bytes [2048,4096)  [2 hops]
step 2: (0,0) -> (2,2)  bytes [1024,2048)  [4 hops]
step 2: (1,1) -> (3,3)  bytes [3072,4096)  [4 hops]
step 3: (0,0) -> (3,0)  bytes [0,1024)  [1 hop]
step 3: (1,1) -> (2,1)  bytes [2048,3072)  [1 hop]
step 3: (2,2) -> (1,2)  bytes [1024,2048)  [1 hop]
step 3: (3,3) -> (0,3)  bytes [3072,4096)  [1 hop]
GOLD
)
succeeds "torus:4x4:bi text: plans" plan -t torus:4x4:bi -a rb -s 0,0
same "torus:4x4:bi text: header and stages 1 and V_2 (the wrap link for (0,0) -> (3,0))" "$want" "$(sed -n '1,14p' <<<"$OUT")"
want=$(cat <<'GOLD'
total        47 messages, 62 hops, 65536 bytes sent
receive      every node ends with all 4096 bytes; complete: average step 6.00, last 6
cost         rb       alpha 6, beta 2: 4996 us (plan: 6 steps, 8192 bytes in the largest messages)
             u-torus  alpha 4, beta 4: 8792 us
choice       rb (the rule takes rb from 301 bytes at Ts 150 us, Tc 0.5 us/byte)
GOLD
)
same "torus:4x4:bi text: totals, cost and choice" "$want" "$(tail -5 <<<"$OUT")"
same "torus:4x4:bi text: the exchange of H_1 as one line" \
	"step 6: (2,1) -> (2,0)  bytes [2048,4096)  [1 hop]" "$(grep -F 'step 6: (2,1) ->' <<<"$OUT")"

run plan -t mesh:4x4 -a rb -s 0,0 --order paper --length 4 --hops
same "--hops: the first transfer's route, highest dimension first on a mesh" \
	"step 1: (0,0) -> (2,2)  bytes [2,4)  [4 hops]
        (0,0) -> (1,0) -> (2,0) -> (2,1) -> (2,2)" "$(sed -n '8,9p' <<<"$OUT")"
same "--hops: an exchange with two ranges" \
	"step 6: (0,0) -> (0,1)  bytes [0,1)+[2,3)  [1 hop]
        (0,0) -> (0,1)" "$(grep -A1 -F 'step 6: (0,0) ->' <<<"$OUT")"
run plan -t torus:8x8:bi -a rb -s 2,5 --json
jq_is "JSON routes: hops + 1 nodes, from the sender to the receiver, one hop apart (torus)" 'true' \
	'[.transfers[] | (.route | length) == .hops + 1 and .route[0] == .from and .route[-1] == .to and
	  ([range(1; .route | length) as $i | [.route[$i - 1], .route[$i]] | transpose |
	    map((.[0] - .[1]) | if . < 0 then -. else . end) | map(select(. != 0)) |
	    length == 1 and (.[0] == 1 or .[0] == 7)] | all)] | all'

run plan -t mesh:4x4 -a rb -s 0,0 --order paper --length 4 --tree
same "--tree: RB is not a tree, a receive timeline instead" \
	"receive timeline (rb is not a tree: each node gets pieces from several senders):" \
	"$(grep -F 'receive timeline' <<<"$OUT")"
same "--tree: the source gets back what it forwarded" \
	"(0,0)  5<-(1,0) [2,3)  6<-(0,1) [1,2)+[3,4)  (the source)" "$(grep '^(0,0)  ' <<<"$OUT")"
same "--tree: (2,2) gets half the message in step 1, the rest in steps 5 and 6" \
	"(2,2)  1<-(0,0) [2,4)  5<-(3,2) [0,1)  6<-(2,3) [1,2)+[3,4)  whole after step 6" "$(grep '^(2,2)  ' <<<"$OUT")"
same "--tree: one line per node" 16 "$(grep -c '^([0-9],[0-9])  ' <<<"$OUT")"

# ---- JSON ------------------------------------------------------------------

succeeds "JSON: torus 8x4 plans" plan -t torus:8x4:bi -a rb -s 3,1 --order paper --length 1000 --json
jq -e . <<<"$OUT" >/dev/null
ok $? "JSON: valid (jq)"
jq_is "JSON: topology, algorithm, port, order, routing, source, length" \
	'[{"kind":"torus","dims":[8,4],"links":"bi","nodes":32},"rb","one","paper","BTR",[3,1],1000]' \
	'[.topology, .algorithm, .port, .order, .routing, .source, .length]'
jq_is "JSON: 8 steps (3m + k + 2^k - 1, m = 2, k = 1), 8 units, 1 stream" '[8,8,1]' '[.steps, .units, .streams]'
jq_is "JSON: every check passed (no Lemma 6 on a rect)" \
	'{"cover":"pass","ports":"pass","contention":"pass","lemma6":"n/a","cost":"pass","node_schedules":"pass"}' '.checks'
jq_is "JSON: transfer keys" '["bytes","from","hops","ranges","route","step","to"]' '.transfers[0] | keys'
jq_is "JSON: bytes is the sum of the ranges; stats add up" 'true' \
	'([.transfers[] | .bytes == ([.ranges[] | .[1] - .[0]] | add)] | all) and
	 (.stats.transfers == (.transfers | length)) and
	 (.stats.bytes == ([.transfers[].bytes] | add)) and
	 (.stats.hops == ([.transfers[].hops] | add)) and
	 (([.nodes[].received] | add) == .stats.bytes)'
jq_is "JSON: the source completes at 0, every other node by the last step" 'true' \
	'.steps as $s | .source as $src | [.nodes[] | if .node == $src then .complete == 0 else .complete >= 1 and .complete <= $s end] | all'
run plan -t mesh:4x4 -a rb -s 0,0 --json --tree --hops
jq -e . <<<"$OUT" >/dev/null
ok $? "JSON: --tree and --hops leave it valid"

# ---- errors ----------------------------------------------------------------

R=(plan -t mesh:8x8 -a rb -s 0,0)
fails "a side not a power of two" 1 '--algorithm rb on "torus:6x6:bi": every side must be a power of two (notes 3.8)' plan -t torus:6x6:bi -a rb -s 0,0
fails "a mesh side not a power of two" 1 '--algorithm rb on "mesh:8x12": every side must be a power of two (notes 3.8)' plan -t mesh:8x12 -a rb -s 0,0
fails "a one-way torus (the default links)" 1 'topology "torus:8x8": rb needs links both ways on a torus (notes 1.1): write torus:8x8:bi, or mesh:8x8' plan -t torus:8x8 -a rb -s 0,0
fails "a one-way torus (:uni)" 1 'topology "torus:4x4x4:uni": rb needs links both ways on a torus (notes 1.1): write torus:4x4x4:bi, or mesh:4x4x4' plan -t torus:4x4x4:uni -a rb -s 0,0,0
fails "unequal sides in 3D" 1 '--algorithm rb on "mesh:4x2x2": unequal sides only in 2D (notes 3.2)' plan -t mesh:4x2x2 -a rb -s 0,0,0
fails "a rect of more than 32:1" 1 '--algorithm rb on "mesh:2x128": a side more than 32 times the other: the reduce has 2^k - 1 steps' plan -t mesh:2x128 -a rb -s 0,0
fails "one dimension" 1 '--algorithm rb on "mesh:16": RB needs at least two dimensions' plan -t mesh:16 -a rb -s 0
fails "all-port on a rect" 1 '--port all on "mesh:4x8": all-port only with equal sides (notes 3.6.3)' plan -t mesh:4x8 -a rb -s 0,0 --port all
fails "too many nodes" 1 '--algorithm rb on "mesh:512x256": at most 65536 nodes here (the plan and its checks take O(nodes x units x steps)), not 131072' plan -t mesh:512x256 -a rb -s 0,0
fails "a mesh with link kinds" 1 'topology "mesh:8x8:bi": a mesh'"'"'s links are full duplex: mesh:K[xK...] takes no :uni or :bi' plan -t mesh:8x8:bi -a rb -s 0,0
fails "a bad mesh" 1 "topology \"mesh:8xy\": expected radices separated by 'x'" plan -t mesh:8xy -a rb -s 0,0
fails "an unknown topology" 1 'topology "ring:8": expected mesh:K[xK...] or torus:K[xK...]:bi' plan -t ring:8 -a rb -s 0
fails "rb on a cube" 2 '--algorithm rb needs a mesh or torus (--topology mesh:KxK or torus:KxK:bi; cube:N is torus:2x...x2:bi)' plan -t cube:3 -a rb -s 000
fails "rb on a switched cluster" 2 '--algorithm rb needs a mesh or torus (--topology mesh:KxK or torus:KxK:bi)' plan -t switch:/dev/null -a rb -s 0
fails "--dest" 2 '--algorithm rb is a broadcast to every node but the source: --dest cannot be given' "${R[@]}" -d 1,1
fails "--random" 2 '--algorithm rb is a broadcast to every node but the source: --random cannot be given' "${R[@]}" --random 3
fails "--dests-file" 2 '--algorithm rb is a broadcast to every node but the source: --dests-file cannot be given' "${R[@]}" -f /dev/null
fails "--seed" 2 '--algorithm rb is a broadcast to every node but the source: --seed cannot be given' "${R[@]}" --seed 2
fails "a stray argument" 2 'unexpected argument "1,1" (rb takes no destinations)' "${R[@]}" 1,1
fails "source out of range" 1 '--source: coordinate "8,0" out of range: dimension 1 has radix 8' plan -t mesh:8x8 -a rb -s 8,0
fails "source of the wrong arity (mesh)" 1 '--source: coordinate "0,0,0" has 3 elements but the mesh has 2 dimensions' plan -t mesh:8x8 -a rb -s 0,0,0
fails "source not a coordinate" 1 '--source: malformed coordinate "x": expected 2 numbers separated by commas' plan -t torus:8x8:bi -a rb -s x
fails "missing --source" 2 'missing --source' plan -t mesh:8x8 -a rb
fails "missing --topology" 2 'missing --topology (rb: mesh:KxK or torus:KxK:bi)' plan -a rb -s 0,0
fails "rb with a parameter" 1 'algorithm "rb:all-port" takes no parameter (the port model is --port one|all)' plan -t mesh:8x8 -a rb:all-port -s 0,0
fails "unknown port model" 1 'unknown port model "two" (one or all)' "${R[@]}" --port two
fails "unknown order" 1 'unknown stage-1 order "xy" (ranges or paper)' "${R[@]}" --order xy
fails "--length 0" 1 '--length "0": the message'"'"'s bytes, 1 to 1099511627776' "${R[@]}" --length 0
fails "--length too large" 1 '--length "1099511627777": the message'"'"'s bytes, 1 to 1099511627776' "${R[@]}" --length 1099511627777
fails "--ts with 4 decimals" 1 '--ts "1.2345": microseconds, at most 3 decimals, below 4294967.296' "${R[@]}" --ts 1.2345
fails "--tc negative" 1 '--tc "-1": microseconds per byte, at most 3 decimals, below 4294967.296' "${R[@]}" --tc -1
fails "--tc too large" 1 '--tc "4294967.296": microseconds per byte, at most 3 decimals, below 4294967.296' "${R[@]}" --tc 4294967.296
fails "--length twice" 2 '--length given twice' "${R[@]}" --length 1 --length 2
fails "--route" 2 '--route needs a switch topology (--topology switch:FILE)' "${R[@]}" --route strict
fails "unknown option" 2 'unknown option "--bogus"' "${R[@]}" --bogus
fails "flag given an argument" 2 'option "--tree" takes no argument' "${R[@]}" --tree=yes
fails "option missing its argument" 2 'option "--order" needs an argument' "${R[@]}" --order
fails "another algorithm on a mesh" 1 'topology "mesh:8x8": a mesh takes only --algorithm rb (u-torus needs a torus)' plan -t mesh:8x8 -a u-torus -s 0,0 -d 1,1
fails "a mesh without --algorithm" 2 'missing --algorithm (a mesh takes rb)' plan -t mesh:8x8 -s 0,0
fails "--length without rb" 2 '--length needs --algorithm rb' plan -t torus:8x8 -a u-torus -s 0,0 -d 1,1 --length 5

# the other planners are untouched
run plan -t torus:4x4 -a u-torus -s 0,0 -d 1,1 -d 2,2 --json
jq_is "u-torus still plans on a torus" '["u-torus",2]' '[.algorithm, .steps]'

run plan --help
[ "$RC" -eq 0 ] && grep -q -- '--algorithm rb' <<<"$OUT" && grep -q -- '--order ORDER' <<<"$OUT"
ok $? "plan --help shows the rb options"

done_testing
tap_exit
