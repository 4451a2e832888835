/* SPDX-License-Identifier: MIT */
/*
 * bench: the module ledger's cost at the size issue 37 states, 8 sockets x
 * 24 DIMMs and 1,000 CXL memory devices, each with a full history (every
 * pattern set at its bound), from the ledger's own code (rules/module-*.c).
 *
 *   bench/ledger-cost [--dimms N] [--cxl N] [--records N]
 *
 * Prints, one "name value" a line:
 *   modules            entries in the ledger
 *   entry_bytes        sizeof(struct module_entry)
 *   heap_bytes         the ledger's own allocations (entries and index, at their capacity)
 *   state_bytes        modules.state's size (module_state_format())
 *   ns_per_record      CPU time per memory error added (module_record_of() is not in it:
 *                      the daemon's rule fields are read for the rules already)
 *   ns_per_save        CPU time of one format of the whole ledger (the write at most once a second)
 *   ns_per_load        CPU time of one parse of it (at start)
 *   metrics_bytes      the module families' exposition text, and metrics_series within MAX_SERIES
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "module-ledger.h"
#include "module-prom.h"
#include "module-state.h"
#include "xorshift.h"

#define MACHINE "0123456789abcdef0123456789abcdef"

static uint64_t cpu_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
	return (uint64_t) t.tv_sec * 1000000000u + (uint64_t) t.tv_nsec;
}

static unsigned long arg(int argc, char **argv, const char *name, unsigned long def)
{
	for (int i = 1; i + 1 < argc; i++)
		if (!strcmp(argv[i], name))
			return strtoul(argv[i + 1], NULL, 10);
	return def;
}

int main(int argc, char **argv)
{
	unsigned long dimms = arg(argc, argv, "--dimms", 8 * 24), cxl = arg(argc, argv, "--cxl", 1000);
	unsigned long records = arg(argc, argv, "--records", 2000000);
	size_t n = dimms + cxl;
	struct module_id *ids = calloc(n, sizeof(*ids));
	struct module_ledger l, back;
	struct module_change c;
	char *text = NULL, *prom = NULL;
	uint64_t x = 0x9e3779b97f4a7c15u, t0, dropped = 0;
	int len, plen;

	if (!ids)
		return 1;
	for (size_t i = 0; i < dimms; i++) {
		char serial[32], slot[48];

		snprintf(serial, sizeof(serial), "%08zX", 0x1A2B0000 + i);
		snprintf(slot, sizeof(slot), "CPU%zu_DIMM_%c%zu", i / 24, (char) ('A' + i % 12), 1 + (i % 24) / 12);
		if (module_id_dimm(serial, "M393A4K40DB3-CWE", slot, MACHINE, &ids[i]) < 0)
			return 1;
	}
	for (size_t i = 0; i < cxl; i++) {
		char memdev[32];

		snprintf(memdev, sizeof(memdev), "mem%zu", i);
		if (module_id_cxl(0x5a00000000 + i, memdev, MACHINE, &ids[dimms + i]) < 0)
			return 1;
	}
	module_ledger_init(&l, NULL);
	/* Every module's history full: more distinct cells, rows, columns and banks than kept. */
	for (size_t i = 0; i < n; i++)
		for (uint32_t k = 0; k < 64; k++) {
			struct module_error e = { .severity = MODULE_CORRECTED, .time_usec = 1 + k, .have_cell = true,
						  .cell = { .bank = k % 40, .row = k * 7, .column = k * 3 },
						  .have_rank = true, .rank = k % 4 };

			if (module_ledger_error(&l, &ids[i], &e, &c) < 0)
				return 1;
		}
	t0 = cpu_ns();
	for (unsigned long r = 0; r < records; r++) {
		uint64_t v = xorshift64s(&x);
		struct module_error e = { .severity = (v >> 60) == 0 ? MODULE_UNCORRECTED : MODULE_CORRECTED,
					  .time_usec = (int64_t) (1000 + r), .have_cell = true,
					  .cell = { .bank = (uint32_t) (v >> 8) % 32, .row = (uint32_t) (v >> 16) % 65536,
						    .column = (uint32_t) (v >> 40) % 1024 } };

		if (module_ledger_error(&l, &ids[v % n], &e, &c) < 0)
			return 1;
	}
	printf("modules %zu\n", l.n);
	printf("entry_bytes %zu\n", sizeof(struct module_entry));
	printf("heap_bytes %zu\n", l.cap * sizeof(struct module_entry) + l.index_size * sizeof(uint32_t));
	printf("ns_per_record %.1f\n", (double) (cpu_ns() - t0) / (double) records);
	t0 = cpu_ns();
	for (int i = 0; i < 10; i++) {
		free(text);
		len = module_state_format(&l, &text);
		if (len < 0)
			return 1;
	}
	printf("state_bytes %d\n", len);
	printf("ns_per_save %.0f\n", (double) (cpu_ns() - t0) / 10);
	t0 = cpu_ns();
	for (int i = 0; i < 10; i++) {
		module_ledger_init(&back, NULL);
		if (module_state_parse(text, (size_t) len, &back, NULL, NULL) != 0 || back.n != l.n)
			return 1;
		if (i < 9)
			module_ledger_done(&back);
	}
	printf("ns_per_load %.0f\n", (double) (cpu_ns() - t0) / 10);
	plen = module_prom_format(&l, 4096, &prom, &dropped);
	if (plen < 0)
		return 1;
	printf("metrics_bytes %d\n", plen);
	printf("metrics_series_dropped %" PRIu64 "\n", dropped);
	module_ledger_done(&back);
	module_ledger_done(&l);
	free(text);
	free(prom);
	free(ids);
	return 0;
}
