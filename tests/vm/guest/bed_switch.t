#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# mcastbed up switch:FILE on the example topologies of docs/topologies
# (copied to /tests/topologies): a 16-host fat tree, the paper's Figure 1,
# a ring of 6 switches with chords.  Each comes up without mcast
# (--no-mcast: no kernel part needed); every node pings every other node;
# the routes the switches hold, read back with `ip route get` for every
# switch and destination and walked from every source's switch, give for
# every ordered pair exactly the switches of the planning core's route
# (mcastbed-swroutes paths), over links that join those switches, going up
# then down in the up*-down* tree (levels and postorder IDs from
# mcastbed-swroutes); Figure 1's paths are also the ones worked out by hand
# (closest and strict).  --rate puts tbf on both ends of every switch
# link and netem stacks over it; kill, revive, show; bad files and options
# are refused; `mcastbed down` leaves no namespace.  Then mcast itself:
# --order rank (the 1D torus over the node ids) configures every node and
# a send crosses the switches; the default order (switch:FILE) too if this
# mcast.ko and mcastctl take a switch topology, else skipped.

# shellcheck source=tests/vm/guest/tap.sh
. /tests/tap.sh

[ -x /usr/local/bin/mcastbed ] || skip_all "no mcastbed in the guest"
[ -x /usr/local/bin/mcastbed-swroutes ] || skip_all "no mcastbed-swroutes in the guest"
TOPOS=/tests/topologies
[ -f "$TOPOS/ring-6.topo" ] || skip_all "no $TOPOS/*.topo in the guest"

rmmod mcast 2>/dev/null
modprobe veth 2>/dev/null
modprobe sch_tbf 2>/dev/null
modprobe sch_netem 2>/dev/null

TMP=/tmp/bed_switch
mkdir -p "$TMP"

addr_of() { # ID
	echo "10.77.$(($1 / 256)).$(($1 % 256))"
}

# Every node pings every other node, one ping each (one shell per source);
# prints the pairs that failed.
ping_all() { # N
	_s=0
	while [ "$_s" -lt "$1" ]; do
		_d=0 _addrs=''
		while [ "$_d" -lt "$1" ]; do
			[ "$_d" = "$_s" ] || _addrs="$_addrs $(addr_of "$_d")"
			_d=$((_d + 1))
		done
		# shellcheck disable=SC2016,SC2086 # the inner shell's $0 and $@
		ip netns exec "mcb$_s" /bin/sh -c '
			for a in "$@"; do
				ping -c 1 -W 2 "$a" > /dev/null 2>&1 || printf " %s" "$0->$a"
			done' "$_s" $_addrs
		_s=$((_s + 1))
	done
}

# "SWITCH NODE NEXT DEV" for every switch and node: the installed route's
# next switch (from its via address 10.78.x.y) and device, or "host" when
# it leaves on the node's own port; one ip -batch of route gets a switch.
tables() { # NSW N
	_s=0
	while [ "$_s" -lt "$1" ]; do
		_h=0
		while [ "$_h" -lt "$2" ]; do
			echo "route get $(addr_of "$_h")"
			_h=$((_h + 1))
		done | ip -n "mcbs$_s" -force -batch - 2>&1 | awk -v s="$_s" '
			/^10\.77\./ {
				split($1, a, "."); h = a[3] * 256 + a[4]
				nx = "?"; dev = "?"
				for (i = 2; i < NF; i++) {
					if ($i == "via") {
						split($(i + 1), b, ".")
						if (b[1] == 10 && b[2] == 78) nx = b[3] * 256 + b[4]
					}
					if ($i == "dev") dev = $(i + 1)
				}
				if (nx == "?" && dev == "h" h) nx = "host"
				print s, h, nx, dev
			}'
		_s=$((_s + 1))
	done
}

# The walks of every ordered pair through the tables ($TMP/tables) against
# the planning core's paths ($TMP/paths), the links under them ($TMP/bed,
# mcastbed-swroutes's output); prints the differences.
walk_check() {
	awk '
	FILENAME ~ /bed$/ && $1 == "host" { sw[$2] = $3 }
	FILENAME ~ /bed$/ && $1 == "link" { la[$2] = $3; lb[$2] = $4 }
	FILENAME ~ /tables$/ { nx[$1 " " $2] = $3; dev[$1 " " $2] = $4 }
	FILENAME ~ /paths$/ {
		u = $1; v = $2; want = $3
		for (i = 4; i <= NF; i++) want = want " " $i
		x = sw[u]; got = x; bad = ""
		for (k = 0; k < 64; k++) {
			n = nx[x " " v]
			if (n == "host") break
			if (n == "" || n == "?") { bad = " noroute@" x ":" dev[x " " v]; break }
			d = dev[x " " v]
			l = substr(d, 2) + 0
			if (d !~ /^l[0-9]+$/ || !((la[l] == x && lb[l] == n) || (la[l] == n && lb[l] == x)))
				bad = bad " " d "(" x "->" n ")"
			x = n; got = got " " x
		}
		if (k == 64) bad = bad " loop"
		if (got != want || bad != "")
			printf " %s->%s:[%s]/[%s]%s", u, v, got, want, bad
	}' "$TMP/bed" "$TMP/tables" "$TMP/paths"
}

# Every path of $TMP/paths goes up, then down: a hop to a lower level, or
# along a level to a lower postorder ID, is up (plan/updown.h); none after
# a down one.  Prints the paths that do not.
updown_check() {
	awk '
	FILENAME ~ /bed$/ && $1 == "switch" { lv[$2] = $4; id[$2] = $5 }
	FILENAME ~ /paths$/ {
		down = 0
		for (i = 4; i <= NF; i++) {
			a = $(i - 1); b = $i
			up = lv[b] < lv[a] || (lv[b] == lv[a] && id[b] < id[a])
			if (up && down) { printf " %s->%s:[%s]", $1, $2, $0; break }
			if (!up) down = 1
		}
	}' "$TMP/bed" "$TMP/paths"
}

# up_check NAME FILE [OPTION...]: up with --no-mcast, then the checks every
# topology gets.  Leaves the testbed up (or down, returning 1, if up
# failed).  Sets NSW, NL, NN.
up_check() {
	_name=$1 _file=$2
	shift 2
	_t0=$(date +%s)
	if _out=$(mcastbed up "switch:$_file" --no-mcast "$@" 2>&1); then
		pass "$_name: mcastbed up switch:${_file##*/}${*:+ $*} ($(($(date +%s) - _t0)) s)"
	else
		fail "$_name: mcastbed up switch:${_file##*/}${*:+ $*}" "$_out"
		mcastbed down
		return 1
	fi
	_route=closest
	[ "${1:-}" != --route ] || _route=$2
	mcastbed-swroutes "$_file" --route "$_route" > "$TMP/bed"
	mcastbed-swroutes "$_file" --route "$_route" paths > "$TMP/paths"
	NSW=$(grep -c '^switch ' "$TMP/bed")
	NL=$(grep -c '^link ' "$TMP/bed")
	NN=$(grep -c '^host ' "$TMP/bed")
	is "$(ip netns list | grep -c '^mcbs[0-9]') $(ip netns list | grep -c '^mcb[0-9]')" \
		"$NSW $NN" "$_name: $NSW switch and $NN node namespaces"

	_t0=$(date +%s)
	is "$(ping_all "$NN")" "" "$_name: every node pings every other node ($(($(date +%s) - _t0)) s)"

	tables "$NSW" "$NN" > "$TMP/tables"
	is "$(wc -l < "$TMP/tables" | tr -d ' ')" $((NSW * NN)) \
		"$_name: every switch has a route to every node"
	is "$(walk_check)" "" \
		"$_name: the routes, walked with ip route get, are mc_sw_route's ($_route) for all $((NN * (NN - 1))) pairs"
	is "$(updown_check)" "" "$_name: every route goes up, then down"
	_c=$(mcastbed-swroutes "$_file" --route "$_route" check 2>&1)
	is "$_c" "ok $((NN * (NN - 1))) pairs" "$_name: mcastbed-swroutes check ($_route)"
	_s=$(mcastbed show 2>&1)
	case $_s in
	*"$NSW switches, $NL links, $NN nodes"*) pass "$_name: mcastbed show counts the switches, links and nodes" ;;
	*) fail "$_name: mcastbed show counts the switches, links and nodes" "$_s" ;;
	esac
	return 0
}

down_check() { # NAME
	_t0=$(date +%s)
	run_ok "$1: mcastbed down" mcastbed down
	is "$(ip netns list | grep -c mcb)" 0 "$1: no namespaces left ($(($(date +%s) - _t0)) s)"
}

# paths_are NAME WANT: Figure 1's paths, "SRC DST SWITCHES..." joined by ";"
paths_are() {
	is "$(tr '\n' ';' < "$TMP/paths")" "$2" "$1"
}

# ---------------------------------------------------------------- refusals

run_fails "up switch: with no file is refused" mcastbed up switch: --no-mcast
run_fails "up switch:/nonexistent is refused" mcastbed up switch:/nonexistent --no-mcast
printf 'link a b\nhost 0 a\nhost 1 b\nbogus line\n' > "$TMP/bad.topo"
_out=$(mcastbed up "switch:$TMP/bad.topo" --no-mcast 2>&1)
case $? in
0) fail "a bad topology file is refused with the parser's message" "$_out"; mcastbed down ;;
*)
	case $_out in
	*"bad.topo:4: unknown keyword \"bogus\""*) pass "a bad topology file is refused with the parser's message" ;;
	*) fail "a bad topology file is refused with the parser's message" "$_out" ;;
	esac
	;;
esac
run_fails "--transport irsim is refused on switch:FILE" mcastbed up "switch:$TOPOS/ring-6.topo" --transport irsim
run_fails "--route is refused on a torus" mcastbed up torus:2x2 --no-mcast --route strict
run_fails "--rate 100 mbit is refused" mcastbed up "switch:$TOPOS/ring-6.topo" --no-mcast --rate "100 mbit"
is "$(ip netns list | grep -c mcb) $(mcastbed show > /dev/null 2>&1; echo $?)" "0 1" \
	"the refusals leave no namespace and no testbed"

# ---------------------------------------------------------------- fat tree

if up_check fat-tree "$TOPOS/fat-tree-16.topo"; then
	down_check fat-tree
else
	skip "fat-tree: the rest" "not up"
fi

# ---------------------------------------------------------------- Figure 1

# switches: v8 = 0, v2 = 1, v3 = 2, v7 = 3, v5 = 4; hosts 0 (v2), 1 (v5),
# 2 (v7).  Closest takes the cross links v2-v5 and v3-v7 where they
# shortcut; strict climbs to the root v8.
if up_check fig1 "$TOPOS/paper-fig1.topo"; then
	paths_are "fig1: the closest routes are Figure 1's (h0-v2-v5-h1 over the cross link)" \
		"0 1 1 4;0 2 1 0 3;1 0 4 1;1 2 4 3;2 0 3 0 1;2 1 3 4;"
	down_check fig1
else
	skip "fig1: the rest" "not up"
fi
if up_check fig1-strict "$TOPOS/paper-fig1.topo" --route strict --order rank; then
	paths_are "fig1-strict: the strict routes climb the tree (h0-v2-v8-v7-v5-h1)" \
		"0 1 1 0 3 4;0 2 1 0 3;1 0 4 3 0 1;1 2 4 3;2 0 3 0 1;2 1 3 4;"
	case $(mcastbed show) in
	*"topology torus:3:uni (order rank)"*) pass "fig1-strict: --order rank reports the 1D torus torus:3" ;;
	*) fail "fig1-strict: --order rank reports the 1D torus torus:3" "$(mcastbed show)" ;;
	esac
	down_check fig1-strict
else
	skip "fig1-strict: the rest" "not up"
fi

# ---------------------------------------------------------------- ring

tbf_count() { # WHAT: qdisc lines matching WHAT in every switch
	_n=0
	_s=0
	while [ "$_s" -lt "$NSW" ]; do
		_n=$((_n + $(tc -n "mcbs$_s" qdisc show | grep -c "$1")))
		_s=$((_s + 1))
	done
	echo "$_n"
}

if up_check ring "$TOPOS/ring-6.topo" --rate 100mbit; then
	is "$(tbf_count 'qdisc tbf .* root .*rate 100Mbit')" $((2 * NL)) \
		"ring: --rate 100mbit: a root tbf on both ends of the $NL switch links"
	is "$(tbf_count 'qdisc tbf .* dev h') $(tc -n mcb0 qdisc show | grep -c tbf)" "0 0" \
		"ring: the node links have no tbf"
	if mcastbed netem "delay 1ms" > "$TMP/netem.out" 2>&1; then
		pass "ring: mcastbed netem 'delay 1ms'"
		is "$(tbf_count 'qdisc netem 1: .* root') $(tbf_count 'qdisc tbf 10: .* parent 1:1 ')" \
			"$((2 * NL)) $((2 * NL))" "ring: the switch links have netem at the root, tbf under it"
		is "$(tc -n mcb5 qdisc show | grep -c 'qdisc netem') $(tbf_count 'qdisc netem .* dev h[0-9]* root')" \
			"1 $NN" "ring: the node links have netem, at both ends"
		run_ok "ring: node 0 pings node 9 through netem and tbf" \
			ip netns exec mcb0 ping -c 1 -W 2 10.77.0.9
		run_ok "ring: mcastbed netem off" mcastbed netem off
		is "$(tbf_count 'qdisc netem') $(tbf_count 'qdisc tbf .* root .*rate 100Mbit') $(tc -n mcb5 qdisc show | grep -c netem)" \
			"0 $((2 * NL)) 0" "ring: netem off: no netem left, the tbf back at the root"
	else
		skip "ring: mcastbed netem" "$(tail -n 1 "$TMP/netem.out")"
		skip "ring: netem over tbf" "no netem"
		skip "ring: netem on node links" "no netem"
		skip "ring: ping through netem" "no netem"
		skip "ring: netem off" "no netem"
		skip "ring: netem off leaves tbf" "no netem"
	fi
	run_ok "ring: mcastbed kill 3" mcastbed kill 3
	run_fails "ring: node 3 is gone (node 0 cannot ping it)" \
		ip netns exec mcb0 ping -c 1 -W 1 10.77.0.3
	run_ok "ring: mcastbed revive 3" mcastbed revive 3
	run_ok "ring: node 0 pings the revived node 3" ip netns exec mcb0 ping -c 1 -W 2 10.77.0.3
	run_ok "ring: the revived node 3 pings node 10" ip netns exec mcb3 ping -c 1 -W 2 10.77.0.10
	run_ok "ring: mcastbed exec 7 runs in node 7" sh -c \
		"/usr/local/bin/mcastbed exec 7 /usr/local/bin/ip -o addr show dev lo | grep -q 10.77.0.7/32"
	down_check ring
else
	skip "ring: the rest" "not up"
fi

# ---------------------------------------------------------------- mcast

# With mcast.ko: --order rank (torus:3, which every mcast.ko takes), and
# the default order if mcast.ko and mcastctl take switch:FILE.
mcast_check() { # NAME OPTION...
	_name=$1
	shift
	_j=$(mcastbed exec 2 mcastctl -j node show 2>&1)
	case $_j in
	*'"id":2,'*) pass "$_name: node 2 is configured as id 2" ;;
	*) fail "$_name: node 2 is configured as id 2" "$_j" ;;
	esac
	is "$(mcastbed exec 0 mcastctl peer show | grep -c '^peer')" 2 \
		"$_name: node 0 has the two others as peers"
	_out=$(mcastbed exec 1 mcastperf msg --nodes 0,2 --size 1K 2>&1)
	case $? in
	0) pass "$_name: a send from node 1 (on v5) reaches nodes 0 and 2 across the switches" ;;
	3) skip "$_name: a send from node 1 reaches nodes 0 and 2" "no inter-node data path" ;;
	*) fail "$_name: a send from node 1 (on v5) reaches nodes 0 and 2 across the switches" "$_out" ;;
	esac
	run_ok "$_name: mcastbed down" mcastbed down
}

if [ -x /usr/local/bin/mcastctl ] && insmod "$MCAST_KO" 2> "$TMP/insmod.out"; then
	if _out=$(mcastbed up "switch:$TOPOS/paper-fig1.topo" --order rank 2>&1); then
		pass "fig1: mcastbed up --order rank configures the nodes as torus:3"
		mcast_check "fig1 rank"
	else
		fail "fig1: mcastbed up --order rank configures the nodes as torus:3" "$_out"
		mcastbed down
	fi
	if _out=$(mcastbed up "switch:$TOPOS/paper-fig1.topo" 2>&1); then
		pass "fig1: mcastbed up configures the nodes with switch:FILE"
		mcast_check "fig1 switch"
	else
		mcastbed down
		skip "fig1: mcastbed up configures the nodes with switch:FILE" \
			"this mcast.ko or mcastctl takes no switch topology: $(echo "$_out" | tail -n 3 | tr '\n' ' ')"
	fi
	rmmod mcast
else
	skip "mcast on a switched testbed" "no mcastctl or mcast.ko: $(tail -n 1 "$TMP/insmod.out" 2>/dev/null)"
fi
is "$(ip netns list | grep -c mcb)" 0 "no namespaces left at the end"

rm -rf "$TMP"
done_testing
tap_exit
