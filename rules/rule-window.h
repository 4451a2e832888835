/* SPDX-License-Identifier: MIT */
#pragma once

/*
 * "N in T": one bucket of a rule's threshold.  Pure; time is passed in.
 *
 * The bucket fires when N records have arrived within T, that is when the
 * N-th record arrives less than T after the first of them: exactly, not a
 * leaky-bucket approximation, so a rule reads the way it behaves ("10 in
 * 24h" fires on 10 records 23h59m apart, never on 10 records 24h apart).  It
 * keeps the times of the last N-1 records, in a ring the caller allocates
 * (N times, at most RULE_MAX_COUNT).  When it fires the bucket empties: the
 * next firing needs N new records, so a steady error rate gives one alert
 * per N records, not one per record.
 *
 * A time earlier than one already seen counts as that time, so a small clock
 * step backwards neither loses records nor fires early.  A time more than T
 * earlier than the latest starts the bucket afresh, as a time T or more later
 * does: one record dated far ahead (a firmware clock that is wrong) would
 * otherwise hold every later record at its time for good.
 */

#include <stdbool.h>
#include <stdint.h>

struct rule_window {
	uint64_t *times;        /* ring of `count` entries, owned by the caller */
	unsigned n;             /* records in the ring */
	unsigned head;          /* index of the oldest */
	uint64_t last_usec;     /* the latest time seen */
};

/*
 * Adds a record at now_usec.  Returns true if it made N within T; then
 * *ret_first_usec is the time of the first of them and the window is empty.
 */
bool rule_window_add(struct rule_window *w, unsigned count, uint64_t window_usec,
		     uint64_t now_usec, uint64_t *ret_first_usec);

/* How many records are still within T of now_usec (never more than N-1). */
unsigned rule_window_level(const struct rule_window *w, unsigned count, uint64_t window_usec,
			   uint64_t now_usec);
