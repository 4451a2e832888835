/* SPDX-License-Identifier: MIT */
/*
 * rules/mem-repair.c: the plan of a memory repair from a CXL record, the
 * repair features its device offers and the limits.  The records come from
 * real trace lines: printed by Linux 7.3.4 (Debian trixie-backports) in the
 * VM rig's CXL boot for events QEMU 10.0's cxl-type3 device reported (the
 * lines of cxl-trace-lines.h).  The offers are laid out as Linux's
 * drivers/cxl/core/edac.c registers them (Documentation/ABI/testing/
 * sysfs-edac-memory-repair): PPR with dpa and nibble_mask; sparing with
 * channel and rank, plus bank group and bank, row, column and sub-channel
 * as its granularity needs.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "cxl-trace-lines.h"
#include "cxl-trace-text.h"
#include "macro.h"
#include "mem-repair.h"
#include "ras-record.h"

static const struct mem_repair_limits on = { .enabled = true, .per_device = 4, .per_day = 1 };

/* The line with its first `from` made `to`: a real line, one field changed. */
static const char *variant(const char *line, const char *from, const char *to)
{
	static char bufs[2][4096];   /* in turn: a variant of a variant reads the other */
	static unsigned turn;
	char *buf = bufs[turn++ % 2];
	const char *at = strstr(line, from);

	assert_non_null(at);
	snprintf(buf, sizeof(bufs[0]), "%.*s%s%s", (int) (at - line), line, to, at + strlen(from));
	return buf;
}

/* The general media line as an ECC error: the real one is a TE State Violation. */
static const char *general_media_ecc(void)
{
	return variant(cxl_line_general_media, "type='TE State Violation'", "type='ECC Error'");
}

static void target_of(const char *line, struct mem_repair_target *t)
{
	struct ras_record r;
	const char *why = "unset";

	assert_int_equal(cxl_trace_text_parse(line, strlen(line), &r, &why), 0);
	assert_int_equal(mem_repair_target_from_record(&r, t, &why), 0);
	assert_null(why);
	ras_record_done(&r);
}

/* A feature as the CXL driver registers it: its type's control files, QEMU's 256 MiB device. */
static struct mem_repair_offer offer(enum mem_repair_type type, unsigned instance, int safe)
{
	struct mem_repair_offer o = {
		.device = "cxl_mem0", .instance = instance, .type = type, .persist_mode = 0,
		.safe_when_in_use = safe, .have_dpa_range = true, .min_dpa = 0, .max_dpa = 0xfffffff,
	};
	static const enum mem_repair_attr sparing[] = {
		MEM_REPAIR_ATTR_DPA, MEM_REPAIR_ATTR_NIBBLE_MASK, MEM_REPAIR_ATTR_CHANNEL, MEM_REPAIR_ATTR_RANK,
		MEM_REPAIR_ATTR_BANK_GROUP, MEM_REPAIR_ATTR_BANK, MEM_REPAIR_ATTR_ROW, MEM_REPAIR_ATTR_COLUMN,
		MEM_REPAIR_ATTR_SUB_CHANNEL,
	};
	/* How many of sparing[] each type's ops table sets (edac.c: RANK_OPS, BANK_OPS, ROW_OPS, CACHELINE_OPS). */
	static const unsigned n_attrs[_MEM_REPAIR_TYPE_MAX] = {
		[MEM_REPAIR_PPR] = 2, [MEM_REPAIR_RANK_SPARING] = 4, [MEM_REPAIR_BANK_SPARING] = 6,
		[MEM_REPAIR_ROW_SPARING] = 7, [MEM_REPAIR_CACHELINE_SPARING] = 9,
	};

	snprintf(o.type_text, sizeof(o.type_text), "%s", mem_repair_type_to_string(type));
	for (unsigned i = 0; i < n_attrs[type]; i++)
		o.have_attr[sparing[i]] = true;
	return o;
}

struct seen {
	unsigned calls;
	char device[64];
	char location[MEM_REPAIR_LOCATION_MAX];
	struct mem_repair_history answer;
};

static void history(const char *device_key, const char *location, struct mem_repair_history *ret, void *userdata)
{
	struct seen *s = userdata;

	s->calls++;
	snprintf(s->device, sizeof(s->device), "%s", device_key);
	snprintf(s->location, sizeof(s->location), "%s", location);
	*ret = s->answer;
}

static void assert_writes(const struct mem_repair_plan *p, const char *const *want, unsigned n)
{
	assert_int_equal(p->n_writes, n);
	for (unsigned i = 0; i < n; i++) {
		char w[64];

		snprintf(w, sizeof(w), "%s=%s", p->writes[i].attr, p->writes[i].value);
		assert_string_equal(w, want[i]);
	}
}

static void test_target_dram(void **state)
{
	struct mem_repair_target t;

	(void) state;
	target_of(cxl_line_dram, &t);
	assert_string_equal(t.memdev, "mem0");
	assert_true(t.have_serial);
	assert_false(t.general_media);
	assert_int_equal(t.value[MEM_REPAIR_ATTR_DPA], 0x2000);
	assert_int_equal(t.value[MEM_REPAIR_ATTR_CHANNEL], 2);
	assert_int_equal(t.value[MEM_REPAIR_ATTR_RANK], 0);
	assert_int_equal(t.value[MEM_REPAIR_ATTR_NIBBLE_MASK], 0x21);
	assert_int_equal(t.value[MEM_REPAIR_ATTR_BANK_GROUP], 1);
	assert_int_equal(t.value[MEM_REPAIR_ATTR_BANK], 3);
	assert_int_equal(t.value[MEM_REPAIR_ATTR_ROW], 1234);
	assert_int_equal(t.value[MEM_REPAIR_ATTR_COLUMN], 56);
	/* sub_channel=0 is printed, but its validity bit is not set: not a coordinate. */
	assert_false(t.have[MEM_REPAIR_ATTR_SUB_CHANNEL]);
}

static void test_target_general_media_and_others(void **state)
{
	struct mem_repair_target t;
	struct ras_record r;
	const char *why = NULL;

	(void) state;
	target_of(general_media_ecc(), &t);
	assert_true(t.general_media);
	assert_int_equal(t.value[MEM_REPAIR_ATTR_DPA], 0x1000);
	/* Its channel and rank are the media's: not taken as DRAM coordinates. */
	assert_false(t.have[MEM_REPAIR_ATTR_CHANNEL]);
	assert_false(t.have[MEM_REPAIR_ATTR_RANK]);

	assert_int_equal(cxl_trace_text_parse(cxl_line_memory_module, strlen(cxl_line_memory_module), &r, &why), 0);
	assert_int_equal(mem_repair_target_from_record(&r, &t, &why), -EINVAL);
	assert_non_null(strstr(why, "CXL DRAM or general media"));
	ras_record_done(&r);
}

static void test_ppr(void **state)
{
	static const char *const want[] = { "dpa=0x2000", "nibble_mask=0x21", "repair=1" };
	struct mem_repair_offer offers[] = { offer(MEM_REPAIR_ROW_SPARING, 0, 1), offer(MEM_REPAIR_PPR, 1, 1) };
	struct mem_repair_target t;
	struct mem_repair_plan p;
	struct seen s = { 0 };

	(void) state;
	target_of(cxl_line_dram, &t);
	mem_repair_plan(&t, offers, 2, &on, history, &s, &p);
	assert_int_equal(p.refusal, MEM_REPAIR_GO);
	assert_ptr_equal(p.offer, &offers[1]);    /* PPR is the finest */
	assert_writes(&p, want, 3);
	assert_string_equal(p.location, "mem0 ppr dpa=0x2000 nibble_mask=0x21");
	assert_false(p.hard);
	assert_int_equal(s.calls, 1);
	assert_string_equal(s.device, "mem0");
	/* What the history is asked about is the row the PPR replaces, not the cell. */
	assert_string_equal(s.location, "mem0 row channel=2 rank=0 bank_group=1 bank=3 row=1234");
	assert_string_equal(p.unit, s.location);

	/* The general media record: PPR of its DPA, no nibble mask to give (0, nothing stays set). */
	target_of(general_media_ecc(), &t);
	mem_repair_plan(&t, offers, 2, &on, history, &s, &p);
	assert_int_equal(p.refusal, MEM_REPAIR_GO);
	assert_string_equal(p.writes[0].value, "0x1000");
	assert_string_equal(p.writes[1].value, "0x0");
	assert_string_equal(p.unit, "mem0 dpa=0x1000");
}

static void test_sparing(void **state)
{
	static const char *const cacheline[] = {
		"dpa=0x2000", "nibble_mask=0x21", "channel=2", "sub_channel=0", "rank=0", "bank_group=1", "bank=3",
		"row=1234", "column=56", "repair=1",
	};
	static const char *const row[] = {
		"dpa=0x2000", "nibble_mask=0x21", "channel=2", "rank=0", "bank_group=1", "bank=3", "row=1234",
		"repair=1",
	};
	struct mem_repair_offer offers[] = {
		offer(MEM_REPAIR_RANK_SPARING, 0, 1), offer(MEM_REPAIR_ROW_SPARING, 1, 1),
		offer(MEM_REPAIR_CACHELINE_SPARING, 2, 1),
	};
	struct mem_repair_target t;
	struct mem_repair_plan p;

	(void) state;
	target_of(cxl_line_dram, &t);
	mem_repair_plan(&t, offers, 3, &on, NULL, NULL, &p);
	assert_int_equal(p.refusal, MEM_REPAIR_GO);
	assert_ptr_equal(p.offer, &offers[2]);
	assert_writes(&p, cacheline, 10);
	/* A cache-line sparing that needs the memory offline: the row sparing that does not. */
	offers[2].safe_when_in_use = 0;
	mem_repair_plan(&t, offers, 3, &on, NULL, NULL, &p);
	assert_ptr_equal(p.offer, &offers[1]);
	assert_writes(&p, row, 8);
	assert_string_equal(p.location, "mem0 row-sparing dpa=0x2000 nibble_mask=0x21 channel=0x2 rank=0x0 "
			    "bank_group=0x1 bank=0x3 row=0x4d2");
	/* A record without a row: bank sparing is the finest left, and the device has none; rank sparing. */
	t.have[MEM_REPAIR_ATTR_ROW] = false;
	mem_repair_plan(&t, offers, 3, &on, NULL, NULL, &p);
	assert_ptr_equal(p.offer, &offers[0]);
	assert_int_equal(p.n_writes, 5);
}

static void test_refusals(void **state)
{
	struct mem_repair_offer offers[] = { offer(MEM_REPAIR_ROW_SPARING, 0, 1) };
	struct mem_repair_limits off = on;
	struct mem_repair_target t;
	struct mem_repair_plan p;

	(void) state;
	target_of(cxl_line_dram, &t);
	mem_repair_plan(&t, offers, 0, &on, NULL, NULL, &p);
	assert_int_equal(p.refusal, MEM_REPAIR_NOT_OFFERED);
	assert_non_null(strstr(p.why, "mem0 offers no memory repair"));
	assert_int_equal(p.n_writes, 0);

	/* A general media record has no row: sparing cannot take it, and the driver would not. */
	target_of(general_media_ecc(), &t);
	mem_repair_plan(&t, offers, 1, &on, NULL, NULL, &p);
	assert_int_equal(p.refusal, MEM_REPAIR_TYPE_UNSUPPORTED);
	assert_non_null(strstr(p.why, "mem0 offers row-sparing; none fits this general media record"));
	assert_string_equal(mem_repair_refusal_to_string(p.refusal), "type-unsupported");

	target_of(cxl_line_dram, &t);
	offers[0].safe_when_in_use = 0;
	mem_repair_plan(&t, offers, 1, &on, NULL, NULL, &p);
	assert_int_equal(p.refusal, MEM_REPAIR_NOT_SAFE_IN_USE);
	assert_ptr_equal(p.offer, &offers[0]);
	assert_non_null(strstr(p.why, "repair_safe_when_in_use=0"));

	offers[0].safe_when_in_use = 1;
	offers[0].max_dpa = 0x1fff;
	mem_repair_plan(&t, offers, 1, &on, NULL, NULL, &p);
	assert_int_equal(p.refusal, MEM_REPAIR_OUT_OF_RANGE);
	assert_string_equal(p.why, "DPA 0x2000 is outside cxl_mem0's range 0x0-0x1fff (min_dpa, max_dpa)");

	offers[0].max_dpa = 0xfffffff;
	t.value[MEM_REPAIR_ATTR_ROW] = 0x1000000;   /* wider than the 24 bits a request carries */
	mem_repair_plan(&t, offers, 1, &on, NULL, NULL, &p);
	assert_int_equal(p.refusal, MEM_REPAIR_OUT_OF_RANGE);
	assert_non_null(strstr(p.why, "row 0x1000000"));

	target_of(cxl_line_dram, &t);
	off.enabled = false;
	mem_repair_plan(&t, offers, 1, &off, NULL, NULL, &p);
	assert_int_equal(p.refusal, MEM_REPAIR_DISABLED);
	assert_ptr_equal(p.offer, &offers[0]);        /* what it would have used is still said */
	assert_int_equal(p.n_writes, 0);
	assert_non_null(strstr(p.why, "Repair=no"));
}

static void test_limits(void **state)
{
	struct mem_repair_offer offers[] = { offer(MEM_REPAIR_PPR, 0, 1) };
	struct mem_repair_target t;
	struct mem_repair_plan p;
	struct seen s = { .answer = { .device_total = 3 } };

	(void) state;
	target_of(cxl_line_dram, &t);
	mem_repair_plan(&t, offers, 1, &on, history, &s, &p);
	assert_int_equal(p.refusal, MEM_REPAIR_GO);     /* 3 of 4 */

	s.answer.device_total = 4;
	mem_repair_plan(&t, offers, 1, &on, history, &s, &p);
	assert_int_equal(p.refusal, MEM_REPAIR_LIMIT_DEVICE);
	assert_non_null(strstr(p.why, "mem0 had 4 repairs already, the limit ([Memory] RepairsPerDevice=4)"));

	s.answer = (struct mem_repair_history) { .device_total = 1, .device_last_day = 1 };
	mem_repair_plan(&t, offers, 1, &on, history, &s, &p);
	assert_int_equal(p.refusal, MEM_REPAIR_LIMIT_DAY);
	assert_string_equal(mem_repair_refusal_to_string(p.refusal), "daily-limit");

	s.answer = (struct mem_repair_history) { .location_repaired = true };
	mem_repair_plan(&t, offers, 1, &on, history, &s, &p);
	assert_int_equal(p.refusal, MEM_REPAIR_ALREADY_DONE);
	assert_int_equal(p.n_writes, 0);

	/* A device with a serial number is counted by it: renumbering does not reset its limits. */
	t.serial = 0xabc;
	s.answer = (struct mem_repair_history) { 0 };
	mem_repair_plan(&t, offers, 1, &on, history, &s, &p);
	assert_string_equal(s.device, "serial=0xabc");
	assert_string_equal(p.location, "serial=0xabc ppr dpa=0x2000 nibble_mask=0x21");
}

/* Review I1: only a media fault the device can repair, met in use. */
static void test_record_refusals(void **state)
{
	static const struct {
		const char *from, *to;
		enum mem_repair_refusal want;
		const char *why;
	} cases[] = {
		{ "type='ECC Error'", "type='TE State Violation'", MEM_REPAIR_NOT_MEDIA_FAULT, "'TE State Violation', not a fault of the media" },
		{ "type='ECC Error'", "type='Data Path Error'", MEM_REPAIR_NOT_MEDIA_FAULT, "'Data Path Error'" },
		{ "type='ECC Error'", "type='Invalid Address'", MEM_REPAIR_NOT_MEDIA_FAULT, "'Invalid Address'" },
		{ "type='ECC Error'", "type='CKID Violation'", MEM_REPAIR_NOT_MEDIA_FAULT, "'CKID Violation'" },
		{ "type='ECC Error'", "type='Adv Prog CME Counter Expiration'", MEM_REPAIR_NOT_MEDIA_FAULT, "Expiration'" },
		{ "type='ECC Error' ", "", MEM_REPAIR_NOT_MEDIA_FAULT, "the event type is missing" },
		{ "dpa_flags=''", "dpa_flags='NOT_REPAIRABLE'", MEM_REPAIR_NOT_REPAIRABLE, "marks DPA 0x2000 NOT_REPAIRABLE" },
		{ "dpa_flags=''", "dpa_flags='VOLATILE|NOT_REPAIRABLE'", MEM_REPAIR_NOT_REPAIRABLE, "(dpa_flags VOLATILE|NOT_REPAIRABLE)" },
		{ "transaction_type='Host Write'", "transaction_type='Host Inject Poison'", MEM_REPAIR_INJECTED, "injected" },
		{ "transaction_type='Host Write'", "transaction_type='Media Initialization'", MEM_REPAIR_MEDIA_INIT, "initialising" },
		{ "transaction_type='Host Write'", "transaction_type='9'", MEM_REPAIR_UNKNOWN_TRANSACTION, "'9' is not one" },
		{ "maint_op_class=0", "maint_op_class=3", MEM_REPAIR_GO, "" },   /* no MAINTENANCE_NEEDED: no request */
		{ "flags='0x1' handle=1 related_handle=0 maint_op_class=0", "flags='MAINTENANCE_NEEDED' handle=1 related_handle=0 maint_op_class=3",
		  MEM_REPAIR_REQUEST_NOT_REPAIR, "not a repair mcelogd knows (maintenance operation class 3" },
		{ "type='ECC Error'", "type='Scrub Media ECC Error'", MEM_REPAIR_GO, "" },
		{ "transaction_type='Host Write'", "transaction_type='Internal Media Scrub'", MEM_REPAIR_GO, "" },
	};
	struct mem_repair_offer offers[] = { offer(MEM_REPAIR_PPR, 0, 1) };
	struct mem_repair_limits off = on;
	struct mem_repair_target t;
	struct mem_repair_plan p;

	(void) state;
	for (size_t i = 0; i < ELEMENTSOF(cases); i++) {
		target_of(variant(cxl_line_dram, cases[i].from, cases[i].to), &t);
		mem_repair_plan(&t, offers, 1, &on, NULL, NULL, &p);
		if (p.refusal != cases[i].want || !strstr(p.why, cases[i].why))
			fail_msg("%s: refusal %s '%s', expected %s '%s'", cases[i].to, mem_repair_refusal_to_string(p.refusal),
				 p.why, mem_repair_refusal_to_string(cases[i].want), cases[i].why);
		assert_int_equal(p.n_writes, cases[i].want == MEM_REPAIR_GO ? 3 : 0);
		/* The record's own refusals come before the device is looked at, even with repair off. */
		off.enabled = false;
		mem_repair_plan(&t, offers, 0, &off, NULL, NULL, &p);
		if (cases[i].want != MEM_REPAIR_GO)
			assert_int_equal(p.refusal, cases[i].want);
	}
	/* The real general media line: a TE State Violation. */
	target_of(cxl_line_general_media, &t);
	assert_int_equal(mem_repair_check_record(&t, p.why, sizeof(p.why)), MEM_REPAIR_NOT_MEDIA_FAULT);
	assert_string_equal(mem_repair_refusal_to_string(MEM_REPAIR_NOT_MEDIA_FAULT), "not-media-fault");
	assert_string_equal(mem_repair_refusal_to_string(MEM_REPAIR_INJECTED), "injected");
}

/* Review I4: the DPA as the kernel keys its repair records, the flag bits the trace masks put back. */
static void test_dpa_as_the_kernel_keys_it(void **state)
{
	struct mem_repair_offer offers[] = { offer(MEM_REPAIR_PPR, 0, 1) };
	struct mem_repair_target t;
	struct mem_repair_plan p;

	(void) state;
	target_of(variant(cxl_line_dram, "dpa_flags=''", "dpa_flags='VOLATILE'"), &t);
	assert_int_equal(t.traced_dpa, 0x2000);
	assert_int_equal(t.value[MEM_REPAIR_ATTR_DPA], 0x2001);
	assert_string_equal(t.dpa_flags, "VOLATILE");
	mem_repair_plan(&t, offers, 1, &on, NULL, NULL, &p);
	assert_int_equal(p.refusal, MEM_REPAIR_GO);
	assert_string_equal(p.writes[0].value, "0x2001");
	/* The unit is the row, whatever the flags. */
	assert_string_equal(p.unit, "mem0 row channel=2 rank=0 bank_group=1 bank=3 row=1234");
	target_of(variant(general_media_ecc(), "dpa_flags=''", "dpa_flags='VOLATILE'"), &t);
	mem_repair_plan(&t, offers, 1, &on, NULL, NULL, &p);
	assert_string_equal(p.writes[0].value, "0x1001");
	assert_string_equal(p.unit, "mem0 dpa=0x1000");

	assert_true(mem_repair_kernel_refused(-EINVAL));
	assert_true(mem_repair_kernel_refused(-EBUSY));
	assert_true(mem_repair_kernel_refused(-EOPNOTSUPP));
	assert_true(mem_repair_kernel_refused(-ENXIO));
	assert_false(mem_repair_kernel_refused(-EIO));
	assert_false(mem_repair_kernel_refused(-ETIMEDOUT));
}

/* Plans t with offers under limits and checks the refusal (MEM_REPAIR_GO: planned). */
static void plan_is(const struct mem_repair_target *t, const struct mem_repair_offer *offers, size_t n,
		    const struct mem_repair_limits *limits, enum mem_repair_refusal want, struct mem_repair_plan *p)
{
	mem_repair_plan(t, offers, n, limits, NULL, NULL, p);
	if (p->refusal != want)
		fail_msg("refusal %s '%s', expected %s", mem_repair_refusal_to_string(p->refusal), p->why,
			 mem_repair_refusal_to_string(want));
}

/* Review I2: soft only unless the administrator allows hard; unreadable is not soft. */
static void test_persist(void **state)
{
	static const char *const hard[] = {
		"persist_mode=0", "persist_mode=1", "dpa=0x2000", "nibble_mask=0x21", "channel=2", "rank=0",
		"bank_group=1", "bank=3", "row=1234", "repair=1",
	};
	struct mem_repair_offer offers[] = { offer(MEM_REPAIR_ROW_SPARING, 0, 1) };
	struct mem_repair_limits allow = on;
	struct mem_repair_target t;
	struct mem_repair_plan p;

	(void) state;
	target_of(cxl_line_dram, &t);
	offers[0].persist_mode = 1;
	plan_is(&t, offers, 1, &on, MEM_REPAIR_HARD, &p);
	assert_ptr_equal(p.offer, &offers[0]);
	assert_non_null(strstr(p.why, "cxl_mem0 mem_repair0 is set to repair permanently (persist_mode=1)"));
	assert_non_null(strstr(p.why, "RepairPersist=soft"));
	assert_string_equal(mem_repair_refusal_to_string(p.refusal), "hard");

	offers[0].persist_mode = -1;
	plan_is(&t, offers, 1, &on, MEM_REPAIR_PERSIST_UNKNOWN, &p);
	allow.allow_hard = true;
	plan_is(&t, offers, 1, &allow, MEM_REPAIR_PERSIST_UNKNOWN, &p);

	/* Allowed: hard, and only after the feature took persist_mode=0 (it can be soft). */
	offers[0].persist_mode = 1;
	plan_is(&t, offers, 1, &allow, MEM_REPAIR_GO, &p);
	assert_true(p.hard);
	assert_true(p.soft_probe);
	assert_writes(&p, hard, 10);

	/* A soft feature is preferred to a finer hard one. */
	{
		struct mem_repair_offer two[] = { offer(MEM_REPAIR_CACHELINE_SPARING, 0, 1), offer(MEM_REPAIR_ROW_SPARING, 1, 1) };

		two[0].persist_mode = 1;
		plan_is(&t, two, 2, &on, MEM_REPAIR_GO, &p);
		assert_ptr_equal(p.offer, &two[1]);
		assert_false(p.hard);
	}
}

struct units_seen {
	char repaired[MEM_REPAIR_LOCATION_MAX];   /* the unit the history says was repaired */
};

static void unit_history(const char *device_key, const char *unit, struct mem_repair_history *ret, void *userdata)
{
	const struct units_seen *u = userdata;

	(void) device_key;
	*ret = (struct mem_repair_history) { .device_total = 1, .location_repaired = streq(unit, u->repaired) };
}

/* Review I3: one repair per repair unit; two columns of a row are one row. */
static void test_repair_units(void **state)
{
	struct mem_repair_offer offers[] = { offer(MEM_REPAIR_PPR, 0, 1) };
	struct mem_repair_offer sparing[] = {
		offer(MEM_REPAIR_CACHELINE_SPARING, 0, 1), offer(MEM_REPAIR_ROW_SPARING, 1, 1),
		offer(MEM_REPAIR_BANK_SPARING, 2, 1), offer(MEM_REPAIR_RANK_SPARING, 3, 1),
	};
	struct mem_repair_limits generous = { .enabled = true, .per_device = 100, .per_day = 100 };
	struct units_seen u = { "" };
	struct mem_repair_target t;
	struct mem_repair_plan p;
	char unit[MEM_REPAIR_LOCATION_MAX];

	(void) state;
	target_of(cxl_line_dram, &t);
	mem_repair_plan(&t, offers, 1, &generous, unit_history, &u, &p);
	assert_int_equal(p.refusal, MEM_REPAIR_GO);
	snprintf(u.repaired, sizeof(u.repaired), "%s", p.unit);
	/* The same row, another column and DPA: the row was repaired. */
	target_of(variant(variant(cxl_line_dram, "column=56", "column=57"), "dpa=2000", "dpa=2040"), &t);
	mem_repair_plan(&t, offers, 1, &generous, unit_history, &u, &p);
	assert_int_equal(p.refusal, MEM_REPAIR_ALREADY_DONE);
	assert_non_null(strstr(p.why, "this repair unit was repaired before (mem0 row channel=2 rank=0 bank_group=1 "
			       "bank=3 row=1234)"));
	/* Another row of the same bank: its own unit. */
	target_of(variant(cxl_line_dram, "row=1234", "row=1235"), &t);
	mem_repair_plan(&t, offers, 1, &generous, unit_history, &u, &p);
	assert_int_equal(p.refusal, MEM_REPAIR_GO);

	/* Each sparing's unit. */
	target_of(cxl_line_dram, &t);
	assert_true(mem_repair_unit(&t, MEM_REPAIR_ROW_SPARING, unit, sizeof(unit)));
	assert_string_equal(unit, "mem0 row channel=2 rank=0 bank_group=1 bank=3 row=1234");
	assert_true(mem_repair_unit(&t, MEM_REPAIR_CACHELINE_SPARING, unit, sizeof(unit)));
	assert_string_equal(unit, "mem0 cacheline channel=2 rank=0 bank_group=1 bank=3 row=1234 column=56");
	assert_true(mem_repair_unit(&t, MEM_REPAIR_BANK_SPARING, unit, sizeof(unit)));
	assert_string_equal(unit, "mem0 bank channel=2 rank=0 bank_group=1 bank=3");
	assert_true(mem_repair_unit(&t, MEM_REPAIR_RANK_SPARING, unit, sizeof(unit)));
	assert_string_equal(unit, "mem0 rank channel=2 rank=0");
	/* A row sparing after a PPR of the same row: the row is one unit for both. */
	snprintf(u.repaired, sizeof(u.repaired), "mem0 row channel=2 rank=0 bank_group=1 bank=3 row=1234");
	sparing[0].safe_when_in_use = 0;
	mem_repair_plan(&t, sparing, 4, &generous, unit_history, &u, &p);
	assert_int_equal(p.offer->type, MEM_REPAIR_ROW_SPARING);
	assert_int_equal(p.refusal, MEM_REPAIR_ALREADY_DONE);
}

/* The device's own request comes first (MAINTENANCE_NEEDED, class and sub-class). */
static void test_device_request(void **state)
{
	static const char *const flags = "flags='0x1' handle=1 related_handle=0 maint_op_class=0 maint_op_sub_class=0";
	struct mem_repair_offer offers[] = {
		offer(MEM_REPAIR_CACHELINE_SPARING, 0, 1), offer(MEM_REPAIR_ROW_SPARING, 1, 1), offer(MEM_REPAIR_PPR, 2, 1),
	};
	struct mem_repair_target t;
	struct mem_repair_plan p;

	(void) state;
	/* Row sparing asked for: not the finer PPR or cache-line sparing. */
	target_of(variant(cxl_line_dram, flags, "flags='MAINTENANCE_NEEDED | MAINT_OP_SUB_CLASS_VALID' handle=1 "
			  "related_handle=0 maint_op_class=2 maint_op_sub_class=1"), &t);
	assert_int_equal(t.request, MEM_REPAIR_REQUEST_ROW_SPARING);
	plan_is(&t, offers, 3, &on, MEM_REPAIR_GO, &p);
	assert_ptr_equal(p.offer, &offers[1]);
	/* Bank sparing asked for, none offered: none, rather than another kind. */
	target_of(variant(cxl_line_dram, flags, "flags='MAINTENANCE_NEEDED|MAINT_OP_SUB_CLASS_VALID' handle=1 "
			  "related_handle=0 maint_op_class=2 maint_op_sub_class=2"), &t);
	plan_is(&t, offers, 3, &on, MEM_REPAIR_REQUEST_UNMET, &p);
	assert_non_null(strstr(p.why, "the device asks for bank sparing (maintenance operation class 2, sub-class 2)"));
	/* Sparing, the sub-class not valid: any sparing, the finest. */
	target_of(variant(cxl_line_dram, flags, "flags='MAINTENANCE_NEEDED' handle=1 related_handle=0 "
			  "maint_op_class=2 maint_op_sub_class=2"), &t);
	mem_repair_plan(&t, offers, 3, &on, NULL, NULL, &p);
	assert_ptr_equal(p.offer, &offers[0]);
	/* sPPR asked for. */
	target_of(variant(cxl_line_dram, flags, "flags='MAINTENANCE_NEEDED|MAINT_OP_SUB_CLASS_VALID' handle=1 "
			  "related_handle=0 maint_op_class=1 maint_op_sub_class=0"), &t);
	mem_repair_plan(&t, offers, 3, &on, NULL, NULL, &p);
	assert_ptr_equal(p.offer, &offers[2]);
	/* hPPR asked for: a permanent repair, not allowed by default; allowed, the soft PPR does not answer it. */
	target_of(variant(cxl_line_dram, flags, "flags='MAINTENANCE_NEEDED|MAINT_OP_SUB_CLASS_VALID' handle=1 "
			  "related_handle=0 maint_op_class=1 maint_op_sub_class=1"), &t);
	plan_is(&t, offers, 3, &on, MEM_REPAIR_HARD, &p);
	assert_non_null(strstr(p.why, "the device asks for a hard PPR"));
	{
		struct mem_repair_limits allow = on;

		allow.allow_hard = true;
		plan_is(&t, offers, 3, &allow, MEM_REPAIR_REQUEST_UNMET, &p);
		offers[2].persist_mode = 1;
		plan_is(&t, offers, 3, &allow, MEM_REPAIR_GO, &p);
		assert_true(p.hard);
	}
}

static void test_names(void **state)
{
	char buf[16];

	(void) state;
	for (int t = 0; t < _MEM_REPAIR_TYPE_MAX; t++)
		assert_int_equal(mem_repair_type_from_string(mem_repair_type_to_string((enum mem_repair_type) t)), t);
	assert_int_equal(mem_repair_type_from_string("hppr"), _MEM_REPAIR_TYPE_INVALID);
	assert_int_equal(mem_repair_edac_device("mem12", buf, sizeof(buf)), 0);
	assert_string_equal(buf, "cxl_mem12");
	assert_int_equal(mem_repair_edac_device("a-very-long-memdev-name", buf, sizeof(buf)), -E2BIG);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_target_dram),
		cmocka_unit_test(test_target_general_media_and_others),
		cmocka_unit_test(test_ppr),
		cmocka_unit_test(test_sparing),
		cmocka_unit_test(test_refusals),
		cmocka_unit_test(test_limits),
		cmocka_unit_test(test_record_refusals),
		cmocka_unit_test(test_dpa_as_the_kernel_keys_it),
		cmocka_unit_test(test_persist),
		cmocka_unit_test(test_repair_units),
		cmocka_unit_test(test_device_request),
		cmocka_unit_test(test_names),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
