/* SPDX-License-Identifier: MIT */
/* rules/rule-field and rule-engine: the fields rules see, matching, keys, and firings. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "decode.h"
#include "edac-detail.h"
#include "macro.h"
#include "ras-record.h"
#include "record.h"
#include "rule-engine.h"

#define SEC UINT64_C(1000000)
#define HOUR (3600 * SEC)
#define T0 (UINT64_C(1795168800) * SEC)

/* IA32_MCi_STATUS bits, SDM Vol. 3B 16.3.2.2. */
#define VAL   (UINT64_C(1) << 63)
#define UC    (UINT64_C(1) << 61)
#define EN    (UINT64_C(1) << 60)
#define MISCV (UINT64_C(1) << 59)
#define ADDRV (UINT64_C(1) << 58)
#define PCC   (UINT64_C(1) << 57)
/* MCACOD 0000 0000 1MMM CCCC: memory controller, MMM=001 read, CCCC channel (SDM 16.9.2). */
#define MC_READ(ch) (0x0090 | (ch))
/* IA32_MCi_MISC: address mode physical (2) in bits 8:6, LSB 12 in bits 5:0 (SDM 16.3.2.4). */
#define MISC_PHYS_4K ((UINT64_C(2) << 6) | 12)

struct mce {
	struct mce_record rec;
	struct mce_decoded d;
	struct rule_input in;
};

static void mce_memory(struct mce *m, unsigned cpu, unsigned ch, uint64_t addr, bool uc)
{
	m->rec = (struct mce_record) {
		.have = MCE_HAVE_CPU | MCE_HAVE_SOCKET | MCE_HAVE_BANK | MCE_HAVE_STATUS |
			MCE_HAVE_ADDR | MCE_HAVE_MISC | MCE_HAVE_VENDOR | MCE_HAVE_CPUID,
		.source = MCE_SOURCE_TRACEPOINT,
		.cpu = cpu, .socket = cpu / 4, .bank = 7,
		.status = VAL | EN | MISCV | ADDRV | MC_READ(ch) | (uc ? UC | PCC : 0),
		.addr = addr, .misc = MISC_PHYS_4K,
		.vendor = MCE_VENDOR_INTEL, .family = 6, .model = 0x8f,
	};
	mce_decode(&m->rec, &m->d);
	m->in = (struct rule_input) { .mce = &m->rec, .decoded = &m->d };
}

static struct rule_value get(const struct rule_input *in, enum rule_field f)
{
	struct rule_value v = { 0 };

	if (!rule_field_get(in, f, &v))
		fail_msg("field %s absent", rule_field_to_string(f));
	return v;
}

static void test_mce_fields(void **state)
{
	struct mce m;
	struct rule_value v;

	(void) state;
	mce_memory(&m, 5, 2, 0x12345678, false);
	assert_string_equal(get(&m.in, RULE_FIELD_KIND).s, "mce");
	assert_string_equal(get(&m.in, RULE_FIELD_SOURCE).s, "tracepoint");
	assert_string_equal(get(&m.in, RULE_FIELD_SEVERITY).s, "corrected");
	assert_string_equal(get(&m.in, RULE_FIELD_ERROR_CLASS).s, "memory_controller");
	assert_string_equal(get(&m.in, RULE_FIELD_COMPONENT).s, "memory");
	assert_string_equal(get(&m.in, RULE_FIELD_VENDOR).s, "intel");
	assert_int_equal(get(&m.in, RULE_FIELD_CPU).u, 5);
	assert_int_equal(get(&m.in, RULE_FIELD_SOCKET).u, 1);
	assert_int_equal(get(&m.in, RULE_FIELD_BANK).u, 7);
	assert_int_equal(get(&m.in, RULE_FIELD_CHANNEL).u, 2);
	assert_int_equal(get(&m.in, RULE_FIELD_MCACOD).u, 0x92);
	assert_int_equal(get(&m.in, RULE_FIELD_ADDRESS).u, 0x12345678);
	assert_int_equal(get(&m.in, RULE_FIELD_PAGE).u, 0x12345);
	assert_false(rule_field_get(&m.in, RULE_FIELD_LABEL, &v));
	assert_false(rule_field_get(&m.in, RULE_FIELD_ROW, &v));

	/* Without ADDRV there is no address, hence no page. */
	m.rec.status &= ~ADDRV;
	mce_decode(&m.rec, &m.d);
	assert_false(rule_field_get(&m.in, RULE_FIELD_ADDRESS, &v));
	assert_false(rule_field_get(&m.in, RULE_FIELD_PAGE, &v));

	/* A linear address (MISC mode 1) names no page of memory. */
	mce_memory(&m, 5, 2, 0x12345678, false);
	m.rec.misc = (UINT64_C(1) << 6) | 12;
	mce_decode(&m.rec, &m.d);
	assert_false(rule_field_get(&m.in, RULE_FIELD_PAGE, &v));
}

/* AMD reports DRAM ECC in UMC banks with a cache MCACOD: still memory, but without a page. */
static void test_amd_umc_is_memory(void **state)
{
	/* EPYC 7002 MC18 DRAM ECC, from tests/golden/amd-smca.golden.jsonl. */
	struct mce_record rec = {
		.have = MCE_HAVE_BANK | MCE_HAVE_STATUS | MCE_HAVE_ADDR | MCE_HAVE_IPID |
			MCE_HAVE_SYND | MCE_HAVE_VENDOR | MCE_HAVE_CPUID,
		.bank = 18, .status = UINT64_C(0xdc2040000000011b), .addr = 0x313c7a020,
		.ipid = UINT64_C(0x0000009600350f00), .synd = UINT64_C(0x9fec08000a800a01),
		.vendor = MCE_VENDOR_AMD, .family = 0x17, .model = 0x31,
	};
	struct mce_decoded d;
	struct rule_input in = { .mce = &rec, .decoded = &d };
	struct rule_value v;

	(void) state;
	mce_decode(&rec, &d);
	assert_string_equal(get(&in, RULE_FIELD_ERROR_CLASS).s, "cache");
	assert_string_equal(get(&in, RULE_FIELD_BANK_TYPE).s, "UMC");
	assert_string_equal(get(&in, RULE_FIELD_COMPONENT).s, "memory");
	/* MCA_ADDR of a UMC is UMC-local: no page, and the record says why. */
	assert_false(rule_field_get(&in, RULE_FIELD_PAGE, &v));
	assert_false(rule_field_get(&in, RULE_FIELD_ADDRESS, &v));
	assert_string_equal(get(&in, RULE_FIELD_NO_PAGE).s, "normalized_address");
	assert_int_equal(get(&in, RULE_FIELD_CHANNEL).u, 3);
	assert_int_equal(get(&in, RULE_FIELD_CHIP_SELECT).u, 1);
}

static void test_ras_fields(void **state)
{
	struct ras_record r;
	struct rule_input in = { .ras = &r };
	struct rule_value v;

	(void) state;
	ras_record_init(&r, RAS_EVENT_MEMORY_CONTROLLER, MCE_SOURCE_RAS_MC_EVENT);
	r.severity = RAS_SEV_CORRECTED;
	assert_int_equal(ras_record_add_uint(&r, "mc", 1), 0);
	assert_int_equal(ras_record_add_string(&r, "label", "CPU_SrcID#0_MC#1_Chan#0_DIMM#0", 64), 0);
	assert_int_equal(ras_record_add_hex64(&r, "address", 0xabcdef000), 0);
	assert_string_equal(get(&in, RULE_FIELD_KIND).s, "memory_controller");
	assert_string_equal(get(&in, RULE_FIELD_COMPONENT).s, "memory");
	assert_string_equal(get(&in, RULE_FIELD_SOURCE).s, "ras:mc_event");
	assert_string_equal(get(&in, RULE_FIELD_SEVERITY).s, "corrected");
	assert_int_equal(get(&in, RULE_FIELD_MC).u, 1);
	assert_string_equal(get(&in, RULE_FIELD_LABEL).s, "CPU_SrcID#0_MC#1_Chan#0_DIMM#0");
	assert_int_equal(get(&in, RULE_FIELD_PAGE).u, 0xabcdef);
	assert_false(rule_field_get(&in, RULE_FIELD_ERROR_CLASS, &v));
	assert_false(rule_field_get(&in, RULE_FIELD_CPU, &v));
	ras_record_done(&r);

	/* Firmware (CPER) memory sections name row, column and bank. */
	ras_record_init(&r, RAS_EVENT_FIRMWARE_MEMORY, MCE_SOURCE_PREVIOUS_BOOT);
	r.severity = RAS_SEV_FATAL;
	assert_int_equal(ras_record_add_hex64(&r, "physical_address", 0x5000), 0);
	assert_int_equal(ras_record_add_uint(&r, "node", 1), 0);
	assert_int_equal(ras_record_add_uint(&r, "bank", 3), 0);
	assert_int_equal(ras_record_add_uint(&r, "row", 0x1234), 0);
	assert_int_equal(ras_record_add_uint(&r, "column", 8), 0);
	assert_string_equal(get(&in, RULE_FIELD_SOURCE).s, "previous_boot");
	assert_int_equal(get(&in, RULE_FIELD_PAGE).u, 5);
	assert_int_equal(get(&in, RULE_FIELD_SOCKET).u, 1);
	assert_int_equal(get(&in, RULE_FIELD_DRAM_BANK).u, 3);
	assert_int_equal(get(&in, RULE_FIELD_ROW).u, 0x1234);
	assert_int_equal(get(&in, RULE_FIELD_COLUMN).u, 8);
	ras_record_done(&r);

	/* A page the kernel poisoned names its frame. */
	ras_record_init(&r, RAS_EVENT_MEMORY_FAILURE, MCE_SOURCE_RAS_MEMORY_FAILURE_EVENT);
	assert_int_equal(ras_record_add_hex(&r, "pfn", 0x777), 0);
	assert_int_equal(get(&in, RULE_FIELD_PAGE).u, 0x777);
	ras_record_done(&r);
}

static void load(struct rule_set *s, const char *text)
{
	rule_set_init(s);
	assert_int_equal(rule_set_parse(s, text, strlen(text), "t.rules", NULL, NULL), 0);
}

static void test_matching(void **state)
{
	struct rule_set s;
	struct mce ce, uc;
	struct ras_record r;
	struct rule_input ras = { .ras = &r };

	(void) state;
	load(&s,
	     "[Rule]\nName=ce\nAction=alert\nMatch=kind=mce severity=corrected\n"
	     "[Rule]\nName=uc-or-fatal\nAction=alert\nMatch=severity=uncorrected|fatal\n"
	     "[Rule]\nName=not-ch2\nAction=alert\nMatch=channel!=2\n"
	     "[Rule]\nName=cpu5-page\nAction=alert\nMatch=cpu=5 page=0x12345\n"
	     "[Rule]\nName=any\nAction=alert\n"
	     "[Rule]\nName=label\nAction=alert\nMatch=label=DIMM_A1\n");
	mce_memory(&ce, 5, 2, 0x12345678, false);
	mce_memory(&uc, 4, 3, 0x12345678, true);
	ras_record_init(&r, RAS_EVENT_PCIE_AER, MCE_SOURCE_RAS_AER_EVENT);
	r.severity = RAS_SEV_FATAL;

	assert_true(rule_matches(&s.rules[0], &ce.in));
	assert_false(rule_matches(&s.rules[0], &uc.in));
	assert_false(rule_matches(&s.rules[0], &ras));

	assert_false(rule_matches(&s.rules[1], &ce.in));
	assert_true(rule_matches(&s.rules[1], &uc.in));
	assert_true(rule_matches(&s.rules[1], &ras));

	/* != holds when the value differs, and when the field is absent. */
	assert_false(rule_matches(&s.rules[2], &ce.in));
	assert_true(rule_matches(&s.rules[2], &uc.in));
	assert_true(rule_matches(&s.rules[2], &ras));

	/* Terms are ANDed. */
	assert_true(rule_matches(&s.rules[3], &ce.in));
	assert_false(rule_matches(&s.rules[3], &uc.in));

	assert_true(rule_matches(&s.rules[4], &ras));
	/* An absent field never equals a value. */
	assert_false(rule_matches(&s.rules[5], &ce.in));
	ras_record_done(&r);
	rule_set_done(&s);
}

static void test_keys(void **state)
{
	struct rule_set s;
	struct mce m;
	char key[RULE_KEY_MAX];

	(void) state;
	load(&s,
	     "[Rule]\nName=page\nAction=alert\nKey=page\n"
	     "[Rule]\nName=dimm\nAction=alert\nKey=socket channel cpu address\n"
	     "[Rule]\nName=none\nAction=alert\n"
	     "[Rule]\nName=label\nAction=alert\nKey=label\n");
	mce_memory(&m, 5, 2, 0x12345678, false);
	assert_true(rule_key(&s.rules[0], &m.in, key));
	assert_string_equal(key, "page=0x12345");
	assert_true(rule_key(&s.rules[1], &m.in, key));
	assert_string_equal(key, "socket=1 channel=2 cpu=5 address=0x12345678");
	assert_true(rule_key(&s.rules[2], &m.in, key));
	assert_string_equal(key, "");
	assert_false(rule_key(&s.rules[3], &m.in, key));
	rule_set_done(&s);
}

struct fired {
	unsigned n;
	char names[32][RULE_NAME_MAX];
	char keys[32][RULE_KEY_MAX];
	uint64_t first[32];
};

static void on_fire(const struct rule_firing *f, void *userdata)
{
	struct fired *x = userdata;

	assert_true(x->n < 32);
	snprintf(x->names[x->n], RULE_NAME_MAX, "%s", f->rule->name);
	snprintf(x->keys[x->n], RULE_KEY_MAX, "%s", f->key);
	x->first[x->n] = f->first_usec;
	x->n++;
}

/* The shipped default's shape: 10 CEs on one page in 24h fire once, per page. */
static void test_engine_page_threshold(void **state)
{
	_cleanup_(rule_engine_freep) struct rule_engine *e = NULL;
	struct fired x = { 0 };
	struct rule_set s;
	struct mce a, b;

	(void) state;
	load(&s, "[Rule]\nName=page-ce\nMatch=severity=corrected\nKey=page\nThreshold=10 in 24h\n"
	     "Action=alert soft-offline\n"
	     "[Rule]\nName=all\nAction=alert\n");
	assert_int_equal(rule_engine_new(&s, 0, &e), 0);
	mce_memory(&a, 1, 0, 0x1000, false);
	mce_memory(&b, 1, 0, 0x2000, false);
	for (unsigned i = 0; i < 9; i++) {
		assert_int_equal(rule_engine_feed(e, &a.in, T0 + i * HOUR, on_fire, &x), 1);
		assert_int_equal(rule_engine_feed(e, &b.in, T0 + i * HOUR, on_fire, &x), 1);
	}
	/* Only "all" fired so far, once per record. */
	assert_int_equal(x.n, 18);
	x.n = 0;
	assert_int_equal(rule_engine_feed(e, &a.in, T0 + 23 * HOUR, on_fire, &x), 2);
	assert_string_equal(x.names[0], "page-ce");
	assert_string_equal(x.keys[0], "page=0x1");
	assert_int_equal(x.first[0], T0);
	assert_string_equal(x.names[1], "all");
	/* Page 2's 10th record comes 24h after its first: T0's record no longer counts. */
	x.n = 0;
	assert_int_equal(rule_engine_feed(e, &b.in, T0 + 24 * HOUR, on_fire, &x), 1);
	assert_string_equal(x.names[0], "all");
	assert_int_equal(rule_engine_stats(e, 0)->matched, 20);
	assert_int_equal(rule_engine_stats(e, 0)->fired, 1);
	{
		unsigned n;
		const struct rule_bucket *bk = rule_engine_buckets(e, 0, &n);

		assert_int_equal(n, 2);
		assert_string_equal(bk[1].key, "page=0x2");
		assert_int_equal(rule_window_level(&bk[1].window, 10, 24 * HOUR, T0 + 24 * HOUR), 9);
	}
	e = rule_engine_free(e);
	rule_set_done(&s);
}

/* A record without the Key= field is not counted, but the rule says so. */
static void test_engine_unkeyed(void **state)
{
	_cleanup_(rule_engine_freep) struct rule_engine *e = NULL;
	struct rule_set s;
	struct mce m;

	(void) state;
	load(&s, "[Rule]\nName=page\nKey=page\nAction=alert\n");
	assert_int_equal(rule_engine_new(&s, 0, &e), 0);
	mce_memory(&m, 1, 0, 0x1000, false);
	m.rec.status &= ~ADDRV;
	mce_decode(&m.rec, &m.d);
	assert_int_equal(rule_engine_feed(e, &m.in, T0, NULL, NULL), 0);
	assert_int_equal(rule_engine_stats(e, 0)->matched, 1);
	assert_int_equal(rule_engine_stats(e, 0)->unkeyed, 1);
	e = rule_engine_free(e);
	rule_set_done(&s);
}

/* The key table is bounded: the least recently seen key makes room, counted. */
static void test_engine_eviction(void **state)
{
	_cleanup_(rule_engine_freep) struct rule_engine *e = NULL;
	struct rule_set s;
	struct mce m;
	unsigned n;
	const struct rule_bucket *bk;

	(void) state;
	load(&s, "[Rule]\nName=page\nKey=page\nThreshold=2 in 1h\nAction=alert\n");
	assert_int_equal(rule_engine_new(&s, 4, &e), 0);
	for (unsigned i = 0; i < 6; i++) {
		mce_memory(&m, 1, 0, (uint64_t) i << 12, false);
		assert_int_equal(rule_engine_feed(e, &m.in, T0 + i, NULL, NULL), 0);
	}
	bk = rule_engine_buckets(e, 0, &n);
	assert_int_equal(n, 4);
	assert_int_equal(rule_engine_stats(e, 0)->evicted, 2);
	for (unsigned i = 0; i < n; i++)
		assert_true(strcmp(bk[i].key, "page=0x0") && strcmp(bk[i].key, "page=0x1"));
	/* Page 5 is still counted: its second record fires. */
	assert_int_equal(rule_engine_feed(e, &m.in, T0 + 10, NULL, NULL), 1);
	e = rule_engine_free(e);
	rule_set_done(&s);
}

/* Buckets put back from the state file go on counting; unknown rules are skipped. */
static void test_engine_restore(void **state)
{
	_cleanup_(rule_engine_freep) struct rule_engine *e = NULL;
	const uint64_t times[] = { T0, T0 + 1, T0 + 2, T0 + 3, T0 + 4 };
	struct rule_set s;
	struct mce m;

	(void) state;
	load(&s, "[Rule]\nName=page\nKey=page\nThreshold=4 in 1h\nAction=alert\n");
	assert_int_equal(rule_engine_new(&s, 0, &e), 0);
	assert_int_equal(rule_engine_restore(e, "gone", "page=0x1", 0, times, 5), 0);
	assert_int_equal(rule_engine_restore(e, "page", "page=0x1", 0, times, 2), 0);
	mce_memory(&m, 1, 0, 0x1000, false);
	assert_int_equal(rule_engine_feed(e, &m.in, T0 + 10, NULL, NULL), 0);
	assert_int_equal(rule_engine_feed(e, &m.in, T0 + 11, NULL, NULL), 1);
	/* More times than N-1: only the newest N-1 are kept, so the next record fires. */
	assert_int_equal(rule_engine_restore(e, "page", "page=0x1", 0, times, 5), 0);
	assert_int_equal(rule_engine_feed(e, &m.in, T0 + 12, NULL, NULL), 1);
	e = rule_engine_free(e);
	rule_set_done(&s);
}

/* Holdoff=: a key that fired rests, its records not counted, then counts again. */
static void test_engine_holdoff(void **state)
{
	_cleanup_(rule_engine_freep) struct rule_engine *e = NULL;
	struct rule_set s;
	struct mce m;

	(void) state;
	load(&s, "[Rule]\nName=yellow\nKey=cpu bank\nHoldoff=1h\nAction=alert\n");
	assert_int_equal(rule_engine_new(&s, 0, &e), 0);
	mce_memory(&m, 1, 0, 0x1000, false);
	assert_int_equal(rule_engine_feed(e, &m.in, T0, NULL, NULL), 1);
	assert_int_equal(rule_engine_feed(e, &m.in, T0 + 1, NULL, NULL), 0);
	assert_int_equal(rule_engine_feed(e, &m.in, T0 + HOUR - 1, NULL, NULL), 0);
	assert_int_equal(rule_engine_stats(e, 0)->held, 2);
	/* Another key is not held. */
	mce_memory(&m, 2, 0, 0x1000, false);
	assert_int_equal(rule_engine_feed(e, &m.in, T0 + 2, NULL, NULL), 1);
	mce_memory(&m, 1, 0, 0x1000, false);
	assert_int_equal(rule_engine_feed(e, &m.in, T0 + HOUR, NULL, NULL), 1);
	e = rule_engine_free(e);
	rule_set_done(&s);
}

/*
 * An EDAC ras:mc_event as kernel-abi/ras-trace.c records it: mc 0, the
 * label (NULL: none), the layers the driver knew (-1: not given), and the
 * driver_detail with the location read out of it.
 */
static void edac_event(struct ras_record *r, const char *label, int top, int middle, int lower, const char *detail)
{
	const int layer[3] = { top, middle, lower };
	static const char *const layer_keys[3] = { "top_layer", "middle_layer", "lower_layer" };

	ras_record_init(r, RAS_EVENT_MEMORY_CONTROLLER, MCE_SOURCE_RAS_MC_EVENT);
	r->severity = RAS_SEV_CORRECTED;
	assert_int_equal(ras_record_add_uint(r, "mc", 0), 0);
	if (label)
		assert_int_equal(ras_record_add_string(r, "label", label, SIZE_MAX), 0);
	for (unsigned i = 0; i < 3; i++)
		if (layer[i] >= 0)
			assert_int_equal(ras_record_add_int(r, layer_keys[i], layer[i]), 0);
	if (detail) {
		assert_int_equal(ras_record_add_string(r, "driver_detail", detail, SIZE_MAX), 0);
		assert_true(ras_record_add_edac_location(r) >= 0);
	}
}

/* ghes_edac's driver_detail (drivers/firmware/efi/cper.c) for one cell, on CPER module M. */
#define APEI_ROW(m) "APEI location: node:0 card:0 module:" #m " rank:0 bank_group:1 bank_address:2 row:4660"
#define ROW_RULE "[Rule]\nName=row\nMatch=kind=memory_controller\nKey=label rank bank_group dram_bank row\n" \
		 "Threshold=5 in 24h\nAction=alert offline-row\n"

/* What label=DIMM keys on, as row and DIMM rules see it: one DIMM or nothing (review I6). */
static void edac_key(const struct rule *rule, const char *label, int top, int middle, int lower, const char *detail,
		     const char *want)
{
	struct ras_record r;
	struct rule_input in = { .ras = &r };
	char key[RULE_KEY_MAX];

	edac_event(&r, label, top, middle, lower, detail);
	if (!want) {
		if (rule_key(rule, &in, key))
			fail_msg("label '%s': keyed as '%s', should not be counted", label ? label : "(none)", key);
	} else {
		assert_true(rule_key(rule, &in, key));
		assert_string_equal(key, want);
	}
	ras_record_done(&r);
}

static void test_label_keys_one_dimm(void **state)
{
	struct rule_set s;

	(void) state;
	load(&s, ROW_RULE "[Rule]\nName=dimm\nAction=alert\nKey=label\n");
	/* A DIMM's own label keys as it always did: rows in old state files still match. */
	edac_key(&s.rules[0], "CPU_SrcID#0_MC#3_Chan#0_DIMM#0", 0, 0, -1, APEI_ROW(1),
		 "label=CPU_SrcID#0_MC#3_Chan#0_DIMM#0 rank=0 bank_group=1 dram_bank=2 row=4660");
	/* ghes_edac without a module handle: "unknown memory", the module in driver_detail. */
	edac_key(&s.rules[0], "unknown memory", -1, -1, -1, APEI_ROW(1),
		 "label=mc:0,socket:0,card:0,dimm:1 rank=0 bank_group=1 dram_bank=2 row=4660");
	edac_key(&s.rules[0], "unknown memory", -1, -1, -1, APEI_ROW(5),
		 "label=mc:0,socket:0,card:0,dimm:5 rank=0 bank_group=1 dram_bank=2 row=4660");
	/* skx/i10nm register decode names no slot; the layers (channel, slot) do. */
	edac_key(&s.rules[1], "unknown memory", 2, 1, -1, "err_code:0x0000:0x009f ProcessorSocketId:0x0 "
		 "MemoryControllerId:0x1 PhysicalRankId:0x0 Row:0x1a2f Column:0x3f8 Bank:0x2 BankGroup:0x1",
		 "label=mc:0,location:2:1");
	edac_key(&s.rules[1], "", 3, -1, -1, NULL, "label=mc:0,location:3");
	edac_key(&s.rules[1], NULL, 3, 0, 1, NULL, "label=mc:0,location:3:0:1");
	/* A layer left out before a known one: the location spans DIMMs. */
	edac_key(&s.rules[1], "unknown memory", 1, -1, 0, NULL, NULL);
	/* Nothing to key by. */
	edac_key(&s.rules[1], "unknown memory", -1, -1, -1, "APEI location: node:0 rank:0 row:4660", NULL);
	edac_key(&s.rules[1], "", -1, -1, -1, NULL, NULL);
	/* The core says the error is on several DIMMs, or the whole controller. */
	edac_key(&s.rules[1], "any memory", -1, -1, -1, NULL, NULL);
	edac_key(&s.rules[1], "any memory", 0, -1, -1, NULL, NULL);
	edac_key(&s.rules[1], "CPU0_DIMM_A1 or CPU0_DIMM_B1", 0, -1, -1, NULL, NULL);
	rule_set_done(&s);
}

/* Why a record has no label field: what the daemon logs once per reason. */
static void test_no_dimm_reason(void **state)
{
	static const struct {
		const char *label;
		int top;
		const char *detail;
		enum rule_no_dimm why;
	} cases[] = {
		{ "CPU_SrcID#0_MC#3_Chan#0_DIMM#0", -1, NULL,        RULE_NO_DIMM_NONE },
		{ "unknown memory",                 -1, APEI_ROW(1), RULE_NO_DIMM_NONE },
		{ "unknown memory",                  2, NULL,        RULE_NO_DIMM_NONE },
		{ "unknown memory",                 -1, NULL,        RULE_NO_DIMM_UNKNOWN },
		{ "",                               -1, NULL,        RULE_NO_DIMM_UNKNOWN },
		{ "any memory",                     -1, NULL,        RULE_NO_DIMM_SEVERAL },
		{ "A1 or B1",                        0, NULL,        RULE_NO_DIMM_SEVERAL },
		/* The slot the firmware decoded names one DIMM even so. */
		{ "any memory",                     -1, APEI_ROW(5), RULE_NO_DIMM_NONE },
	};
	struct ras_record r;
	struct rule_input in = { .ras = &r };
	struct rule_value v;

	(void) state;
	for (size_t i = 0; i < ELEMENTSOF(cases); i++) {
		edac_event(&r, cases[i].label, cases[i].top, -1, -1, cases[i].detail);
		assert_int_equal(rule_field_no_dimm(&in), cases[i].why);
		assert_int_equal(rule_field_get(&in, RULE_FIELD_LABEL, &v), cases[i].why == RULE_NO_DIMM_NONE);
		ras_record_done(&r);
	}
	/* Not an EDAC record: nothing to say, whatever it lacks. */
	ras_record_init(&r, RAS_EVENT_PCIE_AER, MCE_SOURCE_RAS_AER_EVENT);
	assert_int_equal(rule_field_no_dimm(&in), RULE_NO_DIMM_NONE);
	ras_record_done(&r);
	/* A composed value holds its own text, so a copy of it stays whole (get() returns one). */
	edac_event(&r, "unknown memory", -1, -1, -1, APEI_ROW(1));
	v = get(&in, RULE_FIELD_LABEL);
	assert_string_equal(rule_value_string(&v), "mc:0,socket:0,card:0,dimm:1");
	ras_record_done(&r);
}

/* Review I6: five errors at one row's numbers on two ghes modules are no row of either. */
static void test_row_rule_apart_by_module(void **state)
{
	_cleanup_(rule_engine_freep) struct rule_engine *e = NULL;
	struct ras_record m1, m5;
	struct rule_input in1 = { .ras = &m1 }, in5 = { .ras = &m5 };
	struct fired x = { 0 };
	struct rule_set s;

	(void) state;
	load(&s, ROW_RULE);
	assert_int_equal(rule_engine_new(&s, 0, &e), 0);
	edac_event(&m1, "unknown memory", -1, -1, -1, APEI_ROW(1));
	edac_event(&m5, "unknown memory", -1, -1, -1, APEI_ROW(5));
	for (unsigned i = 0; i < 5; i++)
		rule_engine_feed(e, i % 2 ? &in5 : &in1, T0 + i * HOUR, on_fire, &x);
	assert_int_equal(x.n, 0);
	/* Module 1 has had three; two more make five on its row. */
	rule_engine_feed(e, &in1, T0 + 5 * HOUR, on_fire, &x);
	assert_int_equal(x.n, 0);
	rule_engine_feed(e, &in1, T0 + 6 * HOUR, on_fire, &x);
	assert_int_equal(x.n, 1);
	assert_string_equal(x.keys[0], "label=mc:0,socket:0,card:0,dimm:1 rank=0 bank_group=1 dram_bank=2 row=4660");
	ras_record_done(&m1);
	ras_record_done(&m5);
	/* The engine first: it walks its rules' buckets when freed, and the set holds the rules. */
	e = rule_engine_free(e);
	rule_set_done(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_mce_fields),
		cmocka_unit_test(test_amd_umc_is_memory),
		cmocka_unit_test(test_ras_fields),
		cmocka_unit_test(test_matching),
		cmocka_unit_test(test_keys),
		cmocka_unit_test(test_label_keys_one_dimm),
		cmocka_unit_test(test_row_rule_apart_by_module),
		cmocka_unit_test(test_no_dimm_reason),
		cmocka_unit_test(test_engine_page_threshold),
		cmocka_unit_test(test_engine_unkeyed),
		cmocka_unit_test(test_engine_eviction),
		cmocka_unit_test(test_engine_restore),
		cmocka_unit_test(test_engine_holdoff),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
