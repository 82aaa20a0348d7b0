/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * systemd's notification protocol (sd_notify(3)) without libsystemd: a
 * datagram to $NOTIFY_SOCKET, and the watchdog period systemd asks for.
 */
#ifndef MCASTD_SDNOTIFY_H
#define MCASTD_SDNOTIFY_H

#include <stdint.h>

/* Send "READY=1", "STATUS=...", "WATCHDOG=1"...; no-op without systemd. */
__attribute__((format(printf, 1, 2)))
int mcd_sd_notify(const char *fmt, ...);
/* Half of $WATCHDOG_USEC in ms (0: no watchdog), if meant for this pid. */
uint64_t mcd_sd_watchdog_ms(void);

#endif /* MCASTD_SDNOTIFY_H */
