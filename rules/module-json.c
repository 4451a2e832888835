/* SPDX-License-Identifier: MIT */
#include "json-writer.h"
#include "module-json.h"
#include "module-ledger.h"

void module_entry_write_fields(const struct module_entry *m, struct json_writer *w)
{
	const struct module_pattern *p = &m->pattern;
	char pattern[160];

	json_put_string(w, "kind", module_kind_to_string(m->id.kind));
	json_put_string(w, "slot", m->id.slot);
	json_put_string(w, "serial", m->id.serial);
	json_put_string(w, "part", m->id.part);
	json_put_bool(w, "fallback_key", m->id.fallback);
	json_put_string(w, "key", m->id.key);
	json_put_string(w, "verdict", module_verdict_to_string(m->verdict));
	json_put_string(w, "reason", m->reason);
	json_put_u64(w, "corrected", m->corrected);
	json_put_u64(w, "uncorrected", m->uncorrected);
	json_put_u64(w, "corrected_this_week", m->week_corrected);
	json_put_string(w, "pattern", dram_pattern_to_string(dram_tracker_pattern(&p->tracker)));
	module_pattern_describe(p, pattern, sizeof(pattern));
	json_put_string(w, "pattern_text", pattern);
	json_put_u64(w, "cells", p->n_cells + (p->more_cells ? 1u : 0u));
	json_put_u64(w, "rows", p->n_rows + (p->more_rows ? 1u : 0u));
	json_put_u64(w, "columns", p->n_columns + (p->more_columns ? 1u : 0u));
	json_put_u64(w, "banks", p->n_banks + (p->more_banks ? 1u : 0u));
	json_put_u64(w, "ranks", module_pattern_ranks(p));
	json_put_u64(w, "pages_retired", m->pages_retired);
	json_put_u64(w, "rows_retired", m->rows_retired);
	json_put_u64(w, "repairs_done", m->repairs[MODULE_REPAIR_DONE]);
	json_put_u64(w, "repairs_refused", m->repairs[MODULE_REPAIR_REFUSED]);
	json_put_u64(w, "repairs_failed", m->repairs[MODULE_REPAIR_FAILED]);
	if (m->spares_left >= 0)
		json_put_i64(w, "spares_left", m->spares_left);
	if (m->first_usec > 0)
		json_put_time_usec(w, "first_error", m->first_usec);
	if (m->last_usec > 0)
		json_put_time_usec(w, "latest_error", m->last_usec);
	json_put_string(w, "latest_error_text", m->last_error);
}

void module_change_write_json(const struct module_change *c, struct json_writer *w)
{
	json_object_begin(w, "module");
	module_entry_write_fields(c->module, w);
	json_put_string(w, "previous_verdict", module_verdict_to_string(c->from));
	json_object_end(w);
}
