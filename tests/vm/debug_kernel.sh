#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# The debug kernel of `make debugcheck`: Debian's 6.1 (linux-source-6.1)
# with KASAN, KMEMLEAK, PROVE_LOCKING, DEBUG_ATOMIC_SLEEP, DEBUG_OBJECTS
# and UBSAN, on x86_64_defconfig plus what the VM tests load (as modules,
# as Debian has them).  Built once under build/debug-kernel/ (about an
# hour on 2 cores; later runs reuse it), then installed as
# /boot/vmlinuz-REL and /lib/modules/REL (its build link to the tree), so
# that tests/vm/run.sh --kernel REL boots it like any installed kernel.
# Prints REL.  Needs flex, bison, bc, libelf-dev, libssl-dev and root.

set -euo pipefail

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
OUT=$REPO/build/debug-kernel
TARBALL=${DEBUG_KERNEL_SOURCE:-/usr/src/linux-source-6.1.tar.xz}
JOBS=$(nproc 2>/dev/null || echo 2)

log() {
	echo "debug kernel: $*" >&2
}

# What the VM tests modprobe (tests/vm/run.sh IN_TREE_MODULES) and what
# their namespaces, queues and tools need.
NEEDED_M=(VETH BRIDGE NET_SCH_NETEM NET_SCH_TBF NET_SCH_PRIO NET_CLS_U32
	NET_ACT_GACT TIPC DUMMY NET_9P NET_9P_VIRTIO 9P_FS CRYPTO_USER_API_HASH)
NEEDED_Y=(NET_SCHED NET_CLS NET_CLS_ACT NAMESPACES NET_NS USER_NS PID_NS
	IPV6 VIRTIO_PCI IO_URING BLK_DEV_INITRD RD_GZIP DEVTMPFS
	SERIAL_8250_CONSOLE CRYPTO_HMAC CRYPTO_SHA256 MODULES MODULE_UNLOAD)
# The checkers, and what keeps the kernel small and its build short.
DEBUG_Y=(KASAN KASAN_GENERIC DEBUG_KMEMLEAK PROVE_LOCKING DEBUG_ATOMIC_SLEEP
	DEBUG_OBJECTS DEBUG_OBJECTS_TIMERS DEBUG_OBJECTS_WORK UBSAN
	DEBUG_INFO_NONE)
DEBUG_N=(DEBUG_KMEMLEAK_DEFAULT_OFF MODULE_SIG DRM SOUND USB_SUPPORT WLAN
	WIRELESS)

src_dir() {
	echo "$OUT/$(basename "$TARBALL" .tar.xz)"
}

configure() { # SRC
	local c
	make -C "$1" -s x86_64_defconfig
	for c in "${NEEDED_M[@]}"; do "$1/scripts/config" --file "$1/.config" --module "$c"; done
	for c in "${NEEDED_Y[@]}" "${DEBUG_Y[@]}"; do "$1/scripts/config" --file "$1/.config" --enable "$c"; done
	for c in "${DEBUG_N[@]}"; do "$1/scripts/config" --file "$1/.config" --disable "$c"; done
	"$1/scripts/config" --file "$1/.config" --set-str LOCALVERSION -mcast-debug
	make -C "$1" -s olddefconfig
	for c in KASAN DEBUG_KMEMLEAK PROVE_LOCKING UBSAN; do
		grep -q "^CONFIG_$c=y" "$1/.config" || { log "CONFIG_$c did not stay on"; exit 1; }
	done
}

main() {
	local src rel
	mkdir -p "$OUT"
	src=$(src_dir)
	if [ ! -f "$src/Makefile" ]; then
		log "unpacking $TARBALL"
		tar -xJf "$TARBALL" -C "$OUT"
	fi
	[ -f "$src/.config" ] || configure "$src"
	log "building in $src (-j$JOBS; the first build takes long)"
	make -C "$src" -s -j"$JOBS" bzImage modules >&2
	rel=$(make -C "$src" -s kernelrelease)
	if [ ! -f "/boot/vmlinuz-$rel" ] || [ "$src/arch/x86/boot/bzImage" -nt "/boot/vmlinuz-$rel" ]; then
		log "installing $rel"
		make -C "$src" -s INSTALL_MOD_PATH=/ modules_install >&2
		cp "$src/arch/x86/boot/bzImage" "/boot/vmlinuz-$rel"
	fi
	echo "$rel"
}

main "$@"
