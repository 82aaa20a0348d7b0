#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# The man pages (issue 44): every page of the source tree (the same list
# the Makefile builds: daemon/, kmod/, utils/*/, libmcast/man/) is built
# under MAN_DIR (default build/man, by make), renders with groff -man -ww
# without a warning and with man -l, and its .TH names "mcast VERSION",
# VERSION being dkms.conf's; each source says "mcast @VERSION@", so none
# can carry a version of its own.  A .so page's target must exist.
# mcastperf(1), mcastbed(8) and mcast(7) exist, and mcast(7) names every
# ioctl, io_uring command, netlink command and module parameter of the
# code (include/uapi/linux/mcast.h, kmod/*.c).

set -u

orig=$PWD
cd "$(dirname "$0")/../.." || exit 1
abs() { case $1 in /*) echo "$1" ;; *) echo "$orig/$1" ;; esac; }
MAN_DIR=$(abs "${MAN_DIR:-$PWD/build/man}")

version=$(sed -n 's/^PACKAGE_VERSION="\{0,1\}\([^"]*\)"\{0,1\}$/\1/p' dkms.conf)
if [ -z "$version" ]; then
	echo "Bail out! no PACKAGE_VERSION in dkms.conf"
	exit 1
fi
if ! command -v groff > /dev/null || ! command -v man > /dev/null; then
	echo "1..0 # SKIP no groff or man (apt-get install groff man-db)"
	exit 0
fi
shopt -s nullglob
pages=(daemon/*.[1-8] kmod/*.[1-8] utils/*/*.[1-8] libmcast/man/*.3)
shopt -u nullglob
if [ ${#pages[@]} -eq 0 ]; then
	echo "Bail out! no man pages found"
	exit 1
fi

n=0
failed=0
ok() { # STATUS DESC [DIAG]
	n=$((n + 1))
	if [ "$1" = 0 ]; then
		echo "ok $n - $2"
	else
		echo "not ok $n - $2"
		[ -z "${3:-}" ] || printf '%s\n' "$3" | sed 's/^/# /'
		failed=$((failed + 1))
	fi
}

# th_source FILE: the 4th argument of its .TH (the source's "mcast ...")
th_source() {
	sed -n 's/^\.TH [^ ]* [^ ]* \("[^"]*"\|[^ ]*\) "\([^"]*\)".*/\2/p' "$1"
}

for p in daemon/mcastd.8 utils/mcastperf/mcastperf.1 \
	utils/mcastbed/mcastbed.8 kmod/mcast.7; do
	[ -f "$p" ]
	ok $? "$p exists"
done

for src in "${pages[@]}"; do
	out=$MAN_DIR/$src
	if [ ! -f "$out" ]; then
		ok 1 "$src: built as $out (make)"
		continue
	fi
	if grep -q '^\.so ' "$src"; then
		target=$(sed -n 's/^\.so man[0-9]\///p' "$src")
		[ -f "$(dirname "$out")/$target" ] && cmp -s "$src" "$out"
		ok $? "$src: .so $target exists beside it"
		continue
	fi
	th=$(th_source "$src")
	[ "$th" = "mcast @VERSION@" ]
	ok $? "$src: .TH says \"mcast @VERSION@\"" "it says: \"$th\""
	th=$(th_source "$out")
	[ "$th" = "mcast $version" ]
	ok $? "$src: built, .TH says \"mcast $version\"" "it says: \"$th\""
	warn=$(groff -man -ww -z "$out" 2>&1)
	[ -z "$warn" ]
	ok $? "$src: groff -man -ww renders it without warnings" "$warn"
	txt=$(MANWIDTH=80 man -l "$out" 2> "$MAN_DIR/.man.err")
	[ -n "$txt" ] && [ ! -s "$MAN_DIR/.man.err" ] &&
		grep -q "mcast $version" <<< "$txt"
	ok $? "$src: man -l renders it, with the version" \
		"$(cat "$MAN_DIR/.man.err")"
done
rm -f "$MAN_DIR/.man.err"

# mcast(7) against the code: each name there must be in the page.
missing=
for w in $(sed -n 's/^#define \(MCAST_IOC_[A-Z]*\|MCAST_URING_[A-Z]*\)[ \t].*/\1/p' \
	   include/uapi/linux/mcast.h | grep -v MAGIC) \
	 $(sed -n '/^enum mcast_cmd {/,/^}/s/^\t\(MCAST_CMD_[A-Z_]*\),.*/\1/p' \
	   include/uapi/linux/mcast.h | grep -v UNSPEC) \
	 $(sed -n 's/^module_param(\([a-z_]*\),.*/\1/p' kmod/*.c); do
	grep -q -- "$w" kmod/mcast.7 || missing+=" $w"
done
[ -z "$missing" ]
ok $? "mcast(7) names every ioctl, io_uring and netlink command and module parameter" \
	"missing:$missing"

echo "1..$n"
[ "$failed" -eq 0 ]
