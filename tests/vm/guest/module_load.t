#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# mcast.ko loads (so its planning-core self-test passed: a wrong plan fails
# the load), says so in the kernel log, appears in sysfs, unloads cleanly,
# and survives repeated load/unload cycles.

# shellcheck source=tests/vm/guest/tap.sh
. /tests/tap.sh

ko=$MCAST_KO
cycles=10
# The line kmod/main.c prints when the self-test passed.
loaded_re='mcast: version [^ ]* loaded, planning core self-test passed'

loaded_lines() {
	dmesg | grep -c "$loaded_re"
}

# load_unload: one full cycle; prints what went wrong, returns non-zero.
load_unload() {
	insmod "$ko" || { echo "insmod failed"; return 1; }
	[ -d /sys/module/mcast ] || { echo "no /sys/module/mcast after insmod"; return 1; }
	rmmod mcast || { echo "rmmod failed"; return 1; }
	[ ! -e /sys/module/mcast ] || { echo "/sys/module/mcast left after rmmod"; return 1; }
}

plan 12

run_ok "mcast.ko is in the initramfs" test -f "$ko"
run_ok "mcast is not loaded before the test" test ! -e /sys/module/mcast

before=$(loaded_lines)
run_ok "insmod mcast.ko succeeds" insmod "$ko"
is "$(($(loaded_lines) - before))" 1 \
	"the kernel log shows one 'loaded, planning core self-test passed' line"
if dmesg | grep -q 'mcast: .*self-test failed'; then
	fail "the kernel log has no self-test failure" \
		"$(dmesg | grep 'mcast: ')"
else
	pass "the kernel log has no self-test failure"
fi
run_ok "/sys/module/mcast exists" test -d /sys/module/mcast
is "$(cat /sys/module/mcast/initstate 2>&1)" live "the module is live"
is "$(cat /sys/module/mcast/version 2>&1)" "$(modinfo -F version "$ko" 2>&1)" \
	"/sys/module/mcast/version matches the module's MODULE_VERSION"
is "$(cat /sys/module/mcast/refcnt 2>&1)" 0 "nothing holds a reference to mcast"

run_ok "rmmod mcast succeeds" rmmod mcast
run_ok "/sys/module/mcast is gone after rmmod" test ! -e /sys/module/mcast

before=$(loaded_lines)
i=0
why=
while [ $i -lt $cycles ]; do
	why=$(load_unload 2>&1) || break
	i=$((i + 1))
done
if [ $i -eq $cycles ] && [ "$(($(loaded_lines) - before))" -eq $cycles ]; then
	pass "$cycles load/unload cycles, each with a passing self-test"
else
	fail "$cycles load/unload cycles, each with a passing self-test" \
		"cycle $((i + 1)): ${why:-self-test line missing from the kernel log}"
	rmmod mcast 2>/dev/null
fi

tap_exit
