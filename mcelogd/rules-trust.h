/* SPDX-License-Identifier: MIT */
#pragma once

/*
 * What the daemon runs as root on a rule's word must be root's: a rule file
 * anyone else can write is root code execution through Trigger=, and so is a
 * trigger program.  Checked where the rules are loaded (start, reload,
 * --test-config), with a message naming the file and why.
 */

#include <stddef.h>

struct rule_set;

/*
 * 0 when path, and every directory above it, can be changed only by root or
 * this daemon's user (a world-writable directory with the sticky bit, /tmp,
 * is fine: others cannot replace what is ours there).  -EPERM with the reason
 * in why; the negative errno of a path that cannot be examined.
 */
int path_trusted(const char *path, char *why, size_t size);

/*
 * Reads a rule file only if nobody but root or us can have written what is
 * read (review M15): the file is opened once and the descriptor's own inode
 * checked (a swap between the check and the read changes nothing), then the
 * directory holding its name and every one above it (a symlink placed in a
 * writable directory is caught even when it points at a root-owned file
 * whose text someone else chose), then, for a symlink, the directories of
 * what it points at.  The text, NUL-terminated, in a malloc'ed *ret.
 * -EPERM with the reason in why; the negative errno of open/read, -EFBIG
 * above max.
 */
int read_trusted_file(const char *path, size_t max, char **ret, size_t *ret_len, char *why, size_t size);

/*
 * Every Trigger= program of the set: one that cannot run (missing, not a
 * regular file, not executable) is logged as a warning, since its rule still
 * alerts and acts; one that is not trusted is an error.  Returns 0, or -EPERM
 * when any program is not trusted.
 */
int rules_check_triggers(const struct rule_set *set);
