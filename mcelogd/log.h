/* SPDX-License-Identifier: MIT */
#pragma once

/*
 * The daemon's own diagnostics (not machine-check records: those go through
 * the sinks).  Written to stderr; under systemd (JOURNAL_STREAM set) each line
 * carries a "<N>" syslog priority prefix so journald files it at the right
 * level.  Functions that return an error log it and return it in one step:
 *	return log_error_errno(r, "Failed to open %s: %m", path);
 */

#include <syslog.h>

#include "macro.h"

void log_set_max_level(int level);
int log_get_max_level(void);
void log_open(void);

_printf_(3, 4)
int log_internal(int level, int error, const char *fmt, ...);

#define log_debug(...)   log_internal(LOG_DEBUG, 0, __VA_ARGS__)
#define log_info(...)    log_internal(LOG_INFO, 0, __VA_ARGS__)
#define log_notice(...)  log_internal(LOG_NOTICE, 0, __VA_ARGS__)
#define log_warning(...) log_internal(LOG_WARNING, 0, __VA_ARGS__)
#define log_error(...)   log_internal(LOG_ERR, 0, __VA_ARGS__)

/* %m in fmt prints strerror(-error); the negative error is returned. */
#define log_warning_errno(e, ...) log_internal(LOG_WARNING, (e), __VA_ARGS__)
#define log_error_errno(e, ...)   log_internal(LOG_ERR, (e), __VA_ARGS__)
#define log_notice_errno(e, ...)  log_internal(LOG_NOTICE, (e), __VA_ARGS__)
#define log_debug_errno(e, ...)   log_internal(LOG_DEBUG, (e), __VA_ARGS__)
