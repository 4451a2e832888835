/* SPDX-License-Identifier: MIT */
/*
 * AMD families 0Fh (K8) to 16h: fixed MCA banks, decoded by bank number.
 * K8 is read with its successors' tables (see rows_k8).
 *
 * Facts from the BIOS and Kernel Developer's Guides (BKDG), section "Machine
 * Check Architecture", MCi_STATUS error signature tables:
 *   Family 10h (pub. 31116), Family 11h (pub. 41256), Family 12h (pub. 41131),
 *   Family 14h Models 00h-0Fh (pub. 43170), Family 15h Models 00h-0Fh
 *   (pub. 42301), Family 16h Models 00h-0Fh (pub. 48751).
 * Which signatures exist per family is cross-checked against what Linux's
 * AMD EDAC decoder recognises; the wording is ours.
 *
 * An error signature is the error code class (MCACOD, bits 15:0: TLB, memory,
 * bus or internal, with their TT/LL/RRRR/II fields) plus the extended error
 * code (bits 20:16, or 19:16 on the families that define only four bits).
 */
#include "amd.h"
#include "macro.h"

/* MCACOD classes (mask, value), as in the BKDG "Error Code" tables. */
#define EC_ANY  0x0000, 0x0000
#define EC_TLB  0xfff0, 0x0010        /* 0000 0000 0001 TTLL */
#define EC_MEM  0xff00, 0x0100        /* 0000 0001 RRRR TTLL */
#define EC_BUS  0xf800, 0x0800        /* 0000 1PPT RRRR IILL */
#define EC_INT  0xf4ff, 0x0400        /* 0000 01UU 0000 0000: internal, UU type */

/* Memory-class code with a given RRRR (4 bits), TT and LL; (mask, value). */
#define MEM_R4(r)        0xfff0, (0x0100 | ((r) << 4))
#define MEM_LL(ll)       0xff03, (0x0100 | (ll))
#define MEM_TT(tt)       0xff0c, (0x0100 | ((tt) << 2))
#define MEM_R4_LL(r, ll) 0xfff3, (0x0100 | ((r) << 4) | (ll))
#define MEM_R4_TT(r, tt) 0xfffc, (0x0100 | ((r) << 4) | ((tt) << 2))
#define MEM_FULL(r, tt, ll) 0xffff, (0x0100 | ((r) << 4) | ((tt) << 2) | (ll))
#define TLB_TT(tt)       0xfffc, (0x0010 | ((tt) << 2))
#define BUS_R4(r)        0xf8f0, (0x0800 | ((r) << 4))
#define BUS_R4_II_LL(r, ii, ll) 0xf8ff, (0x0800 | ((r) << 4) | ((ii) << 2) | (ll))

enum { TT_INSN = 0, TT_DATA = 1 };
enum { LL_L1 = 1, LL_L2 = 2, LL_LG = 3 };
enum { II_MEM = 0, II_IO = 2 };
enum { R4_GEN = 0, R4_RD = 1, R4_WR = 2, R4_DRD = 3, R4_DWR = 4, R4_IRD = 5, R4_EVICT = 7, R4_SNOOP = 8 };

/*
 * R(bank, <code class>, xec_first, xec_last, text): the class and the ALL range
 * each expand to two values, so R re-splits its arguments through ROW_.
 */
#define ROW_(b, m, v, lo, hi, t) { .bank = (b), .ec_mask = (m), .ec_value = (v), \
	.xec_first = (lo), .xec_last = (hi), .text = (t) }
#define R(b, ...) ROW_(b, __VA_ARGS__)
#define ALL 0x00, 0x3f

/* ---- bank 0, data cache ---- */

static const struct amd_legacy_row dc_tlb[] = {
	R(0, TLB_TT(TT_DATA), 0x0, 0x0, "Data TLB parity error"),
	R(0, TLB_TT(TT_DATA), 0x2, 0x2, "Data TLB locked miss"),
	R(0, TLB_TT(TT_DATA), ALL, "Data TLB multimatch error"),
	{ .text = NULL },
};

/* Family 10h: the scrubber reports L1 data errors with a generic request type. */
static const struct amd_legacy_row dc_f10h_scrub[] = {
	R(0, MEM_R4_LL(R4_GEN, LL_L1), ALL, "Data cache error found by the scrubber"),
	{ .text = NULL },
};

static const struct amd_legacy_row dc_k8_style[] = {
	R(0, MEM_LL(LL_L2), ALL, "Error during an L1 data cache linefill from L2"),
	R(0, MEM_LL(LL_L1), ALL, "L1 data cache data or tag array error"),
	{ .text = NULL },
};

/* Family 11h (K8-derived) also reports system linefill errors in the data cache bank. */
static const struct amd_legacy_row dc_f11h_bus[] = {
	R(0, EC_BUS, ALL, "Error during a data cache linefill from the system"),
	{ .text = NULL },
};

/* Families 14h and 16h (the small cores). */
static const struct amd_legacy_row dc_cat[] = {
	R(0, MEM_FULL(R4_DRD, TT_DATA, LL_L1), ALL, "Data or tag parity error on a load or hardware prefetch"),
	R(0, MEM_FULL(R4_DWR, TT_DATA, LL_L1), ALL, "Data or tag parity error on a store"),
	R(0, MEM_FULL(R4_EVICT, TT_DATA, LL_L1), ALL, "Copyback parity error on a tag miss"),
	R(0, MEM_FULL(R4_SNOOP, TT_DATA, LL_L1), ALL, "Tag parity error on a snoop"),
	R(0, BUS_R4_II_LL(R4_RD, II_MEM, LL_LG), ALL, "System read data error on a TLB reload"),
	R(0, BUS_R4_II_LL(R4_RD, II_IO, LL_LG), ALL, "System read data error on a TLB reload"),
	R(0, BUS_R4_II_LL(R4_DWR, II_MEM, LL_LG), ALL, "System read data error on a store"),
	R(0, BUS_R4_II_LL(R4_DWR, II_IO, LL_LG), ALL, "System read data error on a store"),
	R(0, BUS_R4_II_LL(R4_DRD, II_MEM, LL_LG), ALL, "System read data error on a load"),
	R(0, BUS_R4_II_LL(R4_DRD, II_IO, LL_LG), ALL, "System read data error on a load"),
	{ .text = NULL },
};

static const struct amd_legacy_row dc_f15h[] = {
	R(0, EC_MEM, 0x00, 0x00, "Data array access error"),
	R(0, EC_MEM, 0x01, 0x01, "Uncorrectable error on a linefill from L2 or the northbridge"),
	R(0, EC_MEM, 0x02, 0x02, "Store queue access error"),
	R(0, EC_MEM, 0x03, 0x03, "Store coalescing buffer access error"),
	R(0, EC_MEM, 0x10, 0x10, "Data cache tag error"),
	R(0, EC_MEM, 0x11, 0x11, "Store queue access error"),
	R(0, EC_MEM, 0x12, 0x12, "Load queue access error"),
	R(0, EC_BUS, 0x00, 0x00, "System read data error"),
	R(0, EC_BUS, ALL, "Internal livelock or deadlock condition"),
	R(0, EC_INT, 0x00, 0x1f, "Hardware assertion"),
	{ .text = NULL },
};

/* ---- bank 1, instruction cache ---- */

static const struct amd_legacy_row ic_common[] = {
	R(1, EC_TLB, 0x0, 0x0, "Instruction TLB parity error"),
	R(1, EC_TLB, ALL, "Instruction TLB multimatch error"),
	R(1, EC_BUS, ALL, "Error during a northbridge data read for an instruction fetch"),
	{ .text = NULL },
};

static const struct amd_legacy_row ic_k8_style[] = {
	R(1, MEM_LL(LL_L2), ALL, "Error during an instruction cache linefill from L2"),
	R(1, MEM_R4_LL(R4_IRD, LL_L1), ALL, "Parity error on an instruction cache data load"),
	R(1, MEM_R4_LL(R4_EVICT, LL_L1), ALL, "Instruction cache copyback parity or victim error"),
	R(1, MEM_R4_LL(R4_SNOOP, LL_L1), ALL, "Instruction cache tag error on a snoop"),
	{ .text = NULL },
};

static const struct amd_legacy_row ic_cat[] = {
	R(1, MEM_R4_TT(R4_IRD, TT_INSN), ALL, "Instruction cache data or tag parity error on a tag hit"),
	R(1, MEM_R4_TT(R4_SNOOP, TT_INSN), ALL, "Instruction cache tag error on a snoop or victimization"),
	R(1, MEM_TT(TT_INSN), 0x0, 0x0, "Instruction cache tag parity error on a victim castout"),
	R(1, MEM_TT(TT_INSN), 0x2, 0x2, "Microcode patch RAM parity error"),
	{ .text = NULL },
};

static const struct amd_legacy_row ic_f15h[] = {
	R(1, EC_MEM, 0x00, 0x00, "Uncorrectable error on a demand linefill from L2"),
	R(1, EC_MEM, 0x01, 0x01, "Parity error on a data load from the instruction cache"),
	R(1, EC_MEM, 0x02, 0x02, "Instruction cache valid bit parity error"),
	R(1, EC_MEM, 0x03, 0x03, "Instruction cache main tag parity error"),
	R(1, EC_MEM, 0x04, 0x04, "Prediction queue parity error"),
	R(1, EC_MEM, 0x05, 0x05, "Prefetch buffer data or address parity error"),
	R(1, EC_MEM, 0x06, 0x06, "Branch status register parity error"),
	R(1, EC_MEM, 0x07, 0x07, "Prefetch buffer promotion address error"),
	R(1, EC_MEM, 0x08, 0x08, "Instruction cache tag error on a probe or victimization"),
	R(1, EC_MEM, 0x09, 0x09, "Probe tag valid bit parity error"),
	R(1, EC_MEM, 0x0a, 0x0a, "Prefetch buffer non-cacheable bit parity error"),
	R(1, EC_MEM, 0x0d, 0x0d, "Prefetch buffer valid bit parity error"),
	R(1, EC_MEM, 0x10, 0x10, "Microcode patch buffer parity error"),
	R(1, EC_MEM, 0x11, 0x11, "Decoder micro-op queue parity error"),
	R(1, EC_MEM, 0x12, 0x12, "Decoder instruction buffer parity error"),
	R(1, EC_MEM, 0x13, 0x13, "Decoder predecode buffer parity error"),
	R(1, EC_MEM, 0x14, 0x14, "Decoder fetch address FIFO parity error"),
	R(1, EC_MEM, 0x15, 0x15, "Decoder dispatch micro-op queue parity error"),
	R(1, EC_INT, ALL, "Hardware assertion"),
	{ .text = NULL },
};

/* ---- bank 2: bus unit (10h-14h), combined unit (15h), L2 (16h) ---- */

static const struct amd_legacy_row bu_k8_style[] = {
	R(2, EC_ANY, 0x1, 0x1, "Error in the write data buffers"),
	R(2, EC_ANY, 0x3, 0x3, "Error in the victim data buffers"),
	R(2, EC_MEM, 0x2, 0x2, "L2 cache tag error"),
	R(2, EC_TLB, 0x0, 0x0, "Error in a page descriptor cache or guest TLB"),
	R(2, EC_BUS, 0x0, 0x0, "Parity or ECC error in data read from the northbridge"),
	R(2, MEM_R4(R4_EVICT), 0x0, 0x0, "L2 error during a data copyback"),
	R(2, MEM_R4(R4_SNOOP), 0x0, 0x0, "L2 error during a data copyback"),
	R(2, MEM_R4(R4_GEN), 0x0, 0x0, "Parity or ECC error on a data access from L2"),
	R(2, MEM_R4(R4_RD), 0x0, 0x0, "Parity or ECC error on a data access from L2"),
	{ .text = NULL },
};

static const struct amd_legacy_row cu_f15h[] = {
	R(2, EC_TLB, 0x00, 0x00, "Parity error on a TLB data read"),
	R(2, EC_TLB, 0x01, 0x01, "Poisoned data supplied for a TLB fill"),
	R(2, EC_BUS, 0x00, 0x02, "Error during an attempted northbridge data read"),
	R(2, EC_MEM, 0x04, 0x04, "ECC error on a data fill"),
	R(2, EC_MEM, 0x05, 0x05, "Parity error on an instruction fill"),
	R(2, EC_MEM, 0x06, 0x06, "Prefetcher request FIFO parity error"),
	R(2, EC_MEM, 0x07, 0x07, "Prefetch request queue address parity error"),
	R(2, EC_MEM, 0x08, 0x08, "Prefetch request queue data parity error"),
	R(2, EC_MEM, 0x09, 0x09, "Write-combining cache tag ECC error"),
	R(2, EC_MEM, 0x0a, 0x0a, "Write-combining cache data ECC error"),
	R(2, EC_MEM, 0x0b, 0x0b, "Write-combining buffer data parity error"),
	R(2, EC_MEM, 0x0c, 0x0c, "Victim buffer data ECC or parity error"),
	R(2, EC_MEM, 0x10, 0x10, "L2 tag ECC error"),
	R(2, EC_MEM, 0x11, 0x11, "Hard L2 tag ECC error"),
	R(2, EC_MEM, 0x12, 0x12, "L2 tag hit in more than one way"),
	R(2, EC_MEM, 0x13, 0x13, "XAB parity error"),
	R(2, EC_MEM, 0x14, 0x14, "Probe request buffer address parity error"),
	R(2, EC_INT, ALL, "Hardware assertion"),
	{ .text = NULL },
};

static const struct amd_legacy_row l2_f16h[] = {
	R(2, MEM_R4(R4_RD), 0x04, 0x05, "Input buffer parity error"),
	R(2, EC_MEM, 0x04, 0x05, "Output buffer parity error"),
	R(2, MEM_R4(R4_GEN), 0x09, 0x0b, "L2 tag ECC error on a bank request"),
	R(2, MEM_R4(R4_GEN), 0x0d, 0x0f, "L2 tag ECC error on a bank request"),
	R(2, MEM_R4(R4_SNOOP), 0x09, 0x0b, "L2 tag ECC error on a probe"),
	R(2, MEM_R4(R4_SNOOP), 0x0d, 0x0f, "L2 tag ECC error on a probe"),
	R(2, EC_MEM, 0x09, 0x0b, "L2 tag ECC error on a fill"),
	R(2, EC_MEM, 0x0d, 0x0f, "L2 tag ECC error on a fill"),
	R(2, EC_MEM, 0x10, 0x19, "L2 data array ECC error"),
	R(2, EC_MEM, 0x1b, 0x1b, "L2 data array ECC error"),
	R(2, EC_MEM, 0x1c, 0x1d, "L2 attribute bits parity error"),
	R(2, EC_MEM, 0x1f, 0x1f, "L2 attribute bits parity error"),
	{ .text = NULL },
};

/* ---- bank 3, load/store (10h-12h only) ---- */

static const struct amd_legacy_row ls_k8_style[] = {
	R(3, BUS_R4(R4_DRD), 0x0, 0x0, "Load/store unit error on a data read"),
	R(3, BUS_R4(R4_DWR), 0x0, 0x0, "Load/store unit error on a data write"),
	{ .text = NULL },
};

/* ---- bank 4, northbridge: DRAM, HyperTransport links, GART, L3, probe filter ---- */

static const struct amd_legacy_row nb_dram[] = {
	R(4, EC_ANY, 0x00, 0x00, "DRAM ECC error detected by the northbridge"),
	R(4, EC_ANY, 0x08, 0x08, "DRAM ECC error detected by the northbridge"),
	{ .text = NULL },
};

static const struct amd_legacy_row nb_common[] = {
	R(4, EC_ANY, 0x01, 0x01, "CRC error on a HyperTransport link"),
	R(4, EC_ANY, 0x02, 0x02, "Sync error packets on a HyperTransport link"),
	R(4, EC_ANY, 0x03, 0x03, "HyperTransport master abort"),
	R(4, EC_ANY, 0x04, 0x04, "HyperTransport target abort"),
	R(4, EC_ANY, 0x05, 0x05, "Invalid GART PTE during a GART table walk"),
	R(4, EC_ANY, 0x06, 0x06, "Unsupported atomic read-modify-write from an I/O link"),
	R(4, EC_ANY, 0x07, 0x07, "Northbridge watchdog timeout: no progress"),
	R(4, EC_ANY, 0x09, 0x09, "SVM DMA exclusion vector error"),
	R(4, EC_ANY, 0x0a, 0x0a, "HyperTransport data error on a link"),
	R(4, EC_ANY, 0x0b, 0x0b, "Protocol error (link, L3 or probe filter)"),
	R(4, EC_ANY, 0x0c, 0x0c, "Parity error in a northbridge internal array"),
	R(4, EC_ANY, 0x0d, 0x0d, "Parity error on the DRAM address or control signals"),
	R(4, EC_ANY, 0x0e, 0x0e, "I/O link transmission error (link retry)"),
	R(4, EC_TLB, 0x0f, 0x0f, "GART table walk data error"),
	R(4, EC_BUS, 0x0f, 0x0f, "DMA exclusion vector table walk error"),
	R(4, EC_ANY, 0x1c, 0x1c, "L3 cache data ECC error"),
	R(4, EC_ANY, 0x1d, 0x1d, "L3 cache tag error"),
	R(4, EC_ANY, 0x1e, 0x1e, "L3 cache LRU parity error"),
	R(4, EC_ANY, 0x1f, 0x1f, "Probe filter directory ECC error"),
	{ .text = NULL },
};

static const struct amd_legacy_row nb_compute_unit[] = {
	R(4, EC_ANY, 0x19, 0x19, "Compute unit data error"),
	{ .text = NULL },
};

/* ---- bank 5, FIROB (10h-14h) / execution unit (15h, 16h) ---- */

static const struct amd_legacy_row ex_rows[] = {
	R(5, EC_INT, 0x00, 0x1f, "Hardware assertion"),
	R(5, EC_ANY, 0x00, 0x00, "CPU watchdog timer expired"),
	R(5, EC_ANY, 0x01, 0x01, "Wakeup array destination tag parity error"),
	R(5, EC_ANY, 0x02, 0x02, "Address generation payload array parity error"),
	R(5, EC_ANY, 0x03, 0x03, "Execution payload array parity error"),
	R(5, EC_ANY, 0x04, 0x04, "IDRF array parity error"),
	R(5, EC_ANY, 0x05, 0x05, "Retire dispatch queue parity error"),
	R(5, EC_ANY, 0x06, 0x06, "Mapper checkpoint array parity error"),
	R(5, EC_ANY, 0x07, 0x07, "Physical register file EX0 port parity error"),
	R(5, EC_ANY, 0x08, 0x08, "Physical register file EX1 port parity error"),
	R(5, EC_ANY, 0x09, 0x09, "Physical register file AG0 port parity error"),
	R(5, EC_ANY, 0x0a, 0x0a, "Physical register file AG1 port parity error"),
	R(5, EC_ANY, 0x0b, 0x0b, "Flag register file parity error"),
	R(5, EC_ANY, 0x0c, 0x0c, "Error reported by the decode unit"),
	R(5, EC_ANY, 0x0d, 0x0d, "Retire status queue parity error"),
	{ .text = NULL },
};

/* Before family 15h only the watchdog is documented in this bank. */
static const struct amd_legacy_row fr_rows[] = {
	R(5, EC_ANY, 0x00, 0x00, "CPU watchdog timer expired"),
	{ .text = NULL },
};

/* ---- bank 6, floating point (15h) ---- */

static const struct amd_legacy_row fp_f15h[] = {
	R(6, EC_ANY, 0x00, 0x00, "Hardware assertion"),
	R(6, EC_ANY, 0x01, 0x01, "Free list parity error"),
	R(6, EC_ANY, 0x02, 0x02, "Physical register file parity error"),
	R(6, EC_ANY, 0x03, 0x03, "Retire queue parity error"),
	R(6, EC_ANY, 0x04, 0x04, "Scheduler table parity error"),
	R(6, EC_ANY, 0x05, 0x05, "Status register file parity error"),
	{ .text = NULL },
};

/* ---- bank names ---- */

static const struct amd_legacy_bank banks_f10h[] = {
	[0] = { "DC", "Data Cache" },
	[1] = { "IC", "Instruction Cache" },
	[2] = { "BU", "Bus Unit" },
	[3] = { "LS", "Load Store" },
	[4] = { "NB", "Northbridge" },
	[5] = { "FR", "FIROB" },
};

static const struct amd_legacy_bank banks_f11h[] = {
	[0] = { "DC", "Data Cache" },
	[1] = { "IC", "Instruction Cache" },
	[2] = { "BU", "Bus Unit" },
	[3] = { "LS", "Load Store" },
	[4] = { "NB", "Northbridge" },
};

/* Family 14h has no load/store bank (MC3 is reserved). */
static const struct amd_legacy_bank banks_f14h[] = {
	[0] = { "DC", "Data Cache" },
	[1] = { "IC", "Instruction Cache" },
	[2] = { "BU", "Bus Unit" },
	[4] = { "NB", "Northbridge" },
	[5] = { "FR", "FIROB" },
};

static const struct amd_legacy_bank banks_f15h[] = {
	[0] = { "DC", "Data Cache" },
	[1] = { "IC", "Instruction Cache" },
	[2] = { "CU", "Combined Unit" },
	[4] = { "NB", "Northbridge" },
	[5] = { "EX", "Execution Unit" },
	[6] = { "FP", "Floating Point Unit" },
};

static const struct amd_legacy_bank banks_f16h[] = {
	[0] = { "DC", "Data Cache" },
	[1] = { "IC", "Instruction Cache" },
	[2] = { "L2", "L2 Cache" },
	[4] = { "NB", "Northbridge" },
	[5] = { "EX", "Execution Unit" },
};

/* ---- families ---- */

/*
 * K8: its five banks (DC, IC, BU, LS, NB) and the k8-style rows its
 * successors kept; family 11h's set, less its northbridge's missing DRAM
 * ECC.  The rows are family 10h's and 11h's BKDG tables: K8's own BKDG
 * (32559) was out of every look-up's reach, so a signature only K8 has
 * would go unnamed here.
 */
static const struct amd_legacy_row *const rows_k8[] = {
	dc_tlb, dc_f10h_scrub, dc_k8_style, dc_f11h_bus, ic_common, ic_k8_style, bu_k8_style,
	ls_k8_style, nb_dram, nb_common, NULL,
};
static const struct amd_legacy_row *const rows_f10h[] = {
	dc_tlb, dc_f10h_scrub, dc_k8_style, ic_common, ic_k8_style, bu_k8_style, ls_k8_style,
	nb_dram, nb_common, fr_rows, NULL,
};
static const struct amd_legacy_row *const rows_f11h[] = {
	dc_tlb, dc_f10h_scrub, dc_k8_style, dc_f11h_bus, ic_common, ic_k8_style, bu_k8_style,
	ls_k8_style, nb_common, NULL,
};
static const struct amd_legacy_row *const rows_f12h[] = {
	dc_tlb, dc_k8_style, ic_common, ic_k8_style, bu_k8_style, ls_k8_style, nb_dram, nb_common,
	fr_rows, NULL,
};
static const struct amd_legacy_row *const rows_f14h[] = {
	dc_tlb, dc_cat, ic_common, ic_cat, bu_k8_style, nb_dram, nb_common, fr_rows, NULL,
};
static const struct amd_legacy_row *const rows_f15h[] = {
	dc_tlb, dc_f15h, ic_common, ic_f15h, cu_f15h, nb_dram, nb_common, nb_compute_unit, ex_rows,
	fp_f15h, NULL,
};
static const struct amd_legacy_row *const rows_f16h[] = {
	dc_tlb, dc_cat, ic_common, ic_cat, l2_f16h, nb_dram, nb_common, nb_compute_unit, ex_rows,
	NULL,
};

#define FAMILY(mask, b, r, dram, doc) { .xec_mask = (mask), .banks = (b), \
	.n_banks = ELEMENTSOF(b), .rows = (r), .dram_ecc = (dram), .source = (doc) }

/* Families before 15h define a four-bit extended error code outside the northbridge. */
const struct amd_legacy_family amd_k8 = FAMILY(0x0f, banks_f11h, rows_k8, true,
	"AMD BKDGs for Family 10h (pub. 31116) and 11h (pub. 41256), the signatures K8 shares");
const struct amd_legacy_family amd_f10h = FAMILY(0x0f, banks_f10h, rows_f10h, true,
	"AMD BKDG for Family 10h Processors (pub. 31116), MCA error signatures");
const struct amd_legacy_family amd_f11h = FAMILY(0x0f, banks_f11h, rows_f11h, false,
	"AMD BKDG for Family 11h Processors (pub. 41256), MCA error signatures");
const struct amd_legacy_family amd_f12h = FAMILY(0x0f, banks_f10h, rows_f12h, true,
	"AMD BKDG for Family 12h Processors (pub. 41131), MCA error signatures");
const struct amd_legacy_family amd_f14h = FAMILY(0x0f, banks_f14h, rows_f14h, true,
	"AMD BKDG for Family 14h Models 00h-0Fh (pub. 43170), MCA error signatures");
const struct amd_legacy_family amd_f15h = FAMILY(0x1f, banks_f15h, rows_f15h, true,
	"AMD BKDG for Family 15h Models 00h-0Fh (pub. 42301), MCA error signatures");
/* Models 60h-6Fh widen the extended error code to six bits. */
const struct amd_legacy_family amd_f15h_m60h = FAMILY(0x3f, banks_f15h, rows_f15h, true,
	"AMD BKDG for Family 15h Models 60h-6Fh (pub. 50742), MCA error signatures");
const struct amd_legacy_family amd_f16h = FAMILY(0x1f, banks_f16h, rows_f16h, true,
	"AMD BKDG for Family 16h Models 00h-0Fh (pub. 48751), MCA error signatures");

static const char *legacy_lookup(const struct amd_legacy_family *f, unsigned bank, uint16_t ec,
				 unsigned xec)
{
	for (const struct amd_legacy_row *const *set = f->rows; *set; set++)
		for (const struct amd_legacy_row *r = *set; r->text; r++)
			if (r->bank == bank && (ec & r->ec_mask) == r->ec_value &&
			    xec >= r->xec_first && xec <= r->xec_last)
				return r->text;
	return NULL;
}

void amd_legacy_decode(const struct mce_model_decoder *self, const struct mce_record *rec,
		       struct mce_decoded *d)
{
	const struct amd_legacy_family *f = self->tables;
	unsigned bank, xec, mask;
	uint16_t ec;

	d->cpu_model = self->name;

	if (!mce_record_has(rec, MCE_HAVE_STATUS | MCE_HAVE_BANK))
		return;

	bank = rec->bank;
	mask = bank == AMD_NB_BANK ? AMD_NB_XEC_MASK : f->xec_mask;
	xec = (unsigned) (rec->status >> 16) & mask;
	ec = (uint16_t) rec->status;

	d->has_extended_error_code = true;
	d->extended_error_code = xec;

	if (bank < f->n_banks && f->banks[bank].type) {
		d->bank_type = f->banks[bank].type;
		d->bank_name = f->banks[bank].name;
	}
	d->description = legacy_lookup(f, bank, ec, xec);

	/*
	 * A corrected DRAM ECC error carries its ECC syndrome in the status
	 * register: low byte in bits 54:47, high byte in bits 31:24.
	 */
	if (bank == AMD_NB_BANK && f->dram_ecc && (xec == 0x0 || xec == 0x8) &&
	    ((rec->status >> 45) & 0x3) == 0x2) {
		d->has_syndrome = true;
		d->syndrome = ((rec->status >> 47) & 0xff) | (((rec->status >> 24) & 0xff) << 8);
	}
}
