/* SPDX-License-Identifier: MIT */
#pragma once

/*
 * Time specifications as `journalctl --since` accepts them (systemd.time(7)):
 * "2026-11-20 10:00[:00[.123456]]", "2026-11-20", "10:00", "today",
 * "yesterday", "tomorrow", "now", "-1h", "+30min", "1h ago", "@1790000000",
 * an optional trailing " UTC" -- plus, our documented extension, a bare span
 * such as "1h", "30m" or "2d" meaning that long ago.
 *
 * now_usec is captured once per invocation so that --since and --until agree.
 * Local times use the process's time zone (TZ).
 */

#include <stdint.h>

/* Returns 0 and the CLOCK_REALTIME time in microseconds, or -EINVAL. */
int parse_time_spec(const char *s, int64_t now_usec, int64_t *ret_usec);

/* A span such as "1h30min", "90s", "2d" ("m" is minutes); returns 0 or -EINVAL. */
int parse_time_span(const char *s, int64_t *ret_usec);
