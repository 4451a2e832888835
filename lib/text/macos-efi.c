/* SPDX-License-Identifier: MIT */
/*
 * The "MCA Error Report" that Macs of about 2015 put at the top of a panic
 * report, above XNU's own dump ("*** Panic Report ***", macos-mca.c):
 *
 *   *** MCA Error Report ***
 *   CPU Machine Check Architecture Error Dump (CPU: Intel(R) Core(TM) i7-5557U CPU @ 3.10GHz, CPUID: 0x306D4)
 *   Core: 0
 *     IA32_MC3_STATUS=0xBE00000000800400
 *     IA32_MC3_CTL=0x0
 *     IA32_MC3_ADDR=0xFFFFFFFF8134FFFD
 *     IA32_MC3_MISC=0xFFFFFFFF8134FFFD
 *
 * a head naming the CPU (brand string, CPUID(1).EAX), then a block per
 * logged bank: "Core: N" and the bank's STATUS, CTL, ADDR and MISC.  We know
 * it from one real report (docker/for-mac#1068); no document describes it,
 * so what is read is only what the lines say of themselves:
 *
 * - each block is one record: the head's vendor and CPU identity, the
 *   bank and its STATUS;
 * - ADDR and MISC are printed whether or not STATUS says they are valid,
 *   so they are kept only under STATUS's ADDRV (bit 58) and MISCV (bit 59)
 *   (Intel SDM Vol. 3B, 16.3.2.2, IA32_MCi_STATUS);
 * - CTL is the bank's enable mask, not part of the error: checked, not kept;
 * - "Core: N" is not our cpu (a logical CPU number): the one report says
 *   "Core: 0" for every block while XNU's dump under it names processor 2.
 *   Records of this form have no cpu.
 *
 * A register line of another bank than its block's STATUS, a register
 * twice, or one before its block's STATUS is an error.
 */
#include <stdarg.h>
#include <stdio.h>

#include "forms.h"

enum efi_line {
	HEAD = 1,         /* CPU Machine Check Architecture Error Dump (CPU: ..., CPUID: 0x...) */
	CORE,             /* Core: N */
	REGISTER,         /* IA32_MC<i>_<STATUS|CTL|ADDR|MISC>=0x... */
};

enum efi_reg {
	REG_STATUS,
	REG_CTL,
	REG_ADDR,
	REG_MISC,
	REG_COUNT,
};

static const struct {
	const char *name;
	uint32_t have;        /* the record field it fills; 0: none */
	uint64_t valid_bit;   /* STATUS's bit that makes it meaningful */
} regs[REG_COUNT] = {
	[REG_STATUS] = { .name = "STATUS", .have = MCE_HAVE_STATUS },
	[REG_CTL]    = { .name = "CTL" },
	[REG_ADDR]   = { .name = "ADDR",   .have = MCE_HAVE_ADDR, .valid_bit = TEXT_STATUS_ADDRV },
	[REG_MISC]   = { .name = "MISC",   .have = MCE_HAVE_MISC, .valid_bit = TEXT_STATUS_MISCV },
};

/* IA32_MC0..IA32_MC31 (SDM Vol. 4, table 2-2: the block at 400H-47FH). */
#define MAX_BANKS 32u

#define HEAD_TEXT "CPU Machine Check Architecture Error Dump ("

/* The registers read in the current block, as bits 1 << enum efi_reg. */
#define SEEN_SHIFT 8u

static bool in_dump(const struct mce_text_parser *p)
{
	return p->open == OPEN_MACOS_EFI;
}

/* "IA32_MC<i>_<REG>=": the register, its bank in *bank; -1 if the line is not one. */
static int register_of(struct span s, struct span *value, uint64_t *bank)
{
	const char *digits;

	if (!span_eat(&s, "IA32_MC"))
		return -1;
	digits = s.p;
	*bank = 0;
	while (s.p < s.end && is_digit(*s.p) && s.p - digits < 3)
		*bank = *bank * 10 + (uint64_t) (*s.p++ - '0');
	if (s.p == digits || !span_eat(&s, "_"))
		return -1;
	for (int r = 0; r < REG_COUNT; r++) {
		struct span t = s;

		if (span_eat_n(&t, regs[r].name, strlen(regs[r].name)) && span_eat(&t, "=")) {
			*value = t;
			return r;
		}
	}
	return -1;
}

unsigned text_macos_efi_recognise(const struct mce_text_parser *p, const struct text_line *l,
				  struct span *body)
{
	struct span s = l->msg, v;
	uint64_t bank;

	switch (s.p[0]) {
	case 'C':
		if (span_starts(s, HEAD_TEXT))
			return *body = s, HEAD;
		/* "Core: N" alone would be anybody's: only in a dump */
		if (in_dump(p) && span_starts(s, "Core:"))
			return *body = s, CORE;
		return 0;
	case 'I':
		return register_of(s, &v, &bank) >= 0 ? (*body = s, REGISTER) : 0;
	default:
		return 0;
	}
}

/* The block read last, if its record is still to be handed out. */
static int emit_pending(struct mce_text_parser *p)
{
	struct mce_record r = p->rec;
	unsigned now = p->line;
	int k;

	p->step &= ~(((1u << REG_COUNT) - 1) << SEEN_SHIFT);
	if (!(p->rec.have & MCE_HAVE_STATUS))
		return 0;
	p->line = p->last;
	k = text_emit_part(p, &r);
	p->line = now;
	p->rec.have &= ~(MCE_HAVE_BANK | MCE_HAVE_STATUS | MCE_HAVE_ADDR | MCE_HAVE_MISC);
	p->rec.bank = 0;
	p->rec.status = p->rec.addr = p->rec.misc = 0;
	return k;
}

static int begin_dump(struct mce_text_parser *p, const struct text_line *l, const struct mce_record *r)
{
	int k = text_begin_with(p, OPEN_MACOS_EFI, l->have_time, l->time_usec, r);

	p->step = 0;
	p->macos_report = true;    /* the report's text follows (macos-mca.c) */
	return k;
}

/* "CPU Machine Check Architecture Error Dump (CPU: <brand>, CPUID: 0x<eax>)" */
static int parse_head(struct mce_text_parser *p, const struct text_line *l, struct span s)
{
	struct mce_record r = { 0 };
	const char *cpuid;
	uint64_t eax;
	char buf[48];

	s.p += strlen(HEAD_TEXT);
	if (!span_eat(&s, "CPU: ") || s.p == s.end || s.end[-1] != ')' ||
	    !(cpuid = span_find(s, ", CPUID: ")))
		return text_reject_with(p, "MCA error dump: expected '(CPU: <name>, CPUID: 0x...)', got '%s'",
			                span_show(s, buf, sizeof(buf)));
	/* the brand string names its maker; the dump has no vendor string */
	if (span_find_n((struct span) { s.p, cpuid }, "Intel", 5))
		r.vendor = MCE_VENDOR_INTEL, r.have |= MCE_HAVE_VENDOR;
	else if (span_find_n((struct span) { s.p, cpuid }, "AMD", 3))
		r.vendor = MCE_VENDOR_AMD, r.have |= MCE_HAVE_VENDOR;
	s = (struct span) { cpuid + strlen(", CPUID: "), s.end - 1 };
	if (text_hex_0x(p, "CPUID", s, UINT32_MAX, &eax) != KV_OK) {
		text_reject(p);
		return 0;
	}
	mce_record_set_cpuid(&r, (uint32_t) eax);
	return begin_dump(p, l, &r);
}

/* "Core: N": a block begins, and the one above is done. */
static int parse_core(struct mce_text_parser *p, struct span s)
{
	uint64_t core;
	int k;

	s.p += strlen("Core:");
	span_skip_space(&s);
	if (text_num(p, "Core", s, 10, UINT32_MAX, &core) != KV_OK) {
		text_reject(p);
		return 0;
	}
	if ((k = emit_pending(p)) < 0)
		return k;
	p->step = CORE;
	p->last = p->line;
	return 0;
}

static int parse_register(struct mce_text_parser *p, const struct text_line *l, struct span s)
{
	struct span v;
	uint64_t bank, value;
	int reg = register_of(s, &v, &bank), k;
	uint32_t seen;
	char key[32];

	snprintf(key, sizeof(key), "IA32_MC%llu_%s", (unsigned long long) bank, regs[reg].name);
	if (bank >= MAX_BANKS)
		return text_reject_with(p, "%s: bank %llu out of range: the IA32_MCi MSRs hold %u banks", key,
			                (unsigned long long) bank, MAX_BANKS);
	if (text_hex_0x(p, key, v, UINT64_MAX, &value) != KV_OK) {
		text_reject(p);
		return 0;
	}
	if (!in_dump(p) && (k = begin_dump(p, l, &(struct mce_record) { 0 })) < 0)
		return k;
	seen = (p->step >> SEEN_SHIFT) & ((1u << REG_COUNT) - 1);
	if (reg == REG_STATUS) {
		if (seen && (k = emit_pending(p)) < 0)   /* a block without its "Core:" line */
			return k;
		p->rec.bank = (uint32_t) bank;
		p->rec.status = value;
		p->rec.have |= MCE_HAVE_BANK | MCE_HAVE_STATUS;
		p->emitted = false;
	} else {
		if (!(seen & (1u << REG_STATUS)))
			return text_reject_with(p, "%s: expected IA32_MC%llu_STATUS before it", key,
				                (unsigned long long) bank);
		if (p->rec.bank != bank)
			return text_reject_with(p, "%s: expected a register of bank %u, whose STATUS is above it",
				                key, p->rec.bank);
		if (seen & (1u << reg))
			return text_reject_with(p, "%s: bank %u's %s again", key, p->rec.bank, regs[reg].name);
		if (p->rec.status & regs[reg].valid_bit) {
			*(reg == REG_ADDR ? &p->rec.addr : &p->rec.misc) = value;
			p->rec.have |= regs[reg].have;
		}
	}
	p->step |= (1u << reg) << SEEN_SHIFT;
	p->last = p->line;
	return 0;
}

int text_macos_efi_parse(struct mce_text_parser *p, const struct text_line *l, unsigned kind,
			 struct span body)
{
	switch (kind) {
	case HEAD:
		return parse_head(p, l, body);
	case CORE:
		return parse_core(p, body);
	default:
		return parse_register(p, l, body);
	}
}
