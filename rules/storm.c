/* SPDX-License-Identifier: MIT */
/* Storm aggregation: see storm.h for the model and the accounting invariants. */

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "storm.h"

struct storm_entry {
	struct storm_key key;            /* normalised: cpu 0 when !per_cpu */
	uint64_t last_usec;              /* last record; orders eviction */
	/* The eviction order of signatures not in a storm (entry index + 1, 0 = none). */
	uint32_t lru_prev, lru_next;
	/*
	 * The burst window is anchored at its first record rather than
	 * sliding: one start time and one counter per signature, exact, and
	 * a steady rate of exactly burst per window never starts a storm.
	 */
	uint64_t window_start_usec;
	unsigned window_count;
	bool in_storm;
	/* Storm state, valid while in_storm. */
	uint64_t start_usec;
	uint64_t next_summary_usec;
	uint64_t pending;
	uint64_t pending_first_usec;
	uint64_t pending_last_usec;
	uint64_t total;
	uint64_t summaries;
	/*
	 * Distinct pages among the records pending for the next summary:
	 * open addressing over STORM_PAGE_SLOTS slots holding page + 1 (0 =
	 * empty), allocated while a storm with addressed records lasts.
	 */
	uint64_t *pages;
	uint32_t n_pages;
	bool pages_capped;
};

#define STORM_PAGE_SLOTS (2 * STORM_MAX_PAGES)

struct storm {
	struct storm_config config;
	struct storm_entry *entries;     /* [0, n_entries) in use; never shrinks */
	unsigned n_entries;
	/*
	 * Open-addressing index into entries (entry index + 1, 0 = empty),
	 * at least twice the table size so probes stay short and an empty
	 * slot always exists.  A storm hits the same signature thousands of
	 * times a second; a linear scan of 1024 entries per record would be
	 * the daemon's hottest loop.
	 */
	uint32_t *slots;
	uint32_t slot_mask;
	/*
	 * Signatures not in a storm, least recently seen first: eviction takes
	 * the head, so a full table costs nothing more per new signature than
	 * an empty one.  (Entry index + 1, 0 = none.)
	 */
	uint32_t lru_head, lru_tail;
	uint64_t now_usec;               /* latest time seen; earlier ones clamp to it */
	uint64_t deadline_usec;          /* lower bound of the next due event */
	struct storm_counters counters;
};

static uint64_t add_sat(uint64_t a, uint64_t b)
{
	return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

static uint64_t min_u64(uint64_t a, uint64_t b)
{
	return a < b ? a : b;
}

/* splitmix64's finaliser: cheap and spreads adjacent CPU/bank numbers well. */
static uint64_t mix64(uint64_t x)
{
	x ^= x >> 30;
	x *= UINT64_C(0xbf58476d1ce4e5b9);
	x ^= x >> 27;
	x *= UINT64_C(0x94d049bb133111eb);
	x ^= x >> 31;
	return x;
}

static uint32_t key_hash(const struct storm_key *k)
{
	uint64_t h = mix64(k->code);

	h = mix64(h ^ (((uint64_t) k->cpu << 32) | k->bank) ^ (k->per_cpu ? UINT64_C(1) << 63 : 0));
	return (uint32_t) (h ^ (h >> 32));
}

static struct storm_key key_normalise(const struct storm_key *k)
{
	struct storm_key n = {
		.cpu = k->per_cpu ? k->cpu : 0,
		.bank = k->bank,
		.code = k->code,
		.per_cpu = k->per_cpu,
	};
	return n;
}

static bool key_equal(const struct storm_key *a, const struct storm_key *b)
{
	return a->cpu == b->cpu && a->bank == b->bank && a->code == b->code && a->per_cpu == b->per_cpu;
}

/* The slot holding k (*found) or the empty slot where it would go. */
static uint32_t slot_find(const struct storm *s, const struct storm_key *k, bool *found)
{
	uint32_t i = key_hash(k) & s->slot_mask;

	for (; s->slots[i] != 0; i = (i + 1) & s->slot_mask)
		if (key_equal(&s->entries[s->slots[i] - 1].key, k)) {
			*found = true;
			return i;
		}
	*found = false;
	return i;
}

/*
 * Backward-shift deletion: later members of the probe run move up into the
 * hole unless their home slot lies cyclically after it, so lookups never
 * need tombstones and the table does not degrade over many evictions.
 */
static void slot_remove(struct storm *s, uint32_t hole)
{
	uint32_t j = hole;

	for (;;) {
		j = (j + 1) & s->slot_mask;
		if (s->slots[j] == 0)
			break;
		uint32_t home = key_hash(&s->entries[s->slots[j] - 1].key) & s->slot_mask;
		/* Distance from home to j vs. from hole to j, both cyclic. */
		if (((j - home) & s->slot_mask) >= ((j - hole) & s->slot_mask)) {
			s->slots[hole] = s->slots[j];
			hole = j;
		}
	}
	s->slots[hole] = 0;
}

static uint64_t clamp_now(struct storm *s, uint64_t now_usec)
{
	if (now_usec < s->now_usec)
		return s->now_usec;
	s->now_usec = now_usec;
	return now_usec;
}

void storm_config_default(struct storm_config *config)
{
	*config = (struct storm_config) {
		.burst = STORM_DEFAULT_BURST,
		.window_usec = STORM_DEFAULT_WINDOW_USEC,
		.summary_interval_usec = STORM_DEFAULT_SUMMARY_USEC,
		.quiet_usec = STORM_DEFAULT_QUIET_USEC,
		.max_signatures = STORM_DEFAULT_MAX_SIGNATURES,
	};
}

int storm_config_validate(const struct storm_config *config)
{
	/* Zero would mean "storm on the first record" or "end at once": never what a config meant. */
	if (config->burst == 0 || config->window_usec == 0 || config->summary_interval_usec == 0 ||
	    config->quiet_usec == 0 || config->max_signatures == 0)
		return -EINVAL;
	if (config->max_signatures > STORM_MAX_SIGNATURES_LIMIT)
		return -EINVAL;
	return 0;
}

int storm_new(const struct storm_config *config, struct storm **ret)
{
	struct storm_config c;
	struct storm *s;
	uint32_t n_slots = 1;
	int r;

	if (config)
		c = *config;
	else
		storm_config_default(&c);
	r = storm_config_validate(&c);
	if (r < 0)
		return r;

	while (n_slots < 2 * c.max_signatures)
		n_slots <<= 1;

	s = calloc(1, sizeof(*s));
	if (!s)
		return -ENOMEM;
	s->config = c;
	s->entries = calloc(c.max_signatures, sizeof(*s->entries));
	s->slots = calloc(n_slots, sizeof(*s->slots));
	if (!s->entries || !s->slots) {
		storm_free(s);
		return -ENOMEM;
	}
	s->slot_mask = n_slots - 1;
	s->deadline_usec = UINT64_MAX;
	*ret = s;
	return 0;
}

void storm_free(struct storm *s)
{
	if (!s)
		return;
	for (unsigned i = 0; s->entries && i < s->n_entries; i++)
		free(s->entries[i].pages);
	free(s->entries);
	free(s->slots);
	free(s);
}

static uint32_t entry_ref(const struct storm *s, const struct storm_entry *e)
{
	return (uint32_t) (e - s->entries) + 1;
}

static struct storm_entry *entry_of(struct storm *s, uint32_t ref)
{
	return ref ? &s->entries[ref - 1] : NULL;
}

static bool lru_linked(const struct storm *s, const struct storm_entry *e)
{
	return e->lru_prev || e->lru_next || s->lru_head == entry_ref(s, e);
}

static void lru_unlink(struct storm *s, struct storm_entry *e)
{
	if (!lru_linked(s, e))
		return;
	if (e->lru_prev)
		entry_of(s, e->lru_prev)->lru_next = e->lru_next;
	else
		s->lru_head = e->lru_next;
	if (e->lru_next)
		entry_of(s, e->lru_next)->lru_prev = e->lru_prev;
	else
		s->lru_tail = e->lru_prev;
	e->lru_prev = e->lru_next = 0;
}

/*
 * Links e after the newest entry seen no later than it.  Times only grow, so
 * a record just seen goes straight to the tail; only a storm that ended (last
 * seen a quiet time ago) walks back, once per storm.
 */
static void lru_insert(struct storm *s, struct storm_entry *e)
{
	uint32_t after = s->lru_tail, ref = entry_ref(s, e);

	while (after && entry_of(s, after)->last_usec > e->last_usec)
		after = entry_of(s, after)->lru_prev;
	e->lru_prev = after;
	e->lru_next = after ? entry_of(s, after)->lru_next : s->lru_head;
	if (e->lru_next)
		entry_of(s, e->lru_next)->lru_prev = ref;
	else
		s->lru_tail = ref;
	if (after)
		entry_of(s, after)->lru_next = ref;
	else
		s->lru_head = ref;
}

/* Make room by dropping the least recently seen signature not in a storm. */
static struct storm_entry *evict(struct storm *s)
{
	struct storm_entry *victim = entry_of(s, s->lru_head);
	bool found;

	if (!victim)
		return NULL;
	lru_unlink(s, victim);
	slot_remove(s, slot_find(s, &victim->key, &found));
	s->counters.evicted++;
	return victim;
}

static struct storm_entry *lookup_or_add(struct storm *s, const struct storm_key *k)
{
	struct storm_entry *e;
	uint32_t slot;
	bool found;

	slot = slot_find(s, k, &found);
	if (found)
		return &s->entries[s->slots[slot] - 1];

	if (s->n_entries < s->config.max_signatures)
		e = &s->entries[s->n_entries++];
	else {
		e = evict(s);
		if (!e)
			return NULL;
		/* The removal may have shifted the run our empty slot was in. */
		slot = slot_find(s, k, &found);
	}

	*e = (struct storm_entry) { .key = *k };
	s->slots[slot] = (uint32_t) (e - s->entries) + 1;
	return e;
}

/* Counts page among the pending records' distinct pages; past the cap, or without memory, says so. */
static void add_page(struct storm_entry *e, uint64_t page)
{
	uint32_t i;

	if (e->pages_capped)
		return;
	if (!e->pages) {
		e->pages = calloc(STORM_PAGE_SLOTS, sizeof(*e->pages));
		if (!e->pages) {
			e->pages_capped = true;
			return;
		}
	}
	for (i = (uint32_t) mix64(page) & (STORM_PAGE_SLOTS - 1); e->pages[i] != 0;
	     i = (i + 1) & (STORM_PAGE_SLOTS - 1))
		if (e->pages[i] == page + 1)
			return;
	if (e->n_pages == STORM_MAX_PAGES) {
		e->pages_capped = true;
		return;
	}
	e->pages[i] = page + 1;
	e->n_pages++;
}

enum storm_verdict storm_account(struct storm *s, const struct storm_key *key, uint64_t now_usec)
{
	return storm_account_page(s, key, now_usec, false, 0);
}

enum storm_verdict storm_account_page(struct storm *s, const struct storm_key *key, uint64_t now_usec,
				      bool has_page, uint64_t page)
{
	struct storm_key k = key_normalise(key);
	struct storm_entry *e;
	uint64_t now = clamp_now(s, now_usec);

	s->counters.seen++;

	e = lookup_or_add(s, &k);
	if (!e) {
		/* Every slot holds a storm: logging is the only way not to lose this one. */
		s->counters.overflow++;
		s->counters.logged++;
		return STORM_LOG;
	}
	e->last_usec = now;
	if (!e->in_storm) {
		lru_unlink(s, e);
		lru_insert(s, e);
	}

	if (e->in_storm) {
		if (e->pending == 0) {
			e->pending_first_usec = now;
			/*
			 * Silent through its summary time: count a full interval
			 * from this record rather than summarise it alone at once.
			 */
			if (e->next_summary_usec <= now)
				e->next_summary_usec = add_sat(now, s->config.summary_interval_usec);
			/* A summary may now be due that was not before. */
			s->deadline_usec = min_u64(s->deadline_usec, e->next_summary_usec);
		}
		e->pending++;
		e->pending_last_usec = now;
		e->total++;
		if (has_page)
			add_page(e, page);
		s->counters.suppressed++;
		return STORM_SUPPRESS;
	}

	if (e->window_count == 0 || now - e->window_start_usec >= s->config.window_usec) {
		e->window_start_usec = now;
		e->window_count = 0;
	}
	if (e->window_count < s->config.burst) {
		e->window_count++;
		s->counters.logged++;
		return STORM_LOG;
	}

	/* One past the burst within the window: this record starts a storm. */
	lru_unlink(s, e);
	e->in_storm = true;
	e->start_usec = now;
	e->next_summary_usec = add_sat(now, s->config.summary_interval_usec);
	e->pending = 1;
	e->pending_first_usec = now;
	e->pending_last_usec = now;
	e->total = 1;
	e->summaries = 0;
	if (has_page)
		add_page(e, page);
	s->deadline_usec = min_u64(s->deadline_usec,
				   min_u64(e->next_summary_usec, add_sat(now, s->config.quiet_usec)));
	s->counters.suppressed++;
	s->counters.storms_started++;
	s->counters.active++;
	return STORM_SUPPRESS;
}

static void emit_summary(struct storm *s, struct storm_entry *e, uint64_t now,
			 storm_event_fn fn, void *userdata)
{
	struct storm_event ev = {
		.type = STORM_EVENT_SUMMARY,
		.key = e->key,
		.count = e->pending,
		.total = e->total,
		.logged = e->window_count,
		.first_usec = e->pending_first_usec,
		.last_usec = e->pending_last_usec,
		.start_usec = e->start_usec,
		.pages = e->n_pages,
		.pages_capped = e->pages_capped,
	};

	e->pending = 0;
	e->summaries++;
	if (e->pages)
		memset(e->pages, 0, STORM_PAGE_SLOTS * sizeof(*e->pages));
	e->n_pages = 0;
	e->pages_capped = false;
	/* Spaced from this summary, not from the schedule: a late tick must not bunch two up. */
	e->next_summary_usec = add_sat(now, s->config.summary_interval_usec);
	if (fn)
		fn(&ev, userdata);
}

static void emit_end(struct storm *s, struct storm_entry *e, storm_event_fn fn, void *userdata)
{
	struct storm_event ev = {
		.type = STORM_EVENT_END,
		.key = e->key,
		.count = 0,
		.total = e->total,
		.logged = e->window_count,
		.first_usec = e->start_usec,
		.last_usec = e->last_usec,
		.start_usec = e->start_usec,
	};

	/* Back to normal: the next record opens a fresh burst window. */
	e->in_storm = false;
	lru_insert(s, e);
	free(e->pages);
	e->pages = NULL;
	e->n_pages = 0;
	e->pages_capped = false;
	e->window_count = 0;
	e->total = 0;
	s->counters.storms_ended++;
	s->counters.active--;
	if (fn)
		fn(&ev, userdata);
}

unsigned storm_tick(struct storm *s, uint64_t now_usec, storm_event_fn fn, void *userdata)
{
	uint64_t now = clamp_now(s, now_usec);
	uint64_t deadline = UINT64_MAX;
	unsigned n = 0;

	/* The cached deadline is a lower bound: before it nothing can be due. */
	if (now < s->deadline_usec)
		return 0;

	for (unsigned i = 0; i < s->n_entries; i++) {
		struct storm_entry *e = &s->entries[i];
		uint64_t end_usec, d;

		if (!e->in_storm)
			continue;

		end_usec = add_sat(e->last_usec, s->config.quiet_usec);
		/* The last summary goes out with the end even if early: counts must reach the journal. */
		if (e->pending > 0 && (now >= e->next_summary_usec || now >= end_usec)) {
			emit_summary(s, e, now, fn, userdata);
			n++;
		}
		if (now >= end_usec) {
			emit_end(s, e, fn, userdata);
			n++;
			continue;
		}

		d = end_usec;
		if (e->pending > 0)
			d = min_u64(d, e->next_summary_usec);
		deadline = min_u64(deadline, d);
	}

	s->deadline_usec = deadline;
	return n;
}

uint64_t storm_next_deadline(const struct storm *s)
{
	return s->deadline_usec;
}

static void fill_info(const struct storm_entry *e, struct storm_info *info)
{
	*info = (struct storm_info) {
		.key = e->key,
		.in_storm = e->in_storm,
		.last_usec = e->last_usec,
	};
	if (e->in_storm) {
		info->start_usec = e->start_usec;
		info->logged = e->window_count;
		info->suppressed = e->total;
		info->pending = e->pending;
		info->summaries = e->summaries;
	}
}

int storm_foreach_active(const struct storm *s, storm_info_fn fn, void *userdata)
{
	for (unsigned i = 0; i < s->n_entries; i++) {
		struct storm_info info;
		int r;

		if (!s->entries[i].in_storm)
			continue;
		fill_info(&s->entries[i], &info);
		r = fn(&info, userdata);
		if (r != 0)
			return r;
	}
	return 0;
}

int storm_lookup(const struct storm *s, const struct storm_key *key, struct storm_info *info)
{
	struct storm_key k = key_normalise(key);
	uint32_t slot;
	bool found;

	slot = slot_find(s, &k, &found);
	if (!found)
		return -ENOENT;
	fill_info(&s->entries[s->slots[slot] - 1], info);
	return 0;
}

void storm_get_counters(const struct storm *s, struct storm_counters *counters)
{
	*counters = s->counters;
	counters->tracked = s->n_entries;
}
