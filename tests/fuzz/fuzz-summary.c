/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer target: what mcectl makes of a journal entry's MCE_JSON, which
 * a collector may have received from anywhere: the summary's counting
 * (mcectl/summary.c) for every --by, and the snapshot summary line
 * (mcectl/snapshot-line.c).  Whatever the object holds, each record counts
 * once and the printed forms stay within their buffers.
 * fuzz-link: mcectl/summary.c mcectl/snapshot-line.c
 */
#include <limits.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <json-c/json.h>

#include "snapshot-line.h"
#include "summary.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct json_tokener *tok;
	json_object *o, *snapshot;
	FILE *devnull;

	if (size > INT_MAX)
		return 0;
	tok = json_tokener_new();
	if (!tok)
		return 0;
	o = json_tokener_parse_ex(tok, (const char *) data, (int) size);
	json_tokener_free(tok);
	if (!o)
		return 0;
	devnull = fopen("/dev/null", "w");
	for (int by = 0; by < _SUMMARY_BY_MAX && devnull; by++) {
		struct summary *s = summary_new((enum summary_by) by);
		int r;

		if (!s)
			break;
		/* Twice: the second lands in the same group. */
		r = summary_add(s, o, 1795000000000000);
		if (r != summary_add(s, o, 1795000003600000) || summary_groups(s) > 1 || (r > 0 && summary_groups(s) != 1))
			abort();
		summary_print_table(s, devnull, 0, 0);
		summary_print_json(s, devnull, 1795000000000000, 1795000007200000);
		summary_print_csv(s, devnull, 0, 0);
		summary_free(s);
	}
	if (json_object_is_type(o, json_type_object) && json_object_object_get_ex(o, "snapshot", &snapshot)) {
		struct snapshot_summary sum;
		char line[480];

		if (snapshot_summary_from_json(snapshot, &sum) >= 0)
			(void) snapshot_line_format(&sum, line, sizeof(line));
	}
	if (devnull)
		fclose(devnull);
	json_object_put(o);
	return 0;
}
