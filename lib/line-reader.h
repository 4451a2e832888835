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

/*
 * As line_fn, and marked: the line (its first LINE_READER_MAX bytes, if
 * cut) holds the byte the reader was given.
 */
typedef int (*marked_line_fn)(const char *line, size_t len, bool cut, bool marked, void *userdata);

/*
 * As read_lines(), each line said to hold MARK or not.  The byte is looked
 * for by one memchr over all the lines read, not one a line: a reader that
 * looks further only at the lines holding it (mcectl decode: the cxl and
 * non_standard_event lines hold a '_', machine-check lines none) lets the
 * others pass at no cost.
 */
int read_lines_marked(int fd, char mark, marked_line_fn fn, void *userdata);
