/* SPDX-License-Identifier: MIT */
#pragma once

/*
 * Storms of ras records: the storm engine (rules/storm.h), with the same
 * model, settings and accounting invariants, keyed by ras signatures
 * (rules/ras-storm-key.h).  A separate engine from the machine checks', so a
 * ras flood never evicts a machine-check signature or the other way round.
 *
 * The engine knows a signature by its digest only; this keeps the text of
 * every storm in progress, for its summaries, its end, status and the saved
 * state.  A record whose digest matches a storm of another signature is
 * logged, not counted: a digest collision never merges two storms.
 *
 * Pure and not thread-safe, like the engine.
 */

#include <stdbool.h>
#include <stdint.h>

#include "ras-storm-key.h"
#include "storm.h"

struct ras_storm;

typedef void (*ras_storm_event_fn)(const struct storm_event *event, const struct ras_storm_key *key,
				   void *userdata);
/* Non-zero stops the iteration and is returned. */
typedef int (*ras_storm_info_fn)(const struct storm_info *info, const struct ras_storm_key *key,
				 void *userdata);

/* config NULL means the defaults.  -EINVAL, -ENOMEM. */
int ras_storm_new(const struct storm_config *config, struct ras_storm **ret);
void ras_storm_free(struct ras_storm *s);
static inline void ras_storm_freep(struct ras_storm **s)
{
	ras_storm_free(*s);
}
#define _cleanup_ras_storm_ __attribute__((cleanup(ras_storm_freep)))

/* storm_account() for one ras record of signature key. */
enum storm_verdict ras_storm_account(struct ras_storm *s, const struct ras_storm_key *key, uint64_t now_usec);

/* storm_tick(): the events carry the signature. */
unsigned ras_storm_tick(struct ras_storm *s, uint64_t now_usec, ras_storm_event_fn fn, void *userdata);
uint64_t ras_storm_next_deadline(const struct ras_storm *s);

int ras_storm_foreach_active(const struct ras_storm *s, ras_storm_info_fn fn, void *userdata);
/* The engine's counters; collisions: records logged because their digest was another storm's. */
void ras_storm_get_counters(const struct ras_storm *s, struct storm_counters *counters, uint64_t *collisions);
