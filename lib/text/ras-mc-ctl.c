/* SPDX-License-Identifier: MIT */
/*
 * ras-mc-ctl --errors: a heading, then a record a row,
 *
 *   1 2023-11-20 10:05:00 +0000 error: Corrected error, bank Memory Controller, ...,
 *     status=0x8c00004000010091, ..., cpu=0x0000000c, cpuid=0x00050654, ...
 *
 * with the fields of ras-fields.c.  The row begins with its id and the
 * local time rasdaemon stamped ("1 .." when it had none).  Decoded text
 * with newlines in it (Intel memory-controller records) spreads a row over
 * several lines; they are read into the row until the next row, a blank
 * line, or the "bank=" column, which ras-mc-ctl prints last.
 */
#include <stdio.h>

#include "forms.h"
#include "parse-number.h"
#include "rfc3339.h"

enum ras_mc_ctl_line {
	ROW = 1,
	CONTINUATION,         /* the rest of a row whose decoded text had newlines */
	HEADING,              /* "MCE events:", "No ... errors." for an empty table, --summary's lines */
};

/* "CPU n": the X86_VENDOR_* number, omitted when 0 = Intel. */
static void parse_vendor(struct span s, struct mce_record *r)
{
	const char *c = span_find(s, ", CPU ");
	uint64_t v = 0;

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

/*
 * The row's "<id> <yyyy-mm-dd hh:mm:ss> <+zone>": the time rasdaemon
 * stamped, in the machine's local time with its offset.  "<id> .." when
 * rasdaemon had none.  KV_NOT_OURS: no time in the row.
 */
static enum kv_result parse_row_time(struct mce_text_parser *p, struct span s, struct mce_record *r)
{
	struct span date, time, zone;
	char buf[48];
	int64_t usec;

	(void) span_token(&s);            /* the id */
	date = span_token(&s);
	if (span_len(date) == 0 || !is_digit(date.p[0]))
		return KV_NOT_OURS;
	time = span_token(&s);
	zone = span_token(&s);
	/* "+0100" as rfc3339 wants it: "+01:00" */
	if (span_len(date) != 10 || span_len(time) != 8 || span_len(zone) != 5 ||
	    snprintf(buf, sizeof(buf), "%.10sT%.8s%.3s:%.2s", date.p, time.p, zone.p, zone.p + 3) !=
		    25 ||
	    parse_rfc3339_usec(buf, &usec) < 0)
		return text_bad(p, "ras-mc-ctl row: expected 'ID YYYY-MM-DD HH:MM:SS +ZONE error:', got '%s'",
				span_show((struct span) { date.p, zone.end }, buf, sizeof(buf)));
	r->time_usec = usec;
	r->have |= MCE_HAVE_TIME;
	return KV_OK;
}

/* "<id> <date> <time> <zone> error: " or "<id> .. error: " */
static bool is_row(struct span s)
{
	struct span t = span_token(&s);

	for (const char *c = t.p; c < t.end; c++)
		if (!is_digit(*c))
			return false;
	if (span_len(t) == 0)
		return false;
	span_skip_space(&s);
	if (span_starts(s, ".. error: "))
		return true;
	t = span_token(&s);             /* the date */
	if (span_len(t) != 10 || !is_digit(t.p[0]) || t.p[4] != '-')
		return false;
	(void) span_token(&s);
	(void) span_token(&s);
	span_skip_space(&s);
	return span_starts(s, "error: ");
}

/*
 * ras-mc-ctl's line for each of its tables that holds nothing, "No Memory
 * errors.", "No PCIe AER errors.", "No MCE errors." and the like, printed
 * before the MCE table (rasdaemon util/ras-mc-ctl, as fact source): a
 * letter after "No " ("No devlink errors."), and no line longer than a
 * table's name would make.
 */
static bool empty_table_line(struct span s)
{
	size_t n = span_len(s);

	return n > strlen("No ") + strlen(" errors.") && n < 48 && span_starts(s, "No ") &&
	       is_alpha(s.p[3]) && span_ends(s, " errors.");
}

/*
 * ras-mc-ctl --summary's MCE table: "MCE records summary:", then a count
 * and rasdaemon's error text a line, "1 Corrected error, no action
 * required. errors".  It holds no record, only how many there were.
 */
static bool summary_line(struct span s)
{
	size_t n = span_len(s);
	const char *c = s.p;

	if (span_eq(s, "MCE records summary:"))
		return true;
	while (c < s.end && is_digit(*c))
		c++;
	return c > s.p && c < s.end && *c == ' ' && n < 120 &&
	       n > (size_t) (c - s.p) + 1 + strlen(" errors") && span_ends(s, " errors");
}

unsigned text_ras_mc_ctl_recognise(const struct mce_text_parser *p, const struct text_line *l,
				   struct span *body)
{
	struct span s = l->msg;

	(void) body;
	if (is_digit(*s.p) && is_row(s))
		return ROW;
	if (p->open == OPEN_RAS_MC_CTL)
		return CONTINUATION;
	if (span_eq(s, "MCE events:") || empty_table_line(s) || summary_line(s))
		return HEADING;
	return 0;
}

int text_ras_mc_ctl_parse(struct mce_text_parser *p, const struct text_line *l, unsigned kind,
			  struct span body)
{
	struct mce_record r;
	int k;

	if (kind == HEADING)
		return 0;
	/* a new row ends the last, even if it is itself rejected */
	if (kind == ROW && (k = text_flush(p)) < 0)
		return k;
	r = kind == ROW ? (struct mce_record) { 0 } : p->rec;
	if (kind == ROW)
		parse_vendor(body, &r);   /* on the row's first line, before any text */
	if (text_ras_fields(p, body, &r, true, NULL) != KV_OK ||
	    (kind == ROW && !(r.have & MCE_HAVE_TIME) && parse_row_time(p, body, &r) == KV_BAD)) {
		text_reject(p);
		return 0;
	}
	if (kind == ROW && (k = text_begin(p, OPEN_RAS_MC_CTL, l->have_time, l->time_usec)) < 0)
		return k;
	p->rec = r;
	p->last = p->line;
	if (span_find(body, "bank=0x"))
		return text_flush(p);     /* the last column */
	return 0;
}
