#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# Run the test programs and collect their TAP results.
#
#   tests/run.sh [TEST...]
#
# Without arguments runs every unit test program built from tests/unit/*.c
# (in $UNIT_DIR, default build/asan/unit; `make check` builds them) and every
# CLI test tests/cli/*.t (bash, finding the CLI through $MCASTCTL, default
# build/mcastctl), then libmcast's test programs built from tests/lib/*.c (in
# $LIBTEST_DIR, default build/asan/libtest) and scripts tests/lib/*.t, and
# the VM tests (tests/vm/run.sh, all installed kernels) unless VM_TESTS=0.
# A TEST argument is a test program or a .t script.
#
# Prints each program's output, then ONE final line "N passed, N failed",
# counting individual TAP assertions.  A program that crashes, times out,
# exits non-zero without a failed assertion, bails out, or prints fewer
# results than its plan (or no plan) counts as one more failure.  Exits
# non-zero if anything failed or no test ran.

set -u
LC_ALL=C
export LC_ALL

top=$(cd "$(dirname "$0")/.." && pwd)
here=$PWD
cd "$top" || exit 2

UNIT_DIR=${UNIT_DIR:-build/asan/unit}
LIBTEST_DIR=${LIBTEST_DIR:-build/asan/libtest}
MCASTCTL=${MCASTCTL:-$top/build/mcastctl}
TEST_TIMEOUT=${TEST_TIMEOUT:-600}
# Sanitizer failures get exit codes no test uses, so they always count.
ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:exitcode=86}
UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1:exitcode=87}
export MCASTCTL ASAN_OPTIONS UBSAN_OPTIONS

passed=0
failed=0
bad=()
out=$(mktemp) || exit 2
trap 'rm -f "$out"' EXIT

# run_one NAME CMD...
run_one() {
	local name=$1 rc counts pass fail plan bail extra=0 why=()
	shift

	echo "=== $name"
	timeout -k 10 "$TEST_TIMEOUT" "$@" < /dev/null > "$out" 2>&1
	rc=$?
	cat "$out"

	# pass fail plan bail; "not ok ... # TODO" is an expected failure.
	counts=$(awk '
		/^ok([ \t]|$)/ { p++; next }
		/^not ok([ \t]|$)/ {
			if ($0 ~ /#[ \t]*[Tt][Oo][Dd][Oo]/) p++; else f++
			next
		}
		/^1\.\.[0-9]+/ { if (plan == "") { sub(/^1\.\./, ""); plan = $0 + 0 } ; next }
		/^Bail out!/ { b = 1 }
		END { printf "%d %d %s %d\n", p, f, plan == "" ? "-" : plan, b }
	' "$out")
	read -r pass fail plan bail <<< "$counts"

	if [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; then
		why+=("timed out after ${TEST_TIMEOUT}s")
	elif [ "$rc" -eq 86 ] || [ "$rc" -eq 87 ]; then
		why+=("sanitizer error (exit $rc)")
	elif [ "$rc" -gt 128 ]; then
		why+=("killed by signal $((rc - 128))")
	elif [ "$rc" -ne 0 ] && [ "$fail" -eq 0 ]; then
		why+=("exit status $rc with no failed assertion")
	fi
	if [ "$bail" -ne 0 ]; then
		why+=("bailed out")
	fi
	if [ "$plan" = - ]; then
		why+=("no plan line")
	elif [ $((pass + fail)) -ne "$plan" ]; then
		why+=("planned $plan, ran $((pass + fail))")
		if [ $((pass + fail)) -lt "$plan" ]; then
			extra=$((plan - pass - fail))
		fi
	fi
	if [ ${#why[@]} -gt 0 ] && [ "$extra" -eq 0 ]; then
		extra=1
	fi

	passed=$((passed + pass))
	failed=$((failed + fail + extra))
	if [ "$fail" -gt 0 ] || [ ${#why[@]} -gt 0 ]; then
		local w note=
		for w in "${why[@]}"; do
			note+="; $w"
		done
		bad+=("$name: $fail not ok$note")
		echo "--- $name: FAILED ($pass ok, $fail not ok$note)"
	else
		echo "--- $name: ok ($pass)"
	fi
	echo
}

tests=()
if [ $# -gt 0 ]; then
	for t in "$@"; do
		case $t in
		/*) tests+=("$t") ;;
		*) tests+=("$here/$t") ;;
		esac
	done
else
	shopt -s nullglob
	for src in tests/unit/*.c; do
		tests+=("$UNIT_DIR/$(basename "$src" .c)")
	done
	for t in tests/cli/*.t; do
		tests+=("$t")
	done
	for src in tests/lib/*.c; do
		tests+=("$LIBTEST_DIR/$(basename "$src" .c)")
	done
	for t in tests/lib/*.t; do
		tests+=("$t")
	done
	# The kernel module's tests boot a VM per kernel (about 1.5 min).
	if [ "${VM_TESTS:-1}" != 0 ]; then
		tests+=(tests/vm/run.sh)
	fi
	shopt -u nullglob
fi

for t in "${tests[@]}"; do
	case $t in
	*/vm/run.sh)
		# every guest test on every kernel: far longer than one program
		# (TEST_TIMEOUT here is the suite's; the guest tests keep theirs,
		# or VM_TEST_TIMEOUT's; the whole VM suite takes about 45 minutes
		# under TCG in two lanes here)
		TEST_TIMEOUT=${VM_SUITE_TIMEOUT:-4800} run_one "$t" \
			env -u TEST_TIMEOUT ${VM_TEST_TIMEOUT:+TEST_TIMEOUT=$VM_TEST_TIMEOUT} \
			bash "$t"
		;;
	*.t)
		run_one "$t" bash "$t"
		;;
	*)
		if [ -x "$t" ]; then
			run_one "$t" "$t"
		else
			echo "=== $t"
			echo "--- $t: FAILED (not built: run make check)"
			echo
			bad+=("$t: not built")
			failed=$((failed + 1))
		fi
		;;
	esac
done

if [ ${#bad[@]} -gt 0 ]; then
	echo "Failed:"
	printf '  %s\n' "${bad[@]}"
fi
if [ $((passed + failed)) -eq 0 ]; then
	echo "no test ran" >&2
fi
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]
