/* SPDX-License-Identifier: MIT */
#pragma once

/*
 * The daemon's rules: loading the rule files (mcelogd.rules(5)) from the
 * drop-in directories, with every error logged with file and line.
 */

#include <stddef.h>

#include "rule.h"

#define RULES_MAX_DIRS 4

/*
 * Loads the rule files of dirs[0..n) (highest priority first) into *ret,
 * which is left empty on failure.  Returns 0, or -EINVAL when any file has
 * errors (each logged), or another negative errno (logged).
 */
int rules_load(const char *const *dirs, size_t n, struct rule_set *ret);
