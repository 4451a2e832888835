/* SPDX-License-Identifier: MIT */
#pragma once

/*
 * Reading a spool file (journal export format, see journal-export.h) entry
 * by entry, a bounded window at a time, so that a spool of any size
 * ([Output] SpoolSize= goes up to 64G) can be counted, replayed and shrunk
 * with the memory of one window and its largest entry.
 */

#include <stdint.h>
#include <sys/types.h>

#include "journal-export.h"

/* What is read at once; an entry larger than the window makes it grow, up to SPOOL_ENTRY_MAX. */
#ifndef SPOOL_WINDOW_BYTES
#define SPOOL_WINDOW_BYTES (1u << 20)
#endif
/* No entry we write comes near this (the largest, raw CPER bytes as hex, is about 128 KiB):
 * an entry that does not end within it is damage, not an entry. */
#ifndef SPOOL_ENTRY_MAX
#define SPOOL_ENTRY_MAX (16u << 20)
#endif

/*
 * Hands fn each whole entry of the file from byte offset from to its end,
 * in order.  *ret_end: where the entries handed over end (the refused
 * entry's offset when fn refused; the first byte that does not make an
 * entry when the file is malformed or cut short there).  Returns 0 at the
 * end of the file, fn's negative return when it refused, -EBADMSG for a
 * malformed or cut-short entry, or another negative errno.
 */
int spool_walk(int fd, uint64_t from, journal_export_fn fn, void *userdata, uint64_t *ret_end);

/* Reads up to size bytes at offset; fewer only at the end of the file.  Returns them or negative errno. */
ssize_t spool_read_at(int fd, uint8_t *buf, size_t size, uint64_t offset);

/*
 * Past damage at byte offset from: the offset of the next place at or after
 * it where a whole entry starts (just after an empty line), or -ENOENT when
 * nothing after it reads as an entry (a cut-short last entry).
 */
int64_t spool_resync(int fd, uint64_t from);
