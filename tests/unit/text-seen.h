/* SPDX-License-Identifier: MIT */
#pragma once

/*
 * What a text parser under test handed out: its records with their line
 * ranges, and its diagnostics.  Shared by the text parser's tests; include
 * after <cmocka.h>.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "record-text.h"

#ifndef MAX_SEEN
#define MAX_SEEN 16     /* a test that needs more defines it before including this */
#endif

struct seen {
	struct mce_record rec[MAX_SEEN];
	unsigned first[MAX_SEEN], last[MAX_SEEN];
	unsigned n;
	enum mce_text_diag dkind[MAX_SEEN];
	unsigned dline[MAX_SEEN];
	char dmsg[MAX_SEEN][320];
	unsigned nd;
	int stop_after;          /* return -ECANCELED after this many records (0: never) */
};

static inline int on_record(const struct mce_record *r, unsigned first, unsigned last, void *userdata)
{
	struct seen *s = userdata;

	assert_true(s->n < MAX_SEEN);
	s->rec[s->n] = *r;
	s->first[s->n] = first;
	s->last[s->n] = last;
	s->n++;
	if (s->stop_after && s->n >= (unsigned) s->stop_after)
		return -ECANCELED;
	return 0;
}

/* Diagnostics past MAX_SEEN are not kept: some tests feed hundreds of bad lines. */
static inline void on_diag(enum mce_text_diag kind, unsigned line, const char *msg, void *userdata)
{
	struct seen *s = userdata;

	if (s->nd >= MAX_SEEN)
		return;
	s->dkind[s->nd] = kind;
	s->dline[s->nd] = line;
	snprintf(s->dmsg[s->nd], sizeof(s->dmsg[0]), "%s", msg);
	s->nd++;
}

static const struct mce_text_callbacks callbacks = { .record = on_record, .diagnostic = on_diag };

/* Feeds text line by line (split at '\n'), then finishes.  Returns the last result. */
static inline int feed_text(struct mce_text_parser *p, const char *text)
{
	int k = 0;

	while (*text) {
		const char *nl = strchr(text, '\n');
		size_t len = nl ? (size_t) (nl - text) : strlen(text);

		k = mce_text_parser_feed(p, text, len);
		if (k < 0)
			return k;
		text += len + (nl ? 1 : 0);
	}
	return mce_text_parser_finish(p);
}

static inline void parse(struct seen *s, const char *text)
{
	struct mce_text_parser *p = mce_text_parser_new(&callbacks, s);

	assert_non_null(p);
	assert_int_equal(feed_text(p, text), 0);
	mce_text_parser_free(p);
}

/* Diagnostic i is a rejected line n whose message holds want. */
static inline void assert_rejected(const struct seen *s, unsigned i, unsigned line, const char *want)
{
	assert_true(i < s->nd);
	if (s->dkind[i] != MCE_TEXT_MALFORMED || s->dline[i] != line || !strstr(s->dmsg[i], want))
		fail_msg("diagnostic %u: kind %d line %u '%s'; want malformed line %u with '%s'", i,
			 s->dkind[i], s->dline[i], s->dmsg[i], line, want);
}
