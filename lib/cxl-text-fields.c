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
#include <stdlib.h>
#include <string.h>

#include "cxl-text-fields.h"
#include "macro.h"
#include "parse-number.h"

/* The trace key's length too: a line's keys are looked up by it */
#define F(trace, key, conv, valid) { trace, sizeof(trace) - 1, key, conv, valid }

#define COMMON_HEADER \
	F("memdev", "memdev", CXL_TEXT_STR, NULL), F("host", "host", CXL_TEXT_STR, NULL), \
	F("serial", "serial", CXL_TEXT_UINT, NULL), F("log", "log", CXL_TEXT_LOWER, NULL), \
	F("flags", "record_flags", CXL_TEXT_FLAGS, NULL), F("handle", "handle", CXL_TEXT_HEX, NULL), \
	F("related_handle", "related_handle", CXL_TEXT_HEX, NULL), F("time", "device_time", CXL_TEXT_UINT, NULL), \
	F("maint_op_class", "maint_op_class", CXL_TEXT_UINT, NULL), \
	F("maint_op_sub_class", "maint_op_sub_class", CXL_TEXT_UINT, NULL)
#define MEDIA_COMMON \
	F("dpa", "dpa", CXL_TEXT_HEX64, NULL), F("dpa_flags", "dpa_flags", CXL_TEXT_FLAGS, NULL), \
	F("descriptor", "descriptor", CXL_TEXT_FLAGS, NULL), F("type", "type", CXL_TEXT_NAME, NULL), \
	F("transaction_type", "transaction_type", CXL_TEXT_NAME, NULL), \
	F("hpa", "hpa", CXL_TEXT_HPA, NULL), F("region", "region", CXL_TEXT_NAME, NULL), \
	F("region_uuid", "region_uuid", CXL_TEXT_UUID, NULL)

static const struct cxl_text_field general_media[] = {
	COMMON_HEADER, MEDIA_COMMON,
	F("channel", "channel", CXL_TEXT_UINT, "CHANNEL"), F("rank", "rank", CXL_TEXT_UINT, "RANK"),
	F("device", "media_device", CXL_TEXT_HEX, "DEVICE"), F("cme_count", "cme_count", CXL_TEXT_UINT, NULL),
	{},
};
static const struct cxl_text_field dram[] = {
	COMMON_HEADER, MEDIA_COMMON,
	F("channel", "channel", CXL_TEXT_UINT, "CHANNEL"), F("rank", "rank", CXL_TEXT_UINT, "RANK"),
	F("nibble_mask", "nibble_mask", CXL_TEXT_HEX, "NIBBLE"), F("bank_group", "bank_group", CXL_TEXT_UINT, "BANK GROUP"),
	F("bank", "bank", CXL_TEXT_UINT, "BANK"), F("row", "row", CXL_TEXT_UINT, "ROW"),
	F("column", "column", CXL_TEXT_UINT, "COLUMN"), F("sub_channel", "sub_channel", CXL_TEXT_UINT, "SUB CHANNEL"),
	F("cvme_count", "cvme_count", CXL_TEXT_UINT, NULL),
	{},
};
static const struct cxl_text_field memory_module[] = {
	COMMON_HEADER,
	F("event_type", "event_type", CXL_TEXT_NAME, NULL), F("health_status", "health_status", CXL_TEXT_FLAGS, NULL),
	F("media_status", "media_status", CXL_TEXT_NAME, NULL), F("life_used", "life_used", CXL_TEXT_UINT, NULL),
	F("dirty_shutdown_cnt", "dirty_shutdowns", CXL_TEXT_UINT, NULL),
	F("cor_vol_err_cnt", "corrected_volatile_errors", CXL_TEXT_UINT, NULL),
	F("cor_per_err_cnt", "corrected_persistent_errors", CXL_TEXT_UINT, NULL),
	F("device_temp", "temperature", CXL_TEXT_INT, NULL),
	{},
};
static const struct cxl_text_field poison[] = {
	F("memdev", "memdev", CXL_TEXT_STR, NULL), F("host", "host", CXL_TEXT_STR, NULL),
	F("serial", "serial", CXL_TEXT_UINT, NULL), F("trace_type", "trace_type", CXL_TEXT_LOWER, NULL),
	F("dpa", "dpa", CXL_TEXT_HEX64, NULL), F("dpa_length", "dpa_length", CXL_TEXT_HEX, NULL),
	F("source", "poison_source", CXL_TEXT_STR, NULL), F("flags", "poison_flags", CXL_TEXT_FLAGS, NULL),
	F("overflow_time", "overflow_time", CXL_TEXT_UINT, NULL),
	F("hpa", "hpa", CXL_TEXT_HPA, NULL), F("region", "region", CXL_TEXT_NAME, NULL),
	F("region_uuid", "region_uuid", CXL_TEXT_UUID, NULL),
	{},
};
static const struct cxl_text_field aer[] = {
	F("memdev", "memdev", CXL_TEXT_STR, NULL), F("host", "host", CXL_TEXT_STR, NULL),
	F("serial", "serial", CXL_TEXT_UINT, NULL), F("status", "errors", CXL_TEXT_LIST, NULL),
	F("first_error", "first_error", CXL_TEXT_NAME, NULL),
	{},
};

/* The kernel parser keeps one value per field (+ 1: each table's end). */
#define FITS(table) _Static_assert(ELEMENTSOF(table) <= CXL_TEXT_FIELDS_MAX + 1, #table ": more than CXL_TEXT_FIELDS_MAX")
FITS(general_media);
FITS(dram);
FITS(memory_module);
FITS(poison);
FITS(aer);

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

size_t cxl_text_printable(const char *v, size_t vn, char *buf)
{
	vn = strnlen(v, vn);
	for (size_t i = 0; i < vn; i++)
		buf[i] = (unsigned char) v[i] >= 0x20 && (unsigned char) v[i] < 0x7f ? v[i] : '?';
	buf[vn] = '\0';
	return vn;
}

/*
 * A field's text as the ring decoder keeps the kernel's (tp_add_text):
 * up to a NUL, and printable, so that the control bytes of a hostile log
 * reach no terminal through mcectl decode's record (review M13).
 */
static int add_text(struct ras_record *r, const char *key, const char *v, size_t vn)
{
	_cleanup_free_ char *copy = NULL;
	char buf[256];
	size_t i;

	vn = strnlen(v, vn);
	for (i = 0; i < vn && (unsigned char) v[i] >= 0x20 && (unsigned char) v[i] < 0x7f; i++)
		;
	if (i == vn)
		return ras_record_add_string(r, key, v, vn);   /* nearly always: as it is */
	if (vn >= sizeof(buf)) {
		copy = malloc(vn + 1);
		if (!copy)
			return -ENOMEM;
	}
	vn = cxl_text_printable(v, vn, copy ?: buf);
	return ras_record_add_string(r, key, copy ?: buf, vn);
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
		return add_text(r, f->key, v, vn);
	case CXL_TEXT_NAME:
		return vn == 0 ? 0 : add_text(r, f->key, v, vn);
	case CXL_TEXT_LOWER:
		if (vn >= sizeof(buf))
			vn = sizeof(buf) - 1;
		for (size_t k = 0; k < vn; k++)
			buf[k] = (char) (v[k] >= 'A' && v[k] <= 'Z' ? v[k] - 'A' + 'a' : v[k]);
		return add_text(r, f->key, buf, vn);
	case CXL_TEXT_FLAGS:
		cxl_text_join_flags(v, vn, buf, sizeof(buf));
		return buf[0] ? add_text(r, f->key, buf, strlen(buf)) : 0;
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
		return o == 0 ? 0 : add_text(r, f->key, buf, o);
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
				return add_text(r, f->key, v, vn);
		return 0;
	}
	return 0;
}

/* The fields severity and summary are made of, each the first of its key as ras_record_find() gives it. */
enum { W_LOG, W_DESCRIPTOR, W_TRACE_TYPE, W_DPA, W_DPA_LENGTH, W_MEMDEV, W_TYPE, W_EVENT_TYPE, W_ERRORS, N_WANTED };
static const char *const wanted_keys[N_WANTED] = {
	[W_LOG] = "log", [W_DESCRIPTOR] = "descriptor", [W_TRACE_TYPE] = "trace_type", [W_DPA] = "dpa",
	[W_DPA_LENGTH] = "dpa_length", [W_MEMDEV] = "memdev", [W_TYPE] = "type", [W_EVENT_TYPE] = "event_type",
	[W_ERRORS] = "errors",
};

/* One pass over the record for all of them, not a search for each. */
static void find_wanted(const struct ras_record *r, const struct ras_field *ret[N_WANTED])
{
	memset(ret, 0, N_WANTED * sizeof(ret[0]));
	for (unsigned i = 0; i < r->n_fields; i++) {
		const char *key = r->fields[i].key;

		for (size_t w = 0; w < N_WANTED; w++)
			if (!ret[w] && key[0] == wanted_keys[w][0] && streq(key, wanted_keys[w])) {
				ret[w] = &r->fields[i];
				break;
			}
	}
}

static const char *text_of(const struct ras_field *x)
{
	return x && x->type == RAS_FIELD_STRING ? x->data : NULL;
}

static void set_severity(struct ras_record *r, enum cxl_text_sev rule, const struct ras_field *const *f)
{
	const char *log = text_of(f[W_LOG]), *desc = text_of(f[W_DESCRIPTOR]), *tt = text_of(f[W_TRACE_TYPE]);
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
static void summarise(struct ras_record *r, const struct cxl_text_event *e, const struct ras_field *const *f)
{
	const struct ras_field *dpa = f[W_DPA], *len = f[W_DPA_LENGTH];
	const char *dev = text_of(f[W_MEMDEV]) ?: "unknown device";
	const char *word = ras_severity_word(r->severity);
	const char *detail = text_of(f[W_TYPE]) ?: text_of(f[W_EVENT_TYPE]) ?: text_of(f[W_ERRORS]);

	if (e->sev == CXL_SEV_POISON)
		snprintf(r->summary, sizeof(r->summary), "CXL poison (%s) on %s at DPA 0x%" PRIx64 ", 0x%" PRIx64
			 " bytes", text_of(f[W_TRACE_TYPE]) ?: "unknown", dev, dpa ? dpa->u : 0, len ? len->u : 0);
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
	int i = cxl_text_field_index(e, trace_key, strlen(trace_key));

	return i >= 0 ? &e->fields[i] : NULL;
}

int cxl_text_field_index(const struct cxl_text_event *e, const char *trace_key, size_t kn)
{
	/* length and first byte sort out nearly all: a line's keys are tried against ~35 fields */
	for (const struct cxl_text_field *f = e->fields; f->trace; f++)
		if (f->trace_len == kn && f->trace[0] == trace_key[0] && memcmp(f->trace, trace_key, kn) == 0)
			return (int) (f - e->fields);
	return -1;
}

/* Whether NAME (N bytes) at P is followed by one of SEPS with more text after it; *ret_after if so. */
static bool name_then_sep(const char *line, size_t len, size_t at, size_t n, const char *const *seps,
			  size_t *ret_after)
{
	for (const char *const *sep = seps; *sep; sep++) {
		size_t sn = strlen(*sep);

		if (at + n + sn < len && memcmp(line + at + n, *sep, sn) == 0) {
			*ret_after = at + n + sn;
			return true;
		}
	}
	return false;
}

void cxl_text_events_in(const char *line, size_t len, const char *const *const *seps, size_t n,
			struct cxl_text_named *ret)
{
	const char *end = line + len;

	for (size_t s = 0; s < n; s++)
		ret[s] = (struct cxl_text_named) { NULL, 0 };
	/* each word starting "cxl_" is tried against every name, so the table's
	 * first event wins whichever place in the line names it */
	for (const char *p = line; (p = cxl_text_word_from(line, p, end)); p++) {
		size_t at = (size_t) (p - line);

		for (const struct cxl_text_event *e = events; e < events + ELEMENTSOF(events); e++) {
			size_t nn = strlen(e->name), after;

			if (nn > len - at || memcmp(p, e->name, nn) != 0)
				continue;
			for (size_t s = 0; s < n; s++)
				/* an earlier event of the table, or this one at an earlier place, stays */
				if ((!ret[s].event || ret[s].event > e) && name_then_sep(line, len, at, nn, seps[s], &after))
					ret[s] = (struct cxl_text_named) { e, after };
		}
	}
}

void cxl_text_record_finish(struct ras_record *r, const struct cxl_text_event *e)
{
	const struct ras_field *f[N_WANTED];

	find_wanted(r, f);
	set_severity(r, e->sev, f);
	summarise(r, e, f);
}
