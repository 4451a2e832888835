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
	struct rule_state_page *pages;
	unsigned n_pages, pages_allocated;
	/* Pages by frame: open addressing, slot = index + 1 (0 empty); a storm finds its page at once. */
	uint32_t *page_slots;
	unsigned n_page_slots;
	struct rule_state_alert *alerts;
	unsigned n_alerts;
	struct rule_state_row *rows;
	unsigned n_rows;
	struct rule_state_repair *repairs;
	unsigned n_repairs;
	/* This run's losses to the bounds (not saved): rows pushed out, pages a full row did not keep. */
	uint64_t rows_evicted;
	uint64_t row_pages_dropped;
};

void rule_state_done(struct rule_state *s);

/* Appends; alerts beyond RULE_STATE_MAX_ALERTS push the oldest out.  0 or -ENOMEM/-E2BIG. */
int rule_state_add_bucket(struct rule_state *s, const char *rule, const char *key,
			  uint64_t holdoff_until, const uint64_t *times, unsigned n_times);
int rule_state_add_page(struct rule_state *s, const struct rule_state_page *p);
int rule_state_add_alert(struct rule_state *s, const struct rule_state_alert *a);
/* Appends a row (the state file's), its hash set; past RULE_STATE_MAX_ROWS -E2BIG. */
int rule_state_add_row(struct rule_state *s, const struct rule_state_row *r);
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

/*
 * The journal beside the state (rules.state.journal): one page line per
 * offlining's intent and outcome, appended (and the intent synced) at once,
 * so that the whole state need not be rewritten on the record path; the next
 * full write takes them in and empties it.  A page line, as in the state,
 * with its newline; *ret malloc'ed.  0 or -ENOMEM.
 */
int rule_state_format_page(const struct rule_state_page *p, char **ret, size_t *ret_len);
/*
 * Applies a journal's page lines to s, each replacing that page's entry, in
 * order.  A last line without its newline was cut by a crash mid-append and
 * is skipped.  -EINVAL with why and the line for anything else, the lines
 * before it applied; 0 or -ENOMEM otherwise.
 */
int rule_state_apply_journal(struct rule_state *s, const char *text, size_t len, char *why, size_t why_len,
			     unsigned *ret_line);

/*
 * Parses a state file.  On error returns -EINVAL (or -ENOMEM), leaves *ret
 * empty, and says what is wrong in why, with the 1-based line in *ret_line
 * (0: the file as a whole).
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
