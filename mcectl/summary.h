/* SPDX-License-Identifier: MIT */
#pragma once

/*
 * mcectl summary: records counted per component (DIMM, channel, bank, CPU,
 * socket, page, error, host or DRAM row), with first and last seen, the rate over the
 * window and the storms, top offenders first.  Fed one journal entry's
 * MCE_JSON at a time (records, other hardware-error records, storm summaries
 * and ends); loss reports and alerts are not records and are left out.
 *
 * Pure: no I/O but the FILE the caller prints to, no clock (times come in).
 */

#include <stdint.h>
#include <stdio.h>

#include <json-c/json.h>

enum summary_by {
	SUMMARY_BY_DIMM,
	SUMMARY_BY_CHANNEL,
	SUMMARY_BY_BANK,
	SUMMARY_BY_CPU,
	SUMMARY_BY_SOCKET,
	SUMMARY_BY_PAGE,
	SUMMARY_BY_ERROR,
	SUMMARY_BY_HOST,
	SUMMARY_BY_ROW,         /* the DRAM row: DIMM, bank group, bank, row (records that name their cell) */
	SUMMARY_BY_MEMDEV,      /* the CXL memory device: its name and serial */
	SUMMARY_BY_PROCESS,     /* the process a memory error's SIGBUS was for: command and unit */
	SUMMARY_BY_DISK,        /* the disk of a failed request: its name, or major:minor */
	_SUMMARY_BY_MAX,
	_SUMMARY_BY_INVALID = -1,
};

enum summary_by summary_by_from_string(const char *s);
const char *summary_by_to_string(enum summary_by by);
/* "dimm|channel|...": for messages. */
const char *summary_by_choices(void);

struct summary;

struct summary *summary_new(enum summary_by by);
struct summary *summary_free(struct summary *s);
/*
 * A part of the entries, counted apart (another thread) and merged into the
 * summary of the entries before it: the result is the same as if all had
 * been added to one summary in order.  -ENOMEM.
 */
struct summary *summary_new_part(enum summary_by by);
/* Every entry's host for --by host, whatever its hostname says (a collector's sender); NULL: theirs. */
void summary_set_host(struct summary *s, const char *host);
int summary_merge(struct summary *s, const struct summary *later);

/*
 * One entry: its MCE_JSON object and when it was written (µs since the epoch).
 * Returns 1 if counted, 0 if it is not a record (loss, alert), -ENOMEM.
 */
int summary_add(struct summary *s, json_object *entry, int64_t time_usec);

/*
 * The same from whatever holds the entry's fields: get(userdata, key) gives a
 * record key's value as text (numbers in decimal or 0x-hex), "flag:NAME" a
 * non-NULL for a flag the record has, and "event" the entry's kind as its
 * JSON names it; NULL when absent.  The strings stay valid until the call
 * returns.  The journal gives most from its flat fields, which is far cheaper
 * than the whole JSON.
 */
struct summary_fields {
	const char *(*get)(void *userdata, const char *key);
	void *userdata;
};
int summary_add_fields(struct summary *s, const struct summary_fields *fields, int64_t time_usec);
/* The getter summary_add() uses, for a caller that has some fields as JSON. */
struct summary_fields summary_json_fields(json_object *entry);

/* Groups, largest count first.  window_start/end (µs) give the rate; 0: the records' own span. */
void summary_print_table(struct summary *s, FILE *out, int64_t window_start, int64_t window_end);
void summary_print_json(struct summary *s, FILE *out, int64_t window_start, int64_t window_end);
void summary_print_csv(struct summary *s, FILE *out, int64_t window_start, int64_t window_end);
size_t summary_groups(const struct summary *s);
