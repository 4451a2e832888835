/* SPDX-License-Identifier: MIT */
#pragma once

/*
 * Every record source (one file each in this folder) and the lists the
 * daemon runs, in the order they open.  The manager sees only the lists.
 */

#include <stddef.h>

#include "source.h"

extern const struct source_ops tracepoint_source_ops;
extern const struct source_ops msr_source_ops;
extern const struct source_ops dev_mcelog_source_ops;
extern const struct source_ops bert_source_ops;
extern const struct source_ops erst_source_ops;
extern const struct source_ops replay_source_ops;

/*
 * The live daemon.  The tracepoint opens first: /dev/mcelog says whether it
 * drops the copies of tracepoint records, and the previous boot's one-shots
 * come last: the boot error region, then the machine checks kept in ERST.
 */
extern const struct source_ops *const sources_live[];
extern const size_t sources_live_count;
