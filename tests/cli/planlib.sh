# SPDX-License-Identifier: GPL-2.0 OR MIT
# shellcheck shell=bash
#
# The harness of the mcastctl plan tests (plan.t, plan_switch.t,
# plan_cube.t, plan_ring.t, plan_rb.t), sourced first: from the repository
# root, with MCASTCTL (default build/mcastctl) and jq; TAP (ok, diag:
# tap.sh), and the checks run, same, succeeds, fails, jq_is.

set -u

orig=$PWD
cd "$(dirname "$0")/../.." || exit 1
if [ -n "${MCASTCTL:-}" ]; then
	case $MCASTCTL in /*) ;; *) MCASTCTL=$orig/$MCASTCTL ;; esac
else
	MCASTCTL=$PWD/build/mcastctl
fi
if [ ! -x "$MCASTCTL" ]; then
	echo "Bail out! no mcastctl binary at $MCASTCTL (set MCASTCTL)"
	exit 1
fi
if ! command -v jq >/dev/null; then
	echo "Bail out! jq is needed"
	exit 1
fi

tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT

# shellcheck source=tests/cli/tap.sh
. tests/cli/tap.sh

# run ARGS...: sets OUT, ERR, RC
run() {
	"$MCASTCTL" "$@" >"$tmp/out" 2>"$tmp/err"
	RC=$?
	OUT=$(cat "$tmp/out")
	ERR=$(cat "$tmp/err")
}

# same DESCRIPTION EXPECTED ACTUAL
same() {
	if [ "$2" == "$3" ]; then
		ok 0 "$1"
	else
		ok 1 "$1"
		diag "expected: $2"
		diag "     got: $3"
	fi
}

# succeeds DESCRIPTION ARGS...: exit 0, nothing on stderr
succeeds() {
	local desc=$1
	shift
	run "$@"
	if [ "$RC" -eq 0 ] && [ -z "$ERR" ]; then
		ok 0 "$desc"
	else
		ok 1 "$desc"
		diag "exit $RC: $ERR"
	fi
}

# fails DESCRIPTION STATUS MESSAGE ARGS...: exits STATUS, prints nothing on
# stdout and exactly the one line "mcastctl: plan: MESSAGE" on stderr.
fails() {
	local desc=$1 status=$2 want="mcastctl: plan: $3"
	shift 3
	run "$@"
	if [ "$RC" -eq "$status" ] && [ -z "$OUT" ] && [ "$ERR" == "$want" ]; then
		ok 0 "$desc"
	else
		ok 1 "$desc"
		diag "want exit $status and: $want"
		diag "got exit $RC, stdout ${#OUT} bytes, stderr: $ERR"
	fi
}

# jq_is DESCRIPTION EXPECTED FILTER: FILTER on $OUT prints EXPECTED
jq_is() {
	same "$1" "$2" "$(jq -c "$3" <<<"$OUT" 2>&1)"
}
