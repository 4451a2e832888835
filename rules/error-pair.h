/* SPDX-License-Identifier: MIT */
#pragma once

/*
 * One DRAM error, two records: with an EDAC driver loaded (sb/skx/i10nm_edac,
 * amd64_edac) the kernel reports a memory error as the machine check
 * (mce:mce_record) and again as the driver's ras:mc_event, made from the same
 * struct mce moments later.  This pairs the two copies, in whichever order
 * they arrive, and gives both one error id, so that the rules count the error
 * once (rules/rule-engine.h: a bucket counts an error id once) and `mcectl
 * query` can show both entries as one error.
 *
 * Two records pair when one is a machine check and the other an EDAC event,
 * of the same severity, at most ERROR_PAIR_WINDOW_USEC apart, neither paired
 * yet, and, when both name a page, the same page.  On AMD the machine check
 * names no page (its address is normalized) and the EDAC copy names the
 * translated one: they pair on time and severity alone, which is harmless
 * when wrong, as the two then count in different buckets anyway.
 *
 * Pure: the caller passes the time in.
 */

#include <stdbool.h>
#include <stdint.h>

#define ERROR_PAIR_WINDOW_USEC (2 * UINT64_C(1000000)) /* the MCE's own time has 1 s precision */
#define ERROR_PAIR_RECENT 64                           /* far more than arrive in a window */

struct error_pair_probe {
	bool is_mce;                /* a machine check; else an EDAC memory-controller event */
	int severity;               /* the shared scale (corrected, deferred, ...) */
	bool has_page;
	uint64_t page;
	uint64_t time_usec;
};

struct error_pair_seen {
	struct error_pair_probe probe;
	uint64_t id;
	bool paired;
};

struct error_pair {
	struct error_pair_seen recent[ERROR_PAIR_RECENT];
	unsigned next, used;
	uint64_t last_id;
};

/*
 * The error id of one memory record (never 0): its partner's when it pairs
 * with one (*ret_paired is then true), else a new one, unique in this run
 * and, being at least the record's time, across runs of one machine.
 */
uint64_t error_pair_feed(struct error_pair *p, const struct error_pair_probe *x, bool *ret_paired);

struct rule_input;
/*
 * The same for a record as the rules see it: a memory bank's machine check or
 * an EDAC memory-controller event gets its id in in->error_id (returned);
 * any other record keeps 0.  The daemon and `mcectl rules --test` both pair
 * through this, so that they count alike.
 */
uint64_t error_pair_input(struct error_pair *p, struct rule_input *in, uint64_t time_usec, bool *ret_paired);
