/* SPDX-License-Identifier: MIT */
#pragma once

/*
 * mcelogd.conf: systemd-style "[Section]" and "Key=Value" lines, '#' and ';'
 * comments.  Documented in mcelogd.conf(5).  Unknown sections or keys and bad
 * values are errors naming file, line and key: a typo must never silently
 * disable a source.
 */

#include "module-ledger.h"
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* [Sources] MSRPoll= */
enum msr_poll_mode {
	MSR_POLL_AUTO,   /* only when the kernel leaves corrected errors in the banks (ignore_ce) */
	MSR_POLL_YES,
	MSR_POLL_NO,
};

#define MSR_POLL_INTERVAL_DEFAULT_USEC (60ULL * 1000000ULL)
#define MSR_POLL_INTERVAL_MIN_USEC     (1ULL * 1000000ULL)
#define MSR_POLL_INTERVAL_MAX_USEC     (24ULL * 3600ULL * 1000000ULL)

#define SPOOL_SIZE_DEFAULT (64ULL << 20)
#define SPOOL_SIZE_MIN     (64ULL << 10)
#define SPOOL_SIZE_MAX     (64ULL << 30)

/* auto: use it when present; yes: use it, warn when missing; no: never. */
enum {
	CONFIG_TRISTATE_AUTO,
	CONFIG_TRISTATE_YES,
	CONFIG_TRISTATE_NO,
};
#include "storm.h"

/* [Snapshot]: what the CPU that reported an error was doing (mcelogd/snapshot/). */
#define SNAPSHOT_COUNTER_EVENTS_MAX 32      /* COUNTER_EVENTS_MAX of snapshot/counter-history.h */
#define SNAPSHOT_EVENT_NAME_MAX     128
#define SNAPSHOT_INTERVAL_DEFAULT_USEC (1ULL * 1000000ULL)
#define SNAPSHOT_INTERVAL_MIN_USEC     (10ULL * 1000ULL)
#define SNAPSHOT_INTERVAL_MAX_USEC     (3600ULL * 1000000ULL)
#define SNAPSHOT_HISTORY_DEFAULT 10
#define SNAPSHOT_HISTORY_MIN     2
#define SNAPSHOT_HISTORY_MAX     3600
#define SNAPSHOT_PT_BUFFER_DEFAULT (4ULL << 20)
#define SNAPSHOT_PT_BUFFER_MIN     (4ULL << 10)
#define SNAPSHOT_PT_BUFFER_MAX     (1ULL << 30)
#define SNAPSHOT_PT_MAX_FILES_DEFAULT 16
#define SNAPSHOT_PT_MAX_FILES_MAX     100000
#define SNAPSHOT_PT_MAX_BYTES_DEFAULT (256ULL << 20)

struct snapshot_config {
	bool counters;               /* Counters=no turns the counter recorder off */
	size_t n_counter_events;     /* 0: the default generic and software events */
	char counter_events[SNAPSHOT_COUNTER_EVENTS_MAX][SNAPSHOT_EVENT_NAME_MAX];
	uint64_t interval_usec;      /* Interval= */
	unsigned history;            /* History=: reads kept per CPU */
	bool processor_trace;        /* ProcessorTrace= */
	uint64_t pt_buffer_size;     /* PTBufferSize=: bytes per CPU, a power of two */
	unsigned pt_max_files;       /* PTMaxFiles= */
	uint64_t pt_max_bytes;       /* PTMaxBytes= */
};

struct mcelogd_config {
	bool source_tracepoint;      /* [Sources] Tracepoint= */
	bool trace_buffer;           /* [Sources] TraceBuffer=: keep records while stopped */
	int source_dev_mcelog;       /* [Sources] DevMcelog=: CONFIG_TRISTATE_* */
	bool source_ras;             /* [Sources] RAS= (the kernel's ras:* tracepoints) */
	bool erst_remove;            /* [Sources] ErstRemove=: remove pstore's mce-* files once logged */
	bool sink_journal;           /* [Output] Journal= */
	char json_output[4096];      /* [Output] JSON=: "" off, "-" stdout, else a file path */
	char metrics_output[4096];   /* [Output] Metrics=: "" off, else a *.prom file path */
	uint64_t spool_max_bytes;    /* [Output] SpoolSize=: the journal spool's bound */
	int log_level;               /* [Daemon] LogLevel= (syslog level) */
	char socket_group[64];       /* [Daemon] SocketGroup=: group allowed to ask for status; "" root only */
	enum msr_poll_mode msr_poll; /* [Sources] MSRPoll= */
	uint64_t msr_poll_interval_usec; /* [Sources] MSRPollInterval= */
	bool storm_enable;           /* [Storm] Enable= */
	struct storm_config storm;   /* [Storm] Burst=, Window=, SummaryInterval=, QuietTime=,
				      * MaxSignatures= */
	struct snapshot_config snapshot;   /* [Snapshot] */
	bool offline_again_at_boot;  /* [Memory] OfflineAgainAtBoot= */
	bool memory_repair;          /* [Memory] Repair=: rules' Action=repair may act (off by default) */
	bool repair_hard;            /* [Memory] RepairPersist=hard: permanent repairs allowed (soft by default) */
	unsigned repairs_per_device; /* [Memory] RepairsPerDevice= */
	unsigned repairs_per_day;    /* [Memory] RepairsPerDay=, per device */
	struct module_thresholds modules;  /* [Modules]: the module ledger's verdicts (module-ledger.h) */
};

#define REPAIRS_PER_DEVICE_DEFAULT 4
#define REPAIRS_PER_DAY_DEFAULT    1
#define REPAIRS_MAX                1000

void config_set_defaults(struct mcelogd_config *c);

/* Called once per problem found; line is 1-based. */
typedef void (*config_error_fn)(const char *file, unsigned line, const char *msg, void *userdata);

/*
 * Parses text into c (which holds the defaults on entry).  Every error is
 * reported through err; returns 0 or -EINVAL if there was any.  Pure.
 */
int config_parse_text(const char *text, size_t len, const char *file, struct mcelogd_config *c,
		      config_error_fn err, void *userdata);

/*
 * Reads and parses a file.  A missing file is not an error when
 * missing_ok (the default path); errors are logged.  Returns 0 or negative errno.
 */
int config_load(const char *path, bool missing_ok, struct mcelogd_config *c);

/* Checks a Metrics= path (absolute, ending in .prom) and copies it into c; why says what is wrong. */
int config_set_metrics_output(struct mcelogd_config *c, const char *path, char *why, size_t why_len);
