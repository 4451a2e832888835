/* SPDX-License-Identifier: MIT */
#pragma once

/*
 * The rules engine: a record and the time in, the rules it fires out.  Pure:
 * no I/O, no clock, no logging; the daemon's rules stage acts on the
 * firings, and `mcectl rules --test` only prints them.
 *
 * Every rule sees every record; rules are independent, and a record may fire
 * several (a page rule and a DIMM rule both count it).  A record that matches
 * a rule is counted in the bucket of its key: the values of the rule's Key=
 * fields.  A record without one of those fields is not counted by that rule
 * (it cannot be told apart) but counted as "unkeyed" in the rule's
 * statistics, so that a rule that never fires for that reason shows it.
 *
 * A record that is a second copy of an error the bucket already counted (the
 * same rule_input.error_id: a machine check and its EDAC event) is not counted
 * again: one error, one count.
 *
 * Memory is bounded: each rule keeps at most max_keys buckets; when full, the
 * bucket used least recently makes room and the rule's "evicted" count says
 * so.  Recently means in the order records came, whatever their times: in a
 * storm whose records share one second (or have none), the key a record just
 * brought is the last to go, never the next.  Buckets put back from the state
 * file (rule_engine_restore()) count as used at their newest time (one
 * resting after a firing: when it fired), before any record fed after them.
 * A key is found by its hash and the bucket to evict at once, so a record
 * costs the same with 16 keys or 4,096 (bench/rule-keys.c).
 */

#include <stdbool.h>
#include <stdint.h>

#include "rule.h"
#include "rule-window.h"

#define RULE_KEY_MAX 192                  /* "socket=0 mc=1 channel=2 dimm=0" and longer */
#define RULE_ENGINE_DEFAULT_MAX_KEYS 4096U

struct rule_firing {
	const struct rule *rule;
	unsigned rule_index;
	const char *key;                  /* "page=0x1234"; "" for a rule without Key= */
	unsigned count;                   /* the rule's N */
	uint64_t window_usec;             /* the rule's T */
	uint64_t first_usec;              /* time of the first of the N records */
	uint64_t now_usec;                /* time of the record that fired it */
	const struct rule_input *input;   /* that record */
};

typedef void (*rule_fire_fn)(const struct rule_firing *f, void *userdata);

/* Error ids a bucket remembers: a copy arrives moments after the first record, well within these. */
#define RULE_BUCKET_ERROR_IDS 4

struct rule_bucket {
	char key[RULE_KEY_MAX];
	uint64_t hash;                    /* of key: the engine's index */
	uint64_t holdoff_until;           /* Holdoff=: records before this time are not counted */
	struct rule_window window;
	uint64_t error_ids[RULE_BUCKET_ERROR_IDS];   /* the last errors counted, to count each once */
	unsigned next_error_id;
	/*
	 * What changed since the daemon last put it on disk (rule_engine_changes_clear()),
	 * so that it appends only that (rule-state.h, the journal).  Not saved.
	 */
	unsigned fresh;                   /* records added at the window's end, nothing else changed */
	bool rewrite;                     /* new, emptied (fired, started afresh), expired: written whole */
};

struct rule_stats {
	uint64_t matched;                 /* records the rule's Match= took */
	uint64_t unkeyed;                 /* of those, records missing a Key= field */
	uint64_t held;                    /* of those, records of a key resting after a firing */
	uint64_t copies;                  /* of those, second copies of an error counted already */
	uint64_t fired;
	uint64_t evicted;                 /* buckets dropped to make room */
};

struct rule_engine;

/* The engine keeps a pointer to set, which must outlive it. */
int rule_engine_new(const struct rule_set *set, unsigned max_keys, struct rule_engine **ret);
struct rule_engine *rule_engine_free(struct rule_engine *e);
static inline void rule_engine_freep(struct rule_engine **e)
{
	rule_engine_free(*e);
}

/* True if every Match= term of r holds for the record. */
bool rule_matches(const struct rule *r, const struct rule_input *in);

/* Writes the record's key for r into buf; false if the record lacks a Key= field. */
bool rule_key(const struct rule *r, const struct rule_input *in, char buf[static RULE_KEY_MAX]);

/*
 * Runs one record through every rule at now_usec (the caller's choice of
 * clock, the same for every call).  fire is called once per rule it fires,
 * in rule order.  Returns the number of firings, or -ENOMEM (the record is
 * then counted by the rules before the one that failed).
 */
int rule_engine_feed(struct rule_engine *e, const struct rule_input *in, uint64_t now_usec,
		     rule_fire_fn fire, void *userdata);

const struct rule_set *rule_engine_rules(const struct rule_engine *e);
const struct rule_stats *rule_engine_stats(const struct rule_engine *e, unsigned rule_index);
/* The buckets of one rule, in no order, for the state file and `mcectl rules`; n is set to their number. */
const struct rule_bucket *rule_engine_buckets(const struct rule_engine *e, unsigned rule_index,
					      unsigned *ret_n);

/* Forgets the buckets' changes: what they hold is on disk. */
void rule_engine_changes_clear(struct rule_engine *e);

/*
 * Puts back a bucket (from the state file): times are the record times still
 * counted, oldest first, at most N-1 of them are kept.  A rule name not in the
 * set is ignored (the rule was removed): returns 0 either way, or -ENOMEM.
 * The bucket is then unchanged (it is as the file says).  Buckets may come
 * in any order: when the rule's keys are full, the one used least recently
 * makes room (counted as evicted), or the one restored is not kept if it was
 * used before all of them.
 */
int rule_engine_restore(struct rule_engine *e, const char *rule_name, const char *key,
			uint64_t holdoff_until, const uint64_t *times, unsigned n_times);
