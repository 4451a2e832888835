/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "macro.h"
#include "parse-number.h"
#include "rule-state.h"

#define MAGIC "mcelogd-rules-state 1"

void rule_state_done(struct rule_state *s)
{
	for (unsigned i = 0; i < s->n_buckets; i++)
		free(s->buckets[i]);
	free(s->buckets);
	free(s->bucket_slots);
	free(s->pages);
	free(s->page_slots);
	free(s->alerts);
	free(s->rows);
	free(s->repairs);
	*s = (struct rule_state) { 0 };
}

static uint64_t bucket_hash(const char *rule, const char *key)
{
	/* FNV-1a over "rule\tkey", no copy made. */
	uint64_t h = UINT64_C(0xcbf29ce484222325);

	for (const char *p = rule; *p; p++)
		h = (h ^ (unsigned char) *p) * UINT64_C(0x100000001b3);
	h = (h ^ '\t') * UINT64_C(0x100000001b3);
	for (const char *p = key; *p; p++)
		h = (h ^ (unsigned char) *p) * UINT64_C(0x100000001b3);
	return h;
}

static void bucket_slot_put(struct rule_state *s, unsigned i)
{
	const struct rule_state_bucket *b = s->buckets[i];
	unsigned k = (unsigned) bucket_hash(b->rule, b->key) & (s->n_bucket_slots - 1);

	while (s->bucket_slots[k])
		k = (k + 1) & (s->n_bucket_slots - 1);
	s->bucket_slots[k] = i + 1;
}

/* Indexes every bucket, the table at most half full.  -ENOMEM leaves none (lookups then scan). */
static int bucket_index_rebuild(struct rule_state *s)
{
	unsigned n = 16;

	while (n < 2 * s->n_buckets + 2)
		n *= 2;
	free(s->bucket_slots);
	s->n_bucket_indexed = 0;
	s->bucket_slots = calloc(n, sizeof(*s->bucket_slots));
	if (!s->bucket_slots) {
		s->n_bucket_slots = 0;
		return -ENOMEM;
	}
	s->n_bucket_slots = n;
	for (unsigned i = 0; i < s->n_buckets; i++)
		bucket_slot_put(s, i);
	s->n_bucket_indexed = s->n_buckets;
	return 0;
}

/* The bucket of rule and key, -1 if none. */
static int bucket_find(struct rule_state *s, const char *rule, const char *key)
{
	if ((s->n_bucket_slots == 0 || s->n_bucket_indexed != s->n_buckets) && bucket_index_rebuild(s) < 0) {
		for (unsigned i = 0; i < s->n_buckets; i++)
			if (streq(s->buckets[i]->rule, rule) && streq(s->buckets[i]->key, key))
				return (int) i;
		return -1;
	}
	for (unsigned k = (unsigned) bucket_hash(rule, key) & (s->n_bucket_slots - 1); s->bucket_slots[k];
	     k = (k + 1) & (s->n_bucket_slots - 1)) {
		const struct rule_state_bucket *b = s->buckets[s->bucket_slots[k] - 1];

		if (streq(b->key, key) && streq(b->rule, rule))
			return (int) s->bucket_slots[k] - 1;
	}
	return -1;
}

int rule_state_add_bucket(struct rule_state *s, const char *rule, const char *key,
			  uint64_t holdoff_until, const uint64_t *times, unsigned n_times)
{
	struct rule_state_bucket *b, **grown;

	if (strlen(rule) >= RULE_NAME_MAX || strlen(key) >= RULE_KEY_MAX || n_times > RULE_MAX_COUNT)
		return -E2BIG;
	b = malloc(sizeof(*b) + n_times * sizeof(b->times[0]));
	if (!b)
		return -ENOMEM;
	grown = realloc(s->buckets, (s->n_buckets + 1) * sizeof(*grown));
	if (!grown) {
		free(b);
		return -ENOMEM;
	}
	s->buckets = grown;
	snprintf(b->rule, sizeof(b->rule), "%s", rule);
	snprintf(b->key, sizeof(b->key), "%s", key);
	b->holdoff_until = holdoff_until;
	b->n_times = n_times;
	if (n_times)
		memcpy(b->times, times, n_times * sizeof(times[0]));
	s->buckets[s->n_buckets++] = b;
	/* Kept up to date once built (a journal's lines); otherwise built at the first lookup. */
	if (s->n_bucket_indexed == s->n_buckets - 1 && s->n_bucket_slots >= 2 * s->n_buckets) {
		bucket_slot_put(s, s->n_buckets - 1);
		s->n_bucket_indexed++;
	}
	return 0;
}

/*
 * A journal's bucket: replaces the bucket of rule and key (or adds it); with
 * append, its times go after those the bucket has, the newest
 * RULE_MAX_COUNT kept, and its holdoff stays.  0, -E2BIG or -ENOMEM.
 */
static int set_bucket(struct rule_state *s, const char *rule, const char *key, uint64_t holdoff_until,
		      const uint64_t *times, unsigned n_times, bool append)
{
	int i = bucket_find(s, rule, key);
	struct rule_state_bucket *old, *b;
	unsigned keep = 0, drop;

	if (i < 0)
		return rule_state_add_bucket(s, rule, key, holdoff_until, times, n_times);
	old = s->buckets[i];
	if (append) {
		keep = old->n_times;
		holdoff_until = old->holdoff_until;
	}
	drop = keep + n_times > RULE_MAX_COUNT ? keep + n_times - RULE_MAX_COUNT : 0;
	b = malloc(sizeof(*b) + (keep + n_times - drop) * sizeof(b->times[0]));
	if (!b)
		return -ENOMEM;
	*b = *old;
	b->holdoff_until = holdoff_until;
	b->n_times = 0;
	for (unsigned t = drop; t < keep; t++)
		b->times[b->n_times++] = old->times[t];
	for (unsigned t = drop > keep ? drop - keep : 0; t < n_times; t++)
		b->times[b->n_times++] = times[t];
	free(old);
	s->buckets[i] = b;
	return 0;
}

static uint64_t fnv1a(const char *p, size_t n)
{
	uint64_t h = UINT64_C(0xcbf29ce484222325);

	for (size_t i = 0; i < n; i++)
		h = (h ^ (unsigned char) p[i]) * UINT64_C(0x100000001b3);
	return h;
}

uint64_t rule_state_key_hash(const char *key)
{
	return fnv1a(key, strlen(key));
}

/*
 * Appends item (size bytes) to the array whose pointer is at array_ptr, of *n
 * items, at most max of them: 0, -E2BIG or -ENOMEM.  The pointer is read and
 * written with memcpy, so any array's pointer can be passed.
 */
static int append(void *array_ptr, unsigned *n, unsigned max, size_t size, const void *item)
{
	void *items;
	char *grown;

	if (*n >= max)
		return -E2BIG;
	memcpy(&items, array_ptr, sizeof(items));
	grown = realloc(items, (*n + 1) * size);
	if (!grown)
		return -ENOMEM;
	memcpy(array_ptr, &grown, sizeof(grown));
	memcpy(grown + *n * size, item, size);
	(*n)++;
	return 0;
}

static unsigned page_slot_of(uint64_t pfn, unsigned n_slots)
{
	/* Fibonacci hashing: neighbouring frames (one DIMM's pages) spread over the table. */
	return (unsigned) ((pfn * UINT64_C(0x9e3779b97f4a7c15)) >> 32) & (n_slots - 1);
}

/* Rebuilds the index for n_pages, at most half full; -ENOMEM keeps the old one (lookups then scan). */
static int page_index_rebuild(struct rule_state *s)
{
	unsigned n = 16;
	uint32_t *slots;

	while (n < 2 * s->n_pages + 2)
		n *= 2;
	slots = calloc(n, sizeof(*slots));
	if (!slots)
		return -ENOMEM;
	for (unsigned i = 0; i < s->n_pages; i++) {
		unsigned k = page_slot_of(s->pages[i].pfn, n);

		while (slots[k])
			k = (k + 1) & (n - 1);
		slots[k] = i + 1;
	}
	free(s->page_slots);
	s->page_slots = slots;
	s->n_page_slots = n;
	return 0;
}

static int page_find_index(const struct rule_state *s, uint64_t pfn)
{
	if (s->n_page_slots == 0 || s->n_page_slots < 2 * s->n_pages) {
		for (unsigned i = 0; i < s->n_pages; i++)
			if (s->pages[i].pfn == pfn)
				return (int) i;
		return -1;
	}
	for (unsigned k = page_slot_of(pfn, s->n_page_slots); s->page_slots[k]; k = (k + 1) & (s->n_page_slots - 1))
		if (s->pages[s->page_slots[k] - 1].pfn == pfn)
			return (int) s->page_slots[k] - 1;
	return -1;
}

int rule_state_add_page(struct rule_state *s, const struct rule_state_page *p)
{
	if (s->n_pages >= RULE_STATE_MAX_PAGES)
		return -E2BIG;
	if (s->n_pages == s->pages_allocated) {
		/* Doubling: one realloc per added page made a state of many pages quadratic to build. */
		unsigned n = s->pages_allocated ? 2 * s->pages_allocated : 16;
		struct rule_state_page *grown = realloc(s->pages, n * sizeof(*grown));

		if (!grown)
			return -ENOMEM;
		s->pages = grown;
		s->pages_allocated = n;
	}
	s->pages[s->n_pages++] = *p;
	if (s->n_page_slots < 2 * s->n_pages) {
		/* Without memory for a larger index, lookups scan (page_find_index()). */
		(void) page_index_rebuild(s);
		return 0;
	}
	for (unsigned k = page_slot_of(p->pfn, s->n_page_slots);; k = (k + 1) & (s->n_page_slots - 1))
		if (!s->page_slots[k]) {
			s->page_slots[k] = s->n_pages;
			return 0;
		}
}

int rule_state_add_alert(struct rule_state *s, const struct rule_state_alert *a)
{
	if (!s->alerts) {
		s->alerts = calloc(RULE_STATE_MAX_ALERTS, sizeof(*s->alerts));
		if (!s->alerts)
			return -ENOMEM;
	}
	if (s->n_alerts == RULE_STATE_MAX_ALERTS) {
		memmove(s->alerts, s->alerts + 1, (RULE_STATE_MAX_ALERTS - 1) * sizeof(*s->alerts));
		s->n_alerts--;
	}
	s->alerts[s->n_alerts++] = *a;
	s->alerts_added++;
	return 0;
}

int rule_state_add_row(struct rule_state *s, const struct rule_state_row *r)
{
	int k = append(&s->rows, &s->n_rows, RULE_STATE_MAX_ROWS, sizeof(*r), r);

	if (k >= 0)
		s->rows[s->n_rows - 1].hash = rule_state_key_hash(r->key);
	return k;
}

unsigned rule_state_row_to_evict(const struct rule_state *s)
{
	unsigned pick = 0;

	for (unsigned i = 1; i < s->n_rows; i++) {
		const struct rule_state_row *a = &s->rows[i], *b = &s->rows[pick];
		bool a_free = a->isolated_usec == 0, b_free = b->isolated_usec == 0;

		if (a_free != b_free ? a_free : a->last_usec < b->last_usec)
			pick = i;
	}
	return pick;
}

int rule_state_add_repair(struct rule_state *s, const struct rule_state_repair *r)
{
	if (!memchr(r->device, '\0', sizeof(r->device)) || !memchr(r->location, '\0', sizeof(r->location)) ||
	    !memchr(r->boot_id, '\0', sizeof(r->boot_id)))
		return -E2BIG;
	return append(&s->repairs, &s->n_repairs, RULE_STATE_MAX_REPAIRS, sizeof(*r), r);
}

void rule_state_remove_repair(struct rule_state *s, unsigned i)
{
	if (i >= s->n_repairs)
		return;
	memmove(s->repairs + i, s->repairs + i + 1, (s->n_repairs - i - 1) * sizeof(*s->repairs));
	s->n_repairs--;
}

static const char *const repair_statuses[_RULE_STATE_REPAIR_STATUS_MAX] = {
	[RULE_STATE_REPAIR_DONE] = "done",
	[RULE_STATE_REPAIR_FAILED] = "failed",
	[RULE_STATE_REPAIR_INTENT] = "intent",
};

const char *rule_state_repair_status_to_string(enum rule_state_repair_status st)
{
	return (unsigned) st < _RULE_STATE_REPAIR_STATUS_MAX ? repair_statuses[st] : "unknown";
}

const struct rule_state_page *rule_state_find_page(const struct rule_state *s, uint64_t pfn)
{
	int i = page_find_index(s, pfn);

	return i < 0 ? NULL : &s->pages[i];
}

int rule_state_forget_page(struct rule_state *s, uint64_t pfn)
{
	int i = page_find_index(s, pfn);

	if (i < 0)
		return -ENOENT;
	memmove(&s->pages[i], &s->pages[i + 1], (s->n_pages - (unsigned) i - 1) * sizeof(s->pages[0]));
	s->n_pages--;
	/* Rare (an operator's forget): the index is made anew; without memory, lookups scan. */
	if (page_index_rebuild(s) < 0) {
		free(s->page_slots);
		s->page_slots = NULL;
		s->n_page_slots = 0;
	}
	return 0;
}

int rule_state_set_page(struct rule_state *s, const struct rule_state_page *p)
{
	int i = page_find_index(s, p->pfn);

	if (i >= 0) {
		s->pages[i] = *p;
		return 0;
	}
	return rule_state_add_page(s, p);
}

int rule_state_capture(struct rule_state *s, const struct rule_engine *e, uint64_t now_usec)
{
	const struct rule_set *set = rule_engine_rules(e);
	uint64_t times[RULE_MAX_COUNT];

	for (unsigned i = 0; i < s->n_buckets; i++)
		free(s->buckets[i]);
	s->n_buckets = 0;
	s->n_bucket_indexed = 0;
	for (unsigned i = 0; i < set->n_rules; i++) {
		const struct rule *r = &set->rules[i];
		unsigned n;
		const struct rule_bucket *b = rule_engine_buckets(e, i, &n);

		for (unsigned k = 0; k < n; k++) {
			const struct rule_window *w = &b[k].window;
			unsigned m = 0;
			int ret;

			for (unsigned t = 0; t < w->n; t++) {
				uint64_t x = w->times[(w->head + t) % r->count];

				if (now_usec < x || now_usec - x < r->window_usec)
					times[m++] = x;
			}
			/* An empty bucket not resting carries nothing worth a line. */
			if (m == 0 && b[k].holdoff_until <= now_usec)
				continue;
			ret = rule_state_add_bucket(s, r->name, b[k].key, b[k].holdoff_until, times, m);
			if (ret < 0)
				return ret;
		}
	}
	return 0;
}

int rule_state_restore(const struct rule_state *s, struct rule_engine *e)
{
	for (unsigned i = 0; i < s->n_buckets; i++) {
		const struct rule_state_bucket *b = s->buckets[i];
		int r = rule_engine_restore(e, b->rule, b->key, b->holdoff_until, b->times, b->n_times);

		if (r < 0)
			return r;
	}
	return 0;
}

/* ---- text ---- */

struct out {
	char *buf;
	size_t len, size;
	bool failed;
};

_printf_(2, 3)
static void put(struct out *o, const char *fmt, ...)
{
	va_list ap;
	int n;

	for (;;) {
		if (o->failed)
			return;
		va_start(ap, fmt);
		n = vsnprintf(o->buf ? o->buf + o->len : NULL, o->buf ? o->size - o->len : 0, fmt, ap);
		va_end(ap);
		if (n < 0) {
			o->failed = true;
			return;
		}
		if (o->buf && o->len + (size_t) n < o->size) {
			o->len += (size_t) n;
			return;
		}
		{
			size_t size = (o->size + (size_t) n + 1) * 2;
			char *b = realloc(o->buf, size);

			if (!b) {
				o->failed = true;
				return;
			}
			o->buf = b;
			o->size = size;
		}
	}
}

static bool needs_escape(unsigned char c)
{
	return c == '%' || c < 0x20 || c == 0x7f;
}

/* Runs of plain bytes in one put: one vsnprintf per byte made large states slow to write. */
static void put_escaped(struct out *o, const char *s)
{
	while (*s) {
		size_t n = 0;

		while (s[n] && !needs_escape((unsigned char) s[n]))
			n++;
		if (n > 0)
			put(o, "%.*s", (int) n, s);
		s += n;
		if (*s)
			put(o, "%%%02X", (unsigned char) *s++);
	}
}

/* Optional text: "-" for none, and a text that is "-" itself escaped. */
static void put_escaped_or_dash(struct out *o, const char *s)
{
	if (!s[0])
		put(o, "-");
	else if (streq(s, "-"))
		put(o, "%%2D");
	else
		put_escaped(o, s);
}


static void put_page(struct out *o, const struct rule_state_page *p)
{
	put(o, "page\t0x%" PRIx64 "\t%s\t%" PRIu64 "\t%s\t%s\t%s\t", p->pfn, p->hard ? "hard" : "soft",
	    p->time_usec, p->pending ? "pending" : p->salvaged ? "salvaged" : p->held ? "held" : p->ok ? "ok" : "failed",
	    p->boot_id[0] ? p->boot_id : "-", p->machine_id[0] ? p->machine_id : "-");
	put_escaped_or_dash(o, p->identity);
	put(o, "\t");
	put_escaped_or_dash(o, p->origin);
	put(o, "\n");
}

int rule_state_format_page(const struct rule_state_page *p, char **ret, size_t *ret_len)
{
	struct out o = { 0 };

	put_page(&o, p);
	if (o.failed || !o.buf) {
		free(o.buf);
		return -ENOMEM;
	}
	*ret = o.buf;
	*ret_len = o.len;
	return 0;
}

static void put_times(struct out *o, const uint64_t *times, unsigned n)
{
	for (unsigned t = 0; t < n; t++)
		put(o, "%s%" PRIu64, t ? "," : "", times[t]);
}

static void put_bucket(struct out *o, const char *rule, const char *key, uint64_t holdoff_until,
		       const uint64_t *times, unsigned n)
{
	put(o, "bucket\t");
	put_escaped(o, rule);
	put(o, "\t");
	put_escaped(o, key);
	put(o, "\t%" PRIu64 "\t", holdoff_until);
	put_times(o, times, n);
	put(o, "\n");
}

static void put_alert(struct out *o, const struct rule_state_alert *a)
{
	put(o, "alert\t%" PRIu64 "\t", a->time_usec);
	put_escaped(o, a->rule);
	put(o, "\t");
	put_escaped(o, a->key);
	put(o, "\n");
}

static void put_row(struct out *o, const struct rule_state_row *r)
{
	put(o, "row\t");
	put_escaped(o, r->rule);
	put(o, "\t");
	put_escaped(o, r->key);
	put(o, "\t%" PRIu64 "\t%" PRIu64 "\t", r->isolated_usec, r->last_usec);
	for (unsigned k = 0; k < r->n_pages; k++)
		put(o, "%s0x%" PRIx64 "@%" PRIu64, k ? "," : "", r->pages[k].pfn, r->pages[k].seen_usec);
	put(o, "\n");
}

int rule_state_format(const struct rule_state *s, char **ret, size_t *ret_len)
{
	struct out o = { 0 };
	unsigned lines = 1;

	put(&o, "%s\n", MAGIC);
	for (unsigned i = 0; i < s->n_buckets; i++, lines++) {
		const struct rule_state_bucket *b = s->buckets[i];

		put_bucket(&o, b->rule, b->key, b->holdoff_until, b->times, b->n_times);
	}
	for (unsigned i = 0; i < s->n_pages; i++, lines++)
		put_page(&o, &s->pages[i]);
	for (unsigned i = 0; i < s->n_alerts; i++, lines++)
		put_alert(&o, &s->alerts[i]);
	for (unsigned i = 0; i < s->n_rows; i++, lines++)
		put_row(&o, &s->rows[i]);
	for (unsigned i = 0; i < s->n_repairs; i++, lines++) {
		const struct rule_state_repair *r = &s->repairs[i];

		put(&o, "repair\t");
		put_escaped(&o, r->device);
		put(&o, "\t");
		put_escaped(&o, r->location);
		put(&o, "\t%" PRIu64 "\t%s\t%s\t%s\n", r->time_usec, rule_state_repair_status_to_string(r->status),
		    r->boot_id[0] ? r->boot_id : "-", r->hard ? "hard" : "soft");
	}
	if (!o.failed)
		put(&o, "end\t%u\t%016" PRIx64 "\n", lines, fnv1a(o.buf, o.len));
	if (o.failed) {
		free(o.buf);
		return -ENOMEM;
	}
	*ret = o.buf;
	*ret_len = o.len;
	return 0;
}

int rule_state_text_sum(const char *text, size_t len, uint64_t *ret)
{
	const char *p, *end = text + len;

	/* The end line is the last: "end\tLINES\tSUM\n", SUM 16 hex digits. */
	if (len < 2 || end[-1] != '\n')
		return -EINVAL;
	for (p = end - 1; p > text && p[-1] != '\n'; p--)
		;
	if (end - p < 4 + 2 + 16 + 1 || memcmp(p, "end\t", 4) != 0)
		return -EINVAL;
	return parse_unsigned(end - 17, 16, 16, UINT64_MAX, ret) < 0 ? -EINVAL : 0;
}

void rule_state_format_base(const struct rule_state *s, char *buf, size_t size)
{
	if (s->has_file_sum)
		snprintf(buf, size, "base\t%016" PRIx64 "\n", s->file_sum);
	else
		snprintf(buf, size, "base\t-\n");
}

int rule_state_format_changes(const struct rule_state *s, const struct rule_engine *e, char **ret,
			      size_t *ret_len)
{
	const struct rule_set *set = e ? rule_engine_rules(e) : NULL;
	uint64_t times[RULE_MAX_COUNT], n_new;
	struct out o = { 0 };

	for (unsigned i = 0; set && i < set->n_rules; i++) {
		const struct rule *r = &set->rules[i];
		unsigned n;
		const struct rule_bucket *b = rule_engine_buckets(e, i, &n);

		for (unsigned k = 0; k < n; k++) {
			const struct rule_window *w = &b[k].window;
			unsigned from = 0;

			if (!b[k].rewrite && b[k].fresh == 0)
				continue;
			/* Only added to: the records since; else all it holds, replacing what the file has. */
			if (!b[k].rewrite)
				from = b[k].fresh < w->n ? w->n - b[k].fresh : 0;
			for (unsigned t = from; t < w->n; t++)
				times[t - from] = w->times[(w->head + t) % r->count];
			if (b[k].rewrite) {
				put_bucket(&o, r->name, b[k].key, b[k].holdoff_until, times, w->n);
				continue;
			}
			put(&o, "count\t");
			put_escaped(&o, r->name);
			put(&o, "\t");
			put_escaped(&o, b[k].key);
			put(&o, "\t");
			put_times(&o, times, w->n - from);
			put(&o, "\n");
		}
	}
	for (unsigned i = 0; i < s->n_rows; i++)
		if (s->rows[i].changed)
			put_row(&o, &s->rows[i]);
	n_new = s->alerts_added - s->alerts_journaled;
	for (unsigned i = n_new < s->n_alerts ? s->n_alerts - (unsigned) n_new : 0; i < s->n_alerts; i++)
		put_alert(&o, &s->alerts[i]);
	if (o.failed) {
		free(o.buf);
		return -ENOMEM;
	}
	*ret = o.buf;
	*ret_len = o.len;
	return 0;
}

void rule_state_changes_done(struct rule_state *s, struct rule_engine *e)
{
	if (e)
		rule_engine_changes_clear(e);
	for (unsigned i = 0; i < s->n_rows; i++)
		s->rows[i].changed = false;
	s->alerts_journaled = s->alerts_added;
}

struct in {
	char *why;
	size_t why_len;
	unsigned line;
	bool replace;               /* a journal's page replaces the entry (the state's are all new) */
};

_printf_(2, 3)
static int bad(struct in *in, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(in->why, in->why_len, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

static int hexval(char c)
{
	return c >= '0' && c <= '9' ? c - '0' : c >= 'A' && c <= 'F' ? c - 'A' + 10 :
	       c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

/* Un-escapes field f (NUL-terminated) into out[size]. */
static int unescape(struct in *in, const char *what, const char *f, char *out, size_t size)
{
	size_t n = 0;

	for (; *f; f++) {
		char c = *f;

		if (c == '%') {
			int hi = hexval(f[1]), lo = hi < 0 ? -1 : hexval(f[2]);

			if (lo < 0)
				return bad(in, "bad escape in %s", what);
			c = (char) (hi << 4 | lo);
			f += 2;
		}
		if (n + 1 >= size)
			return bad(in, "%s is too long", what);
		out[n++] = c;
	}
	out[n] = '\0';
	return 0;
}

static int unescape_or_dash(struct in *in, const char *what, const char *f, char *out, size_t size)
{
	if (streq(f, "-")) {
		out[0] = '\0';
		return 0;
	}
	return unescape(in, what, f, out, size);
}

static int number(struct in *in, const char *what, const char *f, int base, uint64_t *ret)
{
	if (parse_unsigned(f, strlen(f), base, UINT64_MAX, ret) < 0)
		return bad(in, "%s '%s' is not a number", what, f);
	return 0;
}

/* Splits line on tabs into at most max fields; returns how many. */
static unsigned split(char *line, char **f, unsigned max)
{
	unsigned n = 0;

	f[n++] = line;
	for (char *p = line; *p && n < max; p++)
		if (*p == '\t') {
			*p = '\0';
			f[n++] = p + 1;
		}
	return n;
}

/* "T1,T2,..." (empty: none) into times, at most RULE_MAX_COUNT; *ret_n set. */
static int parse_times(struct in *in, char *f, uint64_t *times, unsigned *ret_n)
{
	unsigned m = 0;
	int r;

	for (char *t = f; *f;) {
		char *comma = strchr(t, ',');

		if (comma)
			*comma = '\0';
		if (m == RULE_MAX_COUNT)
			return bad(in, "bucket: more than %u times", RULE_MAX_COUNT);
		if ((r = number(in, "time", t, 10, &times[m++])) < 0)
			return r;
		if (!comma)
			break;
		t = comma + 1;
	}
	*ret_n = m;
	return 0;
}

static int parse_bucket(struct in *in, struct rule_state *s, char **f, unsigned n)
{
	char rule[RULE_NAME_MAX], key[RULE_KEY_MAX];
	uint64_t holdoff, times[RULE_MAX_COUNT];
	unsigned m = 0;
	int r;

	if (n != 5)
		return bad(in, "bucket: expected 5 fields, got %u", n);
	if ((r = unescape(in, "rule name", f[1], rule, sizeof(rule))) < 0 ||
	    (r = unescape(in, "key", f[2], key, sizeof(key))) < 0 ||
	    (r = number(in, "holdoff time", f[3], 10, &holdoff)) < 0 ||
	    (r = parse_times(in, f[4], times, &m)) < 0)
		return r;
	if (in->replace)
		return set_bucket(s, rule, key, holdoff, times, m, false);
	return rule_state_add_bucket(s, rule, key, holdoff, times, m);
}

/* A journal's "count\tRULE\tKEY\tT1,...": records counted into the bucket since. */
static int parse_count(struct in *in, struct rule_state *s, char **f, unsigned n)
{
	char rule[RULE_NAME_MAX], key[RULE_KEY_MAX];
	uint64_t times[RULE_MAX_COUNT];
	unsigned m = 0;
	int r;

	if (n != 4)
		return bad(in, "count: expected 4 fields, got %u", n);
	if ((r = unescape(in, "rule name", f[1], rule, sizeof(rule))) < 0 ||
	    (r = unescape(in, "key", f[2], key, sizeof(key))) < 0 ||
	    (r = parse_times(in, f[3], times, &m)) < 0)
		return r;
	if (m == 0)
		return bad(in, "count: no time");
	return set_bucket(s, rule, key, 0, times, m, true);
}

/* A 128-bit id as 32 lower-case hex digits, or "-" for none (""). */
static int parse_id128(struct in *in, const char *what, const char *f, char ret[static 33])
{
	if (streq(f, "-")) {
		ret[0] = '\0';
		return 0;
	}
	if (strlen(f) != 32 || strspn(f, "0123456789abcdef") != 32)
		return bad(in, "page: %s '%.40s' is not 32 lower-case hex digits", what, f);
	memcpy(ret, f, 33);
	return 0;
}

static int parse_page(struct in *in, struct rule_state *s, char **f, unsigned n)
{
	struct rule_state_page p = { 0 };
	int r;

	if (n != 5 && n != 6 && n != 9)
		return bad(in, "page: expected 5, 6 or 9 fields, got %u", n);
	if (n >= 6 && (r = parse_id128(in, "boot id", f[5], p.boot_id)) < 0)
		return r;
	if (n == 9 &&
	    ((r = parse_id128(in, "machine id", f[6], p.machine_id)) < 0 ||
	     (r = unescape_or_dash(in, "memory identity", f[7], p.identity, sizeof(p.identity))) < 0 ||
	     (r = unescape_or_dash(in, "origin", f[8], p.origin, sizeof(p.origin))) < 0))
		return r;
	if ((r = number(in, "page frame", f[1], 16, &p.pfn)) < 0 ||
	    (r = number(in, "time", f[3], 10, &p.time_usec)) < 0)
		return r;
	/* 2^52 pages is 2^64 bytes: a larger one would wrap when written as an address. */
	if (p.pfn >= UINT64_C(1) << 52)
		return bad(in, "page: frame 0x%" PRIx64 " is beyond any physical address", p.pfn);
	if (!streq(f[2], "soft") && !streq(f[2], "hard"))
		return bad(in, "page: '%s' is neither soft nor hard", f[2]);
	if (!streq(f[4], "ok") && !streq(f[4], "failed") && !streq(f[4], "pending") && !streq(f[4], "held") &&
	    !streq(f[4], "salvaged"))
		return bad(in, "page: '%s' is none of ok, failed, pending, held, salvaged", f[4]);
	p.hard = streq(f[2], "hard");
	p.ok = streq(f[4], "ok");
	p.pending = streq(f[4], "pending");
	p.held = streq(f[4], "held");
	p.salvaged = streq(f[4], "salvaged");
	r = in->replace ? rule_state_set_page(s, &p) : rule_state_add_page(s, &p);
	return r == -E2BIG ? bad(in, "more than %u pages", RULE_STATE_MAX_PAGES) : r;
}

static int parse_alert(struct in *in, struct rule_state *s, char **f, unsigned n)
{
	struct rule_state_alert a = { 0 };
	int r;

	if (n != 4)
		return bad(in, "alert: expected 4 fields, got %u", n);
	if ((r = number(in, "time", f[1], 10, &a.time_usec)) < 0 ||
	    (r = unescape(in, "rule name", f[2], a.rule, sizeof(a.rule))) < 0 ||
	    (r = unescape(in, "key", f[3], a.key, sizeof(a.key))) < 0)
		return r;
	return rule_state_add_alert(s, &a);
}

/* "0x1234@1700000000000000": a page of a row and when it was last seen. */
static int parse_row_page(struct in *in, char *item, struct rule_state_row *r)
{
	char *at = strchr(item, '@');
	int k;

	if (!at)
		return bad(in, "row: page '%s' is not PFN@TIME", item);
	*at = '\0';
	if (r->n_pages == RULE_STATE_ROW_PAGES)
		return bad(in, "row: more than %u pages", RULE_STATE_ROW_PAGES);
	if ((k = number(in, "page frame", item, 16, &r->pages[r->n_pages].pfn)) < 0 ||
	    (k = number(in, "time", at + 1, 10, &r->pages[r->n_pages].seen_usec)) < 0)
		return k;
	r->n_pages++;
	return 0;
}

static int parse_row(struct in *in, struct rule_state *s, char **f, unsigned n)
{
	struct rule_state_row r = { 0 };
	int k;

	if (n != 6)
		return bad(in, "row: expected 6 fields, got %u", n);
	if ((k = unescape(in, "rule name", f[1], r.rule, sizeof(r.rule))) < 0 ||
	    (k = unescape(in, "key", f[2], r.key, sizeof(r.key))) < 0 ||
	    (k = number(in, "isolation time", f[3], 10, &r.isolated_usec)) < 0 ||
	    (k = number(in, "time", f[4], 10, &r.last_usec)) < 0)
		return k;
	for (char *t = f[5]; *t;) {
		char *comma = strchr(t, ',');

		if (comma)
			*comma = '\0';
		if ((k = parse_row_page(in, t, &r)) < 0)
			return k;
		if (!comma)
			break;
		t = comma + 1;
	}
	if (in->replace) {
		/* A journal's row replaces the row, or makes room as row-pages.h does. */
		uint64_t h = rule_state_key_hash(r.key);

		for (unsigned i = 0; i < s->n_rows; i++)
			if (s->rows[i].hash == h && streq(s->rows[i].key, r.key) && streq(s->rows[i].rule, r.rule)) {
				r.hash = h;
				s->rows[i] = r;
				return 0;
			}
		if (s->n_rows >= RULE_STATE_MAX_ROWS) {
			unsigned out = rule_state_row_to_evict(s);

			s->rows[out] = s->rows[--s->n_rows];
		}
	}
	k = rule_state_add_row(s, &r);
	return k == -E2BIG ? bad(in, "more than %u rows", RULE_STATE_MAX_ROWS) : k;
}

static int parse_repair(struct in *in, struct rule_state *s, char **f, unsigned n)
{
	struct rule_state_repair r = { 0 };
	unsigned st;
	int k;

	/* Files before the persist field have 6: read as hard, the reading that never repeats a repair. */
	if (n != 6 && n != 7)
		return bad(in, "repair: expected 7 fields, got %u", n);
	if ((k = unescape(in, "device", f[1], r.device, sizeof(r.device))) < 0 ||
	    (k = unescape(in, "location", f[2], r.location, sizeof(r.location))) < 0 ||
	    (k = number(in, "time", f[3], 10, &r.time_usec)) < 0)
		return k;
	for (st = 0; st < _RULE_STATE_REPAIR_STATUS_MAX && !streq(f[4], repair_statuses[st]); st++)
		;
	if (st == _RULE_STATE_REPAIR_STATUS_MAX)
		return bad(in, "repair: '%s' is not done, failed or intent", f[4]);
	r.status = (enum rule_state_repair_status) st;
	r.hard = true;
	if (n == 7 && !streq(f[6], "soft") && !streq(f[6], "hard"))
		return bad(in, "repair: '%s' is neither soft nor hard", f[6]);
	if (n == 7)
		r.hard = streq(f[6], "hard");
	if (!streq(f[5], "-")) {
		if (strlen(f[5]) != sizeof(r.boot_id) - 1 || strspn(f[5], "0123456789abcdef") != sizeof(r.boot_id) - 1)
			return bad(in, "repair: boot id '%s' is not 32 lower-case hex digits", f[5]);
		memcpy(r.boot_id, f[5], sizeof(r.boot_id));
	}
	k = rule_state_add_repair(s, &r);
	return k == -E2BIG ? bad(in, "more than %u repairs", RULE_STATE_MAX_REPAIRS) : k;
}

static int parse_lines(struct in *in, const char *text, size_t len, struct rule_state *s)
{
	const char *p = text, *end = text + len;
	bool ended = false;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t) (end - p));
		size_t n = nl ? (size_t) (nl - p) : (size_t) (end - p);
		_cleanup_free_ char *line = NULL;
		char *f[10];
		unsigned nf;
		int r;

		in->line++;
		if (ended)
			return bad(in, "data after the end line");
		if (!nl)
			return bad(in, "last line is cut short (no newline): the file is truncated");
		if (memchr(p, '\0', n))
			return bad(in, "NUL byte");
		line = strndup(p, n);
		if (!line)
			return -ENOMEM;
		if (in->line == 1) {
			if (!streq(line, MAGIC))
				return bad(in, "not a rules state file (expected '%s')", MAGIC);
			p = nl + 1;
			continue;
		}
		nf = split(line, f, ELEMENTSOF(f));
		if (streq(f[0], "bucket"))
			r = parse_bucket(in, s, f, nf);
		else if (streq(f[0], "page"))
			r = parse_page(in, s, f, nf);
		else if (streq(f[0], "alert"))
			r = parse_alert(in, s, f, nf);
		else if (streq(f[0], "row"))
			r = parse_row(in, s, f, nf);
		else if (streq(f[0], "repair"))
			r = parse_repair(in, s, f, nf);
		else if (streq(f[0], "end")) {
			uint64_t lines, sum;

			if (nf != 3 || number(in, "line count", f[1], 10, &lines) < 0 ||
			    number(in, "checksum", f[2], 16, &sum) < 0)
				return bad(in, "malformed end line");
			if (lines != in->line - 1)
				return bad(in, "end line counts %" PRIu64 " lines, the file has %u: damaged",
					   lines, in->line - 1);
			if (sum != fnv1a(text, (size_t) (p - text)))
				return bad(in, "checksum mismatch: the file is damaged");
			ended = true;
			r = 0;
		} else
			r = bad(in, "unknown item '%.32s'", f[0]);
		if (r < 0)
			return r;
		p = nl + 1;
	}
	if (in->line == 0)
		return bad(in, "empty file");
	if (!ended) {
		in->line = 0;
		return bad(in, "no end line: the file is truncated");
	}
	return 0;
}

int rule_state_parse(const char *text, size_t len, struct rule_state *ret, char *why,
		     size_t why_len, unsigned *ret_line)
{
	struct rule_state s = { 0 };
	struct in in = { .why = why, .why_len = why_len };
	int r;

	if (why_len)
		why[0] = '\0';
	r = parse_lines(&in, text, len, &s);
	if (r < 0) {
		rule_state_done(&s);
		*ret = (struct rule_state) { 0 };
		if (r == -ENOMEM)
			snprintf(why, why_len, "out of memory");
		if (ret_line)
			*ret_line = in.line;
		return r;
	}
	s.has_file_sum = rule_state_text_sum(text, len, &s.file_sum) >= 0;
	*ret = s;
	if (ret_line)
		*ret_line = 0;
	return 0;
}

int rule_state_salvage(const char *text, size_t len, struct rule_state *ret, unsigned *ret_skipped)
{
	struct rule_state s = { 0 };
	const char *p = text, *end = text + len;
	unsigned skipped = 0;
	char why[256];

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t) (end - p));
		size_t n = nl ? (size_t) (nl - p) : (size_t) (end - p);
		struct in in = { .why = why, .why_len = sizeof(why), .replace = true };
		_cleanup_free_ char *line = NULL;
		char *f[10];
		unsigned nf;
		int r = -EINVAL;

		/* A line cut short or holding a NUL is what the damage did: not trusted. */
		if (nl && !memchr(p, '\0', n)) {
			bool framing = (n == strlen(MAGIC) && !memcmp(p, MAGIC, n)) || (n >= 4 && !memcmp(p, "end\t", 4));

			line = strndup(p, n);
			if (!line) {
				rule_state_done(&s);
				*ret = (struct rule_state) { 0 };
				return -ENOMEM;
			}
			nf = split(line, f, ELEMENTSOF(f));
			if (streq(f[0], "page"))
				r = parse_page(&in, &s, f, nf);
			else if (streq(f[0], "repair"))
				r = parse_repair(&in, &s, f, nf);
			else if (framing)
				r = 0;
		}
		if (r == -ENOMEM) {
			rule_state_done(&s);
			*ret = (struct rule_state) { 0 };
			return r;
		}
		if (r < 0)
			skipped++;
		p = nl ? nl + 1 : end;
	}
	for (unsigned i = 0; i < s.n_pages; i++) {
		s.pages[i].salvaged = true;
		s.pages[i].pending = s.pages[i].held = false;
	}
	*ret = s;
	*ret_skipped = skipped;
	return 0;
}

int rule_state_apply_journal(struct rule_state *s, const char *text, size_t len, const char *base, char *why,
			     size_t why_len, unsigned *ret_line)
{
	struct in in = { .why = why, .why_len = why_len, .replace = true };
	const char *p = text, *end = text + len;

	if (why_len)
		why[0] = '\0';
	*ret_line = 0;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t) (end - p));
		_cleanup_free_ char *line = NULL;
		char *f[10];
		unsigned nf;
		int r;

		in.line++;
		/* Cut by a crash mid-append: that line never finished, the ones before it did. */
		if (!nl) {
			*ret_line = in.line;
			snprintf(why, why_len, "the last line is cut short (no newline): a crash during its append; "
				 "not applied");
			return RULE_JOURNAL_CUT;
		}
		if (memchr(p, '\0', (size_t) (nl - p))) {
			*ret_line = in.line;
			return bad(&in, "NUL byte");
		}
		line = strndup(p, (size_t) (nl - p));
		if (!line)
			return -ENOMEM;
		nf = split(line, f, ELEMENTSOF(f));
		if (streq(f[0], "base")) {
			char want[32];

			if (in.line != 1)
				r = bad(&in, "a base line after the first");
			else if (nf != 2 || (!streq(f[1], "-") &&
					     (strlen(f[1]) != 16 || strspn(f[1], "0123456789abcdef") != 16)))
				r = bad(&in, "malformed base line");
			else if (base && (snprintf(want, sizeof(want), "base\t%s\n", f[1]), !streq(want, base))) {
				snprintf(why, why_len, "it follows another state (%s), written before the state was "
					 "last written whole: the state holds it already", f[1]);
				*ret_line = in.line;
				return -ESTALE;
			} else
				r = 0;
		} else if (streq(f[0], "page"))
			r = parse_page(&in, s, f, nf);
		else if (streq(f[0], "bucket"))
			r = parse_bucket(&in, s, f, nf);
		else if (streq(f[0], "count"))
			r = parse_count(&in, s, f, nf);
		else if (streq(f[0], "row"))
			r = parse_row(&in, s, f, nf);
		else if (streq(f[0], "alert"))
			r = parse_alert(&in, s, f, nf);
		else
			r = bad(&in, "unknown item '%.32s'", f[0]);
		if (r < 0) {
			*ret_line = in.line;
			return r;
		}
		p = nl + 1;
	}
	return 0;
}
