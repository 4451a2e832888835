/* SPDX-License-Identifier: MIT */
/*
 * PLACEHOLDER until the full text-form parser lands: reads our own JSON lines
 * only.  Replaced wholesale by the parser for every record text form.
 */
#include <stdio.h>
#include <stdlib.h>

#include "record-json.h"
#include "record-text.h"

struct mce_text_parser {
	struct mce_text_callbacks cb;
	void *userdata;
	unsigned line;
	enum mce_source source;
};

struct mce_text_parser *mce_text_parser_new(const struct mce_text_callbacks *cb, void *userdata)
{
	struct mce_text_parser *p = calloc(1, sizeof(*p));

	if (!p)
		return NULL;
	p->cb = *cb;
	p->userdata = userdata;
	return p;
}

struct mce_text_parser *mce_text_parser_free(struct mce_text_parser *p)
{
	free(p);
	return NULL;
}

void mce_text_parser_set_default_cpu(struct mce_text_parser *p, enum mce_vendor vendor,
				     uint32_t family, uint32_t model)
{
	(void) p; (void) vendor; (void) family; (void) model;
}

void mce_text_parser_set_source(struct mce_text_parser *p, enum mce_source source)
{
	p->source = source;
}

int mce_text_parser_feed(struct mce_text_parser *p, const char *line, size_t len)
{
	struct mce_record rec;
	char err[256];

	p->line++;
	if (len == 0 || line[0] == '#')
		return 0;
	if (mce_record_parse_json(line, len, &rec, err, sizeof(err)) < 0) {
		p->cb.diagnostic(MCE_TEXT_MALFORMED, p->line, err, p->userdata);
		return 0;
	}
	if (rec.source == MCE_SOURCE_UNKNOWN)
		rec.source = p->source;
	return p->cb.record(&rec, p->line, p->line, p->userdata);
}

int mce_text_parser_finish(struct mce_text_parser *p)
{
	(void) p;
	return 0;
}
