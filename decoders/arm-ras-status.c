/* SPDX-License-Identifier: MIT */
/*
 * An Arm RAS error record's status register, ERR<n>STATUS (the same bits as
 * ERXSTATUS_EL1 reads for the selected record), as the Arm Reliability,
 * Availability, and Serviceability (RAS) Specification, Armv8, for the
 * Armv8-A architecture profile (ARM DDI 0587), "ERR<n>STATUS, Error Record
 * Primary Status Register", lays it out:
 *   31 AV  30 V  29 UE  28 ER  27 OF  26 MV  25:24 CE  23 DE  22 PN
 *   21:20 UET  19 CI  15:8 IERR (implementation defined)  7:0 SERR.
 * The records reach us inside vendor sections (Ampere's payload type 0,
 * arm-vendor-ampere.c) and through the ERX* registers of a UEFI misc-register
 * context (arm-processor.c).
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "arm-internal.h"
#include "ras-record.h"

static const char *const status_bits[32] = {
	[31] = "AV", [30] = "V", [29] = "UE", [28] = "ER", [27] = "OF", [26] = "MV",
	[23] = "DE", [22] = "PN", [19] = "CI",
};

/* CE, bits 25:24 */
static const char *const corrected_kinds[] = {
	[1] = "at least one transient error corrected",
	[2] = "at least one error corrected",
	[3] = "at least one persistent error corrected",
};

/* UET, bits 21:20: meaningful when UE is set. */
static const char *const uncorrected_types[] = {
	[0] = "uncontainable (UC)",
	[1] = "unrecoverable (UEU)",
	[2] = "latent or restartable (UEO)",
	[3] = "signaled or recoverable (UER)",
};

/* SERR, bits 7:0: the architecture's primary error codes. */
static const char *const serr_codes[] = {
	[0x00] = "no error",
	[0x01] = "implementation defined error",
	[0x02] = "data value from (non-associative) internal memory",
	[0x03] = "implementation defined pin",
	[0x04] = "assertion failure",
	[0x05] = "error detected on internal data path",
	[0x06] = "data value from associative memory",
	[0x07] = "address/control value from associative memory",
	[0x08] = "data value from a TLB",
	[0x09] = "address/control value from a TLB",
	[0x0a] = "data value from producer",
	[0x0b] = "address/control value from producer",
	[0x0c] = "data value from (non-associative) external memory",
	[0x0d] = "illegal address (software fault)",
	[0x0e] = "illegal access (software fault)",
	[0x0f] = "illegal state (software fault)",
	[0x10] = "internal data register",
	[0x11] = "internal control register",
	[0x12] = "error response from slave",
	[0x13] = "external timeout",
	[0x14] = "internal timeout",
	[0x15] = "deferred error from slave not supported at master",
};

#define STATUS_UE (1u << 29)
/* The single-bit flags; CE, UET, IERR and SERR are fields, read below. */
#define STATUS_FLAG_BITS 0xfcc80000u

void arm_ras_status_add(struct arm_out *o, uint64_t status)
{
	char flags[64];
	unsigned ce = (status >> 24) & 3, uet = (status >> 20) & 3, serr = status & 0xff;

	arm_added(o, ras_record_add_hex(o->r, "err_status", status));
	arm_bit_names(status_bits, ELEMENTSOF(status_bits), status & STATUS_FLAG_BITS, flags, sizeof(flags));
	if (flags[0])
		arm_added(o, ras_record_add_string(o->r, "err_status_flags", flags, SIZE_MAX));
	if (ce)
		ARM_ADD_NAME(o, "err_status_ce", corrected_kinds, ce);
	if (status & STATUS_UE)
		ARM_ADD_NAME(o, "err_status_uet", uncorrected_types, uet);
	if (serr < ELEMENTSOF(serr_codes) && serr_codes[serr])
		arm_added(o, ras_record_add_string(o->r, "err_status_serr", serr_codes[serr], SIZE_MAX));
	else {
		char text[48];

		/* Later revisions of the specification add codes; the number is kept. */
		snprintf(text, sizeof(text), "code 0x%02x", serr);
		arm_added(o, ras_record_add_string(o->r, "err_status_serr", text, SIZE_MAX));
	}
	arm_added(o, ras_record_add_hex(o->r, "err_status_ierr", (status >> 8) & 0xff));
}
