#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# The simulated IR fabric on every kernel after the first (CI's scale; the
# first kernel and make vmcheck-full run the whole of net_irsim.t, and this
# test with it in vmcheck-full).  What differs between kernel releases is
# what mcast_irsim.ko takes from the kernel (debugfs, timers, work, the
# data path's skbs), so: a bad specification is refused, mcastbed makes a
# 2x2 fabric and a cluster on it multicasts (a group send and a
# completion-mode one, as S-torus worms), a fabric losing every third worm
# still delivers every message once, the model's checks stay quiet, the
# fabric cannot go while used, goes with the testbed, and the module
# unloads with a fabric up.

# shellcheck source=tests/vm/guest/tap.sh
. /tests/tap.sh

# shellcheck source=tests/vm/guest/netlib.sh
. /tests/netlib.sh

IRSIM_KO=${MCAST_KO%/*}/mcast_irsim.ko
D=/sys/kernel/debug/mcast_irsim

stat_of() { # NAME
	sed -n "s/^$1 //p" $D/stats
}

run_ok "insmod mcast.ko" insmod "$MCAST_KO"
run_ok "insmod mcast_irsim.ko" insmod "$IRSIM_KO"
run_fails "fabric 'torus:4x1' is refused" sh -c "echo torus:4x1 > $D/fabric"
is "$(cat $D/fabric)" none "no fabric after the refusal"

N=4 TOPO=torus:2x2:uni
if out=$(mcastbed up "$TOPO" --transport irsim 2>&1); then
	case $(cat $D/fabric) in
	"torus:2x2 vc_sets=2 "*) pass "mcastbed up --transport irsim made a torus:2x2 fabric" ;;
	*) fail "mcastbed up --transport irsim made a torus:2x2 fabric" "$(cat $D/fabric)" ;;
	esac
	MEM="0 1 2 3" ALGO=s-torus
	run_ok "$TOPO: group 1 with every node" mcastbed group 1 all
	round "irsim: group 1 from node 1" 1 g:1 "$MEM" 0,1400,70000
	round "irsim: node list from node 2, completion mode" 2 n:0,3 "0 3" 8,20000 wait
	run_ok "drop_every 3" sh -c "echo 3 > $D/drop_every"
	round "irsim, every 3rd worm lost: group 1 from node 3" 3 g:1 "$MEM" 1400,20000
	[ "$(stat_of drops)" -gt 0 ] &&
		pass "the fabric lost $(stat_of drops) worms" ||
		fail "the fabric lost worms" "$(cat $D/stats)"
	echo 0 > $D/drop_every
	is "$(stat_of deadlocks)/$(stat_of lambda_violations)/$(stat_of boundary_violations)" \
		0/0/0 "no deadlock, every channel in Thm 5.1's order, one boundary at most"
	run_fails "the fabric cannot go while nodes use it" sh -c "echo none > $D/fabric"
else
	fail "mcastbed up $TOPO --transport irsim" "$out"
fi
mcastbed down > /dev/null 2>&1
is "$(cat $D/fabric)" none "mcastbed down removed the fabric it made"

run_ok "fabric torus:4x4x4" sh -c "echo torus:4x4x4 > $D/fabric"
run_ok "rmmod mcast_irsim with the fabric up" rmmod mcast_irsim
run_ok "rmmod mcast" rmmod mcast
done_testing
tap_exit
