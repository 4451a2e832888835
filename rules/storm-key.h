/* SPDX-License-Identifier: MIT */
#pragma once

/*
 * Which records take part in storm detection, and the error signature of a
 * record (rules/storm.h).  Pure.
 *
 * Only corrected errors from live sources (tracepoint, /dev/mcelog, MSR
 * polling) storm.  A deferred error is data the hardware could
 * not correct and poisoned: each one names an address that recovery (page
 * offlining, the application) has to act on, and they are rare; uncorrected
 * and fatal errors are rarer still and every one matters.  All of those are
 * always logged individually.
 */

#include <stdbool.h>

#include "decode.h"
#include "record.h"
#include "storm.h"

/*
 * Fills *ret and returns true if the record is a corrected error from a live
 * source with a bank and MCi_STATUS; false if it must always be logged on its
 * own.
 */
bool storm_key_from_record(const struct mce_record *rec, const struct mce_decoded *d,
			   struct storm_key *ret);

/*
 * True if banks of this decoded type (struct mce_decoded.bank_type) are
 * shared by the CPUs of a package or die, false for per-core banks and
 * for types we do not know (NULL included): per-CPU is the safe default,
 * it can only split one storm in several, never merge two.
 */
bool storm_bank_type_shared(const char *bank_type);
