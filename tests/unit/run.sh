#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# Build and run the unit tests under ASan/UBSan without make: the planning
# core's, mcastd's core (test_mcastd_*: daemon/view.c, proto.c, conf.c, replay.c and
# the parsers of utils/lib), and the topology-file parser (test_switchfile:
# utils/lib/switchfile.c, parse.c), mcastctl stats show's formatters
# (test_stats: utils/mcastctl/statfmt.c, statprom.c).
#
#   tests/unit/run.sh [test ...]      (default: every tests/unit/test_*.c)
#
# Environment: CC (default gcc), OUT (build directory, default a temp dir),
# CFLAGS_EXTRA (appended).  Exits non-zero if any test program fails.
set -eu

top=$(cd "$(dirname "$0")/../.." && pwd)
cc=${CC:-gcc}
out=${OUT:-$(mktemp -d "${TMPDIR:-/tmp}/mcast-unit.XXXXXX")}
mkdir -p "$out"
flags="-std=gnu11 -g -O1 -Wall -Wextra -Werror -fsanitize=address,undefined -fno-sanitize-recover=all -I$top/plan ${CFLAGS_EXTRA:-}"

if [ $# -eq 0 ]; then
	set -- $(cd "$top/tests/unit" && ls test_*.c | sed 's/^test_//; s/\.c$//')
fi

failed=0
for t in "$@"; do
	exe="$out/test_$t"
	extra=''
	case $t in
	mcastd_*)
		extra="-I$top/daemon -I$top/utils/lib -I$top/include/uapi -I$top/tests/unit \
			$top/daemon/view.c $top/daemon/proto.c $top/daemon/conf.c $top/daemon/replay.c \
			$top/utils/lib/parse.c $top/utils/lib/switchtopo.c \
			$top/utils/lib/switchfile.c" ;;
	stats)
		extra="-I$top/utils/mcastctl -I$top/include/uapi \
			$top/utils/mcastctl/statfmt.c $top/utils/mcastctl/statprom.c" ;;
	switchfile)
		extra="-I$top/utils/lib $top/utils/lib/switchfile.c \
			$top/utils/lib/parse.c" ;;
	esac
	# shellcheck disable=SC2086
	if ! $cc $flags $extra "$top"/plan/*.c "$top/tests/unit/test_$t.c" -o "$exe" -lm; then
		echo "# test_$t: build failed"
		failed=1
		continue
	fi
	log="$out/test_$t.tap"
	if "$exe" >"$log" 2>&1; then rc=0; else rc=$?; fi
	pass=$(grep -c '^ok ' "$log" || true)
	fail=$(grep -c '^not ok ' "$log" || true)
	echo "test_$t: $pass passed, $fail failed (exit $rc)"
	if [ "$rc" -ne 0 ]; then
		grep -A3 '^not ok ' "$log" | head -40
		tail -3 "$log"
		failed=1
	fi
done
echo "# logs in $out"
exit $failed
