/* SPDX-License-Identifier: MIT */
/*
 * rules/row-pages: the pages seen on a DRAM row, its crossing, pages seen
 * after it, the bounds, and the rows' round trip through the state file.
 * Records are EDAC ras:mc_events as i10nm_edac's firmware decode gives them
 * (the cell of tests/data/dram/README's real Ice Lake-SP error), run through
 * the real rule parser, engine and row code as the daemon runs them.
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

#include "macro.h"
#include "ras-record.h"
#include "row-pages.h"
#include "rule-engine.h"
#include "rule-state.h"

#define SEC UINT64_C(1000000)
#define HOUR (3600 * SEC)
#define DAY (24 * HOUR)
#define T0 (UINT64_C(1795168800) * SEC)

static const char rules[] =
	"[Rule]\nName=row\nMatch=kind=memory_controller severity=corrected\n"
	"Key=label rank bank_group dram_bank row\nThreshold=3 in 24h\nAction=alert offline-row\n";

#define ROW_KEY "label=CPU_SrcID#0_MC#3_Chan#0_DIMM#0 rank=1 bank_group=2 dram_bank=0 row=15105"

struct run {
	struct rule_set set;
	struct rule_engine *engine;
	struct rule_state state;
	unsigned firings;
	uint64_t at_once[8];
	unsigned n_at_once;
	uint64_t isolated[RULE_STATE_ROW_PAGES];   /* the pages the last firing offlines */
	unsigned n_isolated;
};

static void on_fire(const struct rule_firing *f, void *userdata)
{
	struct run *r = userdata;
	const struct rule_state_row *row;

	r->firings++;
	row = row_pages_isolate(&r->state, f->rule->name, f->key, f->now_usec, f->window_usec);
	assert_non_null(row);
	r->n_isolated = row->n_pages;
	for (unsigned i = 0; i < row->n_pages; i++)
		r->isolated[i] = row->pages[i].pfn;
}

static void on_row_page(const struct rule *rule, const struct rule_state_row *row, uint64_t pfn, void *userdata)
{
	struct run *r = userdata;

	(void) rule;
	assert_string_equal(row->key, ROW_KEY);
	assert_true(r->n_at_once < ELEMENTSOF(r->at_once));
	r->at_once[r->n_at_once++] = pfn;
}

static void start(struct run *r)
{
	*r = (struct run) { 0 };
	rule_set_init(&r->set);
	assert_int_equal(rule_set_parse(&r->set, rules, strlen(rules), "t.rules", NULL, NULL), 0);
	assert_int_equal(rule_engine_new(&r->set, 0, &r->engine), 0);
}

static void stop(struct run *r)
{
	rule_engine_free(r->engine);
	rule_set_done(&r->set);
	rule_state_done(&r->state);
}

/* One corrected error on row 0x3b01 (or `row`), at address addr, at time t: as the daemon feeds it. */
static void error_at(struct run *r, uint64_t row, uint64_t addr, uint64_t t)
{
	static const char label[] = "CPU_SrcID#0_MC#3_Chan#0_DIMM#0";
	struct ras_record rec;
	struct rule_input in = { .ras = &rec };

	ras_record_init(&rec, RAS_EVENT_MEMORY_CONTROLLER, MCE_SOURCE_REPLAY);
	rec.severity = RAS_SEV_CORRECTED;
	assert_int_equal(ras_record_add_string(&rec, "label", label, sizeof(label)), 0);
	assert_int_equal(ras_record_add_hex64(&rec, "address", addr), 0);
	assert_int_equal(ras_record_add_uint(&rec, "grain", 32), 0);
	assert_int_equal(ras_record_add_uint(&rec, "rank", 1), 0);
	assert_int_equal(ras_record_add_uint(&rec, "bank_group", 2), 0);
	assert_int_equal(ras_record_add_uint(&rec, "bank", 0), 0);
	assert_int_equal(ras_record_add_uint(&rec, "row", row), 0);
	assert_int_equal(row_pages_input(&r->state, &r->set, &in, t, on_row_page, r), 0);
	assert_true(rule_engine_feed(r->engine, &in, t, on_fire, r) >= 0);
	ras_record_done(&rec);
}

/* Three errors over three pages cross "3 in 24h": all three pages, each once; a fourth page at once. */
static void test_crossing_and_later_page(void **state)
{
	struct run r;

	(void) state;
	start(&r);
	error_at(&r, 0x3b01, 0x7e025e400, T0);
	error_at(&r, 0x3b01, 0x7e025f400, T0 + HOUR);
	assert_int_equal(r.firings, 0);
	assert_int_equal(r.n_at_once, 0);
	error_at(&r, 0x3b01, 0x7e0260400, T0 + 2 * HOUR);
	assert_int_equal(r.firings, 1);
	assert_int_equal(r.n_isolated, 3);
	assert_int_equal(r.isolated[0], 0x7e025e);
	assert_int_equal(r.isolated[1], 0x7e025f);
	assert_int_equal(r.isolated[2], 0x7e0260);
	/* Nothing "at once" yet: the firing itself offlines those. */
	assert_int_equal(r.n_at_once, 0);
	/* A page seen before adds nothing; a new one is to be offlined at once, once. */
	error_at(&r, 0x3b01, 0x7e025e480, T0 + 3 * HOUR);
	assert_int_equal(r.n_at_once, 0);
	error_at(&r, 0x3b01, 0x7e0261400, T0 + 4 * HOUR);
	error_at(&r, 0x3b01, 0x7e0261440, T0 + 5 * HOUR);
	assert_int_equal(r.n_at_once, 1);
	assert_int_equal(r.at_once[0], 0x7e0261);
	/* Another row of the same DIMM is another row: its page waits for its own threshold. */
	error_at(&r, 0x3b02, 0x7e0300400, T0 + 6 * HOUR);
	assert_int_equal(r.n_at_once, 1);
	assert_int_equal(r.state.n_rows, 2);
	stop(&r);
}

/*
 * Exact windows: a page seen T or more before the row's latest record is no
 * longer the row's when it crosses; one seen just under T is.
 */
static void test_window_edges(void **state)
{
	struct run r;

	(void) state;
	start(&r);
	error_at(&r, 0x3b01, 0x7e025e400, T0);                   /* exactly T before the firing: gone */
	error_at(&r, 0x3b01, 0x7e025f400, T0 + 1);               /* T - 1 before it: kept */
	error_at(&r, 0x3b01, 0x7e0260400, T0 + DAY);             /* the count: 2 left in the window */
	assert_int_equal(r.firings, 0);
	error_at(&r, 0x3b01, 0x7e0260400, T0 + DAY);
	assert_int_equal(r.firings, 1);
	assert_int_equal(r.n_isolated, 2);
	assert_int_equal(r.isolated[0], 0x7e025f);
	assert_int_equal(r.isolated[1], 0x7e0260);
	stop(&r);
}

/* An isolated row keeps its pages for good: a page long after is still "seen before". */
static void test_isolated_rows_keep_pages(void **state)
{
	struct rule_state s = { 0 };

	(void) state;
	assert_int_equal(row_pages_note(&s, "row", "k", 0x10, T0, DAY), ROW_PAGE_KEPT);
	assert_non_null(row_pages_isolate(&s, "row", "k", T0, DAY));
	assert_int_equal(row_pages_note(&s, "row", "k", 0x10, T0 + 30 * DAY, DAY), ROW_PAGE_KNOWN);
	assert_int_equal(row_pages_note(&s, "row", "k", 0x11, T0 + 30 * DAY, DAY), ROW_PAGE_OFFLINE_NOW);
	assert_int_equal(row_pages_find(&s, "row", "k")->n_pages, 2);
	/* The same key of another rule is another row. */
	assert_null(row_pages_find(&s, "other", "k"));
	assert_int_equal(row_pages_note(&s, "other", "k", 0x12, T0, DAY), ROW_PAGE_KEPT);
	rule_state_done(&s);
}

/* Bounds: pages past RULE_STATE_ROW_PAGES are not kept (counted), yet offlined at once on an isolated row. */
static void test_page_bound(void **state)
{
	struct rule_state s = { 0 };

	(void) state;
	for (unsigned i = 0; i < RULE_STATE_ROW_PAGES; i++)
		assert_int_equal(row_pages_note(&s, "row", "k", 0x100 + i, T0 + i, DAY), ROW_PAGE_KEPT);
	assert_int_equal(s.row_pages_dropped, 0);
	assert_int_equal(row_pages_note(&s, "row", "k", 0x999, T0 + 100, DAY), ROW_PAGE_KEPT);
	assert_int_equal(s.row_pages_dropped, 1);
	assert_int_equal(row_pages_find(&s, "row", "k")->n_pages, RULE_STATE_ROW_PAGES);
	assert_non_null(row_pages_isolate(&s, "row", "k", T0 + 200, DAY));
	assert_int_equal(row_pages_note(&s, "row", "k", 0x998, T0 + 300, DAY), ROW_PAGE_OFFLINE_NOW);
	assert_int_equal(s.row_pages_dropped, 2);
	rule_state_done(&s);
}

/* Rows past RULE_STATE_MAX_ROWS: the least recently seen makes room, an isolated one last. */
static void test_row_bound(void **state)
{
	struct rule_state s = { 0 };
	char key[32];

	(void) state;
	snprintf(key, sizeof(key), "row=0");
	assert_int_equal(row_pages_note(&s, "row", key, 1, T0, DAY), ROW_PAGE_KEPT);
	assert_non_null(row_pages_isolate(&s, "row", key, T0, DAY));    /* the oldest, but isolated */
	for (unsigned i = 1; i < RULE_STATE_MAX_ROWS; i++) {
		snprintf(key, sizeof(key), "row=%u", i);
		assert_int_equal(row_pages_note(&s, "row", key, i, T0 + i, DAY), ROW_PAGE_KEPT);
	}
	assert_int_equal(s.n_rows, RULE_STATE_MAX_ROWS);
	assert_int_equal(s.rows_evicted, 0);
	assert_int_equal(row_pages_note(&s, "row", "row=new", 7, T0 + DAY, DAY), ROW_PAGE_KEPT);
	assert_int_equal(s.n_rows, RULE_STATE_MAX_ROWS);
	assert_int_equal(s.rows_evicted, 1);
	assert_non_null(row_pages_find(&s, "row", "row=0"));     /* isolated: kept */
	assert_null(row_pages_find(&s, "row", "row=1"));         /* least recently seen of the others */
	assert_non_null(row_pages_find(&s, "row", "row=2"));
	assert_non_null(row_pages_find(&s, "row", "row=new"));
	rule_state_done(&s);
}

/* A restart (or a reboot): the rows go through the state file and an isolated row stays isolated. */
static void test_state_round_trip(void **state)
{
	struct run r;
	struct rule_state loaded;
	_cleanup_free_ char *text = NULL, *again = NULL;
	size_t len, len2;
	char why[256];
	const struct rule_state_row *row;

	(void) state;
	start(&r);
	error_at(&r, 0x3b01, 0x7e025e400, T0);
	error_at(&r, 0x3b01, 0x7e025f400, T0 + HOUR);
	error_at(&r, 0x3b01, 0x7e0260400, T0 + 2 * HOUR);
	assert_int_equal(r.firings, 1);
	error_at(&r, 0x3b02, 0x7e0300400, T0 + 3 * HOUR);        /* a row not isolated, one page */
	assert_int_equal(rule_state_format(&r.state, &text, &len), 0);
	assert_non_null(strstr(text, "row\trow\tlabel=CPU_SrcID#0_MC#3_Chan#0_DIMM#0 rank=1 bank_group=2 "
				     "dram_bank=0 row=15105\t"));
	assert_int_equal(rule_state_parse(text, len, &loaded, why, sizeof(why), NULL), 0);
	assert_int_equal(loaded.n_rows, 2);
	row = row_pages_find(&loaded, "row", ROW_KEY);
	assert_non_null(row);
	assert_int_equal(row->isolated_usec, T0 + 2 * HOUR);
	assert_int_equal(row->last_usec, T0 + 2 * HOUR);
	assert_int_equal(row->n_pages, 3);
	assert_int_equal(row->pages[2].pfn, 0x7e0260);
	assert_int_equal(row->pages[2].seen_usec, T0 + 2 * HOUR);
	assert_int_equal(rule_state_format(&loaded, &again, &len2), 0);
	assert_int_equal(len, len2);
	assert_memory_equal(text, again, len);
	/* After the restart a new page on the isolated row is offlined at once. */
	rule_state_done(&r.state);
	r.state = loaded;
	r.n_at_once = 0;
	error_at(&r, 0x3b01, 0x7e0261400, T0 + 4 * HOUR);
	assert_int_equal(r.n_at_once, 1);
	assert_int_equal(r.at_once[0], 0x7e0261);
	stop(&r);
}

/* Before a save: rows whose pages have all expired, or whose rule is gone, are dropped; crossed rows stay. */
static void test_prune(void **state)
{
	struct run r;

	(void) state;
	start(&r);
	error_at(&r, 0x3b01, 0x7e025e400, T0);
	error_at(&r, 0x3b01, 0x7e025f400, T0);
	error_at(&r, 0x3b01, 0x7e0260400, T0);                   /* crossed */
	error_at(&r, 0x3b02, 0x7e0300400, T0 + HOUR);            /* not crossed */
	assert_int_equal(r.state.n_rows, 2);
	assert_int_equal(row_pages_prune(&r.state, &r.set, T0 + HOUR + DAY - 1), 0);
	assert_int_equal(row_pages_prune(&r.state, &r.set, T0 + HOUR + DAY), 1);
	assert_int_equal(r.state.n_rows, 1);
	assert_non_null(row_pages_find(&r.state, "row", ROW_KEY));
	assert_int_equal(row_pages_prune(&r.state, &r.set, T0 + 365 * DAY), 0);
	/* A rule set without the rule (removed, or no longer offline-row): its rows go. */
	r.set.rules[0].actions &= ~RULE_ACTION_OFFLINE_ROW;
	assert_int_equal(row_pages_prune(&r.state, &r.set, T0 + HOUR), 1);
	assert_int_equal(r.state.n_rows, 0);
	stop(&r);
}

/* Which kept keys' labels name no one DIMM: rows an older version keyed by the kernel's placeholders. */
static void test_placeholder_keys(void **state)
{
	struct rule_state_row merged = { .rule = "row", .isolated_usec = T0, .last_usec = T0 };
	struct run r;

	(void) state;
	assert_false(row_key_names_no_dimm(ROW_KEY));
	assert_false(row_key_names_no_dimm("label=mc:0,socket:0,card:0,dimm:1 rank=0 bank_group=1 dram_bank=2 row=4660"));
	assert_false(row_key_names_no_dimm("label=mem0 channel=1 rank=0 bank_group=1 dram_bank=2 row=100"));
	assert_false(row_key_names_no_dimm("socket=1 dimm=2 rank=0 dram_bank=517 row=100"));
	/* A label with spaces runs to the next " field=", not to its first space. */
	assert_false(row_key_names_no_dimm("label=P0 CHANNEL A DIMM 0 rank=0 row=1"));
	assert_false(row_key_names_no_dimm("mc=0 label=unknown memory slot 3"));
	assert_true(row_key_names_no_dimm("label=unknown memory rank=0 bank_group=1 dram_bank=2 row=4660"));
	assert_true(row_key_names_no_dimm("label=any memory rank=0 bank_group=1 dram_bank=2 row=4660"));
	assert_true(row_key_names_no_dimm("label=DIMM_A1 or DIMM_B1 rank=0 row=1"));
	assert_true(row_key_names_no_dimm("mc=0 label=unknown memory"));
	assert_true(row_key_names_no_dimm("label= rank=0 row=1"));

	/* Such a row, isolated, is dropped at the next save; the row of a DIMM stays. */
	start(&r);
	error_at(&r, 0x3b01, 0x7e025e400, T0);
	error_at(&r, 0x3b01, 0x7e025f400, T0);
	error_at(&r, 0x3b01, 0x7e0260400, T0);
	snprintf(merged.key, sizeof(merged.key), "label=unknown memory rank=0 bank_group=1 dram_bank=2 row=4660");
	assert_int_equal(rule_state_add_row(&r.state, &merged), 0);
	assert_int_equal(r.state.n_rows, 2);
	assert_int_equal(row_pages_prune(&r.state, &r.set, T0 + HOUR), 1);
	assert_int_equal(r.state.n_rows, 1);
	assert_non_null(row_pages_find(&r.state, "row", ROW_KEY));
	stop(&r);
}

static void expect_bad(const char *row_line, const char *want)
{
	char text[1024], why[256];
	struct rule_state s;
	unsigned line = 0;

	snprintf(text, sizeof(text), "mcelogd-rules-state 1\n%s\n", row_line);
	assert_int_equal(rule_state_parse(text, strlen(text), &s, why, sizeof(why), &line), -EINVAL);
	assert_int_equal(line, 2);
	if (!strstr(why, want))
		fail_msg("'%s' does not say '%s'", why, want);
	assert_int_equal(s.n_rows, 0);
}

/* A damaged row line names the line and what is wrong with it. */
static void test_bad_rows(void **state)
{
	(void) state;
	expect_bad("row\tr\tk\t0\t5", "row: expected 6 fields, got 5");
	expect_bad("row\tr\tk\tx\t5\t", "isolation time 'x' is not a number");
	expect_bad("row\tr\tk\t0\t5\t0x10", "row: page '0x10' is not PFN@TIME");
	expect_bad("row\tr\tk\t0\t5\t0x1g@5", "page frame '0x1g' is not a number");
	expect_bad("row\tr\tk\t0\t5\t0x10@", "time '' is not a number");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_crossing_and_later_page),
		cmocka_unit_test(test_window_edges),
		cmocka_unit_test(test_isolated_rows_keep_pages),
		cmocka_unit_test(test_page_bound),
		cmocka_unit_test(test_row_bound),
		cmocka_unit_test(test_state_round_trip),
		cmocka_unit_test(test_prune),
		cmocka_unit_test(test_placeholder_keys),
		cmocka_unit_test(test_bad_rows),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
