/* SPDX-License-Identifier: MIT */
#pragma once

/*
 * The raw machine-check record: what a source saw, before any decoding.
 * Every stage (sources, decoders, rules, sinks, mcectl) shares this one type.
 *
 * A field is known only when its MCE_HAVE_* bit is set in ->have: absent
 * means unknown, and nothing downstream may invent a default for it.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum mce_vendor {
	MCE_VENDOR_UNKNOWN,
	MCE_VENDOR_INTEL,
	MCE_VENDOR_AMD,
	MCE_VENDOR_HYGON,
	MCE_VENDOR_ZHAOXIN,
	MCE_VENDOR_CENTAUR,
	MCE_VENDOR_ARM,
	_MCE_VENDOR_MAX,
};

/* Where a record came from; the JSON "source" key. */
enum mce_source {
	MCE_SOURCE_UNKNOWN,
	MCE_SOURCE_TRACEPOINT,   /* mce:mce_record via perf_event_open */
	MCE_SOURCE_REPLAY,       /* --replay FILE */
	MCE_SOURCE_DEV_MCELOG,   /* legacy /dev/mcelog */
	MCE_SOURCE_MSR_POLL,     /* our own poll of /dev/cpu/N/msr */
	MCE_SOURCE_PREVIOUS_BOOT,/* firmware (BERT) or kernel-kept records of the last boot */
	MCE_SOURCE_DECODE,       /* mcectl decode input */
	/* The kernel's ras:* tracepoints, one source each (struct ras_record). */
	MCE_SOURCE_RAS_MC_EVENT,
	MCE_SOURCE_RAS_AER_EVENT,
	MCE_SOURCE_RAS_MEMORY_FAILURE_EVENT,
	MCE_SOURCE_RAS_EXTLOG_MEM_EVENT,
	MCE_SOURCE_RAS_ARM_EVENT,
	MCE_SOURCE_RAS_NON_STANDARD_EVENT,
	/* The kernel's cxl:* tracepoints, one source each (struct ras_record). */
	MCE_SOURCE_CXL_AER_UNCORRECTABLE,
	MCE_SOURCE_CXL_AER_CORRECTABLE,
	MCE_SOURCE_CXL_PORT_AER_UNCORRECTABLE,
	MCE_SOURCE_CXL_PORT_AER_CORRECTABLE,
	MCE_SOURCE_CXL_OVERFLOW,
	MCE_SOURCE_CXL_GENERIC_EVENT,
	MCE_SOURCE_CXL_GENERAL_MEDIA,
	MCE_SOURCE_CXL_DRAM,
	MCE_SOURCE_CXL_MEMORY_MODULE,
	MCE_SOURCE_CXL_POISON,
	MCE_SOURCE_CXL_MEMORY_SPARING,
	/* The kernel's pci:* tracepoints (struct ras_record). */
	MCE_SOURCE_PCI_HP_EVENT,
	MCE_SOURCE_PCIE_LINK_EVENT,
	/* The kernel's devlink health tracepoints (struct ras_record). */
	MCE_SOURCE_DEVLINK_HEALTH_REPORT,
	MCE_SOURCE_DEVLINK_RECOVER_ABORTED,
	/* A process the kernel sent SIGBUS for a memory error (signal:signal_generate, filtered). */
	MCE_SOURCE_SIGNAL_GENERATE,
	/* A failed disk request: block:block_rq_error, or block_rq_complete filtered to errors. */
	MCE_SOURCE_BLOCK_RQ_ERROR,
	MCE_SOURCE_BLOCK_RQ_COMPLETE,
	_MCE_SOURCE_MAX,
};

enum mce_have {
	MCE_HAVE_TIME      = 1u << 0,
	MCE_HAVE_CPU       = 1u << 1,
	MCE_HAVE_SOCKET    = 1u << 2,
	MCE_HAVE_APICID    = 1u << 3,
	MCE_HAVE_BANK      = 1u << 4,
	MCE_HAVE_CPUID     = 1u << 5,  /* family, model, stepping */
	MCE_HAVE_MICROCODE = 1u << 6,
	MCE_HAVE_PPIN      = 1u << 7,
	MCE_HAVE_MCGCAP    = 1u << 8,
	MCE_HAVE_MCGSTATUS = 1u << 9,
	MCE_HAVE_STATUS    = 1u << 10,
	MCE_HAVE_ADDR      = 1u << 11,
	MCE_HAVE_MISC      = 1u << 12,
	MCE_HAVE_SYND      = 1u << 13,
	MCE_HAVE_IPID      = 1u << 14,
	MCE_HAVE_IP        = 1u << 15,
	MCE_HAVE_TSC       = 1u << 16,
	MCE_HAVE_CS        = 1u << 17,
	MCE_HAVE_VENDOR    = 1u << 18,
	/* The DIMM an Intel EDAC driver (sb_edac, skx_edac, i10nm) located a memory error in. */
	MCE_HAVE_DIMM_SOCKET  = 1u << 19,
	MCE_HAVE_DIMM_MC      = 1u << 20,  /* memory controller (sb_edac: home agent) */
	MCE_HAVE_DIMM_CHANNEL = 1u << 21,
	MCE_HAVE_DIMM_SLOT    = 1u << 22,
	MCE_HAVE_DIMM_RANK    = 1u << 23,
	/*
	 * The bank's long name as a text form printed it ("Unified Memory
	 * Controller"): rasdaemon's rows name an AMD SMCA bank but omit MCA_IPID,
	 * the register that otherwise identifies it.
	 */
	MCE_HAVE_BANK_NAME    = 1u << 24,
	/*
	 * No field: the source itself named STATUS bits 46:45 CECC/UECC (the
	 * AMD EDAC decoder's flag list).  Old kernels print that list without
	 * the family, which is otherwise what tells those bits' meaning.
	 */
	MCE_HAVE_AMD_ECC_NAMED = 1u << 25,
	/*
	 * AMD MCA_SYND1 and MCA_SYND2 (Zen 4 and later SMCA banks), which the
	 * kernel exports since 6.13 as mce_record's vendor data (v_data).  They
	 * come together: the kernel reads both or neither.
	 */
	MCE_HAVE_SYND1        = 1u << 26,
	MCE_HAVE_SYND2        = 1u << 27,
};

#define MCE_HOSTNAME_MAX 64
#define MCE_BOOT_ID_LEN  32   /* 128-bit id as lower-case hex, no dashes */
/* Room for the longest documented SMCA bank name (42 characters); a longer name is no bank's. */
#define MCE_BANK_NAME_MAX 48

struct mce_record {
	uint32_t have;                  /* MCE_HAVE_* */

	int64_t time_usec;              /* CLOCK_REALTIME, microseconds since the epoch */
	enum mce_source source;
	char hostname[MCE_HOSTNAME_MAX];/* empty: unknown */
	char boot_id[MCE_BOOT_ID_LEN + 1];

	uint32_t cpu;                   /* Linux logical CPU number */
	uint32_t socket;
	uint32_t apicid;
	uint32_t bank;

	enum mce_vendor vendor;
	uint32_t family;                /* already combined with the extended family */
	uint32_t model;                 /* already combined with the extended model */
	uint32_t stepping;
	uint32_t microcode;
	uint64_t ppin;

	uint64_t mcgcap;
	uint64_t mcgstatus;
	uint64_t status;
	uint64_t addr;
	uint64_t misc;
	uint64_t synd;
	uint64_t synd1;                 /* MCE_HAVE_SYND1: AMD MCA_SYND1 */
	uint64_t synd2;                 /* MCE_HAVE_SYND2: AMD MCA_SYND2 */
	uint64_t ipid;
	uint64_t ip;
	uint64_t tsc;
	uint8_t cs;

	/* MCE_HAVE_DIMM_*: only the EDAC drivers' text carries these */
	uint32_t dimm_socket;
	uint32_t dimm_mc;
	uint32_t dimm_channel;
	uint32_t dimm_slot;
	uint32_t dimm_rank;

	char bank_name[MCE_BANK_NAME_MAX];  /* MCE_HAVE_BANK_NAME; NUL-terminated */
};

static inline bool mce_record_has(const struct mce_record *r, uint32_t have_bits)
{
	return (r->have & have_bits) == have_bits;
}

/* The names (record.c), read through the functions below: inline, as every record's output asks. */
extern const char *const mce_vendor_names[_MCE_VENDOR_MAX];
extern const char *const mce_source_names[_MCE_SOURCE_MAX];

static inline const char *mce_vendor_to_string(enum mce_vendor v)
{
	return mce_vendor_names[(unsigned) v < _MCE_VENDOR_MAX ? v : MCE_VENDOR_UNKNOWN];
}

enum mce_vendor mce_vendor_from_string(const char *s);   /* MCE_VENDOR_UNKNOWN if not known */
/* Linux's X86_VENDOR_* numbers, as in the tracepoint's cpuvendor and mcelog's PROCESSOR v:cpuid */
enum mce_vendor mce_vendor_from_linux_x86(unsigned v);

static inline const char *mce_source_to_string(enum mce_source s)
{
	return mce_source_names[(unsigned) s < _MCE_SOURCE_MAX ? s : MCE_SOURCE_UNKNOWN];
}

enum mce_source mce_source_from_string(const char *s);

/* CPUID(1).EAX → family/model/stepping, with the SDM's extended-field rules (and Linux's
 * extended model for every base family from 06h, which Zhaoxin's family 07h needs). */
void mce_record_set_cpuid(struct mce_record *r, uint32_t cpuid_eax);

/*
 * The kernel's mce_record vendor data (v_data: struct mce_hw_err's vendor
 * union, 6.13 and later) of LEN bytes.  On AMD and Hygon (r->vendor must be
 * known) its first 16 bytes are MCA_SYND1 and MCA_SYND2, little-endian
 * (arch/x86/include/asm/mce.h: "only add new fields at the end of AMD's
 * vendor structure"), and set them unless both are zero (the kernel read
 * neither); bytes after them no kernel defines yet, and they are not read.
 * Other vendors' kernels leave the union zero: nothing is set.  Returns 0,
 * or -EMSGSIZE (r unchanged) when an AMD record's data is shorter than 16.
 */
int mce_record_set_vendor_data(struct mce_record *r, const unsigned char *p, size_t len);

/*
 * The bank's name as a text printed it, NAME[0..LEN): -ENAMETOOLONG when it
 * does not fit, -EINVAL when empty or not printable ASCII; the record is
 * unchanged then.
 */
int mce_record_set_bank_name(struct mce_record *r, const char *name, size_t len);
