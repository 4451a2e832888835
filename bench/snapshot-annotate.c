/* SPDX-License-Identifier: MIT */
/*
 * Time a counter snapshot adds to one record: the counter provider opened on
 * this machine's real CPUs (software events count everywhere; hardware ones
 * where there is a PMU), then N records of CPU 0 rendered to JSON with and
 * without the snapshot stage, the same way the manager does.  Prints the
 * CPU time per record of each and the difference.
 *
 *   bench/snapshot-annotate [RECORDS]     (from a build directory, as root)
 *
 * CPU time of this process (CLOCK_PROCESS_CPUTIME_ID) plus wall time: the
 * group read crosses to the record's CPU by IPI, which the wall time shows.
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "clock.h"
#include "daemon-config.h"
#include "decode.h"
#include "json-writer.h"
#include "record-json.h"
#include "snapshot-cpu.h"
#include "snapshot-stage.h"
#include "snapshots.h"
#include "source.h"

static double now(clockid_t id)
{
	struct timespec ts;
	clock_gettime(id, &ts);
	return (double) ts.tv_sec + (double) ts.tv_nsec / 1e9;
}

static void write_snapshot(struct json_writer *w, void *userdata)
{
	struct snapshot_call { struct snapshot_stage *st; const struct mce_record *rec; } *c = userdata;
	struct snapshot_subject sub;

	snapshot_subject_of_mce(c->rec, &sub);   /* as the manager does, per record */
	snapshot_stage_annotate(c->st, &sub, w);
}

int main(int argc, char *argv[])
{
	unsigned n = argc > 1 ? (unsigned) strtoul(argv[1], NULL, 10) : 20000;
	struct mcelogd_config config;
	struct source_paths paths = { .state_directory = "/tmp" };
	struct snapshot_stage st = {};
	struct json_writer w;
	struct mce_decoded d;
	struct mce_record rec = {
		.have = MCE_HAVE_TIME | MCE_HAVE_CPU | MCE_HAVE_BANK | MCE_HAVE_STATUS | MCE_HAVE_ADDR |
			MCE_HAVE_MISC | MCE_HAVE_VENDOR | MCE_HAVE_CPUID,
		.source = MCE_SOURCE_TRACEPOINT,
		.cpu = 0, .bank = 7, .vendor = MCE_VENDOR_INTEL, .family = 6, .model = 143,
		.status = 0x9c00004000010090ULL, .addr = 0x12345000, .misc = 0x86,
	};

	config_set_defaults(&config);
	const struct snapshot_params p = { .config = &config, .paths = &paths, .event = NULL };
	if (snapshot_stage_set(&st, snapshots_live, snapshots_live_count) < 0)
		return 1;
	snapshot_stage_open(&st, &p);
	json_writer_init(&w);
	mce_decode(&rec, &d);
	struct { struct snapshot_stage *st; const struct mce_record *rec; } call = { &st, &rec };

	double cpu_time[2], wall[2];
	size_t bytes[2];
	for (int with = 0; with < 2; with++) {
		double c0 = now(CLOCK_PROCESS_CPUTIME_ID), w0 = now(CLOCK_MONOTONIC);
		for (unsigned i = 0; i < n; i++) {
			rec.time_usec = now_realtime_usec();
			json_writer_reset(&w);
			mce_record_write_json_extra(&rec, &d, &w, with ? write_snapshot : NULL, &call);
		}
		cpu_time[with] = now(CLOCK_PROCESS_CPUTIME_ID) - c0;
		wall[with] = now(CLOCK_MONOTONIC) - w0;
		bytes[with] = w.len;
	}
	printf("records: %u (CPU 0)\n", n);
	printf("without snapshot: %.2f us CPU, %.2f us wall per record, %zu bytes of JSON\n",
	       cpu_time[0] / n * 1e6, wall[0] / n * 1e6, bytes[0]);
	printf("with snapshot:    %.2f us CPU, %.2f us wall per record, %zu bytes of JSON\n",
	       cpu_time[1] / n * 1e6, wall[1] / n * 1e6, bytes[1]);
	printf("added per record: %.2f us CPU, %.2f us wall\n",
	       (cpu_time[1] - cpu_time[0]) / n * 1e6, (wall[1] - wall[0]) / n * 1e6);
	printf("last snapshot: %s\n", json_writer_str(&w));
	snapshot_stage_close(&st);
	json_writer_done(&w);
	return 0;
}
