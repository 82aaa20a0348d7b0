#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# Failures on the network data path.
#  - A forwarding node dies mid-stream (its netns deleted): every live
#    destination still gets every message exactly once and in order, the
#    sender in completion mode gets the dead node in its failed list, and
#    the dead node's parent reports PEER_DOWN.
#  - Many senders on many groups at once: exactly once, FIFO per sender,
#    and no silent loss, message by message: a member that did not get a
#    message is in that message's SEND_FAILED event at its sender (the
#    senders do not wait; mcast_probe watch records the events).  On a
#    guest at normal speed no destination may fail at all; on a slowed
#    one (mcast_time_scale, make debugcheck) live peers can be taken for
#    dead and messages come after their stream stopped waiting, so there
#    failures are allowed as long as each one is reported.
#  - Namespaces deleted and the module unloaded while traffic runs: no
#    crash (the harness checks the kernel log).

# shellcheck source=tests/vm/guest/tap.sh
. /tests/tap.sh
# shellcheck source=tests/vm/guest/netlib.sh
. /tests/netlib.sh

run_ok "insmod mcast.ko" insmod "$MCAST_KO"

# ---- a forwarding node dies mid-stream
# U-torus from 0 over 16 nodes: 0 sends to 8 (piece 8-15), 8 sends to 12
# (piece 12-15), 12 to 14 and 13.  Node 12 dies.  On the bridge, where no
# route crosses a node; net_fail_torus.t does it on a torus, with rerouting.
TOPO=torus:16
if mcastbed up bridge:16 > /dev/null 2>&1 && mcastbed group 1 all > /dev/null 2>&1; then
	pass "mcastbed up bridge:16, group 1 of all 16 nodes"
	fail_stream_start 0 12 8
	fail_stream_running
	run_ok "mcastbed kill 12 while 0 sends" mcastbed kill 12
	check_fail_stream 0 12 8
	mcastbed down > /dev/null 2>&1
else
	fail "mcastbed up bridge:16, group 1 of all 16 nodes"
fi

# ---- many senders on many groups at once

# check_stream G SRC NODE MEMBER: what NODE got of SRC's sends to group G
# ($W/tx.G.SRC) against SRC's SEND_FAILED events ($W/ev.SRC).  Prints
# "reported=N" (N of SRC's messages that NODE, a member, missed and that
# SRC heard it missed) if all is well, else what is wrong: a message
# twice, corrupt, out of order, to a non-member, unknown, or missed and
# not reported.
check_stream() {
	awk -v g="$1" -v src="$2" -v u="$3" -v member="$4" '
	function kv(k,   i) {
		for (i = 1; i <= NF; i++)
			if (index($i, k "=") == 1)
				return substr($i, length(k) + 2)
		return ""
	}
	FILENAME ~ /\/tx\./ && /^sent / { sent[kv("seq")] = 1 }
	FILENAME ~ /\/ev\./ && /^event send-failed / && kv("group") == g {
		n = split(kv("nodes"), ids, ",")
		for (i = 1; i <= n; i++)
			if (ids[i] == u)
				failed[kv("seq")] = 1
	}
	FILENAME ~ /\/rx\./ && /^msg / && kv("src") == src && kv("group") == g {
		q = kv("seq")
		got[q]++
		if (kv("ok") != 1)
			bad = bad " corrupt:" q
		if (seen && q + 0 <= last + 0)
			bad = bad " reordered:" q
		seen = 1
		last = q
		if (!(q in sent))
			bad = bad " unknown:" q
	}
	END {
		for (q in sent) {
			if (!member && got[q])
				bad = bad " non-member-got:" q
			else if (got[q] > 1)
				bad = bad " twice:" q
			else if (member && !got[q] && !(q in failed))
				bad = bad " silently-lost:" q
			else if (member && !got[q])
				rep++
		}
		print bad == "" ? "reported=" rep + 0 : bad
	}' "$W/tx.$1.$2" "$W/ev.$2" "$W/rx.$3"
}
TOPO=torus:4x4:bi
if mcastbed up torus:4x4:bi > /dev/null 2>&1; then
	pass "mcastbed up torus:4x4:bi"
	g=1
	for seed in 31 32 33 34; do
		_c=''
		for _u in $(random_nodes 8 $seed); do
			_c="$_c $(coord "$_u")"
		done
		# shellcheck disable=SC2086
		mcastbed group $g $_c > /dev/null 2>&1
		eval "mem$g=\"$(random_nodes 8 $seed)\""
		g=$((g + 1))
	done
	RXPIDS='' _logs=''
	rm -f "$W"/rx.*	# the last test's logs would count as ready
	_u=0
	while [ "$_u" -lt "$N" ]; do
		# 9 messages from each source of each group it is in (and from
		# itself: its receiver joined every group)
		_e=0
		for g in 1 2 3 4; do
			eval "_mem=\$mem$g"
			for src in $((g * 3)) $((g * 3 + 1)); do
				case " $_mem $src " in *" $_u "*) _e=$((_e + 9)) ;; esac
			done
		done
		/usr/local/bin/ip netns exec "mcb$_u" /usr/local/bin/mcast_probe rx 1,2,3,4 15000 "$_e" \
			> "$W/rx.$_u" 2>&1 &
		RXPIDS="$RXPIDS $!" _logs="$_logs $W/rx.$_u"
		_u=$((_u + 1))
	done
	# shellcheck disable=SC2086
	wait_lines "$N" '^ready' $_logs || diag "not every receiver was ready within 60 s"
	WPIDS='' _logs=''
	for src in 3 4 6 7 9 10 12 13; do
		/usr/local/bin/ip netns exec "mcb$src" /usr/local/bin/mcast_probe watch 600000 \
			> "$W/ev.$src" 2>&1 &
		WPIDS="$WPIDS $!" _logs="$_logs $W/ev.$src"
	done
	# shellcheck disable=SC2086
	wait_lines 8 '^watching' $_logs || diag "not every watcher was ready within 60 s"
	TXPIDS=''
	for g in 1 2 3 4; do
		for src in $((g * 3)) $((g * 3 + 1)); do
			/usr/local/bin/ip netns exec "mcb$src" /usr/local/bin/mcast_probe tx g:$g 0,1400,20000 count=3 \
				> "$W/tx.$g.$src" 2>&1 &
			TXPIDS="$TXPIDS $!"
		done
	done
	_rc=0
	for _p in $TXPIDS; do
		wait "$_p" || _rc=1
	done
	is "$_rc" 0 "8 senders on 4 groups: all sends accepted"
	for _p in $RXPIDS; do
		wait "$_p"
	done
	# every message ended at its sender (SEND_FAILED, if any, is out)
	_t=0
	while [ "$_t" -lt $((120 * ${mcast_time_scale:-1})) ]; do
		_busy=''
		for src in 3 4 6 7 9 10 12 13; do
			[ "$(netstat_of "$src" transfers)" = 0 ] || _busy="$_busy $src"
		done
		[ -z "$_busy" ] && break
		sleep 1
		_t=$((_t + 1))
	done
	[ -z "$_busy" ] || diag "senders still sending after $_t s:$_busy"
	sleep 1
	for _p in $WPIDS; do
		kill "$_p" 2>/dev/null
		wait "$_p" 2>/dev/null
	done
	_bad='' _reported=0
	for g in 1 2 3 4; do
		eval "_mem=\$mem$g"
		for src in $((g * 3)) $((g * 3 + 1)); do
			_u=0
			while [ "$_u" -lt "$N" ]; do
				_member=0
				case " $_mem " in *" $_u "*) _member=1 ;; esac
				[ "$_u" = "$src" ] && _member=1	# its other file joined
				_out=$(check_stream "$g" "$src" "$_u" "$_member")
				case $_out in
				reported=*) _reported=$((_reported + ${_out#reported=})) ;;
				*) _bad="$_bad g$g:src$src:node$_u:$_out" ;;
				esac
				_u=$((_u + 1))
			done
		done
	done
	is "$_bad" "" "every member got every message of every sender once, in order, or its sender heard it failed"
	if [ "${mcast_time_scale:-1}" -gt 1 ]; then
		diag "slowed guest: $_reported (message, member) pairs reported failed"
	else
		is "$_reported" 0 "... and none failed"
	fi
	if [ -n "$_bad" ] || [ "$_reported" != 0 ]; then	# losses, late, down peers
		_u=0
		while [ "$_u" -lt "$N" ]; do
			diag "node $_u: $(mcastbed exec "$_u" mcast_probe stats 2>&1 | sed -n 's/^netstats //p')"
			_u=$((_u + 1))
		done
	fi
else
	fail "mcastbed up torus:4x4:bi"
fi

# ---- namespaces deleted and the module unloaded under traffic
TXPIDS=''
for src in 0 5 10 15; do
	/usr/local/bin/ip netns exec "mcb$src" /usr/local/bin/mcast_probe tx g:$((src % 4 + 1)) 65536,1400 count=50 \
		> /dev/null 2>&1 &
	TXPIDS="$TXPIDS $!"
done
sleep 2
run_ok "delete namespaces 3 and 6 under traffic" sh -c '/usr/local/bin/ip netns del mcb3 && /usr/local/bin/ip netns del mcb6'
sleep 1
for _p in $TXPIDS; do
	kill "$_p" 2>/dev/null
done
for _p in $TXPIDS; do
	wait "$_p" 2>/dev/null
done
# the senders' files are closed; their messages are still being forwarded
_ok=0
for _t in 1 2 3 4 5 6 7 8 9 10; do
	rmmod mcast 2>/dev/null && { _ok=1; break; }
	sleep 0.3
done
is "$_ok" 1 "rmmod while the nodes still forward"
mcastbed down > /dev/null 2>&1
is "$(ip netns list | grep -c mcb)" 0 "no namespaces left"
run_ok "insmod mcast.ko again" insmod "$MCAST_KO"
run_ok "rmmod mcast" rmmod mcast
done_testing
tap_exit
