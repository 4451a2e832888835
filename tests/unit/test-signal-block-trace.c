/* SPDX-License-Identifier: MIT */
/*
 * signal:signal_generate (a memory error's SIGBUS) and block:block_rq_error /
 * block_rq_complete (a failed disk request) samples → struct ras_record, and
 * the kernel filters they are read through.  Samples are built byte by byte
 * to the offsets of the format files in tests/data/tracefs/6.1 (see its
 * README), as the kernel writes them.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "ras-record.h"
#include "ras-trace.h"
#include "tracefs-format.h"
#include "tracepoint-sample.h"

#define SIGNAL "tracefs/6.1/signal/signal_generate.format"
#define RQ_ERROR "tracefs/6.1/block/block_rq_error.format"
#define RQ_COMPLETE "tracefs/6.1/block/block_rq_complete.format"

static void put_comm(struct sample *s, const struct ras_tp_layout *l, const char *comm)
{
	char buf[16] = { 0 };

	memcpy(buf, comm, strnlen(comm, sizeof(buf)));
	put_bytes(s, l, "comm", buf, sizeof(buf));
}

static void sigbus_sample(struct sample *s, const struct ras_tp_layout *l, int sig, int code)
{
	sample_init(s, l);
	put(s, l, "sig", (uint64_t) sig);
	put(s, l, "errno", 0);
	put(s, l, "code", (uint64_t) code);
	put_comm(s, l, "postgres");
	put(s, l, "pid", 4242);
	put(s, l, "group", 0);
	put(s, l, "result", 0);
}

static void test_formats(void **state)
{
	struct ras_tp_layout l;

	(void) state;
	load(&l, RAS_TP_SIGNAL_GENERATE, SIGNAL);
	assert_string_equal(ras_tp_name(RAS_TP_SIGNAL_GENERATE), "signal_generate");
	assert_string_equal(mce_source_to_string(ras_tp_source(RAS_TP_SIGNAL_GENERATE)), "signal:signal_generate");
	assert_int_equal(field(&l, "comm")->size, 16);
	load(&l, RAS_TP_BLOCK_RQ_ERROR, RQ_ERROR);
	assert_string_equal(mce_source_to_string(ras_tp_source(RAS_TP_BLOCK_RQ_ERROR)), "block:block_rq_error");
	assert_int_equal(field(&l, "sector")->size, 8);
	load(&l, RAS_TP_BLOCK_RQ_COMPLETE, RQ_COMPLETE);
	assert_string_equal(ras_event_to_string(RAS_EVENT_DISK_ERROR), "disk_error");
	assert_string_equal(ras_event_to_string(RAS_EVENT_SIGBUS), "sigbus");
}

/* What the kernel is asked to let through: the filter must name the fields as this kernel does. */
static void test_filters(void **state)
{
	static const char no_error_field[] =
		"name: block_rq_complete\nID: 9\nformat:\n"
		"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
		"\tfield:dev_t dev;\toffset:8;\tsize:4;\tsigned:0;\n"
		"\tfield:sector_t sector;\toffset:16;\tsize:8;\tsigned:0;\n"
		"\tfield:unsigned int nr_sector;\toffset:24;\tsize:4;\tsigned:0;\n"
		"\tfield:int errors;\toffset:28;\tsize:4;\tsigned:1;\n"
		"\tfield:char rwbs[8];\toffset:32;\tsize:8;\tsigned:0;\n";
	struct ras_tp_layout l;
	char buf[96];

	(void) state;
	load(&l, RAS_TP_SIGNAL_GENERATE, SIGNAL);
	assert_int_equal(ras_tp_filter(&l, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "sig == 7 && (code == 4 || code == 5)");
	assert_int_equal(ras_tp_filter(&l, buf, 8), -ENOBUFS);
	load(&l, RAS_TP_BLOCK_RQ_COMPLETE, RQ_COMPLETE);
	assert_int_equal(ras_tp_filter(&l, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "error != 0");
	/* Before 4.12 the field was "errors". */
	assert_int_equal(ras_tp_layout_init(&l, RAS_TP_BLOCK_RQ_COMPLETE, no_error_field, sizeof(no_error_field) - 1,
					    NULL, NULL), 0);
	assert_int_equal(ras_tp_filter(&l, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "errors != 0");
	/* block_rq_error fires only for failures, the ras events only for errors: read whole. */
	load(&l, RAS_TP_BLOCK_RQ_ERROR, RQ_ERROR);
	assert_int_equal(ras_tp_filter(&l, buf, sizeof(buf)), -ENOENT);
	load(&l, RAS_TP_MEMORY_FAILURE_EVENT, "tracefs/6.1/ras/memory_failure_event.format");
	assert_int_equal(ras_tp_filter(&l, buf, sizeof(buf)), -ENOENT);
}

static void test_sigbus(void **state)
{
	static const struct { int code; const char *name; enum ras_severity sev; const char *summary; } cases[] = {
		{ 4, "action_required", RAS_SEV_UNCORRECTED,
		  "Memory error: SIGBUS (action required) sent to postgres[4242]" },
		{ 5, "action_optional", RAS_SEV_DEFERRED,
		  "Memory error: SIGBUS (action optional) sent to postgres[4242]" },
	};
	struct ras_tp_layout l;
	struct sample s;
	struct ras_record r;
	char *j;

	(void) state;
	load(&l, RAS_TP_SIGNAL_GENERATE, SIGNAL);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		sigbus_sample(&s, &l, 7, cases[i].code);
		decode_ok(&l, &s, &r);
		assert_int_equal(r.event, RAS_EVENT_SIGBUS);
		assert_int_equal(r.source, MCE_SOURCE_SIGNAL_GENERATE);
		assert_int_equal(r.severity, cases[i].sev);
		assert_string_equal(str(&r, "comm"), "postgres");
		assert_string_equal(str(&r, "code"), cases[i].name);
		assert_string_equal(str(&r, "result"), "delivered");
		assert_string_equal(r.summary, cases[i].summary);
		j = json(&r);
		assert_non_null(strstr(j, "\"pid\":4242"));
		assert_non_null(strstr(j, "\"signal\":7"));
		assert_non_null(strstr(j, "\"group\":false"));
		free(j);
		ras_record_done(&r);
	}
	/* Not a memory error (a filter the kernel did not apply): said so, its code kept as a number. */
	sigbus_sample(&s, &l, 11, 1);
	decode_ok(&l, &s, &r);
	assert_int_equal(num(&r, "code"), 1);
	assert_non_null(strstr(r.summary, "not a memory-error SIGBUS"));
	assert_int_equal(r.severity, RAS_SEV_UNCORRECTED);
	ras_record_done(&r);
	/* A result newer than the enum: kept as the number. */
	sigbus_sample(&s, &l, 7, 4);
	put(&s, &l, "result", 9);
	decode_ok(&l, &s, &r);
	assert_int_equal(num(&r, "result"), 9);
	ras_record_done(&r);
	/* comm filling all 16 bytes, no NUL: read to the field's end, never past it. */
	sigbus_sample(&s, &l, 7, 4);
	put_bytes(&s, &l, "comm", "0123456789abcdef", 16);
	decode_ok(&l, &s, &r);
	assert_string_equal(str(&r, "comm"), "0123456789abcdef");
	ras_record_done(&r);
}

/* Kernels before 3.4 had no group or result: the rest decodes the same. */
static void test_sigbus_old_format(void **state)
{
	static const char old[] =
		"name: signal_generate\nID: 40\nformat:\n"
		"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
		"\tfield:int sig;\toffset:8;\tsize:4;\tsigned:1;\n"
		"\tfield:int errno;\toffset:12;\tsize:4;\tsigned:1;\n"
		"\tfield:int code;\toffset:16;\tsize:4;\tsigned:1;\n"
		"\tfield:char comm[16];\toffset:20;\tsize:16;\tsigned:0;\n"
		"\tfield:pid_t pid;\toffset:36;\tsize:4;\tsigned:1;\n";
	struct ras_tp_layout l;
	struct sample s;
	struct ras_record r;

	(void) state;
	assert_int_equal(ras_tp_layout_init(&l, RAS_TP_SIGNAL_GENERATE, old, sizeof(old) - 1, NULL, NULL), 0);
	sample_init(&s, &l);
	put(&s, &l, "sig", 7);
	put(&s, &l, "code", 4);
	put_comm(&s, &l, "qemu");
	put(&s, &l, "pid", 7);
	decode_ok(&l, &s, &r);
	assert_string_equal(str(&r, "code"), "action_required");
	assert_null(ras_record_find(&r, "group"));
	assert_null(ras_record_find(&r, "result"));
	ras_record_done(&r);
}

static void rq_sample(struct sample *s, const struct ras_tp_layout *l, uint64_t dev, int error, const char *rwbs)
{
	char b[8] = { 0 };

	memcpy(b, rwbs, strnlen(rwbs, sizeof(b)));
	sample_init(s, l);
	put(s, l, "dev", dev);
	put(s, l, "sector", 4656);
	put(s, l, "nr_sector", 8);
	put(s, l, "error", (uint64_t) (int64_t) error);
	put_bytes(s, l, "rwbs", b, sizeof(b));
	put_str(s, l, "cmd", "");
}

static void test_block_rq_error(void **state)
{
	struct ras_tp_layout l;
	struct sample s;
	struct ras_record r;

	(void) state;
	load(&l, RAS_TP_BLOCK_RQ_ERROR, RQ_ERROR);
	/* The kernel's dev_t: major above bit 20 (8:16 is sdb), not glibc's encoding. */
	rq_sample(&s, &l, (UINT64_C(8) << 20) | 16, -ENODATA, "R");
	decode_ok(&l, &s, &r);
	assert_int_equal(r.event, RAS_EVENT_DISK_ERROR);
	assert_int_equal(r.source, MCE_SOURCE_BLOCK_RQ_ERROR);
	assert_int_equal(r.severity, RAS_SEV_UNCORRECTED);
	assert_string_equal(str(&r, "dev"), "8:16");
	assert_int_equal(num(&r, "sector"), 4656);
	assert_int_equal(num(&r, "nr_sector"), 8);
	assert_int_equal(ras_record_find(&r, "error")->i, -ENODATA);
	assert_string_equal(str(&r, "error_type"), "medium");
	assert_string_equal(str(&r, "rwbs"), "R");
	assert_null(ras_record_find(&r, "cmd"));   /* empty on newer kernels: not logged */
	assert_string_equal(r.summary, "Disk 8:16: critical medium error, R sector 4656 + 8");
	ras_record_done(&r);

	rq_sample(&s, &l, (UINT64_C(259) << 20) | 1, -ETIMEDOUT, "WS");
	decode_ok(&l, &s, &r);
	assert_string_equal(str(&r, "dev"), "259:1");
	assert_string_equal(str(&r, "error_type"), "timeout");
	assert_string_equal(r.summary, "Disk 259:1: timeout error, WS sector 4656 + 8");
	ras_record_done(&r);

	/* An errno the block layer's table does not name: the number, no type. */
	rq_sample(&s, &l, 8 << 20, -EXDEV, "R");
	decode_ok(&l, &s, &r);
	assert_null(ras_record_find(&r, "error_type"));
	assert_non_null(strstr(r.summary, "error -18"));
	ras_record_done(&r);

	/* The fallback event decodes the same, under its own source. */
	load(&l, RAS_TP_BLOCK_RQ_COMPLETE, RQ_COMPLETE);
	rq_sample(&s, &l, 8 << 20, -EIO, "R");
	put_str(&s, &l, "cmd", "28 00 00 00 12 30 00 00 08 00");
	decode_ok(&l, &s, &r);
	assert_int_equal(r.source, MCE_SOURCE_BLOCK_RQ_COMPLETE);
	assert_string_equal(str(&r, "error_type"), "io");
	assert_string_equal(str(&r, "cmd"), "28 00 00 00 12 30 00 00 08 00");
	ras_record_done(&r);
}

/* A sample shorter than its format, or a cmd outside it: refused with a reason, never read past. */
static void test_block_hostile(void **state)
{
	struct ras_tp_layout l;
	struct sample s;
	struct ras_record r;
	char why[160];

	(void) state;
	load(&l, RAS_TP_BLOCK_RQ_ERROR, RQ_ERROR);
	rq_sample(&s, &l, 8 << 20, -EIO, "R");
	assert_int_equal(ras_tp_decode(&l, s.b, 30, &r, why, sizeof(why)), -EBADMSG);
	assert_non_null(strstr(why, "beyond"));
	rq_sample(&s, &l, 8 << 20, -EIO, "R");
	put(&s, &l, "cmd", (UINT64_C(200) << 16) | 900);
	assert_int_equal(ras_tp_decode(&l, s.b, s.size, &r, why, sizeof(why)), -EBADMSG);
	load(&l, RAS_TP_SIGNAL_GENERATE, SIGNAL);
	sigbus_sample(&s, &l, 7, 4);
	assert_int_equal(ras_tp_decode(&l, s.b, 24, &r, why, sizeof(why)), -EBADMSG);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_formats),
		cmocka_unit_test(test_filters),
		cmocka_unit_test(test_sigbus),
		cmocka_unit_test(test_sigbus_old_format),
		cmocka_unit_test(test_block_rq_error),
		cmocka_unit_test(test_block_hostile),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
