/* SPDX-License-Identifier: MIT */
/*
 * Zhaoxin KH-40000 and KH-50000: their identity (either vendor string,
 * family 7 with the extended model) and model-specific banks
 * (decoders/zhaoxin-models.c names the sources).  No Zhaoxin machine check
 * has been published that we could find: the records are built from the
 * layouts, each field at a value of its own.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "decode.h"
#include "decoded-details.h"
#include "record.h"

#define BIT(n) (UINT64_C(1) << (n))
#define VAL   BIT(63)
#define UC    BIT(61)
#define EN    BIT(60)
#define MISCV BIT(59)
#define ADDRV BIT(58)
#define MSCOD(v) ((uint64_t) (v) << 16)

static struct mce_record rec(uint32_t model, uint32_t bank, uint64_t status, uint64_t misc)
{
	return (struct mce_record) {
		.have = MCE_HAVE_STATUS | MCE_HAVE_MISC | MCE_HAVE_VENDOR | MCE_HAVE_CPUID | MCE_HAVE_BANK,
		.vendor = MCE_VENDOR_ZHAOXIN, .family = 7, .model = model, .bank = bank, .status = status,
		.misc = misc,
	};
}

/*
 * CPUID(1).EAX of a KH-50000 (07_7BH) and a KH-40000 (07_5BH): the model's
 * high nibble is in the extended model, which Linux reads from base family
 * 06H up.  Before, family 7 kept only the low nibble (0xb for both).
 */
static void test_identity(void **state)
{
	static const struct { uint32_t eax, model; const char *name; } parts[] = {
		{ 0x000707b2, 0x7b, "Zhaoxin KH-50000" },
		{ 0x000507b0, 0x5b, "Zhaoxin KH-40000" },
	};
	static const enum mce_vendor vendors[] = { MCE_VENDOR_ZHAOXIN, MCE_VENDOR_CENTAUR };
	struct mce_decoded d;

	(void) state;
	assert_int_equal(mce_vendor_from_string("  Shanghai  "), MCE_VENDOR_ZHAOXIN);
	assert_int_equal(mce_vendor_from_string("CentaurHauls"), MCE_VENDOR_CENTAUR);
	for (size_t i = 0; i < sizeof(parts) / sizeof(parts[0]); i++)
		for (size_t v = 0; v < sizeof(vendors) / sizeof(vendors[0]); v++) {
			struct mce_record r = { .have = MCE_HAVE_VENDOR | MCE_HAVE_STATUS | MCE_HAVE_BANK,
						.vendor = vendors[v], .status = VAL | 0x0005 };

			mce_record_set_cpuid(&r, parts[i].eax);
			assert_int_equal(r.family, 7);
			assert_int_equal(r.model, parts[i].model);
			mce_decode(&r, &d);
			assert_false(d.unknown_model);
			assert_string_equal(d.cpu_model, parts[i].name);
		}
	/* Intel's and AMD's numbers are as before */
	{
		struct mce_record r = { 0 };

		mce_record_set_cpuid(&r, 0x000806f8);
		assert_int_equal(r.family, 6);
		assert_int_equal(r.model, 0x8f);
		mce_record_set_cpuid(&r, 0x00a00f11);
		assert_int_equal(r.family, 0x19);
		assert_int_equal(r.model, 0x01);
		mce_record_set_cpuid(&r, 0x00000f29);
		assert_int_equal(r.family, 15);
		assert_int_equal(r.model, 2);
	}
}

/* KH-50000 DRAM channel: internal code, Zhaoxin's channel names, and what MISC says. */
static void test_kh50000_dram(void **state)
{
	uint64_t misc = UINT64_C(0x1a2b3) << 31 | UINT64_C(2) << 25 | UINT64_C(0x5a) << 9 | UINT64_C(2) << 6;
	struct mce_record r = rec(0x7b, 12, VAL | EN | MISCV | ADDRV | MSCOD(1) | 0x0093, misc);
	struct mce_decoded d;

	(void) state;
	mce_decode(&r, &d);
	assert_string_equal(d.bank_type, "DRAM");
	assert_string_equal(d.description, "Single-bit ECC error");
	assert_int_equal(d.channel, 3);
	assert_detail(&d, "channel_name", 3, "B1");
	assert_detail(&d, "memory_error", 1, "read");
	assert_detail(&d, "crc_parity_log", 0x1a2b3, NULL);
	assert_detail(&d, "rank", 2, NULL);
	assert_detail(&d, "ecc_syndrome_bit", 0x5a, NULL);
	assert_detail(&d, "address_mode", 2, "SVA");

	/* Zhaoxin's own MMM values */
	r.status = VAL | UC | EN | MSCOD(2) | 0x00e0;
	mce_decode(&r, &d);
	assert_string_equal(d.description, "Multi-bit ECC error");
	assert_detail(&d, "memory_error", 6, "data poison from the DRAM controller, patrol read");

	/* MCACOD 1 is a DVAD error; without MISCV nothing is read from MISC */
	r.status = VAL | UC | EN | MSCOD(16) | 0x0001;
	mce_decode(&r, &d);
	assert_string_equal(d.description, "Key not hit");
	assert_detail(&d, "dvad_error", 1, "DVAD error");
	assert_null(detail(&d, "rank"));

	/* bank 17 is the LLC, between the two runs of DRAM banks */
	r = rec(0x7b, 17, VAL | EN | UINT64_C(3) << 25 | UINT64_C(2) << 23 | UINT64_C(9) << 19 | UINT64_C(5) << 16 |
		0x0001, 0);
	mce_decode(&r, &d);
	assert_string_equal(d.bank_type, "LLC");
	assert_string_equal(d.description, "ECC multi-bit error in the data");
	assert_detail(&d, "siod_id", 2, NULL);
	assert_detail(&d, "ccd_id", 9, NULL);
	assert_detail(&d, "core_id", 5, NULL);
	r.bank = 18;
	r.status = VAL | EN | MSCOD(4) | 0x0080;
	mce_decode(&r, &d);
	assert_string_equal(d.bank_type, "DRAM");
	assert_string_equal(d.description, "Write CRC error");
}

static void test_kh50000_other_banks(void **state)
{
	/* PCIe: the device in MISC */
	uint64_t bdf = UINT64_C(0x01) << 32 | UINT64_C(0x3a) << 24 | UINT64_C(0x1f) << 19 | UINT64_C(5) << 16;
	struct mce_record r = rec(0x7b, 6, VAL | EN | MISCV | MSCOD(2) | 0x0e0b, bdf);
	struct mce_decoded d;

	(void) state;
	mce_decode(&r, &d);
	assert_string_equal(d.bank_name, "PCIe (CRMCA1)");
	assert_string_equal(d.description, "PCIe correctable error");
	assert_detail(&d, "pcie_segment", 1, NULL);
	assert_detail(&d, "pcie_bus", 0x3a, NULL);
	assert_detail(&d, "pcie_device", 0x1f, NULL);
	assert_detail(&d, "pcie_function", 5, NULL);

	/* I/O die link: the port is the bit MISC[30:25] sets */
	r = rec(0x7b, 3, VAL | EN | MISCV | MSCOD(21) | 0x0e0f, UINT64_C(0x04) << 25);
	mce_decode(&r, &d);
	assert_string_equal(d.description, "Link speed reduced from Gen4: link unreliable");
	assert_detail(&d, "zdi_port", 4, "zdi2");

	/* core bank */
	r = rec(0x7b, 0, VAL | UC | EN | UINT64_C(2) << 25 | UINT64_C(1) << 23 | UINT64_C(0xa) << 19 |
		UINT64_C(6) << 16 | 0x0400, 0);
	mce_decode(&r, &d);
	assert_string_equal(d.description, "Machine hung");
	assert_detail(&d, "siod_id", 1, NULL);
	assert_detail(&d, "ccd_id", 0xa, NULL);
	assert_detail(&d, "core_id", 6, NULL);

	/* voltage regulator: the code in MSCOD[15:8], the regulator in MISC */
	r = rec(0x7b, 27, VAL | EN | MISCV | MSCOD(0x0300) | 0x0402, UINT64_C(3) << 24);
	mce_decode(&r, &d);
	assert_string_equal(d.bank_name, "Voltage Regulator Interface 1");
	assert_string_equal(d.description, "Voltage regulator over temperature");
	assert_detail(&d, "vrm", 3, NULL);

	r = rec(0x7b, 30, VAL | EN | MSCOD(0x0005) | 0x0e0f, 0);
	mce_decode(&r, &d);
	assert_string_equal(d.bank_name, "Host Interface H2");
	assert_string_equal(d.description, "CXL poison, corrected");

	/* reserved banks stay unnamed */
	r.bank = 8;
	mce_decode(&r, &d);
	assert_null(d.bank_name);
}

/* KH-40000: the CPU-side banks hold their layout only when STATUS[31:30] is 01b. */
static void test_kh40000(void **state)
{
	uint64_t ids = UINT64_C(1) << 23 | UINT64_C(5) << 20 | UINT64_C(2) << 18 | UINT64_C(3) << 16;
	struct mce_record r = rec(0x5b, 0, VAL | UC | EN | UINT64_C(1) << 30 | UINT64_C(1) << 24 | ids | 0x0400, 0);
	struct mce_decoded d;

	(void) state;
	mce_decode(&r, &d);
	assert_string_equal(d.cpu_model, "Zhaoxin KH-40000");
	assert_string_equal(d.description, "Thermal trip");
	assert_detail(&d, "socket_id", 1, NULL);
	assert_detail(&d, "subnode_id", 5, NULL);
	assert_detail(&d, "cluster_id", 2, NULL);
	assert_detail(&d, "core_id", 3, NULL);

	r.status = VAL | UC | EN | UINT64_C(2) << 30 | UINT64_C(1) << 24 | ids | 0x0400;
	mce_decode(&r, &d);
	assert_null(d.description);
	assert_null(detail(&d, "core_id"));

	r = rec(0x5b, 17, VAL | EN | UINT64_C(1) << 30 | UINT64_C(2) << 24 | 0x0001, 0);
	mce_decode(&r, &d);
	assert_string_equal(d.bank_type, "LLC");
	assert_string_equal(d.description, "ECC single-bit error, different line");

	r = rec(0x5b, 4, VAL | EN | MISCV | UINT64_C(3) << 24 | 0x0402, UINT64_C(2) << 24);
	mce_decode(&r, &d);
	assert_string_equal(d.description, "Voltage regulator over temperature");
	assert_detail(&d, "vrm", 2, NULL);

	r = rec(0x5b, 5, VAL | EN | MISCV | MSCOD(10) | 0x0e0f, UINT64_C(2) << 25);
	mce_decode(&r, &d);
	assert_string_equal(d.description, "Unsupported or undefined packet");
	assert_detail(&d, "link", 2, "zpi");

	r = rec(0x5b, 10, VAL | UC | EN | MISCV | MSCOD(8) | 0x0001, UINT64_C(3) << 6 | UINT64_C(1) << 25);
	mce_decode(&r, &d);
	assert_string_equal(d.bank_name, "Memory Controller Channel");
	assert_string_equal(d.description, "Memory controller transfer (MCUTRF) DVAD decode error");
	assert_detail(&d, "dvad_error", 1, "DVAD error");
	assert_detail(&d, "address_mode", 3, "DVAD");
	assert_detail(&d, "rank", 1, NULL);

	/* the KH-50000's banks are not the KH-40000's */
	r.bank = 12;
	mce_decode(&r, &d);
	assert_null(d.bank_name);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_identity),
		cmocka_unit_test(test_kh50000_dram),
		cmocka_unit_test(test_kh50000_other_banks),
		cmocka_unit_test(test_kh40000),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
