/* SPDX-License-Identifier: MIT */
/* rules/rule-state: the state file's round trip, restarts in the middle of a count, damage. */
#include <errno.h>
#include <inttypes.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "decode.h"
#include "macro.h"
#include "row-pages.h"
#include "rule-state.h"

#define SEC UINT64_C(1000000)
#define HOUR (3600 * SEC)
#define T0 (UINT64_C(1795168800) * SEC)

static void sample(struct rule_state *s)
{
	const uint64_t times[] = { T0, T0 + 1, T0 + 2 };

	*s = (struct rule_state) { 0 };
	assert_int_equal(rule_state_add_bucket(s, "memory-page-ce", "page=0x12345", 0, times, 3), 0);
	/* Keys with the separator, a newline and '%' survive. */
	assert_int_equal(rule_state_add_bucket(s, "edac", "mc=0 label=A\tB\n100%", T0 + HOUR, NULL, 0), 0);
	assert_int_equal(rule_state_add_page(s, &(struct rule_state_page) {
		.pfn = 0x12345, .hard = false, .ok = true, .time_usec = T0 + 3,
		.boot_id = "0123456789abcdef0123456789abcdef" }), 0);
	assert_int_equal(rule_state_add_page(s, &(struct rule_state_page) {
		.pfn = 0xfffff, .hard = true, .ok = false, .time_usec = T0 + 4 }), 0);
	assert_int_equal(rule_state_add_alert(s, &(struct rule_state_alert) {
		.time_usec = T0 + 5, .rule = "memory-page-ce", .key = "page=0x12345" }), 0);
	/* Memory repairs: a soft one the kernel took in a boot, a hard one whose outcome a crash
	 * lost (its intent saved, no boot id), one whose repair write failed. */
	assert_int_equal(rule_state_add_repair(s, &(struct rule_state_repair) {
		.device = "mem0", .location = "mem0 row channel=2 rank=0 bank_group=1 bank=3 row=1234",
		.time_usec = T0 + 6, .status = RULE_STATE_REPAIR_DONE,
		.boot_id = "0123456789abcdef0123456789abcdef" }), 0);
	assert_int_equal(rule_state_add_repair(s, &(struct rule_state_repair) {
		.device = "serial=0xabc", .location = "serial=0xabc dpa=0x40\tx", .time_usec = T0 + 7,
		.status = RULE_STATE_REPAIR_INTENT, .hard = true }), 0);
	assert_int_equal(rule_state_add_repair(s, &(struct rule_state_repair) {
		.device = "mem1", .location = "mem1 rank channel=0 rank=1", .time_usec = T0 + 8,
		.status = RULE_STATE_REPAIR_FAILED }), 0);
}

static char *format(const struct rule_state *s, size_t *len)
{
	char *text = NULL;

	assert_int_equal(rule_state_format(s, &text, len), 0);
	assert_int_equal(strlen(text), *len);
	return text;
}

static void test_round_trip(void **state)
{
	struct rule_state a, b;
	_cleanup_free_ char *text = NULL, *again = NULL;
	size_t len, len2;
	char why[256];
	unsigned line = 99;

	(void) state;
	sample(&a);
	text = format(&a, &len);
	assert_int_equal(rule_state_parse(text, len, &b, why, sizeof(why), &line), 0);
	assert_int_equal(line, 0);
	assert_int_equal(b.n_buckets, 2);
	assert_string_equal(b.buckets[0]->rule, "memory-page-ce");
	assert_string_equal(b.buckets[0]->key, "page=0x12345");
	assert_int_equal(b.buckets[0]->n_times, 3);
	assert_int_equal(b.buckets[0]->times[2], T0 + 2);
	assert_string_equal(b.buckets[1]->key, "mc=0 label=A\tB\n100%");
	assert_int_equal(b.buckets[1]->holdoff_until, T0 + HOUR);
	assert_int_equal(b.buckets[1]->n_times, 0);
	assert_int_equal(b.n_pages, 2);
	/* The boot a page was offlined in survives; a page without one stays without. */
	assert_string_equal(b.pages[0].boot_id, "0123456789abcdef0123456789abcdef");
	assert_string_equal(b.pages[1].boot_id, "");
	assert_true(b.pages[1].hard);
	assert_false(b.pages[1].ok);
	assert_non_null(rule_state_find_page(&b, 0x12345));
	assert_null(rule_state_find_page(&b, 0x12346));
	assert_int_equal(b.n_alerts, 1);
	assert_int_equal(b.alerts[0].time_usec, T0 + 5);
	assert_int_equal(b.n_repairs, 3);
	assert_string_equal(b.repairs[0].device, "mem0");
	assert_string_equal(b.repairs[0].location, "mem0 row channel=2 rank=0 bank_group=1 bank=3 row=1234");
	assert_int_equal(b.repairs[0].time_usec, T0 + 6);
	assert_int_equal(b.repairs[0].status, RULE_STATE_REPAIR_DONE);
	assert_false(b.repairs[0].hard);
	assert_string_equal(b.repairs[0].boot_id, "0123456789abcdef0123456789abcdef");
	assert_string_equal(b.repairs[1].location, "serial=0xabc dpa=0x40\tx");
	assert_int_equal(b.repairs[1].status, RULE_STATE_REPAIR_INTENT);
	assert_true(b.repairs[1].hard);
	assert_string_equal(b.repairs[1].boot_id, "");
	assert_int_equal(b.repairs[2].status, RULE_STATE_REPAIR_FAILED);
	assert_string_equal(rule_state_repair_status_to_string(b.repairs[1].status), "intent");
	/* A request the kernel refused is taken out again: it spends no limit. */
	rule_state_remove_repair(&b, 1);
	assert_int_equal(b.n_repairs, 2);
	assert_string_equal(b.repairs[1].device, "mem1");
	rule_state_remove_repair(&b, 7);
	assert_int_equal(b.n_repairs, 2);
	rule_state_done(&b);
	assert_int_equal(rule_state_parse(text, len, &b, why, sizeof(why), &line), 0);
	/* Formatting what was parsed gives the same bytes. */
	again = format(&b, &len2);
	assert_int_equal(len, len2);
	assert_memory_equal(text, again, len);
	rule_state_done(&a);
	rule_state_done(&b);
}

/* Every prefix of a good file, and every single flipped byte, is refused. */
static void test_damage_detected(void **state)
{
	_cleanup_free_ char *text = NULL;
	struct rule_state a, b;
	size_t len;
	char why[256];
	unsigned line;

	(void) state;
	sample(&a);
	text = format(&a, &len);
	for (size_t cut = 0; cut < len; cut++) {
		assert_int_equal(rule_state_parse(text, cut, &b, why, sizeof(why), &line), -EINVAL);
		assert_int_equal(b.n_buckets + b.n_pages + b.n_alerts, 0);
		assert_true(why[0] != '\0');
	}
	for (size_t i = 0; i < len; i++) {
		text[i] ^= 0x01;
		if (rule_state_parse(text, len, &b, why, sizeof(why), &line) == 0)
			fail_msg("byte %zu flipped was accepted", i);
		text[i] ^= 0x01;
	}
	rule_state_done(&a);
}

static void expect_bad(const char *text, unsigned want_line, const char *want)
{
	struct rule_state s;
	char why[256];
	unsigned line;

	assert_int_equal(rule_state_parse(text, strlen(text), &s, why, sizeof(why), &line), -EINVAL);
	if (line != want_line || !strstr(why, want))
		fail_msg("'%s': got line %u '%s', expected line %u '%s'", text, line, why, want_line, want);
}

static void test_errors(void **state)
{
	(void) state;
	expect_bad("", 0, "empty file");
	expect_bad("hello\n", 1, "not a rules state file");
	expect_bad("mcelogd-rules-state 1\n", 0, "no end line: the file is truncated");
	expect_bad("mcelogd-rules-state 1\nbucket\tr\tk\t0\n", 2, "bucket: expected 5 fields, got 4");
	expect_bad("mcelogd-rules-state 1\nbucket\tr\tk\tx\t1\n", 2, "holdoff time 'x' is not a number");
	expect_bad("mcelogd-rules-state 1\nbucket\tr\tk\t0\t1,,2\n", 2, "time '' is not a number");
	expect_bad("mcelogd-rules-state 1\nbucket\tr\tk%4\t0\t1\n", 2, "bad escape in key");
	expect_bad("mcelogd-rules-state 1\npage\t0x1\tmedium\t0\tok\n", 2, "'medium' is neither soft nor hard");
	expect_bad("mcelogd-rules-state 1\npage\t0x1\tsoft\t0\tmaybe\n", 2, "'maybe' is none of ok, failed, pending, held");
	expect_bad("mcelogd-rules-state 1\npage\tzz\tsoft\t0\tok\n", 2, "page frame 'zz' is not a number");
	expect_bad("mcelogd-rules-state 1\npage\t0x1\tsoft\t0\tok\tBOOT\n", 2, "boot id 'BOOT' is not 32");
	expect_bad("mcelogd-rules-state 1\nalert\t1\tr\n", 2, "alert: expected 4 fields, got 3");
	expect_bad("mcelogd-rules-state 1\nfrob\t1\n", 2, "unknown item 'frob'");
	expect_bad("mcelogd-rules-state 1\nrepair\tmem0\tloc\t1\tdone\n", 2, "repair: expected 7 fields, got 5");
	expect_bad("mcelogd-rules-state 1\nrepair\tmem0\tloc\t1\tmaybe\t-\tsoft\n", 2,
		   "'maybe' is not done, failed or intent");
	expect_bad("mcelogd-rules-state 1\nrepair\tmem0\tloc\t1\tdone\t-\tfirm\n", 2, "'firm' is neither soft nor hard");
	expect_bad("mcelogd-rules-state 1\nrepair\tmem0\tloc\tx\tdone\t-\n", 2, "time 'x' is not a number");
	expect_bad("mcelogd-rules-state 1\nend\t5\t0\n", 2, "end line counts 5 lines, the file has 1");
	expect_bad("mcelogd-rules-state 1\nend\t1\t0\n", 2, "checksum mismatch");
	expect_bad("mcelogd-rules-state 1\nalert\t1\tr\tk", 2, "cut short");
}

/* A repair line of a file written before the persist field: read as hard, which never repeats it. */
static void test_old_repair_line(void **state)
{
	static const char body[] = "mcelogd-rules-state 1\nrepair\tmem0\tmem0 ppr dpa=0x2000 nibble_mask=0x21\t5\tdone\t-\n";
	struct rule_state s;
	char text[256], why[256];
	unsigned line;

	(void) state;
	snprintf(text, sizeof(text), "%send\t2\t%016" PRIx64 "\n", body, rule_state_key_hash(body));
	assert_int_equal(rule_state_parse(text, strlen(text), &s, why, sizeof(why), &line), 0);
	assert_int_equal(s.n_repairs, 1);
	assert_true(s.repairs[0].hard);
	assert_int_equal(s.repairs[0].status, RULE_STATE_REPAIR_DONE);
	rule_state_done(&s);
}

/* Offlining again in a new boot replaces the page's entry rather than adding one. */
static void test_set_page_replaces(void **state)
{
	struct rule_state s;

	(void) state;
	sample(&s);
	assert_int_equal(rule_state_set_page(&s, &(struct rule_state_page) {
		.pfn = 0x12345, .ok = false, .time_usec = T0 + 9, .boot_id = "fedcba9876543210fedcba9876543210" }), 0);
	assert_int_equal(s.n_pages, 2);
	assert_false(rule_state_find_page(&s, 0x12345)->ok);
	assert_string_equal(rule_state_find_page(&s, 0x12345)->boot_id, "fedcba9876543210fedcba9876543210");
	assert_int_equal(rule_state_set_page(&s, &(struct rule_state_page) { .pfn = 0x777, .ok = true }), 0);
	assert_int_equal(s.n_pages, 3);
	rule_state_done(&s);
}

static void test_alerts_bounded(void **state)
{
	struct rule_state s = { 0 };

	(void) state;
	for (unsigned i = 0; i < RULE_STATE_MAX_ALERTS + 10; i++)
		assert_int_equal(rule_state_add_alert(&s, &(struct rule_state_alert) {
			.time_usec = i, .rule = "r" }), 0);
	assert_int_equal(s.n_alerts, RULE_STATE_MAX_ALERTS);
	assert_int_equal(s.alerts[0].time_usec, 10);
	assert_int_equal(s.alerts[RULE_STATE_MAX_ALERTS - 1].time_usec, RULE_STATE_MAX_ALERTS + 9);
	rule_state_done(&s);
}

/* IA32_MCi_STATUS VAL|EN|MISCV|ADDRV, memory read on channel 0; MISC physical, LSB 12. */
static void memory_ce(struct mce_record *rec, struct mce_decoded *d, uint64_t addr)
{
	*rec = (struct mce_record) {
		.have = MCE_HAVE_CPU | MCE_HAVE_BANK | MCE_HAVE_STATUS | MCE_HAVE_ADDR | MCE_HAVE_MISC |
			MCE_HAVE_VENDOR | MCE_HAVE_CPUID,
		.source = MCE_SOURCE_TRACEPOINT, .cpu = 1, .bank = 7,
		.status = UINT64_C(0x9c00000000000090), .addr = addr, .misc = (2 << 6) | 12,
		.vendor = MCE_VENDOR_INTEL, .family = 6, .model = 0x8f,
	};
	mce_decode(rec, d);
}

/* Five errors, a restart through the state file, five more: the tenth fires. */
static void test_restart_keeps_count(void **state)
{
	_cleanup_(rule_engine_freep) struct rule_engine *e1 = NULL, *e2 = NULL;
	const char *rules = "[Rule]\nName=page\nMatch=component=memory severity=corrected\nKey=page\n"
			    "Threshold=10 in 24h\nAction=alert soft-offline\n";
	_cleanup_free_ char *text = NULL;
	struct rule_state saved = { 0 }, loaded;
	struct rule_set set;
	struct mce_record rec;
	struct mce_decoded d;
	struct rule_input in = { .mce = &rec, .decoded = &d };
	char why[128];
	size_t len;

	(void) state;
	rule_set_init(&set);
	assert_int_equal(rule_set_parse(&set, rules, strlen(rules), "t.rules", NULL, NULL), 0);
	memory_ce(&rec, &d, 0x12345678);
	assert_string_equal(mce_severity_to_string(d.severity), "corrected");

	assert_int_equal(rule_engine_new(&set, 0, &e1), 0);
	for (unsigned i = 0; i < 5; i++)
		assert_int_equal(rule_engine_feed(e1, &in, T0 + i * HOUR, NULL, NULL), 0);
	assert_int_equal(rule_state_capture(&saved, e1, T0 + 5 * HOUR), 0);
	text = NULL;
	assert_int_equal(rule_state_format(&saved, &text, &len), 0);
	e1 = rule_engine_free(e1);

	assert_int_equal(rule_state_parse(text, len, &loaded, why, sizeof(why), NULL), 0);
	assert_int_equal(rule_engine_new(&set, 0, &e2), 0);
	assert_int_equal(rule_state_restore(&loaded, e2), 0);
	for (unsigned i = 5; i < 9; i++)
		assert_int_equal(rule_engine_feed(e2, &in, T0 + i * HOUR, NULL, NULL), 0);
	assert_int_equal(rule_engine_feed(e2, &in, T0 + 9 * HOUR, NULL, NULL), 1);

	/* Captured a day later, the old times have left the window: nothing to save. */
	for (unsigned i = 0; i < 3; i++)
		assert_int_equal(rule_engine_feed(e2, &in, T0 + 10 * HOUR, NULL, NULL), 0);
	assert_int_equal(rule_state_capture(&saved, e2, T0 + 34 * HOUR), 0);
	assert_int_equal(saved.n_buckets, 0);
	assert_int_equal(rule_state_capture(&saved, e2, T0 + 34 * HOUR - 1), 0);
	assert_int_equal(saved.n_buckets, 1);
	assert_int_equal(saved.buckets[0]->n_times, 3);

	e2 = rule_engine_free(e2);
	rule_state_done(&saved);
	rule_state_done(&loaded);
	rule_set_done(&set);
}

/* The journal beside the state: page lines replace entries in order; a torn last line is skipped. */
static void test_journal(void **state)
{
	struct rule_state s = { 0 };
	struct rule_state_page p = { .pfn = 0x42, .pending = true, .time_usec = 7 };
	_cleanup_free_ char *a = NULL, *b = NULL;
	char text[2048], why[256];
	size_t na, nb;
	unsigned line;

	(void) state;
	snprintf(p.boot_id, sizeof(p.boot_id), "0123456789abcdef0123456789abcdef");
	snprintf(p.identity, sizeof(p.identity), "slot=DIMM A1;serial=-");
	assert_int_equal(rule_state_format_page(&p, &a, &na), 0);
	p.pending = false;
	p.ok = true;
	assert_int_equal(rule_state_format_page(&p, &b, &nb), 0);
	assert_int_equal(rule_state_add_page(&s, &(struct rule_state_page) { .pfn = 0x41, .ok = true }), 0);
	/* The intent, then its outcome, then a line cut by a crash mid-append: said, not applied. */
	snprintf(text, sizeof(text), "%s%spage\t0x43\tsoft", a, b);
	assert_int_equal(rule_state_apply_journal(&s, text, strlen(text), NULL, why, sizeof(why), &line),
			 RULE_JOURNAL_CUT);
	assert_int_equal(line, 3);
	assert_non_null(strstr(why, "cut short"));
	assert_int_equal(s.n_pages, 2);
	assert_true(rule_state_find_page(&s, 0x42)->ok);
	assert_false(rule_state_find_page(&s, 0x42)->pending);
	assert_string_equal(rule_state_find_page(&s, 0x42)->identity, "slot=DIMM A1;serial=-");
	assert_null(rule_state_find_page(&s, 0x43));
	/* Only the intent: the outcome never made it. */
	assert_int_equal(rule_state_apply_journal(&s, a, na, NULL, why, sizeof(why), &line), 0);
	assert_true(rule_state_find_page(&s, 0x42)->pending);
	assert_int_equal(rule_state_apply_journal(&s, "bogus\tr\tk\t0\t1\n", 15, NULL, why, sizeof(why), &line),
			 -EINVAL);
	assert_int_equal(line, 1);
	assert_non_null(strstr(why, "unknown item 'bogus'"));
	rule_state_done(&s);
}


/* Appends what changed (rule_state_format_changes) to j, then marks it on disk. */
static void flush_to(struct rule_state *s, struct rule_engine *e, char *j, size_t size, const char *want)
{
	_cleanup_free_ char *text = NULL;
	size_t len = 99;

	assert_int_equal(rule_state_format_changes(s, e, &text, &len), 0);
	if (!want) {
		assert_null(text);
		assert_int_equal(len, 0);
		return;
	}
	assert_non_null(text);
	assert_int_equal(strlen(text), len);
	assert_non_null(strstr(text, want));
	assert_true(strlen(j) + len < size);
	strcat(j, text);
	rule_state_changes_done(s, e);
}

/* The buckets of a and b hold the same times and holdoffs, each found by rule and key. */
static void assert_same_buckets(const struct rule_state *a, const struct rule_state *b)
{
	assert_int_equal(a->n_buckets, b->n_buckets);
	for (unsigned i = 0; i < a->n_buckets; i++) {
		const struct rule_state_bucket *x = a->buckets[i], *y = NULL;

		for (unsigned k = 0; k < b->n_buckets && !y; k++)
			if (streq(b->buckets[k]->rule, x->rule) && streq(b->buckets[k]->key, x->key))
				y = b->buckets[k];
		assert_non_null(y);
		assert_int_equal(x->holdoff_until, y->holdoff_until);
		assert_int_equal(x->n_times, y->n_times);
		assert_memory_equal(x->times, y->times, x->n_times * sizeof(x->times[0]));
	}
}

struct journal_run {
	struct rule_set set;
	struct rule_engine *live;
	char *state_text;           /* the state as last written whole */
	size_t state_len;
	char journal[16384];        /* the lines appended since, after their base line */
};

/*
 * A live engine, written whole after 5 records on page A, then two seconds
 * of changes journalled: 2 more on A (a count line of 2 times), a new page
 * B (a bucket line), then A up to its tenth record, which fires and
 * empties it (a bucket line with its holdoff).  The "rate" rule (4 in 24h,
 * no key) fires on the way and starts afresh.
 */
static void journal_run(struct journal_run *j)
{
	const char *rules = "[Rule]\nName=page\nMatch=component=memory severity=corrected\nKey=page\n"
			    "Threshold=10 in 24h\nHoldoff=1h\nAction=alert\n"
			    "[Rule]\nName=rate\nMatch=component=memory severity=corrected\n"
			    "Threshold=4 in 24h\nAction=alert\n";
	struct rule_state s = { 0 }, parsed;
	static struct mce_record rec;
	static struct mce_decoded d;
	struct rule_input in = { .mce = &rec, .decoded = &d };
	char why[128];
	uint64_t t = T0;

	*j = (struct journal_run) { 0 };
	rule_set_init(&j->set);
	assert_int_equal(rule_set_parse(&j->set, rules, strlen(rules), "t.rules", NULL, NULL), 0);
	assert_int_equal(rule_engine_new(&j->set, 0, &j->live), 0);
	memory_ce(&rec, &d, 0xa000);
	for (unsigned i = 0; i < 5; i++)
		(void) rule_engine_feed(j->live, &in, t += SEC, NULL, NULL);
	assert_int_equal(rule_state_capture(&s, j->live, t), 0);
	assert_int_equal(rule_state_format(&s, &j->state_text, &j->state_len), 0);
	rule_state_changes_done(&s, j->live);
	assert_int_equal(rule_state_parse(j->state_text, j->state_len, &parsed, why, sizeof(why), NULL), 0);
	assert_true(parsed.has_file_sum);
	rule_state_format_base(&parsed, j->journal, sizeof(j->journal));
	rule_state_done(&parsed);

	for (unsigned i = 0; i < 2; i++)
		(void) rule_engine_feed(j->live, &in, t += SEC, NULL, NULL);
	memory_ce(&rec, &d, 0xb000);
	(void) rule_engine_feed(j->live, &in, t += SEC, NULL, NULL);
	flush_to(&s, j->live, j->journal, sizeof(j->journal), "count\tpage\tpage=0xa\t");
	assert_non_null(strstr(j->journal, "bucket\tpage\tpage=0xb\t0\t"));
	/* Only the two records since the write: two times on the count line. */
	{
		const char *c = strstr(j->journal, "count\tpage\tpage=0xa\t");
		const char *nl = strchr(c, '\n'), *comma = strchr(c, ',');

		assert_true(comma && comma < nl && !memchr(comma + 1, ',', (size_t) (nl - comma - 1)));
	}
	/* Nothing since: nothing to append. */
	flush_to(&s, j->live, j->journal, sizeof(j->journal), NULL);
	memory_ce(&rec, &d, 0xa000);
	for (unsigned i = 0; i < 3; i++)
		(void) rule_engine_feed(j->live, &in, t += SEC, NULL, NULL);
	flush_to(&s, j->live, j->journal, sizeof(j->journal), "bucket\tpage\tpage=0xa\t");
	rule_state_done(&s);
}

static void journal_run_done(struct journal_run *j)
{
	j->live = rule_engine_free(j->live);
	free(j->state_text);
	rule_set_done(&j->set);
}

/* The state read back with a journal over it, restored: what the live engine counts. */
static void restored(const struct journal_run *j, const char *journal, size_t len, int want,
		     struct rule_state *ret)
{
	_cleanup_(rule_engine_freep) struct rule_engine *e = NULL;
	struct rule_state s;
	char why[256], base[64];
	unsigned line;

	assert_int_equal(rule_state_parse(j->state_text, j->state_len, &s, why, sizeof(why), NULL), 0);
	rule_state_format_base(&s, base, sizeof(base));
	assert_int_equal(rule_state_apply_journal(&s, journal, len, base, why, sizeof(why), &line), want);
	assert_int_equal(rule_engine_new(&j->set, 0, &e), 0);
	assert_int_equal(rule_state_restore(&s, e), 0);
	rule_state_done(&s);
	*ret = (struct rule_state) { 0 };
	assert_int_equal(rule_state_capture(ret, e, T0 + HOUR), 0);
}

/* State and journal restored give the live engine's counts: appended times, new and emptied buckets. */
static void test_journal_counts(void **state)
{
	struct journal_run j;
	struct rule_state live = { 0 }, back;

	(void) state;
	journal_run(&j);
	assert_int_equal(rule_state_capture(&live, j.live, T0 + HOUR), 0);
	restored(&j, j.journal, strlen(j.journal), 0, &back);
	assert_same_buckets(&live, &back);
	/* The page fired: empty, resting for its hour. */
	for (unsigned i = 0; i < back.n_buckets; i++)
		if (streq(back.buckets[i]->key, "page=0xa")) {
			assert_int_equal(back.buckets[i]->n_times, 0);
			assert_true(back.buckets[i]->holdoff_until > T0);
		}
	rule_state_done(&back);
	rule_state_done(&live);
	journal_run_done(&j);
}

/*
 * A journal older than the state (a crash between the state's write and
 * the journal's removal) is not applied: its count lines are in the state,
 * and applying them again would count their records twice.
 */
static void test_journal_stale(void **state)
{
	struct journal_run j;
	struct rule_state s;
	char why[256];
	unsigned line, n;

	(void) state;
	journal_run(&j);
	assert_int_equal(rule_state_parse(j.state_text, j.state_len, &s, why, sizeof(why), NULL), 0);
	n = s.n_buckets;
	assert_int_equal(rule_state_apply_journal(&s, j.journal, strlen(j.journal), "base\t0123456789abcdef\n", why,
						  sizeof(why), &line), -ESTALE);
	assert_int_equal(line, 1);
	assert_non_null(strstr(why, "another state"));
	assert_int_equal(s.n_buckets, n);
	assert_int_equal(s.buckets[0]->n_times, 5);
	rule_state_done(&s);
	journal_run_done(&j);
}

/*
 * Cut anywhere (a crash during an append), a journal applies every whole
 * line before the cut and says the cut one, never refused.
 */
static void test_journal_cut_anywhere(void **state)
{
	struct journal_run j;
	size_t len;

	(void) state;
	journal_run(&j);
	len = strlen(j.journal);
	for (size_t cut = 1; cut < len; cut++) {
		struct rule_state a, b;
		size_t whole = cut;

		while (whole > 0 && j.journal[whole - 1] != '\n')
			whole--;
		restored(&j, j.journal, cut, whole == cut ? 0 : RULE_JOURNAL_CUT, &a);
		restored(&j, j.journal, whole, 0, &b);
		assert_same_buckets(&a, &b);
		rule_state_done(&a);
		rule_state_done(&b);
	}
	journal_run_done(&j);
}

/* Damaged lines are refused with their line and why; the lines before them stay applied. */
static void test_journal_hostile(void **state)
{
	static const struct {
		const char *line;
		const char *why;
	} cases[] = {
		{ "count\tpage\tpage=0x1\n", "count: expected 4 fields" },
		{ "count\tpage\tpage=0x1\t\n", "count: no time" },
		{ "count\tpage\tpage=0x1\t1,x\n", "time 'x' is not a number" },
		{ "count\tpage\tpage=0x1\t1,,2\n", "time '' is not a number" },
		{ "count\tpage\tpage=0x1\t-1\n", "is not a number" },
		{ "count\tpage\tpage=%zz\t1\n", "bad escape in key" },
		{ "count\tpage\tpage=0x1\t1\textra\n", "count: expected 4 fields" },
		{ "bucket\tpage\tk\tnot\t1\n", "holdoff time 'not' is not a number" },
		{ "row\tr\tk\t1\t2\t0x1\n", "is not PFN@TIME" },
		{ "alert\tx\tr\tk\n", "time 'x' is not a number" },
		{ "base\t-\n", "a base line after the first" },
		{ "page\t0x1\tsoft\n", "page: expected 5, 6 or 9 fields" },
		{ "nonsense\n", "unknown item 'nonsense'" },
		{ "\n", "unknown item ''" },
	};
	const char *first = "base\t-\ncount\tpage\tpage=0x1\t5\n";
	char text[512], why[256];
	unsigned line;

	(void) state;
	for (size_t i = 0; i < ELEMENTSOF(cases); i++) {
		struct rule_state s = { 0 };

		snprintf(text, sizeof(text), "%s%scount\tpage\tpage=0x1\t6\n", first, cases[i].line);
		assert_int_equal(rule_state_apply_journal(&s, text, strlen(text), "base\t-\n", why, sizeof(why),
							  &line), -EINVAL);
		if (!strstr(why, cases[i].why))
			fail_msg("case %zu: '%s' not in '%s'", i, cases[i].why, why);
		assert_int_equal(line, 3);
		/* The line before it applied, the one after it not. */
		assert_int_equal(s.n_buckets, 1);
		assert_int_equal(s.buckets[0]->n_times, 1);
		assert_int_equal(s.buckets[0]->times[0], 5);
		rule_state_done(&s);
	}
	{
		/* A NUL inside a line, and a line of more times than any rule keeps. */
		static const char nul[] = "count\tpage\tk\t1\0002\n";
		struct rule_state s = { 0 };
		_cleanup_free_ char *many = malloc(20 * (RULE_MAX_COUNT + 2) + 64);
		char *p = many;

		assert_int_equal(rule_state_apply_journal(&s, nul, sizeof(nul) - 1, NULL, why, sizeof(why), &line),
				 -EINVAL);
		assert_int_equal(line, 1);
		assert_string_equal(why, "NUL byte");
		assert_non_null(many);
		p += sprintf(p, "count\tpage\tk\t");
		for (unsigned t = 0; t <= RULE_MAX_COUNT; t++)
			p += sprintf(p, "%s%u", t ? "," : "", t + 1);
		strcpy(p, "\n");
		assert_int_equal(rule_state_apply_journal(&s, many, strlen(many), NULL, why, sizeof(why), &line),
				 -EINVAL);
		assert_non_null(strstr(why, "more than"));
		assert_int_equal(s.n_buckets, 0);
		rule_state_done(&s);
	}
}

/* Count lines add up, the newest RULE_MAX_COUNT kept; a bucket line replaces. */
static void test_journal_count_bounded(void **state)
{
	struct rule_state s = { 0 };
	char text[256], why[256];
	unsigned line;
	const uint64_t three[] = { 1, 2, 3 };

	(void) state;
	assert_int_equal(rule_state_add_bucket(&s, "page", "k", 0, three, 3), 0);
	snprintf(text, sizeof(text), "count\tpage\tk\t4,5\ncount\tpage\tj\t9\n");
	assert_int_equal(rule_state_apply_journal(&s, text, strlen(text), NULL, why, sizeof(why), &line), 0);
	assert_int_equal(s.n_buckets, 2);
	assert_int_equal(s.buckets[0]->n_times, 5);
	assert_int_equal(s.buckets[0]->times[4], 5);
	snprintf(text, sizeof(text), "bucket\tpage\tk\t77\t8\n");
	assert_int_equal(rule_state_apply_journal(&s, text, strlen(text), NULL, why, sizeof(why), &line), 0);
	assert_int_equal(s.buckets[0]->n_times, 1);
	assert_int_equal(s.buckets[0]->times[0], 8);
	assert_int_equal(s.buckets[0]->holdoff_until, 77);
	/* A count line keeps the bucket's holdoff. */
	snprintf(text, sizeof(text), "count\tpage\tk\t9\n");
	assert_int_equal(rule_state_apply_journal(&s, text, strlen(text), NULL, why, sizeof(why), &line), 0);
	assert_int_equal(s.buckets[0]->holdoff_until, 77);
	assert_int_equal(s.buckets[0]->n_times, 2);
	for (unsigned i = 0; i < RULE_MAX_COUNT; i++) {
		snprintf(text, sizeof(text), "count\tpage\tk\t%u\n", 100 + i);
		assert_int_equal(rule_state_apply_journal(&s, text, strlen(text), NULL, why, sizeof(why), &line), 0);
	}
	assert_int_equal(s.buckets[0]->n_times, RULE_MAX_COUNT);
	assert_int_equal(s.buckets[0]->times[0], 100);
	assert_int_equal(s.buckets[0]->times[RULE_MAX_COUNT - 1], 100 + RULE_MAX_COUNT - 1);
	rule_state_done(&s);
}

/* Rows and alerts: a changed row is journalled whole and replaces; each new alert once. */
static void test_journal_rows_alerts(void **state)
{
	struct rule_state live = { 0 }, back = { 0 };
	char j[4096] = "", why[256];
	unsigned line;

	(void) state;
	assert_int_equal(row_pages_note(&live, "row", "label=A row=1", 0x10, T0, HOUR), ROW_PAGE_KEPT);
	assert_int_equal(row_pages_note(&live, "row", "label=A row=2", 0x20, T0, HOUR), ROW_PAGE_KEPT);
	assert_int_equal(rule_state_add_alert(&live, &(struct rule_state_alert) {
		.time_usec = T0, .rule = "r", .key = "k" }), 0);
	flush_to(&live, NULL, j, sizeof(j), "row\trow\tlabel=A row=1\t0\t");
	assert_non_null(strstr(j, "alert\t"));
	flush_to(&live, NULL, j, sizeof(j), NULL);
	/* One row seen again: only it; it crosses its threshold. */
	assert_int_equal(row_pages_note(&live, "row", "label=A row=1", 0x11, T0 + 1, HOUR), ROW_PAGE_KEPT);
	assert_non_null(row_pages_isolate(&live, "row", "label=A row=1", T0 + 2, HOUR));
	assert_int_equal(rule_state_add_alert(&live, &(struct rule_state_alert) {
		.time_usec = T0 + 2, .rule = "r", .key = "k2" }), 0);
	{
		_cleanup_free_ char *text = NULL;
		size_t len;

		assert_int_equal(rule_state_format_changes(&live, NULL, &text, &len), 0);
		assert_null(strstr(text, "row=2"));
		/* The new alert only, the last line. */
		assert_string_equal(strstr(text, "alert\t"), "alert\t1795168800000002\tr\tk2\n");
		strcat(j, text);
		rule_state_changes_done(&live, NULL);
	}
	assert_int_equal(rule_state_apply_journal(&back, j, strlen(j), NULL, why, sizeof(why), &line), 0);
	assert_int_equal(back.n_rows, 2);
	assert_int_equal(back.n_alerts, 2);
	assert_string_equal(back.alerts[1].key, "k2");
	for (unsigned i = 0; i < 2; i++) {
		const struct rule_state_row *r = row_pages_find(&back, "row", live.rows[i].key);

		assert_non_null(r);
		assert_int_equal(r->isolated_usec, live.rows[i].isolated_usec);
		assert_int_equal(r->n_pages, live.rows[i].n_pages);
		assert_int_equal(r->last_usec, live.rows[i].last_usec);
	}
	assert_true(row_pages_find(&back, "row", "label=A row=1")->isolated_usec > 0);
	rule_state_done(&live);
	rule_state_done(&back);
}

/*
 * A damaged file still gives up its pages, salvaged, and its repairs; a
 * bad line, one cut short, a NUL and the counts are not taken.
 */
static void test_salvage(void **state)
{
	static const char text[] =
		"mcelogd-rules-state 1\n"
		"bucket\tr\tk\t0\t1\n"
		"page\t0x41\thard\t7\tok\n"
		"page\t0xzz\tsoft\t7\tok\n"
		"page\t0x42\tsoft\t7\tpending\n"
		"page\t0x4\0\tsoft\t7\tok\n"
		"end\t9\tdeadbeef\n"
		"page\t0x43\tsoft\t7\tok";
	struct rule_state s;
	unsigned skipped = 9;

	(void) state;
	assert_int_equal(rule_state_salvage(text, sizeof(text) - 1, &s, &skipped), 0);
	assert_int_equal(s.n_pages, 2);
	assert_true(rule_state_find_page(&s, 0x41)->salvaged);
	assert_true(rule_state_find_page(&s, 0x41)->hard);
	/* An intent of a file that cannot be trusted is no intent: salvaged, never acted on. */
	assert_true(rule_state_find_page(&s, 0x42)->salvaged);
	assert_false(rule_state_find_page(&s, 0x42)->pending);
	assert_null(rule_state_find_page(&s, 0x43));
	assert_int_equal(s.n_buckets, 0);
	/* the bucket, the bad frame, the NUL and the cut line; not the header or the end line */
	assert_int_equal(skipped, 4);
	rule_state_done(&s);
}

/* Pages by frame through the index, across growth and a forget. */
static void test_page_index(void **state)
{
	struct rule_state s = { 0 };

	(void) state;
	for (uint64_t pfn = 0; pfn < 5000; pfn++)
		assert_int_equal(rule_state_set_page(&s, &(struct rule_state_page) { .pfn = pfn * 3 }), 0);
	assert_int_equal(s.n_pages, 5000);
	assert_int_equal(rule_state_set_page(&s, &(struct rule_state_page) { .pfn = 300, .ok = true }), 0);
	assert_int_equal(s.n_pages, 5000);
	assert_true(rule_state_find_page(&s, 300)->ok);
	assert_null(rule_state_find_page(&s, 301));
	assert_int_equal(rule_state_forget_page(&s, 300), 0);
	assert_int_equal(rule_state_forget_page(&s, 300), -ENOENT);
	assert_null(rule_state_find_page(&s, 300));
	assert_non_null(rule_state_find_page(&s, 303));
	assert_int_equal(rule_state_find_page(&s, 3 * 4999)->pfn, 3 * 4999);
	rule_state_done(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_damage_detected),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_old_repair_line),
		cmocka_unit_test(test_set_page_replaces),
		cmocka_unit_test(test_journal),
		cmocka_unit_test(test_journal_counts),
		cmocka_unit_test(test_journal_stale),
		cmocka_unit_test(test_journal_cut_anywhere),
		cmocka_unit_test(test_journal_hostile),
		cmocka_unit_test(test_journal_count_bounded),
		cmocka_unit_test(test_journal_rows_alerts),
		cmocka_unit_test(test_page_index),
		cmocka_unit_test(test_salvage),
		cmocka_unit_test(test_alerts_bounded),
		cmocka_unit_test(test_restart_keeps_count),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
