/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer target: a tracefs format file through trace_format_parse(), then
 * every field it declares looked up by name and read, as each kind of field
 * reader would, from a raw sample (input: format-sample.h).
 */
#include <stddef.h>
#include <stdint.h>

#include "format-sample.h"
#include "tracefs-format.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static volatile unsigned char sink;

static void touch(const unsigned char *p, size_t n)
{
	unsigned char x = 0;

	for (size_t i = 0; i < n; i++)
		x ^= p[i];
	sink = x;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct format_sample s;
	struct trace_format f;
	unsigned line = 0;

	format_sample_split(data, size, &s);
	if (trace_format_parse(s.text, s.text_len, &f, &line) < 0) {
		format_sample_done(&s);
		return 0;
	}
	if (f.n_fields == 0 || f.n_fields > TRACE_FIELDS_MAX)
		__builtin_trap();
	for (unsigned i = 0; i < f.n_fields; i++) {
		const struct trace_field *field = trace_format_field(&f, f.fields[i].name);
		const unsigned char *p;
		uint64_t u;
		int64_t v;
		size_t n;

		if (!field)
			__builtin_trap();       /* every parsed field is found by its name */
		(void) trace_field_read_u64(field, s.raw, s.raw_size, &u);
		(void) trace_field_read_s64(field, s.raw, s.raw_size, &v);
		if (trace_field_bytes(field, s.raw, s.raw_size, &p) == 0)
			touch(p, field->size);
		if (trace_field_data_loc(field, s.raw, s.raw_size, &p, &n) == 0)
			touch(p, n);
	}
	format_sample_done(&s);
	return 0;
}
