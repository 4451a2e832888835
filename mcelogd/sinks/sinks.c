/* SPDX-License-Identifier: MIT */
#include "macro.h"
#include "sinks.h"

/* The journal first: it is the primary record, the JSON lines a copy. */
const struct sink_ops *const sinks_all[] = {
	&journal_sink_ops,
	&json_lines_sink_ops,
	&metrics_sink_ops,
};

const size_t sinks_all_count = ELEMENTSOF(sinks_all);
