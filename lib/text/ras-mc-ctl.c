/* SPDX-License-Identifier: MIT */
/*
 * ras-mc-ctl --errors: a heading, then a record a row,
 *
 *   1 2023-11-20 10:05:00 +0000 error: Corrected error, bank Memory Controller, ...,
 *     status=0x8c00004000010091, ..., cpu=0x0000000c, cpuid=0x00050654, ...
 *
 * with the fields of ras-fields.c.
 */
#include "forms.h"
#include "parse-number.h"

enum ras_mc_ctl_line {
	ROW = 1,
	HEADING,              /* "MCE events:", or none */
};

/* "CPU n" (the X86_VENDOR_* number, omitted when 0 = Intel). */
static void parse_vendor(struct span s, struct mce_record *r)
{
	const char *c = span_find(s, ", CPU ");
	uint64_t v = 0;

	if (!(r->have & MCE_HAVE_CPUID))
		return;         /* no cpuid column: the vendor alone does not help */
	if (c) {
		struct span t = { c + 6, s.end };

		t = span_token(&t);
		if (span_len(t) > 0 && t.end[-1] == ',')
			t.end--;
		if (parse_unsigned(t.p, span_len(t), 10, UINT32_MAX, &v) < 0)
			return;
	}
	r->vendor = mce_vendor_from_linux_x86((unsigned) v);
	r->have |= MCE_HAVE_VENDOR;
}

unsigned text_ras_mc_ctl_recognise(const struct mce_text_parser *p, const struct text_line *l,
				   struct span *body)
{
	struct span s = l->msg;

	(void) p;
	(void) body;
	/* "<id> <date> <time> <zone> error: ..., status=0x..." */
	if (is_digit(*s.p) && span_find(s, " error: ") && span_find(s, "status="))
		return ROW;
	if (span_eq(s, "MCE events:") || span_eq(s, "No MCE errors."))
		return HEADING;
	return 0;
}

int text_ras_mc_ctl_parse(struct mce_text_parser *p, const struct text_line *l, unsigned kind,
			  struct span body)
{
	struct mce_record r = { 0 };

	if (kind == HEADING)
		return 0;
	if (text_ras_fields(p, body, &r, true) != KV_OK) {
		text_reject(p);
		return 0;
	}
	parse_vendor(body, &r);
	return text_single(p, &r, l->have_time, l->time_usec);
}
