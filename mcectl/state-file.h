/* SPDX-License-Identifier: MIT */
#pragma once

/* The daemon's rules state (rules/rule-state.h), read by mcectl rules and mcectl pages. */

#include "rule-state.h"

#define STATE_FILE_DEFAULT LOCALSTATEDIR "/lib/mcelogd/" "rules.state"

/* Reads and parses path; errors but -ENOENT are said on stderr, naming verb.  0 or negative errno. */
int state_file_read(const char *verb, const char *path, struct rule_state *ret);
