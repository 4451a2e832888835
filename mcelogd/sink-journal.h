/* SPDX-License-Identifier: MIT */
#pragma once

/* One structured journald entry per record: MESSAGE_ID by class, MCE_* fields, MCE_JSON. */

#include <sys/uio.h>

#include "decode.h"
#include "macro.h"
#include "record.h"

/*
 * One journal entry being built: "NAME=value" fields in one store, an iovec
 * each, for sd_journal_sendv(f.iov, f.n).  Shared by every kind of entry.
 */
struct journal_fields {
	struct iovec iov[48];
	unsigned n;
	char store[4096];
	size_t used;
};

/* Adds a field; one that does not fit is left out whole, never cut (MCE_JSON holds everything). */
_printf_(2, 3)
void journal_fields_add(struct journal_fields *f, const char *fmt, ...);
/* A field too large for the store (MCE_JSON): journald needs "NAME=value" in
 * one iovec, so the value is copied behind its name into tmp. */
void journal_fields_add_large(struct journal_fields *f, const char *prefix, const char *value,
			      char *tmp, size_t tmp_size);

/* Returns 0 or negative errno from sd_journal_sendv(). */
int sink_journal_write(const struct mce_record *r, const struct mce_decoded *d, const char *json);

struct ras_record;
/* A non-MCA record: MESSAGE_ID by event kind, MCE_<FIELD> per field, MCE_JSON. */
int sink_journal_write_ras(const struct ras_record *r, const char *json);

int sink_journal_write_loss(const char *source, unsigned cpu, uint64_t lost);

/* The readable MESSAGE= line, also used by the text renderers. */
int record_message(const struct mce_record *r, const struct mce_decoded *d, char *buf, size_t size);

/* PRIORITY= for a severity (syslog level). */
int severity_priority(enum mce_severity s);

/*
 * Waits until journald has stored n_expected record entries sent by this
 * process (matched by _PID, which journald takes from the socket credentials).
 * journald fills _COMM and _EXE from /proc after the fact, so a process that
 * exits first leaves entries without them -- and mcectl shows only entries
 * whose trusted _COMM is ours.  Returns 0, or -ETIMEDOUT.
 */
int sink_journal_wait_stored(uint64_t n_expected, uint64_t timeout_usec);

/*
 * The same for entries matching matches[] ("FIELD=value"; journal match
 * rules: the same field ORs, different fields AND), always narrowed to this
 * process (_PID) in this boot (_BOOT_ID).  Returns 0, or -ETIMEDOUT.
 */
int sink_journal_wait_matching(const char *const *matches, size_t n_matches, uint64_t n_expected,
			       uint64_t timeout_usec);
