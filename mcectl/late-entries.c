/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "entry-time.h"
#include "late-entries.h"
#include "macro.h"
#include "message-ids.h"

int entry_stamps_cmp(const void *x, const void *y)
{
	const struct entry_stamps *a = x, *b = y;
	int c = memcmp(&a->boot_id, &b->boot_id, sizeof(a->boot_id));

	if (!c)
		c = (a->monotonic > b->monotonic) - (a->monotonic < b->monotonic);
	return c ? c : (a->realtime > b->realtime) - (a->realtime < b->realtime);
}

static int cmp_time(const void *x, const void *y)
{
	const struct late_entry *a = x, *b = y;
	int c = (a->time > b->time) - (a->time < b->time);

	/* Equal times keep the order they arrived in. */
	return c ? c : (a->stamps.realtime > b->stamps.realtime) - (a->stamps.realtime < b->stamps.realtime);
}

int entry_stamps_of(sd_journal *j, struct entry_stamps *ret)
{
	int r = sd_journal_get_monotonic_usec(j, &ret->monotonic, &ret->boot_id);

	return r < 0 ? r : sd_journal_get_realtime_usec(j, &ret->realtime);
}

static int add_current(sd_journal *j, struct late_entries *l, size_t *cap)
{
	struct late_entry e = {};
	const void *data;
	size_t len;

	if (entry_stamps_of(j, &e.stamps) < 0)
		return 0;
	if (sd_journal_get_data(j, ENTRY_TIME_FIELD, &data, &len) >= 0 && len > strlen(ENTRY_TIME_FIELD "="))
		e.time = entry_time_of((const char *) data + strlen(ENTRY_TIME_FIELD "="),
				       len - strlen(ENTRY_TIME_FIELD "="), e.stamps.realtime);
	else
		e.time = entry_time_of(NULL, 0, e.stamps.realtime);
	if (sd_journal_get_cursor(j, &e.cursor) < 0)
		return 0;
	if (l->n == *cap) {
		size_t c = *cap ? *cap * 2 : 16;
		struct late_entry *p = realloc(l->v, c * sizeof(*p));

		if (!p) {
			free(e.cursor);
			return -ENOMEM;
		}
		l->v = p;
		*cap = c;
	}
	l->v[l->n++] = e;
	return 0;
}

/*
 * Adds the entries j's matches give from where it stands that arrived in
 * [from, to) (to 0: no end).  (Only by each entry's own stamp: the journal's
 * files merged are not in time order for sure, so a walk does not stop at one
 * past the end.)
 */
static int add_matching(sd_journal *j, struct late_entries *l, size_t *cap, uint64_t from, uint64_t to)
{
	uint64_t arrival;
	int r;

	while ((r = sd_journal_next(j)) > 0) {
		if (sd_journal_get_realtime_usec(j, &arrival) < 0 || arrival < from || (to && arrival >= to))
			continue;
		r = add_current(j, l, cap);
		if (r < 0)
			return r;
	}
	return r;
}

/* j's matches: mcelogd's own entries marked mark, as journald, not the sender, vouches. */
static int match_ours(sd_journal *j, const char *mark, const char *trusted_uid)
{
	char uid[32];
	int r;

	snprintf(uid, sizeof(uid), "_UID=%s", trusted_uid);
	sd_journal_flush_matches(j);
	r = sd_journal_add_match(j, mark, 0);
	if (r >= 0)
		r = sd_journal_add_match(j, "_COMM=" MCELOGD_COMM, 0);
	if (r >= 0)
		r = sd_journal_add_match(j, uid, 0);
	return r;
}

/*
 * Whether any file of j holds the value match (FIELD=VALUE) at all: asked of
 * the field's few values, where a walk with the match, even one that finds
 * nothing, costs libsystemd 252 a fifth of a short query over many files
 * (bench/journal-bench.sh's journal: 15 ms).
 */
static bool has_value(sd_journal *j, const char *field, const char *match)
{
	const void *data;
	size_t len, n = strlen(match);
	bool found = false;

	if (sd_journal_query_unique(j, field) < 0)
		return true;   /* (then walked, to be sure) */
	SD_JOURNAL_FOREACH_UNIQUE(j, data, len)
		if (len == n && memcmp(data, match, n) == 0) {
			found = true;
			break;
		}
	return found;
}

int late_entries_find(sd_journal *j, const char *trusted_uid, uint64_t arrived_from, struct late_entries **ret)
{
	struct late_entries *l = calloc(1, sizeof(*l));
	size_t cap = 0;
	int r;

	if (!l)
		return -ENOMEM;
	/* Those whose time is ahead, from before arrived_from (entry-time.h) ... */
	if (arrived_from && has_value(j, ENTRY_AHEAD_FIELD, ENTRY_AHEAD_MATCH)) {
		r = match_ours(j, ENTRY_AHEAD_MATCH, trusted_uid);
		if (r >= 0)
			r = sd_journal_seek_head(j);
		if (r >= 0)
			r = add_matching(j, l, &cap, 0, arrived_from);
	} else
		r = 0;
	/* ... and every one from then on. */
	if (r >= 0)
		r = match_ours(j, ENTRY_LATE_MATCH, trusted_uid);
	if (r >= 0)
		r = arrived_from ? sd_journal_seek_realtime_usec(j, arrived_from) : sd_journal_seek_head(j);
	if (r >= 0)
		r = add_matching(j, l, &cap, arrived_from, 0);
	sd_journal_flush_matches(j);
	l->n_kept = l->n;
	if (r >= 0 && l->n) {
		l->by_stamp = malloc(l->n * sizeof(*l->by_stamp));
		if (!l->by_stamp)
			r = -ENOMEM;
		else {
			memcpy(l->by_stamp, l->v, l->n * sizeof(*l->by_stamp));
			qsort(l->by_stamp, l->n, sizeof(*l->by_stamp), entry_stamps_cmp);
		}
	}
	if (r < 0) {
		late_entries_free(l);
		return r;
	}
	*ret = l;
	return 0;
}

bool late_entries_has(const struct late_entries *l, sd_journal *j)
{
	struct late_entry x;

	if (!l || l->n == 0)
		return false;
	if (entry_stamps_of(j, &x.stamps) < 0 || !bsearch(&x, l->by_stamp, l->n, sizeof(x), entry_stamps_cmp))
		return false;
	/* Stamps are not unique for sure: one that matches is asked for the mark after all. */
	return sd_journal_get_data(j, ENTRY_LATE_FIELD, &(const void *) { NULL }, &(size_t) { 0 }) >= 0;
}

void late_entries_order(struct late_entries *l, bool (*keep)(void *userdata, const struct late_entry *e),
			void *userdata)
{
	size_t k = 0;

	for (size_t i = 0; i < l->n_kept; i++) {
		if (keep(userdata, &l->v[i]))
			l->v[k++] = l->v[i];
		else
			free(l->v[i].cursor);
	}
	/* (by_stamp still names every late entry, the main pass leaves them all out;
	 * its cursors are v's, never used.) */
	l->n_kept = k;
	if (k > 1)
		qsort(l->v, k, sizeof(*l->v), cmp_time);
	l->next = 0;
}

struct late_entries *late_entries_free(struct late_entries *l)
{
	if (!l)
		return NULL;
	for (size_t i = 0; i < l->n_kept; i++)
		free(l->v[i].cursor);
	free(l->v);
	free(l->by_stamp);
	free(l);
	return NULL;
}
