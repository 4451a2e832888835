/* SPDX-License-Identifier: MIT */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "macro.h"
#include "tracefs-format.h"

/*
 * A field line looks like
 *	field:u64 status;	offset:24;	size:8;	signed:0;
 *	field:__data_loc u8[] v_data;	offset:120;	size:4;	signed:0;
 *	field:char sec_type[16];	offset:8;	size:16;	signed:0;
 * The name is the last identifier of the declaration, before any "[...]".
 */
static int parse_decl_name(const char *decl, size_t len, char *name, size_t name_size)
{
	size_t end = len, start;

	while (end > 0 && isspace((unsigned char) decl[end - 1]))
		end--;
	if (end > 0 && decl[end - 1] == ']') {
		while (end > 0 && decl[end - 1] != '[')
			end--;
		if (end == 0)
			return -EINVAL;
		end--;
	}
	start = end;
	while (start > 0 && (isalnum((unsigned char) decl[start - 1]) || decl[start - 1] == '_'))
		start--;
	if (start == end || end - start >= name_size)
		return -EINVAL;
	/* A declaration is a type and a name: a lone word is malformed. */
	bool have_type = false;
	for (size_t i = 0; i < start; i++)
		if (!isspace((unsigned char) decl[i]))
			have_type = true;
	if (!have_type)
		return -EINVAL;
	memcpy(name, decl + start, end - start);
	name[end - start] = '\0';
	return 0;
}

static int parse_attr(const char *line, const char *key, uint32_t *ret)
{
	const char *p = strstr(line, key);
	char *end;
	unsigned long v;

	if (!p)
		return -EINVAL;
	p += strlen(key);
	errno = 0;
	v = strtoul(p, &end, 10);
	if (errno || end == p || *end != ';' || v > UINT32_MAX)
		return -EINVAL;
	*ret = (uint32_t) v;
	return 0;
}

static int parse_field_line(const char *line, struct trace_field *f)
{
	const char *decl = line + strlen("field:");
	const char *semi = strchr(decl, ';');
	uint32_t is_signed = 0;
	int r;

	if (!semi)
		return -EINVAL;
	*f = (struct trace_field) { 0 };
	r = parse_decl_name(decl, (size_t) (semi - decl), f->name, sizeof(f->name));
	if (r < 0)
		return r;
	f->is_data_loc = strncmp(decl, "__data_loc", strlen("__data_loc")) == 0;
	f->is_rel_loc = strncmp(decl, "__rel_loc", strlen("__rel_loc")) == 0;
	if (parse_attr(semi, "offset:", &f->offset) < 0 || parse_attr(semi, "size:", &f->size) < 0)
		return -EINVAL;
	/* "signed:" is missing on very old kernels; treat as unsigned. */
	(void) parse_attr(semi, "signed:", &is_signed);
	f->is_signed = is_signed != 0;
	if (f->size == 0 || (uint64_t) f->offset + f->size > 65536)
		return -EINVAL;
	return 0;
}

int trace_format_parse(const char *text, size_t len, struct trace_format *ret, unsigned *ret_line)
{
	struct trace_format f = { 0 };
	unsigned lineno = 0;
	const char *p = text, *end = text + len;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t) (end - p));
		size_t n = nl ? (size_t) (nl - p) : (size_t) (end - p);
		char line[512];
		const char *s;

		lineno++;
		if (n >= sizeof(line)) {
			/* Only the "print fmt:" line gets this long; fields never do. */
			if (n >= 10 && strncmp(p, "print fmt:", 10) == 0)
				break;
			if (ret_line)
				*ret_line = lineno;
			return -EINVAL;
		}
		memcpy(line, p, n);
		line[n] = '\0';
		p = nl ? nl + 1 : end;

		s = line;
		while (isspace((unsigned char) *s))
			s++;
		if (strncmp(s, "ID:", 3) == 0) {
			char *e;
			unsigned long id;

			errno = 0;
			id = strtoul(s + 3, &e, 10);
			if (errno || e == s + 3 || id > UINT32_MAX) {
				if (ret_line)
					*ret_line = lineno;
				return -EINVAL;
			}
			f.id = (uint32_t) id;
			f.have_id = true;
		} else if (strncmp(s, "field:", 6) == 0) {
			if (f.n_fields >= TRACE_FIELDS_MAX ||
			    parse_field_line(s, &f.fields[f.n_fields]) < 0) {
				if (ret_line)
					*ret_line = lineno;
				return -EINVAL;
			}
			f.n_fields++;
		} else if (strncmp(s, "print fmt:", 10) == 0)
			break;
	}
	if (f.n_fields == 0) {
		if (ret_line)
			*ret_line = lineno;
		return -EINVAL;
	}
	*ret = f;
	return 0;
}

const struct trace_field *trace_format_field(const struct trace_format *f, const char *name)
{
	for (unsigned i = 0; i < f->n_fields; i++)
		if (streq(f->fields[i].name, name))
			return &f->fields[i];
	return NULL;
}

int trace_field_read_u64(const struct trace_field *field, const void *raw, size_t raw_size,
			 uint64_t *ret)
{
	const unsigned char *p = raw;

	if (!field)
		return -ENOENT;
	if ((size_t) field->offset + field->size > raw_size)
		return -EBADMSG;
	switch (field->size) {
	case 1: *ret = p[field->offset]; return 0;
	case 2: { uint16_t v; memcpy(&v, p + field->offset, 2); *ret = v; return 0; }
	case 4: { uint32_t v; memcpy(&v, p + field->offset, 4); *ret = v; return 0; }
	case 8: { uint64_t v; memcpy(&v, p + field->offset, 8); *ret = v; return 0; }
	default: return -EINVAL;
	}
}

int trace_field_read_s64(const struct trace_field *field, const void *raw, size_t raw_size,
			 int64_t *ret)
{
	uint64_t v;
	int r = trace_field_read_u64(field, raw, raw_size, &v);

	if (r < 0)
		return r;
	if (field->size < 8 && (v >> (field->size * 8 - 1)) & 1)
		v |= ~UINT64_C(0) << (field->size * 8);
	*ret = (int64_t) v;
	return 0;
}

int trace_field_bytes(const struct trace_field *field, const void *raw, size_t raw_size,
		      const unsigned char **ret)
{
	if (!field)
		return -ENOENT;
	if ((size_t) field->offset + field->size > raw_size)
		return -EBADMSG;
	*ret = (const unsigned char *) raw + field->offset;
	return 0;
}

int trace_field_data_loc(const struct trace_field *field, const void *raw, size_t raw_size,
			 const unsigned char **ret, size_t *ret_len)
{
	uint64_t loc;
	size_t off, len;
	int r;

	if (!field || !(field->is_data_loc || field->is_rel_loc) || field->size != 4)
		return -ENOENT;
	r = trace_field_read_u64(field, raw, raw_size, &loc);
	if (r < 0)
		return r;
	off = (size_t) (loc & 0xffff);
	len = (size_t) (loc >> 16);
	if (field->is_rel_loc)
		off += (size_t) field->offset + field->size;
	if (off > raw_size || len > raw_size - off)
		return -ERANGE;
	*ret = (const unsigned char *) raw + off;
	*ret_len = len;
	return 0;
}
