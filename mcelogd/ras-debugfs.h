/* SPDX-License-Identifier: MIT */
#pragma once

/*
 * The kernel's RAS directory in debugfs (drivers/ras/debugfs.c): ras/ with
 * daemon_active (ras-daemon-active.h) and, with CONFIG_RAS_CEC, cec/
 * (kernel-cec.h).  The root is a parameter so that tests point it at a
 * stand-in tree (mcelogd --debugfs, hidden).
 */

#include <stddef.h>

#define RAS_DEBUGFS_DEFAULT_ROOT "/sys/kernel/debug"

/* root NULL: the default.  Returns buf, or NULL when the path does not fit. */
const char *ras_debugfs_path(const char *root, const char *name, char *buf, size_t size);

enum ras_debugfs_missing {
	RAS_DEBUGFS_NO_PERMISSION,
	RAS_DEBUGFS_OTHER_ERROR,
	RAS_DEBUGFS_NOT_MOUNTED,
	RAS_DEBUGFS_NO_RAS,          /* debugfs is there, ras/ is not: no CONFIG_RAS */
	RAS_DEBUGFS_NO_FILE,         /* ras/ is there, name is not: not in this kernel */
};

/*
 * Why name (under root/ras/) could not be opened (err: the negative errno
 * of the open): returned, and in words for the log and the status in buf.
 */
enum ras_debugfs_missing ras_debugfs_explain(const char *root, const char *name, int err, char *buf,
					     size_t size);
