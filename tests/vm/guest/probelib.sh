# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# Helpers of the tests driven by mcast_probe (tests/vm/guest-src/mcast_probe.c):
# sourced after tap.sh.

expect_err() {
	_d=$1
	_want=$2
	shift 2
	_out=$(mcast_probe "$@" 2>&1)
	case $_out in
	"error $_want:"*) pass "$_d" ;;
	*) fail "$_d" "mcast_probe $*" "expected error $_want, got: $_out" ;;
	esac
}

# expect_out DESC EXPECTED ARGS...: `mcast_probe ARGS` succeeds and prints
# EXPECTED exactly.
expect_out() {
	_d=$1
	_want=$2
	shift 2
	_out=$(mcast_probe "$@" 2>&1)
	_rc=$?
	if [ $_rc -eq 0 ] && [ "$_out" = "$_want" ]; then
		pass "$_d"
	else
		fail "$_d" "mcast_probe $* (exit $_rc)" "got:      $_out" \
			"expected: $_want"
	fi
}

# scenario ARGS...: runs an mcast_probe scenario; each of its PASS/FAIL
# lines becomes one TAP assertion.
scenario() {
	_out=$(mcast_probe "$@" 2>&1)
	_rc=$?
	_seen=0
	while IFS= read -r _l; do
		case $_l in
		"PASS "*) pass "$1: ${_l#PASS }"; _seen=1 ;;
		"FAIL "*) fail "$1: ${_l#FAIL }"; _seen=1 ;;
		"SKIP "*) skip "$1" "${_l#SKIP }"; _seen=1 ;;
		"") ;;
		*) diag "$_l" ;;
		esac
	done <<SCENARIO_EOF
$_out
SCENARIO_EOF
	if [ $_rc -gt 1 ] || [ $_seen = 0 ]; then
		fail "mcast_probe $* ran" "exit status $_rc"
	fi
}

# Loads mcast.ko for the test, or skips the whole test.
mcast_setup() {
	[ -x /usr/local/bin/mcast_probe ] ||
		skip_all "mcast_probe is not in the guest (build/mcast_probe)"
	insmod "$MCAST_KO" || skip_all "insmod $MCAST_KO failed"
}

mcast_unload() {
	run_ok "rmmod mcast succeeds" rmmod mcast
}
