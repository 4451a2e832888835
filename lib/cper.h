/* SPDX-License-Identifier: MIT */
#pragma once

/*
 * Firmware error records: the ACPI Generic Error Status Block (ACPI 6.5
 * §18.3.2.7.1, the format of the BERT boot error region) and the UEFI CPER
 * sections its Generic Error Data Entries carry (UEFI 2.10 Appendix N).
 *
 * Pure: no I/O, no logging.  The parser turns each section into records of
 * the project's two record types:
 *   - an IA32/X64 processor section's "MSR registers" context that holds a
 *     machine-check bank (legacy IA32_MCi_* or AMD SMCA MCA_*_*) becomes a
 *     struct mce_record, decoded later like a live record;
 *   - every other section becomes a struct ras_record (memory, ARM, PCIe,
 *     processor without bank registers, or a vendor section with its raw bytes).
 * Every length and offset is checked against the buffer; a problem is reported
 * with the byte offset it was found at, and every section that parsed before
 * or after it is still delivered.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "record.h"

struct ras_record;

struct cper_guid {
	uint32_t a;
	uint16_t b, c;
	uint8_t d[8];
};

#define CPER_GUID_STRING_MAX 37   /* "xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx" + NUL */

/* UEFI byte order: the first three groups little-endian, the last eight bytes as stored. */
void cper_guid_from_bytes(struct cper_guid *g, const uint8_t p[16]);
void cper_guid_to_string(const struct cper_guid *g, char buf[CPER_GUID_STRING_MAX]);
bool cper_guid_equal(const struct cper_guid *a, const struct cper_guid *b);

/*
 * The CPER enumerations that both firmware records and the kernel's
 * ras:extlog_mem_event, ras:non_standard_event and ras:arm_event carry.
 * Error Severity (UEFI 2.10 N.2.1; ACPI Table 18.11): its name ("recoverable",
 * "fatal", "corrected", "informational") or NULL for a value the spec does not
 * define, and our scale for it (an undefined value: uncorrected, never harmless).
 */
const char *cper_severity_name(uint64_t sev);
enum ras_severity cper_severity_to_ras(uint64_t sev);
/* Memory Error Type (UEFI 2.10 N.2.5) in the spec's words, or NULL if not defined. */
const char *cper_mem_error_type_name(uint64_t type);

/* The name of a section type we know ("memory error", ...), or NULL. */
const char *cper_section_name(const struct cper_guid *g);

/*
 * UEFI N.2.1 timestamp (BCD seconds, minutes, hours, flags, day, month, year,
 * century) → CLOCK_REALTIME microseconds, treated as UTC since the spec gives
 * no zone.  Returns 0 or -EINVAL when a digit or a date is out of range.
 */
int cper_timestamp_to_usec(const uint8_t ts[8], int64_t *ret_usec, bool *ret_precise);

struct cper_sink {
	/* A machine-check bank taken from an IA32/X64 section.  The record is the
	 * callee's to change; it is not kept after the call. */
	void (*mce)(struct mce_record *rec, void *userdata);
	/* Any other section.  The callee may change it; the parser frees it after the call. */
	void (*ras)(struct ras_record *rec, void *userdata);
	/* offset: from the start of the buffer given to cper_parse_error_region(). */
	void (*problem)(size_t offset, const char *what, void *userdata);
	void *userdata;
};

/* Bounds a hostile region's output: more sections than this are reported and skipped. */
#define CPER_MAX_SECTIONS 256

/*
 * Walks a boot error region: a sequence of Generic Error Status Blocks, ended
 * by the buffer or by an empty block.  Records get source `source`.  Returns
 * the number of records delivered (>= 0) when everything was well-formed, or
 * -EBADMSG when sink->problem was called at least once (the records that
 * parsed were still delivered), or -ENOMEM.
 */
int cper_parse_error_region(const void *buf, size_t len, enum mce_source source,
			    const struct cper_sink *sink);

/* FNV-1a 64 of the region: identifies a region already logged (not a security digest). */
uint64_t cper_region_digest(const void *buf, size_t len);
