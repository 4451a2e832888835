/* SPDX-License-Identifier: MIT */
#pragma once

/* Every sink (one file each in this folder) and the list every entry goes to, in order. */

#include <stddef.h>

#include "sink.h"

extern const struct sink_ops journal_sink_ops;
extern const struct sink_ops json_lines_sink_ops;
extern const struct sink_ops metrics_sink_ops;

extern const struct sink_ops *const sinks_all[];
extern const size_t sinks_all_count;
