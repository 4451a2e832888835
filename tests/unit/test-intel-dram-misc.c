/* SPDX-License-Identifier: MIT */
/*
 * The DRAM cell in MCi_MISC of Intel 10 nm and later memory-controller
 * banks (decoders/intel-dram-misc.c): a real Ice Lake-SP record whose
 * firmware (ADXL) decode names the same cell, each field of each layout on
 * its own (so a field placed on the wrong bits cannot pass), and the records
 * whose MISC holds no cell.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "decode.h"
#include "json-writer.h"
#include "record-json.h"

#define BIT(n) (UINT64_C(1) << (n))
#define VAL   BIT(63)
#define UC    BIT(61)
#define MISCV BIT(59)
#define ADDRV BIT(58)

/* Corrected memory read, channel 0; MSCOD 0x0080 "corrected memory read error". */
#define CE_READ (VAL | MISCV | ADDRV | (UINT64_C(0x0080) << 16) | 0x0090)

static struct mce_record rec(uint32_t model, uint32_t bank, uint64_t status, uint64_t misc)
{
	return (struct mce_record) {
		.have = MCE_HAVE_STATUS | MCE_HAVE_MISC | MCE_HAVE_ADDR | MCE_HAVE_VENDOR | MCE_HAVE_CPUID |
			MCE_HAVE_BANK,
		.vendor = MCE_VENDOR_INTEL, .family = 6, .model = model, .bank = bank,
		.status = status, .misc = misc, .addr = 0x12345000,
	};
}

/*
 * Tony Luck's Ice Lake-SP dmesg, https://lore.kernel.org/lkml/20210812152548.GA1579021@agluck-desk2.amr.corp.intel.com/
 * (also tests/golden/published-real.golden.jsonl): "Bank 25: 0xac00000200a00090 ...
 * MISC 0x9000201d809c086", and i10nm_edac's firmware decode of the same
 * error: "MC#3_Chan#0_DIMM#0 ... PhysicalRankId:0x1 DimmSlotId:0x0 Row:0x3b01
 * Column:0x380 Bank:0x0 BankGroup:0x2".  Two independent decodes, one cell.
 */
static void test_icelake_real_record_matches_firmware(void **state)
{
	struct mce_record r = rec(0x6a, 25, UINT64_C(0xac00000200a00090), UINT64_C(0x9000201d809c086));
	struct mce_decoded d;

	(void) state;
	mce_decode(&r, &d);
	assert_int_equal(d.row, 0x3b01);
	assert_int_equal(d.column, 0x380);
	assert_int_equal(d.dram_bank, 0);
	assert_int_equal(d.bank_group, 2);
	assert_int_equal(d.rank, 1);
	assert_int_equal(d.dimm, 0);
	assert_int_equal(d.channel, 0);
}

struct layout_case {
	const char *name;
	uint32_t model, bank;
	uint64_t status_extra;
	unsigned row_lo, row_bits, col_lo, bank_lo, bg_lo, bg_bits, bg2;   /* bg2: 0 if none */
};

/* Bit positions as the sources give them (Linux i10nm_base.c; mcelog granite.c), restated here. */
static const struct layout_case layouts[] = {
	{ "Ice Lake-SP",      0x6a, 13, 0,       19, 21, 9, 42, 40, 2, 44 },
	{ "Sapphire Rapids",  0x8f, 20, 0,       19, 18, 9, 39, 37, 2, 41 },
	{ "Emerald Rapids",   0xcf, 14, 0,       19, 18, 9, 39, 37, 2, 41 },
	{ "Granite Rapids",   0xad, 24, BIT(33), 19, 18, 9, 37, 39, 3, 0 },
};

static void test_each_field_alone(void **state)
{
	(void) state;
	for (size_t i = 0; i < sizeof(layouts) / sizeof(layouts[0]); i++) {
		const struct layout_case *c = &layouts[i];
		uint64_t status = CE_READ | c->status_extra;
		uint64_t row_max = (UINT64_C(1) << c->row_bits) - 1;
		struct mce_record r;
		struct mce_decoded d;

		print_message("%s\n", c->name);
		/* Only the row's bits set: the rest must read 0. */
		r = rec(c->model, c->bank, status, row_max << c->row_lo);
		mce_decode(&r, &d);
		assert_int_equal(d.row, (int) row_max);
		assert_int_equal(d.column, 0);
		assert_int_equal(d.dram_bank, 0);
		assert_int_equal(d.bank_group, 0);

		/* Only the column's ten bits: reported in units of four. */
		r = rec(c->model, c->bank, status, UINT64_C(0x3ff) << c->col_lo);
		mce_decode(&r, &d);
		assert_int_equal(d.column, 0x3ff << 2);
		assert_int_equal(d.row, 0);

		/* Bank 3, bank group at its widest. */
		r = rec(c->model, c->bank, status, (UINT64_C(3) << c->bank_lo) |
			(((UINT64_C(1) << c->bg_bits) - 1) << c->bg_lo) | (c->bg2 ? BIT(c->bg2) : 0));
		mce_decode(&r, &d);
		assert_int_equal(d.dram_bank, 3);
		assert_int_equal(d.bank_group, 7);
		assert_int_equal(d.row, 0);
		assert_int_equal(d.column, 0);
	}
}

static void assert_no_cell(const struct mce_record *r)
{
	struct mce_decoded d;

	mce_decode(r, &d);
	assert_int_equal(d.row, -1);
	assert_int_equal(d.column, -1);
	assert_int_equal(d.dram_bank, -1);
	assert_int_equal(d.bank_group, -1);
}

static void test_records_without_a_cell(void **state)
{
	uint64_t misc = UINT64_C(0x9000201d809c086);
	struct mce_record r;

	(void) state;
	/* No MISCV: MISC is not valid at all. */
	r = rec(0x6a, 13, CE_READ & ~MISCV, misc);
	assert_no_cell(&r);
	/* Ice Lake-SP wants ADDRV as well (i10nm_mc_decode_available()). */
	r = rec(0x6a, 13, CE_READ & ~ADDRV, misc);
	assert_no_cell(&r);
	/* Ice Lake-SP's third iMC bank of a controller is no channel bank. */
	r = rec(0x6a, 15, CE_READ, misc);
	assert_no_cell(&r);
	/* MISC[62:59] = 8: a DDR-T read. */
	r = rec(0x8f, 13, CE_READ, (misc & ~(UINT64_C(0xf) << 59)) | (UINT64_C(8) << 59));
	assert_no_cell(&r);
	/* A DDR-T MSCOD. */
	r = rec(0x8f, 13, (CE_READ & ~(UINT64_C(0xffff) << 16)) | (UINT64_C(0x0801) << 16), misc);
	assert_no_cell(&r);
	/* Granite Rapids without STATUS[33]. */
	r = rec(0xad, 13, CE_READ, misc);
	assert_no_cell(&r);
	/* Sapphire Rapids HBM banks: no public layout. */
	r = rec(0x8f, 30, CE_READ, misc);
	assert_no_cell(&r);
	/* Skylake-SP: MISC holds no cell. */
	r = rec(0x55, 13, CE_READ, misc);
	assert_no_cell(&r);
	/* Not a memory-controller error (a cache code) on an iMC bank. */
	r = rec(0x8f, 13, (CE_READ & ~UINT64_C(0xffff)) | 0x0134, misc);
	assert_no_cell(&r);
	/* Without the MISC register captured. */
	r = rec(0x8f, 13, CE_READ, misc);
	r.have &= ~MCE_HAVE_MISC;
	assert_no_cell(&r);
}

static void test_json_names_the_cell(void **state)
{
	struct mce_record r = rec(0x6a, 25, UINT64_C(0xac00000200a00090), UINT64_C(0x9000201d809c086));
	struct mce_decoded d;
	struct json_writer w;

	(void) state;
	mce_decode(&r, &d);
	json_writer_init(&w);
	mce_record_write_json(&r, &d, &w);
	assert_false(json_writer_failed(&w));
	assert_non_null(strstr(json_writer_str(&w), "\"bank_group\":2,\"dram_bank\":0,\"row\":15105,\"column\":896"));
	json_writer_done(&w);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_icelake_real_record_matches_firmware),
		cmocka_unit_test(test_each_field_alone),
		cmocka_unit_test(test_records_without_a_cell),
		cmocka_unit_test(test_json_names_the_cell),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
