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
	bool is_rel_loc;      /* __rel_loc: the same, offset counted from the end of this field */
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

/* The same for a signed field: 1, 2, 4 or 8 bytes, sign-extended. */
int trace_field_read_s64(const struct trace_field *field, const void *raw, size_t raw_size,
			 int64_t *ret);

/*
 * A fixed-size field's bytes (an array, a struct): *ret points into raw and
 * holds field->size bytes.  Returns 0, -ENOENT or -EBADMSG as above.
 */
int trace_field_bytes(const struct trace_field *field, const void *raw, size_t raw_size,
		      const unsigned char **ret);

/*
 * A __data_loc (or __rel_loc) field: a u32 whose low 16 bits are the payload's
 * offset (from the start of the raw record; for __rel_loc from the end of the
 * u32) and whose high 16 bits are its length.  Returns 0 with the payload in
 * *ret and its length in *ret_len, -ENOENT if the field is absent or not a
 * location, -EBADMSG if the sample is too short to hold the u32, -ERANGE if
 * the payload it names lies (partly) outside the sample.
 */
int trace_field_data_loc(const struct trace_field *field, const void *raw, size_t raw_size,
			 const unsigned char **ret, size_t *ret_len);
