/* SPDX-License-Identifier: MIT */
#include "macro.h"
#include "sources.h"

const struct source_ops *const sources_live[] = {
	&tracepoint_source_ops,
	&msr_source_ops,
	&dev_mcelog_source_ops,
	&bert_source_ops,
	&erst_source_ops,
};

const size_t sources_live_count = ELEMENTSOF(sources_live);
