/* SPDX-License-Identifier: MIT */
#pragma once

/*
 * When the rules' state is written between firings, so that a crash
 * (SIGKILL, the OOM killer, the watchdog, a panic) loses a bounded part of
 * the counts (mcelogd.rules(5), STATE).  A record that changed a count is
 * written at once if nothing was written for RULES_SAVE_INTERVAL_USEC, else
 * when that interval since the last write ends: at most one write (and
 * fsync) a second in a storm, and a crash loses at most the counts of the
 * last second.  Live daemon only: a replay keeps no state.
 */

#include <stdint.h>

struct rule_engine;
typedef struct sd_event sd_event;
typedef struct sd_event_source sd_event_source;

#define RULES_SAVE_INTERVAL_USEC (1000 * 1000ULL)

struct rules_save {
	int (*save)(void *userdata); /* writes the state (the rules stage's), 0 or negative errno */
	void *userdata;
	uint64_t interval_usec;      /* between writes; 0: RULES_SAVE_INTERVAL_USEC */
	sd_event_source *timer;      /* a write waiting for the interval's end */
	uint64_t last_usec;          /* CLOCK_MONOTONIC of the last write */
	uint64_t counted;            /* rules_save_counted() at the last look */
};

/* Records the rules took into a bucket (or held, which moves its last time), over all rules. */
uint64_t rules_save_counted(const struct rule_engine *e);
/* After a record: writes the state now or soon (a timer on event) if the record changed a count. */
void rules_save_after_record(struct rules_save *s, const struct rule_engine *e, sd_event *event);
/* Something not counted changed (a firing, a page offlined): written now or at the interval's end. */
void rules_save_soon(struct rules_save *s, sd_event *event);
/* A write was done (any cause): the next one waits a full interval. */
void rules_save_done(struct rules_save *s, const struct rule_engine *e);
void rules_save_free(struct rules_save *s);
