/* SPDX-License-Identifier: MIT */
#pragma once

/*
 * Source: the legacy /dev/mcelog device (kernels built with
 * CONFIG_X86_MCELOG_LEGACY).  It keeps the records the kernel logged before
 * mcelogd started, including the bank contents it found at boot (errors of
 * the previous boot), so it is read at start and then whenever it signals
 * new records.  Every record also reaches the mce:mce_record tracepoint: while
 * both are read, manager_submit_record() drops the second copy (mce-dedup.h).
 * See mcelogd(8), "/dev/mcelog".
 */

#include <stdbool.h>

struct manager;
struct dev_mcelog_source;

#define DEV_MCELOG_PATH "/dev/mcelog"

/*
 * Opens the device (exclusively, so no other reader such as mcelog(8) splits
 * the records with us), reads what it holds, and watches it.  Sets the
 * source's state; returns 0 or a negative errno (not fatal: the daemon goes on).
 * required: DevMcelog=yes (a missing device is a warning, not a debug message).
 */
int dev_mcelog_source_open(struct manager *m, const char *path, bool required,
			   struct dev_mcelog_source **ret);
struct dev_mcelog_source *dev_mcelog_source_free(struct dev_mcelog_source *s);

/* Reads whatever the device holds now. */
void dev_mcelog_source_drain(struct dev_mcelog_source *s);
