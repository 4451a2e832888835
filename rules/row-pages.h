/* SPDX-License-Identifier: MIT */
#pragma once

/*
 * Row-level action (Action=offline-row, mcelogd.rules(5) ROW OFFLINING): the
 * pages seen on each DRAM row a rule counts, and which rows have crossed
 * their threshold.  Pure: time is passed in; the rules stage does the
 * offlining.
 *
 * A row is a key of a rule whose Key= names the DIMM and the row (label or
 * socket/mc/channel/dimm, rank, bank group, bank, row).  Each record of that
 * rule that also names a page adds the page to its row.  Until the row
 * crosses its threshold its pages are those seen within the rule's window
 * of the row's latest record (the same exact "within T" as the counts,
 * rules/rule-window.h); once it has, the row is isolated: its pages are
 * kept for good, and a page first seen on it later is to be offlined at
 * once.
 *
 * Bounds: RULE_STATE_ROW_PAGES pages per row; a page past it is not
 * remembered (counted in pages_dropped), though on an isolated row it is
 * still offlined at once.  RULE_STATE_MAX_ROWS rows in all; past it the row
 * seen least recently makes room, a row not isolated first (counted in
 * rows_evicted).  The rows live in the rules' state (rule-state.h), so the
 * state file keeps them across restarts and reboots.
 */

#include <stdbool.h>
#include <stdint.h>

#include "rule-state.h"


enum row_page_note {
	ROW_PAGE_KEPT,             /* remembered (or refreshed): the row is not isolated */
	ROW_PAGE_OFFLINE_NOW,      /* new on an isolated row: offline it at once */
	ROW_PAGE_KNOWN,            /* seen on the isolated row before: offlined with it */
};

/*
 * Adds page pfn at now_usec to the row (rule, key), making the row if it is
 * new; window_usec is the rule's T.  Returns an enum row_page_note, or
 * -ENOMEM/-E2BIG (a name or key too long).
 */
int row_pages_note(struct rule_state *s, const char *rule, const char *key, uint64_t pfn,
		   uint64_t now_usec, uint64_t window_usec);

/*
 * The row crossed its threshold at now_usec: isolates it (made if unknown,
 * with no page yet) and returns it, its pages to be offlined; NULL on
 * -ENOMEM or a key too long.  Pages older than window_usec are dropped
 * first unless the row was isolated already.
 */
struct rule_state_row *row_pages_isolate(struct rule_state *s, const char *rule, const char *key,
					  uint64_t now_usec, uint64_t window_usec);

/*
 * Drops the rows that no longer count: a row not isolated whose latest
 * record is the rule's window or more before now_usec (its pages would all
 * have expired), any row of a rule set no longer defines or no longer
 * gives offline-row, and any row whose key's label names no one DIMM
 * (row_key_names_no_dimm).  Other isolated rows of live rules stay.
 * Returns how many went.  The daemon calls it before it saves the state.
 */
unsigned row_pages_prune(struct rule_state *s, const struct rule_set *set, uint64_t now_usec);

/*
 * True for a key whose label names no one DIMM (lib/edac-label.h), such as
 * "label=unknown memory rank=0 ...": an older mcelogd keyed rows by the
 * kernel's placeholder labels, merging DIMMs.  No record keys so now
 * (rules/rule-field.h, label), so such a row can never count again; it
 * would only keep a wrong isolation in the state.
 */
bool row_key_names_no_dimm(const char *key);

/* The row, NULL if unknown. */
struct rule_state_row *row_pages_find(const struct rule_state *s, const char *rule, const char *key);

struct rule;
struct rule_input;
struct rule_set;

/* A page first seen on an isolated row: the caller offlines it (or says it would). */
typedef void (*row_page_fn)(const struct rule *r, const struct rule_state_row *row, uint64_t pfn,
			    void *userdata);

/*
 * One record through every offline-row rule of set: where the rule matches
 * it and the record names its row and a page, the page is noted on that row
 * (row_pages_note), and at_once is called for a page new on an isolated
 * row.  Call it before the engine counts the record, so that the firing it
 * causes includes its page.  The daemon and `mcectl rules --test` both go
 * through this.  Returns 0 or -ENOMEM.
 */
int row_pages_input(struct rule_state *s, const struct rule_set *set, const struct rule_input *in,
		    uint64_t now_usec, row_page_fn at_once, void *userdata);
