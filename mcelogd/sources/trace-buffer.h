/* SPDX-License-Identifier: MIT */
#pragma once

/*
 * No record lost across restarts: a tracefs instance (instances/mcelogd)
 * whose ring buffer keeps mce:mce_record events while mcelogd is not
 * running, and a cursor in the state directory saying what was logged.
 * See trace-cursor.h for how records are matched.
 *
 * Order at start (the tracepoint source, tracepoint.c):
 *	trace_buffer_setup()          instance exists, event enabled
 *	open the live perf rings      nothing new is missed
 *	trace_buffer_recover()        logs the instance's records after the cursor
 *	first drain of the rings      through trace_buffer_admit(): records the
 *	                              instance already gave are dropped
 *	trace_buffer_drain_done()
 *
 * While running, a loss the kernel reports on a live ring is recovered the
 * same way (trace_buffer_recover_lost): the instance holds every machine check
 * the ring dropped, as long as it has not wrapped.
 */

#include <stdbool.h>

#include "record.h"

struct source_host;
struct trace_buffer;

/* Per-CPU ring size of the instance: what a stop can hold.  ~150 bytes a record → ~850 per CPU. */
#define TRACE_BUFFER_KB_PER_CPU 128

/*
 * Creates the instance and enables the event (needs write access to tracefs:
 * the unit does it in ExecStartPre=+ so the daemon itself can stay read-only).
 * tracefs_root NULL: probe.  Returns 0 or negative errno (logged).
 */
int trace_buffer_setup(const char *tracefs_root);

/* Loads the cursor from state_dir.  A missing or damaged cursor is logged, not fatal. */
int trace_buffer_open(const struct source_host *h, const char *tracefs_root, const char *state_dir,
		      struct trace_buffer **ret);
struct trace_buffer *trace_buffer_free(struct trace_buffer *tb);

/* Logs the instance's records that no run of mcelogd logged yet.  Returns how many, or negative errno. */
int trace_buffer_recover(struct trace_buffer *tb);
/* The first drain of the live rings is over: releases records held back while matching. */
void trace_buffer_drain_done(struct trace_buffer *tb);

/*
 * A live record from ring_cpu's perf ring: returns true if the caller should
 * submit it (then call trace_buffer_logged() with the submission's result),
 * false if it was already logged from the instance or is held back until the
 * first drain ends.
 */
bool trace_buffer_admit(struct trace_buffer *tb, unsigned ring_cpu, const struct mce_record *rec);
/* result < 0: no sink holds the record, and the ring's cursor stops before it for this run. */
void trace_buffer_logged(struct trace_buffer *tb, unsigned ring_cpu, const struct mce_record *rec, int result);
/* Writes the cursor now (at stop); otherwise it is written after each batch. */
int trace_buffer_save(struct trace_buffer *tb);
/* Whether ring_cpu's live records have not yet reached the trace instance's newest one at start. */
bool trace_buffer_catching_up(const struct trace_buffer *tb, unsigned ring_cpu);

/*
 * The kernel dropped `lost` records from ring_cpu's live ring (0: the ring's
 * reader was detached for a while and has just been renewed).  The machine
 * checks among them are in the instance: those after the newest record this
 * run handed on are logged now, and the ring's next records are matched
 * against the instance as at start.  Returns how many were logged, or
 * negative errno when the instance cannot be read (then the caller reports
 * the loss itself).
 */
int trace_buffer_recover_lost(struct trace_buffer *tb, unsigned ring_cpu, uint64_t lost);
/* ring_cpu's live ring is empty for now: a matching that saw newer records ends. */
void trace_buffer_ring_drained(struct trace_buffer *tb, unsigned ring_cpu);
/*
 * Once a matching after a loss ends: how many of the records the kernel said it
 * dropped the instance did not give back (ras:* records sharing the ring, or
 * machine checks the instance no longer held).  True when there are some to
 * report; at_start: the loss came while catching up at start.
 */
bool trace_buffer_take_unaccounted(struct trace_buffer *tb, unsigned ring_cpu, uint64_t *ret_lost,
				   bool *ret_at_start);

/* The storms that counted records of ours are summarised: the cursor may pass them now. */
void trace_buffer_accounted(struct trace_buffer *tb);
