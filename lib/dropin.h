/* SPDX-License-Identifier: MIT */
#pragma once

/*
 * Drop-in directories, systemd's convention (systemd.unit(5), "drop-in"):
 * files named *SUFFIX in several directories, listed in priority order
 * (the admin's /etc first, the shipped /usr/lib last).  A file name in a
 * higher-priority directory replaces the same name in a lower one; an empty
 * file or a symlink to /dev/null there masks it.  The files are visited in
 * name order, whichever directory each comes from.
 *
 * Used by mcelogd and mcectl to find rule files; the parsing is the caller's.
 */

#include <stddef.h>

#define DROPIN_FILE_MAX (1024 * 1024)   /* no rule file comes close */

/*
 * Called for each file in effect, in name order.  error is 0 and text/len
 * hold the whole file (NUL-terminated), or error is the negative errno of
 * reading it (-EFBIG above DROPIN_FILE_MAX) and text is NULL.  A negative
 * return stops the walk and is returned.
 */
typedef int (*dropin_fn)(const char *path, const char *text, size_t len, int error, void *userdata);

/*
 * Walks dirs[0..n) (missing directories are skipped).  Returns 0, the
 * callback's negative return, or the negative errno of a directory that
 * exists but cannot be listed (after visiting nothing).
 */
int dropin_walk(const char *const *dirs, size_t n, const char *suffix, dropin_fn fn, void *userdata);
