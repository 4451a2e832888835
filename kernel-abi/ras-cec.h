/* SPDX-License-Identifier: MIT */
#pragma once

/*
 * The kernel's corrected-error collector (RAS CEC, drivers/ras/cec.c,
 * CONFIG_RAS_CEC), as its debugfs files show it under ras/cec/.  The CEC
 * counts corrected memory errors per page and soft-offlines a page by itself
 * once a page reaches action_threshold errors; every decay_interval seconds
 * the counts age.  So beside mcelogd's own page rules a second mechanism may
 * act on the same page: `mcectl status` says whether it runs and how.
 *
 * The files, from cec.c's create_debugfs_nodes() and its seq_printf()s:
 *   action_threshold   "%lld\n" (count_threshold before the 2019 rename)
 *   decay_interval     "%lld\n", seconds (default 86400, 3600..30 days)
 *   array              CONFIG_RAS_CEC_DEBUG only:
 *                      "{ n: %d\n", one " %3d: [%016llx|%s|%03llx]\n" per
 *                      page tracked, "}\n", "Stats:\nCEs: %llu\nofflined
 *                      pages: %llu\n", "Flags: 0x%x\n", "Decay interval:
 *                      %lld seconds\n" ("Timer interval:" before 2019),
 *                      "Decays: %lld\n", "Action threshold: %lld\n"
 * pfn (write-only in effect: it injects an error) is never read.
 *
 * Pure: text in, numbers out.  The daemon reads the files (kernel-cec.c).
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* What the debug-only array file adds. */
struct ras_cec_array {
	uint64_t pages_tracked;      /* "{ n: N": pages with a count now */
	uint64_t errors_seen;        /* "CEs:": corrected errors the CEC took in since boot */
	uint64_t pages_offlined;     /* "offlined pages:": the CEC's soft-offlines since boot */
	uint64_t decays;             /* "Decays:": times the counts aged */
	bool have_decays;            /* not needed by the status: read when there, not required */
};

/*
 * One number file (action_threshold, decay_interval): a decimal number and
 * an optional newline, nothing else.  Returns 0, or -EINVAL / -ERANGE.
 */
int ras_cec_parse_number(const char *text, size_t len, uint64_t *ret);

/*
 * The array file.  The per-page lines are skipped; "{ n:", "CEs:" and
 * "offlined pages:" are required.  Returns 0, or -EINVAL when one is
 * missing or not a number.
 */
int ras_cec_parse_array(const char *text, size_t len, struct ras_cec_array *ret);
