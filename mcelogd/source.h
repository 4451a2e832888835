/* SPDX-License-Identifier: MIT */
#pragma once

/*
 * The record source interface.  Every source (the tracepoint rings, MSR
 * polling, /dev/mcelog, the boot error region, --replay) is one file in
 * sources/ that exports one `const struct source_ops`; the manager keeps an
 * array of them and knows none by name.  A source sees the daemon only
 * through the `struct source_host` it is opened with: the event loop, the
 * configuration, where records go and where its state is shown.
 *
 * Adding a source: a file in sources/ with its ops table, a row in
 * sources/sources.c, and (if it reports records of a new kind) an enum
 * mce_source value so `mcectl status` lists it.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <systemd/sd-event.h>

#include "macro.h"
#include "record.h"

struct mcelogd_config;
struct ras_record;

/* What `mcectl status` says of each kind of record (enum mce_source). */
enum source_state {
	SOURCE_DISABLED,     /* by configuration (or not a live source at all) */
	SOURCE_UNAVAILABLE,  /* wanted, but this kernel or sandbox cannot give it: see reason */
	SOURCE_ACTIVE,
	_SOURCE_STATE_MAX,
};

const char *source_state_to_string(enum source_state s);

/* How a record reached its source. */
enum record_origin {
	RECORD_LIVE,        /* as it happened: storms are judged by its arrival */
	/* Kept by the kernel or firmware while nobody read it (a restart, the previous
	 * boot): its arrival says nothing of when it happened, so it never counts as
	 * part of a storm and is always logged on its own. */
	RECORD_RECOVERED,
};

/* Paths given on the command line; NULL: the usual place. */
struct source_paths {
	const char *tracefs;         /* --tracefs */
	const char *state_directory; /* where cursors and markers are kept (never NULL) */
	const char *bert_region;     /* --bert */
	const char *pstore;          /* --pstore-dir */
	const char *pstore_archive;  /* --pstore-archive-dir: systemd-pstore's; only with --pstore-dir */
	const char *replay;          /* --replay */
	const char *debugfs;         /* --debugfs (hidden, for tests): ras/daemon_active and ras/cec */
};

/*
 * The daemon side, as a source sees it.  The function pointers are the
 * manager's; sources call them through the inline helpers below.
 */
struct source_host {
	sd_event *event;                          /* NULL when replaying */
	const struct mcelogd_config *config;      /* current; changes only at a reload */
	const struct source_paths *paths;
	const char *boot_id;                      /* "" when unknown */

	/* A record for the pipeline (dedup, decode, storms, every sink).  0: the sinks hold it;
	 * SOURCE_RECORD_COUNTED: a storm counts it and its summary is not written yet (the
	 * source's accounted() says when); negative errno: no sink holds it. */
	int (*submit)(void *core, struct mce_record *rec, enum record_origin origin);
	int (*submit_ras)(void *core, struct ras_record *rec);
	/* Whether a record the kernel kept is already logged by an earlier run of this boot
	 * (it ended after handing the record over, before saving its cursor).  When no sink
	 * can tell, false: rather logged twice than never. */
	bool (*already_logged)(void *core, const struct mce_record *rec);
	/* The kernel said it dropped records.  at_start: while the source was still catching up
	 * with what the kernel kept for it (the trace instance), so machine checks among them
	 * may be logged from there after all. */
	void (*report_loss)(void *core, enum mce_source source, unsigned cpu, uint64_t lost, bool at_start);
	/* What `mcectl status` shows for this kind of record; reason may be "". */
	void (*set_state)(void *core, enum mce_source source, enum source_state state, const char *reason);
	/* A second source of the same kind of record (the previous boot's: BERT, then ERST) adds to
	 * what the first set: the better state wins and the reasons are joined. */
	void (*add_state)(void *core, enum mce_source source, enum source_state state, const char *reason);
	enum source_state (*get_state)(void *core, enum mce_source source);
	/* The set of things read changed outside a manager call (a reader hung up): refresh STATUS=. */
	void (*changed)(void *core);
	void *core;
};

#define SOURCE_RECORD_COUNTED 1

static inline int source_submit(const struct source_host *h, struct mce_record *rec)
{
	return h->submit(h->core, rec, RECORD_LIVE);
}

static inline int source_submit_recovered(const struct source_host *h, struct mce_record *rec)
{
	return h->submit(h->core, rec, RECORD_RECOVERED);
}

static inline bool source_already_logged(const struct source_host *h, const struct mce_record *rec)
{
	return h->already_logged && h->already_logged(h->core, rec);
}

static inline int source_submit_ras(const struct source_host *h, struct ras_record *rec)
{
	return h->submit_ras(h->core, rec);
}

static inline void source_report_loss_at_start(const struct source_host *h, enum mce_source source,
					       unsigned cpu, uint64_t lost)
{
	h->report_loss(h->core, source, cpu, lost, true);
}

static inline void source_report_loss(const struct source_host *h, enum mce_source source, unsigned cpu,
				      uint64_t lost)
{
	h->report_loss(h->core, source, cpu, lost, false);
}

/* reason_fmt: printf-style, may be NULL. */
_printf_(4, 5)
void source_set_state(const struct source_host *h, enum mce_source source, enum source_state state,
		      const char *reason_fmt, ...);

/* Adds to the state another source of the same kind set (host->add_state). */
_printf_(4, 5)
void source_add_state(const struct source_host *h, enum mce_source source, enum source_state state,
		      const char *reason_fmt, ...);

static inline bool source_is_active(const struct source_host *h, enum mce_source source)
{
	return h->get_state(h->core, source) == SOURCE_ACTIVE;
}

/*
 * One source.  Only name and open are required.  `void *` is the source's
 * own state, opaque to the manager.
 */
struct source_ops {
	const char *name;
	/*
	 * Opens with h->config: sets the state of every kind of record it
	 * serves, disabled and unavailable included, with the reason.  *ret
	 * NULL: nothing stays open (off, unavailable, or a one-shot source such
	 * as the boot error region that did its work here).  Returns 0 or a
	 * negative errno, already logged; the daemon goes on with the others.
	 */
	int (*open)(const struct source_host *h, void **ret);
	void (*close)(void *s);
	/* Reads whatever the kernel holds now: before READY=1, and at stop. */
	void (*drain)(void *s);
	/* A reload changed what this source reads: close it and open it again. */
	bool (*reload_needed)(const struct mcelogd_config *old, const struct mcelogd_config *cur);
	/* CPU hotplug.  Return 1 when the set of CPUs read changed, 0 when not, or negative errno. */
	int (*cpu_online)(void *s, unsigned cpu);
	int (*cpu_offline)(void *s, unsigned cpu);
	/* After missed hotplug events: read exactly the CPUs in online[0..n). */
	int (*cpus_resync)(void *s, const bool *online, size_t n);
	/* Every record submitted so far is in a sink: the storm summaries that counted
	 * some of them are written.  A source that keeps a restart cursor may move it
	 * past records submitted as SOURCE_RECORD_COUNTED now, not before.  Optional. */
	void (*accounted)(void *s);
	/* Words for systemd's STATUS= ("Polling MCA banks"); returns 0 when it has none. */
	size_t (*describe)(void *s, char *buf, size_t size);
};
