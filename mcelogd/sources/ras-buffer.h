/* SPDX-License-Identifier: MIT */
#pragma once

/*
 * No ras:* (or cxl:*, PCIe hotplug and link) event lost across restarts and reloads: a tracefs instance of its
 * own (instances/mcelogd-ras, stamped by CLOCK_MONOTONIC like our perf
 * samples) keeps every ras event while mcelogd is not reading, and a cursor
 * in the state directory says what was logged (ras-cursor.h: how events are
 * matched).
 *
 * Unlike the machine-check instance (trace-buffer.h), this one is read in
 * binary, from per_cpu/cpuN/trace_pipe_raw: a ras event's text form in the
 * trace file leaves out fields the record needs (an ARM event's error
 * information, a vendor section's bytes), while the binary copy is the same
 * record the live perf sample carries.  That read consumes what it reads, so
 * it happens once, at start: what a stop left behind is logged then, and the
 * instance starts again from empty.
 *
 * Order at start (the tracepoint source, tracepoint.c):
 *	ras_buffer_setup()          instance exists (ExecStartPre=+ in the unit)
 *	open the live perf rings    nothing new is missed
 *	ras_buffer_recover()        logs the instance's events after the cursor
 *	live samples                through ras_buffer_admit(): events the
 *	                            instance already gave are dropped
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ras-cursor.h"

struct source_host;
struct ras_buffer;

/* Per-CPU ring size of the instance.  A ras event takes 60 to 400 bytes. */
#define RAS_BUFFER_KB_PER_CPU 128

/*
 * Creates the instance (CLOCK_MONOTONIC stamps) and enables every ras:*
 * event the kernel has, and the device events read beside them (cxl:*,
 * pci:pci_hp_event, pci:pcie_link_event, the devlink health events) where the kernel has
 * them.  Needs write access to tracefs: the unit's
 * ExecStartPre=+.  tracefs_root NULL: probe.  Returns 0 or negative errno (logged).
 */
int ras_buffer_setup(const char *tracefs_root);

/* Loads the cursor from state_dir.  A missing or damaged cursor is logged, not fatal. */
int ras_buffer_open(const struct source_host *h, const char *tracefs_root, const char *state_dir,
		    struct ras_buffer **ret);
/* Saves the cursor, then frees. */
struct ras_buffer *ras_buffer_free(struct ras_buffer *rb);

/*
 * One kept event for the source to decode and submit: its raw record
 * (common_type first), ring, and CLOCK_MONOTONIC stamp.  Returns what
 * source_submit_ras() returned, or -ENOENT for an event it does not read.
 */
typedef int (*ras_buffer_submit_t)(void *userdata, unsigned ring_cpu, const unsigned char *raw, size_t size,
				   uint64_t time_ns);

/*
 * Reads (and so empties) the instance, and submits the events the cursor
 * does not cover.  opened_ns: CLOCK_MONOTONIC just before the live rings
 * opened; events stamped after it are in both and the live copy is dropped.
 * Returns the number of events submitted, or negative errno (logged).
 */
int ras_buffer_recover(struct ras_buffer *rb, uint64_t opened_ns, ras_buffer_submit_t submit, void *userdata);

/* false: this live event was already logged from the instance at start. */
bool ras_buffer_admit(struct ras_buffer *rb, unsigned ring_cpu, const struct ras_mark *m);

/* A live or kept event was handed on with this result (source_submit_ras()'s). */
void ras_buffer_logged(struct ras_buffer *rb, unsigned ring_cpu, const struct ras_mark *m, int result);

/* Every event submitted so far is in a sink, storm summaries included. */
void ras_buffer_accounted(struct ras_buffer *rb);

int ras_buffer_save(struct ras_buffer *rb);
