# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# TAP helpers for the guest tests (POSIX sh; run by busybox sh in the VM).
# A test sources it with `. /tests/tap.sh`, prints its plan with `plan N`
# (or `done_testing` at the end), and finishes with `tap_exit`.
#
# Every assertion prints one `ok N - desc` / `not ok N - desc` line; on
# failure, what the command printed follows as `#` diagnostics, so the host's
# report says why without a second run.

_tap_n=0
_tap_failed=0

# Debian's static busybox sh runs its own applets ahead of programs in PATH,
# so a plain `ip` or `tc` would be busybox's (no netns, no netem).  Functions
# win over applets: one per program in /usr/local/bin (iproute2's ip and tc,
# our programs).  A `sh -c` inside a test does not inherit them; give it
# the full path.
for _p in /usr/local/bin/*; do
	case ${_p##*/} in
	*[!A-Za-z0-9_]* | [0-9]*) continue ;;
	esac
	[ -x "$_p" ] && eval "${_p##*/}() { \"$_p\" \"\$@\"; }"
done
unset _p

plan() {
	echo "1..$1"
}

# All tests skipped (e.g. a kernel feature is missing): plan 0 with a reason.
skip_all() {
	echo "1..0 # SKIP $*"
	exit 0
}

diag() {
	printf '%s\n' "$@" | sed '/^$/d; s/^/# /'
}

# VM_TAP_TIMES=1 on the host: each result carries the guest's uptime, to
# see where a test spends its time (read, a builtin: no process per result)
_tap_line() {
	if [ "${mcast_tap_times:-0}" = 1 ]; then
		read -r _up _ < /proc/uptime
		echo "$1 [${_up%.*}s]"
	else
		echo "$1"
	fi
}

pass() {
	_tap_n=$((_tap_n + 1))
	_tap_line "ok $_tap_n - $1"
}

# fail DESC [DIAGNOSTIC...]
fail() {
	_tap_n=$((_tap_n + 1))
	_tap_failed=$((_tap_failed + 1))
	_tap_line "not ok $_tap_n - $1"
	shift
	[ $# -eq 0 ] || diag "$@"
}

skip() {
	_tap_n=$((_tap_n + 1))
	echo "ok $_tap_n - $1 # SKIP ${2:-}"
}

# run_ok DESC CMD [ARG...]: passes if CMD exits 0.
run_ok() {
	_d=$1
	shift
	if _out=$("$@" 2>&1); then
		pass "$_d"
	else
		_rc=$?
		fail "$_d" "\`$*\` exited with status $_rc" "$_out"
	fi
}

# run_fails DESC CMD [ARG...]: passes if CMD exits non-zero (bad inputs
# must be refused).
run_fails() {
	_d=$1
	shift
	if _out=$("$@" 2>&1); then
		fail "$_d" "\`$*\` succeeded but should have failed" "$_out"
	else
		pass "$_d"
	fi
}

# is GOT EXPECTED DESC
is() {
	if [ "$1" = "$2" ]; then
		pass "$3"
	else
		fail "$3" "got:      '$1'" "expected: '$2'"
	fi
}

# wait_lines COUNT REGEX FILE... : wait (at most 60 s) until the files
# hold COUNT lines matching REGEX between them.  Name each file: a glob is
# expanded once, maybe before a background program created them.  A
# program's readiness is a line it prints, not a guess at how long it
# takes: a TCG guest on a loaded host can be ten times slower.
wait_lines() {
	_wn=$1 _wre=$2 _wt=0
	shift 2
	while [ "$_wt" -lt 300 ]; do
		[ "$(cat "$@" 2>/dev/null | grep -c "$_wre")" -ge "$_wn" ] && return 0
		sleep 0.2
		_wt=$((_wt + 1))
	done
	return 1
}

# wait_refs N: wait (at most 60 s) until mcast.ko has more than N
# references (files open on /dev/mcast each hold one).
wait_refs() {
	_wt=0
	while [ "$_wt" -lt 300 ]; do
		[ "$(cat /sys/module/mcast/refcnt)" -gt "$1" ] && return 0
		sleep 0.2
		_wt=$((_wt + 1))
	done
	return 1
}

# without_autoload CMD...: runs CMD with module autoloading off, as on a
# host where mcast is not installed (the kernel loads mcast.ko by itself
# when a program asks for the "mcast" genetlink family, its alias).
without_autoload() {
	_mp=$(cat /proc/sys/kernel/modprobe)
	echo /nonexistent > /proc/sys/kernel/modprobe
	"$@"
	_r=$?
	echo "$_mp" > /proc/sys/kernel/modprobe
	return "$_r"
}

done_testing() {
	echo "1..$_tap_n"
}

# Exit status for the host: non-zero if any assertion failed.
tap_exit() {
	[ "$_tap_failed" -eq 0 ]
	exit $?
}
