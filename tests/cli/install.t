#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# Staged installs (DESTDIR) for other distributions than Debian's
# packages (issue 43): with PREFIX=/usr the uapi header is not put in
# /usr/include/linux (linux-libc-dev's) but in /usr/include/mcast/linux,
# and libmcast.pc says so; the systemd units follow the prefix (or, with
# PREFIX=/usr, systemd.pc's unit directory) and name the installed
# binaries; install-tools' mcastperf has no RUNPATH into the build tree.
# Needs the userspace built (make check builds it).  TAP output.

set -u

cd "$(dirname "$0")/../.." || exit 1
top=$PWD
for p in make readelf; do
	if ! command -v $p > /dev/null; then
		echo "Bail out! $p is needed"
		exit 1
	fi
done
if [ ! -x build/mcastperf ] || [ ! -x build/mcastsim ]; then
	echo "Bail out! build/mcastperf and build/mcastsim are needed (make)"
	exit 1
fi

tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT

# shellcheck source=tests/cli/tap.sh
. tests/cli/tap.sh
mk() {	# mk TARGET VAR=VALUE...: a sub-make of ours, quiet
	env -u MAKEFLAGS -u MAKELEVEL -u MFLAGS make -s --no-print-directory "$@" 2>&1
}

plan 9

out=$(mk install-lib PREFIX=/usr DESTDIR="$tmp/usr")
ok $? "make install-lib PREFIX=/usr DESTDIR=... succeeds" "$out"
r=$tmp/usr/usr
[ ! -e "$r/include/linux" ] && cmp -s include/uapi/linux/mcast.h "$r/include/mcast/linux/mcast.h" &&
	[ -f "$r/include/mcast.h" ]
ok $? "the uapi header is in /usr/include/mcast/linux, not /usr/include/linux" \
	"$(cd "$tmp/usr" && find . -path '*include*')"
grep -qx 'Cflags: -I${includedir} -I${includedir}/mcast' "$r/lib/pkgconfig/libmcast.pc" &&
	grep -qx 'includedir=/usr/include' "$r/lib/pkgconfig/libmcast.pc"
ok $? "libmcast.pc adds -I/usr/include/mcast" "$(cat "$r/lib/pkgconfig/libmcast.pc")"

out=$(mk install-system PREFIX=/usr/local DESTDIR="$tmp/local")
ok $? "make install-system PREFIX=/usr/local DESTDIR=... succeeds" "$out"
u=$tmp/local/usr/local/lib/systemd/system
[ -f "$u/mcastd.service" ] && [ -f "$u/mcast-metrics.service" ] &&
	[ -f "$u/mcast-metrics.timer" ] && [ ! -e "$tmp/local/lib/systemd" ]
ok $? "its units are in /usr/local/lib/systemd/system" \
	"$(cd "$tmp/local" && find . -name '*.service' -o -name '*.timer')"
grep -qx 'ExecStart=/usr/local/sbin/mcastd -c /etc/mcast/mcastd.conf' "$u/mcastd.service"
ok $? "mcastd.service runs /usr/local/sbin/mcastd" "$(grep ExecStart "$u/mcastd.service" 2>&1)"

want=$(pkg-config --variable=systemdsystemunitdir systemd 2>/dev/null)
want=${want:-/usr/lib/systemd/system}
out=$(mk install-system PREFIX=/usr DESTDIR="$tmp/sys")
[ -f "$tmp/sys$want/mcastd.service" ]
ok $? "with PREFIX=/usr they are in $want" \
	"$out$(cd "$tmp/sys" && find . -name '*.service')"

out=$(mk install-tools PREFIX=/usr DESTDIR="$tmp/tools")
ok $? "make install-tools DESTDIR=... succeeds" "$out"
rp=$(readelf -d "$tmp/tools/usr/bin/mcastperf" 2>&1 | grep -E '\((RUNPATH|RPATH)\)')
[ -f "$tmp/tools/usr/bin/mcastperf" ] && [ -z "$rp" ] &&
	! grep -q "$top" <<< "$rp"
ok $? "the installed mcastperf has no RUNPATH (none into $top/build)" "$rp"

tap_exit
