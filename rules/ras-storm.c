/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "ras-storm.h"

struct named_storm {
	struct storm_key digest;
	struct ras_storm_key key;
};

struct ras_storm {
	struct storm *engine;
	/*
	 * The storms in progress, unordered.  Storms are few (each one is a
	 * failing part) and a flood hits the same one record after record, so
	 * a scan that usually stops at the first entry is enough.
	 */
	struct named_storm *storms;
	size_t n, cap;
	uint64_t collisions;
};

int ras_storm_new(const struct storm_config *config, struct ras_storm **ret)
{
	struct ras_storm *s = calloc(1, sizeof(*s));
	int r;

	if (!s)
		return -ENOMEM;
	r = storm_new(config, &s->engine);
	if (r < 0) {
		free(s);
		return r;
	}
	*ret = s;
	return 0;
}

void ras_storm_free(struct ras_storm *s)
{
	if (!s)
		return;
	storm_free(s->engine);
	free(s->storms);
	free(s);
}

static bool digest_equal(const struct storm_key *a, const struct storm_key *b)
{
	return a->bank == b->bank && a->code == b->code;
}

static struct named_storm *find(const struct ras_storm *s, const struct storm_key *digest)
{
	for (size_t i = 0; i < s->n; i++)
		if (digest_equal(&s->storms[i].digest, digest))
			return &s->storms[i];
	return NULL;
}

static int grow(struct ras_storm *s)
{
	size_t cap = s->cap ? s->cap * 2 : 8;
	struct named_storm *p = realloc(s->storms, cap * sizeof(*p));

	if (!p)
		return -ENOMEM;
	s->storms = p;
	s->cap = cap;
	return 0;
}

static void forget(struct ras_storm *s, struct named_storm *e)
{
	*e = s->storms[--s->n];
}

enum storm_verdict ras_storm_account(struct ras_storm *s, const struct ras_storm_key *key, uint64_t now_usec)
{
	struct storm_key digest = ras_storm_key_digest(key);
	struct named_storm *e = find(s, &digest);
	enum storm_verdict v;

	if (e && !ras_storm_key_equal(&e->key, key)) {
		s->collisions++;
		return STORM_LOG;
	}
	/*
	 * A storm needs its name before it starts: without memory for it, keep
	 * the signature out of the engine, so it cannot start one, and log.
	 */
	if (!e && s->n == s->cap && grow(s) < 0)
		return STORM_LOG;
	v = storm_account(s->engine, &digest, now_usec);
	if (v == STORM_SUPPRESS && !e)
		s->storms[s->n++] = (struct named_storm) { .digest = digest, .key = *key };
	return v;
}

struct tick_ctx {
	struct ras_storm *s;
	ras_storm_event_fn fn;
	void *userdata;
};

static void on_event(const struct storm_event *ev, void *userdata)
{
	struct tick_ctx *c = userdata;
	struct named_storm *e = find(c->s, &ev->key);
	struct ras_storm_key unknown = { .event = (enum ras_event) ev->key.bank };

	if (c->fn)
		c->fn(ev, e ? &e->key : &unknown, c->userdata);
	if (e && ev->type == STORM_EVENT_END)
		forget(c->s, e);
}

unsigned ras_storm_tick(struct ras_storm *s, uint64_t now_usec, ras_storm_event_fn fn, void *userdata)
{
	struct tick_ctx c = { .s = s, .fn = fn, .userdata = userdata };

	return storm_tick(s->engine, now_usec, on_event, &c);
}

uint64_t ras_storm_next_deadline(const struct ras_storm *s)
{
	return storm_next_deadline(s->engine);
}

struct foreach_ctx {
	const struct ras_storm *s;
	ras_storm_info_fn fn;
	void *userdata;
};

static int on_info(const struct storm_info *info, void *userdata)
{
	struct foreach_ctx *c = userdata;
	const struct named_storm *e = find(c->s, &info->key);
	struct ras_storm_key unknown = { .event = (enum ras_event) info->key.bank };

	return c->fn(info, e ? &e->key : &unknown, c->userdata);
}

int ras_storm_foreach_active(const struct ras_storm *s, ras_storm_info_fn fn, void *userdata)
{
	struct foreach_ctx c = { .s = s, .fn = fn, .userdata = userdata };

	return storm_foreach_active(s->engine, on_info, &c);
}

void ras_storm_get_counters(const struct ras_storm *s, struct storm_counters *counters, uint64_t *collisions)
{
	storm_get_counters(s->engine, counters);
	if (collisions)
		*collisions = s->collisions;
}
