/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer target: sysfs CPU-list text ("0-3,8") through cpu_list_parse(),
 * as the daemon reads its CPU sets, and through msr_topo_leader(), as the
 * MSR poll plan reads a core's or package's siblings.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cpu-list.h"
#include "msr-plan.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static bool set[CPU_LIST_MAX], online[CPU_LIST_MAX];

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* A copy of exactly the text's size plus its NUL: a read past it is caught by ASan. */
	char *text = malloc(size + 1);
	const size_t max[] = { CPU_LIST_MAX, 64, 1, 0 };

	if (!text)
		abort();
	memcpy(text, data, size);
	text[size] = '\0';
	for (size_t i = 0; i < sizeof(max) / sizeof(max[0]); i++) {
		int n, count = 0;

		memset(set, 0, sizeof(set));
		n = cpu_list_parse(text, set, max[i]);
		for (size_t c = 0; c < CPU_LIST_MAX; c++)
			count += set[c];
		/* The count returned is the count set, all of them below max; a refusal may leave some set. */
		if (n >= 0 && n != count)
			__builtin_trap();
		for (size_t c = max[i]; c < CPU_LIST_MAX; c++)
			if (set[c])
				__builtin_trap();
	}
	/* Every other CPU online: the leader is the lowest listed one that is. */
	for (size_t c = 0; c < CPU_LIST_MAX; c++)
		online[c] = c % 2 == 0;
	(void) msr_topo_leader(text, online, CPU_LIST_MAX);
	free(text);
	return 0;
}
