/* SPDX-License-Identifier: MIT */
#pragma once

/*
 * Source: the errors that ended the previous boot, as firmware recorded them
 * in the ACPI Boot Error Record Table's region (BERT).  Run once at start:
 * each section is logged with source "previous_boot", then the daemon
 * remembers in its state directory (the boot id, and the region's digest) that
 * it did, so a restart in the same boot, or a later boot while firmware still
 * holds the same region, does not log it again.  See mcelogd(8).
 */

struct manager;

#define BERT_REGION_PATH "/sys/firmware/acpi/tables/data/BERT"
#define BERT_TABLE_PATH  "/sys/firmware/acpi/tables/BERT"

/*
 * region: the region's file (NULL: the kernel's); state_dir: where to keep
 * the marker (the daemon's state directory, --state-directory).
 * Sets MCE_SOURCE_PREVIOUS_BOOT's state; returns the number of records logged.
 */
int bert_source_run(struct manager *m, const char *region, const char *state_dir);
