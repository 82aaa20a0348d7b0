// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * How mcastctl's configuration commands report a bad request: one line,
 * "mcastctl: WHAT: ...", and the exit status that says what kind.
 */
#include <stdarg.h>
#include <stdio.h>

#include "mcastctl.h"

static int vreport(int status, const char *what, const char *fmt,
		   va_list ap)
{
	fprintf(stderr, "mcastctl: %s: ", what);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	return status;
}

/* Unknown, missing or conflicting words: exit status 2. */
__attribute__((format(printf, 2, 3)))
int usage_err(const char *what, const char *fmt, ...)
{
	va_list ap;
	int status;

	va_start(ap, fmt);
	status = vreport(MCASTCTL_EUSAGE, what, fmt, ap);
	va_end(ap);
	return status;
}

/* A value that is wrong, a file that cannot be read: exit status 1. */
__attribute__((format(printf, 2, 3)))
int input_err(const char *what, const char *fmt, ...)
{
	va_list ap;
	int status;

	va_start(ap, fmt);
	status = vreport(MCASTCTL_EINPUT, what, fmt, ap);
	va_end(ap);
	return status;
}

int nomem(const char *what)
{
	return input_err(what, "out of memory");
}
