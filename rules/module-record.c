/* SPDX-License-Identifier: MIT */
#include <string.h>

#include "dec-digits.h"
#include "dimm-slots.h"
#include "macro.h"
#include "module-record.h"
#include "ras-record.h"
#include "rule-field.h"
#include "smbios-memdev.h"

static bool get_num(const struct rule_input *in, enum rule_field f, uint64_t *ret)
{
	struct rule_value v;

	if (!rule_field_get(in, f, &v) || v.is_string)
		return false;
	*ret = v.u;
	return true;
}

static bool get_text(const struct rule_input *in, enum rule_field f, struct rule_value *v)
{
	return rule_field_get(in, f, v) && v->is_string && rule_value_string(v)[0];
}

static bool is_cxl_media(const struct ras_record *r)
{
	return r->event == RAS_EVENT_CXL_DRAM || r->event == RAS_EVENT_CXL_GENERAL_MEDIA ||
	       r->event == RAS_EVENT_CXL_MEMORY_SPARING;
}

static bool cxl_id(const struct ras_record *r, const char *machine_id, struct module_id *ret)
{
	const struct ras_field *serial = ras_record_find(r, "serial");
	const struct ras_field *memdev = ras_record_find(r, "memdev") ?: ras_record_find(r, "device");

	if (!memdev || memdev->type != RAS_FIELD_STRING)
		return false;
	return module_id_cxl(serial && serial->type == RAS_FIELD_UINT ? serial->u : 0, memdev->data, machine_id,
			     ret) == 0;
}

/* Appends " name=v" (no blank first) at *at; false when it would not fit, as snprintf's truncation. */
static bool put_coordinate(char *buf, size_t size, size_t *at, enum rule_field f, uint64_t v)
{
	const char *name = rule_field_to_string(f);
	size_t n = strlen(name), need;
	unsigned digits = dec_u64_len(v);
	char *o = buf + *at;

	need = (*at ? 1 : 0) + n + 1 + digits;
	if (need >= size - *at)
		return false;
	if (*at)
		*o++ = ' ';
	memcpy(o, name, n);
	o += n;
	*o++ = '=';
	*dec_u64_put(o, v, digits) = '\0';
	*at += need;
	return true;
}

/*
 * The DIMM's place when the record names no slot: "socket=0 mc=1 channel=2
 * dimm=0".  Built by hand, not by snprintf(): a machine check of a memory
 * controller makes it at every error, and formatting was most of the
 * ledger's cost per record (the speed gate's mixed corpus).
 */
static bool coordinates(const struct rule_input *in, char *buf, size_t size)
{
	uint64_t socket, mc, channel, dimm;
	size_t at = 0;

	/* A channel holds several DIMMs: without the DIMM it names no module. */
	if (!get_num(in, RULE_FIELD_CHANNEL, &channel) || !get_num(in, RULE_FIELD_DIMM, &dimm))
		return false;
	buf[0] = '\0';
	return (!get_num(in, RULE_FIELD_SOCKET, &socket) || put_coordinate(buf, size, &at, RULE_FIELD_SOCKET, socket)) &&
	       (!get_num(in, RULE_FIELD_MC, &mc) || put_coordinate(buf, size, &at, RULE_FIELD_MC, mc)) &&
	       put_coordinate(buf, size, &at, RULE_FIELD_CHANNEL, channel) &&
	       put_coordinate(buf, size, &at, RULE_FIELD_DIMM, dimm);
}

/* The DIMM in the SMBIOS structure whose Locator is slot, or its place alone. */
static bool dimm_in_slot(const struct module_host *h, const char *slot, struct module_id *ret)
{
	for (size_t i = 0; i < h->n_devs; i++)
		if (streq(h->devs[i].locator, slot))
			return module_id_dimm(h->devs[i].serial, h->devs[i].part_number, slot, h->machine_id, ret) == 0;
	return module_id_dimm(NULL, NULL, slot, h->machine_id, ret) == 0;
}

bool module_id_of_record(const struct rule_input *in, const struct module_host *h, struct module_id *ret)
{
	const char *machine_id = h->machine_id;
	struct rule_value slot, label;
	struct dimm_slot named;
	char place[96];

	if (in->ras && is_cxl_media(in->ras))
		return cxl_id(in->ras, machine_id, ret);
	if (in->ras && in->ras->event != RAS_EVENT_MEMORY_CONTROLLER && in->ras->event != RAS_EVENT_FIRMWARE_MEMORY)
		return false;
	if (get_text(in, RULE_FIELD_SLOT, &slot))
		return dimm_in_slot(h, rule_value_string(&slot), ret);
	/* A label names one DIMM (rule-field.h: never a placeholder); a machine check has none. */
	if (in->ras && get_text(in, RULE_FIELD_LABEL, &label))
		return module_id_dimm(NULL, NULL, rule_value_string(&label), machine_id, ret) == 0;
	if (!coordinates(in, place, sizeof(place)))
		return false;
	/* Only the administrator's word ties a place to a slot: no firmware table names places. */
	named = dimm_slot_find(h->overrides, NULL, 0, place);
	if (named.from == DIMM_SLOT_OVERRIDE)
		return dimm_in_slot(h, named.slot, ret);
	return module_id_dimm(NULL, NULL, place, machine_id, ret) == 0;
}

static bool is_memory_error(const struct rule_input *in)
{
	struct rule_value component;

	if (in->ras)
		return in->ras->event == RAS_EVENT_MEMORY_CONTROLLER || in->ras->event == RAS_EVENT_FIRMWARE_MEMORY ||
		       in->ras->event == RAS_EVENT_CXL_DRAM || in->ras->event == RAS_EVENT_CXL_GENERAL_MEDIA;
	return rule_field_get(in, RULE_FIELD_COMPONENT, &component) && component.is_string &&
	       streq(rule_value_string(&component), "memory");
}

/* The cell as dram-watch reads it: the bank group above the bank (CPER's packing). */
static bool error_cell(const struct rule_input *in, struct dram_cell *c)
{
	uint64_t bank, group, row, column;

	if (!get_num(in, RULE_FIELD_DRAM_BANK, &bank) || !get_num(in, RULE_FIELD_ROW, &row) ||
	    !get_num(in, RULE_FIELD_COLUMN, &column) || bank > UINT32_MAX || row > UINT32_MAX || column > UINT32_MAX)
		return false;
	if (get_num(in, RULE_FIELD_BANK_GROUP, &group)) {
		if (group > 0xffffff || bank > 0xff)
			return false;
		bank |= group << 8;
	}
	*c = (struct dram_cell) { .bank = (uint32_t) bank, .row = (uint32_t) row, .column = (uint32_t) column };
	return true;
}

void module_record_of(const struct rule_input *in, int64_t time_usec, const struct module_host *h,
		      struct module_record *ret)
{
	struct module_error *e = &ret->error;
	const struct ras_field *spares;
	struct rule_value sev;
	uint64_t u = 0;

	*ret = (struct module_record) { .kind = MODULE_RECORD_NONE };
	if (in->ras && in->ras->event == RAS_EVENT_CXL_MEMORY_SPARING) {
		spares = ras_record_find(in->ras, "spare_resources_available");
		if (spares && spares->type == RAS_FIELD_UINT && cxl_id(in->ras, h->machine_id, &ret->id)) {
			ret->kind = MODULE_RECORD_SPARES;
			ret->spares_left = spares->u;
		}
		return;
	}
	if (!is_memory_error(in) || !rule_field_get(in, RULE_FIELD_SEVERITY, &sev) || !sev.is_string)
		return;
	if (streq(rule_value_string(&sev), "corrected"))
		e->severity = MODULE_CORRECTED;
	else if (streq(rule_value_string(&sev), "uncorrected") || streq(rule_value_string(&sev), "fatal") ||
		 streq(rule_value_string(&sev), "deferred"))
		e->severity = MODULE_UNCORRECTED;
	else
		return;
	if (!module_id_of_record(in, h, &ret->id))
		return;
	ret->kind = MODULE_RECORD_ERROR;
	e->time_usec = time_usec;
	e->have_cell = error_cell(in, &e->cell);
	e->have_rank = get_num(in, RULE_FIELD_RANK, &u) && u < 32;
	e->rank = (uint32_t) u;
	if (in->ras && get_num(in, RULE_FIELD_DPA, &u))
		e->have_address = true, e->address = u;
	else if (get_num(in, RULE_FIELD_ADDRESS, &u))
		e->have_address = true, e->address = u;
}
