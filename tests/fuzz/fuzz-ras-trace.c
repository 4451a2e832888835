/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer target: a format file read as each ras:* event that accepts it,
 * and one sample decoded against every layout so made (input:
 * format-sample.h), as the tracepoint source does.  A decoded record is
 * written as JSON and must read back (--replay) and write out the same.
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "format-sample.h"
#include "json-writer.h"
#include "ras-record-json.h"
#include "ras-record.h"
#include "ras-trace.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static struct json_writer writer, again;
static struct ras_tp_layout layout;
static struct ras_tp_symbols symbols;

static void roundtrip(const struct ras_record *r)
{
	struct ras_record back;
	char why[256];

	json_writer_reset(&writer);
	ras_record_write_json(r, &writer);
	if (json_writer_failed(&writer))
		return;
	if (ras_record_parse_json(writer.buf, writer.len, &back, why, sizeof(why)) < 0)
		__builtin_trap();               /* our own output must be readable */
	json_writer_reset(&again);
	ras_record_write_json(&back, &again);
	if (json_writer_failed(&again) || again.len != writer.len ||
	    memcmp(again.buf, writer.buf, writer.len) != 0)
		__builtin_trap();               /* and read back as written */
	ras_record_done(&back);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct format_sample s;

	format_sample_split(data, size, &s);
	(void) ras_tp_parse_symbols(s.text, s.text_len, "type", &symbols);
	for (unsigned tp = 0; tp < _RAS_TP_MAX; tp++) {
		struct ras_record r;
		const char *missing = NULL;
		unsigned line = 0;
		char why[256];

		if (ras_tp_layout_init(&layout, (enum ras_tp) tp, s.text, s.text_len, &line, &missing) < 0)
			continue;
		if (ras_tp_decode(&layout, s.raw, s.raw_size, &r, why, sizeof(why)) < 0) {
			if (strnlen(why, sizeof(why)) == sizeof(why))
				__builtin_trap();       /* the reason must be terminated */
			continue;
		}
		/* As the source stamps it: the tracepoints carry no wall-clock time. */
		r.have_time = true;
		r.time_usec = INT64_C(1795188645) * 1000000;
		roundtrip(&r);
		ras_record_done(&r);
	}
	format_sample_done(&s);
	return 0;
}
