/* SPDX-License-Identifier: MIT */
/*
 * The AMD EDAC decoder's lines (drivers/edac/mce_amd.c), under the kernel's
 * hardware-error tag:
 *
 *   [Hardware Error]: Corrected error, no action required.
 *   [Hardware Error]: CPU:2 (19:21:0) MC5_STATUS[Over|CE|MiscV|AddrV|-|-|SyndV|CECC|-|-|-]: 0x9c2040000000011b
 *   [Hardware Error]: Error Addr: 0x0000000abcd00000
 *   [Hardware Error]: IPID: 0x0000009600050f00, Syndrome: 0x000000005a020001
 *   [Hardware Error]: FRU Text: CPU0_DIMM_A1      (6.13 and later, when the bank has it)
 *   [Hardware Error]: Unified Memory Controller Ext. Error Code: 0, DRAM ECC error.
 *   [Hardware Error]: cache level: L3/GEN, tx: GEN, mem-tx: RD
 *
 * The severity line opens a record; the cache-level or bus-error line is
 * the decoder's last.  Between them amd64_edac may put the EDAC core's
 * line for the same error, untagged (edac_mc_handle_error()'s format):
 *
 *   EDAC MC0: 1 CE on mc#0csrow#3channel#1 (csrow:3 channel:1 page:0x0 offset:0x0 grain:64 syndrome:0x4000)
 *
 * It belongs to the open record: its memory controller (the node) and
 * channel are kept; the chip select the decoder reads from the syndrome.
 */
#include <inttypes.h>

#include "forms.h"

enum edac_line {
	EDAC_STATUS = 1,      /* "CPU:n (f:m:s) MCb_STATUS[...]: 0x..." */
	EDAC_SEVERITY,        /* "Corrected error, ...": the first line */
	EDAC_REGS,            /* "Error Addr: 0x..., IPID: 0x..." */
	EDAC_LAST,            /* "cache level: ..." or "bus error ..." */
	EDAC_CPU_CUT,         /* "CPU:n (f:m:s)" and no more: a mailer wrapped the line */
	EDAC_STATUS_REST,     /* "MCb_STATUS[...]: 0x..." on the next line, untagged */
	EDAC_REG_REST,        /* "0x..." on the next line: the value of a cut register line's last key */
	EDAC_LAST_REST,       /* "mem-tx: ..." on the next line: the rest of a cut "cache level:" line */
	EDAC_DIMM,            /* amd64_edac's "EDAC MCm: 1 CE ... on mc#m... (csrow:c channel:h ...)" */
	EDAC_FRU,             /* "FRU Text: ...": MCA_SYND1 and MCA_SYND2 as the text they hold */
};

/* The columns mailers wrap at. */
#define WRAP_COLUMNS 80

/* "(19:21:0)": the family, model and stepping, in hex. */
static enum kv_result parse_tuple(struct mce_text_parser *p, struct span *s, struct mce_record *r)
{
	const char *c = memchr(s->p, ')', span_len(*s)), *c1, *c2;
	struct span tuple;
	uint64_t fam, model, step;

	if (!span_eat(s, "(") || !c)
		return text_bad(p, "expected '(FAMILY:MODEL:STEPPING)' after the CPU number");
	tuple = (struct span) { s->p, c };
	c1 = memchr(tuple.p, ':', span_len(tuple));
	if (!c1 || !(c2 = memchr(c1 + 1, ':', (size_t) (tuple.end - c1 - 1))))
		return text_bad(p, "expected '(FAMILY:MODEL:STEPPING)' after the CPU number");
	if (text_num(p, "family", (struct span) { tuple.p, c1 }, 16, UINT32_MAX, &fam) != KV_OK ||
	    text_num(p, "model", (struct span) { c1 + 1, c2 }, 16, UINT32_MAX, &model) != KV_OK ||
	    text_num(p, "stepping", (struct span) { c2 + 1, tuple.end }, 16, UINT32_MAX, &step) != KV_OK)
		return KV_BAD;
	s->p = c + 1;
	/* Family 18h is only ever Hygon Dhyana; the EDAC decoder serves both. */
	r->vendor = fam == 0x18 ? MCE_VENDOR_HYGON : MCE_VENDOR_AMD;
	r->family = (uint32_t) fam;
	r->model = (uint32_t) model;
	r->stepping = (uint32_t) step;
	r->have |= MCE_HAVE_CPUID;
	return KV_OK;
}

/* "CPU:2 (19:21:0) " or "CPU:2 ", up to the MCb_STATUS. */
static enum kv_result read_cpu(struct mce_text_parser *p, struct span *s, struct mce_record *r)
{
	struct span t = span_token(s);       /* "CPU:2" */
	uint64_t cpu;

	t.p += 4;
	if (text_num(p, "CPU", t, 10, UINT32_MAX, &cpu) != KV_OK)
		return KV_BAD;
	r->cpu = (uint32_t) cpu;
	r->have |= MCE_HAVE_CPU;
	span_skip_space(s);
	/* kernels before 3.x printed "CPU:2\tMC2_STATUS[...]", no (f:m:s) */
	if (!span_starts(*s, "MC") && parse_tuple(p, s, r) != KV_OK)
		return KV_BAD;
	span_skip_space(s);
	return KV_OK;
}

/* A cut "CPU:n (f:m:s)": the record's CPU, its MCb_STATUS on the next line. */
static enum kv_result parse_cpu(struct mce_text_parser *p, struct span s, struct mce_record *r)
{
	return read_cpu(p, &s, r);
}

/*
 * Whether the decoder's flag names hold "CECC" or "UECC": it names STATUS
 * bits 46:45 so, which the record's family would otherwise have to tell.
 */
static bool names_ecc(struct span flags)
{
	while (span_len(flags) > 0) {
		const char *bar = memchr(flags.p, '|', span_len(flags));
		struct span name = { flags.p, bar ? bar : flags.end };

		span_trim(&name);
		if (span_eq(name, "CECC") || span_eq(name, "UECC"))
			return true;
		flags.p = bar ? bar + 1 : flags.end;
	}
	return false;
}

/*
 * "CPU:2 (19:21:0) MC5_STATUS[Over|CE|...]: 0x9c2040000000011b"; older
 * kernels print no "CPU:n (f:m:s)" or only "CPU:n", and copies through web pages lose the
 * bracketed flags and the colon: "MC4_STATUS0xdc5c410004080a13".
 */
static enum kv_result parse_status(struct mce_text_parser *p, struct span s, struct mce_record *r)
{
	struct span t;
	uint64_t bank, status;
	const char *c;
	bool ecc = false;

	if (span_starts(s, "CPU:") && read_cpu(p, &s, r) != KV_OK)
		return KV_BAD;
	if (!span_eat(&s, "MC"))
		return text_bad(p, "expected 'MCn_STATUS' after the CPU identity");
	t.p = s.p;
	while (s.p < s.end && is_digit(*s.p))
		s.p++;
	t.end = s.p;
	if (text_num(p, "bank", t, 10, UINT32_MAX, &bank) != KV_OK)
		return KV_BAD;
	if (!span_eat(&s, "_STATUS"))
		return text_bad(p, "expected 'MCn_STATUS' after the CPU identity");
	/* the flag names are decoded text; the register follows them */
	if (span_eat(&s, "[")) {
		if (!(c = memchr(s.p, ']', span_len(s))))
			return text_bad(p, "MC%" PRIu64 "_STATUS: expected ']' after the flag names", bank);
		ecc = names_ecc((struct span) { s.p, c });
		s.p = c + 1;
	} else if (!span_starts(s, "0x") && !span_starts(s, ":") && (c = memchr(s.p, ':', span_len(s)))) {
		ecc = names_ecc((struct span) { s.p, c });
		s.p = c;                  /* flags that lost their brackets */
	}
	(void) span_eat(&s, ":");
	t = span_token(&s);
	if (span_len(t) == 0)
		return text_bad(p, "MC%" PRIu64 "_STATUS: value missing", bank);
	if (text_num(p, "STATUS", t, 16, UINT64_MAX, &status) != KV_OK)
		return KV_BAD;
	r->bank = (uint32_t) bank;
	r->status = status;
	if (!(r->have & MCE_HAVE_CPUID))
		r->vendor = MCE_VENDOR_AMD;   /* the decoder of these lines is AMD's */
	r->have |= MCE_HAVE_BANK | MCE_HAVE_STATUS | MCE_HAVE_VENDOR;
	if (ecc)
		r->have |= MCE_HAVE_AMD_ECC_NAMED;
	return KV_OK;
}

/* "MC<b>" and what follows it: "_STATUS", "_ADDR". */
static bool mc_reg(struct span s, const char *reg, bool whole)
{
	if (!span_eat(&s, "MC") || s.p == s.end || !is_digit(*s.p))
		return false;
	while (s.p < s.end && is_digit(*s.p))
		s.p++;
	return whole ? span_eq_n(s, reg, strlen(reg)) : span_starts_n(s, reg, strlen(reg));
}

/* "MC<b>_ADDR" or "MC<b> Error Address", as older kernels name the address register. */
static bool is_mc_addr(struct span key)
{
	return mc_reg(key, "_ADDR", true) || mc_reg(key, " Error Address", true);
}

/* The register lines' keys: drivers/edac/mce_amd.c prints "Key: 0x%016llx", comma-separated. */
static const struct text_field regs[] = {
	TEXT_FIELD("Error Addr", MCE_HAVE_ADDR, addr, 16),
	TEXT_FIELD("IPID",       MCE_HAVE_IPID, ipid, 16),
	TEXT_FIELD("Syndrome",   MCE_HAVE_SYND, synd, 16),
	TEXT_FIELD("PPIN",       MCE_HAVE_PPIN, ppin, 16),
};

/* "Key: 0x..., Key: 0x..." lines: Error Addr, IPID, Syndrome, PPIN, MCn_ADDR. */
static enum kv_result parse_regs(struct mce_text_parser *p, struct span s, struct mce_record *r)
{
	static const struct text_field mc_addr = TEXT_FIELD("MCn_ADDR", MCE_HAVE_ADDR, addr, 16);

	while (span_len(s) > 0) {
		const char *comma = memchr(s.p, ',', span_len(s)), *colon;
		struct span item = { s.p, comma ? comma : s.end }, key, val;
		const struct text_field *f;

		s.p = comma ? comma + 1 : s.end;
		colon = memchr(item.p, ':', span_len(item));
		if (!colon)
			continue;
		key = (struct span) { item.p, colon };
		val = (struct span) { colon + 1, item.end };
		span_trim(&key);
		span_trim(&val);
		f = text_field_find(regs, ELEMENTSOF(regs), key, false);
		if (!f && is_mc_addr(key))
			f = &mc_addr;   /* older kernels: "MC4_ADDR: 0x..." */
		if (!f)
			continue;       /* "Syndrome1:", newer additions: decoded elsewhere */
		if (text_field_read(p, f, val, f->base, r) != KV_OK)
			return KV_BAD;
	}
	return KV_OK;
}

/*
 * "FRU Text: %s": the kernel prints MCA_SYND1 and MCA_SYND2 as the string
 * their 16 bytes hold (drivers/edac/mce_amd.c, MCA_CONFIG[9] McaFruTextInMca
 * set).  The registers are made again from it, NUL-padded in register
 * order, as mce_record_set_vendor_data() reads them from the tracepoint.
 */
static enum kv_result parse_fru(struct mce_text_parser *p, struct span s, struct mce_record *r)
{
	unsigned char bytes[16] = { 0 };
	char buf[48];

	span_eat(&s, "FRU Text:");
	if (s.p < s.end && *s.p == ' ')
		s.p++;
	while (s.end > s.p && (s.end[-1] == '\r' || s.end[-1] == '\n'))
		s.end--;
	if (span_len(s) == 0 || span_len(s) > sizeof(bytes))
		return text_bad(p, "FRU Text: expected 1 to 16 characters, got '%s'", span_show(s, buf, sizeof(buf)));
	memcpy(bytes, s.p, span_len(s));
	if (mce_record_set_vendor_data(r, bytes, sizeof(bytes)) < 0 || !(r->have & MCE_HAVE_SYND1))
		return text_bad(p, "FRU Text outside an AMD record");
	return KV_OK;
}

/*
 * "CPU:n (f:m:s)" with nothing after it.  The decoder prints its MCb_STATUS
 * in the same printk, so only something after the kernel, a mailer's
 * wrapping, leaves the line ending there.
 */
static bool is_cpu_cut(struct span s)
{
	const char *c;

	if (!span_eat(&s, "CPU:") || s.p == s.end || !is_digit(*s.p))
		return false;
	while (s.p < s.end && is_digit(*s.p))
		s.p++;
	span_skip_space(&s);
	c = s.p < s.end ? memchr(s.p, ')', span_len(s)) : NULL;
	return span_starts(s, "(") && c && c + 1 == s.end;
}

/*
 * s, a whole line, is the rest of a cut "CPU:n (f:m:s)": the very next
 * line, with no prefix or tag, beginning "MCb_STATUS", whose first word did
 * not fit on the cut line.
 */
static bool is_status_rest(const struct mce_text_parser *p, struct span s)
{
	struct span t = s;

	return p->wrap == WRAP_EDAC_CPU && p->line == p->wrap_line + 1 &&
	       p->open == OPEN_EDAC_AMD && mc_reg(s, "_STATUS", false) &&
	       p->wrap_len + 1 + span_len(span_token(&t)) > WRAP_COLUMNS;
}

/*
 * A register line a mailer cut after its last key: "IPID: 0x...,
 * Syndrome:" with the value alone on the next line.  Returns that key
 * (*head: the line before it), or NULL.
 */
static const struct text_field *cut_key(struct span s, struct span *head)
{
	const char *c;
	struct span key;

	if (span_len(s) < 2 || s.end[-1] != ':')
		return NULL;
	for (c = s.end - 1; c > s.p && c[-1] != ','; c--)
		;
	key = (struct span) { c, s.end - 1 };
	span_trim(&key);
	*head = (struct span) { s.p, c > s.p ? c - 1 : s.p };
	return text_field_find(regs, ELEMENTSOF(regs), key, false);
}

/* s, a whole line, is the value a cut register line's last key lost: the very next line, one "0x" word. */
static bool is_reg_rest(const struct mce_text_parser *p, struct span s)
{
	struct span t = s, w = span_token(&t);

	span_skip_space(&t);
	return p->wrap == WRAP_EDAC_REG && p->line == p->wrap_line + 1 &&
	       p->open == OPEN_EDAC_AMD && span_starts(w, "0x") && t.p == t.end;
}

/*
 * The rest of the decoder's last line, which a mailer cut after one of its
 * commas: the fields that follow "cache level: %s, " in mce_amd.c's
 * formats (tx, mem/io, mem-tx, part-proc), on the very next line.
 */
static bool is_last_rest(const struct mce_text_parser *p, struct span s)
{
	static const char *const fields[] = { "tx: ", "mem/io: ", "mem-tx: ", "part-proc: " };

	if (p->wrap != WRAP_EDAC_LAST || p->line != p->wrap_line + 1 || p->open != OPEN_EDAC_AMD)
		return false;
	for (size_t i = 0; i < ELEMENTSOF(fields); i++)
		if (span_starts(s, fields[i]))
			return true;
	return false;
}

int text_edac_amd_unwrap(struct mce_text_parser *p, struct span s)
{
	if (p->wrap == WRAP_EDAC_LAST) {
		if (is_last_rest(p, text_unquote(s)))
			return 0;
		/* no rest came: the record ended with the cut line */
		p->wrap = WRAP_NONE;
		return text_flush(p);
	}
	if (p->wrap == WRAP_EDAC_REG) {
		if (is_reg_rest(p, text_unquote(s)))
			return 0;
		p->wrap = WRAP_NONE;
		(void) text_bad(p, "expected the value of '%s:' on the next line", regs[p->wrap_len].name);
		text_diag(p, MCE_TEXT_MALFORMED, p->wrap_line, "%s", p->msg);
		return 0;
	}
	if (p->wrap != WRAP_EDAC_CPU || is_status_rest(p, text_unquote(s)))
		return 0;
	p->wrap = WRAP_NONE;
	/* the cut line stays what it was without its rest: an error, read into nothing */
	(void) text_bad(p, "expected 'MCn_STATUS' after the CPU identity");
	text_diag(p, MCE_TEXT_MALFORMED, p->wrap_line, "%s", p->msg);
	if (p->open == OPEN_EDAC_AMD && p->first == p->wrap_line)
		p->open = OPEN_NONE;    /* it opened the record: nothing else is in it */
	else
		p->rec.have &= ~(MCE_HAVE_CPU | MCE_HAVE_CPUID);
	return 0;
}

/* "EDAC MCm: <count> CE|UE ... (csrow:" : the EDAC core's line for a memory error. */
static bool is_edac_dimm(struct span s)
{
	struct span t;

	if (!span_eat(&s, "EDAC MC") || s.p == s.end || !is_digit(*s.p))
		return false;
	t = span_token(&s);
	if (t.end[-1] != ':')
		return false;
	span_skip_space(&s);
	t = span_token(&s);
	if (span_len(t) == 0 || !is_digit(t.p[0]))
		return false;
	t = span_token(&s);
	return (span_eq(t, "CE") || span_eq(t, "UE")) && span_find(s, "(csrow:") != NULL;
}

/* That line's memory controller and channel, into the open record. */
static int parse_dimm(struct mce_text_parser *p, struct span s)
{
	static const struct text_field mc = TEXT_FIELD("EDAC MC", MCE_HAVE_DIMM_MC, dimm_mc, 10);
	static const struct text_field channel = TEXT_FIELD("channel", MCE_HAVE_DIMM_CHANNEL, dimm_channel, 10);
	struct mce_record r = p->rec;
	const char *colon = memchr(s.p, ':', span_len(s)), *c = span_find(s, " channel:");
	struct span v;

	s.p += strlen("EDAC MC");
	if (text_field_read(p, &mc, (struct span) { s.p, colon }, 10, &r) != KV_OK)
		goto bad;
	if (c) {
		struct span rest = { c + strlen(" channel:"), s.end };

		v = span_token(&rest);
		/* "-1": the core did not know it */
		if (!span_eq(v, "-1") && text_field_read(p, &channel, v, 10, &r) != KV_OK)
			goto bad;
	}
	p->rec = r;
	p->last = p->line;
	return 0;
bad:
	text_reject(p);
	return 0;
}

unsigned text_edac_amd_recognise(const struct mce_text_parser *p, const struct text_line *l,
				 struct span *body)
{
	struct span s = l->tagged;

	if (!s.p) {
		/* unquoted only when a cut line waits for its rest: each rest test
		 * below looks at p->wrap before the line */
		struct span line = text_wrap_edac_amd(p->wrap) ? text_unquote(l->line) : l->line;

		if (is_last_rest(p, line)) {
			*body = line;
			return EDAC_LAST_REST;
		}
		if (p->open == OPEN_EDAC_AMD && is_edac_dimm(l->msg)) {
			*body = l->msg;
			return EDAC_DIMM;
		}

		if (p->wrap == WRAP_EDAC_CPU && is_status_rest(p, line)) {
			*body = line;
			return EDAC_STATUS_REST;
		}
		if (p->wrap == WRAP_EDAC_REG && is_reg_rest(p, line)) {
			*body = line;
			return EDAC_REG_REST;
		}
		return 0;
	}
	*body = s;
	/*
	 * Each of the lines begins with its own byte: every tagged line of
	 * every form comes here, and the kernel console's are settled by it.
	 */
	if (s.p == s.end)
		return 0;
	switch (s.p[0]) {
	case 'C':
		if (span_starts(s, "CPU:"))
			return is_cpu_cut(s) && span_len(text_unquote(l->line)) <= WRAP_COLUMNS ? EDAC_CPU_CUT
										 : EDAC_STATUS;
		return span_starts(s, "Corrected error") ? EDAC_SEVERITY : 0;
	case 'M':
		if (mc_reg(s, "_STATUS", false))
			return EDAC_STATUS;       /* older kernels: no "CPU:n (f:m:s)" before it */
		if (mc_reg(s, "_ADDR:", false) || mc_reg(s, " Error Address:", false))
			return EDAC_REGS;
		return 0;
	case 'U':
		return span_starts(s, "Uncorrected") ? EDAC_SEVERITY : 0;
	case 'D':
		return span_starts(s, "Deferred error") ? EDAC_SEVERITY : 0;
	case 'E':
		return span_starts(s, "Error Addr:") ? EDAC_REGS : 0;
	case 'F':
		return p->open == OPEN_EDAC_AMD && span_starts(s, "FRU Text:") ? EDAC_FRU : 0;
	case 'I':
		return span_starts(s, "IPID:") ? EDAC_REGS : 0;
	case 'P':
		return span_starts(s, "PPIN:") ? EDAC_REGS : 0;
	case 'c':
		return p->open == OPEN_EDAC_AMD && span_starts(s, "cache level:") ? EDAC_LAST : 0;
	case 'b':
		return p->open == OPEN_EDAC_AMD && span_starts(s, "bus error") ? EDAC_LAST : 0;
	default:
		/* decoded text between these lines: see text_kernel_parse() */
		return 0;
	}
}

/* A register line goes into the open record whole, or not at all. */
static int read_regs(struct mce_text_parser *p, struct span s,
		     enum kv_result (*read)(struct mce_text_parser *, struct span, struct mce_record *))
{
	struct mce_record r = p->rec;

	if (read(p, s, &r) != KV_OK) {
		text_reject(p);
		return 0;
	}
	p->rec = r;
	p->last = p->line;
	return 0;
}

int text_edac_amd_parse(struct mce_text_parser *p, const struct text_line *l, unsigned kind,
			struct span body)
{
	int k;

	switch (kind) {
	case EDAC_STATUS:
		/* a severity line may have opened this record already */
		if (!(p->open == OPEN_EDAC_AMD && !(p->rec.have & MCE_HAVE_STATUS))) {
			k = text_begin(p, OPEN_EDAC_AMD, l->have_time, l->time_usec);
			if (k < 0)
				return k;
		}
		return read_regs(p, body, parse_status);
	case EDAC_SEVERITY:
		return text_begin(p, OPEN_EDAC_AMD, l->have_time, l->time_usec);
	case EDAC_REGS: {
		const struct text_field *f;
		struct span head;

		if (p->open != OPEN_EDAC_AMD &&
		    (k = text_begin(p, OPEN_EDAC_AMD, l->have_time, l->time_usec)) < 0)
			return k;
		if (span_len(text_unquote(l->line)) <= WRAP_COLUMNS && (f = cut_key(body, &head))) {
			/* the last key's value went to the next line: wait a line for it */
			k = read_regs(p, head, parse_regs);
			if (p->last == p->line || span_len(head) == 0) {
				p->last = p->line;
				p->wrap = WRAP_EDAC_REG;
				p->wrap_line = p->line;
				p->wrap_len = (unsigned) (f - regs);
			}
			return k;
		}
		return read_regs(p, body, parse_regs);
	}
	case EDAC_LAST:
		p->last = p->line;
		if (span_len(text_unquote(l->line)) <= WRAP_COLUMNS && body.end[-1] == ',') {
			/* cut after a comma: its rest, if it comes, ends the record */
			p->wrap = WRAP_EDAC_LAST;
			p->wrap_line = p->line;
			return 0;
		}
		return text_flush(p);
	case EDAC_LAST_REST:
		p->wrap = WRAP_NONE;
		p->last = p->line;
		return text_flush(p);
	case EDAC_DIMM:
		return parse_dimm(p, body);
	case EDAC_FRU:
		return read_regs(p, body, parse_fru);
	case EDAC_CPU_CUT:
		if (!(p->open == OPEN_EDAC_AMD && !(p->rec.have & MCE_HAVE_STATUS))) {
			k = text_begin(p, OPEN_EDAC_AMD, l->have_time, l->time_usec);
			if (k < 0)
				return k;
		}
		k = read_regs(p, body, parse_cpu);
		if (p->last == p->line) {
			p->wrap = WRAP_EDAC_CPU;
			p->wrap_line = p->line;
			p->wrap_len = (unsigned) span_len(text_unquote(l->line));
		}
		return k;
	case EDAC_STATUS_REST:
		p->wrap = WRAP_NONE;
		return read_regs(p, body, parse_status);
	case EDAC_REG_REST: {
		struct mce_record r = p->rec;
		const struct text_field *f = &regs[p->wrap_len];

		p->wrap = WRAP_NONE;
		if (text_field_read(p, f, body, f->base, &r) != KV_OK) {
			text_reject(p);
			return 0;
		}
		p->rec = r;
		p->last = p->line;
		return 0;
	}
	}
	return 0;
}
