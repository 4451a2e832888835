/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer target: a read() of a perf counter group leader
 * (kernel-abi/perf-group-read.c), any bytes and any size, in a copy of
 * exactly that size so that ASan sees a read past it.  What parses must
 * hold together: nr within bounds, running within enabled, every member
 * found by its id.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "perf-group-read.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct perf_group_read r;
	unsigned char *copy = malloc(size ? size : 1);

	if (!copy)
		abort();
	memcpy(copy, data, size);
	if (perf_group_read_parse(copy, size, &r) == 0) {
		if (r.nr > PERF_GROUP_READ_MAX || r.time_running > r.time_enabled ||
		    size != perf_group_read_size(r.nr))
			abort();
		for (size_t i = 0; i < r.nr; i++)
			if (perf_group_read_find(&r, r.values[i].id) < 0)
				abort();
	}
	free(copy);
	return 0;
}
