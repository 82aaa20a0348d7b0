# SPDX-License-Identifier: GPL-2.0 OR MIT
# shellcheck shell=bash
#
# TAP helpers for the host's script tests (tests/cli/*.t, tests/lib/*.t;
# bash, run by tests/run.sh), the host's side of tests/vm/guest/tap.sh.
# A test sources it with `. tests/cli/tap.sh` (from the repository root,
# where the tests cd first), prints its plan with `plan N` (or
# `done_testing` at the end), and finishes with `tap_exit`.
#
# Every assertion prints one `ok N - desc` / `not ok N - desc` line; on
# failure, its diagnostic follows as `#` lines, so the report says why
# without a second run.  n and failed are the counts so far.

n=0
failed=0

plan() {
	echo "1..$1"
}

# diag LINE...: each argument, and each line of it, as a `#` line
diag() {
	printf '%s\n' "$@" | sed '/^$/d; s/^/# /'
}

# ok STATUS DESC [DIAGNOSTIC]: passes if STATUS (a command's $?) is 0.
ok() {
	n=$((n + 1))
	if [ "$1" -eq 0 ]; then
		echo "ok $n - $2"
	else
		echo "not ok $n - $2"
		failed=$((failed + 1))
		[ -z "${3:-}" ] || diag "$3"
	fi
}

done_testing() {
	echo "1..$n"
}

# Exit status for tests/run.sh: non-zero if any assertion failed.
tap_exit() {
	[ "$failed" -eq 0 ]
	exit $?
}
