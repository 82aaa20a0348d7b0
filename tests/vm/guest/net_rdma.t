#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# mcastd lists the host's RDMA ports (daemon/rdma.c, with libibverbs).  A
# 2x2 torus testbed made with --daemon, then a soft-RoCE device (rdma_rxe)
# on node 0's first veth:
#  - before it, node 0's daemon says "none", in its log and cluster show;
#  - restarted after it, the daemon logs rxe0 port 1, and cluster show
#    lists it (active, Ethernet) in text and in JSON;
#  - the device deleted, SIGHUP makes the daemon read the list again;
#  - down: no namespace, no RDMA link, no rdma_rxe left.
# RDMA devices are in the shared netns mode by default: the daemon, in
# node 0's netns, sees the device whichever netns made it.

# shellcheck source=tests/vm/guest/tap.sh
. /tests/tap.sh

# shellcheck source=tests/vm/guest/netlib.sh
. /tests/netlib.sh

[ -x /usr/local/bin/mcastd ] || skip_all "no mcastd in the guest"
# its DT_NEEDED names libibverbs when it was built with it
grep -q libibverbs /usr/local/bin/mcastd ||
	skip_all "mcastd was built without libibverbs"
[ -x /usr/local/bin/rdma ] || skip_all "no rdma (iproute2) in the guest"
[ -e /etc/libibverbs.d/rxe.driver ] ||
	skip_all "no soft-RoCE provider of libibverbs in the guest"
had_rxe=0
grep -q '^rdma_rxe ' /proc/modules && had_rxe=1
modprobe rdma_rxe 2>/dev/null || skip_all "no rdma_rxe module"
modprobe ib_uverbs 2>/dev/null	# a dependency on most kernels, not all
# rxe's ICRC: the kernel asks for crc32 when a device is added, and the
# guest cannot autoload crypto modules
modprobe crc32_generic 2>/dev/null

STATE=/run/mcastbed
LOG=$STATE/mcastd.0.log
RDMA=/usr/local/bin/rdma	# `mcastbed exec` runs programs, not functions
export MCASTBED_HEARTBEAT=500ms MCASTBED_SUSPECT=4s MCASTBED_DEAD=4s \
	MCASTBED_SYNC=2s

cleanup() {
	mcastbed exec 0 "$RDMA" link delete rxe0 2>/dev/null
	mcastbed down
	rmmod mcast 2>/dev/null
	[ "$had_rxe" = 1 ] || modprobe -r rdma_rxe 2>/dev/null
}

# node 0's cluster show (text, or with -j JSON) contains $2, within 10 s
show_has() { # ARGS PATTERN
	_t=0
	while [ "$_t" -lt 20 ]; do
		# shellcheck disable=SC2086 # "" or -j
		case $(mcastbed exec 0 mcastctl $1 cluster show 2>&1) in
		*"$2"*) return 0 ;;
		esac
		sleep 0.5
		_t=$((_t + 1))
	done
	return 1
}

run_ok "insmod mcast.ko" insmod "$MCAST_KO"
if ! mcastbed up torus:2x2 --daemon > /dev/null 2>&1; then
	fail "mcastbed up torus:2x2 --daemon" "$(tail -n 5 "$LOG" 2>/dev/null)"
	cleanup
	done_testing
	exit 1
fi
pass "mcastbed up torus:2x2 --daemon"

# --- no device yet
if show_has "" "rdma         none"; then
	pass "node 0's cluster show: rdma none"
else
	fail "node 0's cluster show: rdma none" \
		"$(mcastbed exec 0 mcastctl cluster show 2>&1 | grep rdma)"
fi
if grep -q "info: no RDMA devices" "$LOG"; then
	pass "node 0's log: no RDMA devices"
else
	fail "node 0's log: no RDMA devices" "$(grep -i rdma "$LOG")"
fi

# --- soft-RoCE on node 0's first veth (d0p: mcastbed's +1 link in
# dimension 0; on a ring of 2 the only one)
IF=d0p
if ! mcastbed exec 0 test -e /sys/class/net/$IF; then
	fail "node 0 has $IF" "its links: $(mcastbed exec 0 ls /sys/class/net | tr '\n' ' ')"
	IF=$(mcastbed exec 0 ls /sys/class/net | grep -v '^lo$' | head -n 1)
fi
run_ok "rdma link add rxe0 type rxe netdev $IF (node 0's netns)" \
	mcastbed exec 0 "$RDMA" link add rxe0 type rxe netdev "$IF"
_t=0
while [ "$_t" -lt 20 ]; do
	case $(mcastbed exec 0 "$RDMA" link show rxe0/1 2>&1) in
	*"state ACTIVE"*) break ;;
	esac
	sleep 0.5
	_t=$((_t + 1))
done
case $(mcastbed exec 0 "$RDMA" link show rxe0/1 2>&1) in
*"state ACTIVE"*) pass "rxe0/1 is ACTIVE" ;;
*) fail "rxe0/1 is ACTIVE" "$(mcastbed exec 0 "$RDMA" link show 2>&1)" ;;
esac

# the daemon lists the ports at start-up (and on SIGHUP): restart it
run_ok "node 0's mcastd stops" mcastbed daemon 0 stop
run_ok "node 0's mcastd starts again" mcastbed daemon 0 start
run_ok "node 0's mcastd is in sync" mcastbed daemon 0 wait

if grep -q "info: RDMA rxe0 port 1 active Ethernet" "$LOG"; then
	pass "node 0's log: RDMA rxe0 port 1 active Ethernet"
else
	fail "node 0's log: RDMA rxe0 port 1 active Ethernet" \
		"$(grep -i 'rdma\|ibverbs' "$LOG")"
fi
out=$(mcastbed exec 0 mcastctl cluster show 2>&1)
case $out in
*"rdma         rxe0 port 1 active Ethernet mtu 1024"*)
	pass "cluster show: rxe0 port 1 active Ethernet mtu 1024" ;;
*) fail "cluster show: rxe0 port 1 active Ethernet mtu 1024" "$out" ;;
esac
out=$(mcastbed exec 0 mcastctl -j cluster show 2>&1)
case $out in
*'"rdma":[{"device":"rxe0","port":1,"state":"active","link_layer":"Ethernet",'*)
	pass "cluster show -j: rdma [rxe0 port 1 active Ethernet]" ;;
*) fail "cluster show -j: rdma [rxe0 port 1 active Ethernet]" \
	"$(echo "$out" | sed -n 's/.*\("rdma":.*\)/\1/p')" ;;
esac
# RoCE's GID 0 is the link-local address made from the MAC address
case $out in
*'"rdma":[{'*'"gid":"fe80:'*) pass "cluster show -j: rxe0's GID 0 is fe80::..." ;;
*) fail "cluster show -j: rxe0's GID 0 is fe80::..." \
	"$(echo "$out" | sed -n 's/.*\("rdma":.*\)/\1/p')" ;;
esac

# --- the device deleted; SIGHUP reads the list again
run_ok "rdma link delete rxe0" mcastbed exec 0 "$RDMA" link delete rxe0
run_ok "SIGHUP to node 0's mcastd" kill -HUP "$(cat "$STATE/mcastd.0.pid")"
if show_has "" "rdma         none"; then
	pass "after SIGHUP, node 0's cluster show: rdma none"
else
	fail "after SIGHUP, node 0's cluster show: rdma none" \
		"$(mcastbed exec 0 mcastctl cluster show 2>&1 | grep rdma)"
fi
is "$(grep -c "info: no RDMA devices" "$LOG")" 2 \
	"node 0's log: no RDMA devices, at the first start and after SIGHUP"
# libibverbs' own complaints (a provider it could not load) count too
if grep -qi "error\|sanitizer\|warning: RDMA\|libibverbs" "$LOG"; then
	fail "node 0's mcastd log has no error" \
		"$(grep -i 'error\|sanitizer\|warning: RDMA\|libibverbs' "$LOG" | head -n 5)"
else
	pass "node 0's mcastd log has no error"
fi

# --- nothing left
run_ok "mcastbed down" mcastbed down
is "$(ip netns list | grep -c mcb)" 0 "no namespaces left"
is "$("$RDMA" link show 2>&1 | grep -c rxe)" 0 "no RDMA link left"
rmmod mcast
if [ "$had_rxe" = 0 ]; then
	modprobe -r rdma_rxe 2>/dev/null
	if grep -q '^rdma_rxe ' /proc/modules; then
		fail "rdma_rxe unloaded" "$(grep '^rdma_rxe ' /proc/modules)"
	else
		pass "rdma_rxe unloaded"
	fi
fi

done_testing
