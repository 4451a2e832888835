/* SPDX-License-Identifier: MIT */
#pragma once

/*
 * Reading back the JSON form of a struct ras_record (ras_record_write_json),
 * for --replay.  Strings stay strings: a register written as "0x..." reads
 * back as the same text, so the record is written out again exactly as it
 * came in.
 */

#include <stddef.h>

#include "ras-record.h"

/*
 * Parses one JSON object.  Returns 0 (ret holds the record: free it with
 * ras_record_done()), -ENOMSG if the object has no "event" key (it is not a
 * ras record: an MCA record, say), -EINVAL with a message naming the
 * offending key in why, -ENOMEM.
 */
int ras_record_parse_json(const char *text, size_t len, struct ras_record *ret, char *why,
			  size_t why_size);
