#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# mcastperf on a 2x2 torus testbed (mcastbed), with tiny iteration counts:
# receivers on nodes 1-3, the sender on node 0; the CSV and the table are
# well formed and hold both methods (u-torus, separate) for every size, no
# destination failed, and every receiver got every message, byte-exact.
# Skipped while mcast.ko has no inter-node data path (a completion-mode
# send, MCAST_SEND_WAIT, is refused).

# shellcheck source=tests/vm/guest/tap.sh
. /tests/tap.sh

[ -x /usr/local/bin/mcastbed ] || skip_all "no mcastbed in the guest"
[ -x /usr/local/bin/mcastperf ] || skip_all "no mcastperf in the guest"

rmmod mcast 2>/dev/null
modprobe veth 2>/dev/null
insmod "$MCAST_KO" || skip_all "insmod mcast.ko failed"

cleanup() {
	mcastbed down > /dev/null 2>&1
	rmmod mcast 2>/dev/null
}

# start_receivers TAG ARGS...: mcastperf recv on nodes 1-3, output in
# /tmp/perf.TAG.N; waits (up to 60 s) until all three are receiving.
start_receivers() {
	_tag=$1
	shift
	for _n in 1 2 3; do
		mcastbed exec "$_n" mcastperf recv --idle 60 "$@" \
			> "/tmp/perf.$_tag.$_n" 2>&1 &
	done
	wait_lines 3 receiving /tmp/perf."$_tag".1 /tmp/perf."$_tag".2 /tmp/perf."$_tag".3
}

# Waits (up to 30 s) for the receivers to exit after the stop message.
wait_receivers() {
	_i=0
	while [ "$_i" -lt 300 ]; do
		ip netns pids mcb1 | grep -q . || ip netns pids mcb2 | grep -q . ||
			ip netns pids mcb3 | grep -q . || return 0
		sleep 0.1
		_i=$((_i + 1))
	done
	return 1
}

kill_receivers() {
	for _n in 1 2 3; do
		_p=$(ip netns pids "mcb$_n")
		# shellcheck disable=SC2086 # pids
		[ -z "$_p" ] || kill $_p 2>/dev/null
	done
}

if ! _out=$(mcastbed up torus:2x2 2>&1) || ! _g=$(mcastbed group 7 all 2>&1); then
	plan 1
	fail "mcastbed up torus:2x2 and group 7" "$_out" "$_g"
	cleanup
	tap_exit
fi
if ! start_receivers csv --group 7; then
	plan 1
	fail "receivers start on nodes 1-3" "$(cat /tmp/perf.csv.*)"
	kill_receivers
	cleanup
	tap_exit
fi

mcastbed exec 0 mcastperf send --group 7 --members 0-3 --sizes 8,1K,64K \
	--iters 3 --csv > /tmp/perf.csv 2> /tmp/perf.csv.err
rc=$?
if [ "$rc" = 3 ]; then
	kill_receivers
	cleanup
	skip_all "mcast.ko has no inter-node data path yet (completion mode refused)"
fi

plan 12

is "$rc" 0 "mcastperf send --csv (group 7, 3 destinations) exits 0"
[ "$rc" = 0 ] || diag "$(cat /tmp/perf.csv.err)"
diag "$(cat /tmp/perf.csv)"
is "$(head -n 1 /tmp/perf.csv)" \
	"method,dests,size,iters,median_us,p99_us,msgs_per_s,mb_per_s,failed" \
	"CSV header"
_rows=$(sed 1d /tmp/perf.csv)
is "$(echo "$_rows" | grep -cE '^(u-torus|separate),3,(8|1024|65536),3,[0-9]+\.[0-9],[0-9]+\.[0-9],[0-9]+\.[0-9],[0-9]+\.[0-9]{3},0$')" \
	6 "six well-formed CSV rows, no destination failed"
_m=''
for _s in 8 1024 65536; do
	for _meth in u-torus separate; do
		echo "$_rows" | grep -q "^$_meth,3,$_s," || _m="$_m $_meth/$_s"
	done
done
is "$_m" "" "both methods for every size"

if wait_receivers; then
	pass "the receivers stop on the sender's stop message"
else
	fail "the receivers stop on the sender's stop message"
	kill_receivers
fi
_bad=''
for _n in 1 2 3; do
	# 3 sizes x (3 timed + 3 back-to-back) per method
	grep -q "^node $_n: received .*(u-torus 18, separate 18, path-based 0), bad 0, truncated 0, dropped 0, stopped by the sender" \
		"/tmp/perf.csv.$_n" || _bad="$_bad $(cat "/tmp/perf.csv.$_n")"
done
is "$_bad" "" "every receiver got all 36 messages byte-exact"

# the table, to node lists (no group), on nodes 1-3 from node 0
start_receivers table || fail "receivers start again"
_t=$(mcastbed exec 0 mcastperf send --members 1,2,3 --sizes 8,4K --iters 2 2>&1)
is "$?" 0 "mcastperf send (table, node lists) exits 0"
diag "$_t"
case $_t in
*"# mcastperf: source node 0, 3 destination(s), node-list send, 2 iteration(s)"*)
	pass "the table's title line" ;;
*) fail "the table's title line" "$_t" ;;
esac
echo "$_t" | grep -qE '^method +dests +size +iters +median_us +p99_us +msgs/s +MB/s +failed$'
is "$?" 0 "the table's column header"
is "$(echo "$_t" | grep -cE '^(u-torus|separate) +3 +(8|4096) +2 +[0-9.]+ +[0-9.]+ +[0-9.]+ +[0-9.]+ +0$')" \
	4 "four table rows: both methods, two sizes"
wait_receivers || kill_receivers
_bad=''
for _n in 1 2 3; do
	grep -q "^node $_n: received .*(u-torus 8, separate 8, path-based 0), bad 0" "/tmp/perf.table.$_n" ||
		_bad="$_bad $(cat "/tmp/perf.table.$_n")"
done
is "$_bad" "" "node-list sends: every receiver got all 16 messages byte-exact"

run_fails "mcastperf send without --members is a usage error" \
	mcastbed exec 0 mcastperf send --sizes 8

cleanup
tap_exit
