/* SPDX-License-Identifier: MIT */
#pragma once

/*
 * Which process a memory error killed: the SIGBUS record (signal:signal_generate,
 * kernel-abi/signal-trace.c) joined with the memory-failure record
 * (ras:memory_failure_event) of the same error.  Pure: no clock, the records'
 * own times.
 *
 * The kernel's memory-failure handling signals the processes that map the
 * page (mm/memory-failure.c kill_procs()) and then traces what it did with
 * the page (action_result()), microseconds apart, on the same CPU: the
 * SIGBUS comes first, the memory failure right after.  Neither event names
 * the other, and the signal event carries no address, so the join is by
 * time: records of the two kinds less than MEMORY_KILL_WINDOW_USEC apart
 * belong together.  Whichever comes second carries the other's fields: the
 * memory failure names the killed process ("killed_comm", "killed_pid",
 * "killed_unit", "killed_code", and "kills" when there were several), the
 * SIGBUS its page ("pfn").
 *
 * A process that touches a page poisoned long before (the page fault's
 * SIGBUS, no memory failure at that moment) is not joined: nothing the
 * kernel traces says which page it was.
 */

#include <stdbool.h>
#include <stdint.h>

struct ras_record;

#define MEMORY_KILL_WINDOW_USEC 1000000
#define MEMORY_KILL_KEPT 8

struct memory_kill {
	int64_t time_usec;
	int64_t pid;
	char comm[17];
	char unit[96];
	char code[24];
	bool joined;
};

struct memory_failure_seen {
	int64_t time_usec;
	uint64_t pfn;
	bool valid;
};

struct memory_kill_join {
	struct memory_kill kills[MEMORY_KILL_KEPT];
	unsigned n_kills, next_kill;
	struct memory_failure_seen failures[MEMORY_KILL_KEPT];
	unsigned next_failure;
};

/*
 * Sees one record (any kind; only SIGBUS and memory-failure records are
 * looked at) and adds to it what the join says.  Returns true if it joined
 * it with an earlier record.
 */
bool memory_kill_join_note(struct memory_kill_join *j, struct ras_record *rec);
