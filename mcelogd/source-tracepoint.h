/* SPDX-License-Identifier: MIT */
#pragma once

/*
 * Source: the mce:mce_record tracepoint, read with perf_event_open, one ring
 * buffer per online CPU.  Field offsets come from the tracefs format file.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct manager;
struct tracepoint_source;

/*
 * Opens the per-CPU readers and adds them to m->event.  When the kernel has
 * no such tracepoint or we lack privilege, logs exactly why and returns a
 * negative errno; the daemon goes on with its other sources.
 * tracefs_root: NULL for the usual mount points.
 */
int tracepoint_source_open(struct manager *m, const char *tracefs_root,
			   struct tracepoint_source **ret);
struct tracepoint_source *tracepoint_source_free(struct tracepoint_source *s);

bool tracepoint_source_active(const struct tracepoint_source *s);
unsigned tracepoint_source_n_cpus(const struct tracepoint_source *s);
uint64_t tracepoint_source_n_lost(const struct tracepoint_source *s);

/*
 * CPU hotplug.  Offline: the CPU's ring is drained and its reader closed.
 * Online: a reader is opened (nothing happens if one is open already).
 * Returns 1 if the set of CPUs read changed, 0 if not, or a negative errno
 * (logged) if the reader could not be opened.  Sets the source's state.
 */
int tracepoint_source_cpu_changed(struct tracepoint_source *s, unsigned cpu, bool online);

/*
 * After hotplug events were missed: reads exactly the CPUs set in
 * online[0..n_online), renewing the readers of those read already (one of
 * them may have gone offline and back unseen).  Returns 0 or the first
 * negative errno (logged).  Sets the source's state.
 */
int tracepoint_source_cpus_resync(struct tracepoint_source *s, const bool *online, size_t n_online);

/* Reads whatever the rings hold now (at start-up before READY=1, and at stop). */
void tracepoint_source_drain(struct tracepoint_source *s);
