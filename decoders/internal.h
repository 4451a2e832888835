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
extern const struct mce_model_match zhaoxin_model_matches[]; /* zhaoxin-models.c (both vendor strings) */

/*
 * A record whose CPU family the source did not give (rasdaemon's mce_record
 * lines name only "AMD Scalable MCA"): the decoder that its registers alone
 * still identify, or NULL (amd-models.c).
 */
const struct mce_model_decoder *amd_model_without_cpuid(const struct mce_record *rec);

/* The architectural x86 decode every record gets first (x86-arch.c). */
void x86_arch_decode(const struct mce_record *rec, struct mce_decoded *d);

/* Linux's thermal-event record (bank 128), which holds no MCA status (x86-arch.c). */
bool x86_thermal_record(const struct mce_record *rec);
void x86_thermal_decode(const struct mce_record *rec, struct mce_decoded *d);

/*
 * x86-arch.c's tables, visible so unit tests can check their invariants
 * (no shadowed MCACOD rows, a catch-all severity rule last, ...).
 */
struct x86_flag_bit {
	unsigned bit;
	const char *name;          /* the "flags" string */
	int vc;                    /* vendor class: 0 any, 1 Intel-like, 2 AMD/Hygon */
	uint32_t min_family;       /* 0: any family */
	uint32_t or_have;          /* MCE_HAVE_* bits that stand for min_family when the family is unknown */
	uint32_t except_family;    /* with except_bank: a bank where the bit means something else */
	uint32_t except_bank;
};
extern const struct x86_flag_bit x86_status_flags[];
extern const size_t x86_status_flags_count;
extern const struct x86_flag_bit x86_mcg_flags[];
extern const size_t x86_mcg_flags_count;

struct x86_mcacod_class {
	uint16_t mask;
	uint16_t value;
	enum mce_error_class cls;
};
extern const struct x86_mcacod_class x86_mcacod_classes[];
extern const size_t x86_mcacod_classes_count;
enum mce_error_class x86_mcacod_classify(uint16_t mcacod);   /* MCE_CLASS_UNKNOWN if none */

struct x86_severity_rule {
	const char *why;
	int vc;                    /* as in struct x86_flag_bit */
	uint64_t mask, value;      /* on MCi_STATUS (MCACOD included) */
	bool need_mcg;             /* rule needs MCG_STATUS; skipped when it was not captured */
	uint64_t mcg_mask, mcg_value;
	int ser;                   /* 0 any, 1 needs MCG_CAP.SER_P, 2 needs it absent */
	uint8_t min_family;        /* 0 any; else the record's CPU family must be known and >= */
	enum mce_severity sev;
	enum mce_recovery recovery;
};
extern const struct x86_severity_rule x86_severity_rules[];
extern const size_t x86_severity_rules_count;
/* Index of the first matching rule; the last rule always matches. */
size_t x86_severity_rule_index(const struct mce_record *rec);

/* First matching row across the vendor tables, or NULL. */
const struct mce_model_decoder *mce_model_decoder_lookup(enum mce_vendor vendor, uint32_t family,
							 uint32_t model);
