/* SPDX-License-Identifier: MIT */
#pragma once

/*
 * Whether a running mcelogd keeps its state in a directory: such a daemon
 * holds its ledgers in memory and writes them over any file put there
 * (mcectl dimms --rebuild --save refuses then).  Found in /proc: a process
 * named mcelogd, its state directory as it chooses it (--state-directory,
 * else $STATE_DIRECTORY, else the default); a replay without
 * --state-directory keeps none.  A process whose command line cannot be
 * read is taken to keep it there: refusing wrongly costs a stop, writing
 * wrongly loses the file.
 */

#include <sys/types.h>

/* The pid of a running mcelogd whose state directory is dir; 0 when none; negative errno. */
pid_t state_directory_owner(const char *dir);
