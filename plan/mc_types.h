/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * Fixed-width types and errno values for the planning core.
 *
 * The planning core is compiled into mcast.ko and into every userspace
 * program, so it uses no libc function: only these types, and errno
 * constants from whichever side it is built on.
 */
#ifndef MC_TYPES_H
#define MC_TYPES_H

#ifdef __KERNEL__
#include <linux/types.h>
#include <linux/errno.h>
#include <linux/stddef.h>
#include <linux/limits.h>
#include <linux/export.h>
/* For the other modules of ours (the simulated fabric). */
#define MC_EXPORT(sym) EXPORT_SYMBOL_GPL(sym)
#include <linux/bitops.h>
/* Set bits (the kernel has no libgcc to lower the builtin on every arch). */
#define mc_popcount32(x) hweight32(x)
#else
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <errno.h>

typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;
typedef int8_t s8;
typedef int32_t s32;
typedef int64_t s64;

#ifndef U64_MAX
#define U64_MAX UINT64_MAX
#endif
#define MC_EXPORT(sym) struct mc_export_##sym
#define mc_popcount32(x) __builtin_popcount(x)
#endif

#endif /* MC_TYPES_H */
