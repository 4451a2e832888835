/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "macro.h"
#include "rule-engine.h"

/*
 * The order of eviction: the bucket used least recently makes room.
 * Records use their buckets in the order they come, whatever their times
 * say (a storm shares one second, `mcectl rules --test` gives untimed
 * records 0, a replay or a late EDAC event steps back): a record uses its
 * bucket at the latest time the rule has seen, seq breaking ties, so the
 * bucket a record just used is always the last to go.  Those are a list in
 * the order of use, which a record moves its bucket to the end of: O(1).
 * Buckets put back from the state file come in the file's order, not their
 * times': they wait in a min-heap by time until a record uses them, O(log
 * n) each.  The bucket to evict is the first of the list or of the heap,
 * whichever was used before.
 */
#define NONE UINT32_MAX

struct use {
	uint64_t time;
	uint64_t seq;
	uint32_t prev, next;               /* in the list, NONE at its ends (or in the heap) */
	uint32_t heap_pos;                 /* its place in the heap; NONE: in the list */
};

struct rule_state {
	struct rule_bucket *buckets;       /* in no order: a new bucket takes an evicted one's place */
	struct use *uses;                  /* each bucket's, at the same index */
	unsigned n_buckets, allocated;     /* allocated: at most max_keys */
	/* Buckets by key hash: open addressing, linear probing; bucket index + 1, 0 empty. */
	uint32_t *slots;
	unsigned n_slots;                  /* a power of two, at least twice allocated */
	uint32_t head, tail;               /* the list: buckets records used, least recently first */
	uint32_t *heap;                    /* buckets restored and not used by a record since */
	unsigned n_heap;
	uint64_t latest;                   /* the latest time used */
	uint64_t seq;
	struct rule_stats stats;
};

struct rule_engine {
	const struct rule_set *set;
	unsigned max_keys;
	struct rule_state *rules;          /* one per rule of set */
};

int rule_engine_new(const struct rule_set *set, unsigned max_keys, struct rule_engine **ret)
{
	_cleanup_free_ struct rule_engine *e = calloc(1, sizeof(*e));

	if (!e)
		return -ENOMEM;
	e->set = set;
	e->max_keys = max_keys ? max_keys : RULE_ENGINE_DEFAULT_MAX_KEYS;
	e->rules = calloc(set->n_rules ? set->n_rules : 1, sizeof(*e->rules));
	if (!e->rules)
		return -ENOMEM;
	for (unsigned i = 0; i < set->n_rules; i++)
		e->rules[i].head = e->rules[i].tail = NONE;
	*ret = TAKE_PTR(e);
	return 0;
}

struct rule_engine *rule_engine_free(struct rule_engine *e)
{
	if (!e)
		return NULL;
	for (unsigned i = 0; i < e->set->n_rules; i++) {
		struct rule_state *s = &e->rules[i];

		for (unsigned b = 0; b < s->n_buckets; b++)
			free(s->buckets[b].window.times);
		free(s->buckets);
		free(s->uses);
		free(s->slots);
		free(s->heap);
	}
	free(e->rules);
	free(e);
	return NULL;
}

static bool value_is(const struct rule_term *t, unsigned i, const struct rule_value *v)
{
	return v->is_string ? streq(t->values[i].s, rule_value_string(v)) : t->values[i].u == v->u;
}

static bool term_holds(const struct rule_term *t, const struct rule_input *in)
{
	struct rule_value v;
	bool any = false;

	if (rule_field_get(in, t->field, &v))
		for (unsigned i = 0; i < t->n_values && !any; i++)
			any = value_is(t, i, &v);
	/* field!=x holds when the field is absent too: the record is not an x. */
	return t->negate ? !any : any;
}

bool rule_matches(const struct rule *r, const struct rule_input *in)
{
	for (unsigned i = 0; i < r->n_terms; i++)
		if (!term_holds(&r->terms[i], in))
			return false;
	return true;
}

bool rule_key(const struct rule *r, const struct rule_input *in, char buf[static RULE_KEY_MAX])
{
	size_t used = 0;

	buf[0] = '\0';
	for (unsigned i = 0; i < r->n_key; i++) {
		struct rule_value v;

		if (!rule_field_get(in, r->key[i], &v))
			return false;
		if (i > 0) {
			if (used + 1 >= RULE_KEY_MAX)
				return false;
			buf[used++] = ' ';
		}
		/* A label longer than the key can hold would merge DIMMs: refuse rather than cut. */
		if (rule_value_format(r->key[i], &v, buf + used, RULE_KEY_MAX - used) < 0)
			return false;
		used += strlen(buf + used);
	}
	return true;
}

/* FNV-1a: the index's hash, and a cheap first comparison before strcmp. */
static uint64_t hash_key(const char *s)
{
	uint64_t h = UINT64_C(0xcbf29ce484222325);

	for (; *s; s++)
		h = (h ^ (unsigned char) *s) * UINT64_C(0x100000001b3);
	return h;
}

static unsigned home_slot(const struct rule_state *s, uint64_t h)
{
	/* FNV-1a's low bits depend on its input's low bits only: the high half is folded in. */
	return (unsigned) (h ^ (h >> 32)) & (s->n_slots - 1);
}

static struct rule_bucket *find_bucket(struct rule_state *s, const char *key, uint64_t h)
{
	if (s->n_slots == 0)
		return NULL;
	for (unsigned i = home_slot(s, h); s->slots[i]; i = (i + 1) & (s->n_slots - 1)) {
		struct rule_bucket *b = &s->buckets[s->slots[i] - 1];

		if (b->hash == h && streq(b->key, key))
			return b;
	}
	return NULL;
}

static void index_add(struct rule_state *s, unsigned idx)
{
	unsigned i = home_slot(s, s->buckets[idx].hash);

	while (s->slots[i])
		i = (i + 1) & (s->n_slots - 1);
	s->slots[i] = idx + 1;
}

/*
 * Takes bucket idx out of the index.  No tombstones, which an engine that
 * evicts at every record would fill the table with: the entries after the
 * hole that probed past it move back into it.
 */
static void index_remove(struct rule_state *s, unsigned idx)
{
	unsigned mask = s->n_slots - 1, i = home_slot(s, s->buckets[idx].hash);

	while (s->slots[i] != idx + 1)
		i = (i + 1) & mask;
	for (unsigned j = (i + 1) & mask; s->slots[j]; j = (j + 1) & mask) {
		unsigned home = home_slot(s, s->buckets[s->slots[j] - 1].hash);

		/* Its home at or before the hole (along the probe): the hole is on its way. */
		if (((j - home) & mask) >= ((j - i) & mask)) {
			s->slots[i] = s->slots[j];
			i = j;
		}
	}
	s->slots[i] = 0;
}

static bool used_before(const struct use *a, const struct use *b)
{
	return a->time != b->time ? a->time < b->time : a->seq < b->seq;
}

static void list_unlink(struct rule_state *s, uint32_t idx)
{
	const struct use *u = &s->uses[idx];

	if (u->prev != NONE)
		s->uses[u->prev].next = u->next;
	else
		s->head = u->next;
	if (u->next != NONE)
		s->uses[u->next].prev = u->prev;
	else
		s->tail = u->prev;
}

static void list_append(struct rule_state *s, uint32_t idx)
{
	struct use *u = &s->uses[idx];

	u->prev = s->tail;
	u->next = NONE;
	if (s->tail != NONE)
		s->uses[s->tail].next = idx;
	else
		s->head = idx;
	s->tail = idx;
}

static void heap_put(struct rule_state *s, unsigned p, uint32_t idx)
{
	s->heap[p] = idx;
	s->uses[idx].heap_pos = p;
}

/* Moves the bucket at place p to where its use belongs: towards the first to go, or away. */
static void heap_fix(struct rule_state *s, unsigned p)
{
	uint32_t idx = s->heap[p];
	const struct use *u = &s->uses[idx];

	while (p > 0 && used_before(u, &s->uses[s->heap[(p - 1) / 2]])) {
		heap_put(s, p, s->heap[(p - 1) / 2]);
		p = (p - 1) / 2;
	}
	for (;;) {
		unsigned c = 2 * p + 1;

		if (c >= s->n_heap)
			break;
		if (c + 1 < s->n_heap && used_before(&s->uses[s->heap[c + 1]], &s->uses[s->heap[c]]))
			c++;
		if (!used_before(&s->uses[s->heap[c]], u))
			break;
		heap_put(s, p, s->heap[c]);
		p = c;
	}
	heap_put(s, p, idx);
}

static void heap_remove(struct rule_state *s, uint32_t idx)
{
	unsigned p = s->uses[idx].heap_pos;
	uint32_t last = s->heap[--s->n_heap];

	s->uses[idx].heap_pos = NONE;
	if (last != idx) {
		heap_put(s, p, last);
		heap_fix(s, p);
	}
}

/* Takes the bucket out of the order, from the list or the heap. */
static void forget_use(struct rule_state *s, uint32_t idx)
{
	if (s->uses[idx].heap_pos != NONE)
		heap_remove(s, idx);
	else
		list_unlink(s, idx);
}

/* The bucket to evict: the list's first or the heap's, whichever was used before. */
static uint32_t least_used(const struct rule_state *s)
{
	if (s->n_heap > 0 && (s->head == NONE || used_before(&s->uses[s->heap[0]], &s->uses[s->head])))
		return s->heap[0];
	return s->head;
}

static void set_use(struct rule_state *s, uint32_t idx, uint64_t time)
{
	s->uses[idx].time = time;
	s->uses[idx].seq = ++s->seq;
	if (time > s->latest)
		s->latest = time;
}

/* A record used the bucket: it goes last (a key that repeats is last already). */
static void use_by_record(struct rule_state *s, uint32_t idx, uint64_t time)
{
	if (s->uses[idx].heap_pos != NONE) {
		heap_remove(s, idx);
		list_append(s, idx);
	} else if (s->tail != idx) {
		list_unlink(s, idx);
		list_append(s, idx);
	}
	set_use(s, idx, time);
}

/* The state file put the bucket back, last used at time: in the heap. */
static void use_by_restore(struct rule_state *s, uint32_t idx, uint64_t time)
{
	set_use(s, idx, time);
	if (s->uses[idx].heap_pos == NONE) {
		list_unlink(s, idx);
		heap_put(s, s->n_heap++, idx);
	}
	heap_fix(s, s->uses[idx].heap_pos);
}

/* Room for more buckets, max_keys at most: the arrays grow together, the index is made anew. */
static int grow(struct rule_state *s, unsigned max_keys)
{
	unsigned n = s->allocated ? s->allocated * 2 : 16, n_slots = 32;
	_cleanup_free_ uint32_t *slots = NULL;
	struct rule_bucket *buckets;
	struct use *uses;
	uint32_t *heap;

	if (n > max_keys)
		n = max_keys;
	while (n_slots < 2 * n)
		n_slots *= 2;
	slots = calloc(n_slots, sizeof(*slots));
	if (!slots)
		return -ENOMEM;
	/* Each array that grew is kept: only allocated says how far they are used. */
	buckets = realloc(s->buckets, n * sizeof(*buckets));
	if (!buckets)
		return -ENOMEM;
	s->buckets = buckets;
	uses = realloc(s->uses, n * sizeof(*uses));
	if (!uses)
		return -ENOMEM;
	s->uses = uses;
	heap = realloc(s->heap, n * sizeof(*heap));
	if (!heap)
		return -ENOMEM;
	s->heap = heap;
	free(s->slots);
	s->slots = TAKE_PTR(slots);
	s->n_slots = n_slots;
	s->allocated = n;
	for (unsigned i = 0; i < s->n_buckets; i++)
		index_add(s, i);
	return 0;
}

/* A new bucket, last in the list; the caller sets its use. */
static int add_bucket(struct rule_engine *e, const struct rule *r, struct rule_state *s,
		      const char *key, uint64_t h, uint32_t *ret)
{
	_cleanup_free_ uint64_t *times = calloc(r->count, sizeof(*times));
	struct rule_bucket *b;
	uint32_t idx;

	if (!times)
		return -ENOMEM;
	if (s->n_buckets >= e->max_keys) {
		/* The least recently used makes room: the new bucket takes its place. */
		idx = least_used(s);
		forget_use(s, idx);
		index_remove(s, idx);
		free(s->buckets[idx].window.times);
		s->stats.evicted++;
	} else {
		if (s->n_buckets == s->allocated) {
			int k = grow(s, e->max_keys);

			if (k < 0)
				return k;
		}
		idx = s->n_buckets++;
	}
	b = &s->buckets[idx];
	/* New: written whole, so that an evicted bucket of the same key on disk is replaced, not added to. */
	*b = (struct rule_bucket) { .hash = h, .window = { .times = TAKE_PTR(times) }, .rewrite = true };
	snprintf(b->key, sizeof(b->key), "%s", key);
	index_add(s, idx);
	s->uses[idx] = (struct use) { .heap_pos = NONE };
	list_append(s, idx);
	*ret = idx;
	return 0;
}

static int get_bucket(struct rule_engine *e, unsigned i, const char *key, uint64_t now_usec,
		      struct rule_bucket **ret)
{
	struct rule_state *s = &e->rules[i];
	uint64_t h = hash_key(key);
	struct rule_bucket *b = find_bucket(s, key, h);
	uint32_t idx;

	if (b)
		idx = (uint32_t) (b - s->buckets);
	else {
		int k = add_bucket(e, &e->set->rules[i], s, key, h, &idx);

		if (k < 0)
			return k;
	}
	use_by_record(s, idx, now_usec > s->latest ? now_usec : s->latest);
	*ret = &s->buckets[idx];
	return 0;
}

/* True if the bucket counted this error already; else remembers it. */
static bool seen_error(struct rule_bucket *b, uint64_t error_id)
{
	if (error_id == 0)
		return false;
	for (unsigned k = 0; k < RULE_BUCKET_ERROR_IDS; k++)
		if (b->error_ids[k] == error_id)
			return true;
	b->error_ids[b->next_error_id] = error_id;
	b->next_error_id = (b->next_error_id + 1) % RULE_BUCKET_ERROR_IDS;
	return false;
}

int rule_engine_feed(struct rule_engine *e, const struct rule_input *in, uint64_t now_usec,
		     rule_fire_fn fire, void *userdata)
{
	int fired = 0;

	for (unsigned i = 0; i < e->set->n_rules; i++) {
		const struct rule *r = &e->set->rules[i];
		struct rule_state *s = &e->rules[i];
		struct rule_bucket *b;
		char key[RULE_KEY_MAX];
		uint64_t first;
		unsigned before;
		bool fired_now;
		int k;

		if (!rule_matches(r, in))
			continue;
		s->stats.matched++;
		if (!rule_key(r, in, key)) {
			s->stats.unkeyed++;
			continue;
		}
		k = get_bucket(e, i, key, now_usec, &b);
		if (k < 0)
			return k;
		if (seen_error(b, in->error_id)) {
			s->stats.copies++;
			continue;
		}
		if (now_usec < b->holdoff_until) {
			s->stats.held++;
			b->window.last_usec = b->window.last_usec > now_usec ? b->window.last_usec : now_usec;
			continue;
		}
		before = b->window.n;
		fired_now = rule_window_add(&b->window, r->count, r->window_usec, now_usec, &first);
		/* Only a record added at the end, nothing dropped, can be appended as one more time. */
		if (fired_now || b->window.n != before + 1)
			b->rewrite = true;
		else
			b->fresh++;
		if (!fired_now)
			continue;
		s->stats.fired++;
		fired++;
		if (r->holdoff_usec > 0)
			b->holdoff_until = b->window.last_usec + r->holdoff_usec;
		if (fire)
			fire(&(struct rule_firing) {
				.rule = r, .rule_index = i, .key = b->key, .count = r->count,
				.window_usec = r->window_usec, .first_usec = first,
				.now_usec = b->window.last_usec, .input = in,
			}, userdata);
	}
	return fired;
}

const struct rule_set *rule_engine_rules(const struct rule_engine *e)
{
	return e->set;
}

const struct rule_stats *rule_engine_stats(const struct rule_engine *e, unsigned rule_index)
{
	return rule_index < e->set->n_rules ? &e->rules[rule_index].stats : NULL;
}

const struct rule_bucket *rule_engine_buckets(const struct rule_engine *e, unsigned rule_index,
					      unsigned *ret_n)
{
	if (rule_index >= e->set->n_rules) {
		*ret_n = 0;
		return NULL;
	}
	*ret_n = e->rules[rule_index].n_buckets;
	return e->rules[rule_index].buckets;
}

void rule_engine_changes_clear(struct rule_engine *e)
{
	for (unsigned i = 0; i < e->set->n_rules; i++)
		for (unsigned k = 0; k < e->rules[i].n_buckets; k++) {
			e->rules[i].buckets[k].fresh = 0;
			e->rules[i].buckets[k].rewrite = false;
		}
}

int rule_engine_restore(struct rule_engine *e, const char *rule_name, const char *key,
			uint64_t holdoff_until, const uint64_t *times, unsigned n_times)
{
	for (unsigned i = 0; i < e->set->n_rules; i++) {
		const struct rule *r = &e->set->rules[i];
		struct rule_state *s = &e->rules[i];
		struct rule_bucket *b;
		uint64_t h, used = 0;
		unsigned skip;

		if (!streq(r->name, rule_name))
			continue;
		if (strlen(key) >= RULE_KEY_MAX)
			return 0;
		/* Keep the newest N-1: N would have fired already. */
		skip = n_times >= r->count ? n_times - (r->count - 1) : 0;
		/* Last used at its newest time; one resting after a firing (Holdoff=) when it fired. */
		for (unsigned t = skip; t < n_times; t++)
			if (times[t] > used)
				used = times[t];
		if (holdoff_until > 0) {
			uint64_t fired = holdoff_until > r->holdoff_usec ? holdoff_until - r->holdoff_usec : 0;

			if (fired > used)
				used = fired;
		}
		h = hash_key(key);
		b = find_bucket(s, key, h);
		if (!b) {
			uint32_t idx;
			int k;

			/* Full, and used before every bucket held: it would be the first to go. */
			if (s->n_buckets >= e->max_keys && used < s->uses[least_used(s)].time) {
				s->stats.evicted++;
				return 0;
			}
			k = add_bucket(e, r, s, key, h, &idx);
			if (k < 0)
				return k;
			b = &s->buckets[idx];
		}
		b->window.n = 0;
		b->window.head = 0;
		b->holdoff_until = holdoff_until;
		for (unsigned t = skip; t < n_times; t++) {
			b->window.times[b->window.n++] = times[t];
			if (times[t] > b->window.last_usec)
				b->window.last_usec = times[t];
		}
		use_by_restore(s, (uint32_t) (b - s->buckets),
			       b->window.last_usec > used ? b->window.last_usec : used);
		b->fresh = 0;
		b->rewrite = false;
		return 0;
	}
	return 0;
}
