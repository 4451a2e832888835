/* SPDX-License-Identifier: MIT */
#pragma once

/*
 * The record contract in JSON: one object per record, the same in MCE_JSON,
 * `mcectl query --output json`, `mcectl decode --output json` and --replay
 * input.  Key order is fixed; registers are "0x%016x" strings; a key that is
 * absent means unknown.  Documented in mcelogd(8) "RECORD FORMAT".
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "record.h"

struct json_writer;
struct mce_decoded;

/*
 * The keys every record of the contract starts with, in its order: time,
 * source, hostname, boot_id, each only when known.  Shared by the MCA and the
 * other hardware-error records.
 */
void record_json_put_origin(struct json_writer *w, bool have_time, int64_t time_usec,
			    enum mce_source source, const char *hostname, const char *boot_id);

/* Write one complete object (no trailing newline).  decoded may be NULL. */
void mce_record_write_json(const struct mce_record *rec, const struct mce_decoded *decoded,
			   struct json_writer *w);

/*
 * The same, with more keys of the caller's after the record's own, written by
 * extra while the object is still open (the daemon's "snapshot").  extra NULL
 * writes exactly what mce_record_write_json() does.
 */
typedef void (*record_json_extra_fn)(struct json_writer *w, void *userdata);
void mce_record_write_json_extra(const struct mce_record *rec, const struct mce_decoded *decoded,
				 struct json_writer *w, record_json_extra_fn extra, void *userdata);

/*
 * Parse one JSON object into a raw record.  Decoded keys in the input are
 * ignored: a record is always decoded afresh, so old output cannot lie.
 * Returns 0, or -EINVAL with a message naming the offending key in errbuf.
 */
int mce_record_parse_json(const char *text, size_t len, struct mce_record *ret,
			  char *errbuf, size_t errlen);
