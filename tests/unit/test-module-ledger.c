/* SPDX-License-Identifier: MIT */
/* rules/module-*: the health ledger per memory module, its keys, verdicts and state file. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "dimm-slots.h"
#include "macro.h"
#include "module-ledger.h"
#include "module-prom.h"
#include "module-record.h"
#include "module-state.h"
#include "ras-record.h"
#include "rule-field.h"
#include "smbios-memdev.h"

#define MACHINE "0123456789abcdef0123456789abcdef"
#define DAY_USEC (24 * 3600 * INT64_C(1000000))
#define T0 (INT64_C(1767225600) * 1000000)   /* 2026-01-01 */

static struct module_id dimm(const char *serial, const char *part, const char *slot)
{
	struct module_id id;

	assert_int_equal(module_id_dimm(serial, part, slot, MACHINE, &id), 0);
	return id;
}

static struct module_error ce_at(uint32_t bank, uint32_t row, uint32_t column, int64_t t)
{
	return (struct module_error) { .severity = MODULE_CORRECTED, .time_usec = t, .have_cell = true,
				       .cell = { .bank = bank, .row = row, .column = column } };
}

static int add(struct module_ledger *l, const struct module_id *id, struct module_error e, struct module_change *c)
{
	int r = module_ledger_error(l, id, &e, c);

	assert_true(r >= 0);
	return r;
}

static void test_keys(void **state)
{
	struct module_id id;

	(void) state;
	id = dimm("1A2B3C4D", "M393A4K40DB3-CWE", "P1-DIMMA1");
	assert_false(id.fallback);
	assert_string_equal(id.key, "dimm|serial=1A2B3C4D|part=M393A4K40DB3-CWE");
	assert_string_equal(id.slot, "P1-DIMMA1");
	/* Placeholders name no module: the key falls back to this machine and the slot. */
	for (const char *const *s = (const char *const[]) { "", "  ", "Not Specified", "unknown", "00000000",
							     "0x00000000", "FFFFFFFF", "NO DIMM", NULL }; *s; s++) {
		id = dimm(*s, "Not Specified", "DIMM_A1");
		assert_true(id.fallback);
		assert_string_equal(id.key, "dimm|machine=" MACHINE "|slot=DIMM_A1");
		assert_string_equal(id.serial, "");
		assert_string_equal(id.part, "");
	}
	id = dimm(NULL, "M393", "DIMM_A1");
	assert_string_equal(id.key, "dimm|machine=" MACHINE "|slot=DIMM_A1|part=M393");
	assert_int_equal(module_id_dimm("X", "Y", "", MACHINE, &id), -EINVAL);
	assert_int_equal(module_id_cxl(0x1234, "mem0", MACHINE, &id), 0);
	assert_false(id.fallback);
	assert_string_equal(id.key, "cxl|serial=0x1234|part=");
	assert_string_equal(id.serial, "0x1234");
	assert_int_equal(module_id_cxl(0, "mem3", MACHINE, &id), 0);
	assert_true(id.fallback);
	assert_string_equal(id.key, "cxl|machine=" MACHINE "|memdev=mem3");
	/* Another machine's fallback is another module: a cloned disk does not inherit it. */
	assert_int_equal(module_id_cxl(0, "mem3", "ffffffffffffffffffffffffffffffff", &id), 0);
	assert_string_not_equal(id.key, "cxl|machine=" MACHINE "|memdev=mem3");
}

static void test_thresholds_edges(void **state)
{
	struct module_thresholds t = MODULE_THRESHOLDS_DEFAULT;
	struct module_ledger l;
	struct module_change c;
	struct module_id id = dimm("S1", "P1", "A1");

	(void) state;
	t.watch_corrected = 3;
	t.replace_corrected_week = 10;
	module_ledger_init(&l, &t);
	assert_int_equal(add(&l, &id, ce_at(1, 0x4d2, 7, T0), &c), 0);
	assert_int_equal(add(&l, &id, ce_at(1, 0x4d2, 7, T0 + 1), &c), 0);
	assert_int_equal(l.e[0].verdict, MODULE_OK);
	assert_string_equal(l.e[0].reason, "2 corrected errors, below WatchCorrected=3");
	/* The third reaches WatchCorrected= exactly. */
	assert_int_equal(add(&l, &id, ce_at(1, 0x4d2, 8, T0 + 2), &c), 1);
	assert_int_equal(c.from, MODULE_OK);
	assert_int_equal(c.to, MODULE_WATCH);
	assert_ptr_equal(c.module, &l.e[0]);
	for (int i = 3; i < 9; i++)
		assert_int_equal(add(&l, &id, ce_at(1, 0x4d2, 8, T0 + i), &c), 0);
	/* Nine in the week: one short of ReplaceCorrectedPerWeek=10. */
	assert_int_equal(l.e[0].verdict, MODULE_WATCH);
	/* The tenth a week later starts a new week: still watch. */
	assert_int_equal(add(&l, &id, ce_at(1, 0x4d2, 8, T0 + 7 * DAY_USEC), &c), 0);
	assert_int_equal(l.e[0].week_corrected, 1);
	for (int i = 1; i < 9; i++)
		assert_int_equal(add(&l, &id, ce_at(1, 0x4d2, 8, T0 + 7 * DAY_USEC + i), &c), 0);
	assert_int_equal(add(&l, &id, ce_at(1, 0x4d2, 8, T0 + 8 * DAY_USEC), &c), 1);
	assert_int_equal(c.to, MODULE_REPLACE);
	assert_string_equal(l.e[0].reason, "10 corrected errors within a week (ReplaceCorrectedPerWeek=10)");
	module_ledger_done(&l);
}

/* Every reason a verdict gives, word for word, and cut to the caller's buffer as snprintf() cuts. */
static void test_reasons(void **state)
{
	const struct module_thresholds def = MODULE_THRESHOLDS_DEFAULT;
	struct module_thresholds t;
	struct module_entry m;
	const struct dram_cell cell = { .bank = 1, .row = 2, .column = 3 };
	char reason[MODULE_REASON_MAX], want[MODULE_REASON_MAX];

	(void) state;
#define REASON(verdict, text) do { \
		assert_int_equal(module_verdict_of(&m, &t, reason, sizeof(reason)), verdict); \
		assert_string_equal(reason, text); \
	} while (0)
#define FRESH() (m = (struct module_entry) { .spares_left = -1 }, t = def)
	FRESH();
	REASON(MODULE_OK, "no errors");
	m.uncorrected = 1;
	REASON(MODULE_REPLACE, "1 uncorrected error after 0 corrected");
	m.uncorrected = 3, m.corrected = 12345678901234;
	REASON(MODULE_REPLACE, "3 uncorrected errors after 12345678901234 corrected");
	m.uncorrected = UINT64_MAX, m.corrected = UINT64_MAX;
	REASON(MODULE_REPLACE, "18446744073709551615 uncorrected errors after 18446744073709551615 corrected");
	m.ue_on_row = true, m.ue_row = 0xabc, m.ue_row_corrected = 7;
	REASON(MODULE_REPLACE, "uncorrected error after 7 corrected on row 0xabc");
	m.ue_row = 0, m.ue_row_corrected = UINT32_MAX;
	REASON(MODULE_REPLACE, "uncorrected error after 4294967295 corrected on row 0x0");
	m.ue_row_corrected = 0;
	REASON(MODULE_REPLACE, "18446744073709551615 uncorrected errors after 18446744073709551615 corrected");

	FRESH();
	m.corrected = m.week_corrected = 100;
	REASON(MODULE_REPLACE, "100 corrected errors within a week (ReplaceCorrectedPerWeek=100)");
	t.replace_corrected_week = MODULE_THRESHOLD_MAX, m.week_corrected = UINT64_MAX;
	REASON(MODULE_REPLACE, "18446744073709551615 corrected errors within a week (ReplaceCorrectedPerWeek=1000000)");

	FRESH();
	m.corrected = 3, m.pattern.n_banks = 3;
	REASON(MODULE_REPLACE, "errors in 3 banks: a multi-bank fault");
	m.pattern.n_banks = MODULE_BANKS_MAX, m.pattern.more_banks = true;
	REASON(MODULE_REPLACE, "errors in 32+ banks: a multi-bank fault");

	FRESH();
	m.spares_left = 0;
	REASON(MODULE_REPAIR_EXHAUSTED, "no spare left after 0 repairs");
	m.repairs[MODULE_REPAIR_DONE] = 1;
	REASON(MODULE_REPAIR_EXHAUSTED, "no spare left after 1 repair");
	m.spares_left = 4, m.repairs[MODULE_REPAIR_FAILED] = 1;
	REASON(MODULE_REPAIR_EXHAUSTED, "1 repair failed");
	m.repairs[MODULE_REPAIR_FAILED] = 2;
	REASON(MODULE_REPAIR_EXHAUSTED, "2 repairs failed");
	m.repairs[MODULE_REPAIR_FAILED] = 0, m.repair_limit_reached = true, m.repairs[MODULE_REPAIR_DONE] = 5;
	REASON(MODULE_REPAIR_EXHAUSTED, "repair refused at its limit after 5 done");

	FRESH();
	m.pages_retired = 1;
	REASON(MODULE_ISOLATING, "1 page and 0 rows retired");
	m.pages_retired = 2, m.rows_retired = 1;
	REASON(MODULE_ISOLATING, "2 pages and 1 row retired");
	m.pages_retired = UINT32_MAX, m.rows_retired = UINT32_MAX;
	REASON(MODULE_ISOLATING, "4294967295 pages and 4294967295 rows retired");

	FRESH();
	m.corrected = 1;
	REASON(MODULE_WATCH, "1 corrected error");
	m.corrected = 2;
	module_pattern_add(&m.pattern, &cell, MODULE_CORRECTED);
	module_pattern_add(&m.pattern, &cell, MODULE_CORRECTED);
	assert_int_not_equal(dram_tracker_pattern(&m.pattern.tracker), DRAM_PATTERN_NONE);
	snprintf(want, sizeof(want), "2 corrected errors, pattern %s",
		 dram_pattern_to_string(dram_tracker_pattern(&m.pattern.tracker)));
	REASON(MODULE_WATCH, want);
	t.watch_corrected = 3;
	REASON(MODULE_OK, "2 corrected errors, below WatchCorrected=3");
	m.corrected = 1;
	REASON(MODULE_OK, "1 corrected error, below WatchCorrected=3");
	t.watch_corrected = 0, m.corrected = 7;
	REASON(MODULE_OK, "7 corrected errors, below WatchCorrected=0");

	/* Cut as snprintf() cuts; no buffer, or none of room, is the verdict alone. */
	FRESH();
	m.uncorrected = 3;
	assert_int_equal(module_verdict_of(&m, &t, reason, 10), MODULE_REPLACE);
	assert_string_equal(reason, "3 uncorre");
	reason[0] = 'x';
	assert_int_equal(module_verdict_of(&m, &t, reason, 1), MODULE_REPLACE);
	assert_string_equal(reason, "");
	assert_int_equal(module_verdict_of(&m, &t, NULL, 0), MODULE_REPLACE);
#undef FRESH
#undef REASON
}

static void test_uncorrected_after_row(void **state)
{
	struct module_ledger l;
	struct module_change c;
	struct module_id id = dimm("S1", "P1", "A1");
	struct module_error ue = ce_at(2, 0x4d2, 0x10, T0 + 100);
	char text[128];

	(void) state;
	module_ledger_init(&l, NULL);
	for (int i = 0; i < 12; i++)
		(void) add(&l, &id, ce_at(2, 0x4d2, (uint32_t) i, T0 + i), &c);
	assert_int_equal(l.e[0].verdict, MODULE_WATCH);
	module_pattern_describe(&l.e[0].pattern, text, sizeof(text));
	assert_string_equal(text, "single_row, 12 cells, 1 row, 12 columns, 1 bank");
	ue.severity = MODULE_UNCORRECTED;
	assert_int_equal(add(&l, &id, ue, &c), 1);
	assert_int_equal(c.from, MODULE_WATCH);
	assert_int_equal(c.to, MODULE_REPLACE);
	assert_string_equal(l.e[0].reason, "uncorrected error after 12 corrected on row 0x4d2");
	assert_string_equal(l.e[0].last_error, "uncorrected bank 2 row 0x4d2 column 0x10");
	assert_int_equal(l.e[0].first_usec, T0);
	assert_int_equal(l.e[0].last_usec, T0 + 100);
	module_ledger_done(&l);
}

static void test_isolating_and_exhausted(void **state)
{
	struct module_ledger l;
	struct module_change c;
	struct module_id id;

	(void) state;
	assert_int_equal(module_id_cxl(0xabc, "mem0", MACHINE, &id), 0);
	module_ledger_init(&l, NULL);
	assert_int_equal(module_ledger_retired(&l, &id, 1, 0, &c), 1);
	assert_int_equal(c.to, MODULE_ISOLATING);
	assert_string_equal(c.module->reason, "1 page and 0 rows retired");
	assert_int_equal(module_ledger_repair(&l, &id, MODULE_REPAIR_DONE, false, &c), 0);
	assert_int_equal(module_ledger_spares(&l, &id, 2, &c), 0);
	assert_int_equal(module_ledger_spares(&l, &id, 0, &c), 1);
	assert_int_equal(c.from, MODULE_ISOLATING);
	assert_int_equal(c.to, MODULE_REPAIR_EXHAUSTED);
	assert_string_equal(l.e[0].reason, "no spare left after 1 repair");
	assert_int_equal(module_ledger_repair(&l, &id, _MODULE_REPAIR_MAX, false, &c), -EINVAL);
	module_ledger_done(&l);

	module_ledger_init(&l, NULL);
	assert_int_equal(module_ledger_repair(&l, &id, MODULE_REPAIR_REFUSED, false, &c), 0);
	assert_int_equal(module_ledger_repair(&l, &id, MODULE_REPAIR_REFUSED, true, &c), 1);
	assert_string_equal(l.e[0].reason, "repair refused at its limit after 0 done");
	module_ledger_done(&l);
}

static void test_banks(void **state)
{
	struct module_ledger l;
	struct module_change c;
	struct module_id id = dimm("S1", "P1", "A1");

	(void) state;
	module_ledger_init(&l, NULL);
	(void) add(&l, &id, ce_at(0, 1, 1, T0), &c);
	(void) add(&l, &id, ce_at(1, 1, 1, T0 + 1), &c);
	/* Two banks: one stray error in another bank condemns no module. */
	assert_int_equal(l.e[0].verdict, MODULE_WATCH);
	assert_int_equal(add(&l, &id, ce_at(2, 1, 1, T0 + 2), &c), 1);
	assert_int_equal(c.to, MODULE_REPLACE);
	assert_string_equal(l.e[0].reason, "errors in 3 banks: a multi-bank fault");
	module_ledger_done(&l);
}

static void test_moved_and_new_serial(void **state)
{
	struct module_ledger l;
	struct module_change c;
	struct module_id a1 = dimm("S1", "P1", "A1"), moved = dimm("S1", "P1", "B2"), fresh = dimm("S2", "P1", "A1");

	(void) state;
	module_ledger_init(&l, NULL);
	(void) add(&l, &a1, ce_at(0, 1, 1, T0), &c);
	(void) add(&l, &a1, ce_at(0, 1, 1, T0 + 1), &c);
	/* The module moved to B2: its history follows its serial. */
	(void) add(&l, &moved, ce_at(0, 1, 1, T0 + 2), &c);
	assert_int_equal(l.n, 1);
	assert_int_equal(l.e[0].corrected, 3);
	assert_string_equal(l.e[0].id.slot, "B2");
	/* Another serial in A1 starts fresh; the old one stays under its serial. */
	(void) add(&l, &fresh, ce_at(0, 1, 1, T0 + 3), &c);
	assert_int_equal(l.n, 2);
	assert_int_equal(module_ledger_find(&l, fresh.key)->corrected, 1);
	assert_int_equal(module_ledger_find(&l, a1.key)->corrected, 3);
	module_ledger_done(&l);
}

static void test_bound(void **state)
{
	struct module_ledger l;
	struct module_change c;
	struct module_id id;
	char serial[32];

	(void) state;
	module_ledger_init(&l, NULL);
	for (unsigned i = 0; i < MODULE_LEDGER_MAX; i++) {
		snprintf(serial, sizeof(serial), "S%u", i);
		id = dimm(serial, "P", "A1");
		assert_int_equal(add(&l, &id, ce_at(0, i, 0, T0), &c), 1);
	}
	id = dimm("one-too-many", "P", "A1");
	assert_int_equal(module_ledger_error(&l, &id, &(struct module_error) { .severity = MODULE_CORRECTED }, &c),
			 -ENOSPC);
	assert_int_equal(l.n, MODULE_LEDGER_MAX);
	assert_int_equal(l.n_refused, 1);
	/* Every one is still found through the index. */
	for (unsigned i = 0; i < MODULE_LEDGER_MAX; i++) {
		snprintf(serial, sizeof(serial), "S%u", i);
		id = dimm(serial, "P", "A1");
		assert_non_null(module_ledger_find(&l, id.key));
	}
	module_ledger_done(&l);
}

static void test_pattern_bound(void **state)
{
	struct module_ledger l;
	struct module_change c;
	struct module_id id = dimm("S1", "P1", "A1");
	char text[128];

	(void) state;
	module_ledger_init(&l, NULL);
	for (uint32_t i = 0; i < 100; i++)
		(void) add(&l, &id, ce_at(i % 40, i, i, T0 + i), &c);
	assert_int_equal(l.e[0].pattern.n_cells, MODULE_CELLS_MAX);
	assert_true(l.e[0].pattern.more_cells);
	assert_true(l.e[0].pattern.more_banks);
	module_pattern_describe(&l.e[0].pattern, text, sizeof(text));
	assert_string_equal(text, "multi_bank, 32+ cells, 32+ rows, 16+ columns, 32+ banks");
	module_ledger_done(&l);
}

static void problem(unsigned line, const char *what, void *userdata)
{
	char *buf = userdata;

	snprintf(buf + strlen(buf), 256 - strlen(buf), "%u: %s\n", line, what);
}

static void test_state_round_trip(void **state)
{
	struct module_ledger l, back;
	struct module_change c;
	struct module_id a = dimm("S 1=x%", "P1", "P1 DIMM A1"), b;
	_cleanup_free_ char *text = NULL, *again = NULL;
	char problems[256] = "";
	struct module_error ue = ce_at(3, 9, 9, T0 + 5);
	int n;

	(void) state;
	assert_int_equal(module_id_cxl(0, "mem1", MACHINE, &b), 0);
	module_ledger_init(&l, NULL);
	(void) add(&l, &a, ce_at(3, 9, 1, T0), &c);
	(void) add(&l, &a, ce_at(3, 9, 2, T0 + 1), &c);
	ue.severity = MODULE_UNCORRECTED;
	ue.have_rank = true;
	ue.rank = 1;
	(void) add(&l, &a, ue, &c);
	(void) module_ledger_retired(&l, &b, 2, 1, &c);
	(void) module_ledger_repair(&l, &b, MODULE_REPAIR_FAILED, false, &c);
	(void) module_ledger_spares(&l, &b, 5, &c);
	n = module_state_format(&l, &text);
	assert_true(n > 0);
	module_ledger_init(&back, NULL);
	assert_int_equal(module_state_parse(text, (size_t) n, &back, problem, problems), 0);
	assert_string_equal(problems, "");
	assert_int_equal(module_state_format(&back, &again), n);
	assert_string_equal(text, again);
	assert_int_equal(back.n, 2);
	assert_string_equal(back.e[0].id.serial, "S 1=x%");
	assert_string_equal(back.e[0].id.slot, "P1 DIMM A1");
	assert_string_equal(back.e[0].reason, l.e[0].reason);
	assert_int_equal(back.e[1].verdict, MODULE_REPAIR_EXHAUSTED);
	module_ledger_done(&back);
	module_ledger_done(&l);
}

static void test_state_damage(void **state)
{
	struct module_ledger l, back;
	struct module_change c;
	struct module_id a = dimm("S1", "P1", "A1"), b = dimm("S2", "P1", "A2");
	_cleanup_free_ char *text = NULL;
	char problems[256] = "", *p;
	int n;

	(void) state;
	module_ledger_init(&l, NULL);
	(void) add(&l, &a, ce_at(3, 9, 1, T0), &c);
	(void) add(&l, &b, ce_at(4, 9, 1, T0), &c);
	n = module_state_format(&l, &text);
	assert_true(n > 0);
	/* The first module's count damaged: it is told with its line and lost; the second is kept. */
	p = strstr(text, "corrected=1 ");
	assert_non_null(p);
	p[strlen("corrected=")] = 'x';
	module_ledger_init(&back, NULL);
	assert_int_equal(module_state_parse(text, (size_t) n, &back, problem, problems), 1);
	assert_string_equal(problems, "2: bad number in corrected=\n");
	assert_int_equal(back.n, 1);
	assert_string_equal(back.e[0].id.serial, "S2");
	assert_int_equal(back.e[0].pattern.n_cells, 1);
	module_ledger_done(&back);
	/* Another version: one problem, nothing read. */
	problems[0] = '\0';
	module_ledger_init(&back, NULL);
	assert_int_equal(module_state_parse("mcelogd-modules 2\n", 18, &back, problem, problems), 1);
	assert_int_equal(back.n, 0);
	assert_string_equal(problems, "1: not a version 1 module ledger (first line \"mcelogd-modules 1\")\n");
	module_ledger_done(&back);
	module_ledger_done(&l);
}

/* A record as the daemon sees it: a CPER memory section of slot A1 (SMBIOS), and a CXL DRAM event. */
static void test_records(void **state)
{
	struct smbios_memdev devs[2] = {
		{ .handle = 0x10, .locator = "A1", .serial = "1A2B", .part_number = "M393" },
		{ .handle = 0x11, .locator = "A2", .serial = "Not Specified" },
	};
	const struct module_host host = { .devs = devs, .n_devs = 2, .machine_id = MACHINE };
	struct module_record mr;
	struct ras_record r;
	struct rule_input in = { .ras = &r };

	(void) state;
	ras_record_init(&r, RAS_EVENT_FIRMWARE_MEMORY, MCE_SOURCE_RAS_EXTLOG_MEM_EVENT);
	r.severity = RAS_SEV_CORRECTED;
	assert_int_equal(ras_record_add_string(&r, "dimm_slot", "A1", 2), 0);
	assert_int_equal(ras_record_add_uint(&r, "bank", 3), 0);
	assert_int_equal(ras_record_add_uint(&r, "row", 0x4d2), 0);
	assert_int_equal(ras_record_add_uint(&r, "column", 8), 0);
	module_record_of(&in, T0, &host, &mr);
	assert_int_equal(mr.kind, MODULE_RECORD_ERROR);
	assert_string_equal(mr.id.key, "dimm|serial=1A2B|part=M393");
	assert_true(mr.error.have_cell);
	assert_int_equal(mr.error.cell.row, 0x4d2);
	ras_record_done(&r);

	ras_record_init(&r, RAS_EVENT_MEMORY_CONTROLLER, MCE_SOURCE_RAS_MC_EVENT);
	r.severity = RAS_SEV_UNCORRECTED;
	assert_int_equal(ras_record_add_string(&r, "dimm_slot", "A2", 2), 0);
	module_record_of(&in, T0, &host, &mr);
	assert_int_equal(mr.kind, MODULE_RECORD_ERROR);
	assert_int_equal(mr.error.severity, MODULE_UNCORRECTED);
	assert_true(mr.id.fallback);
	assert_string_equal(mr.id.key, "dimm|machine=" MACHINE "|slot=A2");
	ras_record_done(&r);

	/* An EDAC event of no one DIMM names no module. */
	ras_record_init(&r, RAS_EVENT_MEMORY_CONTROLLER, MCE_SOURCE_RAS_MC_EVENT);
	r.severity = RAS_SEV_CORRECTED;
	assert_int_equal(ras_record_add_string(&r, "label", "any memory", 10), 0);
	module_record_of(&in, T0, &host, &mr);
	assert_int_equal(mr.kind, MODULE_RECORD_NONE);
	ras_record_done(&r);

	ras_record_init(&r, RAS_EVENT_CXL_DRAM, MCE_SOURCE_CXL_DRAM);
	r.severity = RAS_SEV_CORRECTED;
	assert_int_equal(ras_record_add_string(&r, "memdev", "mem0", 4), 0);
	assert_int_equal(ras_record_add_uint(&r, "serial", 0x5678), 0);
	module_record_of(&in, T0, &host, &mr);
	assert_int_equal(mr.kind, MODULE_RECORD_ERROR);
	assert_string_equal(mr.id.key, "cxl|serial=0x5678|part=");
	assert_string_equal(mr.id.slot, "mem0");
	ras_record_done(&r);

	ras_record_init(&r, RAS_EVENT_CXL_MEMORY_SPARING, MCE_SOURCE_CXL_MEMORY_SPARING);
	assert_int_equal(ras_record_add_string(&r, "memdev", "mem0", 4), 0);
	assert_int_equal(ras_record_add_uint(&r, "serial", 0x5678), 0);
	assert_int_equal(ras_record_add_uint(&r, "spare_resources_available", 0), 0);
	module_record_of(&in, T0, &host, &mr);
	assert_int_equal(mr.kind, MODULE_RECORD_SPARES);
	assert_int_equal(mr.spares_left, 0);
	ras_record_done(&r);
}

/*
 * A record that names no slot nor label: its coordinates are its place,
 * "socket=1 mc=0 channel=2 dimm=3" (a CPER memory section's node and
 * module); a place that does not fit the slot's 95 characters names none
 * rather than a cut one that could be another DIMM's.
 */
static void test_record_coordinates(void **state)
{
	static const struct {
		uint64_t socket, channel, dimm;
		bool have_mc;
		uint64_t mc;
		const char *slot;   /* NULL: no module */
	} cases[] = {
		{ 1, 2, 3, true, 0, "socket=1 mc=0 channel=2 dimm=3" },
		{ 0, 10, 0, false, 0, "socket=0 channel=10 dimm=0" },
		/* 26 characters of names and blanks, 69 digits: 95, the most that fits */
		{ UINT64_MAX, UINT64_MAX, 999999999, true, UINT64_MAX,
		  "socket=18446744073709551615 mc=18446744073709551615 channel=18446744073709551615 dimm=999999999" },
		{ UINT64_MAX, UINT64_MAX, 1000000000, true, UINT64_MAX, NULL },
		{ UINT64_MAX, UINT64_MAX, UINT64_MAX, true, UINT64_MAX, NULL },
	};
	const struct module_host host = { .machine_id = MACHINE };
	struct module_record mr;
	struct ras_record r;
	struct rule_input in = { .ras = &r };
	char key[MODULE_KEY_MAX];

	(void) state;
	for (size_t i = 0; i < ELEMENTSOF(cases); i++) {
		ras_record_init(&r, RAS_EVENT_FIRMWARE_MEMORY, MCE_SOURCE_RAS_EXTLOG_MEM_EVENT);
		r.severity = RAS_SEV_CORRECTED;
		assert_int_equal(ras_record_add_uint(&r, "node", cases[i].socket), 0);
		if (cases[i].have_mc)
			assert_int_equal(ras_record_add_uint(&r, "mc", cases[i].mc), 0);
		assert_int_equal(ras_record_add_uint(&r, "channel", cases[i].channel), 0);
		assert_int_equal(ras_record_add_uint(&r, "module", cases[i].dimm), 0);
		module_record_of(&in, T0, &host, &mr);
		if (!cases[i].slot) {
			assert_int_equal(mr.kind, MODULE_RECORD_NONE);
		} else {
			assert_int_equal(mr.kind, MODULE_RECORD_ERROR);
			assert_string_equal(mr.id.slot, cases[i].slot);
			snprintf(key, sizeof(key), "dimm|machine=%s|slot=%s", MACHINE, cases[i].slot);
			assert_string_equal(mr.id.key, key);
		}
		ras_record_done(&r);
	}

	/* Without its DIMM a channel names no module. */
	ras_record_init(&r, RAS_EVENT_FIRMWARE_MEMORY, MCE_SOURCE_RAS_EXTLOG_MEM_EVENT);
	r.severity = RAS_SEV_CORRECTED;
	assert_int_equal(ras_record_add_uint(&r, "node", 0), 0);
	assert_int_equal(ras_record_add_uint(&r, "channel", 1), 0);
	module_record_of(&in, T0, &host, &mr);
	assert_int_equal(mr.kind, MODULE_RECORD_NONE);
	ras_record_done(&r);
}

/*
 * A place that an override names (slots.d: "socket=1 mc=0 channel=2 dimm=3
 * = A1", a board whose EDAC driver gives no label): the DIMM in that slot,
 * by its serial; an override naming a slot no SMBIOS structure has keys it
 * by that slot; a place no override names stays a place.
 */
static void test_record_place_override(void **state)
{
	static const char conf[] = "socket=1 mc=0 channel=2 dimm=3 = A1\n"
				   "socket=1 mc=0 channel=2 dimm=4=P9-DIMMZ9\n";
	const struct smbios_memdev devs[1] = {
		{ .handle = 0x10, .locator = "A1", .serial = "1A2B", .part_number = "M393" },
	};
	static const struct {
		uint64_t dimm;
		const char *key;
	} cases[] = {
		{ 3, "dimm|serial=1A2B|part=M393" },
		{ 4, "dimm|machine=" MACHINE "|slot=P9-DIMMZ9" },
		{ 5, "dimm|machine=" MACHINE "|slot=socket=1 mc=0 channel=2 dimm=5" },
	};
	struct dimm_slots overrides = {};
	struct module_record mr;
	struct ras_record r;
	struct rule_input in = { .ras = &r };

	(void) state;
	assert_int_equal(dimm_slots_parse(&overrides, "board.conf", conf, sizeof(conf) - 1, NULL, NULL), 0);
	assert_int_equal(overrides.n, 2);
	for (size_t i = 0; i < ELEMENTSOF(cases); i++) {
		const struct module_host host = { .devs = devs, .n_devs = 1, .overrides = &overrides,
						  .machine_id = MACHINE };

		ras_record_init(&r, RAS_EVENT_FIRMWARE_MEMORY, MCE_SOURCE_RAS_EXTLOG_MEM_EVENT);
		r.severity = RAS_SEV_CORRECTED;
		assert_int_equal(ras_record_add_uint(&r, "node", 1), 0);
		assert_int_equal(ras_record_add_uint(&r, "mc", 0), 0);
		assert_int_equal(ras_record_add_uint(&r, "channel", 2), 0);
		assert_int_equal(ras_record_add_uint(&r, "module", cases[i].dimm), 0);
		module_record_of(&in, T0, &host, &mr);
		assert_int_equal(mr.kind, MODULE_RECORD_ERROR);
		assert_string_equal(mr.id.key, cases[i].key);
		ras_record_done(&r);
	}
	dimm_slots_done(&overrides);
}

static unsigned count_lines(const char *text, const char *prefix)
{
	unsigned n = 0;

	for (const char *p = text; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL)
		if (strncmp(p, prefix, strlen(prefix)) == 0)
			n++;
	return n;
}

/* The metrics: one verdict series per module, the bound cuts whole modules, healthy ones first. */
static void test_metrics(void **state)
{
	struct module_ledger l;
	struct module_change c;
	struct module_id a = dimm("S\"1", "P1", "A1"), b = dimm("S2", "P1", "A2"), x;
	struct module_error ue = ce_at(2, 0x4d2, 1, T0 + 9);
	_cleanup_free_ char *text = NULL, *cut = NULL;
	uint64_t dropped = 7;
	int n;

	(void) state;
	assert_int_equal(module_id_cxl(0x77, "mem0", MACHINE, &x), 0);
	module_ledger_init(&l, NULL);
	(void) add(&l, &b, ce_at(1, 1, 1, T0), &c);
	(void) add(&l, &a, ce_at(2, 0x4d2, 1, T0), &c);
	ue.severity = MODULE_UNCORRECTED;
	(void) add(&l, &a, ue, &c);
	(void) module_ledger_repair(&l, &x, MODULE_REPAIR_DONE, false, &c);
	n = module_prom_format(&l, 4096, &text, &dropped);
	assert_true(n > 0);
	assert_int_equal(dropped, 0);
	assert_int_equal(count_lines(text, "mcelogd_module_verdict{"), 3);
	assert_non_null(strstr(text, "mcelogd_module_verdict{kind=\"dimm\",slot=\"A1\",serial=\"S\\\"1\",verdict=\"replace\","
				     "reason=\"uncorrected error after 1 corrected on row 0x4d2\"} 1\n"));
	assert_non_null(strstr(text, "mcelogd_module_errors_total{kind=\"dimm\",slot=\"A2\",serial=\"S2\","
				     "severity=\"corrected\"} 1\n"));
	assert_non_null(strstr(text, "mcelogd_module_repairs_total{kind=\"cxl\",slot=\"mem0\",serial=\"0x77\","
				     "outcome=\"done\"} 1\n"));
	/* DIMMs without repairs have no repair series. */
	assert_int_equal(count_lines(text, "mcelogd_module_repairs_total{"), 3);
	assert_int_equal(count_lines(text, "# TYPE mcelogd_module_errors_total counter"), 1);
	assert_int_equal(count_lines(text, "# TYPE mcelogd_module_pages_retired gauge"), 1);
	/* Room for one DIMM (4 series) and a little: the worst is shown whole, the rest dropped. */
	n = module_prom_format(&l, 6, &cut, &dropped);
	assert_true(n > 0);
	assert_int_equal(count_lines(cut, "mcelogd_module_verdict{"), 1);
	assert_non_null(strstr(cut, "verdict=\"replace\""));
	assert_int_equal(dropped, 4 + 7);
	module_ledger_done(&l);
}

/* An error taken back: a module left with nothing leaves the ledger, the others stay found. */
static void test_uncount(void **state)
{
	struct module_ledger l;
	struct module_change c;
	struct module_id a = dimm("S1", "P1", "A1"), b = dimm("S2", "P1", "A2"), d = dimm("S3", "P1", "A3");

	(void) state;
	module_ledger_init(&l, NULL);
	(void) add(&l, &a, ce_at(0, 1, 1, T0), &c);
	(void) add(&l, &b, ce_at(0, 1, 1, T0), &c);
	(void) add(&l, &b, ce_at(0, 1, 1, T0 + 1), &c);
	(void) add(&l, &d, ce_at(0, 1, 1, T0), &c);
	assert_int_equal(module_ledger_uncount(&l, a.key, MODULE_CORRECTED, &c), 0);
	assert_int_equal(l.n, 2);
	assert_null(module_ledger_find(&l, a.key));
	assert_int_equal(module_ledger_find(&l, b.key)->corrected, 2);
	assert_int_equal(module_ledger_find(&l, d.key)->corrected, 1);
	/* The second of two: the module stays, its verdict settles. */
	assert_int_equal(module_ledger_uncount(&l, b.key, MODULE_CORRECTED, &c), 0);
	assert_int_equal(module_ledger_find(&l, b.key)->corrected, 1);
	assert_int_equal(module_ledger_uncount(&l, a.key, MODULE_CORRECTED, &c), -ENOENT);
	module_ledger_done(&l);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_keys),
		cmocka_unit_test(test_thresholds_edges),
		cmocka_unit_test(test_reasons),
		cmocka_unit_test(test_uncorrected_after_row),
		cmocka_unit_test(test_isolating_and_exhausted),
		cmocka_unit_test(test_banks),
		cmocka_unit_test(test_moved_and_new_serial),
		cmocka_unit_test(test_bound),
		cmocka_unit_test(test_pattern_bound),
		cmocka_unit_test(test_state_round_trip),
		cmocka_unit_test(test_state_damage),
		cmocka_unit_test(test_records),
		cmocka_unit_test(test_record_coordinates),
		cmocka_unit_test(test_record_place_override),
		cmocka_unit_test(test_metrics),
		cmocka_unit_test(test_uncount),
	};

	return cmocka_run_group_tests_name("module-ledger", tests, NULL, NULL);
}
