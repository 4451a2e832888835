/* SPDX-License-Identifier: MIT */
/*
 * The machine-check dump macOS writes into its panic log (XNU's
 * osfmk/i386/machine_check.c), as users paste it from a panic report.
 * Since 10.7 it reads
 *
 *   Machine-check capabilities: 0x0000000000001c09
 *    family: 6 model: 44 stepping: 2 microcode: 31
 *    signature: 0x206c2
 *    Intel(R) Xeon(R) CPU X5690 @ 3.47GHz
 *    9 error-reporting banks
 *   Processor 12: IA32_MCG_STATUS: 0x0000000000000004
 *    IA32_MC1_STATUS(0x405): 0xbe00000000400e0f
 *    IA32_MC1_ADDR(0x406):   0x000000e1e7e1e000
 *    IA32_MC1_MISC(0x407):   0x0000000001000000
 *
 * a head for the machine (IA32_MCG_CAP, the CPU's identity and brand),
 * then a block per processor that logged an error, and in it each valid
 * bank: STATUS, then ADDR and MISC when STATUS says they are valid.
 * 10.5 and 10.6 print the same register lines, with "valid"/"invalid"
 * after STATUS, around notes spelling out bits of the registers:
 *
 *   Machine-check capabilities 0x0000000000000c09:        (10.5: "(cpu N) 0x...:")
 *    control MSR present
 *   Processor 0: machine-check status 0x0000000000000005:
 *    restart IP valid
 *   MCA error-reporting registers:
 *    IA32_MC0_STATUS(0x401): 0x0000000000000000 invalid
 *    IA32_MC1_STATUS(0x405): 0xb200000000000800 valid
 *     MCA error code:            0x0800
 *     Status bits:
 *      Error enabled
 *
 * Each STATUS line is one record, with the head's IA32_MCG_CAP, identity
 * and microcode and its processor's number (our "cpu": XNU's logical CPU
 * number) and IA32_MCG_STATUS.  A bank's record is handed out when the
 * next bank, processor or record begins, since its ADDR and MISC follow
 * it.  The notes say nothing STATUS does not, and are read as such;
 * a register line that does not add up (its MSR number, a bank beyond
 * IA32_MCG_CAP's count, an ADDR of another bank than the STATUS above it)
 * is an error.
 *
 * From macOS 12 the panic report is an .ips file whose second line is
 * JSON that holds the panic text with its newlines left raw, so the dump's
 * first line is glued to the keys before it:
 *
 *   {"macOSProcessedStackshotData":"...","macOSPanicString":"Machine-check capabilities: 0x...
 *
 * The file's first line, its header ({"timestamp":...,"bug_type":"210",...}
 * for a panic), carries no register and is read as part of the report.
 *
 * Users paste the whole panic report as often as the dump.  Once the
 * report shows (a dump, the .ips header, or one of the lines only a report
 * has: "*** Panic Report ***", "Anonymous UUID:", "panic(cpu N caller
 * ..."), the rest of the input is taken for its text: the panic string,
 * backtraces, kext lists and the machine's profile are not record lines
 * and are passed over (text_macos_report_text()).  A line that names an
 * IA32_MC register and is not read is still an error.
 *
 * MSR numbers: IA32_MCi_STATUS/ADDR/MISC are 401H/402H/403H + 4i (Intel
 * SDM Vol. 4, table 2-2, the IA32_MC0..IA32_MC31 block at 400H-47FH).
 * The signature is CPUID(1).EAX (SDM Vol. 2A, CPUID, figure 3-6).
 */
#include <stdarg.h>
#include <stdio.h>

#include "forms.h"

enum macos_line {
	CAPS = 1,         /* Machine-check capabilities ... : begins a dump */
	IDENT,            /* family: F model: M stepping: S microcode: U */
	SIGNATURE,        /* signature: 0x... */
	BRAND,            /* the CPU's brand string, under the identity */
	BANK_COUNT,       /* N error-reporting banks */
	NOTE,             /* a line spelling out register bits: nothing to read */
	GLOBAL_STATUS,    /* 10.5: Machine-check status 0x...: */
	PROCESSOR,        /* Processor N: ... */
	REGISTER,         /* IA32_MCi_STATUS/ADDR/MISC(0x...): 0x... */
	IPS_HEADER,       /* an .ips panic report's first line */
	REPORT_MARK,      /* a line only a panic report has: its other text follows */
};

/* Register lines of a bank, in the order XNU prints them. */
enum macos_reg {
	REG_STATUS,
	REG_ADDR,
	REG_MISC,
};

static const struct {
	const char *name;
	unsigned msr_offset;   /* from 400H + 4i */
	uint32_t have;
} regs[] = {
	[REG_STATUS] = { .name = "STATUS", .msr_offset = 1, .have = MCE_HAVE_STATUS },
	[REG_ADDR]   = { .name = "ADDR",   .msr_offset = 2, .have = MCE_HAVE_ADDR },
	[REG_MISC]   = { .name = "MISC",   .msr_offset = 3, .have = MCE_HAVE_MISC },
};

/* The IA32_MCi_* MSR block ends at 47FH: 32 banks. */
#define MAX_BANKS 32u

/*
 * The lines 10.5 and 10.6 print to spell out what the registers say, by
 * their first words (a colon and a value may follow).  Only inside a dump:
 * alone, "Error enabled" is nobody's.
 */
static const char *const notes[] = {
	/* the head: IA32_MCG_CAP's flags */
	"control MSR present",
	"threshold-based error status present",
	"extended corrected memory error handling present",
	/* IA32_MCG_STATUS's flags */
	"restart IP valid",
	"error IP valid",
	"machine-check in progress",
	"MCA error-reporting registers:",
	/* a valid bank's STATUS, field by field */
	"MCA error code",
	"Model specific error code",
	"Other information",
	"Threshold-based status",
	"Software Error Recovery:",
	"Recovery action reqd",
	"Signaling UCR error",
	"Status bits:",
	"Processor context corrupt",
	"ADDR register valid",
	"MISC register valid",
	"Error enabled",
	"Uncorrected error",
	"Error overflow",
	/* bank 8 of Nehalem-era Xeons, the memory controller's, per package */
	"Package ",
	"Channel number:",
	"Memory Operation:",
	"Machine-specific error:",
	"COR_ERR_CNT:",
	"RTID:",
	"DIMM:",
	"Channel:",
	"Syndrome:",
	/* family 0FH's extended state registers */
	"Extended Machine Check State:",
	"IA32_MCG_",
};

/* Brand strings name their maker (the dump gives no vendor string). */
static const struct {
	const char *word;
	enum mce_vendor vendor;
} brands[] = {
	{ .word = "Intel", .vendor = MCE_VENDOR_INTEL },
	{ .word = "AMD",   .vendor = MCE_VENDOR_AMD },
};

#define PANIC_STRING_KEY "\"macOSPanicString\":\""

static bool in_dump(const struct mce_text_parser *p)
{
	return p->open == OPEN_MACOS_MCA;
}

/* Past digits; false if there are none. */
static bool skip_digits(struct span *s)
{
	const char *start = s->p;

	while (s->p < s->end && is_digit(*s->p))
		s->p++;
	return s->p > start;
}

/* "IA32_MC<i>_<REG>(" */
static bool is_register(struct span s)
{
	if (!span_eat(&s, "IA32_MC") || !skip_digits(&s) || !span_eat(&s, "_"))
		return false;
	return span_starts(s, "STATUS(") || span_starts(s, "ADDR(") || span_starts(s, "MISC(");
}

static bool is_note(struct span s)
{
	for (size_t i = 0; i < ELEMENTSOF(notes); i++)
		if (span_starts_n(s, notes[i], strlen(notes[i])))
			return true;
	return false;
}

/* "N error-reporting banks" and 10.6's "N extended MSRs present": the number, or 0 if neither. */
static unsigned count_line(struct span s)
{
	if (!skip_digits(&s) || !span_eat(&s, " "))
		return 0;
	if (span_eq(s, "error-reporting banks"))
		return BANK_COUNT;
	return span_eq(s, "extended MSRs present") ? NOTE : 0;
}

/* "Processor N:": a number and its colon after the word */
static bool numbered_colon(struct span s)
{
	const char *c = s.p + strlen("Processor ");

	if (c >= s.end || !is_digit(*c))
		return false;
	while (c < s.end && is_digit(*c))
		c++;
	return c < s.end && *c == ':';
}

unsigned text_macos_mca_recognise(const struct mce_text_parser *p, const struct text_line *l,
				  struct span *body)
{
	struct span s = l->msg;
	unsigned kind = 0;

	/*
	 * Every line of every other form comes here too: the first byte
	 * settles most of them, and the head's and notes' lines are looked
	 * for only inside a dump.
	 */
	switch (s.p[0]) {
	case '{': {
		/* .ips: cheap to tell from our own JSON lines, which begin {"time" or {"source" */
		const char *at;

		if (span_starts(s, "{\"macOS") && (at = span_find(s, PANIC_STRING_KEY)) &&
		    span_starts(((struct span) { at + strlen(PANIC_STRING_KEY), s.end }),
				"Machine-check capabilities")) {
			s.p = at + strlen(PANIC_STRING_KEY);
			kind = CAPS;
		} else if ((span_starts(s, "{\"timestamp\"") || span_starts(s, "{\"bug_type\"")) &&
			   span_find(s, "\"bug_type\":\"210\"")) {
			kind = IPS_HEADER;
		}
		break;
	}
	case '*':
		if (span_eq(s, "*** Panic Report ***") || span_eq(s, "*** MCA Error Report ***"))
			kind = REPORT_MARK;
		break;
	case 'A':
		if (span_starts(s, "Anonymous UUID:"))
			kind = REPORT_MARK;
		break;
	case 'p':
		if (span_starts(s, "panic(cpu "))
			kind = REPORT_MARK;
		break;
	case 'M':
		if (span_starts(s, "Machine-check capabilities"))
			kind = CAPS;
		else if (in_dump(p) && span_starts(s, "Machine-check status "))
			kind = GLOBAL_STATUS;
		break;
	case 'P':
		/*
		 * not 10.6's note "Processor context corrupt", nor mcelog's
		 * thermal text "Processor 1 heated above trip temperature."
		 */
		if (span_starts(s, "Processor ") &&
		    (numbered_colon(s) || span_find(s, ": IA32_MCG_STATUS") ||
		     span_find(s, ": machine-check status")))
			kind = PROCESSOR;
		break;
	case 'I':
		if (is_register(s))
			kind = REGISTER;
		break;
	case 'f':
		if (in_dump(p) && span_starts(s, "family: "))
			kind = IDENT;
		break;
	case 's':
		if (in_dump(p) && span_starts(s, "signature: "))
			kind = SIGNATURE;
		break;
	default:
		if (in_dump(p) && is_digit(s.p[0]))
			kind = count_line(s);
		break;
	}
	if (!kind && in_dump(p)) {
		if (is_note(s))
			kind = NOTE;
		else if ((p->step == IDENT || p->step == SIGNATURE) && p->last + 1 == p->line)
			kind = BRAND;  /* free text, but only right under the identity */
	}
	if (kind)
		*body = s;
	return kind;
}

/* "0x" and up to 16 hex digits, the whole token: XNU prints them so. */
static enum kv_result hex_value(struct mce_text_parser *p, const char *key, struct span t,
			       uint64_t *ret)
{
	return text_hex_0x(p, key, t, UINT64_MAX, ret);
}

/* Nothing may follow what was read. */
static enum kv_result at_end(struct mce_text_parser *p, const char *what, struct span s)
{
	char buf[48];

	span_skip_space(&s);
	if (s.p == s.end)
		return KV_OK;
	return text_bad(p, "%s: unexpected '%s' at the end", what, span_show(s, buf, sizeof(buf)));
}

/* The line, rejected for the reason in p->msg (text_bad(), text_num()). */
static int bad_line(struct mce_text_parser *p)
{
	text_reject(p);
	return 0;
}

/* The bank read last, if its record is still to be handed out: the dump's later lines are not its. */
static int emit_pending(struct mce_text_parser *p)
{
	const uint32_t bank_bits = MCE_HAVE_BANK | MCE_HAVE_STATUS | MCE_HAVE_ADDR | MCE_HAVE_MISC;
	struct mce_record r = p->rec;
	unsigned now = p->line;
	int k;

	if (!(p->rec.have & MCE_HAVE_STATUS))
		return 0;
	/* its lines end at its last register line, not at the line that ends it */
	p->line = p->last;
	k = text_emit_part(p, &r);
	p->line = now;
	p->rec.have &= ~bank_bits;
	p->rec.bank = 0;
	p->rec.status = p->rec.addr = p->rec.misc = 0;
	return k;
}

/* A dump begins at its head, or at a processor's or bank's line pasted without one. */
static int begin_dump(struct mce_text_parser *p, const struct text_line *l)
{
	int k = text_begin(p, OPEN_MACOS_MCA, l->have_time, l->time_usec);

	p->step = 0;
	p->macos_report = true;
	return k;
}

bool text_macos_report_text(const struct mce_text_parser *p, struct span s)
{
	return p->macos_report && !span_find(s, "IA32_MC");
}

/*
 * "Machine-check capabilities: 0x...", 10.6's "Machine-check capabilities
 * 0x...:" and 10.5's "Machine-check capabilities (cpu N) 0x...:", the
 * last naming the CPU whose banks follow.
 */
static int parse_caps(struct mce_text_parser *p, const struct text_line *l, struct span s)
{
	struct mce_record r = { 0 };
	struct span t;
	uint64_t v;
	int k;

	(void) span_eat(&s, "Machine-check capabilities");
	if (!span_eat(&s, ":")) {
		span_skip_space(&s);
		if (span_eat(&s, "(cpu ")) {
			const char *close = memchr(s.p, ')', span_len(s));

			if (!close)
				return text_reject_with(p, "Machine-check capabilities: expected '(cpu N)'");
			if (text_num(p, "Machine-check capabilities: cpu", (struct span) { s.p, close },
				     10, UINT32_MAX, &v) != KV_OK)
				return bad_line(p);
			r.cpu = (uint32_t) v;
			r.have |= MCE_HAVE_CPU;
			s.p = close + 1;
		}
		if (s.end > s.p && s.end[-1] == ':')
			s.end--;
	}
	t = span_token(&s);
	if (hex_value(p, "IA32_MCG_CAP", t, &r.mcgcap) != KV_OK ||
	    at_end(p, "Machine-check capabilities", s) != KV_OK)
		return bad_line(p);
	r.have |= MCE_HAVE_MCGCAP;
	/* XNU's machine-check code is Intel's; a brand string may say otherwise */
	r.vendor = MCE_VENDOR_INTEL;
	r.have |= MCE_HAVE_VENDOR;
	if ((k = begin_dump(p, l)) < 0)
		return k;
	p->rec = r;
	p->step = CAPS;
	return 0;
}

/* Past "word " and a decimal number up to max, into *ret. */
static enum kv_result word_number(struct mce_text_parser *p, struct span *s, const char *word,
				  const char *key, uint64_t max, uint64_t *ret)
{
	span_skip_space(s);
	if (!span_eat_n(s, word, strlen(word)))
		return text_bad(p, "family line: expected '%s'", word);
	return text_num(p, key, span_token(s), 10, max, ret);
}

/* "family: F model: M stepping: S microcode: U" (10.5: "microcode revision U"). */
static int parse_ident(struct mce_text_parser *p, struct span s)
{
	struct mce_record r = p->rec;
	uint64_t family, model, stepping, microcode;

	if (word_number(p, &s, "family:", "family", UINT32_MAX, &family) != KV_OK ||
	    word_number(p, &s, "model:", "model", UINT32_MAX, &model) != KV_OK ||
	    word_number(p, &s, "stepping:", "stepping", 15, &stepping) != KV_OK)
		return bad_line(p);
	span_skip_space(&s);
	if (span_starts(s, "microcode revision"))
		s.p += strlen("microcode revision");
	else if (span_starts(s, "microcode:"))
		s.p += strlen("microcode:");
	else
		return text_reject_with(p, "family line: expected 'microcode:'");
	if (text_num(p, "microcode", span_token(&s), 10, UINT32_MAX, &microcode) != KV_OK ||
	    at_end(p, "family line", s) != KV_OK)
		return bad_line(p);
	r.family = (uint32_t) family;
	r.model = (uint32_t) model;
	r.stepping = (uint32_t) stepping;
	r.microcode = (uint32_t) microcode;
	r.have |= MCE_HAVE_CPUID | MCE_HAVE_MICROCODE;
	p->rec = r;
	p->step = IDENT;
	p->last = p->line;
	return 0;
}

/*
 * "signature: 0x206c2": CPUID(1).EAX, combined as the family line and
 * our records have it (mce_record_set_cpuid()), and held against the
 * family line.
 */
static int parse_signature(struct mce_text_parser *p, struct span s)
{
	struct mce_record id = { 0 };
	uint64_t sig;
	uint32_t family, model, stepping;

	s.p += strlen("signature:");
	if (hex_value(p, "signature", span_token(&s), &sig) != KV_OK ||
	    at_end(p, "signature", s) != KV_OK)
		return bad_line(p);
	if (sig > UINT32_MAX)
		return text_reject_with(p, "signature: 0x%llx is wider than CPUID's 32-bit EAX",
				(unsigned long long) sig);
	mce_record_set_cpuid(&id, (uint32_t) sig);
	family = id.family;
	model = id.model;
	stepping = id.stepping;
	if ((p->rec.have & MCE_HAVE_CPUID) &&
	    (p->rec.family != family || p->rec.model != model || p->rec.stepping != stepping))
		return text_reject_with(p, "signature: 0x%llx is family %u model %u stepping %u, "
				"but the family line says %u, %u, %u", (unsigned long long) sig,
				family, model, stepping, p->rec.family, p->rec.model,
				p->rec.stepping);
	p->rec.family = family;
	p->rec.model = model;
	p->rec.stepping = stepping;
	p->rec.have |= MCE_HAVE_CPUID;
	p->step = SIGNATURE;
	p->last = p->line;
	return 0;
}

static int parse_brand(struct mce_text_parser *p, struct span s)
{
	for (size_t i = 0; i < ELEMENTSOF(brands); i++)
		if (span_find_n(s, brands[i].word, strlen(brands[i].word))) {
			p->rec.vendor = brands[i].vendor;
			p->rec.have |= MCE_HAVE_VENDOR;
			break;
		}
	p->step = BRAND;
	p->last = p->line;
	return 0;
}

/* "N error-reporting banks": IA32_MCG_CAP's count, printed again. */
static int parse_bank_count(struct mce_text_parser *p, struct span s)
{
	uint64_t n;

	if (text_num(p, "error-reporting banks", span_token(&s), 10, 255, &n) != KV_OK)
		return bad_line(p);
	if ((p->rec.have & MCE_HAVE_MCGCAP) && n != (p->rec.mcgcap & 0xff))
		return text_reject_with(p, "%llu error-reporting banks, but IA32_MCG_CAP 0x%llx counts %llu",
				(unsigned long long) n, (unsigned long long) p->rec.mcgcap,
				(unsigned long long) (p->rec.mcgcap & 0xff));
	p->step = BANK_COUNT;
	p->last = p->line;
	return 0;
}

/*
 * "Processor N: IA32_MCG_STATUS: 0x...", 10.6's "Processor N:
 * machine-check status 0x...:" and its "Processor N: no ..." for a
 * processor with nothing logged; 10.5's "Machine-check status 0x...:"
 * for the CPU its head named.
 */
static int parse_processor(struct mce_text_parser *p, const struct text_line *l, unsigned kind,
			   struct span s)
{
	struct span t;
	uint64_t cpu = 0, status;
	int k;

	if (kind == PROCESSOR) {
		s.p += strlen("Processor ");
		t = span_token(&s);
		if (span_len(t) < 2 || t.end[-1] != ':')
			return text_reject_with(p, "Processor: expected 'Processor N:'");
		t.end--;
		if (text_num(p, "Processor", t, 10, UINT32_MAX, &cpu) != KV_OK)
			return bad_line(p);
		span_skip_space(&s);
	}
	if (kind == PROCESSOR && span_starts(s, "no ")) {
		/* 10.6: a processor that logged nothing: no record, and none waits */
		if (!span_eq(s, "no machine-check status reported") &&
		    !span_eq(s, "no valid machine-check state"))
			return text_reject_with(p, "Processor %llu: expected IA32_MCG_STATUS",
					(unsigned long long) cpu);
		if (!in_dump(p))
			return 0;
		if ((k = emit_pending(p)) < 0)
			return k;
		p->rec.have &= ~(MCE_HAVE_CPU | MCE_HAVE_MCGSTATUS);
		p->step = PROCESSOR;
		p->last = p->line;
		return 0;
	}
	if (span_eat(&s, "IA32_MCG_STATUS:")) {
		t = span_token(&s);
	} else if (span_eat(&s, "machine-check status ") || span_eat(&s, "Machine-check status ")) {
		t = span_token(&s);
		if (span_len(t) > 0 && t.end[-1] == ':')
			t.end--;
	} else {
		return text_reject_with(p, "Processor %llu: expected 'IA32_MCG_STATUS: 0x...'",
				(unsigned long long) cpu);
	}
	if (hex_value(p, "IA32_MCG_STATUS", t, &status) != KV_OK ||
	    at_end(p, "IA32_MCG_STATUS", s) != KV_OK)
		return bad_line(p);
	if (!in_dump(p)) {
		if ((k = begin_dump(p, l)) < 0)
			return k;
	} else if ((k = emit_pending(p)) < 0) {
		return k;
	}
	if (kind == PROCESSOR) {
		p->rec.cpu = (uint32_t) cpu;
		p->rec.have |= MCE_HAVE_CPU;
	}
	p->rec.mcgstatus = status;
	p->rec.have |= MCE_HAVE_MCGSTATUS;
	p->step = PROCESSOR;
	p->last = p->line;
	return 0;
}

/* "IA32_MC<i>_<REG>(0x<msr>): 0x<value>[ valid| invalid]" */
static int parse_register(struct mce_text_parser *p, const struct text_line *l, struct span s)
{
	enum macos_reg reg;
	struct span t;
	uint64_t bank, msr, v;
	unsigned limit = MAX_BANKS;
	bool valid_word = false, invalid_word = false;
	char key[32];
	int k;

	s.p += strlen("IA32_MC");
	t = s;
	(void) skip_digits(&s);
	if (text_num(p, "IA32_MCi bank", (struct span) { t.p, s.p }, 10, UINT32_MAX, &bank) != KV_OK)
		return bad_line(p);
	s.p++;                                   /* '_' */
	reg = span_starts(s, "STATUS(") ? REG_STATUS : span_starts(s, "ADDR(") ? REG_ADDR : REG_MISC;
	s.p += strlen(regs[reg].name) + 1;
	snprintf(key, sizeof(key), "IA32_MC%llu_%s", (unsigned long long) bank, regs[reg].name);

	/* its MSR number, in parentheses, then ':' */
	t = span_token(&s);
	if (span_len(t) < 2 || t.end[-1] != ':' || t.end[-2] != ')')
		return text_reject_with(p, "%s: expected '(0xMSR):'", key);
	t.end -= 2;
	if (hex_value(p, key, t, &msr) != KV_OK)
		return bad_line(p);
	if ((p->rec.have & MCE_HAVE_MCGCAP) && in_dump(p))
		limit = (unsigned) (p->rec.mcgcap & 0xff);
	if (bank >= limit)
		return text_reject_with(p, "%s: bank %llu out of range: %s %u banks", key,
				(unsigned long long) bank,
				limit == MAX_BANKS ? "the IA32_MCi MSRs hold" : "IA32_MCG_CAP counts",
				limit);
	if (msr != 0x400 + 4 * bank + regs[reg].msr_offset)
		return text_reject_with(p, "%s: MSR 0x%llx is not bank %llu's %s (0x%llx)", key,
				(unsigned long long) msr, (unsigned long long) bank, regs[reg].name,
				(unsigned long long) (0x400 + 4 * bank + regs[reg].msr_offset));

	if (hex_value(p, key, span_token(&s), &v) != KV_OK)
		return bad_line(p);
	if (reg == REG_STATUS) {
		/* 10.5 and 10.6 print every bank, and say whether it is valid */
		t = span_token(&s);
		valid_word = span_eq(t, "valid");
		invalid_word = span_eq(t, "invalid");
		if (span_len(t) > 0 && !valid_word && !invalid_word)
			return text_reject_with(p, "%s: expected 'valid' or 'invalid' after the value", key);
		if ((valid_word || invalid_word) && valid_word != (v >> 63))
			return text_reject_with(p, "%s: says '%s' but VAL (bit 63) is %s", key,
					valid_word ? "valid" : "invalid", v >> 63 ? "set" : "clear");
	}
	if (at_end(p, key, s) != KV_OK)
		return bad_line(p);

	if (reg != REG_STATUS) {
		if (!in_dump(p) || !(p->rec.have & MCE_HAVE_STATUS))
			return text_reject_with(p, "%s: expected IA32_MC%llu_STATUS before it", key,
					(unsigned long long) bank);
		if (p->rec.bank != bank)
			return text_reject_with(p, "%s: expected a register of bank %u, whose STATUS is above it",
					key, p->rec.bank);
		if (p->rec.have & regs[reg].have)
			return text_reject_with(p, "%s: bank %u's %s again", key, p->rec.bank,
					regs[reg].name);
		if (reg == REG_ADDR)
			p->rec.addr = v;
		else
			p->rec.misc = v;
		p->rec.have |= regs[reg].have;
		p->step = REGISTER;
		p->last = p->line;
		return 0;
	}

	if (!in_dump(p)) {
		if ((k = begin_dump(p, l)) < 0)
			return k;
	} else if ((k = emit_pending(p)) < 0) {
		return k;
	}
	p->step = REGISTER;
	p->last = p->line;
	if (invalid_word)
		return 0;        /* a bank that logged nothing */
	p->rec.bank = (uint32_t) bank;
	p->rec.status = v;
	p->rec.have |= MCE_HAVE_BANK | MCE_HAVE_STATUS;
	p->emitted = false;      /* this bank waits for its ADDR and MISC */
	return 0;
}

int text_macos_mca_parse(struct mce_text_parser *p, const struct text_line *l, unsigned kind,
			 struct span body)
{
	switch (kind) {
	case CAPS:
		return parse_caps(p, l, body);
	case IDENT:
		return parse_ident(p, body);
	case SIGNATURE:
		return parse_signature(p, body);
	case BRAND:
		return parse_brand(p, body);
	case BANK_COUNT:
		return parse_bank_count(p, body);
	case IPS_HEADER:
	case REPORT_MARK:
		/* the report's text is no longer garbage; a dump above it is done */
		p->macos_report = true;
		return kind == REPORT_MARK ? text_flush(p) : 0;
	case NOTE:
		/* the heads of the banks that follow are not the bank above's lines */
		if (!span_starts(body, "Package ") && !span_starts(body, "MCA error-reporting"))
			p->last = p->line;
		return 0;
	case GLOBAL_STATUS:
	case PROCESSOR:
		return parse_processor(p, l, kind, body);
	default:
		return parse_register(p, l, body);
	}
}
