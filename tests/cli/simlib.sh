# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# What the mcastsim tests (sim*.t) share: the binary (MCASTSIM, default
# build/mcastsim; the tests run from the repository root), a scratch
# directory, TAP (ok, tap.sh), running it (run: OUT, ERR, RC) and its
# usage errors (bad).
# shellcheck shell=bash

set -u

orig=$PWD
cd "$(dirname "$0")/../.." || exit 1
if [ -n "${MCASTSIM:-}" ]; then
	case $MCASTSIM in /*) ;; *) MCASTSIM=$orig/$MCASTSIM ;; esac
else
	MCASTSIM=$PWD/build/mcastsim
fi
if [ ! -x "$MCASTSIM" ]; then
	echo "Bail out! no mcastsim binary at $MCASTSIM (set MCASTSIM)"
	exit 1
fi

tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
# shellcheck source=tests/cli/tap.sh
. tests/cli/tap.sh

# shellcheck disable=SC2034 # OUT, ERR, RC: for the sourcing test
run() {	# run ARGS...: sets OUT, ERR, RC
	"$MCASTSIM" "$@" >"$tmp/out" 2>"$tmp/err"
	RC=$?
	OUT=$(cat "$tmp/out")
	ERR=$(cat "$tmp/err")
}

# mcastsim ARGS exits 2 with PATTERN on stderr: its usage errors
bad() {	# bad DESCRIPTION PATTERN ARGS...
	local what=$1 pat=$2
	shift 2
	run "$@"
	[ "$RC" = 2 ] && grep -q -- "$pat" <<<"$ERR"
	ok $? "$what: exit 2, \"$pat\" (got $RC: $(head -n 1 <<<"$ERR"))"
}
