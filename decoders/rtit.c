/* SPDX-License-Identifier: MIT */
/*
 * Decode of the Intel PT MSRs.  Every field position below follows the SDM
 * Vol. 3C chapter "Intel Processor Trace" (see rtit.h for the exact tables).
 */
#include <inttypes.h>
#include <stdio.h>

#include "json-writer.h"
#include "macro.h"
#include "rtit.h"

/* SDM Vol. 4, architectural MSRs: 0x560/0x561 output, 0x570..0x572 control,
 * 0x580 + 2n / 0x581 + 2n the address range n. */
const struct rtit_msr_info rtit_msrs[_RTIT_MSR_MAX] = {
	[RTIT_OUTPUT_BASE]      = { 0x560, "IA32_RTIT_OUTPUT_BASE" },
	[RTIT_OUTPUT_MASK_PTRS] = { 0x561, "IA32_RTIT_OUTPUT_MASK_PTRS" },
	[RTIT_CTL]              = { 0x570, "IA32_RTIT_CTL" },
	[RTIT_STATUS]           = { 0x571, "IA32_RTIT_STATUS" },
	[RTIT_CR3_MATCH]        = { 0x572, "IA32_RTIT_CR3_MATCH" },
	[RTIT_ADDR0_A]          = { 0x580, "IA32_RTIT_ADDR0_A" },
	[RTIT_ADDR0_B]          = { 0x581, "IA32_RTIT_ADDR0_B" },
	[RTIT_ADDR1_A]          = { 0x582, "IA32_RTIT_ADDR1_A" },
	[RTIT_ADDR1_B]          = { 0x583, "IA32_RTIT_ADDR1_B" },
	[RTIT_ADDR2_A]          = { 0x584, "IA32_RTIT_ADDR2_A" },
	[RTIT_ADDR2_B]          = { 0x585, "IA32_RTIT_ADDR2_B" },
	[RTIT_ADDR3_A]          = { 0x586, "IA32_RTIT_ADDR3_A" },
	[RTIT_ADDR3_B]          = { 0x587, "IA32_RTIT_ADDR3_B" },
};

struct rtit_bit {
	const char *key;
	unsigned bit;
	bool inverted;              /* the bit disables what the key names */
};

/* IA32_RTIT_CTL bits that enable packets (SDM table "IA32_RTIT_CTL MSR"). */
static const struct rtit_bit ctl_packets[] = {
	{ .key = "branch",       .bit = 13 },             /* BranchEn: COFI packets */
	{ .key = "tsc",          .bit = 10 },             /* TSCEn */
	{ .key = "mtc",          .bit = 9 },              /* MTCEn */
	{ .key = "cyc",          .bit = 1 },              /* CYCEn */
	{ .key = "ptwrite",      .bit = 12 },             /* PTWEn */
	{ .key = "fup_on_ptw",   .bit = 5 },              /* FUPonPTW */
	{ .key = "power_events", .bit = 4 },              /* PwrEvtEn */
	{ .key = "ret_compression", .bit = 11, .inverted = true },  /* DisRETC */
};

/* IA32_RTIT_CTL filter bits. */
static const struct rtit_bit ctl_filters[] = {
	{ .key = "os",   .bit = 2 },                      /* OS: trace CPL 0 */
	{ .key = "user", .bit = 3 },                      /* User: trace CPL > 0 */
	{ .key = "cr3",  .bit = 7 },                      /* CR3Filter */
};

/* IA32_RTIT_STATUS (SDM table "IA32_RTIT_STATUS MSR"). */
static const struct rtit_bit status_bits[] = {
	{ .key = "filter_en",  .bit = 0 },
	{ .key = "context_en", .bit = 1 },
	{ .key = "trigger_en", .bit = 2 },
	{ .key = "error",      .bit = 4 },
	{ .key = "stopped",    .bit = 5 },
};

struct rtit_field {
	const char *key;
	unsigned lo, width;
};

/* IA32_RTIT_CTL multi-bit fields: raw encodings. */
static const struct rtit_field ctl_fields[] = {
	{ .key = "mtc_freq",   .lo = 14, .width = 4 },    /* MTCFreq, bits 17:14 */
	{ .key = "cyc_thresh", .lo = 19, .width = 4 },    /* CYCThresh, bits 22:19 */
	{ .key = "psb_freq",   .lo = 24, .width = 4 },    /* PSBFreq, bits 27:24 */
};

#define CTL_TRACE_EN   0
#define CTL_FABRIC_EN  6
#define CTL_TOPA       8
#define CTL_ADDR_CFG_LO 32   /* ADDRn_CFG: bits 35:32, 39:36, 43:40, 47:44 */
#define STATUS_PKT_CNT_LO 32 /* PacketByteCnt: bits 48:32 */
#define STATUS_PKT_CNT_WIDTH 17

/* ADDRn_CFG encodings. */
static const char *const addr_cfg_names[16] = {
	[0] = "unused",
	[1] = "filter",       /* FilterEn is set while the IP is in [A, B] */
	[2] = "trace-stop",   /* TraceStop when the IP enters [A, B] */
};

static uint64_t field(uint64_t v, unsigned lo, unsigned width)
{
	return (v >> lo) & ((UINT64_C(1) << width) - 1);
}

static bool bit(uint64_t v, unsigned n)
{
	return (v >> n) & 1;
}

static bool have(const struct rtit_regs *r, enum rtit_msr m)
{
	return r->have & (1u << m);
}

static void put_bits(struct json_writer *w, const struct rtit_bit *t, size_t n, uint64_t v)
{
	for (size_t i = 0; i < n; i++)
		json_put_bool(w, t[i].key, bit(v, t[i].bit) != t[i].inverted);
}

/* Canonical sign extension of a 48-bit linear address (ADDRn_A/B hold one). */
static uint64_t canonical48(uint64_t v)
{
	return (uint64_t) ((int64_t) (v << 16) >> 16);
}

static void put_msrs(const struct rtit_regs *r, struct json_writer *w)
{
	json_object_begin(w, "msrs");
	for (size_t m = 0; m < _RTIT_MSR_MAX; m++)
		if (have(r, m))
			json_put_hex64(w, rtit_msrs[m].name, r->v[m]);
	json_object_end(w);
}

static void put_addr_ranges(const struct rtit_regs *r, struct json_writer *w, uint64_t ctl)
{
	unsigned n = r->n_addr_ranges < RTIT_ADDR_RANGES_MAX ? r->n_addr_ranges : RTIT_ADDR_RANGES_MAX;

	json_array_begin(w, "address_ranges");
	for (unsigned i = 0; i < n; i++) {
		unsigned cfg = field(ctl, CTL_ADDR_CFG_LO + 4 * i, 4);
		enum rtit_msr a = RTIT_ADDR0_A + 2 * i, b = RTIT_ADDR0_B + 2 * i;

		json_object_begin(w, NULL);
		json_put_u64(w, "n", i);
		json_put_string(w, "mode", addr_cfg_names[cfg] ?: "reserved");
		json_put_u64(w, "cfg", cfg);
		if (cfg != 0 && have(r, a) && have(r, b)) {
			json_put_hex64(w, "start", canonical48(r->v[a]));
			json_put_hex64(w, "end", canonical48(r->v[b]));
		}
		json_object_end(w);
	}
	json_array_end(w);
}

static void put_output(const struct rtit_regs *r, struct json_writer *w, uint64_t ctl)
{
	bool topa = bit(ctl, CTL_TOPA);

	json_object_begin(w, "output");
	json_put_string(w, "scheme", bit(ctl, CTL_FABRIC_EN) ? "trace-transport" :
			topa ? "topa" : "single-range");
	if (have(r, RTIT_OUTPUT_BASE))
		/* bits 6:0 reserved: the base is at least 128-byte aligned */
		json_put_hex64(w, topa ? "topa_table" : "base", r->v[RTIT_OUTPUT_BASE] & ~UINT64_C(0x7f));
	if (have(r, RTIT_OUTPUT_MASK_PTRS)) {
		uint64_t mp = r->v[RTIT_OUTPUT_MASK_PTRS];
		uint64_t mask_or_off = field(mp, 7, 25);   /* MaskOrTableOffset, bits 31:7 */
		uint64_t out_off = field(mp, 32, 32);      /* Output Offset, bits 63:32 */

		if (topa) {
			/* in ToPA mode bits 31:7 are bits 27:3 of the offset of the current
			 * 8-byte table entry: the field is the entry's index */
			json_put_u64(w, "topa_entry", mask_or_off);
		} else {
			/* in single-range mode bits 31:0 are the region's size - 1 */
			json_put_u64(w, "region_bytes", ((mask_or_off << 7) | 0x7f) + 1);
		}
		json_put_u64(w, "output_offset", out_off);
	}
	json_object_end(w);
}

void rtit_decode_json(const struct rtit_regs *r, struct json_writer *w)
{
	put_msrs(r, w);
	if (!have(r, RTIT_CTL)) {
		json_put_string(w, "ctl", "not read");
	} else {
		uint64_t ctl = r->v[RTIT_CTL];

		json_put_bool(w, "trace_enabled", bit(ctl, CTL_TRACE_EN));
		json_object_begin(w, "packets");
		put_bits(w, ctl_packets, ELEMENTSOF(ctl_packets), ctl);
		json_object_end(w);
		for (size_t i = 0; i < ELEMENTSOF(ctl_fields); i++)
			json_put_u64(w, ctl_fields[i].key, field(ctl, ctl_fields[i].lo, ctl_fields[i].width));
		/* PSBFreq n: a PSB every 2^(n + 11) output bytes; CYCThresh n > 0: 2^(n - 1) cycles */
		json_put_u64(w, "psb_period_bytes", UINT64_C(1) << (field(ctl, 24, 4) + 11));

		json_object_begin(w, "filters");
		put_bits(w, ctl_filters, ELEMENTSOF(ctl_filters), ctl);
		if (bit(ctl, 7) && have(r, RTIT_CR3_MATCH))
			/* bits 4:0 reserved; 63:5 compared against CR3 */
			json_put_hex64(w, "cr3_match", r->v[RTIT_CR3_MATCH] & ~UINT64_C(0x1f));
		put_addr_ranges(r, w, ctl);
		json_object_end(w);

		put_output(r, w, ctl);
	}
	if (!have(r, RTIT_STATUS)) {
		json_put_string(w, "status", "not read");
	} else {
		uint64_t st = r->v[RTIT_STATUS];

		json_object_begin(w, "status");
		put_bits(w, status_bits, ELEMENTSOF(status_bits), st);
		json_put_u64(w, "packet_byte_count", field(st, STATUS_PKT_CNT_LO, STATUS_PKT_CNT_WIDTH));
		json_object_end(w);
	}
}
