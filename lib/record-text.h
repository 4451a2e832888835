/* SPDX-License-Identifier: MIT */
#pragma once

/*
 * Streaming parser for every text form in which people hold machine-check
 * records: our JSON lines, Linux kernel console/dmesg lines (with syslog,
 * journalctl or "[ 123.456]" prefixes), the AMD EDAC decoder's lines,
 * mcelog's text format and rasdaemon's mce_record lines.
 *
 * Feed it lines; it finds record boundaries itself and calls back once per
 * complete record, and once per line it had to reject.  Pure: no I/O, no
 * logging; memory use does not grow with the input.
 */

#include <stddef.h>

#include "record.h"

enum mce_text_diag {
	MCE_TEXT_MALFORMED,   /* looks like a record line but cannot be read: rejected */
	MCE_TEXT_UNKNOWN,     /* not a record form we know: skipped */
	MCE_TEXT_PARTIAL,     /* a record is missing something (e.g. no CPU identity): warning */
};

struct mce_text_callbacks {
	/* A complete record, from lines first_line..last_line (1-based).
	 * A negative return stops the parser and is returned by feed/finish. */
	int (*record)(const struct mce_record *rec, unsigned first_line, unsigned last_line,
		      void *userdata);
	/* msg names what is wrong; line is 1-based. */
	void (*diagnostic)(enum mce_text_diag kind, unsigned line, const char *msg, void *userdata);
};

struct mce_text_parser;

struct mce_text_parser *mce_text_parser_new(const struct mce_text_callbacks *cb, void *userdata);
struct mce_text_parser *mce_text_parser_free(struct mce_text_parser *p);   /* returns NULL */

/* Records without their own CPU identity get this one (mcectl decode --cpu-id). */
void mce_text_parser_set_default_cpu(struct mce_text_parser *p, enum mce_vendor vendor,
				     uint32_t family, uint32_t model);
/* The "source" given to records whose text does not name one. */
void mce_text_parser_set_source(struct mce_text_parser *p, enum mce_source source);

/* One line, without its newline.  Lines are numbered from 1 in feed order. */
int mce_text_parser_feed(struct mce_text_parser *p, const char *line, size_t len);
/* End of input: flushes a record still being assembled. */
int mce_text_parser_finish(struct mce_text_parser *p);
