/* SPDX-License-Identifier: MIT */
#pragma once

/*
 * What a live tracepoint record leaves out and the running system can still
 * say, read right after the event: the systemd unit of the process a memory
 * error's SIGBUS was for (from /proc/PID/cgroup, while the process exists),
 * and the name of the disk of a failed request (/sys/dev/block/MAJ:MIN).
 * Best effort: a process already gone, or a disk already removed, leaves the
 * record as the kernel gave it.
 *
 * A process killed by SIGBUS is gone within milliseconds, sooner than the
 * tracepoint source takes the record from its ring (it holds records back
 * 20 ms to keep their order across CPUs).  So the source looks at a SIGBUS
 * the moment its ring wakes it, and remembers the unit here
 * (ras_enrich_remember()); the record, taken later, finds it.
 */

#include <stdint.h>

struct ras_record;

#define PROCESS_UNITS_KEPT 16

struct process_unit {
	int64_t pid;
	char unit[96];
	char user_unit[96];
};

struct process_units {
	struct process_unit e[PROCESS_UNITS_KEPT];
	unsigned next;
};

/* Reads pid's unit now, while the process still exists, for ras_enrich() to find. */
void ras_enrich_remember(struct process_units *units, int64_t pid);

/* Adds what the system says of rec (units: what was remembered, may be NULL). */
void ras_enrich(struct ras_record *rec, struct process_units *units);
