#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# mcastd's benchmark, run inside the test VM by `tests/vm/run.sh
# --bench-daemon` (`make bench-daemon`).  On a 16- and a 64-node torus run
# by mcastd (mcastbed up --daemon, the product's default timers):
#  - control traffic at rest: datagrams and bytes each daemon sends per
#    second, over DAEMON_REST_S seconds (default 30);
#  - join-to-converged: DAEMON_JOINS times (default 20) a file on a random
#    node joins a new group; the time from that node's daemon seeing the
#    join to the last daemon installing the group (each daemon logs with
#    the monotonic clock, which every namespace of the guest shares);
#    then the file leaves, and the same for the group's removal.
# Prints p50 and p99 of both, and one CSV line per testbed.  Figures from
# a TCG guest: compare them with each other, not with hardware.

# shellcheck source=tests/vm/guest/tap.sh
. /tests/tap.sh

JOINS=${DAEMON_JOINS:-20}
TOPOS=$(echo "${DAEMON_TOPOS:-torus:4x4,torus:8x8}" | tr , ' ')
REST=${DAEMON_REST_S:-30}
STATE=/run/mcastbed
W=/tmp/bench_daemon
rm -rf "$W"
mkdir -p "$W"

modprobe veth 2>/dev/null
insmod "$MCAST_KO" || { echo "bench_daemon: cannot load mcast.ko"; exit 1; }

export MCASTBED_HEARTBEAT=500ms MCASTBED_SUSPECT=4s MCASTBED_DEAD=4s \
	MCASTBED_SYNC=5s MCASTBED_DAEMON_ARGS=--log-time

# the monotonic time (s) of the first line of daemon $1's log matching $2
log_time() { # NODE REGEX
	awk -v re="$2" '$0 ~ re { gsub(/[][]/, "", $1); print $1; exit }' \
		"$STATE/mcastd.$1.log"
}

# "p50 p99" in ms of the numbers (s) on stdin
percentiles() {
	sort -n | awk '{ v[NR] = $1 * 1000 }
		END {
			if (!NR) { print "- -"; exit }
			i50 = int((NR - 1) * 0.5) + 1; i99 = int((NR - 1) * 0.99) + 1
			printf "%.1f %.1f\n", v[i50], v[i99]
		}'
}

# until every daemon's log has a line matching $1 (60 s at most)
wait_all_logs() { # REGEX N
	_t=0
	while [ "$_t" -lt 600 ]; do
		_c=$(grep -l -E "$1" "$STATE"/mcastd.*.log 2>/dev/null | wc -l)
		[ "$_c" -lt "$2" ] || return 0
		sleep 0.1
		_t=$((_t + 1))
	done
	for _l in "$STATE"/mcastd.*.log; do
		grep -q -E "$1" "$_l" && continue
		echo "  not in $_l; its last lines:"
		tail -n 4 "$_l" | sed 's/^/    /'
		break
	done
	return 1
}

stat_sum() { # N KEY
	_s=0
	_u=0
	while [ "$_u" -lt "$1" ]; do
		_v=$(mcastbed exec "$_u" mcastctl -j cluster show |
			sed -n "s/.*\"$2\":\([0-9]*\).*/\1/p")
		_s=$((_s + ${_v:-0}))
		_u=$((_u + 1))
	done
	echo "$_s"
}

echo "csv: nodes,monitors,span_s,tx_dgrams_per_node_s,tx_bytes_per_node_s,join_p50_ms,join_p99_ms,leave_p50_ms,leave_p99_ms,joins"
for TOPO in $TOPOS; do
	N=$(echo "${TOPO#torus:}" | awk -F x '{ print $1 * $2 }')
	t0=$(awk '{ print $1 }' /proc/uptime)
	mcastbed up "$TOPO" --daemon > "$W/up.$N" 2>&1 ||
		{ echo "bench_daemon: mcastbed up $TOPO --daemon failed:"; cat "$W/up.$N"; exit 1; }
	t1=$(awk '{ print $1 }' /proc/uptime)
	echo "== $TOPO: $N daemons up and in sync in $(echo "$t0 $t1" | awk '{ printf "%.1f", $2 - $1 }') s"

	d0=$(stat_sum "$N" tx_dgrams)
	b0=$(stat_sum "$N" tx_bytes)
	sleep "$REST"
	# each node's interval is REST plus one pass of the reads, which
	# takes long under TCG: time the second pass
	t2=$(awk '{ print $1 }' /proc/uptime)
	d1=$(stat_sum "$N" tx_dgrams)
	t3=$(awk '{ print $1 }' /proc/uptime)
	b1=$(stat_sum "$N" tx_bytes)
	span=$(echo "$REST $t2 $t3" | awk '{ print $1 + $3 - $2 }')
	rate=$(echo "$d0 $d1 $b0 $b1 $N $span" | awk '{ printf "%.1f %.0f", ($2 - $1) / $5 / $6, ($4 - $3) / $5 / $6 }')
	echo "at rest: $(echo "$rate" | cut -d' ' -f1) datagrams, $(echo "$rate" | cut -d' ' -f2) bytes a second sent per daemon"

	: > "$W/join.$N"
	: > "$W/leave.$N"
	j=1
	while [ "$j" -le "$JOINS" ]; do
		g=$((1000 + j))
		x=$(awk -v n="$N" -v s="$j" 'BEGIN { srand(s * 7 + n); print int(rand() * n) }')
		: > "$W/rx"
		mcastbed exec "$x" mcast_probe rx "$g" 600000 -1 > "$W/rx" 2>&1 &
		wait_lines 1 '^ready' "$W/rx"
		# the receiver's own pid: ip netns exec forks it
		hpid=$(sed -n 's/^ready .* pid=\([0-9]*\)$/\1/p' "$W/rx")
		if wait_all_logs "group $g: 1 members installed" "$N"; then
			tj=$(log_time "$x" "a file here joined group $g\$")
			last=0
			u=0
			while [ "$u" -lt "$N" ]; do
				t=$(log_time "$u" "group $g: 1 members installed")
				last=$(echo "$last $t" | awk '{ print ($2 > $1) ? $2 : $1 }')
				u=$((u + 1))
			done
			echo "$tj $last" | awk '{ print $2 - $1 }' >> "$W/join.$N"
		else
			echo "join $j (group $g on node $x): not everywhere within 60 s"
		fi
		kill "$hpid" 2>/dev/null
		if wait_all_logs "group $g: no members left, deleted" "$N"; then
			tl=$(log_time "$x" "files here left group $g\$")
			last=0
			u=0
			while [ "$u" -lt "$N" ]; do
				t=$(log_time "$u" "group $g: no members left, deleted")
				last=$(echo "$last $t" | awk '{ print ($2 > $1) ? $2 : $1 }')
				u=$((u + 1))
			done
			echo "$tl $last" | awk '{ print $2 - $1 }' >> "$W/leave.$N"
		else
			echo "leave $j (group $g on node $x): not everywhere within 60 s"
		fi
		j=$((j + 1))
	done
	jp=$(percentiles < "$W/join.$N")
	lp=$(percentiles < "$W/leave.$N")
	mon=1
	while [ $((mon * mon)) -lt $((N - 1)) ]; do
		mon=$((mon + 1))
	done
	echo "join to converged on all $N: p50 $(echo "$jp" | cut -d' ' -f1) ms, p99 $(echo "$jp" | cut -d' ' -f2) ms ($(wc -l < "$W/join.$N") joins)"
	echo "leave to converged on all $N: p50 $(echo "$lp" | cut -d' ' -f1) ms, p99 $(echo "$lp" | cut -d' ' -f2) ms"
	echo "csv: $N,$mon,$span,$(echo "$rate" | tr ' ' ,),$(echo "$jp" | tr ' ' ,),$(echo "$lp" | tr ' ' ,),$(wc -l < "$W/join.$N")"
	mcastbed down > /dev/null 2>&1
	sleep 2
done
rmmod mcast
exit 0
