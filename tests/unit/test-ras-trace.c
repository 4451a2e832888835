/* SPDX-License-Identifier: MIT */
/*
 * ras:* tracepoint samples → struct ras_record, against the real format files
 * of Debian 12's kernel (tests/data/tracefs/6.1/ras) and the newer arm_event
 * layout (tests/data/tracefs/6.16/ras, constructed from the header).
 *
 * Data: the memory_failure_event and aer_event samples were recorded on
 * Debian 12's kernel under QEMU (tests/data/ras).  Every other sample is
 * constructed here byte by byte from the real format file's offsets and
 * sizes: that VM cannot produce EDAC, extlog, ARM or vendor-section errors.
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

#include "json-writer.h"
#include "ras-record-json.h"
#include "ras-record.h"
#include "ras-trace.h"
#include "tracefs-format.h"
#include "tracepoint-sample.h"

static size_t parse_hex(const char *text, unsigned char *out, size_t size)
{
	size_t n = 0;

	for (const char *line = text; *line; ) {
		const char *nl = strchr(line, '\n');
		size_t len = nl ? (size_t) (nl - line) : strlen(line);

		if (line[0] != '#')
			for (size_t i = 0; i + 1 < len; i += 2) {
				unsigned v;

				assert_int_equal(sscanf(line + i, "%2x", &v), 1);
				assert_true(n < size);
				out[n++] = (unsigned char) v;
			}
		line += len + (nl ? 1 : 0);
	}
	return n;
}

/* ------------------------------------------------------------------ format */

/* Every ras:* and cxl:* format of the captured 6.12 and 7.3 kernels loads, with its required fields. */
static void test_formats_6_12_and_7_3(void **state)
{
	static const struct { enum ras_tp tp; const char *dir, *name; } events[] = {
		{ RAS_TP_MC_EVENT, "ras", "mc_event" },
		{ RAS_TP_AER_EVENT, "ras", "aer_event" },
		{ RAS_TP_MEMORY_FAILURE_EVENT, "ras", "memory_failure_event" },
		{ RAS_TP_EXTLOG_MEM_EVENT, "ras", "extlog_mem_event" },
		{ RAS_TP_ARM_EVENT, "ras", "arm_event" },
		{ RAS_TP_NON_STANDARD_EVENT, "ras", "non_standard_event" },
		{ RAS_TP_CXL_AER_UNCORRECTABLE, "cxl", "cxl_aer_uncorrectable_error" },
		{ RAS_TP_CXL_AER_CORRECTABLE, "cxl", "cxl_aer_correctable_error" },
		{ RAS_TP_CXL_OVERFLOW, "cxl", "cxl_overflow" },
		{ RAS_TP_CXL_GENERIC_EVENT, "cxl", "cxl_generic_event" },
		{ RAS_TP_CXL_GENERAL_MEDIA, "cxl", "cxl_general_media" },
		{ RAS_TP_CXL_DRAM, "cxl", "cxl_dram" },
		{ RAS_TP_CXL_MEMORY_MODULE, "cxl", "cxl_memory_module" },
		{ RAS_TP_CXL_POISON, "cxl", "cxl_poison" },
	};
	static const char *const kernels[] = { "6.12", "7.3" };
	struct ras_tp_layout l;
	char path[128];

	(void) state;
	for (size_t k = 0; k < sizeof(kernels) / sizeof(kernels[0]); k++)
		for (size_t i = 0; i < sizeof(events) / sizeof(events[0]); i++) {
			snprintf(path, sizeof(path), "tracefs/%s/%s/%s.format", kernels[k], events[i].dir,
				 events[i].name);
			load(&l, events[i].tp, path);
			assert_string_equal(ras_tp_name(events[i].tp), events[i].name);
		}
	/* 7.3's port AER events, which 6.12 lacks */
	load(&l, RAS_TP_CXL_PORT_AER_UNCORRECTABLE, "tracefs/7.3/cxl/cxl_port_aer_uncorrectable_error.format");
	load(&l, RAS_TP_CXL_PORT_AER_CORRECTABLE, "tracefs/7.3/cxl/cxl_port_aer_correctable_error.format");
}

static void test_formats_6_1(void **state)
{
	static const struct { enum ras_tp tp; const char *file; uint32_t id; } files[] = {
		{ RAS_TP_MC_EVENT,             "tracefs/6.1/ras/mc_event.format",             1227 },
		{ RAS_TP_AER_EVENT,            "tracefs/6.1/ras/aer_event.format",            1224 },
		{ RAS_TP_MEMORY_FAILURE_EVENT, "tracefs/6.1/ras/memory_failure_event.format", 1223 },
		{ RAS_TP_EXTLOG_MEM_EVENT,     "tracefs/6.1/ras/extlog_mem_event.format",     1228 },
		{ RAS_TP_ARM_EVENT,            "tracefs/6.1/ras/arm_event.format",            1226 },
		{ RAS_TP_NON_STANDARD_EVENT,   "tracefs/6.1/ras/non_standard_event.format",   1225 },
	};
	struct ras_tp_layout l;

	(void) state;
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		load(&l, files[i].tp, files[i].file);
		assert_int_equal(l.format.id, files[i].id);
	}
	load(&l, RAS_TP_MC_EVENT, "tracefs/6.1/ras/mc_event.format");
	assert_true(field(&l, "msg")->is_data_loc);
	assert_true(field(&l, "driver_detail")->is_data_loc);
	assert_false(field(&l, "error_type")->is_data_loc);
	assert_true(field(&l, "top_layer")->is_signed);
	load(&l, RAS_TP_EXTLOG_MEM_EVENT, "tracefs/6.1/ras/extlog_mem_event.format");
	assert_int_equal(field(&l, "data")->size, 55);   /* packed cper_mem_err_compact */
	assert_int_equal(field(&l, "fru_id")->offset, 25);
}

static void test_format_missing_field(void **state)
{
	static const char text[] =
		"name: memory_failure_event\nID: 7\nformat:\n"
		"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
		"\tfield:unsigned long pfn;\toffset:8;\tsize:8;\tsigned:0;\n"
		"\tfield:int type;\toffset:16;\tsize:4;\tsigned:1;\n";
	struct ras_tp_layout l;
	const char *missing = NULL;

	(void) state;
	assert_int_equal(ras_tp_layout_init(&l, RAS_TP_MEMORY_FAILURE_EVENT, text, strlen(text), NULL,
					    &missing), -EPROTO);
	assert_string_equal(missing, "result");
}

static void test_data_loc_reader(void **state)
{
	struct trace_field f = { .name = "s", .offset = 8, .size = 4, .is_data_loc = true };
	unsigned char raw[32] = { 0 };
	const unsigned char *p;
	size_t n;
	uint32_t loc = 5u << 16 | 12;

	(void) state;
	memcpy(raw + 8, &loc, 4);
	memcpy(raw + 12, "abcd", 5);
	assert_int_equal(trace_field_data_loc(&f, raw, sizeof(raw), &p, &n), 0);
	assert_int_equal(n, 5);
	assert_string_equal((const char *) p, "abcd");
	/* payload runs past the end */
	assert_int_equal(trace_field_data_loc(&f, raw, 16, &p, &n), -ERANGE);
	/* the u32 itself is outside the sample */
	assert_int_equal(trace_field_data_loc(&f, raw, 10, &p, &n), -EBADMSG);
	/* offset alone past the end */
	loc = 0u << 16 | 40;
	memcpy(raw + 8, &loc, 4);
	assert_int_equal(trace_field_data_loc(&f, raw, sizeof(raw), &p, &n), -ERANGE);
	/* __rel_loc: offset counted from the end of the field */
	f.is_data_loc = false;
	f.is_rel_loc = true;
	loc = 5u << 16 | 0;
	memcpy(raw + 8, &loc, 4);
	assert_int_equal(trace_field_data_loc(&f, raw, sizeof(raw), &p, &n), 0);
	assert_ptr_equal(p, raw + 12);
	/* not a location field */
	f.is_rel_loc = false;
	assert_int_equal(trace_field_data_loc(&f, raw, sizeof(raw), &p, &n), -ENOENT);
}

static void test_signed_reader(void **state)
{
	struct trace_field f = { .name = "l", .offset = 0, .size = 1, .is_signed = true };
	unsigned char raw[8] = { 0xff, 0x7f };
	int64_t v;

	(void) state;
	assert_int_equal(trace_field_read_s64(&f, raw, sizeof(raw), &v), 0);
	assert_int_equal(v, -1);
	f.offset = 1;
	assert_int_equal(trace_field_read_s64(&f, raw, sizeof(raw), &v), 0);
	assert_int_equal(v, 127);
}

/* ------------------------------------------------------------ memory_failure */

static void test_memory_failure_recorded(void **state)
{
	struct ras_tp_layout l;
	struct ras_record r;
	unsigned char raw[64];
	size_t len, n;
	char *hex = slurp("ras/memory_failure_event-6.1.hex", &len);
	char why[256];
	char *j;

	(void) state;
	n = parse_hex(hex, raw, sizeof(raw));
	free(hex);
	assert_int_equal(n, 28);
	load(&l, RAS_TP_MEMORY_FAILURE_EVENT, "tracefs/6.1/ras/memory_failure_event.format");
	/* the kernel's own mapping, read from the print fmt */
	assert_int_equal(l.page_types.n, 20);
	assert_int_equal(l.page_types.s[16].value, 16);
	assert_string_equal(l.page_types.s[16].text, "free buddy page");

	assert_int_equal(ras_tp_decode(&l, raw, n, &r, why, sizeof(why)), 0);
	assert_int_equal(r.event, RAS_EVENT_MEMORY_FAILURE);
	assert_int_equal(r.source, MCE_SOURCE_RAS_MEMORY_FAILURE_EVENT);
	assert_int_equal(r.severity, RAS_SEV_INFO);
	assert_false(r.have_cpu);
	assert_int_equal(num(&r, "pfn"), 0x30000);
	assert_string_equal(str(&r, "page_type"), "free_buddy");
	assert_string_equal(str(&r, "result"), "recovered");
	assert_string_equal(r.summary, "Memory failure at pfn 0x30000, page type free_buddy: recovered");
	j = json(&r);
	assert_string_equal(j, "{\"source\":\"ras:memory_failure_event\",\"event\":\"memory_failure\","
			    "\"severity\":\"info\",\"description\":\"Memory failure at pfn 0x30000, page "
			    "type free_buddy: recovered\",\"pfn\":\"0x30000\",\"page_type\":\"free_buddy\","
			    "\"result\":\"recovered\"}");
	free(j);
	ras_record_done(&r);

	/* The recorded sample cut short: refused, naming the field. */
	assert_int_equal(ras_tp_decode(&l, raw, 20, &r, why, sizeof(why)), -EBADMSG);
	assert_non_null(strstr(why, "'result'"));
	assert_non_null(strstr(why, "20-byte sample"));
}

/*
 * Our 6.1 page-type table (the fallback when a kernel's print fmt cannot be
 * read) names every value as the real 6.1 kernel's own mapping does.
 */
static void test_memory_failure_table_matches_kernel(void **state)
{
	struct ras_tp_layout kernel, fallback;
	struct sample s;

	(void) state;
	load(&kernel, RAS_TP_MEMORY_FAILURE_EVENT, "tracefs/6.1/ras/memory_failure_event.format");
	fallback = kernel;
	fallback.page_types.n = 0;
	for (unsigned i = 0; i < kernel.page_types.n; i++) {
		struct ras_record a, b;

		sample_init(&s, &kernel);
		put(&s, &kernel, "pfn", 0x1234);
		put(&s, &kernel, "type", (uint64_t) kernel.page_types.s[i].value);
		put(&s, &kernel, "result", 1);
		decode_ok(&kernel, &s, &a);
		decode_ok(&fallback, &s, &b);
		assert_string_equal(str(&a, "page_type"), str(&b, "page_type"));
		/* and the kernel's text was matched to one of our names, not passed through */
		assert_null(strchr(str(&a, "page_type"), ' '));
		assert_int_equal(a.severity, RAS_SEV_UNCORRECTED);   /* failed */
		ras_record_done(&a);
		ras_record_done(&b);
	}
}

/* A kernel that renumbered the page types: its print fmt decides, not our numbers. */
static void test_memory_failure_renumbered(void **state)
{
	static const char text[] =
		"name: memory_failure_event\nID: 1500\nformat:\n"
		"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
		"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
		"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
		"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"
		"\tfield:unsigned long pfn;\toffset:8;\tsize:8;\tsigned:0;\n"
		"\tfield:int type;\toffset:16;\tsize:4;\tsigned:1;\n"
		"\tfield:int result;\toffset:20;\tsize:4;\tsigned:1;\n\n"
		"print fmt: \"pfn %#lx: recovery action for %s: %s\", REC->pfn, __print_symbolic(REC->type, "
		"{ 0, \"reserved kernel page\" }, { 1, \"high-order kernel page\" }, { 2, \"hugetlb page\" }, "
		"{ 3, \"free buddy page\" }), __print_symbolic(REC->result, { 0, \"Ignored\" }, { 1, \"Failed\" }, "
		"{ 2, \"Delayed\" }, { 3, \"Recovered\" })\n";
	struct ras_tp_layout l;
	struct sample s;
	struct ras_record r;

	(void) state;
	assert_int_equal(ras_tp_layout_init(&l, RAS_TP_MEMORY_FAILURE_EVENT, text, strlen(text), NULL, NULL), 0);
	assert_int_equal(l.page_types.n, 4);
	sample_init(&s, &l);
	put(&s, &l, "type", 3);
	put(&s, &l, "result", 2);
	decode_ok(&l, &s, &r);
	assert_string_equal(str(&r, "page_type"), "free_buddy");
	assert_int_equal(r.severity, RAS_SEV_DEFERRED);
	ras_record_done(&r);
	/* a text our table lacks: the kernel's words */
	put(&s, &l, "type", 2);
	decode_ok(&l, &s, &r);
	assert_string_equal(str(&r, "page_type"), "hugetlb page");
	ras_record_done(&r);
	/* a number the kernel does not list: the number */
	put(&s, &l, "type", 9);
	decode_ok(&l, &s, &r);
	assert_null(ras_record_find(&r, "page_type"));
	assert_int_equal(num(&r, "page_type_code"), 9);
	ras_record_done(&r);
	/* a result outside enum mf_result: never harmless */
	put(&s, &l, "result", 7);
	decode_ok(&l, &s, &r);
	assert_int_equal(r.severity, RAS_SEV_UNCORRECTED);
	assert_int_equal(num(&r, "result"), 7);
	ras_record_done(&r);
}

static void test_symbols_malformed(void **state)
{
	struct ras_tp_symbols sym;
	static const char bad[] = "print fmt: \"x\", __print_symbolic(REC->type, { 0, \"a\" }, { x, \"b\" })";
	static const char none[] = "print fmt: \"x\", REC->type";

	(void) state;
	assert_int_equal(ras_tp_parse_symbols(bad, strlen(bad), "type", &sym), -EINVAL);
	assert_int_equal(ras_tp_parse_symbols(none, strlen(none), "type", &sym), 0);
	/* truncated in the middle of a pair */
	assert_int_equal(ras_tp_parse_symbols(bad, 52, "type", &sym), -EINVAL);
	/* a name with bytes the kernel never writes (found by fuzz-ras-trace): the table is refused */
	static const char binary[] = "print fmt: \"x\", __print_symbolic(REC->type, { 0, \"re\x98" "er\xff\" })";
	static const char control[] = "print fmt: \"x\", __print_symbolic(REC->type, { 0, \"a\tb\" })";
	assert_int_equal(ras_tp_parse_symbols(binary, strlen(binary), "type", &sym), -EINVAL);
	assert_int_equal(ras_tp_parse_symbols(control, strlen(control), "type", &sym), -EINVAL);
}

/* ------------------------------------------------------------------ mc_event */

static void test_mc_event(void **state)
{
	struct ras_tp_layout l;
	struct sample s;
	struct ras_record r;
	char *j;

	(void) state;
	load(&l, RAS_TP_MC_EVENT, "tracefs/6.1/ras/mc_event.format");
	sample_init(&s, &l);
	put(&s, &l, "error_type", 0);             /* HW_EVENT_ERR_CORRECTED */
	put(&s, &l, "error_count", 1);
	put(&s, &l, "mc_index", 1);
	put(&s, &l, "top_layer", 2);
	put(&s, &l, "middle_layer", 0);
	put(&s, &l, "lower_layer", (uint64_t) -1);
	put(&s, &l, "address", 0x12345678c0);
	put(&s, &l, "grain_bits", 6);
	put(&s, &l, "syndrome", 0x5a);
	put_str(&s, &l, "msg", "memory read error");
	put_str(&s, &l, "label", "CPU_SrcID#0_MC#1_Chan#2_DIMM#0");
	put_str(&s, &l, "driver_detail", "ProcessorSocketId:0x0 MemoryControllerId:0x1");
	decode_ok(&l, &s, &r);

	assert_int_equal(r.event, RAS_EVENT_MEMORY_CONTROLLER);
	assert_int_equal(r.source, MCE_SOURCE_RAS_MC_EVENT);
	assert_int_equal(r.severity, RAS_SEV_CORRECTED);
	assert_string_equal(str(&r, "error_type"), "corrected");
	assert_int_equal(num(&r, "error_count"), 1);
	assert_string_equal(str(&r, "label"), "CPU_SrcID#0_MC#1_Chan#2_DIMM#0");
	assert_string_equal(str(&r, "message"), "memory read error");
	assert_int_equal(num(&r, "mc"), 1);
	assert_int_equal(num(&r, "top_layer"), 2);
	assert_int_equal(num(&r, "middle_layer"), 0);
	assert_null(ras_record_find(&r, "lower_layer"));     /* -1: layer not used */
	assert_int_equal(num(&r, "address"), 0x12345678c0);
	assert_int_equal(num(&r, "grain"), 64);
	assert_int_equal(num(&r, "syndrome"), 0x5a);
	assert_string_equal(str(&r, "driver_detail"), "ProcessorSocketId:0x0 MemoryControllerId:0x1");
	/* The location in the detail, as numbers rules and the DRAM classifier read (lib/edac-detail.h). */
	assert_int_equal(num(&r, "socket"), 0);
	assert_int_equal(num(&r, "memory_controller"), 1);
	assert_null(ras_record_find(&r, "row"));
	assert_string_equal(r.summary, "Corrected memory error on CPU_SrcID#0_MC#1_Chan#2_DIMM#0 (memory "
			    "controller 1, location 2:0:-1, address 0x12345678c0): memory read error");
	j = json(&r);
	assert_non_null(strstr(j, "\"address\":\"0x00000012345678c0\""));
	assert_non_null(strstr(j, "\"top_layer\":2"));
	free(j);
	ras_record_done(&r);

	/* each EDAC class to its severity; an unknown one is never harmless */
	static const struct { uint64_t type; enum ras_severity sev; } classes[] = {
		{ 1, RAS_SEV_UNCORRECTED }, { 2, RAS_SEV_DEFERRED }, { 3, RAS_SEV_FATAL },
		{ 4, RAS_SEV_INFO }, { 99, RAS_SEV_UNCORRECTED },
	};
	for (size_t i = 0; i < sizeof(classes) / sizeof(classes[0]); i++) {
		put(&s, &l, "error_type", classes[i].type);
		decode_ok(&l, &s, &r);
		assert_int_equal(r.severity, classes[i].sev);
		ras_record_done(&r);
	}
}

static void test_mc_event_hostile(void **state)
{
	struct ras_tp_layout l;
	struct sample s;
	struct ras_record r;
	char why[256];
	uint32_t loc;

	(void) state;
	load(&l, RAS_TP_MC_EVENT, "tracefs/6.1/ras/mc_event.format");
	sample_init(&s, &l);
	put_str(&s, &l, "msg", "m");
	put_str(&s, &l, "label", "DIMM_A1");
	put_str(&s, &l, "driver_detail", "");
	/* the label's location points 100 bytes past the end */
	loc = 8u << 16 | (uint32_t) (s.size + 100);
	memcpy(s.b + field(&l, "label")->offset, &loc, 4);
	assert_int_equal(ras_tp_decode(&l, s.b, s.size, &r, why, sizeof(why)), -EBADMSG);
	assert_non_null(strstr(why, "'label'"));
	assert_non_null(strstr(why, "outside"));

	/* a length that runs past the end */
	loc = 0xffffu << 16 | (uint32_t) (s.size - 2);
	memcpy(s.b + field(&l, "label")->offset, &loc, 4);
	assert_int_equal(ras_tp_decode(&l, s.b, s.size, &r, why, sizeof(why)), -EBADMSG);

	/* a sample cut inside the fixed fields */
	assert_int_equal(ras_tp_decode(&l, s.b, 30, &r, why, sizeof(why)), -EBADMSG);
	assert_non_null(strstr(why, "30-byte sample"));

	/* control bytes and high bytes in a label become '?', not raw bytes in JSON */
	sample_init(&s, &l);
	put_str(&s, &l, "msg", "");
	put_str(&s, &l, "label", "A\n\x01\xff" "B");
	put_str(&s, &l, "driver_detail", "");
	decode_ok(&l, &s, &r);
	assert_string_equal(str(&r, "label"), "A???B");
	assert_null(ras_record_find(&r, "message"));     /* empty text is omitted */
	ras_record_done(&r);
}

/* ------------------------------------------------------------------ aer_event */

static void test_aer_event(void **state)
{
	struct ras_tp_layout l;
	struct sample s;
	struct ras_record r;
	uint32_t tlp[4] = { 0x4a000001, 0x0100000f, 0xfee00000, 0 };
	char *j;

	(void) state;
	load(&l, RAS_TP_AER_EVENT, "tracefs/6.1/ras/aer_event.format");
	sample_init(&s, &l);
	put_str(&s, &l, "dev_name", "0000:00:1c.0");
	put(&s, &l, "status", 0x41);              /* Receiver Error, Bad TLP */
	put(&s, &l, "severity", 2);               /* AER_CORRECTABLE */
	decode_ok(&l, &s, &r);
	assert_int_equal(r.event, RAS_EVENT_PCIE_AER);
	assert_int_equal(r.severity, RAS_SEV_CORRECTED);
	assert_string_equal(str(&r, "dev_name"), "0000:00:1c.0");
	assert_string_equal(str(&r, "aer_severity"), "corrected");
	assert_int_equal(num(&r, "correctable_status"), 0x41);
	assert_null(ras_record_find(&r, "uncorrectable_status"));
	assert_string_equal(str(&r, "errors"), "Receiver Error, Bad TLP");
	assert_null(ras_record_find(&r, "tlp_header"));   /* not valid: not reported */
	assert_string_equal(r.summary, "Corrected PCIe error on 0000:00:1c.0: Receiver Error, Bad TLP");
	ras_record_done(&r);

	put(&s, &l, "status", 1u << 18 | 1u << 30);     /* Malformed TLP and a reserved bit */
	put(&s, &l, "severity", 1);                      /* AER_FATAL */
	put(&s, &l, "tlp_header_valid", 1);
	put_bytes(&s, &l, "tlp_header", tlp, sizeof(tlp));
	decode_ok(&l, &s, &r);
	assert_int_equal(r.severity, RAS_SEV_FATAL);
	assert_string_equal(str(&r, "errors"), "Malformed TLP, bit 30");
	j = json(&r);
	assert_non_null(strstr(j, "\"tlp_header\":\"0100004a0f0000010000e0fe00000000\""));
	assert_non_null(strstr(j, "\"uncorrectable_status\":\"0x40040000\""));
	free(j);
	ras_record_done(&r);

	put(&s, &l, "severity", 0);                      /* AER_NONFATAL */
	decode_ok(&l, &s, &r);
	assert_int_equal(r.severity, RAS_SEV_UNCORRECTED);
	assert_string_equal(str(&r, "aer_severity"), "non_fatal");
	ras_record_done(&r);
}

static void test_aer_event_recorded(void **state)
{
	struct ras_tp_layout l;
	struct ras_record r;
	unsigned char raw[128];
	size_t len, n;
	char *hex = slurp("ras/aer_event-6.1.hex", &len);
	char why[256];

	(void) state;
	n = parse_hex(hex, raw, sizeof(raw));
	free(hex);
	assert_int_equal(n, 52);
	load(&l, RAS_TP_AER_EVENT, "tracefs/6.1/ras/aer_event.format");
	assert_int_equal(ras_tp_decode(&l, raw, n, &r, why, sizeof(why)), 0);
	assert_int_equal(r.severity, RAS_SEV_UNCORRECTED);
	assert_string_equal(str(&r, "dev_name"), "0000:00:01.0");
	assert_string_equal(str(&r, "aer_severity"), "non_fatal");
	assert_int_equal(num(&r, "uncorrectable_status"), 0x1000);
	assert_string_equal(str(&r, "errors"), "Poisoned TLP Received");
	/* the kernel printed it as dwords, "0100004a 0f000001 0000e0fe 00000000": these are their bytes */
	assert_int_equal(ras_record_find(&r, "tlp_header")->len, 16);
	assert_memory_equal(ras_record_find(&r, "tlp_header")->data,
			    "\x4a\x00\x00\x01\x01\x00\x00\x0f\xfe\xe0\x00\x00\x00\x00\x00\x00", 16);
	assert_string_equal(r.summary, "Uncorrected PCIe error on 0000:00:01.0: Poisoned TLP Received");
	ras_record_done(&r);

	/* The device name's location moved past the end of the recorded sample. */
	raw[8] = 0x30;
	assert_int_equal(ras_tp_decode(&l, raw, n, &r, why, sizeof(why)), -EBADMSG);
	assert_non_null(strstr(why, "'dev_name' names 13 bytes at offset 48, outside the 52-byte sample"));
}

/*
 * 7.3's aer_event: a 14-dword TLP header array (tests/data/tracefs/7.3/ras/
 * aer_event.format) and bus_type.  The sample is built to that format with
 * the header tests/vm/scenarios/61-aer.sh injects there, which the kernel
 * printed as "TLP Header: 0x0100004a 0x0f000001 0x0000e0fe 0x00000000"
 * (tests/data/tracefs/7.3/ras/aer_event.dmesg): the record holds those 4
 * dwords, as on 6.1, not 56 bytes ending in 40 zeros.
 */
static void test_aer_event_7_3(void **state)
{
	struct ras_tp_layout l;
	struct sample s;
	struct ras_record r;
	uint32_t tlp[14] = { 0x0100004a, 0x0f000001, 0x0000e0fe, 0 };   /* the dwords 7.3 printed */
	const struct ras_field *h;

	(void) state;
	load(&l, RAS_TP_AER_EVENT, "tracefs/7.3/ras/aer_event.format");
	sample_init(&s, &l);
	put_str(&s, &l, "dev_name", "0000:00:01.0");
	put_str(&s, &l, "bus_type", "PCIe");
	put(&s, &l, "status", 0x1000);                 /* Poisoned TLP */
	put(&s, &l, "severity", 0);                    /* AER_NONFATAL */
	put(&s, &l, "tlp_header_valid", 1);
	put_bytes(&s, &l, "tlp_header", tlp, sizeof(tlp));
	decode_ok(&l, &s, &r);
	assert_int_equal(r.severity, RAS_SEV_UNCORRECTED);
	assert_string_equal(str(&r, "bus_type"), "PCIe");
	h = ras_record_find(&r, "tlp_header");
	assert_non_null(h);
	assert_int_equal(h->len, 16);
	assert_memory_equal(h->data, "\x4a\x00\x00\x01\x01\x00\x00\x0f\xfe\xe0\x00\x00\x00\x00\x00\x00", 16);
	assert_string_equal(r.summary, "Uncorrected PCIe error on 0000:00:01.0: Poisoned TLP Received");
	ras_record_done(&r);

	/* A prefix (or Flit-mode) dword after a zero one: kept, the zero before it too. */
	tlp[5] = 0x91000000;
	put_bytes(&s, &l, "tlp_header", tlp, sizeof(tlp));
	decode_ok(&l, &s, &r);
	h = ras_record_find(&r, "tlp_header");
	assert_int_equal(h->len, 24);
	assert_memory_equal(h->data + 16, "\x00\x00\x00\x00\x00\x00\x00\x91", 8);
	ras_record_done(&r);

	/* An all-zero header that the kernel says is valid: its 4 dwords, not nothing. */
	memset(tlp, 0, sizeof(tlp));
	put_bytes(&s, &l, "tlp_header", tlp, sizeof(tlp));
	put_str(&s, &l, "bus_type", "CXL");
	decode_ok(&l, &s, &r);
	assert_int_equal(ras_record_find(&r, "tlp_header")->len, 16);
	assert_string_equal(r.summary, "Uncorrected CXL error on 0000:00:01.0: Poisoned TLP Received");
	ras_record_done(&r);
}

/* ------------------------------------------------------------ extlog_mem_event */

static void test_extlog_mem_event(void **state)
{
	static const unsigned char fru[16] = {
		0x14, 0x11, 0xbc, 0xa5, 0x64, 0x6f, 0xde, 0x4e, 0xb8, 0x63, 0x3e, 0x83, 0xed, 0x7c, 0x83, 0xb1,
	};
	struct ras_tp_layout l;
	struct sample s;
	struct ras_record r;
	unsigned char cmem[55] = { 0 };
	uint64_t valid = 1u << 3 | 1u << 8 | 1u << 9 | 1u << 15 | 1u << 18 | 1u << 19 | 1u << 20 |
			 1u << 21 | 1u << 13;
	char *j;

	(void) state;
	load(&l, RAS_TP_EXTLOG_MEM_EVENT, "tracefs/6.1/ras/extlog_mem_event.format");
	memcpy(cmem + 0, &valid, 8);
	memcpy(cmem + 8, &(uint16_t) { 1 }, 2);          /* node */
	memcpy(cmem + 14, &(uint16_t) { 0x0203 }, 2);    /* bank group 2, bank address 3 */
	memcpy(cmem + 18, &(uint16_t) { 0x1234 }, 2);    /* row */
	memcpy(cmem + 20, &(uint16_t) { 0x56 }, 2);      /* column */
	memcpy(cmem + 40, &(uint64_t) { 0xabcdef }, 8);  /* target id */
	memcpy(cmem + 48, &(uint16_t) { 3 }, 2);         /* rank */
	cmem[54] = 0x2 | 5u << 5;                        /* row bit 17, chip id 5 */

	sample_init(&s, &l);
	put(&s, &l, "err_seq", 42);
	put(&s, &l, "etype", 2);                          /* single-bit ECC */
	put(&s, &l, "sev", 2);                            /* CPER corrected */
	put(&s, &l, "pa", 0x7f001000);
	put(&s, &l, "pa_mask_lsb", 6);
	put_bytes(&s, &l, "fru_id", fru, sizeof(fru));
	put_bytes(&s, &l, "data", cmem, sizeof(cmem));
	put_str(&s, &l, "fru_text", "DIMM_B2");
	decode_ok(&l, &s, &r);

	assert_int_equal(r.event, RAS_EVENT_FIRMWARE_MEMORY);
	assert_int_equal(r.source, MCE_SOURCE_RAS_EXTLOG_MEM_EVENT);
	assert_int_equal(r.severity, RAS_SEV_CORRECTED);
	assert_string_equal(str(&r, "cper_severity"), "corrected");
	assert_int_equal(num(&r, "error_sequence"), 42);
	assert_string_equal(str(&r, "error_type"), "single-bit ECC");
	assert_int_equal(num(&r, "physical_address"), 0x7f001000);
	assert_int_equal(num(&r, "physical_address_mask_lsb"), 6);
	assert_string_equal(str(&r, "fru_id"), "a5bc1114-6f64-4ede-b863-3e83ed7c83b1");
	assert_string_equal(str(&r, "fru_text"), "DIMM_B2");
	assert_int_equal(num(&r, "node"), 1);
	assert_int_equal(num(&r, "bank_group"), 2);
	assert_int_equal(num(&r, "bank_address"), 3);
	assert_null(ras_record_find(&r, "bank"));
	assert_int_equal(num(&r, "row"), 0x21234);
	assert_int_equal(num(&r, "column"), 0x56);
	assert_int_equal(num(&r, "rank"), 3);
	assert_int_equal(num(&r, "chip_id"), 5);
	assert_int_equal(num(&r, "target_id"), 0xabcdef);
	assert_null(ras_record_find(&r, "card"));        /* not valid: not reported */
	assert_string_equal(r.summary, "Corrected firmware-reported memory error at 0x7f001000: single-bit ECC");
	j = json(&r);
	assert_non_null(strstr(j, "\"event\":\"firmware_memory\""));
	free(j);
	ras_record_done(&r);

	/* ~0: firmware left type and address invalid; recoverable is uncorrected */
	put(&s, &l, "etype", 0xff);
	put(&s, &l, "pa", UINT64_MAX);
	put(&s, &l, "pa_mask_lsb", 0xff);
	put(&s, &l, "sev", 0);
	decode_ok(&l, &s, &r);
	assert_null(ras_record_find(&r, "error_type"));
	assert_null(ras_record_find(&r, "physical_address"));
	assert_int_equal(r.severity, RAS_SEV_UNCORRECTED);
	assert_string_equal(str(&r, "cper_severity"), "recoverable");
	ras_record_done(&r);
}

/* ------------------------------------------------------------------ arm_event */

static void test_arm_event_6_1(void **state)
{
	struct ras_tp_layout l;
	struct sample s;
	struct ras_record r;

	(void) state;
	load(&l, RAS_TP_ARM_EVENT, "tracefs/6.1/ras/arm_event.format");
	assert_null(trace_format_field(&l.format, "pei_buf"));
	sample_init(&s, &l);
	put(&s, &l, "mpidr", 0x81000100);
	put(&s, &l, "midr", 0x410fd0c1);
	put(&s, &l, "running_state", 1);
	put(&s, &l, "psci_state", 0);
	put(&s, &l, "affinity", 1);
	decode_ok(&l, &s, &r);
	assert_int_equal(r.event, RAS_EVENT_ARM_PROCESSOR);
	/* the old event carries no severity: never reported as harmless */
	assert_int_equal(r.severity, RAS_SEV_UNCORRECTED);
	assert_false(r.have_cpu);
	assert_int_equal(num(&r, "mpidr"), 0x81000100);
	assert_int_equal(num(&r, "midr"), 0x410fd0c1);
	assert_int_equal(num(&r, "affinity"), 1);
	assert_int_equal(num(&r, "running_state"), 1);
	assert_int_equal(num(&r, "psci_state"), 0);
	assert_string_equal(r.summary, "Uncorrected ARM processor error (MPIDR 0x81000100, MIDR 0x410fd0c1)");
	ras_record_done(&r);

	put(&s, &l, "affinity", 0xff);
	put(&s, &l, "running_state", UINT32_MAX);
	decode_ok(&l, &s, &r);
	assert_null(ras_record_find(&r, "affinity"));
	assert_null(ras_record_find(&r, "running_state"));
	assert_null(ras_record_find(&r, "psci_state"));
	ras_record_done(&r);
}

/* The three blocks of an arm_event with the length fields that size them. */
static void put_arm_blocks(struct sample *s, const struct ras_tp_layout *l, const void *pei, size_t pei_n,
			   const void *ctx, size_t ctx_n, const void *oem, size_t oem_n)
{
	put(s, l, "pei_len", pei_n);
	put_dyn(s, l, "pei_buf", pei, pei_n);
	put(s, l, "ctx_len", ctx_n);
	put_dyn(s, l, "ctx_buf", ctx, ctx_n);
	put(s, l, "oem_len", oem_n);
	put_dyn(s, l, "oem_buf", oem, oem_n);
}

static void test_arm_event_newer(void **state)
{
	struct ras_tp_layout l;
	struct sample s;
	struct ras_record r;
	unsigned char pei[32] = { 0, 32, 0x1f, 0 }, ctx[16] = { 1, 2, 3 }, oem[3] = { 0xde, 0xad, 0xbe };
	char why[256];
	char *j;

	(void) state;
	load(&l, RAS_TP_ARM_EVENT, "tracefs/6.16/ras/arm_event.format");
	sample_init(&s, &l);
	put(&s, &l, "mpidr", 0x80000003);
	put(&s, &l, "midr", 0x410fd490);
	put(&s, &l, "running_state", UINT32_MAX);
	put(&s, &l, "affinity", 0xff);
	put(&s, &l, "sev", 1);                    /* GHES_SEV_CORRECTED */
	put(&s, &l, "cpu", 3);
	put_arm_blocks(&s, &l, pei, sizeof(pei), ctx, sizeof(ctx), oem, sizeof(oem));
	decode_ok(&l, &s, &r);
	assert_int_equal(r.severity, RAS_SEV_CORRECTED);
	assert_string_equal(str(&r, "ghes_severity"), "corrected");
	assert_true(r.have_cpu);
	assert_int_equal(r.cpu, 3);
	assert_int_equal(ras_record_find(&r, "pei")->len, 32);
	assert_int_equal(ras_record_find(&r, "ctx")->len, 16);
	assert_memory_equal(ras_record_find(&r, "oem")->data, oem, 3);
	j = json(&r);
	assert_non_null(strstr(j, "\"cpu\":3"));
	assert_non_null(strstr(j, "\"oem\":\"deadbe\""));
	free(j);
	assert_string_equal(r.summary, "Corrected ARM processor error on CPU 3 (MPIDR 0x80000003, MIDR 0x410fd490)");
	ras_record_done(&r);

	/* a length field that disagrees with its array */
	put(&s, &l, "ctx_len", 17);
	assert_int_equal(ras_tp_decode(&l, s.b, s.size, &r, why, sizeof(why)), -EBADMSG);
	assert_non_null(strstr(why, "'ctx_len' says 17 bytes but 'ctx_buf' holds 16"));
}

/*
 * The arm_event published on linux-edac (Mauro Carvalho Chehab, "[PATCH v2
 * 0/7] Add ACPI CPER firmware first error injection for Arm Processor", 12 Jul
 * 2024, https://lore.kernel.org/linux-edac/cover.1720789921.git.mchehab+huawei@kernel.org/):
 * "cpu: 0; error: 2; affinity level: 255; MPIDR: 0000000080000000; MIDR: 0;
 * running state: 0; PSCI state: 0; ARM Processor Err Info raw data: 00 20 06
 * 00 02 00 00 05 7f 00 54 00 ...", which the kernel decoded as a cache error,
 * level 1, instruction fetch, not corrected.  "error" is the GHES severity:
 * 2, recoverable.
 */
static void test_arm_event_golden_qemu(void **state)
{
	static const unsigned char pei[32] = {
		0x00, 0x20, 0x06, 0x00, 0x02, 0x00, 0x00, 0x05, 0x7f, 0x00, 0x54,
	};
	struct ras_tp_layout l;
	struct sample s;
	struct ras_record r;
	char *j;

	(void) state;
	load(&l, RAS_TP_ARM_EVENT, "tracefs/7.3/ras/arm_event.format");
	sample_init(&s, &l);
	put(&s, &l, "mpidr", 0x80000000);
	put(&s, &l, "midr", 0);
	put(&s, &l, "running_state", 0);
	put(&s, &l, "psci_state", 0);
	put(&s, &l, "affinity", 255);
	put(&s, &l, "sev", 2);
	put(&s, &l, "cpu", 0);
	put_arm_blocks(&s, &l, pei, sizeof(pei), "", 0, "", 0);
	decode_ok(&l, &s, &r);
	assert_string_equal(str(&r, "error_type"), "cache");
	assert_string_equal(str(&r, "operation"), "instruction fetch");
	assert_string_equal(str(&r, "transaction_type"), "instruction");
	assert_int_equal(num(&r, "level"), 1);
	assert_string_equal(str(&r, "error_flag_names"), "first|propagated");
	assert_int_equal(ras_record_find(&r, "pei")->len, 32);
	assert_null(ras_record_find(&r, "pei_problem"));
	j = json(&r);
	assert_non_null(strstr(j, "\"corrected\":false"));
	assert_non_null(strstr(j, "\"pei_decoded\":\"cache level 1 instruction fetch uncorrected flags first|propagated\""));
	free(j);
	assert_string_equal(str(&r, "ghes_severity"), "recoverable");
	assert_string_equal(r.summary, "Uncorrected ARM cache error, level 1, on CPU 0 (MPIDR 0x80000000, MIDR 0x0)");
	ras_record_done(&r);
}

/*
 * A real ras:arm_event: Linux 7.3.4+deb13-arm64 under QEMU 11.1 (-M
 * virt,ras=on, UEFI), reporting the CPER record tests/vm/arm64-ghes/80 had
 * QEMU inject (inject-ghes-v2-error): a corrected ARM processor section
 * (CPER severity 2) naming MPIDR 0x80000001.  The kernel's trace line:
 * "cpu: 1; error: 1; affinity level: 0; MPIDR: 0000000080000001; MIDR:
 * 00000000000f0510; running state: 1; PSCI state: 0; ARM Processor Err Info
 * data len: 64; ARM Processor Err Info raw data: 00 20 1f 00 02 02 00 03 1f
 * d0 80 04 ..." ("error" is GHES_SEV_CORRECTED); its CPER print of the same
 * record: "event severity: corrected", "error_type: 0x02: cache error",
 * "transaction type: Instruction", "cache error, operation type: Generic
 * error", "cache level: 2", "the error has been corrected", then a TLB error,
 * "TLB error, operation type: Instruction fetch", "TLB level: 1".
 * The record's two contexts (an AArch64 EL1 array of 136 bytes, a misc
 * register array of 20 holding ERXSTATUS_EL1 and ERXADDR_EL1) and 8 vendor
 * bytes: the kernel traced "Context Info data len: 16" (8 a context, the
 * headers alone) and put the rest of the contexts in the vendor array ("data
 * len: 164"), while its CPER print walked both contexts in full.
 */
static void test_arm_event_golden_linux_7_3(void **state)
{
	static const char pei_hex[] =
		"00201f00020200031fd0800400000000005034120080ffff0040234100000000\n"
		"0020060004000000170054040000000000000000000000000000000000000000\n";
	static const char oem_hex[] =
		"1000009600000000005034120080ffff00000000000000000000000000000000\n"
		"0000000000000000000000000000000000000000000000000000000000000000\n"
		"0000000000000000000000000000000000000000000000000000000000000000\n"
		"0000000000000000000000000000000000000000000000000000000000000000\n"
		"0000080014000000a242060000c200000000a342004023410000008001234567\n"
		"89abcdef\n";
	static const char ctx_hex[] =
		"000005008800000020c1ab100080ffff\n";
	unsigned char pei[64], ctx[16], oem[164];
	struct ras_tp_layout l;
	struct sample s;
	struct ras_record r;
	char *j;

	(void) state;
	assert_int_equal(parse_hex(pei_hex, pei, sizeof(pei)), sizeof(pei));
	assert_int_equal(parse_hex(ctx_hex, ctx, sizeof(ctx)), sizeof(ctx));
	assert_int_equal(parse_hex(oem_hex, oem, sizeof(oem)), sizeof(oem));
	load(&l, RAS_TP_ARM_EVENT, "tracefs/7.3/ras/arm_event.format");
	sample_init(&s, &l);
	put(&s, &l, "mpidr", 0x80000001);
	put(&s, &l, "midr", 0xf0510);
	put(&s, &l, "running_state", 1);
	put(&s, &l, "psci_state", 0);
	put(&s, &l, "affinity", 0);
	put(&s, &l, "sev", 1);
	put(&s, &l, "cpu", 1);
	put_arm_blocks(&s, &l, pei, sizeof(pei), ctx, sizeof(ctx), oem, sizeof(oem));
	decode_ok(&l, &s, &r);
	/* Corrected, as the CPER and the kernel's print say: not CPER's 1, fatal */
	assert_int_equal(r.severity, RAS_SEV_CORRECTED);
	assert_string_equal(str(&r, "ghes_severity"), "corrected");
	assert_true(r.have_cpu);
	assert_int_equal(r.cpu, 1);
	assert_string_equal(str(&r, "error_type"), "cache");
	assert_string_equal(str(&r, "transaction_type"), "instruction");
	assert_string_equal(str(&r, "operation"), "generic error");
	assert_int_equal(num(&r, "level"), 2);
	assert_int_equal(num(&r, "multiple_error"), 2);
	assert_string_equal(str(&r, "error_flag_names"), "first|last");
	assert_int_equal(num(&r, "error_info"), 0x480d01f);
	assert_int_equal(num(&r, "virtual_fault_address"), 0xffff800012345000);
	assert_int_equal(num(&r, "physical_fault_address"), 0x41234000);
	assert_string_equal(str(&r, "pei_decoded"), "cache level 2 generic error corrected multiple (2) flags first|last "
			    "PA 0x41234000 VA 0xffff800012345000; tlb level 1 instruction fetch corrected");
	assert_string_equal(r.summary, "Corrected ARM cache error, level 2, on CPU 1 (MPIDR 0x80000001, MIDR 0xf0510)");
	/* Both contexts, read on from ctx_buf into oem_buf; the vendor bytes after them */
	assert_null(ras_record_find(&r, "ctx_problem"));
	assert_int_equal(num(&r, "ctx_count"), 2);
	assert_string_equal(str(&r, "context_types"), "AArch64 EL1 context registers, misc system registers");
	assert_int_equal(num(&r, "ctx_from_oem"), 136 + 8 + 20 - 8);
	assert_int_equal(num(&r, "elr_el1"), 0xffff800010abc120);
	assert_int_equal(num(&r, "esr_el1"), 0x96000010);
	assert_int_equal(num(&r, "far_el1"), 0xffff800012345000);
	assert_int_equal(num(&r, "err_status"), 0xc2000006);
	assert_string_equal(str(&r, "err_status_flags"), "V|AV");
	assert_string_equal(str(&r, "err_status_ce"), "at least one error corrected");
	assert_string_equal(str(&r, "err_status_serr"), "data value from associative memory");
	assert_int_equal(num(&r, "err_addr"), 0x8000000041234000);
	j = json(&r);
	assert_non_null(strstr(j, "\"vendor_data\":\"0123456789abcdef\""));
	assert_non_null(strstr(j, "\"ctx\":\"000005008800000020c1ab100080ffff\""));  /* as traced */
	free(j);
	assert_int_equal(ras_record_find(&r, "oem")->len, 164);
	ras_record_done(&r);

	/* A kernel that traces the contexts whole: they walk ctx_buf alone, oem is the vendor's */
	{
		unsigned char whole[16 + 156];

		memcpy(whole, ctx, 16);
		memcpy(whole + 16, oem, 156);
		put_arm_blocks(&s, &l, pei, sizeof(pei), whole, sizeof(whole), oem + 156, 8);
		decode_ok(&l, &s, &r);
		assert_int_equal(num(&r, "ctx_count"), 2);
		assert_null(ras_record_find(&r, "ctx_from_oem"));
		assert_null(ras_record_find(&r, "vendor_data"));
		assert_int_equal(num(&r, "err_addr"), 0x8000000041234000);
		ras_record_done(&r);
	}

	/*
	 * A correct kernel (ctx whole) with firmware's malformed context: 16
	 * bytes that do not walk alone, and zero-filled oem bytes, which would
	 * walk as an empty context of type 0.  Not the kernel form (review M14):
	 * not read on into oem_buf, the problem named, the raw bytes kept.
	 */
	{
		unsigned char bad[16] = { 0, 0, 5, 0, 16, 0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8 }, zeros[40] = { 0 };

		put_arm_blocks(&s, &l, pei, sizeof(pei), bad, sizeof(bad), zeros, sizeof(zeros));
		decode_ok(&l, &s, &r);
		assert_null(ras_record_find(&r, "ctx_from_oem"));
		assert_null(ras_record_find(&r, "vendor_data"));
		assert_non_null(ras_record_find(&r, "ctx_problem"));
		assert_int_equal(ras_record_find(&r, "ctx")->len, 16);
		assert_int_equal(ras_record_find(&r, "oem")->len, 40);
		ras_record_done(&r);
	}

	/* Headers alone and nothing in oem_buf to read on into: named, raw bytes kept */
	put_arm_blocks(&s, &l, pei, sizeof(pei), ctx, sizeof(ctx), "", 0);
	decode_ok(&l, &s, &r);
	assert_string_equal(str(&r, "ctx_problem"), "ctx_buf byte 4: context information 1: register array size 136 "
			    "runs past the end (8 bytes left)");
	assert_int_equal(ras_record_find(&r, "ctx")->len, 16);
	ras_record_done(&r);
}

/* A block that lies about itself is named in a field; the sample and its raw bytes are kept. */
static void test_arm_event_hostile_blocks(void **state)
{
	unsigned char pei[36] = { 0, 32, 0x04, 0, 0x08, 0, 0, 0, 0x04, 0, 0x80 }, ctx[12] = { 0, 0, 5, 0, 0xff };
	struct ras_tp_layout l;
	struct sample s;
	struct ras_record r;

	(void) state;
	load(&l, RAS_TP_ARM_EVENT, "tracefs/6.16/ras/arm_event.format");
	sample_init(&s, &l);
	put(&s, &l, "sev", 2);                    /* GHES_SEV_RECOVERABLE */
	put(&s, &l, "cpu", 7);
	put_arm_blocks(&s, &l, pei, sizeof(pei), ctx, sizeof(ctx), "", 0);
	decode_ok(&l, &s, &r);
	assert_string_equal(str(&r, "pei_problem"), "pei_buf byte 32: error information: 36 bytes are not a whole "
			    "number of 32-byte structures; 4 bytes left over");
	assert_string_equal(str(&r, "ctx_problem"), "ctx_buf byte 4: context information 1: register array size "
			    "255 runs past the end (4 bytes left)");
	assert_int_equal(ras_record_find(&r, "pei")->len, 36);
	assert_int_equal(ras_record_find(&r, "ctx")->len, 12);
	/* what did fit is decoded: a bus error at affinity level 2 */
	assert_string_equal(r.summary, "Uncorrected ARM bus error, level 2, on CPU 7 (MPIDR 0x0, MIDR 0x0)");
	ras_record_done(&r);
}

/* Every block of an arm_event decoded at once still fits one record: nothing truncated, oem kept. */
static void test_arm_event_every_field(void **state)
{
	unsigned char pei[64] = {}, ctx[8 + 136 + 8 + 70] = {}, oem[16] = { 0xaa };
	uint64_t info = 0xfff | 1ULL << 16 | 3ULL << 18 | 2ULL << 22 | 1ULL << 26 | 1ULL << 31 | 1ULL << 43;
	struct ras_tp_layout l;
	struct sample s;
	struct ras_record r;
	size_t off;

	(void) state;
	for (int i = 0; i < 2; i++) {
		pei[32 * i + 1] = 32;
		pei[32 * i + 2] = 0x1f;
		pei[32 * i + 4] = 0x08;
		for (int b = 0; b < 8; b++)
			pei[32 * i + 8 + b] = (unsigned char) (info >> (8 * b));
	}
	ctx[2] = 5;
	ctx[4] = 136;
	off = 8 + 136;
	ctx[off + 2] = 8;
	ctx[off + 4] = 70;
	off += 8;
	for (unsigned k = 0; k < 7; k++) {
		/* ERRSELR, ERXFR, ERXCTLR, ERXSTATUS, ERXADDR, ERXMISC0, ERXMISC1 */
		static const uint16_t enc[7] = { 0x4299, 0x42a0, 0x42a1, 0x42a2, 0x42a3, 0x42a8, 0x42a9 };

		ctx[off + 10 * k] = (unsigned char) enc[k];
		ctx[off + 10 * k + 1] = (unsigned char) (enc[k] >> 8);
		ctx[off + 10 * k + 5] = 0xe4;   /* status bits 31:24 = AV, V, UE, MV */
	}
	load(&l, RAS_TP_ARM_EVENT, "tracefs/6.16/ras/arm_event.format");
	sample_init(&s, &l);
	put(&s, &l, "mpidr", 0x80000003);
	put(&s, &l, "running_state", 1);
	put(&s, &l, "affinity", 1);
	put(&s, &l, "sev", 1);                    /* GHES_SEV_CORRECTED */
	put(&s, &l, "cpu", 3);
	put_arm_blocks(&s, &l, pei, sizeof(pei), ctx, sizeof(ctx), oem, sizeof(oem));
	decode_ok(&l, &s, &r);
	assert_false(r.truncated);
	assert_int_equal(ras_record_find(&r, "oem")->len, 16);
	assert_string_equal(str(&r, "access_mode"), "normal");
	assert_string_equal(str(&r, "err_status_uet"), "uncontainable (UC)");
	assert_non_null(ras_record_find(&r, "err_misc1"));
	assert_non_null(ras_record_find(&r, "far_el1"));
	assert_string_equal(r.summary, "Corrected ARM bus error, level 2, on CPU 3 (MPIDR 0x80000003, MIDR 0x0)");
	ras_record_done(&r);
}

/* An Ampere Altra section through ras:non_standard_event: the bytes of the report cited in test-arm-vendor.c. */
static void test_non_standard_event_ampere(void **state)
{
	/* e8ed898d-df16-43cc-8ecc-54f060ef157f as a UEFI GUID in memory */
	static const unsigned char type[16] = {
		0x8d, 0x89, 0xed, 0xe8, 0x16, 0xdf, 0xcc, 0x43, 0x8e, 0xcc, 0x54, 0xf0, 0x60, 0xef, 0x15, 0x7f,
	};
	static const unsigned char data[48] = {
		0x05, 0x00, 0x00, 0x00, 0x0e, 0x00, 0x30, 0xec, 0x10, 0x01, 0x08, 0x00, 0x01, 0x10, 0x00, 0x80,
		0x00, 0x03,
	};
	struct ras_tp_layout l;
	struct sample s;
	struct ras_record r;

	(void) state;
	load(&l, RAS_TP_NON_STANDARD_EVENT, "tracefs/6.1/ras/non_standard_event.format");
	sample_init(&s, &l);
	put_bytes(&s, &l, "sec_type", type, sizeof(type));
	put(&s, &l, "sev", 2);                    /* GHES_SEV_RECOVERABLE */
	put(&s, &l, "len", sizeof(data));
	put_str(&s, &l, "fru_text", "");
	put_dyn(&s, &l, "buf", data, sizeof(data));
	decode_ok(&l, &s, &r);
	assert_string_equal(str(&r, "section_type"), "e8ed898d-df16-43cc-8ecc-54f060ef157f");
	assert_string_equal(str(&r, "section_name"), "Ampere RAS error");
	assert_string_equal(str(&r, "error_source"), "GIC");
	assert_int_equal(num(&r, "err_status"), 0xec30000e);
	assert_int_equal(num(&r, "err_addr"), 0x8000100100080110ULL);
	assert_int_equal(ras_record_find(&r, "data")->len, 48);
	assert_string_equal(r.summary, "Uncorrected Ampere GIC error, socket 0, instance 0: illegal access (software "
			    "fault) (vendor section e8ed898d-df16-43cc-8ecc-54f060ef157f, 48 bytes)");
	ras_record_done(&r);

	/* cut to 8 bytes: decoded as far as it goes, the problem a field */
	put(&s, &l, "len", 8);
	put_dyn(&s, &l, "buf", data, 8);
	decode_ok(&l, &s, &r);
	assert_string_equal(str(&r, "data_problem"), "buf byte 4: Ampere section: payload type 0 needs 48 bytes, "
			    "the section has 8");
	assert_string_equal(str(&r, "error_source"), "GIC");
	ras_record_done(&r);
}

/* --------------------------------------------------------- non_standard_event */

static void test_non_standard_event(void **state)
{
	/* A section type as a UEFI GUID in memory: 9876ccad-47b4-4bdb-b65e-16f193c4f3db */
	static const unsigned char type[16] = {
		0xad, 0xcc, 0x76, 0x98, 0xb4, 0x47, 0xdb, 0x4b, 0xb6, 0x5e, 0x16, 0xf1, 0x93, 0xc4, 0xf3, 0xdb,
	};
	unsigned char data[5] = { 1, 2, 3, 4, 0xff };
	struct ras_tp_layout l;
	struct sample s;
	struct ras_record r;
	char why[256];
	char *j;

	(void) state;
	load(&l, RAS_TP_NON_STANDARD_EVENT, "tracefs/6.1/ras/non_standard_event.format");
	sample_init(&s, &l);
	put_bytes(&s, &l, "sec_type", type, sizeof(type));
	put(&s, &l, "sev", 3);                    /* GHES_SEV_PANIC */
	put(&s, &l, "len", sizeof(data));
	put_str(&s, &l, "fru_text", "");
	put_dyn(&s, &l, "buf", data, sizeof(data));
	decode_ok(&l, &s, &r);
	assert_int_equal(r.event, RAS_EVENT_VENDOR_SECTION);
	assert_int_equal(r.severity, RAS_SEV_FATAL);
	assert_string_equal(str(&r, "section_type"), "9876ccad-47b4-4bdb-b65e-16f193c4f3db");
	assert_null(ras_record_find(&r, "fru_id"));   /* all-zero GUID: none given */
	assert_null(ras_record_find(&r, "fru_text"));
	j = json(&r);
	assert_non_null(strstr(j, "\"data\":\"01020304ff\""));
	free(j);
	assert_string_equal(r.summary, "Fatal hardware error in a vendor section "
			    "(type 9876ccad-47b4-4bdb-b65e-16f193c4f3db, 5 bytes)");
	ras_record_done(&r);

	/* GHES_SEV_NO: the CPER section was informational; 1 is corrected, not CPER's fatal */
	put(&s, &l, "sev", 0);
	decode_ok(&l, &s, &r);
	assert_int_equal(r.severity, RAS_SEV_INFO);
	assert_string_equal(str(&r, "ghes_severity"), "none");
	ras_record_done(&r);
	put(&s, &l, "sev", 1);
	decode_ok(&l, &s, &r);
	assert_int_equal(r.severity, RAS_SEV_CORRECTED);
	ras_record_done(&r);

	put(&s, &l, "len", 4096);
	assert_int_equal(ras_tp_decode(&l, s.b, s.size, &r, why, sizeof(why)), -EBADMSG);
	assert_non_null(strstr(why, "'len'"));
}

/* ------------------------------------------------ the JSON form, read back (--replay) */

static void test_json_round_trip(void **state)
{
	struct ras_tp_layout l;
	struct sample s;
	struct ras_record r, back;
	unsigned char pei[4] = { 0, 0x20, 1, 2 };
	char why[256];
	char *a, *b;

	(void) state;
	load(&l, RAS_TP_ARM_EVENT, "tracefs/6.16/ras/arm_event.format");
	sample_init(&s, &l);
	put(&s, &l, "mpidr", 0x80000003);
	put(&s, &l, "sev", 2);                    /* GHES_SEV_RECOVERABLE */
	put(&s, &l, "cpu", 3);
	put(&s, &l, "pei_len", sizeof(pei));
	put_dyn(&s, &l, "pei_buf", pei, sizeof(pei));
	put_dyn(&s, &l, "ctx_buf", "", 0);
	put_dyn(&s, &l, "oem_buf", "", 0);
	decode_ok(&l, &s, &r);
	r.have_time = true;
	r.time_usec = 1790000000123456;
	strcpy(r.hostname, "node7");
	a = json(&r);
	assert_int_equal(ras_record_parse_json(a, strlen(a), &back, why, sizeof(why)), 0);
	b = json(&back);
	assert_string_equal(a, b);
	assert_int_equal(back.severity, RAS_SEV_UNCORRECTED);
	assert_true(back.have_cpu);
	assert_int_equal(back.cpu, 3);
	free(a);
	free(b);
	ras_record_done(&r);
	ras_record_done(&back);
}

/*
 * EDAC's address 0 means "unknown" (edac_mc_handle_error() traces
 * page_frame_number << PAGE_SHIFT | offset, both 0 when the driver could not
 * find them): no address, and the record says why it has no page.  A grain
 * wider than a page keeps the address but names no page either.
 */
static void test_mc_event_no_page(void **state)
{
	struct ras_tp_layout l;
	struct sample s;
	struct ras_record r;

	(void) state;
	load(&l, RAS_TP_MC_EVENT, "tracefs/6.1/ras/mc_event.format");
	sample_init(&s, &l);
	put(&s, &l, "error_type", 0);
	put(&s, &l, "mc_index", 0);
	put(&s, &l, "address", 0);
	put(&s, &l, "grain_bits", 6);
	put_str(&s, &l, "msg", "");
	put_str(&s, &l, "label", "");
	put_str(&s, &l, "driver_detail", "");
	decode_ok(&l, &s, &r);
	assert_null(ras_record_find(&r, "address"));
	assert_string_equal(str(&r, "no_page"), "address_unknown");
	ras_record_done(&r);

	put(&s, &l, "address", 0x40000000);
	put(&s, &l, "grain_bits", 30);
	decode_ok(&l, &s, &r);
	assert_int_equal(num(&r, "address"), 0x40000000);
	assert_string_equal(str(&r, "no_page"), "coarse_address");
	ras_record_done(&r);
}

/* Replayed registers are numbers again (review M5), and write back unchanged. */
static void test_json_registers_are_numbers(void **state)
{
	static const char line[] =
		"{\"source\":\"ras:mc_event\",\"event\":\"memory_controller\",\"severity\":\"corrected\","
		"\"mc\":0,\"address\":\"0x0000000012345000\",\"ident\":\"0x1f\",\"padded\":\"0x001f\","
		"\"label\":\"0xDIMM\"}";
	struct ras_record r;
	const struct ras_field *f;
	char why[256];
	char *again;

	(void) state;
	assert_int_equal(ras_record_parse_json(line, strlen(line), &r, why, sizeof(why)), 0);
	f = ras_record_find(&r, "address");
	assert_non_null(f);
	assert_int_equal(f->type, RAS_FIELD_HEX64);
	assert_int_equal(f->u, 0x12345000);
	f = ras_record_find(&r, "ident");
	assert_int_equal(f->type, RAS_FIELD_HEX);
	assert_int_equal(f->u, 0x1f);
	/* Not a form the writer makes: stays text, so it writes back as it came. */
	assert_int_equal(ras_record_find(&r, "padded")->type, RAS_FIELD_STRING);
	assert_int_equal(ras_record_find(&r, "label")->type, RAS_FIELD_STRING);
	again = json(&r);
	assert_non_null(strstr(again, "\"address\":\"0x0000000012345000\",\"ident\":\"0x1f\",\"padded\":\"0x001f\""));
	free(again);
	ras_record_done(&r);
}

static void test_json_rejects(void **state)
{
	static const struct { const char *json; const char *why; } bad[] = {
		{ "{\"event\":\"memory_failure\",\"severity\":\"bad\"}", "\"severity\"" },
		{ "{\"event\":\"no_such_kind\"}", "\"event\"" },
		{ "{\"event\":\"memory_failure\",\"cpu\":-1}", "\"cpu\"" },
		{ "{\"event\":\"memory_failure\",\"Pfn\":1}", "\"Pfn\"" },
		{ "{\"event\":\"memory_failure\",\"pfn\":[1]}", "\"pfn\"" },
		{ "{\"event\":\"memory_failure\",\"time\":\"yesterday\"}", "\"time\"" },
		{ "{\"event\":\"memory_failure\",\"boot_id\":\"xyz\"}", "\"boot_id\"" },
		{ "{\"event\":", "invalid JSON" },
	};
	struct ras_record r;
	char why[256];

	(void) state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		why[0] = '\0';
		assert_int_equal(ras_record_parse_json(bad[i].json, strlen(bad[i].json), &r, why, sizeof(why)),
				 -EINVAL);
		if (!strstr(why, bad[i].why))
			fail_msg("'%s': '%s' does not name %s", bad[i].json, why, bad[i].why);
	}
	/* An MCA record is not ours: the text parser takes it. */
	assert_int_equal(ras_record_parse_json("{\"cpu\":1,\"bank\":2}", 19, &r, why, sizeof(why)), -ENOMSG);
}

/* Recorded text is cleaned as the kernel's is live: no newline or escape gets through. */
static void test_json_strings_cleaned(void **state)
{
	const char *in = "{\"source\":\"ras:mc_event\",\"event\":\"memory_controller\",\"severity\":\"corrected\","
			 "\"description\":\"a\\nb\",\"label\":\"DIMM_A1\\nMCELOGD_RULE=x\\u001b[31m\\u00e9\"}";
	struct ras_record r = {};
	const struct ras_field *f;
	char why[256];

	(void) state;
	assert_int_equal(ras_record_parse_json(in, strlen(in), &r, why, sizeof(why)), 0);
	assert_string_equal(r.summary, "a?b");
	f = ras_record_find(&r, "label");
	assert_non_null(f);
	/* Control characters go; UTF-8 text (firmware's) stays. */
	assert_string_equal(f->data, "DIMM_A1?MCELOGD_RULE=x?[31m\xc3\xa9");
	ras_record_done(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_json_strings_cleaned),
		cmocka_unit_test(test_formats_6_1),
		cmocka_unit_test(test_formats_6_12_and_7_3),
		cmocka_unit_test(test_format_missing_field),
		cmocka_unit_test(test_data_loc_reader),
		cmocka_unit_test(test_signed_reader),
		cmocka_unit_test(test_memory_failure_recorded),
		cmocka_unit_test(test_memory_failure_table_matches_kernel),
		cmocka_unit_test(test_memory_failure_renumbered),
		cmocka_unit_test(test_symbols_malformed),
		cmocka_unit_test(test_mc_event),
		cmocka_unit_test(test_mc_event_hostile),
		cmocka_unit_test(test_aer_event),
		cmocka_unit_test(test_aer_event_recorded),
		cmocka_unit_test(test_aer_event_7_3),
		cmocka_unit_test(test_extlog_mem_event),
		cmocka_unit_test(test_arm_event_6_1),
		cmocka_unit_test(test_arm_event_newer),
		cmocka_unit_test(test_arm_event_golden_qemu),
		cmocka_unit_test(test_arm_event_golden_linux_7_3),
		cmocka_unit_test(test_arm_event_hostile_blocks),
		cmocka_unit_test(test_arm_event_every_field),
		cmocka_unit_test(test_non_standard_event_ampere),
		cmocka_unit_test(test_non_standard_event),
		cmocka_unit_test(test_json_round_trip),
		cmocka_unit_test(test_json_rejects),
		cmocka_unit_test(test_mc_event_no_page),
		cmocka_unit_test(test_json_registers_are_numbers),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
