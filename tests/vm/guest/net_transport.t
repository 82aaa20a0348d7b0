#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# Transports: a node picks one by name (mcastctl node set transport NAME);
# an unknown name is refused with the kernel's reason and changes nothing.
# Then multicast over each of "udp" and "tcp" on a 4x4 unidirectional
# torus: group sends of sizes that take one, several and many fragments
# of either transport, and node-list sends in completion mode, every
# receiver getting every message once, byte-exact, in the step and from
# the node mcastctl plan shows; and mcast.ko unloads with the testbed
# (and the TCP connections) still up.  The rest of the VM suite runs on
# one transport per kernel (tests/vm/run.sh): this test covers both on
# every kernel.  On UDP, the segmentation and receive offloads work.

# shellcheck source=tests/vm/guest/tap.sh
. /tests/tap.sh

# shellcheck source=tests/vm/guest/netlib.sh
. /tests/netlib.sh

run_ok "insmod mcast.ko" insmod "$MCAST_KO"

# ---- configuration, in a namespace of its own
ip netns add tpcfg
in_cfg() {
	/usr/local/bin/ip netns exec tpcfg "$@"
}
transport_of() {
	in_cfg mcastctl -j node show | sed -n 's/.*"transport": *"\([^"]*\)".*/\1/p'
}
run_ok "node set topology torus:4x4 coord 1,2" \
	in_cfg mcastctl node set topology torus:4x4 coord 1,2
is "$(transport_of)" tcp "the default transport is tcp"
run_ok "node set transport udp" in_cfg mcastctl node set transport udp
is "$(transport_of)" udp "node show: transport udp"
out=$(in_cfg mcastctl node set transport nosuch 2>&1)
is "$?" 4 "node set transport nosuch: the kernel refuses (exit 4)"
case $out in
*"no such transport"*) pass "node set transport nosuch: the kernel says why" ;;
*) fail "node set transport nosuch: the kernel says why" "$out" ;;
esac
is "$(transport_of)" udp "after the refusal the node still uses udp"
out=$(in_cfg mcastctl node set transport abcdefghijklmnopq 2>&1)
is "$?" 1 "a 17-character transport name is refused by mcastctl"
run_ok "node set transport tcp port 7500" \
	in_cfg mcastctl node set transport tcp port 7500
is "$(transport_of)" tcp "back on tcp"
ip netns del tpcfg

# UDP datagrams NODE's netns sent or received (FIELD OutDatagrams or
# InDatagrams, IPv4 and IPv6): one per skb, so a GSO burst counts once
udp_mib() { # NODE FIELD
	mcastbed exec "$1" cat /proc/net/snmp /proc/net/snmp6 | awk -v f="$2" '
		$1 == "Udp:" && !h { for (i = 2; i <= NF; i++) if ($i == f) c = i; h = 1; next }
		$1 == "Udp:" { s += $c }
		$1 == "Udp6" f { s += $2 }
		END { print s + 0 }'
}

# the node's netstats counter NAME (mcast_probe stats)
# over UDP, bursts of full datagrams leave in one send (UDP_SEGMENT) and
# arrive in one read (UDP_GRO): after a 1 MiB round, node 0 (the source)
# sent several datagrams per UDP send and the nodes read several per read
# (at least 1.5 on average: how many coalesce depends on the timing, and
# a slow machine read 1.98; without UDP_GRO it is 1)
udp_offloads() {
	_dg=$(netstat_of 0 tx_packets) _sk=$(udp_mib 0 OutDatagrams)
	[ "$_sk" -gt 0 ] && [ "$_dg" -ge $((4 * _sk)) ] &&
		pass "udp: segmentation offload: node 0 sent $_dg datagrams in $_sk UDP sends" ||
		fail "udp: segmentation offload: node 0 sent 4 datagrams per UDP send" "$_dg in $_sk"
	_dg=0 _sk=0 _u=0
	while [ "$_u" -lt "$N" ]; do
		_dg=$((_dg + $(netstat_of "$_u" rx_packets)))
		_sk=$((_sk + $(udp_mib "$_u" InDatagrams)))
		_u=$((_u + 1))
	done
	[ "$_sk" -gt 0 ] && [ $((2 * _dg)) -ge $((3 * _sk)) ] &&
		pass "udp: receive offload: the nodes read $_dg datagrams in $_sk UDP reads" ||
		fail "udp: receive offload: the nodes read 1.5 datagrams per UDP read or more" "$_dg in $_sk"
}

# ---- data over each transport
N=16 TOPO=torus:4x4:uni
for TP in udp tcp; do
	up_on_transport || continue
	is "$(mcastbed exec 5 mcastctl -j node show |
		sed -n 's/.*"transport": *"\([^"]*\)".*/\1/p')" "$TP" \
		"$TP: node 5 uses $TP"
	members 1 9 31
	# 1 fragment of either; many of udp, 3 of tcp; 1 MiB
	round "$TP: group 1 from node 0" 0 g:1 "$MEM" 0,1400,150000,1048576
	[ "$TP" != udp ] || udp_offloads
	src=$(random_nodes 1 32)
	round "$TP: group 1 from node $src, completion mode" "$src" g:1 \
		"$MEM" 70000 wait
	lst=$(random_nodes 6 33)
	round "$TP: node list from 3, completion mode" 3 \
		"n:$(echo "$lst" | tr ' ' ',')" "$lst" 8,65536 wait
	if [ "$TP" = tcp ]; then
		# unload with every node's sockets still open
		run_ok "$TP: rmmod mcast with the testbed up" rmmod mcast
		mcastbed down > /dev/null 2>&1
		run_ok "insmod mcast.ko again" insmod "$MCAST_KO"
	else
		mcastbed down > /dev/null 2>&1
	fi
done

is "$(ip netns list | grep -c mcb)" 0 "no namespaces left"
run_ok "rmmod mcast" rmmod mcast
done_testing
tap_exit
