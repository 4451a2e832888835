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

/* The kernel's separator after the event's name. */
static const char *const kernel_seps[] = { ": ", NULL };

const char *const *cxl_trace_text_seps(void)
{
	return kernel_seps;
}

int cxl_trace_text_parse_body(const struct cxl_text_event *e, const char *body, size_t blen, struct ras_record *r,
			      const char **ret_why)
{
	struct { const char *v; size_t vn; } value[CXL_TEXT_FIELDS_MAX] = {};
	struct cursor c = { body, body + blen };
	const char *key, *v, *valid = NULL;
	char valid_buf[256];
	bool memdev = false;
	size_t kn, vn;
	int i, k;

	*ret_why = NULL;
	/* one pass over the pairs; a key said twice counts where it is first said */
	while (next_pair(&c, &key, &kn, &v, &vn)) {
		if (kn == 6 && memcmp(key, "memdev", 6) == 0)
			memdev = true;
		if (!valid && kn == 14 && memcmp(key, "validity_flags", 14) == 0) {
			cxl_text_join_flags(v, vn, valid_buf, sizeof(valid_buf));
			valid = valid_buf;
		}
		i = kn > 0 ? cxl_text_field_index(e, key, kn) : -1;
		if (i >= 0 && !value[i].v)
			value[i].v = v, value[i].vn = vn;
	}
	if (!memdev) {
		*ret_why = "no memdev= in the event's text";
		return -EINVAL;
	}
	ras_record_init(r, e->event, e->source);
	for (const struct cxl_text_field *f = e->fields; f->trace; f++) {
		i = (int) (f - e->fields);
		if (!value[i].v)
			continue;
		if (f->valid && valid && !cxl_text_flag_named(valid, f->valid))
			continue;
		k = cxl_text_field_add(r, f, value[i].v, value[i].vn, ret_why);
		if (k == -EINVAL) {
			ras_record_done(r);
			return -EINVAL;
		}
	}
	cxl_text_record_finish(r, e);
	return 0;
}

int cxl_trace_text_parse(const char *line, size_t len, struct ras_record *r, const char **ret_why)
{
	const char *const *seps = kernel_seps;
	struct cxl_text_named at;

	*ret_why = NULL;
	cxl_text_events_in(line, len, &seps, 1, &at);
	if (!at.event)
		return -ENOENT;
	return cxl_trace_text_parse_body(at.event, line + at.after, len - at.after, r, ret_why);
}
