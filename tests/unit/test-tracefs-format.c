/* SPDX-License-Identifier: MIT */
/*
 * tracefs format parsing and mce_record sample → record, for every kernel
 * layout in tests/data/tracefs (6.1; 6.10 and 6.12 with ppin and microcode;
 * 7.3 with the vendor data; 6.12 and 7.3 captured from real kernels), the vendor data read from ring bytes built to
 * the __data_loc ABI, and format files with fields we do not know.
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

#include "decode.h"
#include "json-writer.h"
#include "record-json.h"
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
	static const char *const files[] = { "mce_record-6.10.format", "6.12/mce/mce_record.format" };

	(void) state;
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		struct trace_format f;
		size_t len;
		char *text = slurp(files[i], &len);

		assert_int_equal(trace_format_parse(text, len, &f, NULL), 0);
		assert_int_equal(f.n_fields, 4 + 19);
		assert_int_equal(trace_format_field(&f, "ppin")->offset, 80);
		assert_int_equal(trace_format_field(&f, "walltime")->offset, 88);
		assert_int_equal(trace_format_field(&f, "microcode")->offset, 116);
		/* The vendor data came with 6.13's struct mce_hw_err. */
		assert_null(trace_format_field(&f, "v_data"));
		free(text);
	}
}

/* 7.3 (captured in the VM rig): 24 fields, the last the vendor data. */
static void test_format_with_v_data(void **state)
{
	struct trace_format f;
	struct mce_trace_layout l;
	size_t len;
	char *text = slurp("7.3/mce/mce_record.format", &len);

	(void) state;
	assert_int_equal(trace_format_parse(text, len, &f, NULL), 0);
	assert_int_equal(f.n_fields, 24);
	assert_true(trace_format_field(&f, "v_data")->is_data_loc);
	assert_int_equal(trace_format_field(&f, "v_data")->offset, 120);
	assert_int_equal(trace_format_field(&f, "v_data")->size, 4);
	assert_int_equal(mce_trace_layout_init(&l, &f, NULL), 0);
	assert_non_null(l.v_data);
	assert_non_null(l.ppin);
	assert_non_null(l.microcode);
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
	if (l.microcode)
		put(raw, l.microcode, 0x2b000603);
	put(raw, l.mcgcap, 0xf000c14);
	put(raw, l.synd, 0x5a020001);
	put(raw, l.ipid, 0x9600050f00ull);
	put(raw, l.tsc, 0x1ddbf37a52d71ull);
	put(raw, l.apicid, 0x26);

	assert_int_equal(mce_trace_to_record(&l, raw, sizeof(raw), &r), 0);
	/* Every field the kernel gives reaches the record, each with its value. */
	assert_true(mce_record_has(&r, MCE_HAVE_MCGCAP | MCE_HAVE_MCGSTATUS | MCE_HAVE_SYND |
					   MCE_HAVE_IPID | MCE_HAVE_TSC | MCE_HAVE_APICID | MCE_HAVE_SOCKET |
					   MCE_HAVE_VENDOR));
	assert_int_equal(r.mcgcap, 0xf000c14);
	assert_int_equal(r.mcgstatus, 5);
	assert_int_equal(r.misc, 0x86);
	assert_int_equal(r.synd, 0x5a020001);
	assert_int_equal(r.ipid, 0x9600050f00ull);
	assert_int_equal(r.tsc, 0x1ddbf37a52d71ull);
	assert_int_equal(r.apicid, 0x26);
	if (l.microcode) {
		assert_true(r.have & MCE_HAVE_MICROCODE);
		assert_int_equal(r.microcode, 0x2b000603);
	} else
		assert_false(r.have & MCE_HAVE_MICROCODE);
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
static void test_record_6_12(void **state) { (void) state; roundtrip("6.12/mce/mce_record.format"); }
static void test_record_7_3(void **state) { (void) state; roundtrip("7.3/mce/mce_record.format"); }

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

/*
 * A 7.3 sample as the kernel writes it: the fixed fields at the format's
 * offsets, the vendor data behind them, its __data_loc word (length << 16 |
 * offset from the record's start) at v_data's offset.
 */
struct v_sample {
	unsigned char raw[192];
	size_t size;
};

static void v_sample_init(struct v_sample *s, struct mce_trace_layout *l, struct trace_format *f,
			  unsigned vendor, uint32_t cpuid, const void *v_data, size_t v_len)
{
	size_t len;
	char *text = slurp("7.3/mce/mce_record.format", &len);
	uint32_t loc;

	assert_int_equal(trace_format_parse(text, len, f, NULL), 0);
	assert_int_equal(mce_trace_layout_init(l, f, NULL), 0);
	free(text);
	memset(s, 0, sizeof(*s));
	memcpy(s->raw, &(uint16_t) { (uint16_t) f->id }, 2);
	s->size = l->v_data->offset + l->v_data->size;
	put(s->raw, l->status, 0x9c2040000000011bull);   /* VAL EN MISCV ADDRV SYNDV, a corrected DRAM ECC error */
	put(s->raw, l->ipid, 0x0000009600150f00ull);      /* an SMCA UMC, instance 0x150f00 */
	put(s->raw, l->synd, 0x000000005a020001ull);
	put(s->raw, l->cpu, 3);
	put(s->raw, l->bank, 17);
	put(s->raw, l->cpuvendor, vendor);
	put(s->raw, l->cpuid, cpuid);
	put(s->raw, l->ip, 0xffffffff81000000ull);
	put(s->raw, l->cs, 0x10);
	loc = (uint32_t) (v_len << 16 | s->size);
	memcpy(s->raw + l->v_data->offset, &loc, 4);
	assert_true(s->size + v_len <= sizeof(s->raw));
	memcpy(s->raw + s->size, v_data, v_len);
	s->size += v_len;
}

/* A 7.3 sample with this vendor data, read to a record as the source reads it: both steps succeed. */
static void read_v_sample(struct v_sample *s, struct mce_trace_layout *l, struct trace_format *f,
			  unsigned vendor, uint32_t cpuid, const void *v_data, size_t v_len, struct mce_record *r)
{
	v_sample_init(s, l, f, vendor, cpuid, v_data, v_len);
	assert_int_equal(mce_trace_to_record(l, s->raw, s->size, r), 0);
	assert_int_equal(mce_trace_vendor_data(l, s->raw, s->size, r, NULL, 0), 0);
}

/*
 * AMD: the vendor data is MCA_SYND1, MCA_SYND2.  Here they hold FRU text,
 * 16 ASCII bytes NUL-padded, SYND1 first (illustrative: no real published
 * FRU text was at hand).  The registers reach the record, the decoder
 * names the part, and JSON shows all three.
 */
static void test_vendor_data_amd(void **state)
{
	static const char fru[16] = "CPU0_DIMM_A1";
	struct trace_format f;
	struct mce_trace_layout l;
	struct v_sample s;
	struct mce_record r;
	struct mce_decoded d;
	struct json_writer w;
	char why[160];

	(void) state;
	/* Linux X86_VENDOR_AMD (2); CPUID(1).EAX of family 19h model 11h stepping 1 */
	v_sample_init(&s, &l, &f, 2, 0xa10f11, fru, sizeof(fru));
	assert_int_equal(mce_trace_to_record(&l, s.raw, s.size, &r), 0);
	assert_int_equal(mce_trace_vendor_data(&l, s.raw, s.size, &r, why, sizeof(why)), 0);
	assert_true(mce_record_has(&r, MCE_HAVE_SYND1 | MCE_HAVE_SYND2 | MCE_HAVE_IP | MCE_HAVE_CS));
	assert_int_equal(r.synd1, 0x4d49445f30555043ull);   /* "CPU0_DIM" read as a little-endian u64 */
	assert_int_equal(r.synd2, 0x0000000031415f4dull);   /* "M_A1" */
	assert_int_equal(r.ip, 0xffffffff81000000ull);
	assert_int_equal(r.cs, 0x10);

	mce_decode(&r, &d);
	assert_string_equal(d.bank_type, "UMC");
	assert_string_equal(d.fru_text, "CPU0_DIMM_A1");

	json_writer_init(&w);
	mce_record_write_json(&r, &d, &w);
	assert_false(json_writer_failed(&w));
	assert_non_null(strstr(json_writer_str(&w), "\"synd1\":\"0x4d49445f30555043\""));
	assert_non_null(strstr(json_writer_str(&w), "\"synd2\":\"0x0000000031415f4d\""));
	assert_non_null(strstr(json_writer_str(&w), "\"fru_text\":\"CPU0_DIMM_A1\""));
	/* Read back (replay, mcectl decode of JSON), the registers come again, and so the FRU text. */
	{
		struct mce_record again;
		struct mce_decoded d2;
		char err[128];

		assert_int_equal(mce_record_parse_json(json_writer_str(&w), strlen(json_writer_str(&w)), &again,
						       err, sizeof(err)), 0);
		assert_int_equal(again.synd1, r.synd1);
		assert_int_equal(again.synd2, r.synd2);
		assert_true(mce_record_has(&again, MCE_HAVE_SYND1 | MCE_HAVE_SYND2));
		mce_decode(&again, &d2);
		assert_string_equal(d2.fru_text, "CPU0_DIMM_A1");
	}
	json_writer_done(&w);
}

/* AMD registers that are not text (bytes outside printable ASCII) are kept as registers, named no part. */
static void test_vendor_data_amd_not_text(void **state)
{
	static const unsigned char regs[16] = { 0x01, 0x80, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
						0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x02 };
	static const unsigned char gap[16] = { 'A', 'B', 0, 'C' };
	struct trace_format f;
	struct mce_trace_layout l;
	struct v_sample s;
	struct mce_record r;
	struct mce_decoded d;

	(void) state;
	read_v_sample(&s, &l, &f, 2, 0xa10f11, regs, sizeof(regs), &r);
	assert_int_equal(r.synd1, 0x8001);
	assert_int_equal(r.synd2, 0x0200000000000000ull);
	mce_decode(&r, &d);
	assert_string_equal(d.fru_text, "");

	/* Text, a NUL, then more text: no NUL-padded name either. */
	read_v_sample(&s, &l, &f, 2, 0xa10f11, gap, sizeof(gap), &r);
	assert_true(r.have & MCE_HAVE_SYND1);
	mce_decode(&r, &d);
	assert_string_equal(d.fru_text, "");
}

/*
 * Intel: the kernel copies the vendor union whole, zero, as on an AMD bank
 * without SYNDV: no SYND1/2 are claimed.  Nor from another vendor's bytes.
 */
static void test_vendor_data_not_amd(void **state)
{
	static const unsigned char zero[16];
	static const unsigned char some[16] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16 };
	struct trace_format f;
	struct mce_trace_layout l;
	struct v_sample s;
	struct mce_record r;

	(void) state;
	read_v_sample(&s, &l, &f, 2, 0xa10f11, zero, sizeof(zero), &r);
	assert_false(r.have & (MCE_HAVE_SYND1 | MCE_HAVE_SYND2));

	v_sample_init(&s, &l, &f, 0, 0x806f8, some, sizeof(some));   /* X86_VENDOR_INTEL */
	assert_int_equal(mce_trace_to_record(&l, s.raw, s.size, &r), 0);
	assert_int_equal(mce_trace_vendor_data(&l, s.raw, s.size, &r, NULL, 0), 0);
	assert_false(r.have & (MCE_HAVE_SYND1 | MCE_HAVE_SYND2));
	assert_int_equal(r.vendor, MCE_VENDOR_INTEL);
}

/* Vendor data outside the sample, or too short for the registers: refused with a reason, the record kept. */
static void test_vendor_data_bad(void **state)
{
	static const char fru[16] = "CPU0_DIMM_A1";
	struct trace_format f;
	struct mce_trace_layout l;
	struct v_sample s;
	struct mce_record r, before;
	char why[160];
	uint32_t loc;

	(void) state;
	v_sample_init(&s, &l, &f, 2, 0xa10f11, fru, sizeof(fru));
	loc = (uint32_t) (16u << 16 | (s.size - 8));    /* 16 bytes, 8 of them past the end */
	memcpy(s.raw + l.v_data->offset, &loc, 4);
	assert_int_equal(mce_trace_to_record(&l, s.raw, s.size, &r), 0);
	before = r;
	assert_int_equal(mce_trace_vendor_data(&l, s.raw, s.size, &r, why, sizeof(why)), -ERANGE);
	assert_non_null(strstr(why, "v_data names 16 bytes at offset 132, outside the 140-byte sample"));
	assert_memory_equal(&r, &before, sizeof(r));
	assert_int_equal(r.status, 0x9c2040000000011bull);

	v_sample_init(&s, &l, &f, 2, 0xa10f11, fru, 8);
	assert_int_equal(mce_trace_to_record(&l, s.raw, s.size, &r), 0);
	assert_int_equal(mce_trace_vendor_data(&l, s.raw, s.size, &r, why, sizeof(why)), -EMSGSIZE);
	assert_non_null(strstr(why, "v_data holds 8 bytes"));
	assert_false(r.have & (MCE_HAVE_SYND1 | MCE_HAVE_SYND2));

	/* A v_data that is no __data_loc (a kernel we do not know) is never read as one. */
	{
		static const char odd[] =
			"name: mce_record\nID: 5\nformat:\n"
			"\tfield:u64 status;\toffset:8;\tsize:8;\tsigned:0;\n"
			"\tfield:u32 cpu;\toffset:16;\tsize:4;\tsigned:0;\n"
			"\tfield:u8 bank;\toffset:20;\tsize:1;\tsigned:0;\n"
			"\tfield:u8 v_data[16];\toffset:24;\tsize:16;\tsigned:0;\n";

		assert_int_equal(trace_format_parse(odd, sizeof(odd) - 1, &f, NULL), 0);
		assert_int_equal(mce_trace_layout_init(&l, &f, NULL), 0);
		assert_null(l.v_data);
	}
}

/*
 * Unknown fields never break a source: a kernel that adds fields (fixed
 * and __data_loc, before, between and after the ones we read) still gives
 * the same record; what we do not know is ignored, not carried.
 */
static void test_unknown_fields(void **state)
{
	static const char text[] =
		"name: mce_record\nID: 77\nformat:\n"
		"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
		"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
		"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
		"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n"
		"\n"
		"\tfield:u64 future_first;\toffset:8;\tsize:8;\tsigned:0;\n"
		"\tfield:__data_loc char[] future_text;\toffset:16;\tsize:4;\tsigned:0;\n"
		"\tfield:u32 cpu;\toffset:20;\tsize:4;\tsigned:0;\n"
		"\tfield:u64 status;\toffset:24;\tsize:8;\tsigned:0;\n"
		"\tfield:u8 future_blob[24];\toffset:32;\tsize:24;\tsigned:0;\n"
		"\tfield:u64 addr;\toffset:56;\tsize:8;\tsigned:0;\n"
		"\tfield:u8 bank;\toffset:64;\tsize:1;\tsigned:0;\n"
		"\tfield:u8 cpuvendor;\toffset:65;\tsize:1;\tsigned:0;\n"
		"\tfield:s16 future_signed;\toffset:66;\tsize:2;\tsigned:1;\n"
		"\tfield:__rel_loc u8[] future_rel;\toffset:68;\tsize:4;\tsigned:0;\n"
		"\tfield:__data_loc u8[] v_data;\toffset:72;\tsize:4;\tsigned:0;\n"
		"\tfield:__data_loc u8[] future_after;\toffset:76;\tsize:4;\tsigned:0;\n"
		"\tfield:u64 future_last;\toffset:80;\tsize:8;\tsigned:0;\n"
		"\n"
		"print fmt: \"CPU: %d\", REC->cpu\n";
	static const char fru[16] = "P1_DIMM_H2";
	unsigned char raw[160];
	struct trace_format f;
	struct mce_trace_layout l;
	struct mce_record r;
	uint32_t loc;

	(void) state;
	assert_int_equal(trace_format_parse(text, sizeof(text) - 1, &f, NULL), 0);
	assert_int_equal(f.n_fields, 4 + 13);
	assert_true(trace_format_field(&f, "future_rel")->is_rel_loc);
	assert_int_equal(mce_trace_layout_init(&l, &f, NULL), 0);

	memset(raw, 0xee, sizeof(raw));         /* the unknown fields hold anything */
	put(raw, l.cpu, 5);
	put(raw, l.status, 0x9c2040000000011bull);
	put(raw, l.addr, 0x3bd2c8000ull);
	put(raw, l.bank, 18);
	put(raw, l.cpuvendor, 2);
	loc = 16u << 16 | 88;
	memcpy(raw + l.v_data->offset, &loc, 4);
	memcpy(raw + 88, fru, sizeof(fru));
	/* an unknown __data_loc that names bytes outside the sample: not ours to check */
	loc = 0xffffu << 16 | 0xfff0;
	memcpy(raw + 16, &loc, 4);
	memcpy(raw + 76, &loc, 4);

	assert_int_equal(mce_trace_to_record(&l, raw, 104, &r), 0);
	assert_int_equal(mce_trace_vendor_data(&l, raw, 104, &r, NULL, 0), 0);
	assert_int_equal(r.cpu, 5);
	assert_int_equal(r.status, 0x9c2040000000011bull);
	assert_int_equal(r.addr, 0x3bd2c8000ull);
	assert_int_equal(r.bank, 18);
	assert_int_equal(r.vendor, MCE_VENDOR_AMD);
	assert_int_equal(r.synd1, 0x5f4d4d49445f3150ull);   /* "P1_DIMM_" */
	assert_int_equal(r.synd2, 0x3248);                  /* "H2" */
	/* Fields absent from this format stay absent: nothing is invented for them. */
	assert_false(r.have & (MCE_HAVE_MISC | MCE_HAVE_SYND | MCE_HAVE_IPID | MCE_HAVE_TSC | MCE_HAVE_PPIN |
			       MCE_HAVE_MICROCODE | MCE_HAVE_CPUID | MCE_HAVE_TIME));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_format_6_1),
		cmocka_unit_test(test_format_with_ppin),
		cmocka_unit_test(test_record_6_1),
		cmocka_unit_test(test_record_6_10),
		cmocka_unit_test(test_record_6_12),
		cmocka_unit_test(test_record_7_3),
		cmocka_unit_test(test_format_with_v_data),
		cmocka_unit_test(test_vendor_data_amd),
		cmocka_unit_test(test_vendor_data_amd_not_text),
		cmocka_unit_test(test_vendor_data_not_amd),
		cmocka_unit_test(test_vendor_data_bad),
		cmocka_unit_test(test_unknown_fields),
		cmocka_unit_test(test_walltime_out_of_range),
		cmocka_unit_test(test_missing_required_field),
		cmocka_unit_test(test_unexpected_field_sizes),
		cmocka_unit_test(test_malformed_lines),
		cmocka_unit_test(test_field_read_bounds),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
