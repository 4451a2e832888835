/* SPDX-License-Identifier: MIT */
#pragma once

/*
 * The daemon side of storm handling: the engine (rules/storm.h) lives in
 * m->storm, a CLOCK_MONOTONIC timer runs its ticks, and its summaries and
 * storm ends go to the journal and the JSON-lines output.  Only the live
 * daemon has an engine: --replay logs every record of its input.
 */

#include <stdbool.h>

#include "decode.h"
#include "manager.h"
#include "storm-event.h"

/*
 * Creates the engine from m->config (or removes it with Enable=no).  When
 * called again after a reload with changed [Storm] settings, storms in
 * progress are first closed (final summary and end, reason "reload") and
 * the engine is rebuilt empty; with unchanged settings storms continue.
 * Needs m->event.  Returns 0 or negative errno (the engine is then off and
 * every record is logged).
 */
int manager_storm_setup(struct manager *m);

/*
 * True if the record is counted in a storm and must not be logged on its
 * own.  Runs the engine's due tick first, so a storm that went quiet ends
 * before this record could extend it.
 */
bool manager_storm_suppress(struct manager *m, const struct mce_record *rec,
			    const struct mce_decoded *d);

/* The "storms" member of the status document; nothing when storms are off. */
void manager_storm_write_status(struct manager *m, struct json_writer *w);

/* Closes every storm in progress (final summaries and ends) and frees the engine. */
void manager_storm_close(struct manager *m, enum storm_end_reason reason);
