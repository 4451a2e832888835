/* SPDX-License-Identifier: MIT */
/*
 * A CXL record's host physical address is valid only when a region maps the
 * device address (kernel-abi/cxl-trace.c leaves "hpa" out otherwise).  A
 * poison record covers dpa_length bytes from its DPA (CXL r3.1 Table 8-140,
 * Media Error Record: Length in 64-byte units, which the kernel's
 * cxl_poison event already traces in bytes); the kernel traces the HPA of
 * the first byte.  A region of one device, or a range inside one interleave
 * granule, maps the range onto consecutive host addresses, which is what the
 * alert names: the page rules and an operator look for it there.
 */
#include <inttypes.h>
#include <stdio.h>

#include "alert-where.h"
#include "ras-record.h"
#include "rule-field.h"

static bool field_u64(const struct ras_record *r, const char *key, uint64_t *ret)
{
	const struct ras_field *x = ras_record_find(r, key);

	if (!x || (x->type != RAS_FIELD_UINT && x->type != RAS_FIELD_HEX64 && x->type != RAS_FIELD_HEX))
		return false;
	*ret = x->u;
	return true;
}

static const char *field_text(const struct ras_record *r, const char *key)
{
	const struct ras_field *x = ras_record_find(r, key);

	return x && x->type == RAS_FIELD_STRING ? x->data : NULL;
}

size_t alert_where(const struct rule_input *in, char *buf, size_t size)
{
	const struct ras_record *r = in ? in->ras : NULL;
	const char *dev, *region;
	uint64_t hpa, len = 0;
	int n;

	if (size > 0)
		buf[0] = '\0';
	if (!r || size == 0 || !field_u64(r, "hpa", &hpa))
		return 0;
	dev = field_text(r, "memdev") ?: "CXL memory";
	region = field_text(r, "region");
	if (field_u64(r, "dpa_length", &len) && len > 0 && hpa <= UINT64_MAX - (len - 1))
		n = snprintf(buf, size, "; %s%s%s%s at HPA 0x%" PRIx64 "-0x%" PRIx64, dev,
			     region ? " (" : "", region ?: "", region ? ")" : "", hpa, hpa + len - 1);
	else
		n = snprintf(buf, size, "; %s%s%s%s at HPA 0x%" PRIx64, dev,
			     region ? " (" : "", region ?: "", region ? ")" : "", hpa);
	if (n < 0)
		return 0;
	return (size_t) n < size ? (size_t) n : size - 1;
}
