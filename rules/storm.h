/* SPDX-License-Identifier: MIT */
#pragma once

/*
 * Corrected-error storm aggregation.
 *
 * A bank that goes bad can report thousands of corrected errors a second.
 * Logging each one floods journald, which then drops entries (10,000 per 30 s
 * per service by default) — including the ones that matter.  This engine
 * decides, per error signature, whether a record is logged on its own or only
 * counted, and tells the caller when to log a summary of the counted ones.
 *
 * Per signature: the first `burst` records within `window_usec` are logged
 * individually (verdict STORM_LOG).  The next record in that window starts a
 * storm: from then on records are only counted (STORM_SUPPRESS), and
 * storm_tick() emits at most one STORM_EVENT_SUMMARY per
 * `summary_interval_usec` with the exact number counted since the previous
 * one: due one interval after the storm started or after the previous
 * summary, or, when the storm was silent through that time, one interval
 * after the record that resumed it.  An interval without records gives no
 * summary.  When a storm signature has had no record for `quiet_usec`, any count
 * not yet summarised is flushed in a last summary and a STORM_EVENT_END
 * carries the storm's total.  So, for every record passed to storm_account():
 *
 *	seen == logged + suppressed
 *	suppressed == sum of the `count` of every STORM_EVENT_SUMMARY emitted
 *	              (once every storm has ended)
 *
 * The engine is pure: no I/O, no clock, no logging.  Time is passed in by the
 * caller in microseconds of a monotonic clock (CLOCK_MONOTONIC or
 * CLOCK_BOOTTIME).  A time earlier than one already seen is treated as that
 * time (no time passed), so a caller mixing clocks by mistake cannot make
 * the engine emit early or corrupt its counts.
 *
 * Memory is bounded: at most `max_signatures` signatures are tracked.  When
 * the table is full, the least recently seen signature that is not in a storm
 * makes room (it loses only its burst window).  If every tracked signature is
 * in a storm, records of a new signature are logged individually and counted
 * in `overflow`: never dropped, never silently.
 *
 * Not thread-safe; one instance belongs to the event loop.
 */

#include <stdbool.h>
#include <stdint.h>

#define STORM_USEC_PER_SEC UINT64_C(1000000)

/*
 * Defaults, and why:
 *  - burst 10 in 1 s: a healthy machine sees a handful of corrected errors a
 *    day; ten a second from one signature is unmistakably a storm, and ten
 *    individual records (with all registers) are enough to diagnose it.
 *  - one summary every 10 s: keeps a storm to 3 journal entries per 30 s, so
 *    even hundreds of concurrent storms stay below journald's default
 *    10,000 per 30 s, while `mcectl status` and the journal stay current.
 *  - storm ends after 30 s without a record: three summary intervals, so a
 *    storm that pauses briefly (the kernel's own CMCI storm handling switches
 *    to polling and back) does not flap between storm and burst, each flap
 *    costing another burst of individual records.
 *  - 1024 signatures: covers every (CPU, bank, code) that realistically
 *    storms at once on large machines, in about 120 KiB.
 */
#define STORM_DEFAULT_BURST              10U
#define STORM_DEFAULT_WINDOW_USEC        (1 * STORM_USEC_PER_SEC)
#define STORM_DEFAULT_SUMMARY_USEC       (10 * STORM_USEC_PER_SEC)
#define STORM_DEFAULT_QUIET_USEC         (30 * STORM_USEC_PER_SEC)
#define STORM_DEFAULT_MAX_SIGNATURES     1024U
/* Upper bound of max_signatures, so that the index stays in 32 bits. */
#define STORM_MAX_SIGNATURES_LIMIT       (1U << 20)

struct storm_config {
	unsigned burst;                  /* records logged individually per window */
	uint64_t window_usec;            /* burst window, anchored at its first record */
	uint64_t summary_interval_usec;  /* minimum spacing of a storm's summaries */
	uint64_t quiet_usec;             /* no record for this long ends a storm */
	unsigned max_signatures;         /* size of the signature table */
};

/*
 * An error signature.  per_cpu selects the scope: true for banks private to
 * a CPU (or core), where (cpu, bank, code) identifies the source; false for
 * banks shared by the CPUs of a package, where any CPU may report the same
 * error, so cpu is ignored (and reported back as 0).
 */
struct storm_key {
	uint32_t cpu;
	uint32_t bank;
	uint64_t code;
	bool per_cpu;
};

/*
 * The error-code part of a signature from MCi_STATUS: the low 32 bits, that
 * is MCACOD plus MSCOD (Intel) or the extended error code (AMD SMCA).  The
 * high half is left out on purpose: it holds the corrected-error count,
 * overflow and validity bits, which change from one record of the same
 * error to the next.
 */
static inline uint64_t storm_code_from_status(uint64_t status)
{
	return status & UINT64_C(0xffffffff);
}

enum storm_verdict {
	STORM_LOG,        /* log this record individually */
	STORM_SUPPRESS,   /* counted in a storm; do not log it */
};

enum storm_event_type {
	STORM_EVENT_SUMMARY,
	STORM_EVENT_END,
};

struct storm_event {
	enum storm_event_type type;
	struct storm_key key;
	/* SUMMARY: records suppressed since the previous summary (> 0).
	 * END: always 0; a final summary precedes the end if anything was pending. */
	uint64_t count;
	/* Records suppressed in this storm so far (END: in the whole storm). */
	uint64_t total;
	/* Records of the burst that started the storm, logged individually. */
	unsigned logged;
	/* SUMMARY: first and last record counted in `count`.
	 * END: first and last suppressed record of the storm. */
	uint64_t first_usec;
	uint64_t last_usec;
	/* When the storm started: its first suppressed record. */
	uint64_t start_usec;
	/*
	 * SUMMARY: distinct 4 KiB pages among the records in `count` that
	 * carry a physical address (storm_account_page()); pages_capped: there
	 * were more than STORM_MAX_PAGES, `pages` is a lower bound.  A storm
	 * over many pages is a row, column or bank fault, not one bad cell.
	 */
	uint64_t pages;
	bool pages_capped;
};

/* A tracked signature, for `mcectl status`. */
struct storm_info {
	struct storm_key key;
	bool in_storm;
	uint64_t last_usec;      /* last record of this signature */
	/* The rest is meaningful only while in_storm. */
	uint64_t start_usec;
	unsigned logged;         /* onset burst, logged individually */
	uint64_t suppressed;     /* suppressed in this storm so far */
	uint64_t pending;        /* suppressed but not yet in a summary */
	uint64_t summaries;      /* summaries emitted for this storm */
};

struct storm_counters {
	uint64_t seen;            /* records passed to storm_account() */
	uint64_t logged;          /* STORM_LOG verdicts (includes overflow) */
	uint64_t suppressed;      /* STORM_SUPPRESS verdicts */
	uint64_t overflow;        /* logged because the table was full of storms */
	uint64_t evicted;         /* signatures dropped to make room */
	uint64_t storms_started;
	uint64_t storms_ended;
	unsigned active;          /* storms in progress */
	unsigned tracked;         /* signatures in the table */
};

struct storm;

typedef void (*storm_event_fn)(const struct storm_event *event, void *userdata);
/* Return non-zero to stop the iteration; storm_foreach_active() returns it. */
typedef int (*storm_info_fn)(const struct storm_info *info, void *userdata);

void storm_config_default(struct storm_config *config);
/* 0, or -EINVAL if a value is zero or max_signatures exceeds the limit. */
int storm_config_validate(const struct storm_config *config);

/* config NULL means the defaults.  -EINVAL for a bad config, -ENOMEM. */
int storm_new(const struct storm_config *config, struct storm **ret);
void storm_free(struct storm *s);
static inline void storm_freep(struct storm **s)
{
	storm_free(*s);
}
#define _cleanup_storm_ __attribute__((cleanup(storm_freep)))

/*
 * Account one record.  The caller logs it if STORM_LOG is returned and
 * otherwise only relies on the counts.  Call storm_tick() first whenever
 * now_usec >= storm_next_deadline(), so that a storm that went quiet ends
 * before a new record of the same signature would extend it.
 */
enum storm_verdict storm_account(struct storm *s, const struct storm_key *key, uint64_t now_usec);

/* Distinct pages counted per summary, at most (16 KiB per storm while it lasts). */
#define STORM_MAX_PAGES 1024U
/* storm_account(), and the record's page (has_page) counts toward the summary's distinct pages. */
enum storm_verdict storm_account_page(struct storm *s, const struct storm_key *key, uint64_t now_usec,
				      bool has_page, uint64_t page);

/*
 * Emit the summaries and storm ends due at now_usec through fn (which may be
 * NULL, and must not call back into s).  A summary always precedes the end of
 * the same storm.  Returns the number of events emitted.
 */
unsigned storm_tick(struct storm *s, uint64_t now_usec, storm_event_fn fn, void *userdata);

/*
 * When storm_tick() needs to run next: never later than the first due event
 * (it can be earlier, then the tick emits nothing and computes the exact
 * time).  UINT64_MAX when no storm is in progress.
 */
uint64_t storm_next_deadline(const struct storm *s);

/* Storms in progress, in table order. */
int storm_foreach_active(const struct storm *s, storm_info_fn fn, void *userdata);
/* 0 and *info filled if key is tracked, -ENOENT if not. */
int storm_lookup(const struct storm *s, const struct storm_key *key, struct storm_info *info);
void storm_get_counters(const struct storm *s, struct storm_counters *counters);
