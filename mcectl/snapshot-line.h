/* SPDX-License-Identifier: MIT */
#pragma once

/*
 * The one line of a record's counter snapshot that the table outputs of
 * `mcectl query` and `mcectl decode` print under the record: which CPU, over
 * what window, how long after the error it was read, and the derived figures
 * (mcelogd(8), "snapshot.counters").  Query reads them from the journal's flat
 * MCE_SNAPSHOT_* fields, decode from the record's JSON: both fill this.
 */

#include <stddef.h>

#include <json-c/json.h>

struct snapshot_summary {
	char cpu[16];
	char window_sec[32];
	char after_usec[32];
	char ipc[32];
	char effective_mhz[32];
	char cache_miss_rate[32];
	char branch_miss_rate[32];
	char largest_change[96];   /* "EVENT xRATIO": the event furthest from its baseline */
};

/* From a record's "snapshot" object.  -ENOENT: it has no counter window. */
int snapshot_summary_from_json(json_object *snapshot, struct snapshot_summary *ret);

/* The summary ("CPU 1 over 1.000s, ...").  -ENOENT without CPU and window. */
int snapshot_line_format(const struct snapshot_summary *s, char *buf, size_t size);
