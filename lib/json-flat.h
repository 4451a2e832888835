/* SPDX-License-Identifier: MIT */
#pragma once

/*
 * The top-level members of one JSON object, read in place without
 * allocating, for the common case of record lines: plain JSON (RFC 8259)
 * whose strings have no escapes and only printable ASCII, whose numbers are
 * integers or short decimals.  Anything else is "not mine": the caller
 * then reads the text with json-c, whose verdict (and error messages) stay
 * the reference, so this is a fast path and never a second opinion.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum json_flat_type {
	JSON_FLAT_NULL,
	JSON_FLAT_INT,        /* an integer, magnitude below 10^18: .u, .negative */
	JSON_FLAT_STRING,     /* .s, .len: the bytes between the quotes */
	JSON_FLAT_TRUE,
	JSON_FLAT_FALSE,
	JSON_FLAT_OTHER,      /* an object, an array, a decimal number */
};

struct json_flat_member {
	const char *key;
	size_t key_len;
	enum json_flat_type type;
	const char *s;
	size_t len;
	uint64_t u;
	bool negative;
};

/* Called for each member in order; false stops the scan as "not mine". */
typedef bool (*json_flat_fn)(const struct json_flat_member *m, void *userdata);

/*
 * true: text is one such object, optionally surrounded by JSON white space,
 * and fn took every member.  false: not mine (fn may have seen some members).
 */
bool json_flat_scan(const char *text, size_t len, json_flat_fn fn, void *userdata);
