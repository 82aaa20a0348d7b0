#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# /dev/mcast permissions as systemd/60-mcast.rules sets them (group "mcast",
# mode 0660): a user in the device's group sends and receives without any
# capability; a user outside it cannot open the device; neither can change
# configuration over netlink.  The guest has no udev, so the test applies
# the rule's owner and mode itself, read from the rule file.

# shellcheck source=tests/vm/guest/tap.sh
. /tests/tap.sh

rule=/tests/60-mcast.rules
mode=$(sed -n 's/.*MODE="\([0-7]*\)".*/\1/p' "$rule")
is "$mode" 0660 "the udev rule gives mode 0660"
grep -q 'KERNEL=="mcast", SUBSYSTEM=="misc", GROUP="mcast"' "$rule"
is $? 0 "the udev rule matches the misc device mcast and sets group mcast"

rmmod mcast 2>/dev/null
insmod "$MCAST_KO" || skip_all "insmod $MCAST_KO failed"
run_ok "NODE_SET 4x4 at (0,0)" mcast_probe node-set 4,4 0,0
run_ok "GROUP_NEW 3" mcast_probe group-new 3
run_ok "GROUP_SET 3" mcast_probe group-set 3 0,5

# gid 65534 stands for the "mcast" group: mcast_probe nobody runs as
# uid/gid 65534 with no supplementary groups.
chgrp 65534 /dev/mcast && chmod "$mode" /dev/mcast
run_ok "a member of the device's group delivers to 3 files" \
	mcast_probe nobody deliver 3 3
run_fails "a member of the device's group cannot create a group" \
	mcast_probe nobody group-new 4
chgrp 0 /dev/mcast
run_fails "a user outside the device's group cannot open it" \
	mcast_probe nobody info

run_ok "rmmod mcast" rmmod mcast
done_testing
tap_exit
