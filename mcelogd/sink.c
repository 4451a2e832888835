/* SPDX-License-Identifier: MIT */
#include "sink.h"

static const char *const sink_entry_kind_names[_SINK_ENTRY_KIND_MAX] = {
	[SINK_ENTRY_MCE]   = "record",
	[SINK_ENTRY_RAS]   = "record",
	[SINK_ENTRY_LOSS]  = "loss report",
	[SINK_ENTRY_STORM] = "storm event",
	[SINK_ENTRY_ALERT] = "alert",
};

const char *sink_entry_kind_to_string(enum sink_entry_kind k)
{
	if ((unsigned) k >= _SINK_ENTRY_KIND_MAX)
		return "entry";
	return sink_entry_kind_names[k];
}
