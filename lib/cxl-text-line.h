/* SPDX-License-Identifier: MIT */
#pragma once

/*
 * Which cxl:* text a line is: rasdaemon's log line (cxl-rasdaemon-text.h)
 * or the kernel's trace line (cxl-trace-text.h), found in one pass over
 * the line, so that each parser sees only lines that can be its own and a
 * machine-check log's lines cost a memchr each.  Pure.
 */

#include <stddef.h>

struct ras_record;

/*
 * The record of LINE's cxl event, as the syntax that reads it gives it:
 * 0 with *r initialised and filled (the caller calls ras_record_done);
 * -ENOENT if the line is neither syntax's (r untouched: a line for the
 * machine-check parser); -EINVAL if it is one's but does not read (r
 * untouched; WHY, WHY_SIZE bytes, says what), -ENOMEM.  *RET_FORM names the
 * syntax that read it ("rasdaemon cxl event", "cxl trace event").
 */
int cxl_text_line_parse(const char *line, size_t len, struct ras_record *r, const char **ret_form, char *why,
			size_t why_size);
