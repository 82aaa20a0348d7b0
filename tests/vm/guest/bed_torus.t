#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# mcastbed: build 4x4 uni, 4x4 bi, 2x2x2 and bridge:16 testbeds of netns
# nodes (and an 8x8, in make vmcheck-full); every node reaches every node
# address; the route between two nodes, followed hop by hop with `ip route
# get`, is as long as the UTR/BTR route mcastctl plan computes; every node
# is configured with its coordinate and its peers; groups, netem and kill
# work; `mcastbed down` leaves nothing behind.

# shellcheck source=tests/vm/guest/tap.sh
. /tests/tap.sh

[ -x /usr/local/bin/mcastbed ] || skip_all "no mcastbed in the guest"
[ -x /usr/local/bin/mcastctl ] || skip_all "no mcastctl in the guest"

rmmod mcast 2>/dev/null
modprobe veth 2>/dev/null
modprobe bridge 2>/dev/null
modprobe sch_netem 2>/dev/null

addr_of() { # ID
	echo "10.77.$(($1 / 256)).$(($1 % 256))"
}

id_of() { # ADDR
	echo "$1" | awk -F. '{ print $3 * 256 + $4 }'
}

# The coordinate of node ID on radices DIMS (sigma_0 first), highest first.
coord_of() { # ID DIMS...
	_id=$1
	shift
	_c=''
	for _k in "$@"; do
		_c=$((_id % _k))${_c:+,}$_c
		_id=$((_id / _k))
	done
	echo "$_c"
}

# Follows the routes from node A to node B with `ip route get`, printing the
# number of hops (or "loop"/"noroute:ID").
route_hops() { # A B
	_cur=$1 _n=0 _dst=$(addr_of "$2")
	while [ "$_cur" != "$2" ]; do
		_r=$(ip -n "mcb$_cur" route get "$_dst" 2>&1)
		_nh=$(echo "$_r" | sed -n 's/.* via \([0-9.]*\) .*/\1/p')
		if [ -z "$_nh" ]; then
			# directly connected (the bridge): one hop
			case $_r in
			*" dev "*) _nh=$_dst ;;
			*) echo "noroute:$_cur"; return ;;
			esac
		fi
		_cur=$(id_of "$_nh")
		_n=$((_n + 1))
		[ "$_n" -le 64 ] || { echo loop; return; }
	done
	echo "$_n"
}

# "COORD HOPS" for every destination of a separate-addressing plan from
# node A to every other node: the UTR/BTR route lengths of mcastctl plan.
plan_hops() { # TOPO A N DIMS...
	_t=$1 _a=$2 _nn=$3
	shift 3
	_args=''
	_d=0
	while [ "$_d" -lt "$_nn" ]; do
		[ "$_d" = "$_a" ] || _args="$_args -d $(coord_of "$_d" "$@")"
		_d=$((_d + 1))
	done
	# shellcheck disable=SC2086 # the -d options
	mcastctl plan -t "$_t" -a separate -s "$(coord_of "$_a" "$@")" $_args |
		sed -n 's/^step [0-9]*: ([0-9,]*) -> (\([0-9,]*\))  \[\([0-9]*\) hops*\]$/\1 \2/p'
}

# check_bed SPEC TOPO N SOURCES DIMS...: the checks on a testbed that is up.
check_bed() {
	_spec=$1 _topo=$2 _nn=$3 _srcs=$4
	shift 4
	_bad=''
	for _s in $_srcs; do
		_d=0
		while [ "$_d" -lt "$_nn" ]; do
			if [ "$_d" != "$_s" ] &&
				! ip netns exec "mcb$_s" ping -c 1 -W 2 "$(addr_of "$_d")" > /dev/null 2>&1; then
				_bad="$_bad $_s->$_d"
			fi
			_d=$((_d + 1))
		done
	done
	is "$_bad" "" "$_spec: nodes $_srcs ping every node address"

	_bad=''
	for _s in $_srcs; do
		[ "$_spec" = "bridge:16" ] || _plan=$(plan_hops "$_topo" "$_s" "$_nn" "$@")
		_d=0
		while [ "$_d" -lt "$_nn" ]; do
			if [ "$_d" != "$_s" ]; then
				_got=$(route_hops "$_s" "$_d")
				if [ "$_spec" = "bridge:16" ]; then
					_want=1
				else
					_want=$(echo "$_plan" | sed -n "s/^$(coord_of "$_d" "$@") //p")
				fi
				[ "$_got" = "$_want" ] || _bad="$_bad $_s->$_d:$_got/$_want"
			fi
			_d=$((_d + 1))
		done
	done
	if [ "$_spec" = "bridge:16" ]; then
		is "$_bad" "" "$_spec: every route from nodes $_srcs is one hop"
	else
		is "$_bad" "" "$_spec: routes from nodes $_srcs have the hop counts of mcastctl plan (${_topo##*:} routing)"
	fi

	_bad=''
	_u=0
	while [ "$_u" -lt "$_nn" ]; do
		_j=$(mcastbed exec "$_u" mcastctl -j node show 2>&1)
		case $_j in
		*"\"id\":$_u,"*) ;;
		*) _bad="$_bad $_u:$_j" ;;
		esac
		_u=$((_u + 1))
	done
	is "$_bad" "" "$_spec: mcastctl node show in every node gives its id"
	_j=$(mcastbed exec $((_nn - 1)) mcastctl -j node show 2>&1)
	_c=$(coord_of $((_nn - 1)) "$@")
	case $_j in
	*"\"coord\":[$_c]"*"\"dims\":"*) pass "$_spec: the last node's coordinate is [$_c]" ;;
	*) fail "$_spec: the last node's coordinate is [$_c]" "$_j" ;;
	esac
	_np=$(mcastbed exec 0 mcastctl peer show | grep -c '^peer')
	is "$_np" $((_nn - 1)) "$_spec: node 0 has every other node as a peer"
}

# up_check SPEC TOPO N SOURCES DIMS...
up_check() {
	_spec=$1
	_t0=$(date +%s)
	if _out=$(mcastbed up "$_spec" 2>&1); then
		pass "mcastbed up $_spec ($(($(date +%s) - _t0)) s)"
	else
		fail "mcastbed up $_spec" "$_out"
		mcastbed down
		return
	fi
	check_bed "$@"
	run_ok "mcastbed down ($_spec)" mcastbed down
	is "$(ip netns list | grep -c mcb)" 0 "$_spec: no namespaces left"
	# veths: a kernel with sit or ipip built in has a sit0 or tunl0 here
	is "$(ip -o link show type veth | wc -l)" 0 "$_spec: no links left"
}

run_ok "insmod mcast.ko" insmod "$MCAST_KO"

up_check torus:4x4:uni torus:4x4:uni 16 "0 13" 4 4
up_check torus:4x4:bi torus:4x4:bi 16 "9 14" 4 4
up_check torus:2x2x2 torus:2x2x2:uni 8 "0 5" 2 2 2
up_check bridge:16 torus:16 16 "11" 16

# the largest testbed the tests use: 64 nodes, 4032 routes and peers; in
# make vmcheck-full only (mcast_full: CI's hour; net_modes.t brings an 8x8
# up in every run)
_t0=$(date +%s)
if [ "${mcast_full:-0}" != 1 ]; then
	:
elif _out=$(mcastbed up torus:8x8 2>&1); then
	_dt=$(($(date +%s) - _t0))
	if [ "$_dt" -lt 60 ]; then
		pass "mcastbed up torus:8x8 in under a minute ($_dt s)"
	else
		fail "mcastbed up torus:8x8 in under a minute ($_dt s)"
	fi
	_got="$(route_hops 0 63) $(route_hops 63 0) $(mcastbed exec 63 mcastctl peer show | grep -c '^peer')"
	is "$_got" "14 2 63" "torus:8x8: 14 hops (0,0)->(7,7), 2 hops back, 63 peers on node 63"
	run_ok "torus:8x8: node 63 pings node 0" ip netns exec mcb63 ping -c 1 -W 2 10.77.0.0
else
	fail "mcastbed up torus:8x8" "$_out"
	skip "torus:8x8 routes" "not up"
	skip "torus:8x8 ping" "not up"
fi
if [ "${mcast_full:-0}" = 1 ]; then
	_t0=$(date +%s)
	run_ok "mcastbed down (torus:8x8)" mcastbed down
	diag "torus:8x8 down: $(($(date +%s) - _t0)) s"
fi

# groups, netem, kill on a small torus
mcastbed up torus:3x3:bi > /dev/null 2>&1
run_ok "mcastbed group 3 all" mcastbed group 3 all
_g=$(mcastbed exec 4 mcastctl group show 3 2>&1)
case $_g in
*"(2,2)"*) pass "group 3 has the node (2,2) on node 4" ;;
*) fail "group 3 has the node (2,2) on node 4" "$_g" ;;
esac
run_ok "mcastbed group 4 random 4 --seed 7" mcastbed group 4 random 4 --seed 7
is "$(mcastbed exec 0 mcastctl -j group show 4 | grep -o '\[[0-9],[0-9]\]' | sort -u | wc -l)" \
	4 "group 4 has 4 members"
run_ok "mcastbed netem 'delay 1ms'" mcastbed netem "delay 1ms"
is "$(ip -n mcb4 -o link show | grep -c netem)" 4 "node 4's four links have netem"
run_ok "mcastbed kill 1,1" mcastbed kill 1,1
is "$(ip netns list | grep -c mcb)" 8 "eight nodes left"
run_ok "mcastbed down" mcastbed down

# --port and --netem at up
run_ok "mcastbed up torus:2x2 --port 7500 --netem 'delay 1ms'" \
	mcastbed up torus:2x2 --port 7500 --netem "delay 1ms"
is "$(ip -n mcb3 -o link show | grep -c netem)" 2 "node 3's two links have netem"
_port=$(mcastbed show | sed -n 's/.*, port \([0-9][0-9]*\).*/\1/p')
_tp=$(mcastbed exec 2 mcastctl -j node show | sed -n 's/.*"transport": *"\([a-z]*\)".*/\1/p')
[ "$_tp" = tcp ] || _tp=udp	# a mcastctl without transports: udp
if [ "$_port" = 7500 ]; then
	# the node's socket is bound to port 7500 (0x1D4C)
	if ip netns exec mcb2 cat /proc/net/$_tp /proc/net/${_tp}6 2>/dev/null | grep -q ':1D4C '; then
		pass "node 2's transport listens on $_tp port 7500"
	else
		fail "node 2's transport listens on $_tp port 7500" \
			"$(ip netns exec mcb2 cat /proc/net/$_tp /proc/net/${_tp}6 2>&1)"
	fi
else
	skip "node 2's transport listens on port 7500" "this mcast.ko cannot set the port (uses $_port)"
fi
is "$(mcastbed exec 0 mcastctl peer show | grep -c " port $_port\$")" 3 \
	"node 0's three peers have port $_port"
_out=$(mcastbed exec 0 mcastperf msg --nodes 1,2,3 --size 1K 2>&1)
case $? in
0) pass "a completion-mode send from node 0 reaches nodes 1-3 on port $_port" ;;
3) skip "a completion-mode send from node 0 reaches nodes 1-3" "no inter-node data path" ;;
*) fail "a completion-mode send from node 0 reaches nodes 1-3 on port $_port" "$_out" ;;
esac
run_ok "mcastbed down (torus:2x2)" mcastbed down

rmmod mcast
done_testing
tap_exit
