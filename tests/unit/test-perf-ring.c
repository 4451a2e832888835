/* SPDX-License-Identifier: MIT */
/* The perf ring walk (wrap-around, corruption), sample and loss records, and the ring's size. */
#include <errno.h>
#include <linux/perf_event.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "perf-ring.h"
#include "perf-ring-build.h"

static unsigned char scratch[PERF_RING_RECORD_MAX];

static void test_walk_with_wrap(void **state)
{
	struct ring r = { .head = 0 };
	struct perf_ring_record rec;
	struct perf_sample s;
	uint64_t tail, lost, id;
	char want[32];

	(void) state;
	/* Start near the end of the ring so records wrap: header and body both, over several laps. */
	for (uint64_t start = RING - 64; start < RING + 8; start += 4) {
		r.head = tail = start;
		for (unsigned i = 0; i < 3; i++) {
			snprintf(want, sizeof(want), "record %u from %llu", i, (unsigned long long) start);
			put_sample(&r, 77 + i, 1000 + i, i, want);
		}
		put_lost(&r, 1234, 7);
		for (unsigned i = 0; i < 3; i++) {
			snprintf(want, sizeof(want), "record %u from %llu", i, (unsigned long long) start);
			assert_int_equal(perf_ring_next(r.data, RING, r.head, &tail, scratch, &rec), 1);
			assert_int_equal(rec.type, PERF_RECORD_SAMPLE);
			assert_int_equal(perf_sample_parse(rec.body, rec.body_size, &s), 0);
			assert_int_equal(s.id, 77 + i);
			assert_int_equal(s.time, 1000 + i);
			assert_int_equal(s.cpu, i);
			assert_string_equal((const char *) s.raw, want);
		}
		assert_int_equal(perf_ring_next(r.data, RING, r.head, &tail, scratch, &rec), 1);
		assert_int_equal(rec.type, PERF_RECORD_LOST);
		assert_int_equal(perf_lost_parse(rec.body, rec.body_size, &id, &lost), 0);
		assert_int_equal(id, 1234);
		assert_int_equal(lost, 7);
		assert_int_equal(perf_ring_next(r.data, RING, r.head, &tail, scratch, &rec), 0);
		assert_int_equal(tail, r.head);
	}
}

static void test_corrupt(void **state)
{
	struct ring r = { .head = 0 };
	struct perf_ring_record rec;
	uint64_t tail = 0;

	(void) state;
	/* size smaller than the header itself */
	put(&r, PERF_RECORD_SAMPLE, NULL, 0);
	r.data[6] = 4;
	r.data[7] = 0;
	assert_int_equal(perf_ring_next(r.data, RING, r.head, &tail, scratch, &rec), -EBADMSG);
	assert_int_equal(tail, 0);
	/* a size reaching past what the kernel published */
	r.data[6] = 64;
	assert_int_equal(perf_ring_next(r.data, RING, r.head, &tail, scratch, &rec), -EBADMSG);
	/* head in the middle of a header */
	assert_int_equal(perf_ring_next(r.data, RING, 4, &tail, scratch, &rec), -EBADMSG);
	/* larger than the ring */
	r.data[6] = 0;
	r.data[7] = 2;  /* 512 */
	assert_int_equal(perf_ring_next(r.data, RING, 1024, &tail, scratch, &rec), -EBADMSG);
	assert_int_equal(tail, 0);
}

static void test_sample_bounds(void **state)
{
	unsigned char b[72] = {};
	uint32_t n = 40;
	struct perf_sample s;

	(void) state;
	assert_int_equal(perf_sample_parse(b, 27, &s), -EBADMSG);
	memcpy(b + 24, &n, 4);
	assert_int_equal(perf_sample_parse(b, 67, &s), -EOVERFLOW);
	assert_int_equal(s.raw_size, 40);
	assert_int_equal(perf_sample_parse(b, 68, &s), 0);
	assert_int_equal(s.raw_size, 40);
	assert_ptr_equal(s.raw, b + 28);
	n = UINT32_MAX;
	memcpy(b + 24, &n, 4);
	assert_int_equal(perf_sample_parse(b, 72, &s), -EOVERFLOW);
}

static void test_lost_bounds(void **state)
{
	uint64_t b[2] = { 1, 42 }, lost = 99, id = 0;

	(void) state;
	assert_int_equal(perf_lost_parse((unsigned char *) b, 15, &id, &lost), -EBADMSG);
	assert_int_equal(lost, 99);
	assert_int_equal(perf_lost_parse((unsigned char *) b, 16, &id, &lost), 0);
	assert_int_equal(lost, 42);
	assert_int_equal(id, 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_walk_with_wrap),
		cmocka_unit_test(test_corrupt),
		cmocka_unit_test(test_sample_bounds),
		cmocka_unit_test(test_lost_bounds),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
