/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "macro.h"
#include "rule-engine.h"

struct rule_state {
	struct rule_bucket *buckets;
	unsigned n_buckets, allocated;
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

/* FNV-1a: a cheap first comparison before strcmp. */
static uint64_t hash_key(const char *s)
{
	uint64_t h = UINT64_C(0xcbf29ce484222325);

	for (; *s; s++)
		h = (h ^ (unsigned char) *s) * UINT64_C(0x100000001b3);
	return h;
}

static struct rule_bucket *find_bucket(struct rule_state *s, const char *key, uint64_t h)
{
	for (unsigned i = 0; i < s->n_buckets; i++)
		if (s->buckets[i].hash == h && streq(s->buckets[i].key, key))
			return &s->buckets[i];
	return NULL;
}

static int add_bucket(struct rule_engine *e, const struct rule *r, struct rule_state *s,
		      const char *key, uint64_t h, struct rule_bucket **ret)
{
	struct rule_bucket *b;
	uint64_t *times = calloc(r->count, sizeof(*times));

	if (!times)
		return -ENOMEM;
	if (s->n_buckets >= e->max_keys) {
		unsigned oldest = 0;

		for (unsigned i = 1; i < s->n_buckets; i++)
			if (s->buckets[i].window.last_usec < s->buckets[oldest].window.last_usec)
				oldest = i;
		free(s->buckets[oldest].window.times);
		s->buckets[oldest] = s->buckets[--s->n_buckets];
		s->stats.evicted++;
	}
	if (s->n_buckets == s->allocated) {
		unsigned n = s->allocated ? s->allocated * 2 : 16;
		struct rule_bucket *nb = realloc(s->buckets, n * sizeof(*nb));

		if (!nb) {
			free(times);
			return -ENOMEM;
		}
		s->buckets = nb;
		s->allocated = n;
	}
	b = &s->buckets[s->n_buckets++];
	/* New: written whole, so that an evicted bucket of the same key on disk is replaced, not added to. */
	*b = (struct rule_bucket) { .hash = h, .window = { .times = times }, .rewrite = true };
	snprintf(b->key, sizeof(b->key), "%s", key);
	*ret = b;
	return 0;
}

static int get_bucket(struct rule_engine *e, unsigned i, const char *key, struct rule_bucket **ret)
{
	struct rule_state *s = &e->rules[i];
	uint64_t h = hash_key(key);

	*ret = find_bucket(s, key, h);
	if (*ret)
		return 0;
	return add_bucket(e, &e->set->rules[i], s, key, h, ret);
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
		k = get_bucket(e, i, key, &b);
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
		struct rule_bucket *b;
		unsigned skip;
		int k;

		if (!streq(r->name, rule_name))
			continue;
		if (strlen(key) >= RULE_KEY_MAX)
			return 0;
		k = get_bucket(e, i, key, &b);
		if (k < 0)
			return k;
		/* Keep the newest N-1: N would have fired already. */
		skip = n_times >= r->count ? n_times - (r->count - 1) : 0;
		b->window.n = 0;
		b->window.head = 0;
		b->holdoff_until = holdoff_until;
		for (unsigned t = skip; t < n_times; t++) {
			b->window.times[b->window.n++] = times[t];
			if (times[t] > b->window.last_usec)
				b->window.last_usec = times[t];
		}
		b->fresh = 0;
		b->rewrite = false;
		return 0;
	}
	return 0;
}
