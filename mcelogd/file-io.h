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
#include <sys/types.h>

/*
 * The whole file at path, NUL-terminated (the NUL is not in *ret_len), in a
 * malloc'ed *ret.  Returns 0, -EFBIG if it holds more than max bytes, or
 * the negative errno of open/read.
 */
int read_full_file(const char *path, size_t max, char **ret, size_t *ret_len);

/*
 * Replaces path with data whole: written to a temporary file beside it, then
 * renamed, so a crash leaves the old or the new content, never half.  With
 * sync the data is on disk before the rename and the rename after it (the
 * directory is synced): it survives power loss, not just a killed process.
 * Mode 0600; a symlink in the way is refused.  Returns 0 or negative errno;
 * the temporary is removed.
 */
int write_file_atomic(const char *path, const void *data, size_t len, bool sync);
/* The same, the file created with mode (not narrowed by the umask); write_file_atomic() uses 0600. */
int write_file_atomic_mode(const char *path, const void *data, size_t len, bool sync, mode_t mode);

/* Writes all of data to fd (a short write continued, EINTR retried): 0 or negative errno (-EIO: wrote 0). */
int write_all(int fd, const void *data, size_t len);
/* Syncs the directory path is in, so that its new name survives a power loss.  0 or negative errno. */
int fsync_directory_of(const char *path);

/* Writes value to an existing kernel file (sysfs, tracefs) in one write(). */
int write_string_file(const char *path, const char *value);

/* A CPU list file ("0-3,8"): sets set[0..max); returns how many are set, or negative errno. */
int read_cpu_list_file(const char *path, bool *set, size_t max);
