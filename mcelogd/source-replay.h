/* SPDX-License-Identifier: MIT */
#pragma once

/*
 * Source: --replay FILE (or "-" for standard input).  Reads every record text
 * form the decode command reads and feeds the records through the same
 * pipeline as the live sources.  Bad lines are reported with their line
 * number and skipped; the good records around them are still logged.
 */

struct manager;

/* Returns the number of rejected lines (>= 0), or a negative errno if the input could not be read. */
int replay_source_run(struct manager *m, const char *path);
