// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * sd_notify without libsystemd (sdnotify.h).
 */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/socket.h>
#include <sys/un.h>

#include "sdnotify.h"

int mcd_sd_notify(const char *fmt, ...)
{
	const char *path = getenv("NOTIFY_SOCKET");
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	char buf[512];
	socklen_t len;
	va_list ap;
	int fd, n;

	if (!path || !path[0] || strlen(path) >= sizeof(sa.sun_path))
		return 0;
	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= sizeof(buf))
		return -EINVAL;
	memcpy(sa.sun_path, path, strlen(path));
	if (sa.sun_path[0] == '@')	/* an abstract socket */
		sa.sun_path[0] = 0;
	len = offsetof(struct sockaddr_un, sun_path) + strlen(path);
	fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	n = sendto(fd, buf, n, MSG_NOSIGNAL, (struct sockaddr *)&sa, len);
	close(fd);
	return n < 0 ? -errno : 0;
}

uint64_t mcd_sd_watchdog_ms(void)
{
	const char *us = getenv("WATCHDOG_USEC"), *pid = getenv("WATCHDOG_PID");

	if (!us)
		return 0;
	if (pid && strtol(pid, NULL, 10) != getpid())
		return 0;
	return strtoull(us, NULL, 10) / 2000;
}
