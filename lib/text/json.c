/* SPDX-License-Identifier: MIT */
/*
 * Our own JSON lines, one record a line: the record contract of
 * record-json.h, as in MCE_JSON and mcectl's --output json.
 */
#include "forms.h"
#include "record-json.h"

/* Ours are a few hundred bytes; refuse to hand megabytes to json-c. */
#define JSON_LINE_MAX (64u * 1024u)

unsigned text_json_recognise(const struct mce_text_parser *p, const struct text_line *l,
			     struct span *body)
{
	(void) p;
	(void) body;
	/* a record has quoted keys; "{mwait_idle+0x84/0x180}" alone is the
	 * kernel's RIP symbol, printed apart on a line of its own */
	return l->msg.p[0] == '{' && memchr(l->msg.p, '"', span_len(l->msg));
}

int text_json_parse(struct mce_text_parser *p, const struct text_line *l, unsigned kind,
		    struct span body)
{
	struct mce_record r;
	char err[200];

	(void) kind;
	if (span_len(body) > JSON_LINE_MAX) {
		text_diag(p, MCE_TEXT_MALFORMED, p->line, "JSON line longer than %u bytes", JSON_LINE_MAX);
		return 0;
	}
	if (memchr(body.p, '\0', span_len(body))) {
		text_diag(p, MCE_TEXT_MALFORMED, p->line, "NUL byte in a JSON line");
		return 0;
	}
	if (mce_record_parse_json(body.p, span_len(body), &r, err, sizeof(err)) < 0) {
		text_diag(p, MCE_TEXT_MALFORMED, p->line, "%s", err);
		return 0;
	}
	return text_single(p, &r, l->have_time, l->time_usec);
}
