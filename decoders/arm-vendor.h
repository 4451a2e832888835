/* SPDX-License-Identifier: MIT */
#pragma once

/*
 * Vendor CPER sections of the Arm servers operators run, as
 * ras:non_standard_event and a firmware record (BERT) carry them: one table
 * row per section-type GUID (arm-vendor.c), one file per vendor's layout.
 * Pure: no I/O, no clock.  A section of a type no row names stays raw hex.
 */

#include <stddef.h>
#include <stdint.h>

#include "arm-processor.h"

struct cper_guid;
struct ras_record;

/* The vendor's name for a section type we decode ("Ampere RAS error"), or NULL. */
const char *arm_vendor_section_name(const struct cper_guid *type);

/*
 * Adds the fields of section d[0, n) of type `type`, and in what a few words
 * for a summary ("Ampere GIC error, socket 1, instance 0").  Returns 1 when
 * decoded, 0 for a type no row names (nothing added), -EBADMSG when the bytes
 * do not fit the layout (problem set; the fields before it stay), -ENOMEM.
 */
int arm_vendor_decode(const struct cper_guid *type, struct ras_record *r, const uint8_t *d, size_t n,
		      char *what, size_t what_size, struct arm_problem *problem);
