/* SPDX-License-Identifier: MIT */
/*
 * The kernel's syntax: "key=value" and "key='text'" pairs after the event's
 * name, as Linux 7.3's drivers/cxl/core/trace.h prints them; the fields
 * themselves are cxl-text-fields.c's.
 */
#include <errno.h>
#include <string.h>

#include "cxl-text-fields.h"
#include "cxl-trace-text.h"
#include "macro.h"

/* One "key=value" or "key: 'value'" of the line; the text after the event name. */
struct cursor {
	const char *p, *end;
};

/* The next pair; false at the end.  ":" separators and words without "=" are skipped. */
static bool next_pair(struct cursor *c, const char **k, size_t *kn, const char **v, size_t *vn)
{
	for (;;) {
		const char *start, *eq;

		while (c->p < c->end && *c->p == ' ')
			c->p++;
		if (c->p >= c->end)
			return false;
		start = c->p;
		while (c->p < c->end && *c->p != ' ' && *c->p != '=')
			c->p++;
		eq = c->p;
		/* "status: 'x'": the AER events' form, a key ending in ':' and a quoted value */
		if (eq > start + 1 && eq[-1] == ':' && eq + 1 < c->end && eq[0] == ' ' && eq[1] == '\'') {
			*k = start;
			*kn = (size_t) (eq - 1 - start);
			c->p = eq + 1;
		} else if (eq < c->end && *eq == '=') {
			*k = start;
			*kn = (size_t) (eq - start);
			c->p = eq + 1;
		} else {
			continue;   /* ":" or a word: not a pair */
		}
		if (c->p < c->end && *c->p == '\'') {
			const char *q = memchr(c->p + 1, '\'', (size_t) (c->end - c->p - 1));

			if (!q)
				q = c->end;
			*v = c->p + 1;
			*vn = (size_t) (q - c->p - 1);
			c->p = q < c->end ? q + 1 : q;
		} else {
			*v = c->p;
			while (c->p < c->end && *c->p != ' ')
				c->p++;
			*vn = (size_t) (c->p - *v);
			/* "serial=0:" before the AER events' status */
			if (*vn > 0 && (*v)[*vn - 1] == ':')
				(*vn)--;
		}
		return true;
	}
}

static bool find_value(const char *text, size_t len, const char *key, const char **v, size_t *vn)
{
	struct cursor c = { text, text + len };
	const char *k;
	size_t kn;

	while (next_pair(&c, &k, &kn, v, vn))
		if (kn == strlen(key) && memcmp(k, key, kn) == 0)
			return true;
	return false;
}

int cxl_trace_text_parse(const char *line, size_t len, struct ras_record *r, const char **ret_why)
{
	const struct cxl_text_event *e;
	const char *body, *v, *valid = NULL;
	char valid_buf[256];
	size_t after = 0, blen, vn;
	int k;

	*ret_why = NULL;
	e = cxl_text_event_in(line, len, (const char *const[]) { ": ", NULL }, &after);
	if (!e)
		return -ENOENT;
	body = line + after;
	blen = len - after;
	if (!find_value(body, blen, "memdev", &v, &vn)) {
		*ret_why = "no memdev= in the event's text";
		return -EINVAL;
	}
	if (find_value(body, blen, "validity_flags", &v, &vn)) {
		cxl_text_join_flags(v, vn, valid_buf, sizeof(valid_buf));
		valid = valid_buf;
	}
	ras_record_init(r, e->event, e->source);
	for (const struct cxl_text_field *f = e->fields; f->trace; f++) {
		if (!find_value(body, blen, f->trace, &v, &vn))
			continue;
		if (f->valid && valid && !cxl_text_flag_named(valid, f->valid))
			continue;
		k = cxl_text_field_add(r, f, v, vn, ret_why);
		if (k == -EINVAL) {
			ras_record_done(r);
			return -EINVAL;
		}
	}
	cxl_text_record_finish(r, e);
	return 0;
}
