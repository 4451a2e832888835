/* SPDX-License-Identifier: MIT */
#pragma once

/*
 * mcectl summary straight from journal files (lib/journal-file.h), without
 * libsystemd's per-entry machinery: the same entries counted, in the same
 * order, with the same fields as the libsystemd path in query.c gives them.
 * Whatever that path would do that this walk cannot be sure to repeat (files
 * whose entries could interleave or repeat, --since over times that go
 * back, a field it cannot read) makes it give up with a reason before
 * anything is printed, and the caller counts with libsystemd instead.
 *
 * Pure: the files come mapped, decompression comes as a callback.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "journal-file.h"
#include "summary.h"

struct summary_walk_args {
	bool have_since, have_until;
	int64_t since, until;
	const char *trusted_uid;         /* as _UID spells it */
	const char *const *ids;          /* the MESSAGE_IDs that count */
	size_t n_ids;
	/* NULL: _COMM matched, the first _UID and MESSAGE_ID checked (query.c's check_ids);
	 * else every field matched as libsystemd's matches do (any item of the entry). */
	const char *host;
	bool include_replayed;
	/*
	 * A compressed payload, whole: 0 and *ret, *ret_size (valid until the next
	 * call), or negative errno (the walk gives up).  NULL: none can be read.
	 */
	int (*decompress)(void *userdata, enum journal_compression c, const uint8_t *src, uint64_t size,
			  const uint8_t **ret, size_t *ret_size);
	void *userdata;
};

struct summary_walk_result {
	unsigned damaged;                /* entries counted without a readable MCE_JSON */
	uint64_t entries;                /* entries looked at, matched or not */
	const char *reason;              /* why the walk gave up */
	bool past_until;                 /* stopped at an entry after --until */
	bool matched;                    /* some entry of mcelogd's (_COMM): */
	uint64_t first_realtime, last_realtime;
};

/*
 * The files with entries, in the order libsystemd gives their entries, into
 * order (room for n_files).  0; -EOPNOTSUPP when their entries could
 * interleave or repeat (the walk cannot repeat libsystemd's merge then).
 */
int summary_walk_order(const struct journal_file *files, size_t n_files, const struct journal_file **order,
		       size_t *ret_n, const char **ret_reason);

/*
 * Counts the entries of files, in that order, into s.  0; -EOPNOTSUPP (gave
 * up: result.reason; s is then half counted and must be dropped); -ENOMEM.
 */
int summary_walk(const struct journal_file *const *files, size_t n, const struct summary_walk_args *a,
		 struct summary *s, struct summary_walk_result *result);

/*
 * Files walked apart (another thread): later_s, a summary_new_part() counted
 * from the files after r's, merged into s as one walk over all would have
 * counted.  0; -EOPNOTSUPP (r->reason); -ENOMEM.
 */
int summary_walk_merge(const struct summary_walk_args *a, struct summary *s, struct summary_walk_result *r,
		       const struct summary *later_s, const struct summary_walk_result *later);
