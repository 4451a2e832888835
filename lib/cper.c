/* SPDX-License-Identifier: MIT */
/*
 * Layouts followed (byte offsets in the comments of each table):
 *   ACPI 6.5 §18.3.2.7.1  Generic Error Status Block, Generic Error Data Entry (Tables 18.11, 18.12)
 *   UEFI 2.10 Appendix N  §N.2.1 timestamp, §N.2.2 section GUIDs, §N.2.4.1 Processor Generic,
 *                         §N.2.4.2 IA32/X64 (error info and context structures), §N.2.4.4 ARM,
 *                         §N.2.5 Memory Error, §N.2.7 PCI Express
 *   Intel SDM vol. 3B §16.3.2 (IA32_MCi_CTL/STATUS/ADDR/MISC at 0x400 + 4*i),
 *   AMD PPR "MCA_CTL..MCA_SYND" at MSRC000_2000 + 0x10*bank (Scalable MCA).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "arm-processor.h"
#include "arm-vendor.h"
#include "cper.h"
#include "macro.h"
#include "ras-record.h"
#include "rfc3339.h"

static uint16_t get16(const uint8_t *p) { return (uint16_t) (p[0] | p[1] << 8); }
static uint32_t get32(const uint8_t *p) { return (uint32_t) get16(p) | (uint32_t) get16(p + 2) << 16; }
static uint64_t get64(const uint8_t *p) { return (uint64_t) get32(p) | (uint64_t) get32(p + 4) << 32; }

uint64_t cper_region_digest(const void *buf, size_t len)
{
	const uint8_t *p = buf;
	uint64_t h = 0xcbf29ce484222325ULL;

	for (size_t i = 0; i < len; i++) {
		h ^= p[i];
		h *= 0x100000001b3ULL;
	}
	return h;
}

/* ---- timestamp (UEFI N.2.1) ---- */

static int bcd(uint8_t v)
{
	if ((v >> 4) > 9 || (v & 0xf) > 9)
		return -1;
	return (v >> 4) * 10 + (v & 0xf);
}

int cper_timestamp_to_usec(const uint8_t ts[8], int64_t *ret_usec, bool *ret_precise)
{
	static const uint8_t mdays[13] = { 0, 31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31 };
	int sec = bcd(ts[0]), min = bcd(ts[1]), hour = bcd(ts[2]), day = bcd(ts[4]), mon = bcd(ts[5]);
	int year = bcd(ts[6]), century = bcd(ts[7]);
	int64_t days;

	if (sec < 0 || min < 0 || hour < 0 || day < 0 || mon < 0 || year < 0 || century < 0)
		return -EINVAL;
	if (sec > 59 || min > 59 || hour > 23 || mon < 1 || mon > 12 || day < 1 || day > mdays[mon])
		return -EINVAL;
	days = days_from_civil(century * 100 + year, (unsigned) mon, (unsigned) day);
	*ret_usec = ((days * 24 + hour) * 60 * 60 + min * 60 + sec) * 1000000LL;
	if (ret_precise)
		*ret_precise = ts[3] & 1;
	return 0;
}

/* ---- the walk ---- */

struct parser {
	const uint8_t *buf;
	size_t len;
	enum mce_source source;
	const struct cper_sink *sink;
	unsigned n_problems;
	unsigned n_records;
	unsigned n_sections;
	bool oom;
};

/* One Generic Error Data Entry, checked: data/len lie inside the buffer. */
struct entry {
	size_t off;             /* of the entry header */
	size_t data_off;        /* of the section body */
	const uint8_t *data;
	size_t len;
	struct cper_guid type;
	uint32_t severity;
	uint16_t revision;
	uint8_t flags;
	bool have_fru_id;
	struct cper_guid fru_id;
	const char *fru_text;   /* 20 bytes, not NUL-terminated; NULL: not valid */
	bool have_time;
	int64_t time_usec;
};

_printf_(3, 4)
static void problem(struct parser *p, size_t off, const char *fmt, ...)
{
	char what[256];
	va_list ap;

	p->n_problems++;
	if (!p->sink->problem)
		return;
	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	p->sink->problem(off, what, p->sink->userdata);
}

static void check_add(struct parser *p, int r)
{
	if (r == -ENOMEM)
		p->oom = true;
	/* -E2BIG: the record is full and says so ("truncated"); what fit is kept. */
}

/*
 * Error Severity (UEFI 2.10 N.2.1, ACPI Table 18.11/18.12).  "Recoverable" is
 * the spec's name for an uncorrected error the system survived; fatal and
 * corrected are what they say; "informational" reports no error.
 */
static const struct {
	const char *name;
	enum ras_severity severity;
} cper_severities[] = {
	[0] = { "recoverable",   RAS_SEV_UNCORRECTED },
	[1] = { "fatal",         RAS_SEV_FATAL },
	[2] = { "corrected",     RAS_SEV_CORRECTED },
	[3] = { "informational", RAS_SEV_INFO },
};

const char *cper_severity_name(uint64_t sev)
{
	return sev < ELEMENTSOF(cper_severities) ? cper_severities[sev].name : NULL;
}

enum ras_severity cper_severity_to_ras(uint64_t sev)
{
	return sev < ELEMENTSOF(cper_severities) ? cper_severities[sev].severity : RAS_SEV_UNCORRECTED;
}

static void ras_begin(struct parser *p, const struct entry *e, struct ras_record *r, enum ras_event event)
{
	char guid[CPER_GUID_STRING_MAX];
	const char *name = cper_section_name(&e->type);

	ras_record_init(r, event, p->source);
	r->severity = cper_severity_to_ras(e->severity);
	if (e->have_time) {
		r->have_time = true;
		r->time_usec = e->time_usec;
	}
	cper_guid_to_string(&e->type, guid);
	check_add(p, ras_record_add_string(r, "section_type", guid, sizeof(guid)));
	if (name)
		check_add(p, ras_record_add_string(r, "section_name", name, strlen(name)));
	if (e->have_fru_id) {
		cper_guid_to_string(&e->fru_id, guid);
		check_add(p, ras_record_add_string(r, "fru_id", guid, sizeof(guid)));
	}
	if (e->fru_text)
		check_add(p, ras_record_add_string(r, "fru_text", e->fru_text, 20));
}

static void ras_emit(struct parser *p, struct ras_record *r)
{
	/* Counted with or without a callback: an empty sink asks how many records there are. */
	if (!p->oom) {
		if (p->sink->ras)
			p->sink->ras(r, p->sink->userdata);
		p->n_records++;
	}
	ras_record_done(r);
}

/* Raw bytes, as many as the record's data budget allows; the length is always given. */
static void add_raw(struct parser *p, struct ras_record *r, const char *key, const uint8_t *d, size_t n)
{
	size_t room = RAS_RECORD_MAX_DATA - r->data_used;

	if (n > room) {
		r->truncated = true;
		n = room;
	}
	check_add(p, ras_record_add_bytes(r, key, d, n));
}

static const char *table_name(const char *const *names, size_t n, unsigned v)
{
	return v < n && names[v] ? names[v] : NULL;
}

static void add_enum(struct parser *p, struct ras_record *r, const char *key,
		     const char *const *names, size_t n, unsigned v)
{
	const char *s = table_name(names, n, v);
	char buf[32];

	if (!s) {
		snprintf(buf, sizeof(buf), "reserved (%u)", v);
		s = buf;
	}
	check_add(p, ras_record_add_string(r, key, s, strlen(s)));
}

#define ADD_ENUM(p, r, key, table, v) add_enum(p, r, key, table, ELEMENTSOF(table), v)

/* ---- Processor Generic (UEFI N.2.4.1), 192 bytes ---- */

static const char *const proc_types[] = { [0] = "IA32/X64", [1] = "IA64", [2] = "ARM" };
static const char *const proc_isas[] = {
	[0] = "IA32", [1] = "IA64", [2] = "X64", [3] = "ARM A32/T32", [4] = "ARM A64",
};
static const char *const proc_error_types[] = {
	[0x0] = "unknown", [0x1] = "cache", [0x2] = "tlb", [0x4] = "bus", [0x8] = "micro-architectural",
};
static const char *const proc_operations[] = {
	[0] = "unknown or generic", [1] = "data read", [2] = "data write", [3] = "instruction execution",
};

static void parse_proc_generic(struct parser *p, const struct entry *e)
{
	const uint8_t *d = e->data;
	uint64_t v = get64(d);
	struct ras_record r;

	ras_begin(p, e, &r, (v & 1) && d[8] == 2 ? RAS_EVENT_ARM_PROCESSOR : RAS_EVENT_X86_PROCESSOR);
	if (v & (1u << 0))
		ADD_ENUM(p, &r, "processor_type", proc_types, d[8]);
	if (v & (1u << 1))
		ADD_ENUM(p, &r, "isa", proc_isas, d[9]);
	if (v & (1u << 2))
		ADD_ENUM(p, &r, "error_type", proc_error_types, d[10]);
	if (v & (1u << 3))
		ADD_ENUM(p, &r, "operation", proc_operations, d[11]);
	if (v & (1u << 4))
		check_add(p, ras_record_add_hex(&r, "flags", d[12]));
	if (v & (1u << 5))
		check_add(p, ras_record_add_uint(&r, "level", d[13]));
	if (v & (1u << 6))
		check_add(p, ras_record_add_hex64(&r, "cpu_version", get64(d + 16)));
	if (v & (1u << 7))
		check_add(p, ras_record_add_string(&r, "brand_string", (const char *) d + 24, 128));
	if (v & (1u << 8))
		check_add(p, ras_record_add_hex64(&r, "processor_id", get64(d + 152)));
	if (v & (1u << 9))
		check_add(p, ras_record_add_hex64(&r, "target_address", get64(d + 160)));
	if (v & (1u << 10))
		check_add(p, ras_record_add_hex64(&r, "requestor_id", get64(d + 168)));
	if (v & (1u << 11))
		check_add(p, ras_record_add_hex64(&r, "responder_id", get64(d + 176)));
	if (v & (1u << 12))
		check_add(p, ras_record_add_hex64(&r, "ip", get64(d + 184)));
	snprintf(r.summary, sizeof(r.summary), "Processor error (%s) reported by firmware",
		 ras_severity_to_string(r.severity));
	ras_emit(p, &r);
}

/* ---- IA32/X64 (UEFI N.2.4.2) ---- */

#define X86_HDR_LEN      64   /* validation bits, local APIC ID, CPUID info */
#define X86_ERRINFO_LEN  64
#define X86_CTX_HDR_LEN  16
#define X86_CTX_MSR      1    /* "MSR Registers (Machine Check and other MSRs)" */

enum mca_reg { REG_NONE, REG_STATUS, REG_ADDR, REG_MISC, REG_IPID, REG_SYND };

/* MSR ranges that hold machine-check banks; reg[] is indexed by the MSR's offset within its bank. */
static const struct mca_msr_range {
	uint32_t first, last;
	uint32_t stride;
	enum mce_vendor vendor;   /* UNKNOWN: any vendor uses this range */
	uint8_t reg[16];
} mca_msr_ranges[] = {
	/* Intel SDM vol. 3B §16.3.2; AMD APM vol. 2 §9.3: CTL, STATUS, ADDR, MISC */
	{ 0x400, 0x47f, 4, MCE_VENDOR_UNKNOWN,
	  { [1] = REG_STATUS, [2] = REG_ADDR, [3] = REG_MISC } },
	/* AMD PPR: MCA_CTL, STATUS, ADDR, MISC0, CONFIG, IPID, SYND at C000_2000 + 0x10*bank */
	{ 0xc0002000, 0xc0002fff, 16, MCE_VENDOR_AMD,
	  { [1] = REG_STATUS, [2] = REG_ADDR, [3] = REG_MISC, [5] = REG_IPID, [6] = REG_SYND } },
};

static const struct mca_msr_range *find_mca_range(uint32_t msr)
{
	for (size_t i = 0; i < ELEMENTSOF(mca_msr_ranges); i++)
		if (msr >= mca_msr_ranges[i].first && msr <= mca_msr_ranges[i].last)
			return &mca_msr_ranges[i];
	return NULL;
}

struct x86_section {
	bool have_apicid;
	uint64_t apicid;
	bool have_cpuid;
	uint32_t cpuid_eax;
};

static void emit_mce(struct parser *p, const struct entry *e, const struct x86_section *x,
		     struct mce_record *rec)
{
	rec->source = p->source;
	if (e->have_time) {
		rec->time_usec = e->time_usec;
		rec->have |= MCE_HAVE_TIME;
	}
	if (x->have_apicid && x->apicid <= UINT32_MAX) {
		rec->apicid = (uint32_t) x->apicid;
		rec->have |= MCE_HAVE_APICID;
	}
	if (x->have_cpuid)
		mce_record_set_cpuid(rec, x->cpuid_eax);
	if (p->sink->mce)
		p->sink->mce(rec, p->sink->userdata);
	p->n_records++;
}

/*
 * One "MSR registers" context: register k of the array is MSR (msr + k).  A
 * context may cover one bank (firmware usually starts it at the bank's STATUS)
 * or several; each bank with a valid STATUS (bit 63, VAL) becomes a record.
 * Returns the number of records.
 */
static unsigned parse_msr_context(struct parser *p, const struct entry *e, const struct x86_section *x,
				  uint32_t msr, const uint8_t *regs, size_t n_regs)
{
	const struct mca_msr_range *range = find_mca_range(msr);
	struct mce_record rec = {};
	bool open = false;
	uint32_t bank = 0;
	unsigned n = 0;

	if (!range)
		return 0;
	for (size_t k = 0; k < n_regs; k++) {
		uint64_t a = (uint64_t) msr + k, v = get64(regs + 8 * k);
		uint32_t b;

		if (a > range->last)
			break;
		b = (uint32_t) ((a - range->first) / range->stride);
		if (open && b != bank) {
			if (rec.status >> 63)
				emit_mce(p, e, x, &rec), n++;
			open = false;
		}
		if (!open) {
			rec = (struct mce_record) { .bank = b, .have = MCE_HAVE_BANK, .vendor = range->vendor };
			if (range->vendor != MCE_VENDOR_UNKNOWN)
				rec.have |= MCE_HAVE_VENDOR;
			bank = b;
			open = true;
		}
		switch (range->reg[(a - range->first) % range->stride]) {
		case REG_STATUS: rec.status = v; rec.have |= MCE_HAVE_STATUS; break;
		case REG_ADDR:   rec.addr = v;   rec.have |= MCE_HAVE_ADDR;   break;
		case REG_MISC:   rec.misc = v;   rec.have |= MCE_HAVE_MISC;   break;
		case REG_IPID:   rec.ipid = v;   rec.have |= MCE_HAVE_IPID;   break;
		case REG_SYND:   rec.synd = v;   rec.have |= MCE_HAVE_SYND;   break;
		default: break;
		}
	}
	if (open && (rec.have & MCE_HAVE_STATUS) && rec.status >> 63)
		emit_mce(p, e, x, &rec), n++;
	return n;
}

static const char *const x86_check_names[] = { "cache", "tlb", "bus", "micro-architectural" };
static const struct cper_guid x86_check_guids[] = {
	{ 0xa55701f5, 0xe3ef, 0x43de, { 0xac, 0x72, 0x24, 0x9b, 0x57, 0x3f, 0xad, 0x2c } },
	{ 0xfc06b535, 0x5e1f, 0x4562, { 0x9f, 0x25, 0x0a, 0x3b, 0x9a, 0xdb, 0x63, 0xc3 } },
	{ 0x1cf3f8b3, 0xc5b1, 0x49a2, { 0xaa, 0x59, 0x5e, 0xef, 0x92, 0xff, 0xa6, 0x3c } },
	{ 0x48ab7f57, 0xdc34, 0x4f6c, { 0xa7, 0xd3, 0xb0, 0xb5, 0xb0, 0xa7, 0x43, 0x14 } },
};
static const char *const x86_ctx_types[] = {
	[0] = "unclassified", [1] = "msr", [2] = "ia32 execution", [3] = "x64 execution",
	[4] = "fxsave", [5] = "ia32 debug", [6] = "x64 debug", [7] = "memory mapped",
};

static void add_x86_error_info(struct parser *p, struct ras_record *r, const uint8_t *ei)
{
	struct cper_guid g;
	const char *check = "unknown";
	uint64_t v = get64(ei + 16);

	cper_guid_from_bytes(&g, ei);
	for (size_t i = 0; i < ELEMENTSOF(x86_check_guids); i++)
		if (cper_guid_equal(&g, &x86_check_guids[i]))
			check = x86_check_names[i];
	check_add(p, ras_record_add_string(r, "check_type", check, strlen(check)));
	if (v & (1u << 0))
		check_add(p, ras_record_add_hex64(r, "check_info", get64(ei + 24)));
	if (v & (1u << 1))
		check_add(p, ras_record_add_hex64(r, "target_address", get64(ei + 32)));
	if (v & (1u << 2))
		check_add(p, ras_record_add_hex64(r, "requestor_id", get64(ei + 40)));
	if (v & (1u << 3))
		check_add(p, ras_record_add_hex64(r, "responder_id", get64(ei + 48)));
	if (v & (1u << 4))
		check_add(p, ras_record_add_hex64(r, "ip", get64(ei + 56)));
}

static void parse_x86(struct parser *p, const struct entry *e)
{
	const uint8_t *d = e->data;
	uint64_t v = get64(d);
	unsigned n_info = (unsigned) (v >> 2) & 0x3f, n_ctx = (unsigned) (v >> 8) & 0x3f, n_mce = 0;
	struct x86_section x = {
		.have_apicid = v & 1, .apicid = get64(d + 8),
		.have_cpuid = v & 2, .cpuid_eax = get32(d + 16),   /* CPUID(1).EAX starts the 48-byte CPUID info */
	};
	size_t off = X86_HDR_LEN, first_ctx_type = SIZE_MAX;
	struct ras_record r;

	if ((size_t) n_info * X86_ERRINFO_LEN > e->len - off) {
		problem(p, e->data_off, "IA32/X64 section: %u error information structures need %u bytes, "
			"the section has %zu", n_info, n_info * X86_ERRINFO_LEN, e->len - off);
		n_info = (unsigned) ((e->len - off) / X86_ERRINFO_LEN);
		n_ctx = 0;
	}
	off += (size_t) n_info * X86_ERRINFO_LEN;
	for (unsigned i = 0; i < n_ctx; i++) {
		size_t size;
		uint16_t type;

		if (e->len - off < X86_CTX_HDR_LEN) {
			problem(p, e->data_off + off, "IA32/X64 section: context %u of %u: header needs %d "
				"bytes, %zu left in the section", i + 1, n_ctx, X86_CTX_HDR_LEN, e->len - off);
			break;
		}
		type = get16(d + off);
		size = get16(d + off + 2);
		if (size > e->len - off - X86_CTX_HDR_LEN) {
			problem(p, e->data_off + off + 2, "IA32/X64 section: context %u of %u: register array "
				"of %zu bytes runs past the end of the section (%zu bytes left)",
				i + 1, n_ctx, size, e->len - off - X86_CTX_HDR_LEN);
			break;
		}
		if (first_ctx_type == SIZE_MAX)
			first_ctx_type = type;
		if (type == X86_CTX_MSR)
			n_mce += parse_msr_context(p, e, &x, get32(d + off + 4), d + off + X86_CTX_HDR_LEN,
						   size / 8);
		off += X86_CTX_HDR_LEN + size;
	}
	if (n_mce > 0)
		return;

	/* No machine-check bank in it: keep what the section says, and its bytes. */
	ras_begin(p, e, &r, RAS_EVENT_X86_PROCESSOR);
	if (x.have_apicid)
		check_add(p, ras_record_add_uint(&r, "apicid", x.apicid));
	if (x.have_cpuid)
		check_add(p, ras_record_add_hex(&r, "cpuid_eax", x.cpuid_eax));
	check_add(p, ras_record_add_uint(&r, "error_info_count", n_info));
	if (n_info > 0)
		add_x86_error_info(p, &r, d + X86_HDR_LEN);
	check_add(p, ras_record_add_uint(&r, "context_count", n_ctx));
	if (first_ctx_type != SIZE_MAX)
		ADD_ENUM(p, &r, "context_type", x86_ctx_types, (unsigned) first_ctx_type);
	add_raw(p, &r, "data", d, e->len);
	snprintf(r.summary, sizeof(r.summary), "IA32/X64 processor error (%s) reported by firmware",
		 ras_severity_to_string(r.severity));
	ras_emit(p, &r);
}

/* ---- Memory Error (UEFI N.2.5) ---- */

static const char *const mem_error_types[] = {
	[0] = "unknown", [1] = "no error", [2] = "single-bit ECC", [3] = "multi-bit ECC",
	[4] = "single-symbol chipkill ECC", [5] = "multi-symbol chipkill ECC", [6] = "master abort",
	[7] = "target abort", [8] = "parity error", [9] = "watchdog timeout", [10] = "invalid address",
	[11] = "mirror broken", [12] = "memory sparing", [13] = "scrub corrected error",
	[14] = "scrub uncorrected error", [15] = "physical memory map-out event",
};

const char *cper_mem_error_type_name(uint64_t type)
{
	return type < ELEMENTSOF(mem_error_types) ? mem_error_types[type] : NULL;
}

/* Validation bit → key, offset and width, in the order the spec lists them. */
static const struct mem_field {
	uint8_t bit;
	uint8_t off;
	uint8_t size;
	enum ras_field_type type;
	const char *key;
} mem_fields[] = {
	{ 0,  8,  8, RAS_FIELD_HEX64, "error_status" },
	{ 1,  16, 8, RAS_FIELD_HEX64, "physical_address" },
	{ 2,  24, 8, RAS_FIELD_HEX64, "physical_address_mask" },
	{ 3,  32, 2, RAS_FIELD_UINT,  "node" },
	{ 4,  34, 2, RAS_FIELD_UINT,  "card" },
	{ 5,  36, 2, RAS_FIELD_UINT,  "module" },
	{ 6,  38, 2, RAS_FIELD_UINT,  "bank" },
	{ 7,  40, 2, RAS_FIELD_UINT,  "device" },
	{ 8,  42, 2, RAS_FIELD_UINT,  "row" },
	{ 9,  44, 2, RAS_FIELD_UINT,  "column" },
	{ 10, 46, 2, RAS_FIELD_UINT,  "bit_position" },
	{ 11, 48, 8, RAS_FIELD_HEX64, "requestor_id" },
	{ 12, 56, 8, RAS_FIELD_HEX64, "responder_id" },
	{ 13, 64, 8, RAS_FIELD_HEX64, "target_id" },
	{ 15, 74, 2, RAS_FIELD_UINT,  "rank" },
	{ 16, 76, 2, RAS_FIELD_HEX,   "card_handle" },
	{ 17, 78, 2, RAS_FIELD_HEX,   "module_handle" },
};

#define MEM_SECTION_MIN_LEN 73   /* UEFI 2.1's layout ends after the error type */

static void parse_memory(struct parser *p, const struct entry *e)
{
	const uint8_t *d = e->data;
	uint64_t v = get64(d);
	struct ras_record r;

	ras_begin(p, e, &r, RAS_EVENT_FIRMWARE_MEMORY);
	for (size_t i = 0; i < ELEMENTSOF(mem_fields); i++) {
		const struct mem_field *f = &mem_fields[i];
		uint64_t x;

		if (!(v & (1ULL << f->bit)) || (size_t) f->off + f->size > e->len)
			continue;
		x = f->size == 8 ? get64(d + f->off) : get16(d + f->off);
		if (f->type == RAS_FIELD_HEX64)
			check_add(p, ras_record_add_hex64(&r, f->key, x));
		else if (f->type == RAS_FIELD_HEX)
			check_add(p, ras_record_add_hex(&r, f->key, x));
		else
			check_add(p, ras_record_add_uint(&r, f->key, x));
	}
	if (v & (1u << 14))
		ADD_ENUM(p, &r, "error_type", mem_error_types, d[72]);
	if (e->len > 73 && (v & (1u << 21)))
		check_add(p, ras_record_add_uint(&r, "chip_id", d[73] >> 5));
	{
		const struct ras_field *pa = ras_record_find(&r, "physical_address");
		const struct ras_field *et = ras_record_find(&r, "error_type");
		char at[32] = "";

		if (pa)
			snprintf(at, sizeof(at), " at 0x%llx", (unsigned long long) pa->u);
		snprintf(r.summary, sizeof(r.summary), "Memory error (%s%s%s) reported by firmware%s",
			 ras_severity_to_string(r.severity), et ? ", " : "", et ? et->data : "", at);
	}
	ras_emit(p, &r);
}

/* ---- ARM processor (UEFI N.2.4.4), its blocks decoded by decoders/arm-processor.c ---- */

#define ARM_HDR_LEN      40

/* A block the Arm decoders found wrong: reported where it lies in the region; the raw bytes stay. */
static void arm_block_problem(struct parser *p, const struct entry *e, size_t block_off, int r,
			      const struct arm_problem *pb)
{
	if (r == -ENOMEM)
		p->oom = true;
	else if (r == -EBADMSG)
		problem(p, e->data_off + block_off + pb->offset, "ARM section: %s", pb->what);
}

static void parse_arm(struct parser *p, const struct entry *e)
{
	const uint8_t *d = e->data;
	uint32_t v = get32(d);
	unsigned n_info = get16(d + 4), n_ctx = get16(d + 6);
	size_t off = ARM_HDR_LEN, info_len, ctx_len = 0;
	struct arm_problem pb;
	struct ras_record r;
	char what[96] = "processor error";
	int k;

	ras_begin(p, e, &r, RAS_EVENT_ARM_PROCESSOR);
	if (v & (1u << 0))
		check_add(p, ras_record_add_hex64(&r, "mpidr", get64(d + 16)));
	check_add(p, ras_record_add_hex64(&r, "midr", get64(d + 24)));
	if (v & (1u << 1))
		check_add(p, ras_record_add_uint(&r, "affinity", d[12]));
	if (v & (1u << 2)) {
		check_add(p, ras_record_add_hex(&r, "running_state", get32(d + 32)));
		check_add(p, ras_record_add_hex(&r, "psci_state", get32(d + 36)));
	}
	check_add(p, ras_record_add_uint(&r, "pei_count", n_info));
	info_len = (size_t) n_info * ARM_ERROR_INFO_LEN;
	if (info_len > e->len - off) {
		info_len = (e->len - off) / ARM_ERROR_INFO_LEN * ARM_ERROR_INFO_LEN;
		/* Where the contexts begin is unknown once the structures before them are cut. */
		n_ctx = 0;
	}
	/* The raw bytes first: a record that fills up keeps them before what is decoded from them. */
	if (info_len > 0)
		add_raw(p, &r, "pei", d + off, info_len);
	if (n_info > 0) {
		k = arm_error_info_decode(&r, d + off, e->len - off, n_info, &pb);
		arm_block_problem(p, e, off, k, &pb);
	}
	off += info_len;
	if (n_ctx > 0) {
		/* Walked within the section: what follows the contexts is the vendor's. */
		k = arm_context_decode(&r, d + off, e->len - off, n_ctx, &ctx_len, &pb);
		arm_block_problem(p, e, off, k, &pb);
		/* A context that does not fit: the rest of the section is kept as it stands. */
		if (k == -EBADMSG)
			ctx_len = e->len - off;
		if (ctx_len > 0)
			add_raw(p, &r, "ctx", d + off, ctx_len);
	}
	off += ctx_len;
	if (v & (1u << 3) && off < e->len)
		add_raw(p, &r, "oem", d + off, e->len - off);
	arm_error_describe(&r, what, sizeof(what));
	snprintf(r.summary, sizeof(r.summary), "ARM %s (%s) reported by firmware", what,
		 ras_severity_to_string(r.severity));
	ras_emit(p, &r);
}

/* ---- PCI Express (UEFI N.2.7), 208 bytes ---- */

static const char *const pcie_port_types[] = {
	[0] = "endpoint", [1] = "legacy endpoint", [4] = "root port", [5] = "upstream switch port",
	[6] = "downstream switch port", [7] = "pcie to pci/pci-x bridge", [8] = "pci/pci-x to pcie bridge",
	[9] = "root complex integrated endpoint", [10] = "root complex event collector",
};

static void parse_pcie(struct parser *p, const struct entry *e)
{
	const uint8_t *d = e->data, *id = d + 24, *aer = d + 112;
	uint64_t v = get64(d);
	struct ras_record r;

	ras_begin(p, e, &r, RAS_EVENT_PCIE_AER);
	if (v & (1u << 0))
		ADD_ENUM(p, &r, "port_type", pcie_port_types, get32(d + 8));
	if (v & (1u << 1))
		check_add(p, ras_record_add_hex(&r, "version", (unsigned) d[13] << 8 | d[12]));
	if (v & (1u << 2)) {
		check_add(p, ras_record_add_hex(&r, "command", get16(d + 16)));
		check_add(p, ras_record_add_hex(&r, "pci_status", get16(d + 18)));
	}
	if (v & (1u << 3)) {
		char name[32];

		/* segment:bus:device.function, as the kernel names the device (aer_event's dev_name) */
		snprintf(name, sizeof(name), "%04x:%02x:%02x.%x", get16(id + 9), id[11], id[8], id[7]);
		check_add(p, ras_record_add_string(&r, "dev_name", name, sizeof(name)));
		check_add(p, ras_record_add_hex(&r, "vendor_id", get16(id)));
		check_add(p, ras_record_add_hex(&r, "device_id", get16(id + 2)));
		check_add(p, ras_record_add_hex(&r, "class_code",
						(uint32_t) id[4] | (uint32_t) id[5] << 8 | (uint32_t) id[6] << 16));
		check_add(p, ras_record_add_uint(&r, "slot", get16(id + 13) >> 3));
	}
	if (v & (1u << 4))
		check_add(p, ras_record_add_hex64(&r, "serial_number", get64(d + 40)));
	if (v & (1u << 5)) {
		check_add(p, ras_record_add_hex(&r, "bridge_secondary_status", get16(d + 48)));
		check_add(p, ras_record_add_hex(&r, "bridge_control", get16(d + 50)));
	}
	if (v & (1u << 7)) {
		/* The AER extended capability as stored: uncorrectable status at +4, correctable at +16. */
		check_add(p, ras_record_add_hex(&r, "uncorrectable_status", get32(aer + 4)));
		check_add(p, ras_record_add_hex(&r, "uncorrectable_severity", get32(aer + 12)));
		check_add(p, ras_record_add_hex(&r, "correctable_status", get32(aer + 16)));
		check_add(p, ras_record_add_bytes(&r, "tlp_header", aer + 28, 16));
	}
	{
		const struct ras_field *dev = ras_record_find(&r, "dev_name");

		snprintf(r.summary, sizeof(r.summary), "PCIe error (%s)%s%s reported by firmware",
			 ras_severity_to_string(r.severity), dev ? " on " : "", dev ? dev->data : "");
	}
	ras_emit(p, &r);
}

/* ---- anything else ---- */

static void parse_vendor(struct parser *p, const struct entry *e)
{
	struct ras_record r;
	const char *name = cper_section_name(&e->type);
	struct arm_problem pb;
	char what[160];
	int k;

	ras_begin(p, e, &r, RAS_EVENT_VENDOR_SECTION);
	check_add(p, ras_record_add_uint(&r, "length", e->len));
	add_raw(p, &r, "data", e->data, e->len);
	k = arm_vendor_decode(&e->type, &r, e->data, e->len, what, sizeof(what), &pb);
	if (k == -ENOMEM)
		p->oom = true;
	else if (k == -EBADMSG)
		problem(p, e->data_off + pb.offset, "%s", pb.what);
	if (what[0])
		snprintf(r.summary, sizeof(r.summary), "%s (%s) reported by firmware", what,
			 ras_severity_to_string(r.severity));
	else
		snprintf(r.summary, sizeof(r.summary), "%s%s (%s) reported by firmware",
			 name ? name : "Firmware error section ", name ? "" : "of a vendor type",
			 ras_severity_to_string(r.severity));
	ras_emit(p, &r);
}

/* UEFI 2.10 §N.2.2 section types; min_len: the bytes the parser reads without further checks. */
static const struct section_type {
	struct cper_guid guid;
	const char *name;
	size_t min_len;
	void (*parse)(struct parser *p, const struct entry *e);
} section_types[] = {
	{ { 0x9876ccad, 0x47b4, 0x4bdb, { 0xb6, 0x5e, 0x16, 0xf1, 0x93, 0xc4, 0xf3, 0xdb } },
	  "processor generic", 192, parse_proc_generic },
	{ { 0xdc3ea0b0, 0xa144, 0x4797, { 0xb9, 0x5b, 0x53, 0xfa, 0x24, 0x2b, 0x6e, 0x1d } },
	  "IA32/X64 processor", X86_HDR_LEN, parse_x86 },
	{ { 0xa5bc1114, 0x6f64, 0x4ede, { 0xb8, 0x63, 0x3e, 0x83, 0xed, 0x7c, 0x83, 0xb1 } },
	  "memory error", MEM_SECTION_MIN_LEN, parse_memory },
	{ { 0xe19e3d16, 0xbc11, 0x11e4, { 0x9c, 0xaa, 0xc2, 0x05, 0x1d, 0x5d, 0x46, 0xb0 } },
	  "ARM processor", ARM_HDR_LEN, parse_arm },
	{ { 0xd995e954, 0xbbc1, 0x430f, { 0xad, 0x91, 0xb4, 0x4d, 0xcb, 0x3c, 0x6f, 0x35 } },
	  "PCI Express", 208, parse_pcie },
	/* Known names, raw bytes: */
	{ { 0x81212a96, 0x09ed, 0x4996, { 0x94, 0x71, 0x8d, 0x72, 0x9c, 0x8e, 0x69, 0xed } },
	  "firmware error record reference", 0, parse_vendor },
	{ { 0x61ec04fc, 0x48e6, 0xd813, { 0x25, 0xc9, 0x8d, 0xaa, 0x44, 0x75, 0x0b, 0x12 } },
	  "memory error 2", 0, parse_vendor },
	{ { 0xc5753963, 0x3b84, 0x4095, { 0xbf, 0x78, 0xed, 0xda, 0xd3, 0xf9, 0xc9, 0xdd } },
	  "PCI/PCI-X bus", 0, parse_vendor },
	{ { 0xeb5e4685, 0xca66, 0x4769, { 0xb6, 0xa2, 0x26, 0x06, 0x8b, 0x00, 0x13, 0x26 } },
	  "PCI component", 0, parse_vendor },
};

static const struct section_type *find_section_type(const struct cper_guid *g)
{
	for (size_t i = 0; i < ELEMENTSOF(section_types); i++)
		if (cper_guid_equal(g, &section_types[i].guid))
			return &section_types[i];
	return NULL;
}

const char *cper_section_name(const struct cper_guid *g)
{
	const struct section_type *t = find_section_type(g);

	return t ? t->name : arm_vendor_section_name(g);
}

#define ENTRY_HDR_LEN     64
#define ENTRY_HDR_LEN_V3  72    /* revision 0x300 and later add the timestamp */

static void parse_entry(struct parser *p, struct entry *e, const uint8_t *h)
{
	const struct section_type *t;
	uint8_t valid = h[22];

	if (valid & (1u << 0)) {
		e->have_fru_id = true;
		cper_guid_from_bytes(&e->fru_id, h + 28);
	}
	if (valid & (1u << 1))
		e->fru_text = (const char *) h + 44;
	if ((valid & (1u << 2)) && e->revision >= 0x300) {
		if (cper_timestamp_to_usec(h + 64, &e->time_usec, NULL) >= 0)
			e->have_time = true;
		else
			problem(p, e->off + 64, "timestamp marked valid but is not a BCD date and time "
				"(%02x %02x %02x %02x %02x %02x %02x %02x); the section is kept without it",
				h[64], h[65], h[66], h[67], h[68], h[69], h[70], h[71]);
	}
	t = find_section_type(&e->type);
	if (t && e->len < t->min_len) {
		problem(p, e->off + 24, "%s section is %zu bytes, shorter than its %zu-byte layout; "
			"kept as raw bytes", t->name, e->len, t->min_len);
		parse_vendor(p, e);
		return;
	}
	(t ? t->parse : parse_vendor)(p, e);
}

/* The Generic Error Data Entries of one status block: [start, start + len). */
static void parse_entries(struct parser *p, size_t start, size_t len)
{
	size_t off = start, end = start + len;

	while (off < end) {
		const uint8_t *h = p->buf + off;
		struct entry e = { .off = off };
		size_t hdr;
		uint32_t elen;

		if (end - off < ENTRY_HDR_LEN) {
			problem(p, off, "Generic Error Data Entry needs a %d-byte header, only %zu bytes left "
				"in the status block", ENTRY_HDR_LEN, end - off);
			return;
		}
		e.revision = get16(h + 20);
		hdr = e.revision >= 0x300 ? ENTRY_HDR_LEN_V3 : ENTRY_HDR_LEN;
		if (end - off < hdr) {
			problem(p, off, "Generic Error Data Entry revision 0x%04x needs a %zu-byte header, only "
				"%zu bytes left in the status block", e.revision, hdr, end - off);
			return;
		}
		elen = get32(h + 24);
		if (elen > end - off - hdr) {
			problem(p, off + 24, "Generic Error Data Entry: error data length %u runs past the end "
				"of the status block (%zu bytes left)", elen, end - off - hdr);
			return;
		}
		if (p->n_sections >= CPER_MAX_SECTIONS) {
			problem(p, off, "more than %d sections; the rest of the region is skipped",
				CPER_MAX_SECTIONS);
			return;
		}
		p->n_sections++;
		cper_guid_from_bytes(&e.type, h);
		e.severity = get32(h + 16);
		e.flags = h[23];
		e.data_off = off + hdr;
		e.data = p->buf + e.data_off;
		e.len = elen;
		parse_entry(p, &e, h);
		if (p->oom)
			return;
		off += hdr + elen;
	}
}

#define STATUS_BLOCK_HDR_LEN 20

int cper_parse_error_region(const void *buf, size_t len, enum mce_source source,
			    const struct cper_sink *sink)
{
	struct parser p = { .buf = buf, .len = len, .source = source, .sink = sink };
	size_t off = 0;

	while (len - off >= STATUS_BLOCK_HDR_LEN) {
		const uint8_t *b = p.buf + off;
		uint32_t status = get32(b), raw_off = get32(b + 4), raw_len = get32(b + 8);
		uint32_t data_len = get32(b + 12);
		size_t room = len - off - STATUS_BLOCK_HDR_LEN, block_len;
		bool cut = false;

		/* An empty block ends the list.  A block whose status bits are clear but that
		 * carries data is still read: Linux clears each block's Block Status once it
		 * has printed it at boot (drivers/acpi/apei/bert.c, "one-time polled"), so
		 * that is what /sys/firmware/acpi/tables/data/BERT shows to us. */
		if (status == 0 && data_len == 0)
			break;
		if (data_len > room) {
			problem(&p, off + 12, "Generic Error Status Block: data length %u runs past the end of "
				"the region (%zu bytes left); reading what is there", data_len, room);
			data_len = (uint32_t) room;
			cut = true;
		}
		parse_entries(&p, off + STATUS_BLOCK_HDR_LEN, data_len);
		if (p.oom)
			return -ENOMEM;
		block_len = STATUS_BLOCK_HDR_LEN + (size_t) data_len;
		if (!cut && raw_len > 0) {
			if (raw_off < block_len || raw_off > len - off || raw_len > len - off - raw_off) {
				problem(&p, off + 4, "Generic Error Status Block: raw data (offset %u, length %u) "
					"is not inside the region after the error data", raw_off, raw_len);
				cut = true;
			} else
				block_len = (size_t) raw_off + raw_len;
		}
		if (cut)
			break;
		off += block_len;
	}
	if (p.oom)
		return -ENOMEM;
	return p.n_problems > 0 ? -EBADMSG : (int) p.n_records;
}
