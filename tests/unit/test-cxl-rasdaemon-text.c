/* SPDX-License-Identifier: MIT */
/*
 * lib/cxl-rasdaemon-text.c: rasdaemon's log lines for the kernel's cxl:*
 * events → the records the daemon logs.  The lines are real, and pairs:
 * rasdaemon 0.8.3-1 (Debian 13, rasdaemon -f -r) and the kernel (Linux
 * 7.3.4+deb13-amd64, a tracefs instance of the rig's own) each printed one
 * for the same event, in the VM rig's Debian 13 guest
 * (tests/vm/trixie/69-cxl-rasdaemon.sh, 2026-11-28), for events QEMU
 * 10.0.2's cxl-type3 device reported (the region's line from a second run).  So each rasdaemon line must give the
 * record lib/cxl-trace-text.c gives for the kernel's line, but for what
 * rasdaemon does not print (each test names those).  The rasdaemon lines are
 * tests/data/decode/rasdaemon-cxl.txt's.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "cxl-rasdaemon-text.h"
#include "cxl-trace-text.h"
#include "ras-record.h"

static const char ras_general_media[] =
	"           <...>-284   [001] .....     0.000006 cxl_general_media 2026-11-28 07:02:23 +0000 memdev:m"
	"em0 host:0000:0d:00.0 serial:0x0 log type:Informational hdr_uuid:fbcd0a77-c260-417f-85a9-088b1621eba"
	"6 hdr_handle:0x1 hdr_related_handle:0x0 hdr_timestamp:2026-11-28 07:02:23 +0000 hdr_length:128 hdr_m"
	"aint_op_class:0 hdr_maint_op_sub_class:0 dpa:0x1000 dpa_flags:descriptor:'UNCORRECTABLE EVENT' 'THRE"
	"SHOLD EVENT' memory_event_type:TE State Violation memory_event_sub_type:Not Reported transaction_typ"
	"e:Host Read hpa:0xffffffffffffffff region: region_uuid:00000000-0000-0000-0000-000000000000 channel:"
	"3 rank:1 device:5 comp_id:69 72 61 73 20 6d 65 6d 00 00 00 00 00 00 00 00 Advanced Programmable CME "
	"threshold Event Flags:Corrected Memory Error Count:0";

static const char kernel_general_media[] =
	"irq/27-0000:0d:-284     [001] .....    56.685047: cxl_general_media: memdev=mem0 host=0000:0d:00.0 s"
	"erial=0 log=Informational : time=1795849343592939613 uuid=fbcd0a77-c260-417f-85a9-088b1621eba6 len=1"
	"28 flags='0x1' handle=1 related_handle=0 maint_op_class=0 maint_op_sub_class=0 ld_id=0 head_id=0 : d"
	"pa=1000 dpa_flags='' descriptor='UNCORRECTABLE_EVENT|THRESHOLD_EVENT' type='TE State Violation' sub_"
	"type='Not Reported' transaction_type='Host Read' channel=3 rank=1 device=5 validity_flags='CHANNEL|R"
	"ANK|DEVICE|COMPONENT' comp_id=69 72 61 73 20 6d 65 6d 00 00 00 00 00 00 00 00 comp_id_pldm_valid_fla"
	"gs='PLDM Entity ID | 0x68' pldm_entity_id=0x00 pldm_resource_id=0x00 hpa=ffffffffffffffff hpa_alias0"
	"=ffffffffffffffff region= region_uuid=00000000-0000-0000-0000-000000000000 cme_threshold_ev_flags=''"
	" cme_count=0";

static const char ras_dram[] =
	"           <...>-285   [000] .....     0.000007 cxl_dram 2026-11-28 07:02:32 +0000 memdev:mem0 host:"
	"0000:0d:00.0 serial:0x0 log type:Warning hdr_uuid:601dcbb3-9c06-4eab-b8af-4e9bfb5c9624 hdr_handle:0x"
	"1 hdr_related_handle:0x0 hdr_timestamp:2026-11-28 07:02:32 +0000 hdr_length:128 hdr_maint_op_class:0"
	" hdr_maint_op_sub_class:0 dpa:0x2000 hpa:0xffffffffffffffff dpa_flags:descriptor:memory_event_type:M"
	"edia ECC Error memory_event_sub_type:Not Reported transaction_type:Host Write hpa:0xffffffffffffffff"
	" region: region_uuid:00000000-0000-0000-0000-000000000000 channel:2 rank:0 nibble_mask:33 bank_group"
	":1 bank:3 row:1234 column:56 correction_mask:01 00 00 00 00 00 00 00 02 00 00 00 00 00 00 00 03 00 0"
	"0 00 00 00 00 00 04 00 00 00 00 00 00 00 Advanced Programmable CME threshold Event Flags:CVME Count:"
	"0";

static const char kernel_dram[] =
	"irq/28-0000:0d:-285     [000] .....    65.545174: cxl_dram: memdev=mem0 host=0000:0d:00.0 serial=0 l"
	"og=Warning : time=1795849352463621965 uuid=601dcbb3-9c06-4eab-b8af-4e9bfb5c9624 len=128 flags='0x1' "
	"handle=1 related_handle=0 maint_op_class=0 maint_op_sub_class=0 ld_id=0 head_id=0 : dpa=2000 dpa_fla"
	"gs='' descriptor='' type='ECC Error' sub_type='Not Reported' transaction_type='Host Write' channel=2"
	" rank=0 nibble_mask=21 bank_group=1 bank=3 row=1234 column=56 cor_mask=01 00 00 00 00 00 00 00 02 00"
	" 00 00 00 00 00 00 03 00 00 00 00 00 00 00 04 00 00 00 00 00 00 00 validity_flags='CHANNEL|RANK|NIBB"
	"LE|BANK GROUP|BANK|ROW|COLUMN|CORRECTION MASK' comp_id=00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 "
	"00 comp_id_pldm_valid_flags='' pldm_entity_id=0x00 pldm_resource_id=0x00 hpa=ffffffffffffffff hpa_al"
	"ias0=ffffffffffffffff region= region_uuid=00000000-0000-0000-0000-000000000000 sub_channel=0 cme_thr"
	"eshold_ev_flags='' cvme_count=0";

static const char ras_memory_module[] =
	"           <...>-286   [001] .....     0.000007 cxl_memory_module 2026-11-28 07:02:41 +0000 memdev:m"
	"em0 host:0000:0d:00.0 serial:0x0 log type:Failure hdr_uuid:fe927475-dd59-4339-a586-79bab113b774 hdr_"
	"handle:0x1 hdr_related_handle:0x0 hdr_timestamp:2026-11-28 07:02:41 +0000 hdr_length:128 hdr_maint_o"
	"p_class:0 hdr_maint_op_sub_class:0 event_type:Life Used Change event_sub_type:Not Reported health_st"
	"atus:'MAINTENANCE_NEEDED' 'PERFORMANCE_DEGRADED' media_status:All Data Loss in Event of Power Loss a"
	"s_life_used:Warning as_dev_temp:Normal as_cor_vol_err_cnt:Normal as_cor_per_err_cnt:Warning life_use"
	"d:30 device_temp:4294967281 dirty_shutdown_cnt:4 cor_vol_err_cnt:5 cor_per_err_cnt:6";

static const char kernel_memory_module[] =
	"irq/29-0000:0d:-286     [001] .....    74.583259: cxl_memory_module: memdev=mem0 host=0000:0d:00.0 s"
	"erial=0 log=Failure : time=1795849361496319347 uuid=fe927475-dd59-4339-a586-79bab113b774 len=128 fla"
	"gs='0x1' handle=1 related_handle=0 maint_op_class=0 maint_op_sub_class=0 ld_id=0 head_id=0 : event_t"
	"ype='Life Used Change' event_sub_type='Not Reported' health_status='MAINTENANCE_NEEDED|PERFORMANCE_D"
	"EGRADED' media_status='All Data Loss in Event of Power Loss' as_life_used=Warning as_dev_temp=Normal"
	" as_cor_vol_err_cnt=Normal as_cor_per_err_cnt=Warning life_used=30 device_temp=-15 dirty_shutdown_cn"
	"t=4 cor_vol_err_cnt=5 cor_per_err_cnt=6 validity_flags='' comp_id=00 00 00 00 00 00 00 00 00 00 00 0"
	"0 00 00 00 00 comp_id_pldm_valid_flags='' pldm_entity_id=0x00 pldm_resource_id=0x00";

static const char ras_poison[] =
	"           <...>-525   [001] .....     0.000008 cxl_poison 2026-11-28 07:02:51 +0000 memdev:mem0 hos"
	"t:0000:0d:00.0 serial:0x0 trace_type:List region: region_uuid: poison list: hpa:0xffffffffffffffff d"
	"pa:0x800 dpa_length:0x100 source:Internal flags:0 overflow timestamp:1970-01-01 00:00:00 +0000";

static const char kernel_poison[] =
	"bash-525     [001] .....    84.889159: cxl_poison: memdev=mem0 host=0000:0d:00.0 serial=0 trace_type"
	"=List region= region_uuid=00000000-0000-0000-0000-000000000000 hpa=0xffffffffffffffff hpa_alias0=0xf"
	"fffffffffffffff dpa=0x800 dpa_length=0x100 source=Internal flags= overflow_time=0";

/* In a second run, once a ram region (region0) maps the device: a DRAM event with its HPA. */
static const char ras_dram_in_region[] =
	"           <...>-285   [000] .....     0.000011 cxl_dram 2026-11-28 07:17:50 +0000 memdev:mem0 host:"
	"0000:0d:00.0 serial:0x0 log type:Warning hdr_uuid:601dcbb3-9c06-4eab-b8af-4e9bfb5c9624 hdr_handle:0x"
	"2 hdr_related_handle:0x0 hdr_timestamp:2026-11-28 07:17:50 +0000 hdr_length:128 hdr_maint_op_class:0"
	" hdr_maint_op_sub_class:0 dpa:0x8000040 hpa:0x298000040 dpa_flags:descriptor:memory_event_type:Media"
	" ECC Error memory_event_sub_type:Not Reported transaction_type:Host Read hpa:0x298000040 region:regi"
	"on0 region_uuid:00000000-0000-0000-0000-000000000000 channel:1 rank:0 nibble_mask:3 bank_group:2 ban"
	"k:1 row:77 column:8 Advanced Programmable CME threshold Event Flags:CVME Count:0";
static const char kernel_dram_in_region[] =
	"irq/28-0000:0d:-285     [000] .....   110.600032: cxl_dram: memdev=mem0 host=0000:0d:00.0 serial=0 l"
	"og=Warning : time=1795850270738918435 uuid=601dcbb3-9c06-4eab-b8af-4e9bfb5c9624 len=128 flags='0x1' "
	"handle=2 related_handle=0 maint_op_class=0 maint_op_sub_class=0 ld_id=0 head_id=0 : dpa=8000040 dpa_"
	"flags='' descriptor='' type='ECC Error' sub_type='Not Reported' transaction_type='Host Read' channel"
	"=1 rank=0 nibble_mask=3 bank_group=2 bank=1 row=77 column=8 cor_mask=00 00 00 00 00 00 00 00 00 00 0"
	"0 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 validity_flags='CHANNEL|RANK|NIBBLE"
	"|BANK GROUP|BANK|ROW|COLUMN' comp_id=00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 comp_id_pldm_va"
	"lid_flags='' pldm_entity_id=0x00 pldm_resource_id=0x00 hpa=298000040 hpa_alias0=ffffffffffffffff reg"
	"ion=region0 region_uuid=00000000-0000-0000-0000-000000000000 sub_channel=0 cme_threshold_ev_flags=''"
	" cvme_count=0";

static void parse_ras(const char *line, struct ras_record *r)
{
	char why[256] = "unset";

	assert_int_equal(cxl_rasdaemon_text_parse(line, strlen(line), r, why, sizeof(why)), 0);
}

/* A field as text, whatever its type, for comparing two records. */
static void field_text(const struct ras_field *f, char *buf, size_t size)
{
	switch (f->type) {
	case RAS_FIELD_STRING:
		snprintf(buf, size, "%s", f->data);
		break;
	case RAS_FIELD_INT:
		snprintf(buf, size, "%lld", (long long) f->i);
		break;
	default:
		snprintf(buf, size, "%d:%llu", (int) f->type, (unsigned long long) f->u);
		break;
	}
}

static bool listed(const char *key, const char *const *keys)
{
	for (; *keys; keys++)
		if (strcmp(key, *keys) == 0)
			return true;
	return false;
}

/*
 * RAS (rasdaemon's line) and KERNEL (the kernel's, same event) give the same
 * event, source, severity and fields, type and value, but for the keys in
 * DIFFER (NULL-terminated): those must differ, so that the list stays true.
 */
static void same_record(const char *ras, const char *kernel, const char *const *differ)
{
	struct ras_record a, b;
	const char *why = NULL;
	char x[256], y[256];

	parse_ras(ras, &a);
	assert_int_equal(cxl_trace_text_parse(kernel, strlen(kernel), &b, &why), 0);
	assert_int_equal(a.event, b.event);
	assert_int_equal(a.source, b.source);
	assert_int_equal(a.severity, b.severity);
	for (unsigned i = 0; i < b.n_fields; i++) {
		const struct ras_field *k = &b.fields[i], *r = ras_record_find(&a, k->key);

		if (listed(k->key, differ)) {
			if (r) {
				field_text(r, x, sizeof(x));
				field_text(k, y, sizeof(y));
				assert_string_not_equal(x, y);
			}
			continue;
		}
		if (!r)
			fail_msg("%s: the kernel's line has %s, rasdaemon's record has not", b.summary, k->key);
		assert_int_equal(r->type, k->type);
		field_text(r, x, sizeof(x));
		field_text(k, y, sizeof(y));
		if (strcmp(x, y) != 0)
			fail_msg("%s: %s is '%s' from rasdaemon's line, '%s' from the kernel's", b.summary, k->key, x, y);
	}
	/* and rasdaemon's line gives nothing the kernel's does not */
	for (unsigned i = 0; i < a.n_fields; i++)
		if (!ras_record_find(&b, a.fields[i].key))
			fail_msg("rasdaemon's record has %s, the kernel's line has not", a.fields[i].key);
	if (!listed("type", differ))
		assert_string_equal(a.summary, b.summary);
	ras_record_done(&a);
	ras_record_done(&b);
}

/*
 * What rasdaemon prints differently from the kernel, whatever the event: the
 * device's timestamp as a local date to the second (the kernel: ns), and the
 * header flags by name only from bit 2 up (QEMU sets bit 0, which rasdaemon
 * does not print).
 */
#define HEADER_DIFFERS "device_time", "record_flags"

static void test_general_media(void **state)
{
	static const char *const differ[] = { HEADER_DIFFERS, NULL };
	struct ras_record r;

	(void) state;
	same_record(ras_general_media, kernel_general_media, differ);
	parse_ras(ras_general_media, &r);
	assert_int_equal(r.severity, RAS_SEV_UNCORRECTED);
	/* "dpa_flags:descriptor:'UNCORRECTABLE EVENT' 'THRESHOLD EVENT' ": an empty
	 * value runs into the next label, the quoted names become the kernel's */
	assert_non_null(ras_record_find(&r, "descriptor"));
	assert_string_equal(ras_record_find(&r, "descriptor")->data, "UNCORRECTABLE_EVENT|THRESHOLD_EVENT");
	assert_null(ras_record_find(&r, "dpa_flags"));
	assert_string_equal(ras_record_find(&r, "type")->data, "TE State Violation");
	assert_int_equal(ras_record_find(&r, "channel")->u, 3);
	assert_int_equal(ras_record_find(&r, "media_device")->u, 5);
	/* hpa:0xffffffffffffffff: no region */
	assert_string_equal(ras_record_find(&r, "no_page")->data, "not_in_region");
	assert_string_equal(r.summary, "Uncorrected CXL media error on mem0 at DPA 0x1000: TE State Violation");
	ras_record_done(&r);
}

static void test_dram(void **state)
{
	/* rasdaemon names memory event type 0 of a DRAM event "Media ECC Error", the kernel "ECC Error" */
	static const char *const differ[] = { HEADER_DIFFERS, "type", NULL };
	struct ras_record r;

	(void) state;
	same_record(ras_dram, kernel_dram, differ);
	parse_ras(ras_dram, &r);
	assert_int_equal(r.severity, RAS_SEV_CORRECTED);
	/* nibble_mask:33 (decimal) is the kernel's nibble_mask=21 (hex) */
	assert_int_equal(ras_record_find(&r, "nibble_mask")->u, 0x21);
	assert_int_equal(ras_record_find(&r, "bank_group")->u, 1);
	assert_int_equal(ras_record_find(&r, "bank")->u, 3);
	assert_int_equal(ras_record_find(&r, "row")->u, 1234);
	assert_int_equal(ras_record_find(&r, "column")->u, 56);
	assert_string_equal(ras_record_find(&r, "type")->data, "Media ECC Error");
	ras_record_done(&r);
}

static void test_dram_in_region(void **state)
{
	static const char *const differ[] = { HEADER_DIFFERS, "type", NULL };
	struct ras_record r;

	(void) state;
	same_record(ras_dram_in_region, kernel_dram_in_region, differ);
	parse_ras(ras_dram_in_region, &r);
	/* hpa:0x298000040 (printed twice), region:region0: a page for the page rules */
	assert_int_equal(ras_record_find(&r, "hpa")->u, 0x298000040);
	assert_string_equal(ras_record_find(&r, "region")->data, "region0");
	assert_null(ras_record_find(&r, "no_page"));
	ras_record_done(&r);
}

static void test_memory_module(void **state)
{
	static const char *const differ[] = { HEADER_DIFFERS, NULL };
	struct ras_record r;
	const struct ras_field *t;

	(void) state;
	same_record(ras_memory_module, kernel_memory_module, differ);
	parse_ras(ras_memory_module, &r);
	/* device_temp:4294967281: the s16 -15, sign-extended and printed unsigned */
	t = ras_record_find(&r, "temperature");
	assert_non_null(t);
	assert_int_equal(t->type, RAS_FIELD_INT);
	assert_int_equal(t->i, -15);
	assert_string_equal(ras_record_find(&r, "health_status")->data, "MAINTENANCE_NEEDED|PERFORMANCE_DEGRADED");
	ras_record_done(&r);
}

static void test_poison(void **state)
{
	/* overflow timestamp: rasdaemon prints a date (1970-01-01 for none) */
	static const char *const differ[] = { "overflow_time", NULL };
	struct ras_record r;

	(void) state;
	same_record(ras_poison, kernel_poison, differ);
	parse_ras(ras_poison, &r);
	assert_string_equal(r.summary, "CXL poison (list) on mem0 at DPA 0x800, 0x100 bytes");
	/* "region: region_uuid: poison list: hpa:0x...": no text is taken for a region */
	assert_null(ras_record_find(&r, "region"));
	assert_null(ras_record_find(&r, "region_uuid"));
	ras_record_done(&r);
}

/* -15 °C in each unsigned form an s16 takes: 16 bits, or sign-extended to 32 (0.8.3) or 64 */
static void test_temperature_forms(void **state)
{
	static const char *const forms[] = { "65521", "4294967281", "18446744073709551601", NULL };
	char line[160], why[256];
	struct ras_record r;

	(void) state;
	for (const char *const *f = forms; *f; f++) {
		snprintf(line, sizeof(line), "cxl_memory_module memdev:mem0 log type:Failure device_temp:%s life_used:30", *f);
		assert_int_equal(cxl_rasdaemon_text_parse(line, strlen(line), &r, why, sizeof(why)), 0);
		assert_int_equal(ras_record_find(&r, "temperature")->i, -15);
		ras_record_done(&r);
	}
	snprintf(line, sizeof(line), "cxl_memory_module memdev:mem0 log type:Failure device_temp:45");
	assert_int_equal(cxl_rasdaemon_text_parse(line, strlen(line), &r, why, sizeof(why)), 0);
	assert_int_equal(ras_record_find(&r, "temperature")->i, 45);
	ras_record_done(&r);
}

/* Not rasdaemon's, or rasdaemon's and not readable: said, naming the field, and nothing made up. */
static void test_other_and_bad_lines(void **state)
{
	struct ras_record r;
	char why[256];
	static const char mce[] = "mce_record: 2023-11-20 10:00:00 +0000 bank=17, status= 9c2040000000011b";
	static const char bad_row[] = "x cxl_dram 2026-11-28 07:02:32 +0000 memdev:mem0 host:h serial:0x0 row:x7 column:56";
	static const char bad_serial[] = "cxl_poison: memdev:mem0 host:h serial:zz trace_type:List dpa:0x800";
	static const char bad_temp[] = "cxl_memory_module memdev:mem0 log type:Failure device_temp:70000";

	(void) state;
	assert_int_equal(cxl_rasdaemon_text_parse(mce, strlen(mce), &r, why, sizeof(why)), -ENOENT);
	/* the kernel's own line is not rasdaemon's (memdev=, not memdev:) */
	assert_int_equal(cxl_rasdaemon_text_parse(kernel_dram, strlen(kernel_dram), &r, why, sizeof(why)), -ENOENT);
	assert_int_equal(cxl_rasdaemon_text_parse(bad_row, strlen(bad_row), &r, why, sizeof(why)), -EINVAL);
	assert_string_equal(why, "cxl_dram: row 'x7': a decimal field does not read as a number");
	assert_int_equal(cxl_rasdaemon_text_parse(bad_serial, strlen(bad_serial), &r, why, sizeof(why)), -EINVAL);
	assert_string_equal(why, "cxl_poison: serial 'zz': not a hex number");
	assert_int_equal(cxl_rasdaemon_text_parse(bad_temp, strlen(bad_temp), &r, why, sizeof(why)), -EINVAL);
	assert_string_equal(why, "cxl_memory_module: device_temp '70000': not a 16-bit signed number");
}

/* A hostile log's control bytes reach no terminal, in a field or a message (review M13). */
static void test_control_bytes(void **state)
{
	static const char line[] =
		"x cxl_dram 2026-11-28 07:02:32 +0000 memdev:m\x1b]0;pwn\x07" "em0 host:h\x7f serial:0x0 "
		"memory_event_type:ECC\x0d Error row:12";
	static const char bad_row[] = "x cxl_dram 2026-11-28 07:02:32 +0000 memdev:mem0 row:\x1b[2J7";
	struct ras_record r;
	char why[256];

	(void) state;
	assert_int_equal(cxl_rasdaemon_text_parse(line, strlen(line), &r, why, sizeof(why)), 0);
	assert_string_equal(ras_record_find(&r, "memdev")->data, "m?]0;pwn?em0");
	assert_string_equal(ras_record_find(&r, "host")->data, "h?");
	assert_string_equal(ras_record_find(&r, "type")->data, "ECC? Error");
	ras_record_done(&r);
	assert_int_equal(cxl_rasdaemon_text_parse(bad_row, strlen(bad_row), &r, why, sizeof(why)), -EINVAL);
	assert_string_equal(why, "cxl_dram: row '?[2J7': a decimal field does not read as a number");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_general_media),
		cmocka_unit_test(test_dram),
		cmocka_unit_test(test_dram_in_region),
		cmocka_unit_test(test_memory_module),
		cmocka_unit_test(test_poison),
		cmocka_unit_test(test_temperature_forms),
		cmocka_unit_test(test_other_and_bad_lines),
		cmocka_unit_test(test_control_bytes),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
