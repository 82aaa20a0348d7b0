#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# mcastctl -batch (one command per line, the first failure stops it unless
# -force, its line named) with plan commands, which need no module; and
# mcastctl cluster show without a daemon (exit 4, says so).
#
# MCASTCTL names the binary (default build/mcastctl).

set -u

orig=$PWD
cd "$(dirname "$0")/../.." || exit 1
abs() { case $1 in /*) echo "$1" ;; *) echo "$orig/$1" ;; esac; }
MCASTCTL=$(abs "${MCASTCTL:-$PWD/build/mcastctl}")
if [ ! -x "$MCASTCTL" ]; then
	echo "Bail out! no binary at $MCASTCTL (set MCASTCTL)"
	exit 1
fi
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT

# shellcheck source=tests/cli/tap.sh
. tests/cli/tap.sh

cat > "$T/good" <<'B'
# two plans
plan -t torus:4x4 -a u-torus -s 0,0 -d 1,1 -d 2,2

plan -t torus:6x6 -a s-torus -s 3,2 -d 0,5 -d 4,5   # a comment after
B
out=$("$MCASTCTL" -batch "$T/good" 2>&1)
rc=$?
[ "$rc" = 0 ] && [ "$(printf '%s\n' "$out" | grep -c '^algorithm')" = 2 ]
ok $? "-batch FILE runs every line (comments and blank lines skipped)" "$out"

out=$("$MCASTCTL" -batch - < "$T/good" 2>&1)
[ "$(printf '%s\n' "$out" | grep -c '^algorithm')" = 2 ]
ok $? "-batch - reads standard input" "$out"

cat > "$T/bad" <<'B'
plan -t torus:4x4 -a u-torus -s 0,0 -d 1,1
plan -t torus:4x4 -a u-torus -s 9,9 -d 1,1
plan -t torus:4x4 -a u-torus -s 0,0 -d 2,2
B
out=$("$MCASTCTL" -batch "$T/bad" 2>&1)
rc=$?
[ "$rc" = 1 ] && [ "$(printf '%s\n' "$out" | grep -c '^algorithm')" = 1 ] &&
	printf '%s\n' "$out" | grep -q -- "-batch: $T/bad:2: failed"
ok $? "the first failure stops it, names its line, its exit status" "$out"

out=$("$MCASTCTL" -force -batch "$T/bad" 2>&1)
rc=$?
[ "$rc" = 1 ] && [ "$(printf '%s\n' "$out" | grep -c '^algorithm')" = 2 ]
ok $? "-force goes on after a failure, exits with it" "$out"

printf 'frobnicate now\n' > "$T/unknown"
out=$("$MCASTCTL" -batch "$T/unknown" 2>&1)
rc=$?
[ "$rc" = 2 ] && printf '%s\n' "$out" | grep -q "$T/unknown:1: unknown command \"frobnicate\""
ok $? "an unknown command: its line, exit 2" "$out"

out=$("$MCASTCTL" -batch "$T/missing" 2>&1)
[ $? = 1 ] && printf '%s\n' "$out" | grep -q "No such file"
ok $? "a missing batch file: exit 1, strerror" "$out"

out=$("$MCASTCTL" -batch 2>&1)
[ $? = 2 ]
ok $? "-batch without FILE: exit 2" "$out"

out=$(MCASTD_SOCKET="$T/none.sock" "$MCASTCTL" cluster show 2>&1)
rc=$?
[ "$rc" = 4 ] && printf '%s\n' "$out" | grep -q "mcastd is not running"
ok $? "cluster show without a daemon: exit 4, says so" "$out"

out=$("$MCASTCTL" cluster frob 2>&1)
[ $? = 2 ]
ok $? "cluster with an unknown word: exit 2" "$out"

done_testing
tap_exit
