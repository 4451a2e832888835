/* SPDX-License-Identifier: MIT */
/* rules/storm: burst, storm, summaries, storm end, eviction, overflow, scope, clock quirks. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "macro.h"
#include "storm.h"

#define MSEC UINT64_C(1000)
#define SEC STORM_USEC_PER_SEC
/* A boot that has been up a while: time 0 is not special. */
#define T0 (1000 * SEC)

#define MAX_EVENTS 4096

struct emitted {
	struct storm_event ev;
	uint64_t at;                     /* the tick that emitted it */
};

struct recorder {
	uint64_t now;                    /* time of the tick in progress */
	struct emitted events[MAX_EVENTS];
	unsigned n_events;
	unsigned n_summaries;
	unsigned n_ends;
	uint64_t summary_sum;
};

static void record_event(const struct storm_event *ev, void *userdata)
{
	struct recorder *rec = userdata;

	assert_true(rec->n_events < MAX_EVENTS);
	rec->events[rec->n_events++] = (struct emitted) { .ev = *ev, .at = rec->now };
	if (ev->type == STORM_EVENT_SUMMARY) {
		/* An empty summary would be a journal entry that says nothing. */
		assert_true(ev->count > 0);
		assert_true(ev->first_usec <= ev->last_usec);
		rec->n_summaries++;
		rec->summary_sum += ev->count;
	} else {
		assert_int_equal(ev->type, STORM_EVENT_END);
		assert_true(ev->count == 0);
		rec->n_ends++;
	}
}

static unsigned tick(struct storm *s, uint64_t now, struct recorder *rec)
{
	rec->now = now;
	return storm_tick(s, now, record_event, rec);
}

/* What the daemon's event loop does: tick when the deadline has come, then account. */
static enum storm_verdict feed(struct storm *s, const struct storm_key *k, uint64_t now, struct recorder *rec)
{
	if (now >= storm_next_deadline(s))
		tick(s, now, rec);
	return storm_account(s, k, now);
}

/* Let simulated time run to every deadline until no storm is left. */
static void run_until_idle(struct storm *s, struct recorder *rec)
{
	unsigned guard = 0;

	while (storm_next_deadline(s) != UINT64_MAX) {
		assert_true(++guard < 100000);
		tick(s, storm_next_deadline(s), rec);
	}
}

static bool key_eq(const struct storm_key *a, const struct storm_key *b)
{
	return a->cpu == b->cpu && a->bank == b->bank && a->code == b->code && a->per_cpu == b->per_cpu;
}

static uint64_t summed_for(const struct recorder *rec, const struct storm_key *k, unsigned *n_ends)
{
	uint64_t sum = 0;

	*n_ends = 0;
	for (unsigned i = 0; i < rec->n_events; i++) {
		if (!key_eq(&rec->events[i].ev.key, k))
			continue;
		if (rec->events[i].ev.type == STORM_EVENT_SUMMARY)
			sum += rec->events[i].ev.count;
		else
			(*n_ends)++;
	}
	return sum;
}

static void assert_balanced(const struct storm *s)
{
	struct storm_counters c;

	storm_get_counters(s, &c);
	assert_true(c.seen == c.logged + c.suppressed);
	assert_true(c.overflow <= c.logged);
	assert_true(c.storms_started - c.storms_ended == c.active);
}

static struct storm *new_storm(const struct storm_config *cfg)
{
	struct storm *s = NULL;

	assert_int_equal(storm_new(cfg, &s), 0);
	assert_non_null(s);
	return s;
}

static void storm_of_20000(void **state)
{
	const struct storm_key k = { .cpu = 3, .bank = 5, .code = 0x0090, .per_cpu = true };
	const unsigned n = 20000;
	const uint64_t span = 2 * SEC;
	static struct recorder rec;
	struct storm_config cfg;
	struct storm_counters c;
	unsigned logged = 0, i;

	(void) state;
	memset(&rec, 0, sizeof(rec));
	storm_config_default(&cfg);
	_cleanup_storm_ struct storm *s = new_storm(NULL);

	for (i = 0; i < n; i++)
		if (feed(s, &k, T0 + i * span / n, &rec) == STORM_LOG)
			logged++;
	run_until_idle(s, &rec);

	assert_int_equal(logged, cfg.burst);
	assert_true(logged + rec.summary_sum == n);
	assert_int_equal(rec.n_ends, 1);
	/* The journal sees a handful of entries, not 20,000. */
	assert_true(rec.n_summaries >= 1);
	assert_true(rec.n_summaries <= span / cfg.summary_interval_usec + 2);

	const struct storm_event *end = &rec.events[rec.n_events - 1].ev;
	assert_int_equal(end->type, STORM_EVENT_END);
	assert_true(key_eq(&end->key, &k));
	assert_true(end->total == rec.summary_sum);
	assert_int_equal(end->logged, cfg.burst);
	assert_true(end->start_usec == T0 + (uint64_t) cfg.burst * span / n);
	assert_true(end->last_usec == T0 + (uint64_t) (n - 1) * span / n);
	assert_true(rec.events[rec.n_events - 1].at == end->last_usec + cfg.quiet_usec);

	storm_get_counters(s, &c);
	assert_true(c.seen == n);
	assert_true(c.logged == logged);
	assert_true(c.suppressed == rec.summary_sum);
	assert_true(c.storms_started == 1 && c.storms_ended == 1 && c.active == 0);
	assert_true(c.overflow == 0);
	assert_balanced(s);
}

static void interleaved_signatures(void **state)
{
	const struct storm_key a = { .cpu = 0, .bank = 1, .code = 0x0151, .per_cpu = true };
	const struct storm_key b = { .cpu = 0, .bank = 2, .code = 0x0151, .per_cpu = true };
	const struct storm_key c = { .cpu = 0, .bank = 4, .code = 0x0135, .per_cpu = true };
	const struct storm_key d = { .cpu = 0, .bank = 4, .code = 0x0136, .per_cpu = true };
	static struct recorder rec;
	struct storm_config cfg;
	unsigned na = 0, nb = 0, la = 0, lb = 0, nc = 0, nd = 0, lc = 0, ld = 0, ends;

	(void) state;
	memset(&rec, 0, sizeof(rec));
	storm_config_default(&cfg);
	_cleanup_storm_ struct storm *s = new_storm(&cfg);

	/* a storms at 1000/s; b trickles at 4/s, below the burst, and must never be summarised. */
	for (uint64_t t = 0; t < 5 * SEC; t += MSEC) {
		na++;
		la += feed(s, &a, T0 + t, &rec) == STORM_LOG;
		if (t % (250 * MSEC) == 0) {
			nb++;
			lb += feed(s, &b, T0 + t, &rec) == STORM_LOG;
		}
	}
	assert_true(nb < cfg.burst * 5);
	run_until_idle(s, &rec);
	assert_int_equal(la, cfg.burst);
	assert_true(la + summed_for(&rec, &a, &ends) == na);
	assert_int_equal(ends, 1);
	assert_int_equal(lb, nb);
	assert_true(summed_for(&rec, &b, &ends) == 0);
	assert_int_equal(ends, 0);

	/* Two storms at once in one bank, different codes: counted apart. */
	for (uint64_t t = 100 * SEC; t < 103 * SEC; t += MSEC) {
		nc++;
		lc += feed(s, &c, T0 + t, &rec) == STORM_LOG;
		if (t % (3 * MSEC) == 0) {
			nd++;
			ld += feed(s, &d, T0 + t, &rec) == STORM_LOG;
		}
	}
	struct storm_counters cn;
	storm_get_counters(s, &cn);
	assert_int_equal(cn.active, 2);
	run_until_idle(s, &rec);
	assert_int_equal(lc, cfg.burst);
	assert_int_equal(ld, cfg.burst);
	assert_true(lc + summed_for(&rec, &c, &ends) == nc);
	assert_int_equal(ends, 1);
	assert_true(ld + summed_for(&rec, &d, &ends) == nd);
	assert_int_equal(ends, 1);
	assert_true(la + lb + lc + ld + rec.summary_sum == na + nb + nc + nd);
	assert_balanced(s);
}

static void storm_ends_after_quiet(void **state)
{
	const struct storm_key k = { .cpu = 1, .bank = 9, .code = 0x000f, .per_cpu = true };
	static struct recorder rec;
	struct storm_config cfg;
	struct storm_counters c;
	struct storm_info info;
	const unsigned extra = 5;
	uint64_t t = T0, last;

	(void) state;
	memset(&rec, 0, sizeof(rec));
	storm_config_default(&cfg);
	_cleanup_storm_ struct storm *s = new_storm(&cfg);

	for (unsigned i = 0; i < cfg.burst + extra; i++, t += MSEC)
		feed(s, &k, t, &rec);
	last = t - MSEC;
	assert_int_equal(storm_lookup(s, &k, &info), 0);
	assert_true(info.in_storm);
	assert_true(info.suppressed == extra);

	/* Everything up to one microsecond before the quiet period is over: no end. */
	while (storm_next_deadline(s) < last + cfg.quiet_usec)
		tick(s, storm_next_deadline(s), &rec);
	tick(s, last + cfg.quiet_usec - 1, &rec);
	assert_int_equal(rec.n_ends, 0);
	assert_int_equal(storm_lookup(s, &k, &info), 0);
	assert_true(info.in_storm);

	/* A record just in time extends the storm. */
	last = last + cfg.quiet_usec - 1;
	assert_int_equal(feed(s, &k, last, &rec), STORM_SUPPRESS);
	assert_true(storm_next_deadline(s) <= last + cfg.quiet_usec);
	run_until_idle(s, &rec);
	assert_int_equal(rec.n_ends, 1);
	const struct emitted *end = &rec.events[rec.n_events - 1];
	assert_int_equal(end->ev.type, STORM_EVENT_END);
	assert_true(end->at == last + cfg.quiet_usec);
	assert_true(end->ev.total == extra + 1);
	assert_true(end->ev.total == rec.summary_sum);
	/* The final summary came before the end, never after. */
	assert_int_equal(rec.events[rec.n_events - 2].ev.type, STORM_EVENT_SUMMARY);
	assert_int_equal(storm_lookup(s, &k, &info), 0);
	assert_false(info.in_storm);

	/* After the end the signature is back to normal: a new burst is logged, then a new storm. */
	t = last + cfg.quiet_usec + SEC;
	for (unsigned i = 0; i < cfg.burst; i++)
		assert_int_equal(feed(s, &k, t + i, &rec), STORM_LOG);
	assert_int_equal(feed(s, &k, t + cfg.burst, &rec), STORM_SUPPRESS);
	storm_get_counters(s, &c);
	assert_true(c.storms_started == 2 && c.storms_ended == 1 && c.active == 1);

	/*
	 * A loop that wakes up late, long after both the summary and the end
	 * were due: the pending count still goes out in a summary, before the end.
	 */
	unsigned before = rec.n_events;
	assert_int_equal(tick(s, t + 10 * cfg.quiet_usec, &rec), 2);
	assert_int_equal(rec.events[before].ev.type, STORM_EVENT_SUMMARY);
	assert_true(rec.events[before].ev.count == 1);
	assert_int_equal(rec.events[before + 1].ev.type, STORM_EVENT_END);
	assert_true(rec.events[before + 1].ev.total == 1);
	storm_get_counters(s, &c);
	assert_true(c.suppressed == rec.summary_sum);
	assert_true(storm_next_deadline(s) == UINT64_MAX);
	assert_balanced(s);

	/* Quiet shorter than the summary interval: the end still flushes the count first. */
	static struct recorder rec2;
	struct storm_config quick = cfg;
	quick.quiet_usec = cfg.summary_interval_usec / 4;
	memset(&rec2, 0, sizeof(rec2));
	_cleanup_storm_ struct storm *s2 = new_storm(&quick);
	for (unsigned i = 0; i < quick.burst + extra; i++)
		feed(s2, &k, T0 + i, &rec2);
	run_until_idle(s2, &rec2);
	assert_int_equal(rec2.n_summaries, 1);
	assert_int_equal(rec2.n_ends, 1);
	assert_true(rec2.summary_sum == extra);
	assert_true(rec2.events[1].at == T0 + quick.burst + extra - 1 + quick.quiet_usec);
	assert_balanced(s2);
}

/*
 * A perfect event loop: ticks exactly at each deadline, records in between.
 * A record at the very time of a deadline comes after that tick.
 */
static void drive(struct storm *s, const struct storm_key *k, const uint64_t *times, size_t n,
		  struct recorder *rec)
{
	uint64_t clock = 0;

	for (size_t i = 0; i < n; ) {
		uint64_t d = storm_next_deadline(s);

		if (d <= times[i]) {
			/* A timer already in the past fires now. */
			clock = d > clock ? d : clock;
			tick(s, clock, rec);
		} else
			storm_account(s, k, clock = times[i++]);
	}
	run_until_idle(s, rec);
}

/* The first record at or after t, or UINT64_MAX. */
static uint64_t first_from(const uint64_t *times, size_t n, uint64_t t)
{
	for (size_t i = 0; i < n; i++)
		if (times[i] >= t)
			return times[i];
	return UINT64_MAX;
}

static size_t count_in(const uint64_t *times, size_t n, uint64_t from, uint64_t to)
{
	size_t c = 0;

	for (size_t i = 0; i < n; i++)
		c += times[i] >= from && times[i] < to;
	return c;
}

static void summary_cadence(void **state)
{
	const struct storm_key k = { .cpu = 2, .bank = 0, .code = 0x0402, .per_cpu = true };
	const struct storm_config cfg = {
		.burst = 10, .window_usec = SEC, .summary_interval_usec = SEC,
		.quiet_usec = 3 * SEC, .max_signatures = 16,
	};
	static struct recorder rec;
	static uint64_t times[2000];
	size_t n = 0;
	uint64_t prev, start, end_at;

	(void) state;
	memset(&rec, 0, sizeof(rec));
	_cleanup_storm_ struct storm *s = new_storm(&cfg);

	/* 100/s for 2.5 s, a 2 s pause (shorter than the quiet period), 100/s for 1.23 s more. */
	for (uint64_t t = 0; t < 2500 * MSEC; t += 10 * MSEC)
		times[n++] = T0 + t;
	for (uint64_t t = 4500 * MSEC; t < 5730 * MSEC; t += 10 * MSEC)
		times[n++] = T0 + t;
	assert_true(n <= ELEMENTSOF(times));
	drive(s, &k, times, n, &rec);

	assert_int_equal(rec.n_ends, 1);
	assert_true(cfg.burst + rec.summary_sum == n);
	start = times[cfg.burst];
	end_at = times[n - 1] + cfg.quiet_usec;
	prev = start;
	for (unsigned i = 0; i < rec.n_events; i++) {
		const struct emitted *e = &rec.events[i];
		uint64_t due;

		if (e->ev.type == STORM_EVENT_END) {
			assert_int_equal(i, rec.n_events - 1);
			assert_true(e->at == end_at);
			break;
		}
		/*
		 * Due one interval after the previous summary (or the storm's
		 * start) if records came in that interval, else one interval
		 * after the record that resumed the storm; the final one goes
		 * out with the end.
		 */
		if (count_in(times, n, prev, prev + cfg.summary_interval_usec) > 0)
			due = prev + cfg.summary_interval_usec;
		else
			due = first_from(times, n, prev) + cfg.summary_interval_usec;
		if (due > end_at)
			due = end_at;
		assert_true(e->at == due);
		assert_true(e->ev.count == count_in(times, n, prev, e->at));
		assert_true(e->ev.first_usec == first_from(times, n, prev));
		assert_true(e->ev.start_usec == start);
		prev = e->at;
	}
	/* The pause skipped a summary, so one came later than the plain cadence would put it. */
	bool late = false;
	for (unsigned i = 1; i < rec.n_summaries; i++)
		late |= rec.events[i].at - rec.events[i - 1].at > cfg.summary_interval_usec;
	assert_true(late);
	assert_balanced(s);
}

static void table_full(void **state)
{
	const struct storm_config cfg = {
		.burst = 2, .window_usec = SEC, .summary_interval_usec = SEC,
		.quiet_usec = 5 * SEC, .max_signatures = 4,
	};
	struct storm_key k[6];
	static struct recorder rec;
	struct storm_counters c;
	struct storm_info info;
	uint64_t t = T0;

	(void) state;
	memset(&rec, 0, sizeof(rec));
	for (unsigned i = 0; i < ELEMENTSOF(k); i++)
		k[i] = (struct storm_key) { .cpu = i, .bank = 1, .code = 0x0101, .per_cpu = true };
	_cleanup_storm_ struct storm *s = new_storm(&cfg);

	for (unsigned i = 0; i < 4; i++)
		assert_int_equal(feed(s, &k[i], t += MSEC, &rec), STORM_LOG);
	assert_int_equal(feed(s, &k[0], t += MSEC, &rec), STORM_LOG);
	storm_get_counters(s, &c);
	assert_int_equal(c.tracked, 4);
	assert_true(c.evicted == 0);

	/* k[1] is now the least recently seen: it makes room for k[4]. */
	assert_int_equal(feed(s, &k[4], t += MSEC, &rec), STORM_LOG);
	storm_get_counters(s, &c);
	assert_true(c.evicted == 1);
	assert_int_equal(storm_lookup(s, &k[1], &info), -ENOENT);
	assert_int_equal(storm_lookup(s, &k[0], &info), 0);
	assert_int_equal(storm_lookup(s, &k[2], &info), 0);
	assert_int_equal(storm_lookup(s, &k[3], &info), 0);
	assert_int_equal(storm_lookup(s, &k[4], &info), 0);

	/* Every tracked signature storms. */
	const unsigned tracked[] = { 0, 2, 3, 4 };
	for (unsigned j = 0; j < ELEMENTSOF(tracked); j++)
		for (unsigned i = 0; i < cfg.burst + 1; i++)
			feed(s, &k[tracked[j]], t += MSEC, &rec);
	storm_get_counters(s, &c);
	assert_int_equal(c.active, 4);

	/* A new signature finds no room: logged every time, counted as overflow, not tracked. */
	for (unsigned i = 0; i < 3; i++)
		assert_int_equal(feed(s, &k[5], t += MSEC, &rec), STORM_LOG);
	storm_get_counters(s, &c);
	assert_true(c.overflow == 3);
	assert_true(c.evicted == 1);
	assert_int_equal(storm_lookup(s, &k[5], &info), -ENOENT);
	assert_balanced(s);

	/* Once the storms are over their slots can be reused. */
	run_until_idle(s, &rec);
	assert_int_equal(rec.n_ends, 4);
	storm_get_counters(s, &c);
	assert_true(c.suppressed == rec.summary_sum);
	assert_int_equal(feed(s, &k[5], t + 60 * SEC, &rec), STORM_LOG);
	storm_get_counters(s, &c);
	assert_true(c.overflow == 3);
	assert_true(c.evicted == 2);
	assert_int_equal(storm_lookup(s, &k[5], &info), 0);
	assert_balanced(s);
}

#define CHURN_KEY(id) { .cpu = (id) % 7, .bank = (id) / 7, .code = (id) * 0x10001u, .per_cpu = true }

/* Exactly the `max` most recently seen keys (last_seen > 0) are found, no other. */
static void assert_tracked_is_lru(const struct storm *s, const uint64_t *last_seen, unsigned n_keys, unsigned max)
{
	uint64_t threshold = UINT64_MAX;
	unsigned found = 0, expected = 0;

	for (unsigned n = 0; n < max; n++) {
		uint64_t best = 0;

		for (unsigned id = 0; id < n_keys; id++)
			if (last_seen[id] < threshold && last_seen[id] > best)
				best = last_seen[id];
		if (best == 0)
			break;
		threshold = best;
		expected++;
	}
	for (unsigned id = 0; id < n_keys; id++) {
		struct storm_info info;
		bool tracked = storm_lookup(s, &(struct storm_key) CHURN_KEY(id), &info) == 0;

		assert_true(tracked == (last_seen[id] > 0 && last_seen[id] >= threshold));
		if (tracked)
			assert_true(info.last_usec == last_seen[id]);
		found += tracked;
	}
	assert_int_equal(found, expected);
}

/* Many signatures through a small table: the index stays consistent across evictions. */
static void eviction_churn(void **state)
{
	const struct storm_config cfg = {
		.burst = 10, .window_usec = SEC, .summary_interval_usec = SEC,
		.quiet_usec = SEC, .max_signatures = 64,
	};
	enum { N_KEYS = 1000, N_RECORDS = 20000 };
	static uint64_t last_seen[N_KEYS];
	struct storm_counters c;
	uint32_t x = 12345;

	(void) state;
	memset(last_seen, 0, sizeof(last_seen));
	_cleanup_storm_ struct storm *s = new_storm(&cfg);

	/* Records a window apart: nothing storms, so eviction is pure LRU. */
	for (unsigned i = 1; i <= N_RECORDS; i++) {
		x = x * 1103515245u + 12345u;
		unsigned id = (x >> 8) % N_KEYS;

		assert_int_equal(storm_account(s, &(struct storm_key) CHURN_KEY(id), i * SEC), STORM_LOG);
		last_seen[id] = i * SEC;
		if (i % 50 == 0 || i == N_RECORDS)
			assert_tracked_is_lru(s, last_seen, N_KEYS, cfg.max_signatures);
	}
	storm_get_counters(s, &c);
	assert_int_equal(c.tracked, cfg.max_signatures);
	assert_true(c.seen == N_RECORDS && c.logged == N_RECORDS);
	assert_true(c.evicted > 0);
	assert_balanced(s);
}

/*
 * A storm that ends goes back into the eviction order by when it was last
 * seen, not as if seen now: here B stormed between A and C, so after its end
 * the new signatures evict A, then B, and C stays.
 */
static void eviction_after_storm_end(void **state)
{
	const struct storm_config cfg = {
		.burst = 2, .window_usec = SEC, .summary_interval_usec = SEC,
		.quiet_usec = 2 * SEC, .max_signatures = 3,
	};
	struct storm_key a = { .cpu = 0, .bank = 1, .code = 1, .per_cpu = true }, b = a, c = a, d = a, e = a;
	struct storm_info info;
	struct recorder rec;
	uint64_t t = T0;

	(void) state;
	b.code = 2;
	c.code = 3;
	d.code = 4;
	e.code = 5;
	memset(&rec, 0, sizeof(rec));
	_cleanup_storm_ struct storm *s = new_storm(&cfg);

	feed(s, &a, t += MSEC, &rec);
	for (unsigned i = 0; i < cfg.burst + 3; i++)
		feed(s, &b, t += MSEC, &rec);
	assert_int_equal(storm_lookup(s, &b, &info), 0);
	assert_true(info.in_storm);
	feed(s, &c, t += 10 * MSEC, &rec);
	run_until_idle(s, &rec);
	assert_int_equal(rec.n_ends, 1);

	feed(s, &d, t + 10 * SEC, &rec);
	assert_int_equal(storm_lookup(s, &a, &info), -ENOENT);
	assert_int_equal(storm_lookup(s, &b, &info), 0);
	feed(s, &e, t + 11 * SEC, &rec);
	assert_int_equal(storm_lookup(s, &b, &info), -ENOENT);
	assert_int_equal(storm_lookup(s, &c, &info), 0);
	assert_int_equal(storm_lookup(s, &d, &info), 0);
	assert_int_equal(storm_lookup(s, &e, &info), 0);
	assert_balanced(s);
}

struct collector {
	unsigned n;
	struct storm_info infos[8];
};

static int collect_active(const struct storm_info *info, void *userdata)
{
	struct collector *col = userdata;

	assert_true(info->in_storm);
	if (col->n < ELEMENTSOF(col->infos))
		col->infos[col->n] = *info;
	col->n++;
	return 0;
}

static int stop_at_first(const struct storm_info *info, void *userdata)
{
	(void) info;
	(void) userdata;
	return 42;
}

static void scope(void **state)
{
	static struct recorder rec;
	struct storm_config cfg;
	struct storm_counters c;
	struct collector active;
	unsigned logged = 0;

	(void) state;
	memset(&rec, 0, sizeof(rec));
	storm_config_default(&cfg);
	_cleanup_storm_ struct storm *s = new_storm(&cfg);

	/* Per-CPU scope: the same bank and code on four CPUs are four signatures. */
	for (unsigned i = 0; i < cfg.burst; i++)
		for (uint32_t cpu = 0; cpu < 4; cpu++) {
			struct storm_key k = { .cpu = cpu, .bank = 7, .code = 0x0090, .per_cpu = true };
			logged += feed(s, &k, T0 + i * MSEC + cpu, &rec) == STORM_LOG;
		}
	assert_int_equal(logged, 4 * cfg.burst);
	storm_get_counters(s, &c);
	assert_int_equal(c.active, 0);
	assert_int_equal(c.tracked, 4);

	/* Bank scope: any CPU of the package reporting the shared bank is one signature. */
	logged = 0;
	for (unsigned i = 0; i < cfg.burst; i++)
		for (uint32_t cpu = 0; cpu < 4; cpu++) {
			struct storm_key k = { .cpu = cpu * 16, .bank = 7, .code = 0x0090, .per_cpu = false };
			logged += feed(s, &k, T0 + i * MSEC + cpu, &rec) == STORM_LOG;
		}
	assert_int_equal(logged, cfg.burst);
	storm_get_counters(s, &c);
	assert_int_equal(c.active, 1);
	assert_int_equal(c.tracked, 5);

	memset(&active, 0, sizeof(active));
	assert_int_equal(storm_foreach_active(s, collect_active, &active), 0);
	assert_int_equal(active.n, 1);
	assert_false(active.infos[0].key.per_cpu);
	assert_int_equal(active.infos[0].key.cpu, 0);
	assert_int_equal(active.infos[0].key.bank, 7);
	assert_int_equal(active.infos[0].logged, cfg.burst);
	assert_true(active.infos[0].suppressed == 4 * cfg.burst - cfg.burst);
	assert_int_equal(storm_foreach_active(s, stop_at_first, NULL), 42);

	/* Lookups ignore the CPU in bank scope only. */
	struct storm_info info;
	struct storm_key bank_any = { .cpu = 12345, .bank = 7, .code = 0x0090, .per_cpu = false };
	struct storm_key cpu5 = { .cpu = 5, .bank = 7, .code = 0x0090, .per_cpu = true };
	struct storm_key cpu0 = { .cpu = 0, .bank = 7, .code = 0x0090, .per_cpu = true };
	assert_int_equal(storm_lookup(s, &bank_any, &info), 0);
	assert_true(info.in_storm);
	assert_int_equal(storm_lookup(s, &cpu5, &info), -ENOENT);
	assert_int_equal(storm_lookup(s, &cpu0, &info), 0);
	assert_false(info.in_storm);

	run_until_idle(s, &rec);
	assert_int_equal(rec.n_ends, 1);
	assert_false(rec.events[rec.n_events - 1].ev.key.per_cpu);
	assert_balanced(s);
}

static void time_goes_backwards(void **state)
{
	const struct storm_key k = { .cpu = 0, .bank = 3, .code = 0x0005, .per_cpu = true };
	const struct storm_config cfg = {
		.burst = 3, .window_usec = SEC, .summary_interval_usec = 10 * SEC,
		.quiet_usec = 30 * SEC, .max_signatures = 8,
	};
	static struct recorder rec;
	struct storm_info info;
	uint64_t deadline;

	(void) state;
	memset(&rec, 0, sizeof(rec));
	_cleanup_storm_ struct storm *s = new_storm(&cfg);

	/* Earlier times count as the latest time seen, so all four fall in one window. */
	assert_int_equal(storm_account(s, &k, T0 + 5 * SEC), STORM_LOG);
	assert_int_equal(storm_account(s, &k, T0 + 1 * SEC), STORM_LOG);
	assert_int_equal(storm_account(s, &k, T0 + 5900 * MSEC), STORM_LOG);
	assert_int_equal(storm_account(s, &k, T0 + 2 * SEC), STORM_SUPPRESS);
	assert_int_equal(storm_lookup(s, &k, &info), 0);
	assert_true(info.in_storm);
	assert_true(info.last_usec == T0 + 5900 * MSEC);
	assert_true(info.start_usec == T0 + 5900 * MSEC);

	/* A tick in the past emits nothing and moves nothing. */
	deadline = storm_next_deadline(s);
	assert_true(deadline > T0 + 5900 * MSEC && deadline != UINT64_MAX);
	assert_int_equal(tick(s, T0, &rec), 0);
	assert_int_equal(tick(s, 0, &rec), 0);
	assert_true(storm_next_deadline(s) == deadline);
	assert_int_equal(rec.n_events, 0);

	/* Suppressed records from the past keep the counts exact. */
	assert_int_equal(storm_account(s, &k, 0), STORM_SUPPRESS);
	run_until_idle(s, &rec);
	assert_int_equal(rec.n_summaries, 1);
	assert_int_equal(rec.n_ends, 1);
	assert_true(rec.summary_sum == 2);
	assert_true(rec.events[0].at == T0 + 5900 * MSEC + cfg.summary_interval_usec);
	assert_true(rec.events[0].ev.last_usec == T0 + 5900 * MSEC);
	assert_true(rec.events[1].at == T0 + 5900 * MSEC + cfg.quiet_usec);

	/* After the end, a record stamped long ago opens a fresh window at the current time. */
	assert_int_equal(storm_account(s, &k, T0), STORM_LOG);
	assert_int_equal(storm_lookup(s, &k, &info), 0);
	assert_true(info.last_usec == T0 + 5900 * MSEC + cfg.quiet_usec);
	assert_balanced(s);
}

static void config_and_code(void **state)
{
	struct storm_config cfg, bad;
	struct storm *s = NULL;

	(void) state;
	storm_config_default(&cfg);
	assert_int_equal(storm_config_validate(&cfg), 0);
	assert_true(cfg.burst > 0 && cfg.max_signatures > 0);
	/* The documented relations between the defaults. */
	assert_true(cfg.quiet_usec > cfg.summary_interval_usec);
	assert_true(cfg.summary_interval_usec > cfg.window_usec);

	bad = cfg;
	bad.burst = 0;
	assert_int_equal(storm_new(&bad, &s), -EINVAL);
	assert_null(s);
	bad = cfg;
	bad.quiet_usec = 0;
	assert_int_equal(storm_config_validate(&bad), -EINVAL);
	bad = cfg;
	bad.max_signatures = STORM_MAX_SIGNATURES_LIMIT + 1;
	assert_int_equal(storm_config_validate(&bad), -EINVAL);
	bad.max_signatures = 0;
	assert_int_equal(storm_config_validate(&bad), -EINVAL);

	/* Same error, different corrected-error count and overflow bits: one signature. */
	uint64_t st1 = UINT64_C(0x8c00004000010150) | (UINT64_C(1) << 38);
	uint64_t st2 = UINT64_C(0xcc00004000010150) | (UINT64_C(77) << 38);
	assert_true(storm_code_from_status(st1) == storm_code_from_status(st2));
	assert_true(storm_code_from_status(st1) == (st1 & 0xffffffffu));
	assert_true(storm_code_from_status(UINT64_C(0x9c00000000010151)) != storm_code_from_status(st1));

	cfg.burst = 1;
	cfg.max_signatures = 1;
	assert_int_equal(storm_new(&cfg, &s), 0);
	struct storm_key a = { .bank = 1, .code = storm_code_from_status(st1) };
	struct storm_key b = { .bank = 1, .code = storm_code_from_status(st2) };
	assert_int_equal(storm_account(s, &a, T0), STORM_LOG);
	assert_int_equal(storm_account(s, &b, T0 + 1), STORM_SUPPRESS);
	storm_free(s);
	storm_free(NULL);
}

/*
 * The case: a burst of corrected errors on 100 distinct pages folds
 * into a storm; its summary says how many pages it covered, each summary
 * counting afresh, and a page seen twice counts once.
 */
static void summary_counts_distinct_pages(void **state)
{
	const struct storm_key k = { .cpu = 1, .bank = 7, .code = 0x0090, .per_cpu = true };
	static struct recorder rec;
	unsigned summaries = 0;

	(void) state;
	memset(&rec, 0, sizeof(rec));
	_cleanup_storm_ struct storm *s = new_storm(NULL);

	for (unsigned i = 0; i < 100; i++) {
		if (T0 + i * MSEC >= storm_next_deadline(s))
			tick(s, T0 + i * MSEC, &rec);
		(void) storm_account_page(s, &k, T0 + i * MSEC, true, 0x1000 + i);
	}
	/* Two on pages of the burst, one again, one without an address. */
	(void) storm_account_page(s, &k, T0 + 100 * MSEC, true, 0x1000);
	(void) storm_account_page(s, &k, T0 + 101 * MSEC, true, 0x1001);
	(void) storm_account_page(s, &k, T0 + 102 * MSEC, true, 0x1001);
	(void) storm_account(s, &k, T0 + 103 * MSEC);
	tick(s, T0 + 11 * SEC, &rec);
	/* A second summary interval: three pages, one of them already seen before. */
	for (unsigned i = 0; i < 3; i++)
		(void) storm_account_page(s, &k, T0 + 12 * SEC + i, true, 0x1000 + 99 + i);
	run_until_idle(s, &rec);

	for (unsigned i = 0; i < rec.n_events; i++) {
		const struct storm_event *ev = &rec.events[i].ev;

		if (ev->type != STORM_EVENT_SUMMARY)
			continue;
		summaries++;
		/*
		 * The burst's 10 records were logged, not counted: the storm has
		 * pages 0x100a-0x1063, then 0x1000 and 0x1001 (new to it), 0x1001
		 * again, and a record without an address.
		 */
		if (summaries == 1) {
			assert_int_equal(ev->count, 94);
			assert_int_equal(ev->pages, 92);
		} else {
			assert_int_equal(ev->count, 3);
			assert_int_equal(ev->pages, 3);
		}
		assert_false(ev->pages_capped);
	}
	assert_int_equal(summaries, 2);
	assert_balanced(s);
}

/* More distinct pages than the set holds: a lower bound, and said so. */
static void summary_pages_capped(void **state)
{
	const struct storm_key k = { .cpu = 1, .bank = 7, .code = 0x0090, .per_cpu = true };
	static struct recorder rec;

	(void) state;
	memset(&rec, 0, sizeof(rec));
	_cleanup_storm_ struct storm *s = new_storm(NULL);
	for (unsigned i = 0; i < STORM_MAX_PAGES + 500; i++)
		(void) storm_account_page(s, &k, T0 + i, true, i);
	run_until_idle(s, &rec);
	assert_int_equal(rec.events[0].ev.type, STORM_EVENT_SUMMARY);
	assert_int_equal(rec.events[0].ev.pages, STORM_MAX_PAGES);
	assert_true(rec.events[0].ev.pages_capped);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(storm_of_20000),
		cmocka_unit_test(summary_counts_distinct_pages),
		cmocka_unit_test(summary_pages_capped),
		cmocka_unit_test(interleaved_signatures),
		cmocka_unit_test(storm_ends_after_quiet),
		cmocka_unit_test(summary_cadence),
		cmocka_unit_test(table_full),
		cmocka_unit_test(eviction_churn),
		cmocka_unit_test(eviction_after_storm_end),
		cmocka_unit_test(scope),
		cmocka_unit_test(time_goes_backwards),
		cmocka_unit_test(config_and_code),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
