/* SPDX-License-Identifier: MIT */
#pragma once

/*
 * The blocks of a UEFI ARM Processor Error Section (UEFI 2.10 Appendix N,
 * §N.2.4.4), as ras:arm_event hands them over (pei_buf, ctx_buf) and as a
 * firmware record (BERT) carries them, turned into fields of a ras_record.
 * Pure: no I/O, no clock.  A length or count that does not fit the bytes is
 * reported in *problem (what, and at which offset of the block) and decoding
 * stops there; what was decoded before it stays, and the caller keeps the raw
 * bytes, so nothing is lost.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct ras_record;

/* The first thing that did not fit; offset is from the start of the block decoded. */
struct arm_problem {
	bool found;
	size_t offset;
	char what[200];
};

/* The block carries no count of its own (ras:arm_event): as many as its bytes hold. */
#define ARM_COUNT_FROM_LENGTH UINT32_MAX

#define ARM_ERROR_INFO_LEN 32
/* A context structure's header (version, type, register array size), before its array. */
#define ARM_CONTEXT_HEADER_LEN 8

/*
 * The Error Information structures (§N.2.4.4.1) in pei[0, n): count of them
 * (or ARM_COUNT_FROM_LENGTH).  The first one's fields under their own keys
 * (error_type, level, corrected, ...), every one in "pei_decoded".
 * Returns 0, -EBADMSG (problem set) or -ENOMEM.
 */
int arm_error_info_decode(struct ras_record *r, const uint8_t *pei, size_t n, uint32_t count,
			  struct arm_problem *problem);

/*
 * The Context Information structures (§N.2.4.4.2) in ctx[0, n): their types,
 * the fault registers of an AArch64 EL1/EL2/EL3 context, and an Arm RAS error
 * record read through the ERX* registers of a misc-register context.
 * *ret_used: the bytes the walked contexts take (where vendor data begins).
 * Returns 0, -EBADMSG (problem set) or -ENOMEM.
 */
int arm_context_decode(struct ras_record *r, const uint8_t *ctx, size_t n, uint32_t count,
		       size_t *ret_used, struct arm_problem *problem);

/*
 * The bytes count context structures (or as many as the bytes hold, with
 * ARM_COUNT_FROM_LENGTH) take from ctx[0, n), in *ret_used: 0, or -EBADMSG
 * when one does not fit.  Adds nothing: for choosing what to decode.
 */
int arm_context_span(const uint8_t *ctx, size_t n, uint32_t count, size_t *ret_used);

/*
 * Whether count contexts in ctx[0, n) look like firmware's, not bytes that
 * happen to walk: each of a defined type (UEFI N.2.4.4) with a register
 * array that is not empty.  Zero-filled bytes walk as empty contexts of
 * type 0; this tells them apart.
 */
bool arm_contexts_plausible(const uint8_t *ctx, size_t n, uint32_t count);

/* "cache error, level 2" from the fields arm_error_info_decode() added; false: none to name. */
bool arm_error_describe(const struct ras_record *r, char *buf, size_t size);
