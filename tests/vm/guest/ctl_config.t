#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# mcastctl node/peer/group/stats against the loaded module: configure a
# node of a 4x4 torus, add and remove peers and groups, read them back in
# text and JSON, and check that the kernel's refusals reach the user with
# their extack message and exit status 4; the node's algorithm and the
# worms' limits on a transport with IR.  Then unload: "not loaded".

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

# A previous test may have left the module loaded.
rmmod mcast 2>/dev/null

plan 109

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
	'{"configured":true,"id":6,"coord":[1,2],"topology":{"kind":"torus","dims":[4,4],"links":"uni","nodes":16},"transport":"tcp","transport_caps":["reliable"],"transport_mtu":65536,"port":7447,"rto_ms":200,"retries":6,"algorithm":"auto","algo_r":8,"key_id":null,"key_ids":[]}' \
	"node show -j: id 6, coordinate [1,2], torus 4x4 uni, TCP transport defaults (reliable, 64 KiB datagrams), algorithm auto, r 8"
expect "node show: text" 0 "(1,2)" mcastctl node show
run_ok "node set coord 1,2 again (no change)" mcastctl node set coord 1,2

# The node's algorithm, in mcastctl's words; TCP has no IR, so auto is
# U-torus and a path-based one sends its worms in software (chains).
algo_text() {
	mcastctl node show | sed -n 's/^algorithm *//p'
}
algo_json() {
	mcastctl -j node show |
		sed -n 's/.*"algorithm":\("[^"]*","algo_r":[0-9]*\).*/\1/p'
}
# set_algo WORD TEXT JSON: node set algorithm WORD, then node show says
# TEXT and node show -j JSON.
set_algo() {
	run_ok "node set algorithm $1" mcastctl node set algorithm "$1"
	is "$(algo_text)" "$2" "node show after algorithm $1: $2"
	is "$(algo_json)" "$3" "node show -j after algorithm $1: $3"
}
noir="worms in software: the transport has no ir"
is "$(algo_text)" "auto (u-torus; mu-torus:4 chains from 512 KiB: the transport has no ir)" \
	"node show: algorithm auto, which is u-torus without IR"
set_algo u-torus "u-torus" '"u-torus","algo_r":8'
set_algo s-torus "s-torus ($noir)" '"s-torus","algo_r":8'
set_algo md-torus "md-torus ($noir)" '"md-torus","algo_r":8'
set_algo mu-torus:4 "mu-torus:4 ($noir)" '"mu-torus","algo_r":4'
set_algo u-torus "u-torus" '"u-torus","algo_r":4'
set_algo mu-torus "mu-torus:4 ($noir)" '"mu-torus","algo_r":4'
expect "algorithm mu-torus:1: refused before the kernel" 1 \
	'algorithm "mu-torus:1": R must be 2 to 255' \
	mcastctl node set algorithm mu-torus:1
expect "algorithm mu-torus:256: refused before the kernel" 1 \
	'algorithm "mu-torus:256": R must be 2 to 255' \
	mcastctl node set algorithm mu-torus:256
expect "algorithm separate: the accepted forms are named" 1 \
	"expected auto, u-torus, s-torus, md-torus, mu-torus, mu-torus:R, binomial, u-cube, maxport, combine, w-sort, ring, rb or rb-all-port" \
	mcastctl node set algorithm separate
expect "s-torus on a bidirectional torus: the kernel's reason, exit 4" 4 \
	"path-based algorithms (UTPR) need a unidirectional torus" \
	mcastctl node set topology torus:4x4:bi algorithm s-torus
expect "a bidirectional torus under mu-torus: refused, naming the node's algorithm" \
	4 "the node's algorithm" mcastctl node set topology torus:4x4:bi
if [ -x /usr/local/bin/mcast_probe ]; then
	expect "an unprivileged user cannot set the algorithm" 4 \
		"(this command needs CAP_NET_ADMIN)" mcast_probe nobody exec \
		/usr/local/bin/mcastctl node set algorithm s-torus
else
	skip "an unprivileged user cannot set the algorithm" "no mcast_probe"
fi
is "$(algo_json),$(mcastctl -j node show | sed -n 's/.*"links":"\([a-z]*\)".*/\1/p')" \
	'"mu-torus","algo_r":4,uni' "refused requests changed nothing"
set_algo auto "auto (u-torus; mu-torus:4 chains from 512 KiB: the transport has no ir)" '"auto","algo_r":4'

# A transport with IR (the simulated fabric): the worms' limits, and auto
# sends worms.
IRSIM_KO=${MCAST_KO%/*}/mcast_irsim.ko
D=/sys/kernel/debug/mcast_irsim
if insmod "$IRSIM_KO" 2>/dev/null && echo torus:4x4 > $D/fabric; then
	run_ok "node set transport irsim" mcastctl node set transport irsim
	case $(mcastctl node show) in
	*"worms        of up to "[1-9]*" destinations, "[1-9]*"-byte compound headers"*)
		pass "node show on irsim: the worms' limits" ;;
	*) fail "node show on irsim: the worms' limits" "$(mcastctl node show)" ;;
	esac
	case $(mcastctl -j node show) in
	*'"algorithm":"auto","algo_r":4,"worm_dests":'[1-9]*',"worm_hdr":'[1-9]*',"key_id":'*)
		pass "node show -j on irsim: worm_dests and worm_hdr" ;;
	*) fail "node show -j on irsim: worm_dests and worm_hdr" "$(mcastctl -j node show)" ;;
	esac
	is "$(algo_text)" "auto (s-torus or mu-torus:4)" "node show on irsim: auto sends worms"
	run_ok "node set transport tcp" mcastctl node set transport tcp
	case $(mcastctl -j node show) in
	*worm_*) fail "back on TCP: no worm limits" "$(mcastctl -j node show)" ;;
	*) pass "back on TCP: no worm limits" ;;
	esac
	echo none > $D/fabric
	run_ok "rmmod mcast_irsim" rmmod mcast_irsim
else
	rmmod mcast_irsim 2>/dev/null
	for _t in "node set transport irsim" "node show on irsim: the worms' limits" \
		"node show -j on irsim: worm_dests and worm_hdr" \
		"node show on irsim: auto sends worms" "node set transport tcp" \
		"back on TCP: no worm limits" "rmmod mcast_irsim"; do
		skip "$_t" "no mcast_irsim.ko or no fabric"
	done
fi

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
# -s: the data path's view; nothing was sent to it, nothing heard
is "$(mcastctl peer show 1,3 -s -j 2>&1)" \
	'[{"id":7,"coord":[1,3],"addr":"10.0.0.7","port":7447,"srtt_us":0,"rttvar_us":0,"rto_ms":200,"rto_held_ms":0,"transfers":0,"jobs":0,"held":0,"streams":0,"rx_mem":0,"msg_mem":0,"rb":0,"down":false}]' \
	"peer show 1,3 -s -j: no round trip yet, the node's rto, never heard"
is "$(mcastctl peer show -s 2>&1 | sed -n 2,3p)" \
	"    srtt 0.000 ms rttvar 0.000 ms rto 200 ms rto_held 0 ms heard never
    transfers 0 jobs 0 held 0 streams 0" "peer show -s: a second and third line per peer"
is "$(mcastctl peer show -s 2>&1 | sed -n 4p)" "    rx_mem 0 msg_mem 0 rb 0" \
	"peer show -s: a fourth: the memory its transfers take here"
is "$(mcastctl peer show -s 2>&1 | grep -c '^peer ')" 2 "peer show -s: both peers"
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
'[{"id":5,"epoch":'*',"local":0,"nmembers":3,"managed":false,"members":[[3,3],[0,0],[1,2]],"rchain":[[0,0],[1,2],[3,3]],"hcycle":['*) pass "-j group show 5: members as given, R-chain in <_d order, an H-cycle" ;;
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
case $out in
*'"worms":0,"worm_dests":0,"worm_splits":0,"offload_fallbacks":0,"rx_worms":0,'*'"groups"'*)
	pass "-j stats show: the node's worm counters, at 0" ;;
*) fail "-j stats show: the node's worm counters, at 0" "$out" ;;
esac
# Text: one line a counter; -a shows those at 0, which are hidden without.
out=$(mcastctl stats show -a 2>&1) miss=
for k in worms worm_dests worm_splits offload_fallbacks rx_worms; do
	printf '%s\n' "$out" | grep -Eq "^ +$k +0\$" || miss="$miss $k"
done
if [ -z "$miss" ] && case $out in *"  offload and worms"*) true ;; *) false ;; esac; then
	pass "stats show -a: the worm counters, at 0, in their area"
else
	fail "stats show -a: the worm counters, at 0, in their area" "missing:$miss" "$out"
fi
out=$(mcastctl stats show 2>&1)
case $out in
*"offload and worms"*) fail "stats show: counters at 0 hidden" "$out" ;;
*) pass "stats show: counters at 0 hidden" ;;
esac
expect "stats show group 5" 0 "group 5:" mcastctl stats show group 5
expect "stats show group 99: no such group" 4 "no such group" \
	mcastctl stats show group 99

# --prometheus (docs/metrics.md) against the real counters: an idle node,
# so the JSON read before and after it holds the same values; first a
# message to a group of this node alone, so that some of them are not 0.
run_ok "group 78 is this node alone" mcastctl group add 78 members 1,2
run_ok "a message to group 78" mcast_probe tx g:78 300 wait=5000
run_ok "group del 78" mcastctl group del 78
j=$(mcastctl -j stats show 2>&1)
prom=$(mcastctl stats show --prometheus 2>&1)
rc=$?
j2=$(mcastctl -j stats show 2>&1)
is "$rc" 0 "stats show --prometheus exits 0"
bad=$(printf '%s\n' "$prom" | grep -v '^# \(HELP\|TYPE\) mcast_' |
	grep -Ev '^mcast_[a-z_]+\{node="6"(,group="[0-9]+")?\} [0-9]+(\.[0-9]+)?$')
is "$bad" "" "--prometheus: every sample is mcast_NAME{node=\"6\"[,group=\"N\"]} VALUE"
is "$(printf '%s\n' "$prom" | grep '^# \(HELP\|TYPE\) ' | cut -d' ' -f2,3 | sort | uniq -d)" "" \
	"--prometheus: each metric has one HELP and one TYPE line"
# the node's JSON keys and values, "key value" a line
node_kv() { # JSON
	printf '%s\n' "$1" | sed 's/^{"node":{\([^}]*\)}.*/\1/' | tr ',' '\n' |
		sed -n 's/^"\([a-z0-9_]*\)":\([0-9]*\)$/\1 \2/p'
}
# the value of the node's metric for KEY (its name by docs/metrics.md)
prom_of() { # KEY
	case $1 in
	timer_ns) _m=mcast_timer_seconds_total ;;
	*) _m="mcast_$1 mcast_$1_total mcast_$1_bytes" ;;
	esac
	for _n in $_m; do
		printf '%s\n' "$prom" | sed -n "s/^$_n{node=\"6\"} //p"
	done
}
miss="" diff="" nk=0 nz=0
node_kv "$j" > /tmp/ctl_kv
while read -r k v; do
	nk=$((nk + 1))
	[ "$v" = 0 ] || nz=$((nz + 1))
	pv=$(prom_of "$k")
	if [ -z "$pv" ]; then
		miss="$miss $k"
	elif [ "$k" != timer_ns ] && [ "$pv" != "$v" ] &&
	     printf '%s\n' "$j2" | grep -q "\"$k\":${v}[,}]"; then
		diff="$diff $k=$v/$pv"
	fi
done < /tmp/ctl_kv
[ "$nk" -ge 40 ] && [ -z "$miss" ] &&
	pass "--prometheus: a metric for every one of the $nk -j node keys" ||
	fail "--prometheus: a metric for every -j node key" "keys $nk, missing:$miss"
[ "$nz" -ge 2 ] && [ -z "$diff" ] &&
	pass "--prometheus: each value is the JSON's ($nz of them not 0)" ||
	fail "--prometheus: each value is the JSON's" "differ:$diff; not 0: $nz"
case $prom in
*'mcast_tx_msgs_total{node="6"} 1'*'mcast_tx_bytes_total{node="6"} 300'*)
	pass "--prometheus: the message to group 78 counted" ;;
*) fail "--prometheus: the message to group 78 counted" "$prom" ;;
esac
case $prom in
*'mcast_group_tx_msgs_total{node="6",group="5"} 0'*'mcast_group_files{node="6",group="5"} 0'*)
	pass "--prometheus: group 5's metrics, labelled group 5" ;;
*) fail "--prometheus: group 5's metrics, labelled group 5" "$prom" ;;
esac
expect "--prometheus with -j: refused, exit 2" 2 "" \
	mcastctl -j stats show --prometheus
ip netns add ctl_unconf
out=$(ip netns exec ctl_unconf mcastctl stats show --prometheus 2>/tmp/ctl_err)
rc=$?
ip netns del ctl_unconf
is "$rc:$out" 1: "--prometheus on an unconfigured node: exit 1, nothing on stdout"
expect "... and it says why" 0 "this node is not configured" cat /tmp/ctl_err

# Two writers: an if-match epoch, and a group mcastd manages.
ep=$(mcastctl -j group show 5 | sed -n 's/.*"epoch":\([0-9]*\).*/\1/p')
expect "group set epoch (stale): ESTALE, and what changed" 4 \
	"changed since it was read" \
	mcastctl group set 5 epoch 1 members 0,0
run_ok "group set epoch $ep (current) applies" \
	mcastctl group set 5 epoch "$ep" members 0,0 1,1
run_ok "group set 5 managed 1: mcastd keeps it" mcastctl group set 5 managed 1
expect "group show says managed by mcastd" 0 "managed by mcastd" \
	mcastctl group show 5
expect "group set of a managed group: EBUSY, say who keeps it" 4 \
	"is managed by mcastd" \
	mcastctl group set 5 members 0,0
expect "group del of a managed group: EBUSY" 4 "managed by mcastd" \
	mcastctl group del 5
is "$(mcastctl -j group show 5 | sed -n 's/.*"members":\[\(.*\)\],"rchain".*/\1/p')" \
	'[0,0],[1,1]' "the refused changes changed nothing"
run_ok "group set 5 managed 0 members 0,0: taken back" \
	mcastctl group set 5 managed 0 members 0,0
expect "group set epoch 0: refused before sending" 1 "epoch" \
	mcastctl group set 5 epoch 0 members 0,0
expect "group set managed 2: refused before sending" 1 "0 or 1" \
	mcastctl group set 5 managed 2

# A join of a group the node does not have creates it (GROUP_NEW event).
mcastmon -j > /tmp/ctl_mon.out 2>&1 &
monpid=$!
sleep 1
expect "an application joins group 77, unknown to the node" 0 "total 0" \
	mcast_probe rx 77 300
kill "$monpid" 2> /dev/null
wait "$monpid" 2> /dev/null
expect "the join made group 77: this node its only member" 0 \
	'"id":77,' mcastctl -j group show 77
case $(cat /tmp/ctl_mon.out) in
*'"event":"group-add"'*'"id":77'*) pass "mcastmon saw group 77 created" ;;
*) fail "mcastmon saw group 77 created" "$(cat /tmp/ctl_mon.out)" ;;
esac
run_ok "group del 77" mcastctl group del 77

# Joins create groups, so a node holds at most MCAST_MAX_GROUPS (4096).
i=1000
while [ $i -lt 5095 ]; do
	echo "group add $i members 0,0"
	i=$((i + 1))
done > /tmp/ctl_many
run_ok "4095 more groups (4096 with group 5), in one batch" \
	mcastctl -batch /tmp/ctl_many
expect "group 4097 is refused: ENOSPC" 4 "MCAST_MAX_GROUPS" \
	mcastctl group add 9000 members 0,0
expect "a join that would create group 4097 is refused: ENOSPC" 2 \
	"No space left on device" mcast_probe rx 9001 300
sed -i 's/^group add \([0-9]*\) .*/group del \1/' /tmp/ctl_many
run_ok "... and the 4095 deleted, in one batch" mcastctl -batch /tmp/ctl_many
expect "a join creates a group again" 0 "total 0" mcast_probe rx 9001 300
run_ok "group del 9001" mcastctl group del 9001

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
