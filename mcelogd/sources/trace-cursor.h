/* SPDX-License-Identifier: MIT */
#pragma once

/*
 * Where we are in the kernel's trace buffer, so that a restart logs what
 * happened while mcelogd was stopped, exactly once.
 *
 * mcelogd keeps a tracefs instance (instances/mcelogd) with mce:mce_record
 * enabled.  Its ring buffer goes on filling while the daemon is stopped
 * (restart, upgrade, crash).  The cursor holds, per CPU ring, the identity
 * of the last record mcelogd logged from that CPU in this boot.  At start
 * the instance's records of each CPU that come after the cursor's record
 * are the ones nobody logged.
 *
 * A record's identity is what the kernel copied from the bank and stamped on
 * it (CPU, bank, registers, TSC, wall time): the same in the binary sample
 * perf hands us and in the instance's text, and unique in practice because
 * of the TSC.  Timestamps of the two buffers cannot be compared: each reads
 * the clock on its own.
 *
 * Pure: no I/O.  The file format is a few text lines, written whole.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "record.h"

struct mce_identity {
	uint32_t cpu;       /* the record's CPU (extcpu), not the ring's */
	uint32_t bank;
	uint64_t status;
	uint64_t addr;
	uint64_t misc;
	uint64_t tsc;
	int64_t time_usec;
};

void mce_identity_from_record(const struct mce_record *r, struct mce_identity *ret);
bool mce_identity_equal(const struct mce_identity *a, const struct mce_identity *b);
/* A total order (qsort/bsearch); 0 exactly when mce_identity_equal(). */
int mce_identity_compare(const struct mce_identity *a, const struct mce_identity *b);

#define TRACE_CURSOR_MAX_CPUS 8192

struct trace_cursor {
	char boot_id[MCE_BOOT_ID_LEN + 1];
	unsigned n_cpus;                  /* entries in cpus[], ring CPU numbers 0..n_cpus-1 */
	struct trace_cursor_cpu {
		bool set;
		struct mce_identity last;
	} *cpus;
};

void trace_cursor_init(struct trace_cursor *c, const char *boot_id);
void trace_cursor_done(struct trace_cursor *c);
/* Records that ring cpu's last logged record is r.  -ENOMEM, -ERANGE. */
int trace_cursor_note(struct trace_cursor *c, unsigned ring_cpu, const struct mce_record *r);
int trace_cursor_note_identity(struct trace_cursor *c, unsigned ring_cpu, const struct mce_identity *id);
const struct mce_identity *trace_cursor_get(const struct trace_cursor *c, unsigned ring_cpu);

/* The file's text; *ret is malloc'ed.  Returns its length or negative errno. */
int trace_cursor_format(const struct trace_cursor *c, char **ret);
/*
 * Parses a cursor file into c (initialised, empty).  On -EBADMSG, *bad_line
 * (1-based) names the first line that is wrong; c is then left empty, so a
 * damaged file costs at worst duplicates, never a lost record.
 */
int trace_cursor_parse(const char *text, size_t len, struct trace_cursor *c, unsigned *bad_line);

/*
 * A line of a tracefs "trace" file:
 *	"          <idle>-0       [001] d.h1.   123.456789: mce_record: CPU: 1, ..."
 * Finds the ring CPU ("[001]") and where the event's own text begins
 * (at "mce_record:").  Returns 0, or -ENOENT for comment lines and lines
 * of other events, -EBADMSG for a mce_record line without a readable CPU.
 */
int trace_line_split(const char *line, size_t len, unsigned *ring_cpu, size_t *event_offset);

/*
 * Given one ring's records in order, the index of the first one after the
 * cursor's record: the last match + 1, or 0 when the cursor's record is not
 * among them (nothing of this ring was logged, or the ring has wrapped
 * past it).  *found tells which.
 */
size_t trace_cursor_resume_index(const struct mce_identity *last, const struct mce_identity *ids,
				 size_t n, bool *found);
