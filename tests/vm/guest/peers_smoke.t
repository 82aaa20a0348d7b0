#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# The peers of `make bench-peers` (tests/vm/bench_peers.sh), each for a few
# iterations on a 2x2 torus testbed: mcast (mcastperf, completion mode),
# Open MPI's MPI_Bcast (its default and one forced algorithm), MPICH's
# MPI_Bcast, TIPC group broadcast (replicast) and group unicasts.  Every
# one must print well-formed CSV rows in the peers' schema, with no failed
# receiver.  The MPIs run from the host's root shared over 9p (run.sh):
# when the host has no Open MPI or MPICH, their tests are skipped.

# shellcheck source=tests/vm/guest/tap.sh
. /tests/tap.sh
# shellcheck source=utils/mcastpeers/peerslib.sh
. /tests/peerslib.sh

[ -x /usr/local/bin/mcastbed ] || skip_all "no mcastbed in the guest"
[ -x /usr/local/bin/tipc_bcast ] || skip_all "no tipc_bcast in the guest (make mcastpeers)"

N=4
SIZES=8,64K,200K	# 200K: four TIPC pieces, MPI's segmented paths
ITERS=3
TP=${MCASTBED_TRANSPORT:-tcp}	# the kernel's default
LOG=/tmp/peers.smoke

rmmod mcast 2>/dev/null
modprobe veth 2>/dev/null
insmod "$MCAST_KO" || skip_all "insmod mcast.ko failed"

cleanup() {
	tipc_teardown "$N"
	mcastbed down > /dev/null 2>&1
	rmmod mcast 2>/dev/null
}

# rows_ok DESC PEER METHOD FILE: FILE holds the header and one good row
# per size (4 nodes, 3 destinations, positive times, no failed receiver).
rows_ok() {
	_good=0
	for _s in 8 65536 204800; do
		grep -qE "^$2,$3,$N,$((N - 1)),$_s,$ITERS,[0-9]+\.[0-9],[0-9]+\.[0-9],[0-9]+\.[0-9],[0-9]+\.[0-9]{3},[0-9]+\.[0-9],0,[0-9]+,[0-9]+$" "$4" &&
			_good=$((_good + 1))
	done
	if [ "$_good" = 3 ] && grep -qx "$PEERS_CSV_HEADER" "$4" &&
		! grep -q '^exit status' "$4" &&
		! grep -qE "^$2,$3,([^,]*,){4}0\.0," "$4"; then
		pass "$1"
	else
		fail "$1" "$(cat "$4")"
	fi
}

plan 9
T0=$(date +%s)
lap() { diag "$1: $(($(date +%s) - T0)) s"; T0=$(date +%s); }

if ! _out=$(mcastbed up torus:2x2:uni 2>&1); then
	fail "mcastbed up torus:2x2:uni" "$_out"
	cleanup
	tap_exit
fi
pass "mcastbed up torus:2x2:uni ($TP)"

# mcast: one run per method, as bench_peers.sh does
mcast_bcast_run "$N" "$TP" u-torus "$SIZES" "$ITERS" > "$LOG.mcast" 2>&1
mcast_bcast_run "$N" "$TP" separate "$SIZES" "$ITERS" --no-header >> "$LOG.mcast" 2>&1
rows_ok "mcast u-torus: a row per size" "mcast-$TP" u-torus "$LOG.mcast"
rows_ok "mcast separate: a row per size" "mcast-$TP" separate "$LOG.mcast"
lap "mcastbed up and mcast"

if peers_host_setup > "$LOG.host" 2>&1 && peers_net_setup "$N" >> "$LOG.host" 2>&1; then
	have_host=1
else
	have_host=0
	diag "$(cat "$LOG.host")"
fi

# mpi_run FUNCTION ARGS...: a peerslib.sh function, at most 120 s, its
# output in $LOG.mpi
mpi_run() {
	timeout 120 sh -c '. /tests/tap.sh; . /tests/peerslib.sh; "$@"' sh "$@" \
		> "$LOG.mpi" 2>&1
	_mrc=$?
	[ "$_mrc" = 0 ] || echo "exit status $_mrc" >> "$LOG.mpi"
	grep -q 'killed (results complete)' "$LOG.mpi" &&
		diag "note: $(grep 'killed (results complete)' "$LOG.mpi")"
	return 0
}

if [ "$have_host" = 1 ] && [ -x /host/usr/bin/orterun ]; then
	for _a in default binomial; do
		mpi_run ompi_bcast "$N" "$_a" --sizes "$SIZES" --iters "$ITERS" --warmup 1
		rows_ok "Open MPI MPI_Bcast ($_a): a row per size" openmpi "$_a" "$LOG.mpi"
		lap "Open MPI $_a"
	done
else
	skip "Open MPI MPI_Bcast (default)" "no Open MPI on the host or no 9p share"
	skip "Open MPI MPI_Bcast (binomial)" "no Open MPI on the host or no 9p share"
fi

if [ "$have_host" = 1 ] && [ -x /host/usr/bin/mpiexec.hydra ]; then
	mpi_run mpich_bcast "$N" --sizes "$SIZES" --iters "$ITERS" --warmup 1
	rows_ok "MPICH MPI_Bcast: a row per size" mpich default "$LOG.mpi"
	lap MPICH
else
	skip "MPICH MPI_Bcast" "no MPICH on the host or no 9p share"
fi

if _out=$(tipc_setup "$N" 2>&1); then
	pass "TIPC UDP bearers on every node"
else
	fail "TIPC UDP bearers on every node" "$_out"
fi
for _m in replicast unicast; do
	timeout 120 sh -c '. /tests/tap.sh; . /tests/peerslib.sh; tipc_bcast_run "$@"' sh \
		"$N" "$_m" --sizes "$SIZES" --iters "$ITERS" --warmup 1 > "$LOG.tipc" 2>&1 ||
		echo "exit status $?" >> "$LOG.tipc"
	rows_ok "TIPC group broadcast ($_m): a row per size" tipc "$_m" "$LOG.tipc"
	lap "TIPC $_m"
done

cleanup
tap_exit
