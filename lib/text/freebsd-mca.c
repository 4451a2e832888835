/* SPDX-License-Identifier: MIT */
/*
 * FreeBSD's machine-check lines (sys/x86/x86/mca.c, mca_log()), on the
 * console and in /var/log/messages:
 *
 *   MCA: Bank 1, Status 0x9400000000000151
 *   MCA: Global Cap 0x0000000000000106, Status 0x0000000000000000
 *   MCA: Vendor "AuthenticAMD", ID 0x730f01, APIC ID 0
 *   MCA: CPU 0 COR ICACHE L1 IRD error
 *   MCA: Address 0x282060
 *   MCA: Misc 0x...
 *
 * one bank's record: the bank and its STATUS, MCG_CAP and MCG_STATUS, the
 * CPUID vendor string and signature (CPUID(1).EAX) with the APIC ID, the
 * logical CPU and FreeBSD's own decode of STATUS, then ADDR and MISC, each
 * printed only when STATUS says it is valid (ADDRV, bit 58; MISCV, bit 59;
 * Intel SDM Vol. 3B, 16.3.2.2).  This layout has held since FreeBSD 8;
 * FreeBSD 7 printed only "MCA: bank N, status 0x..." (lower case), then
 * "MCA: CPU N ..." whose N is the APIC ID, and the Address line.
 *
 * The decode after "CPU N" is FreeBSD's reading of STATUS, not a register:
 * passed over.  Mailers wrap the Global Cap line, the longest, after its
 * comma (freebsd-stable, 2011-10): its rest, "Status 0x...", is read on the
 * next line only.  A record ends at its last line (which STATUS's valid bits
 * tell), so a console line between two records does not join them.  Lines
 * out of that order, or with a bad value, are errors.
 */
#include <stdarg.h>
#include <stdio.h>

#include "forms.h"

enum fbsd_line {
	BANK = 1,     /* MCA: Bank N, Status 0x... */
	BANK_OLD,     /* FreeBSD 7: MCA: bank N, status 0x... */
	GLOBAL,       /* MCA: Global Cap 0x..., Status 0x... */
	VENDOR,       /* MCA: Vendor "...", ID 0x..., APIC ID N */
	CPU,          /* MCA: CPU N <FreeBSD's decode> */
	ADDRESS,      /* MCA: Address 0x... */
	MISC,         /* MCA: Misc 0x... */
	GLOBAL_CUT,   /* MCA: Global Cap 0x...,  (a mailer wrapped the line there) */
	GLOBAL_REST,  /* Status 0x...  (its rest, on the next line) */
	LINE_COUNT,
};

/* p->step: the line read last in the open record, and whether it is FreeBSD 7's */
#define STEP_OLD 0x100u

/* A value after its lead text, up to stop or the end of the line. */
struct fbsd_field {
	const char *lead;
	const char *key;     /* names it in messages */
	int base;            /* 10, or 16 with "0x" */
	uint64_t max;
	char stop;
};

static const struct {
	const char *head;        /* after "MCA: " */
	const char *name;        /* the line, in messages */
	struct fbsd_field f[3];
	unsigned n;
	bool free_rest;          /* FreeBSD's decode follows the fields */
} layout[LINE_COUNT] = {
	/* MCG_CAP's count is 8 bits (SDM Vol. 3B, 16.3.1.1) */
	[BANK] = { "Bank ", "MCA: Bank", { { "", "bank", 10, 255, ',' },
		{ ", Status ", "STATUS", 16, UINT64_MAX, 0 } }, 2, false },
	[BANK_OLD] = { "bank ", "MCA: bank", { { "", "bank", 10, 255, ',' },
		{ ", status ", "STATUS", 16, UINT64_MAX, 0 } }, 2, false },
	[GLOBAL] = { "Global Cap ", "MCA: Global Cap", { { "", "MCG_CAP", 16, UINT64_MAX, ',' },
		{ ", Status ", "MCG_STATUS", 16, UINT64_MAX, 0 } }, 2, false },
	/* after the quoted vendor string */
	[VENDOR] = { "Vendor ", "MCA: Vendor", { { ", ID ", "ID", 16, UINT32_MAX, ',' },
		{ ", APIC ID ", "APIC ID", 10, UINT32_MAX, 0 } }, 2, false },
	[CPU] = { "CPU ", "MCA: CPU", { { "", "CPU", 10, UINT32_MAX, ' ' } }, 1, true },
	[ADDRESS] = { "Address ", "MCA: Address", { { "", "Address", 16, UINT64_MAX, 0 } }, 1, false },
	[MISC] = { "Misc ", "MCA: Misc", { { "", "Misc", 16, UINT64_MAX, 0 } }, 1, false },
	/* its comma taken off */
	[GLOBAL_CUT] = { "Global Cap ", "MCA: Global Cap (cut after its comma)",
		{ { "", "MCG_CAP", 16, UINT64_MAX, 0 } }, 1, false },
	[GLOBAL_REST] = { "Status ", "MCA: Global Cap's rest", { { "", "MCG_STATUS", 16, UINT64_MAX, 0 } },
		1, false },
};

static bool in_record(const struct mce_text_parser *p)
{
	return p->open == OPEN_FREEBSD_MCA;
}

/*
 * Console text that ran into the front of the line: the kernel prints at
 * the start of no line of its own when getty's prompt waits there, so the
 * console shows "login: MCA: Bank 1, Status 0x...".  Only a prompt is
 * taken: one or two words ("login:", "host login:", "Password:") whose
 * last ends with ':', then "MCA: ".  This runs on every line: a prompt
 * begins with a letter and a lowercase one, which turns away the capital
 * words mcelog's and the kernel's lines begin with ("CPU", "STATUS",
 * "ADDR") at their second byte; then the first ':' is found by memchr()
 * in the prompt's 40 bytes, and "MCA: " must follow it before the words
 * are looked at.
 */
static bool skip_run_in(struct span *s)
{
	size_t n = span_len(*s) < 40 ? span_len(*s) : 40;
	const char *colon, *c;
	unsigned words = 1;

	if (n < 2 || !is_alpha(s->p[0]) || (unsigned char) (s->p[1] - 'a') > 'z' - 'a' ||
	    !(colon = memchr(s->p, ':', n)))
		return false;
	for (c = colon + 1; c < s->end && *c == ' '; c++)
		;
	if (s->end - c < 5 || memcmp(c, "MCA: ", 5) != 0 || colon[-1] == ' ')
		return false;
	for (const char *w = s->p; w < colon; w++)
		if (*w == ' ' ? ++words > 2 || w[-1] == ' '
			      : !is_alpha(*w) && !is_digit(*w) && *w != '-' && *w != '.' && *w != '_')
			return false;
	s->p = c;
	return true;
}

unsigned text_freebsd_mca_recognise(const struct mce_text_parser *p, const struct text_line *l,
				    struct span *body)
{
	struct span s = l->msg;
	unsigned kind;

	/* a few instructions for everybody else's lines: this runs on every line */
	if (s.p[0] != 'M') {
		/* the rest of a Global Cap line a mailer wrapped after its comma */
		if (s.p[0] == 'S' && in_record(p) && (p->step & ~STEP_OLD) == GLOBAL_CUT &&
		    p->line == p->last + 1 && span_eat(&s, "Status "))
			return *body = s, GLOBAL_REST;
		/* periodic(8)'s security mail marks the kernel's new lines with '+' */
		if (s.p[0] == '+')
			s.p++;
		else if (!skip_run_in(&s))
			return 0;
	}
	if (!span_eat(&s, "MCA: ") || s.p == s.end)
		return 0;
	switch (s.p[0]) {
	case 'B': kind = BANK; break;
	case 'b': kind = BANK_OLD; break;
	case 'G':
		/* "MCA: Global Cap 0x...," alone: a mailer cut it after the comma */
		kind = s.end[-1] == ',' ? GLOBAL_CUT : GLOBAL;
		break;
	case 'V': kind = VENDOR; break;
	case 'C': kind = CPU; break;
	case 'A': kind = ADDRESS; break;
	case 'M': kind = MISC; break;
	default: return 0;
	}
	if (!span_eat_n(&s, layout[kind].head, strlen(layout[kind].head)))
		return 0;
	/* mcelog's decoded output has "MCA: <its decode>" lines of its own */
	if (kind > BANK_OLD && p->open == OPEN_MCELOG_DECODED)
		return 0;
	*body = s;
	return kind;
}

/* The fields of a line of kind, into v[]; false when the line was rejected. */
static bool read_fields(struct mce_text_parser *p, unsigned kind, struct span s, uint64_t *v)
{
	char buf[48];

	for (unsigned i = 0; i < layout[kind].n; i++) {
		const struct fbsd_field *f = &layout[kind].f[i];
		struct span t;
		const char *end;

		if (!span_eat_n(&s, f->lead, strlen(f->lead))) {
			text_reject_with(p, "%s: expected '%s%s', got '%s'", layout[kind].name, f->lead,
					 f->base == 16 ? "0x..." : "N", span_show(s, buf, sizeof(buf)));
			return false;
		}
		end = f->stop ? memchr(s.p, f->stop, span_len(s)) : NULL;
		t = (struct span) { s.p, end ? end : s.end };
		s.p = t.end;
		if ((f->base == 16 ? text_hex_0x(p, f->key, t, f->max, &v[i])
				   : text_num(p, f->key, t, 10, f->max, &v[i])) != KV_OK) {
			text_reject(p);
			return false;
		}
	}
	if (s.p != s.end && !layout[kind].free_rest) {
		text_reject_with(p, "%s: expected the end of the line, got '%s'", layout[kind].name,
				 span_show(s, buf, sizeof(buf)));
		return false;
	}
	return true;
}

/* "\"<vendor>\"": the CPUID vendor string, s past it. */
static bool read_vendor(struct mce_text_parser *p, struct span *s, struct mce_record *r)
{
	const char *q = span_len(*s) > 1 && s->p[0] == '"' ? memchr(s->p + 1, '"', span_len(*s) - 1) : NULL;
	char name[20], buf[48];   /* FreeBSD's cpu_vendor[20] */
	size_t n;

	if (!q || (n = (size_t) (q - s->p - 1)) >= sizeof(name)) {
		text_reject_with(p, "MCA: Vendor: expected a quoted CPUID vendor string, got '%s'",
				 span_show(*s, buf, sizeof(buf)));
		return false;
	}
	memcpy(name, s->p + 1, n);
	name[n] = '\0';
	/* an unknown vendor string is no error: the record has no vendor */
	r->vendor = mce_vendor_from_string(name);
	if (r->vendor != MCE_VENDOR_UNKNOWN)
		r->have |= MCE_HAVE_VENDOR;
	s->p = q + 1;
	return true;
}

/* The line that must come before one of kind in the open record. */
static unsigned expected_before(const struct mce_text_parser *p, unsigned kind)
{
	switch (kind) {
	case GLOBAL:
	case GLOBAL_CUT:
		return BANK;
	case GLOBAL_REST:
		return GLOBAL_CUT;
	case VENDOR:
		return GLOBAL;
	case CPU:
		return p->step & STEP_OLD ? BANK_OLD : VENDOR;
	case ADDRESS:
		return CPU;
	default:
		return p->rec.status & TEXT_STATUS_ADDRV ? ADDRESS : CPU;
	}
}

/* Whether the record's last line was just read: ADDR and MISC come only when valid. */
static bool complete(const struct mce_text_parser *p, unsigned kind)
{
	uint64_t st = p->rec.status;

	return kind == MISC || (kind == ADDRESS && !(st & TEXT_STATUS_MISCV)) ||
	       (kind == CPU && !(st & (TEXT_STATUS_ADDRV | TEXT_STATUS_MISCV)));
}

static int parse_bank(struct mce_text_parser *p, const struct text_line *l, unsigned kind, struct span s)
{
	uint64_t v[2];
	int k;

	if (!read_fields(p, kind, s, v))
		return 0;
	if ((k = text_begin(p, OPEN_FREEBSD_MCA, l->have_time, l->time_usec)) < 0)
		return k;
	p->rec.bank = (uint32_t) v[0];
	p->rec.status = v[1];
	p->rec.have |= MCE_HAVE_BANK | MCE_HAVE_STATUS;
	p->step = kind | (kind == BANK_OLD ? STEP_OLD : 0);
	return 0;
}

int text_freebsd_mca_parse(struct mce_text_parser *p, const struct text_line *l, unsigned kind,
			   struct span body)
{
	struct mce_record r;
	uint64_t v[2];
	unsigned want;

	if (kind == BANK || kind == BANK_OLD)
		return parse_bank(p, l, kind, body);
	if (!in_record(p))
		return text_reject_with(p, "%s: expected an 'MCA: Bank' line before it", layout[kind].name);
	if ((kind == ADDRESS && !(p->rec.status & TEXT_STATUS_ADDRV)) ||
	    (kind == MISC && !(p->rec.status & TEXT_STATUS_MISCV)))
		return text_reject_with(p, "%s: STATUS 0x%016llx has no %s", layout[kind].name,
					(unsigned long long) p->rec.status, kind == ADDRESS ? "ADDRV" : "MISCV");
	want = expected_before(p, kind);
	if ((p->step & ~STEP_OLD) != want)
		return text_reject_with(p, "%s: expected after '%s', not after '%s'", layout[kind].name,
					layout[want].name, layout[p->step & ~STEP_OLD].name);
	/* a copy: a line rejected half read leaves the record as it was */
	r = p->rec;
	if (kind == VENDOR && !read_vendor(p, &body, &r))
		return 0;
	if (kind == GLOBAL_CUT)
		body.end--;
	if (!read_fields(p, kind, body, v))
		return 0;
	switch (kind) {
	case GLOBAL:
		r.mcgcap = v[0], r.mcgstatus = v[1];
		r.have |= MCE_HAVE_MCGCAP | MCE_HAVE_MCGSTATUS;
		break;
	case GLOBAL_CUT:
		r.mcgcap = v[0], r.have |= MCE_HAVE_MCGCAP;
		break;
	case GLOBAL_REST:
		r.mcgstatus = v[0], r.have |= MCE_HAVE_MCGSTATUS;
		kind = GLOBAL;    /* the line is whole now */
		break;
	case VENDOR:
		mce_record_set_cpuid(&r, (uint32_t) v[0]);
		r.apicid = (uint32_t) v[1];
		r.have |= MCE_HAVE_APICID;
		break;
	case CPU:
		/* FreeBSD 7 printed the APIC ID there */
		if (p->step & STEP_OLD)
			r.apicid = (uint32_t) v[0], r.have |= MCE_HAVE_APICID;
		else
			r.cpu = (uint32_t) v[0], r.have |= MCE_HAVE_CPU;
		break;
	case ADDRESS:
		r.addr = v[0], r.have |= MCE_HAVE_ADDR;
		break;
	default:
		r.misc = v[0], r.have |= MCE_HAVE_MISC;
		break;
	}
	p->rec = r;
	p->last = p->line;
	p->step = kind | (p->step & STEP_OLD);
	return complete(p, kind) ? text_flush(p) : 0;
}
