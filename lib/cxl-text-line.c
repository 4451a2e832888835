/* SPDX-License-Identifier: MIT */
/*
 * rasdaemon's line names the event as the kernel's does ("cxl_dram: " is
 * both ":" and " " after the name), so a line that names an event in
 * rasdaemon's way and holds rasdaemon's "memdev:" is rasdaemon's; any other
 * that names one in the kernel's way is the kernel's.  Both places are found
 * in the same pass.
 */
#include <errno.h>
#include <stdio.h>

#include "cxl-rasdaemon-text.h"
#include "cxl-text-fields.h"
#include "cxl-text-line.h"
#include "cxl-trace-text.h"

enum { RASDAEMON, KERNEL, N_SYNTAX };

int cxl_text_line_parse(const char *line, size_t len, struct ras_record *r, const char **ret_form, char *why,
			size_t why_size)
{
	const char *const *seps[N_SYNTAX];
	struct cxl_text_named at[N_SYNTAX];
	const char *w = NULL;
	int k = -ENOENT;

	if (!cxl_text_word_from(line, line, line + len))
		return -ENOENT;   /* no word "cxl_...": all a machine-check line costs */
	seps[RASDAEMON] = cxl_rasdaemon_text_seps();
	seps[KERNEL] = cxl_trace_text_seps();
	cxl_text_events_in(line, len, seps, N_SYNTAX, at);
	if (at[RASDAEMON].event) {
		*ret_form = "rasdaemon cxl event";
		k = cxl_rasdaemon_text_parse_body(at[RASDAEMON].event, line + at[RASDAEMON].after,
						  len - at[RASDAEMON].after, r, why, why_size);
	}
	if (k == -ENOENT && at[KERNEL].event) {
		*ret_form = "cxl trace event";
		k = cxl_trace_text_parse_body(at[KERNEL].event, line + at[KERNEL].after, len - at[KERNEL].after, r, &w);
		if (k == -EINVAL)
			snprintf(why, why_size, "%s", w ?: "unknown");
	}
	return k;
}
