/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer target: an mce:mce_record format file and one sample against it
 * (input: format-sample.h), through mce_trace_layout_init() and
 * mce_trace_to_record(), and the record through the decoder and the JSON
 * writer as the daemon does.
 */
#include <stddef.h>
#include <stdint.h>

#include "decode.h"
#include "format-sample.h"
#include "json-writer.h"
#include "mce-trace.h"
#include "record-json.h"
#include "tracefs-format.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static struct json_writer writer;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct format_sample s;
	struct trace_format f;
	struct mce_trace_layout l;
	struct mce_record r;
	struct mce_decoded d;
	const char *missing = NULL;
	char buf[512];

	format_sample_split(data, size, &s);
	if (trace_format_parse(s.text, s.text_len, &f, NULL) < 0)
		goto out;
	if (mce_trace_layout_init(&l, &f, &missing) < 0) {
		if (!missing)
			__builtin_trap();       /* the refusal names the missing field */
		goto out;
	}
	if (mce_trace_to_record(&l, s.raw, s.raw_size, &r) < 0) {
		if (s.raw_size >= l.min_size)
			__builtin_trap();       /* only a sample too short is refused */
		goto out;
	}
	if (mce_trace_vendor_data(&l, s.raw, s.raw_size, &r, buf, sizeof(buf)) < 0 && !buf[0])
		__builtin_trap();       /* a refused v_data says why */
	mce_decode(&r, &d);
	(void) mce_decoded_summary(&d, buf, sizeof(buf));
	json_writer_reset(&writer);
	mce_record_write_json(&r, &d, &writer);
out:
	format_sample_done(&s);
	return 0;
}
