/* SPDX-License-Identifier: MIT */
/*
 * Zhaoxin server CPUs: bank names and model-specific codes of the KH-40000
 * (family 07H, model 5BH) and KH-50000 (07H, 7BH).  Zhaoxin's MCA follows
 * Intel's architecture (the same STATUS bits and MCACOD classes, decoded
 * by x86-arch.c), so its model tables take the Intel table shape (intel.h)
 * and the generic Intel walker decodes them.
 *
 * Zhaoxin publishes no machine-check manual we could find.  The public
 * record of these layouts is the decoders Zhaoxin contributed, read as fact
 * sources only (bank numbers, bit positions, what each code means):
 *   KH-50000: rasdaemon events-arch-x86/mce-zhaoxin-kh50000.c (pull request
 *     239, Lyle Li, 2026), which mcelog's zhaoxin-kh50000.c repeats;
 *   KH-40000: mcelog zhaoxin-kh40000.c (andikleen/mcelog pull request 126,
 *     Marcelo, ported by Lyle Li, 2026).  Its numeric fields are given as
 *     inclusive bit ranges ("16, 17" for the core): we read them so (mcelog's
 *     own printer drops the top bit of each).
 * The model numbers: rasdaemon's detect_cpu() for the KH-50000 (either
 * vendor string, family 7, model 0x7b), and for the KH-40000 Zhaoxin's
 * uncore PMU driver in the deepin kernel (ZHAOXIN_FAM7_KH40000, written
 * 0x5b in its earlier version).  The texts are our wording.
 */
#include "intel.h"

/* ---- shared by both models ---- */

/* PCIe root port errors: the device in MISC (as for the architectural I/O MCA). */
#define PCIE_BDF_FIELDS \
	MISC_NUM(18, 16, "pcie_function"), MISC_NUM(23, 19, "pcie_device"), \
	MISC_NUM(31, 24, "pcie_bus"), MISC_NUM(39, 32, "pcie_segment")

static const struct intel_field pcie_fields[] = { PCIE_BDF_FIELDS };
static const struct intel_field_set pcie_sets[] = { FIELD_SET(0, 0, pcie_fields) };

static const struct intel_field svid_fields[] = { MISC_NUM(25, 24, "vrm") };
static const struct intel_field_set svid_sets[] = { FIELD_SET(0, 0, svid_fields) };

/* ==== KH-50000 ==== */

/* The die and core a CPU-side bank names. */
#define KH50000_CORE_FIELDS \
	FIELD_NUM(18, 16, "core_id", 0), FIELD_NUM(22, 19, "ccd_id", 0), FIELD_NUM(24, 23, "siod_id", 0)
static const struct intel_field kh50000_core_fields[] = { KH50000_CORE_FIELDS };
static const struct intel_field_set kh50000_core_sets[] = { FIELD_SET(0, 0, kh50000_core_fields) };

static const struct intel_code kh50000_cpu_rows[] = {
	STATUS_FIELD(29, 25, 2, "Machine hung"),
	STATUS_FIELD(29, 25, 3, "Undefined microcode address"),
};
static const struct intel_code_table kh50000_cpu = CODE_TABLE(kh50000_cpu_rows);

static const struct intel_code kh50000_pl2_rows[] = {
	STATUS_FIELD(25, 24, 1, "ECC single-bit error in the data, same line"),
	STATUS_FIELD(25, 24, 2, "ECC single-bit error, different line"),
	STATUS_FIELD(25, 24, 3, "ECC multi-bit error in the data"),
};
static const struct intel_code_table kh50000_pl2 = CODE_TABLE(kh50000_pl2_rows);

static const struct intel_code kh50000_llc_rows[] = {
	STATUS_FIELD(26, 25, 1, "ECC single-bit error in the data, same line"),
	STATUS_FIELD(26, 25, 2, "ECC single-bit error, different line"),
	STATUS_FIELD(26, 25, 3, "ECC multi-bit error in the data"),
};
static const struct intel_code_table kh50000_llc = CODE_TABLE(kh50000_llc_rows);

static const struct intel_code kh50000_pcie_rows[] = {
	STATUS_FIELD(23, 16, 0, "PCIe fatal error"),
	STATUS_FIELD(23, 16, 1, "PCIe non-fatal error"),
	STATUS_FIELD(23, 16, 2, "PCIe correctable error"),
};
static const struct intel_code_table kh50000_pcie = CODE_TABLE(kh50000_pcie_rows);

/* The die-to-die (ZDI) and socket-to-socket (ZPI) links of the I/O die: MSCOD, whole. */
static const struct intel_code kh50000_link_rows[] = {
	MSCOD_IS(1, "Receiver overflow (transaction layer)"),
	MSCOD_IS(2, "Flow control protocol error (transaction layer)"),
	MSCOD_IS(3, "Surprise down"),
	MSCOD_IS(4, "Data link protocol error"),
	MSCOD_IS(5, "Replay timer timeout (data link layer)"),
	MSCOD_IS(6, "REPLAY_NUM rollover (data link layer)"),
	MSCOD_IS(7, "Bad data link layer packet"),
	MSCOD_IS(8, "Bad transaction layer packet"),
	MSCOD_IS(9, "Receiver error (physical layer)"),
	MSCOD_IS(10, "Physical layer training error"),
	MSCOD_IS(11, "Link width reduced: link unreliable"),
	MSCOD_IS(14, "Link speed reduced: link unreliable"),
	MSCOD_IS(16, "Link width reduced from x32/x24: link unreliable"),
	MSCOD_IS(17, "Link width reduced from x16/x12: link unreliable"),
	MSCOD_IS(18, "Link width reduced from x8: link unreliable"),
	MSCOD_IS(19, "Link width reduced from x4: link unreliable"),
	MSCOD_IS(20, "Link width reduced from x2: link unreliable"),
	MSCOD_IS(21, "Link speed reduced from Gen4: link unreliable"),
	MSCOD_IS(22, "Link speed reduced from Gen3: link unreliable"),
	MSCOD_IS(23, "Link speed reduced from Gen2: link unreliable"),
};
static const struct intel_code_table kh50000_link = CODE_TABLE(kh50000_link_rows);

/* MISC names the port: the highest bit set is its number (one bit per port). */
static const struct intel_value zdi_ports[] = {
	{ 0x01, "zdi0" }, { 0x02, "zdi1" }, { 0x04, "zdi2" }, { 0x08, "zdi3" }, { 0x10, "zdi4" }, { 0x20, "zdi5" },
};
static const struct intel_field iod_zdi_fields[] = { MISC_ENUM(30, 25, "zdi_port", zdi_ports) };
static const struct intel_field_set iod_zdi_sets[] = { FIELD_SET(0, 0, iod_zdi_fields) };

static const struct intel_value zpi_ports[] = { { 0x1, "zpi0" }, { 0x2, "zpi1" }, { 0x4, "zpi2" } };
static const struct intel_field zpi_fields[] = { MISC_ENUM(27, 25, "zpi_port", zpi_ports) };
static const struct intel_field_set zpi_sets[] = { FIELD_SET(0, 0, zpi_fields) };

/* The compute die's link to the I/O die. */
static const struct intel_code kh50000_ccd_zdi_rows[] = {
	STATUS_FIELD(29, 25, 1, "Receive overflow"),
	STATUS_FIELD(29, 25, 2, "Physical layer training error"),
	STATUS_FIELD(29, 25, 3, "Flow control protocol error"),
	STATUS_FIELD(29, 25, 4, "Surprise down"),
	STATUS_FIELD(29, 25, 5, "Data link protocol error"),
	STATUS_FIELD(29, 25, 6, "Data link replay timeout"),
	STATUS_FIELD(29, 25, 7, "Data link replay number rollover"),
	STATUS_FIELD(29, 25, 8, "Bad data link layer packet"),
	STATUS_FIELD(29, 25, 9, "Bad transaction layer packet"),
	STATUS_FIELD(29, 25, 10, "Unreliable at Gen2 speed"),
	STATUS_FIELD(29, 25, 11, "Unreliable at Gen3 speed"),
	STATUS_FIELD(29, 25, 12, "Unreliable at Gen4 speed"),
	STATUS_FIELD(29, 25, 13, "Unreliable at x2 width"),
	STATUS_FIELD(29, 25, 14, "Unreliable at x4 width"),
	STATUS_FIELD(29, 25, 15, "Unreliable at x8 width"),
	STATUS_FIELD(29, 25, 16, "Unreliable at x16/x12 width"),
	STATUS_FIELD(29, 25, 17, "Unreliable at x32/x24 width"),
};
static const struct intel_code_table kh50000_ccd_zdi = CODE_TABLE(kh50000_ccd_zdi_rows);

/* Voltage regulators (SVID): the code in MSCOD[15:8], the regulator in MISC. */
#define SVID_ROWS(hi, lo) \
	STATUS_FIELD(hi, lo, 1, "Voltage regulator: SVID resend failed"), \
	STATUS_FIELD(hi, lo, 2, "Voltage regulator over current"), \
	STATUS_FIELD(hi, lo, 3, "Voltage regulator over temperature"), \
	STATUS_FIELD(hi, lo, 4, "Voltage regulator parity error")
static const struct intel_code kh50000_svid_rows[] = { SVID_ROWS(31, 24) };
static const struct intel_code_table kh50000_svid = CODE_TABLE(kh50000_svid_rows);

/* DRAM channels: the internal error code is the whole MSCOD. */
static const struct intel_code kh50000_dram_rows[] = {
	MSCOD_IS(1, "Single-bit ECC error"),
	MSCOD_IS(2, "Multi-bit ECC error"),
	MSCOD_IS(3, "Command parity error"),
	MSCOD_IS(4, "Write CRC error"),
	MSCOD_IS(5, "Parity error, retry failed"),
	MSCOD_IS(6, "CRC error, retry failed"),
	MSCOD_IS(7, "CPU interface channel A0 DVAD decode error"),
	MSCOD_IS(8, "CPU interface channel B0 DVAD decode error"),
	MSCOD_IS(9, "CPU interface channel A1 DVAD decode error"),
	MSCOD_IS(10, "CPU interface channel B1 DVAD decode error"),
	MSCOD_IS(11, "Memory controller transfer (MCUTRF) DVAD decode error"),
	MSCOD_IS(12, "GMINT channel A0 DVAD decode error"),
	MSCOD_IS(13, "GMINT channel B0 DVAD decode error"),
	MSCOD_IS(14, "GMINT channel A1 DVAD decode error"),
	MSCOD_IS(15, "GMINT channel B1 DVAD decode error"),
	MSCOD_IS(16, "Key not hit"),
};
static const struct intel_code_table kh50000_dram = CODE_TABLE(kh50000_dram_rows);

/* The channel code of MCACOD's 1MMMCCCC names a channel of the socket. */
static const struct intel_value kh50000_channels[] = {
	{ 0, "A0" }, { 1, "B0" }, { 2, "A1" }, { 3, "B1" }, { 4, "C0" }, { 5, "C1" },
	{ 6, "A2" }, { 7, "B2" }, { 8, "C2" }, { 9, "A3" }, { 10, "B3" }, { 11, "C3" },
};
/* MMM: the architecture's five, and three Zhaoxin's own. */
static const struct intel_value kh50000_mem_kinds[] = {
	{ 0, "generic" }, { 1, "read" }, { 2, "write" }, { 3, "address/command" }, { 4, "scrubbing" },
	{ 5, "data poison from the DRAM controller, normal read" },
	{ 6, "data poison from the DRAM controller, patrol read" },
	{ 7, "key hit" },
};
static const struct intel_value kh50000_addr_modes[] = { { 2, "SVA" } };

#define KH_DRAM_MISC_FIELDS(modes) \
	MISC_NUM(63, 31, "crc_parity_log"), MISC_NUM(26, 25, "rank"), \
	MISC_NUM(16, 9, "ecc_syndrome_bit"), MISC_ENUM(8, 6, "address_mode", modes)

static const struct intel_field kh50000_dram_dvad[] = {
	FIELD_FLAG(0, "dvad_error", "DVAD error"), KH_DRAM_MISC_FIELDS(kh50000_addr_modes),
};
static const struct intel_field kh50000_dram_parity[] = {
	FIELD_FLAG(2, "parity_error", "parity error"), KH_DRAM_MISC_FIELDS(kh50000_addr_modes),
};
static const struct intel_field kh50000_dram_mc[] = {
	FIELD_ENUM(3, 0, "channel_name", kh50000_channels), FIELD_ENUM(6, 4, "memory_error", kh50000_mem_kinds),
	KH_DRAM_MISC_FIELDS(kh50000_addr_modes),
};
static const struct intel_field kh50000_dram_other[] = { KH_DRAM_MISC_FIELDS(kh50000_addr_modes) };
static const struct intel_field_set kh50000_dram_sets[] = {
	FIELD_SET(0xffff, 0x0001, kh50000_dram_dvad),
	FIELD_SET(0xffff, 0x0005, kh50000_dram_parity),
	FIELD_SET(0xef80, 0x0080, kh50000_dram_mc),   /* memory controller errors (bit 12 is filtering) */
	FIELD_SET(0, 0, kh50000_dram_other),
};

static const struct intel_code kh50000_hif_rows[] = {
	STATUS_FIELD(23, 16, 1, "Host interface DVAD error"),
	STATUS_FIELD(23, 16, 2, "Snoop table multi-bit ECC error"),
	STATUS_FIELD(23, 16, 3, "Snoop table single-bit ECC error"),
	STATUS_FIELD(23, 16, 4, "CXL poison, uncorrected"),
	STATUS_FIELD(23, 16, 5, "CXL poison, corrected"),
	STATUS_FIELD(23, 16, 6, "CXL parity error"),
};
static const struct intel_code_table kh50000_hif = CODE_TABLE(kh50000_hif_rows);

#define KH50000_DRAM(a, b) { .first = a, .last = b, .type = "DRAM", .name = "Memory Controller Channel", \
	.codes = &kh50000_dram, FIELD_SETS(kh50000_dram_sets) }

static const struct intel_bank kh50000_banks[] = {
	{ .first = 0, .last = 0, .type = "CPU", .name = "Core", .codes = &kh50000_cpu,
	  FIELD_SETS(kh50000_core_sets) },
	{ .first = 1, .last = 1, .type = "PL2", .name = "Private Level-2 Cache", .codes = &kh50000_pl2 },
	{ .first = 2, .last = 2, .type = "PCIE", .name = "PCIe (CRMCA0)", .codes = &kh50000_pcie,
	  FIELD_SETS(pcie_sets) },
	{ .first = 3, .last = 3, .type = "IOD_ZDI", .name = "I/O Die ZDI Link (CRMCA0)", .codes = &kh50000_link,
	  FIELD_SETS(iod_zdi_sets) },
	{ .first = 4, .last = 4, .type = "SVID", .name = "Voltage Regulator Interface 0", .codes = &kh50000_svid,
	  FIELD_SETS(svid_sets) },
	{ .first = 5, .last = 5, .type = "IOD_ZDI", .name = "I/O Die ZDI Link (CRMCA1)", .codes = &kh50000_link,
	  FIELD_SETS(iod_zdi_sets) },
	{ .first = 6, .last = 6, .type = "PCIE", .name = "PCIe (CRMCA1)", .codes = &kh50000_pcie,
	  FIELD_SETS(pcie_sets) },
	{ .first = 7, .last = 7, .type = "CCD_ZDI", .name = "Compute Die ZDI Link", .codes = &kh50000_ccd_zdi,
	  FIELD_SETS(kh50000_core_sets) },
	KH50000_DRAM(9, 16),
	{ .first = 17, .last = 17, .type = "LLC", .name = "Last-Level Cache", .codes = &kh50000_llc,
	  FIELD_SETS(kh50000_core_sets) },
	KH50000_DRAM(18, 21),
	{ .first = 22, .last = 22, .type = "SVID", .name = "Voltage Regulator Interface 2", .codes = &kh50000_svid,
	  FIELD_SETS(svid_sets) },
	{ .first = 26, .last = 26, .type = "ZPI", .name = "Socket Link (ZPI)", .codes = &kh50000_link,
	  FIELD_SETS(zpi_sets) },
	{ .first = 27, .last = 27, .type = "SVID", .name = "Voltage Regulator Interface 1", .codes = &kh50000_svid,
	  FIELD_SETS(svid_sets) },
	{ .first = 28, .last = 28, .type = "HIF", .name = "Host Interface H0", .codes = &kh50000_hif },
	{ .first = 29, .last = 29, .type = "HIF", .name = "Host Interface H1", .codes = &kh50000_hif },
	{ .first = 30, .last = 30, .type = "HIF", .name = "Host Interface H2", .codes = &kh50000_hif },
	{ .first = 31, .last = 31, .type = "HIF", .name = "Host Interface H3", .codes = &kh50000_hif },
};
const struct intel_model zhaoxin_kh50000 = INTEL_MODEL(kh50000_banks,
	"rasdaemon mce-zhaoxin-kh50000.c (Zhaoxin's decoder, pull request 239)");

/* ==== KH-40000 ==== */

/* The CPU-side banks hold this layout only when MSCOD[15:14] (STATUS[31:30]) is 01b. */
#define KH40000_TYPE_MASK  UINT64_C(0xc0000000)
#define KH40000_TYPE_VALUE UINT64_C(0x40000000)
#define KH40000_CODE(v, t) { .mask = KH40000_TYPE_MASK | (UINT64_C(3) << 24), \
	.value = KH40000_TYPE_VALUE | ((uint64_t) (v) << 24), .text = t }

static const struct intel_field kh40000_core_fields[] = {
	FIELD_NUM(17, 16, "core_id", 0), FIELD_NUM(19, 18, "cluster_id", 0),
	FIELD_NUM(22, 20, "subnode_id", 0), FIELD_NUM(23, 23, "socket_id", 0),
};
static const struct intel_field_set kh40000_core_sets[] = {
	FIELD_SET(KH40000_TYPE_MASK, KH40000_TYPE_VALUE, kh40000_core_fields),
};

static const struct intel_code kh40000_cpu_rows[] = {
	KH40000_CODE(1, "Thermal trip"),
	KH40000_CODE(2, "Machine hung"),
	KH40000_CODE(3, "Undefined microcode address"),
};
static const struct intel_code_table kh40000_cpu = CODE_TABLE(kh40000_cpu_rows);

static const struct intel_code kh40000_cache_rows[] = {
	KH40000_CODE(1, "ECC single-bit error in the data, same line"),
	KH40000_CODE(2, "ECC single-bit error, different line"),
	KH40000_CODE(3, "ECC multi-bit error in the data"),
};
static const struct intel_code_table kh40000_cache = CODE_TABLE(kh40000_cache_rows);

static const struct intel_code kh40000_svid_rows[] = { SVID_ROWS(26, 24) };
static const struct intel_code_table kh40000_svid = CODE_TABLE(kh40000_svid_rows);

static const struct intel_code kh40000_zpi_rows[] = {
	STATUS_FIELD(19, 16, 1, "Receiver overflow"),
	STATUS_FIELD(19, 16, 2, "Flow control protocol error"),
	STATUS_FIELD(19, 16, 3, "Surprise down"),
	STATUS_FIELD(19, 16, 4, "Data link protocol error"),
	STATUS_FIELD(19, 16, 5, "Replay timer timeout"),
	STATUS_FIELD(19, 16, 6, "REPLAY_NUM rollover"),
	STATUS_FIELD(19, 16, 7, "Bad data link layer packet"),
	STATUS_FIELD(19, 16, 8, "Bad transaction layer packet"),
	STATUS_FIELD(19, 16, 9, "Receiver error"),
	STATUS_FIELD(19, 16, 10, "Unsupported or undefined packet"),
	STATUS_FIELD(19, 16, 11, "Link width reduced: link unreliable"),
	STATUS_FIELD(19, 16, 12, "Link speed reduced: link unreliable"),
};
static const struct intel_code_table kh40000_zpi = CODE_TABLE(kh40000_zpi_rows);
static const struct intel_value kh40000_links[] = {
	{ 0, "opi0" }, { 1, "opi1 (reserved)" }, { 2, "zpi" }, { 3, "unknown" },
};
static const struct intel_field kh40000_zpi_fields[] = { MISC_ENUM(26, 25, "link", kh40000_links) };
static const struct intel_field_set kh40000_zpi_sets[] = { FIELD_SET(0, 0, kh40000_zpi_fields) };

static const struct intel_code kh40000_pcie_rows[] = {
	STATUS_FIELD(17, 16, 0, "PCIe fatal error"),
	STATUS_FIELD(17, 16, 1, "PCIe non-fatal error"),
	STATUS_FIELD(17, 16, 2, "PCIe correctable error"),
};
static const struct intel_code_table kh40000_pcie = CODE_TABLE(kh40000_pcie_rows);

static const struct intel_code kh40000_dram_rows[] = {
	STATUS_FIELD(19, 16, 1, "Single-bit ECC error"),
	STATUS_FIELD(19, 16, 2, "Multi-bit ECC error"),
	STATUS_FIELD(19, 16, 3, "Command parity error"),
	STATUS_FIELD(19, 16, 4, "Write CRC error"),
	STATUS_FIELD(19, 16, 5, "Parity error, retry failed"),
	STATUS_FIELD(19, 16, 6, "CRC error, retry failed"),
	STATUS_FIELD(19, 16, 7, "CPU interface DVAD decode error"),
	STATUS_FIELD(19, 16, 8, "Memory controller transfer (MCUTRF) DVAD decode error"),
};
static const struct intel_code_table kh40000_dram = CODE_TABLE(kh40000_dram_rows);
static const struct intel_value kh40000_addr_modes[] = { { 2, "DRAMC" }, { 3, "DVAD" } };
static const struct intel_field kh40000_dram_dvad[] = {
	FIELD_FLAG(0, "dvad_error", "DVAD error"), KH_DRAM_MISC_FIELDS(kh40000_addr_modes),
};
static const struct intel_field kh40000_dram_other[] = { KH_DRAM_MISC_FIELDS(kh40000_addr_modes) };
static const struct intel_field_set kh40000_dram_sets[] = {
	FIELD_SET(0xffff, 0x0001, kh40000_dram_dvad),
	FIELD_SET(0, 0, kh40000_dram_other),
};

static const struct intel_bank kh40000_banks[] = {
	{ .first = 0, .last = 0, .type = "CPU", .name = "Core", .codes = &kh40000_cpu,
	  FIELD_SETS(kh40000_core_sets) },
	{ .first = 1, .last = 1, .type = "PL2", .name = "Private Level-2 Cache", .codes = &kh40000_cache,
	  FIELD_SETS(kh40000_core_sets) },
	{ .first = 4, .last = 4, .type = "SVID", .name = "Voltage Regulator Interface", .codes = &kh40000_svid,
	  FIELD_SETS(svid_sets) },
	{ .first = 5, .last = 5, .type = "ZPI", .name = "Socket Link (ZPI)", .codes = &kh40000_zpi,
	  FIELD_SETS(kh40000_zpi_sets) },
	{ .first = 6, .last = 6, .type = "PCIE", .name = "PCIe", .codes = &kh40000_pcie, FIELD_SETS(pcie_sets) },
	{ .first = 9, .last = 10, .type = "DRAM", .name = "Memory Controller Channel", .codes = &kh40000_dram,
	  FIELD_SETS(kh40000_dram_sets) },
	{ .first = 17, .last = 17, .type = "LLC", .name = "Last-Level Cache", .codes = &kh40000_cache,
	  FIELD_SETS(kh40000_core_sets) },
};
const struct intel_model zhaoxin_kh40000 = INTEL_MODEL(kh40000_banks,
	"mcelog zhaoxin-kh40000.c (Zhaoxin's decoder, andikleen/mcelog pull request 126)");

static const struct mce_model_decoder dec_kh40000 = {
	.name = "Zhaoxin KH-40000", .decode = intel_model_decode, .tables = &zhaoxin_kh40000,
};
static const struct mce_model_decoder dec_kh50000 = {
	.name = "Zhaoxin KH-50000", .decode = intel_model_decode, .tables = &zhaoxin_kh50000,
};

/* Zhaoxin ships these parts under both vendor strings: "  Shanghai  " and "CentaurHauls". */
#define ZX_ROW(vend, m, dec) { .vendor = vend, .family = 7, .model_first = m, .model_last = m, .decoder = &dec }

/* Sorted by (vendor, family, model) with no overlaps. */
const struct mce_model_match zhaoxin_model_matches[] = {
	ZX_ROW(MCE_VENDOR_ZHAOXIN, 0x5b, dec_kh40000),
	ZX_ROW(MCE_VENDOR_ZHAOXIN, 0x7b, dec_kh50000),
	ZX_ROW(MCE_VENDOR_CENTAUR, 0x5b, dec_kh40000),
	ZX_ROW(MCE_VENDOR_CENTAUR, 0x7b, dec_kh50000),
	{ .decoder = NULL },
};
