#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# mcastctl node/peer/group/stats against the loaded module: configure a
# node of a 4x4 torus, add and remove peers and groups, read them back in
# text and JSON, and check that the kernel's refusals reach the user with
# their extack message and exit status 4.  Then unload: "not loaded".

# shellcheck source=tests/vm/guest/tap.sh
. /tests/tap.sh

if ! command -v mcastctl > /dev/null 2>&1 && [ ! -x /usr/local/bin/mcastctl ]; then
	skip_all "no mcastctl in the guest (GUEST_PROGS)"
fi

# expect DESC STATUS SUBSTRING CMD...: CMD exits STATUS and its output
# (stdout and stderr) holds SUBSTRING.
expect() {
	_d=$1 _st=$2 _sub=$3
	shift 3
	_out=$("$@" 2>&1)
	_rc=$?
	if [ "$_rc" -eq "$_st" ] && case $_out in *"$_sub"*) true ;; *) false ;; esac; then
		pass "$_d"
	else
		fail "$_d" "\`$*\`: exit $_rc (want $_st), want output holding: $_sub" "$_out"
	fi
}

# The kernel loads mcast.ko by itself when a program asks for the "mcast"
# genetlink family (its module alias): without_autoload CMD... runs CMD
# with module autoloading off, as on a host where mcast is not installed.
# shellcheck disable=SC2317 # called through expect and is
without_autoload() {
	_mp=$(cat /proc/sys/kernel/modprobe)
	echo /nonexistent > /proc/sys/kernel/modprobe
	"$@"
	_r=$?
	echo "$_mp" > /proc/sys/kernel/modprobe
	return "$_r"
}

# A previous test may have left the module loaded.
rmmod mcast 2>/dev/null

plan 33

expect "without the module: node show says it is not loaded" 4 \
	"mcast kernel module is not loaded" without_autoload mcastctl node show
run_ok "insmod mcast.ko" insmod "$MCAST_KO"

expect "node show: not configured yet" 0 "not configured" mcastctl node show
is "$(mcastctl -j node show 2>&1)" '{"configured":false}' \
	"-j node show: {\"configured\":false}"
expect "peer add before the node is configured is refused" 1 \
	"not configured" mcastctl peer add 1,3 addr 10.0.0.7 port 7447

run_ok "node set topology torus:4x4 coord 1,2" \
	mcastctl node set topology torus:4x4 coord 1,2
is "$(mcastctl node show -j 2>&1)" \
	'{"configured":true,"id":6,"coord":[1,2],"topology":{"kind":"torus","dims":[4,4],"links":"uni","nodes":16},"transport":"tcp","transport_caps":["reliable"],"transport_mtu":65536,"port":7447,"rto_ms":200,"retries":6,"key_id":null,"key_ids":[]}' \
	"node show -j: id 6, coordinate [1,2], torus 4x4 uni, TCP transport defaults (reliable, 64 KiB datagrams)"
expect "node show: text" 0 "(1,2)" mcastctl node show
run_ok "node set coord 1,2 again (no change)" mcastctl node set coord 1,2

run_ok "peer add 1,3 addr 10.0.0.7 port 7447" \
	mcastctl peer add 1,3 addr 10.0.0.7 port 7447
run_ok "peer add id 11 addr fd00::b port 9000 (IPv6, by id)" \
	mcastctl peer add id 11 addr fd00::b port 9000
is "$(mcastctl -j peer show 2>&1)" \
	'[{"id":7,"coord":[1,3],"addr":"10.0.0.7","port":7447},{"id":11,"coord":[2,3],"addr":"fd00::b","port":9000}]' \
	"-j peer show lists both peers"
is "$(mcastctl peer show 1,3 -j 2>&1)" \
	'[{"id":7,"coord":[1,3],"addr":"10.0.0.7","port":7447}]' \
	"peer show 1,3 -j: that peer only"
expect "peer add of an existing peer: the kernel's message, exit 4" 4 \
	"peer exists" mcastctl peer add 1,3 addr 10.0.0.8 port 1
expect "peer add of this node itself: refused with the kernel's reason" 4 \
	"the peer is this node" mcastctl peer add 1,2 addr 10.0.0.9 port 1
expect "peer add outside the torus: refused before the kernel" 1 \
	"out of range" mcastctl peer add 4,0 addr 10.0.0.9 port 1
expect "node set coord while peers exist: EBUSY with its reason" 4 \
	"while peers or groups exist" mcastctl node set coord 2,2

run_ok "group add 5" mcastctl group add 5
expect "group add 5 again: the kernel says it exists" 4 "group exists" \
	mcastctl group add 5
run_ok "group set 5 members 3,3 0,0 1,2" \
	mcastctl group set 5 members 3,3 0,0 1,2
out=$(mcastctl -j group show 5 2>&1)
case $out in
'[{"id":5,"epoch":'*',"local":0,"nmembers":3,"members":[[3,3],[0,0],[1,2]],"rchain":[[0,0],[1,2],[3,3]],"hcycle":['*) pass "-j group show 5: members as given, R-chain in <_d order, an H-cycle" ;;
*) fail "-j group show 5: members as given, R-chain in <_d order, an H-cycle" "$out" ;;
esac
expect "group show: text lists the r-chain" 0 "r-chain  (0,0) (1,2) (3,3)" \
	mcastctl group show
expect "group set with a repeated member: refused before the kernel" 1 \
	"repeated" mcastctl group set 5 members 0,0 0,0
expect "group show 99: no such group, exit 4" 4 "no such group" \
	mcastctl group show 99
expect "group set 99: no such group" 4 "no such group" \
	mcastctl group set 99 members 0,0

out=$(mcastctl -j stats show 2>&1)
case $out in
'{"node":{"tx_msgs":0,'*'"groups":[{"group":5,'*) pass "-j stats show: the node's and group 5's counters" ;;
*) fail "-j stats show: the node's and group 5's counters" "$out" ;;
esac
expect "stats show group 5" 0 "group 5:" mcastctl stats show group 5
expect "stats show group 99: no such group" 4 "no such group" \
	mcastctl stats show group 99

run_ok "group del 5" mcastctl group del 5
run_ok "peer del 1,3" mcastctl peer del 1,3
run_ok "peer del id 11" mcastctl peer del id 11
is "$(mcastctl -j peer show 2>&1)$(mcastctl -j group show 2>&1)" "[][]" \
	"no peers and no groups left"

rmmod mcast
expect "after rmmod: the module is not loaded, exit 4" 4 \
	"the mcast kernel module is not loaded (modprobe mcast)" \
	without_autoload mcastctl group show

tap_exit
