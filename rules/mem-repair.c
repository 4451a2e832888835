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
	[MEM_REPAIR_NOT_MEDIA_FAULT] = "not-media-fault",
	[MEM_REPAIR_NOT_REPAIRABLE] = "not-repairable",
	[MEM_REPAIR_INJECTED] = "injected",
	[MEM_REPAIR_MEDIA_INIT] = "media-initialization",
	[MEM_REPAIR_UNKNOWN_TRANSACTION] = "unknown-transaction",
	[MEM_REPAIR_REQUEST_NOT_REPAIR] = "request-not-repair",
	[MEM_REPAIR_REQUEST_UNMET] = "request-unmet",
	[MEM_REPAIR_HARD] = "hard",
	[MEM_REPAIR_PERSIST_UNKNOWN] = "persist-unknown",
	[MEM_REPAIR_HARD_ONLY] = "hard-only",
	[MEM_REPAIR_ATTRS_CHANGED] = "attributes-changed",
	[MEM_REPAIR_NO_STATE] = "no-state",
};

/*
 * Memory event types (CXL r3.1 Tables 8-45, 8-46, as trace.h names them)
 * that report a fault of the media's cells, which a spare row, bank or
 * cache line replaces.  The others do not: an Invalid Address or a TE
 * State Violation is the host's request at fault, a Data Path Error the path
 * to the media, a CKID Violation a key mismatch, and an Advanced
 * Programmable CME Counter Expiration a count, not a location.
 */
static const char *const media_fault_types[] = { "ECC Error", "Scrub Media ECC Error" };

/* Transaction types (the same tables) of errors the host or the device met in use. */
static const char *const use_transactions[] = {
	"Unknown", "Host Read", "Host Write", "Host Scan Media", "Internal Media Scrub",
	"Internal Media Management", "Internal Media Error Check Scrub",
};

/* Common Event Record flags (CXL r3.1 Table 8-43; trace.h show_hdr_flags). */
#define RECORD_FLAG_MAINTENANCE_NEEDED (1u << 3)
#define RECORD_FLAG_SUB_CLASS_VALID    (1u << 6)
/* Physical Address flags (Tables 8-45, 8-46): bits 1:0; bits 5:2 are reserved. */
#define DPA_FLAG_VOLATILE       (1u << 0)
#define DPA_FLAG_NOT_REPAIRABLE (1u << 1)
#define DPA_FLAGS_MASK          UINT64_C(0x3f)

/* Maintenance operation classes and sub-classes (CXL r3.2 Table 8-125). */
enum {
	MAINT_CLASS_NONE = 0,
	MAINT_CLASS_PPR = 1,
	MAINT_CLASS_SPARING = 2,
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

static bool in_list(const char *s, const char *const *list, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (streq(s, list[i]))
			return true;
	return false;
}

/* A named value: the decoder's name, or the number it had no name for, as digits; "" absent. */
static void text_of(const struct ras_record *r, const char *key, char *buf, size_t size)
{
	const struct ras_field *f = ras_record_find(r, key);

	buf[0] = '\0';
	if (f && f->type == RAS_FIELD_STRING)
		snprintf(buf, size, "%s", f->data);
	else if (f && (f->type == RAS_FIELD_UINT || f->type == RAS_FIELD_HEX || f->type == RAS_FIELD_HEX64))
		snprintf(buf, size, "%" PRIu64, f->u);
}

/*
 * Whether a flag field has flag `name` (bit `bit`): the decoders give the
 * names joined by "|" (the kernel's own text may add spaces and a hex rest),
 * a JSON producer may give the number.
 */
static bool has_flag(const struct ras_record *r, const char *key, const char *name, unsigned bit)
{
	const struct ras_field *f = ras_record_find(r, key);
	size_t n = strlen(name);

	if (f && (f->type == RAS_FIELD_UINT || f->type == RAS_FIELD_HEX || f->type == RAS_FIELD_HEX64))
		return f->u & bit;
	if (!f || f->type != RAS_FIELD_STRING)
		return false;
	for (const char *p = f->data; *p; ) {
		size_t len;

		p += strspn(p, " |");
		len = strcspn(p, " |");
		if (len == n && strncmp(p, name, n) == 0)
			return true;
		p += len;
	}
	return false;
}

static uint64_t uint_of(const struct ras_record *r, const char *key)
{
	const struct ras_field *f = ras_record_find(r, key);

	return f && (f->type == RAS_FIELD_UINT || f->type == RAS_FIELD_HEX || f->type == RAS_FIELD_HEX64) ? f->u : 0;
}

/* The repair the device asks for, if it does (the header's Table 8-125). */
static enum mem_repair_request request_of(const struct ras_record *r, struct mem_repair_target *t)
{
	bool sub_valid = has_flag(r, "record_flags", "MAINT_OP_SUB_CLASS_VALID", RECORD_FLAG_SUB_CLASS_VALID);
	static const enum mem_repair_request sparing[] = {
		MEM_REPAIR_REQUEST_CACHELINE_SPARING, MEM_REPAIR_REQUEST_ROW_SPARING,
		MEM_REPAIR_REQUEST_BANK_SPARING, MEM_REPAIR_REQUEST_RANK_SPARING,
	};

	t->maint_class = (unsigned) uint_of(r, "maint_op_class");
	t->maint_sub_class = (unsigned) uint_of(r, "maint_op_sub_class");
	if (!has_flag(r, "record_flags", "MAINTENANCE_NEEDED", RECORD_FLAG_MAINTENANCE_NEEDED) ||
	    t->maint_class == MAINT_CLASS_NONE)
		return MEM_REPAIR_REQUEST_NONE;
	if (t->maint_class == MAINT_CLASS_PPR && (!sub_valid || t->maint_sub_class == 0))
		return MEM_REPAIR_REQUEST_PPR;
	if (t->maint_class == MAINT_CLASS_PPR && t->maint_sub_class == 1)
		return MEM_REPAIR_REQUEST_HARD_PPR;
	if (t->maint_class == MAINT_CLASS_SPARING && !sub_valid)
		return MEM_REPAIR_REQUEST_SPARING;
	if (t->maint_class == MAINT_CLASS_SPARING && t->maint_sub_class < ELEMENTSOF(sparing))
		return sparing[t->maint_sub_class];
	return MEM_REPAIR_REQUEST_OTHER;
}

int mem_repair_target_from_record(const struct ras_record *r, struct mem_repair_target *ret,
				  const char **ret_why)
{
	const struct ras_field *f;
	unsigned dpa_flags = 0;

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
	text_of(r, "type", ret->event_type, sizeof(ret->event_type));
	text_of(r, "transaction_type", ret->transaction, sizeof(ret->transaction));
	text_of(r, "dpa_flags", ret->dpa_flags, sizeof(ret->dpa_flags));
	if (has_flag(r, "dpa_flags", "VOLATILE", DPA_FLAG_VOLATILE))
		dpa_flags |= DPA_FLAG_VOLATILE;
	if (has_flag(r, "dpa_flags", "NOT_REPAIRABLE", DPA_FLAG_NOT_REPAIRABLE))
		dpa_flags |= DPA_FLAG_NOT_REPAIRABLE;
	ret->not_repairable = dpa_flags & DPA_FLAG_NOT_REPAIRABLE;
	/*
	 * The DPA as the kernel keys its repair records (drivers/cxl/core/edac.c):
	 * cxl_store_rec_dram() and cxl_store_rec_gen_media() store each event with
	 * xa_store(..., le64_to_cpu(rec->media_hdr.phys_addr), ...), the raw
	 * Physical Address field with its flag bits, and cxl_find_rec_dram() /
	 * cxl_find_rec_gen_media() look it up with xa_load(..., attrbs->dpa), the
	 * value written to the dpa attribute.  The trace prints neither as is
	 * (trace.h, cxl_dram and cxl_general_media): dpa_flags = phys_addr &
	 * CXL_DPA_FLAGS_MASK (bits 1:0), dpa = phys_addr & CXL_DPA_MASK (bits
	 * 63:6).  So the key is the traced DPA with the flags put back; bits 5:2
	 * are reserved (zero).  The masked DPA would never match a VOLATILE
	 * record, and every online repair of it would be EINVAL.
	 */
	ret->traced_dpa = ret->value[MEM_REPAIR_ATTR_DPA] & ~DPA_FLAGS_MASK;
	ret->value[MEM_REPAIR_ATTR_DPA] = ret->traced_dpa | dpa_flags;
	ret->request = request_of(r, ret);
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

static bool has_all(const struct mem_repair_target *t, unsigned mask)
{
	for (unsigned a = 0; a < _MEM_REPAIR_ATTR_MAX; a++)
		if ((mask & BIT(a)) && !t->have[a])
			return false;
	return true;
}

#define ROW_COORDINATES (BIT(MEM_REPAIR_ATTR_CHANNEL) | BIT(MEM_REPAIR_ATTR_RANK) | \
			 BIT(MEM_REPAIR_ATTR_BANK_GROUP) | BIT(MEM_REPAIR_ATTR_BANK) | BIT(MEM_REPAIR_ATTR_ROW))

/* " channel=2 rank=0 ...": the coordinates of mask, in the attributes' order. */
static size_t put_coordinates(const struct mem_repair_target *t, unsigned mask, char *buf, size_t size)
{
	size_t used = 0;

	for (unsigned a = 0; a < _MEM_REPAIR_ATTR_MAX && used < size; a++)
		if ((mask & BIT(a)) && t->have[a])
			used += (size_t) snprintf(buf + used, size - used, " %s=%" PRIu64, attrs[a].name, t->value[a]);
	return used;
}

bool mem_repair_unit(const struct mem_repair_target *t, enum mem_repair_type type, char *buf, size_t size)
{
	char key[MEM_REPAIR_DEVICE_MAX + 32];
	const char *what;
	unsigned mask;
	size_t used;

	if ((unsigned) type >= _MEM_REPAIR_TYPE_MAX || !fits(t, type))
		return false;
	mem_repair_device_key(t, key, sizeof(key));
	switch (type) {
	case MEM_REPAIR_PPR:
		/* PPR replaces the row: the row where the record names it, else the DPA it gives. */
		if (t->general_media || !has_all(t, ROW_COORDINATES)) {
			int n = snprintf(buf, size, "%s dpa=0x%" PRIx64, key, t->traced_dpa);

			return n >= 0 && (size_t) n < size;
		}
		/* fallthrough */
	case MEM_REPAIR_ROW_SPARING:
		what = "row";
		mask = ROW_COORDINATES;
		break;
	case MEM_REPAIR_CACHELINE_SPARING:
		what = "cacheline";
		mask = ROW_COORDINATES | BIT(MEM_REPAIR_ATTR_COLUMN) | BIT(MEM_REPAIR_ATTR_SUB_CHANNEL);
		break;
	case MEM_REPAIR_BANK_SPARING:
		what = "bank";
		mask = BIT(MEM_REPAIR_ATTR_CHANNEL) | BIT(MEM_REPAIR_ATTR_RANK) | BIT(MEM_REPAIR_ATTR_BANK_GROUP) |
		       BIT(MEM_REPAIR_ATTR_BANK);
		break;
	default:
		what = "rank";
		mask = BIT(MEM_REPAIR_ATTR_CHANNEL) | BIT(MEM_REPAIR_ATTR_RANK);
		break;
	}
	used = (size_t) snprintf(buf, size, "%s %s", key, what);
	if (used < size)
		used += put_coordinates(t, mask, buf + used, size - used);
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

_printf_(4, 5)
static enum mem_repair_refusal say(enum mem_repair_refusal r, char *why, size_t size, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, size, fmt, ap);
	va_end(ap);
	return r;
}

enum mem_repair_refusal mem_repair_check_record(const struct mem_repair_target *t, char *why, size_t size)
{
	why[0] = '\0';
	if (!in_list(t->event_type, media_fault_types, ELEMENTSOF(media_fault_types)))
		return say(MEM_REPAIR_NOT_MEDIA_FAULT, why, size, "the event type is %s%s%s, not a fault of the "
			   "media (only an ECC Error or a Scrub Media ECC Error names cells a repair replaces)",
			   t->event_type[0] ? "'" : "missing", t->event_type, t->event_type[0] ? "'" : "");
	if (t->not_repairable)
		return say(MEM_REPAIR_NOT_REPAIRABLE, why, size, "the device marks DPA 0x%" PRIx64 " NOT_REPAIRABLE "
			   "(dpa_flags %s)", t->traced_dpa, t->dpa_flags);
	if (streq(t->transaction, "Host Inject Poison"))
		return say(MEM_REPAIR_INJECTED, why, size, "the error was injected (transaction type Host Inject "
			   "Poison): a test of the monitoring, not a fault of the media");
	if (streq(t->transaction, "Media Initialization"))
		return say(MEM_REPAIR_MEDIA_INIT, why, size, "the error was met initialising the media "
			   "(transaction type Media Initialization), not in use");
	if (!in_list(t->transaction, use_transactions, ELEMENTSOF(use_transactions)))
		return say(MEM_REPAIR_UNKNOWN_TRANSACTION, why, size, "the transaction type %s%s%s is not one "
			   "mcelogd knows to be an error met in use", t->transaction[0] ? "'" : "",
			   t->transaction[0] ? t->transaction : "is missing, and", t->transaction[0] ? "'" : "");
	if (t->request == MEM_REPAIR_REQUEST_OTHER)
		return say(MEM_REPAIR_REQUEST_NOT_REPAIR, why, size, "the device asks for maintenance that is "
			   "not a repair mcelogd knows (maintenance operation class %u, sub-class %u)",
			   t->maint_class, t->maint_sub_class);
	return MEM_REPAIR_GO;
}

bool mem_repair_kernel_refused(int error)
{
	/*
	 * What drivers/cxl/core/edac.c and the EDAC core answer before the device
	 * is asked, or when the device's mailbox refuses the command: a value it
	 * will not take or a location of no event this boot (EINVAL), a feature
	 * unsafe while the memory is online or a busy mailbox (EBUSY), a mode the
	 * device lacks (EOPNOTSUPP), a command the device does not support
	 * (ENXIO, from the mailbox return codes), interrupted locks (EINTR), and
	 * a file that is not there or not writable.
	 */
	switch (-error) {
	case EINVAL: case EBUSY: case EOPNOTSUPP: case ENXIO: case EINTR: case EPERM: case EACCES:
	case ENOENT: case ENODEV: case EISDIR: case ERANGE: case ENAMETOOLONG:
		return true;
	default:
		return false;
	}
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

static const char *request_to_string(enum mem_repair_request q)
{
	switch (q) {
	case MEM_REPAIR_REQUEST_PPR:               return "a soft PPR";
	case MEM_REPAIR_REQUEST_HARD_PPR:          return "a hard PPR (hPPR)";
	case MEM_REPAIR_REQUEST_SPARING:           return "memory sparing";
	case MEM_REPAIR_REQUEST_CACHELINE_SPARING: return "cache-line sparing";
	case MEM_REPAIR_REQUEST_ROW_SPARING:       return "row sparing";
	case MEM_REPAIR_REQUEST_BANK_SPARING:      return "bank sparing";
	case MEM_REPAIR_REQUEST_RANK_SPARING:      return "rank sparing";
	default:                                   return "no repair";
	}
}

/* Whether a repair of type answers the device's request (any, without one). */
static bool answers(enum mem_repair_request q, enum mem_repair_type type)
{
	switch (q) {
	case MEM_REPAIR_REQUEST_PPR: case MEM_REPAIR_REQUEST_HARD_PPR:
		return type == MEM_REPAIR_PPR;
	case MEM_REPAIR_REQUEST_SPARING:           return type != MEM_REPAIR_PPR;
	case MEM_REPAIR_REQUEST_CACHELINE_SPARING: return type == MEM_REPAIR_CACHELINE_SPARING;
	case MEM_REPAIR_REQUEST_ROW_SPARING:       return type == MEM_REPAIR_ROW_SPARING;
	case MEM_REPAIR_REQUEST_BANK_SPARING:      return type == MEM_REPAIR_BANK_SPARING;
	case MEM_REPAIR_REQUEST_RANK_SPARING:      return type == MEM_REPAIR_RANK_SPARING;
	default:                                   return true;
	}
}

/* What keeps a feature that fits from being used; MEM_REPAIR_GO if nothing does. */
static enum mem_repair_refusal offer_problem(const struct mem_repair_offer *o, enum mem_repair_request q,
					     const struct mem_repair_limits *limits)
{
	if (o->safe_when_in_use != 1)
		return MEM_REPAIR_NOT_SAFE_IN_USE;
	if (o->persist_mode < 0)
		return MEM_REPAIR_PERSIST_UNKNOWN;
	if (o->persist_mode == 1 && !limits->allow_hard)
		return MEM_REPAIR_HARD;
	if (q == MEM_REPAIR_REQUEST_HARD_PPR && o->persist_mode != 1)
		return MEM_REPAIR_REQUEST_UNMET;
	return MEM_REPAIR_GO;
}

/*
 * The finest repair the record fits and the device's request allows, of a
 * feature that may be used: the offer, or NULL with *ret_problem and
 * *ret_refused the first fitting feature's problem (NULL: none fits).
 */
static const struct mem_repair_offer *choose(const struct mem_repair_target *t, const struct mem_repair_offer *offers,
					     size_t n, const struct mem_repair_limits *limits,
					     enum mem_repair_refusal *ret_problem,
					     const struct mem_repair_offer **ret_refused)
{
	*ret_problem = MEM_REPAIR_GO;
	*ret_refused = NULL;
	for (unsigned type = 0; type < _MEM_REPAIR_TYPE_MAX; type++) {
		if (!fits(t, (enum mem_repair_type) type) || !answers(t->request, (enum mem_repair_type) type))
			continue;
		for (size_t i = 0; i < n; i++) {
			enum mem_repair_refusal problem;
			bool has_files = true;

			if (offers[i].type != (enum mem_repair_type) type)
				continue;
			for (unsigned a = 0; a < _MEM_REPAIR_ATTR_MAX; a++)
				if ((types[type].needs & BIT(a)) && !offers[i].have_attr[a])
					has_files = false;
			if (!has_files)
				continue;
			problem = offer_problem(&offers[i], t->request, limits);
			if (problem == MEM_REPAIR_GO)
				return &offers[i];
			if (!*ret_refused) {
				*ret_problem = problem;
				*ret_refused = &offers[i];
			}
		}
	}
	return NULL;
}

static void add_write(struct mem_repair_plan *p, const char *attr, uint64_t v, bool hex)
{
	struct mem_repair_write *w = &p->writes[p->n_writes++];

	w->attr = attr;
	snprintf(w->value, sizeof(w->value), hex ? "0x%" PRIx64 : "%" PRIu64, v);
}

/* Why the first fitting feature cannot be used, in words. */
static void refuse_offer(struct mem_repair_plan *p, const struct mem_repair_target *t, enum mem_repair_refusal problem)
{
	const struct mem_repair_offer *o = p->offer;
	const char *type = mem_repair_type_to_string(o->type);

	switch (problem) {
	case MEM_REPAIR_NOT_SAFE_IN_USE:
		refuse(p, problem, "%s's %s is not safe while the memory is in use (repair_safe_when_in_use=%s): "
		       "it needs the memory offline, which is an operator's decision", o->device, type,
		       o->safe_when_in_use == 0 ? "0" : "unreadable");
		break;
	case MEM_REPAIR_PERSIST_UNKNOWN:
		refuse(p, problem, "%s mem_repair%u's persist_mode cannot be read: whether the %s would be "
		       "permanent is unknown", o->device, o->instance, type);
		break;
	case MEM_REPAIR_HARD:
		refuse(p, problem, "%s%s mem_repair%u is set to repair permanently (persist_mode=1); mcelogd "
		       "makes soft repairs only ([Memory] RepairPersist=soft)",
		       t->request == MEM_REPAIR_REQUEST_HARD_PPR ? "the device asks for a hard PPR, and " : "",
		       o->device, o->instance);
		break;
	default:
		refuse(p, MEM_REPAIR_REQUEST_UNMET, "the device asks for %s (maintenance operation class %u, "
		       "sub-class %u); %s mem_repair%u offers a soft %s only", request_to_string(t->request),
		       t->maint_class, t->maint_sub_class, o->device, o->instance, type);
		break;
	}
}

void mem_repair_plan(const struct mem_repair_target *t, const struct mem_repair_offer *offers, size_t n,
		     const struct mem_repair_limits *limits, mem_repair_history_fn history, void *userdata,
		     struct mem_repair_plan *ret)
{
	const struct mem_repair_offer *o, *refused;
	enum mem_repair_refusal problem;
	struct mem_repair_history h = { 0 };
	char text[256], key[MEM_REPAIR_DEVICE_MAX + 32];
	unsigned wanted;

	*ret = (struct mem_repair_plan) { .refusal = MEM_REPAIR_GO };
	problem = mem_repair_check_record(t, ret->why, sizeof(ret->why));
	if (problem != MEM_REPAIR_GO) {
		ret->refusal = problem;
		return;
	}
	/* The device asks for a permanent repair: not one the administrator allowed. */
	if (t->request == MEM_REPAIR_REQUEST_HARD_PPR && !limits->allow_hard) {
		refuse(ret, MEM_REPAIR_HARD, "the device asks for a hard PPR (hPPR, maintenance operation class %u, "
		       "sub-class %u): a permanent repair, and mcelogd makes soft ones only ([Memory] "
		       "RepairPersist=soft)", t->maint_class, t->maint_sub_class);
		return;
	}
	if (n == 0) {
		refuse(ret, MEM_REPAIR_NOT_OFFERED, "%s offers no memory repair (no cxl_%s/mem_repairN in "
		       "/sys/bus/edac/devices: the device has none, or the kernel lacks CONFIG_CXL_EDAC_MEM_REPAIR)",
		       t->memdev, t->memdev);
		return;
	}
	o = choose(t, offers, n, limits, &problem, &refused);
	if (!o && refused) {
		ret->offer = refused;
		(void) mem_repair_location(t, refused->type, ret->location, sizeof(ret->location));
		(void) mem_repair_unit(t, refused->type, ret->unit, sizeof(ret->unit));
		refuse_offer(ret, t, problem);
		return;
	}
	if (!o) {
		offered_types(offers, n, text, sizeof(text));
		if (t->request != MEM_REPAIR_REQUEST_NONE)
			refuse(ret, MEM_REPAIR_REQUEST_UNMET, "the device asks for %s (maintenance operation class %u, "
			       "sub-class %u); %s offers %s, and none of them fits this %s record",
			       request_to_string(t->request), t->maint_class, t->maint_sub_class, t->memdev, text,
			       t->general_media ? "general media" : "DRAM");
		else
			refuse(ret, MEM_REPAIR_TYPE_UNSUPPORTED, "%s offers %s; none fits this %s record%s", t->memdev,
			       text, t->general_media ? "general media" : "DRAM",
			       t->general_media ? " (the driver repairs a general media event's DPA only by PPR)" :
			       " (a sparing needs the channel, rank and the bank, row or column it spares)");
		return;
	}
	ret->offer = o;
	ret->hard = o->persist_mode == 1;
	(void) mem_repair_location(t, o->type, ret->location, sizeof(ret->location));
	(void) mem_repair_unit(t, o->type, ret->unit, sizeof(ret->unit));
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
		history(key, ret->unit, &h, userdata);
	if (h.location_repaired) {
		refuse(ret, MEM_REPAIR_ALREADY_DONE, "this repair unit was repaired before (%s)%s", ret->unit,
		       h.outcome_unknown ? "; mcelogd stopped before it saved that repair's outcome, so it is "
		       "taken as done" : "");
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
	/* Hard, where allowed, only of a feature the kernel will also set to soft. */
	if (ret->hard) {
		ret->soft_probe = true;
		add_write(ret, "persist_mode", 0, false);
		add_write(ret, "persist_mode", 1, false);
	}
	for (unsigned a = 0; a < _MEM_REPAIR_ATTR_MAX; a++)
		if ((wanted & BIT(a)) && o->have_attr[a])
			add_write(ret, attrs[a].name, value_of(t, a),
				  a == MEM_REPAIR_ATTR_DPA || a == MEM_REPAIR_ATTR_NIBBLE_MASK);
	/* The ABI's only value for the trigger. */
	add_write(ret, "repair", 1, false);
}
