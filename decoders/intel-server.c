/* SPDX-License-Identifier: MIT */
/*
 * Intel model-specific tables: bank layout and model-specific error codes
 * (MSCOD, MCi_STATUS[31:16]) per server family, plus the client cores.
 *
 * Source for every table: Intel 64 and IA-32 Architectures Software
 * Developer's Manual, Vol. 3B, chapter "Interpreting Machine Check Error
 * Codes", the "Incremental Decoding Information" section of each family
 * (named at each table).  Texts are our own short wording of the documented
 * meaning; the documented mnemonic is kept in parentheses where users are
 * likely to search for it.
 *
 * Banks are sorted by number and disjoint; code rows are matched in order,
 * first match wins (intel.h).
 */
#include "intel.h"

/* ---- shared core banks (IA32_MC0..MC3 on every family listed here) ---- */

#define CORE_BANKS \
	{ .first = 0, .last = 0, .type = "IFU",  .name = "Instruction Fetch Unit" }, \
	{ .first = 1, .last = 1, .type = "DCU",  .name = "Data Cache Unit" }, \
	{ .first = 2, .last = 2, .type = "DTLB", .name = "Data TLB" }, \
	{ .first = 3, .last = 3, .type = "MLC",  .name = "Mid-Level Cache" }

/* ==== Haswell-EP (06_3FH), Broadwell-EP (06_4FH), Broadwell-DE (06_56H) ====
 * SDM "Incremental Decoding Information: Processor Family 06H, Model 3FH"
 * ("Intel Xeon Processor E5 v3 Family") and "... Model 4FH / 56H"
 * (E5 v4, Xeon D-1500): IA32_MC9..MC16 are iMC channels, MC7/MC8 the home
 * agents, MC4 the PCU, MC5/MC20/MC21 the QPI links.  The three iMC tables
 * differ: "Intel IMC MC Error Codes for IA32_MCi_STATUS (i = 9-16)" of 06_3FH
 * and of 06_4FH (which lacks 0080H), and "(i = 9-10)" of 06_56H (which also
 * lacks the sparing codes).  The SDM's name is in parentheses where ours differs.
 */
#define HSX_IMC_COMMON_ROWS \
	MSCOD_IS(0x0001, "DDR3 address parity error"), \
	MSCOD_IS(0x0002, "Uncorrected home-agent write data error (Uncorrected HA write data error)"), \
	MSCOD_IS(0x0004, "Uncorrected home-agent byte-enable error (Uncorrected HA data byte enable error)"), \
	MSCOD_IS(0x0008, "Corrected patrol scrub error"), \
	MSCOD_IS(0x0010, "Uncorrected patrol scrub error"), \
	MSCOD_IS(0x0100, "Write data buffer parity error in the memory controller (iMC, write data buffer parity errors)"), \
	MSCOD_IS(0x0200, "DDR4 command/address parity error (DDR4 command address parity error)")
#define HSX_IMC_SPARING_ROWS \
	MSCOD_IS(0x0020, "Corrected sparing error (Corrected spare error)"), \
	MSCOD_IS(0x0040, "Uncorrected sparing error (Uncorrected spare error)")

static const struct intel_code hsx_imc_rows[] = {
	HSX_IMC_COMMON_ROWS,
	HSX_IMC_SPARING_ROWS,
	MSCOD_IS(0x0080, "Corrected memory read error, logged only in the additional error-logging mode"),
};
static const struct intel_code_table hsx_imc = CODE_TABLE(hsx_imc_rows);

static const struct intel_code bdx_imc_rows[] = {
	HSX_IMC_COMMON_ROWS,
	HSX_IMC_SPARING_ROWS,
};
static const struct intel_code_table bdx_imc = CODE_TABLE(bdx_imc_rows);

static const struct intel_code bdx_de_imc_rows[] = {
	HSX_IMC_COMMON_ROWS,
};
static const struct intel_code_table bdx_de_imc = CODE_TABLE(bdx_de_imc_rows);

/* QPI, table "Intel QPI MC Error Codes for IA32_MCi_STATUS (i = 5, 20, 21)" of
 * 06_3FH, which 06_4FH refers to: an enumerated MSCOD. */
static const struct intel_code hsx_qpi_rows[] = {
	MSCOD_IS(0x02, "Physical layer drift buffer alarm"),
	MSCOD_IS(0x03, "Physical layer latency buffer rollover"),
	MSCOD_IS(0x10, "Link layer control error reported by the ring-to-QPI agent (R3QPI)"),
	MSCOD_IS(0x11, "CRC error, link-level retry gave up (Rx entered LLR abort state on CRC error)"),
	MSCOD_IS(0x12, "Unsupported or undefined packet"),
	MSCOD_IS(0x13, "Link layer control error"),
	MSCOD_IS(0x15, "Routing-back table read before it was initialised (RBT used un-initialized value)"),
	MSCOD_IS(0x20, "Physical layer in-band reset, initialisation aborted"),
	MSCOD_IS(0x21, "Link failed over to fewer data lanes (Link failover data self healing)"),
	MSCOD_IS(0x22, "Physical layer in-band reset, width unchanged (Phy detected in-band reset)"),
	MSCOD_IS(0x23, "Link failed over to the backup clock lane (Link failover clock failover)"),
	MSCOD_IS(0x30, "CRC error corrected by link-level retry after a physical layer re-init"),
	MSCOD_IS(0x31, "CRC error corrected by link-level retry without a physical layer re-init"),
};
static const struct intel_code_table hsx_qpi = CODE_TABLE(hsx_qpi_rows);

#define HSX_IMC(n, ctl, tbl) { .first = n, .last = n, .type = "IMC", \
	.name = "Integrated Memory Controller", .codes = &(tbl), .has_imc = true, .imc = ctl }

/* The two E5 generations share a layout; only the iMC code list differs. */
#define HSX_BANKS(imc_tbl) \
	CORE_BANKS, \
	{ .first = 4, .last = 4, .type = "PCU", .name = "Power Control Unit" }, \
	{ .first = 5, .last = 5, .type = "QPI", .name = "QuickPath Interconnect", .codes = &hsx_qpi }, \
	{ .first = 7, .last = 8, .type = "HA",  .name = "Home Agent" }, \
	HSX_IMC(9, 0, imc_tbl), HSX_IMC(10, 0, imc_tbl), HSX_IMC(11, 0, imc_tbl), HSX_IMC(12, 0, imc_tbl), \
	HSX_IMC(13, 1, imc_tbl), HSX_IMC(14, 1, imc_tbl), HSX_IMC(15, 1, imc_tbl), HSX_IMC(16, 1, imc_tbl), \
	{ .first = 17, .last = 19, .type = "CBO", .name = "Caching Agent (LLC slice)" }, \
	{ .first = 20, .last = 21, .type = "QPI", .name = "QuickPath Interconnect", .codes = &hsx_qpi }

static const struct intel_bank haswell_x_banks[] = { HSX_BANKS(hsx_imc) };
static const struct intel_bank broadwell_x_banks[] = { HSX_BANKS(bdx_imc) };
const struct intel_model intel_haswell_x = INTEL_MODEL(haswell_x_banks,
	"SDM Vol. 3B, Incremental Decoding Information: Processor Family 06H Model 3FH");
const struct intel_model intel_broadwell_x = INTEL_MODEL(broadwell_x_banks,
	"SDM Vol. 3B, Incremental Decoding Information: Processor Family 06H Model 4FH");

static const struct intel_bank broadwell_d_banks[] = {
	CORE_BANKS,
	{ .first = 4, .last = 4, .type = "PCU", .name = "Power Control Unit" },
	{ .first = 7, .last = 7, .type = "HA",  .name = "Home Agent" },
	HSX_IMC(9, 0, bdx_de_imc), HSX_IMC(10, 0, bdx_de_imc),
};
const struct intel_model intel_broadwell_d = INTEL_MODEL(broadwell_d_banks,
	"SDM Vol. 3B, Incremental Decoding Information: Processor Family 06H Model 56H");

/* ==== Skylake-SP, Cascade Lake, Cooper Lake (06_55H) ====
 * SDM "Incremental Decoding Information: Processor Family 06H Model 55H"
 * (Intel Xeon Scalable): MC4 PCU, MC5/MC12/MC19 UPI, MC7/MC8 M2M,
 * MC9..MC11 CHA, MC13..MC18 iMC channels (tables "Intel UPI MC Error Codes",
 * "Intel IMC MC Error Codes for IA32_MCi_STATUS (i = 13-18)", "M2M MC Error
 * Codes", whose bit names (MscodDataRdErr, ...) we keep in parentheses).  M2M MISC[63]/[62] tell a mirrored-memory correction (with
 * channel failover / after scrubbing the primary).  iMC MSCOD: with bit 27 set, bits 19:16 hold an enumerated code,
 * otherwise each bit 16..26 flags one error.
 */
static const struct intel_code skx_imc_rows[] = {
	{ .mask = UINT64_C(0xf80f0000), .value = UINT64_C(0x08000000), .text = "Unrecognised request type" },
	{ .mask = UINT64_C(0xf80f0000), .value = UINT64_C(0x08010000), .text = "Read response to an invalid scoreboard entry" },
	{ .mask = UINT64_C(0xf80f0000), .value = UINT64_C(0x08020000), .text = "Unexpected read response" },
	{ .mask = UINT64_C(0xf80f0000), .value = UINT64_C(0x08030000), .text = "DDR4 completion to an invalid scoreboard entry" },
	{ .mask = UINT64_C(0xf80f0000), .value = UINT64_C(0x08040000), .text = "Completion to an invalid scoreboard entry" },
	{ .mask = UINT64_C(0xf80f0000), .value = UINT64_C(0x08050000), .text = "Completion FIFO overflow" },
	{ .mask = UINT64_C(0xf80f0000), .value = UINT64_C(0x08060000), .text = "Correctable parity error" },
	{ .mask = UINT64_C(0xf80f0000), .value = UINT64_C(0x08070000), .text = "Uncorrectable error" },
	{ .mask = UINT64_C(0xf80f0000), .value = UINT64_C(0x08080000), .text = "Interrupt received while an earlier one was not acknowledged" },
	{ .mask = UINT64_C(0xf80f0000), .value = UINT64_C(0x08090000), .text = "ERID FIFO overflow" },
	{ .mask = UINT64_C(0xf80f0000), .value = UINT64_C(0x080a0000), .text = "Error on write credits" },
	{ .mask = UINT64_C(0xf80f0000), .value = UINT64_C(0x080b0000), .text = "Error on read credits" },
	{ .mask = UINT64_C(0xf80f0000), .value = UINT64_C(0x080c0000), .text = "Scheduler error" },
	{ .mask = UINT64_C(0xf80f0000), .value = UINT64_C(0x080d0000), .text = "Error event" },
	STATUS_BIT(16, "Address parity error"),
	STATUS_BIT(17, "Home-agent write data parity error"),
	STATUS_BIT(18, "Home-agent write byte-enable parity error"),
	STATUS_BIT(19, "Corrected patrol scrub error"),
	STATUS_BIT(20, "Uncorrected patrol scrub error"),
	STATUS_BIT(21, "Corrected sparing error"),
	STATUS_BIT(22, "Uncorrected sparing error"),
	STATUS_BIT(23, "Home-agent read error"),
	STATUS_BIT(24, "Write data buffer read parity error"),
	STATUS_BIT(25, "DDR4 command/address parity error"),
	STATUS_BIT(26, "Uncorrected address parity error"),
};
static const struct intel_code_table skx_imc = CODE_TABLE(skx_imc_rows);

static const struct intel_code skx_m2m_rows[] = {
	STATUS_BIT(16, "Memory controller returned read data with an error (MscodDataRdErr)"),
	STATUS_BIT(18, "Partial write data error from the memory controller (MscodPtlWrErr)"),
	STATUS_BIT(19, "Full write data error from the memory controller (MscodFullWrErr)"),
	STATUS_BIT(20, "Clock-crossing buffer (BGF) error (MscodBgfErr)"),
	STATUS_BIT(21, "Mesh-to-memory timeout (MscodTimeOut)"),
	STATUS_BIT(22, "Mesh-to-memory tracker parity error (MscodParErr)"),
	STATUS_BIT(23, "Fatal bucket-1 error (MscodBucket1Err)"),
};
static const struct intel_code_table skx_m2m = CODE_TABLE(skx_m2m_rows);

/* UPI link errors, MSCOD[5:0] (STATUS[21:16]); the same encoding from Skylake-SP on. */
static const struct intel_code upi_rows[] = {
	STATUS_FIELD(21, 16, 0x00, "Uncorrected: physical layer initialisation failed"),
	STATUS_FIELD(21, 16, 0x01, "Uncorrected: physical layer drift buffer alarm"),
	STATUS_FIELD(21, 16, 0x02, "Uncorrected: physical layer latency buffer rollover"),
	STATUS_FIELD(21, 16, 0x10, "Uncorrected: CRC error, link-level retry failed (abort state)"),
	STATUS_FIELD(21, 16, 0x11, "Uncorrected: unsupported or undefined packet received"),
	STATUS_FIELD(21, 16, 0x12, "Uncorrected: link or physical layer control error"),
	STATUS_FIELD(21, 16, 0x13, "Uncorrected: parameter exchange exception"),
	STATUS_FIELD(21, 16, 0x1f, "Uncorrected: link layer control error from the mesh interface"),
	STATUS_FIELD(21, 16, 0x20, "Corrected: physical layer initialisation aborted"),
	STATUS_FIELD(21, 16, 0x21, "Corrected: physical layer reset"),
	STATUS_FIELD(21, 16, 0x22, "Corrected: lane failure, link continues at reduced width"),
	STATUS_FIELD(21, 16, 0x23, "Corrected: L0c error, no physical layer reset"),
	STATUS_FIELD(21, 16, 0x24, "Corrected: L0c error, physical layer reset"),
	STATUS_FIELD(21, 16, 0x25, "Corrected: L0p exit error, corrected with a reset"),
	STATUS_FIELD(21, 16, 0x30, "Corrected: CRC error, link-level retry succeeded without re-initialisation"),
	STATUS_FIELD(21, 16, 0x31, "Corrected: CRC error, link-level retry succeeded after re-initialisation"),
};
static const struct intel_code_table upi = CODE_TABLE(upi_rows);

/* PCU, MSCOD[15:8] (STATUS[31:24]): a few of the documented firmware error codes. */
static const struct intel_code skx_pcu_rows[] = {
	STATUS_FIELD(31, 24, 0x0d, "DMI link training timed out (MCA_DMI_TRAINING_TIMEOUT)"),
	STATUS_FIELD(31, 24, 0x10, "More than one trusted-execution agent found (MCA_MORE_THAN_ONE_LT_AGENT)"),
	STATUS_FIELD(31, 24, 0x40, "VCCIN voltage regulator exceeded its current limit (MCA_SVID_VCCIN_VR_ICC_MAX_FAILURE)"),
	STATUS_FIELD(31, 24, 0x41, "Voltage regulator command timed out (MCA_SVID_COMMAND_TIMEOUT)"),
	STATUS_FIELD(31, 24, 0x44, "Critical voltage regulator failure (MCA_SVID_CRITICAL_VR_FAILED)"),
	STATUS_FIELD(31, 24, 0x51, "Integrated voltage regulator over-voltage fault (MCA_FIVR_CATAS_OVERVOL_FAULT)"),
	STATUS_FIELD(31, 24, 0x52, "Integrated voltage regulator over-current fault (MCA_FIVR_CATAS_OVERCUR_FAULT)"),
	STATUS_FIELD(31, 24, 0x81, "Die too hot, recoverable thermal event (MCA_RECOVERABLE_DIE_THERMAL_TOO_HOT)"),
};
static const struct intel_code_table skx_pcu = CODE_TABLE(skx_pcu_rows);

#define SKX_IMC(n, ctl) { .first = n, .last = n, .type = "IMC", \
	.name = "Integrated Memory Controller", .codes = &skx_imc, .has_imc = true, .imc = ctl }

static const struct intel_bank skylake_x_banks[] = {
	CORE_BANKS,
	{ .first = 4, .last = 4, .type = "PCU", .name = "Power Control Unit", .codes = &skx_pcu },
	{ .first = 5, .last = 5, .type = "UPI", .name = "Ultra Path Interconnect", .codes = &upi },
	{ .first = 6, .last = 6, .type = "IIO", .name = "Integrated I/O" },
	{ .first = 7, .last = 8, .type = "M2M", .name = "Mesh to Memory", .codes = &skx_m2m,
	  .misc = INTEL_MISC_MIRROR_63_62 },
	{ .first = 9, .last = 11, .type = "CHA", .name = "Caching and Home Agent" },
	{ .first = 12, .last = 12, .type = "UPI", .name = "Ultra Path Interconnect", .codes = &upi },
	/* controller 0 has banks 13, 14, 17; controller 1 has 15, 16, 18 */
	SKX_IMC(13, 0), SKX_IMC(14, 0), SKX_IMC(15, 1), SKX_IMC(16, 1), SKX_IMC(17, 0), SKX_IMC(18, 1),
	{ .first = 19, .last = 19, .type = "UPI", .name = "Ultra Path Interconnect", .codes = &upi },
};
const struct intel_model intel_skylake_x = INTEL_MODEL(skylake_x_banks,
	"SDM Vol. 3B, Incremental Decoding Information: Processor Family 06H Model 55H");

/* ==== Ice Lake-SP (06_6AH), Ice Lake-D (06_6CH), Snow Ridge (06_86H) ====
 * SDM "Incremental Decoding Information: Processor Family 06H Model 6AH/6CH"
 * (3rd Gen Xeon Scalable): MC4 PCU, MC5/MC7/MC8 UPI, MC9..11 CHA, then per
 * memory controller one M2M bank followed by three channel banks
 * (12 | 13-15, 16 | 17-19, 20 | 21-23, 24 | 25-27).  iMC MSCOD: bits 31:24
 * select a group, bits 23:16 the error within it; MISC[58:56] is the rank.
 *
 * Mnemonics (details.mnemonic) are the names the SDM's 06_6AH iMC table gives
 * these codes, as printed verbatim by mcelog's i10nm.c (imc_0..imc_8, Intel's
 * public decoder, used as a fact source for the names only): the strings users
 * find in mcelog output and search for.
 */
#define IMC_CODE(group, code, t, mn) MSCOD_IS_MN(((group) << 8) | (code), t, mn)

/* The codes Ice Lake's and Sapphire Rapids' memory controllers share; group
 * 0x02 (command/address parity) differs by DDR generation. */
#define I10NM_IMC_SHARED_ROWS \
	IMC_CODE(0x00, 0x01, "Address parity error", "Address parity error"), \
	IMC_CODE(0x00, 0x02, "Data parity error", "Data parity error"), \
	IMC_CODE(0x00, 0x03, "Data ECC error", "Data ECC error"), \
	IMC_CODE(0x00, 0x04, "Data byte-enable parity error", "Data byte enable parity error"), \
	IMC_CODE(0x00, 0x07, "Transaction ID parity error", "Transaction ID parity error"), \
	IMC_CODE(0x00, 0x08, "Corrected patrol scrub error", "Corrected patrol scrub error"), \
	IMC_CODE(0x00, 0x10, "Uncorrected patrol scrub error", "Uncorrected patrol scrub error"), \
	IMC_CODE(0x00, 0x20, "Corrected sparing error", "Corrected spare error"), \
	IMC_CODE(0x00, 0x40, "Uncorrected sparing error", "Uncorrected spare error"), \
	IMC_CODE(0x00, 0x80, "Corrected memory read error", "Corrected read error"), \
	IMC_CODE(0x00, 0xa0, "Uncorrected memory read error", "Uncorrected read error"), \
	IMC_CODE(0x00, 0xc0, "Uncorrected metadata error", "Uncorrected metadata"), \
	IMC_CODE(0x01, 0x00, "Write data buffer read parity error", "WDB read parity error"), \
	IMC_CODE(0x01, 0x08, "DDR link failure", "DDR link failure"), \
	IMC_CODE(0x04, 0x00, "Read pending queue parity error", "RPQ parity (primary) error"), \
	IMC_CODE(0x08, 0x00, "Persistent-memory (DDR-T) bad request", "DDR-T bad request")

static const struct intel_code i10nm_imc_rows[] = {
	I10NM_IMC_SHARED_ROWS,
	IMC_CODE(0x02, 0x00, "DDR command/address parity error", "DDR4 command / address parity error"),
};
static const struct intel_code_table i10nm_imc = CODE_TABLE(i10nm_imc_rows);

static const struct intel_code i10nm_m2m_rows[] = {
	STATUS_BIT(16, "Memory controller returned read data with an error"),
	STATUS_BIT(18, "Partial write data error from the memory controller"),
	STATUS_BIT(19, "Full write data error from the memory controller"),
	STATUS_BIT(20, "Clock-crossing buffer (BGF) error"),
	STATUS_BIT(21, "Mesh-to-memory timeout"),
	STATUS_BIT(22, "Mesh-to-memory tracker parity error"),
	STATUS_BIT(23, "Fatal bucket-1 error"),
};
static const struct intel_code_table i10nm_m2m = CODE_TABLE(i10nm_m2m_rows);

/* PCU from 10nm on: MSCOD[15:8] firmware codes, MSCOD[3:0] microcontroller errors. */
static const struct intel_code i10nm_pcu_rows[] = {
	STATUS_FIELD(31, 24, 0x0d, "LLC built-in self test timed out (MCA_LLC_BIST_ACTIVE_TIMEOUT)"),
	STATUS_FIELD(31, 24, 0x0e, "DMI link training timed out (MCA_DMI_TRAINING_TIMEOUT)"),
	STATUS_FIELD(31, 24, 0x11, "More than one trusted-execution agent found (MCA_MORE_THAN_ONE_LT_AGENT)"),
	STATUS_FIELD(31, 24, 0x40, "VCCIN voltage regulator exceeded its current limit (MCA_SVID_VCCIN_VR_ICC_MAX_FAILURE)"),
	STATUS_FIELD(31, 24, 0x44, "Critical voltage regulator failure (MCA_SVID_CRITICAL_VR_FAILED)"),
	STATUS_FIELD(31, 24, 0x56, "Integrated voltage regulator hard fault (MCA_FIVR_PD_HARDERR)"),
	STATUS_FIELD(31, 24, 0x90, "Die too hot, recoverable thermal event (MCA_RECOVERABLE_DIE_THERMAL_TOO_HOT)"),
	STATUS_FIELD(19, 16, 0x01, "Power-management microcontroller: instruction address out of range"),
	STATUS_FIELD(19, 16, 0x02, "Power-management microcontroller: double-bit RAM error on instruction fetch"),
	STATUS_FIELD(19, 16, 0x03, "Power-management microcontroller: invalid opcode"),
	STATUS_FIELD(19, 16, 0x04, "Power-management microcontroller: stack underflow"),
	STATUS_FIELD(19, 16, 0x05, "Power-management microcontroller: stack overflow"),
	STATUS_FIELD(19, 16, 0x06, "Power-management microcontroller: data address out of range"),
	STATUS_FIELD(19, 16, 0x07, "Power-management microcontroller: double-bit RAM error on data fetch"),
};
static const struct intel_code_table i10nm_pcu = CODE_TABLE(i10nm_pcu_rows);

#define I10NM_M2M(n) { .first = n, .last = n, .type = "M2M", .name = "Mesh to Memory", \
	.codes = &i10nm_m2m, .misc = INTEL_MISC_MIRROR_63_62, .has_imc = true, .imc = ((n) - 12) / 4 }
/*
 * iMC MISC location bits.  The SDM leaves IA32_MCi_MISC[63:9] of these banks
 * "model specific" and gives no field list; the public record of the layout
 * is Linux drivers/edac/i10nm_base.c, i10nm_mc_decode() (fact source): for
 * Ice Lake-SP/-D and Snow Ridge it reads a 3-bit MISC[58:56] and splits it
 * into DIMM = bit 58 and rank = bits 57:56 (two DIMMs per channel, up to four
 * ranks each).  The whole 3-bit value is not a rank.
 */
/* The first two iMC banks of each controller are its channels, whose MISC also names the DRAM cell. */
#define I10NM_IMC(n) { .first = n, .last = n, .type = "IMC", .name = "Integrated Memory Controller", \
	.codes = &i10nm_imc, .misc = INTEL_MISC_ICX_DIMM_RANK, .has_imc = true, .imc = ((n) - 12) / 4, \
	.cell = ((n) - 13) % 4 < 2 ? &intel_dram_misc_icx : NULL }

static const struct intel_bank icelake_x_banks[] = {
	CORE_BANKS,
	{ .first = 4, .last = 4, .type = "PCU", .name = "Power Control Unit", .codes = &i10nm_pcu },
	{ .first = 5, .last = 5, .type = "UPI", .name = "Ultra Path Interconnect", .codes = &upi },
	{ .first = 6, .last = 6, .type = "IIO", .name = "Integrated I/O" },
	{ .first = 7, .last = 8, .type = "UPI", .name = "Ultra Path Interconnect", .codes = &upi },
	{ .first = 9, .last = 11, .type = "CHA", .name = "Caching and Home Agent" },
	I10NM_M2M(12), I10NM_IMC(13), I10NM_IMC(14), I10NM_IMC(15),
	I10NM_M2M(16), I10NM_IMC(17), I10NM_IMC(18), I10NM_IMC(19),
	I10NM_M2M(20), I10NM_IMC(21), I10NM_IMC(22), I10NM_IMC(23),
	I10NM_M2M(24), I10NM_IMC(25), I10NM_IMC(26), I10NM_IMC(27),
};
const struct intel_model intel_icelake_x = INTEL_MODEL(icelake_x_banks,
	"SDM Vol. 3B, Incremental Decoding Information: Processor Family 06H Model 6AH");

/* ==== Sapphire Rapids (06_8FH), Emerald Rapids (06_CFH) ====
 * SDM "Incremental Decoding Information: Processor Family 06H Model 8FH"
 * (4th/5th Gen Xeon Scalable): MC4 PCU, MC5 UPI, MC12 M2M, MC13..MC20 iMC
 * channels (two per controller), MC29 HBM M2M, MC30/31 HBM iMC.  The iMC
 * MSCOD groups of Ice Lake-SP, plus group 0x10: errors on the secondary
 * copy of mirrored memory.  Mnemonics: the SDM 06_8FH table's names as
 * printed by mcelog's sapphire.c (imc_0..imc_10, m2m_0; fact source for the
 * names only); group 0x10 is named in the SDM's register-field style.
 */
static const struct intel_code spr_imc_rows[] = {
	I10NM_IMC_SHARED_ROWS,
	IMC_CODE(0x02, 0x00, "DDR5 command/address parity error", "DDR5 command / address parity error"),
	IMC_CODE(0x10, 0x08, "Corrected patrol scrub error on the mirror secondary", "CORR_PATSCRUB_MIRR2ND_ERR"),
	IMC_CODE(0x10, 0x10, "Uncorrected patrol scrub error on the mirror secondary", "UC_PATSCRUB_MIRR2ND_ERR"),
	IMC_CODE(0x10, 0x20, "Corrected sparing error on the mirror secondary", "COR_SPARE_MIRR2ND_ERR"),
	IMC_CODE(0x10, 0x40, "Uncorrected sparing error on the mirror secondary", "UC_SPARE_MIRR2ND_ERR"),
	IMC_CODE(0x10, 0x80, "Corrected read error on the mirror secondary", "HA_RD_MIRR2ND_ERR"),
	IMC_CODE(0x10, 0xa0, "Uncorrected read error on the mirror secondary", "HA_UNCORR_RD_MIRR2ND_ERR"),
};
static const struct intel_code_table spr_imc = CODE_TABLE(spr_imc_rows);

/* M2M from Sapphire Rapids on: an enumerated code in MSCOD[7:0]. */
static const struct intel_code spr_m2m_rows[] = {
	STATUS_FIELD_MN(23, 16, 0x01, "Read ECC error", "Read ECC error"),
	STATUS_FIELD_MN(23, 16, 0x02, "Fatal bucket-1 error", "Bucket1 error"),
	STATUS_FIELD_MN(23, 16, 0x03, "Read tracker parity error", "RdTrkr Parity error"),
	STATUS_FIELD_MN(23, 16, 0x05, "Prefetch channel mismatch", "Prefetch channel mismatch"),
	STATUS_FIELD_MN(23, 16, 0x07, "Read completion parity error", "Read completion parity error"),
	STATUS_FIELD_MN(23, 16, 0x08, "Response parity error", "Response parity error"),
	STATUS_FIELD_MN(23, 16, 0x09, "Timeout", "Timeout error"),
	STATUS_FIELD_MN(23, 16, 0x0a, "Memory interface reserved credit pool error", "CMI reserved credit pool error"),
	STATUS_FIELD_MN(23, 16, 0x0b, "Memory interface total credit count error", "CMI total credit count error"),
	STATUS_FIELD_MN(23, 16, 0x0c, "Memory interface credit oversubscription", "CMI credit oversubscription error"),
};
static const struct intel_code_table spr_m2m = CODE_TABLE(spr_m2m_rows);

/*
 * Sapphire/Emerald Rapids DDR iMC (MC13..MC20): DIMM = MISC[58], rank =
 * MISC[57] (Linux drivers/edac/i10nm_base.c, i10nm_mc_decode(), SPR case,
 * fact source; the SDM gives no MISC field list).  Linux decodes no MISC
 * location for the HBM banks and we know of no public layout for them, so
 * they report none.
 */
#define SPR_IMC(n, hbm) { .first = n, .last = n, .type = (hbm) ? "HBM" : "IMC", \
	.name = (hbm) ? "High Bandwidth Memory Controller" : "Integrated Memory Controller", \
	.codes = &spr_imc, .misc = (hbm) ? INTEL_MISC_NONE : INTEL_MISC_SPR_DIMM_RANK, .has_imc = !(hbm), .imc = ((n) - 13) / 2, \
	.cell = (hbm) ? NULL : &intel_dram_misc_spr }

static const struct intel_bank sapphire_banks[] = {
	CORE_BANKS,
	{ .first = 4, .last = 4, .type = "PCU", .name = "Power Control Unit", .codes = &i10nm_pcu },
	{ .first = 5, .last = 5, .type = "UPI", .name = "Ultra Path Interconnect", .codes = &upi },
	{ .first = 6, .last = 6, .type = "IIO", .name = "Integrated I/O" },
	{ .first = 9, .last = 11, .type = "CHA", .name = "Caching and Home Agent" },
	{ .first = 12, .last = 12, .type = "M2M", .name = "Mesh to Memory", .codes = &spr_m2m },
	SPR_IMC(13, 0), SPR_IMC(14, 0), SPR_IMC(15, 0), SPR_IMC(16, 0),
	SPR_IMC(17, 0), SPR_IMC(18, 0), SPR_IMC(19, 0), SPR_IMC(20, 0),
	{ .first = 29, .last = 29, .type = "HBM_M2M", .name = "HBM Mesh to Memory", .codes = &spr_m2m },
	SPR_IMC(30, 1), SPR_IMC(31, 1),
};
const struct intel_model intel_sapphirerapids_x = INTEL_MODEL(sapphire_banks,
	"SDM Vol. 3B, Incremental Decoding Information: Processor Family 06H Model 8FH");

/* ==== Granite Rapids (06_ADH/AEH), Sierra Forest (06_AFH) ====
 * SDM "Incremental Decoding Information: Processor Family 06H Models ADH,
 * AEH, AFH" (Xeon 6): MC5 UPI, MC6 Punit, MC12 B2CMI, MC13..MC24 memory
 * controller channels.  MC channel MSCOD: group in bits 31:24, code in
 * 23:16; MISC[57:55] is the chip select when STATUS[33] says MISC holds
 * the DRAM location.  Mnemonics: the SDM table's names as printed by
 * mcelog's granite.c (mcchan_0..mcchan_32, b2cmi_1; fact source for the
 * names only).
 */
static const struct intel_code gnr_mcchan_rows[] = {
	IMC_CODE(0x00, 0x01, "Address parity error", "Address Parity Error (APPP)"),
	IMC_CODE(0x00, 0x02, "Write data parity error on sub-channel 0", "CMI Wr data parity Error on sCH0"),
	IMC_CODE(0x00, 0x03, "ECC error on sub-channel 0", "CMI Uncorr/Corr ECC error on sCH0"),
	IMC_CODE(0x00, 0x08, "Corrected patrol scrub error", "Corr Patrol Scrub Error"),
	IMC_CODE(0x00, 0x10, "Uncorrected patrol scrub error", "UnCorr Patrol Scrub Error"),
	IMC_CODE(0x00, 0x20, "Corrected sparing error", "Corr Spare Error"),
	IMC_CODE(0x00, 0x40, "Uncorrected sparing error", "UnCorr Spare Error"),
	IMC_CODE(0x00, 0x80, "Transient or corrected error on a demand or underfill read",
		 "Transient or Correctable Error for Demand or Underfill Reads"),
	IMC_CODE(0x00, 0xa0, "Uncorrected error on a demand or underfill read",
		 "Uncorrectable Error for Demand or Underfill Reads"),
	IMC_CODE(0x00, 0xb0, "Poison read from memory while poisoning is disabled",
		 "Poison was read from memory when poison was disabled in memory controller"),
	IMC_CODE(0x00, 0xc0, "2LM metadata read error", "Read 2LM MetaData Error"),
	IMC_CODE(0x01, 0x08, "DDR link failure", "DDR Link Fail"),
	IMC_CODE(0x02, 0x00, "DDR command/address parity or write CRC error", "DDR CAParity or WrCRC Error"),
	IMC_CODE(0x04, 0x00, "Scheduler address parity error", "Scheduler address parity error"),
	IMC_CODE(0x20, 0x03, "ECC error on sub-channel 1", "CMI Uncorr/Corr ECC error on sCH1"),
};
static const struct intel_code_table gnr_mcchan = CODE_TABLE(gnr_mcchan_rows);

static const struct intel_code gnr_b2cmi_rows[] = {
	STATUS_FIELD_MN(31, 16, 0x01, "Read ECC error", "Read ECC error"),
	STATUS_FIELD_MN(31, 16, 0x02, "Fatal bucket-1 error", "Bucket1 error"),
	STATUS_FIELD_MN(31, 16, 0x03, "Tracker parity error", "Tracker Parity error"),
	STATUS_FIELD_MN(31, 16, 0x04, "Security mismatch", "Security mismatch"),
	STATUS_FIELD_MN(31, 16, 0x09, "Timeout", "Timeout error"),
	STATUS_FIELD_MN(31, 16, 0x0a, "Address parity error", "Address parity error"),
};
static const struct intel_code_table gnr_b2cmi = CODE_TABLE(gnr_b2cmi_rows);

static const struct intel_bank granite_banks[] = {
	CORE_BANKS,
	{ .first = 5, .last = 5, .type = "UPI", .name = "Ultra Path Interconnect" },
	{ .first = 6, .last = 6, .type = "PUNIT", .name = "Power Management Unit" },
	{ .first = 12, .last = 12, .type = "B2CMI", .name = "Mesh to Memory (B2CMI)", .codes = &gnr_b2cmi },
	{ .first = 13, .last = 24, .type = "MCCHAN", .name = "Memory Controller Channel",
	  .codes = &gnr_mcchan, .misc = INTEL_MISC_CS_57_55, .cell = &intel_dram_misc_gnr },
};
const struct intel_model intel_graniterapids_x = INTEL_MODEL(granite_banks,
	"SDM Vol. 3B, Incremental Decoding Information: Processor Family 06H Models ADH, AEH, AFH");

/* ==== Diamond Rapids (13_01H) ====
 * Intel Architecture Instruction Set Extensions and Future Features
 * Programming Reference, September 2025 edition, chapter 17 ("Machine
 * Check Error Codes" of the Diamond Rapids server), which Intel's own public
 * decoder, mcelog diamond.c (commit bcd71be, Qiuxu Zhuo), cites and
 * rasdaemon's mce-intel-diamond.c repeats.  We could not read that edition;
 * the facts (bank numbers, codes, bit positions) are those two decoders',
 * used as a fact source only, and the wording is ours:
 *   MC4      CBB (compute die) Punit: MCACOD 040BH is a Scan-at-Field
 *            error; otherwise MSCOD[15:8] selects a group, MSCOD[7:0] the code
 *   MC11     IMH (memory and I/O hub die) Punit: MSCOD[15:8], when not
 *            zero, is the firmware code; else MSCOD[7:0] the hardware one
 *   MC18     UPI: group in MSCOD[15:8], code in MSCOD[7:0]
 *   MC19-26  memory controller channels of the IMH that logged them, one
 *            channel per bank; group in MSCOD[15:8], code in MSCOD[7:0]
 * Which of the two IMHs logged a bank is APIC ID bit 2 of the CPU that
 * read it; the channel across the socket is (bank - 19) + 8 * IMH.  The
 * banks mcelog leaves unnamed (MC0-3, MC5-10, MC12-17) report "unknown".
 * The core banks MC0-3 in particular stay architectural only: neither
 * decoder names them or lists a code for them (rasdaemon's file, at
 * commit 36299a9, is its port of mcelog v210 and covers the same
 * banks), the only edition of the Programming Reference we could read is
 * 319433-038 (March 2020), older than this family, and the SDM's core-bank
 * layout of the 06H servers (CORE_BANKS) is not assumed for family 13H.
 * mcelog's one published record of this model, input/dmr_dcu_srar (bank 1),
 * is a test of that: it decodes by MCACOD alone (test-decode-diamond).
 * Mnemonics: the names those decoders print, kept where users search for
 * them (the MSCOD, STATUS[31:16], travels with them as details.mnemonic).
 */
#define DMR_CODE(group, code, t, mn) MSCOD_IS_MN(((group) << 8) | (code), t, mn)

static const struct intel_code dmr_cbb_punit_rows[] = {
	{ .mask = 0xffff, .value = 0x040b, .text = "Scan-at-Field (in-field scan) test found a fault" },
	DMR_CODE(0x00, 0x01, "Machine check while CR4.MCE was clear", "CR4_MCE_CLEAR"),
	DMR_CODE(0x00, 0x02, "Machine check while MCIP was already set", "MCE_MCIP_SET"),
	DMR_CODE(0x00, 0x03, "Machine check while waiting for SIPI", "MCE_UNDER_WFS"),
	DMR_CODE(0x00, 0x04, "Unrecoverable error during a security flow (handshake)", "MCE_LT_HANDSHAKE"),
	DMR_CODE(0x00, 0x05, "Shutdown on a software triple fault", "TRIPLE_FAULT"),
	DMR_CODE(0x00, 0x06, "VMX exit consistency check failed", "VMX_ABORT"),
	DMR_CODE(0x00, 0x07, "RSM consistency check failed", "RSM_CONSISTENCY_FAIL"),
	DMR_CODE(0x00, 0x08, "Invalid conditions on protected-mode SMM entry", "SMM_PROTECTED_ENTRY_FAIL"),
	DMR_CODE(0x00, 0x09, "Unrecoverable error during a security flow (microcode patch load)",
		 "UCODE_PATCH_LOAD_FAIL"),
	DMR_CODE(0x08, 0x16, "DVFS counter expired", "MCA_DVFS_COUNTER_EXPIRED"),
	DMR_CODE(0x08, 0x23, "Unsupported response", "MCA_UNSUPP_RESP"),
	DMR_CODE(0x08, 0x25, "Functional-safety memory built-in self test failed", "MCA_FUSA_MBIST"),
	DMR_CODE(0x08, 0x26, "System agent PLL lock error", "MCA_SA_PLL_LOCKED"),
	DMR_CODE(0x08, 0x27, "Crystal frequency monitor error", "MCA_XTAL_FREQ_MON_ERROR"),
	DMR_CODE(0x08, 0x28, "Fuse puller error on the power-management sideband", "MCA_PMSB_FUSE_PULLER_ERROR"),
	DMR_CODE(0x08, 0x29, "Fuse puller error on the general-purpose sideband", "MCA_GPSB_FUSE_PULLER_ERROR"),
	DMR_CODE(0x08, 0x30, "Power-management firmware (pcode) watchdog expired", "MCA_PCODE_WATCHDOG"),
	DMR_CODE(0x08, 0x31, "Bandgap reference functional-safety error", "MCA_BGR_FUSA_ERR"),
	DMR_CODE(0x08, 0x32, "Core integrated voltage regulator error", "MCA_CORE_FIVR_ERR"),
	DMR_CODE(0x08, 0x33, "Die-to-die integrated voltage regulator error", "MCA_D2D_FIVR_ERR"),
	DMR_CODE(0x08, 0x34, "Mid-level cache integrated voltage regulator error", "MCA_MLC_FIVR_ERR"),
	DMR_CODE(0x08, 0x35, "Ring integrated voltage regulator error", "MCA_RING_FIVR_ERR"),
	DMR_CODE(0x08, 0x36, "Die-to-die PLL functional-safety error 0", "MCA_D2D_MONF_PLL_FUSA_0"),
	DMR_CODE(0x08, 0x37, "Die-to-die PLL functional-safety error 1", "MCA_D2D_MONF_PLL_FUSA_1"),
	DMR_CODE(0x08, 0x38, "TOP0 PLL functional-safety error", "MCA_TOP0_FUSA_PLL_ERR"),
	DMR_CODE(0x08, 0x39, "Base PLL functional-safety error", "MCA_BASE_FUSA_PLL_ERR"),
	DMR_CODE(0x08, 0x40, "UCIe reset: bus stopped on an error", "MCA_UCIE_RESET_BUS_STOP_ON_ERROR"),
	DMR_CODE(0x08, 0x41, "Resource adaptation 0 error", "MCA_RSRC_ADAPT_0_ERR"),
	DMR_CODE(0x08, 0x42, "Resource adaptation 1 error", "MCA_RSC_ADAPT_1_ERR"),
	DMR_CODE(0x08, 0x45, "TOP1 PLL functional-safety error", "MCA_TOP1_FUSA_PLL_ERR"),
	DMR_CODE(0x08, 0x46, "TOP2 PLL functional-safety error", "MCA_TOP2_FUSA_PLL_ERR"),
	DMR_CODE(0x08, 0x47, "TOP3 PLL functional-safety error", "MCA_TOP3_FUSA_PLL_ERR"),
	DMR_CODE(0x08, 0x48, "Microcode patch load was not acknowledged", "UC_PATCH_LOAD_ACK_ERROR"),
	DMR_CODE(0x0c, 0x01, "Power-management microcontroller: double-bit error in instruction RAM",
		 "MCA_UC_IRAM_DOUBLE_ERROR"),
	DMR_CODE(0x0c, 0x02, "Power-management microcontroller: double exception", "MCA_UC_DOUBLE_EXCEPTION_ERROR"),
	DMR_CODE(0x0c, 0x03, "Power-management microcontroller: telemetry SRAM error", "MCA_UC_TELEM_SRAM_ERROR"),
	DMR_CODE(0x0c, 0x04, "Power-management microcontroller: double-bit error in data RAM",
		 "MCA_UC_DRAM_DOUBLE_ERROR"),
	DMR_CODE(0x0c, 0x05, "Power-management microcontroller: TPMI SRAM error", "MCA_UC_TPMI_SRAM_ERROR"),
	DMR_CODE(0x14, 0x01, "Integrated voltage regulator current high (yellow)", "MCA_FIVR_HI_YELLOW"),
	DMR_CODE(0x14, 0x02, "Integrated voltage regulator current high (red)", "MCA_FIVR_HI_RED"),
};
static const struct intel_code_table dmr_cbb_punit = CODE_TABLE(dmr_cbb_punit_rows);

/* The firmware codes (MSCOD[15:8] not zero) first, whatever MSCOD[7:0] holds; then the hardware ones. */
#define DMR_IMH_FW(v, t, mn) STATUS_FIELD_MN(31, 24, v, t, mn)
static const struct intel_code dmr_imh_punit_rows[] = {
	DMR_IMH_FW(0x09, "TSC download timed out", "MCA_TSC_DOWNLOAD_TIMEOUT"),
	DMR_IMH_FW(0x0a, "Crystal frequency out of the valid range", "MCA_INVALID_XTALFREQ_RANGE"),
	DMR_IMH_FW(0x0b, "General-purpose sideband timed out", "MCA_GPSB_TIMEOUT"),
	DMR_IMH_FW(0x0c, "Power-management sideband timed out", "MCA_PMSB_TIMEOUT"),
	DMR_IMH_FW(0x0d, "Configuration acknowledgement timed out", "MCA_CFG_ACK_TIMEOUT"),
	DMR_IMH_FW(0x23, "Voltage regulator (SVID) error", "MCA_PCU_SVID_ERROR"),
	DMR_IMH_FW(0x35, "Voltage regulator load line invalid", "MCA_SVID_LOADLINE_INVALID"),
	DMR_IMH_FW(0x36, "Voltage regulator maximum current invalid", "MCA_SVID_ICCMAX_INVALID"),
	DMR_IMH_FW(0x4a, "Integrated voltage regulator hard fault", "MCA_FIVR_PD_HARDERR"),
	DMR_IMH_FW(0x4c, "Double-bit ECC error in the HPM memory", "MCA_HPM_DOUBLE_BIT_ERROR_DETECTED"),
	DMR_IMH_FW(0x58, "Invalid memory frequency", "MCA_INVALID_MEMORY_FREQUENCY"),
	DMR_IMH_FW(0x63, "VCCIN voltage regulator protocol error", "MCA_SVID_VCCIN_PROTOCOL_ERROR"),
	DMR_IMH_FW(0x6a, "Soft post-package repair timed out", "MCA_SPPR_TIMEOUT"),
	DMR_IMH_FW(0x6f, "Invalid socket ID", "MCA_INVALID_SID_ERROR"),
	DMR_IMH_FW(0x70, "Invalid remote legacy agent", "MCA_INVALID_REMOTE_LEGACY_AGENT_ERROR"),
	DMR_IMH_FW(0x71, "Invalid remote trusted-execution agent", "MCA_INVALID_REMOTE_LT_AGENT_ERROR"),
	DMR_IMH_FW(0x7b, "Thermal sensor invalid", "MCA_THERMAL_SENSOR_INVALID"),
	DMR_IMH_FW(0x7c, "CXL device has no credit", "MCA_CXL_DEVICE_NO_CREDIT"),
	DMR_IMH_FW(0x7e, "Die too hot, recoverable thermal event", "MCA_RECOVERABLE_DIE_THERMAL_TOO_HOT"),
	DMR_IMH_FW(0x83, "Package reset-prepare acknowledgement timed out (recoverable)",
		   "MCA_PKGS_RECOVERABLE_RESET_PREP_ACK_TIMEOUT"),
	MSCOD_IS(0x02, "Power-management microcontroller: double-bit ECC error"),
	MSCOD_IS(0x03, "Power-management microcontroller: double-bit ECC error"),
	MSCOD_IS(0x08, "Power-management microcontroller error"),
	MSCOD_IS(0x09, "Power-management microcontroller error"),
	MSCOD_IS(0x0a, "Power-management microcontroller: patch load error"),
	MSCOD_IS(0x0b, "Power-management microcontroller: POReqValid error"),
	MSCOD_IS(0x0c, "Power-management microcontroller: RAM address error"),
	MSCOD_IS(0x0d, "Power-management microcontroller: RAM access error"),
	MSCOD_IS(0x10, "Pcode watchdog expired (MISC model-specific information 1) or TeleSRAM double-bit "
		 "ECC error (information 3)"),
	MSCOD_IS(0x20, "Power management agent signalled an error"),
	MSCOD_IS(0x30, "Power-management microcontroller error"),
	MSCOD_IS(0xa0, "Double-bit ECC error in the HPM SRAM"),
	MSCOD_IS(0xb0, "Double-bit ECC error in the TPMI SRAM"),
};
static const struct intel_code_table dmr_imh_punit = CODE_TABLE(dmr_imh_punit_rows);

static const struct intel_code dmr_upi_rows[] = {
	MSCOD_IS(0x0000, "Internal parity error"),
	MSCOD_IS(0x0001, "Internal parity error"),
	MSCOD_IS(0x0002, "Internal parity error"),
	MSCOD_IS(0x0005, "Internal parity error"),
	MSCOD_IS(0x0008, "Internal queue overflow"),
	MSCOD_IS(0x0009, "UPI link layer buffer overflow"),
	MSCOD_IS(0x000a, "Internal queue underflow"),
	MSCOD_IS(0x000b, "UPI link layer buffer underflow"),
	MSCOD_IS(0x000c, "Link layer or internal credit overflow"),
	MSCOD_IS(0x0011, "Internal queue overflow"),
	MSCOD_IS(0x0012, "Internal queue overflow"),
	MSCOD_IS(0x0013, "Internal queue underflow"),
	MSCOD_IS(0x0014, "Internal queue underflow"),
	MSCOD_IS(0x0021, "Internal interface error"),
	MSCOD_IS(0x0023, "Invalid message"),
	MSCOD_IS(0x0024, "UPI protocol error"),
	MSCOD_IS(0x0025, "UPI interleave error"),
	MSCOD_IS(0x0028, "Internal interface error"),
	MSCOD_IS(0x0029, "Link integrity or initialisation error"),
	MSCOD_IS(0x002a, "Power-management transition timed out"),
	MSCOD_IS(0x002b, "Power-management transition timed out"),
	MSCOD_IS(0x002c, "Power-management transition timed out"),
	MSCOD_IS(0x002d, "Power-management transition timed out"),
	MSCOD_IS(0x0030, "Poison received while poisoning is disabled"),
	MSCOD_IS(0x0031, "Internal interface error"),
	MSCOD_IS(0x0200, "Link integrity or initialisation error"),
	MSCOD_IS(0x0203, "Link degraded"),
	MSCOD_IS(0x0204, "Power-management transition timed out"),
	MSCOD_IS(0x0205, "Power-management transition timed out"),
	MSCOD_IS(0x0206, "Power-management transition timed out"),
	MSCOD_IS(0x0207, "Power-management transition timed out"),
};
static const struct intel_code_table dmr_upi = CODE_TABLE(dmr_upi_rows);

static const struct intel_code dmr_mcchan_rows[] = {
	DMR_CODE(0x00, 0x01, "Request address parity error", "CMI Request Address Parity Error (APPP)"),
	DMR_CODE(0x00, 0x02, "Write data parity error", "CMI Wr data parity error"),
	DMR_CODE(0x00, 0x04, "Write byte-enable parity error", "CMI Wr BE parity error"),
	DMR_CODE(0x00, 0x08, "Transient or corrected error on a patrol read",
		 "Transient or Correctable Error for Patrol Reads"),
	DMR_CODE(0x00, 0x10, "Uncorrected patrol scrub error", "UnCorr Patrol Scrub Error"),
	DMR_CODE(0x00, 0x20, "Transient or corrected error on a sparing read",
		 "Nontransient or Transient ectable Error for Spare Reads"),
	DMR_CODE(0x00, 0x40, "Uncorrected sparing error", "UnCorr Spare Error"),
	DMR_CODE(0x00, 0x80, "Transient or corrected error on a demand or underfill read",
		 "Transient or Correctable Error for Demand or Underfill Reads"),
	DMR_CODE(0x00, 0xa0, "Uncorrected error on a demand or underfill read",
		 "Uncorrectable Error for Demand or Underfill Reads"),
	DMR_CODE(0x00, 0xb0, "Poisoned data read while poisoning is disabled",
		 "Poisoned Read Data when Poison Disabled"),
	DMR_CODE(0x00, 0xc0, "2LM metadata read error (demand, underfill, patrol or sparing read)",
		 "Read 2LM MetaData Error for Demand, Underfill, or Patrol/Spare"),
	DMR_CODE(0x01, 0x02, "Write data buffer read ECC error", "WDB Read ECC Error"),
	DMR_CODE(0x01, 0x04, "Write data buffer byte-enable read parity error", "WDB BE Read Parity Error"),
	DMR_CODE(0x01, 0x06, "Write data buffer persistent read ECC error", "WDB Read Persistent ECC Error"),
	DMR_CODE(0x01, 0x08, "DDR link failure", "DDR Link Fail"),
	DMR_CODE(0x01, 0x09, "Illegal incoming opcode", "Illegal incoming opcode"),
	DMR_CODE(0x02, 0x00, "DDR command/address parity or write CRC error", "DDR CAParity or WrCRC Error"),
	DMR_CODE(0x02, 0x40, "Decoder structure error", "Decoder structure error"),
	DMR_CODE(0x04, 0x00, "Memory controller internal address parity error", "MC internal address parity error"),
	DMR_CODE(0x08, 0x13, "Memory interface credit oversubscription", "CMI Credit Oversubscription Error"),
	DMR_CODE(0x08, 0x14, "Memory interface total credit count error", "CMI Total Credit Count Error"),
	DMR_CODE(0x08, 0x15, "Memory interface reserved credit pool error", "CMI Reserved Credit Pool Error"),
	DMR_CODE(0x08, 0x32, "Memory controller internal error", "MC Internal Errors"),
	DMR_CODE(0x08, 0x34, "Memory controller tracker read-completion parity error",
		 "MC Tracker RDCMP RF parity error"),
	DMR_CODE(0x08, 0x36, "Memory controller tracker write-completion parity error",
		 "MC Tracker WRCMP RF parity error"),
};
static const struct intel_code_table dmr_mcchan = CODE_TABLE(dmr_mcchan_rows);

static const struct intel_bank diamond_banks[] = {
	{ .first = 4, .last = 4, .type = "CBB_PUNIT", .name = "Compute Die Power Management Unit",
	  .codes = &dmr_cbb_punit },
	{ .first = 11, .last = 11, .type = "IMH_PUNIT", .name = "Memory/IO Hub Power Management Unit",
	  .codes = &dmr_imh_punit },
	{ .first = 18, .last = 18, .type = "UPI", .name = "Ultra Path Interconnect", .codes = &dmr_upi },
	{ .first = 19, .last = 26, .type = "MCCHAN", .name = "Memory Controller Channel",
	  .codes = &dmr_mcchan, .misc = INTEL_MISC_DMR_MCCHAN, .cell = &intel_dram_misc_dmr },
};
const struct intel_model intel_diamondrapids_x = INTEL_MODEL(diamond_banks,
	"Intel ISA Extensions and Future Features Programming Reference (Sept. 2025), ch. 17, "
	"as mcelog diamond.c cites it");

/* ==== Grand Ridge (06_B6H) ====
 * No bank layout is documented in the SDM edition we follow; the model is
 * named, its banks report as "unknown".
 */
const struct intel_model intel_atom_server = {
	.banks = NULL, .n_banks = 0, .source = "none: architectural decode only",
};
