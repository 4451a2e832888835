/* SPDX-License-Identifier: MIT */
#pragma once

/*
 * The Intel PT flight recorder of one CPU: the intel_pt PMU in AUX snapshot
 * (overwrite) mode with a bounded buffer, frozen and copied on demand, and
 * the copy saved as a PT snapshot file (lib/pt-file.h) in a directory bounded
 * by file count and bytes.  The daemon's provider (pt.c) and
 * `mcectl pt --capture` use exactly this code.  No logging: errors come back
 * as negative errno with a reason text.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "perf-aux.h"

struct perf_event_attr;

struct pt_recorder_config {
	bool enable;
	uint64_t buffer_size;      /* AUX bytes per CPU, a power of two, >= the page size */
	unsigned max_files;
	uint64_t max_bytes;
};

struct pt_recorder_cpu {
	int fd;                    /* -1: not open */
	unsigned cpu;
	void *ring;                /* the perf_event_mmap_page and data pages */
	size_t ring_len;
	const uint8_t *aux;        /* read-only: overwrite mode */
	size_t aux_len;
};

/* Opens the recorder of cpu with attr.  On failure *ret_why says why in an
 * operator's words (the errno alone does not: EACCES may be the paranoid
 * setting or a missing capability). */
int pt_recorder_open(const struct perf_event_attr *attr, unsigned cpu, uint64_t aux_size,
		     struct pt_recorder_cpu *ret, const char **ret_why);
void pt_recorder_close(struct pt_recorder_cpu *c);

struct pt_copy {
	uint8_t *data;             /* malloc'ed, oldest byte first */
	size_t len;
	uint64_t head;             /* aux_head at the freeze */
	bool wrapped;              /* older trace was overwritten */
	struct perf_time_conv time_conv;
	uint64_t freeze_tsc;       /* the TSC when the trace was frozen; 0 if unknown */
};

/* Stops the trace (which also flushes it to the buffer), copies the buffer,
 * and starts it again.  Returns 0 or negative errno. */
int pt_recorder_copy(struct pt_recorder_cpu *c, struct pt_copy *ret);
void pt_copy_done(struct pt_copy *c);

/*
 * Writes header + trace as a new file "cpuN-<ns>.pt" in dir (created if
 * missing), written to a temporary name and renamed, then deletes the oldest
 * .pt files until at most max_files remain and they hold at most max_bytes
 * (the new file is never deleted).  *ret_path gets the new file's path.
 */
int pt_file_save(const char *dir, unsigned cpu, const uint8_t *header, size_t header_len,
		 const uint8_t *trace, size_t trace_len, unsigned max_files, uint64_t max_bytes,
		 char *ret_path, size_t path_size);

/* The TSC of the CPU we run on, or 0 where there is none (not x86). */
uint64_t pt_read_tsc(void);
