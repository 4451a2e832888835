/* SPDX-License-Identifier: MIT */
/*
 * lib/cxl-trace-text.c: the kernel's cxl:* trace lines → the records the
 * daemon logs.  The lines are real: printed by Linux 7.3.4 (Debian
 * trixie-backports) in the VM rig's CXL boot (tests/vm/scenarios/65,
 * 2026-11-28) for events QEMU 10.0's cxl-type3 device reported, and the
 * expected values are the ones mcelogd's ring decoder logged for the same
 * events in that boot.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "cxl-trace-lines.h"
#include "cxl-trace-text.h"
#include "ras-record.h"

static const char *str(const struct ras_record *r, const char *key)
{
	const struct ras_field *x = ras_record_find(r, key);

	return x && x->type == RAS_FIELD_STRING ? x->data : NULL;
}

static uint64_t num(const struct ras_record *r, const char *key)
{
	const struct ras_field *x = ras_record_find(r, key);

	assert_non_null(x);
	assert_true(x->type != RAS_FIELD_STRING && x->type != RAS_FIELD_BYTES);
	return x->u;
}

static void parse(const char *line, struct ras_record *r)
{
	const char *why = "unset";

	assert_int_equal(cxl_trace_text_parse(line, strlen(line), r, &why), 0);
	assert_null(why);
}

static void test_general_media(void **state)
{
	struct ras_record r;

	(void) state;
	parse(cxl_line_general_media, &r);
	assert_int_equal(r.event, RAS_EVENT_CXL_GENERAL_MEDIA);
	assert_int_equal(r.source, MCE_SOURCE_CXL_GENERAL_MEDIA);
	/* the descriptor says uncorrectable: whatever the log */
	assert_int_equal(r.severity, RAS_SEV_UNCORRECTED);
	assert_string_equal(str(&r, "memdev"), "mem0");
	assert_string_equal(str(&r, "host"), "0000:0d:00.0");
	assert_string_equal(str(&r, "log"), "informational");
	assert_string_equal(str(&r, "descriptor"), "UNCORRECTABLE_EVENT|THRESHOLD_EVENT");
	assert_string_equal(str(&r, "type"), "TE State Violation");
	assert_string_equal(str(&r, "transaction_type"), "Host Read");
	assert_int_equal(num(&r, "dpa"), 0x1000);
	assert_int_equal(num(&r, "channel"), 3);
	assert_int_equal(num(&r, "rank"), 1);
	assert_int_equal(num(&r, "media_device"), 5);
	/* all ones: no region; the record says so and names no HPA, no region */
	assert_string_equal(str(&r, "no_page"), "not_in_region");
	assert_null(ras_record_find(&r, "hpa"));
	assert_null(ras_record_find(&r, "region"));
	assert_null(ras_record_find(&r, "region_uuid"));
	/* the comp_id bytes the kernel prints with spaces are no pair */
	assert_null(ras_record_find(&r, "comp_id"));
	assert_non_null(strstr(r.summary, "mem0 at DPA 0x1000"));
	ras_record_done(&r);
}

static void test_dram(void **state)
{
	struct ras_record r;

	(void) state;
	parse(cxl_line_dram, &r);
	assert_int_equal(r.event, RAS_EVENT_CXL_DRAM);
	assert_int_equal(r.severity, RAS_SEV_CORRECTED);
	assert_string_equal(str(&r, "log"), "warning");
	assert_null(ras_record_find(&r, "descriptor"));   /* printed empty */
	assert_string_equal(str(&r, "type"), "ECC Error");
	assert_string_equal(str(&r, "transaction_type"), "Host Write");
	assert_int_equal(num(&r, "dpa"), 0x2000);
	assert_int_equal(num(&r, "channel"), 2);
	assert_int_equal(num(&r, "rank"), 0);
	assert_int_equal(num(&r, "nibble_mask"), 0x21);
	assert_int_equal(num(&r, "bank_group"), 1);
	assert_int_equal(num(&r, "bank"), 3);
	assert_int_equal(num(&r, "row"), 1234);
	assert_int_equal(num(&r, "column"), 56);
	/* sub_channel=0 is printed, but validity_flags does not name it */
	assert_null(ras_record_find(&r, "sub_channel"));
	assert_string_equal(str(&r, "no_page"), "not_in_region");
	ras_record_done(&r);
}

static void test_memory_module(void **state)
{
	struct ras_record r;
	const struct ras_field *t;

	(void) state;
	parse(cxl_line_memory_module, &r);
	assert_int_equal(r.event, RAS_EVENT_CXL_MEMORY_MODULE);
	/* the failure log */
	assert_int_equal(r.severity, RAS_SEV_UNCORRECTED);
	assert_string_equal(str(&r, "event_type"), "Life Used Change");
	assert_string_equal(str(&r, "health_status"), "MAINTENANCE_NEEDED|PERFORMANCE_DEGRADED");
	assert_string_equal(str(&r, "media_status"), "All Data Loss in Event of Power Loss");
	assert_int_equal(num(&r, "life_used"), 30);
	assert_int_equal(num(&r, "dirty_shutdowns"), 4);
	assert_int_equal(num(&r, "corrected_volatile_errors"), 5);
	assert_int_equal(num(&r, "corrected_persistent_errors"), 6);
	t = ras_record_find(&r, "temperature");
	assert_non_null(t);
	assert_int_equal(t->type, RAS_FIELD_INT);
	assert_int_equal(t->i, -15);
	ras_record_done(&r);
}

static void test_poison(void **state)
{
	struct ras_record r;

	(void) state;
	parse(cxl_line_poison, &r);
	assert_int_equal(r.event, RAS_EVENT_CXL_POISON);
	assert_int_equal(r.severity, RAS_SEV_UNCORRECTED);
	assert_string_equal(str(&r, "trace_type"), "list");
	assert_int_equal(num(&r, "dpa"), 0x800);
	assert_int_equal(num(&r, "dpa_length"), 0x100);
	assert_string_equal(str(&r, "poison_source"), "Internal");
	assert_string_equal(str(&r, "no_page"), "not_in_region");
	assert_null(ras_record_find(&r, "region"));
	/* the daemon's description of this event in that boot */
	assert_string_equal(r.summary, "CXL poison (list) on mem0 at DPA 0x800, 0x100 bytes");
	ras_record_done(&r);
}

/* Not a cxl event, or one that does not read: said, and nothing made up. */
static void test_other_and_bad_lines(void **state)
{
	struct ras_record r;
	const char *why = NULL;
	static const char mce[] = "mce: [Hardware Error]: CPU 0: Machine Check: 0 Bank 1: 9000004000010005";
	static const char bad_hex[] = "cxl_dram: memdev=mem0 host=x serial=0 log=Warning : dpa=zz00";
	static const char no_memdev[] = "cxl_poison: host=0000:0d:00.0 trace_type=List";
	static const char word_only[] = "see cxl_dramx: memdev=mem0";

	(void) state;
	assert_int_equal(cxl_trace_text_parse(mce, strlen(mce), &r, &why), -ENOENT);
	assert_int_equal(cxl_trace_text_parse(word_only, strlen(word_only), &r, &why), -ENOENT);
	assert_int_equal(cxl_trace_text_parse(bad_hex, strlen(bad_hex), &r, &why), -EINVAL);
	assert_string_equal(why, "a hex field does not read as hex");
	assert_int_equal(cxl_trace_text_parse(no_memdev, strlen(no_memdev), &r, &why), -EINVAL);
	assert_string_equal(why, "no memdev= in the event's text");
}

/* A hostile log's control bytes reach no terminal: the ring decoder's '?' for each (review M13). */
static void test_control_bytes(void **state)
{
	static const char line[] =
		"cxl_poison: memdev=m\x1b[2Jem0 host=0000:0d:00.0 serial=0 trace_type=\x07List region=r\x7f\xc3\xa9 "
		"region_uuid=00000000-0000-0000-0000-000000000000 hpa=0xffffffffffffffff dpa=0x800 "
		"dpa_length=0x100 source=Int\x08" "ernal flags= overflow_time=0";
	struct ras_record r;

	(void) state;
	parse(line, &r);
	assert_string_equal(str(&r, "memdev"), "m?[2Jem0");
	assert_string_equal(str(&r, "trace_type"), "?list");
	assert_string_equal(str(&r, "region"), "r???");
	assert_string_equal(str(&r, "poison_source"), "Int?ernal");
	/* the summary is made of the cleaned fields */
	assert_string_equal(r.summary, "CXL poison (?list) on m?[2Jem0 at DPA 0x800, 0x100 bytes");
	ras_record_done(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_general_media),
		cmocka_unit_test(test_dram),
		cmocka_unit_test(test_memory_module),
		cmocka_unit_test(test_poison),
		cmocka_unit_test(test_other_and_bad_lines),
		cmocka_unit_test(test_control_bytes),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
