/* SPDX-License-Identifier: MIT */
#pragma once

/*
 * A ledger entry as JSON: the object `mcectl dimms --json` prints per
 * module, and the "module" object of a verdict change's entry (mcelogd(8),
 * MODULE LEDGER).  Pure.
 */

struct json_writer;
struct module_entry;
struct module_change;

/* The entry's keys, inside an object the caller opened. */
void module_entry_write_fields(const struct module_entry *m, struct json_writer *w);
/* "module": {...the entry..., "previous_verdict": ...} for a change. */
void module_change_write_json(const struct module_change *c, struct json_writer *w);
