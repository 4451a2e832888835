/* SPDX-License-Identifier: MIT */
/*
 * The DRAM cell (bank group, bank, row, column) that the 10 nm and later
 * Intel server memory controllers leave in IA32_MCi_MISC of their channel
 * banks.  The SDM gives MISC[63:9] of these banks only as "model specific";
 * the public records of the layouts are, per family:
 *
 *   Ice Lake-SP/-D, Snow Ridge, Sapphire Rapids, Emerald Rapids: Linux
 *     drivers/edac/i10nm_base.c, i10nm_mc_decode() and
 *     i10nm_mc_decode_available() (used as a fact source: bit positions,
 *     which banks, which errors);
 *   Granite Rapids, Sierra Forest: mcelog granite.c, granite_imc_misc()
 *     (Intel's own public decoder; fact source for the bit positions);
 *   Diamond Rapids: mcelog diamond.c, diamond_imc_misc(), which rasdaemon's
 *     mce-intel-diamond.c repeats (the same kind of fact source).
 *
 * A layout is data: where each part of the cell sits, and which errors do
 * not carry one (persistent-memory DDR-T reads, whose location MISC does not
 * describe).  Checked against a real Ice Lake-SP record whose firmware decode
 * (ADXL) names the same cell: tests/unit/test-intel-dram-misc.c.
 */
#include "intel.h"

#define STATUS_MISCV (UINT64_C(1) << 59)
#define STATUS_ADDRV (UINT64_C(1) << 58)
/* Granite Rapids: "other information" bit 1, MISC holds the DRAM location. */
#define STATUS_OTHER_INFO_1 (UINT64_C(1) << 33)

/* Ice Lake-SP: the DDR-T codes i10nm_mscod_is_ddrt() lists (groups 0x01 and 0x08). */
static const struct intel_mscod_range icx_ddrt[] = { { 0x0106, 0x0107 }, { 0x0800, 0x082f } };
static const struct intel_mscod_range spr_ddrt[] = { { 0x0800, 0x082f } };
/* Granite Rapids: mcelog skips the whole of 0x0800..0x082f. */
static const struct intel_mscod_range gnr_ddrt[] = { { 0x0800, 0x082f } };
/* Diamond Rapids: from MSCOD 0800H on, MISC[31:9] holds proprietary information, not a cell. */
static const struct intel_mscod_range dmr_proprietary[] = { { 0x0800, 0xffff } };

const struct intel_dram_misc intel_dram_misc_icx = {
	.column = { 9, 18 }, .column_shift = 2,
	.row = { 19, 39 },
	.bank_group = { 40, 41 }, .bank_group_bit2 = 44,
	.bank = { 42, 43 },
	.need_addrv = true, .ddrt_misc_mode = true,
	.no_cell = icx_ddrt, .n_no_cell = sizeof(icx_ddrt) / sizeof((icx_ddrt)[0]),
};

const struct intel_dram_misc intel_dram_misc_spr = {
	.column = { 9, 18 }, .column_shift = 2,
	.row = { 19, 36 },
	.bank_group = { 37, 38 }, .bank_group_bit2 = 41,
	.bank = { 39, 40 },
	.need_addrv = true, .ddrt_misc_mode = true,
	.no_cell = spr_ddrt, .n_no_cell = sizeof(spr_ddrt) / sizeof((spr_ddrt)[0]),
};

const struct intel_dram_misc intel_dram_misc_gnr = {
	.column = { 9, 18 }, .column_shift = 2,
	.row = { 19, 36 },
	.bank = { 37, 38 },
	.bank_group = { 39, 41 },
	.need_other_info_1 = true,
	.no_cell = gnr_ddrt, .n_no_cell = sizeof(gnr_ddrt) / sizeof((gnr_ddrt)[0]),
};

const struct intel_dram_misc intel_dram_misc_dmr = {
	.column = { 9, 18 }, .column_shift = 2,
	.row = { 19, 36 },
	.bank = { 37, 38 },
	.bank_group = { 39, 41 },
	.need_other_info_1 = true,
	.no_cell = dmr_proprietary, .n_no_cell = sizeof(dmr_proprietary) / sizeof((dmr_proprietary)[0]),
};

static uint32_t field(uint64_t misc, struct intel_bit_range r)
{
	return (uint32_t) ((misc >> r.lo) & ((UINT64_C(2) << (r.hi - r.lo)) - 1));
}

bool intel_dram_misc_decode(const struct intel_dram_misc *l, const struct mce_record *rec, struct mce_decoded *d)
{
	uint16_t mscod = (uint16_t) (rec->status >> MSCOD_SHIFT);
	uint32_t bank_group;

	if (!mce_record_has(rec, MCE_HAVE_STATUS | MCE_HAVE_MISC) || !(rec->status & STATUS_MISCV))
		return false;
	if (l->need_addrv && !(rec->status & STATUS_ADDRV))
		return false;
	if (l->need_other_info_1 && !(rec->status & STATUS_OTHER_INFO_1))
		return false;
	/* MISC[62:59] = 8: a DDR-T read (Linux skx_common.h, MCI_MISC_ECC_DDRT). */
	if (l->ddrt_misc_mode && ((rec->misc >> 59) & 0xf) == 8)
		return false;
	for (size_t i = 0; i < l->n_no_cell; i++)
		if (mscod >= l->no_cell[i].first && mscod <= l->no_cell[i].last)
			return false;

	bank_group = field(rec->misc, l->bank_group);
	if (l->bank_group_bit2)
		bank_group |= (uint32_t) ((rec->misc >> l->bank_group_bit2) & 1) << 2;
	d->bank_group = (int) bank_group;
	d->dram_bank = (int) field(rec->misc, l->bank);
	d->row = (int) field(rec->misc, l->row);
	d->column = (int) (field(rec->misc, l->column) << l->column_shift);
	return true;
}
