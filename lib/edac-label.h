/* SPDX-License-Identifier: MIT */
#pragma once

/*
 * Whether an EDAC ras:mc_event's label names one DIMM.  Pure.
 *
 * The label is the driver's DIMM label, but the EDAC core and ghes_edac put
 * text in its place when they cannot name one (checked against the kernel
 * sources, drivers/edac/edac_mc.c edac_mc_handle_error() and
 * drivers/edac/ghes_edac.c ghes_edac_report_mem_error()):
 *
 *   "any memory"      the core, when no layer of the location is known or
 *                     more DIMMs match than a label can list: the whole
 *                     controller, or several DIMMs;
 *   "A or B"          the core, joining the labels of every populated DIMM
 *                     that matches the known layers (" or ", its
 *                     OTHER_LABEL): several DIMMs;
 *   "unknown memory"  the core, when no populated DIMM matches the layers,
 *                     and ghes_edac, when firmware names no module handle
 *                     the kernel knows;
 *   "unknown label"   ghes_edac before it filled labels from SMBIOS, for
 *                     every error.
 *
 * "unknown" is distrusted too: mcectl summary always has.  Every reader of
 * the label that groups by DIMM (the rules' label field, mcectl summary)
 * asks here, so there is one list.
 */

#include <stdbool.h>

enum edac_label_kind {
	EDAC_LABEL_ONE_DIMM,         /* a DIMM's own label */
	EDAC_LABEL_UNKNOWN,          /* none, empty, or a placeholder: the DIMM is not named */
	EDAC_LABEL_SEVERAL,          /* "any memory" or "A or B": the error is on no one DIMM */
};

enum edac_label_kind edac_label_kind(const char *label);

static inline bool edac_label_names_one_dimm(const char *label)
{
	return edac_label_kind(label) == EDAC_LABEL_ONE_DIMM;
}
