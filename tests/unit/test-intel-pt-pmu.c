/* SPDX-License-Identifier: MIT */
/*
 * The intel_pt PMU from a sysfs fixture (tests/data/intel_pt/sysfs): type,
 * caps, format bits, and the perf_event_attr of the PT flight recorder;
 * format texts at their boundaries; and the perf AUX ABI (kernel-abi/perf-aux.c):
 * PERF_RECORD_AUX / ITRACE_START bodies in ring bytes, AUX flags, the
 * overwrite buffer's spans, and TSC <-> perf time.
 */
#include <errno.h>
#include <linux/perf_event.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "intel-pt-pmu.h"
#include "json-writer.h"
#include "perf-aux.h"
#include "perf-ring.h"
#include "pt-sysfs.h"

static void fixture(char *buf, size_t size)
{
	const char *src = getenv("top_srcdir");

	snprintf(buf, size, "%s/tests/data/intel_pt/sysfs", src ? src : ".");
}

static void test_sysfs_fixture(void **state)
{
	struct intel_pt_pmu p;
	char dir[512], caps[1024];
	uint64_t v;
	const struct pmu_format *f;
	(void) state;

	fixture(dir, sizeof(dir));
	assert_int_equal(intel_pt_sysfs_read(dir, &p, caps, sizeof(caps)), 0);
	assert_true(p.have_type);
	assert_int_equal(p.type, 8);
	assert_int_equal(p.n_caps, 16);
	assert_int_equal(p.n_formats, 12);
	assert_int_equal(intel_pt_pmu_cap(&p, "num_address_ranges", &v), 0);
	assert_int_equal(v, 2);
	/* caps are hexadecimal */
	assert_int_equal(intel_pt_pmu_cap(&p, "mtc_periods", &v), 0);
	assert_int_equal(v, 0x249);
	assert_int_equal(intel_pt_pmu_cap(&p, "cycle_thresholds", &v), 0);
	assert_int_equal(v, 0x3fff);
	assert_int_equal(intel_pt_pmu_cap(&p, "no_such_cap", &v), -ENOENT);
	f = intel_pt_pmu_format(&p, "psb_period");
	assert_non_null(f);
	assert_int_equal(f->config, 0);
	assert_int_equal(f->mask, 0xfULL << 24);
	f = intel_pt_pmu_format(&p, "tsc");
	assert_non_null(f);
	assert_int_equal(f->mask, 1ULL << 10);
	assert_non_null(strstr(caps, "num_address_ranges 2\n"));
	assert_non_null(strstr(caps, "mtc_periods 249\n"));

	/* no PMU there: -ENOENT, as on AMD or in a VM */
	strcat(dir, "/nonexistent");
	assert_int_equal(intel_pt_sysfs_read(dir, &p, caps, sizeof(caps)), -ENOENT);
}

static void test_attr_from_fixture(void **state)
{
	struct intel_pt_pmu p;
	struct perf_event_attr attr;
	char dir[512];
	const char *missing = "x";
	(void) state;

	fixture(dir, sizeof(dir));
	assert_int_equal(intel_pt_sysfs_read(dir, &p, NULL, 0), 0);
	assert_int_equal(intel_pt_build_attr(&p, 3, &attr, &missing), 0);
	assert_null(missing);
	assert_int_equal(attr.type, 8);
	assert_int_equal(attr.size, sizeof(attr));
	/* pt (0), tsc (10), branch (13), psb_period 3 at 27:24 */
	assert_int_equal(attr.config, (1ULL << 0) | (1ULL << 10) | (1ULL << 13) | (3ULL << 24));
	assert_int_equal(attr.config1, 0);
	/* psb_period 16 needs 5 bits: refused */
	assert_int_equal(intel_pt_build_attr(&p, 16, &attr, &missing), -ERANGE);

	/* without the psb_cyc cap the period is left to the kernel */
	for (size_t i = 0; i < p.n_caps; i++)
		if (strcmp(p.caps[i].name, "psb_cyc") == 0)
			p.caps[i].value = 0;
	assert_int_equal(intel_pt_build_attr(&p, 3, &attr, &missing), 0);
	assert_int_equal(attr.config, (1ULL << 0) | (1ULL << 10) | (1ULL << 13));

	/* a kernel without the branch format: named */
	for (size_t i = 0; i < p.n_formats; i++)
		if (strcmp(p.formats[i].name, "branch") == 0)
			strcpy(p.formats[i].name, "gone");
	assert_int_equal(intel_pt_build_attr(&p, 3, &attr, &missing), -ENOENT);
	assert_string_equal(missing, "branch");
	p.have_type = false;
	assert_int_equal(intel_pt_build_attr(&p, 3, &attr, &missing), -ENOENT);
	assert_string_equal(missing, "type");
}

static void test_format_texts(void **state)
{
	struct pmu_format f;
	uint64_t config[3] = {};
	(void) state;

	assert_int_equal(pmu_format_parse("a", "config:0\n", &f), 0);
	assert_int_equal(f.mask, 1);
	assert_int_equal(pmu_format_parse("a", "config:63", &f), 0);
	assert_int_equal(f.mask, 1ULL << 63);
	assert_int_equal(pmu_format_parse("a", "config:0-63", &f), 0);
	assert_int_equal(f.mask, UINT64_MAX);
	assert_int_equal(pmu_format_parse("a", "config2:1-3,8", &f), 0);
	assert_int_equal(f.config, 2);
	assert_int_equal(f.mask, 0x10eULL);
	/* split field: value bits go low to high through the mask */
	assert_int_equal(pmu_format_put(&f, 0xf, config), 0);
	assert_int_equal(config[2], 0x10eULL);
	assert_int_equal(pmu_format_put(&f, 0x5, config), 0);
	assert_int_equal(config[2], 0x00aULL);
	assert_int_equal(pmu_format_put(&f, 0x10, config), -ERANGE);
	assert_int_equal(pmu_format_parse("a", "config1:7", &f), 0);
	assert_int_equal(f.config, 1);

	static const char *const bad[] = {
		"config:64", "config:", "config:3-1", "config:1-", "config:1,", "config3:1",
		"confi:1", "config:1x", "config:1\n\n", "", "config:-1", "config:99999999999",
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		assert_int_equal(pmu_format_parse("a", bad[i], &f), -EINVAL);
	assert_int_equal(pmu_format_parse("", "config:1", &f), -EINVAL);
	assert_int_equal(pmu_format_parse("a_name_that_is_far_too_long_for_us", "config:1", &f), -EINVAL);
}

static void test_caps_and_type_texts(void **state)
{
	struct intel_pt_pmu p = {};
	(void) state;

	assert_int_equal(intel_pt_pmu_set_type(&p, "4294967295\n"), 0);
	assert_int_equal(p.type, UINT32_MAX);
	assert_int_equal(intel_pt_pmu_set_type(&p, "4294967296"), -EINVAL);
	assert_int_equal(intel_pt_pmu_set_type(&p, "-1"), -EINVAL);
	assert_int_equal(intel_pt_pmu_set_type(&p, "8 "), -EINVAL);
	assert_int_equal(intel_pt_pmu_add_cap(&p, "x", "ffffffffffffffff\n"), 0);
	assert_int_equal(p.caps[0].value, UINT64_MAX);
	assert_int_equal(intel_pt_pmu_add_cap(&p, "x", "10000000000000000"), -EINVAL);
	assert_int_equal(intel_pt_pmu_add_cap(&p, "tsc_art_ratio", "2:100"), -EINVAL);
	for (int i = 1; i < PMU_CAPS_MAX; i++)
		assert_int_equal(intel_pt_pmu_add_cap(&p, "y", "1"), 0);
	assert_int_equal(intel_pt_pmu_add_cap(&p, "z", "1"), -E2BIG);
}

/* ---- perf AUX ---- */

static void test_aux_records_in_ring(void **state)
{
	/* A ring of 64 bytes: a PERF_RECORD_ITRACE_START then a PERF_RECORD_AUX that wraps. */
	unsigned char ring[64] = {}, scratch[PERF_RING_RECORD_MAX], rec[40];
	struct perf_event_header h;
	uint64_t head, tail = 24, aux[3] = { 0x10000, 0x2000, PERF_AUX_FLAG_OVERWRITE | PERF_AUX_FLAG_TRUNCATED };
	uint32_t pid_tid[2] = { 1234, 1235 }, pid, tid;
	struct perf_ring_record r;
	struct perf_aux_record a;
	(void) state;

	head = tail;
	h = (struct perf_event_header) { .type = PERF_RECORD_ITRACE_START, .size = 16 };
	memcpy(rec, &h, 8);
	memcpy(rec + 8, pid_tid, 8);
	for (int i = 0; i < 16; i++, head++)
		ring[head % 64] = rec[i];
	h = (struct perf_event_header) { .type = PERF_RECORD_AUX, .size = 32 };
	memcpy(rec, &h, 8);
	memcpy(rec + 8, aux, 24);
	for (int i = 0; i < 32; i++, head++)
		ring[head % 64] = rec[i];

	assert_int_equal(perf_ring_next(ring, 64, head, &tail, scratch, &r), 1);
	assert_int_equal(r.type, PERF_RECORD_ITRACE_START);
	assert_int_equal(perf_itrace_start_parse(r.body, r.body_size, &pid, &tid), 0);
	assert_int_equal(pid, 1234);
	assert_int_equal(tid, 1235);
	assert_int_equal(perf_ring_next(ring, 64, head, &tail, scratch, &r), 1);
	assert_int_equal(r.type, PERF_RECORD_AUX);
	assert_int_equal(perf_aux_parse(r.body, r.body_size, &a), 0);
	assert_int_equal(a.aux_offset, 0x10000);
	assert_int_equal(a.aux_size, 0x2000);
	assert_int_equal(a.flags, PERF_AUX_FLAG_OVERWRITE | PERF_AUX_FLAG_TRUNCATED);
	/* short bodies */
	assert_int_equal(perf_aux_parse(r.body, 23, &a), -EBADMSG);
	assert_int_equal(perf_itrace_start_parse(r.body, 7, &pid, &tid), -EBADMSG);
}

static void test_aux_flags_json(void **state)
{
	struct json_writer w;
	(void) state;

	json_writer_init(&w);
	json_object_begin(&w, NULL);
	perf_aux_flags_json(&w, "a", PERF_AUX_FLAG_TRUNCATED | PERF_AUX_FLAG_OVERWRITE |
			    PERF_AUX_FLAG_PARTIAL | PERF_AUX_FLAG_COLLISION);
	/* the PMU format type (bits 15:8) is no flag; an unknown bit is shown in hex */
	perf_aux_flags_json(&w, "b", 0x0100 | 0x10000);
	perf_aux_flags_json(&w, "c", 0);
	json_object_end(&w);
	assert_string_equal(json_writer_str(&w),
			    "{\"a\":[\"truncated\",\"overwrite\",\"partial\",\"collision\"],\"b\":[\"0x10000\"],\"c\":[]}");
	json_writer_done(&w);
}

static void test_snapshot_spans(void **state)
{
	struct perf_aux_span s[2];
	(void) state;

	assert_int_equal(perf_aux_snapshot_spans(0, 4096, false, s), 0);
	assert_int_equal(perf_aux_snapshot_spans(100, 0, false, s), 0);
	/* not wrapped */
	assert_int_equal(perf_aux_snapshot_spans(100, 4096, false, s), 1);
	assert_int_equal(s[0].offset, 0);
	assert_int_equal(s[0].len, 100);
	assert_int_equal(perf_aux_snapshot_spans(4095, 4096, false, s), 1);
	assert_int_equal(s[0].len, 4095);
	/* a running count exactly full, and full after laps: the whole buffer from 0 */
	assert_int_equal(perf_aux_snapshot_spans(4096, 4096, false, s), 1);
	assert_int_equal(s[0].offset, 0);
	assert_int_equal(s[0].len, 4096);
	assert_int_equal(perf_aux_snapshot_spans(3 * 4096, 4096, false, s), 1);
	/* a running count past the end: oldest at head % size, then from 0 up to it */
	assert_int_equal(perf_aux_snapshot_spans(4096 + 100, 4096, false, s), 2);
	assert_int_equal(s[0].offset, 100);
	assert_int_equal(s[0].len, 3996);
	assert_int_equal(s[1].offset, 0);
	assert_int_equal(s[1].len, 100);
	/* a position (intel_pt) with the wrap seen: the same two spans */
	assert_int_equal(perf_aux_snapshot_spans(100, 4096, true, s), 2);
	assert_int_equal(s[0].offset, 100);
	assert_int_equal(s[0].len, 3996);
	assert_int_equal(s[1].offset, 0);
	assert_int_equal(s[1].len, 100);
	/* position 0 after a wrap: the whole buffer */
	assert_int_equal(perf_aux_snapshot_spans(0, 4096, true, s), 1);
	assert_int_equal(s[0].len, 4096);
}

static void test_time_conversion(void **state)
{
	struct perf_event_mmap_page pg = { .time_zero = 1000, .time_mult = 3 << 20, .time_shift = 21,
					   .cap_user_time_zero = 1 };
	struct perf_time_conv c = perf_time_conv_from_page(&pg);
	(void) state;

	assert_true(c.valid);
	/* time = 1000 + tsc * 1.5 */
	assert_int_equal(perf_tsc_to_time(&c, 0), 1000);
	assert_int_equal(perf_tsc_to_time(&c, 2), 1003);
	assert_int_equal(perf_tsc_to_time(&c, 1000000), 1501000);
	/* a TSC near 2^64 does not overflow the multiply */
	assert_int_equal(perf_tsc_to_time(&c, UINT64_C(1) << 62), 1000 + (UINT64_C(3) << 61));
	/* and back, exact where the ratio allows */
	assert_int_equal(perf_time_to_tsc(&c, 1501000), 1000000);
	/* the round trip loses at most the one TSC tick the time's floor dropped */
	for (uint64_t t = 0; t < 100000; t += 997) {
		int64_t d = (int64_t) (perf_time_to_tsc(&c, perf_tsc_to_time(&c, t)) - t);
		assert_true(d >= -1 && d <= 0);
	}
	/* a real-looking conversion: 2.1 GHz TSC, shift 31 */
	struct perf_time_conv r = { .time_zero = 0, .time_mult = 1022611260, .time_shift = 31, .valid = true };
	uint64_t tsc = UINT64_C(2100000000) * 3600 * 24 * 30;   /* a month of uptime */
	uint64_t ns = perf_tsc_to_time(&r, tsc);
	assert_true(ns > UINT64_C(2591000) * 1000000000 && ns < UINT64_C(2593000) * 1000000000);
	assert_true(perf_time_to_tsc(&r, ns) <= tsc && tsc - perf_time_to_tsc(&r, ns) < 4);

	/* without cap_user_time_zero the page's values mean nothing */
	pg.cap_user_time_zero = 0;
	assert_false(perf_time_conv_from_page(&pg).valid);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sysfs_fixture),
		cmocka_unit_test(test_attr_from_fixture),
		cmocka_unit_test(test_format_texts),
		cmocka_unit_test(test_caps_and_type_texts),
		cmocka_unit_test(test_aux_records_in_ring),
		cmocka_unit_test(test_aux_flags_json),
		cmocka_unit_test(test_snapshot_spans),
		cmocka_unit_test(test_time_conversion),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
