/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

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
