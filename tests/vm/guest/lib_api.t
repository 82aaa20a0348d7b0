#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# libmcast's API against the module: sets up node 6 = (1,2) of a 4x4
# torus and group 1, then runs the TAP program built from tests/lib/lib_api.c
# (build/libtest/lib_api, linked against build/lib/libmcast.so.1): info,
# join/leave, group and node-list sends, loopback, scatter/gather,
# truncation, poll, overflow accounting, io_uring send and receive.

# shellcheck source=tests/vm/guest/tap.sh
. /tests/tap.sh

prog=/usr/local/bin/lib_api
if [ ! -x $prog ] || [ ! -x /usr/local/bin/mcastctl ]; then
	skip_all "no lib_api or mcastctl in the guest (GUEST_PROGS)"
fi

rmmod mcast 2>/dev/null
if ! out=$(insmod "$MCAST_KO" 2>&1 &&
	mcastctl node set topology torus:4x4 coord 1,2 2>&1 &&
	mcastctl group add 1 members 1,2 0,0 2>&1); then
	plan 1
	fail "setup: insmod, node set, group add" "$out"
	tap_exit
fi

$prog
rc=$?
mcastctl group del 1 > /dev/null 2>&1
rmmod mcast 2>/dev/null
exit $rc
