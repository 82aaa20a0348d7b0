#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# The node-wide caps on a node's tables (docs/data-path.md, "Bounds"), on
# a 1-D torus of 6 nodes over UDP where group 5 is nodes 1 and 2.
#
# Node 1 has 3600 more groups of its own.  Nodes 2 to 5, each as itself
# (UDP from its own port over a raw socket), send node 1 4500 one-fragment
# messages, each for another (sender, group) of those (900 groups a
# forger, senders 0 and 2 to 5): as many streams and finished transfers.
# - Streams: each peer's datagrams make at most its share
#   (MCAST_STREAMS_PER_PEER, 4096), so the four together fill the node's
#   MCAST_STREAMS_MAX (16384); node 1 answers the rest BUSY.
# - Finished jobs: node 1 remembers MCAST_DONE_MAX (4096), forgetting the
#   oldest early rather than refusing, and only for a transfer it takes
#   (before: every transfer answered BUSY made it forget one too, 4095
#   here).
# - Memory cgroups: node 1 is last configured from a process in the
#   memory cgroup /sys/fs/cgroup/node1, so what its receive work (a
#   kworker) allocates for the flood is charged there: that cgroup's
#   memory.current rises by megabytes (before: by nothing, the kworker's
#   allocations went to the root cgroup).
# - Back-pressure, not loss: node 0's message to group 5 (a new stream at
#   node 1) is answered BUSY while the made-up streams fill the table, and
#   its completion-mode send waits.  Once they idle out (stream_idle_ms,
#   lowered to 2 s after the flood), node 1 takes it: the send completes
#   and both members have it once.  Afterwards node 1's gauges are back
#   to what the real traffic needs.
# - A full memory cgroup: with node1's memory.max 1 MiB above what it
#   holds, node 0 sends a 3 MB message to group 5.  Node 1 cannot
#   allocate its reassembly: it answers BUSY (the cgroup's "max" events
#   rise) and the OOM killer is never called ("oom" stays; before, a
#   flood could kill the container's processes, and the OOM report fails
#   the kernel log); once the limit is lifted the send completes and both
#   members have the message once.

# shellcheck source=tests/vm/guest/tap.sh
. /tests/tap.sh

# shellcheck source=tests/vm/guest/netlib.sh
. /tests/netlib.sh

# stretched on a slow kernel (make debugcheck): there the flood takes
# minutes, and made-up streams idling out before it ends never fill the
# table
run_ok "insmod mcast.ko" insmod_scaled

N=6 TOPO=torus:6
PORT=7447
IDLE_MS=/sys/module/mcast/parameters/stream_idle_ms

if ! out=$(mcastbed up "$TOPO" --transport udp 2>&1); then
	fail "mcastbed up $TOPO --transport udp" "$out"
	done_testing
	tap_exit
fi
pass "mcastbed up $TOPO --transport udp"
run_ok "group 5 is nodes 1 and 2" mcastbed group 5 "$(coord 1)" "$(coord 2)"
idle0=$(cat $IDLE_MS)
# node 0's send waits out the flood's BUSY answers; on a slow kernel node
# 1 may also miss its retries' round trips while it works through it
[ "${mcast_time_scale:-1}" -le 1 ] ||
	run_ok "node 0 retries 30 times" mcastbed exec 0 mcastctl node set retries 30

# ---- node 1 configured from a memory cgroup of its own
CG=/sys/fs/cgroup
grep -q " $CG cgroup2 " /proc/mounts || mount -t cgroup2 none $CG
echo +memory > $CG/cgroup.subtree_control 2>/dev/null
mkdir -p $CG/node1
if [ -e $CG/node1/memory.current ]; then
	run_ok "node 1 set again from a process in memory cgroup node1" \
		sh -c "echo \$\$ > $CG/node1/cgroup.procs &&
			exec /usr/local/bin/ip netns exec mcb1 mcastctl node set rto 200"
	mem0=$(cat $CG/node1/memory.current)
else
	mem0=''
fi

# ---- the flood, in chunks so node 1's socket buffer keeps up
g=1000
while [ $g -lt 4600 ]; do
	echo "group add $g"
	g=$((g + 1))
done > "$W/groups"
run_ok "node 1 has 3600 more groups" sh -c "mcastbed exec 1 mcastctl -batch - < $W/groups"
busy0=$(netstat_of 1 busy_sent)
# On a slow kernel (make debugcheck) node 1 reads its socket far slower
# than the forgers write: each chunk gets time to be read, and a second
# pass sends what a full socket dropped (the same transfers: those node
# 1 has are answered as repeats, and make nothing new).
flood() {
	for f in 2 3 4 5; do
		for src in 0 2 3 4 5; do
			mcastbed exec $f mcast_forge raw sport=$PORT "$(addr_of 1)" $PORT data \
				from=$f src=$src xid=$((100000 + f * 10000 + src * 1000)) seq=1 \
				group=$((1000 + (f - 2) * 900)) inc=xid,group piece=1:0 text=cap \
				n=900 > "$W/forge.$f.$src" 2>&1 || diag "$(cat "$W/forge.$f.$src")"
			[ "${mcast_time_scale:-1}" -le 1 ] || sleep $((mcast_time_scale / 2))
		done
		sleep 1
	done
	sleep 2
}
flood
if [ "${mcast_time_scale:-1}" -gt 1 ] && [ "$(netstat_of 1 streams)" -lt 16384 ]; then
	diag "node 1 holds $(netstat_of 1 streams) streams after the flood: once more"
	flood
fi
for f in 2 3 4 5; do
	st=$(mcastbed exec 1 mcastctl -j peer show "$(coord $f)" -s |
		sed -n 's/.*"streams":\([0-9]*\).*/\1/p')
	[ "$st" = 4096 ] || diag "node $f's datagrams made $st streams at node 1"
done
is "$(netstat_of 1 streams)" 16384 "node 1 keeps 16384 streams, MCAST_STREAMS_MAX"
d=$(delta "$busy0" "$(netstat_of 1 busy_sent)")
[ "$d" != none ] && [ "$d" -ge 1000 ] &&
	pass "... and answered the rest BUSY ($d)" ||
	fail "node 1 answers BUSY past the stream cap" "busy_sent +$d"
# A finished job is kept MCAST_DONE_KEEP_MS (20 s, not stretched): a
# slowed flood lasts minutes, so there only the cap itself is checked.
dj=$(netstat_of 1 done_jobs)
if [ "${mcast_time_scale:-1}" -le 1 ]; then
	is "$dj" 4096 \
		"node 1 remembers 4096 finished jobs, MCAST_DONE_MAX (the oldest forgotten early)"
else
	[ "${dj:-99999}" -le 4096 ] &&
		pass "node 1 remembers $dj finished jobs, at most MCAST_DONE_MAX (4096)" ||
		fail "node 1 remembers at most MCAST_DONE_MAX finished jobs" "done_jobs=$dj"
fi
if [ -n "$mem0" ]; then
	rise=$(($(cat $CG/node1/memory.current) - mem0))
	[ "$rise" -ge $((1 << 20)) ] &&
		pass "node 1's receive work charged its memory cgroup: +$((rise >> 10)) KiB" ||
		fail "node 1's receive work charges its memory cgroup" "+$rise bytes" \
			"$(grep -E '^(kernel|slab|sock) ' $CG/node1/memory.stat)"
else
	skip "no memory controller here: memory cgroups unchecked"
fi

# ---- a real sender meets the full table: it waits, it is not lost
for n in 1 2; do
	mcastbed exec "$n" mcast_probe rx 5 60000 1 > "$W/rx.$n" 2>&1 &
done
wait_lines 1 '^ready' "$W/rx.1" "$W/rx.2" || fail "receivers ready" "$(cat "$W"/rx.*)"
busy1=$(netstat_of 1 busy_sent)
mcastbed exec 0 mcast_probe tx g:5 700 wait=60000 > "$W/tx" 2>&1 &
txpid=$!
sleep 3
d=$(delta "$busy1" "$(netstat_of 1 busy_sent)")
[ "$d" != none ] && [ "$d" -ge 1 ] && ! grep -q 'rc=' "$W/tx" &&
	pass "node 0's message meets the full table: answered BUSY ($d), its send waits" ||
	fail "node 0's message is answered BUSY and its send waits" "busy +$d" "$(cat "$W/tx")"
echo 2000 > $IDLE_MS
wait "$txpid"
case $(cat "$W/tx") in
*"rc=0 nfailed=0"*) pass "once the made-up streams idle out, node 0's send completes" ;;
*) fail "once the made-up streams idle out, node 0's send completes" "$(cat "$W/tx")" ;;
esac
wait
for n in 1 2; do
	is "$(grep -c '^msg src=0 .* len=700 .* ok=1' "$W/rx.$n")" 1 "node $n has node 0's message once"
done
s=$(netstat_of 1 streams)
[ "${s:-99}" -le 2 ] && pass "node 1's streams are back to the real ones ($s)" ||
	fail "node 1's streams are back to the real ones" "streams=$s"
echo "$idle0" > $IDLE_MS
[ -z "$mem0" ] || diag "memory cgroup node1 after: $(grep -E '^(kernel|slab) ' $CG/node1/memory.stat | tr '\n' ' ')"

# ---- a full memory cgroup: BUSY, not the OOM killer
memevent() { # NAME: node1's count of that memory event
	sed -n "s/^$1 //p" $CG/node1/memory.events
}
if [ -n "$mem0" ] && [ -e $CG/node1/memory.max ]; then
	oom0=$(memevent oom) max0=$(memevent max)
	echo $(($(cat $CG/node1/memory.current) + (1 << 20))) > $CG/node1/memory.max
	for n in 1 2; do
		mcastbed exec "$n" mcast_probe rx 5 60000 1 > "$W/rxm.$n" 2>&1 &
	done
	wait_lines 1 '^ready' "$W/rxm.1" "$W/rxm.2" ||
		fail "receivers ready" "$(cat "$W"/rxm.*)"
	busy1=$(netstat_of 1 busy_sent)
	mcastbed exec 0 mcast_probe tx g:5 3000000 wait=60000 > "$W/txm" 2>&1 &
	txpid=$!
	sleep 4
	d=$(delta "$busy1" "$(netstat_of 1 busy_sent)")
	[ "$d" != none ] && [ "$d" -ge 1 ] && [ "$(memevent max)" -gt "$max0" ] &&
		! grep -q 'rc=' "$W/txm" &&
		pass "node 1's memory cgroup is full: it answers BUSY ($d), the send waits" ||
		fail "node 1 answers BUSY when its memory cgroup is full" \
			"busy +$d, max events $max0 -> $(memevent max)" "$(cat "$W/txm")"
	is "$(memevent oom)" "$oom0" "... and the OOM killer was never called"
	echo max > $CG/node1/memory.max
	wait "$txpid"
	case $(cat "$W/txm") in
	*"rc=0 nfailed=0"*) pass "once the limit is lifted, the 3 MB send completes" ;;
	*) fail "once the limit is lifted, the 3 MB send completes" "$(cat "$W/txm")" ;;
	esac
	wait
	for n in 1 2; do
		is "$(grep -c '^msg src=0 .* len=3000000 .* ok=1' "$W/rxm.$n")" 1 \
			"node $n has the 3 MB message once"
	done
else
	skip "no memory controller here: a full memory cgroup unchecked"
fi

run_ok "mcastbed down" mcastbed down
rmdir $CG/node1 2>/dev/null
run_ok "rmmod mcast" rmmod mcast

done_testing
tap_exit
