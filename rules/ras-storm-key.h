/* SPDX-License-Identifier: MIT */
#pragma once

/*
 * Which ras records (lib/ras-record.h) take part in storm detection, and
 * their signature.  Pure.
 *
 * The signature is the record's kind plus the fields that name the failing
 * part, as canonical text ("mc=0 top_layer=1 label=DIMM_A1"): an EDAC memory
 * controller event by its controller, location and DIMM label; an AER event
 * by its device and status bits; a firmware memory error by its type and
 * location; an ARM processor error by its MPIDR; a vendor section by its
 * type and FRU.  Counts, addresses and syndromes are left out: they change
 * from one record of the same failing part to the next.
 *
 * Only corrected errors from live sources (the ras:* tracepoints) storm, and
 * the devlink health events of one reporter: its reports (corrected) and its
 * aborted recoveries (uncorrected), which a flapping NIC sends as fast as it
 * flaps, and failed disk requests (block:*), which are all failures and flood
 * as one.  Everything else is always logged on its own: deferred, uncorrected and
 * fatal errors, pages the kernel poisoned or offlined (memory_failure_event:
 * each is an action on one page, and they are few), and records of the
 * previous boot or replayed ones, which arrive all at once long after the fact.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ras-record.h"
#include "storm.h"

/* Longest signature text, NUL included.  A record whose signature is longer is never suppressed. */
#define RAS_STORM_KEY_MAX 192

struct ras_storm_key {
	enum ras_event event;
	char text[RAS_STORM_KEY_MAX];   /* printable ASCII, no newline */
};

/* Fills *ret and returns true if rec may be counted in a storm; false if it must be logged on its own. */
bool ras_storm_key_from_record(const struct ras_record *rec, struct ras_storm_key *ret);

/*
 * The live source a storm of this kind comes from (its records'
 * "source"): each kind storms from one tracepoint only.  MCE_SOURCE_UNKNOWN
 * for kinds that never storm.
 */
enum mce_source ras_storm_source(enum ras_event event);
/* The severity of the records a storm of this kind counts: corrected for all but a few (devlink's aborted recoveries, disk errors). */
enum ras_severity ras_storm_severity(enum ras_event event);

bool ras_storm_key_equal(const struct ras_storm_key *a, const struct ras_storm_key *b);

/*
 * The engine's key for a ras signature: the kind in bank, a 64-bit digest of
 * the text in code, no CPU.  Distinct signatures can share a digest; the
 * caller (rules/ras-storm.h) keeps the text of every storm and never merges two.
 */
struct storm_key ras_storm_key_digest(const struct ras_storm_key *k);
