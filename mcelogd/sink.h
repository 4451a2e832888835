/* SPDX-License-Identifier: MIT */
#pragma once

/*
 * The sink interface.  Every output (the journal, JSON lines; later a spool
 * and metrics) is one file in sinks/ exporting one `const struct sink_ops`;
 * the manager renders each entry once and hands it to every open sink, and
 * counts what each one took or refused.
 *
 * Adding a sink: a file in sinks/ with its ops table and a row in sinks/sinks.c.
 */

#include <stdbool.h>
#include <stdint.h>
#include <systemd/sd-event.h>

#include "decode.h"
#include "record.h"

struct json_writer;
struct mcelogd_config;
struct rule_alert;
struct ras_record;
struct snapshot_field;
struct storm_event;
struct storm_key;
struct ras_storm_key;
struct storm_output;

enum sink_entry_kind {
	SINK_ENTRY_MCE,      /* a machine-check record */
	SINK_ENTRY_RAS,      /* any other hardware-error record (ras:*, firmware) */
	SINK_ENTRY_LOSS,     /* the kernel dropped records */
	SINK_ENTRY_STORM,    /* a storm summary or a storm's end */
	SINK_ENTRY_ALERT,    /* a rule fired (mcelogd/actions/actions.h) */
	_SINK_ENTRY_KIND_MAX,
};

/* One thing to log.  json is the whole entry as one JSON object (NULL only when out of memory). */
struct sink_entry {
	enum sink_entry_kind kind;
	const char *json;
	/* A machine check's or ras record's snapshot, as flat fields (MCE_<name>=<value> in
	 * the journal); none when it has no snapshot.  Its JSON is inside json. */
	const struct snapshot_field *snapshot_fields;
	size_t n_snapshot_fields;
	union {
		struct {
			const struct mce_record *rec;
			const struct mce_decoded *decoded;
			/* A memory error's id, shared with its EDAC entry (MCE_ERROR_ID); 0: none. */
			uint64_t error_id;
		} mce;
		const struct ras_record *ras;
		struct {
			const char *source;
			unsigned cpu;
			uint64_t lost;
			bool at_start;    /* while catching up with the trace instance at start */
		} loss;
		struct {
			const struct storm_event *event;
			const struct storm_output *out;
			const char *message;
			const struct ras_storm_key *ras;   /* a ras storm's signature; NULL: machine checks */
		} storm;
		const struct rule_alert *alert;
	};
};

/* How the sinks are opened: the configuration with the command line's overrides folded in. */
struct module_ledger;

struct sink_params {
	const struct mcelogd_config *config;
	bool live;          /* the daemon, not --replay: every entry reaches a file at once */
	sd_event *event;    /* NULL when replaying */
	const char *state_directory;   /* where a sink may keep what it could not deliver yet */
	/* The kernel's memory-failure figures (memory-failure.h): read only when set; NULL roots:
	 * the real /proc and /sys/devices/system/node. */
	bool read_memory_failure;
	const char *procfs, *sysfs_node;
	/* The module ledger (module-stage.h), read when the metrics are rendered; NULL none. */
	const struct module_ledger *modules;
};

struct sink_ops {
	const char *name;
	/* *ret NULL: not enabled by the configuration.  Returns 0 or negative errno (logged). */
	int (*open)(const struct sink_params *p, void **ret);
	void (*close)(void *s);
	/* 0: the sink holds the entry; negative errno: it does not (the manager logs and counts it). */
	int (*write)(void *s, const struct sink_entry *e);
	/* 1: the sink already holds an entry for this record, written by an earlier run of this
	 * boot; 0: it does not; negative errno: it cannot tell.  Optional. */
	int (*holds)(void *s, const struct mce_record *rec);
	/* What the sink holds of one storm (key, or ras for a ras storm, start as CLOCK_REALTIME, boot): 1 and the
	 * highest total of its summaries and ends, and whether it has the end; 0 nothing;
	 * negative errno: it cannot tell.  Optional. */
	int (*storm_logged)(void *s, const struct storm_key *key, const struct ras_storm_key *ras,
			    int64_t start_usec, const char *boot_id, uint64_t *ret_total, bool *ret_ended);
	/* Waits until what was written is stored for good (journald, a file's buffer).  Optional. */
	int (*sync)(void *s, uint64_t timeout_usec);
	/* Its own keys in its object of `mcectl status`'s "sinks" array.  Optional. */
	void (*status)(void *s, struct json_writer *w);
	/* Counters in Prometheus's text format (`mcectl export --prometheus`): the length of
	 * *ret (malloc'ed), or negative errno.  Optional; one sink has it. */
	int (*metrics)(void *s, char **ret);
	/* A rule's action on the machine was carried out (done) or failed: "soft-offline",
	 * "hard-offline", "cpu-offline".  Journal entries say so only for failures (an
	 * alert); this is for counters.  Optional. */
	void (*action)(void *s, const char *action, bool done);
};

const char *sink_entry_kind_to_string(enum sink_entry_kind k);

/* How a loss while catching up at start reads, after "... lost from SOURCE on CPU N". */
#define LOSS_AT_START_TEXT " while mcelogd caught up at start (machine checks among them that came " \
	"before the trace instance's newest record are logged from the instance)"
