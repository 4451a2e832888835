/* SPDX-License-Identifier: MIT */
#pragma once

/*
 * Private to the Intel decoder files (intel-*.c): the shape of a model's
 * tables.  One generic decoder (intel_model_decode() in intel-models.c)
 * walks them; a CPU model is a set of rows, not code.
 *
 * A model table lists its banks (sorted by first bank, no overlap: asserted
 * by test-decode-arch).  A bank may carry a code table: rows matched in order
 * against MCi_STATUS with a mask, first match wins, so the same table shape
 * serves a plain MSCOD value list, an MSCOD bit, or an (MCACOD, MSCOD) pair.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "internal.h"

struct intel_code {
	uint64_t mask;          /* on MCi_STATUS */
	uint64_t value;
	const char *text;
	const char *mnemonic;   /* the source document's own name for the code, or NULL */
};

/* Helpers for the common row shapes. */
#define MSCOD_SHIFT 16
/* MSCOD (STATUS[31:16]) equals v exactly */
#define MSCOD_IS(v, t) { .mask = UINT64_C(0xffff) << MSCOD_SHIFT, .value = (uint64_t) (v) << MSCOD_SHIFT, .text = t }
/* MSCOD field [hi:lo] (bit numbers within STATUS) equals v */
#define STATUS_FIELD(hi, lo, v, t) \
	{ .mask = ((UINT64_C(1) << ((hi) - (lo) + 1)) - 1) << (lo), .value = (uint64_t) (v) << (lo), .text = t }
/* the same, with the documented name users search for (reported as details.mnemonic) */
#define MSCOD_IS_MN(v, t, mn) \
	{ .mask = UINT64_C(0xffff) << MSCOD_SHIFT, .value = (uint64_t) (v) << MSCOD_SHIFT, .text = t, .mnemonic = mn }
#define STATUS_FIELD_MN(hi, lo, v, t, mn) \
	{ .mask = ((UINT64_C(1) << ((hi) - (lo) + 1)) - 1) << (lo), .value = (uint64_t) (v) << (lo), .text = t, \
	  .mnemonic = mn }
/* one STATUS bit set */
#define STATUS_BIT(b, t) { .mask = UINT64_C(1) << (b), .value = UINT64_C(1) << (b), .text = t }

struct intel_code_table {
	const struct intel_code *rows;
	size_t n;
};
#define CODE_TABLE(a) { .rows = (a), .n = sizeof(a) / sizeof((a)[0]) }

/* What MISC says about the memory location (when MISCV). */
enum intel_misc_layout {
	INTEL_MISC_NONE,
	INTEL_MISC_ICX_DIMM_RANK,  /* Ice Lake-SP/-D, Snow Ridge iMC: DIMM in MISC[58],
				    * rank in MISC[57:56] */
	INTEL_MISC_SPR_DIMM_RANK,  /* Sapphire/Emerald Rapids DDR iMC: DIMM in MISC[58],
				    * rank in MISC[57] */
	INTEL_MISC_CS_57_55,       /* Granite Rapids MC channel: chip select in MISC[57:55],
				    * valid with STATUS[33] (other-info bit 1) */
	INTEL_MISC_MIRROR_63_62,   /* Skylake-SP/Ice Lake M2M: corrected by mirroring,
				    * MISC[63] with channel failover, MISC[62] primary scrubbed */
	INTEL_MISC_NHM_DIMM,       /* Nehalem-EP iMC: DIMM in MISC[17:16], channel in
				    * MISC[19:18], ECC syndrome in MISC[63:32] */
	INTEL_MISC_DMR_MCCHAN,     /* Diamond Rapids MC channel: the IMH is APIC ID bit 2,
				    * the channel the bank; with STATUS[33] and MSCOD below
				    * 0800H, MISC holds chip select [56:55], sub-channel [49],
				    * sub-rank [54:51], failed device [48:44] (valid [42]),
				    * ECC mode [61:58] and "transient" [63] */
};

/*
 * A table of MCi_STATUS bit fields, as the SDM gives for the front-side-bus
 * processors: not one code per error but several fields at once (bus queue
 * request type, error type, BINIT and ECC flags, ...), each reported as a
 * detail.  A set applies to the error codes (MCACOD) it names; a model or a
 * bank lists its sets, first match wins.
 */
struct intel_value {
	uint32_t value;
	const char *text;
};

struct intel_field {
	uint8_t lo, hi;                 /* MCi_STATUS[hi:lo], or MCi_MISC[hi:lo] when in_misc */
	bool in_misc;                   /* a MISC field: read only when STATUS.MISCV says MISC is valid */
	const char *name;               /* details key, snake_case */
	const char *text;               /* a one-bit flag: what it means; reported only when set */
	const struct intel_value *values;   /* enumerated field; an unlisted value is reported bare */
	size_t n_values;
	uint64_t only_if;               /* a number reported only when one of these STATUS bits
					 * is set (an ECC syndrome, valid with an ECC error); 0: always */
};
#define FIELD_FLAG(b, nm, t) { .lo = (b), .hi = (b), .name = (nm), .text = (t) }
#define FIELD_ENUM(h, l, nm, tbl) { .lo = (l), .hi = (h), .name = (nm), .values = (tbl), \
	.n_values = sizeof(tbl) / sizeof((tbl)[0]) }
#define FIELD_NUM(h, l, nm, when) { .lo = (l), .hi = (h), .name = (nm), .only_if = (when) }
#define MISC_NUM(h, l, nm) { .lo = (l), .hi = (h), .name = (nm), .in_misc = true }
#define MISC_ENUM(h, l, nm, tbl) { .lo = (l), .hi = (h), .name = (nm), .in_misc = true, .values = (tbl), \
	.n_values = sizeof(tbl) / sizeof((tbl)[0]) }

struct intel_field_set {
	/* the errors the fields are defined for: STATUS & status_mask == status_value (most
	 * sets name MCACOD, STATUS[15:0], alone) */
	uint64_t status_mask, status_value;
	const struct intel_field *fields;
	size_t n;
};
#define FIELD_SET(mask, val, a) { .status_mask = (mask), .status_value = (val), .fields = (a), \
	.n = sizeof(a) / sizeof((a)[0]) }
/* .fields and .n_fields of a model or a bank */
#define FIELD_SETS(a) .fields = (a), .n_fields = sizeof(a) / sizeof((a)[0])

/* Compound bus and interconnect errors, 0000 1PPT RRRR IILL (SDM Vol. 3B 15.9.2). */
#define MCACOD_BUS_MASK  0xf800
#define MCACOD_BUS_VALUE 0x0800

/*
 * The DRAM cell in MCi_MISC of a memory-controller channel bank
 * (intel-dram-misc.c, which names the public record of each layout).
 */
struct intel_bit_range {
	uint8_t lo, hi;                 /* MCi_MISC[hi:lo] */
};

struct intel_mscod_range {
	uint16_t first, last;
};

struct intel_dram_misc {
	struct intel_bit_range column, row, bank, bank_group;
	uint8_t column_shift;           /* MISC holds the column in units of this many bits */
	uint8_t bank_group_bit2;        /* 0, or where the bank group's third bit sits */
	bool need_addrv;                /* the cell is valid only with STATUS.ADDRV too */
	bool need_other_info_1;         /* ... only with STATUS[33] (Granite Rapids) */
	bool ddrt_misc_mode;            /* MISC[62:59] = 8 marks a DDR-T read: no cell */
	const struct intel_mscod_range *no_cell;   /* MSCODs whose MISC holds no cell */
	size_t n_no_cell;
};

extern const struct intel_dram_misc intel_dram_misc_icx, intel_dram_misc_spr, intel_dram_misc_gnr,
	intel_dram_misc_dmr;

/* Fills d's bank_group, dram_bank, row and column; false (d untouched) when MISC holds no cell. */
bool intel_dram_misc_decode(const struct intel_dram_misc *l, const struct mce_record *rec, struct mce_decoded *d);

struct intel_bank {
	uint16_t first, last;           /* bank numbers, inclusive */
	const char *type;               /* bank_type, short (e.g. "IMC") */
	const char *name;               /* bank_name, long */
	const struct intel_code_table *codes;   /* NULL: no documented model-specific codes */
	enum intel_misc_layout misc;
	const struct intel_dram_misc *cell;     /* NULL: MISC names no DRAM cell */
	bool has_imc;                   /* memory bank of one controller: report which */
	uint8_t imc;
	const struct intel_field_set *fields;   /* NULL: the model's */
	size_t n_fields;
};

struct intel_model {
	const struct intel_bank *banks;
	size_t n_banks;
	const char *source;             /* the document the tables follow */
	/* for any bank whose own entry has none (or that is not listed): codes
	 * keyed on the whole of STATUS[31:0], and bit-field sets */
	const struct intel_code_table *codes;
	const struct intel_field_set *fields;
	size_t n_fields;
};

#define INTEL_MODEL(b, src) { .banks = (b), .n_banks = sizeof(b) / sizeof((b)[0]), .source = (src) }

void intel_model_decode(const struct mce_model_decoder *self, const struct mce_record *rec,
			struct mce_decoded *d);

/* Look a bank up in a model's sorted bank list; NULL if not listed. */
const struct intel_bank *intel_bank_lookup(const struct intel_model *m, uint32_t bank);

/* The model tables (intel-*.c), named by the Linux INTEL_* model constant. */
extern const struct intel_model intel_haswell_x, intel_broadwell_x, intel_broadwell_d,
	intel_skylake_x, intel_icelake_x, intel_sapphirerapids_x, intel_graniterapids_x,
	intel_diamondrapids_x, intel_atom_server;
/* zhaoxin-models.c: Zhaoxin's tables take the Intel shape */
extern const struct intel_model zhaoxin_kh40000, zhaoxin_kh50000;
/* intel-older.c */
extern const struct intel_model intel_nehalem_ep, intel_sandybridge_x, intel_ivybridge_x,
	intel_denverton, intel_arch_only;
/* intel-fsb.c: the front-side-bus processors, family 06H before Nehalem and family 0FH */
extern const struct intel_model intel_p6, intel_core2, intel_dunnington, intel_netburst,
	intel_netburst_06;
