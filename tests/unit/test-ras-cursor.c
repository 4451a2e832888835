/* SPDX-License-Identifier: MIT */
/* Where we are among the kept ras events: marks, the resume point, live matching, the file. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "ras-cursor.h"

#define BOOT "aaf50ec7f5824edf9b3508436dfbbff7"
#define MS (1000 * 1000ULL)

static void test_digest(void **state)
{
	(void) state;
	/* common fields (8 bytes), then the event's own */
	unsigned char a[16] = { 0x20, 0x01, 0x00, 0x01, 0x10, 0, 0, 0, 'a', 'b', 'c', 'd', 0, 0, 0, 0 };
	unsigned char b[24];

	/* the flags, preempt count and pid may differ between the two copies */
	memcpy(b, a, sizeof(a));
	memset(b + sizeof(a), 0, sizeof(b) - sizeof(a));
	b[2] = 0x0d, b[3] = 0x02, b[4] = 0x77;
	assert_true(ras_mark_digest(a, sizeof(a)) == ras_mark_digest(b, sizeof(b)));
	/* padding to 4 or to 8 bytes does not matter; a field does */
	assert_true(ras_mark_digest(a, 12) == ras_mark_digest(a, 16));
	b[9] = 'x';
	assert_true(ras_mark_digest(a, sizeof(a)) != ras_mark_digest(b, sizeof(b)));
	/* too short for fields: all alike, no read past the end */
	assert_true(ras_mark_digest(a, 4) == ras_mark_digest(b, 8));
}

static void test_resume_index(void **state)
{
	(void) state;
	/* Three identical events 20 ms apart (an AER flood), then another. */
	const struct ras_mark kept[] = {
		{ 100 * MS, 7 }, { 120 * MS, 7 }, { 140 * MS, 7 }, { 150 * MS, 9 },
	};
	/* The live copy of the second, stamped 30 us after the instance's. */
	struct ras_mark last = { 120 * MS + 30000, 7 };

	assert_int_equal(ras_resume_index(NULL, kept, 4), 0);
	assert_int_equal(ras_resume_index(&last, kept, 4), 2);
	/* stamped before the instance's copy: the nearest still wins */
	last.time_ns = 140 * MS - 2000;
	assert_int_equal(ras_resume_index(&last, kept, 4), 3);
	/* the last one */
	last = (struct ras_mark) { 150 * MS + 1, 9 };
	assert_int_equal(ras_resume_index(&last, kept, 4), 4);
	/* not in the instance (it wrapped past it, or was emptied): whatever came after it */
	last = (struct ras_mark) { 125 * MS, 8 };
	assert_int_equal(ras_resume_index(&last, kept, 4), 2);
	last.time_ns = 200 * MS;
	assert_int_equal(ras_resume_index(&last, kept, 4), 4);
	last.time_ns = 1;
	assert_int_equal(ras_resume_index(&last, kept, 4), 0);
	/* same digest but too far in time is no match */
	last = (struct ras_mark) { 150 * MS + RAS_MARK_TOLERANCE_NS + 1, 9 };
	assert_int_equal(ras_resume_index(&last, kept, 4), 4);
	assert_int_equal(ras_resume_index(&last, kept, 0), 0);
}

static void test_live_match(void **state)
{
	(void) state;
	const struct ras_mark recovered[] = { { 100 * MS, 7 }, { 101 * MS, 7 }, { 102 * MS, 9 } };
	bool taken[3] = {};

	/* each recovered event matches one live copy, once */
	assert_true(ras_mark_recovered(&(struct ras_mark) { 100 * MS + 10, 7 }, recovered, taken, 3));
	assert_true(taken[0]);
	assert_true(ras_mark_recovered(&(struct ras_mark) { 101 * MS + 10, 7 }, recovered, taken, 3));
	assert_true(taken[1]);
	/* a third identical event is new */
	assert_false(ras_mark_recovered(&(struct ras_mark) { 101 * MS + 20, 7 }, recovered, taken, 3));
	/* another digest is new */
	assert_false(ras_mark_recovered(&(struct ras_mark) { 102 * MS, 8 }, recovered, taken, 3));
	/* too far in time is new */
	assert_false(ras_mark_recovered(&(struct ras_mark) { 102 * MS + RAS_MARK_TOLERANCE_NS + 1, 9 },
					recovered, taken, 3));
	assert_false(taken[2]);
}

static void test_file(void **state)
{
	(void) state;
	struct ras_cursor c, back;
	char *text = NULL;
	unsigned bad = 0;
	int n;

	ras_cursor_init(&c, BOOT);
	assert_null(ras_cursor_get(&c, 0));
	assert_int_equal(ras_cursor_note(&c, 3, &(struct ras_mark) { 123456789012ULL, 0xdeadbeefcafeULL }), 0);
	assert_int_equal(ras_cursor_note(&c, 0, &(struct ras_mark) { 1, 2 }), 0);
	assert_int_equal(ras_cursor_note(&c, RAS_CURSOR_MAX_CPUS, &(struct ras_mark) { 1, 2 }), -ERANGE);
	n = ras_cursor_format(&c, &text);
	assert_true(n > 0);
	assert_string_equal(text, "boot_id " BOOT "\nring 0 time 1 digest 2\n"
			    "ring 3 time 123456789012 digest deadbeefcafe\n");

	ras_cursor_init(&back, NULL);
	assert_int_equal(ras_cursor_parse(text, (size_t) n, &back, &bad), 0);
	assert_string_equal(back.boot_id, BOOT);
	assert_null(ras_cursor_get(&back, 1));
	assert_true(ras_cursor_get(&back, 3)->time_ns == 123456789012ULL);
	assert_true(ras_cursor_get(&back, 3)->digest == 0xdeadbeefcafeULL);
	ras_cursor_done(&back);
	/* a later version's extra field is ignored */
	ras_cursor_init(&back, NULL);
	static const char later[] = "boot_id " BOOT "\nring 2 time 5 digest 6 source 3\n";
	assert_int_equal(ras_cursor_parse(later, strlen(later), &back, &bad), 0);
	assert_true(ras_cursor_get(&back, 2)->time_ns == 5);
	ras_cursor_done(&back);
	free(text);
	ras_cursor_done(&c);
}

static void test_damaged_files(void **state)
{
	(void) state;
	static const struct { const char *text; unsigned line; } bad[] = {
		{ "", 1 },
		{ "ring 0 time 1 digest 2\n", 1 },                       /* before boot_id */
		{ "boot_id abc\n", 1 },                                  /* short id */
		{ "boot_id " BOOT "\nring 0 time 1\n", 2 },
		{ "boot_id " BOOT "\nring 0 time x digest 2\n", 2 },
		{ "boot_id " BOOT "\nring 8192 time 1 digest 2\n", 2 },
		{ "boot_id " BOOT "\n\nring 1 time 1 digest 2\nbogus\n", 4 },
		{ "boot_id " BOOT "\nboot_id " BOOT "\n", 2 },
	};

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct ras_cursor c;
		unsigned line = 0;

		ras_cursor_init(&c, NULL);
		assert_int_equal(ras_cursor_parse(bad[i].text, strlen(bad[i].text), &c, &line), -EBADMSG);
		assert_int_equal(line, bad[i].line);
		assert_int_equal(c.n_cpus, 0);
		ras_cursor_done(&c);
	}
}

struct collected {
	int n;
	struct ras_kept_event e[4];
};

static int collect(const struct ras_kept_event *e, void *userdata)
{
	struct collected *c = userdata;

	if (c->n == 4)
		return -E2BIG;
	c->e[c->n++] = *e;
	return 0;
}

static void test_kept_file(void **state)
{
	(void) state;
	const unsigned char r1[] = { 1, 2, 3, 4, 5, 6, 7, 8, 9 }, r2[] = { 0xff };
	const struct ras_kept_event ev[] = {
		{ .ring = 0, .time_ns = 123, .raw = r1, .size = sizeof(r1) },
		{ .ring = 7, .time_ns = UINT64_MAX, .raw = r2, .size = sizeof(r2) },
		{ .ring = 1, .time_ns = 5, .raw = r2, .size = 0 },
	};
	char boot[MCE_BOOT_ID_LEN + 1];
	struct collected c = {};
	char *image = NULL;
	size_t len;

	assert_int_equal(ras_kept_format(BOOT, ev, 3, &image, &len), 0);
	assert_int_equal(ras_kept_parse((unsigned char *) image, len, boot, collect, &c), 3);
	assert_string_equal(boot, BOOT);
	assert_int_equal(c.e[0].ring, 0);
	assert_true(c.e[0].time_ns == 123);
	assert_int_equal(c.e[0].size, sizeof(r1));
	assert_memory_equal(c.e[0].raw, r1, sizeof(r1));
	assert_int_equal(c.e[1].ring, 7);
	assert_true(c.e[1].time_ns == UINT64_MAX);
	assert_int_equal(c.e[1].raw[0], 0xff);
	assert_int_equal(c.e[2].size, 0);

	/* 18 + 32 bytes of header, then 16 + 9, 16 + 1 and 16 + 0 */
	assert_int_equal(len, 50 + 25 + 17 + 16);
	/* the third event's header cut short: the first two still come */
	c.n = 0;
	assert_int_equal(ras_kept_parse((unsigned char *) image, len - 2, boot, collect, &c), -EBADMSG);
	assert_int_equal(c.n, 2);
	/* the third claims more bytes than the file holds */
	c.n = 0;
	image[len - 4] = (char) 0x7f;
	assert_int_equal(ras_kept_parse((unsigned char *) image, len, boot, collect, &c), -EBADMSG);
	assert_int_equal(c.n, 2);
	/* not our file */
	image[0] = 'X';
	assert_int_equal(ras_kept_parse((unsigned char *) image, len, boot, collect, &c), -EBADMSG);
	assert_int_equal(ras_kept_parse((unsigned char *) image, 10, boot, collect, &c), -EBADMSG);
	free(image);

	/* no events at all */
	assert_int_equal(ras_kept_format(BOOT, NULL, 0, &image, &len), 0);
	assert_int_equal(ras_kept_parse((unsigned char *) image, len, boot, collect, &c), 0);
	free(image);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_digest),
		cmocka_unit_test(test_resume_index),
		cmocka_unit_test(test_live_match),
		cmocka_unit_test(test_file),
		cmocka_unit_test(test_damaged_files),
		cmocka_unit_test(test_kept_file),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
