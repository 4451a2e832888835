/* SPDX-License-Identifier: MIT */
#pragma once

/*
 * The counts a full journal spool keeps of the corrected records it could
 * not keep one by one: those that left it to make room, and those it
 * refused while full of entries that always stay.  One summary entry
 * (MESSAGE_ID=LOST, MCE_SOURCE=journal_spool) carries them to the journal.
 *
 * A summary is itself an entry of the full spool, so summaries must not
 * pile up there: each would take room from the records, until a spool of
 * summaries refused every new record.  So an earlier summary still in the
 * spool leaves it too when room is made, its counts folded into the next
 * one: the spool holds about one summary whatever the outage's length.
 * Pure: entries in, counts and JSON out.
 */

#include <stdbool.h>
#include <stdint.h>
#include <sys/uio.h>

struct json_writer;

/* Signatures a summary names one by one; the rest are counted together. */
#define SPOOL_SUMMARY_SIGNATURES 32

struct spool_summary {
	uint64_t count;      /* every record counted, folded summaries' included */
	uint64_t records;    /* of them, corrected records taken here one by one (not folded) */
	uint64_t folded;     /* earlier summaries folded in */
	uint64_t other;      /* counted beyond SPOOL_SUMMARY_SIGNATURES signatures */
	unsigned n;
	struct {
		char cpu[12], bank[12], code[12];
		uint64_t count;
	} sig[SPOOL_SUMMARY_SIGNATURES];
};

/* Whether a spooled entry is a summary of a full spool. */
bool spool_summary_is_summary(const struct iovec *iov, unsigned n);

/*
 * Counts a corrected (or informational) error record and returns true;
 * false for any other entry (never a storm's count, a loss or an alert).
 */
bool spool_summary_add_record(struct spool_summary *sum, const struct iovec *iov, unsigned n);

/* Counts a record that add_record() does not know, under "other". */
void spool_summary_count_other(struct spool_summary *sum);

/* Folds an earlier summary's counts in and returns true; false for any other entry. */
bool spool_summary_fold(struct spool_summary *sum, const struct iovec *iov, unsigned n);

/* Adds what other counted (a summary kept aside until it can be written). */
void spool_summary_merge(struct spool_summary *sum, const struct spool_summary *other);

/* The "lost", "summarised" and "other" keys of the summary's MCE_JSON, into an open object. */
void spool_summary_write_json(const struct spool_summary *sum, struct json_writer *w);
