/* SPDX-License-Identifier: MIT */
#pragma once

/*
 * Reading the kernel's files (sysfs, procfs, tracefs, firmware tables) whole.
 * Their size is not known in advance (st_size is 0 or a page), so they are
 * read until EOF into a growing buffer, up to a limit that protects against a
 * file that never ends.
 */

#include <stdbool.h>
#include <stddef.h>

/*
 * The whole file at path, NUL-terminated (the NUL is not in *ret_len), in a
 * malloc'ed *ret.  Returns 0, -EFBIG if it holds more than max bytes, or
 * the negative errno of open/read.
 */
int read_full_file(const char *path, size_t max, char **ret, size_t *ret_len);

/* A CPU list file ("0-3,8"): sets set[0..max); returns how many are set, or negative errno. */
int read_cpu_list_file(const char *path, bool *set, size_t max);
