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
 * Model-specific error codes (MSCOD, MCi_STATUS[31:16]) are tabled where
 * that section documents them; the SDM's own name for an error is kept in
 * parentheses when our wording differs, since that is what users search for.
 */
#include "intel.h"

/* ==== Nehalem-EP (06_1AH), Westmere-EP (06_2CH) ====
 * SDM "Incremental Decoding Information: Processor Family with CPUID
 * DisplayFamily_DisplayModel Signature 06_1AH": QPI links in IA32_MC0 and
 * IA32_MC1, internal machine check in IA32_MC7, the memory controller in
 * IA32_MC8.
 */
/* Table "Intel QPI Machine Check Error Codes for IA32_MC0_STATUS and
 * IA32_MC1_STATUS": one MSCOD bit per error. */
static const struct intel_code nhm_qpi_rows[] = {
	STATUS_BIT(16, "QPI packet header with bad parity (Header Parity)"),
	STATUS_BIT(17, "QPI data packet with bad parity (Data Parity)"),
	STATUS_BIT(18, "QPI retry limit exceeded (Retries Exceeded)"),
	STATUS_BIT(19, "Data packet poisoned by its sender (Received Poison)"),
	STATUS_BIT(22, "QPI message encoding not supported (Unsupported Message)"),
	STATUS_BIT(23, "QPI credit type not supported (Unsupported Credit)"),
	STATUS_BIT(24, "Sender overran the receiver with flits (Receive Flit Overrun)"),
	STATUS_BIT(25, "Sender returned a failed response (Received Failed Response)"),
	STATUS_BIT(26, "Clock jitter in the internal QPI clocking (Receiver Clock Jitter)"),
};
static const struct intel_code_table nhm_qpi = CODE_TABLE(nhm_qpi_rows);

/* Table "Incremental Memory Controller Error Codes of Machine Check for
 * IA32_MC8_STATUS": one MSCOD bit per error (bit 20 reserved). */
static const struct intel_code nhm_imc_rows[] = {
	STATUS_BIT(16, "ECC error on a memory read (Read ECC error)"),
	STATUS_BIT(17, "ECC error found while scrubbing (RAS ECC error)"),
	STATUS_BIT(18, "Parity error on memory write data (Write parity error)"),
	STATUS_BIT(19, "Error in one copy of redundant memory (Redundancy loss)"),
	STATUS_BIT(21, "Access outside the memory ranges (Memory range error)"),
	STATUS_BIT(22, "Internal transaction ID out of range (RTID out of range)"),
	STATUS_BIT(23, "Address parity error"),
	STATUS_BIT(24, "Byte-enable parity error"),
};
static const struct intel_code_table nhm_imc = CODE_TABLE(nhm_imc_rows);

static const struct intel_bank nehalem_ep_banks[] = {
	{ .first = 0, .last = 1, .type = "QPI", .name = "QuickPath Interconnect", .codes = &nhm_qpi },
	{ .first = 7, .last = 7, .type = "INT", .name = "Internal machine check" },
	{ .first = 8, .last = 8, .type = "IMC", .name = "Integrated Memory Controller",
	  .codes = &nhm_imc, .misc = INTEL_MISC_NHM_DIMM },
};
const struct intel_model intel_nehalem_ep = INTEL_MODEL(nehalem_ep_banks,
	"SDM Vol. 3B, Incremental Decoding Information: Processor Family 06H Model 1AH");

/* ==== Sandy Bridge-EP (06_2DH) ====
 * SDM "... Signature 06_2DH": QPI links in IA32_MC6 and IA32_MC7, the PCU's
 * internal machine check in IA32_MC4, the memory controller in
 * IA32_MC8..IA32_MC11.  The QPI table ("Intel QPI MC Error Codes for
 * IA32_MC6_STATUS and IA32_MC7_STATUS") reserves MSCOD, so QPI stays
 * architectural here and on Ivy Bridge-EP, which refers to the same table.
 */

/* PCU microcontroller errors in MSCOD[3:0] (STATUS[19:16]), the same list on
 * Sandy Bridge-EP and Ivy Bridge-EP ("Machine Check Error Codes for
 * IA32_MC4_STATUS", bits 19:16). */
#define PCU_UC_ROWS \
	STATUS_FIELD(19, 16, 0x1, "PCU microcontroller: instruction fetch outside its memory (Non_IMem_Sel)"), \
	STATUS_FIELD(19, 16, 0x2, "PCU microcontroller: instruction parity error (I_Parity_Error)"), \
	STATUS_FIELD(19, 16, 0x3, "PCU microcontroller: invalid opcode (Bad_OpCode)"), \
	STATUS_FIELD(19, 16, 0x4, "PCU microcontroller: instruction stack underflow (I_Stack_Underflow)"), \
	STATUS_FIELD(19, 16, 0x5, "PCU microcontroller: instruction stack overflow (I_Stack_Overflow)"), \
	STATUS_FIELD(19, 16, 0x6, "PCU microcontroller: data stack underflow (D_Stack_Underflow)"), \
	STATUS_FIELD(19, 16, 0x7, "PCU microcontroller: data stack overflow (D_Stack_Overflow)"), \
	STATUS_FIELD(19, 16, 0x8, "PCU microcontroller: data access outside its memory (Non-DMem_Sel)"), \
	STATUS_FIELD(19, 16, 0x9, "PCU microcontroller: data parity error (D_Parity_Error)")

/* PCU firmware errors in MSCOD[15:8] (STATUS[31:24]) common to both tables. */
#define PCU_FW_ROWS \
	STATUS_FIELD(31, 24, 0x0d, "Timed out forcing memory into self-refresh for S3 (MC_IMC_FORCE_SR_S3_TIMEOUT)"), \
	STATUS_FIELD(31, 24, 0x0e, "PCU firmware timeout (MC_CPD_UNCPD_ST_TIMEOUT)"), \
	STATUS_FIELD(31, 24, 0x0f, "PCU firmware timeout in a package S-state flow (MC_PKGS_SAFE_WP_TIMEOUT)"), \
	STATUS_FIELD(31, 24, 0x43, "PECI mailbox quiesce timed out (MC_PECI_MAILBOX_QUIESCE_TIMEOUT)"), \
	STATUS_FIELD(31, 24, 0x5c, "More than one trusted-execution agent found (MC_MORE_THAN_ONE_LT_AGENT)"), \
	STATUS_FIELD(31, 24, 0x60, "Invalid package S-state request from the PCH (MC_INVALID_PKGS_REQ_PCH)"), \
	STATUS_FIELD(31, 24, 0x61, "Invalid package S-state request over QPI (MC_INVALID_PKGS_REQ_QPI)"), \
	STATUS_FIELD(31, 24, 0x62, "Invalid package S-state response over QPI (MC_INVALID_PKGS_RES_QPI)"), \
	STATUS_FIELD(31, 24, 0x63, "Invalid package C-state response from the PCH (MC_INVALID_PKGC_RES_PCH)"), \
	STATUS_FIELD(31, 24, 0x64, "Invalid package state configuration (MC_INVALID_PKG_STATE_CONFIG)"), \
	STATUS_FIELD(31, 24, 0x70, "Package C-state watchdog timed out on a slave (MC_WATCHDG_TIMEOUT_PKGC_SLAVE)"), \
	STATUS_FIELD(31, 24, 0x71, "Package C-state watchdog timed out on the master (MC_WATCHDG_TIMEOUT_PKGC_MASTER)"), \
	STATUS_FIELD(31, 24, 0x72, "Package S-state watchdog timed out on the master (MC_WATCHDG_TIMEOUT_PKGS_MASTER)"), \
	STATUS_FIELD(31, 24, 0x7a, "Home agent failure status changed (MC_HA_FAILSTS_CHANGE_DETECTED)"), \
	STATUS_FIELD(31, 24, 0x81, "Die too hot, recoverable thermal event (MC_RECOVERABLE_DIE_THERMAL_TOO_HOT)")

/* The firmware code (bits 31:24) is matched before the microcontroller code:
 * when the firmware reports, that is the more specific account. */
static const struct intel_code snb_pcu_rows[] = {
	PCU_FW_ROWS,
	PCU_UC_ROWS,
};
static const struct intel_code_table snb_pcu = CODE_TABLE(snb_pcu_rows);

/* Table "Intel IMC MC Error Codes for IA32_MCi_STATUS (i = 8, 11)": MSCOD values. */
#define SNB_IMC_ROWS \
	MSCOD_IS(0x0001, "Address parity error"), \
	MSCOD_IS(0x0002, "Home-agent write buffer data parity error (HA Wrt buffer Data parity error)"), \
	MSCOD_IS(0x0004, "Home-agent write byte-enable parity error (HA Wrt byte enable parity error)"), \
	MSCOD_IS(0x0008, "Corrected patrol scrub error"), \
	MSCOD_IS(0x0010, "Uncorrected patrol scrub error"), \
	MSCOD_IS(0x0020, "Corrected sparing error (Corrected spare error)"), \
	MSCOD_IS(0x0040, "Uncorrected sparing error (Uncorrected spare error)")

static const struct intel_code snb_imc_rows[] = {
	SNB_IMC_ROWS,
};
static const struct intel_code_table snb_imc = CODE_TABLE(snb_imc_rows);

static const struct intel_bank sandybridge_x_banks[] = {
	{ .first = 4, .last = 4, .type = "PCU", .name = "Power Control Unit", .codes = &snb_pcu },
	{ .first = 6, .last = 7, .type = "QPI", .name = "QuickPath Interconnect" },
	{ .first = 8, .last = 11, .type = "IMC", .name = "Integrated Memory Controller", .codes = &snb_imc },
};
const struct intel_model intel_sandybridge_x = INTEL_MODEL(sandybridge_x_banks,
	"SDM Vol. 3B, Incremental Decoding Information: Processor Family 06H Model 2DH");

/* ==== Ivy Bridge-EP/EX (06_3EH) ====
 * SDM "... Signature 06_3EH": QPI links in IA32_MC5, IA32_MC20 and
 * IA32_MC21, the PCU in IA32_MC4, the memory controller in IA32_MC9..MC16.
 */
/* "Machine Check Error Codes for IA32_MC4_STATUS" of 06_3EH: the Sandy
 * Bridge-EP list plus three firmware codes. */
static const struct intel_code ivb_pcu_rows[] = {
	PCU_FW_ROWS,
	STATUS_FIELD(31, 24, 0x44, "Critical voltage regulator failure (MC_CRITICAL_VR_FAILED)"),
	STATUS_FIELD(31, 24, 0x45, "Voltage regulator maximum current not supported (MC_ICC_MAX-NOTSUPPORTED)"),
	STATUS_FIELD(31, 24, 0x7b, "PCIe agent read/write block acknowledge timed out (MC_PCIE_R2PCIE-RW_BLOCK_ACK_TIMEOUT)"),
	PCU_UC_ROWS,
};
static const struct intel_code_table ivb_pcu = CODE_TABLE(ivb_pcu_rows);

/* Table "Intel IMC MC Error Codes for IA32_MCi_STATUS (i = 9-16)" of 06_3EH:
 * the Sandy Bridge-EP values plus two. */
static const struct intel_code ivb_imc_rows[] = {
	SNB_IMC_ROWS,
	MSCOD_IS(0x0080, "Corrected memory read error, logged only in the additional error-logging mode"),
	MSCOD_IS(0x0100, "Write data buffer parity error in the memory controller (iMC, WDB, parity errors)"),
};
static const struct intel_code_table ivb_imc = CODE_TABLE(ivb_imc_rows);

static const struct intel_bank ivybridge_x_banks[] = {
	{ .first = 4, .last = 4, .type = "PCU", .name = "Power Control Unit", .codes = &ivb_pcu },
	{ .first = 5, .last = 5, .type = "QPI", .name = "QuickPath Interconnect" },
	{ .first = 9, .last = 16, .type = "IMC", .name = "Integrated Memory Controller", .codes = &ivb_imc },
	{ .first = 20, .last = 21, .type = "QPI", .name = "QuickPath Interconnect" },
};
const struct intel_model intel_ivybridge_x = INTEL_MODEL(ivybridge_x_banks,
	"SDM Vol. 3B, Incremental Decoding Information: Processor Family 06H Model 3EH");

/* ==== Denverton, Atom C3000 (06_5FH) ====
 * SDM "Incremental Decoding Information: Processor Family 06H Model 5FH"
 * (Table 16-33 in the edition mcelog's denverton.c cites; we could not read
 * that page itself): the memory controller reports in IA32_MC6 and IA32_MC7,
 * one MSCOD bit per error.  The other banks are not described there.
 */
static const struct intel_code dnv_imc_rows[] = {
	STATUS_BIT(16, "Command/address parity error (Cmd/Addr parity)"),
	STATUS_BIT(17, "Corrected error on a demand read or a patrol scrub (Corrected Demand/Patrol Scrub Error)"),
	STATUS_BIT(18, "Uncorrected patrol scrub error"),
	STATUS_BIT(19, "Uncorrected demand read error"),
	STATUS_BIT(20, "ECC error reading the write data buffer (WDB read ECC)"),
};
static const struct intel_code_table dnv_imc = CODE_TABLE(dnv_imc_rows);

static const struct intel_bank denverton_banks[] = {
	{ .first = 6, .last = 7, .type = "IMC", .name = "Integrated Memory Controller", .codes = &dnv_imc },
};
const struct intel_model intel_denverton = INTEL_MODEL(denverton_banks,
	"SDM Vol. 3B, Incremental Decoding Information: Processor Family 06H Model 5FH");

/* Named, decoded architecturally: banks report as "unknown". */
const struct intel_model intel_arch_only = {
	.banks = NULL, .n_banks = 0, .source = "none: architectural decode only",
};
