/* SPDX-License-Identifier: MIT */
/*
 * lib/cxl-text-line.c: which cxl text a line is, found in one pass.  A line
 * goes to the rasdaemon or kernel parser only if it can be that parser's;
 * every other line, those that mention a cxl event in passing among them,
 * is left to the machine-check parser as before the dispatch was made.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "cxl-text-fields.h"
#include "cxl-text-line.h"
#include "cxl-trace-lines.h"
#include "ras-record.h"

static int parse(const char *line, struct ras_record *r, const char **form, char *why, size_t why_size)
{
	*form = NULL;
	return cxl_text_line_parse(line, strlen(line), r, form, why, why_size);
}

static const char *str(const struct ras_record *r, const char *key)
{
	const struct ras_field *x = ras_record_find(r, key);

	return x && x->type == RAS_FIELD_STRING ? x->data : NULL;
}

/* The cheap look at each line (cxl_text_word_from) holds only if every name starts so. */
static void test_every_name_starts_cxl(void **state)
{
	size_t n;
	const struct cxl_text_event *e = cxl_text_events(&n);

	(void) state;
	assert_true(n > 0);
	for (size_t i = 0; i < n; i++)
		assert_memory_equal(e[i].name, "cxl_", 4);
}

/* Lines that name a cxl event but are no record of one: the machine-check parser's, untouched. */
static void test_mentions_are_not_records(void **state)
{
	static const char *const lines[] = {
		"[    5.000000] mce: [Hardware Error]: CPU 0: Machine Check: 0 Bank 1: 9000004000010005",
		/* rasdaemon's separator (' ') after the name, but no "memdev:" */
		"[    5.100000] cxl_poison injected at dpa 0x800 on mem0",
		/* no word of its own */
		"[    5.200000] test: xcxl_dram: memdev=mem0 host=h serial=0",
		"[    5.300000] test:cxl_dram: memdev=mem0 host=h serial=0",
		/* no separator after the name */
		"[    5.400000] see cxl_dram, memdev=mem0",
		"[    5.500000] see cxl_drams: memdev=mem0",
		/* nothing after the separator */
		"[    5.600000] cxl_dram: ",
		"cxl_dram:",
		"cxl_",
		"",
		/* a JSON line quoting the name */
		"{\"event\":\"cxl_dram\",\"memdev\":\"mem0\",\"status\":\"0x9c2040000000011b\"}",
		/* a machine check's trace line, underscores and all */
		("           <...>-2412  [002]     0.000000: mce_record:            2023-11-20 10:05:00 +0000 "
		 "bank=7, status= 9c2040000000011b, cpu_type= ..., mcgcap= 0"),
	};
	char why[256];

	(void) state;
	for (size_t i = 0; i < sizeof(lines) / sizeof(lines[0]); i++) {
		struct ras_record r = { .n_fields = 12345 };
		const char *form;

		assert_int_equal(parse(lines[i], &r, &form, why, sizeof(why)), -ENOENT);
		assert_int_equal(r.n_fields, 12345);   /* untouched */
	}
}

/* The kernel's line behind any prefix (syslog, trace_pipe): the kernel parser's. */
static void test_kernel_line_anywhere(void **state)
{
	char line[4096], why[256];
	struct ras_record r;
	const char *form;

	(void) state;
	snprintf(line, sizeof(line), "Nov 28 07:02:32 host kernel: irq/28-0000:0d:-285 [000] ..... 110.6: %s",
		 cxl_line_dram);
	assert_int_equal(parse(line, &r, &form, why, sizeof(why)), 0);
	assert_string_equal(form, "cxl trace event");
	assert_int_equal(r.event, RAS_EVENT_CXL_DRAM);
	assert_string_equal(str(&r, "memdev"), "mem0");
	ras_record_done(&r);

	assert_int_equal(parse("x cxl_dram: memdev=mem0 log=Warning : dpa=zz00", &r, &form, why, sizeof(why)),
			 -EINVAL);
	assert_string_equal(form, "cxl trace event");
	assert_string_equal(why, "a hex field does not read as hex");
}

/* rasdaemon's line (its name, then its time): the rasdaemon parser's. */
static void test_rasdaemon_line(void **state)
{
	static const char line[] =
		"           <...>-285   [000] .....     0.000007 cxl_dram 2026-11-28 07:02:32 +0000 memdev:mem0 "
		"host:0000:0d:00.0 serial:0x1f log type:Warning dpa:0x2000 row:1234";
	char why[256];
	struct ras_record r;
	const char *form;

	(void) state;
	assert_int_equal(parse(line, &r, &form, why, sizeof(why)), 0);
	assert_string_equal(form, "rasdaemon cxl event");
	assert_int_equal(r.event, RAS_EVENT_CXL_DRAM);
	assert_non_null(ras_record_find(&r, "serial"));
	assert_int_equal(ras_record_find(&r, "serial")->u, 31);   /* rasdaemon's hex, read as such */
	ras_record_done(&r);
}

/*
 * A name in rasdaemon's way without rasdaemon's fields goes on to the
 * kernel's form; a line naming two events is the table's first event's,
 * wherever it stands (as the parsers read lines before the dispatch).
 */
static void test_which_name_counts(void **state)
{
	static const char poison_then_dram[] =
		"cxl_poison seen: cxl_dram: memdev=mem0 host=h serial=0 log=Warning : dpa=2000";
	static const char dram_then_media[] =
		"cxl_dram: memdev=mem0 host=h serial=0 log=Warning : dpa=2000 "
		"cxl_general_media: memdev=mem1 host=h serial=0 log=Warning : dpa=3000";
	char why[256];
	struct ras_record r;
	const char *form;

	(void) state;
	assert_int_equal(parse(poison_then_dram, &r, &form, why, sizeof(why)), 0);
	assert_string_equal(form, "cxl trace event");
	assert_int_equal(r.event, RAS_EVENT_CXL_DRAM);
	ras_record_done(&r);

	assert_int_equal(parse(dram_then_media, &r, &form, why, sizeof(why)), 0);
	assert_int_equal(r.event, RAS_EVENT_CXL_GENERAL_MEDIA);
	assert_string_equal(str(&r, "memdev"), "mem1");
	ras_record_done(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_name_starts_cxl),
		cmocka_unit_test(test_mentions_are_not_records),
		cmocka_unit_test(test_kernel_line_anywhere),
		cmocka_unit_test(test_rasdaemon_line),
		cmocka_unit_test(test_which_name_counts),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
