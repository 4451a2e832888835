/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "macro.h"
#include "mem-repair.h"
#include "ras-record.h"

#define BIT(a) (1u << (a))

/*
 * Per repair type (header: the ABI document, drivers/cxl/core/edac.c): the
 * attributes the record must give, and those written when it has them (0
 * when it does not, so that nothing of an earlier request stays set).  The
 * DPA is needed by every type: with the memory online the CXL driver finds
 * the event record that reported the location by it.
 */
static const struct {
	const char *name;
	unsigned needs;
	unsigned optional;
} types[_MEM_REPAIR_TYPE_MAX] = {
	[MEM_REPAIR_PPR] = { "ppr", BIT(MEM_REPAIR_ATTR_DPA), BIT(MEM_REPAIR_ATTR_NIBBLE_MASK) },
	[MEM_REPAIR_CACHELINE_SPARING] = { "cacheline-sparing",
		BIT(MEM_REPAIR_ATTR_DPA) | BIT(MEM_REPAIR_ATTR_CHANNEL) | BIT(MEM_REPAIR_ATTR_RANK) |
		BIT(MEM_REPAIR_ATTR_BANK_GROUP) | BIT(MEM_REPAIR_ATTR_BANK) | BIT(MEM_REPAIR_ATTR_ROW) |
		BIT(MEM_REPAIR_ATTR_COLUMN),
		BIT(MEM_REPAIR_ATTR_NIBBLE_MASK) | BIT(MEM_REPAIR_ATTR_SUB_CHANNEL) },
	[MEM_REPAIR_ROW_SPARING] = { "row-sparing",
		BIT(MEM_REPAIR_ATTR_DPA) | BIT(MEM_REPAIR_ATTR_CHANNEL) | BIT(MEM_REPAIR_ATTR_RANK) |
		BIT(MEM_REPAIR_ATTR_BANK_GROUP) | BIT(MEM_REPAIR_ATTR_BANK) | BIT(MEM_REPAIR_ATTR_ROW),
		BIT(MEM_REPAIR_ATTR_NIBBLE_MASK) },
	[MEM_REPAIR_BANK_SPARING] = { "bank-sparing",
		BIT(MEM_REPAIR_ATTR_DPA) | BIT(MEM_REPAIR_ATTR_CHANNEL) | BIT(MEM_REPAIR_ATTR_RANK) |
		BIT(MEM_REPAIR_ATTR_BANK_GROUP) | BIT(MEM_REPAIR_ATTR_BANK),
		BIT(MEM_REPAIR_ATTR_NIBBLE_MASK) },
	[MEM_REPAIR_RANK_SPARING] = { "rank-sparing",
		BIT(MEM_REPAIR_ATTR_DPA) | BIT(MEM_REPAIR_ATTR_CHANNEL) | BIT(MEM_REPAIR_ATTR_RANK),
		BIT(MEM_REPAIR_ATTR_NIBBLE_MASK) },
};

/* The attribute files, also the keys of the CXL records; the largest value the payloads carry. */
static const struct {
	const char *name;
	uint64_t max;
} attrs[_MEM_REPAIR_ATTR_MAX] = {
	[MEM_REPAIR_ATTR_DPA]         = { "dpa",         UINT64_MAX },
	[MEM_REPAIR_ATTR_NIBBLE_MASK] = { "nibble_mask", 0xffffff },
	[MEM_REPAIR_ATTR_CHANNEL]     = { "channel",     0xff },
	[MEM_REPAIR_ATTR_SUB_CHANNEL] = { "sub_channel", 0xff },
	[MEM_REPAIR_ATTR_RANK]        = { "rank",        0xff },
	[MEM_REPAIR_ATTR_BANK_GROUP]  = { "bank_group",  0xff },
	[MEM_REPAIR_ATTR_BANK]        = { "bank",        0xff },
	[MEM_REPAIR_ATTR_ROW]         = { "row",         0xffffff },
	[MEM_REPAIR_ATTR_COLUMN]      = { "column",      0xffff },
};

static const char *const refusals[_MEM_REPAIR_REFUSAL_MAX] = {
	[MEM_REPAIR_GO] = "",
	[MEM_REPAIR_DISABLED] = "disabled",
	[MEM_REPAIR_NOT_OFFERED] = "not-offered",
	[MEM_REPAIR_TYPE_UNSUPPORTED] = "type-unsupported",
	[MEM_REPAIR_NOT_SAFE_IN_USE] = "not-safe-in-use",
	[MEM_REPAIR_OUT_OF_RANGE] = "out-of-range",
	[MEM_REPAIR_LIMIT_DEVICE] = "device-limit",
	[MEM_REPAIR_LIMIT_DAY] = "daily-limit",
	[MEM_REPAIR_ALREADY_DONE] = "already-repaired",
	[MEM_REPAIR_NO_TARGET] = "no-cxl-location",
};

static const char *const outcomes[_MEM_REPAIR_OUTCOME_MAX] = {
	[MEM_REPAIR_DONE] = "done",
	[MEM_REPAIR_REFUSED] = "refused",
	[MEM_REPAIR_FAILED] = "failed",
	[MEM_REPAIR_WOULD] = "would",
};

const char *mem_repair_outcome_to_string(enum mem_repair_outcome o)
{
	return (unsigned) o < _MEM_REPAIR_OUTCOME_MAX ? outcomes[o] : "unknown";
}

const char *mem_repair_type_to_string(enum mem_repair_type t)
{
	return (unsigned) t < _MEM_REPAIR_TYPE_MAX ? types[t].name : "unknown";
}

enum mem_repair_type mem_repair_type_from_string(const char *s)
{
	for (unsigned t = 0; t < _MEM_REPAIR_TYPE_MAX; t++)
		if (streq(types[t].name, s))
			return (enum mem_repair_type) t;
	return _MEM_REPAIR_TYPE_INVALID;
}

const char *mem_repair_attr_to_string(enum mem_repair_attr a)
{
	return (unsigned) a < _MEM_REPAIR_ATTR_MAX ? attrs[a].name : NULL;
}

const char *mem_repair_refusal_to_string(enum mem_repair_refusal r)
{
	return (unsigned) r < _MEM_REPAIR_REFUSAL_MAX ? refusals[r] : "unknown";
}

int mem_repair_target_from_record(const struct ras_record *r, struct mem_repair_target *ret,
				  const char **ret_why)
{
	const struct ras_field *f;

	*ret = (struct mem_repair_target) { 0 };
	*ret_why = NULL;
	if (r->event != RAS_EVENT_CXL_DRAM && r->event != RAS_EVENT_CXL_GENERAL_MEDIA) {
		*ret_why = "only a CXL DRAM or general media event names memory a device can repair";
		return -EINVAL;
	}
	f = ras_record_find(r, "memdev");
	if (!f || f->type != RAS_FIELD_STRING || !f->data[0] || f->len >= sizeof(ret->memdev)) {
		*ret_why = "the record names no CXL memory device";
		return -EINVAL;
	}
	memcpy(ret->memdev, f->data, f->len + 1);
	f = ras_record_find(r, "serial");
	if (f && f->type == RAS_FIELD_UINT) {
		ret->have_serial = true;
		ret->serial = f->u;
	}
	ret->general_media = r->event == RAS_EVENT_CXL_GENERAL_MEDIA;
	for (unsigned a = 0; a < _MEM_REPAIR_ATTR_MAX; a++) {
		/* A general media record's channel and rank are the media's, not a DRAM cell's. */
		if (ret->general_media && a != MEM_REPAIR_ATTR_DPA)
			continue;
		f = ras_record_find(r, attrs[a].name);
		if (!f || f->type == RAS_FIELD_STRING || f->type == RAS_FIELD_BYTES || f->type == RAS_FIELD_INT ||
		    f->type == RAS_FIELD_BOOL)
			continue;
		ret->have[a] = true;
		ret->value[a] = f->u;
	}
	if (!ret->have[MEM_REPAIR_ATTR_DPA]) {
		*ret_why = "the record gives no device physical address (DPA)";
		return -EINVAL;
	}
	return 0;
}

int mem_repair_edac_device(const char *memdev, char *buf, size_t size)
{
	int n = snprintf(buf, size, "cxl_%s", memdev);

	return n < 0 || (size_t) n >= size ? -E2BIG : 0;
}

void mem_repair_device_key(const struct mem_repair_target *t, char *buf, size_t size)
{
	if (t->have_serial && t->serial != 0)
		snprintf(buf, size, "serial=0x%" PRIx64, t->serial);
	else
		snprintf(buf, size, "%s", t->memdev);
}

static bool fits(const struct mem_repair_target *t, enum mem_repair_type type)
{
	for (unsigned a = 0; a < _MEM_REPAIR_ATTR_MAX; a++)
		if ((types[type].needs & BIT(a)) && !t->have[a])
			return false;
	/* The driver matches a general media record only for PPR. */
	return !t->general_media || type == MEM_REPAIR_PPR;
}

static uint64_t value_of(const struct mem_repair_target *t, unsigned a)
{
	return t->have[a] ? t->value[a] : 0;
}

bool mem_repair_location(const struct mem_repair_target *t, enum mem_repair_type type, char *buf,
			 size_t size)
{
	char key[MEM_REPAIR_DEVICE_MAX + 32];
	size_t used;

	if ((unsigned) type >= _MEM_REPAIR_TYPE_MAX || !fits(t, type))
		return false;
	mem_repair_device_key(t, key, sizeof(key));
	used = (size_t) snprintf(buf, size, "%s %s", key, types[type].name);
	for (unsigned a = 0; a < _MEM_REPAIR_ATTR_MAX && used < size; a++)
		if ((types[type].needs | types[type].optional) & BIT(a))
			used += (size_t) snprintf(buf + used, size - used, " %s=0x%" PRIx64, attrs[a].name,
						  value_of(t, a));
	return used < size;
}

_printf_(3, 4)
static void refuse(struct mem_repair_plan *p, enum mem_repair_refusal why, const char *fmt, ...)
{
	va_list ap;

	p->refusal = why;
	p->n_writes = 0;
	va_start(ap, fmt);
	vsnprintf(p->why, sizeof(p->why), fmt, ap);
	va_end(ap);
}

/* Every type the device offers, "ppr, row-sparing" (unknown ones as the kernel named them). */
static void offered_types(const struct mem_repair_offer *offers, size_t n, char *buf, size_t size)
{
	size_t used = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < n && used < size; i++)
		used += (size_t) snprintf(buf + used, size - used, "%s%s", i ? ", " : "",
					  offers[i].type_text[0] ? offers[i].type_text : "unreadable");
}

/* The finest repair the record fits, safe in use where one is: the offer, or NULL. */
static const struct mem_repair_offer *choose(const struct mem_repair_target *t,
					     const struct mem_repair_offer *offers, size_t n, bool *ret_unsafe_only)
{
	const struct mem_repair_offer *unsafe = NULL;

	for (unsigned type = 0; type < _MEM_REPAIR_TYPE_MAX; type++) {
		if (!fits(t, (enum mem_repair_type) type))
			continue;
		for (size_t i = 0; i < n; i++) {
			bool has_files = true;

			if (offers[i].type != (enum mem_repair_type) type)
				continue;
			for (unsigned a = 0; a < _MEM_REPAIR_ATTR_MAX; a++)
				if ((types[type].needs & BIT(a)) && !offers[i].have_attr[a])
					has_files = false;
			if (!has_files)
				continue;
			if (offers[i].safe_when_in_use == 1)
				return &offers[i];
			if (!unsafe)
				unsafe = &offers[i];
		}
	}
	*ret_unsafe_only = unsafe != NULL;
	return unsafe;
}

static void add_write(struct mem_repair_plan *p, const char *attr, uint64_t v, bool hex)
{
	struct mem_repair_write *w = &p->writes[p->n_writes++];

	w->attr = attr;
	snprintf(w->value, sizeof(w->value), hex ? "0x%" PRIx64 : "%" PRIu64, v);
}

void mem_repair_plan(const struct mem_repair_target *t, const struct mem_repair_offer *offers, size_t n,
		     const struct mem_repair_limits *limits, mem_repair_history_fn history, void *userdata,
		     struct mem_repair_plan *ret)
{
	const struct mem_repair_offer *o;
	struct mem_repair_history h = { 0 };
	char text[256], key[MEM_REPAIR_DEVICE_MAX + 32];
	bool unsafe_only = false;
	unsigned wanted;

	*ret = (struct mem_repair_plan) { .refusal = MEM_REPAIR_GO };
	if (n == 0) {
		refuse(ret, MEM_REPAIR_NOT_OFFERED, "%s offers no memory repair (no cxl_%s/mem_repairN in "
		       "/sys/bus/edac/devices: the device has none, or the kernel lacks CONFIG_CXL_EDAC_MEM_REPAIR)",
		       t->memdev, t->memdev);
		return;
	}
	o = choose(t, offers, n, &unsafe_only);
	if (!o) {
		offered_types(offers, n, text, sizeof(text));
		refuse(ret, MEM_REPAIR_TYPE_UNSUPPORTED, "%s offers %s; none fits this %s record%s", t->memdev, text,
		       t->general_media ? "general media" : "DRAM",
		       t->general_media ? " (the driver repairs a general media event's DPA only by PPR)" :
		       " (a sparing needs the channel, rank and the bank, row or column it spares)");
		return;
	}
	ret->offer = o;
	(void) mem_repair_location(t, o->type, ret->location, sizeof(ret->location));
	if (unsafe_only) {
		refuse(ret, MEM_REPAIR_NOT_SAFE_IN_USE, "%s's %s is not safe while the memory is in use "
		       "(repair_safe_when_in_use=%s): it needs the memory offline, which is an operator's "
		       "decision", o->device, mem_repair_type_to_string(o->type),
		       o->safe_when_in_use == 0 ? "0" : "unreadable");
		return;
	}
	wanted = types[o->type].needs | types[o->type].optional;
	for (unsigned a = 0; a < _MEM_REPAIR_ATTR_MAX; a++) {
		uint64_t v = value_of(t, a);

		if (!(wanted & BIT(a)) || !o->have_attr[a])
			continue;
		if (v > attrs[a].max) {
			refuse(ret, MEM_REPAIR_OUT_OF_RANGE, "%s 0x%" PRIx64 " is more than a repair request "
			       "carries (0x%" PRIx64 ")", attrs[a].name, v, attrs[a].max);
			return;
		}
		if (a == MEM_REPAIR_ATTR_DPA && o->have_dpa_range && (v < o->min_dpa || v > o->max_dpa)) {
			refuse(ret, MEM_REPAIR_OUT_OF_RANGE, "DPA 0x%" PRIx64 " is outside %s's range "
			       "0x%" PRIx64 "-0x%" PRIx64 " (min_dpa, max_dpa)", v, o->device, o->min_dpa, o->max_dpa);
			return;
		}
	}
	if (!limits->enabled) {
		refuse(ret, MEM_REPAIR_DISABLED, "memory repair is off ([Memory] Repair=no in mcelogd.conf)");
		return;
	}
	mem_repair_device_key(t, key, sizeof(key));
	if (history)
		history(key, ret->location, &h, userdata);
	if (h.location_repaired) {
		refuse(ret, MEM_REPAIR_ALREADY_DONE, "this location was repaired before (%s)", ret->location);
		return;
	}
	if (h.device_total >= limits->per_device) {
		refuse(ret, MEM_REPAIR_LIMIT_DEVICE, "%s had %u repair%s already, the limit "
		       "([Memory] RepairsPerDevice=%u): a device that needs more should be replaced",
		       t->memdev, h.device_total, h.device_total == 1 ? "" : "s", limits->per_device);
		return;
	}
	if (h.device_last_day >= limits->per_day) {
		refuse(ret, MEM_REPAIR_LIMIT_DAY, "%s had %u repair%s in the last 24 hours, the limit "
		       "([Memory] RepairsPerDay=%u)", t->memdev, h.device_last_day,
		       h.device_last_day == 1 ? "" : "s", limits->per_day);
		return;
	}
	for (unsigned a = 0; a < _MEM_REPAIR_ATTR_MAX; a++)
		if ((wanted & BIT(a)) && o->have_attr[a])
			add_write(ret, attrs[a].name, value_of(t, a),
				  a == MEM_REPAIR_ATTR_DPA || a == MEM_REPAIR_ATTR_NIBBLE_MASK);
	/* The ABI's only value for the trigger. */
	add_write(ret, "repair", 1, false);
}
