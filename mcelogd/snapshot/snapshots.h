/* SPDX-License-Identifier: MIT */
#pragma once

/*
 * Every snapshot provider (one file each in this folder) and the list the
 * live daemon annotates records with, in the order their keys appear under
 * "snapshot".  The manager sees only the list.
 */

#include <stddef.h>

#include "snapshot.h"

extern const struct snapshot_ops counters_snapshot_ops;

extern const struct snapshot_ops *const snapshots_live[];
extern const size_t snapshots_live_count;
