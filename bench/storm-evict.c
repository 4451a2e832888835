/* SPDX-License-Identifier: MIT */
/*
 * What a new error signature costs the storm engine (rules/storm.c) once its
 * signature table is full: every record is a new signature, spaced a burst
 * window apart, so each one evicts the least recently seen signature.
 *
 *   bench/storm-evict TABLE_SIZE RECORDS
 *
 * Run it for a small and a large table in the same run and compare: the
 * cost per record must not grow with the table.  Instructions, from a build
 * directory after `make bench/storm-evict`:
 *
 *   for n in 64 4096; do valgrind --tool=callgrind --callgrind-out-file=/dev/null \
 *       bench/storm-evict $n 100000 2>&1 | grep Collected; done
 *
 * With eviction by a scan of the table (before the LRU list), gcc -O2:
 * 102 M and 3,194 M instructions (x31 for a 64x larger table); with the
 * list, 54 M and 54 M (x1.00).
 */
#include <stdio.h>
#include <stdlib.h>

#include "storm.h"

int main(int argc, char *argv[])
{
	struct storm_config c;
	struct storm_counters n;
	struct storm *s;
	unsigned long size, records;

	if (argc != 3 || (size = strtoul(argv[1], NULL, 10)) == 0 || (records = strtoul(argv[2], NULL, 10)) == 0) {
		fprintf(stderr, "usage: storm-evict TABLE_SIZE RECORDS\n");
		return 2;
	}
	storm_config_default(&c);
	c.max_signatures = (unsigned) size;
	if (storm_new(&c, &s) < 0) {
		fprintf(stderr, "storm-evict: bad table size %lu\n", size);
		return 2;
	}
	for (unsigned long i = 0; i < records; i++) {
		struct storm_key k = { .cpu = (uint32_t) (i % 64), .bank = (uint32_t) (i / 64 % 32),
				       .code = i, .per_cpu = true };

		(void) storm_account(s, &k, (i + 1) * c.window_usec);
	}
	storm_get_counters(s, &n);
	printf("table %lu, %lu records: %llu evictions\n", size, records, (unsigned long long) n.evicted);
	storm_free(s);
	return 0;
}
