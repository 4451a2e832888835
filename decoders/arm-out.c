/* SPDX-License-Identifier: MIT */
/*
 * What every Arm decoder (arm-processor.c, arm-ras-status.c, arm-vendor-*.c)
 * writes with: fields added to a record, the first problem met, names from a
 * table, set bits by name, a vendor's registers.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>

#include "arm-internal.h"
#include "ras-record.h"

void arm_added(struct arm_out *o, int r)
{
	if (r == -ENOMEM)
		o->oom = true;
}

void arm_problem(struct arm_out *o, size_t offset, const char *fmt, ...)
{
	va_list ap;

	if (o->problem->found)
		return;
	o->problem->found = true;
	o->problem->offset = offset;
	va_start(ap, fmt);
	vsnprintf(o->problem->what, sizeof(o->problem->what), fmt, ap);
	va_end(ap);
}

int arm_result(const struct arm_out *o)
{
	return o->oom ? -ENOMEM : o->problem->found ? -EBADMSG : 0;
}

void arm_add_name(struct arm_out *o, const char *key, const char *const *names, size_t n, uint64_t v)
{
	char buf[32];

	if (v < n && names[v]) {
		arm_added(o, ras_record_add_string(o->r, key, names[v], SIZE_MAX));
		return;
	}
	snprintf(buf, sizeof(buf), "reserved (%" PRIu64 ")", v);
	arm_added(o, ras_record_add_string(o->r, key, buf, SIZE_MAX));
}

void arm_bit_names(const char *const *names, size_t n, uint64_t v, char *buf, size_t size)
{
	size_t len = 0;

	buf[0] = '\0';
	for (unsigned bit = 0; bit < 64 && len < size; bit++) {
		if (!(v & (UINT64_C(1) << bit)))
			continue;
		if (bit < n && names[bit])
			len += (size_t) snprintf(buf + len, size - len, "%s%s", len ? "|" : "", names[bit]);
		else
			len += (size_t) snprintf(buf + len, size - len, "%sbit %u", len ? "|" : "", bit);
	}
}

void arm_add_registers(struct arm_out *o, const uint8_t *d, const struct arm_reg *regs, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		const struct arm_reg *g = &regs[i];

		if (g->width == 8)
			arm_added(o, ras_record_add_hex64(o->r, g->key, arm_le64(d + g->offset)));
		else
			arm_added(o, ras_record_add_hex(o->r, g->key, arm_le32(d + g->offset)));
	}
}
