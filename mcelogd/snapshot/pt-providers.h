/* SPDX-License-Identifier: MIT */
#pragma once

/*
 * The Intel PT snapshot providers: "rtit" (the PT MSRs of the record's CPU,
 * decoded by decoders/rtit.c) and "pt" (the PT flight recorder, opt-in:
 * [Snapshot] ProcessorTrace=yes).  Listed in snapshots.c.
 */

#include "snapshot.h"

extern const struct snapshot_ops snapshot_rtit_ops;
extern const struct snapshot_ops snapshot_pt_ops;
