/* SPDX-License-Identifier: MIT */
/*
 * The RTIT register decode (decoders/rtit.c): each IA32_RTIT_CTL flag alone,
 * each multi-bit field at 0 and at its maximum (and that its neighbours stay
 * clear), the ADDRn_CFG encodings, the output schemes, and the status bits
 * including PacketByteCnt at its 17-bit maximum.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <json-c/json.h>
#include <string.h>

#include "json-writer.h"
#include "rtit.h"

#define BIT(n) (UINT64_C(1) << (n))
#define ALL_MSRS ((1u << _RTIT_MSR_MAX) - 1)

static json_object *decode(const struct rtit_regs *r)
{
	struct json_writer w;
	json_object *o;

	json_writer_init(&w);
	json_object_begin(&w, NULL);
	rtit_decode_json(r, &w);
	json_object_end(&w);
	assert_false(json_writer_failed(&w));
	o = json_tokener_parse(json_writer_str(&w));
	assert_non_null(o);
	json_writer_done(&w);
	return o;
}

static json_object *path(json_object *o, const char *a, const char *b)
{
	json_object *x = NULL, *y = NULL;

	assert_true(json_object_object_get_ex(o, a, &x));
	if (!b)
		return x;
	assert_true(json_object_object_get_ex(x, b, &y));
	return y;
}

static bool get_bool(json_object *o, const char *a, const char *b)
{
	return json_object_get_boolean(path(o, a, b));
}

static uint64_t get_u64(json_object *o, const char *a, const char *b)
{
	return json_object_get_uint64(path(o, a, b));
}

static const char *get_str(json_object *o, const char *a, const char *b)
{
	return json_object_get_string(path(o, a, b));
}

static void test_ctl_flags_one_at_a_time(void **state)
{
	static const struct { unsigned bit; const char *group, *key; } flags[] = {
		{ 1,  "packets", "cyc" },
		{ 2,  "filters", "os" },
		{ 3,  "filters", "user" },
		{ 4,  "packets", "power_events" },
		{ 5,  "packets", "fup_on_ptw" },
		{ 7,  "filters", "cr3" },
		{ 9,  "packets", "mtc" },
		{ 10, "packets", "tsc" },
		{ 12, "packets", "ptwrite" },
		{ 13, "packets", "branch" },
	};
	(void) state;

	for (size_t i = 0; i < sizeof(flags) / sizeof(flags[0]); i++) {
		struct rtit_regs r = { .have = 1u << RTIT_CTL, .v[RTIT_CTL] = BIT(flags[i].bit) };
		json_object *o = decode(&r);

		for (size_t j = 0; j < sizeof(flags) / sizeof(flags[0]); j++)
			assert_int_equal(get_bool(o, flags[j].group, flags[j].key), i == j);
		assert_false(get_bool(o, "trace_enabled", NULL));
		/* DisRETC clear: return compression on */
		assert_true(get_bool(o, "packets", "ret_compression"));
		json_object_put(o);
	}
}

static void test_ctl_trace_en_disretc_topa_fabric(void **state)
{
	struct rtit_regs r = { .have = 1u << RTIT_CTL, .v[RTIT_CTL] = BIT(0) | BIT(11) };
	json_object *o = decode(&r);
	(void) state;

	assert_true(get_bool(o, "trace_enabled", NULL));
	assert_false(get_bool(o, "packets", "ret_compression"));
	assert_string_equal(get_str(o, "output", "scheme"), "single-range");
	json_object_put(o);

	r.v[RTIT_CTL] = BIT(8);
	o = decode(&r);
	assert_string_equal(get_str(o, "output", "scheme"), "topa");
	json_object_put(o);

	r.v[RTIT_CTL] = BIT(6) | BIT(8);
	o = decode(&r);
	assert_string_equal(get_str(o, "output", "scheme"), "trace-transport");
	json_object_put(o);
}

static void test_ctl_fields_at_boundaries(void **state)
{
	static const struct { const char *key; unsigned lo; } fields[] = {
		{ "mtc_freq", 14 }, { "cyc_thresh", 19 }, { "psb_freq", 24 },
	};
	(void) state;

	for (size_t i = 0; i < 3; i++) {
		struct rtit_regs r = { .have = 1u << RTIT_CTL, .v[RTIT_CTL] = UINT64_C(0xf) << fields[i].lo };
		json_object *o = decode(&r);

		for (size_t j = 0; j < 3; j++)
			assert_int_equal(get_u64(o, fields[j].key, NULL), i == j ? 15 : 0);
		json_object_put(o);
	}
	/* the reserved bits 18 and 23 belong to no field */
	struct rtit_regs r = { .have = 1u << RTIT_CTL, .v[RTIT_CTL] = BIT(18) | BIT(23) };
	json_object *o = decode(&r);
	for (size_t j = 0; j < 3; j++)
		assert_int_equal(get_u64(o, fields[j].key, NULL), 0);
	assert_int_equal(get_u64(o, "psb_period_bytes", NULL), 2048);
	json_object_put(o);

	r.v[RTIT_CTL] = UINT64_C(0xf) << 24;
	o = decode(&r);
	assert_int_equal(get_u64(o, "psb_period_bytes", NULL), UINT64_C(1) << 26);
	json_object_put(o);
}

static void test_addr_ranges(void **state)
{
	struct rtit_regs r = {
		.have = ALL_MSRS, .n_addr_ranges = 4,
		/* ADDR0 filter, ADDR1 trace-stop, ADDR2 unused, ADDR3 reserved encoding 0xf */
		.v[RTIT_CTL] = (UINT64_C(1) << 32) | (UINT64_C(2) << 36) | (UINT64_C(0xf) << 44),
		.v[RTIT_ADDR0_A] = 0x0000ffff81000000, .v[RTIT_ADDR0_B] = 0x0000ffff81ffffff,
		.v[RTIT_ADDR1_A] = 0x400000, .v[RTIT_ADDR1_B] = 0x401000,
	};
	json_object *o = decode(&r), *ranges = path(o, "filters", "address_ranges");
	(void) state;

	assert_int_equal(json_object_array_length(ranges), 4);
	json_object *r0 = json_object_array_get_idx(ranges, 0);
	assert_string_equal(get_str(r0, "mode", NULL), "filter");
	/* bit 47 set: sign-extended to a canonical kernel address */
	assert_string_equal(get_str(r0, "start", NULL), "0xffffffff81000000");
	assert_string_equal(get_str(r0, "end", NULL), "0xffffffff81ffffff");
	json_object *r1 = json_object_array_get_idx(ranges, 1);
	assert_string_equal(get_str(r1, "mode", NULL), "trace-stop");
	assert_string_equal(get_str(r1, "start", NULL), "0x0000000000400000");
	json_object *r2 = json_object_array_get_idx(ranges, 2);
	assert_string_equal(get_str(r2, "mode", NULL), "unused");
	assert_false(json_object_object_get_ex(r2, "start", NULL));
	json_object *r3 = json_object_array_get_idx(ranges, 3);
	assert_string_equal(get_str(r3, "mode", NULL), "reserved");
	assert_int_equal(get_u64(r3, "cfg", NULL), 15);
	json_object_put(o);

	/* a CPU with 2 ranges: ADDR2/3 are not reported */
	r.n_addr_ranges = 2;
	o = decode(&r);
	assert_int_equal(json_object_array_length(path(o, "filters", "address_ranges")), 2);
	json_object_put(o);
}

static void test_cr3_match(void **state)
{
	struct rtit_regs r = { .have = ALL_MSRS, .v[RTIT_CTL] = BIT(7), .v[RTIT_CR3_MATCH] = 0x12345fff };
	json_object *o = decode(&r);
	(void) state;

	/* bits 4:0 reserved */
	assert_string_equal(get_str(o, "filters", "cr3_match"), "0x0000000012345fe0");
	json_object_put(o);
	/* CR3Filter off: the match register is only in msrs */
	r.v[RTIT_CTL] = 0;
	o = decode(&r);
	assert_false(json_object_object_get_ex(path(o, "filters", NULL), "cr3_match", NULL));
	assert_string_equal(get_str(o, "msrs", "IA32_RTIT_CR3_MATCH"), "0x0000000012345fff");
	json_object_put(o);
}

static void test_output_single_range_and_topa(void **state)
{
	struct rtit_regs r = {
		.have = ALL_MSRS,
		.v[RTIT_OUTPUT_BASE] = 0x100000 | 0x7f,
		/* 64 KiB region: mask 0xffff; output offset 0x1234 */
		.v[RTIT_OUTPUT_MASK_PTRS] = (UINT64_C(0x1234) << 32) | 0xffff,
	};
	json_object *o = decode(&r);
	(void) state;

	assert_string_equal(get_str(o, "output", "base"), "0x0000000000100000");
	assert_int_equal(get_u64(o, "output", "region_bytes"), 65536);
	assert_int_equal(get_u64(o, "output", "output_offset"), 0x1234);
	json_object_put(o);

	/* ToPA: MaskOrTableOffset 3 = entry 3; output offset at its 32-bit max */
	r.v[RTIT_CTL] = BIT(8);
	r.v[RTIT_OUTPUT_MASK_PTRS] = (UINT64_C(0xffffffff) << 32) | (UINT64_C(3) << 7) | 0x7f;
	o = decode(&r);
	assert_string_equal(get_str(o, "output", "topa_table"), "0x0000000000100000");
	assert_int_equal(get_u64(o, "output", "topa_entry"), 3);
	assert_int_equal(get_u64(o, "output", "output_offset"), 0xffffffff);
	json_object_put(o);
}

static void test_status_bits(void **state)
{
	static const struct { unsigned bit; const char *key; } bits[] = {
		{ 0, "filter_en" }, { 1, "context_en" }, { 2, "trigger_en" }, { 4, "error" }, { 5, "stopped" },
	};
	(void) state;

	for (size_t i = 0; i < 5; i++) {
		struct rtit_regs r = { .have = 1u << RTIT_STATUS, .v[RTIT_STATUS] = BIT(bits[i].bit) | BIT(3) };
		json_object *o = decode(&r);

		for (size_t j = 0; j < 5; j++)
			assert_int_equal(get_bool(o, "status", bits[j].key), i == j);
		assert_int_equal(get_u64(o, "status", "packet_byte_count"), 0);
		/* CTL not read: said so, not guessed */
		assert_string_equal(get_str(o, "ctl", NULL), "not read");
		json_object_put(o);
	}
	/* PacketByteCnt bits 48:32 at the maximum; bit 49 and bit 31 are not part of it */
	struct rtit_regs r = { .have = 1u << RTIT_STATUS,
			       .v[RTIT_STATUS] = (UINT64_C(0x1ffff) << 32) | BIT(49) | BIT(31) };
	json_object *o = decode(&r);
	assert_int_equal(get_u64(o, "status", "packet_byte_count"), 0x1ffff);
	json_object_put(o);
}

static void test_msr_addresses(void **state)
{
	(void) state;
	assert_int_equal(rtit_msrs[RTIT_CTL].address, 0x570);
	assert_int_equal(rtit_msrs[RTIT_STATUS].address, 0x571);
	assert_int_equal(rtit_msrs[RTIT_CR3_MATCH].address, 0x572);
	assert_int_equal(rtit_msrs[RTIT_OUTPUT_BASE].address, 0x560);
	assert_int_equal(rtit_msrs[RTIT_OUTPUT_MASK_PTRS].address, 0x561);
	for (unsigned i = 0; i < 8; i++)
		assert_int_equal(rtit_msrs[RTIT_ADDR0_A + i].address, 0x580 + i);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ctl_flags_one_at_a_time),
		cmocka_unit_test(test_ctl_trace_en_disretc_topa_fabric),
		cmocka_unit_test(test_ctl_fields_at_boundaries),
		cmocka_unit_test(test_addr_ranges),
		cmocka_unit_test(test_cr3_match),
		cmocka_unit_test(test_output_single_range_and_topa),
		cmocka_unit_test(test_status_bits),
		cmocka_unit_test(test_msr_addresses),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
