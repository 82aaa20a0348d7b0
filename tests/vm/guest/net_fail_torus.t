#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# A forwarding node dies mid-stream on a 4x4 torus, and the testbed's
# routes are repaired (mcastbed kill --reroute, as a routing daemon would;
# then mcastbed reroute again, which changes nothing): the
# parent's takeover transfers, whose static routes crossed the dead node,
# get through.  Every live destination gets every message exactly once,
# in order, byte-exact; the sender's failed list names the dead node only;
# the parent reports PEER_DOWN.  The repair itself: every live node still
# reaches every other, pairs whose route did not cross the dead node keep
# it, and the others take a route around it.  On a slowed guest
# (mcast_time_scale, make debugcheck: kill and repair took 24 s there,
# past the retries below) a live node can be taken for dead too; there
# each message a live node missed must be one its send listed it failed
# for (netlib.sh's check_fail_stream).

# shellcheck source=tests/vm/guest/tap.sh
. /tests/tap.sh
# shellcheck source=tests/vm/guest/netlib.sh
. /tests/netlib.sh

[ -x /usr/local/bin/mcastbed-routes ] || skip_all "no mcastbed-routes in the guest"

run_ok "insmod mcast.ko" insmod "$MCAST_KO"
T0=$(awk '{ printf "%d\n", $1 }' /proc/uptime)

# check_reroute DEAD PINGERS: the routes after the repair against those before
check_reroute() {
	route_snapshot "$W/rt.after"
	route_paths "$W/rt.after" > "$W/paths.after"
	_bad=$(grep -e -noroute -e -loop "$W/paths.after" | tr '\n' ' ')
	is "$_bad" "" "after the repair, every live node's routes lead to every other"
	# pairs of live nodes, with their route before and after
	awk -v dead="$1" '
		NR == FNR { after[$1 " " $2] = $3; next }
		$1 != dead && $2 != dead { print $1, $2, $3, after[$1 " " $2] }
	' "$W/paths.after" "$W/paths.before" > "$W/paths.both"
	_bad=$(awk -v dead="$1" '
		{ crossed = ("-" $3 "-") ~ ("-" dead "-") }
		!crossed && $3 != $4 { print $1 "->" $2 ":" $3 "/" $4 }
		crossed && (("-" $4 "-") ~ ("-" dead "-") ||
			split($4, a, "-") < split($3, b, "-")) { print $1 "->" $2 ":" $3 "/" $4 }
	' "$W/paths.both" | tr '\n' ' ')
	_n=$(awk -v dead="$1" '("-" $3 "-") ~ ("-" dead "-")' "$W/paths.both" | wc -l)
	is "$_bad" "" "pairs off node $1 keep their route and hop count; the $_n through it avoid it, no shorter"
	if [ "$_n" -gt 0 ]; then
		pass "node $1 was on $_n routes between live nodes"
	else
		fail "node $1 was on routes between live nodes"
	fi
	diag "rerouted: $(awk -v dead="$1" '("-" $3 "-") ~ ("-" dead "-") { printf "%s>%s ", $3, $4 }' \
		"$W/paths.both")"
	# the data path too: the sender and the parent ping every live node,
	# and every rerouted pair pings
	_pairs=''
	for _s in $2; do
		for _d in $LIVE $2; do
			[ "$_d" = "$_s" ] || _pairs="$_pairs $_s>$_d"
		done
	done
	is "$(ping_pairs "$_pairs")" "" "nodes $2 ping every live node"
	_pairs=$(awk -v dead="$1" '("-" $3 "-") ~ ("-" dead "-") { print $1 ">" $2 }' \
		"$W/paths.both")
	is "$(ping_pairs "$_pairs")" "" "every rerouted pair pings"
}

# ping_pairs "S>D ...": one ping each, all at once (TCG is slow to start
# processes, not to wait); prints the pairs that failed
ping_pairs() {
	rm -f "$W/ping.bad"
	_pids=''
	for _p in $1; do
		(ip netns exec "mcb${_p%>*}" ping -c 1 -W 5 "10.77.0.${_p#*>}" > /dev/null 2>&1 ||
			echo "$_p" >> "$W/ping.bad") &
		_pids="$_pids $!"
	done
	for _p in $_pids; do
		wait "$_p"
	done
	[ ! -f "$W/ping.bad" ] || sort "$W/ping.bad" | tr '\n' ' '
}

# ms since boot
ms_now() {
	awk '{ printf "%d\n", $1 * 1000 }' /proc/uptime
}

# set_retries N: every node's (all at once: TCG is slow to start processes)
# shellcheck disable=SC2317 # called through run_ok
set_retries() {
	_pids=''
	_u=0
	while [ "$_u" -lt "$N" ]; do
		ip netns exec "mcb$_u" mcastctl node set retries "$1" &
		_pids="$_pids $!"
		_u=$((_u + 1))
	done
	_rc=0
	for _p in $_pids; do
		wait "$_p" || _rc=1
	done
	return "$_rc"
}

# fail_torus SPEC DEAD PARENT WHY [PINGERS]: PINGERS (default: 0 and
# PARENT) ping every live node after the repair.
#
# Until the repair, whatever crosses DEAD is lost: the parent's takeover
# and tree edges, and on uni even acks (8's to 0 go 8-12-0).  No node may
# give up on a live one first, or it is failed too.  Under TCG on a busy
# host kill and repair took 1.5-10 s (the default detection, 6 RTOs, is
# 4.4 s): every node gets 12 retries (10.4 s).
fail_torus() {
	_spec=$1 _dead=$2 _par=$3
	TOPO=torus:${_spec#torus:}
	_t0=$(date +%s)
	if ! _out=$(mcastbed up "$_spec" 2>&1 && mcastbed group 1 all 2>&1); then
		fail "mcastbed up $_spec, group 1 of all 16 nodes" "$_out"
		mcastbed down > /dev/null 2>&1
		return
	fi
	pass "mcastbed up $_spec, group 1 of all 16 nodes ($(($(date +%s) - _t0)) s)"
	diag "$4"
	run_ok "$_spec: every node gets 12 retries" set_retries 12
	# the premise, from mcastctl plan: DEAD forwards in 0's tree, under PARENT
	# shellcheck disable=SC2046 # the destinations
	plan_tree 0 $(seq 1 15) > "$W/plan"
	_kids=$(awk -v d="$_dead" '$3 == d { printf "%s ", $1 }' "$W/plan")
	_from=$(awk -v d="$_dead" '$1 == d { print $3 }' "$W/plan")
	if [ -n "$_kids" ] && [ "$_from" = "$_par" ]; then
		pass "$_spec: in 0's U-torus tree node $_dead forwards to $_kids; its parent is $_par"
	else
		fail "$_spec: in 0's U-torus tree node $_dead forwards; its parent is $_par" "$(cat "$W/plan")"
	fi
	route_snapshot "$W/rt.before"
	route_paths "$W/rt.before" > "$W/paths.before"
	_t0=$(date +%s)
	fail_stream_start 0 "$_dead" "$_par"
	fail_stream_running
	_t1=$(ms_now)
	run_ok "$_spec: mcastbed kill $_dead --reroute while 0 sends" mcastbed kill "$_dead" --reroute
	diag "kill and repair took $(($(ms_now) - _t1)) ms"
	check_fail_stream 0 "$_dead" "$_par"
	diag "stream: $(($(date +%s) - _t0)) s"
	run_ok "$_spec: mcastbed reroute (again: the same routes)" mcastbed reroute
	check_reroute "$_dead" "${5:-0 $_par}"
	mcastbed down > /dev/null 2>&1
}

# U-torus from 0 over all 16 nodes, on uni and bi alike: 0 -> 8 (piece
# 8-15, routed 0-4-8), 0 -> 4 (4-7), 8 -> 12 (12-15), then 12 -> 14, 13.
fail_torus torus:4x4:uni 12 8 \
	"node 12 dies: 8 takes over 13-15, its routes to them crossed 12"
fail_torus torus:4x4:bi 4 0 \
	"node 4 dies: on 0's routes to 8 (a tree edge) and to 5-7 (its takeover)" "0 8"

is "$(ip netns list | grep -c mcb)" 0 "no namespaces left"
run_ok "rmmod mcast" rmmod mcast
diag "net_fail_torus: $(($(awk '{ printf "%d\n", $1 }' /proc/uptime) - T0)) s"
done_testing
tap_exit
