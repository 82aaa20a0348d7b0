#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# mcastctl trace on recorded traces (docs/tracing.md): tests/cli/data/
# trace_2x2.txt is trace_events.t's group send from node 0 of a 2x2 torus
# to the other three.  The tree is put together from it (each node's
# sender, step, times and outcome), the plan beside it agrees; a trace
# edited to take another path, to retransmit and to lose a delivery says
# so; two hosts' traces one after another read as one; bad input gets
# an error and its exit status.

set -u

orig=$PWD
cd "$(dirname "$0")/../.." || exit 1
CTL=${MCASTCTL:-$PWD/build/mcastctl}
case $CTL in /*) ;; *) CTL=$orig/$CTL ;; esac
T=tests/cli/data/trace_2x2.txt
SEQ=1883472951666088
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# shellcheck source=tests/cli/tap.sh
. tests/cli/tap.sh

# the row of NODE in a text answer
row() { # OUT NODE
	printf '%s\n' "$1" | awk -v n="$2" '$1 == n && NF > 5'
}

out=$("$CTL" trace 0 $SEQ file $T 2>&1)
ok $? "trace 0 SEQ file: exit 0" "$out"
[[ $out == *"message src=0 seq=$SEQ group=1 len=1400 algo=u-torus: 3 destinations"* ]]
ok $? "it names the message and its 3 destinations" "$out"
[[ $(row "$out" 2) =~ ^\ +2\ +0\ +1\ +731\ +33058\ delivered\ +0\ +0$ ]]
ok $? "node 2: from node 0 in step 1, sent at +731 us, delivered at +33058 us" "$out"
[[ $(row "$out" 3) =~ ^\ +3\ +2\ +2\ +29112\ +51237\ delivered ]]
ok $? "node 3: from node 2 in step 2" "$out"
[[ $out == *"last delivery +51237 us; 0 retransmissions"* ]]
ok $? "the last delivery, no retransmission" "$out"

out=$("$CTL" trace 0 $SEQ file $T topology torus:2x2 2>&1)
[[ $out == *"3 of 3 hops as planned"* && $out != *differs* ]]
ok $? "with topology torus:2x2: every hop as u-torus plans it" "$out"

# node 3 reached from node 1 instead, its transfer sent twice, node 1's
# delivery lost
sed -e '/mcast_forward: node=2 /s/node=2 /node=1 /' \
	-e '/mcast_deliver: node=3 /s/peer=2 /peer=1 /' \
	-e '/mcast_deliver: node=1 /d' $T > "$tmp/t"
echo ' kworker/0:2-171 [000] ..... 302.800000: mcast_retransmit: node=1 src=0 seq='$SEQ' group=1 xid=3180052035 peer=3 frag=0 n=1 nfrags=1 rto_ms=200 timeout' >> "$tmp/t"
out=$("$CTL" trace 0 $SEQ file "$tmp/t" topology torus:2x2 2>&1)
[[ $(row "$out" 3) =~ ^\ +3\ +1\ +2\ .*\ +1\ +0\ +2\ +2\ +differs$ ]]
ok $? "another path: node 3 from node 1, one retransmission, differs from the plan's 2" "$out"
[[ $(row "$out" 1) == *" - none "* && $out == *"2 of 3 hops as planned"* ]]
ok $? "a lost delivery shows as none" "$out"

# two hosts' traces: node 0's events in one, the others' in the other
grep 'node=0 ' $T > "$tmp/a"
grep -v 'node=0 ' $T > "$tmp/b"
out=$(cat "$tmp/b" "$tmp/a" | "$CTL" -j trace 0 $SEQ file - 2>&1)
[[ $out == *'"node":3,"from":2,"step":2,"sent_us":29112,"got_us":51237,"outcome":"delivered"'* ]]
ok $? "-j, two hosts' traces from stdin: node 3's hop" "$out"

out=$("$CTL" trace 0 5 file $T 2>&1)
[ $? = 1 ] && [[ $out == *"no event of message 0/5"* ]]
ok $? "a message the trace does not have: exit 1, and why" "$out"
out=$("$CTL" trace x 5 file $T 2>&1)
[ $? = 2 ] && [[ $out == *"SRC: a node id"* ]]
ok $? "a bad SRC: exit 2, and why" "$out"
out=$("$CTL" trace 0 $SEQ file "$tmp/none" 2>&1)
[ $? = 1 ] && [[ $out == *"No such file"* ]]
ok $? "no such trace file: exit 1" "$out"
out=$("$CTL" trace 0 $SEQ file $T topology torus:2x 2>&1)
[ $? = 1 ] && [[ $out == *"topology"* ]]
ok $? "a bad topology: exit 1, and why" "$out"
out=$("$CTL" trace --help 2>&1)
ok $? "trace --help" "$out"

done_testing
tap_exit
