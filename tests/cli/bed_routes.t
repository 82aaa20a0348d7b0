#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# mcastbed-routes (the routes of mcastbed reroute), on the build host:
#  - with no dead node, exactly the routes mcastbed up installs (its awk
#    generator, run here without namespaces);
#  - with dead nodes, followed hop by hop for every pair of live nodes:
#    a route exists exactly when a path of live nodes does (on uni over +1
#    links only), it crosses no dead node, it is as short as a BFS path,
#    and it is unchanged when the dimension-ordered route crossed no dead
#    node; dead nodes are unreachable;
#  - bad arguments: exit 2.
# The same in a VM, with real routes: tests/vm/guest/net_fail_torus.t.
#
# MCASTBED_ROUTES names the binary (default build/mcastbed-routes).

set -u

orig=$PWD
cd "$(dirname "$0")/../.." || exit 1
abs() { case $1 in /*) echo "$1" ;; *) echo "$orig/$1" ;; esac; }
ROUTES=$(abs "${MCASTBED_ROUTES:-$PWD/build/mcastbed-routes}")
if [ ! -x "$ROUTES" ]; then
	echo "Bail out! no binary at $ROUTES (set MCASTBED_ROUTES)"
	exit 1
fi

tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT

# shellcheck source=tests/cli/tap.sh
. tests/cli/tap.sh

# mcastbed up's routes for LINKS DIMS (sigma_0 first), as "U route replace
# ..." lines: its generate function, taken from the script.
up_routes() {
	local links=$1 dims=$2 u
	(
		# shellcheck disable=SC2034 # what generate reads
		STATE=$tmp/bed NS_PREFIX=mcb SW_NS=mcbsw SWS_PREFIX=mcbs TOPO=x PEERS='' MCASTCTL=mcastctl
		eval "$(sed -n '/^generate() {/,/^}/p' utils/mcastbed/mcastbed)"
		generate torus "$dims" "$links" 7447 1 udp
	)
	for f in "$tmp"/bed/gen/node.*.batch; do
		u=${f##*/node.}
		u=${u%.batch}
		sed -n "s/^route add /$u route replace /p" "$f"
	done | sort
}

# check LINKS DIMS DEAD...: the properties above; prints what is wrong
check() {
	local links=$1 dims=$2 d opts=()
	shift 2
	for d in "$@"; do
		opts+=(-d "$d")
	done
	# shellcheck disable=SC2086 # the radices
	if ! "$ROUTES" "$links" $dims > "$tmp/base" ||
		! "$ROUTES" "$links" $dims "${opts[@]}" > "$tmp/now"; then
		echo "mcastbed-routes failed"
		return
	fi
	awk -v links="$links" -v dims="$dims" -v dead="$*" '
	function id(a,   p) { sub(/\/32$/, "", a); split(a, p, "."); return p[3] * 256 + p[4] }
	function coord(u, d) { return int(u / stride[d]) % k[d] }
	function nb(u, d, dir,   c) { c = coord(u, d); return u + ((c + dir + k[d]) % k[d] - c) * stride[d] }
	# the path from s to d by the table t ("base" or "now"), "" if none
	function walk(t, s, d,   p, c, i) {
		p = s; c = s
		for (i = 0; c != d; i++) {
			if (!((t, c, d) in nh) || i > n) return ""
			c = nh[t, c, d]; p = p "-" c
		}
		return p
	}
	BEGIN {
		nd = split(dims, kk, " "); n = 1
		for (i = 0; i < nd; i++) { k[i] = kk[i + 1]; stride[i] = n; n *= k[i] }
		split(dead, dd, " ")
		for (i in dd) isdead[dd[i]] = 1
	}
	FNR == 1 { t = (t == "" ? "base" : "now") }
	$4 == "unreachable" { unr[t, $1, id($5)] = 1; next }
	{ nh[t, $1, id($4)] = id($6) }
	END {
		for (v = 0; v < n; v++) {
			if (v in isdead) {
				for (u = 0; u < n; u++)
					if (!(u in isdead) && !(("now", u, v) in unr))
						print "dead " v " not unreachable from " u
				continue
			}
			# BFS to v over live nodes
			split("", dist); dist[v] = 0; q[0] = v; h = 0; tl = 1
			while (h < tl) {
				w = q[h++]
				for (dm = 0; dm < nd; dm++)
					for (dir = -1; dir <= 1; dir += 2) {
						if (dir < 0 && links == "uni") continue
						u = nb(w, dm, -dir)
						if (!(u in isdead) && !(u in dist)) { dist[u] = dist[w] + 1; q[tl++] = u }
					}
			}
			for (u = 0; u < n; u++) {
				if (u == v || (u in isdead)) continue
				p = walk("now", u, v); b = walk("base", u, v)
				if (!(u in dist)) {
					if (p != "" || !(("now", u, v) in unr)) print u "->" v ": cut off, yet " p
					continue
				}
				if (p == "") { print u "->" v ": no route"; continue }
				if (gsub(/-/, "-", p) != dist[u]) print u "->" v ": " p " not " dist[u] " hops"
				crossed = 0
				m = split(b, bp, "-")
				for (i = 1; i <= m; i++) if (bp[i] in isdead) crossed = 1
				if (!crossed && p != b) print u "->" v ": " b " became " p
				for (i = 1; i <= split(p, pp, "-"); i++)
					if (pp[i] in isdead) print u "->" v ": " p " crosses a dead node"
			}
		}
	}' "$tmp/base" "$tmp/now" | head -n 5
}

# ---- with no dead node: mcastbed up's routes

for spec in "uni|4 4" "bi|4 4" "uni|2 2 2" "bi|2 2 2" "bi|3 3" "uni|5 3 2" "bi|8 8" "bi|6" "bi|2 5"; do
	links=${spec%%|*} dims=${spec#*|}
	# shellcheck disable=SC2086 # the radices
	"$ROUTES" "$links" $dims | sort > "$tmp/got"
	up_routes "$links" "$dims" > "$tmp/want"
	[ -s "$tmp/want" ] && cmp -s "$tmp/got" "$tmp/want"
	ok $? "$links $dims, no dead node: mcastbed up's routes ($(wc -l < "$tmp/want"))"
done

# ---- around dead nodes

while read -r links dims dead; do
	[ -n "$links" ] || continue
	dims=${dims//,/ } dead=${dead//,/ }
	# shellcheck disable=SC2086 # the dead nodes
	bad=$(check "$links" "$dims" $dead)
	[ -z "$bad" ]
	ok $? "$links ${dims// /x} without $dead: every live pair routed around the dead, shortest, the rest unchanged"
	[ -z "$bad" ] || diag "$bad"
done <<'EOF'
uni 4,4 12
bi 4,4 4
uni 4,4 5,10
bi 4,4 0,5,10,15
uni 4,4 1,4
uni 2,2,2 3
bi 2,2,2 3,5
uni 3,3 4
bi 5,3 2,7,12
uni 8,8 9,18,27
bi 8,8 0,1,8,9,36
bi 6 0
uni 6 2
uni 4,2 1
EOF

# a cut-off node: on uni 4x4 without 1 and 4, node 0 has no way out
"$ROUTES" uni 4 4 -d 1 -d 4 > "$tmp/out"
[ "$(grep -c '^0 route replace unreachable' "$tmp/out")" = 15 ]
ok $? "uni 4x4 without 1 and 4: node 0 reaches nothing"
"$ROUTES" uni 4 4 -d 12 > "$tmp/out"
grep -qx '8 route replace 10.77.0.13/32 via 10.77.0.9 dev d0p onlink' "$tmp/out" &&
	grep -qx '0 route replace 10.77.0.13/32 via 10.77.0.4 dev d1p onlink' "$tmp/out" &&
	[ "$(grep -c 'unreachable 10.77.0.12/32$' "$tmp/out")" = 15 ]
ok $? "uni 4x4 without 12: 8 goes to 13 by 9, 0 still by 4; 12 unreachable"

# ---- bad arguments

for args in "" "uni" "tri 4 4" "uni 1" "uni 4 x" "uni 4 4 -d" "uni 4 4 -d 16" \
	"uni 4 4 -x 3" "uni 65536 2"; do
	# shellcheck disable=SC2086 # the arguments
	"$ROUTES" $args > /dev/null 2>&1
	[ $? -eq 2 ]
	ok $? "refused with exit 2: mcastbed-routes $args"
done

done_testing
tap_exit
