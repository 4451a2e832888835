/* SPDX-License-Identifier: MIT */
/*
 * The snapshot summary under a record in `mcectl query` and `mcectl decode`
 * (mcectl/snapshot-line.c): from a record's JSON it must print the figures as
 * mcelogd's flat journal fields print them, so that both tables read the same,
 * and pick the event furthest from its baseline either way.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "snapshot-line.h"

static int summary_of(const char *json, char *buf, size_t size)
{
	json_object *o = json_tokener_parse(json);
	struct snapshot_summary s;
	int r;

	assert_non_null(o);
	r = snapshot_summary_from_json(o, &s);
	if (r >= 0)
		r = snapshot_line_format(&s, buf, size);
	json_object_put(o);
	return r;
}

static void test_figures_as_journal_fields(void **state)
{
	char line[480];
	(void) state;

	assert_int_equal(summary_of("{\"counters\":{\"cpu\":3,\"read_after_error_usec\":250,"
				    "\"window\":{\"seconds\":1.000412},\"ipc\":0.5,\"effective_mhz\":2999.96,"
				    "\"branch_miss_rate\":0.01,\"change\":{\"cycles\":1.5,\"page-faults\":0.4}}}",
				    line, sizeof(line)), 0);
	/* 1/0.4 = 2.5 beats 1.5: a drop counts as much as a rise. */
	assert_string_equal(line, "CPU 3 over 1.000s, read 250 us after the error; IPC 0.500; 3000 MHz; "
			    "branch-miss 0.0100; largest change page-faults x0.40");
}

static void test_only_what_is_there(void **state)
{
	char line[480];
	(void) state;

	/* No figures, no change, no time: CPU and window only.  Bad changes are skipped. */
	assert_int_equal(summary_of("{\"counters\":{\"cpu\":0,\"window\":{\"seconds\":0.5},"
				    "\"change\":{\"x\":0,\"y\":\"fast\",\"z\":-2}}}", line, sizeof(line)), 0);
	assert_string_equal(line, "CPU 0 over 0.500s");
}

static void test_nothing_to_say(void **state)
{
	char line[480];
	(void) state;

	assert_int_equal(summary_of("{\"counters\":{\"unavailable\":\"no PMU\"}}", line, sizeof(line)), -ENOENT);
	assert_int_equal(summary_of("{\"rtit\":{}}", line, sizeof(line)), -ENOENT);
	assert_int_equal(summary_of("{\"counters\":{\"cpu\":1}}", line, sizeof(line)), -ENOENT);
	assert_int_equal(summary_of("[1,2]", line, sizeof(line)), -ENOENT);
}

static void test_small_buffer(void **state)
{
	char line[12];
	(void) state;

	/* Cut, terminated, never past the end. */
	assert_int_equal(summary_of("{\"counters\":{\"cpu\":12345,\"window\":{\"seconds\":1.0},\"ipc\":1.0}}",
				    line, sizeof(line)), 0);
	assert_int_equal(strlen(line), sizeof(line) - 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_figures_as_journal_fields),
		cmocka_unit_test(test_only_what_is_there),
		cmocka_unit_test(test_nothing_to_say),
		cmocka_unit_test(test_small_buffer),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
