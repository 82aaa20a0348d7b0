#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# mcastsim steps: U-torus step counts against their closed form, link
# sharing on a torus small enough to work out by hand, the notes'
# reproduction of Figs 4.12-4.17 (Robinson (1994), Sec. 4.5), and the
# error contract.  TAP output.
#
# MCASTSIM names the binary (default: build/mcastsim in the repository).

# shellcheck source=tests/cli/simlib.sh
. "$(dirname "$0")/simlib.sh"

# U-torus's one-port halving, worked out apart from the planner: a holder
# of a piece of len nodes that received in step t keeps ceil(len/2) and
# sends the rest to its first node in step t+1, then goes on with what it
# kept.  Prints the mean over the m-1 destinations and the maximum of
# their receive steps, as the CSV prints them.
closed_form() {	# closed_form M
	awk -v m="$1" '
		function sum(len, t,   keep) {
			if (len <= 1)
				return 0
			keep = int((len + 1) / 2)
			return (t + 1) + sum(len - keep, t + 1) + sum(keep, t + 1)
		}
		function last(len, t,   keep, a, b) {
			if (len <= 1)
				return t
			keep = int((len + 1) / 2)
			a = last(len - keep, t + 1)
			b = last(keep, t + 1)
			return a > b ? a : b
		}
		BEGIN { printf "%.4f,%.4f\n", sum(m, 0) / (m - 1), last(m, 0) }'
}

# The recursion against the notes' closed form for m = 2^j, (j-1) 2^j + 1,
# and their table.
bad_cf=
for j in 1 2 3 4 5 6 7 8 9; do
	m=$((1 << j))
	want=$(awk -v j="$j" -v m="$m" 'BEGIN { printf "%.4f,%.4f\n", ((j - 1) * m + 1) / (m - 1), j }')
	[ "$(closed_form "$m")" = "$want" ] || bad_cf+=" $m"
done
for pair in 8:2.4286,3.0000 24:3.8696,5.0000 40:4.5385,6.0000 \
	    192:6.7068,8.0000 448:7.8770,9.0000 512:8.0176,9.0000; do
	[ "$(closed_form "${pair%%:*}")" = "${pair#*:}" ] || bad_cf+=" ${pair%%:*}"
done
[ -z "$bad_cf" ]
ok $? "the halving recursion gives (j-1) 2^j + 1 and the notes' table (wrong for:$bad_cf)"

# The ideal steps are the closed form exactly, whatever the set, on 2D and
# 3D tori, uni- and bidirectional; separate addressing is m/2 and m-1.
ideal_ok() {	# ideal_ok TOPOLOGY MLIST
	local line m want bad=
	run steps -t "$1" -m "$2" -n 25 --csv
	[ "$RC" = 0 ] || return 1
	[ "$(grep -c . <<<"$OUT")" = $(($(tr , '\n' <<<"$2" | grep -c .) + 1)) ] || return 1
	while IFS= read -r line; do
		m=$(cut -d, -f4 <<<"$line")
		want=$(closed_form "$m")
		[ "$(cut -d, -f6,7 <<<"$line")" = "$want" ] || bad+=" m=$m"
		want=$(awk -v m="$m" 'BEGIN { printf "%.4f,%.4f\n", m / 2, m - 1 }')
		[ "$(cut -d, -f12,13 <<<"$line")" = "$want" ] || bad+=" separate m=$m"
	done < <(tail -n +2 <<<"$OUT")
	[ -z "$bad" ] || echo "# $1:$bad"
	[ -z "$bad" ]
}
for topo in torus:16x16 torus:16x16:bi torus:8x8x8 torus:8x8x8:bi; do
	ideal_ok "$topo" 2,3,5,8,13,24,37,64,100,128,200,256
	ok $? "$topo: ideal mean/max are the closed form for 12 sizes, separate m/2 and m-1"
done
ideal_ok torus:8x8x8 511,512
ok $? "torus:8x8x8: ideal for m = 511 and the broadcast m = 512"

# Sharing never shortens: shared >= ideal, and on a bidirectional torus
# shared3 >= shared (a link keyed by direction is part of one keyed by the
# neighbour pair) and Type 2 <= Type 1; on a unidirectional one shared3
# and Type 2 are 0.
order_ok() {	# order_ok TOPOLOGY MLIST
	run steps -t "$1" -m "$2" -n 40 --csv
	[ "$RC" = 0 ] && tail -n +2 <<<"$OUT" | awk -F, '
		$6 > $8 || $7 > $9 { bad = 1 }
		$3 == "bi" && ($8 > $10 || $9 > $11 || $15 > $14) { bad = 1 }
		$3 == "uni" && ($10 != 0 || $11 != 0 || $15 != 0) { bad = 1 }
		END { exit bad || NR == 0 }'
}
for topo in torus:16x16 torus:16x16:bi torus:8x8x8 torus:8x8x8:bi torus:5x7:bi cube:6; do
	order_ok "$topo" 2,4,9,17,30,33
	ok $? "$topo: shared >= ideal; on bi shared3 >= shared and type2 <= type1"
done

# By hand: a broadcast on the 3x4 torus (k1 = 3 rows, k0 = 4 columns,
# node 4y + x).  From node 0 the order is 0..11; the halving sends
# 0->6 in step 1; 0->3, 6->9 in step 2; 0->2, 6->8, 3->5, 9->11 in step 3;
# 0->1, 6->7, 3->4, 9->10 in step 4 (steps summing to 33: 3.0000 / 4).
# Unidirectional (UTR, rows first, +1 only): in step 3, 6->8 goes
# 6, 10, 11, 8 and 9->11 goes 9, 10, 11: both use the link 10->11, so both
# take 2 steps (Type 1 = 2); no other pair of one step shares a link.
# Re-timed: 6 at 1; 3 at 2, 2 at 3, 1 at 4 (the source); 9 at 2, 8 at
# 2+2 = 4, 7 at 5 (node 6); 5 at 3, 4 at 4 (node 3); 11 at 2+2 = 4, 10 at 5
# (node 9): the sum is 37, 37/11 = 3.3636, the last at 5.
# Bidirectional (BTR): 6->8 goes 6, 10, 9, 8 (-1) and 9->11 goes 9, 10, 11
# (+1): opposite directions, so no Type 1 and shared is the ideal; they
# share the pair 9-10, so with 3-way multiplexing both take 2 steps:
# shared3 is 37/11 and 5, and no link carries three (Type 2 = 0).
# Every source gives the same figures, so any number of trials does.
run steps -t torus:3x4 -m 12 -n 30 --csv
line=$(sed -n 2p <<<"$OUT")
[ "$RC" = 0 ] &&
	[ "$line" = "torus:3x4,12,uni,12,30,3.0000,4.0000,3.3636,5.0000,0.0000,0.0000,6.0000,11.0000,2.0000,0.0000" ]
ok $? "3x4 broadcast, unidirectional: two unicasts share 10->11, 3.3636 / 5 (got: $line)"
run steps -t torus:3x4:bi -m 12 -n 30 --csv
line=$(sed -n 2p <<<"$OUT")
[ "$RC" = 0 ] &&
	[ "$line" = "torus:3x4,12,bi,12,30,3.0000,4.0000,3.0000,4.0000,3.3636,5.0000,6.0000,11.0000,0.0000,0.0000" ]
ok $? "3x4 broadcast, bidirectional: no Type 1, shared3 3.3636 / 5 (got: $line)"

# On a ring, the pieces are arcs of the ring and a unidirectional unicast
# stays inside its sender's: nothing is ever shared.
run steps -t torus:64 -m 5,20,64 -n 30 --csv
[ "$RC" = 0 ] && [ "$(grep -c . <<<"$OUT")" = 4 ] &&
	tail -n +2 <<<"$OUT" | awk -F, '$6 != $8 || $7 != $9 || $14 != 0 { exit 1 }'
ok $? "unidirectional ring: shared is the ideal, no Type 1"

# The notes' eight configurations (one-pass reproduction, 400 sets):
# mean and maximum within 3% of theirs; Type 1 and Type 2 on 64x64.
notes_ok() {	# notes_ok TOPOLOGY M AVG MAX
	run steps -t "$1" -m "$2" -n 400 --csv
	[ "$RC" = 0 ] && tail -n +2 <<<"$OUT" | awk -F, -v a="$3" -v x="$4" '
		function off(v, w) { return (v > w ? v - w : w - v) / w }
		off($8, a) > 0.03 || off($9, x) > 0.03 { bad = 1 }
		END { exit bad || NR != 1 }'
}
while read -r topo m avg max; do
	notes_ok "$topo" "$m" "$avg" "$max"
	ok $? "$topo, m=$m: shared within 3% of the notes' $avg / $max (got $(cut -d, -f8,9 <<<"$(tail -n 1 <<<"$OUT")"))"
done <<'EOF'
torus:32x32 64 5.19 6.97
torus:32x32:bi 64 5.12 6.59
torus:8x8x8 64 5.15 6.75
torus:8x8x8:bi 64 5.10 6.17
torus:64x64 512 8.34 11.7
torus:64x64:bi 512 8.18 11.1
torus:16x16x16 512 8.13 10.5
torus:16x16x16:bi 512 8.05 10.1
EOF
run steps -t torus:64x64:bi -m 512 -n 400 --csv
t1=$(cut -d, -f14 <<<"$(tail -n 1 <<<"$OUT")")
t2=$(cut -d, -f15 <<<"$(tail -n 1 <<<"$OUT")")
[ "$RC" = 0 ] && awk -v a="$t1" -v b="$t2" 'BEGIN { exit !(a >= 30 && a <= 45 && b > 0 && b < 2) }'
ok $? "64x64 bi, m=512: Type 1 about 37, Type 2 above 0 and below 2 (got $t1, $t2)"

# Threads share the trials out, not the results.
run steps -t torus:12x12:bi -m 7,50,144 -n 37 --csv -j 1
one=$OUT
run steps -t torus:12x12:bi -m 7,50,144 -n 37 --csv -j 5
[ "$RC" = 0 ] && [ -n "$one" ] && [ "$OUT" = "$one" ]
ok $? "-j 1 and -j 5 print the same figures"

# The table: a header and a line per m.
run steps -t torus:8x8:bi -m 4,16 -n 10
[ "$RC" = 0 ] && grep -q '^ *m  *ideal  *shared  *shared3  *separate  *type1  *type2$' <<<"$OUT" &&
	[ "$(grep -c '^ *[0-9]' <<<"$OUT")" = 2 ]
ok $? "the table has its header and one line per m"

# The error contract: exit 2 and a message that names the problem.
bad() {	# bad DESCRIPTION PATTERN ARGS...
	local what=$1 pat=$2
	shift 2
	run "$@"
	[ "$RC" = 2 ] && grep -q -- "$pat" <<<"$ERR" && [ -z "$OUT" ]
	ok $? "$what: exit 2, \"$pat\" (got $RC: $(head -n 1 <<<"$ERR"))"
}
bad "a bad topology" "--topology" steps -t mesh:4x4
bad "bad links" "--topology" steps -t torus:4x4:both
bad "m larger than the torus" "--members" steps -t torus:4x4 -m 8,17
bad "m = 1" "--members" steps -m 1
bad "m = 0" "--members" steps -m 0
bad "zero trials" "--trials" steps -n 0
bad "zero threads" "--jobs" steps -j 0
bad "an unknown option" "usage" steps --dests 4
bad "a stray argument" "usage" steps 4

done_testing
tap_exit
