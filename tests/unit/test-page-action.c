/* SPDX-License-Identifier: MIT */
/* rules/page-action and rules/page-identity: how a page may be offlined, and what memory it was on. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "page-action.h"
#include "page-identity.h"
#include "ras-record.h"
#include "rule-field.h"

/* An EDAC memory-controller record of severity sev from source, with a label and controller coordinates. */
static void edac_record(struct ras_record *r, enum ras_severity sev, enum mce_source source)
{
	ras_record_init(r, RAS_EVENT_MEMORY_CONTROLLER, source);
	r->severity = sev;
	assert_int_equal(ras_record_add_uint(r, "mc", 1), 0);
	assert_int_equal(ras_record_add_uint(r, "top_layer", 2), 0);
}

static void plan(bool hard, bool at_start, enum ras_severity sev, enum mce_source source, int recovery,
		 struct page_action_plan *ret)
{
	struct ras_record r;
	struct rule_input in = { .ras = &r };

	edac_record(&r, sev, source);
	page_action_plan(hard, at_start, at_start ? NULL : &in, recovery, ret);
	ras_record_done(&r);
}

static void test_soft_is_always_soft(void **state)
{
	struct page_action_plan p;

	(void) state;
	plan(false, false, RAS_SEV_CORRECTED, MCE_SOURCE_RAS_MC_EVENT, 0, &p);
	assert_int_equal(p.action, PAGE_ACTION_SOFT);
	assert_false(p.downgraded);
}

/* Review of e24200c C1: at start never hard, whatever the page was taken by then. */
static void test_start_never_hard(void **state)
{
	struct page_action_plan p;

	(void) state;
	page_action_plan(true, true, NULL, 1, &p);
	assert_int_equal(p.action, PAGE_ACTION_SOFT);
	assert_true(p.downgraded);
	page_action_plan(true, true, NULL, 0, &p);
	assert_int_equal(p.action, PAGE_ACTION_SOFT);
	assert_non_null(strstr(p.why, "vm.memory_failure_recovery=0"));
}

static void test_hard_only_for_uncorrected_of_this_boot(void **state)
{
	struct page_action_plan p;

	(void) state;
	plan(true, false, RAS_SEV_CORRECTED, MCE_SOURCE_RAS_MC_EVENT, 1, &p);
	assert_int_equal(p.action, PAGE_ACTION_SOFT);
	assert_true(p.downgraded);
	plan(true, false, RAS_SEV_UNCORRECTED, MCE_SOURCE_RAS_MC_EVENT, 1, &p);
	assert_int_equal(p.action, PAGE_ACTION_HARD);
	assert_false(p.downgraded);
	plan(true, false, RAS_SEV_DEFERRED, MCE_SOURCE_RAS_MC_EVENT, 1, &p);
	assert_int_equal(p.action, PAGE_ACTION_HARD);
	/* The firmware's record of the boot that died, a replay: the page may hold good data now. */
	plan(true, false, RAS_SEV_UNCORRECTED, MCE_SOURCE_PREVIOUS_BOOT, 1, &p);
	assert_int_equal(p.action, PAGE_ACTION_REFUSE);
	assert_non_null(strstr(p.why, "not from this boot"));
	plan(true, false, RAS_SEV_FATAL, MCE_SOURCE_REPLAY, 1, &p);
	assert_int_equal(p.action, PAGE_ACTION_REFUSE);
}

static void test_recovery_off_refuses(void **state)
{
	struct page_action_plan p;

	(void) state;
	plan(true, false, RAS_SEV_UNCORRECTED, MCE_SOURCE_RAS_MC_EVENT, 0, &p);
	assert_int_equal(p.action, PAGE_ACTION_REFUSE);
	assert_non_null(strstr(p.why, "vm.memory_failure_recovery=0, so the kernel would panic"));
	plan(true, false, RAS_SEV_UNCORRECTED, MCE_SOURCE_RAS_MC_EVENT, -1, &p);
	assert_int_equal(p.action, PAGE_ACTION_REFUSE);
	assert_non_null(strstr(p.why, "unreadable"));
}

static void test_identity(void **state)
{
	struct ras_record r;
	struct rule_input in = { .ras = &r };
	char id[128], v[64];

	(void) state;
	ras_record_init(&r, RAS_EVENT_CXL_DRAM, MCE_SOURCE_RAS_MC_EVENT);
	assert_int_equal(ras_record_add_uint(&r, "serial", 0x1234), 0);
	assert_int_equal(ras_record_add_uint(&r, "dpa", 0x2000), 0);
	page_identity_of_record(&in, NULL, id, sizeof(id));
	assert_string_equal(id, "cxl_serial=0x1234;dpa=0x2000");
	assert_true(page_identity_get(id, "dpa", v, sizeof(v)));
	assert_string_equal(v, "0x2000");
	assert_false(page_identity_get(id, "serial", v, sizeof(v)));
	/* and the region that mapped it, where the record names one */
	assert_int_equal(ras_record_add_string(&r, "region", "region3", SIZE_MAX), 0);
	page_identity_of_record(&in, NULL, id, sizeof(id));
	assert_string_equal(id, "cxl_serial=0x1234;dpa=0x2000;region=region3");
	ras_record_done(&r);

	/* Serial 0 is no serial (QEMU's, devices without a DSN): the record's other coordinates instead. */
	ras_record_init(&r, RAS_EVENT_CXL_DRAM, MCE_SOURCE_RAS_MC_EVENT);
	assert_int_equal(ras_record_add_uint(&r, "serial", 0), 0);
	assert_int_equal(ras_record_add_uint(&r, "dpa", 0x2000), 0);
	page_identity_of_record(&in, NULL, id, sizeof(id));
	assert_null(strstr(id, "cxl_serial"));
	ras_record_done(&r);

	edac_record(&r, RAS_SEV_CORRECTED, MCE_SOURCE_RAS_MC_EVENT);
	assert_int_equal(ras_record_add_string(&r, "dimm_slot", "P1;DIMM=A1", 10), 0);
	page_identity_of_record(&in, "S3R1AL", id, sizeof(id));
	/* A value's ';' and '=' cannot break the items apart. */
	assert_true(page_identity_get(id, "serial", v, sizeof(v)));
	assert_string_equal(v, "S3R1AL");
	assert_true(page_identity_get(id, "mc", v, sizeof(v)));
	assert_string_equal(v, "1");
	ras_record_done(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_soft_is_always_soft),
		cmocka_unit_test(test_start_never_hard),
		cmocka_unit_test(test_hard_only_for_uncorrected_of_this_boot),
		cmocka_unit_test(test_recovery_off_refuses),
		cmocka_unit_test(test_identity),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
