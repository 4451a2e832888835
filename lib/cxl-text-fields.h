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

/* The events text is read for, and one of them by its name (NULL: none). */
const struct cxl_text_event *cxl_text_events(size_t *ret_n);
const struct cxl_text_event *cxl_text_event_named(const char *name, size_t len);
/*
 * The event whose name stands in LINE as a word of its own followed by one of
 * SEPS (NULL-terminated, e.g. ": "); *RET_AFTER: where the text after it
 * starts.  NULL: no such event.
 */
const struct cxl_text_event *cxl_text_event_in(const char *line, size_t len, const char *const *seps,
					       size_t *ret_after);
/* EVENT's field the kernel prints as TRACE_KEY; NULL: none. */
const struct cxl_text_field *cxl_text_field_named(const struct cxl_text_event *e, const char *trace_key);

/*
 * The text V (VN bytes) of F into R, as F's conversion reads it.  0 when
 * added or absent by nature (empty text, an all-zero UUID); -EINVAL when it
 * does not read (*ret_why: static text saying how); -ENOMEM.
 */
int cxl_text_field_add(struct ras_record *r, const struct cxl_text_field *f, const char *v, size_t vn,
		       const char **ret_why);

/* "A | B" and "A|B" → "A|B" in BUF; whether FLAGS ("A|B|C") holds NAME. */
void cxl_text_join_flags(const char *v, size_t vn, char *buf, size_t size);
bool cxl_text_flag_named(const char *flags, const char *name);

/* Severity from the record's log, descriptor or trace type, and the daemon's summary line. */
void cxl_text_record_finish(struct ras_record *r, const struct cxl_text_event *e);
