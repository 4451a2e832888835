/* SPDX-License-Identifier: MIT */
/* rules/dram-pattern: fault classes from address sets built on a documented DRAM layout. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "dram-pattern.h"

/*
 * A single-rank DDR4 DIMM of 8 Gb x8 devices (JEDEC JESD79-4, "Addressing":
 * 8 Gb x8 has 4 bank groups of 4 banks, 65,536 rows (A0-A15) and 1,024
 * columns (A0-A9)), on a 64-bit data bus, so one column access moves 8 bytes.
 * DIMM-local address, row:bank:column order (the "open page" mapping):
 * bits 2:0 byte, 12:3 column, 16:13 bank group and bank, 32:17 row.
 */
static const struct dram_layout ddr4_8gb_x8 = {
	.column_shift = 3, .column_bits = 10,
	.bank_shift = 13, .bank_bits = 4,
	.row_shift = 17, .row_bits = 16,
};

static uint64_t addr(uint32_t bank, uint32_t row, uint32_t column)
{
	return (uint64_t) row << 17 | (uint64_t) bank << 13 | (uint64_t) column << 3;
}

static enum dram_pattern classify(const uint64_t *a, size_t n)
{
	struct dram_tracker t = { 0 };
	enum dram_pattern p = DRAM_PATTERN_NONE;

	for (size_t i = 0; i < n; i++) {
		struct dram_cell c;

		dram_layout_decode(&ddr4_8gb_x8, a[i], &c);
		p = dram_tracker_add(&t, &c);
	}
	assert_int_equal(p, dram_tracker_pattern(&t));
	return p;
}

#define CLASSIFY(...) classify((const uint64_t[]) { __VA_ARGS__ }, \
			       sizeof((const uint64_t[]) { __VA_ARGS__ }) / sizeof(uint64_t))

static void test_layout(void **state)
{
	struct dram_cell c;

	(void) state;
	assert_int_equal(dram_layout_check(&ddr4_8gb_x8), 0);
	dram_layout_decode(&ddr4_8gb_x8, addr(9, 0xbeef, 0x3ff) | 7, &c);
	assert_int_equal(c.bank, 9);
	assert_int_equal(c.row, 0xbeef);
	assert_int_equal(c.column, 0x3ff);

	/* Overlapping fields, an empty field, a field past bit 63 are refused. */
	assert_int_equal(dram_layout_check(&(struct dram_layout) {
		.column_shift = 3, .column_bits = 10, .bank_shift = 12, .bank_bits = 4,
		.row_shift = 17, .row_bits = 16 }), -EINVAL);
	assert_int_equal(dram_layout_check(&(struct dram_layout) {
		.column_shift = 3, .column_bits = 10, .bank_shift = 13, .bank_bits = 0,
		.row_shift = 17, .row_bits = 16 }), -EINVAL);
	assert_int_equal(dram_layout_check(&(struct dram_layout) {
		.column_shift = 3, .column_bits = 10, .bank_shift = 13, .bank_bits = 4,
		.row_shift = 50, .row_bits = 16 }), -EINVAL);
}

static void test_classes(void **state)
{
	(void) state;
	assert_int_equal(classify(NULL, 0), DRAM_PATTERN_NONE);
	/* The same cell again and again, bytes within one column access included. */
	assert_int_equal(CLASSIFY(addr(2, 100, 5), addr(2, 100, 5) | 3, addr(2, 100, 5)),
			 DRAM_PATTERN_SINGLE_CELL);
	/* One row of one bank, several columns. */
	assert_int_equal(CLASSIFY(addr(2, 100, 5), addr(2, 100, 6), addr(2, 100, 900)),
			 DRAM_PATTERN_SINGLE_ROW);
	/* One column of one bank, several rows. */
	assert_int_equal(CLASSIFY(addr(2, 100, 5), addr(2, 7, 5), addr(2, 65535, 5)),
			 DRAM_PATTERN_SINGLE_COLUMN);
	/* One bank, rows and columns both vary. */
	assert_int_equal(CLASSIFY(addr(2, 100, 5), addr(2, 101, 6), addr(2, 3000, 77)),
			 DRAM_PATTERN_SINGLE_BANK);
	assert_int_equal(CLASSIFY(addr(2, 100, 5), addr(3, 100, 5)), DRAM_PATTERN_MULTI_BANK);
	assert_int_equal(CLASSIFY(addr(0, 1, 1), addr(15, 2, 2), addr(7, 3, 3)),
			 DRAM_PATTERN_MULTI_BANK);
}

/* Same row and column numbers in another bank are another row and column. */
static void test_row_belongs_to_bank(void **state)
{
	(void) state;
	assert_int_equal(CLASSIFY(addr(2, 100, 5), addr(2, 100, 6), addr(3, 100, 7)),
			 DRAM_PATTERN_MULTI_BANK);
	assert_int_equal(CLASSIFY(addr(2, 100, 5), addr(2, 101, 5), addr(3, 102, 5)),
			 DRAM_PATTERN_MULTI_BANK);
}

/* A stray error widens the class, never narrows it; the order does not matter. */
static void test_widening(void **state)
{
	(void) state;
	assert_int_equal(CLASSIFY(addr(2, 100, 5), addr(2, 100, 6), addr(2, 9, 9)),
			 DRAM_PATTERN_SINGLE_BANK);
	assert_int_equal(CLASSIFY(addr(2, 9, 9), addr(2, 100, 5), addr(2, 100, 6)),
			 DRAM_PATTERN_SINGLE_BANK);
	/* Once wide, a return to the first cell does not narrow it. */
	assert_int_equal(CLASSIFY(addr(2, 100, 5), addr(2, 100, 6), addr(2, 100, 5)),
			 DRAM_PATTERN_SINGLE_ROW);
}

/* Many errors along one row: constant memory, still one row. */
static void test_long_row(void **state)
{
	struct dram_tracker t = { 0 };

	(void) state;
	for (uint32_t col = 0; col < 1024; col++) {
		struct dram_cell c;

		dram_layout_decode(&ddr4_8gb_x8, addr(11, 4242, col), &c);
		assert_int_equal(dram_tracker_add(&t, &c),
				 col == 0 ? DRAM_PATTERN_SINGLE_CELL : DRAM_PATTERN_SINGLE_ROW);
	}
	assert_int_equal(t.errors, 1024);
}

static void test_names(void **state)
{
	(void) state;
	for (unsigned p = 0; p < _DRAM_PATTERN_MAX; p++)
		assert_int_equal(dram_pattern_from_string(dram_pattern_to_string(p)), p);
	assert_int_equal(dram_pattern_from_string("row"), _DRAM_PATTERN_MAX);
	assert_false(dram_pattern_is_multi_cell(DRAM_PATTERN_NONE));
	assert_false(dram_pattern_is_multi_cell(DRAM_PATTERN_SINGLE_CELL));
	assert_true(dram_pattern_is_multi_cell(DRAM_PATTERN_SINGLE_ROW));
	assert_true(dram_pattern_is_multi_cell(DRAM_PATTERN_MULTI_BANK));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_layout),
		cmocka_unit_test(test_classes),
		cmocka_unit_test(test_row_belongs_to_bank),
		cmocka_unit_test(test_widening),
		cmocka_unit_test(test_long_row),
		cmocka_unit_test(test_names),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
