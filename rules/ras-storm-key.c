/* SPDX-License-Identifier: MIT */
#include <string.h>

#include "macro.h"
#include "ras-storm-key.h"

#define KEY_FIELDS_MAX 8

/*
 * The fields that name the failing part, per kind, as the producers
 * (kernel-abi/ras-trace.c, lib/cper.c) call them.  A kind without a list
 * never storms.  Which fields locate a memory error follows the UEFI
 * specification, appendix N, "Memory Error Section" (node, card, module,
 * rank, bank, device); which AER register bits name the error, the PCI
 * Express Base Specification, "Correctable Error Status Register".  A devlink
 * health reporter is one part of one device (its bus and name): its
 * messages are left out, as drivers put queue numbers and counters in them.
 */
static const char *const key_fields[_RAS_EVENT_MAX][KEY_FIELDS_MAX] = {
	[RAS_EVENT_MEMORY_CONTROLLER] = { "mc", "top_layer", "middle_layer", "lower_layer", "label" },
	[RAS_EVENT_PCIE_AER]          = { "dev_name", "correctable_status" },
	[RAS_EVENT_FIRMWARE_MEMORY]   = { "error_type", "node", "card", "module", "rank", "bank",
					  "device", "fru_text" },
	[RAS_EVENT_ARM_PROCESSOR]     = { "mpidr" },
	[RAS_EVENT_VENDOR_SECTION]    = { "section_type", "fru_id", "fru_text" },
	[RAS_EVENT_DEVLINK_HEALTH]    = { "bus", "dev_name", "reporter" },
	[RAS_EVENT_DEVLINK_RECOVER_ABORTED] = { "bus", "dev_name", "reporter" },
	/* A failing disk: by device and what failed, not by sector, which changes with every request. */
	[RAS_EVENT_DISK_ERROR]        = { "dev", "error" },
};

/* Live sources of ras records; the previous boot's (BERT), replayed and decoded ones are history. */
static const bool live_sources[_MCE_SOURCE_MAX] = {
	[MCE_SOURCE_RAS_MC_EVENT]           = true,
	[MCE_SOURCE_RAS_AER_EVENT]          = true,
	[MCE_SOURCE_RAS_EXTLOG_MEM_EVENT]   = true,
	[MCE_SOURCE_RAS_ARM_EVENT]          = true,
	[MCE_SOURCE_RAS_NON_STANDARD_EVENT] = true,
	[MCE_SOURCE_DEVLINK_HEALTH_REPORT]  = true,
	[MCE_SOURCE_DEVLINK_RECOVER_ABORTED] = true,
	[MCE_SOURCE_BLOCK_RQ_ERROR]         = true,
	[MCE_SOURCE_BLOCK_RQ_COMPLETE]      = true,
};

/* The one tracepoint each kind that storms comes from (kernel-abi/ras-trace.c). */
static const enum mce_source storm_sources[_RAS_EVENT_MAX] = {
	[RAS_EVENT_MEMORY_CONTROLLER] = MCE_SOURCE_RAS_MC_EVENT,
	[RAS_EVENT_PCIE_AER]          = MCE_SOURCE_RAS_AER_EVENT,
	[RAS_EVENT_FIRMWARE_MEMORY]   = MCE_SOURCE_RAS_EXTLOG_MEM_EVENT,
	[RAS_EVENT_ARM_PROCESSOR]     = MCE_SOURCE_RAS_ARM_EVENT,
	[RAS_EVENT_VENDOR_SECTION]    = MCE_SOURCE_RAS_NON_STANDARD_EVENT,
	[RAS_EVENT_DEVLINK_HEALTH]    = MCE_SOURCE_DEVLINK_HEALTH_REPORT,
	[RAS_EVENT_DEVLINK_RECOVER_ABORTED] = MCE_SOURCE_DEVLINK_RECOVER_ABORTED,
	/* Or block_rq_complete, which stands in for it on kernels before 5.18 (alt_storm_sources). */
	[RAS_EVENT_DISK_ERROR]        = MCE_SOURCE_BLOCK_RQ_ERROR,
};

static const enum mce_source alt_storm_sources[_RAS_EVENT_MAX] = {
	[RAS_EVENT_DISK_ERROR]        = MCE_SOURCE_BLOCK_RQ_COMPLETE,
};

/*
 * The one severity each kind storms at: corrected, but for a reporter the
 * kernel left in error, and for disk requests.  A reporter whose recovery
 * keeps failing is aborted at every report of a flapping device, as fast as
 * the reports come, and each says the same thing; a dying disk fails each
 * request that reaches it, thousands a second under load.
 */
static const enum ras_severity storm_severities[_RAS_EVENT_MAX] = {
	[RAS_EVENT_DEVLINK_RECOVER_ABORTED] = RAS_SEV_UNCORRECTED,
	[RAS_EVENT_DISK_ERROR]        = RAS_SEV_UNCORRECTED,
};

enum mce_source ras_storm_source(enum ras_event event)
{
	if ((unsigned) event >= _RAS_EVENT_MAX || !key_fields[event][0])
		return MCE_SOURCE_UNKNOWN;
	return storm_sources[event];
}

enum ras_severity ras_storm_severity(enum ras_event event)
{
	/* RAS_SEV_CORRECTED is 0: every kind without a row. */
	return (unsigned) event < _RAS_EVENT_MAX ? storm_severities[event] : RAS_SEV_CORRECTED;
}

/*
 * The signature's text, built by hand rather than with snprintf(): it is
 * built for every record of a flood, and formatting was three quarters of
 * its cost (bench/ras-storm-cost.c).
 */
struct text {
	char *buf;
	size_t size, used;
	bool full;
};

static void put_char(struct text *t, char c)
{
	if (t->used + 1 >= t->size) {
		t->full = true;
		return;
	}
	t->buf[t->used++] = c;
	t->buf[t->used] = '\0';
}

static void put_str(struct text *t, const char *s, size_t n)
{
	for (size_t i = 0; i < n && !t->full; i++)
		put_char(t, s[i]);
}

static void put_u64(struct text *t, uint64_t v, unsigned base)
{
	char digits[20];
	unsigned n = 0;

	do {
		digits[n++] = "0123456789abcdef"[v % base];
		v /= base;
	} while (v);
	while (n > 0 && !t->full)
		put_char(t, digits[--n]);
}

/* Appends " key=value"; false if it does not fit. */
static bool append_field(struct text *t, const struct ras_field *f)
{
	if (t->used > 0)
		put_char(t, ' ');
	put_str(t, f->key, strlen(f->key));
	put_char(t, '=');
	switch (f->type) {
	case RAS_FIELD_UINT:
		put_u64(t, f->u, 10);
		break;
	case RAS_FIELD_INT:
		if (f->i < 0) {
			put_char(t, '-');
			put_u64(t, -(uint64_t) f->i, 10);
		} else
			put_u64(t, (uint64_t) f->i, 10);
		break;
	case RAS_FIELD_HEX64:
	case RAS_FIELD_HEX:
		put_str(t, "0x", 2);
		put_u64(t, f->u, 16);
		break;
	case RAS_FIELD_BOOL:
		put_str(t, f->b ? "true" : "false", f->b ? 4 : 5);
		break;
	case RAS_FIELD_STRING:
		/* Labels come from sysfs and firmware: anything unprintable becomes '?', so the
		 * text stays one line in the journal and the state file. */
		for (size_t i = 0; i < f->len && !t->full; i++)
			put_char(t, f->data[i] >= 0x20 && f->data[i] < 0x7f ? f->data[i] : '?');
		break;
	default:
		return false;
	}
	return !t->full;
}

bool ras_storm_key_from_record(const struct ras_record *rec, struct ras_storm_key *ret)
{
	const char *const *fields;
	struct text t;

	if ((unsigned) rec->source >= _MCE_SOURCE_MAX || !live_sources[rec->source])
		return false;
	if ((unsigned) rec->event >= _RAS_EVENT_MAX)
		return false;
	/* Each kind storms from its own tracepoint only, so the summaries can name it. */
	if (rec->source != storm_sources[rec->event] &&
	    (!alt_storm_sources[rec->event] || rec->source != alt_storm_sources[rec->event]))
		return false;
	if (rec->severity != storm_severities[rec->event] || rec->recovered)
		return false;
	fields = key_fields[rec->event];
	if (!fields[0])
		return false;

	*ret = (struct ras_storm_key) { .event = rec->event };
	t = (struct text) { .buf = ret->text, .size = sizeof(ret->text) };
	for (size_t i = 0; i < KEY_FIELDS_MAX && fields[i]; i++) {
		const struct ras_field *f = ras_record_find(rec, fields[i]);

		/* Too long to keep whole: cut short, two parts could pass for one. */
		if (f && !append_field(&t, f))
			return false;
	}
	/* Nothing names the part: records of different parts would merge into one storm. */
	return t.used > 0;
}

bool ras_storm_key_equal(const struct ras_storm_key *a, const struct ras_storm_key *b)
{
	return a->event == b->event && streq(a->text, b->text);
}

struct storm_key ras_storm_key_digest(const struct ras_storm_key *k)
{
	/* FNV-1a, 64 bits: enough spread for a table of at most 2^20 signatures. */
	uint64_t h = UINT64_C(0xcbf29ce484222325);

	for (const char *p = k->text; *p; p++) {
		h ^= (unsigned char) *p;
		h *= UINT64_C(0x100000001b3);
	}
	return (struct storm_key) { .bank = (uint32_t) k->event, .code = h, .per_cpu = false };
}
