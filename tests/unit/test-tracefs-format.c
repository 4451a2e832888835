/* SPDX-License-Identifier: MIT */
/* tracefs format parsing and mce_record sample → record, for two kernel layouts. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "mce-trace.h"
#include "tracefs-format.h"

static char *slurp(const char *name, size_t *len)
{
	char path[4096];
	FILE *f;
	char *buf;
	long n;

	snprintf(path, sizeof(path), "%s/tests/data/tracefs/%s", getenv("top_srcdir") ?: ".", name);
	f = fopen(path, "re");
	assert_non_null(f);
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	buf = malloc((size_t) n + 1);
	assert_non_null(buf);
	assert_int_equal(fread(buf, 1, (size_t) n, f), (size_t) n);
	buf[n] = '\0';
	fclose(f);
	*len = (size_t) n;
	return buf;
}

static void put(unsigned char *raw, const struct trace_field *f, uint64_t v)
{
	assert_non_null(f);
	memcpy(raw + f->offset, &v, f->size);   /* little-endian, as on x86 */
}

static void test_format_6_1(void **state)
{
	struct trace_format f;
	size_t len;
	char *text = slurp("mce_record-6.1.format", &len);
	unsigned line = 0;

	(void) state;
	assert_int_equal(trace_format_parse(text, len, &f, &line), 0);
	assert_true(f.have_id);
	assert_int_equal(f.id, 1145);
	assert_int_equal(f.n_fields, 4 + 17);
	assert_int_equal(trace_format_field(&f, "status")->offset, 24);
	assert_int_equal(trace_format_field(&f, "bank")->offset, 105);
	assert_int_equal(trace_format_field(&f, "bank")->size, 1);
	assert_true(trace_format_field(&f, "common_pid")->is_signed);
	assert_null(trace_format_field(&f, "ppin"));
	free(text);
}

static void test_format_with_ppin(void **state)
{
	struct trace_format f;
	size_t len;
	char *text = slurp("mce_record-6.10.format", &len);

	(void) state;
	assert_int_equal(trace_format_parse(text, len, &f, NULL), 0);
	assert_int_equal(trace_format_field(&f, "ppin")->offset, 80);
	assert_int_equal(trace_format_field(&f, "walltime")->offset, 88);
	assert_int_equal(trace_format_field(&f, "microcode")->offset, 116);
	assert_true(trace_format_field(&f, "v_data")->is_data_loc);
	free(text);
}

/* The same record, encoded with each kernel's layout, must decode identically. */
static void roundtrip(const char *file)
{
	struct trace_format f;
	struct mce_trace_layout l;
	struct mce_record r;
	unsigned char raw[128] = { 0 };
	size_t len;
	char *text = slurp(file, &len);
	const char *missing = NULL;

	assert_int_equal(trace_format_parse(text, len, &f, NULL), 0);
	assert_int_equal(mce_trace_layout_init(&l, &f, &missing), 0);
	put(raw, l.status, 0xfe00000000800400ull);
	put(raw, l.addr, 0x12345000);
	put(raw, l.misc, 0x86);
	put(raw, l.mcgstatus, 5);
	put(raw, l.cpu, 7);
	put(raw, l.bank, 9);
	put(raw, l.cpuid, 0x806f8);       /* family 6 model 0x8f stepping 8 */
	put(raw, l.cpuvendor, 0);         /* Linux X86_VENDOR_INTEL */
	put(raw, l.walltime, 1790000000);
	put(raw, l.socketid, 1);
	if (l.ppin)
		put(raw, l.ppin, 0x2b5a3f0c9d1e0011ull);

	assert_int_equal(mce_trace_to_record(&l, raw, sizeof(raw), &r), 0);
	assert_int_equal(r.status, 0xfe00000000800400ull);
	assert_int_equal(r.addr, 0x12345000);
	assert_int_equal(r.cpu, 7);
	assert_int_equal(r.bank, 9);
	assert_int_equal(r.family, 6);
	assert_int_equal(r.model, 0x8f);
	assert_int_equal(r.stepping, 8);
	assert_int_equal(r.vendor, MCE_VENDOR_INTEL);
	assert_int_equal(r.socket, 1);
	assert_int_equal(r.time_usec, 1790000000LL * 1000000);
	assert_int_equal(r.source, MCE_SOURCE_TRACEPOINT);
	assert_true(mce_record_has(&r, MCE_HAVE_STATUS | MCE_HAVE_ADDR | MCE_HAVE_MISC | MCE_HAVE_CPU |
					   MCE_HAVE_BANK | MCE_HAVE_CPUID | MCE_HAVE_TIME));
	/* ip is 0: the kernel had no valid RIP, so neither ip nor cs are claimed */
	assert_false(r.have & (MCE_HAVE_IP | MCE_HAVE_CS));
	if (l.ppin) {
		assert_true(r.have & MCE_HAVE_PPIN);
		assert_int_equal(r.ppin, 0x2b5a3f0c9d1e0011ull);
	} else
		assert_false(r.have & MCE_HAVE_PPIN);

	/* A sample cut short before the required fields is rejected, not half-read. */
	assert_int_equal(mce_trace_to_record(&l, raw, 20, &r), -EBADMSG);
	free(text);
}

static void test_record_6_1(void **state) { (void) state; roundtrip("mce_record-6.1.format"); }
static void test_record_6_10(void **state) { (void) state; roundtrip("mce_record-6.10.format"); }

/* A walltime whose microseconds overflow an int64_t is no time (fuzz-mce-trace's first find). */
static void test_walltime_out_of_range(void **state)
{
	struct trace_format f;
	struct mce_trace_layout l;
	struct mce_record r;
	unsigned char raw[128] = { 0 };
	size_t len;
	char *text = slurp("mce_record-6.1.format", &len);

	(void) state;
	assert_int_equal(trace_format_parse(text, len, &f, NULL), 0);
	assert_int_equal(mce_trace_layout_init(&l, &f, NULL), 0);
	put(raw, l.walltime, (uint64_t) INT64_MAX / 1000000);
	assert_int_equal(mce_trace_to_record(&l, raw, sizeof(raw), &r), 0);
	assert_false(r.have & MCE_HAVE_TIME);
	put(raw, l.walltime, UINT64_MAX);
	assert_int_equal(mce_trace_to_record(&l, raw, sizeof(raw), &r), 0);
	assert_false(r.have & MCE_HAVE_TIME);
	put(raw, l.walltime, (uint64_t) INT64_MAX / 1000000 - 1);
	assert_int_equal(mce_trace_to_record(&l, raw, sizeof(raw), &r), 0);
	assert_true(r.have & MCE_HAVE_TIME);
	assert_int_equal(r.time_usec, (INT64_MAX / 1000000 - 1) * 1000000);
	free(text);
}

static void test_missing_required_field(void **state)
{
	static const char text[] =
		"name: mce_record\nID: 5\nformat:\n"
		"\tfield:u64 status;\toffset:8;\tsize:8;\tsigned:0;\n"
		"\tfield:u32 cpu;\toffset:16;\tsize:4;\tsigned:0;\n";
	struct trace_format f;
	struct mce_trace_layout l;
	const char *missing = NULL;

	(void) state;
	assert_int_equal(trace_format_parse(text, sizeof(text) - 1, &f, NULL), 0);
	assert_int_equal(mce_trace_layout_init(&l, &f, &missing), -EPROTO);
	assert_string_equal(missing, "bank");
}

/* Format files with layouts we do not expect: a required field of no integer's
 * size is refused by name; an optional one is left out, never read. */
static void test_unexpected_field_sizes(void **state)
{
	static const char bad_bank[] =
		"name: mce_record\nID: 5\nformat:\n"
		"\tfield:u64 status;\toffset:8;\tsize:8;\tsigned:0;\n"
		"\tfield:u32 cpu;\toffset:16;\tsize:4;\tsigned:0;\n"
		"\tfield:u8 bank[3];\toffset:20;\tsize:3;\tsigned:0;\n";
	static const char wide_tsc[] =
		"name: mce_record\nID: 5\nformat:\n"
		"\tfield:u64 status;\toffset:8;\tsize:8;\tsigned:0;\n"
		"\tfield:u32 cpu;\toffset:16;\tsize:4;\tsigned:0;\n"
		"\tfield:u8 bank;\toffset:20;\tsize:1;\tsigned:0;\n"
		"\tfield:u8 tsc[16];\toffset:24;\tsize:16;\tsigned:0;\n";
	unsigned char raw[40];
	struct trace_format f;
	struct mce_trace_layout l;
	struct mce_record rec;
	const char *missing = NULL;

	(void) state;
	assert_int_equal(trace_format_parse(bad_bank, sizeof(bad_bank) - 1, &f, NULL), 0);
	assert_int_equal(mce_trace_layout_init(&l, &f, &missing), -EDOM);
	assert_string_equal(missing, "bank");

	assert_int_equal(trace_format_parse(wide_tsc, sizeof(wide_tsc) - 1, &f, NULL), 0);
	assert_int_equal(mce_trace_layout_init(&l, &f, &missing), 0);
	assert_null(l.tsc);
	memset(raw, 0xa5, sizeof(raw));
	assert_int_equal(mce_trace_to_record(&l, raw, sizeof(raw), &rec), 0);
	assert_false(rec.have & MCE_HAVE_TSC);
	assert_int_equal(rec.bank, 0xa5);
	assert_int_equal(rec.cpu, 0xa5a5a5a5);
}

static void test_malformed_lines(void **state)
{
	static const char *const bad[] = {
		"ID: 5\n\tfield:u64 status;\toffset:x;\tsize:8;\tsigned:0;\n",
		"ID: 5\n\tfield:u64 status;\toffset:8;\n",
		"ID: 5\n\tfield:u64 ;\toffset:8;\tsize:8;\tsigned:0;\n",
		"ID: 5\n\tfield:u64 status;\toffset:70000;\tsize:8;\tsigned:0;\n",
		"ID: 5\n",
		"ID: notanumber\n\tfield:u64 status;\toffset:8;\tsize:8;\tsigned:0;\n",
	};
	struct trace_format f;
	unsigned line;

	(void) state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		line = 0;
		assert_int_equal(trace_format_parse(bad[i], strlen(bad[i]), &f, &line), -EINVAL);
		assert_true(line >= 1);
	}
}

static void test_field_read_bounds(void **state)
{
	struct trace_field f = { .name = "x", .offset = 6, .size = 4 };
	unsigned char raw[8] = { 0 };
	uint64_t v;

	(void) state;
	assert_int_equal(trace_field_read_u64(&f, raw, sizeof(raw), &v), -EBADMSG);
	assert_int_equal(trace_field_read_u64(NULL, raw, sizeof(raw), &v), -ENOENT);
	f.offset = 4;
	raw[4] = 0x78; raw[5] = 0x56; raw[6] = 0x34; raw[7] = 0x12;
	assert_int_equal(trace_field_read_u64(&f, raw, sizeof(raw), &v), 0);
	assert_int_equal(v, 0x12345678);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_format_6_1),
		cmocka_unit_test(test_format_with_ppin),
		cmocka_unit_test(test_record_6_1),
		cmocka_unit_test(test_record_6_10),
		cmocka_unit_test(test_walltime_out_of_range),
		cmocka_unit_test(test_missing_required_field),
		cmocka_unit_test(test_unexpected_field_sizes),
		cmocka_unit_test(test_malformed_lines),
		cmocka_unit_test(test_field_read_bounds),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
