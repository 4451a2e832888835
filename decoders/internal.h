/* SPDX-License-Identifier: MIT */
#pragma once

/*
 * Private to decoders/: how a CPU identity selects a decoder.
 *
 * mce_decode() first applies the architectural decode (x86-arch.c: STATUS and
 * MCG_STATUS bits, MCACOD classes, MISC address mode, severity), then looks
 * the record's (vendor, family, model) up in the vendor's match table, once,
 * and lets the chosen model decoder fill in bank names, model-specific codes
 * and the like.  Adding a CPU model is adding a row to a match table.
 */

#include "decode.h"

struct mce_model_decoder {
	const char *name;     /* e.g. "Sapphire Rapids", "AMD Family 19h (SMCA)" */
	/* Refines an already architecturally decoded record.  Pure. */
	void (*decode)(const struct mce_model_decoder *self, const struct mce_record *rec,
		       struct mce_decoded *d);
	const void *tables;   /* decoder-specific static const data */
};

struct mce_model_match {
	enum mce_vendor vendor;
	uint32_t family;
	uint32_t model_first;
	uint32_t model_last;
	const struct mce_model_decoder *decoder;
};

/* One table per vendor file; each ends with a row whose decoder is NULL. */
extern const struct mce_model_match intel_model_matches[];   /* intel-models.c */
extern const struct mce_model_match amd_model_matches[];     /* amd-models.c (AMD and Hygon) */

/* The architectural x86 decode every record gets first (x86-arch.c). */
void x86_arch_decode(const struct mce_record *rec, struct mce_decoded *d);

/* First matching row across the vendor tables, or NULL. */
const struct mce_model_decoder *mce_model_decoder_lookup(enum mce_vendor vendor, uint32_t family,
							 uint32_t model);
