/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * mcastd's log: one line per event on stderr, with a syslog priority
 * prefix ("<4>") that journald reads when stderr is its stream, and
 * "mcastd: warning: " otherwise.
 */
#ifndef MCASTD_LOG_H
#define MCASTD_LOG_H

enum {
	LOG_L_ERR = 3,
	LOG_L_WARN = 4,
	LOG_L_NOTICE = 5,
	LOG_L_INFO = 6,
	LOG_L_DEBUG = 7,
};

#include <stdbool.h>

extern int mcd_log_level;	/* print up to this priority (default 5) */
extern bool mcd_log_time;	/* prefix CLOCK_MONOTONIC (--log-time) */

void mcd_log_init(void);
__attribute__((format(printf, 2, 3)))
void mcd_log(int level, const char *fmt, ...);

#define log_err(...)	mcd_log(LOG_L_ERR, __VA_ARGS__)
#define log_warn(...)	mcd_log(LOG_L_WARN, __VA_ARGS__)
#define log_notice(...)	mcd_log(LOG_L_NOTICE, __VA_ARGS__)
#define log_info(...)	mcd_log(LOG_L_INFO, __VA_ARGS__)
#define log_debug(...)	mcd_log(LOG_L_DEBUG, __VA_ARGS__)

#endif /* MCASTD_LOG_H */
