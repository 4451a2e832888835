/* SPDX-License-Identifier: MIT */
#pragma once

/*
 * How a ras storm's summary or end is written: the MESSAGE= line, the JSON
 * object (MCE_JSON and the JSON-lines output) and its object in the status
 * document.  Like the machine-check storms' (rules/storm-event.h), with the
 * ras kind and the signature text in place of CPU, bank and code.
 * Documented in mcelogd(8), STORMS.  Pure.
 */

#include <stddef.h>
#include <stdint.h>

#include "ras-storm.h"
#include "storm-event.h"

/* The MESSAGE= line; returns what snprintf() returns. */
int ras_storm_event_message(const struct storm_event *ev, const struct ras_storm_key *key,
			    const struct storm_output *o, char *buf, size_t size);

/* One complete JSON object (no trailing newline). */
void ras_storm_event_write_json(const struct storm_event *ev, const struct ras_storm_key *key,
				const struct storm_output *o, struct json_writer *w);

/* The "ras_storms" member of the status document. */
void ras_storm_status_write_json(const struct ras_storm *s, int64_t offset_usec, struct json_writer *w);
