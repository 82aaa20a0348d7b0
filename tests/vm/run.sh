#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# The VM test harness (see tests/vm/README).  For each installed kernel it
# builds mcast.ko, packs an initramfs (busybox, the module, the in-tree
# modules and userspace programs the tests need, tests/vm/guest/*.t), boots
# it under QEMU with TCG (the build machines cannot load modules and a KVM
# boot hangs) and turns what the guest prints on its serial console into
# one TAP stream on stdout.  Exits non-zero if anything failed.

set -euo pipefail

usage() {
	cat <<EOF
usage: tests/vm/run.sh [--kernel VER] [--keep] [--shell] [TEST...]
       tests/vm/run.sh --demo [--kernel VER]
       tests/vm/run.sh --bench [--kernel VER]
       tests/vm/run.sh --bench-peers [--kernel VER]

  --kernel VER  only this kernel (default: every VER with /boot/vmlinuz-VER
                and /lib/modules/VER/build under VM_KERNEL_ROOT)
  --keep        keep build/vm/VER/{root,initramfs.cpio.gz} after a clean run
  --shell       boot one kernel into an interactive busybox shell on this
                terminal instead of running the tests (quit QEMU: Ctrl-A x)
  --demo        boot one kernel and run tests/vm/demo.sh in it (a 16-node
                torus of network namespaces, multicasts, statistics), print
                what it printed and power off
  --bench       the same with tests/vm/bench.sh: mcastperf on a 4x4 and an
                8x8 torus, U-torus against separate addressing, the cost
                of the cluster key, the timer against idle streams (slow:
                set VM_TIMEOUT and TEST_TIMEOUT, as make bench-cluster
                does; BENCH_ONLY=torus|key|timer runs one part)
  --bench-peers the same with tests/vm/bench_peers.sh: mcast against Open
                MPI's and MPICH's MPI_Bcast and TIPC group broadcast on the
                same testbeds (make bench-peers); writes build/bench-peers/
                (output, CSV, plot).  Knobs, passed to the guest:
                PEERS_TOPOS, PEERS_SIZES, PEERS_ITERS, PEERS_WARMUP,
                PEERS_OMPI_ALGOS, PEERS_MCAST_METHODS, PEERS_ONLY,
                PEERS_TBF, PEERS_ANATOMY, PEERS_TIPC_FILTER (see
                tests/vm/bench_peers.sh)
  --bench-daemon  the same with tests/vm/bench_daemon.sh: mcastd on 16-
                and 64-node testbeds, join-to-converged time (p50, p99)
                and control datagrams per node per second (make
                bench-daemon; DAEMON_JOINS, DAEMON_REST_S, DAEMON_TOPOS)
  --bench-switch  the same with tests/vm/bench_switch.sh: mcastperf on
                the 16-host fat tree fat-tree-16-rr.topo (mcastbed up
                switch:FILE, switch links at 100mbit), the up*-down*
                order against the binomial tree over node ids
                (make bench-switch)
  --bench-cube  the same with tests/vm/bench_cube.sh: mcastperf on
                mcastbed up cube:4, u-cube, maxport, combine and w-sort
                against u-torus and separate addressing, and rings
                with every member sending at once (make bench-cube;
                BENCH_CUBE_DIM, BENCH_CUBE_SIZES, BENCH_CUBE_ITERS,
                BENCH_CUBE_RING_RATE)
  --bench-rb    the same with tests/vm/bench_rb.sh: mcastperf on mcastbed
                up torus:4x4, recursion-based broadcast (one-port,
                all-port, auto) against u-torus and separate addressing
                (make bench-rb; BENCH_RB_TOPO, BENCH_RB_SIZES,
                BENCH_RB_ITERS, BENCH_RB_RATE)
  --bench-fabric the same with tests/vm/bench_fabric.sh: S-, Md-,
                Mu-torus(r) and U-torus on the simulated IR fabric, the
                receivers' virtual latency (make bench-fabric;
                BENCH_FABRIC_TOPO, BENCH_FABRIC_M, BENCH_FABRIC_FLITS,
                BENCH_FABRIC_ALGOS)
  TEST          guest tests to run, e.g. module_load (default: all of
                tests/vm/guest/*.t but FULL_ONLY_TESTS on the first
                kernel, and on the others the subset SECOND_KERNEL_TESTS
                names; VM_FULL=1, as make vmcheck-full sets, runs all of
                them on every kernel)

Environment: VM_KERNEL and VM_TEST_NAMES (what --kernel and TEST name, when
they are not given), VM_KERNEL_ARGS (kernel command line words, default
mitigations=off), VM_KERNEL_ROOT (where boot/ and lib/modules/ are,
default /; make debugcheck points it at its own kernel's tree), VM_TIMEOUT (s per boot, default 4200), TEST_TIMEOUT (s per guest
test, default 900), VM_LANES (boots side by side, default 2 on 2 cores
or more: the first kernel's tests split by tests/vm/durations), VM_MEM (MiB, default 1024), VM_TIME_SCALE (receivers in
the guest wait that many times longer: a slow kernel), VM_TAP_TIMES=1 (each
result carries the guest's uptime: where a test spends its time), QEMU, VM_OUT (work directory,
default build/vm), VM_TRANSPORT (the transport mcastbed gives the nodes in
every boot; default udp, with the guarantee tests of TCP_ALSO run once
more on tcp), FUZZ_SEED and FUZZ_SECS (net_fuzz_auth's seed and seconds
per transport).
EOF
}

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO=$(cd "$HERE/../.." && pwd)
OUT=${VM_OUT:-$REPO/build/vm}

# In-tree modules the guest tests may modprobe.  Their dependencies, and
# mcast.ko's, are added from the kernel's modules.dep.
IN_TREE_MODULES=(veth bridge sch_netem sch_tbf sch_prio cls_u32 act_gact)
# mcast_forge seals datagrams with a cluster key over AF_ALG (net_key.t).
IN_TREE_MODULES+=(algif_hash)
# The peers of bench-peers: TIPC, the dummy interface the MPIs use and
# the 9p share of the host's root (Open MPI and MPICH run from it).
IN_TREE_MODULES+=(tipc dummy 9p 9pnet_virtio virtio_pci)
# Userspace programs, relative to build/, put in the guest's /usr/local/bin.
GUEST_PROGS=(mcastctl mcastmon mcast_probe mcast_forge mcast_fuzzpeer examples/mcast_hello libtest/lib_api
	mcastperf mcastbed-peers mcastbed-routes mcastbed-swroutes mcastd mcastsim)
# The peers' harnesses (relative to build/), put there WITHOUT their
# libraries: the MPI ones load the host's over the 9p share (peerslib.sh).
PEER_PROGS=(mcastpeers/tipc_bcast mcastpeers/mpi_bcast.openmpi mcastpeers/mpi_bcast.mpich)
# Scripts from the repository put there too (relative to the repo).
GUEST_SCRIPTS=(utils/mcastbed/mcastbed)
# Host programs put there too (tap.sh makes them win over busybox's applets
# of the same name): busybox ip has no netns, busybox tc no netem.
HOST_PROGS=(ip tc tipc)
# Host files and directories copied to the same path (tc's netem delay
# distribution tables).
HOST_DATA=(/usr/lib/x86_64-linux-gnu/tc)
# mcastd's RDMA ports (net_rdma.t): iproute2's rdma, libibverbs' soft-RoCE
# provider and its driver file (libibverbs comes with mcastd, if it was
# built with it), and rdma_rxe on the kernels that have it.
HOST_PROGS+=(rdma)
HOST_DATA+=(/usr/lib/x86_64-linux-gnu/libibverbs/librxe-rdmav*.so
	/etc/libibverbs.d/rxe.driver)
OPT_MODULES=(rdma_rxe crc32_generic)
# The egress filter that keeps bench-peers' TIPC on its bearers (clsact,
# u32, pedit, csum: peerslib.sh, tipc_no_shortcut); Debian's kernels have
# them, make debugcheck's has not (no benchmark runs there).
OPT_MODULES+=(sch_ingress act_pedit act_csum)

# Kernels are looked up under this root, so a kernel built for one purpose
# (make debugcheck's) never joins the default list of make check.
KROOT=${VM_KERNEL_ROOT:-}
KROOT=${KROOT%/}
# The whole suite on one kernel takes about 45 minutes under TCG on 6.1
# here, and a busier machine longer (55 with a simulation beside it); a
# boot cut short fails every test it had left, so the limit is 1.5 times
# the usual (70 minutes), not a tight fit.
VM_TIMEOUT=${VM_TIMEOUT:-4200}
# Per guest test: the longest (net_offload) takes near 6 minutes alone and
# 1.4 times that with another lane's guest beside it.
TEST_TIMEOUT=${TEST_TIMEOUT:-900}
VM_MEM=${VM_MEM:-1024}
QEMU=${QEMU:-qemu-system-x86_64}
# -nic none: no NIC to probe (tests make their own veths); the kernel and
# init print on ttyS0, which -nographic puts on QEMU's stdio.
QEMU_ARGS=(-accel tcg -m "$VM_MEM" -smp 2 -nographic -no-reboot -nic none)
# The host's root, read-only, for the MPI peers (guest: mount -t 9p hostroot).
QEMU_ARGS+=(-virtfs local,path=/,mount_tag=hostroot,security_model=none,readonly=on)
# Extra kernel command line words (bench-peers' knobs; init's environment).
EXTRA_APPEND=''
APPEND="console=ttyS0 panic=-1 oops=panic quiet loglevel=4"
# The guest's CPU (TCG's qemu64) reports no immunity to Meltdown, so the
# kernel isolates its page tables: two CR3 writes per system call and
# interrupt, each a flush of TCG's whole soft TLB.  Without it (and the
# other mitigations, which guard nothing in a throwaway VM) the tests ran
# 7 to 8% faster in one comparison (bed_torus 138 s to 129, net_every 274
# to 253).  VM_KERNEL_ARGS overrides it ('' for the kernel's defaults).
APPEND+=" ${VM_KERNEL_ARGS-mitigations=off}"
MARK=@@MCAST-VM # the guest's markers; keep in sync with guest/init

# Kernel log lines that fail a boot: DESIGN.md §5's list, plus the other
# ways a kernel reports a bug, and mcast.ko's report of objects left at
# unload (a leak).
BAD_LOG='BUG:|WARNING:|Oops|Call Trace|refcount_t|kernel BUG at|Kernel panic|UBSAN:|KASAN:|mcast: leaked|suspected memory leak|possible circular locking|inconsistent lock state'

# The tests every kernel after the first runs when no TEST is named and
# VM_FULL is not 1: those that exercise the kernel interfaces that differ
# between releases (module load, char device, generic netlink and its
# permissions, the sockets of both transports, events, user namespaces,
# the crypto API of cluster keys, memcg charges and socket buffer limits,
# what the IR fabric module takes from the kernel: irsim_smoke, and the
# trace event macros and tracefs: trace_events).  The
# cluster algorithms above them (U-torus trees: net_utorus, 2 minutes;
# net_transport sends multicasts over both transports here), the failure
# handling, the testbed tool (net_fail_torus, bed_torus: 3 minutes), the
# source checks of net_trust (the same recvmsg as net_transport's) and the
# fabric's algorithms and virtual latencies (net_irsim, net_vlat: 2.5
# minutes) are the same code on every kernel; the first kernel runs them
# all.  This keeps CI under its time budget (make vmcheck-full runs
# everything everywhere).
SECOND_KERNEL_TESTS=(module_load vm_env mcast_dev mcast_genl dev_perms ctl_config
	lib_api lib_hello mon_events net_transport net_key irsim_smoke net_caps
	trace_events)
# Tests that only VM_FULL=1 (make vmcheck-full) or naming them runs on the
# first kernel: net_daemon64 (64 daemons, 3 minutes; net_daemon.t runs
# the same code on 16 in every run), net_every (every node of a 4x4 and
# members of an 8x8 send in turn, 4.5 minutes; net_all_senders.t has every
# node of a 4x4 send at once in every run),
# bed_switch and bed_torus (the testbeds' routes, 1.3 and 2.3 minutes;
# net_switch.t runs multicasts on the switch testbed, and every net_ test
# checks on a torus testbed that each message reached every destination
# in its plan's step), irsim_smoke (the later kernels' part of
# net_irsim.t), net_vlat (the fabric's virtual latencies against seed
# 000's closed form, 1.5 minutes; net_irsim and net_offload run the
# fabric's worms in every run) and peers_smoke (the benchmark peers'
# harness, 1.5 minutes: make bench-peers runs it in full).  This keeps CI
# near an hour on the slow machines (with them, and the 64-node testbeds
# tests leave to mcast_full, it took 83 minutes, 70 of them the first
# kernel's boot; stop 42's suite took 79 minutes there before bed_torus,
# net_vlat, peers_smoke and tcp-net_fail left it).
FULL_ONLY_TESTS=(net_daemon64 net_every bed_switch bed_torus irsim_smoke net_vlat peers_smoke)

ntests=0
nfailed=0
keep=0
shell=0
demo=''	# the script run_demo runs: demo or bench
kernels=()
tests=()
tests_named=()	# the TESTs of the command line
all_tests=()	# what the first kernel runs
later_tests=()	# what the other kernels run
timings=()

# ------------------------------------------------------------------ output

tap() { # STATUS DESCRIPTION
	ntests=$((ntests + 1))
	if [ "$1" != ok ]; then
		nfailed=$((nfailed + 1))
	fi
	printf '%s %d - %s\n' "$1" "$ntests" "$2"
}

diag() {
	printf '%s\n' "$@" | sed 's/^/# /'
}

# A broken setup (not a test failure): say so in TAP and on stderr.
die() {
	echo "Bail out! $*"
	echo "tests/vm/run.sh: $*" >&2
	exit 2
}

now_ms() {
	date +%s%3N
}

# ------------------------------------------------------------------ setup

installed_kernels() {
	local d ver
	for d in "$KROOT"/lib/modules/*/; do
		ver=$(basename "$d")
		# An older make debugcheck installed its kernel in /boot: only
		# --kernel or VM_KERNEL chooses it.
		case $ver in *-mcast-debug) continue ;; esac
		if [ -f "$KROOT/boot/vmlinuz-$ver" ] && [ -f "$d/build/Makefile" ]; then
			echo "$ver"
		fi
	done | sort -V
}

parse_args() {
	while [ $# -gt 0 ]; do
		case $1 in
		--kernel)
			[ $# -ge 2 ] || { usage >&2; exit 2; }
			kernels=("$2")
			shift 2
			;;
		--kernel=*) kernels=("${1#--kernel=}"); shift ;;
		--keep) keep=1; shift ;;
		--shell) shell=1; shift ;;
		--demo) demo=demo; shift ;;
		--bench) demo=bench; shift ;;
		--bench-peers) demo=bench_peers; shift ;;
		--bench-daemon) demo=bench_daemon; shift ;;
		--bench-switch) demo=bench_switch; shift ;;
		--bench-cube) demo=bench_cube; shift ;;
		--bench-rb) demo=bench_rb; shift ;;
		--bench-fabric) demo=bench_fabric; shift ;;
		-h | --help) usage; exit 0 ;;
		--) shift; tests+=("$@"); break ;;
		-*) usage >&2; exit 2 ;;
		*) tests+=("$1"); shift ;;
		esac
	done
}

# The guest test files: the named ones (module_load, module_load.t or a
# path), or all.
select_tests() {
	local t name sel=()
	tests_named=("${tests[@]}")
	if [ ${#tests[@]} -eq 0 ]; then
		for t in "$HERE"/guest/*.t; do
			sel+=("$t")
		done
	else
		for t in "${tests[@]}"; do
			name=$(basename "$t" .t)
			[ -f "$HERE/guest/$name.t" ] || die "no guest test $HERE/guest/$name.t"
			sel+=("$HERE/guest/$name.t")
		done
	fi
	if [ ${#tests_named[@]} -eq 0 ] && [ "${VM_FULL:-0}" != 1 ]; then
		local keep=() full
		for t in "${sel[@]}"; do
			full=0
			for name in "${FULL_ONLY_TESTS[@]}"; do
				[ "$(basename "$t" .t)" != "$name" ] || full=1
			done
			[ "$full" = 1 ] || keep+=("$t")
		done
		sel=("${keep[@]}")
	fi
	tests=("${sel[@]}")
	all_tests=("${sel[@]}")
	if [ ${#tests_named[@]} -eq 0 ] && [ "${VM_FULL:-0}" != 1 ]; then
		sel=()
		for name in "${SECOND_KERNEL_TESTS[@]}"; do
			[ ! -f "$HERE/guest/$name.t" ] || sel+=("$HERE/guest/$name.t")
		done
	fi
	later_tests=("${sel[@]}")
}

# Missing tools or kernels skip the whole run (TAP's `1..0 # SKIP`) rather
# than fail it: nothing here says mcast is broken.
preflight() {
	local ver
	if ! command -v "$QEMU" > /dev/null; then
		[ -z "$demo" ] || die "$QEMU not installed (apt-get install qemu-system-x86)"
		echo "1..0 # SKIP $QEMU not installed (apt-get install qemu-system-x86)"
		exit 0
	fi
	if [ ${#kernels[@]} -eq 0 ]; then
		mapfile -t kernels < <(installed_kernels)
		if [ ${#kernels[@]} -eq 0 ]; then
			[ -z "$demo" ] || die "no kernel with /boot/vmlinuz-VER and /lib/modules/VER/build" \
				"(apt-get install linux-image-amd64 linux-headers-amd64)"
			echo "1..0 # SKIP no kernel with /boot/vmlinuz-VER and /lib/modules/VER/build" \
			     "(apt-get install linux-image-amd64 linux-headers-amd64)"
			exit 0
		fi
	fi
	for ver in "${kernels[@]}"; do
		[ -r "$KROOT/boot/vmlinuz-$ver" ] || die "cannot read $KROOT/boot/vmlinuz-$ver"
		[ -f "$KROOT/lib/modules/$ver/build/Makefile" ] || die "no $KROOT/lib/modules/$ver/build"
	done
	# The guest has no libc of its own: busybox must be the static one.
	if ldd "$(command -v busybox)" > /dev/null 2>&1; then
		die "busybox is dynamically linked; apt-get install busybox-static"
	fi
}

# ------------------------------------------------------------------ builds

build_userspace() {
	if make -C "$REPO" userspace > "$OUT/userspace.log" 2>&1; then
		tap ok "userspace programs for the guest build"
	else
		tap "not ok" "userspace programs for the guest build"
		diag "\`make userspace\` failed; last lines of $OUT/userspace.log:"
		tail -n 20 "$OUT/userspace.log" | sed 's/^/#   /'
	fi
}

# A copy of the sources to build mcast.ko in.  The Makefile builds it in
# its own directory whatever the kernel, so building in the repo would race
# with a developer's `make` (or `make clean`) and leave the repo's mcast.ko
# built for whichever kernel we tested last.  rsync keeps the objects
# (excluded, so not deleted), so rebuilds stay incremental.
snapshot_sources() { # DIR
	mkdir -p "$1"
	rsync -a --delete --exclude=/build/ --exclude=/.git/ \
		--exclude='*.o' --exclude='*.o.d' --exclude='*.ko' \
		--exclude='*.mod' --exclude='*.mod.c' --exclude='.*.cmd' \
		--exclude='.*.d' --exclude=Module.symvers --exclude=modules.order \
		"$REPO/" "$1/"
}

# Builds mcast.ko (and mcast_irsim.ko, the simulated IR fabric) for VER
# with the Makefile's `module` target and copies them to DIR.
build_module() { # VER DIR
	local ver=$1 dir=$2 vermagic src=$2/src
	local desc="[$ver] mcast.ko builds"

	snapshot_sources "$src"
	if ! make -C "$src" module KERNELRELEASE="$ver" \
		KDIR="$KROOT/lib/modules/$ver/build" > "$dir/build.log" 2>&1; then
		tap "not ok" "$desc"
		diag "\`make module\` failed; last lines of $dir/build.log:"
		tail -n 20 "$dir/build.log" | sed 's/^/#   /'
		return 1
	fi
	# The vermagic check catches a module built against another kernel.
	vermagic=$(modinfo -F vermagic "$src/mcast.ko")
	if [ "${vermagic%% *}" != "$ver" ]; then
		tap "not ok" "$desc"
		diag "$src/mcast.ko has vermagic '$vermagic'"
		return 1
	fi
	cp "$src/mcast.ko" "$src/mcast_irsim.ko" "$dir/"
	tap ok "$desc"
}

# ------------------------------------------------------------------ rootfs

stage_busybox() { # ROOT
	local root=$1 applet
	mkdir -p "$root"/{bin,sbin,usr/bin,usr/sbin}
	cp "$(command -v busybox)" "$root/bin/busybox"
	while read -r applet; do
		# The list names busybox itself too.
		[ "$applet" = bin/busybox ] || ln -sf /bin/busybox "$root/$applet"
	done < <(busybox --list-full)
}

# Busybox insmod/modprobe may not read compressed modules: unpack them.
copy_module() { # SRC DST
	mkdir -p "$(dirname "$2")"
	case $1 in
	*.ko) cp "$1" "$2" ;;
	*.ko.xz) xz -dc "$1" > "$2" ;;
	*.ko.gz) gzip -dc "$1" > "$2" ;;
	*.ko.zst) zstd -qdc "$1" > "$2" ;;
	*) die "unknown module format: $1" ;;
	esac
}

# mcast.ko goes to extra/ (tests find it as $MCAST_KO), mcast_irsim.ko beside
# it; the in-tree modules
# listed above and every module they or mcast.ko depend on go to their
# usual place; depmod then writes a modules.dep for busybox modprobe.
stage_modules() { # VER ROOT KO
	local ver=$1 root=$2 ko=$3
	local mdir=$root/lib/modules/$ver deps cmd path rest mods=() mod

	mkdir -p "$mdir/extra"
	cp "$ko" "$mdir/extra/mcast.ko"
	cp "$(dirname "$ko")/mcast_irsim.ko" "$mdir/extra/"
	IFS=, read -ra mods <<< "$(modinfo -F depends "$ko")"
	mods+=("${IN_TREE_MODULES[@]}")
	for mod in "${OPT_MODULES[@]}"; do
		modprobe -d "$KROOT/" -S "$ver" --show-depends "$mod" > /dev/null 2>&1 &&
			mods+=("$mod")
	done
	if [ ${#mods[@]} -gt 0 ]; then
		deps=$(modprobe -d "$KROOT/" -S "$ver" --show-depends -a "${mods[@]}" 2>&1) ||
			die "modprobe -d $KROOT/ -S $ver --show-depends ${mods[*]}: $deps"
		while read -r cmd path rest; do
			[ "$cmd" = insmod ] || continue # "builtin NAME"
			rest=${path#*/lib/modules/"$ver"/}
			copy_module "$path" "$mdir/${rest%.ko*}.ko"
		done <<< "$deps"
	fi
	cp "$KROOT/lib/modules/$ver"/modules.{order,builtin,builtin.modinfo} "$mdir/"
	depmod -b "$root" "$ver"
}

# PROG into the guest's /usr/local/bin, with the shared libraries and the
# loader ldd says it needs at their host paths.
stage_program() { # ROOT PROG
	local root=$1 prog=$2 lib
	cp "$prog" "$root/usr/local/bin/"
	for lib in $(ldd "$prog" 2>/dev/null | grep -o '/[^ ]*' || true); do
		if [ ! -e "$root$lib" ]; then
			mkdir -p "$root$(dirname "$lib")"
			cp -L "$lib" "$root$lib"
		fi
		# Our own libraries (build/lib, found by rpath) also go where the
		# loader looks by default: the guest mounts a tmpfs on /tmp, which
		# hides a checkout that lives there.
		case $lib in
		"$REPO"/*) cp -L "$lib" "$root/usr/lib/" ;;
		esac
	done
}

stage_programs() { # ROOT
	local root=$1 prog path
	mkdir -p "$root/usr/local/bin" "$root/usr/lib"
	for prog in "${GUEST_PROGS[@]}"; do
		if [ -x "$REPO/build/$prog" ]; then
			stage_program "$root" "$REPO/build/$prog"
		else
			diag "note: build/$prog missing: not in the guest"
		fi
	done
	for prog in "${HOST_PROGS[@]}"; do
		if path=$(command -v "$prog"); then
			stage_program "$root" "$path"
		else
			diag "note: $prog not installed on the host: the guest has busybox's"
		fi
	done
	for prog in "${PEER_PROGS[@]}"; do
		if [ -x "$REPO/build/$prog" ]; then
			cp "$REPO/build/$prog" "$root/usr/local/bin/"
		else
			diag "note: build/$prog missing: not in the guest"
		fi
	done
	for prog in "${GUEST_SCRIPTS[@]}"; do
		cp "$REPO/$prog" "$root/usr/local/bin/"
	done
	for path in "${HOST_DATA[@]}"; do
		if [ -e "$path" ]; then
			mkdir -p "$root$(dirname "$path")"
			cp -a "$path" "$root$path"
		fi
	done
}

# valgrind's memcheck, for the daemon's leak and error check in the guest
# (net_daemon.t): the tool, its preload objects and suppressions, and the
# loader's debug symbols (libc6-dbg), without which memcheck refuses to
# start on Debian.
VG_TOOL=/usr/libexec/valgrind
stage_valgrind() { # ROOT
	local root=$1 obj id dbg
	[ -x /usr/bin/valgrind.bin ] && [ -d "$VG_TOOL" ] || {
		diag "note: valgrind not installed on the host: the guest has none"
		return 0
	}
	stage_program "$root" /usr/bin/valgrind.bin	# for its libraries
	mkdir -p "$root/usr/bin"
	cp /usr/bin/valgrind /usr/bin/valgrind.bin "$root/usr/bin/"
	mkdir -p "$root$VG_TOOL"
	cp "$VG_TOOL"/{memcheck-amd64-linux,vgpreload_core-amd64-linux.so} \
		"$VG_TOOL"/{vgpreload_memcheck-amd64-linux.so,default.supp} \
		"$root$VG_TOOL/"
	for obj in /lib64/ld-linux-x86-64.so.2 /lib/x86_64-linux-gnu/libc.so.6; do
		id=$(readelf -n "$obj" | sed -n 's/.*Build ID: *//p')
		dbg=/usr/lib/debug/.build-id/${id:0:2}/${id:2}.debug
		[ -e "$dbg" ] || { diag "note: no $dbg (libc6-dbg): valgrind cannot start"; continue; }
		mkdir -p "$root$(dirname "$dbg")"
		cp "$dbg" "$root$dbg"
	done
}

stage_rootfs() { # VER ROOT KO BOOT TRANSPORT
	local ver=$1 root=$2 ko=$3
	rm -rf "$root"
	mkdir -p "$root"/{dev,proc,sys,tmp,run,etc,tests}
	stage_busybox "$root"
	stage_modules "$ver" "$root" "$ko"
	stage_programs "$root"
	stage_valgrind "$root"
	cp "$HERE/guest/init" "$root/init"
	cp "$HERE"/guest/*.sh "$REPO/systemd/60-mcast.rules" "${tests[@]}" "$root/tests/"
	cp "$REPO/utils/mcastpeers/peerslib.sh" "$root/tests/"
	cp -r "$REPO/docs/topologies" "$root/tests/"	# bed_switch.t's examples
	[ -z "${4:-}" ] || [ "${5:-}" = tcp ] || stage_tcp_also "$root" "$4"
	chmod 755 "$root/init"
}

# The guarantee tests (loss, failures and takeover, FIFO, failed lists,
# membership changes) run once more on TCP, as tcp-NAME.t, half of them in
# kernel's boots: all of them twice on every kernel would pass the CI
# budget.
# Those of TCP_FULL_ONLY (net_loss: 2.5 minutes on TCP; net_fail: 1.6,
# and net_transport, net_trust and net_hostile fail TCP peers in every
# run) only when the whole suite runs or the test is named.
TCP_ALSO=("net_fail net_loss net_streams net_failed_list net_flow" "net_fail_torus net_modes")
TCP_FULL_ONLY=(net_loss net_fail)
stage_tcp_also() { # ROOT K
	local name
	for name in $(tcp_set "$2"); do
		[ -e "$1/tests/$name.t" ] || continue
		printf '#!/bin/sh\n# %s on the TCP transport (tests/vm/run.sh)\n%s\n' \
			"$name.t" "MCASTBED_TRANSPORT=tcp exec sh /tests/$name.t" \
			> "$1/tests/tcp-$name.t"
	done
}

pack_initramfs() { # ROOT IMAGE
	(cd "$1" && find . | LC_ALL=C sort | cpio -o -H newc -R 0:0 --quiet) |
		gzip -1 > "$2"
}

# ------------------------------------------------------------------ boot

# The transport of the nodes mcastbed makes in boot number $1 (from 0).
# Every boot uses UDP; net_transport.t runs data rounds on TCP and the
# TCP_ALSO tests run again on TCP in every boot, and VM_TRANSPORT=tcp runs
# the whole suite on TCP (which takes longer: all-senders rounds on TCP
# are slower, see docs/transports.md).
TRANSPORTS=(udp)
transport_of_boot() {
	echo "${VM_TRANSPORT:-${TRANSPORTS[$(($1 % ${#TRANSPORTS[@]}))]}}"
}
boot() { # VER IMAGE LOG [TRANSPORT]
	timeout --kill-after=10 "$VM_TIMEOUT" "$QEMU" "${QEMU_ARGS[@]}" \
		-kernel "$KROOT/boot/vmlinuz-$1" -initrd "$2" \
		-append "$APPEND mcast_test_timeout=$TEST_TIMEOUT${4:+ mcast_transport=$4}$EXTRA_APPEND" \
		< /dev/null > "$3" 2>&1
}

# Numbers console.awk's records into our TAP stream.
emit_records() {
	local line kind rest
	while IFS= read -r line; do
		kind=${line%%$'\t'*}
		rest=${line#*$'\t'}
		case $kind in
		T) tap "${rest%%$'\t'*}" "${rest#*$'\t'}" ;;
		D) printf '%s\n' "$rest" ;;
		esac
	done
}

# The ten guest tests that took longest, from the guest's "ran" markers
# (what to look at when CI's hour gets tight).
slowest_tests() { # CONSOLE
	tr -d '\r' < "$1" |
		awk -v m="$MARK" '$1 == m && $2 == "ran" { print $5, $3 }' |
		sort -rn | awk 'NR <= 10 { printf "%s%s %d s", sep, $2, $1; sep = ", " }' || true
}

# ------------------------------------------------------------------ lanes
#
# The host has 2 cores and one TCG guest keeps about 1.4 of them busy, so
# the first kernel's suite (most of CI's hour) is split into VM_LANES
# boots that run side by side, each with its share of the tests; the other
# kernels' boots go to the lanes too.  A test's share is its duration in
# tests/vm/durations (longest first, onto the lane with the least work),
# so the lanes finish together.  A test and its TCP rerun (tcp-NAME.t
# runs NAME.t) stay in one boot.

VM_LANES=${VM_LANES:-$(($(nproc 2>/dev/null || echo 1) >= 2 ? 2 : 1))}
declare -A dur=()
# One boot's fixed cost (kernel boot, module load, report, power-off).
BOOT_SECS=30
DEFAULT_SECS=60

load_durations() {
	local name secs
	[ -r "$HERE/durations" ] || return 0
	while read -r name secs; do
		case $name in '' | '#'*) continue ;; esac
		dur[$name]=$secs
	done < "$HERE/durations"
}

# The TCP reruns kernel number K stages (see stage_tcp_also).
tcp_set() { # K
	local name
	for name in ${TCP_ALSO[$(($1 % ${#TCP_ALSO[@]}))]}; do
		if [ "${VM_FULL:-0}" != 1 ] && [ ${#tests_named[@]} -eq 0 ] &&
		   [[ " ${TCP_FULL_ONLY[*]} " == *" $name "* ]]; then
			continue
		fi
		echo "$name"
	done
}

# Seconds test file T is expected to take in kernel number K's boot, its
# TCP rerun included.
test_secs() { # T K
	local name secs
	name=$(basename "$1" .t)
	secs=${dur[$name]:-$DEFAULT_SECS}
	if [[ " $(tcp_set "$2" | tr '\n' ' ') " == *" $name "* ]]; then
		secs=$((secs + ${dur[tcp-$name]:-$DEFAULT_SECS}))
	fi
	echo "$secs"
}

# The boots: kernel number, lane and test files of each, in
# boot_{kernel,lane,tests}; the first kernel's tests are split over the
# lanes, the others' boots first fill the lanes from the last one.
boot_kernel=()
boot_lane=()
boot_tests=()
plan_boots() {
	local k n lane best t s secs load=() shard=() order
	n=$VM_LANES
	[ "$n" -ge 1 ] || n=1
	[ "$n" -le ${#all_tests[@]} ] || n=${#all_tests[@]}
	[ "$n" -ge 1 ] || n=1
	for ((lane = 0; lane < n; lane++)); do
		load[lane]=0
		shard[lane]=''
	done
	for ((k = 1; k < ${#kernels[@]}; k++)); do
		lane=$(((n - k % n) % n))
		secs=$BOOT_SECS
		for t in "${later_tests[@]}"; do
			secs=$((secs + $(test_secs "$t" "$k")))
		done
		load[lane]=$((load[lane] + secs))
	done
	# longest first, each onto the least loaded lane
	order=$(for t in "${all_tests[@]}"; do
		printf '%s %s\n' "$(test_secs "$t" 0)" "$t"
	done | sort -k1,1nr -k2,2)
	while read -r s t; do
		[ -n "$t" ] || continue
		best=0
		for ((lane = 1; lane < n; lane++)); do
			[ "${load[lane]}" -ge "${load[best]}" ] || best=$lane
		done
		load[best]=$((load[best] + s))
		shard[best]+="$t "
	done <<< "$order"
	for ((lane = 0; lane < n; lane++)); do
		[ -n "${shard[lane]}" ] || continue
		boot_kernel+=(0)
		boot_lane+=("$lane")
		# shellcheck disable=SC2086 # the shard's files
		boot_tests+=("$(printf '%s\n' ${shard[lane]} | sort | tr '\n' ' ')")
	done
	for ((k = 1; k < ${#kernels[@]}; k++)); do
		boot_kernel+=("$k")
		boot_lane+=($(((n - k % n) % n)))
		boot_tests+=("${later_tests[*]}")
	done
	for ((lane = 0; lane < n; lane++)); do
		diag "lane $((lane + 1)) of $n: about ${load[lane]} s of guest tests"
	done
}

# build/vm/VER/ holds kernel VER's module build; each boot's root,
# image and console log are NAME, NAME-I (the Ith of VER's boots) when VER
# has several.
boot_file() { # B NAME
	local b=$1 k i count=0 nth=0
	k=${boot_kernel[b]}
	for ((i = 0; i < ${#boot_kernel[@]}; i++)); do
		[ "${boot_kernel[i]}" != "$k" ] || count=$((count + 1))
		[ "$i" -gt "$b" ] || [ "${boot_kernel[i]}" != "$k" ] || nth=$((nth + 1))
	done
	if [ "$count" -gt 1 ]; then
		echo "$OUT/${kernels[k]}/${2%%.*}-$nth${2#"${2%%.*}"}"
	else
		echo "$OUT/${kernels[k]}/$2"
	fi
}

# Builds kernel number K's module; 1 if it does not build.
built=()
prepare_kernel() { # K
	local k=$1 ver=${kernels[$1]}
	mkdir -p "$OUT/$ver"
	if build_module "$ver" "$OUT/$ver"; then
		built[k]=1
	else
		built[k]=0
	fi
}

prepare_boot() { # B
	local b=$1 k ver tp
	k=${boot_kernel[b]}
	ver=${kernels[k]}
	tp=$(transport_of_boot "$k")
	# shellcheck disable=SC2206
	tests=(${boot_tests[b]})
	diag "[$ver] boot $((b + 1)) of ${#boot_kernel[@]}, lane $((boot_lane[b] + 1)): ${#tests[@]} of ${#all_tests[@]} guest tests"
	stage_rootfs "$ver" "$(boot_file "$b" root)" "$OUT/$ver/mcast.ko" "$k" "$tp"
	pack_initramfs "$(boot_file "$b" root)" "$(boot_file "$b" initramfs.cpio.gz)"
}

# One lane's boots, one after the other; each boot's QEMU status and
# start and end times go to console-status files beside its log.
run_lane() { # LANE
	local b k qrc t0 t1 tp
	for ((b = 0; b < ${#boot_kernel[@]}; b++)); do
		[ "${boot_lane[b]}" = "$1" ] || continue
		k=${boot_kernel[b]}
		[ "${built[k]}" = 1 ] || continue
		tp=$(transport_of_boot "$k")
		qrc=0
		t0=$(now_ms)
		boot "${kernels[k]}" "$(boot_file "$b" initramfs.cpio.gz)" \
			"$(boot_file "$b" console.log)" "$tp" || qrc=$?
		t1=$(now_ms)
		echo "$qrc $t0 $t1" > "$(boot_file "$b" console.status)"
	done
}

report_boot() { # B
	local b=$1 k ver log qrc=1 t0=0 t1=0 tp failed_before=$nfailed
	k=${boot_kernel[b]}
	[ "${built[k]}" = 1 ] || return 0
	ver=${kernels[k]}
	tp=$(transport_of_boot "$k")
	log=$(boot_file "$b" console.log)
	[ ! -r "$(boot_file "$b" console.status)" ] ||
		read -r qrc t0 t1 < "$(boot_file "$b" console.status)"
	diag "[$ver] boot $((b + 1)) of ${#boot_kernel[@]}, mcastbed's nodes on $tp; console: $log"
	emit_records < <(awk -v ver="$ver" -v mark="$MARK" -v bad="$BAD_LOG" \
		-v qrc="$qrc" -v timeout="$VM_TIMEOUT" -v logfile="$log" \
		-f "$HERE/console.awk" "$log")
	timings+=("[$ver, $tp, boot $((b + 1)), lane $((boot_lane[b] + 1))] boot, tests and power-off: $(((t1 - t0) / 1000)).$(((t1 - t0) % 1000 / 100)) s")
	timings+=("[$ver, boot $((b + 1))] slowest tests: $(slowest_tests "$log")")
	if [ "$keep" = 0 ] && [ "$nfailed" = "$failed_before" ]; then
		rm -rf "$(boot_file "$b" root)" "$(boot_file "$b" initramfs.cpio.gz)"
	fi
}

run_boots() {
	local k b lane pids=()
	load_durations
	plan_boots
	for ((k = 0; k < ${#kernels[@]}; k++)); do
		prepare_kernel "$k"
	done
	for ((b = 0; b < ${#boot_kernel[@]}; b++)); do
		[ "${built[${boot_kernel[b]}]}" = 1 ] || continue
		rm -f "$(boot_file "$b" console.status)"
		prepare_boot "$b"
	done
	for lane in $(printf '%s\n' "${boot_lane[@]}" | sort -u); do
		run_lane "$lane" &
		pids+=($!)
	done
	for b in "${pids[@]}"; do
		wait "$b" || true
	done
	for ((b = 0; b < ${#boot_kernel[@]}; b++)); do
		report_boot "$b"
	done
}

# Boots the first kernel with the tests in /tests and a shell on this
# terminal; no timeout, no TAP.
run_shell() {
	local ver=${kernels[0]} dir=$OUT/${kernels[0]}
	[ ${#kernels[@]} -eq 1 ] || echo "booting $ver (choose with --kernel)" >&2
	mkdir -p "$dir"
	make -C "$REPO" userspace > "$OUT/userspace.log" 2>&1 ||
		echo "warning: make userspace failed, see $OUT/userspace.log" >&2
	build_module "$ver" "$dir" > /dev/null || die "mcast.ko does not build: $dir/build.log"
	stage_rootfs "$ver" "$dir/root" "$dir/mcast.ko"
	pack_initramfs "$dir/root" "$dir/initramfs.cpio.gz"
	exec "$QEMU" "${QEMU_ARGS[@]}" -kernel "$KROOT/boot/vmlinuz-$ver" \
		-initrd "$dir/initramfs.cpio.gz" \
		-append "$APPEND mcast_shell=1"
}

# bench-peers' knobs from our environment onto the guest's kernel command
# line (the kernel hands NAME=VALUE words to init as environment).
peers_knobs() {
	local k v
	for k in PEERS_TOPOS PEERS_SIZES PEERS_ITERS PEERS_WARMUP PEERS_OMPI_ALGOS \
		PEERS_MCAST_METHODS PEERS_ONLY PEERS_TBF PEERS_ANATOMY PEERS_TIPC_FILTER; do
		v=${!k:-}
		[ -z "$v" ] || EXTRA_APPEND+=" $k=$v"
	done
}

# bench-peers' results on the host: the CSV the guest printed between its
# markers, and a plot of it (gnuplot, if installed).
peers_results() { # DIR
	local dir=$1 csv=$REPO/build/bench-peers/peers.csv
	mkdir -p "$REPO/build/bench-peers"
	cp "$dir/output.txt" "$REPO/build/bench-peers/output.txt"
	awk '/^==== peers CSV begin/ { on = 1; next } /^==== peers CSV end/ { on = 0 } on' \
		"$dir/output.txt" > "$csv"
	echo "mcast bench_peers: CSV in $csv" >&2
	if [ "$(wc -l < "$csv")" -gt 1 ]; then
		"$REPO/utils/mcastpeers/plot.sh" "$csv" "$REPO/build/bench-peers" >&2 ||
			echo "mcast bench_peers: no plot" >&2
	fi
}

# Boots the first kernel with tests/vm/$demo.sh as its only test
# (guest/init runs /tests/*.t and prints their output and the kernel log
# between its markers), then prints the script's output and checks the
# kernel log.
run_demo() {
	local ver=${kernels[0]} dir=$OUT/$demo qrc=0 rc bad
	[ ${#kernels[@]} -eq 1 ] || echo "booting $ver (choose with --kernel)" >&2
	mkdir -p "$dir"
	echo "mcast $demo: building the programs and mcast.ko for $ver" >&2
	make -C "$REPO" userspace > "$OUT/userspace.log" 2>&1 ||
		die "make userspace failed, see $OUT/userspace.log"
	build_module "$ver" "$dir" > /dev/null || die "mcast.ko does not build: $dir/build.log"
	tests=()
	stage_rootfs "$ver" "$dir/root" "$dir/mcast.ko"
	cp "$HERE/$demo.sh" "$dir/root/tests/$demo.t"
	pack_initramfs "$dir/root" "$dir/initramfs.cpio.gz"
	echo "mcast $demo: booting Linux $ver under QEMU (TCG); console: $dir/console.log" >&2
	boot "$ver" "$dir/initramfs.cpio.gz" "$dir/console.log" || qrc=$?
	tr -d '\r' < "$dir/console.log" > "$dir/console.txt"
	awk -v m="$MARK" -v d="$demo" '
		$0 == m " TEST " d ".t" { on = 1; next }
		index($0, m " TEST-END " d ".t") == 1 { on = 0 }
		on' "$dir/console.txt" | tee "$dir/output.txt"
	[ "$demo" != bench_peers ] || peers_results "$dir"
	rc=$(sed -n "s/^$MARK TEST-END $demo.t rc=\([0-9]*\).*/\1/p" "$dir/console.txt")
	if [ -z "$rc" ]; then
		echo "mcast $demo: the guest did not finish (QEMU status $qrc); see $dir/console.log" >&2
		tail -n 20 "$dir/console.txt" >&2
		exit 1
	fi
	bad=$(awk -v m="$MARK" '$0 == m " DMESG-BEGIN" { on = 1; next }
		$0 == m " DMESG-END" { on = 0 } on' "$dir/console.txt" | grep -E "$BAD_LOG" || true)
	if [ -n "$bad" ]; then
		echo "mcast $demo: the guest kernel log reports a problem:" >&2
		printf '%s\n' "$bad" >&2
		exit 1
	fi
	echo "mcast $demo: done (guest kernel log clean)" >&2
	[ "$rc" = 0 ] || exit 1
	exit 0
}

main() {
	local ver t0
	parse_args "$@"
	# make debugcheck names its kernel and tests through the environment
	# (tests/run.sh runs this script without arguments)
	[ ${#kernels[@]} -gt 0 ] || [ -z "${VM_KERNEL:-}" ] || kernels=("$VM_KERNEL")
	# shellcheck disable=SC2206
	[ ${#tests[@]} -gt 0 ] || [ -z "${VM_TEST_NAMES:-}" ] || tests=($VM_TEST_NAMES)
	select_tests
	preflight
	mkdir -p "$OUT"
	# One run at a time: builds share the repo root and build/vm.
	exec 9> "$OUT/.lock"
	flock 9

	if [ "$shell" = 1 ]; then
		run_shell
	fi
	if [ -n "$demo" ]; then
		[ "$demo" != bench_peers ] || peers_knobs
		[ "$demo" != bench ] || [ -z "${BENCH_ONLY:-}" ] ||
			EXTRA_APPEND+=" BENCH_ONLY=$BENCH_ONLY"
		[ "$demo" != bench_daemon ] || [ -z "${DAEMON_JOINS:-}" ] ||
			EXTRA_APPEND+=" DAEMON_JOINS=$DAEMON_JOINS"
		[ "$demo" != bench_daemon ] || [ -z "${DAEMON_REST_S:-}" ] ||
			EXTRA_APPEND+=" DAEMON_REST_S=$DAEMON_REST_S"
		[ "$demo" != bench_daemon ] || [ -z "${DAEMON_TOPOS:-}" ] ||
			EXTRA_APPEND+=" DAEMON_TOPOS=$DAEMON_TOPOS"
		local v
		for v in BENCH_CUBE_DIM BENCH_CUBE_SIZES BENCH_CUBE_ITERS BENCH_CUBE_RING_RATE; do
			[ "$demo" != bench_cube ] || [ -z "${!v:-}" ] ||
				EXTRA_APPEND+=" $v=${!v}"
		done
		for v in BENCH_RB_TOPO BENCH_RB_SIZES BENCH_RB_ITERS BENCH_RB_RATE; do
			[ "$demo" != bench_rb ] || [ -z "${!v:-}" ] ||
				EXTRA_APPEND+=" $v=${!v}"
		done
		for v in BENCH_FABRIC_TOPO BENCH_FABRIC_M BENCH_FABRIC_FLITS BENCH_FABRIC_ALGOS; do
			[ "$demo" != bench_fabric ] || [ -z "${!v:-}" ] ||
				EXTRA_APPEND+=" $v=${!v}"
		done
		run_demo
	fi
	# Tests that trim their scale for CI's hour see the whole suite's wish.
	[ "${VM_FULL:-0}" != 1 ] || EXTRA_APPEND+=" mcast_full=1"
	# net_fuzz_auth's seed and length, to repeat or stretch a run.
	for v in FUZZ_SEED FUZZ_SECS; do
		[ -z "${!v:-}" ] || EXTRA_APPEND+=" $v=${!v}"
	done
	# A slow kernel's (make debugcheck's): receivers wait that much longer.
	[ -z "${VM_TIME_SCALE:-}" ] || EXTRA_APPEND+=" mcast_time_scale=$VM_TIME_SCALE"
	# Where a test spends its time: the guest's uptime on each result.
	[ "${VM_TAP_TIMES:-0}" != 1 ] || EXTRA_APPEND+=" mcast_tap_times=1"
	t0=$(now_ms)
	build_userspace
	run_boots
	echo "1..$ntests"
	diag "${timings[@]}" "whole run: $((($(now_ms) - t0) / 1000)) s"
	[ "$nfailed" -eq 0 ] || exit 1
}

main "$@"
