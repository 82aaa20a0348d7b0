#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# mcastbed-swroutes (the switches, links and routes of mcastbed up
# switch:FILE), on the build host, for every docs/topologies/*.topo and
# every route policy:
#  - `check`: the per-destination tables walk to mc_sw_route's paths;
#  - mcastbed up's generator (its awk, run here without namespaces) makes
#    one veth pair per link between the right switches and one per node,
#    and the routes in its switch batches, walked from every node's switch
#    by their via addresses, give for every ordered pair the switches of
#    `paths`, over links that join them;
#  - Figure 1's closest and strict paths as worked out by hand;
#  - bad files (exit 1, the parser's message) and arguments (exit 2).
# The same with real namespaces in a VM: tests/vm/guest/bed_switch.t.
#
# MCASTBED_SWROUTES names the binary (default build/mcastbed-swroutes).

set -u

orig=$PWD
cd "$(dirname "$0")/../.." || exit 1
abs() { case $1 in /*) echo "$1" ;; *) echo "$orig/$1" ;; esac; }
SWROUTES=$(abs "${MCASTBED_SWROUTES:-$PWD/build/mcastbed-swroutes}")
if [ ! -x "$SWROUTES" ]; then
	echo "Bail out! no binary at $SWROUTES (set MCASTBED_SWROUTES)"
	exit 1
fi

tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT

# shellcheck source=tests/cli/tap.sh
. tests/cli/tap.sh

# is GOT WANT DESCRIPTION
is() {
	[ "$1" = "$2" ]
	ok $? "$3"
	[ "$1" = "$2" ] || diag "got:      '$1'" "expected: '$2'"
}

# mcastbed up's files for the testbed in $tmp/bed/swbed: its generate
# function, taken from the script.
up_files() { # NODES
	(
		# shellcheck disable=SC2034 # what generate reads
		STATE=$tmp/bed NS_PREFIX=mcb SW_NS=mcbsw SWS_PREFIX=mcbs TOPO=x PEERS='' \
			MCASTCTL=mcastctl
		eval "$(sed -n '/^generate() {/,/^}/p' utils/mcastbed/mcastbed)"
		generate switch "$1" uni 7447 1 udp
	)
}

# The generated links and routes against the helper's output: prints what
# is wrong.
gen_check() {
	awk -v gen="$tmp/bed/gen" '
	FILENAME ~ /swbed$/ && $1 == "switch" { nsw = $2 + 1 }
	FILENAME ~ /swbed$/ && $1 == "link" { la[$2] = $3; lb[$2] = $4; nl = $2 + 1 }
	FILENAME ~ /swbed$/ && $1 == "host" { sw[$2] = $3; nh = $2 + 1 }
	FILENAME ~ /links\.batch$/ {
		# link add NAME netns NS type veth peer name PEER netns PEERNS
		if ($3 ~ /^l[0-9]+$/ && $10 == $3) {
			l = substr($3, 2)
			if ($5 != "mcbs" la[l] || $12 != "mcbs" lb[l]) printf " badlink:%s", $0
			seen[$3]++
		} else if ($3 == "eth0" && $10 ~ /^h[0-9]+$/) {
			h = substr($10, 2)
			if ($5 != "mcb" h || $12 != "mcbs" sw[h]) printf " badhost:%s", $0
			seen[$10]++
		} else {
			printf " unknown:%s", $0
		}
	}
	FILENAME ~ /paths$/ {
		if (!loaded) {
			for (i = 0; i < nl; i++) if (seen["l" i] != 1) printf " link%d:%d", i, seen["l" i]
			for (h = 0; h < nh; h++) if (seen["h" h] != 1) printf " host%d:%d", h, seen["h" h]
			for (s = 0; s < nsw; s++) {
				f = gen "/sw." s ".batch"
				while ((getline ln < f) > 0) {
					if (split(ln, w, " ") < 4 || w[1] != "route") continue
					split(w[3], a, "[./]"); d = a[3] * 256 + a[4]
					if (w[4] == "via") {
						split(w[5], b, ".")
						nx[s " " d] = b[3] * 256 + b[4]; dev[s " " d] = w[7]
					} else {
						nx[s " " d] = "host"; dev[s " " d] = w[5]
					}
				}
				close(f)
			}
			loaded = 1
		}
		u = $1; v = $2; want = $3
		for (i = 4; i <= NF; i++) want = want " " $i
		x = sw[u]; got = x; bad = ""
		for (k = 0; k < 64; k++) {
			m = nx[x " " v]
			if (m == "host") { if (dev[x " " v] != "h" v) bad = bad " port"; break }
			if (m == "") { bad = bad " noroute@" x; break }
			l = substr(dev[x " " v], 2) + 0
			if (!((la[l] == x && lb[l] == m) || (la[l] == m && lb[l] == x)))
				bad = bad " " dev[x " " v] "(" x "->" m ")"
			x = m; got = got " " x
		}
		if (got != want || bad != "") printf " %s->%s:[%s]/[%s]%s", u, v, got, want, bad
	}' "$tmp/bed/swbed" "$tmp/bed/gen/links.batch" "$tmp/paths"
}

for topo in docs/topologies/*.topo; do
	name=${topo##*/}
	for pol in strict closest farthest; do
		rm -rf "$tmp/bed"
		mkdir -p "$tmp/bed"
		if ! "$SWROUTES" "$topo" --route "$pol" > "$tmp/bed/swbed" ||
			! "$SWROUTES" "$topo" --route "$pol" paths > "$tmp/paths"; then
			ok 1 "$name $pol: mcastbed-swroutes runs"
			continue
		fi
		h=$(grep -c '^host ' "$tmp/bed/swbed")
		s=$(grep -c '^switch ' "$tmp/bed/swbed")
		is "$(grep -c '^route ' "$tmp/bed/swbed") $(wc -l < "$tmp/paths")" \
			"$((s * h)) $((h * (h - 1)))" "$name $pol: a route per switch and node, a path per pair"
		is "$("$SWROUTES" "$topo" --route "$pol" check 2>&1)" "ok $((h * (h - 1))) pairs" \
			"$name $pol: check"
		up_files "$h"
		is "$(gen_check)" "" "$name $pol: mcastbed up's links and switch routes walk to every path"
	done
done

# ---- Figure 1 by hand: switches v8 = 0, v2 = 1, v3 = 2, v7 = 3, v5 = 4;
# hosts 0 on v2, 1 on v5, 2 on v7

fig1=docs/topologies/paper-fig1.topo
is "$("$SWROUTES" "$fig1" paths | tr '\n' ';')" \
	"0 1 1 4;0 2 1 0 3;1 0 4 1;1 2 4 3;2 0 3 0 1;2 1 3 4;" \
	"fig1 closest: h0-v2-v5-h1 over the cross link"
is "$("$SWROUTES" "$fig1" --route strict paths | tr '\n' ';')" \
	"0 1 1 0 3 4;0 2 1 0 3;1 0 4 3 0 1;1 2 4 3;2 0 3 0 1;2 1 3 4;" \
	"fig1 strict: h0-v2-v8-v7-v5-h1 up the tree"
is "$("$SWROUTES" "$fig1" path 0 1 | tr '\n' ';')" "switches 1 4;links 4;" \
	"fig1 path 0 1: switches and links"
is "$("$SWROUTES" "$fig1" | grep -v '^route' | tr '\n' ';')" \
	"root 0;switch 0 v8 0 8;switch 1 v2 1 2;switch 2 v3 1 3;switch 3 v7 1 7;switch 4 v5 2 5;link 0 0 1 tree;link 1 0 2 tree;link 2 0 3 tree;link 3 3 4 tree;link 4 1 4 cross;link 5 2 3 cross;host 0 1 2 1;host 1 4 3 4;host 2 3 2 6;" \
	"fig1: switches, links and hosts with the paper's IDs"

# ---- bad files and arguments

printf 'link a b\nhost 0 a\nbogus\n' > "$tmp/bad.topo"
out=$("$SWROUTES" "$tmp/bad.topo" 2>&1)
rc=$?
is "$rc ${out#*bad.topo}" '1 :3: unknown keyword "bogus" (link, host or root)' \
	"a bad file: exit 1 and the parser's message"
"$SWROUTES" "$tmp/none.topo" > /dev/null 2>&1
is $? 1 "a missing file: exit 1"
for args in "" "--route closest" "$fig1 --route" "$fig1 --route shortest" "$fig1 path 0" \
	"$fig1 path 0 3" "$fig1 path 1 1" "$fig1 path x 1" "$fig1 frob" "$fig1 check x"; do
	# shellcheck disable=SC2086 # the arguments
	"$SWROUTES" $args > /dev/null 2>&1
	is $? 2 "refused with exit 2: mcastbed-swroutes $args"
done

done_testing
tap_exit
