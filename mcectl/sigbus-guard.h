/* SPDX-License-Identifier: MIT */
#pragma once

/*
 * Reading mapped files that may shrink under the reader.  A journal file can
 * be truncated while it is mapped (a collector's directory owned by another
 * user, a journald that cuts a file it had grown); a read past its new end
 * faults with SIGBUS, which would kill mcectl.  While the guard is on, a
 * fault inside a registered mapping is answered by mapping zeroed memory over
 * the faulting page and noting it: the read goes on, sees zeros, and the
 * caller, who asks sigbus_guard_tripped() afterwards, throws the result away.
 * A fault anywhere else is not ours: the default action (a core dump) stays.
 * The guard serves one reader at a time (threads included).
 */

#include <stdbool.h>
#include <stddef.h>

/* Puts the handler in place, no mapping registered yet.  Returns 0 or negative errno. */
int sigbus_guard_begin(void);

/* A mapping to protect; -ENOSPC past a fixed number of them. */
int sigbus_guard_add(const void *start, size_t size);

/* Whether a fault was answered since sigbus_guard_begin(). */
bool sigbus_guard_tripped(void);

/* The previous handler back, every mapping forgotten. */
void sigbus_guard_end(void);
