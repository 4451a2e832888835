/* SPDX-License-Identifier: MIT */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "decode.h"
#include "edac-label.h"
#include "macro.h"
#include "ras-record.h"
#include "record.h"
#include "rule-field.h"

#define PAGE_SHIFT 12                    /* the kernel offlines 4 KiB base pages */

enum field_format { FMT_STRING, FMT_DEC, FMT_HEX };

/* Field name → how its value prints.  mcelogd.rules(5) lists them in this order. */
static const struct {
	const char *name;
	enum field_format format;
} fields[_RULE_FIELD_MAX] = {
	[RULE_FIELD_KIND]             = { "kind",             FMT_STRING },
	[RULE_FIELD_SOURCE]           = { "source",           FMT_STRING },
	[RULE_FIELD_SEVERITY]         = { "severity",         FMT_STRING },
	[RULE_FIELD_RECOVERY]         = { "recovery",         FMT_STRING },
	[RULE_FIELD_ERROR_CLASS]      = { "error_class",      FMT_STRING },
	[RULE_FIELD_COMPONENT]        = { "component",        FMT_STRING },
	[RULE_FIELD_BANK_TYPE]        = { "bank_type",        FMT_STRING },
	[RULE_FIELD_THRESHOLD_STATUS] = { "threshold_status", FMT_STRING },
	[RULE_FIELD_VENDOR]           = { "vendor",           FMT_STRING },
	[RULE_FIELD_CPU]              = { "cpu",              FMT_DEC },
	[RULE_FIELD_SOCKET]           = { "socket",           FMT_DEC },
	[RULE_FIELD_BANK]             = { "bank",             FMT_DEC },
	[RULE_FIELD_MC]               = { "mc",               FMT_DEC },
	[RULE_FIELD_CHANNEL]          = { "channel",          FMT_DEC },
	[RULE_FIELD_DIMM]             = { "dimm",             FMT_DEC },
	[RULE_FIELD_RANK]             = { "rank",             FMT_DEC },
	[RULE_FIELD_CHIP_SELECT]      = { "chip_select",      FMT_DEC },
	[RULE_FIELD_LABEL]            = { "label",            FMT_STRING },
	[RULE_FIELD_SLOT]             = { "slot",             FMT_STRING },
	[RULE_FIELD_ROW]              = { "row",              FMT_DEC },
	[RULE_FIELD_COLUMN]           = { "column",           FMT_DEC },
	[RULE_FIELD_BANK_GROUP]       = { "bank_group",       FMT_DEC },
	[RULE_FIELD_DRAM_BANK]        = { "dram_bank",        FMT_DEC },
	[RULE_FIELD_ADDRESS]          = { "address",          FMT_HEX },
	[RULE_FIELD_PAGE]             = { "page",             FMT_HEX },
	[RULE_FIELD_NO_PAGE]          = { "no_page",          FMT_STRING },
	[RULE_FIELD_MCACOD]           = { "mcacod",           FMT_HEX },
	[RULE_FIELD_MSCOD]            = { "mscod",            FMT_HEX },
	[RULE_FIELD_DPA]              = { "dpa",              FMT_HEX },
	[RULE_FIELD_DRIVER]           = { "driver",           FMT_STRING },
	[RULE_FIELD_DEVICE]           = { "device",           FMT_STRING },
	[RULE_FIELD_REPORTER]         = { "reporter",         FMT_STRING },
	[RULE_FIELD_HEALTH_STATE]     = { "health_state",     FMT_STRING },
	[RULE_FIELD_PROCESS]          = { "process",          FMT_STRING },
	[RULE_FIELD_UNIT]             = { "unit",             FMT_STRING },
	[RULE_FIELD_DISK]             = { "disk",             FMT_STRING },
};

const char *rule_field_to_string(enum rule_field f)
{
	return (unsigned) f < _RULE_FIELD_MAX ? fields[f].name : "unknown";
}

enum rule_field rule_field_from_string(const char *s)
{
	for (size_t i = 0; i < _RULE_FIELD_MAX; i++)
		if (streq(fields[i].name, s))
			return (enum rule_field) i;
	return _RULE_FIELD_INVALID;
}

bool rule_field_is_number(enum rule_field f)
{
	return (unsigned) f < _RULE_FIELD_MAX && fields[f].format != FMT_STRING;
}

/*
 * Field by field, not by a compound literal: that would clear the value's
 * text buffer at every lookup, a cost the record path paid on every field.
 */
static bool str(const char *s, struct rule_value *ret)
{
	if (!s)
		return false;
	ret->is_string = true;
	ret->s = s;
	ret->text[0] = '\0';
	ret->u = 0;
	return true;
}

static bool num(uint64_t u, struct rule_value *ret)
{
	ret->is_string = false;
	ret->s = NULL;
	ret->text[0] = '\0';
	ret->u = u;
	return true;
}

static bool num_if(bool have, uint64_t u, struct rule_value *ret)
{
	return have && num(u, ret);
}

/* A decoded "-1 absent" field. */
static bool num_opt(int v, struct rule_value *ret)
{
	return v >= 0 && num((uint64_t) v, ret);
}

static const struct mce_detail *detail(const struct mce_decoded *d, const char *name)
{
	for (unsigned i = 0; i < d->n_details; i++)
		if (streq(d->details[i].name, name))
			return &d->details[i];
	return NULL;
}

/*
 * Which part of the machine failed, across vendors: AMD reports DRAM ECC
 * errors of its memory controllers (UMC banks) with a generic cache MCACOD,
 * so error_class alone cannot say "memory".  Banks that are memory
 * controllers per the decoders' bank tables (Intel SDM Vol. 3B "Incremental
 * Decoding Information" of each server family; AMD PPR "MCA Banks") count
 * as memory whatever their code.
 */
static const char *const memory_bank_types[] = {
	"IMC", "MCCHAN", "M2M", "HBM_M2M", "B2CMI", "UMC", "UMC_V2",
};

static const char *mce_component(const struct mce_decoded *d)
{
	/* Memory either way, without comparing the bank type with each name: most machine checks are. */
	if (d->error_class == MCE_CLASS_MEMORY_CONTROLLER)
		return "memory";
	for (size_t i = 0; d->bank_type && i < ELEMENTSOF(memory_bank_types); i++)
		if (streq(d->bank_type, memory_bank_types[i]))
			return "memory";
	switch (d->error_class) {
	case MCE_CLASS_MEMORY_CONTROLLER:       return "memory";
	case MCE_CLASS_TLB:                     return "tlb";
	case MCE_CLASS_CACHE:
	case MCE_CLASS_GENERIC_CACHE_HIERARCHY: return "cache";
	case MCE_CLASS_BUS_INTERCONNECT:        return "bus";
	case MCE_CLASS_IO:                      return "io";
	default:                                return "processor";
	}
}

static const char *const ras_components[_RAS_EVENT_MAX] = {
	[RAS_EVENT_MEMORY_CONTROLLER] = "memory",
	[RAS_EVENT_PCIE_AER]          = "pcie",
	[RAS_EVENT_MEMORY_FAILURE]    = "memory",
	[RAS_EVENT_FIRMWARE_MEMORY]   = "memory",
	[RAS_EVENT_ARM_PROCESSOR]     = "processor",
	[RAS_EVENT_VENDOR_SECTION]    = "other",
	[RAS_EVENT_X86_PROCESSOR]     = "processor",
	[RAS_EVENT_CXL_GENERAL_MEDIA] = "memory",
	[RAS_EVENT_CXL_DRAM] = "memory",
	[RAS_EVENT_CXL_MEMORY_MODULE] = "memory",
	[RAS_EVENT_CXL_POISON] = "memory",
	[RAS_EVENT_CXL_MEMORY_SPARING] = "memory",
	[RAS_EVENT_CXL_AER] = "cxl",
	[RAS_EVENT_CXL_OVERFLOW] = "cxl",
	[RAS_EVENT_CXL_GENERIC] = "cxl",
	[RAS_EVENT_PCI_HOTPLUG] = "pcie",
	[RAS_EVENT_PCIE_LINK] = "pcie",
	/* A fault inside a NIC or accelerator that its driver caught: neither its link nor memory. */
	[RAS_EVENT_DEVLINK_HEALTH] = "device",
	[RAS_EVENT_DEVLINK_RECOVER_ABORTED] = "device",
	/* The memory error that made the kernel kill (or warn) a process. */
	[RAS_EVENT_SIGBUS] = "memory",
	[RAS_EVENT_DISK_ERROR] = "disk",
};

static const char *const components[] = {
	"memory", "cache", "tlb", "bus", "io", "pcie", "processor", "device", "disk", "other",
};

/* enum devlink_health_reporter_state's names, as devlink-trace.c gives them. */
static const char *const health_states[] = { "healthy", "error" };

/* The address only where it names a page of memory (decoders/page-address.h). */
static bool mce_address(const struct rule_input *in, uint64_t *ret)
{
	if (!in->decoded->has_page)
		return false;
	*ret = in->mce->addr & ~UINT64_C(0xff00000000000000);
	return true;
}

static bool mce_field(const struct rule_input *in, enum rule_field f, struct rule_value *ret)
{
	const struct mce_record *r = in->mce;
	const struct mce_decoded *d = in->decoded;
	const struct mce_detail *x;
	uint64_t a;

	switch (f) {
	case RULE_FIELD_KIND:             return str("mce", ret);
	case RULE_FIELD_SOURCE:           return str(mce_source_to_string(r->source), ret);
	case RULE_FIELD_SEVERITY:         return str(mce_severity_to_string(d->severity), ret);
	case RULE_FIELD_RECOVERY:         return str(mce_recovery_to_string(d->recovery), ret);
	case RULE_FIELD_ERROR_CLASS:      return str(mce_error_class_to_string(d->error_class), ret);
	case RULE_FIELD_COMPONENT:        return str(mce_component(d), ret);
	case RULE_FIELD_BANK_TYPE:        return str(d->bank_type, ret);
	case RULE_FIELD_THRESHOLD_STATUS: return str(d->threshold_status, ret);
	case RULE_FIELD_VENDOR:
		return (r->have & MCE_HAVE_VENDOR) && str(mce_vendor_to_string(r->vendor), ret);
	case RULE_FIELD_CPU:              return num_if(r->have & MCE_HAVE_CPU, r->cpu, ret);
	case RULE_FIELD_SOCKET:           return num_if(r->have & MCE_HAVE_SOCKET, r->socket, ret);
	case RULE_FIELD_BANK:             return num_if(r->have & MCE_HAVE_BANK, r->bank, ret);
	case RULE_FIELD_MC:
		x = detail(d, "memory_controller");
		return x && num(x->value, ret);
	case RULE_FIELD_CHANNEL:          return num_opt(d->channel, ret);
	case RULE_FIELD_DIMM:             return num_opt(d->dimm, ret);
	case RULE_FIELD_RANK:             return num_opt(d->rank, ret);
	case RULE_FIELD_CHIP_SELECT:      return num_opt(d->chip_select, ret);
	case RULE_FIELD_ROW:              return num_opt(d->row, ret);
	case RULE_FIELD_COLUMN:           return num_opt(d->column, ret);
	case RULE_FIELD_BANK_GROUP:       return num_opt(d->bank_group, ret);
	case RULE_FIELD_DRAM_BANK:        return num_opt(d->dram_bank, ret);
	case RULE_FIELD_ADDRESS:          return mce_address(in, &a) && num(a, ret);
	case RULE_FIELD_PAGE:             return num_if(d->has_page, d->page, ret);
	case RULE_FIELD_NO_PAGE:          return str(d->no_page, ret);
	case RULE_FIELD_MCACOD:           return num_if(r->have & MCE_HAVE_STATUS, d->mcacod, ret);
	case RULE_FIELD_MSCOD:            return num_if(r->have & MCE_HAVE_STATUS, d->mscod, ret);
	default:                          return false;
	}
}

/* A numeric ras field under any of the given names (producers differ: "address", "pa"). */
static bool ras_num(const struct ras_record *r, const char *const *keys, struct rule_value *ret)
{
	for (; *keys; keys++) {
		const struct ras_field *x = ras_record_find(r, *keys);

		if (!x)
			continue;
		switch (x->type) {
		case RAS_FIELD_UINT: case RAS_FIELD_HEX64: case RAS_FIELD_HEX:
			return num(x->u, ret);
		case RAS_FIELD_INT:
			return x->i >= 0 && num((uint64_t) x->i, ret);
		default:
			return false;
		}
	}
	return false;
}

#define RAS_NUM(r, ret, ...) ras_num(r, (const char *const[]) { __VA_ARGS__, NULL }, ret)

/* A text field of the record, as the producer gave it. */
static bool ras_text(const struct ras_record *r, const char *key, struct rule_value *ret)
{
	const struct ras_field *x = ras_record_find(r, key);

	return x && x->type == RAS_FIELD_STRING && str(x->data, ret);
}

/*
 * Why a ras record's address names no page, NULL if it does or has none.
 * EDAC traces address 0 when the driver could not find it (ghes_edac without
 * a valid physical address, amd64_edac when translation failed), and a grain
 * wider than a page says the address is only good to that grain.  The
 * producer says so in "no_page" (kernel-abi/ras-trace.c); records written
 * before it did are judged here the same way.
 */
static const char *ras_no_page(const struct ras_record *r)
{
	const struct ras_field *x = ras_record_find(r, "no_page");
	struct rule_value v;

	if (x && x->type == RAS_FIELD_STRING)
		return x->data;
	if (r->event != RAS_EVENT_MEMORY_CONTROLLER || !RAS_NUM(r, &v, "address"))
		return NULL;
	if (v.u == 0)
		return "address_unknown";
	if (RAS_NUM(r, &v, "grain") && v.u > (UINT64_C(1) << PAGE_SHIFT))
		return "coarse_address";
	return NULL;
}

static bool ras_address(const struct ras_record *r, uint64_t *ret)
{
	struct rule_value v;

	if (ras_no_page(r) || !RAS_NUM(r, &v, "address", "physical_address", "pa", "hpa"))
		return false;
	*ret = v.u;
	return true;
}

/* Appends ",name:value" (no comma first) to the composed value; false when it does not fit. */
static bool put_coordinate(struct rule_value *v, size_t *at, const char *name, uint64_t u)
{
	int n = snprintf(v->text + *at, sizeof(v->text) - *at, "%s%s:%" PRIu64, *at ? "," : "", name, u);

	if (n < 0 || (size_t) n >= sizeof(v->text) - *at)
		return false;
	*at += (size_t) n;
	return true;
}

/*
 * The DIMM's own coordinates in an EDAC record, as one value.  A DIMM slot
 * read out of driver_detail (lib/edac-detail.h: ghes_edac's CPER "module",
 * skx/i10nm's "DimmSlotId") with what encloses it there ("node" is socket);
 * else the EDAC layers, which name one DIMM only if none is left out
 * before the last one given (the kernel passes -1 for a layer it does not
 * know, and for layers the controller does not have: those are last).
 */
static bool edac_coordinates(const struct ras_record *r, struct rule_value *ret)
{
	static const char *const enclosing[] = { "socket", "card", "memory_controller", "channel", "dimm" };
	static const char *const layers[] = { "top_layer", "middle_layer", "lower_layer" };
	struct rule_value v;
	size_t at = 0;
	bool gap = false;

	ret->is_string = true;
	ret->s = NULL;
	ret->text[0] = '\0';
	ret->u = 0;
	if (RAS_NUM(r, &v, "mc") && !put_coordinate(ret, &at, "mc", v.u))
		return false;
	if (RAS_NUM(r, &v, "dimm")) {
		for (size_t i = 0; i < ELEMENTSOF(enclosing); i++)
			if (RAS_NUM(r, &v, enclosing[i]) && !put_coordinate(ret, &at, enclosing[i], v.u))
				return false;
		return true;
	}
	if (!RAS_NUM(r, &v, layers[0]) || !put_coordinate(ret, &at, "location", v.u))
		return false;
	for (size_t i = 1; i < ELEMENTSOF(layers); i++) {
		int n;

		if (!RAS_NUM(r, &v, layers[i])) {
			gap = true;
			continue;
		}
		if (gap)
			return false;
		n = snprintf(ret->text + at, sizeof(ret->text) - at, ":%" PRIu64, v.u);
		if (n < 0 || (size_t) n >= sizeof(ret->text) - at)
			return false;
		at += (size_t) n;
	}
	return true;
}

/* The DIMM an EDAC record names, as the label field (rule-field.h). */
static enum rule_no_dimm edac_dimm(const struct ras_record *r, struct rule_value *ret)
{
	const struct ras_field *x = ras_record_find(r, "label");
	const char *label = x && x->type == RAS_FIELD_STRING ? x->data : NULL;
	enum edac_label_kind kind = edac_label_kind(label);
	struct rule_value v;

	if (kind == EDAC_LABEL_ONE_DIMM)
		return str(label, ret) ? RULE_NO_DIMM_NONE : RULE_NO_DIMM_UNKNOWN;
	/* The slot the driver decoded is one DIMM whatever the label says; layers are not, beside "A or B". */
	if (RAS_NUM(r, &v, "dimm") || kind != EDAC_LABEL_SEVERAL)
		if (edac_coordinates(r, ret))
			return RULE_NO_DIMM_NONE;
	return kind == EDAC_LABEL_SEVERAL ? RULE_NO_DIMM_SEVERAL : RULE_NO_DIMM_UNKNOWN;
}

enum rule_no_dimm rule_field_no_dimm(const struct rule_input *in)
{
	struct rule_value v;

	if (!in->ras || in->ras->event != RAS_EVENT_MEMORY_CONTROLLER)
		return RULE_NO_DIMM_NONE;
	return edac_dimm(in->ras, &v);
}

static const char *const no_dimm_reasons[_RULE_NO_DIMM_MAX] = {
	[RULE_NO_DIMM_NONE]    = "it names a DIMM",
	[RULE_NO_DIMM_UNKNOWN] = "its EDAC label names no DIMM (empty, or the kernel's \"unknown memory\") and "
				 "neither its driver_detail nor its EDAC layers give one DIMM's coordinates",
	[RULE_NO_DIMM_SEVERAL] = "its EDAC label puts the error on several DIMMs or the whole controller "
				 "(the kernel's \"any memory\", or \"A or B\") and its driver_detail names no DIMM",
};

const char *rule_no_dimm_to_string(enum rule_no_dimm why)
{
	return (unsigned) why < _RULE_NO_DIMM_MAX ? no_dimm_reasons[why] : "unknown";
}

/* The first of two string fields the record has. */
/* The string field key, else other. */
static bool ras_text_or(const struct ras_record *r, struct rule_value *ret, const char *key, const char *other)
{
	const struct ras_field *x = ras_record_find(r, key);

	if (!x || x->type != RAS_FIELD_STRING)
		x = ras_record_find(r, other);
	return x && x->type == RAS_FIELD_STRING && str(x->data, ret);
}

static bool ras_field(const struct rule_input *in, enum rule_field f, struct rule_value *ret)
{
	const struct ras_record *r = in->ras;
	const struct ras_field *x;
	uint64_t a;

	switch (f) {
	case RULE_FIELD_KIND:        return str(ras_event_to_string(r->event), ret);
	case RULE_FIELD_SOURCE:      return str(mce_source_to_string(r->source), ret);
	case RULE_FIELD_SEVERITY:    return str(ras_severity_to_string(r->severity), ret);
	case RULE_FIELD_COMPONENT:
		return (unsigned) r->event < _RAS_EVENT_MAX && str(ras_components[r->event], ret);
	case RULE_FIELD_CPU:         return num_if(r->have_cpu, r->cpu, ret);
	case RULE_FIELD_MC:          return RAS_NUM(r, ret, "mc");
	case RULE_FIELD_CHANNEL:     return RAS_NUM(r, ret, "channel");
	case RULE_FIELD_DIMM:        return RAS_NUM(r, ret, "dimm", "module");
	case RULE_FIELD_RANK:        return RAS_NUM(r, ret, "rank");
	case RULE_FIELD_CHIP_SELECT: return RAS_NUM(r, ret, "chip_select", "chip_id");
	case RULE_FIELD_ROW:         return RAS_NUM(r, ret, "row");
	case RULE_FIELD_COLUMN:      return RAS_NUM(r, ret, "column");
	case RULE_FIELD_BANK_GROUP:  return RAS_NUM(r, ret, "bank_group");
	case RULE_FIELD_DRAM_BANK:   return RAS_NUM(r, ret, "bank");
	case RULE_FIELD_SOCKET:      return RAS_NUM(r, ret, "socket", "node");
	case RULE_FIELD_LABEL:
		if (r->event == RAS_EVENT_MEMORY_CONTROLLER)
			return edac_dimm(r, ret) == RULE_NO_DIMM_NONE;
		/* A CXL memory device is its own DIMM: its name is its label. */
		x = ras_record_find(r, "label") ?: ras_record_find(r, "memdev");
		return x && x->type == RAS_FIELD_STRING && str(x->data, ret);
	case RULE_FIELD_SLOT:
		x = ras_record_find(r, "dimm_slot");
		return x && x->type == RAS_FIELD_STRING && str(x->data, ret);
	case RULE_FIELD_ADDRESS:     return ras_address(r, &a) && num(a, ret);
	case RULE_FIELD_PAGE:
		/* ras:memory_failure_event names the page frame itself. */
		if (RAS_NUM(r, ret, "pfn"))
			return true;
		return ras_address(r, &a) && num(a >> PAGE_SHIFT, ret);
	case RULE_FIELD_NO_PAGE:     return str(ras_no_page(r), ret);
	case RULE_FIELD_DPA:         return RAS_NUM(r, ret, "dpa");
	case RULE_FIELD_DRIVER:      return ras_text(r, "driver", ret);
	case RULE_FIELD_DEVICE:      return ras_text(r, "dev_name", ret);
	case RULE_FIELD_REPORTER:    return ras_text(r, "reporter", ret);
	case RULE_FIELD_HEALTH_STATE: return ras_text(r, "health_state", ret);
	case RULE_FIELD_PROCESS:     return ras_text_or(r, ret, "comm", "killed_comm");
	case RULE_FIELD_UNIT:        return ras_text_or(r, ret, "unit", "killed_unit");
	case RULE_FIELD_DISK:        return ras_text_or(r, ret, "disk", "dev");
	default:                     return false;
	}
}

bool rule_field_get(const struct rule_input *in, enum rule_field f, struct rule_value *ret)
{
	if (in->mce && in->decoded)
		return mce_field(in, f, ret);
	if (in->ras)
		return ras_field(in, f, ret);
	return false;
}

int rule_value_format(enum rule_field f, const struct rule_value *v, char *buf, size_t size)
{
	int n;

	if ((unsigned) f >= _RULE_FIELD_MAX)
		return -EINVAL;
	if (v->is_string)
		n = snprintf(buf, size, "%s=%s", fields[f].name, rule_value_string(v));
	else if (fields[f].format == FMT_HEX)
		n = snprintf(buf, size, "%s=0x%" PRIx64, fields[f].name, v->u);
	else
		n = snprintf(buf, size, "%s=%" PRIu64, fields[f].name, v->u);
	return n < 0 || (size_t) n >= size ? -ENOBUFS : 0;
}

static const char *const threshold_states[] = { "green", "yellow" };

/* The i-th value a fixed-vocabulary field can take; NULL past the end or for free-form fields. */
static const char *vocabulary(enum rule_field f, size_t i)
{
	switch (f) {
	case RULE_FIELD_KIND:
		return i == 0 ? "mce" : i <= _RAS_EVENT_MAX ? ras_event_to_string((enum ras_event) (i - 1)) :
		       NULL;
	case RULE_FIELD_SOURCE:
		return i < _MCE_SOURCE_MAX ? mce_source_to_string((enum mce_source) i) : NULL;
	case RULE_FIELD_SEVERITY:
		/* The ras scale is the MCA scale plus "info". */
		return i < _RAS_SEV_MAX ? ras_severity_to_string((enum ras_severity) i) : NULL;
	case RULE_FIELD_RECOVERY:
		return i + 1 < _MCE_RECOVERY_MAX ? mce_recovery_to_string((enum mce_recovery) (i + 1)) :
		       NULL;
	case RULE_FIELD_ERROR_CLASS:
		return i < _MCE_CLASS_MAX ? mce_error_class_to_string((enum mce_error_class) i) : NULL;
	case RULE_FIELD_VENDOR:
		return i < _MCE_VENDOR_MAX ? mce_vendor_to_string((enum mce_vendor) i) : NULL;
	case RULE_FIELD_THRESHOLD_STATUS:
		return i < ELEMENTSOF(threshold_states) ? threshold_states[i] : NULL;
	case RULE_FIELD_COMPONENT:
		return i < ELEMENTSOF(components) ? components[i] : NULL;
	case RULE_FIELD_HEALTH_STATE:
		return i < ELEMENTSOF(health_states) ? health_states[i] : NULL;
	default:
		return NULL;
	}
}

bool rule_field_value_known(enum rule_field f, const char *s)
{
	const char *v;

	if (!vocabulary(f, 0))
		return true;
	for (size_t i = 0; (v = vocabulary(f, i)); i++)
		if (streq(v, s))
			return true;
	return false;
}

void rule_field_known_values(enum rule_field f, char *buf, size_t size)
{
	size_t used = 0;
	const char *v;

	buf[0] = '\0';
	for (size_t i = 0; (v = vocabulary(f, i)) && used < size; i++) {
		int n = snprintf(buf + used, size - used, "%s%s", i ? ", " : "", v);

		if (n < 0)
			break;
		used += (size_t) n;
	}
}
