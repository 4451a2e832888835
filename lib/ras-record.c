/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "json-writer.h"
#include "macro.h"
#include "ras-record.h"
#include "record-json.h"

static const char *const event_names[_RAS_EVENT_MAX] = {
	[RAS_EVENT_MEMORY_CONTROLLER] = "memory_controller",
	[RAS_EVENT_PCIE_AER]          = "pcie_aer",
	[RAS_EVENT_MEMORY_FAILURE]    = "memory_failure",
	[RAS_EVENT_FIRMWARE_MEMORY]   = "firmware_memory",
	[RAS_EVENT_ARM_PROCESSOR]     = "arm_processor",
	[RAS_EVENT_VENDOR_SECTION]    = "vendor_section",
	[RAS_EVENT_X86_PROCESSOR]     = "x86_processor",
	[RAS_EVENT_CXL_GENERAL_MEDIA] = "cxl_general_media",
	[RAS_EVENT_CXL_DRAM] = "cxl_dram",
	[RAS_EVENT_CXL_MEMORY_MODULE] = "cxl_memory_module",
	[RAS_EVENT_CXL_POISON] = "cxl_poison",
	[RAS_EVENT_CXL_MEMORY_SPARING] = "cxl_memory_sparing",
	[RAS_EVENT_CXL_AER] = "cxl_aer",
	[RAS_EVENT_CXL_OVERFLOW] = "cxl_overflow",
	[RAS_EVENT_CXL_GENERIC] = "cxl_generic",
	[RAS_EVENT_PCI_HOTPLUG] = "pci_hotplug",
	[RAS_EVENT_PCIE_LINK] = "pcie_link",
	[RAS_EVENT_DEVLINK_HEALTH] = "devlink_health",
	[RAS_EVENT_DEVLINK_RECOVER_ABORTED] = "devlink_recover_aborted",
	[RAS_EVENT_SIGBUS] = "sigbus",
	[RAS_EVENT_DISK_ERROR] = "disk_error",
};

static const char *const severity_names[_RAS_SEV_MAX] = {
	[RAS_SEV_CORRECTED]   = "corrected",
	[RAS_SEV_DEFERRED]    = "deferred",
	[RAS_SEV_UNCORRECTED] = "uncorrected",
	[RAS_SEV_FATAL]       = "fatal",
	[RAS_SEV_INFO]        = "info",
};

const char *ras_event_to_string(enum ras_event e)
{
	if ((unsigned) e >= _RAS_EVENT_MAX)
		return "unknown";
	return event_names[e];
}

enum ras_event ras_event_from_string(const char *s)
{
	for (size_t i = 0; i < ELEMENTSOF(event_names); i++)
		if (streq(s, event_names[i]))
			return (enum ras_event) i;
	return _RAS_EVENT_INVALID;
}

/* The capitalised word that begins a record's summary ("Corrected ARM cache error ..."). */
const char *ras_severity_word(enum ras_severity s)
{
	static const char *const words[_RAS_SEV_MAX] = {
		[RAS_SEV_CORRECTED]   = "Corrected",
		[RAS_SEV_DEFERRED]    = "Deferred",
		[RAS_SEV_UNCORRECTED] = "Uncorrected",
		[RAS_SEV_FATAL]       = "Fatal",
		[RAS_SEV_INFO]        = "Informational",
	};

	return (unsigned) s < _RAS_SEV_MAX ? words[s] : "Uncorrected";
}

const char *ras_severity_to_string(enum ras_severity s)
{
	if ((unsigned) s >= _RAS_SEV_MAX)
		return "uncorrected";   /* never report an impossible value as harmless */
	return severity_names[s];
}

enum ras_severity ras_severity_from_string(const char *s)
{
	for (size_t i = 0; i < ELEMENTSOF(severity_names); i++)
		if (streq(s, severity_names[i]))
			return (enum ras_severity) i;
	return _RAS_SEV_INVALID;
}

void ras_record_init(struct ras_record *r, enum ras_event event, enum mce_source source)
{
	*r = (struct ras_record) {
		.event = event,
		.source = source,
		.severity = RAS_SEV_UNCORRECTED,
	};
}

void ras_record_done(struct ras_record *r)
{
	for (unsigned i = 0; i < r->n_fields; i++)
		free(r->fields[i].data);
	r->n_fields = 0;
	r->data_used = 0;
	memset(r->index, 0, sizeof(r->index));
}

/* A slot is 1 + a field's index: every field has one, and an empty slot ends a probe. */
_Static_assert(RAS_RECORD_MAX_FIELDS < UINT8_MAX && RAS_RECORD_INDEX_SLOTS > RAS_RECORD_MAX_FIELDS &&
		       (RAS_RECORD_INDEX_SLOTS & (RAS_RECORD_INDEX_SLOTS - 1)) == 0,
	       "the index has a free slot at every probe, and the slot count is a power of two");

/* FNV-1a: keys are a few lower-case words, and a byte at a time costs little beside a strcmp per field. */
static uint32_t key_hash(const char *key)
{
	uint32_t h = UINT32_C(2166136261);

	for (; *key; key++)
		h = (h ^ (unsigned char) *key) * UINT32_C(16777619);
	return h;
}

static unsigned first_slot(uint32_t h)
{
	return (h ^ (h >> 16)) & (RAS_RECORD_INDEX_SLOTS - 1);
}

static unsigned next_slot(unsigned s)
{
	return (s + 1) & (RAS_RECORD_INDEX_SLOTS - 1);
}

/* Literal keys are one string across the program, most often: the pointer first, then the text. */
static bool same_key(const struct ras_record *r, unsigned i, uint32_t h, const char *key)
{
	return r->key_hash[i] == h && (r->fields[i].key == key || streq(r->fields[i].key, key));
}

static struct ras_field *new_field(struct ras_record *r, const char *key, enum ras_field_type t)
{
	uint32_t h = key_hash(key);
	unsigned s = first_slot(h), i;
	bool again = false;

	if (r->n_fields >= RAS_RECORD_MAX_FIELDS) {
		r->truncated = true;
		return NULL;
	}
	for (; r->index[s]; s = next_slot(s))
		if (same_key(r, r->index[s] - 1u, h, key)) {
			again = true;   /* a key given twice: lookups find its first field, as ever */
			break;
		}
	i = r->n_fields++;
	if (!again)
		r->index[s] = (uint8_t) (i + 1);
	r->key_hash[i] = h;
	r->fields[i] = (struct ras_field) { .key = key, .type = t };
	return &r->fields[i];
}

#define ADD_SCALAR(name, ctype, type, member)                                   \
	int ras_record_add_##name(struct ras_record *r, const char *key, ctype v) \
	{                                                                        \
		struct ras_field *f = new_field(r, key, type);                   \
		if (!f)                                                          \
			return -E2BIG;                                           \
		f->member = v;                                                   \
		return 0;                                                        \
	}

ADD_SCALAR(uint, uint64_t, RAS_FIELD_UINT, u)
ADD_SCALAR(int, int64_t, RAS_FIELD_INT, i)
ADD_SCALAR(hex64, uint64_t, RAS_FIELD_HEX64, u)
ADD_SCALAR(hex, uint64_t, RAS_FIELD_HEX, u)
ADD_SCALAR(bool, bool, RAS_FIELD_BOOL, b)

static int add_data(struct ras_record *r, const char *key, enum ras_field_type t,
		    const void *p, size_t n)
{
	struct ras_field *f;
	char *copy;

	if (n > RAS_RECORD_MAX_DATA - r->data_used) {
		r->truncated = true;
		return -E2BIG;
	}
	copy = malloc(n + 1);
	if (!copy)
		return -ENOMEM;
	f = new_field(r, key, t);
	if (!f) {
		free(copy);
		return -E2BIG;
	}
	if (n > 0)
		memcpy(copy, p, n);
	copy[n] = '\0';
	f->data = copy;
	f->len = n;
	r->data_used += n;
	return 0;
}

int ras_record_add_string(struct ras_record *r, const char *key, const char *s, size_t n)
{
	return add_data(r, key, RAS_FIELD_STRING, s, strnlen(s, n));
}

int ras_record_add_bytes(struct ras_record *r, const char *key, const void *p, size_t n)
{
	return add_data(r, key, RAS_FIELD_BYTES, p, n);
}

const struct ras_field *ras_record_find(const struct ras_record *r, const char *key)
{
	uint32_t h = key_hash(key);

	for (unsigned s = first_slot(h); r->index[s]; s = next_slot(s))
		if (same_key(r, r->index[s] - 1u, h, key))
			return &r->fields[r->index[s] - 1u];
	return NULL;
}

static void write_bytes(struct json_writer *w, const char *key, const uint8_t *p, size_t n)
{
	static const char digits[] = "0123456789abcdef";
	size_t used = 0;
	_cleanup_free_ char *hex = malloc(2 * n + 1);

	if (!hex) {
		w->failed = true;
		return;
	}
	for (size_t i = 0; i < n; i++) {
		hex[used++] = digits[p[i] >> 4];
		hex[used++] = digits[p[i] & 0xf];
	}
	hex[used] = '\0';
	json_put_stringn(w, key, hex, used);
}

void ras_record_write_json(const struct ras_record *r, struct json_writer *w)
{
	ras_record_write_json_extra(r, w, NULL, NULL);
}

void ras_record_write_json_extra(const struct ras_record *r, struct json_writer *w, record_json_extra_fn extra,
				 void *userdata)
{
	json_object_begin(w, NULL);
	record_json_put_origin(w, r->have_time, r->time_usec, r->source, r->hostname, r->boot_id);
	json_put_string(w, "event", ras_event_to_string(r->event));
	json_put_string(w, "severity", ras_severity_to_string(r->severity));
	if (r->have_cpu)
		json_put_u64(w, "cpu", r->cpu);
	if (r->summary[0])
		json_put_string(w, "description", r->summary);
	for (unsigned i = 0; i < r->n_fields; i++) {
		const struct ras_field *f = &r->fields[i];

		switch (f->type) {
		case RAS_FIELD_UINT:
			json_put_u64(w, f->key, f->u);
			break;
		case RAS_FIELD_INT:
			json_put_i64(w, f->key, f->i);
			break;
		case RAS_FIELD_HEX64:
			json_put_hex64(w, f->key, f->u);
			break;
		case RAS_FIELD_HEX:
			json_put_hex(w, f->key, f->u);
			break;
		case RAS_FIELD_BOOL:
			json_put_bool(w, f->key, f->b);
			break;
		case RAS_FIELD_STRING:
			json_put_stringn(w, f->key, f->data, f->len);
			break;
		case RAS_FIELD_BYTES:
			write_bytes(w, f->key, (const uint8_t *) f->data, f->len);
			break;
		}
	}
	if (r->truncated)
		json_put_bool(w, "truncated", true);
	if (extra)
		extra(w, userdata);
	json_object_end(w);
}
