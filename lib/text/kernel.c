/* SPDX-License-Identifier: MIT */
/*
 * The kernel's console lines for a machine check (__print_mce()): "KEY
 * value" lines (kv-line.c) under the hardware-error tag, from the first
 *
 *   mce: [Hardware Error]: CPU 3: Machine Check: 0 Bank 5: bea0000000000108
 *
 * to the last:
 *
 *   mce: [Hardware Error]: PROCESSOR 2:a20f10 TIME 1700000000 SOCKET 0 APIC 6 microcode a201016
 *
 * The same lines copied without their prefixes are read as mcelog's format
 * (mcelog.c), which is where the kernel's came from.
 */
#include "forms.h"

/* The kernel's lines, and the rests of those a console or a mailer wrapped. */
enum kernel_line {
	KERNEL_TAGGED = 1,
	KERNEL_STATUS_REST,
	KERNEL_PROCESSOR_REST,
	KERNEL_EDAC_TEXT_REST,
};

/* The columns consoles and mailers wrap at. */
#define WRAP_COLUMNS 80

static bool is_hex(char c)
{
	return is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

/*
 * The columns line l took on the console, 0 if unknown.  Forum copies
 * squeeze the runs of spaces in printk's "[%5lu.%06lu] " stamp, so its
 * width is counted as the kernel printed it.
 */
static size_t console_width(const struct text_line *l)
{
	struct span line = text_unquote(l->line), s = { line.p, l->msg.p };
	size_t secs = 0, usecs = 0;

	if (s.p == s.end)
		return span_len(line);          /* no prefix */
	if (!span_eat(&s, "["))
		return 0;
	span_skip_space(&s);
	for (; s.p < s.end && is_digit(*s.p); s.p++)
		secs++;
	if (!secs || !span_eat(&s, "."))
		return 0;
	for (; s.p < s.end && is_digit(*s.p); s.p++)
		usecs++;
	if (usecs != 6 || !span_eat(&s, "]"))
		return 0;
	span_skip_space(&s);
	if (s.p != s.end)
		return 0;                       /* a syslog or journal prefix: not a console's line */
	return (secs < 5 ? 5 : secs) + strlen("[.123456] ") + span_len(l->msg);
}

/* The first space-separated word of s, as long as it is. */
static size_t first_word_len(struct span s)
{
	return span_len(span_token(&s));
}

/*
 * Whether s, a whole line, is the rest of the wrapped line before it: only
 * the very next line, with no prefix, and only what the cut left out.
 */
static unsigned wrapped_rest(const struct mce_text_parser *p, struct span s)
{
	if (p->wrap == WRAP_NONE || p->line != p->wrap_line + 1 || span_len(s) == 0)
		return 0;
	switch (p->wrap) {
	case WRAP_STATUS:
		/* the STATUS digits the 80th column cut off, to 16 in all; a
		 * word of that length is taken too, to be named as a bad value */
		if (p->open != OPEN_KERNEL || span_len(s) + p->wrap_len != 16)
			return 0;
		for (const char *c = s.p; c < s.end; c++)
			if (!is_hex(*c) && !is_alpha(*c))
				return 0;
		return KERNEL_STATUS_REST;
	case WRAP_PROCESSOR:
		return p->open == OPEN_KERNEL && span_starts(s, "APIC ") ? KERNEL_PROCESSOR_REST : 0;
	case WRAP_EDAC_TEXT:
		/* the mailer moved words here, the first of which did not fit on
		 * the line before, and they end the decoder's sentence */
		return p->open == OPEN_EDAC_AMD && s.end[-1] == '.' &&
		       !span_find(s, "[Hardware Error") &&
		       p->wrap_len + 1 + first_word_len(s) > WRAP_COLUMNS ? KERNEL_EDAC_TEXT_REST : 0;
	case WRAP_NONE:
	case WRAP_EDAC_CPU:
	case WRAP_EDAC_REG:
	case WRAP_EDAC_LAST:
		break;
	}
	return 0;
}

unsigned text_kernel_recognise(const struct mce_text_parser *p, const struct text_line *l,
			       struct span *body)
{
	unsigned rest;

	*body = l->tagged;
	if (l->tagged.p)
		return KERNEL_TAGGED;
	/* a wrapped line's rest carries no log prefix of its own, only the quoting of a reply */
	if (p->wrap != WRAP_NONE) {
		struct span line = text_unquote(l->line);

		if (l->msg.p == line.p && (rest = wrapped_rest(p, line))) {
			*body = line;
			return rest;
		}
	}
	return 0;
}

int text_kernel_unwrap(struct mce_text_parser *p, struct span s)
{
	if (p->wrap != WRAP_PROCESSOR || wrapped_rest(p, text_unquote(s)))
		return 0;
	/* the record waited for the APIC its PROCESSOR line lost: it ends now */
	p->wrap = WRAP_NONE;
	return text_flush(p);
}

/*
 * The kernel's first line cut at the 80th column inside its STATUS: a
 * logged STATUS has VAL (bit 63) set, so it prints as 16 digits, and one
 * shorter, whose first digit has that bit, at the very end of the line was cut.
 */
static bool status_cut(const struct text_line *l, struct span body, unsigned *digits)
{
	const char *c = body.end, *b;

	/*
	 * Every first line comes here, and nearly all end in a whole STATUS:
	 * when none of the last 16 bytes is below '!' (white space among
	 * them), the last word has 16 bytes or more, told by two loads
	 * rather than a walk back over it.
	 */
	if (span_len(body) >= 16) {
		uint64_t x, y;

		memcpy(&x, body.end - 16, 8);
		memcpy(&y, body.end - 8, 8);
		if (!(bytes8_below_bang(x) | bytes8_below_bang(y)))
			return false;
	}
	while (c > body.p && !is_space(c[-1]))
		c--;
	b = c;
	while (b > body.p && is_space(b[-1]))
		b--;
	/* STATUS is the value right after "Bank B:", and nothing follows it */
	if (body.end - c >= 16 || body.end == c || !(c[0] >= '8' && is_hex(c[0])) ||
	    b == body.p || b[-1] != ':' || console_width(l) != WRAP_COLUMNS)
		return false;
	*digits = (unsigned) (body.end - c);
	return true;
}

/*
 * text_kv_record(), inline in the kernel's form: every line of a kernel
 * log comes through it, and with its form and end known the call and
 * their tests go.
 */
static inline __attribute__((always_inline)) int
kv_record(struct mce_text_parser *p, const struct text_line *l, struct span body,
	  enum open_record open, bool end_at_processor)
{
	/*
	 * A line of the open record is read into it in place, with the
	 * record as it was kept aside: most lines are good, and then that
	 * copy is all the line costs of the record's size.  Any other line
	 * is read into a record of its own.
	 */
	bool in_place = p->open == open;
	struct mce_record r;          /* in place: the open record before the line; else the line's */
	struct kv_line info;
	enum kv_result res;
	int k;

	if (in_place)
		r = p->rec;
	else
		r = (struct mce_record) { 0 };
	res = text_kv_line(p, body, in_place ? &p->rec : &r, &info);
	if (res != KV_OK && in_place)
		p->rec = r;               /* nothing of a bad line is kept */
	/*
	 * The kernel's noise, as text_kernel_parse() left it to be told
	 * here: a line read whole as pairs cannot be it, so most lines are
	 * not searched for it.
	 */
	if (open == OPEN_KERNEL && (res != KV_OK || info.unchecked) && text_kernel_logged(body)) {
		if (res == KV_OK && in_place)
			p->rec = r;
		return 0;
	}
	if (res == KV_NOT_OURS) {
		/*
		 * Free text.  The AMD EDAC decoder prints its decoded text
		 * between its register lines, under the same tag.
		 */
		if (p->open == OPEN_EDAC_AMD) {
			p->last = p->line;
			/* a mailer may have moved the end of its sentence to the next line */
			size_t width = span_len(text_unquote(l->line));

			if (width <= WRAP_COLUMNS && body.end[-1] != '.') {
				p->wrap = WRAP_EDAC_TEXT;
				p->wrap_line = p->line;
				p->wrap_len = (unsigned) width;
			}
		}
		return 0;
	}
	if (res == KV_BAD) {
		text_reject(p);
		return 0;
	}
	if (in_place && info.names_cpu) {
		/* a CPU line ends the open record as it was, and begins one
		 * with what it had and the line's values */
		struct mce_record both = p->rec;

		p->rec = r;
		k = text_begin(p, open, l->have_time, l->time_usec);
		if (k < 0)
			return k;
		p->rec = both;
	} else if (!in_place) {
		if (!info.names_cpu) {
			/* a continuation line whose first line we never saw */
			r = (struct mce_record) { 0 };
			(void) text_kv_line(p, body, &r, &info);
		}
		k = text_begin_with(p, open, l->have_time, l->time_usec, &r);
		if (k < 0)
			return k;
	}
	p->last = p->line;
	if (open == OPEN_KERNEL && info.kernel_first && status_cut(l, body, &p->wrap_len)) {
		p->wrap = WRAP_STATUS;
		p->wrap_line = p->line;
	}
	if (info.processor && end_at_processor) {
		if (open == OPEN_KERNEL && !(p->rec.have & MCE_HAVE_APICID) &&
		    console_width(l) == WRAP_COLUMNS) {
			/* cut at the 80th column before its APIC: wait a line for it */
			p->wrap = WRAP_PROCESSOR;
			p->wrap_line = p->line;
			return 0;
		}
		return text_flush(p);     /* the kernel's last line of a record */
	}
	return 0;
}

int text_kv_record(struct mce_text_parser *p, const struct text_line *l, struct span body,
		   enum open_record open, bool end_at_processor)
{
	return kv_record(p, l, body, open, end_at_processor);
}

/* The rest of a wrapped line: read into the open record, whole or not at all. */
static int read_rest(struct mce_text_parser *p, unsigned kind, struct span body)
{
	struct mce_record r = p->rec;
	struct kv_line info;
	uint64_t v;

	p->wrap = WRAP_NONE;
	switch (kind) {
	case KERNEL_STATUS_REST:
		if (text_num(p, "STATUS", body, 16, UINT64_MAX, &v) != KV_OK) {
			/* half a STATUS would read as another error: none is read */
			p->rec.have &= ~MCE_HAVE_STATUS;
			text_reject(p);
			return 0;
		}
		p->rec.status = p->rec.status << (4 * span_len(body)) | v;
		p->last = p->line;
		return 0;
	case KERNEL_PROCESSOR_REST:
		if (text_kv_line(p, body, &r, &info) != KV_OK || info.names_cpu || info.processor) {
			if (info.names_cpu || info.processor)
				(void) text_bad(p, "expected the rest of the PROCESSOR line: 'APIC a microcode m'");
			text_reject(p);
		} else {
			p->rec = r;
			p->last = p->line;
		}
		return text_flush(p);
	case KERNEL_EDAC_TEXT_REST:
		p->last = p->line;
		return 0;
	}
	return 0;
}

int text_kernel_parse(struct mce_text_parser *p, const struct text_line *l, unsigned kind,
		      struct span body)
{
	if (kind != KERNEL_TAGGED)
		return read_rest(p, kind, body);
	/* the rest of the noise check is in text_kv_record(), after the line is read */
	if (text_kernel_noise_head(body))
		return 0;
	return kv_record(p, l, body, OPEN_KERNEL, true);
}
