/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer target: EDAC mc_event driver_detail text through
 * edac_detail_parse() (lib/edac-detail.c), and through the glue that adds
 * its location to a ras record, as the trace reader and replay do.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "edac-detail.h"
#include "ras-record.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* Exactly the input's bytes: a read past them is caught by ASan (no NUL is promised). */
	char *text = malloc(size ? size : 1);
	struct edac_location l;
	struct ras_record r;
	unsigned n, have = 0;

	if (!text)
		abort();
	memcpy(text, data, size);
	n = edac_detail_parse(text, size, &l);
	for (unsigned f = 0; f < _EDAC_LOC_MAX; f++)
		have += edac_location_has(&l, (enum edac_loc) f);
	/* The count is the fields present; the problem text is bounded and said when counted. */
	if (n != have || strnlen(l.problem, sizeof(l.problem)) == sizeof(l.problem) ||
	    (l.n_problems > 0) != (l.problem[0] != '\0'))
		__builtin_trap();

	ras_record_init(&r, RAS_EVENT_MEMORY_CONTROLLER, MCE_SOURCE_RAS_MC_EVENT);
	if (ras_record_add_string(&r, "driver_detail", text, size) == 0 && ras_record_add_edac_location(&r) < 0 &&
	    !r.truncated)
		__builtin_trap();
	ras_record_done(&r);
	free(text);
	return 0;
}
