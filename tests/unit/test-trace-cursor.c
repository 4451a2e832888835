/* SPDX-License-Identifier: MIT */
/* The restart cursor: record identity, the file format, trace lines, resume points. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "trace-cursor.h"

#define BOOT "aaf50ec7f5824edf9b3508436dfbbff7"

static struct mce_record rec(uint32_t cpu, uint32_t bank, uint64_t status, uint64_t tsc)
{
	return (struct mce_record) {
		.have = MCE_HAVE_CPU | MCE_HAVE_BANK | MCE_HAVE_STATUS | MCE_HAVE_ADDR | MCE_HAVE_MISC |
			MCE_HAVE_TSC | MCE_HAVE_TIME,
		.cpu = cpu, .bank = bank, .status = status, .addr = 0x1234000, .misc = 0x86,
		.tsc = tsc, .time_usec = 1795222800000000LL,
	};
}

static void test_identity(void **state)
{
	struct mce_record a = rec(1, 3, 0x9c00004000010092ull, 0x1000), b = a;
	struct mce_identity ia, ib;

	(void) state;
	mce_identity_from_record(&a, &ia);
	mce_identity_from_record(&b, &ib);
	assert_true(mce_identity_equal(&ia, &ib));
	assert_int_equal(mce_identity_compare(&ia, &ib), 0);
	/* fields that differ between records of the same bank make them differ */
	b.tsc++;
	mce_identity_from_record(&b, &ib);
	assert_false(mce_identity_equal(&ia, &ib));
	assert_int_equal(mce_identity_compare(&ia, &ib), -1);
	assert_int_equal(mce_identity_compare(&ib, &ia), 1);
	b = a;
	b.misc ^= 1;
	mce_identity_from_record(&b, &ib);
	assert_false(mce_identity_equal(&ia, &ib));
	assert_int_not_equal(mce_identity_compare(&ia, &ib), 0);
	assert_int_equal(mce_identity_compare(&ia, &ib), -mce_identity_compare(&ib, &ia));
	/* an unknown field counts as 0, whatever the struct holds */
	b = a;
	b.have &= ~MCE_HAVE_TSC;
	b.tsc = 0xdead;
	a.tsc = 0;
	mce_identity_from_record(&a, &ia);
	mce_identity_from_record(&b, &ib);
	assert_true(mce_identity_equal(&ia, &ib));
}

static void test_format_parse_round_trip(void **state)
{
	struct trace_cursor c, d;
	struct mce_record r0 = rec(0, 1, 0x9c00004000010092ull, 0xffffffffffffffffull);
	struct mce_record r7 = rec(7, 22, 0xdc2040000400011bull, 42);
	char *text = NULL;
	unsigned bad = 0;
	int n;

	(void) state;
	trace_cursor_init(&c, BOOT);
	assert_int_equal(trace_cursor_note(&c, 0, &r0), 0);
	assert_int_equal(trace_cursor_note(&c, 7, &r7), 0);
	assert_int_equal(trace_cursor_note(&c, TRACE_CURSOR_MAX_CPUS, &r7), -ERANGE);
	n = trace_cursor_format(&c, &text);
	assert_true(n > 0);

	trace_cursor_init(&d, NULL);
	assert_int_equal(trace_cursor_parse(text, (size_t) n, &d, &bad), 0);
	assert_string_equal(d.boot_id, BOOT);
	assert_non_null(trace_cursor_get(&d, 0));
	assert_null(trace_cursor_get(&d, 3));
	assert_non_null(trace_cursor_get(&d, 7));
	assert_true(mce_identity_equal(trace_cursor_get(&c, 0), trace_cursor_get(&d, 0)));
	assert_true(mce_identity_equal(trace_cursor_get(&c, 7), trace_cursor_get(&d, 7)));
	free(text);
	trace_cursor_done(&c);
	trace_cursor_done(&d);
}

static void test_parse_rejects_damage(void **state)
{
	static const struct { const char *text; unsigned line; } bad[] = {
		{ "", 1 },
		{ "ring 0 cpu 0 bank 1 status 1 addr 0 misc 0 tsc 0 time 0\n", 1 },   /* no boot id first */
		{ "boot_id " BOOT "\nring 0 cpu 0 bank 1 status 1 addr 0 misc 0 tsc 0\n", 2 },
		{ "boot_id " BOOT "\nring 0 cpu 0 bank 1 status zz addr 0 misc 0 tsc 0 time 0\n", 2 },
		{ "boot_id " BOOT "\nring 99999 cpu 0 bank 1 status 1 addr 0 misc 0 tsc 0 time 0\n", 2 },
		{ "boot_id abc\n", 1 },
		{ "boot_id " BOOT "\nboot_id " BOOT "\n", 2 },
		{ "boot_id " BOOT "\ngarbage\n", 2 },
	};

	(void) state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct trace_cursor c;
		unsigned line = 0;

		trace_cursor_init(&c, NULL);
		assert_int_equal(trace_cursor_parse(bad[i].text, strlen(bad[i].text), &c, &line), -EBADMSG);
		assert_int_equal(line, bad[i].line);
		/* a damaged cursor is dropped whole: at worst duplicates, never a skipped record */
		assert_int_equal(c.n_cpus, 0);
		trace_cursor_done(&c);
	}
}

static void test_trace_line_split(void **state)
{
	static const char l1[] = "          <idle>-0       [001] d.h1.   123.456789: mce_record: CPU: 1, "
				 "MCGc/s: 10a/5, MC1: 9c00004000010092";
	static const char l2[] = "   kworker/0:1-23      [000] .....  4.000001: mce_record: CPU: 0";
	static const char l3[] = "  odd[7]name-77   [012] ..... 9.1: mce_record: CPU: 12";
	static const char other[] = "  bash-1 [000] ..... 1.0: memory_failure_event: pfn 0x1";
	static const char nocpu[] = "  bash-1 ..... 1.0: mce_record: CPU: 0";
	unsigned ring;
	size_t off;

	(void) state;
	assert_int_equal(trace_line_split(l1, strlen(l1), &ring, &off), 0);
	assert_int_equal(ring, 1);
	assert_memory_equal(l1 + off, "mce_record:", 11);
	assert_int_equal(trace_line_split(l2, strlen(l2), &ring, &off), 0);
	assert_int_equal(ring, 0);
	assert_int_equal(trace_line_split(l3, strlen(l3), &ring, &off), 0);
	assert_int_equal(ring, 12);
	assert_int_equal(trace_line_split("# tracer: nop", 13, &ring, &off), -ENOENT);
	assert_int_equal(trace_line_split(other, strlen(other), &ring, &off), -ENOENT);
	assert_int_equal(trace_line_split(nocpu, strlen(nocpu), &ring, &off), -EBADMSG);
	assert_int_equal(trace_line_split("", 0, &ring, &off), -ENOENT);
}

static void test_resume_index(void **state)
{
	struct mce_identity ids[4];
	struct mce_identity gone;
	bool found;

	(void) state;
	for (unsigned i = 0; i < 4; i++) {
		struct mce_record r = rec(0, 1, 0x9c00004000010092ull, 100 + i);

		mce_identity_from_record(&r, &ids[i]);
	}
	/* no cursor for this ring: all are new */
	assert_int_equal(trace_cursor_resume_index(NULL, ids, 4, &found), 0);
	assert_false(found);
	/* logged up to the second: the last two are new */
	assert_int_equal(trace_cursor_resume_index(&ids[1], ids, 4, &found), 2);
	assert_true(found);
	/* logged everything */
	assert_int_equal(trace_cursor_resume_index(&ids[3], ids, 4, &found), 4);
	/* the cursor's record was overwritten: all kept ones are new, and it says so */
	{
		struct mce_record r = rec(0, 1, 0x9c00004000010092ull, 7);

		mce_identity_from_record(&r, &gone);
	}
	assert_int_equal(trace_cursor_resume_index(&gone, ids, 4, &found), 0);
	assert_false(found);
	assert_int_equal(trace_cursor_resume_index(&ids[0], ids, 0, &found), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_identity),
		cmocka_unit_test(test_format_parse_round_trip),
		cmocka_unit_test(test_parse_rejects_damage),
		cmocka_unit_test(test_trace_line_split),
		cmocka_unit_test(test_resume_index),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
