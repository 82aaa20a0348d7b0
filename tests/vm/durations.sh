#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# Prints tests/vm/durations (its comment, then the table) from the console logs of a run
# (tests/vm/run.sh --keep is not needed: the logs stay in build/vm/VER/):
#
#   tests/vm/durations.sh build/vm/6.1.0-57-amd64/console*.log > tests/vm/durations.new
#
# The guest prints "@@MCAST-VM ran NAME.t in N s" after each test.
set -eu
[ $# -gt 0 ] || { echo "usage: $0 CONSOLE-LOG..." >&2; exit 2; }
sed -n '/^#/p' "$(dirname "$0")/durations"
cat "$@" | tr -d '\r' |
	awk '$1 == "@@MCAST-VM" && $2 == "ran" && $4 == "in" {
		name = $3; sub(/\.t$/, "", name); print name, $5 }' |
	sort
