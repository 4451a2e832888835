/* SPDX-License-Identifier: MIT */
#pragma once

/*
 * mcectl summary over journal files read directly (summary-walk.h): the
 * files of a --directory or the --file paths opened and mapped, and
 * compressed payloads handed to the libzstd that libsystemd itself loads;
 * several files counted by two threads (MCECTL_SUMMARY_ONE_PASS=1: one).
 * MCECTL_JOURNAL_READER=libsystemd turns it off; =debug says on stderr which
 * way a summary was counted, and why not directly.
 */

#include "summary-walk.h"

/*
 * 0: counted into s; -EOPNOTSUPP: not done (s must be dropped, libsystemd
 * counts instead); -ENOMEM.  files: NULL-terminated, or directory, or
 * neither: the local journal (this machine's files that can hold the
 * trusted UID's entries).
 */
int summary_direct(const char *directory, const char *const *files, const struct summary_walk_args *a,
		   enum summary_by by, struct summary *s, unsigned *ret_damaged);

/*
 * mcectl query the same way (query-walk.h): show(userdata, NULL, 0) once
 * before the first entry, then show(userdata, e, time) for each entry to
 * show, in order.  0: all shown; -EOPNOTSUPP: nothing shown, libsystemd
 * reads instead (MCECTL_JOURNAL_READER=debug says why); -ENOMEM, -EIO (a
 * file changed after the entries were found), or show's negative return:
 * an error, some entries maybe shown.
 */
struct query_walk_args;
struct query_fields;
int query_direct(const char *directory, const char *const *files, const struct query_walk_args *a,
		 int (*show)(void *userdata, struct query_fields *e, int64_t time), void *userdata);
