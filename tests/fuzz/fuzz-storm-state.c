/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer target: the storm state file a crash leaves (rules/storm-state.c).
 * Whatever it holds, the parser accepts it or names a line; what it accepts
 * formats back to text that parses to the same storms.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "storm-state.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char boot[MCE_BOOT_ID_LEN + 1], boot2[MCE_BOOT_ID_LEN + 1];
	struct storm_saved *storms = NULL, *again = NULL;
	size_t n = 0, n2 = 0;
	unsigned line = 0;
	char *text = NULL;
	int len;

	if (storm_state_parse((const char *) data, size, boot, &storms, &n, &line) < 0) {
		if (line == 0)
			abort();   /* a refusal always names its line */
		return 0;
	}
	len = storm_state_format(boot, storms, n, &text);
	if (len < 0 || storm_state_parse(text, (size_t) len, boot2, &again, &n2, &line) < 0 || n2 != n ||
	    strcmp(boot, boot2) != 0)
		abort();
	for (size_t i = 0; i < n; i++)
		if (storms[i].total != again[i].total || storms[i].start_usec != again[i].start_usec ||
		    storms[i].key.code != again[i].key.code || storms[i].key.cpu != again[i].key.cpu)
			abort();
	free(text);
	free(storms);
	free(again);
	return 0;
}
