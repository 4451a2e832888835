/* SPDX-License-Identifier: MIT */
/* parse_time_spec / parse_time_span: the journalctl --since grammar, under TZ=UTC and a real zone. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>
#include <cmocka.h>

#include "timespec.h"

#define SEC INT64_C(1000000)
/* 2026-11-20 15:30:45.250000 UTC, a Friday */
#define NOW (INT64_C(1795188645) * SEC + 250000)
#define MIDNIGHT (INT64_C(1795132800) * SEC)

static void set_tz(const char *tz)
{
	setenv("TZ", tz, 1);
	tzset();
}

static int64_t spec(const char *s)
{
	int64_t v = -1;

	assert_int_equal(parse_time_spec(s, NOW, &v), 0);
	return v;
}

static void bad_spec(const char *s)
{
	int64_t v = 12345;

	assert_int_equal(parse_time_spec(s, NOW, &v), -EINVAL);
	assert_true(v == 12345);    /* not clobbered on failure */
}

static void absolute(void **state)
{
	(void) state;
	set_tz("UTC");
	assert_true(spec("2026-11-20 10:00") == MIDNIGHT + 10 * 3600 * SEC);
	assert_true(spec("2026-11-20 10:00:00.5") == MIDNIGHT + 10 * 3600 * SEC + 500000);
	assert_true(spec("2026-11-20T10:00:07") == MIDNIGHT + (10 * 3600 + 7) * SEC);
	assert_true(spec("2026-11-20") == MIDNIGHT);
	assert_true(spec("  2026-11-20 10:00 UTC ") == MIDNIGHT + 10 * 3600 * SEC);
	assert_true(spec("10:00") == MIDNIGHT + 10 * 3600 * SEC);
	assert_true(spec("10:00:01.123456789") == MIDNIGHT + (10 * 3600 + 1) * SEC + 123456);
	assert_true(spec("Fri 2026-11-20") == MIDNIGHT);
	assert_true(spec("friday 2026-11-20 01:00") == MIDNIGHT + 3600 * SEC);
	assert_true(spec("2024-02-29") == INT64_C(1709164800) * SEC);
	bad_spec("Mon 2026-11-20");
	bad_spec("2026-02-29");
	bad_spec("2026-13-01");
	bad_spec("2026-11-20 24:00");
	bad_spec("2026-11-20 10:60");
	bad_spec("2026-11-20 10");
	bad_spec("2026-11-20X10:00");
	bad_spec("10:00:00.");
	bad_spec("");
	bad_spec("garbage");
}

static void keywords(void **state)
{
	(void) state;
	set_tz("UTC");
	assert_true(spec("now") == NOW);
	assert_true(spec("today") == MIDNIGHT);
	assert_true(spec("yesterday") == MIDNIGHT - 86400 * SEC);
	assert_true(spec("tomorrow") == MIDNIGHT + 86400 * SEC);
	assert_true(spec("today UTC") == MIDNIGHT);
	assert_true(spec("@1790000000") == INT64_C(1790000000) * SEC);
	assert_true(spec("@1790000000.25") == INT64_C(1790000000) * SEC + 250000);
	bad_spec("@");
	bad_spec("@-5");
	bad_spec("@1h");
	bad_spec("Today");
}

static void relative(void **state)
{
	(void) state;
	set_tz("UTC");
	assert_true(spec("-1h") == NOW - 3600 * SEC);
	assert_true(spec("+3h30min") == NOW + (3 * 3600 + 30 * 60) * SEC);
	assert_true(spec("1h ago") == NOW - 3600 * SEC);
	assert_true(spec("2 days ago") == NOW - 2 * 86400 * SEC);
	/* our extension: a bare span means that long ago */
	assert_true(spec("1h") == NOW - 3600 * SEC);
	assert_true(spec("30m") == NOW - 30 * 60 * SEC);
	assert_true(spec("2d") == NOW - 2 * 86400 * SEC);
	assert_true(spec("1.5h") == NOW - 5400 * SEC);
	bad_spec("5");             /* a bare number is ambiguous */
	bad_spec("-");
	bad_spec("1h ago ago");
	bad_spec("-1x");
	bad_spec("-99999999999999999999h");
	bad_spec("-3000000y");     /* beyond int64 microseconds */
}

static void spans(void **state)
{
	int64_t v;

	(void) state;
	assert_int_equal(parse_time_span("90s", &v), 0);
	assert_true(v == 90 * SEC);
	assert_int_equal(parse_time_span("1h30min", &v), 0);
	assert_true(v == 5400 * SEC);
	assert_int_equal(parse_time_span("1h 30m", &v), 0);
	assert_true(v == 5400 * SEC);
	assert_int_equal(parse_time_span("5 min", &v), 0);
	assert_true(v == 300 * SEC);
	assert_int_equal(parse_time_span("2w", &v), 0);
	assert_true(v == 14 * 86400 * SEC);
	assert_int_equal(parse_time_span("1M", &v), 0);
	assert_true(v == INT64_C(2629800) * SEC);      /* systemd: 30.44 days */
	assert_int_equal(parse_time_span("1y", &v), 0);
	assert_true(v == INT64_C(31557600) * SEC);     /* systemd: 365.25 days */
	assert_int_equal(parse_time_span("1month", &v), 0);
	assert_true(v == INT64_C(2629800) * SEC);
	assert_int_equal(parse_time_span("3hr", &v), 0);
	assert_true(v == 3 * 3600 * SEC);
	assert_int_equal(parse_time_span("250ms 10us", &v), 0);
	assert_true(v == 250010);
	assert_int_equal(parse_time_span("1sec", &v), 0);
	assert_true(v == SEC);
	assert_int_equal(parse_time_span("7", &v), 0);  /* systemd: seconds */
	assert_true(v == 7 * SEC);
	assert_int_equal(parse_time_span("", &v), -EINVAL);
	assert_int_equal(parse_time_span("h", &v), -EINVAL);
	assert_int_equal(parse_time_span("1h 5", &v), -EINVAL);
	assert_int_equal(parse_time_span("1 fortnight", &v), -EINVAL);
	assert_int_equal(parse_time_span("-1h", &v), -EINVAL);
	assert_int_equal(parse_time_span(".", &v), -EINVAL);
	/* a whole just under the limit, tipped over by its fraction: refused, not
	 * overflowed (found by fuzz-timespec; UBSan names the overflow) */
	assert_int_equal(parse_time_span("292271y", &v), 0);
	assert_int_equal(parse_time_span("292271.1y", &v), -EINVAL);
	assert_int_equal(parse_time_span("1y29221y29221y29221y292271.1y", &v), -EINVAL);
}

static void local_zone(void **state)
{
	(void) state;
	if (access("/usr/share/zoneinfo/Europe/Berlin", R_OK) < 0)
		skip();     /* no tzdata: TZ would silently fall back to UTC */
	/* local times follow TZ; UTC suffix does not */
	set_tz("Europe/Berlin");     /* UTC+1 in November */
	assert_true(spec("2026-11-20 10:00") == MIDNIGHT + 9 * 3600 * SEC);
	assert_true(spec("2026-11-20 10:00 UTC") == MIDNIGHT + 10 * 3600 * SEC);
	assert_true(spec("today") == MIDNIGHT - 3600 * SEC);
	assert_true(spec("2026-07-01 12:00") == INT64_C(1782900000) * SEC);   /* CEST, UTC+2 */
	set_tz("UTC");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(absolute),
		cmocka_unit_test(keywords),
		cmocka_unit_test(relative),
		cmocka_unit_test(spans),
		cmocka_unit_test(local_zone),
	};

	set_tz("UTC");
	return cmocka_run_group_tests(tests, NULL, NULL);
}
