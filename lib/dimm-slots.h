/* SPDX-License-Identifier: MIT */
#pragma once

/*
 * Which board slot an EDAC DIMM is: the slot a technician pulls.  Pure.
 *
 * The firmware names slots in its SMBIOS Memory Device structures
 * (lib/smbios-memdev.h: Locator, Bank Locator).  An EDAC DIMM names itself
 * by its label: ghes_edac labels each DIMM "<Bank Locator> <Locator>" from
 * those very structures, and a label database (edac-ctl) may write the
 * Locator itself; skx_edac, i10nm_edac and sb_edac label it by numbers
 * ("CPU_SrcID#0_MC#3_Chan#0_DIMM#0") that no standard ties to a slot.  So a
 * DIMM finds its slot by its label equal to a Locator or to "<Bank Locator>
 * <Locator>", or through an override the administrator writes for boards
 * whose firmware names slots wrongly or by numbers only:
 *
 *   # /etc/mcelogd/slots.d/board.conf
 *   CPU_SrcID#0_MC#0_Chan#0_DIMM#0 = P1-DIMMA1
 *   socket=0 mc=0 channel=1 dimm=0 = P1-DIMMB1
 *
 * one "LABEL = SLOT" a line (the last '=' ends the label, so that the place
 * a machine check names, when no EDAC driver gives a label, is one too),
 * '#' comments, blanks trimmed; a later line or file for the same label
 * replaces an earlier one.  An override wins over the SMBIOS names.
 */

#include <stddef.h>

#include "smbios-memdev.h"

#define DIMM_LABEL_MAX 96       /* EDAC's own limit (EDAC_MC_LABEL_LEN) is 31 on older kernels, 80 now */
#define DIMM_SLOT_MAX  (2 * SMBIOS_NAME_MAX + 1)

struct dimm_slot_override {
	char label[DIMM_LABEL_MAX];
	char slot[DIMM_SLOT_MAX + 1];
};

#define DIMM_SLOTS_MAX_OVERRIDES 4096

struct dimm_slots {
	struct dimm_slot_override *o;
	size_t n, cap;
};

/* Told of each bad line: where and what; the line is skipped, the others kept. */
typedef void (*dimm_slots_problem_fn)(const char *path, unsigned line, const char *what, void *userdata);

/* Adds one override file's lines.  Returns 0 or -ENOMEM. */
int dimm_slots_parse(struct dimm_slots *s, const char *path, const char *text, size_t len,
		     dimm_slots_problem_fn problem, void *userdata);
void dimm_slots_done(struct dimm_slots *s);

enum dimm_slot_from {
	DIMM_SLOT_UNKNOWN,
	DIMM_SLOT_OVERRIDE,
	DIMM_SLOT_SMBIOS,
};

struct dimm_slot {
	enum dimm_slot_from from;
	const char *slot;                       /* the override's text, or the SMBIOS Locator */
	const struct smbios_memdev *dev;        /* the SMBIOS structure, when one matched */
};

/* The slot of the DIMM labelled `label`, among devs[0..n). */
struct dimm_slot dimm_slot_find(const struct dimm_slots *s, const struct smbios_memdev *devs, size_t n,
				const char *label);

const char *dimm_slot_from_to_string(enum dimm_slot_from f);
