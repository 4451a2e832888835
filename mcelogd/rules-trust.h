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
 * Every Trigger= program of the set: one that cannot run (missing, not a
 * regular file, not executable) is logged as a warning, since its rule still
 * alerts and acts; one that is not trusted is an error.  Returns 0, or -EPERM
 * when any program is not trusted.
 */
int rules_check_triggers(const struct rule_set *set);
