/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer target: any bytes as a journal file (lib/journal-file.c), as a
 * truncated, damaged or hostile file in a --directory would be mapped by
 * mcectl summary and query: the format reader over every entry and item,
 * the summary's walk (mcectl/summary-walk.c) and the query's
 * (mcectl/query-walk.c: entry lists bisected by time, lazily decompressed
 * fields) over it, alone and as two files.  Nothing may be read outside the
 * buffer (ASan), and a walk that does not give up counts no more records
 * than the file has entries... of any size, since a storm summary counts its
 * own: so only that it ends and is printable; a query shows entries of the
 * files it was given, each at most once a list it is found in.
 * fuzz-link: mcectl/summary.c mcectl/summary-walk.c mcectl/query-walk.c
 * fuzz-max-len: 65536
 */
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "journal-file.h"
#include "query-walk.h"
#include "summary-walk.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Every object the reader can reach, each read checked. */
static void read_all(const struct journal_file *f)
{
	struct journal_entry_iter it = {};
	const char *reason = NULL;
	uint64_t offset;
	int r;

	while ((r = journal_file_next_entry(f, &it, &offset, &reason)) > 0) {
		struct journal_entry e;

		if (journal_file_entry(f, offset, &e, &reason) < 0)
			continue;
		for (uint64_t i = 0; i < e.n_items; i++) {
			struct journal_data d;

			if (journal_file_data(f, journal_entry_item(f, &e, i), &d, &reason) >= 0 &&
			    (d.payload < f->map || d.payload + d.size > f->map + f->size))
				abort();
		}
	}
	if (r < 0 && !reason)
		abort();
}

static int count_field(const char *name, size_t len, uint64_t head, void *userdata)
{
	(void) name;
	(void) len;
	(void) head;
	++*(unsigned *) userdata;
	return 0;
}

/* Never decompresses: the walk must then give up, not guess. */
static int no_decompress(void *userdata, enum journal_compression c, const uint8_t *src, uint64_t size,
			 const uint8_t **ret, size_t *ret_size)
{
	(void) userdata, (void) c, (void) src, (void) size, (void) ret, (void) ret_size;
	return -EPROTONOSUPPORT;
}

static void walk(const struct journal_file *files, size_t n, enum summary_by by, const char *host, bool since)
{
	static const char *const ids[] = { "d90772f9176e45e88ae80c46f01c0915", "70d655c9451c48899d92ec9f35850b1a",
					   "5987c93aca024e54b54a11caec7a116b", "663edcec58f84882a66eb4dccf2dd269" };
	const struct summary_walk_args a = {
		.have_since = since, .since = 1, .have_until = since, .until = INT64_MAX / 2,
		.trusted_uid = "0", .ids = ids, .n_ids = 4, .host = host, .decompress = no_decompress,
	};
	const struct journal_file *order[2];
	struct summary_walk_result res;
	struct summary *s = summary_new(by);
	const char *reason = NULL;
	size_t k;
	FILE *devnull;
	int r;

	if (!s)
		return;
	r = summary_walk_order(files, n, order, &k, &reason);
	if (r >= 0) {
		r = summary_walk(order, k, &a, s, &res);
		if (r == -EOPNOTSUPP && !res.reason)
			abort();
		if (r >= 0 && res.entries > files[0].n_entries * n)
			abort();
	}
	devnull = fopen("/dev/null", "w");
	if (devnull && r >= 0) {
		summary_print_json(s, devnull, 0, 0);
		summary_print_table(s, devnull, 0, 0);
	}
	if (devnull)
		fclose(devnull);
	summary_free(s);
}

/* "Decompresses" by giving the payload itself: any bytes then reach the lazy field reader. */
static int as_is(void *userdata, enum journal_compression c, const uint8_t *src, uint64_t size,
		 const uint8_t **ret, size_t *ret_size)
{
	(void) userdata, (void) c;
	*ret = src;
	*ret_size = (size_t) size;
	return 0;
}

static void query(const struct journal_file *files, size_t n, bool since, bool decompress)
{
	static const char *const ids[] = { "d90772f9176e45e88ae80c46f01c0915", "70d655c9451c48899d92ec9f35850b1a" };
	static const char *const fields[] = { "MESSAGE", "MCE_JSON", "MCE_SNAPSHOT_CPU", "_HOSTNAME", "MCE_TIME" };
	const struct query_walk_args a = {
		.have_since = since, .since = 700000000, .have_until = since, .until = INT64_MAX / 2,
		.trusted_uid = "0", .ids = ids, .n_ids = 2, .decompress = decompress ? as_is : NULL,
	};
	const struct journal_file *order[2];
	struct query_proofs proofs[2] = {};
	struct query_fields e = {};
	struct query_hit *hits = NULL;
	const char *reason = NULL;
	size_t k, n_hits = 0, n_late = 0;
	int r;

	r = summary_walk_order(files, n, order, &k, &reason);
	if (r >= 0) {
		r = query_walk(order, k, &a, &hits, &n_hits, &n_late, &reason);
		if (r == -EOPNOTSUPP && !reason)
			abort();
	}
	/* Each hit is the main list's or the late ones', each list's entries strictly
	 * ascending: twice the entry objects the files can hold at most. */
	if (r >= 0 && n_hits > 2 * n * (files[0].size / 64 + 1))
		abort();
	for (size_t i = 0; r >= 0 && i < n_hits; i++) {
		if (hits[i].file >= k)
			abort();
		if (query_fields_read(&e, order[hits[i].file], &proofs[hits[i].file], hits[i].offset, a.decompress, NULL,
				      &reason) < 0)
			continue;
		for (size_t f = 0; f < sizeof(fields) / sizeof(fields[0]); f++) {
			const char *v;
			size_t len;

			if (query_fields_get(&e, fields[f], strlen(fields[f]), &v, &len) &&
			    !((const uint8_t *) v >= order[hits[i].file]->map &&
			      (const uint8_t *) v + len <= order[hits[i].file]->map + order[hits[i].file]->size) &&
			    !((const uint8_t *) v >= e.arena && (const uint8_t *) v + len <= e.arena + e.arena_len))
				abort();
		}
	}
	query_fields_done(&e);
	free(hits);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct journal_file f[2];
	const char *reason = NULL;
	unsigned fields = 0;
	/* A copy of exactly size bytes: ASan sees a read past the end. */
	uint8_t *copy = malloc(size ? size : 1);

	if (!copy)
		return 0;
	memcpy(copy, data, size);
	if (journal_file_open(&f[0], copy, size, &reason) < 0) {
		if (!reason)
			abort();
		free(copy);
		return 0;
	}
	read_all(&f[0]);
	(void) journal_file_fields(&f[0], count_field, &fields, &reason);
	walk(f, 1, SUMMARY_BY_BANK, NULL, false);
	walk(f, 1, SUMMARY_BY_DIMM, "host", true);
	/* The same file twice: its entries would repeat, which the walk must refuse. */
	f[1] = f[0];
	walk(f, 2, SUMMARY_BY_CPU, NULL, false);
	query(f, 1, false, true);
	query(f, 1, true, false);
	query(f, 2, true, true);
	free(copy);
	return 0;
}
