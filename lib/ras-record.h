/* SPDX-License-Identifier: MIT */
#pragma once

/*
 * A hardware error that is not an x86 MCA bank record: an EDAC memory
 * controller event, a PCIe AER event, a page the kernel poisoned, a firmware
 * (CPER) memory or ARM processor section, a vendor section.
 *
 * Each kind has its own keys, so instead of one struct per kind the record
 * carries the common keys of the record contract (time, source, hostname,
 * boot_id, severity, cpu) plus an ordered list of named, typed fields.  The
 * field names are the JSON keys and, upper-cased with an MCE_ prefix, the
 * journal fields.  A field that is absent is unknown: producers add only what
 * they actually read.
 *
 * The producers (tracepoint and CPER parsers) are pure and fill a record; the
 * daemon's sources hand it to the pipeline with source_submit_ras() (mcelogd/source.h).
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "record-json.h"
#include "record.h"

/* What kind of error it is; the JSON "event" key and the journal MESSAGE_ID class. */
enum ras_event {
	RAS_EVENT_MEMORY_CONTROLLER,  /* EDAC (ras:mc_event) */
	RAS_EVENT_PCIE_AER,           /* PCIe Advanced Error Reporting (ras:aer_event, CPER PCIe) */
	RAS_EVENT_MEMORY_FAILURE,     /* a page the kernel poisoned/offlined (ras:memory_failure_event) */
	RAS_EVENT_FIRMWARE_MEMORY,    /* CPER memory error section (ras:extlog_mem_event, BERT) */
	RAS_EVENT_ARM_PROCESSOR,      /* CPER ARM processor error (ras:arm_event, BERT) */
	RAS_EVENT_VENDOR_SECTION,     /* CPER section of a type we do not decode (ras:non_standard_event, BERT) */
	RAS_EVENT_X86_PROCESSOR,      /* CPER IA32/X64 section without MCA bank registers (BERT) */
	RAS_EVENT_CXL_GENERAL_MEDIA,  /* CXL general media event record (cxl:cxl_general_media) */
	RAS_EVENT_CXL_DRAM,           /* CXL DRAM event record (cxl:cxl_dram) */
	RAS_EVENT_CXL_MEMORY_MODULE,  /* CXL memory module (device health) record (cxl:cxl_memory_module) */
	RAS_EVENT_CXL_POISON,         /* CXL poison list entry (cxl:cxl_poison) */
	RAS_EVENT_CXL_AER,            /* CXL RAS capability error of a memdev or port (cxl:cxl_*aer_*_error) */
	RAS_EVENT_CXL_OVERFLOW,       /* a CXL device's event log overflowed (cxl:cxl_overflow) */
	RAS_EVENT_CXL_GENERIC,        /* CXL event record of a type the kernel does not decode (cxl:cxl_generic_event) */
	RAS_EVENT_CXL_MEMORY_SPARING, /* a CXL device spared (or was asked to spare) memory (cxl:cxl_memory_sparing) */
	RAS_EVENT_PCI_HOTPLUG,        /* a PCI hotplug slot's link or card came or went (pci:pci_hp_event) */
	RAS_EVENT_PCIE_LINK,          /* a PCIe link's speed or width was (re)negotiated (pci:pcie_link_event) */
	RAS_EVENT_DEVLINK_HEALTH,     /* a driver reported a device fault (devlink:devlink_health_report) */
	RAS_EVENT_DEVLINK_RECOVER_ABORTED, /* the fault's reporter was left in error, no recovery tried
					    * (devlink:devlink_health_recover_aborted) */
	RAS_EVENT_SIGBUS,             /* the kernel sent a process SIGBUS for a memory error (signal:signal_generate) */
	RAS_EVENT_DISK_ERROR,         /* a disk request failed (block:block_rq_error, block_rq_complete) */
	_RAS_EVENT_MAX,
	_RAS_EVENT_INVALID = -1,
};

/* Same scale as enum mce_severity (decoders/decode.h), plus "info" for events
 * that report an action rather than an error (e.g. a page soft-offlined). */
enum ras_severity {
	RAS_SEV_CORRECTED,
	RAS_SEV_DEFERRED,
	RAS_SEV_UNCORRECTED,
	RAS_SEV_FATAL,
	RAS_SEV_INFO,
	_RAS_SEV_MAX,
	_RAS_SEV_INVALID = -1,
};

enum ras_field_type {
	RAS_FIELD_UINT,     /* JSON number */
	RAS_FIELD_INT,      /* JSON number, signed */
	RAS_FIELD_HEX64,    /* register: "0x" + 16 hex digits */
	RAS_FIELD_HEX,      /* identifier that reads best in hex: "0x1f" */
	RAS_FIELD_STRING,   /* text as the kernel/firmware gave it (JSON-escaped on output) */
	RAS_FIELD_BYTES,    /* raw bytes: lower-case hex string, two digits per byte */
	RAS_FIELD_BOOL,
};

struct ras_field {
	const char *key;            /* static storage, [a-z0-9_]+ */
	enum ras_field_type type;
	union {
		uint64_t u;
		int64_t i;
		bool b;
	};
	char *data;                 /* STRING (NUL-terminated) and BYTES; owned by the record */
	size_t len;                 /* STRING: strlen; BYTES: byte count */
};

/* An ARM processor section with every block decoded (error information, EL and
 * RAS-register contexts, vendor data) takes about 52 fields. */
#define RAS_RECORD_MAX_FIELDS 64
/* Slots of the index of the fields by key: twice the fields, so a probe ends soon. */
#define RAS_RECORD_INDEX_SLOTS 128
/* Keeps a hostile or broken producer from making one record unbounded. */
#define RAS_RECORD_MAX_DATA   (64 * 1024)

struct ras_record {
	enum ras_event event;
	enum mce_source source;
	enum ras_severity severity;
	bool have_time;
	int64_t time_usec;              /* CLOCK_REALTIME microseconds */
	/* Read back after the fact (the ras trace instance at start), not as it happened:
	 * its arrival says nothing of a rate, so no storm counts it. */
	bool recovered;
	char hostname[MCE_HOSTNAME_MAX];
	char boot_id[MCE_BOOT_ID_LEN + 1];
	bool have_cpu;
	uint32_t cpu;
	/* The CPU whose tracepoint fired (its perf ring): live tracepoint records only.  Not part
	 * of the record's JSON; which CPU a snapshot is of says it (mcelogd/snapshot-cpu.h). */
	bool have_sample_cpu;
	uint32_t sample_cpu;
	char summary[256];              /* one readable line: the journal's MESSAGE */

	unsigned n_fields;
	struct ras_field fields[RAS_RECORD_MAX_FIELDS];
	/*
	 * The fields by their key's hash (open addressing, linear probing):
	 * 1 + the field's index, 0 empty; the first field of a key only.  A
	 * record's consumers look up a dozen keys each (the rules, the module
	 * ledger, the storm key): by a scan of the fields, each lookup cost
	 * a string comparison per field.  Kept by the ras_record_add_*()
	 * functions: fields are added through them only.
	 */
	uint8_t index[RAS_RECORD_INDEX_SLOTS];
	uint32_t key_hash[RAS_RECORD_MAX_FIELDS];
	size_t data_used;
	bool truncated;                 /* a field did not fit: rendered as "truncated": true */
};

void ras_record_init(struct ras_record *r, enum ras_event event, enum mce_source source);
void ras_record_done(struct ras_record *r);     /* frees the field data; r can be re-inited */

/*
 * Add a field.  key must be static.  Returns 0, -E2BIG when the record is
 * full (r->truncated is then set, and the record stays valid), -ENOMEM.
 */
int ras_record_add_uint(struct ras_record *r, const char *key, uint64_t v);
int ras_record_add_int(struct ras_record *r, const char *key, int64_t v);
int ras_record_add_hex64(struct ras_record *r, const char *key, uint64_t v);
int ras_record_add_hex(struct ras_record *r, const char *key, uint64_t v);
int ras_record_add_bool(struct ras_record *r, const char *key, bool v);
/* Copies at most n bytes of s, stopping at a NUL. */
int ras_record_add_string(struct ras_record *r, const char *key, const char *s, size_t n);
int ras_record_add_bytes(struct ras_record *r, const char *key, const void *p, size_t n);

/* The first field of that key, NULL if none. */
const struct ras_field *ras_record_find(const struct ras_record *r, const char *key);

const char *ras_event_to_string(enum ras_event e);
enum ras_event ras_event_from_string(const char *s);
const char *ras_severity_to_string(enum ras_severity s);
/* "Corrected", "Uncorrected", ...: a summary's first word; impossible values read "Uncorrected". */
const char *ras_severity_word(enum ras_severity s);
enum ras_severity ras_severity_from_string(const char *s);

struct json_writer;
/* The record contract's JSON object: documented in mcelogd(8), RECORD FORMAT. */
void ras_record_write_json(const struct ras_record *r, struct json_writer *w);
/* The same, and extra (record-json.h) adds its keys before the object closes: the daemon's "snapshot". */
void ras_record_write_json_extra(const struct ras_record *r, struct json_writer *w, record_json_extra_fn extra,
				 void *userdata);
