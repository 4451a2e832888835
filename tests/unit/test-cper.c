/* SPDX-License-Identifier: MIT */
/*
 * The boot error region parser.  One recorded region prefix from real
 * hardware (tests/data/bert/README); every other section is "constructed from
 * UEFI spec Appendix N": built here byte by byte from the layouts
 * (ACPI 6.5 Tables 18.11/18.12, UEFI 2.10 §N.2.4.1, N.2.4.2, N.2.4.4, N.2.5, N.2.7).
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "cper.h"
#include "ras-record.h"

/* ---- a little byte builder ---- */

struct buf {
	uint8_t b[20480];
	size_t len;
};

static size_t put(struct buf *b, uint64_t v, unsigned size)
{
	size_t at = b->len;

	assert_true(b->len + size <= sizeof(b->b));
	for (unsigned i = 0; i < size; i++)
		b->b[b->len++] = (uint8_t) (v >> (8 * i));
	return at;
}

static void set(struct buf *b, size_t at, uint64_t v, unsigned size)
{
	for (unsigned i = 0; i < size; i++)
		b->b[at + i] = (uint8_t) (v >> (8 * i));
}

static void zeros(struct buf *b, size_t n)
{
	assert_true(b->len + n <= sizeof(b->b));
	memset(b->b + b->len, 0, n);
	b->len += n;
}

/* GUID in UEFI byte order */
static void put_guid(struct buf *b, uint32_t a, uint16_t x, uint16_t y, const uint8_t d[8])
{
	put(b, a, 4);
	put(b, x, 2);
	put(b, y, 2);
	memcpy(b->b + b->len, d, 8);
	b->len += 8;
}

#define GUID_PROC_GENERIC 0x9876ccad, 0x47b4, 0x4bdb, (const uint8_t[]) { 0xb6, 0x5e, 0x16, 0xf1, 0x93, 0xc4, 0xf3, 0xdb }
#define GUID_X86          0xdc3ea0b0, 0xa144, 0x4797, (const uint8_t[]) { 0xb9, 0x5b, 0x53, 0xfa, 0x24, 0x2b, 0x6e, 0x1d }
#define GUID_MEMORY       0xa5bc1114, 0x6f64, 0x4ede, (const uint8_t[]) { 0xb8, 0x63, 0x3e, 0x83, 0xed, 0x7c, 0x83, 0xb1 }
#define GUID_ARM          0xe19e3d16, 0xbc11, 0x11e4, (const uint8_t[]) { 0x9c, 0xaa, 0xc2, 0x05, 0x1d, 0x5d, 0x46, 0xb0 }
#define GUID_PCIE         0xd995e954, 0xbbc1, 0x430f, (const uint8_t[]) { 0xad, 0x91, 0xb4, 0x4d, 0xcb, 0x3c, 0x6f, 0x35 }
#define GUID_VENDOR       0x12345678, 0x9abc, 0xdef0, (const uint8_t[]) { 1, 2, 3, 4, 5, 6, 7, 8 }
#define GUID_CACHE_CHECK  0xa55701f5, 0xe3ef, 0x43de, (const uint8_t[]) { 0xac, 0x72, 0x24, 0x9b, 0x57, 0x3f, 0xad, 0x2c }

/* Generic Error Status Block header; returns its offset (data length patched by end_block). */
static size_t begin_block(struct buf *b, uint32_t severity)
{
	size_t at = put(b, 1u | (1u << 4), 4);  /* uncorrectable valid, one entry */
	put(b, 0, 4);           /* raw data offset */
	put(b, 0, 4);           /* raw data length */
	put(b, 0, 4);           /* data length */
	put(b, severity, 4);
	return at;
}

static void end_block(struct buf *b, size_t at)
{
	set(b, at + 12, b->len - at - 20, 4);
}

/* Generic Error Data Entry header, revision 0x300 with a timestamp; returns its offset. */
static size_t begin_entry(struct buf *b, uint32_t a, uint16_t x, uint16_t y, const uint8_t d[8],
			  uint32_t severity, const uint8_t *timestamp)
{
	size_t at = b->len;

	put_guid(b, a, x, y, d);
	put(b, severity, 4);
	put(b, 0x300, 2);
	put(b, (timestamp ? 4u : 0u) | 2u, 1);   /* FRU text valid, timestamp valid */
	put(b, 0, 1);
	put(b, 0, 4);                            /* error data length, patched */
	zeros(b, 16);                            /* FRU id */
	memcpy(b->b + b->len, "DIMM_B2\0\0\0\0\0\0\0\0\0\0\0\0\0", 20);
	b->len += 20;
	if (timestamp) {
		memcpy(b->b + b->len, timestamp, 8);
		b->len += 8;
	} else
		zeros(b, 8);
	return at;
}

static void end_entry(struct buf *b, size_t at)
{
	set(b, at + 24, b->len - at - 72, 4);
}

/* 2026-11-20 10:00:01 UTC, BCD, precise */
static const uint8_t ts_2026[8] = { 0x01, 0x00, 0x10, 0x01, 0x20, 0x11, 0x26, 0x20 };
#define TS_2026_USEC 1795168801000000LL

/* ---- what the parser delivers ---- */

struct got {
	struct mce_record mce[16];
	unsigned n_mce;
	struct {
		enum ras_event event;
		enum ras_severity severity;
		bool have_time;
		int64_t time_usec;
		char summary[256];
		char json_keys[1024];
		uint64_t u[8];
		char s[4][64];
	} ras[16];
	unsigned n_ras;
	size_t problem_off[16];
	char problem[16][256];
	unsigned n_problems;
	/* what to pick from each ras record: keys whose numeric value / string is kept */
	const char *want_u[8];
	const char *want_s[4];
};

static void on_mce(struct mce_record *rec, void *userdata)
{
	struct got *g = userdata;

	assert_true(g->n_mce < 16);
	g->mce[g->n_mce++] = *rec;
}

static void on_ras(struct ras_record *rec, void *userdata)
{
	struct got *g = userdata;
	unsigned i = g->n_ras++;

	assert_true(i < 16);
	g->ras[i].event = rec->event;
	g->ras[i].severity = rec->severity;
	g->ras[i].have_time = rec->have_time;
	g->ras[i].time_usec = rec->time_usec;
	snprintf(g->ras[i].summary, sizeof(g->ras[i].summary), "%s", rec->summary);
	for (unsigned k = 0; k < rec->n_fields; k++) {
		size_t l = strlen(g->ras[i].json_keys);

		snprintf(g->ras[i].json_keys + l, sizeof(g->ras[i].json_keys) - l, "%s,", rec->fields[k].key);
	}
	for (unsigned k = 0; k < 8 && g->want_u[k]; k++) {
		const struct ras_field *f = ras_record_find(rec, g->want_u[k]);

		g->ras[i].u[k] = f ? f->u : UINT64_MAX;
	}
	for (unsigned k = 0; k < 4 && g->want_s[k]; k++) {
		const struct ras_field *f = ras_record_find(rec, g->want_s[k]);

		snprintf(g->ras[i].s[k], sizeof(g->ras[i].s[k]), "%s", f && f->data ? f->data : "(absent)");
	}
}

static void on_problem(size_t off, const char *what, void *userdata)
{
	struct got *g = userdata;

	assert_true(g->n_problems < 16);
	g->problem_off[g->n_problems] = off;
	snprintf(g->problem[g->n_problems], sizeof(g->problem[0]), "%s", what);
	g->n_problems++;
}

static int parse(const struct buf *b, size_t len, struct got *g)
{
	const struct cper_sink sink = { .mce = on_mce, .ras = on_ras, .problem = on_problem, .userdata = g };

	return cper_parse_error_region(b->b, len, MCE_SOURCE_PREVIOUS_BOOT, &sink);
}

/* ---- recorded data ---- */

static void test_real_intel_prefix(void **state)
{
	char path[4096];
	FILE *f;
	struct buf b = {};
	struct got g = {};

	(void) state;
	snprintf(path, sizeof(path), "%s/tests/data/bert/intel-adl-fw-error-record-prefix.bin",
		 getenv("top_srcdir") ?: ".");
	f = fopen(path, "rb");
	assert_non_null(f);
	b.len = fread(b.b, 1, sizeof(b.b), f);
	fclose(f);
	assert_int_equal(b.len, 0xa3);

	assert_int_equal(parse(&b, b.len, &g), -EBADMSG);
	/* The block says 0xcd0 bytes of data, 0xa3 - 20 are there: named at the length field. */
	assert_int_equal(g.n_problems, 2);
	assert_int_equal(g.problem_off[0], 12);
	assert_non_null(strstr(g.problem[0], "data length 3280 runs past the end"));
	/* The one entry's 0xa20 bytes do not fit either: named at its length field (0x14 + 24). */
	assert_int_equal(g.problem_off[1], 0x2c);
	assert_non_null(strstr(g.problem[1], "error data length 2592"));
	assert_int_equal(g.n_ras + g.n_mce, 0);
}

/* The same real bytes with the section cut to what is there: it is a vendor
 * section of a known name, kept with its raw bytes, fatal. */
static void test_real_intel_prefix_as_complete_region(void **state)
{
	char path[4096];
	FILE *f;
	struct buf b = {};
	struct got g = { .want_s = { "section_type", "section_name", "data" }, .want_u = { "length" } };

	(void) state;
	snprintf(path, sizeof(path), "%s/tests/data/bert/intel-adl-fw-error-record-prefix.bin",
		 getenv("top_srcdir") ?: ".");
	f = fopen(path, "rb");
	assert_non_null(f);
	b.len = fread(b.b, 1, sizeof(b.b), f);
	fclose(f);
	set(&b, 12, b.len - 20, 4);
	set(&b, 0x2c, b.len - 0x5c, 4);
	assert_int_equal(parse(&b, b.len, &g), 1);
	assert_int_equal(g.n_ras, 1);
	assert_int_equal(g.ras[0].event, RAS_EVENT_VENDOR_SECTION);
	assert_int_equal(g.ras[0].severity, RAS_SEV_FATAL);
	assert_false(g.ras[0].have_time);   /* validation bits say no timestamp */
	assert_string_equal(g.ras[0].s[0], "81212a96-09ed-4996-9471-8d729c8e69ed");
	assert_string_equal(g.ras[0].s[1], "firmware error record reference");
	assert_int_equal(g.ras[0].u[0], 0xa3 - 0x5c);
}

/* ---- constructed from UEFI spec Appendix N ---- */

/* IA32/X64 section with an AMD SMCA "MSR registers" context starting at bank 5's
 * MCA_STATUS (C000_2051): STATUS, ADDR, MISC0, CONFIG, IPID, SYND. */
static size_t add_x86_smca_section(struct buf *b, uint32_t bank, uint64_t status)
{
	size_t e = begin_entry(b, GUID_X86, 1, ts_2026);

	put(b, 1u | 2u | (1u << 2) | (1u << 8), 8);  /* APIC ID, CPUID valid; 1 error info; 1 context */
	put(b, 0x21, 8);                               /* local APIC ID */
	put(b, 0x00a20f12, 8);                         /* CPUID(1).EAX: family 19h model 21h */
	zeros(b, 40);
	/* error info: cache check, check info valid */
	put_guid(b, GUID_CACHE_CHECK);
	put(b, 1, 8);
	put(b, 0x0000000000000f11ULL, 8);
	zeros(b, 32);
	/* context: type 1 (MSR), 6 registers */
	put(b, 1, 2);
	put(b, 48, 2);
	put(b, 0xc0002001 + 0x10 * bank, 4);
	put(b, 0, 8);
	put(b, status, 8);                /* MCA_STATUS */
	put(b, 0x00000003bd2c8fc0ULL, 8); /* MCA_ADDR */
	put(b, 0xd01a0ffe00000000ULL, 8); /* MCA_MISC0 */
	put(b, 0x00000005000001ffULL, 8); /* MCA_CONFIG: not a record field */
	put(b, 0x0000009600050f00ULL, 8); /* MCA_IPID */
	put(b, 0x000000005a020001ULL, 8); /* MCA_SYND */
	end_entry(b, e);
	return e;
}

static void test_x86_smca_bank_becomes_mce_record(void **state)
{
	struct buf b = {};
	struct got g = {};
	size_t blk = begin_block(&b, 1);

	(void) state;
	add_x86_smca_section(&b, 5, 0xbc00000000000135ULL);
	end_block(&b, blk);

	assert_int_equal(parse(&b, b.len, &g), 1);
	assert_int_equal(g.n_problems, 0);
	assert_int_equal(g.n_ras, 0);
	assert_int_equal(g.n_mce, 1);
	const struct mce_record *r = &g.mce[0];
	assert_int_equal(r->source, MCE_SOURCE_PREVIOUS_BOOT);
	assert_true(mce_record_has(r, MCE_HAVE_BANK | MCE_HAVE_STATUS | MCE_HAVE_ADDR | MCE_HAVE_MISC |
				   MCE_HAVE_IPID | MCE_HAVE_SYND | MCE_HAVE_APICID | MCE_HAVE_CPUID |
				   MCE_HAVE_VENDOR | MCE_HAVE_TIME));
	assert_false(r->have & MCE_HAVE_CPU);     /* the section gives the APIC ID, not Linux's CPU number */
	assert_int_equal(r->bank, 5);
	assert_int_equal(r->vendor, MCE_VENDOR_AMD);
	assert_int_equal(r->status, 0xbc00000000000135ULL);
	assert_int_equal(r->addr, 0x00000003bd2c8fc0ULL);
	assert_int_equal(r->misc, 0xd01a0ffe00000000ULL);
	assert_int_equal(r->ipid, 0x0000009600050f00ULL);
	assert_int_equal(r->synd, 0x000000005a020001ULL);
	assert_int_equal(r->apicid, 0x21);
	assert_int_equal(r->family, 0x19);
	assert_int_equal(r->model, 0x21);
	assert_int_equal(r->time_usec, TS_2026_USEC);
}

/* Intel's IA32_MCi_* context covering banks 0..2 from MC0_CTL: only banks whose STATUS has VAL set count. */
static void test_x86_legacy_multi_bank_context(void **state)
{
	struct buf b = {};
	struct got g = {};
	size_t blk = begin_block(&b, 1), e;

	(void) state;
	e = begin_entry(&b, GUID_X86, 1, NULL);
	put(&b, 1u << 8, 8);  /* no APIC ID, no CPUID, 0 error info, 1 context */
	zeros(&b, 56);
	put(&b, 1, 2);
	put(&b, 12 * 8, 2);
	put(&b, 0x400, 4);
	put(&b, 0, 8);
	for (unsigned bank = 0; bank < 3; bank++) {
		put(&b, 0xff, 8);                                             /* CTL */
		put(&b, bank == 1 ? 0xfe00000000800400ULL : 0, 8);            /* STATUS */
		put(&b, bank == 1 ? 0x1234000 : 0, 8);                        /* ADDR */
		put(&b, bank == 1 ? 0x86 : 0, 8);                             /* MISC */
	}
	end_entry(&b, e);
	end_block(&b, blk);

	assert_int_equal(parse(&b, b.len, &g), 1);
	assert_int_equal(g.n_mce, 1);
	assert_int_equal(g.mce[0].bank, 1);
	assert_int_equal(g.mce[0].status, 0xfe00000000800400ULL);
	assert_int_equal(g.mce[0].addr, 0x1234000);
	assert_int_equal(g.mce[0].misc, 0x86);
	assert_false(g.mce[0].have & (MCE_HAVE_VENDOR | MCE_HAVE_TIME | MCE_HAVE_SYND | MCE_HAVE_IPID));
}

static void test_x86_without_mca_is_ras_record(void **state)
{
	struct buf b = {};
	struct got g = { .want_u = { "apicid", "check_info" }, .want_s = { "check_type" } };
	size_t blk = begin_block(&b, 0), e;

	(void) state;
	e = begin_entry(&b, GUID_X86, 0, NULL);
	put(&b, 1u | (1u << 2), 8);   /* APIC ID valid, 1 error info, no context */
	put(&b, 7, 8);
	zeros(&b, 48);
	put_guid(&b, GUID_CACHE_CHECK);
	put(&b, 1, 8);
	put(&b, 0x20017, 8);
	zeros(&b, 32);
	end_entry(&b, e);
	end_block(&b, blk);

	assert_int_equal(parse(&b, b.len, &g), 1);
	assert_int_equal(g.n_mce, 0);
	assert_int_equal(g.n_ras, 1);
	assert_int_equal(g.ras[0].event, RAS_EVENT_X86_PROCESSOR);
	assert_int_equal(g.ras[0].severity, RAS_SEV_UNCORRECTED);
	assert_int_equal(g.ras[0].u[0], 7);
	assert_int_equal(g.ras[0].u[1], 0x20017);
	assert_string_equal(g.ras[0].s[0], "cache");
}

static void test_memory_section(void **state)
{
	struct buf b = {};
	struct got g = {
		.want_u = { "physical_address", "node", "card", "module", "bank", "device", "row", "column" },
		.want_s = { "error_type", "fru_text", "section_name" },
	};
	size_t blk = begin_block(&b, 2), e;

	(void) state;
	e = begin_entry(&b, GUID_MEMORY, 2, ts_2026);
	/* error status, PA, node, card, module, bank, device, row, column, error type valid */
	put(&b, 1u | 2u | (0x7fu << 3) | (1u << 14), 8);
	put(&b, 0x400, 8);                    /* error status */
	put(&b, 0x000000b50c68ce80ULL, 8);    /* physical address */
	put(&b, 0, 8);
	put(&b, 1, 2);                        /* node */
	put(&b, 4, 2);                        /* card */
	put(&b, 0, 2);                        /* module */
	put(&b, 1, 2);                        /* bank */
	put(&b, 14, 2);                       /* device */
	put(&b, 58165, 2);                    /* row */
	put(&b, 816, 2);                      /* column */
	put(&b, 0, 2);
	zeros(&b, 24);
	put(&b, 2, 1);                        /* single-bit ECC */
	zeros(&b, 7);
	end_entry(&b, e);
	end_block(&b, blk);
	assert_int_equal(b.len, 20 + 72 + 80);

	assert_int_equal(parse(&b, b.len, &g), 1);
	assert_int_equal(g.n_ras, 1);
	assert_int_equal(g.ras[0].event, RAS_EVENT_FIRMWARE_MEMORY);
	assert_int_equal(g.ras[0].severity, RAS_SEV_CORRECTED);
	assert_true(g.ras[0].have_time);
	assert_int_equal(g.ras[0].time_usec, TS_2026_USEC);
	assert_int_equal(g.ras[0].u[0], 0x000000b50c68ce80ULL);
	assert_int_equal(g.ras[0].u[1], 1);
	assert_int_equal(g.ras[0].u[2], 4);
	assert_int_equal(g.ras[0].u[3], 0);
	assert_int_equal(g.ras[0].u[4], 1);
	assert_int_equal(g.ras[0].u[5], 14);
	assert_int_equal(g.ras[0].u[6], 58165);
	assert_int_equal(g.ras[0].u[7], 816);
	assert_string_equal(g.ras[0].s[0], "single-bit ECC");
	assert_string_equal(g.ras[0].s[1], "DIMM_B2");
	assert_string_equal(g.ras[0].s[2], "memory error");
	assert_non_null(strstr(g.ras[0].summary, "at 0xb50c68ce80"));
	/* fields the validation bits do not mark are absent, not zero */
	assert_null(strstr(g.ras[0].json_keys, "bit_position"));
	assert_null(strstr(g.ras[0].json_keys, "rank"));

	/* The BERT source asks "does the region hold records?" with an empty sink: a
	 * region of one memory section (firmware-first fatal memory errors) holds one. */
	assert_int_equal(cper_parse_error_region(b.b, b.len, MCE_SOURCE_PREVIOUS_BOOT, &(const struct cper_sink) {}), 1);
}

static void test_arm_section(void **state)
{
	struct buf b = {};
	struct got g = { .want_u = { "mpidr", "midr", "physical_fault_address", "pei_count", "ctx_count" },
			 .want_s = { "error_type", "context_types", "pei_decoded" } };
	size_t blk = begin_block(&b, 0), e;

	(void) state;
	e = begin_entry(&b, GUID_ARM, 0, NULL);
	put(&b, 1u | 2u | 4u, 4);     /* MPIDR, affinity, running state valid */
	put(&b, 1, 2);                /* one error info */
	put(&b, 1, 2);                /* one context */
	put(&b, 40 + 32 + 8 + 16, 4); /* section length */
	put(&b, 0, 1);
	zeros(&b, 3);
	put(&b, 0x81000100, 8);       /* MPIDR_EL1 */
	put(&b, 0x413fd0c1, 8);       /* MIDR_EL1 */
	put(&b, 1, 4);
	put(&b, 0, 4);
	/* error info: version 0, length 32, PA valid, type bus (bit 3: the type is a bitmap since UEFI 2.9A) */
	put(&b, 0, 1);
	put(&b, 32, 1);
	put(&b, 1u << 4, 2);
	put(&b, 1u << 3, 1);
	put(&b, 0, 2);
	put(&b, 0, 1);
	put(&b, 0, 8);
	put(&b, 0, 8);
	put(&b, 0x80002000, 8);
	/* context: version, type 4 (AArch64 GPRs), 16 bytes */
	put(&b, 0, 2);
	put(&b, 4, 2);
	put(&b, 16, 4);
	zeros(&b, 16);
	end_entry(&b, e);
	end_block(&b, blk);

	assert_int_equal(parse(&b, b.len, &g), 1);
	assert_int_equal(g.n_ras, 1);
	assert_int_equal(g.ras[0].event, RAS_EVENT_ARM_PROCESSOR);
	assert_int_equal(g.ras[0].u[0], 0x81000100);
	assert_int_equal(g.ras[0].u[1], 0x413fd0c1);
	assert_int_equal(g.ras[0].u[2], 0x80002000);
	assert_int_equal(g.ras[0].u[3], 1);
	assert_int_equal(g.ras[0].u[4], 1);
	assert_string_equal(g.ras[0].s[0], "bus");
	assert_string_equal(g.ras[0].s[1], "AArch64 general purpose registers");
	assert_string_equal(g.ras[0].s[2], "bus PA 0x80002000");
	assert_string_equal(g.ras[0].summary, "ARM bus error (uncorrected) reported by firmware");
	assert_non_null(strstr(g.ras[0].json_keys, ",pei,"));
	assert_non_null(strstr(g.ras[0].json_keys, ",ctx,"));
}

/*
 * An Ampere Altra vendor section in a boot error region: the bytes of [ALTRA]
 * (Aristeu Rozanski, linux-kernel, 2 Mar 2023,
 * https://lore.kernel.org/all/20230302201732.pwnhg46mum6st2bv@redhat.com/),
 * decoded, and the raw data still there.  Then the same section cut short:
 * its problem named where it lies, the record delivered.
 */
#define GUID_AMPERE 0xe8ed898d, 0xdf16, 0x43cc, (const uint8_t[]) { 0x8e, 0xcc, 0x54, 0xf0, 0x60, 0xef, 0x15, 0x7f }

static void test_ampere_section(void **state)
{
	static const uint32_t words[12] = { 0x40000005, 0xec30000e, 0x00080110, 0x80005001, 0x00000300 };
	struct buf b = {};
	struct got g = { .want_u = { "err_status", "err_addr", "socket", "length" },
			 .want_s = { "section_name", "error_source", "err_status_serr" } };
	size_t blk = begin_block(&b, 0), e, data;

	(void) state;
	e = begin_entry(&b, GUID_AMPERE, 0, NULL);
	for (size_t i = 0; i < 12; i++)
		put(&b, words[i], 4);
	end_entry(&b, e);
	e = begin_entry(&b, GUID_AMPERE, 0, NULL);
	data = b.len;
	put(&b, words[0], 4);
	put(&b, words[1], 4);
	end_entry(&b, e);
	end_block(&b, blk);

	assert_int_equal(parse(&b, b.len, &g), -EBADMSG);
	assert_int_equal(g.n_ras, 2);
	assert_int_equal(g.ras[0].event, RAS_EVENT_VENDOR_SECTION);
	assert_int_equal(g.ras[0].u[0], 0xec30000e);
	assert_int_equal(g.ras[0].u[1], 0x8000500100080110ULL);
	assert_int_equal(g.ras[0].u[2], 1);
	assert_int_equal(g.ras[0].u[3], 48);
	assert_string_equal(g.ras[0].s[0], "Ampere RAS error");
	assert_string_equal(g.ras[0].s[1], "GIC");
	assert_string_equal(g.ras[0].s[2], "illegal access (software fault)");
	assert_string_equal(g.ras[0].summary, "Ampere GIC error, socket 1, instance 0: illegal access (software fault) "
			    "(uncorrected) reported by firmware");
	assert_non_null(strstr(g.ras[0].json_keys, ",data,"));
	assert_int_equal(g.n_problems, 1);
	assert_int_equal(g.problem_off[0], data + 4);
	assert_string_equal(g.problem[0], "Ampere section: payload type 0 needs 48 bytes, "
			    "the section has 8");
	assert_int_equal(g.ras[1].u[3], 8);
}

static void test_pcie_section(void **state)
{
	struct buf b = {};
	struct got g = { .want_u = { "vendor_id", "device_id", "uncorrectable_status" },
			 .want_s = { "dev_name", "port_type" } };
	size_t blk = begin_block(&b, 0), e;

	(void) state;
	e = begin_entry(&b, GUID_PCIE, 0, NULL);
	put(&b, 1u | (1u << 3) | (1u << 7), 8);   /* port type, device id, AER info valid */
	put(&b, 4, 4);                             /* root port */
	zeros(&b, 12);
	put(&b, 0x8086, 2);                        /* vendor */
	put(&b, 0x1234, 2);                        /* device */
	put(&b, 0x060400, 3);                      /* class code */
	put(&b, 2, 1);                             /* function */
	put(&b, 0x1c, 1);                          /* device */
	put(&b, 1, 2);                             /* segment */
	put(&b, 0x3a, 1);                          /* bus */
	put(&b, 0, 1);
	put(&b, 0, 2);
	put(&b, 0, 1);
	zeros(&b, 8 + 4 + 60);
	put(&b, 0x00010001, 4);                    /* AER capability header */
	put(&b, 0x00004000, 4);                    /* uncorrectable status: completion timeout */
	zeros(&b, 88);
	end_entry(&b, e);
	end_block(&b, blk);
	assert_int_equal(b.len, 20 + 72 + 208);

	assert_int_equal(parse(&b, b.len, &g), 1);
	assert_int_equal(g.ras[0].event, RAS_EVENT_PCIE_AER);
	assert_int_equal(g.ras[0].u[0], 0x8086);
	assert_int_equal(g.ras[0].u[1], 0x1234);
	assert_int_equal(g.ras[0].u[2], 0x4000);
	assert_string_equal(g.ras[0].s[0], "0001:3a:1c.2");
	assert_string_equal(g.ras[0].s[1], "root port");
}

static void test_processor_generic_and_vendor_and_two_blocks(void **state)
{
	struct buf b = {};
	struct got g = { .want_u = { "level", "length" }, .want_s = { "error_type", "operation", "data" } };
	size_t blk = begin_block(&b, 1), e;

	(void) state;
	e = begin_entry(&b, GUID_PROC_GENERIC, 1, NULL);
	put(&b, (1u << 0) | (1u << 2) | (1u << 3) | (1u << 5), 8);
	put(&b, 0, 1);   /* IA32/X64 */
	put(&b, 0, 1);
	put(&b, 1, 1);   /* cache */
	put(&b, 2, 1);   /* data write */
	put(&b, 0, 1);
	put(&b, 2, 1);   /* level 2 */
	zeros(&b, 192 - 14);
	end_entry(&b, e);
	e = begin_entry(&b, GUID_VENDOR, 2, NULL);
	put(&b, 0xefbeadde, 4);
	end_entry(&b, e);
	end_block(&b, blk);
	/* a second block after the first */
	blk = begin_block(&b, 2);
	e = begin_entry(&b, GUID_VENDOR, 2, NULL);
	put(&b, 0x01, 1);
	end_entry(&b, e);
	end_block(&b, blk);
	/* and the empty block that ends the list, then garbage that must not be read */
	zeros(&b, 20);
	put(&b, 0xffffffffffffffffULL, 8);

	assert_int_equal(parse(&b, b.len, &g), 3);
	assert_int_equal(g.n_ras, 3);
	assert_int_equal(g.ras[0].event, RAS_EVENT_X86_PROCESSOR);
	assert_string_equal(g.ras[0].s[0], "cache");
	assert_string_equal(g.ras[0].s[1], "data write");
	assert_int_equal(g.ras[0].u[0], 2);
	assert_int_equal(g.ras[1].event, RAS_EVENT_VENDOR_SECTION);
	assert_int_equal(g.ras[1].u[1], 4);
	assert_int_equal(g.ras[2].event, RAS_EVENT_VENDOR_SECTION);
	assert_int_equal(g.ras[2].severity, RAS_SEV_CORRECTED);
}

/* ---- hostile and truncated ---- */

/* Every prefix of a good region: no crash (ASan), every problem inside the buffer,
 * and the sections wholly inside the prefix still delivered. */
static void test_every_truncation(void **state)
{
	struct buf b = {};
	size_t blk = begin_block(&b, 1), e, first_end;

	(void) state;
	e = begin_entry(&b, GUID_VENDOR, 1, NULL);
	put(&b, 0x11223344, 4);
	end_entry(&b, e);
	first_end = b.len;
	add_x86_smca_section(&b, 3, 0xbc00000000000135ULL);
	end_block(&b, blk);

	for (size_t len = 0; len <= b.len; len++) {
		struct buf c = {};
		struct got g = {};
		int r;

		memcpy(c.b, b.b, len);
		r = parse(&c, len, &g);
		for (unsigned i = 0; i < g.n_problems; i++)
			assert_true(g.problem_off[i] < len);
		if (len == b.len) {
			assert_int_equal(r, 2);
		} else if (len >= 20) {
			assert_int_equal(r, -EBADMSG);
			assert_int_equal(g.n_ras, len >= first_end ? 1u : 0u);
			assert_int_equal(g.n_mce, 0);
		} else
			assert_int_equal(r, 0);   /* not even a header: nothing there */
	}
}

static void test_hostile_counts_and_lengths(void **state)
{
	struct buf b = {};
	struct got g = {};
	size_t blk = begin_block(&b, 1), e, ctx;

	(void) state;
	/* x86 section claiming 63 error infos and 63 contexts in 64 + 64 bytes */
	e = begin_entry(&b, GUID_X86, 1, NULL);
	put(&b, (63u << 2) | (63u << 8), 8);
	zeros(&b, 56 + 64);
	end_entry(&b, e);
	/* x86 section whose context array size runs past the section */
	e = begin_entry(&b, GUID_X86, 1, NULL);
	put(&b, 1u << 8, 8);
	zeros(&b, 56);
	ctx = b.len;
	put(&b, 1, 2);
	put(&b, 0xfff8, 2);
	put(&b, 0xc0002001, 4);
	zeros(&b, 8 + 16);
	end_entry(&b, e);
	/* memory section shorter than its layout */
	e = begin_entry(&b, GUID_MEMORY, 1, NULL);
	zeros(&b, 10);
	end_entry(&b, e);
	/* ARM section with 0xffff error infos */
	e = begin_entry(&b, GUID_ARM, 1, NULL);
	put(&b, 0, 4);
	put(&b, 0xffff, 2);
	put(&b, 0xffff, 2);
	zeros(&b, 32);
	end_entry(&b, e);
	/* an entry whose length is 0xffffffff: ends the walk */
	e = begin_entry(&b, GUID_VENDOR, 1, NULL);
	set(&b, e + 24, 0xffffffff, 4);
	end_block(&b, blk);

	assert_int_equal(parse(&b, b.len, &g), -EBADMSG);
	/* all four earlier sections are still delivered, as what could be read of them */
	assert_int_equal(g.n_ras, 4);
	assert_int_equal(g.n_mce, 0);
	assert_int_equal(g.n_problems, 5);
	assert_non_null(strstr(g.problem[0], "63 error information structures"));
	assert_int_equal(g.problem_off[1], ctx + 2);
	assert_non_null(strstr(g.problem[1], "register array of 65528 bytes"));
	assert_non_null(strstr(g.problem[2], "shorter than its"));
	assert_non_null(strstr(g.problem[3], "ARM section: error information count 65535 needs 2097120 bytes, the block has 0"));
	assert_int_equal(g.problem_off[4], e + 24);
	assert_non_null(strstr(g.problem[4], "error data length 4294967295"));
	assert_int_equal(g.ras[2].event, RAS_EVENT_VENDOR_SECTION);  /* the short memory section, raw */
}

static void test_raw_data_outside_and_bad_timestamp(void **state)
{
	struct buf b = {};
	struct got g = {};
	static const uint8_t bad_ts[8] = { 0x61, 0x00, 0x10, 0x00, 0x20, 0x11, 0x26, 0x20 };
	size_t blk = begin_block(&b, 1), e;

	(void) state;
	e = begin_entry(&b, GUID_VENDOR, 1, bad_ts);
	put(&b, 0, 4);
	end_entry(&b, e);
	end_block(&b, blk);
	set(&b, blk + 4, 0xfffffff0, 4);   /* raw data offset */
	set(&b, blk + 8, 0x100, 4);        /* raw data length */

	assert_int_equal(parse(&b, b.len, &g), -EBADMSG);
	assert_int_equal(g.n_ras, 1);
	assert_false(g.ras[0].have_time);
	assert_int_equal(g.n_problems, 2);
	assert_int_equal(g.problem_off[0], e + 64);
	assert_non_null(strstr(g.problem[0], "timestamp"));
	assert_int_equal(g.problem_off[1], 4);
	assert_non_null(strstr(g.problem[1], "raw data"));
}

static void test_section_limit(void **state)
{
	static struct buf b;
	struct got g = {};
	const struct cper_sink sink = { .problem = on_problem, .userdata = &g };
	size_t blk;

	(void) state;
	b.len = 0;
	blk = begin_block(&b, 1);
	/* revision 0x200 headers (64 bytes, no timestamp), empty sections */
	for (unsigned i = 0; i < CPER_MAX_SECTIONS + 5; i++) {
		put_guid(&b, GUID_VENDOR);
		put(&b, 1, 4);
		put(&b, 0x200, 2);
		zeros(&b, 64 - 22);
	}
	end_block(&b, blk);
	assert_int_equal(cper_parse_error_region(b.b, b.len, MCE_SOURCE_PREVIOUS_BOOT, &sink), -EBADMSG);
	assert_int_equal(g.n_problems, 1);
	assert_non_null(strstr(g.problem[0], "more than 256 sections"));
}

static void test_timestamp(void **state)
{
	int64_t usec;
	bool precise;
	static const uint8_t leap[8] = { 0x59, 0x59, 0x23, 0x00, 0x29, 0x02, 0x24, 0x20 };
	static const uint8_t feb30[8] = { 0x00, 0x00, 0x00, 0x00, 0x30, 0x02, 0x24, 0x20 };

	(void) state;
	assert_int_equal(cper_timestamp_to_usec(ts_2026, &usec, &precise), 0);
	assert_int_equal(usec, TS_2026_USEC);
	assert_true(precise);
	assert_int_equal(cper_timestamp_to_usec(leap, &usec, &precise), 0);
	assert_int_equal(usec, 1709251199000000LL);   /* 2024-02-29T23:59:59Z */
	assert_false(precise);
	assert_int_equal(cper_timestamp_to_usec(feb30, &usec, NULL), -EINVAL);
	assert_int_equal(cper_timestamp_to_usec((const uint8_t[8]) {}, &usec, NULL), -EINVAL);
}

static void test_digest(void **state)
{
	(void) state;
	assert_int_equal(cper_region_digest("", 0), 0xcbf29ce484222325ULL);
	assert_int_equal(cper_region_digest("a", 1), 0xaf63dc4c8601ec8cULL);   /* FNV-1a 64 test vector */
	assert_true(cper_region_digest("ab", 2) != cper_region_digest("ba", 2));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_real_intel_prefix),
		cmocka_unit_test(test_real_intel_prefix_as_complete_region),
		cmocka_unit_test(test_x86_smca_bank_becomes_mce_record),
		cmocka_unit_test(test_x86_legacy_multi_bank_context),
		cmocka_unit_test(test_x86_without_mca_is_ras_record),
		cmocka_unit_test(test_memory_section),
		cmocka_unit_test(test_arm_section),
		cmocka_unit_test(test_ampere_section),
		cmocka_unit_test(test_pcie_section),
		cmocka_unit_test(test_processor_generic_and_vendor_and_two_blocks),
		cmocka_unit_test(test_every_truncation),
		cmocka_unit_test(test_hostile_counts_and_lengths),
		cmocka_unit_test(test_raw_data_outside_and_bad_timestamp),
		cmocka_unit_test(test_section_limit),
		cmocka_unit_test(test_timestamp),
		cmocka_unit_test(test_digest),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
