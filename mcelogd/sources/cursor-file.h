/* SPDX-License-Identifier: MIT */
#pragma once

/*
 * The text form both restart cursors share (trace-cursor.h, ras-cursor.h):
 *	boot_id <32 hex>
 *	ring <N> <key> <value> <key> <value> ...
 * one line per CPU ring, keys in a fixed order.  Words after the known keys
 * are ignored, so that a later version can add a field.  Pure.
 */

#include <stddef.h>
#include <stdint.h>

#include "record.h"

struct cursor_key {
	const char *key;
	unsigned base;          /* of its value: 10 or 16 */
};

/* A ring line's values, keys[0] ("ring") first, into v[n].  -EBADMSG. */
int cursor_line_values(const char *p, const char *end, const struct cursor_key *keys, size_t n, uint64_t *v);

/*
 * Walks a cursor file: the boot_id line first (into boot_id), then every ring
 * line handed to on_ring (the whole line, [p, end)); blank lines are skipped.
 * Returns 0, on_ring's negative errno, or -EBADMSG; either way *bad_line
 * (1-based) names the line that failed.
 */
int cursor_file_parse(const char *text, size_t len, char boot_id[MCE_BOOT_ID_LEN + 1],
		      int (*on_ring)(const char *p, const char *end, void *userdata), void *userdata,
		      unsigned *bad_line);
