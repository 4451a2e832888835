/* SPDX-License-Identifier: MIT */
#pragma once

/* Reading a whole regular file into memory, bounded: rule files, the rules state. */

#include <stddef.h>

/*
 * The whole file at path, NUL-terminated (the NUL is not in *ret_len), in a
 * malloc'ed *ret.  Returns 0, -EFBIG when it holds more than max bytes,
 * -EINVAL when it is not a regular file, or the negative errno of open/read.
 */
int read_whole_file(const char *path, size_t max, char **ret, size_t *ret_len);
