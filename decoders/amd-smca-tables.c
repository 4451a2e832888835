/* SPDX-License-Identifier: MIT */
/*
 * AMD Scalable MCA bank types and their extended error codes.
 *
 * Bank identity: MCA_IPID[43:32] HardwareID and MCA_IPID[63:48] McaType, as
 * listed in the "MCA Banks" and "MCA_IPID" sections of the AMD Processor
 * Programming Reference (PPR) for each family.  The set of pairs is the one the
 * Linux kernel recognises (so every bank the kernel names, we name), and the
 * long names are the ones the kernel's EDAC decoder prints, so our bank_name
 * can be compared with dmesg.
 *
 * Extended error codes (MCA_STATUS[21:16]) follow the "MCA_STATUS_<bank>
 * ErrorCodeExt" tables (and the matching MCA_CTL_<bank> enable bits) of:
 *   - PPR for AMD Family 17h Models 01h,08h, rev B2 (pub. 54945),
 *   - PPR for AMD Family 17h Model 31h, rev B0 (pub. 55803),
 *   - PPR for AMD Family 19h Model 01h, rev B1 (pub. 55898),
 *   - PPR for AMD Family 19h Model 11h, rev B1 (pub. 55901),
 *   - PPR for AMD Family 19h Model 90h (MI300) for the HBM UMC and SMU v2 rows,
 *   - Revision Guide for AMD Family 19h Models 10h-1Fh (pub. 57095), erratum 1384.
 * The wording is ours.  Caveat, and the reason Linux stopped printing these
 * strings in 2023: some parts reassigned MCA_CTL bits without a new McaType,
 * so on a part newer than these documents a description can be wrong while the
 * code itself (extended_error_code) is always reported verbatim.
 */
#include "amd.h"
#include "macro.h"

#define XEC_TABLE(arr, doc) { .text = (arr), .n = ELEMENTSOF(arr), .source = (doc) }
#define XEC_TABLE_M(arr, mn, doc) { .text = (arr), .n = ELEMENTSOF(arr), .source = (doc), \
	.mnemonic = (mn), .n_mnemonic = ELEMENTSOF(mn) }

#define PPR_17H   "AMD PPR Family 17h Model 01h,08h rev B2 (pub. 54945), MCA_STATUS_<bank> ErrorCodeExt"
#define PPR_19H   "AMD PPR Family 19h Model 01h rev B1 (pub. 55898), MCA_STATUS_<bank> ErrorCodeExt"
#define PPR_19H11 "AMD PPR Family 19h Model 11h rev B1 (pub. 55901), MCA_STATUS_<bank> ErrorCodeExt"
#define PPR_19H90 "AMD PPR Family 19h Model 90h (MI300), MCA_STATUS_<bank> ErrorCodeExt"

/* ---- core (HardwareID 0xB0) ---- */

static const char *const ls_xec[] = {
	[0x00] = "Load queue parity error",
	[0x01] = "Store queue parity error",
	[0x02] = "Miss address buffer payload parity error",
	[0x03] = "L1 TLB parity error",
	[0x04] = "Data cache tag error (type 5)",
	[0x05] = "Data cache tag error (type 6)",
	[0x06] = "Data cache tag error (type 1)",
	[0x07] = "Internal error (type 1)",
	[0x08] = "Internal error (type 2)",
	[0x09] = "System read data error on thread 0",
	[0x0a] = "System read data error on thread 1",
	[0x0b] = "Data cache tag error (type 2)",
	[0x0c] = "Data cache data error (type 1): poison consumed",
	[0x0d] = "Data cache data error (type 2)",
	[0x0e] = "Data cache data error (type 3)",
	[0x0f] = "Data cache tag error (type 4)",
	[0x10] = "L2 TLB parity error",
	[0x11] = "Page directory cache parity error",
	[0x12] = "Data cache tag error (type 3)",
	[0x13] = "Data cache tag error (type 5)",
	[0x14] = "Data error on an L2 fill",
	[0x15] = "Store coalescing buffer error in a line's state or address",
	[0x16] = "Store coalescing buffer data error, commit pipe 0",
	[0x17] = "Store coalescing buffer data error, commit pipe 1",
	[0x18] = "Store coalescing buffer data error for non-cacheable DRAM or I/O",
	[0x19] = "System read data error seen by the write-combining buffer",
	[0x1a] = "Hardware assertion",
};

/* McaType 0x10: the load-store unit of Family 19h Model 10h and later. */
static const char *const ls_v2_xec[] = {
	[0x00] = "Data cache ECC error on a read by a probe or a victimization",
	[0x01] = "Data cache ECC error or L2 poison on a read by a load",
	[0x02] = "Data cache ECC error on a read-modify-write by a store",
	[0x03] = "Tag ECC error or poison mismatch on a read by a probe or a victimization",
	[0x04] = "Tag ECC error or poison mismatch on a read by a load",
	[0x05] = "Tag ECC error or poison mismatch on a read by a store",
	[0x06] = "EMEM ECC error on a read by a load",
	[0x07] = "EMEM ECC error on a read-modify-write by a store",
	[0x08] = "L1 TLB entry parity error",
	[0x09] = "L2 TLB entry parity error",
	[0x0a] = "Page walk cache entry parity error",
	[0x0b] = "Store queue entry parity error",
	[0x0c] = "Load queue entry parity error",
	[0x0d] = "Miss address buffer entry parity error",
	[0x0e] = "Store coalescing buffer state field parity error",
	[0x0f] = "Store coalescing buffer address field parity error",
	[0x10] = "Store coalescing buffer data field parity error",
	[0x11] = "Write-combining buffer entry parity error",
	[0x12] = "Poisoned line in a store coalescing buffer entry",
	[0x13] = "System read data error on L2 data returned for a load",
	[0x14] = "System read data error on L2 data returned for a store coalescing buffer store",
	[0x15] = "System read data error on L2 data returned for a write-combining buffer store",
	[0x16] = "Hardware assertion",
	[0x17] = "Parity error in store-to-load forwarding, store buffer EMEM, store data mask or store data",
};

static const char *const if_xec[] = {
	[0x00] = "Microtag probe port parity error",
	[0x01] = "Instruction cache microtag or full tag multi-hit",
	[0x02] = "Instruction cache full tag parity error",
	[0x03] = "Instruction cache data array parity error",
	[0x04] = "Prefetch request queue parity error",
	[0x05] = "L0 instruction TLB parity error",
	[0x06] = "L1 instruction TLB parity error",
	[0x07] = "L2 instruction TLB parity error",
	[0x08] = "Branch prediction queue snoop parity error, thread 0",
	[0x09] = "Branch prediction queue snoop parity error, thread 1",
	[0x0a] = "L1 branch target buffer multi-hit",
	[0x0b] = "L2 branch target buffer multi-hit",
	[0x0c] = "Poison in an L2 cache response",
	[0x0d] = "System read data error",
	[0x0e] = "Hardware assertion",
	[0x0f] = "L1 TLB multi-hit",
	[0x10] = "L2 TLB multi-hit",
	[0x11] = "Branch status register parity error",
	[0x12] = "Machine check raised by the CT (core trace) logic",
};

static const char *const l2_xec[] = {
	[0x00] = "L2 tag hit in more than one way",
	[0x01] = "L2 tag or state array ECC error",
	[0x02] = "L2 data array ECC error",
	[0x03] = "Hardware assertion",
	[0x04] = "Parity error on an SDP read response",
	[0x05] = "Error raised by the programmable state machine",
};

static const char *const de_xec[] = {
	[0x00] = "Op cache tag array parity error",
	[0x01] = "Op cache data array parity error",
	[0x02] = "Instruction byte buffer register file parity error",
	[0x03] = "Micro-op queue parity error",
	[0x04] = "Instruction dispatch queue parity error",
	[0x05] = "Fetch address FIFO parity error",
	[0x06] = "Microcode patch RAM data parity error",
	[0x07] = "Microcode patch RAM sequencer parity error",
	[0x08] = "Micro-op fetch queue parity error",
	[0x09] = "Hardware assertion",
};

static const char *const ex_xec[] = {
	[0x00] = "Watchdog timeout",
	[0x01] = "Physical register file parity error",
	[0x02] = "Flag register file parity error",
	[0x03] = "Immediate and displacement register file parity error",
	[0x04] = "Address generator payload parity error",
	[0x05] = "Execution payload parity error",
	[0x06] = "Checkpoint queue parity error",
	[0x07] = "Retire dispatch queue parity error",
	[0x08] = "Retire status queue parity error",
	[0x09] = "Scheduler queue parity error",
	[0x0a] = "Branch buffer queue parity error",
	[0x0b] = "Hardware assertion",
	[0x0c] = "Speculative map parity error",
	[0x0d] = "Retire map parity error",
};

static const char *const fp_xec[] = {
	[0x00] = "Physical register file parity error",
	[0x01] = "Free list parity error",
	[0x02] = "Scheduler queue parity error",
	[0x03] = "Non-scheduling queue parity error",
	[0x04] = "Retire queue parity error",
	[0x05] = "Status register file parity error",
	[0x06] = "Hardware assertion",
	[0x07] = "Mask (K) register file parity error",
};

static const char *const l3_xec[] = {
	[0x00] = "Shadow tag ECC error",
	[0x01] = "Shadow tag hit in more than one way",
	[0x02] = "L3 tag ECC error",
	[0x03] = "L3 tag hit in more than one way",
	[0x04] = "L3 data array ECC error",
	[0x05] = "SDP parity error from the XI block",
	[0x06] = "Data fabric error on an L3 victim",
	[0x07] = "Hardware assertion",
	[0x08] = "Poison created for an XI write-combining buffer parity error",
	[0x09] = "Machine check raised by a debug state machine action",
};

/* ---- data fabric (HardwareID 0x2E) ---- */

static const char *const cs_xec[] = {
	[0x00] = "Illegal request",
	[0x01] = "Address violation",
	[0x02] = "Security violation",
	[0x03] = "Illegal response",
	[0x04] = "Unexpected response",
	[0x05] = "Parity error on a request or a probe",
	[0x06] = "Parity error on a read response",
	[0x07] = "Parity error on an atomic request",
	[0x08] = "Probe filter ECC error",
};

static const char *const cs_v2_xec[] = {
	[0x00] = "Illegal request",
	[0x01] = "Address violation",
	[0x02] = "Security violation",
	[0x03] = "Illegal response",
	[0x04] = "Unexpected response",
	[0x05] = "Parity error on a request or a probe",
	[0x06] = "Parity error on a read response",
	[0x07] = "Parity error on an atomic request",
	[0x08] = "SDP read response matched no entry in the coherent station queue",
	[0x09] = "Probe filter protocol error",
	[0x0a] = "Probe filter ECC error",
	[0x0b] = "SDP read response carried an unexpected RETRY",
	[0x0c] = "Counter overflow",
	[0x0d] = "Counter underflow",
	[0x0e] = "Illegal request on the no-data channel",
	[0x0f] = "Address violation on the no-data channel",
	[0x10] = "Security violation on the no-data channel",
	[0x11] = "Hardware assertion",
	[0x12] = "Shadow tag array protocol error",
	[0x13] = "Shadow tag ECC error",
	[0x14] = "Shadow tag transaction error",
};

/* Erratum 1384: the CS codes from 0x09 up sit at other positions on these parts. */
static const char *const cs_v2_erratum_1384_xec[] = {
	[0x00] = "Illegal request",
	[0x01] = "Address violation",
	[0x02] = "Security violation",
	[0x03] = "Illegal response",
	[0x04] = "Unexpected response",
	[0x05] = "Parity error on a request or a probe",
	[0x06] = "Parity error on a read response",
	[0x07] = "Parity error on an atomic request",
	[0x08] = "SDP read response matched no entry in the coherent station queue",
	[0x09] = "SDP read response carried an unexpected RETRY",
	[0x0a] = "Counter overflow",
	[0x0b] = "Counter underflow",
	[0x0c] = "Probe filter protocol error",
	[0x0d] = "Probe filter ECC error",
	[0x0e] = "Illegal request on the no-data channel",
	[0x0f] = "Address violation on the no-data channel",
	[0x10] = "Security violation on the no-data channel",
	[0x11] = "Hardware assertion",
};

static const char *const pie_xec[] = {
	[0x00] = "Hardware assertion",
	[0x01] = "Register security violation",
	[0x02] = "Link error",
	[0x03] = "Poisoned data consumed",
	[0x04] = "Deferred error detected in the data fabric",
	[0x05] = "Watchdog timer expired",
	[0x06] = "SRAM ECC error in the CNLI block",
	[0x07] = "Register accessed while the data fabric was in a C-state",
	[0x08] = "Debug state machine error",
};

static const char *const ma_llc_xec[] = {
	[0x00] = "Counter overflow",
	[0x01] = "Counter underflow",
	[0x02] = "Write data parity error",
	[0x03] = "Read response parity error",
	[0x04] = "Cache tag ECC error in macro 0",
	[0x05] = "Cache tag ECC error in macro 1",
	[0x06] = "Cache data ECC error",
};

/* ---- memory controllers (HardwareID 0x96) ---- */

static const char *const umc_xec[] = {
	[0x00] = "DRAM ECC error",
	[0x01] = "Poisoned data written to DRAM",
	[0x02] = "SDP parity error",
	[0x03] = "Advanced peripheral bus error",
	[0x04] = "Command or address parity error",
	[0x05] = "Write data CRC error",
	[0x06] = "DCQ SRAM ECC error",
	[0x07] = "AES SRAM ECC error",
	[0x08] = "Error check and scrub: row error",
	[0x09] = "Error check and scrub: error",
	[0x0a] = "UMC throttling error",
	[0x0b] = "Read CRC error",
	[0x10] = "RFM SRAM ECC error",
};

/* The HBM3 controllers of Family 19h Models 90h-9Fh report under the UMC McaType. */
static const char *const umc_hbm3_xec[] = {
	[0x00] = "HBM on-die ECC error",
	[0x01] = "Poisoned data",
	[0x02] = "SDP parity error",
	[0x04] = "Address or command parity error",
	[0x05] = "HBM write data parity error",
	[0x06] = "Consolidated SRAM ECC error",
	[0x09] = "Read data buffer SRAM ECC error",
	[0x0a] = "Thermal throttling",
	[0x0b] = "HBM read data parity error",
	[0x0d] = "UMC firmware error",
	[0x0e] = "SRAM parity error",
	[0x0f] = "HBM CRC error",
};

static const char *const umc_v2_xec[] = {
	[0x00] = "DRAM ECC error",
	[0x01] = "Poisoned data",
	[0x02] = "SDP parity error",
	[0x04] = "Address or command parity error",
	[0x05] = "Write data parity error",
	[0x06] = "DCQ SRAM ECC error",
	[0x08] = "Read data parity error",
	[0x09] = "Read data buffer SRAM ECC error",
	[0x0a] = "Read response SRAM ECC error",
	[0x0b] = "LM32 microprocessor error",
};

/* ---- management and security processors ---- */

static const char *const pb_xec[] = {
	[0x00] = "ECC error in the parameter block RAM",
};

static const char *const psp_xec[] = {
	[0x00] = "ECC or parity error in a PSP RAM",
};

static const char *const psp_v2_xec[] = {
	[0x00] = "High SRAM ECC or parity error",
	[0x01] = "Low SRAM ECC or parity error",
	[0x02] = "Instruction cache bank 0 ECC or parity error",
	[0x03] = "Instruction cache bank 1 ECC or parity error",
	[0x04] = "Instruction tag RAM 0 parity error",
	[0x05] = "Instruction tag RAM 1 parity error",
	[0x06] = "Data cache bank 0 ECC or parity error",
	[0x07] = "Data cache bank 1 ECC or parity error",
	[0x08] = "Data cache bank 2 ECC or parity error",
	[0x09] = "Data cache bank 3 ECC or parity error",
	[0x0a] = "Data tag bank 0 parity error",
	[0x0b] = "Data tag bank 1 parity error",
	[0x0c] = "Data tag bank 2 parity error",
	[0x0d] = "Data tag bank 3 parity error",
	[0x0e] = "Dirty data RAM parity error",
	[0x0f] = "TLB bank 0 parity error",
	[0x10] = "TLB bank 1 parity error",
	[0x11] = "System hub read buffer ECC or parity error",
	[0x12] = "Fuse IP SRAM ECC or parity error",
	[0x13] = "PCRU fuse SRAM ECC or parity error",
	[0x14] = "SIB SRAM parity error",
	[0x15] = "Secure processor SECEMC error",
	[0x16] = "Secure processor A5 core hang",
	[0x17] = "SIB watchdog timer expired",
};

static const char *const smu_xec[] = {
	[0x00] = "ECC or parity error in an SMU RAM",
};

static const char *const smu_v2_xec[] = {
	[0x00] = "High SRAM ECC or parity error",
	[0x01] = "Low SRAM ECC or parity error",
	[0x02] = "Data cache bank A ECC or parity error",
	[0x03] = "Data cache bank B ECC or parity error",
	[0x04] = "Data tag cache bank A ECC or parity error",
	[0x05] = "Data tag cache bank B ECC or parity error",
	[0x06] = "Instruction cache bank A ECC or parity error",
	[0x07] = "Instruction cache bank B ECC or parity error",
	[0x08] = "Instruction tag cache bank A ECC or parity error",
	[0x09] = "Instruction tag cache bank B ECC or parity error",
	[0x0a] = "System hub read buffer ECC or parity error",
	[0x0b] = "PHY RAS ECC error",
	/* MI300A: errors forwarded from the graphics sub-IPs. */
	[0x3a] = "Correctable error from a graphics sub-IP",
	[0x3b] = "Fatal error from a graphics sub-IP",
	[0x3e] = "Poison error from a graphics sub-IP",
};

static const char *const mp5_xec[] = {
	[0x00] = "High SRAM ECC or parity error",
	[0x01] = "Low SRAM ECC or parity error",
	[0x02] = "Data cache bank A ECC or parity error",
	[0x03] = "Data cache bank B ECC or parity error",
	[0x04] = "Data tag cache bank A ECC or parity error",
	[0x05] = "Data tag cache bank B ECC or parity error",
	[0x06] = "Instruction cache bank A ECC or parity error",
	[0x07] = "Instruction cache bank B ECC or parity error",
	[0x08] = "Instruction tag cache bank A ECC or parity error",
	[0x09] = "Instruction tag cache bank B ECC or parity error",
	[0x0a] = "Fuse SRAM ECC or parity error",
};

/* MPDMA has three microprocessor cores; codes 0x04-0x1B repeat one cache set per core. */
static const char *const mpdma_xec[] = {
	[0x00] = "Main SRAM bits 31:0 ECC or parity error",
	[0x01] = "Main SRAM bits 63:32 ECC or parity error",
	[0x02] = "Main SRAM bits 95:64 ECC or parity error",
	[0x03] = "Main SRAM bits 127:96 ECC or parity error",
	[0x04] = "Core 0 data cache bank A ECC or parity error",
	[0x05] = "Core 0 data cache bank B ECC or parity error",
	[0x06] = "Core 0 data tag cache bank A ECC or parity error",
	[0x07] = "Core 0 data tag cache bank B ECC or parity error",
	[0x08] = "Core 0 instruction cache bank A ECC or parity error",
	[0x09] = "Core 0 instruction cache bank B ECC or parity error",
	[0x0a] = "Core 0 instruction tag cache bank A ECC or parity error",
	[0x0b] = "Core 0 instruction tag cache bank B ECC or parity error",
	[0x0c] = "Core 1 data cache bank A ECC or parity error",
	[0x0d] = "Core 1 data cache bank B ECC or parity error",
	[0x0e] = "Core 1 data tag cache bank A ECC or parity error",
	[0x0f] = "Core 1 data tag cache bank B ECC or parity error",
	[0x10] = "Core 1 instruction cache bank A ECC or parity error",
	[0x11] = "Core 1 instruction cache bank B ECC or parity error",
	[0x12] = "Core 1 instruction tag cache bank A ECC or parity error",
	[0x13] = "Core 1 instruction tag cache bank B ECC or parity error",
	[0x14] = "Core 2 data cache bank A ECC or parity error",
	[0x15] = "Core 2 data cache bank B ECC or parity error",
	[0x16] = "Core 2 data tag cache bank A ECC or parity error",
	[0x17] = "Core 2 data tag cache bank B ECC or parity error",
	[0x18] = "Core 2 instruction cache bank A ECC or parity error",
	[0x19] = "Core 2 instruction cache bank B ECC or parity error",
	[0x1a] = "Core 2 instruction tag cache bank A ECC or parity error",
	[0x1b] = "Core 2 instruction tag cache bank B ECC or parity error",
	[0x1c] = "System hub read buffer ECC or parity error",
	[0x1d] = "TVF DVSEC memory ECC or parity error",
	[0x1e] = "TVF MMIO mailbox 0 ECC or parity error",
	[0x1f] = "TVF MMIO mailbox 1 ECC or parity error",
	[0x20] = "TVF doorbell memory ECC or parity error",
	[0x21] = "TVF SDP slave memory 0 ECC or parity error",
	[0x22] = "TVF SDP slave memory 1 ECC or parity error",
	[0x23] = "TVF SDP slave memory 2 ECC or parity error",
	[0x24] = "TVF SDP master memory 0 ECC or parity error",
	[0x25] = "TVF SDP master memory 1 ECC or parity error",
	[0x26] = "TVF SDP master memory 2 ECC or parity error",
	[0x27] = "TVF SDP master memory 3 ECC or parity error",
	[0x28] = "TVF SDP master memory 4 ECC or parity error",
	[0x29] = "TVF SDP master memory 5 ECC or parity error",
	[0x2a] = "TVF SDP master memory 6 ECC or parity error",
	[0x2b] = "SDP watchdog timer expired",
	[0x2c] = "PTE command FIFO ECC or parity error",
	[0x2d] = "PTE hub data FIFO ECC or parity error",
	[0x2e] = "PTE internal data FIFO ECC or parity error",
	[0x2f] = "PTE command memory (DMA) ECC or parity error",
	[0x30] = "PTE command memory (internal) ECC or parity error",
	[0x31] = "TVF SDP master memory 7 ECC or parity error",
};

/* ---- I/O ---- */

static const char *const nbio_xec[] = {
	[0x00] = "ECC or parity error",
	[0x01] = "PCIe error",
	[0x02] = "External SDP error event",
	[0x03] = "Poison on SDP egress",
	[0x04] = "Internal poison",
	[0x05] = "Internal system fatal error event",
};

static const char *const pcie_xec[] = {
	[0x00] = "CCIX PER message logged",
	[0x01] = "CCIX read response with a non-data error status",
	[0x02] = "CCIX write response with a non-data error status",
	[0x03] = "CCIX read response with a data error status",
	[0x04] = "CCIX write response not OK, with a data error",
};

static const char *const pcie_v2_xec[] = {
	[0x00] = "SDP data parity error",
};

/* NBIF and SHUB document the same four codes. */
static const char *const nbif_xec[] = {
	[0x00] = "Timeout from GMI",
	[0x01] = "SRAM ECC error",
	[0x02] = "NTB error event",
	[0x03] = "SDP parity error",
};

static const char *const sata_xec[] = {
	[0x00] = "Parity error on port 0",
	[0x01] = "Parity error on port 1",
	[0x02] = "Parity error on port 2",
	[0x03] = "Parity error on port 3",
	[0x04] = "Parity error on port 4",
	[0x05] = "Parity error on port 5",
	[0x06] = "Parity error on port 6",
	[0x07] = "Parity error on port 7",
};

static const char *const usb_xec[] = {
	[0x00] = "Parity or ECC error in S0 RAM 0",
	[0x01] = "Parity or ECC error in S0 RAM 1",
	[0x02] = "Parity or ECC error in S0 RAM 2",
	[0x03] = "Parity error in PHY RAM 0",
	[0x04] = "Parity error in PHY RAM 1",
	[0x05] = "AXI slave response error",
};

/* ---- links: xGMI, GMI, WAFL, ultra short reach ---- */

static const char *const xgmi_pcs_xec[] = {
	[0x00] = "Data loss",
	[0x01] = "Training error",
	[0x02] = "Flow control acknowledge error",
	[0x03] = "Receive FIFO underflow",
	[0x04] = "Receive FIFO overflow",
	[0x05] = "CRC error",
	[0x06] = "Bit error rate exceeded",
	[0x07] = "Transmit VCID data error",
	[0x08] = "Replay buffer parity error",
	[0x09] = "Data parity error",
	[0x0a] = "Replay FIFO overflow",
	[0x0b] = "Replay FIFO underflow",
	[0x0c] = "Elastic FIFO overflow",
	[0x0d] = "Deskew error",
	[0x0e] = "Flow control CRC error",
	[0x0f] = "Data startup limit reached",
	[0x10] = "Flow control initialization timeout",
	[0x11] = "Recovery timeout",
	[0x12] = "Ready serial timeout",
	[0x13] = "Ready serial attempts exhausted",
	[0x14] = "Recovery attempts exhausted",
	[0x15] = "Recovery relock attempts exhausted",
	[0x16] = "Replay attempts exhausted",
	[0x17] = "Sync header error",
	[0x18] = "Transmit replay timeout",
	[0x19] = "Receive replay timeout",
	[0x1a] = "Link sub-layer transmit timeout",
	[0x1b] = "Link sub-layer receive timeout",
	[0x1c] = "Receive command packet error",
};

static const char *const gmi_pcs_xec[] = {
	[0x00] = "Data loss",
	[0x01] = "Training error",
	[0x02] = "Replay parity error",
	[0x03] = "Receive FIFO underflow",
	[0x04] = "Receive FIFO overflow",
	[0x05] = "CRC error",
	[0x06] = "Bit error rate exceeded",
	[0x07] = "Transmit FIFO underflow",
	[0x08] = "Replay buffer parity error",
	[0x09] = "Transmit overflow",
	[0x0a] = "Replay FIFO overflow",
	[0x0b] = "Replay FIFO underflow",
	[0x0c] = "Elastic FIFO overflow",
	[0x0d] = "Deskew error",
	[0x0e] = "Link went offline",
	[0x0f] = "Data startup limit reached",
	[0x10] = "Flow control initialization timeout",
	[0x11] = "Recovery timeout",
	[0x12] = "Ready serial timeout",
	[0x13] = "Ready serial attempts exhausted",
	[0x14] = "Recovery attempts exhausted",
	[0x15] = "Recovery relock attempts exhausted",
	[0x16] = "Deskew aborted",
	[0x17] = "Receive buffer error",
	[0x18] = "Receive LFDS FIFO overflow",
	[0x19] = "Receive LFDS FIFO underflow",
	[0x1a] = "Link sub-layer transmit timeout",
	[0x1b] = "Link sub-layer receive timeout",
	[0x1c] = "Receive command packet error",
	[0x1d] = "LFDS training timeout",
	[0x1e] = "LFDS flow control initialization timeout",
	[0x1f] = "Data loss",
};

/* The xGMI, WAFL and GMI PHYs document the same four codes. */
static const char *const phy_xec[] = {
	[0x00] = "RAM ECC error",
	[0x01] = "ARC instruction buffer parity error",
	[0x02] = "ARC data buffer parity error",
	[0x03] = "PHY APB error",
};

static const char *const usr_dp_xec[] = {
	[0x00] = "Master command error",
	[0x01] = "Master receive FIFO error",
	[0x02] = "Master deskew error",
	[0x03] = "Master detect timeout",
	[0x04] = "Master flow control error",
	[0x05] = "Master data-valid FIFO error",
	[0x06] = "MAC link state error",
	[0x07] = "Deskew error",
	[0x08] = "Initialization timeout",
	[0x09] = "Initialization attempts exhausted",
	[0x0a] = "Recovery timeout",
	[0x0b] = "Recovery attempts exhausted",
	[0x0c] = "Eye training timeout",
	[0x0d] = "Data startup limit reached",
	[0x0e] = "LS0 exit error",
	[0x0f] = "PLL power state update timeout",
	[0x10] = "Receive FIFO error",
	[0x11] = "LCU error",
	[0x12] = "Correctable ECC error in the converter",
	[0x13] = "Uncorrectable ECC error in the converter",
	[0x15] = "Receive data loss",
	[0x16] = "Correctable ECC error in the replay buffer",
	[0x17] = "Uncorrectable ECC error in the replay buffer",
	[0x18] = "CRC error",
	[0x19] = "Bit error rate exceeded",
	[0x1a] = "Flow control initialization timeout",
	[0x1b] = "Flow control initialization attempts exhausted",
	[0x1c] = "Replay timeout",
	[0x1d] = "Replay attempts exhausted",
	[0x1e] = "Replay underflow",
	[0x1f] = "Replay overflow",
};

static const char *const usr_cp_xec[] = {
	[0x00] = "Packet type error",
	[0x01] = "Receive FIFO error",
	[0x02] = "Deskew error",
	[0x03] = "Receive detect timeout",
	[0x04] = "Data parity error",
	[0x05] = "Data loss",
	[0x06] = "LCU error",
	[0x07] = "HB1 handshake timeout",
	[0x08] = "HB2 handshake timeout",
	[0x09] = "Clock sleep response timeout",
	[0x0a] = "Clock wake response timeout",
	[0x0b] = "Reset attack detected",
	[0x0c] = "Remote link fatal error",
};

/*
 * Mnemonics: the field names of MCA_CTL_<bank> in the PPR for Family 17h
 * Models 01h,08h (pub. 54945), whose bit n enables the error of
 * ErrorCodeExt n.  Only codes whose meaning is unchanged between that PPR
 * and the table's own source get one; the rest have none rather than a guess.
 */
static const char *const ls_mn[] = {
	[0x00] = "LDQ", [0x01] = "STQ", [0x02] = "MAB", [0x03] = "L1DTLB",
	[0x04] = "DcTagErr5", [0x05] = "DcTagErr6", [0x06] = "DcTagErr1",
	[0x07] = "IntErrTyp1", [0x08] = "IntErrTyp2",
	[0x09] = "SystemReadDataErrorT0", [0x0a] = "SystemReadDataErrorT1",
	[0x0b] = "DcTagErr2", [0x0c] = "DcDataErr1", [0x0d] = "DcDataErr2",
	[0x0e] = "DcDataErr3", [0x0f] = "DcTagErr4", [0x10] = "L2DTLB", [0x11] = "PDC",
	[0x12] = "DcTagErr3", [0x13] = "DcTagErr7", [0x14] = "L2DataErr",
};
static const char *const if_mn[] = {
	[0x00] = "OcUtagParity", [0x01] = "TagMultiHit", [0x02] = "TagParity",
	[0x03] = "DataParity", [0x05] = "L0ItlbParity", [0x06] = "L1ItlbParity",
	[0x07] = "L2ItlbParity", [0x08] = "BpqSnpParT0", [0x09] = "BpqSnpParT1",
	[0x0a] = "L1BtbMultiHit", [0x0b] = "L2BtbMultiHit", [0x0c] = "L2RespPoison",
	[0x0d] = "SystemReadDataError",
};
static const char *const l2_mn[] = {
	[0x00] = "MultiHit", [0x01] = "Tag", [0x02] = "Data", [0x03] = "Hwa",
};
static const char *const de_mn[] = {
	[0x00] = "OcTag", [0x01] = "OcDat", [0x02] = "Ibq", [0x03] = "UopQ",
	[0x04] = "Idq", [0x05] = "Faq", [0x06] = "UcDat", [0x07] = "UcSeq",
};
static const char *const ex_mn[] = {
	[0x00] = "WDT", [0x01] = "PRF", [0x02] = "FRF", [0x03] = "IDRF",
	[0x04] = "PLDAG", [0x05] = "PLDAL", [0x06] = "CHKPTQ", [0x07] = "RETDISP",
	[0x08] = "STATQ", [0x09] = "SQ", [0x0a] = "BBQ",
};
static const char *const fp_mn[] = {
	[0x00] = "PRF", [0x01] = "FL", [0x02] = "SCH", [0x03] = "NSQ",
	[0x04] = "RQ", [0x05] = "SRF", [0x06] = "HWA",
};
static const char *const l3_mn[] = {
	[0x00] = "ShadowTag", [0x01] = "MultiHitShadowTag", [0x02] = "Tag",
	[0x03] = "MultiHitTag", [0x04] = "DataArray", [0x05] = "SdpParity",
	[0x07] = "Hwa",
};
static const char *const cs_mn[] = {
	[0x00] = "FTI_ILL_REQ", [0x01] = "FTI_ADDR_VIOL", [0x02] = "FTI_SEC_VIOL",
	[0x03] = "FTI_ILL_RSP", [0x04] = "FTI_RSP_NO_MTCH", [0x05] = "FTI_PAR_ERR",
	[0x06] = "SDP_PAR_ERR", [0x07] = "ATM_PAR_ERR", [0x08] = "SPF_ECC_ERR",
};
static const char *const pie_mn[] = {
	[0x00] = "HW_ASSERT", [0x01] = "CSW", [0x02] = "GMI", [0x03] = "FTI_DAT_STAT",
};
static const char *const umc_mn[] = {
	[0x00] = "DramEccErr", [0x01] = "WriteDataPoisonErr", [0x02] = "SdpParityErr",
	[0x03] = "ApbErr", [0x04] = "AddressCommandParityErr", [0x05] = "WriteDataCrcErr",
};
static const char *const pb_mn[] = {
	[0x00] = "EccError",
};

static const struct amd_xec_table
	t_ls = XEC_TABLE_M(ls_xec, ls_mn, PPR_17H),
	t_ls_v2 = XEC_TABLE(ls_v2_xec, PPR_19H11),
	t_if = XEC_TABLE_M(if_xec, if_mn, PPR_19H),
	t_l2 = XEC_TABLE_M(l2_xec, l2_mn, PPR_19H),
	t_de = XEC_TABLE_M(de_xec, de_mn, PPR_19H),
	t_ex = XEC_TABLE_M(ex_xec, ex_mn, PPR_19H),
	t_fp = XEC_TABLE_M(fp_xec, fp_mn, PPR_19H11),
	t_l3 = XEC_TABLE_M(l3_xec, l3_mn, PPR_19H),
	t_cs = XEC_TABLE_M(cs_xec, cs_mn, PPR_17H),
	t_cs_v2 = XEC_TABLE(cs_v2_xec, PPR_19H),
	t_cs_v2_e1384 = XEC_TABLE(cs_v2_erratum_1384_xec,
				  "AMD Family 19h Models 10h-1Fh Revision Guide (pub. 57095), erratum 1384"),
	t_pie = XEC_TABLE_M(pie_xec, pie_mn, PPR_19H),
	t_ma_llc = XEC_TABLE(ma_llc_xec, PPR_19H),
	t_umc = XEC_TABLE_M(umc_xec, umc_mn, PPR_19H11),
	t_umc_hbm3 = XEC_TABLE(umc_hbm3_xec, PPR_19H90),
	t_umc_v2 = XEC_TABLE(umc_v2_xec, PPR_19H90),
	t_pb = XEC_TABLE_M(pb_xec, pb_mn, PPR_17H),
	t_psp = XEC_TABLE(psp_xec, PPR_17H),
	t_psp_v2 = XEC_TABLE(psp_v2_xec, PPR_19H11),
	t_smu = XEC_TABLE(smu_xec, PPR_17H),
	t_smu_v2 = XEC_TABLE(smu_v2_xec, PPR_19H90),
	t_mp5 = XEC_TABLE(mp5_xec, PPR_19H11),
	t_mpdma = XEC_TABLE(mpdma_xec, PPR_19H11),
	t_nbio = XEC_TABLE(nbio_xec, PPR_19H),
	t_pcie = XEC_TABLE(pcie_xec, PPR_19H),
	t_pcie_v2 = XEC_TABLE(pcie_v2_xec, PPR_19H11),
	t_nbif = XEC_TABLE(nbif_xec, PPR_19H11),
	t_sata = XEC_TABLE(sata_xec, PPR_19H11),
	t_usb = XEC_TABLE(usb_xec, PPR_19H11),
	t_xgmi_pcs = XEC_TABLE(xgmi_pcs_xec, PPR_19H11),
	t_gmi_pcs = XEC_TABLE(gmi_pcs_xec, PPR_19H11),
	t_phy = XEC_TABLE(phy_xec, PPR_19H11),
	t_usr_dp = XEC_TABLE(usr_dp_xec, PPR_19H11),
	t_usr_cp = XEC_TABLE(usr_cp_xec, PPR_19H11);

#define BT(h, m, t, n, x) \
	{ .hwid = (h), .mcatype = (m), .type = (t), .name = (n), .locator = SMCA_LOC_NONE, .xec = (x) }
#define BT_LOC(h, m, t, n, loc, x) \
	{ .hwid = (h), .mcatype = (m), .type = (t), .name = (n), .locator = (loc), .xec = (x) }

/*
 * Sorted by (HardwareID, McaType); amd-smca.c binary-searches it and the unit
 * test checks the order.  The "V2" McaTypes are newer revisions of the same
 * block and keep its short name; UMC v2 is the exception because the kernel
 * names it separately ("umc_v2"): GPU-attached HBM controllers and CPU DRAM
 * controllers can sit in one system.
 *
 * "Coherent Slave" is the name every kernel up to 2026 prints; AMD's newer
 * documents call the block "Coherent Station" (same short name CS).
 *
 * The rows after MA_LLC with NULL XEC tables are the bank types Linux learned
 * in 2026 (MPRAS, SSBDCI, MPDACC, MPM, MPASP, MPART, DACC, eDDR5 CMN, PCIe
 * link) whose codes no public PPR we follow documents yet.
 */
const struct smca_bank_type smca_bank_types[] = {
	BT(0x000, 0x0, "RESERVED", "Reserved", NULL),
	BT(0x001, 0x0, "SMU", "System Management Unit", &t_smu),
	BT(0x001, 0x1, "SMU", "System Management Unit", &t_smu_v2),
	BT(0x001, 0x2, "MP5", "Microprocessor 5 Unit", &t_mp5),
	BT(0x001, 0x3, "MPDMA", "MPDMA Unit", &t_mpdma),
	BT(0x005, 0x0, "PB", "Parameter Block", &t_pb),
	BT(0x012, 0x0, "MPRAS", "MPRAS Unit", NULL),
	BT(0x018, 0x0, "NBIO", "Northbridge IO Unit", &t_nbio),
	BT(0x02e, 0x0, "CS", "Coherent Slave", &t_cs),
	BT(0x02e, 0x1, "PIE", "Power, Interrupts, etc.", &t_pie),
	BT(0x02e, 0x2, "CS", "Coherent Slave", &t_cs_v2),
	BT(0x02e, 0x4, "MA_LLC", "Memory Attached Last Level Cache", &t_ma_llc),
	BT(0x046, 0x0, "PCIE", "PCI Express Unit", &t_pcie),
	BT(0x046, 0x1, "PCIE", "PCI Express Unit", &t_pcie_v2),
	BT(0x050, 0x0, "XGMI_PCS", "Ext Global Memory Interconnect PCS Unit", &t_xgmi_pcs),
	BT(0x05c, 0x0, "SSBDCI", "Die to Die Interconnect Unit", NULL),
	BT(0x06c, 0x0, "NBIF", "NBIF Unit", &t_nbif),
	BT(0x080, 0x0, "SHUB", "System Hub Unit", &t_nbif),
	BT_LOC(0x096, 0x0, "UMC", "Unified Memory Controller", SMCA_LOC_UMC, &t_umc),
	BT_LOC(0x096, 0x1, "UMC_V2", "Unified Memory Controller v2", SMCA_LOC_UMC_HBM, &t_umc_v2),
	BT(0x0a8, 0x0, "SATA", "SATA Unit", &t_sata),
	BT(0x0aa, 0x0, "USB", "USB Unit", &t_usb),
	BT(0x0b0, 0x0, "LS", "Load Store Unit", &t_ls),
	BT(0x0b0, 0x1, "IF", "Instruction Fetch Unit", &t_if),
	BT(0x0b0, 0x2, "L2", "L2 Cache", &t_l2),
	BT(0x0b0, 0x3, "DE", "Decode Unit", &t_de),
	BT(0x0b0, 0x5, "EX", "Execution Unit", &t_ex),
	BT(0x0b0, 0x6, "FP", "Floating Point Unit", &t_fp),
	BT(0x0b0, 0x7, "L3", "L3 Cache", &t_l3),
	BT(0x0b0, 0x10, "LS", "Load Store Unit", &t_ls_v2),
	BT(0x0be, 0x0, "MPDACC", "MPDACC Unit", NULL),
	BT(0x0f9, 0x0, "MPM", "MPM Unit", NULL),
	BT(0x0fd, 0x0, "MPASP", "MPASP Unit", NULL),
	BT(0x0fd, 0x1, "MPASP", "MPASP Unit", NULL),
	BT(0x0ff, 0x0, "PSP", "Platform Security Processor", &t_psp),
	BT(0x0ff, 0x1, "PSP", "Platform Security Processor", &t_psp_v2),
	BT(0x0ff, 0x2, "MPART", "MPART Unit", NULL),
	BT(0x157, 0x0, "DACC_FE", "DACC Front-end Unit", NULL),
	BT(0x164, 0x0, "DACC_BE", "DACC Back-end Unit", NULL),
	BT(0x170, 0x0, "USR_DP", "Ultra Short Reach Data Plane Controller", &t_usr_dp),
	BT(0x180, 0x0, "USR_CP", "Ultra Short Reach Control Plane Controller", &t_usr_cp),
	BT(0x1e0, 0x0, "EDDR5CMN", "eDDR5 CMN Unit", NULL),
	BT(0x1e1, 0x0, "PCIE_PL", "PCIe Link Unit", NULL),
	BT(0x241, 0x0, "GMI_PCS", "Global Memory Interconnect PCS Unit", &t_gmi_pcs),
	BT(0x259, 0x0, "XGMI_PHY", "Ext Global Memory Interconnect PHY Unit", &t_phy),
	BT(0x267, 0x0, "WAFL_PHY", "WAFL PHY Unit", &t_phy),
	BT(0x269, 0x0, "GMI_PHY", "Global Memory Interconnect PHY Unit", &t_phy),
};
const size_t smca_n_bank_types = ELEMENTSOF(smca_bank_types);

/*
 * Model-range replacements.  Same key and names as the row they replace, so a
 * record keeps its bank_type/bank_name and only the code meanings (and, for
 * HBM, the channel arithmetic) change.  These are what other decoders call the
 * "CS_V2 quirk" and "UMC quirk" pseudo-types.
 */
const struct smca_bank_type smca_cs_v2_erratum_1384 =
	BT(0x02e, 0x2, "CS", "Coherent Slave", &t_cs_v2_e1384);

const struct smca_bank_type smca_umc_hbm3 =
	BT_LOC(0x096, 0x0, "UMC", "Unified Memory Controller", SMCA_LOC_UMC_HBM, &t_umc_hbm3);

static const struct smca_bank_type *const no_overrides[] = { NULL };
static const struct smca_bank_type *const cs_1384_overrides[] = { &smca_cs_v2_erratum_1384, NULL };
static const struct smca_bank_type *const hbm3_overrides[] = { &smca_umc_hbm3, NULL };

const struct smca_profile smca_profile_plain = { .overrides = no_overrides };
const struct smca_profile smca_profile_cs_erratum_1384 = { .overrides = cs_1384_overrides };
const struct smca_profile smca_profile_hbm3 = { .overrides = hbm3_overrides };
