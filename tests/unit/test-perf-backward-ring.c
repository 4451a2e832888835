/* SPDX-License-Identifier: MIT */
/*
 * The counter recorder's overwrite ring: records written backward as the
 * kernel does with write_backward (kernel/events/ring_buffer.c: the head
 * goes down by each record's size and the record is stored from the new
 * head upwards, wrapping at the end), read back newest first.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <linux/perf_event.h>
#include <cmocka.h>

#include "perf-backward-ring.h"

#define SIZE 256

struct bring {
	unsigned char data[SIZE];
	uint64_t head;
};

/* A sample whose body is n u64 words, each the record's sequence number. */
static void put_backward(struct bring *r, uint64_t seq, size_t words)
{
	unsigned char rec[8 + 8 * 16];
	struct perf_event_header h = { .type = PERF_RECORD_SAMPLE, .size = (uint16_t) (8 + 8 * words) };

	memcpy(rec, &h, 8);
	for (size_t i = 0; i < words; i++)
		memcpy(rec + 8 + 8 * i, &seq, 8);
	r->head -= h.size;
	for (size_t i = 0; i < h.size; i++)
		r->data[(r->head + i) % SIZE] = rec[i];
}

struct seen {
	uint64_t seq[64];
	size_t words[64];
	size_t n;
	int bad;
};

static void collect(uint32_t type, const void *body, size_t body_size, void *userdata)
{
	struct seen *s = userdata;
	const unsigned char *b = body;
	uint64_t first, w;

	if (type != PERF_RECORD_SAMPLE || body_size % 8 != 0 || s->n >= 64) {
		s->bad++;
		return;
	}
	memcpy(&first, b, 8);
	/* Every word of a record is its number: a record mended from two places shows here. */
	for (size_t i = 8; i < body_size; i += 8) {
		memcpy(&w, b + i, 8);
		if (w != first)
			s->bad++;
	}
	s->seq[s->n] = first;
	s->words[s->n++] = body_size / 8;
}

static void test_not_full(void **state)
{
	struct bring r = {};
	struct seen s = {};

	(void) state;
	for (uint64_t i = 1; i <= 3; i++)
		put_backward(&r, i, 2);
	assert_int_equal(perf_backward_ring_walk(r.data, SIZE, r.head, 100, collect, &s), 3);
	assert_int_equal(s.bad, 0);
	/* Newest first. */
	assert_int_equal(s.seq[0], 3);
	assert_int_equal(s.seq[1], 2);
	assert_int_equal(s.seq[2], 1);
	/* Never written: nothing. */
	memset(&s, 0, sizeof(s));
	assert_int_equal(perf_backward_ring_walk(r.data, SIZE, 0, 100, collect, &s), 0);
}

static void test_overwritten(void **state)
{
	struct bring r = {};
	struct seen s = {};

	(void) state;
	/* 40 records of 24 bytes in 256: the ring went round several times, and the
	 * oldest one still partly there straddles what the newest overwrote. */
	for (uint64_t i = 1; i <= 40; i++)
		put_backward(&r, i, 2);
	int n = perf_backward_ring_walk(r.data, SIZE, r.head, 100, collect, &s);
	/* 256 / 24 = 10 whole records fit behind the head. */
	assert_int_equal(n, 10);
	assert_int_equal(s.bad, 0);
	for (int i = 0; i < n; i++)
		assert_int_equal(s.seq[i], 40 - (uint64_t) i);
}

static void test_wrapping_record_and_sizes(void **state)
{
	struct bring r = {};
	struct seen s = {};

	(void) state;
	/* Mixed sizes so that records straddle the end of the data area. */
	for (uint64_t i = 1; i <= 30; i++)
		put_backward(&r, i, 1 + (size_t) (i % 5));
	int n = perf_backward_ring_walk(r.data, SIZE, r.head, 100, collect, &s);
	assert_true(n > 3);
	assert_int_equal(s.bad, 0);
	size_t bytes = 0;
	for (int i = 0; i < n; i++) {
		assert_int_equal(s.seq[i], 30 - (uint64_t) i);
		bytes += 8 + 8 * s.words[i];
	}
	assert_true(bytes <= SIZE);
	/* The next older record would not have fitted whole. */
	assert_true(bytes + 8 + 8 * (1 + (30 - (size_t) n) % 5) > SIZE);

	/* At most max_records. */
	memset(&s, 0, sizeof(s));
	assert_int_equal(perf_backward_ring_walk(r.data, SIZE, r.head, 2, collect, &s), 2);
	assert_int_equal(s.seq[1], 29);
}

static void test_hostile(void **state)
{
	struct bring r = {};
	struct seen s = {};
	struct perf_event_header h = { .type = PERF_RECORD_SAMPLE, .size = 4 };

	(void) state;
	assert_int_equal(perf_backward_ring_walk(r.data, 100, 0, 10, collect, &s), -EINVAL);
	assert_int_equal(perf_backward_ring_walk(r.data, 4, 0, 10, collect, &s), -EINVAL);
	/* A header that claims less than a header: stop, never loop. */
	put_backward(&r, 7, 2);
	r.head -= 8;
	memcpy(r.data + (r.head % SIZE), &h, sizeof(h));
	assert_int_equal(perf_backward_ring_walk(r.data, SIZE, r.head, 10, collect, &s), 0);
	/* One that claims more than was ever written. */
	h.size = 200;
	memcpy(r.data + (r.head % SIZE), &h, sizeof(h));
	assert_int_equal(perf_backward_ring_walk(r.data, SIZE, r.head, 10, collect, &s), 0);
	assert_int_equal(s.n, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_not_full),
		cmocka_unit_test(test_overwritten),
		cmocka_unit_test(test_wrapping_record_and_sizes),
		cmocka_unit_test(test_hostile),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
