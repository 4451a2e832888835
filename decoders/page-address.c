/* SPDX-License-Identifier: MIT */
/*
 * Facts from the Intel SDM Vol. 3B, 16.3.2.2 (IA32_MCi_STATUS: MISCV bit 59,
 * ADDRV bit 58) and 16.3.2.4 (IA32_MCi_MISC: bits 5:0 the address's least
 * significant valid bit, bits 8:6 the address mode, 2 = physical), and from
 * the AMD PPR for Family 17h/19h, "MCA_STATUS" (bit 54 PADDRV, bit 43
 * Poison) and "MCA_ADDR" (bits 61:56 LSB on parts without
 * McaLsbInStatusSupported).  Which combination the kernel trusts follows
 * Linux's intel_mce_usable_address() and amd_mce_usable_address().
 */
#include <stdbool.h>
#include <stdint.h>

#include "macro.h"
#include "page-address.h"

#define PAGE_SHIFT 12                    /* the kernel offlines 4 KiB base pages */
#define STATUS_MISCV   (UINT64_C(1) << 59)
#define STATUS_ADDRV   (UINT64_C(1) << 58)
#define STATUS_PADDRV  (UINT64_C(1) << 54)   /* AMD SMCA: MCA_ADDR is a system physical address */
#define STATUS_POISON  (UINT64_C(1) << 43)   /* AMD: poisoned data; the address is physical */
#define MISC_ADDR_MODE_PHYSICAL 2
#define AMD_SMCA_FIRST_FAMILY 0x17
#define AMD_LEGACY_NB_BANK 4
#define AMD_LEGACY_NB_DRAM_ECC 8         /* northbridge extended error code: DRAM ECC */
#define AMD_ADDR_MASK ((UINT64_C(1) << 56) - 1) /* bits 63:56 of a raw MCA_ADDR are not address */

/* Memory-controller bank types of the AMD tables whose MCA_ADDR is UMC-local. */
static const char *const normalized_bank_types[] = { "UMC", "UMC_V2" };

static bool normalized_bank(const struct mce_decoded *d)
{
	for (size_t i = 0; d->bank_type && i < ELEMENTSOF(normalized_bank_types); i++)
		if (streq(d->bank_type, normalized_bank_types[i]))
			return true;
	return false;
}

static const char *intel_unusable(const struct mce_record *rec)
{
	if (!(rec->status & STATUS_MISCV) || !(rec->have & MCE_HAVE_MISC))
		return "address_mode_unknown";
	if ((rec->misc & 0x3f) > PAGE_SHIFT)
		return "coarse_address";
	if (((rec->misc >> 6) & 7) != MISC_ADDR_MODE_PHYSICAL)
		return "not_physical";
	return NULL;
}

static const char *amd_unusable(const struct mce_record *rec, const struct mce_decoded *d)
{
	if (rec->family < AMD_SMCA_FIRST_FAMILY) {
		/* The northbridge bank's DRAM ECC errors carry a physical address, its others none. */
		if (rec->bank == AMD_LEGACY_NB_BANK)
			return ((rec->status >> 16) & 0x1f) == AMD_LEGACY_NB_DRAM_ECC ? NULL : "not_system_address";
		return rec->status & STATUS_POISON ? NULL : "not_system_address";
	}
	if (rec->status & (STATUS_POISON | STATUS_PADDRV))
		return NULL;
	/* A UMC logs the address inside its own channel: only a translation names the page. */
	return normalized_bank(d) ? "normalized_address" : "not_system_address";
}

void mce_page_decode(const struct mce_record *rec, struct mce_decoded *d)
{
	uint64_t addr = rec->addr;
	const char *why;

	d->has_page = false;
	d->no_page = NULL;
	if (!mce_record_has(rec, MCE_HAVE_STATUS | MCE_HAVE_ADDR) || !(rec->status & STATUS_ADDRV))
		return;   /* no address at all: nothing to explain */
	if (!(rec->have & MCE_HAVE_VENDOR) || !(rec->have & MCE_HAVE_CPUID)) {
		d->no_page = "vendor_unknown";
		return;
	}
	switch (rec->vendor) {
	case MCE_VENDOR_INTEL:
	case MCE_VENDOR_ZHAOXIN:
		why = intel_unusable(rec);
		break;
	case MCE_VENDOR_AMD:
	case MCE_VENDOR_HYGON:
		why = amd_unusable(rec, d);
		addr &= AMD_ADDR_MASK;
		break;
	default:
		why = NULL;   /* the kernel's generic rule: ADDRV alone */
		break;
	}
	if (why) {
		d->no_page = why;
		return;
	}
	d->has_page = true;
	d->page = addr >> PAGE_SHIFT;
}
