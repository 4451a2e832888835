/* SPDX-License-Identifier: MIT */
/*
 * Old kernels' machine-check text, as panic screens, wall messages and
 * old logs show it: a head line naming the CPU,
 *
 *   CPU 0: Machine Check Exception: 0000000000000004
 *   MCE: The hardware reports a non fatal, correctable incident occured on CPU 0.
 *
 * (the exception handler's, and the corrected-error poller's), then one
 * line per bank that logged an error, MISC in brackets and ADDR after
 * "at" when the bank had them valid:
 *
 *   Bank 4: b604a00100000813 at 000000007e4f2f68
 *   Bank 1: f200000000000863[0000000000000000] at 000000001fd3a000
 *
 * Each bank line is one record; they share the head's CPU and MCGSTATUS.
 * A bank line with no head before it is a record of its own.  The newer
 * one-line head ("... Exception: 5 Bank 4: b2...") is the kernel's form
 * (kernel.c, mcelog.c).
 *
 * Copies typed by hand drop the space ("CPU0:", "Bank0:"), and a log level
 * cut in half leaves a lone '<' before "Bank": both are read here, in these
 * old forms only, where the rest of the line still has to match exactly.
 */
#include "forms.h"

enum panic_line {
	HEAD = 1,
	POLLER,
	BANK,
	POLLER_WRAPPED,       /* the poller's head cut after "occured on" by a mailer */
	POLLER_CPU,           /* ... and its "CPU n." on the next line */
};

#define POLLER_TEXT "MCE: The hardware reports a non fatal, correctable incident occur"

/* The poller's head up to the CPU number, 0 if not.  The kernel printed "occured";
 * copies retyped since have it right: both. */
static size_t poller_head(struct span s)
{
	struct span t = s;

	if (!span_eat(&t, POLLER_TEXT))
		return 0;
	(void) span_eat(&t, "r");
	if (!span_eat(&t, "ed on CPU "))
		return 0;
	return (size_t) (t.p - s.p);
}

/* The poller's head with the line ending after "occured on": the CPU comes next. */
static bool poller_head_wrapped(struct span s)
{
	if (!span_eat(&s, POLLER_TEXT))
		return false;
	(void) span_eat(&s, "r");
	return span_eat(&s, "ed on") && s.p == s.end;
}

/*
 * "CPU n." right under a wrapped poller head, and only there: the head is
 * open, names no CPU yet, and no bank line came between.
 */
static bool is_wrapped_cpu(const struct mce_text_parser *p, struct span s)
{
	if (p->open != OPEN_PANIC || (p->rec.have & MCE_HAVE_CPU) || p->emitted ||
	    p->last + 1 != p->line || !span_eat(&s, "CPU "))
		return false;
	if (s.p == s.end || !is_digit(s.p[0]))
		return false;
	while (s.p < s.end && is_digit(s.p[0]))
		s.p++;
	return span_eat(&s, ".") && s.p == s.end;
}

static struct span panic_body(const struct text_line *l)
{
	return l->tagged.p ? l->tagged : l->msg;
}

/* Past "WORD " or "WORDn" (hand-typed, no space): at the number; false if neither. */
static inline __attribute__((always_inline)) bool eat_word_number(struct span *s, const char *word)
{
	struct span t = *s;

	if (!span_eat(&t, word))
		return false;
	(void) span_eat(&t, " ");
	if (t.p == t.end || !is_digit(t.p[0]))
		return false;
	*s = t;
	return true;
}

/* "CPU n: Machine Check Exception[: MCGSTATUS]" with nothing after it. */
static bool is_head(struct span s)
{
	struct span t;

	if (!eat_word_number(&s, "CPU"))
		return false;
	t = span_token(&s);
	if (span_len(t) < 2 || t.end[-1] != ':' || !is_digit(t.p[0]))
		return false;
	span_skip_space(&s);
	if (!span_eat(&s, "Machine Check Exception"))
		return false;
	if (s.p == s.end)
		return true;
	if (!span_eat(&s, ":"))
		return false;
	(void) span_token(&s);
	span_skip_space(&s);
	return s.p == s.end;          /* "... Bank b: status" follows: the kernel's form */
}

unsigned text_panic_recognise(const struct mce_text_parser *p, const struct text_line *l,
			      struct span *body)
{
	struct span s = panic_body(l);

	/*
	 * Each of the lines begins with its own byte ('<' or 'B' a bank line,
	 * 'M' the poller's head, 'C' the exception's head or a wrapped CPU):
	 * every line of every form comes here first, and most are settled by
	 * it.  The body is narrowed for the forms' lines only.
	 */
	if (s.p == s.end)
		return 0;
	switch (s.p[0]) {
	case '<':
	case 'B': {
		struct span u, t;

		if (span_starts(s, "<Bank"))
			s.p++;
		*body = s;
		u = s;
		if (!eat_word_number(&u, "Bank"))
			return 0;
		t = span_token(&u);
		return span_len(t) >= 2 && t.end[-1] == ':' ? BANK : 0;
	}
	case 'M':
		*body = s;
		if (poller_head(s))
			return POLLER;
		return poller_head_wrapped(s) ? POLLER_WRAPPED : 0;
	case 'C':
		*body = s;
		if (is_wrapped_cpu(p, s))
			return POLLER_CPU;
		return is_head(s) ? HEAD : 0;
	default:
		return 0;
	}
}

static int parse_head(struct mce_text_parser *p, const struct text_line *l, unsigned kind,
		      struct span s)
{
	struct mce_record r = { 0 };
	struct span t;
	uint64_t v;
	int k;

	if (kind == POLLER_WRAPPED)
		return text_begin(p, OPEN_PANIC, l->have_time, l->time_usec);
	if (kind == POLLER_CPU) {
		t = (struct span) { s.p + strlen("CPU "), s.end - 1 };
		if (text_num(p, "CPU", t, 10, UINT32_MAX, &v) != KV_OK) {
			text_reject(p);
			return 0;
		}
		p->rec.cpu = (uint32_t) v;
		p->rec.have |= MCE_HAVE_CPU;
		p->last = p->line;
		return 0;
	}
	if (kind == POLLER) {
		s.p += poller_head(s);
		t = span_token(&s);
		if (span_len(t) > 0 && t.end[-1] == '.')
			t.end--;
	} else {
		(void) eat_word_number(&s, "CPU");
		t = span_token(&s);
		t.end--;                      /* its ':' */
	}
	if (text_num(p, "CPU", t, 10, UINT32_MAX, &v) != KV_OK) {
		text_reject(p);
		return 0;
	}
	r.cpu = (uint32_t) v;
	r.have |= MCE_HAVE_CPU;
	if (kind == HEAD) {
		span_skip_space(&s);
		(void) span_eat(&s, "Machine Check Exception");
		if (span_eat(&s, ":")) {
			if (text_num(p, "MCGSTATUS", span_token(&s), 16, UINT64_MAX, &v) != KV_OK) {
				text_reject(p);
				return 0;
			}
			r.mcgstatus = v;
			r.have |= MCE_HAVE_MCGSTATUS;
		}
	}
	if ((k = text_begin(p, OPEN_PANIC, l->have_time, l->time_usec)) < 0)
		return k;
	p->rec = r;
	return 0;
}

/* "Bank b: STATUS[[MISC]][ at ADDR]" into *r. */
static enum kv_result read_bank(struct mce_text_parser *p, struct span s, struct mce_record *r)
{
	struct span t, misc = { NULL, NULL };
	const char *br;
	uint64_t v;
	char buf[48];

	/* 2.2/2.4 printed the bank line without its newline: the panic's own
	 * "<0>Kernel panic: ..." follows on the same line, level and all */
	for (const char *c = s.p; c + 2 < s.end; c++)
		if (c[0] == '<' && is_digit(c[1]) && c[2] == '>') {
			s.end = c;
			break;
		}
	bool typed = !span_starts(s, "Bank ");

	(void) eat_word_number(&s, "Bank");
	t = span_token(&s);
	t.end--;
	if (text_num(p, "Bank", t, 10, UINT32_MAX, &v) != KV_OK)
		return KV_BAD;
	r->bank = (uint32_t) v;
	t = span_token(&s);
	if ((br = memchr(t.p, '[', span_len(t)))) {
		/* printed right after STATUS, no space between */
		if (t.end[-1] != ']')
			return text_bad(p, "Bank %u: expected STATUS[MISC]", r->bank);
		misc = (struct span) { br + 1, t.end - 1 };
		t.end = br;
	}
	/* "Bank0:" is only a retyped kernel line if STATUS is the kernel's 16 digits */
	if (typed && span_len(t) != 16)
		return text_bad(p, "Bank%u: expected STATUS as 16 hex digits", r->bank);
	if (text_num(p, "STATUS", t, 16, UINT64_MAX, &r->status) != KV_OK)
		return KV_BAD;
	if (misc.p) {
		if (text_num(p, "MISC", misc, 16, UINT64_MAX, &r->misc) != KV_OK)
			return KV_BAD;
		r->have |= MCE_HAVE_MISC;
	}
	t = span_token(&s);
	if (span_eq(t, "at")) {
		if (text_num(p, "ADDR", span_token(&s), 16, UINT64_MAX, &r->addr) != KV_OK)
			return KV_BAD;
		r->have |= MCE_HAVE_ADDR;
		t = span_token(&s);
	}
	if (span_len(t) > 0)
		return text_bad(p, "Bank %u: unexpected '%s' after STATUS", r->bank,
				span_show(t, buf, sizeof(buf)));
	r->have |= MCE_HAVE_BANK | MCE_HAVE_STATUS;
	return KV_OK;
}

/* A bank line: one record, under the open head if there is one. */
static int parse_bank(struct mce_text_parser *p, const struct text_line *l, struct span s)
{
	struct mce_record r = { 0 };

	if (p->open == OPEN_PANIC) {
		/* the head's CPU and MCGSTATUS, for every bank under it */
		r.have = p->rec.have & (MCE_HAVE_CPU | MCE_HAVE_MCGSTATUS);
		r.cpu = p->rec.cpu;
		r.mcgstatus = p->rec.mcgstatus;
	}
	if (read_bank(p, s, &r) != KV_OK) {
		text_reject(p);
		return 0;
	}
	if (p->open == OPEN_PANIC)
		return text_emit_part(p, &r);
	return text_single(p, &r, l->have_time, l->time_usec);
}

int text_panic_parse(struct mce_text_parser *p, const struct text_line *l, unsigned kind,
		     struct span body)
{
	if (kind == BANK)
		return parse_bank(p, l, body);
	return parse_head(p, l, kind, body);
}
