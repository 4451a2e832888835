/* SPDX-License-Identifier: MIT */
/*
 * The kernel's cxl:* tracepoint samples → struct ras_record.  Pure, like
 * ras-trace.c, whose entry point and field readers these decoders use: every
 * field is looked up by name in this kernel's format, so a field a kernel
 * lacks is simply not in the record and a field we do not know is ignored.
 *
 * Field names, value tables and flag bits follow the kernel's
 * drivers/cxl/core/trace.h (torvalds/linux, read at 02f4f0177d8e) and
 * include/cxl/event.h, which cite the CXL specification r3.1 section 8.2.9.2
 * (event records) and 8.2.4.17 (RAS capability status registers).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "ras-trace-ctx.h"

/* ------------------------------------------------------------ value tables */

/*
 * enum cxl_event_log_type (include/cxl/event.h): the device log the record
 * came from, which is the device's own judgement of its urgency.  Used as the
 * severity of records that are not themselves media errors.
 */
static const struct sev_name log_types[] = {
	[0] = { "informational", RAS_SEV_INFO },
	[1] = { "warning",       RAS_SEV_CORRECTED },
	[2] = { "failure",       RAS_SEV_UNCORRECTED },
	[3] = { "fatal",         RAS_SEV_FATAL },
};
#define CXL_LOG_FATAL 3

/* Common Event Record header flags (CXL r3.1 Table 8-43; kernel show_hdr_flags). */
static const char *const hdr_flag_names[32] = {
	[2] = "PERMANENT_CONDITION",
	[3] = "MAINTENANCE_NEEDED",
	[4] = "PERFORMANCE_DEGRADED",
	[5] = "HARDWARE_REPLACEMENT_NEEDED",
	[6] = "MAINT_OP_SUB_CLASS_VALID",
};

/* RAS capability Uncorrectable / Correctable Error Status (CXL r3.1 8.2.4.17.1, .4). */
static const char *const uc_error_names[32] = {
	[0]  = "Cache Data Parity Error",
	[1]  = "Cache Address Parity Error",
	[2]  = "Cache Byte Enable Parity Error",
	[3]  = "Cache Data ECC Error",
	[4]  = "Memory Data Parity Error",
	[5]  = "Memory Address Parity Error",
	[6]  = "Memory Byte Enable Parity Error",
	[7]  = "Memory Data ECC Error",
	[8]  = "REINIT Threshold Hit",
	[9]  = "Received Unrecognized Encoding",
	[10] = "Received Poison From Peer",
	[11] = "Receiver Overflow",
	[14] = "Component Specific Error",
	[15] = "IDE Tx Error",
	[16] = "IDE Rx Error",
};

static const char *const ce_error_names[32] = {
	[0] = "Cache Data ECC Error",
	[1] = "Memory Data ECC Error",
	[2] = "CRC Threshold Hit",
	[3] = "Retry Threshold",
	[4] = "Received Cache Poison From Peer",
	[5] = "Received Memory Poison From Peer",
	[6] = "Received Error From Physical Layer",
};

/* General Media / DRAM Event Record "Memory Event Descriptor" (CXL r3.1 Table 8-45). */
static const char *const descriptor_names[32] = {
	[0] = "UNCORRECTABLE_EVENT",
	[1] = "THRESHOLD_EVENT",
	[2] = "POISON_LIST_OVERFLOW",
};
#define CXL_DESC_UNCORRECTABLE 0x1u

/* Physical Address bits 1:0 (CXL r3.1 Table 8-45). */
static const char *const dpa_flag_names[32] = {
	[0] = "VOLATILE",
	[1] = "NOT_REPAIRABLE",
};

/* Memory Event Type: the two records number them differently (Tables 8-45, 8-46). */
static const char *const media_types[] = {
	"ECC Error", "Invalid Address", "Data Path Error", "TE State Violation",
	"Scrub Media ECC Error", "Adv Prog CME Counter Expiration", "CKID Violation",
};
static const char *const dram_types[] = {
	"ECC Error", "Scrub Media ECC Error", "Invalid Address", "Data Path Error",
	"TE State Violation", "Adv Prog CME Counter Expiration", "CKID Violation",
};

static const char *const transaction_types[] = {
	"Unknown", "Host Read", "Host Write", "Host Scan Media", "Host Inject Poison",
	"Internal Media Scrub", "Internal Media Management", "Internal Media Error Check Scrub",
	"Media Initialization",
};

/* Validity Flags of the General Media Event Record (Table 8-45). */
enum {
	GMER_VALID_CHANNEL = 1u << 0,
	GMER_VALID_RANK    = 1u << 1,
	GMER_VALID_DEVICE  = 1u << 2,
};

/* Validity Flags of the DRAM Event Record (Table 8-46), and the fields they cover. */
static const struct valid_field {
	uint32_t bit;
	const char *field;      /* in the format */
	const char *key;        /* in the record: the names rules and the DRAM classifier read */
	bool hex;
} dram_valid_fields[] = {
	{ 1u << 0,  "channel",     "channel",     false },
	{ 1u << 1,  "rank",        "rank",        false },
	{ 1u << 2,  "nibble_mask", "nibble_mask", true },
	{ 1u << 3,  "bank_group",  "bank_group",  false },
	{ 1u << 4,  "bank",        "bank",        false },
	{ 1u << 5,  "row",         "row",         false },
	{ 1u << 6,  "column",      "column",      false },
	{ 1u << 10, "sub_channel", "sub_channel", false },
};

/* Memory Module Event Type (Table 8-47). */
static const char *const module_event_types[] = {
	"Health Status Change", "Media Status Change", "Life Used Change", "Temperature Change",
	"Data Path Error", "LSA Error", "Unrecoverable Internal Sideband Bus Error",
	"Memory Media FRU Error", "Power Management Fault",
};

/* Device Health Information health status bits (CXL r3.1 Table 8-133). */
static const char *const health_status_names[32] = {
	[0] = "MAINTENANCE_NEEDED",
	[1] = "PERFORMANCE_DEGRADED",
	[2] = "REPLACEMENT_NEEDED",
	[3] = "MEM_CAPACITY_DEGRADED",
};

/* Device Health Information media status (Table 8-133). */
static const char *const media_statuses[] = {
	"Normal", "Not Ready", "Write Persistency Lost", "All Data Lost",
	"Write Persistency Loss in the Event of Power Loss", "Write Persistency Loss in Event of Shutdown",
	"Write Persistency Loss Imminent", "All Data Loss in Event of Power Loss",
	"All Data Loss in the Event of Shutdown", "All Data Loss Imminent",
};

/*
 * enum cxl_poison_trace_type (drivers/cxl/cxlmem.h).  Severity: poison the
 * device lists or that was injected is data lost to whoever reads it
 * (uncorrected); a clear reports an action (info).
 */
static const struct sev_name poison_trace_types[] = {
	[0] = { "list",   RAS_SEV_UNCORRECTED },
	[1] = { "inject", RAS_SEV_UNCORRECTED },
	[2] = { "clear",  RAS_SEV_INFO },
};

/* Get Poison List Media Error Record source (CXL r3.1 Table 8-140). */
static const char *const poison_sources[8] = {
	[0] = "Unknown", [1] = "External", [2] = "Internal", [3] = "Injected", [7] = "Vendor",
};

static const char *const poison_flag_names[32] = {
	[0] = "More",
	[1] = "Overflow",
	[2] = "Scanning",
};

/*
 * Memory Sparing Event Record (CXL r3.2; the kernel's trace_cxl_memory_sparing,
 * Linux 6.16 and later): the flags of the sparing operation and the validity
 * flags of the DRAM coordinates it names.  Its validity bits number the
 * fields differently from the DRAM record's (sub-channel is bit 9 here).
 */
static const char *const sparing_flag_names[32] = {
	[0] = "Query Resources",
	[1] = "Hard Sparing",
	[2] = "Device Initiated Sparing",
};

static const struct valid_field sparing_valid_fields[] = {
	{ 1u << 0, "channel",     "channel",     false },
	{ 1u << 1, "rank",        "rank",        false },
	{ 1u << 2, "nibble_mask", "nibble_mask", true },
	{ 1u << 3, "bank_group",  "bank_group",  false },
	{ 1u << 4, "bank",        "bank",        false },
	{ 1u << 5, "row",         "row",         false },
	{ 1u << 6, "column",      "column",      false },
	{ 1u << 9, "sub_channel", "sub_channel", false },
};
#define SPARING_VALID_COMPONENT_ID (1u << 7)

/* The kernel's "no host address": no region maps this device address (ULLONG_MAX). */
#define CXL_HPA_INVALID UINT64_MAX

/* ------------------------------------------------------------ helpers */

#define NAME_OF(table, v) ((v) < ELEMENTSOF(table) ? (table)[v] : NULL)

static void add_flags(struct ras_tp_ctx *c, const char *key, const char *field,
		      const char *const names[32])
{
	uint64_t v;
	char buf[256];

	if (!tp_u(c, field, &v) || v == 0)
		return;
	tp_flag_names(names, (uint32_t) v, "|", buf, sizeof(buf));
	tp_added(c, ras_record_add_string(c->r, key, buf, SIZE_MAX));
}

/* A table's name for a value, or the number when the table has none. */
static void add_named(struct ras_tp_ctx *c, const char *key, const char *field,
		      const char *const *names, size_t n)
{
	uint64_t v;

	if (!tp_u(c, field, &v))
		return;
	if (v < n && names[v])
		tp_added(c, ras_record_add_string(c->r, key, names[v], SIZE_MAX));
	else
		tp_added(c, ras_record_add_uint(c->r, key, v));
}

static void add_uint(struct ras_tp_ctx *c, const char *key, const char *field)
{
	uint64_t v;

	if (tp_u(c, field, &v))
		tp_added(c, ras_record_add_uint(c->r, key, v));
}

static void add_hex(struct ras_tp_ctx *c, const char *key, const char *field)
{
	uint64_t v;

	if (tp_u(c, field, &v))
		tp_added(c, ras_record_add_hex(c->r, key, v));
}

/* The DRAM coordinates a record's validity flags say it holds. */
static void add_valid_fields(struct ras_tp_ctx *c, uint64_t valid, const struct valid_field *fields, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (!(valid & fields[i].bit))
			continue;
		if (fields[i].hex)
			add_hex(c, fields[i].key, fields[i].field);
		else
			add_uint(c, fields[i].key, fields[i].field);
	}
}

/* uuid_t is in byte order (RFC 4122), as the kernel prints it with %pUb; all zero: none. */
static void add_uuid(struct ras_tp_ctx *c, const char *key, const char *field)
{
	static const unsigned char zero[16];
	const unsigned char *u = tp_bytes(c, field, 16, NULL);
	char text[37];
	size_t at = 0;

	if (!u || memcmp(u, zero, 16) == 0)
		return;
	for (unsigned i = 0; i < 16; i++) {
		if (i == 4 || i == 6 || i == 8 || i == 10)
			text[at++] = '-';
		at += (size_t) snprintf(text + at, sizeof(text) - at, "%02x", u[i]);
	}
	tp_added(c, ras_record_add_string(c->r, key, text, SIZE_MAX));
}

/* memdev (6.3 and later), dev_name (6.1's AER events) or device (port events); host; serial. */
static const char *add_device(struct ras_tp_ctx *c)
{
	static const char *const names[] = { "memdev", "dev_name", "device" };

	for (size_t i = 0; i < ELEMENTSOF(names); i++)
		if (trace_format_field(&c->l->format, names[i])) {
			tp_add_string_field(c, streq(names[i], "device") ? "device" : "memdev", names[i]);
			break;
		}
	tp_add_string_field(c, "host", "host");
	add_uint(c, "serial", "serial");
	if (c->error)
		return "unknown device";
	return tp_text_of(c->r, "memdev") ?: tp_text_of(c->r, "device") ?: "unknown device";
}

/* The log a record came from; returns its number (0 when absent). */
static uint64_t add_log(struct ras_tp_ctx *c)
{
	uint64_t log = 0;

	if (tp_u(c, "log", &log)) {
		const char *name = log < ELEMENTSOF(log_types) ? log_types[log].name : NULL;

		if (name)
			tp_added(c, ras_record_add_string(c->r, "log", name, SIZE_MAX));
		else
			tp_added(c, ras_record_add_uint(c->r, "log", log));
	}
	return log;
}

static void set_log_severity(struct ras_tp_ctx *c, uint64_t log)
{
	/* A log number the kernel added after our table: never harmless. */
	c->r->severity = log < ELEMENTSOF(log_types) ? log_types[log].severity : RAS_SEV_UNCORRECTED;
}

/* The Common Event Record header the kernel copies into every event record. */
static void add_header(struct ras_tp_ctx *c)
{
	add_flags(c, "record_flags", "hdr_flags", hdr_flag_names);
	add_hex(c, "handle", "hdr_handle");
	add_hex(c, "related_handle", "hdr_related_handle");
	add_uint(c, "device_time", "hdr_timestamp");
	add_uint(c, "maint_op_class", "hdr_maint_op_class");
	add_uint(c, "maint_op_sub_class", "hdr_maint_op_sub_class");
}

/*
 * The host address and region.  A valid HPA names a page of system memory:
 * it is what the page rules act on.  Without one the record says why not.
 */
static uint64_t add_hpa(struct ras_tp_ctx *c, const char *region_field)
{
	uint64_t hpa = CXL_HPA_INVALID;

	if (!tp_u(c, "hpa", &hpa))
		tp_add_no_page(c, "no_host_address");
	else if (hpa == CXL_HPA_INVALID)
		tp_add_no_page(c, "not_in_region");
	else
		tp_added(c, ras_record_add_hex64(c->r, "hpa", hpa));
	tp_add_string_field(c, "region", region_field);
	add_uuid(c, "region_uuid", trace_format_field(&c->l->format, "region_uuid") ? "region_uuid" : "uuid");
	return hpa;
}

/* ------------------------------------------------------------ decoders */

static void decode_aer(struct ras_tp_ctx *c, bool uncorrectable)
{
	const char *const *names = uncorrectable ? uc_error_names : ce_error_names;
	uint64_t status = 0, first = 0;
	char errors[512];
	const char *dev;

	dev = add_device(c);
	c->r->severity = uncorrectable ? RAS_SEV_UNCORRECTED : RAS_SEV_CORRECTED;
	tp_u(c, "status", &status);
	tp_added(c, ras_record_add_hex(c->r, uncorrectable ? "uncorrectable_status" : "correctable_status",
				       status));
	tp_flag_names(names, (uint32_t) status, ", ", errors, sizeof(errors));
	if (errors[0])
		tp_added(c, ras_record_add_string(c->r, "errors", errors, SIZE_MAX));
	if (uncorrectable && tp_u(c, "first_error", &first)) {
		/* First Error Pointer: the bit number of the error logged first. */
		const char *name = first < 32 ? names[first] : NULL;

		if (name)
			tp_added(c, ras_record_add_string(c->r, "first_error", name, SIZE_MAX));
		else
			tp_added(c, ras_record_add_uint(c->r, "first_error", first));
	}
	if (c->error)
		return;
	snprintf(c->r->summary, sizeof(c->r->summary), "%s CXL error on %s: %.200s",
		 ras_severity_word(c->r->severity), dev, errors[0] ? errors : "no status bit set");
}

void cxl_decode_aer_uncorrectable(struct ras_tp_ctx *c)
{
	decode_aer(c, true);
}

void cxl_decode_aer_correctable(struct ras_tp_ctx *c)
{
	decode_aer(c, false);
}

void cxl_decode_overflow(struct ras_tp_ctx *c)
{
	uint64_t log, count = 0;
	const char *dev = add_device(c);

	log = add_log(c);
	set_log_severity(c, log);
	if (tp_u(c, "count", &count))
		tp_added(c, ras_record_add_uint(c->r, "count", count));
	add_uint(c, "first_timestamp", "first_ts");
	add_uint(c, "last_timestamp", "last_ts");
	if (c->error)
		return;
	snprintf(c->r->summary, sizeof(c->r->summary), "CXL %s event log of %s overflowed: %" PRIu64
		 " records lost", log < ELEMENTSOF(log_types) ? log_types[log].name : "unknown", dev, count);
}

void cxl_decode_generic(struct ras_tp_ctx *c)
{
	const char *dev = add_device(c), *uuid;
	size_t n = 0;
	const unsigned char *data;

	set_log_severity(c, add_log(c));
	add_header(c);
	add_uuid(c, "uuid", "hdr_uuid");
	data = tp_bytes(c, "data", 0, &n);
	if (data && n > 0)
		tp_added(c, ras_record_add_bytes(c->r, "data", data, n));
	if (c->error)
		return;
	uuid = tp_text_of(c->r, "uuid");
	snprintf(c->r->summary, sizeof(c->r->summary), "%s CXL event record on %s (type %s)",
		 ras_severity_word(c->r->severity), dev, uuid ? uuid : "unknown");
}

/*
 * General media and DRAM records report an error in the device's memory.
 * Severity: the descriptor says whether the device could correct it; the log
 * says how urgent the device thinks it is, which only promotes an
 * uncorrectable error in the fatal log to fatal.  An error the device
 * corrected is a corrected error whichever log it sits in, so that the DRAM
 * classifier and the storm counts see it as one.
 */
static void media_severity(struct ras_tp_ctx *c, uint64_t log, uint64_t descriptor)
{
	if (descriptor & CXL_DESC_UNCORRECTABLE)
		c->r->severity = log == CXL_LOG_FATAL ? RAS_SEV_FATAL : RAS_SEV_UNCORRECTED;
	else
		c->r->severity = RAS_SEV_CORRECTED;
}

/* What both media records share; returns the DPA. */
static uint64_t add_media_common(struct ras_tp_ctx *c, const char *const *types, size_t n_types)
{
	uint64_t log, descriptor = 0, dpa = 0;

	log = add_log(c);
	add_header(c);
	tp_u(c, "descriptor", &descriptor);
	media_severity(c, log, descriptor);
	add_flags(c, "descriptor", "descriptor", descriptor_names);
	if (tp_u(c, "dpa", &dpa))
		tp_added(c, ras_record_add_hex64(c->r, "dpa", dpa));
	add_flags(c, "dpa_flags", "dpa_flags", dpa_flag_names);
	add_named(c, "type", "type", types, n_types);
	add_named(c, "transaction_type", "transaction_type", transaction_types,
		  ELEMENTSOF(transaction_types));
	return dpa;
}

static void media_summary(struct ras_tp_ctx *c, const char *what, const char *dev, uint64_t dpa,
			  const char *where)
{
	const char *type = tp_text_of(c->r, "type");

	snprintf(c->r->summary, sizeof(c->r->summary), "%s CXL %s error on %s at DPA 0x%" PRIx64 "%s%s%s",
		 ras_severity_word(c->r->severity), what, dev, dpa, type ? ": " : "", type ? type : "", where);
}

void cxl_decode_general_media(struct ras_tp_ctx *c)
{
	const char *dev = add_device(c);
	uint64_t dpa, valid = UINT64_MAX;

	dpa = add_media_common(c, media_types, ELEMENTSOF(media_types));
	/* Kernels before the validity flags were traced: take what is there. */
	tp_u(c, "validity_flags", &valid);
	if (valid & GMER_VALID_CHANNEL)
		add_uint(c, "channel", "channel");
	if (valid & GMER_VALID_RANK)
		add_uint(c, "rank", "rank");
	if (valid & GMER_VALID_DEVICE)
		add_hex(c, "media_device", "device");
	add_uint(c, "cme_count", "cme_count");
	add_hpa(c, "region_name");
	if (c->error)
		return;
	media_summary(c, "media", dev, dpa, "");
}

void cxl_decode_dram(struct ras_tp_ctx *c)
{
	const char *dev = add_device(c);
	uint64_t dpa, valid = UINT64_MAX, row = 0, column = 0, bank = 0;
	char where[96] = "";

	dpa = add_media_common(c, dram_types, ELEMENTSOF(dram_types));
	tp_u(c, "validity_flags", &valid);
	add_valid_fields(c, valid, dram_valid_fields, ELEMENTSOF(dram_valid_fields));
	add_uint(c, "cvme_count", "cvme_count");
	add_hpa(c, "region_name");
	if (c->error)
		return;
	if ((valid & (1u << 4)) && (valid & (1u << 5)) && (valid & (1u << 6)) && tp_u(c, "bank", &bank) &&
	    tp_u(c, "row", &row) && tp_u(c, "column", &column))
		snprintf(where, sizeof(where), " (bank %" PRIu64 ", row %" PRIu64 ", column %" PRIu64 ")", bank,
			 row, column);
	media_summary(c, "DRAM", dev, dpa, where);
}

void cxl_decode_memory_module(struct ras_tp_ctx *c)
{
	const char *dev = add_device(c), *type;
	int64_t temp;

	set_log_severity(c, add_log(c));
	add_header(c);
	add_named(c, "event_type", "event_type", module_event_types, ELEMENTSOF(module_event_types));
	add_flags(c, "health_status", "health_status", health_status_names);
	add_named(c, "media_status", "media_status", media_statuses, ELEMENTSOF(media_statuses));
	add_uint(c, "life_used", "life_used");
	add_uint(c, "dirty_shutdowns", "dirty_shutdown_cnt");
	add_uint(c, "corrected_volatile_errors", "cor_vol_err_cnt");
	add_uint(c, "corrected_persistent_errors", "cor_per_err_cnt");
	if (tp_s(c, "device_temp", &temp))
		tp_added(c, ras_record_add_int(c->r, "temperature", temp));
	add_hex(c, "additional_status", "add_status");
	if (c->error)
		return;
	type = tp_text_of(c->r, "event_type");
	snprintf(c->r->summary, sizeof(c->r->summary), "%s CXL memory device event on %s: %s",
		 ras_severity_word(c->r->severity), dev, type ? type : "unknown event type");
}

void cxl_decode_poison(struct ras_tp_ctx *c)
{
	const char *dev = add_device(c), *trace_type;
	uint64_t type = 0, dpa = 0, len = 0;

	tp_u(c, "trace_type", &type);
	tp_set_severity(c, "trace_type", poison_trace_types, ELEMENTSOF(poison_trace_types), type);
	if (tp_u(c, "dpa", &dpa))
		tp_added(c, ras_record_add_hex64(c->r, "dpa", dpa));
	if (tp_u(c, "dpa_length", &len))
		tp_added(c, ras_record_add_hex(c->r, "dpa_length", len));
	add_named(c, "poison_source", "source", poison_sources, ELEMENTSOF(poison_sources));
	add_flags(c, "poison_flags", "flags", poison_flag_names);
	add_uint(c, "overflow_time", "overflow_ts");
	add_hpa(c, "region");
	if (c->error)
		return;
	trace_type = tp_text_of(c->r, "trace_type");
	snprintf(c->r->summary, sizeof(c->r->summary), "CXL poison (%s) on %s at DPA 0x%" PRIx64 ", 0x%" PRIx64
		 " bytes", trace_type ? trace_type : "unknown", dev, dpa, len);
}

void cxl_decode_memory_sparing(struct ras_tp_ctx *c)
{
	const char *dev = add_device(c), *flags;
	uint64_t valid = 0, result = 0, row = 0, bank = 0;
	const unsigned char *comp;
	char where[96] = "";

	set_log_severity(c, add_log(c));
	add_header(c);
	add_flags(c, "sparing_flags", "flags", sparing_flag_names);
	if (tp_u(c, "result", &result))
		tp_added(c, ras_record_add_uint(c->r, "sparing_result", result));
	add_uint(c, "spare_resources_available", "res_avail");
	tp_u(c, "validity_flags", &valid);
	add_valid_fields(c, valid, sparing_valid_fields, ELEMENTSOF(sparing_valid_fields));
	comp = valid & SPARING_VALID_COMPONENT_ID ? tp_bytes(c, "comp_id", 16, NULL) : NULL;
	if (comp)
		tp_added(c, ras_record_add_bytes(c->r, "component_id", comp, 16));
	if (c->error)
		return;
	flags = tp_text_of(c->r, "sparing_flags");
	if ((valid & (1u << 4)) && (valid & (1u << 5)) && tp_u(c, "bank", &bank) && tp_u(c, "row", &row))
		snprintf(where, sizeof(where), " at bank %" PRIu64 ", row %" PRIu64, bank, row);
	snprintf(c->r->summary, sizeof(c->r->summary), "CXL memory sparing on %s%s (%s), result %" PRIu64,
		 dev, where, flags ? flags : "no flags", result);
}
