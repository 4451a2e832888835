/* SPDX-License-Identifier: MIT */
#include <inttypes.h>
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json-writer.h"
#include "macro.h"
#include "message-ids.h"
#include "spool-summary.h"

static bool field_is(const struct iovec *v, const char *text)
{
	return v->iov_len == strlen(text) && memcmp(v->iov_base, text, v->iov_len) == 0;
}

/* The value of NAME= in one spooled entry, or NULL; *ret_len its length. */
static const char *field_find(const struct iovec *iov, unsigned n, const char *name, size_t *ret_len)
{
	size_t l = strlen(name);

	for (unsigned i = 0; i < n; i++)
		if (iov[i].iov_len > l && memcmp(iov[i].iov_base, name, l) == 0 &&
		    ((const char *) iov[i].iov_base)[l] == '=') {
			*ret_len = iov[i].iov_len - l - 1;
			return (const char *) iov[i].iov_base + l + 1;
		}
	return NULL;
}

/* The value of NAME= as a string (truncated to size), "-" when the entry has none. */
static void field_value(const struct iovec *iov, unsigned n, const char *name, char *buf, size_t size)
{
	size_t len;
	const char *v = field_find(iov, n, name, &len);

	if (!v)
		snprintf(buf, size, "-");
	else
		snprintf(buf, size, "%.*s", (int) (len < size ? len : size - 1), v);
}

static void count_signature(struct spool_summary *sum, const char *cpu, const char *bank, const char *code,
			    uint64_t count)
{
	unsigned i;

	for (i = 0; i < sum->n; i++)
		if (streq(sum->sig[i].cpu, cpu) && streq(sum->sig[i].bank, bank) && streq(sum->sig[i].code, code))
			break;
	if (i == sum->n && sum->n < SPOOL_SUMMARY_SIGNATURES) {
		snprintf(sum->sig[i].cpu, sizeof(sum->sig[i].cpu), "%s", cpu);
		snprintf(sum->sig[i].bank, sizeof(sum->sig[i].bank), "%s", bank);
		snprintf(sum->sig[i].code, sizeof(sum->sig[i].code), "%s", code);
		sum->n++;
	}
	if (i < sum->n)
		sum->sig[i].count += count;
	else
		sum->other += count;
	sum->count += count;
}

bool spool_summary_is_summary(const struct iovec *iov, unsigned n)
{
	bool lost = false, spool = false;

	for (unsigned i = 0; i < n; i++) {
		if (field_is(&iov[i], "MESSAGE_ID=" MCELOGD_MSGID_LOST))
			lost = true;
		else if (field_is(&iov[i], "MCE_SOURCE=journal_spool"))
			spool = true;
	}
	return lost && spool;
}

bool spool_summary_add_record(struct spool_summary *sum, const struct iovec *iov, unsigned n)
{
	bool record = false, corrected = false;
	char cpu[12], bank[12], status[24], code[12];

	for (unsigned i = 0; i < n; i++) {
		if (field_is(&iov[i], "MESSAGE_ID=" MCELOGD_MSGID_CORRECTED))
			record = true;
		else if (field_is(&iov[i], "MCE_SEVERITY=corrected") || field_is(&iov[i], "MCE_SEVERITY=info"))
			corrected = true;
		else if (iov[i].iov_len > strlen("MCE_STORM_") && memcmp(iov[i].iov_base, "MCE_STORM_", 10) == 0)
			return false;
	}
	if (!record && !corrected)
		return false;
	field_value(iov, n, "MCE_CPU", cpu, sizeof(cpu));
	field_value(iov, n, "MCE_BANK", bank, sizeof(bank));
	field_value(iov, n, "MCE_STATUS", status, sizeof(status));
	/* The error code, as storms name it: STATUS[31:0]. */
	if (strlen(status) == 18)
		snprintf(code, sizeof(code), "0x%.8s", status + 10);
	else
		snprintf(code, sizeof(code), "-");
	count_signature(sum, cpu, bank, code, 1);
	sum->records++;
	return true;
}

void spool_summary_count_other(struct spool_summary *sum)
{
	sum->other++;
	sum->count++;
	sum->records++;
}

static const char *json_string_of(json_object *o, const char *key)
{
	json_object *v;

	return json_object_object_get_ex(o, key, &v) && json_object_is_type(v, json_type_string) ?
		json_object_get_string(v) : "-";
}

/* The signatures of a summary's MCE_JSON, counted in; what they leave of total goes to other. */
static void fold_json(struct spool_summary *sum, const char *json, size_t len, uint64_t total)
{
	_cleanup_free_ char *text = strndup(json, len);
	json_object *root = text ? json_tokener_parse(text) : NULL, *list, *v;
	uint64_t counted = 0;

	if (root && json_object_object_get_ex(root, "summarised", &list) &&
	    json_object_is_type(list, json_type_array))
		for (size_t i = 0; i < json_object_array_length(list); i++) {
			json_object *s = json_object_array_get_idx(list, i);
			uint64_t c;

			if (!json_object_object_get_ex(s, "count", &v) || !json_object_is_type(v, json_type_int))
				continue;
			c = json_object_get_uint64(v);
			/* Never more than the entry's own total, whatever its JSON says. */
			if (c > total - counted)
				c = total - counted;
			count_signature(sum, json_string_of(s, "cpu"), json_string_of(s, "bank"),
					json_string_of(s, "code"), c);
			counted += c;
		}
	json_object_put(root);
	sum->other += total - counted;
	sum->count += total - counted;
}

bool spool_summary_fold(struct spool_summary *sum, const struct iovec *iov, unsigned n)
{
	const char *v;
	char num[24];
	size_t len;
	uint64_t total;

	if (!spool_summary_is_summary(iov, n))
		return false;
	v = field_find(iov, n, "MCE_LOST", &len);
	if (!v || len == 0 || len >= sizeof(num))
		return false;   /* not one we wrote: it stays */
	memcpy(num, v, len);
	num[len] = '\0';
	if (sscanf(num, "%" SCNu64, &total) != 1)
		return false;
	v = field_find(iov, n, "MCE_JSON", &len);
	fold_json(sum, v ? v : "", v ? len : 0, total);
	sum->folded++;
	return true;
}

void spool_summary_merge(struct spool_summary *sum, const struct spool_summary *other)
{
	for (unsigned i = 0; i < other->n; i++)
		count_signature(sum, other->sig[i].cpu, other->sig[i].bank, other->sig[i].code, other->sig[i].count);
	sum->other += other->other;
	sum->count += other->other;
	sum->records += other->records;
	sum->folded += other->folded;
}

void spool_summary_write_json(const struct spool_summary *sum, struct json_writer *w)
{
	json_put_u64(w, "lost", sum->count);
	json_array_begin(w, "summarised");
	for (unsigned i = 0; i < sum->n; i++) {
		json_object_begin(w, NULL);
		json_put_string(w, "cpu", sum->sig[i].cpu);
		json_put_string(w, "bank", sum->sig[i].bank);
		json_put_string(w, "code", sum->sig[i].code);
		json_put_u64(w, "count", sum->sig[i].count);
		json_object_end(w);
	}
	json_array_end(w);
	if (sum->other)
		json_put_u64(w, "other", sum->other);
}
