/* SPDX-License-Identifier: MIT */
#pragma once

/*
 * The kernel's cxl:* trace events as it prints them (tracefs trace and
 * trace_pipe, perf script): "... cxl_dram: memdev=mem0 host=0000:0d:00.0
 * serial=0 log=Warning : time=... : dpa=8000040 ... row=77 column=8 ...".
 * One line → one struct ras_record with the keys kernel-abi/cxl-trace.c
 * gives the same event read from the ring, so `mcectl decode` shows what the
 * daemon would have logged.  Pure.
 */

#include <stddef.h>

struct cxl_text_event;
struct ras_record;

/*
 * Returns 0 with *r initialised and filled (the caller calls
 * ras_record_done), -ENOENT if the line holds no cxl event we know (r
 * untouched), -EINVAL if it names one but does not read as one (r
 * untouched; *ret_why says what, static text).
 */
int cxl_trace_text_parse(const char *line, size_t len, struct ras_record *r, const char **ret_why);

/* The same for the text after EVENT's name and separator, where a caller found them. */
int cxl_trace_text_parse_body(const struct cxl_text_event *e, const char *body, size_t blen, struct ras_record *r,
			      const char **ret_why);
/* What follows an event's name in this syntax (cxl_text_events_in's SEPS). */
const char *const *cxl_trace_text_seps(void);
