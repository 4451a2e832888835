/* SPDX-License-Identifier: MIT */
#pragma once

/*
 * mcectl query straight from journal files (lib/journal-file.h): which
 * entries the libsystemd path in query.c would show, in its order, found as
 * it finds them, through the journal's own indexes: the entries of
 * _COMM=mcelogd from the arrival window on (a bisection by time, never a
 * walk over what came before), and the late, ahead and replayed marks
 * (late-entries.h, entry-time.h) by their data objects' entry lists.
 * Whatever it cannot be sure to repeat (files whose entries could
 * interleave, times that go back, a value found twice, a field it cannot
 * read) makes it give up with a reason before anything is shown, and the
 * caller reads with libsystemd instead.
 *
 * Pure: the files come mapped, decompression comes as a callback.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "journal-file.h"

/* A compressed payload, whole: 0 and *ret, *ret_size (valid until the next call), or negative errno. */
typedef int (*query_decompress_fn)(void *userdata, enum journal_compression c, const uint8_t *src, uint64_t size,
				   const uint8_t **ret, size_t *ret_size);

struct query_walk_args {
	bool have_since, have_until;
	int64_t since, until;
	const char *trusted_uid;         /* as _UID spells it */
	const char *const *ids;          /* the MESSAGE_IDs shown (query.c's check_ids) */
	size_t n_ids;
	bool include_replayed;
	query_decompress_fn decompress;  /* NULL: none can be read (then any compressed item gives up) */
	void *userdata;
};

/* One entry to show: files[file]'s entry at offset, and the error's time it is shown with. */
struct query_hit {
	size_t file;
	uint64_t offset;
	int64_t time;
};

/*
 * The entries to show, in order, into *ret (to free()), and how many late
 * entries of mcelogd's were read (late-entries.h).  0; -EOPNOTSUPP
 * (*ret_reason says why); -ENOMEM.
 */
int query_walk(const struct journal_file *const *files, size_t n, const struct query_walk_args *a,
	       struct query_hit **ret, size_t *ret_n, size_t *ret_late, const char **ret_reason);

/*
 * Per file: the fields shown to have no compressed value in it, so that a
 * compressed item (which says its field only once decompressed) can be
 * passed over when looking for one of them.  Zeroed before first use.
 */
struct query_proofs {
	char field[32][64];
	bool none_compressed[32];
	size_t n;
};

/*
 * One entry's fields, as libsystemd gives them: each item's payload (at
 * most its 64 KiB data threshold), in the entry's order; a field's value is
 * that of its first item.  A compressed item is decompressed only when a
 * field looked up could be it.
 */
struct query_item {
	uint64_t data;                   /* its data object's offset */
	size_t name_len, len;            /* valid unless compressed */
	const uint8_t *payload;          /* NULL: at arena_at in the arena (decompressed) */
	size_t arena_at;
	bool compressed;                 /* not decompressed yet */
};
struct query_fields {
	const struct journal_file *f;
	struct query_proofs *proofs;
	query_decompress_fn decompress;
	void *userdata;
	int error;                       /* a decompression that failed: -EOPNOTSUPP or -ENOMEM */
	uint64_t realtime, monotonic;
	uint8_t boot_id[16];
	struct query_item *items;
	size_t n, cap;
	uint8_t *arena;                  /* the decompressed payloads */
	size_t arena_len, arena_size;
};

/* 0; -EOPNOTSUPP (*ret_reason); -ENOMEM.  e is reused from one entry to the next. */
int query_fields_read(struct query_fields *e, const struct journal_file *f, struct query_proofs *proofs,
		      uint64_t offset, query_decompress_fn decompress, void *userdata, const char **ret_reason);
/*
 * The value of field's first item (len bytes, not terminated); false when it
 * has none, or when an item that could be it cannot be read (e->error set).
 */
bool query_fields_get(struct query_fields *e, const char *field, size_t flen, const char **ret_value,
		      size_t *ret_len);
void query_fields_done(struct query_fields *e);
