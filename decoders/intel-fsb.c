/* SPDX-License-Identifier: MIT */
/*
 * The front-side-bus processors: family 06H before Nehalem (P6, Pentium M,
 * Core Duo/Solo, Core 2, Xeon 7400) and family 0FH (NetBurst).
 *
 * Source: Intel 64 and IA-32 Architectures Software Developer's Manual,
 * Vol. 3B, chapter 16 "Interpreting Machine-Check Error Codes" (Appendix E
 * in older editions), read at xem.github.io/minix86 (chapter 16 edition) and
 * manualshelf.com (Appendix E edition); the section and both tables' numbers
 * are named at each table.  What the SDM gives these processors is mostly
 * not a code per error but bit fields of MCi_STATUS, for the compound bus
 * errors (0000 1PPT RRRR IILL) of any bank: they become details.  The
 * SDM's own names (BQ_DCU_READ_TYPE, BINIT, ...) are kept in parentheses,
 * since that is what users search for.  The SDM names no bank's unit for
 * these processors, so banks stay unnamed, except the Xeon MP 7100's MC4.
 */
#include "intel.h"

/* ==== Family 06H, the signatures of Table 16-1 (E-1) ====
 * 16.1 (E.1), Table 16-2 (E-2) "Incremental Decoding Information: Processor
 * Family 06H Machine Error Codes For Machine Check": 06_01H Pentium Pro,
 * 06_03H/05H Pentium II (Xeon), 06_07H/08H/0AH/0BH Pentium III (Xeon),
 * 06_09H/0DH Pentium M, 06_0EH Core Duo/Solo.  The section covers "only"
 * those signatures, so the other P6 models are named but get no fields.
 */

/* Bits 24:19, the bus queue request type; the same names in Table 16-4 (E-4)
 * for Core 2, which adds three. */
#define BQ_REQUEST_ROWS \
	{ 0x00, "data cache read (BQ_DCU_READ_TYPE)" }, \
	{ 0x02, "instruction fetch (BQ_IFU_DEMAND_TYPE)" }, \
	{ 0x03, "uncacheable instruction fetch (BQ_IFU_DEMAND_NC_TYPE)" }, \
	{ 0x04, "read for ownership (BQ_DCU_RFO_TYPE)" }, \
	{ 0x05, "locked read for ownership (BQ_DCU_RFO_LOCK_TYPE)" }, \
	{ 0x06, "invalidate to modified (BQ_DCU_ITOM_TYPE)" }, \
	{ 0x08, "writeback (BQ_DCU_WB_TYPE)" }, \
	{ 0x0a, "write-combining eviction (BQ_DCU_WCEVICT_TYPE)" }, \
	{ 0x0b, "write-combining line (BQ_DCU_WCLINE_TYPE)" }, \
	{ 0x0c, "branch trace message (BQ_DCU_BTM_TYPE)" }, \
	{ 0x0d, "interrupt acknowledge (BQ_DCU_INTACK_TYPE)" }, \
	{ 0x0e, "invalidate L2 (BQ_DCU_INVALL2_TYPE)" }, \
	{ 0x0f, "flush L2 (BQ_DCU_FLUSHL2_TYPE)" }, \
	{ 0x10, "partial read (BQ_DCU_PART_RD_TYPE)" }, \
	{ 0x12, "partial write (BQ_DCU_PART_WR_TYPE)" }, \
	{ 0x14, "special cycle (BQ_DCU_SPEC_CYC_TYPE)" }, \
	{ 0x18, "I/O read (BQ_DCU_IO_RD_TYPE)" }, \
	{ 0x19, "I/O write (BQ_DCU_IO_WR_TYPE)" }, \
	{ 0x1c, "locked read (BQ_DCU_LOCK_RD_TYPE)" }, \
	{ 0x1d, "locked write (BQ_DCU_LOCK_WR_TYPE)" }, \
	{ 0x1e, "split locked read (BQ_DCU_SPLOCK_RD_TYPE)" }

static const struct intel_value p6_bq_request[] = {
	BQ_REQUEST_ROWS,
};

/* Bits 27:25 of Table 16-2. */
static const struct intel_value p6_bq_error[] = {
	{ 0x0, "hard error (BQ_ERR_HARD_TYPE)" },
	{ 0x1, "double-bit ECC error (BQ_ERR_DOUBLE_TYPE)" },
	{ 0x2, "second address parity error (BQ_ERR_AERR2_TYPE)" },
	{ 0x4, "single-bit ECC error (BQ_ERR_SINGLE_TYPE)" },
	{ 0x5, "first address parity error (BQ_ERR_AERR1_TYPE)" },
};

/* Bits 30, 36 and 38, the same in Tables 16-2 and 16-4 (the bits between
 * them differ). */
#define INTERNAL_BINIT_FIELD \
	FIELD_FLAG(30, "internal_binit", "BINIT# driven by this processor (Internal BINIT)")
#define RESPONSE_PARITY_FIELD \
	FIELD_FLAG(36, "response_parity", "parity error on the RS[2:0]# response pins (Response parity error)")
#define TIMEOUT_BINIT_FIELD \
	FIELD_FLAG(38, "timeout_binit", "no micro-instruction retired in time, ROB time-out (Timeout BINIT)")

/* Bits 42..54, the same in Tables 16-2 and 16-4. */
#define UECC_BIT 45
#define CECC_BIT 46
#define BUS_ECC_FIELDS \
	FIELD_FLAG(42, "hard_error", "a bus transaction of this unit got a hard error response (Hard error)"), \
	FIELD_FLAG(43, "ierr", "a failure asserted the IERR pin (IERR)"), \
	FIELD_FLAG(44, "aerr", "two bus transactions of this unit failed on address parity (AERR)"), \
	FIELD_FLAG(UECC_BIT, "uecc", "uncorrectable ECC error (UECC)"), \
	FIELD_FLAG(CECC_BIT, "cecc", "correctable ECC error (CECC)"), \
	FIELD_NUM(54, 47, "ecc_syndrome", (UINT64_C(1) << UECC_BIT) | (UINT64_C(1) << CECC_BIT))

static const struct intel_field p6_bus_fields[] = {
	FIELD_ENUM(24, 19, "bus_queue_request", p6_bq_request),
	FIELD_ENUM(27, 25, "bus_queue_error", p6_bq_error),
	FIELD_FLAG(28, "frc_error", "functional redundancy check error active (FRC error)"),
	FIELD_FLAG(29, "berr", "BERR# driven (BERR)"),
	INTERNAL_BINIT_FIELD,
	FIELD_FLAG(35, "external_binit", "BINIT# received from the external bus (External BINIT)"),
	RESPONSE_PARITY_FIELD,
	FIELD_FLAG(37, "bus_binit", "hard error response on a split transaction (Bus BINIT)"),
	TIMEOUT_BINIT_FIELD,
	BUS_ECC_FIELDS,
};

static const struct intel_field_set p6_sets[] = {
	FIELD_SET(MCACOD_BUS_MASK, MCACOD_BUS_VALUE, p6_bus_fields),
};

const struct intel_model intel_p6 = {
	.source = "SDM Vol. 3B 16.1, Table 16-2: Processor Family 06H external bus errors",
	FIELD_SETS(p6_sets),
};

/* ==== Core 2 (06_0FH, 06_17H) and Xeon 7400 (06_1DH) ====
 * 16.2 (E.2), Table 16-4 (E-4) "Incremental Bus Error Codes of Machine Check
 * for Processors Based on Intel Core Microarchitecture", for the signatures
 * of Table 16-3.  Bits 24:19 as on P6 plus three request types; bits 27:25
 * follow the chapter 16 edition (the Appendix E edition still printed the
 * P6 BQ_ERR_* list there); bits 28-38 differ from P6.
 */
static const struct intel_value core2_bq_request[] = {
	{ 0x01, "prefetch read (BQ_PREF_READ_TYPE)" },
	BQ_REQUEST_ROWS,
	{ 0x24, "L2 write-invalidate read for ownership (BQ_L2_WI_RFO_TYPE)" },
	{ 0x26, "L2 write-invalidate invalidate to modified (BQ_L2_WI_ITOM_TYPE)" },
};

static const struct intel_value core2_bq_error[] = {
	{ 0x1, "address parity error" },
	{ 0x2, "response hard error" },
	{ 0x3, "response parity error" },
};

static const struct intel_field core2_bus_fields[] = {
	FIELD_ENUM(24, 19, "bus_queue_request", core2_bq_request),
	FIELD_ENUM(27, 25, "bus_queue_error", core2_bq_error),
	FIELD_FLAG(28, "mce_driven", "MCE driven (MCE Driven)"),
	FIELD_FLAG(29, "mce_observed", "MCE observed (MCE Observed)"),
	INTERNAL_BINIT_FIELD,
	FIELD_FLAG(31, "binit_observed", "BINIT# observed by this processor (BINIT Observed)"),
	FIELD_FLAG(34, "pic_fsb_data_parity", "data parity error on a PIC or FSB access (PIC and FSB data parity)"),
	RESPONSE_PARITY_FIELD,
	FIELD_FLAG(37, "fsb_address_parity", "address parity error (FSB address parity)"),
	TIMEOUT_BINIT_FIELD,
	BUS_ECC_FIELDS,
};

static const struct intel_field_set core2_sets[] = {
	FIELD_SET(MCACOD_BUS_MASK, MCACOD_BUS_VALUE, core2_bus_fields),
};

const struct intel_model intel_core2 = {
	.source = "SDM Vol. 3B 16.2, Table 16-4: Intel Core microarchitecture external bus errors",
	FIELD_SETS(core2_sets),
};

/* Xeon 7400: 16.2.1-16.2.2 (E.2.1-E.2.2).  Table 16-5 (E-5) adds two
 * MCACOD types, "B" bus and interconnect 0E0FH and "C" internal 0400H, for
 * "IA32_MC6_STATUS", while the tables below say MC4_STATUS: since the SDM
 * names both banks, we key on the MCACOD alone, on any bank. */

/* Table 16-6 (E-6) "Type B Bus and Interconnect Error Codes": one bit each. */
static const struct intel_field dunnington_type_b[] = {
	FIELD_FLAG(16, "fsb_request_parity", "parity error in the FSB request phase (FSB Request Parity)"),
	FIELD_FLAG(20, "fsb_hard_fail", "hard failure response to a local transaction (FSB Hard Fail Response)"),
	FIELD_FLAG(21, "fsb_response_parity", "parity error on the FSB response field (FSB Response Parity)"),
	FIELD_FLAG(22, "fsb_data_parity", "FSB parity error on inbound data (FSB Data Parity)"),
};

#define DUNNINGTON_TYPE_B 0x0e0f
static const struct intel_field_set dunnington_sets[] = {
	FIELD_SET(0xffff, DUNNINGTON_TYPE_B, dunnington_type_b),
	FIELD_SET(MCACOD_BUS_MASK, MCACOD_BUS_VALUE, core2_bus_fields),
};

/* Table 16-7 (E-7) "Type C Cache Bus Controller Error Codes": MSCOD values
 * of the internal error type (MCACOD 0400H). */
#define CBC(mscod, t) { .mask = UINT64_C(0xffffffff), .value = (uint64_t) (mscod) << MSCOD_SHIFT | 0x0400, \
	.text = t }
static const struct intel_code dunnington_type_c_rows[] = {
	CBC(0x0001, "Inclusion error from core 0"),
	CBC(0x0002, "Inclusion error from core 1"),
	CBC(0x0003, "Write exclusive error from core 0"),
	CBC(0x0004, "Write exclusive error from core 1"),
	CBC(0x0005, "Inclusion error from the FSB"),
	CBC(0x0006, "Snoop stall error from the FSB (SNP Stall Error from FSB)"),
	CBC(0x0007, "Write stall error from the FSB"),
	CBC(0x0008, "FSB arbiter timeout (FSB Arb Timeout Error)"),
	CBC(0x000a, "Inclusion error from core 2"),
	CBC(0x000b, "Write exclusive error from core 2"),
	CBC(0x0200, "Internal timeout"),
	CBC(0x0300, "Internal timeout"),
	CBC(0x0400, "Cache Safe Technology queue full, or disabled-ways-in-a-set overflow"),
	CBC(0x0500, "Quiet cycle timeout (correctable)"),
	CBC(0xc002, "Correctable ECC event on outgoing core 0 data"),
	CBC(0xc004, "Correctable ECC event on outgoing core 1 data"),
	CBC(0xc008, "Correctable ECC event on outgoing core 2 data"),
	CBC(0xe002, "Uncorrectable ECC error on outgoing core 0 data"),
	CBC(0xe004, "Uncorrectable ECC error on outgoing core 1 data"),
	CBC(0xe008, "Uncorrectable ECC error on outgoing core 2 data"),
};
static const struct intel_code_table dunnington_type_c = CODE_TABLE(dunnington_type_c_rows);

const struct intel_model intel_dunnington = {
	.source = "SDM Vol. 3B 16.2 and 16.2.1-16.2.2, Tables 16-4 to 16-7: Intel Xeon processor 7400",
	.codes = &dunnington_type_c,
	FIELD_SETS(dunnington_sets),
};

/* ==== Family 0FH (NetBurst) ====
 * 16.10 (E.4), Table 16-37 (E-13) "Incremental Decoding Information:
 * Processor Family 0FH Machine Error Codes For Machine Check" for the bus
 * errors, and Table 16-38 (E-20) "Decoding Family 0FH Machine Check Codes
 * for Cache Hierarchy Errors" for 0000 0001 RRRR TTLL.  Bit 20 of the bus
 * table (invalid PIC request) is defined for processor signature 00000F04H
 * alone, a stepping we cannot tell from a model row: left out.
 */
static const struct intel_field netburst_bus_fields[] = {
	FIELD_FLAG(16, "fsb_address_parity", "address parity error (FSB address parity)"),
	FIELD_FLAG(17, "response_hard_fail", "hardware failure detected on a response (Response hard fail)"),
	FIELD_FLAG(18, "response_parity", "parity error detected on a response (Response parity)"),
	FIELD_FLAG(19, "pic_fsb_data_parity", "data parity error on a PIC or FSB access (PIC and FSB data parity)"),
	FIELD_FLAG(21, "pad_state_machine", "data-strobe timing state machine lost sync or saw a glitch (Pad state machine)"),
	FIELD_FLAG(22, "pad_strobe_glitch", "data strobe glitch (Pad strobe glitch)"),
	FIELD_FLAG(23, "pad_address_glitch", "address strobe glitch (Pad address glitch)"),
};

static const struct intel_value netburst_tag_error[] = {
	{ 0x0, "no error" },
	{ 0x1, "parity error on a tag miss with a clean line" },
	{ 0x2, "parity error or multiple tag match on a tag hit" },
	{ 0x3, "parity error or multiple tag match on a tag miss" },
};

static const struct intel_value netburst_data_error[] = {
	{ 0x0, "no error" },
	{ 0x1, "single-bit error" },
	{ 0x2, "double-bit error on a clean line" },
	{ 0x3, "double-bit error on a modified line" },
};

static const struct intel_field netburst_cache_fields[] = {
	FIELD_ENUM(17, 16, "tag_error", netburst_tag_error),
	FIELD_ENUM(19, 18, "data_error", netburst_data_error),
	FIELD_FLAG(20, "l3_error", "the error came from the L3, not the L2 (L3 Error)"),
	FIELD_FLAG(21, "invalid_pic_request", "PIC space accessed with WB memory type (Invalid PIC Request)"),
	FIELD_NUM(39, 32, "error_count", 0),
};

#define MCACOD_CACHE_MASK  0xff00
#define MCACOD_CACHE_VALUE 0x0100
static const struct intel_field_set netburst_sets[] = {
	FIELD_SET(MCACOD_BUS_MASK, MCACOD_BUS_VALUE, netburst_bus_fields),
	FIELD_SET(MCACOD_CACHE_MASK, MCACOD_CACHE_VALUE, netburst_cache_fields),
};

const struct intel_model intel_netburst = {
	.source = "SDM Vol. 3B 16.10, Tables 16-37 and 16-38: Processor Family 0FH",
	FIELD_SETS(netburst_sets),
};

/* 0F_06H also covers the Xeon MP 7100, whose fifth bank MC4 logs the L3 and
 * the FSB (16.10.1-16.10.3, E.4.1-E.4.3); the Pentium 4, Pentium D and Xeon
 * 5000 of this signature have MC0-MC3 only, so an MC4 record is a 7100's.
 * MC0-MC3 are "the same as on previous" family 0FH Xeons.
 */

/* Table 16-35 "Type A: L3 Error Codes": MSCOD[15:5] (STATUS[31:21]) is the
 * fixed pattern 0010_0000_000b, bits 20:19 are 00, bits 18:16 the code.
 * Type A is the L3's, a memory hierarchy error (0000 0001 RRRR TTLL): a bus
 * error's MSCOD that happened to match would be a Type B bit set, not this. */
#define L3(code, t) { .mask = UINT64_C(0xffffff00), \
	.value = (uint64_t) (0x2000 | (code)) << MSCOD_SHIFT | MCACOD_CACHE_VALUE, .text = t }
static const struct intel_code tulsa_l3_rows[] = {
	L3(0x0, "L3: no error"),
	L3(0x1, "L3: more than one way reporting a correctable event"),
	L3(0x2, "L3: more than one way reporting an uncorrectable error"),
	L3(0x3, "L3: more than one way reporting a tag hit"),
	L3(0x4, "L3: no error"),
	L3(0x5, "L3: one way reporting a correctable event"),
	L3(0x6, "L3: one way reporting an uncorrectable error"),
	L3(0x7, "L3: correctable events and uncorrectable errors in different ways"),
};
static const struct intel_code_table tulsa_l3 = CODE_TABLE(tulsa_l3_rows);

/* Table 16-36 "Type B Bus and Interconnect Error Codes" (MCACOD 0E0FH,
 * Table 16-33): one bit each.  Our copy of the page breaks off after bit 21,
 * so the bits above it (the Data ECC bit the text names among them) are not
 * tabled; their records keep the architectural decode. */
static const struct intel_field tulsa_type_b[] = {
	FIELD_FLAG(16, "fsb_request_parity", "parity error in the FSB request phase (FSB Request Parity)"),
	FIELD_FLAG(17, "core0_addr_parity", "parity error on core 0's request address (Core0 Addr Parity)"),
	FIELD_FLAG(18, "core1_addr_parity", "parity error on core 1's request address (Core1 Addr Parity)"),
	FIELD_FLAG(20, "fsb_response_parity", "parity error on the FSB response field (FSB Response Parity)"),
	FIELD_FLAG(21, "fsb_data_parity", "FSB parity error on inbound data (FSB Data Parity)"),
};
static const struct intel_field_set tulsa_mc4_sets[] = {
	FIELD_SET(0xffff, 0x0e0f, tulsa_type_b),
};

static const struct intel_bank tulsa_banks[] = {
	{ .first = 4, .last = 4, .type = "L3/FSB", .name = "L3 cache and front side bus (Xeon MP 7100)",
	  .codes = &tulsa_l3, FIELD_SETS(tulsa_mc4_sets) },
};

const struct intel_model intel_netburst_06 = {
	.banks = tulsa_banks, .n_banks = sizeof(tulsa_banks) / sizeof(tulsa_banks[0]),
	.source = "SDM Vol. 3B 16.10 and 16.10.1-16.10.3, Tables 16-33 to 16-38: Processor Family 0FH, "
		  "Intel Xeon processor MP 7100",
	FIELD_SETS(netburst_sets),
};
