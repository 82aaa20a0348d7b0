#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# libmcast's example against the module: mcast_hello opens /dev/mcast,
# reads the node's info, joins a group, sends to it with
# MCAST_SEND_LOOPBACK and receives its own message.

# shellcheck source=tests/vm/guest/tap.sh
. /tests/tap.sh

if [ ! -x /usr/local/bin/mcast_hello ] || [ ! -x /usr/local/bin/mcastctl ]; then
	skip_all "no mcast_hello or mcastctl in the guest (GUEST_PROGS)"
fi

# A previous test may have left the module loaded.
rmmod mcast 2>/dev/null

plan 7

out=$(/usr/local/bin/mcast_hello 2>&1)
rc=$?
is "$rc:$out" \
	"1:mcast_hello: no /dev/mcast: the mcast kernel module is not loaded (modprobe mcast)" \
	"without the module: mcast_open gives -ENOENT, reported as 'not loaded'"
run_ok "insmod mcast.ko" insmod "$MCAST_KO"
run_ok "node set topology torus:4x4 coord 1,2" \
	mcastctl node set topology torus:4x4 coord 1,2
run_ok "group add 1 members 1,2 3,3" mcastctl group add 1 members 1,2 3,3

out=$(/usr/local/bin/mcast_hello 1 2>&1)
rc=$?
is "$rc" 0 "mcast_hello 1 exits 0 (it received a message)"
[ $rc -eq 0 ] || diag "$out"
case $out in
*"abi 1, node 6, torus 4x4, coordinate (1,2)"*) pass "it prints the node's info" ;;
*) fail "it prints the node's info" "$out" ;;
esac
case $out in
*"received 17 bytes from node 6, group 1, seq "*": hello from node 6"*) pass "it received its own message, byte-exact" ;;
*) fail "it received its own message, byte-exact" "$out" ;;
esac

mcastctl group del 1 > /dev/null 2>&1
rmmod mcast 2>/dev/null

tap_exit
