/* SPDX-License-Identifier: MIT */
#pragma once

/*
 * The daemon side of storm handling: the engine (rules/storm.h), a
 * CLOCK_MONOTONIC timer that runs its ticks, and the summaries and storm
 * ends it produces, rendered once and handed to the sinks through emit.
 * Only the live daemon has a stage: --replay logs every record of its input.
 */

#include <stdbool.h>
#include <systemd/sd-event.h>

#include "decode.h"
#include "json-writer.h"
#include "ras-storm.h"
#include "sink.h"
#include "storm-event.h"

struct storm_stage {
	sd_event *event;
	const char *hostname;        /* the manager's, for the entries */
	const char *boot_id;
	/* Every summary and end goes here, for every sink; the return is the sinks' result. */
	int (*emit)(void *core, const struct sink_entry *e);
	/* After a tick or close that left no suppressed record out of a written summary,
	 * and after each save of the counts. */
	void (*accounted)(void *core);
	/* What the sinks hold of a storm cut by a crash (sink_ops.storm_logged). */
	int (*storm_logged)(void *core, const struct storm_key *key, const struct ras_storm_key *ras,
			    int64_t start_usec, const char *boot_id, uint64_t *ret_total, bool *ret_ended);
	void *core;
	/* Where the counts of storms in progress are saved; NULL: not saved (--replay). */
	const char *state_directory;

	struct storm *engine;        /* NULL when off */
	struct ras_storm *ras_engine; /* ras records' storms; on and off with engine */
	struct storm_config config;  /* the settings engine was built with */
	sd_event_source *timer;
	uint64_t timer_usec;         /* CLOCK_MONOTONIC the timer is armed at */
	struct json_writer json;
	uint64_t n_events;           /* summaries and ends written */
	int64_t offset_usec;         /* CLOCK_REALTIME - CLOCK_MONOTONIC the output uses */
	bool have_offset;
	sd_event_source *save_timer; /* armed while a counted record is not saved yet */
	bool saved_file;             /* the state file exists (storms were saved) */
};

/*
 * Creates the engine (or removes it when enable is false).  Called again
 * after a reload with changed settings, storms in progress are first closed
 * (final summary and end, reason "reload") and the engine is rebuilt empty;
 * with unchanged settings storms continue.  Needs st->event.  Returns 0 or
 * negative errno (the engine is then off and every record is logged).
 */
int storm_stage_setup(struct storm_stage *st, bool enable, const struct storm_config *c);

/*
 * True if the record is counted in a storm and must not be logged on its
 * own.  Runs the engine's due tick first, so a storm that went quiet ends
 * before this record could extend it.
 */
bool storm_stage_suppress(struct storm_stage *st, const struct mce_record *rec,
			  const struct mce_decoded *d);

/* storm_stage_suppress() for a ras record (rules/ras-storm-key.h says which take part). */
bool storm_stage_suppress_ras(struct storm_stage *st, const struct ras_record *rec);

/* The "storms" and "ras_storms" members of the status document; nothing when storms are off. */
void storm_stage_write_status(struct storm_stage *st, struct json_writer *w);

/* Closes every storm in progress (final summaries and ends) and frees the engine. */
void storm_stage_close(struct storm_stage *st, enum storm_end_reason reason);

/*
 * Once at start, with the sinks open: the storms a killed mcelogd was counting
 * get a last summary with the counts no summary holds yet, and an end with
 * reason "crash".  A damaged state file is reported and set aside.
 */
void storm_stage_recover(struct storm_stage *st);

/* storm_stage_close(), then frees the timers and the renderer. */
void storm_stage_done(struct storm_stage *st);
