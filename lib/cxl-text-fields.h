/* SPDX-License-Identifier: MIT */
#pragma once

/*
 * The cxl:* events as text shows them, whoever printed the text: each
 * event's fields under the names the kernel prints (its trace format), the
 * record key each becomes and how its text reads; and how a finished record
 * gets its severity and summary.  The kernel's trace lines
 * (cxl-trace-text.c) and rasdaemon's log lines (cxl-rasdaemon-text.c) are
 * two syntaxes over these one tables.  Pure.
 */

#include <stdbool.h>
#include <stddef.h>
#include <string.h>

#include "ras-record.h"

enum cxl_text_conv {
	CXL_TEXT_STR,     /* as printed */
	CXL_TEXT_LOWER,   /* a symbolic name, lower-cased as the ring decoder names it ("Warning" → "warning") */
	CXL_TEXT_NAME,    /* quoted text; empty: absent */
	CXL_TEXT_FLAGS,   /* flag names; " | " joined as "|"; empty: absent */
	CXL_TEXT_LIST,    /* the AER events' error names; " | " joined as ", ", as the ring decoder does */
	CXL_TEXT_HEX64,   /* hex, 0x optional */
	CXL_TEXT_HEX,
	CXL_TEXT_UINT,
	CXL_TEXT_INT,
	CXL_TEXT_HPA,     /* hex; all ones: no region maps the address */
	CXL_TEXT_UUID,    /* all zero: absent */
};

struct cxl_text_field {
	const char *trace;     /* the key the kernel prints */
	size_t trace_len;
	const char *key;       /* the record's key */
	enum cxl_text_conv conv;
	const char *valid;     /* DRAM/general media: printed only when validity_flags names this */
};

enum cxl_text_sev { CXL_SEV_MEDIA, CXL_SEV_LOG, CXL_SEV_POISON, CXL_SEV_UE, CXL_SEV_CE };

struct cxl_text_event {
	const char *name;      /* the trace event's name */
	enum ras_event event;
	enum mce_source source;
	enum cxl_text_sev sev;
	const char *what;      /* for the summary */
	const struct cxl_text_field *fields;   /* ends with a field whose trace is NULL */
};

/* The most fields an event has (checked where the tables are). */
#define CXL_TEXT_FIELDS_MAX 40

/* The events text is read for, and one of them by its name (NULL: none). */
const struct cxl_text_event *cxl_text_events(size_t *ret_n);
const struct cxl_text_event *cxl_text_event_named(const char *name, size_t len);

/*
 * The first word of LINE at or after P that starts "cxl_", as every
 * event's name does; NULL: none, so the line names no event.  Inline: for
 * nearly every line of a machine-check log it is all the cxl parsers cost,
 * one memchr for '_'.
 */
static inline const char *cxl_text_word_from(const char *line, const char *p, const char *end)
{
	if (end - p < 4)
		return NULL;
	for (const char *u = p + 3; u < end && (u = memchr(u, '_', (size_t) (end - u))); u++)
		if (u[-3] == 'c' && u[-2] == 'x' && u[-1] == 'l' && (u - 3 == line || u[-4] == ' '))
			return u - 3;
	return NULL;
}

/* Where a line names an event in one syntax. */
struct cxl_text_named {
	const struct cxl_text_event *event;   /* NULL: it names none */
	size_t after;                         /* where the text after the name and separator starts */
};

/*
 * For each of N syntaxes, the event whose name stands in LINE as a word of
 * its own followed by one of SEPS[i] (NULL-terminated, e.g. ": ") and more
 * text: the first of the table if the line names several, at the first
 * place it does so.  One pass over the line for all N, which is what a
 * line that names none (nearly every line of a machine-check log) costs.
 */
void cxl_text_events_in(const char *line, size_t len, const char *const *const *seps, size_t n,
			struct cxl_text_named *ret);
/* EVENT's field the kernel prints as TRACE_KEY; NULL: none. */
const struct cxl_text_field *cxl_text_field_named(const struct cxl_text_event *e, const char *trace_key);
/* The same by a key of KN bytes, and its place in e->fields; -1: none. */
int cxl_text_field_index(const struct cxl_text_event *e, const char *trace_key, size_t kn);

/*
 * The text V (VN bytes) of F into R, as F's conversion reads it.  0 when
 * added or absent by nature (empty text, an all-zero UUID); -EINVAL when it
 * does not read (*ret_why: static text saying how); -ENOMEM.
 */
int cxl_text_field_add(struct ras_record *r, const struct cxl_text_field *f, const char *v, size_t vn,
		       const char **ret_why);

/*
 * The VN bytes at V, up to a NUL, into BUF (VN + 1 bytes) with each byte that
 * is no printable ASCII a '?', as the ring decoder keeps kernel text; the
 * length.  What a field or message shows of a log's text.
 */
size_t cxl_text_printable(const char *v, size_t vn, char *buf);

/* "A | B" and "A|B" → "A|B" in BUF; whether FLAGS ("A|B|C") holds NAME. */
void cxl_text_join_flags(const char *v, size_t vn, char *buf, size_t size);
bool cxl_text_flag_named(const char *flags, const char *name);

/* Severity from the record's log, descriptor or trace type, and the daemon's summary line. */
void cxl_text_record_finish(struct ras_record *r, const struct cxl_text_event *e);
