/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "json-writer.h"
#include "snapshot.h"

void snapshot_out_field(struct snapshot_out *out, const char *name, const char *fmt, ...)
{
	struct snapshot_field *f;
	va_list ap;

	if (out->n_fields >= SNAPSHOT_FIELDS_MAX)
		return;
	f = &out->fields[out->n_fields];
	snprintf(f->name, sizeof(f->name), "%s", name);
	va_start(ap, fmt);
	int n = vsnprintf(f->value, sizeof(f->value), fmt, ap);
	va_end(ap);
	/* Never a truncated value in the journal: MCE_JSON has it whole. */
	if (n < 0 || (size_t) n >= sizeof(f->value))
		return;
	out->n_fields++;
}

void snapshot_out_unavailable(struct snapshot_out *out, const char *name, const char *fmt, ...)
{
	char why[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	json_object_begin(out->json, name);
	json_put_string(out->json, "unavailable", why);
	json_object_end(out->json);
}
