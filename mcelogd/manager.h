/* SPDX-License-Identifier: MIT */
#pragma once

/*
 * The daemon's single state object: the event loop, configuration, sources
 * and sinks.  Every record, whatever its source, goes through
 * manager_submit_record(): decode → render once → every enabled sink.
 */

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <systemd/sd-event.h>

#include "daemon-config.h"
#include "json-writer.h"
#include "record.h"

struct tracepoint_source;
struct control;
struct trace_buffer;
struct msr_source;
struct dev_mcelog_source;
struct mce_dedup;
struct cpu_hotplug;
struct storm;

/*
 * What each live source is doing, for STATUS=, `mcectl status` and the log.
 * Indexed by the record's enum mce_source, so a new source appears in the
 * status by adding its enum value and calling manager_source_set_state().
 */
enum source_state {
	SOURCE_DISABLED,     /* by configuration (or not a live source at all) */
	SOURCE_UNAVAILABLE,  /* wanted, but this kernel or sandbox cannot give it: see reason */
	SOURCE_ACTIVE,
	_SOURCE_STATE_MAX,
};

struct source_status {
	enum source_state state;
	char reason[256];            /* why unavailable or disabled, or a detail when active */
	uint64_t n_records;          /* records this source submitted */
	uint64_t n_lost;             /* records the kernel said it dropped */
	int64_t last_record_usec;    /* CLOCK_REALTIME of the last record, 0: none */
};

struct manager {
	sd_event *event;
	struct mcelogd_config config;
	const char *config_path;
	bool config_path_explicit;

	/* command-line overrides, re-applied after every reload */
	const char *arg_json_output;
	bool arg_no_journal;
	int arg_log_level;           /* -1: not given */

	char hostname[MCE_HOSTNAME_MAX];
	char boot_id[MCE_BOOT_ID_LEN + 1];

	struct json_writer json;
	FILE *json_out;
	bool json_out_close;
	bool json_flush_each;        /* live: every record reaches the file at once */

	struct tracepoint_source *tracepoint;
	struct control *control;
	struct trace_buffer *trace_buffer;   /* NULL: records are not kept across restarts */
	struct json_writer status_json;
	struct msr_source *msr;
	/* legacy /dev/mcelog; while it is open, copies of one record from it and the
	 * tracepoint are dropped through mce_dedup (owned by the source) */
	struct dev_mcelog_source *dev_mcelog;
	struct mce_dedup *mce_dedup;
	struct cpu_hotplug *hotplug;     /* NULL: CPU hotplug not followed */
	sd_event_source *status_refresh; /* STATUS= catches up with the counters after a batch */

	struct source_status sources[_MCE_SOURCE_MAX];
	int64_t started_realtime_usec;
	uint64_t started_monotonic_usec;
	int64_t last_record_usec;    /* CLOCK_REALTIME of the last record of any source */

	uint64_t n_records;
	uint64_t n_journal_written;  /* record entries sd_journal_sendv() accepted */
	uint64_t n_sink_failures;

	/* Corrected-error storms (manager-storm.h); storm is NULL when off or replaying. */
	struct storm *storm;
	struct storm_config storm_config;   /* the settings storm was built with */
	sd_event_source *storm_timer;
	uint64_t storm_timer_usec;          /* CLOCK_MONOTONIC the timer is armed at */
	uint64_t n_storm_events;            /* summaries and ends written */
};

int manager_init(struct manager *m);
void manager_done(struct manager *m);

/* (Re)applies m->config plus command-line overrides to the sinks. */
int manager_apply_config(struct manager *m);

/* Fills hostname/boot_id, decodes, writes to every sink.  Returns 0 or negative errno. */
int manager_submit_record(struct manager *m, struct mce_record *rec);

/*
 * A record from a live tracepoint ring (ring_cpu's perf buffer): skips what
 * the trace buffer already logged at start, and moves its cursor.
 */
int manager_submit_from_ring(struct manager *m, unsigned ring_cpu, struct mce_record *rec);

struct ras_record;
/* The same for a non-MCA record (ras:* tracepoints, firmware records). */
int manager_submit_ras(struct manager *m, struct ras_record *rec);

/* A loss the kernel reported: logged as its own record class and counted. */
void manager_report_loss(struct manager *m, enum mce_source source, unsigned cpu, uint64_t lost);

/* Sets a live source's state; reason_fmt (printf-style, may be NULL) says why. */
void manager_source_set_state(struct manager *m, enum mce_source source, enum source_state state,
			      const char *reason_fmt, ...) __attribute__((format(printf, 4, 5)));

const char *source_state_to_string(enum source_state s);

/* Microseconds of CLOCK_MONOTONIC and CLOCK_REALTIME. */
uint64_t now_monotonic_usec(void);
int64_t now_realtime_usec(void);

/*
 * CPU hotplug (cpu-hotplug.c calls these): every per-CPU source follows a
 * CPU going online or offline, then STATUS= is updated.  After missed
 * events, manager_cpus_resync() hands over the whole online set instead.
 */
void manager_cpu_changed(struct manager *m, unsigned cpu, bool online);
void manager_cpus_resync(struct manager *m, const bool *online, size_t n_online);

/* Human status for systemd's STATUS= and the log. */
void manager_update_status(struct manager *m);
