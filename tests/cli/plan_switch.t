#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# Tests of `mcastctl plan --topology switch:FILE` (Libeskind-Hadas et al.
# (1998): up*/down* multicast on switched clusters) on the example topologies
# of docs/topologies: the paper's Figure 1 as the notes reconstruct it (hosts
# 0, 1, 2 are its vertices 1, 4, 6) and a two-level fat tree; the optimal
# step count, the routes' direction, JSON, --compare binomial and the error
# contract.  TAP output.
#
# MCASTCTL names the binary (default: build/mcastctl in the repository).
# Needs bash and jq.

# $ inside jq programs is meant literally.
# shellcheck disable=SC2016

# shellcheck source=tests/cli/planlib.sh
. "$(dirname "$0")/planlib.sh"

# ceil(log2 m)
ceil_log2() {
	local m=$1 s=0 c=1
	while [ "$c" -lt "$m" ]; do
		c=$((c * 2))
		s=$((s + 1))
	done
	echo "$s"
}

# all_but SRC H: the hosts 0..H-1 but SRC as a comma list
all_but() {
	seq 0 $(($2 - 1)) | grep -vx "$1" | paste -sd, -
}

FIG1=switch:docs/topologies/paper-fig1.topo
FAT=switch:docs/topologies/fat-tree-16.topo

# ---- the paper's Figure 1 -------------------------------------------

# Broadcasts from each host.  Hosts 0, 1, 2 are the paper's vertices 1, 4,
# 6; the closest-ID routes are the notes' (Sec. 4.3, 4.5): 1->4 takes the
# cross link 2-5 (1,2,5,4), 4->1 takes it up (4,5,2,1), 1->6 has no cross
# link on P1 and is the strict path 1,2,8,7,6.
fig1=()
fig1[0]=$(cat <<'GOLD'
order        by postorder ID, host^ID: 0^1 1^4 2^6
steps        2 (optimal: ceil(log2(2+1)) = 2)
verified     cover, routes, contention

step 1: host 0 -> host 2  [4 hops]
        h0 -up-> v2 -up-> v8 -down-> v7 -down-> h2
step 2: host 0 -> host 1  [3 hops]
        h0 -up-> v2 =down=> v5 -down-> h1
GOLD
)
fig1[1]=$(cat <<'GOLD'
order        by postorder ID, host^ID: 1^4 2^6 0^1
steps        2 (optimal: ceil(log2(2+1)) = 2)
verified     cover, routes, contention

step 1: host 1 -> host 0  [3 hops]
        h1 -up-> v5 =up=> v2 -down-> h0
step 2: host 1 -> host 2  [3 hops]
        h1 -up-> v5 -up-> v7 -down-> h2
GOLD
)
fig1[2]=$(cat <<'GOLD'
order        by postorder ID, host^ID: 2^6 0^1 1^4
steps        2 (optimal: ceil(log2(2+1)) = 2)
verified     cover, routes, contention

step 1: host 2 -> host 1  [3 hops]
        h2 -up-> v7 -down-> v5 -down-> h1
step 2: host 2 -> host 0  [4 hops]
        h2 -up-> v7 -up-> v8 -down-> v2 -down-> h0
GOLD
)
for src in 0 1 2; do
	succeeds "fig 1: broadcast from host $src plans" plan -t $FIG1 -s $src \
		--dest "$(all_but $src 3)" --hops
	same "fig 1: broadcast from host $src: order, steps, sends and routes" \
		"${fig1[$src]}" "$(sed -n '/^order/,/^total/p' <<<"$OUT" | head -n -2)"
done
run plan -t $FIG1 -s 0 -d 1,2
same "fig 1: header" "topology     switch docs/topologies/paper-fig1.topo: 5 switches, 3 hosts, 6 links
root         v8, tree height 3
algorithm    updown, route closest
source       host 0
m            3 (source and 2 destinations)
destinations 1 2" "$(head -n 6 <<<"$OUT")"
run plan -t $FIG1 -s 0 -d 1 --route strict --hops
same "fig 1: --route strict takes P1(1,4) = 1,2,8,7,5,4 (notes Sec. 4.2)" \
	"        h0 -up-> v2 -up-> v8 -down-> v7 -down-> v5 -down-> h1" \
	"$(grep -A1 '^step 1' <<<"$OUT" | tail -n 1)"
run plan -t $FIG1 -s 0 -d 1 --route farthest --hops
same "fig 1: --route farthest takes the cross link 2-5 as well" \
	"        h0 -up-> v2 =down=> v5 -down-> h1" \
	"$(grep -A1 '^step 1' <<<"$OUT" | tail -n 1)"
run plan -t $FIG1 -s 1 -d 0,2 --json
jq_is "fig 1 JSON: postorder IDs of the hosts are the paper's 4, 6, 1" \
	'[[1,4],[2,6],[0,1]]' '[.order[] | [.host, .id]]'
jq_is "fig 1 JSON: 1->0 goes up the cross link v5-v2 (link 4), then down" \
	'[[1,"v5","up","host",true],["v5","v2","up",4,false],["v2",0,"down","host",true]]' \
	'[.sends[0].route[] | [.from, .to, .dir, .link, .tree]]'

# ---- the fat tree -----------------------------------------------------

fat_0=$(cat <<'GOLD'
topology     switch docs/topologies/fat-tree-16.topo: 6 switches, 16 hosts, 8 links
root         spine0, tree height 2
algorithm    updown, route closest
source       host 0
m            16 (source and 15 destinations)
destinations 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15
order        by postorder ID, host^ID: 0^2 1^3 2^4 3^5 4^7 5^8 6^9 7^10 8^12 9^13 10^14 11^15 12^17 13^18 14^19 15^20
steps        4 (optimal: ceil(log2(15+1)) = 4)
verified     cover, routes, contention

step 1: host 0 -> host 8  covers hosts 8 9 10 11 12 13 14 15  [4 hops]
step 2: host 0 -> host 4  covers hosts 4 5 6 7  [4 hops]
step 2: host 8 -> host 12  covers hosts 12 13 14 15  [4 hops]
step 3: host 0 -> host 2  covers hosts 2 3  [2 hops]
step 3: host 4 -> host 6  covers hosts 6 7  [2 hops]
step 3: host 8 -> host 10  covers hosts 10 11  [2 hops]
step 3: host 12 -> host 14  covers hosts 14 15  [2 hops]
step 4: host 0 -> host 1  [2 hops]
step 4: host 2 -> host 3  [2 hops]
step 4: host 4 -> host 5  [2 hops]
step 4: host 6 -> host 7  [2 hops]
step 4: host 8 -> host 9  [2 hops]
step 4: host 10 -> host 11  [2 hops]
step 4: host 12 -> host 13  [2 hops]
step 4: host 14 -> host 15  [2 hops]

total        15 sends, 36 hops
receive      average step 3.27, last 4
GOLD
)
succeeds "fat tree: broadcast from host 0 plans" plan -t $FAT -s 0 --dest "$(all_but 0 16)"
same "fat tree: broadcast from host 0, the whole text output" "$fat_0" "$OUT"

fat_tree=$(cat <<'GOLD'
tree:
host 0
  1 -> host 8
    2 -> host 12
      3 -> host 14
        4 -> host 15
      4 -> host 13
    3 -> host 10
      4 -> host 11
    4 -> host 9
  2 -> host 4
    3 -> host 6
      4 -> host 7
    4 -> host 5
  3 -> host 2
    4 -> host 3
  4 -> host 1
GOLD
)
run plan -t $FAT -s 0 --dest "$(all_but 0 16)" --tree
same "fat tree --tree: who sends to whom" "$fat_tree" \
	"$(sed -n '/^tree:/,/^$/p' <<<"$OUT" | sed '$d')"

# Every host's broadcast takes the optimal 4 steps; so does every size of
# a random set from host 5.
bad=""
for src in $(seq 0 15); do
	run plan -t $FAT -s "$src" --dest "$(all_but "$src" 16)" --json
	got=$(jq -r '"\(.steps) \(.optimal_steps) \(.order | length) \(.order[0].host) \(.checks.contention)"' <<<"$OUT" 2>&1)
	[ "$RC" -eq 0 ] && [ "$got" == "4 4 16 $src pass" ] || bad+=" $src($got)"
done
same "fat tree: a broadcast from every host takes 4 = ceil(log2 16) steps" "" "$bad"
bad=""
for d in $(seq 1 15); do
	run plan -t $FAT -s 5 --random "$d" --seed "$d" --json
	got=$(jq -r '"\(.steps) \(.destinations)"' <<<"$OUT" 2>&1)
	[ "$got" == "$(ceil_log2 $((d + 1))) $d" ] || bad+=" d=$d($got)"
done
same "fat tree: d random destinations take ceil(log2(d+1)) steps, d = 1..15" "" "$bad"

# Up before down on every route, whatever the policy: no up hop after a
# down one, and each route runs from its sender to its receiver.
for pol in strict closest farthest; do
	run plan -t $FAT -s 6 --random 15 --hops --route $pol
	routes=$(grep -c '^        h' <<<"$OUT")
	mixed=$(grep '^        h' <<<"$OUT" | grep -cE '[-=]down[-=]>.*[-=]up[-=]>')
	ends=$(grep -E '^(step [0-9]|        h)' <<<"$OUT" | paste - - |
		awk -F'\t' '{ split($1, s, " "); n = split($2, r, " ")
			      if (r[1] != "h" s[4] || r[n] != "h" s[7]) print }' |
		wc -l)
	same "fat tree --hops --route $pol: 15 routes, up before down, sender to receiver" \
		"15 0 0" "$routes $mixed $ends"
done

run plan -t $FAT -s 3 -d 0,9,12,15 --json
jq -e . >/dev/null <<<"$OUT"
ok $? "fat tree --json: valid JSON"
jq_is "fat tree --json: topology and root" \
	'[{"kind":"switch","file":"docs/topologies/fat-tree-16.topo","switches":6,"hosts":16,"links":8,"height":2},"spine0"]' \
	'[.topology, .root]'
jq_is "fat tree --json: algorithm, route, source, m, destinations, steps" \
	'["updown","closest",3,5,4,3,3]' \
	'[.algorithm, .route, .source, .m, .destinations, .steps, .optimal_steps]'
jq_is "fat tree --json: order as host and postorder ID" \
	'[{"host":3,"id":5},{"host":9,"id":13},{"host":12,"id":17},{"host":15,"id":20},{"host":0,"id":2}]' .order
jq_is "fat tree --json: sends by step with their covers" \
	'[[1,3,15,[15,0]],[2,3,12,[12]],[2,15,0,[0]],[3,3,9,[9]]]' \
	'[.sends[] | [.step, .from, .to, .covers]]'
jq_is "fat tree --json: routes chain from sender to receiver, hops counted" 'true' \
	'[.sends[] | (.route[0].from == .from) and (.route[-1].to == .to) and
	  (.hops == (.route | length)) and
	  ([range(1; .route | length) as $i | .route[$i].from == .route[$i-1].to] | all)] | all'
jq_is "fat tree --json: every route up then down, host links at the ends" 'true' \
	'[.sends[] | ([.route[].dir] | join(" ") | test("down.*up") | not) and
	  .route[0].link == "host" and .route[-1].link == "host" and
	  ([.route[1:-1][].link | type] | unique == ["number"])] | all'
jq_is "fat tree --json: stats, checks, verified, no compare" \
	'[{"sends":4,"hops":16},{"cover":"pass","routes":"pass","contention":"pass"},true,false]' \
	'[(.stats | {sends, hops}), .checks, .verified, has("compare")]'

# ---- ways of giving destinations --------------------------------------

run plan -t $FAT -s 2 -d 7 -d 11 -d 1 --json
want=$OUT
run plan -t $FAT -s 2 -d 7,11,1 --json
same "a comma list gives the same plan as repeated --dest" "$want" "$OUT"
run plan -t $FAT -s 2 -d '7, 11' -d 1 --json
same "blanks in a comma list are allowed" "$want" "$OUT"
printf '# the destinations\n7   # one\n\n11, 1\n' >"$tmp/dests"
run plan -t $FAT -s 2 --dests-file "$tmp/dests" --json
same "--dests-file with comments and a comma list" "$want" "$OUT"
run plan -t $FAT -s 2 --dests-file - --json <"$tmp/dests"
same "--dests-file - reads stdin" "$want" "$OUT"
run plan -t $FAT -s 2 -a updown -d 7,11,1 --json
same "--algorithm updown is the default" "$want" "$OUT"
run plan -t $FAT -s 4 --random 6 --seed 9 --json
a=$OUT
run plan -t $FAT -s 4 --random 6 --seed 9 --json
same "--random 6 --seed 9 twice gives the same plan" "$a" "$OUT"
jq_is "--random 6: six distinct hosts, not the source" '[6,6,false]' \
	'[.destinations, ([.order[1:][].host] | unique | length), ([.order[1:][].host] | index(4) != null)]'
run plan -t $FAT -s 4 --random 15 --json
jq_is "--random 15: every other host" '[0,1,2,3,5,6,7,8,9,10,11,12,13,14,15]' \
	'[.order[1:][].host] | sort'

# ---- --compare binomial -----------------------------------------------

# On fat-tree-16 hosts are numbered leaf by leaf, so rank order is the
# postorder and the binomial tree is the updown plan.
run plan -t $FAT -s 0 --random 15 --compare binomial
same "compare on fat-tree-16: rank order = postorder, both contention-free" \
	"$(printf '%s\n' \
		'compare      binomial tree over rank order, route closest' \
		'rank order   0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15' \
		'updown       contention checker: pass' \
		'binomial     contention checker: pass' \
		'updown: contention-free in 4 steps; binomial: contention-free in 4 steps')" \
	"$(sed -n '/^compare/,$p' <<<"$OUT")"

# The same switches with hosts numbered round-robin over the leaves (as a
# rank placement may number them): rank order now crosses the spine in
# every step, postorder does not.
{
	grep -E '^(root|link) ' docs/topologies/fat-tree-16.topo
	for h in $(seq 0 15); do
		echo "host $h leaf$((h % 4))"
	done
} >"$tmp/rr.topo"
RR=switch:$tmp/rr.topo
compare_rr=$(cat <<'GOLD'
compare      binomial tree over rank order, route closest
rank order   0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15
updown       contention checker: pass
binomial     contention checker: step contention: two sends of one step share a channel
shared: leaf0 -> spine0 (up) by step 3 h0->h2, step 3 h4->h6, step 3 h8->h10, step 3 h12->h14, step 4 h0->h1, step 4 h4->h5, step 4 h8->h9 and step 4 h12->h13  [24 pairs]
shared: spine0 -> leaf1 (down) by step 4 h0->h1, step 4 h4->h5, step 4 h8->h9 and step 4 h12->h13  [6 pairs]
shared: leaf2 -> spine0 (up) by step 4 h2->h3, step 4 h6->h7, step 4 h10->h11 and step 4 h14->h15  [6 pairs]
shared: spine0 -> leaf2 (down) by step 3 h0->h2, step 3 h4->h6, step 3 h8->h10 and step 3 h12->h14  [6 pairs]
shared: spine0 -> leaf3 (down) by step 4 h2->h3, step 4 h6->h7, step 4 h10->h11 and step 4 h14->h15  [6 pairs]
updown: contention-free in 4 steps; binomial: 4 steps, 5 shared channels
GOLD
)
succeeds "compare on a round-robin fat tree plans" plan -t "$RR" -s 0 --random 15 --compare binomial
same "compare on a round-robin fat tree: binomial shares 5 channels, updown none" \
	"$compare_rr" "$(sed -n '/^compare/,$p' <<<"$OUT")"
grep -qxF 'order        by postorder ID, host^ID: 0^2 4^3 8^4 12^5 1^7 5^8 9^9 13^10 2^12 6^13 10^14 14^15 3^17 7^18 11^19 15^20' <<<"$OUT"
ok $? "round-robin fat tree: the updown order follows the leaves"
run plan -t "$RR" -s 0 --random 15 --compare binomial --json
jq_is "compare --json: updown passes, binomial does not" \
	'["pass",false,"step contention: two sends of one step share a channel",5,4]' \
	'[.checks.contention, .compare.contention_free, .compare.checks.contention,
	  .compare.shared_channels, .compare.steps]'
jq_is "compare --json: rank order and the binomial tree's first sends" \
	'[[0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15],[[1,0,8],[2,0,4],[2,8,12]]]' \
	'[.compare.order, [.compare.sends[0:3][] | [.step, .from, .to]]]'
jq_is "compare --json: the first shared channel and its 24 pairs" \
	'[{"from":"leaf0","to":"spine0","dir":"up","link":0,"tree":true},8,24,48]' \
	'[.compare.shared[0].channel, (.compare.shared[0].sends | length),
	  .compare.shared[0].pairs, (.compare.conflicts | length)]'
jq_is "compare --json: every conflict pairs two sends of the binomial tree" 'true' \
	'[.compare.sends[] | [.step, .from, .to]] as $s |
	 [.compare.conflicts[] | ([.a.step, .a.from, .a.to] as $a | $s | index([$a]) != null) and
	  ([.b.step, .b.from, .b.to] as $b | $s | index([$b]) != null) and .a.step <= .b.step] | all'

# ---- invalid input: one line on stderr, the right exit status ---------

B=(plan -t "$FAT" -s 0)
fails "destination past the last host" 1 'host 16 does not exist (hosts are 0..15)' "${B[@]}" -d 16
fails "destination not a number" 1 '"x" is not a host id (hosts are 0..15)' "${B[@]}" -d x
fails "destination a switch" 1 '"leaf0" is a switch, not a host (hosts are 0..15)' "${B[@]}" -d leaf0
fails "destination repeated" 1 'destination 1 given twice' "${B[@]}" -d 1,2 -d 1
fails "the source among the destinations" 1 'destination 0 is the source' "${B[@]}" -d 3,0
fails "an empty element in a comma list" 1 'an empty host id in a comma list' "${B[@]}" -d 1,,2
fails "source past the last host" 1 '--source: host 99 does not exist (hosts are 0..15)' plan -t $FAT -s 99 -d 1
fails "source a switch" 1 '--source: "spine0" is a switch, not a host (hosts are 0..15)' plan -t $FAT -s spine0 -d 1
printf '1\n2 # two\n2\n' >"$tmp/dup"
fails "dests file: a repeat is named by line" 1 "$tmp/dup:3: destination 2 given twice" "${B[@]}" -f "$tmp/dup"
printf '1\nspine1\n' >"$tmp/sw"
fails "dests file: a switch is named by line" 1 "$tmp/sw:2: \"spine1\" is a switch, not a host (hosts are 0..15)" "${B[@]}" -f "$tmp/sw"
: >"$tmp/empty"
fails "dests file: no destinations" 1 "\"$tmp/empty\" lists no destinations" "${B[@]}" -f "$tmp/empty"
fails "dests file: missing" 1 "cannot open \"$tmp/none\": No such file or directory" "${B[@]}" -f "$tmp/none"
fails "--random past the other hosts" 1 '--random 16: the topology has only 15 hosts besides the source' "${B[@]}" --random 16
fails "--random 0" 1 '--random 0: need at least one destination' "${B[@]}" --random 0
printf 'link a b\nhost 0 a\nhost 1 b\nlink b\n' >"$tmp/bad.topo"
fails "topology file error: the parser's file:line message" 1 "$tmp/bad.topo:4: link needs two switch names (link A B)" \
	plan -t "switch:$tmp/bad.topo" -s 0 -d 1
fails "topology file missing" 1 "$tmp/none.topo: No such file or directory" plan -t "switch:$tmp/none.topo" -s 0 -d 1
fails "topology switch: without a file" 1 'topology "switch:" names no file (switch:FILE)' plan -t switch: -s 0 -d 1
fails "unknown algorithm" 1 'unknown algorithm "bogus" (a switch topology takes updown)' "${B[@]}" -d 1 -a bogus
fails "unknown route policy" 1 'unknown route policy "shortest" (strict, closest or farthest)' "${B[@]}" -d 1 --route shortest
fails "unknown --compare" 1 'cannot compare with "separate" (binomial)' "${B[@]}" -d 1 --compare separate
fails "a torus algorithm on a switch topology" 2 '--algorithm u-torus is for tori: a switch topology takes updown' "${B[@]}" -d 1 -a u-torus
fails "mu-torus:4 on a switch topology" 2 '--algorithm mu-torus:4 is for tori: a switch topology takes updown' "${B[@]}" -d 1 -a mu-torus:4
fails "updown on a torus" 2 '--algorithm updown needs a switch topology (--topology switch:FILE)' plan -t torus:4x4 -a updown -s 0,0 -d 1,1
fails "--route on a torus" 2 '--route needs a switch topology (--topology switch:FILE)' plan -t torus:4x4 -a u-torus -s 0,0 -d 1,1 --route strict
fails "--compare on a torus" 2 '--compare needs a switch topology (--topology switch:FILE)' plan -t torus:4x4 -a u-torus -s 0,0 -d 1,1 --compare binomial
fails "missing --source" 2 'missing --source' plan -t $FAT -d 1
fails "no destinations" 2 'no destinations: give --dest, --dests-file or --random' "${B[@]}"
fails "--dest and --random" 2 'give only one of --dest, --dests-file and --random' "${B[@]}" -d 1 --random 2
fails "--seed without --random" 2 '--seed needs --random' "${B[@]}" -d 1 --seed 3
fails "--topology twice" 2 '--topology given twice' "${B[@]}" -d 1 -t $FIG1
fails "--route twice" 2 '--route given twice' "${B[@]}" -d 1 --route strict --route closest
fails "unknown option" 2 'unknown option "--bogus"' "${B[@]}" -d 1 --bogus
fails "ambiguous option" 2 'ambiguous option "--r"' "${B[@]}" --r 3
fails "flag given an argument" 2 'option "--hops" takes no argument' "${B[@]}" -d 1 --hops=yes
fails "option missing its argument" 2 'option "--route" needs an argument' "${B[@]}" -d 1 --route
fails "a stray argument" 2 'unexpected argument "2" (one host or comma list per --dest)' "${B[@]}" -d 1 2

# ---- help -------------------------------------------------------------

run plan --help
[ "$RC" -eq 0 ] && grep -q -- '--topology switch:FILE' <<<"$OUT" &&
	grep -q -- '--compare binomial' <<<"$OUT" && grep -q -- '--route POLICY' <<<"$OUT"
ok $? "plan --help shows the switch options"
run plan -t $FAT --help
[ "$RC" -eq 0 ] && [ -z "$ERR" ] && grep -q -- '--topology switch:FILE' <<<"$OUT"
ok $? "plan --help with a switch topology"

done_testing
tap_exit
