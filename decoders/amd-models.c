/* SPDX-License-Identifier: MIT */
/*
 * AMD and Hygon: which CPU identity gets which decoder.
 *
 * Families 10h-16h have fixed banks (amd-legacy.c); family 17h and later, and
 * Hygon's family 18h (a Zen derivative), are Scalable MCA (amd-smca.c) and
 * name their banks through MCA_IPID.  Rows are searched in order, so a model
 * range that needs an override comes before its family's catch-all row.
 * Family and model numbers: CPUID Fn0000_0001_EAX as decoded in the PPR/BKDG
 * of each family; model ranges for errata from the revision guides cited at
 * each row.
 */
#include "amd.h"

#define LEGACY(var, label, fam) \
	static const struct mce_model_decoder var = { \
		.name = (label), .decode = amd_legacy_decode, .tables = &(fam) }
#define SMCA(var, label, profile) \
	static const struct mce_model_decoder var = { \
		.name = (label), .decode = amd_smca_decode, .tables = &(profile) }

LEGACY(dec_k8, "AMD Family 0Fh (K8)", amd_k8);
LEGACY(dec_f10h, "AMD Family 10h", amd_f10h);
LEGACY(dec_f11h, "AMD Family 11h", amd_f11h);
LEGACY(dec_f12h, "AMD Family 12h", amd_f12h);
LEGACY(dec_f14h, "AMD Family 14h", amd_f14h);
LEGACY(dec_f15h, "AMD Family 15h", amd_f15h);
LEGACY(dec_f15h_m60h, "AMD Family 15h", amd_f15h_m60h);
LEGACY(dec_f16h, "AMD Family 16h", amd_f16h);

SMCA(dec_f17h, "AMD Family 17h", smca_profile_plain);
SMCA(dec_f19h, "AMD Family 19h", smca_profile_plain);
SMCA(dec_f19h_e1384, "AMD Family 19h", smca_profile_cs_erratum_1384);
SMCA(dec_f19h_hbm3, "AMD Family 19h", smca_profile_hbm3);
SMCA(dec_f1ah, "AMD Family 1Ah", smca_profile_plain);
SMCA(dec_f1ah_e1384, "AMD Family 1Ah", smca_profile_cs_erratum_1384);
SMCA(dec_hygon_f18h, "Hygon Family 18h", smca_profile_plain);
/* No family given, but an MCA_IPID: no model's errata overrides can apply. */
SMCA(dec_smca_any, "AMD Scalable MCA (family not given)", smca_profile_plain);

#define M(v, fam, first, last, dec) \
	{ .vendor = MCE_VENDOR_##v, .family = (fam), .model_first = (first), \
	  .model_last = (last), .decoder = &(dec) }

const struct mce_model_match amd_model_matches[] = {
	M(AMD, 0x0f, 0x00, 0xff, dec_k8),
	M(AMD, 0x10, 0x00, 0xff, dec_f10h),
	M(AMD, 0x11, 0x00, 0xff, dec_f11h),
	M(AMD, 0x12, 0x00, 0xff, dec_f12h),
	M(AMD, 0x14, 0x00, 0xff, dec_f14h),
	M(AMD, 0x15, 0x60, 0x6f, dec_f15h_m60h),
	M(AMD, 0x15, 0x00, 0xff, dec_f15h),
	M(AMD, 0x16, 0x00, 0xff, dec_f16h),

	M(AMD, 0x17, 0x00, 0xff, dec_f17h),

	/* Erratum 1384 (Family 19h Models 10h-1Fh Revision Guide, pub. 57095) and its siblings. */
	M(AMD, 0x19, 0x10, 0x1f, dec_f19h_e1384),
	M(AMD, 0x19, 0x60, 0x7b, dec_f19h_e1384),
	M(AMD, 0x19, 0xa0, 0xaf, dec_f19h_e1384),
	/* MI300: HBM3 controllers behind the UMC McaType. */
	M(AMD, 0x19, 0x90, 0x9f, dec_f19h_hbm3),
	M(AMD, 0x19, 0x00, 0xff, dec_f19h),

	M(AMD, 0x1a, 0x40, 0x4f, dec_f1ah_e1384),
	M(AMD, 0x1a, 0x00, 0xff, dec_f1ah),

	M(HYGON, 0x18, 0x00, 0xff, dec_hygon_f18h),

	{ .vendor = MCE_VENDOR_UNKNOWN, .decoder = NULL },
};

/*
 * MCA_IPID exists only on Scalable MCA parts (AMD's PPRs for families 17h and
 * later, "MCA_IPID"; Linux's struct mce: "only valid on SMCA systems"), and it
 * names the bank's hardware block whatever the family: a non-zero one is
 * enough to name the bank.
 */
const struct mce_model_decoder *amd_model_without_cpuid(const struct mce_record *rec)
{
	if (!mce_record_has(rec, MCE_HAVE_VENDOR | MCE_HAVE_IPID) || rec->ipid == 0 ||
	    (rec->vendor != MCE_VENDOR_AMD && rec->vendor != MCE_VENDOR_HYGON))
		return NULL;
	return &dec_smca_any;
}
