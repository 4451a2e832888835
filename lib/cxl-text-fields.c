/* SPDX-License-Identifier: MIT */
/*
 * Field names and their printed forms follow the print formats of Linux
 * 7.3's drivers/cxl/core/trace.h, as its tracefs format files give them
 * (tests/data/tracefs/7.3/cxl/): "key=value" and "key='text'" pairs, hex
 * without 0x for dpa and hpa in the event records (with 0x in cxl_poison),
 * symbolic names for logs and types, flags joined by "|" or " | ".  The
 * record keys, and how severity follows from log, descriptor and trace
 * type, are kernel-abi/cxl-trace.c's, whose header cites the CXL r3.1
 * tables they come from.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "cxl-text-fields.h"
#include "macro.h"
#include "parse-number.h"

#define COMMON_HEADER \
	{ "memdev", "memdev", CXL_TEXT_STR, NULL }, { "host", "host", CXL_TEXT_STR, NULL }, \
	{ "serial", "serial", CXL_TEXT_UINT, NULL }, { "log", "log", CXL_TEXT_LOWER, NULL }, \
	{ "flags", "record_flags", CXL_TEXT_FLAGS, NULL }, { "handle", "handle", CXL_TEXT_HEX, NULL }, \
	{ "related_handle", "related_handle", CXL_TEXT_HEX, NULL }, { "time", "device_time", CXL_TEXT_UINT, NULL }, \
	{ "maint_op_class", "maint_op_class", CXL_TEXT_UINT, NULL }, \
	{ "maint_op_sub_class", "maint_op_sub_class", CXL_TEXT_UINT, NULL }
#define MEDIA_COMMON \
	{ "dpa", "dpa", CXL_TEXT_HEX64, NULL }, { "dpa_flags", "dpa_flags", CXL_TEXT_FLAGS, NULL }, \
	{ "descriptor", "descriptor", CXL_TEXT_FLAGS, NULL }, { "type", "type", CXL_TEXT_NAME, NULL }, \
	{ "transaction_type", "transaction_type", CXL_TEXT_NAME, NULL }, \
	{ "hpa", "hpa", CXL_TEXT_HPA, NULL }, { "region", "region", CXL_TEXT_NAME, NULL }, \
	{ "region_uuid", "region_uuid", CXL_TEXT_UUID, NULL }

static const struct cxl_text_field general_media[] = {
	COMMON_HEADER, MEDIA_COMMON,
	{ "channel", "channel", CXL_TEXT_UINT, "CHANNEL" }, { "rank", "rank", CXL_TEXT_UINT, "RANK" },
	{ "device", "media_device", CXL_TEXT_HEX, "DEVICE" }, { "cme_count", "cme_count", CXL_TEXT_UINT, NULL },
	{},
};
static const struct cxl_text_field dram[] = {
	COMMON_HEADER, MEDIA_COMMON,
	{ "channel", "channel", CXL_TEXT_UINT, "CHANNEL" }, { "rank", "rank", CXL_TEXT_UINT, "RANK" },
	{ "nibble_mask", "nibble_mask", CXL_TEXT_HEX, "NIBBLE" }, { "bank_group", "bank_group", CXL_TEXT_UINT, "BANK GROUP" },
	{ "bank", "bank", CXL_TEXT_UINT, "BANK" }, { "row", "row", CXL_TEXT_UINT, "ROW" },
	{ "column", "column", CXL_TEXT_UINT, "COLUMN" }, { "sub_channel", "sub_channel", CXL_TEXT_UINT, "SUB CHANNEL" },
	{ "cvme_count", "cvme_count", CXL_TEXT_UINT, NULL },
	{},
};
static const struct cxl_text_field memory_module[] = {
	COMMON_HEADER,
	{ "event_type", "event_type", CXL_TEXT_NAME, NULL }, { "health_status", "health_status", CXL_TEXT_FLAGS, NULL },
	{ "media_status", "media_status", CXL_TEXT_NAME, NULL }, { "life_used", "life_used", CXL_TEXT_UINT, NULL },
	{ "dirty_shutdown_cnt", "dirty_shutdowns", CXL_TEXT_UINT, NULL },
	{ "cor_vol_err_cnt", "corrected_volatile_errors", CXL_TEXT_UINT, NULL },
	{ "cor_per_err_cnt", "corrected_persistent_errors", CXL_TEXT_UINT, NULL },
	{ "device_temp", "temperature", CXL_TEXT_INT, NULL },
	{},
};
static const struct cxl_text_field poison[] = {
	{ "memdev", "memdev", CXL_TEXT_STR, NULL }, { "host", "host", CXL_TEXT_STR, NULL },
	{ "serial", "serial", CXL_TEXT_UINT, NULL }, { "trace_type", "trace_type", CXL_TEXT_LOWER, NULL },
	{ "dpa", "dpa", CXL_TEXT_HEX64, NULL }, { "dpa_length", "dpa_length", CXL_TEXT_HEX, NULL },
	{ "source", "poison_source", CXL_TEXT_STR, NULL }, { "flags", "poison_flags", CXL_TEXT_FLAGS, NULL },
	{ "overflow_time", "overflow_time", CXL_TEXT_UINT, NULL },
	{ "hpa", "hpa", CXL_TEXT_HPA, NULL }, { "region", "region", CXL_TEXT_NAME, NULL },
	{ "region_uuid", "region_uuid", CXL_TEXT_UUID, NULL },
	{},
};
static const struct cxl_text_field aer[] = {
	{ "memdev", "memdev", CXL_TEXT_STR, NULL }, { "host", "host", CXL_TEXT_STR, NULL },
	{ "serial", "serial", CXL_TEXT_UINT, NULL }, { "status", "errors", CXL_TEXT_LIST, NULL },
	{ "first_error", "first_error", CXL_TEXT_NAME, NULL },
	{},
};

static const struct cxl_text_event events[] = {
	{ "cxl_general_media", RAS_EVENT_CXL_GENERAL_MEDIA, MCE_SOURCE_CXL_GENERAL_MEDIA, CXL_SEV_MEDIA, "media error",
	  general_media },
	{ "cxl_dram", RAS_EVENT_CXL_DRAM, MCE_SOURCE_CXL_DRAM, CXL_SEV_MEDIA, "DRAM error", dram },
	{ "cxl_memory_module", RAS_EVENT_CXL_MEMORY_MODULE, MCE_SOURCE_CXL_MEMORY_MODULE, CXL_SEV_LOG,
	  "memory device event", memory_module },
	{ "cxl_poison", RAS_EVENT_CXL_POISON, MCE_SOURCE_CXL_POISON, CXL_SEV_POISON, "poison", poison },
	{ "cxl_aer_uncorrectable_error", RAS_EVENT_CXL_AER, MCE_SOURCE_CXL_AER_UNCORRECTABLE, CXL_SEV_UE,
	  "error", aer },
	{ "cxl_aer_correctable_error", RAS_EVENT_CXL_AER, MCE_SOURCE_CXL_AER_CORRECTABLE, CXL_SEV_CE,
	  "error", aer },
};

void cxl_text_join_flags(const char *v, size_t vn, char *buf, size_t size)
{
	size_t o = 0;

	for (size_t i = 0; i < vn && o + 1 < size; i++) {
		if (v[i] == ' ' && i + 1 < vn && v[i + 1] == '|')
			continue;
		if (v[i] == ' ' && i > 0 && v[i - 1] == '|')
			continue;
		buf[o++] = v[i];
	}
	buf[o] = '\0';
}

bool cxl_text_flag_named(const char *flags, const char *name)
{
	size_t n = strlen(name);

	for (const char *p = flags; p && *p; p = strchr(p, '|'), p = p ? p + 1 : NULL)
		if (strncmp(p, name, n) == 0 && (p[n] == '|' || p[n] == '\0'))
			return true;
	return false;
}

int cxl_text_field_add(struct ras_record *r, const struct cxl_text_field *f, const char *v, size_t vn,
		       const char **why)
{
	char buf[256];
	uint64_t u;
	int64_t i;
	size_t skip = vn >= 2 && v[0] == '0' && (v[1] == 'x' || v[1] == 'X') ? 2 : 0;

	switch (f->conv) {
	case CXL_TEXT_STR:
		return ras_record_add_string(r, f->key, v, vn);
	case CXL_TEXT_NAME:
		return vn == 0 ? 0 : ras_record_add_string(r, f->key, v, vn);
	case CXL_TEXT_LOWER:
		if (vn >= sizeof(buf))
			vn = sizeof(buf) - 1;
		for (size_t k = 0; k < vn; k++)
			buf[k] = (char) (v[k] >= 'A' && v[k] <= 'Z' ? v[k] - 'A' + 'a' : v[k]);
		return ras_record_add_string(r, f->key, buf, vn);
	case CXL_TEXT_FLAGS:
		cxl_text_join_flags(v, vn, buf, sizeof(buf));
		return buf[0] ? ras_record_add_string(r, f->key, buf, SIZE_MAX) : 0;
	case CXL_TEXT_LIST: {
		size_t o = 0;

		for (size_t k = 0; k < vn && o + 2 < sizeof(buf); k++) {
			if (k + 2 < vn && v[k] == ' ' && v[k + 1] == '|' && v[k + 2] == ' ') {
				buf[o++] = ',';
				buf[o++] = ' ';
				k += 2;
			} else {
				buf[o++] = v[k];
			}
		}
		return o == 0 ? 0 : ras_record_add_string(r, f->key, buf, o);
	}
	case CXL_TEXT_HEX64: case CXL_TEXT_HEX: case CXL_TEXT_HPA:
		if (parse_unsigned(v + skip, vn - skip, 16, UINT64_MAX, &u) < 0) {
			*why = "a hex field does not read as hex";
			return -EINVAL;
		}
		if (f->conv == CXL_TEXT_HPA && u == UINT64_MAX)
			return ras_record_add_string(r, "no_page", "not_in_region", SIZE_MAX);
		return f->conv == CXL_TEXT_HEX ? ras_record_add_hex(r, f->key, u) : ras_record_add_hex64(r, f->key, u);
	case CXL_TEXT_UINT:
		if (parse_unsigned(v, vn, 10, UINT64_MAX, &u) < 0) {
			*why = "a decimal field does not read as a number";
			return -EINVAL;
		}
		return ras_record_add_uint(r, f->key, u);
	case CXL_TEXT_INT:
		if (vn > 0 && v[0] == '-') {
			if (parse_unsigned(v + 1, vn - 1, 10, (uint64_t) INT64_MAX, &u) < 0) {
				*why = "a signed field does not read as a number";
				return -EINVAL;
			}
			i = -(int64_t) u;
		} else {
			if (parse_unsigned(v, vn, 10, (uint64_t) INT64_MAX, &u) < 0) {
				*why = "a signed field does not read as a number";
				return -EINVAL;
			}
			i = (int64_t) u;
		}
		return ras_record_add_int(r, f->key, i);
	case CXL_TEXT_UUID:
		for (size_t k = 0; k < vn; k++)
			if (v[k] != '0' && v[k] != '-')
				return ras_record_add_string(r, f->key, v, vn);
		return 0;
	}
	return 0;
}

static const char *text_of(const struct ras_record *r, const char *key)
{
	const struct ras_field *x = ras_record_find(r, key);

	return x && x->type == RAS_FIELD_STRING ? x->data : NULL;
}

static void set_severity(struct ras_record *r, enum cxl_text_sev rule)
{
	const char *log = text_of(r, "log"), *desc = text_of(r, "descriptor"), *tt = text_of(r, "trace_type");
	static const char *const logs[] = { "informational", "warning", "failure", "fatal" };
	static const enum ras_severity log_sev[] = {
		RAS_SEV_INFO, RAS_SEV_CORRECTED, RAS_SEV_UNCORRECTED, RAS_SEV_FATAL,
	};
	enum ras_severity by_log = RAS_SEV_UNCORRECTED;   /* a log we do not know: never harmless */

	for (size_t i = 0; log && i < ELEMENTSOF(logs); i++)
		if (streq(log, logs[i]))
			by_log = log_sev[i];
	switch (rule) {
	case CXL_SEV_MEDIA:
		if (desc && cxl_text_flag_named(desc, "UNCORRECTABLE_EVENT"))
			r->severity = by_log == RAS_SEV_FATAL ? RAS_SEV_FATAL : RAS_SEV_UNCORRECTED;
		else
			r->severity = RAS_SEV_CORRECTED;
		break;
	case CXL_SEV_LOG:
		r->severity = by_log;
		break;
	case CXL_SEV_POISON:
		r->severity = tt && streq(tt, "clear") ? RAS_SEV_INFO : RAS_SEV_UNCORRECTED;
		break;
	case CXL_SEV_UE:
		r->severity = RAS_SEV_UNCORRECTED;
		break;
	case CXL_SEV_CE:
		r->severity = RAS_SEV_CORRECTED;
		break;
	}
}

/* The daemon's readable line for the same event (kernel-abi/cxl-trace.c's summaries). */
static void summarise(struct ras_record *r, const struct cxl_text_event *e)
{
	const struct ras_field *dpa = ras_record_find(r, "dpa"), *len = ras_record_find(r, "dpa_length");
	const char *dev = text_of(r, "memdev") ?: "unknown device";
	const char *word = ras_severity_word(r->severity);
	const char *detail = text_of(r, "type") ?: text_of(r, "event_type") ?: text_of(r, "errors");

	if (e->sev == CXL_SEV_POISON)
		snprintf(r->summary, sizeof(r->summary), "CXL poison (%s) on %s at DPA 0x%" PRIx64 ", 0x%" PRIx64
			 " bytes", text_of(r, "trace_type") ?: "unknown", dev, dpa ? dpa->u : 0, len ? len->u : 0);
	else if (dpa)
		snprintf(r->summary, sizeof(r->summary), "%s CXL %s on %s at DPA 0x%" PRIx64 "%s%s", word, e->what,
			 dev, dpa->u, detail ? ": " : "", detail ?: "");
	else
		snprintf(r->summary, sizeof(r->summary), "%s CXL %s on %s%s%s", word, e->what, dev,
			 detail ? ": " : "", detail ?: "");
}

const struct cxl_text_event *cxl_text_events(size_t *ret_n)
{
	*ret_n = ELEMENTSOF(events);
	return events;
}

const struct cxl_text_event *cxl_text_event_named(const char *name, size_t len)
{
	for (size_t i = 0; i < ELEMENTSOF(events); i++)
		if (strlen(events[i].name) == len && memcmp(events[i].name, name, len) == 0)
			return &events[i];
	return NULL;
}

const struct cxl_text_field *cxl_text_field_named(const struct cxl_text_event *e, const char *trace_key)
{
	for (const struct cxl_text_field *f = e->fields; f->trace; f++)
		if (streq(f->trace, trace_key))
			return f;
	return NULL;
}

const struct cxl_text_event *cxl_text_event_in(const char *line, size_t len, const char *const *seps,
					       size_t *ret_after)
{
	for (size_t i = 0; i < ELEMENTSOF(events); i++) {
		size_t n = strlen(events[i].name);

		for (const char *p = line; (p = memmem(p, len - (size_t) (p - line), events[i].name, n)); p++) {
			size_t at = (size_t) (p - line);

			if (at > 0 && p[-1] != ' ')
				continue;
			for (const char *const *sep = seps; *sep; sep++) {
				size_t sn = strlen(*sep);

				if (at + n + sn < len && memcmp(p + n, *sep, sn) == 0) {
					*ret_after = at + n + sn;
					return &events[i];
				}
			}
		}
	}
	return NULL;
}

void cxl_text_record_finish(struct ras_record *r, const struct cxl_text_event *e)
{
	set_severity(r, e->sev);
	summarise(r, e);
}
