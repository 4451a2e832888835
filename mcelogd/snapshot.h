/* SPDX-License-Identifier: MIT */
#pragma once

/*
 * The snapshot interface: what the CPU that reported an error was doing.
 * Each provider (performance counters, the RTIT registers, a processor-trace
 * copy) is one file in snapshot/ exporting one `const struct snapshot_ops`,
 * listed in snapshot/snapshots.c.  The manager asks every open provider once
 * per record, for the CPU the record is about (struct snapshot_subject: a
 * machine check's own CPU; for a ras record, the CPU snapshot-cpu.h chooses),
 * and puts what they write under the record's "snapshot" key.
 *
 * A provider never costs a record: annotate() cannot fail it.  What a
 * provider cannot have (no PMU in a VM, no PT on AMD, no permission), it
 * writes as {"unavailable": "<reason>"} and the record goes on.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <systemd/sd-event.h>

struct fd_budget;
struct json_writer;
struct mcelogd_config;
struct source_paths;

struct snapshot_params {
	const struct mcelogd_config *config;
	const struct source_paths *paths;   /* state_directory: where a provider may keep files */
	sd_event *event;          /* for periodic reads; never NULL in a live daemon */
	/* The descriptors the providers share, in table order (fd-budget.h); a provider
	 * takes what it opens and fits itself to what is left.  NULL: no limit. */
	struct fd_budget *fds;
};

/* A flat journal field a provider offers for the record's journal entry: MCE_<name>=<value>. */
#define SNAPSHOT_FIELD_NAME_MAX  48
#define SNAPSHOT_FIELD_VALUE_MAX 64
struct snapshot_field {
	char name[SNAPSHOT_FIELD_NAME_MAX];    /* upper case, e.g. "SNAPSHOT_IPC" */
	char value[SNAPSHOT_FIELD_VALUE_MAX];
};

#define SNAPSHOT_FIELDS_MAX 16
struct snapshot_out {
	struct json_writer *json;   /* positioned inside the record's "snapshot" object */
	struct snapshot_field fields[SNAPSHOT_FIELDS_MAX];
	size_t n_fields;
};

/*
 * Whose activity a snapshot shows, and why that CPU: what a provider needs of
 * a record, whatever kind of record it is.
 */
struct snapshot_subject {
	bool have_cpu;
	unsigned cpu;
	bool have_time;
	int64_t time_usec;        /* the error's CLOCK_REALTIME microseconds */
	uint64_t tsc;             /* the error's TSC (machine checks); 0: none */
	/* Where cpu came from: "record" (the record's own CPU field) or "sample" (the CPU
	 * whose tracepoint fired), and what that CPU was doing, in words; both static. */
	const char *cpu_from;
	const char *cpu_is;
};

struct snapshot_ops {
	const char *name;           /* its key under "snapshot": "counters", "rtit", "pt" */
	/* *ret NULL: off by the configuration.  A provider that cannot work here still opens,
	 * and says why in annotate() and status().  Returns 0 or negative errno (logged). */
	int (*open)(const struct snapshot_params *p, void **ret);
	void (*close)(void *s);
	/* Writes "<name>": {...} for the subject's CPU; it may have none (then say so). */
	void (*annotate)(void *s, const struct snapshot_subject *sub, struct snapshot_out *out);
	/* CPU hotplug; optional. */
	void (*cpu_online)(void *s, unsigned cpu);
	void (*cpu_offline)(void *s, unsigned cpu);
	/* Its own keys in its object of `mcectl status`'s "snapshots" array; optional. */
	void (*status)(void *s, struct json_writer *w);
	/* Why this open provider can record nothing at all here (no Intel PT on an AMD CPU or
	 * in a VM), or NULL while it works; optional.  Status then says "unavailable", as the
	 * log does, not "active". */
	const char *(*unavailable)(void *s);
};

/* Adds one flat field; silently full at SNAPSHOT_FIELDS_MAX (the JSON still has everything). */
void snapshot_out_field(struct snapshot_out *out, const char *name, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Writes "<name>": {"unavailable": "<why>"}: what a provider says where it cannot work. */
void snapshot_out_unavailable(struct snapshot_out *out, const char *name, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
