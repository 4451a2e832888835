/* SPDX-License-Identifier: MIT */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "page-identity.h"
#include "ras-record.h"
#include "rule-field.h"

struct text {
	char *buf;
	size_t size, len;
};

/* Appends "key=value" (';' before all but the first); a value's ';' and '=' become '_'. */
static void add(struct text *t, const char *key, const char *value)
{
	int n;

	if (!value || !value[0])
		return;
	n = snprintf(t->buf + t->len, t->size - t->len, "%s%s=", t->len ? ";" : "", key);
	if (n < 0 || (size_t) n >= t->size - t->len)
		return;
	t->len += (size_t) n;
	for (; *value && t->len + 1 < t->size; value++)
		t->buf[t->len++] = *value == ';' || *value == '=' ? '_' : *value;
	t->buf[t->len] = '\0';
}

static void add_u(struct text *t, const char *key, uint64_t u, bool hex)
{
	char v[24];

	snprintf(v, sizeof(v), hex ? "0x%" PRIx64 : "%" PRIu64, u);
	add(t, key, v);
}

static void add_field(struct text *t, const struct rule_input *in, enum rule_field f)
{
	struct rule_value v;

	if (!rule_field_get(in, f, &v))
		return;
	if (v.is_string)
		add(t, rule_field_to_string(f), rule_value_string(&v));
	else
		add_u(t, rule_field_to_string(f), v.u, false);
}

/*
 * A CXL memdev's serial (0 is no serial: QEMU's, and devices without a DSN),
 * its DPA, and the region that mapped it to the page's address: a region
 * made again elsewhere maps other memory there.
 */
static bool add_cxl(struct text *t, const struct ras_record *r)
{
	const struct ras_field *serial = ras_record_find(r, "serial"), *dpa = ras_record_find(r, "dpa");
	const struct ras_field *region = ras_record_find(r, "region");

	if (!serial || serial->type != RAS_FIELD_UINT || serial->u == 0 || !dpa || dpa->type != RAS_FIELD_UINT)
		return false;
	add_u(t, "cxl_serial", serial->u, true);
	add_u(t, "dpa", dpa->u, true);
	if (region && region->type == RAS_FIELD_STRING && region->data[0])
		add(t, "region", region->data);
	return true;
}

void page_identity_of_record(const struct rule_input *in, const char *dimm_serial, char *buf, size_t size)
{
	struct text t = { .buf = buf, .size = size };

	if (size == 0)
		return;
	buf[0] = '\0';
	if (in->ras && add_cxl(&t, in->ras))
		return;
	add_field(&t, in, RULE_FIELD_SLOT);
	add(&t, "serial", dimm_serial);
	add_field(&t, in, RULE_FIELD_MC);
	add_field(&t, in, RULE_FIELD_CHANNEL);
	add_field(&t, in, RULE_FIELD_DIMM);
}

bool page_identity_get(const char *identity, const char *key, char *buf, size_t size)
{
	size_t klen = strlen(key);

	for (const char *p = identity; p && *p; p = strchr(p, ';'), p = p ? p + 1 : NULL) {
		const char *end = strchr(p, ';');
		size_t n;

		if (strncmp(p, key, klen) != 0 || p[klen] != '=')
			continue;
		p += klen + 1;
		n = end ? (size_t) (end - p) : strlen(p);
		if (size == 0)
			return true;
		if (n >= size)
			n = size - 1;
		memcpy(buf, p, n);
		buf[n] = '\0';
		return true;
	}
	return false;
}
