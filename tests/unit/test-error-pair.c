/* SPDX-License-Identifier: MIT */
/*
 * rules/error-pair.c and the engine's one count per error: a machine check
 * and its EDAC copy share an error id, in either order, and a rule's bucket
 * counts that id once (review of 7618bea, I3).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "error-pair.h"
#include "ras-record.h"
#include "rule-engine.h"

#define SEC UINT64_C(1000000)
#define T0 (UINT64_C(1795168800) * SEC)
#define CORRECTED 0
#define UNCORRECTED 2

static struct error_pair_probe probe(bool is_mce, int severity, bool has_page, uint64_t page, uint64_t t)
{
	return (struct error_pair_probe) {
		.is_mce = is_mce, .severity = severity, .has_page = has_page, .page = page, .time_usec = t,
	};
}

static uint64_t feed(struct error_pair *p, struct error_pair_probe x, bool want_paired)
{
	bool paired = !want_paired;
	uint64_t id = error_pair_feed(p, &x, &paired);

	assert_true(id != 0);
	assert_int_equal(paired, want_paired);
	return id;
}

static void test_pairs_either_order(void **state)
{
	struct error_pair p = { 0 };
	uint64_t a, b;

	(void) state;
	/* Intel: the machine check first, its EDAC copy 300 ms later, same page. */
	a = feed(&p, probe(true, CORRECTED, true, 0x12345, T0), false);
	assert_int_equal(feed(&p, probe(false, CORRECTED, true, 0x12345, T0 + 300000), true), a);
	/* The EDAC event first this time. */
	b = feed(&p, probe(false, CORRECTED, true, 0x12345, T0 + 10 * SEC), false);
	assert_true(b != a);
	assert_int_equal(feed(&p, probe(true, CORRECTED, true, 0x12345, T0 + 10 * SEC), true), b);
	/* A third copy does not join a pair made already. */
	assert_true(feed(&p, probe(false, CORRECTED, true, 0x12345, T0 + 10 * SEC), false) != b);
}

static void test_what_does_not_pair(void **state)
{
	struct error_pair p = { 0 };

	(void) state;
	feed(&p, probe(true, CORRECTED, true, 0x12345, T0), false);
	/* Two machine checks are two errors. */
	feed(&p, probe(true, CORRECTED, true, 0x12345, T0 + 1), false);
	/* Another page, another severity, or too late: another error. */
	feed(&p, probe(false, CORRECTED, true, 0x54321, T0 + 2), false);
	feed(&p, probe(false, UNCORRECTED, true, 0x12345, T0 + 3), false);
	feed(&p, probe(false, CORRECTED, true, 0x12345, T0 + ERROR_PAIR_WINDOW_USEC + 2 * SEC), false);
}

static void test_amd_pairs_without_mce_page(void **state)
{
	struct error_pair p = { 0 };
	uint64_t a;

	(void) state;
	/* The UMC's machine check names no page; amd64_edac's copy names the translated one. */
	a = feed(&p, probe(true, CORRECTED, false, 0, T0), false);
	assert_int_equal(feed(&p, probe(false, CORRECTED, true, 0x71234, T0 + 1000), true), a);
	/* An exact page match wins over a looser, more recent candidate. */
	a = feed(&p, probe(true, CORRECTED, true, 0x111, T0 + 5 * SEC), false);
	feed(&p, probe(true, CORRECTED, false, 0, T0 + 5 * SEC + 1), false);
	assert_int_equal(feed(&p, probe(false, CORRECTED, true, 0x111, T0 + 5 * SEC + 2), true), a);
}

static void test_ids_unique_and_not_before_time(void **state)
{
	struct error_pair p = { 0 };
	uint64_t a, b;

	(void) state;
	a = feed(&p, probe(true, CORRECTED, true, 1, T0), false);
	b = feed(&p, probe(true, CORRECTED, true, 2, T0), false);
	assert_true(a >= T0);
	assert_true(b > a);
}

/* The engine: two records of one error count once in a bucket; another error counts. */
static void test_engine_counts_an_error_once(void **state)
{
	static const char text[] =
		"[Rule]\nName=page\nMatch=component=memory\nKey=page\nThreshold=3 in 1h\nAction=alert\n";
	struct rule_set set;
	struct rule_engine *e = NULL;
	struct ras_record r;
	struct rule_input in = { .ras = &r };
	int fired = 0;

	(void) state;
	rule_set_init(&set);
	assert_int_equal(rule_set_parse(&set, text, strlen(text), "t.rules", NULL, NULL), 0);
	assert_int_equal(rule_engine_new(&set, 0, &e), 0);
	ras_record_init(&r, RAS_EVENT_MEMORY_CONTROLLER, MCE_SOURCE_RAS_MC_EVENT);
	assert_int_equal(ras_record_add_hex64(&r, "address", 0x12345000), 0);
	for (uint64_t id = 1; id <= 3; id++) {
		in.error_id = id;
		/* Each error twice: its copies. */
		fired += rule_engine_feed(e, &in, T0 + id * SEC, NULL, NULL);
		fired += rule_engine_feed(e, &in, T0 + id * SEC + 1, NULL, NULL);
		assert_int_equal(fired, id == 3 ? 1 : 0);
	}
	assert_int_equal(rule_engine_stats(e, 0)->copies, 3);
	/* Records without an id count each. */
	in.error_id = 0;
	for (unsigned i = 0; i < 3; i++)
		fired += rule_engine_feed(e, &in, T0 + 100 * SEC + i, NULL, NULL);
	assert_int_equal(fired, 2);
	ras_record_done(&r);
	rule_engine_free(e);
	rule_set_done(&set);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pairs_either_order),
		cmocka_unit_test(test_what_does_not_pair),
		cmocka_unit_test(test_amd_pairs_without_mce_page),
		cmocka_unit_test(test_ids_unique_and_not_before_time),
		cmocka_unit_test(test_engine_counts_an_error_once),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
