/* SPDX-License-Identifier: MIT */
/*
 * Layouts from "Journal File Format" (https://systemd.io/JOURNAL_FILE_FORMAT/)
 * and systemd's src/libsystemd/sd-journal/journal-def.h: all integers little
 * endian, objects 8-byte aligned, each led by a 16-byte header (type, flags,
 * size).  The offsets below are the byte positions those documents give.
 */
#include <endian.h>
#include <errno.h>
#include <string.h>

#include "journal-file.h"

/* Header (journal-def.h struct Header). */
#define H_INCOMPATIBLE      12
#define H_STATE             16
#define H_SEQNUM_ID         72
#define H_HEADER_SIZE       88
#define H_ARENA_SIZE        96
#define H_FIELD_HT_OFFSET   120
#define H_FIELD_HT_SIZE     128
#define H_N_ENTRIES         152
#define H_TAIL_SEQNUM       160
#define H_HEAD_SEQNUM       168
#define H_ENTRY_ARRAY       176
#define H_HEAD_REALTIME     184
#define H_TAIL_REALTIME     192
/* The fields up to tail_entry_monotonic: every version since the format's first. */
#define H_MIN_SIZE          208

/* Header incompatible_flags. */
#define INCOMPAT_XZ         (1u << 0)
#define INCOMPAT_LZ4        (1u << 1)
#define INCOMPAT_KEYED_HASH (1u << 2)
#define INCOMPAT_ZSTD       (1u << 3)
#define INCOMPAT_COMPACT    (1u << 4)
#define INCOMPAT_KNOWN      (INCOMPAT_XZ | INCOMPAT_LZ4 | INCOMPAT_KEYED_HASH | INCOMPAT_ZSTD | INCOMPAT_COMPACT)

/* ObjectHeader: type, flags, 6 reserved bytes, size. */
#define O_TYPE  0
#define O_FLAGS 1
#define O_SIZE  8
#define O_HEADER 16

enum { OBJECT_DATA = 1, OBJECT_FIELD = 2, OBJECT_ENTRY = 3, OBJECT_FIELD_HASH_TABLE = 5, OBJECT_ENTRY_ARRAY = 6 };

/* Object flags: how a data object's payload is compressed. */
#define OBJ_XZ   (1u << 0)
#define OBJ_LZ4  (1u << 1)
#define OBJ_ZSTD (1u << 2)

/* DataObject: hash, next_hash_offset, next_field_offset, entry_offset,
 * entry_array_offset, n_entries; then the payload, or in compact files two
 * 32-bit tail fields first. */
#define D_NEXT_HASH  24
#define D_NEXT_FIELD 32
#define D_ENTRY_OFFSET 40
#define D_ENTRY_ARRAY  48
#define D_N_ENTRIES  56
#define D_PAYLOAD    64
#define D_PAYLOAD_COMPACT 72

/* FieldObject: hash, next_hash_offset, head_data_offset, payload. */
#define F_NEXT_HASH 24
#define F_HEAD_DATA 32
#define F_PAYLOAD   40

/* EntryObject: seqnum, realtime, monotonic, boot_id, xor_hash, items. */
#define E_SEQNUM    16
#define E_REALTIME  24
#define E_MONOTONIC 32
#define E_BOOT_ID   40
#define E_XOR_HASH  56
#define E_ITEMS     64

/* EntryArrayObject: next_entry_array_offset, items. */
#define A_NEXT  16
#define A_ITEMS 24

/* One load each (a byte loop is not turned into one, and these are most of a walk's reads). */
static uint64_t le64(const uint8_t *p)
{
	uint64_t v;

	memcpy(&v, p, sizeof(v));
	return le64toh(v);
}

static uint32_t le32(const uint8_t *p)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));
	return le32toh(v);
}

static int fail(const char **ret_reason, const char *reason, int r)
{
	if (ret_reason)
		*ret_reason = reason;
	return r;
}

int journal_file_open(struct journal_file *f, const void *map, uint64_t size, const char **ret_reason)
{
	const uint8_t *p = map;
	uint64_t header_size, arena_size;

	*f = (struct journal_file) { .map = p, .size = size };
	if (size < H_MIN_SIZE || memcmp(p, "LPKSHHRH", 8) != 0)
		return fail(ret_reason, "not a journal file", -EBADMSG);
	f->incompatible = le32(p + H_INCOMPATIBLE);
	if (f->incompatible & ~INCOMPAT_KNOWN)
		return fail(ret_reason, "unknown incompatible flags", -EPROTONOSUPPORT);
	f->compact = f->incompatible & INCOMPAT_COMPACT;
	if (p[H_STATE] > JOURNAL_ARCHIVED)
		return fail(ret_reason, "unknown file state", -EPROTONOSUPPORT);
	f->state = (enum journal_file_state) p[H_STATE];
	header_size = le64(p + H_HEADER_SIZE);
	arena_size = le64(p + H_ARENA_SIZE);
	if (header_size < H_MIN_SIZE || header_size > size || header_size % 8)
		return fail(ret_reason, "header size out of the file", -EBADMSG);
	/* libsystemd refuses a file shorter than its arena: so does this. */
	if (arena_size > size - header_size)
		return fail(ret_reason, "arena beyond the end of the file (truncated?)", -EBADMSG);
	f->end = header_size + arena_size;
	memcpy(f->seqnum_id, p + H_SEQNUM_ID, 16);
	f->n_entries = le64(p + H_N_ENTRIES);
	f->head_seqnum = le64(p + H_HEAD_SEQNUM);
	f->tail_seqnum = le64(p + H_TAIL_SEQNUM);
	f->head_realtime = le64(p + H_HEAD_REALTIME);
	f->tail_realtime = le64(p + H_TAIL_REALTIME);
	f->entry_array_offset = le64(p + H_ENTRY_ARRAY);
	f->field_hash_table_offset = le64(p + H_FIELD_HT_OFFSET);
	f->field_hash_table_size = le64(p + H_FIELD_HT_SIZE);
	if (f->n_entries && (!f->entry_array_offset || f->head_seqnum > f->tail_seqnum))
		return fail(ret_reason, "entries without an entry array", -EBADMSG);
	return 0;
}

/* The object at offset: its type checked, its size at least min and within the arena. */
static int object_at(const struct journal_file *f, uint64_t offset, unsigned type, uint64_t min,
		     uint64_t *ret_size, const char **ret_reason)
{
	const uint8_t *o;
	uint64_t size;

	if (offset % 8 || offset < O_HEADER || offset > f->end || f->end - offset < O_HEADER)
		return fail(ret_reason, "object offset out of the file", -EBADMSG);
	o = f->map + offset;
	if (o[O_TYPE] != type)
		return fail(ret_reason, "object of the wrong type", -EBADMSG);
	/* Only data is ever compressed: libsystemd refuses flags on anything else. */
	if (type != OBJECT_DATA && o[O_FLAGS])
		return fail(ret_reason, "flags on an object that has none", -EBADMSG);
	size = le64(o + O_SIZE);
	if (size < min)
		return fail(ret_reason, "object too small", -EBADMSG);
	if (size > f->end - offset)
		return fail(ret_reason, "object beyond the end of the file", -EBADMSG);
	*ret_size = size;
	return 0;
}

void journal_file_all_entries(const struct journal_file *f, struct journal_entry_list *ret)
{
	*ret = (struct journal_entry_list) { .array = f->entry_array_offset, .n = f->n_entries };
}

/* The array after it's current one (the list's first when there is none) made current. */
static int next_array(const struct journal_file *f, const struct journal_entry_list *l, struct journal_entry_iter *it,
		      const char **ret_reason)
{
	unsigned item = f->compact ? 4 : 8;
	uint64_t size, next;
	int r;

	next = it->array ? le64(f->map + it->array + A_NEXT) : l->array;
	if (!next)
		/* Fewer than n_entries: an online file's header ahead of its arrays. */
		return f->state == JOURNAL_ONLINE ? 0 : fail(ret_reason, "entry array chain ends early", -EBADMSG);
	/* Each array is appended after the one before it: a chain that goes back loops. */
	if (it->array && next <= it->array)
		return fail(ret_reason, "entry array chain goes backwards", -EBADMSG);
	r = object_at(f, next, OBJECT_ENTRY_ARRAY, A_ITEMS + item, &size, ret_reason);
	if (r < 0)
		return r;
	it->array = next;
	it->index = 0;
	it->capacity = (size - A_ITEMS) / item;
	it->arrays++;
	return 1;
}

static uint64_t array_item(const struct journal_file *f, uint64_t array, uint64_t i)
{
	return f->compact ? le32(f->map + array + A_ITEMS + i * 4) : le64(f->map + array + A_ITEMS + i * 8);
}

int journal_list_next_entry(const struct journal_file *f, const struct journal_entry_list *l,
			    struct journal_entry_iter *it, uint64_t *ret_offset, const char **ret_reason)
{
	uint64_t entry;
	int r;

	if (it->seen >= l->n)
		return 0;
	if (it->seen == 0 && l->first) {
		it->seen++;
		*ret_offset = l->first;
		return 1;
	}
	while (!it->array || it->index >= it->capacity) {
		r = next_array(f, l, it, ret_reason);
		if (r <= 0)
			return r;
	}
	entry = array_item(f, it->array, it->index);
	if (!entry)
		return f->state == JOURNAL_ONLINE ? 0 : fail(ret_reason, "empty slot in an entry array", -EBADMSG);
	it->index++;
	it->seen++;
	*ret_offset = entry;
	return 1;
}

int journal_file_next_entry(const struct journal_file *f, struct journal_entry_iter *it, uint64_t *ret_offset,
			    const char **ret_reason)
{
	struct journal_entry_list l;

	journal_file_all_entries(f, &l);
	return journal_list_next_entry(f, &l, it, ret_offset, ret_reason);
}

/* Whether the entry at offset arrived before realtime; an empty slot (an online file's) does not. */
static int before(const struct journal_file *f, uint64_t offset, uint64_t realtime, const char **ret_reason)
{
	struct journal_entry e;
	int r;

	if (!offset)
		return f->state == JOURNAL_ONLINE ? 0 : fail(ret_reason, "empty slot in an entry array", -EBADMSG);
	r = journal_file_entry(f, offset, &e, ret_reason);
	return r < 0 ? r : e.realtime < realtime;
}

int journal_list_seek_realtime(const struct journal_file *f, const struct journal_entry_list *l,
			       struct journal_entry_iter *it, uint64_t realtime, const char **ret_reason)
{
	int r;

	*it = (struct journal_entry_iter) {};
	if (l->n == 0)
		return 0;
	/* A file that ended before: nothing of it read (each page a reader touches costs a
	 * fault, and a directory of rotated files is mostly such files).  Not an online
	 * one, whose header is being written. */
	if (f->state != JOURNAL_ONLINE && f->tail_realtime < realtime) {
		it->seen = l->n;
		return 0;
	}
	if (l->first) {
		r = before(f, l->first, realtime, ret_reason);
		if (r <= 0)
			return r;
		it->seen = 1;
	}
	/* Array by array (a chain of a few dozen at most, each longer than the last),
	 * skipping those whose last entry is before; then halving within one. */
	while (it->seen < l->n) {
		uint64_t filled, lo, hi;

		r = next_array(f, l, it, ret_reason);
		if (r < 0)
			return r;
		if (r == 0) {
			it->seen = l->n;   /* the end: nothing after */
			return 0;
		}
		filled = l->n - it->seen < it->capacity ? l->n - it->seen : it->capacity;
		r = before(f, array_item(f, it->array, filled - 1), realtime, ret_reason);
		if (r < 0)
			return r;
		if (r) {
			it->seen += filled;
			it->index = it->capacity;
			continue;
		}
		/* The first of [0, filled) not before: the last one is not. */
		lo = 0;
		hi = filled - 1;
		while (lo < hi) {
			uint64_t mid = lo + (hi - lo) / 2;

			r = before(f, array_item(f, it->array, mid), realtime, ret_reason);
			if (r < 0)
				return r;
			if (r)
				lo = mid + 1;
			else
				hi = mid;
		}
		it->index = lo;
		it->seen += lo;
		return 0;
	}
	return 0;
}

int journal_file_entry(const struct journal_file *f, uint64_t offset, struct journal_entry *ret,
		       const char **ret_reason)
{
	unsigned item = f->compact ? 4 : 16;
	const uint8_t *o;
	uint64_t size;
	int r;

	r = object_at(f, offset, OBJECT_ENTRY, E_ITEMS + item, &size, ret_reason);
	if (r < 0)
		return r;
	if ((size - E_ITEMS) % item)
		return fail(ret_reason, "entry size not a whole number of items", -EBADMSG);
	o = f->map + offset;
	*ret = (struct journal_entry) {
		.offset = offset,
		.seqnum = le64(o + E_SEQNUM),
		.realtime = le64(o + E_REALTIME),
		.monotonic = le64(o + E_MONOTONIC),
		.xor_hash = le64(o + E_XOR_HASH),
		.items = o + E_ITEMS,
		.n_items = (size - E_ITEMS) / item,
	};
	memcpy(ret->boot_id, o + E_BOOT_ID, 16);
	/* The stamps libsystemd accepts (it refuses the entry otherwise): a seqnum, and
	 * times above 0 and below 2^55 µs. */
	if (!ret->seqnum)
		return fail(ret_reason, "entry without a sequence number", -EBADMSG);
	if (!ret->realtime || ret->realtime >= UINT64_C(1) << 55 || ret->monotonic >= UINT64_C(1) << 55)
		return fail(ret_reason, "entry time out of range", -EBADMSG);
	return 0;
}

int journal_file_data(const struct journal_file *f, uint64_t offset, struct journal_data *ret,
		      const char **ret_reason)
{
	uint64_t header = f->compact ? D_PAYLOAD_COMPACT : D_PAYLOAD, size;
	const uint8_t *o;
	unsigned flags;
	int r;

	r = object_at(f, offset, OBJECT_DATA, header, &size, ret_reason);
	if (r < 0)
		return r;
	o = f->map + offset;
	flags = o[O_FLAGS];
	/* What libsystemd checks of a data object before it gives its payload: an
	 * entry for each count, a payload, aligned links. */
	if ((le64(o + D_ENTRY_OFFSET) == 0) != (le64(o + D_N_ENTRIES) == 0) || size == header ||
	    (le64(o + D_NEXT_HASH) | le64(o + D_NEXT_FIELD) | le64(o + D_ENTRY_OFFSET) | le64(o + D_ENTRY_ARRAY)) % 8)
		return fail(ret_reason, "inconsistent data object", -EBADMSG);
	*ret = (struct journal_data) {
		.payload = o + header,
		.size = size - header,
		.n_entries = le64(o + D_N_ENTRIES),
		.next_field_offset = le64(o + D_NEXT_FIELD),
		.entry_offset = le64(o + D_ENTRY_OFFSET),
		.entry_array_offset = le64(o + D_ENTRY_ARRAY),
	};
	switch (flags) {
	case 0:        ret->compression = JOURNAL_PLAIN; break;
	case OBJ_XZ:   ret->compression = JOURNAL_XZ; break;
	case OBJ_LZ4:  ret->compression = JOURNAL_LZ4; break;
	case OBJ_ZSTD: ret->compression = JOURNAL_ZSTD; break;
	default:
		return fail(ret_reason, "unknown data object flags", -EPROTONOSUPPORT);
	}
	return 0;
}

int journal_file_fields(const struct journal_file *f,
			int (*fn)(const char *name, size_t len, uint64_t head_data, void *userdata), void *userdata,
			const char **ret_reason)
{
	uint64_t ht = f->field_hash_table_offset, size, buckets;
	/* Any chain longer than the objects the arena can hold loops. */
	uint64_t steps = f->end / O_HEADER;
	int r;

	if (!ht)
		return 0;
	if (ht < O_HEADER)
		return fail(ret_reason, "field hash table out of the file", -EBADMSG);
	r = object_at(f, ht - O_HEADER, OBJECT_FIELD_HASH_TABLE, O_HEADER, &size, ret_reason);
	if (r < 0)
		return r;
	if (f->field_hash_table_size > size - O_HEADER)
		return fail(ret_reason, "field hash table beyond its object", -EBADMSG);
	buckets = f->field_hash_table_size / 16;
	for (uint64_t b = 0; b < buckets; b++) {
		uint64_t o = le64(f->map + ht + b * 16);

		while (o) {
			if (!steps--)
				return fail(ret_reason, "field hash chain loops", -EBADMSG);
			r = object_at(f, o, OBJECT_FIELD, F_PAYLOAD, &size, ret_reason);
			if (r < 0)
				return r;
			r = fn((const char *) f->map + o + F_PAYLOAD, size - F_PAYLOAD, le64(f->map + o + F_HEAD_DATA),
			       userdata);
			if (r < 0)
				return r;
			o = le64(f->map + o + F_NEXT_HASH);
		}
	}
	return 0;
}
