/* SPDX-License-Identifier: MIT */
#include <string.h>

#include "edac-label.h"
#include "macro.h"

/* The kernel's words in a label's place (edac-label.h); matched whole. */
static const char *const unknown_labels[] = { "unknown memory", "unknown label", "unknown" };

/* edac_mc_handle_error()'s OTHER_LABEL, between the labels of the DIMMs that match. */
#define OTHER_LABEL " or "

static bool blank(const char *s)
{
	for (; *s; s++)
		if (*s != ' ' && *s != '\t' && *s != '\n')
			return false;
	return true;
}

enum edac_label_kind edac_label_kind(const char *label)
{
	if (!label || blank(label))
		return EDAC_LABEL_UNKNOWN;
	for (size_t i = 0; i < ELEMENTSOF(unknown_labels); i++)
		if (streq(label, unknown_labels[i]))
			return EDAC_LABEL_UNKNOWN;
	if (streq(label, "any memory") || strstr(label, OTHER_LABEL))
		return EDAC_LABEL_SEVERAL;
	return EDAC_LABEL_ONE_DIMM;
}
