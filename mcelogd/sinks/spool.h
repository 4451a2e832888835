/* SPDX-License-Identifier: MIT */
#pragma once

/*
 * The journal sink's spool: finished journal entries that journald could
 * not take (stopped, restarting, its socket gone), kept in order in one
 * file under the state directory until it takes them again.  An entry is
 * in the spool once spool_append() returned: the file is fdatasync()ed, so
 * a cursor may move past it.
 *
 * The file is the journal export format (systemd's JOURNAL_EXPORT_FORMAT):
 * "NAME=value\n" for text fields, "NAME\n" + 64-bit little-endian length +
 * bytes + "\n" for a value holding a newline, an empty line after each
 * entry.  So a spool can also be read with systemd-journal-remote.
 *
 * Every operation reads the file a window at a time (spool-walk.h): a
 * spool's size is bounded only by [Output] SpoolSize=, not by memory.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/uio.h>

#include "journal-export.h"

struct spool;

/* What replay hands each entry to; a negative return stops the replay there. */
typedef journal_export_fn spool_send_fn;

/*
 * Opens (or creates) DIR/journal.spool and counts what it holds.  A last
 * entry cut short by a crash mid-append (never acknowledged) is dropped.
 * Damage anywhere else does not cost the entries after it: the file is
 * kept as it is, renamed aside, and the spool keeps every entry that still
 * reads.  spool_repaired() says what was done, for the caller to log.
 * Returns 0 or negative errno.
 */
int spool_open(const char *dir, struct spool **ret);

/* What spool_open() found wrong and did about it; all zero for a sound spool. */
struct spool_repair {
	uint64_t torn_bytes;     /* a cut-short last entry, dropped */
	uint64_t damaged_at;     /* with set_aside: the byte offset where the damage starts */
	uint64_t kept;           /* with set_aside: the entries that still read, kept in the spool */
	char set_aside[1152];    /* "": nothing set aside; else where the damaged file is now */
};
const struct spool_repair *spool_repaired(const struct spool *s);
void spool_close(struct spool *s);

uint64_t spool_entries(const struct spool *s);
uint64_t spool_bytes(const struct spool *s);
const char *spool_path(const struct spool *s);

/* Appends one entry ("NAME=value" fields) and syncs it to disk.  Returns 0 or negative errno. */
int spool_append(struct spool *s, const struct iovec *iov, unsigned n);
/* The same for an entry that never leaves a full spool (spool_shrink() need not look at it again). */
int spool_append_kept(struct spool *s, const struct iovec *iov, unsigned n);

/* Whether an entry may leave a full spool (a corrected record); it may note it for a summary. */
typedef bool (*spool_droppable_fn)(const struct iovec *iov, unsigned n, void *userdata);

/*
 * Brings the spool down to at most max_bytes by removing its oldest entries
 * that droppable() accepts; every other entry stays, in order.  droppable()
 * sees each entry at most once, oldest first, and only while more must go.
 * Returns how many entries left (0: none could), or negative errno (then
 * none left).  After a shrink that found none that may leave, the next ones
 * return 0 without reading the spool until spool_append() adds an entry:
 * a spool at its bound with only entries that stay is not read again for
 * every new one.  So droppable() must be the same rule at every call.
 */
int spool_shrink(struct spool *s, uint64_t max_bytes, spool_droppable_fn droppable, void *userdata);

/*
 * Hands every entry, oldest first, to fn, and keeps them all; a negative
 * return from fn stops the scan and is returned.  Returns 0 or negative errno.
 */
int spool_scan(struct spool *s, journal_export_fn fn, void *userdata);

/*
 * Hands every entry, oldest first, to send.  What send took leaves the
 * spool; at the first refusal the rest stays, in order.  Returns the number
 * of entries sent, or a negative errno (the file could not be read; then
 * nothing was sent).
 *
 * Delivery is at least once, not exactly once: what was sent is cut from
 * the file only after send returned, so a crash in between sends those
 * entries again at the next start.  When cutting them off fails
 * (*ret_cut_error, e.g. -ENOSPC: the copy needs room), they are still never
 * sent again by this process, only after a restart.
 */
int spool_replay(struct spool *s, spool_send_fn send, void *userdata, int *ret_cut_error);
