/* SPDX-License-Identifier: MIT */
/* read() of a perf group leader: the layout, and buffers that lie about their size. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "perf-group-read.h"

/* Lays a group read out as the kernel does: nr, enabled, running, {value, id}... */
static size_t build(uint64_t *buf, uint64_t nr, uint64_t enabled, uint64_t running,
		    const uint64_t *values, const uint64_t *ids)
{
	size_t n = 0;
	buf[n++] = nr;
	buf[n++] = enabled;
	buf[n++] = running;
	for (uint64_t i = 0; i < nr; i++) {
		buf[n++] = values[i];
		buf[n++] = ids[i];
	}
	return n * sizeof(*buf);
}

static void test_parse(void **state)
{
	(void) state;
	uint64_t buf[16];
	const uint64_t values[] = { 1000, 2000, UINT64_MAX }, ids[] = { 7, 9, 42 };
	size_t size = build(buf, 3, 5000000, 2500000, values, ids);
	struct perf_group_read r;

	assert_int_equal(size, perf_group_read_size(3));
	assert_int_equal(perf_group_read_parse(buf, size, &r), 0);
	assert_int_equal(r.nr, 3);
	assert_int_equal(r.time_enabled, 5000000);
	assert_int_equal(r.time_running, 2500000);
	assert_int_equal(r.values[1].value, 2000);
	assert_int_equal(r.values[1].id, 9);
	assert_true(r.values[2].value == UINT64_MAX);
	assert_int_equal(perf_group_read_find(&r, 42), 2);
	assert_int_equal(perf_group_read_find(&r, 8), -ENOENT);

	/* an empty group (a leader with no members would still be nr 1, but 0 parses) */
	size = build(buf, 0, 1, 1, NULL, NULL);
	assert_int_equal(perf_group_read_parse(buf, size, &r), 0);
	assert_int_equal(r.nr, 0);
}

static void test_unaligned(void **state)
{
	(void) state;
	uint64_t buf[8];
	unsigned char shifted[sizeof(buf) + 1];
	const uint64_t values[] = { 123 }, ids[] = { 5 };
	size_t size = build(buf, 1, 10, 10, values, ids);
	struct perf_group_read r;

	memcpy(shifted + 1, buf, size);
	assert_int_equal(perf_group_read_parse(shifted + 1, size, &r), 0);
	assert_int_equal(r.values[0].value, 123);
}

static void test_hostile(void **state)
{
	(void) state;
	uint64_t buf[PERF_GROUP_READ_MAX * 2 + 8] = {};
	const uint64_t values[] = { 1, 2 }, ids[] = { 3, 4 };
	size_t size = build(buf, 2, 10, 10, values, ids);
	struct perf_group_read r;

	/* shorter than the header, shorter than nr members, longer than them */
	assert_int_equal(perf_group_read_parse(buf, 0, &r), -EBADMSG);
	assert_int_equal(perf_group_read_parse(buf, 23, &r), -EBADMSG);
	assert_int_equal(perf_group_read_parse(buf, size - 8, &r), -EBADMSG);
	assert_int_equal(perf_group_read_parse(buf, size - 1, &r), -EBADMSG);
	assert_int_equal(perf_group_read_parse(buf, size + 8, &r), -EBADMSG);

	/* an nr that would make the size arithmetic overflow is refused before it is used */
	buf[0] = UINT64_MAX / 8;
	assert_int_equal(perf_group_read_parse(buf, size, &r), -E2BIG);
	buf[0] = PERF_GROUP_READ_MAX + 1;
	assert_int_equal(perf_group_read_parse(buf, perf_group_read_size(PERF_GROUP_READ_MAX + 1), &r), -E2BIG);
	buf[0] = PERF_GROUP_READ_MAX;
	assert_int_equal(perf_group_read_parse(buf, perf_group_read_size(PERF_GROUP_READ_MAX), &r), 0);

	/* running longer than enabled: not from this kernel */
	size = build(buf, 2, 10, 11, values, ids);
	assert_int_equal(perf_group_read_parse(buf, size, &r), -ERANGE);
}

/* A sampler's PERF_RECORD_SAMPLE body: id, time, then the group read. */
static void test_sample(void **state)
{
	uint64_t buf[2 + 3 + 2 * 3], values[] = { 1000, 2000, 3000 }, ids[] = { 7, 8, 9 };
	struct perf_group_read r;
	uint64_t id = 0, time = 0;
	size_t size;

	(void) state;
	buf[0] = 7;
	buf[1] = 123456789;
	size = 2 * sizeof(uint64_t) + build(buf + 2, 3, 50, 40, values, ids);
	assert_int_equal(perf_group_sample_parse(buf, size, &id, &time, &r), 0);
	assert_int_equal(id, 7);
	assert_int_equal(time, 123456789);
	assert_int_equal(r.nr, 3);
	assert_int_equal(r.values[2].value, 3000);
	assert_int_equal(r.time_running, 40);
	/* Cut anywhere: refused, never read past. */
	for (size_t cut = 0; cut < size; cut += 4)
		assert_int_not_equal(perf_group_sample_parse(buf, cut, &id, &time, &r), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse),
		cmocka_unit_test(test_unaligned),
		cmocka_unit_test(test_hostile),
		cmocka_unit_test(test_sample),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
