/* SPDX-License-Identifier: MIT */
#include <stdio.h>
#include <sys/stat.h>

#include "tracefs-roots.h"

const char *const tracefs_roots[TRACEFS_N_ROOTS] = { "/sys/kernel/tracing", "/sys/kernel/debug/tracing" };

const char *tracefs_instances_root(const char *tracefs_root)
{
	struct stat st;

	if (tracefs_root)
		return tracefs_root;
	for (size_t i = 0; i < TRACEFS_N_ROOTS; i++) {
		char p[512];

		snprintf(p, sizeof(p), "%s/instances", tracefs_roots[i]);
		if (stat(p, &st) == 0)
			return tracefs_roots[i];
	}
	return tracefs_roots[0];
}
