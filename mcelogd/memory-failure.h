/* SPDX-License-Identifier: MIT */
#pragma once

/*
 * What the kernel itself says about memory failures, read for `mcectl
 * status`, the metrics and the page actions: whether it allows soft offlining
 * at all (vm.enable_soft_offline, Linux 6.11 and later: 0 makes every soft
 * offline fail with EOPNOTSUPP), how much memory it has taken out of use
 * (HardwareCorrupted in /proc/meminfo), and its per-node memory-failure
 * counters (/sys/devices/system/node/nodeN/memory_failure/, ABI of January
 * 2023).  The kernel also offlines on its own: the RAS CEC soft-offlines a
 * page at its own threshold of corrected errors, and GHES when firmware
 * says a threshold was exceeded; these counters include what it did.
 *
 * The roots are parameters so that tests point them at stand-ins (the
 * daemon's hidden --procfs and --sysfs-node options).
 */

#include <stdbool.h>
#include <stdint.h>

#define MEMORY_FAILURE_COUNTERS 5   /* total, ignored, failed, delayed, recovered */

struct memory_failure_view {
	int enable_soft_offline;        /* the sysctl's value; -1: this kernel has no such control */
	/* vm.memory_failure_recovery: 0 makes the kernel panic at any memory failure, a
	 * hard_offline_page write included; -1 unreadable. */
	int memory_failure_recovery;
	bool have_hardware_corrupted;
	uint64_t hardware_corrupted_kib;
	unsigned n_nodes;               /* nodes with memory_failure counters */
	uint64_t counters[MEMORY_FAILURE_COUNTERS];  /* summed over the nodes */
};

extern const char *const memory_failure_counter_names[MEMORY_FAILURE_COUNTERS];

/* "HardwareCorrupted:     4 kB" from /proc/meminfo text.  Pure: 0, or -ENOENT/-EINVAL. */
int meminfo_hardware_corrupted(const char *text, uint64_t *ret_kib);

/*
 * Reads everything under procfs (NULL: /proc) and sysfs_node (NULL:
 * /sys/devices/system/node).  What a kernel lacks is left absent; never fails.
 */
void memory_failure_read(const char *procfs, const char *sysfs_node, struct memory_failure_view *ret);

/* True unless the kernel forbids soft offlining (vm.enable_soft_offline=0). */
static inline bool memory_failure_soft_offline_allowed(const struct memory_failure_view *v)
{
	return v->enable_soft_offline != 0;
}
