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

#include "cxl-trace-text.h"
#include "macro.h"
#include "parse-number.h"
#include "ras-record.h"

enum conv {
	C_STR,     /* as printed */
	C_LOWER,   /* a symbolic name, lower-cased as the ring decoder names it ("Warning" → "warning") */
	C_NAME,    /* quoted text; empty: absent */
	C_FLAGS,   /* flag names; " | " joined as "|"; empty: absent */
	C_LIST,    /* the AER events' error names; " | " joined as ", ", as the ring decoder does */
	C_HEX64,   /* hex, 0x optional */
	C_HEX,
	C_UINT,
	C_INT,
	C_HPA,     /* hex; all ones: no region maps the address */
	C_UUID,    /* all zero: absent */
};

struct field {
	const char *trace;     /* the key the kernel prints */
	const char *key;       /* the record's key */
	enum conv conv;
	const char *valid;     /* DRAM/general media: printed only when validity_flags names this */
};

enum sev_rule { SEV_MEDIA, SEV_LOG, SEV_POISON, SEV_UE, SEV_CE };

struct event {
	const char *name;
	enum ras_event event;
	enum mce_source source;
	enum sev_rule sev;
	const char *what;      /* for the summary */
	const struct field *fields;
};

#define COMMON_HEADER \
	{ "memdev", "memdev", C_STR, NULL }, { "host", "host", C_STR, NULL }, \
	{ "serial", "serial", C_UINT, NULL }, { "log", "log", C_LOWER, NULL }, \
	{ "flags", "record_flags", C_FLAGS, NULL }, { "handle", "handle", C_HEX, NULL }, \
	{ "related_handle", "related_handle", C_HEX, NULL }, { "time", "device_time", C_UINT, NULL }, \
	{ "maint_op_class", "maint_op_class", C_UINT, NULL }, \
	{ "maint_op_sub_class", "maint_op_sub_class", C_UINT, NULL }
#define MEDIA_COMMON \
	{ "dpa", "dpa", C_HEX64, NULL }, { "dpa_flags", "dpa_flags", C_FLAGS, NULL }, \
	{ "descriptor", "descriptor", C_FLAGS, NULL }, { "type", "type", C_NAME, NULL }, \
	{ "transaction_type", "transaction_type", C_NAME, NULL }, \
	{ "hpa", "hpa", C_HPA, NULL }, { "region", "region", C_NAME, NULL }, \
	{ "region_uuid", "region_uuid", C_UUID, NULL }

static const struct field general_media[] = {
	COMMON_HEADER, MEDIA_COMMON,
	{ "channel", "channel", C_UINT, "CHANNEL" }, { "rank", "rank", C_UINT, "RANK" },
	{ "device", "media_device", C_HEX, "DEVICE" }, { "cme_count", "cme_count", C_UINT, NULL },
	{},
};
static const struct field dram[] = {
	COMMON_HEADER, MEDIA_COMMON,
	{ "channel", "channel", C_UINT, "CHANNEL" }, { "rank", "rank", C_UINT, "RANK" },
	{ "nibble_mask", "nibble_mask", C_HEX, "NIBBLE" }, { "bank_group", "bank_group", C_UINT, "BANK GROUP" },
	{ "bank", "bank", C_UINT, "BANK" }, { "row", "row", C_UINT, "ROW" },
	{ "column", "column", C_UINT, "COLUMN" }, { "sub_channel", "sub_channel", C_UINT, "SUB CHANNEL" },
	{ "cvme_count", "cvme_count", C_UINT, NULL },
	{},
};
static const struct field memory_module[] = {
	COMMON_HEADER,
	{ "event_type", "event_type", C_NAME, NULL }, { "health_status", "health_status", C_FLAGS, NULL },
	{ "media_status", "media_status", C_NAME, NULL }, { "life_used", "life_used", C_UINT, NULL },
	{ "dirty_shutdown_cnt", "dirty_shutdowns", C_UINT, NULL },
	{ "cor_vol_err_cnt", "corrected_volatile_errors", C_UINT, NULL },
	{ "cor_per_err_cnt", "corrected_persistent_errors", C_UINT, NULL },
	{ "device_temp", "temperature", C_INT, NULL },
	{},
};
static const struct field poison[] = {
	{ "memdev", "memdev", C_STR, NULL }, { "host", "host", C_STR, NULL },
	{ "serial", "serial", C_UINT, NULL }, { "trace_type", "trace_type", C_LOWER, NULL },
	{ "dpa", "dpa", C_HEX64, NULL }, { "dpa_length", "dpa_length", C_HEX, NULL },
	{ "source", "poison_source", C_STR, NULL }, { "flags", "poison_flags", C_FLAGS, NULL },
	{ "overflow_time", "overflow_time", C_UINT, NULL },
	{ "hpa", "hpa", C_HPA, NULL }, { "region", "region", C_NAME, NULL },
	{ "region_uuid", "region_uuid", C_UUID, NULL },
	{},
};
static const struct field aer[] = {
	{ "memdev", "memdev", C_STR, NULL }, { "host", "host", C_STR, NULL },
	{ "serial", "serial", C_UINT, NULL }, { "status", "errors", C_LIST, NULL },
	{ "first_error", "first_error", C_NAME, NULL },
	{},
};

static const struct event events[] = {
	{ "cxl_general_media", RAS_EVENT_CXL_GENERAL_MEDIA, MCE_SOURCE_CXL_GENERAL_MEDIA, SEV_MEDIA, "media error",
	  general_media },
	{ "cxl_dram", RAS_EVENT_CXL_DRAM, MCE_SOURCE_CXL_DRAM, SEV_MEDIA, "DRAM error", dram },
	{ "cxl_memory_module", RAS_EVENT_CXL_MEMORY_MODULE, MCE_SOURCE_CXL_MEMORY_MODULE, SEV_LOG,
	  "memory device event", memory_module },
	{ "cxl_poison", RAS_EVENT_CXL_POISON, MCE_SOURCE_CXL_POISON, SEV_POISON, "poison", poison },
	{ "cxl_aer_uncorrectable_error", RAS_EVENT_CXL_AER, MCE_SOURCE_CXL_AER_UNCORRECTABLE, SEV_UE,
	  "error", aer },
	{ "cxl_aer_correctable_error", RAS_EVENT_CXL_AER, MCE_SOURCE_CXL_AER_CORRECTABLE, SEV_CE,
	  "error", aer },
};

/* One "key=value" or "key: 'value'" of the line; the text after the event name. */
struct cursor {
	const char *p, *end;
};

/* The next pair; false at the end.  ":" separators and words without "=" are skipped. */
static bool next_pair(struct cursor *c, const char **k, size_t *kn, const char **v, size_t *vn)
{
	for (;;) {
		const char *start, *eq;

		while (c->p < c->end && *c->p == ' ')
			c->p++;
		if (c->p >= c->end)
			return false;
		start = c->p;
		while (c->p < c->end && *c->p != ' ' && *c->p != '=')
			c->p++;
		eq = c->p;
		/* "status: 'x'": the AER events' form, a key ending in ':' and a quoted value */
		if (eq > start + 1 && eq[-1] == ':' && eq + 1 < c->end && eq[0] == ' ' && eq[1] == '\'') {
			*k = start;
			*kn = (size_t) (eq - 1 - start);
			c->p = eq + 1;
		} else if (eq < c->end && *eq == '=') {
			*k = start;
			*kn = (size_t) (eq - start);
			c->p = eq + 1;
		} else {
			continue;   /* ":" or a word: not a pair */
		}
		if (c->p < c->end && *c->p == '\'') {
			const char *q = memchr(c->p + 1, '\'', (size_t) (c->end - c->p - 1));

			if (!q)
				q = c->end;
			*v = c->p + 1;
			*vn = (size_t) (q - c->p - 1);
			c->p = q < c->end ? q + 1 : q;
		} else {
			*v = c->p;
			while (c->p < c->end && *c->p != ' ')
				c->p++;
			*vn = (size_t) (c->p - *v);
			/* "serial=0:" before the AER events' status */
			if (*vn > 0 && (*v)[*vn - 1] == ':')
				(*vn)--;
		}
		return true;
	}
}

static bool find_value(const char *text, size_t len, const char *key, const char **v, size_t *vn)
{
	struct cursor c = { text, text + len };
	const char *k;
	size_t kn;

	while (next_pair(&c, &k, &kn, v, vn))
		if (kn == strlen(key) && memcmp(k, key, kn) == 0)
			return true;
	return false;
}

/* "A | B" and "A|B" → "A|B" in buf. */
static void join_flags(const char *v, size_t vn, char *buf, size_t size)
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

/* A validity flag's name among "A|B|C". */
static bool flag_named(const char *flags, const char *name)
{
	size_t n = strlen(name);

	for (const char *p = flags; p && *p; p = strchr(p, '|'), p = p ? p + 1 : NULL)
		if (strncmp(p, name, n) == 0 && (p[n] == '|' || p[n] == '\0'))
			return true;
	return false;
}

static int add_field(struct ras_record *r, const struct field *f, const char *v, size_t vn, const char **why)
{
	char buf[256];
	uint64_t u;
	int64_t i;
	size_t skip = vn >= 2 && v[0] == '0' && (v[1] == 'x' || v[1] == 'X') ? 2 : 0;

	switch (f->conv) {
	case C_STR:
		return ras_record_add_string(r, f->key, v, vn);
	case C_NAME:
		return vn == 0 ? 0 : ras_record_add_string(r, f->key, v, vn);
	case C_LOWER:
		if (vn >= sizeof(buf))
			vn = sizeof(buf) - 1;
		for (size_t k = 0; k < vn; k++)
			buf[k] = (char) (v[k] >= 'A' && v[k] <= 'Z' ? v[k] - 'A' + 'a' : v[k]);
		return ras_record_add_string(r, f->key, buf, vn);
	case C_FLAGS:
		join_flags(v, vn, buf, sizeof(buf));
		return buf[0] ? ras_record_add_string(r, f->key, buf, SIZE_MAX) : 0;
	case C_LIST: {
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
	case C_HEX64: case C_HEX: case C_HPA:
		if (parse_unsigned(v + skip, vn - skip, 16, UINT64_MAX, &u) < 0) {
			*why = "a hex field does not read as hex";
			return -EINVAL;
		}
		if (f->conv == C_HPA && u == UINT64_MAX)
			return ras_record_add_string(r, "no_page", "not_in_region", SIZE_MAX);
		return f->conv == C_HEX ? ras_record_add_hex(r, f->key, u) : ras_record_add_hex64(r, f->key, u);
	case C_UINT:
		if (parse_unsigned(v, vn, 10, UINT64_MAX, &u) < 0) {
			*why = "a decimal field does not read as a number";
			return -EINVAL;
		}
		return ras_record_add_uint(r, f->key, u);
	case C_INT:
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
	case C_UUID:
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

static void set_severity(struct ras_record *r, enum sev_rule rule)
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
	case SEV_MEDIA:
		if (desc && flag_named(desc, "UNCORRECTABLE_EVENT"))
			r->severity = by_log == RAS_SEV_FATAL ? RAS_SEV_FATAL : RAS_SEV_UNCORRECTED;
		else
			r->severity = RAS_SEV_CORRECTED;
		break;
	case SEV_LOG:
		r->severity = by_log;
		break;
	case SEV_POISON:
		r->severity = tt && streq(tt, "clear") ? RAS_SEV_INFO : RAS_SEV_UNCORRECTED;
		break;
	case SEV_UE:
		r->severity = RAS_SEV_UNCORRECTED;
		break;
	case SEV_CE:
		r->severity = RAS_SEV_CORRECTED;
		break;
	}
}

/* The daemon's readable line for the same event (kernel-abi/cxl-trace.c's summaries). */
static void summarise(struct ras_record *r, const struct event *e)
{
	const struct ras_field *dpa = ras_record_find(r, "dpa"), *len = ras_record_find(r, "dpa_length");
	const char *dev = text_of(r, "memdev") ?: "unknown device";
	const char *word = ras_severity_word(r->severity);
	const char *detail = text_of(r, "type") ?: text_of(r, "event_type") ?: text_of(r, "errors");

	if (e->sev == SEV_POISON)
		snprintf(r->summary, sizeof(r->summary), "CXL poison (%s) on %s at DPA 0x%" PRIx64 ", 0x%" PRIx64
			 " bytes", text_of(r, "trace_type") ?: "unknown", dev, dpa ? dpa->u : 0, len ? len->u : 0);
	else if (dpa)
		snprintf(r->summary, sizeof(r->summary), "%s CXL %s on %s at DPA 0x%" PRIx64 "%s%s", word, e->what,
			 dev, dpa->u, detail ? ": " : "", detail ?: "");
	else
		snprintf(r->summary, sizeof(r->summary), "%s CXL %s on %s%s%s", word, e->what, dev,
			 detail ? ": " : "", detail ?: "");
}

/* Where the event's name stands: " cxl_dram: " (or at the line's start). */
static const struct event *find_event(const char *line, size_t len, size_t *ret_after)
{
	for (size_t i = 0; i < ELEMENTSOF(events); i++) {
		size_t n = strlen(events[i].name);

		for (const char *p = line; (p = memmem(p, len - (size_t) (p - line), events[i].name, n)); p++) {
			size_t at = (size_t) (p - line);

			if ((at == 0 || p[-1] == ' ') && at + n + 1 < len && p[n] == ':' && p[n + 1] == ' ') {
				*ret_after = at + n + 2;
				return &events[i];
			}
		}
	}
	return NULL;
}

int cxl_trace_text_parse(const char *line, size_t len, struct ras_record *r, const char **ret_why)
{
	const struct event *e;
	const char *body, *v, *valid = NULL;
	char valid_buf[256];
	size_t after = 0, blen, vn;
	int k;

	*ret_why = NULL;
	e = find_event(line, len, &after);
	if (!e)
		return -ENOENT;
	body = line + after;
	blen = len - after;
	if (!find_value(body, blen, "memdev", &v, &vn)) {
		*ret_why = "no memdev= in the event's text";
		return -EINVAL;
	}
	if (find_value(body, blen, "validity_flags", &v, &vn)) {
		join_flags(v, vn, valid_buf, sizeof(valid_buf));
		valid = valid_buf;
	}
	ras_record_init(r, e->event, e->source);
	for (const struct field *f = e->fields; f->trace; f++) {
		if (!find_value(body, blen, f->trace, &v, &vn))
			continue;
		if (f->valid && valid && !flag_named(valid, f->valid))
			continue;
		k = add_field(r, f, v, vn, ret_why);
		if (k == -EINVAL) {
			ras_record_done(r);
			return -EINVAL;
		}
	}
	set_severity(r, e->sev);
	summarise(r, e);
	return 0;
}
