# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# What the mcastsim tests (sim*.t) share: the binary (MCASTSIM, default
# build/mcastsim; the tests run from the repository root), a scratch
# directory, TAP counting (ok) and running it (run: OUT, ERR, RC).
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
n=0
failed=0

ok() {	# ok STATUS DESCRIPTION
	n=$((n + 1))
	if [ "$1" -eq 0 ]; then
		echo "ok $n - $2"
	else
		echo "not ok $n - $2"
		failed=$((failed + 1))
	fi
}

# shellcheck disable=SC2034 # OUT, ERR, RC: for the sourcing test
run() {	# run ARGS...: sets OUT, ERR, RC
	"$MCASTSIM" "$@" >"$tmp/out" 2>"$tmp/err"
	RC=$?
	OUT=$(cat "$tmp/out")
	ERR=$(cat "$tmp/err")
}
