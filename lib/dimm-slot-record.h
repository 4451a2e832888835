/* SPDX-License-Identifier: MIT */
#pragma once

/*
 * The board slot a memory record names, added to the record itself so that
 * its JSON ("dimm_slot", "dimm_bank_locator") and its journal entry
 * (MCE_DIMM_SLOT, MCE_DIMM_BANK_LOCATOR) carry it, and rules and alerts see
 * it (the rule field "slot").  Pure: the caller reads the SMBIOS structures
 * and the overrides (lib/dimm-slots.h) once and passes them in.
 *
 * Which records: EDAC memory-controller events, by their DIMM label
 * (dimm_slot_find()); UEFI CPER memory sections (firmware_memory) that give
 * the SMBIOS handle of their module (Memory Error Section, "Module Handle":
 * the type-17 structure's handle).  A record that already carries a slot (a
 * replayed one) keeps it.
 */

#include <stddef.h>

#include "dimm-slots.h"

struct ras_record;

/* The slot of rec, DIMM_SLOT_UNKNOWN if it names none that devs or the overrides know. */
struct dimm_slot dimm_slot_of_record(const struct dimm_slots *s, const struct smbios_memdev *devs, size_t n,
				     const struct ras_record *rec);

/*
 * Adds the slot's fields to rec.  Returns 1 when it added them, 0 when rec
 * names no known slot or has one already, or the negative errno of
 * ras_record_add_string() (-E2BIG: the record is full).
 */
int dimm_slot_annotate(const struct dimm_slots *s, const struct smbios_memdev *devs, size_t n,
		       struct ras_record *rec);
