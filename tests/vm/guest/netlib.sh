# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# Helpers of the network data path tests (net_*.t): receivers in every
# node of an mcastbed testbed, sends, and the checks of what arrived
# against the destinations and mcastctl plan's schedule ($ALGO, default
# u-torus).  Sourced after tap.sh.

[ -x /usr/local/bin/mcastbed ] || skip_all "no mcastbed in the guest"

modprobe veth 2>/dev/null
modprobe bridge 2>/dev/null
rmmod mcast 2>/dev/null

N=16		# nodes of the testbed
COUNT=1		# sends of each size per round
IDLE=20000	# ms a receiver waits for one more message
W=/tmp/net_utorus
rm -rf "$W"
mkdir -p "$W"

# insmod_scaled [PARAM=VALUE...]: insmod mcast.ko; on a slow kernel
# (mcast_time_scale, make debugcheck) the data path's time limits are
# stretched by that factor too, as mcast_probe's waits are: there a burst
# of 1 MiB messages moves ten times slower, and the 60 s a transfer may
# live would cut it.  Each limit keeps its ratio to the others.
insmod_scaled() {
	insmod "$MCAST_KO" "$@" || return
	_ts=${mcast_time_scale:-1}
	[ "$_ts" -gt 1 ] || return 0
	for _tp in transfer_lifetime_ms stream_idle_ms rx_stall_ms fifo_gap_ms; do
		_tf=/sys/module/mcast/parameters/$_tp
		echo $(($(cat "$_tf") * _ts)) > "$_tf" || return
	done
}

# up_on_transport: mcastbed up $TOPO with every node on transport $TP
# (udp, tcp), one assertion; non-zero if it did not come up:
#	for TP in udp tcp; do
#		up_on_transport || continue
up_on_transport() {
	if ! _out=$(mcastbed up "$TOPO" --transport "$TP" 2>&1); then
		fail "$TP: mcastbed up $TOPO --transport $TP" "$_out"
		return 1
	fi
	pass "$TP: mcastbed up $TOPO --transport $TP"
}

# new_keys FILE...: a cluster key (32 random bytes, mode 600) in each
# FILE, for mcastctl node set key and mcast_forge's key=, and the
# kernel's AF_ALG hashes that mcast_forge seals with
new_keys() {
	modprobe algif_hash 2>/dev/null
	for _kf in "$@"; do
		head -c 32 /dev/urandom > "$_kf" || return
		chmod 600 "$_kf" || return
	done
}

# the transport node $1 of the testbed uses (udp, tcp)
node_transport() {
	mcastbed exec "$1" mcastctl -j node show |
		sed -n 's/.*"transport": *"\([a-z0-9_-]*\)".*/\1/p'
}

# the radices of $TOPO (torus:AxBxC[:uni|:bi], or torus:N for a bridge),
# highest dimension first, as "A B C"
topo_dims() {
	_td=${TOPO#*:}
	echo "${_td%%:*}" | tr x ' '
}

# coordinate "a,b,c" of node id $1 on the current testbed, highest
# dimension first (id = (a * B + b) * C + c, as mcastbed numbers them)
coord() {
	_r=$1 _c='' _rev=''
	for _k in $(topo_dims); do
		_rev="$_k $_rev"
	done
	for _k in $_rev; do
		_c="$((_r % _k))${_c:+,$_c}"
		_r=$((_r / _k))
	done
	echo "$_c"
}

# node id of a coordinate "a,b,c" (or "a" on a bridge)
id_of() {
	_id=0 _rest=$1,
	for _k in $(topo_dims); do
		_id=$((_id * _k + ${_rest%%,*}))
		_rest=${_rest#*,}
	done
	echo "$_id"
}

ceil_log2() {
	_v=1 _l=0
	while [ "$_v" -lt "$1" ]; do
		_v=$((_v * 2))
		_l=$((_l + 1))
	done
	echo "$_l"
}

# K random distinct node ids from seed S (awk's rand)
random_nodes() { # K S
	awk -v k="$1" -v s="$2" -v n="$N" 'BEGIN {
		srand(s)
		while (c < k) { x = int(rand() * n); if (!(x in u)) { u[x] = 1; c++; printf "%s%d", (c > 1 ? " " : ""), x } }
	}'
}

# start_rx GROUP "DESTS" COUNT: a receiver in every node (the destinations
# stop after COUNT messages and a short grace), waits until all are ready
start_rx() {
	RXPIDS='' OTHERPIDS='' OTHERS='' _logs=''
	# stale logs (of nodes since killed) would count as ready
	rm -f "$W"/rx.*
	_u=0
	while [ "$_u" -lt "$N" ]; do
		_e=-1
		case " $2 " in *" $_u "*) _e=$3 ;; esac
		/usr/local/bin/ip netns exec "mcb$_u" /usr/local/bin/mcast_probe rx \
			"$1" "$IDLE" "$_e" > "$W/rx.$_u" 2>&1 &
		if [ "$_e" = -1 ]; then
			OTHERPIDS="$OTHERPIDS $!"
			OTHERS="$OTHERS $_u"
		else
			RXPIDS="$RXPIDS $!"
		fi
		_logs="$_logs $W/rx.$_u"
		_u=$((_u + 1))
	done
	# shellcheck disable=SC2086
	wait_lines "$N" '^ready' $_logs
}

# the destinations finish; then the others had their chance too
wait_rx() {
	for _p in $RXPIDS; do
		wait "$_p"
	done
	sleep 0.3
	# the receivers themselves (ip netns exec may have forked)
	for _u in $OTHERS; do
		_p=$(sed -n 's/^ready .* pid=\([0-9]*\)$/\1/p' "$W/rx.$_u")
		[ -n "$_p" ] && kill "$_p" 2>/dev/null
	done
	for _p in $OTHERPIDS; do
		wait "$_p" 2>/dev/null
	done
}

# The expected "step from" of every receiver of SRC -> DESTS (node ids),
# from mcastctl plan -a $ALGO (default u-torus), as lines "ID STEP FROM";
# with CHAIN=1, path-based worms done in software (each destination has
# it from the one before it on the worm).
plan_tree() { # SRC DESTS...
	_s=$1
	shift
	_args=''
	for _d in "$@"; do
		_args="$_args -d $(coord "$_d")"
	done
	case ${ALGO:-u-torus} in
	s-torus | md-torus | mu-torus*)
		# "phase N: (FROM) => (TO) (TO) ...  [covers ...]  [H hops]";
		# CHAIN=1 (a worm in software): each has it from the one before
		# shellcheck disable=SC2086
		mcastctl plan -t "$TOPO" -a "$ALGO" -s "$(coord "$_s")" $_args |
			tr -d '()' | awk -v chain="${CHAIN:-0}" '/^phase [0-9]+:/ {
				st = $2; sub(":", "", st)
				for (i = 5; i <= NF && $i ~ /^[0-9,]+$/; i++)
					print $i, st, (chain && i > 5 ? $(i - 1) : $3)
			}' |
			while read -r _c _st _f; do
				echo "$(id_of "$_c") $_st $(id_of "$_f")"
			done
		return ;;
	esac
	# shellcheck disable=SC2086
	_j=$(mcastctl plan -t "$TOPO" -a u-torus -s "$(coord "$_s")" $_args --json)
	echo "$_j" | grep -o '"from":\[[0-9,]*\],"to":\[\[[0-9,]*\]\]' |
		sed 's/"from":\[\([0-9,]*\)\],"to":\[\[\([0-9,]*\)\]\]/\2 \1/' > "$W/plan.from"
	echo "$_j" | grep -o '"node":\[[0-9,]*\],"step":[0-9]*' |
		sed 's/"node":\[\([0-9,]*\)\],"step":\([0-9]*\)/\1 \2/' |
		while read -r _c _st; do
			_f=$(sed -n "s/^$_c //p" "$W/plan.from")
			echo "$(id_of "$_c") $_st $(id_of "$_f")"
		done
}

# check_round DESC SRC "DESTS" "SIZES" [src_gets [REPORTED [FAILED]]]: after a
# round, every node's receive log against the destinations.  DESTS: node
# ids (without the source); src_gets: the source's other files get it too
# (a group send reaches every file of the sending node that joined the
# group, member node or not, as local delivery always did; a node list
# that names it).  REPORTED: how many (destination, message) pairs the
# source reported failed (its unreached grew by that much): a send that
# does not wait for completion may miss that many, since its sender was
# told (a PEER_DOWN under heavy loss on TCP, say); never more, and never
# a repeat or a reordering.  The tree check skips the nodes reported
# failed and the subtrees their parents took over (FAILED, the nodes a
# completion-mode round named, or the missed nodes); with FAIL_OK=1 and
# failures reported without names, it lists the receivers on another
# tree instead of failing.
check_round() {
	_desc=$1 _src=$2 _dests=$3 _sizes=$4 _srcgets=${5:-0} _reported=${6:-0}
	_fids=${7:-}
	_nsz=$(($(echo "$_sizes" | tr ',' ' ' | wc -w) * COUNT))
	_bad='' _missed='' _miss=0 _missids=''
	_u=0
	while [ "$_u" -lt "$N" ]; do
		_want=0
		case " $_dests " in *" $_u "*) _want=$_nsz ;; esac
		[ "$_u" = "$_src" ] && [ "$_srcgets" = 1 ] && _want=$_nsz
		_got=$(grep -c "^msg src=$_src .* ok=1" "$W/rx.$_u")
		_all=$(grep -c "^msg src=$_src " "$W/rx.$_u")
		if [ "$_got" = "$_all" ] && [ "$_all" -lt "$_want" ]; then
			_miss=$((_miss + _want - _got))
			_missed="$_missed node$_u:$_got/$_all/$_want"
			_missids="$_missids $_u"
		elif [ "$_got" != "$_want" ] || [ "$_all" != "$_want" ]; then
			_bad="$_bad node$_u:$_got/$_all/$_want"
		fi
		# exactly once: no seq twice
		_dup=$(grep "^msg src=$_src " "$W/rx.$_u" | sed 's/.* seq=\([0-9]*\) .*/\1/' | sort | uniq -d)
		[ -z "$_dup" ] || _bad="$_bad node$_u:dup:$_dup"
		# FIFO: in the order sent
		_ord=$(grep "^msg src=$_src " "$W/rx.$_u" | sed 's/.* seq=\([0-9]*\) .*/\1/' |
			awk 'NR > 1 && $1 <= p { print "reordered:" p ">" $1 } { p = $1 }')
		[ -z "$_ord" ] || _bad="$_bad node$_u:$_ord"
		_u=$((_u + 1))
	done
	if [ "$_miss" -gt 0 ] && [ "$_miss" -le "$_reported" ]; then
		diag "$_desc: missed, and reported failed to the sender ($_reported):$_missed"
	else
		_bad="$_bad$_missed" _missids=''
	fi
	is "$_bad" "" "$_desc: each destination got each message once, byte-exact, in order; others nothing"
	[ -z "$_bad" ] || diag "sender:" "$(cat "$W/tx")"
	[ -z "$_bad" ] ||
		for _b in $_bad; do
			_b=${_b%%:*}
			diag "${_b}:" "$(cat "$W/rx.${_b#node}")" "$(mcastbed exec "${_b#node}" mcast_probe stats)"
		done
	grep -q self-received "$W/tx" && fail "$_desc: the sending file got nothing" "$(cat "$W/tx")" ||
		pass "$_desc: the sending file got nothing"

	[ "${ALGO:-u-torus}" = separate ] && {
		check_separate "$_desc" "$_src" "$_dests"
		return
	}
	# the tree: step and from_node as mcastctl plan has them
	# shellcheck disable=SC2086
	plan_tree "$_src" $_dests > "$W/plan"
	_bad=''
	_max=0
	# FAIL_OK, and the sender reported failures without naming them (no
	# completion mode): any subtree may have been taken over
	_lax=0 _moved=''
	[ "${FAIL_OK:-0}" = 1 ] && [ "$_reported" -gt 0 ] && [ -z "$_fids" ] &&
		_lax=1
	_missids="$_missids $_fids"
	while read -r _id _st _f; do
		_l=$(grep "^msg src=$_src " "$W/rx.$_id" | head -n 1)
		# a node reported failed (missed or not) and the subtree its
		# parent took over have it on another tree, by design
		under_missed "$_id" "$_src" && continue
		case $_l in
		*" step=$_st from=$_f "*) ;;
		*)
			if [ "$_lax" = 1 ]; then
				_moved="$_moved $_id"
			else
				_bad="$_bad $_id:want-step=$_st,from=$_f:got:${_l#* group=}"
			fi ;;
		esac
		[ "$_st" -gt "$_max" ] && _max=$_st
	done < "$W/plan"
	_m=$(($(echo "$_dests" | wc -w) + 1))
	[ -z "$_moved" ] ||
		diag "$_desc: after the reported failures, on another tree:$_moved"
	is "$_bad" "" "$_desc: step and from_node of every receiver are ${ALGO:-u-torus}'s in mcastctl plan"
	if [ "${ALGO:-u-torus}" = u-torus ]; then
		is "$_max" "$(ceil_log2 "$_m")" "$_desc: the tree takes ceil(log2 $_m) steps"
	fi
}

# under_missed ID SRC: ID, or a node on its path from SRC in $W/plan, is in
# $_missids (a destination check_round accepted as reported failed)
under_missed() {
	_a=$1
	while [ -n "$_a" ] && [ "$_a" != "$2" ]; do
		case " $_missids " in *" $_a "*) return 0 ;; esac
		_a=$(awk -v n="$_a" '$1 == n { print $3; exit }' "$W/plan")
	done
	return 1
}

# Separate addressing (MCAST_SEND_SEPARATE): every destination has it from
# the source itself, one step each: steps 1..m-1, each once.
check_separate() { # DESC SRC "DESTS"
	_bad='' _steps=''
	for _id in $3; do
		_l=$(grep "^msg src=$2 " "$W/rx.$_id" | head -n 1)
		case $_l in
		*" from=$2 "*) ;;
		*) _bad="$_bad $_id:${_l#* group=}" ;;
		esac
		_steps="$_steps $(echo "$_l" | sed -n 's/.* step=\([0-9]*\) .*/\1/p')"
	done
	is "$_bad" "" "$1: separate addressing: every destination got it from the source"
	_m=$(echo "$3" | wc -w)
	is "$(echo "$_steps" | tr ' ' '\n' | grep . | sort -n | tr '\n' ' ')" \
		"$(seq 1 "$_m" | tr '\n' ' ')" "$1: separate addressing: steps 1..$_m, one each"
}

# round DESC SRC TARGET "DESTS" SIZES [tx options]
round() {
	_desc=$1 _src=$2 _target=$3 _dests=$4 _sizes=$5
	shift 5
	_grp=0
	case $_target in g:*) _grp=${_target#g:} ;; esac
	_srcgets=0
	case $_target in
	g:*) _srcgets=1 ;;
	n:*) case ",${_target#n:}," in *",$_src,"*) _srcgets=1 ;; esac ;;
	esac
	_rxd=$_dests
	[ "$_srcgets" = 1 ] && _rxd="$_rxd $_src"
	if ! start_rx "$_grp" "$_rxd" $(($(echo "$_sizes" | tr ',' ' ' | wc -w) * COUNT)); then
		fail "$_desc: receivers ready" "$(cat "$W"/rx.*)"
		return
	fi
	# what the sender reports failed, where nobody waits to hear it: its
	# node's unreached counts what the source itself gave up on; with
	# FAIL_OK the failures found further down the tree (a late message
	# refused, a child a forwarder gave up on) count too, and only the
	# sender's send-failed events name them all
	_evpid=''
	case " $* " in
	*" wait"*) _unr0=0 ;;
	*) _unr0=$(netstat_of "$_src" unreached)
		if [ "${FAIL_OK:-0}" = 1 ]; then
			: > "$W/ev.round"
			/usr/local/bin/ip netns exec "mcb$_src" /usr/local/bin/mcast_probe \
				watch 600000 > "$W/ev.round" 2>&1 &
			_evpid=$!
			wait_lines 1 '^watching' "$W/ev.round" ||
				diag "$_desc: the sender's event watcher did not subscribe"
		fi ;;
	esac
	_t0=$(date +%s)
	/usr/local/bin/ip netns exec "mcb$_src" /usr/local/bin/mcast_probe tx "$_target" "$_sizes" \
		count="$COUNT" "$@" > "$W/tx" 2>&1
	_rc=$?
	diag "$_desc: sent in $(($(date +%s) - _t0)) s"
	wait_rx
	_d=$(echo " $_dests " | sed "s/ $_src / /")
	_rep=0 _failids=''
	_nsend=$(($(echo "$_sizes" | tr ',' ' ' | wc -w) * COUNT))
	case " $* " in
	*" wait"* )
		_nf=$(grep -c 'rc=0 nfailed=0 failed=$' "$W/tx")
		if [ "${FAIL_OK:-0}" = 1 ]; then
			# complete, each with its failures listed
			_nr=$(grep -c 'rc=EHOSTUNREACH nfailed=[1-9][0-9]* failed=[0-9]' "$W/tx")
			_rep=$(sed -n 's/.* nfailed=\([0-9]*\) .*/\1/p' "$W/tx" |
				awk '{ s += $1 } END { print s + 0 }')
			_failids=$(sed -n 's/.* failed=\([0-9,][0-9,]*\)$/\1/p' "$W/tx" |
				tr ',' '\n' | sort -un | tr '\n' ' ')
			[ "$_nr" = 0 ] || diag "$_desc: $_nr sends reported failed: $_failids"
			is "$_rc/$((_nf + _nr))" "0/$_nsend" \
				"$_desc: completion mode: every send complete, a failure only with the nodes it names"
		else
			is "$_rc/$_nf" "0/$_nsend" \
				"$_desc: completion mode: every send complete, none failed"
		fi ;;
	*)
		is "$_rc" 0 "$_desc: sender exits 0"
		_rep=$(delta "$_unr0" "$(netstat_of "$_src" unreached)")
		[ "$_rep" != none ] || _rep=0
		if [ -n "$_evpid" ]; then
			# the last DONE may still be on its way up the tree
			_i=0
			while [ "$_i" -lt 60 ] &&
				[ "$(netstat_of "$_src" transfers)" != 0 ]; do
				sleep 0.5
				_i=$((_i + 1))
			done
			kill "$_evpid" 2>/dev/null
			wait "$_evpid" 2>/dev/null
			# event send-failed group=G seq=S nodes=ID,.. trunc=0|1
			_failids=$(sed -n 's/^event send-failed .* nodes=\([0-9,]*\) .*/\1/p' \
				"$W/ev.round" | tr ',' '\n' | grep . | sort -un | tr '\n' ' ')
			_nev=$(sed -n 's/^event send-failed .* nodes=\([0-9,]*\) .*/\1/p' \
				"$W/ev.round" | tr ',' '\n' | grep -c .)
			[ "$_nev" -le "$_rep" ] || _rep=$_nev
			[ -z "$_failids" ] || diag "$_desc: send-failed events name $_failids"
		fi ;;
	esac
	[ "$_rc" = 0 ] || diag "$(cat "$W/tx")"
	_algo=${ALGO:-u-torus}
	case " $* " in *" separate "*) ALGO=separate ;; esac
	check_round "$_desc" "$_src" "$_d" "$_sizes" "$_srcgets" "$_rep" "$_failids"
	ALGO=$_algo
}

# members G K SEED: K random nodes (in $MEM), and group G with them on
# every node
members() {
	MEM=$(random_nodes "$2" "$3")
	_coords=''
	for _u in $MEM; do
		_coords="$_coords $(coord "$_u")"
	done
	# shellcheck disable=SC2086
	run_ok "$TOPO: group $1 with members $MEM" mcastbed group "$1" $_coords
}

# group_set G NODES...: group G's members become NODES (ids) on every
# node still up (mcastbed group only creates groups)
group_set() {
	_g=$1
	shift
	_coords=''
	for _d in "$@"; do
		_coords="$_coords $(coord "$_d")"
	done
	_u=0
	while [ "$_u" -lt "$N" ]; do
		if [ -e "/run/netns/mcb$_u" ] || [ -e "/var/run/netns/mcb$_u" ]; then
			# shellcheck disable=SC2086
			/usr/local/bin/ip netns exec "mcb$_u" /usr/local/bin/mcastctl group set \
				"$_g" members $_coords || return 1
		fi
		_u=$((_u + 1))
	done
}

# node_set ARGS...: `mcastctl node set ARGS` on every node still up
node_set() {
	_u=0
	while [ "$_u" -lt "$N" ]; do
		if [ -e "/run/netns/mcb$_u" ] || [ -e "/var/run/netns/mcb$_u" ]; then
			/usr/local/bin/ip netns exec "mcb$_u" /usr/local/bin/mcastctl node set "$@" ||
				return 1
		fi
		_u=$((_u + 1))
	done
}

# rx_seqs SRC FILE: the seqs of SRC's messages in a receive log, in order
rx_seqs() {
	grep "^msg src=$1 " "$2" | sed 's/.* seq=\([0-9]*\) .*/\1/'
}

# tx_seqs FILE: the seqs of the accepted sends in a tx/burst log, in order
tx_seqs() {
	sed -n 's/^sent .*seq=\([0-9]*\) .*rc=0.*/\1/p' "$1"
}

SIZES=0,1,1400,65536,1048576

# ---- a node dies during a stream (net_fail.t, net_fail_torus.t)

# fail_stream_start SRC DEAD PARENT: receivers in every node (the live ones
# but SRC expect 8 messages), a watch of PARENT's events, then SRC streams
# 8 completion-mode sends (1400 and 65536 bytes, 4 times, 0.7 s apart) to
# group 1 in the background (TXPID).  LIVE: the destinations that survive.
fail_stream_start() {
	LIVE=''
	_u=0
	while [ "$_u" -lt "$N" ]; do
		[ "$_u" = "$1" ] || [ "$_u" = "$2" ] || LIVE="$LIVE $_u"
		_u=$((_u + 1))
	done
	start_rx 1 "$LIVE" 8 || fail "receivers ready" "$(cat "$W"/rx.*)"
	WATCHED=$3
	: > "$W/watch.$3"
	/usr/local/bin/ip netns exec "mcb$3" /usr/local/bin/mcast_probe watch 40000 \
		> "$W/watch.$3" 2>&1 &
	WATCHPID=$!
	: > "$W/tx"
	/usr/local/bin/ip netns exec "mcb$1" /usr/local/bin/mcast_probe tx g:1 1400,65536 \
		count=4 gap=700 wait=20000 > "$W/tx" 2>&1 &
	TXPID=$!
}

# fail_stream_running: wait until the watcher listens and the stream's
# first two sends completed, so that a node killed now dies in the middle
# of it (fail_stream_start emptied the logs: the last stream's lines must
# not count)
fail_stream_running() {
	wait_lines 1 '^watching' "$W/watch.$WATCHED" ||
		diag "node $WATCHED's event watcher did not subscribe within 60 s"
	wait_lines 2 '^sent ' "$W/tx" || diag "the stream did not start within 60 s" "$(cat "$W/tx")"
}

# missed_unreported SRC NODE: the seqs of SRC's sends (the tx log) that
# NODE neither got (its rx log) nor was listed failed in
missed_unreported() {
	awk -v src="$1" -v u="$2" '
	FILENAME ~ /rx/ && $1 == "msg" && $2 == "src=" src {
		for (i = 3; i <= NF; i++)
			if ($i ~ /^seq=/)
				got[substr($i, 5)] = 1
	}
	FILENAME ~ /tx$/ && $1 == "sent" {
		q = ""; f = ""
		for (i = 2; i <= NF; i++) {
			if ($i ~ /^seq=/)
				q = substr($i, 5)
			if ($i ~ /^failed=/)
				f = "," substr($i, 8) ","
		}
		if (q != "" && !(q in got) && index(f, "," u ",") == 0)
			printf "%s ", q
	}' "$W/rx.$2" "$W/tx"
}

# check_fail_stream SRC DEAD PARENT: after fail_stream_start and the death
# of DEAD (a child of PARENT in SRC's tree): the sender exits 0; every live
# destination got every message once, byte-exact, in order; the sends
# after the death list exactly DEAD as failed; PARENT reported PEER_DOWN
# for DEAD and counts the failure.  On a slowed guest (mcast_time_scale,
# make debugcheck) a live node can be taken for dead while the repair
# runs: there the guarantee is checked instead, each message a live node
# missed is one its send listed it failed for.
check_fail_stream() {
	_src=$1 _dead=$2 _par=$3
	wait "$TXPID"
	is "$?" 0 "the sender exits 0"
	wait_rx
	if [ "${mcast_time_scale:-1}" -gt 1 ]; then
		check_fail_stream_slowed "$@"
		return
	fi
	_bad=''
	for _u in $LIVE; do
		_got=$(grep -c "^msg src=$_src .* ok=1" "$W/rx.$_u")
		_all=$(grep -c "^msg src=$_src " "$W/rx.$_u")
		_dup=$(grep "^msg src=$_src " "$W/rx.$_u" | sed 's/.* seq=\([0-9]*\) .*/\1/' |
			sort | uniq -d | tr '\n' ' ')
		_ord=$(grep "^msg src=$_src " "$W/rx.$_u" | sed 's/.* seq=\([0-9]*\) .*/\1/' |
			awk 'NR > 1 && $1 <= p { print "reordered" } { p = $1 }')
		[ "$_got/$_all" = 8/8 ] && [ -z "$_dup$_ord" ] ||
			_bad="$_bad node$_u:$_got/$_all${_dup:+:dup:$_dup}${_ord:+:$_ord}"
	done
	is "$_bad" "" "every live node got all 8 messages once, byte-exact, in order"
	[ -z "$_bad" ] || diag "sender:" "$(cat "$W/tx")"
	_nf=$(grep -c "nfailed=1 failed=$_dead\$" "$W/tx")
	_other=$(grep -v 'rc=0 nfailed=0 failed=$' "$W/tx" |
		grep -v "rc=EHOSTUNREACH nfailed=1 failed=$_dead\$")
	if [ "$_nf" -ge 1 ] && [ -z "$_other" ]; then
		pass "completion mode: sends after the death list node $_dead as failed, nothing else ($_nf)"
	else
		fail "completion mode: sends after the death list node $_dead as failed, nothing else" \
			"$(cat "$W/tx")"
	fi
	check_last_send_lists "$_dead"
	check_fail_peer_down "$_dead" "$_par"
}

# check_fail_stream's half on a slowed guest: nothing lost unreported,
# nothing twice or out of order; DEAD failed in the last send
check_fail_stream_slowed() {
	_bad=''
	for _u in $LIVE; do
		_miss=$(missed_unreported "$1" "$_u")
		_dup=$(grep "^msg src=$1 " "$W/rx.$_u" | sed 's/.* seq=\([0-9]*\) .*/\1/' |
			sort | uniq -d | tr '\n' ' ')
		_ord=$(grep "^msg src=$1 " "$W/rx.$_u" | sed 's/.* seq=\([0-9]*\) .*/\1/' |
			awk 'NR > 1 && $1 <= p { print "reordered" } { p = $1 }')
		_nok=$(grep "^msg src=$1 " "$W/rx.$_u" | grep -vc ' ok=1')
		[ "$_nok" = 0 ] || _ord="$_ord corrupt:$_nok"
		[ -z "$_miss$_dup$_ord" ] ||
			_bad="$_bad node$_u:${_miss:+missed:$_miss}${_dup:+dup:$_dup}$_ord"
	done
	is "$_bad" "" "slowed guest: each live node got each message once, byte-exact, in order, or its send listed it failed"
	diag "slowed guest: the sends' failed lists:" "$(sed -n 's/.*\(rc=.*\)/\1/p' "$W/tx" | sort | uniq -c)"
	check_last_send_lists "$2"
	check_fail_peer_down "$2" "$3"
}

# check_last_send_lists DEAD: the stream's last send names DEAD failed
check_last_send_lists() {
	if tail -n 1 "$W/tx" | grep -qE "failed=(.*,)?$1(,|\$)"; then
		pass "the last send lists node $1"
	else
		fail "the last send lists node $1" "$(cat "$W/tx")"
	fi
}

# check_fail_peer_down DEAD PARENT: PARENT's watcher saw PEER_DOWN for
# DEAD, and PARENT counts the failure
check_fail_peer_down() {
	kill "$WATCHPID" 2>/dev/null
	wait "$WATCHPID" 2>/dev/null
	if grep -q "^event peer-down node=$1 group=1" "$W/watch.$2"; then
		pass "node $2 ($1's parent) reported PEER_DOWN for node $1"
	else
		fail "node $2 ($1's parent) reported PEER_DOWN for node $1" \
			"$(cat "$W/watch.$2")"
	fi
	_s=$(mcastbed exec "$2" mcast_probe stats | sed -n 's/^netstats //p')
	case " $_s " in
	*" peer_fails=0 "* | "  ") fail "node $2 counts the peer failure" "$_s" ;;
	*) pass "node $2 counts the peer failure" ;;
	esac
}

# ---- routes, followed hop by hop from dumps of the routing tables

# route_snapshot FILE: every live node's main routing table, each line
# prefixed with the node's id (one ip per node, all at once: TCG is slow
# to start processes)
route_snapshot() {
	_pids=''
	_u=0
	while [ "$_u" -lt "$N" ]; do
		rm -f "$1.$_u"
		if [ -e "/run/netns/mcb$_u" ]; then
			ip -n "mcb$_u" route show > "$1.$_u" &
			_pids="$_pids $!"
		fi
		_u=$((_u + 1))
	done
	for _p in $_pids; do
		wait "$_p"
	done
	: > "$1"
	_u=0
	while [ "$_u" -lt "$N" ]; do
		[ ! -f "$1.$_u" ] || sed "s/^/$_u /" "$1.$_u" >> "$1"
		_u=$((_u + 1))
	done
}

# route_paths FILE: "SRC DST PATH" for every pair of nodes in a snapshot;
# PATH the nodes the routes lead through ("0-4-8"), ending in "-noroute"
# (no route at a node, or a dead next hop) or "-loop".
route_paths() {
	awk '
	function id(a,   p) { split(a, p, "."); return p[3] * 256 + p[4] }
	{ live[$1] = 1 }
	$3 == "via" { nh[$1 "," id($2)] = id($4) }
	END {
		for (s in live) for (d in live) {
			if (s == d) continue
			p = s; c = s; n = 0
			while (c != d) {
				if (!((c "," d) in nh) || !(nh[c "," d] in live)) {
					p = p "-noroute"
					break
				}
				c = nh[c "," d]; p = p "-" c
				if (++n > 64) { p = p "-loop"; break }
			}
			print s, d, p
		}
	}' "$1" | sort -n -k1,1 -k2,2
}

# ADDR of NODE on an mcastbed testbed
addr_of() { # NODE
	echo "10.77.$(($1 / 256)).$(($1 % 256))"
}

# a counter or gauge of NODE's data path (mcast_probe stats' netstats)
netstat_of() { # NODE NAME
	mcastbed exec "$1" mcast_probe stats | sed -n 's/^netstats //p' |
		tr ' ' '\n' | sed -n "s/^$2=//p"
}

# B - A of two counters, or "none" when either is not a number (a counter
# the module does not report)
delta() { # A B
	case "$1:$2" in
	*[!0-9:]* | :* | *:) echo none ;;
	*) echo $(($2 - $1)) ;;
	esac
}

# MemAvailable with the page cache dropped, the most of three looks a
# second apart: memory freed late (RCU, per-cpu caches) is not a leak;
# a leak stays
mem_avail_kb() {
	_best=0
	for _i in 1 2 3; do
		sync
		echo 3 > /proc/sys/vm/drop_caches 2>/dev/null
		_m=$(sed -n 's/^MemAvailable: *\([0-9]*\) kB$/\1/p' /proc/meminfo)
		[ "$_m" -le "$_best" ] || _best=$_m
		sleep 1
	done
	echo "$_best"
}

# node 0's good messages in LOG (mcast_probe rx): COUNT of them, each once,
# in the order they were sent (two assertions)
check_once_in_order() { # LOG COUNT DESC
	_seqs=$(grep '^msg src=0 .*ok=1' "$1" | sed 's/.* seq=\([0-9]*\) .*/\1/')
	_got=$(echo "$_seqs" | grep -c .)
	is "$_got" "$2" "$3"
	[ "$_got" = "$2" ] ||
		diag "$1: $(wc -l < "$1") lines; the first not node 0's intact ones:" \
			"$(grep -v '^msg src=0 .*ok=1' "$1" | head -n 5)"
	is "$(echo "$_seqs" | sort -n | uniq | tr '\n' ' ')" "$(echo "$_seqs" | tr '\n' ' ')" \
		"$3: each once, in order"
}

# NODE's links to its neighbours: its veths (not lo, nor the sit0 or
# tunl0 a kernel with sit or ipip built in gives every netns)
links_of() {
	mcastbed exec "$1" ip -o link show type veth |
		awk -F': ' '{ sub(/@.*/, "", $2); print $2 }'
}

# drop_done NODE add|del: a filter on NODE's links that drops the DONE
# datagrams it sends: UDP over IPv4 whose header's type byte (after the 20
# bytes of IP header and 8 of UDP) is 3; drop_answers: its ACKs and DONEs
# (2 and 3).  drop_sent's FLAGS FLAGMASK narrow it to datagrams whose
# flags byte (the next), masked with FLAGMASK, is FLAGS.
drop_done() { drop_sent "$1" "$2" 3 0xff; }
# data_outage DESC SECS OUT ARGS...: node 0 runs `mcast_probe ARGS...`
# (its output to OUT) while the DATA it sends is dropped for SECS s;
# returns when that command ends
data_outage() {
	_od=$1 _os=$2 _oo=$3
	shift 3
	run_ok "$_od: node 0's DATA is dropped" drop_sent 0 add 1 0xff
	mcastbed exec 0 mcast_probe "$@" > "$_oo" 2>&1 &
	_op=$!
	sleep "$_os"
	run_ok "$_od: node 0's DATA goes again" drop_sent 0 del
	wait "$_op"
}
drop_answers() { drop_sent "$1" "$2" 2 0xfe; }
drop_sent() { # NODE add|del TYPE MASK [FLAGS FLAGMASK]
	_fl=''
	[ -z "$6" ] || _fl="match u8 $5 $6 at 30"
	for _l in $(links_of "$1"); do
		if [ "$2" = add ]; then
			# shellcheck disable=SC2086 # _fl: words or none
			mcastbed exec "$1" tc qdisc add dev "$_l" root handle 1: prio &&
				mcastbed exec "$1" tc filter add dev "$_l" parent 1: protocol ip \
					prio 1 u32 match ip protocol 17 0xff \
					match u8 "$3" "$4" at 29 $_fl action drop || return 1
		else
			mcastbed exec "$1" tc qdisc del dev "$_l" root || return 1
		fi
	done
}
