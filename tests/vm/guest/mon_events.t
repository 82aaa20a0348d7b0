#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# mcastmon prints one line per notification of the "events" group, as the
# configuration changes (node, peer, group add/set/del), in text and with
# -j one JSON object per line; without the module it says so.

# shellcheck source=tests/vm/guest/tap.sh
. /tests/tap.sh

if [ ! -x /usr/local/bin/mcastmon ] || [ ! -x /usr/local/bin/mcastctl ]; then
	skip_all "no mcastmon or mcastctl in the guest (GUEST_PROGS)"
fi

# A previous test may have left the module loaded.
rmmod mcast 2>/dev/null

plan 16

out=$(without_autoload timeout 20 /usr/local/bin/mcastmon 2>&1)
rc=$?
is "$rc:$out" "4:mcastmon: the mcast kernel module is not loaded (modprobe mcast)" \
	"without the module: exit 4 and says it is not loaded"
run_ok "insmod mcast.ko" insmod "$MCAST_KO"

# changes: the six configuration changes, each one notification
changes() {
	mcastctl node set topology torus:4x4 coord 1,2 &&
		mcastctl peer add 1,3 addr 10.0.0.7 port 7447 &&
		mcastctl group add 5 &&
		mcastctl group set 5 members 0,0 1,2 &&
		mcastctl group del 5 &&
		mcastctl peer del 1,3
}

# monitor OUTFILE ARGS...: mcastmon ARGS -c 6 in the background, the
# changes, then wait for it (it exits after six events).
monitor() {
	_f=$1
	shift
	/usr/local/bin/mcastmon "$@" -c 6 > "$_f" 2>&1 &
	_pid=$!
	sleep 2		# let it subscribe (TCG is slow)
	changes
	_crc=$?
	_i=0
	while kill -0 "$_pid" 2>/dev/null && [ $_i -lt 30 ]; do
		sleep 1
		_i=$((_i + 1))
	done
	if kill -0 "$_pid" 2>/dev/null; then
		kill "$_pid"
		echo "mcastmon still running after 30 s" >> "$_f"
		return 1
	fi
	wait "$_pid" && [ $_crc -eq 0 ]
}

monitor /tmp/mon.txt
rc=$?
is "$rc" 0 "mcastmon -c 6 exits after the six changes"
[ $rc -eq 0 ] || diag "$(cat /tmp/mon.txt)"
is "$(wc -l < /tmp/mon.txt | tr -d ' ')" 6 "six lines"
is "$(awk '{print $3}' /tmp/mon.txt | tr '\n' ' ')" \
	"node peer-add group-add group-set group-del peer-del " \
	"one line per change, in order, named after it"
if grep -q '^[0-9]\{4\}-[0-9][0-9]-[0-9][0-9] [0-9][0-9]:[0-9][0-9]:[0-9][0-9]\.[0-9]\{3\} ' /tmp/mon.txt &&
	[ "$(grep -c '^[0-9]\{4\}-' /tmp/mon.txt)" -eq 6 ]; then
	pass "every line starts with a timestamp"
else
	fail "every line starts with a timestamp" "$(cat /tmp/mon.txt)"
fi
line=$(sed -n 1p /tmp/mon.txt)
case $line in
*" node 6 (1,2) torus:4x4:uni") pass "the node line: id, coordinate, topology" ;;
*) fail "the node line: id, coordinate, topology" "$line" ;;
esac
line=$(sed -n 4p /tmp/mon.txt)
case $line in
*" group-set 5 epoch "*" members (0,0) (1,2) rchain (0,0) (1,2) hcycle "*) pass "the group-set line: members, R-chain and H-cycle as coordinates" ;;
*) fail "the group-set line: members, R-chain and H-cycle as coordinates" "$line" ;;
esac

# the same in JSON (the node set is now a no-op: still a notification?)
monitor /tmp/mon.json -j
rc=$?
is "$rc" 0 "mcastmon -j -c 6 exits after the six changes"
[ $rc -eq 0 ] || diag "$(cat /tmp/mon.json)"
is "$(grep -c '^{"time":"[0-9-]*T[0-9:.]*Z","event":"[a-z-]*",.*}$' /tmp/mon.json)" 6 \
	"six JSON objects, one per line, each with a UTC time and an event"
line=$(sed -n 2p /tmp/mon.json)
case $line in
*'"event":"peer-add","peer":{"id":7,"coord":[1,3],"addr":"10.0.0.7","port":7447}}') pass "the peer-add object" ;;
*) fail "the peer-add object" "$line" ;;
esac
line=$(sed -n 4p /tmp/mon.json)
case $line in
*'"event":"group-set","group":{"id":5,"epoch":'*'"members":[[0,0],[1,2]],"rchain":[[0,0],[1,2]],"hcycle":'*) pass "the group-set object" ;;
*) fail "the group-set object" "$line" ;;
esac

# a local file joining and leaving a group (mcast_hello does both)
if [ -x /usr/local/bin/mcast_hello ]; then
	mcastctl node set topology torus:4x4 coord 1,2 > /dev/null 2>&1
	mcastctl group add 1 members 1,2 > /dev/null 2>&1
	/usr/local/bin/mcastmon -c 2 > /tmp/mon.join 2>&1 &
	mpid=$!
	sleep 2
	/usr/local/bin/mcast_hello 1 > /tmp/hello.out 2>&1 &
	hpid=$!
	wait $hpid
	i=0
	while kill -0 $mpid 2>/dev/null && [ $i -lt 30 ]; do
		sleep 1
		i=$((i + 1))
	done
	kill $mpid 2>/dev/null
	got=$(awk '{$1 = $2 = ""; print}' /tmp/mon.join | sed 's/^ *//' | tr '\n' ';')
	is "$got" "join group 1 pid $hpid;leave group 1 pid $hpid;" \
		"mcast_hello's join and leave: two lines with the group and its pid"
	mcastctl group del 1 > /dev/null 2>&1
else
	skip "mcast_hello's join and leave" "no mcast_hello in the guest"
fi

# A container (pid and network namespaces of its own, its node configured
# from inside) hears its own processes' pids, not the host's, and 0 for a
# host process that joins in its network namespace (nsenter): one the
# container cannot see.
container_events() {
	rm -f /tmp/ns.mon /tmp/ns.hello
	unshare -p -f -n sh -c '
		mcastctl node set topology torus:4x4 coord 1,2 > /dev/null 2>&1
		mcastctl group add 1 members 1,2 > /dev/null 2>&1
		/usr/local/bin/mcastmon -c 4 > /tmp/ns.mon 2>&1 &
		m=$!
		sleep 2
		/usr/local/bin/mcast_hello 1 > /dev/null 2>&1 &
		h=$!
		wait $h
		echo $h > /tmp/ns.hello
		i=0
		while kill -0 $m 2>/dev/null && [ $i -lt 30 ]; do
			sleep 1
			i=$((i + 1))
		done
		kill $m 2>/dev/null' &
	_upid=$!
	i=0
	while [ ! -s /tmp/ns.hello ] && [ $i -lt 30 ]; do
		sleep 1
		i=$((i + 1))
	done
	nsenter -n -t "$_upid" /usr/local/bin/mcast_hello 1 > /dev/null 2>&1
	wait $_upid
}
if [ -x /usr/local/bin/mcast_hello ]; then
	container_events
	h=$(cat /tmp/ns.hello 2>/dev/null)
	got=$(awk '{$1 = $2 = ""; print}' /tmp/ns.mon | sed 's/^ *//' | tr '\n' ';')
	is "$got" "join group 1 pid $h;leave group 1 pid $h;join group 1 pid 0;leave group 1 pid 0;" \
		"in a container: its own pids ($h), and 0 for the host's process"
else
	skip "events' pids in a container" "no mcast_hello in the guest"
fi

# unloading the module ends mcastmon, which says so
/usr/local/bin/mcastmon > /tmp/mon.rmmod 2>&1 &
mpid=$!
sleep 2
run_ok "rmmod mcast while mcastmon runs" rmmod mcast
i=0
while kill -0 $mpid 2>/dev/null && [ $i -lt 20 ]; do
	sleep 1
	i=$((i + 1))
done
if kill -0 $mpid 2>/dev/null; then
	kill $mpid
	fail "mcastmon exits when the module is unloaded" "still running after 20 s"
else
	wait $mpid
	is "$?:$(cat /tmp/mon.rmmod)" \
		"4:mcastmon: the mcast kernel module was unloaded" \
		"mcastmon exits when the module is unloaded: says so, exit 4"
fi

tap_exit
