/* SPDX-License-Identifier: MIT */
#include "macro.h"
#include "pt-providers.h"
#include "snapshots.h"

const struct snapshot_ops *const snapshots_live[] = {
	&counters_snapshot_ops,
	&snapshot_rtit_ops,
	&snapshot_pt_ops,
};

const size_t snapshots_live_count = ELEMENTSOF(snapshots_live);
