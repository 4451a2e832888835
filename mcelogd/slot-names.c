/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <stdlib.h>

#include "dimm-slot-files.h"
#include "dimm-slot-record.h"
#include "log.h"
#include "ras-record.h"
#include "slot-names.h"

static void log_problem(const char *path, unsigned line, const char *what, void *userdata)
{
	(void) userdata;
	if (line > 0)
		log_warning("%s:%u: %s; the line is skipped", path, line, what);
	else
		log_warning("%s: %s; slot names from it are skipped", path, what);
}

int slot_names_load(struct slot_names *sn, const char *dmi_dir, const char *slots_dir)
{
	struct slot_names fresh = { .named = sn->named };
	int r;

	r = smbios_memdevs_read(dmi_dir ? dmi_dir : DMI_ENTRIES_DEFAULT, &fresh.devs, &fresh.n_devs,
				log_problem, NULL);
	if (r >= 0)
		r = dimm_slots_read_dir(&fresh.overrides, slots_dir ? slots_dir : SLOTS_DIR_DEFAULT, log_problem,
					NULL);
	if (r < 0) {
		slot_names_done(&fresh);
		return log_error_errno(r, "Out of memory reading the board's slot names; keeping those read before");
	}
	slot_names_done(sn);
	*sn = fresh;
	log_debug("Slot names: %zu SMBIOS memory device%s, %zu override%s", sn->n_devs, sn->n_devs == 1 ? "" : "s",
		  sn->overrides.n, sn->overrides.n == 1 ? "" : "s");
	return 0;
}

void slot_names_done(struct slot_names *sn)
{
	free(sn->devs);
	dimm_slots_done(&sn->overrides);
	*sn = (struct slot_names) { .named = sn->named };
}

void slot_names_annotate(struct slot_names *sn, struct ras_record *rec)
{
	int r = dimm_slot_annotate(&sn->overrides, sn->devs, sn->n_devs, rec);

	if (r > 0)
		sn->named++;
	else if (r < 0)
		log_debug_errno(r, "No room for the slot's name in a %s record: %m", ras_event_to_string(rec->event));
}
