/* SPDX-License-Identifier: MIT */
#pragma once

/*
 * The journal entries mcelogd marked late (entry-time.h): those that may have
 * arrived far from their error's time.  Found through the journal's index of
 * the mark, wherever they arrived, so that query and summary can read the
 * rest by arrival window alone.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <systemd/sd-journal.h>

/* An entry's stamps, from its header (no field read): which entry it is, but for a rare tie. */
struct entry_stamps {
	sd_id128_t boot_id;
	uint64_t monotonic, realtime;
};
int entry_stamps_of(sd_journal *j, struct entry_stamps *ret);
/* qsort/bsearch order of struct entry_stamps, or of anything that begins with one. */
int entry_stamps_cmp(const void *a, const void *b);

struct late_entry {
	struct entry_stamps stamps;     /* first: entry_stamps_cmp() orders these too */
	int64_t time;                   /* the error's */
	char *cursor;
};

struct late_entries {
	struct late_entry *v;           /* by time, once late_entries_order() ran */
	size_t n_kept;                  /* in v */
	struct late_entry *by_stamp;    /* all of them, for late_entries_has() */
	size_t n;
	size_t next;                    /* the reader's position in v */
};

/*
 * The late entries mcelogd wrote (_COMM, and _UID trusted_uid: fields journald
 * sets, so that no other user's entries cost a reader anything), from j: it
 * must have no matches (they are flushed after).  With arrived_from (µs since
 * the epoch; 0: all of them), those that arrived then or after, and those
 * marked ahead (entry-time.h) that arrived before: every one whose time can be
 * at or after arrived_from plus the slack.  0 or negative errno.
 */
int late_entries_find(sd_journal *j, const char *trusted_uid, uint64_t arrived_from, struct late_entries **ret);
/* Whether j's current entry is one of them (its stamps; a stamp shared by two is asked for the mark). */
bool late_entries_has(const struct late_entries *l, sd_journal *j);
/* Keeps those keep(userdata, entry) says, in the order of their error time. */
void late_entries_order(struct late_entries *l, bool (*keep)(void *userdata, const struct late_entry *e),
			void *userdata);
struct late_entries *late_entries_free(struct late_entries *l);
