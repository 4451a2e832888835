/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

#include "log.h"

static int max_level = LOG_INFO;
static bool prefix_priority;

void log_set_max_level(int level)
{
	max_level = level;
}

int log_get_max_level(void)
{
	return max_level;
}

void log_open(void)
{
	/* systemd sets JOURNAL_STREAM when stderr is connected to journald. */
	prefix_priority = getenv("JOURNAL_STREAM") != NULL;
}

int log_internal(int level, int error, const char *fmt, ...)
{
	char buf[2048];
	va_list ap;
	int saved = errno;

	if (level > max_level)
		return error < 0 ? error : -error;
	/* %m must describe the error we were given, not whatever errno holds now. */
	if (error)
		errno = error < 0 ? -error : error;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	/*
	 * Records may be going to standard output (--output json) on the same
	 * terminal: what it holds goes out first, so that this line never lands
	 * inside one of them.  The JSON sink writes whole lines, so it holds
	 * whole lines here.
	 */
	fflush(stdout);
	if (prefix_priority)
		fprintf(stderr, "<%d>%s\n", level, buf);
	else
		fprintf(stderr, "mcelogd: %s\n", buf);
	errno = saved;
	return error < 0 ? error : -error;
}
