#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# Recursion-based broadcast (Zhuang and Liberatore) in mcast.ko: a send to
# every node scattered over an XOR-diagonal and re-assembled by mirror and
# shift shares, each transfer one byte range, every node assembling the
# message from several senders (kmod/data_rb.c).  On mcastbed's tori (the
# kernel has no mesh: RB never uses a wrap link, so the schedule is the
# mesh's):
#  - torus:4x4, all 16 nodes sending a broadcast at once, one-port: every
#    node gets every message once, in order, byte-exact, assembled (the
#    counters say RB sent and assembled them);
#  - all-port from one node, messages of odd lengths; 3% loss on every
#    link;
#  - AUTO: not RB unless rb_auto is set; then long broadcasts by RB,
#    short ones by U-torus, in one FIFO stream;
#  - the node's setting rb; per send to a node list, or with OFFLOAD:
#    EOPNOTSUPP;
#  - a node killed in the middle of a stream of broadcasts, and then dead
#    before a send: the sends report it failed, every live node still
#    gets every message once, in order (the root's U-torus fallback);
#  - make vmcheck-full only (mcast_full: CI's hour): 4x4x4 all-port, two
#    senders at once; torus:8x8, three at once;
#    torus:3x3 refuses rb.

# shellcheck source=tests/vm/guest/tap.sh
. /tests/tap.sh

# shellcheck source=tests/vm/guest/netlib.sh
. /tests/netlib.sh

W=/tmp/net_rb
rm -rf "$W"
mkdir -p "$W"

run_ok "insmod mcast.ko" insmod "$MCAST_KO"

stop_rx_of() { # LOG
	kill "$(sed -n 's/^ready .* pid=\([0-9]*\)$/\1/p' "$1")" 2>/dev/null
}

# stat_of NODE KEY: a counter of the node's netstats
stat_of() {
	mcastbed exec "$1" mcast_probe stats |
		sed -n "s/^netstats .* $2=\([0-9]*\).*/\1/p"
}

# stat_sum KEY NODES...
stat_sum() {
	_k=$1
	shift
	_t=0
	for _u in "$@"; do
		_t=$((_t + $(stat_of "$_u" "$_k")))
	done
	echo "$_t"
}

# rb_round DESC NODES COUNT SIZES ALGO SENDERS...: group 1 (every node;
# ALGO - for the node's own);
# receivers on all NODES; every sender sends COUNT of each of SIZES at
# once; every receiver must get each sender's messages once, in order,
# intact (its own too: a member's receiver gets them locally).
rb_round() {
	_desc=$1 _n=$2 _count=$3 _sizes=$4 _algo=$5
	shift 5
	_per=$((_count * $(echo "$_sizes" | tr ',' '\n' | wc -l)))
	_want_all=$((_per * $#))
	for u in $(seq 0 $((_n - 1))); do
		mcastbed exec "$u" mcast_probe rx 1 300000 "$_want_all" \
			> "$W/r.$u" 2>&1 &
	done
	for u in $(seq 0 $((_n - 1))); do
		wait_lines 1 '^ready' "$W/r.$u"
	done
	for s in "$@"; do
		# shellcheck disable=SC2046 # no algo= for "-"
		mcastbed exec "$s" mcast_probe tx g:1 "$_sizes" count="$_count" \
			$([ "$_algo" = - ] || echo "algo=$_algo") wait=240000 \
			> "$W/t.$s" 2>&1 &
		echo $! > "$W/tpid.$s"
	done
	for s in "$@"; do
		wait "$(cat "$W/tpid.$s")"
	done
	_bad=''
	_sent=0
	for s in "$@"; do
		_sent=$((_sent + $(grep -c 'rc=0 nfailed=0' "$W/t.$s")))
	done
	for u in $(seq 0 $((_n - 1))); do
		wait_lines "$_want_all" '^msg ' "$W/r.$u"
		for s in "$@"; do
			_want=$(tx_seqs "$W/t.$s" | tr '\n' ' ')
			_got=$(rx_seqs "$s" "$W/r.$u" | tr '\n' ' ')
			[ "$_got" = "$_want" ] || _bad="$_bad [$s->$u: got '$_got' want '$_want']"
		done
		_odd=$(grep '^msg ' "$W/r.$u" | grep -v 'ok=1' | head -2)
		[ -z "$_odd" ] || _bad="$_bad [$u: $_odd]"
		stop_rx_of "$W/r.$u"
	done
	# shellcheck disable=SC2046 # the node ids
	diag "$_desc: rb_assembled=$(stat_sum rb_assembled $(seq 0 $((_n - 1)))) rb_fallbacks=$(stat_sum rb_fallbacks "$@")"
	if [ -z "$_bad" ] && [ "$_sent" = "$_want_all" ]; then
		pass "$_desc: $# senders x $_per at once; every node got each message once, in order, intact"
	else
		fail "$_desc: every message once, in order, intact" \
			"completed sends $_sent of $_want_all" "$_bad" \
			"$(head -5 "$W/t.$1")"
	fi
}

if ! run_ok "mcastbed up torus:4x4" mcastbed up torus:4x4; then
	rmmod mcast
	done_testing
	exit
fi
run_ok "group 1: every node" mcastbed group 1 all
ALL16=$(seq 0 15 | tr '\n' ' ')

# shellcheck disable=SC2086 # the 16 ids
rb_round "4x4 rb, every node" 16 1 65536 rb $ALL16
# steps as planned: each node's message is whole in the step of its last
# range, as mcastctl plan's schedule from (0,0) says (node id c0 + 4 c1)
mcastctl plan -t torus:4x4:bi -a rb -s 0,0 --length 65536 |
	awk '/^step [0-9]+: / { s = $2 + 0; split(substr($5, 2), c, /[,)]/)
		id = c[1] + 4 * c[2]; if (s > last[id]) last[id] = s }
		END { for (i = 1; i < 16; i++) print i, last[i] }' > "$W/plan_steps"
bad=''
while read -r u want; do
	got=$(sed -n 's/^msg src=0 .* step=\([0-9]*\) .*/\1/p' "$W/r.$u")
	[ "$got" = "$want" ] || bad="$bad [$u: step $got, planned $want]"
done < "$W/plan_steps"
if [ -z "$bad" ] && [ "$(wc -l < "$W/plan_steps")" = 15 ]; then
	pass "node 0's broadcast: each node had it whole in the step the planner gives its last range"
else
	fail "node 0's broadcast: steps as planned" "$bad" "$(cat "$W/plan_steps")"
fi
# shellcheck disable=SC2086
sent=$(stat_sum rb_sent $ALL16)
# shellcheck disable=SC2086
asm=$(stat_sum rb_assembled $ALL16)
# shellcheck disable=SC2086
fb=$(stat_sum rb_fallbacks $ALL16)
diag "rb_sent=$sent rb_assembled=$asm rb_fallbacks=$fb"
if [ "$sent" = 16 ] && [ "$asm" = 240 ]; then
	pass "the 16 broadcasts went by RB: each of the 15 receivers assembled each from its ranges"
else
	fail "the broadcasts went by RB" "rb_sent=$sent rb_assembled=$asm rb_fallbacks=$fb"
fi

rb_round "4x4 rb-all-port from node 6, odd lengths" 16 2 200001,7777 \
	rb-all-port 6
is "$(stat_of 6 rb_sent)" 5 \
	"node 6's 4 all-port broadcasts (and its one before) counted in rb_sent"

run_ok "netem loss 3% on every link" mcastbed netem "loss 3%"
rb_round "4x4 rb, 3% loss, 4 senders" 16 2 150000 rb 1 4 11 14
run_ok "netem off" mcastbed netem off

# AUTO: not RB by default; with rb_auto, by the model's rule, whose
# crossover on 4x4 (Ts 100 us, Tc 1 ns/B) is 100 KB
P=/sys/module/mcast/parameters
b3=$(stat_of 3 rb_sent)
rb_round "4x4 auto (rb_auto off), 300000 B" 16 1 300000 auto 3
is "$(stat_of 3 rb_sent)" "$b3" "auto without rb_auto: no broadcast by RB"
run_ok "rb_auto on" sh -c "echo 1 > $P/rb_auto"
rb_round "4x4 auto, 100 B and 300000 B in one stream" 16 3 100,300000 auto 3
a3=$(stat_of 3 rb_sent)
if [ $((a3 - b3)) = 3 ]; then
	pass "auto with rb_auto sent the 3 long broadcasts by RB and the 3 short ones by U-torus"
else
	fail "auto picks RB for long broadcasts only" "rb_sent $b3 -> $a3"
fi
run_ok "rb_auto off" sh -c "echo 0 > $P/rb_auto"

out=$(mcastbed exec 2 mcast_probe tx n:0,1,5 5000 algo=rb wait 2>&1)
case $out in
*EOPNOTSUPP*) pass "rb to a node list that is not every node: EOPNOTSUPP" ;;
*) fail "rb to a node list: EOPNOTSUPP" "$out" ;;
esac
out=$(mcastbed exec 2 mcast_probe tx g:1 5000 algo=rb offload 2>&1)
case $out in
*EOPNOTSUPP*) pass "rb with OFFLOAD: EOPNOTSUPP" ;;
*) fail "rb with OFFLOAD: EOPNOTSUPP" "$out" ;;
esac

# the node's setting: broadcasts by RB, the rest by U-torus
run_ok "node 12: node set algorithm rb" mcastbed exec 12 mcastctl node set algorithm rb
b12=$(stat_of 12 rb_sent)
rb_round "4x4 node setting rb, 3000 B" 16 2 3000 - 12
out=$(mcastbed exec 12 mcast_probe tx n:0,1,5 5000 wait 2>&1)
case $out in
*"rc=0 nfailed=0"*) pass "node setting rb: a send to 3 nodes goes by U-torus" ;;
*) fail "node setting rb: a send to 3 nodes" "$out" ;;
esac
is $(($(stat_of 12 rb_sent) - b12)) 2 "node setting rb: the 2 broadcasts by RB"

# a node dies in the middle of a stream of broadcasts: the root hears of
# the failed transfer and sends the rest by U-torus; every live node gets
# every message once, in order; sends report the dead node only
LIVE=$(seq 0 15 | grep -vx 9 | tr '\n' ' ')
for u in $LIVE; do
	mcastbed exec "$u" mcast_probe rx 1 120000 6 > "$W/m.$u" 2>&1 &
done
for u in $LIVE; do
	wait_lines 1 '^ready' "$W/m.$u"
done
mcastbed exec 0 mcast_probe tx g:1 200000 count=6 gap=300 algo=rb \
	wait=120000 > "$W/mtx" 2>&1 &
mpid=$!
wait_lines 2 '^sent ' "$W/mtx"
run_ok "kill node 9 (--reroute) during node 0's stream" mcastbed kill 9 --reroute
wait "$mpid"
bad=''
for u in $LIVE; do
	wait_lines 6 '^msg ' "$W/m.$u"
	# every send, failed ones too: only node 9 missed those
	[ "$(rx_seqs 0 "$W/m.$u" | tr '\n' ' ')" = "$(sed -n 's/^sent .*seq=\([0-9]*\) .*/\1/p' "$W/mtx" | tr '\n' ' ')" ] &&
		[ "$(grep -c '^msg src=0 .*len=200000 .*ok=1' "$W/m.$u")" = 6 ] ||
		bad="$bad [$u: $(rx_seqs 0 "$W/m.$u" | tr '\n' ' '); $(mcastbed exec "$u" mcast_probe stats | grep -o ' \(dups\|late\|held\|rb_[a-z]*\|rx_malformed\|busy_sent\|jobs\)=[0-9]*' | tr -d '\n')]"
	stop_rx_of "$W/m.$u"
done
other=$(grep '^sent ' "$W/mtx" | grep -v 'rc=0 nfailed=0' |
	grep -v 'rc=EHOSTUNREACH nfailed=1 failed=9$')
if [ -z "$bad" ] && [ -z "$other" ] && [ "$(grep -c '^sent ' "$W/mtx")" = 6 ] &&
	tail -n 1 "$W/mtx" | grep -q 'failed=9$'; then
	pass "rb, node 9 killed mid-stream: the 14 others got all 6 once, in order; sends after it report 9 failed, nothing else"
else
	fail "rb, node 9 killed mid-stream" "$(cat "$W/mtx")" "$bad"
fi

# a node dead before the send: the same, from the start
for u in $LIVE; do
	mcastbed exec "$u" mcast_probe rx 1 120000 2 > "$W/k.$u" 2>&1 &
done
for u in $LIVE; do
	wait_lines 1 '^ready' "$W/k.$u"
done
b0=$(stat_of 0 rb_fallbacks)
mcastbed exec 0 mcast_probe tx g:1 100000 count=2 algo=rb wait=120000 > "$W/ktx" 2>&1
bad=''
for u in $LIVE; do
	wait_lines 2 '^msg ' "$W/k.$u"
	[ "$(grep -c '^msg src=0 .*len=100000 .*ok=1' "$W/k.$u")" = 2 ] ||
		bad="$bad [$u: $(grep -c '^msg' "$W/k.$u") msgs]"
	stop_rx_of "$W/k.$u"
done
if [ -z "$bad" ] && [ "$(grep -c 'rc=EHOSTUNREACH nfailed=1 failed=9$' "$W/ktx")" = 2 ]; then
	pass "rb with node 9 dead: each send reports 9 failed; the 14 others get both once ($(($(stat_of 0 rb_fallbacks) - b0)) fallbacks)"
else
	fail "rb with a dead node" "$(cat "$W/ktx")" "$bad"
fi
run_ok "mcastbed down (torus:4x4)" mcastbed down

if [ "${mcast_full:-0}" = 1 ] && run_ok "mcastbed up torus:8x8" mcastbed up torus:8x8; then
	run_ok "group 1: every node" mcastbed group 1 all
	rb_round "8x8 rb, 3 senders" 64 2 100000 rb 0 27 63
	run_ok "mcastbed down (torus:8x8)" mcastbed down
fi

if [ "${mcast_full:-0}" = 1 ] && run_ok "mcastbed up torus:4x4x4" mcastbed up torus:4x4x4; then
	run_ok "group 1: every node" mcastbed group 1 all
	rb_round "4x4x4 rb-all-port, 2 senders" 64 2 150000 rb-all-port 5 42
	run_ok "mcastbed down (torus:4x4x4)" mcastbed down
fi

if run_ok "mcastbed up torus:3x3" mcastbed up torus:3x3; then
	out=$(mcastbed exec 1 mcastctl node set algorithm rb 2>&1)
	case $out in
	*"power of two"*) pass "torus:3x3: node set algorithm rb refused: sides must be powers of two" ;;
	*) fail "torus:3x3: node set algorithm rb refused" "$out" ;;
	esac
	run_ok "mcastbed down (torus:3x3)" mcastbed down
fi

run_ok "rmmod mcast" rmmod mcast
done_testing
