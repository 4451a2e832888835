/* SPDX-License-Identifier: MIT */
/*
 * Intel bank layouts of the Nehalem-EP/Westmere-EP and Sandy Bridge-EP/Ivy
 * Bridge-EP servers, and the table of models named but decoded
 * architecturally only (clients, Atoms, Xeon Phi, the newest servers),
 * whose bank layout the SDM edition we follow does not document.
 *
 * Source: Intel 64 and IA-32 Architectures Software Developer's Manual,
 * Vol. 3B, chapter "Interpreting Machine Check Error Codes", the
 * "Incremental Decoding Information" section named at each table.  Model
 * numbers: SDM Vol. 4, Table 2-1 (CPUID DisplayFamily_DisplayModel).
 * Model-specific error codes (MSCOD) of these banks are not tabled here:
 * their decode stays architectural (MCACOD) until a table cites them.
 */
#include "intel.h"

/* ==== Nehalem-EP (06_1AH), Westmere-EP (06_2CH) ====
 * SDM "Incremental Decoding Information: Processor Family with CPUID
 * DisplayFamily_DisplayModel Signature 06_1AH": QPI links in IA32_MC0 and
 * IA32_MC1, internal machine check in IA32_MC7, the memory controller in
 * IA32_MC8.
 */
static const struct intel_bank nehalem_ep_banks[] = {
	{ .first = 0, .last = 1, .type = "QPI", .name = "QuickPath Interconnect" },
	{ .first = 7, .last = 7, .type = "INT", .name = "Internal machine check" },
	{ .first = 8, .last = 8, .type = "IMC", .name = "Integrated Memory Controller" },
};
const struct intel_model intel_nehalem_ep = INTEL_MODEL(nehalem_ep_banks,
	"SDM Vol. 3B, Incremental Decoding Information: Processor Family 06H Model 1AH");

/* ==== Sandy Bridge-EP (06_2DH) ====
 * SDM "... Signature 06_2DH": QPI links in IA32_MC6 and IA32_MC7, the PCU's
 * internal machine check in IA32_MC4, the memory controller in
 * IA32_MC8..IA32_MC11.
 */
static const struct intel_bank sandybridge_x_banks[] = {
	{ .first = 4, .last = 4, .type = "PCU", .name = "Power Control Unit" },
	{ .first = 6, .last = 7, .type = "QPI", .name = "QuickPath Interconnect" },
	{ .first = 8, .last = 11, .type = "IMC", .name = "Integrated Memory Controller" },
};
const struct intel_model intel_sandybridge_x = INTEL_MODEL(sandybridge_x_banks,
	"SDM Vol. 3B, Incremental Decoding Information: Processor Family 06H Model 2DH");

/* ==== Ivy Bridge-EP/EX (06_3EH) ====
 * SDM "... Signature 06_3EH": QPI links in IA32_MC5, IA32_MC20 and
 * IA32_MC21, the PCU in IA32_MC4, the memory controller in IA32_MC9..MC16.
 */
static const struct intel_bank ivybridge_x_banks[] = {
	{ .first = 4, .last = 4, .type = "PCU", .name = "Power Control Unit" },
	{ .first = 5, .last = 5, .type = "QPI", .name = "QuickPath Interconnect" },
	{ .first = 9, .last = 16, .type = "IMC", .name = "Integrated Memory Controller" },
	{ .first = 20, .last = 21, .type = "QPI", .name = "QuickPath Interconnect" },
};
const struct intel_model intel_ivybridge_x = INTEL_MODEL(ivybridge_x_banks,
	"SDM Vol. 3B, Incremental Decoding Information: Processor Family 06H Model 3EH");

/* Named, decoded architecturally: banks report as "unknown". */
const struct intel_model intel_arch_only = {
	.banks = NULL, .n_banks = 0, .source = "none: architectural decode only",
};
