#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# The VM has what the integration tests build on: the in-tree modules
# (with their dependencies) load, network namespaces, veth, a bridge and
# netem work with the iproute2 tools, and the userspace programs run (their
# shared libraries are there).  A failure here is the harness's (see
# tests/vm/run.sh: IN_TREE_MODULES, GUEST_PROGS, HOST_PROGS), not mcast's.

# shellcheck source=tests/vm/guest/tap.sh
. /tests/tap.sh

plan 11

run_ok "modprobe veth" modprobe veth
run_ok "modprobe bridge (with its dependencies stp, llc)" modprobe bridge
run_ok "modprobe sch_netem" modprobe sch_netem

# shellcheck disable=SC2317 # called through run_ok
veth_pair() {
	ip link add ve0 type veth peer name ve1 &&
		ip link set ve1 netns vmenv &&
		ip link set ve0 up &&
		ip -n vmenv addr add 10.99.0.2/24 dev ve1 &&
		ip -n vmenv link set ve1 up
}

# shellcheck disable=SC2317 # called through run_ok
bridge_port() {
	ip link add vbr0 type bridge &&
		ip link set ve0 master vbr0 &&
		ip addr add 10.99.0.1/24 dev vbr0 &&
		ip link set vbr0 up
}

run_ok "ip netns add" ip netns add vmenv
run_ok "a veth pair, one end in the namespace" veth_pair
run_ok "a bridge with the veth as a port" bridge_port
run_ok "netem loss, delay with a distribution table, duplication, reordering" \
	ip netns exec vmenv tc qdisc add dev ve1 root netem \
		loss 1% delay 2ms 1ms distribution normal duplicate 1% reorder 1%
# Three tries: netem drops 1%.
run_ok "the namespace reaches the bridge through the veth" \
	ip netns exec vmenv ping -c 3 -W 2 10.99.0.1

ip link del vbr0 2>/dev/null
ip link del ve0 2>/dev/null
run_ok "ip netns del" ip netns del vmenv

run_ok "mcastctl runs" mcastctl --version
is "$(mcastctl --version 2>&1)" "mcastctl $(modinfo -F version "$MCAST_KO")" \
	"mcastctl and mcast.ko have the same version"

tap_exit
