/* SPDX-License-Identifier: MIT */
#pragma once

/*
 * Parser for a tracepoint's tracefs "format" file.  Field offsets differ
 * between kernels (mce_record gained synd/ipid, later ppin/microcode, mid
 * struct), so they are always read at run time and looked up by name.  Pure.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define TRACE_FIELD_NAME_MAX 32
#define TRACE_FIELDS_MAX 48

struct trace_field {
	char name[TRACE_FIELD_NAME_MAX];
	uint32_t offset;
	uint32_t size;
	bool is_signed;
	bool is_data_loc;     /* __data_loc: a u32 (len << 16 | offset) into the record */
};

struct trace_format {
	uint32_t id;
	bool have_id;
	struct trace_field fields[TRACE_FIELDS_MAX];
	unsigned n_fields;
};

/* Returns 0, or -EINVAL with the 1-based line number in *ret_line of the first bad line. */
int trace_format_parse(const char *text, size_t len, struct trace_format *ret, unsigned *ret_line);

const struct trace_field *trace_format_field(const struct trace_format *f, const char *name);

/*
 * Reads an unsigned integer field (1, 2, 4 or 8 bytes) from a raw record of
 * raw_size bytes.  Returns 0, -ENOENT if the field is absent, -EBADMSG if the
 * record is too short to hold it.
 */
int trace_field_read_u64(const struct trace_field *field, const void *raw, size_t raw_size,
			 uint64_t *ret);
