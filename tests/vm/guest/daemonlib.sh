# SPDX-License-Identifier: GPL-2.0 OR MIT
# shellcheck shell=sh
#
# Helpers for the tests of testbeds run by mcastd (mcastbed up --daemon):
# what a node's kernel holds of a group, waiting for the cluster to
# converge, receivers in the nodes.  Needs N (the node count).

# group G's members, R-chain and H-cycle on node $2 (the JSON line's tail)
gview() { # G NODE
	mcastbed exec "$2" mcastctl -j group show "$1" 2>/dev/null |
		sed -n 's/.*\("members":.*\)}].*/\1/p'
}

# seconds since boot
now_s() {
	cut -d. -f1 /proc/uptime
}

# Until every live node has group G with members WANT, or T seconds (of
# the clock: one round of reads takes seconds under TCG) pass; prints
# the seconds it took.
converge() { # G WANT_MEMBERS_JSON T [NODES]
	_t0=$(now_s)
	while :; do
		_bad=0
		for _u in ${4:-$(seq 0 $((N - 1)))}; do
			case $(gview "$1" "$_u") in
			"\"members\":$2,"*) ;;
			*) _bad=1; break ;;
			esac
		done
		[ "$_bad" = 1 ] || { echo $(($(now_s) - _t0)); return 0; }
		[ $(($(now_s) - _t0)) -lt "$3" ] || break
		sleep 1
	done
	echo $(($(now_s) - _t0))
	return 1
}

# Until no node has group G (T seconds at most); prints the seconds.
gone() { # G T
	_t0=$(now_s)
	while :; do
		_left=0
		for _u in $(seq 0 $((N - 1))); do
			[ -z "$(gview "$1" "$_u")" ] || { _left=1; break; }
		done
		[ "$_left" = 1 ] || { echo $(($(now_s) - _t0)); return 0; }
		[ $(($(now_s) - _t0)) -lt "$2" ] || break
		sleep 1
	done
	echo $(($(now_s) - _t0))
	return 1
}

rxd() { # NODE GROUP LOG
	: > "$3"
	mcastbed exec "$1" mcast_probe rx "$2" 900000 -1 > "$3" 2>&1 &
	wait_lines 1 '^ready' "$3" || fail "node $1's receiver ready" "$(cat "$3")"
}

# "N once, in order" for the messages of length LEN in a receive log
once_in_order() { # LOG LEN
	awk -v len="$2" '$1 == "msg" && $4 == "len=" len {
		split($3, a, "="); if (a[2] in seen) dup = 1; seen[a[2]] = 1
		if (n && a[2] <= last) bad = 1; last = a[2]; n++
	} END { printf "%d %s\n", n, dup ? "with repeats" : bad ? "out of order" : "once, in order" }' "$1"
}

stop_rxd() { # LOG...
	for _l in "$@"; do
		kill "$(sed -n 's/^ready .* pid=\([0-9]*\)$/\1/p' "$_l")" 2>/dev/null
	done
}
