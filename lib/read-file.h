/* SPDX-License-Identifier: MIT */
#pragma once

/*
 * Reading a whole file into memory, bounded.  Kernel files (sysfs, procfs,
 * tracefs) do not say their size (st_size is 0 or a page), so it reads until
 * EOF into a growing buffer, up to a limit that protects against a file that
 * never ends.
 */

#include <stddef.h>

/*
 * The whole file at path, NUL-terminated (the NUL is not in *ret_len), in a
 * malloc'ed *ret.  Returns 0, -EFBIG when it holds more than max bytes, or
 * the negative errno of open/read (-EISDIR for a directory).
 */
int read_whole_file(const char *path, size_t max, char **ret, size_t *ret_len);
/* The same from an open descriptor, to its end (a pipe, standard input). */
int read_whole_fd(int fd, size_t max, char **ret, size_t *ret_len);
