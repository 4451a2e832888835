/* SPDX-License-Identifier: MIT */
#pragma once

/*
 * One machine check reaches both the mce:mce_record tracepoint and the legacy
 * /dev/mcelog device.  While both are read, the first copy is logged and the
 * second dropped: a record is a duplicate when a record from the *other*
 * source with the same (cpu, bank, status, addr, misc, tsc) was seen among the
 * last MCE_DEDUP_SIZE records.  The TSC makes two real errors with the same
 * registers distinct.  Pure.
 */

#include <stdbool.h>
#include <stdint.h>

#include "record.h"

#define MCE_DEDUP_SIZE 1024

struct mce_dedup_key {
	uint32_t cpu, bank;
	uint64_t status, addr, misc, tsc;
	enum mce_source source;
};

struct mce_dedup {
	struct mce_dedup_key ring[MCE_DEDUP_SIZE];
	unsigned next;
	unsigned used;
};

/*
 * True when rec duplicates a record another source already delivered (rec
 * should then not be logged); otherwise remembers rec and returns false.
 */
bool mce_dedup_check(struct mce_dedup *d, const struct mce_record *rec);
