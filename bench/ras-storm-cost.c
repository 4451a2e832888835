/* SPDX-License-Identifier: MIT */
/*
 * What one ras record costs storm detection (rules/ras-storm*.c) in a flood:
 * its signature from the record, then the engine, with STORMS storms in
 * progress at once, records spread round-robin over them.  The wrapper finds
 * a storm's name by a scan of the storms in progress, so the cost per record
 * is measured for a few storms and for many.
 *
 *   bench/ras-storm-cost STORMS RECORDS
 *
 * From a build directory after `make bench/ras-storm-cost`:
 *
 *   for n in 1 16 1024; do valgrind --tool=callgrind --callgrind-out-file=/dev/null \
 *       bench/ras-storm-cost $n 200000 2>&1 | grep Collected; done
 *
 * gcc -O2, per record (whole run / 200,000): with the signature formatted by
 * snprintf(), 8,267, 8,321 and 12,171 instructions for 1, 16 and 1024
 * storms; formatted by hand, 2,938, 2,989 and 6,841.  The scan of the storms
 * in progress costs about 4 instructions per storm: negligible for the few
 * failing parts a machine has at once.
 */
#include <stdio.h>
#include <stdlib.h>

#include "ras-storm.h"

int main(int argc, char *argv[])
{
	struct ras_storm *s;
	struct ras_record *recs;
	struct storm_counters k;
	unsigned long storms, records;
	uint64_t t = 0;

	if (argc != 3 || (storms = strtoul(argv[1], NULL, 10)) == 0 || storms > 1024 ||
	    (records = strtoul(argv[2], NULL, 10)) == 0) {
		fprintf(stderr, "usage: ras-storm-cost STORMS(1-1024) RECORDS\n");
		return 2;
	}
	recs = calloc(storms, sizeof(*recs));
	if (!recs || ras_storm_new(NULL, &s) < 0)
		return 1;
	/* One EDAC DIMM per storm, labelled as skx_edac does. */
	for (unsigned long i = 0; i < storms; i++) {
		char label[64];

		snprintf(label, sizeof(label), "CPU_SrcID#%lu_MC#%lu_Chan#%lu_DIMM#%lu", i / 64, i / 16 % 4,
			 i / 2 % 8, i % 2);
		ras_record_init(&recs[i], RAS_EVENT_MEMORY_CONTROLLER, MCE_SOURCE_RAS_MC_EVENT);
		recs[i].severity = RAS_SEV_CORRECTED;
		ras_record_add_uint(&recs[i], "error_count", 1);
		ras_record_add_string(&recs[i], "label", label, SIZE_MAX);
		ras_record_add_string(&recs[i], "message", "memory read error", SIZE_MAX);
		ras_record_add_uint(&recs[i], "mc", i / 16 % 4);
		ras_record_add_int(&recs[i], "top_layer", (int64_t) (i / 2 % 8));
		ras_record_add_int(&recs[i], "middle_layer", (int64_t) (i % 2));
		ras_record_add_hex64(&recs[i], "address", 0x12345000 + i * 64);
	}
	for (unsigned long i = 0; i < records; i++, t += 10) {
		struct ras_storm_key key;

		if (t >= ras_storm_next_deadline(s))
			ras_storm_tick(s, t, NULL, NULL);
		if (ras_storm_key_from_record(&recs[i % storms], &key))
			(void) ras_storm_account(s, &key, t);
	}
	ras_storm_get_counters(s, &k, NULL);
	printf("storms %u, records %llu, suppressed %llu\n", k.active, (unsigned long long) k.seen,
	       (unsigned long long) k.suppressed);
	for (unsigned long i = 0; i < storms; i++)
		ras_record_done(&recs[i]);
	free(recs);
	ras_storm_free(s);
	return 0;
}
