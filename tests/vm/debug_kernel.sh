#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# The debug kernel of `make debugcheck`: Debian's 6.1 (linux-source-6.1)
# with KASAN, KMEMLEAK, PROVE_LOCKING, DEBUG_ATOMIC_SLEEP, DEBUG_OBJECTS
# and UBSAN, on x86_64_defconfig plus what the VM tests load (as modules,
# as Debian has them).  Built once under build/debug-kernel/ (half an
# hour on 2 cores; later runs reuse it), then installed as
# build/debug-kernel/root/{boot/vmlinuz-REL,lib/modules/REL} (its build
# link to the tree), so that VM_KERNEL_ROOT=build/debug-kernel/root
# tests/vm/run.sh --kernel REL boots it.  Prints REL.  Needs flex, bison,
# bc, libelf-dev and libssl-dev.

set -euo pipefail

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
OUT=$REPO/build/debug-kernel
# Installed here, not in /boot and /lib/modules: the host's own kernel list
# (what make check boots) stays Debian's.
ROOT=$OUT/root
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
# KASAN_INLINE: checks inlined, not calls (a larger kernel, the tests
# run faster under TCG).
DEBUG_Y=(KASAN KASAN_GENERIC KASAN_INLINE DEBUG_KMEMLEAK PROVE_LOCKING DEBUG_ATOMIC_SLEEP
	DEBUG_OBJECTS DEBUG_OBJECTS_TIMERS DEBUG_OBJECTS_WORK UBSAN
	DEBUG_INFO_NONE)
DEBUG_N=(KASAN_OUTLINE DEBUG_KMEMLEAK_DEFAULT_OFF MODULE_SIG DRM SOUND USB_SUPPORT WLAN
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
	for c in KASAN KASAN_INLINE DEBUG_KMEMLEAK PROVE_LOCKING UBSAN; do
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
	if [ ! -f "$ROOT/boot/vmlinuz-$rel" ] ||
	   [ "$src/arch/x86/boot/bzImage" -nt "$ROOT/boot/vmlinuz-$rel" ]; then
		log "installing $rel under $ROOT"
		make -C "$src" -s INSTALL_MOD_PATH="$ROOT" modules_install >&2
		mkdir -p "$ROOT/boot"
		cp "$src/arch/x86/boot/bzImage" "$ROOT/boot/vmlinuz-$rel"
	fi
	echo "$rel"
}

main "$@"
