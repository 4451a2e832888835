/* SPDX-License-Identifier: MIT */
#pragma once

/*
 * The decoder library's public API.
 *
 * Pure: no I/O, no logging, no allocation.  mce_decode() reads a raw record
 * and fills a struct mce_decoded with typed fields and pointers into static
 * const tables; renderers (JSON, journald, text) live elsewhere.  Thread-safe
 * and reentrant: all state is in the caller's structures.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "record.h"

struct json_writer;

enum mce_severity {
	MCE_SEV_CORRECTED,
	MCE_SEV_DEFERRED,
	MCE_SEV_UNCORRECTED,
	MCE_SEV_FATAL,
	_MCE_SEV_MAX,
	_MCE_SEV_INVALID = -1,
};

/* Finer recovery class where the architecture defines one; NONE = absent. */
enum mce_recovery {
	MCE_RECOVERY_NONE,
	MCE_RECOVERY_UCNA,        /* Intel SER: uncorrected, no action */
	MCE_RECOVERY_SRAO,        /* Intel SER: software recoverable, action optional */
	MCE_RECOVERY_SRAR,        /* Intel SER: software recoverable, action required */
	MCE_RECOVERY_RESTARTABLE, /* AMD: MCG_STATUS.RIPV, process may be restarted */
	MCE_RECOVERY_CONTAINABLE, /* AMD: not restartable but contained to a process */
	_MCE_RECOVERY_MAX,
};

/* SDM Vol. 3B 16.9 "Interpreting the MCA Error Codes" simple and compound classes. */
enum mce_error_class {
	MCE_CLASS_NO_ERROR,
	MCE_CLASS_UNCLASSIFIED,
	MCE_CLASS_MICROCODE_ROM_PARITY,
	MCE_CLASS_EXTERNAL,
	MCE_CLASS_FRC,
	MCE_CLASS_INTERNAL_PARITY,
	MCE_CLASS_SMM_HANDLER_CODE_ACCESS_VIOLATION,
	MCE_CLASS_INTERNAL_TIMER,
	MCE_CLASS_IO,
	MCE_CLASS_INTERNAL_UNCLASSIFIED,
	MCE_CLASS_GENERIC_CACHE_HIERARCHY,
	MCE_CLASS_TLB,
	MCE_CLASS_MEMORY_CONTROLLER,
	MCE_CLASS_CACHE,
	MCE_CLASS_BUS_INTERCONNECT,
	MCE_CLASS_UNKNOWN,          /* MCACOD matches no architectural form: "unknown" */
	MCE_CLASS_THERMAL,          /* no MCA error: Linux's thermal-event record (bank 128) */
	_MCE_CLASS_MAX,
};

/* A small "absent or value" enum pattern: each field's first member means absent. */
enum mce_cache_level { MCE_LEVEL_ABSENT, MCE_LEVEL_0, MCE_LEVEL_1, MCE_LEVEL_2, MCE_LEVEL_GENERIC };
enum mce_transaction_type { MCE_TT_ABSENT, MCE_TT_INSTRUCTION, MCE_TT_DATA, MCE_TT_GENERIC };
enum mce_request {
	MCE_RQ_ABSENT, MCE_RQ_GENERIC, MCE_RQ_READ, MCE_RQ_WRITE, MCE_RQ_DATA_READ,
	MCE_RQ_DATA_WRITE, MCE_RQ_INSTRUCTION_FETCH, MCE_RQ_PREFETCH, MCE_RQ_EVICTION, MCE_RQ_SNOOP,
};
enum mce_memory_transaction {
	MCE_MT_ABSENT, MCE_MT_GENERIC, MCE_MT_READ, MCE_MT_WRITE, MCE_MT_ADDRESS_COMMAND,
	MCE_MT_MEMORY_SCRUBBING,
};

/* Named STATUS / MCG_STATUS bits set in the record, for the "flags" array. */
#define MCE_MAX_FLAGS 24

/* Extra decoded name/value pairs a model-specific decoder may add (rendered under "details"). */
#define MCE_MAX_DETAILS 8
struct mce_detail {
	const char *name;        /* static string, snake_case */
	uint64_t value;
	const char *text;        /* static string or NULL */
};

/*
 * Every string a decode points to is static and never changes: the decoders'
 * tables and literals.  The JSON writer relies on it, remembering each
 * string's length and escaping by its address (json_put_static()); a string
 * built per record in a buffer would be written with a stale length.
 */
struct mce_decoded {
	enum mce_severity severity;
	enum mce_recovery recovery;
	enum mce_error_class error_class;

	const char *flags[MCE_MAX_FLAGS];   /* static strings, e.g. "VAL", "UC", "ADDRV" */
	unsigned n_flags;

	const char *cpu_model;              /* decoder's name for the CPU, e.g. "Sapphire Rapids" */
	bool has_bank;                      /* the record names a bank: unnamed ones render "unknown" */
	const char *bank_name;              /* documented long name; NULL = unknown */
	const char *bank_type;              /* short type, e.g. "UMC"; NULL = unknown */
	const char *description;            /* what the code means; NULL = unknown */

	uint16_t mcacod;
	uint16_t mscod;

	/* compound-code fields */
	enum mce_cache_level cache_level;
	enum mce_transaction_type transaction_type;
	enum mce_request request;
	enum mce_memory_transaction memory_transaction;
	int channel;                        /* -1: absent (code says unspecified, or no such field) */
	const char *participation;          /* NULL: absent */
	int timeout;                        /* -1 absent, else 0/1 */
	const char *memory_or_io;           /* NULL: absent */

	bool has_model_specific_code;
	uint32_t model_specific_code;

	bool has_extended_error_code;       /* AMD: STATUS[21:16] */
	uint32_t extended_error_code;

	bool has_corrected_count;
	uint32_t corrected_count;
	const char *threshold_status;       /* "green", "yellow", NULL: absent */

	bool has_address_lsb;               /* from MISC (Intel) or ADDR/STATUS (AMD) */
	uint32_t address_lsb;
	const char *address_mode;           /* "segment_offset", "linear", "physical", ... */
	/* The 4 KiB page the address names, where the kernel would trust it (page-address.h);
	 * else, for a record with an address, why not ("normalized_address", ...). */
	bool has_page;
	uint64_t page;
	const char *no_page;

	int dimm;                           /* -1 absent */
	int rank;                           /* -1 absent */
	int chip_select;                    /* -1 absent (AMD UMC) */
	/* The DRAM cell, where the bank's MISC names it (Intel 10 nm and later iMC): -1 absent. */
	int bank_group;
	int dram_bank;                      /* the bank within its group (not the MCA bank) */
	int row;
	int column;
	bool has_syndrome;
	uint64_t syndrome;

	struct mce_detail details[MCE_MAX_DETAILS];
	unsigned n_details;

	bool unknown_model;                 /* no model-specific table matched */

	/*
	 * AMD "FRU Text in MCA": the name of the part to replace, which Zen 4
	 * and later banks put in MCA_SYND1 and MCA_SYND2 (amd-smca.c).  Empty:
	 * none.  Printable ASCII, NUL-terminated.
	 */
	char fru_text[17];
};

/* Decode one record.  Never fails for a record it cannot fully decode: it
 * decodes what the architecture defines and leaves the rest absent. */
void mce_decode(const struct mce_record *rec, struct mce_decoded *ret);

/*
 * The names of the record contract (decode.c), read through the
 * functions below: inline, as every record's JSON and text ask for them.
 */
extern const char *const mce_severity_names[_MCE_SEV_MAX];
extern const char *const mce_recovery_names[_MCE_RECOVERY_MAX];
extern const char *const mce_error_class_names[_MCE_CLASS_MAX];

static inline const char *mce_severity_to_string(enum mce_severity s)
{
	return (unsigned) s < _MCE_SEV_MAX ? mce_severity_names[s] : "unknown";
}

enum mce_severity mce_severity_from_string(const char *s);  /* _MCE_SEV_INVALID if unknown */

/* NULL for NONE */
static inline const char *mce_recovery_to_string(enum mce_recovery r)
{
	return (unsigned) r < _MCE_RECOVERY_MAX ? mce_recovery_names[r] : NULL;
}

static inline const char *mce_error_class_to_string(enum mce_error_class c)
{
	return (unsigned) c < _MCE_CLASS_MAX ? mce_error_class_names[c] : "unknown";
}

/* Append the decoded keys to an object the caller has opened. */
void mce_decoded_write_json(const struct mce_decoded *d, struct json_writer *w);

/* One readable line: what happened (e.g. "memory controller read error, channel 2"). */
int mce_decoded_summary(const struct mce_decoded *d, char *buf, size_t size);
