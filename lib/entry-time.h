/* SPDX-License-Identifier: MIT */
#pragma once

/*
 * The error's own time on a journal entry, and what marks an entry whose
 * arrival in the journal (__REALTIME_TIMESTAMP, by which the journal is
 * indexed) may lie far from it.  mcelogd writes both; mcectl query and
 * summary show, filter and order by the error's time (mcectl(1), TIMES).
 *
 * MCE_TIME: the record's time (µs since the epoch, decimal): the kernel's
 *   or firmware's for a record, the moment of writing for what mcelogd
 *   itself reports (storms, alerts, losses) or for a record without one.
 * MCE_LATE=1: set when that time and the moment mcelogd hands the entry to
 *   journald differ by more than ENTRY_TIME_SLACK_USEC (records recovered
 *   from the trace instance after a stop, replays, wrong firmware clocks),
 *   and on every entry that goes to the spool (delivered when journald is
 *   back, however long that takes).
 * MCE_AHEAD=1: besides MCE_LATE=1, on an entry whose time is ahead of that
 *   moment by more than the slack (a wrong firmware or kernel clock).
 *
 * Every late entry but those ahead arrives after its time less the slack (an
 * entry that goes to the spool may be that little ahead), so a reader finds
 * the late entries whose time is at or after T through the journal's index of
 * MCE_LATE=1 from arrival T - slack on, and of MCE_AHEAD=1 before that:
 * never walking all the late entries ever written.
 *
 * Every other entry arrives within the slack of its time, so a reader finds
 * it among the entries that arrived in [since - slack, until + slack].  What
 * the writer cannot see is the wait in journald's socket queue after a send
 * succeeded; a journald that stops reading is restarted by its watchdog
 * (systemd-journald.service: WatchdogSec=3min) and the socket, held by
 * systemd, keeps its queue, so that wait stays well under the slack.
 */

#define ENTRY_TIME_FIELD "MCE_TIME"
#define ENTRY_LATE_FIELD "MCE_LATE"
#define ENTRY_LATE_MATCH ENTRY_LATE_FIELD "=1"
#define ENTRY_AHEAD_FIELD "MCE_AHEAD"
#define ENTRY_AHEAD_MATCH ENTRY_AHEAD_FIELD "=1"
#define ENTRY_TIME_SLACK_USEC (10 * 60 * 1000000LL)

#include <stddef.h>
#include <stdint.h>

/*
 * An entry's error time from its MCE_TIME value (len bytes, not terminated):
 * a positive decimal count of µs.  Anything else, or none (value NULL: an
 * entry of an mcelogd before the field), is the arrival time.
 */
int64_t entry_time_of(const char *value, size_t len, uint64_t arrival_usec);
