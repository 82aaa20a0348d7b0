// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * mcastd's log (log.h).
 */
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "log.h"

int mcd_log_level = LOG_L_NOTICE;
bool mcd_log_time;
static bool to_journal;

/* systemd sets JOURNAL_STREAM when stderr is connected to the journal. */
void mcd_log_init(void)
{
	to_journal = getenv("JOURNAL_STREAM") != NULL;
}

void mcd_log(int level, const char *fmt, ...)
{
	static const char *const names[] = {
		[LOG_L_ERR] = "error", [LOG_L_WARN] = "warning",
		[LOG_L_NOTICE] = "notice", [LOG_L_INFO] = "info",
		[LOG_L_DEBUG] = "debug",
	};
	va_list ap;

	if (level > mcd_log_level)
		return;
	if (to_journal)
		fprintf(stderr, "<%d>", level);
	if (mcd_log_time) {
		struct timespec ts;

		clock_gettime(CLOCK_MONOTONIC, &ts);
		fprintf(stderr, "[%lld.%06ld] ", (long long)ts.tv_sec,
			ts.tv_nsec / 1000);
	}
	if (!to_journal)
		fprintf(stderr, "mcastd: %s: ", names[level]);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}
