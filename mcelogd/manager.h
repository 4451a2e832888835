/* SPDX-License-Identifier: MIT */
#pragma once

/*
 * The daemon's core: the event loop, the configuration, and the one record
 * pipeline every source feeds:
 *
 *	source → dedup (live MCA copies) → decode → rules → storm stage → render once → every sink
 *
 * Sources and sinks are arrays of ops tables (source.h, sink.h); the manager
 * loops over them and knows none of them by name.
 */

#include <stdbool.h>
#include <stdint.h>
#include <systemd/sd-event.h>

#include "daemon-config.h"
#include "fd-budget.h"
#include "json-writer.h"
#include "mce-dedup.h"
#include "memory-kill.h"
#include "ras-daemon-active.h"
#include "record.h"
#include "rules-stage.h"
#include "sink.h"
#include "snapshot-stage.h"
#include "source.h"
#include "storm-stage.h"

struct control;
struct edac_feature;
struct cpu_hotplug;
struct uevent_listener;
struct memory_online;

#define MANAGER_SOURCES_MAX 8
#define MANAGER_SINKS_MAX 4

/* What `mcectl status` shows per kind of record (enum mce_source). */
struct source_status {
	enum source_state state;
	char reason[256];            /* why unavailable or disabled, or a detail when active */
	uint64_t n_records;          /* records of this kind submitted */
	uint64_t n_lost;             /* records the kernel said it dropped */
	int64_t last_record_usec;    /* CLOCK_REALTIME of the last record, 0: none */
};

struct source_slot {
	const struct source_ops *ops;
	void *state;                 /* NULL: not open */
};

struct sink_slot {
	const struct sink_ops *ops;
	void *state;                 /* NULL: not open */
	uint64_t n_written;          /* entries of any kind it took */
	uint64_t n_records_written;  /* of which records (MCA and ras) */
	uint64_t n_failures;
};

struct manager {
	sd_event *event;             /* NULL when replaying */
	bool live;
	struct mcelogd_config config;
	const char *config_path;
	bool config_path_explicit;

	/* command-line overrides, re-applied after every reload */
	const char *arg_json_output;
	const char *arg_metrics_output;   /* --metrics-file: wins over Metrics=; a replay's only one */
	bool arg_no_journal;
	int arg_log_level;           /* -1: not given */

	char hostname[MCE_HOSTNAME_MAX];
	char boot_id[MCE_BOOT_ID_LEN + 1];
	char machine_id[MCE_BOOT_ID_LEN + 1];   /* "" when unknown */

	struct source_paths paths;
	struct source_host host;     /* what the sources see of us */
	struct source_slot sources[MANAGER_SOURCES_MAX];
	size_t n_sources;
	struct sink_slot sinks[MANAGER_SINKS_MAX];
	size_t n_sinks;

	struct json_writer json;     /* each entry rendered once for every sink */
	/* Live MCA records reach both the tracepoint and /dev/mcelog: the second copy is dropped. */
	struct mce_dedup *dedup;
	struct storm_stage storm;
	/* SIGBUS and memory-failure records of the same error, joined (rules/memory-kill.h). */
	struct memory_kill_join kills;
	struct snapshot_stage snapshots;   /* live only: what each record's CPU was doing */
	/* What the snapshot providers may open: measured when they open, after the sources
	 * (fd-budget.h).  fd_reserve: kept back beyond FD_RESERVE_BASE for CPUs not yet online. */
	struct fd_budget fds;
	uint64_t fd_reserve;
	struct rules_stage rules;    /* every record, before storms thin them */

	struct control *control;
	struct json_writer status_json;
	/* The EDAC controls status last read (status-json.c): each read is a device mailbox command. */
	struct edac_feature *edac_features;
	size_t n_edac_features;
	uint64_t edac_features_usec;     /* CLOCK_MONOTONIC; 0: never read */
	struct uevent_listener *uevents; /* the kernel's uevents, for hotplug and others; NULL: not read */
	struct cpu_hotplug *hotplug;     /* NULL: CPU hotplug not followed */
	struct memory_online *memory_online;  /* NULL: memory coming online not followed */
	struct ras_daemon_active ras_daemon_active;  /* live only: held while the ras:* events are read */
	bool stopping;               /* manager_stop() ran */
	sd_event_source *status_refresh; /* STATUS= catches up with the counters after a batch */

	struct source_status record_sources[_MCE_SOURCE_MAX];
	int64_t started_realtime_usec;
	uint64_t started_monotonic_usec;
	int64_t last_record_usec;    /* CLOCK_REALTIME of the last record of any source */

	uint64_t n_records;
	uint64_t n_sink_failures;
	/* The last SIGHUP left the previous settings or rules running: STATUS= says so until
	 * a reload succeeds, or a glance at systemctl status would call it done. */
	bool reload_failed;
	char *metrics_text;          /* the last answer to a "metrics" request */
};

/* live: the daemon (event loop, storms, dedup); otherwise --replay. */
int manager_init(struct manager *m, bool live);
void manager_done(struct manager *m);

/* Sets the sinks every entry goes to.  Nothing is opened yet. */
int manager_set_sinks(struct manager *m, const struct sink_ops *const *table, size_t n);
/* (Re)opens the sinks with m->config plus the command-line overrides.  A sink that cannot
 * open is logged and counted as a failure, and stays closed; the others open all the same. */
int manager_apply_config(struct manager *m);

/* Sets the sources the manager runs, in the order they open.  Nothing is opened yet. */
int manager_set_sources(struct manager *m, const struct source_ops *const *table, size_t n);
/* Opens every source.  Returns the first negative errno a source returned (each is logged), or 0. */
int manager_open_sources(struct manager *m);
/* Reads what every source holds now. */
void manager_drain_sources(struct manager *m);
/* After a reload: reopens the sources whose settings changed, and the storm stage. */
void manager_reload_sources(struct manager *m, const struct mcelogd_config *old);
/* At stop: last drain, storms closed with their counts, every sink synced. */
void manager_stop(struct manager *m);
/* Waits until every sink stored what it took.  Returns the first negative errno, or 0. */
int manager_sync_sinks(struct manager *m, uint64_t timeout_usec);

/* CPU hotplug: every per-CPU source follows, then STATUS= is updated. */
/* The live daemon's snapshot providers (snapshot.h), opened from the configuration; at
 * reload, reopened when [Snapshot] changed. */
void manager_open_snapshots(struct manager *m, const struct snapshot_ops *const *table, size_t n);

void manager_cpu_changed(struct manager *m, unsigned cpu, bool online);
void manager_cpus_resync(struct manager *m, const bool *online, size_t n_online);

/* Human status for systemd's STATUS= and the log.  manager_notify() sends it in the same
 * message as STATE (say "READY=1"), so the two never reach systemd apart; NULL: STATUS= alone. */
void manager_notify(struct manager *m, const char *state);
void manager_update_status(struct manager *m);
/* The counters in Prometheus's text format (kept until the next call); NULL: none or out of memory. */
const char *manager_metrics_text(struct manager *m);
