/* SPDX-License-Identifier: MIT */
#pragma once

/*
 * File descriptors on a large machine.  Every record source costs some
 * descriptors per CPU (a perf event per tracepoint), and so does every
 * snapshot provider (a perf event per counter).  systemd starts services
 * with a soft RLIMIT_NOFILE of 1024, which a 64-CPU server already exceeds.
 *
 * So: the soft limit is raised to the hard one at start; the sources open
 * first and take what they need; what is left, less a reserve for what the
 * daemon opens later (control clients, triggers, sink files, CPUs that come
 * online), is the budget the snapshot providers share.  A provider that does
 * not fit degrades itself (fewer events, or off) and says why: an optional
 * snapshot never costs a machine-check reader.
 */

#include <stddef.h>
#include <stdint.h>

/*
 * Kept back beyond the sources' own: 16 control clients, the journal socket,
 * the spool and the JSON and metrics files, 4 triggers' pipes, the hotplug
 * socket, rule-state and cursor writes, with room to spare.
 */
#define FD_RESERVE_BASE 64

struct fd_budget {
	uint64_t limit;     /* the soft RLIMIT_NOFILE */
	uint64_t in_use;    /* descriptors open when measured */
	uint64_t reserve;   /* kept back: FD_RESERVE_BASE plus CPUs not yet online */
	uint64_t granted;   /* taken by snapshot providers since measured */
};

/* Raises the soft RLIMIT_NOFILE to the hard limit.  Returns 0 or negative errno;
 * *ret_soft and *ret_hard (may be NULL) are the limits in force afterwards. */
int fd_limit_raise(uint64_t *ret_soft, uint64_t *ret_hard);

/* How many descriptors this process has open now (/proc/self/fd). */
int fd_count_open(uint64_t *ret);

/* Measures limit and in_use now; granted starts at 0.  Returns 0 or negative errno. */
int fd_budget_measure(struct fd_budget *b, uint64_t reserve);

/* What a provider may still take (0 when the reserve is already eaten into). */
uint64_t fd_budget_left(const struct fd_budget *b);

/*
 * Pure: how many of `wanted` per-CPU descriptors each of n_cpus CPUs may have
 * from `left` (at most wanted; 0 when not even one each fits).
 */
size_t fd_budget_per_cpu(uint64_t left, size_t n_cpus, size_t wanted);

/* Records that a provider took n descriptors (saturating at what is left). */
void fd_budget_take(struct fd_budget *b, uint64_t n);
