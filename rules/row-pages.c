/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "edac-label.h"
#include "macro.h"
#include "row-pages.h"
#include "rule-engine.h"

struct rule_state_row *row_pages_find(const struct rule_state *s, const char *rule, const char *key)
{
	uint64_t h = rule_state_key_hash(key);

	/* The hash first: the keys of one DIMM's rows share most of their text. */
	for (unsigned i = 0; i < s->n_rows; i++)
		if (s->rows[i].hash == h && streq(s->rows[i].key, key) && streq(s->rows[i].rule, rule))
			return &s->rows[i];
	return NULL;
}

static struct rule_state_row *find_or_add(struct rule_state *s, const char *rule, const char *key)
{
	struct rule_state_row *r = row_pages_find(s, rule, key), fresh = { 0 };
	int k;

	if (r)
		return r;
	if (strlen(rule) >= sizeof(fresh.rule) || strlen(key) >= sizeof(fresh.key)) {
		errno = E2BIG;
		return NULL;
	}
	snprintf(fresh.rule, sizeof(fresh.rule), "%s", rule);
	snprintf(fresh.key, sizeof(fresh.key), "%s", key);
	if (s->n_rows >= RULE_STATE_MAX_ROWS) {
		unsigned out = rule_state_row_to_evict(s);

		s->rows[out] = s->rows[--s->n_rows];
		s->rows_evicted++;
	}
	k = rule_state_add_row(s, &fresh);
	if (k < 0) {
		errno = -k;
		return NULL;
	}
	return &s->rows[s->n_rows - 1];
}

/* A row not isolated keeps the pages seen less than T before its latest record, as a count does. */
static void expire(struct rule_state_row *r, uint64_t window_usec)
{
	unsigned kept = 0;

	if (r->isolated_usec)
		return;
	for (unsigned i = 0; i < r->n_pages; i++)
		if (r->last_usec < r->pages[i].seen_usec || r->last_usec - r->pages[i].seen_usec < window_usec)
			r->pages[kept++] = r->pages[i];
	r->n_pages = kept;
}

/* A time earlier than the row's latest counts as that latest (rule-window.h does the same). */
static void touch(struct rule_state_row *r, uint64_t now_usec)
{
	/* Every note and isolation changes the row (a page's time at least): the journal takes it. */
	r->changed = true;
	if (now_usec > r->last_usec)
		r->last_usec = now_usec;
}

int row_pages_note(struct rule_state *s, const char *rule, const char *key, uint64_t pfn,
		   uint64_t now_usec, uint64_t window_usec)
{
	struct rule_state_row *r = find_or_add(s, rule, key);

	if (!r)
		return -errno;
	touch(r, now_usec);
	expire(r, window_usec);
	for (unsigned i = 0; i < r->n_pages; i++)
		if (r->pages[i].pfn == pfn) {
			r->pages[i].seen_usec = r->last_usec;
			return r->isolated_usec ? ROW_PAGE_KNOWN : ROW_PAGE_KEPT;
		}
	if (r->n_pages < RULE_STATE_ROW_PAGES)
		r->pages[r->n_pages++] = (struct rule_state_row_page) { .pfn = pfn, .seen_usec = r->last_usec };
	else
		s->row_pages_dropped++;
	return r->isolated_usec ? ROW_PAGE_OFFLINE_NOW : ROW_PAGE_KEPT;
}

struct rule_state_row *row_pages_isolate(struct rule_state *s, const char *rule, const char *key,
					  uint64_t now_usec, uint64_t window_usec)
{
	struct rule_state_row *r = find_or_add(s, rule, key);

	if (!r)
		return NULL;
	touch(r, now_usec);
	expire(r, window_usec);
	if (!r->isolated_usec)
		r->isolated_usec = r->last_usec ? r->last_usec : 1;
	return r;
}

int row_pages_input(struct rule_state *s, const struct rule_set *set, const struct rule_input *in,
		    uint64_t now_usec, row_page_fn at_once, void *userdata)
{
	struct rule_value page;

	if (!rule_field_get(in, RULE_FIELD_PAGE, &page))
		return 0;
	for (unsigned i = 0; i < set->n_rules; i++) {
		const struct rule *r = &set->rules[i];
		char key[RULE_KEY_MAX];
		int k;

		if (!(r->actions & RULE_ACTION_OFFLINE_ROW) || !rule_matches(r, in) || !rule_key(r, in, key))
			continue;
		k = row_pages_note(s, r->name, key, page.u, now_usec, r->window_usec);
		if (k == -ENOMEM)
			return k;
		if (k == ROW_PAGE_OFFLINE_NOW && at_once)
			at_once(r, row_pages_find(s, r->name, key), page.u, userdata);
	}
	return 0;
}

/* Whether key[0..n) is " name=" for a field rules know: where a label's value (which may hold spaces) ends. */
static bool field_starts(const char *p)
{
	const char *eq = strchr(p + 1, '=');
	char name[32];
	size_t n;

	if (*p != ' ' || !eq || (n = (size_t) (eq - p - 1)) == 0 || n >= sizeof(name) || memchr(p + 1, ' ', n))
		return false;
	memcpy(name, p + 1, n);
	name[n] = '\0';
	return rule_field_from_string(name) != _RULE_FIELD_INVALID;
}

bool row_key_names_no_dimm(const char *key)
{
	char label[RULE_KEY_MAX];
	const char *v, *end;

	if (strncmp(key, "label=", 6) == 0)
		v = key + 6;
	else if ((v = strstr(key, " label=")))
		v += 7;
	else
		return false;
	for (end = v; *end && !field_starts(end); end++)
		;
	snprintf(label, sizeof(label), "%.*s", (int) (end - v), v);
	return !edac_label_names_one_dimm(label);
}

static const struct rule *row_rule(const struct rule_set *set, const char *name)
{
	for (unsigned i = 0; i < set->n_rules; i++)
		if (streq(set->rules[i].name, name))
			return (set->rules[i].actions & RULE_ACTION_OFFLINE_ROW) ? &set->rules[i] : NULL;
	return NULL;
}

unsigned row_pages_prune(struct rule_state *s, const struct rule_set *set, uint64_t now_usec)
{
	unsigned kept = 0, n = s->n_rows;

	for (unsigned i = 0; i < n; i++) {
		const struct rule_state_row *r = &s->rows[i];
		const struct rule *rule = row_rule(set, r->rule);
		bool stale = !rule || row_key_names_no_dimm(r->key) ||
			     (!r->isolated_usec && now_usec >= r->last_usec &&
			      now_usec - r->last_usec >= rule->window_usec);

		if (!stale)
			s->rows[kept++] = *r;
	}
	s->n_rows = kept;
	return n - kept;
}
