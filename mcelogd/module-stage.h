/* SPDX-License-Identifier: MIT */
#pragma once

/*
 * The daemon side of the module ledger (rules/module-ledger.h, mcelogd(8)
 * MODULE LEDGER): the ledger kept in /var/lib/mcelogd/modules.state, beside
 * rules.state.  Every memory record, page or row retired and repair updates
 * it in memory; the file is written off the record path, at most once every
 * MODULE_SAVE_INTERVAL_USEC while anything changes (the way rules.state is:
 * rules-save.h), and at stop.  A full ledger (1,192 modules, every history
 * full) takes about 40 ms of CPU to write (bench/ledger-cost.sh): once a
 * second in a storm would be 4% of a CPU, so it waits five seconds, and a
 * crash loses at most the last five seconds' counts.  A damaged file is
 * logged with file:line for each damaged line, the modules it still holds
 * are kept, and the file is copied aside (modules.state.damaged) before the
 * next write replaces it.  Kept only where state is kept: the daemon, or a
 * replay given --state-directory.
 */

#include <stdbool.h>
#include <stdint.h>

#include "module-feed.h"
#include "module-ledger.h"
#include "rules-save.h"

typedef struct sd_event sd_event;

#define MODULE_SAVE_INTERVAL_USEC (5 * 1000 * 1000ULL)

struct module_stage {
	struct module_ledger ledger;
	struct module_feed feed;     /* the errors counted last, for pairs (rules/module-feed.h) */
	char *state_path;            /* NULL: nothing is persisted (replay) */
	struct rules_save save;
	uint64_t n_changes;          /* verdict changes this run */
	uint64_t n_save_failures;
	unsigned n_damaged_lines;    /* problems reading the file at start */
};

/* Reads state_directory/modules.state (NULL: none).  0, or -ENOMEM (logged). */
int module_stage_setup(struct module_stage *ms, const struct module_thresholds *t, const char *state_directory);
/* Something changed: the file is written now or at the interval's end. */
void module_stage_changed(struct module_stage *ms, sd_event *event);
/* Writes the file now.  0 or negative errno (logged). */
int module_stage_save(struct module_stage *ms);
/* At stop: saved, no timer left.  The ledger stays readable (the metrics' last writing). */
void module_stage_stop(struct module_stage *ms);
/* Frees the ledger, after every sink closed. */
void module_stage_done(struct module_stage *ms);
