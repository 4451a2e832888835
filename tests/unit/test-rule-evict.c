/* SPDX-License-Identifier: MIT */
/*
 * rules/rule-engine: which bucket makes room when a rule's keys are full.
 * The least recently used, in the order records came, whatever their times
 * say: a storm's records often share one second (or have no time at all,
 * as in `mcectl rules --test` over a file), and a key must never be pushed
 * out just after it arrived while older keys wait.  Buckets put back from
 * the state file come before any record and are ordered by their times.
 */
#include <inttypes.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "decode.h"
#include "macro.h"
#include "record.h"
#include "rule-engine.h"

#define SEC UINT64_C(1000000)
#define HOUR (3600 * SEC)
#define T0 (UINT64_C(1795168800) * SEC)

/* IA32_MCi_STATUS VAL EN MISCV ADDRV, memory controller read on channel 0 (SDM Vol. 3B 16.9.2). */
#define STATUS_MC_READ_CE ((UINT64_C(0x9c) << 56) | 0x0090)
/* IA32_MCi_MISC: physical address mode, LSB 12 (SDM 16.3.2.4): the record names its page. */
#define MISC_PHYS_4K ((UINT64_C(2) << 6) | 12)

/* The shipped page rule (config/rules.d/10-memory-page.rules). */
#define PAGE_RULE "[Rule]\nName=memory-page-ce\nMatch=component=memory severity=corrected\nKey=page\n" \
	"Threshold=10 in 24h\nAction=alert soft-offline\n"

struct page_record {
	struct mce_record rec;
	struct mce_decoded d;
	struct rule_input in;
};

/* A corrected memory error on page pfn (key "page=0x<pfn>"). */
static void page_record(struct page_record *p, uint64_t pfn)
{
	p->rec = (struct mce_record) {
		.have = MCE_HAVE_CPU | MCE_HAVE_SOCKET | MCE_HAVE_BANK | MCE_HAVE_STATUS |
			MCE_HAVE_ADDR | MCE_HAVE_MISC | MCE_HAVE_VENDOR | MCE_HAVE_CPUID,
		.source = MCE_SOURCE_TRACEPOINT, .cpu = 1, .bank = 7,
		.status = STATUS_MC_READ_CE, .addr = pfn << 12, .misc = MISC_PHYS_4K,
		.vendor = MCE_VENDOR_INTEL, .family = 6, .model = 0x8f,
	};
	mce_decode(&p->rec, &p->d);
	p->in = (struct rule_input) { .mce = &p->rec, .decoded = &p->d };
}

static void load(struct rule_set *s, const char *text)
{
	rule_set_init(s);
	assert_int_equal(rule_set_parse(s, text, strlen(text), "t.rules", NULL, NULL), 0);
}

static int feed_page(struct rule_engine *e, uint64_t pfn, uint64_t t, rule_fire_fn fire, void *userdata)
{
	struct page_record p;

	page_record(&p, pfn);
	return rule_engine_feed(e, &p.in, t, fire, userdata);
}

static bool has_key(const struct rule_engine *e, const char *key)
{
	unsigned n;
	const struct rule_bucket *b = rule_engine_buckets(e, 0, &n);

	for (unsigned i = 0; i < n; i++)
		if (streq(b[i].key, key))
			return true;
	return false;
}

#define BAD_PAGES 8
#define BAD_PFN 0x10          /* the failing pages: 0x10 to 0x17 */
#define STORM_KEYS 32

struct page_firings {
	unsigned n[BAD_PAGES];
	unsigned other;
};

static void on_page_fire(const struct rule_firing *f, void *userdata)
{
	struct page_firings *x = userdata;
	unsigned long pfn;

	assert_int_equal(sscanf(f->key, "page=0x%lx", &pfn), 1);
	if (pfn >= BAD_PFN && pfn < BAD_PFN + BAD_PAGES)
		x->n[pfn - BAD_PFN]++;
	else
		x->other++;
}

/*
 * A storm within one second: each round, 8 failing pages report again and
 * 24 pages never seen before report once, so every round fills the 32 keys
 * the rule holds.  The failing pages are the most recently used each time a
 * new page needs room: they must keep their counts and fire at their 10th
 * record.  (Evicting by time alone, ties to the first found, pushed out a
 * new key two new keys after it came and forgot every failing page.)
 */
static void storm_same_second(uint64_t t)
{
	_cleanup_(rule_engine_freep) struct rule_engine *e = NULL;
	struct page_firings x = { 0 };
	struct rule_set s;
	uint64_t noise = 0x100000;

	load(&s, PAGE_RULE);
	assert_int_equal(rule_engine_new(&s, STORM_KEYS, &e), 0);
	for (unsigned round = 0; round < 10; round++) {
		for (uint64_t pfn = BAD_PFN; pfn < BAD_PFN + BAD_PAGES; pfn++)
			assert_true(feed_page(e, pfn, t, on_page_fire, &x) >= 0);
		for (unsigned k = 0; k < STORM_KEYS - BAD_PAGES; k++)
			assert_true(feed_page(e, noise++, t, on_page_fire, &x) >= 0);
	}
	for (unsigned k = 0; k < BAD_PAGES; k++)
		assert_int_equal(x.n[k], 1);
	assert_int_equal(x.other, 0);
	assert_int_equal(rule_engine_stats(e, 0)->fired, BAD_PAGES);
	/* Each round after the first pushed out the previous round's once-seen pages, only them. */
	assert_int_equal(rule_engine_stats(e, 0)->evicted, 9 * (STORM_KEYS - BAD_PAGES));
	e = rule_engine_free(e);
	rule_set_done(&s);
}

static void test_storm_same_second(void **state)
{
	(void) state;
	storm_same_second(T0);
}

/* `mcectl rules --test` feeds records without a time at 0: the same storm. */
static void test_storm_untimed(void **state)
{
	(void) state;
	storm_same_second(0);
}

/* The key that just arrived is the last to go, not the next. */
static void test_newest_key_stays(void **state)
{
	_cleanup_(rule_engine_freep) struct rule_engine *e = NULL;
	struct rule_set s;

	(void) state;
	load(&s, PAGE_RULE);
	assert_int_equal(rule_engine_new(&s, 4, &e), 0);
	for (uint64_t pfn = 1; pfn <= 5; pfn++)
		assert_int_equal(feed_page(e, pfn, T0, NULL, NULL), 0);
	/* Page 1 made room for page 5; page 6 makes room with page 2, the oldest left. */
	assert_false(has_key(e, "page=0x1"));
	assert_int_equal(feed_page(e, 6, T0, NULL, NULL), 0);
	assert_false(has_key(e, "page=0x2"));
	assert_true(has_key(e, "page=0x5"));
	assert_true(has_key(e, "page=0x6"));
	/* Page 3 used again: page 4 is now the least recently used. */
	assert_int_equal(feed_page(e, 3, T0, NULL, NULL), 0);
	assert_int_equal(feed_page(e, 7, T0, NULL, NULL), 0);
	assert_false(has_key(e, "page=0x4"));
	assert_true(has_key(e, "page=0x3"));
	/*
	 * A record dated earlier than those counted (an EDAC event read late,
	 * a replay out of order) is still the latest used: page 8 stays, page 5 goes.
	 */
	assert_int_equal(feed_page(e, 8, T0 - HOUR, NULL, NULL), 0);
	assert_int_equal(feed_page(e, 9, T0, NULL, NULL), 0);
	assert_true(has_key(e, "page=0x8"));
	assert_false(has_key(e, "page=0x5"));
	assert_int_equal(rule_engine_stats(e, 0)->evicted, 5);
	e = rule_engine_free(e);
	rule_set_done(&s);
}

/*
 * Buckets from the state file come in the file's order, which is not their
 * times' order: the oldest by time makes room first, and one older than all
 * the engine holds when it is full is the one not kept.  Records after are
 * newer than every restored bucket.
 */
static void test_restored_by_time(void **state)
{
	_cleanup_(rule_engine_freep) struct rule_engine *e = NULL;
	const uint64_t last[] = { T0 + 3 * SEC, T0 + 1 * SEC, T0 + 4 * SEC, T0 + 2 * SEC, T0 };
	struct rule_set s;

	(void) state;
	load(&s, PAGE_RULE);
	assert_int_equal(rule_engine_new(&s, 4, &e), 0);
	for (unsigned i = 0; i < ELEMENTSOF(last); i++) {
		char key[RULE_KEY_MAX];
		const uint64_t times[] = { last[i] - SEC, last[i] };

		snprintf(key, sizeof(key), "page=0x%x", 0x10 + i);
		assert_int_equal(rule_engine_restore(e, "memory-page-ce", key, 0, times, 2), 0);
	}
	/* The fifth, at T0, is older than the four kept. */
	assert_false(has_key(e, "page=0x14"));
	assert_int_equal(rule_engine_stats(e, 0)->evicted, 1);
	/* A record at a time before all of them still counts as the newest use. */
	assert_int_equal(feed_page(e, 0x20, T0, NULL, NULL), 0);
	assert_false(has_key(e, "page=0x11"));     /* at T0+1s */
	assert_int_equal(feed_page(e, 0x21, T0, NULL, NULL), 0);
	assert_false(has_key(e, "page=0x13"));     /* at T0+2s */
	assert_int_equal(feed_page(e, 0x22, T0, NULL, NULL), 0);
	assert_false(has_key(e, "page=0x10"));     /* at T0+3s */
	assert_true(has_key(e, "page=0x12"));
	assert_true(has_key(e, "page=0x20"));
	/* What was restored still counts: 2 restored + 8 more make 10 on page 0x12. */
	for (unsigned i = 0; i < 7; i++)
		assert_int_equal(feed_page(e, 0x12, T0 + 5 * SEC, NULL, NULL), 0);
	assert_int_equal(feed_page(e, 0x12, T0 + 5 * SEC, NULL, NULL), 1);
	e = rule_engine_free(e);
	rule_set_done(&s);
}

/* A key resting after its firing (Holdoff=) is restored as used when it fired, not at time 0. */
static void test_restored_resting(void **state)
{
	_cleanup_(rule_engine_freep) struct rule_engine *e = NULL;
	const uint64_t times[] = { T0 };
	struct rule_set s;

	(void) state;
	load(&s, "[Rule]\nName=yellow\nKey=page\nThreshold=2 in 1h\nHoldoff=1h\nAction=alert\n");
	assert_int_equal(rule_engine_new(&s, 2, &e), 0);
	/* Fired at T0+10s, resting until an hour after; the other key last seen at T0. */
	assert_int_equal(rule_engine_restore(e, "yellow", "page=0x1", T0 + 10 * SEC + HOUR, NULL, 0), 0);
	assert_int_equal(rule_engine_restore(e, "yellow", "page=0x2", 0, times, 1), 0);
	assert_int_equal(feed_page(e, 3, T0 + 20 * SEC, NULL, NULL), 0);
	assert_true(has_key(e, "page=0x1"));
	assert_false(has_key(e, "page=0x2"));
	/* Still resting: its records are held, not counted into a firing. */
	assert_int_equal(feed_page(e, 1, T0 + 30 * SEC, NULL, NULL), 0);
	assert_int_equal(feed_page(e, 1, T0 + 31 * SEC, NULL, NULL), 0);
	assert_int_equal(rule_engine_stats(e, 0)->held, 2);
	e = rule_engine_free(e);
	rule_set_done(&s);
}

/*
 * Against a model: a table of counts, one per page, each firing at its 3rd
 * record and starting again, the first used making room.  A record uses its
 * page at the latest time seen, ties in order; a bucket put back from the
 * state file is used at its own time (its newest), and not kept at all if
 * the table is full of buckets used later.  Random pages, hot and cold,
 * with times that repeat and step back a little (all within the rule's
 * 24h), and now and then a bucket put back in between, so that the index's
 * removals, the order's ties and the restored buckets' heap all happen many
 * times: through a table of 16 keys, and of 100 (the engine's arrays grow
 * to it on the way, and it is no power of two).
 */
#define MODEL_KEYS_MAX 100

struct model {
	unsigned n, max;
	uint64_t pfn[MODEL_KEYS_MAX];
	unsigned count[MODEL_KEYS_MAX];
	uint64_t last[MODEL_KEYS_MAX];         /* the newest record time counted */
	uint64_t used[MODEL_KEYS_MAX], seq[MODEL_KEYS_MAX];
	uint64_t latest, clock;
	uint64_t evicted;
};

static unsigned model_least_used(const struct model *m)
{
	unsigned i = 0;

	for (unsigned k = 1; k < m->n; k++)
		if (m->used[k] < m->used[i] || (m->used[k] == m->used[i] && m->seq[k] < m->seq[i]))
			i = k;
	return i;
}

static unsigned model_find(const struct model *m, uint64_t pfn)
{
	unsigned i;

	for (i = 0; i < m->n && m->pfn[i] != pfn; i++)
		;
	return i;
}

/* Its place for a new page: a free one, or the least used one's, evicted. */
static unsigned model_add(struct model *m, uint64_t pfn)
{
	unsigned i = m->n;

	if (m->n == m->max) {
		i = model_least_used(m);
		m->evicted++;
	} else
		m->n++;
	m->pfn[i] = pfn;
	m->count[i] = 0;
	m->last[i] = 0;
	return i;
}

static void model_use(struct model *m, unsigned i, uint64_t t)
{
	m->used[i] = t;
	m->seq[i] = ++m->clock;
	if (t > m->latest)
		m->latest = t;
}

static bool model_feed(struct model *m, uint64_t pfn, uint64_t t)
{
	unsigned i = model_find(m, pfn);

	if (i == m->n)
		i = model_add(m, pfn);
	model_use(m, i, t > m->latest ? t : m->latest);
	if (t > m->last[i])
		m->last[i] = t;
	if (++m->count[i] < 3)
		return false;
	m->count[i] = 0;
	return true;
}

/* Put back with one record time t. */
static void model_restore(struct model *m, uint64_t pfn, uint64_t t)
{
	unsigned i = model_find(m, pfn);

	if (i == m->n) {
		if (m->n == m->max && t < m->used[model_least_used(m)]) {
			m->evicted++;
			return;
		}
		i = model_add(m, pfn);
	}
	m->count[i] = 1;
	if (t > m->last[i])
		m->last[i] = t;
	model_use(m, i, m->last[i]);
}

static void against_model(unsigned keys, unsigned pages)
{
	_cleanup_(rule_engine_freep) struct rule_engine *e = NULL;
	struct model m = { .max = keys };
	struct rule_set s;
	uint64_t x = 0x9e3779b97f4a7c15, fired = 0, restored = 0;

	load(&s, "[Rule]\nName=page\nKey=page\nThreshold=3 in 24h\nAction=alert\n");
	assert_int_equal(rule_engine_new(&s, keys, &e), 0);
	for (unsigned i = 0; i < 20000; i++) {
		uint64_t pfn, t = T0 + HOUR + i / 7 * SEC - i % 3 * SEC;
		bool want;
		int got;

		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		pfn = 1 + (x & 1 ? (x >> 1) % (keys / 2) : (x >> 1) % pages);
		if (x % 16 == 3) {
			/* A bucket put back, from up to a minute before or after. */
			uint64_t tr = t - 60 * SEC + (x >> 8) % (120 * SEC);
			char key[RULE_KEY_MAX];

			snprintf(key, sizeof(key), "page=0x%" PRIx64, pfn);
			model_restore(&m, pfn, tr);
			assert_int_equal(rule_engine_restore(e, "page", key, 0, &tr, 1), 0);
			restored++;
			continue;
		}
		want = model_feed(&m, pfn, t);
		got = feed_page(e, pfn, t, NULL, NULL);
		if (got != (want ? 1 : 0))
			fail_msg("record %u, page %" PRIu64 ": fired %d, the model %d", i, pfn, got, want);
		fired += want;
	}
	assert_int_equal(rule_engine_stats(e, 0)->fired, fired);
	assert_int_equal(rule_engine_stats(e, 0)->evicted, m.evicted);
	assert_true(m.evicted > 1000);
	assert_true(fired > 1000);
	assert_true(restored > 500);
	for (unsigned i = 0; i < m.n; i++) {
		char key[RULE_KEY_MAX];

		snprintf(key, sizeof(key), "page=0x%" PRIx64, m.pfn[i]);
		assert_true(has_key(e, key));
	}
	e = rule_engine_free(e);
	rule_set_done(&s);
}

static void test_against_model(void **state)
{
	(void) state;
	against_model(16, 40);
	against_model(MODEL_KEYS_MAX, 300);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_storm_same_second),
		cmocka_unit_test(test_storm_untimed),
		cmocka_unit_test(test_newest_key_stays),
		cmocka_unit_test(test_restored_by_time),
		cmocka_unit_test(test_restored_resting),
		cmocka_unit_test(test_against_model),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
