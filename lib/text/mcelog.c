/* SPDX-License-Identifier: MIT */
/*
 * mcelog's text: its --ascii input format, "KEY value" lines (kv-line.c)
 * with '#' comments,
 *
 *   CPU 0 BANK 2
 *   STATUS 0x8800000000000080
 *
 * and its own decoded output, a block opened by "Hardware event. This is
 * not a software error." in which those lines come between decoded text.
 * The kernel's console lines without their prefixes read the same way.
 *
 * Last in the form table: it takes any line, and says which it cannot read.
 */
#include "forms.h"

enum mcelog_line {
	COMMENT = 1,
	LINE,
};

/*
 * A line that opens a record of mcelog's output: its banner, the older
 * versions' banner, or "MCE <n>", which older versions began with.
 */
static bool decoded_head(struct span s)
{
	struct span t;

	if (span_starts(s, "Hardware event. This is not a software error") ||
	    span_starts(s, "HARDWARE ERROR. This is *NOT* a software problem"))
		return true;
	if (!span_eat(&s, "MCE "))
		return false;
	t = span_token(&s);
	span_skip_space(&s);
	for (const char *c = t.p; c < t.end; c++)
		if (!is_digit(*c))
			return false;
	return span_len(t) > 0 && s.p == s.end;
}

unsigned text_mcelog_recognise(const struct mce_text_parser *p, const struct text_line *l,
			       struct span *body)
{
	(void) p;
	(void) body;
	return l->msg.p[0] == '#' ? COMMENT : LINE;
}

int text_mcelog_parse(struct mce_text_parser *p, const struct text_line *l, unsigned kind,
		      struct span s)
{
	struct mce_record r;
	struct kv_line info;
	enum kv_result res;
	int k;
	bool decoded = p->open == OPEN_MCELOG_DECODED;

	if (kind == COMMENT)
		return 0;
	if (decoded_head(s)) {
		/* "Hardware event..." then "MCE 0" head one record, not two */
		if (decoded && p->rec.have == 0)
			return 0;
		return text_begin(p, OPEN_MCELOG_DECODED, l->have_time, l->time_usec);
	}

	r = (p->open == OPEN_MCELOG || decoded || p->open == OPEN_KERNEL) ? p->rec
									 : (struct mce_record) { 0 };
	res = text_kv_line(p, s, &r, &info);
	if (res == KV_NOT_OURS) {
		if (decoded || l->prefixed || text_kernel_noise(s) || span_starts(s, "mcelog:") ||
		    span_starts(s, "Running trigger") || text_macos_report_text(p, s))
			return 0;       /* mcelog's decoded text, another log line, a panic report's */
		{
			char buf[64];

			text_diag(p, MCE_TEXT_UNKNOWN, p->line, "not a machine-check record line: '%s'",
				  span_show(s, buf, sizeof(buf)));
		}
		return 0;
	}
	if (res == KV_BAD) {
		/* In mcelog's decoded output a keyword may start free text; don't judge it. */
		if (!decoded)
			text_reject(p);
		return 0;
	}
	if (info.names_cpu) {
		bool same = decoded && !(p->rec.have & (MCE_HAVE_CPU | MCE_HAVE_BANK));

		/* a new CPU line ends the previous record (mcelog would merge them) */
		if (!same) {
			enum open_record f = info.kernel_first ? OPEN_KERNEL : OPEN_MCELOG;
			struct mce_record keep = r;

			if (p->open != OPEN_NONE) {
				/* r was built on top of the old record: rebuild from scratch */
				keep = (struct mce_record) { 0 };
				(void) text_kv_line(p, s, &keep, &info);
			}
			if ((k = text_begin(p, f, l->have_time, l->time_usec)) < 0)
				return k;
			r = keep;
		}
	} else if (p->open == OPEN_NONE) {
		if ((k = text_begin(p, OPEN_MCELOG, l->have_time, l->time_usec)) < 0)
			return k;
	}
	p->rec = r;
	p->last = p->line;
	if (info.processor && p->open == OPEN_KERNEL)
		return text_flush(p);
	return 0;
}
