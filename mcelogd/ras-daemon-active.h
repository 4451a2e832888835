/* SPDX-License-Identifier: MIT */
#pragma once

/*
 * The kernel's contract with a RAS daemon: while some process holds
 * <debugfs>/ras/daemon_active open, ras_userspace_consumers() (Linux
 * drivers/ras/debugfs.c: the count of opens of that file) is non-zero.  Its
 * one caller is ACPI extlog, the eMCA driver (drivers/acpi/acpi_extlog.c,
 * extlog_print()), and there the choice is either/or: with no consumer it
 * prints the firmware's error record to the console (rate-limited) and
 * traces nothing; with one it prints nothing and traces it as
 * ras:extlog_mem_event (newer kernels: also its PCIe, CXL and vendor
 * sections).  So without this file held, an eMCA machine's firmware-first
 * memory errors never reach mcelogd at all.  GHES and EDAC do not look at
 * it: they print whether or not a daemon runs.
 *
 * mcelogd holds it (read-only; opening is all the kernel counts) while it
 * reads the ras:* events, and lets go when it stops reading them, so that
 * the console has them again.  A replay never opens it.
 */

#include <stdbool.h>

struct json_writer;

struct ras_daemon_active {
	const char *debugfs_root;    /* NULL: /sys/kernel/debug */
	int fd;                      /* -1: not held */
	char reason[256];            /* why not held, "" while held */
};

void ras_daemon_active_init(struct ras_daemon_active *d, const char *debugfs_root);

/*
 * consuming: whether mcelogd reads the ras:* events now.  Opens or closes
 * the file to match, and logs each change (a failure to open once, not at
 * every call).
 */
void ras_daemon_active_update(struct ras_daemon_active *d, bool consuming);

/* At stop: closed before the ras:* readers are, so extlog prints again rather than trace to nobody. */
void ras_daemon_active_release(struct ras_daemon_active *d);

/* "ras_daemon_active": true/false, and "ras_daemon_active_reason" when false. */
void ras_daemon_active_write_status(const struct ras_daemon_active *d, struct json_writer *w);
