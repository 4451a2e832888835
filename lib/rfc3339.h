/* SPDX-License-Identifier: MIT */
#pragma once

/* RFC 3339 timestamps, the form the record contract's "time" key uses. */

#include <stddef.h>
#include <stdint.h>

#define RFC3339_MAX 40

/* "2026-11-20T10:00:00.123456Z" (always UTC, always microseconds). */
int format_rfc3339_usec(char *buf, size_t size, int64_t usec);

/*
 * Accepts "YYYY-MM-DDTHH:MM:SS[.frac](Z|+HH:MM|-HH:MM)", 'T' or ' ' between
 * date and time, up to 9 fraction digits (truncated to microseconds).
 * Returns 0 or -EINVAL.
 */
int parse_rfc3339_usec(const char *s, int64_t *ret_usec);

/* Days since 1970-01-01 of a proleptic Gregorian date (y, m 1-12, d 1-31), for any year. */
int64_t days_from_civil(int64_t y, unsigned m, unsigned d);
