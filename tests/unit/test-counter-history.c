/* SPDX-License-Identifier: MIT */
/* The counter history: intervals, scaling, the window around an error, figures, baseline. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "counter-history.h"
#include "json-writer.h"
#include "macro.h"

enum { CYCLES, INSTRUCTIONS, REF_CYCLES, CPU_CLOCK, N_EVENTS };
static const char *const names[N_EVENTS] = {
	[CYCLES] = "cycles",
	[INSTRUCTIONS] = "instructions",
	[REF_CYCLES] = "ref-cycles",
	[CPU_CLOCK] = "cpu-clock",
};

/* One read where every event ran its whole enabled time. */
static void push(struct counter_history *h, int64_t t, uint64_t cycles, uint64_t instructions,
		 uint64_t ref, uint64_t clock_ns, uint64_t enabled)
{
	const struct counter_reading r[N_EVENTS] = {
		[CYCLES] = { cycles, enabled, enabled, true },
		[INSTRUCTIONS] = { instructions, enabled, enabled, true },
		[REF_CYCLES] = { ref, enabled, enabled, true },
		[CPU_CLOCK] = { clock_ns, enabled, enabled, true },
	};
	assert_int_equal(counter_history_push(h, t, r, false), 0);
}

static void test_empty(void **state)
{
	(void) state;
	_cleanup_(counter_history_freep) struct counter_history *h = counter_history_new(names, N_EVENTS, 4);
	struct counter_window w;

	assert_non_null(h);
	assert_int_equal(counter_history_window(h, 0, &w), -ENODATA);
	push(h, 1000000, 0, 0, 0, 0, 0);
	/* one read is no interval yet */
	assert_int_equal(counter_history_window(h, 1000000, &w), -ENODATA);

	/* bad sizes */
	assert_null(counter_history_new(names, 0, 4));
	assert_null(counter_history_new(names, N_EVENTS, 1));
	assert_null(counter_history_new(names, COUNTER_EVENTS_MAX + 1, 4));
	assert_null(counter_history_new(names, N_EVENTS, COUNTER_HISTORY_MAX + 1));
}

static void test_window_boundaries(void **state)
{
	(void) state;
	_cleanup_(counter_history_freep) struct counter_history *h = counter_history_new(names, N_EVENTS, 4);
	struct counter_window w;

	/* reads at 10, 11, 12 s; cycles grow by 100, 200 */
	push(h, 10000000, 0, 0, 0, 0, 0);
	push(h, 11000000, 100, 0, 0, 0, 1000000000);
	push(h, 12000000, 300, 0, 0, 0, 2000000000);

	/* inside the second interval */
	assert_int_equal(counter_history_window(h, 11500000, &w), 0);
	assert_int_equal(w.position, COUNTER_WINDOW_COVERS);
	assert_int_equal(w.start_usec, 11000000);
	assert_int_equal(w.deltas[CYCLES].count, 200);

	/* exactly at a read: the interval that ends there */
	assert_int_equal(counter_history_window(h, 11000000, &w), 0);
	assert_int_equal(w.position, COUNTER_WINDOW_COVERS);
	assert_int_equal(w.end_usec, 11000000);
	assert_int_equal(w.deltas[CYCLES].count, 100);
	assert_int_equal(counter_history_window(h, 11000001, &w), 0);
	assert_int_equal(w.start_usec, 11000000);
	assert_int_equal(counter_history_window(h, 12000000, &w), 0);
	assert_int_equal(w.position, COUNTER_WINDOW_COVERS);
	assert_int_equal(w.end_usec, 12000000);

	/* at or before the oldest read: the first interval, and it says so */
	assert_int_equal(counter_history_window(h, 10000000, &w), 0);
	assert_int_equal(w.position, COUNTER_WINDOW_BEFORE_HISTORY);
	assert_int_equal(w.start_usec, 10000000);
	assert_int_equal(counter_history_window(h, INT64_MIN, &w), 0);
	assert_int_equal(w.position, COUNTER_WINDOW_BEFORE_HISTORY);

	/* after the newest: the last interval */
	assert_int_equal(counter_history_window(h, 12000001, &w), 0);
	assert_int_equal(w.position, COUNTER_WINDOW_AFTER_HISTORY);
	assert_int_equal(w.end_usec, 12000000);

	/* time going backwards is refused, not stored */
	const struct counter_reading r[N_EVENTS] = {};
	assert_int_equal(counter_history_push(h, 11999999, r, false), -EINVAL);
	assert_int_equal(counter_history_count(h), 3);
}

static void test_ring_evicts_oldest(void **state)
{
	(void) state;
	_cleanup_(counter_history_freep) struct counter_history *h = counter_history_new(names, N_EVENTS, 3);
	struct counter_window w;

	for (int i = 0; i < 10; i++)
		push(h, (int64_t) i * 1000000, (uint64_t) i * i, 0, 0, 0, (uint64_t) i * 1000000000);
	assert_int_equal(counter_history_count(h), 3);
	/* reads 7, 8, 9 remain: an error at 5 s is before them */
	assert_int_equal(counter_history_window(h, 5000000, &w), 0);
	assert_int_equal(w.position, COUNTER_WINDOW_BEFORE_HISTORY);
	assert_int_equal(w.start_usec, 7000000);
	assert_int_equal(w.deltas[CYCLES].count, 64 - 49);
	assert_int_equal(counter_history_window(h, 8500000, &w), 0);
	assert_int_equal(w.deltas[CYCLES].count, 81 - 64);

	counter_history_clear(h);
	assert_int_equal(counter_history_window(h, 8500000, &w), -ENODATA);
}

static void test_scaling(void **state)
{
	(void) state;
	_cleanup_(counter_history_freep) struct counter_history *h = counter_history_new(names, N_EVENTS, 4);
	struct counter_window w;
	struct counter_reading r[N_EVENTS] = {};

	for (size_t e = 0; e < N_EVENTS; e++)
		r[e].valid = true;
	assert_int_equal(counter_history_push(h, 0, r, false), 0);
	/* cycles on the PMU a quarter of the time: 250 counted stands for 1000 */
	r[CYCLES] = (struct counter_reading) { 250, 1000000000, 250000000, true };
	/* instructions never scheduled */
	r[INSTRUCTIONS] = (struct counter_reading) { 0, 1000000000, 0, true };
	/* ref-cycles not read this time */
	r[REF_CYCLES].valid = false;
	r[CPU_CLOCK] = (struct counter_reading) { 1000000000, 1000000000, 1000000000, true };
	assert_int_equal(counter_history_push(h, 1000000, r, false), 0);

	assert_int_equal(counter_history_window(h, 500000, &w), 0);
	assert_true(w.deltas[CYCLES].valid);
	assert_true(w.deltas[CYCLES].scaled);
	assert_int_equal(w.deltas[CYCLES].count, 1000);
	assert_false(w.deltas[INSTRUCTIONS].valid);
	assert_string_equal(w.deltas[INSTRUCTIONS].reason, "not scheduled");
	assert_false(w.deltas[REF_CYCLES].valid);
	assert_string_equal(w.deltas[REF_CYCLES].reason, "not read");
	assert_false(w.deltas[CPU_CLOCK].scaled);
	/* the times the scaling used: a quarter of the interval on the PMU, none at all */
	assert_true(w.deltas[CYCLES].enabled_ns == 1000000000 && w.deltas[CYCLES].running_ns == 250000000);
	assert_true(w.deltas[INSTRUCTIONS].enabled_ns == 1000000000 && w.deltas[INSTRUCTIONS].running_ns == 0);
	assert_true(w.deltas[CPU_CLOCK].running_ns == w.deltas[CPU_CLOCK].enabled_ns);

	/* scaling a huge count does not overflow: it saturates */
	r[CYCLES] = (struct counter_reading) { UINT64_MAX, 4000000000, 250000001, true };
	assert_int_equal(counter_history_push(h, 2000000, r, false), 0);
	assert_int_equal(counter_history_window(h, 1500000, &w), 0);
	assert_true(w.deltas[CYCLES].count == UINT64_MAX);

	/* derived figures: IPC needs instructions, which were not counted */
	struct counter_derived d;
	assert_int_equal(counter_history_window(h, 500000, &w), 0);
	counter_history_derive(h, &w, &d);
	assert_false(d.have_ipc);
	assert_false(d.have_frequency_ratio);
	assert_true(d.have_effective_mhz);
	/* 1000 cycles in 1 s of cpu-clock: 0.001 MHz */
	assert_true(d.effective_mhz > 0.00099 && d.effective_mhz < 0.00101);

	/* an event the caller never opened is absent, not "not read", and left out of the JSON */
	r[REF_CYCLES] = (struct counter_reading) { .absent = true };
	assert_int_equal(counter_history_push(h, 3000000, r, false), 0);
	assert_int_equal(counter_history_window(h, 2500000, &w), 0);
	assert_true(w.deltas[REF_CYCLES].absent);
	assert_false(w.deltas[REF_CYCLES].valid);
	struct json_writer jw;
	json_writer_init(&jw);
	json_object_begin(&jw, NULL);
	counter_history_derive(h, &w, &d);
	counter_window_write_json(h, &w, &d, &jw);
	json_object_end(&jw);
	assert_null(strstr(json_writer_str(&jw), "ref-cycles"));
	json_writer_done(&jw);
}

static void test_reset(void **state)
{
	(void) state;
	_cleanup_(counter_history_freep) struct counter_history *h = counter_history_new(names, N_EVENTS, 4);
	struct counter_window w;

	push(h, 0, 5000, 5000, 5000, 5000, 3000000000);
	/* the group was reopened: totals restart from zero */
	push(h, 1000000, 10, 10, 10, 10, 1000000);
	assert_int_equal(counter_history_window(h, 500000, &w), 0);
	for (size_t e = 0; e < N_EVENTS; e++) {
		assert_false(w.deltas[e].valid);
		assert_string_equal(w.deltas[e].reason, "reset");
	}
	/* the next interval counts again */
	push(h, 2000000, 30, 30, 30, 30, 2000000);
	assert_int_equal(counter_history_window(h, 1500000, &w), 0);
	assert_true(w.deltas[CYCLES].valid);
	assert_int_equal(w.deltas[CYCLES].count, 20);
	/* and the reset interval is no part of its baseline */
	assert_false(w.deltas[CYCLES].have_baseline);
}

static void test_derived_and_zero(void **state)
{
	(void) state;
	_cleanup_(counter_history_freep) struct counter_history *h = counter_history_new(names, N_EVENTS, 4);
	struct counter_window w;
	struct counter_derived d;

	push(h, 0, 0, 0, 0, 0, 0);
	/* nothing ran: every ratio would divide by zero */
	push(h, 1000000, 0, 0, 0, 0, 1000000000);
	assert_int_equal(counter_history_window(h, 500000, &w), 0);
	counter_history_derive(h, &w, &d);
	assert_false(d.have_ipc);
	assert_false(d.have_frequency_ratio);
	assert_false(d.have_effective_mhz);
	assert_false(d.have_cache_miss_rate);
	assert_false(d.have_branch_miss_rate);

	/* 2e9 cycles, 3e9 instructions, 1e9 ref-cycles, 1 s of cpu-clock */
	push(h, 2000000, 2000000000, 3000000000, 1000000000, 1000000000, 2000000000);
	assert_int_equal(counter_history_window(h, 1500000, &w), 0);
	counter_history_derive(h, &w, &d);
	assert_true(d.have_ipc);
	assert_true(d.ipc > 1.4999 && d.ipc < 1.5001);
	assert_true(d.frequency_ratio > 1.9999 && d.frequency_ratio < 2.0001);
	assert_true(d.effective_mhz > 1999.9 && d.effective_mhz < 2000.1);
	/* the one other interval counted nothing: no baseline to compare with */
	assert_false(w.deltas[CYCLES].have_baseline);
}

static void test_baseline_change(void **state)
{
	(void) state;
	_cleanup_(counter_history_freep) struct counter_history *h = counter_history_new(names, N_EVENTS, 8);
	struct counter_window w;

	/* 100 cycles a second for four seconds, then 400 in a half-second interval */
	for (int i = 0; i <= 4; i++)
		push(h, (int64_t) i * 1000000, (uint64_t) i * 100, 0, 0, 0, (uint64_t) i * 1000000000);
	push(h, 4500000, 800, 0, 0, 0, 4500000000);
	assert_int_equal(counter_history_window(h, 4200000, &w), 0);
	assert_int_equal(w.deltas[CYCLES].count, 400);
	assert_true(w.deltas[CYCLES].have_baseline);
	assert_int_equal(w.baseline_intervals, 4);
	/* 800/s against 100/s */
	assert_true(w.deltas[CYCLES].change > 7.999 && w.deltas[CYCLES].change < 8.001);
	/* instructions: zero everywhere, no baseline rather than 0/0 */
	assert_false(w.deltas[INSTRUCTIONS].have_baseline);

	/* an ordinary interval is close to 1 */
	assert_int_equal(counter_history_window(h, 2500000, &w), 0);
	assert_true(w.deltas[CYCLES].change < 1.0);

	/* two reads at the same instant: a zero-length interval is skipped, not divided by */
	push(h, 4500000, 800, 0, 0, 0, 4500000000);
	assert_int_equal(counter_history_window(h, 2500000, &w), 0);
	assert_true(w.deltas[CYCLES].have_baseline);
}

static void test_provisional(void **state)
{
	(void) state;
	_cleanup_(counter_history_freep) struct counter_history *h = counter_history_new(names, N_EVENTS, 4);
	struct counter_window w;
	const struct counter_reading r0[N_EVENTS] = { [CYCLES] = { 0, 0, 0, true } };

	/* three periodic reads: 100 cycles a second */
	for (int i = 0; i < 3; i++) {
		struct counter_reading r[N_EVENTS] = { [CYCLES] = { (uint64_t) i * 100, (uint64_t) i * 1000000000,
								    (uint64_t) i * 1000000000, true } };
		assert_int_equal(counter_history_push(h, (int64_t) i * 1000000, i ? r : r0, false), 0);
	}
	/* a burst of 100 records, each with its own read: they replace each other */
	for (int k = 1; k <= 100; k++) {
		uint64_t ns = 2000000000ULL + (uint64_t) k * 1000000;
		struct counter_reading r[N_EVENTS] = { [CYCLES] = { 200 + (uint64_t) k, ns, ns, true } };
		assert_int_equal(counter_history_push(h, 2000000 + k * 1000, r, true), 0);
		assert_int_equal(counter_history_count(h), 4);
		assert_int_equal(counter_history_window(h, 2000000 + k * 1000 - 1, &w), 0);
		assert_int_equal(w.position, COUNTER_WINDOW_COVERS);
		assert_int_equal(w.deltas[CYCLES].count, (uint64_t) k);
		/* the baseline is still the periodic reads */
		assert_int_equal(w.baseline_intervals, 2);
	}
	/* the next periodic read replaces the provisional one, and is kept */
	struct counter_reading r3[N_EVENTS] = { [CYCLES] = { 300, 3000000000, 3000000000, true } };
	assert_int_equal(counter_history_push(h, 3000000, r3, false), 0);
	assert_int_equal(counter_history_count(h), 4);
	assert_int_equal(counter_history_window(h, 2500000, &w), 0);
	assert_int_equal(w.start_usec, 2000000);
	assert_int_equal(w.end_usec, 3000000);
	assert_int_equal(w.deltas[CYCLES].count, 100);
}

static void test_json(void **state)
{
	(void) state;
	_cleanup_(counter_history_freep) struct counter_history *h = counter_history_new(names, N_EVENTS, 4);
	struct counter_window w;
	struct counter_derived d;
	struct json_writer jw;

	push(h, 1700000000000000, 0, 0, 0, 0, 0);
	push(h, 1700000001000000, 1000, 1500, 500, 1000000000, 1000000000);
	struct counter_reading r[N_EVENTS] = {
		[CYCLES] = { 3000, 2000000000, 1500000000, true },
		[INSTRUCTIONS] = { 1500, 2000000000, 2000000000, false },
		[REF_CYCLES] = { 1500, 2000000000, 2000000000, true },
		[CPU_CLOCK] = { 2000000000, 2000000000, 2000000000, true },
	};
	assert_int_equal(counter_history_push(h, 1700000002000000, r, false), 0);
	assert_int_equal(counter_history_window(h, 1700000001500000, &w), 0);
	counter_history_derive(h, &w, &d);

	json_writer_init(&jw);
	json_object_begin(&jw, NULL);
	counter_window_write_json(h, &w, &d, &jw);
	json_object_end(&jw);
	assert_string_equal(json_writer_str(&jw),
		"{\"window\":{\"start\":\"2023-11-14T22:13:21.000000Z\",\"end\":\"2023-11-14T22:13:22.000000Z\","
		"\"seconds\":1.000000,\"position\":\"covers\"},"
		"\"events\":{\"cycles\":4000,\"ref-cycles\":1000,\"cpu-clock\":1000000000},"
		"\"scaled\":[\"cycles\"],"
		"\"time_enabled_ns\":{\"cycles\":1000000000},\"time_running_ns\":{\"cycles\":500000000},"
		"\"not_counted\":{\"instructions\":\"not read\"},"
		"\"frequency_ratio\":4.000,\"effective_mhz\":0.0,"
		"\"baseline_intervals\":1,\"change\":{\"cycles\":4.000,\"ref-cycles\":2.000,\"cpu-clock\":1.000}}");
	json_writer_done(&jw);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_empty),
		cmocka_unit_test(test_window_boundaries),
		cmocka_unit_test(test_ring_evicts_oldest),
		cmocka_unit_test(test_scaling),
		cmocka_unit_test(test_reset),
		cmocka_unit_test(test_derived_and_zero),
		cmocka_unit_test(test_baseline_change),
		cmocka_unit_test(test_provisional),
		cmocka_unit_test(test_json),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
