/* SPDX-License-Identifier: MIT */
#pragma once

/*
 * Where we are among the ras:* events the kernel keeps for us, so that a
 * restart (or a reload that reopens the tracepoints) logs what came in
 * between, exactly once.
 *
 * The kernel fires each ras:* tracepoint into two buffers: the live perf
 * ring we read, and a tracefs instance of our own (instances/mcelogd-ras)
 * that goes on filling while mcelogd is stopped.  Unlike a machine check, a
 * ras event carries nothing unique (two identical AER corrected errors are
 * byte for byte the same), so an event is known by a mark: its time stamp,
 * which both buffers take from CLOCK_MONOTONIC a few microseconds apart, and
 * a digest of its fields.  Per CPU ring, the cursor keeps the mark of the
 * last event logged; at start the instance's events of that ring after the
 * one matching it are the ones nobody logged.
 *
 * Pure: no I/O.  The file format is a few text lines, written whole.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "record.h"

/* The two buffers stamp one event this far apart at most, with room to spare. */
#define RAS_MARK_TOLERANCE_NS (5 * 1000 * 1000ULL)

struct ras_mark {
	uint64_t time_ns;       /* CLOCK_MONOTONIC */
	uint64_t digest;
};

/*
 * Digest of one raw tracepoint record: the event's own fields, after the
 * 8 bytes of common fields (type, flags, preempt count, pid: the two buffers
 * may fill the flags differently) and without trailing zero bytes (perf pads
 * its copy to 8 bytes, the instance to 4).
 */
uint64_t ras_mark_digest(const void *raw, size_t size);

/*
 * Of n events kept for one ring, in ring order, the index of the first one
 * the cursor's last logged event did not cover: the one after the kept event
 * with the same digest stamped nearest to last (within the tolerance), or,
 * when none matches, the first stamped after it.  last NULL: 0, all are new.
 */
size_t ras_resume_index(const struct ras_mark *last, const struct ras_mark *kept, size_t n);

/*
 * Whether a live event was already logged from the instance at start: a
 * recovered event (in ring order, taken[] marking those already matched)
 * with the same digest stamped within the tolerance.  The first such one
 * not yet taken is taken.
 */
bool ras_mark_recovered(const struct ras_mark *m, const struct ras_mark *recovered, bool *taken, size_t n);

#define RAS_CURSOR_MAX_CPUS 8192

struct ras_cursor {
	char boot_id[MCE_BOOT_ID_LEN + 1];
	unsigned n_cpus;
	struct ras_cursor_ring {
		bool set;
		struct ras_mark last;
	} *rings;
};

void ras_cursor_init(struct ras_cursor *c, const char *boot_id);
void ras_cursor_done(struct ras_cursor *c);
/* -ENOMEM, -ERANGE (ring beyond RAS_CURSOR_MAX_CPUS). */
int ras_cursor_note(struct ras_cursor *c, unsigned ring_cpu, const struct ras_mark *m);
const struct ras_mark *ras_cursor_get(const struct ras_cursor *c, unsigned ring_cpu);
/* Text form, malloc'd; returns its length or -ENOMEM. */
int ras_cursor_format(const struct ras_cursor *c, char **ret);
/* Fills an initialised c; -EBADMSG with the first bad line number, -ENOMEM. */
int ras_cursor_parse(const char *text, size_t len, struct ras_cursor *c, unsigned *bad_line);

/*
 * What the start read out of the instance, kept on disk until it is logged:
 * the read empties the instance, so a kill between the read and the journal
 * would otherwise lose these events.  A binary file:
 *	"MCELOGD-RAS-KEPT1\n", the 32-hex boot id, then per event
 *	u32 ring, u64 time (ns), u32 size, size bytes of the raw record.
 */
struct ras_kept_event {
	unsigned ring;
	uint64_t time_ns;
	const unsigned char *raw;
	size_t size;
};

#define RAS_KEPT_EVENT_MAX 65536

/* The file image of n events, malloc'ed. */
int ras_kept_format(const char *boot_id, const struct ras_kept_event *ev, size_t n, char **ret, size_t *ret_len);

/*
 * Hands each event of a file image to on_event (raw points into data).
 * Returns the number of events, on_event's negative errno, or -EBADMSG when
 * the header is wrong or an event is cut short or oversized (those before it
 * were handed on).
 */
int ras_kept_parse(const unsigned char *data, size_t len, char boot_id[MCE_BOOT_ID_LEN + 1],
		   int (*on_event)(const struct ras_kept_event *e, void *userdata), void *userdata);
