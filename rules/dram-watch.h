/* SPDX-License-Identifier: MIT */
#pragma once

/*
 * DRAM fault patterns as they form, per DIMM (method and sources: see
 * dram-pattern.h and mcelogd.rules(5) "DRAM FAULT PATTERNS").  Every
 * corrected error whose record names its DRAM cell (bank, row, column: UEFI
 * CPER memory sections, as firmware-first platforms and extlog report them;
 * EDAC mc_events whose driver_detail names them, lib/edac-detail.h; Intel
 * memory-controller machine checks whose MISC names them,
 * decoders/intel-dram-misc.c) and its DIMM is added to that DIMM's tracker; when the DIMM's errors
 * widen into a fault the field studies tie to later uncorrectable errors
 * (one row, one column, one bank, several banks), the caller raises an
 * alert.  Each widening is reported once.  Pure: no I/O, no clock.
 */

#include <stddef.h>
#include <stdint.h>

#include "dram-pattern.h"
#include "rule-field.h"

/* DIMMs followed at once; errors on further DIMMs are not classified (counted). */
#define DRAM_WATCH_MAX_DIMMS 4096

struct dram_watch_dimm {
	char key[96];                 /* the DIMM: its label, or socket/mc/channel/dimm/rank */
	struct dram_tracker tracker;
};

struct dram_watch {
	struct dram_watch_dimm *dimms;
	size_t n, cap;
	uint64_t n_untracked;         /* errors on DIMMs past DRAM_WATCH_MAX_DIMMS */
};

struct dram_watch_event {
	const char *dimm;             /* points into the watch */
	enum dram_pattern from, to;
	struct dram_cell first;       /* the DIMM's first error */
	struct dram_cell cell;        /* the one that widened it */
	uint64_t errors;              /* errors with a cell on this DIMM so far */
};

/*
 * Adds one record.  Returns 1 and fills *ev when this DIMM's errors now form
 * a wider multi-cell fault than before, 0 when nothing new formed (or the
 * record has no cell, no DIMM or is not a corrected error), -ENOMEM.
 */
int dram_watch_feed(struct dram_watch *w, const struct rule_input *in, struct dram_watch_event *ev);
void dram_watch_done(struct dram_watch *w);
