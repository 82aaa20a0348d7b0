#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# mcastd --check on the build host (no module needed): a good file is
# summarised and exits 0; each kind of mistake names the file, the line
# and what is wrong, on stderr, and exits 1; bad options exit 2.  The
# parser's own cases are tests/unit/test_mcastd_conf.c; the daemon at
# work is tests/vm/guest/net_daemon.t.
#
# MCASTD names the binary (default build/mcastd).

set -u

orig=$PWD
cd "$(dirname "$0")/../.." || exit 1
abs() { case $1 in /*) echo "$1" ;; *) echo "$orig/$1" ;; esac; }
MCASTD=$(abs "${MCASTD:-$PWD/build/mcastd}")
if [ ! -x "$MCASTD" ]; then
	echo "Bail out! no binary at $MCASTD (set MCASTD)"
	exit 1
fi
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT

# shellcheck source=tests/cli/tap.sh
. tests/cli/tap.sh

# check DESC STATUS STDERR_SUBSTRING FILE_TEXT
check() {
	printf '%s\n' "$4" > "$T/c.conf"
	"$MCASTD" --check -c "$T/c.conf" > "$T/out" 2> "$T/err"
	rc=$?
	if [ "$rc" = "$2" ] && grep -qF -- "$3" "$T/err" && [ ! -s "$T/out" ]; then
		ok 0 "$1"
	else
		ok 1 "$1"
		echo "# exit $rc (want $2); stderr: $(cat "$T/err"); stdout: $(cat "$T/out")"
		echo "# want on stderr: $3"
	fi
}

HEAD='[cluster]
topology = torus:4x4:uni'
NODES='[nodes]
0,0-3 = 10.77.0.1-4
1,0-3 = 10.77.0.5-8
2,0-3 = 10.77.0.9-12
3,0-3 = 10.77.0.13-16'

out=$("$MCASTD" --check -c daemon/mcastd.conf.example 2>&1)
ok $? "the shipped example passes --check"
case $out in
*"OK: torus:4x4:uni, 16 nodes, data port 7447, control port 7448"*) ok 0 "... with a one-line summary" ;;
*) ok 1 "... with a one-line summary"; echo "# $out" ;;
esac

check "[nodes] before the topology" 1 "topology must come before [nodes]" "[cluster]
port = 7447
$NODES"
check "no topology at all" 1 "topology" "[cluster]
port = 7447"
check "an unknown key: named, with its line" 1 "c.conf:3: " "$HEAD
colour = blue
$NODES"
check "a bad port" 1 "c.conf:3: " "$HEAD
port = 70000
$NODES"
check "a coordinate outside the torus" 1 "c.conf:4: " "$HEAD
[nodes]
4,0 = 10.77.0.1"
check "a node listed twice, with both lines" 1 "line 4" "$HEAD
[nodes]
0,0 = 10.77.0.1
0,0 = 10.77.0.2"
check "two nodes at one address" 1 "c.conf:" "$HEAD
[nodes]
0,0 = 10.77.0.1
0,1 = 10.77.0.1"
check "a range whose sizes differ" 1 "c.conf:4: " "$HEAD
[nodes]
0,0-3 = 10.77.0.1-3"
check "a bad address" 1 "c.conf:4: " "$HEAD
[nodes]
0,0 = 10.77.0.300"
check "a static group with a member not configured" 1 "c.conf:" "$HEAD
[nodes]
0,0 = 10.77.0.1
[groups]
5 = static 0,0 1,1"
check "a key outside any section" 1 "c.conf:1: " "topology = torus:4x4:uni"
check "suspect not above heartbeat" 1 "c.conf:" "$HEAD
heartbeat = 2s
suspect = 1s
$NODES"
check "a line without =" 1 "c.conf:3: " "$HEAD
port
$NODES"

"$MCASTD" --check -c "$T/missing.conf" > "$T/out" 2> "$T/err"
rc=$?
[ "$rc" = 1 ] && grep -q "missing.conf: No such file or directory" "$T/err"
ok $? "a missing file: its name and strerror, exit 1"
"$MCASTD" --frobnicate > /dev/null 2>&1
[ $? = 2 ]
ok $? "an unknown option: exit 2"
"$MCASTD" --check -c daemon/mcastd.conf.example extra > /dev/null 2>&1
[ $? = 2 ]
ok $? "an unexpected argument: exit 2"
"$MCASTD" -c daemon/mcastd.conf.example --node 9,9 > /dev/null 2> "$T/err"
rc=$?
[ "$rc" = 2 ] && grep -q "\-\-node" "$T/err"
ok $? "--node outside the torus: exit 2 and why"
"$MCASTD" --help | grep -q "usage: mcastd"
ok $? "--help"

done_testing
tap_exit
