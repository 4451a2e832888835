/* SPDX-License-Identifier: MIT */
/*
 * decoders/page-address.c and the rules' page/no_page fields: a page only
 * from an address the kernel would trust (mce_usable_address(), per vendor),
 * and EDAC events whose address is unknown or coarse name no page.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "decode.h"
#include "ras-record.h"
#include "record.h"
#include "rule-field.h"

/* IA32_MCi_STATUS, SDM Vol. 3B 16.3.2.2. */
#define VAL   (UINT64_C(1) << 63)
#define EN    (UINT64_C(1) << 60)
#define MISCV (UINT64_C(1) << 59)
#define ADDRV (UINT64_C(1) << 58)
/* AMD MCA_STATUS (PPR Family 19h): PADDRV bit 54, Poison bit 43. */
#define PADDRV (UINT64_C(1) << 54)
#define POISON (UINT64_C(1) << 43)
/* IA32_MCi_MISC, SDM Vol. 3B 16.3.2.4: bits 5:0 LSB, bits 8:6 address mode. */
#define MISC(mode, lsb) ((UINT64_C(mode) << 6) | (lsb))
#define MODE_LINEAR 1
#define MODE_PHYSICAL 2

struct probe {
	struct mce_record rec;
	struct mce_decoded d;
	struct rule_input in;
};

/* A Skylake-SP IMC corrected read error (MCACOD 0x0090, bank 13) at addr. */
static void intel_imc(struct probe *p, uint64_t extra_status, uint64_t misc, uint64_t addr)
{
	p->rec = (struct mce_record) {
		.have = MCE_HAVE_BANK | MCE_HAVE_STATUS | MCE_HAVE_ADDR | MCE_HAVE_MISC |
			MCE_HAVE_VENDOR | MCE_HAVE_CPUID,
		.bank = 13, .status = VAL | EN | ADDRV | 0x0090 | extra_status, .addr = addr, .misc = misc,
		.vendor = MCE_VENDOR_INTEL, .family = 6, .model = 0x55,
	};
	mce_decode(&p->rec, &p->d);
	p->in = (struct rule_input) { .mce = &p->rec, .decoded = &p->d };
}

/* The README's AMD Family 19h UMC DRAM ECC record, with extra STATUS bits. */
static void amd_umc(struct probe *p, uint64_t extra_status)
{
	p->rec = (struct mce_record) {
		.have = MCE_HAVE_BANK | MCE_HAVE_STATUS | MCE_HAVE_ADDR | MCE_HAVE_MISC | MCE_HAVE_IPID |
			MCE_HAVE_SYND | MCE_HAVE_VENDOR | MCE_HAVE_CPUID,
		.bank = 5, .status = UINT64_C(0xdc2040000000011b) | extra_status,
		.addr = UINT64_C(0x3bd2c8fc0), .misc = UINT64_C(0xd01a0ffe00000000),
		.synd = UINT64_C(0x5a020001), .ipid = UINT64_C(0x0000009600050f00),
		.vendor = MCE_VENDOR_AMD, .family = 0x19, .model = 1,
	};
	mce_decode(&p->rec, &p->d);
	p->in = (struct rule_input) { .mce = &p->rec, .decoded = &p->d };
}

static const char *no_page(const struct rule_input *in)
{
	struct rule_value v;

	return rule_field_get(in, RULE_FIELD_NO_PAGE, &v) ? v.s : NULL;
}

static void assert_page(const struct rule_input *in, uint64_t page)
{
	struct rule_value v;

	assert_true(rule_field_get(in, RULE_FIELD_PAGE, &v));
	assert_int_equal(v.u, page);
	assert_null(no_page(in));
}

static void assert_no_page(const struct rule_input *in, const char *why)
{
	struct rule_value v;

	assert_false(rule_field_get(in, RULE_FIELD_PAGE, &v));
	assert_false(rule_field_get(in, RULE_FIELD_ADDRESS, &v));
	assert_non_null(no_page(in));
	assert_string_equal(no_page(in), why);
}

static void test_intel(void **state)
{
	struct probe p;
	struct rule_value v;

	(void) state;
	/* ADDRV, MISCV, physical, LSB 6: the page. */
	intel_imc(&p, MISCV, MISC(MODE_PHYSICAL, 6), 0x12345680);
	assert_page(&p.in, 0x12345);
	/* LSB exactly PAGE_SHIFT is still one page. */
	intel_imc(&p, MISCV, MISC(MODE_PHYSICAL, 12), 0x12345000);
	assert_page(&p.in, 0x12345);
	/* Without MISCV the mode and the precision are unknown (review I2, case C). */
	intel_imc(&p, 0, 0, 0x7000000);
	assert_no_page(&p.in, "address_mode_unknown");
	/* An address good only to 1 GiB (review I2, case D). */
	intel_imc(&p, MISCV, MISC(MODE_PHYSICAL, 30), 0x40000000);
	assert_no_page(&p.in, "coarse_address");
	/* A linear address names no page of memory. */
	intel_imc(&p, MISCV, MISC(MODE_LINEAR, 12), 0x12345000);
	assert_no_page(&p.in, "not_physical");
	/* No ADDRV: no address, nothing to explain. */
	intel_imc(&p, MISCV, MISC(MODE_PHYSICAL, 6), 0x12345680);
	p.rec.status &= ~ADDRV;
	mce_decode(&p.rec, &p.d);
	assert_false(rule_field_get(&p.in, RULE_FIELD_PAGE, &v));
	assert_null(no_page(&p.in));
}

static void test_amd(void **state)
{
	struct probe p;

	(void) state;
	/* The UMC's normalized address is never a page (review C1). */
	amd_umc(&p, 0);
	assert_no_page(&p.in, "normalized_address");
	/* Poisoned data, or PADDRV: the kernel trusts the address. */
	amd_umc(&p, POISON);
	assert_page(&p.in, 0x3bd2c8);
	amd_umc(&p, PADDRV);
	assert_page(&p.in, 0x3bd2c8);
	/* A raw MCA_ADDR keeps the LSB in bits 61:56: not part of the page. */
	amd_umc(&p, POISON);
	p.rec.addr |= UINT64_C(6) << 56;
	mce_decode(&p.rec, &p.d);
	assert_page(&p.in, 0x3bd2c8);
}

static void test_amd_legacy_northbridge(void **state)
{
	struct mce_record rec = {
		.have = MCE_HAVE_BANK | MCE_HAVE_STATUS | MCE_HAVE_ADDR | MCE_HAVE_VENDOR | MCE_HAVE_CPUID,
		/* Family 10h NB bank 4, extended error code 8 (DRAM ECC), ADDRV. */
		.bank = 4, .status = VAL | EN | ADDRV | (UINT64_C(8) << 16) | 0x011b, .addr = 0x7654000,
		.vendor = MCE_VENDOR_AMD, .family = 0x10, .model = 4,
	};
	struct mce_decoded d;
	struct rule_input in = { .mce = &rec, .decoded = &d };

	(void) state;
	mce_decode(&rec, &d);
	assert_page(&in, 0x7654);
	/* Any other northbridge error: the address is not a memory page. */
	rec.status = VAL | EN | ADDRV | (UINT64_C(5) << 16) | 0x011b;
	mce_decode(&rec, &d);
	assert_no_page(&in, "not_system_address");
}

static void test_no_vendor(void **state)
{
	struct probe p;

	(void) state;
	/* Whose rules apply is unknown: no page rather than a guess. */
	intel_imc(&p, MISCV, MISC(MODE_PHYSICAL, 6), 0x12345680);
	p.rec.have &= ~(MCE_HAVE_VENDOR | MCE_HAVE_CPUID);
	mce_decode(&p.rec, &p.d);
	assert_no_page(&p.in, "vendor_unknown");
}

static void test_edac(void **state)
{
	struct ras_record r;
	struct rule_input in = { .ras = &r };

	(void) state;
	/* Address 0 is EDAC's "unknown" (review I3, case B): never page 0. */
	ras_record_init(&r, RAS_EVENT_MEMORY_CONTROLLER, MCE_SOURCE_RAS_MC_EVENT);
	assert_int_equal(ras_record_add_hex64(&r, "address", 0), 0);
	assert_no_page(&in, "address_unknown");
	ras_record_done(&r);

	/* A grain wider than a page. */
	ras_record_init(&r, RAS_EVENT_MEMORY_CONTROLLER, MCE_SOURCE_RAS_MC_EVENT);
	assert_int_equal(ras_record_add_hex64(&r, "address", 0x40000000), 0);
	assert_int_equal(ras_record_add_uint(&r, "grain", UINT64_C(1) << 30), 0);
	assert_no_page(&in, "coarse_address");
	ras_record_done(&r);

	/* A cache line's grain: the page. */
	ras_record_init(&r, RAS_EVENT_MEMORY_CONTROLLER, MCE_SOURCE_RAS_MC_EVENT);
	assert_int_equal(ras_record_add_hex64(&r, "address", 0x3bd2c8fc0), 0);
	assert_int_equal(ras_record_add_uint(&r, "grain", 64), 0);
	assert_page(&in, 0x3bd2c8);
	ras_record_done(&r);

	/* The producer's own verdict wins. */
	ras_record_init(&r, RAS_EVENT_MEMORY_CONTROLLER, MCE_SOURCE_RAS_MC_EVENT);
	assert_int_equal(ras_record_add_string(&r, "no_page", "address_unknown", 64), 0);
	assert_no_page(&in, "address_unknown");
	ras_record_done(&r);
}

/* A CXL DRAM record: a valid HPA is its page, a memdev its DIMM, its cell the classifier's. */
static void test_cxl_dram(void **state)
{
	struct ras_record r;
	struct rule_input in = { .ras = &r };
	struct rule_value v;

	(void) state;
	ras_record_init(&r, RAS_EVENT_CXL_DRAM, MCE_SOURCE_CXL_DRAM);
	r.severity = RAS_SEV_CORRECTED;
	assert_int_equal(ras_record_add_string(&r, "memdev", "mem0", SIZE_MAX), 0);
	assert_int_equal(ras_record_add_hex64(&r, "dpa", 0x2000), 0);
	assert_int_equal(ras_record_add_uint(&r, "bank_group", 1), 0);
	assert_int_equal(ras_record_add_uint(&r, "bank", 3), 0);
	assert_int_equal(ras_record_add_uint(&r, "row", 1234), 0);
	assert_int_equal(ras_record_add_hex64(&r, "hpa", 0x1080002040), 0);
	assert_page(&in, 0x1080002);
	/* the device address is no host address: never a page */
	assert_true(rule_field_get(&in, RULE_FIELD_ADDRESS, &v));
	assert_int_equal(v.u, 0x1080002040);
	assert_true(rule_field_get(&in, RULE_FIELD_LABEL, &v));
	assert_string_equal(v.s, "mem0");
	assert_true(rule_field_get(&in, RULE_FIELD_ROW, &v));
	assert_int_equal(v.u, 1234);
	assert_true(rule_field_get(&in, RULE_FIELD_BANK_GROUP, &v));
	assert_int_equal(v.u, 1);
	assert_true(rule_field_get(&in, RULE_FIELD_COMPONENT, &v));
	assert_string_equal(v.s, "memory");
	ras_record_done(&r);

	/* outside any region the kernel traces all ones, and the decoder says so */
	ras_record_init(&r, RAS_EVENT_CXL_DRAM, MCE_SOURCE_CXL_DRAM);
	assert_int_equal(ras_record_add_hex64(&r, "dpa", 0x2000), 0);
	assert_int_equal(ras_record_add_string(&r, "no_page", "not_in_region", SIZE_MAX), 0);
	assert_no_page(&in, "not_in_region");
	ras_record_done(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_intel),
		cmocka_unit_test(test_amd),
		cmocka_unit_test(test_amd_legacy_northbridge),
		cmocka_unit_test(test_no_vendor),
		cmocka_unit_test(test_edac),
		cmocka_unit_test(test_cxl_dram),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
