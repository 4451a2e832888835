/* SPDX-License-Identifier: MIT */
/*
 * The journal file reader (lib/journal-file.c) and mcectl summary's walk
 * (mcectl/summary-walk.c) on files journald wrote (the fuzz seeds: a compact
 * and a regular file, 9 entries each, 5 of them from a process named
 * mcelogd, the longer MCE_JSON zstd-compressed), with the facts journalctl
 * reports about them; the same bytes damaged, which must be refused with a
 * reason, not read past; and parts walked apart, merged as if walked in order.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "entry-time.h"
#include "journal-file.h"
#include "summary-walk.h"

struct bytes {
	uint8_t *p;
	size_t size;
};

static struct bytes load(const char *name)
{
	const char *top = getenv("top_srcdir");
	char path[4096];
	struct bytes b = {};
	FILE *f;
	long n;

	snprintf(path, sizeof(path), "%s/tests/fuzz/corpus/fuzz-journal-file/%s", top ? top : ".", name);
	f = fopen(path, "rb");
	assert_non_null(f);
	assert_int_equal(fseek(f, 0, SEEK_END), 0);
	n = ftell(f);
	assert_true(n > 0);
	rewind(f);
	b.p = malloc((size_t) n);
	assert_non_null(b.p);
	assert_int_equal(fread(b.p, 1, (size_t) n, f), (size_t) n);
	b.size = (size_t) n;
	fclose(f);
	return b;
}

static void test_header(void **state)
{
	struct bytes c = load("compact.journal"), r = load("regular.journal");
	struct journal_file f;
	const char *reason = NULL;

	(void) state;
	assert_int_equal(journal_file_open(&f, c.p, c.size, &reason), 0);
	assert_true(f.compact);
	assert_int_equal(f.state, JOURNAL_ARCHIVED);
	assert_int_equal(f.n_entries, 9);
	assert_int_equal(f.head_seqnum, 1);
	assert_int_equal(f.tail_seqnum, 9);
	assert_int_equal(journal_file_open(&f, r.p, r.size, &reason), 0);
	assert_false(f.compact);
	assert_int_equal(f.n_entries, 9);
	free(c.p);
	free(r.p);
}

/* What journalctl --file NAME _COMM=mcelogd shows: banks and the first realtime. */
struct facts {
	const char *name;
	const char *banks;
	uint64_t first_realtime;
	unsigned compressed;   /* MCE_JSON longer than journald's 512-byte threshold */
};

static void check_entries(const struct facts *want)
{
	struct bytes b = load(want->name);
	struct journal_file f;
	struct journal_entry_iter it = {};
	const char *reason = NULL;
	char banks[64] = "";
	uint64_t offset, last_seqnum = 0, first_realtime = 0;
	unsigned n = 0, mcelogd = 0, compressed = 0;

	assert_int_equal(journal_file_open(&f, b.p, b.size, &reason), 0);
	while (journal_file_next_entry(&f, &it, &offset, &reason) > 0) {
		struct journal_entry e;
		bool ours = false;
		const char *bank = NULL;
		unsigned zstd = 0;

		assert_int_equal(journal_file_entry(&f, offset, &e, &reason), 0);
		assert_true(e.seqnum > last_seqnum);
		last_seqnum = e.seqnum;
		n++;
		for (uint64_t i = 0; i < e.n_items; i++) {
			struct journal_data d;

			assert_int_equal(journal_file_data(&f, journal_entry_item(&f, &e, i), &d, &reason), 0);
			if (d.compression == JOURNAL_ZSTD)
				zstd++;
			else if (d.compression == JOURNAL_PLAIN && d.size == strlen("_COMM=mcelogd") &&
				 memcmp(d.payload, "_COMM=mcelogd", d.size) == 0)
				ours = true;
			else if (d.compression == JOURNAL_PLAIN && d.size == strlen("MCE_BANK=0") &&
				 memcmp(d.payload, "MCE_BANK=", strlen("MCE_BANK=")) == 0)
				bank = (const char *) d.payload + strlen("MCE_BANK=");
		}
		if (!ours)
			continue;
		if (!mcelogd++)
			first_realtime = e.realtime;
		compressed += zstd;
		assert_non_null(bank);
		strncat(banks, bank, 1);
	}
	assert_int_equal(n, 9);
	assert_int_equal(mcelogd, 5);
	assert_string_equal(banks, want->banks);
	assert_int_equal(first_realtime, want->first_realtime);
	assert_int_equal(compressed, want->compressed);
	free(b.p);
}

static void test_entries(void **state)
{
	static const struct facts compact = { "compact.journal", "20122", UINT64_C(1795489541479763), 2 };
	static const struct facts regular = { "regular.journal", "20102", UINT64_C(1795489541767274), 2 };

	(void) state;
	check_entries(&compact);
	check_entries(&regular);
}

static int find_field(const char *name, size_t len, uint64_t head, void *userdata)
{
	unsigned *found = userdata;

	if ((len == 5 && memcmp(name, "_COMM", 5) == 0) || (len == 8 && memcmp(name, "MCE_BANK", 8) == 0))
		*found += head != 0;
	return 0;
}

static void test_fields(void **state)
{
	struct bytes b = load("compact.journal");
	struct journal_file f;
	const char *reason = NULL;
	unsigned found = 0;

	(void) state;
	assert_int_equal(journal_file_open(&f, b.p, b.size, &reason), 0);
	assert_int_equal(journal_file_fields(&f, find_field, &found, &reason), 0);
	assert_int_equal(found, 2);
	free(b.p);
}

static void put_le64(uint8_t *p, uint64_t v)
{
	for (int i = 0; i < 8; i++)
		p[i] = (uint8_t) (v >> (8 * i));
}

/* Walks every entry and item; the first failure's errno, 0 if none. */
static int read_all(const struct journal_file *f, const char **reason)
{
	struct journal_entry_iter it = {};
	uint64_t offset;
	int r;

	while ((r = journal_file_next_entry(f, &it, &offset, reason)) > 0) {
		struct journal_entry e;
		struct journal_data d;

		r = journal_file_entry(f, offset, &e, reason);
		for (uint64_t i = 0; r >= 0 && i < e.n_items; i++)
			r = journal_file_data(f, journal_entry_item(f, &e, i), &d, reason);
		if (r < 0)
			return r;
	}
	return r;
}

static void test_damaged(void **state)
{
	struct bytes b = load("compact.journal");
	struct journal_file f;
	const char *reason = NULL;
	uint8_t *copy = malloc(b.size);

	(void) state;
	assert_non_null(copy);
	/* Truncated: the arena runs past the end, as libsystemd also refuses. */
	assert_int_equal(journal_file_open(&f, b.p, b.size - 1000, &reason), -EBADMSG);
	assert_non_null(strstr(reason, "truncated"));
	/* Not a journal file. */
	memcpy(copy, b.p, b.size);
	copy[0] = 'X';
	assert_int_equal(journal_file_open(&f, copy, b.size, &reason), -EBADMSG);
	/* A feature from a later format. */
	memcpy(copy, b.p, b.size);
	copy[12] |= 0x80;
	assert_int_equal(journal_file_open(&f, copy, b.size, &reason), -EPROTONOSUPPORT);
	/* The entry array beyond the file. */
	memcpy(copy, b.p, b.size);
	put_le64(copy + 176, b.size + 64);
	assert_int_equal(journal_file_open(&f, copy, b.size, &reason), 0);
	reason = NULL;
	assert_int_equal(read_all(&f, &reason), -EBADMSG);
	assert_non_null(reason);
	/* The entry array pointing at the field hash table: the wrong type of object. */
	memcpy(copy, b.p, b.size);
	put_le64(copy + 176, 280 - 16);
	assert_int_equal(journal_file_open(&f, copy, b.size, &reason), 0);
	assert_int_equal(read_all(&f, &reason), -EBADMSG);
	assert_string_equal(reason, "object of the wrong type");
	/* Intact, all of it reads. */
	assert_int_equal(journal_file_open(&f, b.p, b.size, &reason), 0);
	assert_int_equal(read_all(&f, &reason), 0);
	free(copy);
	free(b.p);
}

static int no_decompress(void *userdata, enum journal_compression c, const uint8_t *src, uint64_t size,
			 const uint8_t **ret, size_t *ret_size)
{
	(void) userdata, (void) c, (void) src, (void) size, (void) ret, (void) ret_size;
	return -EPROTONOSUPPORT;
}

static const char *const ids[] = { "d90772f9176e45e88ae80c46f01c0915", "70d655c9451c48899d92ec9f35850b1a" };

static int walk(const struct journal_file *files, size_t n, enum summary_by by, char *out, size_t size,
		const char **reason)
{
	const struct summary_walk_args a = {
		.trusted_uid = "0", .ids = ids, .n_ids = 2, .decompress = no_decompress,
	};
	const struct journal_file *order[2];
	struct summary_walk_result res = {};
	struct summary *s = summary_new(by);
	FILE *f = fmemopen(out, size, "w");
	size_t k;
	int r;

	assert_non_null(s);
	assert_non_null(f);
	r = summary_walk_order(files, n, order, &k, reason);
	if (r >= 0) {
		r = summary_walk(order, k, &a, s, &res);
		*reason = res.reason;
	}
	if (r >= 0)
		summary_print_csv(s, f, 0, 0);
	fclose(f);
	summary_free(s);
	return r;
}

static void test_walk(void **state)
{
	struct bytes b = load("compact.journal");
	struct journal_file f[2];
	const char *reason = NULL;
	char out[4096] = "";

	(void) state;
	assert_int_equal(journal_file_open(&f[0], b.p, b.size, &reason), 0);
	/* By bank (what mcectl summary --file prints through libsystemd): the flat fields,
	 * and the storm's short (plain) MCE_JSON for its scope. */
	assert_int_equal(walk(f, 1, SUMMARY_BY_BANK, out, sizeof(out), &reason), 0);
	assert_non_null(strstr(out, "bank,bank 2,Bank 2,7,7,0,0,"));   /* 2 records and a storm of 5 */
	assert_non_null(strstr(out, "bank,bank 0,Bank 0,1,1,0,0,"));
	assert_non_null(strstr(out, "bank,bank 1,Bank 1,1,1,0,0,"));
	/* By DIMM every record's MCE_JSON is read: compressed, and nothing to read it with. */
	assert_int_equal(walk(f, 1, SUMMARY_BY_DIMM, out, sizeof(out), &reason), -EOPNOTSUPP);
	assert_non_null(reason);
	/* A file given twice: its entries would repeat, which libsystemd merges away. */
	f[1] = f[0];
	assert_int_equal(walk(f, 2, SUMMARY_BY_BANK, out, sizeof(out), &reason), -EOPNOTSUPP);
	assert_string_equal(reason, "files whose entries could interleave");
	free(b.p);
}

/* Counts the file into s (whole, or from since on); the walk's result. */
static struct summary_walk_result walk_into(const struct journal_file *f, struct summary *s, bool since,
					    bool until)
{
	const struct summary_walk_args a = {
		.trusted_uid = "0", .ids = ids, .n_ids = 2, .decompress = no_decompress,
		/* (The walk reads on to the slack after --until for entries that arrived
		 * late unmarked, entry-time.h: this one ends the file's first part.) */
		.have_since = since, .since = 1, .have_until = until,
		.until = 1795489541530000 - ENTRY_TIME_SLACK_USEC,
	};
	struct summary_walk_result res;

	assert_int_equal(summary_walk(&f, 1, &a, s, &res), 0);
	return res;
}

static void print(struct summary *s, char *out, size_t size)
{
	FILE *f = fmemopen(out, size, "w");

	assert_non_null(f);
	summary_print_csv(s, f, 0, 0);
	fclose(f);
}

/* A part walked apart and merged: as if its files had been walked after the first part's. */
static void test_merge(void **state)
{
	struct bytes b = load("compact.journal");
	struct journal_file f;
	const struct summary_walk_args since = { .have_since = true, .since = 1 }, none = {};
	struct summary *s = summary_new(SUMMARY_BY_CPU), *part = summary_new_part(SUMMARY_BY_CPU);
	struct summary *in_order = summary_new(SUMMARY_BY_CPU);
	struct summary_walk_result r, later;
	const char *reason;
	char merged[4096], want[4096];

	(void) state;
	assert_non_null(s);
	assert_non_null(part);
	assert_non_null(in_order);
	assert_int_equal(journal_file_open(&f, b.p, b.size, &reason), 0);
	r = walk_into(&f, s, false, false);
	later = walk_into(&f, part, false, false);
	assert_int_equal(summary_walk_merge(&none, s, &r, part, &later), 0);
	walk_into(&f, in_order, false, false);
	walk_into(&f, in_order, false, false);
	print(s, merged, sizeof(merged));
	print(in_order, want, sizeof(want));
	assert_string_equal(merged, want);
	assert_int_equal(r.entries, 18);
	/* The later part's times go back: libsystemd's --since would not have seen the same. */
	r = walk_into(&f, s, true, false);
	later = walk_into(&f, part, true, false);
	assert_int_equal(summary_walk_merge(&since, s, &r, part, &later), -EOPNOTSUPP);
	assert_non_null(r.reason);
	summary_free(s);
	summary_free(in_order);
	/* The first part ended at --until: the later part is not counted. */
	s = summary_new(SUMMARY_BY_CPU);
	in_order = summary_new(SUMMARY_BY_CPU);
	assert_non_null(s);
	assert_non_null(in_order);
	r = walk_into(&f, s, false, true);
	assert_true(r.past_until);
	later = walk_into(&f, part, false, false);
	assert_int_equal(summary_walk_merge(&none, s, &r, part, &later), 0);
	walk_into(&f, in_order, false, true);
	print(s, merged, sizeof(merged));
	print(in_order, want, sizeof(want));
	assert_string_equal(merged, want);
	summary_free(s);
	summary_free(part);
	summary_free(in_order);
	free(b.p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_header),
		cmocka_unit_test(test_entries),
		cmocka_unit_test(test_fields),
		cmocka_unit_test(test_damaged),
		cmocka_unit_test(test_walk),
		cmocka_unit_test(test_merge),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
