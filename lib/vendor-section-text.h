/* SPDX-License-Identifier: MIT */
#pragma once

/*
 * The kernel's ras:non_standard_event trace line (tracefs trace and
 * trace_pipe, perf script), the vendor CPER section it carries decoded as
 * the daemon decodes it (vendor-section-text.c).  Pure.
 */

#include <stddef.h>

struct ras_record;

/*
 * Returns 0 with *r initialised and filled (the caller calls
 * ras_record_done), -ENOENT if the line holds no non_standard_event (r
 * untouched), -EINVAL if it names one but does not read as one (r
 * untouched; *ret_why says what, static text), -ENOMEM.
 */
int vendor_section_text_parse(const char *line, size_t len, struct ras_record *r, const char **ret_why);
