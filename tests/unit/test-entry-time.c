/* SPDX-License-Identifier: MIT */
/* entry_time_of: a journal entry's error time from its MCE_TIME value, or its arrival. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "entry-time.h"

#define ARRIVAL UINT64_C(1795188645250000)

static int64_t of(const char *v)
{
	return entry_time_of(v, v ? strlen(v) : 0, ARRIVAL);
}

static void test_value(void **state)
{
	(void) state;
	/* Three hours before its arrival, as the spool delivers it. */
	assert_int_equal(of("1795177845000000"), INT64_C(1795177845000000));
	/* Only the given bytes count: a value is not NUL-terminated in an entry. */
	assert_int_equal(entry_time_of("1795177845000000X", 16, ARRIVAL), INT64_C(1795177845000000));
}

static void test_arrival(void **state)
{
	(void) state;
	/* Entries of an mcelogd before the field, and values it never writes. */
	assert_int_equal(of(NULL), (int64_t) ARRIVAL);
	assert_int_equal(of(""), (int64_t) ARRIVAL);
	assert_int_equal(of("0"), (int64_t) ARRIVAL);
	assert_int_equal(of("-5"), (int64_t) ARRIVAL);
	assert_int_equal(of("0x10"), (int64_t) ARRIVAL);
	assert_int_equal(of("17951x"), (int64_t) ARRIVAL);
	assert_int_equal(of("99999999999999999999"), (int64_t) ARRIVAL);
	/* An arrival past what an int64_t holds is cut, never wrapped negative. */
	assert_int_equal(entry_time_of(NULL, 0, UINT64_MAX), INT64_MAX);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_value),
		cmocka_unit_test(test_arrival),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
