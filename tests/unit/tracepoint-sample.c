/* SPDX-License-Identifier: MIT */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "json-writer.h"
#include "ras-record-json.h"
#include "tracefs-format.h"
#include "tracepoint-sample.h"

char *slurp(const char *name, size_t *len)
{
	char path[4096];
	FILE *f;
	char *buf;
	long n;

	snprintf(path, sizeof(path), "%s/tests/data/%s", getenv("top_srcdir") ?: ".", name);
	f = fopen(path, "re");
	assert_non_null(f);
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	buf = malloc((size_t) n + 1);
	assert_non_null(buf);
	assert_int_equal(fread(buf, 1, (size_t) n, f), (size_t) n);
	buf[n] = '\0';
	fclose(f);
	*len = (size_t) n;
	return buf;
}

void load(struct ras_tp_layout *l, enum ras_tp tp, const char *file)
{
	size_t len;
	char *text = slurp(file, &len);
	const char *missing = NULL;
	unsigned line = 0;

	assert_int_equal(ras_tp_layout_init(l, tp, text, len, &line, &missing), 0);
	assert_true(l->format.have_id);
	free(text);
}

void sample_init(struct sample *s, const struct ras_tp_layout *l)
{
	memset(s, 0, sizeof(*s));
	for (unsigned i = 0; i < l->format.n_fields; i++) {
		const struct trace_field *f = &l->format.fields[i];

		if (f->offset + f->size > s->size)
			s->size = f->offset + f->size;
	}
	/* common_type: the event's id, as the kernel writes it */
	memcpy(s->b, &(uint16_t) { (uint16_t) l->format.id }, 2);
}

const struct trace_field *field(const struct ras_tp_layout *l, const char *name)
{
	const struct trace_field *f = trace_format_field(&l->format, name);

	assert_non_null(f);
	return f;
}

void put(struct sample *s, const struct ras_tp_layout *l, const char *name, uint64_t v)
{
	const struct trace_field *f = field(l, name);

	assert_true(f->size <= 8);
	memcpy(s->b + f->offset, &v, f->size);   /* little-endian, as on x86 and arm64 */
}

void put_bytes(struct sample *s, const struct ras_tp_layout *l, const char *name, const void *p,
	       size_t n)
{
	const struct trace_field *f = field(l, name);

	assert_true(n <= f->size);
	memcpy(s->b + f->offset, p, n);
}

/* A __data_loc payload appended at the end, as the kernel lays them out. */
void put_dyn(struct sample *s, const struct ras_tp_layout *l, const char *name, const void *p,
	     size_t n)
{
	const struct trace_field *f = field(l, name);
	uint32_t loc = (uint32_t) (n << 16 | s->size);

	assert_true(f->is_data_loc);
	assert_true(s->size + n <= sizeof(s->b));
	memcpy(s->b + s->size, p, n);
	memcpy(s->b + f->offset, &loc, 4);
	s->size += n;
}

void put_str(struct sample *s, const struct ras_tp_layout *l, const char *name, const char *str)
{
	put_dyn(s, l, name, str, strlen(str) + 1);   /* the kernel keeps the NUL */
}

void decode_ok(const struct ras_tp_layout *l, const struct sample *s, struct ras_record *r)
{
	char why[256] = "";
	int ret = ras_tp_decode(l, s->b, s->size, r, why, sizeof(why));

	if (ret != 0)
		fail_msg("decode failed: %d %s", ret, why);
}

const char *str(const struct ras_record *r, const char *key)
{
	const struct ras_field *f = ras_record_find(r, key);

	if (!f)
		fail_msg("no field '%s'", key);
	assert_int_equal(f->type, RAS_FIELD_STRING);
	return f->data;
}

uint64_t num(const struct ras_record *r, const char *key)
{
	const struct ras_field *f = ras_record_find(r, key);

	if (!f)
		fail_msg("no field '%s'", key);
	assert_true(f->type == RAS_FIELD_UINT || f->type == RAS_FIELD_HEX || f->type == RAS_FIELD_HEX64 ||
		    f->type == RAS_FIELD_INT);
	return f->u;
}

char *json(const struct ras_record *r)
{
	struct json_writer w;
	char *out;

	json_writer_init(&w);
	ras_record_write_json(r, &w);
	assert_false(json_writer_failed(&w));
	out = strdup(json_writer_str(&w));
	json_writer_done(&w);
	return out;
}
