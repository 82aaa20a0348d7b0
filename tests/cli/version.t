#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# --version everywhere: every program of mcast (and mcastbed, a script)
# prints "NAME VERSION" on stdout, VERSION being dkms.conf's
# PACKAGE_VERSION (the one place the version is written), exits 0 and
# says nothing on stderr; -V does the same; each one's usage names
# --version.
#
# The binaries: MCASTCTL, MCASTMON, MCASTD, MCASTSIM, MCASTPERF,
# MCASTBED_PEERS, MCASTBED_ROUTES, MCASTBED_SWROUTES (default build/...);
# mcastbed is utils/mcastbed/mcastbed.

set -u

orig=$PWD
cd "$(dirname "$0")/../.." || exit 1
abs() { case $1 in /*) echo "$1" ;; *) echo "$orig/$1" ;; esac; }

version=$(sed -n 's/^PACKAGE_VERSION="\{0,1\}\([^"]*\)"\{0,1\}$/\1/p' dkms.conf)
if [ -z "$version" ]; then
	echo "Bail out! no PACKAGE_VERSION in dkms.conf"
	exit 1
fi

# NAME PATH USAGE-ARGS: the program and how it prints its usage
progs=(
	"mcastctl $(abs "${MCASTCTL:-$PWD/build/mcastctl}") --help"
	"mcastmon $(abs "${MCASTMON:-$PWD/build/mcastmon}") --help"
	"mcastd $(abs "${MCASTD:-$PWD/build/mcastd}") --help"
	"mcastsim $(abs "${MCASTSIM:-$PWD/build/mcastsim}") --help"
	"mcastperf $(abs "${MCASTPERF:-$PWD/build/mcastperf}") --help"
	"mcastbed-peers $(abs "${MCASTBED_PEERS:-$PWD/build/mcastbed-peers}") x"
	"mcastbed-routes $(abs "${MCASTBED_ROUTES:-$PWD/build/mcastbed-routes}") x"
	"mcastbed-swroutes $(abs "${MCASTBED_SWROUTES:-$PWD/build/mcastbed-swroutes}") -x"
	"mcastbed $PWD/utils/mcastbed/mcastbed --help"
)
for p in "${progs[@]}"; do
	read -r name bin _ <<< "$p"
	if [ ! -x "$bin" ]; then
		echo "Bail out! no $name at $bin"
		exit 1
	fi
done

tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT

# shellcheck source=tests/cli/tap.sh
. tests/cli/tap.sh

plan $((${#progs[@]} * 3))
for p in "${progs[@]}"; do
	read -r name bin usage <<< "$p"
	for opt in --version -V; do
		timeout 20 "$bin" "$opt" > "$tmp/out" 2> "$tmp/err" < /dev/null
		rc=$?
		[ "$rc" -eq 0 ] && [ "$(cat "$tmp/out")" = "$name $version" ] &&
			[ ! -s "$tmp/err" ]
		ok $? "$name $opt: \"$name $version\"" \
			"exit $rc, stdout: $(cat "$tmp/out"), stderr: $(cat "$tmp/err")"
	done
	# the usage is on stdout for --help, on stderr for a bad argument
	timeout 20 "$bin" "$usage" > "$tmp/out" 2>&1 < /dev/null
	grep -Eq "^ +([^ ]*/)?$name --version\$|^usage: .*--version" "$tmp/out" ||
		grep -Eq "^ +-V, --version" "$tmp/out"
	ok $? "$name's usage names --version" "$(cat "$tmp/out")"
done

tap_exit
