/* SPDX-License-Identifier: MIT */
#pragma once

/*
 * Private to the AMD/Hygon decoder files (amd-*.c): the table shapes and the
 * two model decoders that decoders/amd-models.c puts in its match table.
 *
 * Scalable MCA (families 17h and later, Hygon 18h) names a bank by what its
 * MCA_IPID says the hardware block is, never by the bank number: the same
 * block sits at different bank numbers on different parts.  Families 10h to
 * 16h have fixed banks and are decoded by bank number.
 */

#include <stddef.h>
#include <stdint.h>

#include "internal.h"

/* Descriptions indexed by an extended error code (XEC, MCA_STATUS[21:16]). */
struct amd_xec_table {
	const char *const *text;   /* NULL entries: reserved or undocumented */
	unsigned n;
	const char *source;        /* the public document the table follows */
	/* The PPR's own name for each code (the MCA_CTL_<bank> field name, e.g.
	 * "DcDataErr1"), which is what users search for; NULL: none recorded. */
	const char *const *mnemonic;
	unsigned n_mnemonic;
};

/* How a bank's instance maps onto a memory location (UMC banks only). */
enum smca_locator {
	SMCA_LOC_NONE,
	SMCA_LOC_UMC,      /* one DRAM channel per UMC: channel from IPID, chip select from SYND */
	SMCA_LOC_UMC_HBM,  /* HBM: eight channels per UMC pair, channel from IPID[15:12] */
};

/* One (HardwareID, McaType) pair and what it is. */
struct smca_bank_type {
	uint16_t hwid;                     /* MCA_IPID[43:32] */
	uint16_t mcatype;                  /* MCA_IPID[63:48] */
	const char *type;                  /* bank_type, short, e.g. "UMC" */
	const char *name;                  /* bank_name, the long name Linux prints */
	enum smca_locator locator;
	const struct amd_xec_table *xec;   /* NULL: no documented XEC meanings */
};

#define SMCA_KEY(hwid, mcatype) (((uint32_t) (hwid) << 16) | (uint32_t) (mcatype))

/* Every bank type Linux knows, sorted by SMCA_KEY and unique (amd-smca-tables.c). */
extern const struct smca_bank_type smca_bank_types[];
extern const size_t smca_n_bank_types;

/* Rows that replace a main-table row on the parts an erratum or a variant names. */
extern const struct smca_bank_type smca_cs_v2_erratum_1384;
extern const struct smca_bank_type smca_umc_hbm3;

/* What one SMCA match-table row selects: its overrides, NULL-terminated. */
struct smca_profile {
	const struct smca_bank_type *const *overrides;
};

extern const struct smca_profile smca_profile_plain;
extern const struct smca_profile smca_profile_cs_erratum_1384;
extern const struct smca_profile smca_profile_hbm3;

/* The bank type an IPID names under a profile (NULL profile: no overrides), or NULL. */
const struct smca_bank_type *smca_bank_type_lookup(const struct smca_profile *p, uint64_t ipid);

/*
 * The bank types whose long name is NAME (exact, case and all), with P's
 * overrides applied, in table order: up to MAX of them into OUT.  Returns how
 * many there are, which may exceed MAX.  Revisions of one block (LS, CS, PSP,
 * ...) share a name, so a name alone can match more than one.
 */
size_t smca_bank_types_by_name(const struct smca_profile *p, const char *name,
			       const struct smca_bank_type **out, size_t max);

/* The documented meaning of an extended error code for a bank type, or NULL. */
const char *smca_xec_text(const struct smca_bank_type *t, unsigned xec);

/* The PPR's mnemonic for an extended error code of a bank type, or NULL. */
const char *smca_xec_mnemonic(const struct smca_bank_type *t, unsigned xec);

void amd_smca_decode(const struct mce_model_decoder *self, const struct mce_record *rec,
		     struct mce_decoded *d);

/* ---- families 10h to 16h (amd-legacy.c) ---- */

/* A fixed bank of a pre-SMCA family. */
struct amd_legacy_bank {
	const char *type;
	const char *name;
};

/*
 * One error signature: a row matches when (MCACOD & ec_mask) == ec_value and
 * the extended error code lies in [xec_first, xec_last].  First match wins,
 * so the specific rows come before the general ones.
 */
struct amd_legacy_row {
	uint8_t bank;
	uint16_t ec_mask;
	uint16_t ec_value;
	uint8_t xec_first;
	uint8_t xec_last;
	const char *text;
};

struct amd_legacy_family {
	uint8_t xec_mask;                       /* banks other than the northbridge */
	const struct amd_legacy_bank *banks;    /* indexed by bank number */
	unsigned n_banks;
	const struct amd_legacy_row *const *rows; /* row sets, NULL-terminated, searched in order */
	bool dram_ecc;                          /* northbridge reports DRAM ECC (not 11h) */
	const char *source;
};

#define AMD_NB_BANK 4
/* The northbridge bank always uses a five-bit extended error code. */
#define AMD_NB_XEC_MASK 0x1f

extern const struct amd_legacy_family amd_k8, amd_f10h, amd_f11h, amd_f12h, amd_f14h, amd_f15h,
	amd_f15h_m60h, amd_f16h;

void amd_legacy_decode(const struct mce_model_decoder *self, const struct mce_record *rec,
		       struct mce_decoded *d);

/* Shared helper: append a detail if there is room. */
void amd_add_detail(struct mce_decoded *d, const char *name, uint64_t value, const char *text);
