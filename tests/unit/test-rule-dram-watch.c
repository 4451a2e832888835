/* SPDX-License-Identifier: MIT */
/* rules/dram-watch: per-DIMM fault patterns as they form, from records that name their cell. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "dram-watch.h"
#include "ras-record.h"

/* Feeds one firmware memory record (CPER memory section: bank, row, column). */
static int feed(struct dram_watch *w, const char *label, unsigned channel, enum ras_severity sev, uint32_t bank,
		uint32_t row, uint32_t column, struct dram_watch_event *ev)
{
	struct ras_record r;
	struct rule_input in;
	int k;

	ras_record_init(&r, RAS_EVENT_FIRMWARE_MEMORY, MCE_SOURCE_RAS_EXTLOG_MEM_EVENT);
	r.severity = sev;
	if (label)
		assert_int_equal(ras_record_add_string(&r, "label", label, 64), 0);
	else {
		assert_int_equal(ras_record_add_uint(&r, "socket", 0), 0);
		assert_int_equal(ras_record_add_uint(&r, "channel", channel), 0);
	}
	assert_int_equal(ras_record_add_uint(&r, "bank", bank), 0);
	assert_int_equal(ras_record_add_uint(&r, "row", row), 0);
	assert_int_equal(ras_record_add_uint(&r, "column", column), 0);
	in = (struct rule_input) { .ras = &r };
	k = dram_watch_feed(w, &in, ev);
	ras_record_done(&r);
	return k;
}

static void test_row_fault_forms(void **state)
{
	struct dram_watch w = { 0 };
	struct dram_watch_event ev;

	(void) state;
	/* One cell, again and again: no multi-cell fault. */
	assert_int_equal(feed(&w, "DIMM_A1", 0, RAS_SEV_CORRECTED, 3, 0x1234, 16, &ev), 0);
	assert_int_equal(feed(&w, "DIMM_A1", 0, RAS_SEV_CORRECTED, 3, 0x1234, 16, &ev), 0);
	/* Another column of the same row: a row fault forms, once. */
	assert_int_equal(feed(&w, "DIMM_A1", 0, RAS_SEV_CORRECTED, 3, 0x1234, 80, &ev), 1);
	assert_string_equal(ev.dimm, "DIMM_A1");
	assert_int_equal(ev.from, DRAM_PATTERN_SINGLE_CELL);
	assert_int_equal(ev.to, DRAM_PATTERN_SINGLE_ROW);
	assert_int_equal(ev.first.row, 0x1234);
	assert_int_equal(ev.cell.column, 80);
	assert_int_equal(ev.errors, 3);
	assert_int_equal(feed(&w, "DIMM_A1", 0, RAS_SEV_CORRECTED, 3, 0x1234, 200, &ev), 0);
	/* Another row of the same bank: it widens to a bank fault, reported again. */
	assert_int_equal(feed(&w, "DIMM_A1", 0, RAS_SEV_CORRECTED, 3, 0x99, 16, &ev), 1);
	assert_int_equal(ev.from, DRAM_PATTERN_SINGLE_ROW);
	assert_int_equal(ev.to, DRAM_PATTERN_SINGLE_BANK);
	/* ... and another bank: multi-bank. */
	assert_int_equal(feed(&w, "DIMM_A1", 0, RAS_SEV_CORRECTED, 5, 0x99, 16, &ev), 1);
	assert_int_equal(ev.to, DRAM_PATTERN_MULTI_BANK);
	/* Another DIMM is followed on its own. */
	assert_int_equal(feed(&w, "DIMM_B1", 0, RAS_SEV_CORRECTED, 5, 0x99, 16, &ev), 0);
	assert_int_equal(feed(&w, "DIMM_B1", 0, RAS_SEV_CORRECTED, 6, 0x1, 16, &ev), 1);
	assert_string_equal(ev.dimm, "DIMM_B1");
	assert_int_equal(ev.to, DRAM_PATTERN_MULTI_BANK);
	dram_watch_done(&w);
}

static void test_what_is_left_out(void **state)
{
	struct dram_watch w = { 0 };
	struct dram_watch_event ev;

	(void) state;
	/* Uncorrected errors are not part of the pattern (they are alerts of their own). */
	assert_int_equal(feed(&w, "DIMM_A1", 0, RAS_SEV_CORRECTED, 3, 1, 1, &ev), 0);
	assert_int_equal(feed(&w, "DIMM_A1", 0, RAS_SEV_FATAL, 3, 1, 2, &ev), 0);
	assert_int_equal(w.dimms[0].tracker.errors, 1);
	/* No label: the location fields name the DIMM; a column fault on channel 1. */
	assert_int_equal(feed(&w, NULL, 1, RAS_SEV_CORRECTED, 2, 7, 9, &ev), 0);
	assert_int_equal(feed(&w, NULL, 1, RAS_SEV_CORRECTED, 2, 8, 9, &ev), 1);
	assert_string_equal(ev.dimm, "socket=0 channel=1");
	assert_int_equal(ev.to, DRAM_PATTERN_SINGLE_COLUMN);
	dram_watch_done(&w);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_row_fault_forms),
		cmocka_unit_test(test_what_is_left_out),
	};

	return cmocka_run_group_tests_name("rule-dram-watch", tests, NULL, NULL);
}
