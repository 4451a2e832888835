/* SPDX-License-Identifier: MIT */
/* Several perf rings read as one sequence in sample-time order (kernel-abi/perf-ring-merge.h). */
#include <errno.h>
#include <linux/perf_event.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "perf-ring-merge.h"
#include "perf-ring.h"
#include "perf-ring-build.h"

static unsigned char scratch[PERF_RING_RECORD_MAX];

/*
 * Takes the batch the way the tracepoint source does: pick a ring,
 * perf_ring_next() on it, only records stamped before `before`.  Writes the
 * tags (a loss as "lost<n>") joined by spaces into out; returns how many
 * records were taken, and in *held the earliest time left behind.
 */
static unsigned drain_before(struct perf_ring_cursor *cur, size_t n, uint64_t before, uint64_t *held,
			     char *out, size_t out_size)
{
	unsigned taken = 0;
	size_t len = 0;
	int i;

	out[0] = '\0';
	while ((i = perf_ring_merge_pick_before(cur, n, before, held)) >= 0) {
		struct perf_ring_record rec;
		struct perf_sample s;
		uint64_t id, lost;

		assert_true((size_t) i < n);
		assert_int_equal(perf_ring_next(cur[i].data, cur[i].size, cur[i].head, &cur[i].tail,
						scratch, &rec), 1);
		if (rec.type == PERF_RECORD_SAMPLE) {
			assert_int_equal(perf_sample_parse(rec.body, rec.body_size, &s), 0);
			len += (size_t) snprintf(out + len, out_size - len, "%s%s", taken ? " " : "",
						 (const char *) s.raw);
		} else {
			assert_int_equal(rec.type, PERF_RECORD_LOST);
			assert_int_equal(perf_lost_parse(rec.body, rec.body_size, &id, &lost), 0);
			len += (size_t) snprintf(out + len, out_size - len, "%slost%llu", taken ? " " : "",
						 (unsigned long long) lost);
		}
		assert_true(len < out_size);
		taken++;
		assert_true(taken < 1000);
	}
	return taken;
}

/* The whole batch: nothing is held back, and the rings end empty. */
static unsigned drain(struct perf_ring_cursor *cur, size_t n, char *out, size_t out_size)
{
	uint64_t held = 0;
	unsigned taken = drain_before(cur, n, UINT64_MAX, &held, out, out_size);

	assert_int_equal(held, UINT64_MAX);
	assert_int_equal(perf_ring_merge_pick(cur, n), -1);
	return taken;
}

static struct perf_ring_cursor cursor(const struct ring *r, uint64_t tail)
{
	return (struct perf_ring_cursor) { .data = r->data, .size = RING, .head = r->head, .tail = tail };
}

/*
 * Two CPUs' work items drained the MCE pool in turn: each ring alone is in
 * order, but read ring by ring the journal would get a, b, e, c, d.  Starting
 * near the end of the ring puts headers, time fields and bodies across the
 * wrap, at every 8-byte offset.
 */
static void test_interleaved_with_wrap(void **state)
{
	char got[512];

	(void) state;
	for (uint64_t start = 0; start < 2 * RING; start += 8) {
		struct ring r0 = { .head = start }, r1 = { .head = start + 24 };
		struct perf_ring_cursor cur[2];

		put_sample(&r0, 42, 100, 0, "a");
		put_sample(&r0, 42, 200, 0, "b");
		put_sample(&r0, 42, 500, 0, "e");
		put_sample(&r1, 42, 300, 1, "c");
		put_sample(&r1, 42, 400, 1, "d");
		cur[0] = cursor(&r0, start);
		cur[1] = cursor(&r1, start + 24);
		assert_int_equal(drain(cur, 2, got, sizeof(got)), 5);
		assert_string_equal(got, "a b c d e");
		assert_int_equal(cur[0].tail, r0.head);
		assert_int_equal(cur[1].tail, r1.head);
	}
}

/* Equal times: the ring listed first wins, and a ring's own order is never broken. */
static void test_equal_times(void **state)
{
	struct ring r0 = { .head = 0 }, r1 = { .head = 0 }, r2 = { .head = 0 };
	struct perf_ring_cursor cur[3];
	char got[512];

	(void) state;
	put_sample(&r0, 42, 7, 0, "x1");
	put_sample(&r0, 42, 7, 0, "x2");
	put_sample(&r1, 42, 5, 1, "y1");
	put_sample(&r1, 42, 7, 1, "y2");
	put_sample(&r2, 42, 7, 2, "z1");
	put_sample(&r2, 42, 6, 2, "z2");   /* out of order within its ring: still after z1 */
	cur[0] = cursor(&r0, 0);
	cur[1] = cursor(&r1, 0);
	cur[2] = cursor(&r2, 0);
	assert_int_equal(drain(cur, 3, got, sizeof(got)), 6);
	assert_string_equal(got, "y1 x1 x2 y2 z1 z2");
}

/* A loss report carries no time: it is taken as soon as it is at its ring's front. */
static void test_lost_goes_first(void **state)
{
	struct ring r0 = { .head = 0 }, r1 = { .head = 0 };
	struct perf_ring_cursor cur[2];
	char got[512];

	(void) state;
	put_sample(&r0, 42, 10, 0, "a");
	put_sample(&r0, 42, 40, 0, "d");
	put_sample(&r1, 42, 20, 1, "b");
	put_lost(&r1, 42, 3);
	put_sample(&r1, 42, 30, 1, "c");
	cur[0] = cursor(&r0, 0);
	cur[1] = cursor(&r1, 0);
	assert_int_equal(drain(cur, 2, got, sizeof(got)), 5);
	assert_string_equal(got, "a b lost3 c d");
}

/* The batch ends at the heads it began with: what the kernel adds meanwhile is the next batch's. */
static void test_batch_ends_at_head(void **state)
{
	struct ring r0 = { .head = 0 }, r1 = { .head = 0 };
	struct perf_ring_cursor cur[2];
	char got[512];

	(void) state;
	put_sample(&r0, 42, 10, 0, "a");
	put_sample(&r1, 42, 30, 1, "c");
	cur[0] = cursor(&r0, 0);
	cur[1] = cursor(&r1, 0);
	put_sample(&r0, 42, 20, 0, "b");   /* published after the batch began */
	assert_int_equal(drain(cur, 2, got, sizeof(got)), 2);
	assert_string_equal(got, "a c");
	cur[0].head = r0.head;
	assert_int_equal(drain(cur, 2, got, sizeof(got)), 1);
	assert_string_equal(got, "b");
}

/*
 * The hole the hold-back closes: CPU 1 stamped b at 25 but had not published
 * it when the batch began at 33; CPU 0's c at 30 was there.  Taking only
 * what is 5 old (before 28) leaves c in its ring, so b comes before it.
 */
static void test_hold_back(void **state)
{
	struct ring r0 = { .head = 0 }, r1 = { .head = 0 };
	struct perf_ring_cursor cur[2];
	uint64_t held = 0;
	char got[512];

	(void) state;
	put_sample(&r0, 42, 10, 0, "a");
	put_sample(&r0, 42, 30, 0, "c");
	cur[0] = cursor(&r0, 0);
	cur[1] = cursor(&r1, 0);
	assert_int_equal(drain_before(cur, 2, 28, &held, got, sizeof(got)), 1);
	assert_string_equal(got, "a");
	assert_int_equal(held, 30);
	/* Asked again at once, nothing more is old enough. */
	assert_int_equal(perf_ring_merge_pick_before(cur, 2, 28, &held), -1);
	assert_int_equal(held, 30);
	put_sample(&r1, 42, 25, 1, "b");
	cur[1].head = r1.head;
	/* A stamp equal to the bound is held too: only strictly older records go. */
	assert_int_equal(drain_before(cur, 2, 30, &held, got, sizeof(got)), 1);
	assert_string_equal(got, "b");
	assert_int_equal(held, 30);
	assert_int_equal(drain_before(cur, 2, 31, &held, got, sizeof(got)), 1);
	assert_string_equal(got, "c");
	assert_int_equal(held, UINT64_MAX);
}

/* A loss report has no time: it is taken even when what follows it is held. */
static void test_hold_back_loss(void **state)
{
	struct ring r0 = { .head = 0 };
	struct perf_ring_cursor cur[1];
	uint64_t held = 0;
	char got[512];

	(void) state;
	put_lost(&r0, 42, 2);
	put_sample(&r0, 42, 50, 0, "x");
	cur[0] = cursor(&r0, 0);
	assert_int_equal(drain_before(cur, 1, 0, &held, got, sizeof(got)), 1);
	assert_string_equal(got, "lost2");
	assert_int_equal(held, 50);
	assert_int_equal(drain(cur, 1, got, sizeof(got)), 1);
	assert_string_equal(got, "x");
}

static void test_front_time(void **state)
{
	struct ring r = { .head = RING - 12 };
	struct perf_ring_cursor c;
	uint64_t t = 0;

	(void) state;
	/* The time field itself straddles the end of the ring. */
	put_sample(&r, 42, 0x1122334455667788ull, 0, "w");
	c = cursor(&r, RING - 12);
	assert_int_equal(perf_ring_front_time(&c, &t), 1);
	assert_int_equal(t, 0x1122334455667788ull);
	/* Nothing published. */
	c.tail = c.head;
	assert_int_equal(perf_ring_front_time(&c, &t), -ENODATA);
	assert_int_equal(perf_ring_merge_pick(&c, 1), -1);
	assert_int_equal(perf_ring_merge_pick(&c, 0), -1);
	/* Too little published for a header, or a header claiming more than published:
	 * no time, picked first so that perf_ring_next() reports the ring corrupt. */
	c.tail = c.head - 4;
	assert_int_equal(perf_ring_front_time(&c, &t), 0);
	c = cursor(&r, RING - 12);
	c.head -= 8;
	assert_int_equal(perf_ring_front_time(&c, &t), 0);
	/* A sample too short to hold a time. */
	r = (struct ring) { .head = 0 };
	put(&r, PERF_RECORD_SAMPLE, "12345678", 8);
	c = cursor(&r, 0);
	assert_int_equal(perf_ring_front_time(&c, &t), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_interleaved_with_wrap),
		cmocka_unit_test(test_equal_times),
		cmocka_unit_test(test_lost_goes_first),
		cmocka_unit_test(test_batch_ends_at_head),
		cmocka_unit_test(test_hold_back),
		cmocka_unit_test(test_hold_back_loss),
		cmocka_unit_test(test_front_time),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
