/* SPDX-License-Identifier: MIT */
/*
 * alert_where: the host address range an alert names.  Records built as
 * kernel-abi/cxl-trace.c builds them from Linux 7.3's cxl_poison and
 * cxl_dram events (field names of drivers/cxl/core/trace.h).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "alert-where.h"
#include "ras-record.h"
#include "rule-field.h"

static void poison(struct ras_record *r, bool with_hpa)
{
	ras_record_init(r, RAS_EVENT_CXL_POISON, MCE_SOURCE_CXL_POISON);
	r->severity = RAS_SEV_UNCORRECTED;
	assert_int_equal(ras_record_add_string(r, "memdev", "mem0", SIZE_MAX), 0);
	assert_int_equal(ras_record_add_hex64(r, "dpa", 0x9000000), 0);
	assert_int_equal(ras_record_add_hex(r, "dpa_length", 0x200), 0);
	if (with_hpa) {
		assert_int_equal(ras_record_add_hex64(r, "hpa", 0x2a9000000), 0);
		assert_int_equal(ras_record_add_string(r, "region", "region0", SIZE_MAX), 0);
	} else {
		assert_int_equal(ras_record_add_string(r, "no_page", "not_in_region", SIZE_MAX), 0);
	}
}

/* Poison in a region: the range from the traced HPA over the device's length. */
static void test_poison_range(void **state)
{
	struct ras_record r;
	struct rule_input in = { .ras = &r };
	char buf[128];
	size_t n;

	(void) state;
	poison(&r, true);
	n = alert_where(&in, buf, sizeof(buf));
	assert_int_equal(n, strlen(buf));
	assert_string_equal(buf, "; mem0 (region0) at HPA 0x2a9000000-0x2a90001ff");
	ras_record_done(&r);
}

/* Outside any region the kernel has no HPA: the alert names none. */
static void test_poison_no_region(void **state)
{
	struct ras_record r;
	struct rule_input in = { .ras = &r };
	char buf[64] = "x";

	(void) state;
	poison(&r, false);
	assert_int_equal(alert_where(&in, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "");
	ras_record_done(&r);
}

/* A DRAM record names one address, no range; without a region name, none shown. */
static void test_dram_single_address(void **state)
{
	struct ras_record r;
	struct rule_input in = { .ras = &r };
	char buf[128];

	(void) state;
	ras_record_init(&r, RAS_EVENT_CXL_DRAM, MCE_SOURCE_CXL_DRAM);
	assert_int_equal(ras_record_add_string(&r, "memdev", "mem1", SIZE_MAX), 0);
	assert_int_equal(ras_record_add_hex64(&r, "hpa", 0x290008040), 0);
	alert_where(&in, buf, sizeof(buf));
	assert_string_equal(buf, "; mem1 at HPA 0x290008040");
	ras_record_done(&r);
}

/* A range that would pass the top of the address space is not made up: one address. */
static void test_range_overflow(void **state)
{
	struct ras_record r;
	struct rule_input in = { .ras = &r };
	char buf[128];

	(void) state;
	ras_record_init(&r, RAS_EVENT_CXL_POISON, MCE_SOURCE_CXL_POISON);
	assert_int_equal(ras_record_add_hex64(&r, "hpa", UINT64_MAX - 0xff), 0);
	assert_int_equal(ras_record_add_hex(&r, "dpa_length", 0x200), 0);
	alert_where(&in, buf, sizeof(buf));
	assert_string_equal(buf, "; CXL memory at HPA 0xffffffffffffff00");
	ras_record_done(&r);
}

/* A short buffer: cut, terminated, the length says what was written. */
static void test_short_buffer(void **state)
{
	struct ras_record r;
	struct rule_input in = { .ras = &r };
	char buf[12];

	(void) state;
	poison(&r, true);
	assert_int_equal(alert_where(&in, buf, sizeof(buf)), sizeof(buf) - 1);
	assert_string_equal(buf, "; mem0 (reg");
	ras_record_done(&r);
}

/* Machine-check records are described by their own fields, not here. */
static void test_mce_input(void **state)
{
	struct rule_input in = { 0 };
	char buf[16] = "x";

	(void) state;
	assert_int_equal(alert_where(&in, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_poison_range),
		cmocka_unit_test(test_poison_no_region),
		cmocka_unit_test(test_dram_single_address),
		cmocka_unit_test(test_range_overflow),
		cmocka_unit_test(test_short_buffer),
		cmocka_unit_test(test_mce_input),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
