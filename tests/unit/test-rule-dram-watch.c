/* SPDX-License-Identifier: MIT */
/* rules/dram-watch: per-DIMM fault patterns as they form, from records that name their cell. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "decode.h"
#include "dram-watch.h"
#include "edac-detail.h"
#include "ras-record.h"
#include "rule-field.h"

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

/* Feeds one EDAC ras:mc_event whose driver_detail names the cell, as the trace reader builds it. */
static int feed_edac(struct dram_watch *w, const char *detail, struct dram_watch_event *ev)
{
	struct ras_record r;
	struct rule_input in;
	int k;

	ras_record_init(&r, RAS_EVENT_MEMORY_CONTROLLER, MCE_SOURCE_RAS_MC_EVENT);
	r.severity = RAS_SEV_CORRECTED;
	assert_int_equal(ras_record_add_string(&r, "label", "CPU_SrcID#0_MC#3_Chan#0_DIMM#0", 64), 0);
	assert_int_equal(ras_record_add_string(&r, "driver_detail", detail, 512), 0);
	assert_true(ras_record_add_edac_location(&r) > 0);
	in = (struct rule_input) { .ras = &r };
	k = dram_watch_feed(w, &in, ev);
	ras_record_done(&r);
	return k;
}

/* i10nm_edac's firmware decode (form of the real record in test-edac-detail.c): one column, two rows. */
static void test_edac_detail_reaches_the_classifier(void **state)
{
	struct dram_watch w = { 0 };
	struct dram_watch_event ev;

	(void) state;
	assert_int_equal(feed_edac(&w, "ProcessorSocketId:0x0 MemoryControllerId:0x3 ChannelId:0x0 DimmSlotId:0x0 "
				   "PhysicalRankId:0x1 Row:0x3b01 Column:0x380 Bank:0x0 BankGroup:0x2", &ev), 0);
	assert_int_equal(feed_edac(&w, "ProcessorSocketId:0x0 MemoryControllerId:0x3 ChannelId:0x0 DimmSlotId:0x0 "
				   "PhysicalRankId:0x1 Row:0x0042 Column:0x380 Bank:0x0 BankGroup:0x2", &ev), 1);
	assert_string_equal(ev.dimm, "CPU_SrcID#0_MC#3_Chan#0_DIMM#0");
	assert_int_equal(ev.to, DRAM_PATTERN_SINGLE_COLUMN);
	/* Bank group 2, bank 0: packed as CPER packs them. */
	assert_int_equal(ev.cell.bank, 0x200);
	assert_int_equal(ev.cell.row, 0x42);
	/* Same bank number in another bank group is another bank. */
	assert_int_equal(feed_edac(&w, "Row:0x0042 Column:0x380 Bank:0x0 BankGroup:0x1", &ev), 1);
	assert_int_equal(ev.to, DRAM_PATTERN_MULTI_BANK);
	dram_watch_done(&w);
}

/* Feeds one Ice Lake-SP iMC machine check (bank 25: controller 3, channel 0) with MISC as given. */
static int feed_mce(struct dram_watch *w, uint64_t misc, struct dram_watch_event *ev)
{
	struct mce_record r = {
		.have = MCE_HAVE_STATUS | MCE_HAVE_MISC | MCE_HAVE_ADDR | MCE_HAVE_VENDOR | MCE_HAVE_CPUID |
			MCE_HAVE_BANK | MCE_HAVE_SOCKET,
		.vendor = MCE_VENDOR_INTEL, .family = 6, .model = 0x6a, .bank = 25, .socket = 0,
		/* corrected memory read, channel 0: VAL, MISCV, ADDRV, MSCOD 0x0080 */
		.status = UINT64_C(0x8c00000000800090), .misc = misc, .addr = 0x7e025e400,
	};
	struct mce_decoded d;
	struct rule_input in = { .mce = &r, .decoded = &d };

	mce_decode(&r, &d);
	return dram_watch_feed(w, &in, ev);
}

/*
 * MISC of the real Ice Lake-SP record (test-intel-dram-misc.c): row 0x3b01,
 * column 0x380, bank group 2, bank 0, rank 1; then the same with the column
 * field (MISC[18:9], in units of 4) moved: a row fault, from machine checks alone.
 */
static void test_intel_misc_reaches_the_classifier(void **state)
{
	const uint64_t misc = UINT64_C(0x9000201d809c086);
	const uint64_t col_mask = UINT64_C(0x3ff) << 9;
	struct dram_watch w = { 0 };
	struct dram_watch_event ev;

	(void) state;
	assert_int_equal(feed_mce(&w, misc, &ev), 0);
	assert_int_equal(feed_mce(&w, (misc & ~col_mask) | (UINT64_C(0x10) << 9), &ev), 1);
	assert_int_equal(ev.to, DRAM_PATTERN_SINGLE_ROW);
	assert_int_equal(ev.first.row, 0x3b01);
	assert_int_equal(ev.first.column, 0x380);
	assert_int_equal(ev.cell.column, 0x40);
	assert_int_equal(ev.cell.bank, 0x200);
	assert_string_equal(ev.dimm, "socket=0 mc=3 channel=0 dimm=0 rank=1");
	dram_watch_done(&w);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_row_fault_forms),
		cmocka_unit_test(test_what_is_left_out),
		cmocka_unit_test(test_edac_detail_reaches_the_classifier),
		cmocka_unit_test(test_intel_misc_reaches_the_classifier),
	};

	return cmocka_run_group_tests_name("rule-dram-watch", tests, NULL, NULL);
}
