/* SPDX-License-Identifier: MIT */
#pragma once

/*
 * The board slots the daemon names in memory records (lib/dimm-slot-record.h):
 * the firmware's SMBIOS type-17 structures and the administrator's
 * overrides (the .conf files of /etc/mcelogd/slots.d), read at start and again at a
 * reload, never per record.  A replay names slots only when it is given
 * where to read them (--dmi-dir, --slots-directory): the machine replaying is
 * not the one that recorded.
 */

#include <stddef.h>
#include <stdint.h>

#include "dimm-slot-files.h"
#include "dimm-slots.h"

struct ras_record;

struct slot_names {
	struct smbios_memdev *devs;
	size_t n_devs;
	struct dimm_slots overrides;
	uint64_t named;               /* records given a slot */
};

/*
 * (Re)reads dmi_dir and slots_dir (NULL: the defaults); every unreadable or
 * bad file is logged and skipped.  On -ENOMEM the names read before stay.
 * Returns 0 or -ENOMEM (logged).
 */
int slot_names_load(struct slot_names *sn, const char *dmi_dir, const char *slots_dir);
void slot_names_done(struct slot_names *sn);

/* Adds rec's slot to it when the tables know it (dimm_slot_annotate()). */
void slot_names_annotate(struct slot_names *sn, struct ras_record *rec);
