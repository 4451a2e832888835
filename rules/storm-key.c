/* SPDX-License-Identifier: MIT */
#include <string.h>

#include "macro.h"
#include "storm-key.h"

/*
 * Bank types (the decoders' short names) whose banks are shared by several
 * CPUs, so that the same error may be reported through any of them:
 *  - Intel: the uncore banks of the server families, per SDM Vol. 3B,
 *    "Incremental Decoding Information" of each family (IA32_MC4 and up:
 *    power control unit, QPI/UPI links, home agents, memory controllers,
 *    caching agents, M2M, IIO); the core banks MC0-MC3 are per core.
 *  - AMD SMCA: every bank type outside the core (LS, IF, L2, DE, EX, FP are
 *    per core), per the PPRs' "Machine Check Architecture" bank tables:
 *    L3 per CCX, memory controllers, data fabric, I/O and management units
 *    per die or socket.
 *  - AMD before SMCA: the Northbridge bank (BKDG, "MCA bank 4"), shared by
 *    the node; DC, IC, BU, LS, FR are per core.
 */
static const char *const shared_bank_types[] = {
	/* Intel uncore */
	"PCU", "PUNIT", "QPI", "UPI", "HA", "IMC", "MCCHAN", "M2M", "HBM_M2M", "B2CMI", "CHA",
	"CBO", "IIO",
	/* AMD before SMCA */
	"NB",
	/* AMD SMCA */
	"L3", "MA_LLC", "UMC", "UMC_V2", "CS", "PIE", "NBIO", "NBIF", "SHUB", "PCIE", "PCIE_PL",
	"SATA", "USB", "SMU", "MP5", "MPDMA", "PB", "PSP", "MPRAS", "MPDACC", "MPM", "MPASP",
	"MPART", "XGMI_PCS", "GMI_PCS", "XGMI_PHY", "GMI_PHY", "WAFL_PHY", "SSBDCI", "DACC_FE",
	"DACC_BE", "USR_DP", "USR_CP", "EDDR5CMN",
};

bool storm_bank_type_shared(const char *bank_type)
{
	if (!bank_type)
		return false;
	for (size_t i = 0; i < ELEMENTSOF(shared_bank_types); i++)
		if (streq(shared_bank_types[i], bank_type))
			return true;
	return false;
}

/*
 * Sources that report errors as they happen.  Records of the previous boot,
 * replayed or decoded ones arrive all at once, long after the fact: counted
 * by arrival time they would make a storm out of history.
 */
static const bool live_sources[_MCE_SOURCE_MAX] = {
	[MCE_SOURCE_TRACEPOINT] = true,
	[MCE_SOURCE_DEV_MCELOG] = true,
	[MCE_SOURCE_MSR_POLL]   = true,
};

bool storm_key_from_record(const struct mce_record *rec, const struct mce_decoded *d,
			   struct storm_key *ret)
{
	const unsigned need = MCE_HAVE_BANK | MCE_HAVE_STATUS;

	if ((unsigned) rec->source >= _MCE_SOURCE_MAX || !live_sources[rec->source])
		return false;
	if (d->severity != MCE_SEV_CORRECTED || (rec->have & need) != need)
		return false;
	*ret = (struct storm_key) {
		.bank = rec->bank,
		.code = storm_code_from_status(rec->status),
		.per_cpu = !storm_bank_type_shared(d->bank_type),
	};
	/* A record without a CPU cannot be told apart by CPU: treat it as one source. */
	if (ret->per_cpu && (rec->have & MCE_HAVE_CPU))
		ret->cpu = rec->cpu;
	return true;
}
