/* SPDX-License-Identifier: MIT */
#pragma once

/*
 * The rules' persisted state (/var/lib/mcelogd/rules.state): the buckets'
 * counted record times, the pages offlined, the alerts fired.  Pure codec:
 * text in, structures out and back; the daemon writes the file atomically.
 *
 * Format, one item per line, fields separated by a tab, keys escaped
 * (%XX for '%', tab, newline and other control bytes):
 *
 *	mcelogd-rules-state 1
 *	bucket	RULE	KEY	HOLDOFF_UNTIL	T1,T2,...
 *	page	PFN(hex)	soft|hard	TIME	ok|failed|pending|held	BOOT_ID	MACHINE_ID	IDENTITY	ORIGIN
 *	alert	TIME	RULE	KEY
 *	row	RULE	KEY	ISOLATED	LAST	PFN(hex)@TIME,...
 *	repair	DEVICE	UNIT	TIME	done|failed|intent	BOOT_ID	soft|hard
 *	end	LINES	FNV1A64(hex)
 *
 * Times are CLOCK_REALTIME microseconds, so that counts survive reboots.
 * Offlining does not: a page carries the boot it was offlined in (32 hex
 * digits; files written before it have none, read as "another boot").  The
 * pages' boot ids and the kernel's refusals are the daemon's to act on
 * (mcelogd/rules-stage.c).  "pending" is the intent, saved before the sysfs
 * write: a start that finds it in its own boot does not write again (the
 * outcome is unknown, the page may be gone already), one in a later boot
 * retires the page by migration as for any other.  A page also carries what
 * memory it was on, so that a start on other memory does not offline it:
 * the machine id (/etc/machine-id) and an identity of the memory (SMBIOS
 * serial and locator, EDAC coordinates, CXL memdev serial and DPA;
 * rules/page-identity.h), and the record that made it bad, in words.
 * "held": a start found other memory behind the page and left it alone.
 * Each is "-" when unknown; files written before them have 5 or 6 fields.
 * A row (rules/row-pages.h) is a DRAM row an offline-row rule counts: the
 * time it crossed its threshold (0: not yet), the time it was last seen,
 * and the pages seen on it with when each was last seen.
 * A repair (rules/mem-repair.h) is one a rule asked a memory device for:
 * the device's key and the repair unit (mem_repair_device_key(),
 * plan->unit), its wall-clock time, what became of it, the boot it was made
 * in and whether it was permanent.  "intent" is written (and the file
 * synced) before the device is asked; a file that still says so after a
 * crash is read as a repair whose outcome is unknown, taken as done.  A
 * line without the last field (files before it) reads as hard.  They bound
 * later repairs: per device, per day, and one per unit while the device
 * keeps it (a soft one until a reboot).
 * The "end" line counts the lines before it and checksums their bytes: a
 * file cut short or changed by accident is recognised as damaged rather than
 * half-read.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "rule-engine.h"

#define RULE_STATE_MAX_ALERTS 256   /* the most recent are kept */
#define RULE_STATE_MAX_PAGES  65536 /* far beyond what a machine can offline and keep running */
#define RULE_STATE_ROW_PAGES  32    /* pages kept per row: a row spans a few pages, interleaved */
#define RULE_STATE_MAX_ROWS   4096  /* rows kept; the least recently seen makes room */
#define RULE_STATE_MAX_REPAIRS 4096 /* the limits stop a device long before */
#define RULE_STATE_REPAIR_DEVICE_MAX 96
#define RULE_STATE_REPAIR_LOCATION_MAX 160

struct rule_state_bucket {
	char rule[RULE_NAME_MAX];
	char key[RULE_KEY_MAX];
	uint64_t holdoff_until;
	unsigned n_times;
	uint64_t times[];           /* oldest first */
};

#define RULE_STATE_PAGE_IDENTITY_MAX 128
#define RULE_STATE_PAGE_ORIGIN_MAX 160

struct rule_state_page {
	uint64_t pfn;
	bool hard;
	bool ok;                    /* the kernel accepted it */
	bool pending;               /* the intent: saved before the write, the outcome not yet known */
	bool held;                  /* not offlined again at a start: its memory changed (said once) */
	bool held_absent;           /* held for memory not there (yet) in this boot, looked at again
				     * when memory comes online (page-hold.h); not saved: each start
				     * looks afresh */
	bool salvaged;              /* read from a damaged state file: known bad, never acted on again */
	uint64_t time_usec;
	char boot_id[33];           /* the boot it was offlined in; "" unknown */
	char machine_id[33];        /* the machine it was offlined on; "" unknown */
	char identity[RULE_STATE_PAGE_IDENTITY_MAX];  /* the memory it was on; "" unknown */
	char origin[RULE_STATE_PAGE_ORIGIN_MAX];      /* the rule and record that made it bad; "" unknown */
};

struct rule_state_alert {
	uint64_t time_usec;
	char rule[RULE_NAME_MAX];
	char key[RULE_KEY_MAX];
};

struct rule_state_row_page {
	uint64_t pfn;
	uint64_t seen_usec;         /* when a record last named it */
};

struct rule_state_row {
	char rule[RULE_NAME_MAX];
	char key[RULE_KEY_MAX];
	uint64_t hash;              /* rule_state_key_hash(key), for lookups; not saved */
	uint64_t isolated_usec;     /* when it crossed its threshold; 0: not yet */
	uint64_t last_usec;         /* its latest record */
	unsigned n_pages;
	struct rule_state_row_page pages[RULE_STATE_ROW_PAGES];
	bool changed;               /* since the daemon last put it on disk (the journal); not saved */
};

enum rule_state_repair_status {
	RULE_STATE_REPAIR_DONE,     /* the kernel took it */
	RULE_STATE_REPAIR_FAILED,   /* the repair itself failed, in a way that may mean the device acted */
	RULE_STATE_REPAIR_INTENT,   /* about to be asked; still so after a crash: the outcome is unknown */
	_RULE_STATE_REPAIR_STATUS_MAX,
};

struct rule_state_repair {
	char device[RULE_STATE_REPAIR_DEVICE_MAX];     /* "mem0", "serial=0x1234" */
	char location[RULE_STATE_REPAIR_LOCATION_MAX]; /* the repair unit */
	uint64_t time_usec;         /* when it was asked, by the wall clock */
	enum rule_state_repair_status status;
	bool hard;                  /* permanent; else lost when the device loses power */
	char boot_id[33];
};

struct rule_state {
	struct rule_state_bucket **buckets;
	unsigned n_buckets;
	/* Buckets by rule and key, for a journal's lines: as page_slots, over the first n_bucket_indexed. */
	uint32_t *bucket_slots;
	unsigned n_bucket_slots, n_bucket_indexed;
	struct rule_state_page *pages;
	unsigned n_pages, pages_allocated;
	/* Pages by frame: open addressing, slot = index + 1 (0 empty); a storm finds its page at once. */
	uint32_t *page_slots;
	unsigned n_page_slots;
	struct rule_state_alert *alerts;
	unsigned n_alerts;
	uint64_t alerts_added;      /* ever, this run (not saved): the journal takes those after alerts_journaled */
	uint64_t alerts_journaled;
	struct rule_state_row *rows;
	unsigned n_rows;
	struct rule_state_repair *repairs;
	unsigned n_repairs;
	/* This run's losses to the bounds (not saved): rows pushed out, pages a full row did not keep. */
	uint64_t rows_evicted;
	uint64_t row_pages_dropped;
	/* The checksum of the file it was read from (its end line): a journal names the state it follows. */
	uint64_t file_sum;
	bool has_file_sum;
};

void rule_state_done(struct rule_state *s);

/* Appends; alerts beyond RULE_STATE_MAX_ALERTS push the oldest out.  0 or -ENOMEM/-E2BIG. */
int rule_state_add_bucket(struct rule_state *s, const char *rule, const char *key,
			  uint64_t holdoff_until, const uint64_t *times, unsigned n_times);
int rule_state_add_page(struct rule_state *s, const struct rule_state_page *p);
int rule_state_add_alert(struct rule_state *s, const struct rule_state_alert *a);
/* Appends a row (the state file's), its hash set; past RULE_STATE_MAX_ROWS -E2BIG. */
int rule_state_add_row(struct rule_state *s, const struct rule_state_row *r);
/* The row that makes room for another: the least recently seen, one not isolated if any. */
unsigned rule_state_row_to_evict(const struct rule_state *s);
/* Appends a repair; past RULE_STATE_MAX_REPAIRS -E2BIG, a field too long -E2BIG too. */
int rule_state_add_repair(struct rule_state *s, const struct rule_state_repair *r);
/* Removes repair i (a request the kernel refused before asking the device). */
void rule_state_remove_repair(struct rule_state *s, unsigned i);
/* "done", "failed", "intent". */
const char *rule_state_repair_status_to_string(enum rule_state_repair_status st);
/* FNV-1a of a key: rows are looked up by it before their keys are compared. */
uint64_t rule_state_key_hash(const char *key);
/* The page's entry, NULL if it was never offlined (or tried). */
const struct rule_state_page *rule_state_find_page(const struct rule_state *s, uint64_t pfn);
/* Records the outcome of an offlining: the page's entry is updated, or added.  0 or -ENOMEM/-E2BIG. */
int rule_state_set_page(struct rule_state *s, const struct rule_state_page *p);
/* Removes the page's entry (an operator's forget); -ENOENT if there is none. */
int rule_state_forget_page(struct rule_state *s, uint64_t pfn);

/* Replaces s's buckets with the engine's, each with the times still within its window at now. */
int rule_state_capture(struct rule_state *s, const struct rule_engine *e, uint64_t now_usec);
/* Puts s's buckets back into the engine (rules no longer defined are skipped). */
int rule_state_restore(const struct rule_state *s, struct rule_engine *e);

/* Serialises; *ret is malloc'ed and NUL-terminated.  0 or -ENOMEM. */
int rule_state_format(const struct rule_state *s, char **ret, size_t *ret_len);
/* The checksum of rule_state_format()'s text (its end line's): 0, or -EINVAL for text without one. */
int rule_state_text_sum(const char *text, size_t len, uint64_t *ret);

/*
 * The journal beside the state (rules.state.journal): what changed since
 * the state was last written whole, appended, so that the record path never
 * rewrites the whole state.  A full write (rule_state_format()) takes it in
 * and empties it.  One item per line, as in the state, applied in order:
 *
 *	base	SUM|-
 *	page	...                       (as in the state) replaces the page's entry
 *	bucket	RULE	KEY	HOLDOFF	T1,...  (as in the state) replaces the bucket, or adds it
 *	count	RULE	KEY	T1,...          these records were counted into the bucket, after
 *	                                  what it held (the newest RULE_MAX_COUNT kept)
 *	row	...                       (as in the state) replaces the row (rule and key)
 *	alert	...                       (as in the state) one more alert
 *
 * The first line names the state it follows: the checksum of that file's
 * end line, or "-" if there was none.  A journal that names another state
 * is older than the state (a crash between a full write and the removal of
 * the journal): the state holds all of it already, and applying a count
 * line twice would count its records twice.  A journal without a base
 * line (written before count lines existed) holds only page lines, which
 * are the same applied twice.
 *
 * A page intent is appended and synced before the sysfs write; the counts,
 * rows and alerts of a second are appended together
 * (rule_state_format_changes()).
 */
int rule_state_format_page(const struct rule_state_page *p, char **ret, size_t *ret_len);
/* "base\tSUM\n" for a journal that follows the state of s (its file_sum; "-" without). */
void rule_state_format_base(const struct rule_state *s, char *buf, size_t size);
/*
 * The journal lines for what changed since the last rule_state_changes_done():
 * the engine's buckets (a "count" line for records only added, else
 * "bucket"; none without an engine), the rows marked changed and the
 * alerts added.  *ret is NULL
 * and *ret_len 0 if nothing did.  0 or -ENOMEM.
 */
int rule_state_format_changes(const struct rule_state *s, const struct rule_engine *e, char **ret,
			      size_t *ret_len);
/* What rule_state_format_changes() gave is on disk (or the state was written whole). */
void rule_state_changes_done(struct rule_state *s, struct rule_engine *e);
/*
 * Applies a journal's lines to s in order.  base: the base line's word
 * this journal must carry (rule_state_format_base() of the state it is
 * read over), or NULL to take any (a damaged state, salvaged).  Returns:
 *   0                  every line applied;
 *   RULE_JOURNAL_CUT   the lines applied but the last, which has no newline:
 *                      cut by a crash during its append; *ret_line is it;
 *   -ESTALE            the base line names another state: nothing applied (why);
 *   -EINVAL            line *ret_line is damaged (why): the lines before it
 *                      applied, not it nor any after;
 *   -ENOMEM.
 */
#define RULE_JOURNAL_CUT 1
int rule_state_apply_journal(struct rule_state *s, const char *text, size_t len, const char *base, char *why,
			     size_t why_len, unsigned *ret_line);

/*
 * Parses a state file.  On error returns -EINVAL (or -ENOMEM), leaves *ret
 * empty, and says what is wrong in why, with the 1-based line in *ret_line
 * (0: the file as a whole).  On success ret->file_sum is the file's checksum.
 */
int rule_state_parse(const char *text, size_t len, struct rule_state *ret, char *why,
		     size_t why_len, unsigned *ret_line);

/*
 * What a damaged state file (one rule_state_parse() refused) still says
 * about actions on hardware: each page and repair line that parses on its
 * own, whatever is wrong elsewhere.  Counts, rows and alerts are not
 * taken (losing them loses counts, never an action's memory).  A salvaged
 * page is marked salvaged, since its line cannot be trusted enough to act
 * on; a salvaged repair is kept as it reads, since remembering a repair
 * only ever refuses another.  *ret_skipped: the lines not taken.  0 or
 * -ENOMEM (*ret empty).
 */
int rule_state_salvage(const char *text, size_t len, struct rule_state *ret, unsigned *ret_skipped);
