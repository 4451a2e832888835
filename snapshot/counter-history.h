/* SPDX-License-Identifier: MIT */
#pragma once

/*
 * The counter flight recorder's memory for one CPU: a ring of the last N
 * reads of its counting events, and what a record wants from it: the
 * interval that covers the error time, each event's count in it (scaled
 * where the PMU multiplexed), derived figures, and how far that interval is
 * from the CPU's own recent baseline.
 *
 * Pure: the caller reads the counters (mcelogd/snapshot/counters.c) and
 * passes in the time of each read.  Why here and not in rules/: rules/
 * decides about records (storms, thresholds); this only describes the CPU
 * around one, and the other snapshot providers' pure parts can join it.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct json_writer;

#define COUNTER_EVENTS_MAX 32
#define COUNTER_HISTORY_MIN 2
#define COUNTER_HISTORY_MAX 3600

/* One event at one read: raw running totals as perf reports them. */
struct counter_reading {
	uint64_t value;
	uint64_t time_enabled;   /* of the event's group, ns */
	uint64_t time_running;
	bool valid;              /* false: not read this time (group read failed) */
	bool absent;             /* the event is not open on this CPU: the caller says why elsewhere */
};

struct counter_history;

/*
 * A ring of capacity reads of n_events events (names are borrowed: they must
 * outlive the history).  Returns NULL on out of memory or bad sizes.
 */
struct counter_history *counter_history_new(const char *const *names, size_t n_events, size_t capacity);
struct counter_history *counter_history_free(struct counter_history *h);
static inline void counter_history_freep(struct counter_history **h)
{
	if (*h)
		counter_history_free(*h);
}

/* Drops every read: the groups were reopened (CPU hotplug), their totals restart. */
void counter_history_clear(struct counter_history *h);

/*
 * Appends one read taken at time_usec (CLOCK_REALTIME, the clock of a
 * record's time_usec); readings holds n_events entries.  The oldest read
 * falls out when full.  -EINVAL if time goes backwards from the newest read
 * (the caller's clock stepped: it should clear and start again).
 *
 * A provisional read (the one taken for a record) stands only until the
 * next read, which replaces it: a burst of records must not push the
 * periodic reads, the CPU's baseline, out of the ring.
 */
int counter_history_push(struct counter_history *h, int64_t time_usec, const struct counter_reading *readings,
			 bool provisional);

size_t counter_history_count(const struct counter_history *h);

/* One event's count over one interval. */
struct counter_delta {
	uint64_t count;          /* scaled when .scaled */
	bool valid;              /* false: not counted in this interval (see .reason) */
	bool scaled;             /* multiplexed: count = raw * enabled / running */
	const char *reason;      /* why not valid: "not read", "not scheduled", "reset" */
	bool absent;             /* not open on this CPU: left out of "not_counted" */
	/* The group's time enabled and on the PMU in this interval, ns (0 when not read):
	 * running < enabled is a multiplexed (scaled) or unscheduled count. */
	uint64_t enabled_ns, running_ns;
	bool have_baseline;
	double change;           /* this interval's rate / mean rate of the other intervals */
};

enum counter_window_position {
	COUNTER_WINDOW_COVERS,          /* start < error time <= end */
	COUNTER_WINDOW_BEFORE_HISTORY,  /* the error is older than the oldest read: the first interval */
	COUNTER_WINDOW_AFTER_HISTORY,   /* the error is newer than the newest read: the last interval */
};

struct counter_window {
	int64_t start_usec, end_usec;
	enum counter_window_position position;
	size_t n_events;
	struct counter_delta deltas[COUNTER_EVENTS_MAX];
	size_t baseline_intervals;      /* the other intervals the change figures use */
};

/*
 * The interval for an error at error_usec.  An error exactly at a read
 * belongs to the interval that ends there (half-open on the left).
 * -ENODATA when fewer than two reads are held (no interval yet).
 */
int counter_history_window(const struct counter_history *h, int64_t error_usec, struct counter_window *ret);

/* Derived figures; each present only when the events it needs were counted. */
struct counter_derived {
	bool have_ipc, have_frequency_ratio, have_effective_mhz, have_cache_miss_rate, have_branch_miss_rate;
	double ipc;                /* instructions / cycles */
	double frequency_ratio;    /* cycles / ref-cycles: above 1 turbo, below 1 throttled or idle */
	double effective_mhz;      /* cycles / cpu-clock (or task-clock) time */
	double cache_miss_rate;    /* cache-misses / cache-references */
	double branch_miss_rate;   /* branch-misses / branches (branch-instructions) */
};

void counter_history_derive(const struct counter_history *h, const struct counter_window *w,
			    struct counter_derived *ret);

/*
 * Places after the point of the figures "change" and "effective_mhz" carry
 * in the JSON.  mcelogd's flat journal fields are made from the values as
 * rounded to these, not from the doubles: mcectl decode has only the JSON,
 * and must print what mcectl query prints from the flat fields.
 */
#define COUNTER_CHANGE_DECIMALS 3
#define COUNTER_MHZ_DECIMALS 1

/* x as "%.*f" writes it to `decimals` places and a reader reads it back. */
double counter_json_fixed(double x, unsigned decimals);

/*
 * The event whose change (as the JSON carries it) is furthest from 1
 * either way, the first of equals: the "largest change" both mcectl tables
 * show.  Sets *ret_event and *ret_change; -ENOENT when no event has a
 * baseline with a change above 0.
 */
int counter_window_largest_change(const struct counter_window *w, size_t *ret_event, double *ret_change);

/*
 * Writes the window's keys into the object the caller has open: "window"
 * {start, end, seconds, position}, "events" {name: count}, "scaled" [names],
 * "not_counted" {name: reason}, the derived figures, and "change" {name:
 * ratio} against the baseline.
 */
void counter_window_write_json(const struct counter_history *h, const struct counter_window *w,
			       const struct counter_derived *d, struct json_writer *jw);

const char *counter_window_position_name(enum counter_window_position p);
