/* SPDX-License-Identifier: MIT */
/* One CPU's tracepoint ring and the cost of all of them (mcelogd/sources/ring-size.c). */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "ring-size.h"

#define KiB 1024ull

static struct ring_size plan(unsigned possible, size_t page, unsigned override)
{
	struct ring_size r;

	assert_int_equal(ring_size_plan(possible, page, override, &r), 0);
	return r;
}

/* The server sizes issue 25 names, and the kernel's pool for each: max(80, 2 x possible). */
static const struct {
	unsigned possible;
	uint64_t pool;
	bool exceeds;
} machines[] = {
	{ 2, 80, false }, { 64, 128, false }, { 256, 512, true }, { 512, 1024, true }, { 1024, 2048, true },
};

static void test_flat_at_4k(void **state)
{
	(void) state;
	for (size_t i = 0; i < sizeof(machines) / sizeof(machines[0]); i++) {
		struct ring_size r = plan(machines[i].possible, 4096, 0);

		/* 64 KiB of data and the control page, whatever the CPU count. */
		assert_int_equal(r.data_pages, 16);
		assert_int_equal(r.map_bytes, 68 * KiB);
		assert_int_equal(r.samples, 256);
		assert_false(r.overridden);
		assert_int_equal(r.pool_records, machines[i].pool);
		assert_int_equal(ring_size_pool_exceeds_ring(&r), machines[i].exceeds);
		assert_int_equal(ring_size_total(&r, machines[i].possible), machines[i].possible * 68 * KiB);
	}
	/* The figures: 34 MiB at 512 CPUs, not 128; 17 MiB at 256, not 32. */
	struct ring_size r = plan(512, 4096, 0);
	assert_int_equal(ring_size_total(&r, 512), 34 * 1024 * KiB);
	r = plan(256, 4096, 0);
	assert_int_equal(ring_size_total(&r, 256), 17 * 1024 * KiB);
	/* An unknown CPU count (possible unreadable) gets the same ring. */
	r = plan(0, 4096, 0);
	assert_int_equal(r.data_pages, 16);
	assert_int_equal(r.pool_records, 80);
}

/* The total is n times one CPU's cost at every count: linear, never a square. */
static void test_linear(void **state)
{
	(void) state;
	for (size_t page = 4096; page <= 65536; page *= 4) {
		uint64_t one = plan(1, page, 0).map_bytes;

		for (unsigned n = 1; n <= 8192; n++) {
			struct ring_size r = plan(n, page, 0);

			assert_int_equal(r.map_bytes, one);
			assert_int_equal(ring_size_total(&r, n), one * n);
		}
	}
}

static void test_page_sizes(void **state)
{
	(void) state;
	/* arm64 with 64 KiB pages: one data page, 64 KiB, the control page as large. */
	struct ring_size r = plan(512, 65536, 0);
	assert_int_equal(r.data_pages, 1);
	assert_int_equal(r.map_bytes, 128 * KiB);
	assert_int_equal(ring_size_total(&r, 512), 64 * 1024 * KiB);
	/* 16 KiB pages: 40 KiB needed, 4 pages (a power of two), 64 KiB. */
	r = plan(512, 16384, 0);
	assert_int_equal(r.data_pages, 4);
	assert_int_equal(r.map_bytes, 80 * KiB);
	/* Every page size: a power of two of pages, and room for the smallest pool with a ras
	 * sample beside each record (80 x 2 samples). */
	for (size_t page = 4096; page <= 1024 * 1024; page *= 2) {
		r = plan(2, page, 0);
		assert_int_equal(r.data_pages & (r.data_pages - 1), 0);
		assert_true(r.samples >= 160);
		assert_int_equal(r.map_bytes, (1 + r.data_pages) * (uint64_t) page);
	}
	/* A page size that is no power of two is refused, *ret untouched. */
	r.data_pages = 7;
	assert_int_equal(ring_size_plan(2, 0, 0, &r), -EINVAL);
	assert_int_equal(ring_size_plan(2, 3000, 0, &r), -EINVAL);
	assert_int_equal(r.data_pages, 7);
}

static void test_override(void **state)
{
	struct ring_size r;
	unsigned v = 99;

	(void) state;
	/* 41-ring-loss's one page: taken as it is, whatever the machine. */
	r = plan(512, 4096, 1);
	assert_int_equal(r.data_pages, 1);
	assert_int_equal(r.map_bytes, 8 * KiB);
	assert_int_equal(r.samples, 16);
	assert_true(r.overridden);
	r = plan(2, 4096, RING_PAGES_OVERRIDE_MAX);
	assert_int_equal(r.data_pages, RING_PAGES_OVERRIDE_MAX);
	assert_int_equal(ring_size_plan(2, 4096, 3, &r), -EINVAL);
	assert_int_equal(ring_size_plan(2, 4096, 2 * RING_PAGES_OVERRIDE_MAX, &r), -EINVAL);

	assert_int_equal(ring_size_parse_override("8", &v), 0);
	assert_int_equal(v, 8);
	assert_int_equal(ring_size_parse_override("1024", &v), 0);
	assert_int_equal(v, 1024);
	v = 99;
	assert_int_equal(ring_size_parse_override("0", &v), -EINVAL);
	assert_int_equal(ring_size_parse_override("3", &v), -EINVAL);
	assert_int_equal(ring_size_parse_override("2048", &v), -EINVAL);
	assert_int_equal(ring_size_parse_override("", &v), -EINVAL);
	assert_int_equal(ring_size_parse_override("8x", &v), -EINVAL);
	assert_int_equal(ring_size_parse_override("-8", &v), -EINVAL);
	assert_int_equal(ring_size_parse_override("0x10", &v), -EINVAL);
	assert_int_equal(v, 99);
}

/*
 * Whether a reader may sleep until the hold-back timer.  Sample sizes are 6.10's
 * mce_record, 176 bytes; the ring is the flat 64 KiB one, read whole at 32 KiB.
 */
static void test_half_full_by(void **state)
{
	struct ring_size r = plan(512, 4096, 0);
	const uint64_t ms = 1000 * 1000, us = 1000, sample = 176;

	(void) state;
	/* A pool emitted back to back, a sample every 10 us: 32 KiB in under 2 ms, long before
	 * a timer 20 ms away.  The reader stays awake. */
	assert_true(ring_size_half_full_by(&r, 2 * sample, sample, 10 * us, 20 * ms));
	/* The 45-storm's pace, at most 16 records in flight, some 1 ms apart: 20 ms of it is
	 * 3.5 KiB.  The reader may sleep. */
	assert_false(ring_size_half_full_by(&r, 2 * sample, sample, 1 * ms, 20 * ms));
	/* ... but not if the timer were a second away: 176 KiB would come meanwhile. */
	assert_true(ring_size_half_full_by(&r, 2 * sample, sample, 1 * ms, 1000 * ms));
	/* The edge: 16 KiB unread, 16 KiB more in time is exactly half. */
	assert_true(ring_size_half_full_by(&r, 16 * KiB, 1 * KiB, 1 * ms, 16 * ms));
	assert_false(ring_size_half_full_by(&r, 16 * KiB, 1 * KiB, 1 * ms, 16 * ms - 1));
	/* Already half full: read now, whatever the rate. */
	assert_true(ring_size_half_full_by(&r, 32 * KiB, 0, 1 * ms, 0));
	/* Nothing came since the last look, or no time is left: no more will come before the timer. */
	assert_false(ring_size_half_full_by(&r, 8 * KiB, 0, 1 * ms, 20 * ms));
	assert_false(ring_size_half_full_by(&r, 8 * KiB, 8 * KiB, 1 * ms, 0));
	/* Bytes in no measurable time: the rate is unknown, assumed the worst. */
	assert_true(ring_size_half_full_by(&r, sample, sample, 0, 20 * ms));
	/* The first look at a reader, its last one taken at time 0: a rate over the whole uptime. */
	assert_false(ring_size_half_full_by(&r, sample, sample, 3600000 * ms, 20 * ms));
	/* A ring of one page (41-ring-loss) is read whole at 2 KiB: the storm's pace fills it. */
	struct ring_size one = plan(2, 4096, 1);
	assert_true(ring_size_half_full_by(&one, 2 * sample, sample, 1 * ms, 20 * ms));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_flat_at_4k),
		cmocka_unit_test(test_linear),
		cmocka_unit_test(test_page_sizes),
		cmocka_unit_test(test_override),
		cmocka_unit_test(test_half_full_by),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
