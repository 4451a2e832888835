/* SPDX-License-Identifier: MIT */
#pragma once

/*
 * Which module a record is about, and what it tells of it (module-ledger.h).
 * Pure: the caller passes the SMBIOS structures it read at start.
 *
 *   a memory error (a machine check of a memory controller naming its
 *   channel and DIMM, an EDAC event, a UEFI CPER memory section, a CXL DRAM
 *   or general media event): its module and the error (severity, cell,
 *   rank, address);
 *   a CXL memory sparing event: its device and the spares it has left.
 *
 * A DIMM's serial and part number come from the SMBIOS structure whose
 * Locator is the record's slot (lib/dimm-slot-record.h named it).  A machine
 * check names no slot, only its socket/mc/channel/dimm: an override line for
 * that place (lib/dimm-slots.h) gives its slot, and so its serial, on
 * machines whose EDAC driver gives no label (none loaded, or a CPU too new
 * for one).  Lacking a slot, the record's EDAC label, then its place, is the
 * fallback.  Records of no module, or of no error (info), are none.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "module-ledger.h"

struct dimm_slots;
struct rule_input;
struct smbios_memdev;

enum module_record_kind {
	MODULE_RECORD_NONE,
	MODULE_RECORD_ERROR,
	MODULE_RECORD_SPARES,
};

struct module_record {
	enum module_record_kind kind;
	struct module_id id;
	struct module_error error;      /* MODULE_RECORD_ERROR */
	uint64_t spares_left;           /* MODULE_RECORD_SPARES */
};

/* The machine the records are of: what names its modules. */
struct module_host {
	const struct smbios_memdev *devs;     /* its SMBIOS type-17 structures (serials, part numbers) */
	size_t n_devs;
	const struct dimm_slots *overrides;   /* the administrator's slot names (slots.d); NULL: none */
	const char *machine_id;               /* for the keys of modules without a serial */
};

/* What in tells the ledger.  time_usec: the record's time (CLOCK_REALTIME), 0 unknown. */
void module_record_of(const struct rule_input *in, int64_t time_usec, const struct module_host *h,
		      struct module_record *ret);

/* Only the module (any record that names one: a page offlined, a repair); false when none. */
bool module_id_of_record(const struct rule_input *in, const struct module_host *h, struct module_id *ret);
