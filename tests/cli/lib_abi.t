#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# libmcast's one version (issue 43): mcast.h's LIBMCAST_VERSION_MAJOR and
# _MINOR, the version nodes of libmcast/libmcast.map (MCAST_MAJOR.0 up to
# MCAST_MAJOR.MINOR, every symbol by name, no glob), the .so's SONAME
# (libmcast.so.MAJOR) and real name (libmcast.so.MAJOR.MINOR.0), what
# it exports (nm -D --defined-only: exactly the map's symbols, each at its
# node), and Debian's packaging (package libmcastMAJOR, its .symbols
# file listing the same symbols at the same nodes, the changelog's
# version being dkms.conf's) all say the same.  TAP output.
#
# LIBMCAST_DIR names the built library's directory (default build/lib).

set -u

orig=$PWD
cd "$(dirname "$0")/../.." || exit 1
top=$PWD
lib=${LIBMCAST_DIR:-$top/build/lib}
case $lib in /*) ;; *) lib=$orig/$lib ;; esac
map=libmcast/libmcast.map
for p in nm readelf; do
	if ! command -v $p > /dev/null; then
		echo "Bail out! $p is needed"
		exit 1
	fi
done

major=$(sed -n 's/^#define LIBMCAST_VERSION_MAJOR[ \t]*\([0-9]*\)$/\1/p' libmcast/mcast.h)
minor=$(sed -n 's/^#define LIBMCAST_VERSION_MINOR[ \t]*\([0-9]*\)$/\1/p' libmcast/mcast.h)
if [ -z "$major" ] || [ -z "$minor" ]; then
	echo "Bail out! no LIBMCAST_VERSION_MAJOR/MINOR in libmcast/mcast.h"
	exit 1
fi
real=libmcast.so.$major.$minor.0
so=$lib/$real
if [ ! -f "$so" ]; then
	echo "Bail out! no $so (run make libmcast)"
	exit 1
fi

# shellcheck source=tests/cli/tap.sh
. tests/cli/tap.sh

# The map as "NODE SYMBOL" lines, in its order; "NODE *" for the
# catch-all of local:, and "NODE !glob PATTERN" for any other wildcard.
pairs=$(sed -e 's|/\*.*\*/||g' "$map" | awk '
	/\/\*/ { incomment = 1 }
	incomment { if ($0 ~ /\*\//) incomment = 0; next }
	/^[A-Za-z_][A-Za-z0-9_.]*[ \t]*\{/ { node = $1; sub(/\{.*/, "", node); scope = "global"; next }
	/^[ \t]*global:/ { scope = "global"; next }
	/^[ \t]*local:/ { scope = "local"; next }
	/^\}/ { node = ""; next }
	node != "" && NF {
		s = $1; sub(/;$/, "", s)
		if (scope == "local") print node, "local:" s
		else if (s ~ /[*?\[]/) print node, "!glob", s
		else print node, s
	}')
nodes=$(sed -n 's/^\([A-Za-z_][A-Za-z0-9_.]*\)[ \t]*{.*/\1/p' "$map")

echo "1..13"

globs=$(grep ' !glob ' <<< "$pairs" || true)
[ -z "$globs" ]
ok $? "the map names every exported symbol (no glob in global:)" "$globs"

locals=$(grep ' local:' <<< "$pairs" || true)
[ "$locals" = "MCAST_$major.0 local:*" ]
ok $? "its first node, alone, makes everything else local" "$locals"

want=$(for ((i = 0; i <= minor; i++)); do echo "MCAST_$major.$i"; done)
[ "$nodes" = "$want" ]
ok $? "its nodes are MCAST_$major.0 to MCAST_$major.$minor (mcast.h's $major.$minor), one per minor" \
	"$(diff <(echo "$want") <(echo "$nodes"))"

maps=$(grep -v -e ' !glob ' -e ' local:' <<< "$pairs" | awk '{print $2 "@@" $1}' | sort)
dups=$(awk -F@@ '{print $1}' <<< "$maps" | sort | uniq -d)
[ -z "$dups" ] && [ -n "$maps" ]
ok $? "each symbol is in one node" "$dups"

empty=
while read -r node; do
	grep -q "^$node [a-z]" <<< "$pairs" || empty+=" $node"
done <<< "$nodes"
[ -z "$empty" ]
ok $? "each node adds a symbol" "empty:$empty"

soname=$(readelf -d "$so" | sed -n 's/.*(SONAME).*\[\(.*\)\]/\1/p')
[ "$soname" = "libmcast.so.$major" ]
ok $? "SONAME is libmcast.so.$major, real name $real" "got: $soname"

nmout=$(nm -D --defined-only "$so")
exports=$(awk '$2 != "A" {print $3}' <<< "$nmout" | sort)
[ "$exports" = "$maps" ]
ok $? "nm -D --defined-only: the .so exports exactly the map's symbols at their nodes" \
	"$(diff <(echo "$maps") <(echo "$exports"))"

defs=$(awk '$2 == "A" {print $3}' <<< "$nmout" | sort -V)
[ "$defs" = "$want" ]
ok $? "and defines exactly the map's version nodes" \
	"$(diff <(echo "$want") <(echo "$defs"))"

declared=$(grep -o '^[a-z0-9_ ]*[ *]mcast_[a-z0-9_]*(' libmcast/mcast.h |
	grep -o 'mcast_[a-z0-9_]*' | sort)
[ "$declared" = "$(sed 's/@@.*//' <<< "$maps" | sort)" ]
ok $? "the map's symbols are the functions mcast.h declares" \
	"$(diff <(echo "$declared") <(sed 's/@@.*//' <<< "$maps" | sort))"

# --- Debian's packaging

pkg=libmcast$major
grep -qx "Package: $pkg" debian/control &&
	! grep -E '^Package: libmcast[0-9]+$' debian/control | grep -qvx "Package: $pkg" &&
	grep -A12 -x 'Package: libmcast-dev' debian/control |
	grep -q "^Depends:.*$pkg (= \${binary:Version})"
ok $? "debian/control: the library package is $pkg, libmcast-dev depends on it" \
	"$(grep -E '^(Package|Depends):' debian/control 2>&1)"

symf=debian/$pkg.symbols
head -n 1 "$symf" 2>/dev/null | grep -qx "libmcast.so.$major $pkg #MINVER#"
ok $? "$symf is for libmcast.so.$major in $pkg" "$(head -n 1 "$symf" 2>&1)"

syms=$(sed -n 's/^ \([A-Za-z0-9_.]*\)@\(MCAST_[0-9.]*\) .*/\1@@\2/p' "$symf" 2>/dev/null)
symsf=$(grep -v '^MCAST_' <<< "$syms" | sort)
symsn=$(grep '^MCAST_' <<< "$syms" | awk -F@@ '$1 == $2 {print $1}' | sort -V)
[ "$symsf" = "$maps" ] && [ "$symsn" = "$want" ]
ok $? "$symf lists the map's symbols and nodes, each at its node" \
	"$(diff <(printf '%s\n%s\n' "$maps" "$want") <(printf '%s\n%s\n' "$symsf" "$symsn"))"

version=$(sed -n 's/^PACKAGE_VERSION="\{0,1\}\([^"]*\)"\{0,1\}$/\1/p' dkms.conf)
chver=$(sed -n '1s/^[^ ]* (\([^)]*\)).*/\1/p' debian/changelog 2>/dev/null)
[ -n "$version" ] && [ "$chver" = "$version" ]
ok $? "debian/changelog's version is dkms.conf's ($version)" "got: $chver"

tap_exit
