#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# Tests of `mcastctl plan --topology cube:N --algorithm ring` (Lin and
# Chen (1996): a group-multicast ring of pairwise link-disjoint E-cube
# paths): the notes' worked ring of 4.8 as golden text and JSON (ring,
# merges, paths, counts, the RGC comparison), the 4.9-4.10 rings, the
# checks of given rings (--ring-order) with 4.11's two contending ones,
# random sets checked by jq (no arc on two paths; a reversed ring's shared
# arcs counted from its paths = Corollary 1's count), and the error
# contract.  TAP output.
#
# MCASTCTL names the binary (default: build/mcastctl in the repository).
# Needs bash and jq.

# $ inside jq programs is meant literally.
# shellcheck disable=SC2016


# shellcheck source=tests/cli/planlib.sh
. "$(dirname "$0")/planlib.sh"

# JQ filters over a ring plan's JSON:
# every directed link (node/dim) of the paths at most once
NOARC2='[.paths[].arcs[] | "\(.node)/\(.dim)"] | length == (unique | length)'
# the shared (pair, link)s of a given ring, counted from its paths' arcs
SHARED='[.given.paths | to_entries[] | .key as $i | .value.arcs[] | "\(.node)/\(.dim)"] | group_by(.) | map(length * (length - 1) / 2) | add // 0'
# each path's hops = its arcs, and each arc leaves the node the last one reached
WALK='[.paths[] | (.hops == (.arcs | length))] | all'

R48=(plan -t cube:4 -a ring -s 1101 -d 0101,0000 -d 1111,0010,0110,1010,0011)

# ---- the worked example of the notes' 4.8 ------------------------------

want=$(cat <<'GOLD'
topology     cube:4, 16 nodes, E-cube routing (highest dimension first)
algorithm    ring (group multicast, Lin and Chen: bottom-up merges)
members      8: 0000 0010 0011 0101 0110 1010 1101 1111
ring         0000 0011 0010 1111 1101 1010 0101 0110
verified     one cycle through the members; 8 paths, 28 pairs, no shared link

0000 -> 0011  hops 2  path 0000 0010 0011
        0000 -1-> 0010 -0-> 0011
0011 -> 0010  hops 1  path 0011 0010
        0011 -0-> 0010
0010 -> 1111  hops 3  path 0010 1010 1110 1111
        0010 -3-> 1010 -2-> 1110 -0-> 1111
1111 -> 1101  hops 1  path 1111 1101
        1111 -1-> 1101
1101 -> 1010  hops 3  path 1101 1001 1011 1010
        1101 -2-> 1001 -1-> 1011 -0-> 1010
1010 -> 0101  hops 4  path 1010 0010 0110 0100 0101
        1010 -3-> 0010 -2-> 0110 -1-> 0100 -0-> 0101
0101 -> 0110  hops 2  path 0101 0111 0110
        0101 -1-> 0111 -0-> 0110
0110 -> 0000  hops 2  path 0110 0010 0000
        0110 -2-> 0010 -1-> 0000

merges (k, subcube, A of its lower half, C of its upper, Asterisk(A down C),
        then A's and C's new successors):
  k 1  001y  A 0010  C 0011  asterisk 4  0010 -> 0011, 0011 -> 0010
  k 2  00yy  A 0000  C 0010  asterisk 3  0000 -> 0011, 0010 -> 0000
  k 2  01yy  A 0101  C 0110  asterisk 4  0101 -> 0110, 0110 -> 0101
  k 2  11yy  A 1101  C 1111  asterisk 3  1101 -> 1111, 1111 -> 1101
  k 3  0yyy  A 0010  C 0110  asterisk 2  0010 -> 0101, 0110 -> 0000
  k 3  1yyy  A 1010  C 1101  asterisk 4  1010 -> 1111, 1101 -> 1010
  k 4  yyyy  A 0010  C 1010  asterisk 1  0010 -> 1111, 1010 -> 0101

total        8 paths, 18 hops, longest 4
multicast    7 rounds of 8 concurrent path transfers: 56 transfers, 126 link traversals
rgc ring     16 hops along the Gray cycle, longest gap 4; order 0000 0011 0010 0110 0101 1101 1111 1010
GOLD
)
succeeds "4.8: a ring over 8 members" "${R48[@]}" --hops
same "4.8: the ring [0,3,2,15,13,10,5,6], its 8 paths, the merge table, 18 hops (text, --hops)" "$want" "$OUT"

run "${R48[@]}" --json
jq_is "4.8 JSON: members sorted, the ring from the smallest" \
	'{"m":["0000","0010","0011","0101","0110","1010","1101","1111"],"r":["0000","0011","0010","1111","1101","1010","0101","0110"]}' \
	'{m: .members, r: .ring}'
jq_is "4.8 JSON: the merges (k, A, C, old succ[A], old succ[C], Asterisk)" \
	'[[1,"001y","0010","0011","0010","0011",4],[2,"00yy","0000","0010","0000","0011",3],[2,"01yy","0101","0110","0101","0110",4],[2,"11yy","1101","1111","1101","1111",3],[3,"0yyy","0010","0110","0000","0101",2],[3,"1yyy","1010","1101","1010","1111",4],[4,"yyyy","0010","1010","0101","1111",1]]' \
	'[.merges[] | [.k, .subcube, .a, .c, .old_succ_a, .old_succ_c, .asterisk]]'
jq_is "4.8 JSON: 0010 -> 1111 over dims 3, 2, 0" \
	'[["0010",3],["1010",2],["1110",0]]' '[.paths[] | select(.from == "0010") | .arcs[] | [.node, .dim]]'
jq_is "4.8 JSON: hops per path" '[2,1,3,1,3,4,2,2]' '[.paths[].hops]'
jq_is "4.8 JSON: the counts: 8 paths, 18 hops, longest 4, 7 rounds, 56 transfers, 126 link traversals" \
	'{"paths":8,"hops":18,"max_hop":4,"rounds":7,"transfers":56,"link_transfers":126}' '.stats'
jq_is "4.8 JSON: verified, no conflict, no arc twice" '[true,0,"pass","pass",true]' \
	"[.verified, .conflicts, .checks.cycle, .checks.disjoint, ($NOARC2)]"
jq_is "4.8 JSON: the RGC ring: 16 hops along the Gray cycle, longest gap 4" \
	'{"ring":["0000","0011","0010","0110","0101","1101","1111","1010"],"hops":16,"max_gap":4}' '.rgc'
jq_is "4.8 JSON: no given ring" 'null' '.given'

# ---- 4.9 and 4.10 ----------------------------------------------------------

run plan -t cube:3 -a ring -d 001,100,110 --json
jq_is "4.9: {1,4,6}: ring [1,6,4], merges (2,4,6) then (3,1,4), 6 hops" \
	'[["001","110","100"],[[2,"100","110"],[3,"001","100"]],6]' '[.ring, [.merges[] | [.k, .a, .c]], .stats.hops]'
jq_is "4.9: the RGC ring visits them 1, 6, 4: 8 hops, longest gap 3" '[["001","110","100"],8,3]' '[.rgc.ring, .rgc.hops, .rgc.max_gap]'
run plan -t cube:3 -a ring --random 8 --json
jq_is "4.10: the full 3-cube: [0,7,6,5,4,3,2,1], 14 hops" \
	'[["000","111","110","101","100","011","010","001"],14]' '[.ring, .stats.hops]'
run plan -t cube:4 -a ring --random 16 --seed 9 --json
jq_is "4.10: the full 4-cube: 30 hops, longest 4, verified" '[30,4,true]' '[.stats.hops, .stats.max_hop, .verified]'
run plan -t cube:4 -a ring -d 1001 -s 0101 --json
jq_is "4.10: {5,9}: 0101 -> 1001 and back over dims 3, 2 both ways (Theorem 4)" \
	'[["0101","1001"],[[3,2],[3,2]]]' '[.ring, [.paths[] | [.arcs[].dim]]]'
run plan -t cube:3 -a ring -d 111 --json
jq_is "4.10: {7}: one member, no path, no merge, nothing to send" \
	'[["111"],[],[],0,0]' '[.ring, .paths, .merges, .stats.paths, .stats.transfers]'
run plan -t cube:3 -a ring -d 111
same "4.10: {7} in text" "(one member: no paths)" "$(sed -n 7p <<<"$OUT")"
run plan -t cube:3 -a ring -d 110,010,001,000 --json
jq_is "4.10: {0,1,2,6}: ring [0,2,6,1]" '["000","010","110","001"]' '.ring'

# ---- given rings (--ring-order) ----------------------------------------

want=$(cat <<'GOLD'
given        000 101 110 001 010

000 -> 101  hops 2  path 000 100 101
101 -> 110  hops 2  path 101 111 110
110 -> 001  hops 3  path 110 010 000 001
001 -> 010  hops 2  path 001 011 010
010 -> 000  hops 1  path 010 000

given total  5 paths, 10 hops, longest 3
contention   1 shared link (Corollary 1) between 1 pair of paths:
  110 -> 001 and 010 -> 000 share 010 -> 000 (dimension 1)
GOLD
)
succeeds "4.11(b): a reversed ring is checked, exit 0" plan -t cube:3 -a ring -d 000,001,010,101,110 --ring-order=000,101,110,001,010
same "4.11(b): the ring built is [0,2,1,6,5]" "ring         000 010 001 110 101" "$(grep '^ring ' <<<"$OUT")"
same "4.11(b): its reversal [0,5,6,1,2] shares 010 -> 000 between 6 -> 1 and 2 -> 0" "$want" "$(sed -n '/^given/,$p' <<<"$OUT")"
run plan -t cube:3 -a ring -d 000,001,010,101,110 --ring-order=000,101,110,001,010 --json
jq_is "4.11(b) JSON: given: 1 conflict, not disjoint, the pair and the link" \
	'[1,false,[{"paths":[["110","001"],["010","000"]],"links":[{"node":"010","dim":1}]}]]' '[.given.conflicts, .given.disjoint, .given.shared]'
jq_is "4.11(b) JSON: the given ring's shared arcs counted from its paths: 1" '1' "$SHARED"
run plan -t cube:3 -a ring --ring-order=000,010,001,110
same "4.11(a): a non-minimal merge [0,2,1,6]: 010 -> 000 shared by 2 -> 1 and 6 -> 0" \
	"  010 -> 001 and 110 -> 000 share 010 -> 000 (dimension 1)" "$(tail -1 <<<"$OUT")"
run plan -t cube:3 -a ring --ring-order=000,110,010,001
same "4.11(a): the other non-minimal choice [0,6,2,1] is disjoint" \
	"contention   none: the given ring's paths are pairwise link-disjoint" "$(tail -1 <<<"$OUT")"
run plan -t cube:4 -a ring --ring-order=0001,1000,0110,1111 --json
jq_is "--ring-order alone names the members, in any order" '[["0001","0110","1000","1111"],4]' '[.members, .m]'
run plan -t cube:3 -a ring --ring-order=000,001 --json
jq_is "--ring-order: two members are always disjoint (Theorem 4)" '[0,true]' '[.given.conflicts, .given.disjoint]'
run plan -t cube:4 -a ring -s 0110 --ring-order=1111,0110,0001 --json
jq_is "--ring-order with --source alone: the source is among them" '["0001","0110","1111"]' '.members'
run plan -t cube:4 -a ring -d 0001,0010 --ring-order 0010,0001
ok $RC "--ring-order LIST (separate argument) at the end"
run plan -t cube:4 -a ring -d 0001,0010 --ring-order 0010,0001 --json
[ "$RC" -eq 0 ] && [ "$(jq -c '.given.ring' <<<"$OUT" 2>/dev/null)" == '["0010","0001"]' ]
ok $? "--ring-order LIST followed by another option (every planner's prescan knows it)"

# ---- random sets ---------------------------------------------------------

for spec in "6 64 1" "8 100 2" "10 300 7" "12 1000 3"; do
	read -r dim m seed <<<"$spec"
	run plan -t "cube:$dim" -a ring --random "$m" --seed "$seed" --json
	jq_is "cube:$dim, $m random members (seed $seed): verified, $m paths, $((m - 1)) merges, no arc twice, hops = arcs" \
		"[true,0,$m,$((m - 1)),true,true]" "[.verified, .conflicts, (.paths | length), (.merges | length), ($NOARC2), ($WALK)]"
	jq_is "cube:$dim, $m members: every hop at most $dim, m(m-1) = $((m * (m - 1))) transfers" \
		"[true,$((m * (m - 1)))]" "[([.paths[].hops] | max) <= $dim, .stats.transfers]"
	# the reversed ring: Corollary 1's count = the arcs its paths share
	rev=$(jq -r '[.ring[0]] + (.ring[1:] | reverse) | join(",")' <<<"$OUT")
	run plan -t "cube:$dim" -a ring --random "$m" --seed "$seed" --json "--ring-order=$rev"
	got=$(jq -c "[.given.conflicts, ($SHARED), .given.disjoint == (.given.conflicts == 0), (.given.shared | length > 0) == (.given.conflicts > 0)]" <<<"$OUT" 2>&1)
	want=$(jq -c '[.given.conflicts, .given.conflicts, true, true]' <<<"$OUT" 2>&1)
	same "cube:$dim, $m members reversed: Corollary 1 = shared arcs of its paths ($(jq '.given.conflicts' <<<"$OUT"))" "$want" "$got"
done
run plan -t cube:8 -a ring -s 10101010 --random 40 --seed 5 --json
jq_is "--source and --random 40: 41 members, the source among them" '[41,true]' '[.m, (.members | index("10101010") != null)]'
printf '# members\n0001\n0010, 0100\n\n1000\n' >"$tmp/members"
run plan -t cube:4 -a ring -f "$tmp/members" --json
jq_is "--dests-file" '["0001","0010","0100","1000"]' '.ring'
run plan -t cube:4 -a ring -f - --json <"$tmp/members"
jq_is "--dests-file - (stdin)" '4' '.m'

# ---- errors ----------------------------------------------------------------

B=(plan -t cube:4 -a ring)
fails "ring on a torus" 2 '--algorithm ring needs a cube topology (--topology cube:N)' plan -t torus:4x4 -a ring -s 0,0 -d 1,1
fails "--ring-order with rb" 2 "--ring-order needs --algorithm ring (--topology cube:N)" plan -t torus:4x4:bi -a rb -s 0,0 --ring-order 0,1
fails "no members" 2 'no members: give --dest, --dests-file, --random or --ring-order' "${B[@]}"
fails "a member twice" 1 'member 0011 given twice' "${B[@]}" -d 0011 -d 0001,0011
fails "the source again as a member" 1 'member 0001 given twice' "${B[@]}" -s 0001 -d 0010,0001
fails "a member outside the cube" 1 '"00001" is not a node of cube:4 (4 binary digits, highest bit first)' "${B[@]}" -d 00001
fails "a bad source" 1 '--source: "2" is not a node of cube:4 (4 binary digits, highest bit first)' "${B[@]}" -s 2 -d 0001
fails "an empty list item" 1 'an empty address in a comma list' "${B[@]}" -d 0001,,0011
fails "--random too many" 1 '--random 17: the cube has only 16 nodes' "${B[@]}" --random 17
fails "--random too many besides the source" 1 '--random 16: the cube has only 15 nodes besides the source' "${B[@]}" -s 0000 --random 16
fails "--random 0" 1 '--random 0: need at least one member' "${B[@]}" --random 0
fails "more than 65536 members" 1 'a ring of 70000 members: at most 65536 (the merge is O(m^2))' plan -t cube:17 -a ring --random 70000
printf '# none\n\n' >"$tmp/empty"
fails "--dests-file with no member" 1 "\"$tmp/empty\" lists no members" "${B[@]}" -f "$tmp/empty"
fails "--dest and --random" 2 'give only one of --dest, --dests-file and --random' "${B[@]}" -d 0001 --random 2
fails "--seed without --random" 2 '--seed needs --random' "${B[@]}" -d 0001 --seed 3
fails "--port on a ring" 2 '--port does not apply to --algorithm ring (every member sends on one path and receives on one)' "${B[@]}" -d 0001 --port one
fails "--tree on a ring" 2 '--tree does not apply to --algorithm ring (--hops shows its merges)' "${B[@]}" -d 0001 --tree
fails "--ring-order on a tree algorithm" 2 '--ring-order needs --algorithm ring' plan -t cube:4 -a w-sort -s 0000 -d 0001 --ring-order=0000,0001
fails "--ring-order twice" 2 '--ring-order given twice' "${B[@]}" --ring-order=0001 --ring-order=0010
fails "--ring-order: a stranger" 1 '--ring-order: 0100 is not a member' "${B[@]}" -d 0001,0010 --ring-order=0001,0100
fails "--ring-order: a node twice" 1 '--ring-order: node 0001 given twice' "${B[@]}" --ring-order=0001,0010,0001
fails "--ring-order: a member left out" 1 '--ring-order misses member 0100' "${B[@]}" -d 0001,0010,0100 --ring-order=0010,0001
fails "--ring-order: the source left out" 1 '--ring-order misses member 0011' "${B[@]}" -s 0011 --ring-order=0001,0010
fails "--ring-order: a bad address" 1 '--ring-order: "01" is not a node of cube:4 (4 binary digits, highest bit first)' "${B[@]}" --ring-order=0001,01
fails "--ring-order: an empty item" 1 '--ring-order: an empty address in a comma list' "${B[@]}" --ring-order=0001,
fails "--compare on a ring" 2 '--compare needs a switch topology (--topology switch:FILE)' "${B[@]}" -d 0001 --compare binomial

run plan --help
[ "$RC" -eq 0 ] && grep -q -- '--algorithm ring' <<<"$OUT" && grep -q -- '--ring-order' <<<"$OUT"
ok $? "plan --help shows the ring options"

done_testing
tap_exit
