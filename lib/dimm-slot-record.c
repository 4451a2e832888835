/* SPDX-License-Identifier: MIT */
#include <string.h>

#include "dimm-slot-record.h"
#include "ras-record.h"

/* The SMBIOS handle of a CPER memory section's module; false without one. */
static bool module_handle(const struct ras_record *rec, uint16_t *ret)
{
	const struct ras_field *f = ras_record_find(rec, "module_handle");

	if (!f || (f->type != RAS_FIELD_UINT && f->type != RAS_FIELD_HEX && f->type != RAS_FIELD_HEX64) ||
	    f->u > UINT16_MAX)
		return false;
	*ret = (uint16_t) f->u;
	return true;
}

struct dimm_slot dimm_slot_of_record(const struct dimm_slots *s, const struct smbios_memdev *devs, size_t n,
				     const struct ras_record *rec)
{
	const struct ras_field *label;
	uint16_t handle;

	switch (rec->event) {
	case RAS_EVENT_MEMORY_CONTROLLER:
		label = ras_record_find(rec, "label");
		if (label && label->type == RAS_FIELD_STRING)
			return dimm_slot_find(s, devs, n, label->data);
		break;
	case RAS_EVENT_FIRMWARE_MEMORY:
		if (!module_handle(rec, &handle))
			break;
		for (size_t i = 0; i < n; i++)
			if (devs[i].handle == handle && devs[i].locator[0])
				return (struct dimm_slot) { .from = DIMM_SLOT_SMBIOS, .slot = devs[i].locator,
							    .dev = &devs[i] };
		break;
	default:
		break;
	}
	return (struct dimm_slot) {};
}

int dimm_slot_annotate(const struct dimm_slots *s, const struct smbios_memdev *devs, size_t n,
		       struct ras_record *rec)
{
	struct dimm_slot slot;
	int r;

	if (ras_record_find(rec, "dimm_slot"))
		return 0;
	slot = dimm_slot_of_record(s, devs, n, rec);
	if (slot.from == DIMM_SLOT_UNKNOWN)
		return 0;
	r = ras_record_add_string(rec, "dimm_slot", slot.slot, strlen(slot.slot));
	if (r >= 0 && slot.dev && slot.dev->bank_locator[0])
		r = ras_record_add_string(rec, "dimm_bank_locator", slot.dev->bank_locator,
					  strlen(slot.dev->bank_locator));
	return r < 0 ? r : 1;
}
