/* SPDX-License-Identifier: MIT */
#pragma once

/*
 * How a storm summary or storm end (rules/storm.h) is written: the MESSAGE=
 * line and the JSON object, the same in MCE_JSON and in the JSON-lines
 * output.  Documented in mcelogd(8), RECORD FORMAT.  Pure.
 *
 * The engine counts in CLOCK_MONOTONIC; output is wall-clock.  The caller
 * passes the offset CLOCK_REALTIME - CLOCK_MONOTONIC sampled at output time,
 * so a clock step between a record and its summary shifts the summary's
 * times with the clock rather than making them lie about their order.
 */

#include <stdint.h>

#include "storm.h"

struct json_writer;

/* Why a storm end is written. */
enum storm_end_reason {
	STORM_END_QUIET,    /* no record for QuietTime= */
	STORM_END_RELOAD,   /* the [Storm] settings changed at a reload */
	STORM_END_STOP,     /* mcelogd is stopping */
	STORM_END_CRASH,    /* mcelogd was killed; written at the next start from its saved counts */
	_STORM_END_REASON_MAX,
};

struct storm_output {
	int64_t now_usec;           /* CLOCK_REALTIME of the output: the "time" key */
	int64_t offset_usec;        /* CLOCK_REALTIME - CLOCK_MONOTONIC */
	const char *hostname;       /* NULL or "": left out */
	const char *boot_id;        /* NULL or "": left out */
	enum storm_end_reason reason;   /* ends only */
};

/* The "event" key: "storm_summary" or "storm_end". */
const char *storm_event_type_to_string(enum storm_event_type t);
/* "quiet", "reload", "stop", "crash". */
const char *storm_end_reason_to_string(enum storm_end_reason r);

/* How an end's MESSAGE says why the storm is closed: "ended", "closed as mcelogd stops", ... */
const char *storm_end_reason_text(enum storm_end_reason r);

/* A duration as seconds with one decimal, as the messages show it: "9.9 s". */
void storm_duration_string(uint64_t from_usec, uint64_t to_usec, char *buf, size_t size);

/* An engine time as CLOCK_REALTIME microseconds. */
int64_t storm_realtime_usec(const struct storm_output *o, uint64_t monotonic_usec);

/* A storm's counts and times in its status object (mcectl status): members of an open object. */
struct storm_info;
struct json_writer;
void storm_info_write_counts(const struct storm_info *info, const struct storm_output *o, struct json_writer *w);
/* A storm table's counters in its status object: members of an open object. */
struct storm_counters;
void storm_counters_write(const struct storm_counters *k, struct json_writer *w);

/* MCi_STATUS[31:0] as the output shows it: "0x%08x". */
void storm_code_string(uint64_t code, char buf[static 19]);

/* The MESSAGE= line; returns what snprintf() returns. */
int storm_event_message(const struct storm_event *ev, const struct storm_output *o, char *buf,
			size_t size);

/* One complete JSON object (no trailing newline). */
void storm_event_write_json(const struct storm_event *ev, const struct storm_output *o,
			    struct json_writer *w);

/*
 * The "storms" member of the status document (mcectl status, mcectl(1)
 * STATUS FORMAT): the engine's counters and one object per storm in
 * progress.  offset_usec as in struct storm_output.
 */
void storm_status_write_json(const struct storm *s, int64_t offset_usec, struct json_writer *w);
