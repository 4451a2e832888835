/* SPDX-License-Identifier: MIT */
#pragma once

/*
 * Reads a stream line by line in bounded memory, for every reader of record
 * text (mcectl decode, mcelogd --replay): hostile or broken input (a line of
 * hundreds of megabytes, a read error) must neither grow memory nor pass
 * for the end of the input.
 */

#include <stdbool.h>
#include <stddef.h>

/* Longer lines are cut: no record line comes close. */
#define LINE_READER_MAX (64u << 10)

/*
 * One line without its '\n' (a '\r' before it is kept).  cut: the line was
 * longer than LINE_READER_MAX and this is its start; the rest is skipped.
 * A negative return stops the reader and is returned by read_lines().
 */
typedef int (*line_fn)(const char *line, size_t len, bool cut, void *userdata);

/* Returns 0 at the end of the input, a negative errno when reading failed, or fn's. */
int read_lines(int fd, line_fn fn, void *userdata);
