/* SPDX-License-Identifier: MIT */
#pragma once

/*
 * rasdaemon's log lines for the kernel's cxl:* events (rasdaemon 0.8, as
 * Debian 13 ships it: `rasdaemon -f` on its standard output, so in the
 * journal under its unit): "<...>-285 [000] ..... 0.000007 cxl_dram
 * 2026-11-28 07:02:32 +0000 memdev:mem0 host:0000:0d:00.0 serial:0x0 log
 * type:Warning ...".  One
 * line → the struct ras_record mcelogd logs for the same event, through the
 * field tables of cxl-text-fields.h.  Pure.
 */

#include <stddef.h>

struct cxl_text_event;
struct ras_record;

/*
 * Returns 0 with *r initialised and filled (the caller calls
 * ras_record_done), -ENOENT if the line is no rasdaemon cxl line (r
 * untouched), -EINVAL if it is one whose text does not read (r untouched;
 * WHY, WHY_SIZE bytes, names the field and what is wrong with it).
 */
int cxl_rasdaemon_text_parse(const char *line, size_t len, struct ras_record *r, char *why, size_t why_size);

/* The same for the text after EVENT's name and separator, where a caller found them. */
int cxl_rasdaemon_text_parse_body(const struct cxl_text_event *e, const char *body, size_t blen, struct ras_record *r,
				  char *why, size_t why_size);
/* What follows an event's name in this syntax (cxl_text_events_in's SEPS). */
const char *const *cxl_rasdaemon_text_seps(void);
