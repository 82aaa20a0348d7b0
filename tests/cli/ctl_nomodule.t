#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# mcastctl node/peer/group/stats and mcastmon without the module (the build
# host): every command says clearly that the module is not loaded and exits
# 4; syntax and value errors are found before the kernel is asked (exit 2
# for usage, 1 for a bad value), one line on stderr, nothing on stdout.
# The same against the module: tests/vm/guest/ctl_config.t, mon_events.t.
#
# MCASTCTL and MCASTMON name the binaries (default build/mcastctl,
# build/mcastmon).

# Commas inside coordinates are meant literally.
# shellcheck disable=SC2054

set -u

orig=$PWD
cd "$(dirname "$0")/../.." || exit 1
abs() { case $1 in /*) echo "$1" ;; *) echo "$orig/$1" ;; esac; }
MCASTCTL=$(abs "${MCASTCTL:-$PWD/build/mcastctl}")
MCASTMON=$(abs "${MCASTMON:-$PWD/build/mcastmon}")
for b in "$MCASTCTL" "$MCASTMON"; do
	if [ ! -x "$b" ]; then
		echo "Bail out! no binary at $b (set MCASTCTL / MCASTMON)"
		exit 1
	fi
done
if [ -e /sys/module/mcast ]; then
	echo "1..0 # SKIP the mcast module is loaded on this machine"
	exit 0
fi

tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT

# shellcheck source=tests/cli/tap.sh
. tests/cli/tap.sh

# check DESC STATUS SUBSTRING PROG ARGS...: PROG exits STATUS, prints
# nothing on stdout and one line holding SUBSTRING on stderr.
check() {
	local desc=$1 status=$2 want=$3 rc out err lines
	shift 3
	timeout 20 "$@" > "$tmp/out" 2> "$tmp/err" < /dev/null
	rc=$?
	out=$(cat "$tmp/out")
	err=$(cat "$tmp/err")
	lines=$(printf '%s\n' "$err" | wc -l)
	[ "$rc" -eq "$status" ] && [ -z "$out" ] && [ "$lines" -eq 1 ] &&
		[[ $err == *"$want"* ]]
	ok $? "$desc" "want exit $status and one line holding: $want
got exit $rc, stdout: $out
stderr: $err"
}

nl="mcastctl: the mcast kernel module is not loaded (modprobe mcast)"
ctl() { check "$1" "$2" "$3" "$MCASTCTL" "${@:4}"; }

ctl "node show: not loaded" 4 "$nl" node show
ctl "node (show is the default): not loaded" 4 "$nl" node
ctl "-j node show: not loaded, no JSON" 4 "$nl" -j node show
ctl "node show -j: not loaded, no JSON" 4 "$nl" node show -j
ctl "node set: not loaded" 4 "$nl" node set topology torus:4x4:uni coord 1,2
ctl "peer show: not loaded" 4 "$nl" peer show
ctl "peer add: not loaded" 4 "$nl" peer add 1,3 addr 10.0.0.7 port 7447
ctl "peer del: not loaded" 4 "$nl" peer del id 7
ctl "group show: not loaded" 4 "$nl" group show
ctl "group add: not loaded" 4 "$nl" group add 5
ctl "group set: not loaded" 4 "$nl" group set 5 members 0,0 1,2 3,3
ctl "group del: not loaded" 4 "$nl" group del 5
ctl "stats show: not loaded" 4 "$nl" stats show
ctl "stats show group 5: not loaded" 4 "$nl" stats show group 5
ctl "stats show -z -d group 5: not loaded" 4 "$nl" stats show -z -d group 5
ctl "stats show --all --delta: not loaded" 4 "$nl" stats show --all --delta
ctl "stats show --prometheus: not loaded, nothing on stdout" 4 "$nl" \
	stats show --prometheus
ctl "stats show group 5 --prometheus -z: not loaded" 4 "$nl" \
	stats show group 5 --prometheus -z

ctl "an unknown node verb" 2 'node: unknown command "frob"' node frob
ctl "node set without anything to set" 2 "nothing to set" node set
ctl "node set with an unknown keyword" 2 'unknown keyword "colour"' \
	node set colour red
ctl "node set topology without a value" 2 "topology needs a value" \
	node set topology
ctl "node set coord twice" 2 "coord given twice" node set coord 1,1 coord 2,2
ctl "node set: a bad topology" 1 "topology \"torus:4y4\"" \
	node set topology torus:4y4 coord 1,2
ctl "node set: cube:9" 1 'topology "cube:9": cube:N needs N from 1 to 8' \
	node set topology cube:9 coord 1
ctl "node set: cube:x" 1 'topology "cube:x": cube:N needs N from 1 to 8' \
	node set topology cube:x coord 1
ctl "node set: a coordinate outside the torus" 1 "out of range" \
	node set topology torus:4x4 coord 4,0
ctl "node set: a coordinate with too many elements" 1 "has 3 elements" \
	node set topology torus:4x4 coord 1,2,3
ctl "node show with an extra argument" 2 'unexpected argument "x"' node show x
ctl "node set algorithm without a value" 2 "algorithm needs a value" \
	node set algorithm
ctl "node set algorithm twice" 2 "algorithm given twice" \
	node set algorithm auto algorithm u-torus
forms="expected auto, u-torus, s-torus, md-torus, mu-torus, mu-torus:R, binomial, u-cube, maxport, combine, w-sort, ring, rb or rb-all-port"
ctl "node set algorithm separate: the accepted forms" 1 \
	"algorithm \"separate\": $forms" node set algorithm separate
ctl "node set algorithm in capitals" 1 "algorithm \"U-TORUS\": $forms" \
	node set algorithm U-TORUS
ctl "node set algorithm empty" 1 "algorithm \"\": $forms" node set algorithm ""
ctl "node set algorithm mu-torus:1" 1 \
	'algorithm "mu-torus:1": R must be 2 to 255' node set algorithm mu-torus:1
ctl "node set algorithm mu-torus:256" 1 \
	'algorithm "mu-torus:256": R must be 2 to 255' \
	node set algorithm mu-torus:256
ctl "node set algorithm mu-torus: without R" 1 "R must be 2 to 255" \
	node set algorithm mu-torus:
ctl "node set algorithm mu-torus:+8" 1 "R must be 2 to 255" \
	node set algorithm mu-torus:+8
ctl "node set algorithm s-torus:4" 1 \
	'algorithm "s-torus:4": only mu-torus takes a parameter (mu-torus:R)' \
	node set algorithm s-torus:4
ctl "node set algorithm rb:4" 1 \
	'algorithm "rb:4": only mu-torus takes a parameter (mu-torus:R)' \
	node set algorithm rb:4
ctl "node set algorithm rb-all: no such algorithm" 1 \
	"algorithm \"rb-all\": $forms" node set algorithm rb-all
for a in auto u-torus s-torus md-torus mu-torus mu-torus:2 mu-torus:255 \
	ring rb rb-all-port; do
	ctl "node set algorithm $a: valid, not loaded" 4 "$nl" \
		node set algorithm "$a"
done
head -c 32 /dev/zero > "$tmp/key.raw"
printf '%064d\n' 7 > "$tmp/key.hex"
printf 'short\n' > "$tmp/key.bad"
chmod 600 "$tmp"/key.*
ctl "node set key without a value" 2 "key needs a value" node set key
ctl "node set key-next without key-id" 2 "key-next needs key-id" \
	node set key-next "$tmp/key.raw"
ctl "node set key with another keyword" 2 'unexpected "port" after key' \
	node set key "$tmp/key.raw" port 7
ctl "node set key-id 0" 1 "key-id: expected 1 to 255" \
	node set key "$tmp/key.raw" key-id 0
ctl "node set key-use 256" 1 "key-id: expected 1 to 255" node set key-use 256
ctl "node set key: no such file" 1 "$tmp/none: No such file" \
	node set key "$tmp/none"
ctl "node set key: a file of the wrong length" 1 "expected 32 bytes, or 64 hex digits" \
	node set key "$tmp/key.bad"
ctl "node set key (raw): not loaded" 4 "$nl" node set key "$tmp/key.raw" key-id 2
ctl "node set key (hex): not loaded" 4 "$nl" node set key "$tmp/key.hex"
ctl "node set key none: not loaded" 4 "$nl" node set key none
chmod 644 "$tmp/key.raw"
out=$("$MCASTCTL" node set key "$tmp/key.raw" 2>&1)
case $out in
*"warning: others than its owner can read $tmp/key.raw (chmod 600 it)"*"$nl"*) ok 0 "node set key: a key file others can read is named" ;;
*) ok 1 "node set key: a key file others can read is named" "$out" ;;
esac
ctl "peer add without PEER" 2 "missing PEER" peer add
ctl "peer add without port" 2 "needs addr IPADDR and port PORT" \
	peer add 1,3 addr 10.0.0.7
ctl "peer add: a bad address" 1 'address "10.0.0.300"' \
	peer add 1,3 addr 10.0.0.300 port 7447
ctl "peer add: port 0" 1 'port "0"' peer add 1,3 addr 10.0.0.7 port 0
ctl "peer add: port 65536" 1 'port "65536"' peer add 1,3 addr ::1 port 65536
ctl "peer del id without a number" 2 "id needs a node id" peer del id
ctl "peer del id out of range" 2 "expected a number below 16777216" \
	peer del id 16777216
ctl "peer del with an extra argument" 2 'unexpected argument "y"' \
	peer del 1,3 y
ctl "group add without GROUP" 2 "missing GROUP" group add
ctl "group add 0" 2 'group "0": expected a number from 1' group add 0
ctl "group add -1" 2 'group "-1"' group add -1
ctl "group add 4294967296" 2 'group "4294967296"' group add 4294967296
ctl "group set without members" 2 "missing members" group set 5
ctl "group set with an unknown keyword" 2 'unknown keyword "nodes"' \
	group set 5 nodes 1,1
ctl "group del with an extra argument" 2 'unexpected argument "6"' \
	group del 5 6
ctl "group show with two groups" 2 'unexpected argument "6"' group show 5 6
ctl "stats show with an unknown keyword" 2 'unknown keyword "peer"' \
	stats show peer 1
ctl "stats show group without GROUP" 2 "group needs a GROUP" stats show group
ctl "stats show -d with -j" 2 "-d is for text" stats show -d -j
ctl "-j stats show --delta" 2 "-d is for text" -j stats show --delta
ctl "stats show --prometheus with -j" 2 "--prometheus and -j are two formats" \
	stats show --prometheus -j
ctl "-j stats show --prometheus" 2 "--prometheus and -j are two formats" \
	-j stats show --prometheus
ctl "stats show --prometheus with -d" 2 "--prometheus prints the totals" \
	stats show -d --prometheus
ctl "stats show --prometheus group without GROUP" 2 "group needs a GROUP" \
	stats show --prometheus group
ctl "stats show --prometheus with an extra argument" 2 \
	'unexpected argument "x"' stats show --prometheus group 5 x
ctl "an unknown stats verb" 2 'stats: unknown command "reset"' stats reset
ctl "-j before plan" 2 "use mcastctl plan ... --json" -j plan

out=$("$MCASTCTL" --help 2>&1)
[[ $out == *"node "*"peer "*"group "*"stats "* ]]
ok $? "mcastctl --help lists node, peer, group and stats" "$out"
for c in node peer group stats; do
	out=$("$MCASTCTL" help $c 2>&1)
	rc=$?
	[ $rc -eq 0 ] && [[ $out == "usage: mcastctl $c "* ]]
	ok $? "mcastctl help $c prints its usage" "exit $rc: $out"
done
out=$("$MCASTCTL" help stats 2>&1)
[[ $out == *"stats show [group GROUP] --prometheus"* ]]
ok $? "mcastctl help stats shows --prometheus" "$out"

mon() { check "$1" "$2" "$3" "$MCASTMON" "${@:4}"; }
mon "mcastmon: not loaded" 4 \
	"mcastmon: the mcast kernel module is not loaded (modprobe mcast)"
mon "mcastmon -j: not loaded" 4 "mcastmon: the mcast kernel module is not loaded" -j
mon "mcastmon -c 0" 2 "--count: expected a positive number" -c 0
mon "mcastmon with an argument" 2 'unexpected argument "x"' x
out=$("$MCASTMON" --version 2>&1)
[[ $out == "mcastmon "* ]]
ok $? "mcastmon --version" "$out"
out=$("$MCASTMON" --help 2>&1)
[[ $out == "usage: mcastmon "* ]]
ok $? "mcastmon --help" "$out"

done_testing
tap_exit
