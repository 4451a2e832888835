/* SPDX-License-Identifier: MIT */
#pragma once

/*
 * A read-only reader of systemd's journal file format ("Journal File Format",
 * https://systemd.io/JOURNAL_FILE_FORMAT/, and the layouts of systemd's
 * journal-def.h): the header, the entry array chain, entries and their items,
 * data and field objects.  For a reader that wants a few fields of many
 * entries without libsystemd's per-entry machinery (mcectl summary).
 *
 * Pure: it is handed a mapped file and reads nothing else.  Every read is
 * checked against the mapped size; anything it does not understand or that
 * does not add up is refused with a reason, never guessed at, so that the
 * caller can fall back to libsystemd.  Compressed payloads are reported as
 * such and left to the caller.
 */

#include <endian.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

enum journal_compression {
	JOURNAL_PLAIN,
	JOURNAL_XZ,
	JOURNAL_LZ4,
	JOURNAL_ZSTD,
};

enum journal_file_state { JOURNAL_OFFLINE = 0, JOURNAL_ONLINE = 1, JOURNAL_ARCHIVED = 2 };

struct journal_file {
	const uint8_t *map;
	uint64_t size;              /* what is mapped: every read stays below */
	bool compact;               /* 32-bit offsets in items and arrays, a longer data header */
	uint32_t incompatible;
	enum journal_file_state state;
	uint8_t seqnum_id[16];
	uint64_t n_entries;         /* the entries reachable from the entry array chain */
	uint64_t head_seqnum, tail_seqnum;
	uint64_t head_realtime, tail_realtime;
	uint64_t entry_array_offset;
	uint64_t field_hash_table_offset, field_hash_table_size;
	uint64_t end;               /* header_size + arena_size, cut to the map */
};

/*
 * Checks the header of a mapped file.  0; -EBADMSG (not a journal file, or
 * inconsistent), -EPROTONOSUPPORT (a feature this reader does not know).
 * *ret_reason says which, for the caller's message.
 */
int journal_file_open(struct journal_file *f, const void *map, uint64_t size, const char **ret_reason);

/* One entry's header and items, pointing into the map. */
struct journal_entry {
	uint64_t offset;
	uint64_t seqnum, realtime, monotonic, xor_hash;
	uint8_t boot_id[16];
	const uint8_t *items;
	uint64_t n_items;
};

/*
 * Walks the entry array chain in order.  Start with a zeroed iterator;
 * journal_file_next_entry() gives 1 and the next entry's offset, 0 at the end
 * (header's n_entries reached, or an unfilled slot of an online file), or
 * negative errno with a reason.
 */
struct journal_entry_iter {
	uint64_t array;             /* current entry array object, 0 before the first */
	uint64_t index, capacity;   /* in the current array */
	uint64_t seen;              /* entries given so far */
	uint64_t arrays;            /* arrays visited: a chain that loops is refused */
};
int journal_file_next_entry(const struct journal_file *f, struct journal_entry_iter *it, uint64_t *ret_offset,
			    const char **ret_reason);

/*
 * A list of entries in the order they were written: the file's own (its
 * header's entry array chain), or the entries that share one data object
 * (its first entry, then its own entry array chain), which is how a reader
 * finds the entries that carry a value without reading the others.
 */
struct journal_entry_list {
	uint64_t first;             /* an entry before the arrays; 0: none */
	uint64_t array;             /* the first entry array object; 0: none */
	uint64_t n;                 /* entries in all, first included */
};
void journal_file_all_entries(const struct journal_file *f, struct journal_entry_list *ret);
/* The same walk as journal_file_next_entry(), over any list. */
int journal_list_next_entry(const struct journal_file *f, const struct journal_entry_list *l,
			    struct journal_entry_iter *it, uint64_t *ret_offset, const char **ret_reason);
/*
 * Sets it (any state) so that the next journal_list_next_entry() gives the
 * first entry of l whose realtime is at or after realtime, by bisection: the
 * answer holds where l is in time order, which the caller checks on what it
 * reads after.  0, or negative errno with a reason.
 */
int journal_list_seek_realtime(const struct journal_file *f, const struct journal_entry_list *l,
			       struct journal_entry_iter *it, uint64_t realtime, const char **ret_reason);

int journal_file_entry(const struct journal_file *f, uint64_t offset, struct journal_entry *ret,
		       const char **ret_reason);

/* Item i's data object offset (i < n_items). */
static inline uint64_t journal_entry_item(const struct journal_file *f, const struct journal_entry *e, uint64_t i)
{
	const uint8_t *p = e->items + i * (f->compact ? 4 : 16);
	uint64_t v;
	uint32_t w;

	if (f->compact) {
		memcpy(&w, p, sizeof(w));
		return le32toh(w);
	}
	memcpy(&v, p, sizeof(v));
	return le64toh(v);
}

/* A data object: its payload ("FIELD=value", compressed or not) and how many entries share it. */
struct journal_data {
	const uint8_t *payload;
	uint64_t size;
	enum journal_compression compression;
	uint64_t n_entries;
	uint64_t next_field_offset;
	/* The entries that share it (journal_entry_list). */
	uint64_t entry_offset, entry_array_offset;
};
int journal_file_data(const struct journal_file *f, uint64_t offset, struct journal_data *ret,
		      const char **ret_reason);

/*
 * The fields of the file (its field hash table), each with the head of its
 * chain of data objects: calls fn(name, name_len, head_data_offset, userdata)
 * for each; a negative return stops the walk and is returned.
 */
int journal_file_fields(const struct journal_file *f,
			int (*fn)(const char *name, size_t len, uint64_t head_data, void *userdata), void *userdata,
			const char **ret_reason);
