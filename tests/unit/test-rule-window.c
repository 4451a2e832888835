/* SPDX-License-Identifier: MIT */
/* rules/rule-window: "N in T" at its boundaries, with time passed in. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "rule.h"
#include "rule-window.h"

#define SEC UINT64_C(1000000)
#define HOUR (3600 * SEC)
#define T0 (UINT64_C(1000) * SEC)

struct bucket {
	uint64_t times[RULE_MAX_COUNT];
	struct rule_window w;
};

static void bucket_init(struct bucket *b)
{
	b->w = (struct rule_window) { .times = b->times };
}

/* N records at once fire on the N-th, not before. */
static void test_fires_on_nth(void **state)
{
	static struct bucket b;
	uint64_t first = 0;

	(void) state;
	bucket_init(&b);
	for (unsigned i = 1; i < 10; i++) {
		assert_false(rule_window_add(&b.w, 10, 24 * HOUR, T0 + i, &first));
		assert_int_equal(rule_window_level(&b.w, 10, 24 * HOUR, T0 + i), i);
	}
	assert_true(rule_window_add(&b.w, 10, 24 * HOUR, T0 + 10, &first));
	assert_int_equal(first, T0 + 1);
	/* The bucket empties: the next firing needs N new records. */
	assert_int_equal(rule_window_level(&b.w, 10, 24 * HOUR, T0 + 10), 0);
	assert_false(rule_window_add(&b.w, 10, 24 * HOUR, T0 + 11, &first));
}

/* The N-th record exactly T after the first is not within T; 1 us earlier it is. */
static void test_window_boundary(void **state)
{
	static struct bucket b;
	uint64_t first = 0;

	(void) state;
	bucket_init(&b);
	assert_false(rule_window_add(&b.w, 3, HOUR, T0, &first));
	assert_false(rule_window_add(&b.w, 3, HOUR, T0 + HOUR / 2, &first));
	assert_false(rule_window_add(&b.w, 3, HOUR, T0 + HOUR, &first));
	/* T0 expired: two remain (T0 + 30min, T0 + 1h). */
	assert_int_equal(rule_window_level(&b.w, 3, HOUR, T0 + HOUR), 2);

	bucket_init(&b);
	assert_false(rule_window_add(&b.w, 3, HOUR, T0, &first));
	assert_false(rule_window_add(&b.w, 3, HOUR, T0 + HOUR / 2, &first));
	assert_true(rule_window_add(&b.w, 3, HOUR, T0 + HOUR - 1, &first));
	assert_int_equal(first, T0);
}

/* A steady rate just above N per T fires; records spread wider never do. */
static void test_sliding(void **state)
{
	static struct bucket b;
	unsigned fired = 0;

	(void) state;
	bucket_init(&b);
	/* One record every 2h40m: 10 of them span exactly 24h, never "within" 24h. */
	for (unsigned i = 0; i < 100; i++)
		fired += rule_window_add(&b.w, 10, 24 * HOUR, T0 + i * (24 * HOUR / 9), NULL);
	assert_int_equal(fired, 0);
	assert_int_equal(rule_window_level(&b.w, 10, 24 * HOUR, T0 + 99 * (24 * HOUR / 9)), 9);

	bucket_init(&b);
	/* 1 us less apart: the 10th fires, then every 10th after. */
	for (unsigned i = 0; i < 100; i++)
		fired += rule_window_add(&b.w, 10, 24 * HOUR, T0 + i * (24 * HOUR / 9 - 1), NULL);
	assert_int_equal(fired, 10);
}

/* A clock step backwards counts as no time passed: nothing lost, nothing early. */
static void test_time_backwards(void **state)
{
	static struct bucket b;
	uint64_t first = 0;

	(void) state;
	bucket_init(&b);
	assert_false(rule_window_add(&b.w, 3, HOUR, T0 + HOUR, &first));
	assert_false(rule_window_add(&b.w, 3, HOUR, T0, &first));
	assert_int_equal(rule_window_level(&b.w, 3, HOUR, T0), 2);
	assert_true(rule_window_add(&b.w, 3, HOUR, T0 + 2 * HOUR - 1, &first));
	assert_int_equal(first, T0 + HOUR);
}

/*
 * One record dated far ahead (a firmware clock that is wrong, as BERT records'
 * often are) must not freeze the window: records two days apart, after it,
 * never make 10 in 24h; ten within 24h, after it, do.
 */
static void test_future_record_does_not_freeze(void **state)
{
	static struct bucket b;
	const uint64_t future = T0 + 400 * 24 * HOUR;
	unsigned fired = 0;
	uint64_t first = 0;

	(void) state;
	bucket_init(&b);
	assert_false(rule_window_add(&b.w, 10, 24 * HOUR, future, NULL));
	for (unsigned i = 0; i < 9; i++)
		fired += rule_window_add(&b.w, 10, 24 * HOUR, T0 + i * 48 * HOUR, NULL);
	assert_int_equal(fired, 0);
	assert_int_equal(rule_window_level(&b.w, 10, 24 * HOUR, T0 + 8 * 48 * HOUR), 1);
	for (unsigned i = 0; i < 10; i++)
		fired += rule_window_add(&b.w, 10, 24 * HOUR, T0 + 20 * 24 * HOUR + i * HOUR, &first);
	assert_int_equal(fired, 1);
	assert_int_equal(first, T0 + 20 * 24 * HOUR);
}

/* Without Threshold= (1 record, no window) every record fires. */
static void test_every_record(void **state)
{
	static struct bucket b;

	(void) state;
	bucket_init(&b);
	for (unsigned i = 0; i < 5; i++)
		assert_true(rule_window_add(&b.w, 1, 0, T0, NULL));
}

/* The largest N: the ring wraps many times without losing a record. */
static void test_large_count_wraps(void **state)
{
	static struct bucket b;
	unsigned fired = 0;

	(void) state;
	bucket_init(&b);
	/* Records 1 s apart with N in N s - 1 s... never more than N-1 within T. */
	for (unsigned i = 0; i < 3 * RULE_MAX_COUNT; i++)
		fired += rule_window_add(&b.w, RULE_MAX_COUNT, (RULE_MAX_COUNT - 1) * SEC,
					 T0 + i * SEC, NULL);
	assert_int_equal(fired, 0);
	assert_int_equal(rule_window_level(&b.w, RULE_MAX_COUNT, (RULE_MAX_COUNT - 1) * SEC,
					   T0 + (3 * RULE_MAX_COUNT - 1) * SEC), RULE_MAX_COUNT - 1);
	/* One more record at the same time makes N within T. */
	assert_true(rule_window_add(&b.w, RULE_MAX_COUNT, (RULE_MAX_COUNT - 1) * SEC,
				    T0 + (3 * RULE_MAX_COUNT - 1) * SEC, NULL));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fires_on_nth),
		cmocka_unit_test(test_window_boundary),
		cmocka_unit_test(test_sliding),
		cmocka_unit_test(test_time_backwards),
		cmocka_unit_test(test_future_record_does_not_freeze),
		cmocka_unit_test(test_every_record),
		cmocka_unit_test(test_large_count_wraps),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
