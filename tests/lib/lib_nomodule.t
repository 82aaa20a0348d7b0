#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# libmcast as built and installed, without the module: what the .so
# exports (only mcast_*, versioned MCAST_1.0, or MCAST_1.1 and MCAST_1.2
# for what came later), its SONAME and links, the
# `make install-lib DESTDIR=...` tree, the pkg-config file, a man page for
# every exported function, and the example compiled against the installed
# tree reporting the missing module.  TAP output.
#
# LIBMCAST_DIR names the built library's directory (default build/lib).

set -u

orig=$PWD
cd "$(dirname "$0")/../.." || exit 1
top=$PWD
lib=${LIBMCAST_DIR:-$top/build/lib}
case $lib in /*) ;; *) lib=$orig/$lib ;; esac
# the real name, libmcast.so.MAJOR.MINOR.0, from mcast.h's version
major=$(sed -n 's/^#define LIBMCAST_VERSION_MAJOR[ \t]*//p' libmcast/mcast.h)
minor=$(sed -n 's/^#define LIBMCAST_VERSION_MINOR[ \t]*//p' libmcast/mcast.h)
real=libmcast.so.$major.$minor.0
so=$lib/$real
if [ ! -f "$so" ]; then
	echo "Bail out! no $so (run make libmcast)"
	exit 1
fi
for p in nm readelf pkg-config make cc; do
	if ! command -v $p > /dev/null; then
		echo "Bail out! $p is needed"
		exit 1
	fi
done

tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT

# shellcheck source=tests/cli/tap.sh
. tests/cli/tap.sh

# --- the library as built

syms=$(nm -D --defined-only "$so" | awk '{print $3}')
others=$(grep -v -e '^mcast_[a-z0-9_]*@@MCAST_1\.0$' -e '^MCAST_1\.[012]$' \
	-e '^mcast_join_flags@@MCAST_1\.1$' \
	-e '^mcast_send_set_algorithm@@MCAST_1\.2$' <<< "$syms" || true)
[ -z "$others" ]
ok $? "the .so exports only mcast_* symbols, at MCAST_1.0 (mcast_join_flags: MCAST_1.1, mcast_send_set_algorithm: MCAST_1.2)" "$others"
funcs=$(grep -o '^mcast_[a-z0-9_]*' <<< "$syms" | sort)
nfuncs=$(wc -l <<< "$funcs")
[ "$nfuncs" -ge 15 ]
ok $? "it exports the API ($nfuncs functions)" "$funcs"

# Every function declared in mcast.h is exported, and nothing else.
declared=$(grep -o '^[a-z0-9_ ]*[ *]mcast_[a-z0-9_]*(' libmcast/mcast.h |
	grep -o 'mcast_[a-z0-9_]*' | sort)
[ "$declared" = "$funcs" ]
ok $? "the exports are exactly the functions mcast.h declares" \
	"$(diff <(echo "$declared") <(echo "$funcs"))"

soname=$(readelf -d "$so" | sed -n 's/.*(SONAME).*\[\(.*\)\]/\1/p')
[ "$soname" = libmcast.so.1 ]
ok $? "SONAME is libmcast.so.1" "got: $soname"

[ "$(readlink "$lib/libmcast.so.1")" = "$real" ] &&
	[ "$(readlink "$lib/libmcast.so")" = "$real" ]
ok $? "libmcast.so.1 and libmcast.so link to $real"

! readelf -d "$so" | grep -q '(TEXTREL)'
ok $? "no text relocations"

# --- installed

out=$(env -u MAKEFLAGS -u MAKELEVEL -u MFLAGS make -s --no-print-directory \
	install-lib DESTDIR="$tmp/root" 2>&1)
ok $? "make install-lib DESTDIR=... succeeds" "$out"
p=$tmp/root/usr/local
missing=
for f in lib/$real lib/libmcast.so.1 lib/libmcast.so \
	 lib/pkgconfig/libmcast.pc include/mcast.h include/mcast/linux/mcast.h \
	 share/man/man3/libmcast.3 share/man/man3/mcast_open.3; do
	[ -e "$p/$f" ] || missing+=" $f"
done
[ -z "$missing" ]
ok $? "the tree has the library, its links, headers, .pc and man pages" \
	"missing:$missing"

cmp -s include/uapi/linux/mcast.h "$p/include/mcast/linux/mcast.h" &&
	[ ! -e "$p/include/linux" ]
ok $? "the installed <linux/mcast.h> is the uapi header, in include/mcast/linux"

nomsg=
while read -r f; do
	[ -f "$p/share/man/man3/$f.3" ] || nomsg+=" $f"
done <<< "$funcs"
[ -z "$nomsg" ]
ok $? "a man page for every exported function" "missing:$nomsg"

if command -v man > /dev/null && command -v groff > /dev/null; then
	bad=
	while read -r f; do
		txt=$(MANWIDTH=80 man -M "$p/share/man" 3 "$f" 2>&1) || bad+=" $f"
		grep -q "$f" <<< "$txt" || bad+=" $f"
	done <<< "$funcs"
	warn=$(cd libmcast/man && for f in *.3; do
		grep -q '^\.so ' "$f" || groff -man -ww -z -t "$f" 2>&1; done)
	[ -z "$bad" ] && [ -z "$warn" ]
	ok $? "every page renders with man(1), without groff warnings" \
		"bad:$bad $warn"
else
	ok 0 "every page renders with man(1) # SKIP no man or groff"
fi

export PKG_CONFIG_PATH=$p/lib/pkgconfig PKG_CONFIG_SYSROOT_DIR=$tmp/root
unset PKG_CONFIG_LIBDIR
flags=$(pkg-config --cflags --libs libmcast 2>&1)
flags=${flags% }
[ "$flags" = "-I$p/include -I$p/include/mcast -L$p/lib -lmcast" ]
ok $? "pkg-config --cflags --libs libmcast points at the tree" "got: $flags"
ver=$(pkg-config --modversion libmcast 2>&1)
want=$(sed -n 's/^PACKAGE_VERSION="\{0,1\}\([^"]*\)"\{0,1\}$/\1/p' dkms.conf)
[ "$ver" = "$want" ]
ok $? "its version is the package's ($want)" "got: $ver"

# shellcheck disable=SC2086 # word splitting of the flags is meant
out=$(cc -std=c11 -Wall -Wextra -Werror -pedantic \
	-o "$tmp/hello" libmcast/examples/mcast_hello.c $flags 2>&1)
ok $? "mcast_hello.c compiles against the installed tree (c11, -pedantic)" "$out"

out=$(printf '#include <mcast.h>\nint main(void) { return 0; }\n' |
	c++ -std=c++11 -Wall -Wextra -Werror -x c++ -I"$p/include" -I"$p/include/mcast" \
	-o "$tmp/cxx" - 2>&1)
ok $? "mcast.h compiles as C++" "$out"

out=$(LD_LIBRARY_PATH=$p/lib ldd "$tmp/hello" 2>&1)
grep -q "libmcast.so.1 => $p/lib/libmcast.so.1" <<< "$out"
ok $? "the example links to the installed libmcast.so.1" "$out"

out=$(LD_LIBRARY_PATH=$p/lib MCAST_DEVICE=$tmp/no-such-device \
	"$tmp/hello" 2>&1)
rc=$?
[ $rc -eq 1 ] && [[ $out == *"mcast kernel module is not loaded"* ]]
ok $? "without the device it exits 1 and says the module is not loaded" \
	"exit $rc: $out"

done_testing
tap_exit
