/* SPDX-License-Identifier: MIT */
#pragma once

/*
 * The snapshot stage of the manager: the open providers (snapshot.h), asked
 * once per live record after decode.  Which records get a snapshot:
 * snapshot_stage_wants().  A replayed or recovered record gets none: the
 * CPU it names is not doing now what it did then (or is another machine's).
 */

#include <stdbool.h>
#include <stddef.h>

#include "snapshot.h"

struct json_writer;
struct mce_record;

#define SNAPSHOT_PROVIDERS_MAX 4

struct snapshot_slot {
	const struct snapshot_ops *ops;
	void *state;          /* NULL: off by the configuration, or failed to open */
	int open_error;       /* 0, or the negative errno open() returned */
};

struct snapshot_stage {
	struct snapshot_slot slots[SNAPSHOT_PROVIDERS_MAX];
	size_t n;
	struct snapshot_out out;   /* the flat fields of the last annotated record */
};

/* The providers, in the order of their keys; none (the default) means no "snapshot" key. */
int snapshot_stage_set(struct snapshot_stage *st, const struct snapshot_ops *const *table, size_t n);
/* (Re)opens every provider; one that fails stays closed, and says so in records and status. */
void snapshot_stage_open(struct snapshot_stage *st, const struct snapshot_params *p);
void snapshot_stage_close(struct snapshot_stage *st);

/* live: submitted as it happened (not recovered, not --replay), with a CPU of this machine. */
bool snapshot_stage_wants(const struct mce_record *rec, bool live);

/*
 * Writes "snapshot": {"cpu", "cpu_from", "cpu_is", <provider>: {...}} into
 * the record's open object and keeps the providers' flat fields in st->out.
 * Providers that are closed write {"unavailable": reason} under their name,
 * so a record always says why.
 */
void snapshot_stage_annotate(struct snapshot_stage *st, const struct snapshot_subject *sub,
			     struct json_writer *w);

void snapshot_stage_cpu_changed(struct snapshot_stage *st, unsigned cpu, bool online);

/* The "snapshots" array of `mcectl status`: name, state, reason, and each provider's own keys. */
void snapshot_stage_status(const struct snapshot_stage *st, struct json_writer *w);
